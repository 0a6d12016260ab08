"""Trash Pandas: a world drawn from a belief about the cards a seat cannot see.

What belongs here: :func:`sample_world` (one world, in Numba, for ``decide``, the ``rollout:K``
bot and any later search bot) and the layout of its parameter vector. What the parameters say
(which bot would have stashed what) is learned in Python: analyzer/games/trash_pandas/belief.py.

The model
---------
Seat ``me`` sees its hand and whole stash, every face-up card, the discard pile, the size of each
opponent's hand and face-down stash, and the cards left. The *unseen* cards (``pool`` int64[8]
by type: the deck file minus all of that) are split into *places*: opponent q's hand (place
2q), q's face-down stash (place 2q + 1), the draw pile (place 8). A split is a table
``x[place, t]`` whose place sizes (row sums: ``opp_hand[q]``, ``opp_down[q]``, cards left) and
type totals (column sums: ``pool[t]``) are fixed by what the seat saw. Its probability is

    P(x) ∝ [Π_t pool[t]! / Π_places x[place, t]!] · Π_{q, kind, t} exp(w[q, kind, t, x[2q + kind, t]])
           · Π_q Π_t 1{x[2q + 1, t] = 0 or down_ok[q, t]}

The first factor is the uniform deal (every arrangement of the unseen cards into the places'
slots equally likely: a multivariate hypergeometric split), the second a tilt by log-weights per
cell (a function of the count of type t in that place; the pile is the reference, weight 0), the
third a hard rule: a type the opponent's bot never stashes face down (``down_ok`` 0) is never
dealt there. With all log-weights 0 this is the uniform deal restricted to the allowed splits.

Sampling: a start split, then a Metropolis chain on the cards. The start deals, one ``randint``
per card, ``opp_down[q]`` cards into each face-down stash that forbids some type (from the unseen
cards of an allowed type), then into the other face-down stashes, then the hands; the pile gets
the rest (opponents in seat order after ``me`` within each step). With zero log-weights this
start is already an exact draw when every restricted stash forbids the same types (as the bots'
rule does): it is then the card-level uniform deal over the allowed arrangements (dealing the
restricted places first from the allowed cards gives every allowed arrangement the same
probability), and it fails only when no allowed arrangement exists. The chain repeats ``steps`` = ``bp[BP_STEPS]`` × (hidden
cards) times: pick two card slots uniformly (two ``randint``); if they lie in different places
and hold different types, propose to swap the two cards; refuse a swap that puts a forbidden type
face down, else accept with probability min(1, exp(Δ)), Δ the change in the tilt (four cells
change by one card each; the uniform part is the same for every arrangement of the cards, so the
proposal, symmetric in the slots, leaves the target above invariant). Every random number comes
from the caller's stream ``s``, so a world is a function of the trial's stream.

Parameter vector ``bp`` (float64): ``bp[BP_STEPS]`` chain steps per hidden card (0: the start
split is the world, exact when the log-weights are 0); ``bp[BP_XN]`` = XN, cells per log-weight
row; ``bp[BP_DOWN_OK + 8q + t]`` 1 if seat q's bot may hold type t face down; from ``BP_LOGW``,
``w[q, kind, t, x]`` at ``BP_LOGW + ((q·2 + kind)·8 + t)·XN + min(x, XN − 1)`` (kind 0 hand,
1 face down; rows for ``me`` and unused seats unread).
"""
import numpy as np
from numba import njit

from kernels.rng import next_double, randint
from kernels.trash_pandas.layout import DECK, GAIN, HAND, MAXP, NROWS, NT, SC, STASH, UP
from kernels.trash_pandas.whole_bots import RANDOM
from kernels.widen import plain_types

BP_STEPS, BP_XN, BP_DOWN_OK = 0, 1, 2
BP_LOGW = BP_DOWN_OK + MAXP * NT
PILE = 2 * MAXP  # place index of the draw pile


