"""A Ctrl-C that lands between two rounds of a race of rules of thumb keeps the finished rounds.

analyzer/advice/race.py caught an interrupt only inside a round; one landing in the check
between rounds (or in the summary after the last) escaped the race: exit 130 with nothing
printed. Here a real `pushluck magdagdon advice` process signals itself (os.kill, a real SIGINT)
at exactly that place, the check after round 2, so the handler runs there (the same method as
tests/test_reliability_interrupts.py). It also caught MAGDAGDON advice failing after an
interrupted race (its "which power" records assumed every front rule had its spend record:
a KeyError, so "nothing finished")."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
import os, signal, sys
from analyzer.startup import begin
begin()
import analyzer.advice.race as race
calls = []
original = race._interrupt

def signal_between_rounds(exc):
    if exc is None:  # the check after a finished round
        calls.append(1)
        if len(calls) == {at}:
            os.kill(os.getpid(), signal.SIGINT)
    return original(exc)

race._interrupt = signal_between_rounds
sys.argv = ["pushluck", "magdagdon", "advice", "--seed", "3", "--json"]
from analyzer.cli.main import main
main()
"""


def _run(tmp_path: Path, at: int):
    script = tmp_path / "signal_between_rounds.py"
    script.write_text(SCRIPT.format(at=at))
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_a_signal_between_rounds_keeps_the_finished_rounds(tmp_path):
    done = _run(tmp_path, 2)
    assert done.returncode == 130, done.stderr[-600:]
    out = json.loads(done.stdout)  # printed: what finished (the old code printed nothing)
    assert out["race"]["interrupted"] is True
    assert out["race"]["rounds"] == 2  # both finished rounds, none cut short
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) <= 1


SWEEP = """
import os, signal, sys
from analyzer.startup import begin
begin()
from analyzer.runner import Progress
calls = []
original = Progress.update

def signal_in_the_bar(self, *args, **kwargs):
    if self.unit == "cells":  # tune's own bar, not the bars of each cell's games
        calls.append(1)
        if len(calls) == 2:  # its update after the second cell: between two cells
            os.kill(os.getpid(), signal.SIGINT)
    return original(self, *args, **kwargs)

Progress.update = signal_in_the_bar
sys.argv = ["pushluck", "tune", "pig", "--sweep", "goal=30,40,50,60", "--metric",
            "p_first_wins", "-n", "20000", "--seed", "1", "--json"]
from analyzer.cli.main import main
main()
"""


def test_a_signal_between_two_cells_of_a_sweep_keeps_the_finished_cells(tmp_path):
    """tune --sweep: the same window between two cells (the bar's update), where the old code
    lost every finished cell."""
    script = tmp_path / "signal_between_cells.py"
    script.write_text(SWEEP)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 130, done.stderr[-600:]
    out = json.loads(done.stdout)
    assert out["stopped_by"] == "interrupt"
    assert len(out["rows"]) == 2  # the two finished cells (baseline and goal=30), no more
    # stderr: the per-cell log lines of a run without a terminal, then one line saying so
    *cells, last = done.stderr.splitlines()
    assert all(x.startswith("tune: cell ") for x in cells), done.stderr
    assert last == 'interrupted: the JSON holds what finished ("interrupted": true)', last
