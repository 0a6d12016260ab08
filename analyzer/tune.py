"""House-rule tuning: sweep rule values on common random numbers against the baseline rules.

Design
------
Each game declares *metrics* (:class:`Metric`): a kernel job built from a rules object and a
policy, and the per-block sum column whose mean per trial is the metric (a rate or a mean).
A sweep is the Cartesian product of ``--sweep KEY=V1,V2,…`` values (rule keys, or ``policy``).
Every cell and the baseline run the same ``n`` trials in the same blocks with the same seed, so
trial ``t`` of block ``b`` uses the same random stream under every rule set (common random
numbers) and differences are paired.

Statistics (stated in every output):

* estimate = Σ_b S_b / n (S_b the block's sum of the per-trial quantity);
* standard errors by **batch means** over the B ≈ 128 independent blocks:
  ``SE² = Σ_b n_b (x_b − x̄)² / ((B − 1)·n)`` with ``x_b = S_b / n_b``; the same formula on the
  per-block differences ``d_b = x_b(cell) − x_b(baseline)`` gives the paired SE;
* a sample with no spread certifies nothing: a mean whose block means are all equal (batch SE
  0, e.g. no rare all-six turn among a few hundred) while one trial's value can range over
  ``[a, b]`` (``Metric.bounds``) gets the Wilson interval of ``(x̄ − a)/(b − a)`` over the ``n``
  trials, mapped back to ``[a, b]`` (:func:`value_statistic`). It is valid for any variable in
  ``[a, b]``: a variable in ``[0, 1]`` with mean ``μ`` has variance at most ``μ(1 − μ)``, the
  variance the Wilson score interval is built on;
* intervals are widened for the number of cells compared by **Bonferroni**: each interval uses
  ``z = Φ⁻¹(1 − 0.025/m)`` for ``m`` cells, so all ``m`` intervals hold together with ≥ 95%;
* the best few cells are re-run on a fresh stream of the same seed (``SeedSequence`` spawn key
  ``(1, block)``) with the baseline, so their ranking is confirmed on trials they were not
  selected on.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from analyzer.errors import UserError
from analyzer.rules import build_rules
from analyzer.stats import Statistic, bonferroni_z

TUNE_BLOCKS = 128


@dataclass
class Metric:
    game: str
    name: str
    description: str
    rules_cls: type
    make_job: Callable  # (rules, policy: str) -> KernelJob
    column: int | tuple  # per-trial quantity: this sum column, or the sum of several
    default_policy: str
    kind: str = "mean"  # "rate" or "mean"
    job_key: str = ""  # metrics with the same key share one kernel run per cell
    check_policy: Callable | None = None  # (policy: str) -> None, raises UserError
    square: int | None = None  # the Σx² column of the per-trial quantity, where the kernel has one
    #: the range [a, b] of one trial's value, known from the rules (never from a sample): a
    #: pair, or ``(rules, policy) -> (a, b)``; rates are always in [0, 1]. ``None``: no range is
    #: known, and `tune --target` uses an asymptotic interval for it (analyzer/tune_target.py).
    bounds: tuple | Callable | None = None
    #: ``(rules, policy, keys) -> reason``: why changing the rule ``keys`` cannot change a single
    #: trial under ``rules`` and ``policy``, in words ("" when it may, or when unknown)
    no_effect: Callable | None = None
    #: knobs of the policy's bot that `tune --target --space KNOB=…` may vary, and
    #: ``(policy, knob, value) -> policy`` that sets one (every seat's bot)
    knobs: tuple = ()
    set_knob: Callable | None = None
    #: True when the metric's trials are whole games between seats, played by a line-up
    #: (``--seats A,B``); False when they are one player's (a turn, a solo game), played by
    #: that player's policy (``--policy P``) — docs/conventions.md
    lineup: bool = False

    def range_for(self, rules, policy: str) -> tuple[float, float] | None:
        """The range of one trial's value under ``rules`` and ``policy`` (None: unknown)."""
        if self.kind == "rate":
            return (0.0, 1.0)
        if callable(self.bounds):
            return tuple(float(x) for x in self.bounds(rules, policy))
        return None if self.bounds is None else (float(self.bounds[0]), float(self.bounds[1]))

    def sums(self, totals) -> tuple[float, float | None]:
        """(Σx, Σx²) of the per-trial quantity from a row of column totals (Σx² is Σx for a
        rate, whose trials are 0 or 1; None when the kernel keeps no square)."""
        cols = self.column if isinstance(self.column, tuple) else (self.column,)
        s = float(sum(float(totals[c]) for c in cols))
        if self.kind == "rate":
            return s, s
        return s, (None if self.square is None else float(totals[self.square]))


