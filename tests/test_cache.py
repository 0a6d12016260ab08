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


def _views_of(tmp_path, monkeypatch, arrays: dict):
    from analyzer.cache import cached_views

    monkeypatch.setenv("PUSHLUCK_CACHE_DIR", str(tmp_path))
    tmp_path.mkdir(exist_ok=True)
    src = tmp_path / "s.py"
    src.write_text("v")
    cached_arrays("v", {"n": 1}, [src], lambda: arrays)
    return cached_views("v", {"n": 1}, [src])


def test_views_read_back_every_array_without_numpy(tmp_path, monkeypatch):
    rng = np.random.default_rng(5)
    arrays = {"P": rng.random((4, 5, 6)), "roll": rng.random((3, 4, 2)) < 0.5,
              "idx": rng.integers(-9, 9, size=(7, 3)), "small": np.arange(4, dtype=np.int32),
              "iterations": np.int64(417), "change": np.float64(3.5e-13)}
    views = _views_of(tmp_path, monkeypatch, arrays)
    assert set(views) == set(arrays)
    for name, a in arrays.items():
        v = views[name]
        assert v.shape == np.shape(a) and v.tolist() == np.asarray(a).tolist(), name
    assert views["P"][3, 1, 5] == arrays["P"][3, 1, 5]
    assert views["roll"][2, 3, 1] == bool(arrays["roll"][2, 3, 1])
    assert views["idx"][6, 0] == int(arrays["idx"][6, 0]) and views["iterations"][()] == 417


def test_views_are_none_when_missing_corrupt_off_or_of_an_unsupported_type(tmp_path,
                                                                           monkeypatch):
    from analyzer.cache import cached_views

    assert _views_of(tmp_path / "a", monkeypatch, {"z": np.ones(2, dtype=np.complex128)}) is None
    assert _views_of(tmp_path / "b", monkeypatch, {"s": np.array(["ab", "c"])}) is None
    assert _views_of(tmp_path / "e", monkeypatch, {"e": np.zeros((0, 5), dtype=np.int64)}) \
        is None
    assert _views_of(tmp_path / "c", monkeypatch, {"f": np.asfortranarray(np.ones((2, 3)))}) \
        is None
    src = tmp_path / "c" / "s.py"
    assert cached_views("v", {"n": 2}, [src]) is None  # no such entry
    assert _views_of(tmp_path / "d", monkeypatch, {"x": np.ones(3)}) is not None
    monkeypatch.setenv("PUSHLUCK_NO_CACHE", "1")
    assert cached_views("v", {"n": 1}, [tmp_path / "d" / "s.py"]) is None
    monkeypatch.delenv("PUSHLUCK_NO_CACHE")
    (entry,) = (tmp_path / "d").glob("v-*.npz")
    raw = entry.read_bytes()
    entry.write_bytes(raw[:len(raw) // 2])  # truncated
    assert cached_views("v", {"n": 1}, [tmp_path / "d" / "s.py"]) is None
    entry.write_bytes(raw.replace(b"\x93NUMPY", b"\x93NUMPX"))  # not an .npy member (CRC too)
    assert cached_views("v", {"n": 1}, [tmp_path / "d" / "s.py"]) is None


def test_pig_decide_from_the_cached_views_equals_decide_from_a_solve(tmp_path, monkeypatch):
    """Pig to 40, every turn total of the scores in a grid that holds the edges (0, 1, 38, 39)
    and every fourth score between (3,640 of the 32,800 states; each decide opens the cache
    afresh, so all of them took about 50 s): the decision read from the cache without NumPy
    (memoryview cells) is the same dict, to the last bit, as the one from the solved arrays."""
    from analyzer.games.pig import exact
    from analyzer.games.pig.rules import PigRules

    monkeypatch.setenv("PUSHLUCK_CACHE_DIR", str(tmp_path))
    rules = PigRules(goal=40)
    exact.solve.cache_clear()
    exact.solve(rules)  # fills the cache
    assert isinstance(exact.win_probabilities(rules), memoryview)
    scores = sorted({0, 1, 38, 39, *range(2, 38, 4)})
    states = [(i, j, k) for i in scores for j in scores for k in range(40 - i)]
    cached = [exact.decide(i, j, k, rules) for i, j, k in states]
    monkeypatch.setenv("PUSHLUCK_NO_CACHE", "1")
    assert not isinstance(exact.win_probabilities(rules), memoryview)
    solved = [exact.decide(i, j, k, rules) for i, j, k in states]
    exact.solve.cache_clear()
    assert cached == solved and {d["recommendation"] for d in cached} >= {"roll", "hold"}
