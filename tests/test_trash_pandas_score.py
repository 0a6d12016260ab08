"""Trash Pandas deck files, stash notation and end-of-game scoring, in-process and fast.

Expected values are worked by hand from /work/shared/rules/trash-pandas.md ("Scoring") and the
shipped deck (analyzer/data/trash_pandas_deck.toml: Feesh 5/3/1, Nanners, Shiny and Yum Yum
4/2/1, MMM Pie! 6/2/1, Doggo and Kitteh 0/0/0, Blammo! 1 point per card; 53 cards). Error
messages are checked whole: they are the one line a user sees (STYLE: bad input → one line).
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.games.trash_pandas.score import (
    DeckArrays, check_deal, deck_arrays, load_deck, majority_points, parse_stash, score,
)

WHOLE = ("blammo", "doggo", "feesh", "kitteh", "pie", "nanners", "shiny", "yumyum")


def write_deck(tmp_path, body: str, name: str = "deck.toml"):
    path = tmp_path / name
    path.write_text(body)
    return path


def eight_types(extra: str = "", feesh_points: str = "[5, 3, 1]") -> str:
    """A deck file with the whole game's eight types, 2 copies each (16 cards)."""
    out = []
    for key in WHOLE:
        if key == "blammo":
            out.append(f"[cards.{key}]\ncopies = 2\nper_card = 1\n")
        elif key == "feesh":
            out.append(f"[cards.{key}]\ncopies = 2\npoints = {feesh_points}\n")
        else:
            out.append(f"[cards.{key}]\ncopies = 2\npoints = [3, 2, 1]\n")
    return "\n".join(out) + extra


# ------------------------------------------------------------------------------ deck files
def test_a_deck_file_of_ones_own_is_read_with_its_names_and_defaults(tmp_path):
    p = write_deck(tmp_path, 'title = "my box"\n[cards.feesh]\nname = "Fish"\ncopies = 1000\n'
                             'points = [1000, 0, 0, 0, 0, 0, 0, 0, 0, 1]\ntitle = "x"\n'
                             '[cards.doggo]\ncopies = 0\n')
    deck = load_deck(p)
    assert list(deck) == ["feesh", "doggo"]
    fish, dog = deck["feesh"], deck["doggo"]
    assert (fish.key, fish.name, fish.copies, fish.points, fish.per_card) == \
        ("feesh", "Fish", 1000, (1000, 0, 0, 0, 0, 0, 0, 0, 0, 1), 0)
    # no name: the key is the name; no points: an empty tuple; no per_card: 0
    assert (dog.key, dog.name, dog.copies, dog.points, dog.per_card) == ("doggo", "doggo", 0, (), 0)
    assert load_deck(str(p)) == deck and load_deck("") == load_deck(None) == load_deck()


@pytest.mark.parametrize("body,message", [
    ('x = 1\n', "no [cards.*] tables"),
    ('cards = "feesh"\n', "no [cards.*] tables"),
    ('[cards]\n', "no [cards.*] tables"),
    ('[cards]\nfeesh = 3\n', "cards.feesh must be a table"),
    ('[cards.feesh]\ncopies = 1\ncolour = "red"\nsize = 2\n',
     "card 'feesh' has unknown key(s) colour, size"),
    ('[cards.feesh]\npoints = [1]\n', "card 'feesh' needs 'copies'"),
    ('[cards.feesh]\ncopies = true\n', "card 'feesh': 'copies' must be an integer, got True"),
    ('[cards.feesh]\ncopies = 2.0\n', "card 'feesh': 'copies' must be an integer, got 2.0"),
    ('[cards.feesh]\ncopies = "2"\n', "card 'feesh': 'copies' must be an integer, got '2'"),
    ('[cards.feesh]\ncopies = 1001\n', "card 'feesh': 'copies' = 1001 is outside 0..1000"),
    ('[cards.feesh]\ncopies = -1\n', "card 'feesh': 'copies' = -1 is outside 0..1000"),
    ('[cards.feesh]\ncopies = 1\npoints = 5\n',
     "card 'feesh': 'points' must be a list of at most 10 integers like [5, 3, 1], got 5"),
    ('[cards.feesh]\ncopies = 1\npoints = [1,1,1,1,1,1,1,1,1,1,1]\n',
     "card 'feesh': 'points' must be a list of at most 10 integers like [5, 3, 1], "
     "got [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"),
    ('[cards.feesh]\ncopies = 1\npoints = [5, 1001]\n',
     "card 'feesh': 'points' = 1001 is outside 0..1000"),
    ('[cards.feesh]\ncopies = 1\npoints = [5, 1.5]\n',
     "card 'feesh': 'points' must be an integer, got 1.5"),
    ('[cards.feesh]\ncopies = 1\nper_card = 1001\n',
     "card 'feesh': 'per_card' = 1001 is outside 0..1000"),
    ('[cards.feesh]\ncopies = 1\nper_card = false\n',
     "card 'feesh': 'per_card' must be an integer, got False"),
    ('[cards.feesh]\ncopies = 1\nname = 7\n', "card 'feesh': 'name' must be a string"),
])
def test_bad_deck_files_are_refused_in_one_line_naming_the_file(tmp_path, body, message):
    p = write_deck(tmp_path, body)
    with pytest.raises(UserError) as err:
        load_deck(p)
    assert str(err.value) == f"{p}: {message}"


