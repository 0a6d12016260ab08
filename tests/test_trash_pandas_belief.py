"""The belief about unseen cards (kernels/trash_pandas/belief.py, analyzer/games/trash_pandas/
belief.py): every deal conserves the cards and keeps what the seat saw, the bots' stash rule is
never broken, the sampler draws the stated law (checked by enumerating a small case by hand),
and the learning recovers a known tilt."""
import itertools
import math

import numpy as np
import pytest

from kernels.rng import seed_trial
from kernels.trash_pandas.belief import (BP_DOWN_OK, BP_LOGW, BP_STEPS, BP_XN, RULE_SIZE,
                                         params_size, public_view, rule_params, sample_world)
from kernels.trash_pandas.layout import DECK, DISC, GAIN, HAND, SC, STASH, UP

COPIES = [7, 6, 7, 6, 7, 7, 7, 6]  # the default deck file's counts (rules page)
BLAMMO, DOGGO, FEESH, KITTEH, PIE, NANNERS, SHINY, YUMYUM = range(8)
SCORING = [1, 0, 1, 0, 1, 1, 1, 1]  # Doggo and Kitteh score nothing (rules page)


def _view_3p():
    """A three-player view, built by hand: I am seat 1 (index 0)."""
    g = np.zeros((19, 8), dtype=np.int64)
    g[HAND + 0, BLAMMO], g[HAND + 0, FEESH] = 1, 2
    g[STASH + 0, PIE], g[STASH + 0, FEESH], g[UP + 0, PIE] = 1, 1, 1
    g[STASH + 1, SHINY] = g[UP + 1, SHINY] = 1  # seat 2: one face-up Shiny
    g[DISC, NANNERS], g[DISC, DOGGO] = 2, 1
    known = [1, 1, 3, 0, 1, 2, 1, 0]  # my hand + my stash + face-up + discard, by type
    pool = np.array([c - k for c, k in zip(COPIES, known)], dtype=np.int64)
    opp_hand = np.array([0, 4, 3, 0], dtype=np.int64)
    opp_down = np.array([0, 5, 6, 0], dtype=np.int64)
    left = int(pool.sum()) - 18
    g[SC, 0], g[SC, 2] = left, 3
    return g, pool, opp_hand, opp_down


def _bp(down_rows, xn=8, steps=0.0, logw=None):
    bp = np.zeros(params_size(xn))
    bp[BP_XN], bp[BP_STEPS] = xn, steps
    bp[BP_DOWN_OK:BP_DOWN_OK + 32] = np.asarray(down_rows, dtype=float).ravel()
    if logw is not None:
        bp[BP_LOGW:] = np.asarray(logw, dtype=float).ravel()
    return bp


def _draws(view, pool, oh, od, me, bp, n, key=7):
    s = np.zeros(4, dtype=np.uint64)
    k = np.array([key, 1, 2, 3], dtype=np.uint64)
    out = []
    for t in range(n):
        seed_trial(k, t, s)
        g = np.zeros((19, 8), dtype=np.int64)
        assert sample_world(g, view, pool, oh, od, me, bp, s)
        out.append(g)
    return np.array(out)


RULE = [SCORING] * 4
TILT = np.random.default_rng(3).normal(0, 1.0, size=(4, 2, 8, 8))


@pytest.mark.parametrize("bp", [_bp(np.ones((4, 8))), _bp(RULE), _bp(RULE, steps=20.0, logw=TILT)],
                         ids=["uniform", "rules", "tilted"])
def test_every_deal_conserves_the_cards_and_keeps_what_the_seat_saw(bp):
    view, pool, oh, od = _view_3p()
    for g in _draws(view, pool, oh, od, 0, bp, 300):
        for t in range(8):
            where = g[DISC, t] + g[DECK, t] + sum(g[HAND + q, t] + g[STASH + q, t]
                                                  for q in range(3))
            assert where == COPIES[t]
        assert (g >= 0).all()
        assert g[HAND + 1].sum() == 4 and g[HAND + 2].sum() == 3
        assert (g[STASH + 1] - g[UP + 1]).sum() == 5 and (g[STASH + 2] - g[UP + 2]).sum() == 6
        assert g[DECK].sum() == view[SC, 0] == g[SC, 0]
        for row in [HAND + 0, GAIN + 0, STASH + 0, DISC] + [UP + q for q in range(4)] + [SC]:
            assert (g[row] == view[row]).all(), row


