"""Run a Monte Carlo kernel over blocks of trials: in parallel, resumable, adaptive, interruptible.

A *job* describes one kernel: its block size (fixed per kernel, so results never depend on the
thread count), how many per-block sum columns it returns, and a function that runs a batch of
blocks (keys, trial counts) and returns a (blocks, columns) float64 array of per-block sums.
The kernel parallelises over the blocks of a batch with Numba ``prange``; the runner reduces the
per-block rows in block order, so the same seed and sample size give bit-identical totals with
any number of threads.

Batches are sized to take about a quarter of a second, which keeps the progress bar moving and
Ctrl-C responsive (an interrupt is honoured between batches; finished blocks are kept). With a
target precision the runner checks the 95% half-width of the job's headline figure at fixed block
counts (8, 10, 12, 15, …: ×1.25 each) and stops at the first one where it is at most the target,
so the stopping sample size does not depend on the machine's speed; the time limit and the trial
cap also stop it.
"""
from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from analyzer.errors import UserError
from analyzer.interrupts import held, sigint_seen
from analyzer.rng import block_keys

DEFAULT_PRECISION_CAP = 10**10
DEFAULT_TIME_LIMIT = 60.0
MAX_TRIALS = 10**12


@dataclass
class KernelJob:
    """What the runner needs to know about a kernel."""

    name: str
    block_size: int
    run_blocks: Callable[[np.ndarray, np.ndarray], np.ndarray]
    headline_half_width: Callable[[np.ndarray, int], float] | None = None
    unit: str = "trials"


@dataclass(frozen=True)
class RunSpec:
    """How much to sample and how: what every Monte Carlo entry point takes instead of a list of
    positional arguments. ``n`` is the number of trials (``None`` with a ``precision`` target:
    sample until the headline 95% half-width is at most ``precision``, or ``time_limit`` seconds
    pass); ``progress`` forces the progress bar on or off (``None``: on a terminal)."""

    n: int | None
    seed: int
    precision: float | None = None
    time_limit: float | None = None
    progress: bool | None = None

    def run(self, job: "KernelJob", **kwargs) -> "RunResult":
        """Run ``job`` under this specification (keyword arguments as :func:`run`)."""
        return run(job, self.n, self.seed, precision=self.precision,
                   time_limit=self.time_limit, progress=self.progress, **kwargs)


@dataclass
class RunResult:
    """Reduced sums of a run and how it went."""

    sums: np.ndarray
    n: int
    seed: int
    blocks: int
    kernel_seconds: float
    interrupted: bool = False
    stopped_by: str = "n"  # "n", "precision", "time-limit", "interrupt"
    block_sums: list = field(default_factory=list, repr=False)

    @property
    def per_second(self) -> float:
        return self.n / self.kernel_seconds if self.kernel_seconds > 0 else float("inf")


def rate_text(per_second: float | None) -> str:
    """A rate in three significant figures with k/M/G (``12.3k/s``); empty before there is one."""
    if not per_second or not math.isfinite(per_second) or per_second <= 0:
        return ""
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")):
        if per_second >= scale:
            return f"{per_second / scale:.3g}{suffix}/s"
    return f"{per_second:.2g}/s"


def label_width(columns: int) -> int:
    """How much of a bar's label fits beside its count, rate and times in ``columns``: the rest
    of the line needs about 50 columns (the bar itself at least 10)."""
    return max(12, min(40, columns - 50))


