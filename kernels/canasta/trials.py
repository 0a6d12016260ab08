"""Railroad Canasta: parallel Monte Carlo drivers over the round engine (kernels/canasta/engine.py).

Model
-----
Each trial (a whole game, an independent round, a meld-odds opening or a decision position)
runs on its own xoshiro256** stream derived from its block key and index, so results do not
depend on the thread count and paired options share common random numbers. Blocks run in
parallel with ``prange``; scratch state is allocated once per block. Every driver returns
per-block sums (columns documented per kernel) that the runner reduces in block order.
The trial functions run without reference counting like the engine (``_nrt=False``, see
engine.py); the block functions, which allocate the scratch state, and the driver keep it.
The parallel driver (kernels/canasta/driver.py ``mc_blocks``) takes a mode's block function
below as a first-class function.
"""
import numpy as np
from numba import njit, prange

from kernels.canasta.engine import (C_CUM, C_FIRSTMELD, C_KTURN, C_REQ, C_SCORE, END_LOCK,
                                    END_OUT, END_STALL, END_STOCK, G_END, G_SEND, G_SP, G_TURNS,
                                    NG, NPL, NT, NV, R_KITTY, R_MAXROUNDS, R_NP, R_TARGET, deal,
                                    new_state, plan_initial, play_turns, score_round)
from kernels.rng import randint, seed_trial

NROUNDSTAT = 12  # per-round quantities (see round_stats)
#: game-length histogram of ``game_trial``: games of 1 … NRH − 1 rounds, then NRH or more
NRH = 30
#: columns ``game_trial`` adds after the games won by the first mover (balance figures):
#: Σ lead changes, Σ lead changes², games with a strict leader when a player first reached
#: three quarters of the target, games that leader won, Σ winner's margin, Σ margin², then
#: the rounds histogram
GAME_EXTRA = 6 + NRH
MODE_GAMES = 0
MODE_ROUNDS = 1
MODE_MELD = 2
MODE_DECIDE = 3


@njit(cache=True, _nrt=False)
def play_game(s, rp, pol, thr, reqv, state, viol, tmp, out, rs):
    """A game to ``target``: random first dealer, dealer rotates left; continues while the
    leader at or above the target is tied. Fills ``rs`` with per-game sums of the round
    quantities and returns (rounds, winning seat or -1, seat that moved first in round 1, lead
    changes, the strict leader at the end of the first round in which a player reached three
    quarters of the target or -1, the winner's margin over the runner-up in points).

    The strict leader after a round is the one seat with the most cumulative points (none on a
    tie); a lead change is a round after which it is a seat other than the last strict leader
    (kernels/lead.py states the same definitions for the turn-by-turn games)."""
    hand, kit, un, can, pl, mcnt, stock, pile, g = state
    P = rp[R_NP]
    for k in range(NROUNDSTAT):
        rs[k] = 0.0
    for p in range(P):
        pl[p, C_CUM] = 0
    dealer = randint(s, P)
    starter = (dealer + 1) % P
    rounds = 0
    last = -1
    changes = 0
    lead3q = -1
    reached = False
    while True:
        deal(s, dealer, hand, kit, un, can, pl, mcnt, stock, pile, g, rp, thr, reqv)
        play_turns(hand, kit, un, can, pl, mcnt, stock, pile, g, rp, pol, viol, tmp, out,
                   False, -1, -1, -1, 0)
        score_round(hand, kit, can, pl, rp)
        rounds += 1
        round_stats(pl, can, g, rp, rs)
        best = -(1 << 60)
        nbest = 0
        seat = -1
        for p in range(P):
            pl[p, C_CUM] += pl[p, C_SCORE]
            if pl[p, C_CUM] > best:
                best = pl[p, C_CUM]
                nbest = 1
                seat = p
            elif pl[p, C_CUM] == best:
                nbest += 1
        lead = seat if nbest == 1 else -1
        if lead >= 0:
            if last >= 0 and lead != last:
                changes += 1
            last = lead
        if not reached and 4 * best >= 3 * rp[R_TARGET]:
            reached = True
            lead3q = lead
        if (best >= rp[R_TARGET] and nbest == 1) or rounds >= rp[R_MAXROUNDS]:
            second = -(1 << 60)
            for p in range(P):
                if p != seat and pl[p, C_CUM] > second:
                    second = pl[p, C_CUM]
            if nbest > 1:
                seat = -1
            return rounds, seat, starter, changes, lead3q, best - second
        dealer = (dealer + 1) % P


