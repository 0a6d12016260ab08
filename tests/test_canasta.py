"""Railroad Canasta: cards, values, meld legality, canasta types, requirement, scoring.

Expected values come from the rules reference (docs/rules/canasta.md, examples R1-R10) or
are derived by hand in the comments.
"""
import pytest

from analyzer.errors import UserError
from analyzer.games.canasta.lineup import parse_policies, parse_policy
from analyzer.games.canasta.rules import (BLACK3, JOKER, RED3, TWO, CanastaRules, card_types,
                                          cards_value, parse_card, requirement,
                                          share_value_total)
from analyzer.games.canasta.score import (check_melds, classify_meld, game_winner, round_score,
                                          score_from_toml)

R = CanastaRules()


def meld(text, going_out=False):
    return classify_meld(card_types(text), R, going_out)


def test_notation():
    assert parse_card("QS") == (12, "QS")
    assert parse_card("7h") == (7, "7H")
    assert parse_card("TD") == (10, "TD")
    assert parse_card("10D") == (10, "TD")
    assert parse_card("2C") == (TWO, "2C")
    assert parse_card("JK") == (JOKER, "JK")
    assert parse_card("3H")[0] == RED3 and parse_card("3D")[0] == RED3
    assert parse_card("3S")[0] == BLACK3 and parse_card("3C")[0] == BLACK3
    assert card_types("AS, KH 4C") == [14, 13, 4]
    for bad in ("Q", "1S", "QX", "", "JJ", "11H"):
        with pytest.raises(UserError):
            parse_card(bad)


def test_share_value_is_1080():
    # rules page section 1: 100 + 160 + 160 + 480 + 160 + 20 = 1080
    assert share_value_total() == 1080


def test_r1_card_values():
    # R1: 50 + 20 + 20 + 10 + 10 + 5 + 5 + 5 = 125
    assert cards_value(card_types("JK 2C AS KH 8D 7S 4H 3C")) == 125
    assert cards_value(card_types("3H 3D")) == 0


@pytest.mark.parametrize("score,req", [(-35, 15), (0, 50), (4995, 50), (5000, 90), (9995, 90),
                                       (10000, 120), (14995, 120), (15000, 150), (19990, 150)])
def test_r2_requirement(score, req):
    assert requirement(score, R) == req


def test_r3_initial_meld_at_5000():
    ok = check_melds(["KS,KH,KD", "AS,AH,2C"], R, score=5000)
    assert ok["legal"] and ok["value"] == 90 and ok["meets_requirement"]
    no = check_melds(["KS,KH,2C", "8S,8H,8D"], R, score=5000)
    assert no["legal"] and no["value"] == 70 and not no["meets_requirement"]
    assert no["short_by"] == 20
    wild = check_melds(["JK,JK,2C"], R, score=5000)
    assert wild["value"] == 120 and wild["meets_requirement"]
    red = check_melds(["3H,3D,3H"], R, score=-100)
    assert not red["legal"] and not red["meets_requirement"]


def test_r4_canasta_classification():
    assert meld("QS QH QD QC QS QH QD").canasta == "red"
    assert meld("QS QH QD QC QS JK JK").canasta == "black"
    assert meld("QS QH QD QC 2S 2H 2D").canasta == "black"
    assert meld("2S 2H 2D 2C JK JK 2S").canasta == "wild"
    assert meld("7S 7H 7D 7C 7S 7H 7D").canasta == "sevens"
    m = meld("QS QH QD 2S 2H 2D JK")
    assert not m.legal and "3 wild" in m.reason


def test_r5_meld_legality():
    assert meld("QS QH 2C").legal
    assert not meld("QS 2H 2C").legal
    assert meld("QS QH 2C 2D 2H").legal
    assert not meld("7S 7H 7D 2C").legal
    assert not meld("3S 3C 3S").legal
    assert meld("3S 3C 3S", going_out=True).legal
    assert meld("3S 3C 3S 3C 3S 3C 3S 3C", going_out=True).legal  # no upper limit
    assert not meld("3S 3C 2D", going_out=True).legal
    # a second unfinished queen meld while one exists
    two = check_melds(["QD,QC,QS"], R, melded=True, existing=["QS,QH,QD"])
    assert not two["legal"]
    # a new Q-Q-Q after the queen canasta closed
    new = check_melds(["QD,QC,QS"], R, melded=True, existing=["QS,QH,QD,QC,QS,QH,QD"])
    assert new["legal"]
    # adding an 8th card to a canasta
    eighth = check_melds(["+QC"], R, melded=True, existing=["QS,QH,QD,QC,QS,QH,QD"])
    assert not eighth["legal"]
    # adding to an unfinished meld is fine up to 7
    add = check_melds(["+QC,2C"], R, melded=True, existing=["QS,QH,QD"])
    assert add["legal"] and add["melds"][0]["size"] == 5
    assert not meld("QS QH").legal
    assert not meld("QS QH KD").legal