class Progress:
    """A progress bar on stderr (Rich): only on a terminal, only after about a second, fitted to
    the terminal's width (80 columns hold it whole), with the count, the rate and, when the total
    is known, the time left; off by default while a report's overall bar is shown
    (analyzer/report_progress.py)."""

    def __init__(self, label: str, total: int | None, unit: str, enabled: bool | None = None):
        import shutil

        from analyzer.report_progress import outer_bar_active

        room = label_width(shutil.get_terminal_size((80, 24)).columns)
        self.label = label if len(label) <= room else label[:room - 1] + "…"
        self.total = total
        self.unit = unit
        self.start = time.perf_counter()
        if enabled is None:
            enabled = sys.stderr.isatty() and not outer_bar_active()
        self.enabled = enabled
        self._bar = None
        self._task = None

    def _open(self) -> None:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress,
                                   TextColumn, TimeElapsedColumn, TimeRemainingColumn)

        from rich.progress import ProgressColumn
        from rich.text import Text

        class RateColumn(ProgressColumn):
            def render(self, task):
                return Text(rate_text(task.finished_speed or task.speed))

        columns = [TextColumn("{task.description}"), BarColumn(bar_width=None),
                   MofNCompleteColumn(), TextColumn(self.unit), RateColumn(),
                   TimeElapsedColumn()]
        if self.total:
            columns.append(TimeRemainingColumn())
        columns.append(TextColumn("{task.fields[note]}"))
        self._bar = RichProgress(*columns, console=Console(stderr=True), transient=False,
                                 expand=True)
        self._bar.start()
        self._task = self._bar.add_task(self.label, total=self.total, note="")

    def update(self, done: int, note: str = "") -> None:
        """Draw ``done``; a Ctrl-C while Rich draws is raised once the drawing is over (Rich
        cut half-way failed to stop: IndexError)."""
        if not self.enabled:
            return
        if self._bar is None:
            if time.perf_counter() - self.start < 1.0:
                return
            with held():
                self._open()
        with held():
            self._bar.update(self._task, completed=done, note=note)

    def close(self) -> None:
        """Stop the bar; a Ctrl-C meanwhile is only recorded (the work is over anyway)."""
        if self._bar is not None:
            with held(quiet=True):
                self._bar.stop()
            self._bar = None


def warm_up(job: KernelJob) -> None:
    """Compile or load the kernel from cache without running any trial. A real compile (seconds
    to a minute) says so on stderr as it starts (:mod:`analyzer.compile_notice`, armed by the
    command line); a load from the cache says nothing, however long a busy machine takes."""
    job.run_blocks(np.zeros((0, 4), dtype=np.uint64), np.zeros(0, dtype=np.int64))


