"""Go-Stop play: policies, whole-deal simulation jobs and the pure-Python reference of the engine.

Policies (``greedy``, ``random``, ``go:K``, ``go:K:T``) are parsed here and handed to the kernels
as rows of an int64 array (``policy_array``; their behaviour is documented in
``kernels.gostop.turn``). ``--seats A,B,...`` gives one policy per seat (seat 1 deals and plays
first); a single name means every seat. ``simulate`` plays whole deals under a
:class:`~analyzer.runner.RunSpec`. The pure-Python reference is the SAME algorithm: the engine's
source files executed as plain Python, with ``njit`` replaced by the identity and ``prange`` by
``range`` (NumPy scalars and arrays, one deal at a time), so the kernel/reference ratio of
`pushluck bench` measures compilation alone. Both play the same deals for the same seed.
"""
from __future__ import annotations

import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.errors import UserError
from analyzer.games.gostop.rules import GoStopRules, rules_vector

if TYPE_CHECKING:  # NumPy only where arrays are built: parsing a policy never loads it
    import numpy as np

    from analyzer.runner import RunSpec


@dataclass(frozen=True)
class Policy:
    kind: str           # greedy, go, random, table
    k: int = 0
    turns: int = 1
    table: tuple = ()   # table: go rule rows (kernels.gostop.state), 6 ints each
    name: str = ""      # table: how it was given (rule:FILE.json) or built

    @property
    def label(self) -> str:
        if self.kind == "go":
            return f"go:{self.k}" + (f":{self.turns}" if self.turns != 1 else "")
        if self.kind == "table":
            return self.name or "table"
        return self.kind


def _policies():
    from analyzer.botspec import Bot, Family, Knob

    return Family("gostop", [
        Bot("greedy", "stops at the first chance"),
        Bot("random", "goes or stops at random"),
        Bot("go", "goes while it has said fewer than K gos (and, with T, while it has at least T "
            "own turns left)", positional=("gos", "turns-left"))],
        [Knob("gos", "int", 1, "go while fewer than this many gos", 0, 1000),
         Knob("turns-left", "int", 1, "go only with at least this many own turns left", 1, 100)],
        what="policy")


#: The Go-Stop policies (``--seats``, ``--vs``, ``decide --policy``) as the shared parser reads
#: them.
POLICIES = _policies()


def policy_from_spec(spec) -> Policy:
    """The :class:`Policy` of a parsed spec other than ``rule:FILE`` (lineup.py reads those)."""
    if spec.name == "go":
        return Policy("go", spec["gos"], spec["turns-left"])
    return Policy(spec.name)


def _plain():
    from analyzer.botspec import Reader

    return Reader(POLICIES.without_rule(), policy_from_spec)


#: Policies named without rule files (``greedy,go:2``): this package's own line-ups.
_PLAIN = _plain()
plain_policy, plain_seats = _PLAIN.one, _PLAIN.seats


def policy_array(pols: list[Policy]) -> np.ndarray:
    import numpy as np

    from kernels.gostop import state as K

    a = np.zeros((K.MAXP, K.NPOL), dtype=np.int64)
    for i, p in enumerate(pols):
        a[i, K.P_KIND] = {"greedy": K.PK_GREEDY, "go": K.PK_GO, "random": K.PK_RANDOM,
                          "table": K.PK_TABLE}[p.kind]
        a[i, K.P_GOK] = p.k
        a[i, K.P_GOTURNS] = p.turns
        a[i, K.P_SHAKE] = 1
        if len(p.table) > K.TMAXROWS:
            raise UserError(f"a go rule table has at most {K.TMAXROWS} rows")
        a[i, K.P_NROWS] = len(p.table)
        for r, row in enumerate(p.table):
            a[i, K.P_ROWS + r * K.TROW: K.P_ROWS + (r + 1) * K.TROW] = row
    return a


# ---- whole deals -------------------------------------------------------------------------------

EVENT_NAMES = ["ppuk", "sweep", "bomb", "shake", "jjok", "ttadak", "stack_capture", "ja_ppuk",
               "go", "junk_stolen"]


def make_sim_job(rules: GoStopRules, pols: list[Policy], nagari_prev: int = 0,
                 check: bool = False):
    from analyzer.runner import KernelJob, half_width_of_mean
    from kernels.gostop import state as K
    from kernels.gostop import batch as KB

    S0 = K.new_state(rules_vector(rules), policy_array(pols))

    def run_blocks(keys, counts):
        return KB.simulate_blocks(keys, counts, S0, nagari_prev, check)

    label = ",".join(p.label for p in pols)
    return KernelJob(f"gostop {label}", 2048, run_blocks,
                     half_width_of_mean(KB.C_NET, KB.C_NET2), unit="deals")