@njit(cache=True, _nrt=False)
def round_stats(pl, can, g, rp, rs):
    """Add one round to ``rs``: 0 turns, 1 went out, 2 sevens lock, 3 stock exhausted,
    4..7 red/black/wild/sevens canastas (all players), 8 kitty pick-ups, 9 their turn numbers,
    10 mean points per player, 11 stall."""
    P = rp[R_NP]
    rs[0] += g[G_TURNS]
    rs[1] += 1.0 if g[G_END] == END_OUT else 0.0
    rs[2] += 1.0 if g[G_END] == END_LOCK else 0.0
    rs[3] += 1.0 if g[G_END] == END_STOCK else 0.0
    rs[11] += 1.0 if g[G_END] == END_STALL else 0.0
    pts = 0.0
    for p in range(P):
        for k in range(4):
            rs[4 + k] += can[p, k]
        if pl[p, C_KTURN] >= 0:
            rs[8] += 1.0
            rs[9] += pl[p, C_KTURN]
        pts += pl[p, C_SCORE]
    rs[10] += pts / P


@njit(cache=True, _nrt=False)
def game_trial(s, rp, pol, thr, reqv, state, viol, tmp, out, rs, row):
    """Columns: 0 games, 1 Σrounds, 2 Σrounds², 3 games stopped by the round cap, 4..4+P-1
    wins per seat, then for each round quantity X (summed over the game's rounds) ΣX, ΣX²,
    ΣX·rounds, then Σ X8·X9 (kitty pick-ups × their turn sum), then games won by the player
    who moved first in round 1, then the :data:`GAME_EXTRA` balance columns."""
    P = rp[R_NP]
    base = 4 + P
    rounds, seat, starter, changes, lead3q, margin = play_game(s, rp, pol, thr, reqv, state,
                                                               viol, tmp, out, rs)
    row[0] += 1
    row[1] += rounds
    row[2] += rounds * rounds
    if rounds >= rp[R_MAXROUNDS]:
        row[3] += 1
    if seat >= 0:
        row[4 + seat] += 1
    for k in range(NROUNDSTAT):
        x = rs[k]
        row[base + 3 * k] += x
        row[base + 3 * k + 1] += x * x
        row[base + 3 * k + 2] += x * rounds
    row[base + 3 * NROUNDSTAT] += rs[8] * rs[9]
    if seat >= 0 and seat == starter:
        row[base + 3 * NROUNDSTAT + 1] += 1
    x = base + 3 * NROUNDSTAT + 2
    row[x] += changes
    row[x + 1] += changes * changes
    if lead3q >= 0:
        row[x + 2] += 1
        row[x + 3] += 1 if lead3q == seat else 0
    row[x + 4] += margin
    row[x + 5] += margin * margin
    row[x + 6 + min(rounds, NRH) - 1] += 1


@njit(cache=True, _nrt=False)
def round_trial(s, rp, pol, thr, reqv, state, viol, tmp, out, rs, row):
    """An independent round from cumulative 0 with seat 0 moving first. Columns: 0 rounds,
    then ΣX, ΣX² for each round quantity X, then seat 0's score Σ, Σ²."""
    hand, kit, un, can, pl, mcnt, stock, pile, g = state
    P = rp[R_NP]
    for k in range(NROUNDSTAT):
        rs[k] = 0.0
    for p in range(P):
        pl[p, C_CUM] = 0
    deal(s, P - 1, hand, kit, un, can, pl, mcnt, stock, pile, g, rp, thr, reqv)
    play_turns(hand, kit, un, can, pl, mcnt, stock, pile, g, rp, pol, viol, tmp, out,
               False, -1, -1, -1, 0)
    score_round(hand, kit, can, pl, rp)
    round_stats(pl, can, g, rp, rs)
    row[0] += 1
    for k in range(NROUNDSTAT):
        row[1 + 2 * k] += rs[k]
        row[2 + 2 * k] += rs[k] * rs[k]
    x = float(pl[0, C_SCORE])
    row[1 + 2 * NROUNDSTAT] += x
    row[2 + 2 * NROUNDSTAT] += x * x


