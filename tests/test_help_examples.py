"""Every example in every `--help` (and epilog) works from an empty folder (issue 35, item 2).

Each command's help examples run in order in a fresh temporary folder (the current folder of
this process), so an example may use a file an earlier one of the same help wrote (`advice --out
DIR` then `simulate --policy rule:DIR/…`; `position --template > my_position.toml` then `decide
my_position.toml`). What is run, honestly:

* exact and cheap commands run exactly as printed, but for the exact `advice` searches, which
  search the single thresholds only (``--bands 1 --clauses 1``: seconds instead of a minute);
* Monte Carlo commands run as printed but for the sample size: ``-n`` becomes :data:`SMALL`
  (added when the example has none, as a cap beside ``--precision``; a ladder's deals, a
  calibrate's positions, whose playouts per choice become :data:`PLAYOUTS`), so the whole file
  takes seconds, not the minutes the printed sizes would;
* the long races and batch runs (:data:`PARSE_ONLY`: `game-advice`, the Monte Carlo `advice`
  races, `report`, `tune`, `bench`) and any example that reads a folder one of them would have
  written are parsed by the real command line (every option and argument converted and
  checked, old spellings refused) but not run.

Every example run must exit 0 with no traceback; every parsed one must parse.
"""
from __future__ import annotations

import shlex

import pytest

from tests.clitree import examples, root, walk
from tests.fuzz_harness import run_inprocess

SMALL = 40
SMALL_LADDER = 6  # a ladder's deals: each deal is played by every line-up (search bots: slow)
PLAYOUTS = 16  # calibrate: playouts per choice of each position
MONTE_CARLO = ("simulate", "game", "decide", "thresholds", "meld-odds", "best", "calibrate",
               "ladder")
EXACT = {("pig", "decide"), ("ten", "best")}  # named like a Monte Carlo command, but exact
EXACT_ADVICE = ("pig", "trash-pandas", "ten")
#: (game or verb, command or None for all): run only through the parser (module doc)
PARSE_ONLY = {("trash-pandas", "game-advice"), ("ten", "game-advice"), ("gostop", "advice"),
              ("canasta", "advice"), ("magdagdon", "advice"), ("report", None), ("tune", None),
              ("bench", None), ("play", None)}  # play: the app needs a terminal, a script
#                                                     the user's own file of entries
#: what a parse-only command may leave out of the parse-only rule: listings that run in no time
CHEAP = {("report", "--list"), ("tune", "--list-metrics")}

HELPS = [(p, examples(c)) for p, c in walk() if examples(c)]


def _words(line: str) -> tuple[list[str], str | None]:
    """(argv after `pushluck`, the file a `> FILE` redirect writes, if any)."""
    words = shlex.split(line)
    assert words[0] == "pushluck", line
    words = words[1:]
    if ">" in words:
        i = words.index(">")
        return words[:i], words[i + 1]
    return words, None


def _parse_only(argv: list[str], skipped_dirs: set[str]) -> bool:
    head = (argv[0], argv[1] if len(argv) > 1 and not argv[1].startswith("-") else None)
    if any((head[0], c) in PARSE_ONLY for c in (head[1], None)):
        return not any((argv[0], a) in CHEAP for a in argv)
    return any(d in a for a in argv for d in skipped_dirs)


def _small(argv: list[str]) -> list[str]:
    """``argv`` with a Monte Carlo sample size of at most :data:`SMALL`, and the exact advice
    searches over single thresholds (``--bands 1 --clauses 1``: the same code, a smaller
    family; the rule files written keep their names, rule_cx2.json the best threshold)."""
    sub = argv[1] if len(argv) > 1 else ""
    if sub == "advice" and argv[0] in EXACT_ADVICE:
        return argv + [w for flag in ("--bands", "--clauses") if flag not in argv
                       for w in (flag, "1")]
    if sub not in MONTE_CARLO or (argv[0], sub) in EXACT:
        return argv
    out = list(argv)
    if sub == "calibrate":  # its second sample size: playouts per choice of each position
        out += ["--playouts", str(PLAYOUTS)] if "--playouts" not in out else []
        i = out.index("--playouts")
        out[i + 1] = str(min(int(out[i + 1]), PLAYOUTS))
    small = SMALL_LADDER if sub == "ladder" else SMALL
    for flag in ("-n", "--trials"):
        if flag in out:
            i = out.index(flag)
            out[i + 1] = str(min(int(out[i + 1]), small))
            return out
    return out + ["-n", str(small)]


