"""Trash Pandas policies as tables, their exact evaluation, and the Monte Carlo jobs.

What belongs here: policy notation (``optimal``, ``stop-at:K``), the decision tables a policy
becomes, the exact evaluation of a policy (the numbers Monte Carlo is printed beside), the wrapper
that turns tables into a kernel job, the Monte Carlo entry point (taking a ``RunSpec``) and the
pure-Python reference of the kernel. No pandas, no matplotlib, no printing.

A policy fixes every decision of the turn model in analyzer/games/trash_pandas/exact.py: roll or
stop after taking a token; take / Blammo! / Nanners after each face; pies used on stopping and on
collecting all six. ``optimal`` copies the exact solver's argmax decisions; ``stop-at:K`` rolls
until K tokens are held (min(K, bonus cap) in the bonus turn), answers a bust with Blammo! while it
has one and then Nanners, never spends a card on a good roll, and uses pies whenever they gain.

Exact evaluation of any policy: the same recursion as the solver with the max replaced by the
policy's choice, carrying four expectations at once: value, P(main-turn bust), tokens resolved and
P(all six). These are the exact values the Monte Carlo estimates are printed beside.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from analyzer.runner import RunSpec

from analyzer.games.trash_pandas.exact import TurnSolver
from analyzer.games.trash_pandas.rules import (ALL_SIX, BLAMMO, BONUS, MAIN, NANNERS, TAKE,
                                               TrashPandasRules, ValueModel, popcount)

BLOCK_SIZE = 1 << 16


@dataclass(frozen=True)
class PolicySpec:
    kind: str  # "optimal", "stop-at" or "rule" (a rule of thumb from `advice --json`)
    k: int = 0
    rule: object = None
    source: str = ""
    #: a rule's table builder (rule, solver, B, N, P) -> PolicyTables: advice.rule_tables,
    #: given by whoever read the rule (lineup.py), so this module never imports advice.py
    tables: object = field(default=None, compare=False, repr=False)

    @property
    def label(self) -> str:
        if self.kind == "rule":
            return f"rule:{self.source}"
        return "optimal" if self.kind == "optimal" else f"stop-at:{self.k}"


def _turn_policies():
    from analyzer.botspec import Bot, Family, Knob

    return Family("trash-pandas", [
        Bot("optimal", "the exact solver's decisions"),
        Bot("stop-at", "roll until K tokens; Blammo! then Nanners on a bust",
            positional=("tokens",))],
        [Knob("tokens", "int", 3, low=1, high=6)], what="policy")


#: The turn-level policies (``simulate --policy``), as the shared parser reads them.
POLICIES = _turn_policies()


def policy_from_spec(spec) -> PolicySpec:
    """The :class:`PolicySpec` of a parsed spec other than ``rule:FILE`` (lineup.py)."""
    if spec.name == "optimal":
        return PolicySpec("optimal")
    return PolicySpec("stop-at", spec["tokens"])


@dataclass
class PolicyTables:
    """Flat decision tables in the layout kernels/trash_pandas/turn.py documents."""

    B: int
    N: int
    P: int
    after: np.ndarray
    roll: np.ndarray
    stop_pies: np.ndarray
    six_pies: np.ndarray
    resolve_val: np.ndarray

    def idx(self, mode: int, h: int, b: int, n: int, p: int) -> int:
        return (((mode * 64 + h) * (self.B + 1) + b) * (self.N + 1) + n) * (self.P + 1) + p


def build_tables(spec: PolicySpec, solver: TurnSolver, B: int, N: int, P: int) -> PolicyTables:
    if spec.kind == "rule":
        return spec.tables(spec.rule, solver, B, N, P)
    B1, N1, P1 = B + 1, N + 1, P + 1
    size = 2 * 64 * B1 * N1 * P1
    after = np.zeros(size * 6, dtype=np.uint8)
    roll = np.zeros(size, dtype=np.uint8)
    stop_pies = np.zeros(2 * 64 * P1, dtype=np.int64)
    six_pies = np.zeros(B1 * N1 * P1, dtype=np.int64)
    resolve_val = np.zeros(2 * 64 * 7, dtype=np.float64)
    tables = PolicyTables(B, N, P, after, roll, stop_pies, six_pies, resolve_val)
    for mode in (MAIN, BONUS):
        cap = solver.cap(mode)
        for h in range(64):
            k = popcount(h)
            if k > cap:
                continue
            for q in range(7):
                resolve_val[(mode * 64 + h) * 7 + q] = solver.resolve(mode, h, q)
            for p in range(P1):
                stop_pies[(mode * 64 + h) * P1 + p] = solver.best_pies(mode, h, p)
            if k >= cap:
                continue
            for b in range(B1):
                for n in range(N1):
                    for p in range(P1):
                        i = tables.idx(mode, h, b, n, p)
                        if spec.kind == "optimal":
                            roll[i] = 1 if (h == 0 or solver.roll(mode, h, b, n, p)
                                            > solver.stop(mode, h, p) + 1e-12) else 0
                            for f in range(6):
                                after[i * 6 + f] = solver.outcome(mode, h, f, b, n, p)[1]
                        else:
                            limit = spec.k if mode == MAIN else min(spec.k, solver.rules.bonus_cap)
                            roll[i] = 1 if k < limit else 0
                            for f in range(6):
                                if h >> f & 1:
                                    after[i * 6 + f] = BLAMMO if b > 0 else (
                                        NANNERS if n > 0 else TAKE)
                                else:
                                    after[i * 6 + f] = TAKE
    for b in range(B1):
        for n in range(N1):
            for p in range(P1):
                if spec.kind == "optimal":
                    six_pies[(b * N1 + n) * P1 + p] = solver.all_six(b, n, p)[1]
                else:
                    six_pies[(b * N1 + n) * P1 + p] = solver.best_pies(MAIN, ALL_SIX, p)
    return tables


class PolicyEvaluator:
    """Exact expectations (value, main bust, tokens, all six) of a policy given as tables."""

    def __init__(self, tables: PolicyTables, solver: TurnSolver):
        self.t = tables
        self.s = solver

    def _resolve(self, mode, h, p):
        q = int(self.t.stop_pies[(mode * 64 + h) * (self.t.P + 1) + p])
        return self.t.resolve_val[(mode * 64 + h) * 7 + q]

    @functools.lru_cache(maxsize=None)
    def roll(self, mode: int, h: int, b: int, n: int, p: int) -> tuple:
        acc = np.zeros(4)
        i = self.t.idx(mode, h, b, n, p)
        card = self.s.card
        for f in range(6):
            d = int(self.t.after[i * 6 + f])
            if d == BLAMMO:
                acc += np.array(self.roll(mode, h, b - 1, n, p)) - np.array([card, 0, 0, 0])
            elif d == NANNERS:
                acc += np.array([self._resolve(mode, h, p) - card, 0.0, popcount(h), 0.0])
            elif h >> f & 1:
                acc += np.array([self.s.bust_value, 1.0 if mode == MAIN else 0.0, 0.0, 0.0])
            else:
                acc += np.array(self.take(mode, h | 1 << f, b, n, p))
        return tuple(acc / 6.0)

    @functools.lru_cache(maxsize=None)
    def take(self, mode: int, h: int, b: int, n: int, p: int) -> tuple:
        if mode == MAIN and h == ALL_SIX:
            q = int(self.t.six_pies[(b * (self.t.N + 1) + n) * (self.t.P + 1) + p])
            first = np.array([self.t.resolve_val[(0 * 64 + 63) * 7 + q], 0.0, 6.0, 1.0])
            if self.s.rules.bonus_turn:
                bonus = np.array(self.roll(BONUS, 0, b, n, p - q))
                first += np.array([bonus[0], 0.0, bonus[2], 0.0])
            return tuple(first)
        k = popcount(h)
        if k >= self.s.cap(mode) or self.t.roll[self.t.idx(mode, h, b, n, p)] == 0:
            return (self._resolve(mode, h, p), 0.0, float(k), 0.0)
        return self.roll(mode, h, b, n, p)

    def turn(self) -> dict:
        v, bust, tok, six = self.roll(MAIN, 0, self.t.B, self.t.N, self.t.P)
        return {"mean_value": v, "bust_rate": bust, "mean_tokens": tok, "p_all_six": six}


def make_job(tables: PolicyTables, solver: TurnSolver, label: str = "trash-pandas turns"):
    """A runner job simulating whole turns under ``tables``; headline: the mean value."""
    from analyzer.runner import KernelJob, half_width_of_mean
    from kernels.trash_pandas import simulate_turns, simulate_turns_nocards

    r = solver.rules
    t = tables

    def run_blocks(keys, counts):
        if t.B == 0 and t.N == 0 and t.P == 0:
            return simulate_turns_nocards(keys, counts, r.bonus_turn, r.bonus_cap,
                                          float(solver.bust_value), t.roll, t.resolve_val)
        return simulate_turns(keys, counts, t.B, t.N, t.P, t.B + 1, t.N + 1, t.P + 1,
                              r.bonus_turn, r.bonus_cap, float(solver.card),
                              float(solver.bust_value), t.after, t.roll, t.stop_pies, t.six_pies,
                              t.resolve_val)

    return KernelJob(label, BLOCK_SIZE, run_blocks, half_width_of_mean(0, 1), unit="turns")


def simulate(policy: PolicySpec, values: ValueModel, rules: TrashPandasRules,
             cards: tuple[int, int, int], spec: RunSpec) -> dict:
    """Monte Carlo of whole turns with the exact values of the same policy beside them.

    ``cards`` is (Blammo!, Nanners, MMM Pie!) in hand; ``spec`` says how many turns and the seed.
    """
    from analyzer.rules import rules_to_dict

    B, N, P = cards
    solver = TurnSolver(values, rules)
    tables = build_tables(policy, solver, B, N, P)
    exact = PolicyEvaluator(tables, solver).turn()
    res = spec.run(make_job(tables, solver, f"trash-pandas {policy.label}"))
    stats = turn_statistics(res.sums, res.n, tables, solver, exact)
    warning = stats.pop("warning", None)
    out = {
        "game": "trash-pandas", "policy": policy.label, "blammo": B, "nanners": N, "pie": P,
        "values": values.__dict__, "rules": rules_to_dict(rules), "seed": spec.seed, "n": res.n,
        **stats,
        "turns_per_second": res.per_second, "stopped_by": res.stopped_by,
        "interrupted": res.interrupted, "exact": False,
    }
    if warning:
        out["warning"] = warning
    return out


def turn_statistics(sums, n: int, tables: PolicyTables, solver: TurnSolver, exact: dict) -> dict:
    """The statistics of ``n`` simulated turns from the kernel's sums (columns ``COLUMNS``).

    Proportions get Wilson intervals; the mean rolls a normal interval; the mean tokens and value,
    which the rare all-six turns drive (stop-at:6 scores only on them), get
    :func:`analyzer.stats.mean_with_rare` with the all-six turns as the rare event, and a
    ``"warning"`` when the sample is too small to support a normal interval. A policy that can
    never collect all six (its exact P(all six) is 0: stop-at:K with K < 6, or the optimal
    policy with a Nanners in hand) has no rare stratum: its means get the normal interval.
    """
    from analyzer.stats import RARE_MIN, mean_from_sums, mean_with_rare, wilson
    from kernels.trash_pandas import COLUMNS

    s = {name: float(v) for name, v in zip(COLUMNS, sums)}
    k = int(s["all_six"])
    if exact["p_all_six"] == 0.0:
        mean_tokens, tok_ok = mean_from_sums(s["sum_tokens"], s["sum_tokens2"], n), True
        mean_value, val_ok = mean_from_sums(s["sum_value"], s["sum_value2"], n), True
    else:
        tok_ranges, val_ranges = _rare_ranges(tables, solver)
        mean_tokens, tok_ok = mean_with_rare(s["sum_tokens"], s["sum_tokens2"], n, k,
                                             s["six_tokens"], s["six_tokens2"], *tok_ranges)
        mean_value, val_ok = mean_with_rare(s["sum_value"], s["sum_value2"], n, k,
                                            s["six_value"], s["six_value2"], *val_ranges)
    out = {
        "bust_rate": wilson(s["main_busts"], n).with_exact(exact["bust_rate"]),
        "mean_tokens": mean_tokens.with_exact(exact["mean_tokens"]),
        "p_all_six": wilson(s["all_six"], n).with_exact(exact["p_all_six"]),
        "mean_value": mean_value.with_exact(exact["mean_value"]),
        "p_bonus_bust": wilson(s["bonus_busts"], n),
        "mean_rolls": mean_from_sums(s["rolls"], s["rolls2"], n),
    }
    if not (tok_ok and val_ok):
        out["warning"] = (
            f"only {k:,} of {n:,} turns collected all six: too few to support a normal "
            f"interval for the mean tokens and value, whose rare all-six turns weigh heavily; "
            f"their intervals are the conservative stratified bound (Wilson bound on the all-six "
            f"rate × the range of an all-six turn). Simulate more turns (at least "
            f"{RARE_MIN} all-six turns) for a normal interval.")
    return out


def _rare_ranges(tables: PolicyTables, solver: TurnSolver) -> tuple:
    """A-priori ranges of tokens and value: on a turn that collects all six, and on any turn.

    They come from the model, never from the sample (see :func:`analyzer.stats.mean_with_rare`):
    an all-six turn resolves six tokens with ``q`` pies (0 ≤ q ≤ P) and, with the bonus turn,
    adds a bust (``bust_value``) or a resolve of at most ``bonus_cap`` tokens; each card spent
    moves the value by at most ``|card|`` (at most B + N cards are spent in a turn).
    """
    r = solver.rules
    P1 = tables.P + 1
    rv = tables.resolve_val
    slack = abs(float(solver.card)) * (tables.B + tables.N)

    def resolves(mode: int, cap: int) -> list[float]:
        return [float(rv[(mode * 64 + h) * 7 + q]) for h in range(64)
                if popcount(h) <= cap for q in range(P1)]

    six = [float(rv[63 * 7 + q]) for q in range(P1)]
    bonus_cap = r.bonus_cap if r.bonus_turn else 0
    bonus = resolves(BONUS, r.bonus_cap) + [float(solver.bust_value)] if r.bonus_turn else [0.0]
    rare_val = (min(six) + min(bonus) - slack, max(six) + max(bonus) + slack)
    main = resolves(MAIN, 6) + [float(solver.bust_value)]
    any_val = (min(min(main) - slack, rare_val[0]), max(max(main) + slack, rare_val[1]))
    return ((6.0, 6.0 + bonus_cap), (0.0, 6.0 + bonus_cap)), (rare_val, any_val)


def python_reference_turns(n: int, seed: int, k_stop: int = 6) -> float:
    """Pure-Python reference of the stop-at:K turn without cards or bonus turn (for bench)."""
    import random

    rnd = random.Random(seed)
    busts = 0
    for _ in range(n):
        h = 0
        nh = 0
        while True:
            bit = 1 << rnd.randrange(6)
            if h & bit:
                busts += 1
                break
            h |= bit
            nh += 1
            if nh >= k_stop:
                break
    return busts / n
