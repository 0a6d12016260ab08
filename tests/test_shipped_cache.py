"""The cache entries shipped with the package (analyzer/data/cache, analyzer/shipped_cache.py):
read only under their own key, current for the present code, and equal to what a fresh learn or
solve gives; a first `trash-pandas decide` reads them instead of learning."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analyzer import cache
from analyzer.cache import cached_arrays

ROOT = Path(__file__).resolve().parents[1]
REMAKE = "python -m analyzer.shipped_cache (make shipped-cache)"


def test_the_folder_holds_exactly_the_entries_of_the_present_code():
    from analyzer.shipped_cache import expected_names

    held = {p.name for p in cache.SHIPPED_DIR.glob("*")}
    want = expected_names()
    assert len(want) == 9  # Trash Pandas: beliefs (2, 3, 4 players), solver tables; Ten: 1–5
    assert held == want, (f"shipped cache entries are stale or missing: run {REMAKE} "
                          f"(held {sorted(held)}, expected {sorted(want)})")


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """An empty user cache and a shipped folder of our own."""
    user, ship = tmp_path / "user", tmp_path / "ship"
    ship.mkdir()
    monkeypatch.setenv("PUSHLUCK_CACHE_DIR", str(user))
    monkeypatch.delenv("PUSHLUCK_NO_CACHE", raising=False)
    monkeypatch.setattr(cache, "SHIPPED_DIR", ship)
    src = tmp_path / "solver.py"
    src.write_text("v1")
    return user, ship, src


def _ship(ship, name, params, src, arrays):
    path = ship / cache._entry_path(name, params, [src]).name
    np.savez(path, **arrays)
    return path


def test_a_shipped_entry_is_read_under_its_own_key_only(shipped, monkeypatch):
    user, ship, src = shipped
    _ship(ship, "t", {"goal": 10}, src, {"x": np.full(3, 7.0)})
    calls = []

    def compute():
        calls.append(1)
        return {"x": np.zeros(3)}

    got = cached_arrays("t", {"goal": 10}, [src], compute, keep=2)
    assert calls == [] and got["x"].tolist() == [7.0, 7.0, 7.0]
    assert not user.exists() or not list(user.glob("*.npz"))  # read, not copied
    cached_arrays("t", {"goal": 11}, [src], compute)  # other parameters: computed
    assert calls == [1]
    src.write_text("v2")  # other code: the shipped entry is not found
    assert cached_arrays("t", {"goal": 10}, [src], compute)["x"].tolist() == [0.0] * 3
    assert calls == [1, 1]
    monkeypatch.setenv("PUSHLUCK_NO_CACHE", "1")  # no cache at all: not even the shipped one
    src.write_text("v1")
    assert cached_arrays("t", {"goal": 10}, [src], compute)["x"].tolist() == [0.0] * 3


def test_the_users_entry_comes_before_the_shipped_one(shipped):
    user, ship, src = shipped
    _ship(ship, "t", {}, src, {"x": np.full(2, 1.0)})
    user.mkdir()
    np.savez(user / cache._entry_path("t", {}, [src]).name, x=np.full(2, 2.0))
    assert cached_arrays("t", {}, [src], lambda: {"x": np.zeros(2)})["x"].tolist() == [2.0, 2.0]


def test_the_shipped_belief_and_tables_equal_a_fresh_learn_and_solve(monkeypatch, tmp_path):
    """Learned again from nothing (the cache off), the 3-player belief's θ equals the shipped one
    to rounding (BLAS may sum in another order on another machine) and its kept-state counts
    exactly; the solver tables are equal byte for byte."""
    from analyzer.games.trash_pandas import belief as B
    from analyzer.games.trash_pandas.bots import SOLVER_SOURCES, _solve_tables
    from analyzer.rules import rules_to_dict
    from analyzer.shipped_cache import _tp_default

    monkeypatch.setenv("PUSHLUCK_NO_CACHE", "1")
    rules, setup, lineup = _tp_default(3)
    fresh = B._learn(setup, lineup)
    name = cache._entry_path("tp-belief", B.learning_params(setup, lineup), B.SOURCES).name
    with np.load(cache.SHIPPED_DIR / name) as held:
        assert held["states"].tolist() == fresh["states"].tolist()
        assert np.abs(held["theta"]).max() > 0.1  # a learned tilt, not zeros
        np.testing.assert_allclose(held["theta"], fresh["theta"], rtol=1e-7, atol=1e-9)
    tables = _solve_tables(rules)
    name = cache._entry_path("tp-solver-tables", {"rules": rules_to_dict(rules),
                                                  "bnp": [3, 3, 3]}, SOLVER_SOURCES).name
    with np.load(cache.SHIPPED_DIR / name) as held:
        assert np.array_equal(held["roll"], tables["roll"])
        assert np.array_equal(held["after"], tables["after"])


def test_the_shipped_ten_tables_equal_a_fresh_solve():
    """Ten's exact bots' tables for 4 players, solved again, equal the shipped ones exactly."""
    from analyzer.games.ten.whole import EXACT_SOURCES, _solve_exact_tables, exact_table_params
    from analyzer.shipped_cache import _ten_default

    rules, spec, bots = _ten_default(4)
    params, tr, st, models = exact_table_params(rules, spec, 4, bots)
    assert len(models) == 1
    fresh = _solve_exact_tables(tr, st, 4, models)
    name = cache._entry_path("ten-exact-tables", params, EXACT_SOURCES).name
    with np.load(cache.SHIPPED_DIR / name) as held:
        assert held["dec"].shape == (1, 11) + held["dec"].shape[2:] and held["dec"].any()
        for k in ("dec", "nchild", "cchild"):
            assert np.array_equal(held[k], fresh[k]), k


def _decide(env_extra, tmp_path):
    env = {**os.environ, **env_extra}
    out = subprocess.run([sys.executable, "-m", "analyzer", "trash-pandas", "decide",
                          "--example", "basic", "-n", "512", "--seed", "5", "--json"],
                         env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout), out.stderr


def test_a_first_decide_reads_the_shipped_belief_and_answers_as_a_fresh_learn(tmp_path):
    """An empty user cache: the default belief and tables come from the package (no learning,
    nothing written), and the answer is the one a belief learned afresh gives."""
    user = tmp_path / "user"
    got, err = _decide({"PUSHLUCK_CACHE_DIR": str(user)}, tmp_path)
    assert "learning how the opponents" not in err
    assert not user.exists() or not [p for p in user.iterdir() if p.name.startswith("tp-")]
    assert got["belief"]["name"] == "model" and got["belief"]["self_play_games"] == 6000
    fresh, err = _decide({"PUSHLUCK_NO_CACHE": "1"}, tmp_path)
    assert "learning how the opponents" in err
    for out in (got, fresh):
        assert out.pop("playouts_per_second") > 0  # the one field a run's speed sets
    assert fresh == got
