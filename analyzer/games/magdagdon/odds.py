"""MAGDAGDON exact odds in pure Python: the feasibility of every roll multiset and the best use of
the powers left, without Numba.

The same computation as ``kernels.magdagdon.exact`` (``feasible_table``, ``escape_dp``), in the
same order, so the same floats (tests/test_magdagdon_feasible.py compares them on random boards,
rules and power counts). `magdagdon odds` runs this; when the placement searches together pass
``TABLE_BUDGET`` placements (large boards, many dice) it runs the kernels instead.

Feasibility: multiset m (counts c_1..c_6 of d dice) is placeable when the placement search of
``feasible.py`` reaches the turn's minimum. Escape with k powers left::

    V[0, m] = feasible(m)
    V[k, m] = 1 if feasible(m), else the largest of 0, V[k−1, m ± one die], and for every
              non-empty sub-multiset r of m rerolled: Σ_o P(o)·V[k−1, (m − r) + o]

over the outcomes o of rerolling |r| dice (multinomial probabilities; ``rolls.py``).
Cost: 126 searches for 4 dice, then K · (infeasible multisets) · (sub-multisets × outcomes)
multiply-adds, a few tens of thousands on a typical board. No NumPy here (`magdagdon odds` loads
none): the tables are lists (the kernels' fallback gives arrays, turned into lists).
"""
from __future__ import annotations

from fractions import Fraction

from analyzer.games.magdagdon.feasible import NODE_BUDGET, BudgetExceeded, search_counted
from analyzer.games.magdagdon.rolls import roll_multisets

TABLE_BUDGET = 5 * NODE_BUDGET


def feasible_table(cells, need: int, n: int, tolerance: int, d: int) -> list[int]:
    """feas[m] (0/1) for every multiset m of ``roll_multisets(d)``; raises ``BudgetExceeded``
    when the searches together pass ``TABLE_BUDGET`` placements."""
    out = []
    left = TABLE_BUDGET
    for row in roll_multisets(d).counts:
        roll = [v for v in range(1, 7) for _ in range(row[v])]
        got, _order, nodes = search_counted(cells, roll, need, n, tolerance, left)
        left -= nodes
        out.append(1 if got >= need else 0)
    return out


def _next_subset(r: list[int], cnt: list[int]) -> bool:
    """Advance the odometer r (0 ≤ r_v ≤ cnt_v, v = 1..6, r_1 fastest); False after the last."""
    for v in range(1, 7):
        if r[v] < cnt[v]:
            r[v] += 1
            return True
        r[v] = 0
    return False


def escape_dp(feas, K: int, d: int) -> list[list[float]]:
    """V[k][m] of the module doc for k = 0..K (K + 1 rows of one float per multiset)."""
    ms = roll_multisets(d)
    base = d + 1
    cnts, codes = ms.counts, ms.codes
    occ, ocp, ocs = ms.oc_code, ms.oc_prob, ms.oc_start
    V = [[float(f) for f in feas]]
    for _k in range(K):
        prev = [0.0] * base ** 6
        for code, x in zip(codes, V[-1]):
            prev[code] = x
        row = []
        for mm, cnt in enumerate(cnts):
            if feas[mm]:
                row.append(1.0)
                continue
            best = 0.0
            code = codes[mm]
            mul = 1
            for v in range(1, 7):
                if cnt[v] > 0:
                    if v > 1 and prev[code - mul + mul // base] > best:
                        best = prev[code - mul + mul // base]
                    if v < 6 and prev[code - mul + mul * base] > best:
                        best = prev[code - mul + mul * base]
                mul *= base
            r = [0] * 7
            while _next_subset(r, cnt):
                j = sum(r[1:])
                kept = 0
                mul = 1
                for u in range(1, 7):
                    kept += (cnt[u] - r[u]) * mul
                    mul *= base
                p = 0.0
                for q in range(ocs[j], ocs[j + 1]):
                    p += ocp[q] * prev[kept + occ[q]]
                if p > best:
                    best = p
            row.append(best)
        V.append(row)
    return V


def tables(cells, need: int, rules, diff, powers_left: int) -> tuple[list, list]:
    """(feas, V) as lists: in pure Python, or by the kernels when the searches are too large."""
    try:
        feas = feasible_table(cells, need, rules.board_size, rules.tolerance,
                              rules.dice_per_roll)
    except BudgetExceeded:
        feas, V = kernel_tables(cells, need, rules, diff, powers_left)
        return feas.tolist(), V.tolist()
    return feas, escape_dp(feas, powers_left, rules.dice_per_roll)


def kernel_tables(cells, need: int, rules, diff, powers_left: int):
    """(feas, V) arrays from ``kernels.magdagdon.exact``."""
    import numpy as np

    from analyzer.games.magdagdon.arrays import kernel_inputs
    from kernels.magdagdon.exact import escape_dp as kernel_dp
    from kernels.magdagdon.exact import feasible_table as kernel_feas

    G = kernel_inputs(rules, diff)
    feas = kernel_feas(np.asarray(cells, dtype=np.int8), need, G)
    return feas, kernel_dp(feas, powers_left, G)


def weighted_sum(weights, xs) -> float:
    """Σ_i w_i·x_i (the odds' Σ_m w_m (1 − V_K(m))) computed exactly in rationals and rounded
    once, so the same float on every machine (``numpy.dot``, used before, added in the order of
    the CPU's BLAS kernel: the last digit could differ between machines)."""
    return float(sum((Fraction(w) * Fraction(x) for w, x in zip(weights, xs)), Fraction(0)))
