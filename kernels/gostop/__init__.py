"""Go-Stop kernels: the deal engine (one flat int64 state array per deal) and its batch drivers.

``score`` scores capture piles and settles payments (rules sections 7 and 9) and lays out the
front of the state array; ``state`` lays out the engine block and holds the card moves; ``turn``
plays one turn (policies decide inside it); ``deal`` shuffles, deals, runs the turns and checks
conservation; ``batch`` runs whole deals (``simulate_blocks``) and go/stop playouts from a position
(``decide_blocks``) over blocks of trials, one random stream per trial. Below are the entry
points; constants and helpers are imported from the role modules by name.
"""
from kernels.gostop.batch import decide_blocks, simulate_blocks
from kernels.gostop.deal import debug_deal, play_deal
from kernels.gostop.state import new_state, views
from kernels.gostop.turn import scripted_turn

__all__ = ["decide_blocks", "simulate_blocks", "debug_deal", "play_deal", "new_state", "views",
           "scripted_turn"]
