"""MAGDAGDON kernel inputs: the rules and a difficulty as the plain arrays the kernels take.

``kernel_inputs(rules, diff)`` builds the tuple ``G`` every kernel in ``kernels/magdagdon/``
takes (rule integers and floats, bitboard masks, the tolerance table, the line-bonus table, the
power penalties, Zobrist keys, the roll multisets and their outcome probabilities, and the
opening book that whole-game jobs fill once); ``vm_of`` turns a board into its bitboards. The
heuristic board value's two weights are set here (see kernels/magdagdon/policy.py). Only the
kernel paths import this module (it loads NumPy); the exact queries' pure-Python paths take the
roll multisets from ``rolls.py``.
"""
from __future__ import annotations

import functools

import numpy as np

from analyzer.games.magdagdon.rolls import roll_multisets
from analyzer.games.magdagdon.rules import Difficulty, MagdagdonRules

CELL_VALUE = 7.0  # expected final worth of a cell that will get a number: 2 lines × 3.5
POTENTIAL = 0.5   # weight of a still-attainable line bonus in the heuristic board value


@functools.lru_cache(maxsize=8)
def multisets(d: int):
    """``rolls.roll_multisets(d)`` as the kernels' arrays: ms_cnt (one row (0, c_1, …, c_6) per
    multiset of d dice), ms_code, weights, and the reroll outcomes oc_code, oc_prob, oc_start."""
    ms = roll_multisets(d)
    return (np.array(ms.counts, dtype=np.int64), np.array(ms.codes, dtype=np.int64),
            np.array(ms.weights, dtype=np.int64), np.array(ms.oc_code, dtype=np.int64),
            np.array(ms.oc_prob, dtype=np.float64), np.array(ms.oc_start, dtype=np.int64))


def kernel_inputs(rules: MagdagdonRules, diff: Difficulty, book: bool = False):
    """Kernel inputs G; with ``book`` the policies' opening book is filled in (whole games)."""
    G = _kernel_inputs(rules, diff)
    if book and not G[13].any():
        from kernels.magdagdon import build_book

        build_book(G)
    return G


@functools.lru_cache(maxsize=16)
def _kernel_inputs(rules: MagdagdonRules, diff: Difficulty):
    """The tuple G the kernels take: (ri, rf, masks, badv, LT, bon, pen, zob, ms_cnt, ms_code,
    oc_code, oc_prob, oc_start, book_k, book_cells, book_values, code_to_multiset)."""
    from kernels.magdagdon.board import (MAXD, RF_CELL, RF_POT, RF_POWTHR, RF_RUIN, RI_D,
                                         RI_MIN, RI_N, RI_POW, line_table)

    n = rules.board_size
    N = n * n
    ri = np.zeros(8, dtype=np.int64)
    ri[RI_N], ri[RI_D], ri[RI_MIN], ri[RI_POW] = n, rules.dice_per_roll, diff.min_dice, diff.powers
    rf = np.zeros(4, dtype=np.float64)
    rf[RF_RUIN] = rules.ruin_penalty
    rf[RF_CELL] = CELL_VALUE
    rf[RF_POWTHR] = rules.ruin_penalty + CELL_VALUE
    rf[RF_POT] = POTENTIAL
    full = (1 << N) - 1
    notfirst = sum(1 << i for i in range(N) if i % n != 0)
    notlast = sum(1 << i for i in range(N) if i % n != n - 1)
    canon = sum(1 << (r * n + c) for r in range(n) for c in range(n) if r <= c and r + c <= n - 1 and 2 * c <= n - 1)
    masks = np.array([full, notfirst, notlast, canon], dtype=np.uint64)
    badv = np.zeros(7, dtype=np.int64)
    badv[0] = rules.tolerance
    for v in range(1, 7):
        badv[v] = sum(1 << u for u in range(1, 7) if abs(u - v) > rules.tolerance)
    bon = np.array([rules.straight_bonus, rules.four_kind_bonus, rules.two_pairs_bonus,
                    1.0 if rules.four_kind_is_two_pairs else 0.0, POTENTIAL], dtype=np.float64)
    LT = line_table(n, bon) if n <= 5 else np.zeros(1, dtype=np.float64)
    pen = np.zeros(diff.powers + 2, dtype=np.float64)
    for k in range(1, diff.powers + 2):
        pen[k] = pen[k - 1] + (diff.costs[k - 1] if k - 1 < len(diff.costs) else 1e9)
    zob = np.random.Generator(np.random.PCG64(20260419)).integers(
        0, 2**63, size=N * 8, dtype=np.int64).astype(np.uint64)
    ms_cnt, ms_code, _w, oc_code, oc_prob, oc_start = multisets(rules.dice_per_roll)
    M = ms_cnt.shape[0]
    book = (np.zeros((3, M), dtype=np.int64), np.zeros((3, M, MAXD), dtype=np.int64),
            np.zeros((3, M, MAXD), dtype=np.int64),
            np.zeros((rules.dice_per_roll + 1) ** 6, dtype=np.int64))
    return (ri, rf, masks, badv, LT, bon, pen, zob, ms_cnt, ms_code, oc_code, oc_prob,
            oc_start) + book


def vm_of(cells) -> np.ndarray:
    vm = np.zeros(8, dtype=np.uint64)
    for i, v in enumerate(cells):
        vm[int(v)] |= np.uint64(1 << i)
    return vm


def with_power_knobs(G, power_threshold: float | None = None, power_mode: int = 0,
                     power_min_empty: int = 0, power_max_empty: int = 0):
    """G with the policies' power knobs set (kernels/magdagdon/board.py ``RI_PMODE``,
    ``RI_PMINE``, ``RI_PMAXE``, ``RF_POWTHR``; None keeps the bots' threshold). The rule arrays
    are copied; the rest of G (opening book included) is shared."""
    from kernels.magdagdon.board import RF_POWTHR, RI_PMAXE, RI_PMINE, RI_PMODE

    ri, rf = G[0].copy(), G[1].copy()
    if power_threshold is not None:
        rf[RF_POWTHR] = power_threshold
    ri[RI_PMODE], ri[RI_PMINE], ri[RI_PMAXE] = power_mode, power_min_empty, power_max_empty
    return (ri, rf) + tuple(G[2:])
