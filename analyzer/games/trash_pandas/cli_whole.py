"""`pushluck trash-pandas game` and `decide`: whole games between bots, and roll or stop at a
real position in chance of winning (parse, call whole.py / decide.py, print or write files)."""
from __future__ import annotations

from typing import Annotated

import typer

from analyzer.games.trash_pandas.cli_calibrate import BeliefOpt
from analyzer.options import (DECIDE_PLAYOUTS, ChartOpt, DecideTrialsOpt, ExampleOpt, JsonOpt,
                              LineupVsOpt, OutOpt, PositionArg, PrecisionOpt, ProgressOpt,
                              RulesOpt, SeedOpt, SetOpt, TimeLimitOpt, renamed, run_spec,
                              seats_option, trials, trials_or_default)


def _whole_rules(rules_file, sets):
    """The rules of a whole-game command (game, decide): every key, the deck file included."""
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.rules import build_rules

    return build_rules(TrashPandasRules, rules_file, sets)


PlayersOpt = Annotated[int, typer.Option("--players", min=2, max=4, help="Players (2-4).")]
BOTS_HELP = (
    "heuristic, solver, random, rollout:K (roll/stop and Blammo!/Nanners/Feesh saves by K determinized "
    "rollouts to the end of the game, default 16; its other choices and knobs as heuristic), "
    "search:ITERS (roll/stop, Blammo!/Nanners/Feesh saves and Yum Yum by information-set tree "
    "search over worlds drawn from what its seat sees, ITERS playouts per decision, default 1000;"
    " knobs explore=C (UCB1, 0.5), switch=Z (its choice replaces the heuristic's only when "
    "its mean leads by more than Z standard errors, 1; 0: the most visited choice) and ms=MS "
    "(a time budget per decision; alone it lifts the "
    "playout cap; the games then depend on the machine's speed and load, so a seed no longer "
    "fixes them: ITERS does); its other choices and knobs as heuristic); knobs after the bot, each after "
    "a ':', e.g. heuristic:stop-at=4:yumyum-at=0, rollout:8:stop-at=4 or search:200:explore=1 "
    "(knobs: stop-at, bonus-stop-at, blammo-saves, nanners-saves, pie, feesh, shiny, keep, "
    "steal-from, react, block, block-with, yumyum-at, trash-tree, band-by, cut-1, cut-2, "
    "stop-at-2, stop-at-3, feesh-saves, decline-last-card); rule:FILE.json plays a stop rule written by "
    "`trash-pandas game-advice --out`.")
SeatsOpt = seats_option(BOTS_HELP + " Default: heuristic.")
DecideSeatsOpt = seats_option(
    BOTS_HELP + " Default: solver (the exact turn solver's roll-or-stop; the strongest bot "
    "within decide's budget: one solver seat among heuristics wins about 0.027 more).")
OldPolicyOpt = renamed("--policy", "the line-up is --seats BOT (a single bot plays every seat)")
DEFAULT_GAMES = 20_000


def game(players: PlayersOpt = 3, n: trials("games", DEFAULT_GAMES) = None,
         seats: SeatsOpt = None, vs: LineupVsOpt = None, seed: SeedOpt = None,
         precision: PrecisionOpt = None, time_limit: TimeLimitOpt = None,
         progress: ProgressOpt = None, rules_file: RulesOpt = None, set_: SetOpt = None,
         out_dir: OutOpt = None, chart: ChartOpt = False, json: JsonOpt = False,
         _policy: OldPolicyOpt = None):
    """Whole games between bots: win rate per seat, points, margin, length, busts, bonus turns
    and card plays, each with SE and 95% interval; --vs replays the same games with another
    line-up and reports the paired change in each seat's win rate. --out DIR writes the seats,
    game-length (and --vs) tables; --chart adds charts of the win rate per seat with intervals,
    the game-length distribution and, with --vs, the paired change per line-up (PNG and SVG).

    A rollout:K seat decides roll/stop (and Blammo!/Nanners on a repeat) by K determinized
    rollouts of the rest of the game played by the base bots (each seat's own; a rollout seat's
    is heuristic with its knobs), leaving the heuristic's choice only when the paired lead
    exceeds two standard errors; it plays a few hundred games a second, so use a small -n.

    Examples:

      pushluck trash-pandas game --players 3 -n 20000 --seed 1

      pushluck trash-pandas game --players 2 --seats heuristic --vs solver,heuristic --seed 7

      pushluck trash-pandas game --players 4 --set deal=2345 -n 20000 --json

      pushluck trash-pandas game --seats rollout:8,heuristic,heuristic -n 200 --seed 1

      pushluck trash-pandas game -n 20000 --vs solver,heuristic,heuristic --out tp-games --chart
    """
    from analyzer.errors import UserError
    from analyzer.games.trash_pandas.lineup import parse_lineup
    from analyzer.games.trash_pandas.whole import GameSetup, render_game, simulate_games
    from analyzer.output import emit, note

    if chart and out_dir is None:
        raise UserError("--chart writes into --out DIR: give --out too")
    r = _whole_rules(rules_file, set_)
    lineups = [parse_lineup(seats, players)]
    lineups += [parse_lineup(v, players, "--vs") for v in (vs or [])]
    setup = GameSetup(r, players, lineups)
    spec = run_spec(trials_or_default(n, precision, DEFAULT_GAMES), seed, precision, time_limit,
                    progress, json)
    out = simulate_games(setup, spec)
    if out_dir is not None:
        from analyzer.games.trash_pandas.whole_charts import write_game

        files = write_game(out, out_dir, chart)
        out["files"] = [str(f) for f in files]
        note("wrote " + ", ".join(out["files"]))
    emit(out, json, lambda: render_game(out))


