"""Lists of lists on the command line in the shared syntax (docs/conventions.md): entries
separated by ',', the parts of one entry by ':' — a Trash Pandas stash per player
(`score --stash`), a Go-Stop pile per seat or opponent (`decide --piles`, `score --opponents`),
stacks (`--stacks`) and shaken months (`--shaken`). Nothing in it needs shell quoting; the old
';' form (quoted) still reads the same; an old text without ';' that the new syntax would read
otherwise is refused in one line naming the new spelling.

Expected values are written by hand; old and new spellings are compared on the same run.
"""
from __future__ import annotations

import json
import subprocess

import pytest

from tests.fuzz_harness import run_inprocess

PILE_1 = "01B 03B 08B 01R 02R 03R 02A 04A 01J1 01J2 X2 X3 05J1 05J2 06J1"
PILE_2 = "12B 11B 05A 06A 07A 12A 10A 06R 09R 02J1 02J2 03J1 03J2"


def _run(*argv):
    code, out, err, tb = run_inprocess(list(argv), timeout=240)
    assert not tb, tb
    return code, out, err


def _colon(pile: str) -> str:
    return pile.replace(" ", ":")


def test_per_seat_entries_by_hand():
    from analyzer.games.gostop.position import per_seat

    assert per_seat("01B:03B,11J1") == ["01B 03B", "11J1"]
    assert per_seat("01B 03B;11J1") == ["01B 03B", "11J1"]       # the old form
    assert per_seat("01B,03B;11J1") == ["01B 03B", "11J1"]       # old, cards by ','
    assert per_seat("5:11,") == ["5 11", ""]                      # seat 2 shook nothing
    assert per_seat("5;") == ["5", ""]
    assert per_seat("05A:05R:05J1@2") == ["05A 05R 05J1@2"]
    assert per_seat("01B:,11J1:") == ["01B", "11J1"]


@pytest.mark.parametrize("argv", [
    ["--stash", "A:feesh=3:blammo=2,B:feesh=3,C:feesh=1"],
    ["--opponents", "01B:03B,11J1:12D"],
    ["--piles", f"{_colon(PILE_1)},{_colon(PILE_2)}"],
    ["--stacks", "05A:05R:05J1@2,06A:06R:06J1"],
    ["--shaken", "5:11,"],
])
def test_the_new_spellings_paste_into_a_shell_unquoted(argv):
    line = "printf '%s|' " + " ".join(argv)  # no quotes around the values
    got = subprocess.run(["bash", "-c", line], capture_output=True, text=True, check=True)
    assert got.stdout == "".join(a + "|" for a in argv)


def test_a_stash_reads_the_same_in_both_spellings():
    code, new, err = _run("trash-pandas", "score", "--stash",
                          "A:feesh=3:blammo=2,B:feesh=3,C:feesh=1", "--json")
    assert code == 0, err
    code, old, err = _run("trash-pandas", "score", "--stash",
                          "A:feesh=3,blammo=2;B:feesh=3;C:feesh=1", "--json")
    assert code == 0, err
    got = json.loads(new)
    assert got == json.loads(old)
    # Feesh 3/3/1: A and B tie for 1st (5 − 1 = 4), C is 2nd (3); Blammo! 1 a card: A 4 + 2
    assert got["scores"] == {"A": 6, "B": 4, "C": 3}


def test_go_stop_opponents_read_the_same_in_both_spellings():
    base = ["gostop", "score", "--captures", "02A,04A,08A,05A,06A,07A", "--json"]
    code, new, err = _run(*base, "--opponents", "01B:03B,11J1:12D")
    assert code == 0, err
    code, old, err = _run(*base, "--opponents", "01B 03B;11J1 12D")
    assert code == 0, err
    got = json.loads(new)
    assert got == json.loads(old)
    assert [p["opponent"] for p in got["payments"]] == [1, 2]


@pytest.mark.parametrize("argv,new", [
    (["gostop", "score", "--captures", "02A,04A,08A,05A,06A", "--opponents", "01B,03B"],
     "01B:03B"),
    (["gostop", "decide", "--example", "basic", "--stacks", "05A:05R,05J1@2", "-n", "5"],
     "05A:05R:05J1@2"),
    (["gostop", "decide", "--example", "basic", "--piles", PILE_1.replace(" ", ","), "-n", "5"],
     "01B:03B,11J1:12D"),
    (["trash-pandas", "score", "--stash", "A:feesh=3,blammo=2"], "A:feesh=3:blammo=2"),
])
def test_an_old_text_without_a_semicolon_is_refused_naming_the_new(argv, new):
    code, out, err = _run(*argv)
    assert code == 2 and out == "" and err.count("\n") == 1, (code, err)
    assert new in err, err


def test_go_stop_decide_reads_the_piles_in_both_spellings_as_the_file_does():
    base = ["gostop", "decide", "--example", "basic", "-n", "60", "--seed", "2", "--json"]
    code, file_out, err = _run(*base)
    assert code == 0, err
    runs = [json.loads(file_out)]
    for piles in (f"{_colon(PILE_1)},{_colon(PILE_2)}", f"{PILE_1};{PILE_2}"):
        code, out, err = _run(*base, "--piles", piles)
        assert code == 0, err
        runs.append(json.loads(out))
    keys = ("go_payment", "difference_go_minus_stop", "stop_payment", "position")
    assert all({k: r[k] for k in keys} == {k: runs[0][k] for k in keys} for r in runs[1:])


def test_stacks_read_alike_in_every_spelling():
    """One stack needs no ':' (a one-card stack cannot be, so '05A,05R,05J1@2' is one stack, as
    in the old form); several are separated by ',' (cards by ':') or, old, by ';'."""
    from analyzer.games.gostop.position import stack_texts

    one = ["05A 05R 05J1@2"]
    assert stack_texts("05A,05R,05J1@2") == stack_texts("05A 05R 05J1@2") == one
    assert stack_texts("05A:05R:05J1@2") == one
    two = ["05A 05R 05J1@2", "06A 06R 06J1"]
    assert stack_texts("05A:05R:05J1@2,06A:06R:06J1") == two
    assert stack_texts("05A,05R,05J1@2;06A,06R,06J1") == two
    assert stack_texts(["05A 05R 05J1@2"]) == one and stack_texts(None) == []


def test_shaken_months_per_seat_in_the_new_spelling():
    from analyzer.games.gostop.position import _months, per_seat

    assert [_months(x) for x in per_seat("5:11,")] == [[5, 11], []]
    assert [_months(x) for x in per_seat(",3")] == [[], [3]]
