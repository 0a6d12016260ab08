"""Railroad Canasta `canasta score` input and round scoring: the whole answer, the defaults of the
score file, and every refusal line (rules page /work/shared/rules/railroad-canasta.md, section 7:
card values JK 50, 2 and A 20, 8–K 10, 4–7 and black 3 5; red canasta +500, black +300, wild
+1000, sevens +1500; red three +100; going out +100; an unpicked kitty of 11 cards counts
against; the game ends with a unique leader at 20000 or more).
"""
import pytest

from analyzer.errors import UserError
from analyzer.games.canasta.rules import CanastaRules, card_types
from analyzer.games.canasta.score import (check_melds, check_unfinished, classify_meld, game_winner,
                                          round_score, score_from_toml)

R = CanastaRules()
RED_Q = ["QS", "QH", "QD", "QC", "QS", "QH", "QD"]       # red canasta: 7 x 10 = 70
KITTY = "JK 5S 5H 5D 5C 5S 5H 5D 5C 4S 4H"                 # 50 + 10 x 5 = 100


def test_the_whole_answer_of_a_score_file():
    # red Q canasta 70 + 500; K K 2: 40; one red three 100; hand A 4: −25; kitty picked: 0
    got = score_from_toml({"melds": [RED_Q, ["KS", "KH", "2C"]], "red_threes": 1,
                           "hand": ["AS", "4H"], "kitty": "picked", "rules": {}}, R)
    assert got["round_score"] == 70 + 500 + 40 + 100 - 25 and got["exact"] is True
    assert got["breakdown"] == {
        "going_out_bonus": 0, "meld_cards": 110,
        "canasta_bonuses": {"red": 500, "black": 0, "wild": 0, "sevens": 0},
        "canastas": {"red": 1, "black": 0, "wild": 0, "sevens": 0},
        "red_threes": 100, "hand_penalty": -25, "kitty_penalty": 0}
    assert [m["cards"] for m in got["melds"]] == [RED_Q, ["KS", "KH", "2C"]]
    assert [m["canasta"] for m in got["melds"]] == ["red", None]


@pytest.mark.parametrize("kitty", ["picked", "Taken", "", None])
def test_a_picked_kitty_counts_nothing_and_is_the_default(kitty):
    data = {"hand": ["4S"]}  # no melds, no red threes: −5
    if kitty is not None:
        data["kitty"] = kitty
    got = score_from_toml(data, R)
    assert got["round_score"] == -5 and got["breakdown"]["kitty_penalty"] == 0
    assert got["breakdown"]["red_threes"] == 0 and got["breakdown"]["going_out_bonus"] == 0


def test_an_unpicked_kitty_counts_against():
    got = score_from_toml({"melds": [RED_Q], "kitty": KITTY}, R)
    assert got["round_score"] == 570 - 100 and got["breakdown"]["kitty_penalty"] == -100


def test_going_out_with_the_four_canastas():
    melds = [RED_Q, ["KS", "KH", "KD", "KC", "KS", "2C", "JK"],
             ["2S", "2H", "2D", "2C", "JK", "2S", "2H"], ["7S", "7H", "7D", "7C", "7S", "7H", "7D"]]
    got = score_from_toml({"melds": melds, "went_out": True}, R)
    assert got["breakdown"]["going_out_bonus"] == 100
    assert got["round_score"] == 100 + 70 + 500 + 120 + 300 + 170 + 1000 + 35 + 1500


def test_eight_red_threes_are_the_most_two_players_hold():
    assert score_from_toml({"red_threes": 8}, R)["round_score"] == 800


