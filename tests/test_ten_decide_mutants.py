"""`ten decide` and `ten game` as functions (analyzer/games/ten/decide.py), pinned by hand.

The kernel is replaced by planted sums (tests/test_sums_to_statistics_contracts.py ``Planted``,
here recording the job it is handed): per playout the deciding seat's choices give win shares
written out in each test, summed as ``position_blocks`` lays them out (Σw_k for each choice k,
then Σw_i·w_j for i ≤ j in the order (0, 0), (0, 1), …, (K − 1, K − 1)). Every field of the
answer is checked against those planted values: Wilson intervals at the mean share, the paired
differences first − k at z = 1.959964, the best choice against each other at the Bonferroni z
(2.241403 for 3 choices, 1.959964 for 2), the verdict words, the exact answer of a determined
final buy round, and the job (name, block size, unit, headline, the kernel's arguments).
Positions are written out with the whole deck of the rules page (tests/test_ten_decide_exact.py
``position``: every card not in the pile listed as out); choices, bids and payments are worked
out from docs/rules/ten.md (a bust token pays 3, the change is lost; then currency tokens, then
collection cards; a buy costs the card's value; the active seat bids last).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.runner import RunResult
from tests.test_sums_to_statistics_contracts import Z, Planted, by_hand, same, same_prop
from tests.test_ten_decide_exact import QUIET, position

Z3 = 2.2414027276049464  # Φ⁻¹(1 − 0.05/4): best of 3, Bonferroni over 2 comparisons
EXAMPLE = "analyzer/data/ten_position_example.toml"


@dataclass(frozen=True)
class Recorded(Planted):
    """Planted sums; the job handed to ``run`` is kept, and how the run ended is planted."""

    jobs: list = field(default_factory=list)
    stopped: str = "n"
    interrupted: bool = False

    def run(self, job, **kwargs) -> RunResult:
        self.jobs.append(job)
        return RunResult(np.array(self.sums, dtype=np.float64), self.n, self.seed, 1, 0.5,
                         self.interrupted, self.stopped)


def sums_of(per_trial) -> tuple:
    """Σw_k, then Σw_i·w_j (i ≤ j), of the planted win shares."""
    K = len(per_trial[0])
    s = [sum(t[k] for t in per_trial) for k in range(K)]
    s += [sum(t[i] * t[j] for t in per_trial) for i in range(K) for j in range(i, K)]
    return tuple(float(x) for x in s)


def spec(per_trial, seed=2, **kw) -> Recorded:
    return Recorded(len(per_trial), seed, progress=False, sums=sums_of(per_trial), **kw)


def load(path, **knobs):
    from analyzer.games.ten.position import load_position
    from analyzer.games.ten.rules import TenRules, load_deck

    rules = TenRules(**knobs)
    return load_position(str(path), rules, load_deck(None)), rules


def run_decide(pos, rules, seats, sp):
    from analyzer.games.ten.decide import decide
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.rules import load_deck

    return decide(pos, rules, load_deck(None), parse_seats(seats, pos.players), sp)


def example(tmp_path, me=1):
    text = open(EXAMPLE).read().replace("me = 1", f"me = {me}")
    p = tmp_path / "example.toml"
    p.write_text(text)
    return load(p)


def decimals(se):
    """Decimals shown for a Monte Carlo figure: down to its SE's second significant digit."""
    return 4 if se == 0 else max(0, min(6, 1 - math.floor(math.log10(se))))


def signed(x, d):
    return f"{round(x, d) + 0.0:+.{d}f}"


# ---- every field of a draw decision, from planted playouts --------------------------------------

CLEAR = [(0, 1, 0), (0, 1, 0), (0, 1, 1), (0, 1, 0)] * 8  # numbers, then currency, then draw


