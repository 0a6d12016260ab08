"""An on-disk cache of exact solutions, so a query need not solve (or load Numba) every time.

An entry is a set of NumPy arrays saved as ``<cache>/<name>-<key>.npz``, where ``key`` is the
SHA-256 of the entry's name, its parameters (the rules, as JSON) and the code that computes it
(the package version and the bytes of the source files named by the caller). Change the rules or
the solver's code and the key changes, so a stale answer is never read. Entries are written
atomically (a temporary name, then a rename); an unreadable entry is recomputed and replaced.

Where: ``$PUSHLUCK_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/pushluck``, else
``~/.cache/pushluck``. ``PUSHLUCK_NO_CACHE=1`` turns the cache off (compute every time). A cache
folder that cannot be written is not an error: the answer is computed and not kept.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from pathlib import Path
from typing import Callable

import numpy as np


def cache_dir() -> Path:
    if os.environ.get("PUSHLUCK_CACHE_DIR"):
        return Path(os.environ["PUSHLUCK_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pushluck"


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("pushluck")
    except metadata.PackageNotFoundError:  # pragma: no cover - a bare source tree
        return "0"


def entry_key(name: str, params: dict, sources: list[Path]) -> str:
    h = hashlib.sha256()
    h.update(json.dumps({"name": name, "params": params, "version": _version()},
                        sort_keys=True, default=str).encode())
    for src in sources:
        h.update(Path(src).read_bytes())
    return h.hexdigest()[:32]


def cached_arrays(name: str, params: dict, sources: list[Path],
                  compute: Callable[[], dict[str, np.ndarray]],
                  keep: int | None = None) -> dict[str, np.ndarray]:
    """The arrays ``compute()`` returns for ``params``, from the cache when a valid entry exists.

    ``keep``: at most this many entries of ``name`` stay on disk; writing a new one removes the
    least recently used (a read marks an entry used)."""
    if os.environ.get("PUSHLUCK_NO_CACHE") == "1":
        return compute()
    path = cache_dir() / f"{name}-{entry_key(name, params, sources)}.npz"
    try:
        with np.load(path, allow_pickle=False) as data:
            got = {k: data[k] for k in data.files}
        if keep is not None:
            _touch(path)
        return got
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        pass  # missing or unreadable: compute it again
    arrays = compute()
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(buf.getvalue())
        os.replace(tmp, path)
        if keep is not None:
            _prune(path.parent, name, keep)
    except OSError:
        pass  # a read-only cache folder only costs speed
    return arrays


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


def _prune(folder: Path, name: str, keep: int) -> None:
    """Remove all but the ``keep`` most recently used entries of ``name``."""
    entries = []
    for p in folder.glob(f"{name}-*.npz"):
        try:
            entries.append((p.stat().st_mtime_ns, p))
        except OSError:
            continue  # removed meanwhile by another process
    for _mtime, p in sorted(entries, reverse=True)[keep:]:
        try:
            p.unlink()
        except OSError:
            pass
