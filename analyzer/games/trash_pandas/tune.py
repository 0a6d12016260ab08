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
    from analyzer.games.trash_pandas.play import build_tables, make_job, parse_policy

    solver = TurnSolver(ValueModel(), rules)
    return make_job(build_tables(parse_policy(policy), solver, 0, 0, 0), solver)


def _check_policy(policy: str) -> None:
    from analyzer.games.trash_pandas.play import parse_policy

    parse_policy(policy)


METRICS = [
    Metric("trash-pandas", "turn_value",
           "mean value of a turn (card-equivalents, default value model, no cards)",
           TrashPandasRules, _turn_job, COLUMNS.index("sum_value"), "optimal", "mean", "turn",
           _check_policy),
    Metric("trash-pandas", "bust_rate", "P(the main turn busts)", TrashPandasRules, _turn_job,
           COLUMNS.index("main_busts"), "optimal", "rate", "turn", _check_policy),
]