def test_every_field_of_a_draw_decision(tmp_path):
    """The shipped example (4 players, seat 1 to move with r5, b4, $2 face up; 35 cards listed,
    so 94 unseen) judged by seat 2: each choice's Wilson interval at its mean share, the paired
    differences draw − numbers and draw − currency at z = 1.959964, numbers best and separated
    from currency at z = 2.241403 (numbers − currency = 0.75, SE sqrt(6/31/32)), the words, the
    seats, the run's figures (n/0.5 s × 3 choices a second)."""
    from analyzer.games.ten.decide import BELIEF, INTERVAL, UNIT

    pos, rules = example(tmp_path, me=2)
    sp = spec(CLEAR, seed=17, stopped="precision", interrupted=True)
    out = run_decide(pos, rules, "threshold", sp)
    assert (out["game"], out["exact"], out["seed"], out["n"], out["players"]) == (
        "ten", False, 17, 32, 4)
    assert (out["unit"], out["interval"], out["belief"]) == (UNIT, INTERVAL, BELIEF)
    assert UNIT == "chance of winning (a shared win counts as a share)"
    assert (out["active"], out["me"], out["deciding"]) == (1, 2, 1)
    assert out["seats"] == [{"seat": 1, "bot": "threshold", "me": False, "deciding": True},
                            {"seat": 2, "bot": "threshold", "me": True, "deciding": False},
                            {"seat": 3, "bot": "threshold", "me": False, "deciding": False},
                            {"seat": 4, "bot": "threshold", "me": False, "deciding": False}]
    assert out["bots"] == ["threshold"] * 4
    assert out["cards_unseen"] == 129 - 35 and isinstance(out["cards_unseen"], int)
    assert (out["phase"], out["wild"], out["auction"], out["same_as"]) == ("draw", None, None,
                                                                           {})
    for k, c in enumerate(("draw", "numbers", "currency")):
        same_prop(out["p_win"][c], sum(t[k] for t in CLEAR), 32)
    assert list(out["differences"]) == ["draw − numbers", "draw − currency"]
    same(out["differences"]["draw − numbers"], [-1] * 32)
    same(out["differences"]["draw − currency"], [t[0] - t[2] for t in CLEAR])
    sel = out["selection"]
    assert (sel["best"], sel["level"], sel["comparisons"], sel["separated"],
            sel["too_close"]) == ("numbers", 0.95, 2, True, [])
    assert sel["z"] == pytest.approx(Z3, rel=1e-12)
    assert sel["method"] == ("the best estimate against each other choice, Bonferroni over the "
                             "2 comparisons")
    m, se, _lo, _hi = by_hand([t[1] - t[2] for t in CLEAR])
    assert (m, se) == pytest.approx((0.75, math.sqrt(6 / 31 / 32)))
    d = sel["vs"]["currency"]
    assert (d.estimate, d.se, d.n) == pytest.approx((m, se, 32))
    assert (d.ci_low, d.ci_high) == pytest.approx((m - Z3 * se, m + Z3 * se))
    assert (sel["vs"]["draw"].estimate, sel["vs"]["draw"].se) == (1.0, 0.0)
    assert out["recommendation"] == "numbers"
    assert out["margin"] == (f"best of 3: numbers − currency = {m:.4f} ± {se:.4f} "
                             f"[{m - Z3 * se:.4f}, {m + Z3 * se:.4f}], simultaneous 95% with "
                             f"z = 2.241")
    dd = decimals(se)
    assert dd == 3
    assert out["verdict"] == (
        f"numbers: {signed(m, dd)} chance of winning over currency [{signed(m - Z3 * se, dd)}, "
        f"{signed(m + Z3 * se, dd)}] (best of 3, simultaneous 95% intervals, z = 2.241)")
    assert out["playouts_per_second"] == 32 / 0.5 * 3 and out["seconds"] == 0.5
    assert (out["stopped_by"], out["interrupted"]) == ("precision", True)
    assert out["turn_level"]["seat"] == 1


def test_too_close_names_every_choice_not_separated_from_the_best(tmp_path):
    """Currency leads numbers by 1/8 and draw by 2/8 over 8 playouts: neither is separated at
    z = 2.241403; the runner-up (closest) is numbers; the words say too close and list both."""
    pos, rules = example(tmp_path)
    trials = [(0, 0, 1), (0, 1, 1), (1, 1, 1), (0, 0, 0), (1, 1, 1), (0, 0, 0), (0, 1, 0),
              (0, 0, 1)]
    out = run_decide(pos, rules, "threshold", spec(trials))
    sel = out["selection"]
    assert sel["best"] == "currency" and sel["too_close"] == ["draw", "numbers"]
    assert not sel["separated"]
    m, se, _lo, _hi = by_hand([t[2] - t[1] for t in trials])
    assert m == 1 / 8
    assert out["recommendation"] == "too close to call at n = 8"
    assert out["margin"] == (f"best of 3: currency − numbers = {m:.4f} ± {se:.4f} "
                             f"[{m - Z3 * se:.4f}, {m + Z3 * se:.4f}], simultaneous 95% with "
                             f"z = 2.241; not separated from currency: draw, numbers")
    dd = decimals(se)
    assert out["verdict"] == (
        f"too close to call at n = 8 playouts: currency leads by {signed(m, dd)} chance of "
        f"winning over numbers [{signed(m - Z3 * se, dd)}, {signed(m + Z3 * se, dd)}] (best of "
        f"3, simultaneous 95% intervals, z = 2.241; not separated from currency: draw, numbers)")
    d = out["differences"]["draw − currency"]  # first − k at the plain 1.96
    m2, se2, lo2, hi2 = by_hand([t[0] - t[2] for t in trials])
    assert (d.estimate, d.se, d.ci_low, d.ci_high) == pytest.approx((m2, se2, lo2, hi2))


def test_a_difference_whose_interval_ends_at_zero_is_too_close():
    """``select_best``: a comparison is separated only when its low end is above 0 (an end at
    exactly 0 is not); one comparison is named singular; the z is Bonferroni's over K − 1."""
    from analyzer.games.ten.decide import select_best

    # two choices, 4 playouts: (1, 0) twice, (0, 0) twice: best 0 by 1/2, SE 0.2887 -> low < 0
    sel = select_best(np.array(sums_of([(1, 0), (1, 0), (0, 0), (0, 0)])), 2, 4, ["a", "b"])
    assert sel["best"] == "a" and sel["comparisons"] == 1 and sel["too_close"] == ["b"]
    assert sel["method"].endswith("Bonferroni over the 1 comparison")
    assert sel["z"] == pytest.approx(Z, rel=1e-12)
    # every playout (1, 0): difference 1, SE 0: separated; (0, 0) everywhere: low end 0
    assert select_best(np.array(sums_of([(1, 0)] * 3)), 2, 3, ["a", "b"])["separated"]
    tie = select_best(np.array(sums_of([(0, 0)] * 3)), 2, 3, ["a", "b"])
    assert tie["too_close"] == ["b"] and tie["vs"]["b"].ci_low == 0.0
    # the best is the largest sum, wherever it is listed
    assert select_best(np.array(sums_of([(0, 0, 1)] * 3)), 3, 3, ["a", "b", "c"])["best"] == "c"


