"""Pig's tuning metrics for `pushluck tune pig` (``METRICS``).

What belongs here: one :class:`~analyzer.tune.Metric` per quantity worth sweeping over house
rules, naming its kernel sum column (``kernels.pig.GAME_COLUMNS``); the jobs come from
:mod:`.play`. The policy of a metric is a seat pair, ``A,B`` (seat 1 moves first).
"""
from __future__ import annotations

from analyzer.games.pig.rules import PigRules
from analyzer.tune import Metric
from kernels.pig.game import GAME_COLUMNS


def _games_job(rules: PigRules, policy: str):
    from analyzer.games.pig.lineup import parse_policy_pair
    from analyzer.games.pig.play import make_job

    return make_job(parse_policy_pair(policy, "--seats"), rules)


def _check_policy(policy: str) -> None:
    from analyzer.games.pig.lineup import parse_policy_pair

    parse_policy_pair(policy, "--seats")


METRICS = [
    Metric("pig", "p_first_wins", "P(the first player wins)", PigRules, _games_job,
           GAME_COLUMNS.index("first_mover_wins"), "hold:20,hold:20", "rate", "games",
           _check_policy, lineup=True),
    # a game of Pig has no longest length (every turn may bust), so no range: `tune --target`
    # gives it the asymptotic interval
    Metric("pig", "mean_turns", "turns per game", PigRules, _games_job,
           GAME_COLUMNS.index("turns"), "hold:20,hold:20", "mean", "games", _check_policy,
           square=GAME_COLUMNS.index("turns2"), lineup=True),
]
