"""Scripted Ten whole-game rules: each test plays a given draw pile from a given situation
(``scripted_game``) and checks one rule transition against hand-worked values."""
from collections import Counter

import pytest

from analyzer.games.ten.lineup import parse_bot
from analyzer.games.ten.position import scripted_game
from analyzer.games.ten.rules import TenRules

R = TenRules()
QUIET = "threshold:bid=never:buy=never:reward=currency"


def bots(*texts):
    return [parse_bot(t) for t in texts]


def test_auction_bid_capped_by_means():
    # seat 1 values the wild at 1 point × 100 tokens but holds 2 tokens: it bids 2 and pays 2
    g = scripted_game(R, bots(QUIET, "threshold:tokens-per-point=100:buy=never", QUIET), "r#",
                      tokens=[0, 2, 0])
    assert g["collections"][1] == Counter({"r#": 1})
    assert g["tokens"] == [0, 0, 0]
    assert g["record"]["auction_price"] == 2 and g["record"]["auctions"] == 1


def test_random_bids_never_exceed_means():
    for seed in range(40):
        g = scripted_game(R, bots("random:bid=never", "random", "random"), "r#", tokens=[0, 1, 0],
                          seed=seed)
        assert g["record"]["auction_price"] <= 1
        assert g["tokens"][1] + g["tokens"][2] >= 0 and g["busts"] == [0, 0, 0]


def test_active_player_bids_last_and_one_above():
    # seat 1 bids its means (3); the active seat 0, last, bids 4 and wins
    g = scripted_game(R, bots("threshold:tokens-per-point=100:buy=never:reward=currency",
                              "threshold:tokens-per-point=100:buy=never"), "b#", tokens=[10, 3])
    assert g["collections"][0] == Counter({"b#": 1})
    assert g["tokens"] == [6, 3]
    assert g["record"]["auction_price"] == 4


def test_payment_with_bust_token_loses_the_change():
    # r5 drawn, pile empty → forced stop, numbers; buy b2 (price 2) with the only bust token (3)
    g = scripted_game(R, bots("threshold:reward=numbers:bid=never", QUIET), "r5", market="b2",
                      tokens=[0, 0], busts=[1, 0])
    assert g["collections"][0] == Counter({"r5": 1, "b2": 1})
    assert g["tokens"] == [0, 0] and g["busts"] == [0, 0]
    assert g["bust_supply"] == R.bust_tokens and g["supply"] == R.currency_tokens


def test_identical_card_ban():
    b = bots("threshold:reward=numbers:bid=never:card-bonus=2")
    g = scripted_game(R, b, "o9", collections=["r3"], market="r3", tokens=[10])
    assert g["market"] == Counter({"r3": 1}) and g["collections"][0]["r3"] == 1
    g = scripted_game(R, b, "o9", collections=["r3"], market="r4", tokens=[10])
    assert g["collections"][0]["r4"] == 1 and g["tokens"] == [6]


def test_token_cap_on_gains():
    # seat 0 takes the numbers with C = 8: seat 1 (8 tokens) reaches the cap of 10, seat 2 gains 8
    b = bots("threshold:stop-at=60:reward=numbers:buy=never:bid=never", QUIET, QUIET)
    g = scripted_game(R, b, "$5,$3", tokens=[0, 8, 0])
    assert g["tokens"] == [0, 10, 8]
    assert g["supply"] == R.currency_tokens - 18


def test_busts():
    b = bots("threshold:stop-at=60:buy=never:bid=never", QUIET, QUIET)
    g = scripted_game(R, b, "$5,$3,$4", tokens=[0, 0, 0])  # currency bust: nobody gains
    assert g["tokens"] == [0, 0, 0] and g["busts"] == [1, 0, 0]
    assert g["record"]["currency_busts"] == 1
    g = scripted_game(R, b, "$2,r9,r4", tokens=[0, 0, 0])  # T = 13 − 2 = 11: number bust
    assert g["tokens"] == [0, 2, 2] and g["busts"] == [1, 0, 0]
    assert g["market"] == Counter({"r9": 1, "r4": 1})
    assert g["record"]["number_busts"] == 1


def test_final_buy_round_order():
    # seat 1 draws the last card and takes currency; the final round goes 2, 0, 1
    want = "threshold:reward=currency:bid=never"
    g = scripted_game(R, bots(want, want, want), "$1", active=1, market="g4",
                      collections=["g3", "g3", "g3"], tokens=[10, 9, 10])
    assert g["collections"][2]["g4"] == 1
    never = "threshold:reward=currency:bid=never:buy=never"
    g = scripted_game(R, bots(never, want, never), "$1", active=1, market="g4",
                      collections=["g3", "g3", "g3"], tokens=[10, 9, 10])
    assert g["collections"][1]["g4"] == 1  # the last player is included, last
    r = TenRules(final_buy_last=False)
    g = scripted_game(r, bots(never, want, never), "$1", active=1, market="g4",
                      collections=["g3", "g3", "g3"], tokens=[10, 9, 10])
    assert g["market"] == Counter({"g4": 1})


def test_all_pass_knob():
    b = bots(QUIET, QUIET)
    assert scripted_game(R, b, "**")["out"] == Counter({"**": 1})
    g = scripted_game(TenRules(all_pass="active-free"), b, "**")
    assert g["collections"][0] == Counter({"**": 1}) and g["record"]["wilds_free"] == 1


