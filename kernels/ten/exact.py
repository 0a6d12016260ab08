"""Ten: one turn's draw-or-stop problem (the model) and its exact solver (expectimax over the pile).

Model
-----
A turn draws cards one at a time from the remaining draw pile. Card *types* are what matters for
the turn decision (colours never do): types 0..8 are number cards of value 1..9, types 9..13
currency cards of value 1..5, type 14 any wild. A number card adds its value to N, a currency card
adds its value to C; the turn busts on a number draw when ``N − C ≥ bust_at`` and on a currency draw
when ``C ≥ cbust``. A wild never enters the tableau (its auction is outside the turn model).
Stopping takes the better of two rewards; with value weights ``card``, ``token``, ``bustv`` (value
of one bust token), ``oppc`` (cost of one token gained by all opponents together) and ``room``
(tokens the player can still take under the cap)::

    S_numbers  = card·n − oppc·min(C, cap)          n = number cards in the tableau
    S_currency = token·min(C, room)
    number bust   → bustv − oppc·min(C, cap)
    currency bust → bustv

Exact solver
------------
Given the root (remaining counts by type and the tableau), a state is the multiset of non-wild
cards drawn since the root: the counts drawn per type, which fix the remaining pile and the
tableau's N, C and number-card count. Wilds are left out of the state: drawing a wild leaves the
decision problem unchanged, so by induction on the cards left ``V_W(s) = V_0(s)`` for any number W
of wilds (if drawing was optimal it stays optimal after a wild; if stopping was, it still is), and
only the root's ``ev_draw`` needs the correction ``D_W = (W/R)·V_0(root) + (1 − W/R)·D_0(root)``.

A state factors into (a, b): the multiset ``a`` of number cards drawn and the multiset ``b`` of
currency cards drawn. ``part_multisets`` lists each factor once (numbers whose sum cannot exceed
``bust_at − 1 − T0 + (cbust − 1 − C0)``, currency whose sum stays below ``cbust − C0``) with its
successor per card type; the pair is a state when ``T < bust_at``, and every such pair is
reachable (currency first, then numbers, never busts). ``solve_turn`` fills dense value arrays
``V[p, a, b]`` backwards in the number of cards drawn (expectimax with memoisation: each state is
evaluated once, its children read by index)::

    D(s) = Σ_i (r_i / R)·(bust value if type i busts, else V(s + e_i)),  R = Σ_i r_i
    V(s) = max(S(s), D(s))        for the optimal policy,
    V(s) = S(s) if policy stops in s else D(s)   for "stop once T ≥ t" / "stop after m cards";

with ``V = S`` when no non-wild card is left and ``V = D`` at an empty-tableau root (the first draw
of a turn is mandatory).

The Monte Carlo turn kernel that follows the solver's tables is in ``kernels/ten/turn.py``.
"""
import numpy as np
from numba import njit

from kernels.rng import mix64

WILD = 14
KIND_TOTAL = 0    # stop once T >= t
KIND_CARDS = 1    # stop once the tableau holds m cards
KIND_OPTIMAL = 2  # the exact solver's decision table
DEC_NUMBERS = 0
DEC_CURRENCY = 1
DEC_DRAW = 2


@njit(cache=True, inline="always")
def _hash_slot(table, code):
    """Slot of ``code`` (or the empty slot where it goes) in an open-addressing table stored as
    [key, value] pairs (one cache line serves both), linear probing, empty key −1."""
    mask = (table.shape[0] >> 1) - 1
    h = np.int64(mix64(np.uint64(code)) & np.uint64(mask))
    while table[2 * h] != -1 and table[2 * h] != code:
        h = (h + 1) & mask
    return h


