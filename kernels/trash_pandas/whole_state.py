"""Trash Pandas whole game: the state array, drawing, stealing helpers, scoring, conservation.

State encoding
--------------
One game lives in ``g``, an int64 array of shape (19, 8) (card types are columns, in the order
of :data:`CARDS`: 0 blammo, 1 doggo, 2 feesh, 3 kitteh, 4 pie, 5 nanners, 6 shiny, 7 yumyum):

* ``g[HAND + p, t]``  cards of type t in player p's hand (p < 4);
* ``g[STASH + p, t]`` cards of type t in p's stash (face up and face down together);
* ``g[UP + p, t]``    of those, the ones stashed face up (by a Bandit Mask reaction);
* ``g[GAIN + p, t]``  cards of type t p gained during the current turn: ``hand − gain`` are the
  cards p may play for their action now (a gained card may still be stashed);
* ``g[DISC, t]``      the public discard pile; ``g[DECK, t]`` the draw pile (as counts: a draw takes
  one card uniformly at random from the pile, which is the same law as drawing from a shuffled
  pile and lets a decision position deal unseen cards by counts);
* ``g[SC, 0]`` cards left in the draw pile, ``g[SC, 1]`` 1 once the last card has been drawn,
  ``g[SC, 2]`` players.

No reference counting: the functions of this module, whole_bots.py and whole.py are compiled
with ``_nrt=False``. They never allocate, and every array they touch is owned by the caller that
allocated it (whole_games.play_games, whole_decide.decide_blocks, whole_rollout.rollout_values),
so the atomic NRT_incref/NRT_decref Numba otherwise emits for every array argument and slice is
not needed; a profile of play_games (perf, one core) put about 70% of its time in those two
atomic instructions. Results are unchanged (tests/test_kernel_pins.py).

The row and type indices live in layout.py (no Numba import, so parsing a position needs none).
Dealing the cards a seat cannot see (``decide``, the ``rollout:K`` bot) is a belief's job:
kernels/trash_pandas/belief.py.

Conservation: for every type t, Σ_p (hand + stash) + discard + deck = copies[t].
Removing a card from a hand other than by playing it (stash, stolen) uses up a gained card first
(``gain = min(gain, hand)`` afterwards), so the cards left usable are the old ones.
"""
from numba import njit

from kernels.rng import randint
from kernels.trash_pandas.layout import (BLAMMO, CARDS, DECK, DISC, DOGGO, FEESH, GAIN, HAND,  # noqa: F401
                                         KITTEH, MAXP, NANNERS, NROWS, NT, PIE, SC, SHINY,
                                         STASH, UP, YUMYUM, new_state)
from kernels.widen import plain_types


@plain_types
@njit(cache=True, _nrt=False)
def reset(g, copies, players):
    """Empty hands, stashes and discard; the full deck in the draw pile."""
    for r in range(NROWS):
        for t in range(NT):
            g[r, t] = 0
    n = 0
    for t in range(NT):
        g[DECK, t] = copies[t]
        n += copies[t]
    g[SC, 0] = n
    g[SC, 2] = players


@plain_types
@njit(cache=True, _nrt=False)
def pick_from(g, row, total, s):
    """A type drawn uniformly at random from the ``total`` cards counted in row ``row``
    (one ``randint(total)``; types walked in order 0..7). Does not change ``g``."""
    k = randint(s, total)
    for t in range(NT):
        c = g[row, t]
        if k < c:
            return t
        k -= c
    return NT - 1  # unreachable when total = Σ row


@plain_types
@njit(cache=True, _nrt=False)
def draw(g, p, s):
    """Player p draws one card into hand (gained this turn); returns its type or -1 if the
    pile is empty. Drawing the last card sets the end flag."""
    n = g[SC, 0]
    if n == 0:
        return -1
    t = pick_from(g, DECK, n, s)
    g[DECK, t] -= 1
    g[SC, 0] = n - 1
    g[HAND + p, t] += 1
    g[GAIN + p, t] += 1
    if n - 1 == 0:
        g[SC, 1] = 1
    return t


@plain_types
@njit(cache=True, _nrt=False)
def row_total(g, row):
    """Σ_t g[row, t]: the cards counted in one row."""
    s = 0
    for t in range(NT):
        s += g[row, t]
    return s


@plain_types
@njit(cache=True, _nrt=False)
def hand_size(g, p):
    return row_total(g, HAND + p)


