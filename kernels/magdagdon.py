"""MAGDAGDON whole-game kernels: policies, rollouts and the Monte Carlo blocks.

The board representation, the exact placement search and the heuristic value H are in
kernels/magdagdon_board.py; the exact odds of a roll and the power dynamic programme in
kernels/magdagdon_exact.py.

Policy choice (``choose``): the same search over all placements of at least the minimum number
of dice, with a Zobrist transposition table so that a set of placements reached in several
orders is expanded and scored once. Each distinct resulting board gets the heuristic value

    H = 2·S + 7·(live empty cells) − ruin·(ruins + dead cells) + Σ_lines L(line)

where S is the sum of numbers (each number counts in its row and column), a *dead* cell is an
empty cell next to numbers that no value fits (it can only become a ruin), and L is the exact
bonus of a complete line, 0 for a line with a ruin or dead cell, and ``pot · b · filled / n`` for
an open line whose numbers still allow a bonus b (the largest still attainable). On a full board
H − penalty is exactly the final score, which is how the kernels score finished games.
Policies: greedy (max H over all placements), max-dice (most dice, then H), min-dice (exactly the
minimum, then H). All accept a MAGDAGDON on the empty cell that maximises H, and spend a power on
a MAGDAGDON only while the next power's cost is below ``rf[POWTHR]``: first a ±1 change that
makes the roll placeable (if any), else the reroll of the sub-multiset that maximises the chance
that the rerolled roll is placeable (exact over the outcomes, one step).
rollout:K chooses among the 8 best placements (or ruin cells) by H by K greedy rollouts each, on
common random numbers drawn from the trial's stream.

Performance notes: the hot helpers take scalars and few arrays and are inlined (every array
argument of a non-inlined call costs reference-count updates); the valid-cell sets are formed
from register-held prefix/suffix unions; the empty board's choice per roll multiset is tabulated
once per run (the "opening book", G[13:17]), the first die on the empty board tries one cell
per symmetry class, and calls pass run-time (non-literal) arguments so each callee compiles once.
"""
import numpy as np
from numba import njit, prange

from kernels.rng import bounded_local, trial_state, xoshiro
from kernels.magdagdon_board import (MAXD, P_GREEDY, P_MAX, P_MIN, P_ROLLOUT, P_STORE, RF_CELL,
                                     RF_POWTHR, RF_RUIN, RI_D, RI_MIN, RI_N, RI_POW, TOP_M,
                                     TT_LIMIT, TT_MASK, U0, U1, _dead_lines, _masks_dead_s,
                                     bit_index, board_from_cells, feasible_fast, heur, make_work,
                                     place, popcount, search, unplace)
from kernels.magdagdon_exact import (code_of, fill_feasible, reroll_value)


