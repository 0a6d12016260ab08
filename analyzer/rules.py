"""House rules: one frozen dataclass per game, loaded from defaults, a TOML file and --set.

Each rules field declares its type by annotation and its limits in ``field(metadata=...)``:
``help`` (one line), ``min``/``max`` (inclusive), ``choices`` (allowed values). Sources apply in
order: the published defaults, then ``--rules FILE.toml`` (a flat table of keys, or the keys under
a ``[rules]`` table), then each ``--set key=value``. Unknown keys, wrong types and out-of-range
values raise :class:`UserError` naming the key.
"""
from __future__ import annotations

import dataclasses
import math
import sys
import typing
from pathlib import Path

from analyzer.errors import UserError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def rule(default, help: str, *, min=None, max=None, choices=None):
    """A rules field with its documentation and limits."""
    meta = {"help": help, "min": min, "max": max, "choices": choices}
    if isinstance(default, (list, dict)):
        return dataclasses.field(default_factory=lambda: type(default)(default), metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


MAX_TOML_BYTES = 1 << 20
MAX_TOML_DEPTH = 8


def load_toml(path: str | Path) -> dict:
    """Read a TOML file or raise a one-line UserError: the one loader for every file option
    (rules, decks, positions, score files, recipes). Refuses files over 1 MiB, text that is not
    UTF-8, nesting deeper than 8 tables/arrays, and anything that is not a regular file."""
    from analyzer.userfile import read_user_text, shown

    p = Path(path)
    text = read_user_text(p, MAX_TOML_BYTES, "TOML")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{shown(p)} is not valid TOML: {' '.join(str(exc).split())}") from None
    except RecursionError:
        raise UserError(f"{shown(p)} nests too deeply") from None
    if _depth(data) > MAX_TOML_DEPTH:
        raise UserError(f"{shown(p)} nests tables or arrays more than {MAX_TOML_DEPTH} deep")
    if not data and (text.startswith("# A game followed by `pushluck play`")
                     or any(line.startswith("#> ") for line in text.splitlines())):
        raise UserError(f"{shown(p)} holds only the entries of a game saved by `pushluck play` "
                        f"where no position could be written: reopen it with `pushluck play "
                        f"GAME --load {shown(p)}`")
    return data


def _depth(value, level: int = 0) -> int:
    if level > MAX_TOML_DEPTH:
        return level
    if isinstance(value, dict):
        return max([_depth(v, level + 1) for v in value.values()], default=level + 1)
    if isinstance(value, list):
        return max([_depth(v, level + 1) for v in value], default=level + 1)
    return level


def _field_types(cls) -> dict:
    hints = typing.get_type_hints(cls)
    return {f.name: (hints[f.name], f) for f in dataclasses.fields(cls)}


def _coerce(name: str, typ, value, from_text: bool):
    """Convert ``value`` to ``typ`` (strictly for TOML values, by parsing for --set text)."""
    origin = typing.get_origin(typ)
    if origin in (tuple, list):
        (inner, *_rest) = typing.get_args(typ) or (str,)
        if from_text:
            text = str(value).strip()
            if text[:1] in "[(" and text[-1:] in "])":  # lists as `rules` prints them
                text = text[1:-1].strip()
            items = [] if text == "" else [v.strip() for v in text.split(",")]
            if any(v == "" for v in items):
                raise UserError(f"rule '{name}': an empty item in '{value}'")
        else:
            if not isinstance(value, (list, tuple)):
                raise UserError(f"rule '{name}' must be a list, got {value!r}")
            items = list(value)
        converted = [_coerce(name, inner, v, from_text) for v in items]
        return tuple(converted) if origin is tuple else converted
    if typ is bool:
        if from_text:
            low = str(value).strip().lower()
            if low in ("true", "yes", "on", "1"):
                return True
            if low in ("false", "no", "off", "0"):
                return False
            raise UserError(f"rule '{name}' must be true or false, got '{value}'")
        if not isinstance(value, bool):
            raise UserError(f"rule '{name}' must be true or false, got {value!r}")
        return value
    if typ is int:
        if from_text:
            try:
                return int(str(value).strip())
            except ValueError:
                raise UserError(f"rule '{name}' must be an integer, got '{value}'") from None
        if isinstance(value, bool) or not isinstance(value, int):
            raise UserError(f"rule '{name}' must be an integer, got {value!r}")
        return value
    if typ is float:
        if from_text:
            try:
                number = float(str(value).strip())
            except ValueError:
                raise UserError(f"rule '{name}' must be a number, got '{value}'") from None
            if not math.isfinite(number):
                raise UserError(f"rule '{name}' must be a finite number, got '{value}'")
            return number
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise UserError(f"rule '{name}' must be a number, got {value!r}")
        if not math.isfinite(float(value)):
            raise UserError(f"rule '{name}' must be a finite number, got {value!r}")
        return float(value)
    if typ is str:
        if not from_text and not isinstance(value, str):
            raise UserError(f"rule '{name}' must be a string, got {value!r}")
        return str(value).strip() if from_text else value
    raise UserError(f"rule '{name}' has an unsupported type")  # pragma: no cover


def _check_limits(name: str, value, meta: dict) -> None:
    values = value if isinstance(value, (list, tuple)) else [value]
    for v in values:
        if meta.get("choices") is not None and v not in meta["choices"]:
            allowed = ", ".join(str(c) for c in meta["choices"])
            raise UserError(f"rule '{name}' = {v!r} is not one of: {allowed}")
        if meta.get("min") is not None and v < meta["min"]:
            raise UserError(f"rule '{name}' = {v!r} is below its minimum {meta['min']}")
        if meta.get("max") is not None and v > meta["max"]:
            raise UserError(f"rule '{name}' = {v!r} is above its maximum {meta['max']}")


def parse_set(text: str) -> tuple[str, str]:
    """Split one ``--set key=value``."""
    if "=" not in text:
        raise UserError(f"--set expects key=value, got '{text}'")
    key, value = text.split("=", 1)
    key = key.strip().replace("-", "_")
    if not key:
        raise UserError(f"--set expects key=value, got '{text}'")
    return key, value


def build_rules(cls, rules_file: str | Path | None = None, sets: list[str] | None = None,
                extra: dict | None = None):
    """Defaults, then the TOML file, then ``extra`` (typed values), then each ``--set``."""
    fields = _field_types(cls)
    values: dict = {}

    def put(key: str, raw, from_text: bool, source: str):
        if key not in fields:
            known = ", ".join(sorted(fields))
            raise UserError(f"unknown rule '{key}' in {source} (known rules: {known})")
        typ, f = fields[key]
        value = _coerce(key, typ, raw, from_text)
        _check_limits(key, value, f.metadata)
        values[key] = value

    if rules_file is not None:
        data = load_toml(rules_file)
        table = data
        if isinstance(data.get("rules"), dict):
            others = [k for k in data if k != "rules"]
            if others:
                raise UserError(f"{rules_file}: keys outside the [rules] table: "
                                f"{', '.join(others)} (put every rule under [rules])")
            table = data["rules"]
        for key, raw in table.items():
            put(key.replace("-", "_"), raw, False, str(rules_file))
    for key, raw in (extra or {}).items():
        put(key, raw, False, "options")
    for text in sets or []:
        key, raw = parse_set(text)
        put(key, raw, True, "--set")
    rules = cls(**values)
    check = getattr(rules, "check", None)
    if check is not None:
        check()
    return rules


def rules_to_dict(rules) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in dataclasses.asdict(rules).items()}


def describe_rules(cls) -> list[tuple[str, str, str]]:
    """(key, default, help) for every rule: used by ``--help`` texts and the README."""
    rows = []
    for f in dataclasses.fields(cls):
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        rows.append((f.name, str(default), f.metadata.get("help", "")))
    return rows
