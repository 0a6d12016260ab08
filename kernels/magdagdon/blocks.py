"""MAGDAGDON Monte Carlo blocks: the kernels the runner calls, one row of sums per block.

Each block ``b`` runs ``counts[b]`` trials; trial t of block b uses its own random stream
(``trial_state(keys[b], t)``), so the sums depend on the seed and the block layout only, never on
the thread count, and every comparison (policy A vs B, action vs action) is on common random
numbers. ``games_blocks`` plays whole games (simulate, tune, bench), ``best_blocks`` scores every
action of a roll by the games that follow it (best), ``feasibility_blocks`` times the exact
placement search (bench).
"""
import numpy as np
from numba import njit, prange, types

from kernels.engine_arg import EngineDriver
from kernels.rng import trial_state
from kernels.magdagdon.board import (MAXD, P_ROLLOUT, RI_D, RI_N, TOP_M, board_from_cells,
                                     make_work, place, search)
from kernels.magdagdon.game import play_base, play_game
from kernels.magdagdon.policy import roll_into


@njit(cache=True, inline="always")
def _acc(out, b, o, sco, tu, mg, ru, us):
    out[b, o] += sco
    out[b, o + 1] += sco * sco
    out[b, o + 2] += tu
    out[b, o + 3] += tu * tu
    out[b, o + 4] += mg
    out[b, o + 5] += mg * mg
    out[b, o + 6] += ru
    out[b, o + 7] += ru * ru
    out[b, o + 8] += us
    out[b, o + 9] += us * us


@njit(cache=True, parallel=True)
def games_blocks(keys, counts, pa, ka, pb, kb, two, init, G, G2, lo, width):
    """Per-block sums of whole games from board ``init`` under policy A with rule arrays ``G``
    (and, when ``two``, policy B with ``G2`` on the same trials: common random numbers; the two
    differ only in the power knobs, kernels/magdagdon/board.py).

    Columns: for x in (score, turns, MAGDAGDON rolls, ruins, powers used) Σx and Σx² — 0–9 for
    A, 10–19 for B; 20 Σd, 21 Σd² with d = score_A − score_B; then A's and B's histograms of
    integer scores from ``lo`` (``width`` columns each).
    """
    m = keys.shape[0]
    out = np.zeros((m, 22 + 2 * width), dtype=np.float64)
    N = init.shape[0]
    cap = 4096 if (pa == P_ROLLOUT or pb == P_ROLLOUT) else 0
    for b in prange(m):
        W, S = make_work(G[0][RI_D], cap)
        cells = np.zeros(N, dtype=np.int8)
        cells2 = np.zeros(N, dtype=np.int8)
        vm = np.zeros(8, dtype=np.uint64)
        vm2 = np.zeros(8, dtype=np.uint64)
        rc = np.zeros(7, dtype=np.int64)
        rc2 = np.zeros(7, dtype=np.int64)
        top = np.zeros(TOP_M, dtype=np.int64)
        for t in range(counts[b]):
            xa = 0.0
            for side in range(2 if two else 1):
                pol = pa if side == 0 else pb
                kk = ka if side == 0 else kb
                sco, tu, mg, ru, us = play_game(keys[b], t, pol, kk, init,
                                                G if side == 0 else G2, W, S, rc, cells, vm,
                                                cells2, vm2, rc2, top)
                _acc(out, b, 10 * side, sco, tu, mg, ru, us)
                h = min(max(np.int64(round(sco)) - lo, 0), width - 1)
                out[b, 22 + side * width + h] += 1
                if side == 0:
                    xa = sco
                else:
                    dd = xa - sco
                    out[b, 20] += dd
                    out[b, 21] += dd * dd
    return out


