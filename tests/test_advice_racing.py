"""The racing of `advice` (analyzer/advice/race.py) pinned by value and by direction.

* its z is the Bonferroni normal quantile over candidates × rounds (× 2 with the indifference
  zone), its intervals Student-t (Cornish–Fisher) × the batch-means SE of the paired block
  differences — each computed here by hand;
* a clearly worse rule comes out worse (positive loss, separated, dropped); a rule not
  separated from the best found stays; a worse rule that is simpler than every better one stays
  (only a rule at most as complex can knock it out);
* common random numbers as a contract: every candidate of a round plays the same blocks, rounds
  and seats play disjoint blocks (``race_blocks``' calls and ``two_seat_values``' keys);
* the saving is against the uniform grid of the same guarantee: its own Bonferroni z over the
  candidates alone, the fewest blocks reaching the race's final interval width;
* ``--max-loss`` picks by the upper bound, not the estimate.
"""
import math
from statistics import NormalDist

import numpy as np
import pytest

from analyzer.advice import Rule, Scored, pareto, simplest_within
from analyzer.advice.race import equal_guarantee_grid, race_blocks, t_quantile, two_seat_values


class _Cx:
    """A stand-in candidate: racing reads only its complexity."""

    def __init__(self, complexity):
        self.complexity = complexity


def _z(cells):  # two-sided Bonferroni normal quantile at joint 95%, by the definition
    return NormalDist().inv_cdf(1 - 0.05 / cells / 2)


def _t(z, nu):  # the Cornish–Fisher expansion race.py states, written out again
    return z + (z ** 3 + z) / (4 * nu) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * nu * nu)


def _noise(seed, rnd, i, blocks, sd):
    return np.random.default_rng([seed, rnd, i]).normal(0, sd, blocks)


def test_race_z_is_bonferroni_over_candidates_rounds_and_tests():
    def flat(i, rnd):  # every candidate the same: nobody is ever dropped
        return np.arange(8, dtype=float) + rnd

    _s, cost = race_blocks([_Cx(2)] * 3, flat, 1, 4)
    assert cost["z"] == pytest.approx(2.8653, abs=1e-4)          # 3 rules × 4 rounds = 12
    assert cost["z"] == pytest.approx(_z(12), abs=1e-12) and cost["tests"] == 1
    _s, cost = race_blocks([_Cx(2)] * 3, flat, 1, 4, indifference=0.1)
    assert cost["z"] == pytest.approx(3.0781, abs=1e-4)          # and two tests each: 24
    assert cost["tests"] == 2 and cost["max_rounds"] == 4


def test_student_t_matches_published_quantiles():
    # Student-t 0.999 quantiles (tables): ν = 20 → 3.552, ν = 60 → 3.232; normal 3.090
    assert t_quantile(3.0902, 20) == pytest.approx(3.552, abs=0.03)
    assert t_quantile(3.0902, 60) == pytest.approx(3.232, abs=0.005)
    assert t_quantile(3.0902, 20) == pytest.approx(_t(3.0902, 20), abs=1e-12)


def test_loss_interval_is_student_t_times_the_batch_means_se():
    """Two rules, one round of 8 blocks: the worse one's loss, SE and interval by hand."""
    a = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
    d = np.array([0.5, 0.1, 0.9, 0.3, 0.2, 0.8, 0.4, 0.7])  # a − b: b is worse on every block
    vals = {0: a, 1: a - d}
    scored, cost = race_blocks([_Cx(2), _Cx(2)], lambda i, rnd: vals[i], 1, 1)
    z = _z(2)
    se = float(np.sqrt(np.sum((d - d.mean()) ** 2) / 7 / 8))
    half = _t(z, 7) * se
    best, worse = scored
    assert best.extra["best_found"] and (best.loss, best.lo, best.hi) == (0.0, 0.0, 0.0)
    assert worse.loss == pytest.approx(0.4875, abs=1e-12)       # mean of d, positive: worse
    assert worse.extra["se"] == pytest.approx(se, rel=1e-12)
    assert (worse.lo, worse.hi) == (pytest.approx(0.4875 - half), pytest.approx(0.4875 + half))
    assert half == pytest.approx(2.8235 * se, rel=1e-4)  # t at ν = 7, well above z = 2.2414
    assert worse.n == 8 and cost["reference_index"] == 0


def test_a_clearly_worse_rule_is_dropped_and_a_near_tie_is_kept():
    """0 and 2 play alike (2 with noise of its own), 1 loses 1 a block: 1 comes out worse,
    separated and dropped; of 0 and 2 the one not found best is kept, not separated."""
    blocks = 32

    def values(i, rnd):
        common = _noise(4, rnd, 99, blocks, 1.0)
        return common - (1.0 if i == 1 else 0.0) + (_noise(4, rnd, i, blocks, 0.05) if i else 0)

    scored, cost = race_blocks([_Cx(2)] * 3, values, 1, 3)
    worse = scored[1]
    assert worse.loss > 0.9 and worse.lo > 0 and worse.extra["separated"]
    assert not worse.extra["survived"] and worse.extra["rounds"] == 1  # gone after round one
    ref = cost["reference_index"]
    other = 2 if ref == 0 else 0
    tie = scored[other]
    assert tie.extra["survived"] and not tie.extra["separated"] and tie.lo <= 0 <= tie.hi
    assert cost["not_separated"] == [other] and cost["survivors"] == 2


