"""The solver bots' turn tables are solved once per rules and code version and then read from
the solution cache (analyzer/games/trash_pandas/bots.py ``solver_tables``)."""
from __future__ import annotations

import numpy as np

from analyzer.games.trash_pandas import bots as B
from analyzer.games.trash_pandas.rules import TrashPandasRules


def _counting(monkeypatch):
    solved = []
    real = B._solve_tables

    def solve(rules):
        solved.append(rules)
        return real(rules)

    monkeypatch.setattr(B, "_solve_tables", solve)
    return solved


def test_tables_are_solved_once_per_rules_then_read(tmp_path, monkeypatch):
    from analyzer import cache

    monkeypatch.setenv("PUSHLUCK_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("PUSHLUCK_NO_CACHE", raising=False)
    # the package ships the default rules' tables (tests/test_shipped_cache.py): none here
    monkeypatch.setattr(cache, "SHIPPED_DIR", tmp_path / "none")
    solved = _counting(monkeypatch)
    rules = TrashPandasRules()
    roll, after = B.solver_tables(rules)
    assert len(solved) == 1
    # 2 modes × 64 held sets × (B+1)(N+1)(P+1) = 4·4·4 cards, and 6 faces per entry of after
    assert roll.dtype == np.uint8 and roll.shape == (2 * 64 * 64,)
    assert after.dtype == np.uint8 and after.shape == (2 * 64 * 64 * 6,)
    assert roll.any() and after.any()
    again = B.solver_tables(TrashPandasRules())
    assert len(solved) == 1  # read from the cache, not solved again
    assert np.array_equal(again[0], roll) and np.array_equal(again[1], after)
    # other rules are another entry: solved, and a bonus turn capped at 1 token plays otherwise
    capped = B.solver_tables(TrashPandasRules(bonus_cap=1))
    assert len(solved) == 2 and solved[1].bonus_cap == 1
    assert not np.array_equal(capped[0], roll) or not np.array_equal(capped[1], after)
    assert len(list(tmp_path.glob("tp-solver-tables-*.npz"))) == 2


def test_cached_tables_equal_a_fresh_solve_and_the_cache_can_be_off(tmp_path, monkeypatch):
    monkeypatch.setenv("PUSHLUCK_CACHE_DIR", str(tmp_path))
    first = B.solver_tables(TrashPandasRules())
    read = B.solver_tables(TrashPandasRules())
    direct = B._solve_tables(TrashPandasRules())
    for got in (first, read):
        assert np.array_equal(got[0], direct["roll"]) and np.array_equal(got[1], direct["after"])
    monkeypatch.setenv("PUSHLUCK_NO_CACHE", "1")
    solved = _counting(monkeypatch)
    B.solver_tables(TrashPandasRules())
    B.solver_tables(TrashPandasRules())
    assert len(solved) == 2  # the cache off: solved every time


def test_the_key_reads_the_solver_code():
    names = sorted(p.name for p in B.SOLVER_SOURCES)
    assert names == ["bots.py", "exact.py", "play.py", "rules.py"]
    assert all(p.is_file() for p in B.SOLVER_SOURCES)


def test_an_edit_of_the_solver_code_solves_again(tmp_path, monkeypatch):
    monkeypatch.setenv("PUSHLUCK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PUSHLUCK_NO_CACHE", raising=False)
    code = tmp_path / "exact.py"
    code.write_text("# version 1\n")
    monkeypatch.setattr(B, "SOLVER_SOURCES", [code])
    solved = _counting(monkeypatch)
    B.solver_tables(TrashPandasRules())
    B.solver_tables(TrashPandasRules())
    assert len(solved) == 1
    code.write_text("# version 2\n")
    B.solver_tables(TrashPandasRules())
    assert len(solved) == 2
