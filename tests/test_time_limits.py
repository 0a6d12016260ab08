"""--time-limit where issue 12 found none: `tune`, `magdagdon best`, `canasta meld-odds`."""
from __future__ import annotations

import json

from tests.fuzz_harness import run_inprocess


def _json(argv):
    code, out, err, tb = run_inprocess(argv, timeout=300)
    assert tb == "" and code == 0, (code, err, tb)
    return json.loads(out)


def test_tune_starts_no_cell_after_the_time_limit():
    """The baseline always runs; with a limit far below one cell's time no sweep cell starts,
    and the result says it stopped on the time limit (and does not re-run anything)."""
    r = _json(["tune", "pig", "--sweep", "goal=20,30,40,50,60", "-n", "20000", "--seed", "1",
               "--time-limit", "0.000001", "--json"])
    assert r["stopped_by"] == "time-limit"
    assert [row["cell"] for row in r["rows"]] == ["baseline"]
    assert r["rerun"] == []


def test_magdagdon_best_stops_between_block_groups():
    """-n 100,000 would take minutes; a 1 s limit stops after whole groups of 8 blocks
    (block_layout(100000, 32) gives 3125 blocks of 32 games, so a multiple of 256 games)."""
    r = _json(["magdagdon", "best", "--board", "..../..../..../....", "--roll", "1234",
               "-n", "100000", "--seed", "1", "--time-limit", "1", "--json"])
    assert r["stopped_by"] == "time-limit"
    assert 0 < r["n"] < 100000 and r["n"] % 256 == 0
