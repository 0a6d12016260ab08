"""Statistics for Monte Carlo results.

* Proportions: the Wilson score interval
  ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)`` with ``z = 1.96``; SE = sqrt(p(1-p)/n).
  The lower bound is exactly 0 with no successes and the upper bound exactly 1 with no failures.
* Means: from the sums ``S1 = Σx`` and ``S2 = Σx²`` accumulated per block (reduced in block order):
  mean = S1/n, sample variance = (S2 - S1²/n)/(n-1), SE = sqrt(var/n), interval mean ± 1.96·SE.
* Paired differences (common random numbers): the same formulas applied to d = x_A - x_B per trial,
  whose sums the kernels accumulate directly, so the correlation between A and B is accounted for.
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
