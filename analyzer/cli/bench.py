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


def cpu_steal() -> tuple[int, int] | None:
    """(steal, total) CPU time in clock ticks since boot, all CPUs, from /proc/stat; None where
    there is no such file. Steal is the time a virtual machine's CPUs were ready to run but the
    hypervisor ran other machines: a drop in speed that no process on this machine explains."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return (fields[7] if len(fields) > 7 else 0), sum(fields[:8])


ROUNDS = 3  # rounds per row; a row whose verdict is close gets EXTRA_ROUNDS more
EXTRA_ROUNDS = 3
CLOSE_TO_TARGET = 1.25  # a rate/target within this factor of 1 is close (see `inconclusive`)


def _time_kernel(case, cores: int, scale: float, beside=None,
                 more=None) -> tuple[float, float, dict]:
    """Best rate on 1 thread and on ``cores`` threads, the two interleaved over three rounds so
    that a machine whose speed drifts affects both alike; the scaling is the median over the
    rounds of each round's all-core rate / 1-core rate (paired, so a drift between rounds
    cancels). A run has at least 4 blocks per thread (so ``--quick`` can still split). Also
    returns what the scaling note needs: blocks per run, the highest 1-minute load average seen
    during the case, the CPUs the all-core run with the best rate actually got (process CPU time /
    wall time: below ``cores`` when other processes held the cores during that very run, which a
    lagging load average can miss) and the share of CPU time stolen by the hypervisor during the
    all-core runs (``cpu_steal``).

    ``beside``, a case (the calibration loop), is also run on 1 thread and on ``cores`` threads
    just before and just after each round of this case. Per round: its 1-thread rate (the mean
    of the two), this case's 1-thread rate over it, and its scaling (the lower of the two); the
    medians over the rounds come back as ``how["beside"]``, ``how["of_beside"]`` and
    ``how["beside_scaling"]``, with ``how["of_beside_scaling"]``, the median over rounds of this
    case's scaling over the calibration's in the same round (and both per round, for a look at
    a row that scaled badly). Paired within a round and with medians on both sides, neither the
    case nor the calibration gains from being sampled more often. A shared machine's speed
    drifts by more than a factor 1.5 over the minutes a whole bench takes, and so does how well
    its virtual CPUs scale, so a target is judged against the calibration measured beside its
    own row, not once at the start, and a row that scales badly is compared with a loop that
    shares nothing.

    ``more(how)``, if given, is asked after the three rounds; when it says the measurement is
    inconclusive (:func:`inconclusive`), :data:`EXTRA_ROUNDS` more rounds run and every figure
    is the median over all of them (``how["rounds_run"]``)."""
    import os

    import numba

    job = case.make_job()
    n = max(int(case.n * scale), job.block_size * 4 * cores)
    best = {1: 0.0, cores: 0.0}
    load = os.getloadavg()[0]
    share = None
    if beside is not None:
        beside_job = beside.make_job()
        # a quarter of its own row's size: 6 runs of it beside every row cost seconds, not
        # minutes, over a whole bench
        beside_n = max(int(beside.n * scale / 4), beside_job.block_size * 4)

    def calibrate(rep: int) -> tuple[float, float]:
        """One 1-thread and one all-thread run of ``beside``: its 1-thread rate and scaling."""
        b1 = _timed_run(beside_job, beside_n, 12345 + rep, 1)[0]
        b2 = _timed_run(beside_job, beside_n * cores, 12345 + rep, cores)[0]
        return b1, (b2 / b1 if b1 else 0.0)

    ratios, steal, ticks = [], 0, 0
    cal_rates, of_cal, cal_ratios = [], [], []  # per round, with ``beside``

    def summary():
        return {"blocks": -(-n // job.block_size), "load": load, "cpus": share,
                "scaling": _median(ratios), "beside": _median(cal_rates),
                "of_beside": _median(of_cal), "beside_scaling": _median(cal_ratios),
                "of_beside_scaling": _median([r / c for r, c in zip(ratios, cal_ratios) if c]),
                "rounds": ratios, "beside_rounds": cal_ratios, "rounds_run": len(ratios),
                "steal": steal / ticks if ticks else None}

    rounds, rep = ROUNDS, 0
    while rep < rounds:
        before = calibrate(rep) if beside is not None else None
        rates = {}
        for threads in (1, cores):
            rates[threads], cpus, stolen = _timed_run(job, n, 12345 + rep, threads)
            if threads == cores and stolen:
                steal, ticks = steal + stolen[0], ticks + stolen[1]
            if rates[threads] > best[threads]:
                best[threads] = rates[threads]
                if threads == cores:
                    share = cpus
            load = max(load, os.getloadavg()[0])
        ratios.append(rates[cores] / rates[1] if rates[1] else 0.0)
        if beside is not None:
            after = calibrate(rep)
            cal = (before[0] + after[0]) / 2  # a drift during the round cancels to first order
            cal_rates.append(cal)
            of_cal.append(rates[1] / cal if cal else 0.0)
            cal_ratios.append(min(before[1], after[1]))  # the machine's worse side
        rep += 1
        if rep == ROUNDS and more is not None and more(summary()):
            rounds += EXTRA_ROUNDS

    numba.set_num_threads(cores)
    return best[1], best[cores], summary()


def _median(xs: list) -> float | None:
    import statistics

    return statistics.median(xs) if xs else None


def inconclusive(case, cores: int, how: dict) -> bool:
    """Is the verdict of three rounds on ``case`` too close to give, so that
    :func:`_time_kernel` runs more? Either its rate/target is within a factor
    :data:`CLOSE_TO_TARGET` of 1 on either side (a met target is extended exactly as readily as
    a missed one, so the extra rounds do not lean the verdict either way), or its scaling is
    below the target and :func:`scaling_note` finds no reason: more rounds of the row and of the
    calibration beside it are the evidence a reason needs."""
    import os

    from analyzer.benchkit import CALIBRATION_AT_TARGETS

    if case.target and how.get("of_beside"):
        of_target = how["of_beside"] * CALIBRATION_AT_TARGETS / case.target
        if 1 / CLOSE_TO_TARGET <= of_target <= CLOSE_TO_TARGET:
            return True
    reason = scaling_note(case, cores, os.cpu_count() or cores, how)
    return reason is not None and reason.startswith("below target, reason not known")


def _timed_run(job, n: int, seed: int, threads: int) -> tuple[float, float, tuple | None]:
    """One run of ``job`` on ``threads`` Numba threads: its rate, the CPUs it got (process CPU
    time / wall time) and the (steal, total) CPU ticks that passed during it (None where
    /proc/stat cannot be read)."""
    import time

    import numba

    from analyzer.runner import run

    numba.set_num_threads(threads)
    s0 = cpu_steal()
    c0, w0 = time.process_time(), time.perf_counter()
    res = run(job, n, seed, progress=False)
    cpus = (time.process_time() - c0) / max(time.perf_counter() - w0, 1e-9)
    s1 = cpu_steal()
    return res.per_second, cpus, ((s1[0] - s0[0], s1[1] - s0[1]) if s0 and s1 else None)


def scaling_note(case, cores: int, cpu_count: int, how: dict) -> str | None:
    """Why a row's 1→``cores`` scaling (``how["scaling"]``, from :func:`_time_kernel`) is below
    the target, or None when it is not. In order:

    - the case's own reason, or too few blocks to split (``how["blocks"]``);
    - other processes on the cores during the run: a load average above ``cores`` + 0.5 (the
      bench keeps up to ``cores`` threads busy itself), or the all-core run got fewer than
      0.8 · ``cores`` CPUs (``how["cpus"]``), or the hypervisor stole 5% or more of the CPU
      time during the all-core runs (``how["steal"]``);
    - the machine: the calibration loop, which shares nothing between threads, run beside the
      row, scaled ``how["beside_scaling"]``, itself below the target, and the row got at least
      0.9 of that, as medians or paired round by round (``how["of_beside_scaling"]``);
    - the measurement: the rounds' scalings (``how["rounds"]``), each a 1-core and an all-core
      run seconds apart, spread by more than the row's shortfall from the target, so the
      machine's speed changed within rounds by more than what is to be explained.

    Else "reason not known"."""
    from analyzer.benchkit import SCALING_TARGET

    scaling = how.get("scaling")
    target = SCALING_TARGET * cores / 2
    if cores < 2 or scaling is None or scaling >= target:
        return None
    if case.scaling_note:
        return case.scaling_note
    blocks, load, got, steal = how["blocks"], how["load"], how.get("cpus"), how.get("steal")
    machine, of_machine = how.get("beside_scaling"), how.get("of_beside_scaling")
    rounds = how.get("rounds") or []
    if blocks < 2 * cores:
        return f"{blocks} blocks per run: too few to keep {cores} threads busy"
    if load > cores + 0.5:
        return (f"load average {load:.1f} on {cpu_count} CPUs during the run: other processes "
                "took the cores; repeat on a quiet machine")
    if got is not None and got < 0.8 * cores:
        return (f"the {cores} threads got {got:.1f} CPUs on average during the run: other "
                "processes took the cores; repeat on a quiet machine")
    if steal is not None and steal >= 0.05:
        return (f"the hypervisor ran other machines for {steal:.0%} of the CPU time during the "
                "all-core runs (steal time): repeat on a quiet host")
    if (machine is not None and machine < target
            and (scaling >= 0.9 * machine or (of_machine or 0) >= 0.9)):
        return (f"the calibration loop, which shares nothing between threads, scaled only "
                f"{machine:.2f}× around this row's runs: the machine's {cores} CPUs did not "
                "scale then (virtual CPUs that share a physical core do this); repeat on a quiet "
                "host")
    if len(rounds) >= 2 and max(rounds) - min(rounds) > target - scaling:
        return (f"the rounds scaled {', '.join(f'{x:.2f}×' for x in rounds)}: paired runs "
                f"seconds apart disagree by more than the shortfall ({target - scaling:.2f}×), "
                "so the machine's speed changed within rounds; repeat on a quiet host")
    return "below target, reason not known: profile it"


def _with_calibration(cases: list) -> list:
    """``cases``, with the calibration loop's case first when a kernel case is among them and
    the calibration is not: its rate in the same run rescales the targets, and `--json` records
    it with the CPU so that figures from different machines can be compared."""
    from analyzer.benchkit import CALIBRATION_CASE, BenchCase
    from analyzer.games import get_game

    kernel_cases = [c for c in cases if isinstance(c, BenchCase)]
    if (not kernel_cases
            or any((c.game, c.name) == CALIBRATION_CASE for c in kernel_cases)):
        return cases
    game, name = CALIBRATION_CASE
    return [c for c in get_game(game).load("bench")
            if isinstance(c, BenchCase) and c.name == name] + cases


def _target_rows(rows: list[dict]) -> list[dict]:
    """Issue 16's throughput targets judged on this machine: ``of_target`` is the row's median
    per-round 1-core rate over the calibration loop run beside it (``of_calibration_beside``,
    see ``_time_kernel``) against target / 490M, the same ratio on the machine the targets were
    set on; ``target_here`` rescales the target by the calibration's rate beside the row
    (``analyzer.benchkit.target_here``). Only rows that ran with the calibration beside them
    (every row but the calibration's own, when the calibration is in the run)."""
    from analyzer.benchkit import CALIBRATION_AT_TARGETS, target_here

    out = []
    for r in rows:
        if r.get("target") is None or not r.get("of_calibration_beside"):
            continue
        cal_rate = r["calibration_beside"]
        of_target = r["of_calibration_beside"] * CALIBRATION_AT_TARGETS / r["target"]
        out.append({"game": r["game"], "case": r["case"], "unit": r["unit"],
                    "per_second_1_core": r["per_second_1_core"], "target": r["target"],
                    "calibration_at_target": CALIBRATION_AT_TARGETS,
                    "calibration_here": cal_rate,
                    "target_here": target_here(r["target"], cal_rate),
                    "of_target": of_target, "met": of_target >= 1, "rounds": r.get("rounds")})
    return out


def _relative_rates(rows: list[dict]) -> None:
    """Give each row its ``of_calibration``: for a case with ``share_of_calibration`` (a flag
    removed here), its 1-core rate as a share of the calibration loop's, the paired per-round
    median ``of_calibration_beside`` that the targets are judged by; else None."""
    for r in rows:
        r["of_calibration"] = (r["of_calibration_beside"] if r.pop("share_of_calibration")
                               else None)


def _targets_table(targets: list[dict]) -> str:
    from analyzer.benchkit import CALIBRATION_AT_TARGETS
    from analyzer.output import table

    head = (f"Throughput targets (issue 16), set where the calibration loop ran "
            f"{CALIBRATION_AT_TARGETS / 1e6:.0f}M turns/s on 1 core, judged by the calibration "
            "loop run before and after each round of the row (rate/target: the median over "
            "rounds of the row's rate over the calibration's, against the target's; a row "
            f"within {CLOSE_TO_TARGET:g}× of its target either way gets {EXTRA_ROUNDS} more "
            "rounds):")
    body = table([(t["game"], t["case"], f"{t['per_second_1_core']:,.0f}",
                   f"{t['calibration_here'] / 1e6:,.0f}M", f"{t['target']:,.0f}",
                   f"{t['target_here']:,.0f}", str(t["rounds"] or ""), f"{t['of_target']:.2f}×",
                   "met" if t["met"] else "NOT met")
                  for t in targets],
                 ["game", "case (per second, 1 core)", "rate", "calibration", "target",
                  "target here", "rounds", "rate/target", ""], "llrrrrrrl")
    return head + "\n" + body


def _time_reference(case, scale: float) -> float | None:
    import time

    if case.reference is None:
        return None
    n = max(int(case.ref_n * scale), 1)
    t0 = time.perf_counter()
    case.reference(n, 12345)
    return n / (time.perf_counter() - t0)


def _query_latency(queries) -> list[dict]:
    """Warm wall time of each query command vs `python -c "import numba"` (best of 5 each, the
    two interleaved); the ratio is the median of the 5 back-to-back pairs' ratios, so a load that
    comes and goes on a shared machine (a quiet moment for one side only) does not decide it."""
    import statistics

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
                     "import_numba_seconds": min(t_n),
                     "ratio": statistics.median(a / b for a, b in zip(t_q, t_n))})
    return rows


