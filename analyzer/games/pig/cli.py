"""`pushluck pig …`: the calibration game (Neller & Presser's optimal Pig).

What belongs here: the Typer sub-app only. Each command parses its options, calls :mod:`.exact`
or :mod:`.play` (or :mod:`.report` for a chart), and prints: a short text, or exactly one JSON
object with --json. No arithmetic on results, no kernel calls, and heavy imports stay inside the
commands so a query imports neither pandas nor matplotlib.
"""
from __future__ import annotations

from typing import Annotated, List, Optional

import typer

from analyzer.advice.cli import BandsOpt, ClausesOpt, MaxLossOpt
from analyzer.options import (RULE_POLICY, ChartOpt, JsonOpt, OutOpt, PrecisionOpt, ProgressOpt,
                              RulesOpt, SeedOpt, SetOpt, TimeLimitOpt, run_spec, trials,
                              trials_or_default)

app = typer.Typer(no_args_is_help=True, help="""Pig: race to 100 rolling a d6; a 1 loses the turn.

The calibration game: the exact solver and the Monte Carlo kernel reproduce the published optimal
play (first player wins ≈ 0.5306) and the hold-at-20 rule of thumb (bust ≈ 0.6245, ≈ 8.14 points).
Rules knobs: goal, faces, bust_faces (see `pushluck pig rules`).""")

SeatsOpt = Annotated[str, typer.Option(
    "--seats", metavar="A,B",
    help="Policy of seat 1 (moves first) and seat 2, separated by ',' (a single policy plays "
         "both): hold:H (hold once the turn total reaches H), optimal or " + RULE_POLICY +
         ", e.g. hold:20,optimal.")]
VsOpt = Annotated[Optional[List[str]], typer.Option(
    "--vs", metavar="A,B",
    help="A second line-up (seat 1, seat 2) played on the same games (common random numbers).")]
DEFAULT_TRIALS = 100_000
TrialsOpt = trials("games", DEFAULT_TRIALS)


def _rules(rules_file, sets, goal=None):
    from analyzer.games.pig.rules import PigRules
    from analyzer.rules import build_rules

    extra = {"goal": goal} if goal is not None else None
    return build_rules(PigRules, rules_file, sets, extra)


@app.command()
def rules(json: JsonOpt = False):
    """List the house-rule keys of Pig with their defaults.

    Examples:

      pushluck pig rules

      pushluck pig rules --json
    """
    from analyzer.games.pig.rules import PigRules
    from analyzer.options import show_rules

    show_rules(PigRules, json, game="pig")