@pytest.mark.parametrize("steps, logw", [(0.0, None), (20.0, TILT)], ids=["rules", "tilted"])
def test_no_zero_point_card_is_ever_dealt_face_down_under_the_stash_rule(steps, logw):
    view, pool, oh, od = _view_3p()
    worlds = _draws(view, pool, oh, od, 0, _bp(RULE, steps=steps, logw=logw), 400)
    down = worlds[:, STASH:STASH + 4] - worlds[:, UP:UP + 4]
    assert down[:, :, DOGGO].sum() == 0 and down[:, :, KITTEH].sum() == 0
    assert worlds[:, HAND + 1:HAND + 3, DOGGO].sum() > 0  # they are dealt, but not face down


def test_a_random_bot_may_hold_anything_face_down_and_the_kernel_rule_says_which():
    from analyzer.games.trash_pandas.belief import down_ok
    from analyzer.games.trash_pandas.bots import lineup_array
    from analyzer.games.trash_pandas.lineup import parse_lineup
    from analyzer.games.trash_pandas.score import deck_arrays

    lineup = parse_lineup("heuristic,heuristic,random", 3)
    deck = deck_arrays()
    bots = lineup_array([lineup])[0]
    bp = np.zeros(RULE_SIZE)
    rule_params(bp, bots, deck.pts, deck.per_card)
    rows = bp[BP_DOWN_OK:BP_DOWN_OK + 32].reshape(4, 8)
    assert rows[:3].tolist() == [SCORING, SCORING, [1] * 8]
    assert (down_ok(lineup, deck)[:3] == rows[:3]).all()
    view, pool, oh, od = _view_3p()
    worlds = _draws(view, pool, oh, od, 0, _bp(rows), 400)
    down = worlds[:, STASH:STASH + 4] - worlds[:, UP:UP + 4]
    assert down[:, 1, DOGGO].sum() == 0 and down[:, 2, DOGGO].sum() > 0


def _compositions(total, caps):
    """Every vector of len(caps) non-negative ints ≤ caps summing to total."""
    if len(caps) == 1:
        if total <= caps[0]:
            yield (total,)
        return
    for x in range(min(total, caps[0]) + 1):
        for rest in _compositions(total - x, caps[1:]):
            yield (x,) + rest


def test_the_sampler_draws_the_stated_law_on_a_case_enumerated_by_hand():
    """Three places per opponent side (two opponents: hand, face down) and the pile; every split
    of 6 unseen cards enumerated; P(x) ∝ Π_t pool_t!/Π x! · exp(Σ w) · [rule], compared with
    40,000 draws by a chi-square bound."""
    view = np.zeros((19, 8), dtype=np.int64)
    view[SC, 0], view[SC, 2] = 2, 3
    pool = np.zeros(8, dtype=np.int64)
    pool[BLAMMO], pool[FEESH], pool[PIE], pool[DOGGO] = 2, 2, 1, 1
    oh = np.array([0, 1, 1, 0], dtype=np.int64)
    od = np.array([0, 1, 1, 0], dtype=np.int64)
    logw = np.zeros((4, 2, 8, 8))
    logw[1, 1, FEESH] = [0, 1.2, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5]  # seat 2 face down likes Feesh
    logw[2, 0, BLAMMO] = [0, -0.7, -2.0, -2, -2, -2, -2, -2]  # seat 3 dislikes Blammo! in hand
    logw[2, 1, PIE] = [0, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9]
    bp = _bp(RULE, steps=20.0, logw=logw)
    types = [BLAMMO, DOGGO, FEESH, PIE]
    places = [(1, 0), (1, 1), (2, 0), (2, 1)]  # (seat, kind); the pile takes the rest
    law = {}
    for cols in itertools.product(*[list(_compositions(int(pool[t]), [1, 1, 1, 1, 2]))
                                    for t in types]):
        sizes = [sum(c[p] for c in cols) for p in range(5)]
        if sizes != [1, 1, 1, 1, 2]:
            continue
        if cols[types.index(DOGGO)][1] or cols[types.index(DOGGO)][3]:
            continue  # Doggo never face down
        weight = 1.0
        for t, c in zip(types, cols):
            weight *= math.factorial(int(pool[t])) / math.prod(math.factorial(x) for x in c)
            for p, (q, kind) in enumerate(places):
                weight *= math.exp(logw[q, kind, t, c[p]])
        law[cols] = weight
    z = sum(law.values())
    n = 40_000
    seen = dict.fromkeys(law, 0)
    for g in _draws(view, pool, oh, od, 0, bp, n, key=11):
        cols = tuple(tuple(int(x) for x in (g[HAND + 1, t], g[STASH + 1, t], g[HAND + 2, t],
                                            g[STASH + 2, t], g[DECK, t])) for t in types)
        seen[cols] += 1
    chi2 = sum((seen[k] - n * w / z) ** 2 / (n * w / z) for k, w in law.items())
    dof = len(law) - 1
    assert chi2 < dof + 5 * math.sqrt(2 * dof), (chi2, dof)
    top = max(law, key=law.get)
    assert abs(seen[top] / n - law[top] / z) < 0.02


