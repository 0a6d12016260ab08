"""`pushluck`: the top-level command. Errors become one line on stderr and exit code 2.

Game sub-apps are found in the registry (:mod:`analyzer.games`) and imported only when their name
is on the command line, so a query imports its own game and nothing else.
"""
from __future__ import annotations

import sys

import typer
from typer.core import TyperGroup

from analyzer import interrupts
from analyzer.errors import Interrupted, UserError, was_interrupted

try:  # Typer >= 0.20 vendors Click
    from typer._click import exceptions as _click_exc
except ImportError:  # pragma: no cover
    from click import exceptions as _click_exc

HELP = """Exact and Monte Carlo answers to "should I push my luck?" for tabletop games.

Every command takes --json (one JSON object on stdout). Monte Carlo figures come with their
standard error, 95% interval, sample size and seed; exact answers say so.

Examples:

  pushluck trash-pandas odds --held trash,paw

  pushluck pig decide --me 50 --opp 60 --turn 12

  pushluck ten decide --example auction

  pushluck report pig --out pig-report

Conventions shared by every game (docs/conventions.md): seats count from 1; `decide POSITION`
(`<game> position --template` prints one to fill in); --seats A,B,C one bot per seat, --vs a
line-up to compare, --policy the studied seat; bot knobs NAME:knob=value:knob=value."""


#: Every integer option has a range: a value beyond these bounds is refused by the option parser
#: before any work starts (a game narrows the range further where its rules say so). Seeds may
#: be any integer in [0, 2**64), trial counts up to 10**12 (the runner's own limit); every other
#: integer option lies within ±10**9.
INT_BOUND = 10**9
TRIALS_BOUND = 10**12
SEED_BOUND = 2**64 - 1


def _bounded(callback, low: int, high: int, name: str):
    def check(ctx, param, value):
        for v in (value if isinstance(value, (list, tuple)) else [value]):
            if isinstance(v, int) and not isinstance(v, bool) and not low <= v <= high:
                raise _click_exc.BadParameter(
                    f"{v} is out of range (at most {high:,} in size)", ctx=ctx, param=param)
        return callback(ctx, param, value) if callback is not None else value
    return check


#: Float options that are sizes, limits or losses: they must be positive (or zero for losses).
POSITIVE_FLOATS = ("--precision", "--time-limit", "--alpha")
NONNEGATIVE_FLOATS = ("--max-loss",)


def _finite(callback, name: str, low: float | None, strict: bool):
    def check(ctx, param, value):
        import math

        for v in (value if isinstance(value, (list, tuple)) else [value]):
            if isinstance(v, float):
                if not math.isfinite(v):
                    raise _click_exc.BadParameter(f"{v} is not a finite number", ctx=ctx,
                                                  param=param)
                if low is not None and (v <= low if strict else v < low):
                    raise _click_exc.BadParameter(
                        f"{v} must be {'positive' if strict else 'zero or more'}", ctx=ctx,
                        param=param)
        return callback(ctx, param, value) if callback is not None else value
    return check


def _bare_type(param):
    """int or float for a parameter whose values are integers or floats (Click's ``IntParamType``
    or ``FloatParamType``, ranges included), else None."""
    kinds = {c.__name__ for c in type(getattr(param, "type", None)).__mro__}
    return int if "IntParamType" in kinds else float if "FloatParamType" in kinds else None


def bound_integers(command) -> None:
    """Give every integer option of ``command`` (and its sub-commands) the global range, and
    every float option a finite value (positive for sizes, limits and losses)."""
    for param in getattr(command, "params", []):
        bare = _bare_type(param)
        if bare is None:
            continue
        if bare in (int, "int") and not getattr(param, "_pushluck_bounded", False):
            opts = getattr(param, "opts", [])
            low, high = ((0, SEED_BOUND) if "--seed" in opts else
                         (-TRIALS_BOUND, TRIALS_BOUND) if "--trials" in opts else
                         (-INT_BOUND, INT_BOUND))
            param.callback = _bounded(param.callback, low, high, param.name)
            param._pushluck_bounded = True
        if bare in (float, "float") and not getattr(param, "_pushluck_bounded", False):
            opts = getattr(param, "opts", [])
            if any(o in POSITIVE_FLOATS for o in opts):
                param.callback = _finite(param.callback, param.name, 0.0, True)
            elif any(o in NONNEGATIVE_FLOATS for o in opts):
                param.callback = _finite(param.callback, param.name, 0.0, False)
            else:
                param.callback = _finite(param.callback, param.name, None, False)
            param._pushluck_bounded = True
    for sub in getattr(command, "commands", {}).values():
        bound_integers(sub)