def test_pair_differences_read_the_pairs_own_cross_sums():
    """w_1 − w_2 of three choices from Σw_1, Σw_2, Σw_1², Σw_1·w_2, Σw_2² (not through choice 0),
    at the z given; a difference with no spread has SE 0."""
    from analyzer.games.ten.decide import pair_difference

    trials = [(1, 0, 1), (0, 1, 0), (1, 1, 0), (0, 0, 1), (1, 1, 1)]
    s = np.array(sums_of(trials))
    d = pair_difference(s, 3, 1, 2, 5, 3.0)
    m, se, _lo, _hi = by_hand([t[1] - t[2] for t in trials])
    assert (d.estimate, d.se) == pytest.approx((m, se))
    assert (d.ci_low, d.ci_high) == pytest.approx((m - 3 * se, m + 3 * se))
    d = pair_difference(s, 3, 2, 0, 5, Z)
    m, se, lo, hi = by_hand([t[2] - t[0] for t in trials])
    assert (d.estimate, d.se, d.ci_low, d.ci_high) == pytest.approx((m, se, lo, hi))
    flat = pair_difference(np.array(sums_of([(1, 0, 0)] * 4)), 3, 0, 1, 4, Z)
    assert (flat.estimate, flat.se) == (1.0, 0.0)


def test_the_job_hands_the_position_to_the_kernel(tmp_path, monkeypatch):
    """The job: named "ten decide", 64 playouts a block, unit playouts; its blocks call
    ``position_blocks`` with the keys, counts, the pile, one pile copy, the card rows, tokens,
    the active seat, me, the choices' codes (draw 1, numbers 2, currency 3), the deck, the
    players, the rules array, the bots' rows, the scoring tables of the rules' full-run points
    (12 here), and the exact tables (an exact seat's, checked against the solver). Headline:
    ∞ below 2 playouts, else the widest best-vs-other half-width at z = 2.241403."""
    import kernels.ten.whole_blocks as WB
    from analyzer.games.ten.bots import bot_rows
    from analyzer.games.ten.lineup import parse_seats
    from kernels.ten.whole_score import run_tables

    pos, rules = example(tmp_path)
    rules = type(rules)(full_run_points=12)
    calls = []
    monkeypatch.setattr(WB, "position_blocks", lambda *a: calls.append(a) or "rows")
    sp = spec(CLEAR)
    run_decide(pos, rules, "threshold,random,threshold,random", sp)
    job = sp.jobs[0]
    assert (job.name, job.block_size, job.unit) == ("ten decide", 64, "playouts")
    keys, counts = np.arange(8, dtype=np.uint64), np.array([3, 4])
    assert job.run_blocks(keys, counts) == "rows"
    a = calls[0]
    st = pos.state
    assert a[0] is keys and a[1] is counts and a[2] is st.pile and a[3] == 1
    assert a[4] is st.cards and a[5] is st.tk and (a[6], a[7]) == (0, 0)
    assert list(a[8]) == [1, 2, 3] and a[8].dtype == np.int64
    assert a[9] is st.deck and a[10] == 4 and (a[11] == rules.kernel_array(4)).all()
    assert (a[12] == bot_rows(parse_seats("threshold,random,threshold,random", 4), {})).all()
    assert all((x == y).all() for x, y in zip(a[13], run_tables(12)))
    assert a[14].shape == (1, 1, 1, 1) and a[15].shape == (1, 9) and a[16].shape == (1, 5)
    assert len(a) == 17
    # an exact seat: the one-turn tables of the position's rules, deck and players (11 token
    # counts 0..10 held), checked against the solver; its row points at table 0
    from analyzer.games.ten.exact import Model, solve
    from analyzer.games.ten.rules import ValueModel, load_deck, turn_state
    from kernels.ten import whole_layout as L

    sp = spec(CLEAR)
    run_decide(pos, rules, "exact,random,threshold,random", sp)
    sp.jobs[0].run_blocks(keys, counts)
    e = calls[1]
    assert e[14].shape[:2] == (1, 11)
    sol = solve(Model(turn_state(rules, load_deck(None), None, None, 4), rules, ValueModel(), 4,
                      0))
    assert (e[14][0, 10] == sol.decision).all() and (e[15] == sol.nchild).all()
    assert e[12][0, L.B_DRAW] == L.D_EXACT and e[12][0, L.B_TABLE] == 0
    s = np.array(sums_of(CLEAR))
    assert job.headline_half_width(s, 1) == math.inf
    _m, se_c, _lo, _hi = by_hand([t[1] - t[2] for t in CLEAR])
    assert job.headline_half_width(s, 32) == pytest.approx(Z3 * se_c, rel=1e-12)
    # the widest is taken: a spread difference against the best beats one with SE 0
    wide = [(1, 0, 1), (1, 0, 0), (1, 0, 1), (1, 0, 0)]
    _m, se_w, _lo, _hi = by_hand([t[0] - t[2] for t in wide])
    assert job.headline_half_width(np.array(sums_of(wide)), 4) == pytest.approx(Z3 * se_w)
    # against the best (draw, 4 of 4): both differences spread as (1, 0, 1, 0); measured from
    # the worst choice instead, numbers − currency (0, 1, −1, 0) would be wider
    t4 = [(1, 0, 0), (1, 1, 0), (1, 0, 1), (1, 1, 1)]
    _m, se4, _lo, _hi = by_hand([1, 0, 1, 0])
    assert job.headline_half_width(np.array(sums_of(t4)), 4) == pytest.approx(Z3 * se4)
    # two playouts are enough for an interval: (1, 0, 0), (0, 0, 1); the best is draw (the
    # first of the two largest sums): draw − currency (1, −1) has SE 1
    two = [(1, 0, 0), (0, 0, 1)]
    assert job.headline_half_width(np.array(sums_of(two)), 2) == pytest.approx(Z3 * 1.0)