def metrics_of(game: str) -> list[Metric]:
    """The tuning metrics of ``game`` (its ``tune.py`` ``METRICS``), read from the registry."""
    from analyzer.games import get_game

    found = list(get_game(game).load("metrics"))
    if not found:
        raise UserError(f"game '{game}' declares no tuning metrics")
    return found


def get_metric(game: str, name: str) -> Metric:
    ms = {m.name: m for m in metrics_of(game)}
    if name not in ms:
        raise UserError(f"unknown metric '{name}' for {game} (metrics: {', '.join(ms)})")
    return ms[name]


def play_text(game: str, metrics: list[Metric], policy: str | None,
              seats: str | None) -> str | None:
    """What every cell plays (None: each metric's default): the line-up ``seats`` for metrics of
    whole games between seats, the studied player's ``policy`` for one-player metrics. The
    other flag is refused in one line naming the right spelling (docs/conventions.md:
    ``--seats`` takes a line-up, ``--policy`` the studied seat only)."""
    if not metrics:  # nothing to tune: the caller says so
        return seats if seats is not None else policy
    kinds = {m.lineup for m in metrics}
    if len(kinds) > 1:
        games = ", ".join(m.name for m in metrics if m.lineup)
        solo = ", ".join(m.name for m in metrics if not m.lineup)
        raise UserError(f"tune {game}: {games} play whole games (--seats), {solo} one "
                        f"player's trials (--policy): tune them apart")
    lineup = kinds.pop()
    names = ", ".join(m.name for m in metrics)
    if lineup and policy is not None:
        raise UserError(f"tune {game}: {names} plays whole games between seats: give the "
                        f"line-up with --seats {policy} (one for every seat, or one per seat "
                        f"separated by ','); --policy is one player's")
    if not lineup and seats is not None:
        raise UserError(f"tune {game}: {names} is one player's trials, not a line-up's: give "
                        f"its policy with --policy {seats}")
    return seats if lineup else policy


def seats_entries(flag: str, entries: list[str], metrics: list[Metric]) -> list[str]:
    """``--sweep``/``--space`` entries with the line-ups in the conventions' spelling. For a
    metric of whole games every ``seats=LINE-UP`` entry is one line-up (its ',' separate seats;
    repeat the flag for more: ``--sweep seats=hold:20 --sweep seats=hold:10,hold:25``), and they
    become one internal ``policy=`` entry (line-ups joined by ';'); ``policy=`` is refused there
    naming ``seats=``, and ``seats=`` for a one-player metric naming ``policy=``."""
    if not metrics:
        return entries
    lineup = metrics[0].lineup
    names = ", ".join(m.name for m in metrics)
    out, lineups = [], []
    for e in entries:
        key, _, value = e.partition("=")
        key = key.strip().replace("_", "-")
        if key == "seats":
            if not lineup:
                raise UserError(f"{flag} seats=…: {names} is one player's trials: give its "
                                f"policies as {flag} policy={value.strip()}")
            lineups.append(value.strip())
        elif key == "policy" and lineup:
            example = value.strip().split(";")[0]
            raise UserError(f"{flag} policy=…: {names} plays whole games between seats: give "
                            f"each line-up as {flag} seats=LINE-UP, one per {flag} (e.g. "
                            f"{flag} seats={example})")
        else:
            out.append(e)
    if lineups:
        if len(set(lineups)) != len(lineups):
            raise UserError(f"{flag} seats: a line-up is listed twice")
        out.append("policy=" + ";".join(lineups))
    return out


