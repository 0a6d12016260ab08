"""Ten, whole games in Numba: draw phase, auctions, stop rewards, busts, buys, the end, scoring.

Model (rules page ``shared/rules/ten.md``; constants in ``kernels/ten/whole_layout.py``)
-----
Seat 0 starts; turns go clockwise until the draw pile is empty. A turn draws one card at a time
(the first draw is mandatory). A wild pauses the draw for an auction: bidders left of the active
player clockwise, the active player last, one chance each to bid above the current bid (an
opening bid is at least 1) or pass; with ``R_MEANS`` nobody bids more than they can pay
(currency tokens + bust tokens × R_BUSTVAL + collection cards); the winner pays and takes the
wild; if all pass the wild is discarded (``R_ALLPASS`` 1: the active player takes it free). A
number card adds its value to N, a currency card to C; T = N − C. Number bust: T ≥ R_BUST on a
number draw; currency bust: C ≥ R_CBUST on a currency draw. A bust gives a bust token (while the
supply lasts), sends the tableau's numbers to the market, and on a number bust every other player
gains C tokens. Stopping (forced when the pile is empty) takes either the numbers (into the
collection; every other player gains C; then a buy phase) or the currency (gain C; numbers to the
market). Every gain is min(C, cap − held, supply). Currency cards are discarded. A buy takes one
market card not identical to an owned number card, price = value, paid as in an auction. After
the turn that draws the last card everyone gets a final buy phase, starting left of that player
(``R_FINALLAST``: the last player included, last). Scores: ``kernels/ten/whole_score.py``; the
winner has the most points, then the most currency tokens, then the fewest cards; a shared win
counts 1/k to each of the k seats.

Payment of a price X (every bot): bust tokens ⌊X/3⌋ (while held), then currency tokens, then one
more bust token if the rest is unpaid (the change is lost), then collection cards one by one,
each time the card whose loss lowers the score least (lowest type on ties).

Randomness: game ``t`` of a block seeds ``s`` with ``seed_trial(key, t)``; the deck is shuffled by
Fisher–Yates from the last position down (``randint(s, i + 1)``), then the random bots draw from
the same stream. Line-ups played on the same trial therefore see the same deck.

Bots (seat rows of ``bots``, layout.py) see only public facts: their collection, the market,
the tokens, the tableau. Draw rules: stop once T ≥ t; once the tableau holds m cards; the exact
one-turn table of a fresh deck (``dec[table, room, a, b]`` with ``a``/``b`` the number/currency
multisets drawn this turn, walked along ``nchild``/``cchild``; room = cap − tokens held; no card
counting); a coin with chance B_PDRAW; K rollouts of the rest of the turn
(``whole_rollout.py``); a rule table over T, C, the tableau's cards, the cards left, the tokens
and bust tokens held (``whole_table.py``). Reward rule W_VALUE: numbers iff
``gain + bonus·new − opp·(tokens the others gain) ≥ min(C, room)/tpp`` where gain is the
collection's score increase and ``new`` the tableau's number types not owned yet. Bids
(A_VALUE): limit = ⌊(score gain of the wild)·tpp⌋, capped by what the bot pays with (tokens, bust
tokens, cards if B_CARDS) and, with R_MEANS, by its means; the active player (last) bids
current + 1 if within its limit, the others bid their limit if above the current bid. Buys
(A_VALUE): the eligible card with the best (gain + bonus)/price, if positive and ≥ B_MINGAIN.
Random choices use ``randint`` (coin = randint(s, 2), chance p: randint(s, 65536) < ⌊65536 p⌋).

Scores and marginal values come from ``whole_seats.py`` (a prepared slot DP per seat, kept
between decisions; a bot's decision hands the new score on when it computed it).

Compilation: the engine and its helpers (``whole_decisions``, ``whole_seats``, ``whole_score``,
``whole_slots``, ``whole_rollout``, ``shuffle``/``new_game``) allocate nothing, so they are
compiled without Numba's reference-counting runtime (``_nrt=False``): every call otherwise
increments and decrements the count of each array argument atomically, which cost more than the
scoring itself (issue 14's profile: 27 % of the time in NRT_incref/NRT_decref). Only the block
drivers, which allocate their scratch arrays, keep it.
"""
from numba import njit

