"""The bot ladder's maths (analyzer/ladder.py): the line-ups, the Luce / Bradley–Terry fit on
cases worked out by hand, the cluster standard error, and the bootstrap's degenerate case.
No game is played here (tests/test_trash_pandas_ladder.py plays Trash Pandas)."""
import math

import numpy as np
import pytest

from analyzer.ladder import (ELO, LadderData, Lineup, analyse, cluster_mean, design, fit_luce,
                             parse_bots)


def test_design_lists_self_play_then_every_challenger_in_every_seat():
    lus = design(3, 3)
    assert len(lus) == 3 + 3 * 2 * 3  # m self-play + m(m-1)P one-against-a-field
    assert [lu.seats for lu in lus[:3]] == [(0, 0, 0), (1, 1, 1), (2, 2, 2)]
    field = [lu for lu in lus if lu.kind == "field" and lu.bot == 2 and lu.field == 0]
    assert [lu.seats for lu in field] == [(2, 0, 0), (0, 2, 0), (0, 0, 2)]
    assert [lu.seat for lu in field] == [0, 1, 2]


# Two players, bots A (0) and B (1), strengths πA/πB = 2 and seat weights γ1/γ2 = 3/2, so in
# line-up (X, Y) seat 1 wins with πX·γ1 / (πX·γ1 + πY·γ2):
#   (A, A), (B, B): 1.5 / 2.5 = 3/5;  (A, B): 3 / 4 = 3/4;  (B, A): 1.5 / 3.5 = 3/7.
# Win counts of 280 games per line-up that equal these expectations exactly are their own
# maximum-likelihood fit (the score equations Σ (W − n·p)·z = 0 hold at the truth).
HAND = {(0, 0): 3 / 5, (1, 1): 3 / 5, (0, 1): 3 / 4, (1, 0): 3 / 7}


def _wins(lineups, n=280):
    w = np.zeros((len(lineups), 2))
    for l, lu in enumerate(lineups):
        p1 = HAND[lu.seats]
        w[l] = (n * p1, n * (1 - p1))
    return w


def test_fit_recovers_a_hand_computed_two_player_case():
    lus = design(2, 2)
    theta, seats, _ = fit_luce(_wins(lus), lus, 2, 2)
    assert theta[0] - theta[1] == pytest.approx(math.log(2), abs=1e-7)
    assert theta.sum() == pytest.approx(0.0, abs=1e-12)  # mean 0
    assert seats[0] == 0.0 and seats[1] - seats[0] == pytest.approx(math.log(2 / 3), abs=1e-7)
    # on the Elo scale: ±400·log10(2)/2 = ±60.206
    assert ELO * theta[0] == pytest.approx(200 * math.log10(2), abs=1e-5)


def test_fit_matches_the_closed_form_of_two_line_ups():
    """Only (A, B) and (B, A), seat 1 winning 80% and 50%: logit 0.8 = x + s and
    logit 0.5 = −x + s give x = θA − θB = ln 4 / 2 = ln 2 and s = s1 − s2 = ln 2."""
    lus = [Lineup((0, 1), "field", 0, 1, 0), Lineup((1, 0), "field", 1, 0, 0)]
    w = np.array([[80.0, 20.0], [50.0, 50.0]])
    theta, seats, _ = fit_luce(w, lus, 2, 2)
    assert theta[0] - theta[1] == pytest.approx(math.log(2), abs=1e-7)
    assert seats[0] - seats[1] == pytest.approx(math.log(2), abs=1e-7)


def test_the_bot_that_wins_more_is_rated_higher():
    lus = design(3, 3)
    strength = np.array([1.0, 4.0, 2.0])  # bot 1 strongest, bot 0 weakest
    w = np.array([[strength[b] / strength[list(lu.seats)].sum() * 300 for b in lu.seats]
                  for lu in lus])
    theta, seats, _ = fit_luce(w, lus, 3, 3)
    assert theta[1] > theta[2] > theta[0]
    assert np.allclose(theta - theta.mean(), np.log(strength) - np.log(strength).mean())
    assert np.allclose(seats, 0.0, atol=1e-8)


def test_cluster_standard_error_by_hand():
    """Blocks of 2 deals with sums 1 and 3: mean 1, residuals −1 and +1,
    SE = sqrt(2/1 · 2) / 4 = 0.5."""
    s = cluster_mean(np.array([1.0, 3.0]), np.array([2.0, 2.0]))
    assert s.estimate == 1.0 and s.se == pytest.approx(0.5)
    assert s.ci_low == pytest.approx(1 - 1.959963984540054 * 0.5)


