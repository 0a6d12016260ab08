"""Type checks for values read from a user's TOML file (positions, score files).

TOML keeps its types: ``bonus = "false"`` is a string, not the boolean false, and Python would
take any non-empty string as true. Each position reader checks every field with these helpers
before using it, so a value of the wrong type is a one-line :class:`~analyzer.errors.UserError`
naming the field (``where``), never a wrong answer or a traceback. Plain Python only.
"""
from __future__ import annotations

from analyzer.errors import UserError


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def need_bool(value, where: str) -> bool:
    """``value`` if it is true or false (TOML booleans only: not "false", "no", 0 or 1)."""
    if not isinstance(value, bool):
        raise UserError(f"{where} must be true or false (without quotes), got {_shown(value)}")
    return value


def need_table(value, where: str) -> dict:
    """``value`` if it is a TOML table."""
    if not isinstance(value, dict):
        raise UserError(f"{where} must be a table, got {_shown(value)}")
    return value


def need_text(value, where: str) -> str:
    """``value`` if it is a string."""
    if not isinstance(value, str):
        raise UserError(f"{where} must be a string in quotes, got {_shown(value)}")
    return value


def need_text_or_texts(value, where: str):
    """``value`` if it is a string or a list of strings (cards written either way)."""
    if isinstance(value, str) or (isinstance(value, list)
                                  and all(isinstance(v, str) for v in value)):
        return value
    raise UserError(f"{where} must be a string or a list of strings, got {_shown(value)}")


def seat_key(key) -> int | None:
    """A table key that names a seat (``[seat.2]``) as an int, or None if it is not written
    with the ASCII digits 0-9 (``"²"`` is a digit to Python, not to a reader)."""
    text = str(key)
    if text.isascii() and text.isdigit() and len(text) <= 3:
        return int(text)
    return None
