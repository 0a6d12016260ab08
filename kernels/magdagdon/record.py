"""MAGDAGDON games that record the power decisions: the recording twin engine.

What belongs here: what ``pushluck magdagdon advice`` needs to say where a power rule goes
wrong. The engine is the plain ``play_base`` (kernels/magdagdon/game.py) compiled a second
time (kernels/twin.py) with three of the functions it calls swapped for recording ones that
return exactly what the originals return and touch no random number:

* :func:`feasible_fast_rec` — the MAGDAGDON check. On a roll that cannot be placed while a
  power is left, it notes a pending decision and the features a player sees then: ``cost``
  (the next power's penalty, pen[used + 1] − pen[used]), ``empty`` (the empty cells) and
  ``fix`` (how many ±1 changes of one die would make the roll placeable).
* :func:`use_power_rec` — the rule spends: the pending decision is recorded as "spend" when a
  power was used, as "accept" when the rule's power form found none to use (±1 only, no ±1
  rescues); when a power was used and some ±1 rescued the roll, a second record says which
  power it was (±1: the roll moved by one pip and no random number was drawn; else reroll).
* :func:`best_ruin_rec` — the ruin is accepted: a still pending decision is recorded as
  "accept".

The record lives in the rule-integer array ``G[0]`` past the engine's own slots (the engine
reads those by fixed index only): records of ``RW`` words from ``G[0][h + H_BASE]``, then the
header of ``HEAD`` words at the array's end (``h = len − HEAD``). The header also holds the
powers used in the current game, which :func:`record_games` resets per game. Because the
hooks return what the plain functions return, a recorded game is the plain engine's game on
the same (key, trial) (tested).

Record: game index, kind (``K_SPEND`` 1 = spend / 0 = accept; ``K_WHICH`` 1 = ±1 / 0 =
reroll), cost, empty, fix, choice.

Cache: the twin is cached beside game.py and keyed on game.py's source only, so its name
carries a digest of this module (``kernels.twin.digest_suffix``): editing the hooks compiles a
new twin rather than loading the old one.
"""
import numpy as np
from numba import njit

from kernels.magdagdon.board import (RI_D, RI_POW, board_from_cells, feasible_fast, make_work,
                                     popcount)
from kernels.magdagdon.game import play_base
from kernels.magdagdon.policy import best_ruin, use_power
from kernels.rng import trial_state
from kernels.twin import digest_suffix, twin

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


_SUFFIX = digest_suffix("_rec", __file__)   # an edit of this file compiles new twins
play_base_rec = twin(play_base, _SUFFIX, feasible_fast=feasible_fast_rec,
                     use_power=use_power_rec, best_ruin=best_ruin_rec)


@njit(cache=True)
def record_games(keys, counts, policy, init, G):
    """Games t < counts[b] of blocks b from board ``init`` on trial streams (keys[b], t), as
    ``play_game`` plays them under base policy ``policy``, numbered in that order, with their
    power decisions recorded into ``G[0]`` (module doc; its header must hold the records'
    offset and capacity). Returns per game (score, turns, MAGDAGDON rolls, ruins, powers
    used), as ``games_blocks`` sums them."""
    ri = G[0]
    h = ri.shape[0] - HEAD
    total = 0
    for b in range(counts.shape[0]):
        total += counts[b]
    out = np.zeros((total, 5), dtype=np.float64)
    N = init.shape[0]
    W, S = make_work(ri[RI_D], 0)
    cells = np.zeros(N, dtype=np.int8)
    vm = np.zeros(8, dtype=np.uint64)
    rc = np.zeros(7, dtype=np.int64)
    ri[h + H_N] = 0
    g = 0
    for b in range(keys.shape[0]):
        for t in range(counts[b]):
            ri[h + H_GAME] = g
            ri[h + H_USED] = 0
            ri[h + H_PEND] = 0
            for i in range(N):
                cells[i] = init[i]
            board_from_cells(cells, vm)
            s0, s1, s2, s3 = trial_state(keys[b], t)
            powers = ri[RI_POW]
            zero = powers * 0
            pend = powers < 0
            sco, tu, mg, ru, us, s0, s1, s2, s3 = play_base_rec(
                cells, vm, powers, zero, pend, rc, policy, G, W, S, rc, s0, s1, s2, s3)
            out[g, 0] = sco
            out[g, 1] = tu
            out[g, 2] = mg
            out[g, 3] = ru
            out[g, 4] = us
            g += 1
    return out
