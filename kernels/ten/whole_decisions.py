"""Ten whole games, the decisions and payments of the engine (``whole_engine.py`` has the model
and the bots' rules in its docstring): paying a price, gaining tokens, a buy phase, an auction
and the reward rule. Every function reads and writes the kernel's state arrays in place
(``cards`` int64[9, 55], ``tk`` int64[NTK], ``rec`` float64[NREC]; layout in
``whole_layout.py``); ``T`` is the scoring tables' tuple and ``ws`` the scorer's scratch.
"""
import numpy as np
from numba import njit

from kernels.rng import randint
from kernels.ten.whole_layout import (
    A_RANDOM, A_VALUE, B_BID, B_BONUS, B_BUY, B_CARDS, B_MINGAIN, B_OPP, B_TPP, CW0, G_AUCTIONS,
    G_BUYS, G_PRICE, G_SPENT, G_WDISC, G_WFREE, NTYPES, ROW_MARKET, ROW_OUT, ROW_TABLEAU,
    R_ALLPASS, R_BUSTVAL, R_CAP, R_GAINS, R_MEANS, R_SPENT, TK_BSUP, TK_SCORE, TK_SUP)
from kernels.ten.whole_score import X_POP, score_row
from kernels.ten.whole_seats import (bounded_card_gain, cached_score, card_bound, forget, grown,
                                     wild_gain_above)
from kernels.widen import plain_types


@njit(cache=True, inline="always", _nrt=False)
def collection_size(cards, q):
    n = 0
    for t in range(NTYPES):
        n += cards[q, t]
    return n


@njit(cache=True, inline="always", _nrt=False)
def means_of(cards, tk, q, bv, with_cards):
    m = tk[q] + bv * tk[5 + q]
    if with_cards:
        m += collection_size(cards, q)
    return m


@plain_types
@njit(cache=True, _nrt=False)
def gain_tokens(q, amount, tk, cap):
    g = amount
    if g > cap - tk[q]:
        g = cap - tk[q]
    if g > tk[TK_SUP]:
        g = tk[TK_SUP]
    if g < 0:
        g = 0
    tk[q] += g
    tk[TK_SUP] -= g
    return g


@plain_types
@njit(cache=True, _nrt=False)
def pay_price(q, X, cards, tk, rl, T, ws):
    """Pay price X (whole_engine.py); returns the cards spent."""
    bv = rl[R_BUSTVAL]
    nb = X // bv
    if nb > tk[5 + q]:
        nb = tk[5 + q]
    rem = X - nb * bv
    t = rem if rem < tk[q] else tk[q]
    rem -= t
    if rem > 0 and tk[5 + q] > nb:
        nb += 1
        rem = 0
    tk[q] -= t
    tk[TK_SUP] += t
    tk[5 + q] -= nb
    tk[TK_BSUP] += nb
    spent = 0
    while rem > 0:
        base = cached_score(q, cards, tk, T, ws)
        best_t = -1
        best_loss = 1 << 30
        for c in range(NTYPES):
            if cards[q, c] == 0:
                continue
            cards[q, c] -= 1
            loss = base - score_row(cards[q], T, ws)
            cards[q, c] += 1
            if loss < best_loss:
                best_loss = loss
                best_t = c
        if best_t < 0:  # nothing left to pay with (only without R_MEANS)
            break
        cards[q, best_t] -= 1
        forget(q, -1, tk, ws)
        if rl[R_SPENT] == 1 and best_t < 36:
            cards[ROW_MARKET, best_t] += 1
        else:
            cards[ROW_OUT, best_t] += 1
        rem -= 1
        spent += 1
    return spent


@njit(cache=True, inline="always", _nrt=False)
def may_pick(v, price, pick, best_v, best_p, bot):
    """The A_VALUE buy rule for a card of value v (gain + bonus) at ``price`` against the best
    so far (``pick`` −1: none): positive, at least B_MINGAIN per token, and a better value per
    token (v / price > best_v / best_p, compared as products). Monotone in v, so a card whose
    upper bound of v fails cannot pass with its exact v."""
    if v <= 0.0 or v < bot[B_MINGAIN] * price:
        return False
    return pick < 0 or v * best_p > best_v * price


