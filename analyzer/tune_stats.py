"""The statistics of a `tune --target` search: each cell's interval, its verdicts, the size of
its next round, and the grid a search is compared with.

Intervals (one family)
----------------------
A search over ``C`` cells with ``T`` target metrics prints ``K = C·T`` intervals. Each is a
confidence sequence (:mod:`analyzer.confseq`) at level ``1 − β`` with ``β = α/K``: it holds at
every sample size at once, so by a union bound over the ``K`` of them, with probability at
least ``1 − α`` every interval of every cell holds at every round the search looks at, whatever
rule decided when to look again or to stop (the search's own allocation, a budget, a time limit,
a Ctrl-C). Every verdict follows from the intervals, so all verdicts are right together with the
same probability. Undecided cells carry no claim.

* A metric with a known range ``[a, b]`` per trial (rates: ``[0, 1]``) gets the betting
  confidence sequence: valid at every ``n``, with no normal approximation; a sample that never
  varied (e.g. no rare event yet) certifies nothing near its mean.
* A metric with no known range gets the asymptotic (normal-mixture) confidence sequence, tuned
  for 16 first rounds; it holds as the sample grows, not at a small one, and the method line
  says so; a sample with no spread certifies nothing.

Verdicts
--------
``metric in [lo, hi]``: a cell **meets** it when its interval lies inside ``[lo, hi]`` and
**fails** it when its interval lies wholly outside; a cell that fails one target is out, a cell
that meets every ``in`` target is accepted. ``metric ~ v``: the distance ``|μ − v|`` lies in
``[d_lo, d_hi]`` (``d_lo = 0`` when the interval holds ``v``); a cell is **certified farther**
than another when its ``d_lo`` exceeds the other's ``d_hi``, and leaves the race.

Next round
----------
An undecided cell at ``n`` trials needs its interval to shrink from the half-width ``h`` it has
on the deciding side to the distance ``δ`` from its estimate to the bound it must clear; the
half-width falls roughly as ``1/√n``, so it is given ``n·min(max(1.1·(h/δ)², 1.25), 2)`` trials
(``2n`` when ``δ`` is 0); a cell still in a ``~`` race is doubled.

Under a budget
--------------
Without ``--budget`` every cell that needs more gets its step (a cell's trials depend only on
its own path, so serving them together costs nothing). Under a budget the order decides what
the budget buys: a cell that is never decided spends trials that buy no verdict, and a verdict
decided at a small half-width is worth the most (it sets the equal-guarantee grid's ``n``). A
cell's *best-case need* is ``n·(h/(δ + s))²`` with ``s`` = :data:`BEST_CASE_SES` SEs: the trials
it needs if its mean lies one SE farther from the bound than its estimate (it is small while the
estimate is still loose, so a cell with an unlucky first estimate is not written off, and it
approaches the estimate's need as the sample grows). Each round:

* the cells go in order of best-case need, easiest first (a feasibility-determination or
  thresholding-bandit allocation: trials go where they decide something soonest);
* a cell whose best-case need exceeds ``n`` plus what the budget has left after the steps
  already chosen is left out: it could not be decided with that, and would only eat the budget
  (it may return in a later round if its best case falls);
* only the cells whose best-case need is within :data:`WINDOW` times the easiest one's are
  served; the harder ones wait until the easier are decided, so a cell that turns out to need
  more than the budget holds has taken little of it when that becomes clear.

None of this touches an interval: every cell's confidence sequence holds whatever rule chose
when to sample it (module doc), and an undecided cell's trials count in the search's cost.

The equal-guarantee grid
------------------------
The search's cost is compared with a grid giving the same guarantee: every cell at one ``n``,
normal intervals at the grid's own Bonferroni ``z = Φ⁻¹(1 − α/(2K))`` over the same ``K``, and
``n`` just large enough to decide every verdict the search decided: a cell decided on a target
with estimate ``x̂``, per-trial SD ``σ̂`` and distance ``δ`` from ``x̂`` to the target's bound
reaches the search's half-width ``h`` (half the width of the interval that decided it) at
``n = (z·σ̂/h)²``: the grid's ``n`` is the largest over the decided cells, for every cell (its
seconds use each cell's own kernel seconds per trial in its largest round of this search, where
the fixed cost of a kernel call weighs least, or the search's average if that is less). A grid that only has to *decide* the same
verdicts needs the half-width ``δ``, the distance from ``x̂`` to the bound it cleared (a ``~``
exclusion: half the gap between the two cells' distances), ``n = (z·σ̂/δ)²``; it is reported too
(``deciding_*``). Both grids know in advance the ``n`` they need, so the comparison favours the
grid.
"""
from __future__ import annotations

