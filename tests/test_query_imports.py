"""The query commands that answer without NumPy keep doing so (issue 16: a query answers faster
than `import numba`, and NumPy is most of what that import costs), and without pydantic (Typer
0.29 imports it to parse options: as costly as NumPy; pyproject.toml keeps Typer below 0.29).
Each is one of the commands `pushluck bench` times, run in a fresh interpreter: its exit code,
and neither numpy, numba nor pydantic imported."""
from __future__ import annotations

import pytest

from analyzer.benchkit import BenchQuery
from tests.module_probe import run_reporting_modules

# (game, bench query name) of every query that loads neither
WITHOUT_NUMPY = [
    ("trash-pandas", "odds --held trash,paw --blammo 1"),
    ("trash-pandas", "score (three players)"),
    ("ten", "odds --tableau r9,$5,$5 --seen b7,b#"),
    ("ten", "score (12-card collection with 4 wilds)"),
    ("ten", "decide (impossible position: one line, exit 2)"),
    ("gostop", "score a capture pile"),
    ("gostop", "score with payments of two opponents"),
    ("canasta", "score (example round)"),
    ("canasta", "check (initial meld at 5000)"),
    ("canasta", "check (add to an existing meld)"),
    ("magdagdon", "feasible (mid-game board)"),
    ("magdagdon", "odds (PEACEFUL, 3 powers left)"),
    ("magdagdon", "score (finished board)"),
    ("trash-pandas", "decide (impossible position: one line, exit 2)"),
    ("gostop", "decide (impossible position: one line, exit 2)"),
    ("canasta", "decide (impossible position: one line, exit 2)"),
]

# queries answered from an exact solution cached on disk: once it is there, they read it without
# NumPy (analyzer/cache.py ``cached_views``); the first run solves it (NumPy and Numba)
FROM_THE_CACHE = [
    ("pig", "decide --me 50 --opp 60 --turn 12"),
    ("ten", "best --tableau r5,r3"),
]


def _query(game: str, name: str) -> BenchQuery:
    from analyzer.games import get_game

    return next(q for q in get_game(game).load("bench")
                if isinstance(q, BenchQuery) and q.name == name)


@pytest.mark.parametrize("game,name", WITHOUT_NUMPY)
def test_the_query_loads_neither_numpy_nor_numba(game, name):
    query = _query(game, name)
    lines, err = run_reporting_modules(list(query.argv), ("numpy", "numba", "pydantic"))
    assert lines[-1] == f"{query.exit_code} False False False", err


@pytest.mark.parametrize("game,name", FROM_THE_CACHE)
def test_the_query_reads_its_cached_solution_without_numpy(game, name, tmp_path, monkeypatch):
    monkeypatch.setenv("PUSHLUCK_CACHE_DIR", str(tmp_path))  # the fresh interpreters' cache
    query = _query(game, name)
    first, _err = run_reporting_modules(list(query.argv), ("numpy",))
    assert first[-1] == f"{query.exit_code} True"  # an empty cache: solved
    lines, err = run_reporting_modules(list(query.argv), ("numpy", "numba", "pydantic"))
    assert lines[-1] == f"{query.exit_code} False False False", err
