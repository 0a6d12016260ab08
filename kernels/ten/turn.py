"""Ten: one turn simulated over shuffled piles under threshold policies or the exact optimal one.

The turn model (card types, tableau totals N and C, the two busts, the stop rewards) and the
exact solver whose successor and decision tables the optimal policy reads are described in
``kernels/ten/exact.py``.

Simulation
----------
Each trial is one turn on its own random stream (kernels/rng.py). A card is drawn by picking a
uniform position of the remaining pile (wilds included) and drawing again if that position was
already drawn this turn (rejection: the accepted card is uniform over the cards left, so the turn
sees a uniformly shuffled pile). Positions are marked with a per-turn stamp (no clearing), so a
trial's cards depend only on its stream, and several policies run on the same trial see the same
card sequence (common random numbers). The optimal policy follows the solver's successor table
from the root ((a, b) indices), so its decision in every reached state is a single array read.

Paths (same sums, bit for bit)
------------------------------
One policy with value weights whose sums are exact in binary (``turn_codes.value_scale``: the
default value model, any weights that are multiples of a power of two) takes the fast path:
``kernels/ten/turn_codes.py`` plays each trial's first eight draw attempts branch-free, vectorised
over trials, and sums the results in integers; a trial still drawing after them, or one whose
position Lemire's step would have redrawn, is replayed here by :func:`_play_turn` (about 6% of
fresh-deck turns). Several policies (paired differences) or other weights take the general loop,
one turn at a time (:func:`_general_block`), as does ``mode=MODE_GENERAL``.
"""
import numpy as np
from numba import njit, prange

from kernels.rng import bounded_pair, lemire_threshold, seed_words
from kernels.ten.exact import DEC_DRAW, KIND_CARDS, KIND_OPTIMAL, KIND_TOTAL, WILD
from kernels.ten.turn_codes import (CHUNK, NSUMS, POLICY_CARDS, POLICY_OPTIMAL, POLICY_TOTAL,
                                    S_CBUST, S_DR, S_DR2, S_NBUST, S_NT, S_NT2, S_TK, S_TK2, S_V,
                                    S_V2, S_W, S_W2, chunk_sums, flat_tables, pack_positions,
                                    value_scale)

NSTAT = 12  # per-policy sums, see turn_blocks
MODE_FAST, MODE_GENERAL, MODE_REPLAY_ALL = 0, 1, 2  # turn_blocks' paths (all give the same sums)


@njit(cache=True, inline="always")
def _policy_draws(kind, param, T, tab, na, cb, decision):
    if kind == KIND_TOTAL:
        return T < param
    if kind == KIND_CARDS:
        return tab < param
    return decision[na, cb] == DEC_DRAW


@njit(cache=True, inline="always")
def _turn_value(outcome, n, C, drawn, pos, card, token, bustv, oppc, cap, room):
    """A turn's result from its end state (outcome 2 or 3 for a bust, else 0; n number cards, C,
    ``drawn`` tableau cards drawn, ``pos`` cards drawn): (outcome, number cards taken, tokens
    taken, value, tableau cards drawn, wilds drawn), outcome 0 stop-numbers, 1 stop-currency,
    2 number bust, 3 currency bust."""
    oc = C if C < cap else cap
    if outcome == 2:
        return 2, 0, 0, bustv - oppc * oc, drawn, pos - drawn - 1
    if outcome == 3:
        return 3, 0, 0, bustv, drawn, pos - drawn - 1
    s_num = card * n - oppc * oc
    got = C if C < room else room
    s_cur = token * got
    if s_num >= s_cur:
        return 0, n, 0, s_num, drawn, pos - drawn
    return 1, 0, got, s_cur, drawn, pos - drawn


