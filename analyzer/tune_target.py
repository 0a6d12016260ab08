"""House rules designed to a target: which rule sets meet every target, with stated confidence.

Problem
-------
A *space* is the Cartesian product of values of a few rule keys (``--space key=lo..hi[:step]`` or
``key=v1,v2,…``; ``policy`` may be a key). A *target* is ``metric in [lo, hi]`` (the cell must
meet it) or ``metric ~ v`` (the cells closest to ``v`` are wanted). Each cell's metrics are
Monte Carlo means of per-trial quantities (a game's tuning metrics, :mod:`analyzer.tune`).

Search: successive elimination (a racing bandit)
------------------------------------------------
Round ``r = 1, 2, …`` gives every *undecided* cell more trials: the same seed and the same blocks
for every cell (common random numbers), the total doubling each round (``B·2^(r−1)`` blocks of
``b`` trials). After each round every undecided cell gets an interval per target metric, and

* it **meets** an ``in`` target when its interval lies inside ``[lo, hi]``, **fails** it when the
  interval is disjoint from ``[lo, hi]``; a cell that fails one target is eliminated, a cell that
  meets every ``in`` target is accepted; otherwise it stays undecided;
* for ``~ v`` targets a cell stays in the race while the lower bound of its distance ``|m − v|``
  is at most the smallest upper bound among the cells still in the race.

The first round screens the whole space at low precision (the bandit step: most cells of a large
space are decided there); later rounds spend trials only on the close calls. The search stops
when every cell is decided (and at most ``keep`` cells remain in a ``~`` race), or at the trial
budget, the time limit, or an interrupt.

Guarantee (stated in every output)
----------------------------------
Intervals: Wilson for rates (0/1 per trial), batch means over the blocks for means. Round ``r``
uses ``α_r = α / 2^r`` split by Bonferroni over the ``m_r`` cells still undecided and the ``T``
target metrics: ``z_r = Φ⁻¹(1 − α_r / (2·m_r·T))``. By the union bound over rounds, cells and
targets, with probability ≥ 1 − α every verdict ("meets", "fails") is right: the whole search's
family-wise error rate is at most α (default 0.05). Undecided cells carry no claim.

Cost comparison: a full grid at the final precision would give every cell as many trials as the
most-sampled cell; both figures are printed.
"""
from __future__ import annotations

import itertools
import math
import re
import time
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

from analyzer.errors import UserError

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
FIRST_BLOCKS = 32


@dataclass(frozen=True)
class Target:
    metric: str
    kind: str  # "in" or "near"
    lo: float = math.nan
    hi: float = math.nan
    value: float = math.nan

    @property
    def text(self) -> str:
        if self.kind == "in":
            return f"{self.metric} in [{self.lo:g}, {self.hi:g}]"
        return f"{self.metric} ~ {self.value:g}"


def parse_target(text: str) -> Target:
    """``metric in [lo, hi]`` or ``metric ~ value``."""
    m = re.fullmatch(rf"\s*([A-Za-z_]\w*)\s+in\s+\[\s*({NUM})\s*,\s*({NUM})\s*\]\s*", text)
    if m:
        lo, hi = float(m.group(2)), float(m.group(3))
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise UserError(f"--target '{text[:80]}': the bounds must be finite numbers")
        if not lo <= hi:
            raise UserError(f"--target '{text}': the lower bound exceeds the upper")
        return Target(m.group(1), "in", lo=lo, hi=hi)
    m = re.fullmatch(rf"\s*([A-Za-z_]\w*)\s*~\s*({NUM})\s*", text)
    if m:
        value = float(m.group(2))
        if not math.isfinite(value):
            raise UserError(f"--target '{text[:80]}': the value must be a finite number")
        return Target(m.group(1), "near", value=value)
    raise UserError(f"--target expects 'METRIC in [LO, HI]' or 'METRIC ~ VALUE', got '{text}'")


