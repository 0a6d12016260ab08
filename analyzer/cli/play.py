"""`pushluck play GAME`: the table companion (analyzer/play/). With --script FILE it reads the
entries from a file and prints; without, it opens the Textual app (imported here, lazily, so
`pushluck --help` never loads Textual)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from analyzer.options import JsonOpt, RulesOpt, SeedOpt, SetOpt, trials

PLAY_HELP = """Follow a real game at the table and answer at each of my choices in chance of
winning (the same playouts as `decide`, refined while you think).

Enter what happens in a few words (rolls, cards taken, played, stashed, stolen; draws, stops,
auctions, buys); impossible entries are refused at once with the reason; Ctrl+Z undoes,
Ctrl+S saves the position in the `decide` format into --out DIR (default ./pushluck-play/),
F1 lists every key. --script FILE reads the entries from a file and prints
the position after each and the answer at each of my choices."""

MeOpt = Annotated[int, typer.Option("--me", metavar="SEAT", help="My seat (seats count from 1).")]
ScriptOpt = Annotated[Optional[str], typer.Option(
    "--script", metavar="FILE", help="Read the entries from FILE (one a line, # comments) and "
    "print instead of opening the app.")]
DEFAULT_PLAYOUTS = 400
PlayoutsOpt = trials("playouts per choice", DEFAULT_PLAYOUTS, precision=False,
                     note=": about a second; the app then refines with 4 and 16 times as many "
                          "while you think")
LoadOpt = Annotated[Optional[str], typer.Option(
    "--load", metavar="FILE", help="Open the app after the entries of FILE (a script, or a "
    "position saved by play: its '#> ' lines).")]
SaveOpt = Annotated[Optional[str], typer.Option(
    "--save", metavar="NAME.toml", help="The file name the position is saved under, inside "
    "--out (Ctrl+S in the app; with --script the position after the last entry, saved only "
    "when --save or --out is given; where decide would misread the position, the file "
    "holds the game's entries only, for --load). Default: position.toml.")]
PlayOutOpt = Annotated[Optional[str], typer.Option(
    "--out", metavar="DIR", help="The folder saved positions go into (created if needed; "
    "nothing is written outside it). Default: ./pushluck-play/.")]
SeatsOpt = Annotated[Optional[str], typer.Option(
    "--seats", metavar="BOT,BOT,…", help="The bots that play the rest of the game in each "
    "answer, as `decide --seats` (default: solver in Trash Pandas, exact in Ten).")]
DEFAULT_OUT = "pushluck-play"
DEFAULT_SAVE = "position.toml"


def _seat(me: int, players: int) -> int:
    from analyzer.seats import seat_number

    return seat_number(me, "--me", players)


def save_name(save: str | None) -> str:
    """The saved position's file name (``--save``): a plain name, which lands inside --out."""
    from analyzer.errors import UserError

    name = DEFAULT_SAVE if save is None else save
    if not name.strip() or name in (".", "..") or "/" in name or "\x00" in name:
        raise UserError(f"--save {name!r}: give a file name, saved inside --out DIR (e.g. "
                        f"--out games --save {DEFAULT_SAVE})")
    return name


class Saver:
    """Saves the table's position as ``out/name``: the folder is checked (and created) by
    the rules of every --out (analyzer/output.py check_output_dir) at the first save, and the
    file written inside it without following a link (bad targets: one line)."""

    def __init__(self, table, out: str, name: str):
        self.table, self.out, self.name = table, out, name
        self.path = str(Path(out) / name)
        self.checked = False

    def check(self) -> None:
        """The folder as every --out, and the file's place: missing or a regular file (a
        link, folder or FIFO there is refused now, not after the work; the write checks it
        again)."""
        import os
        import stat

        from analyzer.errors import UserError
        from analyzer.output import check_output_dir

        if not self.checked:
            check_output_dir(self.out)
            try:
                mode = os.lstat(self.path).st_mode
            except FileNotFoundError:
                mode = None
            except OSError as exc:
                raise UserError(f"cannot save to {self.path}: {exc.strerror}") from None
            if mode is not None and stat.S_ISLNK(mode):
                raise UserError(f"refusing to replace the symbolic link {self.path}")
            if mode is not None and not stat.S_ISREG(mode):
                raise UserError(f"refusing to write {self.path}: it exists and is not a "
                                f"regular file")
            self.checked = True

    def __call__(self) -> str:
        self.check()
        self.table.save(self.path, root=self.out)
        return self.path


def _run(table, script, load, n, seed, save, out, as_json, ask_kw: dict) -> None:
    """The script mode, or the app."""
    from analyzer.errors import UserError
    from analyzer.options import run_spec
    from analyzer.play.script import read_script

    spec = run_spec(n, seed, as_json=as_json)
    saver = Saver(table, out or DEFAULT_OUT, save_name(save))
    if script is None:
        if as_json:
            raise UserError("--json needs --script (the app prints nothing)")
        if out is not None:
            saver.check()  # a folder named by the user: a bad one fails now, in one line
        if load is not None:
            table.replay([e for _, e in read_script(load)])
        from analyzer.play.app import run_app

        run_app(table, n, spec.seed, saver, ask_kw)
        return
    import sys

    from analyzer.output import emit
    from analyzer.play.answer import answer
    from analyzer.play.script import run_script

    if load is not None:
        raise UserError("--load opens the app where a game left off; with --script give one "
                        "file")

    entries = read_script(script)
    saving = save is not None or out is not None
    if saving:
        saver.check()  # before the work: a bad folder fails at once

    def ask(t):
        return answer(t, n, spec.seed, **ask_kw)

    steps = run_script(table, entries, ask, None if as_json else sys.stdout.write)
    if saving:
        from analyzer.output import note

        where = saver()
        why = table.save_refusal()
        note(f"wrote {where}" if why is None else
             f"wrote {where}: the game's entries only, reopen with --load ({why})")
    if as_json:
        emit({"game": table.GAME, "players": table.players, "me": table.me + 1,
              "seed": spec.seed, "n": n, "steps": steps, "position": table.position()},
             True, lambda: "")


