"""Go-Stop cards, capture-pile counters, scoring and payment (Numba kernels shared by the engine
and by ``pushluck gostop score``).

Model
-----
Cards are integers. The 48 hwatu cards are ``c = 4*(month-1) + slot`` with the slots in the order
of the deck table in docs/rules/gostop.md (``01B 01R 01J1 01J2``, ``02A 02R 02J1 02J2``, ... ``12B 12A 12R
12D``); jokers are ``48 + j`` (j = 0..4). Everything lives in one int64 state array ``S``
(layout below): the rules vector with per-card tables (kind, junk value, greedy value), then
per-seat pile counters, variables, event counts and policy rows; ``kernels.gostop.state``
appends the cards. One array per call keeps Numba's reference counting out of the hot loop.

A capture pile is summarised by ten counters (``stats_add``): brights, rain bright held, animals
(the sake cup ``09A`` included), godori birds, ribbons, hongdan, cheongdan, chodan ribbons, junk
value (sake cup excluded) and sake cup held. The base score S of rules section 7 is a sum of
lines over those counters::

    brights: 5 -> 15, 4 -> 4 (5 without 12B under four_brights=5), 3 -> 3 (2 with 12B)
    animals >= 5 -> count - 4;  godori (02A 04A 08A) -> 5
    ribbons >= 5 -> count - 4;  hongdan, cheongdan, chodan complete -> 3 each
    junk value >= 10 -> value - 9

With ``sake_cup = flex`` the sake cup is read either as an animal or as a double junk (animals - 1,
junk + 2); ``best_score`` takes the larger S. Payment (section 9) of one opponent o to winner W::

    (S + g') * 2**(shakes [+ bombs under bomb_bonus=korean]) * GO(g) * (2 if W animals >= 7)
      * nagari * (2 if W has >= 3 brights and o none) * (2 if W junk >= 10 and o junk <= t)

with g' = g (g' = min(g, 2) under ``cap2``) and GO(g) per ``go_multiplier`` (``go_factor``);
``settle`` applies it to every opponent, lets the winner pick its best reading of the sake cup and
applies go-bak.

Note on caching: Numba's on-disk cache does not notice edits of constants imported from this
module by the other ``kernels.gostop`` modules; delete ``kernels/gostop/__pycache__`` after
changing the layout constants here.
"""
import numpy as np
from numba import njit

from kernels.widen import plain_types

NCARD = 48
MAXJ = 5
MAXC = NCARD + MAXJ

# kinds
KB, KA, KR, KJ, KX = 0, 1, 2, 3, 4
# groups
G_NONE, G_HONG, G_CHEONG, G_CHO, G_GODORI = 0, 1, 2, 3, 4

SAKE = 4 * 8 + 0      # 09A
RAIN = 4 * 11 + 0     # 12B

# pile statistics (columns of pile_stats)
T_B, T_RAIN, T_A, T_GOD, T_R, T_HONG, T_CHEONG, T_CHO, T_JUNK, T_SAKE = range(10)
NSTAT = 10

# rules vector indices (filled by analyzer.games.gostop.rules_vector)
R_NP = 0            # players
R_TARGET = 1        # stop minimum
R_NJ = 2            # number of jokers
R_FLEX = 3          # sake cup flex (1) or animal (0)
R_GOMODE = 4        # 0 source, 1 korean, 2 literal_gt3, 3 cap2
R_NAGSTACK = 5      # nagari doubling per consecutive nagari (1) or once (0)
R_BOMBK = 6         # bomb_bonus korean
R_BAS = 7           # bomb after shake allowed
R_JAANY = 8         # ja-ppuk scope any earlier turn
R_LASTK = 9         # korean last-turn events
R_PIBAK = 10        # pi-bak threshold
R_PIB0 = 11         # pi-bak exempt at 0 junk
R_GOBAK = 12        # go-bak on
R_CHONG = 13        # chongtong chips from each opponent
R_FOURB5 = 14       # four brights without 12B score 5
R_HAND = 15         # hand size
R_LAYOUT = 16       # layout size
R_JV = 17           # joker values, 5 slots
R_KTAB = 22         # per-card tables (MAXC entries each): kind,
R_JTAB = R_KTAB + MAXC   # junk value (jokers: their value),
R_VTAB = R_JTAB + MAXC   # greedy's capture value (see card_tables)
NRULE = R_VTAB + MAXC

