"""`pushluck trash-pandas calibrate`: the command line of calibrate.py (parse, run, print, files)."""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from analyzer.options import (CalibratePlayoutsOpt as PlayoutsOpt, ChartOpt, JsonOpt, MaxLeftOpt,
                              OutOpt, ProgressOpt, RulesOpt, SeedOpt, SetOpt, calibrate_trials)

PlayersOpt = Annotated[int, typer.Option("--players", min=2, max=4, help="Players (2-4).")]
SeatsOpt = Annotated[Optional[str], typer.Option(
    "--seats", metavar="A,B,...", help="One bot per seat (seats from 1; a single bot: every "
    "seat), who play the frozen games and the rest of every game, as in `game --seats` "
    "(default solver, as in `decide`; rollout:K bots cannot play here: the positions come "
    "from the plain-Python reference games).")]
BeliefOpt = Annotated[str, typer.Option(
    "--belief", metavar="NAME", help="The belief about the cards the seat cannot see: model "
    "(default: the opponents' bots never stash what they never stash face down, and hold each "
    "type in hand and face down as often as in self-play of the line-up), rules (that stash "
    "rule alone), uniform (every split equally likely).")]


def calibrate(players: PlayersOpt = 3, n: calibrate_trials(200) = 200,
              max_cards_left: MaxLeftOpt = 10, playouts: PlayoutsOpt = 2000,
              seats: SeatsOpt = None, belief: BeliefOpt = "model", seed: SeedOpt = None,
              progress: ProgressOpt = None, rules_file: RulesOpt = None, set_: SetOpt = None,
              out_dir: OutOpt = None, chart: ChartOpt = False, json: JsonOpt = False):
    """Is `decide`'s chance of winning right? Freezes roll-or-stop positions from simulated
    games whose hidden cards are known, asks `decide`'s machinery about each (with its belief
    about the unseen cards, never the true ones), plays both choices out from the TRUE state
    many times, and reports the bias of the predicted chance of winning per choice and of the
    margin roll − stop (mean over positions, with SE and 95% interval), against the bars 0.02
    per choice and 0.01 for the margin, and a reliability table (predicted against true, in
    bins). --out DIR writes the tables; --chart adds the reliability chart (PNG and SVG).

    Examples:

      pushluck trash-pandas calibrate --players 3 -n 200 --seed 1

      pushluck trash-pandas calibrate --players 4 -n 400 --belief uniform --seed 2 --json

      pushluck trash-pandas calibrate -n 300 --seed 1 --out /tmp/tpcal --chart
    """
    from analyzer.errors import UserError
    from analyzer.games.trash_pandas.belief import check_belief
    from analyzer.games.trash_pandas.lineup import DECIDE_BOT, parse_lineup
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.output import note
    from analyzer.rules import build_rules

    if chart and out_dir is None:
        raise UserError("--chart writes into --out DIR: give --out too")
    check_belief(belief)
    r = build_rules(TrashPandasRules, rules_file, set_)  # every key, the deck file included
    lineup = parse_lineup(seats, players, default=DECIDE_BOT)
    if any(b.name == "rollout" for b in lineup):
        raise UserError("calibrate freezes its positions from the plain-Python reference games, "
                        "which have no rollout:K bot: give --seats without rollout")
    from analyzer.games.trash_pandas.belief import belief_for
    from analyzer.games.trash_pandas.calibrate import run_calibration, summarise
    from analyzer.games.trash_pandas.decide import UNIT
    from analyzer.games.trash_pandas.whole import GameSetup
    from analyzer.options import run_spec
    from analyzer.calibration import run_meta

    setup = GameSetup(r, players, [lineup])
    spec = run_spec(n, seed, progress=progress, as_json=json)
    chosen = belief_for(belief, setup)
    rows, interrupted = run_calibration(setup, chosen, n, max_cards_left, playouts, spec.seed,
                                        progress)
    meta = run_meta("trash-pandas", spec.seed, players, max_cards_left, playouts, n, r, UNIT,
                    lineup, chosen.to_json(), interrupted, len(rows))
    from analyzer.games.trash_pandas.calibrate_out import publish

    publish(summarise(rows, meta), out_dir, chart, json)


EPILOG = ("Examples:\n\n  pushluck trash-pandas calibrate --players 3 -n 200 --seed 1\n\n"
          "  pushluck trash-pandas calibrate -n 300 --seed 1 --out /tmp/tpcal --chart")


def register(app: typer.Typer) -> None:
    """Add `calibrate` to the Trash Pandas app."""
    app.command(epilog=EPILOG)(calibrate)
