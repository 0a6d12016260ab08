"""Pig's exact answers: optimal play by value iteration, roll-or-hold decisions, one-turn stats.

What belongs here: exact solvers only (no sampling). exact.py imports no pandas and no
matplotlib; the value-iteration kernel is ``kernels/pig/exact.py`` (its docstring has the model).

Published facts reproduced (Neller & Presser, 2004): optimal vs optimal, the first player wins
with probability ≈ 0.5306; "hold at 20" busts a turn with probability ≈ 0.6245 and scores
≈ 8.1418.

Exact single-turn statistics of "hold at H" (no goal): let ``q[t]`` be the probability of reaching
turn total ``t`` without busting, ``q[0] = 1`` and ``q[t] = Σ_{f>b, t-f < H} q[t-f] / F`` for t ≥ 1.
The turn ends holding ``t ≥ H`` with probability ``q[t]`` for ``H ≤ t < H + F`` (t - f < H ensures
the turn did not stop earlier); p_bust = 1 − Σ_{t≥H} q[t]; mean points = Σ_{t≥H} t·q[t].

Cost: the solve has goal³ states (10⁶ at goal 100) and takes a few hundred sweeps (about a
second, cached per rule set); a decision then costs O(F), reading F + 2 cells of the cached
solution without NumPy (:func:`analyzer.cache.cached_views`); one-turn statistics O(H·F).
"""
from __future__ import annotations

import functools
from pathlib import Path

from analyzer.games.pig.rules import PigRules, check_scores

_KERNEL = Path(__file__).resolve().parents[3] / "kernels" / "pig" / "exact.py"


def _cache_params(rules: PigRules, tol: float) -> dict:
    return {"goal": rules.goal, "faces": rules.faces, "bust_faces": rules.bust_faces, "tol": tol}


@functools.lru_cache(maxsize=4)
def solve(rules: PigRules, tol: float = 1e-12):
    """Optimal win probabilities ``P[i, j, k]`` and the roll table (1 roll, 0 hold).

    The solution is kept on disk per rule set and solver code (:mod:`analyzer.cache`), so a
    query after the first loads it instead of solving (and never imports Numba)."""
    from analyzer.cache import cached_arrays

    def compute():
        import numpy as np

        from kernels.pig import solve_pig

        P, roll, iterations, change = solve_pig(rules.goal, rules.faces, rules.bust_faces, tol,
                                                100000)
        return {"P": P, "roll": roll, "iterations": np.int64(iterations),
                "change": np.float64(change)}

    got = cached_arrays("pig-solution", _cache_params(rules, tol), [_KERNEL], compute)
    return got["P"], got["roll"], int(got["iterations"]), float(got["change"])


def win_probabilities(rules: PigRules, tol: float = 1e-12):
    """``P`` of :func:`solve`, indexable as ``P[i, j, k]``: read from the cache without NumPy when
    the solution is there (a decision reads a handful of cells), else solved."""
    from analyzer.cache import cached_views

    views = cached_views("pig-solution", _cache_params(rules, tol), [_KERNEL])
    if views is not None and "P" in views:
        return views["P"]
    return solve(rules, tol)[0]


def turn_stats(hold_at: int, rules: PigRules) -> dict:
    """Exact one-turn statistics of "hold at H" ignoring the goal (module doc)."""
    F, b = rules.faces, rules.bust_faces
    top = hold_at + F
    q = [0.0] * top
    q[0] = 1.0
    for t in range(1, top):
        acc = 0.0
        for f in range(b + 1, F + 1):
            prev = t - f
            if 0 <= prev < hold_at:
                acc += q[prev]
        q[t] = acc / F
    end = {t: q[t] for t in range(hold_at, top) if q[t] > 0}
    p_hold = sum(end.values())
    return {"p_bust": 1.0 - p_hold, "mean_points": sum(t * p for t, p in end.items()),
            "distribution": end}


def decide(me: int, opp: int, turn: int, rules: PigRules) -> dict:
    """Exact roll/hold decision with the win probability of each choice."""
    check_scores(me, opp, turn, rules)
    P = win_probabilities(rules)
    F, b, goal = rules.faces, rules.bust_faces, rules.goal
    p_roll = b / F * (1.0 - P[opp, me, 0])
    for f in range(b + 1, F + 1):
        t = turn + f
        p_roll += (1.0 if me + t >= goal else P[me, opp, t]) / F
    p_hold = None if turn == 0 else 1.0 - P[opp, me + turn, 0]
    if p_hold is None:
        rec = "roll"
    elif abs(p_roll - p_hold) <= 1e-9:
        rec = "either"
    else:
        rec = "roll" if p_roll > p_hold else "hold"
    return {"me": me, "opp": opp, "turn": turn, "p_win_roll": p_roll, "p_win_hold": p_hold,
            "recommendation": rec,
            "margin": None if p_hold is None else abs(p_roll - p_hold), "exact": True}


def policy_rows(rules: PigRules):
    """The optimal roll/hold decision of every state, as (own, opp, turn total, decision) rows."""
    _P, roll, _it, _ch = solve(rules)
    goal = rules.goal
    for i in range(goal):
        for j in range(goal):
            row = roll[i, j, : goal - i]
            for k in range(goal - i):
                yield i, j, k, "roll" if row[k] else "hold"


def hold_boundary(rules: PigRules, opp: int) -> list[int]:
    """For each own score, the turn total at which optimal play first holds (opponent at ``opp``)."""
    _P, roll, _it, _ch = solve(rules)
    goal = rules.goal
    return [next((k for k in range(1, goal - i) if roll[i, opp, k] == 0), goal - i)
            for i in range(goal)]