def test_no_allowed_split_is_reported_not_dealt():
    from analyzer.games.trash_pandas.belief import Belief

    view = np.zeros((19, 8), dtype=np.int64)
    view[SC, 0], view[SC, 2] = 0, 2
    pool = np.zeros(8, dtype=np.int64)
    pool[DOGGO], pool[FEESH] = 1, 1
    oh = np.zeros(4, dtype=np.int64)
    od = np.array([0, 2, 0, 0], dtype=np.int64)  # two face down, one scoring card unseen
    g = np.zeros((19, 8), dtype=np.int64)
    s = np.ones(4, dtype=np.uint64)
    assert not sample_world(g, view, pool, oh, od, 0, _bp(RULE), s)
    assert sample_world(g, view, pool, oh, od, 0, _bp(np.ones((4, 8))), s)

    from types import SimpleNamespace

    pos = SimpleNamespace(players=2, me=0, pool=pool, opp_down=od)
    rule = Belief("rules", None, [0, 0], np.array(RULE, dtype=float))
    assert not rule.feasible(pos)
    pos.opp_down = np.array([0, 1, 0, 0])
    assert rule.feasible(pos)


def test_public_view_hides_exactly_the_hidden_cards():
    g = np.zeros((19, 8), dtype=np.int64)
    g[HAND + 0, FEESH] = 2
    g[HAND + 1, DOGGO], g[HAND + 1, PIE], g[GAIN + 1, PIE] = 1, 2, 1
    g[STASH + 1, SHINY], g[UP + 1, SHINY] = 3, 1
    g[DECK, BLAMMO], g[DISC, NANNERS] = 4, 1
    g[SC, 0], g[SC, 2] = 4, 2
    view = np.zeros_like(g)
    pool = np.zeros(8, dtype=np.int64)
    oh, od = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64)
    public_view(g, 0, view, pool, oh, od)
    assert view[HAND + 1].sum() == 0 and view[GAIN + 1].sum() == 0 and view[DECK].sum() == 0
    assert view[STASH + 1].tolist() == [0, 0, 0, 0, 0, 0, 1, 0]
    assert (view[HAND + 0] == g[HAND + 0]).all() and view[SC, 0] == 4
    assert pool.tolist() == [4, 1, 0, 0, 2, 0, 2, 0]  # pile 4 Blammo!, hand 1+2, 2 Shiny down
    assert oh.tolist() == [0, 3, 0, 0] and od.tolist() == [0, 2, 0, 0]


