"""Ten whole games: each seat's score and the marginal values its bots ask for, exact, from one
prepared slot-DP region per seat (``whole_slots.py``) kept between decisions.

A seat's collection changes a few times per game (a stop for numbers, a buy, an auction won, a
card spent) while its bots ask for marginal values far more often: every auction asks every
bidder what the wild adds, every buy phase what each market card adds. So seat q keeps its
prepared region at ``SEATS + q · REGION`` of ``ws`` and its score in ``tk[TK_SCORE + q]``:

- ``ready`` prepares the region when it is STALE (once per collection, not once per question);
- the O_c tables (the DP of the colours other than c) are built when first asked for and stay
  until a colour they involve changes;
- a change that only adds number cards or colour wilds (a stop for numbers, a buy, a colour
  wild won) calls ``grown``: the slot module's ``grow`` rebuilds the changed colours' L tables
  and keeps the rest; any other change calls ``forget`` (the region goes STALE);
- both take the new score when the deciding bot already computed it (the gain it acted on:
  new score = old score + gain, exactly), so the score is not recomputed.

Marginal values (all exact, equal to score(collection + card) − score(collection); tests):
a number card t of colour c is ``score_colour(c, m_c | t, cw_c, 0)``; a colour wild of c is
``score_colour(c, m_c, cw_c + 1, 0)``; a number wild of value v is the best over the colours c
that lack v of ``score_colour(c, m_c, cw_c, v)`` (the wild serves one colour; a colour that owns
v gains nothing from it); a collection without any wild uses the longest runs (LONG) and TAB
directly; the full wild, and a collection beyond the DP's limits, score the changed row afresh.
A buy phase asks ``card_bound`` first (colour c alone, no DP) and runs the DP of the other
colours (``bounded_card_gain``) only for a card whose bound could still be picked.
The tableau taken for numbers (several colours at once) is scored on a copy of the region with
the grown colours' L tables rebuilt (one colour: ``score_colour`` on the seat's own O_c).
"""
from numba import njit

from kernels.ten.whole_layout import CW0, FULL, NW0, ROW_TABLEAU, TK_SCORE
from kernels.ten.whole_score import score_row, score_search
from kernels.ten.whole_slots import (
    A_CW, A_M, A_READY, REGION, SEATS, SOFF, STALE, colour_bound, copy_region, grow, l_table,
    others, prepare, score_colour, tab)
from kernels.widen import plain_types

BEYOND = 1 << 20  # card_bound's answer beyond the DP's limits: above any score gain


@njit(cache=True, inline="always", _nrt=False)
def region(q):
    return SEATS + q * REGION


@njit(cache=True, inline="always", _nrt=False)
def slot_tab(T):
    """The slot table (T9, T3) of ``whole_slots.py`` from the scoring tables (RUNS, T9, T3)."""
    return (T[1], T[2])


@njit(cache=True, _nrt=False)
def forget_all(ws):
    """Mark every seat's region STALE (a new game or position)."""
    for q in range(5):
        ws[region(q) + A_READY] = STALE


@plain_types
@njit(cache=True, _nrt=False)
def forget(q, known, tk, ws):
    """Seat q's collection changed in a way ``grow`` does not follow; ``known`` is its new score
    (−1: not known, computed when next asked)."""
    tk[TK_SCORE + q] = known
    ws[region(q) + A_READY] = STALE


@njit(cache=True, inline="always", _nrt=False)
def grown(q, known, cards, tk, T, ws):
    """Seat q's collection gained number cards or colour wilds only; ``known`` as in forget."""
    b = region(q)
    tk[TK_SCORE + q] = known
    if ws[b + A_READY] == -1:
        grow(cards[q], slot_tab(T), ws, b)
    else:
        ws[b + A_READY] = STALE