def parse_space(text: str) -> tuple[str, list[str]]:
    """``key=lo..hi[:step]`` (inclusive, numeric) or ``key=v1,v2,…`` (``key=a,b;c,d`` when the
    values themselves hold commas, e.g. Pig's seat pairs); values as --set text."""
    if "=" not in text:
        raise UserError(f"--space expects KEY=LO..HI[:STEP] or KEY=V1,V2,…, got '{text}'")
    key, spec = (x.strip() for x in text.split("=", 1))
    key = key.replace("-", "_")
    m = re.fullmatch(rf"({NUM})\.\.({NUM})(?::({NUM}))?", spec)
    if m:
        lo, hi = m.group(1), m.group(2)
        step = m.group(3) or "1"
        if max(len(lo), len(hi), len(step)) > 40:
            raise UserError(f"--space {key}: LO, HI and STEP must be numbers of at most 40 "
                            f"characters")
        ints = all(re.fullmatch(r"[-+]?\d+", x) for x in (lo, hi, step))
        a, b, s = (int(x) for x in (lo, hi, step)) if ints else (float(x) for x in (lo, hi, step))
        if not all(math.isfinite(float(v)) for v in (a, b, s)):
            raise UserError(f"--space {key}: LO, HI and STEP must be finite numbers")
        if s <= 0 or b < a:
            raise UserError(f"--space {key}: need LO ≤ HI and a positive STEP")
        span = (b - a) / s  # steps from LO to HI (inf when b − a overflows a float)
        if not span < 1000 - 1e-9:
            raise UserError(f"--space {key}: {text.split('=', 1)[1].strip()[:60]} gives more "
                            f"than 1000 values (at most 1000 per key)")
        count = int(math.floor(span + 1e-9)) + 1
        values = [str(a + i * s) if ints else f"{a + i * s:.10g}" for i in range(count)]
    else:
        sep = ";" if ";" in spec else ","  # values that hold commas (seat pairs) use ';'
        values = [v.strip() for v in spec.split(sep)]
        if not key or any(v == "" for v in values):
            raise UserError(f"--space expects KEY=LO..HI[:STEP] or KEY=V1,V2,…, got '{text}'")
    if len(set(values)) != len(values):
        raise UserError(f"--space {key}: a value is listed twice")
    return key, values


@dataclass
class SearchCell:
    label: str
    settings: dict
    rules: object
    policy: str
    sums: dict = field(default_factory=dict)  # job key → (blocks, columns) per-block sums
    verdict: str = "undecided"  # "meets", "fails", "undecided"
    failed_on: str = ""
    in_race: bool = True
    stats: dict = field(default_factory=dict)  # metric → (estimate, low, high)
    aliases: list = field(default_factory=list)  # settings of cells with the very same rules

    @property
    def blocks(self) -> int:
        return min((s.shape[0] for s in self.sums.values()), default=0)


def build_space(game: str, metrics, space: list[str], policy: str | None, rules_file, sets):
    from analyzer.rules import build_rules

    head = metrics[0]
    parsed = [parse_space(s) for s in space]
    keys = [k for k, _ in parsed]
    if len(set(keys)) != len(keys):
        raise UserError("a --space key is given twice")
    from analyzer.tune import check_space_keys

    check_space_keys("--space", keys, head.rules_cls)
    base_policy = policy or head.default_policy
    cells, seen = [], {}
    total = math.prod(len(v) for _, v in parsed)
    if total > 20_000:
        raise UserError(f"the space has {total:,} cells (at most 20,000)")
    for combo in itertools.product(*[vals for _, vals in parsed]):
        settings = dict(zip(keys, combo))
        cell_policy = settings.get("policy", base_policy)
        if head.check_policy:
            head.check_policy(cell_policy)
        rule_sets = list(sets or []) + [f"{k}={v}" for k, v in settings.items() if k != "policy"]
        rules = build_rules(head.rules_cls, rules_file, rule_sets)
        label = ", ".join(f"{k}={v}" for k, v in settings.items())
        canon = getattr(rules, "canonical", None)
        key = (canon() if canon else rules, cell_policy)
        same = seen.get(key)
        if same is not None:  # the same rule set twice (a key that another key switches off)
            same.aliases.append(_typed(settings, rules))
            continue
        cell = SearchCell(label, _typed(settings, rules), rules, cell_policy)
        seen[key] = cell
        cells.append(cell)
    return cells


