"""The runner's progress bar and warm-up note: what a user sees on stderr (issue 18: the mutation
run showed these lines were never checked)."""
from __future__ import annotations

import re
import time

import numpy as np
import pytest

from analyzer import runner
from analyzer.runner import KernelJob, Progress, warm_up


@pytest.fixture
def wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "150")


def _aged(bar: Progress, seconds: float = 2.0) -> Progress:
    bar.start -= seconds  # as if the run had been going for a while
    return bar


def test_the_bar_shows_label_counts_unit_note_and_eta_when_the_total_is_known(capsys, wide):
    bar = _aged(Progress("pig simulate", 1000, "games", enabled=True))
    bar.update(250, "half-width 0.01")
    bar.close()
    err = capsys.readouterr().err
    # label, bar, done/total, unit, rate (none yet after one update), elapsed, remaining
    # (unknown after one update), note
    assert re.fullmatch(r"pig simulate \S+ +250/1000 games +0:00:\d\d -:--:-- half-width 0\.01\s*",
                        err), err


def test_without_a_total_there_is_no_eta_column(capsys, wide):
    with_total = _aged(Progress("x", 100, "turns", enabled=True))
    with_total.update(10)
    with_total.close()
    line_total = capsys.readouterr().err
    no_total = _aged(Progress("x", None, "turns", enabled=True))
    no_total.update(10)
    no_total.close()
    line_open = capsys.readouterr().err
    assert "-:--:--" in line_total and "10/100 turns" in line_total
    assert re.fullmatch(r"x \S+ +10/\? turns +0:00:\d\d\s*", line_open), line_open


def test_nothing_is_drawn_in_the_first_second_or_when_disabled(capsys, wide):
    fresh = Progress("quick", 10, "games", enabled=True)
    fresh.update(5)
    fresh.close()
    off = _aged(Progress("off", 10, "games", enabled=False))
    off.update(5)
    off.close()
    assert capsys.readouterr().err == ""
    assert fresh._bar is None and off._bar is None


def test_the_bar_is_opened_once_and_updated_in_place(capsys, wide):
    bar = _aged(Progress("twice", 100, "games", enabled=True))
    bar.update(10)
    first = bar._bar
    bar.update(60)
    assert bar._bar is first
    assert bar._bar.tasks[0].completed == 60
    bar.close()
    bar.close()  # closing twice is harmless
    assert bar._bar is None
    assert "60/100" in capsys.readouterr().err


def test_a_long_label_is_cut_to_forty_characters_with_an_ellipsis(wide):
    assert Progress("a" * 40, 1, "x").label == "a" * 40
    cut = Progress("b" * 41, 1, "x").label
    assert cut == "b" * 39 + "…" and len(cut) == 40


