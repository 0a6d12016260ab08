"""Shared machinery: statistics, random streams, the block runner, rules parsing."""
import math
from dataclasses import dataclass

import numba
import numpy as np
import pytest
from numba import njit, prange

from analyzer.errors import UserError
from analyzer.rng import block_keys
from analyzer.rules import build_rules, rule
from analyzer.runner import KernelJob, half_width_of_proportion, run
from analyzer.stats import mean_from_sums, paired_difference, wilson
from kernels.rng import bounded_local, next_u64, randint, seed_trial, trial_state, xoshiro


# ---------------------------------------------------------------- statistics
def test_wilson_hand_values():
    # n = 100, 50 successes: centre 0.5, half = 1.96*sqrt(.25/100 + 1.96²/40000)/(1+1.96²/100)
    z = 1.959963984540054
    half = z * math.sqrt(0.25 / 100 + z * z / 40000) / (1 + z * z / 100)
    s = wilson(50, 100)
    assert s.estimate == 0.5 and s.se == pytest.approx(0.05)
    assert s.ci_low == pytest.approx(0.5 - half) and s.ci_high == pytest.approx(0.5 + half)
    # 0 successes: the interval is [0, z²/(n+z²)]
    s0 = wilson(0, 10)
    assert s0.ci_low == 0.0 and s0.ci_high == pytest.approx(z * z / (10 + z * z))


def test_mean_from_sums_matches_numpy():
    x = np.array([1.0, 4.0, 2.0, 8.0, 5.0])
    s = mean_from_sums(x.sum(), (x * x).sum(), len(x))
    assert s.estimate == pytest.approx(x.mean())
    assert s.se == pytest.approx(x.std(ddof=1) / math.sqrt(len(x)))


def test_paired_difference_of_identical_runs_is_zero():
    d = paired_difference(0.0, 0.0, 1000)
    assert d.estimate == 0.0 and d.se == 0.0 and d.contains_zero()


# ---------------------------------------------------------------- random streams
def test_block_keys_are_seedsequence_children():
    keys = block_keys(42, 3, 2)
    children = np.random.SeedSequence(42).spawn(5)
    assert np.array_equal(keys[0], children[3].generate_state(4, np.uint64))
    assert np.array_equal(keys[1], children[4].generate_state(4, np.uint64))


@njit(cache=True)
def _both_apis(key, t, k):
    s = np.empty(4, dtype=np.uint64)
    seed_trial(key, t, s)
    s0, s1, s2, s3 = trial_state(key, t)
    a = np.empty(k, dtype=np.uint64)
    b = np.empty(k, dtype=np.uint64)
    for i in range(k):
        a[i] = next_u64(s)
        x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
        b[i] = x
    return a, b


def test_array_and_local_state_apis_agree():
    key = block_keys(7, 0, 1)[0]
    a, b = _both_apis(key, 5, 50)
    assert np.array_equal(a, b)
    a2, _ = _both_apis(key, 6, 50)
    assert not np.array_equal(a, a2)  # different trials, different streams


@njit(cache=True)
def _faces(key, n, sides):
    counts = np.zeros(sides, dtype=np.int64)
    s = np.empty(4, dtype=np.uint64)
    seed_trial(key, 0, s)
    for _ in range(n):
        counts[randint(s, sides)] += 1
    return counts


def test_die_faces_uniform_chi_square():
    # 600,000 rolls of a d6; chi-square with 5 d.o.f.: P(X > 20.5) ≈ 0.001.
    counts = _faces(block_keys(2026, 0, 1)[0], 600_000, 6)
    expected = 100_000
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 20.5


@njit(cache=True)
def _lemire_reject(x32, n):
    s0, s1, s2, s3 = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)
    v, s0, s1, s2, s3 = bounded_local(np.uint64(x32), n, s0, s1, s2, s3)
    return v, s0


def test_lemire_rejection_draws_again():
    # x32 = 0: low word 0 < threshold (2^32 mod 6 = 4) → the state must advance (a redraw).
    v, s0 = _lemire_reject(0, 6)
    assert s0 != 1 and 0 <= v < 6
    # x32 = 2^32 - 1 gives the top face without a redraw.
    v, s0 = _lemire_reject(2**32 - 1, 6)
    assert v == 5 and s0 == 1


