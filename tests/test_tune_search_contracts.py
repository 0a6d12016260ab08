"""Contracts of a `tune --target` search: common random numbers across cells, disjoint blocks
across rounds, the folder lock, a real Ctrl-C at a round boundary, 80 columns, the closest
cells of a "~ V" target, and the stated reasons why a key has no effect."""
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

import numpy as np
import pytest

from analyzer.tune_target import BlockPlan, search


@dataclass(frozen=True)
class _Rules:
    goal: int = 100


class _Job:
    """A kernel job whose trial outcomes come from the block key only: block ``k`` of every cell
    sees the same draws; each cell turns them into a success at its own rate."""

    def __init__(self, rules, calls):
        self.rules, self.calls = rules, calls

    def run_blocks(self, keys, counts):
        if len(keys):
            self.calls.append((self.rules.goal, [int(k) for k in keys[:, 0]], list(counts)))
        rows = []
        for key, count in zip(keys, counts):
            u = np.random.default_rng(int(key[0])).random(int(count))
            rows.append([count, float((u < self.rules.goal / 100.0).sum())])
        return np.array(rows, dtype=np.float64).reshape(len(keys), 2)


@pytest.fixture
def fake_metric(monkeypatch):
    from analyzer import tune
    from analyzer.tune import Metric

    calls = []
    m = Metric("pig", "x", "a planted rate", _Rules, lambda r, p: _Job(r, calls), 1, "any",
               "rate")
    monkeypatch.setattr(tune, "get_metric", lambda game, name: m)
    monkeypatch.setattr(tune, "check_space_keys", lambda *a, **k: None)
    import analyzer.rules as rules

    monkeypatch.setattr(rules, "build_rules", lambda cls, f, sets: cls(
        **{k: int(v) for k, v in (s.split("=") for s in sets)}))
    import analyzer.tune_target as tt

    tt._JOBS.clear()
    yield calls
    tt._JOBS.clear()


def test_common_random_numbers_across_cells_and_disjoint_blocks_across_rounds(fake_metric):
    res = search("pig", ["x in [0.3, 0.45]"], ["goal=10,29,40,50,90"], None, 256, 5)
    plan = BlockPlan.for_first_round(256)
    per_cell: dict = {}
    for goal, keys, counts in fake_metric:
        per_cell.setdefault(goal, []).append((keys, counts))
    assert len(res["rounds"]) > 2 and len(per_cell) == 5
    seen = {}
    for goal, runs in per_cell.items():
        keys = [k for ks, _ in runs for k in ks]
        counts = [c for _, cs in runs for c in cs]
        # disjoint: each block once, in order, no gap; its size is the plan's
        assert len(keys) == len(set(keys))
        assert counts == [plan.size(k) for k in range(len(keys))]
        row = next(r for r in res["rows"] if r["goal"] == goal)
        assert row["n"] == plan.trials(len(keys)) == sum(counts)
        for k, key in enumerate(keys):
            seen.setdefault(k, set()).add(key)
    # common random numbers: block k has the same key in every cell that reached it
    assert all(len(v) == 1 for v in seen.values())
    from analyzer.rng import block_keys

    assert [next(iter(seen[k])) for k in range(3)] == [int(x) for x in block_keys(5, 0, 3)[:, 0]]
    # the far cells stop after round 1; the one nearest a bound (29 vs 0.3) plays longest
    rows = {r["goal"]: r for r in res["rows"]}
    assert rows[90]["n"] == plan.trials(16) and rows[10]["n"] == plan.trials(16)
    assert rows[29]["n"] == max(r["n"] for r in res["rows"])
    assert rows[90]["verdict"] == "fails" and rows[40]["verdict"] == "meets"


