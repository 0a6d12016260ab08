"""The place Trash Pandas' page keeps for the bot ladder (issue 37) before the ladder exists.

A recipe may name the part kind ``trash-pandas.ladder``. Until the ladder module lands, the
recipe check refuses it in one line before any part runs (nothing computed, nothing written, no
made-up figure). Once a module stands at ``LADDER_MODULE`` with ``check`` and ``report``, the
part is a balance part like the others: its balances become the seat table, the tidy CSV, the
seat chart and the findings.
"""
from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_recipe_naming_the_ladder_is_refused_in_one_line_until_it_lands(tmp_path):
    recipe = tmp_path / "ladder.toml"
    recipe.write_text('title = "ladder"\ngame = "trash-pandas"\nseed = 1\n\n'
                      '[[parts]]\nname = "first"\nkind = "trash-pandas.policy"\n\n'
                      '[[parts]]\nname = "ladder"\nkind = "trash-pandas.ladder"\n'
                      '[parts.params]\ngames = 100\n')
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "analyzer", "report", str(recipe), "--out",
                           str(out)], capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    err = proc.stderr
    assert proc.returncode == 2, err[-800:]
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert "issue 37" in err and "trash-pandas.ladder" in err
    assert "computing" not in err and not (out / "parts").exists()


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
        return [b], "**Ratings**: one line-up only.", "A stand-in for the ladder."

    mod = types.ModuleType(tp.LADDER_MODULE)
    mod.__spec__ = importlib.machinery.ModuleSpec(tp.LADDER_MODULE, None)
    mod.check, mod.report = check, report
    monkeypatch.setitem(sys.modules, tp.LADDER_MODULE, mod)

    res = part_kind("trash-pandas.ladder").compute({"games": 3000}, {}, 17)
    assert seen == {"check": ({"games": 3000}, {}), "report": ({"games": 3000}, 17)}
    assert {"ladder.csv", "ladder.md", "ladder_seats.svg", "ladder_seats.data.csv"} \
        <= set(res.files)
    assert "**Ratings**: one line-up only." in res.summary
    assert res.meta["how"] == "A stand-in for the ladder."
    # seat 1's 40.0% lies clearly above the fair third: a finding says so
    assert any("40.0%" in f["text"] for f in res.meta["findings"]), res.meta["findings"]
