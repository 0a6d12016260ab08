"""`tune`'s bookkeeping on planted block sums: sweeps, cells, the run loop, rows and ranking.

The kernel work (``block_sums_task``) is replaced by a stand-in that returns per-block sums
chosen here, so every estimate, difference, effect and ranking symbol is computed by hand from
those numbers (module doc of analyzer/tune.py: estimate Σ S_b / n, batch-means SE, Bonferroni
z over the family of intervals printed). One real ``block_sums_task`` run checks the wiring.
"""
import math
from statistics import NormalDist

import numpy as np
import pytest

from analyzer import tune as T
from analyzer.errors import UserError
from kernels.pig.game import GAME_COLUMNS

WINS, TURNS = GAME_COLUMNS.index("first_mover_wins"), GAME_COLUMNS.index("turns")
N = 1280  # 128 blocks of 10 trials (tune's block size is ceil(n / 128))


def planted(goal, stream, blocks=128):
    """Per-block sums of pig games by goal: baseline (100) and 300 win 5 of 10 on every block;
    50 wins 6 and 7 in turn (+0.15 a trial); 200 wins 4 and 6 in turn (the same mean, 0.5);
    400 wins 4 and 3 (−0.15). Every game takes 30 turns; on the fresh stream (1) each goal
    wins one game more a block."""
    wins = {100: [5, 5], 300: [5, 5], 50: [6, 7], 200: [4, 6], 400: [4, 3]}[goal]
    out = np.zeros((blocks, len(GAME_COLUMNS)))
    out[:, WINS] = [wins[b % 2] + stream for b in range(blocks)]
    out[:, TURNS] = 300.0
    return out


interrupt: dict = {}  # {"call": k}: the stand-in raises KeyboardInterrupt on its k-th call