def test_basis_and_parameter_layout_by_value():
    from analyzer.games.trash_pandas.belief import NF, Belief, basis

    assert basis([0, 1, 3]).tolist() == [[0, 0, 0], [1, 1, 0], [3, 1, 1]]
    theta = np.zeros((6, 4, 4, 3, 2, 8, NF))
    # stage 1 (4-7 cards left), group 0, place 1 (seat 2 seen from seat 1), aim 0, face down
    theta[1, 0, 1, 0, 1, FEESH] = [0.5, 2.0, -1.0]
    theta[0, 0, 1, 0, 0, DOGGO] = [1.0, 0.0, 0.0]  # stage 0 only: not read at 5 cards left
    b = Belief("model", theta, [0, 0, 0], np.array(RULE, dtype=float), xn=8,
               aims_by=["leader"] * 3)
    view = np.zeros((19, 8), dtype=np.int64)
    view[SC, 0], view[SC, 2] = 5, 3
    bp = b.params(view, 0)
    at = BP_LOGW + ((1 * 2 + 1) * 8 + FEESH) * 8
    assert bp[at:at + 4].tolist() == [0.0, 2.5, 2.0, 2.5]  # θ·φ(c), c = 0..3
    assert bp[BP_LOGW:BP_LOGW + 16 * 8].sum() == 0.0  # my rows stay 0
    assert bp[BP_LOGW + ((1 * 2) * 8 + DOGGO) * 8 + 1] == 0.0
    assert bp[BP_STEPS] > 0 and bp[BP_XN] == 8


def test_the_ranking_fit_recovers_a_known_tilt():
    """Synthetic groups: the true entry is drawn by softmax(A·θ*) and moved to position 0; the
    fit must find θ* (within its sampling error) from 20,000 groups."""
    from analyzer.games.trash_pandas.belief import fit_ranking

    rng = np.random.default_rng(5)
    theta = np.array([0.8, -1.2, 0.3])
    a = rng.integers(0, 3, size=(20_000, 6, 3)).astype(float)
    p = np.exp(a @ theta)
    p /= p.sum(axis=1, keepdims=True)
    pick = (p.cumsum(axis=1) > rng.random((20_000, 1))).argmax(axis=1)
    rows = np.arange(20_000)
    a[rows, 0], a[rows, pick] = a[rows, pick].copy(), a[rows, 0].copy()
    got = fit_ranking(a, 1e-6)
    assert np.abs(got - theta).max() < 0.05, got


def test_self_play_states_are_whole_games_and_the_true_split_is_read_from_them():
    from analyzer.games.trash_pandas import belief as B
    from analyzer.games.trash_pandas.lineup import parse_lineup
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.games.trash_pandas.whole import GameSetup

    setup = GameSetup(TrashPandasRules(), 3, [parse_lineup(None, 3)])
    old = B.GAMES
    B.GAMES = 40
    try:
        states, seats = B.self_play_states(setup, setup.lineups[0])
        hid = B.hidden_split_counts(setup, setup.lineups[0], states[:50], seats[:50])
    finally:
        B.GAMES = old
    assert len(states) > 100
    for g in states:
        for t in range(8):
            assert g[DISC, t] + g[DECK, t] + sum(g[HAND + q, t] + g[STASH + q, t]
                                                 for q in range(3)) == COPIES[t]
        assert g[DECK].sum() == g[SC, 0]
    first = states[:, SC, 0].argmax()
    assert seats[first] == 0 and states[first, SC, 0] == 53 - 3 - 4 - 5  # game 0, turn 0
    for i in range(50):
        me = seats[i]
        for q in range(3):
            want_hand = 0 if q == me else states[i, HAND + q]
            want_down = 0 if q == me else states[i, STASH + q] - states[i, UP + q]
            assert (hid[i, 0, q, 0] == want_hand).all() and (hid[i, 0, q, 1] == want_down).all()
        for j in range(1, hid.shape[1]):  # the contrast splits keep the sizes and the rule
            for q in range(3):
                assert hid[i, j, q, 0].sum() == hid[i, 0, q, 0].sum()
                assert hid[i, j, q, 1, DOGGO] == 0 and hid[i, j, q, 1, KITTEH] == 0


