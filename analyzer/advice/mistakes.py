"""Where a rule raced by Monte Carlo goes wrong: the states its own play reaches in which it
decides otherwise than the best known policy.

What belongs here: the game-independent counting and wording; a game's advice module records
the decisions (its engine plays the rule and writes, at each decision of the studied seat, the
feature values a person sees) and calls :func:`where_wrong`. numpy only; no printing.

Model. The studied seat plays rule r in n seeded games. At each of its decisions the record
holds the feature vector x; r chose r(x) (the engine played it) and the best known policy b
would choose b(x). The decision is *wrong* when r(x) ≠ b(x). Per game g let W_g be the wrong
decisions and D_g all decisions. Reported:

* ``wrong_per_game``: the mean of W_g with SE = sd(W)/√n and the normal 95% interval, its lower
  end clipped at 0. Few wrong decisions make the normal interval too short, so while the total
  K = ΣW is below :data:`FEW` the interval is widened to hold the exact two-sided 95% Poisson
  (Garwood) interval of K, divided by n: [0, 3.689/n] when none is seen. When r and b are the
  same rule the count and the share are 0 exactly (``exact_value`` 0, interval [0, 0]).
* ``decisions_per_game``: the mean of D_g with its normal interval (lower end clipped at 0);
  ``share_wrong`` = ΣW / ΣD, a ratio of means, with the delta-method SE
  sd(W_g − R·D_g) / (mean(D)·√n) and its interval clipped to [0, 1] (widened like
  ``wrong_per_game`` while ΣW is small).
* ``cells``: the state space cut at every threshold of r and of b on the features they read
  (:func:`rule_cuts`), so that both rules are constant in each cell and a cell is wrong
  throughout or not at all; the wrong cells ranked by wrong decisions per game (ΣW in the cell
  / n, a statistic like ``wrong_per_game``, from the per-game counts in the cell), each with the
  range of each cut feature seen there and what r and b do in it.

Every per-game figure is a statistic object (estimate, se, ci_low, ci_high, n): they are Monte
Carlo figures of the sampled games.

These are "where it loses decisions", not "where it loses the game": a rare wrong decision can
cost more than a frequent one; the rule's loss with its interval is the race's.
"""
from __future__ import annotations

import math
from typing import Mapping, Sequence

FEW = 100  # below this total of wrong decisions the interval also holds the Poisson one


def rule_cuts(*rules) -> dict[str, list[float]]:
    """Where each rule of :mod:`analyzer.advice` changes its decision, per feature: a boundary
    b between integer values (b = v + ½ for "≤ v", v − ½ for "≥ v" and a band cut c at c − ½),
    sorted, over the features every rule given reads."""
    cuts: dict[str, set] = {}

    def add(f, op, v):
        cuts.setdefault(f, set()).add(v + 0.5 if op == "<=" else v - 0.5)

    for r in rules:
        if r.kind == "threshold":
            add(r.feature, r.op, r.thresholds[0])
        elif r.kind == "banded":
            for t in r.thresholds:
                add(r.feature, r.op, t)
            for c in r.cuts:
                add(r.band_feature, ">=", c)
        else:
            for f, op, v, _ in r.clauses:
                add(f, op, v)
    return {f: sorted(b) for f, b in cuts.items()}


def poisson_interval(k: int, alpha: float = 0.05) -> tuple[float, float]:
    """The exact (Garwood) two-sided interval of a Poisson mean from one count k: the lower end
    L solves P(X ≥ k | L) = α/2 (0 for k = 0), the upper U solves P(X ≤ k | U) = α/2; both by
    bisection on the Poisson distribution function, summed term by term in floating point."""
    def cdf(k_, mu):  # P(X <= k_ | mu)
        term = total = math.exp(-mu)
        for i in range(1, k_ + 1):
            term *= mu / i
            total += term
        return total

    def solve(f, lo, hi):
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if f(mid):
                lo = mid
            else:
                hi = mid
        return 0.5 * (lo + hi)

    top = k + 20.0 + 10.0 * math.sqrt(k + 1.0)
    upper = solve(lambda mu: cdf(k, mu) > alpha / 2, 0.0, top)
    lower = 0.0 if k == 0 else solve(lambda mu: 1.0 - cdf(k - 1, mu) < alpha / 2, 0.0, top)
    return lower, upper


def where_wrong(n_games: int, game, X: Mapping, rule_act, best_act, cuts: Mapping,
                words: Mapping, decision, *, seed: int, same: bool = False,
                top: int = 5) -> dict:
    """The disagreement summary of the module doc, as JSON-ready data.

    ``game[k]`` is the game (0 … n_games − 1) of decision k, ``X[f][k]`` its feature values,
    ``rule_act[k]``/``best_act[k]`` True where r/b choose ``decision.act``; ``cuts`` maps the
    features to cut at to their boundaries (:func:`rule_cuts`), ``words`` each feature to its
    words; ``same`` says r is b. ``seed`` is recorded with the sample."""
    import numpy as np

    from analyzer.stats import Statistic

    if n_games <= 0:
        raise ValueError("n_games must be positive")
    game = np.asarray(game, dtype=np.int64)
    ra = np.asarray(rule_act, dtype=bool)
    ba = np.asarray(best_act, dtype=bool)
    wrong = np.zeros(len(game), dtype=bool) if same else ra != ba
    per_game = np.bincount(game, weights=wrong, minlength=n_games).astype(float)
    dec_per_game = np.bincount(game, minlength=n_games).astype(float)
    if same:  # r is b: no decision is wrong, exactly
        stat = share = Statistic(0.0, 0.0, 0.0, 0.0, n_games, 0.0)
    else:
        stat = count_statistic(per_game)
        share = ratio_statistic(per_game, dec_per_game)
    return {"games": n_games, "seed": seed, "wrong_per_game": stat.to_json(),
            "decisions_per_game": mean_statistic(dec_per_game).to_json(),
            "share_wrong": share.to_json(),
            "cells": _cells(n_games, game, X, wrong, ra, cuts, words, decision, top)}


