"""`pushluck magdagdon …`: the solo 4×4 dice-placement game (rules: shared/rules/magdagdon.md)."""
from __future__ import annotations

from typing import Optional

import typer
from typing import Annotated

from analyzer.options import (JsonOpt, PrecisionOpt, ProgressOpt, RulesOpt, SeedOpt, SetOpt,
                                 TimeLimitOpt, seed_note)

app = typer.Typer(no_args_is_help=True, help="""MAGDAGDON: place dice on a 4×4 board; adjacent numbers differ by at most 1.

A board is its rows top to bottom separated by '/', one character per cell: 1-6 a number,
'.' empty, 'x' a ruin (e.g. 12../2.../..../...x). A roll is its dice (e.g. 3446). Difficulties:
PEACEFUL (place 2, 3 powers costing 10/20/40), SURVIVAL (place 2, 1 power costing 70),
NIGHTMARE (place 3, no power). Exact answers: score, feasible, odds. Monte Carlo: best, simulate.
House rules: `pushluck magdagdon rules`.""")

BoardOpt = Annotated[str, typer.Option("--board", "-b", help="The board, e.g. 12../2.../..../...x")]
RollOpt = Annotated[str, typer.Option("--roll", "-r", help="The roll, e.g. 3446.")]
DiffOpt = Annotated[str, typer.Option("--difficulty", "-d",
                                      help="peaceful, survival or nightmare.")]


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="magdagdon")


def _rules(rules_file, sets):
    from analyzer.games.magdagdon import MagdagdonRules
    from analyzer.rules import build_rules

    return build_rules(MagdagdonRules, rules_file, sets)


def _play_board(text, r):
    from analyzer.games.magdagdon import check_tolerance, parse_board

    cells = parse_board(text, r)
    check_tolerance(cells, r)
    return cells


@app.command()
def rules(json: JsonOpt = False):
    """List the house-rule keys of MAGDAGDON with their defaults."""
    from analyzer.options import show_rules
    from analyzer.games.magdagdon import MagdagdonRules

    show_rules(MagdagdonRules, json)