# ------------------------------------------------------------------------- stash notation
@pytest.mark.parametrize("stash,message", [
    ("A:feesh=1;;B:feesh=1",
     "--stash 'A:feesh=1;;B:feesh=1' has an empty player (two ';' in a row?)"),
    ("A:feesh=1; ", "--stash 'A:feesh=1; ' has an empty player (two ';' in a row?)"),
    (":feesh=1", "missing player name in ':feesh=1'"),
    ("A:feesh=1;A:shiny=1", "player 'A' listed twice"),
    ("A:feesh=1:2", "A: expected card=count, got '2'"),
    ("A:feesh=1;B:feesh=1:2", "B: count of 'feesh' must be an integer, got '1:2'"),
    ("A:feesh=1=2", "A: count of 'feesh' must be an integer, got '1=2'"),
    ("A:feesh=x", "A: count of 'feesh' must be an integer, got 'x'"),
    ("B:feesh=1::shiny=1", "B: an empty item in 'feesh=1::shiny=1'"),
    ("B:feesh=1,,C:shiny=1",
     "--stash 'B:feesh=1,,C:shiny=1' has an empty player (two ',' in a row?)"),
    ("B:feesh=1,,shiny=1;C:feesh=1", "B: an empty item in 'feesh=1,,shiny=1'"),
    ("", "P1: an empty item in ''"),
    ("B:feesh", "B: expected card=count, got 'feesh'"),
    ("B:feesh=-1", "B: count of 'feesh' is negative (-1)"),
    ("B:feesh=1:Feesh=2", "B: card 'Feesh' listed twice"),
    ("B:fish=1", "B: unknown card 'fish' (cards: blammo, doggo, feesh, kitteh, pie, nanners, "
                 "shiny, yumyum)"),
    ("A:feesh=4;B:feesh=4", "8 Feesh stashed but the deck has 7"),
    ("feesh=1;shiny=2;doggo=x", "P3: count of 'doggo' must be an integer, got 'x'"),
])
def test_bad_stashes_are_refused_with_one_exact_line(stash, message):
    with pytest.raises(UserError) as err:
        parse_stash(stash, load_deck())
    assert str(err.value) == message


def test_the_shared_list_syntax_needs_no_quotes_and_reads_as_the_old_one():
    """Players by ',', a player's name and cards by ':' (docs/conventions.md); the old ';'
    form reads the same stashes."""
    d = load_deck()
    new = parse_stash("A:feesh=3:blammo=2,B:feesh=3,C:feesh=1", d)
    assert new == {"A": {"feesh": 3, "blammo": 2}, "B": {"feesh": 3}, "C": {"feesh": 1}}
    assert parse_stash("A:feesh=3,blammo=2;B:feesh=3;C:feesh=1", d) == new
    assert parse_stash("feesh=2:pie=1", d) == {"P1": {"feesh": 2, "pie": 1}}
    import shlex

    assert shlex.split("--stash A:feesh=3:blammo=2,B:feesh=3") == \
        ["--stash", "A:feesh=3:blammo=2,B:feesh=3"]


@pytest.mark.parametrize("stash,new", [
    # the old one-player spelling without ';': not read as two players
    ("A:feesh=3,blammo=2", "A:feesh=3:blammo=2"),
    ("feesh=3,blammo=2", "feesh=3:blammo=2"),
    ("A:feesh=3,B:feesh=1,shiny=1", "A:feesh=3:B:feesh=1:shiny=1"),
])
def test_an_unnamed_player_among_several_is_refused_naming_the_syntax(stash, new):
    with pytest.raises(UserError) as err:
        parse_stash(stash, load_deck())
    text = str(err.value)
    assert "\n" not in text and "names no player" in text
    assert "A:feesh=3:blammo=2,B:feesh=1" in text and f"one player alone: {new})" in text


def test_unnamed_players_are_numbered_and_aliases_are_read_in_any_case():
    got = parse_stash(" feesh = 2 ; MMM-Pie!=1, Blammo!=3 ;Yum Yum=1", load_deck())
    assert got == {"P1": {"feesh": 2}, "P2": {"pie": 1, "blammo": 3}, "P3": {"yumyum": 1}}


# ------------------------------------------------------------------------------- scoring
def test_breakdown_lists_only_stashed_types_with_their_points():
    d = load_deck()
    # Feesh 3 vs 1: A 1st (5), B 2nd (3); Blammo! 2 cards → 2; B listed doggo=0 explicitly.
    res = score(parse_stash("A:feesh=3,blammo=2;B:feesh=1,doggo=0", d), d)
    assert res == {"scores": {"A": 7, "B": 3},
                   "breakdown": {"A": {"blammo": {"count": 2, "points": 2},
                                       "feesh": {"count": 3, "points": 5}},
                                 "B": {"feesh": {"count": 1, "points": 3}}},
                   "winners": ["A"]}
    assert all(type(v) is int for v in res["scores"].values())


