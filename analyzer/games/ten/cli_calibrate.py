"""`pushluck ten calibrate`: the command line of calibrate.py (parse, run, print, files)."""
from __future__ import annotations

from typing import Annotated

import typer

from analyzer.games.ten.cli_whole import STRONGEST_BOT, DeckOpt, SeatsOpt
from analyzer.options import (CalibratePlayoutsOpt as PlayoutsOpt, ChartOpt, JsonOpt, MaxLeftOpt,
                              OutOpt, ProgressOpt, RulesOpt, SeedOpt, SetOpt, calibrate_trials)

DEFAULT_POSITIONS = 100
DEFAULT_PLAYOUTS = 200
PlayersOpt = Annotated[int, typer.Option("--players", min=2, max=5, help="Players (2-5).")]
PhaseOpt = Annotated[str, typer.Option(
    "--phase", metavar="PHASE", help="The decisions calibrated: draw (draw or stop: draw, "
    "numbers, currency), buy (no buy, and one listed buy picked at random), auction (pass, the "
    "lowest bid, and one listed bid picked at random).")]


def calibrate(players: PlayersOpt = 3, n: calibrate_trials(DEFAULT_POSITIONS) =
              DEFAULT_POSITIONS, max_cards_left: MaxLeftOpt = 10,
              playouts: PlayoutsOpt = DEFAULT_PLAYOUTS, seats: SeatsOpt = None,
              deck: DeckOpt = None, seed: SeedOpt = None, progress: ProgressOpt = None,
              rules_file: RulesOpt = None, set_: SetOpt = None, out_dir: OutOpt = None,
              chart: ChartOpt = False, json: JsonOpt = False, phase: PhaseOpt = "draw"):
    """Is `ten decide`'s chance of winning right? Freezes draw-or-stop positions from whole
    games played by the line-up (--seats), asks `decide`'s machinery about each (the unseen
    cards shuffled, as `decide` does), plays each choice (draw, numbers, currency) on to the
    end with the game's REAL draw pile, and reports the bias of the predicted chance of winning
    per choice and of the margins draw − numbers and draw − currency (mean over positions,
    with SE and 95% interval) against the bars 0.02 per choice and 0.01 per margin, a
    reliability table (bins of predicted chance against the realised outcome, with intervals
    no narrower than Wilson's) and a verdict. --out DIR writes the tables; --chart adds the
    reliability chart (PNG and SVG). Exit 0 whatever the verdict. --phase buy and --phase
    auction freeze buy and bidding decisions instead and judge "no buy" / "pass", the lowest
    bid (auction) and one other listed choice picked at random (never by the playouts), with
    the margins against the first.

    Examples:

      pushluck ten calibrate --seed 1

      pushluck ten calibrate --players 4 -n 2000 --seed 2 --json

      pushluck ten calibrate -n 300 --seed 1 --out /tmp/tencal --chart

      pushluck ten calibrate --phase auction -n 300 --seed 1
    """
    from analyzer.errors import UserError
    from analyzer.games.ten.cli_whole import _rules
    from analyzer.games.ten.lineup import parse_seats

    if chart and out_dir is None:
        raise UserError("--chart writes into --out DIR: give --out too")
    if max_cards_left < 1:
        raise UserError("--max-cards-left: a draw-or-stop decision needs a card in the pile: "
                        "give 1 or more")
    if n < 2:
        raise UserError("-n: calibrate needs at least 2 positions (the bias's interval comes "
                        "from their spread)")
    from analyzer.games.ten.calibrate import PHASES

    if phase not in PHASES:
        raise UserError(f"--phase: '{phase}' is not one of {', '.join(PHASES)}")
    r, spec = _rules(rules_file, set_, deck)
    if phase == "buy" and not r.buys or phase == "auction" and not r.auctions:
        key = "buys" if phase == "buy" else "auctions"
        raise UserError(f"--phase {phase}: the rules say {key} = false, so no such decision "
                        "happens")
    bots = parse_seats(seats or STRONGEST_BOT, players, "--seats")
    from analyzer.games.ten.calibrate import run_calibration, summarise
    from analyzer.games.ten.decide import BELIEF, UNIT
    from analyzer.games.ten.whole import Setup, removals_note
    from analyzer.options import run_spec
    from analyzer.calibration import run_meta

    setup = Setup(r, spec, players, [bots])
    rs = run_spec(n, seed, progress=progress, as_json=json)
    rows, interrupted = run_calibration(setup, n, max_cards_left, playouts, rs.seed, progress,
                                        phase)
    meta = run_meta("ten", rs.seed, players, max_cards_left, playouts, n, r, UNIT, bots, BELIEF,
                    interrupted, len(rows))
    meta["phase"] = phase
    meta["deck_removals"] = removals_note(spec, players)
    from analyzer.games.ten.calibrate_out import publish

    publish(summarise(rows, meta), out_dir, chart, json)


EPILOG = ("Examples:\n\n  pushluck ten calibrate --seed 1\n\n"
          "  pushluck ten calibrate -n 300 --seed 1 --out /tmp/tencal --chart\n\n"
          "  pushluck ten calibrate --phase auction -n 300 --seed 1")


def register(app: typer.Typer) -> None:
    """Add `calibrate` to the Ten app."""
    app.command(epilog=EPILOG)(calibrate)
