"""Pig: whole-game simulation kernels.

Model
-----
Two players race to ``goal`` points. A turn rolls a ``faces``-sided die repeatedly; any of the
``bust_faces`` lowest faces (face 1 by default) ends the turn with nothing (a bust); any other face
``f`` adds ``f`` to the turn total; holding banks the turn total. A turn always starts with a roll.

Simulation
----------
A policy is either a threshold ("hold at H": roll while k < H and i + k < goal) or a table as
produced by the exact solver (kernels/pig/exact.py; ``table[i, j, k]`` uint8, 1 roll, 0 hold).
Each game is one trial with its own random stream (kernels/rng.py); trial ``t`` of a block starts
with player ``t mod 2`` when ``alternate`` is set, else player 0.
Per-block sums of :func:`simulate_blocks`: :data:`GAME_COLUMNS`; of :func:`paired_blocks`:
:data:`PAIRED_COLUMNS`; of :func:`balance_blocks` (the figures a designer reads: seat wins, busts,
the winner's margin, lead changes and the leader three quarters of the way through, by turns;
kernels/lead.py): :data:`BALANCE_COLUMNS`.
"""
import numpy as np
from numba import njit, prange

from kernels.lead import lead_note, lead_reset, leader_at_three_quarters
from kernels.pig.lanes import tally, threshold_games
from kernels.rng import bounded_pair, lemire_threshold, seed_words

KIND_THRESHOLD = 0
KIND_TABLE = 1
#: Columns of :func:`simulate_blocks`' per-block sums.
GAME_COLUMNS = ("first_mover_wins", "turns", "rolls", "seat0_wins", "turns2", "rolls2")
#: Columns of :func:`paired_blocks`' per-block sums (d = seat 0 wins under A − under B).
PAIRED_COLUMNS = ("seat0_wins_a", "seat0_wins_b", "sum_d", "sum_d2")
NSUMS = len(GAME_COLUMNS)
#: game-length histogram of :func:`balance_blocks`: games of 1 … NLEN − 1 turns, then NLEN or more
NLEN = 80
#: Columns of :func:`balance_blocks`' per-block sums: games; seat 0's wins; Σ and Σ² of turns,
#: busts (and Σ busts·turns), lead changes and the winner's margin (final points minus the loser's); games with a
#: strict leader after turn ceil(3T/4) and how many of them that leader won; then the turns
#: histogram ``turns_1`` … ``turns_{NLEN-1}``, ``turns_{NLEN}+``.
BALANCE_COLUMNS = (("games", "seat0_wins", "turns", "turns_sq", "busts", "busts_sq",
                    "busts_x_turns", "lead_changes", "lead_changes_sq", "margin", "margin_sq",
                    "leader_3q", "leader_3q_wins")
                   + tuple(f"turns_{k}" for k in range(1, NLEN)) + (f"turns_{NLEN}+",))
#: turns whose leader is kept for the three-quarter mark (games are far shorter: see NLEN)
TRACE_CAP = 4096


@njit(cache=True, inline="always")
def play_game(k0, k1, k2, k3, t, goal, faces, bust_faces, first,
              kind0, hold0, table0, kind1, hold1, table1, trace):
    """One whole game on trial ``t``'s stream (block key words k0..k3); returns (winning seat,
    turns, rolls, busts, the winner's margin). With a non-empty ``trace`` (kernels/lead.py) the
    strict leader after each turn is recorded there.

    Die faces come two per 64-bit draw (the high and low 32-bit halves), each exactly uniform.
    """
    traced = trace.shape[0] > 0
    s0, s1, s2, s3 = seed_words(k0, k1, k2, k3, t)
    player = first
    score0 = 0
    score1 = 0
    turns = 0
    rolls = 0
    busts = 0
    buf = np.uint64(0)
    have = 0
    while True:
        turns += 1
        if player == 0:
            i = score0
            j = score1
            kind = kind0
            hold_at = hold0
            table = table0
        else:
            i = score1
            j = score0
            kind = kind1
            hold_at = hold1
            table = table1
        k = 0
        limit = min(hold_at, goal - i)
        while True:
            face, buf, have, s0, s1, s2, s3 = bounded_pair(faces, buf, have, s0, s1, s2, s3)
            face += 1
            rolls += 1
            if face <= bust_faces:
                k = 0
                busts += 1
                break
            k += face
            if kind == KIND_THRESHOLD:
                if k >= limit:
                    break
            elif i + k >= goal or table[i, j, k] == 0:
                break
        if player == 0:
            score0 += k
        else:
            score1 += k
        if traced:
            lead_note(trace, turns - 1, 0 if score0 > score1 else (1 if score1 > score0 else -1))
        if score0 >= goal:
            return 0, turns, rolls, busts, score0 - score1
        if score1 >= goal:
            return 1, turns, rolls, busts, score1 - score0
        player = 1 - player


