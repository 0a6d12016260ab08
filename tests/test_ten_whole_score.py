"""Ten whole-game scoring: the slot DP (kernels/ten/whole_slots.py) equals the wild search
(kernels/ten/whole_score.py) on random collections, and both equal the independent matching of
`ten score` (analyzer/games/ten/score.py); the marginal values of a buy (one number card) and of
a colour wild, computed from the DP of the other colours, equal the difference of two scores."""
import numpy as np
import pytest

from analyzer.games.ten.cards import codes_of
from analyzer.games.ten.rules import parse_card
from analyzer.games.ten.score import score_collection
from analyzer.games.ten.whole import score_tables
from kernels.ten.whole_score import WS_SIZE, score_row, score_search
from kernels.ten.whole_slots import O_CW, O_M, SOFF, others, prepare, score_colour, score_slots


def _random_rows(n, seed, max_wilds=9):
    rng = np.random.default_rng(seed)
    rows = np.zeros((n, 55), dtype=np.int64)
    for i in range(n):
        for t in rng.integers(0, 36, rng.integers(0, 30)):
            rows[i, t] = 1  # a collection holds no identical number cards
        for t in rng.integers(41, 55, rng.integers(0, max_wilds + 1)):
            rows[i, t] += 1
    return rows


def test_slot_dp_equals_search_on_random_collections():
    tabs = score_tables()
    ws = np.zeros(WS_SIZE, dtype=np.int64)
    compared = fallback = 0
    for row in _random_rows(5_000, 1):
        slots = score_slots(row, tabs[0], tabs[1:], ws)
        if slots < 0:
            fallback += 1
            continue
        assert slots == score_search(row, tabs, ws), codes_of(row)
        compared += 1
    assert compared > 4_000 and fallback > 0  # both paths of score_row are exercised


def test_kernel_scores_equal_ten_score():
    tabs = score_tables()
    ws = np.zeros(WS_SIZE, dtype=np.int64)
    for row in _random_rows(300, 2, max_wilds=7):
        cards = [parse_card(c) for c in codes_of(row)]
        assert score_row(row, tabs, ws) == score_collection(cards)["score"], codes_of(row)


@pytest.mark.parametrize("seed", [3, 4])
def test_marginal_values_equal_score_differences(seed):
    tabs = score_tables()
    ws = np.zeros(WS_SIZE, dtype=np.int64)
    checked = 0
    for row in _random_rows(400, seed, max_wilds=6):
        base = score_row(row, tabs, ws)
        plus = []
        for t in [t for t in range(36) if row[t] == 0] + [41, 42, 43, 44]:
            row[t] += 1
            plus.append((t, score_row(row, tabs, ws)))
            row[t] -= 1
        if prepare(row, tabs[0], tabs[1:], ws, SOFF) != -1:
            continue  # no number or full wild (or too many): the engine uses other paths
        for t, want in plus:
            c = t // 9 if t < 36 else t - 41
            others(c, ws, SOFF)
            if t < 36:
                got = score_colour(c, ws[O_M + c] | (1 << (t % 9)), ws[O_CW + c], 0, tabs[1:], ws,
                                   SOFF)
            else:
                got = score_colour(c, ws[O_M + c], ws[O_CW + c] + 1, 0, tabs[1:], ws, SOFF)
            assert got == want, (codes_of(row), t)
            checked += 1
        assert base >= 0
    assert checked > 1_000


@pytest.mark.parametrize("seed", [5, 6])
def test_seat_regions_follow_growth_and_give_exact_gains(seed):
    """The engine's per-seat regions (kernels/ten/whole_seats.py): after random growth steps
    (number cards, colour wilds: ``grown``) and other changes (number and full wilds: ``forget``),
    every marginal value it reports (a number card, any wild, a tableau taken for numbers) and
    the seat's score equal differences of fresh ``score_row`` results."""
    from kernels.ten.whole_layout import ROW_TABLEAU
    from kernels.ten.whole_seats import (card_bound, cached_score, card_gain, forget, forget_all,
                                         grown, numbers_score, wild_gain, wild_gain_above)

    tabs = score_tables()
    ws = np.zeros(WS_SIZE, dtype=np.int64)
    tk = np.full(17, -1, dtype=np.int64)
    rng = np.random.default_rng(seed)
    checked = 0
    for row in _random_rows(150, seed, max_wilds=5):
        cards = np.zeros((9, 55), dtype=np.int64)
        cards[1] = row
        forget_all(ws)
        tk[12:17] = -1
        for _ in range(6):
            fresh = score_row(cards[1].copy(), tabs, ws)
            assert cached_score(1, cards, tk, tabs, ws) == fresh, codes_of(cards[1])
            for t in [t for t in range(36) if cards[1, t] == 0]:
                cards[1, t] += 1
                want = score_row(cards[1].copy(), tabs, ws) - fresh
                cards[1, t] -= 1
                assert card_gain(1, t, cards, tk, tabs, ws) == want, (codes_of(cards[1]), t)
                assert card_bound(1, t, cards, tabs, ws) >= want, (codes_of(cards[1]), t)
                checked += 1
            for w in range(41, 55):
                cards[1, w] += 1
                want = score_row(cards[1].copy(), tabs, ws) - fresh
                cards[1, w] -= 1
                assert wild_gain(1, w, cards, tk, tabs, ws) == want, (codes_of(cards[1]), w)
                floor = int(rng.integers(-1, 12))  # exact above the floor, else within it
                got = wild_gain_above(1, w, floor, cards, tk, tabs, ws)
                assert got == want if want > floor else got <= floor, (codes_of(cards[1]), w)
            cards[ROW_TABLEAU] = 0
            for t in rng.integers(0, 36, rng.integers(1, 4)):
                cards[ROW_TABLEAU, t] += 1
            grown_row = cards[1] + cards[ROW_TABLEAU]
            want = score_row(grown_row, tabs, ws)
            assert numbers_score(1, cards, tk, tabs, ws) == want, codes_of(grown_row)
            if rng.integers(0, 3) > 0:  # grow: take the tableau or a colour wild
                if rng.integers(0, 2):
                    cards[1] = grown_row
                else:
                    cards[1, 41 + rng.integers(0, 4)] += 1
                grown(1, -1 if rng.integers(0, 2) else score_row(cards[1].copy(), tabs, ws), cards,
                      tk, tabs, ws)
            else:  # a number or full wild
                cards[1, 45 + rng.integers(0, 10)] += 1
                forget(1, -1, tk, ws)
    assert checked > 10_000


def test_idle_gain_is_the_largest_gain_that_cannot_beat_the_bid():
    """``idle_gain(cur, tpp)``: ⌊g · tpp⌋ ≤ cur at g and > cur at g + 1 (the auction's own
    float expression), so a wild gain up to it never changes a value bid."""
    from kernels.ten.whole_decisions import idle_gain

    for tpp in (0.3, 0.7, 1.0, 1.5, 2.0, 3.0, 10.0 / 3.0):
        for cur in range(0, 40):
            g = idle_gain(cur, tpp)
            assert np.floor(g * tpp) <= cur < np.floor((g + 1) * tpp), (cur, tpp, g)
    assert idle_gain(5, 0.0) == -1
