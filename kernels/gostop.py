"""Go-Stop deal engine: the rules page's state machine as Numba kernels.

Model
-----
One deal of Go-Stop (rules page ``shared/rules/go-stop.md``, sections 3-9) between 2 or 3 seats;
seat 0 deals and moves first. The whole state is ONE flat int64 array ``S`` (allocated once per
block; a single array keeps Numba's reference counting out of the hot loop), in blocks:
the rules vector, pile counters, per-seat variables (go count, score at last go, shakes, skip
tokens, turns taken, bombs, first-go stamp), event counts and policy rows (offsets in
``kernels.gostop_score``), then hands, the layout by month (a month holding 3 cards *is* a triple
stack, tagged with its creator and the creator's turn index), the stock and its read position,
capture piles, and scratch (pending captures, counters, the deck buffer, script words).

Algorithm: a Fisher-Yates shuffle of the 48 (+ jokers) cards, the source's dealing order, the
pre-play checks (layout jokers to the dealer, void deal on a layout quad, chongtong, triple stacks),
then turns in seat order. A turn is: optional shake; BOMB / SKIP / PLAY (a joker is banked and the
top stock card stands in for it); the flip (jokers banked, flip again); ppuk, ttadak, jjok or an
ordinary resolution; captures to the pile; sweeps; junk steals (giver hands over a single junk,
else the lowest-valued junk); the go/stop check with its strict re-offer rule. The deal ends at a
stop, or after the last turn (nagari). Payments follow ``kernels.gostop_score.settle``.

Policies are rows of an int64 array: kind (0 greedy, 1 go:k, 2 random), k, the minimum number of
own turns left to say go, shake flag. Greedy plays the hand card capturing the highest card value
(``kernels.gostop_score.card_tables``: bright 6, godori bird 4, set ribbon 3.5, animal 3, rain
ribbon 2.5, junk 1 per unit; a captured stack counts 2 more; laying the least valuable card when
nothing captures), bombs when it can, shakes triples it cannot bomb now,
takes a skip when nothing captures, and stops as soon as eligible. go:k plays like greedy and says
go while it has said fewer than k gos and has at least the stated number of turns left. random
picks uniformly among the legal hand actions and says go with probability 1/2.

Every deal t of block b draws from its own stream (``kernels.rng.seed_trial(keys[b], t)``), so
results do not depend on the thread count and paired runs share random numbers.
"""
import numpy as np
from numba import njit

from kernels.gostop_score import (ENG, EVB, KA, KB, KR, KX, MAXC, MAXP, NCARD, NEV, NO_GO, NPOL,
                                  NRULE, NSTAT, NVAR, POLB, PSB, PVB, R_BAS, R_BOMBK, R_CHONG,
                                  R_HAND, R_JAANY, R_JTAB, R_KTAB, R_LASTK, R_LAYOUT, R_NJ, R_NP,
                                  R_TARGET, R_VTAB, RB, V_BOMBS, V_FIRSTGO, V_GO, V_LASTGO,
                                  V_SHAKEMASK, V_SHAKES, V_SKIP, V_TURNS, best_score, settle,
                                  stats_add)
from kernels.rng import randint, seed_trial

MAXH = 12
HAND = ENG                     # engine block of the state array (after rules, counters, policies)
HN = HAND + MAXP * MAXH
LAY = HN + MAXP
LN = LAY + 48
SOWN = LN + 12
STRN = SOWN + 12
STOCK = STRN + 12
SPOS = STOCK + 64
SLEN = SPOS + 1
PILE = SLEN + 1
PN = PILE + MAXP * MAXC
GOSEQ = PN + MAXP
NPL = GOSEQ + 1
LASTTURN = NPL + 1
WB = LASTTURN + 1              # scratch block
# scratch layout (offsets from WB)
PEND = 0
PENDN = 20
MCNT = 24
SCR = 40
CNT = 48
DECK = CNT + MAXC + 2
WSIZE = DECK + MAXC + 8
SSIZE = WB + WSIZE

