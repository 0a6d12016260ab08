"""Railroad Canasta: the round engine (deal, draw or take, meld, discard, kitty, end) in Numba.

Card types and the state layout are in ``kernels/canasta/layout.py``, the melding algorithms in
``kernels/canasta/meld.py`` (both imported and re-exported here); this module holds the turn flow.

Model
-----
Cards are *types* (suits never matter except red/black threes): 0 joker, 1 two, 2 red three,
3 black three, 4..14 the natural ranks 4, 5, 6, 7, 8, 9, 10, J, Q, K, A (type = rank number).
A hand, a kitty or the discard pile is a vector of 15 counts; the stock is an array of types.
Every player has one *meld slot* per natural rank plus slot 0 for the wild meld; ``un[p, r]``
holds (naturals, jokers, twos) of that unfinished meld. When a slot reaches 7 cards it is closed,
classified (red / black / wild / sevens) and emptied, so a new meld of that rank may start.
The discard pile is a count vector plus its top card and the frozen flag; a black three on top
is the one-turn block (the next discard covers it). All rules follow
``docs/rules/canasta.md`` and reach the kernel as the integer vector ``rp``.

Algorithm (one round)
---------------------
Deal 13 + 11 per player from a Fisher–Yates shuffle (per-trial xoshiro256** stream), place dealt
red threes, turn the up-card, then loop over turns from the dealer's left:
draw two (or take the pile when the policy wants and the rules allow), meld (initial requirement
plan, then natural melds, wild meld, black completions, always keeping a legal discard in hand),
go out when the policy wants and a plan exists that melds all but one non-seven card, else
discard the least useful legal card, then the automatic kitty pick-up. With no legal discard
the round ends: a sevens lock when the hand holds sevens (only sevens, or a single seven), else a
stall (a single card that is not a seven, typically after drawing only red threes), scored the
same way but counted apart. The round ends by going out, a sevens lock, a stall, or a draw from
an empty stock (``END_*`` in layout.py). Scores follow section 7 of docs/rules/canasta.md.

Policies are integer vectors (one row per seat), see ``P_*`` in layout.py: ``greedy`` goes
out as soon as it can; ``builder`` waits for a number of canastas (or a low stock). A policy may
instead decide taking the pile and going out by rule tables (``by_table``; rows of guard and
test conditions over the features ``F_*`` of layout.py), which is how ``canasta advice`` plays
its rules of thumb.

Speed (issue 16): the turn loop and every function it calls are compiled with ``_nrt=False``,
without Numba's reference counting. With it, each call incremented and decremented the count of
every array argument (calls into the runtime, several per call and a few dozen calls a
turn), which was over half of a round's time; nothing in a round allocates, so nothing needs
counting. Only the functions that allocate keep it (``new_state``, ``debug_round``, meld.py's
``completes_four_types`` and the block drivers of trials.py). A function compiled without it
may not allocate or return a new array, and passes the flag on to the functions it calls that
do not set their own. The games, the random numbers and the sums are unchanged (tested in
tests/test_canasta_fast.py against the engine before the change).
"""
import numpy as np
from numba import njit

from kernels.canasta.layout import (  # noqa: F401  (re-exported for callers)
    BLACK3, COPIES, CT_BLACK, CT_RED, CT_SEVENS, CT_WILD, C_CUM, C_FIRSTMELD, C_KON, C_KTURN,
    C_MELDED, C_MVAL, C_OUT, C_OWNTURNS, C_R3, C_REQ, C_SCORE, END_CAP, END_LOCK, END_OUT,
    END_STALL, END_STOCK, G_CUR, G_END, G_FROZEN, G_PN,
    G_SEND, G_SP, G_TOP, G_TURNS, JOKER, NG, NPL, NPOL, NRULES, NT, NV, P_BLACKNAT, P_FLOOR,
    P_GOMIN, P_GON, P_GOT, P_TAKE, P_TAKEMIN, P_TAKEN, P_TAKET, P_WILDMIN, RED3, TROW, OP_LE,
    F_CANASTAS, F_HAND, F_LEAD, F_OPPCAN, F_OPPHAND, F_PILE, F_STOCK, R_BBLACK, R_BRED, R_BSEV, R_BWILD, R_GOBONUS,
    R_HAND, R_KITTY, R_LOCKREQ, R_MAXROUNDS, R_MAXW, R_NP, R_R3BONUS, R_R3REPL, R_TARGET, R_W7,
    R_WILDUP, SEVEN, TWO, VAL, V_EMPTY, V_GOOUT, V_MELD, V_SEVEN)
