"""`tune` speaks the shared vocabulary (docs/conventions.md): a metric of whole games between
seats is played by the line-up `--seats A,B`, a metric of one player's trials by that player's
`--policy P`; the other flag fails in one line naming the right spelling (the old spellings are
in tests/test_conventions.py's table).

Which metrics are whose is written here by hand, from what each metric's trials are.
"""
from __future__ import annotations

import json

import pytest

from tests.fuzz_harness import run_inprocess

#: game → the metrics whose trials are whole games between seats (played by a line-up)
LINEUP = {
    "pig": {"p_first_wins", "mean_turns"},
    "gostop": {"nagari_rate", "first_player_advantage", "first_player_win_rate",
               "chongtong_rate"},
    "canasta": {"round_turns", "p_going_out", "p_sevens_lock", "p_stall", "sevens_canastas",
                "points_per_player", "first_mover_score"},
    "trash-pandas": {"first_seat_win_rate", "game_length", "winner_margin", "tiebreak_share",
                     "busts_per_game"},
    "ten": {"seat_advantage", "game_length", "winner_score", "busts_per_game",
            "first_turn_bust_rate", "wilds_auctioned"},
    "magdagdon": set(),
}


def _run(*argv):
    code, out, err, tb = run_inprocess(list(argv), timeout=240)
    assert not tb, tb
    return code, out, err


@pytest.mark.parametrize("game", sorted(LINEUP))
def test_each_metric_says_whether_a_line_up_plays_it(game):
    from analyzer.tune import metrics_of

    ms = metrics_of(game)
    assert {m.name for m in ms if m.lineup} == LINEUP[game]
    assert any(not m.lineup for m in ms) == (game in ("trash-pandas", "ten", "magdagdon"))
    # the listing names the flag of each metric
    code, out, err = _run("tune", game, "--list-metrics", "--json")
    assert code == 0, err
    got = {m["name"]: m["played_by"] for m in json.loads(out)["metrics"]}
    assert got == {m.name: "--seats" if m.name in LINEUP[game] else "--policy" for m in ms}


def test_seats_is_the_line_up_every_cell_plays():
    base = ["tune", "pig", "--sweep", "goal=30,40", "-n", "2000", "--top", "0", "--seed", "3",
            "--json"]
    runs = {}
    for seats in ("hold:20,hold:20", "hold:20", "hold:10,hold:25", None):
        code, out, err = _run(*base, *(["--seats", seats] if seats else []))
        assert code == 0, err
        runs[seats] = json.loads(out)
    assert runs["hold:10,hold:25"]["baseline_policy"] == "hold:10,hold:25"
    assert runs["hold:10,hold:25"]["played_by"] == "seats"
    code, out, err = _run(*base[:-1], "--seats", "hold:10,hold:25")
    assert code == 0 and "; seats hold:10,hold:25" in out.split("\n")[0], out
    assert {r["policy"] for r in runs["hold:10,hold:25"]["rows"]} == {"hold:10,hold:25"}

    def firsts(r):
        return [row["p_first_wins"]["estimate"] for row in r["rows"]]

    # one bot for every seat is that bot in both seats, and the default is hold:20 for both
    assert firsts(runs["hold:20"]) == firsts(runs["hold:20,hold:20"]) == firsts(runs[None])
    # seat 1 holding at 10 against a seat 2 holding at 25 changes who wins (same deals)
    assert firsts(runs["hold:10,hold:25"]) != firsts(runs["hold:20"])


def test_a_bad_line_up_is_named_by_seats():
    code, out, err = _run("tune", "pig", "--sweep", "goal=50", "--seats", "hold:20,nosuch",
                          "-n", "10")
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "--seats 'nosuch'" in err or "--seats 'hold:20,nosuch'" in err, err
    code, out, err = _run("tune", "trash-pandas", "--sweep", "bonus_cap=2,3", "--metric",
                          "first_seat_win_rate", "--seats", "heuristic,random", "-n", "10")
    assert code == 2 and err.count("\n") == 1 and "--seats" in err and "3 seats" in err, err


def test_one_players_metric_takes_policy_and_a_mix_is_refused():
    code, out, err = _run("tune", "ten", "--sweep", "bust_at=9,10", "--policy", "total:6",
                          "-n", "200", "--top", "0", "--seed", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["baseline_policy"] == "total:6"
    assert json.loads(out)["played_by"] == "policy"
    code, out, err = _run("tune", "trash-pandas", "--sweep", "bonus_cap=2,3", "--metric",
                          "turn_value", "--metric", "first_seat_win_rate", "-n", "10")
    assert code == 2 and err.count("\n") == 1 and "tune them apart" in err, err


def test_line_ups_are_swept_one_per_flag_with_seats():
    from analyzer.tune import get_metric, seats_entries

    pig = [get_metric("pig", "p_first_wins")]
    assert seats_entries("--sweep", ["goal=50,60", "seats=hold:20", "seats=hold:10,hold:25"],
                         pig) == ["goal=50,60", "policy=hold:20;hold:10,hold:25"]
    assert seats_entries("--space", ["goal=20..40:10"], pig) == ["goal=20..40:10"]
    code, out, err = _run("tune", "pig", "--sweep", "goal=50", "--sweep", "seats=hold:20",
                          "--sweep", "seats=hold:10,hold:25", "-n", "1000", "--top", "0",
                          "--seed", "1", "--json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    assert [r["policy"] for r in rows[1:]] == ["hold:20", "hold:10,hold:25"]


def test_a_line_up_swept_twice_is_refused():
    code, out, err = _run("tune", "pig", "--sweep", "seats=hold:20", "--sweep", "seats=hold:20",
                          "-n", "10")
    assert (code, out, err.count("\n")) == (2, "", 1) and "listed twice" in err, err
