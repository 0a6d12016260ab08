"""The fuzz classes of issue 33 that run in-process (the table of issue 12 is fuzz_harness.py).

* :func:`position_type_cases`: every field of every game's example position (and score file)
  replaced by a value of another type: a string where a boolean belongs ("false", "no"), a
  boolean, a number, a list or a table where something else belongs, a non-ASCII digit seat.
* :func:`rule_file_cases`: rule files (``rule:FILE.json``) of every shape in every game.
* :func:`float_option_cases`: huge and tiny floats (1e-300, 1e300, 1e400, nan, inf, -0.0, the
  smallest subnormal) in every float option of every command.
* :func:`hostile_out_cases`: links, FIFOs, folders and JSON of the wrong shape where a command
  writes its --out files (each case checks afterwards that nothing outside --out changed).

A case is ``(argv, expect)`` or ``(argv, expect, prepare)``: ``prepare()`` builds the files the
case needs and returns a check run after the command (a list of failures). Bot knobs, the
environment, signals and a full disk need real processes: tests/fuzz_process.py.
"""
from __future__ import annotations

import json
import math
import os
import shutil
from pathlib import Path

from tests import fuzz_harness as fh

DATA = fh.DATA


# ---------------------------------------------------------------- TOML written from data
def toml_value(v) -> str:
    """``v`` as a TOML value (tables inline, so any nesting fits on one line)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "nan" if v != v else "inf" if v == math.inf else "-inf" if v == -math.inf \
            else repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {toml_value(x)}" for k, x in v.items()) \
            + "}"
    return "[" + ", ".join(toml_value(x) for x in v) + "]"


def toml_document(data: dict) -> str:
    return "".join(f"{json.dumps(str(k))} = {toml_value(v)}\n" for k, v in data.items())


# ---------------------------------------------------------------- positions of every type
#: (name, example file, argv with FILE for the position, fields whose value is a boolean)
POSITIONS = [
    ("trash-pandas decide", "trash_pandas_position_example.toml",
     ["trash-pandas", "decide", "FILE", "-n", "20", "--seed", "1"]),
    ("ten decide", "ten_position_example.toml", ["ten", "decide", "FILE", "-n", "10", "--seed", "1"]),
    ("gostop decide", "gostop_position_example.toml",
     ["gostop", "decide", "FILE", "-n", "20", "--seed", "1"]),
    ("canasta decide", "canasta_position_example.toml",
     ["canasta", "decide", "FILE", "-n", "4", "--seed", "1"]),
    ("canasta score", "canasta_score_example.toml", ["canasta", "score", "FILE"]),
]
#: a string where a boolean belongs, and every other type where anything belongs
BOOL_WORDS = ["false", "no", "true", "yes", "0", "1", "off"]
WRONG = [True, False, 0, 1, -1, 2, 1.5, -0.0, 1e300, 1e-300, math.nan, math.inf, 10 ** 30,
         [], [1, 2, 3, 4], ["x"], {}, {"a": 1}, "²", "x" * 3000, ""]


def _paths(d, pre=()):
    items = d.items() if isinstance(d, dict) else enumerate(d) if isinstance(d, list) else ()
    for k, v in items:
        yield pre + (k,), v
        yield from _paths(v, pre + (k,))


def _replaced(d, path, value):
    d = json.loads(json.dumps(d))  # a deep copy (the examples hold no floats out of JSON)
    x = d
    for k in path[:-1]:
        x = x[k]
    x[path[-1]] = value
    return d


def _same_kind(a, b) -> bool:
    kinds = (bool, (int, float), str, list, dict)
    return any(isinstance(a, k) and isinstance(b, k) and not (
        k == (int, float) and (isinstance(a, bool) or isinstance(b, bool))) for k in kinds)


def position_type_cases(tmp: Path, limit_per_file: int | None = None):
    """Every field of every example position and score file with every wrong value: refused
    (exit 2, one line) when the value's type differs from the example's; "any" otherwise
    (a number in range, an empty list). Seat tables get a non-ASCII digit key ``²``."""
    import random

    from analyzer.rules import load_toml

    root = tmp / "positions"
    root.mkdir(parents=True, exist_ok=True)
    cases = []
    for name, example, argv in POSITIONS:
        base = load_toml(DATA / example)
        variants = []
        for path, old in _paths(base):
            values = (BOOL_WORDS if isinstance(old, bool) else []) + WRONG
            for v in values:
                variants.append((path, old, v))
        if limit_per_file is not None and len(variants) > limit_per_file:
            variants = random.Random(5).sample(variants, limit_per_file)
        for k, (path, old, v) in enumerate(variants):
            doc = _replaced(base, path, v)
            f = root / f"{name.replace(' ', '-')}-{k}.toml"
            f.write_text(toml_document(doc), encoding="utf-8")
            wrong = not _same_kind(old, v) or isinstance(v, float) and not math.isfinite(v)
            if isinstance(old, list) and all(isinstance(x, str) for x in old) and \
                    isinstance(v, str) and name.startswith("canasta"):
                wrong = False  # Canasta cards may be one string ("QS QH QD")
            if isinstance(old, (int, float)) and isinstance(v, str) and name == "gostop decide":
                wrong = False  # Go-Stop counters may be written as digit strings (as the flags)
            cases.append(([str(f) if a == "FILE" else a for a in argv],
                          "invalid" if wrong else "any"))
        for table in ("seat",):  # a seat numbered with a non-ASCII digit
            if isinstance(base.get(table), dict):
                doc = json.loads(json.dumps(base))
                doc[table]["\u00b2"] = {}
                f = root / f"{name.replace(' ', '-')}-seat-sup2.toml"
                f.write_text(toml_document(doc), encoding="utf-8")
                cases.append(([str(f) if a == "FILE" else a for a in argv], "invalid"))
    return cases


#: a cheap command per game that reads --rules FILE
RULES_COMMANDS = {"pig": ["pig", "turn", "--hold", "20"], "trash-pandas": ["trash-pandas", "odds"],
                  "ten": ["ten", "deck"], "magdagdon": ["magdagdon", "score", "--board",
                                                       "..../..../..../...."],
                  "gostop": ["gostop", "score", "--captures", "01B 03B 08B"],
                  "canasta": ["canasta", "check", "QS,QH,QD"]}


def rules_type_cases(tmp: Path):
    """Every house-rule key of every game given, in a --rules file, a value of another type
    (a string where a boolean belongs, a boolean where a number belongs, a list, a table):
    refused in one line by the rules loader (analyzer/rules.py)."""
    import dataclasses
    import typing

    from analyzer.games import get_game

    root = tmp / "rules-files"
    root.mkdir(parents=True, exist_ok=True)
    cases = []
    for game, argv in RULES_COMMANDS.items():
        cls = get_game(game).load("rules")
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            typ = hints[f.name]
            values = (BOOL_WORDS if typ is bool else ["7"] if typ in (int, float) else []) + \
                [v for v in WRONG if not _fits(typ, v)]
            for k, v in enumerate(values):
                p = root / f"{game}-{f.name}-{k}.toml"
                p.write_text(toml_document({f.name: v}), encoding="utf-8")
                cases.append((argv + ["--rules", str(p)], "invalid"))
    return cases


def _fits(typ, v) -> bool:
    """True when ``v`` is of the rules field's type (so it may be a valid value)."""
    import typing

    origin = typing.get_origin(typ)
    if origin in (list, tuple):
        inner = (typing.get_args(typ) or (str,))[0]
        return isinstance(v, list) and all(_fits(inner, x) for x in v)
    if typ is bool:
        return isinstance(v, bool)
    if typ is int:
        return isinstance(v, int) and not isinstance(v, bool)
    if typ is float:
        return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    return isinstance(v, typ) if isinstance(typ, type) else True


