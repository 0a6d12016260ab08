"""Go-Stop cases for `pushluck bench`: whole deals of the deal engine.

The pure-Python reference is the SAME algorithm: the engine's source files (kernels/rng.py,
kernels/gostop_score.py, kernels/gostop.py) executed as plain Python, with ``njit`` replaced by
the identity and ``prange`` by ``range`` (NumPy scalars and arrays, one deal at a time), so the
kernel/reference ratio measures compilation alone. Both play the same deals for the same seed.
"""
from __future__ import annotations

import sys
import types
from pathlib import Path

import numpy as np

from analyzer.benchkit import BenchCase

_PURE = {}


def pure_python_engine():
    """The deal engine's modules executed without Numba (cached per process)."""
    if "gostop" in _PURE:
        return _PURE["gostop"]
    fake = types.ModuleType("numba")

    def njit(*args, **kwargs):
        if args and callable(args[0]) and not kwargs:
            return args[0]
        return lambda f: f

    fake.njit = njit
    fake.prange = range
    core = types.ModuleType("numba.core")
    core.cgutils = types.ModuleType("numba.core.cgutils")
    ext = types.ModuleType("numba.extending")
    ext.intrinsic = lambda f: (lambda arr: arr)
    fake.core = core
    fake.extending = ext
    root = Path(__file__).resolve().parents[2] / "kernels"
    names = {"numba": fake, "numba.core": core, "numba.core.cgutils": core.cgutils,
             "numba.extending": ext}
    saved = {k: sys.modules.get(k) for k in list(names) + ["kernels.rng", "kernels.gostop_score"]}
    mods = {}
    try:
        sys.modules.update(names)
        for short in ("rng", "gostop_score", "gostop"):
            mod = types.ModuleType(f"pure_{short}")
            mod.__file__ = str(root / f"{short}.py")
            code = compile((root / f"{short}.py").read_text(), mod.__file__, "exec")
            exec(code, mod.__dict__)
            mods[short] = mod
            sys.modules[f"kernels.{short}"] = mod
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    _PURE["gostop"] = mods["gostop"]
    return mods["gostop"]


def python_reference_deals(n: int, seed: int, players: int = 2) -> float:
    """n deals (greedy everywhere, default rules) in plain Python; returns seat 0's mean net."""
    from analyzer.games import gostop as G
    from analyzer.rng import block_keys

    K = pure_python_engine()
    rules = G.GoStopRules(players=players)
    S = K.new_state(G.rules_vector(rules), G.policy_array([G.Policy("greedy")] * players))
    s = np.zeros(4, np.uint64)
    net = np.zeros(K.MAXP, np.int64)
    key = block_keys(seed, 0, 1)[0]
    total = 0
    with np.errstate(over="ignore"):
        for t in range(n):
            K.seed_trial(key, t, s)
            K.play_deal(S, s, net, 0, False)
            total += int(net[0])
    return total / n


def _job(players: int, policies: str):
    from analyzer.games import gostop as G
    from analyzer.games.gostop_play import make_sim_job

    rules = G.GoStopRules(players=players)
    return make_sim_job(rules, G.parse_policies(policies, players))


def bench_cases() -> list[BenchCase]:
    return [
        BenchCase("gostop", "2 players, greedy, whole deals", "deals",
                  lambda: _job(2, "greedy"), 1_000_000,
                  lambda n, seed: python_reference_deals(n, seed, 2), 300),
        BenchCase("gostop", "3 players, greedy/go:2/random, whole deals", "deals",
                  lambda: _job(3, "greedy,go:2,random"), 500_000, None, 0),
    ]
