"""The fuzz classes of issue 33 that need a real `pushluck` process (tests/fuzz_classes.py has
the in-process ones):

* :func:`knob_cases`: huge, tiny and non-finite numbers in every bot knob of every game (a
  kernel that loops on a user's number cannot be stopped in-process, so each runs in its own
  process, killed at the time limit);
* :func:`env_cases`: the environment (NUMBA_NUM_THREADS, NUMBA_THREADING_LAYER, COLUMNS,
  PUSHLUCK_CACHE_DIR pointing at a file, a FIFO, a device...);
* :func:`signal_cases`: SIGINT and SIGTERM at random moments during every long command,
  from the first tenth of a second (Python still importing) on;
* :func:`disk_full_cases`: every command that writes --out, into a tiny tmpfs (needs the right
  to mount; skipped otherwise), and stdout on a full device (``/dev/full``) or closed.

A case is a :class:`ProcCase`; :func:`run_proc_case` runs it and returns its failures (an empty
list is a pass): a traceback or "Exception ignored" on stderr, death by a signal (a crash), a
hang past the time limit, an exit code the case does not allow, or more than one stderr line
with exit code 1 or 2.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "analyzer" / "data"


@dataclass
class ProcCase:
    label: str
    argv: list[str]
    allowed: tuple = (0, 2)  # exit codes allowed
    env: dict = field(default_factory=dict)
    signal_at: float | None = None  # seconds after the start
    signum: int = signal.SIGINT
    stdout: str = "pipe"  # "pipe", "full" (/dev/full) or "closed"
    timeout: float = 90.0
    prepare: Callable | None = None  # () -> check() -> list of failures
    json_out: bool = False  # stdout must be empty or one JSON object
    #: count ``signal_at`` from the moment pushluck's handler is in place (SIGTERM caught), not
    #: from the start: before it only Python's own start-up runs (its ``site`` imports), which
    #: no program can guard
    after_handler: bool = False


def _env(extra: dict) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_NUM_THREADS", "COLUMNS")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    for k, v in extra.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return env


def wait_until_handled(proc, signum: int, timeout: float = 10.0) -> bool:
    """Poll /proc/PID/status until ``proc`` has a handler for ``signum``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end and proc.poll() is None:
        try:
            with open(f"/proc/{proc.pid}/status") as fh:
                caught = next((int(x.split()[1], 16) for x in fh if x.startswith("SigCgt:")), 0)
        except OSError:
            caught = 0
        if caught & (1 << (signum - 1)):
            return True
        time.sleep(0.001)
    return False


