"""Fuzz: malformed values, files and paths for every command family (issue 12).

Each case runs in-process through :func:`analyzer.cli.main.main` and must end without a traceback,
with exit 2 and exactly one stderr line when the input is invalid (never exit 0). ``make test``
runs the issue's own cases and a fast sample of the table plus a few Hypothesis examples;
``make fuzz`` (``PUSHLUCK_FUZZ=full``) runs the whole table (thousands of cases) and many more
Hypothesis examples. The table and the runner live in ``tests/fuzz_harness.py``.

Issue 33's classes (tests/fuzz_classes.py) run here too, sampled in ``make test`` and whole under
``make fuzz``: positions of every type, rule files of every shape, huge and tiny floats, hostile
files inside --out. Those that need real processes (bot knobs, the environment, signals, a full
disk, stdout) run only in ``make fuzz`` (tests/fuzz_main.py, tests/fuzz_process.py).
"""
from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import fuzz_harness as fh

FULL = os.environ.get("PUSHLUCK_FUZZ") == "full"
#: Commands whose invalid input is refused before any kernel runs (fast enough for `make test`).
FAST = ["trash-pandas odds", "trash-pandas policy", "trash-pandas score", "ten deck", "ten odds",
        "ten best", "ten score", "magdagdon score", "gostop score", "canasta score",
        "canasta check", "pig solve", "pig decide", "pig turn", "report"]


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


def _ids(cases, tmp_root: str = "\0"):
    """Test ids that name the temporary folder ``TMP``, so that every pytest-xdist worker, which
    collects the cases again with its own folder, sees the same ids."""
    return [" ".join(a.replace(tmp_root, "TMP")[:24] for a in argv)[:90] for argv, _ in cases]


def _issue_cases():
    import tempfile
    from pathlib import Path

    root = tempfile.mkdtemp(prefix="pushluck-fuzz-")
    return fh.issue_cases(Path(root)), root


ISSUE, ISSUE_ROOT = _issue_cases()


@pytest.mark.parametrize("argv,expect", ISSUE, ids=_ids(ISSUE, ISSUE_ROOT))
def test_issue_case(argv, expect):
    """Every bullet of the issue's "Bad input" and "Writing files safely" lists."""
    assert fh.run_case(argv, expect) == []


def test_table_sample(tmp):
    """A fixed sample of the systematic table (every bad value class of every option) over the
    commands that refuse bad input before any kernel runs; ``make fuzz`` runs all of it."""
    cases = fh.table_cases(tmp)
    if not FULL:
        fast = [c for c in cases if " ".join(c[0][:2]) in FAST or c[0][0] in FAST]
        # 80 of them, about 50 s on 2 cores (150 took 100 s of a 10-minute suite budget)
        cases = random.Random(7).sample(fast, min(80, len(fast)))
    failures = [f for argv, expect in cases for f in fh.run_case(argv, expect)]
    assert failures == [], "\n".join(failures)


COMMAND = st.sampled_from(sorted(fh.COMMANDS) if FULL else FAST)
NOISE = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                max_size=40)


@settings(max_examples=2000 if FULL else 25, deadline=None, derandomize=not FULL,
          suppress_health_check=list(HealthCheck))
@given(command=COMMAND, data=st.data())
def test_hypothesis_option_values(tmp, command, data):
    """Any text for any option: never a traceback; a refusal is exit 2 and one stderr line; a
    value with a newline, a huge integer or a non-finite float is always refused."""
    spec = fh.COMMANDS[command]
    kinds = [k for k in ("int", "n", "float", "list") if spec.get(k)] + (["set"] if spec.get(
        "set") else [])
    if not kinds:
        return
    kind = data.draw(st.sampled_from(kinds))
    option = "--set" if kind == "set" else data.draw(st.sampled_from(spec[kind]))
    if kind in ("int", "n"):
        value, expect = data.draw(st.one_of(
            st.integers(min_value=10 ** 19, max_value=10 ** 40).map(lambda v: (str(v), "invalid")),
            st.integers(max_value=-10 ** 19).map(lambda v: (str(v), "invalid")),
            st.sampled_from(fh.NOT_INT).map(lambda v: (v, "invalid")),
            NOISE.map(lambda v: (v, "any"))))
    elif kind == "float":
        value, expect = data.draw(st.one_of(
            st.sampled_from(fh.BAD_FLOAT).map(lambda v: (v, "invalid")),
            NOISE.map(lambda v: (v, "any"))))
    elif kind == "set":
        key = data.draw(st.sampled_from(["goal", "deck", "bust_at", "players", "x", ""]))
        noise = data.draw(NOISE)
        value, expect = f"{key}={noise}", ("invalid" if "\n" in noise else "any")
    else:
        noise = data.draw(NOISE)
        value, expect = noise, ("invalid" if "\n" in noise else "any")
    argv = fh.with_option(command, option, value, tmp)
    assert fh.run_case(argv, expect) == []