# events
E_PPUK, E_SWEEP, E_BOMB, E_SHAKE, E_JJOK, E_TTADAK, E_STACK, E_JAPPUK, E_GO, E_STOLEN = range(10)

# policies
P_KIND, P_GOK, P_GOTURNS, P_SHAKE = 0, 1, 2, 3
PK_GREEDY, PK_GO, PK_RANDOM = 0, 1, 2

# hand results
HR_NONE, HR_LAID, HR_PAIR, HR_PAIR2, HR_STACK, HR_JAPPUK, HR_BOMB = 0, 1, 2, 3, 4, 5, 6

# deal outcomes
OUT_WIN, OUT_NAGARI, OUT_CHONG = 0, 1, 2


@njit(cache=True)
def to_pile(S, p, c):
    n = S[PN + p]
    S[PILE + p * MAXC + n] = c
    S[PN + p] = n + 1
    stats_add(S, p, c, 1)


@njit(cache=True)
def lay_add(S, c):
    m = c >> 2
    n = S[LN + m]
    S[LAY + 4 * m + n] = c
    S[LN + m] = n + 1


@njit(cache=True)
def lay_take(S, m, i):
    n = S[LN + m]
    c = S[LAY + 4 * m + i]
    S[LAY + 4 * m + i] = S[LAY + 4 * m + n - 1]
    S[LN + m] = n - 1
    return c


@njit(cache=True)
def hand_take(S, p, i):
    base = HAND + p * MAXH
    n = S[HN + p]
    c = S[base + i]
    S[base + i] = S[base + n - 1]
    S[HN + p] = n - 1
    return c


@njit(cache=True)
def pend_add(S, c):
    S[WB + PEND + S[WB + PENDN]] = c
    S[WB + PENDN] += 1


@njit(cache=True)
def draw(S):
    pos = S[SPOS]
    if pos >= S[SLEN]:
        return -1
    S[SPOS] = pos + 1
    return S[STOCK + pos]


@njit(cache=True)
def draw_real(S, p):
    """Flip until a non-joker appears; jokers go to p's pile. -1 if the stock runs out."""
    f = draw(S)
    while f >= NCARD:
        to_pile(S, p, f)
        f = draw(S)
    return f


@njit(cache=True)
def remaining(S, p):
    return S[HN + p] + S[PVB + p * NVAR + V_SKIP]


@njit(cache=True)
def pick_single(S, m, kind, s):
    """Which of two layout singles of month m to take (index 0 or 1)."""
    if kind == PK_RANDOM:
        return randint(s, 2)
    a = S[RB + R_VTAB + S[LAY + 4 * m]]
    b = S[RB + R_VTAB + S[LAY + 4 * m + 1]]
    return 1 if b > a else 0


@njit(cache=True)
def resolve_card(S, p, c, kind, s, choice):
    """Resolve a hand card or a flip c against the layout; captures go to pending.

    Returns HR_LAID, HR_PAIR (one single taken), HR_PAIR2 (one of two taken, the other left),
    HR_STACK or HR_JAPPUK (triple stack captured).
    """
    m = c >> 2
    n = S[LN + m]
    if n == 0:
        lay_add(S, c)
        return HR_LAID
    if n == 1:
        pend_add(S, c)
        pend_add(S, lay_take(S, m, 0))
        return HR_PAIR
    if n == 2:
        i = -1
        if choice >= 0:
            if S[LAY + 4 * m] == choice:
                i = 0
            elif S[LAY + 4 * m + 1] == choice:
                i = 1
        if i < 0:
            i = pick_single(S, m, kind, s)
        pend_add(S, c)
        pend_add(S, lay_take(S, m, i))
        return HR_PAIR2
    owner = S[SOWN + m]
    ja = owner == p and (S[RB + R_JAANY] != 0 or S[STRN + m] == S[PVB + p * NVAR + V_TURNS] - 1)
    pend_add(S, c)
    for _ in range(3):
        pend_add(S, lay_take(S, m, 0))
    S[SOWN + m] = -1
    return HR_JAPPUK if ja else HR_STACK