@njit(cache=True)
def choose(cells, vm, cnt0, need, mode, G, W, S, cap):
    """Enumerate every distinct placement of at least ``need`` dice (module doc).

    mode P_GREEDY/P_MAX/P_MIN: returns (dice placed, value) of the best one and leaves its order
    in W's wcell/wval. mode P_STORE: stores every distinct placement (cells ``sc``, values ``sv``,
    depth ``sd``, value ``sh``; at most ``cap``) and returns (count, 0). ``cells``/``vm`` are
    restored on return.
    """
    ri, rf, masks, badv, LT, bon, pen, zob, ms_cnt, ms_code, oc_code, oc_prob, oc_start = G[:13]
    (cnt, nbs, valid, curv, cand, pbit, pval, wbit, wval, pcell, pkey, wcell, ttk, tts, gen,
     dig, feas, rr, key4, vmw) = W[:20]
    sc, sv, sd, sh = S
    rcode, ccode, tr, tc, dd = W[20], W[21], W[22], W[23], W[24]
    n = ri[RI_N]
    coded = LT.shape[0] > 1
    ssum = 0
    for k in range(n):
        rcode[k] = 0
        ccode[k] = 0
    for r0 in range(n):
        for c0 in range(n):
            x = np.int64(cells[r0 * n + c0])
            rcode[r0] += x * (1 << (3 * c0))
            ccode[c0] += x * (1 << (3 * r0))
            if x <= 6:
                ssum += x
    for v in range(7):
        cnt[v] = cnt0[v]
    gen[0] += 1
    g = gen[0]
    used = 0
    best_d = 0
    best_h = -1e300
    stored = 0
    un = np.uint64(n)
    full = masks[0]
    nf = masks[1]
    nl = masks[2]
    tol = badv[0]
    cellv = rf[RF_CELL]
    ruinp = rf[RF_RUIN]
    t0, _d = _masks_dead_s(vm, cnt, un, full, nf, nl, tol, valid, 0)
    if t0 == U0:
        return 0, 0.0
    tmask = 4095
    tlimit = 3000
    if vm[0] == masks[0]:
        tmask = TT_MASK
        tlimit = TT_LIMIT
        # empty board: by the board's 8 symmetries the first die need only try one cell per
        # orbit (H and the rest of the game are symmetric)
        for v in range(1, 7):
            valid[v] &= masks[3]
    depth = 0
    curv[0] = 0
    cand[0] = U0
    pkey[0] = U0
    while depth >= 0:
        c = cand[depth]
        o = depth * 7
        while c == U0 and curv[depth] < 6:
            curv[depth] += 1
            c = valid[o + curv[depth]]
        if c == U0:
            depth -= 1
            if depth >= 0:
                v = pval[depth]
                i = pcell[depth]
                unplace(cells, vm, i, v)
                cnt[v] += 1
                r = i // n
                rcode[r] -= v * (1 << (3 * (i - r * n)))
                ccode[i - r * n] -= v * (1 << (3 * r))
                ssum -= v
            continue
        b = c & (~c + U1)
        cand[depth] = c ^ b
        v = curv[depth]
        i = bit_index(b)
        d1 = depth + 1
        key = pkey[depth] ^ zob[i * 8 + v]
        # transposition table: the same set of placements reached in another order
        seen = False
        if used < tlimit:
            h = np.int64(key) & tmask
            while tts[h] == g:
                if ttk[h] == key:
                    seen = True
                    break
                h = (h + 1) & tmask
            if not seen:
                tts[h] = g
                ttk[h] = key
                used += 1
        if seen:
            continue
        place(cells, vm, i, v)
        cnt[v] -= 1
        r = i // n
        rcode[r] += v * (1 << (3 * (i - r * n)))
        ccode[i - r * n] += v * (1 << (3 * r))
        ssum += v
        pbit[depth] = b
        pval[depth] = v
        pcell[depth] = i
        pkey[d1] = key
        descend = not (mode == P_MIN and d1 >= need)
        tot, dead = _masks_dead_s(vm, cnt, un, full, nf, nl, tol, valid, d1 * 7)
        if d1 >= need:
            if coded:
                lines = 0.0
                if dead == U0:
                    for k in range(n):
                        lines += LT[rcode[k]] + LT[ccode[k]]
                else:
                    lines = _dead_lines(dead, n, rcode, ccode, tr, tc, LT)
                hv = (2.0 * ssum + cellv * popcount(vm[0] & ~dead)
                      - ruinp * (popcount(vm[7]) + popcount(dead)) + lines)
            else:
                hv = heur(cells, vm, n, masks, badv, LT, bon, rf, nbs, dig)
            if mode == P_STORE:
                if stored < cap:
                    for k in range(d1):
                        sc[stored, k] = pcell[k]
                        sv[stored, k] = pval[k]
                    sd[stored] = d1
                    sh[stored] = hv
                    stored += 1
            elif mode != P_MIN or d1 == need:
                better = False
                if mode == P_MAX:
                    better = d1 > best_d or (d1 == best_d and hv > best_h)
                else:
                    better = hv > best_h
                if better:
                    best_d = d1
                    best_h = hv
                    for k in range(d1):
                        wcell[k] = pcell[k]
                        wval[k] = pval[k]
        if descend and tot != U0:
            depth = d1
            curv[d1] = 0
            cand[d1] = U0
        else:
            unplace(cells, vm, i, v)
            cnt[v] += 1
            rcode[r] -= v * (1 << (3 * (i - r * n)))
            ccode[i - r * n] -= v * (1 << (3 * r))
            ssum -= v
    if mode == P_STORE:
        return stored, 0.0
    return best_d, best_h


@njit(cache=True)
def roll_into(cnt, j, s0, s1, s2, s3):
    """Add ``j`` fair d6 to ``cnt`` (two dice per 64-bit draw)."""
    x = U0
    for k in range(j):
        if k % 2 == 0:
            x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
            h = x >> np.uint64(32)
        else:
            h = x & np.uint64(0xFFFFFFFF)
        f, s0, s1, s2, s3 = bounded_local(h, 6, s0, s1, s2, s3)
        cnt[f + 1] += 1
    return s0, s1, s2, s3


@njit(cache=True)
def use_power(vm, cnt, need, G, W, s0, s1, s2, s3):
    """The policies' power on a MAGDAGDON roll: a fixing ±1 if any, else the best reroll."""
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
                return s0, s1, s2, s3
            cnt[w] -= 1
            cnt[v] += 1
    fill_feasible(vm, need, G, W)
    rr = W[17]
    reroll_value(cnt, W[16], G, rr)
    j = 0
    for u in range(1, 7):
        cnt[u] -= rr[u]
        j += rr[u]
    return roll_into(cnt, j, s0, s1, s2, s3)


@njit(cache=True)
def best_ruin(cells, vm, G, W):
    """Empty cell whose ruin gives the highest H."""
    ri, rf, masks, badv, LT, bon = G[0], G[1], G[2], G[3], G[4], G[5]
    nbs = W[1]
    dig = W[15]
    n = ri[RI_N]
    best = -1
    bh = -1e300
    for i in range(n * n):
        if cells[i] != 0:
            continue
        place(cells, vm, i, 7)
        h = heur(cells, vm, n, masks, badv, LT, bon, rf, nbs, dig)
        unplace(cells, vm, i, 7)
        if h > bh:
            bh = h
            best = i
    return best


