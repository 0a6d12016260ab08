"""Ten whole games, the ``search`` bot's decisions: determinized playouts of the rest of the game
from the decision, the candidate moves raced by sequential halving on common determinizations.

Model
-----
Everything in Ten is public except the order of the draw pile: the collections, the market,
the tokens, the tableau and the cards out of the game are face up, so the counts of the draw
pile (ROW_PILE) follow by elimination and, given what a seat has seen, every order of those
cards is equally likely. A uniform shuffle of the pile's counts is therefore the exact belief
(a *determinization*): the search reads ``cards`` (with ROW_PILE) and ``tk``, never the pile.

At a decision of seat ``me`` the candidate moves (*arms*) are coded as the engine's forced first
actions (``whole_layout.py`` F_*): draw, stop for the numbers, stop for the currency; no buy or
buy card t; in an auction of wild w, seat me's bid x (0: pass). One *playout* of arm c on a
determinization d copies the state and calls the engine itself
(``whole_engine.play_game(pile_d, ..., forced = c)``) with the heuristic bots of every seat (the
search seats play their own heuristic: ``playout_rows``); its value is seat me's win share at the
end (ties shared). Playouts of different arms on one determinization also share the engine's
random stream, so arms are compared on common random numbers.

Sequential halving (Karnin, Koren & Somekh 2013): with K arms and R = ⌈log₂ K⌉ rounds, round r
plays every surviving arm on the same fresh determinizations, ⌊iters / (R · |alive|)⌋ of them
(at least 1), or, with a time budget, until the thread's CPU clock passes r/R of ``ms``; then
the better half survives (ranked by the sum of their values, which are over the same
determinizations because a survivor played every earlier round; ties keep the earlier arm).
The last survivor is played. With both budgets, a round ends on whichever is spent first.
``iters`` budgets are reproducible (same seed, same decisions); ``ms`` budgets are not.

Arms, most likely first (the *prior*, the seat's own heuristic, breaks ties and decides which
arms are kept when there are more than ``arms``):

- draw check: draw, numbers, currency, the heuristic's choice first (with an empty pile only
  numbers and currency);
- buy phase: "no buy" and every market card the seat may buy (not owned, affordable), the
  heuristic's pick first, then no buy, then the rest by (score gain + card bonus) / price;
  at most ``arms`` of them (pruning by the prior);
- auction (action grouping): the bid levels 0..min(what the seat can pay, 15) are grouped by the
  auction they lead to — the winner and the price, found by running the engine's auction on a
  copy of the state with the other seats' heuristic bids, which read only public facts. Levels
  of one group are the same move (e.g. every bid the later bidders beat), so one level stands
  for each group (its lowest): pass, then each winning price upwards, the heuristic's group
  first, at most ``arms`` groups. With a ``random`` bidder the outcome is not a function of the
  level, so the levels are not grouped (0.. ``arms`` − 1);
- final buy round: no hidden card is left, so each arm is played once to the end (the later
  seats' final buys by their bots, then the scoring) and the best is exact.

Budget knobs live in the seat's bot row (``S_ITERS``, ``S_MS``, ``S_ARMS``, in the slots the
``table`` bot uses for its rows), and which decisions are searched (``S_DRAWS``: draw checks;
``S_BIDS``: bids; ``S_BUYS``: buys, the final round's too; 1 yes, 0 the seat's heuristic).
``W`` is a thread's scratch tuple (``scratch`` in ``search_game.py``); ``lg`` counts the
decisions, their CPU nanoseconds, their playouts and those with more than one arm (searched),
and logs the first LOGN decisions (kind, code) for the tests.
"""
import numpy as np
from numba import njit

