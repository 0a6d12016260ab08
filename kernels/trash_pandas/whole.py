"""Trash Pandas whole game in Numba: turns, games and the per-block sums of many games.

Model (rules page docs/rules/trash-pandas.md; every [D] is a rules key, passed in ``rules``)
-----
Setup: the pile holds ``copies``; seat i draws ``deal[i]`` cards in seat order. Seat 0 starts.
A turn (main, cap 6; after collecting all six, a bonus turn with cap ``bonus_cap``):

* roll phase: roll ``randint(6)``; the bot answers take / Blammo! (ignore, roll again) /
  Nanners (cancel, stop). A repeat the bot would take is, under ``feesh_timing = any``
  (``rules[RULE_FEESH]`` 0, the rulebook), offered to its Feesh: a usable Feesh fetches a
  Blammo! or Nanners from the discard pile, spent at once (whole_bots.feesh_save). A repeat
  taken is a bust: tokens go back; under ``shiny_timing = any`` (RULE_SHINY 0) the player may
  still play Shiny (its own turn); then it draws one card (``consolation`` 0 mandatory,
  1 optional: the bot chooses). Below the cap the bot rolls again or stops; on any stop (Nanners
  included, not at the cap) the opponents in seat order after the player may discard Yum Yum:
  the first who does forces one more roll.
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
* the lock (``rules[RULE_LOCK]``): 0 (the rulebook) — a card the active player gains during its
  turn cannot be played for its action until that turn ends, and the bonus turn is a new turn
  for this (the main turn's gains unlock when it starts); other players' new cards (Doggo
  draws, Kitteh steal-backs) are not locked. 1 (``gain_lock = all``) — every player's gains are
  locked until the whole turn, bonus turn included, ends. Either way a gained card may be
  stashed, and the card a Feesh fetches is not "gained".
* the game ends after the turn in which the last card was drawn; stashes score (state.py).

Random numbers: one xoshiro256** stream per game (kernels/rng.py, array state ``s``); every draw,
die roll, random steal and random bot choice is one ``randint`` in the order the rules happen.
analyzer/games/trash_pandas/reference.py replays the same stream in plain Python.

Per-game counters ``acc`` (float64[NACC], index names in :data:`COUNTERS`) are summed per block
by whole_games.py ``play_games`` (sum columns named by its ``column_names``). The seat decisions
roll/stop and take/Blammo!/Nanners go through :func:`keep_rolling_choice` and
:func:`after_roll_choice`, an opponent's Yum Yum through :func:`yumyum_choice`; whole_rollout.py
compiles a twin of this engine in which they are the ``rollout:K`` and ``search`` bots' (the
rollouts and the search's playouts run another compiled engine, so nothing recurses).
"""
from numba import njit

from kernels.rng import randint
from kernels.trash_pandas import whole_bots as B
from kernels.trash_pandas.whole_state import (BLAMMO, DISC, DOGGO, FEESH, GAIN, HAND, KITTEH,
                                              MAXP, NANNERS, NROWS, NT, PIE, SC, SHINY, STASH, UP,
                                              YUMYUM, conserved, draw, hand_size, leave_hand,
                                              play_card, rank_key, reset, score_game, stash_card,
                                              stash_size, take_stash_card)
from kernels.widen import plain_types

COUNTERS = ("main_turns", "main_busts", "sixes", "bonus_turns", "bonus_busts", "rolls",
            "blammo", "nanners", "yumyum", "doggo", "kitteh", "pie", "feesh", "shiny",
            "paw_steals", "shiny_steals", "mask_reactions", "stashed", "feesh_saves",
            "consolation_declined")
(C_MAIN, C_MBUST, C_SIX, C_BONUS, C_BBUST, C_ROLLS, C_BLAMMO, C_NANNERS, C_YUM, C_DOGGO,
 C_KITTEH, C_PIE, C_FEESH, C_SHINY, C_PAW, C_SHSTEAL, C_MASK, C_STASHED, C_FSAVE,
 C_DECLINED) = range(20)
