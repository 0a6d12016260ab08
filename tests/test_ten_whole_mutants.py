"""Ten whole games (analyzer/games/ten/whole.py) pinned by hand: the set-up's checks and
arrays, the kernel job it hands the runner (a stand-in kernel records its arguments), every
statistic of a line-up from planted games, the price per auction at its edges, the exact bots'
tables, and the removals note word for word.

Planted games are laid out as the block driver writes them (tests/test_sums_to_statistics_
contracts.py ``ten_sums``: per line-up k at k·LW the games, Σx and Σx² of each record field,
Σprice·auctions; then the paired differences); each statistic is worked out from the planted
per-game values with the textbook formulas (``by_hand``, ``wilson_by_hand`` there). The deck is
the rules page's (docs/rules/ten.md section 1): 129 cards by type, 3/3/3/3/3/3/1/1/1 per colour,
currency 6, 6, 6, 5, 4, two colour wilds per colour, nine number wilds, one full wild.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from analyzer.errors import UserError
from tests.test_sums_to_statistics_contracts import (Z, Planted, by_hand, same, same_prop,
                                                      ten_sums, wilson_by_hand)


def deck_spec():
    from analyzer.games.ten.rules import load_deck

    return load_deck(None)


def setup(lineups, players=2, check=False, **knobs):
    from analyzer.games.ten.lineup import check_lineups
    from analyzer.games.ten.rules import TenRules
    from analyzer.games.ten.whole import Setup

    return Setup(TenRules(**knobs), deck_spec(), players, check_lineups(lineups, players),
                 check)


def deck_by_hand() -> list[int]:
    per_colour = [3] * 6 + [1] * 3
    return per_colour * 4 + [6, 6, 6, 5, 4] + [2] * 4 + [1] * 9 + [1]


# ---- the set-up ---------------------------------------------------------------------------------

def test_setup_refusals_word_for_word():
    """1..5 players; one bot per seat in every line-up."""
    from analyzer.games.ten.bots import Bot
    from analyzer.games.ten.rules import TenRules
    from analyzer.games.ten.whole import Setup

    for players in (0, 6):
        with pytest.raises(UserError) as e:
            Setup(TenRules(), deck_spec(), players, [[Bot()] * max(players, 1)])
        assert str(e.value) == f"--players must be 1..5 (got {players})"
    with pytest.raises(UserError) as e:
        Setup(TenRules(), deck_spec(), 3, [[Bot()] * 3, [Bot()] * 2])
    assert str(e.value) == "a line-up has 2 bots for 3 players"
    assert Setup(TenRules(), deck_spec(), 1, [[Bot()]]).players == 1
    assert Setup(TenRules(), deck_spec(), 5, [[Bot()] * 5]).players == 5


def test_setup_arrays_by_hand():
    """The deck in type order (129 cards), its counts, the rules array with and without the
    conservation check, one bot row per seat and line-up, the scoring tables of the rules'
    full-run points, and empty exact tables when no seat plays ``exact``."""
    from kernels.ten import whole_layout as L
    from kernels.ten.whole_score import run_tables

    s = setup(["threshold,random", "cards:after=3,threshold"], full_run_points=15)
    a = s.arrays
    counts = deck_by_hand()
    assert sum(counts) == 129
    assert list(a["deck"]) == counts and a["deck"].dtype == np.int64
    assert a["base"].dtype == np.int8
    assert list(a["base"]) == [t for t in range(55) for _ in range(counts[t])]
    assert list(a["rl"][[L.R_BUST, L.R_CBUST, L.R_CAP, L.R_START]]) == [11, 11, 10, 5]
    assert a["rl"][L.R_CHECK] == 0
    assert setup(["threshold,threshold"], check=True).arrays["rl"][L.R_CHECK] == 1
    assert a["bots"].shape == (2, 2, L.NB)
    assert a["bots"][0, 1, L.B_DRAW] == L.D_RANDOM and a["bots"][1, 0, L.B_DRAW] == L.D_CARDS
    assert a["bots"][1, 0, L.B_DRAWP] == 3 and a["bots"][0, 0, L.B_DRAW] == L.D_TOTAL
    fifteen, ten = run_tables(15), run_tables(10)
    assert all((x == y).all() for x, y in zip(a["tabs"], fifteen))
    assert not all((x == y).all() for x, y in zip(a["tabs"], ten))  # the knob matters
    assert a["dec"].shape == (1, 1, 1, 1) and a["dec"].dtype == np.uint8
    assert a["nchild"].shape == (1, 9) and a["cchild"].shape == (1, 5)
    assert s.labels == ["threshold,random", "cards:after=3,threshold"]
    args = s.kernel_args()
    assert args[0] is a["base"] and args[1] is a["deck"] and args[2] == 2 and args[3] is a["rl"]
    assert args[4] is a["bots"] and args[5] is a["tabs"]
    assert args[6] is a["dec"] and args[7] is a["nchild"] and args[8] is a["cchild"]
    one = s.kernel_args(1)[4]
    assert one.shape == (1, 2, L.NB) and (one[0] == a["bots"][1]).all()
    assert (s.kernel_args(0)[4][0] == a["bots"][0]).all()
    # exact seats of any line-up get tables, and each seat's row points at its own table
    ex = setup(["threshold,threshold", "exact,exact:token=0.5"]).arrays
    assert ex["dec"].shape[:2] == (2, 11) and ex["nchild"].shape[1] == 9
    assert ex["bots"][1, 0, L.B_DRAW] == L.D_EXACT and ex["bots"][1, 1, L.B_DRAW] == L.D_EXACT
    assert (ex["bots"][1, 0, L.B_TABLE], ex["bots"][1, 1, L.B_TABLE]) == (0, 1)


def test_block_sizes_and_search():
    """256 games a block; a rollout:K seat makes it 2048 // K (at most 256, so K ≤ 8 keeps
    256: rollout:8 → 256, rollout:16 → 128, rollout:100 → 20, rollout:1000 → 2); the largest K
    of any line-up decides; a search seat: one game a block."""
    assert setup(["threshold,threshold"]).block_size == 256
    assert setup(["rollout:rollouts=8,threshold"]).block_size == 256
    assert setup(["rollout:rollouts=16,threshold"]).block_size == 128
    assert setup(["rollout:rollouts=100,threshold",
                  "threshold,rollout:rollouts=16"]).block_size == 20
    assert setup(["threshold,threshold", "rollout:rollouts=1000,threshold"]).block_size == 2
    s = setup(["threshold,threshold", "search,threshold"])
    assert s.searching and s.block_size == 1
    assert not setup(["rollout,threshold"]).searching


class Recorder:
    """A stand-in kernel: records its arguments, returns planted rows."""

    def __init__(self, rows):
        self.rows, self.calls = rows, []

    def __call__(self, *args):
        self.calls.append(args)
        return self.rows


def test_the_game_job_passes_the_setup_to_the_block_driver(monkeypatch):
    """The job's name, block size, unit, headline (the normal half-width of seat 1's win share
    of line-up A: Z·s/√n from Σw and Σw², ∞ below 2 games) and the driver's arguments (keys,
    counts, then the set-up's kernel arguments in order); the search driver for a search seat;
    ``details`` reads one line-up's bots."""
    import kernels.ten.search_game as SG
    import kernels.ten.whole_blocks as WB
    from kernels.ten.whole_layout import column

    s = setup(["threshold,random", "threshold,threshold"])
    rec = Recorder(np.ones((1, 3)))
    monkeypatch.setattr(WB, "game_blocks", rec)
    job = s.job()
    assert job.name == "ten game threshold,random vs threshold,threshold"
    assert job.block_size == 256 and job.unit == "games"
    keys, counts = np.arange(4, dtype=np.uint64), np.array([7])
    assert job.run_blocks(keys, counts) is rec.rows
    got = rec.calls[0]
    assert got[0] is keys and got[1] is counts and len(got) == 11
    for x, y in zip(got[2:], s.kernel_args()):
        assert x is y
    sums = np.zeros(400)
    w = [1, 0, 0.5, 1, 0]  # seat 1's win shares in 5 games
    sums[column("win_0")] = sum(w)
    sums[column("win_0_sq")] = sum(x * x for x in w)
    _m, se, _lo, _hi = by_hand(w)
    assert job.headline_half_width(sums, 5) == pytest.approx(Z * se, rel=1e-12)
    assert job.headline_half_width(sums, 1) == math.inf
    det = Recorder("details")
    monkeypatch.setattr(WB, "game_details", det)
    assert s.details(keys, 3, 1) == "details"
    key, n, *rest = det.calls[0]
    assert key is keys and n == 3 and len(rest) == 9
    assert (rest[4] == s.arrays["bots"][1:2]).all() and rest[4].shape[0] == 1
    s.details(keys, 2)
    assert (det.calls[1][2 + 4] == s.arrays["bots"][0:1]).all()
    srch = setup(["search,threshold"])
    rec2, det2 = Recorder("search rows"), Recorder("search details")
    monkeypatch.setattr(SG, "search_game_blocks", rec2)
    monkeypatch.setattr(SG, "search_game_details", det2)
    job = srch.job()
    assert job.block_size == 1 and job.name == "ten game search,threshold"
    assert job.run_blocks(keys, counts) == "search rows" and len(rec2.calls[0]) == 11
    assert srch.details(keys, 1) == "search details" and rec.calls == [got]


