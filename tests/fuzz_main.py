"""`make fuzz` without pytest's overhead: run the table, the issue cases and N random cases,
print the tally (cases, tracebacks, exit 0 on invalid input, multi-line stderr) and each failure."""
from __future__ import annotations

import collections
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import fuzz_harness as fh  # noqa: E402


def main(argv: list[str]) -> int:
    """``fuzz_main.py [RANDOM_N] [--only CMD,CMD]``: the issue cases, the table, RANDOM_N random
    cases (restricted to the commands named after --only, e.g. the fast ones)."""
    only = None
    if "--only" in argv:
        i = argv.index("--only")
        only = set(argv[i + 1].split(","))
        argv = argv[:i] + argv[i + 2:]
    random_n = int(argv[0]) if argv else 0
    tmp = Path(tempfile.mkdtemp(prefix="pushluck-fuzz-"))
    cases = fh.issue_cases(tmp) + fh.table_cases(tmp) + fh.random_cases(tmp, random_n)
    if only is not None:
        cases = [c for c in cases if " ".join(c[0][:2]) in only or c[0][0] in only]
    tally = collections.Counter()
    failures = []
    start = time.monotonic()
    for i, (args, expect) in enumerate(cases):
        t0 = time.monotonic()
        fails = fh.run_case(args, expect)
        took = time.monotonic() - t0
        if took > 5:
            print(f"slow {took:.0f} s: {' '.join(a[:40] for a in args)}", file=sys.__stderr__,
                  flush=True)
        tally["cases"] += 1
        for f in fails:
            tally[f.split(":")[0].split(" ")[0] if not f.startswith("exit 0") else "exit-0-on-invalid"] += 1
            failures.append(f)
            print(f, flush=True)
        if (i + 1) % 50 == 0:
            print(f"... {i + 1}/{len(cases)} {dict(tally)}", file=sys.__stderr__, flush=True)
    print(f"fuzz: {tally['cases']} cases in {time.monotonic() - start:.0f} s; "
          f"tracebacks {tally['traceback']}; exit 0 on invalid {tally['exit-0-on-invalid']}; "
          f"multi-line stderr {sum(v for k, v in tally.items() if k.isdigit())}; "
          f"timeouts {tally['timeout']}; "
          f"other exits {tally['exit']}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
