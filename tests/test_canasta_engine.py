"""Railroad Canasta round engine (kernels/canasta/): rules examples R8/R9 on crafted states,
exact counting against hand-derived binomial formulas, plan legality, property tests over
thousands of seeded rounds, Monte Carlo vs exact, determinism across thread counts."""
import random
from math import comb

import numba
import numpy as np
import pytest

from analyzer.games.canasta import play as M
from analyzer.games.canasta.decide import decide
from analyzer.games.canasta.lineup import parse_policies, parse_policy
from analyzer.games.canasta.rules import PER_SHARE, VALUES, CanastaRules
from analyzer.games.canasta.score import classify_meld
from analyzer.rng import block_keys
from analyzer.runner import RunSpec
from kernels.canasta import engine as K
from kernels.canasta.exact import exact_deal_probability, max_initial_value

R2 = CanastaRules()


def state(P=2, rules=R2):
    rp, thr, reqv = M.rules_arrays(rules)
    hand, kit, un, can, pl, mcnt, stock, pile, g = K.new_state(P)
    return dict(rp=rp, thr=thr, reqv=reqv, hand=hand, kit=kit, un=un, can=can, pl=pl,
                mcnt=mcnt, stock=stock, pile=pile, g=g, tmp=np.zeros(K.NT, np.int64),
                out=np.zeros((K.NT, 3), np.int64), viol=np.zeros(K.NV, np.int64))


def add(arr, p, text):
    from analyzer.games.canasta.rules import card_types

    for c in card_types(text):
        arr[p, c] += 1


def set_pile(s, text, frozen=False):
    from analyzer.games.canasta.rules import card_types

    cards = card_types(text)
    for c in cards:
        s["pile"][c] += 1
    s["g"][K.G_PN] = len(cards)
    s["g"][K.G_TOP] = cards[-1]
    s["g"][K.G_FROZEN] = int(frozen)


def take(s, p=0, free7=False):
    return K.take_option(p, s["hand"], s["un"], s["can"], s["pl"], s["rp"], s["pile"], s["g"],
                         free7, s["tmp"], s["out"])


# --------------------------------------------------------------------------- R8
def test_r8_pair_unfrozen_and_initial_requirement():
    s = state()
    set_pile(s, "4C 6D 9S")
    add(s["hand"], 0, "9H 9D 4S 5S 6S")
    s["pl"][0, K.C_MELDED] = 1
    assert take(s) == 2  # the natural pair
    s["pl"][0, K.C_MELDED] = 0
    s["pl"][0, K.C_REQ] = 50
    assert take(s) == 0  # 9-9-9 is only 30
    add(s["hand"], 0, "KS KH KD")
    assert take(s) == 3  # 9-9-9 (30) + K-K-K (30) = 60 >= 50
    K.take_pile(0, 3, s["hand"], s["un"], s["can"], s["pl"], s["mcnt"], s["rp"], s["pile"],
                s["g"], s["out"], s["viol"])
    assert s["un"][0, 9, 0] == 3 and s["un"][0, 13, 0] == 3
    assert s["pl"][0, K.C_MVAL] == 60 and s["g"][K.G_PN] == 0 and s["g"][K.G_FROZEN] == 0
    assert s["hand"][0, 4] == 2 and s["hand"][0, 6] == 2  # 4C, 6D from the pile joined
    assert s["viol"].sum() == 0


def test_r8_add_to_meld_unfrozen_only():
    s = state()
    set_pile(s, "4C 9S")
    add(s["hand"], 0, "4S 5S 6S")
    s["pl"][0, K.C_MELDED] = 1
    s["un"][0, 9] = (4, 0, 0)
    assert take(s) == 1  # unfrozen: the top card joins the unfinished 9-meld
    s["g"][K.G_FROZEN] = 1
    add(s["hand"], 0, "9H")
    assert take(s) == 0  # frozen needs a natural pair
    add(s["hand"], 0, "9D")
    assert take(s) == 2  # pair + top join the 4-card meld: 7, room for 3