def test_tie_breaks():
    b = bots(QUIET, QUIET)
    g = scripted_game(R, b, "o9", collections=["r1", "b1,b1"], tokens=[5, 5])
    assert g["record"]["win_0"] == 1.0  # same points and tokens: fewer cards wins
    g = scripted_game(R, b, "o9", collections=["r1", "b1"], tokens=[5, 6])
    assert g["record"]["win_1"] == 1.0  # same points: more tokens wins
    g = scripted_game(R, b, "o9", collections=["r1", "b1"], tokens=[5, 5])
    assert g["record"]["win_0"] == g["record"]["win_1"] == 0.5 and g["record"]["tied"] == 1


def test_first_draw_is_mandatory():
    b = bots("threshold:stop-at=-60:buy=never:bid=never:reward=currency")
    g = scripted_game(R, b * 2, "r2,r3")
    assert g["record"]["turns"] == 2 and g["market"] == Counter({"r2": 1, "r3": 1})


def test_spent_cards_rule():
    # seat 0 with no tokens wins a bid paid with a collection card only if allowed to pay so
    b = bots("threshold:tokens-per-point=100:pay-with-cards=true:buy=never:reward=currency",
             QUIET)
    g = scripted_game(R, b, "**", collections=["r1,r1", ""], tokens=[0, 0])
    assert g["collections"][0] == Counter({"r1": 1, "**": 1}) and g["out"]["r1"] == 1
    g = scripted_game(TenRules(spent_cards="market"), b, "**", collections=["r1,r1", ""],
                      tokens=[0, 0])
    assert g["market"]["r1"] == 1


@pytest.mark.parametrize("players", [1, 5])
def test_player_counts_run(players):
    g = scripted_game(R, bots("threshold") * players, "r1,r2,$3,r#,b4")
    assert g["record"]["violations"] == 0


def test_rollout_bot_stops_when_every_rollout_busts():
    # after r9 the pile holds r5, r6, r7: every rollout busts (worth bust·token = 0.75) and
    # stopping with one card is worth 1, so the rollout bot stops; seat 1 then busts on r5, r6
    g = scripted_game(R, bots("rollout:8:buy=never:reward=numbers", QUIET), "r9,r5,r6,r7")
    assert g["record"]["first_turn_bust"] == 0
    assert g["collections"][0] == Counter({"r9": 1, "r7": 1})
    assert g["record"]["number_busts"] == 1


def test_rollout_bot_draws_when_every_rollout_gains():
    # after r1 the pile holds r2, r3: every rollout takes both (T = 6 < 7, then the pile is
    # empty) and is worth 3 cards against 1 now, so it draws on and takes r1, r2, r3
    g = scripted_game(R, bots("rollout:4:buy=never:reward=numbers", QUIET), "r1,r2,r3")
    assert g["collections"][0] == Counter({"r1": 1, "r2": 1, "r3": 1})
    assert g["record"]["turns"] == 1


def test_forced_buy_takes_the_card_and_pays_its_value():
    from kernels.ten.whole_layout import F_BUY0, F_BUYNONE

    # seat 0 is in its buy phase: it buys g4 (type 21) for 4 of its 5 tokens
    g = scripted_game(R, bots(QUIET, QUIET), "b1", market="r3,g4", forced=F_BUY0 + 21)
    assert g["collections"][0] == Counter({"g4": 1})
    assert g["tokens"][0] == R.start_tokens - 4 and g["record"]["buys"] == 1
    assert g["market"] == Counter({"r3": 1, "b1": 1}) and g["record"]["violations"] == 0
    g = scripted_game(R, bots(QUIET, QUIET), "b1", market="r3,g4", forced=F_BUYNONE)
    assert g["collections"][0] == Counter() and g["record"]["buys"] == 0


def test_forced_bid_wins_the_auction_and_the_turn_goes_on():
    from kernels.ten.whole_layout import bid_code

    # seat 0 drew r# (type 41); seat 1 bids 3 against bots that never bid, wins and pays 3;
    # then seat 0's turn goes on: it draws b1, the pile is empty, it stops for the currency
    g = scripted_game(R, bots(QUIET, QUIET, QUIET), "b1", forced=bid_code(41, 1, 3), wild="r#")
    assert g["collections"][1] == Counter({"r#": 1})
    assert g["tokens"] == [R.start_tokens, R.start_tokens - 3, R.start_tokens]
    assert g["record"]["auctions"] == 1 and g["record"]["auction_price"] == 3
    assert g["record"]["turns"] == 1 and g["market"] == Counter({"b1": 1})
    assert g["record"]["violations"] == 0
    # the active seat bids last, and a forced bid means exactly that bid: 4, paid in full
    g = scripted_game(R, bots(QUIET, QUIET), "b1", forced=bid_code(41, 0, 4), wild="r#")
    assert g["collections"][0] == Counter({"r#": 1}) and g["record"]["auction_price"] == 4
    assert g["tokens"] == [R.start_tokens - 4, R.start_tokens]
    # a forced pass with no other bidder: the wild is discarded (all_pass = discard)
    g = scripted_game(R, bots(QUIET, QUIET), "b1", forced=bid_code(41, 1, 0), wild="r#")
    assert g["out"]["r#"] == 1 and g["record"]["wilds_discarded"] == 1
