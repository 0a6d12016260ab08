"""`pushluck trash-pandas game|decide|whole-rules`: whole games between bots and positions.

Until the one-package-per-game layout lands these commands live in their own Typer app (``app``);
``python -m analyzer.games.trash_pandas_whole.cli …`` runs it with the project's error handling.
"""
from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from analyzer.games.trash_pandas_whole.bots import POLICY_HELP
from analyzer.options import (JsonOpt, PrecisionOpt, ProgressOpt, RulesOpt, SeedOpt, SetOpt,
                              TimeLimitOpt, VsOpt, run_spec, trials)

app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="""Trash Pandas, whole games:
bots playing every card, and "should I roll?" in chance of winning.

Examples:

  pushluck trash-pandas game --players 3 -n 20000 --seed 1

  pushluck trash-pandas game --seats solver,heuristic,heuristic --vs heuristic --seed 1

  pushluck trash-pandas decide analyzer/data/trash_pandas_position_example.toml --seed 1""")

PlayersOpt = Annotated[int, typer.Option("--players", min=2, max=4, help="Players (2-4).")]
SeatsOpt = Annotated[Optional[str], typer.Option(
    "--seats", metavar="A,B,...", help="One bot per seat (a single bot: every seat); separate "
    "seats with ';' when a bot has several knobs. " + POLICY_HELP)]
PolicyOpt = Annotated[Optional[str], typer.Option(
    "--policy", metavar="BOT", help="The bot for every seat (same as --seats with one bot).")]


def whole_rules(rules_file, sets):
    from analyzer.games.trash_pandas_whole.rules import WholeGameRules
    from analyzer.rules import build_rules

    return build_rules(WholeGameRules, rules_file, sets)


@app.command("whole-rules")
def whole_rules_cmd(json: JsonOpt = False):
    """List the whole-game house-rule keys with their defaults."""
    from analyzer.games.trash_pandas_whole.rules import WholeGameRules
    from analyzer.options import show_rules

    show_rules(WholeGameRules, json, game="trash-pandas")


@app.command(epilog="Examples:\n\n  pushluck trash-pandas game --players 2 -n 50000 --seed 7\n\n"
             "  pushluck trash-pandas game --seats 'heuristic:stop-at=4;heuristic;random' "
             "--vs heuristic --seed 7")
def game(players: PlayersOpt = 3, n: trials("games", 20_000) = 20_000, seats: SeatsOpt = None,
         policy: PolicyOpt = None, vs: VsOpt = None, seed: SeedOpt = None,
         precision: PrecisionOpt = None, time_limit: TimeLimitOpt = None,
         progress: ProgressOpt = None, rules_file: RulesOpt = None, set_: SetOpt = None,
         json: JsonOpt = False):
    """Whole games between bots: win rate per seat, points, margin, length, busts, bonus turns
    and card plays, each with SE and 95% interval; --vs replays the same games with another
    line-up and reports the paired change in each seat's win rate."""
    from analyzer.errors import UserError
    from analyzer.games.trash_pandas_whole.bots import parse_lineup
    from analyzer.games.trash_pandas_whole.play import GameSetup, simulate_games
    from analyzer.output import emit

    if seats and policy:
        raise UserError("give --seats or --policy, not both")
    r = whole_rules(rules_file, set_)
    lineups = [parse_lineup(seats, policy, players)]
    lineups += [parse_lineup(v, None, players) for v in (vs or [])]
    setup = GameSetup(r, players, lineups)
    spec = run_spec(None if precision is not None and n == 20_000 else n, seed, precision,
                    time_limit, progress, json)
    out = simulate_games(setup, spec)
    emit(out, json, lambda: render_game(out))