def test_r8_finished_canasta_and_blocked_tops():
    s = state()
    set_pile(s, "4C 9S")
    add(s["hand"], 0, "9H 4S 5S 6S")
    s["pl"][0, K.C_MELDED] = 1
    s["can"][0, K.CT_RED] = 1  # the 9s are a closed canasta: no unfinished 9-meld
    assert take(s) == 0
    for top in ("3S", "2C", "JK", "3H"):
        s2 = state()
        set_pile(s2, f"9C {top}", frozen=top[0] in "2J")
        add(s2["hand"], 0, "9H 9D 4S 5S 6S " + (top if top[0] != "3" else ""))
        s2["pl"][0, K.C_MELDED] = 1
        assert take(s2) == 0, top


def test_natural_plus_wild_never_takes():
    s = state()
    set_pile(s, "4C 9S")
    add(s["hand"], 0, "9H 2D 4S 5S 6S")
    s["pl"][0, K.C_MELDED] = 1
    assert take(s) == 0


def run_turn(s, skip_draw=True):
    return K.play_turns(s["hand"], s["kit"], s["un"], s["can"], s["pl"], s["mcnt"], s["stock"],
                        s["pile"], s["g"], s["rp"], np.array([parse_policy("greedy").row()] * 2),
                        s["viol"], s["tmp"], s["out"], skip_draw, -1, -1, 0, 1)


# --------------------------------------------------------------------------- R9
@pytest.mark.parametrize("melded,lockreq,expected", [(1, False, 15), (0, False, 15),
                                                     (0, True, -15)])
def test_r9_sevens_lock(melded, lockreq, expected):
    s = state(rules=CanastaRules(lock_meld_needs_requirement=lockreq))
    s["can"][1, K.CT_SEVENS] = 1  # A has a sevens canasta, B (seat 0) has none
    add(s["hand"], 0, "7S 7H 7D")
    s["pl"][0, K.C_MELDED] = melded
    s["pl"][0, K.C_REQ] = 50
    s["pl"][:, K.C_KON] = 0
    s["g"][K.G_SEND] = 10
    set_pile(s, "4C")
    assert run_turn(s) == 0
    assert s["g"][K.G_END] == 2  # sevens lock
    K.score_round(s["hand"], s["kit"], s["can"], s["pl"], s["rp"])
    # B melds 7-7-7 (+15), the hand empties, nobody gets the going-out bonus; not melded, by
    # default (section 7 case 3) B melds them all the same; only with the knob
    # lock_meld_needs_requirement: 15 < 50, the sevens stay in hand (-15).
    assert s["pl"][0, K.C_SCORE] == expected
    assert s["pl"][0, K.C_OUT] == 0 and s["viol"].sum() == 0


def test_sevens_free_once_everyone_has_a_sevens_canasta():
    s = state()
    s["can"][1, K.CT_SEVENS] = 1
    s["can"][0, K.CT_SEVENS] = 1
    add(s["hand"], 0, "7S 7H 7D")
    s["pl"][0, K.C_MELDED] = 1
    s["pl"][:, K.C_KON] = 0
    s["g"][K.G_SEND] = 10
    set_pile(s, "4C")
    run_turn(s)
    # now a seven may be discarded: no lock; hand-limit keeps 2 cards, then one is discarded
    assert s["g"][K.G_END] == 4 and s["pile"][7] == 1


# --------------------------------------------------------------------------- exact counting
def test_exact_three_card_hands_hand_formula():
    # 2 players: 212 cards, every natural rank 16 copies, 20 wilds (4 jokers, 16 twos).
    # Requirement 15 with 3 cards: a natural triple (11 ranks), three wilds, or a non-seven
    # pair with one wild.
    n = comb(212, 3)
    p15 = (11 * comb(16, 3) + comb(20, 3) + 10 * comb(16, 2) * 20) / n
    assert exact_deal_probability(2, 3, 15, 3, False) == pytest.approx(p15, rel=1e-12)
    # Requirement 50: ace triple (60), any 3 wilds (>= 60), A-A + any wild (>= 60),
    # 8..K pair + joker (70), 4/5/6 pair + joker (60); K-K-2 (40) and 4-4-2 (30) fail.
    p50 = (comb(16, 3) + comb(20, 3) + comb(16, 2) * 20 + 6 * comb(16, 2) * 4
           + 3 * comb(16, 2) * 4) / n
    assert exact_deal_probability(2, 3, 50, 3, False) == pytest.approx(p50, rel=1e-12)


