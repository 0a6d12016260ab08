"""`pushluck trash-pandas ladder`: a round robin of bots on common random numbers, rated by
Bradley–Terry (Luce) with bootstrap intervals (analyzer/ladder.py does the work)."""
from __future__ import annotations

from typing import Annotated, List, Optional

import typer

from analyzer.ladder import DEFAULT_DEALS, THINKING_DEALS
from analyzer.options import (ChartOpt, JsonOpt, OutOpt, ProgressOpt, RulesOpt, SeedOpt, SetOpt,
                              TimeLimitOpt, run_spec)

DealsOpt = Annotated[Optional[int], typer.Option(
    "-n", "--trials", min=1, metavar="N", show_default=False,
    help=f"Number of deals per line-up (default {DEFAULT_DEALS:,}; {THINKING_DEALS} when a "
         f"rollout or search bot plays).")]
DEFAULT_BOTS = "search:100,heuristic,random"
BotsOpt = Annotated[Optional[List[str]], typer.Option(
    "--bots", metavar="BOT[,BOT…]", show_default=False,
    help=f"The bots to rate (at least two): repeat --bots or separate them with ',' (knobs "
         f"after ':', as in --seats), e.g. --bots heuristic,random,rollout:16,search:200. "
         f"Default: {DEFAULT_BOTS}.")]
PlayersOpt = Annotated[int, typer.Option("--players", min=2, max=4, help="Players (2-4).")]
FieldOpt = Annotated[Optional[str], typer.Option(
    "--field", metavar="BOT",
    help="Play a gauntlet instead of the full round robin: every bot of --bots in every seat "
         "against a field of this bot (added to the bots if it is not one of them), and its "
         "self-play; (m − 1)·players + 1 line-ups instead of m(m − 1)·players + m.")]


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
    from analyzer.errors import UserError
    from analyzer.games.trash_pandas.cli_whole import _whole_rules
    from analyzer.games.trash_pandas.ladder import TITLE, ladder_game
    from analyzer.ladder import default_deals, render, run_ladder
    from analyzer.output import emit, note

    if chart and out_dir is None:
        raise UserError("--chart writes into --out DIR: give --out too")
    bots = bots or [DEFAULT_BOTS]
    game = ladder_game(_whole_rules(rules_file, set_), players)
    if n is None:
        n = default_deals(game, bots, field)
    spec = run_spec(n, seed, None, time_limit, progress, json)
    out = run_ladder(game, bots, spec, field=field)
    if out_dir is not None:
        from analyzer.ladder import write_files

        files = write_files(out, out_dir, TITLE, chart, "tp")
        out["files"] = [str(f) for f in files]
        note("wrote " + ", ".join(out["files"]))
    emit(out, json, lambda: render(out, TITLE))


def register(app: typer.Typer) -> None:
    """Add `ladder` to the Trash Pandas app."""
    app.command()(ladder)
