"""Ctrl-C in a real `pushluck` process: one interrupt, one clean exit with code 130.

Python turns SIGINT into a KeyboardInterrupt wherever the main thread happens to be. Three
places make that unreliable, and each was seen in tests that interrupt a report under load:

* inside an ``import`` (Numba is imported lazily, when the first kernel is needed): a class body
  hit by it fails with "Error calling __set_name__" (a RuntimeError, not a KeyboardInterrupt) and
  leaves the library half imported;
* inside a weakref callback or ``__del__``: Python prints "Exception ignored" and the interrupt
  is lost, so the command finished as if nothing happened;
* inside ``exec`` of a source string (Numba generates code that way): CPython then remembers an
  "unhandled KeyboardInterrupt" even after our code caught it, and kills the process with SIGINT
  at exit (exit status -2 instead of 130);
* inside Numba or LLVM while a kernel is compiled or loaded from the cache: their objects can be
  left half built, and freeing them as the interpreter shuts down crashed once (SIGSEGV).

So the handler installed here (i) sets a flag that survives a swallowed exception (the runner and
the report check it between batches and parts), (ii) does not raise inside an import but re-checks
every 20 ms until the import is over, and (iii) `prepare_interrupted_exit` clears CPython's
remembered interrupt and ignores a second Ctrl-C while the process shuts down; after an
interrupt inside Numba or LLVM it ends the process without the interpreter's clean-up
(``os._exit``), which is safe because every file we write is complete or not yet renamed.
"""
from __future__ import annotations

import signal
import sys

STATE = {"seen": False, "installed": False, "inside_numba": False}
COMPILER_PATHS = ("/numba/", "/llvmlite/")
RECHECK_SECONDS = 0.02


def sigint_seen() -> bool:
    """True once Ctrl-C was pressed in this process (never set in in-process tests)."""
    return STATE["seen"]


def _importing(frame) -> bool:
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _on_sigint(signum, frame):  # noqa: ARG001 - the signal module's handler signature
    STATE["seen"] = True
    _raise_when_safe(frame)


def _on_recheck(signum, frame):  # noqa: ARG001
    _raise_when_safe(frame)


def _inside_numba(frame) -> bool:
    while frame is not None:
        if any(part in frame.f_code.co_filename for part in COMPILER_PATHS):
            return True
        frame = frame.f_back
    return False


def _raise_when_safe(frame) -> None:
    if _importing(frame):
        signal.setitimer(signal.ITIMER_REAL, RECHECK_SECONDS)
        return
    if _inside_numba(frame):
        STATE["inside_numba"] = True
    raise KeyboardInterrupt


def _quiet_unraisable(default):
    def hook(unraisable):
        if sigint_seen() and isinstance(unraisable.exc_value, KeyboardInterrupt):
            return  # the flag carries the interrupt to the next check; nothing to print
        default(unraisable)
    return hook


def install() -> None:
    """Install the handler (only when Python's default one is in place)."""
    STATE["seen"] = False
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return
    signal.signal(signal.SIGINT, _on_sigint)
    signal.signal(signal.SIGALRM, _on_recheck)
    sys.unraisablehook = _quiet_unraisable(sys.__unraisablehook__)
    STATE["installed"] = True


def exit_interrupted() -> None:
    """Exit with code 130: no further KeyboardInterrupt, and no death by SIGINT or SIGSEGV at exit.

    ``exec`` of a source string resets CPython's "unhandled KeyboardInterrupt" mark (set when an
    interrupt escaped an earlier ``exec`` of a string, even if it was caught later)."""
    if STATE["installed"]:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        exec("pass", {})  # noqa: S102 - see the docstring
        if STATE["inside_numba"]:
            import os

            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(130)
    sys.exit(130)
