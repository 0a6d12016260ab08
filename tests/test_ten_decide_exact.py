"""`ten decide` on end-game positions whose answers are worked out by hand from the rules page.

Each position lists every card of the deck except the few left in the draw pile (the deck
written out here from the rules page: per colour 1–6 three times and 7–9 once, two colour wilds
per colour, number wilds 1–9, one full wild, currency 1/2/3/4/5 six, six, six, five and four
times), so a playout's pile is known and every choice has one outcome; the bots never buy or
bid unless a test says so. Also: the auction state a position records (the bidding order, a
bid at or below the current one, the round trip through the kernel's code), the distinct bids
listed, the simultaneous z, Wilson bounds at 0 and 1, common random numbers across choices.
"""
from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
Z = 1.959963984540054
QUIET = "threshold:buy=never:bid=never"


def whole_deck() -> Counter:
    """The 129 cards of the rules page, by hand."""
    deck = Counter()
    for c in "rbgo":
        for v in range(1, 10):
            deck[f"{c}{v}"] = 3 if v <= 6 else 1
        deck[f"{c}#"] = 2
    for v in range(1, 10):
        deck[f"*{v}"] = 1
    deck["**"] = 1
    for v, k in zip(range(1, 6), (6, 6, 6, 5, 4)):
        deck[f"${v}"] = k
    return deck


def position(tmp_path, pile: str, players: int, active: int, collections, tokens,
             busts=None, tableau="", market="", wild="", extra="", name="pos.toml") -> Path:
    """A position file with every card not in ``pile``, the collections, tableau, market or
    ``wild`` listed as out of the game (seats from 1 in the file)."""
    listed = Counter()
    for text in [pile, tableau, market, wild] + list(collections):
        listed.update(x for x in text.split(",") if x)
    out = whole_deck() - listed
    assert sum(listed.values()) + sum(out.values()) == 129
    lines = [f"players = {players}", f"active = {active}", f'tableau = "{tableau}"',
             f'market = "{market}"', f'out = "{",".join(out.elements())}"', extra]
    if wild:
        lines.append(f'wild = "{wild}"')
    for q in range(players):
        lines += ["[[player]]", f'collection = "{collections[q]}"', f"tokens = {tokens[q]}",
                  f"bust_tokens = {(busts or [0] * players)[q]}"]
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n")
    return p


def decide_in_process(path, seats, n=64, seed=3, sets=()):
    from analyzer.games.ten.decide import decide
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.position import load_position
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.rules import build_rules
    from analyzer.runner import RunSpec

    rules, deck = build_rules(TenRules, sets=list(sets)), load_deck(None)
    pos = load_position(str(path), rules, deck)
    return decide(pos, rules, deck, parse_seats(seats, pos.players), RunSpec(n, seed,
                                                                             progress=False))


def wilson_edges(n):
    """Wilson bounds of 0 of n (upper) and n of n (lower), by hand: z²/(n + z²), n/(n + z²)."""
    return Z * Z / (n + Z * Z), n / (n + Z * Z)


# ---- the last card of the pile, decided by the active seat, judged by another -----------------

def last_card(tmp_path):
    # seat 1 (active) has r5, $2 out (T = 3); the pile holds only r9. Seat 2 (me) holds
    # b1-b4 and r7 (5 points), 3 tokens; seat 1 r1-r4 (4 points), 5 tokens.
    return position(tmp_path, "r9", 2, 1, ["r1,r2,r3,r4", "b1,b2,b3,b4,r7"], [5, 3],
                    tableau="r5,$2", extra="me = 2")


