"""`pushluck play ten`: the table record (analyzer/play/ten.py).

Expected values by hand from docs/rules/ten.md: every player starts with 5 currency tokens
(start_tokens), 50 in the supply, a cap of 10; T = N − C busts at 11, C busts at 11; a number
bust gives the others C tokens and the buster a bust token; numbers taken give every other
player C tokens; the deck has 129 cards with each of 7, 8, 9 once per colour.
"""
from __future__ import annotations

import tomllib

import pytest

from analyzer.errors import UserError
from analyzer.play.script import read_script
from analyzer.play.ten import TenTable
from analyzer.rules import load_toml
from tests.play_tables import entered, refused, saved


def table(*entries, players=3, me=2):
    return entered(TenTable(players, me - 1), entries)


def test_numbers_go_to_the_collection_and_the_others_gain_c():
    t = table("draw r5", "draw $2", "draw b4", "numbers")
    p = saved(t)
    assert p["phase"] == "buy" and p["active"] == 1 and p["tableau"] == ""
    assert p["player"][0] == {"collection": "r5,b4", "tokens": 5, "bust_tokens": 0}
    assert [q["tokens"] for q in p["player"]] == [5, 7, 7]
    assert p["out"] == "$2"


def test_currency_pays_the_taker_and_sends_the_numbers_to_the_market():
    p = saved(table("draw $3", "draw r2", "currency"))
    assert [q["tokens"] for q in p["player"]] == [8, 5, 5]
    assert p["market"] == "r2" and p["out"] == "$3"
    assert p["active"] == 2 and p["phase"] == "draw"  # the next turn, written as its start


def test_a_number_bust_pays_the_others_and_gives_a_bust_token():
    t = table("draw $2", "draw r9", "draw b4")  # N 13, C 2: T = 11
    p = saved(t)
    assert [q["tokens"] for q in p["player"]] == [5, 7, 7]
    assert [q["bust_tokens"] for q in p["player"]] == [1, 0, 0]
    assert p["market"] == "r9,b4" and p["out"] == "$2"
    refused(t, "draw r1", "end it first")
    t.enter("end")
    assert saved(t)["active"] == 2


def test_a_currency_bust_pays_nobody():
    p = saved(table("draw $5", "draw r1", "draw $5", "draw $1"))  # C = 11
    assert [q["tokens"] for q in p["player"]] == [5, 5, 5]
    assert [q["bust_tokens"] for q in p["player"]] == [1, 0, 0]
    assert p["market"] == "r1" and p["out"] == "$1,$5,$5"


def test_gains_stop_at_the_cap_of_ten():
    t = table("draw $5", "draw $4", "currency", "end", "draw $5", "draw r2", "numbers")
    # seat 1 had 5 + 9 = 14 → capped at 10; then seat 2's numbers give seat 1 nothing more
    assert [q["tokens"] for q in saved(t)["player"]] == [10, 5, 10]


def test_a_card_the_deck_no_longer_holds_is_refused():
    t = table("draw r9", "numbers", "end")
    refused(t, "draw r9", "no r9 is left")
    refused(t, "draw x3", "unknown card")


def test_an_auction_and_its_payment():
    t = table("draw r#")
    p = saved(t)
    assert p["phase"] == "auction" and p["wild"] == "r#"
    assert t.my_choice()  # I (seat 2) may bid
    refused(t, "draw r2", "finish the auction first")
    refused(t, "won 3 1b", "holds 0 bust tokens")
    refused(t, "won 3 6t", "holds 5 currency tokens")
    refused(t, "won 3", "name the payment")  # a won auction cost at least 1
    refused(t, "won 3 0t", "paid 0, the price is 1")
    t.enter("won 3 4t")
    p = saved(t)
    assert p["player"][2] == {"collection": "r#", "tokens": 1, "bust_tokens": 0}
    assert p["phase"] == "draw" and "wild" not in p


def test_nobody_discards_the_wild():
    p = saved(table("draw **", "nobody"))
    assert p["out"] == "**" and all(q["collection"] == "" for q in p["player"])


def test_a_buy_pays_the_price_with_tokens_bust_tokens_or_cards():
    t = table("draw $2", "draw r9", "draw b4", "end",  # b4, r9 to the market; seat 1 a bust
              "draw r3", "draw g2", "numbers")
    refused(t, "buy b4 3t", "paid 3, the price is 4")
    refused(t, "buy b4 1t r3", "paid 2, the price is 4")  # a collection card pays 1, not 3
    refused(t, "buy o1", "no o1 in the market")
    t.enter("buy b4 3t r3")  # 3 tokens and my r3 (1 each, rules page)
    p = saved(t)
    # 5 + 2 (seat 1's number bust with C = 2) − 3 paid
    assert p["player"][1] == {"collection": "g2,b4", "tokens": 4, "bust_tokens": 0}
    assert "r3" in p["out"] and p["market"] == "r9"