@app.command()
def solve(goal: Annotated[Optional[int], typer.Option(
              metavar="POINTS", help="Points needed to win (default: the rules' goal, 100).")]
          = None,
          out: OutOpt = None, chart: ChartOpt = False,
          rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Solve two-player Pig exactly: both players maximise their chance of winning.

    Value iteration over (own score, opponent score, turn total) to a 1e-12 change. With
    --out DIR the roll/hold decision of every state is written to DIR/policy.csv; --chart also
    draws the hold boundary (DIR/hold_boundary.png and .svg).

    Examples:

      pushluck pig solve

      pushluck pig solve --goal 50 --json

      pushluck pig solve --out pig-out --chart
    """
    import time

    from analyzer.errors import UserError
    from analyzer.games.pig.exact import solve as solve_pig
    from analyzer.output import emit
    from analyzer.rules import rules_to_dict

    if chart and not out:
        raise UserError("--chart writes into --out DIR: give --out too")
    r = _rules(rules_file, set_, goal)
    t0 = time.perf_counter()
    P, _roll, iterations, change = solve_pig(r)
    seconds = time.perf_counter() - t0
    payload = {"game": "pig", "rules": rules_to_dict(r), "p_first_player_wins": float(P[0, 0, 0]),
               "iterations": iterations, "max_change": change, "seconds": seconds, "exact": True}
    if out:
        payload["files"] = _write_files(out, r, chart)
    emit(payload, json, lambda: (
        f"Pig to {r.goal}, both players optimal (exact, value iteration, {iterations} sweeps)\n"
        f"  P(first player wins) = {P[0, 0, 0]:.6f}\n"
        f"  solved in {seconds:.2f} s (max change at convergence {change:.1e})"))


def _write_files(out: str, r, chart: bool) -> list[str]:
    """DIR/policy.csv (and the hold-boundary chart); returns the paths written."""
    from pathlib import Path

    from analyzer.games.pig.exact import policy_rows
    from analyzer.output import atomic_write_bytes, atomic_write_text, note

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["own_score,opp_score,turn_total,decision"]
    lines += [f"{i},{j},{k},{d}" for i, j, k, d in policy_rows(r)]
    written = [folder / "policy.csv"]
    atomic_write_text(str(written[0]), "\n".join(lines) + "\n")
    if chart:
        from analyzer.charts import figure_files
        from analyzer.games.pig.report import hold_boundary_figure

        _df, fig = hold_boundary_figure(r)
        for name, data in figure_files(fig, "hold_boundary").items():
            written.append(atomic_write_bytes(folder / name, data))
    for path in written:
        note(f"wrote {path}")
    return [str(p) for p in written]


@app.command()
def decide(me: Annotated[int, typer.Option(metavar="POINTS", help="Your banked score.")],
           opp: Annotated[int, typer.Option(metavar="POINTS", help="Your opponent's banked score.")],
           turn: Annotated[int, typer.Option(metavar="POINTS", help="Your turn total so far.")] = 0,
           rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Should I roll or hold? Exact win probabilities of both choices under optimal play.

    Examples:

      pushluck pig decide --me 80 --opp 95 --turn 12

      pushluck pig decide --me 50 --opp 60 --turn 12 --json
    """
    from analyzer.games.pig.exact import decide as decide_pig
    from analyzer.output import emit

    from analyzer.words import decimals_to_show, percent, verdict

    r = _rules(rules_file, set_)
    d = {"game": "pig", **decide_pig(me, opp, turn, r)}
    d["rules"] = {"goal": r.goal, "faces": r.faces, "bust_faces": r.bust_faces}
    d["verdict"] = ("roll or hold: both win as often" if d["recommendation"] == "either" else
                    verdict(d["recommendation"], d["margin"], "chance of winning"))

    def render():
        places = decimals_to_show(None if d["margin"] is None else 100 * d["margin"])
        hold = ("— (a turn total of 0 must roll)" if d["p_win_hold"] is None else
                percent(d["p_win_hold"], places))
        return (f"Pig to {r.goal}: me {me}, opponent {opp}, turn total {turn} (exact)\n"
                f"  P(win | roll) = {percent(d['p_win_roll'], places)}\n"
                f"  P(win | hold) = {hold}\n  → {d['verdict']}")

    emit(d, json, render)


@app.command()
def turn(hold: Annotated[int, typer.Option(
             "--hold", min=1, metavar="H", help="Hold once the turn total reaches H.")],
         rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Exact statistics of one turn under "hold at H": bust chance and mean points.

    Examples:

      pushluck pig turn --hold 20

      pushluck pig turn --hold 25 --set faces=8 --json
    """
    from analyzer.games.pig.exact import turn_stats
    from analyzer.output import emit

    r = _rules(rules_file, set_)
    st = turn_stats(hold, r)
    payload = {"game": "pig", "hold": hold, "p_bust": st["p_bust"],
               "mean_points": st["mean_points"],
               "distribution": {str(k): v for k, v in st["distribution"].items()}, "exact": True}
    from analyzer.words import fit_text

    emit(payload, json, lambda: fit_text(
        f"Pig, one turn, hold at {hold} (exact)\n  P(bust) = {st['p_bust']:.6f}\n"
        f"  mean points = {st['mean_points']:.6f}\n  ends holding: " +
        ", ".join(f"{k}: {v:.4f}" for k, v in st["distribution"].items())))


@app.command()
def simulate(n: TrialsOpt = None,
             seats: SeatsOpt = "optimal,optimal", vs: VsOpt = None,
             seed: SeedOpt = None, precision: PrecisionOpt = None, time_limit: TimeLimitOpt = None,
             progress: ProgressOpt = None,
             rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Play whole games between two policies; the first player's win rate with its interval.

    --vs A,B plays a second line-up on the same games (common random numbers) and reports the
    difference of seat 1's win rates. With --precision, -n is a cap.

    Examples:

      pushluck pig simulate -n 2000000 --seed 1

      pushluck pig simulate -n 1000000 --seats hold:20,hold:20 --vs optimal,hold:20 --seed 1

    A rule of thumb from `pig advice --out DIR` plays as rule:FILE.json (or FILE holding one
    row of `pig advice --json`'s front); its exact win probability is printed beside:

      pushluck pig advice --out pig-rules

      pushluck pig simulate --seats rule:pig-rules/rule_cx2.json,optimal -n 1000000 --seed 1
    """
    from analyzer.errors import UserError
    from analyzer.games.pig import play
    from analyzer.games.pig.lineup import parse_policy_pair
    from analyzer.output import emit

    r = _rules(rules_file, set_)
    pair = parse_policy_pair(seats)
    if vs and len(vs) > 1:
        raise UserError("pig simulate compares one --vs line-up at a time")
    pair_b = parse_policy_pair(vs[0], "--vs") if vs else None
    spec = run_spec(trials_or_default(n, precision, DEFAULT_TRIALS), seed, precision, time_limit,
                    progress, json)
    if pair_b is None:
        out = play.simulate(pair, r, spec)
        w = out["p_first_player_wins"]
        exact = "" if w.exact_value is None else f"   (exact {w.exact_value:.6f})"
        emit(out, json, lambda: (
            f"Pig to {r.goal}: {pair[0].label} (first) vs {pair[1].label}, "
            f"n = {out['n']:,} games, seed {spec.seed}\n"
            f"  P(first player wins) = {w.format(4)}{exact}\n"
            f"  mean turns per game  = {out['mean_turns'].format(2)}\n"
            f"  games per second     = {out['games_per_second']:,.0f}"))
        return
    out = play.simulate_paired(pair, pair_b, r, spec)
    d = out["difference_a_minus_b"]
    from analyzer.words import fit_text

    emit(out, json, lambda: fit_text(
        f"Pig to {r.goal}, common random numbers, n = {out['n']:,} games, seed {spec.seed}\n"
        f"  A {out['a'][0]} vs {out['a'][1]}: P(first wins) = "
        f"{out['p_first_player_wins_a'].format(4)}\n"
        f"  B {out['b'][0]} vs {out['b'][1]}: P(first wins) = "
        f"{out['p_first_player_wins_b'].format(4)}\n"
        f"  A − B = {d.format(4)}  → {out['verdict']}"))



@app.command()
def advice(max_loss: MaxLossOpt = None, bands: BandsOpt = 3, clauses: ClausesOpt = 3,
           out: OutOpt = None, rules_file: RulesOpt = None, set_: SetOpt = None,
           json: JsonOpt = False):
    """Rules of thumb for Pig and their exact cost in win probability against optimal play.

    Searches single thresholds (hold at 25), thresholds in bands of a second feature and
    decision lists of up to 3 conditions over turn total, own and opponent's score, points
    behind and points needed; each rule is evaluated exactly (policy evaluation against the
    optimal player, both seats). Opens with one sentence to remember, then the simplest rules
    and what they cost (for each size, numbers + conditions to remember, the rule that loses
    least), and where each of them goes wrong most often.

    Examples:

      pushluck pig advice

      pushluck pig advice --max-loss 0.01 --json

    --out DIR writes each front rule as DIR/rule_cx<N>.json, to play it back:

      pushluck pig advice --out pig-rules

      pushluck pig simulate --seats rule:pig-rules/rule_cx2.json,optimal -n 1000000 --seed 1
    """
    from analyzer.advice import rule_row
    from analyzer.advice.cli import emit_exact, front_payload
    from analyzer.games.pig.advice import DECISION, advise
    from analyzer.rules import rules_to_dict
    from analyzer.words import percent

    r = _rules(rules_file, set_)
    res = advise(r, bands, clauses)
    feats = res["features"]
    payload = {"game": "pig", "rules": rules_to_dict(r), "exact": True,
               "unit": "win probability (average over seats, against the optimal player)",
               "p_first_optimal": res["p_first_optimal"],
               "best_hold_at": rule_row(res["best_hold_at"], feats, DECISION),
               "candidates_evaluated": res["evaluations"], "seconds": res["seconds"]}
    rows = front_payload(payload, res["front"], feats, DECISION, max_loss)
    hold = payload["best_hold_at"]

    def where(m):
        cell = m["cells"][0] if m["cells"] else None
        if cell is None:
            return ""
        how = ("rolls where optimal holds" if cell["rule_rolls_should_hold"] > 0.5
               else "holds where optimal rolls")
        return (f"; most often at own score {cell['own'][0]}–{cell['own'][1]}, opponent "
                f"{cell['opp'][0]}–{cell['opp'][1]} ({how})")

    emit_exact(payload, rows, res, title=[
        f"Pig to {r.goal}: rules of thumb against the optimal player (exact; loss = 0.5 − win "
        f"probability averaged over both seats)",
        f"  best \"hold at\" rule: {hold['words']} Loss {hold['loss']:.4f}; moving first it "
        f"wins {percent(hold['p_win_first'])}, the optimal player "
        f"{percent(res['p_first_optimal'])}."],
        unit="chance of winning", where=where, out=out, json=json,
        how_often=lambda m: f"wrong in {100 * m['share_wrong']:.1f}% of decisions")