def _random_hand(rng, P=2, size=13):
    deck = [c for c in range(15) for _ in range(PER_SHARE[c] * P) if c != 2]
    h = np.zeros(15, np.int64)
    for c in rng.sample(deck, size):
        h[c] += 1
    return h


def test_plan_initial_reaches_the_closed_form_and_is_legal():
    rng = random.Random(7)
    rp = M.rules_arrays(R2)[0]
    out = np.zeros((15, 3), np.int64)
    for _ in range(1500):
        h = _random_hand(rng, size=rng.choice((6, 9, 13, 16)))
        best = max_initial_value(h, 3, False)
        assert K.plan_initial(h, best + 5, rp, out) == -1
        v = K.plan_initial(h, best, rp, out)
        assert v >= best
        total = 0
        for slot in range(15):
            nat, jk, two = out[slot]
            if nat + jk + two == 0:
                continue
            cards = [slot] * nat + [0] * jk + [1] * two
            m = classify_meld(cards, R2)
            assert m.legal, (h, out)
            total += sum(VALUES[c] for c in cards)
        assert total == v
        used = np.zeros(15, np.int64)
        used[0] = out[:, 1].sum()
        used[1] = out[:, 2].sum()
        used[4:] += out[4:, 0]
        assert (used <= h).all()


def test_plan_initial_keeps_the_wilds_when_the_naturals_meet_the_requirement_exactly():
    """Stage 0 of the first meld: the natural ranks held three or more times (at most 7 each)
    are laid; when their value reaches the requirement -- exactly counts -- the wild cards stay
    in hand."""
    rng = random.Random(11)
    rp = M.rules_arrays(R2)[0]
    out = np.zeros((15, 3), np.int64)
    seen = 0
    for _ in range(3000):
        h = _random_hand(rng, size=rng.choice((9, 13, 16)))
        t0 = sum(min(int(h[r]), 7) * VALUES[r] for r in range(4, 15) if h[r] >= 3)
        if t0 == 0 or h[0] + h[1] == 0:
            continue
        seen += 1
        assert K.plan_initial(h, t0, rp, out) == t0
        assert out[:, 1].sum() == 0 and out[:, 2].sum() == 0
        assert all(out[r, 0] == (min(int(h[r]), 7) if h[r] >= 3 else 0) for r in range(4, 15))
    assert seen > 200


