"""Decide positions built by hand from the rules pages, compared with what the parsers build.

Kernel and pure-Python reference read the same parsed position and the same rules array, so a
mistake in building them is invisible to their comparison. Here the expected values come from the
rules pages (docs/rules/*.md in the project; the card tables, the turn accounting, the payment
and round-score formulas) and are written out by hand:

* Go-Stop: card codes from the deck table; a 3-player position's turn accounting, unseen cards,
  stock, stack creator and the state array; forced stops whose payment is worked out from
  section 9 under every multiplier and several house rules; the rules vector's card tables.
* Railroad Canasta: a 3-player position's kernel arrays (unseen cards per type from 106 cards
  per player-share, requirements from the table of section 4, meld values, kitties, pile); going
  out with every scoring knob moved away from its default.
* MAGDAGDON: `best` on boards whose every action ends the game, valued by hand from the scoring
  section with the bonuses, the ruin penalty and the power costs moved away from their defaults.

Seats are written through :func:`seat` (seat numbers of a position, today 0-based) so that a
change of numbering is one edit here.
"""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.runner import RunSpec


def seat(i: int) -> int:
    """The number a position file uses for the i-th seat (i from 0, the dealer first)."""
    return i + 1


# ---- Go-Stop ----------------------------------------------------------------------------------------

# The deck table of the rules page, month by month, in the order of its columns (Card 1..4).
PAGE_DECK = {1: "01B 01R 01J1 01J2", 2: "02A 02R 02J1 02J2", 3: "03B 03R 03J1 03J2",
             4: "04A 04R 04J1 04J2", 5: "05A 05R 05J1 05J2", 6: "06A 06R 06J1 06J2",
             7: "07A 07R 07J1 07J2", 8: "08B 08A 08J1 08J2", 9: "09A 09R 09J1 09J2",
             10: "10A 10R 10J1 10J2", 11: "11B 11D 11J1 11J2", 12: "12B 12A 12R 12D"}
CODE = {name: 4 * (m - 1) + i for m, row in PAGE_DECK.items()
        for i, name in enumerate(row.split())}


def codes(text: str) -> list[int]:
    return [CODE[c] for c in text.split()]


def test_card_codes_and_kinds_follow_the_deck_table():
    from analyzer.games.gostop.rules import GoStopRules, parse_cards, rules_vector
    from kernels.gostop import score as KS

    r = GoStopRules()
    everything = " ".join(PAGE_DECK.values())
    assert parse_cards(everything + " X2 X3", r) == list(range(50))
    assert [CODE[c] for c in everything.split()] == list(range(48))
    v = rules_vector(r)
    kind = {"B": KS.KB, "A": KS.KA, "R": KS.KR, "J": KS.KJ, "D": KS.KJ}
    junk = {"B": 0, "A": 0, "R": 0, "J": 1, "D": 2}
    for name, c in CODE.items():
        cls = name[2]
        assert v[KS.R_KTAB + c] == kind[cls], name
        assert v[KS.R_JTAB + c] == junk[cls], name
    # the page's counts: 5 brights, 9 animals, 10 ribbons, junk value 26 (+ 2 + 3 jokers = 31)
    kinds = [int(v[KS.R_KTAB + c]) for c in range(48)]
    assert (kinds.count(KS.KB), kinds.count(KS.KA), kinds.count(KS.KR)) == (5, 9, 10)
    assert int(v[KS.R_JTAB:KS.R_JTAB + 50].sum()) == 31
    # rule knobs as the kernels read them: defaults, then every mapped knob moved
    assert (v[KS.R_NP], v[KS.R_TARGET], v[KS.R_PIBAK], v[KS.R_CHONG], v[KS.R_HAND],
            v[KS.R_LAYOUT]) == (2, 7, 5, 5, 10, 8)
    r3 = GoStopRules(players=3, target=4, pibak_threshold=7, pibak_exempt_zero=True,
                     chongtong_payment="target", go_multiplier="cap2",
                     nagari_multiplier="stack", go_bak=True, four_brights=5, jokers=(4,))
    v3 = rules_vector(r3)
    assert (v3[KS.R_NP], v3[KS.R_TARGET], v3[KS.R_PIBAK], v3[KS.R_PIB0], v3[KS.R_CHONG],
            v3[KS.R_HAND], v3[KS.R_LAYOUT], v3[KS.R_GOMODE], v3[KS.R_NAGSTACK],
            v3[KS.R_GOBAK], v3[KS.R_FOURB5], v3[KS.R_NJ], v3[KS.R_JV]) == (
        3, 4, 7, 1, 4, 7, 6, KS.GO_CAP2, 1, 1, 1, 1, 4)
    assert v3[KS.R_JTAB + 48] == 4
    assert rules_vector(GoStopRules(players=3))[KS.R_TARGET] == 3


# A 3-player position: seat 1 has just finished its 4th turn (3 cards left); seat 2, after it,
# has 4 turns left and one bomb skip token; seat 0 has 3 turns left.
THREE = {
    "players": 3, "me": seat(1),
    "hand": "07R 10R 11J1",
    "layout": "04J1 08J1 12D 09A",
    "stacks": f"05A,05R,05J1@{seat(2)}",
    "piles": "02A 02R 02J1 02J2 03R 03J1; 01B 03B 08B; "
             "06A 06R 06J1 06J2 07A 07J1 07J2 09R 09J1 09J2 10A 10J1 10J2",
    "skip_tokens": [0, 0, 1],
    "go_counts": [1, 0, 0], "last_go": [3, 0, 0],
    "shaken": ["", "", "6"],
}
# the 16 non-joker cards nobody has seen, and the two jokers
THREE_UNSEEN = ("01R 01J1 01J2 03J2 04A 04R 04J2 05J2 08A 08J2 11B 11D 11J2 12B 12A 12R").split()


def test_gostop_three_player_turn_accounting_by_hand():
    from analyzer.games.gostop.position import check_position
    from analyzer.games.gostop.rules import GoStopRules

    p = check_position(dict(THREE), GoStopRules(players=3))
    # hand 7: seat 1 holds 3 -> 3 turns left; seat 2 plays after it (one more), seat 0 before it
    assert p.me == 1 and p.remaining == [3, 3, 4]
    assert p.turns == [4, 4, 3]
    # opponents hold their turns left minus their skip tokens; me: none counted
    assert p.opp_sizes == [3, 0, 3]
    assert sorted(p.unseen) == sorted(codes(" ".join(THREE_UNSEEN)) + [48, 49])
    # stock = unseen - opponents' hands = 18 - 6; it must cover the 10 turns left exactly
    assert p.stock == 12
    # the stack was made by seat 2 on its latest turn: its turn index then was 3 - 1
    assert p.stacks == [(codes("05A 05R 05J1"), 2, 2)]
    assert p.score == 3 and p.shaken == [[], [], [6]]


def test_gostop_three_player_state_array_by_hand():
    from analyzer.games.gostop.decide import build_position
    from analyzer.games.gostop.rules import GoStopRules
    from kernels.gostop import score as KS
    from kernels.gostop import state as K

    built, info = build_position(dict(THREE), GoStopRules(players=3))
    S = built.S
    assert info["stock"] == 12 and info["turns_left"] == [3, 3, 4]
    assert info["opponent_hand_sizes"] == [3, 3]
    assert S[K.NPL] == 3
    # only me's hand is known; the opponents' hands are dealt per playout
    assert [S[K.HN + q] for q in range(3)] == [0, 3, 0]
    assert sorted(S[K.HAND + K.MAXH:K.HAND + K.MAXH + 3]) == sorted(codes("07R 10R 11J1"))
    # layout by month (0-based month index): singles and the stack
    per_month = [int(S[K.LN + m]) for m in range(12)]
    assert per_month == [0, 0, 0, 1, 3, 0, 0, 1, 1, 0, 0, 1]
    assert sorted(S[K.LAY + 4 * 4:K.LAY + 4 * 4 + 3]) == codes("05A 05R 05J1")
    assert S[K.SOWN + 4] == 2 and S[K.STRN + 4] == 2
    assert all(S[K.SOWN + m] == -1 for m in range(12) if m != 4)
    # capture piles, in seat order
    piles = [sorted(S[K.PILE + q * KS.MAXC:K.PILE + q * KS.MAXC + S[K.PN + q]]) for q in range(3)]
    assert piles == [sorted(codes("02A 02R 02J1 02J2 03R 03J1")), sorted(codes("01B 03B 08B")),
                     sorted(codes("06A 06R 06J1 06J2 07A 07J1 07J2 09R 09J1 09J2 10A 10J1 "
                                  "10J2"))]
    PV = S[KS.PVB:KS.PVB + K.MAXP * KS.NVAR].reshape(K.MAXP, KS.NVAR)
    assert list(PV[:3, KS.V_GO]) == [1, 0, 0] and list(PV[:3, KS.V_LASTGO]) == [3, 0, 0]
    assert list(PV[:3, KS.V_SKIP]) == [0, 0, 1] and list(PV[:3, KS.V_TURNS]) == [4, 4, 3]
    assert list(PV[:3, KS.V_SHAKES]) == [0, 0, 1] and PV[2, KS.V_SHAKEMASK] == 1 << 5
    assert S[K.SLEN] == 0  # the stock is dealt per playout
    assert sorted(built.unseen) == sorted(codes(" ".join(THREE_UNSEEN)) + [48, 49])


