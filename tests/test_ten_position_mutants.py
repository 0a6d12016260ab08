"""Ten positions (analyzer/games/ten/position.py) checked by hand: every refusal word for word,
the edges that are accepted, the kernel arrays a position becomes, the auction and final-round
states, and the deck a scripted game is given.

Expected values come from the rules page (docs/rules/ten.md) and the position format (the module
doc of position.py): the deck of 129 cards (per colour r, b, g, o the values 1-6 three times and
7, 8, 9 once; two colour wilds per colour; number wilds *1..*9; one full wild; currency $1-$5
six, six, six, five and four times), the default rules (bust at T = N − C ≥ 11, currency bust
at C ≥ 11, token cap 10, 5 starting tokens, 50 currency and 15 bust tokens, a bust token pays
3), and the kernel layout written out in kernels/ten/whole_layout.py (card type
9·colour + value − 1 for number cards, 36 + v − 1 for currency, 41 + colour for colour wilds,
45 + v − 1 for number wilds, 54 the full wild; rows 0-4 the collections, 5 the market, 6 out,
7 the pile, 8 the tableau; tokens 0-4, bust tokens 5-9, supplies 10 and 11, score caches 12-16).
"""
from __future__ import annotations

import copy
from collections import Counter

import numpy as np
import pytest

from analyzer.errors import UserError

W = "f.toml"


def rules(**knobs):
    from analyzer.games.ten.rules import TenRules

    return TenRules(**knobs)


def deck_spec():
    from analyzer.games.ten.rules import load_deck

    return load_deck(None)


def base(**changes) -> dict:
    """Two players, seat 1 mid-turn with r5, $2 face up (T = 3); market g4."""
    data = {"players": 2, "active": 1, "tableau": "r5,$2", "market": "g4", "out": "",
            "player": [{"collection": "r1,r2", "tokens": 5, "bust_tokens": 0},
                       {"collection": "b1", "tokens": 3, "bust_tokens": 1}]}
    data.update(changes)
    return data


def with_player(q, **changes) -> dict:
    data = base()
    data["player"] = copy.deepcopy(data["player"])
    data["player"][q].update(changes)
    return data


def check(data, r=None):
    from analyzer.games.ten.position import check_position

    return check_position(data, W, r or rules(), deck_spec())


def refused(data, r=None) -> str:
    with pytest.raises(UserError) as e:
        check(data, r)
    return str(e.value)


KNOWN = "active, bids, buyers, market, me, out, phase, player, players, seats, tableau, wild"