def test_per_card_points_multiply_by_the_count(tmp_path):
    d = load_deck(write_deck(tmp_path, "[cards.blammo]\ncopies = 9\nper_card = 3\n"))
    assert score({"A": {"blammo": 4}, "B": {}}, d)["scores"] == {"A": 12, "B": 0}


@pytest.mark.parametrize("stash,winners", [
    # A: Shiny alone 1st (4); B: Yum Yum alone 1st (4). A has 2 types (2 cards), B 1 type
    # (3 cards): types break the tie before cards do.
    ("A:shiny=1,doggo=1;B:yumyum=3", ["A"]),
    # 4 points each, 1 type each, 1 card each (B's feesh=0 is no stashed type): shared.
    ("A:shiny=1;B:yumyum=1,feesh=0", ["A", "B"]),
    # 4 points each, 1 type each: B's 2 cards win.
    ("A:shiny=1;B:yumyum=2", ["B"]),
])
def test_winner_tie_breaks_points_then_types_then_cards(stash, winners):
    d = load_deck()
    res = score(parse_stash(stash, d), d)
    assert set(res["scores"].values()) == {4}
    assert res["winners"] == winners


def test_absent_players_do_not_take_a_place():
    # counts 0 and 2: the 2 is alone in 1st place whatever the 0s
    assert majority_points([0, 2, 0], (5, 3, 1)) == [0, 5, 0]


# ------------------------------------------------------------------ the whole game's deck
def test_deck_arrays_of_the_shipped_deck():
    a = deck_arrays()
    assert a.copies.dtype == a.pts.dtype == a.per_card.dtype == np.int64
    assert a.copies.tolist() == [7, 6, 7, 6, 7, 7, 7, 6] and a.size == 53
    assert a.pts.tolist() == [[0, 0, 0], [0, 0, 0], [5, 3, 1], [0, 0, 0], [6, 2, 1], [4, 2, 1],
                              [4, 2, 1], [4, 2, 1]]
    assert a.per_card.tolist() == [1, 0, 0, 0, 0, 0, 0, 0]


def test_deck_arrays_of_a_deck_file_with_copies_overridden(tmp_path):
    p = write_deck(tmp_path, eight_types(feesh_points="[9, 8, 7, 6]"))
    a = deck_arrays(str(p), copies={"feesh": 0, "shiny": 5})
    assert a.copies.tolist() == [2, 2, 0, 2, 2, 2, 5, 2] and a.size == 17
    assert a.pts.shape == (8, 3) and a.pts[2].tolist() == [9, 8, 7]  # places past 3rd dropped
    assert deck_arrays(str(p)).copies.tolist() == [2] * 8


@pytest.mark.parametrize("extra,drop,message", [
    ("[cards.otter]\ncopies = 1\n", (), "missing: none; unknown: otter"),
    ("", ("kitteh",), "missing: kitteh; unknown: none"),
    ("", ("doggo", "kitteh"), "missing: doggo, kitteh; unknown: none"),
    ("[cards.otter]\ncopies = 1\n[cards.mole]\ncopies = 1\n", ("doggo",),
     "missing: doggo; unknown: otter, mole"),
])
def test_the_whole_game_needs_exactly_the_eight_types(tmp_path, extra, drop, message):
    body = eight_types(extra)
    for key in drop:
        body = body.replace(f"[cards.{key}]\ncopies = 2\npoints = [3, 2, 1]\n", "")
    p = write_deck(tmp_path, body)
    with pytest.raises(UserError) as err:
        deck_arrays(str(p))
    assert str(err.value) == ("deck file: the whole game needs exactly the card types blammo, "
                              f"doggo, feesh, kitteh, pie, nanners, shiny, yumyum ({message})")


def _deck_of(size: int) -> DeckArrays:
    copies = np.zeros(8, dtype=np.int64)
    copies[0] = size
    return DeckArrays(copies, np.zeros((8, 3), dtype=np.int64), np.zeros(8, dtype=np.int64))


@pytest.mark.parametrize("deal,players,need", [("3456", 2, 7), ("3456", 3, 12), ("3456", 4, 18),
                                               ("2345", 2, 5), ("2345", 4, 14)])
def test_a_deal_needs_more_cards_than_it_deals(deal, players, need):
    rules = SimpleNamespace(deal=deal)
    check_deal(rules, _deck_of(need + 1), players)  # one card left to draw: fine
    with pytest.raises(UserError) as err:
        check_deal(rules, _deck_of(need), players)
    assert str(err.value) == f"the deck holds {need} cards, too few to deal {need}"


@pytest.mark.parametrize("players", [1, 5, 0])
def test_two_to_four_players(players):
    with pytest.raises(UserError) as err:
        check_deal(SimpleNamespace(deal="3456"), _deck_of(53), players)
    assert str(err.value) == f"--players must be 2, 3 or 4 (got {players})"
