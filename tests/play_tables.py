"""Shared set-up of the table tests (tests/test_play_ten.py, test_play_trash_pandas.py): a table
after some entries, its saved position read back with tomllib (not through the project's
parsers), and the check that a refused entry is one line and changes nothing."""
from __future__ import annotations

import tomllib

import pytest

from analyzer.errors import UserError


def entered(t, entries):
    """The table ``t`` after ``entries``, applied in order."""
    for e in entries:
        t.enter(e)
    return t


def saved(t) -> dict:
    return tomllib.loads(t.position_toml())


def refused(t, entry, words):
    """``entry`` is refused with one line containing ``words``; the table is unchanged."""
    before, n = t.position_toml(), len(t.entries)
    with pytest.raises(UserError) as exc:
        t.enter(entry)
    assert words in str(exc.value), str(exc.value)
    assert "\n" not in str(exc.value)
    assert t.position_toml() == before and len(t.entries) == n  # nothing changed
