"""`pushluck ten game-advice`: when to stop drawing in whole games (Monte Carlo, raced).

Only parses options, calls analyzer/games/ten/advice_game.py and prints."""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from analyzer.advice.cli import (MaxLossOpt, opponents_option, race_indifference_option,
                                 race_precision_option, race_rounds_option, record_games_option)
from analyzer.options import JsonOpt, OutOpt, RulesOpt, SeedOpt, SetOpt


BandByOpt = Annotated[Optional[str], typer.Option(
    "--band-by", metavar="none|deck|tokens|all",
    help="Race the bots' family instead of the ladder: the 19 single thresholds and the "
         "threshold on T banded by the cards left in the draw pile (deck), by the currency "
         "tokens you hold (tokens), by both (all) or by neither (none). Default: the ladder.")]


def game_advice(players: Annotated[int, typer.Option("--players", min=2, max=5, metavar="N",
                                                     help="Players (2..5).")] = 4,
                deck: Annotated[Optional[str], typer.Option(
                    "--deck", metavar="FILE.toml",
                    help="Deck file (default: the bundled deck).")] = None,
                seed: SeedOpt = None,
                precision: race_precision_option("win probability") = 0.01,
                indifference: race_indifference_option("win probability") = None,
                rounds: race_rounds_option("⌈32/players⌉ blocks of 16 games per seat per "
                                           "surviving rule") = 40,
                band_by: BandByOpt = None,
                record_games: record_games_option("games") = 400,  # advice_record.GAMES
                opponents: opponents_option("threshold", "search:iters=32") = None,
                max_loss: MaxLossOpt = None, out: OutOpt = None, rules_file: RulesOpt = None,
                set_: SetOpt = None, json: JsonOpt = False):
    """When to stop drawing in whole games: rules of thumb raced in chance of winning.

    The default family is the ladder, in order of complexity (numbers and conditions to
    remember): one threshold (2) — draw while T = N − C is at most t − 1 (threshold:t), while
    the tableau holds at most m − 1 cards (cards:m), while C is at most c, while you hold at
    most k tokens or bust tokens, or while the draw pile holds at least d cards; the threshold
    on T in two bands (5) or three bands (8) of the cards left in the draw pile or of the
    tokens you hold; decision lists of 2 and 3 "if … then …" conditions (4, 6) that add one or
    two exceptions (on C, the tableau's cards, the cards left, tokens or bust tokens) to "if
    T ≥ t, stop; otherwise draw". Rules that decide alike in every state are raced once: 430
    rules. Lists and thresholds beyond T and cards are played by the table bot
    (table:if_1=…,then_1=…,otherwise=…). --band-by races the bots' older family instead (19
    single thresholds, with bands 283 rules).

    The studied player takes every seat in turn against threshold bots (--seats names another
    bot, e.g. search:iters=32), every rule on the same decks (common random numbers); its loss
    in win probability (ties shared) against the best rule is raced: a rule is dropped once it
    is shown worse than a simpler one, or shown not to beat a simpler one by more than
    --indifference (default: the --precision, 0.01, one point of winning chance: less is not
    worth remembering a rule for). Most of the ladder is clearly worse and goes in the first
    rounds; the few rules left race on for up to 40 rounds (20,480 games each with 4 players).
    Opens with one sentence to remember; prints the best rule found (the best by sample mean,
    not shown best), the rules not separated from it, and the games spent against the uniform
    grid that gives the same guarantee (in games and seconds); each rule names the bot that
    plays it, and --out DIR writes the front as rule files for `ten game --seats
    rule:FILE.json`. Each rule on the front then plays fresh games (--record-games, in every
    seat in turn) that record its draw-or-stop decisions: where it decides otherwise than the
    best rule, most often first, in wrong decisions per game with 95% intervals.

    Examples:

      pushluck ten game-advice --seed 2

      pushluck ten game-advice --players 3 --seed 2 --json

      pushluck ten game-advice --seed 2 --out advice/

      pushluck ten game --seats rule:advice/rule_cx2.json,threshold,threshold,threshold

      pushluck ten game-advice --band-by tokens --max-loss 0.01 --seed 2

      pushluck ten game-advice --players 3 --seats search:iters=32 --rounds 4 --seed 2
    """
    from analyzer.advice.cli import check_band_by, emit_raced, parse_opponents
    from analyzer.games.ten.advice_game import BANDS, advise, recordable
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.options import seed_note
    from analyzer.rng import resolve_seed
    from analyzer.rules import build_rules, rules_to_dict

    if band_by is not None:
        check_band_by(band_by, BANDS)
    others, label, record_games = parse_opponents(opponents, "threshold", parse_seats, players,
                                                  recordable, record_games)
    r, spec = build_rules(TenRules, rules_file, set_), load_deck(deck)
    s, drawn = resolve_seed(seed)
    seed_note(s, drawn, json)
    res = advise(r, spec, players, s, rounds, precision, band_by, indifference, record_games,
                 others)
    payload = {"game": "ten", "rules": rules_to_dict(r), "players": players, "exact": False,
               "seed": s, "opponents": label,
               "unit": f"win probability (studied seat, every seat, {label} bots)"}
    emit_raced(payload, res, f"Ten whole games ({players} players): when to stop drawing, raced "
               f"against {label} bots in every seat (Monte Carlo, seed {s}); surviving "
               f"rules only", max_loss=max_loss, out=out, json=json, unit="chance of winning",
               extra=lambda x: x["rule"]["bot"])


def register(app: typer.Typer) -> None:
    app.command("game-advice")(game_advice)
