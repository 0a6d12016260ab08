"""Trash Pandas whole game: the bots' decisions, from what the deciding seat can see.

A bot is a row of float64 knobs ``bot[K_*]`` (named in analyzer/games/trash_pandas/bots.py,
which parses ``--policy NAME:key=value``). ``bot[K_KIND]``: 0 heuristic, 1 solver (roll/stop and
the card spent after a roll from the exact turn solver's tables, everything else heuristic),
2 random (every choice uniformly among the legal ones, one ``randint`` per choice), 3 rollout
(roll/stop and the card spent on a repeat by ``bot[K_ROLLOUTS]`` determinized rollouts:
kernels/trash_pandas/whole_rollout.py; here, in the engine that plays the rollouts, it plays as
the heuristic bot with its knobs), 4 search (roll/stop, the card spent on a repeat and Yum Yum
by information-set tree search, ``bot[K_ITERS]`` iterations per decision:
kernels/trash_pandas/search.py; in the engine that plays its playouts, the heuristic).
Stop rule of ``heuristic`` (and of the rollout seat's base bot): roll while the tokens held
are below ``bot[K_STOP]`` (``bot[K_BSTOP]`` in a bonus turn); with ``bot[K_BAND]`` = 1 (cards
left in the draw pile) or 2 (:func:`stash_behind`) the limit is ``K_STOP`` while that feature is
below ``K_CUT1``, ``K_STOP2`` from ``K_CUT1`` on and ``K_STOP3`` from ``K_CUT2`` on (when
``K_CUT2`` > 0), in main and bonus turns alike (the bonus cap still ends a bonus turn).
With ``bot[K_BAND]`` = 3 the stop rule is instead the rule table of ``bot[K_TROWS]`` rows
(at most ``TMAXROWS``) of ``TROW`` words from ``bot[K_TABLE]`` (:func:`rolls_by_table`): guard
feature, comparison, value, test feature, comparison, value; the first row whose guard holds
says "roll" iff its test holds, no row holding says "stop" (analyzer/advice/table.py). Features
(``F_*``, :func:`table_feature`): tokens held, the bonus-turn flag, cards left in the draw pile,
:func:`stash_behind`, cards in hand, and the saves in hand (usable Blammo! + usable Nanners).
Only the engine that may play table bots reads tables (:func:`keep_rolling_tables`, compiled
into the twin engine kernels/trash_pandas/whole_tables.py); the plain engine's
:func:`keep_rolling` has no table branch, so the other bots pay nothing for it.
A bot reads its own hand, every stash's face-up cards, its own whole stash, the stash and hand
sizes, the discard pile and the cards left; never an opponent's hand or face-down cards.
Two knobs sit after the table words: ``bot[K_FSAVES]`` (``feesh-saves``: play a Feesh for a
discarded Blammo!/Nanners to save a repeat, :func:`feesh_save`) and ``bot[K_DECLINE]``
(``decline-last-card``: when an optional consolation draw is declined,
:func:`takes_consolation`).

Solver tables (built by analyzer/games/trash_pandas_policy.py ``build_tables`` with B = N = P = 3):
``roll_tab`` uint8[2·64·4·4·4] and ``after_tab`` uint8[2·64·4·4·4·6], index
``idx = (((mode·64 + held)·4 + b)·4 + n)·4 + p`` with b, n, p the usable Blammo!/Nanners/
MMM Pie!
clipped to 3, ``after_tab[idx·6 + face]`` ∈ {0 take, 1 Blammo!, 2 Nanners}.
Token indices: 0 trash, 1 trees, 2 trash-tree, 3 paw, 4 mask, 5 recycle.
"""
from numba import njit

from kernels.rng import randint
from kernels.trash_pandas.whole_state import (BLAMMO, DISC, DOGGO, FEESH, GAIN, HAND, KITTEH,
                                              NANNERS, NT, PIE, SC, SHINY, STASH, UP, YUMYUM,
                                              hand_size, stash_size)
from kernels.widen import plain_types

(K_KIND, K_STOP, K_BSTOP, K_BLAMMO, K_NANNERS, K_PIE, K_FEESH, K_SHINY, K_KEEP, K_TARGET,
 K_REACT, K_BLOCK, K_KITTEH, K_YUM, K_TREE, K_ROLLOUTS, K_BAND, K_CUT1, K_CUT2, K_STOP2,
 K_STOP3, K_TROWS) = range(22)