# ---------------------------------------------------------------- rule files of every shape
#: a command per game that plays ``rule:FILE`` (FILE replaced by the file)
RULE_COMMANDS = [
    ["pig", "simulate", "--seats", "rule:FILE,optimal", "-n", "10", "--seed", "1"],
    ["trash-pandas", "simulate", "--policy", "rule:FILE", "-n", "10", "--seed", "1"],
    ["trash-pandas", "game", "--seats", "rule:FILE,heuristic,heuristic", "-n", "5", "--seed", "1"],
    ["ten", "simulate", "--policy", "rule:FILE", "-n", "10", "--seed", "1"],
    ["ten", "game", "--seats", "rule:FILE", "-n", "5", "--seed", "1"],
    ["gostop", "simulate", "--seats", "rule:FILE", "-n", "10", "--seed", "1"],
    ["canasta", "simulate", "--seats", "rule:FILE", "-n", "2", "--seed", "1"],
    ["magdagdon", "simulate", "--policy", "rule:FILE", "-n", "10", "--seed", "1"],
]
_T = {"kind": "threshold", "feature": "T", "op": "<=", "threshold": 7}


def rule_documents() -> dict[str, object]:
    """JSON documents that no game accepts as a rule (names → data; text for raw bodies)."""
    deep = "[" * 100_000 + "]" * 100_000
    docs: dict[str, object] = {
        "list": [], "string": "x", "number": 5, "null": None, "true": True, "empty": {},
        "rule-list": {"rule": []}, "rule-string": {"rule": "x"},
        "kind-list": {"kind": ["threshold"]}, "kind-dict": {"kind": {"a": 1}},
        "game-list": {"game": ["pig"], "rule": _T}, "game-dict": {"game": {"a": 1}, "rule": _T},
        "game-number": {"game": 5, "rule": _T},
        "magdagdon-strings": {"kind": "magdagdon-power", "max_cost": "5", "min_empty": "0",
                              "max_empty": "0", "which": "fix"},
        "magdagdon-lists": {"kind": "magdagdon-power", "max_cost": [5], "min_empty": {},
                            "max_empty": 0, "which": ["fix"]},
        "canasta-shapes": {"kind": "canasta", "take": [], "go_out": "x"},
        "canasta-knob-strings": {"kind": "canasta", "take_pile_min": "5",
                                 "go_out_min_canastas": True, "go_out_stock_floor": [1]},
        "deep-raw": ("RAW", deep), "deep-object": ("RAW", '{"rule": ' + deep + "}"),
        "nan-raw": ("RAW", '{"kind": "threshold", "feature": "T", "op": "<=", "threshold": NaN}'),
        "huge-raw": ("RAW", '{"kind": "threshold", "feature": "T", "op": "<=", "threshold": '
                            + "9" * 5000 + "}"),
        "inf-raw": ("RAW", '{"kind": "threshold", "feature": "T", "op": "<=", "threshold": 1e400}'),
        "truncated": ("RAW", '{"kind": "threshold", '),
        "binary": ("BYTES", bytes(range(256)) * 4),
        "utf16": ("BYTES", json.dumps(_T).encode("utf-16")),
    }
    for key, bad in [("feature", ["T"]), ("feature", {"T": 1}), ("feature", 5), ("feature", None),
                     ("op", ["<="]), ("op", {}), ("threshold", "7"), ("threshold", True),
                     ("threshold", [7]), ("threshold", {"v": 7})]:
        docs[f"threshold-{key}-{type(bad).__name__}"] = {**_T, key: bad}
    banded = {"kind": "banded", "feature": "T", "op": "<=", "thresholds": [6, 8],
              "band_feature": "cards", "cuts": [3]}
    for key, bad in [("thresholds", {"a": 1}), ("thresholds", ["6", "8"]), ("thresholds", "6,8"),
                     ("cuts", [[3]]), ("cuts", {"c": 3}), ("band_feature", ["cards"]),
                     ("band_feature", {"x": 1})]:
        docs[f"banded-{key}-{type(bad).__name__}"] = {**banded, key: bad}
    clause = {"feature": "T", "op": "<=", "value": 7, "act": True}
    lst = {"kind": "list", "clauses": [clause], "default_act": False}
    for key, bad in [("clauses", {"a": clause}), ("clauses", "T<=7"), ("clauses", ["T<=7"]),
                     ("clauses", [{"feature": "T"}]), ("clauses", [{**clause, "act": "yes"}]),
                     ("clauses", [{**clause, "value": "7"}]), ("clauses", [{**clause,
                                                                          "feature": ["T"]}]),
                     ("default_act", "false"), ("default_act", 0), ("default_act", [False])]:
        docs[f"list-{key}-{type(bad).__name__}-{len(docs)}"] = {**lst, key: bad}
    return docs