import math
from statistics import NormalDist

from analyzer.confseq import asymptotic_interval, interval as betting_interval

GROWTH_MIN, GROWTH_MAX, GROWTH_SLACK, RACE_GROWTH = 1.25, 2.0, 1.1, 2.0
#: under a budget: the cells whose best-case need is within WINDOW times the easiest cell's
WINDOW = 8.0
#: an undecided cell's best case (module doc): its mean this many SEs farther from the bound
BEST_CASE_SES = 1.0


def family_beta(alpha: float, cells: int, metrics: int) -> tuple[int, float]:
    """``(K, β)``: the number of intervals in the family and each one's level ``α/K``."""
    k = max(cells, 1) * max(metrics, 1)
    return k, alpha / k


def grid_z(alpha: float, k: int) -> float:
    """The equal-guarantee grid's Bonferroni ``z = Φ⁻¹(1 − α/(2K))``."""
    return NormalDist().inv_cdf(1.0 - alpha / (2.0 * k))


def statistic(n: float, s: float, q: float | None, rng: tuple | None, beta: float,
              first_round: float) -> dict:
    """A cell's statistic object for one metric from ``n`` trials with ``Σx = s`` and
    ``Σx² = q``: estimate, SE, the confidence sequence's bounds and which one it is."""
    mean = s / n
    sd = _sd(n, s, q)
    if rng is not None:
        lo, hi = betting_interval(n, s, q, rng[0], rng[1], beta)
        kind = "betting"
    else:
        lo, hi = asymptotic_interval(n, s, q, beta, 16.0 * first_round)
        kind = "asymptotic"
    return {"estimate": mean, "se": sd / math.sqrt(n) if n > 0 else math.nan,
            "ci_low": lo, "ci_high": hi, "n": int(n), "sd": sd, "interval": kind}


def _sd(n: float, s: float, q: float | None) -> float:
    if q is None or n < 2:
        return math.nan
    return math.sqrt(max((q - s * s / n) / (n - 1), 0.0))


def in_verdict(stat: dict, lo: float, hi: float) -> str:
    """'meets', 'fails' or '' (undecided) for one ``in [lo, hi]`` target."""
    if stat["ci_high"] < lo or stat["ci_low"] > hi:
        return "fails"
    if lo <= stat["ci_low"] and stat["ci_high"] <= hi:
        return "meets"
    return ""


def distance(stat: dict, v: float) -> dict:
    """The statistic of ``|μ − v|``: the estimate's distance and the interval's."""
    lo, hi = stat["ci_low"], stat["ci_high"]
    low = 0.0 if lo <= v <= hi else min(abs(lo - v), abs(hi - v))
    return {"estimate": abs(stat["estimate"] - v), "se": stat["se"], "ci_low": low,
            "ci_high": max(abs(lo - v), abs(hi - v)), "n": stat["n"]}


