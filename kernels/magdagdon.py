"""MAGDAGDON: placement search, heuristic board value and whole-game kernels.

Model
-----
An n×n board (n ≤ 8) is held twice: ``cells`` (int8, row-major, 0 empty, 1–6 a number, 7 a ruin)
and ``vm`` (uint64 bitboards, ``vm[0]`` empty cells, ``vm[v]`` cells holding v, ``vm[7]`` ruins;
bit ``r*n + c``). The neighbours of a cell set ``m`` are
``((m & notlast) << 1) | ((m & notfirst) >> 1) | (m << n) | (m >> n)`` masked to the board. A die
of value v may go on an empty cell that is next to some number and next to no number u with
``|u - v| > tolerance`` (``badv[0]`` holds the tolerance; the cells next to such numbers
are an OR of prefix/suffix unions of the per-value neighbour sets); when the board holds no number,
on any empty cell. A roll is a multiset ``cnt[1..6]``.

Feasibility (``search``): depth-first search over placement orders with an explicit stack.
Each level enumerates (distinct die value, valid cell) pairs from the bitboards, places the die
(which changes the valid cells of later levels, so order matters) and recurses; the search stops
as soon as ``target`` dice are placed (MAGDAGDON check: target = the turn's minimum; most dice
placeable: target = min(dice, empty cells)). Equal dice are one branch (multiset).

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

EMPTY = 0
RUIN = 7
MAXD = 8
TT_SIZE = 32768
TT_MASK = TT_SIZE - 1
TT_LIMIT = 24000
TOP_M = 8

# ri (int64 rules array) indices
RI_N, RI_D, RI_MIN, RI_POW, RI_CAP = 0, 1, 2, 3, 4
# rf (float64) indices
RF_RUIN, RF_CELL, RF_POWTHR, RF_POT = 0, 1, 2, 3
# policies
P_GREEDY, P_MAX, P_MIN, P_STORE, P_ROLLOUT = 0, 1, 2, 3, 4

U0 = np.uint64(0)
U1 = np.uint64(1)
_DB = np.uint64(0x03F79D71B4CB0A89)
_DB_TABLE = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DB_TABLE[((((1 << _i) * 0x03F79D71B4CB0A89) & 0xFFFFFFFFFFFFFFFF) >> 58)] = _i
_K1 = np.uint64(0x5555555555555555)
_K2 = np.uint64(0x3333333333333333)
_K4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_KH = np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of a uint64 (SWAR)."""
    x = x - ((x >> U1) & _K1)
    x = (x & _K2) + ((x >> np.uint64(2)) & _K2)
    x = (x + (x >> np.uint64(4))) & _K4
    return np.int64((x * _KH) >> np.uint64(56))


@njit(cache=True, inline="always")
def bit_index(b):
    """Index of the single set bit of ``b`` (de Bruijn multiplication)."""
    return _DB_TABLE[np.int64((b * _DB) >> np.uint64(58))]


@njit(cache=True, inline="always")
def _nb(a, un, full, nf, nl):
    return (((a & nl) << U1) | ((a & nf) >> U1) | (a << un) | (a >> un)) & full


@njit(cache=True, inline="always")
def _bad(v, tol, p1, p2, p3, p4, p5, p6, s2, s3, s4, s5, s6):
    """Cells next to a number u with |u − v| > tol: N(1..v−tol−1) ∪ N(v+tol+1..6)."""
    lo = v - tol - 1
    hi = v + tol + 1
    x = U0
    if lo >= 6:
        x = p6
    elif lo == 5:
        x = p5
    elif lo == 4:
        x = p4
    elif lo == 3:
        x = p3
    elif lo == 2:
        x = p2
    elif lo == 1:
        x = p1
    if hi <= 1:
        x |= p6
    elif hi == 2:
        x |= s2
    elif hi == 3:
        x |= s3
    elif hi == 4:
        x |= s4
    elif hi == 5:
        x |= s5
    elif hi == 6:
        x |= s6
    return x


