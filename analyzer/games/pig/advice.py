"""Pig rules of thumb ("hold at 20" and score-aware refinements) with their exact cost.

What belongs here: Pig's features and exact evaluator for :mod:`analyzer.advice`. No pandas,
no printing.

Features of a decision state (own score ``i``, opponent's score ``j``, turn total ``k``):
``turn`` = k, ``own`` = i, ``opp`` = j, ``behind`` = j − i (negative when ahead) and ``needed``
= goal − i. Decision: roll (act) or hold (rest); at turn total 0 every rule rolls.

Loss, exactly (kernels/pig/evaluate.py): the rule plays against the optimal player, once moving
first and once second; its win probability averaged over the two seats is ``w``, and the loss is
``0.5 − w`` (optimal against optimal wins exactly 0.5 averaged over seats). The first-seat loss
``P_opt(first) − P_rule(first)`` is reported beside it. Against itself every rule wins 0.5 on
average over the seats, so "the same rule" as opponent cannot rank rules and is not used.

Where a rule goes wrong: the A-to-move states where the rule and the optimal table disagree,
weighted by their expected visits in a game against the optimal player (both seats, half each),
grouped by (own score, opponent score) in bands of 10.

Reference: T. W. Neller and C. G. M. Presser, "Practical Play of the Dice Game Pig", The UMAP
Journal 31(1), 2010 (simple policies compared with optimal play).
"""
from __future__ import annotations

import numpy as np

from analyzer.advice import Decision, Feature, Rule, Scored, exact_search
from analyzer.games.pig.rules import PigRules

DECISION = Decision("roll", "hold")
FEATURE_NAMES = ("turn", "behind", "opp", "own", "needed")


def feature_arrays(goal: int) -> dict:
    """The features of every state (i, j, k) as broadcast int16 arrays of shape (goal,)·3."""
    i = np.arange(goal, dtype=np.int16)[:, None, None]
    j = np.arange(goal, dtype=np.int16)[None, :, None]
    k = np.arange(goal, dtype=np.int16)[None, None, :]
    shape = (goal, goal, goal)
    return {"turn": np.broadcast_to(k, shape), "own": np.broadcast_to(i, shape),
            "opp": np.broadcast_to(j, shape), "behind": np.broadcast_to(j - i, shape),
            "needed": np.broadcast_to(goal - i, shape)}


def rule_table(rule: Rule, goal: int, X: dict | None = None) -> np.ndarray:
    """The rule as the kernels' roll table ``table[i, j, k]`` (uint8, 1 roll); at k = 0 every
    rule rolls (the kernels and the evaluator never read k = 0)."""
    t = np.ascontiguousarray(rule.acts(feature_arrays(goal) if X is None else X), dtype=np.uint8)
    t[:, :, 0] = 1
    return t


def hold_table(hold_at: int, goal: int) -> np.ndarray:
    """``hold:H`` as a table: roll while k < H (the kernels' threshold policy)."""
    k = np.arange(goal)[None, None, :]
    return np.ascontiguousarray(np.broadcast_to(k < hold_at, (goal,) * 3), dtype=np.uint8)


def features(goal: int) -> list[Feature]:
    tens = tuple(range(10, goal, 10))
    fives = tuple(range(5, goal, 5))
    return [
        Feature("turn", "your turn total", tuple(range(10, min(goal, 45), 5)),
                tuple(range(1, goal)), "points"),
        Feature("behind", "the points you are behind", tuple(range(-50, 51, 10)),
                tuple(range(-goal + 5, goal, 5)), "points"),
        Feature("opp", "the opponent's score", tens, fives, "points"),
        Feature("own", "your score", tens, fives, "points"),
        Feature("needed", "the points you still need", tens, fives, "points"),
    ]


class PigEvaluator:
    """Exact loss of rules against the optimal player (module doc)."""

    def __init__(self, rules: PigRules = PigRules()):
        from analyzer.games.pig.exact import solve

        self.rules = rules
        g = rules.goal
        P, roll, _it, _ch = solve(rules)
        self.opt = np.ascontiguousarray(roll, dtype=np.uint8).copy()
        self.p_first = float(P[0, 0, 0])
        self.X = feature_arrays(g)
        self.evaluations = 0

    def table(self, rule: Rule) -> np.ndarray:
        return rule_table(rule, self.rules.goal, self.X)

    def win(self, ra: np.ndarray, rb: np.ndarray) -> tuple[float, float]:
        """P(A wins) moving first and moving second."""
        from kernels.pig.evaluate import evaluate_pig

        r = self.rules
        X0, Y0 = evaluate_pig(r.goal, r.faces, r.bust_faces, ra, rb)
        return float(X0[0, 0]), float(Y0[0, 0])

    def __call__(self, rules) -> list[Scored]:
        out = []
        for rule in rules:
            first, second = self.win(self.table(rule), self.opt)
            self.evaluations += 1
            loss = 0.5 - 0.5 * (first + second)
            out.append(Scored(rule, loss, loss, loss, 0,
                              {"p_win_first": first, "p_win_second": second,
                               "loss_first_seat": self.p_first - first}))
        return out

    def mistakes(self, rule: Rule, top: int = 5) -> dict:
        """Reach-weighted disagreements with the optimal table (module doc)."""
        from kernels.pig.evaluate import reach_pig

        r = self.rules
        g = r.goal
        ra = self.table(rule)
        RA = reach_pig(g, r.faces, r.bust_faces, ra, self.opt, 0.5, 0.5)
        k = np.arange(g)[None, None, :]
        live = (k > 0) & (np.arange(g)[:, None, None] + k < g)
        wrong = live & (ra != self.opt)
        visits = float((RA * live).sum())
        w = RA * wrong
        band = 10
        nb = (g + band - 1) // band
        cells = w.sum(axis=2)
        cells = np.add.reduceat(np.add.reduceat(cells, np.arange(0, g, band), 0),
                                np.arange(0, g, band), 1)
        order = np.argsort(cells, axis=None)[::-1][:top]
        rows = []
        for flat in order:
            a, b = divmod(int(flat), nb)
            if cells[a, b] <= 0:
                break
            sl = (slice(a * band, (a + 1) * band), slice(b * band, (b + 1) * band))
            ww = w[sl]
            rolls_wrong = float((ww * (ra[sl] == 1)).sum())
            rows.append({"own": [a * band, min(g, (a + 1) * band) - 1],
                         "opp": [b * band, min(g, (b + 1) * band) - 1],
                         "wrong_per_game": float(cells[a, b]),
                         "rule_rolls_should_hold": rolls_wrong / float(cells[a, b])})
        return {"wrong_per_game": float(w.sum()), "decisions_per_game": visits,
                "share_wrong": float(w.sum()) / visits if visits else 0.0, "cells": rows}


def hold_at(t: int) -> Rule:
    """"Hold at t": roll while the turn total is at most t − 1."""
    return Rule("threshold", "turn", "<=", (t - 1,))


def advise(rules: PigRules = PigRules(), max_bands: int = 3, max_clauses: int = 3) -> dict:
    """Search Pig's rules of thumb; the front, the best "hold at" rule and the counts."""
    ev = PigEvaluator(rules)
    res = exact_search(features(rules.goal), ev, max_bands, max_clauses)
    hold = min((x for x in res["scored"] if x.rule.kind == "threshold"
                and x.rule.feature == "turn" and x.rule.op == "<="), key=lambda x: x.loss)
    return {**res, "best_hold_at": hold, "p_first_optimal": ev.p_first}
