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

from analyzer.advice.search import Rule
from analyzer.errors import UserError

PREFIX = "rule:"


def is_rule(text: str) -> bool:
    return text.strip().lower().startswith(PREFIX)


#: the largest rule file read (a row of ``advice --json`` with its mistakes is a few kB) and the
#: deepest nesting of lists and objects accepted in it (a row nests about 6 deep)
MAX_RULE_BYTES = 1 << 20
MAX_RULE_DEPTH = 16


def read_rule_data(text: str, game: str = "") -> dict:
    """The rule object of ``rule:FILE.json`` as read (module doc), not yet checked; a row that
    names another ``game`` is refused. The file is read by :mod:`analyzer.userfile` (a regular
    file of at most 1 MiB, never a FIFO or a device) and may nest at most 16 deep."""
    import json

    from analyzer.userfile import read_user_text, shown

    path = text.strip()[len(PREFIX):]
    if not path:
        raise UserError("policy 'rule:' needs a file: rule:FILE.json")
    raw = read_user_text(path, MAX_RULE_BYTES, "rule")
    name = shown(path)
    try:
        data = json.loads(raw)
    except ValueError as e:
        raise UserError(f"rule file '{name}' is not JSON ({str(e).splitlines()[0]})") from None
    except RecursionError:
        raise UserError(f"rule file '{name}' nests more than {MAX_RULE_DEPTH} deep") from None
    if _depth(data) > MAX_RULE_DEPTH:
        raise UserError(f"rule file '{name}' nests more than {MAX_RULE_DEPTH} deep")
    if isinstance(data, dict) and game and data.get("game", game) != game:
        other = data["game"]
        raise UserError(f"rule file '{name}' holds a rule for "
                        f"{other if isinstance(other, str) else 'no game'}, not {game}"[:300])
    if isinstance(data, dict) and isinstance(data.get("rule"), dict):
        data = data["rule"]
    if not isinstance(data, dict):
        raise UserError(f"rule file '{name}': expected a rule object (the `rule` of a row of "
                        f"`advice --json`)")
    return data


def _depth(value, level: int = 1) -> int:
    """How deep lists and objects nest in ``value`` (a scalar is 0 deep); stops counting past
    :data:`MAX_RULE_DEPTH`."""
    if level > MAX_RULE_DEPTH or not isinstance(value, (dict, list)):
        return level - 1 if not isinstance(value, (dict, list)) else level
    items = value.values() if isinstance(value, dict) else value
    return max([_depth(v, level + 1) for v in items], default=level)


def load_rule(text: str, features, game: str = "") -> Rule:
    """The checked rule of ``rule:FILE.json`` (module doc); ``features`` are the game's names."""
    return rule_from_data(read_rule_data(text, game), features, text.strip()[len(PREFIX):])


def rule_from_data(data: dict, features, path: str, what: str = "") -> Rule:
    """A rule object (as read from the file ``path``) checked against the game's ``features``;
    ``what`` names the part of the file it came from in the error messages."""
    from analyzer.userfile import shown

    where = f"rule file '{shown(path)}'" + (f", {what} rule" if what else "")
    if not isinstance(data, dict) or data.get("kind") not in ("threshold", "banded", "list"):
        raise UserError(f"{where}: expected a rule object with kind threshold, banded "
                        f"or list (the `rule` of a row of `advice --json`)")
    _check_shape(data, where)
    try:
        rule = Rule.from_json(data)
    except (KeyError, TypeError, ValueError) as e:
        raise UserError(f"{where}: malformed {data['kind']} rule (bad or missing "
                        f"{e})") from None
    _check(rule, set(features), where)
    return rule


#: the JSON type of each field of a rule object, by kind (``number`` excludes true/false)
SHAPES = {"threshold": {"feature": "name", "op": "name", "threshold": "number"},
          "banded": {"feature": "name", "op": "name", "thresholds": "numbers",
                     "band_feature": "name", "cuts": "numbers"},
          "list": {"clauses": "clauses", "default_act": "bool"}}
CLAUSE_SHAPE = {"feature": "name", "op": "name", "value": "number", "act": "bool"}


def _check_shape(data: dict, where: str) -> None:
    """Every field of the rule object has its JSON type (:data:`SHAPES`): a list or an object
    where a name belongs, a string where a number or true/false belongs, are refused here."""
    def fits(value, shape) -> bool:
        if shape == "name":
            return isinstance(value, str) and len(value) <= 100
        if shape == "number":
            return isinstance(value, (int, float)) and not isinstance(value, bool)
        if shape == "numbers":
            return isinstance(value, list) and len(value) <= 16 and all(
                fits(v, "number") for v in value)
        if shape == "bool":
            return isinstance(value, bool)
        return isinstance(value, list) and len(value) <= 16 and all(
            isinstance(c, dict) and all(k in c and fits(c[k], t) for k, t in
                                        CLAUSE_SHAPE.items()) for c in value)

    words = {"name": "a name (a string)", "number": "a number", "numbers": "a list of numbers",
             "bool": "true or false", "clauses": "a list of clauses, each with feature, op, "
                                                 "value (a number) and act (true or false)"}
    for key, shape in SHAPES[data["kind"]].items():
        if key not in data:
            raise UserError(f"{where}: malformed {data['kind']} rule (missing '{key}')")
        if not fits(data[key], shape):
            raise UserError(f"{where}: '{key}' must be {words[shape]}")


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