@njit(cache=True)
def month_counts(S, p):
    for m in range(12):
        S[WB + MCNT + m] = 0
    base = HAND + p * MAXH
    for i in range(S[HN + p]):
        c = S[base + i]
        if c < NCARD:
            S[WB + MCNT + (c >> 2)] += 1


@njit(cache=True)
def can_bomb(S, p, m):
    if S[WB + MCNT + m] != 3 or S[LN + m] != 1:
        return False
    if (S[PVB + p * NVAR + V_SHAKEMASK] >> m) & 1 and S[RB + R_BAS] == 0:
        return False
    return True


@njit(cache=True)
def give_junk(S, o, p):
    """Opponent o hands one junk card to p: a single junk if any, else the lowest-valued."""
    base = PILE + o * MAXC
    best = -1
    rank_best = 1 << 20
    for i in range(S[PN + o]):
        c = S[base + i]
        k = S[RB + R_KTAB + c]
        if k == KX:
            r = 2 * S[RB + R_JTAB + c] + 1
        elif c < NCARD and k != KB and k != KA and k != KR:
            r = 2 * S[RB + R_JTAB + c]
        else:
            continue
        if r < rank_best:
            rank_best = r
            best = i
    if best < 0:
        return 0
    n = S[PN + o]
    c = S[base + best]
    S[base + best] = S[base + n - 1]
    S[PN + o] = n - 1
    stats_add(S, o, c, -1)
    to_pile(S, p, c)
    return 1


