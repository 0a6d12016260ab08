"""The compile notice (issue 39): one stderr line when Numba really compiles, none when it loads
from its cache however slowly, and arming it imports no Numba. Each case runs a tiny cached
kernel in a fresh interpreter with its own NUMBA_CACHE_DIR."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from analyzer.compile_notice import MESSAGE

ROOT = Path(__file__).resolve().parents[1]

KERNEL = '''
from numba import njit


@njit(cache=True)
def plus_one(x):
    return x + 1


@njit(cache=True)
def twice(x):
    return 2 * plus_one(x)
'''

# What the fresh interpreter runs: arm (or not), check numba is still unloaded, call the kernels.
SCRIPT = '''
import sys, time
sys.path.insert(0, {where!r})
mode = sys.argv[1]
if mode == "slow-load":  # a cache load that takes a second, as on a machine with load 7
    from numba.core import caching
    load = caching.Cache.load_overload
    def slow(self, *a, **k):
        time.sleep(1.0)
        return load(self, *a, **k)
    caching.Cache.load_overload = slow
if mode == "via-main":
    from analyzer.cli.main import main
    try:
        main(["--help"])
    except SystemExit:
        pass
elif mode != "unarmed":
    from analyzer.compile_notice import watch
    watch()
    watch()  # idempotent: still one listener, one line
print("numba loaded before the kernel:", "numba" in sys.modules)
import tiny_kernels
print(tiny_kernels.twice(3), tiny_kernels.plus_one(1.5))
'''


def _run(tmp_path: Path, mode: str) -> tuple[str, str]:
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "tiny_kernels.py").write_text(KERNEL)
    script = tmp_path / "script.py"
    script.write_text(SCRIPT.format(where=str(tmp_path)))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, str(script), mode], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, proc.stderr


def test_a_real_compile_says_so_once_and_a_cache_load_says_nothing(tmp_path):
    out, err = _run(tmp_path, "armed")
    # arming did not import Numba; three compiles (two kernels, one of them for two types)
    assert out.splitlines() == ["numba loaded before the kernel: False", "8 2.5"]
    assert err == MESSAGE + "\n"
    out, err = _run(tmp_path, "armed")  # the same cache: everything loads
    assert out.splitlines()[-1] == "8 2.5" and err == ""


def test_a_slow_cache_load_is_not_called_a_compile(tmp_path):
    _run(tmp_path, "armed")  # fills the cache
    out, err = _run(tmp_path, "slow-load")  # Numba already loaded when armed: the direct path
    assert out.splitlines() == ["numba loaded before the kernel: True", "8 2.5"] and err == ""


def test_the_command_line_arms_it_and_nothing_else_prints_it(tmp_path):
    out, err = _run(tmp_path / "a", "via-main")
    assert out.splitlines()[-1] == "8 2.5" and err == MESSAGE + "\n"
    out, err = _run(tmp_path / "b", "unarmed")  # a fresh cache, so it does compile
    assert out.splitlines()[-1] == "8 2.5" and err == ""
