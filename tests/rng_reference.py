"""Frozen copy of the bounded-integer helpers of kernels/rng.py as of commit 226a47a (before the
rejection path moved out of line), kept only as the oracle for tests/test_rng_kernels.py and the
"old helpers" row of scripts/bench_rng.py. The generator and seeding are imported, not copied:
the test checks them against this module's trial_state_old separately.
"""
import numpy as np
from numba import njit

from kernels.rng import GOLDEN, mix64, next_u64, xoshiro

_MASK32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def trial_state_old(key, t):
    base = np.uint64(t) * GOLDEN
    s0 = mix64(key[0] ^ base)
    s1 = mix64(key[1] ^ (base + np.uint64(1)))
    s2 = mix64(key[2] ^ (base + np.uint64(2)))
    s3 = mix64(key[3] ^ (base + np.uint64(3)))
    if s0 == 0 and s1 == 0 and s2 == 0 and s3 == 0:
        s0 = np.uint64(1)
    return s0, s1, s2, s3


@njit(cache=True, inline="always")
def bounded32_old(s, x32, n):
    un = np.uint64(n)
    m = x32 * un
    low = m & _MASK32
    if low < un:
        threshold = (np.uint64(4294967296) - un) % un
        while low < threshold:
            x32 = next_u64(s) >> np.uint64(32)
            m = x32 * un
            low = m & _MASK32
    return np.int64(m >> np.uint64(32))


@njit(cache=True, inline="always")
def bounded_local_old(x32, n, s0, s1, s2, s3):
    un = np.uint64(n)
    m = x32 * un
    low = m & _MASK32
    if low < un:
        threshold = (np.uint64(4294967296) - un) % un
        while low < threshold:
            x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
            m = (x >> np.uint64(32)) * un
            low = m & _MASK32
    return np.int64(m >> np.uint64(32)), s0, s1, s2, s3


@njit(cache=True, inline="always")
def bounded_pair_old(n, buf, have, s0, s1, s2, s3):
    if have == 0:
        buf, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
        x = buf >> np.uint64(32)
        have = 1
    else:
        x = buf & _MASK32
        have = 0
    v, s0, s1, s2, s3 = bounded_local_old(x, n, s0, s1, s2, s3)
    return v, buf, have, s0, s1, s2, s3