@pytest.mark.parametrize("change,needle", [
    ({"skip_tokens": [0, 0, 5]}, "more skip tokens than turns left"),
    ({"stock": 11}, "must be 12"),
    ({"stacks": f"05A,05R,05J1@{seat(3)}"}, "stack creator"),
    ({"me": seat(3)}, "'?me'?"),
])
def test_gostop_three_player_position_refusals(change, needle):
    from analyzer.games.gostop.position import check_position
    from analyzer.games.gostop.rules import GoStopRules

    with pytest.raises(UserError, match=needle):
        check_position(dict(THREE, **change), GoStopRules(players=3))


# Forced stops: every card is seen (only the two jokers, never flipped, are left in the stock),
# so the seat deciding has no turn left and must stop. Its pile:
#   brights 01B 03B 08B (3, no rain bright) + hongdan 01R 02R 03R (3)
#   + junk: 18 single (01-05 both, 06J2 07J2 08J2 09J2 10J1 10J2 11J1 11J2) + 11D + 12D = 22 -> 13
#   S = 19; no animal (no meong-bak).
ME_PILE = ("01B 03B 08B 01R 02R 03R 01J1 01J2 02J1 02J2 03J1 03J2 04J1 04J2 05J1 05J2 06J2 "
           "07J2 08J2 09J2 10J1 10J2 11J1 11J2 11D 12D")
# The opponent: no bright (gwang-bak), junk 06J1 07J1 08J1 09J1 = 4 <= 5 (pi-bak).
OPP_PILE = ("02A 04A 04R 05A 05R 06A 06R 06J1 07A 07R 07J1 08A 08J1 09A 09R 09J1 10A 10R 12A "
            "12R")


def forced_two(**extra):
    """2 players, seat 1 decides (its last card played); 11B and 12B lie in the layout."""
    pos = {"players": 2, "me": seat(1), "hand": "", "layout": "11B 12B",
           "piles": [OPP_PILE, ME_PILE]}
    pos.update(extra)
    return pos


def stop_net(pos, score=19, **rules):
    from analyzer.games.gostop import decide as GD
    from analyzer.games.gostop.play import Policy
    from analyzer.games.gostop.rules import GoStopRules

    out = GD.decide(pos, GoStopRules(**rules), Policy("greedy"), Policy("greedy"),
                    RunSpec(10, 1, progress=False))
    assert out["forced"] and out["recommendation"] == "stop" and out["n"] == 0
    assert out["position"]["score"] == score
    return out["stop_payment"]


@pytest.mark.parametrize("extra,rules,pays", [
    # (S + g) x 2^shaken x GO(g) x nagari x gwang-bak 2 x pi-bak 2
    ({}, {}, 19 * 4),
    ({"go_counts": [0, 2], "last_go": [0, 15]}, {}, 21 * 4),
    ({"go_counts": [0, 3], "last_go": [0, 18]}, {}, 22 * 2 * 4),          # source: x2 from 3
    ({"go_counts": [0, 4], "last_go": [0, 18]}, {}, 23 * 2 * 4),          # source: still x2
    ({"go_counts": [0, 4], "last_go": [0, 18]}, {"go_multiplier": "korean"}, 23 * 4 * 4),
    ({"go_counts": [0, 3], "last_go": [0, 18]}, {"go_multiplier": "literal_gt3"}, 22 * 4),
    ({"go_counts": [0, 4], "last_go": [0, 18]}, {"go_multiplier": "literal_gt3"}, 23 * 2 * 4),
    ({"go_counts": [0, 4], "last_go": [0, 18]}, {"go_multiplier": "cap2"}, 21 * 4 * 4),
    ({"shaken": ["", "3"]}, {}, 19 * 2 * 4),
    ({"shaken": ["4", "3 5"]}, {}, 19 * 4 * 4),                            # the winner's count
    ({"nagari": 1}, {}, 19 * 2 * 4),
    ({"nagari": 2}, {}, 19 * 2 * 4),                                      # once
    ({"nagari": 2}, {"nagari_multiplier": "stack"}, 19 * 4 * 4),
    ({"nagari": 3}, {"nagari_multiplier": "stack"}, 19 * 8 * 4),
    ({}, {"pibak_threshold": 3}, 19 * 2),                                 # junk 4 > 3
    ({}, {"pibak_threshold": 4}, 19 * 4),
    ({}, {"target": 19}, 19 * 4),                                         # exactly the minimum
])
def test_gostop_forced_stop_payments_by_hand(extra, rules, pays):
    assert stop_net(forced_two(**extra), **rules) == pays


def test_gostop_forced_stop_below_a_raised_target_is_refused():
    with pytest.raises(UserError, match="below the stop minimum 20"):
        stop_net(forced_two(), target=20)


def test_gostop_four_brights_and_an_opponent_without_junk():
    # 11B joins my pile: 4 brights without the rain bright: 4 points (sloperama: 5) -> S = 20/21
    pos = forced_two(layout="12B", piles=[OPP_PILE, ME_PILE + " 11B"])
    assert stop_net(pos, 20) == 20 * 4
    assert stop_net(pos, 21, four_brights=5) == 21 * 4
    # the opponent's four junk come to me: junk 26 -> 17 points, S = 23; the opponent has 0 junk:
    # pi-bak (0 included) unless the house rule exempts it
    moved = "06J1 07J1 08J1 09J1"
    opp = " ".join(c for c in OPP_PILE.split() if c not in moved.split())
    pos = forced_two(piles=[opp, ME_PILE + " " + moved])
    assert stop_net(pos, 23) == 23 * 4
    assert stop_net(pos, 23, pibak_exempt_zero=True) == 23 * 2


def test_gostop_three_players_go_bak_and_a_seat_that_is_not_first():
    # 3 players (target 3); seat 2, the last to play, decides after its last card. Seat 0 holds
    # no bright and junk 06J1 (1); seat 1 no bright and junk 07J1 08J1 09J1 (3): each pays
    # 19 x 2 (gwang-bak) x 2 (pi-bak) = 76. With go-bak, seat 0, who had called go, pays both
    # amounts and seat 1 nothing.
    from analyzer.games.gostop.decide import build_position
    from analyzer.games.gostop.rules import GoStopRules
    from kernels.gostop import score as KS

    pos = {"players": 3, "me": seat(2), "hand": "", "layout": "11B 12B",
           "piles": ["02A 04A 04R 05A 05R 06A 06R 06J1 07A 07R",
                     "07J1 08A 08J1 09A 09R 09J1 10A 10R 12A 12R", ME_PILE],
           "go_counts": [1, 0, 0], "last_go": [3, 0, 0]}
    for go_bak, expect in ((False, [-76, -76, 152]), (True, [-152, 0, 152])):
        rules = GoStopRules(players=3, go_bak=go_bak)
        built, info = build_position(dict(pos), rules)
        assert info["forced_stop"] and info["me"] == 3 and info["turns_left"] == [0, 0, 0]
        net = np.zeros(KS.MAXP, np.int64)
        KS.settle(built.S, 2, 3, 0, net)
        assert list(net[:3]) == expect
        assert stop_net(dict(pos), players=3, go_bak=go_bak) == 152


