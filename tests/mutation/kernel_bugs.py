"""`make mutate`, part 2: curated planted bugs in the Numba kernels, one at a time.

Each entry of ``tests/mutation/kernel_bugs.toml`` names a file under ``kernels/``, an original
snippet that must occur exactly once in it, the mutated snippet, and the test files (optionally
``-k`` expressions) that should catch it. For every bug this script

1. copies the tree (files git knows) once to a scratch folder (``$KERNEL_BUGS_DIR``, default
   ``/tmp/pushluck-kernel-bugs``), never touching the working tree;
2. writes the mutated file there and deletes the Numba cache files it can make stale (those of
   its kernel package and of the tests; all of them for ``kernels/rng.py``, which every kernel
   inlines: a dependant's cache key does not see an inlined helper change);
3. runs ``pytest -x`` on the bug's tests with a time limit, then restores the file;

and prints one row per bug: caught (a test failed or crashed), survived (all passed), timeout
(counted as caught: a hang is noticed), error (the tests could not run: counted as neither).

Usage: python tests/mutation/kernel_bugs.py [--only ID[,ID...]] [--game NAME] [--check]
``--check`` only verifies that every snippet applies (each original occurs exactly once).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
BUGS = Path(__file__).with_name("kernel_bugs.toml")


def load_bugs(path: Path = BUGS) -> list[dict]:
    bugs = tomllib.loads(path.read_text())["bug"]
    ids = [b["id"] for b in bugs]
    if len(ids) != len(set(ids)):
        raise SystemExit("kernel_bugs.toml: duplicate ids")
    return bugs


def check(bug: dict, root: Path) -> str:
    """The mutated text of the bug's file; raises SystemExit when the snippet does not apply."""
    text = (root / bug["file"]).read_text()
    count = text.count(bug["original"])
    if count != 1:
        raise SystemExit(f"{bug['id']}: original snippet occurs {count} times in {bug['file']}")
    if bug["original"] == bug["mutated"]:
        raise SystemExit(f"{bug['id']}: mutated snippet equals the original")
    return text.replace(bug["original"], bug["mutated"])


def copy_tree(dest: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split("\n")
    for rel in filter(None, files):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def clear_numba_cache(root: Path, mutated: str) -> None:
    """Delete the Numba cache files a mutation of ``mutated`` can make stale: its kernel package
    (callers compile their callees into their own cache entries) and the tests' kernels; all of
    them for kernels/rng.py, which every kernel inlines."""
    parts = Path(mutated).parts
    where = [root] if len(parts) < 3 else [root / parts[0] / parts[1], root / "tests"]
    for base in where:
        for pattern in ("*.nbi", "*.nbc"):
            for f in base.rglob(pattern):
                f.unlink()


def run_bug(bug: dict, scratch: Path, timeout: float) -> tuple[str, float, str]:
    target = scratch / bug["file"]
    original = target.read_text()
    target.write_text(check(bug, scratch))
    clear_numba_cache(scratch, bug["file"])
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *bug["tests"]]
    if bug.get("k"):
        cmd += ["-k", bug["k"]]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(scratch)
    t0 = time.time()
    try:
        proc = subprocess.run(cmd, cwd=scratch, env=env, capture_output=True, text=True,
                              timeout=timeout)
        rc, out = proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired:
        rc, out = None, "timeout"
    finally:
        target.write_text(original)
    seconds = time.time() - t0
    if rc is None:
        return "timeout", seconds, out
    if rc == 0:
        return "survived", seconds, out
    if rc in (2, 3, 4, 5) and "failed" not in out and "error" not in out.lower():
        return "error", seconds, out
    first = next((ln for ln in out.splitlines() if ln.startswith("FAILED") or "Error" in ln), "")
    return "caught", seconds, first[:100]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="")
    ap.add_argument("--game", default="")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--timeout", type=float, default=900.0)
    args = ap.parse_args()
    bugs = load_bugs()
    if args.only:
        wanted = set(args.only.split(","))
        bugs = [b for b in bugs if b["id"] in wanted]
    if args.game:
        bugs = [b for b in bugs if b["file"].startswith(f"kernels/{args.game}")]
    for bug in bugs:
        check(bug, ROOT)
    if args.check:
        print(f"{len(bugs)} bugs apply cleanly")
        return 0
    scratch = Path(os.environ.get("KERNEL_BUGS_DIR", "/tmp/pushluck-kernel-bugs"))
    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True)
    copy_tree(scratch)
    rows = []
    t_all = time.time()
    print(f"{'id':8s} {'file':30s} {'result':9s} {'time':>6s}  what", flush=True)
    for bug in bugs:
        result, seconds, note = run_bug(bug, scratch, args.timeout)
        rows.append((bug, result, seconds))
        print(f"{bug['id']:8s} {bug['file']:30s} {result:9s} {seconds:6.0f}  {bug['what']}"
              + (f"\n{'':8s} {note}" if result in ("error", "caught") and note else ""),
              flush=True)
    caught = sum(r in ("caught", "timeout") for _, r, _ in rows)
    judged = sum(r != "error" for _, r, _ in rows)
    print(f"\ncaught {caught} of {judged} ({caught / max(judged, 1):.0%}); "
          f"errors {len(rows) - judged}; time {time.time() - t_all:.0f} s")
    for bug, r, _ in rows:
        if r == "survived":
            print(f"survived: {bug['id']} ({bug['file']}): {bug['what']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
