"""The pure-Python Go-Stop scorer (analyzer/games/gostop/score.py, what `gostop score` runs) gives
the same counters, points, reading of 09A and payments as the Numba kernels the deal engine uses
(kernels/gostop/score.py), on random piles, rule sets and flags.

The kernel side is driven here the way the deal engine drives it: one state array with the rules
vector, pile counters filled by ``stats_add`` and per-seat variables, then ``settle``.
"""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.games.gostop import score as SC
from analyzer.games.gostop.rules import GoStopRules, rules_vector
from kernels.gostop import score as K
from kernels.gostop.state import new_state, views


def kernel_state(rules, players, piles, go_count=0, shaken=0, bombs=0, opponent_gos=()):
    rv = rules_vector(rules)
    rv[K.R_NP] = players
    S = new_state(rv, np.zeros((K.MAXP, K.NPOL), np.int64))
    PS, PV, _ = views(S)
    PV[:, K.V_FIRSTGO] = K.NO_GO
    for p, cards in enumerate(piles):
        for c in cards:
            K.stats_add(S, p, np.int64(c), np.int64(1))
    PV[0, K.V_GO], PV[0, K.V_SHAKES], PV[0, K.V_BOMBS] = go_count, shaken, bombs
    for i, g in enumerate(opponent_gos):
        PV[i + 1, K.V_GO] = g
        if g > 0:
            PV[i + 1, K.V_FIRSTGO] = i
    return S, PS


@st.composite
def deals(draw):
    rules = GoStopRules(
        players=draw(st.sampled_from((2, 3))),
        jokers=tuple(draw(st.lists(st.integers(1, 5), max_size=5))),
        sake_cup=draw(st.sampled_from(("animal", "flex"))),
        go_multiplier=draw(st.sampled_from(("source", "korean", "literal_gt3", "cap2"))),
        nagari_multiplier=draw(st.sampled_from(("once", "stack"))),
        bomb_bonus=draw(st.sampled_from(("none", "korean"))),
        pibak_threshold=draw(st.integers(0, 12)),
        pibak_exempt_zero=draw(st.booleans()),
        go_bak=draw(st.booleans()),
        four_brights=draw(st.sampled_from((4, 5))))
    deck = list(range(48 + len(rules.jokers)))
    order = draw(st.permutations(deck))
    sizes = [draw(st.integers(0, 30))] + [draw(st.integers(0, 12))
                                          for _ in range(rules.players - 1)]
    piles, at = [], 0
    for k in sizes:
        piles.append(sorted(order[at:at + k]))
        at += k
    flags = dict(go_count=draw(st.integers(0, 10)), shaken=draw(st.integers(0, 4)),
                 bombs=draw(st.integers(0, 4)), nagari=draw(st.integers(0, 20)),
                 opponent_gos=[draw(st.integers(0, 3)) for _ in range(rules.players - 1)])
    return rules, piles, flags


@settings(max_examples=400, deadline=None)
@given(deals())
def test_counters_and_points_match_the_kernels(case):
    rules, piles, _flags = case
    S, PS = kernel_state(rules, rules.players, piles)
    for p, cards in enumerate(piles):
        assert SC.pile_stats(cards, rules) == [int(x) for x in PS[p]]
        stats = SC.pile_stats(cards, rules)
        for as_junk in (0, 1):
            assert SC.score_reading(stats, rules, as_junk) == K.score_reading(S, p, as_junk)
        assert SC.score_cards(cards, rules)["points"] == K.best_score(S, p)


@settings(max_examples=400, deadline=None)
@given(deals())
def test_payments_match_the_kernels_settle(case):
    rules, piles, f = case
    win, opps = piles[0], piles[1:]
    S, _PS = kernel_state(rules, rules.players, piles, f["go_count"], f["shaken"], f["bombs"],
                          f["opponent_gos"])
    out = np.zeros(3, dtype=np.int64)
    reading = int(K.settle(S, 0, rules.players, f["nagari"], out))
    got = SC.payments(win, opps, rules, f["go_count"], f["shaken"], f["bombs"], f["nagari"],
                      f["opponent_gos"])
    assert got["reading"] == reading
    assert got["total"] == out[0]
    assert [row["pays"] for row in got["payments"]] == [-int(x) for x in out[1:rules.players]]
    dbl = f["shaken"] + (f["bombs"] if rules.bomb_bonus == "korean" else 0)
    nf = int(K.nagari_factor(f["nagari"], S))
    for row in got["payments"]:
        assert row["amount"] == K.pay_one(S, 0, reading, f["go_count"], dbl, nf, row["opponent"])
    assert got["base"] == K.score_reading(S, 0, reading)
