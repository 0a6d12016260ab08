"""MAGDAGDON: the solo dice-placement game (four d6 a turn onto a 4×4 board).

Modules: ``rules`` (house rules, difficulties, board and roll notation), ``rolls`` (the roll
multisets, in plain Python), ``arrays`` (the rules as the kernels' input arrays), ``exact``
(scoring, feasibility of a roll, exact MAGDAGDON odds), ``feasible`` and ``odds`` (their
pure-Python searches), ``play`` (policies and whole-game Monte Carlo), ``decide`` (the best action
for a board and roll), ``reference`` (pure-Python references of the kernels, for bench), ``cli``,
``report``, ``tune``, ``bench``. Kernels: ``kernels/magdagdon/``.
"""
from analyzer.games import Game

GAME = Game(
    key="magdagdon",
    title="MAGDAGDON: placing dice without ruin",
    summary="MAGDAGDON: place dice on a 4×4 board without ruin",
    players=(1, 1),
    trial="games",
    chance="four d6 per turn (rerolls of any dice with a power)",
    exact_reach="one roll: scoring, feasibility and the MAGDAGDON odds with powers",
    value_unit="points (final score)",
    rules_page="magdagdon.md",
    tags=("dice", "solo", "placement", "exact odds"),
)
