"""`ten calibrate`: a frozen position whose prediction and truth are worked out by hand from the
rules page, positions frozen as a stopping time with every card accounted for, the verdict's
words and numbers, the command's JSON, files and errors."""
from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from analyzer.cli.main import main as pushluck
from analyzer.games.ten import calibrate as C
from tests.test_ten_decide_exact import QUIET, whole_deck

Z = 1.959963984540054


def _setup(players: int, seats: str):
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.games.ten.whole import Setup

    return Setup(TenRules(), load_deck(None), players, [parse_seats(seats, players)])


def _frozen(pile: list[str]) -> C.Frozen:
    """2 players, seat 1 to decide with r5, $2 in the tableau (T = 3) and ``pile`` left (in
    draw order); seat 1 holds r1-r4 (4 points) and 5 tokens, seat 2 b1-b4 and r7 (5 points)
    and 3 tokens; every other card is out of the game."""
    colls = [["r1", "r2", "r3", "r4"], ["b1", "b2", "b3", "b4", "r7"]]
    listed = Counter(pile) + Counter(["r5", "$2"]) + Counter(colls[0]) + Counter(colls[1])
    out = sorted((whole_deck() - listed).elements())
    assert len(out) + sum(listed.values()) == 129
    return C.Frozen(2, 0, list(pile), colls, [5, 3], [0, 0], [], out, ["r5", "$2"])


@pytest.fixture(scope="module")
def quiet2():
    return _setup(2, QUIET)


@pytest.mark.parametrize("pile, numbers", [(["r9", "r1"], 0.5), (["r1", "r9"], 1.0)])
def test_a_frozen_position_by_hand(quiet2, pile, numbers):
    """Threshold bots (stop once T ≥ 7), reward by value, no buys or bids.
    draw: r9 first busts seat 1 (T = 12; seat 2 then takes r1 for its new type: 5 points
      against 4); r1 first (T = 4) and then r9 busts: 4 points against 5 either way: 0.
    numbers: seat 1 takes r5 (r1-r5, 5 points), seat 2 gains 2 tokens (5 each).
      pile r9, r1: seat 2 draws r9 (T = 9 ≥ 7), stops and takes it for its new type (5 points,
        6 cards); seat 1 draws the last card r1 and takes it (6 cards): 5-5, 5-5 tokens, 6-6
        cards: shared, 1/2.
      pile r1, r9: seat 2 draws r1 (T = 1), then r9 (T = 10) and takes both (5 points, 7
        cards); the game ends: 5-5, 5-5 tokens, seat 1 has fewer cards (5): 1.
    currency: seat 1 gains 2 (r5 to the market) and keeps 4 points; seat 2 takes r9 (and r1)
      for 5 points: 0 either way.
    So decide, which shuffles the two cards, predicts 0, 3/4, 0; the truth is the real order's."""
    playouts = 2000
    row = C.position_values(_frozen(pile), 0, quiet2, playouts, 7)
    assert (row["true_draw"], row["true_numbers"], row["true_currency"]) == (0.0, numbers, 0.0)
    assert row["cards_left"] == 2
    assert row["pred_draw"] == 0.0 and row["pred_currency"] == 0.0
    # each playout gives 1/2 or 1, each order with chance 1/2: variance 1/16 per playout
    se = math.sqrt(1 / 16 / playouts)
    assert abs(row["pred_numbers"] - 0.75) < 4 * se
    assert row["pred_numbers_var"] == pytest.approx(1 / 16 / playouts, rel=0.15)
    # the truth is decided (no random bot): its expected spread is one playout's, 1/16 here
    assert row["true_numbers_var"] == pytest.approx(row["pred_numbers_var"] * playouts)
    assert row["true_draw_var"] == 0.0
    assert row["true_draw_numbers"] == -numbers
    assert row["pred_draw_numbers"] == pytest.approx(-row["pred_numbers"])
    assert (row["T"], row["C"], row["tableau"]) == (3, 2, "r5,$2")