@pytest.mark.parametrize("data, message", [
    (base(colour="red"), f"f.toml: unknown key 'colour' (known: {KNOWN})"),
    ({k: v for k, v in base().items() if k != "players"},
     "f.toml: 'players' must be an integer 1..5 (got None)"),
    (base(players=6), "f.toml: 'players' must be an integer 1..5 (got 6)"),
    (base(players=0), "f.toml: 'players' must be an integer 1..5 (got 0)"),
    (base(players=True), "f.toml: 'players' must be an integer 1..5 (got True)"),
    (base(players="2"), "f.toml: 'players' must be an integer 1..5 (got '2')"),
    (base(active=3), "f.toml: 'active' = 3: seats are 1..2"),
    (base(me=3), "f.toml: 'me' = 3: seats are 1..2"),
    (base(player=[{}]), "f.toml: give one [[player]] table per seat (2), got 1"),
    ({k: v for k, v in base().items() if k != "player"},
     "f.toml: give one [[player]] table per seat (2), got 0"),
    (base(player={"tokens": 1}), "f.toml: give one [[player]] table per seat (2), got none"),
    (base(player=[{}, 3]), "f.toml player 2: [[player]] must be a table, got 3"),
    (with_player(1, hand="r1"),
     "f.toml player 2: unknown key 'hand' (known: collection, tokens, bust_tokens)"),
    (with_player(0, collection=5),
     "f.toml player 1: 'collection' must be a string of cards like \"r5,$2\""),
    (with_player(0, collection="r1,$1"),
     "f.toml player 1: '$1' is a currency card: collections hold number cards and wilds only"),
    (with_player(1, collection="$5"),
     "f.toml player 2: '$5' is a currency card: collections hold number cards and wilds only"),
    (with_player(0, tokens=-1), "f.toml player 1: 'tokens' must be an integer ≥ 0 (got -1)"),
    (with_player(0, tokens=True), "f.toml player 1: 'tokens' must be an integer ≥ 0 (got True)"),
    (with_player(0, tokens="3"), "f.toml player 1: 'tokens' must be an integer ≥ 0 (got '3')"),
    (with_player(0, tokens=11), "f.toml player 1: 11 currency tokens is above the cap of 10"),
    (with_player(1, bust_tokens=16),
     "f.toml player 2: 'bust_tokens' must be an integer 0..15 (got 16)"),
    (with_player(1, bust_tokens=-1),
     "f.toml player 2: 'bust_tokens' must be an integer 0..15 (got -1)"),
    (base(market=7), "f.toml: 'market' must be a string of cards like \"r5,$2\""),
    (base(market="g4,$1"), "f.toml: '$1' cannot be in the market (number cards only)"),
    (base(market="r#"), "f.toml: 'r#' cannot be in the market (number cards only)"),
    (base(tableau="r5,b#"), "f.toml: 'b#' is a wild: wilds never enter the tableau"),
    (base(tableau="r#"), "f.toml: 'r#' is a wild: wilds never enter the tableau"),
    (base(tableau=5), "f.toml: 'tableau' must be a string of cards like \"r5,$2\""),
    (base(market="g4,,r1"), "malformed f.toml 'market' 'g4,,r1': empty entry at position 2"),
    (base(tableau="**"), "f.toml: '**' is a wild: wilds never enter the tableau"),
    (base(tableau="$5,$5,$1"), "the tableau has already busted: currency C = 11 ≥ 11"),
    (base(tableau="r9,b2"), "the tableau has already busted: T = N − C = 11 ≥ 11"),
    (base(tableau="o9,g6,$4"), "the tableau has already busted: T = N − C = 11 ≥ 11"),
    (base(phase="deal"), "f.toml: 'phase' must be one of draw, buy, auction, final "
                         "(got 'deal')"),
    (base(phase=2), "f.toml: 'phase' must be a string in quotes, got 2"),
    (base(phase="auction", bids=[]),
     "f.toml: phase \"auction\" needs 'wild', one wild card like \"r#\""),
    (base(phase="auction", wild="r5", bids=[]),
     "f.toml: phase \"auction\" needs 'wild', one wild card like \"r#\""),
    (base(phase="auction", wild="r#,b#", bids=[]),
     "f.toml: phase \"auction\" needs 'wild', one wild card like \"r#\""),
    (base(wild="r#"), "f.toml: 'wild' is only for phase \"auction\""),
    (base(phase="buy"), "f.toml: in phase \"buy\" no turn is open: the tableau must be empty"),
    (base(phase="final", buyers=[]),
     "f.toml: in phase \"final\" no turn is open: the tableau must be empty"),
    (base(phase="auction", wild="r#"),
     "f.toml: phase \"auction\" needs 'bids': what the seats before the one to bid did, from "
     "the seat left of the active one (0 for a pass), e.g. bids = [] when nobody has bid yet"),
    (base(bids=[]), "f.toml: 'bids' is only for phase \"auction\""),
    (base(buyers=[]), "f.toml: 'buyers' is only for phase \"final\""),
    (base(market="r9", out="r9"),
     "card 'r9' is listed 2 times (market, out) but the deck holds 1"),
    (with_player(1, collection="b1,b1,b1,b1"),
     "card 'b1' is listed 4 times (player 2) but the deck holds 3"),
    (base(tableau="r3", out="r3,r3", market="r3"),
     "card 'r3' is listed 4 times (market, tableau, out) but the deck holds 3"),
    (base(phase="auction", wild="**", bids=[], out="**"),
     "card '**' is listed 2 times (out, wild) but the deck holds 1"),
    (base(seats=3), "f.toml: 'seats' must be a string like \"threshold,random\""),
    (base(out=3), "f.toml: 'out' must be a string of cards like \"r5,$2\""),
    (base(phase="auction", wild=4, bids=[]),
     "f.toml: 'wild' must be a string of cards like \"r5,$2\""),
    (base(player=[{"collection": "r1", "tokens": 5, "bust_tokens": 10},
                  {"collection": "b1", "tokens": 3, "bust_tokens": 6}]),
     "the players hold 8 currency and 16 bust tokens; the game has 50 and 15"),
])
def test_position_refusals_word_for_word(data, message):
    """Each refusal is the one line of the format's rules (position.py module doc), in its
    exact words; the counts and sums in them are worked out here by hand."""
    assert refused(data) == message


