"""`pushluck ten game` and `pushluck ten decide`: whole games between bots, and the chance of
winning for each choice at a real position (parse, call ``decide.py``, print)."""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from analyzer.options import (DECIDE_PLAYOUTS, DecideTrialsOpt, ExampleOpt, JsonOpt, LineupVsOpt,
                              PositionArg, PrecisionOpt, ProgressOpt, RulesOpt, SeedOpt, SetOpt,
                              TimeLimitOpt, renamed, run_spec, seats_option, trials,
                              trials_or_default)

BOTS = ("threshold:T (stop once T ≥ T), cards:M (stop once the tableau holds M cards), exact "
        "(the exact one-turn policy of `ten best`; knobs card=1, token=0.25, bust=3, opp=0), "
        "random (knob draw-chance=0.5), rollout:K (before each optional draw, K rollouts of the "
        "rest of the current turn only, under 'stop once T ≥ stop-at' from the draw pile's "
        "counts, valued like exact's card/token/bust/opp; draws when their mean beats "
        "stopping; default 16), table:if-1=T>=7:then-1=stop:…:otherwise=draw (a decision list "
        "of up to 3 conditions FEATURE<=V or >=V on T, C, cards, deck, tokens, busts; the first "
        "that holds decides), rule:FILE.json (a rule from `ten game-advice --out`); knobs after "
        "the bot, each after a ':', e.g. threshold:8:bid=never; knobs for all: "
        "reward=value|numbers|currency|random, bid=value|never|random, buy=value|never|random, "
        "tokens-per-point=3, card-bonus=0.5, opp-weight=0, min-gain=0, pay-with-cards=no")
#: The line-up `decide`, `calibrate` and `play` use when none is given (every seat), and `game`'s:
#: the strongest bot that fits decide's budget of about a second, in one place. Measured with
#: `ten ladder --bots exact,threshold -n 20000 --seed 41` at 2, 3 and 4 players: one exact seat
#: among thresholds wins +0.020, +0.030 and +0.022 (± 0.002) more than a threshold in that seat,
#: and a threshold among exacts −0.020, −0.030 and −0.022; decide --precision 0.01 on the basic
#: example took 1.49 s against threshold's 1.37 s. `search:iters=…` is stronger still but far
#: too slow to play every seat of every playout.
STRONGEST_BOT = "exact"
SeatsOpt = seats_option(BOTS + f". Default: {STRONGEST_BOT}.")
OldPolicyOpt = renamed("--policy", "the line-up is --seats BOT (a single bot plays every seat)")
DeckOpt = Annotated[Optional[str], typer.Option(
    "--deck", metavar="FILE.toml", help="Deck composition TOML (default: the bundled assumptions).")]
DEFAULT_GAMES = 20_000


def _rules(rules_file, sets, deck):
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.rules import build_rules

    return build_rules(TenRules, rules_file, sets), load_deck(deck)


