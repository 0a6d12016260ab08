"""Railroad Canasta play: the policies, the kernel jobs and the Monte Carlo of meld-odds and simulate.

What belongs here: the policies (``greedy``, ``builder:K[:F]``) and their parsing, the wrappers
that turn rules and policies into the kernel's arrays (``rules_arrays``, ``policy_array``,
``make_job``) and the Monte Carlo entry points, each taking a :class:`~analyzer.runner.RunSpec`.
Decisions from a stated position are in ``decide.py``. All Monte Carlo work goes through one
parallel kernel, ``kernels.canasta.mc_blocks``, in four modes (whole games, independent rounds,
meld odds, decisions), so the engine compiles once.

Round-level figures from whole games (round length, going-out rate, canastas per round, ...)
are ratio estimates Σ_g X_g / Σ_g R_g over games g with R_g rounds; rounds of one game are not
independent, so their standard error uses the games as clusters (delta method):
``se = sqrt(Σ_g (X_g − r·R_g)² / (n (n − 1))) / R̄``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyzer.errors import UserError
from analyzer.games.canasta.exact import exact_on_deal
from analyzer.games.canasta.rules import CanastaRules, requirement
from analyzer.stats import Statistic, Z95, mean_from_sums, wilson

if TYPE_CHECKING:  # NumPy only where arrays are built: parsing a policy never loads it
    import numpy as np

    from analyzer.runner import RunSpec

BLOCK = 64  # trials per block (games or rounds are long: small blocks keep batches balanced)
# the per-round quantities in the kernel's order (kernels.canasta.trials.round_stats)
ROUND_STATS = ("turns", "went_out", "sevens_lock", "stock_exhausted", "red_canastas",
               "black_canastas", "wild_canastas", "sevens_canastas", "kitty_pickups",
               "kitty_turn_sum", "points_per_player", "stall")
# how a round ends (section 7 of docs/rules/canasta.md): shown in this order, the stall (case 4) beside
# the sevens lock (case 3); the four rates sum to 1
ENDINGS = ("went_out", "sevens_lock", "stall", "stock_exhausted")


def _in_display_order(per_round: dict) -> dict:
    """``per_round`` with the endings together (stall right after sevens lock)."""
    keys = [k for k in per_round if k not in ENDINGS]
    at = keys.index("turns") + 1 if "turns" in keys else 0
    keys[at:at] = [k for k in ENDINGS if k in per_round]
    return {k: per_round[k] for k in keys}


# --------------------------------------------------------------------------- policies
@dataclass(frozen=True)
class CanastaPolicy:
    """``greedy`` or ``builder:K[:F]`` with the parameters listed in ``describe``."""

    name: str
    go_min: int = 0
    floor: int = 0
    black_nat: int = 5
    wild_min: int = 3
    take: int = 1
    take_min: int = 1
    take_table: tuple = ()  # rule table rows (kernels/canasta/layout.py): take the pile …
    go_table: tuple = ()    # … and go out; empty: the knobs above decide
    text: str = ""          # how a rule policy was given (rule:FILE.json) …
    words: str = ""         # … and its rules in words

    @property
    def label(self) -> str:
        if self.text:
            return self.text
        if self.name == "builder":
            return f"builder:{self.go_min}:{self.floor}"
        return self.name

    def describe(self) -> str:
        if self.take_table or self.go_table:
            return (f"{self.label}: {self.words or 'rule tables'} Otherwise plays as greedy.")
        out = ("goes out as soon as allowed" if self.go_min == 0 else
               f"goes out only with >= {self.go_min} canastas or stock <= {self.floor}")
        return (f"{self.label}: {out}; takes the pile whenever allowed; melds naturals at once; "
                f"starts a wild meld with >= {self.wild_min} wilds; adds wilds to finish a black "
                f"canasta when a meld has >= {self.black_nat} naturals; discards black threes "
                "first, then the least useful card (safe, unpaired), wilds last")

    def row(self) -> list[int]:
        """The kernel's policy row (``P_*`` of kernels/canasta/layout.py)."""
        from kernels.canasta import layout as K

        out = [0] * K.NPOL
        out[:6] = [self.go_min, self.floor, self.black_nat, self.wild_min, self.take,
                   self.take_min]
        for col, table in ((K.P_TAKEN, self.take_table), (K.P_GON, self.go_table)):
            if len(table) > K.TMAXROWS:
                raise UserError(f"a rule table has at most {K.TMAXROWS} rows")
            out[col] = len(table)
            for r, row in enumerate(table):
                out[col + 1 + r * K.TROW: col + 1 + (r + 1) * K.TROW] = list(row)
        return out


def _policies():
    from analyzer.botspec import Bot, Family, Knob

    return Family("canasta", [
        Bot("greedy", "goes out as soon as allowed"),
        Bot("builder", "goes out only with K canastas, or when the stock has at most F cards",
            positional=("canastas", "stock"))],
        [Knob("canastas", "int", 10, "go out with at least this many canastas", 4, 100),
         Knob("stock", "int", 20, "or once the stock holds at most this many cards", 0, 1000)],
        what="policy")


