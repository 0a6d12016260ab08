"""`pushluck`: the top-level command. Errors become one line on stderr and exit code 2.

Game sub-apps are found in the registry (:mod:`analyzer.games`) and imported only when their name
is on the command line, so a query imports its own game and nothing else.
"""
from __future__ import annotations

import sys

from analyzer import startup as _startup

if _startup.is_console_script():  # the `pushluck` script imports this module first
    _startup.begin()

import typer  # noqa: E402 - after the signal handler is in place
from typer.core import TyperGroup

from analyzer import interrupts  # noqa: E402
from analyzer.errors import Interrupted, IOFailure, UserError, was_interrupted  # noqa: E402

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


def guard_outputs(command, path: str = "") -> None:
    """Run :func:`analyzer.output.preflight_out` before every command of ``command`` (and its
    sub-commands) that writes ``--out`` (the names it writes are listed once, in
    :data:`analyzer.output.OUTPUT_NAMES`), after its options are parsed and before its work."""
    subs = getattr(command, "commands", None)
    if subs is not None:
        for name, sub in subs.items():
            guard_outputs(sub, f"{path} {name}".strip())
        return
    from analyzer.output import OUTPUT_NAMES

    out = next((p.name for p in command.params if "--out" in getattr(p, "opts", ())), None)
    if out is None or path == "report" or command.callback is None \
            or getattr(command, "_pushluck_guarded", False):
        return  # report checks each report's folder itself (analyzer/report_folder.py)
    if path not in OUTPUT_NAMES:  # tests/test_output_preflight.py keeps the list complete
        return
    work = command.callback

    def preflight_then_work(**params):
        if params.get(out) is not None:
            from analyzer.output import preflight_out

            preflight_out(path, params[out], {**params, "out": params[out]})
        return work(**params)

    command.callback = preflight_then_work
    command._pushluck_guarded = True


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
        guard_outputs(command, name)
        return command


def build_app() -> typer.Typer:
    from analyzer.cli import bench, play, report, tune

    app = typer.Typer(cls=GamesGroup, help=HELP, no_args_is_help=True, add_completion=True,
                      pretty_exceptions_enable=False, rich_markup_mode=None)
    for verb in (report, tune, bench, play):
        verb.register(app)

    @app.callback()
    def _top(version: bool = typer.Option(
            False, "--version", is_eager=True, expose_value=False, callback=_print_version,
            help="Print the version and exit.")):
        pass

    return app


def root_command():
    """The Click command `pushluck` runs: every integer option bounded, every float finite
    (:func:`bound_integers`), every --out checked before the work (:func:`guard_outputs`); the
    games' sub-commands get the same when loaded (:meth:`GamesGroup.get_command`)."""
    command = typer.main.get_command(build_app())
    bound_integers(command)
    guard_outputs(command)
    return command


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
        _start_process()
    try:
        try:
            _main(argv)
        except IOFailure as exc:  # stdout failed while an error or the help was printed
            sys.stderr.write(f"pushluck: error: {exc}\n")
            sys.exit(1)
    except SystemExit as exc:
        flush_notes(keep=exc.code in (0, 130, 143, None))
        if argv is None:
            _flush_output(exc.code)
        raise


def _start_process() -> None:
    """The process-wide setup of a real `pushluck` run (:mod:`analyzer.startup`: signal
    handlers, closed streams, guarded stdout, the environment Numba reads), then arm the
    handler; a Ctrl-C or SIGTERM that came while Python was still importing ends it here."""
    _startup.begin()
    if interrupts.arm():
        _stopped_with_nothing()


def _flush_output(code) -> None:
    """Flush stdout before the interpreter does: a full device or a closed pipe then ends in
    one line and exit code 1 (0 for a reader that went away) instead of a traceback at exit."""
    try:
        sys.stdout.flush()
    except IOFailure as exc:
        sys.stderr.write(f"pushluck: error: {exc}\n")
        if code in (0, None):
            raise SystemExit(1) from None
    except BrokenPipeError:
        pass


def _stopped_with_nothing() -> None:
    sys.stderr.write(f"pushluck: {interrupts.stopped_word()}: nothing finished\n")
    _exit_interrupted()


def _exit_interrupted() -> None:
    from analyzer.options import flush_notes

    flush_notes(keep=True)  # before exit_interrupted, which may end the process at once
    interrupts.exit_interrupted()


def _take_back(argv: list[str] | None) -> str:
    """After a failed write: remove the files this command had written (an incomplete set),
    except in a report or a target search, whose finished parts and rounds are complete
    checkpoints (a part's manifest is written last) that a rerun resumes from. Returns the
    words to add to the error line."""
    from analyzer.output import WRITTEN

    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["report"] or words[:1] == ["tune"] and "--target" in words:
        return "; the finished parts are kept: rerun the same command to resume"
    removed = 0
    for p in WRITTEN:
        try:
            p.unlink()
            removed += 1
        except OSError:
            pass
    WRITTEN.clear()
    return (f"; removed the {removed} file(s) this command had written (an incomplete set)"
            if removed else "")


def _main(argv: list[str] | None) -> None:
    from analyzer.examples import ExampleList
    from analyzer.output import WRITTEN

    WRITTEN.clear()
    try:
        command = root_command()  # a signal may land here too
        args = _bare_example(list(sys.argv[1:] if argv is None else argv))
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
        if not (isinstance(exc, Interrupted) and str(exc)):
            _stopped_with_nothing()
        sys.stderr.write(f"pushluck: {interrupts.stopped_word()}: {exc}\n")
        _exit_interrupted()
    except BrokenPipeError:  # pragma: no cover
        sys.exit(0)
    except IOFailure as exc:
        sys.stderr.write(f"pushluck: error: {' '.join(str(exc).split())}{_take_back(argv)}\n")
        sys.exit(1)
    except OSError as exc:  # a path or a write the system refused where no check caught it
        if interrupts.sigint_seen():
            _stopped_with_nothing()
        _os_error(exc, argv)
    except Exception as exc:
        # Ctrl-C landing inside a compiled kernel's call can surface as another exception
        # ("SystemError: CPUDispatcher(...) returned a result with an exception set"): after a
        # signal, any failure is the interrupt's
        if interrupts.sigint_seen():
            _stopped_with_nothing()
        layer = _startup.threading_layer_failure(exc)
        if layer is None:
            raise
        sys.stderr.write(f"pushluck: error: {layer}\n")
        sys.exit(2)
    if rv == 130 and interrupts.sigint_seen() and not was_interrupted():
        # Typer turns a KeyboardInterrupt that escaped the command into a return value of 130:
        # nothing was printed, so say why the command stopped
        _stopped_with_nothing()
    if was_interrupted() or interrupts.sigint_seen():
        _exit_interrupted()
    sys.exit(rv if isinstance(rv, int) else 0)


def _os_error(exc: OSError, argv: list[str] | None) -> None:
    """One line for an OSError that reached the top: exit code 1 for a failed device or a full
    disk (after taking back an incomplete set of files), 2 for a path the system refused (a
    name too long, a loop of links, no permission)."""
    from analyzer.output import IO_ERRNOS
    from analyzer.userfile import shown

    where = f" ({shown(exc.filename)})" if exc.filename else ""
    reason = exc.strerror or str(exc)
    if exc.errno in IO_ERRNOS:
        sys.stderr.write(f"pushluck: error: {reason}{where}{_take_back(argv)}\n")
        sys.exit(1)
    sys.stderr.write(f"pushluck: error: {reason}{where}\n")
    sys.exit(2)
