"""`pushluck gostop …`: Go-Stop scoring, whole-deal simulation and the go-or-stop decision.

Only parses options, calls ``rules``/``score``/``play``/``decide``/``report`` and prints.
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from analyzer.advice.cli import (MaxLossOpt, race_indifference_option, race_precision_option,
                                 race_rounds_option, record_games_option)
from analyzer.options import (DECIDE_PLAYOUTS, RULE_POLICY, ChartOpt, DecideTrialsOpt, ExampleOpt,
                              JsonOpt, LineupVsOpt, OutOpt, PositionArg, PrecisionOpt, ProgressOpt,
                              RulesOpt, SeedOpt, SetOpt, TimeLimitOpt, position_command, renamed,
                              run_spec, seats_option, trials as trials_option,
                              trials_or_default)

app = typer.Typer(no_args_is_help=True, help="""Go-Stop (Korean hwatu fishing game), 2 or 3 players.

Cards: two-digit month + class (01B bright, 02A animal, 09R ribbon, 05J1 junk, 11D double junk),
jokers X2, X3. Defaults follow the source rules (target 7 with 2 players, 3 with 3; +1 per go and
x2 from the 3rd go; pi-bak at <= 5 junk); Korean house rules are flags
(`pushluck gostop rules`). Seats are numbered from 1; seat 1 deals and plays first. Go or stop
from a real position: `gostop decide POSITION.toml` (`gostop position --template` prints one).""")

DEFAULT_DEALS = 100_000


def _rules(rules_file, sets, players=None):
    from analyzer.games.gostop.rules import GoStopRules
    from analyzer.rules import build_rules

    extra = {"players": players} if players is not None else None
    return build_rules(GoStopRules, rules_file, sets, extra)


@app.command()
def rules(json: JsonOpt = False):
    """List the house-rule keys of Go-Stop with their defaults.

    Examples:

        pushluck gostop rules

        pushluck gostop rules --json
    """
    from analyzer.games.gostop.rules import GoStopRules
    from analyzer.options import show_rules

    show_rules(GoStopRules, json, game="gostop")


@app.command()
def score(captures: Annotated[str, typer.Option(
              metavar="CARDS", help="The winner's capture pile, e.g. '01B 03B 12B 02A 04A 08A'.")],
          opponents: Annotated[Optional[str], typer.Option(
              metavar="CARD:CARD,CARD:CARD",
              help="Opponents' capture piles (one or two): piles separated by ',', a pile's "
                   "cards by ':', e.g. 01B:03B,11J1:12D. Adds payments.")]
          = None,
          go_count: Annotated[int, typer.Option(metavar="N", help="Times the winner said go.")]
          = 0,
          shaken: Annotated[int, typer.Option(
              metavar="N", help="Months the winner shook (x2 each).")] = 0,
          bombs: Annotated[int, typer.Option(
              metavar="N", help="Bombs the winner made (x2 each only with bomb_bonus=korean).")]
          = 0,
          nagari: Annotated[bool, typer.Option(
              "--nagari", help="The previous deal was nagari (x2).")] = False,
          nagari_streak: Annotated[int, typer.Option(
              metavar="N", help="Consecutive nagari deals before this one (matters with "
                   "nagari_multiplier=stack); implies --nagari when > 0.")] = 0,
          opponent_gos: Annotated[Optional[str], typer.Option(
              metavar="N,N", help="Go calls of each opponent, e.g. '0,1' (for go_bak).")] = None,
          rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Points of a capture pile, line by line, and what each opponent pays (exact).

    Score = brights (3: 3, or 2 with 12B; 4: 4; 5: 15) + animals (count - 4 from 5) + godori 5 +
    ribbons (count - 4 from 5) + hongdan/cheongdan/chodan 3 each + junk (value - 9 from 10).
    Payment per opponent = (score + gos) x 2^shaken x go bonus x meong-bak x nagari x gwang-bak
    x pi-bak (section 9 of docs/rules/gostop.md).

    Examples:

        pushluck gostop score --captures 01B,03B,12B --json

        pushluck gostop score --captures 02A,04A,08A,05A,06A,07A --opponents 01B:03B,11J1:12D

        pushluck gostop score --captures 09A,11D,12D,01J1,01J2,02J1,02J2 --set sake_cup=flex
    """
    from analyzer.errors import UserError
    from analyzer.games.gostop import score as G
    from analyzer.games.gostop.rules import CardPool, card_name
    from analyzer.output import emit

    _check_score_flags(go_count, shaken, bombs, nagari_streak, opponent_gos, opponents)
    opp_texts = [] if opponents is None else opponent_piles(opponents)
    if len(opp_texts) > 2:
        raise UserError(f"--opponents lists {len(opp_texts)} piles; at most 2 (3 players)")
    r = _rules(rules_file, set_, 1 + len(opp_texts) if opp_texts else None)
    pool = CardPool(r)
    win = pool.parse(captures, "--captures")
    opps = [pool.parse(t, f"opponent {i + 1}'s pile") for i, t in enumerate(opp_texts)]
    sc = G.score_cards(win, r)
    stop_points = sc["points"]  # the go/stop check reads 09A to its owner's best points
    payload = {"game": "gostop", "exact": True, "captures": [card_name(c, r) for c in win],
               "stop_target": r.stop_target, "can_stop": stop_points >= r.stop_target}
    if opps:
        gos = None
        if opponent_gos is not None:
            try:
                gos = [int(x) for x in opponent_gos.split(",")]
            except ValueError:
                raise UserError(f"--opponent-gos expects integers like '0,1', got "
                                f"'{opponent_gos}'") from None
        streak = nagari_streak if nagari_streak > 0 else (1 if nagari else 0)
        p = G.payments(win, opps, r, go_count, shaken, bombs, streak, gos)
        payload.update({"go_count": go_count, "shaken": shaken, "payments": p["payments"],
                        "total": p["total"]})
        # show the reading of 09A the payment used (it may score fewer points: meong-bak)
        sc = G.score_cards(win, r, p["reading"])
    payload.update({"points": sc["points"], "breakdown": sc["breakdown"],
                    "sake_cup_as": sc["sake_cup_as"], "counts": sc["counts"]})

    def render():
        lines = [f"Go-Stop capture pile ({len(win)} cards), exact"]
        for x in sc["breakdown"]:
            lines.append(f"  {x['line']:<22} {x['points']:>3}")
        if sc["sake_cup_as"]:
            lines.append(f"  (09A counted as {sc['sake_cup_as']})")
        lines.append(f"  {'points':<22} {sc['points']:>3}   (stop minimum {r.stop_target})")
        if stop_points != sc["points"]:
            lines.append(f"  (read for the most points, 09A scores {stop_points} for the "
                         "stop check; the payment reading pays more)")
        for row in payload.get("payments", []):
            mult = ", ".join(row["multipliers"]) or "no multiplier"
            extra = f"  [{row['note']}]" if "note" in row else ""
            lines.append(f"  opponent {row['opponent']} pays {row['pays']}  ({mult}){extra}")
        if opps:
            lines.append(f"  total collected {payload['total']}")
        return "\n".join(lines)

    emit(payload, json, render)


