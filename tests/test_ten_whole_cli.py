"""`ten game` and `ten decide` from the command line: one JSON object, statistics objects,
same seed → same numbers, and impossible positions refused with one line and exit code 2."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "analyzer" / "data" / "ten_position_example.toml"
BASE = """players = 2
tableau = "r5,$2"
{extra}
[[player]]
collection = "{c0}"
tokens = {t0}
[[player]]
collection = "b1"
"""


def _run(*args):
    return subprocess.run([sys.executable, "-m", "analyzer", "ten", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)


def test_game_json_is_one_object_with_statistics_and_repeats():
    args = ("game", "--seats", "threshold,random", "--players", "2", "--vs",
            "exact,random", "-n", "300", "--seed", "4", "--json", "--check")
    a = _run(*args)
    assert a.returncode == 0, a.stderr
    out = json.loads(a.stdout)
    assert out["game"] == "ten" and out["exact"] is False and out["seed"] == 4
    lu = out["lineups"][0]
    assert set(lu["seats"][0]["win_rate"]) >= {"estimate", "se", "ci_low", "ci_high", "n"}
    assert lu["violations"] == 0 and out["lineups"][1]["violations"] == 0
    assert out["differences"][0]["of"] == "A − B"
    b = _run(*args)
    assert json.loads(b.stdout)["lineups"] == out["lineups"]


def test_decide_example_position():
    r = _run("decide", str(EXAMPLE), "-n", "200", "--seed", "3", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert set(out["p_win"]) == {"draw", "numbers", "currency"}
    assert out["turn_level"]["exact"] is True
    for st in out["p_win"].values():
        assert 0.0 <= st["ci_low"] <= st["estimate"] <= st["ci_high"] <= 1.0


@pytest.mark.parametrize("extra,c0,t0,needle", [
    ('market = "r9"', "r9", 4, "'r9' is listed 2 times"),
    ("", "r1", 11, "above the cap"),
    ("", "r1,$3", 4, "currency card"),
    ('out = "**,**"', "r1", 4, "'**' is listed 2 times"),
    ("foo = 1", "r1", 4, "unknown key 'foo'"),
    ('phase = "buy"', "r1", 4, "the tableau must be empty"),
    ('phase = "auction"', "r1", 4, "needs 'wild'"),
    ('phase = "auction"\nwild = "r5"', "r1", 4, "needs 'wild'"),
    ('wild = "r#"', "r1", 4, "only for phase"),
    ('phase = "bid"', "r1", 4, "'phase' must be one of"),
    ('phase = "auction"\nwild = "**"\nout = "**"\nbids = []', "r1", 4,
     "'**' is listed 2 times"),
    ('phase = "auction"\nwild = "r#"', "r1", 4, "needs 'bids'"),
    ('phase = "auction"\nwild = "r#"\nbids = [0, 0]', "r1", 4, "at most 1 come before"),
    ('phase = "auction"\nwild = "r#"\nbids = [7]', "r1", 4, "seat 2 bid 7 but can pay only 6"),
    ('phase = "auction"\nwild = "r#"\nbids = [-1]', "r1", 4, "a bid is ≥ 1"),
    ('phase = "auction"\nwild = "r#"\nbids = ["2"]', "r1", 4, "list of integers"),
    ("bids = []", "r1", 4, "'bids' is only for phase"),
    ("active = 0", "r1", 4, "'active' = 0: seats count from 1"),
    ("me = 3", "r1", 4, "'me' = 3: seats are 1..2"),
])
def test_impossible_positions_are_refused(tmp_path, extra, c0, t0, needle):
    p = tmp_path / "pos.toml"
    p.write_text(BASE.format(extra=extra, c0=c0, t0=t0))
    r = _run("decide", str(p), "-n", "10", "--seed", "1")
    assert r.returncode == 2 and needle in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_busted_tableau_and_bad_bot_are_refused(tmp_path):
    p = tmp_path / "pos.toml"
    p.write_text(BASE.format(extra="", c0="r1", t0=4).replace('"r5,$2"', '"r9,r4"'))
    r = _run("decide", str(p), "-n", "10")
    assert r.returncode == 2 and "already busted" in r.stderr
    r = _run("game", "--seats", "threshold:stop-at=x", "-n", "10")
    assert r.returncode == 2 and "stop-at" in r.stderr
    r = _run("game", "--seats", "threshold,random,cards", "--players", "2", "-n", "10")
    assert r.returncode == 2 and "3 bots for 2 seats" in r.stderr


@pytest.mark.parametrize("name,first,some", [
    ("ten_position_buy_example.toml", "no buy", {"buy g2", "buy r6"}),
    ("ten_position_auction_example.toml", "pass", {"bid 3", "bid 16"}),
])
def test_decide_buy_and_auction_positions(name, first, some):
    r = _run("decide", str(EXAMPLE.parent / name), "-n", "100", "--seed", "2", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert list(out["p_win"])[0] == first and some <= set(out["p_win"])
    assert out["turn_level"] is None and out["recommendation"]
    assert all(k.startswith(first + " − ") for k in out["differences"])


def test_buy_or_auction_phase_refused_when_the_rules_switch_it_off():
    for name, key in [("ten_position_buy_example.toml", "buys"),
                      ("ten_position_auction_example.toml", "auctions")]:
        r = _run("decide", str(EXAMPLE.parent / name), "-n", "10", "--set", f"{key}=false")
        assert r.returncode == 2 and f"{key} = false" in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1
