"""What a `pushluck` process does first, before Typer, NumPy or Numba are imported.

:func:`begin` runs at the top of ``python -m analyzer`` and of the ``pushluck`` script:

* it installs the SIGINT/SIGTERM handler (:mod:`analyzer.interrupts`), recording only, so a
  Ctrl-C in the first tenth of a second (while Typer is imported) ends in one line and exit
  code 130 rather than a ``KeyboardInterrupt`` traceback;
* it gives a closed standard stream (``>&-``) a stand-in: file descriptors 0-2 are reopened on
  ``/dev/null`` (so a file opened later can never take their number), stdin reads nothing,
  stderr is discarded, and a write to a closed stdout is an I/O failure (one line, exit 1);
* it wraps stdout (:class:`GuardedOutput`) so that a failed write (``>/dev/full``: no space
  left; a closed pipe) is an :class:`~analyzer.errors.IOFailure` with one line, not an
  ``OSError`` traceback or Python's "Exception ignored" at exit;
* it checks the environment Numba reads before Numba starts (:func:`environment_problem`):
  ``NUMBA_NUM_THREADS=0`` made Numba raise at import and ``NUMBA_NUM_THREADS=100000`` crashed
  the process (SIGSEGV) while it started its threads;
* it asks BLAS for one thread unless the user chose (``OPENBLAS_NUM_THREADS``,
  ``MKL_NUM_THREADS``): the kernels' threads are Numba's, and BLAS's only work is small
  products (the belief's fit) that a second thread pool on a busy machine made seconds slow.

Only the standard library is imported here.
"""
from __future__ import annotations

import errno
import os
import sys

#: the most kernel threads `NUMBA_NUM_THREADS` may ask for: a few times the machine's cores
#: (more buy nothing and, by the thousand, crash Numba's thread pool), and at least 64
THREADS_FLOOR, THREADS_PER_CORE = 64, 4
THREADING_LAYERS = ("default", "safe", "forksafe", "threadsafe", "tbb", "omp", "workqueue")
#: errno values of a failed write to stdout that mean "the reader went away": quiet, exit 0
GONE = (errno.EPIPE,)
#: the variables that set BLAS's thread count (set to 1 unless the user set them)
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


_BEGUN = {"done": False}


def is_console_script() -> bool:
    """True in the ``pushluck`` script (which imports analyzer.cli.main before calling it)."""
    return os.path.basename(sys.argv[0] if sys.argv else "") == "pushluck"


def begin() -> None:
    """Everything above, in that order, once per process; a bad environment ends the process
    (one line, exit 2)."""
    from analyzer import interrupts

    if _BEGUN["done"]:
        return
    _BEGUN["done"] = True
    interrupts.install(armed=False)
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")
    _stand_in_for_closed_streams()
    if not isinstance(sys.stdout, GuardedOutput):
        sys.stdout = GuardedOutput(sys.stdout)
    problem = environment_problem(os.environ, os.cpu_count() or 1)
    if problem:
        sys.stderr.write(f"pushluck: error: {problem}\n")
        sys.stderr.flush()
        raise SystemExit(2)


def max_threads(cpus: int) -> int:
    return max(THREADS_FLOOR, THREADS_PER_CORE * cpus)


def environment_problem(env, cpus: int) -> str | None:
    """A one-line reason why ``env`` would break Numba, or None. NUMBA_NUM_THREADS (when set)
    must be a whole number from 1 to :func:`max_threads`; NUMBA_THREADING_LAYER one of
    :data:`THREADING_LAYERS`."""
    top = max_threads(cpus)
    text = env.get("NUMBA_NUM_THREADS")
    if text is not None:
        t = text.strip()
        if not (t.isascii() and t.isdigit() and len(t) <= 6 and 1 <= int(t) <= top):
            return (f"NUMBA_NUM_THREADS={text[:40]!r} is not allowed: give a whole number of "
                    f"kernel threads from 1 to {top} (this machine has {cpus} CPUs), or unset it")
    layer = env.get("NUMBA_THREADING_LAYER")
    if layer is not None and layer.strip().lower() not in THREADING_LAYERS:
        return (f"NUMBA_THREADING_LAYER={layer[:40]!r} is not allowed: use one of "
                f"{', '.join(THREADING_LAYERS)}, or unset it")
    return None


def threading_layer_failure(exc: BaseException) -> str | None:
    """The one-line reason when ``exc`` is Numba failing to load the threading layer that
    NUMBA_THREADING_LAYER asks for (``tbb`` where Intel TBB is not installed: Numba finds out
    only when the first parallel kernel starts), else None."""
    layer = os.environ.get("NUMBA_THREADING_LAYER")
    if layer is None or not isinstance(exc, ValueError) or "threading layer" not in str(exc):
        return None
    return (f"NUMBA_THREADING_LAYER={layer[:40]!r}: Numba cannot load that threading layer on "
            f"this machine (workqueue always works; omp and tbb need their libraries), or "
            f"unset it")


def _stand_in_for_closed_streams() -> None:
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - for the whole process
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    if sys.stdout is None:
        sys.stdout = GuardedOutput(None)


def _write_whole(stream, text: str) -> int:
    """Write all of ``text``. Under ``PYTHONUNBUFFERED=1`` (``python -u``) the text stream
    writes straight to the file, and a write to a pipe that a signal interrupts returns the
    bytes written so far: the text stream drops the rest without a word (a 4 MB JSON kept
    64 kB). So the encoded bytes go to the binary layer until all are taken. A non-blocking
    file that is full (a raw write returns None, a buffered one raises BlockingIOError) is
    waited on with ``select`` until it takes more, rather than asked again at once."""
    binary = getattr(stream, "buffer", None)
    if binary is None:
        return stream.write(text)
    stream.flush()
    data = memoryview(text.encode(stream.encoding or "utf-8", stream.errors or "strict"))
    while data:
        try:
            taken = binary.write(data)
        except BlockingIOError as exc:
            taken = exc.characters_written
            _wait_writable(binary)
        if taken is None:
            _wait_writable(binary)
            taken = 0
        data = data[taken:]
    return len(text)


def _wait_writable(binary, seconds: float = 1.0) -> None:
    """Block until ``binary``'s descriptor can take more bytes (or ``seconds`` pass)."""
    import select

    try:
        select.select([], [binary.fileno()], [], seconds)
    except (OSError, ValueError):  # no descriptor to wait on: try the write again
        pass


class GuardedOutput:
    """sys.stdout, whose failed writes are :class:`~analyzer.errors.IOFailure` (module doc).

    After a failure the descriptor is pointed at ``/dev/null``, so the text still buffered is
    discarded quietly when the interpreter flushes at exit. ``stream`` None stands for a stdout
    the user closed: every write fails."""

    def __init__(self, stream):
        self._stream = stream
        self.failed: OSError | None = None

    def _fail(self, exc: OSError):
        from analyzer.errors import IOFailure

        self.failed = exc
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.close(null)
        except OSError:
            pass
        if exc.errno in GONE:
            return BrokenPipeError(exc.errno, exc.strerror)
        return IOFailure(f"cannot write the output to stdout: {exc.strerror or exc}")

    def write(self, text: str) -> int:
        if isinstance(text, str) and not text:
            return 0  # (Click probes the stream with empty writes; /dev/full fails even those)
        if self._stream is None:
            raise self._fail(OSError(errno.EBADF, "standard output is closed"))
        try:
            return _write_whole(self._stream, text)
        except OSError as exc:
            raise self._fail(exc) from None

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except OSError as exc:
            raise self._fail(exc) from None

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def __getattr__(self, name):
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)