K_TABLE = 22  # rule table rows: K_TROWS rows of TROW words from here
TROW, TMAXROWS = 6, 4
K_FSAVES = K_TABLE + TROW * TMAXROWS  # Feesh fetches a Blammo!/Nanners to save a repeat
K_DECLINE = K_FSAVES + 1  # an optional consolation draw: 0 always drawn, 1 not when trailing
K_ITERS = K_DECLINE + 1  # the search bot's iterations per decision (kernels/trash_pandas/search.py)
K_EXPLORE = K_ITERS + 1  # its exploration constant (UCB1)
K_MS = K_EXPLORE + 1  # its time budget per decision in milliseconds (0: none)
K_SWITCH = K_MS + 1  # standard errors its choice must lead the heuristic's by (0: plain argmax)
NK = K_SWITCH + 1
BAND_NONE, BAND_DECK, BAND_BEHIND, BAND_TABLE = 0, 1, 2, 3
OP_LE, OP_GE = 0, 1
# features a stop rule table reads (analyzer/advice/table.py; F_ZERO the constant 0)
F_ZERO, F_TOKENS, F_BONUS, F_DECK, F_BEHIND, F_HAND, F_SAVES = range(7)
HEURISTIC, SOLVER, RANDOM, ROLLOUT, SEARCH = 0, 1, 2, 3, 4
TAKE, USE_BLAMMO, USE_NANNERS = 0, 1, 2
FEESH_BLAMMO, FEESH_NANNERS = 3, 4  # a Feesh for that card from the discard pile, spent at once
NO_BLOCK, USE_DOGGO, USE_KITTEH = 0, 1, 2


@plain_types
@njit(cache=True, _nrt=False)
def _usable(g, p, t):
    return g[HAND + p, t] - g[GAIN + p, t]


@plain_types
@njit(cache=True, _nrt=False)
def _clip3(x):
    return 3 if x > 3 else x


@plain_types
@njit(cache=True, _nrt=False)
def _none_or_one_of(s, first_ok, second_ok, none, first, second):
    """A random bot's pick, uniform over ``none`` and whichever of ``first``/``second`` is
    allowed (one ``randint``)."""
    k = randint(s, 1 + first_ok + second_ok)
    if k == 0:
        return none
    if k == 1 and first_ok:
        return first
    return second


@plain_types
@njit(cache=True, _nrt=False)
def _table_index(g, p, mode, held, extra_b, extra_n):
    """The solver tables' index (module doc) with ``extra_b``/``extra_n`` more usable
    Blammo!/Nanners than p holds."""
    b = _clip3(_usable(g, p, BLAMMO) + extra_b)
    n = _clip3(_usable(g, p, NANNERS) + extra_n)
    return (((mode * 64 + held) * 4 + b) * 4 + n) * 4 + _clip3(_usable(g, p, PIE))


@plain_types
@njit(cache=True, _nrt=False)
def after_roll(g, p, bot, held, mode, face, roll_tab, after_tab, s):
    """After rolling ``face``: 0 take it (a bust if held), 1 spend Blammo!, 2 spend Nanners."""
    b = _usable(g, p, BLAMMO)
    n = _usable(g, p, NANNERS)
    kind = int(bot[0])
    if kind == SOLVER:
        return int(after_tab[_table_index(g, p, mode, held, 0, 0) * 6 + face])
    if not (held >> face) & 1:
        return TAKE
    if kind == RANDOM:
        return _none_or_one_of(s, b > 0, n > 0, TAKE, USE_BLAMMO, USE_NANNERS)
    if bot[K_BLAMMO] > 0 and b > 0:
        return USE_BLAMMO
    if bot[K_NANNERS] > 0 and n > 0:
        return USE_NANNERS
    return TAKE


