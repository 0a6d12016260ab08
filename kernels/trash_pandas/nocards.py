"""Trash Pandas: Monte Carlo of turns with no cards in hand, in three passes (the fast path of
:func:`kernels.trash_pandas.turn.simulate_turns`).

Model
-----
As in kernels/trash_pandas/turn.py with ``B = N = P = 0``: the die has six equally likely faces
(0 trash … 5 recycle); a turn rolls until it repeats a held face (a bust) or the policy stops;
collecting all six resolves them and, with ``bonus_turn``, plays a bonus turn from an empty held
set. The policy is the roll/stop table ``roll[mode·64 + H]`` (uint8, 128 entries; 0 at the cap),
read here as two 64-bit masks: bit ``H`` of ``roll_main``/``roll_bonus`` says "roll again
holding ``H``". Faces come two per 64-bit draw (high 32-bit half first), each exactly uniform
(Lemire's multiply-shift with rejection, :func:`kernels.rng.bounded_pair`).

Algorithm
---------
A turn's outcome is a *code*: the held set ``H`` (bits 0–5) and the bust flag (bit 6). Every sum
the kernel reports is a function of the main turn's code and, for a turn that collected all six,
of the bonus turn's code, so a block is played in three passes:

1. **Codes, branch-free** (:func:`_fast_code`): three draws give six multiply-shift faces, which
   always suffice (a seventh face of a main turn must repeat; a bonus turn stops by its cap ≤ 5
   or at six); the six steps of the turn are played with masks (``alive``), so the trial loop has
   no branch and LLVM vectorises it over trials. Bit 7 marks a *rare* trial: one in which a
   face word would have been rejected by Lemire's step (probability ``6 · 4 / 2**32`` per trial;
   the multiply-shift face may then differ from the exact one).
2. **Counts**: a histogram of the main codes, and the list of the trials whose code is 63
   (collected all six without a rare word; about 1.5% of stop-at:6 turns), appended without a
   branch. A rare trial is replayed exactly and in full (:func:`_exact_turn`: the same stream,
   :func:`~kernels.rng.bounded_pair` faces, the bonus turn continuing the stream after the main
   turn's faces).
3. **Bonus turns, branch-free** (:func:`_fast_bonus_code`, with ``bonus_turn``): each listed
   trial's bonus turn is pass 1 again on the stream after the three draws pass 1 used (six exact
   faces are exactly three draws, both halves used, so the exact main leg ends at the same
   state), vectorised over the listed trials; a bonus turn with a rare word is replayed exactly
   (:func:`_bonus_after_six`). Its code goes to a second histogram.

A trial's faces and codes are therefore exactly those of the one-pass kernel; only the order of
the floating-point additions differs: Σvalue = Σ_c count_c · value_c over the at most 128 + 128
codes, which equals the trial-by-trial sum exactly whenever the values are integers (as in the
default value model: sums stay below 2**53) and up to rounding in the last bits otherwise.

Cost: about 3 xoshiro256** steps, 4 SplitMix64 finalisers and 6 multiply-shifts per trial in
vector lanes, one histogram increment, and the same vector work again for about 1.5% of trials
(stop-at:6's bonus turns). Playing those bonus turns one by one with exact faces (branchy, about
100 ns each) took a fifth of the time: pass 3 moved the kernel from 0.80 to 1.03 of the bench's
calibration loop on one core (medians of 7 paired runs, same process).
Output: the per-block sums of turn.py's ``COLUMNS``, float64, shape (blocks, 13).
"""
import numpy as np
from numba import njit, prange

from kernels.rng import bounded_pair, face_flag, seed_words, xoshiro
from kernels.trash_pandas.turn import NSUMS, _store

_MASK32 = np.uint64(0xFFFFFFFF)
_ONE = np.uint64(1)
_SIX = 63      # the held set with all six tokens
_BUST = 64     # bit 6 of a code
_RARE = 128    # bit 7 of a pass-1 code: replay this trial exactly
_LEMIRE_6 = np.uint64(2**32 % 6)  # Lemire's rejection threshold for a d6 (lemire_threshold(6))


@njit(cache=True, inline="always")
def _masked_step(h, alive, bust, face, roll_bits):
    """One face of a turn played with masks: a repeat while ``alive`` busts, a new face is taken,
    then the turn stays alive only if ``roll_bits`` says roll at the new held set."""
    rep = (h >> face) & 1
    bust |= alive & rep
    alive &= 1 - rep
    h |= alive << face
    alive &= np.int64((roll_bits >> np.uint64(h)) & _ONE)
    return h, alive, bust