NC = len(COUNTERS)
C_VIOL = NC  # conservation violations (turns after which a check failed)
NACC = NC + 1
(RULE_BONUS, RULE_CAP, RULE_CONSOLATION, RULE_CHECK, RULE_MAXTURNS, RULE_MASK, RULE_CHAIN,
 RULE_TIE, RULE_FEESH, RULE_LOCK, RULE_SHINY) = range(11)
NRULES = 11
BUST, STOPPED, SIX = 0, 1, 2
ENTRY_ROLL, ENTRY_STOP, ENTRY_FACE = 0, 1, 2
MAXTURNS = 2000


@plain_types
@njit(cache=True, _nrt=False)
def _popcount(h):
    n = 0
    while h:
        n += h & 1
        h >>= 1
    return n


@plain_types
@njit(cache=True, _nrt=False)
def _locked(p, active, rules):
    """Whether a card p gains now is locked for the rest of the turn: always under the house
    rule ``gain_lock = all`` (RULE_LOCK 1); under the rulebook's reading (0) only the active
    player's own gains are."""
    return rules[RULE_LOCK] != 0 or p == active


@plain_types
@njit(cache=True, _nrt=False)
def _receive(g, p, t, active, rules):
    """A card of type t moves into p's hand by a steal (locked as :func:`_locked` says)."""
    g[HAND + p, t] += 1
    if _locked(p, active, rules):
        g[GAIN + p, t] += 1


@plain_types
@njit(cache=True, _nrt=False)
def _draw_off_turn(g, p, active, rules, s):
    """p draws one card (whole_state.draw marks it gained); unlocked again when p is not the
    active player and the rulebook's lock applies."""
    t = draw(g, p, s)
    if t >= 0 and not _locked(p, active, rules):
        g[GAIN + p, t] -= 1


@plain_types
@njit(cache=True, _nrt=False)
def steal(g, thief, victim, from_stash, first_type, bots, rules, acc, s):
    """A Paw (hand) or Shiny (stash) steal with Doggo/Kitteh blocks and Kitteh chains.
    ``first_type`` ≥ 0: the Shiny takes a face-up card of that type; −1: the Shiny takes a
    random face-down card. Steal-backs take a random card (hand, or any stashed card). The
    original thief is the active player (the lock of cards gained this turn: :func:`_locked`).
    Returns 1 if a card moved to the original thief, 0 otherwise."""
    first = True
    original = thief
    while True:
        b = B.NO_BLOCK
        if first or rules[RULE_CHAIN] != 0:
            b = B.block_choice(g, victim, bots[victim], s)
        if b == B.USE_DOGGO:
            play_card(g, victim, DOGGO)
            acc[C_DOGGO] += 1
            _draw_off_turn(g, victim, original, rules, s)
            _draw_off_turn(g, victim, original, rules, s)
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
                    _receive(g, thief, t, original, rules)
                    break
                k -= g[HAND + victim, t]
            return 1 if thief == original else 0
        if first and first_type >= 0:
            if g[UP + victim, first_type] < 1:
                return 0
            take_stash_card(g, victim, first_type, True)
            _receive(g, thief, first_type, original, rules)
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
                _receive(g, thief, t, original, rules)
                break
            k -= down
            if not first:
                if k < g[UP + victim, t]:
                    take_stash_card(g, victim, t, True)
                    _receive(g, thief, t, original, rules)
                    break
                k -= g[UP + victim, t]
        return 1 if thief == original else 0


@plain_types
@njit(cache=True, _nrt=False)
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


@plain_types
@njit(cache=True, _nrt=False)
def feesh_fetch(g, a, t, acc):
    """Player a discards a Feesh and takes a card of type t from the discard pile into hand,
    not marked gained (usable this turn: the rules page's exception)."""
    play_card(g, a, FEESH)
    acc[C_FEESH] += 1
    g[DISC, t] -= 1
    g[HAND + a, t] += 1


