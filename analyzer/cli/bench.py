"""`pushluck bench`: kernel throughput on 1 core and all cores, against pure-Python references.

Speed is measured here and in benchmark scripts, never asserted in unit tests. Each case runs the
same kernel job through the runner (kernel time only, compile excluded by a warm-up) with Numba
set to 1 thread and then to every core, and a pure-Python reference of the same algorithm in the
same process. Ratios within one run are what to compare across machines.
"""
from __future__ import annotations

from typing import List, Optional

import typer
from typing import Annotated

from analyzer.cli.common import JsonOpt

GAME_BENCH_MODULES = ["trash_pandas", "pig", "ten", "magdagdon", "gostop", "canasta"]


def _cases(games: list[str] | None):
    import importlib

    from analyzer.games import core_bench

    cases = core_bench.bench_cases()
    for name in GAME_BENCH_MODULES[2:]:
        try:
            mod = importlib.import_module(f"analyzer.games.{name}_bench")
        except ModuleNotFoundError as exc:
            if exc.name == f"analyzer.games.{name}_bench":
                continue
            raise
        cases += mod.bench_cases()
    if games:
        wanted = {g.replace("_", "-") for g in games}
        cases = [c for c in cases if c.game in wanted]
    return cases


def _time_kernel(case, cores: int, scale: float) -> tuple[float, float]:
    """Best rate on 1 thread and on ``cores`` threads, the two interleaved over three rounds so
    that a machine whose speed drifts affects both alike."""
    import numba

    from analyzer.runner import run

    job = case.make_job()
    n = max(int(case.n * scale), job.block_size)
    best = {1: 0.0, cores: 0.0}
    for rep in range(3):
        for threads in (1, cores):
            numba.set_num_threads(threads)
            res = run(job, n, 12345 + rep, progress=False)
            best[threads] = max(best[threads], res.per_second)
    numba.set_num_threads(cores)
    return best[1], best[cores]


def _time_reference(case, scale: float) -> float | None:
    import time

    if case.reference is None:
        return None
    n = max(int(case.ref_n * scale), 1)
    t0 = time.perf_counter()
    case.reference(n, 12345)
    return n / (time.perf_counter() - t0)


def _query_latency() -> dict:
    """Warm wall time of `pushluck trash-pandas odds` vs `python -c "import numba"` (best of 5)."""
    import subprocess
    import sys
    import time

    def best(cmd):
        subprocess.run(cmd, capture_output=True, check=True)
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run(cmd, capture_output=True, check=True)
            times.append(time.perf_counter() - t0)
        return min(times)

    odds = best([sys.executable, "-m", "analyzer", "trash-pandas", "odds", "--held",
                 "trash,paw", "--blammo", "1", "--json"])
    numba = best([sys.executable, "-c", "import numba"])
    return {"odds_seconds": odds, "import_numba_seconds": numba, "ratio": odds / numba}


def bench(game: Annotated[Optional[List[str]], typer.Option(
              "--game", help="Only these games (repeatable), e.g. --game pig.")] = None,
          quick: Annotated[bool, typer.Option(
              "--quick", help="A tenth of the usual sample sizes (a rough look).")] = False,
          json: JsonOpt = False):
    """Measure every kernel: trials/s on 1 core and all cores, and against pure Python.

    Columns: kernel rate on 1 thread and on all threads (kernel time only, compile excluded),
    their ratio (parallel scaling), the pure-Python reference rate of the same algorithm and the
    kernel/reference speed-up. Also the warm latency of a `trash-pandas odds` query relative to
    `python -c "import numba"`.
    """
    import os

    import numba

    from analyzer.output import emit, note, table

    scale = 0.1 if quick else 1.0
    cores = numba.config.NUMBA_NUM_THREADS
    rows = []
    for case in _cases(game):
        note(f"bench: {case.game} / {case.name} …")
        one, allc = _time_kernel(case, cores, scale)
        ref = _time_reference(case, scale)
        rows.append({"game": case.game, "case": case.name, "unit": case.unit,
                     "per_second_1_core": one, "per_second_all_cores": allc,
                     "cores": cores, "scaling": allc / one if one else None,
                     "reference_per_second": ref,
                     "speedup_vs_python": (one / ref) if ref else None})
    numba.set_num_threads(cores)
    extra = {}
    if not game or "trash-pandas" in game or "pig" in game:
        from analyzer.games.core_bench import pig_solve_seconds

        note("bench: pig solve …")
        extra["pig_solve_seconds"] = pig_solve_seconds()
    if not game or "trash-pandas" in game:
        note("bench: query latency …")
        extra["trash_pandas_odds_latency"] = _query_latency()
    payload = {"cores": cores, "cpu_count": os.cpu_count(), "cases": rows, **extra}

    def render():
        body = table([(r["game"], r["case"], f"{r['per_second_1_core']:,.0f}",
                       f"{r['per_second_all_cores']:,.0f}", f"{r['scaling']:.2f}×",
                       "—" if r["reference_per_second"] is None
                       else f"{r['reference_per_second']:,.0f}",
                       "—" if r["speedup_vs_python"] is None else f"{r['speedup_vs_python']:,.0f}×")
                      for r in rows],
                     ["game", "case (per second)", "1 core", f"{cores} cores", "scaling",
                      "pure Python", "kernel/Python"], "llrrrrr")
        lines = [body]
        if "pig_solve_seconds" in extra:
            lines.append(f"pig solve --goal 100 (warm): {extra['pig_solve_seconds']:.2f} s")
        if "trash_pandas_odds_latency" in extra:
            q = extra["trash_pandas_odds_latency"]
            lines.append(f"trash-pandas odds (warm): {q['odds_seconds'] * 1000:.0f} ms; "
                         f"python -c 'import numba': {q['import_numba_seconds'] * 1000:.0f} ms; "
                         f"ratio {q['ratio']:.2f}")
        return "\n".join(lines)

    emit(payload, json, render)


def register(root: typer.Typer) -> None:
    root.command("bench")(bench)