@njit(cache=True, inline="always")
def dead_mask(vm, n, masks, badv, nbs):
    """Empty cells next to numbers that no value 1..6 fits (they can only become ruins)."""
    if (vm[1] | vm[2] | vm[3] | vm[4] | vm[5] | vm[6]) == U0:
        return U0
    p1, p2, p3, p4, p5, p6, s2, s3, s4, s5, s6 = _unions_s(vm, np.uint64(n), masks[0], masks[1],
                                                          masks[2])
    tol = badv[0]
    d = vm[0] & p6
    for v in range(1, 7):
        d &= _bad(v, tol, p1, p2, p3, p4, p5, p6, s2, s3, s4, s5, s6)
    return d


@njit(cache=True, inline="always")
def _unions_s(vm, un, full, nf, nl):
    """Neighbour sets of the cells holding each value, as prefix unions p_k = N(1..k) and suffix
    unions s_k = N(k..6), kept in registers (returned as p1..p6, s2..s6)."""
    b1 = _nb(vm[1], un, full, nf, nl)
    b2 = _nb(vm[2], un, full, nf, nl)
    b3 = _nb(vm[3], un, full, nf, nl)
    b4 = _nb(vm[4], un, full, nf, nl)
    b5 = _nb(vm[5], un, full, nf, nl)
    b6 = _nb(vm[6], un, full, nf, nl)
    p2 = b1 | b2
    p3 = p2 | b3
    p4 = p3 | b4
    p5 = p4 | b5
    p6 = p5 | b6
    s5 = b6 | b5
    s4 = s5 | b4
    s3 = s4 | b3
    s2 = s3 | b2
    return b1, p2, p3, p4, p5, p6, s2, s3, s4, s5, b6


@njit(cache=True, inline="always")
def _masks_dead_s(vm, cnt, un, full, nf, nl, tol, out, o):
    """valid masks into out[o+1..o+6]; returns (OR of them, dead cells). Few array arguments."""
    emp = vm[0]
    tot = U0
    if (vm[1] | vm[2] | vm[3] | vm[4] | vm[5] | vm[6]) == U0:
        for v in range(1, 7):
            x = emp if cnt[v] > 0 else U0
            out[o + v] = x
            tot |= x
        return tot, U0
    p1, p2, p3, p4, p5, p6, s2, s3, s4, s5, s6 = _unions_s(vm, un, full, nf, nl)
    base = emp & p6
    dead = base
    for v in range(1, 7):
        bad = _bad(v, tol, p1, p2, p3, p4, p5, p6, s2, s3, s4, s5, s6)
        dead &= bad
        x = U0
        if cnt[v] > 0:
            x = base & ~bad
        out[o + v] = x
        tot |= x
    return tot, dead


@njit(cache=True, inline="always")
def search(vm0, cnt0, target, n, masks, badv, vm, cnt, nbs, valid, curv, cand, pbit, pval,
           wbit, wval):
    """Most dice (capped at ``target``) of roll ``cnt0`` placeable in some order on ``vm0``.

    Depth-first over (distinct value, valid cell) pairs, stopping at ``target``. The order found
    for the returned depth is left in ``wbit`` (cell bits) and ``wval`` (values). ``vm0``/``cnt0``
    are not modified (the search works on the copies ``vm``/``cnt``).
    """
    for i in range(8):
        vm[i] = vm0[i]
    for v in range(7):
        cnt[v] = cnt0[v]
    best = 0
    if target <= 0:
        return 0
    un = np.uint64(n)
    full = masks[0]
    nf = masks[1]
    nl = masks[2]
    tol = badv[0]
    t0, _d = _masks_dead_s(vm, cnt, un, full, nf, nl, tol, valid, 0)
    if t0 == U0:
        return 0
    depth = 0
    curv[0] = 0
    cand[0] = U0
    while depth >= 0:
        c = cand[depth]
        o = depth * 7
        while c == U0 and curv[depth] < 6:
            curv[depth] += 1
            c = valid[o + curv[depth]]
        if c == U0:
            depth -= 1
            if depth >= 0:
                b = pbit[depth]
                v = pval[depth]
                vm[v] ^= b
                vm[0] |= b
                cnt[v] += 1
            continue
        b = c & (~c + U1)
        cand[depth] = c ^ b
        v = curv[depth]
        vm[v] |= b
        vm[0] ^= b
        cnt[v] -= 1
        pbit[depth] = b
        pval[depth] = v
        d1 = depth + 1
        if d1 > best:
            best = d1
            for i in range(d1):
                wbit[i] = pbit[i]
                wval[i] = pval[i]
            if best >= target:
                return best
        t1, _d = _masks_dead_s(vm, cnt, un, full, nf, nl, tol, valid, d1 * 7)
        if t1 != U0:
            depth = d1
            curv[d1] = 0
            cand[d1] = U0
        else:
            vm[v] ^= b
            vm[0] |= b
            cnt[v] += 1
    return best