# --------------------------------------------------------------------------- property tests
def _check_round(res, P, rules):
    hand, kit, un, can, pl, mcnt, stock, pile, g, viol = res
    assert viol.tolist() == [0, 0, 0, 0]
    total = np.zeros(15, np.int64)
    total += hand.sum(0) + mcnt.sum(0) + pile
    for p in range(P):
        if pl[p, K.C_KON]:
            total += kit[p]
    total[2] += pl[:, K.C_R3].sum()
    for c in stock[g[K.G_SP]:g[K.G_SEND]]:
        total[c] += 1
    assert total.tolist() == [n * P for n in PER_SHARE]  # card conservation: 106 per player
    end = g[K.G_END]
    assert end in (K.END_OUT, K.END_LOCK, K.END_STOCK, K.END_STALL)
    cur = g[K.G_CUR]  # the player who moved last (the round ended on their turn)
    if end == K.END_LOCK:
        # sevens lock (section 7 case 3): no legal discard because only sevens are left (sevens
        # not yet free) or the only card was a seven; after the lock melds only sevens remain
        assert hand[cur].sum() == hand[cur, 7]
        assert not all(can[:, K.CT_SEVENS] > 0) or hand[cur].sum() <= 1
    elif end == K.END_STALL:
        # stall (case 4): a single card that is not a seven
        assert hand[cur].sum() == 1 and hand[cur, 7] == 0
    elif end == K.END_OUT:
        assert pl[cur, K.C_OUT] == 1
    if not all(can[:, K.CT_SEVENS] > 0):
        # sevens were never free this round, so no seven was ever discarded: the pile can hold
        # at most the initial up-card seven
        assert pile[7] <= 1
    bonus = (rules.bonus_red, rules.bonus_black, rules.bonus_wild, rules.bonus_sevens)
    for p in range(P):
        unfinished = 0
        for slot in range(15):
            nat, jk, two = un[p, slot]
            if nat + jk + two:
                m = classify_meld([slot] * nat + [0] * jk + [1] * two, rules)
                assert m.legal and m.canasta is None
                unfinished += nat + jk + two
        went_out = bool(pl[p, K.C_OUT])
        if went_out:
            assert all(can[p] > 0) and hand[p].sum() == 0 and g[K.G_END] == 1
            assert pile[g[K.G_TOP]] >= 1 and g[K.G_TOP] != 7
        else:
            assert mcnt[p, 3] == 0  # black threes meld only when going out
            if g[K.G_END] != K.END_LOCK:
                assert hand[p].sum() >= 1
        assert mcnt[p].sum() == 7 * can[p].sum() + unfinished + mcnt[p, 3]
        assert pl[p, K.C_MVAL] == sum(int(mcnt[p, c]) * VALUES[c] for c in range(15))
        expect = (rules.going_out_bonus * went_out + pl[p, K.C_MVAL]
                  + sum(int(can[p, k]) * bonus[k] for k in range(4))
                  + rules.red_three_bonus * pl[p, K.C_R3]
                  - sum(int(hand[p, c]) * VALUES[c] for c in range(15))
                  - (sum(int(kit[p, c]) * VALUES[c] for c in range(15)) if pl[p, K.C_KON]
                     else 0))
        assert pl[p, K.C_SCORE] == expect  # scores add up to the cards' values
    return g[K.G_END]


@pytest.mark.parametrize("P,sets,pols", [
    (2, {}, "greedy"),
    (3, {}, "greedy,builder:5:20,greedy"),
    (2, {"red3_replace": True, "wilds_in_sevens": True, "wild_upcard_freezes": False},
     "builder:6:10"),
    (4, {"lock_meld_needs_requirement": False}, "greedy"),
])
def test_property_seeded_rounds(P, sets, pols):
    rules = CanastaRules(players=P, **sets)
    rp, thr, reqv = M.rules_arrays(rules)
    pol = M.policy_array(parse_policies(pols, P))
    keys = block_keys(2024, 0, 4)
    ends = set()
    n = 0
    for b in range(4):
        for t in range(150 if P == 2 else 80):
            cums = np.array([(t * 4999 + 1000 * p) % 21000 - 500 for p in range(P)], np.int64)
            res = K.debug_round(keys[b], t, t % P, cums, rp, pol, thr, reqv)
            ends.add(_check_round(res, P, rules))
            n += 1
    assert n >= 320
    assert K.END_STOCK in ends  # the stock runs out in some rounds


def test_many_rounds_no_violation_and_all_endings():
    # 3000 rounds through the parallel kernel: the engine counts any illegal meld, early
    # seven discard, bad go-out or emptied hand; every kind of round end occurs.
    out = M.simulate_rounds(R2, parse_policies("greedy", 2), RunSpec(3000, 11))
    assert out["violations"] == {"illegal_melds": 0, "sevens_discarded_early": 0,
                                 "bad_go_outs": 0, "emptied_hands": 0}
    pr = out["per_round"]
    assert pr["went_out"].estimate > 0 and pr["sevens_lock"].estimate > 0
    assert pr["stall"].estimate > 0
    assert pr["went_out"].estimate + pr["sevens_lock"].estimate + pr["stall"].estimate + \
        pr["stock_exhausted"].estimate == pytest.approx(1.0)
    # every going-out round has four canasta types for the winner: at least 1 sevens canasta
    assert pr["sevens_canastas"].estimate >= pr["went_out"].estimate


