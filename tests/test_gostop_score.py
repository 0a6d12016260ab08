"""Go-Stop deck, notation, scoring and payments against the rules reference (docs/rules/gostop.md).

Every expected value below is derived by hand from sections 1, 7 and 9 of the rules page; the
derivation is in the comment next to it.
"""
import random

import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.games.gostop import rules as GR
from analyzer.games.gostop import score as SC
from analyzer.games.gostop import play as PL
from analyzer.games.gostop import lineup as LU
from analyzer.rules import build_rules
from kernels.gostop import score as KS

R = GR.GoStopRules()


def pts(text, rules=R):
    return SC.score_cards(GR.parse_cards(text, rules), rules)["points"]


def pay(win, opps, rules=R, **kw):
    return SC.payments(GR.parse_cards(win, rules),
                      [GR.parse_cards(o, rules) for o in opps], rules, **kw)


def amounts(win, opps, rules=R, **kw):
    return [row["pays"] for row in pay(win, opps, rules, **kw)["payments"]]


def test_deck_counts_match_rules_page():
    kinds = [int(KS.CKIND[c]) for c in range(48)]
    assert kinds.count(KS.KB) == 5 and kinds.count(KS.KA) == 9 and kinds.count(KS.KR) == 10
    assert kinds.count(KS.KJ) == 24
    assert sum(int(KS.CJUNK[c]) for c in range(48)) == 26       # 22 singles + 2 doubles
    assert sorted(GR.CARD_NAMES[c] for c in range(48) if KS.CKIND[c] == KS.KB) == \
        ["01B", "03B", "08B", "11B", "12B"]
    st = SC.pile_stats(list(range(50)), R)                        # whole deck + X2 + X3
    assert st[KS.T_JUNK] == 31
    assert len(set(GR.CARD_NAMES)) == 48


def test_g1_bright_tiers():
    assert pts("01B 03B 12B") == 2          # 3 with the rain bright
    assert pts("01B 03B 08B") == 3          # 3 without it
    assert pts("01B 03B 08B 12B") == 4      # any 4
    assert pts("01B 03B 08B 11B 12B") == 15
    assert pts("01B 12B") == 0
    five = GR.GoStopRules(four_brights=5)
    assert pts("01B 03B 08B 11B", five) == 5     # sloperama: 4 without 12B
    assert pts("01B 03B 08B 12B", five) == 4


def test_g2_animals_and_godori():
    out = SC.score_cards(GR.parse_cards("02A 04A 08A 05A 06A 07A 12A", R), R)
    assert out["points"] == 8               # 7 - 4 = 3, godori 5
    assert {x["line"]: x["points"] for x in out["breakdown"]} == {"7 animals": 3, "godori": 5}
    # meong-bak: 7 animals double every opponent: (8 + 0) * 2 = 16 (opponent has a bright,
    # junk value 6: no gwang-bak, no pi-bak)
    assert amounts("02A 04A 08A 05A 06A 07A 12A",
                   ["01B 01J1 01J2 03J1 03J2 04J1 04J2"]) == [16]


def test_g3_ribbons():
    assert pts("01R 02R 03R 06R 09R 10R 12R") == 9    # 7 ribbons 3, hongdan 3, cheongdan 3
    assert pts("04R 05R 12R") == 0                    # rain ribbon never completes chodan
    assert pts("01R 02R 03R 04R 05R 06R 07R 09R 10R 12R") == 15   # 6 + 3 + 3 + 3


def test_g4_junk():
    assert pts("01J1 01J2 02J1 02J2 03J1 03J2 04J1 04J2 11D 12D") == 3   # 8 + 2 + 2 = 12
    assert pts("01J1 01J2 02J1 02J2 03J1 03J2 04J1 04J2 05J1") == 0      # 9
    assert pts("01J1 01J2 02J1 02J2 03J1 03J2 04J1 04J2 05J1 X3") == 3   # 9 + 3 = 12


# Winner with junk value 16 (14 singles + 11D): S = 16 - 9 = 7. Opponent: one bright, junk 6.
JUNK16 = "01J1 01J2 02J1 02J2 03J1 03J2 04J1 04J2 05J1 05J2 06J1 06J2 07J1 07J2 11D"
OPP = "08B 08J1 08J2 09J1 09J2 10J1 10J2"


