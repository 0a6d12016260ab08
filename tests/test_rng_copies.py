"""Every copy of the bounded-integer helper (kernels/rng.py: ``bounded32`` behind ``randint``,
``bounded_local``, ``bounded_pair``) against a plain-Python reference, on words that force the
rare rejection branch (probability < n / 2**32, so random tests never reach it) and on words just
above the rejection threshold (accepted). The reference re-implements xoshiro256** and Lemire's
method from their definitions (kernels/rng.py module doc)."""
import numpy as np
import pytest
from numba import njit

from kernels.rng import bounded32, bounded_local, bounded_pair

M64 = (1 << 64) - 1
# states whose next output has high and low halves that give different faces (the first is
# what seed_trial gives block key (1, 2, 3, 4), trial 0)
STATES = [(0x9E3779B97F4A7C15, 0x2545F4914F6CDD1D, 0xD1B54A32D192ED03, 0x8CB92BA72F3D8DD7),
          (0x0123456789ABCDEF, 0xFEDCBA9876543210, 0x0F1E2D3C4B5A6978, 0x8877665544332211),
          (0xDEADBEEFCAFEF00D, 0x0BADC0DE12345678, 0x1357924680ACE135, 0x7FFFFFFFFFFFFFFF)]
STATE = STATES[0]


def _rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


def _xoshiro(s):
    s0, s1, s2, s3 = s
    out = (_rotl((s1 * 5) & M64, 7) * 9) & M64
    t = (s1 << 17) & M64
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return out, (s0, s1, s2, s3)


def _reference(x32, n, s):
    """Lemire with rejection: (value, state after); redraws take the high half of a new word."""
    m = x32 * n
    threshold = (1 << 32) % n
    while (m & 0xFFFFFFFF) < threshold:
        x, s = _xoshiro(s)
        m = (x >> 32) * n
    return m >> 32, s


def _rejected_word(n):
    return 0  # low half 0 < 2**32 mod n for every n that does not divide 2**32


def _accepted_low_word(n):
    """A 32-bit word whose product's low half lies in [2**32 mod n, n): accepted, no redraw."""
    threshold = (1 << 32) % n
    for k in range(n):
        num = threshold + k * (1 << 32)
        if num % n == 0 and num // n < (1 << 32):
            return num // n
    raise AssertionError("no such word")


@njit(cache=True)
def _via_bounded32(x32, n, st):
    s = st.copy()
    v = bounded32(s, np.uint64(x32), n)
    return v, s


@njit(cache=True)
def _via_local(x32, n, st):
    v, s0, s1, s2, s3 = bounded_local(np.uint64(x32), n, st[0], st[1], st[2], st[3])
    return v, np.array([s0, s1, s2, s3])


@njit(cache=True)
def _via_pair_low(x32, n, st):
    # the low half of a held draw is used when have == 1
    buf = (np.uint64(7) << np.uint64(32)) | np.uint64(x32)
    v, buf, have, s0, s1, s2, s3 = bounded_pair(n, buf, 1, st[0], st[1], st[2], st[3])
    return v, np.array([s0, s1, s2, s3])


@pytest.mark.parametrize("copy", [_via_bounded32, _via_local, _via_pair_low])
@pytest.mark.parametrize("n", [6, 11, 109])
def test_every_copy_redraws_a_rejected_word_like_the_reference(copy, n):
    for state in STATES:
        st = np.array(state, dtype=np.uint64)
        for x32 in (_rejected_word(n), _accepted_low_word(n)):
            want, want_state = _reference(x32, n, state)
            v, s = copy(x32, n, st)
            assert int(v) == want, (copy.__name__, n, x32)
            assert tuple(int(w) for w in s) == want_state


def test_the_states_tell_the_halves_apart():
    for n in (6, 11, 109):
        faces = [(((x >> 32) * n) >> 32, ((x & 0xFFFFFFFF) * n) >> 32)
                 for x, _ in map(_xoshiro, STATES)]
        assert any(hi != lo for hi, lo in faces), n


def test_the_rejected_word_really_is_rejected_and_the_other_accepted():
    for n in (6, 11, 109):
        assert _reference(_rejected_word(n), n, STATE)[1] != STATE
        assert _reference(_accepted_low_word(n), n, STATE)[1] == STATE


def test_pair_uses_the_high_half_then_the_low_half():
    @njit
    def two(st):
        buf = np.uint64(0)
        a, buf, have, s0, s1, s2, s3 = bounded_pair(6, buf, 0, st[0], st[1], st[2], st[3])
        b, buf, have, s0, s1, s2, s3 = bounded_pair(6, buf, have, s0, s1, s2, s3)
        return a, b, buf

    a, b, buf = two(np.array(STATE, dtype=np.uint64))
    x, _ = _xoshiro(STATE)
    assert int(buf) == x
    assert int(a) == _reference(x >> 32, 6, _xoshiro(STATE)[1])[0]
    assert int(b) == _reference(x & 0xFFFFFFFF, 6, _xoshiro(STATE)[1])[0]
