"""Reading a file the user named (rules, decks, positions, score files, recipes, rule files).

One reader for every file option, so that none of them can hang or fill the memory:

* only a regular file is read. The file is opened without blocking (``O_NONBLOCK``, so opening
  a FIFO with no writer returns at once instead of waiting for one) and its type is checked on
  the open descriptor (``fstat``), so a device (``/dev/zero``), a FIFO, a socket or a folder is
  refused even when a symbolic link leads to it;
* at most ``limit`` bytes are read (1 MiB by default: every pushluck input is a few kB): a
  longer file is refused after reading ``limit + 1`` bytes, never loaded whole;
* every failure (missing, unreadable, a name too long, a loop of symbolic links, a NUL byte in
  the name) is a one-line :class:`~analyzer.errors.UserError` naming the file.

Only the standard library: a bad file is refused before NumPy is loaded.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from analyzer.errors import UserError

#: the largest file any option reads
MAX_BYTES = 1 << 20

_REASONS = {errno.ENOENT: "no such file", errno.EISDIR: "not a regular file"}


def shown(path) -> str:
    """``path`` as an error message shows it: names over 120 characters are shortened."""
    text = str(path)
    return text if len(text) <= 120 else f"{text[:60]}…{text[-40:]} ({len(text)} characters)"


def read_user_bytes(path, limit: int = MAX_BYTES, kind: str = "input") -> bytes:
    """The bytes of the regular file ``path`` (module doc), at most ``limit`` of them; ``kind``
    names what the file should be in the message for a file that is too large."""
    name = shown(path)
    text = os.fspath(path) if isinstance(path, (str, Path)) else str(path)
    if not text or "\x00" in text:
        raise UserError(f"cannot read '{name}': not a file name")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
        | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(text, flags)
    except OSError as exc:
        reason = _REASONS.get(exc.errno, exc.strerror or str(exc))
        raise UserError(f"cannot read {name}: {reason}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UserError(f"cannot read {name}: not a regular file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise UserError(f"cannot read {name}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise UserError(f"{name} is larger than {_size(limit)}: not a pushluck {kind} file")
    return b"".join(chunks)


def read_user_text(path, limit: int = MAX_BYTES, kind: str = "input") -> str:
    """The UTF-8 text of the regular file ``path`` (:func:`read_user_bytes`)."""
    raw = read_user_bytes(path, limit, kind)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{shown(path)} is not UTF-8 text (byte {exc.start})") from None


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 and n % (1 << 20) == 0 else f"{n:,} bytes"
