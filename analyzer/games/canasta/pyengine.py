"""The Railroad Canasta round engine's own source run as plain Python (no Numba).

What belongs here: :func:`python_engine`, the functions of kernels/canasta (layout, meld,
engine, trials) executed from their module texts with ``njit`` as the identity decorator,
``prange`` as ``range`` and the random draws from a ``random.Random`` (``randint(s, n)`` is
``s.randrange(n)``), and :func:`first_choice_allowed`, which plays the first turn of a
``canasta decide`` position through it.

Uses. The bench's pure-Python reference (the same algorithm, so the kernel/reference ratio
measures compilation alone), and the check that the option a decision forces is legal before
the kernel is loaded: the same code that the kernel runs decides it, so the two cannot
disagree, and a position whose option is illegal is refused in a fraction of the time it takes
to import Numba (NumPy is loaded: the engine's state is NumPy arrays).
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

_MODULES = ("layout", "meld", "engine", "trials")  # in dependency order


@functools.lru_cache(maxsize=1)
def python_engine() -> dict:
    """The engine's functions and constants as plain Python, in one namespace (module doc)."""
    import kernels.canasta.layout as layout  # NumPy only: does not import Numba

    folder = Path(layout.__file__).parent

    def njit(*args, **kwargs):
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

    ns = {"njit": njit, "prange": range, "randint": lambda s, n: s.randrange(n),
          "seed_trial": None, "__name__": "canasta_python_engine"}
    for name in _MODULES:
        src = (folder / f"{name}.py").read_text()
        src = src.replace("from numba import njit, prange\n", "")
        src = src.replace("from numba import njit\n", "")
        src = src.replace("from kernels.rng import randint, seed_trial\n", "")
        src = re.sub(r"from kernels\.canasta\.\w+ import \([^\n]*\n(?:    [^\n]*\n)*", "", src)
        exec(compile(src, f"kernels/canasta/{name}.py (pure Python)", "exec"), ns)
    return ns


def first_choice_allowed(position: dict, rp, pol) -> list[bool]:
    """Is each of the two options of a decision position legal: [option A, option B]?

    ``position`` is :func:`analyzer.games.canasta.decide.parse_position`'s; ``rp`` and ``pol``
    the kernel's rules and policy arrays. Each option's first turn is played by the engine's
    ``play_turns`` (forced as in the kernel's ``decide_trial``) and stops before the next
    player's turn; it returns -1 when the forced choice is illegal. Whether it is depends only
    on the stated cards (my hand and melds, everyone's canastas, the pile), not on how the unseen
    cards lie, so any one deal of them answers it (a fixed one here)."""
    import random

    import numpy as np

    E = python_engine()
    P = position["players"]
    pos_hand, kon, pos_un, pos_can, pos_pl, pile0, g0, unseen, sizes = position["arrays"]
    state = E["new_state"](P)
    hand, kit, un, can, pl, mcnt, stock, pile, g = state
    viol = np.zeros(E["NV"], dtype=np.int64)
    tmp = np.zeros(E["NT"], dtype=np.int64)
    out = np.zeros((E["NT"], 3), dtype=np.int64)
    buf = np.zeros(106 * P + 8, dtype=np.int64)
    allowed = []
    for opt in range(2):
        E["setup_position"](random.Random(0), pos_hand, kon, pos_un, pos_can, pos_pl, pile0, g0,
                            unseen, sizes, position["stock"], rp, state, buf)
        forced = 1 - opt
        take, go = (forced, -1) if position["kind"] == 0 else (-1, forced)
        r = E["play_turns"](hand, kit, un, can, pl, mcnt, stock, pile, g, rp, pol, viol, tmp,
                            out, position["skip_draw"], take, go, 1, 0)
        allowed.append(r >= 0)
    return allowed
