"""kernels/rng.py after issue 16: the same numbers as the helpers it replaced, exact uniformity,
and distinct streams.

The oracle is tests/rng_reference.py, a frozen copy of the helpers as of commit 226a47a. Words
that Lemire's method rejects are built on purpose: for 1 <= n < 2**32 the 32-bit words giving the
value v are the x with ceil(v * 2**32 / n) <= x < ceil((v + 1) * 2**32 / n); the first of them has
low word x * n - v * 2**32 in [0, n) and each next one n more, so only the first word of a value's
run can fall below thr = 2**32 mod n < n, and it is rejected exactly when the run is one word
longer than floor(2**32 / n). Checking the first two words of every run therefore proves that the
accepted words give every value exactly floor(2**32 / n) times.
"""
import numpy as np
import pytest
from numba import njit

from analyzer.rng import block_keys
from kernels.rng import (bounded32, bounded_local, bounded_pair, face_flag, lemire_threshold,
                         next_u64, pair_face, randint, seed_trial, seed_words, seed_words_unchecked,
                         trial_state, xoshiro)
from tests.rng_reference import (bounded32_old, bounded_local_old, bounded_pair_old,
                                 trial_state_old)

TWO32 = 2**32
NS = (1, 2, 3, 5, 6, 7, 11, 36, 52, 1000, 3 * 2**29, 2**31 - 1, 2**31 + 1, 2**32 - 1)