def test_refusals_that_read_a_rules_knob():
    """The knobs the checks read (token_cap, bust_at, currency_bust_at, bust_tokens,
    currency_tokens, bust_token_value through bids) are read from the rules given, not the
    defaults: each edge is accepted at the knob and refused one step past it."""
    assert refused(with_player(0, tokens=8), rules(token_cap=7)) == (
        "f.toml player 1: 8 currency tokens is above the cap of 7")
    check(with_player(0, tokens=7), rules(token_cap=7))
    # T = 9 + 3 − 0 = 12: busted at 12, not at 13
    assert refused(base(tableau="r9,b3"), rules(bust_at=12)) == (
        "the tableau has already busted: T = N − C = 12 ≥ 12")
    check(base(tableau="r9,b3"), rules(bust_at=13))
    check(base(tableau="r9,b2"), rules(bust_at=12))
    # C = 5 + 4 = 9
    assert refused(base(tableau="$5,$4"), rules(currency_bust_at=9)) == (
        "the tableau has already busted: currency C = 9 ≥ 9")
    check(base(tableau="$5,$4"), rules(currency_bust_at=10))
    assert refused(with_player(1, bust_tokens=5), rules(bust_tokens=4)) == (
        "f.toml player 2: 'bust_tokens' must be an integer 0..4 (got 5)")
    assert refused(base(), rules(currency_tokens=7)) == (
        "the players hold 8 currency and 1 bust tokens; the game has 7 and 15")
    check(base(), rules(currency_tokens=8))
    assert refused(base(), rules(bust_tokens=0)) == (
        "f.toml player 2: 'bust_tokens' must be an integer 0..0 (got 1)")
    # without colour wilds the deck holds no r# at all
    assert refused(with_player(0, collection="r1,r#"), rules(colour_wilds=0)) == (
        "card 'r#' is listed 1 times (player 1) but the deck holds 0")


def test_edges_that_are_accepted():
    """One step inside each refusal: 10 tokens (the cap), 15 bust tokens, T = 10, C = 10,
    currency $1-$5 in the tableau, o9 (type 35) in a collection and in the market, colour,
    number and full wilds in a collection, 5 players, 1 player."""
    check(with_player(0, tokens=10))
    check(with_player(0, tokens=0))
    check(base(player=[{"collection": "r1", "tokens": 0, "bust_tokens": 15},
                       {"collection": "", "tokens": 0}]))
    check(base(tableau="r9,b2,$1"))  # T = 10
    check(base(tableau="$5,$4,$1"))  # C = 10, T = −10
    check(base(tableau="$1,$2,$3"))
    check(base(market="o9,g4"))
    check(with_player(0, collection="o9,r#,o#,*1,*9,**"))
    check(base(tableau="r3", out="r3", market="r3"))  # all three copies listed: 3 of 3
    five = {"players": 5, "active": 5, "player": [{"tokens": 10}] * 5}
    pos = check(five)
    assert (pos.players, pos.active, pos.me) == (5, 4, 4)
    pos = check({"players": 1, "player": [{}]})
    assert (pos.players, pos.active, pos.me) == (1, 0, 0)


