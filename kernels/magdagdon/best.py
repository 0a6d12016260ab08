"""MAGDAGDON base policies' placement by canonical enumeration: ``choose`` without its table.

What belongs here: :func:`choose_best`, the placement a base policy (greedy, max-dice,
min-dice) makes, equal in every output to ``choose`` of kernels/magdagdon/policy.py in those
modes (the dice placed, the value H and the placement order left in W's wcell/wval), found
with about half the work. ``choose`` (with its transposition table) stays the general form: it
alone stores every placement (P_STORE) and it is the reference the tests compare with.

Why a placement set needs no table. Whether a set S of (value, cell) placements can be made
does not depend on the order: each die must not be next to a number it differs from by more than
the tolerance (a property of S and the board, whatever the order), and each must be next to a
number when placed, i.e. S must be connected to the board's numbers (any cell may start when
the board holds no number; on the empty board only the cells of one symmetry orbit each, as in
``choose``). So any element of S that is placeable now can come first, and S's smallest
order — with placements ranked (value, cell), as the search tries them — is found greedily: the
smallest element placeable at each step. Its prefixes are the smallest orders of their own sets.
``choose``'s depth-first search visits orders in that ranking and expands a set the first time
it meets it, which is by its smallest order; so it evaluates the sets in the order of their
smallest orders, and keeps the first best by a strict ``>``.

The canonical search visits only smallest orders: a child σ + (a) is the smallest order of its
set unless a was placeable at some earlier step i with a ranked below σ_i (the greedy would have
taken it then). Placeable-at-step-i is exactly "among the candidates of depth i", and those
ranked below σ_i are the siblings tried before σ_i; so each depth carries, per value, the
excluded cells: its parent's, plus the candidates the parent tried before this child (all of a
smaller value, the lower cells of the same value). Same sets, same order, same values, same
first best; no duplicate is generated, no key is hashed.
"""
import numpy as np
from numba import njit

from kernels.magdagdon.board import (ALL, P_MAX, P_MIN, RF_CELL, RF_RUIN, RI_N, U0, U1, _nb,
                                     bit_index, grow_sets, heur, place, placed_value, popcount,
                                     root_sets, unplace)


@njit(cache=True, inline="always")
def _better(mode, d1, hv, best_d, best_h):
    """Does a placement of d1 dice with value hv beat the best so far (``choose``'s rule)?"""
    if mode == P_MAX:
        return d1 > best_d or (d1 == best_d and hv > best_h)
    return hv > best_h


@njit(cache=True, inline="always")
def _leaves(cells, vm, G, W, o, depth, mode, need, ssum, best_d, best_h):
    """Evaluate every candidate of depth ``depth`` (valid[o+1..o+6], tried value by value and
    cell by cell, as the search would) when each is a leaf: no die placed after it. The dead
    cells after value u goes on cell bit b follow from the current sets (fs[o..o+6],
    ``root_sets``) without recomputing them: with m = N(b),
    dead = (emp − b) & (A | m) & ⋂_{w fits u} F_w & ((⋂_{w does not fit u} F_w) | m).
    Returns the new (best_d, best_h); a new best's order goes to wcell/wval."""
    ri, rf, masks, badv, LT, bon = G[0], G[1], G[2], G[3], G[4], G[5]
    nbs, valid, pval, wval, pcell, wcell, dig = W[1], W[2], W[6], W[8], W[9], W[11], W[15]
    rcode, ccode, tr, tc, fs, cellt = W[20], W[21], W[22], W[23], W[26], W[27]
    n = ri[RI_N]
    un = np.uint64(n)
    full = masks[0]
    nf = masks[1]
    nl = masks[2]
    coded = LT.shape[0] > 1
    cellv = rf[RF_CELL]
    ruinp = rf[RF_RUIN]
    d1 = depth + 1
    if d1 < need or (mode == P_MIN and d1 != need):
        return best_d, best_h
    emp = vm[0]
    ruins = popcount(vm[7])
    a = fs[o]
    for u in range(1, 7):
        c = valid[o + u]
        if c == U0:
            continue
        fits = ALL
        clash = ALL
        bu = np.uint64(badv[u])
        for w in range(1, 7):
            if (bu >> np.uint64(w)) & U1:
                clash &= fs[o + w]
            else:
                fits &= fs[o + w]
        while c != U0:
            b = c & (~c + U1)
            c ^= b
            i = bit_index(b)
            if coded:
                m = _nb(b, un, full, nf, nl)
                e1 = emp & ~b
                dead = e1 & (a | m) & fits & (clash | m)
                r = cellt[i]
                k = cellt[64 + i]
                rcode[r] += u * cellt[128 + i]
                ccode[k] += u * cellt[192 + i]
                hv = placed_value(e1, ruins, dead, n, rcode, ccode, tr, tc, LT, ssum + u, cellv,
                                  ruinp)
                rcode[r] -= u * cellt[128 + i]
                ccode[k] -= u * cellt[192 + i]
            else:
                place(cells, vm, i, u)
                hv = heur(cells, vm, n, masks, badv, LT, bon, rf, nbs, dig)
                unplace(cells, vm, i, u)
            if _better(mode, d1, hv, best_d, best_h):
                best_d = d1
                best_h = hv
                for q in range(depth):
                    wcell[q] = pcell[q]
                    wval[q] = pval[q]
                wcell[depth] = i
                wval[depth] = u
    return best_d, best_h


