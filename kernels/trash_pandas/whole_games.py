"""Trash Pandas whole games in blocks: :func:`play_games` and its named sum columns.

Every game of a block is set up and played by kernels/trash_pandas/whole.py (model and random
numbers there); this module folds each game's figures into the block's sums, per line-up, with
the paired win-share differences between line-ups (common random numbers).
"""
import numpy as np
from numba import njit, prange, types

from kernels.rng import seed_trial
from kernels.engine_arg import EngineDriver
from kernels.trash_pandas.engine_arg import ZERO, continue_game_type
from kernels.trash_pandas.whole import (C_VIOL, COUNTERS, ENTRY_ROLL, NACC, NC, RULE_MAXTURNS,
                                        RULE_TIE, continue_game, outcome, setup)
from kernels.trash_pandas.whole_state import MAXP, NROWS, NT, rank_key
from kernels.widen import plain_types


def column_names(players: int, lineups: int) -> tuple:
    """Names of the sum columns of :func:`play_games` for ``lineups`` line-ups: per line-up l,
    ``L{l}:games``, per seat ``win{i}``/``win{i}_sq`` (win shares), ``pts{i}``/``pts{i}_sq``,
    ``margin``/``margin_sq``, ``turns``/``turns_sq``, ``rounds``/``rounds_sq``, ``tiebreak``,
    ``shared``, ``truncated``, ``violations``, then each counter and its ``_sq``, then games
    lasting ``rounds_1`` … ``rounds_{NHIST-1}`` and ``rounds_{NHIST}+`` rounds; after all
    line-ups, for l ≥ 1 and each seat, ``L{l}-L0:dwin{i}``/``_sq`` (paired win-share
    differences)."""
    base = ["games"]
    for i in range(MAXP):
        base += [f"win{i}", f"win{i}_sq"]
    for i in range(MAXP):
        base += [f"pts{i}", f"pts{i}_sq"]
    base += ["margin", "margin_sq", "turns", "turns_sq", "rounds", "rounds_sq", "tiebreak",
             "shared", "truncated", "violations"]
    for c in COUNTERS:
        base += [c, c + "_sq"]
    base += [f"rounds_{r}" for r in range(1, NHIST)] + [f"rounds_{NHIST}+"]
    cols = [f"L{l}:{c}" for l in range(lineups) for c in base]
    for l in range(1, lineups):
        for i in range(MAXP):
            cols += [f"L{l}-L0:dwin{i}", f"L{l}-L0:dwin{i}_sq"]
    return tuple(cols)


NHIST = 20  # game-length histogram buckets (rounds), the last one open-ended
NBASE = 1 + 4 * MAXP + 10 + 2 * NC + NHIST


@plain_types
@njit(cache=True)
def _fold(out, blk, base, players, scores, nwin, tied, margin, turns, truncated, acc, shares):
    """Add one game's figures to the block's sums starting at column ``base`` (names above)."""
    out[blk, base] += 1
    col = base + 1
    for i in range(MAXP):
        out[blk, col + 2 * i] += shares[i]
        out[blk, col + 2 * i + 1] += shares[i] * shares[i]
    col += 2 * MAXP
    for i in range(MAXP):
        out[blk, col + 2 * i] += scores[i]
        out[blk, col + 2 * i + 1] += scores[i] * scores[i]
    col += 2 * MAXP
    rounds = (turns + players - 1) // players
    vals = (float(margin), float(turns), float(rounds))
    for k in range(3):
        out[blk, col + 2 * k] += vals[k]
        out[blk, col + 2 * k + 1] += vals[k] * vals[k]
    col += 6
    out[blk, col] += tied
    out[blk, col + 1] += 1 if nwin > 1 else 0
    out[blk, col + 2] += 1 if truncated else 0
    out[blk, col + 3] += acc[C_VIOL]
    col += 4
    for c in range(NC):
        out[blk, col + 2 * c] += acc[c]
        out[blk, col + 2 * c + 1] += acc[c] * acc[c]
    col += 2 * NC
    out[blk, col + min(rounds, NHIST) - 1] += 1


