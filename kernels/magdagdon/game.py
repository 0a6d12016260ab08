"""MAGDAGDON whole-game kernels: one game played to the end by a policy, from any board.

``play_base`` plays the rest of a game with a base policy (greedy, max-dice, min-dice; their
choices are in kernels/magdagdon/policy.py). ``play_rollout`` plays it with rollout:K, which
chooses among the 8 best placements (or ruin cells) by H by K greedy rollouts each, on common
random numbers drawn from the trial's stream. ``play_game`` starts a game on trial t's own
random stream (``kernels.rng.trial_state``), so two policies or two actions played on the same
trial see the same dice as far as their choices let the games run alike. A finished game is
scored by H − power penalties, which on a full board is exactly the final score.

``play_base`` places by ``choose_best`` (kernels/magdagdon/best.py, equal to ``choose``) and
runs without reference counting (``_nrt=False``): it allocates nothing, and every array it
passes on would otherwise cost atomic count updates per call.
"""
import numpy as np
from numba import njit

from kernels.rng import trial_state, xoshiro
from kernels.magdagdon.board import (P_GREEDY, P_ROLLOUT, P_STORE, RF_POWTHR, RI_D, RI_MIN, RI_N,
                                     RI_PMAXE, RI_PMINE, RI_POW, TOP_M, U0, board_from_cells,
                                     feasible_fast, heur, make_work, place, popcount, unplace)
from kernels.magdagdon.exact import code_of
from kernels.magdagdon.best import choose_best
from kernels.magdagdon.policy import choose, roll_into, use_power
from kernels.magdagdon.record_hooks import best_ruin_noted, feasible_noted, use_power_noted


@njit(cache=True, inline="always")
def may_spend(ri, empties):
    """The power knobs' bounds on the empty cells (0: no bound; kernels/magdagdon/board.py)."""
    return (ri[RI_PMINE] == 0 or empties >= ri[RI_PMINE]) and \
        (ri[RI_PMAXE] == 0 or empties <= ri[RI_PMAXE])


@njit(cache=True, _nrt=False)
def play_base(cells, vm, powers_left, used, pending, pcnt, mode, G, W, S, rc, s0, s1, s2, s3):
    """Play to the end of the game with a base policy (greedy / max-dice / min-dice).

    ``pending``: the current turn's roll is ``pcnt`` (already rolled). Returns (final score,
    turns, MAGDAGDON rolls, ruins, powers used, s0..s3). ``rc`` is a 7-slot roll scratch.
    Its three decisions go through the recording hooks (kernels/magdagdon/record_hooks.py),
    which note them only when ``G[0]`` is longer than the engine's own slots.
    """
    ri, rf, pen = G[0], G[1], G[6]
    n = ri[RI_N]
    d = ri[RI_D]
    wcell = W[11]
    wval = W[8]
    turns = 0
    mag = 0
    ruins = 0
    first = pending
    while vm[0] != U0:
        empties = popcount(vm[0])
        need = min(ri[RI_MIN], empties, d)
        if first:
            for v in range(7):
                rc[v] = pcnt[v]
            first = False
        else:
            turns += 1
            for v in range(7):
                rc[v] = 0
            s0, s1, s2, s3 = roll_into(rc, d, s0, s1, s2, s3)
        ok = feasible_noted(vm, rc, need, G, W)
        if not ok:
            mag += 1
        while (not ok) and powers_left > 0 and pen[used + 1] - pen[used] < rf[RF_POWTHR] \
                and may_spend(ri, empties):
            spent, s0, s1, s2, s3 = use_power_noted(vm, rc, need, G, W, s0, s1, s2, s3)
            if not spent:
                break
            powers_left -= 1
            used += 1
            ok = feasible_noted(vm, rc, need, G, W)
        mi = G[16][code_of(rc, d + 1)] if vm[0] == G[2][0] else -1
        if ok and mi >= 0 and G[13][mode, mi] > 0:
            # the empty board: the policy's choice for this roll multiset was tabulated
            for j in range(G[13][mode, mi]):
                place(cells, vm, G[14][mode, mi, j], G[15][mode, mi, j])
        elif ok:
            k, _h = choose_best(cells, vm, rc, need, mode, G, W)
            for j in range(k):
                place(cells, vm, wcell[j], wval[j])
        else:
            i = best_ruin_noted(cells, vm, G, W)
            place(cells, vm, i, 7)
            ruins += 1
    score = heur(cells, vm, n, G[2], G[3], G[4], G[5], rf, W[1], W[15]) - pen[used]
    return score, turns, mag, ruins, used, s0, s1, s2, s3


@njit(cache=True)
def _top_indices(values, count, top):
    """Indices of the (up to) len(top) largest values[0:count], best first, ties by index."""
    m = min(count, top.shape[0])
    for q in range(m):
        bi = -1
        bv = -1e300
        for i in range(count):
            taken = False
            for p in range(q):
                if top[p] == i:
                    taken = True
                    break
            if not taken and values[i] > bv:
                bv = values[i]
                bi = i
        top[q] = bi
    return m


