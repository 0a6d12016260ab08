"""Hostile names inside --out are refused before any work (issue 33, second round).

A symbolic link (even a dangling one), a folder or a FIFO where a command writes one of its
files was refused only when the file was written, after the work: `tune --sweep` with
OUT/cells.md a folder simulated every cell and then failed. Now each command's output names are
listed once (:data:`analyzer.output.OUTPUT_NAMES`) and checked before the command starts
(:func:`analyzer.output.preflight_out`); a report refuses a folder at a part's file before the
part (and any other) is computed (:func:`analyzer.report_folder.refuse_in_the_way`).

"Before any work" is shown by a sample size that would run for hours (10^11 trials): the command
must end at once, in one line with exit 2, with nothing written.
"""
from __future__ import annotations

import fnmatch
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIG = "100000000000"  # 10^11 trials: hours of work if the command started it
TUNE_BIG = "10000000000"  # tune's most: 10^10 trials per cell in the first round


def _run(argv: list[str], timeout: float = 120.0) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "analyzer", *argv], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def _plant(target: Path, kind: str, outside: Path) -> None:
    if kind == "link":
        target.symlink_to(outside / "victim.txt")
    elif kind == "dangling":
        target.symlink_to(outside / "made-through-a-link")
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        target.mkdir()
        (target / "inside.txt").write_text("keep me too")


def _tree(folder: Path) -> dict:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() and not p.is_symlink()
                                         else os.readlink(p) if p.is_symlink() else "other")
            for p in sorted(folder.rglob("*"))}