@pytest.mark.parametrize("data,message", [
    ({"colour": 1}, "unknown key 'colour' in the score file (known: hand, kitty, melds, "
                    "red_threes, went_out)"),
    ({"melds": "QS QH QD"}, "'melds' must be a list of card lists"),
    ({"kitty": "4S 4H"}, "an unpicked kitty holds 11 cards, got 2"),
    ({"red_threes": True}, "'red_threes' must be an integer"),
    ({"red_threes": 1.0}, "'red_threes' must be an integer"),
    ({"went_out": "yes"}, "'went_out' must be true or false"),
    ({"red_threes": 9}, "red_threes = 9 but the deck holds only 8"),
    ({"red_threes": -1}, "red_threes must be non-negative"),
    # five QS among two melds and the hand: two players' decks hold 4
    ({"melds": [["QS", "QS", "QS"], ["KS", "KS", "KS"]], "hand": ["QS", "QS"]},
     "card QS appears 5 times but 2 players' decks hold only 4"),
    ({"melds": [["QS", "QH"]]}, "meld QS QH is not legal: a meld needs at least 3 cards"),
    ({"melds": [RED_Q], "went_out": True},
     "went_out = true needs a canasta of each type; missing: black, wild, sevens"),
    ({"hand": ["3H"]}, "a red three cannot stay in the hand (it is placed at once)"),
])
def test_bad_score_files_are_refused_in_one_line(data, message):
    with pytest.raises(UserError) as err:
        score_from_toml(data, R)
    assert str(err.value) == message


def test_going_out_with_cards_in_hand_is_refused():
    melds = [[12] * 7]  # not enough for going out anyway: the canasta check comes first
    with pytest.raises(UserError) as err:
        round_score(melds, 0, [4], None, True, R)
    assert str(err.value) == ("went_out = true needs a canasta of each type; missing: black, "
                              "wild, sevens")
    full = [[12] * 7, [13] * 5 + [1, 0], [1] * 6 + [0], [7] * 7]
    with pytest.raises(UserError) as err:
        round_score(full, 0, [4], None, True, R)
    assert str(err.value) == "went_out = true but the hand is not empty"


def test_a_unique_leader_at_the_target_wins():
    assert game_winner([20000, 100], R) == 0
    assert game_winner([100, 20500], R) == 1
    assert game_winner([19999, 100], R) is None
    assert game_winner([20000, 20000], R) is None


# ------------------------------------------------------------------ `canasta check` (melds)
def reasons(out):
    return [(m["legal"], m["reason"]) for m in out["melds"]]


def test_check_answer_against_the_requirement():
    # R3 of the rules page: at 5000 the requirement is 90; K K K (30) + A A 2 (60) = 90
    got = check_melds(["KS,KH,KD", "AS,AH,2C"], R, score=5000)
    assert {k: v for k, v in got.items() if k != "melds"} == {
        "legal": True, "value": 90, "score": 5000, "melded_already": False, "exact": True,
        "requirement": 90, "meets_requirement": True, "short_by": 0}
    assert reasons(got) == [(True, ""), (True, "")]
    assert [m["added_to_existing"] for m in got["melds"]] == [False, False]
    after = check_melds(["KS,KH,KD"], R, melded=True)
    assert after["requirement"] is None and after["meets_requirement"] is True


def test_check_defaults_score_0_and_not_going_out():
    got = check_melds(["3S,3C,3S"], R)
    assert got["score"] == 0 and got["requirement"] == 50 and got["legal"] is False
    assert reasons(got) == [(False, "black threes may only be melded on the turn the player "
                                    "goes out")]


def test_existing_black_threes_are_legal_and_take_no_wild():
    got = check_melds(["+2C"], R, melded=True, existing=["3S,3C,3S"])
    assert reasons(got) == [(False, "no unfinished meld to add the wild cards to")]
    assert got["melds"][0]["added_to_existing"] is True


def test_wilds_join_the_highest_unfinished_meld_that_takes_them():
    one = check_melds(["+2C"], R, melded=True, existing=["KS,KH,KD"])
    assert reasons(one) == [(True, "")] and one["melds"][0]["cards"] == ["KS", "KH", "KD", "2C"]
    full = ["KS,KH,2S,2H,JK", "QS,QH,2D,2H,JK"]  # both hold 3 wilds already
    single = check_melds(["+2C"], R, melded=True, existing=full[:1])
    assert reasons(single) == [(False, "a mixed meld holds at most 3 wild cards")]
    both = check_melds(["+2C"], R, melded=True, existing=full)
    assert reasons(both) == [(False, "no unfinished meld can take them (K meld: a mixed meld "
                                     "holds at most 3 wild cards; Q meld: a mixed meld holds "
                                     "at most 3 wild cards)")]
    assert both["melds"][0]["cards"] == ["2C"]