def test_at_80_columns_a_label_is_cut_to_thirty(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert Progress("a" * 30, 1, "x").label == "a" * 30
    assert Progress("b" * 31, 1, "x").label == "b" * 29 + "…"


def test_enabled_follows_the_terminal_unless_forced(monkeypatch):
    class Tty:
        def __init__(self, answer):
            self.answer = answer

        def isatty(self):
            return self.answer

    monkeypatch.setattr(runner.sys, "stderr", Tty(True))
    assert Progress("t", 1, "x").enabled is True
    assert Progress("t", 1, "x", enabled=False).enabled is False
    monkeypatch.setattr(runner.sys, "stderr", Tty(False))
    assert Progress("t", 1, "x").enabled is False
    assert Progress("t", 1, "x", enabled=True).enabled is True


def _job(seconds: float, calls: list) -> KernelJob:
    def run_blocks(keys, counts):
        calls.append((keys.shape, keys.dtype, counts.shape, counts.dtype))
        time.sleep(seconds)
        return np.zeros((0, 1))
    return KernelJob("fake", 8, run_blocks)


def test_warm_up_runs_the_kernel_on_no_blocks_and_says_nothing_itself(capsys):
    calls: list = []
    warm_up(_job(0.6, calls))  # slower than the old half-second timer: still silent
    assert calls == [((0, 4), np.dtype(np.uint64), (0,), np.dtype(np.int64))]
    # the compile notice is analyzer.compile_notice's (a real Numba compile), not a timer's
    assert capsys.readouterr().err == ""


# ------------------------------------------------------------- run() with a pure-Python job
def _counting_job(block: int, seen: list | None = None, headline=None) -> KernelJob:
    """Each block's row: [trials, first key word mod 1000, 1]; records every call's counts."""
    def run_blocks(keys, counts):
        if seen is not None and keys.shape[0]:
            seen.append(counts.tolist())
        out = np.zeros((keys.shape[0], 3))
        out[:, 0] = counts
        out[:, 1] = keys[:, 0] % np.uint64(1000) if keys.shape[0] else 0
        out[:, 2] = 1
        return out
    return KernelJob("count", block, run_blocks, headline, unit="games")


def test_milestones_grow_by_a_quarter_and_at_least_one_block():
    assert [runner._next_milestone(b) for b in (1, 2, 3, 4, 8, 10, 100)] == \
        [2, 3, 4, 5, 10, 12, 125]


def test_mean_half_width_hand_values_and_its_columns():
    # x = 1, 2, 3, 4: mean 2.5, sample variance 5/3, SE sqrt(5/12); sums in columns 2 and 0
    f = runner.half_width_of_mean(2, 0)
    sums = np.array([30.0, 99.0, 10.0])
    assert f(sums, 4) == pytest.approx(1.959963984540054 * (5 / 12) ** 0.5, rel=1e-12)
    assert f(sums, 1) == float("inf") and f(sums, 0) == float("inf")
    assert runner.half_width_of_proportion(1)(np.array([0.0, 50.0]), 100) == pytest.approx(
        wilson_half_width(50, 100), rel=1e-12)


def wilson_half_width(k: int, n: int, z: float = 1.959963984540054) -> float:
    p = k / n
    return z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)


def test_the_last_block_holds_the_remainder_and_every_trial_is_counted():
    seen: list = []
    res = runner.run(_counting_job(100, seen), 1050, 3, progress=False)
    flat = [c for call in seen for c in call]
    assert flat == [100] * 10 + [50]
    assert res.n == 1050 and res.sums[0] == 1050 and res.blocks == 11 and res.sums[2] == 11
    assert len(res.block_sums) == len(seen) and res.stopped_by == "n" and not res.interrupted
    assert res.seed == 3


def test_start_block_continues_the_same_streams():
    whole = runner.run(_counting_job(10), 200, 5, progress=False)
    first = runner.run(_counting_job(10), 100, 5, progress=False)
    rest = runner.run(_counting_job(10), 100, 5, progress=False, start_block=10)
    assert first.sums[1] + rest.sums[1] == whole.sums[1]
    other = runner.run(_counting_job(10), 100, 5, progress=False, stream=1)
    assert other.sums[1] != first.sums[1]


def test_a_time_limit_stops_the_run_and_says_so(capsys):
    def slow(keys, counts):
        time.sleep(0.02)
        return _counting_job(10).run_blocks(keys, counts)

    job = KernelJob("slow", 10, slow, unit="games")
    res = runner.run(job, 10**9, 1, progress=False, time_limit=0.3)
    assert res.stopped_by == "time-limit" and 0 < res.n < 10**9 and res.sums[0] == res.n
    err = " ".join(capsys.readouterr().err.split())  # the message wraps at the terminal width
    assert f"slow: stopped on the time limit (0.3 s) after {res.n:,} games" in err


def test_a_precision_run_that_hits_its_time_limit_says_which_target_was_missed(capsys):
    def slow(keys, counts):
        time.sleep(0.02)
        return _counting_job(10).run_blocks(keys, counts)

    job = KernelJob("slow", 10, slow, lambda sums, n: 1.0, unit="games")
    res = runner.run(job, None, 1, precision=0.5, progress=False, time_limit=0.3)
    assert res.stopped_by == "time-limit"
    err = " ".join(capsys.readouterr().err.split())  # the message wraps at the terminal width
    assert "half-width 1, target 0.5 not reached" in err


def test_precision_needs_a_headline_and_n_or_precision_is_required():
    from analyzer.errors import UserError

    with pytest.raises(UserError, match="not supported by count"):
        runner.run(_counting_job(10), None, 1, precision=0.1, progress=False)
    with pytest.raises(UserError, match="give a number of games or --precision"):
        runner.run(_counting_job(10), None, 1, progress=False)


