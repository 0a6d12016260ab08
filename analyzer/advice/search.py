"""Rules of thumb a person can remember, and what they cost against the best known policy.

What belongs here: the game-independent part of ``pushluck <game> advice``: features and rules
as data, their plain words, the candidate search, racing for Monte Carlo evaluators and the
Pareto front. A game (``analyzer/games/<game>/advice.py``) declares its features and decision
and supplies an evaluator; no numpy at import, no pandas, no printing.

A **feature** is a number a player can see and count at the table (turn total, tokens held, …),
with the words used in a rule and the values worth trying as thresholds. A **decision** is binary:
``act`` (roll, go on) or ``rest`` (hold, stop). A **rule** maps the features of a state to a
decision, in one of three forms, in order of complexity (numbers + conditions a person must
remember):

* ``threshold``: act while feature ⊙ t (⊙ is ≤ or ≥) — 1 condition, 1 number: complexity 2;
* ``banded``: the threshold depends on a second feature cut into 2 or 3 bands — B thresholds,
  B − 1 cuts and B conditions: complexity 3B − 1 (5 or 8);
* ``list``: a decision list of m ≤ 3 clauses "if feature ⊙ v then decision" followed by a default
  (the first clause that holds decides) — complexity 2m.

The **loss** of a rule is V(best known policy) − V(rule) in the game's unit. An exact evaluator
returns it exactly (interval of zero width); a Monte Carlo evaluator returns paired per-trial
differences on common random numbers, and :func:`race` spends trials only on close calls.

Search (:func:`search`): every single threshold on every feature; hill-climbing of the best on the
features' fine grids; bands of the best threshold's feature by every other feature (cuts from its
coarse grid, thresholds by coordinate descent); decision lists grown greedily by prepending the
clause that lowers the loss most, each growth followed by hill-climbing of all numbers. The
**Pareto front** keeps, in increasing complexity, each rule that loses strictly less than every
simpler one; ``max_loss`` picks the simplest front rule within ε.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence


@dataclass(frozen=True)
class Feature:
    name: str                 # key in data and in the evaluator's feature arrays
    words: str                # "your turn total", read in "Roll while {words} is at most 19"
    values: tuple             # coarse thresholds worth trying
    fine: tuple = ()          # finer grid for hill-climbing (defaults to ``values``)
    unit: str = ""            # "points", "tokens"; appended to numbers in words

    def grid(self) -> tuple:
        return self.fine or self.values


@dataclass(frozen=True)
class Decision:
    act: str = "roll"
    rest: str = "hold"


def _cmp_words(op: str, v) -> str:
    return f"at most {v}" if op == "<=" else f"at least {v}"


@dataclass(frozen=True)
class Rule:
    """One rule of thumb (module doc). ``clauses``: ((feature, op, value, act?), …)."""

    kind: str                                   # "threshold", "banded" or "list"
    feature: str = ""                           # threshold/banded: the acting feature
    op: str = "<="                              # act while feature op threshold
    thresholds: tuple = ()                      # one per band
    band_feature: str = ""                      # banded: the band feature and its cuts
    cuts: tuple = ()
    clauses: tuple = ()                         # list: (feature, op, value, act: bool)
    default_act: bool = True

    @property
    def complexity(self) -> int:
        if self.kind == "threshold":
            return 2
        if self.kind == "banded":
            return 3 * len(self.thresholds) - 1
        return 2 * len(self.clauses)

    def acts(self, X: dict):
        """Boolean array (or bool): True where the rule chooses ``act``; ``X`` maps names to
        arrays of one shape (one entry per state)."""
        if self.kind == "threshold":
            return _holds(X[self.feature], self.op, self.thresholds[0])
        if self.kind == "banded":
            g = X[self.band_feature]
            out = _holds(X[self.feature], self.op, self.thresholds[0])
            for cut, t in zip(self.cuts, self.thresholds[1:]):
                inside = g >= cut
                out = (out & ~inside) | (_holds(X[self.feature], self.op, t) & inside)
            return out
        first = next(iter(X.values()))
        out = (first == first) if self.default_act else (first != first)
        for f, op, v, act in reversed(self.clauses):
            cond = _holds(X[f], op, v)
            out = (out & ~cond) | cond if act else out & ~cond
        return out

    def words(self, features: dict, decision: Decision) -> str:
        """The rule in plain words."""
        def num(name, v):
            u = features[name].unit
            return f"{v}%" if u == "%" else f"{v} {u}".strip()

        if self.kind == "threshold":
            f = features[self.feature]
            return (f"{decision.act.capitalize()} while {f.words} is "
                    f"{_cmp_words(self.op, num(self.feature, self.thresholds[0]))}; "
                    f"otherwise {decision.rest}.")
        if self.kind == "banded":
            f, g = features[self.feature], features[self.band_feature]
            text = (f"{decision.act.capitalize()} while {f.words} is "
                    f"{_cmp_words(self.op, num(self.feature, self.thresholds[0]))}")
            edges = list(self.cuts) + [None]
            for k, t in enumerate(self.thresholds[1:]):
                lo, hi = edges[k], edges[k + 1]
                band = (f"{g.words} is at least {num(self.band_feature, lo)}" if hi is None else
                        f"{g.words} is {num(self.band_feature, lo)} to "
                        f"{num(self.band_feature, hi - 1)}")
                text += f"; when {band}: {_cmp_words(self.op, t)}"
            first_band = f"{g.words} is below {num(self.band_feature, self.cuts[0])}"
            return text.replace(" while", f" (when {first_band}) while", 1) + \
                f"; otherwise {decision.rest}."
        if not self.clauses:
            return f"Always {decision.act if self.default_act else decision.rest}."
        parts = [f"If {features[f].words} is {_cmp_words(op, num(f, v))}, "
                 f"{decision.act if act else decision.rest}." for f, op, v, act in self.clauses]
        parts.append(f"Otherwise {decision.act if self.default_act else decision.rest}.")
        return " ".join(parts)

    def to_json(self) -> dict:
        """The rule as data: a list of conditions a report or another command can re-apply."""
        d = {"kind": self.kind, "complexity": self.complexity}
        if self.kind == "threshold":
            d.update(feature=self.feature, op=self.op, threshold=self.thresholds[0])
        elif self.kind == "banded":
            d.update(feature=self.feature, op=self.op, thresholds=list(self.thresholds),
                     band_feature=self.band_feature, cuts=list(self.cuts))
        else:
            d.update(clauses=[{"feature": f, "op": op, "value": v, "act": act}
                              for f, op, v, act in self.clauses], default_act=self.default_act)
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Rule":
        if d["kind"] == "threshold":
            return cls("threshold", d["feature"], d["op"], (d["threshold"],))
        if d["kind"] == "banded":
            return cls("banded", d["feature"], d["op"], tuple(d["thresholds"]),
                       d["band_feature"], tuple(d["cuts"]))
        return cls("list", clauses=tuple((c["feature"], c["op"], c["value"], bool(c["act"]))
                                         for c in d["clauses"]), default_act=d["default_act"])


def _holds(x, op: str, v):
    return x <= v if op == "<=" else x >= v


@dataclass
class Scored:
    rule: Rule
    loss: float
    lo: float
    hi: float
    n: int = 0        # trials (Monte Carlo); 0 for exact
    extra: dict = field(default_factory=dict)


def pareto(scored: Sequence[Scored]) -> list[Scored]:
    """Each rule that loses strictly less than every simpler rule (ties: the first found)."""
    best: dict[int, Scored] = {}
    for s in scored:
        c = s.rule.complexity
        if c not in best or s.loss < best[c].loss - 1e-15:
            best[c] = s
    front, floor = [], math.inf
    for c in sorted(best):
        if best[c].loss < floor - 1e-12:
            front.append(best[c])
            floor = best[c].loss
    return front


def simplest_within(front: Sequence[Scored], eps: float) -> Scored | None:
    """The simplest front rule whose loss (upper bound for Monte Carlo) is at most ε."""
    return next((s for s in front if s.hi <= eps), None)


# ---------------------------------------------------------------------------------------------
class Searcher:
    """Candidate search over one game's features (module doc).

    ``evaluate(rules) -> list[Scored]`` scores a batch (exactly, or by :func:`race`); every
    scored rule is remembered, and ``evaluations`` counts distinct rules scored.
    """

    def __init__(self, features: Sequence[Feature], evaluate: Callable, ops=("<=", ">="),
                 primary: Sequence[str] | None = None):
        self.features = {f.name: f for f in features}
        self.evaluate = evaluate
        self.ops = ops
        self.primary = list(primary) if primary else list(self.features)
        self.seen: dict[Rule, Scored] = {}

    def score(self, rules: Sequence[Rule]) -> list[Scored]:
        new = [r for r in dict.fromkeys(rules) if r not in self.seen]
        if new:
            for s in self.evaluate(new):
                self.seen[s.rule] = s
        return [self.seen[r] for r in rules]

    def _best(self, rules):
        return min(self.score(rules), key=lambda s: s.loss)

    # -- one threshold ------------------------------------------------------------------------
    def thresholds(self) -> Scored:
        cands = [Rule("threshold", f, op, (v,)) for f in self.primary for op in self.ops
                 for v in self.features[f].values]
        return self.climb(self._best(cands))

    # -- hill-climbing of every number of a rule on the fine grids ----------------------------
    def _neighbours(self, r: Rule) -> list[Rule]:
        out = []

        def step(grid, v):
            g = sorted(set(grid) | {v})
            i = g.index(v)
            return [g[k] for k in (i - 1, i + 1) if 0 <= k < len(g)]

        if r.kind in ("threshold", "banded"):
            for b, t in enumerate(r.thresholds):
                for u in step(self.features[r.feature].grid(), t):
                    out.append(_replace(r, thresholds=_set(r.thresholds, b, u)))
            for b, c in enumerate(r.cuts):
                for u in step(self.features[r.band_feature].grid(), c):
                    cuts = _set(r.cuts, b, u)
                    if list(cuts) == sorted(set(cuts)):
                        out.append(_replace(r, cuts=cuts))
        else:
            for b, (f, op, v, act) in enumerate(r.clauses):
                for u in step(self.features[f].grid(), v):
                    out.append(_replace(r, clauses=_set(r.clauses, b, (f, op, u, act))))
        return out

    def climb(self, s: Scored, rounds: int = 60) -> Scored:
        for _ in range(rounds):
            nb = self._neighbours(s.rule)
            if not nb:
                break
            b = self._best(nb)
            if b.loss >= s.loss - 1e-13:
                break
            s = b
        return s

    # -- bands ---------------------------------------------------------------------------------
    def banded(self, base: Scored, max_bands: int = 3) -> list[Scored]:
        r0 = base.rule
        out = []
        best2 = None
        for g in self.features:
            if g == r0.feature:
                continue
            for c in self.features[g].values[1:]:
                s = self._fit_bands(Rule("banded", r0.feature, r0.op, r0.thresholds * 2, g, (c,)),
                                    (1,))
                if best2 is None or s.loss < best2.loss:
                    best2 = s
        if best2 is None:
            return out
        best2 = self.climb(best2)
        out.append(best2)
        if max_bands >= 3:
            r2 = best2.rule
            grid = self.features[r2.band_feature].values
            best3 = None
            for c in grid:
                if c == r2.cuts[0]:
                    continue
                cuts = tuple(sorted((r2.cuts[0], c)))
                t = (r2.thresholds[0], r2.thresholds[1], r2.thresholds[1]) if c > r2.cuts[0] \
                    else (r2.thresholds[0], r2.thresholds[0], r2.thresholds[1])
                s = self._fit_bands(Rule("banded", r2.feature, r2.op, t, r2.band_feature, cuts),
                                    (2 if c > r2.cuts[0] else 0,))
                if best3 is None or s.loss < best3.loss:
                    best3 = s
            if best3 is not None:
                out.append(self.climb(best3))
        return out

    def _fit_bands(self, r: Rule, bands: tuple) -> Scored:
        """The best coarse-grid threshold of the new band(s) ``bands``, the others kept (the
        best cut is then hill-climbed in every number)."""
        grid = self.features[r.feature].values
        cur = self.score([r])[0]
        for b in bands:
            cands = [_replace(cur.rule, thresholds=_set(cur.rule.thresholds, b, v)) for v in grid]
            s = self._best(cands)
            if s.loss < cur.loss - 1e-13:
                cur = s
        return cur

    # -- decision lists -------------------------------------------------------------------------
    def lists(self, base: Scored, max_clauses: int = 3) -> list[Scored]:
        r = base.rule
        # the threshold "act while f op t" as a list: "if f (not op) t±: rest; otherwise act"
        f, op, t = r.feature, r.op, r.thresholds[0]
        grid = sorted(self.features[f].grid())
        nxt = [v for v in grid if (v > t if op == "<=" else v < t)]
        if not nxt:
            return []
        first = (f, ">=" if op == "<=" else "<=", nxt[0] if op == "<=" else nxt[-1], False)
        cur = self.score([Rule("list", clauses=(first,), default_act=True)])[0]
        out = []
        for _m in range(2, max_clauses + 1):
            cands = [Rule("list", clauses=((g, o, v, act),) + cur.rule.clauses,
                          default_act=cur.rule.default_act)
                     for g in self.features for o in self.ops
                     for v in self.features[g].values for act in (True, False)]
            cur = self.climb(self._best(cands))
            out.append(cur)
        return out

    def run(self, max_bands: int = 3, max_clauses: int = 3) -> list[Scored]:
        """The whole search; returns every rule scored (the front is :func:`pareto` of it)."""
        base = self.thresholds()
        if max_bands >= 2:
            self.banded(base, max_bands)
        if max_clauses >= 2:
            self.lists(base, max_clauses)
        return list(self.seen.values())


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


def _replace(r: Rule, **kw) -> Rule:
    from dataclasses import replace

    return replace(r, **kw)


# ---------------------------------------------------------------------------------------------
def rule_row(s: Scored, features: Sequence[Feature], decision: Decision) -> dict:
    """One scored rule as JSON: words, data, complexity and loss (exact or a statistic)."""
    fd = {f.name: f for f in features}
    row = {"complexity": s.rule.complexity, "words": s.rule.words(fd, decision),
           "rule": s.rule.to_json()}
    if s.n:
        row["loss"] = {"estimate": s.loss, "se": s.extra.get("se", (s.hi - s.lo) / 3.92),
                       "ci_low": s.lo, "ci_high": s.hi, "n": s.n}
    else:
        row["loss"] = s.loss
    row.update({k: v for k, v in s.extra.items() if k != "se"})
    return row


def exact_search(features: Sequence[Feature], evaluator, max_bands: int = 3,
                 max_clauses: int = 3) -> dict:
    """Run :class:`Searcher` with an exact evaluator that also has ``mistakes(rule)``; the front
    carries each rule's mistakes. Returns scored rules, front, evaluation count and seconds."""
    import time

    t0 = time.perf_counter()
    s = Searcher(features, evaluator)
    scored = s.run(max_bands, max_clauses)
    front = pareto(scored)
    for x in front:
        x.extra["mistakes"] = evaluator.mistakes(x.rule)
    return {"features": list(features), "scored": scored, "front": front,
            "evaluations": evaluator.evaluations, "seconds": time.perf_counter() - t0,
            "evaluator": evaluator}
