"""Railroad Canasta kernels: melding (first meld, the meld phase, going out).

Model
-----
Cards are *types* (suits never matter except red/black threes): 0 joker, 1 two, 2 red three,
3 black three, 4..14 the natural ranks 4, 5, 6, 7, 8, 9, 10, J, Q, K, A (type = rank number).
A hand, a kitty or the discard pile is a vector of 15 counts. Every player has one *meld slot*
per natural rank plus slot 0 for the wild meld; ``un[p, r]`` holds (naturals, jokers, twos) of
that unfinished meld. When a slot reaches 7 cards it is closed, classified (red / black / wild /
sevens) and emptied, so a new meld of that rank may start. Per-player scalars live in ``pl``
(columns ``C_*``), the table state in ``g`` (``G_*``), rules in ``rp`` (``R_*``) and policies in
``pol`` (``P_*``).

Algorithms here: the best first melding action (``plan_initial``), the normal meld phase of the
policies (``meld_phase``, which always keeps a legal discard in hand) and the going-out planner
(``meld_all`` / ``go_out_card``: can every card but one be melded legally this turn?). ``put``
moves cards into a meld and counts any broken meld rule as a violation (property tests).
The card types and the state layout are in ``kernels/canasta/layout.py``; the turn flow
is in ``kernels/canasta/engine.py``. Like the turn flow, these run without reference counting
(``_nrt=False``, see engine.py), except ``completes_four_types``, which copies the state.
"""
import numpy as np
from numba import njit

from kernels.canasta.layout import (
    BLACK3, CT_BLACK, CT_RED, CT_SEVENS, CT_WILD, C_MELDED, C_MVAL, JOKER, NT, NV, P_BLACKNAT,
    P_WILDMIN, R_MAXW, R_W7, SEVEN, TWO, VAL, V_MELD)
from kernels.widen import plain_types


@njit(cache=True, inline="always")
def wild_ok(r, rp):
    """May wild cards join meld slot ``r``?"""
    return r != SEVEN or rp[R_W7] == 1


@njit(cache=True, _nrt=False)
def hand_size(hand, p):
    n = 0
    for c in range(NT):
        n += hand[p, c]
    return n


@njit(cache=True, _nrt=False)
def sevens_free(can, nplayers):
    """True once every player owns a sevens canasta (sevens may then be discarded)."""
    for q in range(nplayers):
        if can[q, CT_SEVENS] == 0:
            return False
    return True


@njit(cache=True, _nrt=False)
def discardable(hand, p, free7):
    n = hand_size(hand, p)
    if not free7:
        n -= hand[p, SEVEN]
    return n


@plain_types
@njit(cache=True, _nrt=False)
def put(p, r, nat, jk, two, hand, un, can, pl, mcnt, rp, viol):
    """Move cards from hand into meld slot ``r``; close and classify at 7. Returns 1 if closed.

    Checks the meld rules after the move and counts a violation if they are broken.
    """
    if nat > 0:
        hand[p, r] -= nat
        mcnt[p, r] += nat
        pl[p, C_MVAL] += nat * VAL[r]
    if jk > 0:
        hand[p, JOKER] -= jk
        mcnt[p, JOKER] += jk
        pl[p, C_MVAL] += jk * VAL[JOKER]
    if two > 0:
        hand[p, TWO] -= two
        mcnt[p, TWO] += two
        pl[p, C_MVAL] += two * VAL[TWO]
    un[p, r, 0] += nat
    un[p, r, 1] += jk
    un[p, r, 2] += two
    n = un[p, r, 0]
    w = un[p, r, 1] + un[p, r, 2]
    size = n + w
    if hand[p, r] < 0 or hand[p, JOKER] < 0 or hand[p, TWO] < 0 or size < 3 or size > 7:
        viol[V_MELD] += 1
    if r == 0:
        if n != 0:
            viol[V_MELD] += 1
    else:
        if n < 2 or w > rp[R_MAXW] or (w > 0 and not wild_ok(r, rp)):
            viol[V_MELD] += 1
    if pl[p, C_MELDED] == 0:
        pl[p, C_MELDED] = 1
    if size == 7:
        if r == 0:
            ct = CT_WILD
        elif w == 0:
            ct = CT_SEVENS if r == SEVEN else CT_RED
        else:
            ct = CT_BLACK
        can[p, ct] += 1
        un[p, r, 0] = 0
        un[p, r, 1] = 0
        un[p, r, 2] = 0
        return 1
    return 0


