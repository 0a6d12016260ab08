"""Pig's policies, kernel jobs and Monte Carlo entry points.

What belongs here: policy notation (``hold:H``, ``optimal``) and its parsing, the wrappers that
turn rules and policies into the kernel's plain arrays (:func:`policy_arrays`, :func:`make_job`),
the Monte Carlo entry points (each takes a :class:`~analyzer.runner.RunSpec`), and the pure-Python
reference of the kernel's game loop (for `pushluck bench`). No printing, no pandas.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.games.pig.exact import solve
from analyzer.games.pig.rules import PigRules, rules_dict
from analyzer.runner import RunSpec


@dataclass(frozen=True)
class PigPolicy:
    """``hold:H`` (a threshold), ``optimal`` (the solver's table) or ``rule:FILE.json`` (a rule
    of thumb from ``pig advice --json``, compiled to a table)."""

    kind: str  # "hold", "optimal" or "rule"
    hold_at: int = 0
    rule: object = None
    source: str = ""

    @property
    def label(self) -> str:
        if self.kind == "rule":
            return f"rule:{self.source}"
        return "optimal" if self.kind == "optimal" else f"hold:{self.hold_at}"


def _policies():
    from analyzer.botspec import Bot, Family, Knob

    return Family("pig", [
        Bot("optimal", "the exact solver's table"),
        Bot("hold", "hold once the turn total reaches H", positional=("at",))],
        [Knob("at", "int", 20, "hold once the turn total reaches this", 1, 100000)],
        what="policy")


#: The Pig policies (``--seats``, ``--vs``) as the shared parser reads them.
POLICIES = _policies()


def policy_from_spec(spec) -> PigPolicy:
    """The policy of a parsed spec other than ``rule:FILE`` (lineup.py reads those)."""
    return PigPolicy("optimal") if spec.name == "optimal" else PigPolicy("hold", spec["at"])


def policy_arrays(policy: PigPolicy, rules: PigRules):
    """(kind, hold_at, table) as the kernel wants them."""
    from kernels.pig import KIND_TABLE, KIND_THRESHOLD

    if policy.kind == "optimal":
        return KIND_TABLE, 0, solve(rules)[1]
    if policy.kind == "rule":
        from analyzer.games.pig.advice import rule_table

        return KIND_TABLE, 0, rule_table(policy.rule, rules.goal)
    return KIND_THRESHOLD, policy.hold_at, np.zeros((1, 1, 1), dtype=np.uint8)


def exact_first_wins(pair, rules: PigRules) -> float:
    """P(seat 1 wins, moving first) by policy evaluation of both seats' tables
    (kernels/pig/evaluate.py); a hold:H policy as its table (roll while k < H)."""
    from analyzer.games.pig.advice import hold_table
    from kernels.pig.evaluate import evaluate_pig

    tabs = [policy_arrays(p, rules)[2] if p.kind != "hold" else hold_table(p.hold_at, rules.goal)
            for p in pair]
    return float(evaluate_pig(rules.goal, rules.faces, rules.bust_faces, *tabs)[0][0, 0])


def make_job(pair: tuple[PigPolicy, PigPolicy], rules: PigRules, alternate: bool = False):
    """A runner job playing whole games: seat 1 plays pair[0], seat 2 pair[1]."""
    from analyzer.runner import KernelJob, half_width_of_proportion
    from kernels.pig import GAME_COLUMNS, simulate_blocks

    k0, h0, t0 = policy_arrays(pair[0], rules)
    k1, h1, t1 = policy_arrays(pair[1], rules)

    def run_blocks(keys, counts):
        return simulate_blocks(keys, counts, rules.goal, rules.faces, rules.bust_faces, alternate,
                               k0, h0, t0, k1, h1, t1)

    return KernelJob(f"pig {pair[0].label} vs {pair[1].label}", 1 << 14, run_blocks,
                     half_width_of_proportion(GAME_COLUMNS.index("first_mover_wins")),
                     unit="games")


def python_reference_games(n: int, seed: int, hold0: int = 20, hold1: int = 20,
                           rules: PigRules = PigRules()) -> float:
    """Pure-Python reference of the same game loop (hold:H vs hold:H); returns the first
    player's win rate. Used by `pushluck bench` for the kernel/reference ratio."""
    import random

    rnd = random.Random(seed)
    wins = 0
    for _ in range(n):
        scores = [0, 0]
        holds = (hold0, hold1)
        player = 0
        while True:
            k = 0
            limit = min(holds[player], rules.goal - scores[player])
            while True:
                face = rnd.randrange(rules.faces) + 1
                if face <= rules.bust_faces:
                    k = 0
                    break
                k += face
                if k >= limit:
                    break
            scores[player] += k
            if scores[player] >= rules.goal:
                break
            player = 1 - player
        wins += player == 0
    return wins / n


