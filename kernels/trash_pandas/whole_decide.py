"""Trash Pandas ``decide``: a real position played out for each choice on the same deals.

Model
-----
The position (state array ``g0``, kernels/trash_pandas/whole_state.py layout) holds what the
deciding player ``me`` knows: its hand and whole stash, every face-up card, the discard pile, the
cards left. Each trial draws one world from the belief ``bp`` about the unseen cards (``pool``
int64[8] by type: deck file minus everything known; ``opp_hand[q]`` cards in q's hand,
``opp_down[q]`` in q's face-down stash, the rest the draw pile): kernels/trash_pandas/belief.py
``sample_world``, on the trial's stream. Then every choice ``c`` (row of ``choices`` int64[C, 3]:
entry 0 roll now, 1 stop now, 2 a rolled face; the face; take 0/Blammo! 1/Nanners 2) continues
``me``'s turn from that same world and the same random stream (common random numbers: the
choices share the deal), the bots play the game to its end, and ``me``'s win share (1/k for a
win shared by k players) is recorded. Given a full state as ``g0`` and nothing unseen (``pool0``,
``opp_hand`` and ``opp_down`` zero), every trial plays that true state itself.

Per-block sums (float64[m, 4·C]): for choice c, columns 4c Σw, 4c+1 Σw², 4c+2 Σ(w_c − w_0),
4c+3 Σ(w_c − w_0)² (the paired difference with choice 0).
"""
import numpy as np
from numba import prange, types

from kernels.rng import seed_trial
from kernels.trash_pandas.belief import sample_world
from kernels.engine_arg import EngineDriver
from kernels.trash_pandas.engine_arg import continue_game_type
from kernels.trash_pandas.whole import NACC, continue_game, win_share
from kernels.trash_pandas.whole_state import MAXP, NROWS, NT, SC


def _decide_blocks(cont, keys, counts, g0, pool0, opp_hand, opp_down, me, mode, held, choices,
                   bots, pts, per_card, copies, rules, roll_tab, after_tab, bp):
    """Per-block sums of ``me``'s win share after each choice (module doc), each game played to
    its end by ``cont``, an engine's ``continue_game`` (kernels/trash_pandas/engine_arg.py).

    keys uint64[m, 4], counts int64[m] trials per block; g0 int64[19, 8]; pool0 int64[8];
    opp_hand/opp_down int64[4]; choices int64[C, 3]; bots float64[4, NK]; bp the belief's
    parameter vector (belief.py; its feasibility is checked by the caller); the rest as
    whole_games.play_games.
    """
    m = keys.shape[0]
    nc = choices.shape[0]
    out = np.zeros((m, 4 * nc), dtype=np.float64)
    for blk in prange(m):
        g = np.zeros((NROWS, NT), dtype=np.int64)
        gd = np.zeros((NROWS, NT), dtype=np.int64)
        s = np.zeros(4, dtype=np.uint64)
        sd = np.zeros(4, dtype=np.uint64)
        acc = np.zeros(NACC, dtype=np.float64)
        w = np.zeros(16, dtype=np.int64)
        scores = np.zeros(MAXP, dtype=np.int64)
        players = g0[SC, 2]
        for t in range(counts[blk]):
            seed_trial(keys[blk], t, s)
            sample_world(gd, g0, pool0, opp_hand, opp_down, me, bp, s)
            first = 0.0
            for c in range(nc):
                g[:, :] = gd
                sd[:] = s
                cont(g, me, mode, held, choices[c, 0], choices[c, 1], choices[c, 2], bots, pts,
                     per_card, copies, rules, roll_tab, after_tab, acc, sd, w)
                share = win_share(g, me, players, pts, per_card, rules, w, scores)
                if c == 0:
                    first = share
                d = share - first
                out[blk, 4 * c] += share
                out[blk, 4 * c + 1] += share * share
                out[blk, 4 * c + 2] += d
                out[blk, 4 * c + 3] += d * d
    return out


def _cont_type(t):
    """The type of ``cont`` for :func:`_decide_blocks`'s other argument types ``t``."""
    return continue_game_type(t[10], t[11], t[12], t[13], t[14], t[15], t[16])


#: the driver, compiled once per argument types whatever the engine (engine_arg.py)
DRIVER = EngineDriver(_decide_blocks, _cont_type, types.Array(types.float64, 2, "C"))
#: decisions played out by the plain engine (whole.py)
decide_blocks = DRIVER.bind(continue_game)
