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

Cost accounting (:func:`race`): ``trials_spent`` is the sum over rounds of batch × survivors;
``trials_flat`` is what evaluating every candidate to the largest sample any survivor reached
would cost (``n_candidates × n_max``). :func:`race_blocks` compares instead with the uniform
grid that gives the same guarantee (:func:`equal_guarantee_grid`): a grid looks once, so its
Bonferroni family is the candidates alone and its z smaller than the race's.

:func:`race_blocks` is the form the Monte Carlo games use: per-block values instead of sums, the
running best survivor as reference (so no pilot round is spent choosing one) and Student-t
widened intervals for the first rounds' few blocks.
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


def t_quantile(z: float, df: int) -> float:
    """Student-t quantile from the normal quantile ``z`` (Cornish–Fisher, two terms):
    t ≈ z + (z³ + z)/(4ν) + (5z⁵ + 16z³ + 3z)/(96ν²); accurate to a few % for ν ≥ 8 at the
    Bonferroni levels used here, and ≥ z always, so few blocks widen the interval."""
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)


def race_blocks(rules: Sequence, values: Callable, block: int, max_rounds: int,
                precision: float = 0.0, alpha: float = 0.05,
                indifference: float = 0.0) -> tuple[list[Scored], dict]:
    """Race ``rules`` on per-block values, against the running best (no pilot round).

    ``values(i, rnd) -> array`` gives candidate i's mean per trial on each block of round
    ``rnd`` (the same blocks for every candidate: common random numbers). After each round the
    reference r is the surviving candidate with the highest mean; candidate i's loss is the mean
    of the paired block differences ``v_r − v_i`` with its batch-means SE (blocks are
    independent), and its interval is loss ± t·SE, t the Student quantile (:func:`t_quantile`,
    ν = blocks − 1) of the Bonferroni level over candidates × rounds. The reference's own loss
    is 0 exactly. Candidate i is dropped once its lower bound exceeds the smallest upper bound
    among survivors of complexity ≤ its own (module doc). Every survivor has played every round
    so far, so the paired differences always exist; a dropped candidate is scored at the end
    against the final reference on the rounds it played.

    Ctrl-C or SIGTERM anywhere in the race (a round's kernels, the bookkeeping after it, between
    rounds) ends it after the last finished round (a round not yet recorded is dropped, so every
    survivor keeps the same blocks; the summary is computed whole, a signal in it recorded); the
    result is that of the finished rounds, ``cost["interrupted"]`` is True and the command is
    marked interrupted (:func:`analyzer.errors.mark_interrupted`: it prints and writes what
    finished, then exits 130). An interrupt before the first round finished propagates (nothing
    finished).

    Returns (scored, cost): ``Scored.n`` is in trials (blocks × ``block``); each extra says
    ``best_found`` (it is the final reference: the best by sample mean, not shown best) and
    ``separated`` (its loss interval lies wholly above 0: shown worse than the best found).
    cost gives ``trials_spent`` (every block played, every candidate), the uniform grid that
    gives the same guarantee (``grid``, :func:`equal_guarantee_grid`) and ``saving`` = grid
    trials / trials spent; ``trials_flat`` = candidates × the largest sample a survivor
    reached (``saving_same_sample`` = its ratio: a grid at the race's own z, which a grid does
    not need), ``blocks_spent``/``blocks_flat``, rounds, survivors, the normal quantile ``z``,
    ``tests`` (tests per candidate and round), ``seconds`` of racing, ``not_separated`` (the
    survivors other than the best found whose interval reaches 0) and ``alive_per_round``
    (the candidates that played each round).

    Indifference zone (``indifference`` = δ > 0): from the second round on, a survivor i is
    also dropped when it cannot be shown to beat rule j by more than δ, j the best (highest
    mean) of the survivors kept so far that are simpler than i, or as simple and better on
    average: the upper bound of the mean paired gain ``v_i − v_j`` (t · batch-means SE, the
    same Bonferroni level) is below δ. Such a rule buys less than δ for what it adds to
    remember (or is a no better alternative to an equally simple rule), so the front at
    resolution δ does not need it; if it is in truth better than j by more than δ, it is
    dropped with probability at most the test's level. Both tests share the level: with δ > 0
    the Bonferroni family counts two tests per candidate and round. A rule that plays exactly
    like a simpler one (every paired block equal) is such a rule. Its extra then says
    ``indifferent_to`` (j's index); ``cost["indifferent"]`` counts them.
    """
    import time

    import numpy as np

    from analyzer.stats import bonferroni_z

    t0 = time.perf_counter()
    m = len(rules)
    tests = 2 if indifference > 0 else 1
    z = bonferroni_z(max(1, tests * m * max_rounds), 1.0 - alpha)
    cx = [r.complexity for r in rules]
    hist: list[list] = [[] for _ in range(m)]
    why: dict[int, int] = {}
    alive = list(range(m))
    spent = rounds = 0
    trace = []

    def paired(i, ref):
        vi = np.concatenate(hist[i])
        d = np.concatenate(hist[ref])[:len(vi)] - vi
        k = len(d)
        if i == ref:
            return 0.0, 0.0, 0.0, k
        if k < 2:
            return float(d.mean()), math.inf, math.inf, k
        se = float(d.std(ddof=1)) / math.sqrt(k)
        return float(d.mean()), se, t_quantile(z, k - 1) * se, k

    def best(ids):
        return max(ids, key=lambda i: float(np.concatenate(hist[i]).mean()))

    from analyzer.runner import Progress

    stopped = False
    bar = Progress("racing rules", max_rounds, "rounds")  # on a terminal, after a round
    # The whole loop is one try: an interrupt landing anywhere in it (a round's kernels, the
    # bookkeeping after them, or between two rounds) keeps the finished rounds; only a round
    # cut short before it was recorded is dropped.
    try:
        for rnd in range(max_rounds):
            played = {i: np.asarray(values(i, rnd), dtype=float) for i in alive}
            trace.append(len(alive))
            for i in alive:
                hist[i].append(played[i])
            rounds += 1  # the round is recorded: what follows only reads it
            ref = best(alive)
            st = {i: paired(i, ref) for i in alive}
            floor: dict[int, float] = {}
            run = math.inf
            for c in sorted(set(cx[i] for i in alive)):
                run = min([run] + [st[i][0] + st[i][2] for i in alive if cx[i] == c])
                floor[c] = run
            alive = [i for i in alive if st[i][0] - st[i][2] <= floor[cx[i]]]
            if indifference > 0 and rnd >= 1:
                alive = _drop_indifferent(alive, [np.concatenate(h) for h in hist], cx, z,
                                          indifference, why)
            bar.update(rounds, f"{len(alive)} rules left")
            if len(alive) <= 1 or (precision > 0 and all(st[i][2] <= precision
                                                         for i in alive)):
                break
            if _interrupt(None):  # an interrupt whose exception something swallowed
                stopped = True
                break
    except BaseException as exc:  # noqa: BLE001 - only an interrupt is kept (see below)
        bar.close()
        if rounds == 0 or not _interrupt(exc):
            raise
        del trace[rounds:]  # a round cut short is dropped whole: every survivor keeps
        for h in hist:      # the same finished rounds (common random numbers)
            del h[rounds:]
        stopped = True
    from analyzer.interrupts import held

    with held(quiet=True):  # the summary is computed whole: a signal in it is only recorded
        bar.close()
        stopped = stopped or _interrupt(None)
        if stopped:
            from analyzer.errors import mark_interrupted

            mark_interrupted()
        spent = sum(len(v) for h in hist for v in h)
        ref = best(alive)
        out = []
        for i in range(m):
            loss, se, h, k = paired(i, ref)
            extra = {"survived": i in alive, "se": se, "rounds": len(hist[i]),
                     "best_found": i == ref, "separated": i != ref and loss - h > 0}
            if i in why:
                extra["indifferent_to"] = why[i]
            out.append(Scored(rules[i], loss, loss - h, loss + h, k * block, extra))
        nmax = max(len(np.concatenate(hist[i])) for i in alive)
        seconds = time.perf_counter() - t0
        grid = equal_guarantee_grid(m, tests, z, nmax, block, alpha, seconds / spent)
        return out, {"trials_spent": spent * block, "trials_flat": m * nmax * block,
                     "blocks_spent": spent, "blocks_flat": m * nmax, "rounds": rounds,
                     "survivors": len(alive), "candidates": m, "z": z, "tests": tests,
                     "max_rounds": max_rounds,
                     "reference_index": ref, "grid": grid, "saving": grid["blocks"] / spent,
                     "saving_same_sample": m * nmax / spent, "seconds": seconds,
                     "not_separated": [i for i in alive
                                       if i != ref and not out[i].extra["separated"]],
                     "alive_per_round": trace, "indifference": indifference,
                     "indifferent": len(why), "interrupted": stopped}


