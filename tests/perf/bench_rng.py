"""Minimal Trash Pandas stop-at:6 loop (issue 16): old dice helpers vs new vs hand-inlined.

One core, no threads: every variant plays the same turns (trial t of block b on its own
xoshiro256** stream) and counts turns that take all six tokens; P(all six) = 6!/6**6 = 0.015432.
Variants run interleaved in one process, best of REPS repetitions; ratios are what to read.

  old        trial_state(keys[b], t) + bounded_pair (frozen copy of the helpers before issue 16)
  new-exact  seed_words on hoisted key words + bounded_pair (rare path out of line)
  new-flag   seed_words + pair_face(exact=False), block redone with exact=True if a flag is set
  reference  hoisted key, inline xoshiro, multiply-shift face with no rejection test at all
             (what the issue's 490M loop does; not exactly uniform: a yardstick, not a kernel)

The kernels are compiled afresh on every run (no cache=True): Numba's cache of a function does
not notice changes in the helpers inlined into it, so a cached bench could time stale helpers.

Usage: PYTHONPATH=. python tests/perf/bench_rng.py [turns_per_block] [blocks] [reps]
"""
import sys
import time

import numpy as np
from numba import njit

from analyzer.rng import block_keys
from kernels.rng import bounded_pair, lemire_threshold, next_half, pair_face, seed_words
from tests.rng_reference import bounded_pair_old, trial_state_old


@njit(inline="always")
def _seed_old(keys, b, k0, k1, k2, k3, t):
    return trial_state_old(keys[b], t)


@njit(inline="always")
def _seed_new(keys, b, k0, k1, k2, k3, t):
    return seed_words(k0, k1, k2, k3, t)


@njit(inline="always")
def _face_old(thr, buf, have, s0, s1, s2, s3):
    v, buf, have, s0, s1, s2, s3 = bounded_pair_old(6, buf, have, s0, s1, s2, s3)
    return v, 0, buf, have, s0, s1, s2, s3


@njit(inline="always")
def _face_exact(thr, buf, have, s0, s1, s2, s3):
    v, buf, have, s0, s1, s2, s3 = bounded_pair(6, buf, have, s0, s1, s2, s3)
    return v, 0, buf, have, s0, s1, s2, s3


@njit(inline="always")
def _face_flag(thr, buf, have, s0, s1, s2, s3):
    return pair_face(6, thr, False, buf, have, s0, s1, s2, s3)


@njit(inline="always")
def _face_reference(thr, buf, have, s0, s1, s2, s3):
    x, buf, have, s0, s1, s2, s3 = next_half(buf, have, s0, s1, s2, s3)
    return np.int64((x * np.uint64(6)) >> np.uint64(32)), 0, buf, have, s0, s1, s2, s3


def _turns(seed, face):
    """Block b's stop-at:6 turns: returns (turns taking all six, any rejection flag raised)."""
    @njit(inline="always")
    def turns(keys, b, per, thr):
        six = 0
        rej = 0
        k0, k1, k2, k3 = keys[b, 0], keys[b, 1], keys[b, 2], keys[b, 3]
        for t in range(per):
            s0, s1, s2, s3 = seed(keys, b, k0, k1, k2, k3, t)
            h = 0
            nh = 0
            have = 0
            buf = np.uint64(0)
            while True:
                f, r, buf, have, s0, s1, s2, s3 = face(thr, buf, have, s0, s1, s2, s3)
                rej |= r
                bit = 1 << f
                if h & bit:
                    break
                h |= bit
                nh += 1
                if nh >= 6:
                    six += 1
                    break
        return six, rej
    return turns


def _kernel(seed, face):
    """All blocks; a block whose pass raised a rejection flag is played again exactly."""
    fast = _turns(seed, face)
    exact = _turns(seed, _face_exact)

    @njit
    def kernel(keys, per):
        thr = lemire_threshold(6)
        six = 0
        redone = 0
        for b in range(keys.shape[0]):
            sb, rej = fast(keys, b, per, thr)
            if rej:
                sb, _ = exact(keys, b, per, thr)
                redone += 1
            six += sb
        return six, redone
    return kernel


VARIANTS = {
    "old": _kernel(_seed_old, _face_old),
    "new-exact": _kernel(_seed_new, _face_exact),
    "new-flag": _kernel(_seed_new, _face_flag),
    "reference": _kernel(_seed_new, _face_reference),
}


def main(argv):
    per = int(argv[1]) if len(argv) > 1 else 200_000
    nblocks = int(argv[2]) if len(argv) > 2 else 50
    reps = int(argv[3]) if len(argv) > 3 else 7
    keys = block_keys(2026, 0, nblocks)
    for f in VARIANTS.values():
        f(block_keys(1, 0, 2), 10)
    best = dict.fromkeys(VARIANTS, float("inf"))
    result = {}
    for _ in range(reps):
        for name, f in VARIANTS.items():
            t0 = time.perf_counter()
            result[name] = f(keys, per)
            best[name] = min(best[name], time.perf_counter() - t0)
    n = per * nblocks
    print(f"{n:,} stop-at:6 turns per variant, best of {reps}, one thread; "
          f"blocks redone exactly by new-flag: {result['new-flag'][1]}")
    print(f"{'variant':<10} {'P(all six)':>11} {'M turns/s':>10} {'x old':>7} {'/ reference':>12}")
    for name in VARIANTS:
        print(f"{name:<10} {result[name][0] / n:>11.5f} {n / best[name] / 1e6:>10.0f} "
              f"{best['old'] / best[name]:>7.2f} {best['reference'] / best[name]:>12.2f}")
    same = result["old"][0] == result["new-exact"][0] == result["new-flag"][0]
    print(f"exact = 6!/6**6 = {720 / 6 ** 6:.5f}; old, new-exact and new-flag agree to the last "
          f"turn: {same}")


if __name__ == "__main__":
    main(sys.argv)
