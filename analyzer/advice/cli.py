"""The shared options and printing of every game's ``advice`` command (Typer; no numpy)."""
from __future__ import annotations

from typing import Annotated, Optional, Sequence

import typer

MaxLossOpt = Annotated[Optional[float], typer.Option(
    "--max-loss", metavar="EPS",
    help="Also name the simplest rule whose loss (upper bound, for Monte Carlo) is at most EPS, "
         "in the game's unit.")]
BandsOpt = Annotated[int, typer.Option(
    min=1, max=3, help="Most bands of a threshold rule (1: no banded rules).")]
ClausesOpt = Annotated[int, typer.Option(min=1, max=3, help="Most conditions of a decision list.")]


def front_payload(payload: dict, front, features, decision, max_loss) -> list[dict]:
    """Add ``front`` (and ``simplest_within`` with --max-loss) to ``payload``; returns the rows."""
    from analyzer.advice import rule_row, simplest_within

    rows = [rule_row(s, features, decision) for s in front]
    payload["front"] = rows
    if max_loss is not None:
        pick = simplest_within(front, max_loss)
        payload["max_loss"] = max_loss
        payload["simplest_within"] = None if pick is None else rule_row(pick, features, decision)
    return rows


def tail_lines(payload: dict, what: str) -> list[str]:
    """The --max-loss answer (if asked) and the closing line ``what``."""
    out = []
    if "max_loss" in payload:
        p = payload["simplest_within"]
        loss = None if p is None else p["loss"]
        if isinstance(loss, dict):
            loss = loss["estimate"]
        out.append(f"Simplest rule within {payload['max_loss']}: " +
                   ("none found" if p is None else f"{p['words']} (loss {loss:.4f})"))
    if payload.get("written"):
        out.append("Rules written (play one back as the policy rule:FILE): " +
                   ", ".join(payload["written"]))
    out.append(what)
    return out


def front_block(rows: Sequence[dict], unit: str, digits: int = 4) -> list[str]:
    from analyzer.advice import front_text

    return ["Pareto front (complexity = numbers + conditions to remember):",
            front_text(rows, unit, digits)]


def race_line(cost: dict) -> str:
    """Both costs of a race (:func:`analyzer.advice.race.race_blocks`) in one line."""
    u = cost["unit"]
    return (f"Racing: {cost['trials_spent']:,} {u} spent vs {cost['trials_flat']:,} to take every "
            f"one of the {cost['candidates']} rules to the survivors' sample "
            f"({cost['trials_flat'] / cost['trials_spent']:.1f}× fewer); {cost['survivors']} "
            f"survived {cost['rounds']} rounds")


def write_rules(out, payload: dict) -> list[str]:
    """With ``--out DIR``: each front rule as DIR/rule_cx<complexity>.json (and the --max-loss
    pick as DIR/rule_simplest.json), ready for ``--policy rule:FILE.json``; the paths written
    are added to ``payload["written"]``."""
    if out is None:
        return []
    import json

    from analyzer.output import atomic_write_text, check_output_dir

    folder = check_output_dir(out)
    rows = [(f"rule_cx{r['complexity']}.json", r) for r in payload["front"]]
    if payload.get("simplest_within"):
        rows.append(("rule_simplest.json", payload["simplest_within"]))
    written = []
    for name, r in rows:
        keep = {"game": payload["game"], "words": r["words"], "complexity": r["complexity"],
                "loss": r["loss"], "rule": r["rule"]}
        written.append(str(atomic_write_text(folder / name, json.dumps(keep, indent=2) + "\n")))
    payload["written"] = written
    return written
