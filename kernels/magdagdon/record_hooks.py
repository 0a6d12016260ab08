"""The recording hooks of MAGDAGDON's ``play_base``: its three decisions, noted when the game is a
recording run (kernels/magdagdon/record.py).

What belongs here: the record layout and the three hooks ``play_base`` (kernels/magdagdon/game.py)
calls in place of the plain functions — :func:`feasible_noted`, :func:`use_power_noted`,
:func:`best_ruin_noted`. Each runs the plain function; when the rule-integer array ``G[0]`` is
longer than the engine's own :data:`~kernels.magdagdon.board.RI_SIZE` slots (only
``record_games`` passes such an array) it also notes the decision, as the module doc of
record.py says, returning exactly what the plain function returns and touching no random
number. So a plain game pays one length test per hook call, and the engine is compiled once
(it was compiled a second time with the functions swapped, kernels/twin.py).
"""
import numpy as np
from numba import njit

from kernels.magdagdon.board import RI_POW, RI_SIZE, feasible_fast, popcount
from kernels.magdagdon.policy import best_ruin, use_power

# header slots, from h = len(G[0]) − HEAD
H_BASE, H_CAP, H_N, H_GAME, H_USED, H_PEND, H_COST, H_EMPTY, H_FIX, H_CNT = range(10)
HEAD = H_CNT + 7                 # H_CNT..H_CNT+6: the roll before a power, to see what it did
RW = 6                           # game, kind, cost, empty, fix, choice
K_SPEND, K_WHICH = 0, 1


@njit(cache=True)
def _write(ri, kind, choice):
    """Append one record of the pending decision (counted, dropped past the capacity)."""
    h = ri.shape[0] - HEAD
    k = ri[h + H_N]
    if k < ri[h + H_CAP]:
        at = ri[h + H_BASE] + k * RW
        ri[at] = ri[h + H_GAME]
        ri[at + 1] = kind
        ri[at + 2] = ri[h + H_COST]
        ri[at + 3] = ri[h + H_EMPTY]
        ri[at + 4] = ri[h + H_FIX]
        ri[at + 5] = choice
    ri[h + H_N] = k + 1


@njit(cache=True)
def rescuing_changes(vm, cnt, need, G, W):
    """How many ±1 changes of one die (distinct value and direction) make roll ``cnt``
    placeable; ``cnt`` is left as it was."""
    found = 0
    for v in range(1, 7):
        if cnt[v] == 0:
            continue
        for dl in (-1, 1):
            w = v + dl
            if w < 1 or w > 6:
                continue
            cnt[v] -= 1
            cnt[w] += 1
            if feasible_fast(vm, cnt, need, G, W):
                found += 1
            cnt[w] -= 1
            cnt[v] += 1
    return found


@njit(cache=True)
def feasible_fast_rec(vm, cnt, need, G, W):
    """``feasible_fast``, noting a pending power decision and its features (module doc)."""
    ok = feasible_fast(vm, cnt, need, G, W)
    ri = G[0]
    h = ri.shape[0] - HEAD
    used = ri[h + H_USED]
    if ok or used >= ri[RI_POW]:
        ri[h + H_PEND] = 0
        return ok
    pen = G[6]
    ri[h + H_PEND] = 1
    ri[h + H_COST] = np.int64(round(pen[used + 1] - pen[used]))
    ri[h + H_EMPTY] = popcount(vm[0])
    ri[h + H_FIX] = rescuing_changes(vm, cnt, need, G, W)
    return ok


@njit(cache=True)
def use_power_rec(vm, cnt, need, G, W, s0, s1, s2, s3):
    """``use_power``, recording the pending decision as spent or not, and which power."""
    ri = G[0]
    h = ri.shape[0] - HEAD
    for v in range(7):
        ri[h + H_CNT + v] = cnt[v]
    spent, t0, t1, t2, t3 = use_power(vm, cnt, need, G, W, s0, s1, s2, s3)
    if ri[h + H_PEND] == 1:
        _write(ri, K_SPEND, 1 if spent else 0)
        if spent and ri[h + H_FIX] > 0:
            moved = False
            for v in range(7):
                if cnt[v] != ri[h + H_CNT + v]:
                    moved = True
            drew = t0 != s0 or t1 != s1 or t2 != s2 or t3 != s3
            _write(ri, K_WHICH, 1 if (moved and not drew) else 0)
        ri[h + H_PEND] = 0
    if spent:
        ri[h + H_USED] += 1
    return spent, t0, t1, t2, t3


@njit(cache=True)
def best_ruin_rec(cells, vm, G, W):
    """``best_ruin``, recording a pending decision as the ruin accepted."""
    ri = G[0]
    h = ri.shape[0] - HEAD
    if ri[h + H_PEND] == 1:
        _write(ri, K_SPEND, 0)
        ri[h + H_PEND] = 0
    return best_ruin(cells, vm, G, W)


@njit(cache=True)
def feasible_noted(vm, cnt, need, G, W):
    """``feasible_fast``; on a recording run :func:`feasible_fast_rec`."""
    if G[0].shape[0] > RI_SIZE:
        return feasible_fast_rec(vm, cnt, need, G, W)
    return feasible_fast(vm, cnt, need, G, W)


@njit(cache=True)
def use_power_noted(vm, cnt, need, G, W, s0, s1, s2, s3):
    """``use_power``; on a recording run :func:`use_power_rec`."""
    if G[0].shape[0] > RI_SIZE:
        return use_power_rec(vm, cnt, need, G, W, s0, s1, s2, s3)
    return use_power(vm, cnt, need, G, W, s0, s1, s2, s3)


@njit(cache=True)
def best_ruin_noted(cells, vm, G, W):
    """``best_ruin``; on a recording run :func:`best_ruin_rec`."""
    if G[0].shape[0] > RI_SIZE:
        return best_ruin_rec(cells, vm, G, W)
    return best_ruin(cells, vm, G, W)
