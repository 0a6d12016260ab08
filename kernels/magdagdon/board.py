"""MAGDAGDON board kernels: bitboards, the exact placement search and the heuristic value.

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

The placement rule as cell sets (``root_sets``/``grow_sets``): A (cells next to a number) and
F_u (cells next to a number u does not fit); a placed die ORs its neighbours into A and into the
F_u of the values it does not fit, so a search updates them per die (kernels/magdagdon/best.py).

The heuristic board value ``heur`` (used by every policy, see kernels/magdagdon/policy.py) and the
exact line scores ``line_value``/``line_table`` live here too, with the small helpers that
place and take back a die on both representations.
"""
import numpy as np
from numba import njit

from kernels.widen import plain_types

EMPTY = 0                  # cell codes: 0 empty, 1-6 a number, 7 a ruin
RUIN = 7
MAXD = 8                   # most dice per roll the work arrays hold
TT_SIZE = 32768            # transposition table of ``choose`` (a power of two)
TT_MASK = TT_SIZE - 1
TT_LIMIT = 24000           # entries used before the table stops recording
TOP_M = 8                  # candidates rollout:K plays out

# indices into G[0] (rule integers) and G[1] (rule floats)
RI_N, RI_D, RI_MIN, RI_POW, RI_CAP = 0, 1, 2, 3, 4
# power knobs of the policies (kernels/magdagdon/policy.py ``use_power``, game.py ``may_spend``):
# which power (PM_*), and spend only with at least / at most this many empty cells (0: no bound);
# with RF_POWTHR (spend only while the next use's penalty is below it) they make the power rule.
# All 0 is the bots' habit.
RI_PMODE, RI_PMINE, RI_PMAXE = 5, 6, 7
RI_SIZE = 8  # the engine's own slots of G[0]; a longer array is a recording run (record.py)
PM_FIX_OR_REROLL, PM_FIX_ONLY, PM_REROLL_ONLY = 0, 1, 2
RF_RUIN, RF_CELL, RF_POWTHR, RF_POT = 0, 1, 2, 3

# policy codes (P_STORE: ``choose`` stores every distinct placement)
P_GREEDY, P_MAX, P_MIN, P_STORE, P_ROLLOUT = 0, 1, 2, 3, 4

U0 = np.uint64(0)
U1 = np.uint64(1)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)

# de Bruijn table for the index of a single set bit
_DB = np.uint64(0x03F79D71B4CB0A89)
_DB_TABLE = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DB_TABLE[((((1 << _i) * 0x03F79D71B4CB0A89) & 0xFFFFFFFFFFFFFFFF) >> 58)] = _i

# SWAR popcount masks
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
def root_sets(vm, un, full, nf, nl, tol, fs, o):
    """The placement rule's cell sets of board ``vm`` into fs[o..o+6]: fs[o] the cells next to
    some number (A), fs[o+u] those next to a number that u does not fit (F_u, by the
    tolerance). Returns whether the board holds a number (without one, any empty cell is
    valid). Then u may go on ``vm[0] & A & ~F_u`` and the dead cells are
    ``vm[0] & A & F_1 & … & F_6`` — the sets of ``_masks_dead_s``, kept so that a placed die
    updates them (``grow_sets``) instead of recomputing six neighbour sets."""
    if (vm[1] | vm[2] | vm[3] | vm[4] | vm[5] | vm[6]) == U0:
        for u in range(7):
            fs[o + u] = U0
        return False
    p1, p2, p3, p4, p5, p6, s2, s3, s4, s5, s6 = _unions_s(vm, un, full, nf, nl)
    fs[o] = p6
    for u in range(1, 7):
        fs[o + u] = _bad(u, tol, p1, p2, p3, p4, p5, p6, s2, s3, s4, s5, s6)
    return True


@njit(cache=True, inline="always")
def grow_sets(fs, o, o1, b, v, badv, un, full, nf, nl):
    """fs[o1..o1+6]: the sets of fs[o..o+6] (``root_sets``) after a die v on cell bit ``b``:
    its neighbours join A and F_u for each u that v does not fit (|u − v| > tolerance)."""
    m = _nb(b, un, full, nf, nl)
    fs[o1] = fs[o] | m
    bv = badv[v]
    for u in range(1, 7):
        fs[o1 + u] = fs[o + u] | (m & (U0 - ((np.uint64(bv) >> np.uint64(u)) & U1)))


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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def placed_value(emp, ruins, dead, n, rcode, ccode, tr, tc, LT, ssum, cellv, ruinp):
    """H of a board given by its empty cells ``emp``, ruin count, dead cells, row and column
    codes (Σ digit·8^i, dead cells not marked) and number sum ``ssum`` (line table LT; the same
    value as ``heur``)."""
    lines = 0.0
    if dead == U0:
        for k in range(n):
            lines += LT[rcode[k]] + LT[ccode[k]]
    else:
        lines = _dead_lines(dead, n, rcode, ccode, tr, tc, LT)
    return (2.0 * ssum + cellv * popcount(emp & ~dead)
            - ruinp * (ruins + popcount(dead)) + lines)


@njit(cache=True, _nrt=False)
def feasible_fast(vm, cnt, need, G, W):
    """True when ``need`` dice of roll ``cnt`` can be placed (uses W's scratch)."""
    ri = G[0]
    masks = G[2]
    badv = G[3]
    (cw, nbs, valid, curv, cand, pbit, pval, wbit, wval, pcell, pkey, wcell, ttk, tts, gen,
     dig, feas, rr, key4, vmw) = W[:20]
    return search(vm, cnt, need, ri[RI_N], masks, badv, vmw, cw, nbs, valid, curv, cand, pbit,
                  pval, wbit, wval) >= need


@plain_types
@njit(cache=True)
def make_work(d, cap):
    """Scratch for one block: the W tuple (search/choice work arrays; W[25] per-depth excluded
    cells, W[26] per-depth cell sets and W[27] per-cell row/column tables of ``choose_best``)
    and the S store buffer."""
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
         np.zeros(8, dtype=np.int64), np.zeros(1, dtype=np.uint64),
         np.zeros(D1 * 7, dtype=np.uint64), np.zeros(D1 * 7, dtype=np.uint64),
         np.zeros(256, dtype=np.int64))
    S = (np.zeros((max(cap, 1), MAXD), dtype=np.int64), np.zeros((max(cap, 1), MAXD), dtype=np.int64),
         np.zeros(max(cap, 1), dtype=np.int64), np.zeros(max(cap, 1), dtype=np.float64))
    return W, S


@njit(cache=True)
def board_from_cells(cells, vm):
    for v in range(8):
        vm[v] = U0
    for i in range(cells.shape[0]):
        vm[cells[i]] |= U1 << np.uint64(i)
