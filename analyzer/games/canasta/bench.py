"""Railroad Canasta cases for `pushluck bench` (``CASES``): the round engine on independent
2-player rounds, whole games, and the query commands timed as whole processes.

The pure-Python reference is the *same* engine source executed without Numba
(:mod:`analyzer.games.canasta.pyengine`), with the random draws from ``random.Random(seed)``, so
the kernel/reference ratio measures compilation alone, not a different algorithm.
"""
from __future__ import annotations

import random
from pathlib import Path

from analyzer.benchkit import BenchCase, BenchQuery, commands_warm


def python_reference_rounds(n: int, seed: int, players: int = 2) -> float:
    """``n`` independent greedy rounds in pure Python; returns the mean round length."""
    from analyzer.games.canasta.play import plain_policies, policy_array, rules_arrays
    from analyzer.games.canasta.rules import CanastaRules

    from analyzer.games.canasta.pyengine import python_engine

    E = python_engine()
    rules = CanastaRules(players=players)
    rp, thr, reqv = rules_arrays(rules)
    pol = policy_array(plain_policies("greedy", players))
    rnd = random.Random(seed)
    hand, kit, un, can, pl, mcnt, stock, pile, g = E["new_state"](players)
    import numpy as np

    viol = np.zeros(E["NV"], dtype=np.int64)
    tmp = np.zeros(E["NT"], dtype=np.int64)
    out = np.zeros((E["NT"], 3), dtype=np.int64)
    turns = 0
    for _ in range(n):
        pl[:, E["C_CUM"]] = 0
        E["deal"](rnd, players - 1, hand, kit, un, can, pl, mcnt, stock, pile, g, rp, thr, reqv)
        E["play_turns"](hand, kit, un, can, pl, mcnt, stock, pile, g, rp, pol, viol, tmp, out,
                        False, -1, -1, -1, 0)
        E["score_round"](hand, kit, can, pl, rp)
        turns += int(g[E["G_TURNS"]])
    return turns / n


def make_rounds_job(players: int = 2):
    from analyzer.games.canasta.play import make_job, plain_policies
    from analyzer.games.canasta.rules import CanastaRules
    from kernels.canasta import MODE_ROUNDS

    rules = CanastaRules(players=players)
    return make_job(MODE_ROUNDS, rules, plain_policies("greedy", players),
                    name=f"canasta {players}-player greedy rounds", unit="rounds")


def make_games_job():
    from analyzer.games.canasta.play import make_job, plain_policies
    from analyzer.games.canasta.rules import CanastaRules
    from kernels.canasta import MODE_GAMES

    return make_job(MODE_GAMES, CanastaRules(), plain_policies("greedy", 2),
                    name="canasta 2-player greedy games to 20,000", unit="games")


SCORE_EXAMPLE = str(Path(__file__).resolve().parents[2] / "data" / "canasta_score_example.toml")

CASES = [
    commands_warm("canasta", "advice's recording run (where a front pair goes wrong)",
                  ("canasta", "advice", "--rounds", "1", "--record-games", "8", "--seed", "1",
                   "--json")),
    commands_warm("canasta", "meld-odds and decide (compiled apart)",
                  ("canasta", "meld-odds", "--score", "5000", "--within-turns", "3", "-n", "100",
                   "--seed", "1", "--json"),
                  ("canasta", "decide", "analyzer/data/canasta_position_example.toml", "-n", "50",
                   "--seed", "1", "--json")),
    BenchCase("canasta", "round engine, 2 players, greedy", "rounds", make_rounds_job,
              40_000, python_reference_rounds, 30, target=60_000),
    BenchCase("canasta", "whole games to 20,000, 2 players, greedy", "games",
              make_games_job, 10_000, None, 0),
    BenchQuery("canasta", "score (example round)", ("canasta", "score", SCORE_EXAMPLE, "--json")),
    BenchQuery("canasta", "check (initial meld at 5000)",
               ("canasta", "check", "--score", "5000", "KS,KH,2C", "8S,8H,8D", "--json")),
    BenchQuery("canasta", "check (add to an existing meld)",
               ("canasta", "check", "--melded", "--existing", "QS,QH,QD,QC,QS,QH,QD", "+QC",
                "QD,QC,QS", "7S,7H,7D,2C", "--json")),
    BenchQuery("canasta", "decide (impossible position: one line, exit 2)",
               ("canasta", "decide", "analyzer/data/canasta_position_impossible.toml"),
               exit_code=2),
    BenchQuery("canasta", "decide (going out not allowed: one line, exit 2)",
               ("canasta", "decide", "analyzer/data/canasta_position_no_going_out.toml"),
               exit_code=2),
]