@njit(cache=True, _nrt=False)
def plan_initial(h, req, rp, out):
    """Best first melding action from the counts ``h``: fills ``out[slot] = (nat, jk, two)``.

    Stage 0 lays every natural rank held 3+ times (at most 7); if that meets ``req`` it stops
    (wilds are kept). Stage A adds one wild meld of all wild cards when that suffices. Stage B
    gives one wild to each natural pair (highest value first, jokers first), spreads the other
    wilds over the natural melds (at most ``max_wilds`` each), or makes them a wild meld.
    Returns the value laid, or -1 when even stage B stays below ``req``. Stage B reaches the
    maximum value any first action can have (see ``max_initial_value`` in analyzer.games).
    """
    for i in range(NT):
        out[i, 0] = 0
        out[i, 1] = 0
        out[i, 2] = 0
    maxw = rp[R_MAXW]
    t = 0
    for r in range(4, NT):
        if h[r] >= 3:
            k = min(h[r], 7)
            out[r, 0] = k
            t += k * VAL[r]
    if t >= req:
        return t
    jk = h[JOKER]
    tw = h[TWO]
    w = jk + tw
    wval = jk * VAL[JOKER] + tw * VAL[TWO]
    if w >= 3 and w <= 7 and t + wval >= req:
        out[0, 1] = jk
        out[0, 2] = tw
        return t + wval
    # stage B
    v = t
    for r in range(NT - 1, 3, -1):
        if jk + tw == 0:
            break
        if h[r] == 2 and wild_ok(r, rp) and maxw >= 1:
            out[r, 0] = 2
            v += 2 * VAL[r]
            if jk > 0:
                out[r, 1] = 1
                jk -= 1
                v += VAL[JOKER]
            else:
                out[r, 2] = 1
                tw -= 1
                v += VAL[TWO]
    if jk + tw >= 3:
        a = min(jk, 7)
        b = min(tw, 7 - a)
        out[0, 1] = a
        out[0, 2] = b
        jk -= a
        tw -= b
        v += a * VAL[JOKER] + b * VAL[TWO]
    for r in range(4, NT):
        if jk + tw == 0:
            break
        if out[r, 0] > 0 and out[r, 0] < 7 and wild_ok(r, rp):
            room = min(maxw - out[r, 1] - out[r, 2], 7 - out[r, 0] - out[r, 1] - out[r, 2])
            while room > 0 and jk > 0:
                out[r, 1] += 1
                jk -= 1
                room -= 1
                v += VAL[JOKER]
            while room > 0 and tw > 0:
                out[r, 2] += 1
                tw -= 1
                room -= 1
                v += VAL[TWO]
    if jk + tw >= 3 and out[0, 1] + out[0, 2] == 0:
        a = min(jk, 7)
        b = min(tw, 7 - a)
        out[0, 1] = a
        out[0, 2] = b
        v += a * VAL[JOKER] + b * VAL[TWO]
    if v >= req:
        return v
    return -1


@njit(cache=True, _nrt=False)
def plan_cards(out):
    n = 0
    for i in range(NT):
        n += out[i, 0] + out[i, 1] + out[i, 2]
    return n


@njit(cache=True, _nrt=False)
def plan_sevens(out):
    return out[SEVEN, 0]


@njit(cache=True, _nrt=False)
def apply_plan(p, out, hand, un, can, pl, mcnt, rp, viol):
    for r in range(NT):
        if out[r, 0] + out[r, 1] + out[r, 2] > 0:
            put(p, r, out[r, 0], out[r, 1], out[r, 2], hand, un, can, pl, mcnt, rp, viol)


@njit(cache=True, inline="always")
def _lowest_bit_index(bits):
    """Index of the lowest set bit of a nonzero int64."""
    i = 0
    while (bits >> i) & 1 == 0:
        i += 1
    return i


