"""Go-Stop deal engine, one deal: shuffle, dealing, pre-play checks, the turn loop, settlement.

Algorithm: a Fisher-Yates shuffle of the 48 (+ jokers) cards, the source's dealing order, the
pre-play checks (layout jokers to the dealer, void deal on a layout quad, chongtong, triple stacks),
then turns in seat order (``kernels.gostop.turn.play_turn``). The deal ends at a stop, or after the
last turn (nagari). Payments follow ``kernels.gostop.score.settle``. ``check_state`` is the
conservation check (every card exactly once; pile counters match the piles), run after every turn
when ``check`` is on.

Every deal t of block b draws from its own stream (``kernels.rng.seed_trial(keys[b], t)``), so
results do not depend on the thread count and paired runs share random numbers.
"""
from numba import njit

from kernels.gostop.score import (ENG, MAXC, MAXP, NCARD, NO_GO, NSTAT, NVAR, POLB, PSB, PVB, RB,
                                  R_CHONG, R_HAND, R_LAYOUT, R_NJ, R_NP, V_FIRSTGO, V_TURNS,
                                  settle, stats_add)
from kernels.gostop.state import (CNT, DECK, HAND, HN, LASTTURN, LAY, LN, MAXH, NPL,
                                  OUT_CHONG, OUT_NAGARI, OUT_WIN, PILE, PN, SCR, SLEN, SOWN, SPOS,
                                  SSIZE, STOCK, WB, draw, hand_months, lay_add, months_holding,
                                  remaining, to_pile)
from kernels.gostop.turn import play_turn
from kernels.rng import randint, seed_trial


@njit(cache=True, _nrt=False)
def check_state(S, full=True):
    """Invariant checks: every card exactly once across hands, layout, stock and piles (at most
    once when ``full`` is False, for partial scripted positions); layout months hold only their own
    cards, at most 3; pile counters match the piles. 0 if all hold."""
    ntot = NCARD + S[RB + R_NJ]
    for c in range(ntot):
        S[WB + CNT + c] = 0
    for p in range(S[NPL]):
        for i in range(S[HN + p]):
            S[WB + CNT + S[HAND + p * MAXH + i]] += 1
        for i in range(S[PN + p]):
            S[WB + CNT + S[PILE + p * MAXC + i]] += 1
    for m in range(12):
        if S[LN + m] > 3:
            return 2
        for i in range(S[LN + m]):
            c = S[LAY + 4 * m + i]
            if c >= NCARD or (c >> 2) != m:
                return 3
            S[WB + CNT + c] += 1
    for i in range(S[SPOS], S[SLEN]):
        S[WB + CNT + S[STOCK + i]] += 1
    for c in range(ntot):
        if S[WB + CNT + c] > 1 or (full and S[WB + CNT + c] != 1):
            return 1
    for p in range(S[NPL]):
        for k in range(NSTAT):
            S[PSB + MAXP * NSTAT + k] = 0
        for i in range(S[PN + p]):
            stats_add(S, MAXP, S[PILE + p * MAXC + i], 1)
        for k in range(NSTAT):
            if S[PSB + MAXP * NSTAT + k] != S[PSB + p * NSTAT + k]:
                return 4
    return 0


@njit(cache=True, _nrt=False)
def clear(S, nplayers):
    for i in range(PSB, POLB):
        S[i] = 0
    for i in range(ENG, SSIZE):
        S[i] = 0
    for m in range(12):
        S[SOWN + m] = -1
    for p in range(MAXP):
        S[PVB + p * NVAR + V_FIRSTGO] = NO_GO
    S[NPL] = nplayers