from kernels.rng import next_u64, randint
from kernels.ten.search_clock import thread_ns
from kernels.ten.whole_decisions import auction, buy_phase, forced_buy, means_of, may_pick
from kernels.ten.whole_engine import banded_bound, play_game, score_end
from kernels.ten.whole_layout import (
    A_RANDOM, B_BID, B_BONUS, B_CARDS, B_DRAW, B_NROWS, B_REWARD, B_ROWS, CW0, D_TOTAL, F_BID0,
    F_BUY0, F_BUYNONE, F_CURRENCY, F_DRAW, F_NUMBERS, G_PRICE, G_WIN, NTYPES, ROW_MARKET,
    ROW_PILE, R_BUSTVAL, R_MEANS, W_CURRENCY, W_NUMBERS, W_RANDOM)
from kernels.ten.whole_decisions import wants_numbers
from kernels.ten.whole_seats import card_gain, forget_all, numbers_score

D_SEARCH = 6  # the search bot's draw kind (whole_layout D_*: the engine never sees it)
S_ITERS, S_MS, S_ARMS, S_DRAWS, S_BIDS, S_BUYS = range(B_ROWS, B_ROWS + 6)
MAXARMS = 16
MAXBID = 15  # bid levels 1..15 at most (as `ten decide`)
K_DRAW, K_BUY, K_BID, K_FINAL = 1, 2, 3, 4  # decision kinds in the log
LG_N, LG_NS, LG_PLAYOUTS, LG_SEARCHED, LG_LOG = 0, 1, 2, 3, 4
LOGN = 64
NA = 64  # columns of the arm arrays (a buy phase lists up to 36 cards before pruning)
# the scratch tuple W of a thread (search_game.scratch): state copies for playouts, the
# determinized pile and the unseen cards, the playout and search streams, the arms, the
# playout rows, the log, a stream seed, auction rows, an order
(W_C2, W_T2, W_WS, W_REC, W_PILE, W_UB, W_S2, W_SS, W_AI, W_AV, W_PROW, W_LG, W_S0, W_AB,
 W_ORDER) = range(15)


@njit(cache=True)
def playout_rows(bots, prow):
    """``prow`` = ``bots`` with every search seat playing its heuristic (the threshold bot of
    its knobs)."""
    for q in range(bots.shape[0]):
        for i in range(bots.shape[1]):
            prow[q, i] = bots[q, i]
        if bots[q, B_DRAW] == D_SEARCH:
            prow[q, B_DRAW] = D_TOTAL
            prow[q, B_NROWS] = 0


@njit(cache=True)
def _copy_state(cards, tk, c2, t2):
    for r in range(cards.shape[0]):
        for t in range(NTYPES):
            c2[r, t] = cards[r, t]
    for i in range(tk.shape[0]):
        t2[i] = tk[i]


@njit(cache=True)
def _deal(cards, ub, dp, ss):
    """A uniform shuffle of the draw pile's counts (ROW_PILE) into the end of ``dp``
    (Fisher–Yates, last position first); returns the offset of its first card."""
    n = 0
    for t in range(NTYPES):
        for _ in range(cards[ROW_PILE, t]):
            ub[n] = t
            n += 1
    off = dp.shape[0] - n
    for i in range(n):
        dp[off + i] = ub[i]
    for i in range(n - 1, 0, -1):
        j = randint(ss, i + 1)
        x = dp[off + i]
        dp[off + i] = dp[off + j]
        dp[off + j] = x
    return off


@njit(cache=True)
def _log(kind, code, t0, W):
    lg = W[W_LG]
    k = lg[LG_N]
    if k < LOGN:
        lg[LG_LOG + 2 * k] = kind
        lg[LG_LOG + 2 * k + 1] = code
    lg[LG_N] = k + 1
    lg[LG_NS] += thread_ns() - t0


