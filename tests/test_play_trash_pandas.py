"""`pushluck play trash-pandas`: the table record (analyzer/play/trash_pandas.py).

Expected counts are worked out by hand from docs/rules/trash-pandas.md: the deck holds 53 cards
(7 Blammo!, 6 Doggo, 7 Feesh, 6 Kitteh, 7 MMM Pie!, 7 Nanners, 7 Shiny, 6 Yum Yum), the deal
(3456) gives seat 1 three cards, seat 2 four, seat 3 five, seat 4 six; the position's fields
are read from the saved TOML text with tomllib, not through the project's parsers.
"""
from __future__ import annotations

import tomllib

import pytest

from analyzer.errors import UserError
from analyzer.play.script import read_script
from analyzer.play.trash_pandas import TrashPandasTable
from analyzer.rules import load_toml
from tests.play_tables import entered, refused, saved

DEAL_ME2 = "deal feesh blammo doggo pie"


def table(*entries, players=3, me=2):
    return entered(TrashPandasTable(players, me - 1), entries)


def test_the_deal_gives_every_seat_its_cards_and_leaves_41_in_the_pile():
    p = saved(table(DEAL_ME2))
    assert p["players"] == 3 and p["me"] == 2
    assert p["cards_left"] == 53 - 3 - 4 - 5 == 41
    assert p["hand"] == {"blammo": 1, "doggo": 1, "feesh": 1, "pie": 1}
    assert p["seat"]["1"] == {"hand": 3, "face_up": {}, "face_down": 0}
    assert p["seat"]["3"] == {"hand": 5, "face_up": {}, "face_down": 0}
    assert p["history"] == [{"seat": 1, "event": "draw", "count": 3},
                            {"seat": 2, "event": "draw", "count": 4},
                            {"seat": 3, "event": "draw", "count": 5}]


def test_four_players_seat_4_is_dealt_six():
    p = saved(table("deal feesh blammo doggo pie nanners shiny", players=4, me=4))
    assert p["cards_left"] == 53 - 18 == 35


def test_the_dealt_hand_must_come_first_and_have_the_deal_size():
    t = table()
    refused(t, "roll paw", "deal")
    refused(t, "deal feesh blammo doggo", "4 cards, 3 named")


def test_an_opponents_turn_is_recorded_as_public_events():
    t = table(DEAL_ME2, "roll paw", "take", "roll trash", "take", "stop", "draw 2",
              "@3 play doggo", "stash 2", "@2 steal 1 down blammo", "end")
    p = saved(t)
    assert p["cards_left"] == 41 - 2 == 39
    assert p["discard"] == {"doggo": 1}
    assert p["seat"]["1"] == {"hand": 3 + 2 - 2, "face_up": {}, "face_down": 2 - 1}
    assert p["seat"]["3"]["hand"] == 4
    assert p["hand"] == {"blammo": 2, "doggo": 1, "feesh": 1, "pie": 1}
    assert p["held"] == [] and "rolled" not in p  # my turn now, nothing rolled yet
    assert p["history"][3:] == [
        {"seat": 1, "event": "draw", "count": 2},
        {"seat": 3, "event": "play", "card": "doggo"},
        {"seat": 1, "event": "stash", "count": 2},
        {"seat": 2, "event": "steal", "from": 1, "source": "face_down"}]


def test_my_turn_held_tokens_and_the_rolled_face_are_written():
    t = table(DEAL_ME2, "roll paw", "take", "stop", "end", "roll mask", "take", "roll paw")
    p = saved(t)
    assert p["held"] == ["mask"] and p["rolled"] == "paw" and p["bonus"] is False
    assert t.my_choice()  # take or Blammo!
    t.enter("take")
    p = saved(t)
    assert sorted(p["held"]) == ["mask", "paw"] and "rolled" not in p
    assert t.my_choice()  # roll or stop


def test_no_choice_before_the_first_roll_nor_on_a_face_without_a_saving_card():
    t = table("deal feesh doggo pie kitteh", "roll paw", "take", "stop", "end")
    assert not t.my_choice()  # nothing held: the first roll is not a choice
    t.enter("roll trash")
    assert not t.my_choice()  # a new face and no Blammo!/Nanners: take is the only choice


def test_impossible_entries_are_refused_in_one_line_and_change_nothing():
    t = table(DEAL_ME2, "roll paw", "take", "roll paw")
    refused(t, "take", "already held")
    refused(t, "stop", "only between rolls")
    refused(t, "@3 play yumyum", "right after the active seat stops")
    t.enter("bust")
    refused(t, "roll trash", "rolling has ended")
    refused(t, "draw 42", "the pile holds only 41")
    refused(t, "@2 play nanners", "only the active seat")
    refused(t, "@2 stash kitteh", "I hold no Kitteh")
    refused(t, "@3 steal 2 hand", "name the card")
    refused(t, "steal 3 up feesh", "no such card")
    refused(t, "@9 draw 1", "seats are @1..@3")
    refused(t, "jump", "unknown entry")


