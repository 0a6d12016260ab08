"""The ``rollout:K`` bot: roll or stop, and which card to spend on a repeat, by K determinized
rollouts of the rest of the game; and the engine that plays the bots that think (rollout and
``search`` seats: kernels/trash_pandas/search.py).

Decision
--------
At each of its roll/stop decisions (after taking a token below the cap) and after rolling a face
it already holds while it has a usable Blammo! or Nanners (where the heuristic bot decides), the
seat ``a`` compares its legal choices c (stop/roll; take = bust/Blammo!/Nanners) by

    V(c) = (1/K) Σ_k share_a(game played to its end from world k after choice c),

where world k deals the cards ``a`` cannot see (opponents' hands and face-down stashes, the draw
pile) from the belief that knows the bots' stash rule (kernels/trash_pandas/belief.py
``rule_params``: a uniform deal of the unseen pool — the deck file minus its hand, every face-up
card, its own face-down cards and the discard pile — in which each opponent keeps its hand size
and face-down count and a face-down stash holds only types its bot stashes; the learned tilt of
``decide``'s default belief is not available inside the engine) and
share_a is its win share (ties shared, whole.py ``win_share``). Every choice is played in the same
world on the same random stream (common random numbers). The rest of the game is played by the
*base* bots: every seat by its own bot, a rollout seat by the heuristic bot with the same knobs.
The seat leaves the heuristic's choice h only for the choice c* with the largest Σ share, and
only when c*'s paired lead D = V(c*) − V(h) exceeds ``Z_SWITCH`` = 2 standard errors of itself,
SE = sqrt((mean of d_k² − D²) / K) with d_k the per-world difference (and D > 0): with few
rollouts a noisy lead does not move it off the heuristic (measured: rollout:8 with the plain
argmax won seat 1 in 0.20 of 300 games against two heuristics, the heuristic seat 1 in 0.294). Opponents' gained-this-turn
marks are not known to the seat and are cleared in each world (they can be non-zero only in a
bonus turn after a Doggo draw or a steal).

Random numbers: one ``next_u64`` of the game's stream per decision keys the rollouts (world k's
stream is ``seed_trial(key words, k)``), so a game with a rollout seat is still one reproducible
stream per game, the same whatever the thread count.

Why a twin engine
-----------------
A rollout plays the game with the engine of whole.py, so the engine that runs a rollout bot must
not be that same compiled engine (Numba cannot type a function that calls itself through a
chain of jitted callers; recursion across cached dispatchers also crashes on reload). The twin
functions below are the *same Python code* as whole.py's ``roll_phase``/``play_turn``/
``continue_game``, compiled a second time under a ``_rollout`` name (kernels/twin.py) with their
decision hooks (``after_roll_choice``/``keep_rolling_choice``) and callees swapped for the
rollout ones (whole_games.py's ``play_games`` and whole_decide.py's ``decide_blocks`` take this
``continue_game`` as an argument: kernels/trash_pandas/engine_arg.py); the
rollouts call the rule-table engine (kernels/trash_pandas/whole_tables.py, the plain engine
that also reads table bots' stop rules, so any bot of the line-up may sit in a rollout), which
never calls back. The plain engine, its cache and its results are unchanged by this module. Cost: every decision plays up to 3·K games.
Reference counting: the engine is compiled with ``_nrt=False`` (whole_state.py docstring) and so
are its twins; the functions here allocate and say ``_nrt=True`` explicitly, since a callee
without the option inherits it from the caller being compiled.
Cache note: a twin is cached under whole.py's name with a digest of this module and of
search.py in it (``_SUFFIX``), so an edit of either compiles new twins; after editing another
kernel module they call (whole.py, whole_bots.py, ...) delete ``kernels/**/__pycache__``.
"""
import numpy as np
from numba import njit

from kernels.trash_pandas import search as S
from kernels.trash_pandas import whole as W
from kernels.trash_pandas import whole_bots as B
from kernels.trash_pandas import whole_decide as D
from kernels.trash_pandas import whole_games as G
from kernels.trash_pandas import whole_tables as T
from kernels.trash_pandas.whole_state import BLAMMO, DISC, FEESH, GAIN, HAND, NANNERS, SC
from kernels.twin import digest_suffix, twin
from kernels.widen import plain_types