def test_identical_blocks_give_a_bootstrap_interval_of_width_zero():
    lus = design(2, 2)
    w = _wins(lus, 28 * 10)
    wb = np.stack([w / 10] * 10)
    out = analyse(LadderData(wb, np.full(10, 28.0), seed=3), ["A", "B"], lus, 2, resamples=50)
    top = out["ratings"][0]
    assert top["bot"] == "A"
    assert top["rating"].ci_low == pytest.approx(top["rating"].ci_high)
    assert top["rating"].estimate == pytest.approx(200 * math.log10(2), abs=1e-4)
    assert out["adjacent"][0]["separated"]
    # A in B's field: seat 1 3/4 vs B's self-play 3/5, seat 2 4/7 vs 2/5: mean gain
    # (3/20 + 6/35) / 2 = 0.160714...
    gain = next(g for g in out["gains"] if g["bot"] == "A")["gain"]
    assert gain.estimate == pytest.approx((3 / 20 + 6 / 35) / 2)


def test_bots_are_read_from_repeated_or_comma_lists_and_must_be_two_different():
    from analyzer.errors import UserError
    from analyzer.ladder import LadderGame

    game = LadderGame("g", "G", 2, lambda t, flag: t, lambda b: b, None)
    assert parse_bots(game, ["a,b", "c"]) == ["a", "b", "c"]
    with pytest.raises(UserError, match="at least two"):
        parse_bots(game, ["a"])
    with pytest.raises(UserError, match="twice"):
        parse_bots(game, ["a", "b,a"])


def test_seat_weights_self_play_and_win_shares_of_the_hand_case():
    """The hand case above (γ1/γ2 = 3/2): the model's seat weights are 3/5 and 2/5; A's mean
    win share over the six seats it takes in design(2, 2) is (3/5 + 2/5 + 3/4 + 4/7 + 4/7 +
    3/4) / 6; A's self-play wins seat 1 at 3/5 (a seat swap would read 2/5)."""
    lus = design(2, 2)
    w = _wins(lus, 28 * 10)
    out = analyse(LadderData(np.stack([w / 10] * 10), np.full(10, 28.0), seed=3), ["A", "B"],
                  lus, 2, resamples=20)
    weights = [s["weight"].estimate for s in out["seat_weights"]]
    assert weights == pytest.approx([3 / 5, 2 / 5], abs=1e-7)
    assert [s["seat"] for s in out["seat_weights"]] == [1, 2]
    a = next(r for r in out["ratings"] if r["bot"] == "A")
    assert a["mean_win_share"].estimate == pytest.approx((1 + 3 / 4 + 4 / 7 + 4 / 7 + 3 / 4) / 6)
    sp = next(s for s in out["self_play"] if s["bot"] == "A")["seats"]
    assert [s["seat"] for s in sp] == [1, 2]
    assert [s["win_rate"].estimate for s in sp] == pytest.approx([3 / 5, 2 / 5])


def _wilson_by_hand(k, n, z=1.959963984540054):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_paired_gains_per_seat_and_their_cluster_errors_by_hand():
    """Two players, three blocks of 2, 2 and 4 deals; win sums per block written out.
    A in B's field, seat 1 (line-up 2) minus B's self-play seat 1 (line-up 1): block
    differences 1, −1, 1: mean 1/8, residuals 1 − 2/8 = 0.75, −1.25, 1 − 4/8 = 0.5:
    SE = sqrt(3/2 · 2.375) / 8. Seat 2 (line-up 3 minus line-up 1, seat 2): 0, 2, 0: mean
    2/8, residuals −0.5, 1.5, −1: SE = sqrt(3/2 · 3.5) / 8. Their mean over seats per block is
    0.5, 0.5, 0.5: mean 1.5/8 = 0.1875, residuals 0.125, 0.125, −0.25,
    SE = sqrt(3/2 · 0.09375) / 8 = 0.046875. (B's self-play is uneven across seats, so a gain
    read against the other seat would differ.) A's self-play (line-up 0) wins 6 of 8 in seat 1:
    Wilson by hand."""
    lus = design(2, 2)
    assert [(lu.kind, lu.bot, lu.seat) for lu in lus[:4]] == [
        ("self", 0, -1), ("self", 1, -1), ("field", 0, 0), ("field", 0, 1)]
    nb = np.array([2.0, 2.0, 4.0])
    wb = np.zeros((3, len(lus), 2))
    wb[:, :, 0] = wb[:, :, 1] = nb[:, None] / 2  # every other line-up: an even split
    wb[:, 0] = [[2, 0], [1, 1], [3, 1]]  # A's self-play
    wb[:, 1] = [[1, 1], [2, 0], [2, 2]]  # B's self-play
    wb[:, 2] = [[2, 0], [1, 1], [3, 1]]  # A in seat 1, B in seat 2
    wb[:, 3] = [[1, 1], [0, 2], [2, 2]]  # B in seat 1, A in seat 2
    out = analyse(LadderData(wb, nb, seed=1), ["A", "B"], lus, 2, resamples=20)
    g = next(x for x in out["gains"] if x["bot"] == "A" and x["field"] == "B")
    seat1, seat2 = g["per_seat"]
    assert (seat1["seat"], seat2["seat"]) == (1, 2)
    assert seat1["gain"].estimate == pytest.approx(0.125)
    assert seat1["gain"].se == pytest.approx(math.sqrt(1.5 * 2.375) / 8)
    assert seat2["gain"].estimate == pytest.approx(0.25)
    assert seat2["gain"].se == pytest.approx(math.sqrt(1.5 * 3.5) / 8)
    assert g["gain"].estimate == pytest.approx(0.1875)
    assert g["gain"].se == pytest.approx(0.046875)
    assert g["gain"].ci_high == pytest.approx(0.1875 + 1.959963984540054 * 0.046875)
    assert g["gain"].n == 8
    a_self = next(s for s in out["self_play"] if s["bot"] == "A")["seats"]
    lo, hi = _wilson_by_hand(6, 8)
    assert a_self[0]["win_rate"].estimate == 0.75
    assert (a_self[0]["win_rate"].ci_low, a_self[0]["win_rate"].ci_high) == pytest.approx((lo, hi))
    assert a_self[1]["win_rate"].estimate == 0.25


