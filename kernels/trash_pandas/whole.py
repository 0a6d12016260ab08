"""Trash Pandas whole game in Numba: turns, games and the per-block sums of many games.

Model (rules page docs/rules/trash-pandas.md; every [D] is a rules key, passed in ``rules``)
-----
Setup: the pile holds ``copies``; seat i draws ``deal[i]`` cards in seat order. Seat 0 starts.
A turn (main, cap 6; after collecting all six, a bonus turn with cap ``bonus_cap``):

* roll phase: roll ``randint(6)``; the bot answers take / Blammo! (ignore, roll again) /
  Nanners (cancel, stop). A repeat taken is a bust: tokens go back and the player draws one
  card (``consolation`` 0 mandatory, 1 optional: the bot chooses). Below the cap the bot rolls
  again or stops; on any stop (Nanners included, not at the cap) the opponents in seat order
  after the player may discard Yum Yum: the first who does forces one more roll.
* resolve phase: recycle → a token not held (nothing when all six are held in the main turn);
  MMM Pie! doubles distinct tokens (one each); then in this order: trash (draw 2), trash-tree
  (draw 1 now, or stash 1 at the stash step), mask (draw and reveal: the card goes to the player's
  hand; each other player in seat order may stash one of that type face up; then the player
  draws one card per reaction), paw (steal a random hand card), then Feesh plays (a discard-pile
  card into hand, usable now) and Shiny plays (a stashed card: a chosen face-up one or a random
  face-down one), then the stash step (2 per trees, 1 per trash-tree that chose stash).
* steals: the target may block with Doggo (draw 2) or Kitteh (steal back the same kind — a
  random hand card, or a random stashed card — which is itself a steal that can be blocked);
  a blocked steal takes nothing.
* a card gained during a turn (by anyone) cannot be played for its action until the turn ends
  (the bonus turn is the same turn); the Feesh card is not "gained".
* the game ends after the turn in which the last card was drawn; stashes score (state.py).

Random numbers: one xoshiro256** stream per game (kernels/rng.py, array state ``s``); every draw,
die roll, random steal and random bot choice is one ``randint`` in the order the rules happen.
analyzer/games/trash_pandas/reference.py replays the same stream in plain Python.

Per-game counters ``acc`` (float64[NACC], index names in :data:`COUNTERS`) are summed per block;
the sum columns of :func:`play_games` are named by :func:`column_names`.
"""
import numpy as np
from numba import njit, prange

from kernels.rng import randint, seed_trial
from kernels.trash_pandas import whole_bots as B
from kernels.trash_pandas.whole_state import (BLAMMO, DISC, DOGGO, FEESH, GAIN, HAND, KITTEH,
                                              MAXP, NANNERS, NROWS, NT, PIE, SC, SHINY, STASH, UP,
                                              YUMYUM, conserved, draw, hand_size, leave_hand,
                                              play_card, rank_key, reset, score_game, stash_card,
                                              stash_size, take_stash_card)

COUNTERS = ("main_turns", "main_busts", "sixes", "bonus_turns", "bonus_busts", "rolls",
            "blammo", "nanners", "yumyum", "doggo", "kitteh", "pie", "feesh", "shiny",
            "paw_steals", "shiny_steals", "mask_reactions", "stashed")
(C_MAIN, C_MBUST, C_SIX, C_BONUS, C_BBUST, C_ROLLS, C_BLAMMO, C_NANNERS, C_YUM, C_DOGGO,
 C_KITTEH, C_PIE, C_FEESH, C_SHINY, C_PAW, C_SHSTEAL, C_MASK, C_STASHED) = range(18)
NC = len(COUNTERS)
C_VIOL = NC  # conservation violations (turns after which a check failed)
NACC = NC + 1
(RULE_BONUS, RULE_CAP, RULE_CONSOLATION, RULE_CHECK, RULE_MAXTURNS, RULE_MASK, RULE_CHAIN,
 RULE_TIE) = range(8)
NRULES = 8
BUST, STOPPED, SIX = 0, 1, 2
ENTRY_ROLL, ENTRY_STOP, ENTRY_FACE = 0, 1, 2
MAXTURNS = 2000


