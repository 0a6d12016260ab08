"""Kernels compiled once for the plain types of their arguments, not once per literal value.

What belongs here: :func:`plain_types`. When a jitted function calls another, Numba compiles the
callee for the caller's argument types as they are, and with SSA a constant is a literal type:
``took_wild(a, w, -1, …)`` compiles a version for ``Literal[int](-1)``, a call with the seat
``0`` another for ``Literal[int](0)``, an ``int8`` read from a card array a third. Each version
is a whole compile of the callee and everything it calls (Ten's ``took_wild`` was compiled 8
times, ``auction`` 4). A callee marked with :func:`plain_types` is asked for the plain types
instead: a literal becomes its underlying type and a signed integer of under 64 bits becomes
``int64`` (Numba's arithmetic on signed integers gives ``int64`` whatever their width, so no
result changes); one compiled version then serves every call site, and LLVM still inlines it
and folds a caller's constant where that pays. Unsigned integers (their arithmetic differs),
floating-point, boolean and array types are kept.

Importing this module does not import Numba (a query that runs a kernel module's source as
plain Python, analyzer/games/canasta/pyengine.py, must not load it), and on anything but a
Numba dispatcher :func:`plain_types` changes nothing.
"""


def _plain(t):
    from numba.core import types

    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.signed:
        return types.int64
    return t


def plain_types(dispatcher):
    """Make calls from jitted code compile ``dispatcher`` for plain argument types (module doc);
    returns the same dispatcher, so it stacks above ``@njit``."""
    general = getattr(type(dispatcher), "get_call_template", None)
    if general is None:  # a plain function (the kernel's source run as Python)
        return dispatcher

    def get_call_template(args, kws):
        return general(dispatcher, tuple(_plain(a) for a in args),
                       {k: _plain(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    dispatcher.plain_types = True  # kernels/twin.py gives a twin the same typing
    return dispatcher
