"""`pushluck trash-pandas game-advice`: when to stop rolling in whole games (Monte Carlo, raced).

Only parses options, calls analyzer/games/trash_pandas/advice_game.py and prints."""
from __future__ import annotations

from typing import Annotated

import typer

from analyzer.advice.cli import (MaxLossOpt, band_by_option, opponents_option,
                                 race_indifference_option, race_precision_option,
                                 race_rounds_option, record_games_option)
from analyzer.options import JsonOpt, OutOpt, RulesOpt, SeedOpt, SetOpt


BandByOpt = band_by_option(("all", "none", "deck", "behind", "bands", "lists"),
                           "bands (of deck: the cards left in the draw pile, or of behind: "
                           "your stash's deficit to the biggest other stash; with bands, of "
                           "those and of the cards in your hand and of your Blammo! and "
                           "Nanners) or decision lists (lists)")


def game_advice(players: Annotated[int, typer.Option("--players", min=2, max=4,
                                                     help="Players (2-4).")] = 3,
                seed: SeedOpt = None,
                precision: race_precision_option("win probability") = 0.002,
                indifference: race_indifference_option("win probability") = None,
                rounds: race_rounds_option("4 blocks of 256 games per seat per surviving "
                                           "rule") = 24,
                band_by: BandByOpt = "all",
                record_games: record_games_option("games") = 1000,  # advice_record.GAMES
                opponents: opponents_option("heuristic", "search:200") = None,
                max_loss: MaxLossOpt = None, out: OutOpt = None, rules_file: RulesOpt = None,
                set_: SetOpt = None, json: JsonOpt = False):
    """When to stop rolling in whole games: stop rules raced in chance of winning.

    The rules are stop rules in words over what you can count when deciding whether to roll
    again: the tokens you hold, the bonus turn, the cards left in the draw pile (deck), how far
    your stash trails the biggest other stash (behind), the cards in your hand (hand) and the
    Blammo! and Nanners you can play (saves). Roll while you hold at most K − 1 tokens
    (complexity 2); with a different bound in the bonus turn (complexity 5); with bounds in two
    bands of deck, behind, hand or saves (complexity 5), or in three bands of deck or behind
    (complexity 8); decision lists of one or two exceptions ("if the draw pile is at most 4
    cards, stop") before "if you hold K tokens, stop; otherwise roll" (complexity 4 and 6).
    Rules that decide alike in every state are raced once, in their simplest words: about 560
    rules by default. The studied player takes every seat in turn against heuristic opponents
    (--seats names another bot, e.g. search:200), every rule on the same deals (common random
    numbers); its loss in win probability (ties shared) against the best rule is raced: a rule
    is dropped once its loss interval lies wholly above a simpler rule's. Opens with one
    sentence to remember; prints the best rule found (the best by sample mean, not shown best),
    the rules not separated from it, and the games spent against the uniform grid that gives the
    same guarantee (in games and seconds); each rule names the bot that plays it (`trash-pandas
    game --seats BOT`); with --out DIR each front rule is written as a file that `trash-pandas
    game --seats rule:FILE.json` plays back (decision lists too). Each rule on the front then
    plays fresh games (--record-games, in every seat in turn) that record its roll-or-stop
    decisions: where it decides otherwise than the best rule, most often first, in wrong
    decisions per game with 95% intervals.

    Examples:

      pushluck trash-pandas game-advice --seed 2

      pushluck trash-pandas game-advice --players 2 --seed 2 --json

      pushluck trash-pandas game-advice --band-by lists --seed 2

      pushluck trash-pandas game-advice --out advice --seed 2

      pushluck trash-pandas game --seats rule:advice/rule_cx5.json,heuristic,heuristic --seed 2

      pushluck trash-pandas game-advice --band-by none --max-loss 0.01 --seed 2

      pushluck trash-pandas game-advice --band-by none --seats search:50 --rounds 2 --seed 2
    """
    from analyzer.advice.cli import check_band_by, emit_raced, parse_opponents
    from analyzer.games.trash_pandas.advice_game import BANDS, advise, recordable
    from analyzer.games.trash_pandas.lineup import parse_lineup
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.options import seed_note
    from analyzer.rng import resolve_seed
    from analyzer.rules import build_rules, rules_to_dict

    check_band_by(band_by, BANDS)
    others, label, record_games = parse_opponents(opponents, "heuristic", parse_lineup,
                                                  players, recordable, record_games)
    r = build_rules(TrashPandasRules, rules_file, set_)
    s, drawn = resolve_seed(seed)
    seed_note(s, drawn, json)
    res = advise(r, players, s, rounds, precision, band_by, indifference, record_games, others)
    payload = {"game": "trash-pandas", "rules": rules_to_dict(r), "players": players,
               "exact": False, "seed": s, "opponents": label,
               "unit": f"win probability (studied seat, every seat, {label} opponents)"}
    emit_raced(payload, res, f"Trash Pandas whole games ({players} players): when to stop rolling, "
               f"raced against {label} opponents in every seat (Monte Carlo, seed {s}); "
               f"surviving rules only", max_loss=max_loss, out=out, json=json,
               unit="chance of winning", extra=lambda x: x["rule"]["bot"])


def register(app: typer.Typer) -> None:
    app.command("game-advice")(game_advice)
