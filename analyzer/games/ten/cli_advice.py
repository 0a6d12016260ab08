"""`pushluck ten game-advice`: when to stop drawing in whole games (Monte Carlo, raced).

Only parses options, calls analyzer/games/ten/advice_game.py and prints."""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from analyzer.advice.cli import (MaxLossOpt, band_by_option, race_indifference_option,
                                 race_precision_option,
                                 race_rounds_option)
from analyzer.options import JsonOpt, OutOpt, RulesOpt, SeedOpt, SetOpt


BandByOpt = band_by_option(("none", "deck", "tokens", "all"),
                           "bands of the cards left in the draw pile (deck) or of the currency "
                           "tokens you hold (tokens)")


def game_advice(players: Annotated[int, typer.Option("--players", min=2, max=5, metavar="N",
                                                     help="Players (2..5).")] = 4,
                deck: Annotated[Optional[str], typer.Option(
                    "--deck", metavar="FILE.toml",
                    help="Deck file (default: the bundled deck).")] = None,
                seed: SeedOpt = None,
                precision: race_precision_option("win probability") = 0.005,
                indifference: race_indifference_option("win probability") = None,
                rounds: race_rounds_option("2 blocks of 64 games per seat per surviving "
                                           "rule") = 16,
                band_by: BandByOpt = "none",
                max_loss: MaxLossOpt = None, out: OutOpt = None, rules_file: RulesOpt = None,
                set_: SetOpt = None, json: JsonOpt = False):
    """When to stop drawing in whole games: the bots' stop rules raced in chance of winning.

    The rules are the whole-game bots' draw rules in words: draw while T = N − C is at most
    t − 1 (threshold:t, t = 2..12) or while the tableau holds at most m − 1 cards (cards:m,
    m = 1..8) (complexity 2), 19 rules; with --band-by also the bound on T in two bands of the
    cards left in the draw pile or of the currency tokens you hold (complexity 5), or three
    bands (complexity 8): 283 rules with --band-by all, which takes minutes (their differences
    are small, so many survive every round). The studied player takes every seat in turn against threshold bots, every rule
    on the same decks (common random numbers); its loss in win probability (ties shared)
    against the best rule is raced. Prints the games spent and what evaluating every rule to
    the same sample would have cost; each rule names the bot that plays it (`ten game --seats`).

    Examples:

      pushluck ten game-advice --seed 2

      pushluck ten game-advice --players 3 --seed 2 --json

      pushluck ten game-advice --band-by tokens --max-loss 0.01 --seed 2
    """
    from analyzer.advice.cli import check_band_by, emit_raced
    from analyzer.games.ten.advice_game import BANDS, advise
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.options import seed_note
    from analyzer.rng import resolve_seed
    from analyzer.rules import build_rules, rules_to_dict

    check_band_by(band_by, BANDS)
    r, spec = build_rules(TenRules, rules_file, set_), load_deck(deck)
    s, drawn = resolve_seed(seed)
    seed_note(s, drawn, json)
    res = advise(r, spec, players, s, rounds, precision, band_by, indifference)
    payload = {"game": "ten", "rules": rules_to_dict(r), "players": players, "exact": False,
               "seed": s, "unit": "win probability (studied seat, every seat, threshold bots)"}
    emit_raced(payload, res, f"Ten whole games ({players} players): when to stop drawing (Monte "
               f"Carlo, seed {s}); loss in win probability against the best rule, 95% "
               f"Bonferroni intervals; surviving rules only", max_loss=max_loss, out=out,
               json=json, extra=lambda x: x["rule"]["bot"])


def register(app: typer.Typer) -> None:
    app.command("game-advice")(game_advice)
