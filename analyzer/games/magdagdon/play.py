"""MAGDAGDON by Monte Carlo: policies, the kernel jobs of whole games, and simulation.

Policies (kernels/magdagdon/policy.py has the algorithms): ``greedy`` (the placement of at least the
minimum number of dice that maximises the heuristic board value H), ``max-dice`` (the most dice,
then H), ``min-dice`` (exactly the minimum, then H), ``rollout:K`` (the 8 best placements by H,
each scored by K greedy games to the end, on common random numbers). All policies accept a
MAGDAGDON on the cell that maximises H and spend a power on a MAGDAGDON only while the next
power's cost is below ruin_penalty + 7 (a ruin's penalty plus the 2 × 3.5 points a cell is
worth): on the default rules PEACEFUL's first two powers, never SURVIVAL's −70.

H = 2·(sum of numbers) + 7·(live empty cells) − ruin_penalty·(ruins + dead cells) + Σ_lines L,
with L the exact bonus of a full line, 0 for a line holding a ruin or dead cell, and
0.5 · (best bonus still attainable) · (filled cells / n) for an open line.

Each game is one trial with its own random stream, so two policies (``--vs``) or two actions
(``best``, in decide.py) are compared on common random numbers: the same dice as far as their
choices let the games run alike. Every entry point takes a :class:`~analyzer.runner.RunSpec`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.games.magdagdon.arrays import kernel_inputs
from analyzer.games.magdagdon.rules import Difficulty, MagdagdonRules, rules_dict
from analyzer.runner import RunSpec
from analyzer.stats import Z95, Statistic


@dataclass(frozen=True)
class Policy:
    mode: int
    k: int
    label: str
    power: tuple = ()   # power knobs: items of analyzer/games/magdagdon/advice.py PowerRule.knobs


def _policies():
    from analyzer.botspec import Bot, Family, Knob

    power = ("max-cost", "min-empty", "max-empty", "which")
    return Family("magdagdon", [
        Bot("greedy", "the placement maximising the board value H", power),
        Bot("max-dice", "the most dice, then H", power),
        Bot("min-dice", "exactly the minimum, then H", power),
        Bot("rollout", "the 8 best placements by H, each scored by K greedy games", power,
            positional=("rollouts",))],
        [Knob("rollouts", "int", 8, "greedy games per candidate placement", 1, 10000),
         Knob("max-cost", "int", None, "spend a power while the next penalty is at most this "
              "(any, never or a number)", 0, 9999, words=("any", "never")),
         Knob("min-empty", "int", 0, "spend only with at least this many empty cells", 0, 9999),
         Knob("max-empty", "int", 0, "spend only with at most this many empty cells (0: no "
              "bound)", 0, 9999),
         Knob("which", "word", "fix-or-reroll", "which power: fix-or-reroll, fix or reroll",
              words=("fix-or-reroll", "fix", "reroll"))],
        what="policy")


#: The MAGDAGDON policies (``--policy``, ``--vs``) as the shared parser reads them; the power
#: knobs become kernel knobs in lineup.py (they are the rules of thumb of ``advice.py``).
POLICIES = _policies()
PLACEMENT = {"greedy": "P_GREEDY", "max-dice": "P_MAX", "min-dice": "P_MIN",
             "rollout": "P_ROLLOUT"}


def placement_policy(spec, power: tuple = ()) -> Policy:
    """The :class:`Policy` of a parsed spec other than ``rule:FILE``, with its kernel power
    knobs ``power`` (lineup.py computes them)."""
    import kernels.magdagdon as K

    k = spec["rollouts"] if spec.name == "rollout" else 0
    return Policy(getattr(K, PLACEMENT[spec.name]), k, spec.text.strip().lower(), power)


def policy_inputs(rules: MagdagdonRules, diff: Difficulty, policy: Policy):
    """The kernels' G for ``policy``: the rules' arrays (opening book built) with its power
    knobs (the bots' habit when it has none)."""
    from analyzer.games.magdagdon.arrays import with_power_knobs

    G = kernel_inputs(rules, diff, book=True)
    return with_power_knobs(G, **dict(policy.power)) if policy.power else G


def score_range(rules: MagdagdonRules, diff: Difficulty) -> tuple[int, int]:
    """Lowest and highest possible final scores (histogram bounds)."""
    N = rules.board_size ** 2
    lo = -rules.ruin_penalty * N - diff.penalty(diff.powers)
    top_bonus = max(rules.straight_bonus, rules.four_kind_bonus, rules.two_pairs_bonus)
    hi = 12 * N + 2 * rules.board_size * top_bonus
    return lo, hi


def _stats_block(s, n, o=0):
    from analyzer.stats import mean_from_sums

    names = ("score", "turns", "magdagdon_rolls", "ruins", "powers_used")
    return {nm: mean_from_sums(float(s[o + 2 * k]), float(s[o + 2 * k + 1]), n)
            for k, nm in enumerate(names)}


def _quantile(cdf, lo: int, q: float):
    """The q-quantile of a score histogram (its cumulative counts ``cdf``, first score ``lo``)
    with a distribution-free 95% interval: the scores at ranks n·q ∓ 1.96·sqrt(n·q(1-q)) (the
    number of games below the true quantile is binomial(n, q)); a rank below 1 or above n takes
    the lowest or highest possible score. SE = half-width / 1.96 (the normal equivalent)."""
    from analyzer.stats import Z95, Statistic

    n = int(cdf[-1])
    value = lambda rank: lo + int(np.searchsorted(cdf, rank))  # noqa: E731 - score at rank
    half = Z95 * math.sqrt(n * q * (1 - q))
    r_lo, r_hi = math.floor(n * q - half), math.ceil(n * q + half)
    low = value(r_lo) if r_lo >= 1 else lo
    high = value(r_hi) if r_hi <= n else lo + len(cdf) - 1
    est = value(q * n)
    return Statistic(float(est), (high - low) / (2 * Z95), float(low), float(high), n)


def _distribution(hist, lo: int) -> dict:
    hist = np.asarray(hist)
    cdf = np.cumsum(hist)
    qs = {}
    for q in (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99):
        qs[f"q{int(round(q * 100)):02d}"] = _quantile(cdf, lo, q)
    nz = np.nonzero(hist)[0]
    return {"quantiles": qs, "min": int(lo + nz[0]), "max": int(lo + nz[-1]),
            "histogram": {str(lo + i): int(hist[i]) for i in nz}}


def _sd(hist, lo: int) -> Statistic:
    """The standard deviation of the final score from its histogram, with a delta-method SE:
    with central moments m2, m4 of the n scores, Var(s²) ≈ (m4 − m2²)/n and
    SE(s) ≈ sqrt((m4 − m2²)/n) / (2s) (no normality assumed); 95% interval s ± 1.96·SE, floored
    at 0."""
    hist = np.asarray(hist, dtype=np.float64)
    x = lo + np.arange(len(hist), dtype=np.float64)
    n = hist.sum()
    mean = (hist * x).sum() / n
    m2 = (hist * (x - mean) ** 2).sum() / n
    m4 = (hist * (x - mean) ** 4).sum() / n
    sd = math.sqrt(m2 * n / (n - 1)) if n > 1 else 0.0
    se = math.sqrt(max(m4 - m2 * m2, 0.0) / n) / (2 * sd) if sd > 0 else 0.0
    return Statistic(sd, se, max(sd - Z95 * se, 0.0), sd + Z95 * se, int(n))


def make_job(rules: MagdagdonRules, diff: Difficulty, policy: Policy):
    from analyzer.runner import KernelJob, half_width_of_mean
    from kernels.magdagdon import P_ROLLOUT, games_blocks

    G = policy_inputs(rules, diff, policy)
    init = np.zeros(rules.board_size ** 2, dtype=np.int8)
    lo, hi = score_range(rules, diff)

    def run_blocks(keys, counts):
        return games_blocks(keys, counts, policy.mode, policy.k, policy.mode, policy.k, False,
                            init, G, G, lo, hi - lo + 1)

    block = 4 if policy.mode == P_ROLLOUT else 1024
    return KernelJob(f"magdagdon {diff.name} {policy.label}", block, run_blocks,
                     half_width_of_mean(0, 1), unit="games")


def simulate(rules: MagdagdonRules, diff: Difficulty, policy: Policy, spec: RunSpec) -> dict:
    """Whole games from the empty board: final score (mean, SD, quantiles, histogram),
    MAGDAGDON rolls, ruins, powers used and turns per game."""
    res = spec.run(make_job(rules, diff, policy))
    seed = spec.seed
    s = res.sums
    lo, hi = score_range(rules, diff)
    st = _stats_block(s, res.n)
    out = {"game": "magdagdon", "difficulty": diff.name, "policy": policy.label,
           "rules": rules_dict(rules), "seed": seed, "n": res.n, **st,
           "score_sd": _sd(s[22:22 + hi - lo + 1], lo),
           **_distribution(s[22:22 + hi - lo + 1], lo),
           "games_per_second": res.per_second, "stopped_by": res.stopped_by,
           "interrupted": res.interrupted, "exact": False}
    return out


def simulate_paired(rules: MagdagdonRules, diff: Difficulty, pa: Policy, pb: Policy,
                    spec: RunSpec) -> dict:
    """Policy A vs B on the same games: both distributions and the paired difference A − B."""
    from analyzer.runner import KernelJob, half_width_of_mean
    from analyzer.stats import paired_difference, verdict
    from kernels.magdagdon import P_ROLLOUT, games_blocks

    Ga, Gb = policy_inputs(rules, diff, pa), policy_inputs(rules, diff, pb)
    init = np.zeros(rules.board_size ** 2, dtype=np.int8)
    lo, hi = score_range(rules, diff)
    width = hi - lo + 1

    def run_blocks(keys, counts):
        return games_blocks(keys, counts, pa.mode, pa.k, pb.mode, pb.k, True, init, Ga, Gb, lo,
                            width)

    block = 4 if P_ROLLOUT in (pa.mode, pb.mode) else 1024
    job = KernelJob(f"magdagdon {pa.label} vs {pb.label}", block, run_blocks,
                    half_width_of_mean(20, 21), unit="games")
    res = spec.run(job)
    seed = spec.seed
    s = res.sums
    a = _stats_block(s, res.n, 0)
    b = _stats_block(s, res.n, 10)
    diff_stat = paired_difference(float(s[20]), float(s[21]), res.n)
    v = verdict(diff_stat, f"{pa.label} scores more", f"{pb.label} scores more")
    if v == "too close to call":
        v = f"too close to call at n = {res.n:,}"
    return {"game": "magdagdon", "difficulty": diff.name, "rules": rules_dict(rules),
            "seed": seed, "n": res.n, "a": pa.label, "b": pb.label,
            "a_stats": {**a, "score_sd": _sd(s[22:22 + width], lo),
                        **_distribution(s[22:22 + width], lo)},
            "b_stats": {**b, "score_sd": _sd(s[22 + width:], lo),
                        **_distribution(s[22 + width:], lo)},
            "difference_a_minus_b": diff_stat, "verdict": v,
            "stopped_by": res.stopped_by, "interrupted": res.interrupted, "exact": False}
