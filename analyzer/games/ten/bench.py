"""Ten in `pushluck bench` (``CASES``): one turn from a fresh deck under a threshold policy and
under the exact optimal policy (table lookups), with the pure-Python reference of the same loop;
the warm exact solve of a fresh turn; and the query commands timed as whole processes."""
from __future__ import annotations

from analyzer.benchkit import BenchCase, BenchQuery, BenchTiming, BenchWarm, commands_warm


def _model():
    from analyzer.games.ten.exact import Model
    from analyzer.games.ten.rules import TenRules, ValueModel, load_deck, turn_state

    rules = TenRules()
    return Model(turn_state(rules, load_deck()), rules, ValueModel())


def _threshold_job():
    from analyzer.games.ten.exact import KIND_TOTAL, TenPolicy
    from analyzer.games.ten.play import make_job

    return make_job(_model(), [TenPolicy(KIND_TOTAL, 7)])


def _optimal_job():
    from analyzer.games.ten.exact import KIND_OPTIMAL, TenPolicy
    from analyzer.games.ten.play import make_job

    return make_job(_model(), [TenPolicy(KIND_OPTIMAL)])


def _reference(n: int, seed: int):
    from analyzer.games.ten.play import python_reference_turns

    return python_reference_turns(n, seed, 7)


def _solve_seconds() -> float:
    """Warm wall time of the exact optimal solve of a fresh 4-player turn."""
    from analyzer.games.ten.exact import solve

    model = _model()
    solve(model)  # compile / load the cache
    return solve(model).seconds


def _fresh_pile():
    """`ten best` on a fresh 4-player deck: fills the on-disk solution of that pile, which then
    answers every tableau drawn from it (pile.py)."""
    from analyzer.games.ten.best import best

    return best(_model())


CASES = [
    BenchCase("ten", "one turn, total:7, fresh deck", "turns", _threshold_job, 20_000_000,
              _reference, 200_000, target=60_000_000),
    BenchCase("ten", "one turn, exact optimal policy, fresh deck", "turns", _optimal_job,
              5_000_000),
    BenchTiming("ten", "exact solve of a fresh turn (optimal policy)", _solve_seconds),
    BenchQuery("ten", "best --tableau r5,r3", ("ten", "best", "--tableau", "r5,r3", "--json")),
    BenchQuery("ten", "odds --tableau r9,$5,$5 --seen b7,b#",
               ("ten", "odds", "--tableau", "r9,$5,$5", "--seen", "b7,b#", "--json")),
    BenchQuery("ten", "score (12-card collection with 4 wilds)",
               ("ten", "score", "--collection", "r1,r2,r4,r5,r7,r8,*3,*6,**,r#,b2,b3", "--json")),
    BenchQuery("ten", "decide (example position) --precision 0.01",
               ("ten", "decide", "analyzer/data/ten_position_example.toml", "--precision",
                "0.01", "--seed", "1", "--json")),
    BenchQuery("ten", "decide (impossible position: one line, exit 2)",
               ("ten", "decide", "analyzer/data/ten_position_impossible.toml"), exit_code=2),
    BenchWarm("ten", "the fresh 4-player pile's solution on disk (ten best)", _fresh_pile),
    commands_warm("ten", "whole-game decide and game (compiled apart)",
                  ("ten", "decide", "analyzer/data/ten_position_example.toml", "-n", "20",
                   "--seed", "1", "--json"),
                  ("ten", "decide", "analyzer/data/ten_position_buy_example.toml", "-n", "20",
                   "--seed", "1", "--json"),
                  ("ten", "decide", "analyzer/data/ten_position_auction_example.toml", "-n",
                   "20", "--seed", "1", "--json"),
                  ("ten", "game", "-n", "10", "--seed", "1", "--json")),
]


def _whole_game_cases():
    from analyzer.games.ten.whole_parts import bench_cases

    return bench_cases()


CASES += _whole_game_cases()
