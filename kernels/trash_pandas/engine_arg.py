"""Trash Pandas' whole-game drivers take the engine as an argument (kernels/engine_arg.py).

What belongs here: :func:`continue_game_type`, used by the whole-game drivers (whole_games.py
``play_games``, whole_decide.py ``decide_blocks``) that play games to their end with an engine's
``continue_game``: the plain engine (whole.py), the rule-table engine (whole_tables.py) or the
engine of the bots that think (whole_rollout.py).

Why. A jitted function that calls another links the callee's compiled code into its own and
optimises the whole again, so each driver used to re-optimise the entire engine under it, and
each of the three engines had its own copy of each driver (kernels/twin.py): six parallel
drivers, each about 10–18 s of a cold compile. Here a driver receives ``continue_game`` as a
*first-class function* (Numba's ``FunctionType``: a typed function address, called through it),
so its compile never touches the engine, and one compiled driver serves all three engines.
The call through an address happens once per game (or per choice of a decision), next to a
whole game's work; paired runs on one thread showed no loss.

A first-class function argument needs an explicit signature, so a driver is compiled per tuple
of argument types (the types the caller passes, from ``numba.typeof``), with the type of
``continue_game`` built from them (:func:`continue_game_type`); each compile is cached on disk
like any kernel (``cache=True``; the driver class: kernels/engine_arg.py ``EngineDriver``).
"""
from __future__ import annotations

import numpy as np

ZERO = np.int64(0)  # constants passed to continue_game: a first-class call matches types exactly


def continue_game_type(bots, pts, per_card, copies, rules, roll_tab, after_tab):
    """``FunctionType`` of whole.py ``continue_game`` called with a C-ordered int64 state, int64
    scalars, bot rows ``bots`` (a Numba array type) and these table types; the accumulator,
    stream and scratch arrays are float64, uint64 and int64 vectors; it returns int64."""
    from numba import types

    i64 = types.int64
    state = types.Array(i64, 2, "C")
    sig = i64(state, i64, i64, i64, i64, i64, i64, bots, pts, per_card, copies, rules, roll_tab,
              after_tab, types.Array(types.float64, 1, "C"), types.Array(types.uint64, 1, "C"),
              types.Array(i64, 1, "C"))
    return types.FunctionType(sig)
