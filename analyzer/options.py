"""The one flag vocabulary: options shared by every command of every game, declared once.

Game CLIs (``analyzer/games/<game>/cli.py``) and the cross-game verbs import these, so the same
idea has the same flag, spelling and default everywhere (docs/conventions.md says it in words;
tests/test_conventions.py checks every command against it):

* ``-n/--trials N`` for every sample size; :func:`trials` states the unit and the default;
  with ``--precision`` it is a cap (and without ``-n`` sampling runs until the target is met);
* ``decide POSITION.toml`` takes its position as an argument (:data:`PositionArg`), or a shipped
  example by name (``--example NAME``, :mod:`analyzer.examples`); every ``decide`` that plays
  positions out runs :data:`DECIDE_PLAYOUTS` playouts per choice unless told otherwise;
* ``--seats A,B,…`` one bot per seat (a single bot: every seat), ``--vs`` (repeatable) a second
  line-up compared on common random numbers, ``--policy`` the policy of the studied seat only;
  a bot is ``NAME[:VALUE][:knob=value…]`` with kebab-case knobs (:mod:`analyzer.botspec`);
* seats are numbered from 1 in every input and output (:mod:`analyzer.seats`);
* ``--out DIR`` for every file output, ``--chart`` wherever a command can draw;
* ``--seed``, ``--precision``, ``--time-limit``, ``--progress``, ``--rules``, ``--set``, ``--json``.
"""
from __future__ import annotations

from typing import Annotated, List, Optional

import typer

JsonOpt = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")]
SeedOpt = Annotated[Optional[int], typer.Option(
    "--seed", min=0, metavar="INT",
    help="Seed for the random numbers; a fresh one is drawn and printed if omitted.")]
RulesOpt = Annotated[Optional[str], typer.Option(
    "--rules", metavar="FILE.toml", help="House rules from a TOML file (keys as listed by `rules`).")]
SetOpt = Annotated[Optional[List[str]], typer.Option(
    "--set", metavar="KEY=VALUE", help="Override one rule: --set key=value (repeatable).")]
PrecisionOpt = Annotated[Optional[float], typer.Option(
    "--precision", metavar="HALF-WIDTH",
    help="Keep sampling until the headline 95% half-width is at most this.")]
TimeLimitOpt = Annotated[Optional[float], typer.Option(
    "--time-limit", metavar="SECONDS",
    help="Stop sampling after this many seconds (60 when --precision is given without it).")]
ProgressOpt = Annotated[Optional[bool], typer.Option(
    "--progress/--no-progress", help="Force the progress bar on or off (default: on a terminal).")]
def _checked_out(value: Optional[str]) -> Optional[str]:
    """Check --out before any work starts (see :func:`analyzer.output.check_output_dir`)."""
    if value is not None:
        from analyzer.output import check_output_dir

        check_output_dir(value)
    return value


OutOpt = Annotated[Optional[str], typer.Option(
    "--out", metavar="DIR", callback=_checked_out,
    help="Write tables and charts into this folder (created if needed).")]
ChartOpt = Annotated[bool, typer.Option(
    "--chart", help="Also draw a chart (PNG and SVG) into --out.")]
VsOpt = Annotated[Optional[List[str]], typer.Option(
    "--vs", metavar="POLICY",
    help="Compare against this policy on the same trials (common random numbers; repeatable).")]
LineupVsOpt = Annotated[Optional[List[str]], typer.Option(
    "--vs", metavar="BOT,BOT,…",
    help="Another line-up (as --seats) played on the same deals and dice (common random numbers; "
         "repeatable).")]


def trials(unit: str, default: int, precision: bool = True, note: str = ""):
    """The ``-n/--trials`` option for a command whose trials are ``unit`` (turns, games, deals,
    rounds, playouts per choice): the help names the unit and the default (``note`` adds to the
    default's words). With ``precision`` the option's value is None unless given (resolve it
    with :func:`trials_or_default`): ``--precision`` then makes ``-n`` a cap."""
    cap = "; with --precision: a cap, or none without -n" if precision else ""
    help = f"Number of {unit} (default {default:,}{note}{cap})."
    return Annotated[Optional[int] if precision else int, typer.Option(
        "-n", "--trials", min=1, metavar="N", show_default=False, help=help)]


def trials_or_default(n: int | None, precision: float | None, default: int) -> int | None:
    """``-n`` as given; else ``default`` without ``--precision``, and no cap with it."""
    if n is not None:
        return n
    return None if precision is not None else default


#: Playouts per choice of every ``decide`` that plays a position out (Trash Pandas, Ten,
#: Go-Stop, Railroad Canasta): a warm answer in about a second on one core of a laptop.
DECIDE_PLAYOUTS = 4_000
DecideTrialsOpt = trials("playouts per choice", DECIDE_PLAYOUTS)


def calibrate_trials(default: int):
    """`calibrate`'s ``-n`` (every game that has it, as the two options below): positions,
    each valued by ``--playouts`` playouts per choice."""
    return trials("positions", default, False, ", each valued by --playouts playouts per choice")


MaxLeftOpt = Annotated[int, typer.Option(
    "--max-cards-left", min=0, max=200, metavar="N",
    help="Freeze only decisions taken with at most N cards left in the draw pile.")]