#: The Canasta policies (``--seats``, ``--policy``) as the shared parser reads them.
POLICIES = _policies()


def policy_from_spec(spec) -> CanastaPolicy:
    """The policy of a parsed spec other than ``rule:FILE`` (lineup.py reads those)."""
    if spec.name == "builder":
        return CanastaPolicy("builder", go_min=spec["canastas"], floor=spec["stock"])
    return CanastaPolicy("greedy")


def _plain():
    from analyzer.botspec import Reader

    return Reader(POLICIES.without_rule(), policy_from_spec)


#: Policies named without rule files (``greedy,builder:10:20``): this package's own line-ups.
_PLAIN = _plain()
plain_policy, plain_policies = _PLAIN.one, _PLAIN.seats


# --------------------------------------------------------------------------- kernel jobs
def rules_arrays(rules: CanastaRules):
    import numpy as np

    from kernels.canasta import layout as K

    rp = np.zeros(K.NRULES, dtype=np.int64)
    rp[K.R_NP] = rules.players
    rp[K.R_HAND] = rules.hand_size
    rp[K.R_KITTY] = rules.kitty_size
    rp[K.R_GOBONUS] = rules.going_out_bonus
    rp[K.R_R3BONUS] = rules.red_three_bonus
    rp[K.R_BRED] = rules.bonus_red
    rp[K.R_BBLACK] = rules.bonus_black
    rp[K.R_BWILD] = rules.bonus_wild
    rp[K.R_BSEV] = rules.bonus_sevens
    rp[K.R_MAXW] = 3
    rp[K.R_R3REPL] = int(rules.red3_replace)
    rp[K.R_WILDUP] = int(rules.wild_upcard_freezes)
    rp[K.R_W7] = int(rules.wilds_in_sevens)
    rp[K.R_TARGET] = rules.target
    rp[K.R_LOCKREQ] = int(rules.lock_meld_needs_requirement)
    rp[K.R_MAXROUNDS] = rules.max_rounds
    thr = np.array(rules.requirement_thresholds, dtype=np.int64)
    reqv = np.array(rules.requirement_values, dtype=np.int64)
    return rp, thr, reqv


def policy_array(policies: list[CanastaPolicy]) -> np.ndarray:
    import numpy as np

    return np.array([p.row() for p in policies], dtype=np.int64)


def _dummy_position(P: int):
    import numpy as np

    from kernels.canasta import layout as K

    return (np.zeros((P, K.NT), np.int64), np.zeros(P, np.int64),
            np.zeros((P, K.NT, 3), np.int64), np.zeros((P, 4), np.int64),
            np.zeros((P, K.NPL), np.int64), np.zeros(K.NT, np.int64), np.zeros(K.NG, np.int64),
            np.zeros(K.NT, np.int64), np.zeros(P, np.int64))


def make_job(mode: int, rules: CanastaRules, policies: list[CanastaPolicy], score: int = 0,
             turns: int = 0, position=None, name: str = "canasta", unit: str = "trials",
             headline=None):
    """A runner job over ``mc_blocks`` in the given mode."""
    from analyzer.runner import KernelJob
    from kernels.canasta import mc_blocks

    rp, thr, reqv = rules_arrays(rules)
    pol = policy_array(policies)
    if position is None:
        pos = _dummy_position(rules.players)
        stock_n, skip, kind = 0, False, 0
    else:
        pos = position["arrays"]
        stock_n, skip, kind = position["stock"], position["skip_draw"], position["kind"]

    def run_blocks(keys, counts):
        return mc_blocks(keys, counts, mode, rp, pol, thr, reqv, score, turns, *pos,
                         stock_n, skip, kind)

    return KernelJob(name, BLOCK, run_blocks, headline, unit=unit)


def _violations(sums: np.ndarray) -> dict:
    from kernels.canasta.layout import NV

    v = sums[-NV:]
    return {"illegal_melds": int(v[0]), "sevens_discarded_early": int(v[1]),
            "bad_go_outs": int(v[2]), "emptied_hands": int(v[3])}


def ratio_stat(sx: float, sx2: float, sxy: float, sy: float, sy2: float, n: int) -> Statistic:
    """Ratio Σx/Σy over n clusters with the delta-method standard error (module doc)."""
    if sy <= 0 or n < 2:
        return Statistic(float("nan"), float("nan"), float("nan"), float("nan"), n)
    r = sx / sy
    ss = max(sx2 - 2 * r * sxy + r * r * sy2, 0.0)
    se = math.sqrt(ss / (n * (n - 1))) / (sy / n)
    return Statistic(r, se, r - Z95 * se, r + Z95 * se, n)


