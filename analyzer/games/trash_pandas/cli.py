"""`pushluck trash-pandas …`: bust odds, stop-or-continue, the optimal policy, turns, scoring.

What belongs here: the Typer sub-app only. Each command parses its options, calls :mod:`.exact`,
:mod:`.play` or :mod:`.score`, and prints (a table, or one JSON object with --json). Heavy
imports stay inside the commands so a query imports neither pandas nor matplotlib.
"""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from analyzer.advice.cli import BandsOpt, ClausesOpt, MaxLossOpt
from analyzer.games.trash_pandas.cli_ladder import register as _register_ladder
from analyzer.games.trash_pandas.cli_whole import _whole_rules, register as _register_whole
from analyzer.options import (JsonOpt, OutOpt, PrecisionOpt, ProgressOpt, RulesOpt, SeedOpt,
                              SetOpt, TimeLimitOpt, policy as policy_opt, position_command,
                              run_spec, trials, trials_or_default)

VALUE_HELP = """Value model, in card-equivalents: trash = 2·draw, trees = 2·stash,
trash-tree = max(draw, stash), paw = steal, mask = mask, recycle = the best token not held this
turn (0 with all six); a bust is worth `bust` (the consolation draw); spending Blammo!, Nanners or
MMM Pie! costs `card`; MMM Pie! adds the value of the token it doubles. Collecting all six
resolves them and plays the bonus turn (cap 3) optimally with the cards left.
Set weights with --value draw=1,stash=1,steal=1,mask=1,card=1,bust=1 (all default 1)."""
VALUE_HELP = " ".join(VALUE_HELP.split())  # one paragraph: the help reflows it to the terminal

app = typer.Typer(no_args_is_help=True, help=f"""Trash Pandas: should I roll again?

Exact stop-or-continue values for a turn (held tokens × Blammo!/Nanners/MMM Pie! in hand × bonus
turn), Monte Carlo checks of them, and end-of-game scoring. Tokens: trash, trees, trash-tree, paw,
mask, recycle. Whole games between bots playing every card (`game`) and "should I roll?" from a
real position in chance of winning (`decide POSITION.toml`; `position --template` prints one to
fill in). Seats are numbered from 1.

Examples:

  pushluck trash-pandas odds --held trash,paw --blammo 1

  pushluck trash-pandas game --players 3 -n 20000 --seed 1

  pushluck trash-pandas decide --example basic --seed 1

{VALUE_HELP}""")

HeldOpt = Annotated[Optional[str], typer.Option(
    "--held", metavar="TOKENS", help="Tokens held this turn, comma-separated (e.g. trash,paw); 'none' for none.")]
BlammoOpt = Annotated[int, typer.Option("--blammo", metavar="N", help="Blammo! cards in hand.")]
NannersOpt = Annotated[int, typer.Option("--nanners", metavar="N", help="Nanners cards in hand.")]
PieOpt = Annotated[int, typer.Option("--pie", metavar="N", help="MMM Pie! cards in hand.")]
ValueOpt = Annotated[Optional[str], typer.Option(
    "--value", metavar="KEY=W,...", help="Value weights draw=,stash=,steal=,mask=,card=,bust= (default all 1).")]
BonusOpt = Annotated[bool, typer.Option("--bonus", help="The turn is a bonus turn (cap 3).")]
_TURN_POLICIES = ("optimal (the exact solver's decisions), stop-at:K (roll until K tokens; "
                  "Blammo! then Nanners on a bust), or rule:FILE.json (a rule of thumb written "
                  "by `advice --out DIR`).")

DEFAULT_TRIALS = 1_000_000
TrialsOpt = trials("turns", DEFAULT_TRIALS)


def _rules(rules_file, sets):
    """The rules of a turn-level command: the deck is not used there, and says so."""
    r = _whole_rules(rules_file, sets)
    if r.deck:
        from analyzer.errors import UserError

        raise UserError(f"rule 'deck' = '{r.deck}' is not used by the turn commands (odds, "
                        "policy, simulate): pass a deck to `trash-pandas score --deck FILE`")
    if r.consolation == "optional":
        from analyzer.output import note

        # A draw is never worth less than nothing in the value model (bust >= 0 is enforced),
        # so declining the consolation draw never changes a turn-level value or decision.
        note("note: consolation = optional has no effect at the turn level (a consolation draw "
             "is never worth less than nothing here); it matters only in the whole game")
    return r


def _cards(blammo: int, nanners: int, pie: int) -> tuple[int, int, int]:
    from analyzer.errors import UserError

    for name, v in (("--blammo", blammo), ("--nanners", nanners), ("--pie", pie)):
        if v < 0:
            raise UserError(f"{name} must be non-negative (got {v})")
        if v > 7:
            raise UserError(f"{name} {v}: the deck has at most 7 of each card")
    return blammo, nanners, pie


