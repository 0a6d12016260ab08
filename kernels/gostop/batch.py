"""Go-Stop batch kernels: whole-deal simulation and go/stop playouts over blocks of trials.

Model and algorithm: see ``kernels.gostop.deal`` (the deal engine). ``simulate_blocks`` plays
deal t of block b on the stream (keys[b], t) and accumulates per-block sums (columns ``C_*``);
``decide_blocks`` plays the rest of a deal after a go from a fixed position, dealing the unseen
cards at random per trial (columns ``D_*``). Both run the blocks of a batch in parallel (``prange``)
and a block's trials in order, so results do not depend on the thread count.
"""
import numpy as np
from numba import njit, prange
from numba.core import cgutils
from numba.extending import intrinsic

from kernels.gostop.deal import play_deal, run_from
from kernels.gostop.state import (HAND, HN, MAXH, OUT_CHONG, OUT_NAGARI, OUT_WIN, SLEN, SPOS,
                                  STOCK)
from kernels.gostop.turn import apply_go
from kernels.gostop.score import (EVB, MAXP, NEV, NVAR, PVB, RB, R_NP, V_GO, best_score,
                                  settle)
from kernels.rng import randint, seed_trial


@intrinsic
def _unmanaged(typingctx, arr):
    """A view of ``arr`` without a reference-counted owner (NULL meminfo).

    Passing an array between Numba functions costs an atomic increment and decrement of its
    owner's reference count per call; the deal engine makes dozens of calls per turn, which made
    those atomics most of its run time. The view shares ``arr``'s data; the caller keeps ``arr``
    alive for as long as the view is used (the block loops below do).
    """
    def codegen(context, builder, signature, args):
        src = context.make_array(arr)(context, builder, value=args[0])
        dst = context.make_array(arr)(context, builder)
        for name in ("parent", "nitems", "itemsize", "data", "shape", "strides"):
            setattr(dst, name, getattr(src, name))
        dst.meminfo = cgutils.get_null_value(dst.meminfo.type)
        return dst._getvalue()

    return arr(arr), codegen


# ---- simulate: per-block sums ---------------------------------------------------------------
HMAX = 60                      # histogram of net payments clipped to [-HMAX, HMAX]
NBIN = 2 * HMAX + 1
C_NAGARI = 0
C_CHONG = 1
C_VOIDS = 2
C_WIN = 3                      # + seat (3)
C_NET = 6                      # + seat: sum of net payment
C_NET2 = 9                     # + seat: sum of squares
C_DADV = 12                    # dealer minus mean of others: sum, sum of squares
C_DADV2 = 13
C_EV = 14                      # + event: total count (NEV)
C_EV2 = C_EV + NEV             # + event: sum of squared per-deal counts
C_EVANY = C_EV2 + NEV          # + event: deals with at least one
C_GOHIST = C_EVANY + NEV       # winner's go count 0..5+ (6)
C_ERR = C_GOHIST + 6
C_HIST = C_ERR + 1             # + seat * NBIN + bin
C_VOIDS2 = C_HIST + MAXP * NBIN  # Σ (void redeals per deal)²
NCOL = C_VOIDS2 + 1


@njit(cache=True)
def _accumulate(row, S, net, nplayers, outcome, w, voids, err):
    if err != 0:
        row[C_ERR] += 1
    if outcome == OUT_NAGARI:
        row[C_NAGARI] += 1
    elif outcome == OUT_CHONG:
        row[C_CHONG] += 1
    row[C_VOIDS] += voids
    row[C_VOIDS2] += voids * voids
    if w >= 0:
        row[C_WIN + w] += 1
        if outcome == OUT_WIN:
            g = S[PVB + w * NVAR + V_GO]
            row[C_GOHIST + (g if g < 5 else 5)] += 1
    others = 0.0
    for q in range(nplayers):
        x = net[q]
        row[C_NET + q] += x
        row[C_NET2 + q] += x * x
        if q > 0:
            others += x
        k = x + HMAX
        if k < 0:
            k = 0
        if k > 2 * HMAX:
            k = 2 * HMAX
        row[C_HIST + q * NBIN + k] += 1
    d = net[0] - others / (nplayers - 1)
    row[C_DADV] += d
    row[C_DADV2] += d * d
    for e in range(NEV):
        tot = 0
        for q in range(nplayers):
            tot += S[EVB + q * NEV + e]
        row[C_EV + e] += tot
        row[C_EV2 + e] += tot * tot
        if tot > 0:
            row[C_EVANY + e] += 1