# --------------------------------------------------------------------------- meld odds
def meld_odds(score: int, within_turns: int, rules: CanastaRules,
              policy: CanastaPolicy | list[CanastaPolicy], spec: RunSpec,
              exact: bool = True) -> dict:
    """P(meeting the initial requirement) on the deal and by each own turn 1..``within_turns``
    of the player moving first, seat 1 (``spec.n`` deals); ``policy`` plays every seat, or is a
    line-up (one per seat)."""
    from analyzer.runner import half_width_of_proportion
    from kernels.canasta import MODE_MELD

    turns = within_turns
    if turns < 0 or turns > 200:
        raise UserError(f"--within-turns must be between 0 and 200 (got {turns})")
    lineup = list(policy) if isinstance(policy, (list, tuple)) else [policy] * rules.players
    labels = [p.label for p in lineup]
    job = make_job(MODE_MELD, rules, lineup, score=score, turns=turns,
                   name="canasta meld-odds", unit="deals", headline=half_width_of_proportion(1))
    res = spec.run(job)
    s = res.sums
    ex = exact_on_deal(score, rules) if exact else None
    on_deal = wilson(float(s[1]), res.n)
    if ex is not None:
        on_deal = on_deal.with_exact(ex)
    by_turn = [{"turn": k, "p_melded": wilson(float(s[1 + k]), res.n)}
               for k in range(1, turns + 1)]
    return {"game": "canasta", "exact": False, "seed": spec.seed, "n": res.n, "score": score,
            "requirement": requirement(score, rules), "players": rules.players,
            "policy": labels[0] if len(set(labels)) == 1 else ",".join(labels),
            "within_turns": turns,
            "p_requirement_on_deal": on_deal, "p_exact_on_deal": ex,
            "by_turn": by_turn, "violations": _violations(s),
            "deals_per_second": res.per_second}


# --------------------------------------------------------------------------- simulate
def simulate(rules: CanastaRules, policies: list[CanastaPolicy], spec: RunSpec) -> dict:
    """Whole games to the target with the rotating dealer, ``spec.n`` games (module doc for the
    estimators); ``policies`` has one policy per seat."""
    from analyzer.runner import half_width_of_mean
    from kernels.canasta import MODE_GAMES, NROUNDSTAT

    P = rules.players
    job = make_job(MODE_GAMES, rules, policies, name="canasta simulate", unit="games",
                   headline=half_width_of_mean(1, 2))
    res = spec.run(job)
    s, n = res.sums, res.n
    base = 4 + P
    R, R2 = float(s[1]), float(s[2])

    def col(k, j):
        return float(s[base + 3 * k + j])

    per_round = {}
    for k, name in enumerate(ROUND_STATS):
        if name == "kitty_turn_sum":
            continue
        per_round[name] = ratio_stat(col(k, 0), col(k, 1), col(k, 2), R, R2, n)
    per_round["kitty_pickup_turn"] = ratio_stat(
        col(9, 0), col(9, 1), float(s[base + 3 * NROUNDSTAT]), col(8, 0), col(8, 1), n)
    per_round = _in_display_order(per_round)
    seats = [{"seat": i + 1, "policy": policies[i].label, "p_win": wilson(float(s[4 + i]), n)}
             for i in range(P)]
    return {"game": "canasta", "exact": False, "seed": spec.seed, "n": n, "players": P,
            "policies": [p.label for p in policies],
            "policy_descriptions": [p.describe() for p in policies],
            "rounds_per_game": mean_from_sums(R, R2, n),
            "games_capped": int(s[3]), "per_round": per_round, "seats": seats,
            "p_first_mover_wins": wilson(float(s[base + 3 * NROUNDSTAT + 1]), n),
            "rounds": int(R), "violations": _violations(s),
            "games_per_second": res.per_second, "stopped_by": res.stopped_by}


def simulate_rounds(rules: CanastaRules, policies: list[CanastaPolicy], spec: RunSpec) -> dict:
    """``spec.n`` independent rounds from 0 points with seat 1 moving first (iid: plain means)."""
    from kernels.canasta import MODE_ROUNDS, NROUNDSTAT

    job = make_job(MODE_ROUNDS, rules, policies, name="canasta rounds", unit="rounds")
    res = spec.run(job)
    s = res.sums
    out = {}
    for k, name in enumerate(ROUND_STATS):
        if name in ENDINGS:
            out[name] = wilson(float(s[1 + 2 * k]), res.n)
        elif name != "kitty_turn_sum":
            out[name] = mean_from_sums(float(s[1 + 2 * k]), float(s[2 + 2 * k]), res.n)
    out["seat1_score"] = mean_from_sums(float(s[1 + 2 * NROUNDSTAT]),
                                        float(s[2 + 2 * NROUNDSTAT]), res.n)
    out = _in_display_order(out)
    return {"game": "canasta", "exact": False, "seed": spec.seed, "n": res.n, "per_round": out,
            "violations": _violations(s), "rounds_per_second": res.per_second}
