"""`make mutate`, part 1: mutmut over the pure-Python modules, in a scratch copy of the tree.

The files to mutate and the tests to run are configured in ``[tool.mutmut]`` of pyproject.toml.
The tree (files tracked by git plus new untracked ones) is copied to a scratch folder
(``$MUTATE_DIR``, default ``/tmp/pushluck-mutmut``) so mutmut's ``mutants/`` never lands in the
working tree; mutmut runs there and this script prints one row per module:
killed, survived, timeout (crash or hang), no tests, and the score
(killed + timeout) / (killed + survived + timeout + no tests).

Usage: python tests/mutation/run_mutmut.py [--jobs N] [PATTERN ...]   (PATTERN: mutmut globs,
e.g. ``"analyzer.stats*"``; default all configured modules).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def copy_tree(dest: Path) -> None:
    """Copy the files git knows (tracked, or untracked and not ignored) to ``dest``."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split("\n")
    for rel in filter(None, files):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def summarise(scratch: Path) -> list[tuple[str, Counter]]:
    """Per-module status counts read from mutmut's ``.meta`` files (exit code per mutant)."""
    rows = []
    for meta in sorted((scratch / "mutants").rglob("*.py.meta")):
        data = json.loads(meta.read_text())
        counts: Counter = Counter()
        for name, code in data.get("exit_code_by_key", {}).items():
            counts[_status(code)] += 1
        module = str(meta.relative_to(scratch / "mutants"))[: -len(".meta")]
        rows.append((module, counts))
    return rows


def _status(code) -> str:
    """mutmut's own reading of a mutant's exit code, folded into the table's columns."""
    from mutmut.stats import status_by_exit_code

    status = status_by_exit_code[code]
    if status in ("suspicious", "segfault", "timeout"):
        return "timeout"  # the tests noticed: a crash or a hang (listed apart from kills)
    if status == "not checked":
        return "not run"
    return status


def print_table(rows, seconds: float) -> float:
    cols = ("killed", "survived", "timeout", "no tests", "not run")
    # score = (killed + timeout) / (killed + survived + timeout + no tests): a mutant that no
    # selected test reaches counts as surviving
    print(f"\n{'module':48s} " + " ".join(f"{c:>8s}" for c in cols) + "    score")
    total: Counter = Counter()
    for module, c in rows:
        total.update(c)
        print(f"{module:48s} " + " ".join(f"{c[k]:8d}" for k in cols) + f"  {_score(c):6.1%}")
    print(f"{'TOTAL':48s} " + " ".join(f"{total[k]:8d}" for k in cols) + f"  {_score(total):6.1%}")
    print(f"time: {seconds:.0f} s")
    return _score(total)


def _score(c: Counter) -> float:
    judged = c["killed"] + c["survived"] + c["timeout"] + c["no tests"]
    return (c["killed"] + c["timeout"]) / judged if judged else 0.0


def _select_tests(pyproject: Path, tests: list[str]) -> None:
    """Replace the scratch copy's test selection (the working tree's file is left alone)."""
    import re

    text = pyproject.read_text()
    listed = ", ".join(f'"{t}"' for t in tests)
    text = re.sub(r"pytest_add_cli_args_test_selection = \[.*?\]",
                  f"pytest_add_cli_args_test_selection = [{listed}]", text, flags=re.S)
    pyproject.write_text(text)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("patterns", nargs="*")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", action="store_true", help="reuse the scratch folder (resume)")
    ap.add_argument("--tests", nargs="+", default=None,
                    help="test files to run instead of the configured selection")
    args = ap.parse_args()
    scratch = Path(os.environ.get("MUTATE_DIR", "/tmp/pushluck-mutmut"))
    if scratch.exists() and not args.keep:
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True, exist_ok=True)
    copy_tree(scratch)
    if args.tests:
        _select_tests(scratch / "pyproject.toml", args.tests)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(scratch / "mutants")
    env["NUMBA_NUM_THREADS"] = "1"
    t0 = time.time()
    cmd = [sys.executable, "-m", "mutmut", "run", "--max-children", str(args.jobs), *args.patterns]
    subprocess.run(cmd, cwd=scratch, env=env)
    if all(c["not run"] == sum(c.values()) for _, c in summarise(scratch)):
        # mutmut 3.8's first stats collection in a fresh scratch copy has failed with a mutant
        # apparently active (RunResult.block_sums empty); a second `mutmut run` in the same
        # copy collects them and runs every mutant (seen on 1 Dec 2026; see RESULTS.md)
        print("mutmut ran no mutant (its stats collection failed): running it once more")
        subprocess.run(cmd, cwd=scratch, env=env)
    print_table(summarise(scratch), time.time() - t0)
    print(f"surviving mutants: cd {scratch} && {sys.executable} -m mutmut results; "
          f"mutmut show NAME")
    return 0


if __name__ == "__main__":
    sys.exit(main())