def test_one_choice_the_first_draw_and_its_headline(tmp_path, monkeypatch):
    """A turn's start (no tableau): drawing is the only choice and is mandatory; its chance of
    winning is Wilson at the mean share, no difference, no selection; the job's headline is
    that Wilson half-width (∞ below 2 playouts). The one-turn answer is the active seat's."""
    from tests.test_sums_to_statistics_contracts import wilson_by_hand

    path = position(tmp_path, "r9,b2,g3", 2, 2, ["r1,r2", "b1"], [5, 4], market="o4")
    pos, rules = load(path)
    trials = [(1,), (0,), (1,), (1,), (0.5,)]
    sp = spec(trials)
    out = run_decide(pos, rules, QUIET, sp)
    assert list(out["p_win"]) == ["draw"] and out["differences"] == {}
    same_prop(out["p_win"]["draw"], 3.5, 5)
    assert out["selection"] is None and out["recommendation"] == "draw"
    assert out["margin"] == "the first draw of a turn is mandatory"
    assert out["verdict"] == "draw (the first draw of a turn is mandatory)"
    assert out["playouts_per_second"] == 5 / 0.5 and (out["active"], out["deciding"]) == (2, 2)
    lo, hi = wilson_by_hand(3.5, 5)
    h = sp.jobs[0].headline_half_width
    assert h(np.array(sums_of(trials)), 5) == pytest.approx((hi - lo) / 2)
    assert h(np.array(sums_of(trials)), 1) == math.inf
    tl = out["turn_level"]
    assert tl["seat"] == 2 and tl["cards_left"] == 3 and tl["recommendation"] == "draw"


def test_the_one_turn_answer_reads_every_seen_card_and_the_active_seats_tokens(tmp_path):
    """The last card r9 is left; seat 2 is active with r5, $2 face up (N 5, C 2, T 3) and 9
    tokens; seat 1, seat 2, the market and out hold the other cards. Drawing r9 busts (T 12):
    p_bust_next 1; stopping for the numbers is worth 1 card; for the currency 2 tokens, of
    which only 1 fits under the cap of 10 (token weight 0.25): 0.25. Seat 2's line. The
    deck is the one of the position's player count (a removal list of 3 players applies)."""
    from analyzer.games.ten.decide import _turn_level
    from analyzer.games.ten.rules import load_deck

    path = position(tmp_path, "r9", 2, 2, ["r1,r2,r3", "b1"], [5, 9], tableau="r5,$2",
                    market="g4")
    pos, rules = load(path)
    tl = _turn_level(pos, rules, load_deck(None))
    assert (tl["seat"], tl["N"], tl["C"], tl["T"], tl["cards_left"]) == (2, 5, 2, 3, 1)
    assert tl["p_bust_next"] == 1.0
    assert tl["ev_stop_numbers"] == 1.0 and tl["ev_stop_currency"] == 0.25
    # 3 players under a deck file that removes o9 ("4+"): the pile is r9 alone, not r9, o9
    import dataclasses

    from analyzer.games.ten.position import load_position

    spec = dataclasses.replace(load_deck(None), marked_4plus=("o9",))
    path = position(tmp_path, "r9,o9", 3, 1, ["r1", "b1", "g1"], [5, 5, 5], tableau="r5,$2",
                    name="three.toml")
    pos = load_position(str(path), rules, spec)
    assert len(pos.state.pile) == 1 and _turn_level(pos, rules, spec)["cards_left"] == 1
    # no card left to draw (a turn's start with every card listed): no one-turn answer
    path = position(tmp_path, "", 2, 1, ["r1", "b1"], [5, 5], name="empty.toml")
    pos, rules = load(path)
    assert _turn_level(pos, rules, load_deck(None)) is None


# ---- buy phases, the final round and its exact answer --------------------------------------------