from kernels.canasta.meld import (  # noqa: F401  (re-exported for callers)
    apply_plan, discardable, go_out_card, hand_size, has_four_types, meld_all, meld_phase,
    plan_cards, plan_initial, plan_sevens, put, sevens_free, wild_ok)
from kernels.rng import randint, seed_trial
from kernels.widen import plain_types


@njit(cache=True, _nrt=False)
def choose_discard(p, hand, un, pile_frozen, nplayers, free7):
    """Least useful legal discard: black threes, then unsafe-last naturals by (safety, copies
    held, own meld, higher value first), wilds last (a two before a joker). Returns -1 if no
    legal discard exists.

    As keys: 0 for a black three; 10000·unsafe + 1000·min(copies, 3) + 500·own + (50 − value)
    (at most 13545) for a natural; 100000 + value for a wild; the smallest key wins, the lower
    type on a tie. So a black three wins outright, a wild only when no natural may go, and only
    the naturals need their keys compared."""
    if hand_size(hand, p) < 2:
        return -1
    if hand[p, BLACK3] > 0:
        return BLACK3
    best = -1
    best_key = 1 << 40
    for c in range(4, NT):
        if hand[p, c] == 0 or (c == SEVEN and not free7):
            continue
        unsafe = 0
        if pile_frozen == 0:
            for q in range(nplayers):
                if q != p and un[q, c, 0] + un[q, c, 1] + un[q, c, 2] > 0:
                    unsafe = 1
        own = 1 if un[p, c, 0] > 0 else 0
        key = 10000 * unsafe + 1000 * min(hand[p, c], 3) + 500 * own + (50 - VAL[c])
        if key < best_key:
            best_key = key
            best = c
    if best >= 0:
        return best
    if hand[p, TWO] > 0:
        return TWO
    if hand[p, JOKER] > 0:
        return JOKER
    return -1


@njit(cache=True, _nrt=False)
def place_red3(p, hand, pl):
    k = hand[p, RED3]
    if k > 0:
        pl[p, C_R3] += k
        hand[p, RED3] = 0
    return k


@plain_types
@njit(cache=True, _nrt=False)
def draw_cards(p, k, hand, pl, stock, g, rp):
    """Draw ``k`` stock cards (fewer if the stock runs short); red threes are placed at once,
    and replaced from the stock when the ``red3_replace`` option is on."""
    while k > 0 and g[G_SP] < g[G_SEND]:
        c = stock[g[G_SP]]
        g[G_SP] += 1
        if c == RED3:
            pl[p, C_R3] += 1
            if rp[R_R3REPL] == 1:
                continue
        else:
            hand[p, c] += 1
        k -= 1


@njit(cache=True, _nrt=False)
def take_option(p, hand, un, can, pl, rp, pile, g, free7, tmp, out):
    """How player ``p`` may take the pile: 0 no, 1 add the top card to an unfinished meld
    (unfrozen pile), 2 natural pair + top (on a new meld or joining the unfinished one, which
    needs room for 3), 3 the pair method as the initial meld (plan in ``out``)."""
    if g[G_PN] == 0:
        return 0
    t = g[G_TOP]
    if t <= BLACK3:
        return 0
    size = un[p, t, 0] + un[p, t, 1] + un[p, t, 2]
    # the hand after taking: hand + pile (red threes leave) - melded cards
    after = hand_size(hand, p) + g[G_PN] - pile[RED3]
    disc_after = after
    if not free7:
        disc_after -= hand[p, SEVEN] + pile[SEVEN]
    if pl[p, C_MELDED] == 1:
        if g[G_FROZEN] == 0 and size > 0:
            if after - 1 >= 2 and disc_after - (1 if (t != SEVEN or free7) else 0) >= 1:
                return 1
        if hand[p, t] >= 2 and size + 3 <= 7:
            d = 3 if (t != SEVEN or free7) else 0
            if after - 3 >= 2 and disc_after - d >= 1:
                return 2
        return 0
    if hand[p, t] < 2:
        return 0
    for c in range(NT):
        tmp[c] = hand[p, c]
    tmp[t] += 1
    v = plan_initial(tmp, pl[p, C_REQ], rp, out)
    if v < 0:
        return 0
    k = plan_cards(out)
    d = k if free7 else k - plan_sevens(out)
    if after - k >= 2 and disc_after - d >= 1:
        return 3
    return 0


