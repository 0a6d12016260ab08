"""What every `pushluck <game> ladder` command shares: its options and its run (analyzer/ladder.py
does the work; each game's ``cli_ladder.py`` gives its bots, its players and its help text)."""
from __future__ import annotations

from typing import Annotated, List, Optional

import typer

from analyzer.ladder_sizes import DEFAULT_DEALS, THINKING_DEALS

DealsOpt = Annotated[Optional[int], typer.Option(
    "-n", "--trials", min=1, metavar="N", show_default=False,
    help=f"Number of deals per line-up (default {DEFAULT_DEALS:,}; {THINKING_DEALS} when a "
         f"rollout or search bot plays).")]
FieldOpt = Annotated[Optional[str], typer.Option(
    "--field", metavar="BOT",
    help="Play a gauntlet instead of the full round robin: every bot of --bots in every seat "
         "against a field of this bot (added to the bots if it is not one of them), and its "
         "self-play; (m − 1)·players + 1 line-ups instead of m(m − 1)·players + m.")]


def bots_option(default: str, example: str):
    """The ``--bots`` option of a game whose default bots are ``default``."""
    return Annotated[Optional[List[str]], typer.Option(
        "--bots", metavar="BOT[,BOT…]", show_default=False,
        help=f"The bots to rate (at least two): repeat --bots or separate them with ',' (knobs "
             f"after ':', as in --seats), e.g. --bots {example}. Default: {default}.")]


def run_command(game, title: str, stem: str, bots: list[str], n: int | None,
                field: str | None, seed, time_limit, progress, out_dir, chart: bool,
                json: bool) -> None:
    """Run the ladder of ``game`` (a :class:`analyzer.ladder.LadderGame`) as the command's
    options say, write ``--out`` files named ``{stem}_…`` and print the text or the JSON."""
    from analyzer.errors import UserError
    from analyzer.ladder import default_deals, render, run_ladder
    from analyzer.options import run_spec
    from analyzer.output import emit, note

    if chart and out_dir is None:
        raise UserError("--chart writes into --out DIR: give --out too")
    if n is None:
        n = default_deals(game, bots, field)
    spec = run_spec(n, seed, None, time_limit, progress, json)
    out = run_ladder(game, bots, spec, field=field)
    if out_dir is not None:
        from analyzer.ladder import write_files

        files = write_files(out, out_dir, title, chart, stem)
        out["files"] = [str(f) for f in files]
        note("wrote " + ", ".join(out["files"]))
    emit(out, json, lambda: render(out, title))
