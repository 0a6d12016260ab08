"""Pig's bench cases for `pushluck bench` (``CASES``).

What belongs here: kernel throughput cases (:class:`BenchCase`, with the pure-Python reference
from :mod:`.play`), warm timings that are not trial rates (:class:`BenchTiming`: the exact
solve) and the query commands timed as whole processes (:class:`BenchQuery`). Builders are lazy.
"""
from __future__ import annotations

from analyzer.benchkit import BenchCase, BenchQuery, BenchTiming, BenchWarm, commands_warm


def _pig_job(seats: str):
    def make():
        from analyzer.games.pig.lineup import parse_policy_pair
        from analyzer.games.pig.play import make_job
        from analyzer.games.pig.rules import PigRules

        return make_job(parse_policy_pair(seats), PigRules())

    return make


def _reference(n: int, seed: int):
    from analyzer.games.pig.play import python_reference_games

    return python_reference_games(n, seed)


def solve_seconds() -> float:
    """Warm time of the exact Pig solve to goal 100 (compile excluded)."""
    import time

    from kernels.pig import solve_pig

    solve_pig(5, 6, 1, 1e-12, 1000)
    t0 = time.perf_counter()
    solve_pig(100, 6, 1, 1e-12, 100000)
    return time.perf_counter() - t0


def _solve_default():
    from analyzer.games.pig.exact import solve
    from analyzer.games.pig.rules import PigRules

    return solve.__wrapped__(PigRules())  # past the in-process lru_cache: to the disk cache


CASES = [
    commands_warm("pig", "paired simulate --vs (compiled apart)",
                  ("pig", "simulate", "-n", "1000", "--seats", "hold:20,hold:20", "--vs",
                   "optimal,hold:20", "--seed", "1", "--json")),
    BenchCase("pig", "games, hold:20 vs hold:20", "games", _pig_job("hold:20,hold:20"),
              10_000_000, _reference, 20_000, target=10_000_000),
    BenchCase("pig", "games, optimal vs optimal", "games", _pig_job("optimal,optimal"),
              5_000_000),
    BenchTiming("pig", "exact solve, goal 100", solve_seconds),
    BenchQuery("pig", "decide --me 50 --opp 60 --turn 12",
               ("pig", "decide", "--me", "50", "--opp", "60", "--turn", "12", "--json")),
    BenchWarm("pig", "the solution of the default rules on disk (pig decide)", _solve_default),
]
