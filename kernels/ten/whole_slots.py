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

Cost: building TAB is 3^9 · 46 popcounts (a few ms, once per process); a score is
4 · 2^k · (f + 1) table reads plus 2 · 3^k · (f + 1)(f + 2)/2 + 2^k (f + 1)² sums for k number
wilds and f full wilds — a few hundred operations for the usual k ≤ 3, f ≤ 1. ``score_slots``
returns −1 above KMAX items or FMAX full wilds; the caller then runs the search.

Marginal values reuse the DP: ``prepare`` reads a collection once, ``others(c)`` runs the DP over
the three colours other than c, and ``score_colour(c, m, cw, x)`` is then the exact score with
colour c's mask or colour wilds changed, or with number wilds of the values ``x`` given to c, in
2^k (f + 1) reads: a buy phase scores every market card of a colour at that cost, and an auction
a colour wild or a number wild (the best colour to give it). Adding cards that only *grow* masks
or colour wilds keeps the prepared items exact (a dropped wild stays useless, a fixed one still
has at most its colour to serve, the useful items only shrink), so ``grow`` re-reads just the
changed colours' L tables (``whole_seats.py`` keeps one prepared region per seat).

Arrays: TAB[m, s, S] depends on S only through the values m does not own (S ∖ m), so it is
stored by the base-3 digits of the values (2 owned, 1 in S ∖ m, 0 neither): TAB = (T9, T3) with
T3 int64[512] (T3[x] = Σ_{v ∈ x} 3^v) and T9 int8[3^9, SMAX + 1], TAB[m, s, S] =
T9[2 · T3[m] + T3[S ∖ m], s] (``tab``): 197 kB instead of 2.6 MB, so the reads stay in cache.
``ws`` int64 scratch. A *region* at offset ``b`` of ``ws``
(REGION values) holds: masks, colour wilds, each colour's useful items and fixed values, k and f,
``prepare``'s answer (STALE: not prepared) and which O tables are current, the item values
(KMAX), VAL (2^KMAX), four L tables, four O tables (the DP of the other three colours, one per
colour c) and a temporary, each of 2^KMAX · (FMAX + 1). ``score_slots`` uses the region at SOFF,
the engine one region per seat after it (SEATS).
"""
import numpy as np
from numba import njit

from kernels.widen import plain_types

SMAX = 9
KMAX = 6
FMAX = 2
NU = 1 << KMAX
NF = FMAX + 1
SOFF = 200  # ws offset of score_slots' region (whole_score.py uses ws[0:SOFF])
STALE = -3  # A_READY of a region not prepared
# offsets within a region
A_M, A_CW, A_UM, A_FIX, A_K, A_F, A_READY, A_OK, A_UU = 0, 4, 8, 12, 16, 17, 18, 19, 24
A_ITEM = 28
A_VAL = A_ITEM + KMAX
A_L = A_VAL + NU
A_O = A_L + 4 * NU * NF
A_E = A_O + 4 * NU * NF
REGION = A_E + NU * NF
O_M, O_CW = SOFF + A_M, SOFF + A_CW  # score_slots' masks and colour wilds
SEATS = SOFF + REGION  # seat q's region (whole_seats.py) at SEATS + q · REGION, q < 5
SLOTS_WS_END = SEATS + 5 * REGION


@njit(cache=True)
def slot_table(CP, CG, NCAND, POP):
    """TAB = (T9, T3) of the module doc from the run candidates of ``whole_score.run_tables``."""
    T3 = np.zeros(512, dtype=np.int64)
    for x in range(512):
        for v in range(9):
            if (x >> v) & 1:
                T3[x] += 3 ** v
    T9 = np.zeros((3 ** 9, SMAX + 1), dtype=np.int8)
    best = np.zeros(SMAX + 2, dtype=np.int64)
    for m in range(512):
        free = 511 & ~m
        S = free
        while True:
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
                T9[2 * T3[m] + T3[S], s] = run
            if S == 0:
                break
            S = (S - 1) & free
    return T9, T3


@njit(cache=True, inline="always", _nrt=False)
def tab(TAB, m, s, S):
    """TAB[m, s, S] of the module doc: T9[2 · T3[m] + T3[S ∖ m], s]."""
    return TAB[0][2 * TAB[1][m] + TAB[1][S & ~m], s]


@njit(cache=True, inline="always", _nrt=False)
def _slots(x):
    return x if x < SMAX else SMAX


@plain_types
@njit(cache=True, _nrt=False)
def l_table(c, TAB, ws, b):
    """L_c[U][φ] = TAB[m_c, min(cw_c + φ, SMAX), VAL(U) | FIX_c] for the region's k, f, and
    UU_c: the items that raise L_c somewhere (L_c[U ∪ {i}][φ] > L_c[U][φ] for some U ∌ i,
    φ ≤ f). An item outside UU_c never changes L_c, so L_c[S] = L_c[S ∩ UU_c] and the DP over
    colours need only give colour c subsets of UU_c."""
    m = ws[b + A_M + c]
    cw = ws[b + A_CW + c]
    fx = ws[b + A_FIX + c]
    f = ws[b + A_F]
    k = ws[b + A_K]
    o = b + A_L + c * NU * NF
    for U in range(1 << k):
        vu = ws[b + A_VAL + U] | fx
        for p in range(f + 1):
            ws[o + U * NF + p] = tab(TAB, m, _slots(cw + p), vu)
    um = ws[b + A_UM + c]
    if k < 3:  # the DP is tiny anyway: skip the check
        ws[b + A_UU + c] = um
        return
    uu = 0
    for i in range(k):
        bit = 1 << i
        if (um & bit) == 0:
            continue
        for U in range(1 << k):
            if U & bit:
                continue
            for p in range(f + 1):
                if ws[o + (U | bit) * NF + p] > ws[o + U * NF + p]:
                    uu |= bit
                    break
            if uu & bit:
                break
    ws[b + A_UU + c] = uu


@plain_types
@njit(cache=True, _nrt=False)
def prepare(row, LONG, TAB, ws, b):
    """Read ``row`` into the region at ``b``: masks, colour wilds, the items and VAL, and the
    tables L_c[U][φ] for φ ≤ f; no O table is current. Returns (and keeps in A_READY) the score
    directly when the row holds no wild (−2 when it holds too many for the DP, −1 otherwise:
    then ``others``/``score_colour``)."""
    for c in range(4):
        ws[b + A_OK + c] = 0
    f = row[54]
    if f > FMAX:
        ws[b + A_READY] = -2
        return -2
    every = 511
    for c in range(4):
        m = 0
        for v in range(9):
            if row[9 * c + v] > 0:
                m |= 1 << v
        ws[b + A_M + c] = m
        ws[b + A_CW + c] = row[41 + c]
        every &= m
    k = 0
    nfix = 0
    for c in range(4):
        ws[b + A_FIX + c] = 0
    for v in range(9):
        if row[45 + v] == 0 or (every >> v) & 1:  # owned in every colour: fills no gap
            continue
        bit = 1 << v
        users = 0
        last = 0
        for c in range(4):
            if (ws[b + A_M + c] & bit) == 0:
                users += 1
                last = c
        if users == 1:  # only colour `last` lacks v: give it the wild (one copy suffices)
            ws[b + A_FIX + last] |= bit
            nfix += 1
            continue
        for _ in range(row[45 + v]):
            if k == KMAX:
                ws[b + A_READY] = -2
                return -2
            ws[b + A_ITEM + k] = bit
            k += 1
    for c in range(4):
        um = 0
        for i in range(k):
            if (ws[b + A_M + c] & ws[b + A_ITEM + i]) == 0:
                um |= 1 << i
        ws[b + A_UM + c] = um
    ws[b + A_K] = k
    ws[b + A_F] = f
    if k == 0 and f == 0 and nfix == 0 and row[41] + row[42] + row[43] + row[44] == 0:
        x = (LONG[ws[b + A_M]] + LONG[ws[b + A_M + 1]] + LONG[ws[b + A_M + 2]]
             + LONG[ws[b + A_M + 3]])
        ws[b + A_READY] = x
        return x
    ws[b + A_VAL] = 0
    for U in range(1, 1 << k):
        low = U & -U
        i = 0
        while (1 << i) != low:
            i += 1
        ws[b + A_VAL + U] = ws[b + A_VAL + (U ^ low)] | ws[b + A_ITEM + i]
    for c in range(4):
        l_table(c, TAB, ws, b)
    ws[b + A_READY] = -1
    return -1


@njit(cache=True, _nrt=False)
def grow(row, TAB, ws, b):
    """Update a prepared region (A_READY −1) after number cards or colour wilds were added to
    ``row`` (masks and colour wilds only grow; no number or full wild changed): re-read the
    masks and colour wilds, rebuild the L tables of the colours that changed and keep the O
    tables that do not involve them (O_c stays current when c is the only colour changed).
    Exact by the module doc's argument."""
    changed = 0
    for c in range(4):
        m = 0
        for v in range(9):
            if row[9 * c + v] > 0:
                m |= 1 << v
        if m != ws[b + A_M + c] or row[41 + c] != ws[b + A_CW + c]:
            ws[b + A_M + c] = m
            ws[b + A_CW + c] = row[41 + c]
            l_table(c, TAB, ws, b)
            changed |= 1 << c
    for c in range(4):
        if (changed & ~(1 << c)) != 0:
            ws[b + A_OK + c] = 0


