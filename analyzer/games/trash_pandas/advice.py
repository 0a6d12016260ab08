"""Trash Pandas turn: rules of thumb for roll-or-stop, with their exact cost in card-equivalents.

What belongs here: the turn's features and exact evaluator for :mod:`analyzer.advice`. No
pandas, no printing.

Features of a decision (after taking a token, in the main or the bonus turn): ``tokens`` held,
``bust`` = the chance in % that the next roll repeats a held token (100·tokens/6, the same
information in the unit players think in), ``blammo``, ``nanners``, ``pie`` = cards of each kind
in hand, ``bonus`` = 1 in the bonus turn. Decision: roll (act) or stop (rest). With no token yet
every rule rolls; the caps of the turn (6, bonus 3) stop it as the rules do.

A rule fixes only roll-or-stop; the cards are used as a person would by habit, as in the
``stop-at:K`` policy of :mod:`analyzer.games.trash_pandas.play` (Blammo! on a bust while one is
in hand, then Nanners; pies whenever they gain). Its value is computed exactly by
:class:`~analyzer.games.trash_pandas.play.PolicyEvaluator` on the same tables; the loss is
``V(optimal) − V(rule)`` for the turn started with the given hand, in card-equivalents.

Where a rule goes wrong: the decision states where its roll-or-stop differs from the optimal
table, weighted by the probability that the turn reaches them under the rule (the evaluator's
recursion run forwards).
"""
from __future__ import annotations

import numpy as np

from analyzer.advice import Decision, Feature, Rule, Scored, exact_search
from analyzer.games.trash_pandas.exact import TurnSolver
from analyzer.games.trash_pandas.play import PolicyEvaluator, PolicySpec, build_tables
from analyzer.games.trash_pandas.rules import MAIN, popcount

DECISION = Decision("roll", "stop")
FEATURE_NAMES = ("tokens", "bust", "blammo", "nanners", "pie", "bonus")


def state_features(t) -> dict:
    """The features of every state of tables ``t`` (the kernels' flat index: mode, tokens held
    h as a bit set, Blammo!, Nanners, MMM Pie!), plus ``h`` and ``mode`` themselves."""
    B, N, P = t.B, t.N, t.P
    idx = np.arange(t.roll.size)
    p = idx % (P + 1)
    n = idx // (P + 1) % (N + 1)
    b = idx // ((P + 1) * (N + 1)) % (B + 1)
    h = idx // ((P + 1) * (N + 1) * (B + 1)) % 64
    mode = idx // ((P + 1) * (N + 1) * (B + 1) * 64)
    tok = np.array([popcount(int(x)) for x in range(64)])[h]
    return {"tokens": tok, "bust": np.round(100 * tok / 6).astype(int), "blammo": b,
            "nanners": n, "pie": p, "bonus": mode, "h": h, "mode": mode}


def apply_rule(rule: Rule, base, X: dict):
    """``base`` tables (cards by habit) with roll-or-stop from ``rule``; with no token yet
    every rule rolls."""
    from dataclasses import replace

    roll = np.asarray(rule.acts(X), dtype=np.uint8)
    roll[X["h"] == 0] = 1
    return replace(base, roll=np.ascontiguousarray(roll))


def rule_tables(rule: Rule, solver: TurnSolver, B: int, N: int, P: int):
    """The rule as the kernels' per-hand tables (module doc: cards as in ``stop-at``)."""
    base = build_tables(PolicySpec("stop-at", 6), solver, B, N, P)
    return apply_rule(rule, base, state_features(base))


def features(cards: tuple[int, int, int]) -> list[Feature]:
    B, N, P = cards
    out = [Feature("tokens", "the number of tokens you hold", (1, 2, 3, 4, 5), unit=""),
           Feature("bust", "the chance to bust on the next roll", (17, 33, 50, 67, 83),
                   unit="%")]
    for name, words, k in (("blammo", "the Blammo! cards in your hand", B),
                           ("nanners", "the Nanners cards in your hand", N),
                           ("pie", "the MMM Pie! cards in your hand", P)):
        if k > 0:
            out.append(Feature(name, words, tuple(range(1, k + 1))))
    out.append(Feature("bonus", "the bonus-turn flag (1 in the bonus turn)", (1,)))
    return out


