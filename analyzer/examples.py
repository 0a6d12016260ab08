"""Shipped example positions and position templates, reachable by name from any folder.

The files are package data (``analyzer/data/``), so ``pushluck ten decide --example auction``
and ``pushluck ten position --template`` work wherever pushluck is installed, and every example
in a ``--help`` runs from an empty folder. :data:`EXAMPLES` is the one list of their names.
"""
from __future__ import annotations

from pathlib import Path

from analyzer.errors import UserError

DATA = Path(__file__).resolve().parent / "data"

#: game → example name → file under analyzer/data (the first name is the game's basic example).
EXAMPLES: dict[str, dict[str, str]] = {
    "trash-pandas": {"basic": "trash_pandas_position_example.toml"},
    "ten": {"basic": "ten_position_example.toml", "buy": "ten_position_buy_example.toml",
            "auction": "ten_position_auction_example.toml"},
    "gostop": {"basic": "gostop_position_example.toml"},
    "canasta": {"basic": "canasta_position_example.toml",
                "goout": "canasta_position_goout_example.toml"},
    "canasta-score": {"basic": "canasta_score_example.toml"},
}

#: game → the commented template of ``<game> position --template`` (a real position).
TEMPLATES: dict[str, str] = {
    "trash-pandas": "trash_pandas_position_template.toml",
    "ten": "ten_position_template.toml",
    "gostop": "gostop_position_template.toml",
    "canasta": "canasta_position_template.toml",
}


class ExampleList(Exception):
    """``--example`` given without a name: the caller prints :func:`names_line` and stops."""


def names_line(game: str, command: str = "decide") -> str:
    """The example names of ``game`` in one line."""
    names = ", ".join(EXAMPLES[game])
    shown = game if game != "canasta-score" else "canasta"
    return f"examples of `{shown} {command}`: {names} (use --example NAME)"


def example_path(game: str, name: str, command: str = "decide") -> str:
    """The file of example ``name``; an empty name lists the names (:class:`ExampleList`), an
    unknown one is a one-line error listing them."""
    known = EXAMPLES[game]
    if not name.strip():
        raise ExampleList(names_line(game, command))
    key = name.strip().lower()
    if key not in known:
        raise UserError(f"--example '{name}': no such example; {names_line(game, command)}")
    return str(DATA / known[key])


def position_file(game: str, position: str | None, example: str | None,
                  command: str = "decide") -> str:
    """The position a command reads: the POSITION argument or ``--example NAME`` (one of them)."""
    if example is not None:
        if position is not None:
            raise UserError(f"give a position file or --example, not both ({position!r} and "
                            f"--example {example})")
        return example_path(game, example, command)
    if position is None:
        what = "a round file (FILE.toml)" if game == "canasta-score" else \
            "a position file (POSITION.toml)"
        raise UserError(f"give {what} or --example NAME ({names_line(game, command)})")
    return position


def template_text(game: str) -> str:
    return (DATA / TEMPLATES[game]).read_text(encoding="utf-8")
