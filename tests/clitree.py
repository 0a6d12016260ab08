"""Every command of `pushluck`, as the real CLI builds it (Typer → Click), for tests that walk
the whole command tree: the conventions test and the help-examples test."""
from __future__ import annotations

import re

EXAMPLE_LINE = re.compile(r"^\s*(pushluck [^\n]*?)\s*$")


def root():
    """The top-level Click group, integer bounds applied as `pushluck` applies them."""
    import typer

    from analyzer.cli.main import bound_integers, build_app

    command = typer.main.get_command(build_app())
    bound_integers(command)
    return command


def _is_group(command) -> bool:
    return hasattr(command, "list_commands")  # Typer's own (vendored) Click group


def walk(command=None, path=()):
    """(path, command) for the root, every group and every leaf command, in help order."""
    command = command or root()
    yield path, command
    if _is_group(command):
        ctx = type(command).context_class(command)
        for name in command.list_commands(ctx):
            yield from walk(command.get_command(ctx, name), path + (name,))


def leaves():
    return [(p, c) for p, c in walk() if not _is_group(c)]


def help_text(command) -> str:
    """The help as written (the docstring and the epilog), before Click wraps it."""
    return (command.help or "") + "\n" + (command.epilog or "")


def examples(command) -> list[str]:
    """The example command lines of a command's help, in order."""
    return [m.group(1) for line in help_text(command).splitlines()
            if (m := EXAMPLE_LINE.match(line))]


def option(command, flag: str):
    """The visible option ``flag`` of ``command`` (None if it has none)."""
    for p in command.params:
        if flag in getattr(p, "opts", ()) and not getattr(p, "hidden", False):
            return p
    return None
