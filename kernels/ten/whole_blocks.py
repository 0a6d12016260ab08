"""Ten whole games, block drivers: fresh games for `ten game`, positions for `ten decide`.

``game_blocks`` plays ``counts[b]`` games per block ``b`` (parallel over blocks with ``prange``;
rows reduced by the runner in block order) for each of K line-ups on the same trial stream
(common random numbers: the same shuffled deck), and returns float64[blocks, K·LW + (K−1)·DW]
sums named in ``layout.LINEUP_COLUMNS`` / ``layout.DIFF_COLUMNS``.

``position_blocks`` plays from a position: each trial shuffles the unseen cards into the draw
pile (the pile's order is the only hidden thing in Ten, and it is uniform given what was seen)
and plays one game per choice in ``choices`` (forced codes F_*, whole_layout.py) on the same pile
and the same stream (common random numbers), recording the win share w_k of seat ``me``;
columns: per choice k Σw_k, then Σ w_i·w_j for every i ≤ j in row order ((0, 0), (0, 1), …,
(0, K−1), (1, 1), …; ``cross_column``), from which every paired difference w_i − w_j has its
Σd = Σw_i − Σw_j and Σd² = Σw_i² − 2Σw_i·w_j + Σw_j².

Arrays: ``base`` int8[R] the deck (or the unseen cards) in a fixed order; ``deck`` int64[55] the
whole game's card counts; ``rl`` int64[NRULE]; ``bots`` float64[K, P, NB]; ``tabs`` the scoring
tables of ``score.run_tables``; ``dec`` uint8[M, cap + 1, A, B], ``nchild`` int32[A, 9],
``cchild`` int32[B, 5] the exact one-turn tables (dummies when no seat uses them).
"""
import numpy as np
from numba import njit, prange, types

from kernels.engine_arg import EngineDriver
from kernels.rng import randint, seed_trial
from kernels.ten.whole_engine import play_game
from kernels.ten.whole_score import WS_SIZE
from kernels.ten.whole_layout import (
    DW, F_NONE, G_AUCTIONS, G_PRICE, G_SCORE, G_WIN, LW, NREC, NTYPES, PRICE_COL, R_BUSTS,
    R_START, R_TOKENS, REC_COL, ROW_PILE, TK_BSUP, TK_SCORE, TK_SUP, NTK)


@njit(cache=True, _nrt=False)
def shuffle(pile, base, s):
    """Copy ``base`` into ``pile`` and shuffle it by Fisher–Yates (last position first)."""
    n = base.shape[0]
    for i in range(n):
        pile[i] = base[i]
    for i in range(n - 1, 0, -1):
        j = randint(s, i + 1)
        x = pile[i]
        pile[i] = pile[j]
        pile[j] = x


@njit(cache=True, _nrt=False)
def new_game(pile, base, cards, tk, deck, rl, P, s):
    """A fresh game: shuffled pile, empty collections and market, starting tokens."""
    shuffle(pile, base, s)
    for r in range(cards.shape[0]):
        for t in range(NTYPES):
            cards[r, t] = 0
    for t in range(NTYPES):
        cards[ROW_PILE, t] = deck[t]
    for i in range(tk.shape[0]):
        tk[i] = 0
    for q in range(P):
        tk[q] = rl[R_START]
    tk[TK_SUP] = rl[R_TOKENS] - P * rl[R_START]
    tk[TK_BSUP] = rl[R_BUSTS]
    for q in range(5):
        tk[TK_SCORE + q] = -1


@njit(cache=True, _nrt=False)
def add_game(acc, rec, k, K, P, ref):
    """Add the record of line-up k's game (of K) to the block's sums: games, Σx and Σx² of every
    record field, Σprice·auctions; line-up 0's wins and scores into ``ref``, and for k > 0 the
    paired differences (line-up 0 minus line-up k) per seat, Σd and Σd²."""
    o = k * LW
    acc[o] += 1.0
    for i in range(NREC):  # the layout places every field's Σx, Σx² (REC_COL) and Σprice·auctions
        acc[o + REC_COL[i]] += rec[i]
        acc[o + REC_COL[i] + 1] += rec[i] * rec[i]
    acc[o + PRICE_COL] += rec[G_PRICE] * rec[G_AUCTIONS]
    if k == 0:
        for q in range(P):
            ref[q] = rec[G_WIN + q]
            ref[P + q] = rec[G_SCORE + q]
    else:
        o = K * LW + (k - 1) * DW
        for q in range(P):
            dw = ref[q] - rec[G_WIN + q]
            ds = ref[P + q] - rec[G_SCORE + q]
            acc[o + 4 * q] += dw
            acc[o + 4 * q + 1] += dw * dw
            acc[o + 4 * q + 2] += ds
            acc[o + 4 * q + 3] += ds * ds


def _game_blocks(play, keys, counts, base, deck, P, rl, bots, tabs, dec, nchild, cchild):
    """Whole games from a fresh deck for K line-ups on common random numbers (module doc), each
    played by ``play`` (the engine's ``play_game``, a first-class function argument)."""
    nb = keys.shape[0]
    K = bots.shape[0]
    out = np.zeros((nb, K * LW + (K - 1) * DW), dtype=np.float64)
    for b in prange(nb):
        pile = np.empty_like(base)
        cards = np.zeros((9, NTYPES), dtype=np.int64)
        tk = np.zeros(NTK, dtype=np.int64)
        s = np.zeros(4, dtype=np.uint64)
        ws = np.zeros(WS_SIZE, dtype=np.int64)
        rec = np.zeros(NREC, dtype=np.float64)
        ref = np.zeros(2 * P, dtype=np.float64)
        acc = np.zeros(out.shape[1], dtype=np.float64)
        for t in range(counts[b]):
            for k in range(K):
                seed_trial(keys[b], t, s)
                new_game(pile, base, cards, tk, deck, rl, P, s)
                play(pile, ZERO, ZERO, NONE, P, cards, tk, rl, bots[k], s, tabs, ws, dec, nchild,
                     cchild, deck, rec)
                add_game(acc, rec, k, K, P, ref)
        for c in range(out.shape[1]):
            out[b, c] = acc[c]
    return out


