"""Ten's search bot (kernels/ten/search_root.py, search_game.py).

* The search game driver plays like the engine: without search seats, and with a search seat
  that searches nothing, card for card the engine's games (records, collections, tokens).
* It never reads hidden information: the same public position with the unseen cards in two
  other orders gets the same first decision (same search seed).
* One legal move is played without a playout (a bid nobody can pay, a buy nobody can afford).
* Bids are grouped by the auction they lead to (worked out by hand).
* With a deterministic remainder (the last card known by elimination, or no card left) it
  finds the exact best move in end-game positions worked out by hand from the rules page, where
  its own heuristic errs.
* Knobs: budgets, ranges, labels; `ten decide` plays search seats in its playouts.

Positions are built here from card names by hand (colour r, b, g, o = 0..3; type 9·colour +
value − 1; $v = 35 + v; r# = 41; the rows of kernels/ten/whole_layout.py), not by the
project's position parser.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from kernels.ten import whole_layout as L

COLOURS = "rbgo"


def card(name: str) -> int:
    """The kernel type of a card name (r5, $3, r#, *5, **)."""
    if name == "**":
        return 54
    if name[0] == "$":
        return 35 + int(name[1:])
    if name[1] == "#":
        return 41 + COLOURS.index(name[0])
    if name[0] == "*":
        return 44 + int(name[1:])
    return 9 * COLOURS.index(name[0]) + int(name[1:]) - 1


def full_deck() -> np.ndarray:
    """The 129 cards of the rules page: per colour 1–6 three times and 7–9 once, two colour
    wilds; number wilds 1..9; one full wild; currency 1..5: 6, 6, 6, 5, 4 (the [U] default)."""
    d = np.zeros(55, dtype=np.int64)
    for c in range(4):
        for v in range(9):
            d[9 * c + v] = 3 if v < 6 else 1
        d[41 + c] = 2
    d[45:54] = 1
    d[54] = 1
    d[36:41] = (6, 6, 6, 5, 4)
    assert d.sum() == 129
    return d


def position(collections, tokens, tableau=(), market=(), pile=(), busts=None, rest=False):
    """(cards, tk, pile) of a hand-built position; ``rest``: every card of the full deck not
    listed is unseen (in the pile, shuffled later), else the pile is exactly ``pile``."""
    cards = np.zeros((9, 55), dtype=np.int64)
    for q, coll in enumerate(collections):
        for c in coll:
            cards[q, card(c)] += 1
    for c in market:
        cards[L.ROW_MARKET, card(c)] += 1
    for c in tableau:
        cards[L.ROW_TABLEAU, card(c)] += 1
    if rest:
        cards[L.ROW_PILE] = full_deck() - cards.sum(axis=0)
        assert cards[L.ROW_PILE].min() >= 0
        pile = [t for t in range(55) for _ in range(cards[L.ROW_PILE, t])]
    else:
        for c in pile:
            cards[L.ROW_PILE, card(c)] += 1
        pile = [card(c) for c in pile]
    P = len(collections)
    tk = np.zeros(L.NTK, dtype=np.int64)
    tk[:P] = tokens
    tk[5:5 + P] = busts or [0] * P
    tk[L.TK_SUP] = 50 - sum(tokens)
    tk[L.TK_BSUP] = 15 - sum(busts or [0] * P)
    tk[L.TK_SCORE:L.TK_SCORE + 5] = -1
    return cards, tk, np.array(pile, dtype=np.int8)


def rows(seats: str, P: int):
    from analyzer.games.ten.bots import bot_rows
    from analyzer.games.ten.lineup import parse_seats

    return bot_rows(parse_seats(seats, P), {}, search=True)


def dummies():
    return (np.zeros((1, 1, 1, 1), dtype=np.uint8), np.zeros((1, 9), dtype=np.int32),
            np.zeros((1, 5), dtype=np.int32))


def rules_array(P: int) -> np.ndarray:
    from analyzer.games.ten.rules import TenRules

    return TenRules().kernel_array(P)


def play_from(cards, tk, pile, active, seats, seed=1):
    """Play the rest of the game from a position with search_play; (record, log, end state)."""
    from analyzer.games.ten.whole import score_tables
    from kernels.ten.search_game import begin, scratch, search_play
    from kernels.ten.search_root import W_LG
    from kernels.ten.whole_score import WS_SIZE

    P = len([x for x in seats.split(",")])
    cards, tk = cards.copy(), tk.copy()
    rl = rules_array(P)
    bots = rows(seats, P)
    W = scratch(P, max(len(pile), 1))
    key = np.array([seed, 2, 3, 4], dtype=np.uint64)
    begin(bots, key, 0, W)
    s = np.array([seed, 7, 8, 9], dtype=np.uint64)
    rec = np.zeros(L.NREC, dtype=np.float64)
    deck = cards.sum(axis=0)
    search_play(pile, np.int64(0), np.int64(active), np.int64(L.F_NONE), P, cards, tk, rl, bots,
                s, score_tables(), np.zeros(WS_SIZE, dtype=np.int64), *dummies(), deck, rec, W)
    return rec, W[W_LG].copy(), cards


def first_decisions(lg, k):
    from kernels.ten.search_root import LG_LOG

    return [(int(lg[LG_LOG + 2 * i]), int(lg[LG_LOG + 2 * i + 1])) for i in range(k)]


# ---- the driver plays like the engine ------------------------------------------------------

@pytest.mark.parametrize("seats,plain", [
    ("random,exact,cards:5,threshold:8:bid=random:pay-with-cards=true", None),
    ("search:search-draws=no:search-bids=no:search-buys=no:stop-at=8:card-bonus=0,"
     "threshold,rollout:4,threshold:6", "threshold:8:card-bonus=0,threshold,rollout:4,threshold:6"),
])
def test_search_driver_plays_like_the_engine(seats, plain):
    """Without search seats, and with a search seat that searches nothing (so its heuristic, the
    threshold bot of its knobs, decides), the search driver's games equal the engine's: every
    record field, every final collection and token count, game by game."""
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.games.ten.whole import Setup
    from analyzer.rng import block_keys
    from kernels.ten.search_game import search_game_details

    rules = TenRules(all_pass="active-free", spent_cards="market")
    mine = Setup(rules, load_deck(), 4, [parse_seats(seats, 4)], check=True)
    ref = Setup(rules, load_deck(), 4, [parse_seats(plain or seats, 4)], check=True)
    key = block_keys(9, 0, 1)[0]
    got = search_game_details(key, 6, *mine.kernel_args())
    want = ref.details(key, 6)
    for g in range(6):
        assert list(got[0][g]) == list(want[0][g]), g
        assert (got[1][g] == want[1][g]).all() and (got[2][g] == want[2][g]).all(), g
    assert got[0][:, L.G_VIOL].sum() == 0


# ---- hidden information ----------------------------------------------------------------------

HIDDEN = [  # (tableau, collections of seats 1..4, market): seat 1 active at a draw check
    (("r5", "$2", "b3"), [("r1", "r2", "g4"), ("b5", "b6"), ("o2", "o3", "o4"), ("g7",)],
     ("b1", "o6")),
    (("g6", "o1"), [("b2", "b3", "b4", "r#"), ("r7",), ("g1", "g2"), ("o8", "o9")], ("r3",)),
    (("b4", "o3", "$1"), [("o5",), ("r4", "r5", "r6"), ("g8",), ("b7", "b8")], ()),
]


@pytest.mark.parametrize("case", range(len(HIDDEN)))
def test_decisions_never_read_the_pile_order(case):
    """The first decision of a search seat (a draw check before any unseen card shows) is the
    same whatever order the unseen cards are in: same public position, same search seed."""
    tableau, colls, market = HIDDEN[case]
    cards, tk, pile = position(colls, [3, 6, 2, 8], tableau, market, rest=True)
    rng = np.random.default_rng(case)
    seen = set()
    for _ in range(3):
        order = pile.copy()
        rng.shuffle(order)
        _rec, lg, _ = play_from(cards, tk, order, 0, "search:iters=24,threshold,threshold,"
                                "threshold", seed=5)
        seen.add(first_decisions(lg, 1)[0])
    assert len(seen) == 1, seen


# ---- one legal move --------------------------------------------------------------------------

def _scratch_for(P, cards, tk, seats):
    from analyzer.games.ten.whole import score_tables
    from kernels.ten.search_game import begin, scratch
    from kernels.ten.whole_score import WS_SIZE
    from kernels.ten.whole_seats import forget_all

    rl = rules_array(P)
    bots = rows(seats, P)
    W = scratch(P, 129)
    begin(bots, np.array([1, 2, 3, 4], dtype=np.uint64), 0, W)
    ws = np.zeros(WS_SIZE, dtype=np.int64)
    forget_all(ws)
    return rl, bots, W, ws, score_tables()


def test_one_legal_move_is_played_without_playouts():
    """A seat that can pay nothing can only pass; a buy phase with nothing affordable can only
    buy nothing: the move, with no playout spent."""
    from kernels.ten.search_root import LG_PLAYOUTS, LG_SEARCHED, W_LG, search_bid, search_buy

    cards, tk, _ = position([(), ("b1", "b2")], [0, 4], market=("o9",), pile=("r1", "r2"))
    rl, bots, W, ws, T = _scratch_for(2, cards, tk, "search:iters=50,threshold")
    s = np.array([1, 2, 3, 4], dtype=np.uint64)
    deck = cards.sum(axis=0)
    x = search_bid(np.int64(1), np.int64(card("r#")), np.int64(0), 2, cards, tk, rl, s, T,
                   *dummies(), deck, W)
    assert x == 0
    code = search_buy(np.int64(0), 2, cards, tk, rl, T, ws, *dummies(), deck, W)
    assert code == L.F_BUYNONE
    assert W[W_LG][LG_PLAYOUTS] == 0 and W[W_LG][LG_SEARCHED] == 0


def test_bids_are_grouped_by_the_auction_they_lead_to():
    """Seat 1 drew a red wild and bids last; seat 2 holds nothing to pay with, so it passes.
    A bid means exactly that bid (issue 34: the active seat too, so a higher level pays more),
    so seat 1's levels 0..5 lead to six auctions: pass (the wild is discarded) or take it at
    1, 2, … 5. Its heuristic values the wild (a red run of 1: 1 point, 3 tokens) so taking it at
    the cheapest level comes first, then passing."""
    from kernels.ten.search_root import bid_arms

    cards, tk, _ = position([("b1",), ("g1",)], [5, 0], pile=("r1", "r2"))
    rl, bots, W, ws, T = _scratch_for(2, cards, tk, "search:iters=50,threshold")
    s = np.array([1, 2, 3, 4], dtype=np.uint64)
    w = card("r#")
    n = bid_arms(np.int64(0), np.int64(w), np.int64(0), 2, cards, tk, rl, s, T, W, np.int64(6))
    xs = [(int(W[8][0, i]) - L.F_BID0) // 80 for i in range(n)]
    assert xs[:2] == [1, 0] and sorted(xs) == [0, 1, 2, 3, 4, 5]
    assert W[8][0, 0] == L.bid_code(w, 0, 1)


# ---- exact end games ---------------------------------------------------------------------------

def test_last_card_known_draw_wins_where_the_heuristic_stops():
    """2 players. Seat 1 holds r2..r9 (8 points), seat 2 b1..b8 (8 points), 5 tokens each, an
    empty market; seat 1's tableau is r1 and the one card left is b9 (by elimination).
    Draw: T = 1 + 9 = 10 (no bust), the pile is empty, take the numbers: r1..r9 and b9 score
    10 + 1 = 11 against 8: a win (1). Stop for the numbers: seat 2 draws b9 and reaches b1..b9 =
    10 against 10, 5 tokens each, 9 cards each: a shared win (1/2). Stop for the currency (0):
    r1 goes to the market, seat 2 draws b9 (10) and buys r1 (11) against 8: a loss (0). Its
    heuristic (stop at T ≥ 1) stops; the search draws, then takes the numbers, and wins."""
    cards, tk, pile = position([("r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"),
                                ("b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8")], [5, 5],
                               tableau=("r1",), pile=("b9",))
    rec, lg, end = play_from(cards, tk, pile, 0, "search:iters=8:stop-at=1,threshold")
    assert first_decisions(lg, 2) == [(1, L.F_DRAW), (1, L.F_NUMBERS)]
    assert (rec[L.G_SCORE], rec[L.G_SCORE + 1], rec[L.G_WIN]) == (11, 8, 1.0)
    heuristic, _, _ = play_from(cards, tk, pile, 0, "threshold:stop-at=1,threshold")
    assert heuristic[L.G_WIN] == 0.5


def test_last_card_known_busts_so_stop_for_the_numbers():
    """2 players. Seat 1: r1..r7 and g3 (8 points, 4 tokens), tableau r8 (T = 8); seat 2:
    g1..g6, b9, o1 (8 points, 5 tokens); the card left is g3 (its third copy). Draw: T = 11, a
    number bust: r8 and g3 go to the market; in the final round neither seat may buy them
    (seat 2 cannot pay 8 and owns g3; seat 1 holds 4 + 3 (its new bust token) < 8 and owns
    g3): 8 against 8, tokens 4 against 5: a loss. Currency (C = 0): r8 to the market, seat 2
    draws g3 and buys nothing it can pay: 8 against 8, a loss. Numbers: 9 against 8 (seat 2's
    g3 adds nothing): a win. Its heuristic (stop at T ≥ 9) draws; the search stops for the
    numbers."""
    cards, tk, pile = position([("r1", "r2", "r3", "r4", "r5", "r6", "r7", "g3"),
                                ("g1", "g2", "g3", "g4", "g5", "g6", "b9", "o1")], [4, 5],
                               tableau=("r8",), pile=("g3",))
    rec, lg, _ = play_from(cards, tk, pile, 0, "search:iters=8:stop-at=9,threshold")
    assert first_decisions(lg, 1) == [(1, L.F_NUMBERS)]
    assert (rec[L.G_SCORE], rec[L.G_SCORE + 1], rec[L.G_WIN]) == (9, 8, 1.0)
    heuristic, _, _ = play_from(cards, tk, pile, 0, "threshold:stop-at=9,threshold")
    assert heuristic[L.G_WIN] == 0.0


def test_final_buy_is_the_exact_best():
    """The final buy round, seat 1 first. Seat 1: r1..r4, r6 (4 points, 10 tokens); seat 2:
    g1..g3, o1, r5 (5 points, 10 tokens); market r5 and o1 (seat 2 owns both, so buys neither).
    Buy r5 (price 5): r1..r6 = 6 > 5, a win. Buy o1 (price 1): 5 = 5, tokens 9 < 10, a loss.
    No buy: 4 < 5. The heuristic's rule (best (gain + 0.5) / price) picks o1 (1.5 > 0.5); the
    search buys r5."""
    from kernels.ten.search_root import search_final_buy

    cards, tk, _ = position([("r1", "r2", "r3", "r4", "r6"), ("g1", "g2", "g3", "o1", "r5")],
                            [10, 10], market=("r5", "o1"))
    rl, bots, W, ws, T = _scratch_for(2, cards, tk, "search:iters=4,threshold")
    order = np.array([0, 1, -1, -1, -1], dtype=np.int64)
    s = np.array([1, 2, 3, 4], dtype=np.uint64)
    code = search_final_buy(np.int64(0), order, np.int64(0), 2, cards, tk, rl, s, T, ws,
                            *dummies(), cards.sum(axis=0), W)
    assert code == L.F_BUY0 + card("r5")


# ---- knobs -------------------------------------------------------------------------------------

def test_search_knobs():
    from analyzer.errors import UserError
    from analyzer.games.ten.lineup import parse_bot

    b = parse_bot("search")
    assert (b.iters, b.ms, b.arms, b.label) == (400, 0.0, 6, "search")
    b = parse_bot("search:ms=50")  # a time budget alone lifts the playout cap
    assert (b.iters, b.ms) == (0, 50.0)
    b = parse_bot("search:250:arms=3:search-bids=no:stop-at=8")
    assert (b.iters, b.arms, b.search_bids, b.stop_at) == (250, 3, False, 8)
    assert b.label == "search:stop-at=8:iters=250:arms=3:search-bids=no"
    for bad, words in [("search:iters=0", "needs a budget"), ("search:arms=1", "2..16"),
                       ("search:ms=-1", "0..600000"), ("search:after=3", "unknown knob")]:
        with pytest.raises(UserError, match=words):
            parse_bot(bad)


def name_of(t: int) -> str:
    """The card name of kernel type t (the inverse of ``card``)."""
    if t < 36:
        return f"{COLOURS[t // 9]}{t % 9 + 1}"
    if t < 41:
        return f"${t - 35}"
    if t < 45:
        return f"{COLOURS[t - 41]}#"
    return f"*{t - 44}" if t < 54 else "**"


def test_decide_with_a_search_seat_is_exact_on_a_known_last_card(tmp_path):
    """`ten decide` with a search seat: the position of
    test_last_card_known_draw_wins_where_the_heuristic_stops written as a position file by hand
    (every card but b9 listed). Draw: seat 1's search then stops for the numbers, 11 against 8:
    P(win) = 1; numbers: 1/2; currency: 0 (worked out there), exactly, on every playout. Its
    heuristic with the currency as its reward stops for the currency after the draw, so the
    same seat without search does not win every game after a draw."""
    held = [("r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"),
            ("b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8")]
    rest = full_deck()
    for c in [*held[0], *held[1], "r1", "b9"]:
        rest[card(c)] -= 1
    out = ",".join(name_of(t) for t in range(55) for _ in range(rest[t]))
    text = (f'players = 2\nactive = 1\nme = 1\nphase = "draw"\ntableau = "r1"\n'
            f'market = ""\nout = "{out}"\n')
    for h in held:
        text += f'[[player]]\ncollection = "{",".join(h)}"\ntokens = 5\nbust_tokens = 0\n'
    pos = tmp_path / "last_card.toml"
    pos.write_text(text)

    def decide(seats):
        res = subprocess.run([sys.executable, "-m", "analyzer", "ten", "decide", str(pos),
                              "--seats", seats, "-n", "6", "--seed", "2", "--json"],
                             capture_output=True, text=True, timeout=600)
        assert res.returncode == 0, res.stderr[-600:]
        return json.loads(res.stdout)

    got = decide("search:iters=8:stop-at=1:reward=currency,threshold")
    assert got["n"] == 6 and got["cards_unseen"] == 1
    p = {c: st["estimate"] for c, st in got["p_win"].items()}
    assert p == {"draw": 1.0, "numbers": 0.5, "currency": 0.0}
    assert got["recommendation"] == "draw"
    plain = decide("threshold:stop-at=1:reward=currency,threshold")
    assert plain["p_win"]["draw"]["estimate"] < 1.0


def test_same_seed_same_games_at_any_thread_count():
    """`ten game` with a search seat: one thread and two give the same games (the search's
    streams come from the trial, not from the thread)."""
    outs = []
    for threads in ("1", "2"):
        res = subprocess.run([sys.executable, "-m", "analyzer", "ten", "game", "--seats",
                              "search:iters=12,threshold,threshold,threshold", "--vs",
                              "threshold", "-n", "6", "--seed", "4", "--json"],
                             capture_output=True, text=True, timeout=600,
                             env={**os.environ, "NUMBA_NUM_THREADS": threads})
        assert res.returncode == 0, res.stderr[-400:]
        out = json.loads(res.stdout)
        out.pop("games_per_second")
        out["search"].pop("cpu_ms_per_decision")  # a measured time
        outs.append(out)
    assert outs[0] == outs[1]
    assert outs[0]["search"]["searched_decisions"] > 0
    assert outs[0]["n"] == 6