@njit(cache=True)
def best_block(key, count, first, cells0, powers_left, used0, roll, acts, policy, G, out):
    """Block of :func:`best_blocks`: its ``count`` trials from stream key ``key``, trial t's
    scores into ``out[first + t]`` (one column per action)."""
    N = cells0.shape[0]
    C = acts.shape[0]
    W, S = make_work(G[0][RI_D], 0)
    cells = np.zeros(N, dtype=np.int8)
    vm = np.zeros(8, dtype=np.uint64)
    rc = np.zeros(7, dtype=np.int64)
    pc = np.zeros(7, dtype=np.int64)
    for t in range(count):
        for a in range(C):
            for i in range(N):
                cells[i] = cells0[i]
            board_from_cells(cells, vm)
            s0, s1, s2, s3 = trial_state(key, t)
            kind = acts[a, 0]
            pl = powers_left
            us = used0
            pending = False
            for v in range(7):
                pc[v] = roll[v]
            if kind == 0:
                for j in range(acts[a, 1]):
                    place(cells, vm, acts[a, 2 + j], acts[a, 2 + MAXD + j])
            elif kind == 1:
                place(cells, vm, acts[a, 1], 7)
            elif kind == 2:
                pc[acts[a, 1]] -= 1
                pc[acts[a, 2]] += 1
                pl -= 1
                us += 1
                pending = True
            else:
                j = 0
                for v in range(1, 7):
                    pc[v] -= acts[a, 2 + v]
                    j += acts[a, 2 + v]
                s0, s1, s2, s3 = roll_into(pc, j, s0, s1, s2, s3)
                pl -= 1
                us += 1
                pending = True
            sco, _t, _m, _r, _u, s0, s1, s2, s3 = play_base(
                cells, vm, pl, us, pending, pc, policy, G, W, S, rc, s0, s1, s2, s3)
            out[first + t, a] = sco


def _best_blocks(block, keys, counts, cells0, powers_left, used0, roll, acts, policy, G, out):
    """Scores of every action on the same trials (common random numbers).

    ``acts[a]``: kind (0 placement: k cells/values in columns 2.. and 2+MAXD..; 1 ruin on cell
    acts[a,1]; 2 change one die acts[a,1] → acts[a,2] (a power); 3 reroll the sub-multiset
    acts[a,2+v] (a power)). After the action the game is played out with ``policy`` from trial
    t's stream; ``out[first trial of block + t, a]`` receives the final score. Blocks run in
    parallel, each by ``block`` (:func:`best_block`, a first-class function: the driver's
    compile does not hold the game's, kernels/engine_arg.py).
    """
    m = keys.shape[0]
    offs = np.zeros(m + 1, dtype=np.int64)
    for b in range(m):
        offs[b + 1] = offs[b] + counts[b]
    for b in prange(m):
        block(keys[b], counts[b], offs[b], cells0, powers_left, used0, roll, acts, policy, G,
              out)
    return out


def best_block_type(t):
    """``FunctionType`` of :func:`best_block` called by :func:`_best_blocks` with arguments of
    types ``t`` (keys, counts, then the rest as passed): a row of ``keys``, an item of
    ``counts``, the int64 first trial, the rest unchanged."""
    row = types.Array(t[0].dtype, 1, "C" if t[0].layout == "C" else "A")
    return types.FunctionType(types.void(row, t[1].dtype, types.int64, *t[2:]))


BEST = EngineDriver(_best_blocks, best_block_type, lambda ft, *t: t[-1](ft, *t))
best_blocks = BEST.bind(best_block)


@njit(cache=True, parallel=True)
def feasibility_blocks(keys, counts, boards, need, G):
    """Bench kernel: trial t rolls the dice and checks feasibility on board ``t mod B`` of the
    (B, 8) bitboard array ``boards``. Per-block sums: [feasible rolls]."""
    m = keys.shape[0]
    out = np.zeros((m, 1), dtype=np.float64)
    nb = boards.shape[0]
    d = G[0][RI_D]
    n = G[0][RI_N]
    masks = G[2]
    badv = G[3]
    for b in prange(m):
        W, S = make_work(d, 0)
        (cw, nbs, valid, curv, cand, pbit, pval, wbit, wval, pcell, pkey, wcell, ttk, tts, gen,
         dig, feas, rr, key4, vmw) = W[:20]
        rc = np.zeros(7, dtype=np.int64)
        vm = np.zeros(8, dtype=np.uint64)
        s0, s1, s2, s3 = trial_state(keys[b], 0)
        ok = 0
        for t in range(counts[b]):
            for v in range(7):
                rc[v] = 0
            s0, s1, s2, s3 = roll_into(rc, d, s0, s1, s2, s3)
            q = t % nb
            for v in range(8):
                vm[v] = boards[q, v]
            if search(vm, rc, need[q], n, masks, badv, vmw, cw, nbs, valid, curv, cand, pbit,
                      pval, wbit, wval) >= need[q]:
                ok += 1
        out[b, 0] = ok
    return out