@njit(cache=True, _nrt=False)
def take_pile(p, how, hand, un, can, pl, mcnt, rp, pile, g, out, viol):
    t = g[G_TOP]
    for c in range(NT):
        hand[p, c] += pile[c]
        pile[c] = 0
    place_red3(p, hand, pl)
    g[G_PN] = 0
    g[G_FROZEN] = 0
    g[G_TOP] = -1
    if how == 1:
        put(p, t, 1, 0, 0, hand, un, can, pl, mcnt, rp, viol)
    elif how == 2:
        put(p, t, 3, 0, 0, hand, un, can, pl, mcnt, rp, viol)
    else:
        apply_plan(p, out, hand, un, can, pl, mcnt, rp, viol)


@njit(cache=True, _nrt=False)
def lock_melds(p, hand, un, can, pl, mcnt, rp, viol):
    """Sevens lock: meld as many sevens as the normal rules allow, even emptying the hand.

    A player who has not melded needs 3+ sevens for a new meld, and (only with the knob
    ``lock_meld_needs_requirement``) their value must reach the initial requirement."""
    c = hand[p, SEVEN]
    if pl[p, C_MELDED] == 0:
        if rp[R_LOCKREQ] == 1 and min(c, 7) * VAL[SEVEN] < pl[p, C_REQ]:
            return
        if c < 3:
            return
    while hand[p, SEVEN] > 0:
        c = hand[p, SEVEN]
        size = un[p, SEVEN, 0] + un[p, SEVEN, 1] + un[p, SEVEN, 2]
        if size > 0:
            put(p, SEVEN, min(c, 7 - size), 0, 0, hand, un, can, pl, mcnt, rp, viol)
        elif c >= 3:
            put(p, SEVEN, min(c, 7), 0, 0, hand, un, can, pl, mcnt, rp, viol)
        else:
            break


@njit(cache=True, _nrt=False)
def requirement(score, thr, reqv):
    """Initial-meld minimum for a cumulative score: bands split at the thresholds."""
    k = 0
    for i in range(thr.shape[0]):
        if score >= thr[i]:
            k = i + 1
    return reqv[k]


@njit(cache=True, _nrt=False)
def deal(s, dealer, hand, kit, un, can, pl, mcnt, stock, pile, g, rp, thr, reqv):
    """Shuffle 106·P cards and deal 13 + 11 each; place dealt red threes; turn the up-card."""
    P = rp[R_NP]
    n = 0
    for c in range(NT):
        for _ in range(COPIES[c] * P):
            stock[n] = c
            n += 1
    for i in range(n - 1, 0, -1):
        j = randint(s, i + 1)
        tmp = stock[i]
        stock[i] = stock[j]
        stock[j] = tmp
    for p in range(P):
        for c in range(NT):
            hand[p, c] = 0
            kit[p, c] = 0
            mcnt[p, c] = 0
            un[p, c, 0] = 0
            un[p, c, 1] = 0
            un[p, c, 2] = 0
        for k in range(4):
            can[p, k] = 0
        cum = pl[p, C_CUM]
        for k in range(NPL):
            pl[p, k] = 0
        pl[p, C_CUM] = cum
        pl[p, C_KON] = 1
        pl[p, C_KTURN] = -1
        pl[p, C_REQ] = requirement(cum, thr, reqv)
    pos = 0
    for k in range(P):
        p = (dealer + 1 + k) % P
        for _ in range(rp[R_HAND]):
            hand[p, stock[pos]] += 1
            pos += 1
    for k in range(P):
        p = (dealer + 1 + k) % P
        for _ in range(rp[R_KITTY]):
            kit[p, stock[pos]] += 1
            pos += 1
    g[G_SP] = pos
    g[G_SEND] = n
    for p in range(P):
        k = hand[p, RED3]
        if k > 0:
            place_red3(p, hand, pl)
            if rp[R_R3REPL] == 1:
                draw_cards(p, k, hand, pl, stock, g, rp)
    for c in range(NT):
        pile[c] = 0
    up = stock[g[G_SP]]
    g[G_SP] += 1
    pile[up] = 1
    g[G_PN] = 1
    g[G_TOP] = up
    g[G_FROZEN] = 1 if (up == RED3 or (up <= TWO and rp[R_WILDUP] == 1)) else 0
    g[G_TURNS] = 0
    g[G_END] = 0
    g[G_CUR] = (dealer + 1) % P


