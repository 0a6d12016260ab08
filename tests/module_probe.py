"""Run a `pushluck` command in a fresh interpreter and say which heavy modules it loaded: the
check behind "a query answers without loading Numba / NumPy / pandas" (issue 16)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_reporting_modules(argv: list[str], modules: tuple[str, ...]) -> tuple[list[str], str]:
    """Run ``pushluck ARGV`` from the repository root in a fresh interpreter. Returns its stderr
    lines, the last one being "<exit code> <whether each of ``modules`` was imported>" (e.g.
    "2 False False"), and the whole stderr for an assertion message."""
    code = ("import sys\nfrom analyzer.cli.main import main\n"
            "try:\n    main(sys.argv[1:])\n"
            "except SystemExit as e:\n"
            f"    print(e.code or 0, *[m in sys.modules for m in {tuple(modules)!r}], "
            "file=sys.stderr)\n")
    res = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                         cwd=str(ROOT), timeout=120)
    return res.stderr.strip().splitlines(), res.stderr