def test_runspec_passes_every_setting_through():
    seen: list = []
    spec = runner.RunSpec(n=25, seed=4, progress=False)
    res = spec.run(_counting_job(10, seen))
    assert res.n == 25 and res.seed == 4 and seen == [[10, 10, 5]]
    assert res.per_second > 0
    assert runner.RunResult(np.zeros(1), 5, 1, 1, 0.0).per_second == float("inf")
    assert runner.RunResult(np.zeros(1), 6, 1, 1, 2.0).per_second == 3.0


# ------------------------------------------------- run() on a fake clock: batches and limits
class FakeClock:
    """Stands in for the runner's ``time`` module: time moves only when a kernel runs."""

    def __init__(self):
        self.now = 100.0

    def perf_counter(self):
        return self.now


class Recorder:
    """Stands in for the progress bar and records what the runner tells it."""

    made: list = []

    def __init__(self, label, total, unit, enabled=None):
        Recorder.made.append((label, total, unit, enabled))
        self.updates = []
        Recorder.last = self

    def update(self, done, note=""):
        self.updates.append((done, note))

    def close(self):
        self.updates.append("closed")


@pytest.fixture
def clocked(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(runner, "time", clock)
    monkeypatch.setattr(runner, "Progress", Recorder)
    Recorder.made = []
    return clock


def _timed_job(clock, per_block: float, sizes: list, headline=None, rows=None):
    def run_blocks(keys, counts):
        if keys.shape[0]:
            sizes.append(keys.shape[0])
            clock.now += per_block * keys.shape[0]
        out = np.zeros((keys.shape[0], 2), dtype=np.int64)  # integers: the runner makes floats
        out[:, 0] = counts
        out[:, 1] = 1
        return out
    return KernelJob("timed", 10, run_blocks, headline, unit="games")


def test_batches_are_sized_to_the_target_seconds(clocked):
    sizes: list = []
    res = runner.run(_timed_job(clocked, 0.01, sizes), 10 * 100, 1, progress=False)
    # first batch 8 blocks; then 0.25 s / 0.01 s per block = 25 blocks
    assert sizes == [8, 25, 25, 25, 17]
    assert res.kernel_seconds == pytest.approx(1.0, abs=1e-9)
    assert res.sums.dtype == np.float64 and res.interrupted is False
    sizes.clear()
    runner.run(_timed_job(clocked, 0.1, sizes), 10 * 30, 1, progress=False,
               target_batch_seconds=0.5)
    assert sizes == [8, 5, 5, 5, 5, 2]


def test_batches_are_capped_and_never_empty(clocked):
    sizes: list = []
    runner.run(_timed_job(clocked, 1e-9, sizes), 10 * 5000, 1, progress=False)
    assert sizes == [8, 4096, 896]
    sizes.clear()
    runner.run(_timed_job(clocked, 2.0, sizes), 10 * 12, 1, progress=False)
    assert sizes == [8, 1, 1, 1, 1]  # a block slower than the target: one at a time
    sizes.clear()
    runner.run(_timed_job(clocked, 0.0, sizes), 10 * 20, 1, progress=False)
    assert sizes == [8, 8, 4]  # no measurable time: the batch stays as it was


def test_the_time_limit_is_reached_when_elapsed_equals_it(clocked):
    sizes: list = []
    # binary fractions: 8 blocks × 0.125 s is exactly the 1 s limit
    res = runner.run(_timed_job(clocked, 0.125, sizes), 10**6, 1, progress=False, time_limit=1.0)
    assert sizes == [8] and res.stopped_by == "time-limit" and res.n == 80


def test_a_precision_run_has_a_default_time_limit_of_a_minute(clocked):
    sizes: list = []
    res = runner.run(_timed_job(clocked, 1.0, sizes, headline=lambda s, n: 1.0), None, 1,
                     precision=0.5, progress=False)
    assert res.stopped_by == "time-limit" and sum(sizes) == 60


def test_precision_stops_when_the_half_width_equals_the_target(clocked):
    sizes: list = []
    res = runner.run(_timed_job(clocked, 0.01, sizes, headline=lambda s, n: 0.5), None, 1,
                     precision=0.5, progress=False)
    assert res.stopped_by == "precision" and sizes == [8]
    assert Recorder.last.updates == [(80, "half-width 0.5 (target 0.5)"), "closed"]


def test_the_bar_gets_the_total_unit_and_every_update(clocked):
    sizes: list = []
    runner.run(_timed_job(clocked, 0.01, sizes), 10 * 50, 1, progress=True)
    assert Recorder.made == [("timed", 500, "games", True)]
    assert Recorder.last.updates == [(80, ""), (330, ""), (500, ""), "closed"]
    runner.run(_timed_job(clocked, 0.01, sizes, headline=lambda s, n: 1.0 / n), None, 1,
               precision=0.001, progress=None)
    assert Recorder.made[-1] == ("timed", None, "games", None)
    notes = [u for u in Recorder.last.updates if u != "closed"]
    assert notes[0] == (80, "half-width 0.0125 (target 0.001)")
    assert all(note in ("",) or note.startswith("half-width") for _, note in notes)


def test_sizes_at_the_edges_are_accepted_or_refused_with_their_reason(clocked):
    from analyzer.errors import Interrupted, UserError

    sizes: list = []
    assert runner.run(_timed_job(clocked, 0.01, sizes), 1, 1, progress=False).n == 1
    big = runner.run(_timed_job(clocked, 0.5, sizes), runner.MAX_TRIALS, 1, progress=False,
                     time_limit=1.0)
    assert big.stopped_by == "time-limit"
    cases = [(dict(n=0), "the number of games must be positive \\(got 0\\)"),
             (dict(n=runner.MAX_TRIALS + 1), "at most 1,000,000,000,000 games per run"),
             (dict(n=5, precision=0.0), "--precision must be a positive number \\(got 0.0\\)"),
             (dict(n=5, time_limit=0.0), "--time-limit must be a positive number of seconds")]
    for kwargs, message in cases:
        n = kwargs.pop("n")
        with pytest.raises(UserError, match=message):
            runner.run(_timed_job(clocked, 0.01, sizes), n, 1, progress=False, **kwargs)

    def interrupted(keys, counts):
        if keys.shape[0]:
            raise KeyboardInterrupt
        return np.zeros((0, 2))

    with pytest.raises(Interrupted, match="^no games had finished$"):
        runner.run(KernelJob("x", 10, interrupted, unit="games"), 100, 1, progress=False)


def test_the_time_limit_note_is_one_exact_line(clocked, capsys):
    sizes: list = []
    runner.run(_timed_job(clocked, 0.125, sizes), 10**6, 1, progress=False, time_limit=1.0)
    assert capsys.readouterr().err == "timed: stopped on the time limit (1 s) after 80 games\n"


def test_runspec_forwards_progress_and_keyword_arguments(clocked):
    sizes: list = []
    runner.RunSpec(n=20, seed=2, progress=True).run(_timed_job(clocked, 0.01, sizes),
                                                    start_block=7)
    assert Recorder.made[-1][3] is True
    seen: list = []
    first = runner.RunSpec(n=20, seed=2).run(_counting_job(10, seen), start_block=7)
    assert first.sums[1] == runner.run(_counting_job(10), 20, 2, start_block=7).sums[1]
    assert first.sums[1] != runner.run(_counting_job(10), 20, 2).sums[1]


def test_mean_half_width_is_finite_from_two_observations():
    f = runner.half_width_of_mean(0, 1)
    # x = 1, 3: mean 2, sample variance 2, SE 1
    assert f(np.array([4.0, 10.0]), 2) == pytest.approx(1.959963984540054, rel=1e-12)


def test_the_bar_draws_after_one_second_exactly_and_keeps_its_settings(monkeypatch, capsys,
                                                                      wide):
    clock = FakeClock()
    monkeypatch.setattr(runner, "time", clock)
    bar = Progress("edge", 10, "games", enabled=True)
    clock.now += 1.0
    bar.update(3)
    assert bar._bar is not None
    assert bar._bar.expand is True and bar._bar.live.transient is False
    assert bar._bar.tasks[0].fields["note"] == ""
    bar.close()
    late = Progress("late", 10, "games", enabled=True)
    clock.now += 1.5
    late.update(4)
    assert late._bar is not None
    late.close()
    capsys.readouterr()