@njit(cache=True, inline="always")
def _six_faces_code(s0, s1, s2, s3, roll_bits, thr):
    """A leg's code from the next three draws of the stream (six multiply-shift faces, played
    with masks), with bit 7 set when a face word falls below Lemire's threshold ``thr``."""
    x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    f0, r0 = face_flag(x >> np.uint64(32), 6, thr)
    f1, r1 = face_flag(x & _MASK32, 6, thr)
    x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    f2, r2 = face_flag(x >> np.uint64(32), 6, thr)
    f3, r3 = face_flag(x & _MASK32, 6, thr)
    x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    f4, r4 = face_flag(x >> np.uint64(32), 6, thr)
    f5, r5 = face_flag(x & _MASK32, 6, thr)
    h = 0
    alive = 1
    bust = 0
    h, alive, bust = _masked_step(h, alive, bust, f0, roll_bits)
    h, alive, bust = _masked_step(h, alive, bust, f1, roll_bits)
    h, alive, bust = _masked_step(h, alive, bust, f2, roll_bits)
    h, alive, bust = _masked_step(h, alive, bust, f3, roll_bits)
    h, alive, bust = _masked_step(h, alive, bust, f4, roll_bits)
    h, alive, bust = _masked_step(h, alive, bust, f5, roll_bits)
    rare = r0 | r1 | r2 | r3 | r4 | r5
    return h | (bust << 6) | (rare << 7)


@njit(cache=True, inline="always")
def _fast_code(k0, k1, k2, k3, t, roll_bits, thr):
    """Pass 1 for trial ``t``: the main turn's code (:func:`_six_faces_code` of its stream)."""
    s0, s1, s2, s3 = seed_words(k0, k1, k2, k3, t)
    return _six_faces_code(s0, s1, s2, s3, roll_bits, thr)


@njit(cache=True, inline="always")
def _after_main_six(k0, k1, k2, k3, t):
    """Trial ``t``'s stream after the three draws of a main turn that collected all six with six
    exact faces (both halves of each draw used, so no half-word is left over)."""
    s0, s1, s2, s3 = seed_words(k0, k1, k2, k3, t)
    x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    return s0, s1, s2, s3


@njit(cache=True, inline="always")
def _fast_bonus_code(k0, k1, k2, k3, t, roll_bonus, thr):
    """Pass 3 for trial ``t``, whose main turn collected all six with six exact faces: the bonus
    turn's code from the stream after those three draws (:func:`_six_faces_code`; a bonus turn
    also stops by its sixth new face at the latest)."""
    s0, s1, s2, s3 = _after_main_six(k0, k1, k2, k3, t)
    return _six_faces_code(s0, s1, s2, s3, roll_bonus, thr)


@njit(cache=True, inline="always")
def _exact_leg(h_limit_bits, buf, have, s0, s1, s2, s3):
    """One leg (main or bonus turn) with exact faces from the stream: returns (code, buf, have,
    s0..s3). Rolls until a repeat (a bust) or six tokens or ``h_limit_bits`` says stop."""
    h = 0
    nh = 0
    while True:
        face, buf, have, s0, s1, s2, s3 = bounded_pair(6, buf, have, s0, s1, s2, s3)
        bit = 1 << face
        if h & bit:
            return h | _BUST, buf, have, s0, s1, s2, s3
        h |= bit
        nh += 1
        if nh == 6 or (h_limit_bits >> np.uint64(h)) & _ONE == 0:
            return h, buf, have, s0, s1, s2, s3


@njit(cache=True)
def _exact_turn(k0, k1, k2, k3, t, roll_main, roll_bonus, bonus_turn):
    """Trial ``t`` played exactly (pass 2's replay): (main code, bonus code or -1)."""
    s0, s1, s2, s3 = seed_words(k0, k1, k2, k3, t)
    buf = np.uint64(0)
    have = 0
    main, buf, have, s0, s1, s2, s3 = _exact_leg(roll_main, buf, have, s0, s1, s2, s3)
    if main != _SIX or not bonus_turn:
        return main, -1
    bonus, buf, have, s0, s1, s2, s3 = _exact_leg(roll_bonus, buf, have, s0, s1, s2, s3)
    return main, bonus


@njit(cache=True)
def _bonus_after_six(k0, k1, k2, k3, t, roll_bonus):
    """The bonus turn's code of trial ``t``, whose main turn collected all six with six exact
    faces, played with exact faces (pass 3's replay of a flagged bonus turn)."""
    s0, s1, s2, s3 = _after_main_six(k0, k1, k2, k3, t)
    bonus, buf, have, s0, s1, s2, s3 = _exact_leg(roll_bonus, np.uint64(0), 0, s0, s1, s2, s3)
    return bonus


@njit(cache=True, inline="always")
def _popcount(h):
    c = 0
    while h:
        h &= h - 1
        c += 1
    return c


