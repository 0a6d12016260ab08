"""A kernel compiled a second time with some of the functions it calls swapped: a twin engine.

What belongs here: :func:`twin`, used where one game engine must exist in two compiled forms
that differ only in a decision hook (Trash Pandas: the rollout bot's engine, which calls the
plain engine from inside a decision, and the rule-table engine, whose stop rule reads a table
the plain engine never looks at). The twin is the *same Python code*: its function object is
rebuilt with a copy of its globals in which the names given are bound to other jitted
functions, and compiled under ``<name><suffix>`` (its own cache entry, stored beside the
original's source); the original dispatcher, its cache and its results are untouched.
"""
import hashlib
import types
from pathlib import Path

from numba import njit

from kernels.widen import plain_types


def twin(dispatcher, suffix: str, parallel: bool = False, **swap):
    """``dispatcher``'s Python function compiled again as ``<name><suffix>`` with the globals in
    ``swap`` replaced; it keeps the original's target options (e.g. ``_nrt=False``) except
    ``parallel``, which is set as given, and its :func:`~kernels.widen.plain_types` typing."""
    fn = dispatcher.py_func
    glb = dict(fn.__globals__)
    glb.update(swap)
    name = fn.__name__ + suffix
    copy = types.FunctionType(fn.__code__, glb, name, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = fn.__qualname__ + suffix
    copy.__module__ = fn.__module__
    copy.__doc__ = fn.__doc__
    options = dict(dispatcher.targetoptions)
    options.pop("nopython", None)  # implied by njit
    options["parallel"] = parallel
    compiled = njit(cache=True, **options)(copy)
    return plain_types(compiled) if getattr(dispatcher, "plain_types", False) else compiled


def digest_suffix(tag: str, path: str) -> str:
    """``tag`` plus a digest of the file at ``path``: the suffix for twins whose swapped-in
    functions live in that file. Numba caches a twin beside the *original's* source and checks
    only that file's time stamp, so an edit of the swapped-in functions would leave the old code
    in the cached twin; with the digest in the name an edited file compiles new twins."""
    return tag + hashlib.sha1(Path(path).read_bytes()).hexdigest()[:10]
