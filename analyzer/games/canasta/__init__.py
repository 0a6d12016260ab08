"""Railroad Canasta: a kitty per player, four canasta types and a race to 20,000.

Modules: ``rules`` (house rules, card notation, the requirement), ``score`` (meld legality and
exact round scoring: `score`, `check`), ``exact`` (the exact meld chance on the deal), ``play``
(policies, kernel jobs, meld odds and whole games), ``decide`` (decisions from a stated
position), ``cli``, ``report`` (parts and the chart), ``tune`` and ``bench``. Kernels:
``kernels/canasta/``.
"""
from analyzer.games import Game

GAME = Game(
    key="canasta",
    title="Railroad Canasta",
    summary="Railroad Canasta: scores, meld checks, meld odds, whole games, decisions.",
    players=(2, 6),
    trial="games",
    chance="shuffled decks without replacement (106 cards per player)",
    exact_reach="round scores, meld checks and the meld chance on the deal",
    value_unit="points",
    rules_page="canasta.md",
    tags=("cards", "melding", "whole-game Monte Carlo", "decisions"),
)
