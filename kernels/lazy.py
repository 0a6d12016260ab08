"""Entry points of a kernels package imported on first use (PEP 562).

A package ``__init__`` maps each re-exported name to the module that defines it and calls
:func:`lazy_exports`; a query that needs one kernel (or only the package's plain-Python layout)
then does not import Numba's other modules nor load the other kernels' caches.
"""
from __future__ import annotations

import importlib
from typing import Callable


def lazy_exports(namespace: dict, where: dict[str, str]) -> tuple[Callable, list[str]]:
    """``(__getattr__, __all__)`` for a package whose globals are ``namespace``: an attribute in
    ``where`` is imported from its module on first access and kept in the namespace."""
    package = namespace["__name__"]

    def __getattr__(name: str):
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(where[name]), name)
        namespace[name] = value
        return value

    return __getattr__, sorted(where)