def bench(game: Annotated[Optional[List[str]], typer.Option(
              "--game", help="Only these games (repeatable), e.g. --game pig.")] = None,
          quick: Annotated[bool, typer.Option(
              "--quick", help="A tenth of the usual sample sizes (a rough look).")] = False,
          warm: Annotated[bool, typer.Option(
              "--warm", help="Only compile every kernel into the cache and fill the exact-"
                             "solution caches of the queries (what `make setup` does once); "
                             "report the seconds per game.")] = False,
          compile_time: Annotated[bool, typer.Option(
              "--compile", help="Only time, per game, the cold compile of every kernel (in "
                                "a fresh NUMBA_CACHE_DIR) and the warm load from that cache, "
                                "their total, and each query command's first answer from "
                                "empty caches (as after an install).")
          ] = False,
          kernels_only: Annotated[bool, typer.Option(
              "--kernels-only", hidden=True,
              help="With --warm: compile only, fill no solution cache (what --compile times).")
          ] = False,
          jobs: Annotated[int, typer.Option(
              "--jobs", min=1, max=64, metavar="N",
              help="With --warm: compile in N processes at once, one game each at a time "
                   "(`make setup` uses 2).")] = 1,
          queries_only: Annotated[bool, typer.Option(
              "--queries", help="Only the query commands' warm latency against `python -c "
                                "\"import numba\"` (no kernel or timing rows).")] = False,
          json: JsonOpt = False):
    """Measure every kernel: trials/s on 1 core and all cores, and against pure Python.

    Examples:

      pushluck bench --game pig --quick

      pushluck bench --queries --game gostop

    Columns: kernel rate on 1 thread and on all threads (kernel time only, compile excluded),
    the parallel scaling (the median of three rounds' paired all-core/1-core ratios, so it can
    differ a little from the ratio of the two best rates), the pure-Python reference rate of the
    same algorithm and the kernel/reference speed-up. A row whose verdict is close (within 1.25×
    of its throughput target, met or not, or scaling below 1.8× with no reason found) gets
    three more rounds, and its figures are medians over all six. Then warm timings (exact
    solves) and the warm whole-process latency of each game's query commands relative to
    `python -c "import numba"` in the same run.
    """
    import functools
    import os

    import numba

    from analyzer.output import emit, note, table

    from analyzer.benchkit import (CALIBRATION_CASE, BenchCase, BenchQuery, BenchTiming, machine,
                                  machine_line)

    if warm and jobs > 1:
        return _warm_in_processes(game, jobs, json, not kernels_only)
    if warm:
        return _warm(game, json, not kernels_only)
    if compile_time:
        return _compile_times(game, json)
    scale = 0.1 if quick else 1.0
    cores = numba.config.NUMBA_NUM_THREADS
    cases = _cases(game)
    if queries_only:
        cases = [c for c in cases if isinstance(c, BenchQuery)]
    cases = _with_calibration(cases)
    calibration = next((c for c in cases if isinstance(c, BenchCase)
                        and (c.game, c.name) == CALIBRATION_CASE), None)
    rows = []
    for case in [c for c in cases if isinstance(c, BenchCase)]:
        note(f"bench: {case.game} / {case.name} …")
        one, allc, how = _time_kernel(case, cores, scale,
                                      beside=None if case is calibration else calibration,
                                      more=functools.partial(inconclusive, case, cores))
        ref = _time_reference(case, scale)
        scaling = how["scaling"] if one else None
        rows.append({"game": case.game, "case": case.name, "unit": case.unit,
                     "per_second_1_core": one, "per_second_all_cores": allc,
                     "cores": cores, "scaling": scaling,
                     "scaling_note": scaling_note(case, cores, os.cpu_count() or cores,
                                                  dict(how, scaling=scaling)),
                     "blocks_per_run": how["blocks"], "load_average": how["load"],
                     "cpus_in_all_core_run": how["cpus"], "steal_in_all_core_runs": how["steal"],
                     "reference_per_second": ref,
                     "speedup_vs_python": (one / ref) if ref else None,
                     "share_of_calibration": case.share_of_calibration, "target": case.target,
                     "calibration_beside": how["beside"],
                     "of_calibration_beside": how["of_beside"],
                     "calibration_scaling_beside": how["beside_scaling"],
                     "scaling_of_calibration_beside": how["of_beside_scaling"],
                     "rounds": how["rounds_run"], "scaling_per_round": how["rounds"],
                     "calibration_scaling_per_round": how["beside_rounds"]})
    _relative_rates(rows)
    targets = _target_rows(rows)
    numba.set_num_threads(cores)
    timings = []
    for t in [c for c in cases if isinstance(c, BenchTiming)]:
        note(f"bench: {t.game} / {t.name} …")
        timings.append({"game": t.game, "name": t.name, "seconds": t.seconds()})
    queries = [c for c in cases if isinstance(c, BenchQuery)]
    if queries:
        note("bench: query latency …")
    latency = _query_latency(queries)
    cal_row = next((r for r in rows if (r["game"], r["case"]) == CALIBRATION_CASE), None)
    payload = {"cores": cores, "cpu_count": os.cpu_count(), "machine": machine(),
               "calibration_per_second_1_core": cal_row and cal_row["per_second_1_core"],
               "cases": rows, "targets": targets, "timings": timings, "query_latency": latency}

    def render():
        body = table([(r["game"], r["case"], f"{r['per_second_1_core']:,.0f}",
                       f"{r['per_second_all_cores']:,.0f}", f"{r['scaling']:.2f}×",
                       "—" if r["reference_per_second"] is None
                       else f"{r['reference_per_second']:,.0f}",
                       "—" if r["speedup_vs_python"] is None else f"{r['speedup_vs_python']:,.0f}×")
                      for r in rows],
                     ["game", "case (per second)", "1 core", f"{cores} cores", "scaling",
                      "pure Python", "kernel/Python"], "llrrrrr")
        from analyzer.words import fit

        lines = fit([machine_line(payload["machine"], payload["calibration_per_second_1_core"])])
        lines += [body] if rows else []
        for r in rows:
            if r["scaling_note"]:
                lines.append(f"{r['game']} {r['case']}: scaling {r['scaling']:.2f}× — "
                             f"{r['scaling_note']}")
        for r in rows:
            if r["of_calibration"] is not None:
                lines.append(f"{r['game']} {r['case']}: {r['of_calibration']:.2f} of the "
                             "calibration loop's rate on 1 core (median over rounds of the "
                             "rate over the calibration run beside it)")
        if targets:
            lines.append(_targets_table(targets))
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


