"""Pig, the calibration game: rules, policies, the exact solver's results and simulations.

Parameters (rules page ``shared/rules/pig.md``): ``goal`` (100), ``faces`` (6), ``bust_faces`` (1:
the face 1 busts). Published facts the engine reproduces: optimal vs optimal, the first player wins
with probability ≈ 0.5306; "hold at 20" busts a turn with probability ≈ 0.6245 and scores ≈ 8.1418.

Exact single-turn statistics of "hold at H" (no goal): let ``q[t]`` be the probability of reaching
turn total ``t`` without busting, ``q[0] = 1`` and ``q[t] = Σ_{f>b, t-f < H} q[t-f] / F`` for t ≥ 1.
The turn ends holding ``t ≥ H`` with probability ``q[t]`` for ``H ≤ t < H + F`` (t - f < H ensures
the turn did not stop earlier); p_bust = 1 − Σ_{t≥H} q[t]; mean points = Σ_{t≥H} t·q[t].
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import numpy as np

from analyzer.errors import UserError
from analyzer.rules import rule


@dataclass(frozen=True)
class PigRules:
    goal: int = rule(100, "points needed to win", min=2, max=400)
    faces: int = rule(6, "faces of the die", min=2, max=20)
    bust_faces: int = rule(1, "how many of the lowest faces bust the turn (1: only a 1)", min=1,
                           max=19)

    def check(self) -> None:
        if self.bust_faces >= self.faces:
            raise UserError("rule 'bust_faces' must be smaller than 'faces'")


@dataclass(frozen=True)
class PigPolicy:
    """``hold:H`` (a threshold) or ``optimal`` (the solver's table)."""

    kind: str  # "hold" or "optimal"
    hold_at: int = 0

    @property
    def label(self) -> str:
        return "optimal" if self.kind == "optimal" else f"hold:{self.hold_at}"


def parse_policy(text: str) -> PigPolicy:
    t = text.strip().lower()
    if t == "optimal":
        return PigPolicy("optimal")
    m = re.fullmatch(r"hold:(\d+)", t)
    if m and int(m.group(1)) >= 1:
        return PigPolicy("hold", int(m.group(1)))
    raise UserError(f"unknown Pig policy '{text}' (use hold:H with H >= 1, or optimal)")


def parse_policy_pair(text: str) -> tuple[PigPolicy, PigPolicy]:
    parts = [p for p in text.split(",")]
    if len(parts) != 2:
        raise UserError(f"--policies expects two policies separated by a comma, got '{text}'")
    return parse_policy(parts[0]), parse_policy(parts[1])


@functools.lru_cache(maxsize=4)
def solve(rules: PigRules, tol: float = 1e-12):
    """Optimal win probabilities ``P[i, j, k]`` and the roll table (1 roll, 0 hold)."""
    from kernels.pig import solve_pig

    P, roll, iterations, change = solve_pig(rules.goal, rules.faces, rules.bust_faces, tol, 100000)
    return P, roll, int(iterations), float(change)


def turn_stats(hold_at: int, rules: PigRules) -> dict:
    """Exact one-turn statistics of "hold at H" ignoring the goal (module doc)."""
    F, b = rules.faces, rules.bust_faces
    top = hold_at + F
    q = [0.0] * top
    q[0] = 1.0
    for t in range(1, top):
        acc = 0.0
        for f in range(b + 1, F + 1):
            prev = t - f
            if 0 <= prev < hold_at:
                acc += q[prev]
        q[t] = acc / F
    end = {t: q[t] for t in range(hold_at, top) if q[t] > 0}
    p_hold = sum(end.values())
    return {"p_bust": 1.0 - p_hold, "mean_points": sum(t * p for t, p in end.items()),
            "distribution": end}


def check_scores(me: int, opp: int, turn: int, rules: PigRules) -> None:
    for name, v in (("--me", me), ("--opp", opp), ("--turn", turn)):
        if v < 0:
            raise UserError(f"{name} must be non-negative (got {v})")
    if me >= rules.goal or opp >= rules.goal:
        raise UserError(f"scores must be below the goal {rules.goal}: the game is already over")
    if me + turn >= rules.goal:
        raise UserError(f"--me {me} plus --turn {turn} reaches the goal {rules.goal}: just hold")


def decide(me: int, opp: int, turn: int, rules: PigRules) -> dict:
    """Exact roll/hold decision with the win probability of each choice."""
    check_scores(me, opp, turn, rules)
    P, _roll, _it, _ch = solve(rules)
    F, b, goal = rules.faces, rules.bust_faces, rules.goal
    p_roll = b / F * (1.0 - P[opp, me, 0])
    for f in range(b + 1, F + 1):
        t = turn + f
        p_roll += (1.0 if me + t >= goal else P[me, opp, t]) / F
    p_hold = None if turn == 0 else 1.0 - P[opp, me + turn, 0]
    if p_hold is None:
        rec = "roll"
    elif abs(p_roll - p_hold) <= 1e-9:
        rec = "either"
    else:
        rec = "roll" if p_roll > p_hold else "hold"
    return {"me": me, "opp": opp, "turn": turn, "p_win_roll": p_roll, "p_win_hold": p_hold,
            "recommendation": rec,
            "margin": None if p_hold is None else abs(p_roll - p_hold), "exact": True}


def policy_arrays(policy: PigPolicy, rules: PigRules):
    """(kind, hold_at, table) as the kernel wants them."""
    from kernels.pig import KIND_TABLE, KIND_THRESHOLD

    if policy.kind == "optimal":
        return KIND_TABLE, 0, solve(rules)[1]
    return KIND_THRESHOLD, policy.hold_at, np.zeros((1, 1, 1), dtype=np.uint8)


def make_job(pair: tuple[PigPolicy, PigPolicy], rules: PigRules, alternate: bool = False):
    """A runner job playing whole games: seat 0 plays pair[0], seat 1 pair[1]."""
    from analyzer.runner import KernelJob, half_width_of_proportion
    from kernels.pig import simulate_blocks

    k0, h0, t0 = policy_arrays(pair[0], rules)
    k1, h1, t1 = policy_arrays(pair[1], rules)

    def run_blocks(keys, counts):
        return simulate_blocks(keys, counts, rules.goal, rules.faces, rules.bust_faces, alternate,
                               k0, h0, t0, k1, h1, t1)

    return KernelJob(f"pig {pair[0].label} vs {pair[1].label}", 1 << 14, run_blocks,
                     half_width_of_proportion(0), unit="games")


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


def simulate(pair, rules: PigRules, n: int | None, seed: int, precision=None, time_limit=None,
             progress=None) -> dict:
    """Whole games between a policy pair: first player's win rate (Wilson), turns, rolls."""
    from analyzer.runner import run
    from analyzer.stats import mean_from_sums, wilson

    res = run(make_job(pair, rules), n, seed, precision=precision, time_limit=time_limit,
              progress=progress)
    s = res.sums
    win = wilson(float(s[0]), res.n)
    exact = None
    if pair[0].kind == "optimal" and pair[1].kind == "optimal":
        exact = float(solve(rules)[0][0, 0, 0])
        win = win.with_exact(exact)
    return {
        "game": "pig", "policies": [pair[0].label, pair[1].label], "rules": rules_dict(rules),
        "seed": seed, "n": res.n, "p_first_player_wins": win,
        "mean_turns": float(s[1]) / res.n, "mean_rolls": float(s[2]) / res.n,
        "games_per_second": res.per_second, "stopped_by": res.stopped_by,
        "interrupted": res.interrupted,
    }


def simulate_paired(pair_a, pair_b, rules: PigRules, n: int | None, seed: int, precision=None,
                    time_limit=None, progress=None) -> dict:
    """Pair A vs pair B on common random numbers: seat 0's win rate under each, and A − B."""
    from analyzer.runner import KernelJob, half_width_of_mean, run
    from analyzer.stats import paired_difference, wilson
    from kernels.pig import paired_blocks

    a = [policy_arrays(p, rules) for p in pair_a]
    b = [policy_arrays(p, rules) for p in pair_b]

    def run_blocks(keys, counts):
        return paired_blocks(keys, counts, rules.goal, rules.faces, rules.bust_faces,
                             *a[0], *a[1], *b[0], *b[1])

    job = KernelJob("pig paired", 1 << 14, run_blocks, half_width_of_mean(2, 3), unit="games")
    res = run(job, n, seed, precision=precision, time_limit=time_limit, progress=progress)
    s = res.sums
    diff = paired_difference(float(s[2]), float(s[3]), res.n)
    return {
        "game": "pig", "seed": seed, "n": res.n, "rules": rules_dict(rules),
        "a": [p.label for p in pair_a], "b": [p.label for p in pair_b],
        "p_first_player_wins_a": wilson(float(s[0]), res.n),
        "p_first_player_wins_b": wilson(float(s[1]), res.n),
        "difference_a_minus_b": diff,
        "verdict": _verdict(diff),
        "stopped_by": res.stopped_by, "interrupted": res.interrupted,
    }


def _verdict(diff) -> str:
    if diff.contains_zero():
        return f"no significant difference at n = {diff.n:,}"
    return "A's first player wins more often" if diff.estimate > 0 else \
        "B's first player wins more often"


def rules_dict(rules: PigRules) -> dict:
    from analyzer.rules import rules_to_dict

    return rules_to_dict(rules)