@njit(cache=True, _nrt=False)
def copy_region(ws, src, dst):
    """Copy a prepared region's masks, items, VAL and L tables (not its O tables) to ``dst``."""
    for i in range(A_VAL):
        ws[dst + i] = ws[src + i]
    for c in range(4):
        ws[dst + A_OK + c] = 0
    nu = 1 << ws[src + A_K]
    for U in range(nu):
        ws[dst + A_VAL + U] = ws[src + A_VAL + U]
    for c in range(4):
        o = A_L + c * NU * NF
        for i in range(nu * NF):
            ws[dst + o + i] = ws[src + o + i]


@njit(cache=True, _nrt=False)
def _combine(src, lc, um, nu, f, ws, dst):
    """dst[U][p] = max_{S ⊆ U, q ≤ p} src[U ∖ S][p − q] + L[S][q] (offsets into ws); only S
    within the colour's useful items ``um`` are tried (src is monotone in U, L depends on S ∩ um
    only)."""
    if f == 0:  # no full wild (the usual case): one column
        for U in range(nu):
            su = U & um
            bestv = 0
            S = su
            while True:
                v = ws[src + (U ^ S) * NF] + ws[lc + S * NF]
                if v > bestv:
                    bestv = v
                if S == 0:
                    break
                S = (S - 1) & su
            ws[dst + U * NF] = bestv
        return
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