GO_SOURCE, GO_KOREAN, GO_LITERAL, GO_CAP2 = 0, 1, 2, 3


def _tables():
    kind = np.zeros(NCARD, dtype=np.int64)
    junk = np.zeros(NCARD, dtype=np.int64)
    grp = np.zeros(NCARD, dtype=np.int64)
    first = [KB, KA, KB, KA, KA, KA, KA, KB, KA, KA, KB, KB]
    for m in range(12):
        kind[4 * m] = first[m]
        kind[4 * m + 1] = KR
        kind[4 * m + 2] = KJ
        kind[4 * m + 3] = KJ
        junk[4 * m + 2] = 1
        junk[4 * m + 3] = 1
    kind[4 * 7 + 1] = KA          # 08A geese
    kind[4 * 10 + 1] = KJ         # 11D
    junk[4 * 10 + 1] = 2
    kind[4 * 11 + 1] = KA         # 12A swallow
    kind[4 * 11 + 2] = KR         # 12R rain ribbon (no set)
    kind[4 * 11 + 3] = KJ         # 12D lightning
    junk[4 * 11 + 2] = 0
    junk[4 * 11 + 3] = 2
    for m in (0, 1, 2):
        grp[4 * m + 1] = G_HONG
    for m in (5, 8, 9):
        grp[4 * m + 1] = G_CHEONG
    for m in (3, 4, 6):
        grp[4 * m + 1] = G_CHO
    grp[4 * 1] = G_GODORI
    grp[4 * 3] = G_GODORI
    grp[4 * 7 + 1] = G_GODORI
    return kind, junk, grp


CKIND, CJUNK, CGRP = _tables()


def card_tables(joker_values):
    """Per-card tables for the rules vector: kind, junk value and greedy's capture value.

    Greedy's value in tenths of a junk: bright 6 (the rain bright 4), godori bird 4, other
    animal 3, set ribbon 3.5, rain ribbon 2.5, junk 1 per unit of junk value (jokers included).
    """
    kind = np.full(MAXC, KX, dtype=np.int64)
    junk = np.zeros(MAXC, dtype=np.int64)
    value = np.zeros(MAXC, dtype=np.int64)
    kind[:NCARD] = CKIND
    junk[:NCARD] = CJUNK
    for j, v in enumerate(joker_values):
        junk[NCARD + j] = v
    for c in range(MAXC):
        k = kind[c]
        if k == KB:
            value[c] = 40 if c == RAIN else 60
        elif k == KA:
            value[c] = 40 if CGRP[c] == G_GODORI else 30
        elif k == KR:
            value[c] = 35 if CGRP[c] != G_NONE else 25
        else:
            value[c] = 10 * junk[c]
    return kind, junk, value


@njit(cache=True, _nrt=False)
def card_kind(c, S):
    return S[RB + R_KTAB + c]


@njit(cache=True, _nrt=False)
def card_junk(c, S):
    """Junk value of a card: 1 single, 2 double, the joker's value, 0 otherwise."""
    return S[RB + R_JTAB + c]


def _stat_tables():
    """``stats_add``'s tables: the first counter of a card kind, and per (kind, card) the second
    counter it moves (rain bright, godori bird, sake cup, ribbon set) with a 0/1 amount."""
    first = np.array([T_B, T_A, T_R, T_JUNK, T_JUNK], dtype=np.int64)
    second = np.zeros(5 * MAXC, dtype=np.int64)
    amount = np.zeros(5 * MAXC, dtype=np.int64)
    sets = {G_HONG: T_HONG, G_CHEONG: T_CHEONG, G_CHO: T_CHO}
    for k in range(5):
        for c in range(NCARD):
            t = -1
            if k == KB and c == RAIN:
                t = T_RAIN
            elif k == KA and CGRP[c] == G_GODORI:
                t = T_GOD
            elif k == KA and c == SAKE:
                t = T_SAKE
            elif k == KR and CGRP[c] in sets:
                t = sets[CGRP[c]]
            if t >= 0:
                second[k * MAXC + c] = t
                amount[k * MAXC + c] = 1
    return first, second, amount


STAT_FIRST, STAT_SECOND, STAT_SECOND_ON = _stat_tables()