@njit(cache=True)
def _popcount(h):
    n = 0
    while h:
        n += h & 1
        h >>= 1
    return n


@njit(cache=True)
def _receive(g, p, t):
    g[HAND + p, t] += 1
    g[GAIN + p, t] += 1


@njit(cache=True)
def steal(g, thief, victim, from_stash, first_type, bots, rules, acc, s):
    """A Paw (hand) or Shiny (stash) steal with Doggo/Kitteh blocks and Kitteh chains.
    ``first_type`` ≥ 0: the Shiny takes a face-up card of that type; −1: the Shiny takes a
    random face-down card. Steal-backs take a random card (hand, or any stashed card). Returns 1
    if a card moved to the original thief, 0 otherwise."""
    first = True
    original = thief
    while True:
        b = B.NO_BLOCK
        if first or rules[RULE_CHAIN] != 0:
            b = B.block_choice(g, victim, bots[victim], s)
        if b == B.USE_DOGGO:
            play_card(g, victim, DOGGO)
            acc[C_DOGGO] += 1
            draw(g, victim, s)
            draw(g, victim, s)
            return 0
        if b == B.USE_KITTEH:
            play_card(g, victim, KITTEH)
            acc[C_KITTEH] += 1
            thief, victim = victim, thief
            first = False
            continue
        if not from_stash:
            hs = hand_size(g, victim)
            if hs == 0:
                return 0
            k = randint(s, hs)
            for t in range(NT):
                if k < g[HAND + victim, t]:
                    leave_hand(g, victim, t)
                    _receive(g, thief, t)
                    break
                k -= g[HAND + victim, t]
            return 1 if thief == original else 0
        if first and first_type >= 0:
            if g[UP + victim, first_type] < 1:
                return 0
            take_stash_card(g, victim, first_type, True)
            _receive(g, thief, first_type)
            return 1
        total = 0
        for t in range(NT):
            total += g[STASH + victim, t] - (g[UP + victim, t] if first else 0)
        if total == 0:
            return 0
        k = randint(s, total)
        for t in range(NT):  # face-down cards of t first, then (steal-backs only) face-up
            down = g[STASH + victim, t] - g[UP + victim, t]
            if k < down:
                take_stash_card(g, victim, t, False)
                _receive(g, thief, t)
                break
            k -= down
            if not first:
                if k < g[UP + victim, t]:
                    take_stash_card(g, victim, t, True)
                    _receive(g, thief, t)
                    break
                k -= g[UP + victim, t]
        return 1 if thief == original else 0


@njit(cache=True)
def _mask(g, a, bots, pts, per_card, rules, acc, s):
    t = draw(g, a, s)
    if t < 0:
        return
    if rules[RULE_MASK] != 0:  # the revealed card goes to the discard pile instead
        leave_hand(g, a, t)
        g[DISC, t] += 1
    players = g[SC, 2]
    reactions = 0
    for j in range(1, players):
        q = (a + j) % players
        if B.reacts_to_mask(g, q, bots[q], t, pts, per_card, s):
            stash_card(g, q, t, True)
            reactions += 1
    acc[C_MASK] += reactions
    for _ in range(reactions):
        draw(g, a, s)


