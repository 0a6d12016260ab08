"""One line on stderr when, and only when, Numba really compiles a kernel in this process.

What belongs here: the notice a command prints before a first-use compile (seconds to a minute
of silence otherwise). Numba fires its ``numba:compile`` event only after a dispatcher found no
usable entry in its on-disk cache (a cache hit loads without the event), so listening to that
event says "compiling" exactly when it happens, however busy the machine is; a timer that fires
when a kernel call takes longer than some fraction of a second cannot tell a compile from a slow
cache load on a loaded machine.

:func:`watch` arms the listener without importing Numba: a query that answers in plain Python
must not pay for ``import numba`` (tests/test_query_imports.py). If Numba is not loaded yet, a
finder placed first on ``sys.meta_path`` waits for its import, lets the normal machinery load it
and registers the listener once the module is complete.
"""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys

MESSAGE = "compiling kernels (once; later runs load them from the cache)…"

_state = {"armed": False, "said": False}


def _say(_event=None) -> None:
    """Write the notice, the first time only (one line per process, however many kernels)."""
    if not _state["said"]:
        _state["said"] = True
        sys.stderr.write(MESSAGE + "\n")
        sys.stderr.flush()


def _listen() -> None:
    """Register :func:`_say` for the start of every real Numba compile."""
    from numba.core import event

    class _FirstCompile(event.Listener):
        def on_start(self, event):
            _say(event)

        def on_end(self, event):
            pass

    event.register("numba:compile", _FirstCompile())


class _AfterNumba(importlib.abc.MetaPathFinder):
    """Finds nothing itself; when ``numba`` is about to be imported, it hands back the real spec
    with a loader that calls :func:`_listen` once the package has executed."""

    def find_spec(self, name, path, target=None):
        if name != "numba":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        load = spec.loader.exec_module

        def exec_module(module):
            load(module)
            _listen()

        spec.loader.exec_module = exec_module
        return spec


def watch() -> None:
    """Arm the notice for this process (idempotent): now if Numba is loaded, else on its import."""
    if _state["armed"]:
        return
    _state["armed"] = True
    if "numba" in sys.modules:
        _listen()
    else:
        sys.meta_path.insert(0, _AfterNumba())


def said() -> bool:
    """Whether this process printed the notice (a real compile started)."""
    return _state["said"]
