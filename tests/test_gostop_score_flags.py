"""Go-Stop scoring: the sake cup's reading in what `gostop score` shows, and the payment flags'
defaults, limits and refusals (rules sections 1 "09A", 2 and 9 of /work/shared/rules/go-stop.md).

Hand values: 10 junk cards score 10 − 9 = 1 point (section 7); a loser with junk value ≤ 5 pays
pi-bak x2 under the default threshold 5 (section 9); under ``sake_cup = flex`` the sake cup
counts as an animal or as a double junk, to its owner's advantage, and a loser's 09A is read as
junk (what escapes pi-bak is the owner's choice; the scorer's documented resolution).
"""
import pytest

from analyzer.errors import UserError
from analyzer.games.gostop import rules as GR
from analyzer.games.gostop import score as SC

R = GR.GoStopRules()
FLEX = GR.GoStopRules(sake_cup="flex")
TEN_JUNK = "01J1 01J2 02J1 02J2 03J1 03J2 04J1 04J2 05J1 05J2"  # junk value 10: 1 point
NINE_JUNK = "01J1 01J2 02J1 02J2 03J1 03J2 04J1 04J2 05J1"


def cards(text, rules=R):
    return GR.parse_cards(text, rules) if text else []


def test_a_pile_without_the_sake_cup_shows_no_reading():
    got = SC.score_cards(cards(TEN_JUNK, FLEX), FLEX)
    assert got["sake_cup_as"] is None
    assert got["counts"] == {"brights": 0, "animals": 0, "ribbons": 0, "junk_value": 10}
    assert got["points"] == 1 and got["breakdown"] == [{"line": "junk value 10", "points": 1}]


def test_flex_sake_cup_read_as_junk_when_that_scores_more():
    # as an animal: 1 animal, junk 9 → 0 points; as double junk: junk 11 → 2 points
    got = SC.score_cards(cards("09A " + NINE_JUNK, FLEX), FLEX)
    assert got["sake_cup_as"] == "junk" and got["points"] == 2
    assert got["counts"] == {"brights": 0, "animals": 0, "ribbons": 0, "junk_value": 11}


def test_flex_sake_cup_stays_an_animal_when_both_readings_score_the_same():
    # alone it scores 0 either way: the first reading (animal) is kept
    got = SC.score_cards(cards("09A", FLEX), FLEX)
    assert got["sake_cup_as"] == "animal" and got["points"] == 0
    assert got["counts"] == {"brights": 0, "animals": 1, "ribbons": 0, "junk_value": 0}
    # without flex the sake cup is an animal, whatever reading is asked for
    assert SC.score_cards(cards("09A " + NINE_JUNK), R, reading=1)["sake_cup_as"] == "animal"


def test_a_flex_losers_sake_cup_counts_as_double_junk_for_pi_bak():
    # loser: 09A + 3 junk = junk value 5 ≤ 5 → pi-bak; winner S = 1, no other multiplier
    got = SC.payments(cards(TEN_JUNK, FLEX), [cards("09A 06J1 06J2 07J1", FLEX)], FLEX)
    row = got["payments"][0]
    assert row["junk_value"] == 5 and row["multipliers"] == ["pi-bak x2"]
    assert row["amount"] == row["pays"] == 2 and got["total"] == 2


def test_bombs_default_to_none():
    # korean bombs double like a shake, but no bomb was given: (1 + 0) x pi-bak 2 = 2
    korean = GR.GoStopRules(bomb_bonus="korean")
    got = SC.payments(cards(TEN_JUNK, korean), [[]], korean)
    assert got["payments"][0]["pays"] == 2 and got["payments"][0]["multipliers"] == ["pi-bak x2"]
    assert SC.payments(cards(TEN_JUNK, korean), [[]], korean, bombs=1)["total"] == 4


def test_go_bak_without_opponent_gos_lets_each_loser_pay_its_own():
    gobak = GR.GoStopRules(go_bak=True, players=3)
    got = SC.payments(cards(TEN_JUNK, gobak), [[], []], gobak)
    assert [r["pays"] for r in got["payments"]] == [2, 2]
    assert all("note" not in r for r in got["payments"])


