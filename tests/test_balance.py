"""Balance figures (issue 38): numbers rounded to what their SE supports, the order-statistic
interval of a quantile, the ratio over games, the findings' sentences, the lead definitions,
and Pig's balance kernel on a goal small enough to work out by hand.

Expected values are computed here by hand from the definitions (analyzer/balance.py,
kernels/lead.py) and the rules of Pig (docs/rules/pig.md), never through the code under test.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.stats import Statistic


# ------------------------------------------------------------------------------ numbers
@pytest.mark.parametrize("se,decimals", [(0.0033, 3), (0.04, 2), (0.6, 1), (3.2, 0),
                                         (0.00099, 4), (47.0, 0), (1e-9, 6)])
def test_decimals_follow_the_leading_digit_of_the_se(se, decimals):
    from analyzer.numbers import decimals_for

    assert decimals_for(se) == decimals


def test_exact_figures_keep_the_stated_decimals():
    from analyzer.numbers import decimals_for

    assert decimals_for(0.0, default=4) == 4
    assert decimals_for(float("nan"), default=2) == 2


def test_interval_text_in_plain_percent_and_points():
    from analyzer.numbers import interval

    st = Statistic(0.29412, 0.0033, 0.28770, 0.30063, 19000)
    assert interval(st) == "0.294 [0.288, 0.301]"
    # in percent the SE is 0.33 points: one decimal
    assert interval(st, percent=True) == "29.4% [28.8, 30.1]"
    d = Statistic(0.0213, 0.004, 0.0135, 0.0291, 500)
    assert interval(d, points=True, signed=True) == "+2.1 [1.4, 2.9]"
    neg = Statistic(-0.0004, 0.001, -0.0024, 0.0016, 500)
    assert interval(neg, signed=True) == "0.000 [-0.002, 0.002]"  # no sign on a rounded 0
    assert interval(Statistic(2.0, 0.0, 2.0, 2.0, 0), 4) == "2.0000"
    assert interval(None) == "—"


def test_a_column_shares_one_number_of_decimals():
    from analyzer.tables import Col, people_table

    rows = [{"x": Statistic(0.5089, 0.004, 0.501, 0.517, 100)},
            {"x": Statistic(0.46444, 0.0004, 0.4637, 0.4652, 10000)},
            {"x": Statistic(0.5, 0.003, 0.494, 0.506, 1000)},
            {"x": None}]
    text = people_table(rows, [Col("share", "x")])
    cells = [line.strip("| ") for line in text.splitlines()[2:]]
    # SEs 0.004, 0.0004, 0.003: decimals 3, 4, 3 -> the median 3 for every row
    assert cells == ["0.509 [0.501, 0.517]", "0.464 [0.464, 0.465]",
                     "0.500 [0.494, 0.506]", "—"]
    assert "nan" not in text and "None" not in text


# ------------------------------------------------------------------------ balance helpers
def test_quantile_of_a_histogram_and_its_order_statistic_interval():
    from analyzer.balance import quantile

    # 100 games: 10 last 1 turn, 20 last 2, 40 last 3, 30 last 4 (cumulative 10, 30, 70, 100)
    counts = [(1, 10), (2, 20), (3, 40), (4, 30)]
    q = quantile(counts, 0.9)
    # rank ceil(90) = 90 -> 4; spread 1.96·sqrt(100·0.9·0.1) = 5.88: ranks floor(84.12) = 84
    # -> 4 and ceil(95.88) + 1 = 97 -> 4
    assert (q.estimate, q.ci_low, q.ci_high, q.n) == (4, 4, 4, 100)
    m = quantile(counts, 0.5)
    # rank 50 -> 3; spread 9.8: ranks 40 -> 3 and 61 -> 3
    assert (m.estimate, m.ci_low, m.ci_high) == (3, 3, 3)
    low = quantile(counts, 0.1)
    # rank 10 -> 1; spread 1.96·3 = 5.88: ranks floor(4.12) = 4 -> 1, ceil(15.88) + 1 = 17 -> 2
    assert (low.estimate, low.ci_low, low.ci_high) == (1, 1, 2)
    assert low.se == pytest.approx((2 - 1) / (2 * 1.959963984540054))


def test_quantile_ranks_on_a_histogram_of_single_games():
    from analyzer.balance import quantile

    counts = [(v, 1) for v in range(1, 101)]  # the game at rank r lasted r turns
    q = quantile(counts, 0.9)
    # estimate rank ceil(90) = 90; spread 1.96·sqrt(9) = 5.88: ranks floor(84.12) = 84 and
    # ceil(95.88) + 1 = 97
    assert (q.estimate, q.ci_low, q.ci_high) == (90, 84, 97)
    q = quantile(counts, 0.5)  # spread 9.8: ranks floor(40.2) = 40 and ceil(59.8) + 1 = 61
    assert (q.estimate, q.ci_low, q.ci_high) == (50, 40, 61)
    assert quantile([(7, 3)], 0.99).ci_high == 7  # ranks past n stay at the last game


def test_ratio_over_games_by_hand():
    from analyzer.balance import ratio

    # three games: busts x = 1, 0, 2 over turns y = 4, 2, 6
    x, y = np.array([1.0, 0.0, 2.0]), np.array([4.0, 2.0, 6.0])
    r = ratio(x.sum(), (x * x).sum(), (x * y).sum(), y.sum(), (y * y).sum(), 3)
    want = 3 / 12
    resid = x - want * y  # 0, -0.5, 0.5
    se = math.sqrt((resid ** 2).sum() / (3 * 2)) / (12 / 3)
    assert r.estimate == pytest.approx(want) and r.se == pytest.approx(se)
    assert r.ci_low == pytest.approx(want - 1.959963984540054 * se)
    assert ratio(0, 0, 0, 0, 0, 3) is None


def test_decisiveness_counts_shared_wins_and_needs_a_leader():
    from analyzer.balance import decisiveness

    d = decisiveness(7.5, 10)
    assert d.estimate == pytest.approx(0.75) and d.n == 10 and d.ci_low < 0.75 < d.ci_high
    assert decisiveness(0.0, 0) is None


def _seats(estimates, half=0.0065, n=20000):
    from analyzer.balance import Balance, add_seats

    b = Balance("3 players", 3, n, 1)
    add_seats(b, [Statistic(e, half / 1.96, e - half, e + half, n) for e in estimates])
    return b


def _wilson(p: float, n: int) -> tuple[float, float]:
    """Wilson's 95% interval written out (analyzer/stats.py states the formula)."""
    z = 1.959963984540054
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_seat_finding_states_the_seat_off_its_fair_share():
    from analyzer.balance import seat_finding

    f = seat_finding(_seats([0.294, 0.333, 0.373]), "3-player games")
    # seat 3 is further from 1/3 (0.0397) than seat 1 (0.0393); shares get Wilson's interval
    lo, hi = _wilson(0.373, 20000)
    assert f.text == (f"Seat 3 wins 37.3% [{lo * 100:.1f}, {hi * 100:.1f}] of 3-player games, "
                      "against a fair 33.3% (n = 20,000 games).")
    f = seat_finding(_seats([0.2, 0.4, 0.4]), "3-player games")
    lo, hi = _wilson(0.2, 20000)
    assert f.text.startswith(f"The first player wins 20.0% [{lo * 100:.1f}, {hi * 100:.1f}]")


