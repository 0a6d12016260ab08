"""Honest intervals at the edges (issue 11, items 8, 9, 12, 24).

* An exact 0 lies inside its Wilson interval, through the CLI (item 8).
* Means driven by rare, large contributions cover the exact value at small n, including runs with
  no rare event at all, and warn that the sample is too small (item 9). Coverage is measured over
  a fixed set of independent streams; the tolerance is 4 binomial standard errors of the
  coverage at the nominal 95%.
* Exact probabilities are clamped to [0, 1] (item 12); errors name the flag the user typed (24).
"""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from analyzer.cli.main import build_app


def _cli(*args):
    return CliRunner().invoke(build_app(), list(args))


def test_exact_zero_lies_inside_the_wilson_interval_through_the_cli():
    """Item 8: the optimal policy with one of each card never collects all six (exact 0); with
    no success in 400 turns the lower bound must be exactly 0, not 8.7e-19."""
    r = _cli("trash-pandas", "simulate", "--policy", "optimal", "--blammo", "1", "--nanners", "1",
             "--pie", "1", "-n", "400", "--seed", "100000", "--json")
    assert r.exit_code == 0, r.output
    six = json.loads(r.stdout)["p_all_six"]
    assert six["exact_value"] == 0.0 and six["estimate"] == 0.0
    assert six["ci_low"] == 0.0 <= six["ci_high"]


# ---- item 9: coverage of skewed means at small n ---------------------------------------------

RUNS = 1000          # independent runs of N_TURNS turns each (one kernel block per run)
N_TURNS = 200
NOMINAL = 0.95
TOLERANCE = 4 * math.sqrt(NOMINAL * (1 - NOMINAL) / RUNS)   # 4 binomial SE of the coverage


@pytest.fixture(scope="module")
def stop_at_6_runs():
    """RUNS runs of ``trash-pandas simulate --policy stop-at:6 -n 200``: the same kernel job and
    statistics as the command, each run on its own block stream of a fixed seed."""
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.play import (PolicyEvaluator, build_tables, make_job,
                                                  turn_statistics)
    from analyzer.games.trash_pandas.lineup import parse_policy
    from analyzer.games.trash_pandas.rules import TrashPandasRules, ValueModel
    from analyzer.rng import block_keys

    solver = TurnSolver(ValueModel(), TrashPandasRules())
    tables = build_tables(parse_policy("stop-at:6"), solver, 0, 0, 0)
    exact = PolicyEvaluator(tables, solver).turn()
    job = make_job(tables, solver)
    sums = job.run_blocks(block_keys(20261130, 0, RUNS), np.full(RUNS, N_TURNS, dtype=np.int64))
    return [turn_statistics(row, N_TURNS, tables, solver, exact) for row in sums]


@pytest.mark.parametrize("key", ["mean_tokens", "mean_value"])
def test_skewed_means_cover_the_exact_value_at_small_n(stop_at_6_runs, key):
    """stop-at:6 scores tokens only on the ~1.5% of turns that collect all six: with 200 turns
    the normal interval covered about 88% of the time; the interval must cover ≥ 95% − 4 SE."""
    hits = [s[key].ci_low <= s[key].exact_value <= s[key].ci_high for s in stop_at_6_runs]
    assert np.mean(hits) >= NOMINAL - TOLERANCE


def test_runs_without_a_rare_event_get_an_honest_interval_and_a_warning(stop_at_6_runs):
    """P(no all-six turn in 200) = (1 − 1/64.8)^200 ≈ 4.5%: such runs exist in the set, their
    intervals are not the zero-width [0, 0] and contain the exact mean; every small run warns."""
    empty = [s for s in stop_at_6_runs if s["p_all_six"].estimate == 0.0]
    assert len(empty) >= 10
    for s in empty:
        tok = s["mean_tokens"]
        assert tok.ci_low <= tok.exact_value <= tok.ci_high
        assert tok.ci_high > tok.ci_low
    assert all("warning" in s for s in stop_at_6_runs)


def test_rare_interval_is_the_normal_one_with_enough_rare_events():
    """With ≥ RARE_MIN rare trials (and as many others) the normal interval is kept, unwarned."""
    from analyzer.stats import RARE_MIN, mean_from_sums, mean_with_rare

    n, k = 1000, RARE_MIN  # k trials worth 6, the rest 0
    stat, ok = mean_with_rare(6.0 * k, 36.0 * k, n, k, 6.0 * k, 36.0 * k, (6, 9), (0, 9))
    assert ok and stat == mean_from_sums(6.0 * k, 36.0 * k, n)