@pytest.mark.parametrize("mode,g,expected", [
    ("source", 0, 7), ("source", 2, 9),            # +1 per go
    ("source", 3, 20), ("source", 4, 22),          # (7 + g) x 2 from the 3rd go
    ("korean", 3, 20), ("korean", 4, 44), ("korean", 5, 96),   # (7 + g) x 2^(g-2)
    ("literal_gt3", 3, 10), ("literal_gt3", 4, 22),             # x2 only from the 4th go
    ("cap2", 4, 36), ("cap2", 5, 72),              # (7 + 2) x 2^(g-2)
])
def test_go_multiplier_variants(mode, g, expected):
    rules = GR.GoStopRules(go_multiplier=mode)
    assert amounts(JUNK16, [OPP], rules, go_count=g) == [expected]


def test_pibak_and_gwangbak():
    # opponent junk value 5 -> pi-bak: 7 * 2 = 14; junk 6 -> 7
    assert amounts(JUNK16, ["08B 08J1 08J2 09J1 09J2 10J1"]) == [14]
    assert amounts(JUNK16, [OPP]) == [7]
    # an opponent with no junk pays pi-bak unless the exempt-at-0 flag is on
    assert amounts(JUNK16, ["08B"]) == [14]
    assert amounts(JUNK16, ["08B"], GR.GoStopRules(pibak_exempt_zero=True)) == [7]
    # threshold 7: junk 6 now pays pi-bak
    assert amounts(JUNK16, [OPP], GR.GoStopRules(pibak_threshold=7)) == [14]
    # gwang-bak: winner 01B 03B 08B (3) + junk 10 (1) = 4; opponent with no bright, junk 6: 4 * 2
    win = "01B 03B 08B 01J1 01J2 02J1 02J2 03J1 03J2 04J1 04J2 05J1 05J2"
    assert amounts(win, ["09J1 09J2 10J1 10J2 11J1 11J2"]) == [8]
    # both baks: opponent with nothing: 4 * 2 * 2 = 16
    assert amounts(win, ["12A"]) == [16]


def test_shake_nagari_and_combined():
    assert amounts(JUNK16, [OPP], shaken=2) == [28]                    # 7 x 4
    assert amounts(JUNK16, [OPP], nagari=1) == [14]                    # x2
    assert amounts(JUNK16, [OPP], nagari=2) == [14]                    # once by default
    assert amounts(JUNK16, [OPP], GR.GoStopRules(nagari_multiplier="stack"), nagari=2) == [28]
    # (8 + 3) x 2 shake x 2 go(3) x 2 meong-bak x 2 nagari = 176; opponent has a bright, junk 6
    assert amounts("02A 04A 08A 05A 06A 07A 12A", [OPP], go_count=3, shaken=1,
                   nagari=1) == [176]
    # bombs double only under bomb_bonus = korean
    assert amounts(JUNK16, [OPP], bombs=1) == [7]
    assert amounts(JUNK16, [OPP], GR.GoStopRules(bomb_bonus="korean"), bombs=1) == [14]


def test_sake_cup_flex():
    # 09A + 4 animals (5 animals: 1 point) + 9 single junk (0): S = 1 as an animal;
    # as double junk: 4 animals (0) + junk 11 (2): S = 2
    pile = "09A 05A 06A 07A 10A 01J1 01J2 02J1 02J2 03J1 03J2 04J1 04J2 05J1"
    assert pts(pile) == 1
    flex = GR.GoStopRules(sake_cup="flex")
    out = SC.score_cards(GR.parse_cards(pile, flex), flex)
    assert out["points"] == 2 and out["sake_cup_as"] == "junk"
    # a loser holding the sake cup under flex reads it as junk: 4 + 2 = 6 escapes pi-bak
    loser = "09A 08B 08J1 08J2 09J1 09J2"
    assert amounts(JUNK16, [loser]) == [14]       # animal rule: junk 4 -> pi-bak
    assert amounts(JUNK16, [loser], flex) == [7]


def test_go_bak_three_players():
    # winner S = 7, two opponents each with a bright and junk 6 would pay 7 each; with go-bak the
    # opponent who called go pays 14 and the other nothing
    o1, o2 = OPP, "11B 12D 01R 02R 03R 04R 05R 06R 07R 09R"   # o2 junk 2 -> pi-bak 14
    rules3 = GR.GoStopRules(players=3)
    assert amounts(JUNK16, [o1, o2], rules3) == [7, 14]
    gobak = GR.GoStopRules(players=3, go_bak=True)
    out = pay(JUNK16, [o1, o2], gobak, opponent_gos=[0, 1])
    assert [r["pays"] for r in out["payments"]] == [0, 21] and out["total"] == 21
    assert [r["amount"] for r in out["payments"]] == [7, 14]


