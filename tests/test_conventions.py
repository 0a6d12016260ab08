"""One vocabulary across games (issue 35; docs/conventions.md), checked over the whole CLI.

The first tests walk every command of every game (and the cross-game verbs) through the real
Typer → Click tree and read its options and help; the last ones run old spellings in this
process and check each fails in one line (exit 2) that names the new spelling. Expected texts
are written here by hand, not taken from the code under test.
"""
from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import pytest

from tests.clitree import help_text, leaves, option, walk
from tests.fuzz_harness import run_inprocess

ROOT = Path(__file__).resolve().parent.parent
LEAVES = leaves()
UNITS = re.compile(r"\b(turns|games|deals|rounds|playouts|positions)\b")
#: the games whose `decide` answers from a position file, and the one that does not (why)
POSITION_GAMES = ("trash-pandas", "ten", "gostop", "canasta")
NO_POSITION = {"pig": "`pig decide` takes three numbers (--me, --opp, --turn), no position"}


def _ids(items):
    return [" ".join(p) or "pushluck" for p, _c in items]


def _command(*path):
    return dict(LEAVES)[path]


def _run(*argv):
    code, out, err, tb = run_inprocess(list(argv), timeout=120)
    assert not tb, tb
    return code, out, err


def test_the_walk_reaches_every_game_and_verb():
    """A walk that saw nothing would let every test below pass."""
    from analyzer.games import REGISTRY

    games = {p[0] for p, _c in LEAVES}
    assert set(REGISTRY) | {"report", "tune", "bench"} <= games
    assert len(LEAVES) >= 50


@pytest.mark.parametrize("path,command", LEAVES, ids=_ids(LEAVES))
def test_every_command_takes_json(path, command):
    assert option(command, "--json") is not None, f"{' '.join(path)} has no --json"


@pytest.mark.parametrize("path,command", LEAVES, ids=_ids(LEAVES))
def test_trials_names_its_unit_and_default(path, command):
    n = option(command, "--trials")
    if n is None:
        return
    assert "-n" in n.opts
    text = n.help or ""
    assert UNITS.search(text), f"{' '.join(path)} -n does not name its unit: {text!r}"
    assert "default" in text.lower() or n.show_default, f"{' '.join(path)} -n: no default"


@pytest.mark.parametrize("path,command", list(walk()), ids=_ids(list(walk())))
def test_no_help_numbers_a_seat_from_zero(path, command):
    text = help_text(command) + " ".join(p.help or "" for p in getattr(command, "params", ()))
    assert not re.search(r"\bseat 0\b|\bseat0|p_seat0", text, re.I), " ".join(path)


@pytest.mark.parametrize("path,command", LEAVES, ids=_ids(LEAVES))
def test_no_position_flag_anywhere(path, command):
    """A position is an argument; `--position` survives only as a hidden refusal."""
    assert option(command, "--position") is None, " ".join(path)


@pytest.mark.parametrize("game", POSITION_GAMES)
def test_decide_takes_a_positional_position_and_the_shared_defaults(game):
    from analyzer.options import DECIDE_PLAYOUTS

    decide = _command(game, "decide")
    args = [p for p in decide.params if p.param_type_name == "argument"]
    assert [a.human_readable_name for a in args] == ["POSITION.toml"]
    assert DECIDE_PLAYOUTS == 4000  # docs/conventions.md states this number
    assert "default 4,000" in option(decide, "--trials").help
    assert option(decide, "--precision") is not None
    assert option(decide, "--seats") is not None, f"{game} decide: the line-up is --seats"
    assert option(decide, "--example") is not None
    position = _command(game, "position")
    assert option(position, "--template") is not None


