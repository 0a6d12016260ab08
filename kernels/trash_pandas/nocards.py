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
A leg's (main or bonus turn's) outcome is a *code*: the held set ``H`` at its end (bits 0–5) and
the bust flag (bit 6). Every sum the kernel reports is a function of the main turn's code and,
for a turn that collected all six, of the bonus turn's code. The bust flag is itself a function
of ``H``: a leg that ends holding ``H`` with fewer than six tokens busted exactly when the
policy rolls at ``H`` (had it not rolled, it would have stopped there), so the passes below
carry ``H`` only and :func:`_with_busts` sets bit 6 when the counts are read. A block is
played in three passes:

1. **Codes, branch-free** (:func:`_main_codes`): three draws give six multiply-shift faces,
   which always suffice (a seventh face of a main turn must repeat; a bonus turn stops by its
   cap ≤ 5 or at six); the six steps of the turn are played with masks (``alive``), so the trial
   loop has no branch and LLVM vectorises it over trials. A policy that rolls by the number of
   held tokens only (stop-at:K, and a bonus turn's cap; :func:`_by_size`) skips the roll-table
   lookup per face: a face is taken when none so far repeated and the policy rolled that far,
   a per-face mask the same for every trial (:func:`_six_faces_code_sized`); any other table
   is looked up per face (:func:`_six_faces_code`). Bit 7 marks a *rare* trial: one in which a
   face word would have been rejected by Lemire's step (probability ``6 · 4 / 2**32`` per trial;
   the multiply-shift face may then differ from the exact one).