def rule_file_cases(tmp: Path):
    """Every rule document in every game's rule-playing command, plus files that are not
    regular files (a FIFO, /dev/zero, a folder, a loop of links, a name too long): refused."""
    root = tmp / "rules"
    root.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, doc in rule_documents().items():
        p = root / f"{name}.json"
        if isinstance(doc, tuple) and doc[0] == "RAW":
            p.write_text(doc[1])
        elif isinstance(doc, tuple):
            p.write_bytes(doc[1])
        else:
            p.write_text(json.dumps(doc))
        paths.append(str(p))
    _plain, fifo, loop = fh.special_files(root, root / "loop2.json",
                                          ("plain.json", "fifo.json", "loop.json"))
    if not (root / "loop2.json").is_symlink():
        (root / "loop2.json").symlink_to(loop)
    big = root / "big.json"
    big.write_text(json.dumps({**_T, "pad": "x" * (2 << 20)}))
    paths += [str(fifo), "/dev/zero", str(root), str(loop), str(big), str(root / ("n" * 5000)),
              str(root / "missing.json")]
    return [([a.replace("FILE", p) for a in argv], "invalid")
            for argv in RULE_COMMANDS for p in paths]


# ---------------------------------------------------------------- huge and tiny floats
FLOATS_INVALID = ["1e400", "-1e400", "nan", "inf", "-inf"]
FLOATS_ARGUABLE = ["1e-300", "1e300", "-0.0", "5e-324", "0.0"]