# ---- Railroad Canasta --------------------------------------------------------------------------------

# Card types as the rules module's docstring states them: 0 joker, 1 two, 2 red three,
# 3 black three, 4..14 the ranks 4..A (T = 10, J = 11, Q = 12, K = 13, A = 14).
TYPE = {"JK": 0, "2": 1, "R3": 2, "B3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
        "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}

CANASTA_THREE = {
    "phase": "draw",
    "stock": 262,
    "me": {"score": -35, "hand": ["9H", "9D", "KS", "4C", "JK"],
           "melds": [["QS", "QH", "QD", "QC", "QS", "QH", "QD"]], "red_threes": 2,
           "kitty": "picked"},
    "opponents": [{"score": 5000, "hand_size": 9, "melds": [["AS", "AH", "2C"]],
                   "red_threes": 0, "kitty": "unpicked"},
                  {"score": 15000, "hand_size": 4, "red_threes": 1, "kitty": "unpicked"}],
    "pile": {"cards": ["5C", "JD", "9S"], "frozen": True},
}


def canasta_unseen_by_hand():
    """3 players: 3 shares of 106 cards (2 jokers, 8 twos, 4 red and 4 black threes, 8 of each
    other rank per share) minus every card the position shows."""
    deck = {t: 3 * n for t, n in (("JK", 2), ("2", 8), ("R3", 4), ("B3", 4))}
    deck.update({r: 24 for r in "4 5 6 7 8 9 T J Q K A".split()})
    shown = {"JK": 1, "2": 1, "R3": 3, "4": 1, "5": 1, "9": 3, "J": 1, "Q": 7, "K": 1, "A": 2}
    out = [0] * 15
    for t, n in deck.items():
        out[TYPE[t]] = n - shown.get(t, 0)
    return out


def test_canasta_three_player_arrays_by_hand():
    from analyzer.games.canasta.decide import parse_position
    from analyzer.games.canasta.rules import CanastaRules
    from kernels.canasta import layout as K

    pos = parse_position(CANASTA_THREE, CanastaRules(players=3))
    hand, kon, un, can, pl, pile, g, unseen, sizes = pos["arrays"]
    unseen_hand = canasta_unseen_by_hand()
    assert sum(unseen_hand) == 318 - 21
    assert list(unseen) == unseen_hand
    # 297 unseen = opponents' hands 9 + 4 + two face-down kitties of 11 + the stock 262
    assert pos["stock"] == 262 and pos["unseen"] == 297
    expect_hand = [0] * 15
    for t in ("9", "9", "K", "4", "JK"):
        expect_hand[TYPE[t]] += 1
    assert list(hand[0]) == expect_hand and not hand[1:].any()
    assert list(kon) == [0, 1, 1] and list(sizes) == [5, 9, 4]
    assert list(can[0]) == [1, 0, 0, 0] and not can[1:].any()
    assert list(un[1, TYPE["A"]]) == [2, 0, 1] and un.sum() == 3
    # meld card values: 7 queens 70; A-A-2 60; requirement by the page's table: below 0 -> 15,
    # 5000 -> 90, 15000 and above -> 150
    assert list(pl[:, K.C_MVAL]) == [70, 60, 0]
    assert list(pl[:, K.C_R3]) == [2, 0, 1]
    assert list(pl[:, K.C_MELDED]) == [1, 1, 0]
    assert list(pl[:, K.C_REQ]) == [15, 90, 150]
    assert list(pl[:, K.C_CUM]) == [-35, 5000, 15000]
    assert list(pl[:, K.C_KON]) == [0, 1, 1] and list(pl[:, K.C_KTURN]) == [-1, -1, -1]
    expect_pile = [0] * 15
    for t in ("5", "J", "9"):
        expect_pile[TYPE[t]] += 1
    assert list(pile) == expect_pile
    assert (g[K.G_PN], g[K.G_TOP], g[K.G_FROZEN]) == (3, TYPE["9"], 1)
    assert pos["kind"] == 0 and not pos["skip_draw"] and pos["players"] == 3


def test_canasta_requirement_knobs_reach_the_arrays():
    from analyzer.games.canasta.decide import parse_position
    from analyzer.games.canasta.rules import CanastaRules

    r = CanastaRules(players=3, requirement_thresholds=(0, 3000),
                     requirement_values=(10, 40, 80))
    pl = parse_position(CANASTA_THREE, r)["arrays"][4]
    from kernels.canasta import layout as K

    assert list(pl[:, K.C_REQ]) == [10, 80, 80]


def test_canasta_position_that_does_not_add_up_names_the_counts():
    from analyzer.games.canasta.position import check_position
    from analyzer.games.canasta.rules import CanastaRules

    with pytest.raises(UserError, match="297 unseen cards, but opponents' hands \\+ face-down "
                                        "kitties \\+ stock = 296"):
        check_position(dict(CANASTA_THREE, stock=261), CanastaRules(players=3))
    # a kitty of 9 cards (house rule): the same cards leave a stock 4 larger
    from analyzer.games.canasta.decide import parse_position

    assert parse_position(dict(CANASTA_THREE, stock=266),
                          CanastaRules(players=3, kitty_size=9))["stock"] == 266


GOOUT = {
    "phase": "meld", "stock": 128,
    "me": {"score": 12000, "hand": ["KS", "KH", "KD", "4C"],
           "melds": [["QS", "QH", "QD", "QC", "QS", "QH", "QD"],
                     ["JS", "JH", "JD", "JC", "JS", "2C", "JK"],
                     ["2S", "2H", "2D", "2C", "2S", "2H", "2D"],
                     ["7S", "7H", "7D", "7C", "7S", "7H", "7D"],
                     ["AS", "AH", "AD", "AC"]],
           "red_threes": 1, "kitty": "picked"},
    "opponents": [{"score": 11000, "hand_size": 23,
                   "melds": [["9S", "9H", "9D"], ["8S", "8H", "8D", "8C", "2S"]],
                   "red_threes": 2, "kitty": "unpicked"}],
    "pile": {"cards": ["5C", "TD", "6S"], "frozen": False},
}


@pytest.mark.parametrize("knobs,score", [
    # going out: melds K-K-K and discards the 4. Card values: queens 70, J x5 + 2 + JK 120,
    # seven twos 140, seven sevens 35, A x4 80, K-K-K 30 = 475
    ({}, 475 + 500 + 300 + 1000 + 1500 + 100 + 100),
    ({"going_out_bonus": 7, "red_three_bonus": 11, "bonus_red": 501, "bonus_black": 302,
      "bonus_wild": 1003, "bonus_sevens": 1504}, 475 + 501 + 302 + 1003 + 1504 + 11 + 7),
    ({"going_out_bonus": 0, "bonus_sevens": 0}, 475 + 500 + 300 + 1000 + 0 + 100 + 0),
])
def test_canasta_going_out_scores_every_bonus_knob_by_hand(knobs, score):
    from analyzer.games.canasta.decide import decide
    from analyzer.games.canasta.lineup import parse_policies
    from analyzer.games.canasta.rules import CanastaRules

    out = decide(GOOUT, CanastaRules(**knobs), parse_policies("greedy", 2),
                 RunSpec(64, 3, progress=False))
    a = out["round_score_a"]
    assert (a.estimate, a.se, a.ci_low, a.ci_high, a.n) == (score, 0, score, score, 64)


# ---- MAGDAGDON -----------------------------------------------------------------------------------------

def magdagdon(sets=()):
    from analyzer.games.magdagdon import rules as M
    from analyzer.rules import build_rules

    return build_rules(M.MagdagdonRules, sets=list(sets))


def line_score(values, straight=60, four=40, pairs=20):
    """One row or column by the scoring section: the sum of its numbers, plus one bonus when it
    holds four numbers (no ruin 'x'): straight in order either way, four of a kind, two pairs."""
    if "x" in values:
        return sum(v for v in values if v != "x")
    s = sum(values)
    if list(values) in ([1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]) or \
            list(values)[::-1] in ([1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]):
        return s + straight
    if len(set(values)) == 1:
        return s + four
    if len(set(values)) == 2 and sorted(values).count(sorted(values)[0]) == 2:
        return s + pairs
    return s


def board_score(rows, ruin=15, penalty=0, **bonus):
    """Rows and columns of a 4x4 board (lists of ints or 'x') by hand."""
    cols = [[r[c] for r in rows] for c in range(4)]
    ruins = sum(r.count("x") for r in rows)
    return sum(line_score(line, **bonus) for line in rows + cols) - ruin * ruins - penalty


def test_line_scores_by_hand_match_the_public_checks():
    # the rules page's public checks, for the helper itself
    for line, bonus in (([2, 3, 4, 5], 60), ([5, 4, 3, 2], 60), ([6, 5, 4, 3], 60),
                        ([1, 2, 2, 3], 0), ([3, 3, 3, 4], 0), ([4, 4, 4, 4], 40),
                        ([3, 4, 4, 3], 20), ([4, 3, 3, 4], 20), ([3, 4, 3, 4], 20)):
        assert line_score(line) == sum(line) + bonus
    assert board_score([["x"] * 4] * 4) == -240


FULL = [[3, 4, 5, 6], [3, 4, 5, 6], [3, 4, 5, 6]]


def best_values(rules, diff, roll, powers_left, n=40, board="3456/3456/3456/345."):
    from analyzer.games.magdagdon import decide as D
    from analyzer.games.magdagdon import lineup as ML
    from analyzer.games.magdagdon import rules as M

    cells = M.parse_board(board, rules)
    out = D.best(cells, roll, rules, M.difficulty(rules, diff), powers_left, RunSpec(n, 5),
                 ML.parse_policy("greedy"), top=100)
    return out, {x["text"]: x["mean_final_score"] for x in out["top"]}


@pytest.mark.parametrize("sets,bonus,ruin", [
    ((), {}, 15),
    (("straight_bonus=61", "four_kind_bonus=33", "ruin_penalty=7"),
     {"straight": 61, "four": 33}, 7),
])
def test_magdagdon_last_cell_values_with_scoring_knobs(sets, bonus, ruin):
    # r4c4 touches a 6 (above) and a 5 (left): only 5 or 6 fit; every action ends the game
    out, vals = best_values(magdagdon(sets), "nightmare", [5, 6, 1, 1], 0)
    six = board_score(FULL + [[3, 4, 5, 6]], **bonus)
    five = board_score(FULL + [[3, 4, 5, 5]], **bonus)
    assert vals["place 6@r4c4"].estimate == six and vals["place 6@r4c4"].se == 0
    assert vals["place 5@r4c4"].estimate == five and vals["place 5@r4c4"].se == 0
    assert out["recommendation"] == "place 6@r4c4"
    m = out["margin_over_second"]
    assert (m.estimate, m.se) == (six - five, 0)
    # a roll with no 5 or 6 is a MAGDAGDON: the only action ruins the cell
    out, vals = best_values(magdagdon(sets), "nightmare", [1, 1, 2, 3], 0)
    ruined = board_score(FULL + [[3, 4, 5, "x"]], ruin=ruin, **bonus)
    assert out["magdagdon"] and vals == {"accept MAGDAGDON, ruin r4c4": vals[
        "accept MAGDAGDON, ruin r4c4"]}
    assert vals["accept MAGDAGDON, ruin r4c4"].estimate == ruined
    assert out["margin_over_second"] is None


def test_magdagdon_power_costs_and_powers_are_knobs():
    # PEACEFUL with one power left (two used): the placements pay the first two costs
    for sets, paid, third in (((), 10 + 20, 40), (("peaceful_costs=[1,2,4]",), 1 + 2, 4)):
        _out, vals = best_values(magdagdon(sets), "peaceful", [5, 6, 1, 1], 1, n=20)
        assert vals["place 6@r4c4"].estimate == board_score(FULL + [[3, 4, 5, 6]]) - paid
        assert vals["place 5@r4c4"].estimate == board_score(FULL + [[3, 4, 5, 5]]) - paid
        # roll 4111 is a MAGDAGDON; the third power turns the 4 into a 5, which is then placed
        _out, vals = best_values(magdagdon(sets), "peaceful", [4, 1, 1, 1], 1, n=20)
        v = vals["power ±1: a 4 becomes 5"]
        assert v.se == 0 and v.estimate == board_score(FULL + [[3, 4, 5, 5]]) - paid - third
        assert vals["accept MAGDAGDON, ruin r4c4"].estimate == \
            board_score(FULL + [[3, 4, 5, "x"]]) - paid
    # NIGHTMARE has no power by default; one power costing 5 by house rule
    _out, vals = best_values(magdagdon(), "nightmare", [4, 1, 1, 1], 0)
    assert list(vals) == ["accept MAGDAGDON, ruin r4c4"]
    r = magdagdon(("nightmare_powers=1", "nightmare_costs=[5]"))
    _out, vals = best_values(r, "nightmare", [4, 1, 1, 1], 1, n=20)
    assert vals["power ±1: a 4 becomes 5"].estimate == board_score(FULL + [[3, 4, 5, 5]]) - 5
    # a 4 becoming 3 still fits nowhere: with no power left the cell is ruined, and the power
    # is paid as well
    assert vals["power ±1: a 4 becomes 3"].estimate == \
        board_score(FULL + [[3, 4, 5, "x"]]) - 5
    # SURVIVAL's single power: its cost is a knob too
    r = magdagdon(("survival_costs=[9]",))
    _out, vals = best_values(r, "survival", [4, 1, 1, 1], 1, n=20)
    assert vals["power ±1: a 4 becomes 5"].estimate == board_score(FULL + [[3, 4, 5, 5]]) - 9
    # two SURVIVAL powers by house rule, one already used: placing pays the first cost, the
    # second power both
    r = magdagdon(("survival_powers=2", "survival_costs=[9,4]"))
    _out, vals = best_values(r, "survival", [4, 5, 1, 1], 1, n=20)
    assert vals["place 5@r4c4"].estimate == board_score(FULL + [[3, 4, 5, 5]]) - 9
    _out, vals = best_values(r, "survival", [4, 1, 1, 1], 1, n=20)
    assert vals["power ±1: a 4 becomes 5"].estimate == board_score(FULL + [[3, 4, 5, 5]]) - 13
    with pytest.raises(UserError, match="SURVIVAL has 2 Majda Powers"):
        best_values(r, "survival", [4, 1, 1, 1], 3, n=20)


@pytest.mark.parametrize("diff,sets,need", [
    ("survival", (), 2), ("survival", ("survival_min_dice=1",), 1),
    ("nightmare", (), 3), ("nightmare", ("nightmare_min_dice=2",), 2),
    ("peaceful", ("peaceful_min_dice=3",), 3),
])
def test_magdagdon_minimum_dice_knobs_decide_which_placements_are_listed(diff, sets, need):
    # three empty cells r4c2..r4c4 under 4, 5, 6 (left of them a 3): roll 4 5 6 1 fits them
    out, vals = best_values(magdagdon(sets), diff, [4, 5, 6, 1], 0, n=4,
                            board="3456/3456/3456/3...")
    assert out["min_dice"] == need
    placed = {x["dice"] for x in out["top"] if x["action"] == "place"}
    assert min(placed) == need and max(placed) == 3


# A go decision whose rest of the deal is worked out by hand. 2 players, seat 1 (the last to
# play) has just reached S = 7 (cheongdan 06R 09R 10R: 3; junk 13: 4) with one card left (06J1);
# seat 0 has one turn left, with an empty hand and one bomb skip token. Two cards are unseen,
# 09A and 10A: the stock, in one of two orders. After a go: seat 0 skips and flips the top card;
# seat 1 plays 06J1 onto 06J2 and flips the other.
#   order 10A, 09A: seat 0 captures 10A + 10J1 (its score 4 -> 5, below 7); seat 1 takes
#     06J1 06J2 (junk 15: 6) and lays 09A: S = 9 > 7 at its last turn: it stops and is paid
#     (9 + 1 go) = 10 (no multiplier: no bright, the opponent's junk 14 > 5);
#   order 09A, 10A: seat 0 lays 09A; seat 1 takes 06J1 06J2 and, with its flip, 10A + 10J1
#     (junk 16: 7): S = 10, paid 11.
# Stopping now pays 7. Going: 10 or 11 with chance 1/2 each (the shuffle of the two unseen cards).
GO_BY_HAND = {
    "players": 2, "me": seat(1), "hand": "06J1",
    "layout": "01B 01R 02A 02R 03B 03R 04A 04R 05A 05R 06J2 07A 07R 08B 08A 10J1 11B 11D 12B 12A",
    "piles": ["06A 07J1 07J2 08J1 08J2 09J1 09J2 10J2 11J2 12R X2 X3",
              "06R 09R 10R 01J1 01J2 02J1 02J2 03J1 03J2 04J1 04J2 05J1 05J2 11J1 12D"],
    "skip_tokens": [1, 0], "bombs": [1, 0],
}


def test_gostop_go_by_hand_over_the_two_orders_of_the_hidden_cards():
    from analyzer.games.gostop import decide as GD
    from analyzer.games.gostop.play import Policy
    from analyzer.games.gostop.rules import GoStopRules

    n = 4000
    out = GD.decide(dict(GO_BY_HAND), GoStopRules(), Policy("greedy"), Policy("greedy"),
                    RunSpec(n, 9, progress=False))
    pos = out["position"]
    assert pos["score"] == 7 and pos["turns_left"] == [1, 1] and pos["stock"] == 2
    assert pos["opponent_hand_sizes"] == [0]
    assert out["stop_payment"] == 7
    go = out["go_payment"]
    # only 10 and 11 occur: k playouts paid 10, n - k paid 11
    k = round(n * (11 - go.estimate))
    p = k / n
    assert go.estimate == pytest.approx(11 - p, abs=1e-12)
    assert go.se == pytest.approx((p * (1 - p) / (n - 1)) ** 0.5, rel=1e-9)
    # each order has chance 1/2 (a uniform shuffle of the two unseen cards)
    assert abs(p - 0.5) <= 4.5 * (0.25 / n) ** 0.5
    d = out["difference_go_minus_stop"]
    assert d.estimate == pytest.approx(go.estimate - 7) and d.ci_low > 0
    assert out["recommendation"] == "go"
    after = out["after_go"]
    assert after["p_win"].estimate == 1 and after["p_nagari"].estimate == 0


def test_magdagdon_action_listing_counted_by_hand():
    # roll 1 1 2 5 on a board with one empty cell r4c4 that only a 5 or 6 fits (PEACEFUL, one
    # power left): placements: the 5 only; ±1: a 1 becomes 2, a 2 becomes 1 or 3, a 5 becomes 4
    # or 6 (5 actions); rerolls: every non-empty sub-multiset of {1, 1, 2, 5}: 3·2·2 − 1 = 11
    from analyzer.games.magdagdon import decide as D
    from analyzer.games.magdagdon import rules as M

    R = magdagdon()
    cells = M.parse_board("3456/3456/3456/345.", R)
    acts, ok, need = D.actions(cells, [1, 1, 2, 5], R, M.difficulty(R, "peaceful"), 1)
    kinds = [a["action"] for a, _row in acts]
    assert ok and need == 1
    assert [a["text"] for a, _ in acts if a["action"] == "place"] == ["place 5@r4c4"]
    assert sorted(a["change"] for a, _ in acts if a["action"] == "power ±1") == \
        ["1→2", "2→1", "2→3", "5→4", "5→6"]
    rerolls = sorted(tuple(a["reroll"]) for a, _ in acts if a["action"] == "power reroll")
    assert len(rerolls) == 11 == len(set(rerolls)) and (1, 1, 2, 5) in rerolls
    assert kinds.count("accept") == 0
    # no power left: only the placement
    acts, *_ = D.actions(cells, [1, 1, 2, 5], R, M.difficulty(R, "peaceful"), 0)
    assert [a["text"] for a, _ in acts] == ["place 5@r4c4"]
    # a MAGDAGDON on a board with two empty cells: accept with the ruin on either
    cells = M.parse_board("3456/3456/3456/34..", R)
    acts, ok, need = D.actions(cells, [1, 1, 1, 1], R, M.difficulty(R, "nightmare"), 0)
    assert not ok and need == 2
    assert [a["text"] for a, _ in acts] == ["accept MAGDAGDON, ruin r4c3",
                                           "accept MAGDAGDON, ruin r4c4"]


# ---- Railroad Canasta: every refusal of a position, word for word -----------------------------
# The base is the shipped example written out here (2 players, 212 cards): shown are my 12-card
# hand, my 5-card meld and red three, the opponent's 7 melded cards and the 6-card pile = 31;
# unseen 181 = the opponent's 11 cards + two face-down kitties of 11 + a stock of 148.

def canasta_base() -> dict:
    return {"phase": "draw", "stock": 148,
            "me": {"score": 5200, "hand": ["9H", "9D", "KS", "KH", "4C", "6D", "AS", "JS", "8C",
                                           "TD", "3S", "5H"],
                   "melds": [["QS", "QH", "QD", "QC", "2C"]], "red_threes": 1,
                   "kitty": "unpicked"},
            "opponents": [{"score": 3100, "hand_size": 11,
                           "melds": [["AS", "AH", "AD"], ["8S", "8H", "8D", "JK"]],
                           "red_threes": 0, "kitty": "unpicked"}],
            "pile": {"cards": ["5C", "JD", "4S", "KD", "6H", "9S"], "frozen": False}}


def canasta_refusal(data, rules=None) -> str:
    from analyzer.games.canasta.position import check_position
    from analyzer.games.canasta.rules import CanastaRules

    with pytest.raises(UserError) as e:
        check_position(data, rules or CanastaRules())
    return str(e.value)


def _with(path, value):
    """The base position with one entry set (``path``: keys and list indexes)."""
    data = canasta_base()
    node = data
    for k in path[:-1]:
        node = node[k]
    if value is _DROP:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


_DROP = object()
OPP = ("opponents", 0)


@pytest.mark.parametrize("path, value, message", [
    (("colour",), 1, "unknown key 'colour' in the position file"),
    (("phase",), 5, "'phase' must be a string in quotes, got 5"),
    (("phase",), "discard", "'phase' must be \"draw\" (take the pile or draw) or \"meld\" (after "
                            "drawing: go out or play on)"),
    (("me",), _DROP, "the position needs a [me] table"),
    (("me",), 5, "me must be a table, got 5"),
    (("opponents",), _DROP, "the position needs at least one [[opponents]] table"),
    (("opponents",), [], "the position needs at least one [[opponents]] table"),
    (("opponents",), {"hand_size": 11}, "the position needs at least one [[opponents]] table"),
    (("me", "melds"), "QS", "me: 'melds' must be a list of melds (each a list of cards)"),
    (("me", "melds"), [[1, 2, 3]], "me: a meld must be a string or a list of strings, got "
                                   "[1, 2, 3]"),
    (("me", "colour"), "red", "unknown key 'colour' for me (known: hand, hand_size, kitty, "
                              "melds, red_threes, score)"),
    (("me", "melds"), [["3S", "3C", "3S"]], "me: meld 3S 3C 3S is not legal: black threes may "
                                            "only be melded on the turn the player goes out"),
    (("me", "hand"), _DROP, "me: 'hand' must list your cards"),
    (("me", "hand"), 5, "me: 'hand' must be a string or a list of strings, got 5"),
    (("me", "hand"), ["3H", "9D"], "me: a red three cannot be in the hand (it is placed at once)"),
    (OPP + ("hand",), ["9D"], "opponent 1: give 'hand_size', not the cards (they are unseen)"),
    (OPP + ("hand_size",), 0, "opponent 1: 'hand_size' must be a positive integer"),
    (OPP + ("hand_size",), True, "opponent 1: 'hand_size' must be a positive integer"),
    (OPP + ("hand_size",), "11", "opponent 1: 'hand_size' must be a positive integer"),
    (OPP + ("kitty",), 5, "opponent 1: 'kitty' must be a string in quotes, got 5"),
    (OPP + ("kitty",), "open", "opponent 1: 'kitty' must be \"picked\" or \"unpicked\""),
    (("me", "score"), "lots", "me: 'score' must be an integer of at most 1,000,000 in size"),
    (("me", "score"), True, "me: 'score' must be an integer of at most 1,000,000 in size"),
    (("me", "score"), 1_000_001, "me: 'score' must be an integer of at most 1,000,000 in size"),
    (("me", "score"), -1_000_001, "me: 'score' must be an integer of at most 1,000,000 in size"),
    (OPP + ("red_threes",), 1.5, "opponent 1: 'red_threes' must be an integer of at most "
                                 "1,000,000 in size"),
    (OPP + ("kitty",), "picked", "opponent 1: the kitty is picked up only after a red, wild or "
                                 "sevens canasta (kitty = \"unpicked\")"),
    (OPP + ("melds",), [["AS", "AH", "AD"], ["8S", "8H", "8D", "JK"],
                        ["2S", "2H", "2D", "2C", "2S", "2H", "JK"]],
     "opponent 1: owns a red, wild or sevens canasta, so the kitty was already picked up "
     "(kitty = \"picked\")"),
    (OPP + ("melds",), [["AS", "AH", "AD"], ["AC", "AS", "2H"]],
     "opponent 1: two unfinished AC melds"),
    (("pile",), 5, "pile must be a table, got 5"),
    (("pile", "colour"), 1, "unknown key 'colour' in [pile] (known: cards, frozen)"),
    (("pile", "cards"), 9, "pile: 'cards' must be a string or a list of strings, got 9"),
    (("pile", "frozen"), "yes", "pile: 'frozen' must be true or false (without quotes), got "
                                "'yes'"),
    (("stock",), -1, "'stock' must be the number of cards left in the stock (>= 0)"),
    (("stock",), True, "'stock' must be the number of cards left in the stock (>= 0)"),
    (("stock",), "148", "'stock' must be the number of cards left in the stock (>= 0)"),
    (("stock",), 0, "the stock is empty: drawing is impossible (taking the pile or ending the "
                    "round is the only choice)"),
    # the QS is in my meld once and on the pile four times: 5 > 2 players' 4 copies
    (("pile", "cards"), ["5C", "QS", "QS", "QS", "QS", "9S"],
     "card QS appears 5 times but 2 players' decks hold only 4"),
    # 8 red threes in 2 shares of 106 cards: 1 + 8 = 9 shown
    (OPP + ("red_threes",), 8, "the position shows more cards of type red 3 than 2 players' "
                               "decks hold (8)"),
    (("stock",), 147, "the position does not add up: 181 unseen cards, but opponents' hands + "
                      "face-down kitties + stock = 180"),
])
def test_canasta_position_refusals_word_for_word(path, value, message):
    assert canasta_refusal(_with(path, value)) == message


def test_canasta_position_refusals_that_need_more_than_one_change():
    from analyzer.games.canasta.decide import decide
    from analyzer.games.canasta.position import check_objective
    from analyzer.games.canasta.rules import CanastaRules

    with pytest.raises(UserError) as e:
        check_objective("mine")
    assert str(e.value) == "--objective must be own or lead (got 'mine')"
    with pytest.raises(UserError) as e:
        decide(canasta_base(), CanastaRules(), [], RunSpec(10, 1), "mine")
    assert str(e.value) == "--objective must be own or lead (got 'mine')"
    # after drawing (phase meld) my hand has at least 2 cards: one card is refused...
    data = _with(("phase",), "meld")
    data["me"]["hand"], data["stock"] = ["9H"], 159
    assert canasta_refusal(data) == "me: after drawing, the hand has at least 2 cards"
    # ... while in the draw phase one card is fine (11 cards back to the stock: 159)
    data["phase"] = "draw"
    from analyzer.games.canasta.position import check_position

    assert check_position(data, CanastaRules()).players[0].hsize == 1
    # an opponent holding 1 card (10 more in the stock) is fine in either phase
    data = canasta_base()
    data["opponents"][0]["hand_size"], data["stock"] = 1, 158
    for phase in ("draw", "meld"):
        data["phase"] = phase
        assert check_position(data, CanastaRules()).players[1].hsize == 1
    # the second of two opponents is "opponent 2" (3 players: 318 cards, see the 3-player test)
    data = canasta_base()
    data["opponents"].append({"hand_size": 0})
    assert canasta_refusal(data, CanastaRules(players=3)) == (
        "opponent 2: 'hand_size' must be a positive integer")
    # every meld's cards count towards a card's copies, not only the last meld's: the QS three
    # times in my first meld and twice on the pile
    data = _with(("me", "melds"), [["QS", "QS", "QS"], ["KD", "KC", "KH"]])
    data["pile"]["cards"] = ["5C", "JD", "4S", "QS", "QS", "9S"]
    assert canasta_refusal(data) == "card QS appears 5 times but 2 players' decks hold only 4"
    # a wild canasta alone (no red or sevens) already brought the kitty
    data = canasta_base()
    data["opponents"][0]["melds"] = [["2S", "2H", "2D", "2C", "2S", "2H", "JK"]]
    assert canasta_refusal(data) == (
        "opponent 1: owns a red, wild or sevens canasta, so the kitty was already picked up "
        "(kitty = \"picked\")")


def test_canasta_position_edges_and_defaults_that_are_accepted():
    from analyzer.games.canasta.decide import parse_position
    from analyzer.games.canasta.position import check_position
    from analyzer.games.canasta.rules import CanastaRules
    from kernels.canasta import layout as K

    R = CanastaRules()
    # scores of exactly +-1,000,000 are allowed; a 'rules' table may ride along in the file
    for score in (1_000_000, -1_000_000):
        assert check_position(_with(("me", "score"), score), R).players[0].score == score
    assert check_position(_with(("rules",), {"players": 2}), R).stock == 148
    # every red three shown (1 + 7 = 8 of 8): none unseen, 7 fewer unseen cards, stock 141
    data = _with(OPP + ("red_threes",), 7)
    data["stock"] = 141
    assert check_position(data, R).unseen[2] == 0
    # left out: phase (draw), pile (empty, not frozen), the opponent's kitty (unpicked) and
    # score (0); the pile's 6 cards go back to the stock (154)
    data = canasta_base()
    del data["phase"], data["pile"], data["opponents"][0]["kitty"], data["me"]["score"]
    data["stock"] = 154
    pos = parse_position(data, R)
    pos_hand, kon, pos_un, pos_can, pos_pl, pile0, g0, unseen, sizes = pos["arrays"]
    assert pos["phase"] == "draw" and pos["kind"] == 0 and pos["top"] is None
    assert list(kon) == [1, 1] and g0[K.G_PN] == 0 and g0[K.G_TOP] == -1 and g0[K.G_FROZEN] == 0
    assert pos_pl[0, K.C_CUM] == 0 and pos_pl[0, K.C_REQ] == 50  # score 0: minimum 50 (0-4995)
    # the example's pile: 9S on top, the 6H below it; two 5s on the pile count twice
    pos = parse_position(canasta_base(), R)
    assert pos["top"] == "9S" and pos["arrays"][6][K.G_TOP] == 9
    data = canasta_base()
    data["pile"]["cards"] = ["5C", "JD", "4S", "KD", "5H", "9S"]
    data["me"]["hand"] = ["9H", "9D", "KS", "KH", "4C", "6D", "AS", "JS", "8C", "TD", "3S", "6H"]
    pile0 = parse_position(data, R)["arrays"][5]
    assert pile0[5] == 2 and pile0[6] == 0 and pile0.sum() == 6
    # every array the kernel takes is int64 (its compiled signatures; a float array would make
    # Numba compile another version of the kernel)
    assert all(a.dtype == np.int64 for a in parse_position(canasta_base(), R)["arrays"])
    # two black canastas of the opponent are counted as two
    data = canasta_base()
    data["opponents"][0]["melds"] = [["AS", "AH", "AD", "AC", "AS", "2H", "JK"],
                                     ["8S", "8H", "8D", "8C", "8S", "2S", "2D"]]
    data["stock"] = 141
    can = parse_position(data, R)["arrays"][3]
    assert list(can[1]) == [0, 2, 0, 0]
    # a meld of sevens with a wild card is legal only under wilds_in_sevens, for me and for an
    # opponent alike (the knob reaches the meld check)
    data = canasta_base()
    data["me"]["melds"] = [["QS", "QH", "QD", "QC", "2C"], ["7S", "7H", "2D"]]
    data["opponents"][0]["melds"] = [["AS", "AH", "AD"], ["8S", "8H", "8D", "JK"],
                                     ["7D", "7C", "2S"]]
    data["stock"] = 142
    assert canasta_refusal(data) == ("me: meld 7S 7H 2D is not legal: no wild card may join a "
                                     "meld of sevens")
    assert check_position(data, CanastaRules(wilds_in_sevens=True)).stock == 142
    data["me"]["melds"] = [["QS", "QH", "QD", "QC", "2C"]]
    data["stock"] = 145
    assert canasta_refusal(data) == ("opponent 1: meld 7D 7C 2S is not legal: no wild card may "
                                     "join a meld of sevens")
    assert check_position(data, CanastaRules(wilds_in_sevens=True)).stock == 145


# ---- Go-Stop: a position's refusals word for word, its defaults and edges ---------------------
# The shipped example (2 players, 10-card hands; 50 cards with the jokers X2 and X3): seat 1 has
# just played its 6th turn. Shown: its 4-card hand, 4 layout cards, piles of 15 and 13 = 36, so
# 14 unseen; seat 1 has 4 turns left, seat 2 (after it) 5, all in its hand: a stock of 9.

GS = {"players": 2, "me": 1, "hand": "07R 10R 11J1 09A", "layout": "04J1 08J1 12D 07J1",
      "piles": ["01B 03B 08B 01R 02R 03R 02A 04A 01J1 01J2 X2 X3 05J1 05J2 06J1",
                "12B 11B 05A 06A 07A 12A 10A 06R 09R 02J1 02J2 03J1 03J2"]}
GS_ME = GS["piles"][0]
GS_OPP = GS["piles"][1]


def gs_check(**change):
    from analyzer.games.gostop.position import check_position
    from analyzer.games.gostop.rules import GoStopRules

    return check_position(dict(GS, **change), GoStopRules())


def gs_refusal(**change) -> str:
    with pytest.raises(UserError) as e:
        gs_check(**change)
    return str(e.value)


NINE = "07R 10R 11J1 09A 04R 04J2 07J2 08A 08J2"  # the hand with 5 unseen cards added


@pytest.mark.parametrize("change, message", [
    ({"colour": 1}, "unknown position key(s): colour (known: bombs, go_counts, hand, last_go, "
                    "layout, me, nagari, piles, players, shaken, skip_tokens, stacks, stock)"),
    ({"me": 3}, "position 'me' = 3: seats are 1..2"),
    ({"colour": 1, "size": 2}, "unknown position key(s): colour, size (known: bombs, go_counts, "
                               "hand, last_go, layout, me, nagari, piles, players, shaken, "
                               "skip_tokens, stacks, stock)"),
    ({"hand": "07R 10R 11J1 09Z"}, "unknown card '09Z' in hand (write month + class, e.g. 01B, "
                                   "02A, 09R, 05J1, 11D, or a joker X2/X3)"),
    ({"layout": "04J1 08J1 12D 07Z"}, "unknown card '07Z' in layout (write month + class, e.g. "
                                      "01B, 02A, 09R, 05J1, 11D, or a joker X2/X3)"),
    ({"piles": [GS_ME, GS_OPP + " 13B"]}, "unknown card '13B' in pile of seat 2 (write month + "
                                          "class, e.g. 01B, 02A, 09R, 05J1, 11D, or a joker "
                                          "X2/X3)"),
    ({"piles": None}, "the cards do not add up: 42 unseen cards, opponents' hands 5, so a stock "
                      "of 37, but 9 turns are left (check the hand, the piles and the layout)"),
    ({"bombs": ["X1", 0]}, "position 'bombs' must be an integer, got 'X1'"),
    ({"hand": 5}, "hand must be a string in quotes, got 5"),
    ({"layout": 5}, "layout must be a string in quotes, got 5"),
    ({"stacks": 5}, "stacks must be a string or a list of strings, got 5"),
    ({"piles": 5}, "piles must be a string or a list of strings, got 5"),
    ({"piles": [GS_ME]}, "'piles' must give one capture pile per seat (2): piles separated by "
                         "',' and a pile's cards by ':' (e.g. 01B:03B,11J1:12D)"),
    ({"stacks": "04R:04J2"}, "stack '04R 04J2' must be exactly three cards of one month (stacks "
                             "are separated by ',' and a stack's cards by ':', e.g. "
                             "05A:05R:05J1@2,06A:06R:06J1)"),
    ({"stacks": "04R:04J2:08A"}, "stack '04R 04J2 08A' must be exactly three cards of one month "
                                 "(stacks are separated by ',' and a stack's cards by ':', e.g. "
                                 "05A:05R:05J1@2,06A:06R:06J1)"),
    ({"stacks": "04R:04J2:07J2@3"}, "stack creator @3 = 3: seats are 1..2"),
    ({"layout": "04J1 08J1 12D X2", "piles": [GS_ME.replace(" X2", ""), GS_OPP]},
     "a joker cannot lie in the layout (it goes to the dealer's pile)"),
    ({"layout": "04J1 08J1 12D X3", "piles": [GS_ME.replace(" X3", ""), GS_OPP]},
     "a joker cannot lie in the layout (it goes to the dealer's pile)"),
    ({"layout": "04J1 04R 04J2 07J1"}, "layout holds 3 single cards of month 4: three cards of "
                                       "a month form a stack (list them under stacks)"),
    ({"hand": "10R 11J1 09A", "stacks": "07R:07J2:07A",
      "piles": [GS_ME, GS_OPP.replace(" 07A", "")]},
     "month 7 has both a stack and singles in the layout"),
    ({"go_counts": 5}, "position 'go_counts' must list one value per seat (2 seats)"),
    ({"go_counts": "0"}, "position 'go_counts' must list one value per seat (2 seats)"),
    ({"go_counts": ["a", 0]}, "position 'go_counts' must be an integer, got 'a'"),
    ({"last_go": [0, 1001]}, "position 'last_go' = 1001 is outside 0..1000"),
    ({"bombs": [True, 0]}, "position 'bombs' must be an integer, got True"),
    ({"bombs": [5, 0]}, "position 'bombs' = 5 is outside 0..4"),
    ({"bombs": ["-1", 0]}, "position 'bombs' = -1 is outside 0..4"),
    ({"skip_tokens": [0, 11]}, "position 'skip_tokens' = 11 is outside 0..10"),
    ({"skip_tokens": [0, 6]}, "an opponent has more skip tokens than turns left"),
    ({"nagari": 21}, "position 'nagari' = 21 is outside 0..20"),
    ({"nagari": "0000000000001"}, "position 'nagari' must be an integer, got '0000000000001'"),
    ({"shaken": 5}, "shaken must be a string in quotes, got 5"),
    ({"shaken": [5, ""]}, "shaken must be a string in quotes, got 5"),
    ({"shaken": "5"}, "'shaken' must give the shaken months of each seat (2): seats separated by "
                      "',' and one seat's months by ':' (e.g. 5:11,)"),
    ({"shaken": ["x", ""]}, "shaken month 'x' is not a number 1-12"),
    ({"shaken": ["123", ""]}, "shaken month '123' is not a number 1-12"),
    ({"shaken": [[True], []]}, "shaken month True is not a number 1-12"),
    ({"shaken": [[2.5], []]}, "shaken month 2.5 is not a number 1-12"),
    ({"shaken": ["13", ""]}, "shaken month 13 is not in 1-12"),
    ({"shaken": [[0], []]}, "shaken month 0 is not in 1-12"),
    ({"stock": 8}, "stock = 8 does not match the position (it must be 9)"),
    ({"stock": "x"}, "position 'stock' must be an integer, got 'x'"),
    # ten cards in seat 1's hand after its turn: seat 2 would have eleven turns left
    ({"hand": NINE + " 09J1"}, "seat 1 holds 10 cards (+0 skips) after its turn: more than a "
                               "10-card hand allows"),
    ({"hand": NINE + " 09J1", "me": 2}, "seat 2 holds 10 cards (+0 skips) after its turn: a "
                                        "10-card hand has at most 9 turns left"),
    # nine cards pass the turn checks (9 and 10 turns left) but not the count: 9 unseen cards,
    # seat 2's hand of 10, a stock of -1, 19 turns left
    ({"hand": NINE}, "the cards do not add up: 9 unseen cards, opponents' hands 10, so a stock "
                     "of -1, but 19 turns are left (check the hand, the piles and the layout)"),
    ({"go_counts": [1, 0], "last_go": [7, 0]},
     "seat 1 is not at a go/stop decision: score 7 does not exceed the score of the last go (7)"),
])
def test_gostop_position_refusals_word_for_word(change, message):
    assert gs_refusal(**change) == message


def test_gostop_position_defaults_edges_and_stacks_by_hand():
    from analyzer.games.gostop.decide import build_position
    from analyzer.games.gostop.rules import GoStopRules

    p = gs_check()
    assert (p.me, p.remaining, p.opp_sizes, p.turns, p.stock, p.score) == (
        0, [4, 5], [0, 5], [6, 5], 9, 7)
    assert (p.go_counts, p.last_go, p.bombs, p.skip, p.shaken, p.nagari, p.stacks) == (
        [0, 0], [0, 0], [0, 0], [0, 0], [[], []], 0, [])
    base = dict(GS)
    del base["me"]
    from analyzer.games.gostop.position import check_position

    assert check_position(base, GoStopRules()).me == 0  # 'me' left out: seat 1
    # lists as one text, both separators; 12-digit counters; edges of each bound
    p = gs_check(go_counts="1;0", bombs="4,0", nagari="000000000020", last_go=[6, 1000],
                 skip_tokens=[0, 0], shaken="1:12,", stock="9")
    assert (p.go_counts, p.bombs, p.nagari, p.last_go, p.shaken) == (
        [1, 0], [4, 0], 20, [6, 1000], [[1, 12], []])
    assert gs_check(shaken=[[5, 11], ["3", "4"]]).shaken == [[5, 11], [3, 4]]
    assert gs_check(go_counts="0,0,").go_counts == [0, 0]  # an empty entry is skipped
    # no layout key: an empty layout (its four cards moved to seat 2's pile)
    no_layout = dict(GS, piles=[GS_ME, GS_OPP + " 04J1 08J1 12D 07J1"])
    del no_layout["layout"]
    assert check_position(no_layout, GoStopRules()).layout == []
    # no hand key: an empty hand (the forced stop below has none)
    no_hand = forced_two()
    del no_hand["hand"]
    assert check_position(no_hand, GoStopRules()).hand == []
    # no go yet: the score at an earlier go does not matter
    assert gs_check(go_counts=[0, 0], last_go=[7, 0]).last_go == [7, 0]
    # a stack from the layout's 07J1, the unseen 07J2 and seat 2's 07A; seat 2's 12A goes
    # back to the unseen cards so that they still add up (14 unseen, a stock of 9). The creator's
    # turn index: its turns played - 1 (seat 1: 6 - 1, seat 2: 5 - 1); no creator: -1, -1
    stacked = dict(layout="04J1 08J1 12D", piles=[GS_ME, GS_OPP.replace(" 07A", "")
                                                  .replace(" 12A", "")])
    cards = [4 * 6 + 2, 4 * 6 + 3, 4 * 6 + 0]  # 07J1 07J2 07A (card = 4 x (month - 1) + class)
    for text, creator, turn in (("07J1:07J2:07A", -1, -1), ("07J1:07J2:07A@1", 0, 5),
                                ("07J1:07J2:07A@2", 1, 4)):
        (got,) = gs_check(stacks=text, **stacked).stacks
        assert (sorted(got[0]), got[1], got[2]) == (sorted(cards), creator, turn), text
    # an empty entry among the stacks is refused (it was once read as no stack)
    assert gs_refusal(stacks=",07J1:07J2:07A", **stacked).startswith("stack 1 is empty")
    # only the last '@' names the creator
    assert gs_refusal(stacks="07J1:07J2:07A@1@2", **stacked) == (
        "unknown card '07A@1' in stacks (write month + class, e.g. 01B, 02A, 09R, 05J1, 11D, or "
        "a joker X2/X3)")
    # build_position: bombs, the hand's names, what is left for the kernel
    built, info = build_position(dict(GS, bombs=[2, 1], go_counts=[1, 2], last_go=[6, 3]),
                                 GoStopRules())
    from kernels.gostop import score as KS
    from kernels.gostop import state as KSTATE

    assert list(built.PV[:2, KS.V_BOMBS]) == [2, 1]
    assert list(built.PV[:2, KS.V_FIRSTGO]) == [0, 1] and built.S[KSTATE.GOSEQ] == 2
    assert list(built.PV[:2, KS.V_LASTGO]) == [6, 3]
    assert info["hand"] == ["07R", "10R", "11J1", "09A"]
    assert built.remaining == [4, 5] and built.opp_sizes == [0, 5] and len(built.unseen) == 14


def test_gostop_make_state_defaults_shakes_and_hand_limit_by_hand():
    from analyzer.games.gostop.decide import make_state
    from analyzer.games.gostop.rules import GoStopRules
    from kernels.gostop import score as KS
    from kernels.gostop import state as K

    R = GoStopRules()
    empty = [[], []]
    b = make_state(R, None, [], [], empty, [])
    assert list(b.PV[:2, KS.V_GO]) == [0, 0] and list(b.PV[:2, KS.V_LASTGO]) == [0, 0]
    assert list(b.PV[:2, KS.V_BOMBS]) == [0, 0] and list(b.PV[:2, KS.V_TURNS]) == [0, 0]
    assert list(b.PV[:2, KS.V_FIRSTGO]) == [KS.NO_GO, KS.NO_GO] and b.S[K.GOSEQ] == 0
    assert list(b.S[K.SOWN:K.SOWN + 12]) == [-1] * 12  # no stack has a creator
    assert list(b.S[K.HN:K.HN + 2]) == [0, 0]
    # seat 2 goes once: it is the first to have gone (0); seat 1 never went
    b = make_state(R, [], [], [], empty, [], go_counts=[0, 1])
    assert list(b.PV[:2, KS.V_FIRSTGO]) == [KS.NO_GO, 0] and b.S[K.GOSEQ] == 1
    # two months shaken by seat 1: bits 5 - 1 and 11 - 1 of the mask, two shakes
    b = make_state(R, [], [], [], empty, [], shaken=[[5, 11], []])
    assert b.PV[0, KS.V_SHAKEMASK] == (1 << 4) | (1 << 10) and b.PV[0, KS.V_SHAKES] == 2
    # a hand may hold at most MAXH cards
    hand = list(range(K.MAXH))
    assert make_state(R, [hand, []], [], [], empty, []).S[K.HN] == K.MAXH
    with pytest.raises(UserError) as e:
        make_state(R, [[], hand + [K.MAXH]], [], [], empty, [])
    assert str(e.value) == f"seat 2 holds {K.MAXH + 1} cards; at most {K.MAXH}"


def test_gostop_forced_stop_says_why_and_seat_two_is_named_from_one():
    from analyzer.games.gostop import decide as GD
    from analyzer.games.gostop.play import Policy
    from analyzer.games.gostop.position import check_position
    from analyzer.games.gostop.rules import GoStopRules

    out = GD.decide(forced_two(), GoStopRules(), Policy("greedy"), Policy("greedy"),
                    RunSpec(10, 1, progress=False))
    assert out["reason"] == "no turn left for this seat: it must stop"
    assert out["position"]["me"] == 2 and out["position"]["turns_left"] == [0, 0]
    with pytest.raises(UserError) as e:
        check_position(forced_two(go_counts=[0, 1], last_go=[0, 19]), GoStopRules())
    assert str(e.value) == ("seat 2 is not at a go/stop decision: score 19 does not exceed the "
                            "score of the last go (19)")
