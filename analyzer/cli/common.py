"""Options shared by every command, declared once."""
from __future__ import annotations

from typing import List, Optional

import typer
from typing import Annotated

JsonOpt = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")]
SeedOpt = Annotated[Optional[int], typer.Option(
    "--seed", min=0, help="Seed for the random numbers; a fresh one is drawn and printed if omitted.")]
RulesOpt = Annotated[Optional[str], typer.Option(
    "--rules", help="House rules from a TOML file (keys as listed by `rules`).")]
SetOpt = Annotated[Optional[List[str]], typer.Option(
    "--set", help="Override one rule: --set key=value (repeatable).")]
PrecisionOpt = Annotated[Optional[float], typer.Option(
    "--precision", help="Keep sampling until the headline 95% half-width is at most this.")]
TimeLimitOpt = Annotated[Optional[float], typer.Option(
    "--time-limit", help="Stop sampling after this many seconds (default 60 with --precision).")]
ProgressOpt = Annotated[Optional[bool], typer.Option(
    "--progress/--no-progress", help="Force the progress bar on or off (default: on a terminal).")]


def seed_note(seed: int, drawn: bool, as_json: bool) -> None:
    """Tell the user which seed was drawn (stderr, so --json stays clean)."""
    if drawn:
        from analyzer.output import note

        note(f"seed {seed} (drawn; pass --seed {seed} to repeat this run)")


def show_rules(cls, as_json: bool) -> None:
    """Print a game's house-rule keys, defaults and meanings."""
    from analyzer.output import emit, table
    from analyzer.rules import describe_rules

    rows = describe_rules(cls)
    emit({"rules": [{"key": k, "default": d, "help": h} for k, d, h in rows]}, as_json,
         lambda: table(rows, ["key", "default", "meaning"], "lll"))