@njit(cache=True)
def play_turn(S, s, p):
    """One turn of seat p (rules section 4). Returns 1 if p stops, 0 to continue, < 0 on error.

    Five script words at ``S[WB + SCR:]`` script the turn when the first is >= 0: action (0 play
    the card in word 1, 1 skip, 2 bomb the month in word 1), card or month, single chosen (or -1),
    go decision (-1 policy, 0 stop, 1 go), month to shake (or -1). With word 0 = -1 the seat's
    policy row decides everything.
    """
    kind = S[POLB + p * NPOL + P_KIND]
    scripted = S[WB + SCR + 0] >= 0
    nplayers = S[NPL]
    S[WB + PENDN] = 0
    steals = 0
    last_k = S[RB + R_LASTK] != 0 and S[LASTTURN] != 0
    # step 0: shake
    month_counts(S, p)
    for m in range(12):
        if S[WB + MCNT + m] == 3 and not ((S[PVB + p * NVAR + V_SHAKEMASK] >> m) & 1):
            do = False
            if scripted:
                do = S[WB + SCR + 4] == m
            elif kind == PK_RANDOM:
                do = randint(s, 2) == 1
            elif S[POLB + p * NPOL + P_SHAKE] != 0:
                do = not can_bomb(S, p, m)
            if do:
                S[PVB + p * NVAR + V_SHAKEMASK] |= 1 << m
                S[PVB + p * NVAR + V_SHAKES] += 1
                S[EVB + p * NEV + E_SHAKE] += 1
    # step 1: hand phase
    hn = S[HN + p]
    skip = S[PVB + p * NVAR + V_SKIP]
    action = 0
    arg = -1
    choice = -1
    if scripted:
        action = S[WB + SCR + 0]
        choice = S[WB + SCR + 2]
        if action == 0:
            for i in range(hn):
                if S[HAND + p * MAXH + i] == S[WB + SCR + 1]:
                    arg = i
            if arg < 0:
                return -3
        elif action == 2:
            arg = S[WB + SCR + 1]
            if not can_bomb(S, p, arg):
                return -3
        elif skip <= 0:
            return -3
    elif hn == 0:
        if skip <= 0:
            return -2
        action = 1
    elif kind == PK_RANDOM:
        nb = 0
        for m in range(12):
            if can_bomb(S, p, m):
                nb += 1
        nopt = hn + nb + (1 if skip > 0 else 0)
        r = randint(s, nopt)
        if r < hn:
            action = 0
            arg = r
        elif r < hn + nb:
            action = 2
            k = r - hn
            for m in range(12):
                if can_bomb(S, p, m):
                    if k == 0:
                        arg = m
                    k -= 1
        else:
            action = 1
    else:
        bomb_m = -1
        for m in range(12):
            if bomb_m < 0 and can_bomb(S, p, m):
                bomb_m = m
        if bomb_m >= 0:
            action = 2
            arg = bomb_m
        else:
            best_key = -(1 << 30)
            for i in range(hn):
                c = S[HAND + p * MAXH + i]
                if c >= NCARD:
                    key = S[RB + R_VTAB + c] + 5
                else:
                    m = c >> 2
                    n = S[LN + m]
                    if n == 0:
                        key = -S[RB + R_VTAB + c]
                    elif n == 1:
                        key = S[RB + R_VTAB + c] + S[RB + R_VTAB + S[LAY + 4 * m]]
                    elif n == 2:
                        a = S[RB + R_VTAB + S[LAY + 4 * m]]
                        b = S[RB + R_VTAB + S[LAY + 4 * m + 1]]
                        key = S[RB + R_VTAB + c] + (a if a > b else b)
                    else:
                        key = S[RB + R_VTAB + c] + S[RB + R_VTAB + S[LAY + 4 * m]] + \
                            S[RB + R_VTAB + S[LAY + 4 * m + 1]] + \
                            S[RB + R_VTAB + S[LAY + 4 * m + 2]] + 20
                if key > best_key:
                    best_key = key
                    arg = i
            action = 0
            if skip > 0 and best_key <= 0:
                action = 1
    hr = HR_NONE
    hm = -1
    if action == 1:
        S[PVB + p * NVAR + V_SKIP] -= 1
    elif action == 2:
        hm = arg
        i = 0
        while i < S[HN + p]:
            c = S[HAND + p * MAXH + i]
            if c < NCARD and (c >> 2) == hm:
                pend_add(S, hand_take(S, p, i))
            else:
                i += 1
        pend_add(S, lay_take(S, hm, 0))
        S[PVB + p * NVAR + V_SKIP] += 2
        S[PVB + p * NVAR + V_BOMBS] += 1
        S[EVB + p * NEV + E_BOMB] += 1
        if S[RB + R_BOMBK] != 0:
            steals += 1
        hr = HR_BOMB
    else:
        c = hand_take(S, p, arg)
        if c >= NCARD:
            to_pile(S, p, c)
            c = draw_real(S, p)
            if c < 0:
                return -1
        hm = c >> 2
        hr = resolve_card(S, p, c, kind, s, choice)
        if hr == HR_STACK or hr == HR_JAPPUK:
            if hr == HR_JAPPUK:
                S[EVB + p * NEV + E_JAPPUK] += 1
                if not last_k:
                    steals += 2
            else:
                S[EVB + p * NEV + E_STACK] += 1
                if not last_k:
                    steals += 1
    # step 2: flip
    f = draw_real(S, p)
    if f < 0:
        return -1
    n = f >> 2
    if hr == HR_PAIR and n == hm:
        # ppuk: the pending pair and the flip become a triple stack created by p
        lay_add(S, S[WB + PEND])
        lay_add(S, S[WB + PEND + 1])
        lay_add(S, f)
        S[WB + PENDN] = 0
        S[SOWN + hm] = p
        S[STRN + hm] = S[PVB + p * NVAR + V_TURNS]
        S[EVB + p * NEV + E_PPUK] += 1
    elif hr == HR_PAIR2 and n == hm:
        pend_add(S, f)
        pend_add(S, lay_take(S, hm, 0))
        S[EVB + p * NEV + E_TTADAK] += 1
        if not last_k:
            steals += 1
    elif hr == HR_LAID and n == hm:
        pend_add(S, f)
        pend_add(S, lay_take(S, hm, 0))
        S[EVB + p * NEV + E_JJOK] += 1
        steals += 1
    else:
        r2 = resolve_card(S, p, f, kind, s, -1)
        if r2 == HR_JAPPUK:
            S[EVB + p * NEV + E_JAPPUK] += 1
            if not last_k:
                steals += 2
        elif r2 == HR_STACK:
            S[EVB + p * NEV + E_STACK] += 1
            if not last_k:
                steals += 1
    # step 3: captures, sweep, steals
    captured = S[WB + PENDN]
    for i in range(captured):
        to_pile(S, p, S[WB + PEND + i])
    S[WB + PENDN] = 0
    if captured > 0:
        left = 0
        for m in range(12):
            left += S[LN + m]
        if left == 0:
            S[EVB + p * NEV + E_SWEEP] += 1
            if not last_k:
                steals += 1
    if steals > 0:
        for o in range(nplayers):
            if o != p:
                for _ in range(steals):
                    S[EVB + p * NEV + E_STOLEN] += give_junk(S, o, p)
    S[PVB + p * NVAR + V_TURNS] += 1
    # step 4: go / stop
    sc = best_score(S, p)
    gos = S[PVB + p * NVAR + V_GO]
    if sc >= S[RB + R_TARGET] and (gos == 0 or sc > S[PVB + p * NVAR + V_LASTGO]):
        if remaining(S, p) == 0:
            return 1
        go = False
        rem = remaining(S, p)
        if scripted and S[WB + SCR + 3] >= 0:
            go = S[WB + SCR + 3] == 1
        elif kind == PK_GO:
            go = gos < S[POLB + p * NPOL + P_GOK] and rem >= S[POLB + p * NPOL + P_GOTURNS]
        elif kind == PK_RANDOM:
            go = randint(s, 2) == 1
        if not go:
            return 1
        apply_go(S, p, sc)
    return 0