@app.command()
def rules(json: JsonOpt = False):
    """List the house-rule keys of Trash Pandas with their defaults.

    Examples:

      pushluck trash-pandas rules

      pushluck trash-pandas rules --json
    """
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.options import show_rules

    show_rules(TrashPandasRules, json, game="trash-pandas")


@app.command(epilog=VALUE_HELP)
def odds(held: HeldOpt = None, blammo: BlammoOpt = 0, nanners: NannersOpt = 0, pie: PieOpt = 0,
         bonus: BonusOpt = False, value: ValueOpt = None, rules_file: RulesOpt = None,
         set_: SetOpt = None, json: JsonOpt = False):
    """Bust odds of the next roll and the exact value of stopping now versus rolling on.

    p_bust_next is k/6 with k tokens held; p_bust_next_after_cards is the chance the next roll
    still ends the turn in a bust when every Blammo! is spent on repeats and a Nanners cancels one:
    (k/6)^(B+1) without Nanners, 0 with one. ev_roll assumes optimal play afterwards.

    Examples:

      pushluck trash-pandas odds --held trash,paw --blammo 1

      pushluck trash-pandas odds --held trash,trees,mask --bonus --json
    """
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.rules import parse_held, parse_values
    from analyzer.output import emit

    b, n, p = _cards(blammo, nanners, pie)
    solver = TurnSolver(parse_values(value), _rules(rules_file, set_))
    mask = parse_held(held)
    q = {"game": "trash-pandas", **solver.query(mask, b, n, p, bonus)}
    from analyzer.words import decimals_to_show, fit, percent, verdict

    q["verdict"] = ("roll or stop: both are worth the same" if q["recommendation"] == "either"
                    else verdict(q["recommendation"], q["margin"], "card-equivalents") +
                    (" (the turn is at its cap)" if q["margin"] is None else ""))

    def render():
        held_text = ", ".join(q["held"]) or "nothing"
        d = decimals_to_show(q["margin"], least=3)
        roll = "— (the turn is at its cap)" if q["ev_roll"] is None else f"{q['ev_roll']:.{d}f}"
        lines = [f"Trash Pandas {'bonus turn' if bonus else 'turn'} (exact): holding "
                 f"{held_text}", f"  in hand: Blammo! {b}, Nanners {n}, MMM Pie! {p}",
                 f"  P(next roll repeats a held face)      = {percent(q['p_bust_next'])}",
                 f"  P(next roll busts after using cards)  = "
                 f"{percent(q['p_bust_next_after_cards'])}",
                 f"  value if you stop now                 = {q['ev_stop']:.{d}f}",
                 f"  value if you roll (then play optimally) = {roll}",
                 f"  → {q['verdict']}"]
        return "\n".join(fit(lines))

    emit(q, json, render)