def test_a_card_beyond_the_decks_copies_is_refused():
    # 7 Blammo! in the deck: my hand of 1 plus 6 more drawn is all of them
    t = table(DEAL_ME2, "roll paw", "take", "stop", "end", "roll paw", "take", "stop",
              "draw blammo blammo blammo blammo blammo blammo")
    refused(t, "draw blammo", "Blammo!: 8 seen in the position but the deck holds 7")


def test_a_card_gained_this_turn_is_locked_but_a_fetched_one_is_not():
    t = table(DEAL_ME2, "roll paw", "take", "stop", "play shiny", "end",
              "roll trash", "take", "stop", "draw shiny blammo")
    assert saved(t)["gained"] == {"shiny": 1, "blammo": 1}
    refused(t, "play shiny", "gained this turn")  # drawn in this resolve step: locked
    t.enter("play feesh")
    t.enter("fetch shiny")  # Seat 1's Shiny, taken back with Feesh: not locked
    t.enter("play shiny")
    assert saved(t)["gained"] == {"shiny": 1, "blammo": 1}
    for e in ("end", "roll paw", "take", "stop", "end", "roll paw", "take", "stop", "end",
              "roll paw", "take", "roll paw"):
        t.enter(e)  # seats 3 and 1, then my next turn
    assert saved(t)["gained"] == {}
    assert t.my_choice()  # last turn's Blammo! is usable now
    t.enter("play blammo")

def test_yum_yum_forces_one_more_roll():
    t = table(DEAL_ME2, "roll paw", "take", "stop")
    t.enter("@3 play yumyum")
    refused(t, "stop", "one more roll")
    t.enter("roll trash")
    t.enter("take")
    t.enter("stop")


def test_nanners_on_a_face_ends_the_rolling_and_blammo_rolls_again():
    t = table(DEAL_ME2, "roll paw", "take", "roll paw", "play blammo")
    assert t.state.phase == "roll" and t.state.rolled == -1
    t.enter("roll paw")
    t.enter("play nanners")
    assert t.state.phase == "resolve"
    refused(t, "roll trees", "rolling has ended")


def test_all_six_tokens_give_a_bonus_turn_capped_at_three():
    six = ["roll trash", "take", "roll trees", "take", "roll trash-tree", "take",
           "roll paw", "take", "roll mask", "take", "roll recycle", "take"]
    t = table(DEAL_ME2, "roll paw", "take", "stop", "end", *six)
    assert t.state.phase == "resolve"
    t.enter("end")
    p = saved(t)
    assert p["bonus"] is True and p["held"] == [] and t.state.active == 1
    t.enter("roll paw")
    t.enter("take")
    t.enter("roll mask")
    t.enter("take")
    assert saved(t)["bonus"] is True and t.my_choice()
    t.enter("roll trash")
    t.enter("take")  # the third token: the cap
    assert t.state.phase == "resolve" and not t.my_choice()
    t.enter("end")
    assert t.state.active == 2 and not t.state.bonus


def test_a_steal_from_my_hand_names_my_card_and_the_public_event_does_not():
    t = table(DEAL_ME2, "roll paw", "take", "stop", "steal 2 hand pie")
    p = saved(t)
    assert p["hand"] == {"blammo": 1, "doggo": 1, "feesh": 1}
    assert p["seat"]["1"]["hand"] == 4
    assert p["history"][-1] == {"seat": 1, "event": "steal", "from": 2, "source": "hand"}


def test_undo_returns_to_the_position_before_the_last_entry():
    entries = [DEAL_ME2, "roll paw", "take", "stop", "draw 2", "@3 play doggo"]
    t = table(*entries)
    shorter = table(*entries[:-1])
    assert t.undo() == "@3 play doggo"
    assert t.position_toml() == shorter.position_toml()
    assert t.entries == entries[:-1]
    while t.undo():
        pass
    assert t.entries == [] and t.state.phase == "deal"
    assert t.undo() is None


def test_completion_offers_entry_words_then_cards_and_tokens():
    t = table()
    assert t.completions("st") == ["stop", "stash", "stashup", "steal"]
    assert "trash-tree" in t.completions("roll tr") and "trash" in t.completions("roll tr")
    assert t.completions("@3 pl") == ["play"]
    assert t.completions("play yu") == ["yumyum"]


def test_the_saved_position_is_one_decide_reads_and_replays():
    """Round trip: the written TOML passes decide's own parser, history replay included."""
    from analyzer.games.trash_pandas.position import check_position

    t = table(DEAL_ME2, "roll paw", "take", "roll trash", "take", "stop", "draw 2",
              "@3 play doggo", "stash 2", "@2 steal 1 down blammo", "end", "roll mask",
              "take", "roll paw")
    copies = [7, 6, 7, 6, 7, 7, 7, 6]  # the rules page's deck, by hand
    c = check_position(saved(t), copies, 3)
    assert c.cards_left == 39 and c.me == 1 and c.rolled == 3  # paw is token 3
    assert c.opp_hand[0] == 3 and c.opp_down[0] == 1 and c.opp_hand[2] == 4
    assert sum(c.pool) == 39 + 3 + 1 + 4