@njit(cache=True)
def _simulate_block(S0, key, count, nagari_prev, check, row):
    """Deals 0..count-1 of one block (trial t on stream (key, t)); sums into ``row``."""
    own = S0.copy()
    S = _unmanaged(own)
    s = np.zeros(4, np.uint64)
    net = np.zeros(MAXP, np.int64)
    nplayers = S0[RB + R_NP]
    for t in range(count):
        seed_trial(key, t, s)
        outcome, w, voids, err = play_deal(S, s, net, nagari_prev, check)
        _accumulate(row, S, net, nplayers, outcome, w, voids, err)
    if own[RB + R_NP] < 0:  # never true: keeps ``own`` (S's storage) alive to here
        row[0] = -1.0


@njit(cache=True, parallel=True)
def simulate_blocks(keys, counts, S0, nagari_prev, check):
    """Whole deals; per-block sums in the columns C_* above (one row per block).

    ``S0`` is a state array carrying the rules vector and the policy rows (``new_state``)."""
    m = keys.shape[0]
    out = np.zeros((m, NCOL), dtype=np.float64)
    for b in prange(m):
        # thread-private copies: the shared arrays' reference counts are never touched per deal
        row = np.zeros(NCOL, dtype=np.float64)
        _simulate_block(S0.copy(), keys[b].copy(), counts[b], nagari_prev, check, row)
        out[b, :] = row
    return out


# ---- decide: go versus stop from a known position -----------------------------------------
D_GO = 0        # Σ net payment to the decider after going
D_GO2 = 1
D_DIFF = 2      # Σ (go - stop)
D_DIFF2 = 3
D_WIN = 4       # decider eventually wins after going
D_NAGARI = 5
D_LOSE = 6
D_ERR = 7
ND = 8


@njit(cache=True)
def _decide_block(S0, key, count, unseen, nunseen, opp_sizes, me, nagari_prev, stop_net, row):
    """Playouts 0..count-1 of one block of ``decide_blocks``; sums into ``row``."""
    own = S0.copy()
    S = _unmanaged(own)
    s = np.zeros(4, np.uint64)
    net = np.zeros(MAXP, np.int64)
    buf = np.zeros(nunseen + 1, np.int64)
    nplayers = S0[RB + R_NP]
    for t in range(count):
        seed_trial(key, t, s)
        S[:] = S0
        for i in range(nunseen):
            buf[i] = unseen[i]
        for i in range(nunseen - 1, 0, -1):
            j = randint(s, i + 1)
            tmp = buf[i]
            buf[i] = buf[j]
            buf[j] = tmp
        k = 0
        for q in range(nplayers):
            S[HN + q] = S0[HN + q]
            for _ in range(opp_sizes[q]):
                S[HAND + q * MAXH + S[HN + q]] = buf[k]
                S[HN + q] += 1
                k += 1
        n = 0
        for i in range(k, nunseen):
            S[STOCK + n] = buf[i]
            n += 1
        S[SPOS] = 0
        S[SLEN] = n
        sc = best_score(S, me)
        apply_go(S, me, sc)
        w = run_from(S, s, (me + 1) % nplayers, False)
        x = 0
        if w <= -100:
            row[D_ERR] += 1
        elif w < 0:
            row[D_NAGARI] += 1
        else:
            settle(S, w, nplayers, nagari_prev, net)
            x = net[me]
            if w == me:
                row[D_WIN] += 1
            else:
                row[D_LOSE] += 1
        d = x - stop_net
        row[D_GO] += x
        row[D_GO2] += x * x
        row[D_DIFF] += d
        row[D_DIFF2] += d * d
    if own[RB + R_NP] < 0:  # never true: keeps ``own`` (S's storage) alive to here
        row[0] = -1.0


@njit(cache=True, parallel=True)
def decide_blocks(keys, counts, S0, unseen, nunseen, opp_sizes, me, nagari_prev, stop_net):
    """Playouts after the decider ``me`` says go at the end of its turn.

    Each trial shuffles the unseen cards (Fisher-Yates on its own stream), deals ``opp_sizes[q]``
    of them to each opponent's hand in seat order and leaves the rest, in shuffled order, as the
    stock; then the decider's go is applied and the deal is played out from the next seat under
    the policy rows. ``stop_net`` is the decider's (deterministic) net payment of stopping now, so
    the per-trial difference go - stop uses the same cards by construction. ``S0`` holds the
    position, the rules vector and the policy rows.
    """
    m = keys.shape[0]
    out = np.zeros((m, ND), dtype=np.float64)
    for b in prange(m):
        row = np.zeros(ND, dtype=np.float64)
        _decide_block(S0.copy(), keys[b].copy(), counts[b], unseen.copy(), nunseen,
                      opp_sizes.copy(), me, nagari_prev, stop_net, row)
        out[b, :] = row
    return out