@njit(cache=True, inline="always")
def _play_turn(kw, t, a, used, stamp, R, tpos, cpos, isn, ist, T0, C0, n0, tab0, bust_at,
               cbust, card, token, bustv, oppc, cap, room, root_forced, kind, param,
               nchild, cchild, decision):
    """One turn on trial ``t``'s stream (``kw``: the block key's four words, read once per block)
    from the pile ``a`` (R cards). ``used[j] == stamp`` marks position j as drawn in this turn;
    ``stamp`` must differ from every earlier turn's. (The key goes in as one tuple: a call with
    more than 30 arguments compiles to CALL_FUNCTION_EX, which Numba's inliner rejects.)

    Drawing position j changes T by ``tpos[j]`` and C by ``cpos[j]`` (the card's effect, stored
    per position to save a dependent load); its type c = a[j] (15 types, 14 = wild) changes the
    number card count by ``isn[c]``, the tableau size by ``ist[c]`` (all 0 for a wild) and, for the
    optimal policy, the solver's state (na, cb) moves along ``nchild``/``cchild`` (unchanged by a
    wild; threshold policies pass dummy tables and never read them). A wild is no decision point.
    A number draw cannot raise C and a currency draw cannot raise T, so testing both limits after
    every card tells the two kinds of bust apart.
    Returns (outcome, number cards taken, tokens taken, value, tableau cards drawn, wilds drawn)
    with outcome 0 stop-numbers, 1 stop-currency, 2 number bust, 3 currency bust.
    """
    s0, s1, s2, s3 = seed_words(kw[0], kw[1], kw[2], kw[3], t)
    T = T0
    C = C0
    n = n0
    tab = tab0
    na = 0
    cb = 0
    pos = 0
    buf = np.uint64(0)
    have = 0
    outcome = 0
    go = True
    if not root_forced:
        go = _policy_draws(kind, param, T, tab, na, cb, decision)
    while go and pos < R:
        j, buf, have, s0, s1, s2, s3 = bounded_pair(R, buf, have, s0, s1, s2, s3)
        if used[j] == stamp:  # already drawn this turn: draw again (uniform over the cards left)
            continue
        used[j] = stamp
        pos += 1
        c = a[j]
        T += tpos[j]
        C += cpos[j]
        if T >= bust_at:
            outcome = 2
            break
        if C >= cbust:
            outcome = 3
            break
        n += isn[c]
        tab += ist[c]
        if kind == KIND_OPTIMAL:  # follow the solver's state: (numbers drawn, currency drawn)
            if c < 9:
                na = nchild[na, c]
            elif c < WILD:
                cb = cchild[cb, c - 9]
        # a wild is no decision point: the state, hence the last decision (draw), stands
        go = _policy_draws(kind, param, T, tab, na, cb, decision) | (c == WILD)
    return _turn_value(outcome, n, C, tab - tab0, pos, card, token, bustv, oppc, cap, room)


@njit(cache=True)
def _lowest_bit(bits):
    """Index of the lowest set bit of a non-zero uint64."""
    i = 0
    for k in (32, 16, 8, 4, 2, 1):
        if bits & ((np.uint64(1) << np.uint64(k)) - np.uint64(1)) == 0:
            bits >>= np.uint64(k)
            i += k
    return i