def equal_guarantee_grid(m: int, tests: int, z_race: float, k: int, block: int,
                         alpha: float = 0.05, seconds_per_block: float = 0.0) -> dict:
    """The uniform grid that gives a race's guarantee: every one of the ``m`` candidates played
    on the same n blocks, once, its intervals at the grid's own Bonferroni quantile
    ``z_g = bonferroni_z(tests · m)`` (one look: no rounds to correct for), n the fewest blocks
    whose interval is as narrow as the race's where it made its last decisions, the survivors'
    ``k`` blocks at the race's quantile ``q = t_quantile(z_race, k − 1)``. For one candidate's
    paired SD σ the two half-widths are t(z_g, n − 1)·σ/√n and q·σ/√k, so σ drops out:

        n = min { n ≥ 2 : t_quantile(z_g, n − 1) / √n ≤ q / √k }   (≈ k·(z_g/q)²).

    Returns the grid's ``z``, ``blocks_per_rule``, ``blocks`` (m · n), ``trials`` (× ``block``)
    and ``seconds`` (at the race's own ``seconds_per_block``: an estimate, not a run)."""
    from analyzer.stats import bonferroni_z

    z_g = bonferroni_z(max(1, tests * m), 1.0 - alpha)
    if k < 2:
        n = max(1, k)
    else:
        target = t_quantile(z_race, k - 1) / math.sqrt(k)

        def wide(n):  # the grid's half-width per unit σ is still above the race's
            return t_quantile(z_g, n - 1) / math.sqrt(n) > target

        lo, hi = 1, 2
        while wide(hi):
            lo, hi = hi, 2 * hi
        while hi - lo > 1:  # wide(lo) or lo = 1, not wide(hi)
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if wide(mid) else (lo, mid)
        n = hi
    return {"z": z_g, "tests": tests * m, "blocks_per_rule": n, "blocks": m * n,
            "trials": m * n * block, "seconds": m * n * seconds_per_block}