def trash_pandas(players: Annotated[int, typer.Option("--players", min=2, max=4, metavar="N",
                                                      help="Players (2-4).")] = 3,
                 me: MeOpt = 1, script: ScriptOpt = None, n: PlayoutsOpt = DEFAULT_PLAYOUTS,
                 seats: SeatsOpt = None, belief: Annotated[str, typer.Option(
                     "--belief", metavar="NAME", help="The belief about unseen cards, as "
                     "`trash-pandas decide --belief`: model (default), rules, uniform.")]
                 = "model", seed: SeedOpt = None, save: SaveOpt = None,
                 out: PlayOutOpt = None, load: LoadOpt = None, rules_file: RulesOpt = None,
                 set_: SetOpt = None, json: JsonOpt = False):
    """Trash Pandas at the table: enter rolls and cards as they happen; at each of my
    roll-or-stop and take-or-spend choices the chance of winning of each choice.

    Entries (@N first: seat N did it, else the active seat): deal CARD… (my dealt hand,
    first), roll FACE, take, bust, stop, play CARD, draw N | draw CARD…, reveal CARD,
    stash N | stash CARD…, stashup CARD, fetch CARD, steal SEAT hand|down|up [CARD], end.
    Cards: blammo, doggo, feesh, kitteh, pie, nanners, shiny, yumyum; faces: trash, trees,
    trash-tree, paw, mask, recycle. I name the cards that enter or leave my hand; an
    opponent's unseen cards are counted (draw 2, stash 1).

    Examples:

      pushluck play trash-pandas --players 3 --me 2

      pushluck play trash-pandas --players 3 --me 2 --script my_game.txt --seed 1

      pushluck play trash-pandas --players 2 --me 1 --script my_game.txt --out games --save pos.toml

      pushluck play trash-pandas --players 2 --me 1 --load games/pos.toml
    """
    from analyzer.games.trash_pandas.belief import check_belief
    from analyzer.play.trash_pandas import TrashPandasTable

    from analyzer.games.trash_pandas.cli_whole import _whole_rules

    check_belief(belief)
    table = TrashPandasTable(players, _seat(me, players), _whole_rules(rules_file, set_))
    _run(table, script, load, n, seed, save, out, json, {"belief": belief, "seats": seats})


def ten(players: Annotated[int, typer.Option("--players", min=1, max=5, metavar="N",
                                             help="Players (1-5).")] = 4,
        me: MeOpt = 1, script: ScriptOpt = None, n: PlayoutsOpt = DEFAULT_PLAYOUTS,
        seats: SeatsOpt = None, seed: SeedOpt = None, save: SaveOpt = None,
        out: PlayOutOpt = None, load: LoadOpt = None, rules_file: RulesOpt = None,
        set_: SetOpt = None, json: JsonOpt = False):
    """Ten at the table: enter the cards drawn, rewards, auctions and buys; at each of my
    draw-or-stop, buy and bid choices the chance of winning of each choice.

    Entries (@N first: seat N did it, else the active seat): draw CARD, numbers, currency,
    buy CARD [Nt] [Nb] [CARD…], end; a drawn wild's auction bid by bid: bid N or pass (the
    seat to bid, from the one left of the active seat, the active seat last), then
    pay [Nt] [Nb] [CARD…] (the winner); won SEAT [payment] and nobody (a whole auction at
    once, before any bid). Cards as `ten` writes them: r5, $3, r#, *5, **. My buy in the
    final buy round is answered exactly when the later buyers buy by rule.

    Examples:

      pushluck play ten --players 4 --me 1

      pushluck play ten --players 3 --me 2 --script my_game.txt --seed 1
    """
    from analyzer.games.ten.cli_whole import _rules
    from analyzer.play.ten import TenTable

    rules, deck_spec = _rules(rules_file, set_, None)
    table = TenTable(players, _seat(me, players), rules)
    _run(table, script, load, n, seed, save, out, json, {"seats": seats})


def register(root: typer.Typer) -> None:
    """Add `play` to ``root``: a new sub-app each time (a module-level one gained its two commands
    again on every build, and a process building the CLI often, as the tests do, slowed
    quadratically)."""
    app = typer.Typer(help=PLAY_HELP, no_args_is_help=True, rich_markup_mode=None,
                      pretty_exceptions_enable=False, add_completion=False)
    app.command("trash-pandas")(trash_pandas)
    app.command("ten")(ten)
    root.add_typer(app, name="play", help=PLAY_HELP,
                   short_help="Follow a real game at the table; answers at each of my choices.")