@njit(cache=True)
def halving(narms, a, me, P, cards, tk, rl, T, dec, nchild, cchild, deck, W, row):
    """Sequential halving over the arms ``ai[0, :narms]`` (module doc); the chosen arm's
    index. One arm is played without a playout."""
    c2, t2, ws2, r2, dp, ub = W[W_C2], W[W_T2], W[W_WS], W[W_REC], W[W_PILE], W[W_UB]
    s2, ss, ai, av, prow, lg, s0 = W[W_S2], W[W_SS], W[W_AI], W[W_AV], W[W_PROW], W[W_LG], W[W_S0]
    if narms == 1:
        return 0
    lg[LG_SEARCHED] += 1
    iters = int(row[S_ITERS])
    budget = int(row[S_MS] * 1e6)
    rounds = 0
    while (1 << rounds) < narms:
        rounds += 1
    for i in range(narms):
        ai[1, i] = i
        av[i] = 0.0
    alive = narms
    start = thread_ns() if budget > 0 else 0
    for r in range(rounds):
        quota = iters // (rounds * alive) if iters > 0 else 1 << 40
        if quota < 1:
            quota = 1
        end = start + budget * (r + 1) // rounds
        d = 0
        while True:
            off = _deal(cards, ub, dp, ss)
            for j in range(4):
                s0[j] = next_u64(ss)
            for i in range(alive):
                arm = ai[1, i]
                _copy_state(cards, tk, c2, t2)
                for j in range(4):
                    s2[j] = s0[j]
                play_game(dp, off, a, ai[0, arm], P, c2, t2, rl, prow, s2, T, ws2, dec, nchild,
                          cchild, deck, r2)
                av[arm] += r2[G_WIN + me]
            lg[LG_PLAYOUTS] += alive
            d += 1
            if d >= quota or off == dp.shape[0] and d >= 1:
                break
            if budget > 0 and thread_ns() >= end:
                break
        for i in range(1, alive):  # stable insertion sort, best sum first
            x = ai[1, i]
            j = i - 1
            while j >= 0 and av[ai[1, j]] < av[x]:
                ai[1, j + 1] = ai[1, j]
                j -= 1
            ai[1, j + 1] = x
        alive = (alive + 1) // 2
    return ai[1, 0]


@njit(cache=True)
def _reward_first(a, C, P, cards, tk, rl, row, T, ws):
    """The heuristic's reward at a stop: F_NUMBERS or F_CURRENCY (W_RANDOM: numbers)."""
    wk = int(row[B_REWARD])
    if wk == W_CURRENCY:
        return F_CURRENCY
    if wk == W_NUMBERS or wk == W_RANDOM:
        return F_NUMBERS
    after = numbers_score(a, cards, tk, T, ws)
    return F_NUMBERS if wants_numbers(a, C, P, after, cards, tk, rl, row, T, ws) else F_CURRENCY


@njit(cache=True)
def search_draw(a, N, C, left, P, cards, tk, rl, T, ws, dec, nchild, cchild, deck, W):
    """Seat a at a draw check with the tableau (N, C) in ROW_TABLEAU and ``left`` cards in the
    pile: F_DRAW, F_NUMBERS or F_CURRENCY (module doc)."""
    t0 = thread_ns()
    ai, prow = W[W_AI], W[W_PROW]
    row = prow[a]
    first = _reward_first(a, C, P, cards, tk, rl, row, T, ws)
    other = F_CURRENCY if first == F_NUMBERS else F_NUMBERS
    n = 0
    if left > 0 and N - C < banded_bound(row, left, tk[a]):
        ai[0, 0] = F_DRAW
        ai[0, 1] = first
        ai[0, 2] = other
        n = 3
    else:
        ai[0, 0] = first
        ai[0, 1] = other
        n = 2
        if left > 0:
            ai[0, 2] = F_DRAW
            n = 3
    k = halving(n, a, a, P, cards, tk, rl, T, dec, nchild, cchild, deck, W, row)
    code = ai[0, k]
    _log(np.int64(K_DRAW), code, t0, W)
    return code