def test_positions_are_frozen_the_same_way_every_time_and_every_card_is_accounted_for():
    setup = _setup(3, "threshold")
    import itertools

    first = list(itertools.islice(C.frozen_positions(setup, 6, 5), 8))
    again = list(itertools.islice(C.frozen_positions(setup, 6, 5), 8))
    assert [f.game for f in first] == [f.game for f in again]
    assert [f.pile for f in first] == [f.pile for f in again]
    deck = whole_deck()
    for fz in first:
        assert 1 <= len(fz.pile) <= 6 and fz.tableau
        held = Counter(fz.pile) + Counter(fz.market) + Counter(fz.out) + Counter(fz.tableau)
        for c in fz.collections:
            held += Counter(c)
        assert held == deck  # 129 cards, the rules page's deck
        N = sum(int(c[1:]) for c in fz.tableau if c[0] in "rbgo")
        Cur = sum(int(c[1:]) for c in fz.tableau if c[0] == "$")
        assert N - Cur < 11 and Cur < 11  # not busted: a real decision
        assert sum(fz.tokens) <= 50 and all(0 <= t <= 10 for t in fz.tokens)
        # the position `decide` reads hides the pile's order and nothing else
        data = C.position_data(fz)
        assert "pile" not in data and data["me"] == data["active"] == fz.active + 1
        from analyzer.games.ten.cards import CODES
        from analyzer.games.ten.position import check_position

        pos = check_position(data, "test", setup.rules, setup.spec)
        assert Counter(CODES[t] for t in pos.state.pile) == Counter(fz.pile)


def _part(est, half, bar=0.02, n=100):
    from analyzer.stats import Statistic

    return {"bias": Statistic(est, half / Z, est - half, est + half, n), "bar": bar,
            "shown": -bar <= est - half and est + half <= bar}


def _out(parts, meets=False, n=100):
    return {"choices": dict(parts[:3]), "margins": dict(parts[3:]), "meets_bars": meets,
            "positions": n}


def test_the_verdict_names_a_bias_by_the_sign_of_its_interval():
    fine = [("draw", _part(0.0, 0.04)), ("numbers", _part(0.01, 0.03)),
            ("currency", _part(-0.01, 0.02)), ("draw_numbers", _part(0.0, 0.01, 0.01)),
            ("draw_currency", _part(0.0, 0.005, 0.01))]
    text = C.conclusion(_out(fine))
    # the interval that needs most positions: numbers' 0.03 against the 0.02 − 0.01 left
    # between its estimate and its bar → 100 × 3² = 900 positions (draw's 0.04 over 0.02: 400)
    assert text.startswith("verdict: no bias seen") and "about 900 would" in text
    high = fine[:1] + [("numbers", _part(0.06, 0.03))] + fine[2:]
    assert C.conclusion(_out(high)) == ("verdict: BIASED: the 95% interval of the bias "
                                        "excludes 0 for numbers")
    low = fine[:4] + [("draw_currency", _part(-0.02, 0.01, 0.01))]
    assert C.conclusion(_out(low)).endswith("excludes 0 for draw − currency")
    assert C.conclusion(_out(fine, meets=True)).startswith("verdict: calibrated")


def _rows_all_lost(k):
    row = {}
    for name in list(C.CHOICES) + list(C.MARGINS):
        for w in ("pred", "true"):
            row[f"{w}_{name}"] = 0.0
            row[f"{w}_{name}_var"] = 0.0
    return [dict(row, pred_draw=0.01 * (i % 3)) for i in range(k)]


def test_reliability_counts_positions_not_playouts_and_wilson_is_honest_at_zero():
    out = C.summarise(_rows_all_lost(10), {"playouts": 5000})
    draw = [r for r in out["reliability"] if r["choice"] == "draw"]
    assert len(draw) == 1 and draw[0]["positions"] == 10
    # every realised value 0 in 10 positions: Wilson's upper bound z²/(10 + z²), not that of
    # 50,000 playouts
    assert draw[0]["true"].ci_low == 0.0
    assert draw[0]["true"].ci_high == pytest.approx(Z * Z / (10 + Z * Z))