# ---- the statistics of a line-up from planted games ----------------------------------------------

FIELDS = ("winner_score", "turns", "rounds", "busts", "number_busts", "currency_busts",
          "auctions", "auction_price", "wilds_discarded", "wilds_free", "buys", "buy_spent",
          "market_end", "stops_numbers", "stops_currency", "auction_share")


def planted_games(players=3):
    """Three games in which every record field has its own values (field i of game g is
    i + 1 + g·(i % 4), so no two fields share their sums), win shares and ties apart."""
    from kernels.ten.whole_layout import REC_NAMES

    games = []
    for g, wins in enumerate(([1, 0, 0], [0, 0.5, 0.5], [0, 0, 1])):
        rec = {n: float(i + 1 + g * (i % 4)) for i, n in enumerate(REC_NAMES)}
        for q in range(5):
            rec[f"win_{q}"] = wins[q] if q < players else 0.0
        rec["tied"] = float(g == 1)
        rec["first_turn_bust"] = float(g != 1)
        rec["violations"] = float(g)
        games.append(rec)
    return games


def test_every_lineup_statistic_from_planted_games():
    """Every seat's win rate (Wilson at the mean share), score, tokens and cards at the end
    (means), each named per-game figure (a mean of its own field), tied games and first-turn
    busts (Wilson), the violations (a count), n; line-up B read from its own columns."""
    from analyzer.games.ten.whole import lineup_stats

    a, b = planted_games(), planted_games()[::-1]
    sums = ten_sums(a, b, players=3)
    for k, games in enumerate((a, b)):
        out = lineup_stats(sums, k, 2, 3)
        assert out["n"] == 3 and [s["seat"] for s in out["seats"]] == [1, 2, 3]
        for q in range(3):
            seat = out["seats"][q]
            same_prop(seat["win_rate"], sum(g[f"win_{q}"] for g in games), 3)
            same(seat["score"], [g[f"score_{q}"] for g in games])
            same(seat["tokens_end"], [g[f"tokens_{q}"] for g in games])
            same(seat["cards_end"], [g[f"cards_{q}"] for g in games])
        for name in FIELDS:
            same(out[name], [g[name] for g in games])
        same_prop(out["tied_games"], 1, 3)
        same_prop(out["first_turn_bust"], 2, 3)
        assert out["violations"] == 0 + 1 + 2 and isinstance(out["violations"], int)
        assert set(out) == {"n", "seats", *FIELDS, "tied_games", "first_turn_bust",
                            "price_per_auction", "violations"}
    # a win share of 1/2 counts half: seat 2 of A won 0.5 of 3 games, Wilson at 1/6
    lo, hi = wilson_by_hand(0.5, 3)
    assert lineup_stats(sums, 0, 2, 3)["seats"][1]["win_rate"].ci_high == pytest.approx(hi)