@njit(cache=True)
def line_value(dig, n, bon):
    """Bonus of a line of digits (0 empty, 1-6, 7 blocked): exact when complete, else
    ``pot · (largest attainable bonus) · filled / n``; 0 when blocked.

    bon = (straight, n-of-a-kind, two pairs, n-of-a-kind counts as two pairs (0/1), pot).
    """
    filled = 0
    for i in range(n):
        d = dig[i]
        if d == 7:
            return 0.0
        if d > 0:
            filled += 1
    best = 0.0
    if n <= 6:
        for s in range(1, 8 - n):
            ok_a = True
            ok_d = True
            for i in range(n):
                d = dig[i]
                if d > 0:
                    if d != s + i:
                        ok_a = False
                    if d != s + n - 1 - i:
                        ok_d = False
            if ok_a or ok_d:
                if bon[0] > best:
                    best = bon[0]
                break
    first = 0
    same = True
    for i in range(n):
        d = dig[i]
        if d > 0:
            if first == 0:
                first = d
            elif d != first:
                same = False
    if same and bon[1] > best:
        best = bon[1]
    if n % 2 == 0:
        a = 0
        b = 0
        ca = 0
        cb = 0
        ok = True
        for i in range(n):
            d = dig[i]
            if d == 0:
                continue
            if a == 0 or d == a:
                a = d
                ca += 1
            elif b == 0 or d == b:
                b = d
                cb += 1
            else:
                ok = False
        half = n // 2
        if ok and ca <= half and cb <= half:
            if filled < n or (a != b and b != 0):
                if bon[2] > best:
                    best = bon[2]
        elif ok and same and bon[3] > 0.5 and bon[2] > best:
            best = bon[2]
    if filled == n:
        return best
    return bon[4] * best * filled / n


@njit(cache=True)
def line_table(n, bon):
    """L(line) for every line code Σ digit_i·8^i (n ≤ 5)."""
    size = 8 ** n
    out = np.zeros(size, dtype=np.float64)
    dig = np.zeros(n, dtype=np.int64)
    for code in range(size):
        x = code
        for i in range(n):
            dig[i] = x % 8
            x //= 8
        out[code] = line_value(dig, n, bon)
    return out


@njit(cache=True)
def heur(cells, vm, n, masks, badv, LT, bon, rf, nbs, dig):
    """Heuristic value H of a board (module doc); the exact score (before power penalties) on a
    full board."""
    dead = dead_mask(vm, n, masks, badv, nbs)
    s = 0
    lines = 0.0
    table = LT.shape[0] > 1
    for r in range(n):
        code = 0
        mul = 1
        for c in range(n):
            i = r * n + c
            x = np.int64(cells[i])
            if x >= 1 and x <= 6:
                s += x
            elif x == 0 and ((dead >> np.uint64(i)) & U1) != U0:
                x = 7
            if table:
                code += x * mul
                mul *= 8
            else:
                dig[c] = x
        lines += LT[code] if table else line_value(dig, n, bon)
    for c in range(n):
        code = 0
        mul = 1
        for r in range(n):
            i = r * n + c
            x = np.int64(cells[i])
            if x == 0 and ((dead >> np.uint64(i)) & U1) != U0:
                x = 7
            if table:
                code += x * mul
                mul *= 8
            else:
                dig[r] = x
        lines += LT[code] if table else line_value(dig, n, bon)
    live = popcount(vm[0] & ~dead)
    nd = popcount(dead)
    nr = popcount(vm[7])
    return 2.0 * s + rf[RF_CELL] * live - rf[RF_RUIN] * (nr + nd) + lines


@njit(cache=True, inline="always")
def place(cells, vm, i, v):
    b = U1 << np.uint64(i)
    cells[i] = v
    vm[v] |= b
    vm[0] &= ~b