def float_option_cases(tmp: Path):
    """Every float option of every command with a non-finite value (refused) or a huge, tiny
    or signed-zero one (arguable: accepted or refused in one line, never a traceback or a hang;
    a tiny --precision comes with a short --time-limit where the command takes one)."""
    cases = []
    for command, spec in fh.COMMANDS.items():
        for opt in spec.get("float", []):
            for v in FLOATS_INVALID + FLOATS_ARGUABLE:
                argv = fh.with_option(command, opt, v, tmp)
                if opt == "--precision" and "--time-limit" in spec.get("float", []):
                    argv += ["--time-limit", "1"]
                cases.append((argv, "invalid" if v in FLOATS_INVALID else "any"))
    return cases


# ---------------------------------------------------------------- hostile files inside --out
#: commands that write --out files, each with a fresh folder OUT (a cheap invocation), and the
#: entry of analyzer.output.OUTPUT_NAMES with the options it passes (report: its own check)
OUT_COMMANDS = {
    "pig solve": ["pig", "solve", "--goal", "20", "--chart", "--out", "OUT"],
    "trash-pandas policy": ["trash-pandas", "policy", "--out", "OUT"],
    "ten thresholds": ["ten", "thresholds", "-n", "50", "--seed", "1", "--chart", "--out", "OUT"],
    "magdagdon simulate": ["magdagdon", "simulate", "-n", "20", "--seed", "1", "--chart",
                           "--out", "OUT"],
    "gostop simulate": ["gostop", "simulate", "-n", "50", "--seed", "1", "--chart", "--out",
                        "OUT"],
    "canasta simulate": ["canasta", "simulate", "-n", "2", "--seed", "1", "--chart", "--out",
                         "OUT"],
    "trash-pandas game": ["trash-pandas", "game", "-n", "30", "--seed", "1", "--vs", "random",
                          "--chart", "--out", "OUT"],
    "pig advice": ["pig", "advice", "--set", "goal=20", "--bands", "1", "--clauses", "1",
                   "--max-loss", "0.01", "--out", "OUT"],
    "ten advice": ["ten", "advice", "--bands", "1", "--clauses", "1", "--out", "OUT"],
    "gostop advice": ["gostop", "advice", "--rounds", "1", "--precision", "10", "--seed", "1",
                      "--out", "OUT"],
    "ten calibrate": ["ten", "calibrate", "--players", "2", "-n", "4", "--playouts", "16",
                      "--seed", "1", "--chart", "--out", "OUT"],
    "trash-pandas ladder": ["trash-pandas", "ladder", "--bots", "heuristic,random", "--players",
                            "2", "-n", "8", "--seed", "1", "--chart", "--out", "OUT"],
    "tune": ["tune", "pig", "--sweep", "goal=20,30", "-n", "50", "--seed", "1", "--chart",
             "--out", "OUT"],
    "tune --target": ["tune", "pig", "--target", "p_first_wins in [0.5, 0.6]", "--space",
                      "goal=20..30:10", "-n", "64", "--seed", "1", "--budget", "10000",
                      "--chart", "--out", "OUT"],
    "report": ["report", "RECIPE", "--out", "OUT"],
}
#: (entry of OUTPUT_NAMES, the options that decide its names) for each of OUT_COMMANDS
ENTRY = {"tune": ("tune", {"sweep": True, "chart": True}),
         "tune --target": ("tune", {"target": True, "chart": True}),
         "trash-pandas game": ("trash-pandas game", {"vs": True, "chart": True})}