class GamesGroup(TyperGroup):
    """The top-level group: the cross-game verbs, then one lazily loaded sub-app per game."""

    def list_commands(self, ctx):
        from analyzer.games import game_keys

        return list(game_keys()) + [c for c in super().list_commands(ctx)
                                    if c not in game_keys()]

    def get_command(self, ctx, name):
        from analyzer.games import REGISTRY, get_game

        if name not in REGISTRY:
            return super().get_command(ctx, name)
        game = get_game(name)
        sub = game.load("cli")
        sub.rich_markup_mode = None  # plain help, wrapped as written, as the top level
        sub._add_completion = False  # completion is installed once, from the top level
        sub.pretty_exceptions_enable = False
        command = typer.main.get_command(sub)
        command.name = name
        command.short_help = game.summary
        command.help = (command.help or "").rstrip() + (
            f"\n\nRules as modelled, with every decision and house-rule key: "
            f"docs/rules/{game.rules_page} in the repository (`pushluck {name} rules` lists "
            f"the keys).")
        bound_integers(command)
        return command


def build_app() -> typer.Typer:
    from analyzer.cli import bench, report, tune

    app = typer.Typer(cls=GamesGroup, help=HELP, no_args_is_help=True, add_completion=True,
                      pretty_exceptions_enable=False, rich_markup_mode=None)
    for verb in (report, tune, bench):
        verb.register(app)

    @app.callback()
    def _top(version: bool = typer.Option(
            False, "--version", is_eager=True, expose_value=False, callback=_print_version,
            help="Print the version and exit.")):
        pass

    return app


def _print_version(ctx, param, value) -> None:
    """``--version``: eager, so it answers before Click asks for a command."""
    if not value:
        return
    from analyzer import __version__

    sys.stdout.write(f"pushluck {__version__}\n")
    ctx.exit(0)


def _bare_example(args: list[str]) -> list[str]:
    """``--example`` with no name (last, or before another option) asks for the list of names:
    it gets an empty name, which the command answers with the list (analyzer/examples.py)."""
    out: list[str] = []
    for i, a in enumerate(args):
        out.append(a)
        if a == "--example" and (i + 1 == len(args) or args[i + 1].startswith("-")):
            out.append("")
    return out


def main(argv: list[str] | None = None) -> None:
    """Run `pushluck`; a drawn seed is printed after the command ran, never before an error."""
    from analyzer.compile_notice import watch
    from analyzer.options import flush_notes

    flush_notes(keep=False)
    watch()  # one stderr line if a kernel really compiles (never on a cache load)
    if argv is None:  # a real process (tests pass their arguments and keep pytest's handler)
        interrupts.install()
    try:
        _main(argv)
    except SystemExit as exc:
        flush_notes(keep=exc.code in (0, 130, None))
        raise


def _exit_interrupted() -> None:
    from analyzer.options import flush_notes

    flush_notes(keep=True)  # before exit_interrupted, which may end the process at once
    interrupts.exit_interrupted()


def _main(argv: list[str] | None) -> None:
    from analyzer.examples import ExampleList

    command = typer.main.get_command(build_app())
    bound_integers(command)
    args = _bare_example(list(sys.argv[1:] if argv is None else argv))
    try:
        rv = command.main(args=args, prog_name="pushluck", standalone_mode=False)
    except ExampleList as exc:
        sys.stdout.write(f"{exc}\n")
        sys.exit(0)
    except UserError as exc:
        sys.stderr.write(f"pushluck: error: {' '.join(str(exc).split())}\n")
        sys.exit(2)
    except _click_exc.NoArgsIsHelpError as exc:
        sys.stdout.write(exc.ctx.get_help() + "\n")
        sys.exit(0)
    except _click_exc.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx is not None else "pushluck"
        message = " ".join(exc.format_message().split())
        sys.stderr.write(f"{where}: error: {message} (see --help)\n")
        sys.exit(2)
    except _click_exc.ClickException as exc:
        sys.stderr.write(f"pushluck: error: {' '.join(exc.format_message().split())}\n")
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt, Interrupted) as exc:
        what = str(exc) if isinstance(exc, Interrupted) and str(exc) else "nothing finished"
        sys.stderr.write(f"pushluck: interrupted: {what}\n")
        _exit_interrupted()
    except BrokenPipeError:  # pragma: no cover
        sys.exit(0)
    if was_interrupted() or interrupts.sigint_seen():
        _exit_interrupted()
    sys.exit(rv if isinstance(rv, int) else 0)