def test_a_position_in_kernel_form_by_hand():
    """The kernel arrays of :func:`base` with seat 2 as ``me``: every row and token by hand."""
    from analyzer.games.ten.position import Position

    pos = check(base(me=2, seats="threshold,random"))
    assert isinstance(pos, Position)
    assert (pos.players, pos.active, pos.me, pos.deciding) == (2, 0, 1, 0)
    assert (pos.phase, pos.wild, pos.auction, pos.buyers) == ("draw", None, None, ())
    assert pos.seats == "threshold,random" and pos.tableau == ["r5", "$2"]
    st = pos.state
    assert st.cards.shape == (9, 55) and st.cards.dtype == np.int64
    want = np.zeros((9, 55), dtype=np.int64)
    want[0, [0, 1]] = 1  # r1, r2
    want[1, 9] = 1  # b1
    want[5, 21] = 1  # g4 = 9·2 + 3
    want[8, [4, 37]] = 1  # r5, $2
    # the pile: the 129 cards minus the 6 listed, by type
    full = np.array([3] * 6 + [1] * 3, dtype=np.int64)
    deck = np.concatenate([full, full, full, full, [6, 6, 6, 5, 4], [2] * 4, [1] * 9, [1]])
    assert deck.sum() == 129
    want[7] = deck - want.sum(axis=0)
    assert want[7].sum() == 123
    assert (st.cards == want).all()
    assert (st.deck == deck).all() and st.deck.shape == (55,)
    assert st.pile.dtype == np.int8 and len(st.pile) == 123
    assert list(st.pile) == sorted(st.pile)  # listed by type (the playouts shuffle it)
    assert (np.bincount(st.pile, minlength=55) == want[7]).all()
    tk = [5, 3, 0, 0, 0, 0, 1, 0, 0, 0, 50 - 8, 15 - 1, -1, -1, -1, -1, -1]
    assert list(st.tk) == tk and st.tk.dtype == np.int64
    assert (st.players, st.active) == (2, 0)


def test_defaults_of_a_position():
    """Without ``tokens`` a seat holds the rules' start_tokens (here 4), without
    ``bust_tokens`` none; ``active`` defaults to seat 1, ``me`` to the deciding seat, the phase
    to "draw", ``seats`` to None; an unlisted ``tableau`` is empty (first draw of a turn)."""
    pos = check({"players": 3, "player": [{}, {}, {"collection": "g1"}]}, rules(start_tokens=4))
    assert list(pos.state.tk[:5]) == [4, 4, 4, 0, 0]
    assert list(pos.state.tk[5:12]) == [0] * 5 + [50 - 12, 15]
    assert (pos.active, pos.me, pos.phase, pos.seats, pos.tableau) == (0, 0, "draw", None, [])
    assert len(pos.state.pile) == 128
    pos = check(base(active=2))
    assert (pos.active, pos.me) == (1, 1)
    pos = check(base(active="2", me="1"))
    assert (pos.active, pos.me) == (1, 0)


def test_an_empty_pile_with_an_open_turn_and_a_final_round_with_cards_left():
    """Every card listed with a tableau in phase "draw": the turn is over; phase "final" with
    cards unlisted names how many (here 129 − 3 − 2 = 124); a draw phase with an empty pile and
    no tableau is a turn's start and accepted."""
    from tests.test_ten_decide_exact import whole_deck

    deck = whole_deck()
    listed = Counter({"r1": 1, "r2": 1, "b1": 1, "r5": 1, "$2": 1})
    out = ",".join((deck - listed).elements())
    assert refused(base(out=out, market="")) == (
        "the draw pile is empty: the turn is over (no choice left)")
    pos = check(base(out=out + ",r5,$2", market="", tableau=""))
    assert len(pos.state.pile) == 0
    assert refused(base(phase="final", tableau="", market="", buyers=[])) == (
        "f.toml: phase \"final\" is the final buy round, with the draw pile empty, but 126 "
        "cards of the deck are not listed")


