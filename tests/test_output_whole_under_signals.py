"""The final output is written whole even when a signal lands while it is written.

A Trash Pandas calibrate stopped by Ctrl-C once printed its JSON cut at 196,608 bytes: the
handler's re-check timer (armed when the Ctrl-C landed inside Numba) fired while the large
JSON was still being written to a full pipe, and raised KeyboardInterrupt inside the write.
Here the timer is armed by hand just before `emit` writes 4 MB to a pipe nobody reads yet."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

CHILD = r"""
import signal, sys
from analyzer import interrupts, startup
from analyzer.output import emit
startup.begin()                          # as `pushluck` starts: the handler, the guarded stdout
interrupts.arm()
interrupts.STATE["seen"] = True          # a Ctrl-C came; the command stopped on the flag
payload = {"rows": ["x" * 100] * 40000}  # about 4 MB of JSON
signal.setitimer(signal.ITIMER_REAL, 0.05)  # the handler's re-check, 50 ms from now
emit(payload, True, lambda: "")
sys.stderr.write("finished\n")
"""


@pytest.mark.parametrize("unbuffered", [True, False], ids=["PYTHONUNBUFFERED", "buffered"])
def test_a_recheck_signal_during_a_large_json_does_not_cut_it(unbuffered):
    """Buffered, the signal raised KeyboardInterrupt inside the write (a traceback, half the
    JSON); unbuffered (PYTHONUNBUFFERED=1), with that fixed, the write silently kept 64 kB."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    proc = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    try:
        time.sleep(0.5)  # the pipe fills (64 kB) and the write blocks while the timer fires
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert b"Traceback" not in err, err[-800:]
    assert proc.returncode == 0, (proc.returncode, err[-800:])
    assert len(out) > 4_000_000, (len(out), err[-800:])
    payload = json.loads(out)
    assert len(payload["rows"]) == 40000
    assert b"finished" in err


def test_an_interrupted_json_run_ends_with_one_stop_line(capsys):
    """With --json the stop takes one stderr line: emit's own line when nothing said it yet,
    none after the runner's "interrupted: keeping …"; the text output always ends with the line
    saying what the figures cover (the runner's line came before the table)."""
    from analyzer.errors import mark_interrupted, reset_interrupted
    from analyzer.output import emit, note_interrupted

    def run(as_json, runner_said):
        reset_interrupted()
        mark_interrupted()
        if runner_said:
            note_interrupted("interrupted: keeping the 5 finished games")
        emit({"a": 1}, as_json, lambda: "table")
        got = capsys.readouterr()
        reset_interrupted()
        return got

    got = run(True, True)
    assert json.loads(got.out) == {"a": 1, "interrupted": True}
    assert got.err == "interrupted: keeping the 5 finished games\n"
    got = run(True, False)
    assert got.err == 'interrupted: the JSON holds what finished ("interrupted": true)\n'
    got = run(False, True)
    assert got.out == "table\n"
    assert got.err == ("interrupted: keeping the 5 finished games\n"
                       "interrupted: the figures above cover the trials that finished\n")


def test_a_full_non_blocking_stdout_is_waited_on_not_spun():
    """A raw non-blocking pipe returns None from write when full: the writer waits (select)
    instead of asking again at once. 2 MB through a 64 kB pipe whose reader starts 0.3 s late:
    every byte arrives in order, in a few hundred writes (a spinning loop makes tens of
    thousands in those 0.3 s)."""
    import threading

    from analyzer.startup import _write_whole

    r, w = os.pipe()
    os.set_blocking(w, False)
    raw = os.fdopen(w, "wb", buffering=0)
    calls = []

    class Counting:
        def write(self, data):
            calls.append(len(data))
            return raw.write(data)

        def fileno(self):
            return raw.fileno()

    class Text:
        buffer, encoding, errors = Counting(), "utf-8", "strict"

        def flush(self):
            pass

    got = []

    def read():
        time.sleep(0.3)
        with os.fdopen(r, "rb") as fh:
            got.append(fh.read())

    reader = threading.Thread(target=read)
    reader.start()
    text = "".join(f"{i:07d}\n" for i in range(2 ** 18))  # 2 MiB
    assert _write_whole(Text(), text) == len(text)
    raw.close()
    reader.join(10)
    assert got and got[0] == text.encode()
    assert len(calls) < 2000, len(calls)