# (argv without --out, a name the command writes there, the kind planted at it)
CASES = {
    "pig solve": (["pig", "solve", "--goal", "20", "--chart"], "hold_boundary.svg", "link"),
    "trash-pandas policy": (["trash-pandas", "policy"], "policy.csv", "fifo"),
    "pig advice": (["pig", "advice", "--set", "goal=20", "--bands", "1", "--clauses", "1"],
                   "rule_cx2.json", "folder"),
    "ten thresholds": (["ten", "thresholds", "-n", BIG, "--seed", "1", "--chart"],
                       "ten_thresholds_total.png", "dangling"),
    "magdagdon simulate": (["magdagdon", "simulate", "-n", BIG, "--seed", "1"],
                           "magdagdon_simulate_scores.md", "folder"),
    "gostop simulate": (["gostop", "simulate", "-n", BIG, "--seed", "1", "--chart"],
                        "gostop_payments.png", "fifo"),
    "trash-pandas game": (["trash-pandas", "game", "-n", BIG, "--seed", "1", "--vs", "random"],
                          "tp_game_vs.csv", "link"),
    "tune --sweep": (["tune", "pig", "--sweep", "goal=20,30", "-n", TUNE_BIG, "--seed", "1"],
                     "cells.md", "folder"),
    "tune --target": (["tune", "pig", "--target", "p_first_wins in [0.5, 0.6]", "--space",
                       "goal=20..30:10", "-n", TUNE_BIG, "--seed", "1"], "search-state.npz",
                      "link"),
    "ten calibrate": (["ten", "calibrate", "--players", "2", "-n", "1000000", "--seed", "1"],
                      "ten_calibrate_bias.md", "dangling"),
    "ten ladder": (["ten", "ladder", "--players", "2", "-n", BIG, "--seed", "1"],
                   "ten_ladder_ratings.csv", "folder"),
    "gostop advice": (["gostop", "advice", "--rounds", "200", "--precision", "0.00001",
                       "--seed", "1"], "rule_cx3.json", "fifo"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_name_in_out_is_refused_before_any_work(tmp_path, case):
    """One line on stderr, exit 2, at once (the work would take hours), nothing written into
    --out or through the link (before: the work ran, then the write was refused, or the
    command never ended within the time allowed)."""
    argv, name, kind = CASES[case]
    out, outside = tmp_path / "out", tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    (outside / "victim.txt").write_text("keep me")
    _plant(out / name, kind, outside)
    before, before_outside = _tree(out), _tree(outside)
    done = _run([*argv, "--out", str(out)])
    assert done.returncode == 2, done.stderr[-800:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and name in lines[0] and "refusing" in lines[0], done.stderr
    assert _tree(out) == before and _tree(outside) == before_outside


@pytest.mark.parametrize("kind", ["link", "dangling", "fifo", "folder"])
def test_every_kind_of_hostile_name_is_named_in_the_line(tmp_path, kind):
    """Each kind of thing in the way is refused and named (in-process: no work starts)."""
    from tests.fuzz_harness import run_inprocess

    out, outside = tmp_path / "out", tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    (outside / "victim.txt").write_text("keep me")
    _plant(out / "policy.csv", kind, outside)
    code, stdout, err, tb = run_inprocess(["pig", "solve", "--goal", "20", "--out", str(out)])
    assert tb == "" and code == 2 and stdout == "", (tb, err)
    word = {"link": "a symbolic link", "dangling": "a symbolic link", "fifo": "a FIFO",
            "folder": "a folder"}[kind]
    assert err == (f"pushluck: error: refusing to write {out / 'policy.csv'}: it is {word}, "
                   "where `pushluck pig solve` writes a file; remove it or choose another "
                   "--out\n")


def test_names_the_command_does_not_write_with_these_options_are_left_alone(tmp_path):
    """A folder at a chart's name is no obstacle without --chart, nor a rule file's name at a
    table command: only the names the command writes with its options are checked."""
    from tests.fuzz_harness import run_inprocess

    out = tmp_path / "out"
    out.mkdir()
    (out / "hold_boundary.png").mkdir()  # pig solve draws it only with --chart
    (out / "rule_cx2.json").mkdir()  # advice's name, not solve's
    code, _stdout, err, tb = run_inprocess(["pig", "solve", "--goal", "20", "--out", str(out)])
    assert tb == "" and code == 0, err
    assert (out / "policy.csv").is_file() and (out / "hold_boundary.png").is_dir()
    code, _stdout, err, tb = run_inprocess(["pig", "solve", "--goal", "20", "--chart",
                                            "--out", str(out)])
    assert code == 2 and "hold_boundary.png: it is a folder" in err, err


def _out_commands():
    """``(path, command)`` of every command that takes --out (games loaded as the CLI does)."""
    from analyzer.cli.main import root_command
    from analyzer.games import game_keys

    top = root_command()
    found = []

    def walk(command, path):
        subs = getattr(command, "commands", None)
        if subs is not None:
            for name, sub in subs.items():
                walk(sub, f"{path} {name}".strip())
        elif any("--out" in getattr(p, "opts", ()) for p in command.params):
            found.append((path, command))

    walk(top, "")
    for game in game_keys():
        walk(top.get_command(None, game), game)
    return found


def test_every_command_that_writes_out_lists_its_names():
    """No command escapes the preflight: each command with --out has its entry, and every
    option an entry depends on is one of the command's own (a typo would never match)."""
    from analyzer.output import OUTPUT_NAMES

    commands = _out_commands()
    assert len(commands) >= 21
    for path, command in commands:
        assert path in OUTPUT_NAMES, path
        params = {p.name for p in command.params} | {"out"}
        for needs in OUTPUT_NAMES[path]:
            assert set(needs) <= params, (path, needs)
        if path != "report":
            assert getattr(command, "_pushluck_guarded", False), path
    paths = {p for p, _c in commands}
    assert set(OUTPUT_NAMES) - paths == {"report all"}


# (argv without --out, the options as the command's parameters see them)
WRITERS = [
    (["pig", "solve", "--goal", "20", "--chart"], "pig solve", {"chart": True}),
    (["trash-pandas", "policy"], "trash-pandas policy", {}),
    (["pig", "advice", "--set", "goal=20", "--bands", "1", "--clauses", "1", "--max-loss",
      "0.01"], "pig advice", {}),
    (["ten", "thresholds", "-n", "200", "--seed", "1", "--chart"], "ten thresholds",
     {"chart": True}),
    (["magdagdon", "simulate", "-n", "20", "--seed", "1", "--chart"], "magdagdon simulate",
     {"chart": True}),
    (["gostop", "simulate", "-n", "50", "--seed", "1", "--chart"], "gostop simulate",
     {"chart": True}),
    (["canasta", "simulate", "-n", "2", "--seed", "1", "--chart"], "canasta simulate",
     {"chart": True}),
    (["trash-pandas", "game", "-n", "30", "--seed", "1", "--vs", "random", "--chart"],
     "trash-pandas game", {"vs": ["random"], "chart": True}),
    (["tune", "pig", "--sweep", "goal=20,30", "-n", "50", "--seed", "1", "--chart"], "tune",
     {"sweep": True, "chart": True}),
    (["tune", "pig", "--target", "p_first_wins in [0.5, 0.6]", "--space", "goal=20..30:10",
      "-n", "64", "--seed", "1", "--budget", "10000", "--chart"], "tune",
     {"target": True, "chart": True}),
]


@pytest.mark.parametrize("argv,command,params", WRITERS,
                         ids=[" ".join(w[0][:2]) + (" target" if "--target" in w[0] else "")
                              for w in WRITERS])
def test_a_command_writes_only_the_names_its_entry_lists(tmp_path, argv, command, params):
    """The list is the truth: each file a run writes matches one of the entry's patterns for
    its options (a renamed or new output file must be listed too, or the preflight would miss
    it)."""
    from analyzer.output import output_patterns

    out = tmp_path / "out"
    done = _run([*argv, "--out", str(out)], timeout=300)
    assert done.returncode == 0, done.stderr[-800:]
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    patterns = output_patterns(command, params)
    assert written and all(any(fnmatch.fnmatchcase(f, p) for p in patterns) for f in written), \
        (written, patterns)


# ------------------------------------------------------------------------------------ report
RECIPE = ('title = "t"\ngame = "pig"\nseed = 1\n[[parts]]\nname = "solve"\n'
          'kind = "pig.solve"\n[[parts]]\nname = "turn"\nkind = "pig.hold-thresholds"\n'
          '[parts.params]\nrange = [15, 20]\n')


@pytest.mark.parametrize("where", ["turn/hold_thresholds.csv", "turn/notes", "index.md",
                                   "style.css"])
def test_report_refuses_a_folder_in_the_way_before_any_part_is_computed(tmp_path, where):
    """A folder at a part's file (or anywhere inside a part's folder: its names are known only
    once computed), or at the report's own pages: one line, exit 2, no part computed, nothing
    written (before: part 'solve' was computed and written, then the error came after the
    progress lines, when part 'turn' wrote hold_thresholds.csv)."""
    recipe = tmp_path / "r.toml"
    recipe.write_text(RECIPE)
    out = tmp_path / "out"
    (out / where).mkdir(parents=True)
    before = _tree(out)
    done = _run(["report", str(recipe), "--out", str(out)])
    assert done.returncode == 2, done.stderr[-800:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(out / where) in lines[0] and "folder" in lines[0], lines
    assert _tree(out) == before


def test_report_all_refuses_a_folder_at_its_top_index_before_any_recipe_runs(tmp_path):
    out = tmp_path / "all"
    (out / "index.html").mkdir(parents=True)
    done = _run(["report", "all", "--out", str(out)])
    assert done.returncode == 2, done.stderr[-800:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "index.html: it is a folder" in lines[0], lines
    assert sorted(p.name for p in out.iterdir()) == ["index.html"]


def test_a_folder_the_parts_own_manifest_lists_files_in_is_not_in_the_way(tmp_path):
    """A part may write files in a sub-folder of its own (report_folder.file_rel allows it):
    its manifest then lists them, and that sub-folder is accepted; another is refused."""
    import hashlib
    import json

    from analyzer.errors import UserError
    from analyzer.report import load_recipe
    from analyzer.report_folder import refuse_in_the_way

    (tmp_path / "r.toml").write_text(RECIPE)
    recipe = load_recipe(tmp_path / "r.toml")
    out = tmp_path / "out"
    (out / "turn" / "sub").mkdir(parents=True)
    (out / "turn" / "sub" / "x.csv").write_text("a\n")
    (out / "parts").mkdir()
    manifest = {"name": "turn", "files": ["turn/sub/x.csv"],
                "sha256": {"turn/sub/x.csv": hashlib.sha256(b"a\n").hexdigest()}}
    (out / "parts" / "turn.json").write_text(json.dumps(manifest))
    refuse_in_the_way(recipe, out)  # listed: accepted
    (out / "turn" / "other").mkdir()
    with pytest.raises(UserError, match="turn/other is a folder inside a part's folder"):
        refuse_in_the_way(recipe, out)
    (out / "turn" / "other").rmdir()
    (out / "turn" / "sub" / "deeper").mkdir()  # inside a listed folder, but not listed itself
    with pytest.raises(UserError, match="turn/sub/deeper is a folder"):
        refuse_in_the_way(recipe, out)


def test_play_names_the_file_its_save_option_names(tmp_path):
    """play writes one file, the name --save gives (default position.toml, the value play
    itself uses): a folder there is refused before the app opens, a folder at another name is
    left alone, and glob characters in the name are the name itself."""
    from analyzer.cli.play import DEFAULT_SAVE
    from analyzer.errors import UserError
    from analyzer.output import NAME_OPTIONS, output_patterns, preflight_out

    assert NAME_OPTIONS["save"] == DEFAULT_SAVE
    assert output_patterns("play ten", {"save": None}) == [DEFAULT_SAVE]
    assert output_patterns("play ten", {"save": "g*.toml"}) == ["g[*].toml"]
    (tmp_path / "mine.toml").mkdir()
    (tmp_path / "gx.toml").mkdir()
    with pytest.raises(UserError, match="mine.toml: it is a folder"):
        preflight_out("play trash-pandas", tmp_path, {"save": "mine.toml"})
    preflight_out("play trash-pandas", tmp_path, {"save": None})  # position.toml is free
    preflight_out("play trash-pandas", tmp_path, {"save": "g*.toml"})  # not gx.toml

