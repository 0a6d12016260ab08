"""Pig games of two "hold at H" policies, many games in lock-step: the SIMD form of
:func:`kernels.pig.game.play_game_thresholds`.

Model: as ``kernels/pig/game.py`` (trial ``t`` is one whole game on its own xoshiro256** stream,
two faces per 64-bit draw, high half first; a game's unused half at its end is dropped).

Algorithm. A game's rolls are a serial chain (each draw depends on the last), so one game at a
time leaves most of a core idle. Here :data:`LANES` games advance together: each step draws one
64-bit word per lane and applies its two faces to that lane's game with branch-free selects
(bust: turn total 0; turn over when bust or total ≥ limit; a win ends the lane's game and its
second face is ignored), which LLVM turns into vector instructions across lanes. A lane whose
game has ended idles; once :data:`REFILL_AT` lanes have (or no trial is left to start), a scalar
pass adds their (winner, turns, rolls) to the block's sums and seeds them with the next trials
(a pass over all lanes every few steps instead of after almost every step). Faces are
multiply-shift values with Lemire's rejection flag (``kernels.rng.face_flag``): a game in
which any face it used would have been rejected is put aside and replayed by the exact scalar
game afterwards (probability about rolls × 4 / 2³² per game for a d6), so every game's result
is the exact one and the block's integer sums are those of the one-game-at-a-time loop, bit for
bit (tested, including a forced replay of every game).

State: one uint64 array ``Z[field, lane]`` (one array, so the compiler sees that the fields do
not overlap); the player to move's score ``A``, the other's ``B`` (swapped at each turn's end),
the seat to move, the turn total, its limit min(H, goal − A), turns, rolls, the rejection flag,
and whether the lane is active / has finished (set until the refill pass records the game).
"""
import numpy as np
from numba import njit

from kernels.rng import bounded_pair, face_flag, seed_words, xoshiro

LANES = 64
#: refill the lanes once this many games have ended (or when no trial is left to start)
REFILL_AT = 4
_U0 = np.uint64(0)
_U1 = np.uint64(1)
_M32 = np.uint64(0xFFFFFFFF)
(Z_S0, Z_S1, Z_S2, Z_S3, Z_A, Z_B, Z_SEAT, Z_K, Z_LIM, Z_TURNS, Z_ROLLS, Z_REJ, Z_ACTIVE,
 Z_DONE) = range(14)
NZ = 14


@njit(cache=True, inline="always")
def _pick(c, a, b):
    """``a`` if the 0/1 word ``c`` is 1 else ``b``, without a branch."""
    m = _U0 - c
    return (a & m) | (b & ~m)


@njit(cache=True, inline="always")
def tally(acc, w, first, turns, rolls):
    """Add one game (winner ``w``, first mover ``first``) to the sums ``acc`` of
    :data:`kernels.pig.game.GAME_COLUMNS`."""
    acc[0] += 1 if w == first else 0
    acc[1] += turns
    acc[2] += rolls
    acc[3] += 1 if w == 0 else 0
    acc[4] += turns * turns
    acc[5] += rolls * rolls


@njit(cache=True, inline="always")
def _start(Z, lane, k0, k1, k2, k3, t, first, limit):
    s0, s1, s2, s3 = seed_words(k0, k1, k2, k3, t)
    Z[Z_S0, lane] = s0
    Z[Z_S1, lane] = s1
    Z[Z_S2, lane] = s2
    Z[Z_S3, lane] = s3
    Z[Z_SEAT, lane] = np.uint64(first)
    Z[Z_A, lane] = _U0
    Z[Z_B, lane] = _U0
    Z[Z_K, lane] = _U0
    Z[Z_LIM, lane] = np.uint64(limit)
    Z[Z_TURNS, lane] = _U1
    Z[Z_ROLLS, lane] = _U0
    Z[Z_REJ, lane] = _U0
    Z[Z_ACTIVE, lane] = _U1


@njit(cache=True, inline="always")
def _step(Z, lane, faces, bust_faces, goal, hold0, hold1, thr):
    """One 64-bit draw of one lane: its two faces applied to the lane's game (module doc)."""
    s0 = Z[Z_S0, lane]
    s1 = Z[Z_S1, lane]
    s2 = Z[Z_S2, lane]
    s3 = Z[Z_S3, lane]
    x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    Z[Z_S0, lane] = s0
    Z[Z_S1, lane] = s1
    Z[Z_S2, lane] = s2
    Z[Z_S3, lane] = s3
    active = Z[Z_ACTIVE, lane]
    a = Z[Z_A, lane]
    b = Z[Z_B, lane]
    seat = Z[Z_SEAT, lane]
    k = Z[Z_K, lane]
    lim = Z[Z_LIM, lane]
    turns = Z[Z_TURNS, lane]
    rolls = Z[Z_ROLLS, lane]
    rej = Z[Z_REJ, lane]
    done = Z[Z_DONE, lane]  # sticky until the refill pass records the game
    for half in range(2):
        word = (x >> np.uint64(32)) if half == 0 else (x & _M32)
        face_i, flag = face_flag(word, faces, thr)
        face = np.uint64(face_i)
        on = active & (_U1 ^ done)
        rolls += on
        rej |= np.uint64(flag) & on
        bust = np.uint64(face < bust_faces)
        total = _pick(bust, _U0, k + face + _U1)
        turn_over = bust | np.uint64(total >= lim)
        banked = a + total
        win = turn_over & np.uint64(banked >= goal) & on
        swap = turn_over & (_U1 ^ win) & on
        done |= win
        a_next = _pick(swap, b, _pick(win, banked, a))
        b = _pick(swap, banked, b)
        seat ^= swap
        k = _pick(on, _pick(turn_over, _U0, total), k)
        turns += swap
        hold = _pick(seat, hold1, hold0)
        room = goal - a_next
        lim = _pick(swap, _pick(np.uint64(hold < room), hold, room), lim)
        a = a_next
    Z[Z_A, lane] = a
    Z[Z_B, lane] = b
    Z[Z_SEAT, lane] = seat
    Z[Z_K, lane] = k
    Z[Z_LIM, lane] = lim
    Z[Z_TURNS, lane] = turns
    Z[Z_ROLLS, lane] = rolls
    Z[Z_REJ, lane] = rej
    Z[Z_DONE, lane] = done
    return done