def test_the_price_per_auction_at_its_edges():
    """Two games with 1 and 3 auctions paying 2 and 9: r = 11/4; residuals p − r·a = −0.75 and
    +0.75, variance 1.125 (n − 1 = 1), SE = sqrt(1.125/2) / (4/2) = 0.375, n = 4 auctions.
    One game (n < 2) or no auction: None. Line-up B's own price from its columns."""
    from analyzer.games.ten.whole import lineup_stats, price_per_auction

    two = [{"auctions": 1, "auction_price": 2}, {"auctions": 3, "auction_price": 9}]
    other = [{"auctions": 2, "auction_price": 2}, {"auctions": 2, "auction_price": 6}]
    sums = ten_sums(two, other)
    p = price_per_auction(sums, 0, 2)
    assert p.estimate == 2.75 and p.se == pytest.approx(0.375, rel=1e-12) and p.n == 4
    assert (p.ci_low, p.ci_high) == pytest.approx((2.75 - Z * 0.375, 2.75 + Z * 0.375))
    # B: r = 8/4 = 2, residuals 2 − 4 = −2 and 6 − 4 = +2: var 8, SE sqrt(8/2)/2 = 1
    q = lineup_stats(sums, 1, 2, 2)["price_per_auction"]
    assert (q.estimate, q.n) == (2.0, 4) and q.se == pytest.approx(1.0, rel=1e-12)
    assert price_per_auction(ten_sums(two[:1], other[:1]), 0, 2) is None
    # every game pays r = 2 per auction: no spread, SE 0 (Σp² − 2rΣpa + r²Σa² = 20 − 40 + 20)
    flat = [{"auctions": 1, "auction_price": 2}, {"auctions": 2, "auction_price": 4}]
    f = price_per_auction(ten_sums(flat, flat), 0, 2)
    assert (f.estimate, f.se, f.ci_low, f.ci_high, f.n) == (2.0, 0.0, 2.0, 2.0, 3)