@njit(cache=True, _nrt=False)
def rule_feature(f, p, hand, can, pl, g, P):
    """Feature ``f`` (``F_*`` of layout.py) as seat p sees it."""
    if f == F_PILE:
        return g[G_PN]
    if f == F_STOCK:
        return g[G_SEND] - g[G_SP]
    if f == F_CANASTAS:
        return can[p, 0] + can[p, 1] + can[p, 2] + can[p, 3]
    if f == F_HAND:
        return hand_size(hand, p)
    if f == F_OPPHAND:
        fewest = 1 << 40
        for o in range(P):
            if o != p and hand_size(hand, o) < fewest:
                fewest = hand_size(hand, o)
        return fewest
    if f == F_OPPCAN or f == F_LEAD:
        most = -(1 << 40)
        for o in range(P):
            if o != p:
                v = pl[o, C_CUM]
                if f == F_OPPCAN:
                    v = can[o, 0] + can[o, 1] + can[o, 2] + can[o, 3]
                if v > most:
                    most = v
        return pl[p, C_CUM] - most if f == F_LEAD else most
    return 0


@plain_types
@njit(cache=True, _nrt=False)
def by_table(pol, p, col, hand, can, pl, g, P):
    """The rule table of ``pol[p, col]`` rows from ``col + 1`` (layout.py): the first row whose
    guard holds answers whether its test holds; no row holding answers no."""
    for r in range(pol[p, col]):
        at = col + 1 + r * TROW
        x = rule_feature(pol[p, at], p, hand, can, pl, g, P)
        if (x <= pol[p, at + 2]) if pol[p, at + 1] == OP_LE else (x >= pol[p, at + 2]):
            y = rule_feature(pol[p, at + 3], p, hand, can, pl, g, P)
            return (y <= pol[p, at + 5]) if pol[p, at + 4] == OP_LE else (y >= pol[p, at + 5])
    return False


# The record block of a recording run (kernels/canasta/record.py), past the NG words of ``g``:
# studied seat, capacity, the current game's index, the number of records met, then records of
# RW words: game index, decision (D_TAKE / D_GO), the features F_PILE … F_LEAD, 1 for take / go.
R_SEAT, R_CAP, R_GAME, R_N = 0, 1, 2, 3
RHEAD = 4
NREC = F_LEAD - F_PILE + 1       # features recorded
RW = NREC + 3                    # game index, decision, features, choice
D_TAKE, D_GO = 0, 1


@plain_types
@njit(cache=True, _nrt=False)
def table_says(pol, p, col, hand, can, pl, g, P):
    """:func:`by_table`; on a recording run (``g`` longer than NG) also the studied seat's
    record (:func:`record_choice`). A plain run pays one length test per table decision."""
    yes = by_table(pol, p, col, hand, can, pl, g, P)
    if g.shape[0] > NG:
        record_choice(pol, p, col, hand, can, pl, g, P, yes)
    return yes


@njit(cache=True, _nrt=False)
def record_choice(pol, p, col, hand, can, pl, g, P, yes):
    """Append the table's answer ``yes`` when seat p is the studied one and the choice was
    free: with the stock empty the pile is taken whatever the table says, so that is no
    decision. Records past the capacity are counted but dropped."""
    forced = col == P_TAKEN and g[G_SP] >= g[G_SEND]
    if p == g[NG + R_SEAT] and not forced:
        k = g[NG + R_N]
        if k < g[NG + R_CAP]:
            at = NG + RHEAD + k * RW
            g[at] = g[NG + R_GAME]
            g[at + 1] = D_TAKE if col == P_TAKEN else D_GO
            for i in range(NREC):
                g[at + 2 + i] = rule_feature(F_PILE + i, p, hand, can, pl, g, P)
            g[at + 2 + NREC] = 1 if yes else 0
        g[NG + R_N] = k + 1


