"""House rules designed to a target: which rule sets meet every target, with stated confidence.

Problem
-------
A *space* is the Cartesian product of values of a few keys (``--space key=lo..hi[:step]`` or
``key=v1,v2,…``): rule keys, ``policy``, or a knob of the policy's bot where the game lets a
space name one (Trash Pandas whole games: ``--space stop-at=2..5``). A *target* is
``metric in [lo, hi]`` (the cell must meet it) or ``metric ~ v`` (the cells closest to ``v``
are wanted). Each cell's metrics are Monte Carlo means of per-trial quantities (a game's tuning
metrics, :mod:`analyzer.tune`).

Search
------
Round 1 gives every cell the first round's trials; each later round gives every cell that is
still undecided (or still racing for a ``~`` target) more trials, as many as its own interval
suggests it needs (:mod:`analyzer.tune_stats`: the cells close to a bound get more, the cells
far from every bound are decided in round 1 and never sampled again). Every cell plays the same
trials: block ``k`` of the seed is the same stream for every cell (common random numbers), and
each round continues a cell with the blocks after the ones it has (disjoint blocks: no trial is
used twice). Blocks come in groups of :data:`GROUP`; each group's blocks are twice the size of
the last group's, so a cell at ``n`` trials has ``O(log n)`` blocks and a round's step is a
sixteenth of ``n`` at most. Only each cell's column totals are kept. Under a trial budget the
cells are served easiest first, the hard ones wait, and a cell the rest of the budget could not
decide is left out (:mod:`analyzer.tune_stats`, "Under a budget").

The search stops when every cell is decided (and at most ``keep`` remain in a ``~`` race), when
a cell would pass :data:`MOST_ROUNDS_OF_FIRST` times the first round, at the trial budget, the
time limit, or an interrupt. A Ctrl-C (or SIGTERM) stops only the round being computed: between
rounds it is recorded and acted on at the next round's start, and a finished round is applied,
decided and saved under :func:`analyzer.interrupts.held`, so a signal landing there can neither
half-apply a round nor lose the rounds already recorded. The guarantee (every interval, so
every verdict, holds together with probability ≥ 1 − α at whatever point the search stops) and
the cost comparison with the equal-guarantee grid are stated in :mod:`analyzer.tune_stats`.
"""
from __future__ import annotations

import itertools
import math
import re
import time
from dataclasses import dataclass, field

import numpy as np

from analyzer.errors import UserError

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
GROUP = 16  # blocks of one size; each group's blocks are twice the last group's
MOST_ROUNDS_OF_FIRST = 4096  # no cell gets more than this many times the first round's trials
MAX_ROUNDS = 60


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
    totals: dict = field(default_factory=dict)  # job key → column totals over its blocks
    blocks: int = 0  # blocks played (the same for every job of the cell)
    seconds: float = 0.0  # kernel seconds spent on the cell
    rate: float = 0.0  # kernel seconds per trial in the cell's largest round (all its jobs)
    rate_trials: int = 0  # the trials of that round
    ranges: dict = field(default_factory=dict)  # metric → (a, b) per trial, or None
    verdict: str = "undecided"  # "meets", "fails", "undecided"
    failed_on: str = ""
    in_race: bool = True
    decided_round: int = 0
    stats: dict = field(default_factory=dict)  # metric → statistic (analyzer.tune_stats)
    aliases: list = field(default_factory=list)  # settings of cells with the very same rules


