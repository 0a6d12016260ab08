"""Go-Stop deals that record the studied seat's go/stop decisions: the recording twin engine.

What belongs here: what ``pushluck gostop advice`` needs to say where a rule of thumb goes wrong.
The engine is the plain one (kernels.gostop.turn/deal) compiled a second time
(kernels/twin.py) with ``go_by_table`` swapped for :func:`go_by_table_rec`, which decides
exactly as the go rule table does and also appends a record when the deciding seat is the
studied one. The record lives in the state array past the engine's own block (offset
``SSIZE``), so the engine's layout, its random numbers and its games are unchanged: a recorded
deal is the plain engine's deal on the same (key, trial) (tested).

Record block (from ``SSIZE``): seat, capacity, the current deal's index, the number of
records written, then records of ``RW`` words: deal index, the five features ``F_GOS`` …
``F_OPPGOS`` as the table reads them (kernels.gostop.turn.table_feature), and 1 for go / 0 for
stop. Checks with no choice (the seat's last turn) are not decisions and are not recorded;
records past the capacity are counted but dropped.
"""
import numpy as np
from numba import njit

from kernels.gostop.deal import play_deal, run_from
from kernels.gostop.score import MAXP
from kernels.gostop.state import F_GOS, F_OPPGOS, SSIZE
from kernels.gostop.turn import go_by_table, play_turn, table_feature
from kernels.rng import seed_trial
from kernels.twin import digest_suffix, twin

R_SEAT, R_CAP, R_GAME, R_N = 0, 1, 2, 3
RHEAD = 4
NREC = F_OPPGOS - F_GOS + 1      # features recorded
RW = NREC + 2                    # deal index, features, choice


@njit(cache=True)
def go_by_table_rec(S, p, sc, gos, rem):
    """``go_by_table`` that also records the studied seat's decision (module doc)."""
    go = go_by_table(S, p, sc, gos, rem)
    if p == S[SSIZE + R_SEAT]:
        k = S[SSIZE + R_N]
        if k < S[SSIZE + R_CAP]:
            at = SSIZE + RHEAD + k * RW
            S[at] = S[SSIZE + R_GAME]
            for i in range(NREC):
                S[at + 1 + i] = table_feature(S, p, F_GOS + i, sc, gos, rem)
            S[at + 1 + NREC] = 1 if go else 0
        S[SSIZE + R_N] = k + 1
    return go


_SUFFIX = digest_suffix("_rec", __file__)   # an edit of this file compiles new twins
play_turn_rec = twin(play_turn, _SUFFIX, go_by_table=go_by_table_rec)
run_from_rec = twin(run_from, _SUFFIX, play_turn=play_turn_rec)
play_deal_rec = twin(play_deal, _SUFFIX, run_from=run_from_rec)


@njit(cache=True)
def record_deals(S0, keys, counts, nagari_prev, seat, cap):
    """Deals t < counts[b] of blocks b on streams (keys[b], t), numbered in that order, with
    ``seat``'s decisions recorded (at most ``cap``). Returns (records (n, RW), number of
    decisions met, the studied seat's net payment per deal)."""
    total = 0
    for b in range(counts.shape[0]):
        total += counts[b]
    S = np.zeros(SSIZE + RHEAD + cap * RW, dtype=np.int64)
    S[:SSIZE] = S0[:SSIZE]
    S[SSIZE + R_SEAT] = seat
    S[SSIZE + R_CAP] = cap
    s = np.zeros(4, np.uint64)
    net = np.zeros(MAXP, np.int64)
    nets = np.zeros(total, dtype=np.int64)
    g = 0
    for b in range(keys.shape[0]):
        key = keys[b].copy()
        for t in range(counts[b]):
            S[SSIZE + R_GAME] = g
            seed_trial(key, t, s)
            play_deal_rec(S, s, net, nagari_prev, False)
            nets[g] = net[seat]
            g += 1
    n = min(S[SSIZE + R_N], cap)
    recs = S[SSIZE + RHEAD: SSIZE + RHEAD + n * RW].copy().reshape((n, RW))
    return recs, S[SSIZE + R_N], nets