#: Ranges of the `score` flags: a deal has at most 10 turns per player, so at most 10 gos; a
#: player shakes or bombs at most 4 months (rules section 9); 20 consecutive nagari deals is far
#: beyond any real table.
MAX_GOS, MAX_MONTHS, MAX_NAGARI = 10, 4, 20


def _check_score_flags(go_count, shaken, bombs, nagari_streak, opponent_gos, opponents) -> None:
    """Validate every `score` flag, whether or not --opponents makes it matter."""
    from analyzer.errors import UserError

    for v, name, top in ((go_count, "--go-count", MAX_GOS), (shaken, "--shaken", MAX_MONTHS),
                         (bombs, "--bombs", MAX_MONTHS),
                         (nagari_streak, "--nagari-streak", MAX_NAGARI)):
        if not 0 <= v <= top:
            raise UserError(f"{name} must be 0 to {top} (got {v})")
    if opponent_gos is None:
        return
    items = opponent_gos.split(",")
    if any(not x.strip().isdigit() or len(x.strip()) > 2 for x in items):
        raise UserError(f"--opponent-gos expects counts like '0,1', got '{opponent_gos}'")
    if any(int(x) > MAX_GOS for x in items):
        raise UserError(f"--opponent-gos: at most {MAX_GOS} gos each, got '{opponent_gos}'")
    if opponents is None:
        raise UserError("--opponent-gos needs --opponents (whose go calls are they?)")
    if len(items) != len(opponent_piles(opponents)):
        raise UserError(f"--opponent-gos gives {len(items)} counts for "
                        f"{len(opponent_piles(opponents))} opponents")