RULE_SIZE = BP_LOGW + MAXP * 2 * NT  # length of :func:`rule_params`' vector (one cell a row)


def params_size(xn: int) -> int:
    """Length of a parameter vector whose log-weight rows hold ``xn`` cells."""
    return BP_LOGW + MAXP * 2 * NT * xn


@plain_types
@njit(cache=True)
def _logw(bp, place, t, x):
    """Log-weight of ``x`` cards of type t in ``place`` (0 for the pile)."""
    if place == PILE:
        return 0.0
    xn = int(bp[BP_XN])
    return bp[BP_LOGW + (place * NT + t) * xn + min(x, xn - 1)]


@plain_types
@njit(cache=True)
def _allowed(bp, place, t):
    """May a card of type t lie in ``place``? (Only face-down stashes forbid types.)"""
    if place == PILE or place % 2 == 0:
        return True
    return bp[BP_DOWN_OK + (place // 2) * NT + t] > 0.0


@plain_types
@njit(cache=True)
def _deal_into(cnt, slot_place, slot_type, n, place, k, pool, total_ok, bp, s):
    """Deal ``k`` cards of allowed types from ``pool`` into ``place`` (slots from ``n`` on);
    returns the new slot count. ``total_ok``: allowed unseen cards (≥ k, checked by the
    caller)."""
    for _ in range(k):
        r = randint(s, total_ok)
        for t in range(NT):
            c = pool[t] if _allowed(bp, place, t) else 0
            if r < c:
                pool[t] -= 1
                cnt[place, t] += 1
                slot_place[n] = place
                slot_type[n] = t
                n += 1
                total_ok -= 1
                break
            r -= c
    return n


@plain_types
@njit(cache=True)
def _restricted(bp, q):
    """Does seat q's face-down stash forbid some type?"""
    for t in range(NT):
        if bp[BP_DOWN_OK + q * NT + t] <= 0.0:
            return True
    return False


@plain_types
@njit(cache=True)
def _allowed_total(pool, bp, place):
    n = 0
    for t in range(NT):
        if _allowed(bp, place, t):
            n += pool[t]
    return n


@plain_types
@njit(cache=True)
def sample_world(g, view, pool0, opp_hand, opp_down, me, bp, s):
    """Fill ``g`` with ``view`` (what ``me`` sees: opponents' hand rows and the draw pile's row
    0, their stash rows holding the face-up cards) plus one split of the unseen cards ``pool0``
    drawn from the belief ``bp`` (module doc): the split's cards are added to the opponents' hand
    and stash rows and to the draw pile's row. With nothing unseen (``pool0``, ``opp_hand`` and
    ``opp_down`` zero) ``g`` is a copy of ``view``, which may then be a full state. Returns False
    (``g`` then undefined) when no allowed split exists (more face-down cards than unseen cards
    of allowed types); callers check feasibility beforehand."""
    for r in range(NROWS):
        for t in range(NT):
            g[r, t] = view[r, t]
    players = view[SC, 2]
    pool = pool0.copy()
    cnt = np.zeros((PILE + 1, NT), dtype=np.int64)
    hidden = 0
    for t in range(NT):
        hidden += pool[t]
    slot_place = np.empty(max(hidden, 1), dtype=np.int64)
    slot_type = np.empty(max(hidden, 1), dtype=np.int64)
    n = 0
    for phase in range(3):  # restricted face-down stashes, the other ones, then hands
        for j in range(1, players):
            q = (me + j) % players
            place = 2 * q + (1 if phase < 2 else 0)
            if phase < 2 and _restricted(bp, q) != (phase == 0):
                continue
            k = opp_down[q] if phase < 2 else opp_hand[q]
            ok = _allowed_total(pool, bp, place)
            if ok < k:
                return False
            n = _deal_into(cnt, slot_place, slot_type, n, place, k, pool, ok, bp, s)
    for t in range(NT):  # the rest is the draw pile
        for _ in range(pool[t]):
            slot_place[n] = PILE
            slot_type[n] = t
            n += 1
        cnt[PILE, t] = pool[t]
    steps = int(bp[BP_STEPS] * hidden)
    if hidden >= 2:
        for _ in range(steps):
            i = randint(s, hidden)
            j = randint(s, hidden)
            pi, pj = slot_place[i], slot_place[j]
            ti, tj = slot_type[i], slot_type[j]
            if pi == pj or ti == tj:
                continue
            if not _allowed(bp, pi, tj) or not _allowed(bp, pj, ti):
                continue
            ci, cj = cnt[pi, ti], cnt[pj, tj]
            ai, aj = cnt[pi, tj], cnt[pj, ti]
            delta = (_logw(bp, pi, ti, ci - 1) - _logw(bp, pi, ti, ci)
                     + _logw(bp, pi, tj, ai + 1) - _logw(bp, pi, tj, ai)
                     + _logw(bp, pj, tj, cj - 1) - _logw(bp, pj, tj, cj)
                     + _logw(bp, pj, ti, aj + 1) - _logw(bp, pj, ti, aj))
            if delta < 0.0 and next_double(s) >= np.exp(delta):
                continue
            cnt[pi, ti] -= 1
            cnt[pi, tj] += 1
            cnt[pj, tj] -= 1
            cnt[pj, ti] += 1
            slot_type[i] = tj
            slot_type[j] = ti
    for q in range(players):
        if q == me:
            continue
        for t in range(NT):
            g[HAND + q, t] += cnt[2 * q, t]
            g[STASH + q, t] += cnt[2 * q + 1, t]
    for t in range(NT):
        g[DECK, t] += cnt[PILE, t]
    return True


@plain_types
@njit(cache=True)
def public_view(g, me, view, pool, opp_hand, opp_down):
    """What seat ``me`` sees of the full state ``g``: ``view`` (opponents' hands and gained marks
    cleared, their stash rows holding only the face-up cards, the draw pile's contents cleared;
    the cards left stay in ``view[SC, 0]``), the unseen cards ``pool`` by type and each
    opponent's hand size and face-down count (all written in place)."""
    players = g[SC, 2]
    for r in range(NROWS):
        for t in range(NT):
            view[r, t] = g[r, t]
    for t in range(NT):
        pool[t] = g[DECK, t]
        view[DECK, t] = 0
    for q in range(MAXP):
        opp_hand[q] = 0
        opp_down[q] = 0
    for q in range(players):
        if q == me:
            continue
        for t in range(NT):
            down = g[STASH + q, t] - g[UP + q, t]
            pool[t] += g[HAND + q, t] + down
            opp_hand[q] += g[HAND + q, t]
            opp_down[q] += down
            view[HAND + q, t] = 0
            view[GAIN + q, t] = 0
            view[STASH + q, t] = g[UP + q, t]


@plain_types
@njit(cache=True)
def rule_params(bp, bots, pts, per_card):
    """Fill ``bp`` (``RULE_SIZE`` long) with the belief that knows only the bots' stash rule:
    seat q's face-down stash never holds a type its bot never stashes face down (heuristic,
    solver and rollout bots stash only scoring types: first-place points or points per card;
    the random bot any type), no tilt, no chain (the start split is an exact draw)."""
    for i in range(bp.shape[0]):
        bp[i] = 0.0
    bp[BP_XN] = 1.0
    for q in range(MAXP):
        anything = int(bots[q, 0]) == RANDOM
        for t in range(NT):
            if anything or per_card[t] > 0 or pts[t, 0] > 0:
                bp[BP_DOWN_OK + q * NT + t] = 1.0


@plain_types
@njit(cache=True)
def open_params(bp):
    """Lift the face-down rule of ``bp`` (every type allowed everywhere): the fallback when a
    state could not have come from the bots' play (``sample_world`` found no allowed split)."""
    for i in range(MAXP * NT):
        bp[BP_DOWN_OK + i] = 1.0