def _typed(settings: dict, rules) -> dict:
    """Space values with the rule's own type (50, not "50")."""
    return {k: (v if k == "policy" else getattr(rules, k)) for k, v in settings.items()}


def interval(metric, sums: np.ndarray, counts: np.ndarray, z: float) -> tuple[float, float, float]:
    """(estimate, low, high) of ``metric`` from per-block sums: Wilson for rates, batch means
    for means (module doc)."""
    from analyzer.stats import wilson
    from analyzer.tune import batch_mean, _quantity

    q = _quantity(sums, metric)
    n = float(counts.sum())
    if metric.kind == "rate":
        s = wilson(float(q.sum()), int(n), z)
    else:
        s = batch_mean(q, counts, z)
    return s.estimate, s.ci_low, s.ci_high


def decide_cells(cells, updated, metrics_by_name, targets, z: float, counts_of) -> None:
    """New intervals for the ``updated`` cells, then every verdict and the ``~`` races over all
    cells (module doc)."""
    for c in updated:
        counts = counts_of(c.blocks)
        for t in targets:
            m = metrics_by_name[t.metric]
            c.stats[t.metric] = interval(m, c.sums[m.job_key or m.name][:c.blocks], counts, z)
        if c.verdict != "undecided":
            continue
        verdicts = []
        for t in (t for t in targets if t.kind == "in"):
            est, lo, hi = c.stats[t.metric]
            if hi < t.lo or lo > t.hi:
                c.verdict, c.failed_on, c.in_race = "fails", t.text, False
                break
            verdicts.append(t.lo <= lo and hi <= t.hi)
        if c.verdict == "undecided" and all(verdicts):
            c.verdict = "meets"
    for t in (t for t in targets if t.kind == "near"):
        racing = [c for c in cells if c.in_race and c.verdict != "fails" and c.stats]
        best_upper = min((_dist_bounds(c.stats[t.metric], t.value)[1] for c in racing),
                         default=math.inf)
        for c in racing:
            if _dist_bounds(c.stats[t.metric], t.value)[0] > best_upper:
                c.in_race = False


def _dist_bounds(stat, v: float) -> tuple[float, float]:
    _est, lo, hi = stat
    lower = 0.0 if lo <= v <= hi else min(abs(lo - v), abs(hi - v))
    return lower, max(abs(lo - v), abs(hi - v))


def z_for_round(r: int, alive: int, n_targets: int, alpha: float) -> float:
    """``Φ⁻¹(1 − α/2^r / (2·alive·T))`` (module doc)."""
    a = alpha / 2 ** r / (2 * max(alive, 1) * max(n_targets, 1))
    return NormalDist().inv_cdf(1.0 - a)


def validate(game: str, targets_text: list[str], space: list[str], policy, rules_file, sets):
    """Every check of a search's input, before any seed is drawn or trial run."""
    from analyzer.tune import get_metric

    if not targets_text:
        raise UserError("give at least one --target")
    if not space:
        raise UserError("give at least one --space KEY=…")
    targets = [parse_target(t) for t in targets_text]
    metrics = [get_metric(game, name) for name in dict.fromkeys(t.metric for t in targets)]
    build_space(game, metrics, space, policy, rules_file, sets)