@njit(cache=True, _nrt=False)
def meld_trial(s, rp, pol, thr, reqv, state, viol, tmp, out, score, turns, row):
    """Seat 0 (first to move, cumulative ``score``; the others at 0) plays at most ``turns``
    own turns. Columns: 0 trials, 1 requirement met by the dealt hand, 1+k (k = 1..turns)
    first meld made by own turn k."""
    hand, kit, un, can, pl, mcnt, stock, pile, g = state
    P = rp[R_NP]
    for p in range(P):
        pl[p, C_CUM] = 0
    pl[0, C_CUM] = score
    deal(s, P - 1, hand, kit, un, can, pl, mcnt, stock, pile, g, rp, thr, reqv)
    row[0] += 1
    for c in range(NT):
        tmp[c] = hand[0, c]
    if plan_initial(tmp, pl[0, C_REQ], rp, out) >= 0:
        row[1] += 1
    if turns > 0:
        play_turns(hand, kit, un, can, pl, mcnt, stock, pile, g, rp, pol, viol, tmp,
                   out, False, -1, -1, 0, turns)
        f = pl[0, C_FIRSTMELD]
        if f > 0:
            for k in range(f, turns + 1):
                row[1 + k] += 1


@njit(cache=True, _nrt=False)
def setup_position(s, pos_hand, pos_kit_on, pos_un, pos_can, pos_pl, pile0, g0, unseen,
                   opp_sizes, stock_n, rp, state, buf):
    """Copy a stated position into ``state`` and deal the unseen cards at random: each
    opponent's hand (its stated size), every face-down kitty (11), then the stock."""
    hand, kit, un, can, pl, mcnt, stock, pile, g = state
    P = rp[R_NP]
    n = 0
    for c in range(NT):
        for _ in range(unseen[c]):
            buf[n] = c
            n += 1
    for i in range(n - 1, 0, -1):
        j = randint(s, i + 1)
        tmp = buf[i]
        buf[i] = buf[j]
        buf[j] = tmp
    pos = 0
    for p in range(P):
        for c in range(NT):
            hand[p, c] = pos_hand[p, c]
            kit[p, c] = 0
            mcnt[p, c] = 0
            un[p, c, 0] = pos_un[p, c, 0]
            un[p, c, 1] = pos_un[p, c, 1]
            un[p, c, 2] = pos_un[p, c, 2]
        for k in range(4):
            can[p, k] = pos_can[p, k]
        for k in range(NPL):
            pl[p, k] = pos_pl[p, k]
    for p in range(1, P):
        for _ in range(opp_sizes[p]):
            hand[p, buf[pos]] += 1
            pos += 1
    for p in range(P):
        if pos_kit_on[p] == 1:
            for _ in range(rp[R_KITTY]):
                kit[p, buf[pos]] += 1
                pos += 1
    k = 0
    while pos < n:
        stock[k] = buf[pos]
        k += 1
        pos += 1
    for c in range(NT):
        pile[c] = pile0[c]
    for i in range(NG):
        g[i] = g0[i]
    g[G_SP] = 0
    g[G_SEND] = stock_n


@njit(cache=True, _nrt=False)
def decide_trial(key, t, s, rp, pol, pos_hand, pos_kit_on, pos_un, pos_can, pos_pl, pile0,
                 g0, unseen, opp_sizes, stock_n, skip_draw, kind, state, viol, tmp, out, buf,
                 row):
    """Play the round out from a stated position twice on the same deal of the unseen cards
    and the same random stream: option A (take the pile / go out now) and option B (draw /
    play on); ``kind`` 0 compares pile vs draw, 1 going out vs playing on.

    Columns: 0 trials, 1 ΣA, 2 ΣA², 3 ΣB, 4 ΣB², 5 Σd, 6 Σd² (d = A − B, the deciding player's
    round score), 7 trials where a forced choice was illegal, 8 Σ(A − best opponent),
    9 Σ(B − best opponent), 10 Σ rel-d, 11 Σ rel-d²."""
    hand, kit, un, can, pl, mcnt, stock, pile, g = state
    P = rp[R_NP]
    a = 0.0
    b = 0.0
    ra = 0.0
    rb = 0.0
    bad = 0
    for opt in range(2):
        seed_trial(key, t, s)
        setup_position(s, pos_hand, pos_kit_on, pos_un, pos_can, pos_pl, pile0, g0,
                       unseen, opp_sizes, stock_n, rp, state, buf)
        if kind == 0:
            ft = 1 - opt
            fg = -1
        else:
            ft = -1
            fg = 1 - opt
        r = play_turns(hand, kit, un, can, pl, mcnt, stock, pile, g, rp, pol, viol,
                       tmp, out, skip_draw, ft, fg, -1, 0)
        if r < 0:
            bad = 1
        score_round(hand, kit, can, pl, rp)
        best = -1e18
        for p in range(1, P):
            if float(pl[p, C_SCORE]) > best:
                best = float(pl[p, C_SCORE])
        if opt == 0:
            a = float(pl[0, C_SCORE])
            ra = a - best
        else:
            b = float(pl[0, C_SCORE])
            rb = b - best
    d = a - b
    row[0] += 1
    row[1] += a
    row[2] += a * a
    row[3] += b
    row[4] += b * b
    row[5] += d
    row[6] += d * d
    row[7] += bad
    row[8] += ra
    row[9] += rb
    row[10] += ra - rb
    row[11] += (ra - rb) * (ra - rb)


