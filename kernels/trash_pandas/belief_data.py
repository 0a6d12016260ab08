"""Self-play data for the belief about unseen cards (kernels/trash_pandas/belief.py).

What belongs here: the two kernels the belief is learned from (analyzer/games/trash_pandas/
belief.py does the learning): :func:`turn_snapshots` plays whole games and keeps the full state at
the start of some turns, and :func:`hidden_splits` gives, for each kept state, the split of the
cards its active seat could not see (opponents' hands and face-down stashes) beside ``k`` splits
drawn from the base measure of the belief (the rule-only belief: a uniform deal in which face-down
stashes hold only what their bots would stash), which the learning contrasts them with.

Games: seat 0 starts, every seat plays by its bot row (whole.py's engine, one stream per game:
``seed_trial(keys[block], game)``); the state at the start of turn ``k`` (k = 0, 1, …) of game
``i`` of the run is kept when ``(k + i) mod stride == 0``, at most ``cap`` per game, with the seat
whose turn starts. A table bot's line-up runs the rule-table engine's twin
(:data:`turn_snapshots_tables`).
"""
import numpy as np
from numba import njit, prange

from kernels.rng import seed_trial
from kernels.trash_pandas import whole as W
from kernels.trash_pandas import whole_tables as T
from kernels.trash_pandas.belief import public_view, sample_world
from kernels.trash_pandas.layout import HAND, MAXP, NROWS, NT, SC, STASH, UP
from kernels.twin import twin


@njit(cache=True, parallel=True)
def turn_snapshots(keys, counts, first, players, copies, pts, per_card, deal, rules, bots,
                   roll_tab, after_tab, stride, cap, states, seats, kept):
    """Play the games of the blocks (game index ``first[b] + j`` for game j of block b) and
    write the kept states (module doc) into ``states[i·cap + c]`` (int16[·, 19, 8]), their
    seats into ``seats`` and the number kept of game i into ``kept[i]``."""
    for blk in prange(keys.shape[0]):
        g = np.zeros((NROWS, NT), dtype=np.int64)
        s = np.zeros(4, dtype=np.uint64)
        acc = np.zeros(W.NACC, dtype=np.float64)
        w = np.zeros(16, dtype=np.int64)
        for j in range(counts[blk]):
            i = first[blk] + j
            seed_trial(keys[blk], j, s)
            W.setup(g, players, copies, deal, s)
            a = 0
            turn = 0
            n = 0
            while True:
                if (turn + i) % stride == 0 and n < cap:
                    states[i * cap + n, :, :] = g
                    seats[i * cap + n] = a
                    n += 1
                play_turn(g, a, 0, 0, W.ENTRY_ROLL, 0, 0, bots, pts, per_card, copies, rules,
                          roll_tab, after_tab, acc, s, w)
                turn += 1
                if g[SC, 1] != 0 or turn >= rules[W.RULE_MAXTURNS]:
                    break
                a = (a + 1) % players
            kept[i] = n


play_turn = W.play_turn
turn_snapshots_tables = twin(turn_snapshots, "_tables", parallel=True, play_turn=T.play_turn)


@njit(cache=True, parallel=True)
def hidden_splits(states, seats, bp, key, k):
    """int8[n, k + 1, MAXP, 2, 8]: for state i, entry 0 is the true split of the cards seat
    ``seats[i]`` cannot see (``[q, 0, t]`` opponent q's hand, ``[q, 1, t]`` q's face-down stash)
    and entries 1..k splits drawn by :func:`sample_world` with ``bp`` on the stream of trial
    ``i·k + j`` of ``key``."""
    n = states.shape[0]
    out = np.zeros((n, k + 1, MAXP, 2, NT), dtype=np.int8)
    for i in prange(n):
        me = seats[i]
        g = states[i]
        view = np.zeros((NROWS, NT), dtype=np.int64)
        world = np.zeros((NROWS, NT), dtype=np.int64)
        pool = np.zeros(NT, dtype=np.int64)
        oh = np.zeros(MAXP, dtype=np.int64)
        od = np.zeros(MAXP, dtype=np.int64)
        s = np.zeros(4, dtype=np.uint64)
        public_view(g, me, view, pool, oh, od)
        for j in range(k + 1):
            if j == 0:
                world[:, :] = g
            else:
                seed_trial(key, i * k + j - 1, s)
                sample_world(world, view, pool, oh, od, me, bp, s)
            for q in range(g[SC, 2]):
                if q == me:
                    continue
                for t in range(NT):
                    out[i, j, q, 0, t] = world[HAND + q, t]
                    out[i, j, q, 1, t] = world[STASH + q, t] - world[UP + q, t]
    return out
