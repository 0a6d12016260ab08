"""`tune` whole-game metrics accept search bots in --seats (issue 37, "use it where it matters"):
the line-up reaches the games (the search line-up plays other games than the heuristic one on
the same seed) and is named in the result."""
from __future__ import annotations

import json
import subprocess
import sys


def _tune(*seats: str) -> dict:
    proc = subprocess.run([sys.executable, "-m", "analyzer", "tune", "trash-pandas", "--sweep",
                           "deal=3456,2345", "--metric", "first_seat_win_rate", *seats,
                           "-n", "64", "--seed", "1", "--json"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_search_lineup_is_played_and_named():
    search, heuristic = _tune("--seats", "search:20"), _tune()
    assert search["played_by"] == "seats" and search["baseline_policy"] == "search:20"
    assert heuristic["baseline_policy"] == "heuristic"
    rows = lambda out: [r["first_seat_win_rate"]["estimate"] for r in out["rows"]]  # noqa: E731
    # same seed, same deals: only the bots differ, and 64 games of search:20 in every seat do
    # not all end as the heuristic's do
    assert rows(search) != rows(heuristic)
    assert all(r["n"] == 64 for r in search["rows"])