@njit(cache=True)
def resolve(g, a, held, mode, bots, pts, per_card, rules, acc, s, w):
    """Resolve the held tokens of player a (module doc order); ``w`` int64 scratch (≥ 5)."""
    bot = bots[a]
    for tok in range(5):
        w[tok] = (held >> tok) & 1
    if (held >> 5) & 1 and not (mode == 0 and held == 63):
        r = B.recycle_as(g, a, bot, held, s)
        if r >= 0:
            w[r] += 1
    ntok = 0
    for tok in range(5):
        ntok += w[tok] > 0
    pies = B.pies_to_use(g, a, bot, ntok, s)
    for tok in (0, 1, 3, 2, 4):
        if pies > 0 and w[tok] == 1:
            play_card(g, a, PIE)
            acc[C_PIE] += 1
            w[tok] = 2
            pies -= 1
    for _ in range(2 * w[0]):
        draw(g, a, s)
    later = 0
    for _ in range(w[2]):
        if B.tree_stashes(g, a, bot, 2 * w[1] + later, pts, per_card, s):
            later += 1
        else:
            draw(g, a, s)
    for _ in range(w[4]):
        _mask(g, a, bots, pts, per_card, rules, acc, s)
    for _ in range(w[3]):
        q = B.steal_target(g, a, bot, False, s)
        if q >= 0:
            acc[C_PAW] += steal(g, a, q, False, -1, bots, rules, acc, s)
    while True:
        t = B.feesh_pick(g, a, bot, pts, per_card, s)
        if t < 0:
            break
        play_card(g, a, FEESH)
        acc[C_FEESH] += 1
        g[DISC, t] -= 1
        g[HAND + a, t] += 1
    while True:
        q, t = B.shiny_pick(g, a, bot, pts, per_card, s)
        if q < 0:
            break
        play_card(g, a, SHINY)
        acc[C_SHINY] += 1
        acc[C_SHSTEAL] += steal(g, a, q, True, t, bots, rules, acc, s)
    for _ in range(2 * w[1] + later):
        t = B.stash_pick(g, a, bot, pts, per_card, s)
        if t < 0:
            break
        stash_card(g, a, t, False)
        acc[C_STASHED] += 1


@njit(cache=True)
def roll_phase(g, a, mode, held, entry, entry_face, entry_choice, bots, rules, roll_tab,
               after_tab, acc, s):
    """Roll until a bust, a stop or the cap. ``entry``: 0 roll now, 1 stop now, 2 the face
    ``entry_face`` was just rolled and ``entry_choice`` (take/Blammo!/Nanners) is played.
    Returns (BUST | STOPPED | SIX, held)."""
    bot = bots[a]
    cap = 6 if mode == 0 else rules[RULE_CAP]
    nh = _popcount(held)
    action = entry
    players = g[SC, 2]
    while True:
        if action == ENTRY_STOP:
            forced = False
            for j in range(1, players):
                q = (a + j) % players
                if B.plays_yumyum(g, q, bots[q], nh, s):
                    play_card(g, q, YUMYUM)
                    acc[C_YUM] += 1
                    forced = True
                    break
            if not forced:
                return STOPPED, held
        if action == ENTRY_FACE:
            face = entry_face
            d = entry_choice
        else:
            face = randint(s, 6)
            acc[C_ROLLS] += 1
            d = B.after_roll(g, a, bot, held, mode, face, roll_tab, after_tab, s)
        action = ENTRY_ROLL
        if d == B.USE_BLAMMO:
            play_card(g, a, BLAMMO)
            acc[C_BLAMMO] += 1
            continue
        if d == B.USE_NANNERS:
            play_card(g, a, NANNERS)
            acc[C_NANNERS] += 1
            action = ENTRY_STOP
            continue
        bit = 1 << face
        if held & bit:
            return BUST, held
        held |= bit
        nh += 1
        if mode == 0 and nh == 6:
            return SIX, held
        if nh >= cap:
            return STOPPED, held
        if not B.keep_rolling(g, a, bot, held, nh, mode, roll_tab, s):
            action = ENTRY_STOP


@njit(cache=True)
def play_turn(g, a, mode, held, entry, entry_face, entry_choice, bots, pts, per_card, rules,
              roll_tab, after_tab, acc, s, w):
    """Player a's whole turn (with its bonus turn) from the given entry point; clears every
    player's gained cards at the end."""
    if mode == 0 and entry == ENTRY_ROLL and held == 0:
        acc[C_MAIN] += 1
    while True:
        res, held = roll_phase(g, a, mode, held, entry, entry_face, entry_choice, bots, rules,
                               roll_tab, after_tab, acc, s)
        entry = ENTRY_ROLL
        if res == BUST:
            acc[C_MBUST if mode == 0 else C_BBUST] += 1
            if rules[RULE_CONSOLATION] == 0 or B.takes_consolation(g, a, bots[a], s):
                draw(g, a, s)
            break
        resolve(g, a, held, mode, bots, pts, per_card, rules, acc, s, w)
        if res == SIX and rules[RULE_BONUS] != 0:
            acc[C_SIX] += 1
            acc[C_BONUS] += 1
            mode = 1
            held = 0
            continue
        if res == SIX:
            acc[C_SIX] += 1
        break
    for p in range(g[SC, 2]):
        for t in range(NT):
            g[GAIN + p, t] = 0