from kernels.rng import randint
from kernels.widen import plain_types
from kernels.ten.whole_layout import (
    B_BAND, B_CUT1, B_CUT2, B_DRAW, B_DRAWP, B_DRAWP2, B_DRAWP3, B_PDRAW, B_REWARD, B_TABLE,
    BAND_DECK, BAND_NONE, CUR0, CW0, D_CARDS, D_EXACT, D_ROLLOUT, D_TABLE, D_TOTAL,
    F_BID0, F_BUY0, F_BUYNONE, F_CURRENCY, F_DRAW, F_NONE, F_NUMBERS, G_AUCTIONS, G_BUSTS, G_CARDS,
    G_CBUSTS, G_FIRSTBUST, G_LEAD3Q, G_LEADCH, G_LEADWIN, G_MARKET,
    G_NBUSTS, G_ROUNDS, G_SCORE, G_SHARE, G_STOPC, G_STOPN, G_TIED, G_TOK, G_TURNS, G_VIOL,
    G_WDISC, G_WILDS, G_WIN, G_WSCORE, NTYPES, ROW_MARKET, ROW_OUT, ROW_PILE, ROW_TABLEAU,
    R_AUCTIONS, R_BUST, R_BUYS, R_CAP, R_CBUST, R_CHECK, R_FINALLAST, R_GAINS, TK_BSUP, TK_SUP,
    W_CURRENCY, W_NUMBERS, W_RANDOM)
from kernels.ten.whole_rollout import rollout_draws
from kernels.ten.whole_decisions import (auction, buy_phase, collection_size, forced_buy,
                                         gain_tokens, unpack_bid, wants_numbers)
from kernels.ten.whole_seats import cached_score, forget_all, grown, numbers_score
from kernels.ten.whole_table import table_draws

DRAW = 2  # the exact table's "draw" decision (kernels/ten.py DEC_DRAW)


@njit(cache=True, _nrt=False)
def strict_leader(P, cards, tk, T, ws):
    """The one seat with the most points now, or −1 when the top is tied (kernels/lead.py)."""
    best = 0
    top = cached_score(0, cards, tk, T, ws)
    tied = False
    for q in range(1, P):
        v = cached_score(q, cards, tk, T, ws)
        if v > top:
            best, top, tied = q, v, False
        elif v == top:
            tied = True
    return -1 if tied else best


@njit(cache=True, _nrt=False)
def _check(cards, tk, deck, total_tokens, total_busts, cap, P):
    """Conservation: every card type and token accounted for, nobody above the cap."""
    bad = 0
    for t in range(NTYPES):
        n = 0
        for r in range(9):
            n += cards[r, t]
            if cards[r, t] < 0:
                bad += 1
        if n != deck[t]:
            bad += 1
    st = tk[TK_SUP]
    sb = tk[TK_BSUP]
    for q in range(P):
        st += tk[q]
        sb += tk[5 + q]
        if tk[q] > cap or tk[q] < 0 or tk[5 + q] < 0:
            bad += 1
    if st != total_tokens or sb != total_busts or tk[TK_SUP] < 0 or tk[TK_BSUP] < 0:
        bad += 1
    return bad


@njit(cache=True, _nrt=False)
def banded_bound(bot, left, tokens):
    """The threshold bot's stop bound: B_DRAWP, or by bands of the cards left in the draw pile or
    of the tokens held (whole_layout.py B_BAND)."""
    band = int(bot[B_BAND])
    if band == BAND_NONE:
        return bot[B_DRAWP]
    v = left if band == BAND_DECK else tokens
    if v < bot[B_CUT1]:
        return bot[B_DRAWP]
    if bot[B_CUT2] > 0 and v >= bot[B_CUT2]:
        return bot[B_DRAWP3]
    return bot[B_DRAWP2]


@njit(cache=True, _nrt=False)
def tableau_state(cards, exact, nchild, cchild):
    """The tableau of a position's turn in progress (ROW_TABLEAU): (N, C, cards, currency cards,
    na, cb) with na/cb the nodes of its number/currency multisets in the exact bot's table
    (``exact``; −1 beyond the table, 0 otherwise). A turn's end empties the tableau, so only the
    first turn of ``play_game`` can start with one."""
    N = C = ntab = ncur = na = cb = 0
    for t in range(36):
        k = cards[ROW_TABLEAU, t]
        N += k * (t % 9 + 1)
        ntab += k
        for _ in range(k):
            if na >= 0 and exact:
                na = nchild[na, t % 9]
    for t in range(CUR0, CW0):
        k = cards[ROW_TABLEAU, t]
        C += k * (t - CUR0 + 1)
        ntab += k
        ncur += k
        for _ in range(k):
            if cb >= 0 and exact:
                cb = cchild[cb, t - CUR0]
    return N, C, ntab, ncur, na, cb