@njit(cache=True, _nrt=False)
def deal(S, s):
    """Shuffle and deal (rules section 3) and run the pre-play checks.

    Returns 0 ready to play, 1 void deal (layout quad or several chongtong holders), 10 + seat for
    a single chongtong holder.
    """
    nplayers = S[RB + R_NP]
    clear(S, nplayers)
    ntot = NCARD + S[RB + R_NJ]
    for i in range(ntot):
        S[WB + DECK + i] = i
    for i in range(ntot - 1, 0, -1):
        j = randint(s, i + 1)
        tmp = S[WB + DECK + i]
        S[WB + DECK + i] = S[WB + DECK + j]
        S[WB + DECK + j] = tmp
    H = S[RB + R_HAND]
    L = S[RB + R_LAYOUT]
    first_h = (H + 1) // 2
    first_l = L // 2
    pos = 0
    nlay = 0
    for rnd in range(2):
        hchunk = first_h if rnd == 0 else H - first_h
        lchunk = first_l if rnd == 0 else L - first_l
        for k in range(nplayers):
            p = (k + 1) % nplayers
            for _ in range(hchunk):
                S[HAND + p * MAXH + S[HN + p]] = S[WB + DECK + pos]
                S[HN + p] += 1
                pos += 1
        for _ in range(lchunk):
            S[WB + CNT + nlay] = S[WB + DECK + pos]
            nlay += 1
            pos += 1
    k = 0
    for i in range(pos, ntot):
        S[STOCK + k] = S[WB + DECK + i]
        k += 1
    S[SLEN] = k
    S[SPOS] = 0
    for i in range(nlay):
        c = S[WB + CNT + i]
        while c >= NCARD:
            to_pile(S, 0, c)
            c = draw(S)
        lay_add(S, c)
    for m in range(12):
        if S[LN + m] == 4:
            return 1
    holders = 0
    holder = -1
    for p in range(nplayers):
        if months_holding(hand_months(S, p), 4) != 0:
            holders += 1
            holder = p
    if holders >= 2:
        return 1
    if holders == 1:
        return 10 + holder
    return 0


@njit(cache=True, _nrt=False)
def run_from(S, s, start, check):
    """Play turns from seat ``start`` to the end of the deal. Returns the stopping seat, -1 for
    nagari, or -100 - code on an invariant violation / engine error (only with check)."""
    nplayers = S[NPL]
    for i in range(5):
        S[WB + SCR + i] = -1
    p = start
    while True:
        if remaining(S, p) == 0:
            if check:
                for q in range(nplayers):
                    if remaining(S, q) != 0 or \
                            S[PVB + q * NVAR + V_TURNS] != S[PVB + V_TURNS]:
                        return -110
                if S[SPOS] != S[SLEN]:
                    for i in range(S[SPOS], S[SLEN]):
                        if S[STOCK + i] < NCARD:
                            return -111
            return -1
        # is this the final turn of the deal? (p is the last seat with one turn left)
        last = remaining(S, p) == 1
        if last:
            for q in range(nplayers):
                if q != p and remaining(S, q) != 0:
                    last = False
        S[LASTTURN] = 1 if last else 0
        r = play_turn(S, s, p)
        if r < 0:
            return -150 + r
        if check:
            e = check_state(S)
            if e != 0:
                return -100 - e
        if r == 1:
            return p
        p = (p + 1) % nplayers


@njit(cache=True, _nrt=False)
def play_deal(S, s, net, nagari_prev, check):
    """A whole deal (redealing void deals). Returns (outcome, winner, voids, error)."""
    nplayers = S[RB + R_NP]
    for q in range(net.shape[0]):
        net[q] = 0
    voids = 0
    while True:
        r = deal(S, s)
        if r != 1:
            break
        voids += 1
        if voids > 10000:
            return OUT_NAGARI, -1, voids, -1
    if check:
        e = check_state(S)
        if e != 0:
            return OUT_NAGARI, -1, voids, e
    if r >= 10:
        h = r - 10
        for q in range(nplayers):
            if q != h:
                net[q] -= S[RB + R_CHONG]
                net[h] += S[RB + R_CHONG]
        return OUT_CHONG, h, voids, 0
    w = run_from(S, s, 0, check)
    if w <= -100:
        return OUT_NAGARI, -1, voids, w
    if w < 0:
        return OUT_NAGARI, -1, voids, 0
    settle(S, w, nplayers, nagari_prev, net)
    return OUT_WIN, w, voids, 0


@njit(cache=True, _nrt=False)
def debug_deal(key, t, nagari_prev, S, s, net):
    """One deal with invariant checks after every turn, leaving the final state in S.
    Returns (outcome, winner, voids, error code)."""
    seed_trial(key, t, s)
    return play_deal(S, s, net, nagari_prev, True)
