"""The on-disk cache of exact solutions (analyzer/cache.py)."""
import numpy as np

from analyzer.cache import cache_dir, cached_arrays


def test_second_call_reads_the_cache_and_keys_follow_params_and_code(tmp_path, monkeypatch):
    monkeypatch.setenv("PUSHLUCK_CACHE_DIR", str(tmp_path))
    src = tmp_path / "solver.py"
    src.write_text("v1")
    calls = []

    def compute():
        calls.append(1)
        return {"x": np.arange(5, dtype=np.float64) * len(calls)}

    a = cached_arrays("t", {"goal": 10}, [src], compute)
    b = cached_arrays("t", {"goal": 10}, [src], compute)
    assert len(calls) == 1 and np.array_equal(a["x"], b["x"])
    cached_arrays("t", {"goal": 11}, [src], compute)  # other rules: another entry
    assert len(calls) == 2
    src.write_text("v2")  # the solver's code changed: the old entry is not read
    c = cached_arrays("t", {"goal": 10}, [src], compute)
    assert len(calls) == 3 and c["x"][1] == 3.0
    assert cache_dir() == tmp_path and not list(tmp_path.glob(".*.tmp"))


def test_a_corrupt_entry_is_recomputed(tmp_path, monkeypatch):
    monkeypatch.setenv("PUSHLUCK_CACHE_DIR", str(tmp_path))
    src = tmp_path / "s.py"
    src.write_text("v")
    cached_arrays("t", {}, [src], lambda: {"x": np.ones(3)})
    (entry,) = tmp_path.glob("t-*.npz")
    entry.write_bytes(entry.read_bytes()[:20])  # truncated
    got = cached_arrays("t", {}, [src], lambda: {"x": np.zeros(3)})
    assert np.array_equal(got["x"], np.zeros(3))


def test_pig_solution_from_the_cache_equals_a_fresh_solve(tmp_path, monkeypatch):
    from analyzer.games.pig import exact
    from analyzer.games.pig.rules import PigRules

    monkeypatch.setenv("PUSHLUCK_CACHE_DIR", str(tmp_path))
    rules = PigRules(goal=20)
    exact.solve.cache_clear()
    P1, roll1, _, _ = exact.solve(rules)
    exact.solve.cache_clear()
    monkeypatch.setattr("kernels.pig.solve_pig", lambda *a: (_ for _ in ()).throw(AssertionError))
    P2, roll2, _, _ = exact.solve(rules)  # from disk: the kernel is not called
    exact.solve.cache_clear()
    assert np.array_equal(P1, P2) and np.array_equal(roll1, roll2)


def test_keep_removes_the_least_recently_used_entries(tmp_path, monkeypatch):
    import os
    import time

    monkeypatch.setenv("PUSHLUCK_CACHE_DIR", str(tmp_path))
    src = tmp_path / "s.py"
    src.write_text("v")
    for goal in (1, 2, 3):
        cached_arrays("k", {"goal": goal}, [src], lambda: {"x": np.ones(2)}, keep=2)
        time.sleep(0.01)
    assert len(list(tmp_path.glob("k-*.npz"))) == 2
    calls = []
    cached_arrays("k", {"goal": 2}, [src], lambda: calls.append(1) or {"x": np.ones(2)}, keep=2)
    assert not calls  # entry 2 was kept (1 was the oldest) and is now the most recently used
    time.sleep(0.01)
    cached_arrays("k", {"goal": 4}, [src], lambda: {"x": np.ones(2)}, keep=2)
    cached_arrays("k", {"goal": 2}, [src], lambda: calls.append(1) or {"x": np.ones(2)}, keep=2)
    assert not calls and len(list(tmp_path.glob("k-*.npz"))) == 2  # 3 went, not 2
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]
