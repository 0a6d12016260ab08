"""MAGDAGDON's fast placement search equals the general one (issue 16).

``choose_best`` (kernels/magdagdon/best.py: each placement set once, by its smallest order, no
transposition table; leaves evaluated from the parent's cell sets) must give what ``choose``
(kernels/magdagdon/policy.py, the table search kept as the general form) gives for the base
policies: the dice placed, the value H bit for bit, the placement order, the board restored.
Checked on random boards (numbers, ruins, no number, empty) under several rule variants: board
sizes 3-6 (6 takes the line-by-line H path, no line table), 1-6 dice, tolerances 0-2, minimums
1-3, and the three modes (greedy, max-dice, min-dice). Whole games played with the fast search
equal games played with the general one (twin engine), SURVIVAL and PEACEFUL (powers spent).
"""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from analyzer.games.magdagdon.arrays import kernel_inputs, vm_of
from analyzer.games.magdagdon.rules import MagdagdonRules, difficulty
from kernels.magdagdon.best import choose_best
from kernels.magdagdon.board import MAXD, P_GREEDY, P_MAX, P_MIN, make_work
from kernels.magdagdon.game import play_base, play_game
from kernels.magdagdon.policy import choose
from kernels.twin import twin

VARIANTS = [  # board_size, dice_per_roll, tolerance, peaceful_min_dice
    (4, 4, 1, 2), (3, 3, 0, 1), (5, 4, 2, 3), (6, 3, 1, 2), (4, 1, 1, 1), (4, 6, 1, 2),
    (4, 5, 0, 3), (5, 2, 1, 1),
]


def _rules(n, d, tol, mn):
    return MagdagdonRules(board_size=n, dice_per_roll=d, tolerance=tol, peaceful_min_dice=mn)


def _random_board(rng, n, tol):
    """Random cells: numbers that respect the tolerance with their neighbours, some ruins."""
    cells = np.zeros(n * n, dtype=np.int8)
    kind = rng.integers(0, 6)
    if kind == 0:
        return cells                       # the empty board (symmetry orbits)
    if kind == 1:                          # ruins only: no number, any empty cell is valid
        cells[rng.choice(n * n, size=rng.integers(1, n), replace=False)] = 7
        return cells
    for _ in range(rng.integers(1, n * n)):
        i = int(rng.integers(0, n * n))
        if cells[i]:
            continue
        if rng.random() < 0.15:
            cells[i] = 7
            continue
        v = int(rng.integers(1, 7))
        r, c = divmod(i, n)
        nbs = [(r + dr) * n + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
               if 0 <= r + dr < n and 0 <= c + dc < n]
        if all(not 1 <= cells[j] <= 6 or abs(int(cells[j]) - v) <= tol for j in nbs):
            cells[i] = v
    return cells


@njit(cache=True)
def _compare(cells, vm, cnt, need, mode, G, W, S):
    """(k, h, order) of choose and of choose_best, and whether both restored the board."""
    c0 = cells.copy()
    v0 = vm.copy()
    k1, h1 = choose(cells, vm, cnt, need, mode, G, W, S, 0)
    o1 = np.zeros((2, MAXD), dtype=np.int64)
    for j in range(k1):
        o1[0, j] = W[11][j]
        o1[1, j] = W[8][j]
    restored = np.array_equal(cells, c0) and np.array_equal(vm, v0)
    k2, h2 = choose_best(cells, vm, cnt, need, mode, G, W)
    o2 = np.zeros((2, MAXD), dtype=np.int64)
    for j in range(k2):
        o2[0, j] = W[11][j]
        o2[1, j] = W[8][j]
    restored = restored and np.array_equal(cells, c0) and np.array_equal(vm, v0)
    return k1, h1, o1, k2, h2, o2, restored


@pytest.mark.parametrize("variant", VARIANTS)
def test_choose_best_equals_choose(variant):
    n, d, tol, mn = variant
    rules = _rules(*variant)
    G = kernel_inputs(rules, difficulty(rules, "peaceful"))
    W, S = make_work(d, 0)
    rng = np.random.default_rng(1000 + 7 * n + d)
    found = 0
    for _ in range(150):
        cells = _random_board(rng, n, tol)
        empties = int((cells == 0).sum())
        if empties == 0:
            continue
        cnt = np.zeros(7, dtype=np.int64)
        for v in rng.integers(1, 7, size=d):
            cnt[v] += 1
        need = min(mn, empties, d)
        for mode in (P_GREEDY, P_MAX, P_MIN):
            k1, h1, o1, k2, h2, o2, restored = _compare(cells, vm_of(cells), cnt, need, mode, G, W,
                                                        S)
            assert restored
            assert (k1, h1) == (k2, h2), (variant, cells, cnt, mode)
            assert np.array_equal(o1, o2), (variant, cells, cnt, mode)
            found += k1 > 0
    assert found > 50   # most rolls can be placed: the comparisons are not all empty


@njit(cache=True)
def choose_general(cells, vm, cnt0, need, mode, G, W):
    """``choose_best``'s signature on the general table search. The engine runs without
    reference counting, so nothing is allocated here: the store buffers ride at the end of W
    (W + S; make_work's W has 28 arrays)."""
    return choose(cells, vm, cnt0, need, mode, G, W, (W[28], W[29], W[30], W[31]), 0)


play_base_general = twin(play_base, "_general_test", choose_best=choose_general)
play_game_general = twin(play_game, "_general_test", play_base=play_base_general)


@pytest.mark.parametrize("variant,diff,mode", [
    ((4, 4, 1, 2), "survival", P_GREEDY), ((4, 4, 1, 2), "peaceful", P_GREEDY),
    ((4, 4, 1, 2), "peaceful", P_MAX), ((4, 4, 1, 2), "nightmare", P_MIN),
    ((3, 3, 0, 1), "peaceful", P_GREEDY), ((5, 4, 2, 3), "peaceful", P_GREEDY),
    ((6, 3, 1, 2), "survival", P_MAX)])
def test_games_equal_general_search(variant, diff, mode):
    from analyzer.games.magdagdon.play import Policy, policy_inputs
    from analyzer.rng import block_keys

    rules = _rules(*variant)
    G = policy_inputs(rules, difficulty(rules, diff), Policy(mode, 0, "t"))
    n, d = rules.board_size, rules.dice_per_roll
    key = block_keys(11, 0, 1)[0]
    init = np.zeros(n * n, dtype=np.int8)
    out = []
    for fn in (play_game, play_game_general):
        W, S = make_work(d, 0)
        if fn is play_game_general:
            W = W + S
        games = []
        for t in range(60):
            cells = np.zeros(n * n, dtype=np.int8)
            res = fn(key, t, mode, 0, init, G, W, S, np.zeros(7, dtype=np.int64), cells,
                     np.zeros(8, dtype=np.uint64), np.zeros(n * n, dtype=np.int8),
                     np.zeros(8, dtype=np.uint64), np.zeros(7, dtype=np.int64),
                     np.zeros(8, dtype=np.int64))
            games.append((res, cells.tobytes()))
        out.append(games)
    assert out[0] == out[1]