# --------------------------------------------------------------------------- MC vs exact
@pytest.mark.parametrize("score", [0, 12000])
def test_meld_odds_mc_matches_exact(score):
    out = M.meld_odds(score, 2, R2, parse_policy("greedy"), RunSpec(3000, 5))
    st = out["p_requirement_on_deal"]
    assert abs(st.z_from_exact()) < 4.5
    p1 = out["by_turn"][0]["p_melded"].estimate
    p2 = out["by_turn"][1]["p_melded"].estimate
    assert p1 <= p2  # cumulative


def test_determinism_across_threads():
    pols = parse_policies("greedy", 2)
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a = M.simulate(R2, pols, RunSpec(40, 99))
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        b = M.simulate(R2, pols, RunSpec(40, 99))
    finally:
        numba.set_num_threads(old)
    assert a["rounds"] == b["rounds"]
    assert a["per_round"]["turns"].estimate == b["per_round"]["turns"].estimate
    assert [s["p_win"].estimate for s in a["seats"]] == [s["p_win"].estimate for s in b["seats"]]


# --------------------------------------------------------------------------- turn mechanics
def _turn(s, pol="greedy", P=2):
    pols = np.array([parse_policy(pol).row()] * P)
    return K.play_turns(s["hand"], s["kit"], s["un"], s["can"], s["pl"], s["mcnt"], s["stock"],
                        s["pile"], s["g"], s["rp"], pols, s["viol"], s["tmp"], s["out"], True,
                        -1, -1, 0, 1)


@pytest.mark.parametrize("pol,stock,goes_out", [("greedy", 50, True), ("builder:10:20", 50, False),
                                                ("builder:10:20", 15, True)])
def test_going_out(pol, stock, goes_out):
    s = state()
    s["can"][0] = (1, 1, 1, 1)
    s["pl"][0, K.C_MELDED] = 1
    s["pl"][:, K.C_KON] = 0
    add(s["hand"], 0, "KS KH KD 4C")
    s["g"][K.G_SEND] = stock
    s["stock"][:stock] = 5
    set_pile(s, "9C")
    _turn(s, pol)
    K.score_round(s["hand"], s["kit"], s["can"], s["pl"], s["rp"])
    if goes_out:
        # K-K-K melded (30), 4C discarded: 100 + 30 + 500 + 300 + 1000 + 1500 = 3430
        assert s["g"][K.G_END] == 1 and s["pl"][0, K.C_OUT] == 1
        assert s["hand"][0].sum() == 0 and s["g"][K.G_TOP] == 4
        assert s["pl"][0, K.C_SCORE] == 3430
    else:
        assert s["g"][K.G_END] == 4 and s["pl"][0, K.C_OUT] == 0
    assert s["viol"].sum() == 0


def test_no_going_out_without_four_types():
    s = state()
    s["can"][0] = (3, 1, 1, 0)
    s["pl"][0, K.C_MELDED] = 1
    s["pl"][:, K.C_KON] = 0
    add(s["hand"], 0, "KS KH KD 4C")
    s["g"][K.G_SEND] = 20
    set_pile(s, "9C")
    _turn(s)
    assert s["pl"][0, K.C_OUT] == 0 and s["hand"][0].sum() >= 1