def test_paired_differences_name_seats_from_one_and_read_line_up_k():
    """Three line-ups: A − C reads C's difference columns, not B's."""
    from analyzer.games.ten.whole import paired_stats
    from kernels.ten import whole_layout as L

    sums = np.zeros(3 * L.LW + 2 * L.DW)
    sums[L.column("games", 0, 3)] = 4
    d_c = [1, -1, 1, 1]  # seat 2's win-share differences A − C, 4 games
    sums[L.column("d_win_1", 2, 3)] = sum(d_c)
    sums[L.column("d_win_1_sq", 2, 3)] = sum(x * x for x in d_c)
    sums[L.column("d_score_1", 2, 3)] = 8
    sums[L.column("d_score_1_sq", 2, 3)] = 16
    sums[L.column("d_win_1", 1, 3)] = 99  # B's: not read
    rows = paired_stats(sums, 2, 3, 2)
    assert [r["seat"] for r in rows] == [1, 2]
    same(rows[1]["win_rate"], d_c)
    same(rows[1]["score"], [2, 2, 2, 2])
    same(rows[0]["win_rate"], [0, 0, 0, 0])


# ---- the exact bots' tables ----------------------------------------------------------------------

def test_exact_tables_one_solve_per_value_model_and_tokens_held():
    """Each distinct value model of the ``exact`` seats gets its tables once (two seats with
    the default weights share index 0), one per number of tokens held 0..cap: row ``room`` is
    the one-turn solution with cap − room tokens held (checked against the solver itself); no
    exact seat: the empty tables."""
    from analyzer.games.ten.exact import Model, solve
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.rules import TenRules, ValueModel, turn_state
    from analyzer.games.ten.whole import exact_tables

    rules = TenRules()  # the cap of 10: a turn's gains only matter with 8 or more held
    bots = parse_seats("exact,threshold,exact:token=0.5,exact", 4)
    idx, dec, nchild, cchild = exact_tables(rules, deck_spec(), 4, bots)
    plain, half = ValueModel(), ValueModel(1.0, 0.5, 3.0, 0.0)
    assert idx == {plain: 0, half: 1}
    assert dec.shape[:2] == (2, 11) and dec.dtype == np.uint8
    st = turn_state(rules, deck_spec(), None, None, 4)
    for m, vm in enumerate((plain, half)):
        for room in range(11):
            sol = solve(Model(st, rules, vm, 4, 10 - room))
            assert (dec[m, room] == sol.decision).all(), (m, room)
            assert (nchild == sol.nchild).all() and (cchild == sol.cchild).all()
    assert (dec[0, 0] != dec[0, 10]).any()  # the tokens held change the table
    assert (dec[0, 0] != dec[1, 0]).any()  # and so do the weights
    none = exact_tables(rules, deck_spec(), 2, parse_seats("threshold,random", 2))
    assert none[0] == {} and none[1].shape == (1, 1, 1, 1) and none[1].dtype == np.uint8
    assert none[2].shape == (1, 9) and none[2].dtype == np.int32
    assert none[3].shape == (1, 5) and none[3].dtype == np.int32
    assert not none[1].any() and not none[2].any() and not none[3].any()


