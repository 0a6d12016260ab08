"""Ten whole games with ``search`` seats: the game, and the block drivers of `ten game` and of
`ten decide` when a line-up holds a search bot.

``search_play`` plays a game (or the rest of one from a position) exactly as the engine's
``whole_engine.play_game`` does — same rules, same calls in the same order, the same records —
except that a seat whose bot row says D_SEARCH takes its decisions by search
(``search_root.py``): each draw check (draw, or stop for the numbers or the currency), its buy
phase after taking the numbers, its bid in every auction, and its buy in the final round (each
kind unless its knob says no: then its heuristic decides, the threshold bot of its knobs). Every
other seat plays its own bot through the engine's functions (``auction``, ``buy_phase``,
``wants_numbers`` …). Numba cannot call the engine from inside itself, so this driver holds the
turn's control flow once more, and the engine plays the search's playouts; a test checks that a
search seat that searches nothing plays card for card like its heuristic in the engine.

Auctions with search seats (``search_auction``): each search seat, in bidding order, chooses
the most it bids before the auction starts (its bid is a function of public facts and of the
earlier bidders' bids, which its model computes from public facts too). The engine's auction
forces one seat's bid, so: a search seat that passes is left out; of the non-active search seats
that bid, the first with the highest bid is forced (a lower bid never changes the winner or
the price, since every bidder outbids the current bid with its own limit — except a ``random``
bidder, whose raise depends on it); when the active seat (last to bid) is a search seat and a
non-active search seat bids too, the active seat bids by its heuristic.

The turn's pieces (a bot's draw rule, the stop's reward, laying a card, settling the turn) and
the end's scoring are the engine's own functions (``whole_engine.py``); the game's counts
(turns, busts, buys …) are kept as the engine keeps them.

Streams: the game's stream ``s`` (the deck's shuffle, random bots) is the engine's; the search
draws its determinizations from its own stream ``ss``, seeded from the trial's and a salt, so a
search decision depends on the public state, the budget and the seed, never on the pile.
"""
import numpy as np
from numba import njit, prange

from kernels.rng import mix64, seed_trial
from kernels.ten.search_root import (
    D_SEARCH, LG_LOG, LG_NS, LG_PLAYOUTS, LG_SEARCHED, LOGN, NA, S_BIDS, S_BUYS, S_DRAWS, W_AB,
    W_LG, W_ORDER, W_PROW, W_SS, playout_rows, search_bid, search_buy, search_draw,
    search_final_buy)
from kernels.ten.whole_blocks import add_game, new_game, shuffle
from kernels.ten.whole_decisions import auction, buy_phase, forced_buy, unpack_bid
from kernels.ten.whole_engine import (_check, bot_draws, end_lead, lay_card, note_lead,
                                      play_game, score_end, settle_turn, stop_outcome,
                                      tableau_state)
from kernels.ten.whole_layout import (
    A_NEVER, B_BID, B_DRAW, CW0, D_EXACT, D_TOTAL, DW, F_BID0, F_BUY0, F_BUYNONE, F_CURRENCY,
    F_DRAW, F_NONE, F_NUMBERS, G_TURNS, G_VIOL, G_WDISC, G_WILDS, G_WIN, LW, NB, NREC, NTK, NTYPES,
    ROW_OUT, ROW_PILE, R_AUCTIONS, R_BUYS, R_CAP, R_CHECK, R_FINALLAST, TK_BSUP, TK_SUP)
from kernels.ten.whole_score import WS_SIZE
from kernels.ten.whole_seats import forget_all

SALT = np.uint64(0x5EA2C4B07D1E5A17)
# Numba compiles a function once per distinct argument types, and a constant passed as it is
# types as its own literal (Literal[int](0)): every heavy call here passes int64 values
# (np.int64(...)), so the engine's play_game and auction are compiled once for all of them.
#: extra sum columns after the line-ups' (whole_layout column()): the searched decisions (more
#: than one move), the CPU nanoseconds of every search decision, their playouts
EXTRA = ("search_decisions", "search_ns", "search_playouts")


@njit(cache=True)
def scratch(P, L):
    """A thread's scratch tuple W (search_root.py W_*); ``L`` ≥ the cards in any draw pile."""
    return (np.zeros((9, NTYPES), dtype=np.int64), np.zeros(NTK, dtype=np.int64),
            np.zeros(WS_SIZE, dtype=np.int64), np.zeros(NREC, dtype=np.float64),
            np.zeros(L, dtype=np.int8), np.zeros(L, dtype=np.int8),
            np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64),
            np.zeros((3, NA), dtype=np.int64), np.zeros(NA, dtype=np.float64),
            np.zeros((P, NB), dtype=np.float64),
            np.zeros(LG_LOG + 2 * LOGN, dtype=np.int64), np.zeros(4, dtype=np.uint64),
            np.zeros((P, NB), dtype=np.float64), np.zeros(5, dtype=np.int64))