@plain_types
@njit(cache=True, _nrt=False)
def stash_size(g, p):
    return row_total(g, STASH + p)


@plain_types
@njit(cache=True, _nrt=False)
def usable(g, p, t):
    """Cards of type t player p may play for their action now."""
    return g[HAND + p, t] - g[GAIN + p, t]


@plain_types
@njit(cache=True, _nrt=False)
def play_card(g, p, t):
    """Discard one usable card of type t from p's hand (the caller checked usable ≥ 1)."""
    g[HAND + p, t] -= 1
    g[DISC, t] += 1


@plain_types
@njit(cache=True, _nrt=False)
def leave_hand(g, p, t):
    """One card of type t leaves p's hand by a stash or a steal (a gained one first)."""
    g[HAND + p, t] -= 1
    if g[GAIN + p, t] > g[HAND + p, t]:
        g[GAIN + p, t] = g[HAND + p, t]


@plain_types
@njit(cache=True, _nrt=False)
def stash_card(g, p, t, face_up):
    """p stashes one card of type t from hand (face up for a Mask reaction)."""
    leave_hand(g, p, t)
    g[STASH + p, t] += 1
    if face_up:
        g[UP + p, t] += 1


@plain_types
@njit(cache=True, _nrt=False)
def take_stash_card(g, p, t, face_up):
    """One stashed card of type t leaves p's stash (face up or face down)."""
    g[STASH + p, t] -= 1
    if face_up:
        g[UP + p, t] -= 1


@plain_types
@njit(cache=True, _nrt=False)
def majority(counts, nplayers, p1, p2, p3, out):
    """Points of each player for one majority type into ``out`` (rules page: dense places, a
    tied group scores p_i − 1, floor 0; places beyond the third score 0)."""
    for i in range(nplayers):
        c = counts[i]
        out[i] = 0
        if c <= 0:
            continue
        place = 0  # dense place: distinct larger counts
        tied = 0
        for j in range(nplayers):
            cj = counts[j]
            if cj == c and j != i:
                tied = 1
            if cj > c:
                dup = 0
                for k in range(j):
                    if counts[k] == cj:
                        dup = 1
                        break
                if dup == 0:
                    place += 1
        if place == 0:
            v = p1
        elif place == 1:
            v = p2
        elif place == 2:
            v = p3
        else:
            v = 0
        if tied:
            v = max(v - 1, 0)
        out[i] = v


@plain_types
@njit(cache=True, _nrt=False)
def score_game(g, pts, per_card, nplayers, counts, tmp, scores):
    """End-of-game points of each player into ``scores`` (int64[4]); returns nothing.
    ``pts`` int64[8, 3] majority points by place, ``per_card`` int64[8] (Blammo!: 1);
    ``counts``/``tmp`` int64[4] scratch."""
    for i in range(MAXP):
        scores[i] = 0
    for t in range(NT):
        for i in range(nplayers):
            counts[i] = g[STASH + i, t]
        if per_card[t] > 0:
            for i in range(nplayers):
                scores[i] += counts[i] * per_card[t]
        else:
            majority(counts, nplayers, pts[t, 0], pts[t, 1], pts[t, 2], tmp)
            for i in range(nplayers):
                scores[i] += tmp[i]


@plain_types
@njit(cache=True, _nrt=False)
def rank_key(g, scores, i, shared):
    """(points, distinct types stashed, stashed cards) packed into one comparable integer;
    points alone when ``shared`` (a tie on points is shared)."""
    if shared:
        return scores[i]
    distinct = 0
    for t in range(NT):
        if g[STASH + i, t] > 0:
            distinct += 1
    return (scores[i] * 16 + distinct) * 1024 + stash_size(g, i)


@plain_types
@njit(cache=True, _nrt=False)
def conserved(g, copies, nplayers):
    """True when every card of the deck file is in exactly one place (and no count is < 0)."""
    for t in range(NT):
        tot = g[DISC, t] + g[DECK, t]
        if g[DISC, t] < 0 or g[DECK, t] < 0:
            return False
        for p in range(nplayers):
            if g[HAND + p, t] < 0 or g[UP + p, t] < 0 or g[UP + p, t] > g[STASH + p, t]:
                return False
            if g[GAIN + p, t] < 0 or g[GAIN + p, t] > g[HAND + p, t]:
                return False
            tot += g[HAND + p, t] + g[STASH + p, t]
        if tot != copies[t]:
            return False
    n = 0
    for t in range(NT):
        n += g[DECK, t]
    return n == g[SC, 0]
