"""Racing: Monte Carlo scoring of candidate rules that spends trials on close calls only.

What belongs here: the racing loop of :mod:`analyzer.advice` for games without an exact
evaluator. No numpy at import, no printing.

Each round, every surviving candidate is played on the same new batch of trials as the best
known policy (common random numbers), giving per-trial losses ``d = v_best − v_rule``; the
running mean and SE come from the sums of d and d² (:func:`analyzer.stats.mean_from_sums`). With
``z`` a Bonferroni-corrected normal quantile over candidates and rounds, candidate i is dropped
once ``lo_i > hi_j`` for some candidate j of complexity ≤ i's (its loss interval lies wholly
above a simpler or equally simple rule's): it can then be neither on the Pareto front nor the
best of its complexity. The race ends when every survivor's half-width is at most
``precision`` or after ``max_rounds``.

Cost accounting: ``trials_spent`` is the sum over rounds of batch × survivors; ``trials_flat``
is what evaluating every candidate to the largest sample any survivor reached would cost
(``n_candidates × n_max``); both are returned.
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

from analyzer.advice import Rule, Scored


def race(rules: Sequence[Rule], sample: Callable, batch: int, max_rounds: int = 64,
         precision: float = 0.0, alpha: float = 0.05) -> tuple[list[Scored], dict]:
    """Race ``rules`` (module doc). ``sample(indices, round) -> (sum_d, sum_d2)`` per index,
    each over ``batch`` paired trials of round ``round`` (the same trials for every index)."""
    from analyzer.stats import bonferroni_z

    m = len(rules)
    z = bonferroni_z(max(1, m * max_rounds), 1.0 - alpha)
    s1 = [0.0] * m
    s2 = [0.0] * m
    n = [0] * m
    alive = list(range(m))
    spent = 0
    rounds = 0
    for rnd in range(max_rounds):
        rounds += 1
        got = sample(alive, rnd)
        for i, (a, b) in zip(alive, got):
            s1[i] += a
            s2[i] += b
            n[i] += batch
        spent += batch * len(alive)
        lo, hi = _bounds(s1, s2, n, z)
        keep = []
        for i in alive:
            c = rules[i].complexity
            beaten = any(lo[i] > hi[j] for j in alive
                         if j != i and rules[j].complexity <= c)
            if not beaten:
                keep.append(i)
        alive = keep
        if precision > 0 and all((hi[i] - lo[i]) / 2 <= precision for i in alive):
            break
        if len(alive) <= 1 and precision <= 0:
            break
    lo, hi = _bounds(s1, s2, n, z)
    out = [Scored(rules[i], s1[i] / n[i], lo[i], hi[i], n[i],
                  {"survived": i in alive, "se": (hi[i] - lo[i]) / (2 * z)}) for i in range(m)]
    nmax = max(n[i] for i in alive) if alive else max(n)
    return out, {"trials_spent": spent, "trials_flat": m * nmax, "rounds": rounds,
                 "survivors": len(alive), "z": z}


def _bounds(s1, s2, n, z):
    lo, hi = [], []
    for a, b, k in zip(s1, s2, n):
        if k < 2:
            lo.append(-math.inf)
            hi.append(math.inf)
            continue
        mean = a / k
        var = max(0.0, (b - a * a / k) / (k - 1))
        h = z * math.sqrt(var / k)
        lo.append(mean - h)
        hi.append(mean + h)
    return lo, hi


def race_family(rules: Sequence, policies: Sequence, values: Callable, blocks: int,
                max_rounds: int, precision: float, pilot_round: int = 10_000):
    """Race engine policies against the best of them (module doc of the game's advice).

    ``values(policy, round) -> per-block values`` (the same blocks for every policy of a round:
    common random numbers). A pilot round on its own blocks names the reference (the highest
    mean); each later round scores ``value(reference) − value(rule)`` per block. Returns
    (scored rules with ``policy`` in extra, cost dict, reference policy).
    """
    pilot = [float(values(p, pilot_round).mean()) for p in policies]
    ref = policies[max(range(len(pilot)), key=pilot.__getitem__)]
    cache: dict = {}

    def sample(idx, rnd):
        if rnd not in cache:
            cache[rnd] = values(ref, rnd)
        base = cache[rnd]
        out = []
        for i in idx:
            d = base - values(policies[i], rnd)
            out.append((float(d.sum()), float((d * d).sum())))
        return out

    scored, cost = race(rules, sample, blocks, max_rounds, precision)
    for s, p in zip(scored, policies):
        s.extra["policy"] = p
    return scored, cost, ref


def two_seat_values(job_for: Callable, column_for: Callable, seed: int, rnd: int, blocks: int,
                    block: int):
    """Per-block means of the studied seat's column in round ``rnd``: half the blocks with the
    studied policy in seat 0, half in seat 1 (``job_for(seat)`` builds the kernel job, the
    studied seat's sum is ``column_for(seat)``). Every policy of a round gets the same keys.
    Returns (values, trials played)."""
    import numpy as np

    from analyzer.rng import block_keys

    half = max(1, blocks // 2)
    out = []
    for seat in (0, 1):
        keys = block_keys(seed, rnd * 2 * half + seat * half, half)
        rows = np.asarray(job_for(seat).run_blocks(keys, np.full(half, block, dtype=np.int64)))
        out.append(rows[:, column_for(seat)] / block)
    return np.concatenate(out), 2 * half * block
