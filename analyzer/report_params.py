"""Part parameters of report recipes: each part kind declares its parameters with types and bounds.

A game's ``report.py`` lists its part kinds in ``PARTS``; a :class:`~analyzer.report.PartKind`
may carry ``params = {name: Param(...)}``. :func:`check_params` validates a recipe part's
``[parts.params]`` table against it before anything runs: unknown names are refused with the
field name, values are taken strictly (``games = 1000.7`` is not 1000, ``true`` is not 1), numbers
must lie within their bounds, and a ``range`` is two increasing integers. A kind without a
declaration takes no parameters.
"""
from __future__ import annotations

from dataclasses import dataclass

from analyzer.errors import UserError


@dataclass(frozen=True)
class Param:
    """One parameter: ``kind`` is ``int``, ``float``, ``bool``, ``str``, ``ints`` (a list of
    distinct ints), ``strs`` (a list of distinct str), ``weights`` (a table of ``names`` = number), ``range`` (``[low, high]`` with low < high) or ``int-rows`` (a list of lists
    of ``width`` ints). ``low``/``high`` bound every integer; ``max_items`` bounds lists."""

    kind: str
    low: int | None = None
    high: int | None = None
    max_items: int = 100
    width: int | None = None
    max_length: int = 200
    names: tuple = ()
    #: parses one text item (a policy, a line-up) and raises UserError if it is bad
    check: object = None


def _int(where: str, value, p: Param) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(f"{where} must be an integer, got {value!r}")
    if (p.low is not None and value < p.low) or (p.high is not None and value > p.high):
        raise UserError(f"{where} = {value} is outside {p.low}..{p.high}")
    return value


def _list(where: str, value, p: Param) -> list:
    if not isinstance(value, list):
        raise UserError(f"{where} must be a list, got {value!r}")
    if not 1 <= len(value) <= p.max_items:
        raise UserError(f"{where} must list 1 to {p.max_items} items, got {len(value)}")
    return value


def _str(where: str, value, p: Param) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > p.max_length:
        raise UserError(f"{where} must be a non-empty text of at most {p.max_length} characters, "
                        f"got {value!r}")
    if any(c in value for c in "\n\r\x00"):
        raise UserError(f"{where} must be one line")
    if p.check is not None:
        try:
            p.check(value)
        except UserError as exc:
            raise UserError(f"{where}: {exc}") from None
    return value


def check_value(where: str, value, p: Param):
    """Validate one parameter value (``where`` names the field in errors)."""
    if p.kind == "int":
        return _int(where, value, p)
    if p.kind == "float":  # a number within [low, high]; integers are accepted as numbers
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                p.low <= value <= p.high):
            raise UserError(f"{where} must be a number in {p.low}..{p.high}, got {value!r}")
        return float(value)
    if p.kind == "bool":
        if not isinstance(value, bool):
            raise UserError(f"{where} must be true or false, got {value!r}")
        return value
    if p.kind == "str":
        return _str(where, value, p)
    if p.kind == "ints":  # each item once: a repeated player count or score is a typo
        items = [_int(f"{where}[{i}]", v, p) for i, v in enumerate(_list(where, value, p))]
        if len(set(items)) != len(items):
            raise UserError(f"{where} lists an item twice")
        return items
    if p.kind == "strs":
        items = [_str(f"{where}[{i}]", v, p) for i, v in enumerate(_list(where, value, p))]
        if len(set(items)) != len(items):
            raise UserError(f"{where} lists an item twice")
        return items
    if p.kind == "range":
        if not isinstance(value, list) or len(value) != 2:
            raise UserError(f"{where} must be [low, high], got {value!r}")
        low, high = (_int(f"{where}[{i}]", v, p) for i, v in enumerate(value))
        if low >= high:
            raise UserError(f"{where} = {value!r}: low must be below high")
        return value
    if p.kind == "weights":
        if not isinstance(value, dict):
            raise UserError(f"{where} must be a table of name = number, got {value!r}")
        for k, v in value.items():
            if k not in p.names:
                raise UserError(f"{where}.{k}: unknown name (known: {', '.join(p.names)})")
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not (
                    -1e6 <= v <= 1e6):
                raise UserError(f"{where}.{k} must be a finite number, got {v!r}")
        return value
    if p.kind == "int-rows":
        for i, row in enumerate(_list(where, value, p)):
            if not isinstance(row, list) or len(row) != p.width:
                raise UserError(f"{where}[{i}] must be a list of {p.width} integers, got {row!r}")
            for j, v in enumerate(row):
                _int(f"{where}[{i}][{j}]", v, p)
        return value
    raise ValueError(f"unknown parameter kind {p.kind}")  # pragma: no cover - a declaration bug


def check_params(where: str, declared: dict[str, Param] | None, params: dict) -> None:
    """Validate a part's ``params`` table against its kind's declaration (module doc)."""
    declared = declared or {}
    for name, value in params.items():
        if name not in declared:
            known = ", ".join(sorted(declared)) or "none"
            raise UserError(f"{where}.params.{name}: unknown parameter (known: {known})")
        check_value(f"{where}.params.{name}", value, declared[name])
