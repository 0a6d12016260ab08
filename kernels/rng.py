"""Inline xoshiro256** random numbers for Numba kernels, with per-trial streams.

Model
-----
Every kernel receives, per block of trials, a 4-word uint64 *key* drawn on the Python side from
``numpy.random.SeedSequence(seed, spawn_key=(block,))``. Trial ``t`` of the block gets its own
xoshiro256** state::

    s_j = mix64(key_j XOR (t * GOLDEN + j)),   j = 0..3

where ``mix64`` is the SplitMix64 finaliser (a bijection of 64-bit words with full avalanche).
A trial's random numbers therefore depend only on (seed, block, trial index), never on the thread
that runs it or on what other trials consumed, which gives common random numbers for free when two
policies or two rule sets are run on the same trials.

Generator: xoshiro256** (Blackman & Vigna, 2018): state update
``t = s1 << 17; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45)``,
output ``rotl(s1 * 5, 7) * 9``. Two equivalent interfaces give the same numbers:

* array state: ``s`` is a length-4 uint64 array owned by the caller (allocated once per block),
  ``seed_trial(key, t, s)``, ``next_u64(s)``, ``randint(s, n)``, ``next_double(s)``; convenient
  for long, branchy kernels;
* local state: the four words travel in local variables, ``s0, s1, s2, s3 = trial_state(key, t)``,
  ``x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)``, ``v, s0, s1, s2, s3 = bounded_local(x32, n,
  s0, s1, s2, s3)``; LLVM keeps them in registers, which is about 4x faster in tight dice loops.

Bounded integers use Lemire's multiply-shift on 32-bit halves with the rejection step, so a die
face is exactly uniform (the rejection branch is taken with probability < n / 2**32).
"""
import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_U5 = np.uint64(5)
_U9 = np.uint64(9)
_MASK32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64 finaliser: a bijective 64-bit mixer."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def seed_trial(key, t, s):
    """Fill state ``s`` with the stream of trial ``t`` under block ``key`` (see module doc)."""
    base = np.uint64(t) * GOLDEN
    s[0] = mix64(key[0] ^ base)
    s[1] = mix64(key[1] ^ (base + np.uint64(1)))
    s[2] = mix64(key[2] ^ (base + np.uint64(2)))
    s[3] = mix64(key[3] ^ (base + np.uint64(3)))
    if s[0] == 0 and s[1] == 0 and s[2] == 0 and s[3] == 0:
        s[0] = np.uint64(1)


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, inline="always")
def next_u64(s):
    """One xoshiro256** output; advances ``s`` in place."""
    result = _rotl(s[1] * _U5, 7) * _U9
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@njit(cache=True, inline="always")
def next_double(s):
    """Uniform double in [0, 1) from the top 53 bits."""
    return np.float64(next_u64(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def bounded32(s, x32, n):
    """Exactly uniform integer in [0, n) from a 32-bit word ``x32`` (Lemire), redrawing if needed.

    ``n`` must be in [1, 2**32). Returns an int64.
    """
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
def randint(s, n):
    """Exactly uniform integer in [0, n) for 1 <= n < 2**32 (uses one 64-bit draw)."""
    return bounded32(s, next_u64(s) >> np.uint64(32), n)


@njit(cache=True, inline="always")
def trial_state(key, t):
    """The stream of trial ``t`` under block ``key`` as four local words (same as seed_trial)."""
    base = np.uint64(t) * GOLDEN
    s0 = mix64(key[0] ^ base)
    s1 = mix64(key[1] ^ (base + np.uint64(1)))
    s2 = mix64(key[2] ^ (base + np.uint64(2)))
    s3 = mix64(key[3] ^ (base + np.uint64(3)))
    if s0 == 0 and s1 == 0 and s2 == 0 and s3 == 0:
        s0 = np.uint64(1)
    return s0, s1, s2, s3


@njit(cache=True, inline="always")
def xoshiro(s0, s1, s2, s3):
    """One xoshiro256** output from local state: returns (output, s0, s1, s2, s3)."""
    result = _rotl(s1 * _U5, 7) * _U9
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(cache=True, inline="always")
def bounded_local(x32, n, s0, s1, s2, s3):
    """Exactly uniform integer in [0, n) from the 32-bit word ``x32`` (Lemire with rejection).

    Returns (value, s0, s1, s2, s3); the state only advances in the rare rejection case.
    """
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
def bounded_pair(n, buf, have, s0, s1, s2, s3):
    """Uniform integer in [0, n) using the 32-bit halves of each 64-bit draw in turn.

    ``buf`` holds the current 64-bit draw and ``have`` says whether its low half is still unused
    (the high half is used first). Returns (value, buf, have, s0, s1, s2, s3). Two dice per
    xoshiro256** step, each exactly uniform (Lemire with rejection).
    """
    if have == 0:
        buf, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
        x = buf >> np.uint64(32)
        have = 1
    else:
        x = buf & _MASK32
        have = 0
    v, s0, s1, s2, s3 = bounded_local(x, n, s0, s1, s2, s3)
    return v, buf, have, s0, s1, s2, s3
