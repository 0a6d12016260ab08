"""Anytime-valid confidence sequences for the mean of bounded observations, from running sums.

A *confidence sequence* (CS) at level ``1 − β`` is a sequence of intervals ``C_1, C_2, …`` with
``P(μ ∈ C_t for every t) ≥ 1 − β``: it holds at every sample size at once, so a search may look
after every block, stop whenever it likes (its own stopping rule, a budget, the user's Ctrl-C)
and still claim ``1 − β`` for the interval it stops on. This module builds one by *betting*
(Waudby-Smith & Ramdas 2023, "Estimating means of bounded random variables by betting",
JRSS-B 86(1)), from the formulas of the paper; only the observations' running sums are kept.

Setting
-------
Observations ``x_1, x_2, …`` lie in a range ``[a, b]`` known in advance (from the rules, never
from the sample) and have conditional mean ``E[x_i | x_1 … x_{i−1}] = μ`` (i.i.d. trials, or
independent blocks of trials, qualify). Write ``u_i = (x_i − a)/(b − a) ∈ [0, 1]`` and
``m`` for a candidate value of the scaled mean.

Capital processes
-----------------
For a bet ``λ ∈ [0, 1)`` a gambler who bets that the mean exceeds ``m`` holds, after ``t``
observations, ``K⁺_t(m; λ) = Π_i (1 + λ(u_i − m))``; one who bets that it is below ``m`` holds
``K⁻_t(m; λ) = Π_i (1 − λ(u_i − m))``. Every factor is positive (``u_i − m ∈ [−1, 1]``), and
when ``μ = m`` each factor has conditional mean 1, so both are non-negative martingales starting
at 1. So is a mixture over the bets ``λ_d`` of :data:`BETS` with weights ``w_d`` summing to 1,
``K±_t(m) = Σ_d w_d K±_t(m; λ_d)`` (diversified betting: a large bet wins fast when the mean is
far from ``m``, a small one wins at all when it is close; no bet is tuned on the data).

Ville's inequality for a non-negative martingale starting at 1 gives
``P(∃t: K±_t(μ) ≥ 2/β) ≤ β/2`` for each side. For a fixed ``λ ≥ 0`` every factor of ``K⁺`` falls
as ``m`` rises and every factor of ``K⁻`` rises, so ``K⁺_t`` is non-increasing in ``m`` and
``K⁻_t`` non-decreasing: once ``K⁺_t(m₀) ≥ 2/β`` every ``m ≤ m₀`` is rejected too. The CS is

    C_t = (l_t, u_t),  l_t = sup{m : K⁺_t(m) ≥ 2/β},  u_t = inf{m : K⁻_t(m) ≥ 2/β},

and ``P(∃t: μ ∉ C_t) ≤ β`` (the two sides by a union bound). The running intersection of the
``C_t`` a search looks at is therefore valid too.

Lower bounds from sums
----------------------
Only ``N`` (observations), ``S = Σ u_i`` and, where the kernel accumulates it, ``Q = Σ u_i²``
are kept. Two lower bounds of ``log K⁺_t(m; λ)`` need nothing else:

* chord: ``u ↦ log(1 + λ(u − m))`` is concave, so on ``[0, 1]`` it lies above its chord:
  ``log K⁺ ≥ S·log(1 + λ(1 − m)) + (N − S)·log(1 − λm)``; exact for 0/1 observations (rates);
* Fan, Grama & Liu (2015, Lemma 4.1): ``log(1 + λξ) ≥ λξ + ψ(λ)ξ²`` for ``ξ ≥ −1``,
  ``λ ∈ [0, 1)``, with ``ψ(λ) = log(1 − λ) + λ ≤ 0``; with ``ξ = u − m``:
  ``log K⁺ ≥ λ(S − Nm) + ψ(λ)(Q − 2mS + Nm²)``, which uses the observed spread (tight when the
  observations vary much less than their range allows).

The larger of the two is used. ``K⁻`` is ``K⁺`` of the mirrored observations ``1 − u`` at
``1 − m`` (``S → N − S``, ``Q → N − 2S + Q``). A lower bound of the capital that reaches ``2/β``
means the capital does, so every rejection, and the CS, stays valid.

A sample that never varied (every observation equal) gives no evidence about how far the mean
could be from it: the chord bound then rejects only what a 0/1 sample with the same sum would,
so such a sample certifies nothing close to its mean at small ``N`` (the failure of a batch-means
SE of 0 cannot happen here).

Bets: :data:`BETS` is ``λ_d = 0.9·2^{−d/2}``, ``d = 0 … 29`` (0.9 down to about 3.9·10⁻⁵),
uniform weights: the best of them is within a factor √2 of the ideal bet for any spread and
sample size a search meets, at the price of ``log 30`` in the threshold.
"""
from __future__ import annotations

import math

import numpy as np

#: The mixture's bets λ_d (module doc) and their weights.
BETS = 0.9 * 2.0 ** (-np.arange(30) / 2.0)
WEIGHTS = np.full(len(BETS), 1.0 / len(BETS))
_LOG_W = np.log(WEIGHTS)
_PSI = np.log1p(-BETS) + BETS  # ψ(λ) = log(1 − λ) + λ ≤ 0
GRID = 128  # first pass: candidate means between 0 and the sample mean; then finer passes