def opponent_piles(text: str) -> list[str]:
    """``--opponents``: the piles of the shared list syntax (analyzer.games.gostop.position.
    per_seat). A text with ',' but neither ':' nor ';' is refused: it was one pile in the old
    form (cards by ',') and would now be one-card piles."""
    from analyzer.errors import UserError
    from analyzer.games.gostop.position import per_seat

    if "," in text and ":" not in text and ";" not in text:
        raise UserError(f"--opponents '{text}': piles are separated by ',' and a pile's cards "
                        f"by ':': one opponent's pile is {text.replace(',', ':')}, two piles "
                        f"are e.g. 01B:03B,11J1:12D (a one-card pile: 01B:,11J1:)")
    return per_seat(text)


SEATS_HELP = ("greedy, random, go:K (go while fewer than K gos), go:K:T (and at least T own "
              "turns left), or " + RULE_POLICY + " when the engine can play it (seat 1 deals).")


@app.command()
def simulate(trials: trials_option("deals", DEFAULT_DEALS) = None,
             players: Annotated[Optional[int], typer.Option(
                 metavar="N", help="2 or 3 active players (overrides the rules).")] = None,
             seats: seats_option(SEATS_HELP + " Default: greedy.", "POLICY,POLICY…") = None,
             vs: LineupVsOpt = None,
             nagari_before: Annotated[int, typer.Option(
                 metavar="N", help="Consecutive nagari deals before each simulated deal "
                                   "(payment x2).")] = 0,
             out_dir: OutOpt = None, chart: ChartOpt = False,
             seed: SeedOpt = None, precision: PrecisionOpt = None, time_limit: TimeLimitOpt = None,
             progress: ProgressOpt = None,
             rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Play whole deals: nagari rate, wins and mean net payment per seat, dealer advantage, how
    often each event happens and the winner's go counts.

    Each deal is independent (void deals are redealt inside it); payments are net chips per seat
    (zero-sum). Dealer advantage = seat 1's net minus the mean of the other seats. --precision
    targets the half-width of seat 1's mean net payment. Each --vs line-up plays the same deals
    (common random numbers); its results are listed under "vs". --out DIR writes the seats and
    events tables (CSV and Markdown); --chart adds the payment distribution (PNG and SVG).

    Examples:

        pushluck gostop simulate -n 200000 --seed 7 --out gostop-deals --chart

        pushluck gostop simulate -n 100000 --players 3 --seats greedy,go:2,random --seed 7

        pushluck gostop simulate -n 100000 --seats greedy --vs go:1,greedy --vs go:2,greedy --seed 7

    A rule of thumb from `gostop advice --out DIR` plays as rule:FILE.json (`gostop advice
    --help` shows the pair of commands).
    """
    from analyzer.errors import UserError
    from analyzer.games.gostop.lineup import parse_seats
    from analyzer.games.gostop.play import simulate as run_deals
    from analyzer.output import emit, note
    from analyzer.runner import RunSpec

    r = _rules(rules_file, set_, players)
    if chart and out_dir is None:
        raise UserError("--chart writes into --out DIR: give --out")
    trials = trials_or_default(trials, precision, DEFAULT_DEALS)
    if nagari_before < 0:
        raise UserError("--nagari-before must be non-negative")
    lineups = [parse_seats(seats or "greedy", r.players)]
    lineups += [parse_seats(v, r.players, "--vs") for v in vs or []]
    spec = run_spec(trials, seed, precision, time_limit, progress, json)
    out = run_deals(r, lineups[0], spec, nagari_before)
    if len(lineups) > 1:
        # the same deals: the same seed and, under --precision, the sample size reached above
        fixed = RunSpec(out["n"], spec.seed, progress=spec.progress)
        out["vs"] = [run_deals(r, pols, fixed, nagari_before) for pols in lineups[1:]]
    if out_dir is not None:
        from analyzer.games.gostop.report import write_simulation

        files = write_simulation(out, out_dir, chart)
        for k, other in enumerate(out.get("vs", []), 1):
            files += write_simulation(other, Path(out_dir) / f"vs{k}", chart)
        if chart:
            out["chart"] = [str(f) for f in files if f.suffix in (".png", ".svg")]
        note("wrote " + ", ".join(str(f) for f in files))
    emit(out, json, lambda: "\n\n".join(
        [render_simulation(out)] + [render_simulation(o) for o in out.get("vs", [])]))


def render_simulation(out: dict) -> str:
    from analyzer.output import table

    lines = [f"Go-Stop, {out['players']} players, policies {', '.join(out['policies'])}, "
             f"n = {out['n']:,} deals, seed {out['seed']}"]
    lines.append(f"  nagari      {out['p_nagari'].format(4)}")
    lines.append(f"  chongtong   {out['p_chongtong'].format(4)}")
    # the policies are the headline's, in seat order: the table keeps to 80 columns
    rows = [[f"{s['seat']}" + (" (dealer)" if s["dealer"] else ""), s["p_win"].format(4),
             s["mean_net_payment"].format(3)] for s in out["seats"]]
    lines.append(table(rows, ["seat", "P(win)", "mean net chips"], "lrr"))
    lines.append(f"  dealer advantage (chips/deal) {out['dealer_advantage'].format(3)}")
    # two tables of the events, each within 80 columns
    lines.append(table([[k, v["per_deal"].format(4)] for k, v in out["events"].items()],
                       ["event", "per deal"], "lr"))
    lines.append(table([[k, v["p_at_least_one"].format(4)] for k, v in out["events"].items()],
                       ["event", "P(at least one in a deal)"], "lr"))
    gos = ", ".join(f"{k}: {v:,}" for k, v in out["winner_go_counts"].items())
    lines.append(f"  winner's go count: {gos}")
    lines.append(f"  {out['deals_per_second']:,.0f} deals/s")
    from analyzer.words import fit

    return "\n".join(fit(lines))


@app.command()
def decide(position: PositionArg = None, example: ExampleOpt = None,
           players: Annotated[Optional[int], typer.Option(
               metavar="N", help="2 or 3 active players.")] = None,
           me: Annotated[Optional[int], typer.Option(
               metavar="SEAT", help="Seat deciding (its turn just ended; seats count from 1, "
                                    "seat 1 dealt).")] = None,
           hand: Annotated[Optional[str], typer.Option(
               metavar="CARDS", help="The decider's hand.")] = None,
           layout: Annotated[Optional[str], typer.Option(
               metavar="CARDS", help="Single cards in the layout.")] = None,
           stacks: Annotated[Optional[str], typer.Option(
               metavar="STACKS",
               help="Triple stacks in the layout: stacks separated by ',', a stack's cards "
                    "by ':'; '@s' = made by seat s on its latest turn, e.g. "
                    "05A:05R:05J1@2,06A:06R:06J1.")] = None,
           piles: Annotated[Optional[str], typer.Option(
               metavar="PILES", help="Capture pile of every seat in seat order: piles "
                                     "separated by ',', a pile's cards by ':', e.g. "
                                     "01B:03B,11J1:12D.")]
           = None,
           go_counts: Annotated[Optional[str], typer.Option(
               metavar="N,N", help="Go calls per seat, e.g. 1,0.")] = None,
           last_go: Annotated[Optional[str], typer.Option(
               metavar="N,N", help="Score at each seat's last go, e.g. 7,0.")] = None,
           shaken: Annotated[Optional[str], typer.Option(
               metavar="MONTHS", help="Shaken months per seat: seats separated by ',', a "
                                      "seat's months by ':', e.g. 5:11, (seat 1 shook 5 and "
                                      "11, seat 2 none).")]
           = None,
           bombs: Annotated[Optional[str], typer.Option(
               metavar="N,N", help="Bombs per seat, e.g. 0,1.")] = None,
           skip_tokens: Annotated[Optional[str], typer.Option(
               metavar="N,N", help="Bomb skip tokens left per seat.")] = None,
           stock: Annotated[Optional[int], typer.Option(
               metavar="N", help="Stock size (checked against the position).")] = None,
           nagari: Annotated[Optional[int], typer.Option(
               metavar="N", help="Consecutive nagari deals before this one.")] = None,
           seats: seats_option(SEATS_HELP + " Default: greedy.", "POLICY,POLICY…") = None,
           policy: Annotated[Optional[str], typer.Option(
               metavar="POLICY",
               help="The decider's own policy after going, in place of its --seats entry "
                    "(greedy stops at the next chance; go:K, go:K:T, random).")] = None,
           trials: DecideTrialsOpt = None,
           seed: SeedOpt = None, precision: PrecisionOpt = None, time_limit: TimeLimitOpt = None,
           progress: ProgressOpt = None,
           rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False,
           _position: renamed("--position", "the position file is an argument: "
                                            "gostop decide FILE") = None,
           _opponents: renamed("--opponents-policy", "the line-up is --seats (one policy for "
                                                     "every seat or one per seat), --policy the "
                                                     "decider's") = None):
    """Go or stop? Expected net chips to the decider of each choice from a known position.

    Stopping pays a known amount now. Going is played out many times: the unseen cards (the
    opponents' hands and the stock) are dealt at random consistently with the position, then
    everyone follows the --seats line-up (the decider --policy, when given). The difference
    go - stop comes with its 95% interval; when the interval contains 0 the answer is "too close
    to call". --precision X samples until the half-width of the difference is at most X chips.
    The position is a file (POSITION.toml, keys as the flags below, in a 'position' table or at
    top level; `gostop position --template` prints one), a shipped --example, or the flags
    alone; flags override the file's keys. Seats count from 1.

    Examples:

        pushluck gostop decide --example basic --seed 1

        pushluck gostop decide --example basic --precision 0.1

        pushluck gostop decide --example basic --policy go:1 --seed 1

        pushluck gostop position --template > my_position.toml

        pushluck gostop decide my_position.toml --seats go:2,greedy --seed 1
    """
    from analyzer.errors import UserError
    from analyzer.games.gostop.lineup import parse_policy, parse_seats
    from analyzer.games.gostop.position import check_position
    from analyzer.output import emit
    from analyzer.rules import load_toml

    pos: dict = {}
    if position is not None or example is not None:
        from analyzer.examples import position_file

        path = position_file("gostop", position, example)
        data = load_toml(path)
        pos = data
        if "position" in data:
            stray = sorted(set(data) - {"position"})
            if stray:
                raise UserError(f"{path}: key(s) {', '.join(stray)} outside the [position] "
                                "table (put every key inside it)")
            if not isinstance(data["position"], dict):
                raise UserError(f"{path}: 'position' must be a table ([position])")
            pos = data["position"]
        pos = dict(pos)
    flags = {"players": players, "me": me, "hand": hand, "layout": layout, "stacks": stacks,
             "piles": piles, "go_counts": go_counts, "last_go": last_go, "shaken": shaken,
             "bombs": bombs, "skip_tokens": skip_tokens, "stock": stock, "nagari": nagari}
    pos.update({k: v for k, v in flags.items() if v is not None})
    if "piles" not in pos:
        raise UserError("give a position file (POSITION.toml; `gostop position --template` "
                        "prints one), --example NAME, or the capture piles (--piles 01B:03B,11J1)")
    np_ = pos.pop("players", None)
    r = _rules(rules_file, set_, np_)  # typed there: a string or a list is refused
    lineup = parse_seats(seats or "greedy", r.players)
    checked = check_position(pos, r)
    mp = parse_policy(policy) if policy is not None else lineup[checked.me]
    # the position is good: only now the playouts' modules (NumPy, the kernels)
    from analyzer.games.gostop.decide import decide as run_playouts

    spec = run_spec(trials_or_default(trials, precision, DECIDE_PLAYOUTS), seed, precision,
                    time_limit, progress, json)
    out = run_playouts(checked, r, mp, lineup, spec)
    if "difference_go_minus_stop" in out:  # the margin as a statistic object, not a bare number
        from analyzer.stats import magnitude

        out["margin"] = magnitude(out["difference_go_minus_stop"])

    def render():
        p = out["position"]
        head = (f"Go-Stop decision for seat {p['me']} at score {p['score']} "
                f"(stop minimum {r.stop_target}), stock {p['stock']}, seed {spec.seed}")
        if out.get("forced"):
            return f"{head}\n  no turn left: must STOP and collect {out['stop_payment']}"
        aw = out["after_go"]
        from analyzer.words import fit

        return "\n".join(fit([
            head,
            f"  stop now : {out['stop_payment']:+d} chips (exact)",
            f"  go       : {out['go_payment'].format(3)}   (n = {out['n']:,} playouts; "
            f"policies me {out['policies']['me']}, opponents {out['policies']['opponents']})",
            f"  go - stop: {out['difference_go_minus_stop'].format(3)}",
            f"  after go : P(win) {aw['p_win'].estimate:.3f}, P(nagari) "
            f"{aw['p_nagari'].estimate:.3f}, P(opponent wins) {aw['p_opponent_wins'].estimate:.3f}",
            f"  → {go_verdict(out)}",
        ]))

    emit(out, json, render)



def go_verdict(out: dict) -> str:
    """The answer in chips with its 95% interval: "go: +0.83 chips [+0.12, +1.54]", or "too
    close to call at n = … playouts: stop leads by …" (analyzer.words.sampled_verdict)."""
    from analyzer.stats import magnitude
    from analyzer.words import sampled_verdict

    d = out["difference_go_minus_stop"]
    return sampled_verdict("go" if d.estimate > 0 else "stop", magnitude(d), "chips",
                           out["n"])


@app.command()
def advice(seed: SeedOpt = None,
           precision: race_precision_option("points per deal") = 0.02,
           indifference: race_indifference_option("points per deal") = None,
           rounds: race_rounds_option("32 blocks of 64 deals per surviving rule") = 48,
           max_loss: MaxLossOpt = None,
           record_games: record_games_option("deals") = 20_000, out: OutOpt = None,
           rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """When to say go: rules of thumb raced by Monte Carlo against greedy opponents.

    The rules (436 with the default rules) are every distinct rule of the issue's families over
    five counts a player sees at the go/stop check (gos said, turns left, own score, the best
    opponent score, the most opponent gos): always go or stop; one threshold on one count; a
    threshold on gos, turns left or the opponents' score in two bands of a second count; lists
    of up to three conditions. The engine plays each as a go rule table. Each is played on the
    same deals (common random numbers), in both seats, and its loss against the best member
    (net points per deal) is raced: a rule is dropped once its loss interval lies wholly above a
    simpler rule's. Opens with one sentence to remember; prints the best rule found (the best by
    sample mean, not shown best), the rules not separated from it, and the deals spent against
    the uniform grid that gives the same guarantee. Each rule on the front then plays fresh
    deals (--record-games) that record its go/stop checks: where it decides otherwise than the
    best rule, most often first, in wrong decisions per deal with 95% intervals.

    Examples:

      pushluck gostop advice --seed 5

      pushluck gostop advice --seed 5 --json

    --out DIR writes each front rule as DIR/rule_cx<N>.json, to play it back:

      pushluck gostop advice --seed 5 --out gostop-rules

      pushluck gostop simulate -n 100000 --seats rule:gostop-rules/rule_cx2.json,greedy --seed 7
    """
    from analyzer.advice import rule_row
    from analyzer.advice.cli import advice_text, front_payload, plain_fields, write_rules
    from analyzer.games.gostop.advice import DECISION, advise as search
    from analyzer.options import seed_note
    from analyzer.output import emit
    from analyzer.rng import resolve_seed
    from analyzer.rules import rules_to_dict

    r = _rules(rules_file, set_)
    s, drawn = resolve_seed(seed)
    seed_note(s, drawn, json)
    res = search(r, s, rounds, precision, indifference=indifference, record_games=record_games)
    feats = res["features"]
    everyone = [rule_row(x, feats, DECISION) for x in sorted(res["all"], key=lambda x: x.loss)]
    payload = {"game": "gostop", "rules": rules_to_dict(r), "exact": False, "seed": s,
               "unit": "net points per deal (studied seat, both seats, greedy opponents)",
               "reference": res["reference"], "reference_rule": res["reference_rule"],
               "all": everyone, "race": res["race"],
               "seconds": res["seconds"]}
    rows = front_payload(payload, res["front"], feats, DECISION, max_loss)
    plain_fields(payload, rows, "points a deal", exact=False, digits=3)
    write_rules(out, payload)

    def render():
        return advice_text(payload, rows, title=f"Go-Stop ({r.players} players): when to say go, "
                                                f"raced against greedy opponents in both seats "
                                                f"(Monte Carlo, seed {s}); surviving rules only",
                           unit="points a deal", exact=False, digits=3,
                           footer=f"{res['seconds']:.1f} s")

    emit(payload, json, render)


app.command("position")(position_command("gostop"))