@plain_types
@njit(cache=True, _nrt=False)
def stats_add(S, p, c, sign):
    """Add (sign=1) or remove (sign=-1) card c to/from row p of the pile counters PS.

    A bright, animal or ribbon moves its kind's counter by one, junk (jokers included) moves the
    junk value by the card's; a second counter (rain bright, godori, sake cup, ribbon set) comes
    from a table (branch-free: the kinds and sets are the deck's)."""
    k = S[RB + R_KTAB + c]
    row = PSB + p * NSTAT
    S[row + STAT_FIRST[k]] += sign * (1 if k <= KR else S[RB + R_JTAB + c])
    S[row + STAT_SECOND[k * MAXC + c]] += sign * STAT_SECOND_ON[k * MAXC + c]


@njit(cache=True, _nrt=False)
def bright_points(nb, rain, fourb5):
    if nb >= 5:
        return 15
    if nb == 4:
        if fourb5 != 0 and rain == 0:
            return 5
        return 4
    if nb == 3:
        return 2 if rain != 0 else 3
    return 0


@njit(cache=True, _nrt=False)
def base_score(nb, rain, na, ngod, nr, nh, nc, nch, junk, fourb5):
    """Base score S of rules section 7 from the pile counters (one reading of the sake cup)."""
    s = bright_points(nb, rain, fourb5)
    if na >= 5:
        s += na - 4
    if ngod == 3:
        s += 5
    if nr >= 5:
        s += nr - 4
    if nh == 3:
        s += 3
    if nc == 3:
        s += 3
    if nch == 3:
        s += 3
    if junk >= 10:
        s += junk - 9
    return s


@plain_types
@njit(cache=True, _nrt=False)
def score_reading(S, p, as_junk):
    """S with the sake cup read as an animal (as_junk=0) or as a double junk (as_junk=1)."""
    na = S[PSB + p * NSTAT + T_A]
    junk = S[PSB + p * NSTAT + T_JUNK]
    if as_junk != 0 and S[PSB + p * NSTAT + T_SAKE] > 0:
        na -= 1
        junk += 2
    r = PSB + p * NSTAT
    return base_score(S[r + T_B], S[r + T_RAIN], na, S[r + T_GOD], S[r + T_R], S[r + T_HONG],
                      S[r + T_CHEONG], S[r + T_CHO], junk, S[RB + R_FOURB5])


@plain_types
@njit(cache=True, _nrt=False)
def best_score(S, p):
    """S for the go/stop check: the owner's best reading of the sake cup under flex."""
    a = score_reading(S, p, 0)
    if S[RB + R_FLEX] != 0 and S[PSB + p * NSTAT + T_SAKE] > 0:
        b = score_reading(S, p, 1)
        if b > a:
            return b
    return a


@njit(cache=True, _nrt=False)
def go_factor(g, mode):
    """GO(g) of rules section 9."""
    if mode == GO_SOURCE:
        return 2 if g >= 3 else 1
    if mode == GO_LITERAL:
        return 2 if g >= 4 else 1
    if g >= 3:  # korean and cap2
        return 1 << (g - 2)
    return 1


@plain_types
@njit(cache=True, _nrt=False)
def pay_one(S, w, as_junk, g, doublings, nagari_mult, o):
    """What opponent o (row o) pays winner W (row w of PS, sake reading as_junk).

    ``doublings`` = shaken months (+ bombs under korean bomb bonus). The loser reads its own sake
    cup as junk under flex (it can only help it escape pi-bak).
    """
    na = S[PSB + w * NSTAT + T_A]
    wj = S[PSB + w * NSTAT + T_JUNK]
    if as_junk != 0 and S[PSB + w * NSTAT + T_SAKE] > 0:
        na -= 1
        wj += 2
    r = PSB + w * NSTAT
    s = base_score(S[r + T_B], S[r + T_RAIN], na, S[r + T_GOD], S[r + T_R], S[r + T_HONG],
                   S[r + T_CHEONG], S[r + T_CHO], wj, S[RB + R_FOURB5])
    gp = g
    if S[RB + R_GOMODE] == GO_CAP2 and g > 2:
        gp = 2
    amount = (s + gp) * (1 << doublings) * go_factor(g, S[RB + R_GOMODE]) * nagari_mult
    if na >= 7:
        amount *= 2
    if S[PSB + w * NSTAT + T_B] >= 3 and S[PSB + o * NSTAT + T_B] == 0:
        amount *= 2
    oj = S[PSB + o * NSTAT + T_JUNK]
    if S[RB + R_FLEX] != 0 and S[PSB + o * NSTAT + T_SAKE] > 0:
        oj += 2
    if wj >= 10 and oj <= S[RB + R_PIBAK] and not (S[RB + R_PIB0] != 0 and oj == 0):
        amount *= 2
    return amount