def simulate(rules: GoStopRules, pols: list[Policy], spec: RunSpec, nagari_prev: int = 0) -> dict:
    """Whole deals: nagari and chongtong rates, wins and net payment per seat, dealer advantage,
    event frequencies, the winner's go counts and the per-seat payment histogram."""
    from analyzer.stats import mean_from_sums, wilson
    from kernels.gostop import batch as K

    res = spec.run(make_sim_job(rules, pols, nagari_prev))
    s = res.sums
    N = res.n
    if s[K.C_ERR] > 0:  # pragma: no cover - engine invariant
        raise UserError(f"engine error in {int(s[K.C_ERR])} deals")
    seats = []
    for q in range(rules.players):
        hist = s[K.C_HIST + q * K.NBIN: K.C_HIST + (q + 1) * K.NBIN]
        seats.append({
            "seat": q + 1, "policy": pols[q].label, "dealer": q == 0,
            "p_win": wilson(float(s[K.C_WIN + q]), N),
            "mean_net_payment": mean_from_sums(float(s[K.C_NET + q]), float(s[K.C_NET2 + q]), N),
            "payment_histogram": {str(v - K.HMAX): int(hist[v]) for v in range(K.NBIN)
                                  if hist[v] > 0},
        })
    events = {}
    for e, name in enumerate(EVENT_NAMES):
        events[name] = {
            "per_deal": mean_from_sums(float(s[K.C_EV + e]), float(s[K.C_EV2 + e]), N),
            "p_at_least_one": wilson(float(s[K.C_EVANY + e]), N)}
    wins = float(s[K.C_WIN:K.C_WIN + 3].sum())
    return {
        "game": "gostop", "exact": False, "seed": spec.seed, "n": N, "players": rules.players,
        "policies": [p.label for p in pols], "nagari_before": nagari_prev,
        "rules": _rules_dict(rules),
        "p_nagari": wilson(float(s[K.C_NAGARI]), N),
        "p_chongtong": wilson(float(s[K.C_CHONG]), N),
        "void_redeals_per_deal": mean_from_sums(float(s[K.C_VOIDS]), float(s[K.C_VOIDS2]), N),
        "seats": seats,
        "dealer_advantage": mean_from_sums(float(s[K.C_DADV]), float(s[K.C_DADV2]), N),
        "events": events,
        "winner_go_counts": {("5+" if g == 5 else str(g)): int(s[K.C_GOHIST + g])
                             for g in range(6)},
        "won_deals": int(wins),
        "deals_per_second": res.per_second, "stopped_by": res.stopped_by,
        "interrupted": res.interrupted,
        "histogram_clip": K.HMAX,
    }


def _rules_dict(rules: GoStopRules) -> dict:
    from analyzer.rules import rules_to_dict

    d = rules_to_dict(rules)
    d["stop_target"] = rules.stop_target
    return d


def make_job_for_tests(rules: GoStopRules, policies: str, check: bool = True):
    """A simulation job with the per-turn invariant checks switched on (tests)."""
    return make_sim_job(rules, plain_seats(policies, rules.players), 0, check)


# ---- pure-Python reference --------------------------------------------------------------------

_PURE = {}


def pure_python_engine():
    """The deal engine's modules (``kernels/rng.py``, ``kernels/gostop/{score,state,turn,deal}.py``)
    executed without Numba, as one namespace (cached per process)."""
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
    root = Path(__file__).resolve().parents[3] / "kernels"
    names = {"numba": fake, "numba.core": core, "numba.core.cgutils": core.cgutils,
             "numba.extending": ext}
    sources = {"kernels.rng": root / "rng.py"}
    sources.update({f"kernels.gostop.{m}": root / "gostop" / f"{m}.py"
                    for m in ("score", "state", "turn", "deal")})
    saved = {k: sys.modules.get(k) for k in list(names) + list(sources)}
    engine = types.SimpleNamespace()
    try:
        sys.modules.update(names)
        for name, path in sources.items():
            mod = types.ModuleType(f"pure_{name}")
            mod.__file__ = str(path)
            exec(compile(path.read_text(), mod.__file__, "exec"), mod.__dict__)
            sys.modules[name] = mod
            engine.__dict__.update({k: v for k, v in mod.__dict__.items()
                                    if not k.startswith("__")})
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    _PURE["gostop"] = engine
    return engine


def python_reference_deals(n: int, seed: int, players: int = 2) -> float:
    """n deals (greedy everywhere, default rules) in plain Python; returns seat 1's mean net."""
    import numpy as np

    from analyzer.rng import block_keys

    K = pure_python_engine()
    rules = GoStopRules(players=players)
    S = K.new_state(rules_vector(rules), policy_array([Policy("greedy")] * players))
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
