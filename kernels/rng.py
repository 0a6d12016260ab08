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
* local state: the four words travel in local variables, ``s0, s1, s2, s3 = seed_words(k0, k1,
  k2, k3, t)`` with the block's key words read once per block (``trial_state(key, t)`` is the
  same from a key row, but slicing ``keys[b]`` per trial costs a reference count and blocks
  vectorisation), ``x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)``, ``v, s0, s1, s2, s3 =
  bounded_local(x32, n, s0, s1, s2, s3)``, two dice per draw with ``bounded_pair``; LLVM keeps
  them in registers, which is about 4x faster in tight dice loops.

Bounded integers use Lemire's multiply-shift on 32-bit halves with the rejection step, so a die
face is exactly uniform; a word is rejected with probability ``(2**32 mod n) / 2**32`` (< n /
2**32). The rejection loop is a separate function (not inlined by Numba; LLVM may still inline
it), entered only when the low word is below n. That alone does not make a dice loop faster: any
rejection loop keeps LLVM from vectorising it. Short fixed-length trials (a dice turn) go fastest with the branch-free pass of
:func:`pair_face` and an exact redo of any block that raised a rejection flag (see the section
before :func:`face_flag`); it gives the same numbers as :func:`bounded_pair`.
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


# ---------------------------------------------------------------- seeding with the key hoisted
@njit(cache=True, inline="always")
def seed_words(k0, k1, k2, k3, t):
    """The stream of trial ``t`` under the block key ``(k0, k1, k2, k3)`` as four local words.

    ``s_j = mix64(k_j XOR (t * GOLDEN + j))``; an all-zero state (probability 2**-256) becomes
    ``s0 = 1``. Same words as :func:`trial_state` and :func:`seed_trial`: read the key once per
    block (``k0 = keys[blk, 0]`` ...) and call this per trial, so no array view is made per trial.
    """
    base = np.uint64(t) * GOLDEN
    s0 = mix64(k0 ^ base)
    s1 = mix64(k1 ^ (base + np.uint64(1)))
    s2 = mix64(k2 ^ (base + np.uint64(2)))
    s3 = mix64(k3 ^ (base + np.uint64(3)))
    if s0 == 0 and s1 == 0 and s2 == 0 and s3 == 0:
        s0 = np.uint64(1)
    return s0, s1, s2, s3


@njit(cache=True, inline="always")
def seed_words_unchecked(k0, k1, k2, k3, t):
    """:func:`seed_words` without the all-zero fix-up, for loops vectorised over trials, where
    the fix-up (a reduction, a compare and a select per trial) is measurable: about 7% of the
    no-card Trash Pandas kernel on Zen 4. The words differ from :func:`seed_words`' only for a
    trial whose four words mix to 0 (``k_j = t * GOLDEN + j`` for j = 0..3: one block key in
    2**192 has such a trial), where this gives the all-zero state and seed_words ``s0 = 1``;
    both have ``s1 = 0``, and a xoshiro256** output reads ``s1`` only, so their first draw is 0
    in both. A caller that uses only the first draw of such a trial, or flags a zero word (as
    Lemire's rejection test does), gets the same results from either."""
    base = np.uint64(t) * GOLDEN
    return (mix64(k0 ^ base), mix64(k1 ^ (base + np.uint64(1))), mix64(k2 ^ (base + np.uint64(2))),
            mix64(k3 ^ (base + np.uint64(3))))


@njit(cache=True, inline="always")
def trial_state(key, t):
    """The stream of trial ``t`` under block ``key`` as four local words (same as seed_trial)."""
    return seed_words(key[0], key[1], key[2], key[3], t)


@njit(cache=True, inline="always")
def seed_trial(key, t, s):
    """Fill state ``s`` with the stream of trial ``t`` under block ``key`` (see module doc)."""
    s0, s1, s2, s3 = seed_words(key[0], key[1], key[2], key[3], t)
    s[0] = s0
    s[1] = s1
    s[2] = s2
    s[3] = s3


# ---------------------------------------------------------------- bounded integers (Lemire 2019)
# For a 32-bit word x and 1 <= n < 2**32 let m = x * n (exact in 64 bits), v = m >> 32 and
# low = m mod 2**32. Each v in [0, n) is hit by either floor(2**32 / n) or ceil(2**32 / n) words;
# rejecting the words with low < thr, thr = 2**32 mod n, removes exactly one word from every
# over-represented v and leaves floor(2**32 / n) words for each v, so the accepted v is exactly
# uniform (D. Lemire, "Fast Random Integer Generation in an Interval", ACM TOMACS 29(1), 2019).
# Since thr < n, "low >= n" accepts without computing thr (the division is only done when
# low < n). The rejection loop lives in a separate function (Numba does not inline it) so the
# common path is a multiply, a compare and a branch that is never taken in practice.
@njit(cache=True, inline="always")
def lemire_threshold(n):
    """``2**32 mod n`` as a uint64: Lemire's rejection threshold for ``n`` in [1, 2**32)."""
    un = np.uint64(n)
    return (np.uint64(4294967296) - un) % un


@njit(cache=True)
def _redraw_local(m, un, s0, s1, s2, s3):
    """Rare path of :func:`bounded_local`: given ``m = x * n`` with low word < n, redraw (high
    32 bits of the next xoshiro256** outputs) while the low word is below ``2**32 mod n``.
    Returns (m, s0, s1, s2, s3); the state is unchanged if ``m`` is accepted at once."""
    threshold = lemire_threshold(un)
    while (m & _MASK32) < threshold:
        x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
        m = (x >> np.uint64(32)) * un
    return m, s0, s1, s2, s3