def decide(position: PositionArg = None, example: ExampleOpt = None,
           seats: DecideSeatsOpt = None, n: DecideTrialsOpt = None,
           seed: SeedOpt = None, precision: PrecisionOpt = None,
           time_limit: TimeLimitOpt = None, progress: ProgressOpt = None,
           rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False,
           belief: BeliefOpt = "model", _policy: OldPolicyOpt = None):
    """Roll or stop (or, after a roll, take / Blammo! / Nanners / a Feesh fetching one of them
    from the discard pile) in chance of winning: every
    choice is played out to the end of the game on the same deals of the unseen cards (drawn
    from --belief), by the bots of --seats (default solver in every seat); the answer names
    them, and the exact turn-level answer is shown beside it. `trash-pandas position
    --template` prints a commented position file (seats count from 1).

    Examples:

      pushluck trash-pandas decide --example basic --seed 1

      pushluck trash-pandas position --template > my_position.toml

      pushluck trash-pandas decide my_position.toml --precision 0.02 --json
    """
    from analyzer.examples import position_file
    from analyzer.games.trash_pandas.belief import check_belief
    from analyzer.games.trash_pandas.position import build_position, check_position
    from analyzer.games.trash_pandas.score import WHOLE_CARDS, whole_deck
    from analyzer.output import emit
    from analyzer.rules import load_toml

    check_belief(belief)
    path = position_file("trash-pandas", position, example)
    r = _whole_rules(rules_file, set_)
    cards = whole_deck(r.deck)
    checked = check_position(load_toml(path), [cards[k].copies for k in WHOLE_CARDS],
                             r.bonus_cap, reveal_to_hand=r.mask_card == "hand")
    # the position is good: only now the simulation's modules (NumPy, the kernels)
    from analyzer.games.trash_pandas.decide import decide as run_decide, render_decide

    pos = build_position(checked)
    setup = decide_setup(r, pos.players, seats, cards)
    spec = run_spec(trials_or_default(n, precision, DECIDE_PLAYOUTS), seed, precision,
                    time_limit, progress, json)
    out = run_decide(pos, setup, spec, belief)
    emit(out, json, lambda: render_decide(out))


def decide_setup(rules, players: int, seats, cards=None):
    """The GameSetup `decide` plays from: ``rules``' deck (``cards``, if read already) and the
    line-up of --seats (default: solver in every seat); analyzer/shipped_cache.py builds the
    default setups through it."""
    from analyzer.games.trash_pandas.lineup import DECIDE_BOT, parse_lineup
    from analyzer.games.trash_pandas.score import deck_arrays, whole_deck
    from analyzer.games.trash_pandas.whole import GameSetup

    cards = cards if cards is not None else whole_deck(rules.deck)
    lineup = parse_lineup(seats, players, default=DECIDE_BOT)
    return GameSetup(rules, players, [lineup], deck=deck_arrays(deck=cards), from_setup=False)


GAME_EPILOG = ("Examples:\n\n  pushluck trash-pandas game --players 2 -n 50000 --seed 7\n\n"
               "  pushluck trash-pandas game --seats heuristic:stop-at=4,heuristic,random "
               "--vs heuristic --seed 7")
DECIDE_EPILOG = ("Examples:\n\n  pushluck trash-pandas decide --example basic --precision 0.01 "
                 "--seed 3")


def register(app: typer.Typer) -> None:
    """Add `game`, `decide` and `calibrate` (cli_calibrate.py) to the Trash Pandas app
    (analyzer/games/trash_pandas/cli.py)."""
    from analyzer.games.trash_pandas.cli_calibrate import register as register_calibrate

    app.command(epilog=GAME_EPILOG)(game)
    app.command(epilog=DECIDE_EPILOG)(decide)
    register_calibrate(app)