TOML_VALUE = st.recursive(
    st.one_of(st.integers(min_value=-10 ** 25, max_value=10 ** 25), st.booleans(),
              st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=10)),
    lambda inner: st.lists(inner, max_size=4), max_leaves=8)
KEYS = ["goal", "copies", "points", "players", "me", "go_counts", "hand", "melds", "score",
        "name", "kind", "range", "games", "seed", "rules", "game", "counts", "stock", "x"]


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return {float("inf"): "inf", float("-inf"): "-inf"}.get(value, "nan" if value != value
                                                                  else repr(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').encode(
            "unicode_escape").decode("ascii").replace("\\\\", "\\") + '"'
    return "[" + ", ".join(_toml(v) for v in value) + "]"


FILE_OPTIONS = [("pig turn --hold 20 --rules", None), ("ten deck --deck", None),
                ("trash-pandas score --stash A:feesh=1 --deck", None),
                ("trash-pandas score --file", None),
                ("gostop decide -n 4 --seed 1 --position", "[position]"),
                ("canasta score", None), ("canasta decide -n 4 --seed 1", None),
                ("report --out OUT", None)]


@settings(max_examples=1000 if FULL else 20, deadline=None, derandomize=not FULL,
          suppress_health_check=list(HealthCheck))
@given(which=st.sampled_from(FILE_OPTIONS),
       body=st.dictionaries(st.sampled_from(KEYS), TOML_VALUE, min_size=1, max_size=4),
       table=st.sampled_from([None, "[rules]", "[cards.feesh]", "[numbers]", "[me]",
                              "[[parts]]", "[parts.params]"]))
def test_hypothesis_files(tmp, which, body, table):
    """Random TOML documents in every file option: never a traceback, at most a one-line
    refusal with exit 2."""
    prefix, header = which
    lines = [header or table or ""] + [f"{k} = {_toml(v)}" for k, v in body.items()]
    path = tmp / f"h{abs(hash((prefix, tuple(lines)))) % 10 ** 9}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = prefix.replace("OUT", str(tmp / "report-out")).split()
    argv = argv[:2] + [str(path)] + argv[2:] if argv[0] in ("canasta", "report") and len(
        argv) > 1 and argv[1] in ("score", "decide", "--out") else argv + [str(path)]
    if argv[0] == "report":
        argv = ["report", str(path), "--out", str(tmp / "report-out")]
    assert fh.run_case(argv, "any") == []


# ---------------------------------------------------------------- issue 33's classes
def _sample(cases, k, seed):
    return cases if FULL else random.Random(seed).sample(cases, min(k, len(cases)))


def test_positions_of_every_type(tmp):
    """Every field of every example position and score file with a value of another type
    (a string where a boolean belongs, a list or table where a number belongs, …): refused in
    one line. ``make test`` runs 40 refusals (they stop before any kernel); ``make fuzz`` all."""
    from tests import fuzz_classes as fc

    cases = fc.position_type_cases(tmp)
    if not FULL:
        cases = [c for c in cases if c[1] == "invalid"]
    failures = [f for c in _sample(cases, 40, 8) for f in fc.run_prepared(c)]
    assert failures == [], "\n".join(failures)


def test_house_rules_of_every_type(tmp):
    """Every house-rule key of every game, in a --rules file, with a value of another type
    ("false" where a boolean belongs, a list where a number belongs, …): one line, exit 2."""
    from tests import fuzz_classes as fc

    failures = [f for c in _sample(fc.rules_type_cases(tmp), 40, 11)
                for f in fc.run_prepared(c)]
    assert failures == [], "\n".join(failures)


def test_rule_files_of_every_shape(tmp):
    """Rule files of every shape and kind (wrong JSON types, 100,000-deep nesting, a FIFO,
    /dev/zero, 2 MiB, a link loop) in every game's rule-playing command: one line, exit 2."""
    from tests import fuzz_classes as fc

    failures = [f for c in _sample(fc.rule_file_cases(tmp), 30, 9)
                for f in fc.run_prepared(c, timeout=30)]
    assert failures == [], "\n".join(failures)


def test_huge_and_tiny_floats_in_float_options(tmp):
    from tests import fuzz_classes as fc

    cases = fc.float_option_cases(tmp)
    if not FULL:
        cases = [c for c in cases if " ".join(c[0][:2]) in FAST or c[0][0] in FAST]
    failures = [f for c in _sample(cases, 20, 10) for f in fc.run_prepared(c)]
    assert failures == [], "\n".join(failures)


def test_hostile_files_inside_out(tmp):
    """Links, FIFOs, folders and JSON of the wrong shape where `pig solve --out` (``make test``)
    or any --out writer (``make fuzz``) puts its files: nothing outside --out changes, and a
    link, FIFO or folder is refused in one line before anything is written."""
    from tests import fuzz_classes as fc

    cases = fc.hostile_out_cases(tmp, commands=None if FULL else ["pig solve"])
    failures = [f for c in cases for f in fc.run_prepared(c)]
    assert failures == [], "\n".join(failures)
