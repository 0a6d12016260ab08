"""Ten collection scoring: examples that need the search's every part, the wild assignment it
reports, and the copy check's refusal lines (rules page /work/shared/rules/ten.md, "Scoring":
a colour scores its longest run of consecutive values, 1 point a card, 10 for 1–9; a colour
wild fills its colour at any value, a number wild its value in any colour, ``**`` anything).
"""
import pytest

from analyzer.errors import UserError
from analyzer.games.ten.rules import parse_cards
from analyzer.games.ten.score import check_copies, score_collection


def score_of(text):
    return score_collection(parse_cards(text))


@pytest.mark.parametrize("cards,expected", [
    # red 3–5 (the 1 alone is a shorter run): 3
    ("r1,r3,r4,r5", 3),
    # ** as orange 4 gives orange 1–7 (7) + red 1–2 (2) = 9; as red 3 only red 1–4 (4) +
    # orange 1–3 or 5–7 (3) = 7. The best use of the wild is in the last colour.
    ("r1,r2,r4,o1,o2,o3,o5,o6,o7,**", 9),
    # green 2–8 and 4 (a 1-card run) only count once: 7
    ("g2,g3,g4,g5,g6,g7,g8,g4", 7),
])
def test_score_examples_that_need_every_candidate_run(cards, expected):
    assert score_of(cards)["score"] == expected


def test_a_colour_wild_with_nothing_to_fill_is_reported_unused():
    # red 1–9 is complete (10); r# cannot score elsewhere
    got = score_of("r1,r2,r3,r4,r5,r6,r7,r8,r9,r#")
    assert got["score"] == 10 and got["unused_wilds"] == ["r#"]
    assert got["colours"][0] == {"colour": "red", "points": 10, "run": [1, 9], "length": 9,
                                 "wilds": []}


def test_the_wild_that_fills_the_gap_is_the_one_reported():
    # blue 1–8 needs 9: only ** can fill it (r# is red only); r# stays unused (red 1–9 owned)
    got = score_of("r1,r2,r3,r4,r5,r6,r7,r8,r9,b1,b2,b3,b4,b5,b6,b7,b8,**,r#")
    assert got["score"] == 20 and got["unused_wilds"] == ["r#"]
    blue = got["colours"][1]
    assert blue["run"] == [1, 9] and blue["wilds"] == [{"wild": "**", "value": 9}]


def test_among_equal_choices_the_first_colour_and_lowest_run_are_reported():
    # ** alone scores 1 anywhere; the search keeps its first best: red, value 1
    got = score_of("**")
    assert got["score"] == 1 and got["unused_wilds"] == []
    assert [c["run"] for c in got["colours"]] == [[1, 1], None, None, None]
    assert got["colours"][0]["wilds"] == [{"wild": "**", "value": 1}]


@pytest.mark.parametrize("cards,deck,message", [
    ("r1,r1,r1", {"r1": 2}, "--collection: card 'r1' is listed 3 times but the deck holds 2"),
    ("r1", {}, "--collection: card 'r1' is listed 1 time but the deck holds 0"),
    ("b2,b2", {"r1": 1}, "--collection: card 'b2' is listed 2 times but the deck holds 0"),
])
def test_too_many_copies_are_refused_in_one_line(cards, deck, message):
    with pytest.raises(UserError) as err:
        check_copies(parse_cards(cards), deck, "--collection")
    assert str(err.value) == message


def test_copies_the_deck_holds_are_accepted():
    check_copies(parse_cards("r1,r1,b2"), {"r1": 2, "b2": 1}, "--collection")


def test_the_whole_result_of_a_small_collection():
    # *3 completes red 1–4 (4 points; as any other card it would add 1 to red 1–2's 2);
    # b5 is a 1-card blue run (1); green and orange score nothing
    got = score_of("r1,r2,r4,*3,b5")
    none = {"points": 0, "run": None, "length": 0, "wilds": []}
    assert got == {
        "score": 5,
        "colours": [{"colour": "red", "points": 4, "run": [1, 4], "length": 4,
                     "wilds": [{"wild": "*3", "value": 3}]},
                    {"colour": "blue", "points": 1, "run": [5, 5], "length": 1, "wilds": []},
                    {"colour": "green", **none}, {"colour": "orange", **none}],
        "unused_wilds": [], "cards": 5, "exact": True}
