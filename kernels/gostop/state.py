"""Go-Stop deal engine, the state: layout of the one flat state array and the card moves.

Model
-----
One deal of Go-Stop (``docs/rules/gostop.md``, sections 3-9) between 2 or 3 seats;
seat 0 deals and moves first. The whole state is ONE flat int64 array ``S`` (allocated once per
block; a single array keeps Numba's reference counting out of the hot loop), in blocks:
the rules vector, pile counters, per-seat variables (go count, score at last go, shakes, skip
tokens, turns taken, bombs, first-go stamp), event counts and policy rows (offsets in
``kernels.gostop.score``), then hands, the layout by month (a month holding 3 cards *is* a triple
stack, tagged with its creator and the creator's turn index), the stock and its read position,
capture piles, and scratch (pending captures, counters, the deck buffer, script words).

This module holds the engine block's offsets, the event, policy and outcome codes, the small card
moves a turn is made of (to a pile, to/from the layout, from a hand, draws from the stock, junk
steals) and ``new_state``/``views``. The turn is in ``kernels.gostop.turn``, the deal (shuffle,
dealing, pre-play checks, the turn loop, invariant checks) in ``kernels.gostop.deal``.

No reference counting: the engine's functions (this module, ``score``, ``turn``, ``deal``) are
compiled with ``_nrt=False``. They never allocate; every array they touch is owned by a caller
(``kernels.gostop.batch``, ``kernels.gostop.record``, tests). With reference counting on, each
call passing ``S`` or the random state cost an increment and a decrement (external calls, atomic
for owned arrays): a third of a deal's time (issue 16).

Policies are rows of an int64 array: kind (0 greedy, 1 go:k, 2 random, 3 table), k, the minimum
number of own turns left to say go, shake flag (columns ``P_*``, kinds ``PK_*``);
``kernels.gostop.turn`` reads them. A ``table`` policy plays the hand like greedy and decides go or stop by its **go rule
table**: ``P_NROWS`` rows from column ``P_ROWS``, each of ``TROW`` words

    guard feature, guard comparison, guard value, test feature, test comparison, test value

(columns ``T_*``). The first row whose guard holds decides: go iff its test holds; no row holding
means stop. A comparison is ``OP_LE`` (feature ≤ value) or ``OP_GE`` (feature ≥ value). Features
(``F_*``, what the seat can see when it may stop): 0 a constant 0 (so ``0 ≤ 0`` always holds and
``0 ≥ 1`` never does), 1 the gos it has said this deal, 2 its turns left (cards in hand plus skip
tokens), 3 its score now, 4 the highest score an opponent's captures make now, 5 the most gos an
opponent has said. ``go:K:T`` is the table [turns ≤ T − 1: never; always: gos ≤ K − 1]
(``analyzer.games.gostop.advice`` compiles rules of thumb into tables).
"""
import numpy as np
from numba import njit

from kernels.gostop.score import (ENG, EVB, KA, KB, KR, KX, MAXC, MAXP, NCARD, NEV, NPOL, NRULE,
                                  NSTAT, NVAR, POLB, PSB, PVB, RB, R_BAS, R_JAANY, R_JTAB, R_KTAB,
                                  R_VTAB, TMAXROWS, TROW, V_SHAKEMASK, V_SKIP, V_TURNS,
                                  stats_add)
from kernels.rng import randint
from kernels.widen import plain_types


MAXH = 12
HAND = ENG                     # engine block of the state array (after rules, counters, policies)
HN = HAND + MAXP * MAXH
LAY = HN + MAXP
LN = LAY + 48
SOWN = LN + 12
STRN = SOWN + 12
STOCK = STRN + 12
SPOS = STOCK + 64
SLEN = SPOS + 1
PILE = SLEN + 1
PN = PILE + MAXP * MAXC
GOSEQ = PN + MAXP
NPL = GOSEQ + 1
LASTTURN = NPL + 1
WB = LASTTURN + 1              # scratch block
# scratch layout (offsets from WB)
PEND = 0
PENDN = 20
MCNT = 24                      # greedy_card's four candidate keys (16 words kept)
SCR = 40
CNT = 48
DECK = CNT + MAXC + 2
WSIZE = DECK + MAXC + 8
SSIZE = WB + WSIZE