def render_game(out: dict) -> str:
    from analyzer.output import table

    lines = [f"Trash Pandas, {out['players']} players, n = {out['n']:,} games, "
             f"seed {out['seed']} (Monte Carlo; ± is one SE, [95% interval])"]
    for k, lu in enumerate(out["lineups"]):
        lines.append("")
        lines.append(f"line-up {k + 1}: {lu['lineup']}")
        rows = [(f"seat {s['seat']}", s["win_rate"].format(4), s["points"].format(2))
                for s in lu["seats"]]
        lines.append(table(rows, ["", "win rate", "points"], "lll"))
        for key in ("turns", "rounds", "margin", "main_busts", "bonus_turns"):
            lines.append(f"  {key:<22} {lu[key].format(3)}")
        lines.append(f"  {'bust rate per turn':<22} {lu['bust_rate_per_turn'].format(4)}")
        lines.append(f"  {'decided by tie-break':<22} {lu['tiebreak_share'].format(4)}")
        plays = ", ".join(f"{k} {lu[k].estimate:.2f}" for k in
                          ("blammo", "nanners", "yumyum", "doggo", "kitteh", "pie", "feesh",
                           "shiny", "paw_steals", "shiny_steals", "mask_reactions"))
        lines.append(f"  per game: {plays}")
        for d in lu.get("vs_first", []):
            lines.append(f"  seat {d['seat']} win rate vs line-up 1: "
                         f"{d['win_rate_change'].format(4)} → {d['verdict']}")
    lines.append("")
    lines.append(f"first-player advantage (seat 1 win rate − 1/{out['players']}): "
                 f"{out['first_player_advantage'].format(4)}")
    lines.append(f"games per second: {out['games_per_second']:,.0f}")
    return "\n".join(lines)


@app.command(epilog="Examples:\n\n  pushluck trash-pandas decide "
             "analyzer/data/trash_pandas_position_example.toml --precision 0.01 --seed 3")
def decide(position: Annotated[str, typer.Argument(metavar="POSITION.toml", help=(
               "The position (format: analyzer/games/trash_pandas_whole/position.py and the "
               "README)."))],
           n: trials("playouts per choice", None) = None, policy: PolicyOpt = None,
           seed: SeedOpt = None, precision: PrecisionOpt = None,
           time_limit: TimeLimitOpt = None, progress: ProgressOpt = None,
           rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Roll or stop (or, after a roll, take / Blammo! / Nanners) in chance of winning: every
    choice is played out to the end of the game on the same determinized deals, by the bot
    given with --policy for every seat (default heuristic); the exact turn-level answer is shown
    beside it."""
    from analyzer.games.trash_pandas_whole.bots import parse_lineup
    from analyzer.games.trash_pandas_whole.decide import decide as run_decide
    from analyzer.games.trash_pandas_whole.play import GameSetup
    from analyzer.games.trash_pandas_whole.position import parse_position
    from analyzer.games.trash_pandas_whole.rules import deck_arrays
    from analyzer.output import emit
    from analyzer.rules import load_toml

    r = whole_rules(rules_file, set_)
    deck = deck_arrays(r.deck)
    pos = parse_position(load_toml(position), deck, r.bonus_cap)
    if n is None and precision is None:
        n = 20_000
    setup = GameSetup(r, pos.players, [parse_lineup(None, policy, pos.players)], deck=deck,
                      from_setup=False)
    spec = run_spec(n, seed, precision, time_limit, progress, json)
    out = run_decide(pos, setup, spec)
    emit(out, json, lambda: render_decide(out))


def render_decide(out: dict) -> str:
    lines = [f"Trash Pandas decide: n = {out['n']:,} playouts per choice, seed {out['seed']}"]
    base = out["choices"][0]["choice"]
    for row in out["choices"]:
        extra = ""
        if "vs_" + base in row:
            extra = f"   change vs {base}: {row['vs_' + base].format(4)}"
        lines.append(f"  {row['choice']:<8} P(win) = {row['p_win'].format(4)}{extra}")
    lines.append(f"  → {out['recommendation']}" + (f" ({out['note']})" if out["note"] else ""))
    t = out["turn_level"]
    if "ev_stop" in t:
        roll = "—" if t["ev_roll"] is None else f"{t['ev_roll']:.3f}"
        lines.append(f"  turn-level (exact, card-equivalents): stop {t['ev_stop']:.3f}, roll "
                     f"{roll} → {t['recommendation']}")
    else:
        lines.append(f"  turn-level (exact, card-equivalents): {t['recommendation']} "
                     f"({t['value']:.3f})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Run ``app`` with the project's error handling (one line on stderr, exit 2)."""
    from analyzer.errors import UserError

    try:
        from typer._click import exceptions as click_exc
    except ImportError:  # pragma: no cover
        from click import exceptions as click_exc
    command = typer.main.get_command(app)
    try:
        command.main(args=argv, prog_name="pushluck trash-pandas", standalone_mode=False)
    except UserError as exc:
        sys.stderr.write(f"pushluck: error: {' '.join(str(exc).split())}\n")
        sys.exit(2)
    except click_exc.UsageError as exc:
        sys.stderr.write(f"pushluck trash-pandas: error: {exc.format_message()} (see --help)\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