@app.command(epilog=VALUE_HELP)
def policy(blammo: BlammoOpt = 0, nanners: NannersOpt = 0, pie: PieOpt = 0,
           value: ValueOpt = None, out: OutOpt = None,
           rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """The whole optimal policy: for every held set, stop or roll, with both values (exact).

    With --out DIR the table is also written to DIR/policy.csv.

    Examples:

      pushluck trash-pandas policy

      pushluck trash-pandas policy --blammo 1 --nanners 1 --out tp-policy
    """
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.rules import parse_values
    from analyzer.output import emit, table

    b, n, p = _cards(blammo, nanners, pie)
    solver = TurnSolver(parse_values(value), _rules(rules_file, set_))
    rows = solver.policy_rows(b, n, p)
    if out:
        _write_policy_csv(out, rows)
    payload = {"game": "trash-pandas", "blammo": b, "nanners": n, "pie": p,
               "turn_value": solver.turn_value(b, n, p), "policy": rows, "exact": True}

    def render():
        from analyzer.words import fit

        # the held set last: the one column that wraps at 80 (analyzer.output.table)
        body = table([(r["turn"], r["tokens"], f"{r['p_bust_next']:.3f}", r["decision"],
                       f"{r['ev_stop']:.4f}", f"{r['ev_roll']:.4f}", f"{r['margin']:+.4f}",
                       r["held"].replace(",", ", ")) for r in rows],
                     ["turn", "k", "P(bust)", "decision", "stop", "roll", "roll−stop", "held"],
                     "lrrlrrrl")
        head = fit([f"Optimal Trash Pandas policy with Blammo! {b}, Nanners {n}, MMM Pie! {p} "
                    f"(exact; value of a whole turn {payload['turn_value']:.6f})"])
        return "\n".join(head) + f"\n{body}"

    emit(payload, json, render)


def _write_policy_csv(out_dir: str, rows: list[dict]) -> None:
    from pathlib import Path

    from analyzer.output import atomic_write_text, note

    header = list(rows[0])
    lines = [",".join(header)] + [
        ",".join(f'"{r[h]}"' if h == "held" else repr(r[h]) if isinstance(r[h], float)
                 else str(r[h]) for h in header) for r in rows]
    path = Path(out_dir) / "policy.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(str(path), "\n".join(lines) + "\n")
    note(f"wrote {path}")


@app.command(epilog=VALUE_HELP)
def simulate(policy: policy_opt(_TURN_POLICIES) = "optimal",
             n: TrialsOpt = None,
             blammo: BlammoOpt = 0, nanners: NannersOpt = 0, pie: PieOpt = 0,
             value: ValueOpt = None, seed: SeedOpt = None, precision: PrecisionOpt = None,
             time_limit: TimeLimitOpt = None, progress: ProgressOpt = None,
             rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Monte Carlo of whole turns under a policy, printed beside the exact values.

    Reports the bust rate, mean tokens resolved per turn (0 on a bust; bonus-turn tokens
    included), P(all six) and the mean value, each with SE and 95% interval. With --precision,
    -n is a cap.

    Examples:

      pushluck trash-pandas simulate --policy stop-at:3 -n 1000000 --seed 7

      pushluck trash-pandas simulate --blammo 1 --precision 0.002 --json

    A rule of thumb from `advice --out DIR` plays back as rule:FILE.json:

      pushluck trash-pandas advice --out tp-rules

      pushluck trash-pandas simulate --policy rule:tp-rules/rule_cx2.json -n 200000 --seed 7
    """
    from analyzer.games.trash_pandas.lineup import parse_policy
    from analyzer.games.trash_pandas.play import simulate as sim
    from analyzer.games.trash_pandas.rules import parse_values
    from analyzer.output import emit

    b, n_, p = _cards(blammo, nanners, pie)
    spec_policy = parse_policy(policy or "optimal")
    values = parse_values(value)
    r = _rules(rules_file, set_)
    spec = run_spec(trials_or_default(n, precision, DEFAULT_TRIALS), seed, precision, time_limit,
                    progress, json)
    out = sim(spec_policy, values, r, (b, n_, p), spec)
    seed = spec.seed
    if "warning" in out and not json:
        from analyzer.output import note

        note(f"warning: {out['warning']}")

    def render():
        rows = []
        for key, label in (("bust_rate", "bust rate (main turn)"),
                           ("mean_tokens", "tokens resolved / turn"),
                           ("p_all_six", "P(all six)"), ("mean_value", "value / turn")):
            s = out[key]
            z = s.z_from_exact()
            rows.append((label, f"{s.estimate:.5f}", f"{s.se:.5f}",
                         f"[{s.ci_low:.5f}, {s.ci_high:.5f}]", f"{s.exact_value:.5f}",
                         f"{z:+.2f}"))
        from analyzer.output import table

        from analyzer.words import fit

        return ("\n".join(fit([f"Trash Pandas, policy {spec_policy.label}, Blammo! {b}, "
                               f"Nanners {n_}, MMM Pie! {p}: n = {out['n']:,} turns, "
                               f"seed {seed}"])) + "\n" +
                table(rows, ["statistic", "estimate", "SE", "95% interval", "exact", "z"],
                      "lrrrrr") +
                f"\n{out['turns_per_second']:,.0f} turns/s (kernel time)")

    emit(out, json, render)


@app.command()
def score(stash: Annotated[Optional[str], typer.Option(
              metavar="P:CARD=N:…,P:…",
              help="Stashed cards per player: players separated by ',', a player's name "
                   "and cards by ':', e.g. A:feesh=3:blammo=2,B:feesh=3,C:feesh=1.")] = None,
          file: Annotated[Optional[str], typer.Option(
              "--file", metavar="FILE.toml", help="A TOML file with one stash.<player> table of card = count per player.")] = None,
          deck: Annotated[Optional[str], typer.Option(
              "--deck", metavar="FILE.toml", help="Deck file (copies and points); default: the shipped "
                             "reconstruction.")] = None,
          json: JsonOpt = False):
    """End-of-game scoring: majorities with dense places; a tied group scores one point less.

    Examples:

      pushluck trash-pandas score --stash A:feesh=3:blammo=2,B:feesh=3,C:feesh=1

      pushluck trash-pandas score --stash A:feesh=2:shiny=1,B:feesh=2 --json
    """
    from analyzer.errors import UserError
    from analyzer.games.trash_pandas import score as ts
    from analyzer.output import emit, table
    from analyzer.rules import load_toml

    d = ts.load_deck(deck)
    if (stash is None) == (file is None):
        raise UserError("give exactly one of --stash or --file")
    if stash is not None:
        players = ts.parse_stash(stash, d)
    else:
        data = load_toml(file)
        raw = data.get("stash")
        if not isinstance(raw, dict) or not raw:
            raise UserError(f"{file}: expected a [stash.<player>] table per player")
        players = {}
        for name, counts in raw.items():
            if not isinstance(counts, dict):
                raise UserError(f"{file}: stash of '{name}' must be a table of card = count")
            body = ",".join(f"{k}={v}" for k, v in counts.items())
            players[name] = ts.parse_counts(body, d, name)
        ts.check_totals(players, d)
    result = {"game": "trash-pandas", **ts.score(players, d), "exact": True}
    result["deck"] = str(deck or ts.default_deck_path())

    def render():
        rows = []
        for name, total in result["scores"].items():
            parts = ", ".join(f"{d[k].name} {v['count']}→{v['points']}"
                              for k, v in result["breakdown"][name].items())
            rows.append((name, total, parts or "—"))
        return (table(rows, ["player", "points", "cards (count→points)"], "lrl") +
                f"\nwinner: {', '.join(result['winners'])}\n(deck: {result['deck']})")

    emit(result, json, render)


@app.command(epilog=VALUE_HELP)
def advice(blammo: BlammoOpt = 0, nanners: NannersOpt = 0, pie: PieOpt = 0,
           max_loss: MaxLossOpt = None, bands: BandsOpt = 3, clauses: ClausesOpt = 3,
           value: ValueOpt = None, out: OutOpt = None, rules_file: RulesOpt = None,
           set_: SetOpt = None, json: JsonOpt = False):
    """Rules of thumb for rolling on or stopping in a turn, with their exact cost.

    Searches single thresholds (stop at 3 tokens), thresholds in bands of a second feature and
    decision lists of up to 3 conditions over tokens held, bust chance, the cards in hand and
    the bonus turn; cards are used by habit (Blammo! on a bust, then Nanners). Each rule's turn
    value is computed exactly; the loss is the optimal value minus the rule's, in
    card-equivalents, for a turn started with the given hand.

    Examples:

      pushluck trash-pandas advice

      pushluck trash-pandas advice --blammo 1 --nanners 1 --json

    --out DIR writes each front rule as DIR/rule_cx<N>.json, to play it back:

      pushluck trash-pandas advice --out tp-rules

      pushluck trash-pandas simulate --policy rule:tp-rules/rule_cx2.json -n 200000 --seed 1
    """
    from analyzer.advice.cli import emit_exact, front_payload
    from analyzer.games.trash_pandas.advice import DECISION, advise as search
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.rules import parse_values
    from analyzer.rules import rules_to_dict

    cards = _cards(blammo, nanners, pie)
    r = _rules(rules_file, set_)
    res = search(TurnSolver(parse_values(value), r), cards, bands, clauses)
    payload = {"game": "trash-pandas", "rules": rules_to_dict(r), "exact": True,
               "blammo": cards[0], "nanners": cards[1], "pie": cards[2],
               "unit": "card-equivalents per turn", "v_optimal": res["v_optimal"],
               "candidates_evaluated": res["evaluations"], "seconds": res["seconds"]}
    rows = front_payload(payload, res["front"], res["features"], DECISION, max_loss)

    def where(m):
        st = m["states"][0] if m["states"] else None
        return "" if st is None else (
            f"; most often with {st['tokens']} tokens and "
            f"{_hand_words(st['blammo'], st['nanners'], st['pie'])}"
            f"{' (bonus turn)' if st['bonus'] else ''}, where it says {st['rule']}")

    emit_exact(payload, rows, res, title=f"Trash Pandas turn started with {_hand_words(*cards)}: "
                                         f"perfect play is worth {res['v_optimal']:.4f} "
                                         f"card-equivalents (exact)",
               unit="card-equivalents a turn", where=where, out=out, json=json)


def _hand_words(blammo: int, nanners: int, pie: int) -> str:
    """"no cards in hand" or "Blammo! 1, Nanners 0, MMM Pie! 0 in hand"."""
    if blammo == nanners == pie == 0:
        return "no cards in hand"
    return f"Blammo! {blammo}, Nanners {nanners}, MMM Pie! {pie} in hand"


def _register_game_advice() -> None:
    from analyzer.games.trash_pandas.cli_advice import register

    register(app)


_register_game_advice()
_register_whole(app)  # `game` and `decide` (cli_whole.py)
_register_ladder(app)  # `ladder` (cli_ladder.py)
app.command("position")(position_command("trash-pandas"))