def test_buy_choices_by_hand(tmp_path):
    """Seat 1 (active) holds r1, o5, 2 tokens and 1 bust token (means 2 + 3 + 2 = 7). Market:
    r1 (owned: not listed), b7 (7 ≤ 7), g8 (8 > 7: not listed), o2, o2 (listed once). Codes:
    no buy 4, buy t 5 + t (b7 = 9 + 6 = 15: 20; o2 = 27 + 1: 33; g8 = 18 + 7: 30). With
    bust_token_value 4 the means are 8: g8 too. The final round (every card listed) offers the
    same choices. Rules without buys refuse both phases word for word."""
    from analyzer.games.ten.decide import choices_of
    from analyzer.games.ten.position import check_position
    from analyzer.games.ten.rules import TenRules, load_deck

    data = {"players": 2, "phase": "buy", "market": "r1,b7,g8,o2,o2",
            "player": [{"collection": "r1,o5", "tokens": 2, "bust_tokens": 1}, {}]}
    pos = check_position(data, "f", TenRules(), load_deck(None))
    assert choices_of(pos, TenRules()) == (["no buy", "buy b7", "buy o2"], [4, 20, 33], {})
    r4 = TenRules(bust_token_value=4)
    assert choices_of(pos, r4) == (["no buy", "buy b7", "buy g8", "buy o2"], [4, 20, 30, 33],
                                   {})
    with pytest.raises(UserError) as e:
        choices_of(pos, TenRules(buys=False))
    assert str(e.value) == 'the position is in phase "buy" but the rules say buys = false'
    # seat 2 buying reads its own tokens (2), bust tokens (1) and cards (o5): means 6
    data = {"players": 2, "active": 2, "phase": "buy", "market": "b6,b7",
            "player": [{}, {"collection": "o5", "tokens": 2, "bust_tokens": 1}]}
    pos = check_position(data, "f", TenRules(), load_deck(None))
    assert choices_of(pos, TenRules()) == (["no buy", "buy b6"], [4, 19], {})
    path = position(tmp_path, "", 2, 1, ["r1,o5", ""], [2, 5], [1, 0], market="r1,b7,g8,o2,o2",
                    extra='phase = "final"\nbuyers = [2]')
    pos = load(path)[0]
    assert choices_of(pos, TenRules()) == (["no buy", "buy b7", "buy o2"], [4, 20, 33], {})
    with pytest.raises(UserError) as e:
        choices_of(pos, TenRules(buys=False))
    assert str(e.value) == 'the position is in phase "final" but the rules say buys = false'


def test_draw_choices_and_auctions_switched_off(tmp_path):
    """A turn under way: draw, numbers, currency (codes 1, 2, 3); at its start only draw (1).
    An auction position under rules without auctions is refused word for word."""
    from analyzer.games.ten.decide import choices_of
    from analyzer.games.ten.rules import TenRules

    pos, rules = example(tmp_path)
    assert choices_of(pos, rules) == (["draw", "numbers", "currency"], [1, 2, 3], {})
    path = position(tmp_path, "r9,b2", 2, 1, ["", ""], [5, 5], name="start.toml")
    assert choices_of(load(path)[0], rules) == (["draw"], [1], {})
    path = position(tmp_path, "", 3, 1, ["r1,r2,r3", "b1,b2,b3", "g1,g2,g3"], [5, 5, 5],
                    tableau="r5", wild="**", extra='phase = "auction"\nbids = [2]',
                    name="auction.toml")
    with pytest.raises(UserError) as e:
        choices_of(load(path)[0], TenRules(auctions=False))
    assert str(e.value) == ('the position is in phase "auction" but the rules say auctions = '
                            'false')


def test_auction_choices_and_their_codes(tmp_path):
    """3 players, seat 1 active, the full wild (type 54) auctioned; seat 2 bid 2, seat 3 (5
    tokens, g1-g3: means 8) bids now, before seat 1 (5 tokens, r1-r3: means 8). Bids 3..8, none
    sure below 8. Each code is the kernel's: F_BID0 + (w − 41) + 16·(q + 5·(x + 128·(cur +
    128·(high + 1 + 6·(first − 1))))) with q = 2, cur = 2, high = 1, first = 2."""
    from analyzer.games.ten.decide import choices_of
    from analyzer.games.ten.rules import TenRules

    path = position(tmp_path, "", 3, 1, ["r1,r2,r3", "b1,b2,b3", "g1,g2,g3"], [5, 5, 5],
                    tableau="r5", wild="**", extra='phase = "auction"\nbids = [2]')
    pos, rules = load(path)
    names, codes, same_as = choices_of(pos, rules)
    assert names == ["pass"] + [f"bid {x}" for x in range(3, 9)] and same_as == {}

    def code(x):
        return 64 + 13 + 16 * (2 + 5 * (x + 128 * (2 + 128 * (1 + 1 + 6 * 1))))

    assert codes == [code(0)] + [code(x) for x in range(3, 9)]
    # without bid_within_means: pass and bids up to 15 above the current bid (17)
    names, _codes, same_as = choices_of(pos, TenRules(bid_within_means=False))
    assert names == ["pass"] + [f"bid {x}" for x in range(3, 18)] and same_as == {}


