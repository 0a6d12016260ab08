"""Railroad Canasta: the one parallel Monte Carlo driver, ``mc_blocks``, over the block functions
of kernels/canasta/trials.py (one per mode: whole games, independent rounds, meld odds,
decisions).

The driver takes the mode's block function as a first-class function (kernels/engine_arg.py),
so a command compiles the driver and its own mode's trials only: a decision used to compile
every mode's trials, re-optimised inside one driver (28 s from a cold cache), and now the driver
and its block function compile at once in two processes (kernels/compile_ahead.py). Same
sums: the block functions run the same trials on the same streams.
"""
import numpy as np
from numba import prange, types

from kernels.canasta.engine import NV, R_NP
from kernels.canasta.trials import (GAME_EXTRA, MODE_DECIDE, MODE_GAMES, MODE_MELD,
                                    MODE_ROUNDS, NROUNDSTAT, decide_block, games_block,
                                    meld_block, rounds_block)
from kernels.engine_arg import EngineDriver


def _mc_blocks(block, keys, counts, rp, pol, thr, reqv, score, turns, pos_hand, pos_kit_on,
               pos_un, pos_can, pos_pl, pile0, g0, unseen, opp_sizes, stock_n, skip_draw, kind):
    """The parallel driver of :func:`mc_blocks`: blocks in parallel (``prange``), each by the
    mode's block function ``block`` (a first-class function, kernels/engine_arg.py)."""
    m = keys.shape[0]
    P = rp[R_NP]
    width = max(4 + P + 3 * NROUNDSTAT + 2 + GAME_EXTRA, 3 + 2 * NROUNDSTAT, 2 + turns, 12)
    res = np.zeros((m, width + NV), dtype=np.float64)
    for b in prange(m):
        block(keys[b], counts[b], rp, pol, thr, reqv, score, turns, pos_hand, pos_kit_on,
              pos_un, pos_can, pos_pl, pile0, g0, unseen, opp_sizes, stock_n, skip_draw, kind,
              width, res[b])
    return res


def block_type(t):
    """``FunctionType`` of a block function called by :func:`_mc_blocks` with arguments of
    types ``t`` (keys, counts, then the rest as passed): a row of ``keys``, an item of
    ``counts``, the rest unchanged, the int64 width and a C-ordered float64 row of the result."""
    row = types.Array(t[0].dtype, 1, "C" if t[0].layout == "C" else "A")
    return types.FunctionType(types.void(row, t[1].dtype, *t[2:], types.int64,
                                         types.Array(types.float64, 1, "C")))


#: compiled once per argument types (kernels/engine_arg.py): a mode compiles its own block
#: function and its trials only, and the driver none of them
DRIVER = EngineDriver(_mc_blocks, block_type, types.Array(types.float64, 2, "C"))
BLOCKS = {MODE_GAMES: games_block, MODE_ROUNDS: rounds_block, MODE_MELD: meld_block,
          MODE_DECIDE: decide_block}
_BOUND = {}


def mc_blocks(keys, counts, mode, rp, pol, thr, reqv, score, turns, pos_hand, pos_kit_on,
              pos_un, pos_can, pos_pl, pile0, g0, unseen, opp_sizes, stock_n, skip_draw, kind):
    """One parallel driver for every Monte Carlo question: ``mode`` selects whole games,
    independent rounds, meld odds or a decision (column layouts in the trial functions), by
    its block function. Blocks run in parallel, trials within a block serially. The last NV
    columns hold the rule-violation counters of the block. Returns float64[blocks, width +
    NV], ``width`` the widest mode's columns (the same for every mode)."""
    bound = _BOUND.get(mode)
    if bound is None:
        bound = _BOUND[mode] = DRIVER.bind(BLOCKS[mode])
    return bound(keys, counts, rp, pol, thr, reqv, score, turns, pos_hand, pos_kit_on, pos_un,
                 pos_can, pos_pl, pile0, g0, unseen, opp_sizes, stock_n, skip_draw, kind)