@njit(cache=True, _nrt=False)
def choose_best(cells, vm, cnt0, need, mode, G, W):
    """Best placement of at least ``need`` dice of roll ``cnt0`` for base policy ``mode``
    (P_GREEDY / P_MAX / P_MIN): returns (dice placed, value) and leaves the placement order in
    W's wcell/wval, exactly as ``choose`` does (module doc). ``cells``/``vm`` are restored."""
    ri, rf, masks, badv, LT, bon = G[0], G[1], G[2], G[3], G[4], G[5]
    cnt, nbs, valid, curv, cand = W[0], W[1], W[2], W[3], W[4]
    pval, wval, pcell, wcell, dig = W[6], W[8], W[9], W[11], W[15]
    rcode, ccode, tr, tc = W[20], W[21], W[22], W[23]
    excl, fs, cellt = W[25], W[26], W[27]
    n = ri[RI_N]
    coded = LT.shape[0] > 1
    # per cell: row, column, and its digit weight in the row code and in the column code
    rowof, colof, rinc, cinc = cellt[0:64], cellt[64:128], cellt[128:192], cellt[192:256]
    ssum = 0
    for k in range(n):
        rcode[k] = 0
        ccode[k] = 0
    for r0 in range(n):
        for c0 in range(n):
            i = r0 * n + c0
            x = np.int64(cells[i])
            rcode[r0] += x * (1 << (3 * c0))
            ccode[c0] += x * (1 << (3 * r0))
            if x <= 6:
                ssum += x
            rowof[i] = r0
            colof[i] = c0
            rinc[i] = 1 << (3 * c0)
            cinc[i] = 1 << (3 * r0)
    dice = 0
    for v in range(7):
        cnt[v] = cnt0[v]
        dice += cnt0[v]
    best_d = 0
    best_h = -1e300
    un = np.uint64(n)
    full = masks[0]
    nf = masks[1]
    nl = masks[2]
    cellv = rf[RF_CELL]
    ruinp = rf[RF_RUIN]
    emp = vm[0]
    if root_sets(vm, un, full, nf, nl, badv[0], fs, 0):
        emp &= fs[0]
    elif emp == full:
        # empty board: the first die tries one cell per symmetry orbit (as ``choose``)
        emp &= masks[3]
    t0 = U0
    for v in range(1, 7):
        x = emp & ~fs[v] if cnt[v] > 0 else U0
        valid[v] = x
        excl[v] = U0
        t0 |= x
    if t0 == U0:
        return 0, 0.0
    # one die (or min-dice needing one): the root's candidates are the leaves. Both cases go
    # through the loop's one call of _leaves: an inlined function is a copy per call site, and a
    # second copy cost seconds of every cold compile of the game engine
    root_leaves = dice == 1 or (mode == P_MIN and need == 1)
    depth = 0
    curv[0] = 0
    cand[0] = U0
    i = 0
    v = 0
    d1 = 0
    tot = U0
    while depth >= 0:
        lo = -1  # the offset of the candidates to evaluate as leaves (none: -1)
        ld = 0
        if root_leaves:
            lo = 0
        else:
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
                    rcode[rowof[i]] -= v * rinc[i]
                    ccode[colof[i]] -= v * cinc[i]
                    ssum -= v
                continue
            b = c & (~c + U1)
            cand[depth] = c ^ b
            v = curv[depth]
            i = bit_index(b)
            d1 = depth + 1
            place(cells, vm, i, v)
            cnt[v] -= 1
            rcode[rowof[i]] += v * rinc[i]
            ccode[colof[i]] += v * cinc[i]
            ssum += v
            pval[depth] = v
            pcell[depth] = i
            o1 = d1 * 7
            grow_sets(fs, o, o1, b, v, badv, un, full, nf, nl)
            base = vm[0] & fs[o1]
            dead = base
            tot = U0
            below = b - U1
            for u in range(1, 7):
                f = fs[o1 + u]
                dead &= f
                # the child's exclusions: this depth's, plus the candidates tried before this one
                tried = ALL if u < v else (below if u == v else U0)
                e = excl[o + u] | (valid[o + u] & tried)
                excl[o1 + u] = e
                x = base & ~(f | e) if cnt[u] > 0 else U0
                valid[o1 + u] = x
                tot |= x
            if d1 >= need:
                if coded:
                    hv = placed_value(vm[0], popcount(vm[7]), dead, n, rcode, ccode, tr, tc, LT,
                                      ssum, cellv, ruinp)
                else:
                    hv = heur(cells, vm, n, masks, badv, LT, bon, rf, nbs, dig)
                if (mode != P_MIN or d1 == need) and _better(mode, d1, hv, best_d, best_h):
                    best_d = d1
                    best_h = hv
                    for k in range(d1):
                        wcell[k] = pcell[k]
                        wval[k] = pval[k]
            if tot != U0 and (d1 + 1 == dice or (mode == P_MIN and d1 + 1 == need)):
                lo = o1  # the next dice are leaves: evaluate them here, without descending
                ld = d1
        if lo >= 0:
            best_d, best_h = _leaves(cells, vm, G, W, lo, ld, mode, need, ssum, best_d, best_h)
            tot = U0
        if root_leaves:
            break
        if tot != U0 and not (mode == P_MIN and d1 >= need):
            depth = d1
            curv[d1] = 0
            cand[d1] = U0
        else:
            unplace(cells, vm, i, v)
            cnt[v] += 1
            rcode[rowof[i]] -= v * rinc[i]
            ccode[colof[i]] -= v * cinc[i]
            ssum -= v
    return best_d, best_h
