"""An on-disk cache of exact solutions, so a query need not solve (or load Numba) every time.

An entry is a set of NumPy arrays saved as ``<cache>/<name>-<key>.npz``, where ``key`` is the
SHA-256 of the entry's name, its parameters (the rules, as JSON) and the code that computes it
(the package version and the bytes of the source files named by the caller). Change the rules or
the solver's code and the key changes, so a stale answer is never read. Entries are written
atomically (a temporary name, then a rename); an unreadable entry is recomputed and replaced.

Where: ``$PUSHLUCK_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/pushluck``, else
``~/.cache/pushluck``. ``PUSHLUCK_NO_CACHE=1`` turns the cache off (compute every time). A cache
folder that cannot be written is not an error: the answer is computed and not kept.

Shipped entries: the package carries the entries a first query on the default setups needs
(``analyzer/data/cache``, made by :mod:`analyzer.shipped_cache`), so that query need not learn or
solve them (nor compile the kernels that would). :func:`cached_arrays` reads one when the user's cache has no entry
under the same key, never written to or pruned; since the key covers the code, an entry made
from other code is simply not found (and tests/test_shipped_cache.py fails until
``make shipped-cache`` makes them again).

A query that only looks up a few cells reads an entry with :func:`cached_views`, without NumPy
(whose import costs most of a query's budget, issue 16): ``np.savez`` stores each array
uncompressed as a ``.npy`` member (a magic string, a header that is a Python dict literal giving
``descr``, ``fortran_order`` and ``shape``, then the raw C-order bytes), so each member becomes a
read-only ``memoryview`` cast to the array's item format and shape (``view[i, j, k]`` reads a
cell, ``view.tolist()`` the whole array).
"""
from __future__ import annotations

import ast
import hashlib
import io
import json
import os
import sys
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    import numpy as np

# .npy item types a memoryview can show, by NumPy's descr (little-endian: checked at read time)
_NPY_FORMATS = {"<f8": "d", "<i8": "q", "<u8": "Q", "<i4": "i", "<u4": "I", "|b1": "?",
                "|i1": "b", "|u1": "B"}


#: the entries shipped with the package (module doc)
SHIPPED_DIR = Path(__file__).parent / "data" / "cache"


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
    import numpy as np

    if os.environ.get("PUSHLUCK_NO_CACHE") == "1":
        return compute()
    path = _entry_path(name, params, sources)
    for where in (path, SHIPPED_DIR / path.name):
        try:
            with np.load(where, allow_pickle=False) as data:
                got = {k: data[k] for k in data.files}
            if keep is not None and where == path:
                _touch(path)
            return got
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
            pass  # missing or unreadable: the shipped entry, else compute it again
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


def _entry_path(name: str, params: dict, sources: list[Path]) -> Path:
    return cache_dir() / f"{name}-{entry_key(name, params, sources)}.npz"


def cached_views(name: str, params: dict, sources: list[Path]) -> dict[str, memoryview] | None:
    """The arrays of the valid entry for ``params`` as memoryviews (module doc), without NumPy;
    None when there is no readable entry (or the cache is off, or an array has a type or layout
    a memoryview cannot show): the caller then computes through :func:`cached_arrays`."""
    if os.environ.get("PUSHLUCK_NO_CACHE") == "1" or sys.byteorder != "little":
        return None
    path = _entry_path(name, params, sources)
    try:
        with zipfile.ZipFile(path) as z:
            views = {}
            for info in z.infolist():
                if not info.filename.endswith(".npy"):
                    return None
                view = _npy_view(z.read(info))
                if view is None:
                    return None
                views[info.filename[:-4]] = view
    except (OSError, ValueError, TypeError, KeyError, EOFError, SyntaxError,
            zipfile.BadZipFile):
        return None
    _touch(path)
    return views


def _npy_view(raw: bytes) -> memoryview | None:
    """One ``.npy`` member as a memoryview of its item format and shape (None if unsupported)."""
    if raw[:6] != b"\x93NUMPY":
        raise ValueError("not an .npy member")
    major = raw[6]
    width = 2 if major == 1 else 4
    size = int.from_bytes(raw[8:8 + width], "little")
    start = 8 + width
    header = ast.literal_eval(raw[start:start + size].decode("latin1"))
    fmt = _NPY_FORMATS.get(header["descr"])
    shape = list(header["shape"])
    if fmt is None or (header["fortran_order"] and len(shape) > 1) or 0 in shape:
        return None  # (a memoryview cannot be cast to a shape with a zero in it)
    return memoryview(raw[start + size:]).cast("B").cast(fmt, shape=shape)


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