SMALL_RECIPE = ('title = "t"\ngame = "pig"\nseed = 1\n[[parts]]\nname = "solve"\n'
                'kind = "pig.solve"\n[[parts]]\nname = "turn"\nkind = "pig.hold-thresholds"\n'
                '[parts.params]\nrange = [15, 20]\n')
_WRITTEN: dict[str, list[str]] = {}
#: kinds planted where a file is written: each must be refused (one line, exit 2) before any
#: work, nothing written into --out; JSON of the wrong shape in a file we overwrite may pass
REFUSED = ("link", "dangling", "fifo", "folder", "dir-link", "fifo-lock")


def _argv(command: str, out: Path, tmp: Path) -> list[str]:
    recipe = tmp / "small-recipe.toml"
    recipe.write_text(SMALL_RECIPE)
    return [str(out) if a == "OUT" else str(recipe) if a == "RECIPE" else a
            for a in OUT_COMMANDS[command]]


def written_files(command: str, tmp: Path) -> list[str]:
    """The files ``command`` writes into a fresh --out folder (one run, remembered)."""
    if command not in _WRITTEN:
        out = tmp / "probe" / command.replace(" ", "_")
        shutil.rmtree(out, ignore_errors=True)
        fh.run_inprocess(_argv(command, out, tmp), timeout=300)
        _WRITTEN[command] = sorted(str(p.relative_to(out)) for p in out.rglob("*")
                                   if p.is_file() and not p.name.startswith(".pushluck-probe"))
    return _WRITTEN[command]


def unlisted_names(command: str, written: list[str]) -> list[str]:
    """The files ``command`` wrote that its entry of analyzer.output.OUTPUT_NAMES misses (the
    preflight would not guard them)."""
    import fnmatch

    from analyzer.output import output_patterns

    if command == "report":
        return []
    entry, params = ENTRY.get(command, (command, {"chart": True}))
    patterns = output_patterns(entry, params)
    return [f for f in written if not any(fnmatch.fnmatchcase(f, p) for p in patterns)]


def _snapshot(folder: Path) -> dict:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() and not p.is_symlink()
                                         else "special")
            for p in sorted(folder.rglob("*"))} if folder.exists() else {}


