"""Trash Pandas: should I roll again? One turn of the push-your-luck card game, solved exactly.

Modules: ``rules`` (house rules, tokens, value model, notation), ``exact`` (the exact turn
solver), ``play`` (policies as tables, their exact evaluation, kernel jobs, the Monte Carlo entry
point), ``score`` (the deck file and end-of-game scoring), ``cli``, ``report``, ``tune``, ``bench``.
Kernels: ``kernels/trash_pandas/``.
"""
from analyzer.games import Game

GAME = Game(
    key="trash-pandas",
    title="Trash Pandas",
    summary="Stop or roll? Exact values of a turn (held tokens × cards in hand × bonus turn).",
    players=(2, 5),
    trial="turns",
    chance="one custom d6 (six token faces), rolled with replacement",
    exact_reach="one turn, including the bonus turn",
    value_unit="card-equivalents",
    rules_page="trash-pandas.md",
    tags=("dice", "cards", "turn exact"),
)
