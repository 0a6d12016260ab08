"""MAGDAGDON kernels: the solo 4×4 dice-placement game on bitboards.

``board`` holds the board representation (cells and per-value bitboards), the exact depth-first
placement search and the heuristic board value H; ``exact`` the feasibility of every roll
multiset and the dynamic programme over powers (exact MAGDAGDON odds); ``policy`` the base
policies' choices (placement, power use, ruin cell) and the empty-board opening book; ``best``
the base policies' placement found without a transposition table (what games use); ``game``
whole games under a base policy or rollout:K; ``blocks`` the Monte Carlo block kernels the
runner calls. Rules reach every kernel as the plain-array tuple ``G`` built by
``analyzer.games.magdagdon.arrays.kernel_inputs``. Only the entry points are re-exported here,
lazily.
"""
from kernels.lazy import lazy_exports


# Entry point -> defining module, imported on first use (PEP 562), so a query that needs one
# kernel module does not load (and type-check the caches of) all the others.
_WHERE = {
    "best_blocks": "kernels.magdagdon.blocks",
    "choose_best": "kernels.magdagdon.best",
    "feasibility_blocks": "kernels.magdagdon.blocks",
    "games_blocks": "kernels.magdagdon.blocks",
    "MAXD": "kernels.magdagdon.board",
    "P_GREEDY": "kernels.magdagdon.board",
    "P_MAX": "kernels.magdagdon.board",
    "P_MIN": "kernels.magdagdon.board",
    "P_ROLLOUT": "kernels.magdagdon.board",
    "P_STORE": "kernels.magdagdon.board",
    "feasible_fast": "kernels.magdagdon.board",
    "make_work": "kernels.magdagdon.board",
    "search": "kernels.magdagdon.board",
    "escape_dp": "kernels.magdagdon.exact",
    "feasible_table": "kernels.magdagdon.exact",
    "play_one": "kernels.magdagdon.game",
    "build_book": "kernels.magdagdon.policy",
    "choose": "kernels.magdagdon.policy",
}

__getattr__, __all__ = lazy_exports(globals(), _WHERE)