@njit(cache=True)
def _fast_block(out, b, kw, count, pile, tpos, cpos, isn, ist, start, values, kind, param,
                tables, pk, child, draws, thr, alive0, scale):
    """Block ``b``'s sums of one policy into ``out[b]`` by the branch-free pass
    (``turn_codes.chunk_sums``) with the rare trials replayed exactly; values summed in units of
    ``1 / scale`` (exact, see the module doc)."""
    T0, C0, n0, tab0, bust_at, cbust, root_forced = start
    card, token, bustv, oppc, cap, room = values
    nchild, cchild, decision = tables
    R = pile.shape[0]
    weights = (np.int64(card * scale), np.int64(token * scale), np.int64(bustv * scale),
               np.int64(oppc * scale), np.int64(cap), np.int64(room))
    policy = POLICY_OPTIMAL if kind == KIND_OPTIMAL else (
        POLICY_TOTAL if kind == KIND_TOTAL else POLICY_CARDS)
    sums = np.zeros(NSUMS, dtype=np.int64)
    used = np.zeros(R + 1, dtype=np.int64)  # stamp of the last replay that drew each position
    stamp = 0
    for t0 in range(0, count, CHUNK):
        bits = chunk_sums(sums, kw[0], kw[1], kw[2], kw[3], t0, min(t0 + CHUNK, count), thr,
                          pk, R, alive0, T0, C0, n0, tab0, bust_at, cbust, policy, param,
                          child, draws, nchild.size, decision.shape[1], weights)
        while bits != 0:
            t = t0 + _lowest_bit(bits)
            bits &= bits - np.uint64(1)
            stamp += 1
            o, nt, tk, v, dr, w = _play_turn(
                kw, t, pile, used, stamp, R, tpos, cpos, isn, ist, T0, C0, n0, tab0, bust_at,
                cbust, card, token, bustv, oppc, cap, room, root_forced, kind, param, nchild,
                cchild, decision)
            vi = np.int64(v * scale)
            sums[S_NBUST] += o == 2
            sums[S_CBUST] += o == 3
            sums[S_NT] += nt
            sums[S_NT2] += nt * nt
            sums[S_TK] += tk
            sums[S_TK2] += tk * tk
            sums[S_V] += vi
            sums[S_V2] += vi * vi
            sums[S_DR] += dr
            sums[S_W] += w
            sums[S_DR2] += dr * dr
            sums[S_W2] += w * w
    for c, k in ((0, S_NBUST), (1, S_CBUST), (2, S_NT), (3, S_NT2), (4, S_TK), (5, S_TK2),
                 (8, S_DR), (9, S_W), (10, S_DR2), (11, S_W2)):
        out[b, c] = sums[k]
    out[b, 6] = sums[S_V] / scale
    out[b, 7] = sums[S_V2] / (scale * scale)


@njit(cache=True)
def _value_bound(pile, cpos, C0, n0, card, token, bustv, oppc, cap, room):
    """An upper bound of |value| over every turn from this pile (for ``value_scale``)."""
    cmax = C0
    for j in range(pile.shape[0]):
        cmax += max(cpos[j], 0)
    oc = max(abs(cap), abs(C0), abs(cmax))
    got = max(abs(room), abs(C0), abs(cmax))
    return max(abs(bustv) + abs(oppc) * oc,
               abs(card) * (abs(n0) + pile.shape[0]) + abs(oppc) * oc, abs(token) * got)


@njit(cache=True)
def _general_block(out, b, kw, count, pile, tpos, cpos, isn, ist, T0, C0, n0, tab0, bust_at,
                   cbust, card, token, bustv, oppc, cap, room, root_forced, kinds, params,
                   nchild, cchild, decision):
    """Block ``b``'s sums into ``out[b]``, one turn at a time with :func:`_play_turn`."""
    K = kinds.shape[0]
    ncols = out.shape[1]
    R = pile.shape[0]
    used = np.zeros(R + 1, dtype=np.int64)  # stamp of the last turn that drew each position
    acc = np.zeros(ncols, dtype=np.float64)
    if K == 1:  # the common case, with the sums in registers
        nb = 0
        cb = 0
        snt = 0
        snt2 = 0
        stk = 0
        stk2 = 0
        sdr = 0
        sw = 0
        sdr2 = 0
        sw2 = 0
        sv = 0.0
        sv2 = 0.0
        for t in range(count):
            o, nt, tk, v, dr, w = _play_turn(
                kw, t, pile, used, t + 1, R, tpos, cpos, isn, ist, T0, C0, n0,
                tab0, bust_at, cbust, card, token, bustv, oppc, cap, room, root_forced,
                kinds[0], params[0], nchild, cchild, decision)
            nb += o == 2
            cb += o == 3
            snt += nt
            snt2 += nt * nt
            stk += tk
            stk2 += tk * tk
            sdr += dr
            sw += w
            sdr2 += dr * dr
            sw2 += w * w
            sv += v
            sv2 += v * v
        out[b, 0] = nb
        out[b, 1] = cb
        out[b, 2] = snt
        out[b, 3] = snt2
        out[b, 4] = stk
        out[b, 5] = stk2
        out[b, 6] = sv
        out[b, 7] = sv2
        out[b, 8] = sdr
        out[b, 9] = sw
        out[b, 10] = sdr2
        out[b, 11] = sw2
        return
    for t in range(count):
        v0 = 0.0
        for p in range(K):
            o, nt, tk, v, dr, w = _play_turn(
                kw, t, pile, used, t * K + p + 1, R, tpos, cpos, isn, ist, T0, C0, n0,
                tab0, bust_at, cbust, card, token, bustv, oppc, cap, room, root_forced,
                kinds[p], params[p], nchild, cchild, decision)
            base = p * NSTAT
            if o == 2:
                acc[base] += 1.0
            elif o == 3:
                acc[base + 1] += 1.0
            acc[base + 2] += nt
            acc[base + 3] += nt * nt
            acc[base + 4] += tk
            acc[base + 5] += tk * tk
            acc[base + 6] += v
            acc[base + 7] += v * v
            acc[base + 8] += dr
            acc[base + 9] += w
            acc[base + 10] += dr * dr
            acc[base + 11] += w * w
            if p == 0:
                v0 = v
            else:
                dd = v0 - v
                q = K * NSTAT + 2 * (p - 1)
                acc[q] += dd
                acc[q + 1] += dd * dd
    for c in range(ncols):
        out[b, c] = acc[c]


