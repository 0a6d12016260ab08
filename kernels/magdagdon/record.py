"""MAGDAGDON games that record the power decisions.

What belongs here: what ``pushluck magdagdon advice`` needs to say where a power rule goes
wrong. The engine is the plain ``play_base`` (kernels/magdagdon/game.py), run with a rule-integer
array ``G[0]`` longer than the engine's own slots: its three hooks
(kernels/magdagdon/record_hooks.py) then call recording versions of the functions, which
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
"""
import numpy as np
from numba import njit

from kernels.magdagdon.board import RI_D, RI_POW, board_from_cells, make_work
from kernels.magdagdon.game import play_base
from kernels.magdagdon.record_hooks import (H_BASE, H_CAP, H_CNT, H_COST, H_EMPTY,  # noqa: F401
                                            H_FIX, H_GAME, H_N, H_PEND, H_USED, HEAD, K_SPEND,
                                            K_WHICH, RW)
from kernels.rng import trial_state


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
            sco, tu, mg, ru, us, s0, s1, s2, s3 = play_base(
                cells, vm, powers, zero, pend, rc, policy, G, W, S, rc, s0, s1, s2, s3)
            out[g, 0] = sco
            out[g, 1] = tu
            out[g, 2] = mg
            out[g, 3] = ru
            out[g, 4] = us
            g += 1
    return out
