"""The public history's replay (analyzer/games/trash_pandas/history.py): counts by hand, and
the cards it proves a seat holds in hand, under no stash rule and under the bots' rule."""
import pytest

from analyzer.errors import UserError
from analyzer.games.trash_pandas.history import check_against, parse_event, replay

BLAMMO, DOGGO, FEESH, KITTEH, PIE, NANNERS, SHINY, YUMYUM = range(8)
COPIES = [7, 6, 7, 6, 7, 7, 7, 6]
CARDS = ("blammo", "doggo", "feesh", "kitteh", "pie", "nanners", "shiny", "yumyum")


def _events(*tables, players=3):
    return [parse_event(i, t, players, lambda name, part: CARDS.index(name))
            for i, t in enumerate(tables)]


def test_counts_follow_every_kind_of_event():
    ev = _events({"seat": 1, "event": "draw", "count": 3}, {"seat": 2, "event": "draw", "count": 4},
                 {"seat": 3, "event": "reveal", "card": "yumyum"},
                 {"seat": 2, "event": "stash_up", "card": "feesh"},
                 {"seat": 1, "event": "play", "card": "pie"},
                 {"seat": 3, "event": "fetch", "card": "pie"},
                 {"seat": 2, "event": "stash", "count": 2},
                 {"seat": 1, "event": "steal", "from": 2, "source": "face_up", "card": "feesh"},
                 {"seat": 3, "event": "steal", "from": 2, "source": "face_down"},
                 {"seat": 2, "event": "steal", "from": 1, "source": "hand"})
    r = replay(ev, 3, COPIES, True)
    assert r.pile == 53 - 3 - 4 - 1 and r.discard == [0] * 8 and r.events == 10
    assert [s.hand for s in r.seats] == [3 - 1 + 1 - 1, 4 - 1 - 2 + 1, 1 + 1 + 1]
    assert [s.down for s in r.seats] == [0, 1, 0]
    assert r.seats[1].up == [0] * 8
    assert r.seats[2].known[YUMYUM] == 1 and r.seats[2].known[PIE] == 1
    assert r.seats[0].known[FEESH] == 0  # stolen back from seat 1's hand: may have gone
    assert r.seats[1].known == [0] * 8


def test_known_cards_under_no_rule_and_under_the_bots_stash_rule():
    ev = _events({"seat": 2, "event": "draw", "count": 2},
                 {"seat": 2, "event": "reveal", "card": "doggo"},
                 {"seat": 2, "event": "reveal", "card": "feesh"},
                 {"seat": 2, "event": "stash", "count": 1})
    sound = replay(ev, 3, COPIES, True)
    assert sound.seats[1].known == [0] * 8  # the stashed card may have been either
    rule = [[1, 0, 1, 0, 1, 1, 1, 1]] * 3  # Doggo and Kitteh never face down
    bots = replay(ev, 3, COPIES, True, rule)
    assert bots.seats[1].known[DOGGO] == 1 and bots.seats[1].known[FEESH] == 0
    assert replay(ev, 3, COPIES, False).seats[1].hand == 1  # revealed cards to the discard


def test_a_steal_from_the_hand_may_take_any_card_even_under_the_rule():
    ev = _events({"seat": 2, "event": "reveal", "card": "doggo"},
                 {"seat": 1, "event": "steal", "from": 2, "source": "hand"})
    r = replay(ev, 3, COPIES, True, [[1, 0, 1, 0, 1, 1, 1, 1]] * 3)
    assert r.seats[1].known == [0] * 8 and r.seats[1].hand == 0 and r.seats[0].hand == 1


@pytest.mark.parametrize("table, words", [
    ({"seat": 1, "event": "play"}, "needs 'card'"),
    ({"seat": 1, "event": "steal", "from": 1, "source": "hand"}, "itself"),
    ({"seat": 1, "event": "steal", "from": 2, "source": "hand", "card": "feesh"}, "face_up"),
    ({"seat": 1, "event": "draw", "count": 0}, "positive"),
    ({"seat": 1, "event": "draw", "colour": 2}, "unknown key"),
])
def test_bad_events_are_refused(table, words):
    with pytest.raises(UserError, match=words):
        _events(table)


def test_impossible_moves_and_disagreements_are_refused():
    with pytest.raises(UserError, match="holds only 0 cards"):
        replay(_events({"seat": 1, "event": "play", "card": "pie"}), 3, COPIES, True)
    with pytest.raises(UserError, match="no such card in the discard"):
        replay(_events({"seat": 1, "event": "fetch", "card": "pie"}), 3, COPIES, True)
    r = replay(_events({"seat": 1, "event": "draw", "count": 3}), 3, COPIES, True)
    with pytest.raises(UserError, match="cards left is 50"):
        check_against(r, 0, 49, [3, 0, 0], [0, 0, 0], [[0] * 8] * 3, [0] * 8, COPIES)
    check_against(r, 0, 50, [3, 0, 0], [0, 0, 0], [[0] * 8] * 3, [0] * 8, COPIES)
