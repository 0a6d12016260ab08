"""Railroad Canasta games that record the studied seat's take-the-pile and go-out decisions.

What belongs here: what ``pushluck canasta advice`` needs to say where a rule pair goes wrong.
The whole-game engine is the plain one (kernels/canasta/engine.py ``play_turns``, trials.py
``play_game`` and ``game_trial``), run with a table-state vector ``g`` longer than its NG
words: every rule-table decision goes through ``table_says`` (engine.py), which then also
writes a record when the deciding seat is the studied one (``record_choice``). The record lives
past the engine's own NG words, which the engine never reads, so the engine's random numbers
and its games are unchanged: a recorded block's sums equal ``mc_blocks``'s in ``MODE_GAMES`` on
the same keys (tested). (This was a second compile of the whole engine with the decision
swapped, kernels/twin.py; as runtime data it costs one length test per table decision.)

Record block (``g[NG:]``, layout in engine.py): studied seat, capacity, the current game's
index, the number of records met, then records of ``RW`` words: game index, decision
(``D_TAKE`` / ``D_GO``), the seven features ``F_PILE`` … ``F_LEAD`` as the table reads them
(engine ``rule_feature``), and 1 where the table said take / go out, 0 where it said draw /
keep playing. A take-the-pile table is asked only when the pile may be taken; when the stock is
empty the engine then takes the pile whatever the table says, so that is no decision and is not
recorded. A go-out table is asked only when going out is possible. Records past the capacity
are counted but dropped.
"""
import numpy as np
from numba import njit, prange

from kernels.canasta.engine import (D_GO, D_TAKE, NG, NREC, NT, NV, R_CAP, R_GAME,  # noqa: F401
                                    R_N, R_NP, R_SEAT, RHEAD, RW, new_state)
from kernels.canasta.trials import NROUNDSTAT, game_trial
from kernels.rng import seed_trial


@njit(cache=True)
def games_width(P):
    """Sum columns of a block (``mc_blocks``'s width in ``MODE_GAMES``)."""
    return max(4 + P + 3 * NROUNDSTAT + 2, 3 + 2 * NROUNDSTAT, 12)


@njit(cache=True, parallel=True)
def record_blocks(keys, counts, seats, pols, rp, thr, reqv, cap):
    """Whole games t < counts[b] of blocks b on streams (keys[b], t), numbered in that order,
    with ``pols[seats[b]]`` the policies of block b and seat ``seats[b]`` the studied one (its
    decisions recorded, at most ``cap`` per block). Blocks run in parallel.

    Returns (sums per block exactly as ``mc_blocks`` in ``MODE_GAMES``: its columns, then the
    NV violation counts; records (blocks, cap, RW); decisions met per block)."""
    m = keys.shape[0]
    P = rp[R_NP]
    width = games_width(P)
    firsts = np.zeros(m, dtype=np.int64)
    for b in range(1, m):
        firsts[b] = firsts[b - 1] + counts[b - 1]
    res = np.zeros((m, width + NV), dtype=np.float64)
    recs = np.zeros((m, cap, RW), dtype=np.int64)
    met = np.zeros(m, dtype=np.int64)
    for b in prange(m):
        seat = seats[b]
        pol = pols[seat]
        hand, kit, un, can, pl, mcnt, stock, pile, g0 = new_state(P)
        g = np.zeros(NG + RHEAD + cap * RW, dtype=np.int64)
        g[NG + R_SEAT] = seat
        g[NG + R_CAP] = cap
        state = (hand, kit, un, can, pl, mcnt, stock, pile, g)
        s = np.zeros(4, dtype=np.uint64)
        viol = np.zeros(NV, dtype=np.int64)
        tmp = np.zeros(NT, dtype=np.int64)
        out = np.zeros((NT, 3), dtype=np.int64)
        rs = np.zeros(NROUNDSTAT, dtype=np.float64)
        row = np.zeros(width, dtype=np.float64)
        for t in range(counts[b]):
            g[NG + R_GAME] = firsts[b] + t
            seed_trial(keys[b], t, s)
            game_trial(s, rp, pol, thr, reqv, state, viol, tmp, out, rs, row)
        for k in range(width):
            res[b, k] = row[k]
        for k in range(NV):
            res[b, width + k] = viol[k]
        n = g[NG + R_N]
        met[b] = n
        for k in range(min(n, cap)):
            for w in range(RW):
                recs[b, k, w] = g[NG + RHEAD + k * RW + w]
    return res, recs, met
