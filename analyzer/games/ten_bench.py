"""Ten kernels for `pushluck bench`: one turn from a fresh deck under a threshold policy and
under the exact optimal policy (table lookups), with the pure-Python reference of the same loop."""
from __future__ import annotations

from analyzer.benchkit import BenchCase


def _model():
    from analyzer.games.ten import TenRules, ValueModel, load_deck, turn_state
    from analyzer.games.ten_policy import Model

    rules = TenRules()
    return Model(turn_state(rules, load_deck()), rules, ValueModel())


def _threshold_job():
    from analyzer.games.ten_policy import KIND_TOTAL, TenPolicy, make_job

    return make_job(_model(), [TenPolicy(KIND_TOTAL, 7)])


def _optimal_job():
    from analyzer.games.ten_policy import KIND_OPTIMAL, TenPolicy, make_job

    return make_job(_model(), [TenPolicy(KIND_OPTIMAL)])


def _reference(n: int, seed: int):
    from analyzer.games.ten_policy import python_reference_turns

    return python_reference_turns(n, seed, 7)


def bench_cases() -> list[BenchCase]:
    return [
        BenchCase("ten", "one turn, total:7, fresh deck", "turns", _threshold_job, 20_000_000,
                  _reference, 200_000),
        BenchCase("ten", "one turn, exact optimal policy, fresh deck", "turns", _optimal_job,
                  5_000_000),
    ]
