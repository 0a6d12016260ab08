"""`pushluck ten …`: card-counting odds, the exact stop/draw policy, thresholds and scoring.

What belongs here: the Typer sub-app only (parse options, call ``rules``/``exact``/``play``/
``score``/``report``, print); no game logic.
"""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from analyzer.advice.cli import BandsOpt, ClausesOpt, MaxLossOpt
from analyzer.options import (RULE_POLICY, ChartOpt, JsonOpt, OutOpt, PrecisionOpt, ProgressOpt,
                              RulesOpt, SeedOpt, SetOpt, TimeLimitOpt, VsOpt, policy,
                              position_command, run_spec, trials, trials_or_default)

app = typer.Typer(no_args_is_help=True, help="""Ten: draw cards until you stop or bust.

Number cards add to N, currency cards to C; a number draw busts when T = N − C ≥ 11, a currency
draw when C ≥ 11. Stopping takes either the number cards (opponents gain C tokens) or C tokens.
Cards: r5 b9 g1 o7 (colour + value), $3 (currency), r# (colour wild), *5 (number wild), ** (full
wild); comma-separated lists. The currency split and the player-count marks are assumptions read
from a deck file (see `pushluck ten deck`; replace with --deck FILE). Whole games with auctions,
rewards and buys: `ten game` (bots) and `ten decide POSITION.toml` (chance of winning;
`ten position --template` prints a position to fill in). Seats are numbered from 1.""")

POLICIES = ("optimal (exact table), total:t (stop once T ≥ t) or cards:m (stop once the tableau "
            "holds m cards)")
DeckOpt = Annotated[Optional[str], typer.Option(
    "--deck", metavar="FILE.toml",
    help="Deck composition TOML (default: the bundled assumptions, analyzer/data/ten_deck.toml).")]
TableauOpt = Annotated[Optional[str], typer.Option(
    "--tableau", metavar="CARDS",
    help="Cards face up in the current turn's tableau, e.g. r5,$2 (default none: the start of a "
         "turn).")]
SeenOpt = Annotated[Optional[str], typer.Option(
    "--seen", metavar="CARDS",
    help="Every other card no longer in the draw pile (earlier turns, market, collections, "
         "discards, wilds drawn this turn), e.g. r9,b#,$5.")]
PlayersOpt = Annotated[int, typer.Option(
    "--players", metavar="N",
    help="Players at the table (1..5): sets the deck and how many opponents gain tokens.")]
ValueOpt = Annotated[Optional[str], typer.Option(
    "--value", metavar="KEY=NUM,...",
    help="Value model: card=1,token=0.25,bust=3,opp=0 (any subset). card: per number card taken; "
         "token: per currency token gained; bust: a bust token in tokens; opp: cost per token "
         "each opponent gains.")]
TokensOpt = Annotated[int, typer.Option(
    "--tokens-held", metavar="N",
    help="Currency tokens you hold now (the cap limits what you can gain).")]

def _setup(rules_file, sets, deck):
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.rules import build_rules

    return build_rules(TenRules, rules_file, sets), load_deck(deck)


def _model(rules_file, sets, deck, tableau, seen, players, value, tokens_held):
    from analyzer.games.ten.exact import Model
    from analyzer.games.ten.rules import parse_value_model, turn_state

    r, spec = _setup(rules_file, sets, deck)
    st = turn_state(r, spec, tableau, seen, players)
    return Model(st, r, parse_value_model(value), players, tokens_held), spec


@app.command()
def rules(json: JsonOpt = False):
    """List the house-rule keys of Ten with their defaults (use with --rules/--set).

    Examples:

      pushluck ten rules

      pushluck ten rules --json
    """
    from analyzer.games.ten.rules import TenRules
    from analyzer.options import show_rules

    show_rules(TenRules, json, game="ten")