@app.command()
def score(board: BoardOpt, difficulty: DiffOpt = "peaceful",
          powers_used: Annotated[int, typer.Option(
              help="Majda Powers used so far (their penalties are subtracted).")] = 0,
          rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Score a board exactly: every row and column scores the sum of its numbers; a full line of
    numbers earns its best bonus (straight 60, four of a kind 40, two pairs 20); −15 per ruin;
    then the difficulty's power penalties. Unfinished boards are scored as they stand."""
    from analyzer.games.magdagdon import difficulty as get_diff
    from analyzer.games.magdagdon import parse_board, score as score_board
    from analyzer.output import emit, table

    r = _rules(rules_file, set_)
    diff = get_diff(r, difficulty)
    out = score_board(parse_board(board, r), r, diff, powers_used)

    def render():
        rows = [(x["line"], x["sum"], x["bonus"] or "", x["bonus_points"]) for x in out["lines"]]
        return (f"MAGDAGDON {diff.name} board {out['board']} (exact)\n"
                + table(rows, ["line", "sum", "bonus", "points"]) +
                f"\n  line sums {out['line_sums']} + bonuses {out['bonuses']} − ruins "
                f"{out['ruins']}×{r.ruin_penalty} − powers {out['power_penalty']}"
                f"\n  score = {out['score']}" +
                ("" if out["finished"] else f"   (unfinished: {out['empty_cells']} empty cells)"))

    emit(out, json, render)


@app.command()
def feasible(board: BoardOpt, roll: RollOpt, difficulty: DiffOpt = "peaceful",
             rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Can this roll be placed? Exact search over every placement order.

    The roll is a MAGDAGDON when no order places the turn's minimum (the difficulty's, lowered to
    the number of empty cells). Also reports the most dice of the roll that can be placed, and a
    witness order (value, row, column) for both."""
    from analyzer.games.magdagdon import difficulty as get_diff
    from analyzer.games.magdagdon import feasible as feas, parse_roll
    from analyzer.output import emit

    r = _rules(rules_file, set_)
    diff = get_diff(r, difficulty)
    out = feas(_play_board(board, r), parse_roll(roll, r), r, diff)

    def fmt(order):
        return ", ".join(f"{w['value']} at r{w['row']}c{w['column']}" for w in order)

    def render():
        lines = [f"MAGDAGDON {diff.name} board {out['board']} roll {roll} (exact)",
                 f"  minimum dice this turn: {out['min_dice']}"]
        if out["feasible"]:
            lines.append(f"  feasible: yes — e.g. {fmt(out['witness'])}")
        else:
            lines.append("  feasible: NO — this roll is a MAGDAGDON")
        lines.append(f"  most dice placeable: {out['max_dice']}" +
                     (f" — {fmt(out['max_witness'])}" if out["max_witness"] else ""))
        return "\n".join(lines)

    emit(out, json, render)


@app.command()
def odds(board: BoardOpt, difficulty: DiffOpt = "peaceful",
         powers_left: Annotated[Optional[int], typer.Option(
             help="Majda Powers left (default: all of the difficulty's).")] = None,
         rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Exact chance that the next roll is a MAGDAGDON, over all 6⁴ = 1296 ordered rolls.

    p_magdagdon_after_powers: the chance of still facing it when the powers left (±1 on one die,
    reroll any dice; each use spends one power) are used to maximise the chance of escaping,
    rerolls being chance events (an exact dynamic programme over roll multisets)."""
    from analyzer.games.magdagdon import difficulty as get_diff
    from analyzer.games.magdagdon import odds as odds_of
    from analyzer.output import emit

    r = _rules(rules_file, set_)
    diff = get_diff(r, difficulty)
    out = odds_of(_play_board(board, r), r, diff, powers_left)

    def render():
        worst = ", ".join(x["roll"] for x in out["magdagdon_rolls"][:12])
        more = "" if len(out["magdagdon_rolls"]) <= 12 else ", …"
        return (f"MAGDAGDON {diff.name} board {out['board']} (exact, {out['rolls_total']} rolls)\n"
                f"  minimum dice {out['min_dice']}, powers left {out['powers_left']}\n"
                f"  MAGDAGDON rolls: {out['rolls_magdagdon']} of {out['rolls_total']}"
                f"  p = {out['p_magdagdon']:.6f}\n"
                f"  after the best use of the powers left: p = "
                f"{out['p_magdagdon_after_powers']:.6f}\n"
                f"  MAGDAGDON roll multisets: {worst or 'none'}{more}")

    emit(out, json, render)


@app.command()
def best(board: BoardOpt, roll: RollOpt, difficulty: DiffOpt = "peaceful",
         powers_left: Annotated[Optional[int], typer.Option(
             help="Majda Powers left (default: all of the difficulty's).")] = None,
         games: Annotated[int, typer.Option("--games", "-n",
                                            help="Rollouts per action.")] = 400,
         policy: Annotated[str, typer.Option(
             help="Policy playing the rest of the game: greedy, max-dice or min-dice.")] = "greedy",
         top: Annotated[int, typer.Option(help="How many actions to list.")] = 10,
         seed: SeedOpt = None, rules_file: RulesOpt = None, set_: SetOpt = None,
         json: JsonOpt = False):
    """Best action for this board and roll, by Monte Carlo rollouts.

    Every distinct legal action is evaluated: each distinct set of placed dice (any number from
    the minimum up; one placement order shown), each power use (±1 on a die, reroll of any dice)
    when powers are left, or — on a MAGDAGDON — accepting it with the ruin on each empty cell.
    Each action's value is the mean final score of --games games played to the end by --policy,
    all actions on the same dice (common random numbers). The recommendation is the top action
    unless its paired margin over the second contains 0 ("too close to call"). On the empty board
    placements are listed up to the board's symmetries."""
    from analyzer.games.magdagdon import difficulty as get_diff
    from analyzer.games.magdagdon import parse_roll
    from analyzer.games.magdagdon_play import best as best_of, parse_policy
    from analyzer.output import emit, table
    from analyzer.rng import resolve_seed

    r = _rules(rules_file, set_)
    diff = get_diff(r, difficulty)
    cells = _play_board(board, r)
    dice = parse_roll(roll, r)
    pol = parse_policy(policy)
    seed, drawn = resolve_seed(seed)
    seed_note(seed, drawn, json)
    pl = diff.powers if powers_left is None else powers_left
    out = best_of(cells, dice, r, diff, pl, games, seed, pol, top)

    def render():
        rows = [(x["text"], f"{x['mean_final_score'].estimate:.2f}",
                 f"{x['mean_final_score'].se:.2f}",
                 f"[{x['mean_final_score'].ci_low:.1f}, {x['mean_final_score'].ci_high:.1f}]")
                for x in out["top"]]
        m = out["margin_over_second"]
        margin = "" if m is None else f"\n  margin over the 2nd: {m.format(2)}"
        return (f"MAGDAGDON {diff.name} board {out['board']} roll {roll}"
                f"{' (a MAGDAGDON)' if out['magdagdon'] else ''}, powers left {pl}\n"
                f"  {out['actions_evaluated']} actions × n = {games:,} games each "
                f"({pol.label} afterwards), seed {seed}\n"
                + table(rows, ["action", "mean score", "SE", "95% CI"], "lrrr") +
                f"{margin}\n  → {out['recommendation']}")

    emit(out, json, render)


@app.command()
def simulate(games: Annotated[Optional[int], typer.Option(
                 "--games", "-n", help="Number of games (a cap with --precision).")] = None,
             difficulty: DiffOpt = "peaceful",
             policy: Annotated[str, typer.Option(
                 help="greedy, max-dice, min-dice or rollout:K.")] = "greedy",
             vs: Annotated[Optional[str], typer.Option(
                 help="A second policy played on the same games (common random numbers).")]
             = None,
             chart: Annotated[Optional[str], typer.Option(
                 help="Write the score histogram to BASE.png and BASE.svg.")] = None,
             seed: SeedOpt = None, precision: PrecisionOpt = None, time_limit: TimeLimitOpt = None,
             progress: ProgressOpt = None, rules_file: RulesOpt = None, set_: SetOpt = None,
             json: JsonOpt = False):
    """Play whole games from the empty board with a policy.

    Reports the final score (mean ± SE, SD, quantiles, histogram), MAGDAGDON rolls, ruins,
    powers used and turns per game. Policies: greedy (the placement maximising a heuristic board
    value: 2 × numbers + 7 per live empty cell − ruin penalty per ruin or dead cell + line
    bonuses, 0.5 × attainable bonus on open lines), max-dice, min-dice, rollout:K (8 best
    candidates by that value, K greedy rollouts each). Powers are spent only on a MAGDAGDON and
    only while the next one costs less than ruin_penalty + 7. --vs compares two policies on the
    same games."""
    from analyzer.errors import UserError
    from analyzer.games.magdagdon import difficulty as get_diff
    from analyzer.games.magdagdon_play import parse_policy, simulate as sim, simulate_paired
    from analyzer.output import emit, note
    from analyzer.rng import resolve_seed

    r = _rules(rules_file, set_)
    diff = get_diff(r, difficulty)
    pa = parse_policy(policy)
    pb = parse_policy(vs) if vs is not None else None
    if games is None and precision is None:
        rollout = pa.label.startswith("rollout") or (pb is not None and pb.label.startswith("rollout"))
        games = 200 if rollout else 20_000
    if games is not None and games <= 0:
        raise UserError(f"--games must be positive (got {games})")
    seed, drawn = resolve_seed(seed)
    seed_note(seed, drawn, json)
    if pb is None:
        out = sim(r, diff, pa, games, seed, precision, time_limit, progress)
        if chart:
            out["chart"] = [str(p) for p in _chart(chart, [(pa.label, out)], diff)]
            note(f"wrote {', '.join(out['chart'])}")
        emit(out, json, lambda: _render_one(out, diff, seed))
        return
    out = simulate_paired(r, diff, pa, pb, games, seed, precision, time_limit, progress)
    if chart:
        out["chart"] = [str(p) for p in _chart(chart, [(pa.label, out["a_stats"]),
                                                       (pb.label, out["b_stats"])], diff)]
        note(f"wrote {', '.join(out['chart'])}")
    d = out["difference_a_minus_b"]
    emit(out, json, lambda: (
        f"MAGDAGDON {diff.name}, common random numbers, n = {out['n']:,} games, seed {seed}\n"
        + _render_stats(f"A {pa.label}", out["a_stats"]) + "\n"
        + _render_stats(f"B {pb.label}", out["b_stats"]) +
        f"\n  A − B score = {d.format(2)}  → {out['verdict']}"))


def _render_stats(label, st) -> str:
    q = st["quantiles"]
    return (f"  {label}: score {st['score'].format(2)}, SD {st['score_sd']:.1f}\n"
            f"    quantiles 5/25/50/75/95%: {q['q05']} / {q['q25']} / {q['q50']} / {q['q75']} / "
            f"{q['q95']}\n"
            f"    per game: turns {st['turns'].estimate:.2f}, MAGDAGDON rolls "
            f"{st['magdagdon_rolls'].estimate:.3f}, ruins {st['ruins'].estimate:.3f}, powers "
            f"used {st['powers_used'].estimate:.3f}")


def _render_one(out, diff, seed) -> str:
    return (f"MAGDAGDON {diff.name}, policy {out['policy']}, n = {out['n']:,} games, seed {seed}\n"
            + _render_stats("final", out) +
            f"\n  games per second: {out['games_per_second']:,.0f}")


def _chart(base, series, diff):
    from analyzer.charts import new_figure, save_figure

    fig, ax = new_figure()
    from analyzer.games.magdagdon_play import binned

    for label, st in series:
        edges, share = binned(st["histogram"], st["score"].n)
        ax.stairs(share, edges + [edges[-1] + 10],
                  label=f"{label} (mean {st['score'].estimate:.1f})")
    ax.set_xlabel("final score (bins of 10 points)")
    ax.set_ylabel("share of games")
    ax.set_title(f"MAGDAGDON {diff.name}: final score distribution")
    ax.legend()
    return save_figure(fig, base)
