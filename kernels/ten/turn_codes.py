"""Ten: the branch-free pass of the one-turn kernel (the fast path of
:func:`kernels.ten.turn.turn_blocks`): each trial's turn played for its first :data:`STEPS`
random half-words with masks, its result summed in integers, so the loop over trials
vectorises.

Model
-----
As ``kernels/ten/turn.py``: trial ``t``'s turn draws from the pile of R positions on its own
xoshiro256** stream, one 32-bit half-word per draw attempt (high half first), a position j
uniform in [0, R) by Lemire's multiply-shift with rejection; a position already drawn in this
turn is drawn again. A card changes T by ``tpos[j]`` and C by ``cpos[j]`` (a number bust when
T ≥ bust_at, a currency bust when C ≥ cbust) and, when it does not bust, the number-card count
by ``isn`` and the tableau size by ``ist`` of its type; the policy (stop once T ≥ t, stop at m
tableau cards, or the solver's decision table followed along ``nchild``/``cchild``) then says
whether to draw again; a wild always draws again. The turn's result is as
``kernels.ten.turn._turn_value``.

Algorithm
---------
Attempt k of a turn always uses the stream's k-th half-word (a repeated position only burns
it), so the first :data:`STEPS` attempts are played in a fixed order without branches, under
the all-ones mask ``alive`` (the turn is still drawing):

* position ``j_k = (x_k · R) >> 32`` and Lemire's flag ``x_k·R mod 2**32 < thr``
  (:func:`kernels.rng.face_flag`);
* a repeat is ``j_k`` equal to an earlier ``j_i`` (an earlier attempt that was itself a repeat
  carries a position already drawn, so comparing with every earlier attempt is exact);
* the card's effects come from one packed word per position (:func:`pack_positions`: one
  gather instead of five loads); T and C move, a bust ends the turn, otherwise the counts move,
  the policy decides, and the turn stays alive if it draws again and cards are left.

A trial is *rare* when it is still alive after the :data:`STEPS` attempts (about 6% of
fresh-deck turns under total:7, 4% under the optimal policy) or when an attempt it used would
have been rejected by Lemire (the exact stream then redraws; probability below R / 2**32 per
attempt). Every other trial's multiply-shift positions are the exact ones, so its result is the
exact kernel's; rare trials are left out of the sums and returned as bits of a mask for the
caller to replay exactly. ``thr = 2**32`` flags every attempt (a test of the replay).

Sums in integers: the loop must not store per trial (a store next to the table gathers stops
LLVM from vectorising: it cannot prove they do not overlap), so every sum is a reduction. A
turn's value ``v`` is ``card·n − oppc·oc``, ``token·got``, ``bustv − oppc·oc`` or ``bustv``; when
the four weights are multiples of 2**−e (:func:`value_scale`) and the sums stay below 2**53 in
those units, ``v·2**e`` is an integer, every partial sum of the one-trial-at-a-time loop is
exact, and Σv, Σv² are the integer sums scaled back, bit for bit whatever the order.

Cost: per trial 4 SplitMix64 finalisers, 4 xoshiro256** steps, 8 multiply-shifts, 28 position
compares and 8 gathers (24 more for the optimal policy's tables) in 4-wide vector lanes, plus
the scalar replay of the rare trials: 2.7-3x the general loop's turns per CPU second under
total:7, 2.1x under the optimal policy (issue 16's measurement, one thread).
"""
import numpy as np
from numba import njit

from kernels.ten.exact import DEC_DRAW, WILD
from kernels.rng import face_flag, seed_words, xoshiro
from kernels.widen import plain_types

STEPS = 8  # draw attempts (half-words: four xoshiro256** outputs) played branch-free
CHUNK = 64  # trials per call of chunk_sums (one bit each in the rare mask)
POLICY_TOTAL, POLICY_CARDS, POLICY_OPTIMAL = 0, 1, 2  # chunk_sums' policy literal
# sums of chunk_sums (int64): busts by kind, number cards and tokens taken with squares, scaled
# value and its square, tableau cards and wilds drawn with squares
S_NBUST, S_CBUST, S_NT, S_NT2, S_TK, S_TK2, S_V, S_V2, S_DR, S_W, S_DR2, S_W2 = range(12)
NSUMS = 12
_MASK32 = np.uint64(0xFFFFFFFF)
_HI = np.uint64(32)
# packed position word: T effect + _T_BIAS in bits 0-15, C effect in 16-31, isn at bit 32
# (counts number cards in bits 32-39), ist at bit 40 (tableau cards, bits 40-47), wild at bit
# 48, card type in bits 56-62
_T_BIAS = 32768
_FIELD = 0xFFFF
_COUNTS = 0xFFFF << 32