@plain_types
@njit(cache=True, _nrt=False)
def buy_phase(q, cards, tk, rl, bot, s, T, ws, rec):
    """One buy phase for seat q under its bot row (whole_engine.py)."""
    kind = int(bot[B_BUY])
    if kind != A_VALUE and kind != A_RANDOM:
        return
    afford = means_of(cards, tk, q, rl[R_BUSTVAL], bot[B_CARDS] > 0)
    pick = -1
    known = -1  # the score after the buy, when the bot computed it
    if kind == A_VALUE:
        best_v = 0.0
        best_p = 1
        elig = 0  # the market cards q may buy, one bit per type (no branch per type)
        for t in range(36):
            ok = (cards[ROW_MARKET, t] > 0) & (cards[q, t] == 0) & (t % 9 + 1 <= afford)
            elig |= int(ok) << t
        while elig != 0:  # in type order, as a loop over the types would
            low = elig & -elig
            elig ^= low
            t = 0
            while low >= 512:
                low >>= 9
                t += 9
            t += T[0][X_POP + low - 1]  # the bit's index within its colour
            price = t % 9 + 1
            ub = card_bound(q, t, cards, T, ws)
            if not may_pick(ub + bot[B_BONUS], price, pick, best_v, best_p, bot):
                continue  # not even the bound would be picked: no DP for its exact gain
            g = bounded_card_gain(q, t, ub, cards, tk, T, ws)
            v = g + bot[B_BONUS]
            if not may_pick(v, price, pick, best_v, best_p, bot):
                continue
            pick = t
            best_v = v
            best_p = price
            known = tk[TK_SCORE + q] + g
    else:
        n = 0
        for t in range(36):
            if cards[ROW_MARKET, t] > 0 and cards[q, t] == 0 and t % 9 + 1 <= afford:
                n += 1
        if n == 0 or randint(s, 2) == 0:
            return
        k = randint(s, n)
        for t in range(36):
            if cards[ROW_MARKET, t] > 0 and cards[q, t] == 0 and t % 9 + 1 <= afford:
                if k == 0:
                    pick = t
                    break
                k -= 1
    if pick < 0:
        return
    cards[ROW_MARKET, pick] -= 1
    cards[q, pick] += 1
    grown(q, known, cards, tk, T, ws)
    pay_price(q, pick % 9 + 1, cards, tk, rl, T, ws)
    rec[G_BUYS] += 1
    rec[G_SPENT] += pick % 9 + 1


@plain_types
@njit(cache=True, _nrt=False)
def forced_buy(q, t, cards, tk, rl, T, ws, rec):
    """Seat q buys market card t (a position's choice in `ten decide`), paying as a bot does."""
    cards[ROW_MARKET, t] -= 1
    cards[q, t] += 1
    grown(q, -1, cards, tk, T, ws)
    pay_price(q, t % 9 + 1, cards, tk, rl, T, ws)
    rec[G_BUYS] += 1
    rec[G_SPENT] += t % 9 + 1


@plain_types
@njit(cache=True, _nrt=False)
def took_wild(q, w, known, cards, tk, T, ws):
    """Seat q's collection gained the wild w (a colour wild only grows its colour)."""
    if w < CW0 + 4:
        grown(q, known, cards, tk, T, ws)
    else:
        forget(q, known, tk, ws)


