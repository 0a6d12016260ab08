"""Bench kernel of the search bot: search decisions per second at a fixed budget.

:func:`decision_blocks` runs one roll-or-stop search (kernels/trash_pandas/search.py
``tree_search``, an RS root) per trial on positions given by the caller (states from self-play
games at the start of a turn with some tokens held); trial t of a block decides position
``t mod (number of positions)`` on the trial's own stream. Per-block sums: decisions, decisions
to roll (a check that the work was done)."""
import numpy as np
from numba import njit, prange

from kernels.rng import seed_trial
from kernels.trash_pandas.search import N_RS, NA, tree_search


@njit(cache=True, parallel=True)
def decision_blocks(keys, counts, states, seats, helds, bots, pts, per_card, copies, rules,
                    roll_tab, after_tab):
    """keys uint64[m, 4], counts int64[m]; states int64[P, 19, 8], seats/helds int64[P] (the
    deciding seat and its held tokens; the seat's bot in ``bots`` float64[4, NK] is a search
    bot); the rest as whole_games.play_games. Returns float64[m, 2]."""
    m = keys.shape[0]
    npos = states.shape[0]
    out = np.zeros((m, 2), dtype=np.float64)
    for blk in prange(m):
        s = np.zeros(4, dtype=np.uint64)
        stats = np.zeros((2, NA), dtype=np.float64)
        g = np.zeros((states.shape[1], states.shape[2]), dtype=np.int64)
        for t in range(counts[blk]):
            p = t % npos
            seed_trial(keys[blk], t, s)
            g[:, :] = states[p]
            a = tree_search(g, seats[p], bots, 0, helds[p], N_RS, 0, pts, per_card, copies,
                            rules, roll_tab, after_tab, s, stats)
            out[blk, 0] += 1.0
            out[blk, 1] += a
    return out