def test_four_shaken_months_are_the_most():
    # 4 shakes: (1 + 0) x 2^4 x pi-bak 2 = 32
    assert SC.payments(cards(TEN_JUNK), [[]], R, shaken=4)["total"] == 32
    with pytest.raises(UserError) as err:
        SC.payments(cards(TEN_JUNK), [[]], R, shaken=5)
    assert str(err.value) == "--shaken 5: a player can shake at most 4 months (7-10 cards)"


@pytest.mark.parametrize("kwargs,message", [
    (dict(opponents=3), "3 opponents given; Go-Stop has at most 3 active players"),
    (dict(opponent_gos=[1]), "--opponent-gos gives 1 counts for 2 opponents"),
    (dict(go_count=-1), "--go-count must be non-negative (got -1)"),
    (dict(shaken=-2), "--shaken must be non-negative (got -2)"),
    (dict(bombs=-3), "--bombs must be non-negative (got -3)"),
    (dict(nagari=-4), "--nagari must be non-negative (got -4)"),
])
def test_bad_payment_flags_are_refused_in_one_line(kwargs, message):
    opponents = [[] for _ in range(kwargs.pop("opponents", 2))]
    with pytest.raises(UserError) as err:
        SC.payments(cards(TEN_JUNK), opponents, R, **kwargs)
    assert str(err.value) == message


def test_stacked_nagari_doubles_up_to_twenty_times():
    stack = GR.GoStopRules(nagari_multiplier="stack")
    assert [SC.nagari_factor(k, stack) for k in (0, 1, 3, 20, 21, 40)] == \
        [1, 2, 8, 2 ** 20, 2 ** 20, 2 ** 20]
    assert [SC.nagari_factor(k, R) for k in (0, 1, 21)] == [1, 2, 2]


OPP = "08B 08J1 08J2 09J1 09J2 10J1 10J2"  # a bright and junk value 6: no gwang-bak, no pi-bak


def test_the_whole_payment_with_every_common_multiplier():
    # 7 animals (3) + godori (5): S = 8; 3 gos: +3 and x2 (source); 1 shake x2; meong-bak x2;
    # nagari x2: (8 + 3) x 2 x 2 x 2 x 2 = 176
    got = SC.payments(cards("02A 04A 08A 05A 06A 07A 12A"), [cards(OPP)], R, go_count=3,
                      shaken=1, nagari=1)
    assert got == {"base": 8, "go_points": 3, "total": 176, "reading": 0, "payments": [
        {"opponent": 1, "amount": 176, "pays": 176, "junk_value": 6, "brights": 1,
         "multipliers": ["shaken/bomb x2", "go x2", "meong-bak x2", "nagari x2"]}]}


def test_cap2_go_points_and_korean_bombs_in_the_labels():
    # cap2, 4 gos: (S + min(4, 2)) x 2^(4-2); S = 1 (junk 10); korean: 2 shakes + 1 bomb = x8;
    # the loser has nothing: gwang-bak does not apply (the winner has no bright), pi-bak does:
    # (1 + 2) x 8 x 4 x 2 = 192
    rules = GR.GoStopRules(go_multiplier="cap2", bomb_bonus="korean")
    got = SC.payments(cards(TEN_JUNK, rules), [[]], rules, go_count=4, shaken=2, bombs=1)
    assert got["go_points"] == 2 and got["total"] == 192
    assert got["payments"][0]["multipliers"] == ["shaken/bomb x8", "go x4", "pi-bak x2"]
    # 3 gos under cap2: (1 + 2) x 2 x 2 = 12, go points 2; 2 gos: (1 + 2) x 2 = 6, no go factor
    three = SC.payments(cards(TEN_JUNK, rules), [[]], rules, go_count=3)
    assert (three["go_points"], three["total"]) == (2, 12)
    assert three["payments"][0]["multipliers"] == ["go x2", "pi-bak x2"]
    two = SC.payments(cards(TEN_JUNK, rules), [[]], rules, go_count=2)
    assert (two["go_points"], two["total"]) == (2, 6)
    assert two["payments"][0]["multipliers"] == ["pi-bak x2"]