def test_house_rules_change_the_table():
    from analyzer.games.trash_pandas.rules import TrashPandasRules

    # deal = 2345: seat 2 is dealt three; mask_card = discard: the Bandit Mask's card is
    # discarded, not taken into the hand
    t = TrashPandasTable(3, 1, TrashPandasRules(deal="2345", mask_card="discard"))
    t.enter("deal feesh blammo doggo")
    assert saved(t)["cards_left"] == 53 - 2 - 3 - 4
    t.enter("roll mask")
    t.enter("take")
    t.enter("stop")
    t.enter("reveal shiny")
    p = saved(t)
    assert p["discard"] == {"shiny": 1} and p["seat"]["1"]["hand"] == 2
    assert p["history"][-1] == {"seat": 1, "event": "reveal", "card": "shiny"}


def test_a_word_too_many_is_refused_not_ignored():
    t = table(DEAL_ME2, "roll paw")
    refused(t, "take paw", "'take' takes no more words (got 'paw')")


def test_the_game_ends_with_the_turn_that_empties_the_pile_bonus_turn_included():
    t = table(DEAL_ME2, "roll paw", "take", "stop", "draw 41")  # 53 − 12 dealt: all of them
    assert saved(t)["cards_left"] == 0
    t.enter("end")
    assert t.state.phase == "done" and not t.my_choice()
    assert t.describe().startswith("the game is over")
    refused(t, "roll paw", "the game is over")
    # all six tokens: the bonus turn is taken even with the pile empty, then the game ends
    six = ["roll trash", "take", "roll trees", "take", "roll trash-tree", "take",
           "roll paw", "take", "roll mask", "take", "roll recycle", "take"]
    t = table(DEAL_ME2, *six, "draw 41", "end")
    assert t.state.phase == "roll" and t.state.bonus and t.state.active == 0
    for e in ("roll paw", "take", "stop", "end"):
        t.enter(e)
    assert t.state.phase == "done"


def entries_only(t, tmp_path, words):
    """Off a moment `decide` can say, a save writes the game's entries only and says why in one
    line; `decide` refuses the file in one line naming --load; replaying the file rebuilds the
    same table."""
    path = tmp_path / "pos.toml"
    path.unlink(missing_ok=True)
    why = t.save(str(path))
    assert words in why and "\n" not in why, why
    text = path.read_text()
    assert tomllib.loads(text) == {}  # comments only: no position a decide could misread
    assert [line[3:] for line in text.splitlines() if line.startswith("#> ")] == t.entries
    assert f"pushluck play trash-pandas --players 3 --me 2 --load THIS_FILE" in text
    with pytest.raises(UserError) as exc:
        load_toml(path)
    assert "\n" not in str(exc.value) and "--load" in str(exc.value), str(exc.value)
    again = TrashPandasTable(3, 1)
    again.replay([e for _, e in read_script(str(path))])
    assert again.position() == t.position() and again.entries == t.entries


def test_a_save_off_my_roll_writes_the_entries_only_and_says_why(tmp_path):
    """A trash-pandas decide position is my own turn while I roll (it has no active seat):
    anything else would read as the start of my next turn or offer a stop I do not have, so
    the save keeps the game (to reopen) but no position."""
    entries_only(table(), tmp_path, "my dealt hand is not entered yet")
    t = table(DEAL_ME2, "roll paw")  # seat 1 plays
    entries_only(t, tmp_path, "seat 1 is playing")
    t = table(DEAL_ME2, "roll paw", "take", "stop", "end", "roll trash", "take", "stop")
    entries_only(t, tmp_path, "my rolling is over")  # my resolve step
    t = table(DEAL_ME2, "roll paw", "take", "stop", "end", "roll trash", "take", "stop",
              "@3 play yumyum")
    entries_only(t, tmp_path, "a Yum Yum forces my next roll")
    t.enter("roll paw")  # the forced roll: now a position of my turn again
    assert t.save(str(tmp_path / "pos.toml")) is None
    p = tomllib.loads((tmp_path / "pos.toml").read_text())
    assert p["held"] == ["trash"] and p["rolled"] == "paw" and p["me"] == 2


def test_a_save_at_the_start_of_my_turn_is_that_position(tmp_path):
    t = table(DEAL_ME2, "roll paw", "take", "stop", "end")  # my turn, nothing rolled yet
    t.save(str(tmp_path / "pos.toml"))
    p = tomllib.loads((tmp_path / "pos.toml").read_text())
    assert p["held"] == [] and "rolled" not in p and p["bonus"] is False
    assert p["cards_left"] == 41 and p["hand"] == {"blammo": 1, "doggo": 1, "feesh": 1,
                                                    "pie": 1}


def test_only_the_active_seat_rolls_takes_busts_stops_and_ends():
    t = table(DEAL_ME2, "roll paw")  # seat 1 active
    for entry in ("@2 take", "@3 bust", "@2 roll trash", "@3 stop", "@2 end"):
        refused(t, entry, "only the active seat (1) does that")
    t.enter("@1 take")
