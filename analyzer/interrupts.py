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
  left half built, and freeing them as the interpreter shuts down crashed once (SIGSEGV);
* inside the Python code Numba runs during a compiled call (unboxing its arguments, boxing its
  result): the call then returns a result with the exception set ("SystemError:
  CPUDispatcher(...) returned a result with an exception set"), or crashed (SIGSEGV, 1 in 24
  Ctrl-C in `pig advice`).

SIGTERM (``kill PID``, a job scheduler stopping a run) is treated like Ctrl-C: the same handler,
what finished is kept and printed, a report's lock is released, and the exit code is 143
(128 + 15) instead of 130 (128 + 2).

The handler is installed first thing when the process starts (:func:`analyzer.startup.begin`,
before Typer, NumPy or Numba are imported). Until the command is ready to be stopped cleanly
(:func:`arm`) it only records the signal; `pushluck` then checks the record as soon as it is
armed and ends with one line (``interrupted: nothing finished``) instead of a traceback from the
middle of an import.

So the handler installed here (i) sets a flag that survives a swallowed exception (the runner and
the report check it between batches and parts), (ii) does not raise inside an import but re-checks
every 20 ms until the import is over, nor inside Numba's Python code for up to 2 s (a compiled
call's callbacks end within milliseconds; a compile that goes on is stopped inside after all),
and (iii) `prepare_interrupted_exit` clears CPython's
remembered interrupt and ignores a second Ctrl-C while the process shuts down; after an
interrupt inside Numba or LLVM it ends the process without the interpreter's clean-up
(``os._exit``), which is safe because every file we write is complete or not yet renamed.
"""
from __future__ import annotations

import signal
import sys
import time
from contextlib import contextmanager

STATE = {"seen": False, "installed": False, "inside_numba": False, "armed": False,
         "signal": signal.SIGINT, "held": 0, "pending": False}
COMPILER_PATHS = ("/numba/", "/llvmlite/")
RECHECK_SECONDS = 0.02
#: how long an interrupt waits for Numba's own Python code to return before it is raised there
NUMBA_PATIENCE = 2.0


def sigint_seen() -> bool:
    """True once Ctrl-C was pressed (or SIGTERM received) in this process (never set in
    in-process tests)."""
    return STATE["seen"]


def exit_code() -> int:
    """128 + the number of the signal that stopped the run: 130 for Ctrl-C, 143 for SIGTERM."""
    return 128 + int(STATE["signal"])


def stopped_word() -> str:
    """How the one-line message names the stop: "interrupted", or "terminated (SIGTERM)"."""
    return "terminated (SIGTERM)" if STATE["signal"] == signal.SIGTERM else "interrupted"


def _importing(frame) -> bool:
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _on_sigint(signum, frame):  # noqa: ARG001 - the signal module's handler signature
    if not STATE["seen"]:
        STATE["signal"] = signum
    STATE["seen"] = True
    if STATE["armed"]:
        _raise_when_safe(frame)


def _on_recheck(signum, frame):  # noqa: ARG001
    from analyzer.errors import was_interrupted

    if was_interrupted():
        # the command already stopped on the flag (a loop that checks sigint_seen() raised
        # and handled its own KeyboardInterrupt) and is writing what finished: a second,
        # late KeyboardInterrupt from this timer would cut that short (the output was lost)
        STATE.pop("numba_since", None)
        return
    _raise_when_safe(frame)


def _inside_numba(frame) -> bool:
    while frame is not None:
        if any(part in frame.f_code.co_filename for part in COMPILER_PATHS):
            return True
        frame = frame.f_back
    return False


def _raise_when_safe(frame) -> None:
    if STATE["held"]:
        STATE["pending"] = True  # raised when the block of held() ends
        return
    if _importing(frame):
        signal.setitimer(signal.ITIMER_REAL, RECHECK_SECONDS)
        return
    if _inside_numba(frame):
        now = time.monotonic()
        since = STATE.setdefault("numba_since", now)
        if now - since < NUMBA_PATIENCE:  # a call's own Python callbacks end within ms
            signal.setitimer(signal.ITIMER_REAL, RECHECK_SECONDS)
            return
        STATE["inside_numba"] = True  # a compile that goes on: stop inside it after all
    STATE.pop("numba_since", None)
    raise KeyboardInterrupt


@contextmanager
def held(quiet: bool = False):
    """A block that a signal must not cut half-way (drawing or closing the progress bar: Rich
    left half-updated fails when stopped): a Ctrl-C or SIGTERM inside it is raised as
    KeyboardInterrupt when the block ends, or (``quiet``) only recorded (:func:`sigint_seen`),
    for a block that ends a piece of work anyway, such as closing the bar."""
    STATE["held"] += 1
    try:
        yield
    finally:
        STATE["held"] -= 1
        if not STATE["held"] and STATE["pending"]:
            STATE["pending"] = False
            if not quiet:
                raise KeyboardInterrupt


def _quiet_unraisable(default):
    def hook(unraisable):
        if sigint_seen() and isinstance(unraisable.exc_value, KeyboardInterrupt):
            return  # the flag carries the interrupt to the next check; nothing to print
        default(unraisable)
    return hook


def install(armed: bool = True) -> None:
    """Install the handler for SIGINT and SIGTERM (only where Python's default handling is in
    place: a test runner's own handler is left alone); ``armed`` False only records signals
    until :func:`arm`. A second call keeps what the first one recorded. A SIGINT the parent
    ignores (a background job of a non-interactive shell starts so) stays ignored, and SIGTERM
    is still handled: ``kill`` of a background report keeps its finished parts and frees its
    lock."""
    if STATE["installed"]:
        return
    STATE["seen"] = False
    STATE["armed"] = armed
    sigint = signal.getsignal(signal.SIGINT)
    if sigint is not signal.default_int_handler and sigint != signal.SIG_IGN:
        return
    if sigint is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_sigint)
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _on_sigint)
    signal.signal(signal.SIGALRM, _on_recheck)
    sys.unraisablehook = _quiet_unraisable(sys.__unraisablehook__)
    STATE["installed"] = True


def arm() -> bool:
    """From now on a signal raises KeyboardInterrupt (when safe, module doc) instead of being
    only recorded. True when a signal came before: the caller then stops at once."""
    STATE["armed"] = True
    return STATE["seen"]


def exit_interrupted() -> None:
    """Exit with code 130 (143 after SIGTERM): no further KeyboardInterrupt, and no death by
    SIGINT or SIGSEGV at exit.

    ``exec`` of a source string resets CPython's "unhandled KeyboardInterrupt" mark (set when an
    interrupt escaped an earlier ``exec`` of a string, even if it was caught later)."""
    if STATE["installed"]:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        exec("pass", {})  # noqa: S102 - see the docstring
        if STATE["inside_numba"]:
            import os

            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(exit_code())
    sys.exit(exit_code())
