import json
import os
import subprocess
import sys

import pytest

from analyzer.startup import BLAS_THREADS  # noqa: E402 - the standard library only

# as in a `pushluck` process (analyzer/startup.py): BLAS on one thread, set before NumPy loads
for _name in BLAS_THREADS:
    os.environ.setdefault(_name, "1")


def run_cli(*args, check_json=False):
    """Run `python -m analyzer ARGS` in a subprocess; returns (code, stdout, stderr)."""
    proc = subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True,
                          text=True, timeout=300)
    if check_json:
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)
    return proc.returncode, proc.stdout, proc.stderr


def pytest_configure(config):
    """A suite started as a background job of a non-interactive shell (`make test &` in a
    script) inherits SIGINT ignored, and so would every process the tests start: the Ctrl-C
    tests, which signal real processes, could not be run. Give the run Python's usual SIGINT
    handling (the processes it starts then have the default one, as from a terminal)."""
    import signal

    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(items):
    """The README check (minutes, one test) goes first: under pytest-xdist (``make test``) it
    then runs beside the rest of the suite instead of after it."""
    items.sort(key=lambda item: 0 if item.get_closest_marker("readme") else 1)


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture(autouse=True)
def _no_interrupt_leaks():
    """An interrupted run marks the process; one test's interrupt must not leak into the next."""
    from analyzer.errors import reset_interrupted

    reset_interrupted()
    yield
    reset_interrupted()


@pytest.fixture(autouse=True, scope="session")
def _private_solution_cache(tmp_path_factory):
    """Exact solutions are cached on disk (analyzer/cache.py); tests use a cache of their own.
    It starts with the Trash Pandas beliefs learned already in the user's cache (`make setup`
    learns the 3-player one): learning takes 4-30 s per player count and worker, and the
    entry's key holds the learning code, so a stale one is never read."""
    import os
    import shutil

    from analyzer.cache import cache_dir

    private = tmp_path_factory.mktemp("pushluck-cache")
    try:
        for entry in cache_dir().glob("tp-belief-*.npz"):
            shutil.copy2(entry, private / entry.name)
    except OSError:
        pass  # no user cache: the tests learn what they need
    os.environ["PUSHLUCK_CACHE_DIR"] = str(private)
    yield