@plain_types
@njit(cache=True, _nrt=False)
def shiny_plays(g, a, bots, pts, per_card, rules, acc, s):
    """Player a plays Shiny after Shiny while its bot picks a target (whole_bots.shiny_pick)."""
    while True:
        q, t = B.shiny_pick(g, a, bots[a], pts, per_card, s)
        if q < 0:
            break
        play_card(g, a, SHINY)
        acc[C_SHINY] += 1
        acc[C_SHSTEAL] += steal(g, a, q, True, t, bots, rules, acc, s)


@plain_types
@njit(cache=True, _nrt=False)
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
        feesh_fetch(g, a, t, acc)
    shiny_plays(g, a, bots, pts, per_card, rules, acc, s)
    for _ in range(2 * w[1] + later):
        t = B.stash_pick(g, a, bot, pts, per_card, s)
        if t < 0:
            break
        stash_card(g, a, t, False)
        acc[C_STASHED] += 1


@plain_types
@njit(cache=True, _nrt=False)
def after_roll_choice(g, a, bot, bots, held, mode, face, pts, per_card, copies, rules,
                      roll_tab, after_tab, s):
    """Seat a's answer to a rolled face (whole_bots.after_roll). The arguments are those a
    rollout bot needs too: whole_rollout.py compiles a twin of the engine that calls its own
    version of this function instead."""
    return B.after_roll(g, a, bot, held, mode, face, roll_tab, after_tab, s)


@plain_types
@njit(cache=True, _nrt=False)
def keep_rolling_choice(g, a, bot, bots, held, nh, mode, pts, per_card, copies, rules,
                        roll_tab, after_tab, s):
    """Seat a rolls again (True) or stops (whole_bots.keep_rolling); swapped as above."""
    return B.keep_rolling(g, a, bot, held, nh, mode, roll_tab, s)


@plain_types
@njit(cache=True, _nrt=False)
def yumyum_choice(g, q, a, bots, held, nh, mode, pts, per_card, copies, rules, roll_tab,
                  after_tab, s):
    """Opponent q discards a Yum Yum (True) as seat a stops holding ``held`` (whole_bots.
    plays_yumyum); swapped as above (the search bot, kernels/trash_pandas/search.py, decides
    it by search)."""
    return B.plays_yumyum(g, q, bots[q], nh, s)


@plain_types
@njit(cache=True, _nrt=False)
def roll_phase(g, a, mode, held, entry, entry_face, entry_choice, bots, pts, per_card, copies,
               rules, roll_tab, after_tab, acc, s):
    """Roll until a bust, a stop or the cap. ``entry``: 0 roll now, 1 stop now, 2 the face
    ``entry_face`` was just rolled and ``entry_choice`` is played: take, Blammo!, Nanners, or
    (whole_bots ``FEESH_BLAMMO``/``FEESH_NANNERS``) a Feesh for that card from the discard pile,
    spent at once. A repeat the bot would take (a bust) under ``feesh_timing = any`` (RULE_FEESH
    0) is first offered to whole_bots.feesh_save. Returns (BUST | STOPPED | SIX, held)."""
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
                if yumyum_choice(g, q, a, bots, held, nh, mode, pts, per_card, copies, rules,
                                 roll_tab, after_tab, s):
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
            d = after_roll_choice(g, a, bot, bots, held, mode, face, pts, per_card, copies,
                                  rules, roll_tab, after_tab, s)
            if d == B.TAKE and (held >> face) & 1 and rules[RULE_FEESH] == 0:
                d = B.feesh_save(g, a, bot, held, mode, face, roll_tab, after_tab, s)
        action = ENTRY_ROLL
        if d == B.FEESH_BLAMMO or d == B.FEESH_NANNERS:
            t = BLAMMO if d == B.FEESH_BLAMMO else NANNERS
            feesh_fetch(g, a, t, acc)
            acc[C_FSAVE] += 1
            d = B.USE_BLAMMO if t == BLAMMO else B.USE_NANNERS
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
        if not keep_rolling_choice(g, a, bot, bots, held, nh, mode, pts, per_card, copies,
                                   rules, roll_tab, after_tab, s):
            action = ENTRY_STOP