def test_new_melds_against_unfinished_ones():
    assert reasons(check_melds(["+QS,QH"], R, melded=True)) == \
        [(False, "no unfinished Q meld to add to")]
    assert reasons(check_melds(["QC,QS,QH"], R, melded=True, existing=["QS,QH,QD"])) == \
        [(False, "you already have an unfinished Q meld: add to it instead")]
    assert reasons(check_melds(["QS,QH,QD", "QC,QS,QH"], R, melded=True)) == \
        [(True, ""), (False, "two unfinished Q melds at once")]
    # two closed canastas of one rank are fine
    assert check_melds([",".join(RED_Q)] * 2, R, melded=True)["legal"] is True


@pytest.mark.parametrize("existing,message", [
    (["QS,QH"], "existing meld QS QH is not legal: a meld needs at least 3 cards"),
    (["QS,QH,QD", "QC,QS,QH"], "--existing: two unfinished Q melds: a player has at most one "
                               "unfinished meld of each rank (and one wild meld)"),
])
def test_bad_existing_melds_are_refused(existing, message):
    with pytest.raises(UserError) as err:
        check_melds(["KS,KH,KD"], R, melded=True, existing=existing)
    assert str(err.value) == message


def test_an_empty_meld_is_refused():
    with pytest.raises(UserError) as err:
        check_melds(["KS,KH,KD"], R, melded=True, existing=[" "])
    assert str(err.value) == "empty meld"


# ------------------------------------------------------------------ single melds (section 3)
@pytest.mark.parametrize("cards,going_out,kind,reason", [
    ("3H 4S 4H", True, "natural", "red threes are never melded (they are placed for a bonus)"),
    ("3S 3C 2C", True, "black-threes", "black threes meld only with black threes (no wilds)"),
    ("3S 3C", True, "black-threes", "a meld needs at least 3 cards"),
    ("3S 3C 3S", False, "black-threes",
     "black threes may only be melded on the turn the player goes out"),
    ("QS QH", False, "natural", "a meld needs at least 3 cards"),
    ("2C JK", False, "wild", "a meld needs at least 3 cards"),
    ("QS QH QD QC QS QH QD QC", False, "natural",
     "a meld has at most 7 cards (a canasta is closed)"),
    ("2C 2D 2H 2S JK JK 2C 2D", False, "wild", "a meld has at most 7 cards (a canasta is closed)"),
    ("QS KS 2C", False, "natural", "a meld holds one natural rank only"),
    ("QS 2C 2D", False, "natural", "a mixed meld needs at least 2 natural cards"),
    ("7S 7H 2C", False, "natural", "no wild card may join a meld of sevens"),
])
def test_illegal_melds_and_their_reasons(cards, going_out, kind, reason):
    m = classify_meld(card_types(cards), R, going_out)
    assert (m.kind, m.legal, m.reason) == (kind, False, reason)


def test_a_meld_shown_as_json():
    got = classify_meld(card_types("QS QH 2C"), R).to_json()
    assert got == {"cards": ["Q", "Q", "2"], "kind": "natural", "rank": "Q", "naturals": 2,
                   "wilds": 1, "size": 3, "value": 40, "canasta": None, "legal": True,
                   "reason": ""}
    # black threes are legal only when going out, which is not the default
    assert classify_meld(card_types("3S 3C 3S"), R).legal is False
    assert classify_meld(card_types("3H 4S 4H"), R).to_json()["rank"] is None


def test_two_unfinished_melds_of_a_rank_are_refused():
    ms = [classify_meld(card_types("QS QH QD"), R), classify_meld(card_types("QC QS 2C"), R)]
    with pytest.raises(UserError) as err:
        check_unfinished(ms)
    assert str(err.value) == ("two unfinished Q melds: a player has at most one unfinished meld "
                              "of each rank (and one wild meld)")


# ------------------------------ a house rule and going out, through every path that reads them
SEVENS_WILD = CanastaRules(wilds_in_sevens=True)


