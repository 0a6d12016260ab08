"""Bench cases of Trash Pandas for `pushluck bench` (``CASES``).

What belongs here: kernel throughput cases (:class:`BenchCase`, with the pure-Python reference
of the same loop from :mod:`.play`) and the query commands timed as whole processes
(:class:`BenchQuery`). Builders are lazy: nothing is compiled until a case runs.
"""
from __future__ import annotations

from analyzer.benchkit import (CALIBRATION_AT_TARGETS, CALIBRATION_CASE, BenchCase, BenchQuery,
                               BenchWarm, commands_warm)


def _tp_job(policy: str, cards: tuple[int, int, int]):
    def make():
        from analyzer.games.trash_pandas.exact import TurnSolver
        from analyzer.games.trash_pandas.lineup import parse_policy
        from analyzer.games.trash_pandas.play import build_tables, make_job

        solver = TurnSolver()
        return make_job(build_tables(parse_policy(policy), solver, *cards), solver)

    return make


def _minimal_tp_job():
    """The hand-written stop-at:6 loop of issue 16 (key words hoisted per block, inline xoshiro,
    multiply-shift faces; kernels/trash_pandas/calibration.py): the calibration point the
    table-driven kernel is reported against (as a ratio of its rate on 1 core)."""
    from analyzer.runner import KernelJob, half_width_of_proportion
    from kernels.trash_pandas.calibration import minimal_stop6

    def run_blocks(keys, counts):
        return minimal_stop6(keys, counts)

    return KernelJob("trash-pandas minimal loop", 1 << 16, run_blocks,
                     half_width_of_proportion(0), unit="turns")


def _stop_at_plain_job():
    """The exact stop-at:6 loop (kernels.trash_pandas.stop_at_plain: branch-free faces, a block
    replayed exactly if a face word would have been rejected)."""
    from analyzer.runner import KernelJob, half_width_of_proportion
    from kernels.trash_pandas import stop_at_plain

    def run_blocks(keys, counts):
        return stop_at_plain(keys, counts, 6)

    return KernelJob("trash-pandas stop_at_plain", 1 << 16, run_blocks,
                     half_width_of_proportion(0), unit="turns")


def _reference(n: int, seed: int):
    from analyzer.games.trash_pandas.play import python_reference_turns

    return python_reference_turns(n, seed)


def _games_setup(players: int, bot: str):
    from analyzer.games.trash_pandas.bots import plain_lineup
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.games.trash_pandas.whole import GameSetup

    return GameSetup(TrashPandasRules(), players, [plain_lineup(bot, players)])


def _games_job(players: int, bot: str):
    def make():
        from analyzer.games.trash_pandas.whole import game_job

        return game_job(_games_setup(players, bot))

    return make


def _games_reference(n: int, seed: int):
    from analyzer.games.trash_pandas.whole import python_reference_games

    return python_reference_games(n, seed)


def _compile_rollout() -> None:
    """The rollout bot's twin engine (kernels/trash_pandas/whole_rollout.py) is compiled apart
    from the bench cases' engine: warm it so that a first rollout:K game does not compile."""
    from analyzer.runner import warm_up

    warm_up(_games_job(3, "rollout:1,heuristic,heuristic")())


def _compile_tables() -> None:
    """The rule-table twin engine (kernels/trash_pandas/whole_tables.py: table bots, as in
    ``game-advice`` and ``--seats rule:FILE.json``) is compiled apart from the plain engine."""
    from analyzer.advice import Rule
    from analyzer.games.trash_pandas.advice_game import TableRule
    from analyzer.games.trash_pandas.whole import game_job
    from analyzer.runner import warm_up

    table = TableRule(Rule("list", clauses=(("tokens", ">=", 3, False),))).bot()
    warm_up(game_job(_games_setup(3, "heuristic").with_lineups([(table,) * 3])))


def _compile_belief() -> None:
    """The belief's learning kernels (self-play snapshots, the rules belief's splits): `decide`'s
    default belief is shipped learned (analyzer/shipped_cache.py), so warm them on another
    line-up's belief (heuristic bots, 3 players: learned and kept in the cache)."""
    from analyzer.games.trash_pandas.belief import belief_for

    belief_for("model", _games_setup(3, "heuristic"))