@pytest.mark.parametrize("game", ["gostop", "trash-pandas"])
def test_decide_without_n_plays_4000_playouts_per_choice(game):
    """The default stated in the help is the default run (these two were 20,000 before)."""
    import json

    code, out, err = _run(game, "decide", "--example", "basic", "--seed", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["n"] == 4000


def test_precision_alone_leaves_the_sample_uncapped():
    from analyzer.options import trials_or_default

    assert trials_or_default(None, None, 4000) == 4000
    assert trials_or_default(None, 0.01, 4000) is None  # until the target (or --time-limit)
    assert trials_or_default(50, 0.01, 4000) == 50      # -n is then a cap


@pytest.mark.parametrize("argv", [["ten", "decide", "--example"],
                                  ["ten", "decide", "--example", "--seed", "3"],
                                  ["ten", "position", "--example"]])
def test_example_alone_lists_the_names_in_one_line(argv):
    code, out, err = _run(*argv)
    assert (code, err) == (0, "") and out.count("\n") == 1
    assert "basic, buy, auction" in out


def test_an_unknown_example_is_one_line_listing_the_names():
    code, out, err = _run("canasta", "decide", "--example", "nosuch")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "no such example" in err and "basic, goout" in err


def test_a_ten_position_without_me_reports_the_active_seat(tmp_path):
    import json

    from analyzer.examples import DATA as SHIPPED

    text = (SHIPPED / "ten_position_auction_example.toml").read_text()
    assert "me = 1\n" in text and "active = 3\n" in text
    pos = tmp_path / "p.toml"
    no_me = "\n".join(x for x in text.split("\n") if not x.startswith("me ="))
    pos.write_text("\n".join(x for x in no_me.split("\n") if not x.startswith("bids ="))
                   .replace('phase = "auction"\nwild = "r#"\n', "").replace('"g7,$1"', '"g7"'))
    code, out, err = _run("ten", "decide", str(pos), "-n", "4", "--seed", "1", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert (got["me"], got["active"], got["deciding"]) == (3, 3, 3)
    # in an auction without me, me is the seat to bid (seat 1, after seat 4's bid), not seat 3
    pos.write_text(no_me)
    code, out, err = _run("ten", "decide", str(pos), "-n", "4", "--seed", "1", "--json")
    got = json.loads(out)
    assert (got["me"], got["active"], got["deciding"]) == (1, 3, 1), err


def test_pig_decide_is_the_declared_exception():
    decide = _command("pig", "decide")
    assert not [p for p in decide.params if p.param_type_name == "argument"]
    assert set(NO_POSITION) == {p[0] for p, _c in LEAVES if p[-1] == "decide"} - \
        set(POSITION_GAMES)


@pytest.mark.parametrize("path,command", LEAVES, ids=_ids(LEAVES))
def test_seats_vs_and_policy_mean_the_same_everywhere(path, command):
    seats, vs, policy = (option(command, f) for f in ("--seats", "--vs", "--policy"))
    where = " ".join(path)
    if seats is not None:
        assert "','" in seats.help or "," in seats.metavar, where
        assert "seat" in seats.help, where
        assert ";" not in seats.metavar, where
    if vs is not None:
        assert "same" in vs.help, where  # compared on the same trials (common random numbers)
    if policy is not None:
        text = policy.help.lower()
        assert "every seat" not in text and "same as --seats" not in text, where
        if path[-1] == "decide":
            assert "decider" in text, where  # the studied seat only (Go-Stop's decider)


def test_bot_and_knob_names_are_kebab_case_in_every_game():
    import importlib

    from analyzer.botspec import is_kebab
    from analyzer.games import REGISTRY

    seen = 0
    for key, package in REGISTRY.items():
        families = importlib.import_module(f"analyzer.games.{package}.lineup").FAMILIES
        assert families, key
        for where, family in families.items():
            for bot in family.bots.values():
                assert is_kebab(bot.name), (key, where, bot.name)
                for knob in (*bot.knobs, *bot.positional):
                    assert is_kebab(knob), (key, where, bot.name, knob)
                    seen += 1
            for knob in family.knobs:
                assert is_kebab(knob), (key, where, knob)
    assert seen > 50


def test_kebab_check_by_hand():
    from analyzer.botspec import is_kebab

    assert all(map(is_kebab, ("stop-at", "cut-1", "max-dice", "if-1", "at")))
    assert not any(map(is_kebab, ("stop_at", "Stop-at", "stop--at", "-at", "at-", "")))


def test_version_prints_the_projects_version():
    expected = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    code, out, err = _run("--version")
    assert (code, out, err) == (0, f"pushluck {expected}\n", "")


def test_report_without_out_writes_under_pushluck_report(tmp_path, monkeypatch):
    """From an empty folder (no reports/out here), a one-part recipe lands in
    ./pushluck-report/<recipe>/."""
    assert "./pushluck-report" in option(_command("report"), "--out").help
    recipe = tmp_path / "recipes" / "tiny.toml"
    recipe.parent.mkdir()
    recipe.write_text('title = "tiny"\ngame = "pig"\nseed = 1\n[rules]\ngoal = 20\n'
                      '[[parts]]\nname = "turns"\ntitle = "Hold at H"\n'
                      'kind = "pig.hold-thresholds"\n[parts.params]\nrange = [10, 12]\n')
    work = tmp_path / "empty"
    work.mkdir()
    monkeypatch.chdir(work)
    code, out, err = _run("report", str(recipe))
    assert code == 0, err
    assert (work / "pushluck-report" / "tiny" / "index.md").is_file()
    assert sorted(p.name for p in work.iterdir()) == ["pushluck-report"]


# ---- old spellings: one line, exit 2, naming the new spelling -----------------------------------
DATA = ROOT / "analyzer" / "data"
OLD = [
    (["trash-pandas", "game", "--seats", "heuristic:stop-at=4;heuristic;random", "-n", "5"],
     "--seats heuristic:stop-at=4,heuristic,random"),
    (["trash-pandas", "game", "--seats", "heuristic:stop-at=4,yumyum-at=0", "-n", "5"],
     "heuristic:stop-at=4:yumyum-at=0"),
    (["ten", "game", "--seats", "threshold:8,bid=never;random;cards:5", "--players", "3"],
     "--seats threshold:8:bid=never,random,cards:5"),
    (["pig", "simulate", "--seats", "hold:20;optimal", "-n", "5"], "--seats hold:20,optimal"),
    (["ten", "game", "--seats", "threshold:stop_at=8", "-n", "5"], "stop-at, not stop_at"),
    (["magdagdon", "simulate", "--policy", "greedy:max_cost=10", "-n", "5"],
     "max-cost, not max_cost"),
    (["magdagdon", "simulate", "--policy", "greedy:max_cost=10,which=reroll", "-n", "5"],
     "greedy:max-cost=10:which=reroll"),
    (["gostop", "decide", "--position", str(DATA / "gostop_position_example.toml")],
     "gostop decide FILE"),
    (["gostop", "decide", "--example", "basic", "--opponents-policy", "greedy"], "--seats"),
    (["trash-pandas", "decide", "--example", "basic", "--policy", "heuristic"], "--seats"),
    (["trash-pandas", "game", "--policy", "heuristic", "-n", "5"], "--seats"),
    (["ten", "game", "--policy", "threshold", "-n", "5"], "--seats"),
    (["canasta", "meld-odds", "--score", "0", "--policy", "greedy"], "--seats"),
    (["gostop", "decide", "--example", "basic", "--me", "0"], "seats count from 1"),
    (["tune", "pig", "--sweep", "goal=50,100", "--policy", "hold:20,hold:20", "-n", "100"],
     "--seats hold:20,hold:20"),
    (["tune", "pig", "--target", "p_first_wins ~ 0.55", "--space", "goal=20..40:10",
      "--policy", "hold:20,hold:20"], "--seats hold:20,hold:20"),
    (["tune", "gostop", "--sweep", "target=5,7", "--policy", "greedy", "-n", "10"],
     "--seats greedy"),
    (["tune", "ten", "--sweep", "bust_at=9,10", "--seats", "total:7", "-n", "10"],
     "--policy total:7"),
    (["tune", "pig", "--sweep", "goal=50", "--sweep", "policy=hold:20,hold:25", "-n", "10"],
     "--sweep seats="),
    (["tune", "pig", "--target", "p_first_wins ~ 0.55", "--space", "goal=20..40:10",
      "--space", "policy=hold:20,hold:20;hold:25,hold:25"], "--space seats=hold:20,hold:20"),
    (["tune", "ten", "--sweep", "bust_at=10", "--sweep", "seats=total:7", "-n", "10"],
     "--sweep policy=total:7"),
]


@pytest.mark.parametrize("argv,new", OLD, ids=[" ".join(a[:3]) + " …" for a, _n in OLD])
def test_an_old_spelling_fails_in_one_line_naming_the_new(argv, new):
    code, out, err = _run(*argv)
    assert code == 2 and out == "", (code, out, err)
    assert err.count("\n") == 1 and new in err, err


@pytest.mark.parametrize("game,old,changed", [
    ("ten", "active = 1\n", "active = 0\n"),
    ("ten", "me = 1\n", "me = 0\n"),
    ("trash-pandas", "me = 2\n", "me = 0\n"),
    ("gostop", "me = 1\n", "me = 0\n"),
])
def test_a_seat_zero_in_a_position_file_fails_in_one_line(game, old, changed, tmp_path):
    from analyzer.examples import DATA as SHIPPED, EXAMPLES

    text = (SHIPPED / EXAMPLES[game]["basic"]).read_text()
    assert old in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(old, changed))
    code, out, err = _run(game, "decide", str(bad), "-n", "5")
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "= 0: seats count from 1" in err, err


def test_a_go_stop_stack_made_by_seat_zero_fails_in_one_line():
    code, out, err = _run("gostop", "decide", "--example", "basic", "--stacks", "05A,05R,05J1@0")
    assert code == 2 and err.count("\n") == 1 and "@0 = 0: seats count from 1" in err, err


def test_a_seat_in_an_output_counts_from_1():
    """The first seat of every whole-game table is seat 1 (Ten, Go-Stop, Canasta, Pig's line-up
    text), on tiny runs."""
    import json

    for argv in (["ten", "game", "-n", "4", "--seed", "1", "--json"],
                 ["gostop", "simulate", "-n", "50", "--seed", "1", "--json"],
                 ["canasta", "simulate", "-n", "2", "--seed", "1", "--json"],
                 ["trash-pandas", "game", "-n", "5", "--seed", "1", "--json"]):
        code, out, err = _run(*argv)
        assert code == 0, err
        got = json.loads(out)
        seats = got["lineups"][0]["seats"] if "lineups" in got else got["seats"]
        assert [s["seat"] for s in seats][:2] == [1, 2], argv
    code, out, err = _run("ten", "decide", "--example", "auction", "-n", "4", "--seed", "1",
                          "--json")
    got = json.loads(out)
    assert (got["me"], got["active"]) == (1, 3)  # the file says me = 1, active = 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