@njit(cache=True, inline="always")
def play_game_thresholds(k0, k1, k2, k3, t, goal, faces, bust_faces, first, hold0, hold1):
    """One game of two "hold at H" policies, one roll at a time, exactly as
    :func:`kernels.pig.game.play_game` plays it (same draws, same results): the replay of a game
    put aside by :func:`threshold_games`."""
    s0, s1, s2, s3 = seed_words(k0, k1, k2, k3, t)
    player = first
    score0 = 0
    score1 = 0
    turns = 0
    rolls = 0
    buf = np.uint64(0)
    have = 0
    while True:
        turns += 1
        i = score0 if player == 0 else score1
        limit = min(hold0 if player == 0 else hold1, goal - i)
        k = 0
        while True:
            face, buf, have, s0, s1, s2, s3 = bounded_pair(faces, buf, have, s0, s1, s2, s3)
            rolls += 1
            if face < bust_faces:
                k = 0
                break
            k += face + 1
            if k >= limit:
                break
        if player == 0:
            score0 += k
            if score0 >= goal:
                return 0, turns, rolls
        else:
            score1 += k
            if score1 >= goal:
                return 1, turns, rolls
        player ^= 1


@njit(cache=True)
def threshold_games(k0, k1, k2, k3, count, goal, faces, bust_faces, alternate, hold0, hold1,
                    thr):
    """Games 0 … count − 1 of a block (key words k0..k3) between "hold at hold0" (seat 0) and
    "hold at hold1"; seat ``t mod 2`` starts game t when ``alternate``, else seat 0. ``thr`` is
    ``kernels.rng.lemire_threshold(faces)`` (2**32 flags every face, so every game is replayed
    by :func:`play_game_thresholds`: a test of the replay).
    Returns the sums (first mover wins, turns, rolls, seat 0 wins, Σturns², Σrolls²) as an
    int64 array."""
    Z = np.zeros((NZ, LANES), dtype=np.uint64)
    trial = np.full(LANES, -1, dtype=np.int64)
    redo = np.zeros(count, dtype=np.int64)
    nredo = 0
    uf = np.uint64(faces)
    ub = np.uint64(bust_faces)
    ug = np.uint64(goal)
    h0 = np.uint64(hold0)
    h1 = np.uint64(hold1)
    nxt = 0
    acc = np.zeros(6, dtype=np.int64)
    for lane in range(LANES):
        Z[Z_DONE, lane] = _U1
    finished = np.int64(LANES)
    while True:
        if finished >= REFILL_AT or (finished > 0 and nxt >= count):
            # record the lanes' finished games and start the next trials
            busy = 0
            for lane in range(LANES):
                if Z[Z_DONE, lane] == _U1:
                    t = trial[lane]
                    if t >= 0 and Z[Z_REJ, lane] != _U0:
                        redo[nredo] = t
                        nredo += 1
                    elif t >= 0:
                        tally(acc, np.int64(Z[Z_SEAT, lane]), (t & 1) if alternate else 0,
                              np.int64(Z[Z_TURNS, lane]), np.int64(Z[Z_ROLLS, lane]))
                    if nxt < count:
                        first = (nxt & 1) if alternate else 0
                        _start(Z, lane, k0, k1, k2, k3, nxt, first,
                               min(hold0 if first == 0 else hold1, goal))
                        trial[lane] = nxt
                        nxt += 1
                    else:
                        trial[lane] = -1
                        Z[Z_ACTIVE, lane] = _U0
                    Z[Z_DONE, lane] = _U0
                busy += np.int64(Z[Z_ACTIVE, lane])
            if busy == 0:
                break
        finished = 0
        for lane in range(LANES):
            finished += np.int64(_step(Z, lane, uf, ub, ug, h0, h1, thr))
    for i in range(nredo):
        t = redo[i]
        first = (t & 1) if alternate else 0
        w, tu, ro = play_game_thresholds(k0, k1, k2, k3, t, goal, faces, bust_faces, first,
                                         hold0, hold1)
        tally(acc, w, first, tu, ro)
    return acc