def test_totals_equal_the_runners_blocks_in_one_go(fake_metric):
    """The totals a cell keeps after several rounds are the sums of the runner's rows of the same
    blocks run in one go (an integer column: exact)."""
    from analyzer.runner import KernelJob, run

    res = search("pig", ["x in [0.3, 0.45]"], ["goal=29"], None, 256, 8)
    row = res["rows"][0]
    plan = BlockPlan.for_first_round(256)
    blocks = plan.blocks_for(row["n"])
    assert len(res["rounds"]) > 1 and plan.trials(blocks) == row["n"]
    job = _Job(_Rules(29), [])
    wins = 0.0
    for start, count, size in plan.stretches(0, blocks):
        kj = KernelJob(name="fake", unit="trials", run_blocks=job.run_blocks, block_size=size)
        wins += run(kj, count * size, 8, progress=False, block_size=size,
                    start_block=start).sums[1]
    assert row["x"]["estimate"] == wins / row["n"]


def test_budget_goes_to_the_cells_closest_to_a_verdict(fake_metric):
    res = search("pig", ["x in [0.3, 0.45]"], ["goal=29,36"], None, 1024, 5, budget=20_000)
    rows = {r["goal"]: r for r in res["rows"]}
    # 36 lies 0.06 inside and is decided; 29, only 0.01 below the bound, would need far more
    # than the budget holds
    assert rows[36]["verdict"] == "meets" and rows[29]["verdict"] == "undecided"
    assert res["stopped_by"] == "budget" and res["trials_spent"] <= 20_000


def test_within_budget_serves_the_easiest_first_and_holds_the_hard_cells_back():
    from analyzer.tune_stats import WINDOW
    from analyzer.tune_target import SearchCell, _Context

    assert WINDOW == 8.0
    plan = BlockPlan.for_first_round(160)  # blocks of 10 trials, then (from block 16) of 20
    ctx = _Context("g", [], [], plan, 1, "local", 0.01, 1, 10_000)
    a, b, c = (SearchCell(x, {}, None, "p", blocks=16) for x in "abc")  # 160 trials each
    # (cell, blocks to reach, predicted need, need in a plausible best case); each step from 16
    # to 20 blocks: 4 blocks of 20 trials, 80 trials
    wanted = [(a, 20, 5_000.0, 5_000.0), (b, 20, 250.0, 250.0), (c, 20, 900.0, 1_000.0)]
    assert ctx.within_budget(wanted, None, 1) == [(a, 20), (b, 20), (c, 20)]  # no budget: all
    # 100 left: b first (best case 90 more); then c's best case (840 more) exceeds the 20 left
    assert ctx.within_budget(wanted, 100, 1) == [(b, 20)]
    assert ctx.within_budget(wanted, 2_000, 1) == [(b, 20), (c, 20)]  # a needs 4,840 more
    # plenty left: a's best case (5,000) is more than 8 × b's (250): a waits for b and c
    assert ctx.within_budget(wanted, 10_000, 1) == [(b, 20), (c, 20)]
    # once b is decided, c (1,000) is the easiest and a lies within 8 × 1,000: both are served
    assert ctx.within_budget([wanted[0], wanted[2]], 10_000, 1) == [(a, 20), (c, 20)]
    assert ctx.within_budget(wanted, 79, 1) == []  # no step fits
    # the order and the window follow the best case, not the estimate's need: a's best case of
    # 300 serves it beside b though its estimate says 5,000; with 240 left, b (90 more) and a
    # (140 more) fit, c's best case does not
    wanted[0] = (a, 20, 5_000.0, 300.0)
    assert ctx.within_budget(wanted, 1_000, 1) == [(a, 20), (b, 20), (c, 20)]
    assert ctx.within_budget(wanted, 240, 1) == [(a, 20), (b, 20)]
    # the window is measured in best cases too: f's estimate (2,000) is nearer a verdict than
    # a's (5,000), but its best case (2,500) is more than 8 × a's (300): f waits
    f = SearchCell("f", {}, None, "p", blocks=16)
    assert ctx.within_budget([wanted[0], (f, 20, 2_000.0, 2_500.0)], 10_000, 1) == [(a, 20)]
    # two jobs a cell: b's step costs 160 and its need 180, so 200 serve b only, 100 nobody
    assert ctx.within_budget(wanted, 200, 2) == [(b, 20)]
    assert ctx.within_budget(wanted, 100, 2) == []
    # a cell left out as hopeless does not set the window: with 700 left, c (best case 1,000,
    # 840 more) is hopeless; d, at 10,080 trials with a best case of 10,100 (more than 8 ×
    # c's), is the easiest cell that can still be decided and is served (a step of 640)
    d = SearchCell("d", {}, None, "p", blocks=96)
    assert plan.trials(96) == 10_080 and plan.trials(97) == 10_720
    far = [(c, 20, 900.0, 1_000.0), (d, 97, 10_090.0, 10_100.0)]
    assert ctx.within_budget(far, 700, 1) == [(d, 97)]


