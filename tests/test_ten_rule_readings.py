"""Ten's rule readings a table may play differently: the complete-run bonus (the source says
"bonus points"; 10 is an assumption, the key ``full_run_points``) and the cards removed for 2
and 3 players (not public: `ten game` says so and how to give them)."""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
RUN = "r1,r2,r3,r4,r5,r6,r7,r8,r9"


def _ten(*args):
    return subprocess.run([sys.executable, "-m", "analyzer", "ten", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)


@pytest.mark.parametrize("points", [10, 9, 15])
def test_a_complete_run_scores_the_house_rule(points):
    from analyzer.games.ten.cards import counts_of
    from analyzer.games.ten.rules import parse_cards
    from analyzer.games.ten.score import score_collection
    from analyzer.games.ten.whole import score_tables
    from kernels.ten.whole_score import WS_SIZE, score_row

    ws = np.zeros(WS_SIZE, dtype=np.int64)
    # red 1-9 plus blue 1-3: the run's points + 3; red 1-8 and a red wild: the same run
    for cards, expected in [(RUN + ",b1,b2,b3", points + 3),
                            ("r1,r2,r3,r4,r5,r6,r7,r8,r#,b1", points + 1),
                            ("r1,r2,r3,r4,r5,r6,r7,r8,b1", 9)]:  # 8 cards: no bonus
        assert score_collection(parse_cards(cards), points)["score"] == expected
        assert score_row(counts_of(cards.split(",")), score_tables(points), ws) == expected


def test_the_key_reaches_ten_score_and_whole_games():
    r = _ten("score", "--collection", RUN, "--set", "full_run_points=12", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["score"] == 12
    assert json.loads(_ten("score", "--collection", RUN, "--json").stdout)["score"] == 10
    r = _ten("score", "--collection", RUN, "--set", "full_run_points=8")
    assert r.returncode == 2 and "full_run_points" in r.stderr
    # a scripted game: seat 1 takes r9 and holds red 1-9 at the end
    from analyzer.games.ten.lineup import parse_bot
    from analyzer.games.ten.position import scripted_game
    from analyzer.games.ten.rules import TenRules

    bots = [parse_bot("threshold:reward=numbers:buy=never:bid=never")] * 2
    for points in (10, 13):
        g = scripted_game(TenRules(full_run_points=points), bots, "r9",
                          collections=["r1,r2,r3,r4,r5,r6,r7,r8", "b1"])
        assert g["collections"][0] == Counter(RUN.split(","))
        assert g["record"]["score_0"] == points


def test_ten_game_says_the_removals_are_unknown_for_two_and_three_players(tmp_path):
    for players, lists in [(3, ["marked_4plus"]), (2, ["marked_4plus", "marked_3"])]:
        r = _ten("game", "--players", str(players), "-n", "20", "--seed", "1", "--json")
        assert r.returncode == 0, r.stderr
        note = json.loads(r.stdout)["deck_removals"]
        assert note["lists"] == lists and note["removed"] == [] and note["known"] is False
        assert "--deck" in note["note"] and "not public" in note["note"]
        text = _ten("game", "--players", str(players), "-n", "20", "--seed", "1").stdout
        assert "not public" in text and "--deck FILE" in " ".join(text.split())
    r = _ten("game", "--players", "4", "-n", "20", "--seed", "1", "--json")
    assert json.loads(r.stdout)["deck_removals"] is None
    # a deck file that names the removed cards: they are listed (and still an assumption)
    deck = (ROOT / "analyzer/data/ten_deck.toml").read_text().replace(
        "marked_4plus = []", 'marked_4plus = ["r9", "$5"]')
    (tmp_path / "deck.toml").write_text(deck)
    r = _ten("game", "--players", "3", "-n", "20", "--seed", "1", "--deck",
             str(tmp_path / "deck.toml"), "--json")
    note = json.loads(r.stdout)["deck_removals"]
    assert note["removed"] == ["r9", "$5"] and "removes r9, $5" in note["note"]