@plain_types
@njit(cache=True, _nrt=False)
def feesh_save(g, p, bot, held, mode, face, roll_tab, after_tab, s):
    """p rolled ``face``, a repeat it would take (a bust): TAKE, or FEESH_BLAMMO/FEESH_NANNERS to
    play a usable Feesh for that card from the discard pile and spend it at once (the rulebook's
    own use of Feesh; the engine asks only under ``feesh_timing = any``).
    A search seat (kind 4) has weighed the fetches in its after-roll choice: TAKE.
    A rollout seat has weighed them too (whole_rollout.after_roll_rollout): TAKE.
    Heuristic, knob ``K_FSAVES`` on (:func:`heuristic_feesh_save`): a Blammo! if
    ``blammo-saves`` is on and p holds no usable Blammo!, else a Nanners likewise. Solver, same
    knob: the card its
    after-roll table would spend on this repeat holding one more of it (fetching and spending
    costs one card, the Feesh, as spending a held card does). Random: uniform over take and the
    fetches the discard pile allows (one ``randint``)."""
    if _usable(g, p, FEESH) < 1:
        return TAKE
    db = g[DISC, BLAMMO] > 0
    dn = g[DISC, NANNERS] > 0
    if not db and not dn:
        return TAKE
    kind = int(bot[0])
    if kind == RANDOM:
        return _none_or_one_of(s, db, dn, TAKE, FEESH_BLAMMO, FEESH_NANNERS)
    if bot[K_FSAVES] <= 0:
        return TAKE
    if kind == SOLVER:
        if db and after_tab[_table_index(g, p, mode, held, 1, 0) * 6 + face] == USE_BLAMMO:
            return FEESH_BLAMMO
        if dn and after_tab[_table_index(g, p, mode, held, 0, 1) * 6 + face] == USE_NANNERS:
            return FEESH_NANNERS
        return TAKE
    if kind == ROLLOUT or kind == SEARCH:
        return TAKE
    return heuristic_feesh_save(g, p, bot, db, dn)


@plain_types
@njit(cache=True, _nrt=False)
def heuristic_feesh_save(g, p, bot, db, dn):
    """The heuristic's Feesh rule at a repeat it would take, with a usable Feesh (its knob
    ``feesh-saves`` on): a Blammo! from the discard pile if ``db``, its ``blammo-saves`` knob is
    on and it holds no usable Blammo!, else a Nanners likewise; else TAKE."""
    if db and bot[K_BLAMMO] > 0 and _usable(g, p, BLAMMO) <= 0:
        return FEESH_BLAMMO
    if dn and bot[K_NANNERS] > 0 and _usable(g, p, NANNERS) <= 0:
        return FEESH_NANNERS
    return TAKE


@plain_types
@njit(cache=True, _nrt=False)
def keep_rolling(g, p, bot, held, nh, mode, roll_tab, s):
    """After taking a token below the cap: True to roll again. Not for table bots: the engine
    that plays them asks :func:`keep_rolling_tables` (kernels/trash_pandas/whole_tables.py)."""
    kind = int(bot[0])
    if kind == SOLVER:
        return roll_tab[_table_index(g, p, mode, held, 0, 0)] == 1
    if kind == RANDOM:
        return randint(s, 2) == 1
    band = int(bot[K_BAND])
    if band == BAND_NONE:
        limit = bot[K_STOP] if mode == 0 else bot[K_BSTOP]
    else:  # the stop limit in bands of one more feature, in every turn (bonus-stop-at unused)
        v = g[SC, 0] if band == BAND_DECK else stash_behind(g, p)
        limit = bot[K_STOP]
        if v >= bot[K_CUT1]:
            limit = bot[K_STOP2]
            if bot[K_CUT2] > 0 and v >= bot[K_CUT2]:
                limit = bot[K_STOP3]
    return nh < limit


@plain_types
@njit(cache=True, _nrt=False)
def keep_rolling_tables(g, p, bot, held, nh, mode, roll_tab, s):
    """:func:`keep_rolling` for an engine in which table bots may play: a heuristic (or a
    rollout seat's base) bot whose ``K_BAND`` is ``BAND_TABLE`` stops by its rule table
    (:func:`rolls_by_table`)."""
    kind = int(bot[0])
    if kind != SOLVER and kind != RANDOM and int(bot[K_BAND]) == BAND_TABLE:
        return rolls_by_table(g, p, bot, nh, mode)
    return keep_rolling(g, p, bot, held, nh, mode, roll_tab, s)


@plain_types
@njit(cache=True, _nrt=False)
def table_feature(g, p, f, nh, mode):
    """Feature ``f`` (``F_*``) of seat p deciding whether to roll again with nh tokens held."""
    if f == F_TOKENS:
        return nh
    if f == F_BONUS:
        return mode
    if f == F_DECK:
        return g[SC, 0]
    if f == F_BEHIND:
        return stash_behind(g, p)
    if f == F_HAND:
        return hand_size(g, p)
    if f == F_SAVES:
        return _usable(g, p, BLAMMO) + _usable(g, p, NANNERS)
    return 0