@njit(cache=True, _nrt=False)
def wants_out(p, pol, can, g):
    tot = can[p, 0] + can[p, 1] + can[p, 2] + can[p, 3]
    return tot >= pol[p, P_GOMIN] or g[G_SEND] - g[G_SP] <= pol[p, P_FLOOR]


@plain_types
@njit(cache=True, _nrt=False)
def play_turns(hand, kit, un, can, pl, mcnt, stock, pile, g, rp, pol, viol, tmp, out,
               skip_draw, force_take, force_go, stop_p, stop_turns):
    """Play from the current state until the round ends (or player ``stop_p`` has had
    ``stop_turns`` turns). The first turn may skip its draw (a position after drawing) and may
    force the pile decision (``force_take`` 0 draw / 1 take / -1 policy) or the going-out
    decision (``force_go`` 0 play on / 1 go out / -1 policy). Returns 0, or -1 when a forced
    choice is not legal."""
    P = rp[R_NP]
    first = True
    while True:
        p = g[G_CUR]
        if stop_p >= 0 and p == stop_p and pl[p, C_OWNTURNS] >= stop_turns:
            g[G_END] = END_CAP
            return 0
        g[G_TURNS] += 1
        pl[p, C_OWNTURNS] += 1
        free7 = sevens_free(can, P)
        if not (first and skip_draw):
            how = take_option(p, hand, un, can, pl, rp, pile, g, free7, tmp, out)
            if pol[p, P_TAKEN] > 0:
                take = how > 0 and table_says(pol, p, P_TAKEN, hand, can, pl, g, P)
            else:
                take = how > 0 and pol[p, P_TAKE] == 1 and g[G_PN] >= pol[p, P_TAKEMIN]
            if g[G_SP] >= g[G_SEND]:
                take = how > 0
            if first and force_take >= 0:
                if force_take == 1 and how == 0:
                    return -1
                take = force_take == 1
                if not take and g[G_SP] >= g[G_SEND]:
                    return -1
            if take:
                take_pile(p, how, hand, un, can, pl, mcnt, rp, pile, g, out, viol)
            else:
                if g[G_SP] >= g[G_SEND]:
                    g[G_END] = END_STOCK
                    return 0
                draw_cards(p, 2, hand, pl, stock, g, rp)
        free7 = sevens_free(can, P)
        if pl[p, C_MELDED] == 0:
            for c in range(NT):
                tmp[c] = hand[p, c]
            v = plan_initial(tmp, pl[p, C_REQ], rp, out)
            if v >= 0:
                k = plan_cards(out)
                d = k if free7 else k - plan_sevens(out)
                if hand_size(hand, p) - k >= 2 and discardable(hand, p, free7) - d >= 1:
                    apply_plan(p, out, hand, un, can, pl, mcnt, rp, viol)
        if pl[p, C_MELDED] == 1:
            if pl[p, C_FIRSTMELD] == 0:
                pl[p, C_FIRSTMELD] = pl[p, C_OWNTURNS]
            meld_phase(p, hand, un, can, pl, mcnt, rp, pol, viol, free7)
        free7 = sevens_free(can, P)
        go = False
        # the four canasta types are needed at going out: the go-out melds may complete them
        d = go_out_card(p, hand, un, can, pl, mcnt, rp, viol, tmp)
        if d >= 0:
            if pol[p, P_GON] > 0:
                go = table_says(pol, p, P_GON, hand, can, pl, g, P)
            else:
                go = wants_out(p, pol, can, g)
        if first and force_go >= 0:
            if force_go == 1 and d < 0:
                return -1
            go = force_go == 1
        first = False
        if go:
            hand[p, d] -= 1
            for c in range(NT):
                tmp[c] = hand[p, c]
            meld_all(p, tmp, hand, un, can, pl, mcnt, rp, viol, True)
            if hand_size(hand, p) != 0 or d == SEVEN or not has_four_types(can, p):
                viol[V_GOOUT] += 1
            pile[d] += 1
            g[G_PN] += 1
            g[G_TOP] = d
            pl[p, C_OUT] = 1
            g[G_END] = END_OUT
            return 0
        d = choose_discard(p, hand, un, g[G_FROZEN], P, free7)
        if d < 0:
            if hand[p, SEVEN] > 0:
                lock_melds(p, hand, un, can, pl, mcnt, rp, viol)
                g[G_END] = END_LOCK
            else:
                g[G_END] = END_STALL
            return 0
        if d == SEVEN and not sevens_free(can, P):
            viol[V_SEVEN] += 1
        hand[p, d] -= 1
        pile[d] += 1
        g[G_PN] += 1
        g[G_TOP] = d
        if d <= TWO:
            g[G_FROZEN] = 1
        if hand_size(hand, p) == 0:
            viol[V_EMPTY] += 1
        if pl[p, C_KON] == 1 and (can[p, CT_RED] + can[p, CT_WILD] + can[p, CT_SEVENS]) > 0:
            pl[p, C_KON] = 0
            pl[p, C_KTURN] = g[G_TURNS]
            for c in range(NT):
                hand[p, c] += kit[p, c]
                kit[p, c] = 0
            place_red3(p, hand, pl)
        g[G_CUR] = (p + 1) % P