@njit(cache=True)
def continue_game(g, a, mode, held, entry, entry_face, entry_choice, bots, pts, per_card,
                  copies, rules, roll_tab, after_tab, acc, s, w):
    """Play from player a's (possibly unfinished) turn to the end; returns the turns played
    (MAXTURNS + 1 when the turn cap stopped it)."""
    players = g[SC, 2]
    turns = 0
    while True:
        play_turn(g, a, mode, held, entry, entry_face, entry_choice, bots, pts, per_card, rules,
                  roll_tab, after_tab, acc, s, w)
        mode, held, entry = 0, 0, ENTRY_ROLL
        turns += 1
        if rules[RULE_CHECK] != 0 and not conserved(g, copies, players):
            acc[C_VIOL] += 1
        if g[SC, 1] != 0:
            return turns
        if turns >= rules[RULE_MAXTURNS]:
            return turns + 1
        a = (a + 1) % players


@njit(cache=True)
def setup(g, players, copies, deal, s):
    """Fill the pile and deal ``deal[i]`` cards to seat i in seat order."""
    reset(g, copies, players)
    for i in range(players):
        for _ in range(deal[i]):
            draw(g, i, s)
    for p in range(players):
        for t in range(NT):
            g[GAIN + p, t] = 0


@njit(cache=True)
def outcome(g, players, pts, per_card, rules, w, scores):
    """Scores into ``scores``; returns (number of winners, top points tied 0/1, margin).
    ``w`` int64 scratch (≥ 8). Winners are those with the best rank_key."""
    score_game(g, pts, per_card, players, w[0:4], w[4:8], scores)
    best = -1
    top = -1
    second = -1
    for i in range(players):
        best = max(best, rank_key(g, scores, i, rules[RULE_TIE]))
    nwin = 0
    ntop = 0
    for i in range(players):
        if rank_key(g, scores, i, rules[RULE_TIE]) == best:
            nwin += 1
        if scores[i] > top:
            second = top
            top = scores[i]
            ntop = 1
        elif scores[i] == top:
            ntop += 1
            second = top
        elif scores[i] > second:
            second = scores[i]
    return nwin, 1 if ntop > 1 else 0, top - second


def column_names(players: int, lineups: int) -> tuple:
    """Names of the sum columns of :func:`play_games` for ``lineups`` line-ups: per line-up l,
    ``L{l}:games``, per seat ``win{i}``/``win{i}_sq`` (win shares), ``pts{i}``/``pts{i}_sq``,
    ``margin``/``margin_sq``, ``turns``/``turns_sq``, ``rounds``/``rounds_sq``, ``tiebreak``,
    ``shared``, ``truncated``, ``violations``, then each counter and its ``_sq``, then games
    lasting ``rounds_1`` … ``rounds_{NHIST-1}`` and ``rounds_{NHIST}+`` rounds; after all
    line-ups, for l ≥ 1 and each seat, ``L{l}-L0:dwin{i}``/``_sq`` (paired win-share
    differences)."""
    base = ["games"]
    for i in range(MAXP):
        base += [f"win{i}", f"win{i}_sq"]
    for i in range(MAXP):
        base += [f"pts{i}", f"pts{i}_sq"]
    base += ["margin", "margin_sq", "turns", "turns_sq", "rounds", "rounds_sq", "tiebreak",
             "shared", "truncated", "violations"]
    for c in COUNTERS:
        base += [c, c + "_sq"]
    base += [f"rounds_{r}" for r in range(1, NHIST)] + [f"rounds_{NHIST}+"]
    cols = [f"L{l}:{c}" for l in range(lineups) for c in base]
    for l in range(1, lineups):
        for i in range(MAXP):
            cols += [f"L{l}-L0:dwin{i}", f"L{l}-L0:dwin{i}_sq"]
    return tuple(cols)


NHIST = 20  # game-length histogram buckets (rounds), the last one open-ended
NBASE = 1 + 4 * MAXP + 10 + 2 * NC + NHIST


