"""`pushluck canasta …`: Railroad Canasta (scores, meld checks, meld odds, games, decisions).

What belongs here: the Typer sub-app only. Each command parses its options, calls ``score``,
``play``, ``decide`` or ``report`` and prints (a table, or one JSON object with --json).
"""
from __future__ import annotations

from typing import Annotated, List, Optional

import typer

from analyzer.advice.cli import (MaxLossOpt, race_indifference_option, race_precision_option,
                                 race_rounds_option, record_games_option)
from analyzer.advice.record import GAMES
from analyzer.options import (DECIDE_PLAYOUTS, RULE_POLICY, ChartOpt, DecideTrialsOpt, ExampleOpt,
                              JsonOpt, OutOpt, PositionArg, PrecisionOpt, ProgressOpt, RulesOpt,
                              SeedOpt, SetOpt, TimeLimitOpt, position_command, renamed, run_spec,
                              seats_option, trials, trials_or_default)

app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="""Railroad Canasta: a kitty, four canasta types.

Each player has a 13-card hand and an 11-card kitty from 106 cards per player; canastas are red
(7 naturals, 500), black (mixed, 300), wild (1000) and sevens (1500); going out needs all four.
Exact: `score`, `check` and the meld chance on the deal. Monte Carlo (round engine in
kernels/canasta/, policies greedy and builder:K[:F]): `meld-odds`, `simulate`, `decide`.
House rules: `pushluck canasta rules`.

Examples:

\b
  pushluck canasta score --example basic
  pushluck canasta decide --example basic --seed 1
  pushluck canasta meld-odds --score 5000 --within-turns 3 -n 20000 --seed 1""")

POLICIES_HELP = ("greedy (goes out as soon as allowed), builder:K[:F] (only with K canastas or "
                 "when the stock is down to F cards; defaults 10 and 20), or " + RULE_POLICY +
                 ". Default: greedy.")
SeatsOpt = seats_option(POLICIES_HELP, "POLICY,POLICY…")


def _rules(rules_file, sets, players=None):
    from analyzer.games.canasta.rules import CanastaRules
    from analyzer.rules import build_rules

    extra = {"players": players} if players is not None else None
    return build_rules(CanastaRules, rules_file, sets, extra)


@app.command()
def rules(json: JsonOpt = False):
    """List the house-rule keys of Railroad Canasta with their defaults.

    Examples:

    \b
      pushluck canasta rules
      pushluck canasta rules --json
    """
    from analyzer.games.canasta.rules import CanastaRules
    from analyzer.options import show_rules

    show_rules(CanastaRules, json, game="canasta")