@njit(cache=True, _nrt=False)
def score_round(hand, kit, can, pl, rp):
    """Section 7: bonus for going out + melded cards + canasta bonuses + red threes − hand −
    unpicked kitty. Writes C_SCORE for every player."""
    P = rp[R_NP]
    for p in range(P):
        sc = pl[p, C_MVAL] + pl[p, C_R3] * rp[R_R3BONUS]
        if pl[p, C_OUT] == 1:
            sc += rp[R_GOBONUS]
        sc += (can[p, CT_RED] * rp[R_BRED] + can[p, CT_BLACK] * rp[R_BBLACK]
               + can[p, CT_WILD] * rp[R_BWILD] + can[p, CT_SEVENS] * rp[R_BSEV])
        for c in range(NT):
            sc -= hand[p, c] * VAL[c]
            if pl[p, C_KON] == 1:
                sc -= kit[p, c] * VAL[c]
        pl[p, C_SCORE] = sc


@njit(cache=True)
def new_state(P):
    cap = 106 * P + 8
    hand = np.zeros((P, NT), dtype=np.int64)
    kit = np.zeros((P, NT), dtype=np.int64)
    un = np.zeros((P, NT, 3), dtype=np.int64)
    can = np.zeros((P, 4), dtype=np.int64)
    pl = np.zeros((P, NPL), dtype=np.int64)
    mcnt = np.zeros((P, NT), dtype=np.int64)
    stock = np.zeros(cap, dtype=np.int64)
    pile = np.zeros(NT, dtype=np.int64)
    g = np.zeros(NG, dtype=np.int64)
    return hand, kit, un, can, pl, mcnt, stock, pile, g


@njit(cache=True)
def debug_round(key, t, dealer, cums, rp, pol, thr, reqv):
    """One round on trial ``t``'s stream with all its final state (for property tests)."""
    P = rp[R_NP]
    s = np.zeros(4, dtype=np.uint64)
    seed_trial(key, t, s)
    hand, kit, un, can, pl, mcnt, stock, pile, g = new_state(P)
    viol = np.zeros(NV, dtype=np.int64)
    tmp = np.zeros(NT, dtype=np.int64)
    out = np.zeros((NT, 3), dtype=np.int64)
    for p in range(P):
        pl[p, C_CUM] = cums[p]
    deal(s, dealer, hand, kit, un, can, pl, mcnt, stock, pile, g, rp, thr, reqv)
    play_turns(hand, kit, un, can, pl, mcnt, stock, pile, g, rp, pol, viol, tmp, out,
               False, -1, -1, -1, 0)
    score_round(hand, kit, can, pl, rp)
    return hand, kit, un, can, pl, mcnt, stock, pile, g, viol