@njit(cache=True)
def buy_arms(q, cards, tk, rl, row, T, ws, ai, av, cap):
    """The buy arms of seat q into ``ai[0]`` (module doc); their number (≥ 1: no buy)."""
    afford = means_of(cards, tk, q, rl[R_BUSTVAL], row[B_CARDS] > 0)
    n = 0
    pick = -1
    best_v = 0.0
    best_p = 1
    for t in range(36):
        if cards[ROW_MARKET, t] > 0 and cards[q, t] == 0 and t % 9 + 1 <= afford:
            v = card_gain(q, t, cards, tk, T, ws) + row[B_BONUS]
            price = t % 9 + 1
            if may_pick(v, price, pick, best_v, best_p, row):
                pick = t
                best_v = v
                best_p = price
            ai[2, n] = t
            av[n] = v / price
            n += 1
    # order: the heuristic's pick, no buy, then the others by value per token (stable)
    for i in range(1, n):
        t = ai[2, i]
        x = av[i]
        j = i - 1
        while j >= 0 and av[j] < x:
            ai[2, j + 1] = ai[2, j]
            av[j + 1] = av[j]
            j -= 1
        ai[2, j + 1] = t
        av[j + 1] = x
    k = 0
    if pick >= 0:
        ai[0, k] = F_BUY0 + pick
        k += 1
    ai[0, k] = F_BUYNONE
    k += 1
    for i in range(n):
        if k >= cap:
            break
        if ai[2, i] != pick:
            ai[0, k] = F_BUY0 + ai[2, i]
            k += 1
    return k


@njit(cache=True)
def search_buy(q, P, cards, tk, rl, T, ws, dec, nchild, cchild, deck, W):
    """Seat q's buy phase after taking the numbers (its turn; the tableau is empty): the code
    F_BUYNONE or F_BUY0 + t."""
    t0 = thread_ns()
    ai, av, prow = W[W_AI], W[W_AV], W[W_PROW]
    row = prow[q]
    n = buy_arms(q, cards, tk, rl, row, T, ws, ai, av, _cap(row))
    k = halving(n, q, q, P, cards, tk, rl, T, dec, nchild, cchild, deck, W, row)
    code = ai[0, k]
    _log(np.int64(K_BUY), code, t0, W)
    return code


@njit(cache=True, inline="always")
def _cap(row):
    c = int(row[S_ARMS])
    return MAXARMS if c > MAXARMS else (2 if c < 2 else c)


@njit(cache=True)
def _auction_outcome(a, w, q, x, P, cards, tk, rl, s, T, W):
    """(who, price) of the auction of wild w drawn by seat a when seat q bids x and the others
    bid by their heuristic (x = −1: seat q too); who is the seat that takes the wild, −1 when
    it is discarded."""
    c2, t2, ws2, r2, prow, s2 = W[W_C2], W[W_T2], W[W_WS], W[W_REC], W[W_PROW], W[W_S2]
    _copy_state(cards, tk, c2, t2)
    for j in range(4):
        s2[j] = s[j]
    r2[G_PRICE] = 0.0
    forget_all(ws2)
    fq = q if x >= 0 else np.int64(-1)
    auction(a, w, P, c2, t2, rl, prow, s2, T, ws2, r2, fq, x, 0, -1, 1)  # a fresh auction
    who = -1
    for r in range(P):
        if c2[r, w] > cards[r, w]:
            who = r
    return who, int(r2[G_PRICE])