@pytest.mark.parametrize("active, raw, message", [
    (1, None, "f.toml: phase \"final\" needs 'buyers': the seats still to buy after the active "
              "one, in order (e.g. buyers = [] when it buys last)"),
    (1, "2", "f.toml: 'buyers' must be a list of seats, e.g. buyers = [3, 4]"),
    (1, [2, True], "f.toml: 'buyers' must be a list of seats, e.g. buyers = [3, 4]"),
    (1, [2.0], "f.toml: 'buyers' must be a list of seats, e.g. buyers = [3, 4]"),
    (1, [3], "f.toml: 'buyers' [3]: the final buy round goes once round the table, clockwise: "
             "the seats still to buy after the active seat 1 are the first ones of [2, 3, 4]"),
    (3, [4, 1, 2, 3], "f.toml: 'buyers' [4, 1, 2, 3]: the final buy round goes once round the "
                      "table, clockwise: the seats still to buy after the active seat 3 are "
                      "the first ones of [4, 1, 2]"),
    (4, [2], "f.toml: 'buyers' [2]: the final buy round goes once round the table, clockwise: "
             "the seats still to buy after the active seat 4 are the first ones of [1, 2, 3]"),
])
def test_final_buyers_refused_word_for_word(active, raw, message):
    """``buyers`` of a 4-player final round: the seats after the active one, clockwise."""
    from analyzer.games.ten.position import final_buyers

    data = {} if raw is None else {"buyers": raw}
    with pytest.raises(UserError) as e:
        final_buyers(data, "final", active - 1, 4, W)
    assert str(e.value) == message


def test_final_buyers_accepted_from_zero():
    """Seats from 1 in the file, from 0 in the position; any first part of the clockwise order
    (seat 3 active of 4: 4, 1, 2); no buyers key outside phase "final" gives ()."""
    from analyzer.games.ten.position import final_buyers

    assert final_buyers({"buyers": []}, "final", 2, 4, W) == ()
    assert final_buyers({"buyers": [4]}, "final", 2, 4, W) == (3,)
    assert final_buyers({"buyers": [4, 1, 2]}, "final", 2, 4, W) == (3, 0, 1)
    assert final_buyers({"buyers": [1]}, "final", 1, 2, W) == (0,)
    assert final_buyers({}, "draw", 0, 2, W) == ()


def test_auction_means_read_tokens_bust_tokens_and_cards():
    """With bid_within_means a bid is at most tokens + bust tokens × their value + collection
    cards. Seat 2 (active seat 1 of 2, so seat 2 bids first) holds 3 tokens, 1 bust token and
    b1: means 3 + 3 + 1 = 7 at the default value 3, 3 + 5 + 1 = 9 at value 5."""
    auc = dict(phase="auction", wild="r#", tableau="r5")
    pos = check(base(bids=[7], **auc) | {"me": 2})
    assert pos.auction.cur == 7 and pos.auction.high == 1 and pos.deciding == 0
    assert pos.me == 1
    assert refused(base(bids=[8], **auc)) == (
        "f.toml: 'bids': seat 2 bid 8 but can pay only 7 (rule bid_within_means)")
    check(base(bids=[9], **auc), rules(bust_token_value=5))
    assert refused(base(bids=[10], **auc), rules(bust_token_value=5)) == (
        "f.toml: 'bids': seat 2 bid 10 but can pay only 9 (rule bid_within_means)")
    assert check(base(bids=[30], **auc), rules(bid_within_means=False)).auction.cur == 30
    pos = check(base(bids=[], **auc))
    assert pos.deciding == 1 and pos.me == 1 and pos.wild == "r#" and pos.phase == "auction"
    # the auctioned wild is in no row but is a card of the game: the deck holds both r#
    assert pos.state.deck[41] == 2 and pos.state.cards[:, 41].sum() == 1


