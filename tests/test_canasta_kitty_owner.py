"""Railroad Canasta: each kitty belongs to its own player (issue 40, a kind still without a test).

The rules page (docs/rules/canasta.md, section 5.4 and 7): every player has an 11-card kitty,
face down; after the discard of the turn in which a player first owns a red, wild or sevens
canasta, *that player's* kitty joins *that player's* hand (red threes from it placed at once,
+100 each); a kitty never picked up counts against its owner at card values (a red three in it
counts 0). A kitty dealt to, or picked up by, another player was seen only through whole-round
scores. Here every state is built by hand (no position file, no rules parser: the rules vector
is written from the rules page), with three players so that "another player" is ambiguous in
both directions, and the player acting is not seat 1.
"""
from __future__ import annotations

import numpy as np
import pytest

from kernels.canasta import engine as K
from kernels.canasta import layout as L
from kernels.canasta.trials import setup_position

P = 3
# card types (kernels/canasta/layout.py): 0 joker, 1 two, 2 red three, 3 black three, 4..14 ranks
JOKER, TWO, RED3, BLACK3, TEN, JACK, QUEEN, KING, ACE = 0, 1, 2, 3, 10, 11, 12, 13, 14
#: copies of each type per player share, from the rules page (section 1): 2 jokers, 8 twos,
#: 4 red threes, 4 black threes, 8 of every other rank
SHARE = [2, 8, 4, 4] + [8] * 11
#: card values from the rules page's table (red three: no card value)
VALUE = {JOKER: 50, TWO: 20, RED3: 0, BLACK3: 5, 4: 5, 5: 5, 6: 5, 7: 5, 8: 10, 9: 10, TEN: 10,
         JACK: 10, QUEEN: 10, KING: 10, ACE: 20}


def _rules_vector() -> np.ndarray:
    """The rules vector of the default 3-player game, each value from the rules page."""
    rp = np.zeros(L.NRULES, dtype=np.int64)
    rp[L.R_NP], rp[L.R_HAND], rp[L.R_KITTY] = 3, 13, 11
    rp[L.R_GOBONUS], rp[L.R_R3BONUS] = 100, 100
    rp[L.R_BRED], rp[L.R_BBLACK], rp[L.R_BWILD], rp[L.R_BSEV] = 500, 300, 1000, 1500
    rp[L.R_MAXW] = 3  # at most 3 wilds in a mixed meld
    rp[L.R_R3REPL], rp[L.R_WILDUP], rp[L.R_W7] = 0, 1, 0  # defaults of ambiguities 2, 16, 5
    rp[L.R_TARGET], rp[L.R_LOCKREQ], rp[L.R_MAXROUNDS] = 20_000, 0, 1000
    return rp


def _counts(cards: dict[int, int]) -> np.ndarray:
    v = np.zeros(L.NT, dtype=np.int64)
    for c, k in cards.items():
        v[c] += k
    return v


def _value(counts) -> int:
    return sum(VALUE[c] * int(k) for c, k in enumerate(counts))


# three kitties of 11 cards, each with its own mix (a red three in two of them)
KITTY = [_counts({JOKER: 1, TWO: 1, BLACK3: 1, 7: 3, 8: 2, TEN: 1, KING: 2}),
         _counts({RED3: 1, 9: 2, KING: 2, ACE: 1, 4: 1, 5: 1, 6: 1, 8: 2}),
         _counts({RED3: 1, ACE: 2, JACK: 3, 5: 2, 7: 1, QUEEN: 2})]
HAND = [_counts({TEN: 3, JACK: 2, 4: 1, ACE: 1}),
        _counts({QUEEN: 2, 4: 1, 5: 1, 6: 1}),
        _counts({9: 2, KING: 1, 6: 2})]


