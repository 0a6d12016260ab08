"""Go-Stop deal engine, one turn: section 4 of docs/rules/gostop.md and the policies' choices.

Algorithm: a turn is: optional shake; BOMB / SKIP / PLAY (a joker is banked and the top stock card
stands in for it); the flip (jokers banked, flip again); ppuk, ttadak, jjok or an ordinary
resolution; captures to the pile; sweeps; junk steals (giver hands over a single junk, else the
lowest-valued junk); the go/stop check with its strict re-offer rule. State layout: see
``kernels.gostop.state``.

Policies (the seat's row of the state array) decide inside the turn. Greedy plays the hand card
capturing the highest card value (``kernels.gostop.score.card_tables``: bright 6, godori bird 4,
set ribbon 3.5, animal 3, rain ribbon 2.5, junk 1 per unit; a captured stack counts 2 more; laying
the least valuable card when nothing captures), bombs when it can, shakes triples it cannot bomb
now, takes a skip when nothing captures, and stops as soon as eligible. go:k plays like greedy and
says go while it has said fewer than k gos and has at least the stated number of turns left.
table plays like greedy and says go as its go rule table says (``go_by_table``; the table's
layout and features are in ``kernels.gostop.state``). random picks uniformly among the legal hand
actions and says go with probability 1/2.

``scripted_turn`` plays one turn whose choices are given by five script words (tests).
"""
from numba import njit

from kernels.gostop.score import (EVB, NCARD, NEV, NPOL, NVAR, POLB, PVB, RB, R_BOMBK, R_LASTK,
                                  R_TARGET, R_VTAB, TROW, V_BOMBS, V_FIRSTGO, V_GO, V_LASTGO,
                                  V_SHAKEMASK, V_SHAKES, V_SKIP, V_TURNS, best_score)
from kernels.gostop.state import (E_BOMB, E_GO, E_JAPPUK, E_JJOK, E_PPUK, E_SHAKE, E_STACK,
                                  E_STOLEN, E_SWEEP, E_TTADAK, GOSEQ, HAND, HN, HR_BOMB, HR_JAPPUK,
                                  HR_LAID, HR_NONE, HR_PAIR, HR_PAIR2, HR_STACK, LASTTURN, LAY, LN,
                                  MAXH, MCNT, NPL, OP_LE, PEND, PENDN, PK_GO, PK_RANDOM, PK_TABLE,
                                  P_GOK, P_GOTURNS, P_KIND, P_NROWS, P_ROWS, P_SHAKE, SCR, SOWN,
                                  SSIZE, STRN, F_GOS, F_OPP, F_OPPGOS, F_POINTS, F_TURNS, WB, can_bomb,
                                  draw_real, give_junk, hand_months, hand_take, lay_add, lay_take,
                                  months_holding, pend_add, remaining, resolve_card, to_pile)
from kernels.rng import randint
from kernels.widen import plain_types


@plain_types
@njit(cache=True, _nrt=False)
def greedy_card(S, p, hn):
    """Greedy's hand card: (index, key) of the first card with the highest key.

    Key: a joker its value + 5; a card of an empty layout month minus its value (laying the least
    valuable); else its value plus what it takes: the single, the better of two singles, or the
    stack's three cards + 20. Which case a card falls in is unpredictable, so the loop does not
    branch on it: the four keys are written to scratch (``WB + MCNT``) and the one of the month's
    layout count read back (LLVM turns selects on the count into branches). The month's first
    three layout slots always hold valid card numbers (stale ones past the count); a joker's
    month 12-13 reads the words past the layout, whose key the joker's select discards."""
    vt = RB + R_VTAB
    keys = WB + MCNT
    best_key = -(1 << 30)
    arg = -1
    for i in range(hn):
        c = S[HAND + p * MAXH + i]
        m = c >> 2
        v = S[vt + c]
        a = S[vt + S[LAY + 4 * m]]
        b = S[vt + S[LAY + 4 * m + 1]]
        d = S[vt + S[LAY + 4 * m + 2]]
        S[keys] = -v
        S[keys + 1] = v + a
        S[keys + 2] = v + (a if a > b else b)
        S[keys + 3] = v + a + b + d + 20
        key = S[keys + (S[LN + m] & 3)]
        key = v + 5 if c >= NCARD else key
        better = key > best_key
        arg = i if better else arg
        best_key = key if better else best_key
    return arg, best_key


