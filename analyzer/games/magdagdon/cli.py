"""`pushluck magdagdon …`: the solo 4×4 dice-placement game (rules: docs/rules/magdagdon.md).

Only parses options, calls rules/exact/play/decide and prints; charts and tables come from
report.py. Queries (score, feasible, odds) import neither pandas nor matplotlib, nor NumPy
or Numba unless a placement search is too large for the pure-Python path (issue 16).
"""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from analyzer.advice.cli import (MaxLossOpt, race_indifference_option, race_precision_option,
                                 race_rounds_option, record_games_option)
from analyzer.advice.record import GAMES
from analyzer.options import (RULE_POLICY, ChartOpt, JsonOpt, OutOpt, PrecisionOpt, ProgressOpt,
                              RulesOpt, SeedOpt, SetOpt, TimeLimitOpt, VsOpt,
                              policy as policy_option, run_spec, trials)

app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="""MAGDAGDON: place dice on a 4×4 board; adjacent numbers differ by at most 1.

A board is its rows top to bottom separated by '/', one character per cell: 1-6 a number,
'.' empty, 'x' a ruin (e.g. 12../2.../..../...x). A roll is its dice (e.g. 3446). Difficulties:
PEACEFUL (place 2, 3 powers costing 10/20/40), SURVIVAL (place 2, 1 power costing 70),
NIGHTMARE (place 3, no power). Exact answers: score, feasible, odds. Monte Carlo: best, simulate.
House rules: `pushluck magdagdon rules`.

Examples:

\b
  pushluck magdagdon odds --board 12../2.../..../...x --difficulty peaceful
  pushluck magdagdon simulate -n 20000 --difficulty survival --seed 7""")

KEY = "magdagdon"
BoardOpt = Annotated[str, typer.Option("--board", "-b", metavar="BOARD",
                                       help="The board, rows separated by '/': 1-6 a number, "
                                            "'.' empty, 'x' a ruin, e.g. 12../2.../..../...x")]
RollOpt = Annotated[str, typer.Option("--roll", "-r", metavar="DICE",
                                      help="The roll, e.g. 3446 (or 3,4,4,6).")]
DiffOpt = Annotated[str, typer.Option("--difficulty", "-d", metavar="LEVEL",
                                      help="peaceful, survival or nightmare.")]
PowersLeftOpt = Annotated[Optional[int], typer.Option(
    "--powers-left", metavar="N", help="Majda Powers left (default: all of the difficulty's).")]


def _rules(rules_file, sets):
    from analyzer.games.magdagdon.rules import MagdagdonRules
    from analyzer.rules import build_rules

    return build_rules(MagdagdonRules, rules_file, sets)


def _play_board(text, r, array: bool = False):
    """The board of a play command, tolerance checked: a list of ints (the exact queries load no
    NumPy), or with ``array`` the int8 array the kernels take."""
    from analyzer.games.magdagdon.rules import check_tolerance, parse_board, read_board

    cells = (parse_board if array else read_board)(text, r)
    check_tolerance(cells, r)
    return cells


@app.command()
def rules(json: JsonOpt = False):
    """List the house-rule keys of MAGDAGDON with their defaults.

    Examples:

    \b
      pushluck magdagdon rules
      pushluck magdagdon rules --json
    """
    from analyzer.games.magdagdon.rules import MagdagdonRules
    from analyzer.options import show_rules

    show_rules(MagdagdonRules, json, game=KEY)