def hostile_out_cases(tmp: Path, per_command: int | None = None, commands=None):
    """For each command of :data:`OUT_COMMANDS` (or of ``commands``) and each file it writes:
    that file as a symbolic link to a file outside --out, a dangling link, a FIFO, a folder, and
    (for JSON files) JSON of the wrong shape; each folder on the way as a link to a folder
    outside. Expected: a link, FIFO or folder refused in one line (exit 2) with nothing written
    into --out (the refusal comes before the work); JSON of the wrong shape accepted or refused
    in one line; never a traceback or a hang, and nothing outside --out written or changed
    (checked after the run). A command that writes a name its OUTPUT_NAMES entry misses is a
    failure too."""
    import random

    cases = []
    for command in (OUT_COMMANDS if commands is None else commands):
        variants = ["fifo-lock"] if command == "report" else []
        kinds = ["link", "dangling", "fifo", "folder", "json-list", "json-string", "json-number"]

        def prepare(command=command, kind="", rel=""):
            case = tmp / "hostile" / f"{command.replace(' ', '_')}-{kind}-{rel.replace('/', '_')}"
            shutil.rmtree(case, ignore_errors=True)
            out, outside = case / "out", case / "outside"
            outside.mkdir(parents=True)
            (outside / "victim.txt").write_text("keep me")
            out.mkdir()
            target = out / rel if rel else out / ".pushluck.lock"
            target.parent.mkdir(parents=True, exist_ok=True)
            if kind == "link":
                target.symlink_to(outside / "victim.txt")
            elif kind == "dangling":
                target.symlink_to(outside / "created-through-a-link")
            elif kind in ("fifo", "fifo-lock"):
                os.mkfifo(target)
            elif kind == "folder":
                target.mkdir()
                (target / "inside.txt").write_text("keep me too")
            elif kind == "dir-link":
                target.symlink_to(outside, target_is_directory=True)
            else:
                target.write_text({"json-list": "[1, 2]", "json-string": '"x"',
                                   "json-number": "5"}[kind])
            before = _snapshot(outside)
            before_out = _snapshot(out)
            inside = (target / "inside.txt").read_bytes() if kind == "folder" else None

            def check():
                fails = []
                if _snapshot(outside) != before:
                    fails.append(f"hostile-out: {command} {kind} {rel}: wrote outside --out")
                if inside is not None and (not (target / "inside.txt").exists()
                                           or (target / "inside.txt").read_bytes() != inside):
                    fails.append(f"hostile-out: {command} {kind} {rel}: a folder's file lost")
                if kind in REFUSED and _snapshot(out) != before_out:
                    fails.append(f"hostile-out: {command} {kind} {rel}: wrote into --out "
                                 "before refusing")
                return fails
            return _argv(command, out, tmp), check

        written = written_files(command, tmp)
        for rel in written:
            for kind in kinds if rel.endswith(".json") else kinds[:4]:
                variants.append((kind, rel))
            parent = str(Path(rel).parent)
            if parent != "." and ("dir-link", parent) not in variants:
                variants.append(("dir-link", parent))
        if per_command is not None and len(variants) > per_command:
            variants = random.Random(3).sample(variants, per_command)
        for v in variants:
            kind, rel = (v, "") if isinstance(v, str) else v
            cases.append(([command, kind, rel], "invalid" if kind in REFUSED else "any",
                          lambda command=command, kind=kind, rel=rel: prepare(command, kind, rel)))
        missing = unlisted_names(command, written)
        if missing or not written:
            def unlisted(command=command, missing=missing):
                def check():
                    return [f"hostile-out: {command} writes {', '.join(missing) or 'nothing'}, "
                            "not in its OUTPUT_NAMES entry (or no probe)"]
                return ["pig", "rules"], check
            cases.append(([command, "names", ""], "any", unlisted))
    return cases


def run_prepared(case, timeout: float = 120.0) -> list[str]:
    """Run a case of any form (two items, or three with ``prepare``)."""
    if len(case) == 2:
        return fh.run_case(case[0], case[1], timeout)
    argv, check = case[2]()
    return fh.run_case(argv, case[1], timeout) + check()
