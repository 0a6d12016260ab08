"""`pushluck trash-pandas game-advice`: when to stop rolling in whole games (Monte Carlo, raced).

Only parses options, calls analyzer/games/trash_pandas/advice_game.py and prints."""
from __future__ import annotations

from typing import Annotated

import typer

from analyzer.advice.cli import MaxLossOpt
from analyzer.options import JsonOpt, OutOpt, RulesOpt, SeedOpt, SetOpt


def game_advice(players: Annotated[int, typer.Option("--players", min=2, max=4,
                                                     help="Players (2-4).")] = 3,
                seed: SeedOpt = None,
                precision: Annotated[float, typer.Option(
                    "--precision", metavar="HALF-WIDTH",
                    help="Race until every surviving rule's loss half-width is at most this "
                         "(win probability).")] = 0.002,
                rounds: Annotated[int, typer.Option(
                    "--rounds", min=1, max=200,
                    help="Most racing rounds (each: 4 blocks of 256 games per seat per "
                         "surviving rule).")] = 24,
                max_loss: MaxLossOpt = None, out: OutOpt = None, rules_file: RulesOpt = None,
                set_: SetOpt = None, json: JsonOpt = False):
    """When to stop rolling in whole games: stop rules raced in chance of winning.

    The rules are the heuristic bot's stop knobs in words: roll while you hold at most K − 1
    tokens (complexity 2), or with a different bound in the bonus turn (two bands of the bonus
    flag, complexity 5); 18 with the default bonus cap. The studied player takes every seat in turn against
    heuristic opponents, every rule on the same deals (common random numbers); its loss in win
    probability (ties shared) against the best rule is raced: a rule is dropped once its loss
    interval lies wholly above a simpler rule's. Prints the games spent and what evaluating
    every rule to the same sample would have cost; each rule names the bot that plays it
    (`trash-pandas game --seats BOT`).

    Examples:

      pushluck trash-pandas game-advice --seed 2

      pushluck trash-pandas game-advice --players 2 --seed 2 --json
    """
    from analyzer.advice import pareto, simplest_within
    from analyzer.advice.cli import race_line, tail_lines, write_rules
    from analyzer.games.trash_pandas.advice_game import advise, row
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.options import seed_note
    from analyzer.output import emit
    from analyzer.rng import resolve_seed
    from analyzer.rules import build_rules, rules_to_dict

    r = build_rules(TrashPandasRules, rules_file, set_)
    s, drawn = resolve_seed(seed)
    seed_note(s, drawn, json)
    res = advise(r, players, s, rounds, precision)
    rows = [row(x) for x in res["front"]]
    payload = {"game": "trash-pandas", "rules": rules_to_dict(r), "players": players,
               "exact": False, "seed": s,
               "unit": "win probability (studied seat, every seat, heuristic opponents)",
               "reference": res["reference"].to_json(), "front": rows,
               "all": [row(x) for x in sorted(res["all"], key=lambda x: x.loss)],
               "race": res["race"], "seconds": res["seconds"]}
    if max_loss is not None:
        pick = simplest_within(pareto([x for x in res["all"] if x.extra["survived"]]), max_loss)
        payload["max_loss"] = max_loss
        payload["simplest_within"] = None if pick is None else row(pick)
    write_rules(out, payload)

    def render():
        lines = [f"Trash Pandas whole games ({players} players): when to stop rolling (Monte "
                 f"Carlo, seed {s}); loss in win probability against the best rule, 95% "
                 f"Bonferroni intervals; surviving rules only",
                 f"  {'cx':>3}  {'loss':>26}  rule (bot)"]
        for x in rows:
            L = x["loss"]
            lines.append(f"  {x['complexity']:>3}  {L['estimate']:>8.4f} [{L['ci_low']:.4f}, "
                         f"{L['ci_high']:.4f}]  {x['words']} ({x['rule']['bot']})")
        lines.append(race_line(res["race"]))
        return "\n".join(lines + tail_lines(payload, f"{res['seconds']:.1f} s"))

    emit(payload, json, render)


def register(app: typer.Typer) -> None:
    app.command("game-advice")(game_advice)