@njit(cache=True, _nrt=False)
def meld_phase(p, hand, un, can, pl, mcnt, rp, pol, viol, free7):
    """Normal melding after the initial meld: naturals, wild meld, black completions.

    Every action keeps at least two cards in hand, one of them a legal discard.

    Naturals are tried only on the ranks that can meld at all: held, and either joining an
    unfinished meld or held three times or more (any other rank gives ``a < 3`` whatever the
    limits). A meld of one rank changes no other rank's count or meld, so that set is formed
    first, without branches, and its ranks are visited in increasing order as before; scanning
    every rank with an unpredictable "held?" test was a third of this function's time.
    """
    may = 0
    for r in range(4, NT):
        c = hand[p, r]
        size = un[p, r, 0] + un[p, r, 1] + un[p, r, 2]
        may |= ((c > 0) & ((size > 0) | (c >= 3))) << r
    while may != 0:
        r = _lowest_bit_index(may)
        may &= may - 1
        while hand[p, r] > 0:
            c = hand[p, r]
            size = un[p, r, 0] + un[p, r, 1] + un[p, r, 2]
            hs = hand_size(hand, p)
            lim = hs - 2
            if r != SEVEN or free7:
                lim = min(lim, discardable(hand, p, free7) - 1)
            if size > 0:
                a = min(c, 7 - size, lim)
                if a <= 0:
                    break
                put(p, r, a, 0, 0, hand, un, can, pl, mcnt, rp, viol)
            else:
                a = min(c, 7, lim)
                if a < 3:
                    break
                put(p, r, a, 0, 0, hand, un, can, pl, mcnt, rp, viol)
    # wild meld
    w = hand[p, JOKER] + hand[p, TWO]
    if w > 0:
        size = un[p, 0, 1] + un[p, 0, 2]
        lim = min(hand_size(hand, p) - 2, discardable(hand, p, free7) - 1)
        if size > 0 or w >= pol[p, P_WILDMIN]:
            room = 7 - size
            a = min(w, room, lim)
            if size > 0 or a >= 3:
                if a > 0:
                    jk = min(hand[p, JOKER], a)
                    put(p, 0, 0, jk, a - jk, hand, un, can, pl, mcnt, rp, viol)
    # black canasta completions
    for r in range(4, NT):
        w = hand[p, JOKER] + hand[p, TWO]
        if w == 0:
            break
        n = un[p, r, 0]
        if n == 0 or not wild_ok(r, rp) or n < pol[p, P_BLACKNAT]:
            continue
        wi = un[p, r, 1] + un[p, r, 2]
        need = 7 - n - wi
        lim = min(hand_size(hand, p) - 2, discardable(hand, p, free7) - 1)
        if need <= w and wi + need <= rp[R_MAXW] and need <= lim:
            tw = min(hand[p, TWO], need)
            put(p, r, 0, need - tw, tw, hand, un, can, pl, mcnt, rp, viol)


@plain_types
@njit(cache=True, _nrt=False)
def meld_all(p, h, hand, un, can, pl, mcnt, rp, viol, apply):
    """Can every card of ``h`` be melded onto player ``p``'s melds (legally, in one turn)?

    Naturals fill their unfinished meld, then start new melds of 3..7; a pair takes one wild;
    wilds go to pairs, the wild meld (new only with 3+), then spare room in mixed melds; black
    threes meld together (3+, going out only). With ``apply`` the melds are made from ``hand``
    (``h`` must equal the hand row then). Returns True when nothing is left over.
    """
    maxw = rp[R_MAXW]
    need_w = 0
    room_w = 0
    for r in range(4, NT):
        c = h[r]
        n = un[p, r, 0]
        wi = un[p, r, 1] + un[p, r, 2]
        size = n + wi
        if size > 0:
            a = min(c, 7 - size)
            c -= a
            size += a
            if size == 7:
                size = 0
            elif wild_ok(r, rp):
                room_w += min(maxw - wi, 7 - size)
        while c >= 3:
            m = min(c, 7)
            c -= m
            if m < 7 and wild_ok(r, rp):
                room_w += min(maxw, 7 - m)
        if c == 1:
            return False
        if c == 2:
            if not wild_ok(r, rp) or maxw < 1:
                return False
            need_w += 1
            room_w += min(maxw - 1, 4)
    b3 = h[BLACK3]
    if b3 == 1 or b3 == 2:
        return False
    w = h[JOKER] + h[TWO] - need_w
    if w < 0:
        return False
    sw = un[p, 0, 1] + un[p, 0, 2]
    if w > 0 and sw > 0:
        a = min(w, 7 - sw)
        w -= a
    while w >= 3:
        w -= min(w, 7)
    if w > room_w:
        return False
    if not apply:
        return True
    # apply, in the same order
    for r in range(4, NT):
        c = hand[p, r]
        if c == 0:
            continue
        size = un[p, r, 0] + un[p, r, 1] + un[p, r, 2]
        if size > 0:
            a = min(c, 7 - size)
            put(p, r, a, 0, 0, hand, un, can, pl, mcnt, rp, viol)
            c -= a
        while c >= 3:
            m = min(c, 7)
            put(p, r, m, 0, 0, hand, un, can, pl, mcnt, rp, viol)
            c -= m
        if c == 2:
            if hand[p, TWO] > 0:
                put(p, r, 2, 0, 1, hand, un, can, pl, mcnt, rp, viol)
            else:
                put(p, r, 2, 1, 0, hand, un, can, pl, mcnt, rp, viol)
    if hand[p, BLACK3] >= 3:
        k = hand[p, BLACK3]
        hand[p, BLACK3] = 0
        mcnt[p, BLACK3] += k
        pl[p, C_MVAL] += k * VAL[BLACK3]
    w = hand[p, JOKER] + hand[p, TWO]
    sw = un[p, 0, 1] + un[p, 0, 2]
    if w > 0 and sw > 0:
        a = min(w, 7 - sw)
        jk = min(hand[p, JOKER], a)
        put(p, 0, 0, jk, a - jk, hand, un, can, pl, mcnt, rp, viol)
        w -= a
    while w >= 3:
        a = min(w, 7)
        jk = min(hand[p, JOKER], a)
        put(p, 0, 0, jk, a - jk, hand, un, can, pl, mcnt, rp, viol)
        w -= a
    for r in range(4, NT):
        if w == 0:
            break
        n = un[p, r, 0]
        wi = un[p, r, 1] + un[p, r, 2]
        if n == 0 or not wild_ok(r, rp):
            continue
        room = min(maxw - wi, 7 - n - wi)
        a = min(room, w)
        if a > 0:
            jk = min(hand[p, JOKER], a)
            put(p, r, 0, jk, a - jk, hand, un, can, pl, mcnt, rp, viol)
            w -= a
    return True


