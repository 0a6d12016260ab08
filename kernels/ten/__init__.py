"""Ten's Numba kernels: one turn's draw-or-stop problem, solved exactly by expectimax over the
remaining pile (``exact.py``: the model, the state encoding and the recursion) and played over
shuffled piles under threshold policies or the solver's optimal table (``turn.py``: common random
numbers across policies). Rules and value weights arrive as plain arrays and scalars; the Python
wrappers are in ``analyzer/games/ten/exact.py`` and ``analyzer/games/ten/play.py``.
"""
from kernels.ten.exact import solve_turn
from kernels.ten.turn import NSTAT, turn_blocks

__all__ = ["solve_turn", "turn_blocks", "NSTAT"]
