"""Ten's Numba kernels: one turn's draw-or-stop problem, solved exactly by expectimax over the
remaining pile (``exact.py``: the model, the state encoding and the recursion) and played over
shuffled piles under threshold policies or the solver's optimal table (``turn.py``: common random
numbers across policies); whole games with auctions, rewards, buys and bots (``whole_engine.py``, its decisions and
payments in ``whole_decisions.py``,
driven by ``whole_blocks.py``; exact end-of-game scoring in ``whole_score.py``; index constants
and the named sum columns in ``whole_layout.py``). Rules and value weights arrive as plain arrays
and scalars; the Python wrappers are in ``analyzer/games/ten/exact.py``, ``play.py`` and
``whole.py``.
"""
from kernels.ten.exact import solve_turn
from kernels.ten.turn import NSTAT, turn_blocks
from kernels.ten.whole_layout import DIFF_COLUMNS, LINEUP_COLUMNS, REC_NAMES, column

__all__ = ["solve_turn", "turn_blocks", "NSTAT", "DIFF_COLUMNS", "LINEUP_COLUMNS", "REC_NAMES",
           "column"]