@njit(cache=True)
def _fold(out, blk, base, players, scores, nwin, tied, margin, turns, truncated, acc, shares):
    """Add one game's figures to the block's sums starting at column ``base`` (names above)."""
    out[blk, base] += 1
    col = base + 1
    for i in range(MAXP):
        out[blk, col + 2 * i] += shares[i]
        out[blk, col + 2 * i + 1] += shares[i] * shares[i]
    col += 2 * MAXP
    for i in range(MAXP):
        out[blk, col + 2 * i] += scores[i]
        out[blk, col + 2 * i + 1] += scores[i] * scores[i]
    col += 2 * MAXP
    rounds = (turns + players - 1) // players
    vals = (float(margin), float(turns), float(rounds))
    for k in range(3):
        out[blk, col + 2 * k] += vals[k]
        out[blk, col + 2 * k + 1] += vals[k] * vals[k]
    col += 6
    out[blk, col] += tied
    out[blk, col + 1] += 1 if nwin > 1 else 0
    out[blk, col + 2] += 1 if truncated else 0
    out[blk, col + 3] += acc[C_VIOL]
    col += 4
    for c in range(NC):
        out[blk, col + 2 * c] += acc[c]
        out[blk, col + 2 * c + 1] += acc[c] * acc[c]
    col += 2 * NC
    out[blk, col + min(rounds, NHIST) - 1] += 1


@njit(cache=True, parallel=True)
def play_games(keys, counts, players, copies, pts, per_card, deal, rules, lineups, roll_tab,
               after_tab):
    """Whole games, per-block sums (columns: :func:`column_names`).

    keys int64/uint64[m, 4] block keys; counts int64[m] games per block; copies int64[8];
    pts int64[8, 3]; per_card int64[8]; deal int64[4] cards dealt to seat i; rules int64[8]
    (bonus turn 0/1, bonus cap, consolation 0 mandatory/1 optional, conservation check 0/1,
    turn cap, Mask card 0 to hand/1 to discard, Kitteh chains 0/1, tie 0 tie-breaks/1 shared);
    lineups float64[L, 4, NK] bot knobs per line-up and seat; roll_tab/after_tab the solver
    tables (bots.py). Game t of a block replays the same stream for every line-up
    (common random numbers: the same deal, the same dice until the decisions differ).
    """
    m = keys.shape[0]
    nl = lineups.shape[0]
    ncol = nl * NBASE + (nl - 1) * 2 * MAXP
    out = np.zeros((m, ncol), dtype=np.float64)
    for blk in prange(m):
        g = np.zeros((NROWS, NT), dtype=np.int64)
        s = np.zeros(4, dtype=np.uint64)
        acc = np.zeros(NACC, dtype=np.float64)
        w = np.zeros(16, dtype=np.int64)
        scores = np.zeros(MAXP, dtype=np.int64)
        shares = np.zeros(MAXP, dtype=np.float64)
        first = np.zeros(MAXP, dtype=np.float64)
        for t in range(counts[blk]):
            for l in range(nl):
                seed_trial(keys[blk], t, s)
                acc[:] = 0.0
                setup(g, players, copies, deal, s)
                turns = continue_game(g, 0, 0, 0, ENTRY_ROLL, 0, 0, lineups[l], pts, per_card,
                                      copies, rules, roll_tab, after_tab, acc, s, w)
                nwin, tied, margin = outcome(g, players, pts, per_card, rules, w, scores)
                best = -1
                for i in range(players):
                    best = max(best, rank_key(g, scores, i, rules[RULE_TIE]))
                for i in range(MAXP):
                    shares[i] = 0.0
                    if i < players and rank_key(g, scores, i, rules[RULE_TIE]) == best:
                        shares[i] = 1.0 / nwin
                _fold(out, blk, l * NBASE, players, scores, nwin, tied, margin, turns,
                      turns > rules[RULE_MAXTURNS], acc, shares)
                if l == 0:
                    for i in range(MAXP):
                        first[i] = shares[i]
                else:
                    col = nl * NBASE + (l - 1) * 2 * MAXP
                    for i in range(MAXP):
                        d = shares[i] - first[i]
                        out[blk, col + 2 * i] += d
                        out[blk, col + 2 * i + 1] += d * d
    return out
