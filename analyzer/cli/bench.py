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

from analyzer.options import JsonOpt


def _cases(games: list[str] | None):
    """Every registered game's bench cases (its ``bench.py`` ``CASES``), or only ``games``'."""
    from analyzer.games import get_game, game_keys

    keys = game_keys()
    if games:
        for g in games:
            get_game(g)  # an unknown game is an error naming the games
        keys = [k for k in keys if k in games]
    return [case for key in keys for case in get_game(key).load("bench")]


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


def _query_latency(queries) -> list[dict]:
    """Warm wall time of each query command vs `python -c "import numba"` (best of 5, the two
    interleaved so that a drifting machine affects both alike)."""
    import subprocess
    import sys
    import time

    def once(cmd, code=0):
        t0 = time.perf_counter()
        res = subprocess.run(cmd, capture_output=True)
        if res.returncode != code:
            raise subprocess.CalledProcessError(res.returncode, cmd, res.stdout, res.stderr)
        return time.perf_counter() - t0

    numba_cmd = [sys.executable, "-c", "import numba"]
    rows = []
    for q in queries:
        cmd = [sys.executable, "-m", "analyzer", *q.argv]
        once(cmd, q.exit_code)
        once(numba_cmd)
        t_q, t_n = [], []
        for _ in range(5):
            t_q.append(once(cmd, q.exit_code))
            t_n.append(once(numba_cmd))
        rows.append({"game": q.game, "query": q.name, "seconds": min(t_q),
                     "import_numba_seconds": min(t_n), "ratio": min(t_q) / min(t_n)})
    return rows


def bench(game: Annotated[Optional[List[str]], typer.Option(
              "--game", help="Only these games (repeatable), e.g. --game pig.")] = None,
          quick: Annotated[bool, typer.Option(
              "--quick", help="A tenth of the usual sample sizes (a rough look).")] = False,
          warm: Annotated[bool, typer.Option(
              "--warm", help="Only compile every kernel into the cache (what `make setup` "
                             "does once) and report the seconds per game.")] = False,
          compile_time: Annotated[bool, typer.Option(
              "--compile", help="Only time, per game, the cold compile of every kernel (in "
                                "a fresh NUMBA_CACHE_DIR) and the warm load from that cache.")
          ] = False,
          json: JsonOpt = False):
    """Measure every kernel: trials/s on 1 core and all cores, and against pure Python.

    Examples:

      pushluck bench --game pig --quick

    Columns: kernel rate on 1 thread and on all threads (kernel time only, compile excluded),
    their ratio (parallel scaling), the pure-Python reference rate of the same algorithm and the
    kernel/reference speed-up. Then warm timings (exact solves) and the warm whole-process latency
    of each game's query commands relative to `python -c "import numba"` in the same run.
    """
    import os

    import numba

    from analyzer.output import emit, note, table

    from analyzer.benchkit import BenchCase, BenchQuery, BenchTiming

    if warm:
        return _warm(game, json)
    if compile_time:
        return _compile_times(game, json)
    scale = 0.1 if quick else 1.0
    cores = numba.config.NUMBA_NUM_THREADS
    cases = _cases(game)
    rows = []
    for case in [c for c in cases if isinstance(c, BenchCase)]:
        note(f"bench: {case.game} / {case.name} …")
        one, allc = _time_kernel(case, cores, scale)
        ref = _time_reference(case, scale)
        rows.append({"game": case.game, "case": case.name, "unit": case.unit,
                     "per_second_1_core": one, "per_second_all_cores": allc,
                     "cores": cores, "scaling": allc / one if one else None,
                     "reference_per_second": ref,
                     "speedup_vs_python": (one / ref) if ref else None,
                     "relative_to": case.relative_to})
    by_name = {(r["game"], r["case"]): r for r in rows}
    for r in rows:
        cal = by_name.get((r["game"], r.pop("relative_to")))
        r["of_calibration"] = (r["per_second_1_core"] / cal["per_second_1_core"]) if cal else None
    numba.set_num_threads(cores)
    timings = []
    for t in [c for c in cases if isinstance(c, BenchTiming)]:
        note(f"bench: {t.game} / {t.name} …")
        timings.append({"game": t.game, "name": t.name, "seconds": t.seconds()})
    queries = [c for c in cases if isinstance(c, BenchQuery)]
    if queries:
        note("bench: query latency …")
    latency = _query_latency(queries)
    payload = {"cores": cores, "cpu_count": os.cpu_count(), "cases": rows, "timings": timings,
               "query_latency": latency}

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
        for r in rows:
            if r["of_calibration"] is not None:
                lines.append(f"{r['game']} {r['case']}: {r['of_calibration']:.2f} of the "
                             "calibration loop's rate on 1 core")
        for t in timings:
            lines.append(f"{t['game']} {t['name']} (warm): {t['seconds']:.3f} s")
        if latency:
            lines.append(table([(q["game"], q["query"], f"{q['seconds'] * 1000:.0f} ms",
                                 f"{q['import_numba_seconds'] * 1000:.0f} ms",
                                 f"{q['ratio']:.2f}×") for q in latency],
                               ["game", "query (warm, whole process)", "time",
                                "import numba", "ratio"], "llrrr"))
        return "\n".join(lines)

    emit(payload, json, render)


def _warm(games, as_json: bool) -> None:
    """Compile (or load from the cache) every bench and tuning kernel of the games."""
    import time

    from analyzer.benchkit import BenchCase
    from analyzer.games import game_keys, get_game
    from analyzer.output import emit, note
    from analyzer.runner import warm_up

    rows = []
    for key in (games or game_keys()):
        game = get_game(key)
        t0 = time.perf_counter()
        jobs = [c.make_job for c in game.load("bench") if isinstance(c, BenchCase)]
        jobs += [(lambda m=m: m.make_job(m.rules_cls(), m.default_policy))
                 for m in game.load("metrics")]
        for make in jobs:
            warm_up(make())
        rows.append({"game": key, "seconds": time.perf_counter() - t0, "jobs": len(jobs)})
        note(f"bench --warm: {key} ready ({rows[-1]['seconds']:.1f} s)")
    emit({"warmed": rows}, as_json, lambda: "\n".join(
        f"{r['game']:14} {r['jobs']} kernel jobs ready in {r['seconds']:.1f} s" for r in rows))


def _compile_times(games, as_json: bool) -> None:
    """Per game: `bench --warm` in a fresh NUMBA_CACHE_DIR (cold compile, whole process), then
    again on that cache (warm load). The directory is removed afterwards."""
    import os
    import subprocess
    import sys
    import tempfile
    import time

    from analyzer.games import game_keys, get_game
    from analyzer.output import emit, note

    rows = []
    for key in (games or game_keys()):
        get_game(key)
        with tempfile.TemporaryDirectory(prefix="pushluck-numba-") as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            cmd = [sys.executable, "-m", "analyzer", "bench", "--warm", "--game", key, "--json"]
            times = []
            for _ in range(2):
                t0 = time.perf_counter()
                subprocess.run(cmd, env=env, capture_output=True, check=True)
                times.append(time.perf_counter() - t0)
        rows.append({"game": key, "cold_seconds": times[0], "warm_seconds": times[1]})
        note(f"bench --compile: {key} cold {times[0]:.1f} s, warm {times[1]:.1f} s")
    emit({"compile": rows}, as_json, lambda: "\n".join(
        f"{r['game']:14} compile (cold cache) {r['cold_seconds']:.1f} s, "
        f"load (warm cache) {r['warm_seconds']:.1f} s" for r in rows))


def register(root: typer.Typer) -> None:
    root.command("bench")(bench)