@njit(cache=True, _nrt=False)
def bot_draws(bot, dkind, N, C, ntab, ncur, na, cb, left, a, cards, tk, rl, s, ws, dec):
    """Whether seat a's bot draws at a draw check (module doc: the draw rules); the tableau is
    N, C, ``ntab`` cards of which ``ncur`` currency, ``na``/``cb`` its exact-table nodes;
    ``left`` > 0 cards in the pile."""
    if dkind == D_TOTAL:
        return N - C < banded_bound(bot, left, tk[a])
    if dkind == D_CARDS:
        return ntab < bot[B_DRAWP]
    if dkind == D_TABLE:
        return table_draws(bot, N, C, ntab, left, tk[a], tk[5 + a])
    if dkind == D_EXACT:
        room = rl[R_CAP] - tk[a]
        return na < 0 or cb < 0 or dec[int(bot[B_TABLE]), room, na, cb] == DRAW
    if dkind == D_ROLLOUT:
        return rollout_draws(N, C, ntab - ncur, a, cards, tk, rl, bot, s, ws)
    return randint(s, 65536) < int(bot[B_PDRAW] * 65536.0)


@njit(cache=True, _nrt=False)
def stop_outcome(forced, a, C, P, bot, cards, tk, rl, s, T, ws):
    """Seat a stops: (1 numbers or 2 currency, ``after``) by ``forced`` (F_NUMBERS, F_CURRENCY)
    or else its bot's reward rule; ``after`` is the score with the tableau's numbers when the
    rule computed it (−1 otherwise)."""
    if forced == F_NUMBERS:
        return 1, -1
    if forced == F_CURRENCY:
        return 2, -1
    wk = int(bot[B_REWARD])
    if wk == W_NUMBERS:
        return 1, -1
    if wk == W_CURRENCY:
        return 2, -1
    if wk == W_RANDOM:
        return 1 + randint(s, 2), -1
    after = numbers_score(a, cards, tk, T, ws)
    return (1 if wants_numbers(a, C, P, after, cards, tk, rl, bot, T, ws) else 2), after


@plain_types
@njit(cache=True, _nrt=False)
def lay_card(c, exact, N, C, ntab, ncur, na, cb, cards, rl, nchild, cchild):
    """Lay the drawn number or currency card c on the tableau: the new (N, C, ntab, ncur, na,
    cb) and the outcome (3 number bust, 4 currency bust, 0 none)."""
    cards[ROW_TABLEAU, c] += 1
    ntab += 1
    if c < 36:
        N += c % 9 + 1
        if N - C >= rl[R_BUST]:
            return N, C, ntab, ncur, na, cb, 3
        if exact and na >= 0:
            na = nchild[na, c % 9]
    else:
        C += c - CUR0 + 1
        ncur += 1
        if C >= rl[R_CBUST]:
            return N, C, ntab, ncur, na, cb, 4
        if exact and cb >= 0:
            cb = cchild[cb, c - CUR0]
    return N, C, ntab, ncur, na, cb, 0


@njit(cache=True, _nrt=False)
def settle_turn(a, outcome, C, after, first, fbuy, P, cards, tk, rl, T, ws, rec):
    """The end of seat a's turn by its outcome (1 numbers, 2 currency, 3/4 number/currency
    bust, 5 a forced buy of card ``fbuy``): collection, token gains, bust token, records; the
    tableau's numbers to the market, its currency out of the game."""
    cap = rl[R_CAP]
    gains = rl[R_GAINS] == 1
    if outcome == 1:
        rec[G_STOPN] += 1
        for t in range(36):
            cards[a, t] += cards[ROW_TABLEAU, t]
            cards[ROW_TABLEAU, t] = 0
        grown(a, after, cards, tk, T, ws)
        if gains:
            for i in range(1, P):
                gain_tokens((a + i) % P, C, tk, cap)
    elif outcome == 2:
        rec[G_STOPC] += 1
        if gains:
            gain_tokens(a, C, tk, cap)
    elif outcome == 5:
        if fbuy >= 0:
            forced_buy(a, fbuy, cards, tk, rl, T, ws, rec)
    else:
        rec[G_BUSTS] += 1
        if outcome == 3:
            rec[G_NBUSTS] += 1
            if gains:
                for i in range(1, P):
                    gain_tokens((a + i) % P, C, tk, cap)
        else:
            rec[G_CBUSTS] += 1
        if tk[TK_BSUP] > 0:
            tk[TK_BSUP] -= 1
            tk[5 + a] += 1
        if first:
            rec[G_FIRSTBUST] = 1.0
    for t in range(36):  # numbers not taken go to the market
        cards[ROW_MARKET, t] += cards[ROW_TABLEAU, t]
        cards[ROW_TABLEAU, t] = 0
    for t in range(CUR0, CW0):
        cards[ROW_OUT, t] += cards[ROW_TABLEAU, t]
        cards[ROW_TABLEAU, t] = 0


@njit(cache=True, _nrt=False)
def note_lead(P, cards, tk, T, ws, pos, R, last, changes, lead3q, marked):
    """After a turn: the strict leader (strict_leader), counted as a lead change when it differs
    from the last strict leader, and the leader once three quarters of the pile (R cards) are
    drawn. Returns the updated (last leader, changes, leader at 3/4, marked); start at
    (-1, 0, -1, False)."""
    lead = strict_leader(P, cards, tk, T, ws)
    if lead >= 0:
        if last >= 0 and lead != last:
            changes += 1
        last = lead
    if not marked and 4 * pos >= 3 * R:
        marked = True
        lead3q = lead
    return last, changes, lead3q, marked