@njit(cache=True, inline="always", _nrt=False)
def idle_gain(cur, tpp):
    """The largest integer gain g ≥ 0 whose bid limit ⌊g · tpp⌋ does not beat the current bid
    ``cur`` (so no gain up to it changes a bid); −1 (no such use) when tpp ≤ 0 or tiny.
    The limit is monotone in g, so the search steps from ⌊cur / tpp⌋."""
    if tpp <= 0.0 or cur > tpp * 1e6:
        return -1
    g = int(cur / tpp)
    while np.floor((g + 1) * tpp) <= cur:
        g += 1
    while g >= 0 and np.floor(g * tpp) > cur:
        g -= 1
    return g


@plain_types
@njit(cache=True, _nrt=False)
def auction(a, w, P, cards, tk, rl, bots, s, T, ws, rec, fq, fx):
    """Auction the wild of type w drawn by seat a (whole_engine.py); seat ``fq`` (−1: none)
    bids ``fx`` (0: pass; the active seat, last, bids the current bid + 1 if that is ≤ fx)."""
    cur = 0
    win = -1
    known = -1  # the winner's score with the wild, when its bot computed it
    bv = rl[R_BUSTVAL]
    for i in range(1, P + 1):
        q = (a + i) % P
        bot = bots[q]
        kind = int(bot[B_BID])
        held = tk[q] + bv * tk[5 + q]  # what q pays with besides collection cards
        size = collection_size(cards, q)
        means = held + size
        if q == fq:
            if q == a:
                if cur + 1 <= fx:
                    cur += 1
                    win = q
                    known = -1
            elif fx > cur:
                cur = fx
                win = q
                known = -1
        elif kind == A_VALUE:
            own = held + size if bot[B_CARDS] > 0 else held
            if rl[R_MEANS] == 1 and own > means:
                own = means
            if own <= cur:  # cannot outbid whatever the wild is worth: no need to score it
                continue
            g = wild_gain_above(q, w, idle_gain(cur, bot[B_TPP]), cards, tk, T, ws)
            lim = int(np.floor(g * bot[B_TPP]))
            if lim > own:
                lim = own
            if q == a:
                if cur + 1 <= lim:
                    cur += 1
                    win = q
                    known = tk[TK_SCORE + q] + g
            elif lim > cur:
                cur = lim
                win = q
                known = tk[TK_SCORE + q] + g
        elif kind == A_RANDOM:
            hi = means
            if rl[R_MEANS] == 0 and hi < cur + 1:
                hi = cur + 1
            if hi > cur and randint(s, 2) == 1:
                cur = cur + 1 + randint(s, hi - cur)
                win = q
                known = -1
    if win >= 0:
        cards[win, w] += 1
        took_wild(win, w, known, cards, tk, T, ws)
        pay_price(win, cur, cards, tk, rl, T, ws)
        rec[G_AUCTIONS] += 1
        rec[G_PRICE] += cur
    elif rl[R_ALLPASS] == 1:
        cards[a, w] += 1
        took_wild(a, w, -1, cards, tk, T, ws)
        rec[G_WFREE] += 1
    else:
        cards[ROW_OUT, w] += 1
        rec[G_WDISC] += 1


@plain_types
@njit(cache=True, _nrt=False)
def wants_numbers(a, C, P, after, cards, tk, rl, bot, T, ws):
    """The reward rule W_VALUE: True to take the numbers (whole_engine.py); ``after`` is the
    score with the tableau's numbers (``whole_seats.numbers_score``)."""
    g = after - cached_score(a, cards, tk, T, ws)
    new = 0
    for t in range(36):
        if cards[ROW_TABLEAU, t] > 0 and cards[a, t] == 0:
            new += 1
    cap = rl[R_CAP]
    others = 0
    mine = 0
    if rl[R_GAINS] == 1:
        for i in range(1, P):
            q = (a + i) % P
            x = cap - tk[q]
            others += C if C < x else x
        x = cap - tk[a]
        mine = C if C < x else x
        if mine > tk[TK_SUP]:
            mine = tk[TK_SUP]
    v_num = g + bot[B_BONUS] * new - bot[B_OPP] * others
    v_cur = mine / bot[B_TPP]
    return v_num >= v_cur
