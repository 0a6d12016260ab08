"""MAGDAGDON kernels: the solo 4×4 dice-placement game on bitboards.

``board`` holds the board representation (cells and per-value bitboards), the exact depth-first
placement search and the heuristic board value H; ``exact`` the feasibility of every roll
multiset and the dynamic programme over powers (exact MAGDAGDON odds); ``policy`` the base
policies' choices (placement, power use, ruin cell) and the empty-board opening book; ``game``
whole games under a base policy or rollout:K; ``blocks`` the Monte Carlo block kernels the
runner calls. Rules reach every kernel as the plain-array tuple ``G`` built by
``analyzer.games.magdagdon.arrays.kernel_inputs``. Only the entry points are re-exported here.
"""
from kernels.magdagdon.blocks import best_blocks, feasibility_blocks, games_blocks
from kernels.magdagdon.board import (MAXD, P_GREEDY, P_MAX, P_MIN, P_ROLLOUT, P_STORE,
                                     feasible_fast, make_work, search)
from kernels.magdagdon.exact import escape_dp, feasible_table
from kernels.magdagdon.game import play_one
from kernels.magdagdon.policy import build_book, choose

__all__ = ["MAXD", "P_GREEDY", "P_MAX", "P_MIN", "P_ROLLOUT", "P_STORE", "best_blocks",
           "build_book", "choose", "escape_dp", "feasibility_blocks", "feasible_fast",
           "feasible_table", "games_blocks", "make_work", "play_one", "search"]
