"""Parallel drivers that take their game engine as an argument: one compile serves every engine.

What belongs here: :class:`EngineDriver`. A jitted function that calls another links the
callee's compiled code into its own and optimises the whole again, so a parallel driver that
plays whole games re-optimises the entire game engine under it (about 10–18 s of a cold compile
per driver), and a game with several engines (Trash Pandas: plain, rule-table, rollout) had a
copy of each driver per engine. A driver here receives the engine's entry point as a
*first-class function* (Numba's ``FunctionType``: a typed function address, called through it),
so its compile never touches the engine, and one compiled driver serves every engine. The call
through an address happens once per game (or per choice of a decision), next to a whole game's
work.

A first-class function argument needs an explicit signature, so a driver is compiled per tuple
of argument types (the types the caller passes, from ``numba.typeof``), with the engine's
``FunctionType`` built from them by the game (e.g. kernels/trash_pandas/engine_arg.py
``continue_game_type``); each compile is cached on disk like any kernel (``cache=True``).

Since the driver's compile never needs the engine's code, the two can be compiled at once: on a
cold cache a second process compiles the engine while this one compiles the driver
(kernels/compile_ahead.py), then this one loads the engine from the cache.
"""
from __future__ import annotations


class EngineDriver:
    """A parallel driver ``py_func(cont, *args)`` compiled per argument types (module doc).

    ``cont_type(arg_types)`` gives the ``FunctionType`` of ``cont`` from the other arguments'
    types; ``returns`` is the driver's return type (a Numba type)."""

    def __init__(self, py_func, cont_type, returns):
        self.py_func = py_func
        self.cont_type = cont_type
        self.returns = returns
        self.compiled: dict = {}
        self.pending: dict = {}  # arg types -> the second process compiling the engine

    def for_types(self, arg_types: tuple, engine=None):
        """The driver compiled (or loaded from the cache) for ``arg_types``. With ``engine`` (the
        dispatcher it will be called with), an engine missing from the cache is compiled in a
        second process meanwhile when the driver is missing too (kernels/compile_ahead.py)."""
        got = self.compiled.get(arg_types)
        if got is None:
            from numba import njit

            from kernels import compile_ahead

            cont_type = self.cont_type(arg_types)
            sig = self.returns(cont_type, *arg_types)
            got = njit(cache=True, parallel=True)(self.py_func)
            ahead = self.pending.pop(arg_types, None)
            if ahead is None and engine is not None and compile_ahead.enabled() \
                    and compile_ahead.cold(got, sig) \
                    and compile_ahead.cold(engine, cont_type.signature):
                ahead = compile_ahead.start(engine, cont_type.signature)
            try:
                got.compile(sig)  # as njit(sig) does: this signature only
            except BaseException:
                compile_ahead.stop(ahead)
                raise
            got.disable_compile()
            compile_ahead.finish(ahead)
            self.compiled[arg_types] = got
        return got

    def start_ahead(self, arg_types: tuple, engine) -> None:
        """Start compiling ``engine`` for a call with ``arg_types`` in a second process now, if
        it is missing from the cache (kernels/compile_ahead.py), so that work done before the
        call (an exact answer, a table) overlaps the engine's compile; the call then waits for
        it. Nothing when the driver for these types is loaded already or one is running."""
        from kernels import compile_ahead

        if arg_types in self.compiled or arg_types in self.pending \
                or not compile_ahead.enabled():
            return
        sig = self.cont_type(arg_types).signature
        if compile_ahead.cold(engine, sig):
            proc = compile_ahead.start(engine, sig)
            if proc is not None:
                self.pending[arg_types] = proc

    def bind(self, cont):
        """The driver with ``cont`` (the dispatcher of an engine's entry point: Trash Pandas'
        ``continue_game``, Ten's ``play_game``) as its engine: a function of the other
        arguments, with ``engine`` and ``driver`` attributes saying which, and ``ahead(*args)``
        to start a cold engine's compile early (:meth:`start_ahead`)."""
        def driver(*args):
            from numba import typeof

            return self.for_types(tuple(typeof(a) for a in args), cont)(cont, *args)

        def ahead(*args):
            """Start the engine's compile for a later call with these arguments' types
            (:meth:`EngineDriver.start_ahead`); returns at once."""
            from numba import typeof

            self.start_ahead(tuple(typeof(a) for a in args), cont)

        driver.ahead = ahead
        driver.__name__ = self.py_func.__name__
        driver.__doc__ = self.py_func.__doc__
        driver.engine = cont
        driver.driver = self
        return driver
