"""The exact bots' one-turn tables are solved once per pile, rules, players, value models and
code version, then read from the solution cache (analyzer/games/ten/whole.py ``exact_tables``)."""
from __future__ import annotations

import numpy as np

from analyzer.games.ten import whole as W
from analyzer.games.ten.lineup import parse_seats
from analyzer.games.ten.rules import TenRules, load_deck


def _counting(monkeypatch):
    solved = []
    real = W._solve_exact_tables

    def solve(tr, st, players, models):
        solved.append((players, list(models)))
        return real(tr, st, players, models)

    monkeypatch.setattr(W, "_solve_exact_tables", solve)
    return solved


def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PUSHLUCK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PUSHLUCK_NO_CACHE", raising=False)


def test_solved_once_then_read_and_each_key_part_is_its_own_entry(tmp_path, monkeypatch):
    _cache(tmp_path, monkeypatch)
    solved = _counting(monkeypatch)
    bots = parse_seats("exact,threshold,exact:token=0.5,exact", 4)
    idx, dec, nchild, cchild = W.exact_tables(TenRules(), load_deck(None), 4, bots)
    assert len(solved) == 1 and dec.shape[:2] == (2, 11) and dec.dtype == np.uint8
    again = W.exact_tables(TenRules(), load_deck(None), 4, bots)
    assert len(solved) == 1  # read, not solved
    assert again[0] == idx
    for a, b in zip(again[1:], (dec, nchild, cchild)):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    # another player count (another pile), other weights, other rules: each solved again
    W.exact_tables(TenRules(), load_deck(None), 3, bots)
    assert len(solved) == 2 and solved[1][0] == 3
    W.exact_tables(TenRules(), load_deck(None), 4, parse_seats("exact:token=0.5", 4))
    assert len(solved) == 3
    W.exact_tables(TenRules(bust_at=12), load_deck(None), 4, bots)
    assert len(solved) == 4
    assert len(list((tmp_path / "cache").glob("ten-exact-tables-*.npz"))) == 4


def test_cached_tables_equal_a_fresh_solve(tmp_path, monkeypatch):
    _cache(tmp_path, monkeypatch)
    bots = parse_seats("exact,exact:token=0.5", 2)
    first = W.exact_tables(TenRules(), load_deck(None), 2, bots)
    monkeypatch.setenv("PUSHLUCK_NO_CACHE", "1")
    direct = W.exact_tables(TenRules(), load_deck(None), 2, bots)
    monkeypatch.delenv("PUSHLUCK_NO_CACHE")
    read = W.exact_tables(TenRules(), load_deck(None), 2, bots)
    for got in (first, read):
        assert got[0] == direct[0]
        assert all(np.array_equal(a, b) for a, b in zip(got[1:], direct[1:]))


def test_an_edit_of_the_solver_code_solves_again(tmp_path, monkeypatch):
    _cache(tmp_path, monkeypatch)
    code = tmp_path / "exact.py"
    code.write_text("# version 1\n")
    monkeypatch.setattr(W, "EXACT_SOURCES", [code])
    solved = _counting(monkeypatch)
    bots = parse_seats("exact", 2)
    W.exact_tables(TenRules(), load_deck(None), 2, bots)
    W.exact_tables(TenRules(), load_deck(None), 2, bots)
    assert len(solved) == 1
    code.write_text("# version 2\n")
    W.exact_tables(TenRules(), load_deck(None), 2, bots)
    assert len(solved) == 2


def test_the_key_reads_the_solver_code():
    got = [(p.parent.name, p.name) for p in W.EXACT_SOURCES]
    assert got == [("ten", "whole.py"), ("ten", "exact.py"), ("ten", "rules.py"),
                   ("ten", "exact.py")]
    assert W.EXACT_SOURCES[3].parent.parent.name == "kernels"
    assert all(p.is_file() for p in W.EXACT_SOURCES)
