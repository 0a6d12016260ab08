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
"""
import numpy as np
from numba import njit, prange

from kernels.rng import bounded_pair, seed_words
from kernels.ten.exact import DEC_DRAW, KIND_CARDS, KIND_OPTIMAL, KIND_TOTAL, WILD

NSTAT = 12  # per-policy sums, see turn_blocks


@njit(cache=True, inline="always")
def _policy_draws(kind, param, T, tab, na, cb, decision):
    if kind == KIND_TOTAL:
        return T < param
    if kind == KIND_CARDS:
        return tab < param
    return decision[na, cb] == DEC_DRAW


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
    drawn = tab - tab0
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


@njit(cache=True, parallel=True)
def turn_blocks(keys, counts, pile, tpos, cpos, isn, ist, T0, C0, n0, tab0, bust_at,
                cbust, card, token, bustv, oppc, cap, room, root_forced, kinds, params,
                nchild, cchild, decision):
    """Per-block sums of K policies played on the same turns (common random numbers).

    Columns, for policy p at ``p*NSTAT``: 0 number busts, 1 currency busts, 2 Σ number cards
    taken, 3 Σ its square, 4 Σ tokens taken, 5 Σ its square, 6 Σ value, 7 Σ value², 8 Σ tableau
    cards drawn, 9 Σ wilds drawn, 10 and 11 their squares. Then, at ``K*NSTAT + 2*(p-1)`` for
    p ≥ 1: Σd and Σd² with d = value(policy 0) − value(policy p) on the same turn.
    """
    m = keys.shape[0]
    K = kinds.shape[0]
    ncols = K * NSTAT + 2 * (K - 1)
    out = np.zeros((m, ncols), dtype=np.float64)
    R = pile.shape[0]
    for b in prange(m):
        used = np.zeros(R + 1, dtype=np.int64)  # stamp of the last turn that drew each position
        acc = np.zeros(ncols, dtype=np.float64)
        kw = (keys[b, 0], keys[b, 1], keys[b, 2], keys[b, 3])  # read once per block
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
            for t in range(counts[b]):
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
            continue
        for t in range(counts[b]):
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
    return out