def test_a_cell_no_budget_left_could_decide_stops_eating_it(fake_metric):
    """Goal 30 sits on the bound 0.3: no budget decides it. Under a budget it waits while the
    cells that can be decided are served, and is left out once even its best case (its mean one
    SE farther from the bound) would need more than the budget has left; the others are all
    decided (seeds 1–4)."""
    for seed in range(1, 5):
        fake_metric.clear()
        res = search("pig", ["x in [0.3, 0.45]"], ["goal=20,25,30,35,40,50"], None, 256, seed,
                     budget=60_000)
        rows = {r["goal"]: r for r in res["rows"]}
        assert all(rows[g]["verdict"] != "undecided" for g in (20, 40, 50)), seed
        assert rows[30]["verdict"] == "undecided"
        # it stops eating the budget: at most a third of it (before: up to 34,560 trials of
        # 41,792 spent), and the search stops with half of it unspent
        assert rows[30]["n"] <= 20_000, (seed, rows[30]["n"])
        assert res["trials_spent"] <= 30_000 and res["stopped_by"] == "budget"


def _lock_holder(folder):
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    (folder / ".pushluck.lock").write_text(str(live.pid))
    return live


def test_a_search_into_a_locked_folder_is_refused(cli, tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    live = _lock_holder(out)
    try:
        code, stdout, err = cli("tune", "pig", "--target", "p_first_wins in [0.5, 0.6]",
                                "--space", "goal=20..30:10", "-n", "256", "--seed", "1",
                                "--out", str(out))
    finally:
        live.kill()
        live.wait()
    assert code == 2 and stdout == "" and err.count("\n") == 1
    assert f"pid {live.pid}" in err and not (out / "search-state.npz").exists()


def test_ctrl_c_after_a_round_writes_what_finished(tmp_path):
    """A real SIGINT once round 1 is saved: the rounds that finished are printed and written,
    marked interrupted, exit 130."""
    out = tmp_path / "o"
    # goal 50's exact chance is 0.55556: on the bound, never decided, so rounds go on
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", "tune", "pig", "--target",
                             "p_first_wins in [0.5, 0.5555619127454082]", "--space",
                             "goal=30..60:10", "-n", "4096", "--seed", "2", "--out", str(out),
                             "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 240
        while not (out / "search-state.npz").exists():
            assert proc.poll() is None and time.time() < deadline, proc.stderr.read()
            time.sleep(0.05)
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    res = json.loads(stdout)
    assert res["interrupted"] is True and res["stopped_by"] == "interrupt"
    assert len(res["rounds"]) >= 1 and all("p_first_wins" in r for r in res["rows"])
    assert (out / "cells.csv").exists() and (out / "search-state.npz").exists()
    assert b"Traceback" not in stderr


def test_output_fits_80_columns_and_names_the_closest_cells(cli, tmp_path):
    code, out, err = cli("tune", "trash-pandas", "--target", "turn_value ~ 1.13", "--space",
                         "bonus_cap=1..5", "--space", "bonus_turn=true,false", "--policy",
                         "stop-at:6", "-n", "4096", "--seed", "3", "--budget", "3000000",
                         "--out", str(tmp_path / "o"))
    assert code == 0, err
    header = (tmp_path / "o" / "cells.csv").read_text().splitlines()[0].split(",")
    assert "distance[turn_value ~ 1.13]_ci_high" in header and "seconds" not in header
    assert max(len(line) for line in out.splitlines()) <= 80
    import re

    lines = out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("closest to turn_value ~ 1.13"))
    listing = [x for x in lines[start:] if x.count("[") == 2]
    distances = [float(re.findall(r"(\d+\.\d+) \[", x)[1]) for x in listing]
    assert distances == sorted(distances) and len(distances) == 6
    assert listing[0].startswith("4, true")  # exact 1.1286: the closest to 1.13
    assert "farther" in out  # the no-bonus cell (1.0926) is certainly farther than cap 4 (1.1286)