@njit(cache=True, inline="always")
def unplace(cells, vm, i, v):
    b = U1 << np.uint64(i)
    cells[i] = 0
    vm[v] &= ~b
    vm[0] |= b


@njit(cache=True)
def _dead_lines(dead, n, rcode, ccode, tr, tc, LT):
    """Σ L over lines with the dead cells marked blocked (rare path)."""
    for k in range(n):
        tr[k] = rcode[k]
        tc[k] = ccode[k]
    d = dead
    while d != U0:
        b = d & (~d + U1)
        d ^= b
        i = bit_index(b)
        r = i // n
        c = i - r * n
        tr[r] += 7 << (3 * c)
        tc[c] += 7 << (3 * r)
    lines = 0.0
    for k in range(n):
        lines += LT[tr[k]] + LT[tc[k]]
    return lines


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
def feasible_fast(vm, cnt, need, G, W):
    """True when ``need`` dice of roll ``cnt`` can be placed (uses W's scratch)."""
    ri = G[0]
    masks = G[2]
    badv = G[3]
    (cw, nbs, valid, curv, cand, pbit, pval, wbit, wval, pcell, pkey, wcell, ttk, tts, gen,
     dig, feas, rr, key4, vmw) = W[:20]
    return search(vm, cnt, need, ri[RI_N], masks, badv, vmw, cw, nbs, valid, curv, cand, pbit,
                  pval, wbit, wval) >= need


@njit(cache=True)
def code_of(cnt, base):
    c = 0
    m = 1
    for v in range(1, 7):
        c += cnt[v] * m
        m *= base
    return c


@njit(cache=True)
def fill_feasible(vm, need, G, W):
    """feas[code] for every roll multiset of the rules' dice count on this board."""
    ms_cnt = G[8]
    ms_code = G[9]
    n = G[0][RI_N]
    masks = G[2]
    badv = G[3]
    (cw, nbs, valid, curv, cand, pbit, pval, wbit, wval, pcell, pkey, wcell, ttk, tts, gen,
     dig, feas, rr, key4, vmw) = W[:20]
    for m in range(ms_cnt.shape[0]):
        got = search(vm, ms_cnt[m], need, n, masks, badv, vmw, cw, nbs, valid, curv, cand, pbit,
                     pval, wbit, wval)
        feas[ms_code[m]] = 1 if got >= need else 0


@njit(cache=True)
def reroll_value(cnt, feas, G, rr):
    """Best sub-multiset to reroll once: returns its escape probability; leaves it in rr[1..6]."""
    ri = G[0]
    oc_code, oc_prob, oc_start = G[10], G[11], G[12]
    base = ri[RI_D] + 1
    best = -1.0
    # odometer over r[v] in 0..cnt[v]; rr[0..6] current, rr[16..22] best
    for v in range(7):
        rr[v] = 0
        rr[16 + v] = 0
    while True:
        v = 1
        while v <= 6:
            if rr[v] < cnt[v]:
                rr[v] += 1
                break
            rr[v] = 0
            v += 1
        if v > 6:
            break
        j = 0
        kept = 0
        m = 1
        for u in range(1, 7):
            j += rr[u]
            kept += (cnt[u] - rr[u]) * m
            m *= base
        p = 0.0
        for k in range(oc_start[j], oc_start[j + 1]):
            if feas[kept + oc_code[k]]:
                p += oc_prob[k]
        if p > best + 1e-12:
            best = p
            for u in range(7):
                rr[16 + u] = rr[u]
    for u in range(7):
        rr[u] = rr[16 + u]
    return best


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
def make_work(d, cap):
    """Scratch for one block: the W tuple (search/choice work arrays) and the S store buffer."""
    D1 = MAXD + 1
    base = d + 1
    W = (np.zeros(7, dtype=np.int64), np.zeros(24, dtype=np.uint64),
         np.zeros(D1 * 7, dtype=np.uint64), np.zeros(D1, dtype=np.int64),
         np.zeros(D1, dtype=np.uint64), np.zeros(D1, dtype=np.uint64),
         np.zeros(D1, dtype=np.int64), np.zeros(D1, dtype=np.uint64),
         np.zeros(D1, dtype=np.int64), np.zeros(D1, dtype=np.int64),
         np.zeros(D1 + 1, dtype=np.uint64), np.zeros(D1, dtype=np.int64),
         np.zeros(TT_SIZE, dtype=np.uint64), np.zeros(TT_SIZE, dtype=np.int64),
         np.zeros(1, dtype=np.int64), np.zeros(8, dtype=np.int64),
         np.zeros(base ** 6, dtype=np.int8), np.zeros(32, dtype=np.int64),
         np.zeros(4, dtype=np.uint64), np.zeros(8, dtype=np.uint64),
         np.zeros(8, dtype=np.int64), np.zeros(8, dtype=np.int64), np.zeros(8, dtype=np.int64),
         np.zeros(8, dtype=np.int64), np.zeros(1, dtype=np.uint64))
    S = (np.zeros((max(cap, 1), MAXD), dtype=np.int64), np.zeros((max(cap, 1), MAXD), dtype=np.int64),
         np.zeros(max(cap, 1), dtype=np.int64), np.zeros(max(cap, 1), dtype=np.float64))
    return W, S