def game(seats: SeatsOpt = None, vs: LineupVsOpt = None,
         players: Annotated[int, typer.Option("--players", min=1, max=5, metavar="N",
                                              help="Players (1..5).")] = 4,
         n: trials("games per line-up", DEFAULT_GAMES) = None,
         check: Annotated[bool, typer.Option(
             "--check", help="Check card and token conservation after every turn.")] = False,
         deck: DeckOpt = None, seed: SeedOpt = None, precision: PrecisionOpt = None,
         time_limit: TimeLimitOpt = None, progress: ProgressOpt = None,
         rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False,
         _policy: OldPolicyOpt = None):
    """Whole games of Ten between bots: win rate per seat, scores, length, busts, auctions, buys.

    Every figure is a statistic over games (SE, 95% interval, n, seed); a shared win counts 1/k
    to each of the k winners. With --vs (repeatable, each a whole line-up in the --seats form)
    every line-up plays the same shuffled decks and the per-seat differences are paired.
    --precision stops when seat 1's win rate (line-up A) is known to ± that.

    Examples:

      pushluck ten game --seats threshold -n 20000 --seed 1

      pushluck ten game --seats exact,threshold,threshold,threshold --vs threshold --seed 2

      pushluck ten game --players 3 --seats threshold:8:bid=never,random,cards:5 --json

      pushluck ten game --seats rollout:32,threshold,threshold,threshold -n 2000 --seed 3

      pushluck ten game --seats search:iters=64,threshold,threshold,threshold --vs threshold -n 200
    """
    from analyzer.games.ten.decide import play_games
    from analyzer.games.ten.lineup import check_lineups
    from analyzer.games.ten.whole import Setup, removals_note
    from analyzer.output import emit, table

    r, spec = _rules(rules_file, set_, deck)
    lineups = check_lineups([seats or STRONGEST_BOT] + list(vs or []), players)
    setup = Setup(r, spec, players, lineups, check)
    rs = run_spec(trials_or_default(n, precision, DEFAULT_GAMES), seed, precision, time_limit,
                  progress, json)
    out = play_games(setup, rs)
    out["deck_removals"] = removals_note(spec, players)

    def render():
        from analyzer.words import fit

        text = [f"Ten whole games, {players} players, n = {out['n']:,} games per line-up, "
                f"seed {rs.seed}", "± one SE [95% interval]"]
        if out["deck_removals"] is not None:
            text += fit(["note: " + out["deck_removals"]["note"]])
        for lu in out["lineups"]:
            text.append(f"line-up {lu['name']}: {', '.join(lu['bots'])}")
            # 80 columns: the win rate with its interval, the rest as estimate ± SE (the JSON
            # and --out hold every interval)
            text.append(table([[s["seat"], s["win_rate"].format(3), _pm(s["score"]),
                                _pm(s["tokens_end"]), _pm(s["cards_end"])]
                               for s in lu["seats"]],
                              ["seat", "win rate", "score", "tokens at end", "cards at end"]))
            for key in ("winner_score", "turns", "rounds", "busts", "number_busts",
                        "currency_busts", "auctions", "price_per_auction", "wilds_discarded",
                        "buys", "market_end", "stops_numbers", "stops_currency", "tied_games"):
                if lu[key] is not None:
                    text.append(f"  {key:<18} {lu[key].format(3)}")
            if check:
                text.append(f"  conservation violations: {lu['violations']}")
        for d in out["differences"]:
            text.append(f"paired {d['of']} (same decks):")
            for s in d["seats"]:
                text.append(f"  seat {s['seat']}: win rate {s['win_rate'].format(4)}, "
                            f"score {s['score'].format(3)}")
        if "search" in out:
            e = out["search"]
            text.append(f"search: {e['searched_decisions']:,} decisions searched, "
                        f"{e['cpu_ms_per_decision']:.1f} ms of CPU and "
                        f"{e['playouts_per_decision']:.0f} playouts each")
        text.append(f"games per second: {out['games_per_second']:,.0f}")
        return "\n".join(text)

    emit(out, json, render)


def _pm(stat, digits: int = 2) -> str:
    """``estimate ± SE`` (a table cell that leaves the interval to the JSON)."""
    return f"{stat.estimate:.{digits}f} ± {stat.se:.{digits}f}"


