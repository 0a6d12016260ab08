"""Go-Stop deals that record the studied seat's go/stop decisions.

What belongs here: what ``pushluck gostop advice`` needs to say where a rule of thumb goes wrong.
The engine is the plain one (kernels.gostop.turn/deal), run on a state array longer than its
own ``SSIZE`` words: when a go rule table decides, the engine sees the longer array and calls
``record_go`` (kernels/gostop/turn.py), which appends a record when the deciding seat is the
studied one. The record block is past the engine's own words, so the engine's layout, its random
numbers and its games are unchanged: a recorded deal is the plain engine's deal on the same
(key, trial) (tested). (This was a second compile of the whole engine with the decision swapped,
kernels/twin.py; as runtime data it costs one length test per go/stop check and no compile.)

Record block (from ``SSIZE``, layout in kernels/gostop/turn.py): seat, capacity, the current
deal's index, the number of records written, then records of ``RW`` words: deal index, the
five features ``F_GOS`` … ``F_OPPGOS`` as the table reads them
(kernels.gostop.turn.table_feature), and 1 for go / 0 for stop. Checks with no choice (the
seat's last turn) are not decisions and are not recorded; records past the capacity are counted
but dropped.
"""
import numpy as np
from numba import njit

from kernels.gostop.deal import play_deal
from kernels.gostop.score import MAXP
from kernels.gostop.state import SSIZE
from kernels.gostop.turn import NREC, R_CAP, R_GAME, R_N, R_SEAT, RHEAD, RW  # noqa: F401
from kernels.rng import seed_trial


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
            play_deal(S, s, net, nagari_prev, False)
            nets[g] = net[seat]
            g += 1
    n = min(S[SSIZE + R_N], cap)
    recs = S[SSIZE + RHEAD: SSIZE + RHEAD + n * RW].copy().reshape((n, RW))
    return recs, S[SSIZE + R_N], nets
