"""kernels/compile_ahead.py: an engine missing from the cache is compiled in a second process
while the driver compiles, and loaded from the cache, not compiled, by the first.

A toy engine and driver (written to a temporary module, with a fresh Numba cache per test) stand
in for the games': the contract is the same, at a second of compile instead of a minute."""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

TOY = '''
import numpy as np
from numba import njit, prange, types

from kernels.engine_arg import EngineDriver


@njit(cache=True)
def engine(x, k):
    return x * 3.0 + k


def _driver(cont, xs, k):
    out = np.empty(xs.shape[0])
    for i in prange(xs.shape[0]):
        out[i] = cont(xs[i], k)
    return out


ENGINE_TYPE = types.FunctionType(types.float64(types.float64, types.int64))
DRIVER = EngineDriver(_driver, lambda tys: ENGINE_TYPE, types.float64[::1])
run = DRIVER.bind(engine)
'''

SCRIPT = '''
import json, sys
import numpy as np
from kernels import compile_ahead
started = []
phase = ["before the call"]
real_start = compile_ahead.start
def spy(d, sig):
    started.append(phase[0])
    return real_start(d, sig)
compile_ahead.start = spy
import os
import toy_engine as T
xs = np.array([1.0, 2.0, 4.0])
if os.environ.get("TOY_AHEAD") == "1":  # started early, before other work, then called
    T.run.ahead(xs, 5)
    T.run.ahead(xs, 5)  # a second request while one runs starts nothing
phase[0] = "in the call"
got = T.run(xs, 5).tolist()
sig = T.ENGINE_TYPE.signature
print(json.dumps({"got": got, "started": started,
                  "hits": int(T.engine._cache_hits[sig]),
                  "misses": int(T.engine._cache_misses[sig])}))
'''


@pytest.fixture
def toy(tmp_path):
    (tmp_path / "toy_engine.py").write_text(TOY)
    (tmp_path / "nc").mkdir()
    return tmp_path


def _run(toy, ahead: str = "1", early: str = "0"):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(toy / "nc"), "PUSHLUCK_COMPILE_AHEAD": ahead,
           "TOY_AHEAD": early,
           "PYTHONPATH": os.pathsep.join([str(toy), str(ROOT)])}
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(SCRIPT)], env=env, cwd=toy,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="runs ahead only with two CPUs")
def test_cold_engine_is_compiled_by_the_second_process_and_loaded_here(toy):
    first = _run(toy)
    assert first["got"] == [8.0, 11.0, 17.0]  # 3x + 5, by hand
    assert first["started"] == ["in the call"]  # one engine ran ahead...
    assert first["misses"] == 0 and first["hits"] == 1  # ...and this process loaded it
    again = _run(toy)  # everything cached: nothing runs ahead, nothing compiles
    assert again == {**first, "started": []}


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="runs ahead only with two CPUs")
def test_started_early_the_call_waits_for_that_compile(toy):
    first = _run(toy, early="1")
    assert first["got"] == [8.0, 11.0, 17.0]
    assert first["started"] == ["before the call"]  # by ahead(), and the call waited for it
    assert first["misses"] == 0 and first["hits"] == 1
    again = _run(toy, early="1")  # cached: ahead() starts nothing
    assert again["started"] == [] and again["misses"] == 0


def test_turned_off_the_engine_compiles_here(toy):
    off = _run(toy, ahead="0")
    assert off["got"] == [8.0, 11.0, 17.0]
    assert off["started"] == [] and off["misses"] == 1 and off["hits"] == 0


def test_cold_reads_the_cache_index(toy, monkeypatch):
    """cold(): True before any compile, False once compiled in memory, False in a new process
    once the cache holds it (checked there by the driver: nothing started)."""
    monkeypatch.syspath_prepend(str(toy))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(toy / "nc"))
    script = ("import json, toy_engine as T\nfrom kernels.compile_ahead import cold\n"
              "s = T.ENGINE_TYPE.signature\nb = cold(T.engine, s)\nT.engine.compile(s)\n"
              "print(json.dumps([b, cold(T.engine, s)]))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(toy), str(ROOT)])}
    first = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                           text=True, timeout=300)
    assert json.loads(first.stdout) == [True, False], first.stderr
    second = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                            text=True, timeout=300)
    assert json.loads(second.stdout) == [False, False], second.stderr


def test_a_failed_second_process_leaves_the_compile_here(toy):
    """A child that cannot compile (its module cannot be imported there) is waited for, and
    this process compiles the engine itself: same result."""
    env_script = SCRIPT.replace("return real_start(d, sig)",
                                "import os; os.environ['PYTHONPATH'] = ''\n"
                                "    return real_start(d, sig)")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(toy / "nc"), "PUSHLUCK_COMPILE_AHEAD": "1",
           "PYTHONPATH": os.pathsep.join([str(toy), str(ROOT)])}
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(env_script)], env=env, cwd="/",
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["got"] == [8.0, 11.0, 17.0]
    if (os.cpu_count() or 1) > 1:
        assert got["started"] == ["in the call"]
    assert got["misses"] == 1 and got["hits"] == 0
