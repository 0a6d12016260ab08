"""Railroad Canasta `canasta score` input and round scoring: the whole answer, the defaults of the
score file, and every refusal line (rules page /work/shared/rules/railroad-canasta.md, section 7:
card values JK 50, 2 and A 20, 8–K 10, 4–7 and black 3 5; red canasta +500, black +300, wild
+1000, sevens +1500; red three +100; going out +100; an unpicked kitty of 11 cards counts
against; the game ends with a unique leader at 20000 or more).
"""
import pytest

from analyzer.errors import UserError
from analyzer.games.canasta.rules import CanastaRules
from analyzer.games.canasta.score import game_winner, round_score, score_from_toml

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