def test_the_source_go_factor_stays_x2_from_the_third_go_on():
    # source rule: 4 gos add 4 and double once: (1 + 4) x 2 x pi-bak 2 = 20
    got = SC.payments(cards(TEN_JUNK), [[]], R, go_count=4)
    assert (got["go_points"], got["total"]) == (4, 20)
    assert got["payments"][0]["multipliers"] == ["go x2", "pi-bak x2"]


def test_labels_follow_the_winners_reading_of_the_sake_cup():
    # flex winner 09A + 9 junk: as an animal S = 0 pays 0; as double junk S = 2 (junk 11), and
    # the loser with nothing pays pi-bak: 2 x 2 = 4. The junk reading is taken and labelled.
    got = SC.payments(cards("09A " + NINE_JUNK, FLEX), [[]], FLEX)
    assert got["reading"] == 1 and got["base"] == 2 and got["total"] == 4
    assert got["payments"][0]["multipliers"] == ["pi-bak x2"]


def test_gwang_bak_label_and_go_bak_notes():
    # winner 3 brights (3) + junk 10 (1) = 4; two losers with nothing: gwang-bak and pi-bak,
    # 4 x 2 x 2 = 16 each; the second loser had called go, so it pays both (go-bak)
    rules = GR.GoStopRules(go_bak=True, players=3)
    got = SC.payments(cards("01B 03B 08B " + TEN_JUNK, rules), [[], []], rules,
                      opponent_gos=[0, 2])
    rows = got["payments"]
    assert [(r["amount"], r["pays"]) for r in rows] == [(16, 0), (16, 32)]
    assert rows[0]["multipliers"] == rows[1]["multipliers"] == ["gwang-bak x2", "pi-bak x2"]
    assert [r["note"] for r in rows] == ["go-bak: another loser pays",
                                         "go-bak: pays for every loser"]
    assert got["base"] == 4 and got["go_points"] == 0 and got["total"] == 32


@pytest.mark.parametrize("win,loser,rules,labels", [
    # winner junk 10, loser junk 6 > 5: no pi-bak; winner junk 9 (no junk score), loser nothing:
    # no pi-bak either (it needs the winner's junk >= 10)
    (TEN_JUNK, OPP, R, []),
    ("01B " + NINE_JUNK, "08B", R, []),
    # exempt at 0: a loser with 1 junk still pays pi-bak, one with none does not
    (TEN_JUNK, "08B 06J1", GR.GoStopRules(pibak_exempt_zero=True), ["pi-bak x2"]),
    (TEN_JUNK, "08B", GR.GoStopRules(pibak_exempt_zero=True), []),
])
def test_pi_bak_label_only_when_it_applies(win, loser, rules, labels):
    got = SC.payments(cards(win, rules), [cards(loser, rules)], rules)
    assert got["payments"][0]["multipliers"] == labels


@pytest.mark.parametrize("pile,lines", [
    # section 7: 3 brights 3 points, 2 if the rain bright (12B) is one of them; 4 brights 4;
    # 5 brights 15
    ("01B 03B 12B", [("3 brights with 12B", 2)]),
    ("01B 03B 08B", [("3 brights", 3)]),
    ("01B 03B 08B 11B", [("4 brights", 4)]),
    ("01B 03B 08B 11B 12B", [("5 brights", 15)]),
    # 9 ribbons: 9 − 4 = 5, and each complete set 3
    ("01R 02R 03R 06R 09R 10R 04R 05R 07R",
     [("9 ribbons", 5), ("hongdan", 3), ("cheongdan", 3), ("chodan", 3)]),
])
def test_breakdown_lines_are_named_as_on_the_rules_page(pile, lines):
    got = SC.score_cards(cards(pile), R)["breakdown"]
    assert got == [{"line": name, "points": p} for name, p in lines]


def test_breakdown_reads_the_sake_cup_as_an_animal_unless_asked():
    # 09A + 4 animals = 5 animals (1 point) and 9 junk (0), under either sake_cup rule
    st = SC.pile_stats(cards("09A 05A 06A 07A 10A " + NINE_JUNK, FLEX), FLEX)
    assert SC.breakdown(st, FLEX) == [{"line": "5 animals", "points": 1}]
    assert SC.breakdown(st, FLEX, as_junk=True) == [{"line": "junk value 11", "points": 2}]