@njit(cache=True)
def _redraw_array(m, un, s):
    """Rare path of :func:`bounded32` (array state): as :func:`_redraw_local`; returns m."""
    threshold = lemire_threshold(un)
    while (m & _MASK32) < threshold:
        m = (next_u64(s) >> np.uint64(32)) * un
    return m


@njit(cache=True, inline="always")
def bounded32(s, x32, n):
    """Exactly uniform integer in [0, n) from a 32-bit word ``x32`` (Lemire), redrawing if needed.

    ``n`` must be in [1, 2**32). Returns an int64.
    """
    un = np.uint64(n)
    m = x32 * un
    if (m & _MASK32) < un:
        m = _redraw_array(m, un, s)
    return np.int64(m >> np.uint64(32))


@njit(cache=True, inline="always")
def randint(s, n):
    """Exactly uniform integer in [0, n) for 1 <= n < 2**32 (uses one 64-bit draw)."""
    return bounded32(s, next_u64(s) >> np.uint64(32), n)


@njit(cache=True, inline="always")
def bounded_local(x32, n, s0, s1, s2, s3):
    """Exactly uniform integer in [0, n) from the 32-bit word ``x32`` (Lemire with rejection).

    Returns (value, s0, s1, s2, s3); the state only advances in the rare rejection case
    (probability ``(2**32 mod n) / 2**32`` per word).
    """
    un = np.uint64(n)
    m = x32 * un
    if (m & _MASK32) < un:
        m, s0, s1, s2, s3 = _redraw_local(m, un, s0, s1, s2, s3)
    return np.int64(m >> np.uint64(32)), s0, s1, s2, s3


@njit(cache=True, inline="always")
def next_half(buf, have, s0, s1, s2, s3):
    """The next unused 32-bit half of the current 64-bit draw: returns (x32, buf, have, s0..s3).

    ``buf`` holds the current draw and ``have`` says whether its low half is still unused. With
    ``have == 0`` a new draw is made and its high half returned; otherwise the low half.
    """
    if have == 0:
        buf, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
        return buf >> np.uint64(32), buf, 1, s0, s1, s2, s3
    return buf & _MASK32, buf, 0, s0, s1, s2, s3


@njit(cache=True, inline="always")
def bounded_pair(n, buf, have, s0, s1, s2, s3):
    """Uniform integer in [0, n) using the 32-bit halves of each 64-bit draw in turn.

    ``buf`` holds the current 64-bit draw and ``have`` says whether its low half is still unused
    (the high half is used first). Returns (value, buf, have, s0, s1, s2, s3). Two dice per
    xoshiro256** step, each exactly uniform (Lemire with rejection; a redraw uses the high half of
    a fresh draw and leaves ``buf`` alone).
    """
    x, buf, have, s0, s1, s2, s3 = next_half(buf, have, s0, s1, s2, s3)
    v, s0, s1, s2, s3 = bounded_local(x, n, s0, s1, s2, s3)
    return v, buf, have, s0, s1, s2, s3


# ---------------------------------------------------------------- branch-free pass + exact redo
# A rejection loop, even one never entered, stops LLVM from unrolling and if-converting a short
# trial (e.g. a dice turn of at most six rolls) and from vectorising the loop over trials, which
# is where the minimal dice loop gets its speed. The pattern below keeps exact uniformity and
# the same numbers: run the block once with ``exact=False``, where a face is the multiply-shift
# value ``(x * n) >> 32`` and a word Lemire would reject only raises a flag (``low < thr``); if
# no flag was raised in the block, every face equals the exact one and no redraw happened, so
# the block's results are those of the exact helpers. Otherwise (probability about
# faces * thr / 2**32 per block, 1e-9 per d6 face) run the block again with ``exact=True``.
@njit(cache=True, inline="always")
def face_flag(x32, n, thr):
    """Multiply-shift value and rejection flag of the 32-bit word ``x32`` for ``n``, branch-free.

    Returns ``(v, r)``: ``v = (x32 * n) >> 32`` and ``r = 1`` when the low word is below
    ``thr = lemire_threshold(n)`` (Lemire would redraw, so ``v`` must not be used), else 0.
    """
    m = x32 * (np.uint64(n) & _MASK32)  # both factors below 2**32: one 32x32->64 multiply
    return np.int64(m >> np.uint64(32)), np.int64((m & _MASK32) < thr)


@njit(cache=True, inline="always")
def pair_face(n, thr, exact, buf, have, s0, s1, s2, s3):
    """:func:`bounded_pair` with a branch-free mode: returns (value, rej, buf, have, s0..s3).

    ``exact=True``: the value of :func:`bounded_pair` (``rej`` = 0). ``exact=False``: the
    multiply-shift value of the same half-word and ``rej`` = 1 if Lemire would have rejected it
    (the state never advances beyond the draw). Pass ``exact`` as a literal so the branch folds.
    """
    if exact:
        v, buf, have, s0, s1, s2, s3 = bounded_pair(n, buf, have, s0, s1, s2, s3)
        return v, np.int64(0), buf, have, s0, s1, s2, s3
    x, buf, have, s0, s1, s2, s3 = next_half(buf, have, s0, s1, s2, s3)
    v, r = face_flag(x, n, thr)
    return v, r, buf, have, s0, s1, s2, s3