# ---------------------------------------------------------------- runner
@njit(cache=True, parallel=True)
def _coin_blocks(keys, counts):
    out = np.zeros((keys.shape[0], 2))
    for b in prange(keys.shape[0]):
        heads = 0
        for t in range(counts[b]):
            s0, s1, s2, s3 = trial_state(keys[b], t)
            x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
            heads += x >> np.uint64(63)
        out[b, 0] = heads
        out[b, 1] = counts[b]
    return out


def _coin_job(block=1000):
    return KernelJob("coin", block, _coin_blocks, half_width_of_proportion(0))


def test_runner_same_numbers_whatever_threads_and_batches():
    n = 123_457
    numba.set_num_threads(1)
    a = run(_coin_job(), n, 99, progress=False, target_batch_seconds=1e-9)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    b = run(_coin_job(), n, 99, progress=False)
    assert a.n == b.n == n
    assert np.array_equal(a.sums, b.sums)
    assert a.sums[1] == n
    c = run(_coin_job(), n, 100, progress=False)
    assert not np.array_equal(a.sums, c.sums)


def test_runner_precision_stops_when_half_width_reached():
    res = run(_coin_job(), None, 5, precision=0.01, progress=False)
    assert res.stopped_by == "precision"
    assert wilson(res.sums[0], res.n).half_width <= 0.01
    # it did not need a hundred times the required sample (1.96²/4/0.01² ≈ 9604)
    assert res.n < 200_000


def test_runner_keeps_finished_blocks_on_interrupt():
    calls = {"k": 0}

    def flaky(keys, counts):
        if keys.shape[0] == 0:
            return np.zeros((0, 2))
        calls["k"] += 1
        if calls["k"] == 3:
            raise KeyboardInterrupt
        return _coin_blocks(keys, counts)

    job = KernelJob("coin", 100, flaky, half_width_of_proportion(0))
    res = run(job, 10_000_000, 1, progress=False, target_batch_seconds=1e-9)
    assert res.interrupted and res.stopped_by == "interrupt"
    assert 0 < res.n < 10_000_000 and res.sums[1] == res.n


def test_runner_rejects_bad_sizes():
    with pytest.raises(UserError):
        run(_coin_job(), 0, 1, progress=False)
    with pytest.raises(UserError):
        run(_coin_job(), None, 1, precision=-1.0, progress=False)


# ---------------------------------------------------------------- rules
@dataclass(frozen=True)
class _Rules:
    size: int = rule(4, "board size", min=2, max=9)
    rate: float = rule(0.5, "a rate", min=0.0, max=1.0)
    mode: str = rule("a", "a mode", choices=("a", "b"))
    flag: bool = rule(False, "a flag")
    marks: tuple[int, ...] = rule((), "a list")


def test_rules_defaults_file_and_sets(tmp_path):
    f = tmp_path / "house.toml"
    f.write_text("size = 5\nflag = true\nmarks = [1, 2]\n")
    r = build_rules(_Rules, f, ["rate=0.25", "mode=b"])
    assert (r.size, r.rate, r.mode, r.flag, r.marks) == (5, 0.25, "b", True, (1, 2))
    assert build_rules(_Rules).size == 4


@pytest.mark.parametrize("sets,needle", [
    (["nope=1"], "unknown rule 'nope'"),
    (["size=abc"], "must be an integer"),
    (["size=12"], "above its maximum"),
    (["rate=-1"], "below its minimum"),
    (["mode=c"], "is not one of"),
    (["flag=maybe"], "true or false"),
    (["size"], "key=value"),
])
def test_rules_errors(sets, needle):
    with pytest.raises(UserError, match=needle):
        build_rules(_Rules, None, sets)


def test_rules_file_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("size = [")
    with pytest.raises(UserError, match="not valid TOML"):
        build_rules(_Rules, bad)
    typed = tmp_path / "typed.toml"
    typed.write_text('size = "4"')
    with pytest.raises(UserError, match="must be an integer"):
        build_rules(_Rules, typed)
    with pytest.raises(UserError, match="no such file"):
        build_rules(_Rules, tmp_path / "missing.toml")


def test_precision_stop_does_not_depend_on_batch_timing():
    fast = run(_coin_job(), None, 21, precision=0.005, progress=False, target_batch_seconds=1e-9)
    slow = run(_coin_job(), None, 21, precision=0.005, progress=False, target_batch_seconds=10)
    assert fast.stopped_by == slow.stopped_by == "precision"
    assert fast.n == slow.n and np.array_equal(fast.sums, slow.sums)


