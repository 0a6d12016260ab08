"""Go-Stop cases for `pushluck bench` (``CASES``): whole deals of the deal engine against the
pure-Python reference of the same algorithm (``analyzer.games.gostop.play``), and the query
commands (`gostop score`, `gostop decide`) timed as whole processes."""
from __future__ import annotations

from pathlib import Path

from analyzer.benchkit import BenchCase, BenchQuery, BenchWarm, commands_warm
from analyzer.games.gostop.play import python_reference_deals

EXAMPLE_POSITION = Path(__file__).resolve().parents[2] / "data" / "gostop_position_example.toml"


def _job(players: int, seats: str):
    from analyzer.games.gostop.play import make_sim_job, plain_seats
    from analyzer.games.gostop.rules import GoStopRules

    return make_sim_job(GoStopRules(players=players), plain_seats(seats, players))


def _warm_record():
    """Compile advice's recording run (kernels/gostop/record.py) with a few deals."""
    from analyzer.advice import Rule
    from analyzer.games.gostop.advice import record
    from analyzer.games.gostop.rules import GoStopRules

    record(GoStopRules(), Rule("threshold", "gos", "<=", (1,)), 4, 1)


CASES = [
    BenchWarm("gostop", "advice's recording run (where a front rule goes wrong)", _warm_record,
              compiles=True),
    commands_warm("gostop", "decide and the rule-table engine of advice (compiled apart)",
                  ("gostop", "decide", "analyzer/data/gostop_position_example.toml",
                   "-n", "100", "--seed", "1", "--json"),
                  ("gostop", "simulate", "-n", "100", "--seats", "greedy,go:2", "--seed", "1",
                   "--json")),
    BenchCase("gostop", "2 players, greedy, whole deals", "deals",
              lambda: _job(2, "greedy"), 1_000_000,
              lambda n, seed: python_reference_deals(n, seed, 2), 300, target=500_000),
    BenchCase("gostop", "3 players, greedy/go:2/random, whole deals", "deals",
              lambda: _job(3, "greedy,go:2,random"), 500_000, None, 0),
    BenchQuery("gostop", "score a capture pile", (
        "gostop", "score", "--captures", "01B,03B,12B", "--json")),
    BenchQuery("gostop", "score with payments of two opponents", (
        "gostop", "score", "--captures", "01B 03B 08B 02A 04A 08A 05A", "--opponents",
        "11J1 11J2;01J1", "--go-count", "1", "--json")),
    BenchQuery("gostop", "decide from the example position, 4,000 playouts (the default)", (
        "gostop", "decide", str(EXAMPLE_POSITION),
        "--seed", "1", "--json")),
    BenchQuery("gostop", "decide (impossible position: one line, exit 2)", (
        "gostop", "decide", "analyzer/data/gostop_position_impossible.toml"),
        exit_code=2),
]