@pytest.fixture
def calls(monkeypatch):
    seen = []
    interrupt.clear()

    def fake(game, metric, rules_kwargs, policy, n, seed, block_size, stream, start_block=0):
        seen.append({"game": game, "metric": metric, "goal": rules_kwargs.get("goal"),
                     "policy": policy, "n": n, "seed": seed, "block_size": block_size,
                     "stream": stream})
        if len(seen) == interrupt.get("call"):
            raise KeyboardInterrupt
        if game != "pig":
            return np.ones((-(-n // block_size), 3))
        return planted(rules_kwargs["goal"], stream, -(-n // block_size))

    monkeypatch.setattr(T, "block_sums_task", fake)
    return seen


def refusal(fn, *args, **kwargs) -> str:
    with pytest.raises(UserError) as exc:
        fn(*args, **kwargs)
    return str(exc.value)


class ProgressSpy:
    """Stands in for analyzer.runner.Progress: records the bar's arguments and updates."""

    made: list = []

    def __init__(self, label, total, unit, enabled=None):
        self.enabled = False
        self.updates = []
        ProgressSpy.made.append({"label": label, "total": total, "unit": unit,
                                 "enabled": enabled, "bar": self})

    def update(self, done, note=""):
        self.updates.append(done)

    def close(self):
        pass


@pytest.fixture
def bars(monkeypatch):
    ProgressSpy.made = []
    monkeypatch.setattr("analyzer.runner.Progress", ProgressSpy)
    return ProgressSpy.made


def z_of(family):
    return NormalDist().inv_cdf(1 - 0.025 / family)


# ------------------------------------------------------------------------------- parsing
def test_parse_sweep_normalises_the_key_and_drops_blank_values():
    assert T.parse_sweep(" bonus-cap = 1, 2 ,,3 ") == ("bonus_cap", ["1", "2", "3"])
    assert T.parse_sweep("a=b=c") == ("a", ["b=c"])


@pytest.mark.parametrize("text,message", [
    ("goal", "--sweep expects KEY=V1,V2,…, got 'goal'"),
    ("=1,2", "--sweep expects KEY=V1,V2,…, got '=1,2'"),
    ("goal= , ", "--sweep expects KEY=V1,V2,…, got 'goal= , '"),
    ("goal=5,5", "--sweep goal: a value is listed twice"),
])
def test_parse_sweep_refusals(text, message):
    with pytest.raises(UserError) as exc:
        T.parse_sweep(text)
    assert str(exc.value) == message


def test_a_game_without_metrics_is_refused(monkeypatch):
    class Bare:
        def load(self, role):
            return []

    monkeypatch.setattr("analyzer.games.get_game", lambda game: Bare())
    assert refusal(T.metrics_of, "chess") == "game 'chess' declares no tuning metrics"


def test_unknown_keys_and_metrics_are_named():
    from analyzer.games.pig.rules import PigRules

    with pytest.raises(UserError) as exc:
        T.check_space_keys("--space", ["policy", "goal", "gaol"], PigRules)
    assert str(exc.value) == ("--space: unknown rule 'gaol' (known: policy, bust_faces, faces, "
                              "goal)")
    with pytest.raises(UserError) as exc:
        T.get_metric("pig", "fun")
    assert str(exc.value) == "unknown metric 'fun' for pig (metrics: p_first_wins, mean_turns)"
    assert [m.name for m in T.metrics_of("pig")] == ["p_first_wins", "mean_turns"]


# ------------------------------------------------------------------------------- cells
def test_cells_merge_rule_sets_that_are_the_same_game():
    # without a bonus turn the cap is never used: (false, 2) and (false, 3) are one game, and
    # (true, 3) is the default rule set, the baseline's
    m = T.get_metric("trash-pandas", "bust_rate")
    base, cells = T.build_cells("trash-pandas", m, ["bonus_turn=false,true", "bonus_cap=2,3"],
                                None, None, None)
    assert (base.label, base.policy, base.rules.bonus_cap) == ("baseline", "optimal", 3)
    assert [c.label for c in cells] == ["bonus_turn=false, bonus_cap=2",
                                        "bonus_turn=true, bonus_cap=2",
                                        "bonus_turn=true, bonus_cap=3"]
    assert cells[0].settings == {"bonus_turn": False, "bonus_cap": 2}
    assert cells[0].same_rules_as == [{"bonus_turn": False, "bonus_cap": 3}]
    assert [c.same_as_baseline for c in cells] == [False, False, True]
    assert cells[1].rules.bonus_turn is True and cells[1].rules.bonus_cap == 2


def test_cells_sweep_the_policy_and_keep_the_sets():
    m = T.get_metric("trash-pandas", "turn_value")
    base, cells = T.build_cells("trash-pandas", m, ["policy=stop-at:5,optimal"], None, None,
                                ["bonus_cap=2"])
    assert (base.policy, base.rules.bonus_cap) == ("optimal", 2)
    assert [(c.label, c.settings, c.policy, c.rules.bonus_cap) for c in cells] == [
        ("policy=stop-at:5", {"policy": "stop-at:5"}, "stop-at:5", 2),
        ("policy=optimal", {"policy": "optimal"}, "optimal", 2)]
    assert [c.same_as_baseline for c in cells] == [False, True]


def test_cell_errors_name_the_problem():
    m = T.get_metric("pig", "p_first_wins")
    assert refusal(T.build_cells, "pig", m, ["goal=50", "goal=60"], None, None, None) == (
        "a --sweep key is given twice")
    with pytest.raises(UserError, match="--sweep: unknown rule 'gaol'"):
        T.build_cells("pig", m, ["gaol=50"], None, None, None)
    tp = T.get_metric("trash-pandas", "turn_value")
    with pytest.raises(UserError, match="nope"):  # a bad baseline policy
        T.build_cells("trash-pandas", tp, ["bonus_cap=2"], "nope", None, None)
    with pytest.raises(UserError, match="nope"):  # a bad swept one
        T.build_cells("trash-pandas", tp, ["policy=optimal,nope"], None, None, None)


# ------------------------------------------------------------------------------- the run loop
def test_run_cells_passes_each_cell_once_per_job_and_names_the_cells(calls, capsys):
    m = T.get_metric("pig", "p_first_wins")
    base, cells = T.build_cells("pig", m, ["goal=50,200"], None, None, None)
    out = T.run_cells("pig", ["p_first_wins", "mean_turns"], [base] + cells, 1000, 4, "local",
                      stream=1)
    # both metrics read the "games" job: one kernel run per cell, 1000 trials in blocks of 8
    assert [(c["goal"], c["metric"]) for c in calls] == [(100, "p_first_wins"),
                                                         (50, "p_first_wins"),
                                                         (200, "p_first_wins")]
    assert {(c["n"], c["seed"], c["block_size"], c["stream"], c["policy"]) for c in calls} == {
        (1000, 4, 8, 1, "hold:20,hold:20")}
    assert [list(o) for o in out] == [["games"]] * 3
    assert np.array_equal(out[1]["games"], planted(50, 1, 125))
    err = capsys.readouterr().err.splitlines()
    assert err == ["tune: cell 1/3 …", "tune: cell 2/3 …", "tune: cell 3/3 …"]


def test_run_cells_keeps_only_the_cells_whose_every_job_finished(calls):
    # turn_value and game_length are two kernel jobs a cell; Ctrl-C in cell 2's second job
    m = T.get_metric("trash-pandas", "turn_value")
    base, cells = T.build_cells("trash-pandas", m, ["bonus_cap=1,2"], None, None, None)
    interrupt["call"] = 4
    out = T.run_cells("trash-pandas", ["turn_value", "bust_rate", "game_length"],
                      [base] + cells, 256, 1, "local")
    assert [c["metric"] for c in calls] == ["turn_value", "game_length", "turn_value",
                                            "game_length"]
    assert len(out) == 1 and sorted(out[0]) == ["games", "turn"]
    from analyzer.errors import was_interrupted

    assert was_interrupted()


def test_run_cells_stops_starting_cells_after_the_deadline(calls, capsys):
    m = T.get_metric("pig", "p_first_wins")
    base, cells = T.build_cells("pig", m, ["goal=50,200"], None, None, None)
    out = T.run_cells("pig", ["p_first_wins"], [base] + cells, N, 1, "local", deadline=-1.0)
    assert len(out) == 1 and [c["goal"] for c in calls] == [100]  # the baseline always runs
    assert "tune: stopped on the time limit after 1 cell(s)" in capsys.readouterr().err


# ------------------------------------------------------------------------------- tune
def wilson_by_hand(k, n, z):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return p, centre - half, centre + half


def run_tune(**kw):
    args = dict(top=1, rank="max")
    args.update(kw)
    return T.tune("pig", ["goal=50,100,300,200,400"], ["p_first_wins", "mean_turns"],
                  None, N, 7, **args)


def test_tune_rows_effects_and_ranking_from_planted_sums(calls):
    res = run_tune()
    family = ((5 + 1) + 5) * 2  # every cell's and the baseline's value, each difference; 2 metrics
    z = z_of(family)
    assert res["intervals_in_family"] == family and f"z = {z:.3f}" in res["method"]
    assert (res["game"], res["exact"], res["seed"], res["n"], res["cells"], res["rank"]) == (
        "pig", False, 7, N, 5, "max")
    assert res["baseline_rules"] == {"goal": 100, "faces": 6, "bust_faces": 1}
    assert res["baseline_policy"] == "hold:20,hold:20" and res["stopped_by"] == "n"
    rows = {r["cell"]: r for r in res["rows"]}
    assert list(rows) == ["baseline", "goal=50", "goal=100", "goal=300", "goal=200", "goal=400"]
    p, lo, hi = wilson_by_hand(640, N, z)
    base = rows["baseline"]["p_first_wins"]
    assert base["estimate"] == p and base["n"] == N
    assert base["ci_low"] == pytest.approx(lo) and base["ci_high"] == pytest.approx(hi)
    assert rows["baseline"]["mean_turns"] == {"estimate": 30.0, "se": 0.0, "ci_low": 30.0,
                                              "ci_high": 30.0, "n": N}
    assert "p_first_wins_vs_baseline" not in rows["baseline"]
    assert rows["goal=50"]["p_first_wins"]["estimate"] == 832 / N
    d = rows["goal=50"]["p_first_wins_vs_baseline"]
    se = 0.05 / math.sqrt(127)  # block differences 0.1 and 0.2 around 0.15, 128 blocks of 10
    assert d["estimate"] == pytest.approx(0.15) and d["se"] == pytest.approx(se)
    assert d["ci_low"] == pytest.approx(0.15 - z * se) and d["n"] == N
    assert d["effect"] == "higher"
    assert rows["goal=400"]["p_first_wins_vs_baseline"]["effect"] == "lower"
    assert rows["goal=200"]["p_first_wins_vs_baseline"]["effect"] == "not resolved"
    for cell in ("goal=100", "goal=300"):
        assert rows[cell]["p_first_wins_vs_baseline"]["effect"] == (
            "no effect (identical on every trial)")
    assert rows["goal=50"]["mean_turns_vs_baseline"]["effect"] == (
        "no effect (identical on every trial)")
    assert rows["goal=100"]["same_as_baseline"] and not rows["goal=300"]["same_as_baseline"]
    assert rows["goal=50"]["goal"] == 50 and rows["goal=50"]["policy"] == "hold:20,hold:20"
    assert rows["goal=50"]["n"] == N and rows["goal=50"]["same_rules_as"] == []
    assert res["ranked"] == ["goal=50", "goal=100", "goal=300", "goal=200", "goal=400"]
    # 50 − 100: +0.1/+0.2 a block; 100 − 300: identical; 300 − 200: ±0.1; 200 − 400: 0/+0.3
    assert [r.get("vs_next") for r in res["ranking"]] == [">", "=", "≈", ">", None]
    assert [r["cell"] for r in res["ranking"]] == res["ranked"]


def test_tune_reruns_the_best_cells_that_are_not_the_baseline_on_stream_1(calls):
    res = run_tune(top=2)
    again = [c for c in calls if c["stream"] == 1]
    assert [c["goal"] for c in again] == [100, 50, 300]  # goal=100 is the baseline's game
    assert [r["cell"] for r in res["rerun"]] == ["baseline", "goal=50", "goal=300"]
    z = z_of((2 * 2 + 1) * 2)
    p, lo, hi = wilson_by_hand(6 * 128, N, z)  # one more win a block on the fresh stream
    rerun_base = res["rerun"][0]["p_first_wins"]
    assert rerun_base["estimate"] == p and rerun_base["ci_low"] == pytest.approx(lo)
    assert "top 2 are re-run" in res["method"]


def test_tune_rank_min_and_no_rerun(calls):
    res = run_tune(top=0, rank="min")
    assert res["ranked"] == ["goal=400", "goal=100", "goal=300", "goal=200", "goal=50"]
    assert res["rerun"] == [] and {c["stream"] for c in calls} == {0}
    assert run_tune(top=-1)["rerun"] == []


def test_tune_after_an_interrupt_keeps_the_finished_cells_and_reruns_nothing(calls):
    interrupt["call"] = 3
    res = run_tune()
    assert res["stopped_by"] == "interrupt" and res["rerun"] == []
    assert [r["cell"] for r in res["rows"]] == ["baseline", "goal=50"]
    assert res["ranked"] == ["goal=50"] and res["cells"] == 5
    from analyzer.errors import Interrupted, reset_interrupted

    reset_interrupted()
    calls.clear()
    interrupt["call"] = 1
    with pytest.raises(Interrupted) as exc:
        run_tune()
    assert str(exc.value) == "no tuning cell had finished"


def test_a_cell_the_runner_cut_short_is_dropped(calls, monkeypatch):
    # Ctrl-C inside the runner: it returns the trials it has and marks the process interrupted
    from analyzer.errors import mark_interrupted

    real = T.block_sums_task

    def cut(*a, **k):
        out = real(*a, **k)
        if len(calls) == 3:
            mark_interrupted()
        return out

    monkeypatch.setattr(T, "block_sums_task", cut)
    res = run_tune()
    assert [r["cell"] for r in res["rows"]] == ["baseline", "goal=50"]
    assert res["stopped_by"] == "interrupt" and len(calls) == 3


def test_tune_stopped_by_the_time_limit(calls, monkeypatch):
    import time

    clock = {"now": 100.0}
    monkeypatch.setattr(time, "monotonic", lambda: clock["now"])
    real = T.block_sums_task

    def slow(*a, **k):  # every cell takes 10 s
        clock["now"] += 10
        return real(*a, **k)

    monkeypatch.setattr(T, "block_sums_task", slow)
    res = run_tune(time_limit=10)
    # started at 100: the baseline (to 110), goal=50 (110 is not past the deadline 110, to 120);
    # then no cell starts after the deadline
    assert [r["cell"] for r in res["rows"]] == ["baseline", "goal=50"]
    assert res["stopped_by"] == "time-limit" and res["rerun"] == []
    clock["now"] = 100.0
    assert run_tune(time_limit=0.5)["stopped_by"] == "time-limit"  # half a second is a limit


@pytest.mark.parametrize("kw,message", [
    ({"time_limit": 0}, "--time-limit must be a positive number of seconds (got 0)"),
    ({"time_limit": -1.5}, "--time-limit must be a positive number of seconds (got -1.5)"),
    ({"time_limit": math.inf}, "--time-limit must be a positive number of seconds (got inf)"),
    ({"time_limit": math.nan}, "--time-limit must be a positive number of seconds (got nan)"),
    ({"n": 0}, "--n must be positive (got 0)"),
    ({"sweeps": []}, "give at least one --sweep KEY=V1,V2,…"),
    ({"rank": "best"}, "--rank must be max or min"),
])
def test_tune_refusals(calls, kw, message):
    args = dict(game="pig", sweeps=["goal=50"], metric_names=["p_first_wins"], policy=None,
                n=N, seed=1)
    args.update(kw)
    with pytest.raises(UserError) as exc:
        T.tune(**args)
    assert str(exc.value) == message and calls == []


# ------------------------------------------------------------------------------- small parts
def test_quantity_sums_the_metric_columns():
    block = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    m = T.get_metric("pig", "p_first_wins")
    assert T._quantity(block, m).tolist() == [block[0, WINS], block[1, WINS]]
    import dataclasses

    both = dataclasses.replace(m, column=(0, 2))
    assert T._quantity(block, both).tolist() == [4.0, 10.0]


def test_block_sums_task_runs_the_metric_job_in_blocks(monkeypatch):
    # a real kernel run: 100 pig games to 10 points in blocks of 25, seat 0 moving first (not
    # on a Dask worker: skip the check, whose import of distributed takes seconds)
    monkeypatch.setattr("analyzer.cluster.one_numba_thread_per_task", lambda: None)
    rules = {"goal": 10, "faces": 6, "bust_faces": 1}
    sums = T.block_sums_task("pig", "p_first_wins", rules, "hold:20,hold:20", 100, 5, 25, 0)
    assert sums.shape == (4, len(GAME_COLUMNS))
    assert np.all((0 <= sums[:, WINS]) & (sums[:, WINS] <= 25))
    assert np.all(sums[:, WINS] == sums[:, GAME_COLUMNS.index("seat0_wins")])
    assert np.all(sums[:, TURNS] >= 25)  # every game takes at least one turn
    from analyzer.games.pig.play import make_job
    from analyzer.games.pig.lineup import parse_policy_pair
    from analyzer.games.pig.rules import PigRules
    from analyzer.runner import run

    job = make_job(parse_policy_pair("hold:20,hold:20"), PigRules(**rules))
    direct = run(job, 100, 5, progress=False, block_size=25)
    assert np.array_equal(sums, np.vstack(direct.block_sums))
    later = T.block_sums_task("pig", "p_first_wins", rules, "hold:20,hold:20", 50, 5, 25, 0,
                              start_block=2)
    assert np.array_equal(later, sums[2:])  # blocks 2 and 3 of the same stream
    other = T.block_sums_task("pig", "p_first_wins", rules, "hold:20,hold:20", 100, 5, 25, 1)
    assert not np.array_equal(sums, other)


def test_block_sums_task_draws_no_progress_bar(bars, monkeypatch):
    monkeypatch.setattr("analyzer.cluster.one_numba_thread_per_task", lambda: None)
    T.block_sums_task("pig", "p_first_wins", {"goal": 10, "faces": 6, "bust_faces": 1},
                      "hold:20,hold:20", 20, 5, 10, 0)
    assert [b["enabled"] for b in bars] == [False]


def test_run_cells_reports_each_finished_cell_to_the_bar(calls, bars):
    m = T.get_metric("pig", "p_first_wins")
    base, cells = T.build_cells("pig", m, ["goal=50,200"], None, None, None)
    T.run_cells("pig", ["p_first_wins"], [base] + cells, 100, 1, "local")
    assert {c["block_size"] for c in calls} == {1}  # fewer trials than blocks: blocks of 1
    bar = bars[0]
    assert (bar["label"], bar["total"], bar["unit"]) == ("tune pig: cells", 3, "cells")
    assert bar["bar"].updates == [1, 2, 3]


class FakeClient:
    """A Dask client that runs each task at once; its futures are the results."""

    def __init__(self, address):
        self.address, self.submitted = address, []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def submit(self, fn, *args, pure=True):
        self.submitted.append((fn, args, pure))
        return fn(*args)

    def gather(self, futures):
        return list(futures)


def test_run_cells_on_a_scheduler_submits_every_job_and_gathers_them(calls, bars, monkeypatch):
    import sys
    import types

    clients = []
    monkeypatch.setattr("analyzer.cluster.client_for",
                        lambda address: clients.append(FakeClient(address)) or clients[-1])
    monkeypatch.setitem(sys.modules, "distributed",
                        types.SimpleNamespace(as_completed=lambda futures: iter(futures)))
    m = T.get_metric("trash-pandas", "turn_value")
    base, cells = T.build_cells("trash-pandas", m, ["bonus_cap=1"], None, None, None)
    out = T.run_cells("trash-pandas", ["turn_value", "game_length"], [base] + cells, 256, 3,
                      "tcp://host:8786")
    (client,) = clients
    assert client.address == "tcp://host:8786"
    assert [(fn, pure) for fn, _a, pure in client.submitted] == [(T.block_sums_task, False)] * 4
    assert [a[1] for _fn, a, _p in client.submitted] == ["turn_value", "game_length"] * 2
    assert [sorted(o) for o in out] == [["games", "turn"]] * 2
    assert bars[0]["bar"].updates == [0, 1, 1, 2]  # 2 cells over 4 tasks: done · 2 // 4


def test_tune_passes_its_arguments_to_every_cell(calls, tmp_path):
    house = tmp_path / "house.toml"
    house.write_text("[rules]\ngoal = 300\n")
    res = T.tune("pig", ["goal=50,200"], ["p_first_wins"], "hold:25,hold:25", N, 9,
                 rules_file=str(house), sets=["faces=5"])
    assert res["baseline_rules"] == {"goal": 300, "faces": 5, "bust_faces": 1}
    assert {(c["seed"], c["policy"]) for c in calls} == {(9, "hold:25,hold:25")}
    assert [c["goal"] for c in calls] == [300, 50, 200, 300, 50, 200]  # top 3 re-run: both
    assert (res["metrics"], res["scheduler"]) == (["p_first_wins"], "local")
    m = T.get_metric("pig", "p_first_wins")
    _base, cells = T.build_cells("pig", m, ["faces=5"], None, str(house), None)
    assert (cells[0].rules.goal, cells[0].rules.faces) == (300, 5)  # the file's rules kept


def test_tune_reruns_the_top_three_by_default(calls):
    res = T.tune("pig", ["goal=50,100,300,200,400"], ["p_first_wins"], None, N, 7)
    assert [r["cell"] for r in res["rerun"]] == ["baseline", "goal=50", "goal=300", "goal=200"]


def test_tune_with_fewer_trials_than_blocks_and_a_single_trial(calls):
    # blocks of one game, each planted with 300 turns
    res = T.tune("pig", ["goal=50"], ["mean_turns"], None, 100, 1, top=0)
    assert [r["mean_turns"]["estimate"] for r in res["rows"]] == [300.0, 300.0]
    assert [r["n"] for r in res["rows"]] == [100, 100] and {c["block_size"] for c in calls} == {1}
    one = T.tune("pig", ["goal=50"], ["mean_turns"], None, 1, 1, top=0)
    assert one["rows"][0]["mean_turns"]["estimate"] == 300.0 and one["rows"][0]["n"] == 1


def test_metrics_of_one_tune_must_share_the_rules(calls, monkeypatch):
    real = T.get_metric
    monkeypatch.setattr(T, "get_metric", lambda game, name: (
        real("trash-pandas", "turn_value") if name == "borrowed" else real(game, name)))
    assert refusal(T.tune, "pig", ["goal=50"], ["p_first_wins", "borrowed"], None, N, 1) == (
        "all --metric values must belong to the same game")


def test_effects_at_the_interval_edges():
    diff = np.array([0.0, 1.0])
    assert T._effect(diff, {"ci_low": 0.0, "ci_high": 1.0}) == "not resolved"
    assert T._effect(diff, {"ci_low": -1.0, "ci_high": 0.0}) == "not resolved"
    assert T._effect(diff, {"ci_low": 1e-9, "ci_high": 1.0}) == "higher"


def test_batch_mean_of_two_blocks():
    # x = 1 and 3 (one trial each): mean 2, SE² = (1 + 1) / (1 · 2) = 1
    s = T.batch_mean(np.array([1.0, 3.0]), np.array([1.0, 1.0]), 2.0)
    assert (s.estimate, s.se, s.ci_low, s.ci_high, s.n) == (2.0, 1.0, 0.0, 4.0, 2)


def test_a_mean_that_never_varied_gets_the_wilson_interval_of_its_range():
    """Four blocks of 16 trials, every block's mean 1.0, one trial's value in [0, 10]: the
    batch SE is 0, so the interval is Wilson's for 6.4 'successes' in 64 (mean 1.0 is 0.1 of
    the range) at z = 2, mapped back to [0, 10]: worked out here from the score formula."""
    counts = np.full(4, 16.0)
    sums = counts * 1.0
    z, n, p = 2.0, 64, 0.1
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    lo, hi = 10 * (centre - half), 10 * (centre + half)
    assert lo == pytest.approx(8 / 17) and hi == pytest.approx(2.0)  # by hand: 0.13125/1.0625 ∓ 0.08125/1.0625
    s = T.value_statistic(sums, counts, z, (0.0, 10.0))
    assert s.estimate == 1.0 and s.n == 64
    assert s.ci_low == pytest.approx(lo, abs=1e-12) and s.ci_high == pytest.approx(hi, abs=1e-12)
    assert s.se == pytest.approx((hi - lo) / (2 * z), abs=1e-12)
    # a range shifted by a: the same share of it, the same interval shifted
    s = T.value_statistic(sums + counts * 5.0, counts, z, (5.0, 15.0))
    assert (s.ci_low, s.ci_high) == pytest.approx((lo + 5.0, hi + 5.0), abs=1e-12)
    # blocks that vary keep batch means; no known range keeps them too (nothing better known)
    varied = np.array([16.0, 32.0, 16.0, 32.0])
    assert T.value_statistic(varied, counts, z, (0.0, 10.0)) == T.batch_mean(varied, counts, z)
    assert T.value_statistic(sums, counts, z, None) == T.batch_mean(sums, counts, z)
    # a value at the edge of its range: the interval reaches into the range from the edge
    s = T.value_statistic(counts * 0.0, counts, z, (0.0, 10.0))
    assert s.ci_low == 0.0 and 0.5 < s.ci_high < 1.0  # 10 · z²/(n + z²) = 0.588…
    assert s.ci_high == pytest.approx(10 * z * z / (n + z * z), abs=1e-12)


def test_value_intervals_cover_a_rare_event_mean_over_many_seeds():
    """A trial is worth 10 with chance 1/100, else 1 (range [0, 10], true mean 1.09); 64 trials
    in 64 blocks, as tune blocks a run of n < 128. In about 0.99⁶⁴ = 53% of runs no rare trial
    shows and batch means alone print [1, 1], which misses 1.09: its coverage is far below 95%.
    value_statistic's intervals cover at the nominal rate (2,000 seeded runs; the bar is the
    lower end of coverage's own 99% binomial interval below 0.95)."""
    rng = np.random.default_rng(36)
    z, runs, truth = 1.959964, 2000, 1.09
    counts = np.ones(64)
    hit = plain = 0
    for _ in range(runs):
        sums = np.where(rng.random(64) < 0.01, 10.0, 1.0)
        s = T.value_statistic(sums, counts, z, (0.0, 10.0))
        hit += s.ci_low <= truth <= s.ci_high
        b = T.batch_mean(sums, counts, z)
        plain += b.ci_low <= truth <= b.ci_high
    cover, old = hit / runs, plain / runs
    assert old < 0.6  # the case is a hard one: batch means alone fail it
    assert cover + 2.576 * math.sqrt(cover * (1 - cover) / runs) >= 0.95, cover