def run_proc_case(case: ProcCase) -> list[str]:
    check = case.prepare() if case.prepare else None
    if case.stdout == "full":
        out = open("/dev/full", "wb")  # noqa: SIM115 - closed below
    elif case.stdout == "closed":
        out = None
    else:
        out = subprocess.PIPE
    kwargs = dict(stdout=out, stderr=subprocess.PIPE, env=_env(case.env), cwd=str(ROOT),
                  start_new_session=True)
    if case.stdout == "closed":
        kwargs["stdout"] = subprocess.DEVNULL
        # close fd 1 in the child (``>&-``) before Python starts
        kwargs["preexec_fn"] = lambda: os.close(1)
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", *case.argv], **kwargs)
    fails = []
    try:
        if case.signal_at is not None:
            if case.after_handler:
                wait_until_handled(proc, signal.SIGTERM)
            time.sleep(case.signal_at)
            if proc.poll() is None:
                proc.send_signal(case.signum)
        try:
            stdout, stderr = proc.communicate(timeout=case.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            stdout, stderr = proc.communicate()
            fails.append(f"timeout: {case.label} (killed after {case.timeout:.0f} s)")
    finally:
        if case.stdout == "full":
            out.close()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    err = (stderr or b"").decode(errors="replace")
    code = proc.returncode
    lines = err.splitlines()
    if fails:
        return fails
    if "Traceback" in err or "Exception ignored" in err or "Error calling" in err:
        tail = [x for x in lines if x.strip()][-1:] or [""]
        fails.append(f"traceback: {case.label} -> {tail[0][:160]}")
    if code is not None and code < 0:
        fails.append(f"crash: {case.label}: killed by signal {-code}: {err.strip()[-160:]!r}")
    elif code not in case.allowed:
        fails.append(f"exit {code}: {case.label}: {err.strip()[-200:]!r}")
    if code == 2 and len(lines) != 1:  # bad input is refused before any work: one line
        fails.append(f"{len(lines)} stderr lines: {case.label}: {err.strip()[-200:]!r}")
    if code == 1 and not (lines and lines[-1].startswith("pushluck: error:")):
        # a failed write may follow progress notes; the error is the last line, alone
        fails.append(f"exit 1 without a last error line: {case.label}: "
                     f"{err.strip()[-200:]!r}")
    if case.signal_at is not None and code == 128 + case.signum:
        if not lines or not any(w in lines[-1] for w in ("interrupted", "terminated")):
            fails.append(f"signal: {case.label}: the last stderr line is {lines[-1:]!r}")
    if case.json_out and stdout and stdout.strip():
        try:
            payload = json.loads(stdout)
            if code == 128 + case.signum and payload.get("interrupted") is not True:
                fails.append(f"signal: {case.label}: JSON not marked interrupted")
        except ValueError:
            fails.append(f"signal: {case.label}: stdout is not one JSON object")
    if check is not None:
        fails += check(code)
    return fails


# ---------------------------------------------------------------- bot knobs
INT_VALUES = ["-1", "0", "1", "1000000", "99999999999999999999"]
ODD_VALUES = ["1e-300", "1e300", "-0.0", "1.5", "5e-324"]
BAD_VALUES = ["1e400", "nan", "inf", "-inf"]
#: per game: the command (BOT replaced by the bot) and the bots with each knob set to VALUE
KNOBS = {
    "ten": (["ten", "game", "--players", "3", "--seats", "BOT", "-n", "4", "--seed", "1"],
            [f"threshold:{k}=VALUE" for k in (
                "stop-at", "stop-at-2", "stop-at-3", "cut-1", "cut-2", "tokens-per-point",
                "card-bonus", "opp-weight", "min-gain")]
            + [f"exact:{k}=VALUE" for k in ("card", "token", "bust", "opp")]
            + ["cards:after=VALUE", "random:draw-chance=VALUE", "rollout:VALUE"]),
    "trash-pandas": (["trash-pandas", "game", "--seats", "BOT", "-n", "4", "--seed", "1"],
                     [f"heuristic:{k}=VALUE" for k in (
                         "stop-at", "bonus-stop-at", "keep", "yumyum-at", "cut-1", "cut-2",
                         "stop-at-2", "stop-at-3")] + ["rollout:VALUE"]),
    "magdagdon": (["magdagdon", "simulate", "--policy", "BOT", "-n", "5", "--seed", "1"],
                  ["greedy:max-cost=VALUE", "greedy:min-empty=VALUE", "greedy:max-empty=VALUE",
                   "rollout:VALUE"]),
    "gostop": (["gostop", "simulate", "--seats", "BOT", "-n", "20", "--seed", "1"],
               ["go:VALUE", "go:1:VALUE"]),
    "canasta": (["canasta", "simulate", "--seats", "BOT", "-n", "1", "--seed", "1"],
                ["builder:VALUE", "builder:10:VALUE"]),
    "pig": (["pig", "simulate", "--seats", "BOT", "-n", "200", "--seed", "1"], ["hold:VALUE"]),
}


def knob_cases(sample: int | None = None, seed: int = 4) -> list[ProcCase]:
    """Every knob of every game's bots with every value class; non-finite values must be
    refused, the rest accepted or refused in one line, every run ending within its limit."""
    cases = []
    for game, (argv, bots) in KNOBS.items():
        for bot in bots:
            for value in INT_VALUES + ODD_VALUES + BAD_VALUES:
                b = bot.replace("VALUE", value)
                cases.append(ProcCase(f"{game} {b}", [b if a == "BOT" else a for a in argv],
                                      allowed=(2,) if value in BAD_VALUES else (0, 2),
                                      timeout=120))
    if sample is not None and sample < len(cases):
        cases = random.Random(seed).sample(cases, sample)
    return cases


# ---------------------------------------------------------------- the environment
ENV_COMMANDS = [["pig", "decide", "--me", "10", "--opp", "20"],
                ["pig", "simulate", "-n", "2000", "--seed", "1", "--json"],
                ["trash-pandas", "odds"], ["pig", "--help"]]


def env_cases(tmp: Path) -> list[ProcCase]:
    """NUMBA_NUM_THREADS, NUMBA_THREADING_LAYER, COLUMNS and the cache folder set to hostile
    values: a bad Numba setting is refused before Numba starts (one line, exit 2), the rest
    run (a cache folder that cannot be used only costs speed)."""
    from tests.fuzz_harness import special_files

    a_file, fifo, dangling = special_files(tmp, tmp / "nowhere", ("a-file", "a-fifo", "dangling"))
    values = {
        "NUMBA_NUM_THREADS": ["0", "-1", "abc", "", "100000", "1.5", "1", "2", " 2 ",
                              "99999999999999999999"],
        "NUMBA_THREADING_LAYER": ["bogus", "", "workqueue", "omp", "tbb"],
        "COLUMNS": ["abc", "-5", "0", "1", "99999999999999999999", "", "1e400"],
        "LINES": ["abc", "-1", "0"],
        "PUSHLUCK_CACHE_DIR": [str(a_file), str(fifo), "/dev/null", "/proc/pushluck",
                               str(dangling), str(tmp / ("c" * 5000)), str(a_file / "sub")],
        "XDG_CACHE_HOME": [str(a_file), str(fifo)],
        "PUSHLUCK_NO_CACHE": ["1", "yes", ""],
        "HOME": [None, "/nonexistent", str(a_file)],
    }
    cases = []
    for var, vs in values.items():
        for v in vs:
            for argv in ENV_COMMANDS:
                cases.append(ProcCase(f"{var}={v!r:.40} {' '.join(argv)}", list(argv),
                                      env={var: v}, timeout=120))
    return cases


# ---------------------------------------------------------------- signals at random moments
#: long commands (each runs far past the moment of the signal)
LONG = {
    "pig simulate": ["pig", "simulate", "-n", "100000000000", "--seed", "1", "--json"],
    "gostop simulate": ["gostop", "simulate", "-n", "10000000000", "--seed", "1", "--json"],
    "ten simulate": ["ten", "simulate", "-n", "100000000000", "--seed", "1", "--json"],
    "magdagdon simulate": ["magdagdon", "simulate", "-n", "10000000000", "--seed", "1",
                           "--json"],
    "canasta simulate": ["canasta", "simulate", "-n", "100000000", "--seed", "1", "--json"],
    "trash-pandas simulate": ["trash-pandas", "simulate", "-n", "100000000000", "--seed", "1",
                              "--json"],
    "trash-pandas game": ["trash-pandas", "game", "-n", "1000000000", "--seed", "1", "--json"],
    "ten game": ["ten", "game", "-n", "1000000000", "--seed", "1", "--json"],
    "gostop decide": ["gostop", "decide", str(DATA / "gostop_position_example.toml"),
                      "-n", "10000000000", "--seed", "1", "--json"],
    "canasta decide": ["canasta", "decide", str(DATA / "canasta_position_example.toml"), "-n",
                       "100000000", "--seed", "1", "--json"],
    "trash-pandas decide": ["trash-pandas", "decide",
                            str(DATA / "trash_pandas_position_example.toml"), "-n",
                            "10000000000", "--seed", "1", "--json"],
    "ten decide": ["ten", "decide", str(DATA / "ten_position_example.toml"), "-n",
                   "10000000000", "--seed", "1", "--json"],
    "pig advice": ["pig", "advice", "--json"],
    "trash-pandas game-advice": ["trash-pandas", "game-advice", "--players", "2", "--seed", "1",
                                 "--json", "--out", "OUT"],
    "ten game-advice": ["ten", "game-advice", "--players", "2", "--seed", "1", "--json",
                        "--out", "OUT"],
    "gostop advice": ["gostop", "advice", "--seed", "1", "--json"],
    "canasta advice": ["canasta", "advice", "--seed", "1", "--json"],
    "magdagdon advice": ["magdagdon", "advice", "--seed", "1", "--json"],
    "ten thresholds": ["ten", "thresholds", "-n", "100000000", "--seed", "1", "--json"],
    "tune --target": ["tune", "pig", "--target", "p_first_wins in [0.5, 0.5001]", "--space",
                      "goal=20..60:10", "--seed", "1", "--out", "OUT", "--json"],
    "tune": ["tune", "pig", "--sweep", "goal=20,30,40", "-n", "100000000", "--seed", "1",
             "--json"],
    "report": ["report", "reports/recipes/pig.toml", "--out", "OUT"],
}


def signal_cases(tmp: Path, per_command: int = 4, seed: int = 33) -> list[ProcCase]:
    """SIGINT and SIGTERM at random moments of every long command: one of each early (within
    0.3 s of pushluck's handler being in place, while Typer, NumPy and Numba are imported), the
    others within 6 s of the start. Expected: exit 128 + the signal
    (0 if the command happened to finish first), one last line saying it was interrupted or
    terminated, no traceback, the JSON on stdout (if any) marked interrupted, and a report's
    lock released."""
    rnd = random.Random(seed)
    cases = []
    for name, argv in LONG.items():
        for k in range(per_command):
            signum = (signal.SIGINT, signal.SIGTERM)[k % 2]
            early = k < 2  # a SIGINT and a SIGTERM while the imports run, the rest later
            at = rnd.uniform(0.0, 0.3) if early else rnd.uniform(0.3, 6.0)
            out = tmp / f"sig-{name.replace(' ', '_')}-{k}"

            def prepare(out=out):
                shutil.rmtree(out, ignore_errors=True)

                def check(code):
                    lock = out / ".pushluck.lock"
                    return [f"signal: lock left behind in {out}"] if lock.exists() else []
                return check

            cases.append(ProcCase(f"{name} {signal.Signals(signum).name} at {at:.2f} s",
                                  [str(out) if a == "OUT" else a for a in argv],
                                  allowed=(0, 128 + signum), signal_at=at, signum=signum,
                                  timeout=90, prepare=prepare, json_out="--json" in argv,
                                  after_handler=early))
    return cases


# ---------------------------------------------------------------- a full disk
def can_mount() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("mount") is not None


@dataclass
class Tmpfs:
    """A tmpfs of ``size`` at ``where`` (mounted by :meth:`__enter__`)."""

    where: Path
    size: str

    def __enter__(self):
        self.where.mkdir(parents=True, exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={self.size}", "tmpfs",
                        str(self.where)], check=True, capture_output=True)
        return self.where

    def __exit__(self, *exc):
        subprocess.run(["umount", "-l", str(self.where)], capture_output=True)


