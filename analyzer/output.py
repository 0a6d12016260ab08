"""Printing results: exactly one JSON object on stdout with --json, a readable table otherwise."""
from __future__ import annotations

import errno
import json
import math
import os
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterable, Sequence

from analyzer.stats import Statistic


def _default(obj):
    if isinstance(obj, Statistic):
        return obj.to_json()
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        np = None
    if np is not None:
        if isinstance(obj, np.integer):
            return int(obj)
        if isinstance(obj, np.floating):
            return float(obj)
        if isinstance(obj, np.bool_):
            return bool(obj)
        if isinstance(obj, np.ndarray):
            return obj.tolist()
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def _clean(obj):
    """Replace non-finite floats by None so the JSON is standard."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if isinstance(obj, Statistic):
        return _clean(obj.to_json())
    return obj


def to_json(payload: dict) -> str:
    return json.dumps(_clean(payload), default=_default, indent=2, sort_keys=False)


def emit(payload: dict, as_json: bool, render: Callable[[], str]) -> None:
    """Print ``payload`` as JSON, or the text ``render()`` returns.

    After an interrupted run the payload says ``"interrupted": true`` (and the text says so on
    stderr); `pushluck` then exits with code 130.
    """
    from analyzer.errors import was_interrupted

    if was_interrupted():
        payload = {**payload, "interrupted": True}
    if as_json:
        sys.stdout.write(to_json(payload) + "\n")
    else:
        sys.stdout.write(render().rstrip("\n") + "\n")
        if was_interrupted():
            note("interrupted: the figures above cover the trials that finished")


def note(message: str) -> None:
    """A message for the reader that must never pollute stdout (seed drawn, files written)."""
    sys.stderr.write(message.rstrip("\n") + "\n")


def table(rows: Iterable[Sequence], headers: Sequence[str], aligns: str | None = None) -> str:
    """A plain-text table with aligned columns (no pandas: fast to import)."""
    rows = [["" if c is None else str(c) for c in r] for r in rows]
    headers = [str(h) for h in headers]
    widths = [len(h) for h in headers]
    for r in rows:
        for i, c in enumerate(r):
            widths[i] = max(widths[i], len(c))
    aligns = aligns or ("l" + "r" * (len(headers) - 1))

    def fmt(cells):
        out = []
        for i, c in enumerate(cells):
            out.append(c.ljust(widths[i]) if aligns[i] == "l" else c.rjust(widths[i]))
        return "  ".join(out).rstrip()

    lines = [fmt(headers), "  ".join("-" * w for w in widths)]
    lines += [fmt(r) for r in rows]
    return "\n".join(lines)


_UMASK = os.umask(0)
os.umask(_UMASK)


SYSTEM_TREES = ("/proc", "/sys", "/dev")


def check_output_dir(folder: str | Path) -> Path:
    """Make sure ``folder`` can take our files before any work starts: create it if needed
    (one level of missing parents at most), refuse a regular file, a system tree, an unwritable
    folder or an empty name, each with one line."""
    from analyzer.errors import UserError

    text = str(folder)
    if not text.strip() or "\x00" in text:
        raise UserError("--out needs a folder name")
    p = Path(text)
    try:
        resolved = p.resolve()
        p.exists()
    except (OSError, RuntimeError) as exc:  # a name too long, a loop of symbolic links
        from analyzer.userfile import shown

        reason = getattr(exc, "strerror", None) or "a loop of symbolic links"
        raise UserError(f"--out {shown(text)}: {reason}") from None
    if any(str(resolved) == t or str(resolved).startswith(t + "/") for t in SYSTEM_TREES):
        raise UserError(f"--out {text}: refusing to write under {resolved.parts[1]}")
    if p.exists() and not p.is_dir():
        raise UserError(f"--out {text}: exists and is not a folder")
    if not p.exists():
        if not p.parent.exists() and not p.parent.parent.exists():
            raise UserError(f"--out {text}: its parent folder {p.parent} does not exist")
        try:
            p.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"--out {text}: cannot create it ({exc.strerror})") from None
    try:
        fd, probe = tempfile.mkstemp(prefix=".pushluck-probe.", dir=p)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise UserError(f"--out {text}: cannot write there ({exc.strerror})") from None
    return p


def _check_target(p: Path) -> None:
    """Refuse to replace anything but a regular file: never a symlink, a device, a FIFO or a
    folder (an atomic rename would silently replace it)."""
    from analyzer.errors import UserError

    if p.is_symlink():
        raise UserError(f"refusing to replace the symbolic link {p}")
    if p.exists() and not p.is_file():
        raise UserError(f"refusing to write {p}: it exists and is not a regular file")


#: errno values of a write that failed for want of room or by the device, not by a bad path:
#: an I/O failure (exit code 1), where a bad path is bad input (exit code 2)
IO_ERRNOS = frozenset(e for e in (getattr(errno, n, None) for n in
                                  ("ENOSPC", "EDQUOT", "EIO", "EFBIG")) if e is not None)
#: every file written by :func:`atomic_write_bytes` in this command, in order (reset by
#: `pushluck` per command): a command that fails part-way takes back the incomplete set
WRITTEN: list[Path] = []


def _write_failed(exc: OSError, what: str):
    """The one-line error for a write that failed: :class:`IOFailure` for a full disk or a
    device error, :class:`UserError` for anything else (permissions, a bad path)."""
    from analyzer.errors import IOFailure, UserError

    cls = IOFailure if exc.errno in IO_ERRNOS else UserError
    return cls(f"{what}: {exc.strerror or exc}")


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename; a full
    disk raises :class:`~analyzer.errors.IOFailure` and leaves no temporary file behind."""
    p = Path(path)
    _check_target(p)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _write_failed(exc, f"cannot create {p.parent}") from None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    except OSError as exc:
        raise _write_failed(exc, f"cannot write in {p.parent}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_UMASK)
        os.replace(tmp, p)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise _write_failed(exc, f"cannot write {p}") from None
        raise
    WRITTEN.append(p)
    return p


def atomic_write_text(path: str | Path, text: str) -> Path:
    return atomic_write_bytes(path, text.encode("utf-8"))
