"""`pushluck trash-pandas ladder`: a round robin of bots on common random numbers, rated by
Bradley–Terry (Luce) with bootstrap intervals (analyzer/ladder.py does the work)."""
from __future__ import annotations

from typing import Annotated

import typer

from analyzer.ladder_cli import DealsOpt, FieldOpt, bots_option
from analyzer.options import (ChartOpt, JsonOpt, OutOpt, ProgressOpt, RulesOpt, SeedOpt, SetOpt,
                              TimeLimitOpt)

DEFAULT_BOTS = "search:100,heuristic,random"
BotsOpt = bots_option(DEFAULT_BOTS, "heuristic,random,rollout:16,search:200")
PlayersOpt = Annotated[int, typer.Option("--players", min=2, max=4, help="Players (2-4).")]


def ladder(bots: BotsOpt = None, players: PlayersOpt = 3,
           n: DealsOpt = None,
           field: FieldOpt = None, seed: SeedOpt = None, time_limit: TimeLimitOpt = None,
           progress: ProgressOpt = None,
           rules_file: RulesOpt = None, set_: SetOpt = None, out_dir: OutOpt = None,
           chart: ChartOpt = False, json: JsonOpt = False):
    """Rate bots by a round robin on common random numbers: every bot in every seat against a
    field of each other bot, and every bot in self-play, all line-ups on the same deals. The
    ratings are Luce's choice model (Bradley-Terry for two players) fitted to the win shares,
    on the Elo scale with 95% bootstrap intervals over blocks of deals; adjacent bots are
    "separated" when the interval of their difference excludes 0. Also printed: each bot's
    paired gain in one seat against the strongest bot's field (and the strongest bot's against
    each field), and the seat advantage in self-play. --field BOT plays a gauntlet instead
    (every bot in every seat against BOT's field). -n counts deals; each line-up plays all of
    them (default: search:100, heuristic and random on 60 deals, about a minute). --out DIR
    writes the tables, --chart the chart.

    Examples:

      pushluck trash-pandas ladder --seed 1

      pushluck trash-pandas ladder --bots heuristic,random -n 2000 --seed 1

      pushluck trash-pandas ladder --bots search:200 --bots rollout:16 --bots heuristic -n 100

      pushluck trash-pandas ladder --bots search:100,search:400 --field heuristic -n 200
    """
    from analyzer.games.trash_pandas.cli_whole import _whole_rules
    from analyzer.games.trash_pandas.ladder import TITLE, ladder_game
    from analyzer.ladder_cli import run_command

    game = ladder_game(_whole_rules(rules_file, set_), players)
    run_command(game, TITLE, "tp", bots or [DEFAULT_BOTS], n, field, seed, time_limit, progress,
                out_dir, chart, json)


def register(app: typer.Typer) -> None:
    """Add `ladder` to the Trash Pandas app."""
    app.command()(ladder)