def test_no_seat_advantage_when_every_interval_holds_the_fair_share():
    from analyzer.balance import seat_finding

    f = seat_finding(_seats([0.33, 0.336, 0.334]), "3-player games")
    assert f.text.startswith("No seat advantage detected in 3-player games")
    # the widest Wilson interval of the three (0.336, n = 20,000), by hand: ±0.65 points
    widest = max((hi - lo) / 2 for lo, hi in (_wilson(p, 20000) for p in (0.33, 0.336, 0.334)))
    assert f"(n = 20,000 games; the intervals reach ±{widest * 100:.1f} points" in f.text
    assert f"{widest * 100:.1f}" == "0.7"
    # a null result ranks after every detected effect (priority 1)
    assert f.priority == 4
    assert seat_finding(_seats([0.294, 0.333, 0.373]), "3-player games").priority == 1
    # an interval ending just below the fair share is an advantage (the comparison's sign)
    f = seat_finding(_seats([1 / 3 - 0.0066, 0.34, 0.3266]), "3-player games")
    assert "No seat advantage" not in f.text


def test_a_page_that_detects_a_seat_advantage_drops_another_parts_null_result():
    """The Trash Pandas page said "the first player wins 29.0% [28.8, 29.2] (200,000 games)"
    and, from the ladder's 60 self-play games, "no seat advantage detected": the null result
    leaves the page's findings when another part detects one, and only then."""
    from analyzer.balance import seat_finding
    from analyzer.report_site import findings_of

    detected = seat_finding(_seats([0.294, 0.333, 0.373]), "3-player games").to_json()
    null = seat_finding(_seats([0.33, 0.336, 0.334]), "self-play games").to_json()
    other = {"text": "A game lasts 14.2 turns.", "priority": 2}
    assert detected["kind"] == "seat-advantage" and null["kind"] == "no-seat-advantage"

    def part(name, *found):
        return {"name": name, "meta": {"findings": list(found)}}

    pages = findings_of([part("balance", other, detected), part("ladder", null)])
    assert [f["text"] for f in pages] == [detected["text"], other["text"]]
    kept = findings_of([part("balance", other), part("ladder", null)])
    assert [(f["text"], f["part"]) for f in kept] == [(other["text"], "balance"),
                                                       (null["text"], "ladder")]