@app.command()
def deck(deck: DeckOpt = None, players: PlayersOpt = 4, rules_file: RulesOpt = None,
         set_: SetOpt = None, json: JsonOpt = False):
    """Show the deck composition in use and which numbers in it are assumptions.

    Examples:

      pushluck ten deck

      pushluck ten deck --players 2 --json

      pushluck ten deck --set number_wilds=10
    """
    from analyzer.games.ten.rules import deck_counts
    from analyzer.output import emit

    r, spec = _setup(rules_file, set_, deck)
    counts = deck_counts(r, spec, players)
    kinds = {"number": 0, "currency": 0, "wild": 0}
    for code, k in counts.items():
        kinds["currency" if code[0] == "$" else "wild" if ("#" in code or code[0] == "*")
              else "number"] += k
    payload = {"game": "ten", "exact": True, "deck_file": spec.source, "players": players,
               "total": sum(counts.values()), **kinds,
               "number_copies_per_colour": list(spec.copies),
               "currency_counts": list(spec.currency),
               "assumptions": ["currency_counts [U]", "marked_4plus/marked_3 [U]",
                               "tenth_number_wild_value [U]"],
               "marked_4plus": list(spec.marked_4plus), "marked_3": list(spec.marked_3),
               "cards": dict(sorted(counts.items()))}
    def render() -> str:
        from analyzer.words import fit

        return "\n".join(fit([
            f"Ten deck for {players} players: {payload['total']} cards ({spec.source})",
            f"  number cards {kinds['number']}: per colour, values 1–9 × "
            f"{'/'.join(map(str, spec.copies))}  [V]",
            f"  wilds {kinds['wild']}: {r.colour_wilds} per colour, {r.number_wilds} number, "
            f"{r.full_wilds} full",
            f"  currency {kinds['currency']}: values 1–5 × {'/'.join(map(str, spec.currency))}"
            f"  [U] assumption",
            f"  removed for ≤3 players: {', '.join(spec.marked_4plus) or 'none'}; "
            f"for ≤2 players also: {', '.join(spec.marked_3) or 'none'}  [U] assumption"],
            keep_words=True))

    emit(payload, json, render)


@app.command()
def odds(tableau: TableauOpt = None, seen: SeenOpt = None, players: PlayersOpt = 4,
         deck: DeckOpt = None, rules_file: RulesOpt = None, set_: SetOpt = None,
         json: JsonOpt = False):
    """Exact probabilities for the next card by card counting.

    The draw pile is the deck minus the tableau and the seen cards. The next card is a number
    bust (N + v − C ≥ bust_at), a currency bust (C + u ≥ currency_bust_at), a wild (which only
    triggers an auction) or safe; each probability is matching cards left / cards left.

    Examples:

      pushluck ten odds --tableau r5

      pushluck ten odds --tableau 'r9,$5,$5' --seen 'b7,b#' --json
    """
    from analyzer.games.ten.exact import odds as ten_odds
    from analyzer.games.ten.rules import turn_state
    from analyzer.output import emit

    r, spec = _setup(rules_file, set_, deck)
    st = turn_state(r, spec, tableau, seen, players)
    o = ten_odds(st, r)
    c = o["counts"]
    from analyzer.words import percent as pc

    emit({"game": "ten", **o}, json, lambda: (
        f"Ten next card (exact): N = {o['N']}, C = {o['C']}, T = {o['T']}, "
        f"{o['cards_left']} cards left\n"
        f"  P(bust)          = {pc(o['p_bust'])}\n"
        f"    number bust    = {pc(o['p_number_bust'])}  ({c['number_bust']} cards)\n"
        f"    currency bust  = {pc(o['p_currency_bust'])}  ({c['currency_bust']} cards)\n"
        f"  P(wild)          = {pc(o['p_wild'])}  ({c['wild']} cards)\n"
        f"  P(safe)          = {pc(o['p_safe'])}  ({c['safe']} cards)"))


