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


def opponents_option(default: str, example: str):
    """``--seats BOT,BOT,…`` of a whole-game advice command: the line-up the rules are raced in;
    the studied seat takes every seat in turn, its bot replaced by each rule."""
    return Annotated[Optional[str], typer.Option(
        "--seats", metavar="BOT,BOT,…",
        help=f"The line-up the rules play in: one bot per seat, separated by ',' (a single bot "
             f"means every seat; knobs after ':' as in `game --seats`), e.g. {example}. The "
             f"studied seat takes every seat in turn, its bot replaced by each rule. Default: "
             f"{default} in every seat.")]


def parse_opponents(text: Optional[str], default: str, parse_seats, players: int, recordable,
                    record_games: int) -> tuple:
    """The line-up of ``--seats`` (``default`` in every seat when not given), its label and the
    recording games left: a line-up holding a bot the recording engine cannot play
    (``recordable`` false: search, and in Trash Pandas rollout) skips the recording with a note
    on stderr instead of recording against other opponents than the race's."""
    import sys

    lineup = tuple(parse_seats(text or default, players, "--seats"))
    labels = [b.label for b in lineup]
    label = labels[0] if len(set(labels)) == 1 else ",".join(labels)
    if record_games and not all(recordable(b) for b in lineup):
        print(f"note: where each rule goes wrong is not recorded against {label} (the "
              f"recording engine does not play every bot of it); --record-games ignored",
              file=sys.stderr)
        record_games = 0
    return lineup, label, record_games


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


def plain_fields(payload: dict, rows: Sequence[dict], unit: str, exact: bool,
                 against: str = "perfect play", digits: int = 4) -> None:
    """The plain fields of the JSON (:mod:`analyzer.advice.words`): ``unit_words``, the
    sentence to ``remember`` and, for a race, each row's ``verdict``."""
    from analyzer.advice.words import add_verdicts, remember

    if not exact:
        add_verdicts(rows)
        add_verdicts(payload.get("all") or [])
        if payload.get("simplest_within"):
            add_verdicts([payload["simplest_within"]])
    payload["unit_words"] = unit
    payload["remember"] = remember(payload, rows, unit, against, exact, digits)


def tail_lines(payload: dict, what: str) -> list[str]:
    """The --max-loss answer (if asked), where the rule files are (or how to write them) and the
    closing line ``what``."""
    from analyzer.words import sig

    out = []
    if "max_loss" in payload:
        p = payload["simplest_within"]
        unit = payload.get("unit_words", "")
        if p is None:
            out.append(f"Simplest rule within --max-loss {payload['max_loss']:g}: none found")
        else:
            L = p["loss"]
            cost = (f"loss {sig(L)} {unit}" if not isinstance(L, dict) else
                    f"loss {sig(L['estimate'])} {unit}, at most {sig(L['ci_high'])} (95%)")
            out.append(f"Simplest rule within --max-loss {payload['max_loss']:g} "
                       f"(size {p['complexity']}, {cost.strip()}): {p['words']}")
    if payload.get("written"):
        out.append("Rules written (play one back as the policy rule:FILE): " +
                   ", ".join(payload["written"]))
    else:
        out.append("To play a rule back: --out DIR writes each rule above as "
                   "DIR/rule_cx<size>.json, then give rule:DIR/rule_cx<size>.json as a policy.")
    out.append(what)
    return out