def log_capital(n: float, s: float, q: float | None, m: np.ndarray) -> np.ndarray:
    """A lower bound of ``log K⁺(m)`` (module doc) for each candidate scaled mean in ``m``,
    from ``n`` observations with ``Σu = s`` and ``Σu² = q`` (``None``: chord bound only)."""
    m = np.asarray(m, dtype=np.float64)[:, None]
    lam = BETS[None, :]
    chord = s * np.log1p(lam * (1.0 - m)) + (n - s) * np.log1p(-lam * m)
    if q is not None:
        fan = lam * (s - n * m) + _PSI[None, :] * (q - 2.0 * m * s + n * m * m)
        chord = np.maximum(chord, fan)
    top = chord.max(axis=1, keepdims=True)
    return (top + np.log(np.exp(chord - top + _LOG_W[None, :]).sum(axis=1, keepdims=True)))[:, 0]


def _lower(n: float, s: float, q: float | None, threshold: float) -> float:
    """``l = sup{m : log K⁺(m) ≥ threshold}``: the largest rejected point of a grid over
    ``[0, S/N]`` (no ``m`` above the sample mean can be rejected: there both bounds are ≤ 0),
    refined by finer grids between it and the next point. Any rejected point bounds the sup
    from below, so the answer is valid even where the bound is not monotone in ``m``."""
    if n <= 0 or s <= 0:
        return 0.0
    lo, hi = 0.0, min(s / n, 1.0)
    best = None
    for points in (GRID, 32, 32, 32):
        grid = np.linspace(lo, hi, points + 1)
        rejected = np.nonzero(log_capital(n, s, q, grid) >= threshold)[0]
        if len(rejected) == 0:
            break
        k = int(rejected[-1])
        best = float(grid[k])
        if k == points:
            break
        lo, hi = best, float(grid[k + 1])
    return 0.0 if best is None else best


def scaled_interval(n: float, s: float, q: float | None, beta: float) -> tuple[float, float]:
    """The CS at level ``1 − beta`` for the mean of ``n`` observations in ``[0, 1]`` with
    ``Σu = s`` (and ``Σu² = q`` when known): ``(l, u)`` in ``[0, 1]``."""
    if not 0.0 < beta < 1.0:
        raise ValueError("beta must lie in (0, 1)")
    threshold = math.log(2.0 / beta)
    low = _lower(n, s, q, threshold)
    mirrored_q = None if q is None else n - 2.0 * s + q
    high = 1.0 - _lower(n, n - s, mirrored_q, threshold)
    return low, high


def interval(n: float, sum_x: float, sum_x2: float | None, a: float, b: float,
             beta: float) -> tuple[float, float]:
    """The CS at level ``1 − beta`` for the mean of ``n`` observations known to lie in
    ``[a, b]``, from ``Σx`` (and ``Σx²`` when known), in the observations' own units."""
    if not b > a:
        raise ValueError("the range needs b > a")
    w = b - a
    s = (sum_x - n * a) / w
    q = None if sum_x2 is None else (sum_x2 - 2.0 * a * sum_x + n * a * a) / (w * w)
    s = min(max(s, 0.0), n)  # rounding only: the observations lie in the range
    if q is not None:
        q = min(max(q, 0.0), s)  # u² ≤ u on [0, 1]
    lo, hi = scaled_interval(n, s, q, beta)
    return a + w * lo, a + w * hi


def asymptotic_interval(n: float, sum_x: float, sum_x2: float, beta: float,
                        tuned_for: float) -> tuple[float, float]:
    """An *asymptotic* confidence sequence at level ``1 − beta`` for a mean whose observations
    have no known range (Waudby-Smith, Arnold, Wu, Wang & Ramdas 2024, "Time-uniform central
    limit theory and asymptotic confidence sequences", Ann. Statist.): Robbins' normal mixture

        x̄_t ± σ̂_t · sqrt( 2(tρ² + 1)/(t²ρ²) · log( sqrt(tρ² + 1)/β ) ),

    the boundary at which ``∫ exp(λS_t − λ²t/2) dN(0, ρ²)(λ) = (1 + tρ²)^(−1/2) ·
    exp(ρ²S_t²/(2(1 + tρ²)))`` reaches ``1/β`` for a standardised sum ``S_t``; ``ρ`` makes it
    narrowest near ``t = tuned_for``: ``ρ² = (−2 log β + log(1 − 2 log β))/tuned_for``.

    It holds as the sample grows (the sample SD standing in for the true one), not at a small
    ``n``: a sample whose observations never varied gives ``(−inf, inf)`` (it certifies
    nothing), and so does one of fewer than two observations."""
    if n < 2:
        return -math.inf, math.inf
    mean = sum_x / n
    var = max((sum_x2 - sum_x * sum_x / n) / (n - 1), 0.0)
    if var <= 0.0:
        return -math.inf, math.inf
    rho2 = (-2.0 * math.log(beta) + math.log(1.0 - 2.0 * math.log(beta))) / max(tuned_for, 1.0)
    radius = math.sqrt(var) * math.sqrt(
        2.0 * (n * rho2 + 1.0) / (n * n * rho2) * math.log(math.sqrt(n * rho2 + 1.0) / beta))
    return mean - radius, mean + radius