@njit(cache=True)
def has_search(bots):
    for q in range(bots.shape[0]):
        if bots[q, B_DRAW] == D_SEARCH:
            return True
    return False


@njit(cache=True)
def begin(bots, key, t, W):
    """Before a game of a line-up with search seats: playout rows, a fresh log and the search
    stream of trial t (the trial's stream under a salted key)."""
    playout_rows(bots, W[W_PROW])
    lg = W[W_LG]
    for i in range(lg.shape[0]):
        lg[i] = 0
    ss = W[W_SS]
    seed_trial(key, t, ss)
    for j in range(4):
        ss[j] = mix64(ss[j] ^ (SALT + np.uint64(j)))


@njit(cache=True)
def search_auction(a, w, P, cards, tk, rl, bots, s, T, ws, rec, dec, nchild, cchild, deck, W):
    """The auction of wild w drawn by seat a with search seats (module doc)."""
    ab = W[W_AB]
    fq = -1
    fx = 0
    ax = 0
    for i in range(1, P + 1):
        q = (a + i) % P
        for j in range(bots.shape[1]):
            ab[q, j] = bots[q, j]
        if bots[q, B_DRAW] == D_SEARCH and bots[q, S_BIDS] > 0:
            x = search_bid(a, w, q, P, cards, tk, rl, s, T, dec, nchild, cchild, deck, W)
            ab[q, B_BID] = A_NEVER
            if x > 0:
                if q == a:
                    ax = x
                elif x > fx:
                    fq = q
                    fx = x
    if ax > 0:
        if fq < 0:
            fq = a
            fx = ax
        else:
            ab[a, B_BID] = bots[a, B_BID]
    auction(a, w, P, cards, tk, rl, ab, s, T, ws, rec, fq, fx, 0, -1, 1)  # a fresh auction