# events
E_PPUK, E_SWEEP, E_BOMB, E_SHAKE, E_JJOK, E_TTADAK, E_STACK, E_JAPPUK, E_GO, E_STOLEN = range(10)

# policies
P_KIND, P_GOK, P_GOTURNS, P_SHAKE, P_NROWS, P_ROWS = 0, 1, 2, 3, 4, 5
PK_GREEDY, PK_GO, PK_RANDOM, PK_TABLE = 0, 1, 2, 3
# go rule table: columns of a row, comparisons, features (module doc)
T_GFEAT, T_GOP, T_GVAL, T_TFEAT, T_TOP, T_TVAL = range(6)
OP_LE, OP_GE = 0, 1
F_ZERO, F_GOS, F_TURNS, F_POINTS, F_OPP, F_OPPGOS = range(6)
NFEAT = 6
assert P_ROWS + TMAXROWS * TROW == NPOL

# hand results
HR_NONE, HR_LAID, HR_PAIR, HR_PAIR2, HR_STACK, HR_JAPPUK, HR_BOMB = 0, 1, 2, 3, 4, 5, 6

# deal outcomes
OUT_WIN, OUT_NAGARI, OUT_CHONG = 0, 1, 2


@plain_types
@njit(cache=True, _nrt=False)
def to_pile(S, p, c):
    n = S[PN + p]
    S[PILE + p * MAXC + n] = c
    S[PN + p] = n + 1
    stats_add(S, p, c, 1)


@njit(cache=True, _nrt=False)
def lay_add(S, c):
    m = c >> 2
    n = S[LN + m]
    S[LAY + 4 * m + n] = c
    S[LN + m] = n + 1


@plain_types
@njit(cache=True, _nrt=False)
def lay_take(S, m, i):
    n = S[LN + m]
    c = S[LAY + 4 * m + i]
    S[LAY + 4 * m + i] = S[LAY + 4 * m + n - 1]
    S[LN + m] = n - 1
    return c


@plain_types
@njit(cache=True, _nrt=False)
def hand_take(S, p, i):
    base = HAND + p * MAXH
    n = S[HN + p]
    c = S[base + i]
    S[base + i] = S[base + n - 1]
    S[HN + p] = n - 1
    return c


@njit(cache=True, _nrt=False)
def pend_add(S, c):
    S[WB + PEND + S[WB + PENDN]] = c
    S[WB + PENDN] += 1


@njit(cache=True, _nrt=False)
def draw(S):
    pos = S[SPOS]
    if pos >= S[SLEN]:
        return -1
    S[SPOS] = pos + 1
    return S[STOCK + pos]


@plain_types
@njit(cache=True, _nrt=False)
def draw_real(S, p):
    """Flip until a non-joker appears; jokers go to p's pile. -1 if the stock runs out."""
    f = draw(S)
    while f >= NCARD:
        to_pile(S, p, f)
        f = draw(S)
    return f


@plain_types
@njit(cache=True, _nrt=False)
def remaining(S, p):
    return S[HN + p] + S[PVB + p * NVAR + V_SKIP]


@njit(cache=True, _nrt=False)
def pick_single(S, m, kind, s):
    """Which of two layout singles of month m to take (index 0 or 1)."""
    if kind == PK_RANDOM:
        return randint(s, 2)
    a = S[RB + R_VTAB + S[LAY + 4 * m]]
    b = S[RB + R_VTAB + S[LAY + 4 * m + 1]]
    return 1 if b > a else 0


