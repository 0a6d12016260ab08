"""Ten whole games in `tune` and `bench`: metrics and bench cases (collected by ``tune.py``
``METRICS`` and ``bench.py`` ``CASES``); the report's whole-games part is in ``report.py``."""
from __future__ import annotations

import pathlib

from analyzer.benchkit import BenchCase, BenchTiming


def _game_setup(rules, policy: str, players: int = 4, lineups=None):
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.rules import load_deck
    from analyzer.games.ten.whole import Setup

    return Setup(rules, load_deck(), players,
                 lineups or [parse_seats(policy, players, "--seats")])


def game_job(rules, policy: str):
    """Whole 4-player games from a fresh deck with the line-up ``policy`` (as --seats)."""
    return _game_setup(rules, policy).job()


def check_lineup(policy: str) -> None:
    from analyzer.games.ten.lineup import parse_seats

    parse_seats(policy, 4, "--seats")


def metrics():
    from analyzer.games.ten.rules import TenRules
    from analyzer.tune import Metric
    from kernels.ten.whole_layout import column

    rows = [("seat_advantage", "win_0", "mean", "seat 1's (the first player's) win rate"),
            ("game_length", "turns", "mean", "turns per whole game"),
            ("winner_score", "winner_score", "mean", "the winner's score"),
            ("busts_per_game", "busts", "mean", "busts per whole game"),
            ("first_turn_bust_rate", "first_turn_bust", "rate", "P(the first turn busts)"),
            ("wilds_auctioned", "auction_share", "mean",
             "share of the wilds drawn that are auctioned (not discarded or taken free)")]
    return [Metric("ten", name, text, TenRules, game_job, column(col), "threshold", kind,
                   "whole-game", check_lineup, lineup=True) for name, col, kind, text in rows]


def _reference(n: int, seed: int):
    from analyzer.games.ten.rules import TenRules
    from analyzer.games.ten.whole_reference import reference_games
    from analyzer.rng import block_keys

    setup = _game_setup(TenRules(), "threshold")
    return reference_games(setup, block_keys(seed, 0, 1)[0], n, check=False)


def _heuristic_job():
    from analyzer.games.ten.rules import TenRules

    return game_job(TenRules(), "threshold")


def _quiet_job():
    from analyzer.games.ten.rules import TenRules

    return game_job(TenRules(), "threshold:bid=never:buy=never")


def _decide_seconds() -> float:
    """Warm wall time of `ten decide` on the example position to ±0.01 (paired differences)."""
    import time

    from analyzer.games.ten.bots import plain_seats
    from analyzer.games.ten.decide import decide
    from analyzer.games.ten.position import load_position
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.runner import RunSpec

    rules, spec = TenRules(), load_deck()
    path = pathlib.Path(__file__).resolve().parents[2] / "data" / "ten_position_example.toml"
    pos = load_position(path, rules, spec)
    bots = plain_seats("threshold", pos.players)
    decide(pos, rules, spec, bots, RunSpec(64, 1))  # compile / load the cache
    t0 = time.perf_counter()
    decide(pos, rules, spec, bots, RunSpec(None, 1, precision=0.01, progress=False))
    return time.perf_counter() - t0


def bench_cases():
    return [
        BenchCase("ten", "whole 4-player game, threshold bots (value bids, buys, rewards)",
                  "games", _heuristic_job, 50_000, _reference, 2),
        BenchCase("ten", "whole 4-player game, threshold bots, no bids or buys", "games",
                  _quiet_job, 200_000),
        BenchTiming("ten", "decide on the example position to ±0.01 (win probability)",
                    _decide_seconds),
    ]
