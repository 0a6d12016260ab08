"""Pig, the calibration game and the worked example of a game package (docs/adding-a-game.md).

Modules, one role each: ``rules`` (house rules and position checks), ``exact`` (the exact
solver and exact one-turn statistics), ``play`` (policies, kernel jobs, the Monte Carlo entry
points, the pure-Python reference), ``cli`` (the Typer sub-app), ``report`` (report parts and the
hold-boundary chart), ``tune`` (metrics), ``bench`` (bench cases). Kernels: ``kernels/pig/``.
This file only describes the game; it imports nothing heavy.
"""
from analyzer.games import Game

GAME = Game(
    key="pig",
    title="Pig (calibration)",
    summary="Race to 100 rolling a d6; a 1 loses the turn. Optimal play solved exactly.",
    players=(2, 2),
    trial="games",
    chance="one fair die with `faces` sides, rolled with replacement",
    exact_reach="the whole two-player game (value iteration)",
    value_unit="P(win)",
    rules_page="pig.md",
    tags=("dice", "whole-game exact", "calibration"),
)