def test_sweep_fits_80_columns_and_says_why_a_key_cannot_matter(cli):
    code, out, err = cli("tune", "trash-pandas", "--sweep", "bonus_cap=2,3,4", "-n", "2000",
                         "--seed", "1", "--top", "0")
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= 80
    text = " ".join(out.split())
    assert "bonus_cap only acts in the bonus turn, which needs all six tokens" in text
    assert "under the policy optimal a turn never collects all six tokens (exact chance 0)" in text
    assert "the same game as the baseline" in text  # bonus_cap=3 is the baseline's value


def test_metric_ranges_from_the_rules_page():
    """The ranges whole-game metrics declare, from docs/rules/trash-pandas.md: one seat scores at
    most the first-place points of every majority type, Feesh 5 + MMM Pie! 6 + Nanners 4 +
    Shiny 4 + Yum Yum 4 (Doggo and Kitteh score nothing), plus Blammo!'s 1 point for each of its
    7 copies: 30; a game is cut at 2,000 turns (counted as 2,001)."""
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.tune import get_metric, metrics_of

    r = TrashPandasRules()
    assert get_metric("trash-pandas", "winner_margin").range_for(r, "heuristic") == (0.0, 30.0)
    assert get_metric("trash-pandas", "game_length").range_for(r, "heuristic") == (0.0, 2001.0)
    assert get_metric("trash-pandas", "first_seat_win_rate").range_for(r, "heuristic") == (0, 1)
    assert get_metric("trash-pandas", "tiebreak_share").range_for(r, "heuristic") == (0, 1)
    for game in ("trash-pandas", "pig", "ten", "magdagdon", "gostop", "canasta"):
        for m in metrics_of(game):  # every metric can be a target: a range or a square
            assert m.kind == "rate" or m.bounds is not None or m.square is not None, m.name


def test_search_arguments_round_numbers_and_stops_in_process(fake_metric):
    """The refusals, the round count and numbering, and the time limit of `search` itself
    (the CLI tests run it in a subprocess). 29 % lies 0.01 below the bound 0.3: two rounds of a
    few hundred trials cannot decide it."""
    from analyzer.errors import UserError

    for alpha in (0.0, 1.0, 1.5):
        with pytest.raises(UserError, match=r"^--alpha must lie strictly between 0 and 1$"):
            search("pig", ["x in [0.3, 0.45]"], ["goal=29"], None, 256, 5, alpha=alpha)
    with pytest.raises(UserError, match=r"^the first round needs at least one trial \(got 0\)$"):
        search("pig", ["x in [0.3, 0.45]"], ["goal=29"], None, 0, 5)
    one = search("pig", ["x in [0.3, 0.45]"], ["goal=29"], None, 1, 5, max_rounds=1)
    assert [r["round"] for r in one["rounds"]] == [1] and one["trials_spent"] == 16
    two = search("pig", ["x in [0.3, 0.45]"], ["goal=29"], None, 256, 5, max_rounds=2)
    # round 1: 16 blocks of 16 trials; round 2 adds blocks to the cell (one block size here)
    assert two["rounds"][0] == {"round": 1, "cells": 1, "trials": 256,
                                "most_trials_per_cell": 256}
    second = two["rounds"][1]
    assert set(second) == {"round", "cells", "trials", "most_trials_per_cell"}
    assert (second["round"], second["cells"]) == (2, 1) and second["trials"] > 0
    assert second["most_trials_per_cell"] == 256 + second["trials"] == two["trials_spent"]
    assert two["stopped_by"] == "max-rounds"
    # decided in the last round allowed: the stop names the verdicts, not the round count
    far = search("pig", ["x in [0.3, 0.45]"], ["goal=90"], None, 256, 5, max_rounds=1)
    assert far["stopped_by"] == "decided" and len(far["rounds"]) == 1
    assert far["rows"][0]["verdict"] == "fails"
    both = search("pig", ["x in [0.3, 0.45]"], ["goal=29,90"], None, 256, 5, max_rounds=1)
    assert both["rounds"] == [{"round": 1, "cells": 2, "trials": 512,
                               "most_trials_per_cell": 256}] and both["trials_spent"] == 512
    hour = search("pig", ["x in [0.3, 0.45]"], ["goal=29"], None, 256, 5, max_rounds=2,
                  time_limit=3600.0)
    assert hour["stopped_by"] == "max-rounds" and hour["rounds"] == two["rounds"]
    assert hour["trials_spent"] == two["trials_spent"]


