"""A rule from ``advice --json`` passed back as a policy: ``--policy rule:FILE.json``.

What belongs here: reading and checking a rule file (no numpy, no printing). Each game compiles
the checked :class:`~analyzer.advice.Rule` into a policy table its kernels already play (Pig's
table policy, Trash Pandas' per-hand roll table, Ten's decision table).

The file holds one rule as data: either the ``rule`` object of a row of ``advice --json``
(``{"kind": "threshold", "feature": "turn", "op": "<=", "threshold": 24, …}``) or a whole row
(``.front[2]``, ``.simplest_within``, or a file written by ``advice --out DIR``), whose
``rule`` is then used. Every feature it names must
be one of the game's features (``pushluck <game> advice --help``); a threshold rule has one
number, a banded rule 2 or 3 thresholds and one cut fewer (increasing), a decision list at most
3 clauses. Anything else is a one-line error.
"""
from __future__ import annotations

import math
from pathlib import Path

from analyzer.advice.search import Rule
from analyzer.errors import UserError

PREFIX = "rule:"


def is_rule(text: str) -> bool:
    return text.strip().lower().startswith(PREFIX)


def read_rule_data(text: str, game: str = "") -> dict:
    """The rule object of ``rule:FILE.json`` as read (module doc), not yet checked; a row that
    names another ``game`` is refused."""
    import json

    path = text.strip()[len(PREFIX):]
    if not path:
        raise UserError("policy 'rule:' needs a file: rule:FILE.json")
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise UserError(f"rule file '{path}': {e.strerror or e}") from None
    except (UnicodeDecodeError, ValueError) as e:
        raise UserError(f"rule file '{path}' is not JSON ({str(e).splitlines()[0]})") from None
    if isinstance(data, dict) and game and data.get("game", game) != game:
        raise UserError(f"rule file '{path}' holds a rule for {data['game']}, not {game}")
    if isinstance(data, dict) and isinstance(data.get("rule"), dict):
        data = data["rule"]
    if not isinstance(data, dict):
        raise UserError(f"rule file '{path}': expected a rule object (the `rule` of a row of "
                        f"`advice --json`)")
    return data


def load_rule(text: str, features, game: str = "") -> Rule:
    """The checked rule of ``rule:FILE.json`` (module doc); ``features`` are the game's names."""
    return rule_from_data(read_rule_data(text, game), features, text.strip()[len(PREFIX):])


def rule_from_data(data: dict, features, path: str, what: str = "") -> Rule:
    """A rule object (as read from the file ``path``) checked against the game's ``features``;
    ``what`` names the part of the file it came from in the error messages."""
    where = f"rule file '{path}'" + (f", {what} rule" if what else "")
    if not isinstance(data, dict) or data.get("kind") not in ("threshold", "banded", "list"):
        raise UserError(f"{where}: expected a rule object with kind threshold, banded "
                        f"or list (the `rule` of a row of `advice --json`)")
    try:
        rule = Rule.from_json(data)
    except (KeyError, TypeError, ValueError) as e:
        raise UserError(f"{where}: malformed {data['kind']} rule (bad or missing "
                        f"{e})") from None
    _check(rule, set(features), where)
    return rule


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _check(r: Rule, names: set, where: str) -> None:
    def bad(msg):
        raise UserError(f"{where}: {msg}")

    def feature(f):
        if f not in names:
            bad(f"unknown feature '{f}' (this game's features: {', '.join(sorted(names))})")

    def op(o):
        if o not in ("<=", ">="):
            bad(f"comparison '{o}' must be '<=' or '>='")

    if r.kind in ("threshold", "banded"):
        feature(r.feature)
        op(r.op)
        if not all(_num(t) for t in r.thresholds):
            bad("thresholds must be numbers")
    if r.kind == "banded":
        feature(r.band_feature)
        if not 2 <= len(r.thresholds) <= 3 or len(r.cuts) != len(r.thresholds) - 1:
            bad("a banded rule has 2 or 3 thresholds and one cut fewer")
        if not all(_num(c) for c in r.cuts) or list(r.cuts) != sorted(set(r.cuts)):
            bad("the cuts of a banded rule must be increasing numbers")
    if r.kind == "list":
        if len(r.clauses) > 3:
            bad(f"a decision list has at most 3 clauses (got {len(r.clauses)})")
        for f, o, v, _act in r.clauses:
            feature(f)
            op(o)
            if not _num(v):
                bad(f"the value of the clause on '{f}' must be a number")
        if not isinstance(r.default_act, bool):
            bad("default_act must be true or false")
