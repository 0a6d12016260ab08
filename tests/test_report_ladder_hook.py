"""Trash Pandas' page part for the bot ladder (issue 37): the recipe check refuses bad ladder
settings in one line before any part runs (nothing computed, nothing written); the part reads
``LADDER_MODULE``'s ``check`` and ``report`` (a :class:`analyzer.ladder_part.LadderPart`) as a
balance part: its balances become the seat table, the tidy CSV, the seat chart and the
findings, beside the ladder's own findings and files; and the real part, run through
`pushluck report` at test sizes, shows the ratings with their intervals, n and the seed.
"""
from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _report(tmp_path, params: str, tiny: bool = False) -> tuple[subprocess.CompletedProcess, Path]:
    recipe = tmp_path / "ladder.toml"
    recipe.write_text('title = "ladder"\ngame = "trash-pandas"\nseed = 1\n\n'
                      '[[parts]]\nname = "first"\nkind = "trash-pandas.policy"\n\n'
                      '[[parts]]\nname = "ladder"\nkind = "trash-pandas.ladder"\n'
                      '[parts.params]\n' + params)
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if tiny:
        env["PUSHLUCK_REPORT_TINY"] = "1"
    proc = subprocess.run([sys.executable, "-m", "analyzer", "report", str(recipe), "--out",
                           str(out)], capture_output=True, text=True, timeout=600, cwd=tmp_path,
                          env=env)
    return proc, out


@pytest.mark.parametrize("params, words", [
    ('games = 100\nbots = ["heuristic"]\n', "bots needs at least two bots"),
    ('games = 100\nbots = ["heuristic", "nobody"]\n', "unknown bot"),
    ('games = 100\nbots = ["heuristic", "search:0"]\n', "iters"),
    ('games = 1\n', "games = 1"),
])
def test_bad_ladder_settings_are_refused_in_one_line_before_any_part_runs(tmp_path, params,
                                                                          words):
    proc, out = _report(tmp_path, params)
    err = proc.stderr
    assert proc.returncode == 2, err[-800:]
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert words in err and "ladder" in err, err
    assert "computing" not in err and not (out / "parts").exists()


def test_the_ladder_part_runs_through_the_report_at_test_sizes(tmp_path):
    """The shipped recipe's ladder (search:200, heuristic, random; 3 players) at its tiny size
    (6 deals × 21 line-ups): the page lists the three bots with rating intervals, n and the
    part seed once; every adjacent pair has a sentence, and "not separated" exactly when its
    interval in ladder_pairs.csv holds 0."""
    import csv
    import json

    proc, out = _report(tmp_path, 'games = 60\nplayers = 3\n'
                                  'bots = ["search:200", "heuristic", "random"]\n', tiny=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    page = (out / "index.md").read_text()
    manifest = json.loads((out / "parts" / "ladder.json").read_text())
    seed = str(manifest["seed"])
    assert page.count(seed) == 1 and "n = 6 deals × 21 line-ups" in page
    table = [line for line in page.splitlines() if line.startswith("| 1 |") or
             line.startswith("| 2 |") or line.startswith("| 3 |")]
    assert sorted(r.split("|")[2].strip() for r in table) == ["heuristic", "random",
                                                               "search (200)"]
    assert all(" [" in r.split("|")[3] for r in table), table  # every rating with its interval
    with open(out / "ladder" / "ladder_pairs.csv", newline="") as f:
        pairs = list(csv.DictReader(f))
    assert len(pairs) == 2
    from analyzer.botspec import bot_words

    for p in pairs:
        hi, lo = bot_words(p["higher"]), bot_words(p["lower"])
        holds_0 = float(p["ci_low"]) <= 0.0
        said = [f for f in page.lower().splitlines() if f"the {hi} bot" in f
                and f"the {lo} bot" in f and "rated" in f]
        assert len(said) == 1, said
        assert ("does not separate" in said[0]) == holds_0, said
    for name in ("ladder_ratings.csv", "ladder_ratings.svg", "ladder_seats.svg",
                 "ladder_gains.csv", "ladder.csv"):
        assert (out / "ladder" / name).is_file(), name


def test_the_ladder_part_reads_a_ladder_module_as_a_balance_part(monkeypatch):
    """A stand-in module (hand-made counts: seat 1 wins 1,200 of 3,000 3-player games, seats 2
    and 3 900 each) in the ladder's place: the part passes the recipe's parameters to ``check``
    and its settings and seed to ``report``, and writes the balance files of that line-up."""
    from analyzer.balance import Balance, add_seats
    from analyzer.games.trash_pandas import report as tp
    from analyzer.report import part_kind
    from analyzer.stats import wilson

    seen = {}

    def check(params, rules):
        seen["check"] = (params, rules)
        return {"games": params["games"]}

    def report(settings, seed):
        seen["report"] = (settings, seed)
        b = Balance("search against heuristic bots", 3, 3000, seed)
        add_seats(b, [wilson(1200, 3000), wilson(900, 3000), wilson(900, 3000)])
        from analyzer.balance import Finding
        from analyzer.ladder_part import LadderPart

        return LadderPart([b], "**Ratings**: one line-up only.", "A stand-in for the ladder.",
                          [Finding("The stand-in is rated above nothing.", 4)],
                          {"ladder_ratings.csv": b"bot\nstand-in\n"})

    mod = types.ModuleType(tp.LADDER_MODULE)
    mod.__spec__ = importlib.machinery.ModuleSpec(tp.LADDER_MODULE, None)
    mod.check, mod.report = check, report
    monkeypatch.setitem(sys.modules, tp.LADDER_MODULE, mod)

    res = part_kind("trash-pandas.ladder").compute({"games": 3000}, {}, 17)
    assert seen == {"check": ({"games": 3000}, {}), "report": ({"games": 3000}, 17)}
    assert {"ladder.csv", "ladder.md", "ladder_seats.svg", "ladder_seats.data.csv",
            "ladder_ratings.csv"} <= set(res.files)
    assert "**Ratings**: one line-up only." in res.summary
    assert res.meta["how"] == "A stand-in for the ladder."
    # seat 1's 40.0% lies clearly above the fair third: a finding says so
    assert any("40.0%" in f["text"] for f in res.meta["findings"]), res.meta["findings"]
    assert {"text": "The stand-in is rated above nothing.", "priority": 4} \
        in res.meta["findings"]