@njit(cache=True)
def search_play(pile, pos, active, forced, P, cards, tk, rl, bots, s, T, ws, dec, nchild,
                cchild, deck, rec, W):
    """``play_game`` with search seats (module doc); same arguments, plus the scratch W."""
    for i in range(rec.shape[0]):
        rec[i] = 0.0
    forget_all(ws)
    R = pile.shape[0]
    cap = rl[R_CAP]
    total_tokens = tk[TK_SUP]
    total_busts = tk[TK_BSUP]
    for q in range(P):
        total_tokens += tk[q]
        total_busts += tk[5 + q]
    a = active
    first = True
    last = -1  # lead changes and the leader at three quarters (whole_engine.note_lead)
    changes = 0
    lead3q = -1
    marked = False
    while True:
        bot = bots[a]
        dkind = int(bot[B_DRAW])
        searching = dkind == D_SEARCH
        if searching:  # its heuristic, where it does not search
            dkind = D_TOTAL
        N = C = ntab = ncur = na = cb = 0
        if first:
            N, C, ntab, ncur, na, cb = tableau_state(cards, dkind == D_EXACT, nchild, cchild)
        drawn = ntab > 0 or forced != F_NONE
        outcome = 0  # 1 numbers, 2 currency, 3 number bust, 4 currency bust, 5 a forced buy
        fbuy = -1
        after = -1
        while True:
            if forced >= F_BUYNONE:  # a position in a buy phase or an auction (decide)
                if forced < F_BID0:
                    fbuy = forced - F_BUY0
                    forced = F_NONE
                    outcome = 5
                    break
                w, fq, fx, cur0, win0, first_bidder = unpack_bid(forced - F_BID0)
                auction(a, w, P, cards, tk, rl, bots, s, T, ws, rec, fq, fx, cur0, win0,
                        first_bidder)
                rec[G_WILDS] += 1
                forced = F_NONE
                drawn = True
                continue
            go = True
            if forced == F_NUMBERS or forced == F_CURRENCY:
                go = False
            elif forced == F_DRAW:
                go = True
            elif drawn:
                if searching and bot[S_DRAWS] > 0:
                    code = search_draw(a, N, C, R - pos, P, cards, tk, rl, T, ws, dec, nchild,
                                       cchild, deck, W)
                    go = code == F_DRAW
                    if not go:
                        forced = code
                else:
                    go = pos < R and bot_draws(bot, dkind, N, C, ntab, ncur, na, cb, R - pos, a,
                                               cards, tk, rl, s, ws, dec)
            if go and pos >= R:
                go = False
            if not go:
                outcome, after = stop_outcome(forced, a, C, P, bot, cards, tk, rl, s, T,
                                              ws)
                forced = F_NONE
                break
            forced = F_NONE
            drawn = True
            c = pile[pos]
            pos += 1
            cards[ROW_PILE, c] -= 1
            if c >= CW0:
                rec[G_WILDS] += 1
                if rl[R_AUCTIONS] == 1:
                    search_auction(a, np.int64(c), P, cards, tk, rl, bots, s, T, ws, rec, dec,
                                   nchild, cchild, deck, W)
                else:
                    cards[ROW_OUT, c] += 1
                    rec[G_WDISC] += 1
                continue
            N, C, ntab, ncur, na, cb, outcome = lay_card(c, dkind == D_EXACT, N, C, ntab,
                                                         ncur, na, cb, cards, rl,
                                                         nchild, cchild)
            if outcome != 0:
                break
        settle_turn(a, outcome, C, after, first, fbuy, P, cards, tk, rl, T, ws, rec)
        if outcome == 1 and rl[R_BUYS] == 1:
            if searching and bot[S_BUYS] > 0:
                code = search_buy(a, P, cards, tk, rl, T, ws, dec, nchild, cchild, deck, W)
                if code >= F_BUY0:
                    forced_buy(a, code - F_BUY0, cards, tk, rl, T, ws, rec)
            else:
                buy_phase(a, cards, tk, rl, bot, s, T, ws, rec)
        rec[G_TURNS] += 1
        first = False
        if rl[R_CHECK] == 1:
            rec[G_VIOL] += _check(cards, tk, deck, total_tokens, total_busts, cap, P)
        last, changes, lead3q, marked = note_lead(P, cards, tk, T, ws, pos, R, last, changes,
                                                  lead3q, marked)
        if pos >= R:
            break
        a = (a + 1) % P
    if rl[R_BUYS] == 1:
        order = W[W_ORDER]
        for i in range(order.shape[0]):
            q = (a + 1 + i) % P
            order[i] = -1 if i >= P or (q == a and rl[R_FINALLAST] == 0) else q
        for i in range(order.shape[0]):
            q = order[i]
            if q < 0:
                continue
            if bots[q, B_DRAW] == D_SEARCH and bots[q, S_BUYS] > 0:
                code = search_final_buy(q, order, i, P, cards, tk, rl, s, T, ws, dec, nchild,
                                        cchild, deck, W)
                if code >= F_BUY0:
                    forced_buy(q, code - F_BUY0, cards, tk, rl, T, ws, rec)
            else:
                buy_phase(q, cards, tk, rl, bots[q], s, T, ws, rec)
        if rl[R_CHECK] == 1:
            rec[G_VIOL] += _check(cards, tk, deck, total_tokens, total_busts, cap, P)
    score_end(P, cards, tk, T, ws, rec)
    end_lead(P, cards, tk, T, ws, rec, last, changes, lead3q, rl[R_BUYS] == 1)
    return a


@njit(cache=True)
def _add(acc, rec, k, K, P, ref, lg):
    """Add a game's record of line-up k to the block's sums (whole_blocks.add_game's columns,
    then EXTRA)."""
    add_game(acc, rec, k, K, P, ref)
    e = acc.shape[0] - 3
    acc[e] += lg[LG_SEARCHED]
    acc[e + 1] += lg[LG_NS]
    acc[e + 2] += lg[LG_PLAYOUTS]