def test_rare_interval_with_no_rare_event_by_hand():
    """No rare trial in 200, all others 0, rare values in [6, 9]: the interval is
    [0, 9 · p_U] with p_U the Wilson upper bound of 0/200 at z = 2.2414 (97.5% two-sided):
    p_U = z² / (n + z²)."""
    from analyzer.stats import mean_with_rare

    z = 2.241402727604947
    stat, ok = mean_with_rare(0.0, 0.0, 200, 0, 0.0, 0.0, (6.0, 9.0), (0.0, 9.0))
    assert not ok
    assert stat.ci_low == 0.0
    assert stat.ci_high == pytest.approx(9 * z * z / (200 + z * z), rel=1e-12)


def test_text_output_warns_on_stderr():
    r = _cli("trash-pandas", "simulate", "--policy", "stop-at:6", "-n", "200", "--seed", "3")
    assert r.exit_code == 0
    assert "warning: only" in r.stderr and "warning" not in r.stdout


# ---- items 12 and 24 ---------------------------------------------------------------------------

def test_probabilities_are_clamped_to_the_unit_interval():
    from analyzer.stats import clamp_probability

    assert math.copysign(1.0, clamp_probability(-0.0)) == 1.0
    assert clamp_probability(-1e-17) == 0.0
    assert clamp_probability(1.0000000000000002) == 1.0
    assert clamp_probability(0.25) == 0.25


def test_ten_score_names_the_collection_flag(cli):
    code, out, err = cli("ten", "score", "--collection", "*5,*5,*5")
    assert code == 2 and out == ""
    assert "--collection" in err and "--tableau" not in err


def test_magdagdon_odds_prints_probabilities_inside_the_unit_interval():
    """Peaceful 3.xx/…: every MAGDAGDON roll escapes for sure with the powers; unclamped, the
    float sums gave p = -6.9e-17 (printed -0.000000) and escape chances of 1.000000000000001."""
    r = _cli("magdagdon", "odds", "--board", "3.xx/xxxx/xxxx/xxxx", "-d", "peaceful", "--json")
    out = json.loads(r.stdout)
    assert out["p_magdagdon_after_powers"] == 0.0
    assert math.copysign(1.0, out["p_magdagdon_after_powers"]) == 1.0
    assert all(0.0 <= x["p_escape_with_powers"] <= 1.0 for x in out["magdagdon_rolls"])
    text = _cli("magdagdon", "odds", "--board", "3.xx/xxxx/xxxx/xxxx", "-d", "peaceful").stdout
    assert "-0.000000" not in text


def test_quantile_interval_by_order_statistics_by_hand():
    """Item 10 (MAGDAGDON quantiles are statistic objects): 100 games scoring 0..99 once each;
    the median is the 50th score (49); its ranks 50 ∓ 1.96·5 = 40.2 and 59.8 round out to 40
    and 60, i.e. the scores 39 and 59; a rank above n takes the highest possible score."""
    from analyzer.games.magdagdon.play import _quantile

    cdf = np.cumsum(np.ones(100, dtype=np.int64))
    med = _quantile(cdf, 0, 0.5)
    assert (med.estimate, med.ci_low, med.ci_high, med.n) == (49.0, 39.0, 59.0, 100)
    top = _quantile(np.cumsum(np.r_[np.ones(100, dtype=np.int64), np.zeros(50, np.int64)]),
                    0, 0.99)
    assert top.ci_high == 149.0


def test_magdagdon_score_sd_is_a_statistic_with_a_fourth_moment_se():
    """Scores 0, 1, 2, 3 once each: mean 1.5, m2 = 1.25, m4 = 2.5625; s = sqrt(1.25·4/3) and
    SE(s) = sqrt((m4 − m2²)/n) / (2s) = 0.5 / (2s) (hand values)."""
    import math

    from analyzer.games.magdagdon.play import _sd

    st = _sd([1, 1, 1, 1], 0)
    s = math.sqrt(1.25 * 4 / 3)
    assert st.estimate == pytest.approx(s) and st.se == pytest.approx(0.5 / (2 * s))
    assert st.n == 4 and st.ci_low == pytest.approx(max(s - 1.959963984540054 * st.se, 0.0))
    flat = _sd([0, 5, 0], 7)  # every score equal: SD 0, no spread to estimate
    assert flat.estimate == 0.0 and flat.se == 0.0 and flat.ci_low == 0.0