@njit(cache=True)
def game_details(key, n, base, deck, P, rl, bots, tabs, dec, nchild, cchild):
    """Games 0..n−1 of block ``key`` under one line-up (bots[0]), one at a time: per-game
    records float64[n, NREC], final card rows int64[n, 9, 55] and tokens int64[n, NTK]."""
    recs = np.zeros((n, NREC), dtype=np.float64)
    finals = np.zeros((n, 9, NTYPES), dtype=np.int64)
    toks = np.zeros((n, NTK), dtype=np.int64)
    pile = np.empty_like(base)
    cards = np.zeros((9, NTYPES), dtype=np.int64)
    tk = np.zeros(NTK, dtype=np.int64)
    s = np.zeros(4, dtype=np.uint64)
    ws = np.zeros(WS_SIZE, dtype=np.int64)
    for t in range(n):
        seed_trial(key, t, s)
        new_game(pile, base, cards, tk, deck, rl, P, s)
        # int64 constants, as the drivers pass them: the compile of play_game they use
        play_game(pile, ZERO, ZERO, NONE, P, cards, tk, rl, bots[0], s, tabs, ws, dec, nchild,
                  cchild, deck, recs[t])
        finals[t] = cards
        toks[t] = tk
    return recs, finals, toks


def _position_blocks(play, keys, counts, unseen, deal, cards0, tk0, active, me, choices, deck, P,
                     rl, bots, tabs, dec, nchild, cchild):
    """Playouts of a position for each choice on the same piles and streams (module doc); with
    ``deal`` 0 the pile is ``unseen`` as given, in draw order (a known pile: calibrate's truth).
    Each game is played by ``play`` (the engine's ``play_game``, a first-class function)."""
    nb = keys.shape[0]
    K = choices.shape[0]
    out = np.zeros((nb, K + K * (K + 1) // 2), dtype=np.float64)
    for b in prange(nb):
        pile = np.empty_like(unseen)
        cards = np.zeros((9, NTYPES), dtype=np.int64)
        tk = np.zeros(NTK, dtype=np.int64)
        s = np.zeros(4, dtype=np.uint64)
        ws = np.zeros(WS_SIZE, dtype=np.int64)
        rec = np.zeros(NREC, dtype=np.float64)
        w = np.zeros(K, dtype=np.float64)
        acc = np.zeros(out.shape[1], dtype=np.float64)
        for t in range(counts[b]):
            for k in range(K):
                seed_trial(keys[b], t, s)
                if deal == 1:
                    shuffle(pile, unseen, s)
                else:
                    for i in range(unseen.shape[0]):
                        pile[i] = unseen[i]
                cards[:, :] = cards0
                tk[:] = tk0
                play(pile, ZERO, active, choices[k], P, cards, tk, rl, bots, s, tabs, ws, dec,
                     nchild, cchild, deck, rec)
                w[k] = rec[G_WIN + me]
            c = K
            for i in range(K):
                acc[i] += w[i]
                for j in range(i, K):
                    acc[c] += w[i] * w[j]
                    c += 1
        for c in range(out.shape[1]):
            out[b, c] = acc[c]
    return out


def cross_column(K: int, i: int, j: int) -> int:
    """The column of Σ w_i·w_j (i, j < K, either order) in ``position_blocks``' output."""
    i, j = min(i, j), max(i, j)
    return K + i * K - i * (i - 1) // 2 + (j - i)


ZERO = np.int64(0)  # a first-class call matches argument types exactly: no literal constants
NONE = np.int64(F_NONE)


def play_game_type(pile, P, rl, bots, tabs, dec, nchild, cchild, deck):
    """``FunctionType`` of whole_engine.py ``play_game`` for a pile of type ``pile``, one seat
    row set ``bots`` and these table types (Numba types); the position, scratch and record
    arrays are C-ordered int64, uint64 and float64 (as the drivers allocate them); it returns
    int64."""
    i64 = types.int64
    sig = i64(pile, i64, i64, i64, P, types.Array(i64, 2, "C"), types.Array(i64, 1, "C"), rl,
              bots, types.Array(types.uint64, 1, "C"), tabs, types.Array(i64, 1, "C"), dec,
              nchild, cchild, deck, types.Array(types.float64, 1, "C"))
    return types.FunctionType(sig)


def _pile(t):
    return types.Array(t.dtype, 1, "C")  # np.empty_like of a 1-d array: C-ordered


#: the drivers, compiled once per argument types (kernels/engine_arg.py): the engine's compile
#: is not linked into them, and one compile of ``play_game`` (int64 arguments) serves both
GAMES = EngineDriver(_game_blocks, lambda t: play_game_type(
    _pile(t[2]), t[4], t[5], types.Array(t[6].dtype, 2, "C" if t[6].layout == "C" else "A"),
    t[7], t[8], t[9], t[10], t[3]), types.Array(types.float64, 2, "C"))  # bots[k]: one line-up
POSITIONS = EngineDriver(_position_blocks, lambda t: play_game_type(
    _pile(t[2]), t[10], t[11], t[12], t[13], t[14], t[15], t[16], t[9]),
    types.Array(types.float64, 2, "C"))
game_blocks = GAMES.bind(play_game)
position_blocks = POSITIONS.bind(play_game)