@plain_types
@njit(cache=True, _nrt=False)
def _table_holds(g, p, bot, at, nh, mode):
    """Whether the condition (feature, comparison, value) at ``bot[at:at + 3]`` holds."""
    x = table_feature(g, p, int(bot[at]), nh, mode)
    v = bot[at + 2]
    return x <= v if int(bot[at + 1]) == OP_LE else x >= v


@plain_types
@njit(cache=True, _nrt=False)
def rolls_by_table(g, p, bot, nh, mode):
    """The stop rule table of ``bot`` (module doc): True to roll again."""
    for r in range(int(bot[K_TROWS])):
        at = K_TABLE + r * TROW
        if _table_holds(g, p, bot, at, nh, mode):
            return _table_holds(g, p, bot, at + 3, nh, mode)
    return False


@plain_types
@njit(cache=True, _nrt=False)
def stash_behind(g, p):
    """Cards by which p's stash trails the biggest other stash (0 when p's is the biggest):
    stash sizes are public (face-down cards are counted, not seen)."""
    mine = stash_size(g, p)
    most = mine
    for q in range(g[SC, 2]):
        if q != p:
            most = max(most, stash_size(g, q))
    return most - mine


@plain_types
@njit(cache=True, _nrt=False)
def plays_yumyum(g, q, bot, nh, s):
    """Opponent q, holding a usable Yum Yum, decides to force the stopping player to roll."""
    if _usable(g, q, YUMYUM) < 1:
        return False
    if int(bot[0]) == RANDOM:
        return randint(s, 2) == 1
    return bot[K_YUM] > 0 and nh >= bot[K_YUM]


@plain_types
@njit(cache=True, _nrt=False)
def block_choice(g, v, bot, s):
    """Player v is the target of a steal: 0 no block, 1 Doggo, 2 Kitteh."""
    d = _usable(g, v, DOGGO) > 0
    k = _usable(g, v, KITTEH) > 0
    if not d and not k:
        return NO_BLOCK
    if int(bot[0]) == RANDOM:
        return _none_or_one_of(s, d, k, NO_BLOCK, USE_DOGGO, USE_KITTEH)
    if bot[K_BLOCK] <= 0:
        return NO_BLOCK
    if k and (bot[K_KITTEH] > 0 or not d):
        return USE_KITTEH
    return USE_DOGGO


@plain_types
@njit(cache=True, _nrt=False)
def _scorable(t, pts, per_card):
    return per_card[t] > 0 or pts[t, 0] > 0


@plain_types
@njit(cache=True, _nrt=False)
def _spare(g, p, bot, t):
    """Cards of type t in p's hand the heuristic is willing to stash (keeps K_KEEP of Blammo!
    and Nanners for its own rolls)."""
    h = g[HAND + p, t]
    if t == BLAMMO or t == NANNERS:
        h -= int(bot[K_KEEP])
    return h if h > 0 else 0


@plain_types
@njit(cache=True, _nrt=False)
def stash_gain(g, p, t, pts, per_card):
    """Visible points p gains by stashing one more card of type t (its own stash against the
    others' face-up cards), times 8, plus the first-place points as a tie-break."""
    if per_card[t] > 0:
        return per_card[t] * 8 + per_card[t]
    players = g[SC, 2]
    gain = 0
    for extra in range(2):
        c = g[STASH + p, t] + extra
        v = 0
        if c > 0:
            place = 0
            tied = 0
            for q in range(players):
                if q == p:
                    continue
                cq = g[UP + q, t]
                if cq == c:
                    tied = 1
                if cq > c:
                    dup = 0
                    for r in range(q):
                        if r != p and g[UP + r, t] == cq:
                            dup = 1
                    if dup == 0:
                        place += 1
            v = pts[t, place] if place < 3 else 0
            if tied and v > 0:
                v -= 1
        gain = v - gain if extra == 1 else v
    return gain * 8 + pts[t, 0]


