"""`pushluck ten ladder`: a round robin of Ten's bots on common random numbers, rated by
Bradley–Terry (Luce) with bootstrap intervals (analyzer/ladder.py does the work)."""
from __future__ import annotations

from typing import Annotated

import typer

from analyzer.games.ten.cli_whole import DeckOpt
from analyzer.ladder_cli import DealsOpt, FieldOpt, bots_option
from analyzer.options import (ChartOpt, JsonOpt, OutOpt, ProgressOpt, RulesOpt, SeedOpt, SetOpt,
                              TimeLimitOpt)

DEFAULT_BOTS = "threshold,exact,random"
BotsOpt = bots_option(DEFAULT_BOTS, "threshold,threshold:9,cards:5,exact,rollout:16")
PlayersOpt = Annotated[int, typer.Option("--players", min=2, max=5, metavar="N",
                                         help="Players (2-5).")]


def ladder(bots: BotsOpt = None, players: PlayersOpt = 4, n: DealsOpt = None,
           field: FieldOpt = None, deck: DeckOpt = None, seed: SeedOpt = None,
           time_limit: TimeLimitOpt = None, progress: ProgressOpt = None,
           rules_file: RulesOpt = None, set_: SetOpt = None, out_dir: OutOpt = None,
           chart: ChartOpt = False, json: JsonOpt = False):
    """Rate Ten's bots by a round robin on common random numbers: every bot in every seat
    against a field of each other bot, and every bot in self-play, all line-ups on the same
    shuffled decks. The ratings are Luce's choice model (Bradley-Terry for two players) fitted
    to the win shares (a win shared by k seats counts 1/k), on the Elo scale with 95% bootstrap
    intervals over blocks of deals; adjacent bots are "separated" when the interval of their
    difference excludes 0. Also printed: each bot's paired gain in one seat against the
    strongest bot's field (and the strongest bot's against each field), and the seat advantage
    in self-play. --field BOT plays a gauntlet instead (every bot in every seat against BOT's
    field). -n counts deals; each line-up plays all of them (default: threshold, exact and
    random, 4 players, 2,000 deals × 27 line-ups, seconds). --out DIR writes the tables,
    --chart the chart.

    Examples:

      pushluck ten ladder --seed 1

      pushluck ten ladder --bots threshold,threshold:9,cards:5 --players 3 -n 4000 --seed 2

      pushluck ten ladder --bots rollout:16,exact --field threshold -n 300 --seed 3

      pushluck ten ladder --seed 1 --out ten-ladder --chart
    """
    from analyzer.games.ten.cli_whole import _rules
    from analyzer.games.ten.ladder import TITLE, ladder_game
    from analyzer.ladder_cli import run_command

    r, spec = _rules(rules_file, set_, deck)
    run_command(ladder_game(r, spec, players), TITLE, "ten", bots or [DEFAULT_BOTS], n, field,
                seed, time_limit, progress, out_dir, chart, json)


def register(app: typer.Typer) -> None:
    """Add `ladder` to the Ten app."""
    app.command()(ladder)
