"""Every command's text fits an 80-column terminal (issue 35, item 3): stdout and stderr of one
small run of every command (each game's commands, `tune`, `report`, `bench`), and every
command's `--help`, run with COLUMNS=80.

The runs are the JSON contract's invocations (tests/test_json_contract.py: one small run per
command) in text mode, with the long races cut to one round and few recorded games, plus the
cross-game verbs; only `play` is left out (its app needs a terminal: tests/test_play*.py). A
line is measured in characters as printed (the progress bar is off without a terminal; its width
under a real 80-column terminal is tests/test_progress_width.py's).
"""
from __future__ import annotations

import pytest

from tests.clitree import leaves
from tests.fuzz_harness import run_inprocess
from tests.test_json_contract import INVOCATIONS

WIDTH = 80
#: the JSON contract's run of these commands, made cheaper (the text is the same code path)
CHEAPER = {
    ("ten", "game-advice"): ["--players", "2", "--rounds", "1", "--precision", "1",
                             "--band-by", "none", "--record-games", "20", "--seed", "1"],
    ("gostop", "advice"): ["--rounds", "1", "--precision", "10", "--record-games", "100",
                           "--seed", "1"],
    ("canasta", "advice"): ["--rounds", "1", "--precision", "1", "--record-games", "4",
                            "--seed", "1"],
}
MORE = [
    ["tune", "pig", "--sweep", "goal=50,100", "-n", "2000", "--top", "1", "--seed", "1"],
    ["tune", "ten", "--sweep", "bust_at=9,10", "--metric", "bust_rate", "--metric", "value",
     "-n", "2000", "--top", "1", "--seed", "1"],
    ["tune", "pig", "--target", "p_first_wins ~ 0.55", "--space", "goal=20..40:10", "-n", "512",
     "--budget", "5000", "--seed", "1"],
    ["tune", "trash-pandas", "--list-metrics"],
    ["report", "--list"],
    ["trash-pandas", "score", "--stash", "Alice:feesh=3:blammo=2,Bob:feesh=3,Carol:feesh=1"],
    ["gostop", "score", "--captures", "02A,04A,08A,05A,06A,07A", "--opponents",
     "01B:03B,11J1:12D"],
    ["bench", "--queries", "--game", "pig"],
    ["canasta", "decide", "--example", "goout", "-n", "40", "--seed", "1"],
]
#: commands no run here reaches, and why
NOT_RUN = {("play", "trash-pandas"): "an interactive app: it needs a terminal",
           ("play", "ten"): "an interactive app: it needs a terminal"}
RUNS = [[g, c, *CHEAPER.get((g, c), a)] for g, c, a in INVOCATIONS] + MORE


def _wide(text: str) -> list[str]:
    return [line for line in text.split("\n") if len(line) > WIDTH]


def test_every_command_is_run_here():
    run = {tuple(argv[:2]) for argv in RUNS} | {tuple(argv[:1]) for argv in RUNS}
    missing = [p for p, _c in leaves() if p not in run and p not in NOT_RUN]
    assert not missing, missing


@pytest.mark.parametrize("argv", RUNS, ids=[" ".join(a[:2]) for a in RUNS])
def test_a_run_fits_80_columns(argv, monkeypatch):
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    code, out, err, tb = run_inprocess(argv, timeout=240)
    assert not tb and code == 0, (tb, err[-2000:])
    assert out.strip(), "no text to measure"
    wide = _wide(out) + _wide(err)
    assert not wide, "\n".join(wide[:5])


@pytest.mark.parametrize("path", [p for p, _c in leaves()], ids=[" ".join(p) for p, _c in leaves()])
def test_a_help_fits_80_columns(path, monkeypatch):
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    code, out, err, tb = run_inprocess([*path, "--help"])
    assert not tb and code == 0, err
    assert not _wide(out), "\n".join(_wide(out)[:5])


def test_the_check_sees_a_wide_line():
    assert _wide("x" * 80 + "\n" + "é" * 80) == []
    assert _wide("ok\n" + "y" * 81) == ["y" * 81]


def test_a_table_wraps_its_text_column_under_itself_and_only_that():
    from analyzer.output import table

    text = table([("k", "v", "one two three four five six seven eight nine ten")],
                 ["key", "value", "meaning"], "lll", width=30)
    # the last column starts at 3 + 2 + 5 + 2 = 12 and gets max(20, 30 − 12) = 20 characters
    assert text.split("\n") == ["key  value  meaning",
                                "---  -----  --------------------",
                                "k    v      one two three four",
                                "            five six seven eight",
                                "            nine ten"]
    # within the width nothing changes; a right-aligned (numeric) last column never wraps
    assert table([("a", "b c")], ["x", "y"], "ll", width=30).split("\n")[2] == "a  b c"
    wide = table([("a", "1 2 3 4 5 6 7 8 9 10 11 12")], ["x", "y"], "lr", width=10)
    assert wide.split("\n")[2] == "a  1 2 3 4 5 6 7 8 9 10 11 12"
    assert table([("a", "x " * 60)], ["x", "y"], "ll", width=None).count("\n") == 2