def test_kitty_pickup_after_first_red_canasta():
    s = state()
    s["pl"][0, K.C_MELDED] = 1
    s["un"][0, 12] = (5, 0, 0)
    add(s["hand"], 0, "QS QH 4C 5D 6H")
    add(s["kit"], 0, "3H 3D 9S 9H KS KH AS 4D 5S 6S 8C")
    s["pl"][0, K.C_KON] = 1
    s["g"][K.G_SEND] = 20
    set_pile(s, "9C")
    _turn(s)
    # the queens close a red canasta; after the discard the kitty joins the hand and its two
    # red threes are placed at once (+2 red threes, 9 kitty cards in hand)
    assert s["can"][0, K.CT_RED] == 1 and s["pl"][0, K.C_KON] == 0
    assert s["pl"][0, K.C_R3] == 2 and s["pl"][0, K.C_KTURN] == 1
    assert s["kit"][0].sum() == 0 and s["hand"][0, 2] == 0
    assert s["hand"][0].sum() == 2 + 9


def test_black_canasta_does_not_pick_up_the_kitty():
    s = state()
    s["pl"][0, K.C_MELDED] = 1
    s["un"][0, 12] = (5, 0, 0)
    add(s["hand"], 0, "2S 2H 4C 5D 6H")
    add(s["kit"], 0, "9S 9H KS KH AS 4D 5S 6S 8C 8D 8H")
    s["pl"][0, K.C_KON] = 1
    s["g"][K.G_SEND] = 20
    set_pile(s, "9C")
    _turn(s)
    assert s["can"][0, K.CT_BLACK] == 1 and s["pl"][0, K.C_KON] == 1


def test_stock_exhaustion_ends_round_without_a_draw():
    s = state()
    s["pl"][0, K.C_MELDED] = 1
    add(s["hand"], 0, "4C 5D 6H")
    set_pile(s, "9C 3S")  # blocked: nobody may take
    rc = K.play_turns(s["hand"], s["kit"], s["un"], s["can"], s["pl"], s["mcnt"], s["stock"],
                      s["pile"], s["g"], s["rp"], np.array([parse_policy("greedy").row()] * 2),
                      s["viol"], s["tmp"], s["out"], False, -1, -1, -1, 0)
    assert rc == 0 and s["g"][K.G_END] == 3 and s["hand"][0].sum() == 3


@pytest.mark.parametrize("replace,hand_gain", [(False, 1), (True, 2)])
def test_red_three_drawn(replace, hand_gain):
    s = state(rules=CanastaRules(red3_replace=replace))
    s["stock"][:4] = (2, 4, 5, 6)  # red three on top
    s["g"][K.G_SEND] = 4
    K.draw_cards(0, 2, s["hand"], s["pl"], s["stock"], s["g"], s["rp"])
    assert s["pl"][0, K.C_R3] == 1 and s["hand"][0].sum() == hand_gain


@pytest.mark.parametrize("wild_freezes", [True, False])
def test_up_card_states(wild_freezes):
    rules = CanastaRules(wild_upcard_freezes=wild_freezes)
    s = state(rules=rules)
    rng = np.zeros(4, np.uint64)
    from kernels.rng import seed_trial

    seen = set()
    keys = block_keys(3, 0, 1)
    for t in range(400):
        seed_trial(keys[0], t, rng)
        K.deal(rng, 1, s["hand"], s["kit"], s["un"], s["can"], s["pl"], s["mcnt"], s["stock"],
               s["pile"], s["g"], s["rp"], s["thr"], s["reqv"])
        top = s["g"][K.G_TOP]
        seen.add(top)
        frozen = top == 2 or (top in (0, 1) and wild_freezes)
        assert s["g"][K.G_FROZEN] == int(frozen)
        assert s["hand"][:, 2].sum() == 0  # dealt red threes are placed
        assert s["hand"].sum() + s["pl"][:, K.C_R3].sum() == 26
        assert s["g"][K.G_SEND] - s["g"][K.G_SP] == 163  # 82N - 1
    assert {0, 1, 2, 3} <= seen