def decide(position: PositionArg = None, example: ExampleOpt = None, seats: SeatsOpt = None,
           n: DecideTrialsOpt = None, deck: DeckOpt = None, seed: SeedOpt = None,
           precision: PrecisionOpt = None, time_limit: TimeLimitOpt = None,
           progress: ProgressOpt = None,
           rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Draw, or stop and take the numbers, or stop and take the currency; or which card to buy,
    or what to bid in an auction: the chance of winning for each choice.

    The position's `phase` says which decision it is and whose: "draw" (default) and "buy"
    (the active player took the numbers; "no buy" or a market card it may buy) are the active
    seat's; "auction" (the active player drew `wild`; `bids` lists what the seats before the
    bidder did) is the next bidder's: pass, or bid exactly x for every distinct bid it may
    make; "final" (the final buy round, the pile empty; `buyers` the seats still to buy after
    the active one) is the active seat's, as "buy", and exact when those seats buy by rule
    (no random buyer). The answer is seat `me`'s chance of winning (a shared win counts as a share; `me`
    defaults to the deciding seat) with Wilson intervals. Every choice is played to the end
    of the game on the same piles (common random numbers) by the bots of --seats (or the
    position's `seats`; default: exact, the strongest bot within the budget). The unseen
    cards are the draw pile in a uniformly random order, which is exact in Ten (the pile is the only hidden
    thing). The best choice is named only when it beats every other by more than a
    simultaneous interval (Bonferroni over the comparisons; the z is printed). Beside a draw
    decision: the active seat's one-turn value model (`ten best`, exact). --precision stops
    once every best-vs-other difference is known to ± that. Seats count from 1; `ten position
    --template` prints a commented position file. A `search` seat searches each of its
    decisions in every playout (its budget each time): the default is then 200 playouts per
    choice.

    Examples:

      pushluck ten decide --example basic --seed 1

      pushluck ten decide --example basic --precision 0.01 --seed 1 --json

      pushluck ten decide --example buy -n 2000 --seed 1

      pushluck ten decide --example auction -n 2000 --seed 1

      pushluck ten position --template > my_position.toml

      pushluck ten decide my_position.toml --seats threshold:8 --seed 1
    """
    from analyzer.examples import position_file
    from analyzer.games.ten.position import load_position
    from analyzer.output import emit

    path = position_file("ten", position, example)
    r, spec = _rules(rules_file, set_, deck)
    pos = load_position(path, r, spec)  # first: a bad position fails before numpy loads
    from analyzer.games.ten.decide import decide as run_decide
    from analyzer.games.ten.lineup import parse_seats

    bots = parse_seats(seats or pos.seats or STRONGEST_BOT, pos.players,
                       "--seats" if seats else f"{path}: seats")
    from analyzer.games.ten.decide import SEARCH_PLAYOUTS

    default = SEARCH_PLAYOUTS if any(b.name == "search" for b in bots) else DECIDE_PLAYOUTS
    rs = run_spec(trials_or_default(n, precision, default), seed, precision, time_limit,
                  progress, json)
    out = run_decide(pos, r, spec, bots, rs)
    emit(out, json, lambda: render_decide(out))


MOVES = {"draw": "draw or stop", "buy": "which card to buy", "auction": "what to bid",
         "final": "which card to buy in the final round"}


def render_decide(out: dict) -> str:
    """The text of `ten decide` (every line within 80 columns)."""
    from analyzer.words import fit

    me, who = out["me"], out["deciding"]
    mine = "its own" if me == who else f"seat {me}'s"
    lines = [f"Ten decide: seat {who}'s move ({MOVES[out['phase']]}), judged by {mine} "
             f"chance of winning; n = {out['n']:,} playouts per choice, seed {out['seed']}"]
    seats = ", ".join(f"seat {s['seat']} {s['bot']}" + (" (me)" if s["me"] else "")
                      for s in out["seats"])
    lines.append(f"the rest of the game is played by: {seats}")
    lines.append(f"belief: {out['cards_unseen']} unseen cards = the draw pile in a uniformly "
                 "random order (exact in Ten: the pile is the only hidden thing)")
    au = out["auction"]
    if au is not None:
        done = [f"seat {b['seat']} " + (f"bid {b['bid']}" if b["bid"] else "passed")
                for b in au["bids"]]
        rest = [f"seat {q}" + (" (active, last)" if q == out["active"] else "")
                for q in au["later"]]
        lines.append(f"auction of {out['wild']}: " + ", ".join(
            done + [f"seat {au['to_bid']} to bid"] + rest) + (
            f"; current bid {au['current_bid']}" if au["current_bid"] else "; no bid yet"))
    lines.append(f"P(win) = {out['unit']}, " + (
        "exact (every playout the same: SE 0)" if out["exact"] else
        "± one SE [95% Wilson interval]"))
    for c, st in out["p_win"].items():
        same = out["same_as"].get(c)
        extra = f"  (= {', '.join(x.split()[-1] for x in same)}: same cost)" if same else ""
        lines.append(f"  {c:<8} {st.format(4)}{extra}")
    lines.append(f"→ {out['verdict']}")
    t = out["turn_level"]
    if t is not None:
        from analyzer.words import choice_words, verdict

        whose = ("" if t["seat"] == me else
                 f" (the active seat {t['seat']}'s own turn, not seat {me}'s chance of winning)")
        lines.append(f"one-turn value model of seat {t['seat']} (exact, card=1, token=0.25): "
                     + verdict(choice_words(t["recommendation"]), t["margin"],
                               "card-equivalents") + whose)
    lines.append(f"{out['seconds']:.2f} s of playouts")
    return "\n".join(fit(lines))


def register(app: typer.Typer) -> None:
    app.command()(game)
    app.command()(decide)