@plain_types
@njit(cache=True, _nrt=False)
def others(c, ws, b):
    """The DP over the three colours other than c into the region's O_c (after ``prepare``);
    nothing to do when O_c is current."""
    if ws[b + A_OK + c] == 1:
        return
    nu = 1 << ws[b + A_K]
    f = ws[b + A_F]
    o = b + A_O + c * NU * NF
    d0 = 1 if c == 0 else 0
    d1 = 2 if c <= 1 else 1
    d2 = 2 if c == 3 else 3
    src = b + A_L + d0 * NU * NF
    for i in range(nu * NF):
        ws[o + i] = ws[src + i]
    _combine(o, b + A_L + d1 * NU * NF, ws[b + A_UU + d1], nu, f, ws, b + A_E)
    _combine(b + A_E, b + A_L + d2 * NU * NF, ws[b + A_UU + d2], nu, f, ws, o)
    ws[b + A_OK + c] = 1


@njit(cache=True, inline="always", _nrt=False)
def score_colour(c, m, cw, x, TAB, ws, b):
    """The exact score when colour c has the owned mask m, cw colour wilds and number wilds of
    the values in the mask x besides the prepared ones, the other colours and the wilds as
    prepared (after ``prepare`` and ``others(c)``)."""
    k = ws[b + A_K]
    f = ws[b + A_F]
    full = (1 << k) - 1
    um = full & ws[b + A_UM + c]
    fx = ws[b + A_FIX + c] | x
    o = b + A_O + c * NU * NF
    bestv = 0
    S = um
    while True:
        R = full ^ S
        vs = ws[b + A_VAL + S] | fx
        for q in range(f + 1):
            v = ws[o + R * NF + f - q] + tab(TAB, m, _slots(cw + q), vs)
            if v > bestv:
                bestv = v
        if S == 0:
            break
        S = (S - 1) & um
    return bestv


@njit(cache=True, inline="always", _nrt=False)
def colour_bound(c, m, cw, x, TAB, ws, b):
    """An upper bound on what ``score_colour(c, m, cw, x)`` adds to the prepared score, from
    colour c alone: max over S ⊆ UM_c, φ ≤ f of TAB[m, cw + φ, VAL(S) | FIX_c | x] − L_c[S][φ].
    (Both scores are max over (S, φ) of O_c[all ∖ S][f − φ] + colour c's part, and only c's part
    changes.) 0: the change adds nothing, exactly, without the DP of the other colours."""
    f = ws[b + A_F]
    um = ws[b + A_UM + c] & ((1 << ws[b + A_K]) - 1)
    fx = ws[b + A_FIX + c] | x
    o = b + A_L + c * NU * NF
    best = 0
    S = um
    while True:
        vs = ws[b + A_VAL + S] | fx
        for q in range(f + 1):
            d = tab(TAB, m, _slots(cw + q), vs) - ws[o + S * NF + q]
            if d > best:
                best = d
        if S == 0:
            break
        S = (S - 1) & um
    return best


@njit(cache=True, _nrt=False)
def score_slots(row, LONG, TAB, ws):
    """Exact best score of ``row`` (int64[55] counts) by the module's DP, or −1 when it holds
    more than KMAX number wilds or FMAX full wilds. Without any wild it is Σ_c LONG[m_c] (the
    longest run of each colour; LONG int64[512] of ``whole_score.run_tables``)."""
    x = prepare(row, LONG, TAB, ws, SOFF)
    if x == -2:
        return -1
    if x >= 0:
        return x
    others(3, ws, SOFF)
    return score_colour(3, ws[O_M + 3], ws[O_CW + 3], 0, TAB, ws, SOFF)