def test_a_worse_rule_simpler_than_every_better_one_stays():
    """Only a rule at most as complex can drop a rule: a simple rule that loses clearly to a
    more complex best stays in the race (shown worse: separated)."""
    blocks = 32

    def values(i, rnd):
        return _noise(6, rnd, 0, blocks, 1.0) + (0.0 if i == 1 else -1.0)

    scored, cost = race_blocks([_Cx(2), _Cx(5)], values, 1, 2)
    assert cost["reference_index"] == 1
    assert scored[0].extra["survived"] and scored[0].extra["separated"]
    assert scored[0].loss == pytest.approx(1.0)
    # the same two the other way round: the worse one is the more complex and goes
    scored, _ = race_blocks([_Cx(5), _Cx(2)], values, 1, 2)
    assert not scored[0].extra["survived"] and scored[1].extra["survived"]


def test_every_candidate_of_a_round_plays_the_same_round_and_rounds_follow_on():
    calls = []
    blocks = 16

    def values(i, rnd):
        calls.append((rnd, i))
        return _noise(8, rnd, 99, blocks, 1.0) - (5.0 if i == 2 else 0.0) + \
            _noise(8, rnd, i, blocks, 0.1)

    _s, cost = race_blocks([_Cx(2)] * 4, values, 1, 3)
    rounds = sorted({r for r, _ in calls})
    assert rounds == [0, 1, 2] == list(range(cost["rounds"]))
    for r in rounds:
        who = sorted(i for rr, i in calls if rr == r)
        assert len(who) == len(set(who)) == cost["alive_per_round"][r]
    assert sorted(i for r, i in calls if r == 0) == [0, 1, 2, 3]
    assert 2 not in [i for r, i in calls if r > 0]  # dropped after round 0, never played again


class _Job:
    """A kernel job stand-in that records the block keys it was asked to play."""

    def __init__(self, log, tag):
        self.log, self.tag = log, tag

    def run_blocks(self, keys, counts):
        self.log.append((self.tag, [tuple(int(x) for x in k) for k in np.asarray(keys)]))
        return np.zeros((len(keys), 4))


def test_two_seat_values_share_keys_across_rules_and_split_them_across_rounds_and_seats():
    seen = {}
    for rule in ("A", "B"):
        for rnd in (0, 1, 2):
            log = []
            v, played = two_seat_values(lambda seat: _Job(log, seat), lambda seat: 0, 11, rnd,
                                        blocks=6, block=10, seats=3)
            assert played == 6 * 10 and len(v) == 6
            seen[rule, rnd] = {seat: keys for seat, keys in log}
    for rnd in (0, 1, 2):  # common random numbers: both rules play the same blocks
        assert seen["A", rnd] == seen["B", rnd]
    every = [k for (rule, _r), by_seat in seen.items() if rule == "A"
             for keys in by_seat.values() for k in keys]
    assert len(every) == 3 * 3 * 2 and len(set(every)) == len(every)  # disjoint everywhere


def test_the_grid_of_the_same_guarantee_by_value():
    """100 rules, a race of 10 rounds whose survivors reached 64 blocks: the grid's z is the
    Bonferroni quantile of 100 intervals (3.4808), and it needs the fewest blocks whose
    t-interval is as narrow as the race's at its z (4.0556 over 1000 looks; t 4.3537 at 64
    blocks)."""
    z_race = _z(1000)
    got = equal_guarantee_grid(100, 1, z_race, 64, 16, seconds_per_block=0.5)
    assert got["z"] == pytest.approx(3.4808, abs=1e-4)
    target = _t(z_race, 63) / 8
    n = 2
    while _t(got["z"], n - 1) / math.sqrt(n) > target:
        n += 1
    # (3.4808 / 4.3537)² · 64 ≈ 41; the grid's t at fewer blocks is wider: 48
    assert got["blocks_per_rule"] == n == 48
    assert got["blocks"] == 100 * n and got["trials"] == 1600 * n
    assert got["seconds"] == pytest.approx(0.5 * 100 * n)
    # a grid that is as careful as the race (its z) needs the race's own 64 blocks
    assert equal_guarantee_grid(1000, 1, z_race, 64, 1)["blocks_per_rule"] == 64


def test_race_saving_is_against_the_equal_guarantee_grid():
    true = np.concatenate([[0.0, 0.01], np.linspace(0.2, 1.5, 60)])
    blocks = 32

    def values(i, rnd):
        return -true[i] + _noise(3, rnd, 99, blocks, 0.5) + _noise(3, rnd, i, blocks, 0.3)

    _s, cost = race_blocks([_Cx(2)] * len(true), values, 1, 12, precision=0.02)
    g = cost["grid"]
    assert g == equal_guarantee_grid(len(true), 1, cost["z"], cost["blocks_flat"] // len(true),
                                     1, seconds_per_block=g["seconds"] / g["blocks"])
    assert cost["saving"] == pytest.approx(g["blocks"] / cost["blocks_spent"])
    assert g["blocks"] < cost["blocks_flat"]  # the grid's z is smaller than the race's
    assert 1 < cost["saving"] < cost["saving_same_sample"]


def test_max_loss_picks_the_simplest_rule_by_its_upper_bound():
    r2 = Rule("threshold", "tok", "<=", (2,))
    r5 = Rule("banded", "tok", "<=", (2, 3), "bl", (1,))
    front = pareto([Scored(r2, 0.005, -0.01, 0.02, 64), Scored(r5, 0.0, 0.0, 0.0, 64)])
    assert [s.rule for s in front] == [r2, r5]
    assert simplest_within(front, 0.01).rule == r5     # 0.005 ≤ 0.01 but its bound 0.02 is not
    assert simplest_within(front, 0.02).rule == r2     # the bound itself is within
    assert simplest_within(front, -0.001) is None