@plain_types
@njit(cache=True, _nrt=False)
def play_turn(g, a, mode, held, entry, entry_face, entry_choice, bots, pts, per_card, copies,
              rules, roll_tab, after_tab, acc, s, w):
    """Player a's whole turn (with its bonus turn) from the given entry point; clears every
    player's gained cards at the end (and a's at the start of the bonus turn under the
    rulebook's lock, RULE_LOCK 0). After a bust: Shiny plays (RULE_SHINY 0), then the
    consolation draw (declined only when optional and the bot says so)."""
    if mode == 0 and entry == ENTRY_ROLL and held == 0:
        acc[C_MAIN] += 1
    while True:
        res, held = roll_phase(g, a, mode, held, entry, entry_face, entry_choice, bots, pts,
                               per_card, copies, rules, roll_tab, after_tab, acc, s)
        entry = ENTRY_ROLL
        if res == BUST:
            acc[C_MBUST if mode == 0 else C_BBUST] += 1
            if rules[RULE_SHINY] == 0:  # Shiny on the player's own turn, a busted one too
                shiny_plays(g, a, bots, pts, per_card, rules, acc, s)
            if rules[RULE_CONSOLATION] == 0 or B.takes_consolation(g, a, bots[a], pts, per_card, s):
                draw(g, a, s)
            else:
                acc[C_DECLINED] += 1
            break
        resolve(g, a, held, mode, bots, pts, per_card, rules, acc, s, w)
        if res == SIX and rules[RULE_BONUS] != 0:
            acc[C_SIX] += 1
            acc[C_BONUS] += 1
            mode = 1
            held = 0
            if rules[RULE_LOCK] == 0:  # a new turn for the lock: the main turn's gains unlock
                for t in range(NT):
                    g[GAIN + a, t] = 0
            continue
        if res == SIX:
            acc[C_SIX] += 1
        break
    for p in range(g[SC, 2]):
        for t in range(NT):
            g[GAIN + p, t] = 0


@plain_types
@njit(cache=True, _nrt=False)
def continue_game(g, a, mode, held, entry, entry_face, entry_choice, bots, pts, per_card,
                  copies, rules, roll_tab, after_tab, acc, s, w):
    """Play from player a's (possibly unfinished) turn to the end; returns the turns played
    (MAXTURNS + 1 when the turn cap stopped it)."""
    players = g[SC, 2]
    turns = 0
    while True:
        play_turn(g, a, mode, held, entry, entry_face, entry_choice, bots, pts, per_card, copies,
                  rules, roll_tab, after_tab, acc, s, w)
        mode, held, entry = 0, 0, ENTRY_ROLL
        turns += 1
        if rules[RULE_CHECK] != 0 and not conserved(g, copies, players):
            acc[C_VIOL] += 1
        if g[SC, 1] != 0:
            return turns
        if turns >= rules[RULE_MAXTURNS]:
            return turns + 1
        a = (a + 1) % players


@plain_types
@njit(cache=True, _nrt=False)
def setup(g, players, copies, deal, s):
    """Fill the pile and deal ``deal[i]`` cards to seat i in seat order."""
    reset(g, copies, players)
    for i in range(players):
        for _ in range(deal[i]):
            draw(g, i, s)
    for p in range(players):
        for t in range(NT):
            g[GAIN + p, t] = 0


@plain_types
@njit(cache=True, _nrt=False)
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


@plain_types
@njit(cache=True, _nrt=False)
def win_share(g, i, players, pts, per_card, rules, w, scores):
    """Player i's share of the win at the end of a game (1/winners if among them, else 0)."""
    nwin, _tied, _margin = outcome(g, players, pts, per_card, rules, w, scores)
    best = -1
    for j in range(players):
        best = max(best, rank_key(g, scores, j, rules[RULE_TIE]))
    return 1.0 / nwin if rank_key(g, scores, i, rules[RULE_TIE]) == best else 0.0
