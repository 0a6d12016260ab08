"""Seats as people number them: from 1, in every input and output (docs/conventions.md).

The programs index seats from 0 inside; :func:`seat_number` is the one door from a number a
person wrote (a position file's ``me``, ``--me``, a Go-Stop stack's ``@2``) to that index, and it
refuses a seat 0 in one line that says seats count from 1.
"""
from __future__ import annotations

from analyzer.errors import UserError


def seat_number(value, where: str, players: int | None = None) -> int:
    """A seat as the user numbers it (1, 2, …) → the index inside the program (0, 1, …)."""
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() \
            and len(value.strip()) <= 6:  # "²" is a digit to Python, not to int()
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(f"{where} must be a seat number (seats count from 1), got {value!r}")
    if value == 0:
        raise UserError(f"{where} = 0: seats count from 1 (the first seat is 1)")
    if value < 0 or (players is not None and value > players):
        top = f"1..{players}" if players is not None else "1, 2, …"
        raise UserError(f"{where} = {value}: seats are {top}")
    return value - 1
