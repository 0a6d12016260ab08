"""A signal that lands at an exact place of a long command, not at a random moment.

A Ctrl-C sent from outside lands wherever the process happens to be, so a test that signals
after a sleep reaches a narrow window (between two rounds of a search) only now and then: the
flaky `tune --target` test failed when the signal fell in the search's own bookkeeping (the
next round's plan, the verdicts, the saved state) instead of inside a round. Here the command
runs in a real `pushluck` process whose code is wrapped so that it signals itself (os.kill, a
real SIGINT or SIGTERM) exactly at the place under test; the handler then runs at the next
bytecode, inside that place.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: decided in 7 rounds of a few hundred milliseconds each (warm cache)
SEARCH = ["tune", "pig", "--target", "p_first_wins in [0.52, 0.6]", "--space", "goal=30..60:10",
          "-n", "1024", "--seed", "2", "--json"]

#: ``{where}`` (module, attribute path) is wrapped: in round ``{round}`` it signals itself
#: before (``when = "before"``) or after (``"after"``) the wrapped call
WRAPPER = """
import os, signal, sys
from analyzer.startup import begin
begin()
import importlib
module = importlib.import_module({module!r})
owner = getattr(module, {owner!r}) if {owner!r} else module
original = getattr(owner, {name!r})

def wrapped(*args, **kwargs):
    r = {round_of}
    if r == {round} and {when!r} == "before":
        os.kill(os.getpid(), {sig})
    value = original(*args, **kwargs)
    if r == {round} and {when!r} == "after":
        os.kill(os.getpid(), {sig})
    return value

setattr(owner, {name!r}, wrapped)
sys.argv = ["pushluck", *{argv!r}]
from analyzer.cli.main import main
main()
"""


def _run_signalling(tmp_path: Path, argv: list[str], module: str, owner: str, name: str,
                    round_of: str, round_: int, when: str, sig: int):
    script = tmp_path / "signal_at_a_place.py"
    script.write_text(WRAPPER.format(module=module, owner=owner, name=name, round_of=round_of,
                                     round=round_, when=when, sig=int(sig), argv=argv))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    return done.returncode, done.stdout, done.stderr


def _search(out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "analyzer", *SEARCH, "--out", str(out)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.fixture(scope="module")
def whole_search(tmp_path_factory) -> tuple[Path, int]:
    """The search run once without a signal: its folder and its number of rounds."""
    out = tmp_path_factory.mktemp("whole") / "o"
    done = _search(out)
    assert done.returncode == 0, done.stderr[-800:]
    return out, len(json.loads(done.stdout)["rounds"])


def _cells(folder: Path) -> bytes:
    return (folder / "cells.csv").read_bytes()


# (what is wrapped, how the wrapper knows the round, the round, before/after the call)
PLACES = {
    # the next round's plan, right after round 1 was saved (the flaky test's landing place)
    "after-save": ("analyzer.tune_target", "SearchState", "save", "args[2]", 1, "after"),
    # inside the save of round 2 (the state file must stay whole)
    "in-save": ("analyzer.tune_target", "SearchState", "save", "args[2]", 2, "before"),
    # inside the verdicts of round 2, after its totals were added
    "in-decide": ("analyzer.tune_target", "_Context", "decide", "args[3]", 2, "before"),
    # the plan of round 3 (wanted is called once per round: args[2] is the round)
    "in-plan": ("analyzer.tune_target", "_Context", "wanted", "args[2]", 3, "before"),
}
#: the rounds an interrupted search has recorded: the round whose bookkeeping the signal hit
#: is finished (applied, decided, saved whole), none after it starts
RECORDED = {"after-save": 1, "in-save": 2, "in-decide": 2, "in-plan": 2}


@pytest.mark.parametrize("place", list(PLACES))
def test_a_signal_between_rounds_keeps_every_recorded_round_and_resumes_identically(
        tmp_path, place, whole_search):
    """Ctrl-C landing in the search's bookkeeping between rounds: exit 130, one JSON object
    marked interrupted with the rounds recorded so far, the files written, the saved state at
    that round; a rerun resumes and ends with the same cells.csv, byte for byte, as a search
    never interrupted (before the fix: exit 130, empty stdout, 'interrupted: nothing
    finished', because the KeyboardInterrupt escaped the search)."""
    whole, rounds = whole_search
    assert rounds > RECORDED[place] + 1  # the signal really cuts the search short

    cut = tmp_path / "cut"
    module, owner, name, round_of, round_, when = PLACES[place]
    code, out, err = _run_signalling(tmp_path, [*SEARCH, "--out", str(cut)], module, owner,
                                     name, round_of, round_, when, signal.SIGINT)
    assert code == 130, err[-800:]
    assert "Traceback" not in err and "nothing finished" not in err, err[-800:]
    res = json.loads(out)
    assert res["interrupted"] is True and res["stopped_by"] == "interrupt"
    assert [r["round"] for r in res["rounds"]] == list(range(1, RECORDED[place] + 1))
    assert (cut / "cells.csv").exists()

    again = _search(cut)
    assert again.returncode == 0, again.stderr[-800:]
    assert f"resuming after round {RECORDED[place]}" in again.stderr
    assert _cells(cut) == _cells(whole)


def test_sigterm_between_rounds_exits_143_with_the_rounds_recorded(tmp_path):
    """The same for SIGTERM (a job scheduler stopping the search): exit 143, JSON kept."""
    module, owner, name, round_of, round_, when = PLACES["in-decide"]
    code, out, err = _run_signalling(tmp_path, [*SEARCH, "--out", str(tmp_path / "o")],
                                     module, owner, name, round_of, round_, when,
                                     signal.SIGTERM)
    assert code == 143, err[-800:]
    res = json.loads(out)
    assert res["interrupted"] is True and len(res["rounds"]) == RECORDED["in-decide"]
    assert "Traceback" not in err and "nothing finished" not in err, err[-800:]