def test_decide_go_out_exact_option(tmp_path):
    text = '''
phase = "meld"
stock = 156
[me]
score = 0
hand = ["KS", "KH", "KD", "4C"]
melds = [["QS","QH","QD","QC","QS","QH","QD"], ["JS","JH","JD","JC","JS","2C","JK"],
         ["2S","2H","2D","2C","2S","2H","2D"], ["7S","7H","7D","7C","7S","7H","7D"]]
red_threes = 1
kitty = "picked"
[[opponents]]
score = 0
hand_size = 10
kitty = "unpicked"
[pile]
cards = ["5C", "9S"]
'''
    import tomllib

    out = decide(tomllib.loads(text), R2, parse_policies("greedy", 2), RunSpec(300, 1))
    a = out["round_score_a"]
    # going out now: 100 + melds (70 + 120 + 140 + 35 + K-K-K 30) + 3300 bonuses + 100 red three
    assert a.estimate == 3895 and a.se == 0
    assert out["options"] == ["go out now", "play on"]


def test_python_reference_is_the_same_algorithm():
    # The bench's pure-Python reference runs the same source without Numba: from the same
    # dealt state both must play the identical round.
    from analyzer.games.canasta.pyengine import python_engine
    from kernels.rng import seed_trial

    E = python_engine()
    rp, thr, reqv = M.rules_arrays(R2)
    pol = M.policy_array(parse_policies("greedy", 2))
    rng = np.zeros(4, np.uint64)
    keys = block_keys(5, 0, 1)
    for t in range(3):
        st = K.new_state(2)
        seed_trial(keys[0], t, rng)
        K.deal(rng, 1, *st, rp, thr, reqv)
        copies = [a.copy() for a in st]
        extra = lambda: (np.zeros(K.NV, np.int64), np.zeros(K.NT, np.int64),  # noqa: E731
                         np.zeros((K.NT, 3), np.int64))
        K.play_turns(*st, rp, pol, *extra(), False, -1, -1, -1, 0)
        E["play_turns"](*copies, rp, pol, *extra(), False, -1, -1, -1, 0)
        for a, b in zip(st, copies):
            assert np.array_equal(a, b)


def test_go_out_puts_a_spare_wild_on_an_existing_meld():
    # Hand JK 4C after drawing, four canasta types and an unfinished Q-Q-Q: the joker joins the
    # queens (Q Q Q JK), the 4C is the go-out discard.
    s = state()
    s["can"][0] = (1, 1, 1, 1)
    s["un"][0, 12] = (3, 0, 0)
    s["pl"][0, K.C_MELDED] = 1
    s["pl"][:, K.C_KON] = 0
    add(s["hand"], 0, "JK 4C")
    s["g"][K.G_SEND] = 30
    set_pile(s, "9C")
    _turn(s)
    assert s["pl"][0, K.C_OUT] == 1 and tuple(s["un"][0, 12]) == (3, 1, 0)
    assert s["viol"].sum() == 0


@pytest.mark.parametrize("w7", [False, True])
def test_kernel_meld_rules_agree_with_python_rules(w7):
    # Every composition (rank slot, naturals, jokers, twos) of 3..7 cards: the engine's
    # after-move check in `put` and analyzer.games.canasta.classify_meld give the same verdict,
    # and a 7-card meld closes as the same canasta type.
    rules = CanastaRules(wilds_in_sevens=w7)
    names = ("red", "black", "wild", "sevens")
    for slot in [0] + list(range(4, 15)):
        for nat in (range(1) if slot == 0 else range(1, 8)):
            for jk in range(0, 5):
                for two in range(0, 8):
                    size = nat + jk + two
                    if size < 3 or size > 7:
                        continue
                    s = state(rules=rules)
                    s["hand"][0, slot] += nat
                    s["hand"][0, 0] += jk
                    s["hand"][0, 1] += two
                    closed = K.put(0, slot, nat, jk, two, s["hand"], s["un"], s["can"], s["pl"],
                                   s["mcnt"], s["rp"], s["viol"])
                    m = classify_meld([slot] * nat + [0] * jk + [1] * two, rules)
                    assert (s["viol"][K.V_MELD] == 0) == m.legal, (slot, nat, jk, two)
                    if m.legal and size == 7:
                        assert closed == 1 and names[int(np.argmax(s["can"][0]))] == m.canasta