@njit(cache=True)
def apply_go(S, p, sc):
    if S[PVB + p * NVAR + V_GO] == 0:
        S[PVB + p * NVAR + V_FIRSTGO] = S[GOSEQ]
        S[GOSEQ] += 1
    S[PVB + p * NVAR + V_GO] += 1
    S[PVB + p * NVAR + V_LASTGO] = sc
    S[EVB + p * NEV + E_GO] += 1


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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
        month_counts(S, p)
        for m in range(12):
            if S[WB + MCNT + m] == 4:
                holders += 1
                holder = p
                break
    if holders >= 2:
        return 1
    if holders == 1:
        return 10 + holder
    return 0


@njit(cache=True)
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


@njit(cache=True)
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


def new_state(R, pol):
    """A state array holding the rules vector and the policy rows (engine block empty)."""
    S = np.zeros(SSIZE, np.int64)
    S[RB:RB + NRULE] = R
    S[POLB:POLB + MAXP * NPOL] = np.asarray(pol, np.int64).reshape(-1)[:MAXP * NPOL]
    return S


def views(S):
    """Numpy views of the seat blocks of a state array: (PS, PV, EV), seat x column."""
    return (S[PSB:PSB + MAXP * NSTAT].reshape(MAXP, NSTAT),
            S[PVB:PVB + MAXP * NVAR].reshape(MAXP, NVAR),
            S[EVB:EVB + MAXP * NEV].reshape(MAXP, NEV))


@njit(cache=True)
def debug_deal(key, t, nagari_prev, S, s, net):
    """One deal with invariant checks after every turn, leaving the final state in S.
    Returns (outcome, winner, voids, error code)."""
    seed_trial(key, t, s)
    return play_deal(S, s, net, nagari_prev, True)


@njit(cache=True)
def scripted_turn(S, s, p, scr, last_turn):
    """One scripted turn on a prepared state (tests and examples); scr = the five script words."""
    S[LASTTURN] = last_turn
    for i in range(5):
        S[WB + SCR + i] = scr[i]
    return play_turn(S, s, p)