@njit(cache=True)
def play_rollout(cells, vm, powers_left, used, K, G, W, S, rc, cells2, vm2, rc2, top,
                 s0, s1, s2, s3):
    """Whole rest of a game under rollout:K (module doc). Returns like play_base."""
    ri, rf, pen = G[0], G[1], G[6]
    n = ri[RI_N]
    N = n * n
    d = ri[RI_D]
    sc, sv, sd, sh = S
    cap = sc.shape[0]
    key4 = W[18]
    turns = 0
    mag = 0
    ruins = 0
    # run-time (non-literal) arguments, so that callees compile once
    smode = K * 0 + P_STORE
    gmode = K * 0 + P_GREEDY
    pend = K < 0
    while vm[0] != U0:
        empties = popcount(vm[0])
        need = min(ri[RI_MIN], empties, d)
        turns += 1
        for v in range(7):
            rc[v] = 0
        s0, s1, s2, s3 = roll_into(rc, d, s0, s1, s2, s3)
        ok = feasible_fast(vm, rc, need, G, W)
        if not ok:
            mag += 1
        while (not ok) and powers_left > 0 and pen[used + 1] - pen[used] < rf[RF_POWTHR] \
                and may_spend(ri, empties):
            spent, s0, s1, s2, s3 = use_power(vm, rc, need, G, W, s0, s1, s2, s3)
            if not spent:
                break
            powers_left -= 1
            used += 1
            ok = feasible_fast(vm, rc, need, G, W)
        for q in range(4):
            x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
            key4[q] = x
        if ok:
            count, _h = choose(cells, vm, rc, need, smode, G, W, S, cap)
        else:
            count = 0
            for i in range(N):
                if cells[i] == 0:
                    place(cells, vm, i, 7)
                    sh[count] = heur(cells, vm, n, G[2], G[3], G[4], G[5], rf, W[1], W[15])
                    unplace(cells, vm, i, 7)
                    sc[count, 0] = i
                    sv[count, 0] = 7
                    sd[count] = 1
                    count += 1
        m = _top_indices(sh, count, top)
        best = top[0]
        if m > 1:
            bmean = -1e300
            for q in range(m):
                ci = top[q]
                tot = 0.0
                for k in range(K):
                    for i in range(N):
                        cells2[i] = cells[i]
                    for v in range(8):
                        vm2[v] = vm[v]
                    for j in range(sd[ci]):
                        place(cells2, vm2, sc[ci, j], sv[ci, j])
                    t0, t1, t2, t3 = trial_state(key4, k)
                    sco, _a, _b, _c, _u, t0, t1, t2, t3 = play_base(
                        cells2, vm2, powers_left, used, pend, rc2, gmode, G, W, S, rc2,
                        t0, t1, t2, t3)
                    tot += sco
                if tot > bmean:
                    bmean = tot
                    best = ci
        for j in range(sd[best]):
            place(cells, vm, sc[best, j], sv[best, j])
        if not ok:
            ruins += 1
    score = heur(cells, vm, n, G[2], G[3], G[4], G[5], rf, W[1], W[15]) - pen[used]
    return score, turns, mag, ruins, used, s0, s1, s2, s3


@njit(cache=True)
def play_game(key, t, policy, K, init, G, W, S, rc, cells, vm, cells2, vm2, rc2, top):
    """One whole game from board ``init`` on trial ``t``'s stream; the final board is left in
    ``cells``. Returns (score, turns, MAGDAGDON rolls, ruins, powers used)."""
    for i in range(init.shape[0]):
        cells[i] = init[i]
    board_from_cells(cells, vm)
    s0, s1, s2, s3 = trial_state(key, t)
    powers = G[0][RI_POW]
    zero = powers * 0          # run-time (non-literal) arguments: callees compile once
    pend = powers < 0
    if policy == P_ROLLOUT:
        sco, tu, mg, ru, us, s0, s1, s2, s3 = play_rollout(
            cells, vm, powers, zero, K, G, W, S, rc, cells2, vm2, rc2, top, s0, s1, s2, s3)
    else:
        sco, tu, mg, ru, us, s0, s1, s2, s3 = play_base(
            cells, vm, powers, zero, pend, rc, policy, G, W, S, rc, s0, s1, s2, s3)
    return sco, tu, mg, ru, us


@njit(cache=True)
def play_one(key, t, policy, K, init, G):
    """One game (tests, examples): returns (final cells, score, turns, MAGDAGDON rolls, ruins,
    powers used)."""
    N = init.shape[0]
    cap = 4096 if policy == P_ROLLOUT else 0
    W, S = make_work(G[0][RI_D], cap)
    cells = np.zeros(N, dtype=np.int8)
    cells2 = np.zeros(N, dtype=np.int8)
    vm = np.zeros(8, dtype=np.uint64)
    vm2 = np.zeros(8, dtype=np.uint64)
    rc = np.zeros(7, dtype=np.int64)
    rc2 = np.zeros(7, dtype=np.int64)
    top = np.zeros(TOP_M, dtype=np.int64)
    sco, tu, mg, ru, us = play_game(key, t, policy, K, init, G, W, S, rc, cells, vm, cells2, vm2,
                                    rc2, top)
    return cells, sco, tu, mg, ru, us


