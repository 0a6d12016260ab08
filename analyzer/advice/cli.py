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


def race_precision_option(unit: str):
    """``--precision`` of a raced advice command, in the game's ``unit``."""
    return Annotated[float, typer.Option(
        "--precision", metavar="HALF-WIDTH",
        help=f"Race until every surviving rule's loss half-width is at most this ({unit}).")]


def race_indifference_option(unit: str):
    """``--indifference`` of a raced advice command, in the game's ``unit`` (default: the
    precision; :func:`analyzer.advice.race.race_blocks` states the test)."""
    return Annotated[Optional[float], typer.Option(
        "--indifference", metavar="DELTA", min=0.0,
        help=f"Drop a rule once it is shown not to beat the best simpler surviving rule by more "
             f"than DELTA ({unit}): it is not worth remembering. Default: the --precision; "
             f"0 keeps every rule not shown worse.")]


def race_rounds_option(per_round: str):
    """``--rounds`` of a raced advice command; ``per_round`` says what one round plays."""
    return Annotated[int, typer.Option(
        "--rounds", min=1, max=200, help=f"Most racing rounds (each: {per_round}).")]


def record_games_option(what: str = "games"):
    """``--record-games`` of a raced advice command: fresh ``what`` each front rule plays to say
    where it goes wrong (:mod:`analyzer.advice.record`); 0 skips it."""
    return Annotated[int, typer.Option(
        "--record-games", min=0, max=1_000_000,
        help=f"Fresh {what} each rule on the front plays (a stream of the seed apart from the "
             f"race's) to find the states where it decides otherwise than the best rule; "
             f"0 skips it.")]


def band_by_option(choices: Sequence[str], words: str):
    """``--band-by`` of the whole-game advice commands: which banded stop rules to race besides
    the single thresholds (``words`` says what each feature is)."""
    return Annotated[str, typer.Option(
        "--band-by", metavar="|".join(choices),
        help=f"Which banded rules to race besides the single thresholds: {words}, both (all) or "
             f"neither (none).")]


def check_band_by(value: str, choices: Sequence[str]) -> str:
    from analyzer.errors import UserError

    if value not in choices:
        raise UserError(f"--band-by must be one of {', '.join(choices)}, got '{value}'")
    return value


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
            f"survived {cost['rounds']} rounds" + _zone_words(cost))


def _zone_words(cost: dict) -> str:
    if not cost.get("indifference"):
        return ""
    return (f"; {cost['indifferent']} dropped for gaining less than {cost['indifference']:g} "
            f"over a simpler rule (--indifference)")


def write_rules(out, payload: dict) -> list[str]:
    """With ``--out DIR``: each front rule as DIR/rule_cx<complexity>.json (and the --max-loss
    pick as DIR/rule_simplest.json), ready for ``--policy rule:FILE.json``; the paths written
    are added to ``payload["written"]``. After an interrupted race each file says
    ``"interrupted": true``."""
    if out is None:
        return []
    import json

    from analyzer.errors import was_interrupted
    from analyzer.output import atomic_write_text, check_output_dir

    folder = check_output_dir(out)
    rows = [(f"rule_cx{r['complexity']}.json", r) for r in payload["front"]]
    if payload.get("simplest_within"):
        rows.append(("rule_simplest.json", payload["simplest_within"]))
    written = []
    for name, r in rows:
        keep = {"game": payload["game"], "words": r["words"], "complexity": r["complexity"],
                "loss": r["loss"], "rule": r["rule"]}
        if was_interrupted():  # the race stopped early: its losses cover the finished rounds
            keep["interrupted"] = True
        written.append(str(atomic_write_text(folder / name, json.dumps(keep, indent=2) + "\n")))
    payload["written"] = written
    return written


def raced_payload(payload: dict, res: dict, max_loss, out) -> list[dict]:
    """Fill ``payload`` from a :func:`analyzer.advice.race.race_family` result: the front, every
    candidate (best first), the reference, the race's costs, --max-loss's pick among the
    survivors' front, and --out's rule files. Returns the front rows."""
    from analyzer.advice import pareto, simplest_within
    from analyzer.advice.race import candidate_row

    rows = [candidate_row(x) for x in res["front"]]
    payload.update(reference=res["reference"].to_json(), front=rows,
                   all=[candidate_row(x) for x in sorted(res["all"], key=lambda x: x.loss)],
                   race=res["race"], seconds=res["seconds"])
    if max_loss is not None:
        pick = simplest_within(pareto([x for x in res["all"] if x.extra["survived"]]), max_loss)
        payload["max_loss"] = max_loss
        payload["simplest_within"] = None if pick is None else candidate_row(pick)
    write_rules(out, payload)
    return rows


def raced_lines(rows, digits: int, unit: str = "", extra=None) -> list[str]:
    """The front of a race as lines: complexity, loss [interval] and the rule in words (then
    ``extra(row)`` in brackets when given); then, for each row that carries ``mistakes``, where
    that rule goes wrong (:func:`analyzer.advice.mistakes.mistake_lines`; a list of such
    summaries, each labelled by its ``decision``, when a candidate makes several decisions)."""
    w = 2 * digits + 14
    lines = [f"  {'cx':>3}  {('loss ' + unit).strip():>{w}}  rule"]
    for x in rows:
        L = x["loss"]
        txt = f"{L['estimate']:.{digits}f} [{L['ci_low']:.{digits}f}, {L['ci_high']:.{digits}f}]"
        lines.append(f"  {x['complexity']:>3}  {txt:>{w}}  {x['words']}" +
                     (f" ({extra(x)})" if extra else ""))
    return lines + mistakes_block(rows)


def mistakes_block(rows) -> list[str]:
    """For each front row that carries ``mistakes`` (a Monte Carlo game's record, as made by
    :func:`analyzer.advice.mistakes.where_wrong`, or a list of them labelled by ``decision``
    when a candidate makes several decisions), where that rule goes wrong
    (:func:`analyzer.advice.mistakes.mistake_lines`)."""
    from analyzer.advice.mistakes import mistake_lines

    lines = []
    for x in rows:
        if x.get("mistakes") is None:
            continue
        lines.append(f"  cx {x['complexity']}:")
        parts = x["mistakes"] if isinstance(x["mistakes"], list) else [x["mistakes"]]
        for m in parts:
            if m.get("decision"):
                lines.append(f"    {m['decision']}:")
            lines += mistake_lines(m, indent="      " if m.get("decision") else "    ")
    return lines


def emit_raced(payload: dict, res: dict, title: str, *, max_loss, out, json: bool,
               digits: int = 4, unit: str = "", extra=None, more=None) -> None:
    """Fill ``payload`` from a race (:func:`raced_payload`) and print it: ``title``, the front
    (:func:`raced_lines` with ``digits``, ``unit``, ``extra``), the lines ``more(payload)``
    gives, the race's costs and the tail; or the JSON object with ``--json``."""
    from analyzer.output import emit

    rows = raced_payload(payload, res, max_loss, out)

    def render():
        lines = [title, *raced_lines(rows, digits, unit, extra=extra),
                 *(more(payload) if more else []), race_line(res["race"])]
        return "\n".join(lines + tail_lines(payload, f"{res['seconds']:.1f} s"))

    emit(payload, json, render)