def multi_signatures(key: str) -> dict[str, int]:
    """Kernels of game ``key`` (its ``kernels.<game>`` modules and kernels.rng) that this process
    compiled or loaded for more than one type signature, with the count. A literal argument at a
    call site (``f(x, 0)`` typed ``Literal[int](0)``) makes Numba compile a separate version, so
    this is where `bench --compile` time goes to types a kernel never needs."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    pkg = importlib.import_module("kernels." + key.replace("-", "_"))
    mods = [pkg, importlib.import_module("kernels.rng")]
    mods += [importlib.import_module(f"{pkg.__name__}.{m.name}")
             for m in pkgutil.iter_modules(pkg.__path__)]
    out: dict[str, int] = {}
    seen: set[int] = set()
    for mod in mods:
        for name, obj in vars(mod).items():
            if isinstance(obj, CPUDispatcher) and id(obj) not in seen:
                seen.add(id(obj))
                if len(obj.signatures) > 1:
                    out[f"{obj.py_func.__module__}.{name}"] = len(obj.signatures)
    return out


def _warm(games, as_json: bool, solutions: bool = True) -> None:
    """Compile (or load from the cache) every bench and tuning kernel of the games, and fill the
    exact-solution caches the games declare (``BenchWarm``: Pig's solution, Ten's fresh pile)."""
    import time

    from analyzer.benchkit import BenchCase, BenchQuery, BenchWarm, run_command
    from analyzer.games import game_keys, get_game
    from analyzer.output import emit, note
    from analyzer.runner import warm_up

    rows = []
    for key in (games or game_keys()):
        game = get_game(key)
        t0 = time.perf_counter()
        cases = game.load("bench")
        jobs = [c.make_job for c in cases if isinstance(c, BenchCase)]
        jobs += [(lambda m=m: m.make_job(m.rules_cls(), m.default_policy))
                 for m in game.load("metrics")]
        for make in jobs:
            warm_up(make())
        for w in [c for c in cases if isinstance(c, BenchWarm) and (solutions or c.compiles)]:
            w.run()
        for q in [c for c in cases if isinstance(c, BenchQuery)]:
            run_command(q.argv, q.exit_code)
        rows.append({"game": key, "seconds": time.perf_counter() - t0, "jobs": len(jobs),
                     "multi_signature_kernels": multi_signatures(key)})
        note(f"bench --warm: {key} ready ({rows[-1]['seconds']:.1f} s)")
    emit({"warmed": rows}, as_json, lambda: "\n".join(
        f"{r['game']:14} {r['jobs']} kernel jobs ready in {r['seconds']:.1f} s" for r in rows))


def _warm_in_processes(games, jobs: int, as_json: bool, solutions: bool) -> None:
    """:func:`_warm` with the games shared among ``jobs`` processes (`bench --warm --game G` per
    game, taken in registry order by the next free process): the wall time is about the
    slowest game's or the sum over the games divided by ``jobs``, whichever is larger."""
    import json
    import subprocess
    import sys
    from concurrent.futures import ThreadPoolExecutor

    from analyzer.games import game_keys
    from analyzer.output import emit, note

    def one(key):
        cmd = [sys.executable, "-m", "analyzer", "bench", "--warm", "--game", key, "--json"]
        proc = subprocess.run(cmd + ([] if solutions else ["--kernels-only"]),
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"bench --warm --game {key} failed:\n{proc.stderr.strip()}")
        rows = json.loads(proc.stdout)["warmed"]
        note(f"bench --warm: {key} ready ({rows[0]['seconds']:.1f} s)")
        return rows

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        rows = [r for got in pool.map(one, games or game_keys()) for r in got]
    emit({"warmed": rows}, as_json, lambda: "\n".join(
        f"{r['game']:14} {r['jobs']} kernel jobs ready in {r['seconds']:.1f} s" for r in rows))


