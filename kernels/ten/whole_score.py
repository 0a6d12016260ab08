"""Ten end-of-game scoring in Numba: longest run per colour, wilds assigned to maximise the total.

Model
-----
A collection is a row of 55 counts indexed by card type (see ``analyzer/games/ten/cards.py``):
number cards ``9·colour + value − 1`` (0..35), colour wilds ``41 + colour``, number wilds
``45 + value − 1``, the full wild 54 (currency types 36..40 never occur in a collection). A colour
scores its single longest run of consecutive values (1 point per card, 10 for 1–9: the
``full_run`` of ``run_tables``); each wild
fills one (colour, value) slot it is eligible for.

Algorithm
---------
Per colour the owned values form a 9-bit mask m (bit v − 1 for value v). ``run_tables`` lists, for
every mask, the runs [a, b] that no owned card extends (a − 1 and b + 1 not owned), as
(points, gap mask, gap count), best first, then the empty run; without wilds the score is
Σ ``LONG[m]``. With wilds a depth-first search over the four colours (four nested loops) takes each
colour's candidates best first and prunes on the best single-colour scores of the colours left.
A choice of gap masks g_c is *fillable* iff, by max-flow/min-cut on gaps → (colour wild c,
number wild v, full wild), for every set A of colours::

    Σ_v max(0, |{c ∈ A : v ∈ g_c}| − nw[v]) − Σ_{c∈A} cw[c] ≤ f

(16 sets; the sum by popcounts of bit-sliced counters). A colour alone needs
popcount(g_c ∧ no number wild) − cw[c] ≤ f. The innermost loop stops at the first fillable candidate (the best one),
so the result is the exact optimum, the same number ``analyzer/games/ten/score.py`` finds by
matching.

Arrays: the scoring tables ``tabs`` = (RUNS, T9, T3): RUNS int64, flat, holds LONG[512] from 0,
then CP, CG, CN [512, 46] (points, gap mask, gaps of candidate i of mask m, i < NCAND[m]) from
X_CP, X_CG, X_CN, NCAND[512] from X_NC and POP[512] popcounts from X_POP (one flat array: the
engine passes the tables down many calls, and three arrays are far fewer arguments than seven);
T9, T3 the slot table TAB = (T9, T3) of ``whole_slots.py``; ``ws`` int64[WS_SIZE] scratch
(masks 0..3, cw 4..7,
nw 8..16, f 17, usable 18..21, masks of values with more than k number wilds 26..29; from FOFF four rows of MAXGAPS + 1: row c first holds the best
single-colour run of colour c with at most r gaps, then rows 1..2 become the suffix knapsack
F_c(r) = max_k best_c(k) + F_{c+1}(r − k), the bound on what colours c..3 can still add with r
wilds left, used to prune every level of the search).
"""
import numpy as np
from numba import njit

from kernels.ten.whole_slots import SLOTS_WS_END, score_slots, slot_table

MAXCAND = 46
MAXGAPS = 36  # at most 36 gaps can ever be filled
FOFF = 32  # ws offset of the per-colour bound tables
# ws: this module uses ws[0:FOFF + 4 * (MAXGAPS + 1)], whole_slots.py up to SLOTS_WS_END, the
# rollout bot (whole_rollout.py) 55 pile counts from ROLL_WS
ROLL_WS = SLOTS_WS_END
WS_SIZE = ROLL_WS + 55
X_CP = 512
X_CG = X_CP + 512 * MAXCAND
X_CN = X_CG + 512 * MAXCAND
X_NC = X_CN + 512 * MAXCAND
X_POP = X_NC + 512