@pytest.mark.parametrize("bids, message", [
    ("3", "f: 'bids' must be a list of integers (0 for a pass), e.g. bids = [0, 3]"),
    ([1, True], "f: 'bids' must be a list of integers (0 for a pass), e.g. bids = [0, 3]"),
    ([1.5], "f: 'bids' must be a list of integers (0 for a pass), e.g. bids = [0, 3]"),
    ([0, -2], "f: 'bids': seat 1 bid -2: a bid is ≥ 1 (0 is a pass)"),
    ([1, 2, 0], "f: 'bids' lists 3 bids but at most 2 come before the active seat 2 (who bids "
                "last)"),
    ([4, 4], "f: 'bids': seat 1 bid 4, not above the current bid 4 (seat 3): a bid must beat "
             "it (0 for a pass)"),
    ([0, 4], "f: 'bids': seat 1 bid 4 but can pay only 3 (rule bid_within_means)"),
])
def test_auction_state_refusals_word_for_word(bids, message):
    """3 players, active seat 2: the order is seat 3, seat 1, then seat 2 (means 9, 3, 9)."""
    from analyzer.games.ten.position import auction_state

    with pytest.raises(UserError) as e:
        auction_state(bids, 1, 3, [3, 9, 9], True, "f")
    assert str(e.value) == message


def test_auction_state_and_its_json_by_hand():
    """3 players, active seat 2 (index 1): order 3, 1, 2. Seat 3 bid 2, seat 1 passed: seat 2
    (the active seat) bids now, last; the high bidder is seat 3. Bids equal to the means are
    accepted. The JSON form counts seats from 1 and gives no high bidder before any bid."""
    from analyzer.games.ten.position import Auction, auction_state

    a = auction_state([2, 0], 1, 3, [3, 9, 2], True, "f")
    assert a == Auction((2, 0), 2, 2, 1, 3, (2, 0, 1))
    assert a.later == ()
    assert a.to_json() == {"order": [3, 1, 2], "bids": [{"seat": 3, "bid": 2},
                                                        {"seat": 1, "bid": 0}],
                           "current_bid": 2, "high_bidder": 3, "to_bid": 2, "later": []}
    a = auction_state([], 1, 3, [3, 9, 2], True, "f")
    assert a.to_json() == {"order": [3, 1, 2], "bids": [], "current_bid": 0,
                           "high_bidder": None, "to_bid": 3, "later": [1, 2]}
    a = auction_state([0, 3], 2, 3, [3, 9, 9], True, "f")  # order 1, 2, 3: seat 2 bid 3
    assert a.to_json()["high_bidder"] == 2 and a.high == 1 and a.to_bid == 2
    a = auction_state([1], 4, 5, [9] * 5, True, "f")  # seat 1 of 5 bid first, seat 5 active
    assert (a.order, a.high, a.to_bid, a.first) == ((0, 1, 2, 3, 4), 0, 1, 2)
    assert a.to_json()["high_bidder"] == 1 and a.to_json()["later"] == [3, 4, 5]
    assert auction_state([0, 0], 0, 3, [0] * 3, True, "f").to_json()["high_bidder"] is None
    assert auction_state([5], 1, 2, [0, 0], False, "f").cur == 5  # not within means: stands


def test_build_state_defaults_and_the_supply_check():
    """``build_state`` without tokens gives every seat the start tokens and no bust token; the
    supplies are the game's minus what the seats hold; the deck is the cards listed when none
    is given; too many tokens held is one line with both counts."""
    from analyzer.games.ten.position import build_state

    st = build_state(rules(), 3, ["r1", "r1", "$5"], market=["g2"], out=["**"],
                     tableau=["b9"], active=2)
    assert list(st.tk) == [5, 5, 5, 0, 0, 0, 0, 0, 0, 0, 35, 15, -1, -1, -1, -1, -1]
    assert list(st.pile) == [0, 0, 40] and st.pile.dtype == np.int8
    assert st.cards[7, 0] == 2 and st.cards[7, 40] == 1 and st.cards[5, 19] == 1  # g2 = 9·2 + 1
    assert st.cards[6, 54] == 1 and st.cards[8, 17] == 1 and st.cards.sum() == 6
    assert (st.deck == st.cards.sum(axis=0)).all() and (st.players, st.active) == (3, 2)
    st = build_state(rules(), 2, [], [["r1"], ["b1", "b2"]], [2, 9], [3, 4])
    assert list(st.tk[:12]) == [2, 9, 0, 0, 0, 3, 4, 0, 0, 0, 39, 8]
    assert st.cards[0, 0] == 1 and st.cards[1, 9] == 1 and st.cards[1, 10] == 1
    assert st.active == 0  # seat 1 unless told
    with pytest.raises(UserError) as e:
        build_state(rules(currency_tokens=10), 2, [], tokens=[6, 5])
    assert str(e.value) == ("the players hold 11 currency and 0 bust tokens; the game has 10 "
                            "and 15")
    build_state(rules(currency_tokens=11, bust_tokens=7), 2, [], tokens=[6, 5], busts=[3, 4])
    with pytest.raises(UserError) as e:
        build_state(rules(bust_tokens=7), 2, [], tokens=[1, 1], busts=[4, 4])
    assert str(e.value) == "the players hold 2 currency and 8 bust tokens; the game has 50 and 7"