def parse_sweep(text: str) -> tuple[str, list[str]]:
    if "=" not in text:
        raise UserError(f"--sweep expects KEY=V1,V2,…, got '{text}'")
    key, values = text.split("=", 1)
    key = key.strip().replace("-", "_")
    sep = ";" if ";" in values else ","  # line-ups (values holding ',') are joined by ';'
    vals = [v.strip() for v in values.split(sep) if v.strip()]
    if not key or not vals:
        raise UserError(f"--sweep expects KEY=V1,V2,…, got '{text}'")
    if len(set(vals)) != len(vals):
        raise UserError(f"--sweep {key}: a value is listed twice")
    return key, vals


def block_sums_task(game: str, metric_name: str, rules_kwargs: dict, policy: str, n: int,
                    seed: int, block_size: int, stream: int, start_block: int = 0) -> np.ndarray:
    """One cell's kernel work: per-block sums (blocks × columns). Runs locally or on Dask."""
    from analyzer.cluster import one_numba_thread_per_task
    from analyzer.runner import run

    one_numba_thread_per_task()
    m = get_metric(game, metric_name)
    rules = m.rules_cls(**rules_kwargs)
    res = run(m.make_job(rules, policy), n, seed, progress=False, stream=stream,
              block_size=block_size, start_block=start_block)
    return np.vstack(res.block_sums)


def batch_mean(sums: np.ndarray, counts: np.ndarray, z: float) -> Statistic:
    """Estimate and batch-means SE of Σ sums / Σ counts (module doc)."""
    n = float(counts.sum())
    x = sums / counts
    mean = float(sums.sum() / n)
    B = len(x)
    se = math.sqrt(float((counts * (x - mean) ** 2).sum()) / ((B - 1) * n)) if B > 1 else math.nan
    return Statistic(mean, se, mean - z * se, mean + z * se, int(n))


def value_statistic(sums: np.ndarray, counts: np.ndarray, z: float,
                    bounds: tuple[float, float] | None) -> Statistic:
    """A cell's mean by batch means, or, when the blocks show no spread and one trial's value
    may lie anywhere in ``bounds = (a, b)``, the Wilson interval of the range-scaled mean (module
    doc); its SE is then the interval's half-width over ``z``."""
    from analyzer.stats import wilson

    st = batch_mean(sums, counts, z)
    if bounds is None or not bounds[1] > bounds[0] or st.se > 0:
        return st
    a, b = bounds
    share = min(max((st.estimate - a) / (b - a), 0.0), 1.0)
    w = wilson(share * st.n, st.n, z)
    low, high = a + (b - a) * w.ci_low, a + (b - a) * w.ci_high
    return Statistic(st.estimate, (high - low) / (2 * z), low, high, st.n)


@dataclass
class Cell:
    label: str
    settings: dict  # key -> value (typed as the rule's field)
    rules: object
    policy: str
    same_rules_as: list = field(default_factory=list)  # settings of merged identical cells
    same_as_baseline: bool = False


def build_cells(game: str, metric: Metric, sweeps: list[str], policy: str | None,
                rules_file: str | None, sets: list[str] | None) -> tuple[Cell, list[Cell]]:
    parsed = [parse_sweep(s) for s in sweeps]
    keys = [k for k, _ in parsed]
    if len(set(keys)) != len(keys):
        raise UserError("a --sweep key is given twice")
    check_space_keys("--sweep", keys, metric.rules_cls)
    base_policy = policy or metric.default_policy
    if metric.check_policy:
        metric.check_policy(base_policy)
    baseline = Cell("baseline", {}, build_rules(metric.rules_cls, rules_file, sets), base_policy)
    cells, seen = [], {}
    for combo in itertools.product(*[vals for _, vals in parsed]):
        settings = dict(zip(keys, combo))
        cell_policy = settings.get("policy", base_policy)
        if metric.check_policy:
            metric.check_policy(cell_policy)
        rule_sets = list(sets or []) + [f"{k}={v}" for k, v in settings.items() if k != "policy"]
        rules = build_rules(metric.rules_cls, rules_file, rule_sets)
        typed = {k: (v if k == "policy" else getattr(rules, k)) for k, v in settings.items()}
        label = ", ".join(f"{k}={v}" for k, v in settings.items())
        key = (_canonical(rules), cell_policy)
        if key in seen:  # the same game under another name (a key another key switches off)
            seen[key].same_rules_as.append(typed)
            continue
        cell = Cell(label, typed, rules, cell_policy)
        cell.same_as_baseline = key == (_canonical(baseline.rules), baseline.policy)
        seen[key] = cell
        cells.append(cell)
    return baseline, cells