def run_tables(full_run: int = 10):
    """The scoring tables (RUNS, T9, T3) for every 9-bit colour mask (module doc); a complete
    1–9 run scores ``full_run`` points (the house-rule key ``full_run_points``)."""
    LONG = np.zeros(512, dtype=np.int64)
    CP = np.zeros((512, MAXCAND), dtype=np.int64)
    CG = np.zeros((512, MAXCAND), dtype=np.int64)
    CN = np.zeros((512, MAXCAND), dtype=np.int64)
    NCAND = np.zeros(512, dtype=np.int64)
    for m in range(512):
        owned = [(m >> (v - 1)) & 1 for v in range(1, 10)] + [0]
        lst = []
        for a in range(1, 10):
            if a > 1 and owned[a - 2]:
                continue
            for b in range(a, 10):
                if b < 9 and owned[b]:
                    continue
                gm = 0
                for v in range(a, b + 1):
                    if not owned[v - 1]:
                        gm |= 1 << (v - 1)
                pts = full_run if b - a + 1 == 9 else b - a + 1
                lst.append((pts, bin(gm).count("1"), a, gm))
                if gm == 0:
                    LONG[m] = max(LONG[m], pts)
        lst.sort(key=lambda x: (-x[0], x[1], x[2]))
        lst.append((0, 0, 0, 0))
        NCAND[m] = len(lst)
        for i, (pts, ng, _a, gm) in enumerate(lst):
            CP[m, i] = pts
            CN[m, i] = ng
            CG[m, i] = gm
    POP = np.array([bin(m).count("1") for m in range(512)], dtype=np.int64)
    runs = np.concatenate([LONG, CP.ravel(), CG.ravel(), CN.ravel(), NCAND, POP])
    T9, T3 = slot_table(CP, CG, NCAND, POP)
    return runs, T9, T3


@njit(cache=True, inline="always", _nrt=False)
def _fillable(g0, g1, g2, g3, must, ws, POP):
    """True when distinct wilds can fill every gap of the four colours (module doc), checking
    only the colour sets A that contain a colour of ``must`` (the others were checked before)
    and no colour without gaps (such a colour only adds its colour wilds to the right side).
    Σ_v max(0, cnt_A(v) − nw[v]) = Σ_k popcount(cnt_A ≥ k ∧ nw < k), with bit-sliced counters."""
    nz = 0
    if g0 != 0:
        nz |= 1
    if g1 != 0:
        nz |= 2
    if g2 != 0:
        nz |= 4
    if g3 != 0:
        nz |= 8
    for A in range(1, 16):
        if (A & must) == 0 or (A & ~nz) != 0:
            continue
        e1 = 0
        e2 = 0
        e3 = 0
        e4 = 0
        s = 0
        for c in range(4):
            if A & (1 << c):
                g = g0 if c == 0 else (g1 if c == 1 else (g2 if c == 2 else g3))
                e4 |= e3 & g
                e3 |= e2 & g
                e2 |= e1 & g
                e1 |= g
                s -= ws[4 + c]
        s += POP[e1 & ~ws[26]] + POP[e2 & ~ws[27]] + POP[e3 & ~ws[28]] + POP[e4 & ~ws[29]]
        if s > ws[17]:
            return False
    return True


@njit(cache=True, _nrt=False)
def score_row(row, tabs, ws):
    """Exact best score of the collection ``row`` (int64[55] counts): the slot DP of
    ``whole_slots.py`` when it applies (≤ KMAX number wilds, ≤ FMAX full wilds), else the
    search below. Both are exact; they agree on every collection (tests)."""
    x = score_slots(row, tabs[0], (tabs[1], tabs[2]), ws)
    if x >= 0:
        return x
    return score_search(row, tabs, ws)