# ---------------------------------------------------------------- formulas against hand values
def test_wilson_textbook_values_and_exact_edges():
    s = wilson(3, 10)  # the textbook Wilson 95% interval for 3/10 (Newcombe 1998, method 3)
    assert s.ci_low == pytest.approx(0.1078, abs=5e-5) and s.ci_high == pytest.approx(0.6032,
                                                                                      abs=5e-5)
    assert s.se == pytest.approx(math.sqrt(0.3 * 0.7 / 10))
    full = wilson(400, 400)
    assert full.ci_high == 1.0 and full.ci_low == pytest.approx(400 / (400 + 1.959963984540054 ** 2))
    none = wilson(0, 400)
    assert none.ci_low == 0.0  # exactly: an exact value of 0 lies inside


def test_bonferroni_quantiles_hand_values():
    from analyzer.stats import bonferroni_z

    assert bonferroni_z(1) == pytest.approx(1.959964, abs=1e-6)
    assert bonferroni_z(10) == pytest.approx(2.807034, abs=1e-6)   # Φ⁻¹(1 − 0.0025)
    assert bonferroni_z(100) == pytest.approx(3.480756, abs=1e-6)  # Φ⁻¹(1 − 0.00025)


def test_mean_interval_hand_values():
    s = mean_from_sums(20.0, 110.0, 5)  # x = 1, 4, 2, 8, 5: mean 4, variance 7.5
    assert s.estimate == 4.0 and s.se == pytest.approx(math.sqrt(7.5 / 5))
    assert s.ci_low == pytest.approx(4 - 1.959963984540054 * math.sqrt(1.5))
    assert s.ci_high == pytest.approx(4 + 1.959963984540054 * math.sqrt(1.5))


# ---------------------------------------------------------------- streams that must differ
def test_streams_that_must_differ_do_differ():
    from analyzer.rng import fresh_seed

    a, b = block_keys(7, 0, 4, 0), block_keys(7, 0, 4, 1)
    assert not np.array_equal(a, b)  # the fresh stream of a tuning re-run
    assert not np.array_equal(block_keys(7, 0, 4), block_keys(8, 0, 4))
    assert len({tuple(r) for r in block_keys(7, 0, 64)}) == 64  # every block its own key
    assert fresh_seed() != fresh_seed()
    s1, s2 = trial_state(a[0], 0), trial_state(a[0], 1)
    assert not np.array_equal(s1, s2)


# ---------------------------------------------------------------- order of a float reduction
def _order_sensitive_blocks(keys, counts):
    """Per-block sums whose floating-point total depends on the order of addition:
    block b contributes 1e16 · (−1)^⌊b/2⌋ + b·0.1 (keyed by the block's key, not by thread)."""
    out = np.zeros((keys.shape[0], 2))
    for i in range(keys.shape[0]):
        b = int(keys[i, 3] % np.uint64(1000))
        out[i, 0] = (1e16 if (b // 2) % 2 == 0 else -1e16) + b * 0.1
        out[i, 1] = counts[i]
    return out


def test_runner_reduces_in_block_order_whatever_the_batching():
    job = KernelJob("order", 10, _order_sensitive_blocks, half_width_of_proportion(1))
    n = 10 * 97
    a = run(job, n, 3, progress=False, target_batch_seconds=1e-9)
    b = run(job, n, 3, progress=False, target_batch_seconds=10.0)
    assert a.sums[0] == b.sums[0]
    rows = np.vstack(a.block_sums)
    in_order = 0.0
    for r in rows[:, 0]:
        in_order += r
    reverse = 0.0
    for r in rows[::-1, 0]:
        reverse += r
    assert a.sums[0] == in_order
    assert reverse != in_order  # the test could fail: the order does matter for these values


def test_runner_refuses_non_finite_limits_and_absurd_sizes():
    for kw in ({"precision": float("nan")}, {"precision": float("inf")},
               {"time_limit": float("nan")}, {"time_limit": float("inf")}):
        with pytest.raises(UserError):
            run(_coin_job(), 1000, 1, progress=False, **kw)
    with pytest.raises(UserError, match="at most"):
        run(_coin_job(), 10**13, 1, progress=False)


def test_runner_interrupt_before_any_block_is_an_interrupt_not_an_error():
    from analyzer.errors import Interrupted

    def at_once(keys, counts):
        if keys.shape[0] == 0:
            return np.zeros((0, 2))
        raise KeyboardInterrupt

    with pytest.raises(Interrupted):
        run(KernelJob("coin", 100, at_once), 1000, 1, progress=False)