def search(game: str, targets_text: list[str], space: list[str], policy: str | None, n0: int,
           seed: int, rules_file=None, sets=None, scheduler: str = "local", alpha: float = 0.05,
           budget: int | None = None, time_limit: float | None = None, keep: int = 1,
           max_rounds: int = 12, state=None) -> dict:
    """Run the search (module doc); ``state`` (a :class:`SearchState`) saves each round and
    restores an interrupted search."""
    from analyzer.errors import was_interrupted
    from analyzer.tune import get_metric

    if not targets_text:
        raise UserError("give at least one --target")
    if not space:
        raise UserError("give at least one --space KEY=…")
    if not (0 < alpha < 1):
        raise UserError("--alpha must lie strictly between 0 and 1")
    targets = [parse_target(t) for t in targets_text]
    names = list(dict.fromkeys(t.metric for t in targets))
    metrics = [get_metric(game, name) for name in names]
    by_name = {m.name: m for m in metrics}
    cells = build_space(game, metrics, space, policy, rules_file, sets)
    block = max(1, n0 // FIRST_BLOCKS)
    counts_of = lambda blocks: np.full(blocks, float(block))  # noqa: E731
    has_near = any(t.kind == "near" for t in targets)
    done_rounds, rounds = (state.restore(cells) if state is not None else (0, []))
    t_start, spent = time.perf_counter(), sum(c.blocks * block for c in cells)
    stopped_by = "max-rounds"
    for r in range(done_rounds + 1, max_rounds + 1):
        todo = [c for c in cells if _needs_more(c, cells, keep, has_near)]
        if not todo:
            stopped_by = "decided"
            break
        target_blocks = FIRST_BLOCKS * 2 ** (r - 1)
        cost = sum(max(target_blocks - c.blocks, 0) for c in todo) * block * len(
            {m.job_key or m.name for m in metrics})
        if budget is not None and spent + cost > budget and rounds:
            stopped_by = "budget"
            break
        if time_limit is not None and time.perf_counter() - t_start >= time_limit:
            stopped_by = "time-limit"
            break
        spent += _run_round(game, metrics, todo, target_blocks, block, seed, scheduler)
        if was_interrupted():  # a partial round decides nothing; the saved state is intact
            stopped_by = "interrupt"
            break
        z = z_for_round(r, len(todo), len(metrics), alpha)
        decide_cells(cells, todo, by_name, targets, z, counts_of)
        rounds.append({"round": r, "cells": len(todo), "blocks_per_cell": target_blocks,
                       "trials_per_cell": target_blocks * block, "z": z})
        if state is not None:
            state.save(cells, r, rounds)
    else:
        if not [c for c in cells if _needs_more(c, cells, keep, has_near)]:
            stopped_by = "decided"
    return _result(game, targets, cells, rounds, block, seed, alpha, spent, stopped_by, keep)


def _needs_more(c: SearchCell, cells, keep: int, has_near: bool) -> bool:
    if c.verdict == "undecided":
        return True
    if not has_near or c.verdict != "meets" or not c.in_race:
        return False
    return sum(x.in_race and x.verdict == "meets" for x in cells) > keep


def _run_round(game, metrics, todo, target_blocks: int, block: int, seed: int,
               scheduler: str) -> int:
    """Give each cell in ``todo`` the blocks up to ``target_blocks`` (CRN: same seed, same
    blocks for every cell), locally or as Dask tasks. Returns the trials run."""
    import dataclasses

    from analyzer.tune import block_sums_task

    jobs = []
    for c in todo:
        for key in dict.fromkeys(m.job_key or m.name for m in metrics):
            name = next(m.name for m in metrics if (m.job_key or m.name) == key)
            have = c.sums[key].shape[0] if key in c.sums else 0
            if have < target_blocks:
                jobs.append((c, key, (game, name, dataclasses.asdict(c.rules), c.policy,
                                      (target_blocks - have) * block, seed, block, 0, have)))
    if scheduler == "local":
        results = []
        for _c, _k, args in jobs:
            results.append(block_sums_task(*args))
            from analyzer.errors import was_interrupted

            if was_interrupted():
                break
    else:
        from analyzer.cluster import client_for

        with client_for(scheduler) as client:
            futures = [client.submit(block_sums_task, *args, pure=False) for _c, _k, args in jobs]
            results = client.gather(futures)
    trials = 0
    for (c, key, args), sums in zip(jobs, results):
        if sums.shape[0] != target_blocks - (c.sums[key].shape[0] if key in c.sums else 0):
            continue  # an interrupted partial job is dropped, never half-counted
        c.sums[key] = sums if key not in c.sums else np.vstack([c.sums[key], sums])
        trials += args[4]
    return trials


def _result(game, targets, cells, rounds, block, seed, alpha, spent, stopped_by, keep) -> dict:
    most = max((c.blocks for c in cells), default=0) * block
    grid = most * len(cells)
    rows = []
    for c in cells:
        label = c.label + (f" (and {len(c.aliases)} more with the same rules)"
                           if c.aliases else "")
        row = {"cell": label, **c.settings, "policy": c.policy, "verdict": c.verdict,
               "failed_on": c.failed_on or None, "n": c.blocks * block,
               "same_rules_as": c.aliases}
        if any(t.kind == "near" for t in targets):
            row["in_race"] = c.in_race and c.verdict != "fails"
        for name, (est, lo, hi) in c.stats.items():
            row[name] = {"estimate": est, "ci_low": lo, "ci_high": hi, "n": c.blocks * block}
        rows.append(row)
    eliminated = {}
    for c in cells:
        if c.verdict == "fails":
            eliminated[c.failed_on] = eliminated.get(c.failed_on, 0) + 1
    return {
        "game": game, "exact": False, "seed": seed, "targets": [t.text for t in targets],
        "cells": len(cells), "meets": sum(c.verdict == "meets" for c in cells),
        "fails": sum(c.verdict == "fails" for c in cells),
        "undecided": sum(c.verdict == "undecided" for c in cells),
        "eliminated_by_target": eliminated, "rounds": rounds, "stopped_by": stopped_by,
        "trials_spent": spent, "full_grid_trials": grid,
        "saving": (grid / spent) if spent else None, "keep": keep, "alpha": alpha,
        "method": ("successive elimination on common random numbers (same seed and blocks for "
                   "every cell; blocks doubling each round); Wilson intervals for rates, batch "
                   "means for means; round r uses alpha/2^r split by Bonferroni over the "
                   f"undecided cells and target metrics, so all verdicts hold together with "
                   f"probability ≥ {1 - alpha:g}; undecided cells carry no claim"),
        "rows": rows,
    }


class SearchState:
    """``DIR/search-state.npz``: every cell's per-block sums, verdicts and the rounds done,
    saved atomically after each round; restored only when the search's settings are identical
    (their fingerprint), so an interrupted search resumes where its last full round ended."""

    def __init__(self, folder, settings: dict):
        import hashlib
        import json
        from pathlib import Path

        self.path = Path(folder) / "search-state.npz"
        self.fingerprint = hashlib.sha256(
            json.dumps(settings, sort_keys=True, default=str).encode()).hexdigest()

    def save(self, cells, done_rounds: int, rounds: list) -> None:
        import io
        import json

        from analyzer.output import atomic_write_bytes

        meta = {"fingerprint": self.fingerprint, "done_rounds": done_rounds, "rounds": rounds,
                "cells": [{"label": c.label, "verdict": c.verdict, "failed_on": c.failed_on,
                           "in_race": c.in_race, "stats": c.stats} for c in cells]}
        arrays = {f"{i}|{k}": v for i, c in enumerate(cells) for k, v in c.sums.items()}
        buf = io.BytesIO()
        np.savez(buf, meta=np.array(json.dumps(meta)), **arrays)
        atomic_write_bytes(self.path, buf.getvalue())

    def restore(self, cells) -> tuple[int, list]:
        import json
        import zipfile

        from analyzer.output import note

        import io

        from analyzer.errors import UserError
        from analyzer.userfile import read_user_bytes

        if not self.path.exists() and not self.path.is_symlink():
            return 0, []
        try:  # a regular file only (a FIFO there hung the search), then its arrays
            raw = read_user_bytes(self.path, limit=1 << 32)
            with np.load(io.BytesIO(raw), allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                arrays = {k: data[k] for k in data.files if k != "meta"}
            if not isinstance(meta, dict) or not isinstance(meta.get("cells"), list):
                raise ValueError("not a search state")
        except (UserError, OSError, ValueError, KeyError, zipfile.BadZipFile):
            note(f"tune: {self.path} is unreadable; starting afresh")
            return 0, []
        if meta.get("fingerprint") != self.fingerprint or len(meta["cells"]) != len(cells):
            note(f"tune: {self.path} belongs to another search; starting afresh")
            return 0, []
        for i, (c, m) in enumerate(zip(cells, meta["cells"])):
            c.verdict, c.failed_on, c.in_race = m["verdict"], m["failed_on"], m["in_race"]
            c.stats = {k: tuple(v) for k, v in m["stats"].items()}
            c.sums = {key.split("|", 1)[1]: v for key, v in arrays.items()
                      if key.split("|", 1)[0] == str(i)}
        note(f"tune: resuming after round {meta['done_rounds']} from {self.path}")
        return int(meta["done_rounds"]), list(meta["rounds"])
