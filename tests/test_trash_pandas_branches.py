"""Trash Pandas: the kernel branches the other tests do not reach, each against the exact value.

Collecting all six tokens with cards still in hand is the only way into the card kernel's bonus
turn (``simulate_turns``: ``mode = 1`` with Blammo!/Nanners/MMM Pie! left); "stop-at:6" rolls
until six or a bust, so with cards in hand it reaches that branch in about 2–4% of turns. Each
case runs under the default bonus cap and under cap 1 (the knob read by both kernels and by the
exact solver), and the no-card kernel is run under cap 1 too.
"""
import pytest

from analyzer.games.trash_pandas.play import simulate
from analyzer.games.trash_pandas.lineup import parse_policy
from analyzer.games.trash_pandas.rules import TrashPandasRules, ValueModel
from analyzer.runner import RunSpec


@pytest.mark.parametrize("cards,cap", [((1, 1, 2), 3), ((1, 1, 2), 1), ((0, 0, 2), 2),
                                       ((2, 0, 1), 1), ((0, 0, 0), 1)])
def test_stop_at_six_with_cards_in_hand_reaches_the_bonus_turn(cards, cap):
    out = simulate(parse_policy("stop-at:6"), ValueModel(), TrashPandasRules(bonus_cap=cap),
                   cards, RunSpec(150_000, 29, progress=False))
    assert out["p_all_six"].estimate > 0.01  # the branch is reached, many times
    if cards[1] == 0 and cap > 1:  # a Nanners left stops a repeat; cap 1 takes one token
        assert out["p_bonus_bust"].estimate > 0.0
    for key in ("bust_rate", "mean_tokens", "p_all_six", "mean_value"):
        stat = out[key]
        assert abs(stat.estimate - stat.exact_value) <= 4.5 * stat.se + 1e-12, key


def test_optimal_with_cards_and_cap_one_matches_exact():
    out = simulate(parse_policy("optimal"), ValueModel(), TrashPandasRules(bonus_cap=1),
                   (1, 1, 1), RunSpec(150_000, 31, progress=False))
    for key in ("bust_rate", "mean_tokens", "p_all_six", "mean_value"):
        stat = out[key]
        assert abs(stat.estimate - stat.exact_value) <= 4.5 * stat.se + 1e-12, key


@pytest.mark.parametrize("cards,cap", [((1, 1, 2), 1), ((0, 0, 1), 1), ((0, 0, 2), 2),
                                       ((0, 0, 0), 1)])
def test_a_turn_that_collects_six_ends_with_six_to_six_plus_cap_tokens(cards, cap):
    """Whole turns, not statistics: a turn that collects all six then plays a bonus turn that
    busts (0 more) or stops at most at ``bonus_cap`` tokens, so the summed tokens of the all-six
    turns lie in [6·k, (6 + cap)·k] for k such turns; with cap 1 and no Nanners at the start of
    the bonus turn its first roll always takes a token, so the bound is reached exactly."""
    from analyzer.games.trash_pandas.play import TurnSolver, build_tables, make_job
    from kernels.trash_pandas import COLUMNS

    rules = TrashPandasRules(bonus_cap=cap)
    solver = TurnSolver(ValueModel(), rules)
    tables = build_tables(parse_policy("stop-at:6"), solver, *cards)
    res = RunSpec(60_000, 7, progress=False).run(make_job(tables, solver))
    s = dict(zip(COLUMNS, res.sums))
    k = s["all_six"]
    assert k > 500
    assert 6 * k <= s["six_tokens"] <= (6 + cap) * k
    if cap == 1 and cards[1] == 0:
        assert s["six_tokens"] == 7 * k


@pytest.mark.parametrize("k", [1, 3, 5, 6])
def test_the_minimal_stop_at_loop_matches_the_closed_form(k):
    """The bench's minimal loop (``stop_at_plain``): a turn with no cards rolls until it holds k
    distinct tokens or repeats one (a bust). It survives with probability
    q = 6!/(6 − k)! / 6^k (each roll must show a new face), then holds k tokens; it reaches six
    only when k = 6. So busts ~ 1 − q, Σtokens = k · survivors, sixes = survivors · [k = 6]."""
    import math

    import numpy as np

    from analyzer.rng import block_keys
    from kernels.trash_pandas import stop_at_plain

    n, blocks = 20_000, 8
    out = stop_at_plain(block_keys(5, 0, blocks), np.full(blocks, n, dtype=np.int64), k)
    busts, tokens, sixes = out.sum(axis=0)
    total = n * blocks
    q = math.perm(6, k) / 6 ** k
    assert tokens == k * (total - busts)
    assert sixes == (total - busts if k == 6 else 0)
    se = math.sqrt(q * (1 - q) / total)
    assert abs((total - busts) / total - q) <= 5 * se + 1e-12


@pytest.mark.parametrize("cap", [1, 2])
def test_a_rule_that_would_roll_on_stops_at_the_bonus_cap(cap):
    """A rule of thumb is a table over every state, so "roll while you hold at most 5 tokens"
    says roll in the bonus turn past its cap too: the kernel itself must stop the bonus turn at
    ``bonus_cap`` tokens. With one MMM Pie! and no Nanners the all-six turns then end with
    between 6 and 6 + cap tokens, exactly 7 each under cap 1 (the first bonus roll always takes
    a token); the mean value matches the exact value of the same tables (PolicyEvaluator's
    walk, which stops at the cap)."""
    import math

    from analyzer.advice import Rule
    from analyzer.games.trash_pandas.advice import rule_tables
    from analyzer.games.trash_pandas.play import (PolicyEvaluator, PolicySpec, TurnSolver,
                                                  build_tables, make_job)
    from kernels.trash_pandas import COLUMNS

    rules = TrashPandasRules(bonus_cap=cap)
    solver = TurnSolver(ValueModel(), rules)
    rule = Rule("threshold", "tokens", "<=", (5,))
    tables = build_tables(PolicySpec("rule", rule=rule, source="test", tables=rule_tables),
                          solver, 0, 0, 1)
    res = RunSpec(60_000, 3, progress=False).run(make_job(tables, solver))
    s = dict(zip(COLUMNS, res.sums))
    k = s["all_six"]
    assert k > 500
    assert 6 * k <= s["six_tokens"] <= (6 + cap) * k
    if cap == 1:
        assert s["six_tokens"] == 7 * k
    n = res.n
    mean = s["sum_value"] / n
    se = math.sqrt(max(s["sum_value2"] / n - mean * mean, 0.0) / (n - 1))
    exact = PolicyEvaluator(tables, solver).turn()["mean_value"]
    assert abs(mean - exact) <= 5 * se
