"""Which house-rule knobs do the tests ever set away from their defaults?

For every game of the registry this reads the fields of its rules dataclass (name and default)
and scans the test files for a spelling that sets the knob to a value:

* ``--set name=value`` or a keyword argument ``name=value`` (``GoStopRules(target=10)``,
  ``replace(rules, name=...)``, ``build_rules(..., sets=["name=value"])``);
* ``name = value`` in a TOML text;
* ``"name": value`` in a dict.

A knob counts as *covered* when one of them gives a value whose text differs from the default's
(``True``/``true``, quotes and spaces ignored). It is a grep, so it over-counts (a value that only
reaches a refusal line, a parse test that never runs a game) and under-counts (knobs set by a loop
over the dataclass's fields); what it lists as never set is worth a look, what it lists as set
says nothing about whether the expected value of that test was computed independently.

A knob set away from its default only in the rules-parsing tests (:data:`PARSING_ONLY`) is
listed as *parsed only*: no game was played or scored under it.

Usage: python tests/mutation/knob_audit.py [--all] [--game KEY]
(default: the knobs never set away from their defaults, or only in parsing tests; ``--all``
lists every knob with the files that set it).
"""
from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: test files that only parse and check rules (a knob set there never reaches a game)
PARSING_ONLY = {"test_game_rules_parsing.py", "test_blind_spots.py", "test_properties_registry.py"}


def knobs(game: str) -> list[tuple[str, object]]:
    """(name, default) of every field of a game's rules dataclass (``game`` a registry key)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from analyzer.games import get_game

    cls = get_game(game).load("rules")
    out = []
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            default = f.default_factory()  # type: ignore[misc]
        else:
            default = None
        out.append((f.name, default))
    return out


def _norm(text: str) -> str:
    t = text.strip().strip("'\"").strip().lower()
    t = t.replace(" ", "").replace("(", "[").replace(")", "]")
    if t.endswith(",]"):
        t = t[:-2] + "]"
    return t


def _default_text(default) -> str:
    if isinstance(default, bool):
        return "true" if default else "false"
    if isinstance(default, tuple):
        return _norm(str(list(default)))
    return _norm(str(default))


def settings(name: str, text: str) -> list[str]:
    """The values ``text`` gives the knob ``name`` (every spelling in the module docstring)."""
    value = r"""("[^"]*"|'[^']*'|\([^)]*\)|\[[^\]]*\]|[^\s,;)\]'"]+)"""
    pats = [rf"(?<![\w-]){re.escape(name)}\s*=\s*{value}",
            rf"(?<![\w-]){re.escape(name.replace('_', '-'))}\s*=\s*{value}",
            rf"""["']{re.escape(name)}["']\s*:\s*{value}"""]
    found = []
    for p in pats:
        found += [m.group(1) for m in re.finditer(p, text)]
    return found


def audit(games: list[str]) -> list[dict]:
    tests = {p: p.read_text() for p in sorted((ROOT / "tests").glob("test_*.py"))}
    rows = []
    for g in games:
        for name, default in knobs(g):
            dtext = _default_text(default)
            files = {}
            for path, text in tests.items():
                vals = [v for v in settings(name, text) if _norm(v) != dtext]
                if vals:
                    files[path.name] = sorted(set(vals))
            rows.append({"game": g, "knob": name, "default": default, "files": files})
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--all", action="store_true", help="list every knob, set or not")
    ap.add_argument("--game", default="", help="one game (registry key, e.g. gostop)")
    args = ap.parse_args()
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from analyzer.games import game_keys

    games = [args.game] if args.game else list(game_keys())
    rows = audit(games)
    never = [r for r in rows if not r["files"]]
    parsed = [r for r in rows if r["files"] and set(r["files"]) <= PARSING_ONLY]
    for r in rows if args.all else never + parsed:
        where = "; ".join(f"{f} ({', '.join(v)[:60]})" for f, v in r["files"].items())
        label = "PARSED ONLY: " if r in parsed else ""
        print(f"{r['game']:13s} {r['knob']:28s} default {str(r['default']):22s} "
              f"{label}{where[:150] if where else 'NEVER SET AWAY FROM ITS DEFAULT'}")
    print(f"\n{len(rows) - len(never)} of {len(rows)} knobs set away from their default in some "
          f"test; never: {len(never)}; only in parsing tests: {len(parsed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
