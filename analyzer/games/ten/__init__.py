"""Ten: draw cards until you stop or bust; number cards add to N, currency cards to C.

Modules: ``rules`` (house rules, the deck file, card notation, the turn state, the value model),
``exact`` (next-card odds and the exact one-turn expectimax, its policies and ``best``), ``play``
(kernel jobs, Monte Carlo turns and threshold tables, the pure-Python reference), ``score``
(end-of-game scoring of a collection), ``cli``, ``report`` (the report section, threshold tables
and chart), ``tune`` and ``bench``. Kernels: ``kernels/ten/``.
"""
from analyzer.games import Game

GAME = Game(
    key="ten",
    title="Ten: when to stop drawing",
    summary="Ten: card-counting odds, the exact stop/draw decision, rules of thumb, scoring.",
    players=(1, 5),
    trial="turns",
    chance="a shuffled deck without replacement (129 cards for 4 players)",
    exact_reach="one turn: next-card odds and the optimal stop/draw policy; end-of-game scores",
    value_unit="card-equivalents (card=1, token=0.25, bust token=3 tokens)",
    rules_page="ten.md",
    tags=("cards", "card counting", "one-turn exact"),
)
