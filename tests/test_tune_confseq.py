"""The confidence sequences of `tune --target` (analyzer/confseq.py, analyzer/tune_stats.py),
checked against the formulas computed here by hand, by value, and by simulation."""
import math
import random

import numpy as np
import pytest

from analyzer import confseq
from analyzer.confseq import asymptotic_interval, interval, scaled_interval


def _bets():
    return [0.9 * 2.0 ** (-d / 2) for d in range(30)]


def test_the_bets_are_the_documented_mixture():
    assert list(confseq.BETS) == pytest.approx(_bets(), rel=1e-15)
    assert confseq.WEIGHTS.sum() == pytest.approx(1.0) and len(set(confseq.WEIGHTS)) == 1
    assert confseq.BETS[0] == 0.9 and confseq.BETS[-1] == pytest.approx(3.8843e-5, rel=1e-4)


def _mixture_lower(n, s, beta):
    """sup{m : (1/30)·Σ_d (1 + λ_d(1 − m))^s (1 − λ_d m)^(n − s) ≥ 2/β} by bisection, in plain
    Python: the exact betting capital of 0/1 observations (s ones of n)."""
    def log_k(m):
        logs = [s * math.log1p(lam * (1 - m)) + (n - s) * math.log1p(-lam * m) for lam in _bets()]
        top = max(logs)
        return top + math.log(sum(math.exp(x - top) for x in logs) / 30)

    threshold = math.log(2 / beta)
    lo, hi = 0.0, s / n
    if log_k(lo) < threshold:
        return 0.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if log_k(mid) >= threshold else (lo, mid)
    return lo


@pytest.mark.parametrize("n,s", [(100, 30), (1000, 300), (40, 1), (50, 0), (64, 64)])
def test_rates_get_the_exact_betting_capital(n, s):
    beta = 0.05
    lo, hi = scaled_interval(n, s, s, beta)
    assert lo == pytest.approx(_mixture_lower(n, s, beta), abs=2e-6)
    assert hi == pytest.approx(1 - _mixture_lower(n, n - s, beta), abs=2e-6)  # mirrored


def test_pinned_values():
    # 30 successes of 100 at β = 0.05 (hand-checked with the bisection above)
    lo, hi = scaled_interval(100, 30, 30, 0.05)
    assert (lo, hi) == (pytest.approx(0.1539, abs=2e-4), pytest.approx(0.4745, abs=2e-4))
    # wider than Wilson at z = 1.96 ([0.2189, 0.3958]): it holds at every n at once
    assert lo < 0.2189 and hi > 0.3958
    # no successes: the lower bound is exactly 0, the upper one is below 1
    lo, hi = scaled_interval(50, 0, 0, 0.05)
    assert lo == 0.0 and 0.0 < hi < 0.2


def test_a_sample_that_never_varied_certifies_nothing_near_its_mean():
    # 128 turns of stop-at:6, none collecting all six: every turn worth 1.0 (the case);
    # a turn is worth between 0 and 12, so the mean may still be far above 1
    lo, hi = interval(128, 128.0, 128.0, 0.0, 12.0, 0.05 / 6)
    assert lo < 1.0 < hi and hi > 1.5
    # batch means said [1, 1] here; a normal interval at any z would too (SE 0)


def test_the_spread_bound_tightens_a_sample_far_narrower_than_its_range():
    n = 10_000
    rng = np.random.default_rng(3)
    u = 0.5 + 0.01 * rng.standard_normal(n)  # SD 0.01 in a range of 1
    s, q = float(u.sum()), float((u * u).sum())
    with_q = scaled_interval(n, s, q, 0.05)
    chord_only = scaled_interval(n, s, None, 0.05)
    assert with_q[0] < s / n < with_q[1]
    assert with_q[1] - with_q[0] < (chord_only[1] - chord_only[0]) / 5


def test_units_scale_with_the_range():
    lo, hi = interval(100, 30 * 2 + 70 * (-1.0), None, -1.0, 2.0, 0.05)  # 30 twos, 70 minus ones
    slo, shi = scaled_interval(100, 30, None, 0.05)
    assert (lo, hi) == (pytest.approx(-1 + 3 * slo), pytest.approx(-1 + 3 * shi))
    with pytest.raises(ValueError):
        interval(10, 1, 1, 2.0, 2.0, 0.05)
    with pytest.raises(ValueError):
        scaled_interval(10, 1, 1, 1.5)


def test_the_sequence_covers_at_every_look_in_simulation():
    """β = 0.2: the share of sequences whose interval misses the mean at ANY of 12 looks
    stays below β (a Bernoulli(0.2) mean and a skewed bounded one)."""
    rng = random.Random(11)
    beta, runs = 0.2, 150
    looks = [2 ** k for k in range(1, 13)]
    for draw, mean in ((lambda: float(rng.random() < 0.2), 0.2),
                       (lambda: rng.random() ** 4, 0.2)):  # E[U⁴] = 1/5
        missed = 0
        for _ in range(runs):
            s = q = 0.0
            n = 0
            for look in looks:
                while n < look:
                    x = draw()
                    s, q, n = s + x, q + x * x, n + 1
                lo, hi = scaled_interval(n, s, q, beta)
                if not lo <= mean <= hi:
                    missed += 1
                    break
        assert missed / runs <= beta