@njit(cache=True, _nrt=False)
def end_lead(P, cards, tk, T, ws, rec, last, changes, lead3q, buys):
    """The balance figures of a finished game, after score_end has set the win shares: the final
    buy round (``buys``) can change the lead once more."""
    if buys:
        lead = strict_leader(P, cards, tk, T, ws)
        if lead >= 0 and last >= 0 and lead != last:
            changes += 1
    rec[G_LEADCH] = changes
    if lead3q >= 0:
        rec[G_LEAD3Q] = 1.0
        rec[G_LEADWIN] = rec[G_WIN + lead3q]


@njit(cache=True, _nrt=False)
def score_end(P, cards, tk, T, ws, rec):
    """The end of the game: rounds, market size, every seat's score, tokens and cards, and the
    winners (most points, then most tokens, then fewest cards; a shared win counts 1/k)."""
    rec[G_ROUNDS] = (rec[G_TURNS] + P - 1) // P
    for t in range(36):
        rec[G_MARKET] += cards[ROW_MARKET, t]
    best = -1
    for q in range(P):
        rec[G_SCORE + q] = cached_score(q, cards, tk, T, ws)
        rec[G_TOK + q] = tk[q]
        rec[G_CARDS + q] = collection_size(cards, q)
    nwin = 0
    for q in range(P):  # most points, then most tokens, then fewest cards
        better = True
        for r in range(P):
            if r == q:
                continue
            if rec[G_SCORE + r] > rec[G_SCORE + q]:
                better = False
            elif rec[G_SCORE + r] == rec[G_SCORE + q]:
                if rec[G_TOK + r] > rec[G_TOK + q]:
                    better = False
                elif rec[G_TOK + r] == rec[G_TOK + q] and rec[G_CARDS + r] < rec[G_CARDS + q]:
                    better = False
        if better:
            rec[G_WIN + q] = 1.0
            nwin += 1
            best = q
    for q in range(P):
        rec[G_WIN + q] /= nwin
    rec[G_WSCORE] = rec[G_SCORE + best]
    rec[G_TIED] = 1.0 if nwin > 1 else 0.0
    if rec[G_WILDS] > 0:
        rec[G_SHARE] = rec[G_AUCTIONS] / rec[G_WILDS]


@njit(cache=True, _nrt=False)
def play_game(pile, pos, active, forced, P, cards, tk, rl, bots, s, T, ws, dec, nchild, cchild,
              deck, rec):
    """Play from a position to the end; ``pile[pos:]`` is the draw pile in draw order.

    ``cards``/``tk`` hold the position (layout.py), ROW_TABLEAU the active player's tableau (the
    turn in progress; empty at a turn's start, then ``forced`` is F_NONE and the first draw is
    mandatory). ``forced`` (F_DRAW, F_NUMBERS, F_CURRENCY) is the active player's next choice.
    Fills ``rec`` (float64[NREC], layout.REC_NAMES); ``deck`` int64[55] is the whole game's card
    count (for the conservation check).
    """
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
    last = -1  # the last strict leader, lead changes, the leader at three quarters of the pile
    changes = 0
    lead3q = -1
    marked = False
    while True:
        bot = bots[a]
        dkind = int(bot[B_DRAW])
        N = C = ntab = ncur = na = cb = 0  # every turn after the first starts with no tableau
        if first:
            N, C, ntab, ncur, na, cb = tableau_state(cards, dkind == D_EXACT, nchild, cchild)
        drawn = ntab > 0 or forced != F_NONE
        outcome = 0  # 1 numbers, 2 currency, 3 number bust, 4 currency bust, 5 a forced buy
        fbuy = -1
        after = -1  # the score with the tableau's numbers, when the reward rule computed it
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
                go = pos < R and bot_draws(bot, dkind, N, C, ntab, ncur, na, cb, R - pos,
                                           a, cards, tk, rl, s, ws, dec)
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
                    auction(a, c, P, cards, tk, rl, bots, s, T, ws, rec, -1, 0, 0, -1, 1)
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
        for i in range(1, P + 1):
            q = (a + i) % P
            if q == a and rl[R_FINALLAST] == 0:
                continue
            buy_phase(q, cards, tk, rl, bots[q], s, T, ws, rec)
        if rl[R_CHECK] == 1:
            rec[G_VIOL] += _check(cards, tk, deck, total_tokens, total_busts, cap, P)
    score_end(P, cards, tk, T, ws, rec)
    end_lead(P, cards, tk, T, ws, rec, last, changes, lead3q, rl[R_BUYS] == 1)
    return a