def need_ratio(stat: dict, lo: float, hi: float, slack: float = 0.0) -> float:
    """``(h/δ)²`` for an undecided ``in [lo, hi]`` target (module doc): how many times its
    trials the cell needs before its interval clears the bound it must clear. ``slack`` SEs
    are added to ``δ``: the need if the mean lies that much farther from the bound than its
    estimate (a plausible best case, used to leave out cells that no budget left would decide)."""
    est, low, high = stat["estimate"], stat["ci_low"], stat["ci_high"]
    more = slack * stat["se"]
    ratios = []
    if est < lo:
        ratios.append(_ratio(high - est, lo - est + more))
    elif est > hi:
        ratios.append(_ratio(est - low, est - hi + more))
    else:
        if low < lo:
            ratios.append(_ratio(est - low, est - lo + more))
        if high > hi:
            ratios.append(_ratio(high - est, hi - est + more))
    return max(ratios, default=1.0) ** 2


def _ratio(h: float, d: float) -> float:
    if not math.isfinite(h):
        return math.inf
    return h / d if d > 0 else math.inf


def growth(ratio2: float) -> float:
    """The factor by which an undecided cell's trials grow next round (module doc)."""
    if not math.isfinite(ratio2):
        return GROWTH_MAX
    return min(max(GROWTH_SLACK * ratio2, GROWTH_MIN), GROWTH_MAX)


def grid_trials_for(stat: dict, delta: float, z: float) -> float:
    """Trials a normal interval at ``z`` needs to have half-width ``delta`` for this cell."""
    sd = stat.get("sd", math.nan)
    if not (delta > 0 and math.isfinite(sd)):
        return math.nan
    return (z * sd / delta) ** 2


def equal_grid(ctx, cells, alpha: float, family: int, jobs: int) -> dict | None:
    """The equal-guarantee grid for the verdicts the search decided (module doc), or None when
    it decided none: ``trials_per_cell`` at the search's half-widths, ``deciding_trials_per_cell``
    when it only has to clear the bounds."""
    z = grid_z(alpha, family)
    same, deciding = [], []

    def add(st: dict, delta: float) -> None:
        half = (st["ci_high"] - st["ci_low"]) / 2.0
        same.append(grid_trials_for(st, half, z))
        deciding.append(grid_trials_for(st, delta, z))

    for c in cells:
        if c.verdict == "meets" and c.decided_round:
            for t in (t for t in ctx.targets if t.kind == "in"):
                st = c.stats[t.metric]
                add(st, min(st["estimate"] - t.lo, t.hi - st["estimate"]))
        elif c.verdict == "fails":
            t = next(t for t in ctx.targets if t.text == c.failed_on)
            st = c.stats[t.metric]
            add(st, max(t.lo - st["estimate"], st["estimate"] - t.hi))
    for t in (t for t in ctx.targets if t.kind == "near"):
        alive = [c for c in cells if c.verdict != "fails" and c.stats]
        if not alive:
            continue
        best = min(alive, key=lambda c: distance(c.stats[t.metric], t.value)["ci_high"])
        d_best = distance(best.stats[t.metric], t.value)["estimate"]
        for c in alive:
            if not c.in_race:
                st = dict(c.stats[t.metric])
                st["sd"] = max(st["sd"], best.stats[t.metric]["sd"])
                add(st, (distance(st, t.value)["estimate"] - d_best) / 2.0)
    same = [x for x in same if math.isfinite(x)]
    deciding = [x for x in deciding if math.isfinite(x)]
    if not same:
        return None
    per_cell = int(math.ceil(max(same)))
    played = sum(ctx.plan.trials(c.blocks) for c in cells)
    average = sum(c.seconds for c in cells) / played if played else 0.0
    rate = sum(min(c.rate, average) for c in cells)  # seconds per trial of every cell, summed
    decide_n = int(math.ceil(max(deciding))) if deciding else None
    return {"z": z, "intervals": family, "trials_per_cell": per_cell,
            "trials": per_cell * len(cells) * jobs, "seconds": per_cell * rate,
            "deciding_trials_per_cell": decide_n,
            "deciding_trials": None if decide_n is None else decide_n * len(cells) * jobs,
            "deciding_seconds": None if decide_n is None else decide_n * rate}