# ---- scripted games: the forced first choice and every field of the result ------------------------

STOP1 = "threshold:stop-at=1:buy=never:bid=never:reward=numbers"


def scripted(forced=None, **kw):
    from analyzer.games.ten.lineup import parse_bot
    from analyzer.games.ten.position import scripted_game

    return scripted_game(rules(), [parse_bot(STOP1)] * 2, "r2,b3", forced=forced, **kw)


def test_a_scripted_game_every_field_by_hand():
    """Pile r2 then b3; both seats stop as soon as T ≥ 1 and take the numbers, never buy or
    bid. Seat 1 draws r2 (the first draw is mandatory), stops: r2 to its collection (seat 2
    gains C = 0). Seat 2 draws b3, the pile is empty, it stops: b3. One point, 5 tokens and one
    card each: a shared win; the last card was seat 2's."""
    g = scripted()
    assert g["collections"] == [Counter({"r2": 1}), Counter({"b3": 1})]
    assert g["tokens"] == [5, 5] and g["busts"] == [0, 0]
    assert g["market"] == Counter() and g["out"] == Counter()
    assert (g["supply"], g["bust_supply"], g["last_player"]) == (40, 15, 1)
    rec = g["record"]
    assert (rec["turns"], rec["win_0"], rec["win_1"], rec["tied"]) == (2, 0.5, 0.5, 1)
    assert (rec["score_0"], rec["score_1"], rec["cards_0"], rec["cards_1"]) == (1, 1, 1, 1)
    assert rec["stops_numbers"] == 2 and rec["busts"] == 0 and rec["violations"] == 0
    assert set(rec) == set(__import__("kernels.ten.whole_layout",
                                      fromlist=["REC_NAMES"]).REC_NAMES)


def test_a_scripted_games_forced_first_choice():
    """The active seat's first choice, forced before anything is drawn (the tableau is empty):
    "draw" is the mandatory draw (the same game as none); "numbers" stops at once with nothing
    (a stop for the numbers), so seat 2 draws r2 and seat 1 draws b3, the last card: three
    turns over two rounds, three stops for the numbers; "currency" the same cards with one stop
    for the currency; a kernel code works as its word (F_NUMBERS = 2)."""
    plain = scripted()
    assert scripted("draw") == plain
    g = scripted("numbers")
    assert g["collections"] == [Counter({"b3": 1}), Counter({"r2": 1})]
    assert g["last_player"] == 0 and g["tokens"] == [5, 5]
    rec = g["record"]
    assert (rec["turns"], rec["rounds"], rec["stops_numbers"], rec["stops_currency"]) == (
        3, 2, 3, 0)
    assert scripted(2) == g
    g = scripted("currency")
    assert g["collections"] == [Counter({"b3": 1}), Counter({"r2": 1})]
    rec = g["record"]
    assert (rec["turns"], rec["rounds"], rec["stops_numbers"], rec["stops_currency"]) == (
        3, 2, 2, 1)
    assert plain["record"]["rounds"] == 1