CalibratePlayoutsOpt = Annotated[int, typer.Option(
    "--playouts", min=2, max=1_000_000, metavar="N",
    help="Playouts per choice for each position, for the prediction and for the truth.")]

PositionArg = Annotated[Optional[str], typer.Argument(
    metavar="POSITION.toml", show_default=False,
    help="The position file (`position --template` prints a commented one; or --example NAME).")]
ExampleOpt = Annotated[Optional[str], typer.Option(
    "--example", metavar="NAME",
    help="Use a shipped example position instead of a file (--example alone lists them).")]


def seats_option(help: str, metavar: str = "BOT,BOT,…"):
    """``--seats``: one bot per seat, separated by ',' (a single bot: every seat)."""
    return Annotated[Optional[str], typer.Option(
        "--seats", metavar=metavar,
        help="One bot per seat, separated by ',' (a single bot: every seat; seat 1 first): "
             + help)]


def renamed(flag: str, new: str):
    """A hidden option for an old spelling: giving it fails with one line naming the new one
    (no silent alias). The command takes it as a parameter it never reads."""
    def refuse(ctx, param, value):
        if value is not None:
            from analyzer.errors import UserError

            raise UserError(f"{flag} is no longer accepted here: {new}")
        return value
    return Annotated[Optional[str], typer.Option(flag, hidden=True, callback=refuse)]


def position_command(game: str):
    """The ``<game> position`` command: print the commented template (``--template``) or a
    shipped example (``--example NAME``) of the positions ``<game> decide`` reads."""
    from analyzer.examples import EXAMPLES

    def position(template: Annotated[bool, typer.Option(
                     "--template", help="Print a commented position file with every field "
                     "explained; as printed it is a real position `decide` runs unchanged.")]
                 = False,
                 example: Annotated[Optional[str], typer.Option(
                     "--example", metavar="NAME",
                     help="Print a shipped example position instead (--example alone lists "
                          "them).")] = None,
                 json: JsonOpt = False):
        from pathlib import Path

        from analyzer.errors import UserError
        from analyzer.examples import TEMPLATES, example_path, template_text
        from analyzer.output import emit

        if template == (example is not None):
            raise UserError("give --template (a commented position file) or --example NAME")
        if template:
            name, text = TEMPLATES[game], template_text(game)
        else:
            path = Path(example_path(game, example, "position"))
            name, text = path.name, path.read_text(encoding="utf-8")
        emit({"game": game, "exact": True, "file": name, "text": text}, json,
             lambda: text.rstrip("\n"))

    first = next(iter(EXAMPLES[game]))
    position.__doc__ = f"""Print a position file for `{game} decide`: a commented template or a
    shipped example.

    Examples:

      pushluck {game} position --template > my_position.toml

      pushluck {game} decide my_position.toml --seed 1

      pushluck {game} position --example {first}
    """
    return position


#: Every game that can play a rule of thumb from ``advice`` names it the same way (see
#: analyzer/advice/rulefile.py): the policy ``rule:FILE.json``.
RULE_POLICY = "rule:FILE.json (a rule of thumb written by `advice --out DIR`)"


def policy(help: str, metavar: str = "POLICY"):
    """The ``--policy`` option with the game's own list of policies in its help."""
    return Annotated[Optional[str], typer.Option("--policy", metavar=metavar, help=help)]


def run_spec(n, seed, precision=None, time_limit=None, progress=None, as_json=False):
    """A :class:`~analyzer.runner.RunSpec` from the shared options; a drawn seed is announced on
    stderr (so ``--json`` stays one object)."""
    from analyzer.rng import resolve_seed
    from analyzer.runner import RunSpec

    s, drawn = resolve_seed(seed)
    seed_note(s, drawn, as_json)
    return RunSpec(n, s, precision, time_limit, progress)


#: Notes held back until the command has finished (or was interrupted): a drawn seed is news
#: only for a run that happened, so a refused command prints its one error line and nothing else.
PENDING_NOTES: list[str] = []


def seed_note(seed: int, drawn: bool, as_json: bool) -> None:
    """Tell the user which seed was drawn (stderr, so --json stays clean), once the command has
    run: `pushluck` prints it after the results (see :func:`flush_notes`)."""
    if drawn:
        PENDING_NOTES.append(f"seed {seed} (drawn; pass --seed {seed} to repeat this run)")


def flush_notes(keep: bool = True) -> None:
    """Print the held-back notes (``keep``) or drop them (the command was refused)."""
    if keep:
        from analyzer.output import note

        for message in PENDING_NOTES:
            note(message)
    PENDING_NOTES.clear()


def show_rules(cls, as_json: bool, game: str | None = None) -> None:
    """Print a game's house-rule keys, defaults and meanings."""
    from analyzer.output import emit, table
    from analyzer.rules import describe_rules

    rows = describe_rules(cls)
    payload = {"rules": [{"key": k, "default": d, "help": h} for k, d, h in rows]}
    if game is not None:
        payload = {"game": game, "exact": True, **payload}
    emit(payload, as_json, lambda: table(rows, ["key", "default", "meaning"], "lll"))