def test_the_kitty_of_the_player_who_closed_a_red_canasta_joins_that_players_hand():
    """Seat 2 (index 1) holds five queens on the table and two in hand; it draws 9 and 8 from
    the stock, closes a red canasta with its queens, discards, and then its own kitty joins its
    own hand, its red three placed at once. Seats 1 and 3 keep their hands and face-down
    kitties untouched. Round scores by hand from the rules page's formula."""
    assert all(k.sum() == 11 for k in KITTY)
    hand, kit, un, can, pl, mcnt, stock, pile, g = K.new_state(P)
    for p in range(P):
        hand[p], kit[p] = HAND[p], KITTY[p]
        pl[p, L.C_KON], pl[p, L.C_KTURN], pl[p, L.C_REQ] = 1, -1, 50
    pl[1, L.C_MELDED], pl[1, L.C_FIRSTMELD], pl[1, L.C_MVAL] = 1, 1, 50  # five queens melded
    un[1, QUEEN] = (5, 0, 0)
    stock[:2] = (9, 8)
    g[L.G_SP], g[L.G_SEND] = 0, 2
    pile[5] = 1  # a five on top: seat 2 holds one five, so it cannot take the pile
    g[L.G_PN], g[L.G_TOP], g[L.G_FROZEN], g[L.G_CUR] = 1, 5, 0, 1
    pol = np.zeros((P, L.NPOL), dtype=np.int64)
    before = {"hand": hand.copy(), "kit": kit.copy(), "pile": pile.copy()}
    viol = np.zeros(L.NV, dtype=np.int64)
    rc = K.play_turns(hand, kit, un, can, pl, mcnt, stock, pile, g, _rules_vector(), pol, viol,
                      np.zeros(L.NT, np.int64), np.zeros((L.NT, 3), np.int64), False, -1, -1,
                      2, 0)  # stop when seat 3 is to move: exactly seat 2's turn is played
    assert rc == 0 and g[L.G_END] == L.END_CAP and viol.sum() == 0
    assert list(can[1]) == [1, 0, 0, 0]  # one red canasta
    # seat 2's kitty is in seat 2's hand, less its red three, which is placed (+1)
    assert kit[1].sum() == 0 and pl[1, L.C_KON] == 0 and pl[1, L.C_KTURN] == 1
    assert pl[1, L.C_R3] == 1 and hand[1, RED3] == 0
    kitty_kept = KITTY[1].copy()
    kitty_kept[RED3] = 0
    rest = hand[1] - kitty_kept  # what is left of 4, 5, 6, 9, 8 after one discard
    assert (rest >= 0).all() and rest.sum() == 4
    drawn_and_spare = _counts({4: 1, 5: 1, 6: 1, 9: 1, 8: 1})
    discarded = drawn_and_spare - rest
    assert (discarded >= 0).all() and discarded.sum() == 1
    assert (pile == before["pile"] + discarded).all()
    # nobody else's hand or kitty moved
    for p in (0, 2):
        assert (hand[p] == before["hand"][p]).all() and (kit[p] == before["kit"][p]).all()
        assert pl[p, L.C_KON] == 1 and pl[p, L.C_KTURN] == -1 and pl[p, L.C_R3] == 0
    K.score_round(hand, kit, can, pl, _rules_vector())
    # seat 1: −hand (10·3 + 10·2 + 5 + 20 = 75) − unpicked kitty (50 + 20 + 5 + 15 + 20 + 10 +
    # 20 = 140); seat 3: −hand (20 + 10 + 10 = 40) − kitty (0 + 40 + 30 + 10 + 5 + 20 = 105)
    assert _value(HAND[0]) == 75 and _value(KITTY[0]) == 140
    assert _value(HAND[2]) == 40 and _value(KITTY[2]) == 105
    assert pl[0, L.C_SCORE] == -215 and pl[2, L.C_SCORE] == -145
    # seat 2: 7 queens (70) + red canasta (500) + one red three (100) − its hand: the kitty's
    # other ten cards (20 + 20 + 20 + 5 + 5 + 5 + 20 = 95) and the four cards it kept
    assert _value(kitty_kept) == 95
    assert pl[1, L.C_SCORE] == 70 + 500 + 100 - 95 - _value(rest)


@pytest.mark.parametrize("kitty_on", [(1, 0, 1), (0, 1, 0), (0, 0, 1), (1, 1, 1), (0, 0, 0)])
def test_decide_deals_a_face_down_kitty_to_exactly_the_players_who_still_have_one(kitty_on):
    """`canasta decide` deals the unseen cards at random: each opponent's hand at its stated
    size, an 11-card kitty to every player whose kitty is still face down (the deciding player's
    own too: it may not look), the rest to the stock. Whatever the shuffle, seat by seat the
    kitty has 11 cards or none, the hands keep their sizes, the deciding player's hand is as
    stated, and no card is made or lost (a player's share of 106 cards from the rules page)."""
    mine = _counts({TEN: 3, JACK: 2, 4: 1, ACE: 1, 9: 2, KING: 1, 6: 2, 8: 1})  # 13 cards
    pile0 = _counts({5: 2, 7: 1})
    opp_sizes = np.array([0, 13, 9], dtype=np.int64)
    unseen = np.array(SHARE, dtype=np.int64) * P - mine - pile0
    n = int(unseen.sum())
    assert n == 106 * P - 13 - 3
    stock_n = n - 13 - 9 - 11 * sum(kitty_on)
    pos_hand = np.zeros((P, L.NT), dtype=np.int64)
    pos_hand[0] = mine
    pos_pl = np.zeros((P, L.NPL), dtype=np.int64)
    pos_pl[:, L.C_KON] = kitty_on
    g0 = np.zeros(L.NG, dtype=np.int64)
    g0[L.G_PN], g0[L.G_TOP] = 3, 7
    kits = set()
    for seed in range(4):
        state = K.new_state(P)
        hand, kit, _un, _can, _pl, _mcnt, stock, pile, g = state
        setup_position(np.array([seed + 1, 7, 11, 13], dtype=np.uint64), pos_hand,
                       np.array(kitty_on, dtype=np.int64), np.zeros((P, L.NT, 3), np.int64),
                       np.zeros((P, 4), np.int64), pos_pl, pile0, g0, unseen, opp_sizes,
                       stock_n, _rules_vector(), state, np.zeros(n, dtype=np.int64))
        assert [int(kit[p].sum()) for p in range(P)] == [11 * k for k in kitty_on]
        assert [int(hand[p].sum()) for p in range(P)] == [13, 13, 9]
        assert (hand[0] == mine).all() and (pile == pile0).all()
        assert g[L.G_SP] == 0 and g[L.G_SEND] == stock_n
        in_stock = np.bincount(stock[:stock_n], minlength=L.NT)
        assert (hand[1] + hand[2] + kit.sum(axis=0) + in_stock == unseen).all()
        kits.add(tuple(kit.ravel()))
    assert len(kits) == (1 if sum(kitty_on) == 0 else 4)  # the kitties really are dealt at random
