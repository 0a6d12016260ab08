"""The Go-Stop deal engine's speed work (issue 16) keeps every deal bit for bit.

What changed (kernels/gostop): the engine's functions are compiled without reference counting
(``_nrt=False``); greedy's card choice (``turn.greedy_card``) selects its key without branching on
the layout count; ``score.stats_add`` moves the second pile counter from a table; the hand's
months are packed 4 bits a month (``state.hand_months``/``months_holding``) for the shake, bomb
and chongtong checks. Checked here against the tree before the change:

* whole-deal sums of ``simulate_blocks`` over rule variants, policies and block sizes (1, 37 and
  700 deals), with and without the invariant checks, equal the sums the old engine gave
  (``GOLDEN``, taken from the tree before the change);
* each replaced piece equals a plain-Python copy of the code it replaced (``_old_*`` below) on
  random states.
"""
from __future__ import annotations

import hashlib

import numpy as np
import pytest

from analyzer.games.gostop.play import policy_array
from analyzer.games.gostop.lineup import parse_seats
from analyzer.games.gostop.rules import GoStopRules, rules_vector
from analyzer.rng import block_keys
from kernels.gostop import score as KS
from kernels.gostop import state as K
from kernels.gostop.turn import greedy_card

HOUSE = dict(players=2, jokers=(2, 3, 3, 2, 4), sake_cup="flex", bomb_after_shake=True,
             bomb_bonus="korean", last_turn_events="korean", ja_ppuk_scope="any", go_bak=True,
             four_brights=5)

#: name -> (rules, seats, shake flag of every seat, invariant checks)
VARIANTS = {
    "2p greedy": (dict(players=2), "greedy", 1, False),
    "3p greedy,go:2,random": (dict(players=3), "greedy,go:2,random", 1, False),
    "2p house rules, go:3:2,random, checks": (HOUSE, "go:3:2,random", 1, True),
    "3p no jokers, flex, greedy without shakes":
        (dict(players=3, jokers=(), sake_cup="flex"), "greedy", 0, False),
    "2p random, checks": (dict(players=2, jokers=(5,)), "random", 1, True),
}

#: first four column sums and a digest of all, from the engine before the change
GOLDEN = {
    '2p greedy': ([0.0, 18.0, 2.0, 426.0], '0650efd57db2d74d'),
    '3p greedy,go:2,random': ([3.0, 4.0, 0.0, 439.0], 'a8da8304f1519304'),
    '2p house rules, go:3:2,random, checks': ([0.0, 15.0, 4.0, 524.0], '53c62e663671177d'),
    '3p no jokers, flex, greedy without shakes': ([14.0, 2.0, 0.0, 223.0], 'd16be35404b57641'),
    '2p random, checks': ([0.0, 21.0, 4.0, 450.0], 'acde3a85992fe63b'),
}


def _state(variant):
    kw, seats, shake, check = VARIANTS[variant]
    rules = GoStopRules(**kw)
    pol = policy_array(parse_seats(seats, rules.players))
    pol[:, K.P_SHAKE] = shake
    return K.new_state(rules_vector(rules), pol), check


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_whole_deals_equal_the_old_engine(variant):
    from kernels.gostop.batch import C_ERR, simulate_blocks

    S0, check = _state(variant)
    keys = block_keys(20261203, 0, 3)
    out = simulate_blocks(keys, np.array([1, 37, 700], np.int64), S0, 0, check)
    sums = [float(x) for x in out.sum(axis=0)]
    assert sums[C_ERR] == 0
    assert (sums[:4], hashlib.sha256(repr(sums).encode()).hexdigest()[:16]) == GOLDEN[variant]


# ---- the replaced pieces against plain copies of the old code ---------------------------------
def _old_greedy_key(S, c):
    v = S[KS.RB + KS.R_VTAB:]
    if c >= KS.NCARD:
        return v[c] + 5
    m = c >> 2
    n = S[K.LN + m]
    lay = [S[K.LAY + 4 * m + i] for i in range(3)]
    if n == 0:
        return -v[c]
    if n == 1:
        return v[c] + v[lay[0]]
    if n == 2:
        return v[c] + max(v[lay[0]], v[lay[1]])
    return v[c] + v[lay[0]] + v[lay[1]] + v[lay[2]] + 20