def _interrupt(exc) -> bool:
    """True when ``exc`` is, or follows, a Ctrl-C or SIGTERM of this process (a signal landing
    inside a compiled kernel's call can surface as a SystemError); ``exc`` None asks only
    whether a signal came."""
    from analyzer.interrupts import sigint_seen

    return isinstance(exc, KeyboardInterrupt) or sigint_seen()


def _drop_indifferent(alive: list, vals: list, cx: list, z: float, delta: float,
                      why: dict) -> list:
    """The survivors less those that cannot beat the best kept rule at most as complex by more
    than ``delta`` (:func:`race_blocks`, indifference zone). Survivors are visited simplest
    first and, within a complexity, best first, so an equally simple rule kept before i is at
    least as good on average. ``vals[i]`` are i's block values (every survivor has played the
    same blocks); ``why`` records who made each one go."""
    mean = {i: float(vals[i].mean()) for i in alive}
    keep: list = []
    for i in sorted(alive, key=lambda i: (cx[i], -mean[i], i)):
        if keep:
            j = max(keep, key=lambda j: mean[j])
            g = vals[i] - vals[j]
            k = len(g)
            up = float(g.mean()) + (t_quantile(z, k - 1) * float(g.std(ddof=1)) / math.sqrt(k)
                                    if k > 1 else math.inf)
            if up < delta:
                why[i] = j
                continue
        keep.append(i)
    kept = set(keep)
    return [i for i in alive if i in kept]