def test_wilds_in_sevens_option():
    r = CanastaRules(wilds_in_sevens=True)
    m = classify_meld(card_types("7S 7H 7D 7C 7S 2C JK"), r)
    assert m.legal and m.canasta == "black"


def test_round_score_hand_derived():
    # Player did not go out: red canasta of 8s (7 x 10 = 70, +500), unfinished K K 2 (40),
    # one red three (+100), hand A 4 (-25), kitty unpicked holding JK and ten 5s (-100).
    out = round_score([card_types("8S 8H 8D 8C 8S 8H 8D"), card_types("KS KH 2C")], 1,
                      card_types("AS 4H"), card_types("JK 5S 5H 5D 5C 5S 5H 5D 5C 5S 5H"),
                      False, R)
    assert out["round_score"] == 70 + 500 + 40 + 100 - 25 - 100
    b = out["breakdown"]
    assert b["kitty_penalty"] == -100 and b["hand_penalty"] == -25
    # A red three still inside an unpicked kitty counts 0 (rules 9.10).
    out2 = round_score([], 0, [], card_types("3H 3D 3H 3D 4S 4S 4S 4S 4S 4S 4S"), False, R)
    assert out2["round_score"] == -35


def test_round_score_went_out():
    # Four canastas (red Q 70+500, black K 5K+2+JK = 120+300, wild 6x2+JK = 170+1000,
    # sevens 35+1500) + going out 100 + black threes 3S 3C 3S (15) = 3810.
    melds = [card_types(x) for x in ("QS QH QD QC QS QH QD", "KS KH KD KC KS 2C JK",
                                     "2S 2H 2D 2C JK 2S 2H", "7S 7H 7D 7C 7S 7H 7D",
                                     "3S 3C 3S")]
    out = round_score(melds, 0, [], None, True, R)
    assert out["round_score"] == 100 + 70 + 500 + 120 + 300 + 170 + 1000 + 35 + 1500 + 15
    with pytest.raises(UserError):
        round_score(melds[:3], 0, [], None, True, R)  # no sevens canasta
    with pytest.raises(UserError):
        round_score(melds, 0, card_types("4S"), None, True, R)  # hand not empty
    with pytest.raises(UserError):
        round_score(melds, 0, [], None, False, R)  # black threes without going out


def test_score_from_toml_validation():
    base = {"melds": [["QS", "QH", "QD"]], "hand": ["KS"], "kitty": "picked", "red_threes": 0}
    assert score_from_toml(base, R)["round_score"] == 30 - 10
    with pytest.raises(UserError):
        score_from_toml({**base, "colour": 1}, R)
    with pytest.raises(UserError):
        score_from_toml({**base, "kitty": ["4S"]}, R)  # an unpicked kitty holds 11
    with pytest.raises(UserError):
        score_from_toml({**base, "hand": ["QS"] * 5}, R)  # only 4 QS in 2 players' decks
    with pytest.raises(UserError):
        score_from_toml({**base, "red_threes": 9}, R)


def test_r10_game_end():
    assert game_winner([20045, 19990], R) == 0
    assert game_winner([20100, 20100], R) is None
    assert game_winner([19995, 12000], R) is None
    assert game_winner([20100, 20100, 20200], R) == 2


def test_policies():
    assert parse_policy("greedy").go_min == 0
    b = parse_policy("builder:7:20")
    assert (b.go_min, b.floor) == (7, 20)
    assert len(parse_policies("greedy", 3)) == 3
    with pytest.raises(UserError):
        parse_policy("builder:2")
    with pytest.raises(UserError):
        parse_policies("greedy,greedy", 3)
    with pytest.raises(UserError):
        parse_policy("random")


def test_rules_check():
    from analyzer.rules import build_rules

    with pytest.raises(UserError):
        build_rules(CanastaRules, None, ["requirement_values=[1,2]"])
    with pytest.raises(UserError):
        build_rules(CanastaRules, None, ["nonsense=1"])
    with pytest.raises(UserError):
        build_rules(CanastaRules, None, ["requirement_thresholds=[0,0,1,2]"])
    r = build_rules(CanastaRules, None, ["players=3", "red3_replace=true"])
    assert r.players == 3 and r.red3_replace