def test_asymptotic_interval_by_hand():
    n, s, q, beta, tuned = 100.0, 50.0, 30.0, 0.05, 1600.0
    var = (30 - 50 * 50 / 100) / 99
    rho2 = (-2 * math.log(0.05) + math.log(1 - 2 * math.log(0.05))) / 1600
    r = math.sqrt(var) * math.sqrt(2 * (100 * rho2 + 1) / (100 ** 2 * rho2)
                                   * math.log(math.sqrt(100 * rho2 + 1) / 0.05))
    lo, hi = asymptotic_interval(n, s, q, beta, tuned)
    assert (lo, hi) == (pytest.approx(0.5 - r), pytest.approx(0.5 + r))
    assert r == pytest.approx(0.0987, abs=2e-4)  # pinned
    # no spread, or one observation: no interval at all
    assert asymptotic_interval(10, 10.0, 10.0, beta, tuned) == (-math.inf, math.inf)
    assert asymptotic_interval(1, 3.0, 9.0, beta, tuned) == (-math.inf, math.inf)


def _radius_by_hand(n, s, q, beta, tuned):
    var = (q - s * s / n) / (n - 1)
    rho2 = (-2 * math.log(beta) + math.log(1 - 2 * math.log(beta))) / tuned
    return math.sqrt(var) * math.sqrt(2 * (n * rho2 + 1) / (n * n * rho2)
                                      * math.log(math.sqrt(n * rho2 + 1) / beta))


def test_asymptotic_interval_from_two_observations_and_a_tuning_below_one():
    """Two observations (1 and 3: mean 2, variance 2) already give an interval; a tuning point
    below one trial is read as one trial."""
    r = _radius_by_hand(2, 4.0, 10.0, 0.05, 1.0)
    assert asymptotic_interval(2, 4.0, 10.0, 0.05, 1.0) == (pytest.approx(2 - r),
                                                              pytest.approx(2 + r))
    assert asymptotic_interval(2, 4.0, 10.0, 0.05, 0.25) == (pytest.approx(2 - r),
                                                               pytest.approx(2 + r))


def test_a_cell_statistic_names_its_interval_and_uses_the_metric_range():
    """tune_stats.statistic: with a per-trial range the betting sequence (in the range's
    units), without one the asymptotic sequence tuned for 16 first rounds, by hand."""
    from analyzer.tune_stats import statistic

    n, s, q, beta = 400.0, 120.0, 90.0, 0.01
    bet = statistic(n, s, q, (0.0, 1.0), beta, 64)
    assert bet["interval"] == "betting"
    assert (bet["ci_low"], bet["ci_high"]) == interval(n, s, q, 0.0, 1.0, beta)
    sd = math.sqrt((q - s * s / n) / (n - 1))
    assert bet["sd"] == pytest.approx(sd) and bet["se"] == pytest.approx(sd / 20)
    assert bet["estimate"] == pytest.approx(0.3) and bet["n"] == 400
    asy = statistic(n, s, q, None, beta, 64)
    r = _radius_by_hand(n, s, q, beta, 16 * 64)
    assert asy["interval"] == "asymptotic"
    assert (asy["ci_low"], asy["ci_high"]) == (pytest.approx(0.3 - r), pytest.approx(0.3 + r))


def test_observations_off_zero_are_scaled_to_the_unit_range_by_hand():
    """Range [2, 6]: 50 observations of 3 and 50 of 5 are u = 0.25 and 0.75: Σu = 50,
    Σu² = 50·(0.0625 + 0.5625) = 31.25; the interval is 2 + 4·(the unit interval). All at the
    range's low end (1,000 of 2): Σu = Σu² = 0, whose lower end is the range's own."""
    lo, hi = interval(100, 400.0, 1700.0, 2.0, 6.0, 0.01)
    ulo, uhi = scaled_interval(100, 50.0, 31.25, 0.01)
    assert (lo, hi) == (pytest.approx(2 + 4 * ulo), pytest.approx(2 + 4 * uhi))
    lo, hi = interval(1000, 2000.0, 4000.0, 2.0, 6.0, 0.01)
    ulo, uhi = scaled_interval(1000, 0.0, 0.0, 0.01)
    assert lo == 2.0 and hi == pytest.approx(2 + 4 * uhi) and uhi < 1
    with pytest.raises(ValueError, match=r"^the range needs b > a$"):
        interval(10, 20.0, 40.0, 2.0, 2.0, 0.01)