def _children_cpu() -> float | None:
    """CPU seconds (user + system) of this process's finished children, or None where the OS
    does not say (no ``resource`` module)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Unix
        return None
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _timed_subprocess(cmd: list[str], env: dict, cwd=None):
    """One command in a fresh process: (wall seconds, CPU seconds of it and the processes it
    waited for, or None, its ``CompletedProcess``). On a busy machine the wall time grows with
    the load; the CPU time, which is what compiling costs, hardly does."""
    import subprocess
    import time

    c0 = _children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=cwd)
    wall = time.perf_counter() - t0
    c1 = _children_cpu()
    return wall, (None if c0 is None or c1 is None else c1 - c0), proc


def _first_queries(key: str) -> list[dict]:
    """Each query command of game ``key`` (its :class:`BenchQuery` cases) timed as the first
    command after an install: a fresh process with an empty Numba cache and an empty
    exact-solution cache, so it compiles (and solves) exactly what that command needs; with
    whether the compile notice appeared (:mod:`analyzer.compile_notice`)."""
    import os
    import sys
    import tempfile
    from pathlib import Path

    import analyzer
    from analyzer.benchkit import BenchQuery
    from analyzer.compile_notice import MESSAGE
    from analyzer.games import get_game

    root = Path(analyzer.__file__).resolve().parent.parent
    rows = []
    for q in [c for c in get_game(key).load("bench") if isinstance(c, BenchQuery)]:
        with tempfile.TemporaryDirectory(prefix="pushluck-first-") as tmp:
            env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "numba"),
                       PUSHLUCK_CACHE_DIR=str(Path(tmp) / "solutions"))
            seconds, cpu, proc = _timed_subprocess([sys.executable, "-m", "analyzer", *q.argv],
                                                   env, cwd=root)
        if proc.returncode != q.exit_code:
            tail = (proc.stderr.strip().splitlines() or [""])[-1]
            raise SystemExit(f"`pushluck {' '.join(q.argv)}` exited {proc.returncode}: {tail}")
        rows.append({"game": key, "query": q.name, "seconds": seconds, "cpu_seconds": cpu,
                     "compiled": MESSAGE in proc.stderr})
    return rows


def _cpu(seconds: float | None) -> str:
    return "—" if seconds is None else f"{seconds:.1f} s"


def _compile_times(games, as_json: bool, first: bool = True) -> None:
    """Per game: `bench --warm --kernels-only` in a fresh NUMBA_CACHE_DIR (cold compile, whole
    process), then again on that cache (warm load), and the kernels compiled for more than one
    type signature (``multi_signatures``); the directory is removed afterwards. Then the total
    over the games, and (``first``) each query command's first answer from empty caches
    (:func:`_first_queries`). The games run one after another, so each has the machine's
    cores to itself as far as this command goes."""
    import json
    import os
    import sys
    import tempfile

    from analyzer.benchkit import machine, machine_line
    from analyzer.games import game_keys, get_game
    from analyzer.output import emit, note, table

    rows, firsts = [], []
    for key in (games or game_keys()):
        get_game(key)
        with tempfile.TemporaryDirectory(prefix="pushluck-numba-") as cache:
            # one process compiles everything (kernels/compile_ahead.py off): a measure of the
            # compile work, comparable across versions; the first answers below run as a user's
            env = dict(os.environ, NUMBA_CACHE_DIR=cache, PUSHLUCK_COMPILE_AHEAD="0")
            cmd = [sys.executable, "-m", "analyzer", "bench", "--warm", "--kernels-only",
                   "--game", key, "--json"]
            times, cpus, outs = [], [], []
            for _ in range(2):
                seconds, cpu, proc = _timed_subprocess(cmd, env)
                if proc.returncode != 0:
                    raise SystemExit(f"bench --warm --game {key} failed:\n{proc.stderr.strip()}")
                times.append(seconds)
                cpus.append(cpu)
                outs.append(proc.stdout)
        # the cold run compiles every callee for each signature it is called with (a warm run
        # loads the callers whole and never dispatches to them)
        multi = json.loads(outs[0])["warmed"][0]["multi_signature_kernels"]
        rows.append({"game": key, "cold_seconds": times[0], "warm_seconds": times[1],
                     "cold_cpu_seconds": cpus[0], "warm_cpu_seconds": cpus[1],
                     "multi_signature_kernels": multi})
        note(f"bench --compile: {key} cold {times[0]:.1f} s ({_cpu(cpus[0])} CPU), "
             f"warm {times[1]:.1f} s")
        if first:
            firsts += _first_queries(key)
    total = {k: (None if any(r[k] is None for r in rows) else sum(r[k] for r in rows))
             for k in ("cold_seconds", "warm_seconds", "cold_cpu_seconds", "warm_cpu_seconds")}
    payload = {"machine": machine(), "compile": rows, "total": total, "first_queries": firsts}

    def render():
        from analyzer.words import fit

        lines = fit([machine_line(payload["machine"], None)])
        lines.append(table([(r["game"], f"{r['cold_seconds']:.1f} s", _cpu(r["cold_cpu_seconds"]),
                             f"{r['warm_seconds']:.1f} s") for r in rows + [dict(total, game="total")]],
                           ["game", "compile (cold cache)", "CPU", "load (warm cache)"], "lrrr"))
        for r in rows:
            for name, count in r["multi_signature_kernels"].items():
                lines.append(f"{r['game']}: {name} compiled for {count} signatures")
        if firsts:
            lines.append(table([(q["game"], q["query"], f"{q['seconds']:.1f} s",
                                 "yes" if q["compiled"] else "no") for q in firsts],
                               ["game", "first query after install (empty caches)", "time",
                                "compiled"], "llrl"))
        return "\n".join(lines)

    emit(payload, as_json, render)


def register(root: typer.Typer) -> None:
    root.command("bench")(bench)