# The twins are cached beside whole.py; their names carry a digest of the files whose functions
# they call instead of the plain engine's (this one and the search bot's), so editing either
# compiles new twins instead of loading stale ones.
_SUFFIX = digest_suffix(digest_suffix("_rollout", S.__file__), __file__)


@plain_types
@njit(cache=True, _nrt=True)  # allocates; stated, not inherited from a _nrt=False caller
def rollout_values(g, a, bots, mode, held, choices, nch, pts, per_card, copies, rules,
                   roll_tab, after_tab, s):
    """float64[2·nch]: Σ over K worlds of a's win share after each choice, then Σ of the squared
    paired differences with choice 0 (module doc);
    ``choices`` int64[3, 3] rows (entry, face, take/Blammo!/Nanners) as whole.continue_game."""
    players = g[SC, 2]
    base = S.base_bots(bots)
    view, pool, opp_hand, opp_down, bp = S.seat_view(g, a, bots, pts, per_card)
    key = S.decision_key(s)
    world, gc, sw, sc, acc, w, scores = S.playout_scratch()
    sums = np.zeros(2 * nch, dtype=np.float64)  # Σ share_c, then Σ (share_c − share_0)²
    for k in range(int(bots[a, B.K_ROLLOUTS])):
        S.deal_world(world, view, pool, opp_hand, opp_down, a, bp, key, k, sw)
        first = 0.0
        for c in range(nch):
            gc[:, :] = world
            sc[:] = sw
            T.continue_game(gc, a, mode, held, choices[c, 0], choices[c, 1], choices[c, 2], base,
                            pts, per_card, copies, rules, roll_tab, after_tab, acc, sc, w)
            share = W.win_share(gc, a, players, pts, per_card, rules, w, scores)
            if c == 0:
                first = share
            sums[c] += share
            sums[nch + c] += (share - first) ** 2
    return sums


Z_SWITCH = 2.0  # standard errors a paired lead must exceed to leave the heuristic's choice


@plain_types
@njit(cache=True, _nrt=True)  # allocates; stated, not inherited from a _nrt=False caller
def _best(sums, nch, k):
    """Choice 0 (the heuristic's) unless the choice with the largest sum leads it by more than
    one standard error of the paired difference (module doc)."""
    best = 0
    for c in range(1, nch):
        if sums[c] > sums[best]:
            best = c
    if best == 0:
        return 0
    lead = (sums[best] - sums[0]) / k
    var = sums[nch + best] / k - lead * lead
    se = np.sqrt(max(var, 0.0) / k)
    return best if lead > Z_SWITCH * se else 0