def _ceil_div(a, b):
    return -(-a // b)


def _run_starts(n, v):
    """First word of value v's run of 32-bit words (see module doc)."""
    return _ceil_div(v * TWO32, n)


def _is_rejected(x, n):
    """Lemire's test: the low word x * n mod 2**32 is below thr = 2**32 mod n."""
    return (int(x) * n) % TWO32 < TWO32 % n


def _rejected_words(n, count=6):
    """Up to ``count`` 32-bit words that Lemire rejects: solutions of x * n = L (mod 2**32) for
    the low words L < 2**32 mod n (L a multiple of 2**a where 2**a is the power of 2 in n)."""
    a = (n & -n).bit_length() - 1
    mod = TWO32 >> a
    inv = pow(n >> a, -1, mod) if mod > 1 else 0
    out = []
    for low in range(0, TWO32 % n, 1 << a):
        for j in range(1 << a):
            out.append((low >> a) * inv % mod + j * mod)
            if len(out) == count:
                return out
    return out


def _checked_words(n):
    """Words on both sides of the rejection test: rejected, accepted with low < n, accepted."""
    words = set(_rejected_words(n))
    assert all(_is_rejected(x, n) for x in words)
    for v in (0, 1, n // 2, n - 1):
        if 0 <= v < n:
            x = _run_starts(n, v)
            words.update(w for w in (x, x + 1, x - 1) if 0 <= w < TWO32)
    words.update((0, 1, TWO32 - 1, TWO32 // 2))
    return sorted(words)


def _states(count, seed=11):
    return np.random.default_rng(seed).integers(0, 2**64, size=(count, 4), dtype=np.uint64)


# ---------------------------------------------------------------- seeding
@njit(cache=True)
def _seeds(keys, ts):
    out = np.empty((keys.shape[0], ts.shape[0], 3, 4), dtype=np.uint64)
    s = np.empty(4, dtype=np.uint64)
    for b in range(keys.shape[0]):
        k0, k1, k2, k3 = keys[b, 0], keys[b, 1], keys[b, 2], keys[b, 3]
        for i in range(ts.shape[0]):
            t = ts[i]
            out[b, i, 0, 0], out[b, i, 0, 1], out[b, i, 0, 2], out[b, i, 0, 3] = \
                seed_words(k0, k1, k2, k3, t)
            out[b, i, 1, 0], out[b, i, 1, 1], out[b, i, 1, 2], out[b, i, 1, 3] = \
                trial_state(keys[b], t)
            seed_trial(keys[b], t, s)
            out[b, i, 2, :] = s
    return out


@njit(cache=True)
def _seeds_old(keys, ts):
    out = np.empty((keys.shape[0], ts.shape[0], 4), dtype=np.uint64)
    for b in range(keys.shape[0]):
        for i in range(ts.shape[0]):
            out[b, i, 0], out[b, i, 1], out[b, i, 2], out[b, i, 3] = trial_state_old(keys[b], ts[i])
    return out


def test_seed_words_trial_state_and_seed_trial_match_the_old_seeding():
    keys = np.vstack([block_keys(5, 0, 4), np.array([[0, 1, 2, 3]], dtype=np.uint64)])
    ts = np.array([0, 1, 2, 7, 1000, 2**31, 2**40 + 3], dtype=np.int64)
    new = _seeds(keys, ts)
    old = _seeds_old(keys, ts)
    for api in range(3):
        assert np.array_equal(new[:, :, api, :], old)
    # key (0, 1, 2, 3), trial 0: every word mixes to 0, the all-zero state becomes s0 = 1
    assert list(new[4, 0, 0]) == [1, 0, 0, 0]


@njit(cache=True)
def _unchecked(keys, ts):
    """seed_words and seed_words_unchecked of every (key, trial), and the first output of each."""
    out = np.empty((keys.shape[0], ts.shape[0], 2, 5), dtype=np.uint64)
    for b in range(keys.shape[0]):
        k0, k1, k2, k3 = keys[b, 0], keys[b, 1], keys[b, 2], keys[b, 3]
        for i in range(ts.shape[0]):
            s0, s1, s2, s3 = seed_words(k0, k1, k2, k3, ts[i])
            out[b, i, 0, :4] = s0, s1, s2, s3
            out[b, i, 0, 4] = xoshiro(s0, s1, s2, s3)[0]
            s0, s1, s2, s3 = seed_words_unchecked(k0, k1, k2, k3, ts[i])
            out[b, i, 1, :4] = s0, s1, s2, s3
            out[b, i, 1, 4] = xoshiro(s0, s1, s2, s3)[0]
    return out


def test_unchecked_seeding_differs_only_in_the_all_zero_state_and_not_in_its_first_draw():
    """seed_words_unchecked gives seed_words' words except for a trial whose words all mix to 0
    (trial 7 of the key (7·GOLDEN + j)_j), which it leaves all-zero where seed_words sets
    s0 = 1; the first xoshiro256** output of both is 0 (it reads s1 only)."""
    t7 = (7 * 0x9E3779B97F4A7C15) % 2**64
    keys = np.vstack([block_keys(9, 0, 6), np.array([[t7, t7 + 1, t7 + 2, t7 + 3]], np.uint64)])
    ts = np.array([0, 1, 7, 1000, 2**31], dtype=np.int64)
    out = _unchecked(keys, ts)
    assert np.array_equal(out[:6, :, 0], out[:6, :, 1])
    assert np.array_equal(out[6, [0, 1, 3, 4], 0], out[6, [0, 1, 3, 4], 1])
    assert list(out[6, 2, 0]) == [1, 0, 0, 0, 0] and list(out[6, 2, 1]) == [0, 0, 0, 0, 0]


# ---------------------------------------------------------------- bounded integers, one word
@njit(cache=True)
def _local_both(x32s, n, states):
    """bounded_local new and old on every (word, state): value and the four state words."""
    out = np.empty((2, x32s.shape[0], states.shape[0], 5), dtype=np.uint64)
    un = np.uint64(n)
    for i in range(x32s.shape[0]):
        for j in range(states.shape[0]):
            s0, s1, s2, s3 = states[j, 0], states[j, 1], states[j, 2], states[j, 3]
            v, a0, a1, a2, a3 = bounded_local(x32s[i], n, s0, s1, s2, s3)
            out[0, i, j, 0], out[0, i, j, 1], out[0, i, j, 2] = v, a0, a1
            out[0, i, j, 3], out[0, i, j, 4] = a2, a3
            v, a0, a1, a2, a3 = bounded_local_old(x32s[i], un, s0, s1, s2, s3)
            out[1, i, j, 0], out[1, i, j, 1], out[1, i, j, 2] = v, a0, a1
            out[1, i, j, 3], out[1, i, j, 4] = a2, a3
    return out


@njit(cache=True)
def _array_both(x32s, n, states):
    """bounded32 new and old (array state): value and the state after."""
    out = np.empty((2, x32s.shape[0], states.shape[0], 5), dtype=np.uint64)
    s = np.empty(4, dtype=np.uint64)
    for i in range(x32s.shape[0]):
        for j in range(states.shape[0]):
            s[:] = states[j]
            out[0, i, j, 0] = bounded32(s, x32s[i], n)
            out[0, i, j, 1:] = s
            s[:] = states[j]
            out[1, i, j, 0] = bounded32_old(s, x32s[i], n)
            out[1, i, j, 1:] = s
    return out


@pytest.mark.parametrize("n", NS)
def test_bounded_helpers_match_old_including_forced_rejections(n):
    words = np.array(_checked_words(n), dtype=np.uint64)
    states = _states(40)
    for both in (_local_both(words, n, states), _array_both(words, n, states)):
        assert np.array_equal(both[0], both[1])
        values = both[0, :, :, 0]
        assert (values < n).all()
        moved = (both[0, :, :, 1:] != states[None, :, :]).any(axis=2)
        for i, x in enumerate(words):
            # the state advances exactly for the words Lemire rejects
            assert moved[i].all() == _is_rejected(x, n) == moved[i].any()
    if TWO32 % n:
        # exactly 2**32 mod n words are rejected in all; the first (up to 6) were tested
        assert len(_rejected_words(n)) == min(6, TWO32 % n) > 0


@njit(cache=True)
def _flags(x32s, n):
    thr = lemire_threshold(n)
    v = np.empty(x32s.shape[0], dtype=np.int64)
    r = np.empty(x32s.shape[0], dtype=np.int64)
    for i in range(x32s.shape[0]):
        v[i], r[i] = face_flag(x32s[i], n, thr)
    return v, r, thr


@pytest.mark.parametrize("n", NS)
def test_face_flag_is_the_rejection_test(n):
    words = np.array(_checked_words(n), dtype=np.uint64)
    v, r, thr = _flags(words, n)
    assert thr == TWO32 % n
    both = _local_both(words, n, _states(1))
    for i, x in enumerate(words):
        assert r[i] == _is_rejected(x, n)
        assert v[i] == (int(x) * n) >> 32
        if not r[i]:
            assert v[i] == both[0, i, 0, 0]


@pytest.mark.parametrize("n", list(range(1, 301)) + [1000, 4097, 65537, 3 * 2**29 + 1])
def test_accepted_words_are_exactly_uniform(n):
    """Every value's run of words loses its first word to rejection iff it has one word too many,
    so each value keeps floor(2**32 / n) words (see module doc); checked on the real function."""
    vs = range(n) if n <= 4097 else list(range(64)) + list(range(n - 64, n))
    starts = [_run_starts(n, v) for v in vs]
    lengths = [_run_starts(n, v + 1) - x for v, x in zip(vs, starts)]
    words = np.array(starts + [x + 1 for x in starts] + [x - 1 for x in starts if x], np.uint64)
    val, rej, _ = _flags(words, n)
    k = len(starts)
    assert list(val[:k]) == list(vs) and not rej[k:2 * k].any()
    assert all(val[k + i] == v for i, (v, ln) in enumerate(zip(vs, lengths)) if ln > 1)
    assert all(val[2 * k + i] == v - 1 for i, v in enumerate(v for v in vs if v))
    assert all(ln - r == TWO32 // n for ln, r in zip(lengths, rej[:k]))


# ---------------------------------------------------------------- streams of draws
@njit(cache=True)
def _pair_streams(key, trials, n, draws):
    """bounded_pair, bounded_pair_old and pair_face(exact=True) on each trial's stream."""
    out = np.empty((3, trials, draws), dtype=np.int64)
    for t in range(trials):
        a0, a1, a2, a3 = seed_words(key[0], key[1], key[2], key[3], t)
        b0, b1, b2, b3 = trial_state_old(key, t)
        c0, c1, c2, c3 = a0, a1, a2, a3
        abuf = bbuf = cbuf = np.uint64(0)
        ahave = bhave = chave = 0
        for i in range(draws):
            out[0, t, i], abuf, ahave, a0, a1, a2, a3 = bounded_pair(n, abuf, ahave, a0, a1, a2, a3)
            out[1, t, i], bbuf, bhave, b0, b1, b2, b3 = bounded_pair_old(n, bbuf, bhave,
                                                                         b0, b1, b2, b3)
            out[2, t, i], _r, cbuf, chave, c0, c1, c2, c3 = pair_face(
                n, np.uint64(0), True, cbuf, chave, c0, c1, c2, c3)
    return out


@njit(cache=True)
def _randint_streams(key, trials, n, draws):
    out = np.empty((2, trials, draws), dtype=np.int64)
    s = np.empty(4, dtype=np.uint64)
    for k in range(2):
        for t in range(trials):
            seed_trial(key, t, s)
            for i in range(draws):
                if k == 0:
                    out[k, t, i] = randint(s, n)
                else:
                    out[k, t, i] = bounded32_old(s, next_u64(s) >> np.uint64(32), n)
    return out


@pytest.mark.parametrize("n", NS)
def test_streams_of_draws_match_old(n):
    key = block_keys(2026, 3, 1)[0]
    p = _pair_streams(key, 50, n, 41)
    assert np.array_equal(p[0], p[1]) and np.array_equal(p[0], p[2])
    r = _randint_streams(key, 50, n, 41)
    assert np.array_equal(r[0], r[1])
    assert (p[0] < n).all() and (p[0] >= 0).all()


@njit(cache=True)
def _flag_lockstep(key, trials, n, draws):
    """pair_face(exact=False) beside bounded_pair_old until the first flag of each trial: returns
    per trial (draws agreeing before the flag, index of the flag or -1, old redrew there)."""
    thr = lemire_threshold(n)
    out = np.full((trials, 3), -1, dtype=np.int64)
    for t in range(trials):
        a0, a1, a2, a3 = seed_words(key[0], key[1], key[2], key[3], t)
        b0, b1, b2, b3 = a0, a1, a2, a3
        abuf = bbuf = np.uint64(0)
        ahave = bhave = 0
        agree = 0
        for i in range(draws):
            va, r, abuf, ahave, a0, a1, a2, a3 = pair_face(n, thr, False, abuf, ahave,
                                                           a0, a1, a2, a3)
            vb, bbuf, bhave, b0, b1, b2, b3 = bounded_pair_old(n, bbuf, bhave, b0, b1, b2, b3)
            if r:
                out[t, 1] = i
                # both made the same draw (if any); only the old helper went on to redraw
                out[t, 2] = 1 if a0 != b0 or a1 != b1 or a2 != b2 or a3 != b3 else 0
                break
            if va == vb and a0 == b0 and a1 == b1 and a2 == b2 and a3 == b3 and abuf == bbuf:
                agree += 1
        out[t, 0] = agree
    return out


@pytest.mark.parametrize("n", (6, 52, 3 * 2**29 + 1, 2**31 + 1))
def test_flagged_pass_equals_old_until_its_first_flag(n):
    res = _flag_lockstep(block_keys(9, 0, 1)[0], 200, n, 30)
    for agree, flag_at, redrew in res:
        if flag_at < 0:
            assert agree == 30
        else:
            assert agree == flag_at and redrew == 1
    if n > 2**30:  # rejection probability about 1/2 or 1/4 per word: the flag path is exercised
        assert (res[:, 1] >= 0).sum() > 50


@njit(cache=True, inline="always")
def _face_block(k0, k1, k2, k3, trials, n, thr, exact):
    total = 0
    rej = 0
    for t in range(trials):
        s0, s1, s2, s3 = seed_words(k0, k1, k2, k3, t)
        buf = np.uint64(0)
        have = 0
        for _ in range(5):
            v, r, buf, have, s0, s1, s2, s3 = pair_face(n, thr, exact, buf, have, s0, s1, s2, s3)
            rej |= r
            total = total * 31 + v  # order-sensitive
    return total, rej


@njit(cache=True)
def _face_blocks(keys, trials, n):
    """The flagged pass with exact redo (kernels/rng.py pattern) vs the exact helpers alone."""
    thr = lemire_threshold(n)
    out = np.empty((keys.shape[0], 3), dtype=np.int64)
    for b in range(keys.shape[0]):
        k0, k1, k2, k3 = keys[b, 0], keys[b, 1], keys[b, 2], keys[b, 3]
        fast, rej = _face_block(k0, k1, k2, k3, trials, n, thr, False)
        if rej:
            fast, _ = _face_block(k0, k1, k2, k3, trials, n, thr, True)
        exact, _ = _face_block(k0, k1, k2, k3, trials, n, thr, True)
        out[b, 0], out[b, 1], out[b, 2] = fast, exact, rej
    return out


@pytest.mark.parametrize("n", (6, 36, 2**31 + 1))
def test_flagged_pass_with_redo_gives_the_exact_numbers(n):
    res = _face_blocks(block_keys(4, 0, 6), 300, n)
    assert np.array_equal(res[:, 0], res[:, 1])
    if n > 2**30:
        assert res[:, 2].all()  # every block was redone


# ---------------------------------------------------------------- distinct streams
@njit(cache=True)
def _first_draws(key, t, k):
    s0, s1, s2, s3 = seed_words(key[0], key[1], key[2], key[3], t)
    out = np.empty(k, dtype=np.uint64)
    for i in range(k):
        out[i], s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    return out


def test_streams_that_must_differ_do_differ():
    seed = 77
    key = block_keys(seed, 0, 1)[0]
    same = _first_draws(key, 5, 8)
    assert np.array_equal(same, _first_draws(block_keys(seed, 0, 1)[0], 5, 8))  # reproducible
    others = [
        _first_draws(key, 6, 8),                                # next trial
        _first_draws(key, 5 + 2**32, 8),                        # trial index beyond 32 bits
        _first_draws(block_keys(seed, 1, 1)[0], 5, 8),          # next block
        _first_draws(block_keys(seed + 1, 0, 1)[0], 5, 8),      # other seed
        _first_draws(block_keys(seed, 0, 1, stream=1)[0], 5, 8),  # fresh stream of a re-run
    ]
    for o in others:
        assert not np.any(o == same)  # 64-bit words: a coincidence has probability ~2**-61
    firsts = {int(_first_draws(key, t, 1)[0]) for t in range(2000)}
    assert len(firsts) == 2000