def _play_games(cont, keys, counts, players, copies, pts, per_card, deal, rules, lineups,
                roll_tab, after_tab):
    """Whole games, per-block sums (columns: :func:`column_names`), each played to its end by
    ``cont``, an engine's ``continue_game`` (kernels/trash_pandas/engine_arg.py).

    keys int64/uint64[m, 4] block keys; counts int64[m] games per block; copies int64[8];
    pts int64[8, 3]; per_card int64[8]; deal int64[4] cards dealt to seat i; rules int64[11]
    (bonus turn 0/1, bonus cap, consolation 0 mandatory/1 optional, conservation check 0/1,
    turn cap, Mask card 0 to hand/1 to discard, Kitteh chains 0/1, tie 0 tie-breaks/1 shared,
    Feesh 0 any moment of the own turn/1 resolve only, lock 0 the active player's gains/1 every
    player's through the bonus turn, Shiny 0 any moment of the own turn/1 resolve only);
    lineups float64[L, 4, NK] bot knobs per line-up and seat; roll_tab/after_tab the solver
    tables (bots.py). Game t of a block replays the same stream for every line-up
    (common random numbers: the same deal, the same dice until the decisions differ).
    """
    m = keys.shape[0]
    nl = lineups.shape[0]
    ncol = nl * NBASE + (nl - 1) * 2 * MAXP
    out = np.zeros((m, ncol), dtype=np.float64)
    for blk in prange(m):
        g = np.zeros((NROWS, NT), dtype=np.int64)
        s = np.zeros(4, dtype=np.uint64)
        acc = np.zeros(NACC, dtype=np.float64)
        w = np.zeros(16, dtype=np.int64)
        scores = np.zeros(MAXP, dtype=np.int64)
        shares = np.zeros(MAXP, dtype=np.float64)
        first = np.zeros(MAXP, dtype=np.float64)
        for t in range(counts[blk]):
            for l in range(nl):
                seed_trial(keys[blk], t, s)
                acc[:] = 0.0
                setup(g, players, copies, deal, s)
                turns = cont(g, ZERO, ZERO, ZERO, ENTRY, ZERO, ZERO, lineups[l], pts, per_card,
                             copies, rules, roll_tab, after_tab, acc, s, w)
                nwin, tied, margin = outcome(g, players, pts, per_card, rules, w, scores)
                best = -1
                for i in range(players):
                    best = max(best, rank_key(g, scores, i, rules[RULE_TIE]))
                for i in range(MAXP):
                    shares[i] = 0.0
                    if i < players and rank_key(g, scores, i, rules[RULE_TIE]) == best:
                        shares[i] = 1.0 / nwin
                _fold(out, blk, l * NBASE, players, scores, nwin, tied, margin, turns,
                      turns > rules[RULE_MAXTURNS], acc, shares)
                if l == 0:
                    for i in range(MAXP):
                        first[i] = shares[i]
                else:
                    col = nl * NBASE + (l - 1) * 2 * MAXP
                    for i in range(MAXP):
                        d = shares[i] - first[i]
                        out[blk, col + 2 * i] += d
                        out[blk, col + 2 * i + 1] += d * d
    return out


ENTRY = np.int64(ENTRY_ROLL)


def _cont_type(t):
    """The type of ``cont`` for :func:`_play_games`'s other argument types ``t``: bot rows are
    one line-up of ``lineups``."""
    rows = types.Array(t[8].dtype, 2, "C" if t[8].layout == "C" else "A")  # lineups[l]
    return continue_game_type(rows, t[4], t[5], t[3], t[7], t[9], t[10])


#: the driver, compiled once per argument types whatever the engine (engine_arg.py)
DRIVER = EngineDriver(_play_games, _cont_type, types.Array(types.float64, 2, "C"))
#: whole games played by the plain engine (whole.py)
play_games = DRIVER.bind(continue_game)