@njit(cache=True)
def board_from_cells(cells, vm):
    for v in range(8):
        vm[v] = U0
    for i in range(cells.shape[0]):
        vm[cells[i]] |= U1 << np.uint64(i)


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
def feasible_table(cells, need, G):
    """feas[m] (0/1) for each roll multiset m of G's list on board ``cells``."""
    W, S = make_work(G[0][RI_D], 0)
    vm = np.zeros(8, dtype=np.uint64)
    board_from_cells(cells, vm)
    ms_cnt = G[8]
    out = np.zeros(ms_cnt.shape[0], dtype=np.int8)
    for m in range(ms_cnt.shape[0]):
        out[m] = 1 if feasible_fast(vm, ms_cnt[m], need, G, W) else 0
    return out


@njit(cache=True)
def escape_dp(feas_m, K, G):
    """V[k, m]: probability of escaping a MAGDAGDON from roll multiset m with k powers left,
    using them to maximise that probability: V[0, m] = feasible(m); for k ≥ 1, V[k, m] = 1 if
    feasible, else the best of: not using a power (0), one ±1 change (→ V[k−1, m']), or one
    reroll of a sub-multiset r (Σ_outcomes P(o)·V[k−1, kept + o])."""
    ri = G[0]
    ms_cnt, ms_code, oc_code, oc_prob, oc_start = G[8], G[9], G[10], G[11], G[12]
    d = ri[RI_D]
    base = d + 1
    M = ms_cnt.shape[0]
    V = np.zeros((K + 1, M), dtype=np.float64)
    prev = np.zeros(base ** 6, dtype=np.float64)
    cnt = np.zeros(7, dtype=np.int64)
    r = np.zeros(7, dtype=np.int64)
    for mm in range(M):
        V[0, mm] = feas_m[mm]
    for k in range(1, K + 1):
        for mm in range(M):
            prev[ms_code[mm]] = V[k - 1, mm]
        for mm in range(M):
            if feas_m[mm]:
                V[k, mm] = 1.0
                continue
            best = 0.0
            for v in range(7):
                cnt[v] = ms_cnt[mm, v]
            code = ms_code[mm]
            mul = 1
            for v in range(1, 7):
                if cnt[v] > 0:
                    if v > 1:
                        x = prev[code - mul + mul // base]
                        if x > best:
                            best = x
                    if v < 6:
                        x = prev[code - mul + mul * base]
                        if x > best:
                            best = x
                mul *= base
            for v in range(7):
                r[v] = 0
            while True:
                v = 1
                while v <= 6:
                    if r[v] < cnt[v]:
                        r[v] += 1
                        break
                    r[v] = 0
                    v += 1
                if v > 6:
                    break
                j = 0
                kept = 0
                mul = 1
                for u in range(1, 7):
                    j += r[u]
                    kept += (cnt[u] - r[u]) * mul
                    mul *= base
                p = 0.0
                for q in range(oc_start[j], oc_start[j + 1]):
                    p += oc_prob[q] * prev[kept + oc_code[q]]
                if p > best:
                    best = p
            V[k, mm] = best
    return V


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