@njit(cache=True, inline="always")
def _scratch(P, width):
    """A block's scratch: stream state, round state, counters and the row of sums."""
    return (np.zeros(4, dtype=np.uint64), new_state(P), np.zeros(NV, dtype=np.int64),
            np.zeros(NT, dtype=np.int64), np.zeros((NT, 3), dtype=np.int64),
            np.zeros(NROUNDSTAT, dtype=np.float64), np.zeros(106 * P + 8, dtype=np.int64),
            np.zeros(width, dtype=np.float64))


@njit(cache=True, inline="always")
def _store(row, viol, width, res_row):
    for k in range(width):
        res_row[k] = row[k]
    for k in range(NV):
        res_row[width + k] = viol[k]


# One block function per mode, all with the same arguments: all trials of one block, serially,
# into ``res_row`` (sums, then NV violation counts); scratch state is allocated once per block.


@njit(cache=True)
def games_block(key, count, rp, pol, thr, reqv, score, turns, pos_hand, pos_kit_on, pos_un,
                pos_can, pos_pl, pile0, g0, unseen, opp_sizes, stock_n, skip_draw, kind, width,
                res_row):
    """Whole games (``MODE_GAMES``; :func:`game_trial`'s columns)."""
    s, state, viol, tmp, out, rs, buf, row = _scratch(rp[R_NP], width)
    for t in range(count):
        seed_trial(key, t, s)
        game_trial(s, rp, pol, thr, reqv, state, viol, tmp, out, rs, row)
    _store(row, viol, width, res_row)


@njit(cache=True)
def rounds_block(key, count, rp, pol, thr, reqv, score, turns, pos_hand, pos_kit_on, pos_un,
                 pos_can, pos_pl, pile0, g0, unseen, opp_sizes, stock_n, skip_draw, kind, width,
                 res_row):
    """Independent rounds (``MODE_ROUNDS``; :func:`round_trial`'s columns)."""
    s, state, viol, tmp, out, rs, buf, row = _scratch(rp[R_NP], width)
    for t in range(count):
        seed_trial(key, t, s)
        round_trial(s, rp, pol, thr, reqv, state, viol, tmp, out, rs, row)
    _store(row, viol, width, res_row)


@njit(cache=True)
def meld_block(key, count, rp, pol, thr, reqv, score, turns, pos_hand, pos_kit_on, pos_un,
               pos_can, pos_pl, pile0, g0, unseen, opp_sizes, stock_n, skip_draw, kind, width,
               res_row):
    """Meld odds (``MODE_MELD``; :func:`meld_trial`'s columns)."""
    s, state, viol, tmp, out, rs, buf, row = _scratch(rp[R_NP], width)
    for t in range(count):
        seed_trial(key, t, s)
        meld_trial(s, rp, pol, thr, reqv, state, viol, tmp, out, score, turns, row)
    _store(row, viol, width, res_row)


@njit(cache=True)
def decide_block(key, count, rp, pol, thr, reqv, score, turns, pos_hand, pos_kit_on, pos_un,
                 pos_can, pos_pl, pile0, g0, unseen, opp_sizes, stock_n, skip_draw, kind, width,
                 res_row):
    """Decisions from a position (``MODE_DECIDE``; :func:`decide_trial`'s columns; each trial
    seeds its own stream)."""
    s, state, viol, tmp, out, rs, buf, row = _scratch(rp[R_NP], width)
    for t in range(count):
        decide_trial(key, t, s, rp, pol, pos_hand, pos_kit_on, pos_un, pos_can, pos_pl,
                     pile0, g0, unseen, opp_sizes, stock_n, skip_draw, kind, state, viol,
                     tmp, out, buf, row)
    _store(row, viol, width, res_row)
