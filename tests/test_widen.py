"""kernels.widen.plain_types (issue 39): a callee is compiled once for plain argument types, not
once per literal value or integer width its callers happen to pass, and computes the same."""
from __future__ import annotations

import numpy as np
from numba import njit

from kernels.widen import plain_types


def _callees():
    def body(q, w, known, flag):
        return q * 100 + w * 10 + known + (1 if flag else 0)

    return njit(body), plain_types(njit(body))


def _callers(callee):
    @njit
    def literals(w8):
        # a literal seat, a literal -1, an int8 read from an array, a literal bool
        return callee(0, w8[0], -1, True) + callee(3, 7, -1, False)

    @njit
    def variables(q, w, known, flag):
        return callee(q, w, known, flag)

    return literals, variables


def test_one_compiled_version_serves_literal_narrow_and_plain_calls():
    plain, widened = _callees()
    w8 = np.array([5], dtype=np.int8)
    for callee in (plain, widened):
        literals, variables = _callers(callee)
        # 0*100 + 5*10 - 1 + 1 = 50 and 3*100 + 7*10 - 1 = 369
        assert literals(w8) == 50 + 369
        assert variables(2, 4, 9, False) == 249
    # without the decorator: one version per literal pattern and the int8 one, plus the plain
    assert len(plain.signatures) == 3
    assert len(widened.signatures) == 1
    (sig,) = widened.signatures
    assert [str(t) for t in sig] == ["int64", "int64", "int64", "bool"]


def test_unsigned_and_float_arguments_keep_their_types():
    """uint64 arithmetic differs from int64 (and float is no integer): those are not widened."""
    @plain_types
    @njit
    def half(x):
        return x // np.uint64(2)

    @njit
    def calls(u, f):
        return half(u), half(f)

    # as int64 the word 2**63 + 2 would be negative and halve to -(2**62 - 1)
    assert calls(np.uint64(2**63 + 2), 3.5) == (2**62 + 1, 1.0)
    assert sorted(str(s[0]) for s in half.signatures) == ["float64", "uint64"]


def test_plain_functions_pass_through():
    """The kernels' source run as plain Python (canasta's pyengine) decorates plain functions."""
    def f(x):
        return x

    assert plain_types(f) is f and not hasattr(f, "plain_types")


def test_trash_pandas_engine_callees_are_compiled_for_plain_types():
    """Trash Pandas' whole-game engine is called with literal seats, modes and entries from many
    call sites (``play_turn(g, 0, …)``): without plain_types its callees were compiled up to 11
    times each (a cold compile of 418 s, 178 s of it repeated callees; 184 s after). Every jitted
    function of the engine modules that another kernel calls carries it; only the parallel entry
    points (called from Python) and the ``inline="always"`` helpers (inlined, never dispatched)
    do not."""
    import importlib

    from numba.core.registry import CPUDispatcher

    missing, checked = [], 0
    for name in ("whole", "whole_bots", "whole_state", "whole_games", "whole_tables",
                 "whole_rollout", "whole_decide", "search", "belief"):
        mod = importlib.import_module(f"kernels.trash_pandas.{name}")
        for attr, obj in vars(mod).items():
            if not isinstance(obj, CPUDispatcher):
                continue
            twin = obj.py_func.__name__ != attr  # kernels/twin.py: the engine compiled again
            if obj.py_func.__module__ != mod.__name__ and not twin:
                continue  # imported from another module (kernels.rng, ...)
            options = obj.targetoptions
            if options.get("parallel") or options.get("inline") == "always":
                continue
            checked += 1
            if not getattr(obj, "plain_types", False):
                missing.append(f"{name}.{attr}")
    assert checked >= 100 and missing == []