@njit(cache=True)
def pack_positions(pile, tpos, cpos, isn, ist):
    """One int64 word per position with the card's effects (layout above), or an empty array
    when some effect does not fit (the caller then plays the general loop). At least one word,
    so the multiply-shift position of an empty pile still reads memory it owns."""
    R = pile.shape[0]
    pk = np.zeros(max(R, 1), dtype=np.int64)
    for j in range(R):
        c = np.int64(pile[j])
        if not (-_T_BIAS <= tpos[j] < _T_BIAS and 0 <= cpos[j] <= _FIELD and 0 <= c < 128):
            return np.zeros(0, dtype=np.int64)
        if not (0 <= isn[c] <= 1 and 0 <= ist[c] <= 1):
            return np.zeros(0, dtype=np.int64)
        pk[j] = ((tpos[j] + _T_BIAS) | (cpos[j] << 16) | (np.int64(isn[c]) << 32)
                 | (np.int64(ist[c]) << 40) | (np.int64(c == WILD) << 48) | (c << 56))
    return pk


@plain_types
@njit(cache=True)
def value_scale(card, token, bustv, oppc, vmax, count):
    """``2**e`` for the smallest e ≤ 30 with the four value weights multiples of 2**−e and
    ``count`` turns of value at most ``vmax`` in size summing exactly (Σ|v|·2**e and Σv²·4**e
    below 2**53), or 0.0 when there is none (the caller then sums in order, trial by trial)."""
    scale = 1.0
    for _ in range(31):
        whole = True
        for w in (card, token, bustv, oppc):
            whole = whole and (w * scale) == np.floor(w * scale)
        if whole:
            m = vmax * scale
            if m < 2.0 ** 26 and max(count, 1) * m * m < 2.0 ** 53:
                return scale
            return 0.0
        scale *= 2.0
    return 0.0


@njit(cache=True, inline="always")
def _mask(b):
    """All ones for True, 0 for False (as int64)."""
    return -np.int64(b)


@njit(cache=True, inline="always")
def _smaller(a, b):
    """min(a, b) written out: a builtin ``min`` is a call the vectoriser can meet uninlined."""
    return a if a < b else b


@njit(cache=True, inline="always")
def _attempt(j, r, dup, st, pk, child, draws, fixed):
    """One draw attempt at position ``j`` (Lemire flag ``r``, ``dup`` all ones for a repeat)
    applied under the mask ``alive`` to the state ``st`` = (alive, rej, T, C, counts, pos,
    nbust, cbust, na, cb); returns the new state. ``fixed`` holds the turn's constants; its
    ``policy`` must be a literal so the branches fold. The optimal policy's tables are flat
    (:func:`flat_tables`) and read with unsigned indices (no negative-index wrap)."""
    alive, rej, T, C, W, pos, nbust, cbust, na, cb = st
    R, bust_at, cbust_at, tab0, policy, param, cur_base, ncb = fixed
    rej |= alive & _mask(r)
    take = alive & ~dup
    e = pk[j]
    T += take & ((e & _FIELD) - _T_BIAS)
    C += take & ((e >> 16) & _FIELD)
    nb = take & _mask(T >= bust_at)
    cb_ = take & ~nb & _mask(C >= cbust_at)
    ok = take & ~(nb | cb_)
    nbust |= nb
    cbust |= cb_
    pos -= take
    W += ok & (e & _COUNTS)
    wild = _mask((e >> 48) & 1)
    if policy == POLICY_OPTIMAL:
        c = e >> 56
        is_num = _mask(c < 9)
        num = ok & is_num
        cur = ok & ~is_num & ~wild
        row = (is_num & (na * 9 + c)) | (~is_num & (cur_base + cb * 5 + _smaller(c - 9, 4)))
        nxt = np.int64(child[np.uint64(row)])
        na = (num & nxt) | (~num & na)
        cb = (cur & nxt) | (~cur & cb)
        go = _mask(draws[np.uint64(na * ncb + cb)] != 0)
    elif policy == POLICY_TOTAL:
        go = _mask(T < param)
    else:
        go = _mask(tab0 + ((W >> 40) & 255) < param)
    alive &= dup | (ok & (go | wild) & _mask(pos < R))
    return alive, rej, T, C, W, pos, nbust, cbust, na, cb