@njit(cache=True, inline="always", _nrt=False)
def ready(q, cards, T, ws):
    """``prepare``'s answer for seat q's collection, preparing its region if STALE."""
    b = region(q)
    r = ws[b + A_READY]
    if r == STALE:
        r = prepare(cards[q], T[0], slot_tab(T), ws, b)
    return r


@plain_types
@njit(cache=True, _nrt=False)
def _rescore(q, cards, tk, T, ws):
    r = ready(q, cards, T, ws)
    if r == -1:
        b = region(q)
        others(3, ws, b)
        r = score_colour(3, ws[b + A_M + 3], ws[b + A_CW + 3], 0, slot_tab(T), ws, b)
    elif r == -2:
        r = score_search(cards[q], T, ws)
    tk[TK_SCORE + q] = r


@njit(cache=True, inline="always", _nrt=False)
def cached_score(q, cards, tk, T, ws):
    """Seat q's current score (= ``score_row(cards[q])``), kept in tk[TK_SCORE + q]."""
    if tk[TK_SCORE + q] < 0:
        _rescore(q, cards, tk, T, ws)
    return tk[TK_SCORE + q]


@plain_types
@njit(cache=True, _nrt=False)
def _fresh_gain(q, t, base, cards, T, ws):
    cards[q, t] += 1
    g = score_row(cards[q], T, ws) - base
    cards[q, t] -= 1
    return g


@njit(cache=True, inline="always", _nrt=False)
def card_bound(q, t, cards, T, ws):
    """An upper bound on ``card_gain(q, t)`` from colour c = t // 9 alone: the gain itself when
    the collection holds no wild (longest runs), ``colour_bound`` of c with t's value added when
    the DP applies, BEYOND (no bound) beyond the DP's limits."""
    r = ready(q, cards, T, ws)
    b = region(q)
    c = t // 9
    m = ws[b + A_M + c]
    bit = 1 << (t % 9)
    if r >= 0:
        return T[0][m | bit] - T[0][m]
    if r == -1:
        return colour_bound(c, m | bit, ws[b + A_CW + c], 0, slot_tab(T), ws, b)
    return BEYOND


@njit(cache=True, inline="always", _nrt=False)
def bounded_card_gain(q, t, bound, cards, tk, T, ws):
    """``card_gain(q, t)`` given its ``card_bound``: the bound itself when it is exact (no wild)
    or 0, else the DP of the other colours and ``score_colour``."""
    base = cached_score(q, cards, tk, T, ws)
    r = ready(q, cards, T, ws)
    if r >= 0 or bound == 0:
        return bound
    if r == -1:
        b = region(q)
        c = t // 9
        m = ws[b + A_M + c] | (1 << (t % 9))
        others(c, ws, b)
        return score_colour(c, m, ws[b + A_CW + c], 0, slot_tab(T), ws, b) - base
    return _fresh_gain(q, t, base, cards, T, ws)


@njit(cache=True, inline="always", _nrt=False)
def card_gain(q, t, cards, tk, T, ws):
    """Score gain of seat q taking number card t (not owned)."""
    return bounded_card_gain(q, t, card_bound(q, t, cards, T, ws), cards, tk, T, ws)


@njit(cache=True, inline="always", _nrt=False)
def wild_gain(q, w, cards, tk, T, ws):
    """Score gain of seat q taking the wild of type w."""
    return wild_gain_above(q, w, -1, cards, tk, T, ws)