def test_aims_count_the_paws_aimed_at_each_seat_by_hand():
    """Seats 1-4 with stashes 5, 9, 2, 9 and hands 3, 0, 4, 2 cards; Paw aims at the opponent
    with a hand card and the most stashed cards, ties to the larger hand. Seat 1 (index 0): of
    seats 3 (stash 2) and 4 (stash 9) it takes seat 4; seat 2: seat 4 (9 beats 5); seat 3: seat
    4; seat 4: seat 1 (5 beats 2; seat 2 has no hand card). τ = 1, 0, 0, 3 -> a = 1, 0, 0, 2."""
    from analyzer.games.trash_pandas.belief import aims

    stash, hand = [5, 9, 2, 9], [3, 0, 4, 2]
    assert aims(stash, hand, ["leader"] * 4) == [1, 0, 0, 2]
    # seat 4 by the biggest hand: seat 3 (4 cards) over seat 1 (3) -> τ = 0, 0, 1, 3
    assert aims(stash, hand, ["leader"] * 3 + ["biggest-hand"]) == [0, 0, 1, 2]
    # a random bot aims at nobody in particular: seat 4's Paw no longer counts for seat 1
    assert aims(stash, hand, ["leader"] * 3 + [None]) == [0, 0, 0, 2]
    # a tie on stashes goes to the larger hand (seat 1 sees seats 2 and 4 at 9 and 9)
    assert aims([0, 9, 0, 9], [1, 3, 1, 2], ["leader"] * 4)[1] >= 1
    assert aims([0, 9, 0, 9], [1, 3, 1, 2], ["leader"] * 4)[3] == 1  # seat 2 takes seat 4
    assert aims([3, 7], [2, 5], ["leader"] * 2) == [0, 0]  # 2 players: always 0


@pytest.mark.parametrize("players", [3, 4])
def test_aims_agree_with_the_engines_paw_target(players):
    """The aims re-state the engine's steal_target (kernels/trash_pandas/whole_bots.py) in
    Python: on random sizes, ties included, each seat's Paw lands where the kernel's does."""
    from analyzer.games.trash_pandas.belief import aims
    from analyzer.games.trash_pandas.bots import KNOBS, lineup_array
    from analyzer.games.trash_pandas.lineup import parse_lineup
    from kernels.trash_pandas.whole_bots import steal_target

    rng = np.random.default_rng(players)
    for rule in ("leader", "biggest-hand"):
        lineup = parse_lineup(f"heuristic:steal-from={rule}", players)
        bots = lineup_array([tuple(lineup)])[0]
        assert bots[0, KNOBS["steal-from"][0]] == (0 if rule == "leader" else 1)
        s = np.zeros(4, dtype=np.uint64)
        for _ in range(300):
            stash = rng.integers(0, 4, players).tolist()
            hand = rng.integers(0, 3, players).tolist()
            g = np.zeros((19, 8), dtype=np.int64)
            g[SC, 2] = players
            for q in range(players):
                g[STASH + q, PIE], g[HAND + q, BLAMMO] = stash[q], hand[q]
            tau = [0] * players
            for p in range(players):
                q = steal_target(g, p, bots[p], False, s)
                if q >= 0:
                    tau[q] += 1
            assert aims(stash, hand, [rule] * players) == [min(x, 2) for x in tau]


