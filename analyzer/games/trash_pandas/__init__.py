"""Trash Pandas: should I roll again? One turn solved exactly; whole games played by bots.

Modules: ``rules`` (house rules, tokens, value model, notation), ``exact`` (the exact turn
solver), ``play`` (policies as tables, their exact evaluation, kernel jobs, the Monte Carlo entry
point), ``score`` (the deck file, end-of-game scoring, the deck as kernel arrays), ``whole``
(whole games: kernel job, statistics), ``bots`` (whole-game bots and their knobs), ``position``
and ``decide`` (decision positions played out), ``reference`` (the plain-Python whole game on
the kernel's random numbers, from analyzer/pystream.py), ``cli``, ``report``, ``tune``, ``bench``.
Kernels: ``kernels/trash_pandas/``.
"""
from analyzer.games import Game

GAME = Game(
    key="trash-pandas",
    title="Trash Pandas",
    summary="Stop or roll? Exact turn values; whole games between bots; decide in P(win).",
    players=(2, 5),
    trial="turns",
    chance="one custom d6 (six token faces), rolled with replacement",
    exact_reach="one turn, including the bonus turn",
    value_unit="card-equivalents (one turn); P(win) (whole games, decide)",
    rules_page="trash-pandas.md",
    tags=("dice", "cards", "turn exact", "whole game"),
)