@njit(cache=True)
def _games(k0, k1, k2, k3, count, goal, faces, bust_faces, alternate,
           kind0, hold0, table0, kind1, hold1, table1):
    """Games 0 … count − 1 of a block one at a time; the sums of :data:`GAME_COLUMNS`."""
    acc = np.zeros(NSUMS, dtype=np.int64)
    untraced = np.zeros(0, dtype=np.int64)
    for t in range(count):
        first = (t & 1) if alternate else 0
        w, tu, ro, _bu, _ma = play_game(k0, k1, k2, k3, t, goal, faces, bust_faces, first,
                                        kind0, hold0, table0, kind1, hold1, table1, untraced)
        tally(acc, w, first, tu, ro)
    return acc


@njit(cache=True, parallel=True)
def simulate_blocks(keys, counts, goal, faces, bust_faces, alternate,
                    kind0, hold0, table0, kind1, hold1, table1, force_general=False):
    """Per-block sums over games.

    Columns: 0 games won by the player who moved first, 1 turns, 2 rolls, 3 games won by seat 0,
    4 Σturns², 5 Σrolls² (per game, for the standard errors of the means).
    Seat 0 plays policy 0 and moves first unless ``alternate`` (then seat ``t mod 2`` starts).
    Two threshold policies take the lock-step loop of kernels/pig/lanes.py, which gives the same
    sums (``force_general`` disables it, for tests).
    """
    m = keys.shape[0]
    out = np.zeros((m, NSUMS), dtype=np.float64)
    both_thresholds = kind0 == KIND_THRESHOLD and kind1 == KIND_THRESHOLD and not force_general
    thr = lemire_threshold(faces)
    for b in prange(m):
        k0, k1, k2, k3 = keys[b, 0], keys[b, 1], keys[b, 2], keys[b, 3]
        if both_thresholds:  # many games in lock-step (kernels/pig/lanes.py), same sums
            sums = threshold_games(k0, k1, k2, k3, counts[b], goal, faces, bust_faces,
                                   alternate, hold0, hold1, thr)
        else:
            sums = _games(k0, k1, k2, k3, counts[b], goal, faces, bust_faces, alternate,
                          kind0, hold0, table0, kind1, hold1, table1)
        for j in range(NSUMS):
            out[b, j] = sums[j]
    return out


@njit(cache=True, parallel=True)
def paired_blocks(keys, counts, goal, faces, bust_faces,
                  a_kind0, a_hold0, a_table0, a_kind1, a_hold1, a_table1,
                  b_kind0, b_hold0, b_table0, b_kind1, b_hold1, b_table1):
    """Two policy pairs on the same trials (common random numbers), seat 0 moving first.

    Columns: 0 wins of seat 0 under pair A, 1 under pair B, 2 Σd, 3 Σd² with d = w_A − w_B.
    """
    m = keys.shape[0]
    out = np.zeros((m, 4), dtype=np.float64)
    for b in prange(m):
        wa = 0
        wb = 0
        sd = 0
        sd2 = 0
        k0, k1, k2, k3 = keys[b, 0], keys[b, 1], keys[b, 2], keys[b, 3]
        untraced = np.zeros(0, dtype=np.int64)
        for t in range(counts[b]):
            x = play_game(k0, k1, k2, k3, t, goal, faces, bust_faces, 0,
                          a_kind0, a_hold0, a_table0, a_kind1, a_hold1, a_table1, untraced)[0]
            y = play_game(k0, k1, k2, k3, t, goal, faces, bust_faces, 0,
                          b_kind0, b_hold0, b_table0, b_kind1, b_hold1, b_table1, untraced)[0]
            ia = 1 if x == 0 else 0
            ib = 1 if y == 0 else 0
            wa += ia
            wb += ib
            sd += ia - ib
            sd2 += (ia - ib) * (ia - ib)
        out[b, 0] = wa
        out[b, 1] = wb
        out[b, 2] = sd
        out[b, 3] = sd2
    return out


@njit(cache=True, parallel=True)
def balance_blocks(keys, counts, goal, faces, bust_faces, kind0, hold0, table0, kind1, hold1,
                   table1):
    """Per-block sums of :data:`BALANCE_COLUMNS`, seat 0 moving first in every game (trial
    ``t``'s stream, the same games as :func:`simulate_blocks` without ``alternate``)."""
    m = keys.shape[0]
    ncol = len(BALANCE_COLUMNS)
    out = np.zeros((m, ncol), dtype=np.float64)
    for b in prange(m):
        k0, k1, k2, k3 = keys[b, 0], keys[b, 1], keys[b, 2], keys[b, 3]
        trace = np.zeros(2 + TRACE_CAP, dtype=np.int64)
        for t in range(counts[b]):
            lead_reset(trace)
            w, tu, _ro, bu, ma = play_game(k0, k1, k2, k3, t, goal, faces, bust_faces, 0,
                                           kind0, hold0, table0, kind1, hold1, table1, trace)
            changes = trace[1]
            row = out[b]
            row[0] += 1
            row[1] += 1 if w == 0 else 0
            row[2] += tu
            row[3] += tu * tu
            row[4] += bu
            row[5] += bu * bu
            row[6] += bu * tu
            row[7] += changes
            row[8] += changes * changes
            row[9] += ma
            row[10] += ma * ma
            lead = leader_at_three_quarters(trace, tu)
            if lead >= 0:
                row[11] += 1
                row[12] += 1 if lead == w else 0
            row[13 + min(tu, NLEN) - 1] += 1
    return out
