"""Bench cases of the foundation games (Trash Pandas and Pig) for `pushluck bench`."""
from __future__ import annotations

from analyzer.benchkit import BenchCase


def _tp_job(policy: str, cards: tuple[int, int, int]):
    def make():
        from analyzer.games.trash_pandas import TurnSolver
        from analyzer.games.trash_pandas_policy import build_tables, make_job, parse_policy

        solver = TurnSolver()
        return make_job(build_tables(parse_policy(policy), solver, *cards), solver)

    return make


def _minimal_tp_job():
    """The bare stop-at:6 turn loop (no tables, no cards, no bonus turn): a calibration point
    showing what the table-driven kernel costs over the simplest loop on the same machine."""
    from analyzer.runner import KernelJob, half_width_of_proportion
    from kernels.trash_pandas import stop_at_plain

    def run_blocks(keys, counts):
        return stop_at_plain(keys, counts, 6)

    return KernelJob("trash-pandas minimal loop", 1 << 16, run_blocks,
                     half_width_of_proportion(0), unit="turns")


def _pig_job(policies: str):
    def make():
        from analyzer.games.pig import PigRules, make_job, parse_policy_pair

        return make_job(parse_policy_pair(policies), PigRules())

    return make


def bench_cases() -> list[BenchCase]:
    from analyzer.games.pig import python_reference_games
    from analyzer.games.trash_pandas_policy import python_reference_turns

    return [
        BenchCase("trash-pandas", "turns, stop-at:6, no cards", "turns",
                  _tp_job("stop-at:6", (0, 0, 0)), 100_000_000, python_reference_turns, 300_000),
        BenchCase("trash-pandas", "turns, minimal hand-written loop (calibration)", "turns",
                  _minimal_tp_job, 100_000_000, python_reference_turns, 300_000),
        BenchCase("trash-pandas", "turns, optimal, Blammo!/Nanners/Pie 1/1/1", "turns",
                  _tp_job("optimal", (1, 1, 1)), 30_000_000),
        BenchCase("pig", "games, hold:20 vs hold:20", "games", _pig_job("hold:20,hold:20"),
                  10_000_000, python_reference_games, 20_000),
        BenchCase("pig", "games, optimal vs optimal", "games", _pig_job("optimal,optimal"),
                  5_000_000),
    ]


def pig_solve_seconds() -> float:
    """Warm time of the exact Pig solve to goal 100 (compile excluded)."""
    import time

    from kernels.pig import solve_pig

    solve_pig(5, 6, 1, 1e-12, 1000)
    t0 = time.perf_counter()
    solve_pig(100, 6, 1, 1e-12, 100000)
    return time.perf_counter() - t0