def test_undo_and_completion():
    t = table("draw r5", "draw b4")
    assert t.undo() == "draw b4"
    assert t.position_toml() == table("draw r5").position_toml()
    assert t.completions("n") == ["numbers", "nobody"]


def test_my_choices():
    t = table("draw r5", "numbers", "end")
    assert not t.my_choice()  # my first draw is compulsory
    t.enter("draw r2")
    assert t.my_choice()
    t.enter("numbers")
    assert not t.my_choice()  # nothing in the market
    t.enter("end")
    t.enter("draw b3")
    assert not t.my_choice()  # seat 3's draw


def test_the_saved_position_loads_with_ten_decides_loader(tmp_path):
    from analyzer.games.ten.position import load_position
    from analyzer.games.ten.rules import TenRules, load_deck

    t = table("draw $2", "draw r9", "draw b4", "end", "draw r3", "draw g2")
    path = tmp_path / "p.toml"
    t.save(str(path))
    pos = load_position(path, TenRules(), load_deck(None))
    assert (pos.players, pos.active, pos.me, pos.phase) == (3, 1, 1, "draw")
    assert sorted(pos.tableau) == ["g2", "r3"]
    assert len(pos.state.pile) == 129 - 3 - 2  # every card not listed is in the pile


def play_out_the_pile(t):
    """Draw every card of the pile: each turn one card, then stop for the currency (after a
    wild, discarded, the player may stop with an empty tableau), then end."""
    while sum(t.pile().values()):
        t.enter(f"draw {min(t.pile().elements())}")
        if t.state.phase == "auction":
            t.enter("nobody")
        t.enter("currency")
        t.enter("end")


def test_the_empty_pile_starts_the_final_buy_round_then_the_game_ends():
    t = TenTable(3, 1)
    play_out_the_pile(t)
    assert len(t.entries) >= 129 * 3
    s = t.state
    assert s.phase == "final"
    last = (t.entries.count("end") - 1) % 3  # the seat that drew the last card
    assert s.active == (last + 1) % 3
    refused(t, "draw r1", "the final buy round")
    assert not t.my_choice()
    order = [s.active]
    while t.state.phase == "final":
        t.enter("end")
        if t.state.phase == "final":
            order.append(t.state.active)
    # every seat once, from the one after the last player, the last player last
    assert order == [(last + 1) % 3, (last + 2) % 3, last % 3]
    assert t.state.phase == "done"
    refused(t, "end", "the game is over")


def test_after_a_wild_the_player_may_stop_with_an_empty_tableau():
    t = table()
    refused(t, "currency", "compulsory")
    t.enter("draw r#")
    t.enter("nobody")
    t.enter("currency")  # C = 0: no tokens, the turn ends
    assert [q["tokens"] for q in saved(t)["player"]] == [5, 5, 5]


# ---- the auction bid by bid (docs/rules/ten.md: bidding starts left of the active player,
# clockwise, the active player last, one chance each to bid higher or pass; a bid may not
# exceed what the bidder can pay: tokens + 3 per bust token + 1 per collection card)

def test_an_auction_bid_by_bid_resolves_to_the_high_bidder_who_pays():
    t = table("draw r#")  # seat 1 active: seats 2 (me), 3, then 1 bid
    assert t.my_choice() and saved(t)["bids"] == []
    t.enter("bid 3")  # me
    assert saved(t)["bids"] == [3] and not t.my_choice()
    refused(t, "@1 bid 4", "seat 3 bids now, not seat 1")
    refused(t, "bid 3", "3 does not beat the current bid 3 (seat 2)")
    refused(t, "bid 6", "seat 3 can pay at most 5")  # 5 tokens, no bust token, no card
    refused(t, "pay", "no auction is won")
    t.enter("pass")  # seat 3
    assert saved(t)["bids"] == [3, 0]
    refused(t, "bid 0", "at least 1")
    said = t.enter("@1 bid 4")  # the active seat, last: the auction resolves
    assert "seat 1 wins r# at 4" in said
    refused(t, "draw r2", "pays first")
    refused(t, "end", "seat 1 won the wild at 4: it pays first")
    refused(t, "@2 pay", "seat 1 won the auction, not seat 2")
    refused(t, "pay 3t", "paid 3, the price is 4")
    t.enter("pay")  # the bid in currency tokens
    p = saved(t)
    assert p["player"][0] == {"collection": "r#", "tokens": 1, "bust_tokens": 0}
    assert [q["tokens"] for q in p["player"]] == [1, 5, 5]
    assert p["phase"] == "draw" and "bids" not in p and "wild" not in p