@plain_types
@njit(cache=True, _nrt=False)
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
    # step 0: shake (months of which p holds 3 cards, not shaken yet, in month order)
    triples = months_holding(hand_months(S, p), 3)
    if triples & ~S[PVB + p * NVAR + V_SHAKEMASK] != 0:
        for m in range(12):
            if (triples >> m) & 1 and not ((S[PVB + p * NVAR + V_SHAKEMASK] >> m) & 1):
                do = False
                if scripted:
                    do = S[WB + SCR + 4] == m
                elif kind == PK_RANDOM:
                    do = randint(s, 2) == 1
                elif S[POLB + p * NPOL + P_SHAKE] != 0:
                    do = not can_bomb(S, p, m, triples)
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
            if not can_bomb(S, p, arg, triples):
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
            if can_bomb(S, p, m, triples):
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
                if can_bomb(S, p, m, triples):
                    if k == 0:
                        arg = m
                    k -= 1
        else:
            action = 1
    else:
        bomb_m = -1
        if triples != 0:
            for m in range(12):
                if bomb_m < 0 and can_bomb(S, p, m, triples):
                    bomb_m = m
        if bomb_m >= 0:
            action = 2
            arg = bomb_m
        else:
            arg, best_key = greedy_card(S, p, hn)
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
        elif kind == PK_TABLE:
            go = go_by_table(S, p, sc, gos, rem)
            if S.shape[0] > SSIZE:  # a record block follows the state (record_go)
                record_go(S, p, sc, gos, rem, go)
        elif kind == PK_RANDOM:
            go = randint(s, 2) == 1
        if not go:
            return 1
        apply_go(S, p, sc)
    return 0


@plain_types
@njit(cache=True, _nrt=False)
def table_feature(S, p, f, sc, gos, rem):
    """Feature ``f`` (``F_*`` of ``kernels.gostop.state``) of seat p at its go/stop check."""
    if f == F_GOS:
        return gos
    if f == F_TURNS:
        return rem
    if f == F_POINTS:
        return sc
    if f == F_OPP or f == F_OPPGOS:
        most = 0
        for o in range(S[NPL]):
            if o != p:
                v = best_score(S, o) if f == F_OPP else S[PVB + o * NVAR + V_GO]
                if v > most:
                    most = v
        return most
    return 0


@plain_types
@njit(cache=True, _nrt=False)
def table_holds(S, at, p, sc, gos, rem):
    """Whether the condition (feature, comparison, value) at ``S[at:at + 3]`` holds."""
    x = table_feature(S, p, S[at], sc, gos, rem)
    return x <= S[at + 2] if S[at + 1] == OP_LE else x >= S[at + 2]


@plain_types
@njit(cache=True, _nrt=False)
def go_by_table(S, p, sc, gos, rem):
    """Seat p's go rule table: the first row whose guard holds says go iff its test holds;
    stop when no guard holds."""
    b = POLB + p * NPOL
    for r in range(S[b + P_NROWS]):
        at = b + P_ROWS + r * TROW
        if table_holds(S, at, p, sc, gos, rem):
            return table_holds(S, at + 3, p, sc, gos, rem)
    return False


# The record block of a recording run (kernels/gostop/record.py), past the engine's SSIZE words:
# studied seat, capacity, the current deal's index, the number of records written, then records
# of RW words: deal index, the five features F_GOS … F_OPPGOS, 1 for go / 0 for stop.
R_SEAT, R_CAP, R_GAME, R_N = 0, 1, 2, 3
RHEAD = 4
NREC = F_OPPGOS - F_GOS + 1      # features recorded
RW = NREC + 2                    # deal index, features, choice


@njit(cache=True, _nrt=False)
def record_go(S, p, sc, gos, rem, go):
    """Append seat p's go rule table decision ``go`` to the record block when p is the studied
    seat (records past the capacity are counted but dropped). The engine calls it only when the
    state array is longer than SSIZE, so a plain run reads and writes nothing more."""
    if p == S[SSIZE + R_SEAT]:
        k = S[SSIZE + R_N]
        if k < S[SSIZE + R_CAP]:
            at = SSIZE + RHEAD + k * RW
            S[at] = S[SSIZE + R_GAME]
            for i in range(NREC):
                S[at + 1 + i] = table_feature(S, p, F_GOS + i, sc, gos, rem)
            S[at + 1 + NREC] = 1 if go else 0
        S[SSIZE + R_N] = k + 1


@plain_types
@njit(cache=True, _nrt=False)
def apply_go(S, p, sc):
    if S[PVB + p * NVAR + V_GO] == 0:
        S[PVB + p * NVAR + V_FIRSTGO] = S[GOSEQ]
        S[GOSEQ] += 1
    S[PVB + p * NVAR + V_GO] += 1
    S[PVB + p * NVAR + V_LASTGO] = sc
    S[EVB + p * NEV + E_GO] += 1


@njit(cache=True, _nrt=False)
def scripted_turn(S, s, p, scr, last_turn):
    """One scripted turn on a prepared state (tests and examples); scr = the five script words."""
    S[LASTTURN] = last_turn
    for i in range(5):
        S[WB + SCR + i] = scr[i]
    return play_turn(S, s, p)
