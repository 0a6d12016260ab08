"""Railroad Canasta: cards, values, meld legality, canasta types, requirement, scoring.

Expected values come from the rules reference (docs/rules/canasta.md, examples R1-R10) or
are derived by hand in the comments.
"""
import math

import numpy as np
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


# ---- the policies' words and kernel rows, the rules' array, the jobs (canasta/play.py) -----------
# Column numbers from kernels/canasta/layout.py's docstrings: the rules vector R_NP … R_MAXROUNDS
# (16 entries), the policy row (6 knobs, then P_TAKEN = 6 with 4 rows of 6 words from 7, then
# P_GON = 31 with its rows from 32: 56 words).

GREEDY_TAIL = ("takes the pile whenever allowed; melds naturals at once; starts a wild meld with "
               ">= {w} wilds; adds wilds to finish a black canasta when a meld has >= {b} "
               "naturals; discards black threes first, then the least useful card (safe, "
               "unpaired), wilds last")


def test_policy_labels_and_words_word_for_word():
    from analyzer.games.canasta.play import CanastaPolicy

    assert parse_policy("greedy").describe() == (
        "greedy: goes out as soon as allowed; " + GREEDY_TAIL.format(w=3, b=5))
    assert CanastaPolicy("builder", go_min=4, floor=0, black_nat=6, wild_min=2).describe() == (
        "builder:4:0: goes out only with >= 4 canastas or stock <= 0; "
        + GREEDY_TAIL.format(w=2, b=6))
    row = (0, 0, 0, 1, 1, 3)
    taker = CanastaPolicy("greedy", take_table=(row,), text="rule:t.json",
                          words="Take the pile with 3 or more cards in it.")
    assert taker.label == "rule:t.json"
    assert taker.describe() == ("rule:t.json: Take the pile with 3 or more cards in it. "
                                "Otherwise plays as greedy.")
    # a go-out table alone also replaces the knobs' words; no words given: "rule tables"
    assert CanastaPolicy("builder", go_min=7, floor=30, go_table=(row,)).describe() == (
        "builder:7:30: rule tables Otherwise plays as greedy.")
    assert CanastaPolicy("builder", go_min=7, floor=30, text="rule:b.json").label == "rule:b.json"


def test_policy_rows_place_the_knobs_and_both_tables():
    from analyzer.games.canasta.play import CanastaPolicy, policy_array

    assert parse_policy("greedy").row() == [0, 0, 5, 3, 1, 1] + [0] * 50
    take = ((1, 0, 5, 2, 1, 10),)
    go = ((0, 0, 0, 3, 1, 2), (2, 0, 9, 7, 1, -50), (4, 1, 1, 0, 0, 0), (5, 0, 2, 3, 1, 4))
    p = CanastaPolicy("builder", go_min=6, floor=12, black_nat=4, wild_min=2, take=0,
                      take_min=7, take_table=take, go_table=go)
    expected = ([6, 12, 4, 2, 0, 7] + [1, 1, 0, 5, 2, 1, 10] + [0] * 18
                + [4, 0, 0, 0, 3, 1, 2, 2, 0, 9, 7, 1, -50, 4, 1, 1, 0, 0, 0, 5, 0, 2, 3, 1, 4])
    assert p.row() == expected
    arr = policy_array([p, parse_policy("greedy")])
    assert arr.dtype == np.int64 and arr.tolist() == [expected, [0, 0, 5, 3, 1, 1] + [0] * 50]
    for five in ({"take_table": take * 5}, {"go_table": go + take}):
        with pytest.raises(UserError) as e:
            CanastaPolicy("greedy", **five).row()
        assert str(e.value) == "a rule table has at most 4 rows"


def test_rules_arrays_entry_by_entry():
    from analyzer.games.canasta.play import rules_arrays

    rules = CanastaRules(players=3, hand_size=11, kitty_size=9, target=5000, going_out_bonus=101,
                         red_three_bonus=102, bonus_red=503, bonus_black=304, bonus_wild=1005,
                         bonus_sevens=1506, requirement_thresholds=(0, 4000),
                         requirement_values=(10, 60, 95), red3_replace=True,
                         wild_upcard_freezes=False, wilds_in_sevens=True,
                         lock_meld_needs_requirement=True, max_rounds=77)
    rp, thr, reqv = rules_arrays(rules)
    # players, hand, kitty, going-out and red-three bonuses, the four canasta bonuses, at most 3
    # wilds in a mixed meld (section 3), red3_replace, wild up-card freezes, wilds in sevens,
    # target, the lock's requirement, the round cap
    assert rp.tolist() == [3, 11, 9, 101, 102, 503, 304, 1005, 1506, 3, 1, 0, 1, 5000, 1, 77]
    assert rules_arrays(CanastaRules())[0].tolist()[9:13] == [3, 0, 1, 0]
    assert (thr.tolist(), reqv.tolist()) == ([0, 4000], [10, 60, 95])
    assert rp.dtype == thr.dtype == reqv.dtype == np.int64