def test_breakdown_lines_sum_to_the_points():
    """Each reading's lines add up to that reading's score (the kernels' side of this is checked
    on random piles in tests/test_gostop_pyscore.py)."""
    rng = random.Random(5)
    for rules in (R, GR.GoStopRules(sake_cup="flex", four_brights=5)):
        for _ in range(300):
            cards = rng.sample(range(50), rng.randint(0, 30))
            st = SC.pile_stats(cards, rules)
            for as_junk in (0, 1):
                lines = SC.breakdown(st, rules, bool(as_junk))
                assert sum(x["points"] for x in lines) == KS.score_reading(
                    _kernel_state(cards, rules), 0, as_junk)


def _kernel_state(cards, rules):
    from tests.test_gostop_pyscore import kernel_state

    return kernel_state(rules, rules.players, [cards])[0]


def test_notation_errors():
    with pytest.raises(UserError, match="unknown card 'Q9'"):
        GR.parse_cards("01B Q9", R)
    with pytest.raises(UserError, match="appears twice"):
        GR.parse_cards("01B 01b", R)
    with pytest.raises(UserError, match="only 1 such joker"):
        GR.parse_cards("X2 X2", R)
    with pytest.raises(UserError, match="not in the deck"):
        GR.parse_cards("X2", GR.GoStopRules(jokers=()))
    assert GR.parse_cards("X2 X2", GR.GoStopRules(jokers=(2, 2))) == [48, 49]


def test_rules_defaults_and_validation():
    assert R.stop_target == 7 and GR.GoStopRules(players=3).stop_target == 3
    assert build_rules(GR.GoStopRules, None, ["target=5"]).stop_target == 5
    with pytest.raises(UserError):
        build_rules(GR.GoStopRules, None, ["go_multiplier=triple"])
    with pytest.raises(UserError):
        build_rules(GR.GoStopRules, None, ["jokers=2,3,2,3,2,3"])
    with pytest.raises(UserError):
        build_rules(GR.GoStopRules, None, ["players=4"])
    r = build_rules(GR.GoStopRules, None, ["jokers=[]", "sake_cup=flex"])
    assert r.deck_size == 48 and GR.rules_vector(r)[2] == 0


def test_policy_parsing():
    assert LU.parse_policy("go:2").label == "go:2"
    assert LU.parse_policy("go:2:3").turns == 3
    assert [p.label for p in LU.parse_seats("greedy", 3)] == ["greedy"] * 3
    with pytest.raises(UserError):
        LU.parse_policy("bold")
    with pytest.raises(UserError):
        LU.parse_seats("greedy,random,greedy", 2)
    a = PL.policy_array(LU.parse_seats("greedy,go:3:2", 2))
    assert a[1, 1] == 3 and a[1, 2] == 2 and np.all(a[0, :2] == 0)


def test_sake_cup_flex_shows_the_reading_the_payment_used(capsys):
    # Issue 11 item 6. Winner: 7 animals with 09A (godori 02A 04A 08A) and junk value 9.
    # As an animal: 7 animals 3 + godori 5 + junk 9 (0) = 8 points, x2 meong-bak = 16.
    # As double junk: 6 animals 2 + godori 5 + junk 11 (2) = 9 points, no multiplier = 9
    # (the opponent's junk 6 escapes pi-bak). The payment takes 16, so the animal reading is
    # the one shown: breakdown, points and sake_cup_as.
    import json

    from analyzer.cli.main import main

    win = "09A 02A 04A 05A 06A 07A 08A 01J1 01J2 02J1 02J2 03J1 03J2 04J1 04J2 07J1"
    with pytest.raises(SystemExit) as exc:
        main(["gostop", "score", "--captures", win, "--opponents",
              "10J1 10J2 05J1 05J2 06J1 06J2", "--set", "sake_cup=flex", "--json"])
    assert exc.value.code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["payments"][0]["pays"] == 16 and out["total"] == 16
    assert out["sake_cup_as"] == "animal"
    assert out["points"] == 8
    assert {x["line"]: x["points"] for x in out["breakdown"]} == {"7 animals": 3, "godori": 5}
    assert out["counts"]["animals"] == 7 and out["counts"]["junk_value"] == 9
    assert out["can_stop"] is True
    # without opponents there is no payment: the reading that scores more points is shown
    with pytest.raises(SystemExit):
        main(["gostop", "score", "--captures", win, "--set", "sake_cup=flex", "--json"])
    alone = json.loads(capsys.readouterr().out)
    assert alone["points"] == 9 and alone["sake_cup_as"] == "junk"