def advice_text(payload: dict, rows: Sequence[dict], *, title, unit: str, exact: bool,
                footer: str, against: str = "perfect play", digits: int = 4, extra=None,
                wrong: Sequence[str] = (), more: Sequence[str] = ()) -> str:
    """An advice run as text that fits 80 columns (:mod:`analyzer.advice.words`): ``title`` (a
    line or lines), the sentence to remember, the simplest rules and what they cost (``unit``;
    ``extra(row)`` names the bot), for a race the rules not separated from the best found,
    where each rule goes wrong (a race's rows carry it; an exact game passes its ``wrong``
    lines), ``more`` lines, the race's cost, the --max-loss answer, rule files and ``footer``."""
    from analyzer.advice.words import fit, front_lines, not_separated_lines, race_line, remember

    lines = [title] if isinstance(title, str) else list(title)
    lines += [remember(payload, rows, unit, against, exact, digits), ""]
    lines += front_lines(rows, unit, against, exact, digits, extra)
    if not exact:
        lines += not_separated_lines(payload.get("all") or rows, rows, unit, digits)
        wrong = mistakes_block(rows)
    if wrong:
        lines += ["Where each rule goes wrong:", *wrong]
    lines += list(more)
    if not exact:
        lines.append(race_line(payload["race"]))
    return "\n".join(fit(lines + tail_lines(payload, footer)))


def per_turn(m: dict) -> str:
    """How often a turn rule goes wrong: "0.167 wrong decisions per turn"."""
    return f"{m['wrong_per_turn']:.3f} wrong decisions per turn"


def emit_exact(payload: dict, rows: Sequence[dict], res: dict, *, title, unit: str, where,
               out, json: bool, how_often=per_turn, against: str = "perfect play") -> None:
    """An exact game's advice run: its plain fields (:func:`plain_fields`), --out's rule files,
    then the text (:func:`advice_text`: after "size N: " ``how_often(mistakes)`` and
    ``where(mistakes)`` say how often and where each rule goes wrong; the footer counts the
    rules evaluated) or the JSON object."""
    from analyzer.output import emit

    plain_fields(payload, rows, unit, exact=True, against=against)
    write_rules(out, payload)

    def render():
        wrong = [f"  size {r['complexity']}: {how_often(r['mistakes'])}{where(r['mistakes'])}"
                 for r in rows]
        return advice_text(payload, rows, title=title, unit=unit, exact=True, against=against,
                           wrong=wrong,
                           footer=f"{res['evaluations']} rules evaluated exactly in "
                                  f"{res['seconds']:.1f} s")

    emit(payload, json, render)


def race_line(cost: dict) -> str:
    """What a race cost against the equal-guarantee grid, in one line
    (:func:`analyzer.advice.words.race_line`; the report parts quote it)."""
    from analyzer.advice.words import race_line as line

    return line(cost)


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


def mistakes_block(rows) -> list[str]:
    """For each front row that carries ``mistakes`` (a Monte Carlo game's record, as made by
    :func:`analyzer.advice.mistakes.where_wrong`, or a list of them labelled by ``decision``
    when a candidate makes several decisions), where that rule goes wrong
    (:func:`analyzer.advice.mistakes.mistake_lines`), under "size N:"."""
    from analyzer.advice.mistakes import mistake_lines

    lines = []
    for x in rows:
        if x.get("mistakes") is None:
            continue
        lines.append(f"  size {x['complexity']}:")
        parts = x["mistakes"] if isinstance(x["mistakes"], list) else [x["mistakes"]]
        for m in parts:
            if m.get("decision"):
                lines.append(f"    {m['decision']}:")
            lines += mistake_lines(m, indent="      " if m.get("decision") else "    ")
    return lines


def emit_raced(payload: dict, res: dict, title: str, *, max_loss, out, json: bool, unit: str,
               digits: int = 4, extra=None, more=None) -> None:
    """Fill ``payload`` from a race (:func:`raced_payload`, :func:`plain_fields` with the loss's
    ``unit`` in words) and print it (:func:`advice_text`; ``more(payload)`` adds lines); or the
    JSON object with ``--json``."""
    from analyzer.output import emit

    rows = raced_payload(payload, res, max_loss, out)
    plain_fields(payload, rows, unit, exact=False, digits=digits)

    def render():
        return advice_text(payload, rows, title=title, unit=unit, exact=False, digits=digits,
                           extra=extra, more=more(payload) if more else (),
                           footer=f"{res['seconds']:.1f} s")

    emit(payload, json, render)