def test_blocks_are_small_enough_for_thirty_of_them_when_the_deals_allow():
    from analyzer.ladder import MIN_BLOCKS, ladder_block

    assert MIN_BLOCKS == 30
    assert ladder_block(512, 2000) == 16  # capped by LADDER_BLOCK: 125 blocks
    assert ladder_block(512, 60) == 2  # 30 blocks
    assert ladder_block(14, 12) == 1  # 12 blocks of one deal, not one block of 12
    assert ladder_block(1, 10_000) == 1
    assert ladder_block(8, None) == 8


def test_one_block_has_no_interval_and_separates_nothing():
    """A single block leaves the bootstrap nothing to resample: every replicate is the fit
    itself, an interval of width 0 that would call any difference separated."""
    lus = design(2, 2)
    out = analyse(LadderData(_wins(lus)[None], np.array([280.0]), seed=3), ["A", "B"], lus, 2,
                  resamples=20)
    r = out["ratings"][0]["rating"]
    assert r.estimate == pytest.approx(200 * math.log10(2), abs=1e-4)
    assert (r.ci_low, r.ci_high) == (-math.inf, math.inf)
    assert not out["adjacent"][0]["separated"] and out["rough"]


def test_default_deals_are_fewer_when_a_bot_thinks():
    from analyzer.ladder import DEFAULT_DEALS, THINKING_DEALS, LadderGame, default_deals

    game = LadderGame("g", "G", 2, lambda t, flag: t, lambda b: b, None,
                      thinks=lambda b: b.startswith("search"))
    assert default_deals(game, ["heuristic,random"]) == DEFAULT_DEALS == 2000
    assert default_deals(game, ["heuristic", "search:9"]) == THINKING_DEALS == 60
    assert default_deals(game, ["heuristic"], field="search:9") == THINKING_DEALS


def test_a_gain_of_a_bot_that_never_wins_keeps_an_honest_interval():
    """A bot that never wins in 60 deals (3 seats): the cluster SE is 0, but the gain's interval
    must hold the Wilson interval of its share, 0 to z²/(n + z²) = 3.8415/63.8415 = 0.060172,
    shifted by the field's 1/3: [−1/3, −0.273161]."""
    from analyzer.ladder import cluster_mean, widen_at_the_edges

    d = cluster_mean(np.full(6, -10 / 3), np.full(6, 10.0))  # 6 blocks of 10 deals
    assert d.se == pytest.approx(0, abs=1e-12) and d.ci_high == pytest.approx(-1 / 3)
    g = widen_at_the_edges(d, 0.0, 60, 1 / 3)
    assert g.estimate == pytest.approx(-1 / 3) and g.ci_low == pytest.approx(-1 / 3)
    assert g.ci_high == pytest.approx(0.060172 - 1 / 3, abs=1e-6)
    # a bot that always wins: [1 − 0.060172, 1] shifted by 1/3
    top = widen_at_the_edges(cluster_mean(np.full(6, 20 / 3), np.full(6, 10.0)), 60.0, 60, 1 / 3)
    assert top.ci_low == pytest.approx(1 - 0.060172 - 1 / 3, abs=1e-6)
    # inside the edges the cluster interval stands, whatever Wilson says
    mid = cluster_mean(np.array([-5.0, 0, -5, 0, -5, 0]), np.full(6, 10.0))
    kept = widen_at_the_edges(mid, 15.0, 60, 0.5)
    assert (kept.ci_low, kept.ci_high) == (mid.ci_low, mid.ci_high)
