"""Numba kernels of Pig: the exact value-iteration solver (:mod:`.exact`) and the whole-game
simulation (:mod:`.game`: one game per trial, threshold or table policies, paired runs on common
random numbers). Only the entry points and the column names are re-exported here; the per-game
loops are helpers of :mod:`.game`.
"""
from kernels.pig.exact import solve_pig
from kernels.pig.game import (GAME_COLUMNS, KIND_TABLE, KIND_THRESHOLD, NSUMS, PAIRED_COLUMNS,
                              paired_blocks, simulate_blocks)

__all__ = ["solve_pig", "simulate_blocks", "paired_blocks", "GAME_COLUMNS", "PAIRED_COLUMNS",
           "KIND_THRESHOLD", "KIND_TABLE", "NSUMS"]
