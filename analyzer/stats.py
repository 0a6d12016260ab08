"""Statistics for Monte Carlo results.

* Proportions: the Wilson score interval
  ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)`` with ``z = 1.96``; SE = sqrt(p(1-p)/n).
  The lower bound is exactly 0 with no successes and the upper bound exactly 1 with no failures.
* Means: from the sums ``S1 = Σx`` and ``S2 = Σx²`` accumulated per block (reduced in block order):
  mean = S1/n, sample variance = (S2 - S1²/n)/(n-1), SE = sqrt(var/n), interval mean ± 1.96·SE.
* Paired differences (common random numbers): the same formulas applied to d = x_A - x_B per trial,
  whose sums the kernels accumulate directly, so the correlation between A and B is accounted for.
* Means driven by rare, large contributions (:func:`mean_with_rare`): when few trials carry the
  rare event, the normal interval is replaced by a stratified bound that stays honest with zero
  rare trials, and the caller warns that the sample is too small for a normal interval.
* Probabilities computed in floating point are clamped to [0, 1] (:func:`clamp_probability`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Statistic:
    """A Monte Carlo estimate with its standard error, 95% interval and sample size."""

    estimate: float
    se: float
    ci_low: float
    ci_high: float
    n: int
    exact_value: float | None = None

    @property
    def half_width(self) -> float:
        return (self.ci_high - self.ci_low) / 2.0

    def to_json(self) -> dict:
        out = {"estimate": self.estimate, "se": self.se, "ci_low": self.ci_low,
               "ci_high": self.ci_high, "n": self.n}
        if self.exact_value is not None:
            out["exact_value"] = self.exact_value
        return out

    def with_exact(self, value: float | None) -> "Statistic":
        return Statistic(self.estimate, self.se, self.ci_low, self.ci_high, self.n, value)

    def z_from_exact(self) -> float:
        """(estimate - exact) / SE; 0 when both agree exactly."""
        if self.exact_value is None:
            raise ValueError("no exact value attached")
        diff = self.estimate - self.exact_value
        if self.se == 0.0:
            return 0.0 if abs(diff) < 1e-12 else math.inf
        return diff / self.se

    def contains_zero(self) -> bool:
        return self.ci_low <= 0.0 <= self.ci_high

    def format(self, digits: int = 4) -> str:
        return (f"{self.estimate:.{digits}f} ± {self.se:.{digits}f} "
                f"[{self.ci_low:.{digits}f}, {self.ci_high:.{digits}f}]")


def wilson(successes: float, n: int, z: float = Z95) -> Statistic:
    """Wilson score interval for a binomial proportion."""
    if n <= 0:
        raise ValueError("n must be positive")
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    se = math.sqrt(max(p * (1 - p), 0.0) / n)
    # At the edges the Wilson bound is exactly 0 (no successes) or 1 (no failures); computed in
    # floating point it would be off by an ulp (8.7e-19), so an exact 0 or 1 would lie outside.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return Statistic(p, se, low, high, int(n))


def mean_from_sums(s1: float, s2: float, n: int, z: float = Z95) -> Statistic:
    """Mean, SE and normal 95% interval from Σx and Σx² over n observations."""
    if n <= 0:
        raise ValueError("n must be positive")
    mean = s1 / n
    if n > 1:
        var = max((s2 - s1 * s1 / n) / (n - 1), 0.0)
    else:
        var = 0.0
    se = math.sqrt(var / n)
    return Statistic(mean, se, mean - z * se, mean + z * se, int(n))


def paired_difference(sd: float, sd2: float, n: int) -> Statistic:
    """Mean difference A - B on common random numbers from Σd and Σd² (d per trial)."""
    return mean_from_sums(sd, sd2, n)


def paired_share_difference(sd: float, sd2: float, n: int, a: Statistic,
                            b: Statistic) -> Statistic:
    """A − B of two win shares on common random numbers (Σd and Σd² per trial, ``a`` and ``b``
    their Wilson statistics). Where every trial's difference was the same (SE 0: say neither
    choice ever won) the normal interval would claim certainty; the interval is then the one the
    two Wilson intervals allow, [a_low − b_high, a_high − b_low], which holds the truth whenever
    both of theirs do."""
    d = paired_difference(sd, sd2, n)
    if d.se > 0:
        return d
    return Statistic(d.estimate, d.se, a.ci_low - b.ci_high, a.ci_high - b.ci_low, d.n)


def bonferroni_z(cells: int, level: float = 0.95) -> float:
    """Two-sided normal quantile for a family of ``cells`` intervals at joint ``level`` (Bonferroni)."""
    from statistics import NormalDist

    alpha = (1.0 - level) / max(cells, 1)
    return NormalDist().inv_cdf(1.0 - alpha / 2.0)


def verdict(diff: Statistic, positive: str, negative: str) -> str:
    """The recommendation a paired difference supports, or 'too close to call'."""
    if diff.contains_zero():
        return "too close to call"
    return positive if diff.estimate > 0 else negative


#: Fewest rare-event trials (and fewest other trials) for which the normal interval of a mean
#: driven by the rare event is trusted; below it :func:`mean_with_rare` uses the stratified bound.
RARE_MIN = 30


def mean_with_rare(s1: float, s2: float, n: int, k: int, r1: float, r2: float,
                   rare_range: tuple[float, float], bounds: tuple[float, float],
                   z: float = Z95) -> tuple[Statistic, bool]:
    """Mean of x over n trials when a rare event (k of the n trials) carries large values.

    ``s1, s2`` are Σx and Σx² over all trials, ``r1, r2`` the same sums over the k rare trials;
    on a rare trial x lies in ``rare_range = (a, b)`` and on any trial in ``bounds`` (both known
    from the model, not from the sample). Returns the statistic and whether its interval is the
    normal one (``False``: the sample is too small to support it; callers warn).

    Method. Write the mean as ``μ = (1 - p)·μ_C + p·μ_R`` with ``p`` the rate of the rare event,
    ``μ_C`` the mean over the other trials and ``μ_R ∈ [a, b]`` the mean over the rare ones.

    * With ``k ≥ RARE_MIN`` and ``n - k ≥ RARE_MIN`` the normal interval mean ± z·SE is used
      (the central limit theorem has enough rare trials to work with).
    * Otherwise a stratified bound: a Wilson interval ``[p_L, p_U]`` for ``p`` and a normal
      interval ``[c_L, c_U]`` for ``μ_C`` (from the n - k other trials; ``bounds`` if fewer than
      two), each at level 1 - α/2 (Bonferroni, z = 2.24 for 95% jointly), and ``μ_R`` anywhere in
      ``[a, b]``. ``μ`` is increasing in ``μ_C`` and ``μ_R`` and linear in ``p``, so its extremes
      over that box are at the corners::

          low  = min over p in {p_L, p_U} of c_L + p·(a - c_L)
          high = max over p in {p_L, p_U} of c_U + p·(b - c_U)

      With no rare trial at all the upper bound is still ``c_U + p_U·(b - c_U)``, never the
      zero-width [x̄, x̄] of the normal interval. The bound is conservative (it needs no estimate
      of μ_R), so it covers at least 95% whenever the two component intervals do.

    The SE reported is the ordinary one, sqrt(sample variance / n).

    Where it applies. Trash Pandas ``simulate``: mean tokens and value per turn, the rare event
    being a turn that collects all six (stop-at:6 scores only then); coverage at n = 200 is
    tested in tests/test_honest_numbers.py. Not yet applied, with the same shape of problem at
    small samples: Go-Stop ``simulate`` event counts per deal (``events.*.per_deal``: with no
    event in the sample the normal interval is [0, 0]; the rare stratum would be the deals with
    at least one, already counted, but the bound needs a tight a-priori cap on events per deal:
    a loose cap of 60 gave [0.02, 4.4] for an event seen in 12 of 300 deals, honest but
    useless) and the
    mean net payment (a long tail of doubled payments after several goes); Canasta ``decide``
    and ``simulate`` round scores (rare canasta bonuses). Their default sample sizes (10⁴–10⁶)
    hold enough rare trials for the normal interval; a run with a few hundred trials does not.
    """
    plain = mean_from_sums(s1, s2, n, z)
    if k >= RARE_MIN and n - k >= RARE_MIN:
        return plain, True
    a, b = rare_range
    z2 = bonferroni_z(2)
    rate = wilson(k, n, z2)
    m = n - k
    if m >= 2:
        common = mean_from_sums(s1 - r1, s2 - r2, m, z2)
        c_lo, c_hi = max(common.ci_low, bounds[0]), min(common.ci_high, bounds[1])
    else:
        c_lo, c_hi = bounds
    low = min(c_lo + q * (a - c_lo) for q in (rate.ci_low, rate.ci_high))
    high = max(c_hi + q * (b - c_hi) for q in (rate.ci_low, rate.ci_high))
    low, high = min(low, plain.estimate), max(high, plain.estimate)
    stat = Statistic(plain.estimate, plain.se, low, high, int(n))
    supported = plain.ci_high - plain.ci_low > 0 and (
        high - low <= 1.25 * (plain.ci_high - plain.ci_low))
    return stat, supported


def magnitude(diff: Statistic) -> Statistic:
    """The margin behind a recommendation: ``|d|`` of a paired difference with the interval
    reflected when ``d < 0`` (so the margin carries its own SE and interval, never a bare
    number)."""
    if diff.estimate >= 0:
        return diff
    return Statistic(-diff.estimate, diff.se, -diff.ci_high, -diff.ci_low, diff.n)


def clamp_probability(p: float) -> float:
    """A probability computed in floating point, clamped to [0, 1], with -0.0 printed as 0."""
    return min(1.0, max(0.0, float(p))) + 0.0
