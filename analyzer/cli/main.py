"""`pushluck`: the top-level command. Errors become one line on stderr and exit code 2."""
from __future__ import annotations

import sys

import typer

from analyzer.errors import UserError

try:  # Typer >= 0.20 vendors Click
    from typer._click import exceptions as _click_exc
except ImportError:  # pragma: no cover
    from click import exceptions as _click_exc

HELP = """Exact and Monte Carlo answers to "should I push my luck?" for tabletop games.

Every command takes --json (one JSON object on stdout). Monte Carlo figures come with their
standard error, 95% interval, sample size and seed; exact answers say so."""


def build_app() -> typer.Typer:
    from analyzer.cli import bench, pig, trash_pandas

    app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False,
                      pretty_exceptions_enable=False, rich_markup_mode=None)
    trash_pandas.register(app)
    for optional in ("ten", "magdagdon", "gostop", "canasta"):
        _add_optional(app, optional)
    app.add_typer(pig.app, name="pig")
    for optional in ("report", "tune"):
        _add_optional(app, optional)
    bench.register(app)
    return app


def _add_optional(app: typer.Typer, name: str) -> None:
    """Games and verbs that register themselves when their module exists."""
    import importlib

    try:
        module = importlib.import_module(f"analyzer.cli.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"analyzer.cli.{name}":
            return
        raise
    module.register(app)


def main(argv: list[str] | None = None) -> None:
    command = typer.main.get_command(build_app())
    try:
        rv = command.main(args=argv, prog_name="pushluck", standalone_mode=False)
    except UserError as exc:
        sys.stderr.write(f"pushluck: error: {exc}\n")
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
    except typer.Abort:
        sys.stderr.write("pushluck: aborted\n")
        sys.exit(130)
    except BrokenPipeError:  # pragma: no cover
        sys.exit(0)
    sys.exit(rv if isinstance(rv, int) else 0)
