"""What a game registers with `pushluck bench`.

A :class:`BenchCase` names a kernel job (run through the runner with ``n`` trials, timed by kernel
time only, on 1 thread and on all threads) and a pure-Python reference of the same algorithm
(timed on ``ref_n`` trials in the same process). `pushluck bench` reports trials per second for
each, the 1→all-core scaling and the kernel/reference ratio. Never used by unit tests for timing.
A row whose scaling stays below ``SCALING_TARGET`` says why (``scaling_note``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from analyzer.runner import KernelJob


SCALING_TARGET = 1.8  # per 2 cores (issue 16)

# The calibration loop (Trash Pandas' minimal hand-written stop-at:6 loop) is the yardstick of
# machine speed. Issue 16 set its throughput targets (``BenchCase.target``) on a machine where
# that loop ran 490M turns/s on one core; a target holds on another machine when the kernel's
# rate divided by the calibration rate measured in the same run is at least target / 490M.
CALIBRATION_CASE = ("trash-pandas", "turns, minimal hand-written loop (calibration)")
CALIBRATION_AT_TARGETS = 490e6


def machine(cpuinfo: str = "/proc/cpuinfo") -> dict:
    """What CPU the figures come from, so that a bench from another machine can be set beside
    this one: the CPU's model name and family/model numbers (``cpuinfo``, where there is such a
    file; a virtual machine may give only the vendor's brand), the microarchitecture LLVM
    compiles the kernels for (``znver5``, ``skylake-avx512`` …: what decides which code runs
    fastest) and the number of CPUs."""
    import os
    import platform

    info: dict[str, str] = {}
    try:
        with open(cpuinfo) as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key in ("model name", "cpu family", "model") and key not in info:
                    info[key] = value.strip()
                if not line.strip() and info:
                    break  # the first CPU's block is enough
    except OSError:
        pass
    try:
        import llvmlite.binding

        llvm_cpu = llvmlite.binding.get_host_cpu_name()
    except Exception:  # pragma: no cover - llvmlite comes with numba
        llvm_cpu = None
    return {"cpu_model": info.get("model name") or platform.processor() or platform.machine(),
            "cpu_family": info.get("cpu family"), "cpu_model_number": info.get("model"),
            "llvm_cpu": llvm_cpu, "cpu_count": os.cpu_count()}


def machine_line(m: dict, calibration: float | None) -> str:
    """One line naming the machine (:func:`machine`) and the calibration loop's 1-core rate."""
    where = ", ".join(x for x in (
        f"family {m['cpu_family']}" if m.get("cpu_family") else "",
        f"model {m['cpu_model_number']}" if m.get("cpu_model_number") else "",
        f"LLVM compiles for {m['llvm_cpu']}" if m.get("llvm_cpu") else "") if x)
    line = f"machine: {m['cpu_model']}" + (f" ({where})" if where else "")
    line += f", {m['cpu_count']} CPUs"
    if calibration:
        line += f"; calibration loop {calibration / 1e6:,.0f}M turns/s on 1 core"
    return line


def target_here(target: float, calibration: float) -> float:
    """A throughput target set where the calibration loop ran ``CALIBRATION_AT_TARGETS``,
    rescaled to a machine where it runs ``calibration`` (both per second, one core)."""
    return target * calibration / CALIBRATION_AT_TARGETS


@dataclass
class BenchCase:
    game: str
    name: str
    unit: str
    make_job: Callable[[], KernelJob]
    n: int
    reference: Optional[Callable[[int, int], object]] = None  # reference(n, seed)
    ref_n: int = 0
    # bench prints this row's rate as a share of the calibration loop's (measured beside it)
    share_of_calibration: bool = False
    # why this kernel cannot reach 1.8x on 2 cores, when that is a property of the kernel
    scaling_note: Optional[str] = None
    # issue 16's one-core throughput target (per second, where the calibration loop ran
    # CALIBRATION_AT_TARGETS); `bench` rescales it by the calibration rate of the same run
    target: Optional[float] = None


@dataclass
class BenchTiming:
    """A warm wall time worth tracking that is not a trial rate (an exact solve, say)."""

    game: str
    name: str
    seconds: Callable[[], float]


@dataclass
class BenchQuery:
    """A query command timed as a whole process, warm, against ``python -c "import numba"``."""

    game: str
    name: str
    argv: tuple[str, ...]  # arguments after `pushluck`
    exit_code: int = 0  # 2 for a query timed on its bad-input path


@dataclass
class BenchWarm:
    """Work that `bench --warm` (``make setup``) does once besides compiling the bench cases:
    filling an on-disk cache of exact solutions (``analyzer.cache``) so that the first query
    after setup is fast, or (``compiles=True``) compiling kernels no bench case runs."""

    game: str
    name: str
    run: Callable[[], object]
    compiles: bool = False


def run_command(argv: tuple, exit_code: int = 0) -> None:
    """Run ``pushluck ARGV`` in a fresh process (so its kernels compile into, or load from, the
    same cache a user's command will) and insist on ``exit_code``; what `bench --warm` does
    with every :class:`BenchQuery` and with :func:`commands_warm`'s commands."""
    import subprocess
    import sys
    from pathlib import Path

    import analyzer

    # from the folder holding the package, so that "analyzer/data/…" names the data files
    root = Path(analyzer.__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, "-m", "analyzer", *argv], capture_output=True,
                          text=True, cwd=root)
    if proc.returncode != exit_code:
        tail = proc.stderr.strip().splitlines()[-1:] or [""]
        raise RuntimeError(f"`pushluck {' '.join(argv)}` exited {proc.returncode}, expected "
                           f"{exit_code}: {tail[0]}")


def commands_warm(game: str, name: str, *commands: tuple) -> BenchWarm:
    """A :class:`BenchWarm` that compiles the kernels of commands no bench case or query runs
    (small runs of ``decide``, ``simulate --vs`` …), so that their first real use after
    `make setup` loads them instead of compiling."""
    return BenchWarm(game, name, lambda: [run_command(c) for c in commands], compiles=True)