2. **Counts** (:func:`_tally`): a histogram of the main codes. A rare trial is replayed exactly
   and in full (:func:`_exact_turn`: the same stream, :func:`~kernels.rng.bounded_pair` faces,
   the bonus turn continuing the stream after the main turn's faces). With ``bonus_turn``, the
   trials whose code is 63 (collected all six without a rare word; about 1.5% of stop-at:6
   turns) are listed by :func:`_positions_of_six`: eight codes at a time, the words holding a 63
   first, then their bytes, both appended without a branch.
3. **Bonus turns, branch-free** (:func:`_bonus_codes`, with ``bonus_turn``): each listed
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
calibration loop on one core (medians of 7 paired runs, same process). Those figures, and the
1.03–1.07 of later runs, come from the Intel machines the kernel was first tuned on.

The share of the calibration loop depends on the CPU, and not through memory traffic. The
calibration loop (kernels/trash_pandas/calibration.py) is itself vectorised by LLVM (its dice
loop of at most six rolls is unrolled and made branch-free: 8 lanes of 64 bits), so the share
is close to the ratio of vector instructions per trial, which the CPU weighs differently. On an
AMD EPYC (Zen 4, LLVM target znver4, AVX-512) the kernel first ran at 0.60–0.64 of the
calibration loop. Measured there, in calibration-loop units per trial (1.0 = the whole
calibration loop): pass 1 about 1.28 (the loop's own work plus a roll-table lookup, a bust flag
and a Lemire flag per face and a byte store), the histogram with the branch-free list of sixes
0.27, pass 3 and the rest 0.1. Keeping a block's codes in L1 (passes 1 and 2 fused over chunks of
1024–8192 trials), four interleaved sub-histograms, int32 step variables (Numba widens them to
64 bits again), int64 codes, and compiling for an AVX2 or an icelake-server target all measured
the same or slower there. What helped, and costs no CPU anything: the bust flag read off the
final held set (two operations fewer per face), the by-size policy loop (the roll-table lookup
gone for stop-at:K), pass 1 seeded without seed_words' all-zero fix-up (a reduction, a compare
and a select per trial, about 7%; :func:`_fast_code` says why the codes are the same), and the
list of sixes made apart from the histogram, eight codes at a time (the histogram alone costs
0.16). With them, on that machine (one core, taskset to the idle CPU; medians over 7 processes
of the medians of 5 paired runs, the old kernel beside it): stop-at:6 0.76 of the calibration
loop (0.63 before), optimal 0.73 (0.58; 5 processes) and stop-at:3 0.85 (0.65; 3 processes).
Pass 1 alone is still about 1.0–1.1 calibration units there, so this design cannot reach 0.9 at
stop-at:6 on Zen 4 as it stands: what is left is work per trial, not memory traffic. The same
changes take a fifth off pass 1's instructions per trial when compiled for skylake-avx512 or
icelake-server (main loop: 153 before, 122 by size, 126 by table; counted, not timed: no Intel
machine here).
Output: the per-block sums of turn.py's ``COLUMNS``, float64, shape (blocks, 13).
"""
import numpy as np
from numba import njit, prange

from kernels.rng import bounded_pair, face_flag, seed_words, seed_words_unchecked, xoshiro
from kernels.trash_pandas.turn import NSUMS, _store

_MASK32 = np.uint64(0xFFFFFFFF)
_ONE = np.uint64(1)
_SIX = 63      # the held set with all six tokens
_BUST = 64     # bit 6 of a code
_RARE = 128    # bit 7 of a pass-1 code: replay this trial exactly
_LEMIRE_6 = np.uint64(2**32 % 6)  # Lemire's rejection threshold for a d6 (lemire_threshold(6))


@njit(cache=True, inline="always")
def _masked_step(h, alive, face, roll_bits):
    """One face of a turn played with masks: a repeat ends the turn (``alive`` drops to 0), a new
    face is taken while ``alive``, then the turn stays alive only if ``roll_bits`` says roll at
    the new held set. No bust flag: :func:`_with_busts` reads it off the final held set."""
    alive &= ~(h >> face)  # bit 0: 1 - (face held); alive is 0 or 1
    h |= alive << face
    alive &= np.int64((roll_bits >> np.uint64(h)) & _ONE)
    return h, alive


@njit(cache=True, inline="always")
def _sized_step(h, fresh, face, reach):
    """:func:`_masked_step` for a policy that rolls by the number of held tokens only: ``fresh``
    (0 or 1) says no face so far repeated, ``reach`` (0 or -1, the same for every trial) says the
    policy rolled this face when none repeated (:func:`_by_size`)."""
    fresh &= ~(h >> face)
    h |= (fresh << face) & reach
    return h, fresh


@njit(cache=True, inline="always")
def _six_faces(s0, s1, s2, s3, thr):
    """The next three draws of the stream as six multiply-shift faces and the rare flag (1 when
    a face word falls below Lemire's threshold ``thr``)."""
    x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    f0, r0 = face_flag(x >> np.uint64(32), 6, thr)
    f1, r1 = face_flag(x & _MASK32, 6, thr)
    x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    f2, r2 = face_flag(x >> np.uint64(32), 6, thr)
    f3, r3 = face_flag(x & _MASK32, 6, thr)
    x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    f4, r4 = face_flag(x >> np.uint64(32), 6, thr)
    f5, r5 = face_flag(x & _MASK32, 6, thr)
    return f0, f1, f2, f3, f4, f5, r0 | r1 | r2 | r3 | r4 | r5


@njit(cache=True, inline="always")
def _six_faces_code(s0, s1, s2, s3, roll_bits, thr):
    """A leg's code from the next three draws of the stream (six multiply-shift faces, played
    with masks): the held set at its end, with bit 7 set when a face word falls below
    Lemire's threshold ``thr``."""
    f0, f1, f2, f3, f4, f5, rare = _six_faces(s0, s1, s2, s3, thr)
    h = 0
    alive = 1
    h, alive = _masked_step(h, alive, f0, roll_bits)
    h, alive = _masked_step(h, alive, f1, roll_bits)
    h, alive = _masked_step(h, alive, f2, roll_bits)
    h, alive = _masked_step(h, alive, f3, roll_bits)
    h, alive = _masked_step(h, alive, f4, roll_bits)
    h, alive = _masked_step(h, alive, f5, roll_bits)
    return h | (rare << 7)


@njit(cache=True, inline="always")
def _six_faces_code_sized(s0, s1, s2, s3, r1, r2, r3, r4, r5, thr):
    """:func:`_six_faces_code` for a policy that rolls by the number of held tokens only:
    ``r1`` … ``r5`` are -1 when the policy rolls the second … sixth face (having taken every
    face before it), else 0 (:func:`_by_size`)."""
    f0, f1, f2, f3, f4, f5, rare = _six_faces(s0, s1, s2, s3, thr)
    h = 1 << f0  # the first face is always rolled and new
    fresh = 1
    h, fresh = _sized_step(h, fresh, f1, r1)
    h, fresh = _sized_step(h, fresh, f2, r2)
    h, fresh = _sized_step(h, fresh, f3, r3)
    h, fresh = _sized_step(h, fresh, f4, r4)
    h, fresh = _sized_step(h, fresh, f5, r5)
    return h | (rare << 7)


@njit(cache=True, inline="always")
def _fast_code(k0, k1, k2, k3, t, roll_bits, thr):
    """Pass 1 for trial ``t``: the main turn's code (:func:`_six_faces_code` of its stream),
    seeded without seed_words' all-zero fix-up (:func:`~kernels.rng.seed_words_unchecked`): the
    code is the same, since a trial that needs the fix-up draws 0 first with or without it, so
    its first two faces are 0 and 0 (the leg ends by its second face) and the word is flagged."""
    s0, s1, s2, s3 = seed_words_unchecked(k0, k1, k2, k3, t)
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


@njit(cache=True)
def _by_size(roll_bits):
    """Whether the policy ``roll_bits`` rolls by the number of held tokens only (as stop-at:K and
    a bonus turn's cap do), and if so the reach masks of :func:`_six_faces_code_sized`:
    (True, r1, …, r5) with ``r_k`` = -1 when the policy rolls holding 1, …, k tokens, else 0;
    (False, 0, …) otherwise. Six held tokens end a leg whatever the table says."""
    reach = np.zeros(6, dtype=np.int64)
    rolls = -1
    for k in range(1, 6):
        first = -1
        for h in range(64):
            if _popcount(h) == k:
                b = np.int64((roll_bits >> np.uint64(h)) & _ONE)
                if first < 0:
                    first = b
                elif b != first:
                    return False, 0, 0, 0, 0, 0
        rolls &= -first
        reach[k] = rolls
    return True, reach[1], reach[2], reach[3], reach[4], reach[5]


@njit(cache=True)
def _with_busts(held, roll_bits):
    """Counts by the held set at a leg's end (``held[H]``, H < 64) as counts by code: a leg that
    ended holding H with fewer than six tokens busted exactly when the policy rolls at H (it
    stopped there otherwise), so the bust flag is read off H here rather than carried through
    every step of pass 1."""
    out = np.zeros(128, dtype=np.int64)
    for h in range(64):
        bust = h != _SIX and (roll_bits >> np.uint64(h)) & _ONE != 0
        out[h + _BUST if bust else h] += held[h]
    return out


@njit(cache=True)
def _main_codes(codes, k0, k1, k2, k3, n, roll_main, thr):
    """Pass 1: the main turn's code of trials 0..n-1 into ``codes``, vectorised over trials (the
    by-size policy loop when the roll table allows it, :func:`_by_size`)."""
    sized, r1, r2, r3, r4, r5 = _by_size(roll_main)
    if sized:
        for t in range(n):
            s0, s1, s2, s3 = seed_words_unchecked(k0, k1, k2, k3, t)
            codes[t] = _six_faces_code_sized(s0, s1, s2, s3, r1, r2, r3, r4, r5, thr)
    else:
        for t in range(n):
            codes[t] = _fast_code(k0, k1, k2, k3, t, roll_main, thr)


@njit(cache=True)
def _tally(codes, n):
    """Pass 2: how many of the first ``n`` codes are each byte value (256 counts)."""
    tally = np.zeros(256, dtype=np.int64)
    for t in range(n):
        tally[codes[t]] += 1
    return tally


_BYTES = np.uint64(0x0101010101010101)
_HIGHS = np.uint64(0x8080808080808080)
_SIXES = np.uint64(_SIX) * _BYTES


@njit(cache=True)
def _positions_of_six(codes, count):
    """The ``count`` trials whose code is ``_SIX``, in order. ``codes`` is padded to whole
    64-bit words (with zeros). First the words holding a byte equal to ``_SIX`` are listed (the
    has-zero-byte test on ``word ^ _SIXES``; about one word in nine at stop-at:6), then their
    bytes; both appends are branch-free (a branch per word would be mispredicted often)."""
    words = codes.view(np.uint64)
    nw = words.shape[0]
    hit = np.empty(nw, dtype=np.int32)
    nh = 0
    for i in range(nw):
        v = words[i] ^ _SIXES
        hit[nh] = i
        nh += ((v - _BYTES) & ~v & _HIGHS) != 0
    at = np.empty(count + 1, dtype=np.int32)  # the last store of a word may fall one past
    k = 0
    for j in range(nh):
        for t in range(8 * hit[j], 8 * hit[j] + 8):
            at[k] = t
            k += codes[t] == _SIX
    return at[:count]


@njit(cache=True)
def _bonus_codes(k0, k1, k2, k3, sixes_at, roll_bonus, thr):
    """Pass 3: the bonus turn's code of each listed trial, vectorised over them."""
    sized, r1, r2, r3, r4, r5 = _by_size(roll_bonus)
    m = sixes_at.shape[0]
    bcodes = np.empty(m, dtype=np.uint8)
    if sized:
        for i in range(m):
            s0, s1, s2, s3 = _after_main_six(k0, k1, k2, k3, sixes_at[i])
            bcodes[i] = _six_faces_code_sized(s0, s1, s2, s3, r1, r2, r3, r4, r5, thr)
    else:
        for i in range(m):
            bcodes[i] = _fast_bonus_code(k0, k1, k2, k3, sixes_at[i], roll_bonus, thr)
    return bcodes


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
        codes = np.empty(-(-n // 8) * 8, dtype=np.uint8)  # whole words for _positions_of_six
        codes[n:] = 0
        _main_codes(codes, k0, k1, k2, k3, n, roll_main, thr)  # pass 1
        tally = _tally(codes, n)  # pass 2
        main = _with_busts(tally, roll_main)
        bonus = np.zeros(128, dtype=np.int64)
        if tally[_RARE:].sum() > 0:  # rare trials: replayed exactly, main and bonus turn
            for t in range(n):
                if codes[t] >= _RARE:
                    c, b = _exact_turn(k0, k1, k2, k3, t, roll_main, roll_bonus, bonus_turn)
                    main[c] += 1
                    if b >= 0:
                        bonus[b] += 1
        if bonus_turn and tally[_SIX] > 0:  # pass 3: the bonus turns, vectorised over them
            sixes_at = _positions_of_six(codes, tally[_SIX])
            bcodes = _bonus_codes(k0, k1, k2, k3, sixes_at, roll_bonus, thr)
            held = np.zeros(64, dtype=np.int64)
            for i in range(sixes_at.shape[0]):
                b = np.int64(bcodes[i])
                if b >= _RARE:
                    b = _bonus_after_six(k0, k1, k2, k3, sixes_at[i], roll_bonus)
                    bonus[b] += 1
                else:
                    held[b] += 1
            bonus += _with_busts(held, roll_bonus)
        _store_sums(out, blk, main, bonus, bonus_turn, bust_value, resolve_val)
    return out


def simulate_turns_nocards(keys, counts, bonus_turn, bonus_cap, bust_value, roll, resolve_val):
    """Turns without Blammo!/Nanners/MMM Pie! in hand (module doc); the same sums as
    :func:`kernels.trash_pandas.turn.simulate_turns` with ``B = N = P = 0``. ``bonus_cap`` is
    carried by ``roll`` (0 at the cap) and kept for the common signature."""
    return nocards_blocks(keys, counts, bonus_turn, bust_value, roll, resolve_val, _LEMIRE_6)
