"""Ten end-of-game scoring, the fast exact path: a slot table per colour and a DP over who gets
which wild.

Model
-----
A colour with owned-value mask m (9 bits), given a set S of values it may fill with number wilds
and s further slots it may fill with any value (its colour wilds plus the full wilds it is
given), scores its best run whose gaps g (values of the run not owned) satisfy
popcount(g ∧ ¬S) ≤ s::

    TAB[m, s, S] = max { points(run) : popcount(gaps(run) ∧ ¬S) ≤ s },   s = 0..SMAX

(points: 1 per card, 10 for 1–9; SMAX = 9 fills any run). A colour wild only ever serves its
colour, so it is a slot of that colour; a number wild of value v serves one colour (any); a full
wild serves one colour (any value). Giving each number wild (item i, value v_i) and each full wild
to one colour splits the problem into four independent colours, so the exact score is::

    max over U_0 ⊔ U_1 ⊔ U_2 ⊔ U_3 ⊆ items, φ_0 + … + φ_3 ≤ f  of
        Σ_c TAB[m_c, min(cw_c + φ_c, SMAX), VAL(U_c)]

with VAL(U) the OR of the items' value bits. A colour with the items U_c can fill gap v only
with an item of value v, and every other gap with a slot, which is the table's condition; so this
equals the matching optimum of ``whole_score.score_search`` (checked on random collections in
tests/test_ten_whole_score.py). The max is a DP over colours with state (items used U, full
wilds used φ): D_c[U][φ] = max_{S ⊆ U, φ' ≤ φ} D_{c−1}[U ∖ S][φ − φ'] + L_c[S][φ'], where
L_c[S][φ'] = TAB[m_c, min(cw_c + φ', SMAX), VAL(S)]; TAB is monotone in s and S, so D_3[all][f]
is the answer. Three reductions keep it small without changing it: a number wild whose value every
colour owns fills no gap and is dropped; one whose value only colour c lacks goes to c (no other
colour has that gap), as a fixed part FIX_c of c's set; and colour c only tries S within its
*useful* items (values it does not own), since an item outside them leaves L_c unchanged and D
is monotone.

Cost: building TAB is 512 · 512 · 46 popcounts (tens of ms, once per process); a score is
4 · 2^k · (f + 1) table reads plus 2 · 3^k · (f + 1)(f + 2)/2 + 2^k (f + 1)² sums for k number
wilds and f full wilds — a few hundred operations for the usual k ≤ 3, f ≤ 1. ``score_slots``
returns −1 above KMAX items or FMAX full wilds; the caller then runs the search.

Marginal values reuse the DP: ``prepare`` reads a collection once, ``others(c)`` runs the DP over
the three colours other than c, and ``score_colour(c, m, cw)`` is then the exact score with
colour c's mask or colour wilds changed, in 2^k (f + 1) reads: a buy phase scores every market
card of a colour at that cost, and an auction a colour wild.

Arrays: TAB int8[512, SMAX + 1, 512]; ``ws`` int64 scratch from offset SOFF: masks, colour
wilds, each colour's useful items and fixed values, k and f, the item values (KMAX), VAL (2^KMAX), four L tables and two DP tables of
2^KMAX · (FMAX + 1) each.
"""
import numpy as np
from numba import njit

SMAX = 9
KMAX = 6
FMAX = 2
NU = 1 << KMAX
NF = FMAX + 1
SOFF = 200  # ws offset of this module's scratch (whole_score.py uses ws[0:SOFF])
O_M, O_CW, O_UM, O_FIX, O_K, O_F = SOFF, SOFF + 4, SOFF + 8, SOFF + 12, SOFF + 16, SOFF + 17
O_ITEM = SOFF + 18
O_VAL = O_ITEM + KMAX
O_L = O_VAL + NU
O_O = O_L + 4 * NU * NF
O_E = O_O + NU * NF
SLOTS_WS_END = O_E + NU * NF


@njit(cache=True)
def slot_table(CP, CG, NCAND, POP):
    """TAB int8[512, SMAX + 1, 512] of the module doc from the run candidates of
    ``whole_score.run_tables``."""
    TAB = np.zeros((512, SMAX + 1, 512), dtype=np.int8)
    best = np.zeros(SMAX + 2, dtype=np.int64)
    for m in range(512):
        for S in range(512):
            for n in range(SMAX + 2):
                best[n] = 0
            for i in range(NCAND[m]):
                need = POP[CG[m, i] & ~S]
                if need > SMAX:
                    continue
                if CP[m, i] > best[need]:
                    best[need] = CP[m, i]
            run = 0
            for s in range(SMAX + 1):
                if best[s] > run:
                    run = best[s]
                TAB[m, s, S] = run
    return TAB


@njit(cache=True, inline="always", _nrt=False)
def _slots(x):
    return x if x < SMAX else SMAX


