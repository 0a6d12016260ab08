"""Compile a game engine in a second process while this one compiles the driver that calls it.

What belongs here: :func:`start` and :func:`finish`, used by kernels/engine_arg.py. A driver that
takes its engine as a first-class function (kernels/engine_arg.py) is compiled without the
engine's code, so on a cold cache the two compiles are independent: the driver's (about 5–10 s
for Trash Pandas' decision driver) and the engine's with all its callees (about 15–17 s). Numba
compiles one function at a time per process (a global compiler lock), so threads cannot overlap
them, but a second process can: it compiles the engine for the signature the driver will pass
and writes it to the on-disk cache (``cache=True``), while this process compiles the driver;
this process then waits for it and loads the engine from the cache instead of compiling it.
The first answer of a cold `trash-pandas decide` comes about 10 s sooner on two cores.

It runs only when it can gain: both the driver and the engine are missing from the cache (read
from Numba's cache index, without loading anything), the machine has more than one CPU, and
``PUSHLUCK_COMPILE_AHEAD`` is not ``0``. The child ends with its parent (an interrupted command
leaves no compile running). If the second process fails, this one compiles the
engine itself as before (same code, same numbers: the cache entry is the one this process would
have written).

The index check reads Numba's cache internals (``_cache``, ``_index_key``, ``_cache_file``);
if they change, :func:`cold` says "not cold" and nothing runs ahead.
"""
from __future__ import annotations

import os
import pickle
import subprocess
import sys


def enabled() -> bool:
    return os.environ.get("PUSHLUCK_COMPILE_AHEAD", "1") != "0" and (os.cpu_count() or 1) > 1


def cold(dispatcher, sig) -> bool:
    """True when ``dispatcher`` has no overload for ``sig`` in memory nor in its disk cache."""
    try:
        if tuple(sig.args) in dispatcher.overloads:
            return False
        cache = dispatcher._cache
        key = cache._index_key(sig, dispatcher.targetctx.codegen())
        return key not in cache._cache_file._load_index()
    except Exception:  # Numba's internals moved, or no cache: never run ahead
        return False


def start(dispatcher, sig):
    """A child process compiling ``dispatcher`` for ``sig`` into the cache (None: not started)."""
    func = dispatcher.py_func
    payload = pickle.dumps((func.__module__, func.__qualname__, sig))
    try:
        proc = subprocess.Popen([sys.executable, "-m", "kernels.compile_ahead"],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        proc.stdin.write(payload)
        proc.stdin.close()
    except OSError:
        return None
    import atexit

    atexit.register(stop, proc)  # this process ends first (an error, an interrupt): stop it
    return proc


def finish(proc) -> bool:
    """Wait for a child of :func:`start`; True if it compiled (the cache now holds the engine).
    Interrupted while waiting, the child is stopped first."""
    if proc is None:
        return False
    try:
        return proc.wait() == 0
    except BaseException:
        stop(proc)
        raise


def stop(proc) -> None:
    """Stop a child of :func:`start` (this process failed or was interrupted); nothing if it
    has finished."""
    if proc is not None and proc.poll() is None:
        proc.kill()
        proc.wait()


def _exit_with_parent() -> None:
    """End this child as soon as its parent has gone, however the parent ended (an interrupt
    during a compile ends it without running exit handlers): a thread checks every half second
    whether the process was handed to another parent."""
    import threading
    import time

    parent = os.getppid()

    def watch():
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _child() -> int:
    import importlib

    _exit_with_parent()
    module, qualname, sig = pickle.load(sys.stdin.buffer)
    func = importlib.import_module(module)
    for part in qualname.split("."):
        func = getattr(func, part)
    func.compile(sig)
    return 0


if __name__ == "__main__":
    raise SystemExit(_child())