@njit(cache=True)
def play_base(cells, vm, powers_left, used, pending, pcnt, mode, G, W, S, rc, s0, s1, s2, s3):
    """Play to the end of the game with a base policy (greedy / max-dice / min-dice).

    ``pending``: the current turn's roll is ``pcnt`` (already rolled). Returns (final score,
    turns, MAGDAGDON rolls, ruins, powers used, s0..s3). ``rc`` is a 7-slot roll scratch.
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
        ok = feasible_fast(vm, rc, need, G, W)
        if not ok:
            mag += 1
        while (not ok) and powers_left > 0 and pen[used + 1] - pen[used] < rf[RF_POWTHR]:
            s0, s1, s2, s3 = use_power(vm, rc, need, G, W, s0, s1, s2, s3)
            powers_left -= 1
            used += 1
            ok = feasible_fast(vm, rc, need, G, W)
        mi = G[16][code_of(rc, d + 1)] if vm[0] == G[2][0] else -1
        if ok and mi >= 0 and G[13][mode, mi] > 0:
            # the empty board: the policy's choice for this roll multiset was tabulated
            for j in range(G[13][mode, mi]):
                place(cells, vm, G[14][mode, mi, j], G[15][mode, mi, j])
        elif ok:
            k, _h = choose(cells, vm, rc, need, mode, G, W, S, mode * 0)
            for j in range(k):
                place(cells, vm, wcell[j], wval[j])
        else:
            i = best_ruin(cells, vm, G, W)
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
        while (not ok) and powers_left > 0 and pen[used + 1] - pen[used] < rf[RF_POWTHR]:
            s0, s1, s2, s3 = use_power(vm, rc, need, G, W, s0, s1, s2, s3)
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
def games_blocks(keys, counts, pa, ka, pb, kb, two, init, G, lo, width):
    """Per-block sums of whole games from board ``init`` under policy A (and, when ``two``,
    policy B on the same trials: common random numbers).

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
                sco, tu, mg, ru, us = play_game(keys[b], t, pol, kk, init, G, W, S, rc, cells,
                                                vm, cells2, vm2, rc2, top)
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


@njit(cache=True, parallel=True)
def best_blocks(keys, counts, cells0, powers_left, used0, roll, acts, policy, G, out):
    """Scores of every action on the same trials (common random numbers).

    ``acts[a]``: kind (0 placement: k cells/values in columns 2.. and 2+MAXD..; 1 ruin on cell
    acts[a,1]; 2 change one die acts[a,1] → acts[a,2] (a power); 3 reroll the sub-multiset
    acts[a,2+v] (a power)). After the action the game is played out with ``policy`` from trial
    t's stream; ``out[first trial of block + t, a]`` receives the final score.
    """
    m = keys.shape[0]
    N = cells0.shape[0]
    C = acts.shape[0]
    offs = np.zeros(m + 1, dtype=np.int64)
    for b in range(m):
        offs[b + 1] = offs[b] + counts[b]
    for b in prange(m):
        W, S = make_work(G[0][RI_D], 0)
        cells = np.zeros(N, dtype=np.int8)
        vm = np.zeros(8, dtype=np.uint64)
        rc = np.zeros(7, dtype=np.int64)
        pc = np.zeros(7, dtype=np.int64)
        for t in range(counts[b]):
            for a in range(C):
                for i in range(N):
                    cells[i] = cells0[i]
                board_from_cells(cells, vm)
                s0, s1, s2, s3 = trial_state(keys[b], t)
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
                out[offs[b] + t, a] = sco
    return out


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


@njit(cache=True)
def build_book(G):
    """Fill G's opening book: each base policy's placement on the empty board for every roll
    multiset (G[13] dice placed, G[14] cells, G[15] values; G[16] maps a roll code to its
    multiset index). Identical to calling ``choose`` on the empty board, done once per job."""
    ri = G[0]
    n = ri[RI_N]
    N = n * n
    d = ri[RI_D]
    need = min(ri[RI_MIN], N, d)
    W, S = make_work(d, 0)
    cells = np.zeros(N, dtype=np.int8)
    vm = np.zeros(8, dtype=np.uint64)
    ms_cnt, ms_code = G[8], G[9]
    for m in range(ms_cnt.shape[0]):
        G[16][ms_code[m]] = m
        for mode in range(3):
            board_from_cells(cells, vm)
            if not feasible_fast(vm, ms_cnt[m], need, G, W):
                G[13][mode, m] = 0
                continue
            k, _h = choose(cells, vm, ms_cnt[m], need, mode, G, W, S, mode * 0)
            G[13][mode, m] = k
            for j in range(k):
                G[14][mode, m, j] = W[11][j]
                G[15][mode, m, j] = W[8][j]