def simulate(pair, rules: PigRules, spec: RunSpec) -> dict:
    """Whole games between a policy pair: first player's win rate (Wilson), mean turns and rolls
    per game (mean ± 1.96·SE from Σx and Σx²)."""
    from analyzer.stats import mean_from_sums, wilson
    from kernels.pig import GAME_COLUMNS

    res = spec.run(make_job(pair, rules))
    s = {name: float(v) for name, v in zip(GAME_COLUMNS, res.sums)}
    win = wilson(s["first_mover_wins"], res.n)
    if pair[0].kind == "optimal" and pair[1].kind == "optimal":
        win = win.with_exact(float(solve(rules)[0][0, 0, 0]))
    elif "rule" in (pair[0].kind, pair[1].kind):
        win = win.with_exact(exact_first_wins(pair, rules))
    return {
        "game": "pig", "policies": [pair[0].label, pair[1].label], "rules": rules_dict(rules),
        "seed": spec.seed, "n": res.n, "p_first_player_wins": win,
        "mean_turns": mean_from_sums(s["turns"], s["turns2"], res.n),
        "mean_rolls": mean_from_sums(s["rolls"], s["rolls2"], res.n),
        "games_per_second": res.per_second, "stopped_by": res.stopped_by,
        "interrupted": res.interrupted, "exact": False,
    }


def simulate_paired(pair_a, pair_b, rules: PigRules, spec: RunSpec) -> dict:
    """Pair A vs pair B on common random numbers: seat 1's win rate under each, and A − B."""
    from analyzer.runner import KernelJob, half_width_of_mean
    from analyzer.stats import paired_difference, wilson
    from kernels.pig import PAIRED_COLUMNS, paired_blocks

    a = [policy_arrays(p, rules) for p in pair_a]
    b = [policy_arrays(p, rules) for p in pair_b]

    def run_blocks(keys, counts):
        return paired_blocks(keys, counts, rules.goal, rules.faces, rules.bust_faces,
                             *a[0], *a[1], *b[0], *b[1])

    col = PAIRED_COLUMNS.index
    job = KernelJob("pig paired", 1 << 14, run_blocks,
                    half_width_of_mean(col("sum_d"), col("sum_d2")), unit="games")
    res = spec.run(job)
    s = {name: float(v) for name, v in zip(PAIRED_COLUMNS, res.sums)}
    diff = paired_difference(s["sum_d"], s["sum_d2"], res.n)
    return {
        "game": "pig", "seed": spec.seed, "n": res.n, "rules": rules_dict(rules),
        "a": [p.label for p in pair_a], "b": [p.label for p in pair_b],
        "p_first_player_wins_a": wilson(s["seat0_wins_a"], res.n),
        "p_first_player_wins_b": wilson(s["seat0_wins_b"], res.n),
        "difference_a_minus_b": diff,
        "verdict": _verdict(diff),
        "stopped_by": res.stopped_by, "interrupted": res.interrupted, "exact": False,
    }


def _verdict(diff) -> str:
    if diff.contains_zero():
        return f"no significant difference at n = {diff.n:,}"
    return "A's first player wins more often" if diff.estimate > 0 else \
        "B's first player wins more often"