@njit(cache=True, _nrt=False)
def prepare(row, LONG, TAB, ws):
    """Read ``row`` into the scratch: masks, colour wilds, the items and VAL, and the tables
    L_c[U][φ] for φ ≤ f. Returns the score directly when the row holds no number or full wild
    (−2 when it holds too many for the DP, −1 otherwise: then ``dp_all``/``score_colour``)."""
    f = row[54]
    if f > FMAX:
        return -2
    every = 511
    for c in range(4):
        m = 0
        for v in range(9):
            if row[9 * c + v] > 0:
                m |= 1 << v
        ws[O_M + c] = m
        ws[O_CW + c] = row[41 + c]
        every &= m
    k = 0
    nfix = 0
    for c in range(4):
        ws[O_FIX + c] = 0
    for v in range(9):
        if row[45 + v] == 0 or (every >> v) & 1:  # owned in every colour: fills no gap
            continue
        b = 1 << v
        users = 0
        last = 0
        for c in range(4):
            if (ws[O_M + c] & b) == 0:
                users += 1
                last = c
        if users == 1:  # only colour `last` lacks v: give it the wild (one copy suffices)
            ws[O_FIX + last] |= b
            nfix += 1
            continue
        for _ in range(row[45 + v]):
            if k == KMAX:
                return -2
            ws[O_ITEM + k] = b
            k += 1
    for c in range(4):
        um = 0
        for i in range(k):
            if (ws[O_M + c] & ws[O_ITEM + i]) == 0:
                um |= 1 << i
        ws[O_UM + c] = um
    ws[O_K] = k
    ws[O_F] = f
    if k == 0 and f == 0 and nfix == 0 and row[41] + row[42] + row[43] + row[44] == 0:
        return LONG[ws[O_M]] + LONG[ws[O_M + 1]] + LONG[ws[O_M + 2]] + LONG[ws[O_M + 3]]
    nu = 1 << k
    ws[O_VAL] = 0
    for U in range(1, nu):
        low = U & -U
        i = 0
        while (1 << i) != low:
            i += 1
        ws[O_VAL + U] = ws[O_VAL + (U ^ low)] | ws[O_ITEM + i]
    for c in range(4):
        m = ws[O_M + c]
        cw = ws[O_CW + c]
        fx = ws[O_FIX + c]
        o = O_L + c * NU * NF
        for U in range(nu):
            vu = ws[O_VAL + U] | fx
            for p in range(f + 1):
                ws[o + U * NF + p] = TAB[m, _slots(cw + p), vu]
    return -1


@njit(cache=True, _nrt=False)
def _combine(src, lc, um, nu, f, ws, dst):
    """dst[U][p] = max_{S ⊆ U, q ≤ p} src[U ∖ S][p − q] + L[S][q] (offsets into ws); only S
    within the colour's useful items ``um`` are tried (src is monotone in U, L depends on S ∩ um
    only)."""
    for U in range(nu):
        for p in range(f + 1):
            bestv = 0
            S = U & um
            while True:
                R = U ^ S
                for q in range(p + 1):
                    v = ws[src + R * NF + p - q] + ws[lc + S * NF + q]
                    if v > bestv:
                        bestv = v
                if S == 0:
                    break
                S = (S - 1) & U & um
            ws[dst + U * NF + p] = bestv


@njit(cache=True, _nrt=False)
def others(c, ws):
    """The DP over the three colours other than c into ws[O_O:] (after ``prepare``)."""
    nu = 1 << ws[O_K]
    f = ws[O_F]
    first = True
    for d in range(4):
        if d == c:
            continue
        lc = O_L + d * NU * NF
        if first:
            for i in range(nu * NF):
                ws[O_O + i] = ws[lc + i]
            first = False
        else:
            _combine(O_O, lc, ws[O_UM + d], nu, f, ws, O_E)
            for i in range(nu * NF):
                ws[O_O + i] = ws[O_E + i]


@njit(cache=True, _nrt=False)
def score_colour(c, m, cw, TAB, ws):
    """The exact score when colour c has the owned mask m and cw colour wilds, the other
    colours and the wilds as prepared (after ``prepare`` and ``others(c)``)."""
    k = ws[O_K]
    f = ws[O_F]
    full = (1 << k) - 1
    um = full & ws[O_UM + c]
    fx = ws[O_FIX + c]
    bestv = 0
    S = um
    while True:
        R = full ^ S
        vs = ws[O_VAL + S] | fx
        for q in range(f + 1):
            v = ws[O_O + R * NF + f - q] + TAB[m, _slots(cw + q), vs]
            if v > bestv:
                bestv = v
        if S == 0:
            break
        S = (S - 1) & um
    return bestv


@njit(cache=True, _nrt=False)
def score_slots(row, LONG, TAB, ws):
    """Exact best score of ``row`` (int64[55] counts) by the module's DP, or −1 when it holds
    more than KMAX number wilds or FMAX full wilds. Without any wild it is Σ_c LONG[m_c] (the
    longest run of each colour; LONG int64[512] of ``whole_score.run_tables``)."""
    x = prepare(row, LONG, TAB, ws)
    if x == -2:
        return -1
    if x >= 0:
        return x
    others(3, ws)
    return score_colour(3, ws[O_M + 3], ws[O_CW + 3], TAB, ws)