def test_a_cell_on_its_bound_stops_at_the_most_trials(fake_metric):
    """A true rate of exactly 0.30 against ``in [0.3, 0.45]`` can never be decided: the cell
    grows to MOST_ROUNDS_OF_FIRST (4096) times the first round, 16 · 4096 = 65,536 trials,
    rounded up to whole blocks. With 1-trial blocks in groups of 16, each group's blocks twice
    the last's, 12 groups hold 16 · (2^12 − 1) = 65,520 trials and the next block 4,096 more:
    69,616."""
    res = search("pig", ["x in [0.3, 0.45]"], ["goal=30"], None, 16, 5)
    assert res["stopped_by"] == "most-trials"
    assert res["rounds"][-1]["most_trials_per_cell"] == 69_616 == res["trials_spent"]
    assert res["rows"][0]["verdict"] == "undecided"


def test_an_interrupted_round_is_dropped_whole_in_process(fake_metric, monkeypatch):
    """A Ctrl-C inside round 2 keeps round 1 and says "interrupt"; inside round 1 there is no
    answer at all (the real-signal tests run the CLI in a subprocess)."""
    from analyzer.errors import Interrupted, reset_interrupted, was_interrupted

    real = _Job.run_blocks
    for stop_at in (2, 1):
        reset_interrupted()
        calls = {"n": 0}

        def run_blocks(self, keys, counts):
            calls["n"] += len(keys) > 0  # round 1 is one call of 16 blocks (after a warm-up)
            if len(keys) and calls["n"] == stop_at:
                raise KeyboardInterrupt
            return real(self, keys, counts)

        monkeypatch.setattr(_Job, "run_blocks", run_blocks)
        import analyzer.tune_target as tt

        tt._JOBS.clear()
        if stop_at == 2:
            res = search("pig", ["x in [0.3, 0.45]"], ["goal=29"], None, 256, 5)
            assert res["stopped_by"] == "interrupt" and [r["round"] for r in res["rounds"]] == [1]
            assert res["trials_spent"] == 256 and was_interrupted()
        else:
            with pytest.raises(Interrupted, match="^no round of the search had finished$"):
                search("pig", ["x in [0.3, 0.45]"], ["goal=29"], None, 256, 5)
    reset_interrupted()


def test_a_ctrl_c_while_a_round_is_saved_stops_before_the_next_round(fake_metric, monkeypatch):
    """A Ctrl-C landing while round 1 is applied and saved (held, quiet) is only recorded, as
    the installed handler records it; the search stops at round 2's start with round 1 whole."""
    from analyzer import interrupts
    from analyzer.errors import reset_interrupted, was_interrupted

    class _Saving:
        saved = []

        def restore(self, cells):
            return 0, []

        def save(self, cells, done, rounds):
            self.saved.append((done, [r["round"] for r in rounds]))
            monkeypatch.setitem(interrupts.STATE, "seen", True)  # what _on_sigint records
            monkeypatch.setitem(interrupts.STATE, "pending", True)

    res = search("pig", ["x in [0.3, 0.45]"], ["goal=29"], None, 256, 5, state=_Saving())
    assert _Saving.saved == [(1, [1])]
    assert res["stopped_by"] == "interrupt" and [r["round"] for r in res["rounds"]] == [1]
    assert was_interrupted()
    reset_interrupted()
