"""`pushluck`: the top-level command. Errors become one line on stderr and exit code 2.

Game sub-apps are found in the registry (:mod:`analyzer.games`) and imported only when their name
is on the command line, so a query imports its own game and nothing else.
"""
from __future__ import annotations

import sys

import typer
from typer.core import TyperGroup

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

  pushluck report pig --out reports/out"""


def _metavar_without_type() -> None:
    """Typer prints an argument's Python type beside its metavar (``POSITION.toml <str>``); where
    a command names the metavar in words, the type is noise, so show the metavar alone."""
    from typer.core import TyperArgument

    shown = TyperArgument.display_type_rich

    def display(self, ctx):
        return "" if self.metavar else shown(self, ctx)

    TyperArgument.display_type_rich = display


_metavar_without_type()


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
        return command


def build_app() -> typer.Typer:
    from analyzer.cli import bench, report, tune

    app = typer.Typer(cls=GamesGroup, help=HELP, no_args_is_help=True, add_completion=True,
                      pretty_exceptions_enable=False, rich_markup_mode=None)
    for verb in (report, tune, bench):
        verb.register(app)

    @app.callback()
    def _top(version: bool = typer.Option(
            False, "--version", is_eager=True, help="Print the version and exit.")):
        if version:
            from importlib import metadata

            try:
                v = metadata.version("pushluck")
            except metadata.PackageNotFoundError:  # pragma: no cover - run from a bare tree
                v = "unknown"
            sys.stdout.write(f"pushluck {v}\n")
            raise typer.Exit(0)

    return app


def main(argv: list[str] | None = None) -> None:
    command = typer.main.get_command(build_app())
    try:
        rv = command.main(args=argv, prog_name="pushluck", standalone_mode=False)
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
        sys.exit(130)
    except BrokenPipeError:  # pragma: no cover
        sys.exit(0)
    if was_interrupted():
        sys.exit(130)
    sys.exit(rv if isinstance(rv, int) else 0)