@njit(cache=True, _nrt=False)
def has_four_types(can, p):
    return can[p, 0] > 0 and can[p, 1] > 0 and can[p, 2] > 0 and can[p, 3] > 0


@njit(cache=True, _nrt=False)
def may_complete_types(p, hand, un, can, rp):
    """A quick necessary condition for going out this turn: every missing canasta type could
    be closed from an unfinished meld plus the hand (red or sevens: 7 naturals of one rank and
    no wild in the meld; black: 7 cards of one rank's slot with wilds; wild: 7 wild cards)."""
    hw = hand[p, JOKER] + hand[p, TWO]
    if can[p, CT_WILD] == 0 and un[p, 0, 1] + un[p, 0, 2] + hw < 7:
        return False
    if can[p, CT_SEVENS] == 0 and (un[p, SEVEN, 1] + un[p, SEVEN, 2] > 0
                                   or un[p, SEVEN, 0] + hand[p, SEVEN] < 7):
        return False
    red = can[p, CT_RED] > 0
    black = can[p, CT_BLACK] > 0
    for r in range(4, NT):
        n = un[p, r, 0] + hand[p, r]
        wi = un[p, r, 1] + un[p, r, 2]
        if not red and r != SEVEN and wi == 0 and n >= 7:
            red = True
        if not black and wild_ok(r, rp) and n >= 2 and n + wi + hw >= 7:
            black = True
    return red and black


@njit(cache=True, _nrt=True)
def completes_four_types(p, d, hand, un, can, pl, mcnt, rp):
    """Would melding every card but ``d`` (the ``meld_all`` arrangement) leave player ``p``
    with a canasta of each of the four types? Plays the melds on copies of the state, so it
    keeps reference counting (``_nrt=True``: its callers run without and would pass that on);
    it is asked only when a type is missing and the go-out melds may complete it (rare)."""
    h2 = hand.copy()
    un2 = un.copy()
    can2 = can.copy()
    pl2 = pl.copy()
    mc2 = mcnt.copy()
    v2 = np.zeros(NV, dtype=np.int64)
    h2[p, d] -= 1
    row = h2[p].copy()
    meld_all(p, row, h2, un2, can2, pl2, mc2, rp, v2, True)
    return has_four_types(can2, p)


@njit(cache=True, _nrt=False)
def go_out_card(p, hand, un, can, pl, mcnt, rp, viol, tmp):
    """The card to discard when going out (cheapest that works), or -1 if going out is
    impossible this turn. ``tmp`` is a scratch vector of 15.

    Going out needs the four canasta types at going out (section 8), not before the turn: when
    some type is missing, the go-out melds themselves must complete it."""
    four = has_four_types(can, p)
    if not four and not may_complete_types(p, hand, un, can, rp):
        return -1
    order = (3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 1, 0)
    for d in order:
        if hand[p, d] == 0:
            continue
        for c in range(NT):
            tmp[c] = hand[p, c]
        tmp[d] -= 1
        if meld_all(p, tmp, hand, un, can, pl, mcnt, rp, viol, False):
            if four or completes_four_types(p, d, hand, un, can, pl, mcnt, rp):
                return d
    return -1