def _old_stats_add(S, p, c, sign):
    k = S[KS.RB + KS.R_KTAB + c]
    row = KS.PSB + p * KS.NSTAT
    if k == KS.KB:
        S[row + KS.T_B] += sign
        if c == KS.RAIN:
            S[row + KS.T_RAIN] += sign
    elif k == KS.KA:
        S[row + KS.T_A] += sign
        if KS.CGRP[c] == KS.G_GODORI:
            S[row + KS.T_GOD] += sign
        if c == KS.SAKE:
            S[row + KS.T_SAKE] += sign
    elif k == KS.KR:
        S[row + KS.T_R] += sign
        g = KS.CGRP[c]
        if g in (KS.G_HONG, KS.G_CHEONG, KS.G_CHO):
            S[row + {KS.G_HONG: KS.T_HONG, KS.G_CHEONG: KS.T_CHEONG, KS.G_CHO: KS.T_CHO}[g]] += sign
    else:
        S[row + KS.T_JUNK] += sign * S[KS.RB + KS.R_JTAB + c]


def _random_position(S, rng, njokers):
    """A random layout (0-3 cards a month; stale slots past the count hold other cards) and a
    random hand for seat 0 from the remaining cards and the jokers."""
    free = []
    for m in range(12):
        cards = list(rng.permutation(4) + 4 * m)
        n = int(rng.integers(0, 4))
        S[K.LN + m] = n
        for i in range(4):
            S[K.LAY + 4 * m + i] = cards[i] if i < n else int(rng.integers(0, KS.NCARD))
        free += cards[n:]
    free += list(range(KS.NCARD, KS.NCARD + njokers))
    hand = rng.permutation(free)[:int(rng.integers(1, K.MAXH + 1))]
    S[K.HN] = len(hand)
    S[K.HAND:K.HAND + len(hand)] = hand
    return [int(c) for c in hand]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_greedy_card_equals_the_old_choice(variant):
    S, _ = _state(variant)
    rng = np.random.default_rng(16)
    njokers = int(S[KS.RB + KS.R_NJ])
    for _ in range(2000):
        hand = _random_position(S, rng, njokers)
        keys = [_old_greedy_key(S, c) for c in hand]
        best = max(keys)
        arg, key = greedy_card(S, 0, len(hand))
        assert (arg, key) == (keys.index(best), best)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_stats_add_equals_the_old_counters(variant):
    S, _ = _state(variant)
    R = S.copy()
    rng = np.random.default_rng(7)
    ncards = KS.NCARD + int(S[KS.RB + KS.R_NJ])
    for _ in range(3000):
        p = int(rng.integers(0, KS.MAXP))
        c = int(rng.integers(0, ncards))
        sign = int(rng.choice([1, -1]))
        KS.stats_add(S, p, c, sign)
        _old_stats_add(R, p, c, sign)
    assert np.array_equal(S, R)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_hand_months_and_can_bomb_equal_the_old_counts(variant):
    S, _ = _state(variant)
    rng = np.random.default_rng(3)
    njokers = int(S[KS.RB + KS.R_NJ])
    for _ in range(2000):
        hand = _random_position(S, rng, njokers)
        S[KS.PVB + KS.V_SHAKEMASK] = int(rng.integers(0, 1 << 12))
        counts = [sum(1 for c in hand if c < KS.NCARD and c >> 2 == m) for m in range(12)]
        packed = K.hand_months(S, 0)
        for k in (3, 4):
            mask = K.months_holding(packed, k)
            assert [(mask >> m) & 1 for m in range(12)] == [int(n == k) for n in counts]
        triples = K.months_holding(packed, 3)
        for m in range(-1, 13):
            old = (0 <= m < 12 and counts[m] == 3 and S[K.LN + m] == 1
                   and not ((S[KS.PVB + KS.V_SHAKEMASK] >> m) & 1
                            and S[KS.RB + KS.R_BAS] == 0))
            assert K.can_bomb(S, 0, m, triples) == old