def check_space_keys(flag: str, keys: list[str], rules_cls, knobs: list[str] = ()) -> None:
    """Every swept key is a rule of the game (or ``policy``, or one of ``knobs``: the knobs of
    the policy's bot a space may name), named in the flag that gave it."""
    import dataclasses

    known = {f.name for f in dataclasses.fields(rules_cls)}
    for key in keys:
        if key != "policy" and key not in known and key not in knobs:
            extra = f"; bot knobs: {', '.join(knobs)}" if knobs else ""
            raise UserError(f"{flag}: unknown rule '{key}' (known: policy, "
                            f"{', '.join(sorted(known))}{extra})")


def _canonical(rules):
    canon = getattr(rules, "canonical", None)
    return canon() if canon else rules


def run_cells(game: str, metric_names: list[str], cells: list[Cell], n: int, seed: int,
              scheduler: str, stream: int = 0, deadline: float | None = None) -> list[dict]:
    """Per cell and metric job: per-block sums, locally or as Dask tasks (identical numbers).
    Locally, no new cell after the baseline starts after ``deadline`` (``time.monotonic()``):
    the finished cells are kept, as after an interrupt."""
    import dataclasses

    block_size = max(1, -(-n // TUNE_BLOCKS))
    jobs = []
    for ci, cell in enumerate(cells):
        seen = {}
        for name in metric_names:
            m = get_metric(game, name)
            key = m.job_key or name
            if key not in seen:
                seen[key] = name
                jobs.append((ci, key, name, dataclasses.asdict(cell.rules), cell.policy))
    args = [(game, name, kw, pol, n, seed, block_size, stream) for (_ci, _k, name, kw, pol) in jobs]
    from analyzer.runner import Progress

    bar = Progress(f"tune {game}: cells", len(cells), "cells")
    if scheduler == "local":
        from analyzer.errors import was_interrupted
        from analyzer.output import note

        import time

        from analyzer.interrupts import held

        results = []
        # one try around the whole loop: an interrupt anywhere in it (a job's kernels, the
        # bookkeeping and the bar between jobs) keeps the jobs already appended to results
        try:
            for i, a in enumerate(args):
                if deadline is not None and jobs[i][0] > 0 and time.monotonic() > deadline:
                    note(f"tune: stopped on the time limit after {jobs[i][0]} cell(s)")
                    break
                if not bar.enabled:  # a log, not a terminal: one line per cell
                    note(f"tune: cell {jobs[i][0] + 1}/{len(cells)} …")
                sums = block_sums_task(*a)
                if was_interrupted():  # the runner kept a partial cell: drop it and stop
                    break
                results.append(sums)
                bar.update(jobs[i][0] + 1)
        except KeyboardInterrupt:
            from analyzer.errors import mark_interrupted

            mark_interrupted()
        with held(quiet=True):  # the cells kept are settled whole; a signal here is recorded
            bar.close()
            if len(results) < len(jobs):  # keep only the cells whose every job finished
                done_cells = {jobs[i][0] for i in range(len(results))}
                unfinished = {ci for (ci, *_rest) in jobs[len(results):]}
                keep = sorted(done_cells - unfinished)
                results = [r for i, r in enumerate(results) if jobs[i][0] in keep]
                jobs = [j for j in jobs if j[0] in keep]
                cells = cells[:len(keep)]
    else:
        from analyzer.cluster import client_for

        from distributed import as_completed

        with client_for(scheduler) as client:
            futures = [client.submit(block_sums_task, *a, pure=False) for a in args]
            for done, _fut in enumerate(as_completed(futures), 1):
                bar.update(done * len(cells) // len(futures))
            bar.close()
            results = client.gather(futures)
    out = [dict() for _ in cells]
    for (ci, key, _name, _kw, _pol), sums in zip(jobs, results):
        out[ci][key] = sums
    return out  # shorter than ``cells`` after an interrupt: the cells that finished, in order


def tune(game: str, sweeps: list[str], metric_names: list[str], policy: str | None, n: int,
         seed: int, rules_file: str | None = None, sets: list[str] | None = None,
         scheduler: str = "local", top: int = 3, rank: str = "max",
         time_limit: float | None = None) -> dict:
    import math
    import time

    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise UserError(f"--time-limit must be a positive number of seconds (got {time_limit})")
    deadline = None if time_limit is None else time.monotonic() + time_limit
    if n <= 0:
        raise UserError(f"--n must be positive (got {n})")
    if not sweeps:
        raise UserError("give at least one --sweep KEY=V1,V2,…")
    if rank not in ("max", "min"):
        raise UserError("--rank must be max or min")
    metrics = [get_metric(game, name) for name in metric_names]
    head = metrics[0]
    baseline, cells = build_cells(game, head, sweeps, policy, rules_file, sets)
    for m in metrics[1:]:
        if m.rules_cls is not head.rules_cls:
            raise UserError("all --metric values must belong to the same game")
    m_cells = len(cells)
    # every interval printed is in one family: absolute intervals of the baseline and the cells,
    # and differences of the cells from the baseline, for every metric
    family = ((m_cells + 1) + m_cells) * len(metrics)
    z_family = bonferroni_z(family)
    sums = run_cells(game, metric_names, [baseline] + cells, n, seed, scheduler,
                     deadline=deadline)
    from analyzer.errors import Interrupted, was_interrupted
    from analyzer.rng import block_layout

    if not sums:
        raise Interrupted("no tuning cell had finished")
    stopped = len(sums) < 1 + len(cells)
    cells = cells[:len(sums) - 1]  # after an interrupt: the cells that finished

    _nb, counts = block_layout(n, max(1, -(-n // TUNE_BLOCKS)))
    counts = counts.astype(np.float64)
    rows = _rows(metrics, [baseline] + cells, sums, z_family, counts)
    order = sorted(range(len(cells)), key=lambda i: rows[i + 1][head.name]["estimate"],
                   reverse=(rank == "max"))
    ranking = _ranking(head, [cells[i] for i in order], [sums[i + 1] for i in order], counts,
                       z_family)
    top_cells = [cells[i] for i in order if not cells[i].same_as_baseline][:max(top, 0)]
    if was_interrupted() or stopped:
        top_cells = []  # no re-run after an interrupt or the time limit
    rerun = []
    if top_cells:
        z_top = bonferroni_z((2 * len(top_cells) + 1) * len(metrics))
        rsums = run_cells(game, metric_names, [baseline] + top_cells, n, seed, scheduler,
                          stream=1)
        rerun = _rows(metrics, [baseline] + top_cells, rsums, z_top, counts)
    return {
        "game": game, "exact": False, "metrics": metric_names, "seed": seed, "n": n,
        "cells": m_cells, "scheduler": scheduler,
        "baseline_rules": _rules_dict(baseline.rules), "baseline_policy": baseline.policy,
        "played_by": "seats" if head.lineup else "policy",
        "intervals_in_family": family,
        "method": (f"common random numbers (same seed, same {TUNE_BLOCKS} blocks per cell); "
                   f"SE by batch means over the blocks (Wilson for rates; a mean whose "
                   f"blocks never varied gets the Wilson interval of its known range); all "
                   f"{family} "
                   f"intervals printed (each cell's and the baseline's value, each cell's "
                   f"difference from the baseline, every metric) hold together with ≥ 95% "
                   f"(Bonferroni, z = {z_family:.3f}); the ranking compares neighbours by their "
                   f"paired difference at the same z; the top {len(top_cells)} are re-run on a "
                   f"fresh stream (spawn key 1) as a family of their own"),
        "stopped_by": ("interrupt" if was_interrupted() else "time-limit" if stopped else "n"),
        "rank": rank, "rows": rows, "ranking": ranking,
        "ranked": [cells[i].label for i in order], "rerun": rerun,
    }


def _stat(s) -> dict:
    return {"estimate": s.estimate, "se": s.se, "ci_low": s.ci_low, "ci_high": s.ci_high,
            "n": s.n}


def _rows(metrics: list[Metric], cells: list[Cell], sums: list[dict], z: float,
          counts: np.ndarray) -> list[dict]:
    """One row per cell: its settings and, per metric, its value and its paired difference from
    the baseline (statistic objects); ``effect`` says whether the difference is resolved."""
    from analyzer.stats import wilson

    rows = []
    base = sums[0]
    for cell, s in zip(cells, sums):
        row = {"cell": cell.label, **cell.settings, "policy": cell.policy,
               "same_rules_as": cell.same_rules_as, "same_as_baseline": cell.same_as_baseline}
        for m in metrics:
            key = m.job_key or m.name
            block = _quantity(s[key], m)
            if m.kind == "rate":
                row[m.name] = _stat(wilson(float(block.sum()), int(counts.sum()), z))
            else:
                row[m.name] = _stat(value_statistic(block, counts, z,
                                                    m.range_for(cell.rules, cell.policy)))
            if cell.label != "baseline":
                diff = block - _quantity(base[key], m)
                d = _stat(batch_mean(diff, counts, z))
                d["effect"] = _effect(diff, d)
                if not np.any(diff):
                    d["why"] = no_effect_reason(m, cells[0], cell, int(counts.sum()))
                row[f"{m.name}_vs_baseline"] = d
        row["n"] = int(counts.sum())
        rows.append(row)
    return rows


def no_effect_reason(m: Metric, baseline: Cell, cell: Cell, n: int) -> str:
    """Why ``cell`` played every trial exactly as the baseline did, in words: the game's own
    reason when the changed rule keys cannot matter under the policy (``Metric.no_effect``),
    else what the identical trials do and do not show."""
    changed = [k for k, v in cell.settings.items()
               if k != "policy" and getattr(baseline.rules, k, v) != v]
    if cell.same_as_baseline:
        return "the same game as the baseline (the rule values given are the baseline's)"
    if cell.policy == baseline.policy and m.no_effect is not None:
        why = m.no_effect(cell.rules, cell.policy, changed)
        if why:
            return why
    what = " and ".join(changed) if changed else "the change"
    return (f"{what} changed none of the {n:,} trials under this policy (common random "
            f"numbers); it may still matter in situations these trials never reached")


def _effect(diff: np.ndarray, d: dict) -> str:
    if not np.any(diff):
        return "no effect (identical on every trial)"
    if d["ci_low"] > 0:
        return "higher"
    if d["ci_high"] < 0:
        return "lower"
    return "not resolved"


def _ranking(head: Metric, cells: list[Cell], sums: list[dict], counts, z: float) -> list[dict]:
    """Neighbours in the ranking compared by their own paired difference: '>' (resolved), '≈'
    (not resolved) or '=' (identical on every trial)."""
    key = head.job_key or head.name
    out = []
    for i, cell in enumerate(cells):
        item = {"cell": cell.label}
        if i + 1 < len(cells):
            diff = _quantity(sums[i][key], head) - _quantity(sums[i + 1][key], head)
            d = batch_mean(diff, counts, z)
            item["vs_next"] = ("=" if not np.any(diff) else
                               "≈" if d.contains_zero() else ">")
        out.append(item)
    return out


def _quantity(block: np.ndarray, m: Metric) -> np.ndarray:
    """Per-block sums of the metric's per-trial quantity."""
    cols = m.column if isinstance(m.column, tuple) else (m.column,)
    return block[:, list(cols)].sum(axis=1)


def _rules_dict(rules) -> dict:
    from analyzer.rules import rules_to_dict

    return rules_to_dict(rules)