@app.command()
def score(board: BoardOpt, difficulty: DiffOpt = "peaceful",
          powers_used: Annotated[int, typer.Option(
              "--powers-used", metavar="N",
              help="Majda Powers used so far (their penalties are subtracted).")] = 0,
          rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Score a board exactly (line sums, bonuses, ruins, power penalties).

    Every row and column scores the sum of its numbers; a full line of numbers earns its best
    bonus (straight 60, four of a kind 40, two pairs 20); −15 per ruin;
    then the difficulty's power penalties. Unfinished boards are scored as they stand.

    Examples:

    \b
      pushluck magdagdon score --board 3434/4343/3434/434x --powers-used 2
      pushluck magdagdon score --board 2345/2345/2345/2345 --json
    """
    from analyzer.games.magdagdon.exact import score as score_board
    from analyzer.games.magdagdon.rules import difficulty as get_diff, read_board
    from analyzer.output import emit, table

    r = _rules(rules_file, set_)
    diff = get_diff(r, difficulty)
    out = score_board(read_board(board, r), r, diff, powers_used)

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
    witness order (value, row, column) for both.

    Examples:

    \b
      pushluck magdagdon feasible --board ..../.3../..../.... --roll 4566
      pushluck magdagdon feasible --board ..../..../..../...x --roll 1356 --json
    """
    from analyzer.games.magdagdon.exact import feasible as feas
    from analyzer.games.magdagdon.rules import difficulty as get_diff, parse_roll
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
def odds(board: BoardOpt, difficulty: DiffOpt = "peaceful", powers_left: PowersLeftOpt = None,
         rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Exact chance that the next roll is a MAGDAGDON, over all 6⁴ = 1296 ordered rolls.

    p_magdagdon_after_powers: the chance of still facing it when the powers left (±1 on one die,
    reroll any dice; each use spends one power) are used to maximise the chance of escaping,
    rerolls being chance events (an exact dynamic programme over roll multisets).

    Examples:

    \b
      pushluck magdagdon odds --board 12../2.../..../...x --difficulty peaceful
      pushluck magdagdon odds --board 3.xx/xxxx/xxxx/xxxx --powers-left 0 --json
    """
    from analyzer.games.magdagdon.exact import odds as odds_of
    from analyzer.games.magdagdon.rules import difficulty as get_diff
    from analyzer.output import emit

    r = _rules(rules_file, set_)
    diff = get_diff(r, difficulty)
    out = odds_of(_play_board(board, r), r, diff, powers_left)
    from analyzer.words import percent

    def render():
        worst = ", ".join(x["roll"] for x in out["magdagdon_rolls"][:12])
        more = "" if len(out["magdagdon_rolls"]) <= 12 else ", …"
        from analyzer.words import fit_text

        return fit_text(f"MAGDAGDON {diff.name} board {out['board']} (exact, "
                        f"{out['rolls_total']} rolls)\n"
                f"  minimum dice {out['min_dice']}, powers left {out['powers_left']}\n"
                f"  MAGDAGDON rolls: {out['rolls_magdagdon']} of {out['rolls_total']}"
                f"  p = {percent(out['p_magdagdon'])}\n"
                f"  after the best use of the powers left: p = "
                f"{percent(out['p_magdagdon_after_powers'])}\n"
                f"  MAGDAGDON roll multisets: {worst or 'none'}{more}")

    emit(out, json, render)


@app.command()
def best(board: BoardOpt, roll: RollOpt, difficulty: DiffOpt = "peaceful",
         powers_left: PowersLeftOpt = None,
         n: trials("games played out after each action", 400, precision=False) = 400,
         policy: policy_option("Policy playing the rest of the game: greedy, max-dice or "
                               "min-dice (default greedy).") = None,
         top: Annotated[int, typer.Option("--top", metavar="N",
                                          help="How many actions to list.")] = 10,
         seed: SeedOpt = None, time_limit: TimeLimitOpt = None,
         rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Best action for this board and roll, by Monte Carlo rollouts.

    Every distinct legal action is evaluated: each distinct set of placed dice (any number from
    the minimum up; one placement order shown), each power use (±1 on a die, reroll of any dice)
    when powers are left, or — on a MAGDAGDON — accepting it with the ruin on each empty cell.
    Each action's value is the mean final score of -n games played to the end by --policy,
    all actions on the same dice (common random numbers). The recommendation is the top action
    unless its paired margin over the second contains 0 ("too close to call"). On the empty board
    placements are listed up to the board's symmetries.

    Examples:

    \b
      pushluck magdagdon best --board 33../34../45../.... --roll 1256 --top 6
      pushluck magdagdon best --board 3456/3456/3456/34.. --roll 4511 -d survival
    """
    from analyzer.games.magdagdon.decide import best as best_of
    from analyzer.games.magdagdon.lineup import parse_policy
    from analyzer.games.magdagdon.rules import difficulty as get_diff, parse_roll
    from analyzer.output import emit, table

    r = _rules(rules_file, set_)
    diff = get_diff(r, difficulty)
    cells = _play_board(board, r, array=True)
    dice = parse_roll(roll, r)
    pol = parse_policy(policy or "greedy")
    spec = run_spec(n, seed, time_limit=time_limit, as_json=json)
    pl = diff.powers if powers_left is None else powers_left
    out = best_of(cells, dice, r, diff, pl, spec, pol, top)

    def render():
        rows = [(x["text"], f"{x['mean_final_score'].estimate:.2f}",
                 f"{x['mean_final_score'].se:.2f}",
                 f"[{x['mean_final_score'].ci_low:.1f}, {x['mean_final_score'].ci_high:.1f}]")
                for x in out["top"]]
        m = out["margin_over_second"]
        margin = "" if m is None else f"\n  margin over the 2nd: {m.format(2)}"
        from analyzer.words import fit

        return "\n".join(fit((f"MAGDAGDON {diff.name} board {out['board']} roll {roll}"
                f"{' (a MAGDAGDON)' if out['magdagdon'] else ''}, powers left {pl}\n"
                f"  {out['actions_evaluated']} actions × n = {spec.n:,} games each "
                f"({pol.label} afterwards), seed {spec.seed}\n"
                + table(rows, ["action", "mean score", "SE", "95% CI"], "lrrr") +
                f"{margin}\n  → {best_verdict(out)}").split("\n")))

    emit(out, json, render)


def best_verdict(out: dict) -> str:
    """The answer in points of final score with its 95% interval over the second-best action:
    "place 5@r4c1 6@r4c2: +3.4 points of final score over the 2nd [+0.2, +6.6]", or "too close
    to call at n = … games: … leads by …" (analyzer.words.sampled_verdict); a lone action
    alone."""
    from analyzer.words import sampled_verdict

    m = out["margin_over_second"]
    if m is None:
        return out["recommendation"]
    return sampled_verdict(out["top"][0]["text"], m, "points of final score over the 2nd",
                           out["n"], "games")


@app.command()
def simulate(n: trials("games", 20_000, note=", or 200 when a rollout policy plays") = None,
             difficulty: DiffOpt = "peaceful",
             policy: policy_option("greedy, max-dice, min-dice or rollout:K (default "
                                   "greedy), with optional power knobs after it, each after a ':' "
                                   "(greedy:max-cost=C:min-empty=E:max-empty=E:which=W; W one "
                                   "of fix-or-reroll, fix, reroll), or " + RULE_POLICY + ".")
             = None,
             vs: VsOpt = None, out_dir: OutOpt = None, chart: ChartOpt = False,
             seed: SeedOpt = None, precision: PrecisionOpt = None, time_limit: TimeLimitOpt = None,
             progress: ProgressOpt = None, rules_file: RulesOpt = None, set_: SetOpt = None,
             json: JsonOpt = False):
    """Play whole games from the empty board with a policy.

    Reports the final score (mean ± SE, SD, quantiles, histogram), MAGDAGDON rolls, ruins,
    powers used and turns per game. Policies: greedy (the placement maximising a heuristic board
    value: 2 × numbers + 7 per live empty cell − ruin penalty per ruin or dead cell + line
    bonuses, 0.5 × attainable bonus on open lines), max-dice, min-dice, rollout:K (8 best
    candidates by that value, K greedy rollouts each). Powers are spent only on a MAGDAGDON and
    only while the next one costs less than ruin_penalty + 7, ±1 if one rescues the roll, else
    a reroll; the power knobs change that habit (see `magdagdon advice`). --vs compares with another policy
    on the same games (repeat --vs for several; the JSON then lists them under "comparisons").
    --out DIR writes the score histogram (magdagdon_simulate_scores.csv/.md); --chart also
    draws it (.png/.svg).

    Examples:

    \b
      pushluck magdagdon simulate -n 20000 --difficulty survival --seed 7
      pushluck magdagdon simulate -n 20000 -d nightmare --vs min-dice --seed 7
      pushluck magdagdon simulate --vs min-dice --vs max-dice --out mg --chart
      pushluck magdagdon simulate --policy greedy:which=fix --vs greedy
    """
    from analyzer.errors import UserError
    from analyzer.games.magdagdon.lineup import parse_policy
    from analyzer.games.magdagdon.play import simulate as sim, simulate_paired
    from analyzer.games.magdagdon.rules import difficulty as get_diff
    from analyzer.output import emit, note

    r = _rules(rules_file, set_)
    diff = get_diff(r, difficulty)
    pa = parse_policy(policy or "greedy")
    pbs = [parse_policy(v) for v in vs or []]
    if chart and out_dir is None:
        raise UserError("--chart writes into --out DIR: give --out too")
    if n is None and precision is None:
        rollout = any(p.label.startswith("rollout") for p in [pa, *pbs])
        n = 200 if rollout else 20_000
    spec = run_spec(n, seed, precision, time_limit, progress, json)

    def write(out, series):
        if out_dir is not None:
            from analyzer.games.magdagdon.report import write_simulation

            written = write_simulation(out_dir, series, diff.name, chart)
            out.update(written)
            note(f"wrote {', '.join(p for paths in written.values() for p in paths)}")

    if not pbs:
        out = sim(r, diff, pa, spec)
        write(out, [(pa.label, out)])
        emit(out, json, lambda: _render_one(out, diff, spec.seed))
        return
    # one paired run per --vs policy, each on the same games (common random numbers)
    runs = [simulate_paired(r, diff, pa, pb, spec) for pb in pbs]
    out = runs[0] if len(runs) == 1 else {
        "game": "magdagdon", "difficulty": diff.name, "seed": spec.seed, "a": pa.label,
        "comparisons": runs, "exact": False}
    write(out, [(pa.label, runs[0]["a_stats"])] + [(x["b"], x["b_stats"]) for x in runs])

    def render():
        parts = []
        for x in runs:
            d = x["difference_a_minus_b"]
            parts.append(
                f"MAGDAGDON {diff.name}, common random numbers, n = {x['n']:,} games, seed "
                f"{spec.seed}\n" + _render_stats(f"A {x['a']}", x["a_stats"]) + "\n"
                + _render_stats(f"B {x['b']}", x["b_stats"]) +
                f"\n  A − B score = {d.format(2)}  → {x['verdict']}")
        return "\n".join(parts)

    emit(out, json, render)


def _render_stats(label, st) -> str:
    q = st["quantiles"]
    return (f"  {label}: score {st['score'].format(2)}, SD {st['score_sd'].estimate:.1f}\n"
            f"    quantiles 5/25/50/75/95%: " + " / ".join(
                f"{q[k].estimate:.0f}" for k in ("q05", "q25", "q50", "q75", "q95")) + "\n"
            f"    per game: turns {st['turns'].estimate:.2f}, MAGDAGDON rolls "
            f"{st['magdagdon_rolls'].estimate:.3f}, ruins {st['ruins'].estimate:.3f}, powers "
            f"used {st['powers_used'].estimate:.3f}")


def _render_one(out, diff, seed) -> str:
    return (f"MAGDAGDON {diff.name}, policy {out['policy']}, n = {out['n']:,} games, seed {seed}\n"
            + _render_stats("final", out) +
            f"\n  games per second: {out['games_per_second']:,.0f}")


@app.command()
def advice(difficulty: DiffOpt = "peaceful",
           policy: policy_option("The placement policy every rule plays with: greedy, max-dice "
                                 "or min-dice (default greedy).") = None,
           seed: SeedOpt = None,
           precision: race_precision_option("points") = 0.5,
           indifference: race_indifference_option("points") = None,
           rounds: race_rounds_option("16 blocks of 32 games per surviving rule") = 24,
           max_loss: MaxLossOpt = None, record_games: record_games_option("games") = GAMES,
           out: OutOpt = None, rules_file: RulesOpt = None, set_: SetOpt = None,
           json: JsonOpt = False):
    """Which Majda Power to use on a MAGDAGDON, and when: rules of thumb raced by Monte Carlo.

    Each rule says when to spend a power rather than accept the ruin (while the next penalty is
    at most c, with at least / at most e empty cells; or never, or always) and which (±1 if
    one rescues the roll, else reroll; ±1 only; reroll only). Every rule plays whole games with
    the same placement policy on the same dice (common random numbers); its loss in final score
    against the best rule is raced: a rule is dropped once its loss interval lies wholly above
    a simpler rule's. Opens with one sentence to remember; prints the best rule found (the best
    by sample mean, not shown best), the rules not separated from it, and the games spent
    against the uniform grid that gives the same guarantee. A rule plays back with `simulate
    --policy rule:FILE.json` (--out DIR writes them), or spelled out as knobs:
    greedy:max-cost=20:which=reroll. Each rule on the front then plays fresh games
    (--record-games) that record its MAGDAGDONs with a power left:
    where it spends or accepts the ruin otherwise than the best rule, and where it rerolls when
    the best rule would use a rescuing ±1 (or the reverse), most often first, in wrong decisions
    per game with 95% intervals.

    Examples:

    \b
      pushluck magdagdon advice --seed 3
      pushluck magdagdon advice -d survival --seed 3 --json
      pushluck magdagdon advice --seed 3 --out mg-rules
      pushluck magdagdon simulate --policy rule:mg-rules/rule_cx2.json --vs greedy
    """
    from analyzer.advice.cli import emit_raced
    from analyzer.errors import UserError
    from analyzer.games.magdagdon.advice import advise as search
    from analyzer.games.magdagdon.lineup import parse_policy
    from analyzer.games.magdagdon.rules import difficulty as get_diff, rules_dict
    from analyzer.options import seed_note
    from analyzer.rng import resolve_seed

    r = _rules(rules_file, set_)
    diff = get_diff(r, difficulty)
    pol = parse_policy(policy or "greedy")
    if pol.label.startswith("rollout") or pol.power:
        raise UserError("advice plays the rules with a base placement policy: greedy, max-dice "
                        "or min-dice, without power knobs")
    s, drawn = resolve_seed(seed)
    seed_note(s, drawn, json)
    res = search(r, diff, pol, s, rounds, precision, indifference, record_games=record_games)
    payload = {"game": "magdagdon", "difficulty": diff.name, "policy": pol.label,
               "rules": rules_dict(r), "exact": False, "seed": s,
               "unit": "points of final score (whole games)",
               "bots_rule": res["default"].to_json()}

    def bots_line(payload: dict) -> list[str]:
        bots = next((x for x in payload["all"] if x["rule"] == payload["bots_rule"]), None)
        if bots is None:
            return []
        L = bots["loss"]
        return [f"The bots' own rule (size {bots['complexity']}): loss {L['estimate']:.2f} "
                f"[{L['ci_low']:.2f}, {L['ci_high']:.2f}] points, {bots['verdict']}: "
                f"{bots['words']}"]

    emit_raced(payload, res, f"MAGDAGDON {diff.name}, {pol.label} placement: when to spend a "
               f"Majda Power and which (Monte Carlo, seed {s}); surviving rules only",
               max_loss=max_loss, out=out, json=json, digits=2,
               unit="points of final score", more=bots_line)