@njit(cache=True)
def _store_sums(out, blk, main, bonus, bonus_turn, bust_value, resolve_val):
    """Write one block's 13 sums (turn.py's ``COLUMNS``) from the code counts ``main[c]`` and
    ``bonus[c]``. A code's value is ``resolve_val[(mode·64 + H)·7]`` or ``bust_value``; its
    tokens are |H| (0 on a bust) and its rolls |H| (+1 on a bust). A turn that collected six adds
    the six tokens, six rolls and the value of resolving them to its bonus leg's."""
    s_val = 0.0
    s_val2 = 0.0
    busts = 0
    s_tok = 0
    s_tok2 = 0
    rolls = 0
    rolls2 = 0
    for c in range(128):
        k = main[c]
        if k == 0 or c == _SIX:
            continue
        nh = _popcount(c & _SIX)
        if c & _BUST:
            v = bust_value
            tok = 0
            r = nh + 1
            busts += k
        else:
            v = resolve_val[c * 7]
            tok = nh
            r = nh
        s_val += k * v
        s_val2 += k * (v * v)
        s_tok += k * tok
        s_tok2 += k * tok * tok
        rolls += k * r
        rolls2 += k * r * r
    sixes = main[_SIX]
    v6 = resolve_val[_SIX * 7]
    bonus_busts = 0
    x_tok = 0
    x_tok2 = 0
    x_val = 0.0
    x_val2 = 0.0
    if bonus_turn:
        for c in range(128):
            k = bonus[c]
            if k == 0:
                continue
            nh = _popcount(c & _SIX)
            if c & _BUST:
                v = v6 + bust_value
                tok = 6
                r = 6 + nh + 1
                bonus_busts += k
            else:
                v = v6 + resolve_val[(64 + c) * 7]
                tok = 6 + nh
                r = 6 + nh
            x_val += k * v
            x_val2 += k * (v * v)
            x_tok += k * tok
            x_tok2 += k * tok * tok
            rolls += k * r
            rolls2 += k * r * r
    else:
        x_val = sixes * v6
        x_val2 = sixes * (v6 * v6)
        x_tok = sixes * 6
        x_tok2 = sixes * 36
        rolls += sixes * 6
        rolls2 += sixes * 36
    _store(out, blk, s_val + x_val, s_val2 + x_val2, busts, s_tok + x_tok, s_tok2 + x_tok2, sixes,
           rolls, bonus_busts, rolls2, x_tok, x_tok2, x_val, x_val2)


@njit(cache=True, parallel=True)
def nocards_blocks(keys, counts, bonus_turn, bust_value, roll, resolve_val, thr):
    """The three passes of the module doc over every block; ``thr`` is the rare-face threshold of
    pass 1 (:func:`kernels.rng.lemire_threshold` of 6; a larger value only sends more trials to
    the exact replay, which tests use to exercise it). ``keys``: uint64 (blocks, 4); ``counts``:
    int64 (blocks,); ``roll``: uint8 (128,); ``resolve_val``: float64 (2·64·7,)."""
    m = keys.shape[0]
    out = np.zeros((m, NSUMS), dtype=np.float64)
    roll_main = np.uint64(0)
    roll_bonus = np.uint64(0)
    for h in range(64):
        if roll[h] != 0:
            roll_main |= _ONE << np.uint64(h)
        if roll[64 + h] != 0:
            roll_bonus |= _ONE << np.uint64(h)
    for blk in prange(m):
        k0, k1, k2, k3 = keys[blk, 0], keys[blk, 1], keys[blk, 2], keys[blk, 3]
        n = counts[blk]
        codes = np.empty(n, dtype=np.uint8)
        for t in range(n):  # pass 1: vectorised over trials
            codes[t] = _fast_code(k0, k1, k2, k3, t, roll_main, thr)
        tally = np.zeros(256, dtype=np.int64)
        sixes_at = np.empty(n, dtype=np.int32)  # only the first `sixes` entries are written
        sixes = 0
        for t in range(n):  # pass 2: counts, and the trials that collected six (no branch)
            c = codes[t]
            tally[c] += 1
            sixes_at[sixes] = t
            sixes += c == _SIX
        main = tally[:128].copy()
        bonus = np.zeros(128, dtype=np.int64)
        if tally[_RARE:].sum() > 0:  # rare trials: replayed exactly, main and bonus turn
            for t in range(n):
                if codes[t] >= _RARE:
                    c, b = _exact_turn(k0, k1, k2, k3, t, roll_main, roll_bonus, bonus_turn)
                    main[c] += 1
                    if b >= 0:
                        bonus[b] += 1
        if bonus_turn and sixes > 0:  # pass 3: the bonus turns, vectorised over them
            bcodes = np.empty(sixes, dtype=np.uint8)
            for i in range(sixes):
                bcodes[i] = _fast_bonus_code(k0, k1, k2, k3, sixes_at[i], roll_bonus, thr)
            for i in range(sixes):
                b = np.int64(bcodes[i])
                if b >= _RARE:
                    b = _bonus_after_six(k0, k1, k2, k3, sixes_at[i], roll_bonus)
                bonus[b] += 1
        _store_sums(out, blk, main, bonus, bonus_turn, bust_value, resolve_val)
    return out


def simulate_turns_nocards(keys, counts, bonus_turn, bonus_cap, bust_value, roll, resolve_val):
    """Turns without Blammo!/Nanners/MMM Pie! in hand (module doc); the same sums as
    :func:`kernels.trash_pandas.turn.simulate_turns` with ``B = N = P = 0``. ``bonus_cap`` is
    carried by ``roll`` (0 at the cap) and kept for the common signature."""
    return nocards_blocks(keys, counts, bonus_turn, bust_value, roll, resolve_val, _LEMIRE_6)