def mean_statistic(per_game) -> "Statistic":
    """The mean of per-game values with SE sd/√n and the normal 95% interval, clipped at 0
    (the values are counts); SE is infinite with one game."""
    import numpy as np

    from analyzer.stats import Z95, Statistic

    x = np.asarray(per_game, dtype=float)
    n = len(x)
    mean = float(x.mean())
    se = float(x.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return Statistic(mean, se, max(0.0, mean - Z95 * se), mean + Z95 * se, n)


def count_statistic(per_game) -> "Statistic":
    """:func:`mean_statistic` of per-game counts of rare events: while their total K is below
    :data:`FEW` the interval is widened to hold the Garwood interval of K divided by n
    ([0, 3.689/n] when K = 0), since few events make the normal interval too short."""
    import numpy as np

    from analyzer.stats import Statistic

    stat = mean_statistic(per_game)
    total = float(np.sum(per_game))
    if total >= FEW:
        return stat
    plo, phi = poisson_interval(int(round(total)))
    n = stat.n
    return Statistic(stat.estimate, stat.se, min(stat.ci_low, plo / n),
                     max(stat.ci_high, phi / n), n)


def ratio_statistic(num, den) -> "Statistic":
    """R = Σnum / Σden over games with the delta-method SE sd(num − R·den) / (mean(den)·√n),
    its normal interval clipped to [0, 1] (R is a share), widened like :func:`count_statistic`
    while Σnum < :data:`FEW` (the Garwood interval of Σnum over Σden); 0 with SE 0 and
    interval [0, 0] when no decision is seen."""
    import numpy as np

    from analyzer.stats import Z95, Statistic

    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    n = len(num)
    if den.sum() <= 0:
        return Statistic(0.0, 0.0, 0.0, 0.0, n)
    r = float(num.sum() / den.sum())
    resid = num - r * den
    se = (float(resid.std(ddof=1)) / (float(den.mean()) * math.sqrt(n)) if n > 1
          else math.inf)
    lo, hi = max(0.0, r - Z95 * se), min(1.0, r + Z95 * se)
    k = float(num.sum())
    if k < FEW:  # few events: also hold the Garwood interval of their count over Σden
        plo, phi = poisson_interval(int(round(k)))
        lo, hi = min(lo, plo / den.sum()), min(1.0, max(hi, phi / den.sum()))
    return Statistic(r, se, lo, hi, n)


def _cells(n_games, game, X, wrong, ra, cuts, words, decision, top) -> list[dict]:
    import numpy as np

    if not wrong.any():
        return []
    names = sorted(cuts)
    seen = {f: np.asarray(X[f])[wrong] for f in names}  # the wrong decisions' features
    bins = [np.searchsorted(np.asarray(cuts[f], dtype=float), seen[f]) for f in names]
    keys = np.stack(bins, axis=1) if names else np.zeros((int(wrong.sum()), 0), dtype=np.int64)
    uniq, inverse, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    inverse = inverse.reshape(-1)
    acts = ra[wrong]
    games = game[wrong]
    rows = []
    for c in np.argsort(-counts, kind="stable")[:top]:
        inside = inverse == c
        span = {f: [_num(seen[f][inside].min()), _num(seen[f][inside].max())] for f in names}
        r_act = bool(acts[inside][0])
        per_game = np.bincount(games[inside], minlength=n_games).astype(float)
        rows.append({"features": span, "where": where_words(span, words),
                     "wrong_per_game": count_statistic(per_game).to_json(),
                     "rule": decision.act if r_act else decision.rest,
                     "best": decision.rest if r_act else decision.act})
    return rows


def _num(v):
    v = float(v)
    return int(v) if v.is_integer() else v


def where_words(span: Mapping, words: Mapping) -> str:
    """"T 7–9, cards left 3" from the seen ranges of a cell."""
    if not span:
        return "every state"
    parts = []
    for f, (lo, hi) in span.items():
        parts.append(f"{words.get(f, f)} {lo}" if lo == hi else f"{words.get(f, f)} {lo}–{hi}")
    return ", ".join(parts)


def mistake_lines(m: Mapping, indent: str = "       ", top: int = 3) -> list[str]:
    """One rule's summary as text: wrong decisions per game with its interval, then its most
    frequent wrong cells ("where: rule does X, best does Y, k per game")."""
    w = m["wrong_per_game"]
    if w.get("exact_value") == 0.0:
        return [f"{indent}the best rule found: no wrong decisions by definition"]
    head = (f"{indent}wrong decisions per game {w['estimate']:.3f} [{w['ci_low']:.3f}, "
            f"{w['ci_high']:.3f}] of {m['decisions_per_game']['estimate']:.2f} "
            f"({m['games']:,} games, seed {m['seed']})")
    cells: Sequence = m["cells"][:top]
    if not cells:
        return [head + "; none seen"]
    out = [head + "; most often:"]
    for c in cells:
        out.append(f"{indent}  {c['where']}: {c['rule']} where the best rule would "
                   f"{c['best']} ({c['wrong_per_game']['estimate']:.3f} per game)")
    return out