def _run(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        pushluck(["ten", "calibrate"] + argv)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_calibrate_json_is_one_object_and_finds_no_bias(capsys):
    # near the end most games are decided, so 60 positions pin the bias to about ±0.02: a
    # prediction 0.05 too high (or low) is caught
    code, out, _ = _run(["--players", "3", "-n", "60", "--playouts", "100",
                         "--max-cards-left", "3", "--seed", "2", "--no-progress", "--json"],
                        capsys)
    assert code in (0, None)
    res = json.loads(out)
    assert res["positions"] == 60 and res["players"] == 3 and res["seed"] == 2
    assert all(1 <= r["cards_left"] <= 3 for r in res["rows"])
    for key in C.CHOICES:
        b = res["choices"][key]["bias"]
        assert b["n"] == 60 and b["ci_low"] <= 0.0 <= b["ci_high"] and b["se"] < 0.015
    for key in C.MARGINS:
        b = res["margins"][key]["bias"]
        assert b["ci_low"] <= 0.0 <= b["ci_high"]
    assert set(res["margins"]) == {"draw_numbers", "draw_currency"}
    assert res["margins"]["draw_numbers"]["bar"] == 0.01
    assert res["belief"]["exact"] is True and res["seats"][2] == {"seat": 3, "bot": "exact"}
    assert res["deck_removals"]["known"] is False
    assert res["conclusion"].startswith("verdict: ")


@pytest.mark.parametrize("argv, words", [
    (["--chart"], "--out"),
    (["-n", "1"], "-n"),
    (["--seats", "psychic"], "psychic"),
    (["--players", "3", "--seats", "threshold,random"], "--seats"),
])
def test_bad_options_are_one_line_and_exit_2(capsys, argv, words):
    code, out, err = _run(argv + (["-n", "2"] if "-n" not in argv else []), capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err


def test_out_and_chart_write_the_tables_and_chart_only_under_out(tmp_path, capsys):
    out_dir = tmp_path / "cal"
    code, text, _ = _run(["--players", "2", "-n", "6", "--playouts", "32", "--seed", "1",
                          "--no-progress", "--out", str(out_dir), "--chart"], capsys)
    assert code in (0, None)
    assert "draw − numbers" in text and "reliability" in text and "verdict:" in text
    names = sorted(p.name for p in out_dir.iterdir())
    assert names == sorted([f"ten_calibrate_{t}.{e}" for t in ("bias", "reliability",
                                                                "positions")
                            for e in ("csv", "md")] + ["ten_calibrate_reliability.png",
                                                       "ten_calibrate_reliability.svg"])
    assert [p.name for p in tmp_path.iterdir()] == ["cal"]


def test_ctrl_c_keeps_the_finished_positions_and_exits_130():
    import contextlib
    import os
    import signal

    from tests.test_interrupts import _read_until, _read_until_done, _start_on_a_terminal

    proc, master = _start_on_a_terminal(["ten", "calibrate", "--players", "2", "-n", "50000",
                                         "--playouts", "32", "--seed", "3", "--json",
                                         "--progress"])
    with contextlib.ExitStack() as cleanup:  # never leave a run of 50,000 positions behind
        cleanup.callback(os.close, master)
        cleanup.callback(lambda: proc.poll() is None and proc.kill())
        seen = _read_until_done(master, 50000, 2)  # the bar shows 2 positions done
        assert b"/50000" in seen, seen[-500:]
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=120)
        err = seen + _read_until(master, b"\0", timeout=2)
    assert proc.returncode == 130, err[-500:]
    res = json.loads(out)
    assert res["interrupted"] is True and 2 <= res["positions"] == len(res["rows"]) < 50000
    assert res["choices"]["draw"]["bias"]["n"] == res["positions"]
    assert b"Traceback" not in err and b"finished positions" in err


# --------------------------------------------------------------------------- buys and bids
@pytest.fixture(scope="module")
def threshold3():
    return _setup(3, "threshold")


def _phase_positions(setup, phase, k=10, max_left=8, seed=5):
    import itertools

    return list(itertools.islice(C.frozen_positions(setup, max_left, seed, phase), k))


@pytest.mark.parametrize("phase", ["buy", "auction"])
def test_buy_and_auction_positions_account_for_every_card_and_round_trip(threshold3, phase):
    from analyzer.games.ten.cards import CODES
    from analyzer.games.ten.position import check_position

    first = _phase_positions(threshold3, phase)
    again = _phase_positions(threshold3, phase)
    assert [(f.game, f.pile, f.bids, f.me) for f in first] == \
        [(f.game, f.pile, f.bids, f.me) for f in again]
    deck = whole_deck()
    for fz in first:
        assert fz.phase == phase and len(fz.pile) <= 8
        held = Counter(fz.pile) + Counter(fz.market) + Counter(fz.out) + Counter(fz.tableau)
        held += Counter([fz.wild] if fz.wild else [])
        for c in fz.collections:
            held += Counter(c)
        assert held == deck  # the auctioned wild is in no row, but still a card of the game
        data = C.position_data(fz)
        assert "pile" not in data and data["phase"] == phase
        pos = check_position(data, "test", threshold3.rules, threshold3.spec)
        assert Counter(CODES[t] for t in pos.state.pile) == Counter(fz.pile)
        names, _, _, listed = C.judged_choices(fz, threshold3, 0, 5)
        assert listed >= 2
        if phase == "buy":
            assert fz.tableau == [] and len(fz.pile) >= 1 and fz.me == -1
            assert names[0] == "no buy" and names[1].startswith("buy ") and len(names) == 2
        else:
            # the seat to bid is the one after the recorded bids, in order from the active
            # seat's left (rules page), and `decide` reads the same auction state
            order = [(fz.active + i) % 3 for i in range(1, 4)]
            assert fz.me == order[len(fz.bids)] == pos.auction.to_bid == pos.deciding
            assert pos.auction.bids == fz.bids and data["me"] == fz.me + 1
            assert names[:2] == ["pass", f"bid {pos.auction.cur + 1}"] and len(names) == 3
    if phase == "auction":  # the first bidder frozen is drawn per game: not always the first
        assert {len(f.bids) for f in first} != {0}


def _continuation(setup, phase, seed, game):
    """Game ``game`` of ``frozen_positions(setup, 8, seed, phase)`` replayed by the plain-Python
    reference to its end, with what the frozen seat then did (its choice's name) and its win
    share in that real game."""
    import numpy as np

    from analyzer.games.ten.advice_record import kernel_scorer
    from analyzer.games.ten.whole_reference import exact_lookup
    from analyzer.rng import block_keys

    class Watched(C._freezer_class()):
        def buy_phase(self, p):
            fresh, before = self.seen is None, Counter(p.coll)
            super().buy_phase(p)
            if fresh and self.seen is not None:
                got = [c for c in p.coll if p.coll[c] > before[c]]
                self.did = f"buy {got[0]}" if got else "no buy"

        def before_bid(self, a, wild, q, bids):
            fresh = self.seen is None
            super().before_bid(a, wild, q, bids)
            if fresh and self.seen is not None:
                self.bids_then = bids  # the auction's own list: it fills in as seats bid

    draws = np.random.default_rng([seed, game])
    level = 1 + int(draws.integers(8))
    slot = int(draws.integers(setup.players))
    g = Watched(setup.rules, C.deck_codes(setup), setup.lineups[0],
                block_keys(seed, game, 1, C.FREEZE_STREAM)[0], 0, check=False)
    g.watch(level, kernel_scorer(setup.rules.full_run_points), phase,
            lambda fz: len(C.listed_choices(fz, setup)[0]), slot)
    rec = g.play(exact_lookup(setup))
    fz = g.seen
    if phase == "auction":
        x = g.bids_then[len(fz.bids)]
        g.did = "pass" if x == 0 else f"bid {x}"
    return fz, g.did, rec.get(f"win_{fz.deciding}", 0.0)


@pytest.mark.parametrize("phase", ["buy", "auction"])
def test_the_truth_of_the_choice_the_bot_made_is_the_real_games_result(threshold3, phase):
    """With threshold bots (no random numbers after the shuffle) the game after a frozen
    decision is decided by the real pile: the truth `calibrate` computes with the kernel for the
    choice the seat's bot really made must be that seat's win share in the reference game,
    which played on independently of the kernel."""
    import numpy as np

    from analyzer.games.ten.decide import choices_of

    checked = 0
    for fz0 in _phase_positions(threshold3, phase, k=24):
        fz, did, share = _continuation(threshold3, phase, 5, fz0.game)
        assert (fz.pile, fz.bids, fz.me) == (fz0.pile, fz0.bids, fz0.me)
        names, codes, pos = C.listed_choices(fz, threshold3)
        same = choices_of(pos, threshold3.rules)[2]
        name = did if did in names else next(k for k, v in same.items() if did in v)
        code = np.array([codes[names.index(name)]], dtype=np.int64)
        keys, counts = C._keys(5, 4, C.TRUTH_STREAM)
        sums = C._sums(threshold3, C.true_state(fz, threshold3), fz.active, fz.deciding, code,
                       0, keys, counts)
        assert sums[0] == pytest.approx(4 * share), (fz.game, did)
        checked += 1
    assert checked == 24


def test_buy_and_auction_runs_judge_their_choices_with_bars(capsys):
    code, out, _ = _run(["--phase", "auction", "--players", "3", "-n", "30", "--playouts",
                         "64", "--max-cards-left", "4", "--seed", "3", "--no-progress",
                         "--json"], capsys)
    assert code in (0, None)
    res = json.loads(out)
    assert res["phase"] == "auction" and res["positions"] == 30
    assert list(res["choices"]) == ["pass", "lowest", "bid"]
    assert {k: v["bar"] for k, v in res["margins"].items()} == {"lowest_pass": 0.01,
                                                                 "bid_pass": 0.01}
    assert all(r["choice"].startswith("bid ") and r["listed"] >= 2 for r in res["rows"])
    for key in ("pass", "lowest", "bid"):
        assert res["choices"][key]["bar"] == 0.02
    code, text, _ = _run(["--phase", "buy", "--players", "2", "-n", "6", "--playouts", "16",
                          "--seed", "3", "--no-progress"], capsys)
    assert code in (0, None)
    assert "Ten calibrate (buy positions)" in text and "buy − no buy" in text


@pytest.mark.parametrize("argv, words", [
    (["--phase", "bidding"], "--phase"),
    (["--phase", "buy", "--set", "buys=false"], "buys = false"),
    (["--phase", "auction", "--set", "auctions=false"], "auctions = false"),
])
def test_a_phase_the_rules_never_reach_is_one_line_and_exit_2(capsys, argv, words):
    code, out, err = _run(argv + ["-n", "2"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err
