"""`pushluck bench` cases for MAGDAGDON (``CASES``): kernel throughput against the pure-Python
references (reference.py), and the warm latency of the exact query commands.

* ``feasibility``: trial t rolls four dice and decides whether the PEACEFUL minimum (2) can be
  placed on mid-game board t mod 8 (the boards below) — the exact depth-first search over
  placement orders on bitboards.
* ``greedy games``: whole SURVIVAL games under the greedy policy from the empty board.
* ``greedy games (PEACEFUL)``: the same on PEACEFUL, where the policy spends powers (its first
  two, ±1 changes and exact best rerolls), so the power search is timed too.
* queries: ``feasible``, ``odds`` and ``score`` on mid-game boards, each a whole process.
"""
from __future__ import annotations

import functools

import numpy as np

from analyzer.benchkit import BenchCase, BenchQuery, commands_warm
from analyzer.games.magdagdon.reference import reference_feasibility, reference_greedy_games

MID_GAME_BOARDS = (
    "..../.34./.45./....", "33../34../45../....", "x.../.33./.45./..6.", "2345/..../..../....",
    "12../2.../..../...x", ".x../.56./..5./.x..", "444./4.../4..x/....", "..../.65./..4./.x..",
)


def _inputs(difficulty: str):
    from analyzer.games.magdagdon.rules import MagdagdonRules, difficulty as get_difficulty
    from analyzer.rules import build_rules

    rules = build_rules(MagdagdonRules)
    return rules, get_difficulty(rules, difficulty)


def feasibility_job():
    from analyzer.games.magdagdon.arrays import kernel_inputs, vm_of
    from analyzer.games.magdagdon.rules import min_dice, parse_board
    from analyzer.runner import KernelJob
    from kernels.magdagdon import feasibility_blocks

    rules, diff = _inputs("peaceful")
    G = kernel_inputs(rules, diff)
    cells = [parse_board(b, rules) for b in MID_GAME_BOARDS]
    boards = np.array([vm_of(c) for c in cells], dtype=np.uint64)
    need = np.array([min_dice(c, rules, diff) for c in cells], dtype=np.int64)

    def run_blocks(keys, counts):
        return feasibility_blocks(keys, counts, boards, need, G)

    return KernelJob("magdagdon feasibility", 1 << 16, run_blocks, None, unit="checks")


def greedy_job(difficulty: str = "survival"):
    from analyzer.games.magdagdon.lineup import parse_policy
    from analyzer.games.magdagdon.play import make_job

    rules, diff = _inputs(difficulty)
    return make_job(rules, diff, parse_policy("greedy"))


CASES = [
    commands_warm("magdagdon", "advice's recording run (where a front rule goes wrong)",
                  ("magdagdon", "advice", "--rounds", "1", "--record-games", "8", "--seed", "1",
                   "--json")),
    commands_warm("magdagdon", "best (compiled apart)",
                  ("magdagdon", "best", "--board", "33../34../45../....", "--roll", "1256",
                   "--difficulty", "peaceful", "-n", "10", "--seed", "1", "--json")),
    BenchCase("magdagdon", "feasibility check (mid-game boards)", "checks", feasibility_job,
              4_000_000, functools.partial(reference_feasibility, MID_GAME_BOARDS), 20_000),
    BenchCase("magdagdon", "greedy whole games (SURVIVAL)", "games", greedy_job, 40_000,
              reference_greedy_games, 20, target=100_000),
    BenchCase("magdagdon", "greedy whole games (PEACEFUL)", "games",
              functools.partial(greedy_job, "peaceful"), 20_000, target=40_000),
    BenchQuery("magdagdon", "best (the README's board and roll) -n 500",
               ("magdagdon", "best", "--board", "33../34../45../....", "--roll", "1256", "--top",
                "6", "-n", "500", "--seed", "1", "--json")),
    BenchQuery("magdagdon", "feasible (mid-game board)",
               ("magdagdon", "feasible", "--board", "..../.3../..../....", "--roll", "1,2,5,6",
                "--json")),
    BenchQuery("magdagdon", "odds (PEACEFUL, 3 powers left)",
               ("magdagdon", "odds", "--board", "12../2.../..../...x", "--difficulty",
                "peaceful", "--json")),
    BenchQuery("magdagdon", "score (finished board)",
               ("magdagdon", "score", "--board", "3434/4343/3434/434x", "--difficulty",
                "peaceful", "--powers-used", "2", "--json")),
]