@njit(cache=True)
def part_multisets(avail, val, limit):
    """Every count vector d with d_i ≤ avail_i and Σ d_i·val_i ≤ limit, breadth first.

    Returns (D, total, count, child, start): ``D[m]`` the counts of multiset m, ``total[m]`` its
    weighted sum, ``count[m]`` its size (non-decreasing in m; size c occupies m in
    start[c] .. start[c+1]-1), ``child[m, i]`` the multiset with one more of type i, or −1 when
    none is left or the sum would pass ``limit``. Deduplicated by a mixed-radix code.
    """
    P = avail.shape[0]
    radix = np.empty(P, dtype=np.int64)
    mult = np.empty(P, dtype=np.int64)
    prod = 1
    for i in range(P):
        radix[i] = min(avail[i], limit // val[i]) + 1
        mult[i] = prod
        prod *= radix[i]
    size = 256
    D = np.zeros((size, P), dtype=np.int64)
    total = np.zeros(size, dtype=np.int64)
    count = np.zeros(size, dtype=np.int64)
    codes = np.zeros(size, dtype=np.int64)
    child = np.full((size, P), -1, dtype=np.int32)
    cap = 512
    table = np.full(2 * cap, -1, dtype=np.int64)
    h = _hash_slot(table, 0)
    table[2 * h] = 0
    table[2 * h + 1] = 0
    n = 1
    start = np.zeros(limit + 3, dtype=np.int64)
    lo = 0
    hi = 1
    c = 0
    while lo < hi:
        start[c] = lo
        for s in range(lo, hi):
            for i in range(P):
                if D[s, i] >= avail[i] or total[s] + val[i] > limit:
                    continue
                nc = codes[s] + mult[i]
                h = _hash_slot(table, nc)
                if table[2 * h] == nc:
                    child[s, i] = table[2 * h + 1]
                    continue
                if 2 * (n + 1) > cap:  # grow the table and rehash
                    cap *= 2
                    table = np.full(2 * cap, -1, dtype=np.int64)
                    for q in range(n):
                        hq = _hash_slot(table, codes[q])
                        table[2 * hq] = codes[q]
                        table[2 * hq + 1] = q
                    h = _hash_slot(table, nc)
                if n == size:  # grow the arrays
                    size *= 2
                    D2 = np.zeros((size, P), dtype=np.int64)
                    D2[:n] = D[:n]
                    D = D2
                    t2 = np.zeros(size, dtype=np.int64)
                    t2[:n] = total[:n]
                    total = t2
                    c2 = np.zeros(size, dtype=np.int64)
                    c2[:n] = count[:n]
                    count = c2
                    k2 = np.zeros(size, dtype=np.int64)
                    k2[:n] = codes[:n]
                    codes = k2
                    ch2 = np.full((size, P), -1, dtype=np.int32)
                    ch2[:n] = child[:n]
                    child = ch2
                for q in range(P):
                    D[n, q] = D[s, q]
                D[n, i] += 1
                total[n] = total[s] + val[i]
                count[n] = count[s] + 1
                codes[n] = nc
                table[2 * h] = nc
                table[2 * h + 1] = n
                child[s, i] = n
                n += 1
        lo = hi
        hi = n
        c += 1
    start[c] = n
    return D[:n].copy(), total[:n].copy(), count[:n].copy(), child[:n].copy(), start[: c + 1].copy()


@njit(cache=True)
def solve_turn(avail, val, N0, C0, n0, tab0, bust_at, cbust, card, token, bustv, oppc, cap, room,
               root_forced, kinds, params, max_cells):
    """Exact value of every policy in every state reachable from the root (module doc).

    A state is a pair (a, b): a multiset ``a`` of number cards drawn (types 0..8) and a multiset
    ``b`` of currency cards drawn (types 9..13), each enumerated once by ``part_multisets``; the
    pair is a state when it has not busted (N0 + ΣN − C0 − ΣC < bust_at; C < cbust holds by the
    currency limit). Every such pair is reachable (draw its currency first, then its numbers).
    Values live in dense arrays V[p, a, b] filled by a backward sweep over the number of cards
    drawn, children by index, so no hashing happens per state.

    Returns (V[K, A, B], D_root[K], decision[A, B], nchild, cchild, states); ``states`` is −1
    (and the rest empty) when K·A·B exceeds ``max_cells``. ``decision`` is the optimal policy's
    choice (0 stop-numbers, 1 stop-currency, 2 draw; ties go to stopping).
    """
    K = kinds.shape[0]
    dc = cbust - 1 - C0
    dn = bust_at - 1 - (N0 - C0) + dc
    navail = avail[:9].copy()
    cavail = avail[9:].copy()
    ND, Nsum, Ncnt, nchild, nstart = part_multisets(navail, val[:9].copy(), dn)
    CD, Csum, Ccnt, cchild, cstart = part_multisets(cavail, val[9:].copy(), dc)
    A = Ncnt.shape[0]
    B = Ccnt.shape[0]
    if K * A * B > max_cells:
        return (np.zeros((K, 1, 1)), np.zeros(K), np.zeros((1, 1), dtype=np.uint8), nchild,
                cchild, -1)
    V = np.zeros((K, A, B), dtype=np.float64)
    D_root = np.zeros(K, dtype=np.float64)
    decision = np.zeros((A, B), dtype=np.uint8)
    R0 = 0
    for i in range(14):
        R0 += avail[i]
    kmax = (nstart.shape[0] - 2) + (cstart.shape[0] - 2)
    states = 0
    Dp = np.zeros(K, dtype=np.float64)
    for k in range(kmax, -1, -1):
        R = R0 - k
        for ca in range(nstart.shape[0] - 1):
            cb = k - ca
            if cb < 0 or cb >= cstart.shape[0] - 1:
                continue
            for a in range(nstart[ca], nstart[ca + 1]):
                N = N0 + Nsum[a]
                n = n0 + Ncnt[a]
                for b in range(cstart[cb], cstart[cb + 1]):
                    C = C0 + Csum[b]
                    T = N - C
                    if T >= bust_at:
                        continue
                    states += 1
                    oc = C if C < cap else cap
                    s_num = card * n - oppc * oc
                    s_cur = token * (C if C < room else room)
                    S = s_num if s_num >= s_cur else s_cur
                    nbust = bustv - oppc * oc
                    for p in range(K):
                        Dp[p] = 0.0
                    if R > 0:
                        for i in range(9):
                            r = navail[i] - ND[a, i]
                            if r <= 0:
                                continue
                            w = r / R
                            a2 = nchild[a, i]
                            if a2 < 0 or N0 + Nsum[a2] - C >= bust_at:
                                for p in range(K):
                                    Dp[p] += w * nbust
                            else:
                                for p in range(K):
                                    Dp[p] += w * V[p, a2, b]
                        for u in range(5):
                            r = cavail[u] - CD[b, u]
                            if r <= 0:
                                continue
                            w = r / R
                            b2 = cchild[b, u]
                            if b2 < 0:
                                for p in range(K):
                                    Dp[p] += w * bustv
                            else:
                                for p in range(K):
                                    Dp[p] += w * V[p, a, b2]
                    for p in range(K):
                        D = Dp[p]
                        kind = kinds[p]
                        if R == 0:
                            v = S
                            stop = True
                        elif k == 0 and root_forced:
                            v = D
                            stop = False
                        elif kind == KIND_OPTIMAL:
                            stop = S >= D
                            v = S if stop else D
                        elif kind == KIND_TOTAL:
                            stop = T >= params[p]
                            v = S if stop else D
                        else:
                            stop = tab0 + k >= params[p]
                            v = S if stop else D
                        V[p, a, b] = v
                        if k == 0:
                            D_root[p] = D
                        if kind == KIND_OPTIMAL:
                            if not stop:
                                decision[a, b] = DEC_DRAW
                            elif s_num >= s_cur:
                                decision[a, b] = DEC_NUMBERS
                            else:
                                decision[a, b] = DEC_CURRENCY
    return V, D_root, decision, nchild, cchild, states