# ---- the removals note ---------------------------------------------------------------------------

HOW = ("list them under {keys} in a deck file and pass it with --deck FILE (`pushluck ten deck` "
       "prints the deck in use)")


def test_removals_note_word_for_word():
    """docs/rules/ten.md section 1: with 3 players the "4+" cards leave, with 2 also the "3"
    cards, 1 player is played as 2; the lists are not public. The shipped deck file lists none
    (every card stays); a deck file with lists names the cards it removes. 4 and 5: None."""
    from analyzer.games.ten.whole import removals_note

    spec = deck_spec()
    assert removals_note(spec, 4) is None and removals_note(spec, 5) is None
    k3 = "[players] marked_4plus"
    k2 = "[players] marked_4plus and [players] marked_3"
    assert removals_note(spec, 3) == {
        "players": 3, "lists": ["marked_4plus"], "removed": [], "known": False,
        "note": "with 3 players the rulebook removes the cards marked \"4+\"; which cards carry "
                "the marks is not public, so none is removed here (every card stays: an "
                "assumption); " + HOW.format(keys=k3)}
    assert removals_note(spec, 2)["note"] == (
        "with 2 players the rulebook removes the cards marked \"4+\" and \"3\"; which cards "
        "carry the marks is not public, so none is removed here (every card stays: an "
        "assumption); " + HOW.format(keys=k2))
    one = removals_note(spec, 1)
    assert one["lists"] == ["marked_4plus", "marked_3"] and one["players"] == 1
    assert one["note"].startswith("with 1 player the rulebook removes the cards marked \"4+\" "
                                  "and \"3\";")
    mine = dataclasses.replace(spec, marked_4plus=("r1", "b2"), marked_3=("g3",),
                               source="mine.toml")
    assert removals_note(mine, 3) == {
        "players": 3, "lists": ["marked_4plus"], "removed": ["r1", "b2"], "known": False,
        "note": "with 3 players the deck file mine.toml removes r1, b2; the rulebook's lists "
                "of marked cards are not public, so these are the file's assumption"}
    assert removals_note(mine, 2)["removed"] == ["r1", "b2", "g3"]
    assert removals_note(mine, 2)["note"] == (
        "with 2 players the deck file mine.toml removes r1, b2, g3; the rulebook's lists of "
        "marked cards are not public, so these are the file's assumption")
    assert removals_note(mine, 1)["note"].startswith("with 1 player the deck file mine.toml")


def test_score_tables_are_kept_per_full_run_value():
    """The tables of one full-run value are built once and handed out again (lru_cache); the
    default is the rules page's 10."""
    from analyzer.games.ten.whole import score_tables
    from kernels.ten.whole_score import run_tables

    assert score_tables(12) is score_tables(12)
    assert all((x == y).all() for x, y in zip(score_tables(), run_tables(10)))
    assert all((x == y).all() for x, y in zip(score_tables(12), run_tables(12)))
