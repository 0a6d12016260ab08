"""Go-Stop kernels: the deal engine (one flat int64 state array per deal) and its batch drivers.

``score`` scores capture piles and settles payments (rules sections 7 and 9) and lays out the
front of the state array; ``state`` lays out the engine block and holds the card moves; ``turn``
plays one turn (policies decide inside it); ``deal`` shuffles, deals, runs the turns and checks
conservation; ``batch`` runs whole deals (``simulate_blocks``) and go/stop playouts from a position
(``decide_blocks``) over blocks of trials, one random stream per trial. Below are the entry
points (imported lazily); constants and helpers are imported from the role modules by name.
"""
from kernels.lazy import lazy_exports


# Entry point -> defining module, imported on first use (PEP 562), so a query that needs one
# kernel module does not load (and type-check the caches of) all the others.
_WHERE = {
    "decide_blocks": "kernels.gostop.batch",
    "simulate_blocks": "kernels.gostop.batch",
    "debug_deal": "kernels.gostop.deal",
    "play_deal": "kernels.gostop.deal",
    "new_state": "kernels.gostop.state",
    "views": "kernels.gostop.state",
    "scripted_turn": "kernels.gostop.turn",
}

__getattr__, __all__ = lazy_exports(globals(), _WHERE)