def test_bids_without_means_collapse_only_for_the_last_bidder(tmp_path):
    """Without bid_within_means the active seat (bidding last) surely wins any bid: bids that
    cost the same (payment: 0 tokens, 2 bust tokens, no card) are listed once: 1 for 1-3, 4 for
    4-17 (more than 6 is paid with the two bust tokens too, the rest lost). A seat with later
    bidders lists every bid (none is sure)."""
    from analyzer.games.ten.decide import bid_choices
    from analyzer.games.ten.rules import TenRules

    path = position(tmp_path, "o1", 3, 1, ["", "b1", "g1"], [0, 5, 5], [2, 0, 0], wild="r#",
                    extra='phase = "auction"\nbids = [0, 0]')
    pos, _rules = load(path)
    listed, same_as = bid_choices(pos, TenRules(bid_within_means=False))
    assert listed == [0, 1, 4] and same_as == {1: [2, 3], 4: list(range(5, 16))}
    path = position(tmp_path, "o1", 3, 1, ["", "b1", "g1"], [0, 5, 5], [2, 0, 0], wild="r#",
                    extra='phase = "auction"\nbids = [0]', name="p2.toml")
    pos, _rules = load(path)
    listed, same_as = bid_choices(pos, TenRules(bid_within_means=False))
    assert listed == list(range(16)) and same_as == {}
    # bids stop at 127, the kernel's largest (BIDS − 1): after a bid of 120, 121..127
    path = position(tmp_path, "o1", 3, 1, ["", "b1", "g1"], [0, 5, 5], [2, 0, 0], wild="r#",
                    extra='phase = "auction"\nbids = [120]', name="p3.toml")
    pos, _rules = load(path, bid_within_means=False)
    listed, same_as = bid_choices(pos, TenRules(bid_within_means=False))
    assert listed == [0] + list(range(121, 128)) and same_as == {}


def test_payments_by_hand():
    """Bust tokens ⌊price / value⌋ while held, then tokens, then one more bust token if any is
    left and something is owed (the change is lost), then cards."""
    from analyzer.games.ten.decide import payment

    assert payment(6, 0, 3, 0, 3) == (0, 2, 0)  # exactly two bust tokens; the third kept
    assert payment(7, 10, 2, 0, 5) == (2, 1, 0)  # value 5: one bust token, 2 tokens
    assert payment(7, 1, 2, 3, 5) == (1, 2, 0)  # 5 + 1 token, 1 owed: the second bust token,
    # which settles it (no card is spent)
    assert payment(4, 9, 0, 3, 3) == (4, 0, 0)
    assert payment(4, 1, 0, 5, 3) == (1, 0, 3)
    assert payment(0, 1, 1, 1, 3) == (0, 0, 0)


def final(tmp_path, buyer="threshold:bid=never:buy=never"):
    # 2 players, the pile empty; seat 1 (r1, r2, 3 tokens) buys now, seat 2 (b1, b2, 3 tokens)
    # after it; the market holds r3 (price 3, payable). No buy: 2 points, 3 tokens and 2 cards
    # each, a shared win (1/2); buy r3: 3 points to 2, seat 1 wins (1).
    path = position(tmp_path, "", 2, 1, ["r1,r2", "b1,b2"], [3, 3], market="r3",
                    extra='phase = "final"\nbuyers = [2]')
    return load(path)


def test_a_determined_final_round_is_exact(tmp_path, monkeypatch):
    """Every later buyer buys by rule and the pile is empty: with every playout alike the answer
    is exact (SE 0, the interval the point, the exact value attached), the best named with the
    exact words; the active seat's row is set to never buy again in the kernel's bots."""
    import kernels.ten.whole_blocks as WB
    from kernels.ten import whole_layout as L

    pos, rules = final(tmp_path)
    calls = []
    monkeypatch.setattr(WB, "position_blocks", lambda *a: calls.append(a) or 0)
    sp = spec([(0.5, 1.0)] * 4)
    out = run_decide(pos, rules, QUIET, sp)
    assert out["exact"] is True and out["phase"] == "final" and out["turn_level"] is None
    for c, p in (("no buy", 0.5), ("buy r3", 1.0)):
        s = out["p_win"][c]
        assert (s.estimate, s.se, s.ci_low, s.ci_high, s.n, s.exact_value) == (p, 0, p, p, 4, p)
    why = ("exact: the draw pile is empty and every seat still to buy buys by its rule, so the "
           "choice decides the end of the game")
    assert out["recommendation"] == "buy r3" and out["margin"] == why
    assert out["verdict"] == f"buy r3 ({why})"
    sp.jobs[0].run_blocks(None, None)
    rows = calls[0][12]
    assert rows[0, L.B_BUY] == L.A_NEVER and rows[1, L.B_BUY] == L.A_NEVER
    # ties are named beside the best
    out = run_decide(pos, rules, QUIET, spec([(1.0, 1.0)] * 3))
    assert out["recommendation"] == "no buy (as good: buy r3)"
    assert out["verdict"] == f"no buy (as good: buy r3) ({why})"
    # playouts that differ: not exact (a Monte Carlo answer)
    out = run_decide(pos, rules, QUIET, spec([(0.5, 1.0), (0.5, 0.0)] * 3))
    assert out["exact"] is False and out["p_win"]["buy r3"].se > 0
    # a later buyer who buys at random: not determined, so not exact either
    pos, rules = final(tmp_path)
    out = run_decide(pos, rules, f"{QUIET},threshold:buy=random", spec([(0.5, 1.0)] * 4))
    assert out["exact"] is False and out["p_win"]["no buy"].ci_high > 0.5