@njit(cache=True, _nrt=False)
def nagari_factor(nagari_prev, S):
    """x2 after a nagari (once), or x2 per consecutive nagari under nagari_multiplier=stack."""
    if nagari_prev <= 0:
        return 1
    if S[RB + R_NAGSTACK] != 0:
        return 1 << min(nagari_prev, 20)
    return 2


# per-player variables (block PVB of the state array)
V_GO = 0         # times the player said go
V_LASTGO = 1     # score at the last go
V_SHAKES = 2     # months shaken
V_SHAKEMASK = 3  # bit m set: month m (0-based) declared by a shake
V_SKIP = 4       # bomb skip tokens left
V_TURNS = 5      # turns taken this deal
V_BOMBS = 6      # bombs made
V_FIRSTGO = 7    # order stamp of the player's first go (large when none)
NVAR = 8
NO_GO = 1 << 30

# ---- the flat state array -----------------------------------------------------------------
# Everything a deal needs lives in ONE int64 array S (rules, pile counters, per-seat variables,
# event counts, policy rows, then the engine's cards and scratch, see kernels.gostop.state): passing
# a single array between the engine's functions keeps Numba's reference-count traffic low.
MAXP = 3
NEV = 10
# a policy row: kind, go K, go turns, shake flag, then the go rule table of the ``table`` kind
# (its row count, then TMAXROWS rows of TROW words; layout in kernels.gostop.state)
TROW = 6
TMAXROWS = 4
NPOL = 5 + TMAXROWS * TROW
RB = 0                                   # rules vector (NRULE)
PSB = RB + NRULE                         # pile counters, (MAXP + 1) rows of NSTAT (last: scratch)
PVB = PSB + (MAXP + 1) * NSTAT           # per-seat variables, MAXP rows of NVAR
EVB = PVB + MAXP * NVAR                  # per-seat event counts, MAXP rows of NEV
POLB = EVB + MAXP * NEV                  # policy rows, MAXP rows of NPOL
ENG = POLB + MAXP * NPOL                 # start of the engine block (kernels.gostop.state)


@njit(cache=True, _nrt=False)
def settle(S, w, nplayers, nagari_prev, out):
    """Net payment of every seat when seat ``w`` stops (rules section 9); fills ``out``.

    The winner reads the sake cup (flex) the way that maximises the total collected. With go-bak
    the opponent who called go first pays everybody's amount and the other loser nothing.
    """
    for p in range(out.shape[0]):
        out[p] = 0
    dbl = S[PVB + w * NVAR + V_SHAKES]
    if S[RB + R_BOMBK] != 0:
        dbl += S[PVB + w * NVAR + V_BOMBS]
    nm = nagari_factor(nagari_prev, S)
    g = S[PVB + w * NVAR + V_GO]
    reading = 0
    readings = 1
    if S[RB + R_FLEX] != 0 and S[PSB + w * NSTAT + T_SAKE] > 0:
        readings = 2
    best = -1
    for rd in range(readings):
        tot = 0
        for o in range(nplayers):
            if o != w:
                tot += pay_one(S, w, rd, g, dbl, nm, o)
        if tot > best:
            best = tot
            reading = rd
    payer = -1
    if S[RB + R_GOBAK] != 0:
        stamp = NO_GO
        for o in range(nplayers):
            if o != w and S[PVB + o * NVAR + V_GO] > 0 and S[PVB + o * NVAR + V_FIRSTGO] < stamp:
                stamp = S[PVB + o * NVAR + V_FIRSTGO]
                payer = o
    for o in range(nplayers):
        if o != w:
            a = pay_one(S, w, reading, g, dbl, nm, o)
            if payer >= 0:
                out[payer] -= a
            else:
                out[o] -= a
            out[w] += a
    return reading
