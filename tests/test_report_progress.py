"""`pushluck report` on a terminal shows one progress bar over every part (with parts done of
all and the time left) in at most 80 columns, and no per-part lines; off a terminal it prints
one line per part (issue 38). The terminal is a real pseudo-terminal."""
from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECIPE = """title = "progress"
game = "pig"
seed = 5
[[parts]]
name = "one"
kind = "pig.hold-thresholds"
[parts.params]
range = [10, 12]
[[parts]]
name = "two"
kind = "pig.matchups"
[parts.params]
games = 3000000
pairs = ["hold:20,hold:20"]
[[parts]]
name = "three"
kind = "pig.hold-thresholds"
[parts.params]
range = [12, 14]
"""
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _on_a_terminal(args: list[str], columns: int = 120) -> tuple[int, str]:
    master, slave = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS=str(columns), TERM="xterm")
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", *args], cwd=ROOT, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    chunks, end = [], time.monotonic() + 600
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    code = proc.wait(timeout=60)
    os.close(master)
    return code, b"".join(chunks).decode("utf-8", "replace")


def test_one_bar_with_the_time_left_fitting_80_columns(tmp_path):
    recipe = tmp_path / "progress.toml"
    recipe.write_text(RECIPE)
    code, err = _on_a_terminal(["report", str(recipe), "--out", str(tmp_path / "out")])
    assert code == 0, err[-2000:]
    plain = ANSI.sub("", err).replace("\r", "\n")
    lines = [x for x in plain.splitlines() if x.strip()]
    bars = [x for x in lines if re.search(r"\d+/3 parts", x)]
    assert bars, plain[-2000:]
    assert any("left" in x for x in bars)
    assert any("3/3 parts" in x for x in bars)
    assert max(len(x) for x in lines) <= 80, max(lines, key=len)
    assert "report: computing" not in plain and "written" not in plain


def test_off_a_terminal_one_line_per_part(tmp_path):
    recipe = tmp_path / "progress.toml"
    recipe.write_text(RECIPE.replace("3000000", "3000"))
    proc = subprocess.run([sys.executable, "-m", "analyzer", "report", str(recipe), "--out",
                           str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert [x for x in proc.stderr.splitlines() if x.startswith("report: [")] == [
        "report: [1/3] one written", "report: [2/3] two written", "report: [3/3] three written"]
    assert "\x1b[" not in proc.stderr