@njit(cache=True, _nrt=False)
def score_search(row, tabs, ws):
    """Exact best score of the collection ``row`` (int64[55] counts) by the search of the module
    doc."""
    RUNS = tabs[0]
    LONG = RUNS[:X_CP]
    CP = RUNS[X_CP:X_CG].reshape((512, MAXCAND))
    CG = RUNS[X_CG:X_CN].reshape((512, MAXCAND))
    CN = RUNS[X_CN:X_NC].reshape((512, MAXCAND))
    NCAND = RUNS[X_NC:X_POP]
    POP = RUNS[X_POP:]
    nws = 0
    for c in range(4):
        m = 0
        for v in range(9):
            if row[9 * c + v] > 0:
                m |= 1 << v
        ws[c] = m
        ws[4 + c] = row[41 + c]
        nws += row[41 + c]
    nsum = 0
    for k in range(4):
        ws[26 + k] = 0
    for v in range(9):
        ws[8 + v] = row[45 + v]
        nsum += row[45 + v]
        for k in range(4):
            if row[45 + v] > k:
                ws[26 + k] |= 1 << v
    ws[17] = row[54]
    W = nws + nsum + row[54]
    if W == 0:
        return LONG[ws[0]] + LONG[ws[1]] + LONG[ws[2]] + LONG[ws[3]]
    if W > MAXGAPS:
        W = MAXGAPS
    # best_c[k]: the best single-colour run with at most k gaps (stored in row c), then the
    # suffix knapsack F_c(r) = max_k best_c(k) + F_{c+1}(r − k) for c = 2, 1.
    for c in range(4):
        ws[18 + c] = ws[4 + c] + nsum + row[54]
        m = ws[c]
        o = FOFF + c * (MAXGAPS + 1)
        for r in range(W + 1):
            ws[o + r] = 0
        for i in range(NCAND[m]):
            ng = CN[m, i]
            if ng > ws[18 + c] or ng > W or CP[m, i] <= ws[o + ng]:
                continue
            if POP[CG[m, i] & ~ws[26]] - ws[4 + c] <= ws[17]:  # this colour alone is fillable
                ws[o + ng] = CP[m, i]
        for r in range(1, W + 1):
            if ws[o + r - 1] > ws[o + r]:
                ws[o + r] = ws[o + r - 1]
    for c in range(2, 0, -1):
        o = FOFF + c * (MAXGAPS + 1)
        on = o + MAXGAPS + 1
        for r in range(W, -1, -1):
            bestv = 0
            for k in range(r + 1):
                v = ws[o + k] + ws[on + r - k]
                if v > bestv:
                    bestv = v
            ws[o + r] = bestv
    F1 = FOFF + (MAXGAPS + 1)
    F2 = F1 + (MAXGAPS + 1)
    F3 = F2 + (MAXGAPS + 1)
    m0, m1, m2, m3 = ws[0], ws[1], ws[2], ws[3]
    best = -1
    for i0 in range(NCAND[m0]):
        p0 = CP[m0, i0]
        if p0 + ws[F1 + W] <= best:
            break
        r0 = W - CN[m0, i0]
        if CN[m0, i0] > ws[18] or r0 < 0 or p0 + ws[F1 + r0] <= best:
            continue
        g0 = CG[m0, i0]
        if g0 != 0 and not _fillable(g0, 0, 0, 0, 1, ws, POP):
            continue
        for i1 in range(NCAND[m1]):
            p1 = p0 + CP[m1, i1]
            if p1 + ws[F2 + r0] <= best:
                break
            r1 = r0 - CN[m1, i1]
            if CN[m1, i1] > ws[19] or r1 < 0 or p1 + ws[F2 + r1] <= best:
                continue
            g1 = CG[m1, i1]
            if g1 != 0 and not _fillable(g0, g1, 0, 0, 2, ws, POP):
                continue
            for i2 in range(NCAND[m2]):
                p2 = p1 + CP[m2, i2]
                if p2 + ws[F3 + r1] <= best:
                    break
                r2 = r1 - CN[m2, i2]
                if CN[m2, i2] > ws[20] or r2 < 0 or p2 + ws[F3 + r2] <= best:
                    continue
                g2 = CG[m2, i2]
                if g2 != 0 and not _fillable(g0, g1, g2, 0, 4, ws, POP):
                    continue
                for i3 in range(NCAND[m3]):
                    p3 = p2 + CP[m3, i3]
                    if p3 <= best:
                        break
                    if CN[m3, i3] > ws[21] or CN[m3, i3] > r2:
                        continue
                    g3 = CG[m3, i3]
                    if g3 != 0 and not _fillable(g0, g1, g2, g3, 8, ws, POP):
                        continue
                    best = p3
                    break
    return best
