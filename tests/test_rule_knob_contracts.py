"""Rule knobs set away from their defaults, each with an expected value worked out by hand.

tests/mutation/knob_audit.py lists the knobs no test sets away from its default. This file
covers those of the stable turn-level areas (the MAGDAGDON scoring and power knobs, the Canasta
bonuses, Go-Stop's chongtong and go-bak are in tests/test_positions_by_hand.py and
tests/test_lineup_contracts.py):

* Ten, next-card odds by card counting: the wild counts (full, colour, number wilds) and the bust
  thresholds change which cards are left and which of them bust, counted here from the deck table
  of the rules page (84 number cards: per colour three each of 1-6 and one each of 7-9).
* Pig: a goal of 2 with a d3, busting on one or two faces, solved by hand (p = q + (1 - q)(1 - p)
  for the mover with success chance q), and "hold at H" turns with a d4 enumerated by hand; the
  Monte Carlo kernel reproduces the first player's 3/5 and the geometric game length.
"""
from __future__ import annotations

import pytest

from analyzer.runner import RunSpec


def ten_odds(tableau, sets=(), players=4):
    from analyzer.games.ten.exact import odds
    from analyzer.games.ten.rules import TenRules, load_deck, turn_state
    from analyzer.rules import build_rules

    rules = build_rules(TenRules, sets=list(sets))
    return odds(turn_state(rules, load_deck(None), tableau, None, players), rules)


def test_ten_default_deck_matches_the_rules_page_example():
    # "a fresh deck, tableau = red 5 only, 128 cards left: 24 number cards of value >= 6 remain,
    # so P(bust) = 24/128"; wilds: 8 colour + 9 number + 1 full = 18
    o = ten_odds("r5")
    assert o["cards_left"] == 128
    assert o["counts"]["number_bust"] == 24 and o["p_bust"] == pytest.approx(24 / 128)
    assert o["counts"]["wild"] == 18 and o["counts"]["currency_bust"] == 0


@pytest.mark.parametrize("sets,left,wild", [
    (("full_wilds=3", "colour_wilds=0"), 84 + 9 + 3 + 27 - 1, 9 + 3),
    (("colour_wilds=1", "number_wilds=10"), 84 + 4 + 10 + 1 + 27 - 1, 4 + 10 + 1),
    (("full_wilds=0",), 84 + 8 + 9 + 27 - 1, 8 + 9),
])
def test_ten_wild_counts_are_knobs(sets, left, wild):
    o = ten_odds("r5", sets)
    assert o["cards_left"] == left and o["counts"]["wild"] == wild
    assert o["p_wild"] == pytest.approx(wild / left)
    assert o["counts"]["number_bust"] == 24  # wilds never bust


def test_ten_bust_thresholds_are_knobs():
    # bust_at = 8 with a red 5 showing: 5 + v >= 8 for v >= 3: per colour 3 x (3, 4, 5, 6) + 7, 8,
    # 9 = 15 cards, 60 in all, less the red 5 in the tableau
    o = ten_odds("r5", ("bust_at=8",))
    assert o["counts"]["number_bust"] == 59 and o["p_number_bust"] == pytest.approx(59 / 128)
    # currency_bust_at = 3 with $2 showing: any currency card busts (all 27 but the one shown),
    # and no number card can (T = -2 + v <= 7 < 11)
    o = ten_odds("$2", ("currency_bust_at=3",))
    assert o["counts"]["currency_bust"] == 26 and o["counts"]["number_bust"] == 0
    assert o["p_currency_bust"] == pytest.approx(26 / 128)


def test_pig_small_games_by_hand():
    from analyzer.games.pig.exact import solve
    from analyzer.games.pig.rules import PigRules

    # goal 2, d3: the first roll wins unless it busts; p = q + (1 - q)(1 - p) -> p = 1/(2 - q)
    for bust, q in ((1, 2 / 3), (2, 1 / 3)):
        P, *_ = solve(PigRules(goal=2, faces=3, bust_faces=bust))
        assert P[0, 0, 0] == pytest.approx(1 / (2 - q), abs=1e-10)


def test_pig_turn_statistics_with_other_dice_by_hand():
    from analyzer.games.pig.exact import turn_stats
    from analyzer.games.pig.rules import PigRules

    r = PigRules(faces=4, bust_faces=2)  # faces 1, 2 bust; 3 and 4 score
    # hold at 3: one roll, bust 1/2, else 3 or 4
    t = turn_stats(3, r)
    assert t["p_bust"] == pytest.approx(0.5) and t["mean_points"] == pytest.approx(1.75)
    assert t["distribution"] == pytest.approx({3: 0.25, 4: 0.25})
    # hold at 5: after a 3 or a 4 roll once more: bust 1/2 + 1/4, else 6, 7 (from 3) or 7, 8
    t = turn_stats(5, r)
    assert t["p_bust"] == pytest.approx(0.75)
    assert t["distribution"] == pytest.approx({6: 1 / 16, 7: 2 / 16, 8: 1 / 16})
    assert t["mean_points"] == pytest.approx((6 + 14 + 8) / 16)


def test_pig_kernel_plays_other_dice_and_goals():
    # hold:1 with goal 2 on a d3 busting on 1 and 2: every turn is one roll that wins with
    # q = 1/3; the first player wins 3/5, a game lasts a geometric number of turns (mean 3,
    # variance (1 - q)/q² = 6), each turn one roll
    from analyzer.games.pig.lineup import parse_policy_pair
    from analyzer.games.pig.play import simulate
    from analyzer.games.pig.rules import PigRules

    out = simulate(parse_policy_pair("hold:1,hold:1"), PigRules(goal=2, faces=3, bust_faces=2),
                   RunSpec(40_000, 8, progress=False))
    w = out["p_first_player_wins"]
    assert abs(w.estimate - 0.6) <= 4.5 * w.se
    turns = out["mean_turns"]
    assert abs(turns.estimate - 3) <= 4.5 * turns.se
    assert turns.se == pytest.approx((6 / 40_000) ** 0.5, rel=0.05)
    assert out["mean_rolls"].estimate == turns.estimate


@pytest.mark.parametrize("value,buys", [
    (3, ["g2"]),                      # pays 0 + 3 + 2 cards = 5: only the 2
    (5, ["r6", "b7", "g2", "o6"]),    # 0 + 5 + 2 = 7: every market card (red, blue, green, orange)
    (4, ["r6", "g2", "o6"]),          # 6: not the 7
])
def test_ten_buy_choices_follow_what_a_bust_token_pays(tmp_path, value, buys):
    # the shipped buy position with seat 0 holding no token, one bust token and two cards:
    # what it can pay is tokens + bust_token_value x bust tokens + its collection cards
    from pathlib import Path

    from analyzer.games.ten.decide import choices_of
    from analyzer.games.ten.position import load_position
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.rules import build_rules

    text = (Path("analyzer/data/ten_position_buy_example.toml").read_text()
            .replace('collection = "r1,r2,r3,r4,r5,b4,b5,b6,g#"\ntokens = 4',
                     'collection = "r1,r2"\ntokens = 0'))
    path = tmp_path / "buy.toml"
    path.write_text(text)
    rules = build_rules(TenRules, sets=[f"bust_token_value={value}"])
    pos = load_position(str(path), rules, load_deck(None))
    names, _codes, _same = choices_of(pos, rules)
    assert names == ["no buy"] + [f"buy {c}" for c in buys]