def test_a_scripted_game_from_a_given_situation():
    """Collections, tokens, bust tokens, the market and the active seat given: seat 2 starts
    (active = 1) with b1, b2 and draws r2 (3 points: the blue run of 2 and r2), then seat 1
    draws b3 beside its r1 (2 points); supplies are the game's minus what is held (50 − 7,
    15 − 3); seat 1 drew the last card."""
    g = scripted(collections=["r1", "b1,b2"], tokens=[3, 4], busts=[2, 1], market="g5",
                 active=1)
    assert g["collections"] == [Counter({"r1": 1, "b3": 1}), Counter({"b1": 1, "b2": 1,
                                                                      "r2": 1})]
    assert g["tokens"] == [3, 4] and g["busts"] == [2, 1] and g["market"] == Counter({"g5": 1})
    assert (g["supply"], g["bust_supply"], g["last_player"]) == (43, 12, 0)
    rec = g["record"]
    assert (rec["win_1"], rec["score_0"], rec["score_1"], rec["violations"]) == (1, 2, 3, 0)


def test_a_scripted_game_checks_conservation_and_counts_the_auctioned_wild():
    """Scripted games run with the conservation check on (rules array with R_CHECK = 1): a
    wild named as auctioned but never auctioned (no forced bid) is a card of the game in no
    row, so the check after every turn and after the final buy round (kernels/ten/
    whole_engine.py) counts one violation each: 2 turns + 1 with the r2, b3 pile, 3 turns + 1
    with ``numbers`` forced. An auctioned r# while another r# sits in a collection: the deck
    holds both (2), and the game conserves them."""
    from analyzer.games.ten.lineup import parse_bot
    from analyzer.games.ten.position import scripted_game
    from kernels.ten.whole_layout import bid_code

    assert scripted(wild="r#")["record"]["violations"] == 3
    assert scripted("numbers", wild="r#")["record"]["violations"] == 4
    assert scripted()["record"]["violations"] == 0
    quiet = [parse_bot("threshold:bid=never:buy=never:reward=currency")] * 3
    g = scripted_game(rules(), quiet, "b1", collections=["r#", "", ""],
                      forced=bid_code(41, 1, 3), wild="r#")
    assert g["collections"][:2] == [Counter({"r#": 1}), Counter({"r#": 1})]
    assert g["record"]["violations"] == 0 and g["tokens"] == [5, 2, 5]


def test_a_scripted_games_seed_decides_a_random_bots_moves():
    """Two random seats over 12 cards: seeds 0, 1, 2 give three different games; the seed
    defaults to 0."""
    from analyzer.games.ten.lineup import parse_bot
    from analyzer.games.ten.position import scripted_game

    b = [parse_bot("random")] * 2
    pile = "r1,r2,r3,$2,b5,g6,o7,r9,b8,$3,o1,g2"
    games = [scripted_game(rules(), b, pile, seed=s) for s in range(3)]
    assert games[0] != games[1] and games[1] != games[2] and games[0] != games[2]
    assert scripted_game(rules(), b, pile) == games[0]


def test_a_position_file_is_named_in_its_refusals(tmp_path):
    """``load_position`` reads the TOML file and names it (its path as given) in a refusal; a
    good file gives the same position as its data checked directly."""
    from analyzer.games.ten.position import load_position

    path = tmp_path / "mine.toml"
    path.write_text('players = 2\nactive = 1\ncolour = "red"\n[[player]]\n[[player]]\n')
    with pytest.raises(UserError) as e:
        load_position(path, rules(), deck_spec())
    assert str(e.value) == f"{path}: unknown key 'colour' (known: {KNOWN})"
    path.write_text('players = 2\nactive = 2\nmarket = "g4"\n[[player]]\ntokens = 3\n'
                    '[[player]]\ncollection = "b1"\n')
    pos = load_position(path, rules(), deck_spec())
    want = check({"players": 2, "active": 2, "market": "g4",
                  "player": [{"tokens": 3}, {"collection": "b1"}]})
    assert (pos.active, pos.me, pos.players) == (1, 1, 2)
    assert (pos.state.cards == want.state.cards).all() and (pos.state.tk == want.state.tk).all()
