"""A small TOML writer for position files: top-level keys, tables, inline tables and arrays of
tables, with the value types positions use (bool, int, str, list of str, dict of int)."""
from __future__ import annotations

import json


def value_text(v) -> str:
    """One TOML value: strings are JSON-quoted (a TOML basic string is a JSON string for the
    characters positions hold); a dict becomes an inline table."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value_text(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {value_text(x)}" for k, x in v.items()) + " }" if v \
            else "{}"
    raise TypeError(f"no TOML form for {v!r}")


def toml_text(data: dict, header: str = "") -> str:
    """``data`` as a TOML document: plain keys first, then each dict as a ``[table]`` (a dict
    of dicts as ``[name.key]`` tables), then each list of dicts as ``[[name]]`` tables."""
    lines = [f"# {h}" for h in header.splitlines()] if header else []
    tables, arrays = [], []
    for k, v in data.items():
        if isinstance(v, dict):
            tables.append((k, v))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            arrays.append((k, v))
        else:
            lines.append(f"{k} = {value_text(v)}")
    for name, table in tables:
        if table and all(isinstance(x, dict) for x in table.values()):
            for sub, inner in table.items():
                lines += ["", f"[{name}.{sub}]"] + [f"{k} = {value_text(x)}"
                                                    for k, x in inner.items()]
        else:
            lines += ["", f"[{name}]"] + [f"{k} = {value_text(x)}" for k, x in table.items()]
    for name, rows in arrays:
        for row in rows:
            lines += ["", f"[[{name}]]"] + [f"{k} = {value_text(x)}" for k, x in row.items()]
    return "\n".join(lines) + "\n"
