"""MAGDAGDON policy kernels: which placement a policy makes, how it spends powers, where it
puts a ruin, and the opening book.

The board representation, the exact placement search and the heuristic value H are in
kernels/magdagdon/board.py; the exact odds of a roll and the power dynamic programme in
kernels/magdagdon/exact.py; whole games in kernels/magdagdon/game.py.

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
minimum, then H). All accept a MAGDAGDON on the empty cell that maximises H (``best_ruin``), and
spend a power on a MAGDAGDON only while the next power's cost is below ``rf[POWTHR]`` and the
empty cells are within the knobs ``ri[RI_PMINE]``..``ri[RI_PMAXE]`` (``game.may_spend``); by
default (``ri[RI_PMODE]`` = 0, ``use_power``) first a ±1 change that makes the roll placeable
(if any), else the reroll of the sub-multiset that maximises the chance that the rerolled roll
is placeable (exact over the outcomes, one step); the knob can restrict it to either power.

Whole games take the base policies' placement from ``choose_best`` (kernels/magdagdon/best.py),
which equals ``choose`` in those modes without the table; ``choose`` stays for P_STORE (rollouts,
``best``) and as the reference. The engine's hot functions run without reference counting
(``_nrt=False``: they allocate nothing; each array passed on would cost atomic count updates).

Performance notes: the hot helpers take scalars and few arrays and are inlined (every array
argument of a non-inlined call costs reference-count updates); the valid-cell sets are formed
from register-held prefix/suffix unions; the empty board's choice per roll multiset is tabulated
once per run (the "opening book", G[13:17], ``build_book``), the first die on the empty board
tries one cell per symmetry class, and calls pass run-time (non-literal) arguments so each callee
compiles once.
"""
import numpy as np
from numba import njit

from kernels.rng import bounded_local, xoshiro
from kernels.magdagdon.board import (P_MAX, P_MIN, P_STORE, PM_FIX_ONLY, PM_REROLL_ONLY,
                                     RF_CELL, RF_RUIN, RI_D, RI_MIN, RI_N, RI_PMODE, TT_LIMIT,
                                     TT_MASK, U0, U1, _masks_dead_s, bit_index, board_from_cells,
                                     feasible_fast, heur, make_work, place, placed_value,
                                     popcount, unplace)
from kernels.magdagdon.exact import fill_feasible, reroll_value
from kernels.widen import plain_types


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
                hv = placed_value(vm[0], popcount(vm[7]), dead, n, rcode, ccode, tr, tc, LT, ssum,
                                  cellv, ruinp)
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


@plain_types
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


@njit(cache=True, _nrt=False)
def use_power(vm, cnt, need, G, W, s0, s1, s2, s3):
    """The policies' power on a MAGDAGDON roll, by the knob ``G[0][RI_PMODE]``: a fixing ±1 if
    any, else the best reroll (PM_FIX_OR_REROLL, the default); a fixing ±1 only (PM_FIX_ONLY:
    nothing is spent when none fixes the roll); the best reroll only (PM_REROLL_ONLY). Returns
    (spent, s0..s3)."""
    pmode = G[0][RI_PMODE]
    if pmode != PM_REROLL_ONLY:
        spent = _fix_one(vm, cnt, need, G, W)
        if spent or pmode == PM_FIX_ONLY:
            return spent, s0, s1, s2, s3
    fill_feasible(vm, need, G, W)
    rr = W[17]
    reroll_value(cnt, W[16], G, rr)
    j = 0
    for u in range(1, 7):
        cnt[u] -= rr[u]
        j += rr[u]
    s0, s1, s2, s3 = roll_into(cnt, j, s0, s1, s2, s3)
    return True, s0, s1, s2, s3


@njit(cache=True, _nrt=False)
def _fix_one(vm, cnt, need, G, W):
    """Apply to ``cnt`` the first ±1 change of one die (in value order, −1 before +1) that makes
    the roll placeable; returns whether there was one."""
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
                return True
            cnt[w] -= 1
            cnt[v] += 1
    return False


@njit(cache=True, _nrt=False)
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