def test_final_round_rows_by_hand():
    """Seats that buy nothing more (the active one and those not in ``buyers``) get "never
    buy" (a search seat also no searched buy); the round is determined unless a buyer buys at
    random or by search."""
    from analyzer.games.ten.decide import final_round_rows
    from kernels.ten import whole_layout as L
    from kernels.ten.search_root import D_SEARCH, S_BUYS

    class Pos:
        players, buyers = 4, (2, 3)

    rows = np.zeros((4, L.NB))
    rows[:, L.B_BUY] = L.A_VALUE
    rows[0, L.B_DRAW] = D_SEARCH
    rows[0, S_BUYS] = 1
    rows[1, L.B_BUY] = L.A_RANDOM
    assert final_round_rows(rows, Pos) is True
    assert list(rows[:, L.B_BUY]) == [L.A_NEVER, L.A_NEVER, L.A_VALUE, L.A_VALUE]
    assert rows[0, S_BUYS] == 0
    rows = np.zeros((4, L.NB))
    rows[3, L.B_BUY] = L.A_RANDOM
    assert final_round_rows(rows, Pos) is False
    rows = np.zeros((4, L.NB))
    rows[2, L.B_DRAW] = D_SEARCH
    rows[2, S_BUYS] = 1
    assert final_round_rows(rows, Pos) is False and rows[2, S_BUYS] == 1
    rows[2, S_BUYS] = 0  # a search seat that does not search its buys buys by rule
    assert final_round_rows(rows, Pos) is True
    rows = np.zeros((4, L.NB))
    rows[2, S_BUYS] = 1  # not a search seat: the column means nothing
    assert final_round_rows(rows, Pos) is True


def test_all_alike_and_the_exact_statistics():
    """Every playout alike: Σw² = (Σw)²/n for every choice (within 1e-9·n); one differing
    choice is enough to say no; no playout: no. An exact share has SE 0 and the point as its
    interval; the best of exact choices names the ties within 1e-12."""
    from analyzer.games.ten.decide import all_alike, exact_pick, exact_share
    from analyzer.stats import Statistic

    assert all_alike(np.array(sums_of([(1, 0.5, 0)] * 5)), 3, 5)
    assert not all_alike(np.array(sums_of([(1, 0.5, 0)] * 4 + [(1, 0.5, 1)])), 3, 5)
    assert not all_alike(np.array(sums_of([(1, 0, 0)] * 4 + [(0, 0, 0)])), 3, 5)
    assert not all_alike(np.zeros(9), 3, 0)
    s = np.array(sums_of([(0.5, 1)] * 4))
    s[2] += 4e-9 * 0.99  # Σw_0² off by less than 1e-9·n
    assert all_alike(s, 2, 4)
    s[2] += 4e-9 * 0.02
    assert not all_alike(s, 2, 4)
    assert exact_share(0.25, 8) == Statistic(0.25, 0.0, 0.25, 0.25, 8, exact_value=0.25)
    wins = {"a": exact_share(0.5, 3), "b": exact_share(0.75, 3), "c": exact_share(0.75, 3),
            "d": exact_share(0.75 - 1e-13, 3), "e": exact_share(0.75 - 1e-11, 3)}
    rec, why = exact_pick(wins)
    assert rec == "b (as good: c, d)" and why.startswith("exact: the draw pile is empty")
    assert exact_pick({"a": exact_share(0.0, 2), "b": exact_share(1.0, 2)})[0] == "b"
    # the tolerances are inclusive: a share 1e-12 below the best is as good; a Σw² off by
    # exactly 1e-9·n still counts as alike; one playout is always alike with itself
    assert exact_pick({"a": exact_share(1e-12, 2), "b": exact_share(0.0, 2)})[0] == (
        "a (as good: b)")
    assert all_alike(np.array([0.0, 1e-9]), 1, 1)
    assert not all_alike(np.array([0.0, 2e-9]), 1, 1)
    assert all_alike(np.array(sums_of([(0.5, 1, 0)])), 3, 1)


def test_a_buy_phase_with_one_choice(tmp_path):
    """Seat 1 can pay 4 (4 tokens); the market's g9 costs 9: only "no buy", the only choice."""
    path = position(tmp_path, "", 2, 1, ["r1", "b1"], [4, 4], market="g9",
                    extra='phase = "buy"')
    pos, rules = load(path)
    out = run_decide(pos, rules, QUIET, spec([(0,), (1,), (0,)]))
    assert out["recommendation"] == "no buy" and out["margin"] == "the only choice"
    assert out["verdict"] == "no buy (the only choice)" and out["turn_level"] is None
    assert out["exact"] is False