@app.command()
def score(file: Annotated[Optional[str], typer.Argument(
              metavar="FILE.toml", show_default=False,
              help="TOML file describing one player's round (or --example NAME).")] = None,
          example: Annotated[Optional[str], typer.Option(
              "--example", metavar="NAME",
              help="Score a shipped example round instead of a file (--example alone lists "
                   "them).")] = None,
          rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Score one player's round exactly (section 7 of docs/rules/canasta.md).

    The TOML file holds: melds = [["QS","QH",...], ...] (every meld, canastas as 7 cards, a
    black-three meld only when going out); red_threes = N; hand = ["KS", ...] (cards left);
    kitty = "picked" or the 11 cards of the unpicked kitty; went_out = true/false.
    round = 100 if out + melded card values + canasta bonuses + 100 per red three − hand −
    unpicked kitty.

    Examples:

    \b
      pushluck canasta score --example basic
      pushluck canasta score --example basic --set bonus_wild=2000 --json
    """
    from analyzer.examples import position_file
    from analyzer.games.canasta.score import score_from_toml
    from analyzer.output import emit, table
    from analyzer.rules import load_toml

    r = _rules(rules_file, set_)
    out = {"game": "canasta",
           **score_from_toml(load_toml(position_file("canasta-score", file, example, "score")),
                             r)}
    b = out["breakdown"]

    def render():
        rows = [("going out bonus", b["going_out_bonus"]), ("melded cards", b["meld_cards"])]
        rows += [(f"{k} canastas ({b['canastas'][k]})", v) for k, v in
                 b["canasta_bonuses"].items() if b["canastas"][k]]
        rows += [("red threes", b["red_threes"]), ("cards in hand", b["hand_penalty"]),
                 ("unpicked kitty", b["kitty_penalty"]), ("ROUND SCORE", out["round_score"])]
        return "Railroad Canasta round score (exact)\n" + table(rows, ["part", "points"], "lr")

    emit(out, json, render)


@app.command()
def check(melds: Annotated[List[str], typer.Argument(
              metavar="CARDS...",
              help="Proposed melds, each a comma list (e.g. KS,KH,KD); prefix + to add to an "
                   "existing meld.")],
          score: Annotated[int, typer.Option(
              metavar="POINTS", help="Your cumulative score (sets the requirement).")] = 0,
          melded: Annotated[bool, typer.Option(
              "--melded/--not-melded", help="Whether you have already melded this round.")]
          = False,
          existing: Annotated[Optional[List[str]], typer.Option(
              "--existing", metavar="CARDS",
              help="One of your melds already on the table (repeatable).")] = None,
          going_out: Annotated[bool, typer.Option(
              "--going-out", help="This is the turn you go out (black threes may meld).")]
          = False,
          rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Are these melds legal together, and do they meet the initial requirement?

    Requirement by cumulative score: below 0 → 15, 0–4995 → 50, 5000–9995 → 90,
    10000–14995 → 120, 15000+ → 150 (card values of the cards laid in the action; red threes and
    bonuses never count). Mixed melds need >= 2 naturals and <= 3 wilds; no wild joins sevens.

    Examples:

    \b
      pushluck canasta check --score 5000 KS,KH,2C 8S,8H,8D
      pushluck canasta check --melded --existing QS,QH,QD,QC +QC 7S,7H,7D,2C
    """
    from analyzer.games.canasta.score import check_melds
    from analyzer.output import emit, table

    r = _rules(rules_file, set_)
    out = {"game": "canasta", **check_melds(melds, r, score, melded, existing, going_out)}

    def render():
        rows = [(" ".join(m["cards"]), m["value"], m["canasta"] or "-",
                 "yes" if m["legal"] else "NO: " + m["reason"]) for m in out["melds"]]
        text = table(rows, ["meld", "value", "canasta", "legal"], "lrll")
        if out["requirement"] is not None:
            verdict = "meets" if out["meets_requirement"] else "does NOT meet"
            text += (f"\ntotal {out['value']} {verdict} the initial requirement "
                     f"{out['requirement']} (cumulative score {score})")
        else:
            text += f"\ntotal {out['value']}; " + ("legal" if out["legal"] else "illegal")
        return text

    emit(out, json, render)


@app.command("meld-odds")
def meld_odds(score: Annotated[int, typer.Option(
                  metavar="POINTS", help="Cumulative score (requirement band).")],
              players: Annotated[Optional[int], typer.Option(
                  metavar="P", help="Number of players.")] = None,
              within_turns: Annotated[int, typer.Option(
                  "--within-turns", metavar="T", min=0, max=200,
                  help="Also report melding by each of your own turns 1..T of the round.")] = 5,
              seats: SeatsOpt = None,
              n: trials("deals", 20000, precision=False) = 20000,
              seed: SeedOpt = None, time_limit: TimeLimitOpt = None,
              progress: ProgressOpt = None,
              rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False,
              _policy: renamed("--policy", "the line-up is --seats POLICY (a single policy "
                                           "plays every seat)") = None):
    """Chance of meeting the initial meld requirement: on the deal and within T turns.

    On the deal: exact (enumeration of every 13-card hand composition, hypergeometric weights)
    and Monte Carlo; a hand meets it when its best first melding action (natural melds, a wild
    meld, pairs with one wild, spare wilds on mixed melds) is worth the requirement. Within T
    turns: Monte Carlo of the player moving first (seat 1), drawing/taking and melding under the
    --seats line-up.

    Examples:

    \b
      pushluck canasta meld-odds --score 5000 --within-turns 3 -n 20000 --seed 1
      pushluck canasta meld-odds --score -100 --players 4 --seats builder:6 --json
    """
    from analyzer.games.canasta.lineup import parse_policies
    from analyzer.games.canasta.play import meld_odds as run_meld_odds
    from analyzer.output import emit

    r = _rules(rules_file, set_, players)
    pols = parse_policies(seats or "greedy", r.players)
    spec = run_spec(n, seed, time_limit=time_limit, progress=progress, as_json=json)
    out = run_meld_odds(score, within_turns, r, pols, spec)

    def render():
        d = out["p_requirement_on_deal"]
        ex = "" if out["p_exact_on_deal"] is None else f"   exact {out['p_exact_on_deal']:.6f}"
        lines = [f"Railroad Canasta, {r.players} players, cumulative score {score}: requirement "
                 f"{out['requirement']}; policy {out['policy']}; n = {out['n']:,} deals, "
                 f"seed {spec.seed}",
                 f"  on the deal        {d.format(4)}{ex}"]
        for row in out["by_turn"]:
            lines.append(f"  melded by turn {row['turn']:<3} {row['p_melded'].format(4)}")
        from analyzer.words import fit

        return "\n".join(fit(lines))

    emit(out, json, render)


@app.command()
def simulate(n: trials("games", 2000, precision=False) = 2000,
             players: Annotated[Optional[int], typer.Option(
                 metavar="P", help="Number of players.")] = None,
             seats: SeatsOpt = None,
             out_dir: OutOpt = None, chart: ChartOpt = False,
             seed: SeedOpt = None, time_limit: TimeLimitOpt = None, progress: ProgressOpt = None,
             rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Whole games to 20,000 with the rotating dealer between stated policies.

    Reports per round (cluster-robust ratio estimates over games): length in turns (all players'
    turns), canastas of each type (all players), kitty pick-ups and the round turn at which they
    happen, going-out / sevens-lock / stall / stock-exhaustion rates (a stall: one card left
    that is not a seven and no go-out, scored like a lock), points per player; per game:
    rounds to the target, each seat's win rate and the first mover's. greedy: goes out as soon as
    allowed. builder:K[:F]: only with K canastas or stock <= F (defaults 10 and 20). --chart
    draws canastas per round and how rounds end into --out (simulate.png and simulate.svg).

    Examples:

    \b
      pushluck canasta simulate -n 2000 --seats greedy,builder:10:20 --seed 1
      pushluck canasta simulate -n 2000 --seed 1 --out canasta-games --chart
    """
    from analyzer.errors import UserError
    from analyzer.games.canasta.lineup import parse_policies
    from analyzer.games.canasta.play import simulate as run_simulate
    from analyzer.output import emit, note, table

    if chart and not out_dir:
        raise UserError("--chart writes into a folder: give --out DIR")
    r = _rules(rules_file, set_, players)
    pols = parse_policies(seats or "greedy", r.players)
    spec = run_spec(n, seed, time_limit=time_limit, progress=progress, as_json=json)
    out = run_simulate(r, pols, spec)
    if chart:
        from pathlib import Path

        from analyzer.games.canasta.report import save_chart

        Path(out_dir).mkdir(parents=True, exist_ok=True)
        out["chart"] = [str(p) for p in save_chart(out, Path(out_dir) / "simulate")]
        note(f"wrote {', '.join(out['chart'])}")

    def render():
        pr = out["per_round"]
        rows = [(k.replace("_", " "), v.format(3)) for k, v in pr.items()]
        rows.append(("rounds per game", out["rounds_per_game"].format(3)))
        for srow in out["seats"]:
            rows.append((f"P(seat {srow['seat']} wins) [{srow['policy']}]",
                         srow["p_win"].format(4)))
        rows.append(("P(first mover of round 1 wins)", out["p_first_mover_wins"].format(4)))
        head = (f"Railroad Canasta, {r.players} players, {', '.join(out['policies'])}: "
                f"n = {out['n']:,} games ({out['rounds']:,} rounds), seed {spec.seed}\n")
        return head + table(rows, ["per round / per game", "estimate ± se [95% CI]"], "ll")

    emit(out, json, render)


@app.command()
def decide(position: PositionArg = None, example: ExampleOpt = None,
           seats: SeatsOpt = None, n: DecideTrialsOpt = None,
           objective: Annotated[str, typer.Option(
               metavar="own|lead",
               help="own: your round score; lead: your round score minus the best opponent's.")]
           = "own",
           seed: SeedOpt = None, precision: PrecisionOpt = None, time_limit: TimeLimitOpt = None,
           progress: ProgressOpt = None,
           rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Take the pile or draw two (phase = "draw"); go out now or play on (phase = "meld").

    Plays the round out many times from the position: the unseen cards (deck minus your hand,
    every meld, placed red threes and the pile) are dealt at random into the opponents' hands
    (their stated sizes), every face-down kitty and the stock (its stated size); both options
    use the same deal and random stream (common random numbers). Everyone then follows the
    --seats line-up (you are seat 1, the opponents follow in playing order). Reports your
    expected round score under each option and the paired difference with its 95% interval,
    and the same for your lead over the best opponent; the recommendation follows --objective
    (own score by default) and is "too close to call" when the interval contains 0; a note says
    when the other objective disagrees.

    Position keys: phase, stock, [me] score/hand/melds/red_threes/kitty, [[opponents]]
    score/hand_size/melds/red_threes/kitty (in playing order after you), [pile] cards (bottom
    to top)/frozen. You are the player to move. `canasta position --template` prints a
    commented position file.

    Examples:

    \b
      pushluck canasta decide --example basic -n 4000 --seed 1
      pushluck canasta decide --example basic --precision 40 --seed 2
      pushluck canasta decide --example goout --objective lead
      pushluck canasta position --template > my_position.toml
      pushluck canasta decide my_position.toml --seats builder:10:20,greedy
    """
    from analyzer.games.canasta.lineup import parse_policies
    from analyzer.games.canasta.position import check_objective, check_position
    from analyzer.output import emit
    from analyzer.rules import load_toml

    from analyzer.examples import position_file

    data = load_toml(position_file("canasta", position, example))
    players = None
    if isinstance(data.get("opponents"), list):
        players = 1 + len(data["opponents"])
    r = _rules(rules_file, set_, players)
    n = trials_or_default(n, precision, DECIDE_PLAYOUTS)
    pols = parse_policies(seats or "greedy", r.players)
    check_objective(objective)  # the objective, then the position: run_decide's order
    pos = check_position(data, r)
    # the position is good: only now the playouts' modules (NumPy, the kernels)
    from analyzer.games.canasta.decide import decide as run_decide

    spec = run_spec(n, seed, precision, time_limit, progress, json)
    out = run_decide(pos, r, pols, spec, objective)
    # the margin as a statistic object (the difference behind the recommendation), not a number
    out["margin"] = (out["difference_a_minus_b"] if objective == "own"
                     else out["lead_over_best_opponent_difference"])

    def render():
        a, b = out["options"]
        rec = take_verdict(out)
        other_key = "recommendation_by_lead" if objective == "own" else \
            "recommendation_by_own_score"
        other = out[other_key]
        note_line = ""
        if other != out["recommendation"]:
            what = "lead over the best opponent" if objective == "own" else "own round score"
            note_line = f"\n  (by {what} the answer is: {other})"
        from analyzer.words import fit

        return "\n".join(fit((
            f"Railroad Canasta decision ({out['question']}), policies "
            f"{', '.join(out['policies'])}, n = {out['n']:,} playouts each, seed {spec.seed}\n"
            f"  E[round score | {a}] = {out['round_score_a'].format(1)}\n"
            f"  E[round score | {b}] = {out['round_score_b'].format(1)}\n"
            f"  difference           = {out['difference_a_minus_b'].format(1)}\n"
            f"  lead over best opponent, difference = "
            f"{out['lead_over_best_opponent_difference'].format(1)}\n"
            f"  → {rec}{note_line}").split("\n")))

    emit(out, json, render)


def take_verdict(out: dict) -> str:
    """The answer in points of the objective with its 95% interval: "take the pile: +120.4
    points of your round score [+15.2, +225.6]", or "too close to call at n = … playouts: …
    leads by …" (analyzer.words.sampled_verdict)."""
    from analyzer.stats import magnitude
    from analyzer.words import sampled_verdict

    a, b = out["options"]
    d = out["margin"]
    unit = ("points of your round score" if out["objective"] == "own" else
            "points of lead over the best opponent")
    return sampled_verdict(a if d.estimate > 0 else b, magnitude(d), unit, out["n"])


@app.command()
def advice(seed: SeedOpt = None,
           precision: race_precision_option("win probability") = 0.02,
           indifference: race_indifference_option("win probability") = None,
           rounds: race_rounds_option("32 blocks of 4 games per surviving rule") = 60,
           record_games: record_games_option("games") = GAMES,
           max_loss: MaxLossOpt = None, out: OutOpt = None, rules_file: RulesOpt = None,
           set_: SetOpt = None, json: JsonOpt = False):
    """When to take the pile and when to go out: rules of thumb raced by Monte Carlo.

    Candidates pair a take-the-pile rule (whenever allowed; a threshold on the pile or on your
    hand; the pile threshold in two bands of the stock) with a go-out rule (as soon as allowed; a
    threshold on your canastas, the stock, the opponents' canastas or hand, or your lead in the
    game; two-condition lists such as "go out with K canastas or when the stock is down to F");
    the engine plays each as rule tables and the rest of play is the greedy bot's. Each is played
    in whole games against greedy opponents, in both seats, on the same deals (common random
    numbers); its loss in win probability against the best candidate is raced. Then each pair
    on the front plays --record-games fresh games, and at every take-the-pile and go-out
    decision of the studied seat its choice is compared with the best pair's on the same
    counts: the wrong decisions per game and where they happen most often.

    Examples:

      pushluck canasta advice --seed 4

      pushluck canasta advice --seed 4 --json

      pushluck canasta advice --seed 4 --out canasta-rules

      pushluck canasta simulate --seats rule:canasta-rules/rule_cx2.json,greedy
    """
    from analyzer.advice.cli import emit_raced
    from analyzer.games.canasta.advice import advise as search
    from analyzer.options import seed_note
    from analyzer.rng import resolve_seed
    from analyzer.rules import rules_to_dict

    r = _rules(rules_file, set_)
    s, drawn = resolve_seed(seed)
    seed_note(s, drawn, json)
    res = search(r, s, rounds, precision, indifference=indifference, record_games=record_games)
    payload = {"game": "canasta", "rules": rules_to_dict(r), "exact": False, "seed": s,
               "unit": "win probability (studied seat, both seats, greedy opponents)"}
    if "record_seconds" in res:
        payload["record_seconds"] = res["record_seconds"]
    emit_raced(payload, res, f"Railroad Canasta ({r.players} players): when to take the pile and "
               f"when to go out, raced in whole games against greedy opponents (Monte Carlo, "
               f"seed {s}); surviving rules only", max_loss=max_loss, out=out, json=json,
               digits=3, unit="chance of winning")


app.command("position")(position_command("canasta"))