DISK_COMMANDS = {
    "pig solve": ["pig", "solve", "--goal", "100", "--out", "OUT"],
    "trash-pandas game": ["trash-pandas", "game", "-n", "30", "--seed", "1", "--out", "OUT",
                          "--chart"],
    "ten thresholds": ["ten", "thresholds", "-n", "50", "--seed", "1", "--out", "OUT"],
    "magdagdon simulate": ["magdagdon", "simulate", "-n", "20", "--seed", "1", "--out", "OUT",
                           "--chart"],
    "pig advice": ["pig", "advice", "--out", "OUT"],
    "tune": ["tune", "pig", "--sweep", "goal=20,30", "-n", "50", "--seed", "1", "--out", "OUT"],
    "tune --target": ["tune", "pig", "--target", "p_first_wins in [0.5, 0.6]", "--space",
                      "goal=20..30:10", "-n", "64", "--seed", "1", "--budget", "10000",
                      "--out", "OUT"],
    "report": ["report", "reports/recipes/pig.toml", "--out", "OUT"],
}
#: tmpfs sizes: a few pages, so the first or a later file does not fit
SIZES = ("8k", "40k", "200k")
KEEPS_FINISHED = ("report", "tune --target")


def disk_full_cases(tmp: Path) -> list[ProcCase]:
    """Every --out writer into a tmpfs of each size in :data:`SIZES`: exit 0 if it fitted, else
    exit 1 with one line; never a temporary file left behind, and no incomplete set of files
    (every file taken back) except in a report or a target search, whose finished parts are
    complete checkpoints. Empty without the right to mount."""
    if not can_mount():
        return []
    cases = []
    for name, argv in DISK_COMMANDS.items():
        for size in SIZES:
            where = tmp / f"disk-{name.replace(' ', '_')}-{size}"

            def prepare(where=where, size=size, name=name):
                mount = Tmpfs(where, size)
                mount.__enter__()
                out = where / "out"

                def check(code):
                    try:
                        left = [str(p.relative_to(where)) for p in where.rglob("*")
                                if p.is_file()]
                        fails = [f"disk-full: {name} {size}: temporary file {p}" for p in left
                                 if p.endswith(".tmp")]
                        if code == 1 and name not in KEEPS_FINISHED and left:
                            fails.append(f"disk-full: {name} {size}: an incomplete set left: "
                                         f"{left[:4]}")
                        return fails
                    finally:
                        mount.__exit__()
                return check

            cases.append(ProcCase(f"{name} on a {size} tmpfs",
                                  [str(where / "out") if a == "OUT" else a for a in argv],
                                  allowed=(0, 1), timeout=300, prepare=prepare))
    return cases


STDOUT_COMMANDS = [["pig", "decide", "--me", "10", "--opp", "20"],
                   ["pig", "decide", "--me", "10", "--opp", "20", "--json"],
                   ["pig", "simulate", "-n", "1000", "--seed", "1"],
                   ["pig", "solve", "--goal", "30"], ["trash-pandas", "odds"],
                   ["ten", "best"], ["gostop", "score", "--captures", "01B 03B 08B"],
                   ["pig", "--help"], ["--help"], []]


def stdout_cases() -> list[ProcCase]:
    """Each command with stdout on /dev/full and with stdout closed, buffered (as in a user's
    shell: the failure comes at the final flush) and unbuffered: one line, exit 1."""
    return [ProcCase(f"{' '.join(argv) or '(no arguments)'} >{where} {mode}", list(argv),
                     allowed=(1,), stdout=where,
                     env={"PYTHONUNBUFFERED": None if mode == "buffered" else "1"})
            for argv in STDOUT_COMMANDS for where in ("full", "closed")
            for mode in ("buffered", "unbuffered")]
