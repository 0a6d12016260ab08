"""`make fuzz` without pytest's overhead: run the table, the issue cases and N random cases,
then the classes of issue 33 (positions of every type, rule files of every shape, huge and tiny
floats, hostile files inside --out; in real processes: bot knobs, the environment, signals at
random moments, a full disk, a full or closed stdout), print the tally per class (cases,
tracebacks, exit 0 on invalid input, multi-line stderr, timeouts, crashes) and each failure."""
from __future__ import annotations

import collections
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import fuzz_classes as fc  # noqa: E402
from tests import fuzz_harness as fh  # noqa: E402
from tests import fuzz_process as fp  # noqa: E402


def _kind(failure: str) -> str:
    if failure.startswith("exit 0"):
        return "exit-0-on-invalid"
    head = failure.split(":")[0].split(" ")[0]
    return "multi-line" if head.isdigit() else head


def _run(label: str, cases, runner, tally: collections.Counter, failures: list) -> None:
    start = time.monotonic()
    for i, case in enumerate(cases):
        t0 = time.monotonic()
        fails = runner(case)
        took = time.monotonic() - t0
        if took > 10:
            shown = case.label if isinstance(case, fp.ProcCase) else " ".join(
                a[:40] for a in case[0])
            print(f"slow {took:.0f} s: {shown}", file=sys.__stderr__, flush=True)
        tally[label, "cases"] += 1
        for f in fails:
            tally[label, _kind(f)] += 1
            failures.append(f)
            print(f, flush=True)
        if (i + 1) % 50 == 0:
            print(f"... {label} {i + 1}/{len(cases)}", file=sys.__stderr__, flush=True)
    tally[label, "seconds"] += round(time.monotonic() - start)


def _sample(cases: list, k: int | None, seed: int = 33) -> list:
    """``k`` of ``cases`` drawn without replacement (seeded: a rerun draws the same), or all."""
    if k is None or k >= len(cases):
        return cases
    return random.Random(seed).sample(cases, k)


def main(argv: list[str]) -> int:
    """``fuzz_main.py [RANDOM_N] [--only CMD,CMD] [--classes A,B] [--sample K]``: the issue
    cases, the table, RANDOM_N random cases (restricted to the commands named after --only, e.g.
    the fast ones) and the classes named after --classes (default: all of table, positions,
    rules-types, rules, floats, hostile-out, knobs, env, signals, disk, stdout); with --sample,
    K cases of each class drawn at random (every class exercised in minutes, not hours)."""
    only = classes = sample = None
    if "--sample" in argv:
        i = argv.index("--sample")
        sample = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    if "--only" in argv:
        i = argv.index("--only")
        only = set(argv[i + 1].split(","))
        argv = argv[:i] + argv[i + 2:]
    if "--classes" in argv:
        i = argv.index("--classes")
        classes = set(argv[i + 1].split(","))
        argv = argv[:i] + argv[i + 2:]
    random_n = int(argv[0]) if argv else 0
    tmp = Path(tempfile.mkdtemp(prefix="pushluck-fuzz-"))

    def wanted(name):
        return classes is None or name in classes

    tally: collections.Counter = collections.Counter()
    failures: list[str] = []
    if wanted("table"):
        cases = fh.issue_cases(tmp) + _sample(fh.table_cases(tmp) + fh.random_cases(
            tmp, random_n), sample)  # the issue cases always whole
        if only is not None:
            cases = [c for c in cases if " ".join(c[0][:2]) in only or c[0][0] in only]
        _run("table", cases, lambda c: fh.run_case(*c), tally, failures)
    inprocess = {"positions": fc.position_type_cases, "rules-types": fc.rules_type_cases,
                 "rules": fc.rule_file_cases,
                 "floats": fc.float_option_cases, "hostile-out": fc.hostile_out_cases}
    for name, make in inprocess.items():
        if wanted(name):
            _run(name, _sample(make(tmp), sample), fc.run_prepared, tally, failures)
    process = {"knobs": lambda: fp.knob_cases(), "env": lambda: fp.env_cases(tmp / "env"),
               "signals": lambda: fp.signal_cases(tmp / "signals"),
               "disk": lambda: fp.disk_full_cases(tmp / "disk"), "stdout": fp.stdout_cases}
    for name, make in process.items():
        if wanted(name):
            cases = make()
            if name == "disk" and not cases:
                print("disk: skipped (mounting a tmpfs needs root)", flush=True)
            _run(name, _sample(cases, sample), fp.run_proc_case, tally, failures)
    labels = sorted({label for label, _ in tally})
    for label in labels:
        counts = {k: v for (lab, k), v in tally.items() if lab == label}
        print(f"fuzz {label}: {counts.pop('cases', 0)} cases in {counts.pop('seconds', 0)} s; "
              + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "no failures"))
    total = sum(v for (_lab, k), v in tally.items() if k == "cases")
    print(f"fuzz: {total} cases, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