def test_an_interval_ending_at_the_fair_share_holds_it():
    from analyzer.balance import Balance, seat_finding

    b = Balance("2 players", 2, 1000, 1)
    b.add("seat", Statistic(0.53, 0.015, 0.5, 0.56, 1000), seat=1, fair=0.5)
    b.add("seat", Statistic(0.47, 0.015, 0.44, 0.5, 1000), seat=2, fair=0.5)
    assert seat_finding(b, "games").text.startswith("No seat advantage detected")


def test_length_finding_with_the_90_percent_quantile():
    from analyzer.balance import Balance, length_finding

    b = Balance("2 players", 2, 100, 1, length_unit="turns",
                length_counts=[(1, 10), (2, 20), (3, 40), (4, 30)])
    b.add("length", Statistic(2.9, 0.095, 2.71, 3.09, 100))
    b.with_quantiles()
    assert length_finding(b, "2-player games").text == (
        "2-player games last 2.90 [2.71, 3.09] turns on average; 90% end within 4 turns "
        "(n = 100 games).")
    b.open_top = True  # the last bucket is "4 or more"
    assert "at least 10% last 4 turns or more" in length_finding(b, "2-player games").text


# --------------------------------------------------------------------------- leads
def test_lead_changes_and_the_leader_at_three_quarters_by_hand():
    from analyzer.games.trash_pandas.balance import lead_figures

    leaders = [0, -1, 0, 1, 1, -1, 2]  # A, tie, A, B, B, tie, C: two changes (A→B, B→C)
    shares = [0.0, 0.0, 1.0]
    changes, lead, share = lead_figures(leaders, shares)
    # seven turns: ceil(21/4) = 6 -> after turn 6 the top is tied: no leader
    assert (changes, lead, share) == (2, -1, 0.0)
    changes, lead, share = lead_figures([1, 1, 0, 0], [0.5, 0.5])
    # four turns: after turn 3 seat 0 leads; it shares the win
    assert (changes, lead, share) == (1, 0, 0.5)


def test_the_kernel_lead_helpers_agree_with_the_definitions():
    from kernels.lead import (TRACE_HEAD, UNRECORDED, lead_note, lead_reset,
                              leader_at_three_quarters, strict_leader)

    trace = np.zeros(TRACE_HEAD + 5, dtype=np.int64)
    lead_reset(trace)
    for step, x in enumerate([0, -1, 0, 1, 1, -1, 2]):
        lead_note(trace, step, x)
    assert trace[1] == 2 and trace[0] == 2
    assert leader_at_three_quarters(trace, 4) == 0  # after turn 3
    assert leader_at_three_quarters(trace, 7) == UNRECORDED  # turn 6 is past the cap of 5
    assert strict_leader(np.array([3, 5, 5]), 3) == -1
    assert strict_leader(np.array([3, 5, 4]), 3) == 1
    assert strict_leader(np.array([7, 5, 7]), 2) == 0  # only the first two seats play


# ------------------------------------------------------------------- Pig's balance kernel
def test_pig_balance_on_a_goal_of_two_by_hand():
    """Goal 2, hold at 2 for both: every turn ends at once, a 1 busts (chance 1/6), any other
    face wins the game. So seat 1 (moving first) wins with (5/6) / (1 − 1/36) = 6/7, nobody
    ever leads before the last turn (no lead change), the winner's margin is the face (mean 4),
    turns per game are geometric with mean 6/5 and busts per turn are 1/6. The leader after
    turn ceil(3T/4) is the winner when T ≤ 3, and nobody leads then when T ≥ 4."""
    from analyzer.games.pig.balance import balance
    from analyzer.games.pig.lineup import parse_policy_pair
    from analyzer.games.pig.rules import PigRules
    from analyzer.runner import RunSpec

    n = 60_000
    b = balance(parse_policy_pair("hold:2,hold:2"), PigRules(goal=2), RunSpec(n, 7,
                                                                            progress=False),
                "both hold at 2")

    def near(key, want, seat=None, z=4.5):
        st = b.get(key, seat).stat
        assert abs(st.estimate - want) <= z * st.se + 1e-12, (key, st, want)

    near("seat", 6 / 7, 1)
    near("seat", 1 / 7, 2)
    near("margin", 4.0)
    near("length", 6 / 5)
    near("bust", 1 / 6)
    lc = b.get("lead_changes").stat
    assert lc.estimate == 0.0 and lc.ci_high == 0.0
    dec = b.get("decisive").stat
    assert dec.estimate == 1.0
    share_with_leader = dec.n / n  # P(T ≤ 3) = 1 − (1/6)³
    assert abs(share_with_leader - (1 - 1 / 216)) < 4.5 * math.sqrt((1 / 216) / n)
    assert sum(c for _v, c in b.length_counts) == n
    p1 = dict(b.length_counts)[1] / n  # one turn: the first roll is not a 1
    assert abs(p1 - 5 / 6) < 4.5 * math.sqrt(5 / 36 / n)
