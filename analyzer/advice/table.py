"""Rules of thumb as the kernels' rule tables (Go-Stop's go rule, Canasta's take and go-out rules,
Ten's whole-game draw rule).

What belongs here: compiling a :class:`~analyzer.advice.Rule` into rows a kernel reads, reading
such rows back in NumPy (the tests' and ``rule:FILE.json``'s check), and dropping rules that
decide alike. No printing; numpy only inside the functions that need it.

A **rule table** is a few rows of six integers

    guard feature, guard comparison, guard value, test feature, test comparison, test value

read in order: the first row whose guard holds decides, "act" iff its test holds; when no guard
holds the answer is "rest". A comparison is ``OP_LE`` (feature ≤ value) or ``OP_GE`` (≥); feature
id 0 is the constant 0, so ``(0, OP_LE, 0)`` always holds and ``(0, OP_GE, 1)`` never does. The
other ids are each game's (``feature_ids`` maps the advice names to them).

Compilation (features are integers, so a fractional value is rounded towards the comparison:
``x ≤ 3.5`` is ``x ≤ 3``, ``x ≥ 3.5`` is ``x ≥ 4``):

* threshold "act while f ⊙ t" → [always: f ⊙ t];
* banded with cuts c₁ < c₂ on g → [g ≥ c₂: f ⊙ t₃; g ≥ c₁: f ⊙ t₂; always: f ⊙ t₁];
* a decision list → one row per clause [f ⊙ v: always or never], then [always: the default].

So a rule of the issue's families needs at most 4 rows (3 clauses and the default).
"""
from __future__ import annotations

import math

OP_LE, OP_GE = 0, 1
ALWAYS = (0, OP_LE, 0)
NEVER = (0, OP_GE, 1)
MAX_ROWS = 4


def cond(ids: dict, feature: str, op: str, v) -> tuple:
    """(feature id, comparison, integer value) deciding alike on integer features."""
    v = max(-10**9, min(10**9, v))
    if op == "<=":
        return ids[feature], OP_LE, int(math.floor(v))
    return ids[feature], OP_GE, int(math.ceil(v))


def table_of(rule, ids: dict) -> tuple:
    """The rows (module doc) that decide exactly as ``rule``."""
    if rule.kind == "threshold":
        return (ALWAYS + cond(ids, rule.feature, rule.op, rule.thresholds[0]),)
    if rule.kind == "banded":
        rows = [cond(ids, rule.band_feature, ">=", c) + cond(ids, rule.feature, rule.op, t)
                for c, t in zip(rule.cuts, rule.thresholds[1:])]
        return tuple(reversed(rows)) + (ALWAYS + cond(ids, rule.feature, rule.op,
                                                      rule.thresholds[0]),)
    rows = [cond(ids, f, op, v) + (ALWAYS if act else NEVER) for f, op, v, act in rule.clauses]
    return tuple(rows) + (ALWAYS + (ALWAYS if rule.default_act else NEVER),)


def table_acts(table: tuple, X: dict, ids: dict):
    """What a rule table decides on the feature arrays ``X`` (named as in ``ids``), read as the
    kernels read it: the first row whose guard holds, act iff its test holds; no row: rest."""
    import numpy as np

    names = {v: k for k, v in ids.items()}
    shape = next(iter(X.values())).shape

    def holds(f, op, v):
        x = np.zeros(shape, dtype=np.int64) if f == 0 else X[names[f]]
        return x <= v if op == OP_LE else x >= v

    out = np.zeros(shape, dtype=bool)
    open_ = np.ones(shape, dtype=bool)
    for row in table:
        g = holds(*row[:3]) & open_
        out |= g & holds(*row[3:])
        open_ &= ~g
    return out


def behaviour(rule, X: dict) -> bytes:
    """A key equal for two rules exactly when they decide alike on every state of ``X``."""
    import numpy as np

    return np.packbits(np.asarray(rule.acts(X), dtype=bool)).tobytes()


def distinct(rules, X: dict) -> list:
    """``rules`` sorted by complexity (stable), keeping the first of those that decide alike on
    every state of ``X``."""
    seen, keep = set(), []
    for r in sorted(rules, key=lambda r: r.complexity):
        key = behaviour(r, X)
        if key not in seen:
            seen.add(key)
            keep.append(r)
    return keep


def grid(axes: dict) -> dict:
    """Every combination of the values in ``axes`` (name -> values) as flat arrays."""
    import numpy as np

    mesh = np.meshgrid(*(np.asarray(v) for v in axes.values()), indexing="ij")
    return {k: m.ravel() for k, m in zip(axes, mesh)}


def spread(values: tuple, k: int = 3) -> tuple:
    """k values spread evenly over ``values`` (all of them when there are at most k)."""
    if len(values) <= k:
        return tuple(values)
    return tuple(values[round(i * (len(values) - 1) / (k - 1))] for i in range(k))