@njit(cache=True)
def bid_arms(a, w, q, P, cards, tk, rl, s, T, W, cap):
    """The bid arms of seat q (module doc) into ``ai[0]`` as forced codes; their number."""
    ai, prow = W[W_AI], W[W_PROW]
    top = MAXBID
    if rl[R_MEANS] == 1:
        m = means_of(cards, tk, q, rl[R_BUSTVAL], True)
        if m < top:
            top = m
    grouped = True
    for r in range(P):
        if r != q and prow[r, B_BID] == A_RANDOM:
            grouped = False
    n = 0
    if not grouped:
        for x in range(top + 1):
            if n < cap:
                ai[2, n] = x
                n += 1
    else:  # the heuristic's group first, then pass and the winning prices upwards
        hw, hp = _auction_outcome(a, w, q, np.int64(-1), P, cards, tk, rl, s, T, W)
        keys = ai[1]
        for x in range(top + 1):
            who, price = _auction_outcome(a, w, q, x, P, cards, tk, rl, s, T, W)
            key = (who + 2) * 64 + price
            new = True
            for i in range(n):
                if keys[i] == key:
                    new = False
            if new:
                keys[n] = key
                ai[2, n] = x
                n += 1
        hkey = (hw + 2) * 64 + hp
        for i in range(n):
            if keys[i] == hkey:  # move the heuristic's group to the front
                x = ai[2, i]
                for j in range(i, 0, -1):
                    ai[2, j] = ai[2, j - 1]
                ai[2, 0] = x
                break
        if n > cap:
            n = cap
    for i in range(n):
        ai[0, i] = F_BID0 + (ai[2, i] * 5 + q) * 16 + (w - CW0)
    return n


@njit(cache=True)
def search_bid(a, w, q, P, cards, tk, rl, s, T, dec, nchild, cchild, deck, W):
    """Seat q's bid for the wild w that seat a drew (the wild is out of every row): 0 to pass,
    else the most it bids (the active seat bids the current bid + 1 when that is ≤ it)."""
    t0 = thread_ns()
    ai, prow = W[W_AI], W[W_PROW]
    row = prow[q]
    n = bid_arms(a, w, q, P, cards, tk, rl, s, T, W, _cap(row))
    k = halving(n, a, q, P, cards, tk, rl, T, dec, nchild, cchild, deck, W, row)
    x = (ai[0, k] - F_BID0) // 80
    _log(np.int64(K_BID), x, t0, W)
    return x


@njit(cache=True)
def final_value(q, code, order, i, P, cards, tk, rl, s, T, dec, nchild, cchild, deck, W):
    """Seat q's win share when it plays ``code`` (F_BUYNONE or F_BUY0 + t) in the final buy
    round at place i of ``order`` (the seats in buying order), the later seats buy by their
    heuristic, and the game is scored (the engine's ``score_end``)."""
    c2, t2, ws2, r2, s2, prow = W[W_C2], W[W_T2], W[W_WS], W[W_REC], W[W_S2], W[W_PROW]
    for j in range(r2.shape[0]):
        r2[j] = 0.0
    _copy_state(cards, tk, c2, t2)
    for j in range(4):
        s2[j] = s[j]
    forget_all(ws2)
    if code >= F_BUY0:
        forced_buy(q, code - F_BUY0, c2, t2, rl, T, ws2, r2)
    for k in range(i + 1, order.shape[0]):
        if order[k] >= 0:
            buy_phase(order[k], c2, t2, rl, prow[order[k]], s2, T, ws2, r2)
    score_end(P, c2, t2, T, ws2, r2)
    return r2[G_WIN + q]


@njit(cache=True)
def search_final_buy(q, order, i, P, cards, tk, rl, s, T, ws, dec, nchild, cchild, deck, W):
    """Seat q's buy in the final round (module doc): the best arm by its exact win share."""
    t0 = thread_ns()
    ai, av, prow, lg = W[W_AI], W[W_AV], W[W_PROW], W[W_LG]
    row = prow[q]
    n = buy_arms(q, cards, tk, rl, row, T, ws, ai, av, np.int64(MAXARMS))
    best = 0
    if n > 1:
        for k in range(n):
            av[k] = final_value(q, ai[0, k], order, i, P, cards, tk, rl, s, T, dec, nchild,
                                cchild, deck, W)
            if av[k] > av[best]:
                best = k
        lg[LG_PLAYOUTS] += n
        lg[LG_SEARCHED] += 1
    code = ai[0, best]
    _log(np.int64(K_FINAL), code, t0, W)
    return code