def _parses(argv: list[str]) -> None:
    """Resolve ``argv`` with the real command line: every option converted and its callback
    run, without invoking the command."""
    command = root()
    ctx = command.make_context("pushluck", list(argv))
    while hasattr(command, "list_commands"):  # a group: the rest names a sub-command (as
        rest = [*ctx._protected_args, *ctx.args]  # TyperGroup.invoke reads it)
        name, sub, args = command.resolve_command(ctx, rest)
        ctx = sub.make_context(name, args, parent=ctx)
        command = sub


@pytest.mark.parametrize("path,lines", HELPS, ids=[" ".join(p) or "pushluck" for p, _l in HELPS])
def test_every_help_example_works_from_an_empty_folder(path, lines, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    skipped_dirs: set[str] = set()
    for line in lines:
        argv, into = _words(line)
        if _parse_only(argv, skipped_dirs):
            _parses(argv)
            if "--out" in argv:
                skipped_dirs.add(argv[argv.index("--out") + 1].rstrip("/") + "/")
            continue
        code, out, err, tb = run_inprocess(_small(argv), timeout=240)
        assert not tb and code == 0, f"{line}\n{err[-2000:]}{tb[-2000:]}"
        if into:
            (tmp_path / into).write_text(out)


def test_the_small_runs_only_shrink_the_sample():
    assert _small(["ten", "calibrate", "--playouts", "500", "-n", "300"]) == \
        ["ten", "calibrate", "--playouts", str(PLAYOUTS), "-n", str(SMALL)]
    assert _small(["ten", "calibrate", "--seed", "1"]) == \
        ["ten", "calibrate", "--seed", "1", "--playouts", str(PLAYOUTS), "-n", str(SMALL)]
    assert _small(["ten", "simulate", "-n", "1000000", "--seed", "7"]) == \
        ["ten", "simulate", "-n", str(SMALL), "--seed", "7"]
    assert _small(["ten", "decide", "--example", "basic", "--precision", "0.01"]) == \
        ["ten", "decide", "--example", "basic", "--precision", "0.01", "-n", str(SMALL)]
    assert _small(["ten", "odds", "--tableau", "r5"]) == ["ten", "odds", "--tableau", "r5"]
    assert _small(["pig", "decide", "--me", "80"]) == ["pig", "decide", "--me", "80"]
    assert _small(["pig", "advice", "--out", "x"]) == \
        ["pig", "advice", "--out", "x", "--bands", "1", "--clauses", "1"]
    assert _small(["trash-pandas", "advice", "--blammo", "1", "--bands", "2"]) == \
        ["trash-pandas", "advice", "--blammo", "1", "--bands", "2", "--clauses", "1"]
    assert _small(["ten", "best", "--tableau", "r5"]) == ["ten", "best", "--tableau", "r5"]


def test_the_parser_check_refuses_what_the_command_line_refuses():
    from analyzer.cli.main import _click_exc
    from analyzer.errors import UserError

    _parses(["ten", "game", "--seats", "threshold", "-n", "5"])
    for bad in (["ten", "game", "--no-such-option"], ["gostop", "decide", "--position", "x"],
                ["ten", "game", "-n", "0"], ["ten", "nosuchcommand"]):
        with pytest.raises((_click_exc.UsageError, UserError)):
            _parses(bad)
    assert _parse_only(["ten", "game-advice", "--seed", "2"], set())
    assert _parse_only(["ten", "game", "--seats", "rule:advice/rule_cx2.json"], {"advice/"})
    assert not _parse_only(["report", "--list"], set())
    assert not _parse_only(["ten", "game", "--seats", "threshold"], {"advice/"})


def _bench_commands():
    """The command lines `pushluck bench` runs: every BenchQuery's, and those a
    ``commands_warm`` entry runs (read from its closure: benchkit keeps them nowhere else)."""
    from analyzer.benchkit import BenchQuery, BenchWarm
    from analyzer.games import all_games

    out = []
    for game in all_games():
        for case in game.load("bench"):
            if isinstance(case, BenchQuery):
                out.append(list(case.argv))
            elif isinstance(case, BenchWarm) and case.run.__closure__:
                for cell in case.run.__closure__:
                    value = cell.cell_contents
                    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
                        out += [list(c) for c in value]
    return out


def test_every_command_bench_runs_parses():
    """Bench runs these as whole processes (`bench --queries`, `bench --warm`); an old
    spelling in one of them would fail only there."""
    commands = _bench_commands()
    assert len(commands) > 15 and any(c[:2] == ["gostop", "decide"] for c in commands)
    for argv in commands:
        _parses(argv)
