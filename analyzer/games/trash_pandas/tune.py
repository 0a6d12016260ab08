"""Tuning metrics of Trash Pandas for `pushluck tune trash-pandas` (``METRICS``).

What belongs here: one :class:`~analyzer.tune.Metric` per quantity worth sweeping over house
rules, each naming its kernel sum column; the job builders they use come from :mod:`.play`.
"""
from __future__ import annotations

from analyzer.games.trash_pandas.rules import TrashPandasRules, ValueModel
from analyzer.tune import Metric
from kernels.trash_pandas.turn import COLUMNS


def _turn_job(rules: TrashPandasRules, policy: str):
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.lineup import parse_policy
    from analyzer.games.trash_pandas.play import build_tables, make_job

    solver = TurnSolver(ValueModel(), rules)
    return make_job(build_tables(parse_policy(policy), solver, 0, 0, 0), solver)


def _check_policy(policy: str) -> None:
    from analyzer.games.trash_pandas.lineup import parse_policy

    parse_policy(policy)


def _games_job(rules: TrashPandasRules, policy: str):
    """Whole 3-player games; ``policy`` is a bot for every seat, or one per seat (',')."""
    from analyzer.games.trash_pandas.lineup import parse_lineup
    from analyzer.games.trash_pandas.whole import GameSetup, game_job

    return game_job(GameSetup(rules, 3, [parse_lineup(policy, 3, "--policy")]))


def _check_bot(policy: str) -> None:
    from analyzer.games.trash_pandas.lineup import parse_lineup

    parse_lineup(policy, 3, "--policy")


def _game_column(name: str) -> int:
    from kernels.trash_pandas.whole_games import column_names

    return column_names(3, 1).index(f"L0:{name}")


def _game_metric(name: str, description: str, column: str, kind: str) -> Metric:
    return Metric("trash-pandas", name, description, TrashPandasRules, _games_job,
                  _game_column(column), "heuristic", kind, "games", _check_bot)


METRICS = [
    Metric("trash-pandas", "turn_value",
           "mean value of a turn (card-equivalents, default value model, no cards)",
           TrashPandasRules, _turn_job, COLUMNS.index("sum_value"), "optimal", "mean", "turn",
           _check_policy),
    Metric("trash-pandas", "bust_rate", "P(the main turn busts)", TrashPandasRules, _turn_job,
           COLUMNS.index("main_busts"), "optimal", "rate", "turn", _check_policy),
]
METRICS += [
    _game_metric("first_seat_win_rate", "whole 3-player games: seat 1's win rate (fair: 1/3; "
                 "first-player advantage = this − 1/3)", "win0", "mean"),
    _game_metric("game_length", "whole 3-player games: turns per game", "turns", "mean"),
    _game_metric("winner_margin", "whole 3-player games: winner's points minus the runner-up's",
                 "margin", "mean"),
    _game_metric("tiebreak_share", "whole 3-player games: share of games whose top points are "
                 "tied (decided by a tie-break or shared)", "tiebreak", "rate"),
    _game_metric("busts_per_game", "whole 3-player games: main-turn busts per game",
                 "main_busts", "mean"),
]
