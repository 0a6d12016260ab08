"""`pushluck pig …`: the calibration game (Neller & Presser's optimal Pig)."""
from __future__ import annotations

from typing import Optional

import typer
from typing import Annotated

from analyzer.options import (JsonOpt, PrecisionOpt, ProgressOpt, RulesOpt, SeedOpt, SetOpt,
                                 TimeLimitOpt, seed_note)

app = typer.Typer(no_args_is_help=True, help="""Pig: race to 100 rolling a d6; a 1 loses the turn.

The calibration game: the exact solver and the Monte Carlo kernel reproduce the published optimal
play (first player wins ≈ 0.5306) and the hold-at-20 rule of thumb (bust ≈ 0.6245, ≈ 8.14 points).
Rules knobs: goal, faces, bust_faces (see `pushluck pig rules`).""")


def _rules(rules_file, sets, goal=None):
    from analyzer.games.pig import PigRules
    from analyzer.rules import build_rules

    extra = {"goal": goal} if goal is not None else None
    return build_rules(PigRules, rules_file, sets, extra)


@app.command()
def rules(json: JsonOpt = False):
    """List the house-rule keys of Pig with their defaults."""
    from analyzer.options import show_rules
    from analyzer.games.pig import PigRules

    show_rules(PigRules, json)