def test_wilds_in_sevens_reaches_every_meld_path():
    # a new meld, an existing meld, a "+" of naturals and wilds, and a "+" of wild cards only
    for rules, legal in ((R, False), (SEVENS_WILD, True)):
        new = check_melds(["7S,7H,2C"], rules, melded=True)
        assert new["legal"] is legal
        plus = check_melds(["+7D,2C"], rules, melded=True, existing=["7S,7H,7C"])
        assert plus["legal"] is legal
        wild_only = check_melds(["+JK"], rules, melded=True, existing=["7S,7H,7C"])
        assert wild_only["legal"] is legal
        if legal:
            assert wild_only["melds"][0]["cards"] == ["7S", "7H", "7C", "JK"]
        else:
            assert reasons(wild_only) == [(False, "no wild card may join a meld of sevens")]
    assert check_melds(["+7D"], SEVENS_WILD, melded=True, existing=["7S,7H,2C"])["legal"]
    with pytest.raises(UserError) as err:
        check_melds(["+7D"], R, melded=True, existing=["7S,7H,2C"])
    assert str(err.value) == ("existing meld 7S 7H 2C is not legal: no wild card may join a "
                              "meld of sevens")


def test_wilds_in_sevens_reaches_the_round_score():
    mixed_sevens = ["7S", "7H", "7D", "7C", "7S", "7H", "2C"]    # 6 x 5 + 20 = 50
    got = score_from_toml({"melds": [mixed_sevens]}, SEVENS_WILD)
    assert got["round_score"] == 50 + 300 and got["melds"][0]["canasta"] == "black"
    with pytest.raises(UserError):
        score_from_toml({"melds": [mixed_sevens]}, R)


def test_going_out_reaches_the_new_and_the_wild_meld_paths():
    threes = check_melds(["3S,3C,3S"], R, melded=True, going_out=True)
    assert reasons(threes) == [(True, "")] and threes["melds"][0]["kind"] == "black-threes"
    # two black-three melds at once are not an unfinished-meld clash
    two = check_melds(["3S,3C,3S", "3C,3S,3C"], R, melded=True, going_out=True)
    assert reasons(two) == [(True, ""), (True, "")]
    assert check_melds(["3S,3C,3S"], R, melded=True)["legal"] is False


def test_a_black_threes_meld_is_no_unfinished_meld_of_its_rank():
    got = check_melds(["3S,3C,3S"], R, melded=True, existing=["3C,3S,3C"], going_out=True)
    assert reasons(got) == [(True, "")]


def test_labels_are_kept_through_every_path():
    got = check_melds(["+2C", "+KD,JK", "QS,QH,QD"], R, melded=True,
                      existing=["AS,AH,AD", "KS,KH,KC"])
    assert [m["cards"] for m in got["melds"]] == [["AS", "AH", "AD", "2C"],
                                                  ["KS", "KH", "KC", "KD", "JK"],
                                                  ["QS", "QH", "QD"]]
    none_fits = check_melds(["+2C"], R, melded=True)
    assert none_fits["melds"][0]["cards"] == ["2C"]


def test_the_supply_counts_every_meld_and_the_existing_ones():
    # two players: 4 copies of each card; 5 kings of spades over several melds is too many
    for proposed, existing in ((["KS,KS,KS", "AS,AH,AD", "+KS,KS"], []),
                               (["KS,KS,KS", "AS,AH,AD"], ["KS,KS,KH"]),
                               (["AS,AH,AD"], ["KS,KS,KS,KS,KS"])):
        with pytest.raises(UserError, match="card KS appears 5 times"):
            check_melds(proposed, R, melded=True, existing=existing)
    assert check_melds(["KS,KS,KH", "AS,AH,AD"], R, melded=True, existing=["QS,QH,QD"])["legal"]


@pytest.mark.parametrize("text", ["+", " + ", ""])
def test_an_empty_proposed_meld_is_refused_by_name(text):
    with pytest.raises(UserError) as err:
        check_melds(["KS,KH,KD", text], R)
    assert str(err.value) == f"empty meld '{text}'"


def test_only_the_plus_is_stripped_from_an_added_meld():
    with pytest.raises(UserError):
        check_melds(["+X7S"], R, melded=True, existing=["7S,7H,7C"])