def test_split_features_put_each_opponent_in_its_place_and_aim_class():
    """Two 3-player states, by hand: state 0 seen from seat 1 (index 0), state 1 from seat 3
    (index 2). Seat 2 (index 1) is place 1 from seat 1 and place 2 from seat 3."""
    from analyzer.games.trash_pandas.belief import NF, basis, split_features

    hid = np.zeros((2, 2, 4, 2, 8), dtype=np.int8)
    hid[0, 0, 1, 0, YUMYUM] = 2  # state 0, true split: seat 2 holds two Yum Yum
    hid[0, 1, 2, 0, KITTEH] = 1  # state 0, contrast split: seat 3 holds a Kitteh
    hid[1, 0, 1, 0, YUMYUM] = 1  # state 1, true split: seat 2 holds one Yum Yum
    aim = np.array([[0, 2, 0], [1, 0, 0]])  # seat 2 aimed at by 2 in state 0, none in state 1
    feats, classes = split_features(hid, [0, 2], [0, 0, 0], aim)
    # state 0: seat 2 (0, 1, 2), seat 3 (0, 2, 0); state 1: seat 1 (0, 1, 1), seat 2 (0, 2, 0)
    assert classes == [(0, 1, 1), (0, 1, 2), (0, 2, 0)]
    f = feats.reshape(2, 2, 3, 2, 8, NF)
    assert f[0, 0, 1, 0, YUMYUM].tolist() == basis(2).tolist() == [2, 1, 1]
    assert f[0, 1, 2, 0, KITTEH].tolist() == [1, 1, 0]
    assert f[1, 0, 2, 0, YUMYUM].tolist() == [1, 1, 0]  # seat 2 seen from seat 3: place 2
    assert f.sum() == 2 + 1 + 1 + 1 + 1 + 1 + 1  # nothing else anywhere
    # 2 players: one class, Φ the opponent's basis (the fit of the belief before places)
    hid2 = np.zeros((1, 1, 4, 2, 8), dtype=np.int8)
    hid2[0, 0, 0, 1, PIE] = 3
    feats2, classes2 = split_features(hid2, [1], [0, 0], np.zeros((1, 2), dtype=np.int64))
    assert classes2 == [(0, 1, 0)]
    assert feats2.reshape(2, 8, NF)[1, PIE].tolist() == [3, 1, 1]


def test_params_read_the_weights_of_each_opponents_place_and_aim():
    """4 players, I am seat 2 (index 1). Stashes 5, 9, 2, 9 (seat 2's own 9 cards in its rows;
    the others' face down), hands 3, 0, 4, 2: aims 1, 0, 0, 2 (test above). The weights of
    seat 4 (index 3: place 2, aim 2) and of seat 1 (index 0: place 3, aim 1) come from their
    own cells; seat 3 (place 1, aim 0) reads zeros."""
    from analyzer.games.trash_pandas.belief import NF, Belief

    theta = np.zeros((6, 4, 4, 3, 2, 8, NF))
    theta[0, 0, 2, 2, 0, KITTEH] = [-1.0, 0.0, 0.0]  # place 2, aim 2, hand
    theta[0, 0, 3, 1, 0, YUMYUM] = [0.0, 0.5, 0.0]  # place 3, aim 1, hand
    theta[0, 0, 2, 0, 0, KITTEH] = [9.0, 9.0, 9.0]  # place 2 but aim 0: never read here
    b = Belief("model", theta, [0, 0, 0, 0], np.array(RULE, dtype=float), xn=8,
               aims_by=["leader"] * 4)
    view = np.zeros((19, 8), dtype=np.int64)
    view[SC, 0], view[SC, 2] = 2, 4
    view[STASH + 1, PIE] = 9
    bp = b.params(view, 1, np.array([3, 0, 4, 2]), np.array([5, 0, 2, 9]))

    def cell(q, kind, t):
        at = BP_LOGW + ((q * 2 + kind) * 8 + t) * 8
        return bp[at:at + 8].tolist()

    assert cell(3, 0, KITTEH)[:3] == [0.0, -1.0, -2.0]
    assert cell(0, 0, YUMYUM)[:3] == [0.0, 0.5, 0.5]
    assert cell(2, 0, KITTEH) == [0.0] * 8
    assert bp[BP_LOGW:].sum() == -1.0 * sum(range(8)) + 0.5 * 7


def test_the_block_fit_takes_the_same_newton_steps_as_the_dense_one():
    """Features in 4 blocks of 3 columns, each state touching 2 of them (like opponents'
    classes) or none: the block-wise Hessian gives the dense fit's θ, and blocks no state touches stay
    at 0 (the L2 term alone)."""
    from analyzer.games.trash_pandas.belief import fit_ranking

    rng = np.random.default_rng(8)
    n, j = 3000, 5
    a = np.zeros((n, j, 12))
    for i in range(n):
        for b in rng.choice(3, size=2, replace=False):  # block 3 is never touched
            a[i, :, 3 * b:3 * b + 3] = rng.integers(0, 3, size=(j, 3))
    a[:, 0, 0] += 1.0  # the true split holds one more of column 0: θ[0] > 0
    a[:100] = 0.0  # states whose splits are all empty (opponents with nothing hidden)
    dense = fit_ranking(a, 1.0)
    blocks = fit_ranking(a, 1.0, block=3)
    assert np.abs(dense - blocks).max() < 1e-9
    assert dense[0] > 0.5 and (blocks[9:] == 0).all()