@njit(cache=True, parallel=True)
def search_game_blocks(keys, counts, base, deck, P, rl, bots, tabs, dec, nchild, cchild):
    """``whole_blocks.game_blocks`` for line-ups that may hold search seats: the same columns on
    the same games (common random numbers), then the EXTRA columns."""
    nb = keys.shape[0]
    K = bots.shape[0]
    out = np.zeros((nb, K * LW + (K - 1) * DW + len(EXTRA)), dtype=np.float64)
    zero = np.int64(0)
    for b in prange(nb):
        pile = np.empty_like(base)
        cards = np.zeros((9, NTYPES), dtype=np.int64)
        tk = np.zeros(NTK, dtype=np.int64)
        s = np.zeros(4, dtype=np.uint64)
        ws = np.zeros(WS_SIZE, dtype=np.int64)
        rec = np.zeros(NREC, dtype=np.float64)
        ref = np.zeros(2 * P, dtype=np.float64)
        acc = np.zeros(out.shape[1], dtype=np.float64)
        W = scratch(P, base.shape[0])
        lg = W[W_LG]
        for t in range(counts[b]):
            for k in range(K):
                seed_trial(keys[b], t, s)
                new_game(pile, base, cards, tk, deck, rl, P, s)
                for i in range(lg.shape[0]):
                    lg[i] = 0
                if has_search(bots[k]):
                    begin(bots[k], keys[b], t, W)
                    search_play(pile, zero, zero, zero, P, cards, tk, rl, bots[k], s, tabs, ws,
                                dec, nchild, cchild, deck, rec, W)
                else:
                    play_game(pile, 0, 0, F_NONE, P, cards, tk, rl, bots[k], s, tabs, ws, dec,
                              nchild, cchild, deck, rec)
                _add(acc, rec, k, K, P, ref, lg)
        for c in range(out.shape[1]):
            out[b, c] = acc[c]
    return out


@njit(cache=True, parallel=True)
def search_position_blocks(keys, counts, unseen, deal, cards0, tk0, active, me, choices, deck, P,
                           rl, bots, tabs, dec, nchild, cchild):
    """``whole_blocks.position_blocks`` when the position's bots hold search seats: the same
    columns (per choice Σwin, then Σ w_i·w_j for every pair i <= j, whole_blocks.cross_column);
    ``deal`` 0 plays the pile ``unseen`` as given (calibrate's truth)."""
    nb = keys.shape[0]
    K = choices.shape[0]
    out = np.zeros((nb, K + K * (K + 1) // 2), dtype=np.float64)
    zero = np.int64(0)
    L = 0
    for t in range(NTYPES):
        L += deck[t]
    for b in prange(nb):
        pile = np.empty_like(unseen)
        cards = np.zeros((9, NTYPES), dtype=np.int64)
        tk = np.zeros(NTK, dtype=np.int64)
        s = np.zeros(4, dtype=np.uint64)
        ws = np.zeros(WS_SIZE, dtype=np.int64)
        rec = np.zeros(NREC, dtype=np.float64)
        w = np.zeros(K, dtype=np.float64)
        acc = np.zeros(out.shape[1], dtype=np.float64)
        W = scratch(P, L)
        for t in range(counts[b]):
            for k in range(K):
                seed_trial(keys[b], t, s)
                if deal == 1:
                    shuffle(pile, unseen, s)
                else:
                    for i in range(unseen.shape[0]):
                        pile[i] = unseen[i]
                cards[:, :] = cards0
                tk[:] = tk0
                begin(bots, keys[b], t, W)
                search_play(pile, zero, active, choices[k], P, cards, tk, rl, bots, s, tabs, ws,
                            dec, nchild, cchild, deck, rec, W)
                w[k] = rec[G_WIN + me]
            c = K
            for i in range(K):
                acc[i] += w[i]
                for j in range(i, K):
                    acc[c] += w[i] * w[j]
                    c += 1
        for c in range(out.shape[1]):
            out[b, c] = acc[c]
    return out


@njit(cache=True)
def search_game_details(key, n, base, deck, P, rl, bots, tabs, dec, nchild, cchild):
    """``whole_blocks.game_details`` for a line-up that may hold search seats (bots[0]): per-game
    records float64[n, NREC], final card rows int64[n, 9, 55] and tokens int64[n, NTK]."""
    recs = np.zeros((n, NREC), dtype=np.float64)
    finals = np.zeros((n, 9, NTYPES), dtype=np.int64)
    toks = np.zeros((n, NTK), dtype=np.int64)
    pile = np.empty_like(base)
    cards = np.zeros((9, NTYPES), dtype=np.int64)
    tk = np.zeros(NTK, dtype=np.int64)
    s = np.zeros(4, dtype=np.uint64)
    ws = np.zeros(WS_SIZE, dtype=np.int64)
    W = scratch(P, base.shape[0])
    zero = np.int64(0)
    for t in range(n):
        seed_trial(key, t, s)
        new_game(pile, base, cards, tk, deck, rl, P, s)
        begin(bots[0], key, t, W)
        search_play(pile, zero, zero, zero, P, cards, tk, rl, bots[0], s, tabs, ws, dec, nchild,
                    cchild, deck, recs[t], W)
        finals[t] = cards
        toks[t] = tk
    return recs, finals, toks
