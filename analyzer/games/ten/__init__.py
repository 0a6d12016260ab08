"""Ten: draw cards until you stop or bust; number cards add to N, currency cards to C.

Modules: ``rules`` (house rules, the deck file, card notation, the turn state, the value model),
``exact`` (next-card odds and the exact one-turn expectimax, its policies and ``best``), ``play``
(kernel jobs, Monte Carlo turns and threshold tables, the pure-Python reference), ``score``
(end-of-game scoring of a collection), ``cli``, ``report`` (the report section, threshold tables
and chart), ``tune`` and ``bench``. Whole games (issue #14): ``whole`` (line-ups → kernel jobs and
their statistics), ``bots``, ``position`` (the `decide` position format, scripted games),
``decide`` (`game` and `decide` as functions), ``cli_whole`` (their commands), ``cards`` (card
types), ``whole_reference`` (the pure-Python reference on the same random numbers) and
``whole_parts`` (metrics, bench cases). Kernels: ``kernels/ten/``.
"""
from analyzer.games import Game

GAME = Game(
    key="ten",
    title="Ten: when to stop drawing",
    summary="Ten: card-counting odds, the exact stop/draw decision, rules of thumb, scoring, "
            "whole games between bots and the chance of winning at a position.",
    players=(1, 5),
    trial="turns",
    chance="a shuffled deck without replacement (129 cards for 4 players)",
    exact_reach="one turn: next-card odds and the optimal stop/draw policy; end-of-game scores "
                "(whole games and positions by Monte Carlo)",
    value_unit="card-equivalents (card=1, token=0.25, bust token=3 tokens)",
    rules_page="ten.md",
    tags=("cards", "card counting", "one-turn exact", "whole games", "auctions"),
)