def test_restricted_stashes_are_dealt_first_and_the_start_split_is_the_uniform_deal():
    """Seat 2 (index 1) plays a bot that stashes only scoring types face down; seat 3 (index 2)
    a random bot that may stash anything. Unseen: Feesh ×2 (scoring) and Doggo ×2 (no points);
    seat 2 holds one card face down, seat 3 two, the pile one. By hand, over the four distinct
    cards: seat 2's card is one of the two Feesh (2 ways), seat 3 takes two of the other three
    (3 ways), the pile the last: 6 allowed arrangements, equally likely under the uniform deal
    restricted to them. So seat 2 always holds a Feesh, and seat 3 holds Doggo + Doggo in 2 of
    the 6 (1/3) and Feesh + Doggo in 4 (2/3). Dealing seat 3 first would leave seat 2 no
    Feesh in 1 deal of 6 (no split found) and skew the rest. No chain steps: the start split is
    the world (module doc: exact when every restricted stash forbids the same types)."""
    view = np.zeros((19, 8), dtype=np.int64)
    view[SC, 0], view[SC, 2] = 1, 3
    pool = np.zeros(8, dtype=np.int64)
    pool[FEESH], pool[DOGGO] = 2, 2
    oh = np.zeros(4, dtype=np.int64)
    od = np.array([0, 1, 2, 0], dtype=np.int64)
    rows = [SCORING, SCORING, [1] * 8, SCORING]
    n = 3000
    worlds = _draws(view, pool, oh, od, 0, _bp(rows), n, key=5)
    down = worlds[:, STASH:STASH + 4] - worlds[:, UP:UP + 4]
    assert (down[:, 1, FEESH] == 1).all() and (down[:, 1].sum(axis=1) == 1).all()
    both_doggo = int((down[:, 2, DOGGO] == 2).sum())
    se = math.sqrt((1 / 3) * (2 / 3) / n)
    assert abs(both_doggo / n - 1 / 3) < 4 * se, (both_doggo, n)
    assert ((down[:, 2, DOGGO] == 2) == (worlds[:, DECK, FEESH] == 1)).all()  # the pile: the rest


def test_a_count_past_the_last_cell_of_a_weight_row_reads_that_last_cell():
    """``w[q, kind, t, x]`` is read at ``min(x, XN − 1)`` (module doc). Two players, XN = 2:
    seat 2 holds two unseen cards in hand, the pile one; unseen Feesh ×2 and Pie ×1. By hand:
    the uniform deal gives seat 2 Feesh + Feesh with probability C(2,2)/C(3,2) = 1/3. The tilt
    gives a Feesh in seat 2's hand log-weight 1.0 from one card on (cells [0, 1.0]: two Feesh
    read the last cell too), so both splits (one Feesh, two Feesh) carry the same factor e and
    the law stays 1/3 against 2/3. The row after Feesh's (Kitteh's, no card in play) holds 3.0:
    reading one cell too far would tilt Feesh + Feesh by e³ against e."""
    view = np.zeros((19, 8), dtype=np.int64)
    view[SC, 0], view[SC, 2] = 1, 2
    pool = np.zeros(8, dtype=np.int64)
    pool[FEESH], pool[PIE] = 2, 1
    oh = np.array([0, 2, 0, 0], dtype=np.int64)
    od = np.zeros(4, dtype=np.int64)
    logw = np.zeros((4, 2, 8, 2))
    logw[1, 0, FEESH] = [0.0, 1.0]
    logw[1, 0, KITTEH] = [3.0, 3.0]
    bp = _bp(np.ones((4, 8)), xn=2, steps=20.0, logw=logw)
    n = 20_000
    worlds = _draws(view, pool, oh, od, 0, bp, n, key=13)
    two = int((worlds[:, HAND + 1, FEESH] == 2).sum())
    se = math.sqrt((1 / 3) * (2 / 3) / n)
    assert abs(two / n - 1 / 3) < 4 * se, (two, n)