@njit(cache=True, parallel=True)
def turn_blocks(keys, counts, pile, tpos, cpos, isn, ist, T0, C0, n0, tab0, bust_at,
                cbust, card, token, bustv, oppc, cap, room, root_forced, kinds, params,
                nchild, cchild, decision, mode=MODE_FAST):
    """Per-block sums of K policies played on the same turns (common random numbers).

    Columns, for policy p at ``p*NSTAT``: 0 number busts, 1 currency busts, 2 Σ number cards
    taken, 3 Σ its square, 4 Σ tokens taken, 5 Σ its square, 6 Σ value, 7 Σ value², 8 Σ tableau
    cards drawn, 9 Σ wilds drawn, 10 and 11 their squares. Then, at ``K*NSTAT + 2*(p-1)`` for
    p ≥ 1: Σd and Σd² with d = value(policy 0) − value(policy p) on the same turn.

    ``mode``: :data:`MODE_FAST` takes the branch-free pass where it applies (one policy, value
    weights summing exactly, effects that fit the packed words; module doc) and the general
    loop otherwise, :data:`MODE_GENERAL` always the general loop, :data:`MODE_REPLAY_ALL` the
    fast pass with every trial flagged rare and replayed (a test). All give the same sums.
    """
    m = keys.shape[0]
    K = kinds.shape[0]
    ncols = K * NSTAT + 2 * (K - 1)
    out = np.zeros((m, ncols), dtype=np.float64)
    R = pile.shape[0]
    pk = pack_positions(pile, tpos, cpos, isn, ist)
    most = 0
    for b in range(m):
        most = max(most, counts[b])
    scale = value_scale(card, token, bustv, oppc,
                        _value_bound(pile, cpos, C0, n0, card, token, bustv, oppc, cap, room),
                        most)
    fast = (mode != MODE_GENERAL and K == 1 and R > 0 and pk.shape[0] > 0 and scale > 0.0
            and nchild.shape[1] == 9 and cchild.shape[1] == 5)
    child, draws = flat_tables(nchild, cchild, decision)
    thr = np.uint64(1) << np.uint64(32)  # flags every attempt
    if fast and mode != MODE_REPLAY_ALL:
        thr = lemire_threshold(R)
    alive0 = -np.int64((root_forced or _policy_draws(kinds[0], params[0], T0, tab0, 0, 0,
                                                     decision)) and R > 0)
    start = (T0, C0, n0, tab0, bust_at, cbust, root_forced)
    values = (card, token, bustv, oppc, cap, room)
    tables = (nchild, cchild, decision)
    for b in prange(m):
        kw = (keys[b, 0], keys[b, 1], keys[b, 2], keys[b, 3])  # read once per block
        bi = np.int64(b)  # the parallel loop's index is unsigned: one compiled block, not two
        if fast:
            _fast_block(out, bi, kw, counts[b], pile, tpos, cpos, isn, ist, start, values,
                        kinds[0], params[0], tables, pk, child, draws, thr, alive0, scale)
        else:
            _general_block(out, bi, kw, counts[b], pile, tpos, cpos, isn, ist, T0, C0, n0,
                           tab0, bust_at, cbust, card, token, bustv, oppc, cap, room,
                           root_forced, kinds, params, nchild, cchild, decision)
    return out