@plain_types
@njit(cache=True, _nrt=False)
def resolve_card(S, p, c, kind, s, choice):
    """Resolve a hand card or a flip c against the layout; captures go to pending.

    Returns HR_LAID, HR_PAIR (one single taken), HR_PAIR2 (one of two taken, the other left),
    HR_STACK or HR_JAPPUK (triple stack captured).
    """
    m = c >> 2
    n = S[LN + m]
    if n == 0:
        lay_add(S, c)
        return HR_LAID
    if n == 1:
        pend_add(S, c)
        pend_add(S, lay_take(S, m, 0))
        return HR_PAIR
    if n == 2:
        i = -1
        if choice >= 0:
            if S[LAY + 4 * m] == choice:
                i = 0
            elif S[LAY + 4 * m + 1] == choice:
                i = 1
        if i < 0:
            i = pick_single(S, m, kind, s)
        pend_add(S, c)
        pend_add(S, lay_take(S, m, i))
        return HR_PAIR2
    owner = S[SOWN + m]
    ja = owner == p and (S[RB + R_JAANY] != 0 or S[STRN + m] == S[PVB + p * NVAR + V_TURNS] - 1)
    pend_add(S, c)
    for _ in range(3):
        pend_add(S, lay_take(S, m, 0))
    S[SOWN + m] = -1
    return HR_JAPPUK if ja else HR_STACK


@plain_types
@njit(cache=True, _nrt=False)
def hand_months(S, p):
    """Cards of each month in p's hand, packed 4 bits a month (month m in bits 4m..4m+3).

    Branch-free: a joker (48 + j) lands in nibble 12 or 13, which no caller reads."""
    w = 0
    base = HAND + p * MAXH
    for i in range(S[HN + p]):
        w += 1 << (4 * (S[base + i] >> 2))
    return w


@plain_types
@njit(cache=True, _nrt=False)
def months_holding(counts, k):
    """Bit m set for each month m < 12 whose packed count (``hand_months``) is k."""
    mask = 0
    for m in range(12):
        mask |= (1 if ((counts >> (4 * m)) & 15) == k else 0) << m
    return mask


@plain_types
@njit(cache=True, _nrt=False)
def can_bomb(S, p, m, triples):
    """Whether p may bomb month m: p holds 3 of it (bit m of ``triples``, from
    ``months_holding``), one lies on the layout, and no shake of m forbids it."""
    if m < 0 or m >= 12 or not ((triples >> m) & 1) or S[LN + m] != 1:
        return False
    if (S[PVB + p * NVAR + V_SHAKEMASK] >> m) & 1 and S[RB + R_BAS] == 0:
        return False
    return True


@plain_types
@njit(cache=True, _nrt=False)
def give_junk(S, o, p):
    """Opponent o hands one junk card to p: a single junk if any, else the lowest-valued."""
    base = PILE + o * MAXC
    best = -1
    rank_best = 1 << 20
    for i in range(S[PN + o]):
        c = S[base + i]
        k = S[RB + R_KTAB + c]
        if k == KX:
            r = 2 * S[RB + R_JTAB + c] + 1
        elif c < NCARD and k != KB and k != KA and k != KR:
            r = 2 * S[RB + R_JTAB + c]
        else:
            continue
        if r < rank_best:
            rank_best = r
            best = i
    if best < 0:
        return 0
    n = S[PN + o]
    c = S[base + best]
    S[base + best] = S[base + n - 1]
    S[PN + o] = n - 1
    stats_add(S, o, c, -1)
    to_pile(S, p, c)
    return 1


def new_state(R, pol):
    """A state array holding the rules vector and the policy rows (engine block empty)."""
    S = np.zeros(SSIZE, np.int64)
    S[RB:RB + NRULE] = R
    S[POLB:POLB + MAXP * NPOL] = np.asarray(pol, np.int64).reshape(-1)[:MAXP * NPOL]
    return S


def views(S):
    """Numpy views of the seat blocks of a state array: (PS, PV, EV), seat x column."""
    return (S[PSB:PSB + MAXP * NSTAT].reshape(MAXP, NSTAT),
            S[PVB:PVB + MAXP * NVAR].reshape(MAXP, NVAR),
            S[EVB:EVB + MAXP * NEV].reshape(MAXP, NEV))
