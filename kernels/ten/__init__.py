"""Ten's Numba kernels: one turn's draw-or-stop problem, solved exactly by expectimax over the
remaining pile (``exact.py``: the model, the state encoding and the recursion) and played over
shuffled piles under threshold policies or the solver's optimal table (``turn.py``: common random
numbers across policies); whole games with auctions, rewards, buys and bots (``whole_engine.py``, its decisions and
payments in ``whole_decisions.py``,
driven by ``whole_blocks.py``; the table bot's draw rule table read in ``whole_table.py``;
exact end-of-game scoring in ``whole_score.py`` and the slot DP of
``whole_slots.py``, kept prepared per seat between decisions in ``whole_seats.py``; index constants
and the named sum columns in ``whole_layout.py``). Rules and value weights arrive as plain arrays
and scalars; the Python wrappers are in ``analyzer/games/ten/exact.py``, ``play.py`` and
``whole.py``.
"""
from kernels.lazy import lazy_exports


# Entry point -> defining module, imported on first use (PEP 562), so a query that needs one
# kernel module does not load (and type-check the caches of) all the others.
_WHERE = {
    "solve_turn": "kernels.ten.exact",
    "NSTAT": "kernels.ten.turn",
    "turn_blocks": "kernels.ten.turn",
    "DIFF_COLUMNS": "kernels.ten.whole_layout",
    "LINEUP_COLUMNS": "kernels.ten.whole_layout",
    "REC_NAMES": "kernels.ten.whole_layout",
    "column": "kernels.ten.whole_layout",
}

__getattr__, __all__ = lazy_exports(globals(), _WHERE)