def test_the_last_card_by_hand_for_a_seat_that_is_not_the_active_one(tmp_path):
    # draw: r9 makes T = 12 ≥ 11, a number bust: seat 2 gains C = 2, the game ends; 4 points
    #   against 5: seat 2 wins.
    # numbers: seat 1 takes r5 (r1-r5, 5 points), seat 2 gains 2 (5 tokens); seat 2 draws r9
    #   (the last card), a red run no longer than its r7, and takes it for the new type's bonus
    #   (gain 0 + 0.5 ≥ 0 tokens' worth): 5 points, 5 tokens each, 5 cards against 6: seat 1.
    # currency: seat 1 gains 2 (r5 to the market); seat 2 takes r9: 5 points against 4: seat 2.
    out = decide_in_process(last_card(tmp_path), QUIET, n=64)
    assert (out["me"], out["active"], out["deciding"]) == (2, 1, 1)
    p = out["p_win"]
    assert [p[c].estimate for c in ("draw", "numbers", "currency")] == [1.0, 0.0, 1.0]
    low1, high0 = 64 / (64 + Z * Z), Z * Z / (64 + Z * Z)
    assert p["draw"].ci_high == 1.0 and p["draw"].ci_low == pytest.approx(low1)
    assert p["numbers"].ci_low == 0.0 and p["numbers"].ci_high == pytest.approx(high0)
    assert (high0, low1) == pytest.approx(wilson_edges(64))
    assert p["numbers"].se == 0.0 and p["draw"].se == 0.0
    d = out["differences"]["draw − numbers"]
    assert (d.estimate, d.se) == (1.0, 0.0)
    # draw and currency tie exactly: the best is not separated from currency
    assert out["selection"]["best"] == "draw" and out["selection"]["too_close"] == ["currency"]
    assert out["recommendation"].startswith("too close to call")
    # the one-turn line is the active seat's
    assert out["turn_level"]["seat"] == 1


