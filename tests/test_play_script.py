"""`pushluck play GAME --script FILE`: entries from a file, the position after each, and at my
choices the same answer `decide` gives on the saved position (same playouts, same seed)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TP_SCRIPT = """# Trash Pandas, 3 players, I am seat 2
deal feesh blammo doggo pie
roll paw
take
roll trash
take
stop
draw 2                  # seat 1's trash
@3 play doggo           # a block, say
stash 2
end
roll mask               # my turn
take
roll paw
take
"""

TEN_SCRIPT = """# Ten, 3 players, I am seat 2
draw r5
draw b4
numbers
end
draw $2
draw r#                 # a wild: '#' inside a card is not a comment
won 1 2t
draw o6
"""


def run(*args):
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True,
                          text=True, timeout=300)


def test_trash_pandas_script_answers_as_decide_does_on_the_saved_position(tmp_path):
    script = tmp_path / "game.txt"
    script.write_text(TP_SCRIPT)
    pos = tmp_path / "pos.toml"
    r = run("play", "trash-pandas", "--players", "3", "--me", "2", "--script", str(script),
            "-n", "96", "--seed", "5", "--belief", "rules", "--out", str(tmp_path), "--save",
            "pos.toml", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert len(out["steps"]) == 14
    choices = [s for s in out["steps"] if s["my_choice"]]
    assert [s["entry"] for s in choices] == ["roll mask", "take", "roll paw", "take"]
    last = choices[-1]["answer"]
    assert [c["choice"] for c in last["choices"]] == ["stop", "roll"]
    d = run("trash-pandas", "decide", str(pos), "-n", "96", "--seed", "5", "--belief", "rules",
            "--json")
    assert d.returncode == 0, d.stderr
    want = json.loads(d.stdout)
    assert [c["p_win"] for c in want["choices"]] == [c["p_win"] for c in last["choices"]]
    assert want["belief"]["history"]["events"] == 3 + 3  # the deal's 3 draws, then draw, play, stash


def test_trash_pandas_text_output_shows_the_position_and_the_interval(tmp_path):
    script = tmp_path / "game.txt"
    script.write_text(TP_SCRIPT)
    r = run("play", "trash-pandas", "--players", "3", "--me", "2", "--script", str(script),
            "-n", "64", "--seed", "1", "--belief", "rules")
    assert r.returncode == 0, r.stderr
    assert "> @3 play doggo" in r.stdout and "discard: 1 Doggo" in r.stdout
    assert r.stdout.count("chance of winning, seat 2, n = 64 playouts per choice") == 4
    assert "    stop       0." in r.stdout and "[" in r.stdout


def test_ten_script_answers_as_decide_does(tmp_path):
    script = tmp_path / "game.txt"
    script.write_text(TEN_SCRIPT)
    pos = tmp_path / "pos.toml"
    r = run("play", "ten", "--players", "3", "--me", "2", "--script", str(script), "-n", "64",
            "--seed", "3", "--out", str(tmp_path), "--save", "pos.toml", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["steps"][5]["position"]["phase"] == "auction"
    last = out["steps"][-1]["answer"]
    d = run("ten", "decide", str(pos), "-n", "64", "--seed", "3", "--json")
    assert d.returncode == 0, d.stderr
    assert json.loads(d.stdout)["p_win"] == last["p_win"]
    assert list(last["p_win"]) == ["draw", "numbers", "currency"]


def test_an_impossible_entry_is_one_line_naming_its_line(tmp_path):
    script = tmp_path / "bad.txt"
    script.write_text("deal feesh blammo doggo pie\n\nroll paw\nstop\n")
    r = run("play", "trash-pandas", "--me", "2", "--script", str(script), "--seed", "1")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "pushluck: error: line 4 'stop': stop: only between rolls"]


def test_bad_options_and_files_are_one_line_exit_2(tmp_path):
    for args in (["play", "trash-pandas", "--me", "4", "--players", "3", "--script", "x"],
                 ["play", "trash-pandas", "--me", "0", "--script", "x"],
                 ["play", "trash-pandas", "--script", str(tmp_path / "missing.txt")],
                 ["play", "ten", "--script", str(tmp_path)],
                 ["play", "ten", "--json"]):
        r = run(*args)
        assert r.returncode == 2, args
        assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, args


def test_the_top_level_help_lists_play_and_loads_no_textual():
    code = ("import sys; from analyzer.cli.main import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print('textual' in sys.modules, file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert "play" in r.stdout
    assert r.stderr.strip().endswith("False")


def test_a_saved_position_replays_its_game(tmp_path):
    """The saved file ends with the entries ('#> '); --script on it replays the same game."""
    script = tmp_path / "game.txt"
    script.write_text(TEN_SCRIPT)
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    for src, dst in ((script, first), (first, second)):
        r = run("play", "ten", "--players", "3", "--me", "2", "--script", str(src), "-n", "8",
                "--seed", "1", "--out", str(tmp_path), "--save", dst.name)
        assert r.returncode == 0, r.stderr
    a, b = first.read_text(), second.read_text()
    assert "#> won 1 2t\n#> draw o6\n" in a
    assert a == b
    r = run("play", "ten", "--players", "3", "--me", "2", "--script", str(first), "--load",
            str(first))
    assert r.returncode == 2 and "--load" in r.stderr


def test_a_script_ending_off_my_turn_saves_its_entries_and_decide_refuses_the_file(tmp_path):
    """TP_SCRIPT without its last five entries ends in seat 1's turn: a `decide` position is my
    own turn, so the save holds the entries only (stderr says why, exit 0); `trash-pandas
    decide` on it is one line naming --load, exit 2; --script on it replays to the same
    position (its JSON)."""
    script = tmp_path / "game.txt"
    entries = [e.split("#")[0].strip() for e in TP_SCRIPT.splitlines()[1:] if e.strip()][:-5]
    script.write_text("\n".join(entries) + "\n")
    r = run("play", "trash-pandas", "--me", "2", "--script", str(script), "-n", "8", "--seed",
            "1", "--out", str(tmp_path), "--save", "off.toml", "--json")
    assert r.returncode == 0, r.stderr
    saved = tmp_path / "off.toml"
    assert "the game's entries only, reopen with --load (seat 1 is playing" in \
        " ".join(r.stderr.split()), r.stderr
    assert [x[3:] for x in saved.read_text().splitlines() if x.startswith("#> ")] == entries
    d = run("trash-pandas", "decide", str(saved))
    assert d.returncode == 2 and d.stdout == "" and d.stderr.count("\n") == 1, d.stderr
    assert "--load" in d.stderr and "Traceback" not in d.stderr
    again = run("play", "trash-pandas", "--me", "2", "--script", str(saved), "-n", "8",
                "--seed", "1", "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["position"] == json.loads(r.stdout)["position"]


def test_set_changes_the_rules_the_table_follows(tmp_path):
    script = tmp_path / "game.txt"
    script.write_text("deal feesh blammo doggo\n")  # deal = 2345: seat 2 is dealt three
    r = run("play", "trash-pandas", "--me", "2", "--script", str(script), "--seed", "1",
            "--set", "deal=2345")
    assert r.returncode == 0, r.stderr
    assert "pile 44" in r.stdout  # 53 − 2 − 3 − 4
    r = run("play", "trash-pandas", "--me", "2", "--script", str(script), "--seed", "1")
    assert r.returncode == 2 and "4 cards, 3 named" in r.stderr


def test_the_rule_of_thumb_is_the_one_advice_finds_for_my_cards(tmp_path):
    script = tmp_path / "game.txt"
    script.write_text(TP_SCRIPT)
    r = run("play", "trash-pandas", "--players", "3", "--me", "2", "--script", str(script),
            "-n", "16", "--seed", "1", "--belief", "rules", "--json")
    assert r.returncode == 0, r.stderr
    rule = json.loads(r.stdout)["steps"][-1]["answer"]["rule_of_thumb"]
    # my hand then: Blammo!, Doggo, Feesh, MMM Pie!, none gained this turn
    a = run("trash-pandas", "advice", "--blammo", "1", "--pie", "1", "--bands", "1",
            "--clauses", "1", "--json")
    assert a.returncode == 0, a.stderr
    front = json.loads(a.stdout)["front"][0]
    assert rule["words"] == front["words"] and rule["loss"] == front["loss"]


def test_the_app_lists_the_best_choices_when_there_are_many():
    from analyzer.play.answer import answer_lines
    from analyzer.stats import wilson

    wins = [30, 10, 50, 20, 40, 60, 5]  # of 100: the best five are 60, 50, 40, 30, 20
    out = {"game": "ten", "me": 2, "n": 100, "seed": 1, "recommendation": "bid 5",
           "p_win": {f"bid {i}": wilson(w, 100) for i, w in enumerate(wins)}}
    lines = answer_lines(out, 5)
    shown = [x.split()[1] for x in lines if x.startswith("  bid")]
    assert shown == ["0", "2", "3", "4", "5"]  # in their order, 10 and 5 left out
    assert "(2 more" in lines[6]
    assert len([x for x in answer_lines(out) if x.startswith("  bid")]) == 7


def test_a_script_saves_inside_out_and_nowhere_else(tmp_path):
    script = tmp_path / "game.txt"
    script.write_text(TEN_SCRIPT)
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(Path.cwd())}  # this checkout, run from elsewhere
    r = subprocess.run([sys.executable, "-m", "analyzer", "play", "ten", "--players", "3", "--me",
                        "2", "--script", str(script), "-n", "8", "--seed", "1", "--out", "games"],
                       capture_output=True, text=True, timeout=300, cwd=work, env=env)
    assert r.returncode == 0, r.stderr
    assert sorted(p.relative_to(work).as_posix() for p in work.rglob("*")) == [
        "games", "games/position.toml"]  # --save defaults to position.toml
    assert "#> draw o6" in (work / "games" / "position.toml").read_text()
    # without --save or --out a script saves nothing
    r = subprocess.run([sys.executable, "-m", "analyzer", "play", "ten", "--players", "3", "--me",
                        "2", "--script", str(script), "-n", "8", "--seed", "1"],
                       capture_output=True, text=True, timeout=300, cwd=work, env=env)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in work.iterdir()) == ["games"]


def test_bad_save_places_are_one_line_exit_2_and_write_nothing(tmp_path):
    from tests.fuzz_harness import run_inprocess

    script = tmp_path / "game.txt"
    script.write_text(TEN_SCRIPT)
    out = tmp_path / "out"
    out.mkdir()
    (out / "folder.toml").mkdir()
    elsewhere = tmp_path / "elsewhere.toml"
    elsewhere.write_text("keep\n")
    (out / "link.toml").symlink_to(elsewhere)
    os.mkfifo(out / "fifo.toml")
    afile = tmp_path / "afile"
    afile.write_text("x")
    base = ["play", "ten", "--players", "3", "--me", "2", "--script", str(script), "-n", "8",
            "--seed", "1"]
    cases = [
        (["--out", str(out), "--save", "sub/pos.toml"], "give a file name"),
        (["--out", str(out), "--save", ".."], "give a file name"),
        # the preflight every --out command shares (analyzer/output.py) refuses these first
        (["--out", str(out), "--save", "folder.toml"], "folder.toml: it is a folder"),
        (["--out", str(out), "--save", "link.toml"], "link.toml: it is a symbolic link"),
        (["--out", str(out), "--save", "fifo.toml"], "fifo.toml: it is a FIFO"),
        (["--out", str(afile)], "Not a directory"),
        (["--out", str(tmp_path / "no" / "such" / "dir")], "does not exist"),
    ]
    for extra, words in cases:  # in this process (the real command line), for speed
        code, out_text, err, tb = run_inprocess(base + extra)
        assert code == 2 and not tb, (extra, err, tb)
        assert out_text == "", extra  # refused before the first entry, not after the work
        lines = err.strip().splitlines()
        assert len(lines) == 1 and words in lines[0], (extra, err)
    assert elsewhere.read_text() == "keep\n"  # never written through the link
    assert sorted(p.name for p in out.iterdir()) == ["fifo.toml", "folder.toml", "link.toml"]
    assert not (tmp_path / "no").exists()
    # the app (a real process): a bad --out ends before the app opens
    r = run("play", "ten", "--out", str(afile))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
