"""The same checks for every registered game (one module over the whole registry).

Each game must provide a CLI, at least one report part, one tuning metric and one bench case;
its metrics and bench jobs must run a few trials, give the same numbers for the same seed and
different numbers for another seed; its `rules --json` must be one JSON object naming the game.
"""
import json
import subprocess
import sys

import numpy as np
import pytest

from analyzer.games import REGISTRY, get_game
from analyzer.runner import KernelJob, run

GAMES = list(REGISTRY)


@pytest.mark.parametrize("key", GAMES)
def test_descriptor_resolves_every_role(key):
    from analyzer.benchkit import BenchCase
    from analyzer.report import PartKind
    from analyzer.tune import Metric

    game = get_game(key)
    assert game.key == key and game.title and game.summary and game.trial
    lo, hi = game.players
    assert 1 <= lo <= hi
    assert game.load("cli").registered_commands or game.load("cli").registered_groups
    parts = list(game.load("parts"))
    assert parts and all(isinstance(p, PartKind) and p.game == key for p in parts)
    metrics = list(game.load("metrics"))
    assert metrics and all(isinstance(m, Metric) and m.game == key for m in metrics)
    cases = list(game.load("bench"))
    assert any(isinstance(c, BenchCase) for c in cases)
    assert all(c.game == key for c in cases)
    rules_cls = game.load("rules")
    rules_cls()  # the published defaults are a valid rule set


def _sums(job: KernelJob, seed: int) -> np.ndarray:
    n = 3 * job.block_size if job.block_size <= 4096 else job.block_size
    return run(job, n, seed, progress=False).sums


@pytest.mark.parametrize("key", GAMES)
def test_every_metric_runs_and_is_reproducible(key):
    from analyzer.tune import metrics_of

    seen = set()
    for m in metrics_of(key):
        if m.job_key and m.job_key in seen:
            continue
        seen.add(m.job_key)
        job = m.make_job(m.rules_cls(), m.default_policy)
        a, b, c = _sums(job, 11), _sums(job, 11), _sums(job, 12)
        assert np.array_equal(a, b), f"{key}.{m.name}: same seed, different sums"
        assert not np.array_equal(a, c), f"{key}.{m.name}: seeds 11 and 12 gave equal sums"
        assert np.all(np.isfinite(a))


@pytest.mark.parametrize("key", GAMES)
def test_every_bench_case_runs(key):
    from analyzer.benchkit import BenchCase

    for case in get_game(key).load("bench"):
        if isinstance(case, BenchCase):
            job = case.make_job()
            res = run(job, job.block_size, 5, progress=False)
            assert res.n == job.block_size and np.all(np.isfinite(res.sums))


@pytest.mark.parametrize("key", GAMES)
def test_every_bench_warm_fills_the_solution_cache(key, tmp_path, monkeypatch):
    """`bench --warm` (make setup) leaves each declared exact solution in the on-disk cache."""
    from analyzer.benchkit import BenchWarm

    warms = [c for c in get_game(key).load("bench") if isinstance(c, BenchWarm) and not c.compiles]
    monkeypatch.setenv("PUSHLUCK_CACHE_DIR", str(tmp_path))
    for w in warms:
        before = set(tmp_path.iterdir())
        w.run()
        assert set(tmp_path.iterdir()) - before, w.name


@pytest.mark.parametrize("key", GAMES)
def test_rules_json_is_one_object_naming_the_game(key):
    proc = subprocess.run([sys.executable, "-m", "analyzer", key, "rules", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    payload = json.loads(proc.stdout)
    assert payload["game"] == key and payload["exact"] is True
    assert payload["rules"] and all({"key", "default", "help"} <= set(r) for r in payload["rules"])


def test_top_level_help_lists_every_game_and_verb():
    proc = subprocess.run([sys.executable, "-m", "analyzer", "--help"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0
    for word in GAMES + ["report", "tune", "bench"]:
        assert word in proc.stdout


def test_unknown_game_is_one_line_naming_the_games():
    proc = subprocess.run([sys.executable, "-m", "analyzer", "tune", "chess"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "trash-pandas" in proc.stderr
    assert "seed" not in proc.stderr  # refused before any seed is drawn


def test_a_query_imports_only_its_own_game():
    code = ("import sys; from analyzer.cli.main import main\n"
            "try:\n    main(['pig', 'rules', '--json'])\nexcept SystemExit:\n    pass\n"
            "mods = [m for m in sys.modules if m.startswith('analyzer.games.')]\n"
            "heavy = [m for m in ('pandas', 'matplotlib', 'scipy') if m in sys.modules]\n"
            "print(sorted({m.split('.')[2] for m in mods}), heavy, file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.stderr.strip().splitlines()[-1] == "['pig'] []"
