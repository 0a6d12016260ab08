"""MAGDAGDON exact odds: feasibility of every roll multiset and the best use of powers.

``feasible_table`` decides, for one board, whether each multiset of dice (coded in base
``MAXD + 1`` by ``code_of``) can be placed to the turn's minimum, by the exact search of
kernels/magdagdon/board.py. ``escape_dp`` is the dynamic programme over the powers left: with
k powers the chance of still facing a MAGDAGDON is the minimum over a ±1 change of one die
(deterministic) and a reroll of any sub-multiset (a chance event over its outcomes, weighted by
their multinomial probabilities) of the value with k − 1 powers; ``reroll_value`` evaluates one
reroll against a feasibility table.
"""
import numpy as np
from numba import njit

from kernels.magdagdon.board import (RI_D, RI_N, board_from_cells, feasible_fast, make_work,
                                     search)


@njit(cache=True)
def code_of(cnt, base):
    c = 0
    m = 1
    for v in range(1, 7):
        c += cnt[v] * m
        m *= base
    return c


@njit(cache=True)
def fill_feasible(vm, need, G, W):
    """feas[code] for every roll multiset of the rules' dice count on this board."""
    ms_cnt = G[8]
    ms_code = G[9]
    n = G[0][RI_N]
    masks = G[2]
    badv = G[3]
    (cw, nbs, valid, curv, cand, pbit, pval, wbit, wval, pcell, pkey, wcell, ttk, tts, gen,
     dig, feas, rr, key4, vmw) = W[:20]
    for m in range(ms_cnt.shape[0]):
        got = search(vm, ms_cnt[m], need, n, masks, badv, vmw, cw, nbs, valid, curv, cand, pbit,
                     pval, wbit, wval)
        feas[ms_code[m]] = 1 if got >= need else 0


@njit(cache=True)
def reroll_value(cnt, feas, G, rr):
    """Best sub-multiset to reroll once: returns its escape probability; leaves it in rr[1..6]."""
    ri = G[0]
    oc_code, oc_prob, oc_start = G[10], G[11], G[12]
    base = ri[RI_D] + 1
    best = -1.0
    # odometer over r[v] in 0..cnt[v]; rr[0..6] current, rr[16..22] best
    for v in range(7):
        rr[v] = 0
        rr[16 + v] = 0
    while True:
        v = 1
        while v <= 6:
            if rr[v] < cnt[v]:
                rr[v] += 1
                break
            rr[v] = 0
            v += 1
        if v > 6:
            break
        j = 0
        kept = 0
        m = 1
        for u in range(1, 7):
            j += rr[u]
            kept += (cnt[u] - rr[u]) * m
            m *= base
        p = 0.0
        for k in range(oc_start[j], oc_start[j + 1]):
            if feas[kept + oc_code[k]]:
                p += oc_prob[k]
        if p > best + 1e-12:
            best = p
            for u in range(7):
                rr[16 + u] = rr[u]
    for u in range(7):
        rr[u] = rr[16 + u]
    return best


@njit(cache=True)
def feasible_table(cells, need, G):
    """feas[m] (0/1) for each roll multiset m of G's list on board ``cells``."""
    W, S = make_work(G[0][RI_D], 0)
    vm = np.zeros(8, dtype=np.uint64)
    board_from_cells(cells, vm)
    ms_cnt = G[8]
    out = np.zeros(ms_cnt.shape[0], dtype=np.int8)
    for m in range(ms_cnt.shape[0]):
        out[m] = 1 if feasible_fast(vm, ms_cnt[m], need, G, W) else 0
    return out


@njit(cache=True)
def escape_dp(feas_m, K, G):
    """V[k, m]: probability of escaping a MAGDAGDON from roll multiset m with k powers left,
    using them to maximise that probability: V[0, m] = feasible(m); for k ≥ 1, V[k, m] = 1 if
    feasible, else the best of: not using a power (0), one ±1 change (→ V[k−1, m']), or one
    reroll of a sub-multiset r (Σ_outcomes P(o)·V[k−1, kept + o])."""
    ri = G[0]
    ms_cnt, ms_code, oc_code, oc_prob, oc_start = G[8], G[9], G[10], G[11], G[12]
    d = ri[RI_D]
    base = d + 1
    M = ms_cnt.shape[0]
    V = np.zeros((K + 1, M), dtype=np.float64)
    prev = np.zeros(base ** 6, dtype=np.float64)
    cnt = np.zeros(7, dtype=np.int64)
    r = np.zeros(7, dtype=np.int64)
    for mm in range(M):
        V[0, mm] = feas_m[mm]
    for k in range(1, K + 1):
        for mm in range(M):
            prev[ms_code[mm]] = V[k - 1, mm]
        for mm in range(M):
            if feas_m[mm]:
                V[k, mm] = 1.0
                continue
            best = 0.0
            for v in range(7):
                cnt[v] = ms_cnt[mm, v]
            code = ms_code[mm]
            mul = 1
            for v in range(1, 7):
                if cnt[v] > 0:
                    if v > 1:
                        x = prev[code - mul + mul // base]
                        if x > best:
                            best = x
                    if v < 6:
                        x = prev[code - mul + mul * base]
                        if x > best:
                            best = x
                mul *= base
            for v in range(7):
                r[v] = 0
            while True:
                v = 1
                while v <= 6:
                    if r[v] < cnt[v]:
                        r[v] += 1
                        break
                    r[v] = 0
                    v += 1
                if v > 6:
                    break
                j = 0
                kept = 0
                mul = 1
                for u in range(1, 7):
                    j += r[u]
                    kept += (cnt[u] - r[u]) * mul
                    mul *= base
                p = 0.0
                for q in range(oc_start[j], oc_start[j + 1]):
                    p += oc_prob[q] * prev[kept + oc_code[q]]
                if p > best:
                    best = p
            V[k, mm] = best
    return V