@njit(cache=True, inline="always", _nrt=False)
def wild_gain_above(q, w, floor, cards, tk, T, ws):
    """Score gain g of seat q taking the wild of type w when g > ``floor``; else some value
    ≤ ``floor`` (a bidder to whom no gain up to ``floor`` matters skips the DP of colours whose
    bound is not above it; −1: always exact)."""
    base = cached_score(q, cards, tk, T, ws)
    r = ready(q, cards, T, ws)
    b = region(q)
    LONG = T[0]
    TAB = slot_tab(T)
    if r == -2 or (r == -1 and w == FULL):
        return _fresh_gain(q, w, base, cards, T, ws)
    if w < CW0 + 4:
        c = w - CW0
        m = ws[b + A_M + c]
        if r >= 0:
            return tab(TAB, m, 1, 0) - LONG[m]
        ub = colour_bound(c, m, ws[b + A_CW + c] + 1, 0, TAB, ws, b)
        if ub == 0 or ub <= floor:
            return ub
        others(c, ws, b)
        return score_colour(c, m, ws[b + A_CW + c] + 1, 0, TAB, ws, b) - base
    best = 0
    if r >= 0:  # no wild held: the new one serves the colour it helps most
        for c in range(4):
            m = ws[b + A_M + c]
            g = (tab(TAB, m, 1, 0) if w == FULL else tab(TAB, m, 0, 1 << (w - NW0))) - LONG[m]
            if g > best:
                best = g
        return best
    if floor > 0:
        best = floor
    bit = 1 << (w - NW0)
    bound = 0  # 4 bounds of colour_bound, 8 bits each, 0: the wild cannot help that colour
    for c in range(4):
        m = ws[b + A_M + c]
        if (m & bit) == 0:
            bound |= colour_bound(c, m, ws[b + A_CW + c], bit, TAB, ws, b) << (8 * c)
    while bound != 0:  # colours by decreasing bound, until no bound beats the best gain
        c = 0
        for d in range(1, 4):
            if ((bound >> (8 * d)) & 255) > ((bound >> (8 * c)) & 255):
                c = d
        if ((bound >> (8 * c)) & 255) <= best:
            break
        bound &= ~(255 << (8 * c))
        m = ws[b + A_M + c]
        others(c, ws, b)
        g = score_colour(c, m, ws[b + A_CW + c], bit, TAB, ws, b) - base
        if g > best:
            best = g
    return best


@plain_types
@njit(cache=True, _nrt=False)
def numbers_score(a, cards, tk, T, ws):
    """Seat a's score if it took the tableau's number cards (= score_row of the grown row),
    from the grown masks without touching the row: no wild, the longest runs; one colour
    grown, that colour's ``score_colour``; several, the DP on a copy of the region whose grown
    colours' L tables are rebuilt."""
    base = cached_score(a, cards, tk, T, ws)
    r = ready(a, cards, T, ws)
    b = region(a)
    if r == -2:  # beyond the DP: score the grown row
        for t in range(36):
            cards[a, t] += cards[ROW_TABLEAU, t]
        x = score_row(cards[a], T, ws)
        for t in range(36):
            cards[a, t] -= cards[ROW_TABLEAU, t]
        return x
    new = 0  # the tableau's values not owned yet, 9 bits per colour
    for t in range(36):
        if cards[ROW_TABLEAU, t] > 0 and cards[a, t] == 0:
            new |= 1 << t
    if new == 0:
        return base
    if r >= 0:
        x = 0
        for c in range(4):
            x += T[0][ws[b + A_M + c] | ((new >> (9 * c)) & 511)]
        return x
    changed = 0
    for c in range(4):
        if (new >> (9 * c)) & 511:
            changed |= 1 << c
    if changed & (changed - 1) == 0:  # one colour c: the seat's own O_c
        c = 0
        while changed != 1 << c:
            c += 1
        others(c, ws, b)
        return score_colour(c, ws[b + A_M + c] | ((new >> (9 * c)) & 511), ws[b + A_CW + c], 0,
                            slot_tab(T), ws, b)
    copy_region(ws, b, SOFF)
    for c in range(4):
        if (changed >> c) & 1:
            ws[SOFF + A_M + c] |= (new >> (9 * c)) & 511
            l_table(c, slot_tab(T), ws, SOFF)
    others(3, ws, SOFF)
    return score_colour(3, ws[SOFF + A_M + 3], ws[SOFF + A_CW + 3], 0, slot_tab(T), ws, SOFF)
