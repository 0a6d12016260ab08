"""Go-Stop (Korean hwatu fishing game), 2 or 3 players: scoring, whole deals, go or stop.

Modules: ``rules`` (house rules, card notation, the kernels' rules vector), ``score`` (exact points
and payments of capture piles), ``play`` (policies, whole-deal simulation jobs, the pure-Python
reference of the engine), ``decide`` (positions and the go-or-stop playouts), ``cli``, ``report``
(report section and the payment chart), ``tune`` (metrics), ``bench``. Kernels: ``kernels/gostop/``.
"""
from analyzer.games import Game

GAME = Game(
    key="gostop",
    title="Go-Stop: go or stop?",
    summary="Korean hwatu fishing game: exact scoring and payments, whole deals between policies, "
            "and whether to go or stop from a position.",
    players=(2, 3),
    trial="deals",
    chance="a 48-card hwatu deck (+ jokers) shuffled without replacement",
    exact_reach="the score and payments of given capture piles",
    value_unit="net chips",
    rules_page="gostop.md",
    tags=("cards", "fishing", "whole deal", "go or stop"),
)