@plain_types
@njit(cache=True, _nrt=False)
def stash_pick(g, p, bot, pts, per_card, s):
    """The card type p stashes next from hand, or -1 to stash nothing more."""
    if int(bot[0]) == RANDOM:
        hs = hand_size(g, p)
        if hs == 0 or randint(s, 2) == 0:
            return -1
        k = randint(s, hs)
        for t in range(NT):
            if k < g[HAND + p, t]:
                return t
            k -= g[HAND + p, t]
        return -1
    best = -1
    best_v = -1
    for t in range(NT):
        if _spare(g, p, bot, t) > 0 and _scorable(t, pts, per_card):
            v = stash_gain(g, p, t, pts, per_card)
            if v > best_v:
                best, best_v = t, v
    return best


@plain_types
@njit(cache=True, _nrt=False)
def spare_count(g, p, bot, pts, per_card):
    """How many cards in p's hand the heuristic would stash."""
    n = 0
    for t in range(NT):
        if _scorable(t, pts, per_card):
            n += _spare(g, p, bot, t)
    return n


@plain_types
@njit(cache=True, _nrt=False)
def tree_stashes(g, p, bot, stash_slots, pts, per_card, s):
    """Trash-tree: True to stash 1 (at the stash step), False to draw 1 now. The heuristic stashes
    when its spare cards outnumber the stash slots already coming (knob K_TREE = 1)."""
    if int(bot[0]) == RANDOM:
        return randint(s, 2) == 1
    if bot[K_TREE] <= 0:
        return False
    return spare_count(g, p, bot, pts, per_card) > stash_slots


@plain_types
@njit(cache=True, _nrt=False)
def reacts_to_mask(g, q, bot, t, pts, per_card, s):
    """Player q may stash a card of the revealed type t face up: True to do it."""
    if g[HAND + q, t] < 1:
        return False
    if int(bot[0]) == RANDOM:
        return randint(s, 2) == 1
    return bot[K_REACT] > 0 and _spare(g, q, bot, t) > 0 and _scorable(t, pts, per_card)


@plain_types
@njit(cache=True, _nrt=False)
def recycle_as(g, p, bot, held, s):
    """Recycle resolves as a token not held: heuristic priority trash, trees, paw, trash-tree,
    mask; random: uniform over those not held."""
    if int(bot[0]) == RANDOM:
        free = 0
        for tok in range(5):
            if not (held >> tok) & 1:
                free += 1
        k = randint(s, free)
        for tok in range(5):
            if not (held >> tok) & 1:
                if k == 0:
                    return tok
                k -= 1
    for tok in (0, 1, 3, 2, 4):
        if not (held >> tok) & 1:
            return tok
    return -1


@plain_types
@njit(cache=True, _nrt=False)
def pies_to_use(g, p, bot, ntok, s):
    """How many MMM Pie! p spends, one per distinct token (ntok tokens to resolve)."""
    m = _usable(g, p, PIE)
    if ntok < m:
        m = ntok
    if m <= 0:
        return 0
    if int(bot[0]) == RANDOM:
        return randint(s, m + 1)
    return m if bot[K_PIE] > 0 else 0


@plain_types
@njit(cache=True, _nrt=False)
def steal_target(g, p, bot, from_stash, s):
    """Whom p steals from (a hand card for Paw, a stashed card for Shiny), or -1 if nobody has
    one. Heuristic: knob K_TARGET 0 the most stashed cards (the visible leader), 1 the biggest
    hand; ties go to the first seat after p. Random: uniform over those who have one."""
    players = g[SC, 2]
    if int(bot[0]) == RANDOM:
        n = 0
        for j in range(1, players):
            q = (p + j) % players
            if (stash_size(g, q) if from_stash else hand_size(g, q)) > 0:
                n += 1
        if n == 0:
            return -1
        k = randint(s, n)
        for j in range(1, players):
            q = (p + j) % players
            if (stash_size(g, q) if from_stash else hand_size(g, q)) > 0:
                if k == 0:
                    return q
                k -= 1
    best = -1
    best_v = -1
    for j in range(1, players):
        q = (p + j) % players
        have = stash_size(g, q) if from_stash else hand_size(g, q)
        if have <= 0:
            continue
        v = stash_size(g, q) if (from_stash or bot[K_TARGET] == 0) else hand_size(g, q)
        v = v * 64 + have
        if v > best_v:
            best, best_v = q, v
    return best