def test_every_seat_passing_discards_the_wild_or_gives_it_to_the_active_seat():
    from analyzer.games.ten.rules import TenRules

    t = table("draw **", "pass", "pass")
    assert t.state.phase == "auction"
    t.enter("pass")
    assert saved(t)["out"] == "**" and all(q["collection"] == "" for q in saved(t)["player"])
    t = TenTable(3, 1, TenRules(all_pass="active-free"))
    for e in ("draw **", "pass", "pass", "pass"):
        t.enter(e)
    assert [q["collection"] for q in saved(t)["player"]] == ["**", "", ""]


def test_my_bid_is_a_choice_only_when_i_can_beat_the_current_bid():
    t = table("draw r5", "currency", "end", "draw r4", "currency", "end", "draw g#",
              players=3, me=2)  # seat 3 draws: seat 1 bids, then me, then seat 3
    assert not t.my_choice()  # seat 1 bids first
    t.enter("bid 5")
    assert not t.my_choice()  # I hold 5 tokens and nothing else: 5 cannot beat 5
    t.undo()
    t.enter("bid 4")
    assert t.my_choice()  # 5 beats 4
    assert saved(t)["bids"] == [4] and saved(t)["active"] == 3


def test_the_bids_so_far_load_in_ten_decides_auction(tmp_path):
    from analyzer.games.ten.position import load_position
    from analyzer.games.ten.rules import TenRules, load_deck

    t = table("draw r5", "numbers", "end", "draw b#", "bid 2", players=3, me=1)
    # seat 2 active: seat 3 bid 2, now seat 1 (me: 5 tokens and r5, means 6)
    path = tmp_path / "p.toml"
    t.save(str(path))
    pos = load_position(path, TenRules(), load_deck(None))
    au = pos.auction
    assert (au.cur, au.high, au.to_bid, pos.me, pos.active) == (2, 2, 0, 0, 1)


def test_the_won_and_nobody_shortcuts_only_before_any_bid():
    t = table("draw r#", "pass")
    refused(t, "won 3 2t", "the bidding has begun")
    refused(t, "nobody", "the bidding has begun")


def test_without_bid_within_means_a_winner_may_pay_everything_it_has():
    from analyzer.games.ten.rules import TenRules

    t = TenTable(2, 0, TenRules(bid_within_means=False))
    for e in ("draw r#", "bid 9", "pass"):  # seat 2 bids 9 with 5 tokens
        t.enter(e)
    refused(t, "pay 4t", "or pay everything")
    t.enter("pay 5t")
    assert saved(t)["player"][1]["tokens"] == 0


def test_while_a_winner_pays_and_after_the_game_a_save_keeps_the_entries_only(tmp_path):
    path = tmp_path / "p.toml"
    t = table("draw r#", "bid 2", "pass", "pass")  # seat 2 (me) won at 2
    why = t.save(str(path))
    assert "seat 2 won the auction and has not paid yet" in why
    text = path.read_text()
    assert tomllib.loads(text) == {}  # no position: `ten decide` has no paying phase
    assert [line[3:] for line in text.splitlines() if line.startswith("#> ")] == \
        ["draw r#", "bid 2", "pass", "pass"]
    with pytest.raises(UserError) as exc:
        load_toml(path)
    assert "--load" in str(exc.value) and "\n" not in str(exc.value)
    again = TenTable(t.players, t.me)
    again.replay([e for _, e in read_script(str(path))])
    assert again.position() == t.position()
    t.enter("pay 2t")
    assert t.save(str(path)) is None
    assert tomllib.loads(path.read_text())["player"][1] == {"collection": "r#", "tokens": 3,
                                                           "bust_tokens": 0}
    t = TenTable(2, 0)
    play_out_the_pile(t)
    while t.state.phase == "final":
        t.enter("end")
    assert t.save(str(path)) == "the game is over: no choice is left to decide"
    assert tomllib.loads(path.read_text()) == {}


def test_the_turn_that_empties_the_pile_is_saved_as_the_final_round():
    t = TenTable(3, 1)
    play_out_the_pile(t)
    t.undo()  # the last `end`: the turn that drew the last card is over, not ended yet
    p = saved(t)
    last = t.state.active  # its seat; the round goes from the next seat round to it
    assert p["phase"] == "final" and p["active"] == (last + 1) % 3 + 1
    assert p["buyers"] == [(last + 2) % 3 + 1, last + 1]


def test_only_the_active_seat_draws_stops_and_ends():
    t = table("draw r5")  # seat 1 active
    for entry in ("@2 draw r4", "@3 numbers", "@2 currency", "@2 end", "@3 nobody"):
        refused(t, entry, "only the active seat (1) does that")
    t.enter("@1 draw r4")  # naming the active seat is fine