@app.command()
def best(tableau: TableauOpt = None, seen: SeenOpt = None, players: PlayersOpt = 4,
         tokens_held: TokensOpt = 0, value: ValueOpt = None, deck: DeckOpt = None,
         rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Draw or stop? The exact optimal decision by expectimax over the remaining pile.

    Value model (--value): each number card taken is worth card=1; each currency token gained
    token=0.25 (an average number card costs about 4 tokens), at most token_cap − --tokens-held;
    a bust token is worth bust=3 tokens; each token an opponent gains costs you opp=0. A wild
    drawn is worth 0 to this decision (its auction is outside the turn model). Every state
    reachable from the given one is solved exactly (memoised by the counts of each card type
    drawn; colours never matter for the decision). An empty tableau means the start of a turn,
    when drawing is mandatory.

    Examples:

      pushluck ten best --tableau r5,r3

      pushluck ten best --tableau 'r6,$3' --seen r9,b9,g9,o9 --tokens-held 8 --value opp=0.05

      pushluck ten best --tableau r5,r3 --json
    """
    from analyzer.games.ten.best import best as ten_best
    from analyzer.output import emit

    from analyzer.words import choice_words, decimals_to_show, percent, verdict

    model, _spec = _model(rules_file, set_, deck, tableau, seen, players, value, tokens_held)
    b = ten_best(model)
    choice = choice_words(b["recommendation"])
    b["verdict"] = (f"{choice} ({b['note']})" if b["margin"] is None else
                    "draw or stop: both are worth the same" if b["recommendation"] == "either"
                    else verdict(choice, b["margin"], "card-equivalents (value model)"))

    def render():
        d = decimals_to_show(b["margin"], least=3)
        lines = [f"Ten, best play (exact): N = {b['N']}, C = {b['C']}, T = {b['T']}, "
                 f"{b['cards_left']} cards left, {b['states']:,} states",
                 f"  P(next card busts)   = {percent(b['p_bust_next'])}",
                 "  value in card-equivalents (value model):"]
        if b["ev_stop"] is not None:
            lines.append(f"  stop, take numbers   = {b['ev_stop_numbers']:.{d}f}")
            lines.append(f"  stop, take currency  = {b['ev_stop_currency']:.{d}f}")
        lines.append(f"  draw, then optimally = {b['ev_draw']:.{d}f}")
        lines.append(f"  → {b['verdict']}")
        return "\n".join(lines)

    emit(b, json, render)


@app.command()
def simulate(policy_: policy("The policy under study: " + POLICIES + ", or " + RULE_POLICY +
                             ".") = "optimal",
             vs: VsOpt = None,
             n: trials("turns", 1_000_000) = None,
             tableau: TableauOpt = None, seen: SeenOpt = None, players: PlayersOpt = 4,
             tokens_held: TokensOpt = 0, value: ValueOpt = None, deck: DeckOpt = None,
             seed: SeedOpt = None, precision: PrecisionOpt = None,
             time_limit: TimeLimitOpt = None, progress: ProgressOpt = None,
             rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Play one turn many times over shuffled piles under a policy.

    Reports the bust rate (by kind), the number cards and tokens taken and the value under the
    model (see `ten best --help`), each with SE and 95% interval, next to the policy's exact value.
    Threshold policies take the better reward when they stop; a wild is not a card for cards:m.
    With --vs, every policy sees the same shuffles and each value difference is paired;
    turns_per_second then counts the turns of all policies.

    Examples:

      pushluck ten simulate --policy total:7 --vs optimal -n 1000000 --seed 7

      pushluck ten simulate --policy cards:3 --seen r9,b9,g9,o9,r8,b8 -n 200000 --seed 7

      pushluck ten simulate --policy optimal --vs total:6 --vs cards:3 --precision 0.002 --json

    A rule from `ten advice --out DIR` plays back as rule:FILE.json (beside threshold policies,
    not beside optimal: one run plays one decision table):

      pushluck ten advice --out ten-rules

      pushluck ten simulate --policy rule:ten-rules/rule_cx2.json --vs total:7 -n 200000 --seed 7
    """
    from analyzer.errors import UserError
    from analyzer.games.ten.exact import parse_policy
    from analyzer.games.ten.play import simulate as ten_sim
    from analyzer.output import emit

    n = trials_or_default(n, precision, 1_000_000)
    model, _spec = _model(rules_file, set_, deck, tableau, seen, players, value, tokens_held)
    if model.state.cards_left == 0:
        raise UserError("the draw pile is empty: there is nothing to simulate")
    pa = parse_policy(policy_ or "optimal")
    others = [parse_policy(v) for v in vs or []]
    spec = run_spec(n, seed, precision, time_limit, progress, json)
    out = ten_sim(model, pa, others, spec)

    def block(d):
        v = d["mean_value"]
        return (f"  {d['policy']}:\n"
                f"    P(bust)          = {d['p_bust'].format(4)}\n"
                f"      number bust    = {d['p_number_bust'].format(4)}\n"
                f"      currency bust  = {d['p_currency_bust'].format(4)}\n"
                f"    number cards     = {d['mean_number_cards'].format(4)}\n"
                f"    tokens           = {d['mean_tokens'].format(4)}\n"
                f"    value            = {v.format(4)}"
                + ("" if v.exact_value is None else f"   (exact {v.exact_value:.6f})") + "\n")

    def render():
        text = (f"Ten, one turn, n = {out['n']:,} turns, seed {spec.seed}, "
                f"{out['cards_left']} cards in the pile\n" + block(out["a"]))
        letters = "abcdefghij"[1:len(others) + 1]
        for letter in letters:
            text += block(out[letter])
        for letter in letters:
            d = out[f"difference_a_minus_{letter}"]
            v = out["verdicts"][letter] if len(letters) > 1 else out["verdict"]
            name = letter.upper()
            text += (f"  value A − {name} = {d.format(4)}"
                     + ("" if d.exact_value is None else f"  (exact {d.exact_value:.6f})")
                     + f"\n  → {v}\n")
        return text + f"  turns per second = {out['turns_per_second']:,.0f}"

    emit(out, json, render)


@app.command()
def thresholds(by: Annotated[str, typer.Option(
                   metavar="total|cards",
                   help="total: stop once T ≥ t; cards: stop once the tableau holds m cards.")]
               = "total",
               n: trials("turns per policy", 200_000, precision=False) = 200_000,
               out: OutOpt = None, chart: ChartOpt = False,
               seen: SeenOpt = None, players: PlayersOpt = 4, tokens_held: TokensOpt = 0,
               value: ValueOpt = None, deck: DeckOpt = None, seed: SeedOpt = None,
               progress: ProgressOpt = None, rules_file: RulesOpt = None, set_: SetOpt = None,
               json: JsonOpt = False):
    """Rules of thumb: "stop once T ≥ t" (or "after m cards") for t = 1..10 vs optimal play.

    Every policy plays the same shuffled turns (common random numbers). For each: bust rate by
    kind, mean number cards, mean tokens and mean value with SE and 95% interval, each policy's
    exact value, and the paired value gap to the exact optimal policy. With --out DIR, writes
    ten_thresholds_<by>.csv/.md there (and .png/.svg with --chart); without it, nothing is written.

    Examples:

      pushluck ten thresholds --by total -n 200000 --seed 1

      pushluck ten thresholds --by cards -n 200000 --seed 1 --out results --chart

      pushluck ten thresholds --seen r9,b9,g9,o9 --json
    """
    from pathlib import Path

    from analyzer.errors import UserError
    from analyzer.games.ten.play import thresholds as ten_thr
    from analyzer.output import emit, note, table

    if by not in ("total", "cards"):
        raise UserError(f"--by must be total or cards (got '{by}')")
    if chart and out is None:
        raise UserError("--chart writes into --out: give --out DIR")
    model, _spec = _model(rules_file, set_, deck, None, seen, players, value, tokens_held)
    spec = run_spec(n, seed, progress=progress, as_json=json)
    res = ten_thr(model, by, spec)
    files = []
    if out is not None:
        from analyzer.games.ten.report import threshold_chart, threshold_frame
        from analyzer.tables import write_table

        base = Path(out) / f"ten_thresholds_{by}"
        files = [str(p) for p in write_table(threshold_frame(res), base)]
        if chart:
            files += [str(p) for p in threshold_chart(res, base)]
        note("wrote " + ", ".join(files))
    res["files"] = files

    def render():
        rows = []
        for r in res["rows"]:
            v = r["mean_value"]
            gap = r.get("optimal_minus_this")
            rows.append([r["policy"], f"{r['p_bust'].estimate:.4f}",
                         f"{r['mean_number_cards'].estimate:.3f}",
                         f"{r['mean_tokens'].estimate:.3f}",
                         f"{v.estimate:.4f} ± {v.se:.4f}", f"{v.exact_value:.4f}",
                         "" if gap is None else f"{gap.estimate:.4f} ± {gap.se:.4f}"])
        from analyzer.words import fit

        head = fit([f"Ten thresholds by {by}: n = {res['n']:,} turns per policy (paired), "
                    f"seed {spec.seed}, {res['cards_left']} cards in the pile",
                    "  (P(bust) as number and currency busts apart: --json, or the table "
                    "--out writes)"])
        return "\n".join(head) + "\n" + table(rows, ["policy", "P(bust)", "cards", "tokens",
                                                     "value ± SE", "exact",
                                                     "optimal − this ± SE"])

    emit(res, json, render)


@app.command()
def score(collection: Annotated[str, typer.Option(
              "--collection", metavar="CARDS",
              help="Your cards at the end, e.g. r1,r2,r3,b#,*5,**.")],
          deck: DeckOpt = None, rules_file: RulesOpt = None, set_: SetOpt = None,
          json: JsonOpt = False):
    """End-of-game score: each colour's longest run, wilds assigned to maximise the total.

    1 point per card of a colour's single longest run of consecutive values, 10 for a complete
    1–9 run (an assumption: --set full_run_points=N changes it). Each wild fills one slot (colour wild: its colour; number wild: its value; full
    wild: anything); the best assignment is found exactly and shown.

    Examples:

      pushluck ten score --collection 'r1,r2,r4,r5,r7,r8,*3,*6,**,r#,b2,b3'

      pushluck ten score --collection b1,b2,b3,b5,b7,b# --json
    """
    from analyzer.games.ten.rules import deck_counts, parse_cards
    from analyzer.games.ten.score import check_copies, score_collection
    from analyzer.output import emit

    r, spec = _setup(rules_file, set_, deck)
    cards = parse_cards(collection, "--collection list")
    check_copies(cards, deck_counts(r, spec, 5), "--collection")
    res = {"game": "ten", **score_collection(cards, r.full_run_points), "exact": True}

    def render():
        lines = [f"Ten score (exact): {res['score']} points from {res['cards']} cards"]
        for c in res["colours"]:
            if c["points"] == 0:
                lines.append(f"  {c['colour']:<7} no run")
                continue
            a, b = c["run"]
            w = ", ".join(f"{x['wild']} as {x['value']}" for x in c["wilds"])
            lines.append(f"  {c['colour']:<7} run {a}–{b} ({c['length']} cards) = "
                         f"{c['points']:>2} points" + (f"   wilds: {w}" if w else ""))
        if res["unused_wilds"]:
            lines.append("  unused wilds: " + ", ".join(res["unused_wilds"]))
        return "\n".join(lines)

    emit(res, json, render)



@app.command()
def advice(tableau: TableauOpt = None, seen: SeenOpt = None, players: PlayersOpt = 4,
           tokens_held: TokensOpt = 0, value: ValueOpt = None, deck: DeckOpt = None,
           max_loss: MaxLossOpt = None, bands: BandsOpt = 3, clauses: ClausesOpt = 3,
           out: OutOpt = None, rules_file: RulesOpt = None, set_: SetOpt = None,
           json: JsonOpt = False):
    """Rules of thumb for drawing on or stopping in a turn, with their exact cost.

    Searches thresholds, banded thresholds and decision lists of up to 3 conditions over
    T = N − C, the currency total C, the cards in the tableau and the next card's bust chance;
    each rule is evaluated exactly over every state the solver enumerates (wilds left out, as in
    the solver). Loss = optimal turn value − the rule's (value-model units).

    Examples:

      pushluck ten advice

      pushluck ten advice --players 3 --max-loss 0.03 --json

    --out DIR writes each front rule as DIR/rule_cx<N>.json, to play it back:

      pushluck ten advice --out ten-rules

      pushluck ten simulate --policy rule:ten-rules/rule_cx2.json --vs total:7 -n 200000 --seed 7
    """
    from analyzer.advice.cli import emit_exact, front_payload
    from analyzer.games.ten.advice import DECISION, advise as search
    from analyzer.rules import rules_to_dict

    model, _spec = _model(rules_file, set_, deck, tableau, seen, players, value, tokens_held)
    res = search(model, bands, clauses)
    payload = {"game": "ten", "rules": rules_to_dict(model.rules), "exact": True,
               "players": players, "unit": "value-model units (number cards) per turn",
               "v_optimal": res["v_optimal"], "states": res["states"],
               "candidates_evaluated": res["evaluations"], "seconds": res["seconds"]}
    rows = front_payload(payload, res["front"], res["features"], DECISION, max_loss)

    def where(m):
        worst = m["by_T"][0] if m["by_T"] else None
        return "" if worst is None else (
            f"; most often at T = {worst['T']} ({worst['wrong_per_turn']:.3f} per turn, "
            f"where it {'draws' if worst['rule_draws'] else 'stops'})")

    emit_exact(payload, rows, res, title=f"Ten turn ({players} players): perfect play is worth "
                                         f"{res['v_optimal']:.4f} card-equivalents (exact, "
                                         f"{res['states']:,} states)",
               unit="card-equivalents a turn (value model)", where=where, out=out, json=json)


def _register_whole_games() -> None:
    from analyzer.games.ten.cli_advice import register as register_advice
    from analyzer.games.ten.cli_calibrate import register as register_calibrate
    from analyzer.games.ten.cli_ladder import register as register_ladder
    from analyzer.games.ten.cli_whole import register

    register(app)
    register_advice(app)
    register_calibrate(app)
    register_ladder(app)


_register_whole_games()
app.command("position")(position_command("ten"))