def test_the_last_card_from_the_command_line_with_precision(tmp_path):
    path = last_card(tmp_path)
    r = subprocess.run([sys.executable, "-m", "analyzer", "ten", "decide", str(path), "--seats",
                        QUIET, "--precision", "0.01", "--seed", "5", "--json"], cwd=ROOT,
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    # every difference is exact (SE 0): the first check of the precision stops the run
    assert out["stopped_by"] == "precision" and out["n"] < 4000
    assert out["p_win"]["numbers"]["ci_high"] == pytest.approx(wilson_edges(out["n"])[0])
    assert out["p_win"]["draw"]["ci_low"] == pytest.approx(wilson_edges(out["n"])[1])
    assert out["seats"][1] == {"seat": 2, "bot": "threshold:bid=never:buy=never", "me": True,
                               "deciding": False}
    assert out["unit"] == "chance of winning (a shared win counts as a share)"
    assert out["belief"]["exact"] is True and "uniformly random order" in out["belief"][
        "description"]
    text = subprocess.run([sys.executable, "-m", "analyzer", "ten", "decide", str(path),
                           "--seats", QUIET, "-n", "50", "--seed", "5"], cwd=ROOT,
                          capture_output=True, text=True, timeout=900).stdout
    assert all(len(line) <= 80 for line in text.splitlines())
    flat = " ".join(text.split())
    assert "seat 1's move (draw or stop), judged by seat 2's chance of winning" in flat
    assert "the active seat 1's own turn, not seat 2's chance of winning" in flat


# ---- a buy phase: a full buy, a buy paid with cards, a shared win ------------------------------

def test_a_buy_phase_by_hand(tmp_path):
    # seat 1 took the numbers with the last card and buys: 2 tokens, 1 bust token (worth 3) and
    # r1-r4 (4 points); seat 2 has b1-b5 (5 points), no token. Market r5, g9.
    # no buy: 4 against 5: 0.
    # buy r5 (price 5): one bust token (3) and 2 tokens, nothing left; r1-r5, 5 points; 5 cards
    #   and 0 tokens each: a shared win, 1/2.
    # buy g9 (price 9): bust token, 2 tokens, then 4 collection cards, each the one whose loss
    #   costs least (lowest type on ties): r1, r2, r3, r4: g9 alone, 1 point: 0.
    path = position(tmp_path, "", 2, 1, ["r1,r2,r3,r4", "b1,b2,b3,b4,b5"], [2, 0], [1, 0],
                    market="r5,g9", extra='phase = "buy"')
    out = decide_in_process(path, QUIET, n=32)
    p = {c: s.estimate for c, s in out["p_win"].items()}
    assert p == {"no buy": 0.0, "buy r5": 0.5, "buy g9": 0.0}
    assert out["selection"]["best"] == "buy r5" and out["recommendation"] == "buy r5"
    # a share of 1/2 in every playout: Wilson at p = 1/2 (SE = 1/(2√n)), not the zero spread
    assert out["p_win"]["buy r5"].se == pytest.approx(0.5 / math.sqrt(32))


# ---- auctions: the recorded state, by hand -----------------------------------------------------

def auction_position(tmp_path, bids="[2]", name="auction.toml"):
    # 3 players; seat 1 (active) drew the full wild with r5 out (the pile is empty: it then
    # stops and takes r5, r1-r3 and r5: 3 points). Bidding order: seat 2, seat 3, seat 1 (last).
    # Seat 2 has bid 2; seat 3 (me, g1-g3, 5 tokens) bids now.
    return position(tmp_path, "", 3, 1, ["r1,r2,r3", "b1,b2,b3", "g1,g2,g3"], [5, 5, 5],
                    tableau="r5", wild="**", extra=f'phase = "auction"\nbids = {bids}',
                    name=name)


def test_an_auction_from_its_recorded_state_by_hand(tmp_path):
    # seat 2 would bid its limit 5 if asked again (tokens-per-point 100), seat 1 never bids.
    # pass: seat 2's bid of 2 stands; it takes ** (b1-b4, 4 points) for 2 tokens: seat 2 wins.
    # bid 3, 4, 5: seat 3 pays in tokens, g1-g4 = 4 points against 3 and 3: seat 3 wins.
    # bid 6, 7, 8: 5 tokens and 1, 2, 3 cards (g1 first: every loss is 1, lowest type); 3 (or
    #   fewer) points and no tokens: seats 1 and 2 have 3 points and 5 tokens, seat 2 fewer
    #   cards (3 against 4): seat 2 wins.
    seats = f"threshold:bid=never:buy=never,threshold:tokens-per-point=100:buy=never,{QUIET}"
    out = decide_in_process(auction_position(tmp_path), seats, n=16)
    assert out["auction"] == {"order": [2, 3, 1], "bids": [{"seat": 2, "bid": 2}],
                              "current_bid": 2, "high_bidder": 2, "to_bid": 3, "later": [1]}
    assert (out["me"], out["deciding"], out["active"]) == (3, 3, 1)
    p = {c: s.estimate for c, s in out["p_win"].items()}
    assert p == {"pass": 0.0, "bid 3": 1.0, "bid 4": 1.0, "bid 5": 1.0, "bid 6": 0.0,
                 "bid 7": 0.0, "bid 8": 0.0}
    # no bid at or below the current one is listed, and none is the same as another: seat 1
    # (means 5 + 3 cards) could outbid anything up to 8, so only 8 surely wins
    assert out["same_as"] == {}


def test_bids_that_cannot_differ_are_listed_once(tmp_path):
    # the active seat bids last: every bid wins. With no token, 2 bust tokens (worth 3) and no
    # card, bids 1-3 all cost one bust token (the change is lost) and 4-6 both: listed once
    from analyzer.games.ten.decide import bid_choices, choices_of, payment
    from analyzer.games.ten.position import load_position
    from analyzer.games.ten.rules import TenRules, load_deck

    assert [payment(x, 0, 2, 0, 3) for x in range(1, 7)] == [(0, 1, 0)] * 3 + [(0, 2, 0)] * 3
    assert payment(5, 2, 1, 4, 3) == (2, 1, 0) and payment(9, 2, 1, 4, 3) == (2, 1, 4)
    assert payment(20, 2, 1, 4, 3) == (2, 1, 4)  # never more cards than held
    path = position(tmp_path, "o1", 3, 1, ["", "b1", "g1"], [0, 5, 5], [2, 0, 0], wild="r#",
                    extra='phase = "auction"\nbids = [0, 0]')
    pos = load_position(str(path), TenRules(), load_deck(None))
    assert pos.deciding == 0 and pos.auction.later == ()
    assert bid_choices(pos, TenRules()) == ([0, 1, 4], {1: [2, 3], 4: [5, 6]})
    names, codes, same = choices_of(pos, TenRules())
    assert names == ["pass", "bid 1", "bid 4"] and same == {"bid 1": ["bid 2", "bid 3"],
                                                             "bid 4": ["bid 5", "bid 6"]}
    # a bidder before others: bids at or above every later bidder's means (6 and 6) surely win
    path = position(tmp_path, "o1", 3, 1, ["", "b1", "g1,g2,g3,g4"], [0, 5, 5], [2, 0, 3],
                    wild="r#", extra='phase = "auction"\nbids = [0]', name="p2.toml")
    pos = load_position(str(path), TenRules(), load_deck(None))
    assert pos.deciding == 2 and pos.auction.later == (0,)
    listed, same = bid_choices(pos, TenRules())
    # means 5 + 9 + 4 = 18; seat 1 (later) can pay 6: from 6 on a bid surely wins, and costs
    # 6: two bust tokens; 7: 2 bust tokens + 1 token; 8: +2; 9: three bust tokens; 10: 3 + 1 …
    assert listed == [0] + list(range(1, 19)) and same == {}
    path = position(tmp_path, "o1", 3, 1, ["", "b1", ""], [0, 5, 0], [2, 0, 2],
                    wild="r#", extra='phase = "auction"\nbids = [0]', name="p3.toml")
    pos = load_position(str(path), TenRules(), load_deck(None))
    # seat 3: no token, 2 bust tokens, no card (means 6); seat 1 can pay 6: only 6 is sure
    assert bid_choices(pos, TenRules()) == ([0, 1, 2, 3, 4, 5, 6], {})
    path = position(tmp_path, "o1", 3, 1, ["", "b1", ""], [4, 5, 0], [0, 0, 2],
                    wild="r#", extra='phase = "auction"\nbids = [0]', name="p4.toml")
    pos = load_position(str(path), TenRules(), load_deck(None))
    # seat 1 can pay 4: from 4 on a bid is sure; 4, 5 and 6 all cost both bust tokens
    assert bid_choices(pos, TenRules()) == ([0, 1, 2, 3, 4], {4: [5, 6]})


def test_identical_bids_play_identically_in_the_kernel(tmp_path):
    # the claim behind listing bids once: bids 1, 2, 3 of the active seat above give the same
    # win share in every playout (paired differences exactly 0)
    from analyzer.games.ten.cards import TYPE_OF
    from analyzer.games.ten.decide import pair_difference
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.position import load_position
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.games.ten.bots import bot_rows
    from analyzer.games.ten.whole import score_tables
    from analyzer.rng import block_keys
    from kernels.ten import whole_layout as L
    from kernels.ten.whole_blocks import position_blocks

    rules = TenRules()
    path = position(tmp_path, "o1,o2,o3,$1,b5,g6,r7", 3, 1, ["", "b1", "g1"], [0, 5, 5],
                    [2, 0, 0], wild="r#", extra='phase = "auction"\nbids = [0, 0]')
    pos = load_position(str(path), rules, load_deck(None))
    au = pos.auction
    codes = np.array([L.bid_code(TYPE_OF["r#"], 0, x, au.cur, au.high, au.first)
                      for x in (1, 2, 3)], dtype=np.int64)
    bots = bot_rows(parse_seats("threshold,random,threshold", 3), {})
    st = pos.state
    keys = block_keys(9, 0, 4)
    counts = np.full(4, 64, dtype=np.int64)
    sums = position_blocks(keys, counts, st.pile, 1, st.cards, st.tk, 0, 0, codes, st.deck, 3,
                           rules.kernel_array(3), bots, score_tables(), np.zeros(
                               (1, 1, 1, 1), dtype=np.uint8), np.zeros((1, 9), dtype=np.int32),
                           np.zeros((1, 5), dtype=np.int32)).sum(axis=0)
    for j in (1, 2):
        d = pair_difference(sums, 3, 0, j, 256, Z)
        assert d.estimate == 0.0 and d.se == 0.0


def test_common_random_numbers_every_choice_sees_the_same_pile(tmp_path):
    # the same choice twice gives the same win share in every playout (draws go through the
    # same shuffled pile and the same random bot's choices); a choice's own shuffle would not
    from analyzer.games.ten.decide import pair_difference
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.position import load_position
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.games.ten.bots import bot_rows
    from analyzer.games.ten.whole import score_tables
    from analyzer.rng import block_keys
    from kernels.ten import whole_layout as L
    from kernels.ten.whole_blocks import position_blocks

    rules = TenRules()
    pos = load_position(str(ROOT / "analyzer/data/ten_position_example.toml"), rules,
                        load_deck(None))
    st = pos.state
    codes = np.array([L.F_DRAW, L.F_DRAW, L.F_NUMBERS], dtype=np.int64)
    bots = bot_rows(parse_seats("threshold,random,threshold,random", 4), {})
    sums = position_blocks(block_keys(4, 0, 2), np.array([40, 40]), st.pile, 1, st.cards,
                           st.tk, 0, 0, codes, st.deck, 4, rules.kernel_array(4), bots,
                           score_tables(), np.zeros((1, 1, 1, 1), dtype=np.uint8),
                           np.zeros((1, 9), dtype=np.int32),
                           np.zeros((1, 5), dtype=np.int32)).sum(axis=0)
    same = pair_difference(sums, 3, 0, 1, 80, Z)
    assert same.estimate == 0.0 and same.se == 0.0
    assert pair_difference(sums, 3, 0, 2, 80, Z).se > 0  # a real choice does differ


# ---- the auction state: bidding order, refusals, the kernel's code -----------------------------

def test_the_bidding_order_starts_left_of_the_active_seat_by_hand():
    from analyzer.games.ten.position import auction_state

    # 4 players, active seat 3 (index 2): seat 4 bids first, then 1, 2 and seat 3 last
    a = auction_state([], 2, 4, [9] * 4, True, "f")
    assert a.order == (3, 0, 1, 2) and a.to_bid == 3 and a.first == 1 and a.cur == 0
    assert a.high == -1 and a.later == (0, 1, 2)
    a = auction_state([2], 2, 4, [9] * 4, True, "f")
    assert (a.to_bid, a.cur, a.high, a.first, a.later) == (0, 2, 3, 2, (1, 2))
    a = auction_state([2, 0, 5], 2, 4, [9] * 4, True, "f")
    assert (a.to_bid, a.cur, a.high, a.first, a.later) == (2, 5, 1, 4, ())
    a = auction_state([0, 0], 0, 3, [0] * 3, True, "f")  # seat 1 active: 2 and 3 passed
    assert (a.to_bid, a.cur, a.high) == (0, 0, -1)


@pytest.mark.parametrize("bids, words", [
    ([3, 3], "seat 1 bid 3, not above the current bid 3 (seat 4)"),
    ([3, 2], "seat 1 bid 2, not above the current bid 3"),
    ([0, 10], "seat 1 bid 10 but can pay only 9"),
    ([0, 0, 0, 0], "at most 3 come before the active seat 3"),
])
def test_a_bid_at_or_below_the_current_one_is_refused(bids, words):
    from analyzer.errors import UserError
    from analyzer.games.ten.position import auction_state

    with pytest.raises(UserError) as e:
        auction_state(bids, 2, 4, [9] * 4, True, "f")
    assert words in str(e.value) and "\n" not in str(e.value)
    if bids == [0, 10]:  # without bid_within_means a bid above the means stands
        assert auction_state(bids, 2, 4, [9] * 4, False, "f").cur == 10


def test_a_bid_at_or_below_the_current_one_is_refused_from_the_command_line(tmp_path):
    path = auction_position(tmp_path, bids="[2]")
    bad = path.read_text().replace("bids = [2]", "bids = [2, 2]")
    path.write_text(bad)
    r = subprocess.run([sys.executable, "-m", "analyzer", "ten", "decide", str(path), "-n",
                        "4"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert "seat 3 bid 2, not above the current bid 2 (seat 2)" in r.stderr


def test_the_auction_state_round_trips_through_the_kernels_code():
    from kernels.ten import whole_layout as L
    from kernels.ten.whole_decisions import unpack_bid

    for w, q, x, cur, high, first in [(41, 0, 0, 0, -1, 1), (54, 4, 127, 126, 4, 5),
                                      (45, 2, 7, 3, 0, 3), (44, 1, 0, 9, 3, 2)]:
        code = L.bid_code(w, q, x, cur, high, first)
        assert unpack_bid(code - L.F_BID0) == (w, q, x, cur, high, first)
    # a fresh auction's code is the one documented: F_BID0 + (x · 5 + q) · 16 + (w − 41)
    assert L.bid_code(43, 2, 5) == 64 + (5 * 5 + 2) * 16 + 2
    with pytest.raises(ValueError):
        L.bid_code(41, 0, 3, cur=3)  # a bid at the current bid is not a bid


def test_the_auction_state_round_trips_through_a_position_file(tmp_path):
    from analyzer.games.ten.position import load_position
    from analyzer.games.ten.rules import TenRules, load_deck

    pos = load_position(str(auction_position(tmp_path, bids="[0]")), TenRules(),
                        load_deck(None))
    back = pos.auction.to_json()
    assert back == {"order": [2, 3, 1], "bids": [{"seat": 2, "bid": 0}], "current_bid": 0,
                    "high_bidder": None, "to_bid": 3, "later": [1]}
    again = load_position(str(auction_position(tmp_path, bids=str(
        [b["bid"] for b in back["bids"]]), name="again.toml")), TenRules(), load_deck(None))
    assert again.auction == pos.auction


# ---- the best of many: the z, pinned by value -------------------------------------------------

def test_the_selection_z_by_value():
    from analyzer.games.ten.decide import selection_z

    # Φ⁻¹(1 − 0.05 / (2 (K − 1))): K = 2 the plain 1.96, K = 3, 5, 16
    assert selection_z(2) == pytest.approx(1.959963984540054, rel=1e-9)
    assert selection_z(3) == pytest.approx(2.241402727604947, rel=1e-9)
    assert selection_z(5) == pytest.approx(2.497705474412374, rel=1e-9)
    assert selection_z(16) == pytest.approx(2.935199468866698, rel=1e-9)


def test_every_pairs_cross_sum_is_the_sum_of_products_of_single_playouts():
    # one playout per block: each block's first K columns are that playout's win shares, so
    # Σ w_i·w_j over playouts is computed here by hand and must equal the kernel's cross column
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.position import load_position
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.games.ten.bots import bot_rows
    from analyzer.games.ten.whole import score_tables
    from analyzer.rng import block_keys
    from kernels.ten import whole_layout as L
    from kernels.ten.whole_blocks import cross_column, position_blocks

    rules = TenRules()
    pos = load_position(str(ROOT / "analyzer/data/ten_position_example.toml"), rules,
                        load_deck(None))
    st = pos.state
    codes = np.array([L.F_DRAW, L.F_NUMBERS, L.F_CURRENCY], dtype=np.int64)
    bots = bot_rows(parse_seats("threshold,random,threshold,random", 4), {})
    rows = position_blocks(block_keys(6, 0, 60), np.ones(60, dtype=np.int64), st.pile, 1,
                           st.cards, st.tk, 0, 0, codes, st.deck, 4, rules.kernel_array(4), bots,
                           score_tables(), np.zeros((1, 1, 1, 1), dtype=np.uint8),
                           np.zeros((1, 9), dtype=np.int32), np.zeros((1, 5), dtype=np.int32))
    w = rows[:, :3]
    assert len({tuple(r) for r in w}) > 1  # the playouts differ
    for i in range(3):
        for j in range(i, 3):
            assert rows[:, cross_column(3, i, j)].sum() == pytest.approx(
                float((w[:, i] * w[:, j]).sum()), abs=1e-12), (i, j)
    assert any(abs((w[:, i] * w[:, j]).sum() - (w[:, i] ** 2).sum()) > 0.1
               for i in range(3) for j in range(3) if i != j)  # a pair's cross is not a square