class TurnEvaluator:
    """Exact loss of roll-or-stop rules for one starting hand (module doc)."""

    def __init__(self, solver: TurnSolver, cards: tuple[int, int, int]):
        self.solver = solver
        self.cards = cards
        B, N, P = cards
        self.base = build_tables(PolicySpec("stop-at", 6), solver, B, N, P)
        self.optimal_tables = build_tables(PolicySpec("optimal"), solver, B, N, P)
        self.v_opt = PolicyEvaluator(self.optimal_tables, solver).turn()["mean_value"]
        self.X = state_features(self.base)
        self.h = self.X["h"]
        self.mode = self.X["mode"]
        self.evaluations = 0

    def tables(self, rule: Rule):
        return apply_rule(rule, self.base, self.X)

    def value(self, rule: Rule) -> float:
        return PolicyEvaluator(self.tables(rule), self.solver).turn()["mean_value"]

    def __call__(self, rules) -> list[Scored]:
        out = []
        for rule in rules:
            v = self.value(rule)
            self.evaluations += 1
            loss = self.v_opt - v
            out.append(Scored(rule, loss, loss, loss, 0, {"value": v}))
        return out

    def mistakes(self, rule: Rule, top: int = 5) -> dict:
        """States where the rule's roll-or-stop differs from optimal, by reach probability."""
        t = self.tables(rule)
        reach = _reach(t, self.solver)
        cap = np.array([self.solver.cap(m) for m in (0, 1)])[self.mode]
        tok = self.X["tokens"]
        live = (tok > 0) & (tok < cap)
        wrong = live & (t.roll != self.optimal_tables.roll)
        rows = []
        order = np.argsort(-(reach * wrong))
        for i in order[:top]:
            if not wrong[i] or reach[i] <= 0:
                break
            rows.append({"tokens": int(tok[i]), "blammo": int(self.X["blammo"][i]),
                         "nanners": int(self.X["nanners"][i]), "pie": int(self.X["pie"][i]),
                         "bonus": bool(self.mode[i]), "reach": float(reach[i]),
                         "rule": "roll" if t.roll[i] else "stop"})
        return {"wrong_per_turn": float((reach * wrong).sum()), "states": rows}


def _reach(t, solver) -> np.ndarray:
    """Probability that a turn under tables ``t`` reaches each decision state (after a take)."""
    from analyzer.games.trash_pandas.play import BLAMMO, NANNERS
    from analyzer.games.trash_pandas.rules import ALL_SIX, BONUS

    import heapq

    reach = np.zeros(t.roll.size)
    # topological order: main before bonus, more cards first (Blammo! spends one, same tokens),
    # fewer tokens first (a take adds one, same cards)
    def order(st):
        return (st[0], -st[2], -st[3], -st[4], popcount(st[1]), st[1])

    start = (MAIN, 0, t.B, t.N, t.P)
    todo = {start: 1.0}
    heap = [(order(start), start)]
    while heap:
        _o, key = heapq.heappop(heap)
        mass = todo.pop(key)
        mode, h, b, n, p = key
        i = t.idx(mode, h, b, n, p)
        reach[i] += mass
        if h != 0 and (popcount(h) >= solver.cap(mode) or t.roll[i] == 0):
            continue
        for f in range(6):
            d = int(t.after[i * 6 + f])
            m = mass / 6
            if d == BLAMMO:
                nxt = (mode, h, b - 1, n, p)
            elif d == NANNERS or h >> f & 1:
                continue
            else:
                h2 = h | 1 << f
                if mode == MAIN and h2 == ALL_SIX:
                    if solver.rules.bonus_turn:
                        q = int(t.six_pies[(b * (t.N + 1) + n) * (t.P + 1) + p])
                        nxt = (BONUS, 0, b, n, p - q)
                    else:
                        continue
                else:
                    nxt = (mode, h2, b, n, p)
            if nxt not in todo:
                heapq.heappush(heap, (order(nxt), nxt))
            todo[nxt] = todo.get(nxt, 0.0) + m
    return reach


def advise(solver: TurnSolver, cards=(0, 0, 0), max_bands: int = 3,
           max_clauses: int = 3) -> dict:
    ev = TurnEvaluator(solver, cards)
    return {**exact_search(features(cards), ev, max_bands, max_clauses), "v_optimal": ev.v_opt}