def test_an_auction_answer_names_the_deciding_seat_and_the_auction(tmp_path):
    """The seat to bid (seat 3) decides and is ``me`` by default; the auction's state is in
    the answer with seats from 1; identical bids are named beside the one listed."""
    path = position(tmp_path, "o1", 3, 1, ["", "b1", "g1"], [0, 5, 5], [2, 0, 0], wild="r#",
                    extra='phase = "auction"\nbids = [0, 0]')
    pos, rules = load(path)
    out = run_decide(pos, rules, QUIET, spec([(0, 1, 1), (0, 1, 0), (0, 1, 1)]))
    assert (out["active"], out["me"], out["deciding"]) == (1, 1, 1)
    assert out["wild"] == "r#" and out["phase"] == "auction" and out["turn_level"] is None
    assert out["auction"] == {"order": [2, 3, 1], "bids": [{"seat": 2, "bid": 0},
                                                           {"seat": 3, "bid": 0}],
                              "current_bid": 0, "high_bidder": None, "to_bid": 1, "later": []}
    assert out["same_as"] == {"bid 1": ["bid 2", "bid 3"], "bid 4": ["bid 5", "bid 6"]}
    assert list(out["p_win"]) == ["pass", "bid 1", "bid 4"]
    path = position(tmp_path, "o1", 3, 1, ["", "b1", "g1"], [0, 5, 5], [2, 0, 0], wild="r#",
                    extra='phase = "auction"\nbids = [0]', name="seat3.toml")
    pos, rules = load(path)
    out = run_decide(pos, rules, QUIET, spec([(0,) * 7] * 2))
    assert (out["active"], out["me"], out["deciding"]) == (1, 3, 3)
    assert out["seats"][2] == {"seat": 3, "bot": "threshold:bid=never:buy=never", "me": True,
                               "deciding": True}


def test_a_search_seat_plays_on_the_search_driver_one_playout_a_block(tmp_path, monkeypatch):
    """With a search seat the playouts run on search_position_blocks, one a block."""
    import kernels.ten.search_game as SG

    pos, rules = example(tmp_path)
    calls = []
    monkeypatch.setattr(SG, "search_position_blocks", lambda *a: calls.append(a) or "search")
    sp = spec(CLEAR)
    run_decide(pos, rules, "search,threshold,threshold,threshold", sp)
    assert sp.jobs[0].block_size == 1
    assert sp.jobs[0].run_blocks("k", "c") == "search" and calls[0][:2] == ("k", "c")


# ---- ten game: the figures of every line-up and their differences --------------------------------

def test_play_games_every_figure_and_its_names(tmp_path):
    """Two line-ups of two players over planted games: each line-up named A, B with its bots'
    labels and its statistics, the difference "A − B" per seat, the rules as a table, games a
    second = n / 0.5 s × 2 line-ups, how the run ended; no search figures without a search
    seat."""
    from analyzer.games.ten.decide import play_games
    from tests.test_sums_to_statistics_contracts import GAMES_A, GAMES_B, ten_sums
    from tests.test_ten_whole_mutants import setup

    s = setup(["threshold,random", "cards:after=3,threshold"], full_run_points=12)
    sp = Recorded(4, 9, progress=False, sums=tuple(ten_sums(GAMES_A, GAMES_B)),
                  stopped="time-limit", interrupted=True)
    out = play_games(s, sp)
    assert (out["game"], out["exact"], out["seed"], out["n"], out["players"]) == (
        "ten", False, 9, 4, 2)
    assert out["rules"]["full_run_points"] == 12 and out["rules"]["bust_at"] == 11
    assert [x["name"] for x in out["lineups"]] == ["A", "B"]
    assert out["lineups"][1]["bots"] == ["cards:after=3", "threshold"]
    assert out["lineups"][0]["bots"] == ["threshold", "random"]
    same_prop(out["lineups"][0]["seats"][0]["win_rate"], 2.5, 4)
    same_prop(out["lineups"][1]["seats"][0]["win_rate"], 2, 4)
    assert out["lineups"][1]["n"] == 4
    assert [d["of"] for d in out["differences"]] == ["A − B"]
    same(out["differences"][0]["seats"][1]["score"],
         [a["score_1"] - b["score_1"] for a, b in zip(GAMES_A, GAMES_B)])
    assert out["games_per_second"] == 4 / 0.5 * 2
    assert (out["stopped_by"], out["interrupted"]) == ("time-limit", True)
    assert "search" not in out
    assert sp.jobs[0].name == "ten game threshold,random vs cards:after=3,threshold"


def test_play_games_with_a_search_seat_reports_its_effort():
    """The search driver's three last columns: decisions with a choice, their CPU nanoseconds
    and playouts: 4 decisions, 8e6 ns and 100 playouts give 2 ms and 25 playouts each; with no
    decision the totals are divided by 1."""
    from analyzer.games.ten.decide import play_games, search_effort
    from tests.test_sums_to_statistics_contracts import GAMES_A, GAMES_B, ten_sums
    from tests.test_ten_whole_mutants import setup

    assert search_effort(np.array([7.0, 4, 8e6, 100])) == {
        "searched_decisions": 4, "cpu_ms_per_decision": 2.0, "playouts_per_decision": 25.0}
    e = search_effort(np.array([0.0, 5e5, 0]))
    assert e == {"searched_decisions": 0, "cpu_ms_per_decision": 0.5,
                 "playouts_per_decision": 0.0}
    assert isinstance(e["searched_decisions"], int)
    s = setup(["search,threshold"])
    sums = tuple(ten_sums(GAMES_A, GAMES_B)) + (4.0, 8e6, 100.0)
    out = play_games(s, Recorded(4, 9, progress=False, sums=sums))
    assert out["search"] == {"searched_decisions": 4, "cpu_ms_per_decision": 2.0,
                             "playouts_per_decision": 25.0}
    assert out["differences"] == [] and len(out["lineups"]) == 1
    assert out["games_per_second"] == 4 / 0.5