def run(job: KernelJob, n: int | None, seed: int, *, precision: float | None = None,
        time_limit: float | None = None, progress: bool | None = None,
        target_batch_seconds: float = 0.25, stream: int = 0,
        block_size: int | None = None, start_block: int = 0) -> RunResult:
    """Run ``job`` for ``n`` trials (or adaptively to ``precision``) with ``seed``.

    Returns the per-column sums over all finished trials, reduced in block order, and the
    per-block rows (``block_sums``). ``block_size`` overrides the job's (tuning uses it to get
    enough independent blocks for batch-means standard errors); ``stream`` selects an
    independent family of block keys for the same seed; ``start_block`` continues an earlier run
    of the same seed with the blocks after it (the trials are those blocks' trials).
    """
    if n is not None and n <= 0:
        raise UserError(f"the number of {job.unit} must be positive (got {n})")
    if n is not None and n > MAX_TRIALS:
        raise UserError(f"at most {MAX_TRIALS:,} {job.unit} per run (got {n:,})")
    if precision is not None and not (math.isfinite(precision) and precision > 0):
        raise UserError(f"--precision must be a positive number (got {precision})")
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise UserError(f"--time-limit must be a positive number of seconds (got {time_limit})")
    adaptive = precision is not None
    cap = n if n is not None else (DEFAULT_PRECISION_CAP if adaptive else None)
    if cap is None:
        raise UserError(f"give a number of {job.unit} or --precision")
    if adaptive and time_limit is None:
        time_limit = DEFAULT_TIME_LIMIT
    if adaptive and job.headline_half_width is None:
        raise UserError(f"--precision is not supported by {job.name}")

    b = int(block_size or job.block_size)
    total_blocks = -(-cap // b)
    warm_up(job)
    bar = Progress(job.name, None if adaptive else cap, job.unit, progress)
    t_start = time.perf_counter()
    kernel_seconds = 0.0
    rows: list[np.ndarray] = []
    total = None  # running sum of the per-block rows, in block order
    done_blocks = 0
    done_trials = 0
    batch = 8
    stopped_by = "n"
    interrupted = False
    milestone = batch  # adaptive runs check the precision only at these block counts
    try:
        while done_blocks < total_blocks:
            m = min(batch, total_blocks - done_blocks)
            if adaptive:
                m = min(m, milestone - done_blocks)
            keys = block_keys(seed, start_block + done_blocks, m, stream)
            counts = np.full(m, b, dtype=np.int64)
            last = done_blocks + m == total_blocks
            if last:
                counts[-1] = cap - b * (total_blocks - 1)
            t0 = time.perf_counter()
            out = job.run_blocks(keys, counts)
            dt = time.perf_counter() - t0
            kernel_seconds += dt
            chunk = np.asarray(out, dtype=np.float64)
            rows.append(chunk)
            total = _add_rows(total, chunk)
            done_blocks += m
            done_trials += int(counts.sum())
            note = ""
            if adaptive and done_blocks == milestone:
                hw = job.headline_half_width(total, done_trials)
                note = f"half-width {hw:.4g} (target {precision:g})"
                if hw <= precision:
                    stopped_by = "precision"
                    bar.update(done_trials, note)
                    break
                milestone = _next_milestone(milestone)
            elapsed = time.perf_counter() - t_start
            bar.update(done_trials, note)
            if time_limit is not None and elapsed >= time_limit:
                stopped_by = "time-limit"
                break
            if sigint_seen():  # a Ctrl-C whose KeyboardInterrupt Python swallowed
                raise KeyboardInterrupt
            per_block = dt / m if m else 0.0
            if per_block > 0:
                batch = int(min(max(target_batch_seconds / per_block, 1), 4096))
    except KeyboardInterrupt:
        interrupted = True
        stopped_by = "interrupt"
    finally:
        bar.close()
    from analyzer.errors import Interrupted, mark_interrupted
    from analyzer.output import note, note_interrupted

    if interrupted:
        if done_trials == 0:
            raise Interrupted(f"no {job.unit} had finished")
        mark_interrupted()
        note_interrupted(f"interrupted: keeping the {done_trials:,} finished {job.unit}")
    elif stopped_by == "time-limit":
        reached = ""
        if adaptive:
            hw = job.headline_half_width(total, done_trials)
            reached = f"; half-width {hw:.4g}, target {precision:g} not reached"
        note(f"{job.name}: stopped on the time limit ({time_limit:g} s) after "
             f"{done_trials:,} {job.unit}{reached}")
    return RunResult(total, done_trials, seed, done_blocks, kernel_seconds,
                     interrupted, stopped_by, rows)


def _next_milestone(blocks: int) -> int:
    """Block counts at which an adaptive run checks its precision: ×1.25 each time (at least +1).

    They depend on nothing but the starting batch, so the same seed and target stop at the same
    sample size on any machine (unless the time limit strikes first).
    """
    return max(blocks + 1, int(blocks * 1.25))


def _add_rows(total: np.ndarray | None, chunk: np.ndarray) -> np.ndarray:
    """Add a batch's per-block rows to ``total`` one block at a time, in block order, so the
    floating-point sums are the same however the blocks were batched."""
    for row in chunk:
        total = row.copy() if total is None else total + row
    return total


def half_width_of_proportion(column: int) -> Callable[[np.ndarray, int], float]:
    """Headline function: Wilson half-width of the proportion whose count is in ``column``."""
    from analyzer.stats import wilson

    def f(sums: np.ndarray, n: int) -> float:
        return wilson(float(sums[column]), n).half_width

    return f


def half_width_of_mean(col_sum: int, col_sq: int) -> Callable[[np.ndarray, int], float]:
    """Headline function: normal 95% half-width of the mean whose Σx, Σx² are in two columns."""
    from analyzer.stats import mean_from_sums

    def f(sums: np.ndarray, n: int) -> float:
        if n < 2:
            return math.inf
        return mean_from_sums(float(sums[col_sum]), float(sums[col_sq]), n).half_width

    return f