def test_jobs_pass_the_stated_position_or_an_empty_one_to_the_kernel(monkeypatch):
    from analyzer.games.canasta.play import _dummy_position, make_job

    seen = []
    monkeypatch.setattr("kernels.canasta.mc_blocks", lambda *a: seen.append(a) or "ran",
                        raising=False)
    # the empty position of 3 players: hands (3 x 15 card types), kitty flags, unfinished melds
    # (3 x 15 x 3), canasta counts (3 x 4), player scalars (3 x 11), pile (15), table state (8),
    # unseen cards (15), opponents' hand sizes (3): all int64 zeros
    empty = _dummy_position(3)
    assert [a.shape for a in empty] == [(3, 15), (3,), (3, 15, 3), (3, 4), (3, 11), (15,), (8,),
                                        (15,), (3,)]
    assert all(a.dtype == np.int64 and not a.any() for a in empty)
    greedy = parse_policies("greedy", 3)
    job = make_job(1, CanastaRules(players=3), greedy, score=250, turns=4)
    assert (job.name, job.unit, job.block_size, job.headline_half_width) == (
        "canasta", "trials", 64, None)
    assert job.run_blocks("k", "c") == "ran"
    args = seen.pop()
    assert args[:3] == ("k", "c", 1) and (args[7], args[8]) == (250, 4)
    assert args[3][0] == 3 and args[4].shape == (3, 56)
    assert [a.shape for a in args[9:18]] == [a.shape for a in empty]
    assert all(a.dtype == np.int64 and not a.any() for a in args[9:18])
    assert args[18:] == (0, False, 0)
    arrays = tuple(f"array {i}" for i in range(9))
    job = make_job(3, CanastaRules(players=3), greedy, position={
        "arrays": arrays, "stock": 37, "skip_draw": True, "kind": 2}, name="n", unit="u",
        headline=len)
    assert (job.name, job.unit, job.headline_half_width) == ("n", "u", len)
    job.run_blocks("k", "c")
    args = seen.pop()
    assert args[2] == 3 and (args[7], args[8]) == (0, 0)
    assert args[9:] == arrays + (37, True, 2)


def test_round_figures_in_display_order_and_ratio_edges():
    from analyzer.games.canasta.play import _in_display_order, ratio_stat

    # the endings go right after turns, in the order went out, sevens lock, stall, stock
    # exhausted; without turns they lead
    assert list(_in_display_order({"a": 1, "stall": 2, "turns": 3, "went_out": 4, "b": 5})) == [
        "a", "turns", "went_out", "stall", "b"]
    d = _in_display_order({"a": 1, "stock_exhausted": 2, "went_out": 3})
    assert d == {"went_out": 3, "stock_exhausted": 2, "a": 1}
    assert list(d) == ["went_out", "stock_exhausted", "a"]
    # two games are enough for a ratio: x = (3, 1) over y = (1, 3): r = 1, e = (2, -2),
    # SE = sqrt(8 / 2) / 2 = 1
    st = ratio_stat(4, 10, 6, 4, 10, 2)
    assert (st.estimate, st.se, st.n) == (1.0, 1.0, 2)
    assert (st.ci_low, st.ci_high) == pytest.approx((1 - 1.959963984540054, 1 + 1.959963984540054))
    # sums whose residual square sum comes out below 0 (rounding over long runs): SE 0, not an
    # error; here Σx² − 2r·Σxy + r²·Σy² = 1 − 6 + 2 with r = 1
    st = ratio_stat(2, 1, 3, 2, 2, 3)
    assert (st.estimate, st.se, st.ci_low, st.ci_high, st.n) == (1.0, 0.0, 1.0, 1.0, 3)
    # one kitty pick-up in two games (on turn 5) is enough: 5 / 1 with SE 0 (e = 0, 0)
    st = ratio_stat(5, 25, 5, 1, 1, 2)
    assert (st.estimate, st.se, st.ci_low, st.ci_high, st.n) == (5.0, 0.0, 5.0, 5.0, 2)
    # no rounds (or a negative total) and fewer than two games: not a number
    for args in ((1, 1, 1, 0, 0, 5), (1, 1, 1, -2, 4, 5), (1, 1, 1, 1, 1, 1)):
        st = ratio_stat(*args)
        assert all(math.isnan(v) for v in (st.estimate, st.se, st.ci_low, st.ci_high))
        assert st.n == args[-1]