@plain_types
@njit(cache=True, _nrt=True)  # allocates; stated, not inherited from a _nrt=False caller
def after_roll_rollout(g, a, bot, bots, held, mode, face, pts, per_card, copies, rules,
                       roll_tab, after_tab, s):
    """A rollout seat's answer to a rolled face: take unless it is a repeat and a card can save
    it; then take (bust) / Blammo! / Nanners / (``feesh_timing = any``) a Feesh for a Blammo!
    or a Nanners from the discard pile, by rollouts. The heuristic's choice, its Feesh rule
    included (whole_bots.feesh_save), is choice 0; the engine then asks feesh_save no more for
    this seat (it returns TAKE for a rollout seat). A search seat asks the search."""
    if int(bot[B.K_KIND]) == B.SEARCH:
        return S.after_roll_search(g, a, bot, bots, held, mode, face, pts, per_card, copies,
                                   rules, roll_tab, after_tab, s)
    if int(bot[B.K_KIND]) != B.ROLLOUT:
        return B.after_roll(g, a, bot, held, mode, face, roll_tab, after_tab, s)
    nb = g[HAND + a, BLAMMO] - g[GAIN + a, BLAMMO]
    nn = g[HAND + a, NANNERS] - g[GAIN + a, NANNERS]
    fe = rules[W.RULE_FEESH] == 0 and g[HAND + a, FEESH] - g[GAIN + a, FEESH] > 0
    fb = fe and g[DISC, BLAMMO] > 0
    fn = fe and g[DISC, NANNERS] > 0
    if not (held >> face) & 1 or (nb <= 0 and nn <= 0 and not fb and not fn):
        return B.TAKE
    h = B.after_roll(g, a, bot, held, mode, face, roll_tab, after_tab, s)  # heuristic: no draw
    if h == B.TAKE and (fb or fn) and bot[B.K_FSAVES] > 0:  # the heuristic's Feesh rule
        h = B.heuristic_feesh_save(g, a, bot, fb, fn)
    choices = np.zeros((5, 3), dtype=np.int64)
    nch = 0
    for d in (h, B.TAKE, B.USE_BLAMMO, B.USE_NANNERS, B.FEESH_BLAMMO,
              B.FEESH_NANNERS):  # the heuristic's choice first
        if (d == B.USE_BLAMMO and nb <= 0 or d == B.USE_NANNERS and nn <= 0
                or d == B.FEESH_BLAMMO and not fb or d == B.FEESH_NANNERS and not fn):
            continue
        seen = False
        for c in range(nch):
            seen = seen or choices[c, 2] == d
        if seen:
            continue
        choices[nch, 0] = W.ENTRY_FACE
        choices[nch, 1] = face
        choices[nch, 2] = d
        nch += 1
    sums = rollout_values(g, a, bots, mode, held, choices, nch, pts, per_card, copies, rules,
                          roll_tab, after_tab, s)
    return choices[_best(sums, nch, bot[B.K_ROLLOUTS]), 2]


@plain_types
@njit(cache=True, _nrt=True)  # allocates; stated, not inherited from a _nrt=False caller
def keep_rolling_rollout(g, a, bot, bots, held, nh, mode, pts, per_card, copies, rules,
                         roll_tab, after_tab, s):
    """A rollout seat rolls again (True) or stops, by rollouts (ties: the heuristic's choice);
    a search seat by the search."""
    if int(bot[B.K_KIND]) == B.SEARCH:
        return S.keep_rolling_search(g, a, bot, bots, held, nh, mode, pts, per_card, copies,
                                     rules, roll_tab, after_tab, s)
    if int(bot[B.K_KIND]) != B.ROLLOUT:
        return B.keep_rolling_tables(g, a, bot, held, nh, mode, roll_tab, s)
    h = B.keep_rolling_tables(g, a, bot, held, nh, mode, roll_tab, s)  # heuristic: no random draw
    choices = np.zeros((3, 3), dtype=np.int64)
    choices[0, 0] = W.ENTRY_ROLL if h else W.ENTRY_STOP
    choices[1, 0] = W.ENTRY_STOP if h else W.ENTRY_ROLL
    sums = rollout_values(g, a, bots, mode, held, choices, 2, pts, per_card, copies, rules,
                          roll_tab, after_tab, s)
    return choices[_best(sums, 2, bot[B.K_ROLLOUTS]), 0] == W.ENTRY_ROLL


@plain_types
@njit(cache=True, _nrt=True)  # allocates; stated, not inherited from a _nrt=False caller
def yumyum_think(g, q, a, bots, held, nh, mode, pts, per_card, copies, rules, roll_tab,
                 after_tab, s):
    """Opponent q's Yum Yum as seat a stops: a search seat searches it
    (search.yumyum_search), every other seat plays as in the plain engine."""
    if int(bots[q, B.K_KIND]) == B.SEARCH:
        return S.yumyum_search(g, q, a, bots, held, nh, mode, pts, per_card, copies, rules,
                               roll_tab, after_tab, s)
    return B.plays_yumyum(g, q, bots[q], nh, s)


roll_phase = twin(W.roll_phase, _SUFFIX, after_roll_choice=after_roll_rollout,
                  keep_rolling_choice=keep_rolling_rollout, yumyum_choice=yumyum_think)
play_turn = twin(W.play_turn, _SUFFIX, roll_phase=roll_phase)
continue_game = twin(W.continue_game, _SUFFIX, play_turn=play_turn)
play_games = G.DRIVER.bind(continue_game)
decide_blocks = D.DRIVER.bind(continue_game)