@njit(cache=True, inline="always")
def _trial(k0, k1, k2, k3, t, thr, alive0, T0, C0, pk, child, draws, fixed):
    """The first :data:`STEPS` attempts of trial ``t``: (rare, number bust, currency bust, C,
    number cards drawn, tableau cards drawn, cards drawn) with masks for the flags."""
    R = fixed[0]
    s0, s1, s2, s3 = seed_words(k0, k1, k2, k3, t)
    z = np.int64(0)
    st = (alive0, z, T0, C0, z, z, z, z, z, z)
    x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    j0, r0 = face_flag(x >> _HI, R, thr)
    st = _attempt(j0, r0, z, st, pk, child, draws, fixed)
    j1, r1 = face_flag(x & _MASK32, R, thr)
    d = _mask(j1 == j0)
    st = _attempt(j1, r1, d, st, pk, child, draws, fixed)
    x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    j2, r2 = face_flag(x >> _HI, R, thr)
    d = _mask((j2 == j0) | (j2 == j1))
    st = _attempt(j2, r2, d, st, pk, child, draws, fixed)
    j3, r3 = face_flag(x & _MASK32, R, thr)
    d = _mask((j3 == j0) | (j3 == j1) | (j3 == j2))
    st = _attempt(j3, r3, d, st, pk, child, draws, fixed)
    x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    j4, r4 = face_flag(x >> _HI, R, thr)
    d = _mask((j4 == j0) | (j4 == j1) | (j4 == j2) | (j4 == j3))
    st = _attempt(j4, r4, d, st, pk, child, draws, fixed)
    j5, r5 = face_flag(x & _MASK32, R, thr)
    d = _mask((j5 == j0) | (j5 == j1) | (j5 == j2) | (j5 == j3) | (j5 == j4))
    st = _attempt(j5, r5, d, st, pk, child, draws, fixed)
    x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    j6, r6 = face_flag(x >> _HI, R, thr)
    d = _mask((j6 == j0) | (j6 == j1) | (j6 == j2) | (j6 == j3) | (j6 == j4) | (j6 == j5))
    st = _attempt(j6, r6, d, st, pk, child, draws, fixed)
    j7, r7 = face_flag(x & _MASK32, R, thr)
    d = _mask((j7 == j0) | (j7 == j1) | (j7 == j2) | (j7 == j3) | (j7 == j4) | (j7 == j5)
              | (j7 == j6))
    st = _attempt(j7, r7, d, st, pk, child, draws, fixed)
    alive, rej, T, C, W, pos, nbust, cbust, na, cb = st
    return rej | alive, nbust, cbust, C, (W >> 32) & 255, (W >> 40) & 255, pos


@njit(cache=True)
def flat_tables(nchild, cchild, decision):
    """The optimal policy's tables as :func:`chunk_sums` reads them: one successor table
    (``nchild`` rows, 9 per number state, then ``cchild`` rows, 5 per currency state; int32) and
    the draw flags ``decision == DEC_DRAW`` (int32, ``decision.shape[1]`` per row)."""
    child = np.empty(nchild.size + cchild.size, dtype=np.int32)
    child[:nchild.size] = nchild.ravel()
    child[nchild.size:] = cchild.ravel()
    draws = np.empty(decision.size, dtype=np.int32)
    flat = decision.ravel()
    for i in range(flat.shape[0]):
        draws[i] = flat[i] == DEC_DRAW
    return child, draws