@dataclass(frozen=True)
class BlockPlan:
    """Block ``k`` holds ``b·2^(k // GROUP)`` trials: groups of :data:`GROUP` blocks, each
    group's blocks twice the size of the last group's (module doc). The layout depends only on
    the first round's size, so block ``k`` is the same trials in every cell."""

    b: int

    @classmethod
    def for_first_round(cls, n0: int) -> "BlockPlan":
        return cls(max(1, n0 // GROUP))

    def size(self, k: int) -> int:
        return self.b << (k // GROUP)

    def trials(self, blocks: int) -> int:
        """Trials in blocks ``0 … blocks − 1``."""
        j, r = divmod(blocks, GROUP)
        return self.b * (GROUP * ((1 << j) - 1) + r * (1 << j))

    def blocks_for(self, n: float) -> int:
        """The fewest blocks holding at least ``n`` trials."""
        k = 0
        while self.trials(k) < n:
            k += GROUP if self.trials(k + GROUP) < n else 1
        return k

    def stretches(self, first: int, last: int) -> list[tuple[int, int, int]]:
        """``(start block, blocks, block size)`` runs of equal-sized blocks covering
        ``first … last − 1``."""
        out = []
        k = first
        while k < last:
            end = min(last, (k // GROUP + 1) * GROUP)
            out.append((k, end - k, self.size(k)))
            k = end
        return out


def build_space(game: str, metrics, space: list[str], policy: str | None, rules_file, sets):
    from analyzer.rules import build_rules
    from analyzer.tune import check_space_keys

    head = metrics[0]
    parsed = [parse_space(s) for s in space]
    knob_names = set(head.knobs or ())
    parsed = [((k.replace("_", "-") if k.replace("_", "-") in knob_names else k), v)
              for k, v in parsed]
    keys = [k for k, _ in parsed]
    if len(set(keys)) != len(keys):
        raise UserError("a --space key is given twice")
    check_space_keys("--space", [k for k in keys if k not in knob_names], head.rules_cls,
                     knobs=sorted(knob_names))
    base_policy = policy or head.default_policy
    cells, seen = [], {}
    total = math.prod(len(v) for _, v in parsed)
    if total > 20_000:
        raise UserError(f"the space has {total:,} cells (at most 20,000)")
    for combo in itertools.product(*[vals for _, vals in parsed]):
        settings = dict(zip(keys, combo))
        cell_policy = settings.get("policy", base_policy)
        for k, v in settings.items():
            if k in knob_names:
                cell_policy = head.set_knob(cell_policy, k, v)
        if head.check_policy:
            head.check_policy(cell_policy)
        rule_sets = list(sets or []) + [f"{k}={v}" for k, v in settings.items()
                                        if k != "policy" and k not in knob_names]
        rules = build_rules(head.rules_cls, rules_file, rule_sets)
        label = ", ".join(f"{k}={v}" for k, v in settings.items())
        canon = getattr(rules, "canonical", None)
        key = (canon() if canon else rules, cell_policy)
        same = seen.get(key)
        if same is not None:  # the same rule set twice (a key that another key switches off)
            same.aliases.append(_typed(settings, rules, knob_names))
            continue
        cell = SearchCell(label, _typed(settings, rules, knob_names), rules, cell_policy)
        seen[key] = cell
        cells.append(cell)
    return cells


def build_space_keys(game: str, targets_text: list[str], space: list[str]) -> list[str]:
    """The space's keys as its cells name them (a bot knob in its own spelling)."""
    from analyzer.tune import get_metric

    head = get_metric(game, parse_target(targets_text[0]).metric)
    knob_names = set(head.knobs or ())
    keys = [parse_space(s)[0] for s in space]
    return [k.replace("_", "-") if k.replace("_", "-") in knob_names else k for k in keys]


def _typed(settings: dict, rules, knob_names=frozenset()) -> dict:
    """Space values with the rule's own type (50, not "50"); policies and knobs as given."""
    return {k: (v if k == "policy" or k in knob_names else getattr(rules, k))
            for k, v in settings.items()}


def validate(game: str, targets_text: list[str], space: list[str], policy, rules_file, sets):
    """Every check of a search's input, before any seed is drawn or trial run."""
    _setup(game, targets_text, space, policy, rules_file, sets)


def _setup(game, targets_text, space, policy, rules_file, sets):
    from analyzer.tune import get_metric

    if not targets_text:
        raise UserError("give at least one --target")
    if not space:
        raise UserError("give at least one --space KEY=…")
    targets = [parse_target(t) for t in targets_text]
    names = list(dict.fromkeys(t.metric for t in targets))
    metrics = [get_metric(game, name) for name in names]
    for m in metrics[1:]:
        if m.rules_cls is not metrics[0].rules_cls:
            raise UserError("all --target metrics must belong to the same game")
    for m in metrics:
        if m.kind != "rate" and m.bounds is None and m.square is None:
            raise UserError(f"metric '{m.name}' has neither a known range nor a kernel column "
                            f"of its square: it cannot be a --target")
    cells = build_space(game, metrics, space, policy, rules_file, sets)
    for c in cells:
        c.ranges = {m.name: _range(m, c.rules, c.policy) for m in metrics}
    return targets, metrics, cells


def search(game: str, targets_text: list[str], space: list[str], policy: str | None, n0: int,
           seed: int, rules_file=None, sets=None, scheduler: str = "local", alpha: float = 0.05,
           budget: int | None = None, time_limit: float | None = None, keep: int = 1,
           max_rounds: int = MAX_ROUNDS, state=None) -> dict:
    """Run the search (module doc); ``state`` (a :class:`SearchState`) saves each round and
    restores an interrupted search."""
    from analyzer.errors import Interrupted, mark_interrupted
    from analyzer.interrupts import held, sigint_seen
    from analyzer.tune_stats import family_beta

    if not (0 < alpha < 1):
        raise UserError("--alpha must lie strictly between 0 and 1")
    if n0 <= 0:
        raise UserError(f"the first round needs at least one trial (got {n0})")
    targets, metrics, cells = _setup(game, targets_text, space, policy, rules_file, sets)
    plan = BlockPlan.for_first_round(n0)
    jobs = list(dict.fromkeys(m.job_key or m.name for m in metrics))
    family, beta = family_beta(alpha, len(cells), len(metrics))
    most_blocks = plan.blocks_for(plan.trials(GROUP) * MOST_ROUNDS_OF_FIRST)
    ctx = _Context(game, metrics, targets, plan, seed, scheduler, beta, keep, most_blocks)
    done_rounds, rounds = (state.restore(cells) if state is not None else (0, []))
    t_start = time.perf_counter()
    spent = sum(plan.trials(c.blocks) for c in cells) * len(jobs)
    stopped_by = "max-rounds"
    try:
        for r in range(done_rounds + 1, max_rounds + 1):
            with held(quiet=True):  # between rounds a Ctrl-C is only recorded (module doc)
                if sigint_seen():
                    stopped_by = "interrupt"
                    break
                wanted = ctx.wanted(cells, r)
                if not wanted:
                    stopped_by = "decided" if not ctx.capped(cells) else "most-trials"
                    break
                if time_limit is not None and time.perf_counter() - t_start >= time_limit:
                    stopped_by = "time-limit"
                    break
                todo = ctx.within_budget(wanted, None if budget is None or not rounds
                                         else budget - spent, len(jobs))
                if not todo:
                    stopped_by = "budget"
                    break
            finished = _run_round(ctx, todo)
            if finished is None:  # interrupted: the round is dropped, the saved state is intact
                stopped_by = "interrupt"
                break
            with held(quiet=True):  # a round is applied, decided and saved whole or not at all
                ran = _apply_round(ctx, todo, finished)
                spent += ran
                ctx.decide(cells, [c for c, _ in todo], r)
                rounds.append({"round": r, "cells": len(todo), "trials": ran,
                               "most_trials_per_cell": max(plan.trials(b) for _c, b in todo)})
                if state is not None:
                    state.save(cells, r, rounds)
        else:
            with held(quiet=True):
                if not ctx.wanted(cells, max_rounds + 1):
                    stopped_by = "decided" if not ctx.capped(cells) else "most-trials"
    except KeyboardInterrupt:  # landed between two held blocks: the rounds recorded are whole
        stopped_by = "interrupt"
    if stopped_by == "interrupt" or sigint_seen():
        mark_interrupted()
    if stopped_by == "interrupt" and not rounds:
        raise Interrupted("no round of the search had finished")
    from analyzer.tune_report import search_result

    return search_result(ctx, cells, rounds, spent, stopped_by, alpha, family,
                         time.perf_counter() - t_start)


class _Context:
    """What every round of one search needs: its metrics, targets, block plan and level."""

    def __init__(self, game, metrics, targets, plan: BlockPlan, seed: int, scheduler: str,
                 beta: float, keep: int, most_blocks: int):
        self.game, self.metrics, self.targets, self.plan = game, metrics, targets, plan
        self.by_name = {m.name: m for m in metrics}
        self.seed, self.scheduler, self.beta, self.keep = seed, scheduler, beta, keep
        self.most_blocks = most_blocks
        self.has_near = any(t.kind == "near" for t in targets)

    def needs_more(self, c: SearchCell, cells) -> bool:
        if c.verdict == "undecided":
            return True
        if not self.has_near or c.verdict != "meets" or not c.in_race:
            return False
        return sum(x.in_race and x.verdict == "meets" for x in cells) > self.keep

    def capped(self, cells) -> list:
        return [c for c in cells if self.needs_more(c, cells) and c.blocks >= self.most_blocks]

    def wanted(self, cells, r: int) -> list[tuple[SearchCell, int, float, float]]:
        """``(cell, blocks it should reach, trials it is predicted to need, trials it would
        need in a plausible best case)`` for the cells that need more (analyzer.tune_stats:
        next round)."""
        from analyzer.tune_stats import BEST_CASE_SES, RACE_GROWTH, growth, need_ratio

        out = []
        first = self.plan.trials(GROUP)
        for c in cells:
            if not self.needs_more(c, cells) or c.blocks >= self.most_blocks:
                continue
            if r == 1 or not c.stats:
                out.append((c, GROUP, float(first), float(first)))
                continue
            n = self.plan.trials(c.blocks)
            if c.verdict == "undecided":
                open_ = [t for t in self.targets if t.kind == "in"
                         and not _met(c.stats[t.metric], t)]
                ratio = max((need_ratio(c.stats[t.metric], t.lo, t.hi) for t in open_),
                            default=1.0)
                best = max((need_ratio(c.stats[t.metric], t.lo, t.hi, BEST_CASE_SES)
                            for t in open_), default=1.0)
                g, need, plausible = growth(ratio), n * ratio, n * best
            else:
                g, need, plausible = RACE_GROWTH, n * RACE_GROWTH, n * RACE_GROWTH
            blocks = min(max(self.plan.blocks_for(n * g), c.blocks + 1), self.most_blocks)
            out.append((c, blocks, need, plausible))
        return out

    def within_budget(self, wanted, remaining: float | None, jobs: int):
        """The wanted steps, or under a budget those chosen easiest first (analyzer.tune_stats:
        "Under a budget"): in order of best-case need, only the cells whose best-case need is
        within :data:`~analyzer.tune_stats.WINDOW` times the easiest one's, while their steps
        fit what is left; a cell is left out when even its best case could not be decided with
        what the budget has left after this round's steps already chosen (it does not set the
        window)."""
        from analyzer.tune_stats import WINDOW

        steps = [(c, b) for c, b, _need, _best in wanted]
        if remaining is None:
            return steps
        chosen, left = [], remaining
        ordered = sorted(wanted, key=lambda w: w[3])
        easiest = None
        for c, b, _need, plausible in ordered:
            have = self.plan.trials(c.blocks)
            cost = (self.plan.trials(b) - have) * jobs
            if (plausible - have) * jobs > left:
                continue  # hopeless within the budget: it would eat trials and stay open
            if easiest is None:
                easiest = plausible
            if plausible > WINDOW * easiest:
                break  # harder cells wait until the easier ones are decided
            if cost <= left:
                chosen.append((c, b))
                left -= cost
        return [(c, b) for c, b in steps if any(c is x for x, _ in chosen)]

    def decide(self, cells, updated, r: int) -> None:
        """New intervals for the ``updated`` cells, then every verdict and the ``~`` races."""
        from analyzer.tune_stats import distance, in_verdict, statistic

        first = self.plan.trials(GROUP)
        for c in updated:
            n = self.plan.trials(c.blocks)
            for t in self.targets:
                m = self.by_name[t.metric]
                s, q = m.sums(c.totals[m.job_key or m.name])
                c.stats[t.metric] = statistic(n, s, q, c.ranges[t.metric], self.beta, first)
            if c.verdict != "undecided":
                continue
            met = []
            for t in (t for t in self.targets if t.kind == "in"):
                v = in_verdict(c.stats[t.metric], t.lo, t.hi)
                if v == "fails":
                    c.verdict, c.failed_on, c.in_race, c.decided_round = "fails", t.text, False, r
                    break
                met.append(v == "meets")
            if c.verdict == "undecided" and all(met):
                c.verdict, c.decided_round = "meets", r
        for t in (t for t in self.targets if t.kind == "near"):
            racing = [c for c in cells if c.in_race and c.verdict != "fails" and c.stats]
            best = min((distance(c.stats[t.metric], t.value)["ci_high"] for c in racing),
                       default=math.inf)
            for c in racing:
                if distance(c.stats[t.metric], t.value)["ci_low"] > best:
                    c.in_race, c.decided_round = False, r


def _met(stat: dict, t) -> bool:
    return t.lo <= stat["ci_low"] and stat["ci_high"] <= t.hi


#: a block at least this large runs in a kernel call of its own (a Ctrl-C is noticed between)
ALONE = 1 << 16


def cell_task(game: str, name: str, rules_kwargs: dict, policy: str, seed: int,
              stretches: list, job=None) -> tuple[np.ndarray, int, float]:
    """One cell's share of a round: the column totals of the blocks in ``stretches`` (runs of
    equal-sized blocks, :meth:`BlockPlan.stretches`), added one block at a time in block order,
    the blocks finished and the kernel seconds. Runs locally (``job`` given: built and warmed
    once per search) or as a Dask task; the same code, so the same numbers. Block ``k``'s
    trials come from its key, ``SeedSequence(seed, spawn_key=(k,))`` (analyzer.rng)."""
    from analyzer.interrupts import sigint_seen
    from analyzer.rng import block_keys

    if job is None:
        from analyzer.cluster import one_numba_thread_per_task
        from analyzer.runner import warm_up
        from analyzer.tune import get_metric

        one_numba_thread_per_task()
        m = get_metric(game, name)
        job = m.make_job(m.rules_cls(**rules_kwargs), policy)
        warm_up(job)
    total, blocks, seconds = None, 0, 0.0
    for start, count, size in stretches:
        step = 1 if size >= ALONE else count
        for first in range(start, start + count, step):
            m = min(step, start + count - first)
            keys = block_keys(seed, first, m)
            t0 = time.perf_counter()
            rows = np.asarray(job.run_blocks(keys, np.full(m, size, dtype=np.int64)),
                              dtype=np.float64)
            seconds += time.perf_counter() - t0
            for row in rows:
                total = row.copy() if total is None else total + row
            blocks += m
            if sigint_seen():  # a Ctrl-C whose KeyboardInterrupt Python swallowed
                raise KeyboardInterrupt
    return total, blocks, seconds


def _run_round(ctx: _Context, todo) -> list | None:
    """Give each cell of ``todo`` (cell, blocks to reach) its new blocks, locally or as Dask
    tasks, without applying them: the jobs of the round with their results, or None after an
    interrupt or when a job came back short (the round is then dropped whole)."""
    import dataclasses

    from analyzer.errors import Interrupted, mark_interrupted, was_interrupted

    jobs = []
    for c, target in todo:
        for key in dict.fromkeys(m.job_key or m.name for m in ctx.metrics):
            name = next(m.name for m in ctx.metrics if (m.job_key or m.name) == key)
            jobs.append((c, key, target, (ctx.game, name, dataclasses.asdict(c.rules), c.policy,
                                          ctx.seed, ctx.plan.stretches(c.blocks, target))))
    results = []
    try:
        if ctx.scheduler == "local":
            from analyzer.runner import Progress

            bar = Progress(f"tune {ctx.game}: round", len(jobs), "cells")
            try:
                for i, (c, key, _t, args) in enumerate(jobs):
                    results.append(cell_task(*args, job=_local_job(ctx, c, key)))
                    if was_interrupted():
                        return None
                    bar.update(i + 1)
            finally:
                bar.close()
        else:
            from analyzer.cluster import client_for

            with client_for(ctx.scheduler) as client:
                futures = [client.submit(cell_task, *args, pure=False) for *_x, args in jobs]
                results = client.gather(futures)
    except (KeyboardInterrupt, Interrupted):
        mark_interrupted()
        return None
    for (c, key, target, _args), (total, blocks, seconds) in zip(jobs, results):
        if blocks != target - c.blocks:
            mark_interrupted()
            return None
    return list(zip(jobs, results))


def _apply_round(ctx: _Context, todo, finished: list) -> int:
    """Add a finished round's column totals and seconds to its cells and move each cell to its
    new block count; the trials the round ran."""
    trials = 0
    spent = {}
    for (c, key, target, _args), (total, blocks, seconds) in finished:
        have = c.totals.get(key)
        c.totals[key] = total if have is None else have + total
        c.seconds += seconds
        spent[id(c)] = spent.get(id(c), 0.0) + seconds
        trials += ctx.plan.trials(target) - ctx.plan.trials(c.blocks)
    for c, target in todo:
        step = ctx.plan.trials(target) - ctx.plan.trials(c.blocks)
        if step >= c.rate_trials:  # the per-trial rate of the largest round (least overhead)
            c.rate, c.rate_trials = spent[id(c)] / step, step
        c.blocks = target
    return trials


_JOBS: dict = {}


def _local_job(ctx: _Context, c: SearchCell, key: str):
    """The cell's kernel job, built once per search and process (a job is rules + policy)."""
    name = next(m.name for m in ctx.metrics if (m.job_key or m.name) == key)
    m = ctx.by_name[name]
    ident = (ctx.game, key, repr(c.rules), c.policy)
    if ident not in _JOBS:
        from analyzer.runner import warm_up

        if len(_JOBS) > 512:
            _JOBS.clear()
        _JOBS[ident] = m.make_job(c.rules, c.policy)
        warm_up(_JOBS[ident])
    return _JOBS[ident]


_RANGES: dict = {}


def _range(m, rules, policy: str):
    """``m.range_for`` once per metric, rules and policy in this process (it may solve a turn)."""
    ident = (m.game, m.name, repr(rules), policy)
    if ident not in _RANGES:
        if len(_RANGES) > 4096:
            _RANGES.clear()
        _RANGES[ident] = m.range_for(rules, policy)
    return _RANGES[ident]


class SearchState:
    """``DIR/search-state.npz``: every cell's column totals, blocks, seconds, verdicts and the
    rounds done, saved atomically after each round; restored only when the search's settings
    are identical (their fingerprint), so an interrupted search resumes where its last full
    round ended."""

    VERSION = 2

    def __init__(self, folder, settings: dict):
        import hashlib
        import json
        from pathlib import Path

        self.path = Path(folder) / "search-state.npz"
        self.fingerprint = hashlib.sha256(json.dumps(
            {**settings, "state": self.VERSION}, sort_keys=True, default=str).encode()).hexdigest()

    def save(self, cells, done_rounds: int, rounds: list) -> None:
        import io
        import json

        from analyzer.output import atomic_write_bytes

        meta = {"fingerprint": self.fingerprint, "done_rounds": done_rounds, "rounds": rounds,
                "cells": [{"label": c.label, "verdict": c.verdict, "failed_on": c.failed_on,
                           "in_race": c.in_race, "blocks": c.blocks, "seconds": c.seconds,
                           "rate": c.rate, "rate_trials": c.rate_trials,
                           "decided_round": c.decided_round, "stats": c.stats} for c in cells]}
        arrays = {f"{i}|{k}": v for i, c in enumerate(cells) for k, v in c.totals.items()}
        buf = io.BytesIO()
        np.savez(buf, meta=np.array(json.dumps(meta)), **arrays)
        atomic_write_bytes(self.path, buf.getvalue())

    def restore(self, cells) -> tuple[int, list]:
        import io
        import json
        import zipfile

        from analyzer.errors import UserError
        from analyzer.output import note
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
            saved = meta["cells"]
            if meta.get("fingerprint") != self.fingerprint or len(saved) != len(cells):
                note(f"tune: {self.path} belongs to another search; starting afresh")
                return 0, []
            for i, (c, m) in enumerate(zip(cells, saved)):
                c.verdict, c.failed_on, c.in_race = m["verdict"], m["failed_on"], m["in_race"]
                c.blocks, c.seconds = int(m["blocks"]), float(m["seconds"])
                c.rate, c.rate_trials = float(m["rate"]), int(m["rate_trials"])
                c.decided_round = int(m["decided_round"])
                c.stats = {k: dict(v) for k, v in m["stats"].items()}
                c.totals = {key.split("|", 1)[1]: v for key, v in arrays.items()
                            if key.split("|", 1)[0] == str(i)}
            done, rounds = int(meta["done_rounds"]), list(meta["rounds"])
        except (UserError, OSError, ValueError, KeyError, TypeError, AttributeError,
                zipfile.BadZipFile):
            note(f"tune: {self.path} is unreadable; starting afresh")
            for c in cells:
                c.verdict, c.failed_on, c.in_race, c.blocks, c.seconds = "undecided", "", True, 0, 0.0
                c.decided_round, c.stats, c.totals, c.rate, c.rate_trials = 0, {}, {}, 0.0, 0
            return 0, []
        note(f"tune: resuming after round {done} from {self.path}")
        return done, rounds