def race_policies(rules: Sequence, policies: Sequence, values: Callable, block: int,
                  max_rounds: int, precision: float, indifference: float = 0.0):
    """:func:`race_blocks` over engine policies: ``values(policy, round) -> per-block values``.
    Returns (scored rules with ``policy`` in extra, cost dict, the reference policy)."""
    scored, cost = race_blocks(rules, lambda i, rnd: values(policies[i], rnd), block,
                               max_rounds, precision, indifference=indifference)
    for s, p in zip(scored, policies):
        s.extra["policy"] = p
    return scored, cost, policies[cost["reference_index"]]


def zone(precision: float, indifference) -> float:
    """The indifference zone δ of a race (:func:`race_blocks`): ``indifference`` when given,
    else the race's ``precision``."""
    return float(precision if indifference is None else indifference)


def two_seat_values(job_for: Callable, column_for: Callable, seed: int, rnd: int, blocks: int,
                    block: int, seats: int = 2):
    """Per-block means of the studied seat's column in round ``rnd``: the blocks split evenly
    over the seats (``seats``, two by default), the studied policy in each seat in turn
    (``job_for(seat)`` builds the kernel job, the studied seat's sum is ``column_for(seat)``).
    Every policy of a round gets the same keys. Returns (values, trials played)."""
    import numpy as np

    from analyzer.rng import block_keys

    per = max(1, blocks // seats)
    out = []
    for seat in range(seats):
        keys = block_keys(seed, rnd * seats * per + seat * per, per)
        rows = np.asarray(job_for(seat).run_blocks(keys, np.full(per, block, dtype=np.int64)))
        out.append(rows[:, column_for(seat)] / block)
    return np.concatenate(out), seats * per * block


def race_family(family: Sequence, values: Callable, block: int, max_rounds: int,
                precision: float, unit: str, indifference: float = 0.0) -> dict:
    """Race candidates that are their own policies (each with ``complexity``, ``words()`` and
    ``to_json()``): the scored family, the Pareto front of the survivors, the reference, the
    cost (``unit``: what a trial is) and the seconds taken; ``indifference`` as in
    :func:`race_blocks`."""
    import time

    from analyzer.advice import pareto

    t0 = time.perf_counter()
    scored, cost, ref = race_policies(family, family, values, block, max_rounds, precision,
                                      indifference)
    cost["unit"] = unit
    return {"front": pareto([s for s in scored if s.extra["survived"]]), "all": scored,
            "reference": ref, "race": cost, "seconds": time.perf_counter() - t0}


def candidate_row(s: Scored) -> dict:
    """A raced candidate as JSON: words, data, complexity, loss statistic, survived, whether it
    is the best found and whether it is separated from it (:func:`race_blocks`), and where
    it goes wrong when a game recorded that (``extra["mistakes"]``, as made by
    :func:`analyzer.advice.mistakes.where_wrong`)."""
    c = s.rule
    row = {"complexity": c.complexity, "words": c.words(), "rule": c.to_json(),
           "loss": {"estimate": s.loss, "se": s.extra.get("se"), "ci_low": s.lo,
                    "ci_high": s.hi, "n": s.n},
           "survived": s.extra.get("survived"), "best_found": s.extra.get("best_found", False),
           "separated": s.extra.get("separated", False)}
    if s.extra.get("mistakes") is not None:
        row["mistakes"] = s.extra["mistakes"]
    return row