@njit(cache=True)
def chunk_sums(sums, k0, k1, k2, k3, t0, t1, thr, pk, R, alive0, T0, C0, n0, tab0, bust_at,
               cbust_at, policy, param, child, draws, cur_base, ncb, weights):
    """Trials t0 … t1 − 1 (at most :data:`CHUNK`) of a block (key words k0..k3) under one
    policy (``POLICY_*``): adds the results of the trials that are not rare to ``sums``
    (``S_*``, int64; the value in units of 2**−e, ``weights`` = the scaled card, token, bustv,
    oppc and the cap and room) and returns the rare trials as bits ``t − t0`` of a uint64.
    ``alive0`` is all ones when the turn's first draw happens (forced root, or the policy draws
    at the root, and cards are left). ``child``, ``draws``: :func:`flat_tables`, with the
    currency rows from ``cur_base`` and ``ncb`` draw flags per number state."""
    turn = (R, T0, C0, n0, tab0, bust_at, cbust_at, param, cur_base, ncb)
    if policy == POLICY_OPTIMAL:
        return _chunk(sums, k0, k1, k2, k3, t0, t1, thr, alive0, pk, child, draws,
                      POLICY_OPTIMAL, turn, weights)
    if policy == POLICY_TOTAL:
        return _chunk(sums, k0, k1, k2, k3, t0, t1, thr, alive0, pk, child, draws,
                      POLICY_TOTAL, turn, weights)
    return _chunk(sums, k0, k1, k2, k3, t0, t1, thr, alive0, pk, child, draws,
                  POLICY_CARDS, turn, weights)


@njit(cache=True, inline="always")
def _chunk(sums, k0, k1, k2, k3, t0, t1, thr, alive0, pk, child, draws, policy, turn,
           weights):
    """:func:`chunk_sums` for one policy kind (a literal)."""
    R, T0, C0, n0, tab0, bust_at, cbust_at, param, cur_base, ncb = turn
    cardi, tokeni, bustvi, oppci, cap, room = weights
    fixed = (R, bust_at, cbust_at, tab0, policy, param, cur_base, ncb)
    rare_bits = np.uint64(0)
    s_nb = 0
    s_cb = 0
    s_nt = 0
    s_nt2 = 0
    s_tk = 0
    s_tk2 = 0
    s_v = 0
    s_v2 = 0
    s_dr = 0
    s_w = 0
    s_dr2 = 0
    s_w2 = 0
    for t in range(t0, t1):
        rare, nbust, cbust, C, dn, dr, pos = _trial(k0, k1, k2, k3, t, thr, alive0, T0, C0, pk,
                                                     child, draws, fixed)
        keep = ~rare
        rare_bits |= np.uint64(rare & 1) << np.uint64(t - t0)
        busted = nbust | cbust
        n = n0 + dn
        oc = _smaller(C, cap)
        got = _smaller(C, room)
        s_num = cardi * n - oppci * oc
        s_cur = tokeni * got
        by_num = ~busted & _mask(s_num >= s_cur)
        by_cur = ~busted & ~by_num
        v = ((nbust & (bustvi - oppci * oc)) | (cbust & bustvi) | (by_num & s_num)
             | (by_cur & s_cur)) & keep
        nt = by_num & keep & n
        tk = by_cur & keep & got
        dr &= keep
        w = (pos - dr + busted) & keep  # busted is -1: the busting card is no wild
        s_nb -= nbust & keep
        s_cb -= cbust & keep
        s_nt += nt
        s_nt2 += nt * nt
        s_tk += tk
        s_tk2 += tk * tk
        s_v += v
        s_v2 += v * v
        s_dr += dr
        s_w += w
        s_dr2 += dr * dr
        s_w2 += w * w
    sums[S_NBUST] += s_nb
    sums[S_CBUST] += s_cb
    sums[S_NT] += s_nt
    sums[S_NT2] += s_nt2
    sums[S_TK] += s_tk
    sums[S_TK2] += s_tk2
    sums[S_V] += s_v
    sums[S_V2] += s_v2
    sums[S_DR] += s_dr
    sums[S_W] += s_w
    sums[S_DR2] += s_dr2
    sums[S_W2] += s_w2
    return rare_bits