@plain_types
@njit(cache=True, _nrt=False)
def feesh_pick(g, p, bot, pts, per_card, s):
    """The discard-pile card p fetches with a usable Feesh, or -1 not to play one."""
    if _usable(g, p, FEESH) < 1:
        return -1
    nd = 0
    for t in range(NT):
        nd += g[DISC, t]
    if nd == 0:
        return -1
    if int(bot[0]) == RANDOM:
        if randint(s, 2) == 0:
            return -1
        k = randint(s, nd)
        for t in range(NT):
            if k < g[DISC, t]:
                return t
            k -= g[DISC, t]
        return -1
    if bot[K_FEESH] <= 0:
        return -1
    best = -1
    best_v = -1
    for t in range(NT):  # never a Feesh: fetching one to fetch again gains nothing
        if g[DISC, t] > 0 and t != FEESH and _scorable(t, pts, per_card):
            v = stash_gain(g, p, t, pts, per_card)
            if v > best_v:
                best, best_v = t, v
    return best


@plain_types
@njit(cache=True, _nrt=False)
def shiny_pick(g, p, bot, pts, per_card, s):
    """A usable Shiny: returns (target, type) with type −1 for a blind face-down card, or
    (−1, −1) not to play one. Heuristic: the target of :func:`steal_target`, its best face-up
    card by first-place points, else blind."""
    if _usable(g, p, SHINY) < 1:
        return -1, -1
    kind = int(bot[0])
    if kind != RANDOM and bot[K_SHINY] <= 0:
        return -1, -1
    if kind == RANDOM and randint(s, 2) == 0:
        return -1, -1
    q = steal_target(g, p, bot, True, s)
    if q < 0 or kind == RANDOM:
        return q, -1
    best = -1
    best_v = -1
    for t in range(NT):
        if g[UP + q, t] > 0:
            v = pts[t, 0] + per_card[t]
            if v > best_v:
                best, best_v = t, v
    return q, best


@plain_types
@njit(cache=True, _nrt=False)
def _seen_count(g, p, j, t):
    """Cards of type t in j's stash as seat p sees them: its own whole stash, others' face-up."""
    return g[STASH + j, t] if j == p else g[UP + j, t]


@plain_types
@njit(cache=True, _nrt=False)
def seen_points(g, p, q, pts, per_card):
    """q's end-of-game points if the stashes were what seat p sees (its own whole stash, the
    others' face-up cards): the rules page's scoring (dense places, a tied group p_i − 1, floor
    0). Face-down cards can only add to their owner's counts, so for p this is an upper bound of
    its points; with two players it is also a lower bound of the opponent's when every place's
    points minus one are at least the next place's (true of the shipped deck: 5/3/1, 6/2/1,
    4/2/1), since one more card then never lowers its owner's points."""
    players = g[SC, 2]
    total = 0
    for t in range(NT):
        c = _seen_count(g, p, q, t)
        if per_card[t] > 0:
            total += c * per_card[t]
            continue
        if c <= 0:
            continue
        place = 0
        tied = False
        for j in range(players):
            cj = _seen_count(g, p, j, t)
            if j != q and cj == c:
                tied = True
            if cj > c:
                dup = False
                for k in range(j):
                    if _seen_count(g, p, k, t) == cj:
                        dup = True
                if not dup:
                    place += 1
        v = pts[t, place] if place < 3 else 0
        if tied and v > 0:
            v -= 1
        total += v
    return total


@plain_types
@njit(cache=True, _nrt=False)
def takes_consolation(g, p, bot, pts, per_card, s):
    """With an optional consolation draw (p has just busted): random flips a coin; the
    heuristic and the solver with ``K_DECLINE`` = 1 (``decline-last-card=trailing``) decline
    only when the draw would take the last card of the pile — which ends the game after this
    turn — while p's points as it sees them (:func:`seen_points`) are below some opponent's:
    the game would then end with p behind (surely with two players and the shipped deck:
    p's count is an upper bound and the opponent's a lower one, so declining cannot lose a win
    there), and declining leaves the others the chance to end it later and p the chance to
    catch up; with ``K_DECLINE`` = 0 they always draw."""
    if int(bot[0]) == RANDOM:
        return randint(s, 2) == 1
    if bot[K_DECLINE] <= 0 or g[SC, 0] != 1:
        return True
    mine = seen_points(g, p, p, pts, per_card)
    for q in range(g[SC, 2]):
        if q != p and seen_points(g, p, q, pts, per_card) > mine:
            return False
    return True
