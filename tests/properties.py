"""Reusable property checks for exact solvers and Monte Carlo (applied to every registered game by
tests/test_properties_registry.py).

* ``check_distribution``: probabilities lie in [0, 1] and, for a complete distribution, sum to 1;
* ``check_policy_evaluation``: evaluating the solver's own policy by another route gives the
  solver's value (state by state when arrays are given);
* ``check_free_option``: a free extra option (more choices, a free card) never lowers the value;
  equivalently a restricted policy never beats the optimum;
* ``check_mc_vs_exact``: a Monte Carlo estimate lies within ``z`` (4–5) standard errors of the
  exact value of the same quantity.
"""
from __future__ import annotations

import numpy as np

TOL = 1e-9


def check_distribution(name: str, probs, complete: bool = True, tol: float = TOL) -> None:
    p = np.asarray(list(probs), dtype=float)
    assert p.size, f"{name}: empty distribution"
    assert np.all(np.isfinite(p)), f"{name}: non-finite probability"
    assert p.min() >= -tol and p.max() <= 1 + tol, f"{name}: outside [0, 1]: {p.min()}, {p.max()}"
    if complete:
        assert abs(p.sum() - 1.0) <= tol * max(1, p.size), f"{name}: sums to {p.sum()}"


def check_policy_evaluation(name: str, evaluated, solver, tol: float = TOL) -> None:
    a, b = np.asarray(evaluated, dtype=float), np.asarray(solver, dtype=float)
    assert a.shape == b.shape, f"{name}: shapes {a.shape} and {b.shape}"
    gap = float(np.max(np.abs(a - b)))
    assert gap <= tol, f"{name}: evaluating the solver's policy differs by {gap}"


def check_free_option(name: str, with_option: float, without: float, tol: float = TOL) -> None:
    assert with_option >= without - tol, (f"{name}: the extra option lowered the value "
                                          f"({with_option} < {without})")


def check_mc_vs_exact(name: str, stat, z: float = 4.5) -> None:
    """``stat``: an analyzer.stats.Statistic with ``exact_value`` attached."""
    assert stat.exact_value is not None, f"{name}: no exact value attached"
    diff = abs(stat.estimate - stat.exact_value)
    assert diff <= z * stat.se + 1e-12, (f"{name}: Monte Carlo {stat.estimate} ± {stat.se} is "
                                         f"{diff / max(stat.se, 1e-300):.1f} SE from exact "
                                         f"{stat.exact_value}")