@app.command()
def solve(goal: Annotated[Optional[int], typer.Option(help="Points needed to win.")] = None,
          policy_out: Annotated[Optional[str], typer.Option(
              "--policy-out", help="Write the roll/hold decision of every state to this CSV.")] = None,
          rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Solve two-player Pig exactly: both players maximise their chance of winning.

    Value iteration over (own score, opponent score, turn total) to a 1e-12 change.
    """
    import time

    from analyzer.games.pig import solve as solve_pig
    from analyzer.output import emit, note
    from analyzer.rules import rules_to_dict

    r = _rules(rules_file, set_, goal)
    t0 = time.perf_counter()
    P, roll, iterations, change = solve_pig(r)
    seconds = time.perf_counter() - t0
    payload = {"game": "pig", "rules": rules_to_dict(r), "p_first_player_wins": float(P[0, 0, 0]),
               "iterations": iterations, "max_change": change, "seconds": seconds, "exact": True}
    if policy_out:
        _write_policy_csv(policy_out, roll, r.goal)
        payload["policy_out"] = policy_out
        note(f"wrote {policy_out}")
    emit(payload, json, lambda: (
        f"Pig to {r.goal}, both players optimal (exact, value iteration, {iterations} sweeps)\n"
        f"  P(first player wins) = {P[0, 0, 0]:.6f}\n"
        f"  solved in {seconds:.2f} s (max change at convergence {change:.1e})"))


def _write_policy_csv(path: str, roll, goal: int) -> None:
    from analyzer.output import atomic_write_text

    lines = ["own_score,opp_score,turn_total,decision"]
    for i in range(goal):
        for j in range(goal):
            row = roll[i, j, : goal - i]
            for k in range(goal - i):
                lines.append(f"{i},{j},{k},{'roll' if row[k] else 'hold'}")
    atomic_write_text(path, "\n".join(lines) + "\n")


@app.command()
def decide(me: Annotated[int, typer.Option(help="Your banked score.")],
           opp: Annotated[int, typer.Option(help="Your opponent's banked score.")],
           turn: Annotated[int, typer.Option(help="Your turn total so far.")] = 0,
           rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Should I roll or hold? Exact win probabilities of both choices under optimal play."""
    from analyzer.games.pig import decide as decide_pig
    from analyzer.output import emit

    r = _rules(rules_file, set_)
    d = decide_pig(me, opp, turn, r)
    d["rules"] = {"goal": r.goal, "faces": r.faces, "bust_faces": r.bust_faces}

    def render():
        hold = "—" if d["p_win_hold"] is None else f"{d['p_win_hold']:.6f}"
        margin = "" if d["margin"] is None else f" by {d['margin']:.6f}"
        return (f"Pig to {r.goal}: me {me}, opponent {opp}, turn total {turn} (exact)\n"
                f"  P(win | roll) = {d['p_win_roll']:.6f}\n  P(win | hold) = {hold}\n"
                f"  → {d['recommendation'].upper()}{margin}")

    emit(d, json, render)


@app.command()
def turn(hold: Annotated[int, typer.Option("--hold", min=1, help="Hold once the turn total reaches H.")],
         rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Exact statistics of one turn under "hold at H": bust chance and mean points."""
    from analyzer.games.pig import turn_stats
    from analyzer.output import emit

    r = _rules(rules_file, set_)
    st = turn_stats(hold, r)
    payload = {"game": "pig", "hold": hold, "p_bust": st["p_bust"],
               "mean_points": st["mean_points"],
               "distribution": {str(k): v for k, v in st["distribution"].items()}, "exact": True}
    emit(payload, json, lambda: (
        f"Pig, one turn, hold at {hold} (exact)\n  P(bust) = {st['p_bust']:.6f}\n"
        f"  mean points = {st['mean_points']:.6f}\n  ends holding: " +
        ", ".join(f"{k}: {v:.4f}" for k, v in st["distribution"].items())))


@app.command()
def simulate(games: Annotated[Optional[int], typer.Option(
                 "--games", "-n", help="Number of games (a cap with --precision).")] = None,
             policies: Annotated[str, typer.Option(
                 help="Seat 0 (moves first) and seat 1: hold:H or optimal, e.g. hold:20,optimal.")]
             = "optimal,optimal",
             vs: Annotated[Optional[str], typer.Option(
                 help="A second policy pair played on the same games (common random numbers).")]
             = None,
             seed: SeedOpt = None, precision: PrecisionOpt = None, time_limit: TimeLimitOpt = None,
             progress: ProgressOpt = None,
             rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Play whole games between two policies; the first player's win rate with its interval."""
    from analyzer.errors import UserError
    from analyzer.games import pig
    from analyzer.output import emit
    from analyzer.rng import resolve_seed

    r = _rules(rules_file, set_)
    if games is None and precision is None:
        games = 100_000
    if games is not None and games <= 0:
        raise UserError(f"--games must be positive (got {games})")
    pair = pig.parse_policy_pair(policies)
    pair_b = pig.parse_policy_pair(vs) if vs is not None else None
    seed, drawn = resolve_seed(seed)
    seed_note(seed, drawn, json)
    if vs is None:
        out = pig.simulate(pair, r, games, seed, precision, time_limit, progress)
        w = out["p_first_player_wins"]
        exact = "" if w.exact_value is None else f"   (exact {w.exact_value:.6f})"
        emit(out, json, lambda: (
            f"Pig to {r.goal}: {pair[0].label} (first) vs {pair[1].label}, "
            f"n = {out['n']:,} games, seed {seed}\n"
            f"  P(first player wins) = {w.format(4)}{exact}\n"
            f"  mean turns per game  = {out['mean_turns']:.2f}\n"
            f"  games per second     = {out['games_per_second']:,.0f}"))
        return
    out = pig.simulate_paired(pair, pair_b, r, games, seed, precision, time_limit, progress)
    d = out["difference_a_minus_b"]
    emit(out, json, lambda: (
        f"Pig to {r.goal}, common random numbers, n = {out['n']:,} games, seed {seed}\n"
        f"  A {out['a'][0]} vs {out['a'][1]}: P(first wins) = "
        f"{out['p_first_player_wins_a'].format(4)}\n"
        f"  B {out['b'][0]} vs {out['b'][1]}: P(first wins) = "
        f"{out['p_first_player_wins_b'].format(4)}\n"
        f"  A − B = {d.format(4)}  → {out['verdict']}"))