def _snapshot_positions(setup, games: int):
    """Positions a search bot decides at, from ``games`` self-play games of ``setup``: the
    state at the start of every second turn with the seat whose turn it is, holding two tokens
    (a roll-or-stop decision); int64 states, seats and held sets."""
    import numpy as np

    from analyzer.rng import block_keys
    from kernels.trash_pandas.belief_data import turn_snapshots

    cap = 32
    states = np.zeros((games * cap, 19, 8), dtype=np.int16)
    seats = np.zeros(games * cap, dtype=np.int64)
    kept = np.zeros(games, dtype=np.int64)
    d = setup.deck
    turn_snapshots(block_keys(20260, 0, 1), np.array([games]), np.zeros(1, dtype=np.int64),
                   setup.players, d.copies, d.pts, d.per_card, setup.deal, setup.rules_arr,
                   setup.bots[0], setup.roll_tab, setup.after_tab, 2, cap, states, seats, kept)
    mask = (np.arange(cap)[None, :] < kept[:, None]).ravel()
    states, seats = states[mask].astype(np.int64), seats[mask]
    i = np.arange(len(seats))
    helds = (1 << (i % 6)) | (1 << ((i % 6 + 1 + (i // 6) % 5) % 6))
    return states, seats, helds.astype(np.int64)


def _search_decisions_job(iters: int):
    """Roll-or-stop decisions of ``search:ITERS`` (3 players, heuristic playouts) on positions
    from self-play (:func:`_snapshot_positions`), one search per trial."""
    def make():
        from analyzer.games.trash_pandas.bots import plain_lineup
        from analyzer.games.trash_pandas.whole import GameSetup
        from analyzer.games.trash_pandas.rules import TrashPandasRules
        from analyzer.runner import KernelJob, half_width_of_proportion
        from kernels.trash_pandas.search_bench import decision_blocks

        base = _games_setup(3, "heuristic")
        states, seats, helds = _snapshot_positions(base, 64)
        bots = GameSetup(TrashPandasRules(), 3, [plain_lineup(f"search:{iters}", 3)]).bots[0]
        d = base.deck

        def run_blocks(keys, counts):
            return decision_blocks(keys, counts, states, seats, helds, bots, d.pts, d.per_card,
                                   d.copies, base.rules_arr, base.roll_tab, base.after_tab)

        return KernelJob(f"trash-pandas search:{iters} decisions", 8, run_blocks,
                         half_width_of_proportion(1), unit="decisions")

    return make


CALIBRATION = CALIBRATION_CASE[1]  # "turns, minimal hand-written loop (calibration)"

CASES = [
    BenchCase("trash-pandas", "turns, stop-at:6, no cards", "turns",
              _tp_job("stop-at:6", (0, 0, 0)), 100_000_000, _reference, 300_000,
              share_of_calibration=True, target=0.8 * CALIBRATION_AT_TARGETS),
    BenchCase("trash-pandas", CALIBRATION, "turns",
              _minimal_tp_job, 100_000_000, _reference, 300_000,
              scaling_note="this loop shares nothing between threads: below the target, the "
                           "machine's CPUs did not scale during the run; repeat on a quiet host"),
    BenchCase("trash-pandas", "turns, stop-at:6, exact bare loop", "turns", _stop_at_plain_job,
              100_000_000, share_of_calibration=True),
    BenchCase("trash-pandas", "turns, optimal, Blammo!/Nanners/Pie 1/1/1", "turns",
              _tp_job("optimal", (1, 1, 1)), 30_000_000),
    BenchQuery("trash-pandas", "odds --held trash,paw --blammo 1",
               ("trash-pandas", "odds", "--held", "trash,paw", "--blammo", "1", "--json")),
    BenchQuery("trash-pandas", "score (three players)",
               ("trash-pandas", "score", "--stash", "A:feesh=3:blammo=2,B:feesh=3,C:feesh=1",
                "--json")),
    BenchCase("trash-pandas", "whole games, 3 players, heuristic bots", "games",
              _games_job(3, "heuristic"), 2_000_000, _games_reference, 2_000),
    BenchCase("trash-pandas", "whole games, 3 players, solver bots", "games",
              _games_job(3, "solver"), 1_000_000),
    BenchQuery("trash-pandas", "decide (example position) --precision 0.01",
               ("trash-pandas", "decide", "analyzer/data/trash_pandas_position_example.toml",
                "--precision", "0.01", "--seed", "1", "--json")),
    BenchQuery("trash-pandas", "decide (example position) --precision 0.01 --belief uniform",
               ("trash-pandas", "decide", "analyzer/data/trash_pandas_position_example.toml",
                "--precision", "0.01", "--seed", "1", "--belief", "uniform", "--json")),
    BenchQuery("trash-pandas", "decide (impossible position: one line, exit 2)",
               ("trash-pandas", "decide", "analyzer/data/trash_pandas_position_impossible.toml"),
               exit_code=2),
    BenchCase("trash-pandas", "search decisions, roll or stop, search:1000 (3 players)",
              "decisions", _search_decisions_job(1000), 400),
    BenchCase("trash-pandas", "whole games, 3 players, search:1000 in seat 1, heuristics",
              "games", _games_job(3, "search:1000,heuristic,heuristic"), 40),
    BenchWarm("trash-pandas", "the rollout:K and search bots' engine (compiled apart)",
              _compile_rollout, compiles=True),
    BenchWarm("trash-pandas", "the rule-table bots' engine (compiled apart)", _compile_tables,
              compiles=True),
    BenchWarm("trash-pandas", "the belief's learning kernels (compiled apart)", _compile_belief,
              compiles=True),
    commands_warm("trash-pandas", "whole-game decide (compiled apart)",
                  ("trash-pandas", "decide", "analyzer/data/trash_pandas_position_example.toml",
                   "-n", "100", "--seed", "1", "--json")),
]
