"""Ten: deck model, card notation, card-counting odds, scoring and the CLI contract."""
import itertools
import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.errors import UserError
from analyzer.games.ten.exact import odds
from analyzer.games.ten.rules import (TenRules, deck_counts, load_deck, parse_card, parse_cards,
                                      turn_state)
from analyzer.games.ten.score import run_points, score_collection

RULES = TenRules()
SPEC = load_deck()


def _odds(tableau=None, seen=None, rules=RULES):
    return odds(turn_state(rules, SPEC, tableau, seen), rules)


# ---------------------------------------------------------------------------------- notation

@pytest.mark.parametrize("text,kind,colour,value", [
    ("r5", "number", "r", 5), ("B9", "number", "b", 9), (" g1 ", "number", "g", 1),
    ("$3", "currency", None, 3), ("o#", "colour-wild", "o", None), ("*5", "number-wild", None, 5),
    ("**", "full-wild", None, None)])
def test_parse_card(text, kind, colour, value):
    c = parse_card(text)
    assert (c.kind, c.colour, c.value) == (kind, colour, value)


@pytest.mark.parametrize("bad", ["x5", "r0", "r10", "$6", "$0", "*0", "#", "5", "rr", "", "$"])
def test_parse_card_rejects(bad):
    with pytest.raises(UserError):
        parse_card(bad)


def test_parse_cards_lists():
    assert [c.code for c in parse_cards("r5, $2,**")] == ["r5", "$2", "**"]
    assert parse_cards("") == [] and parse_cards(None) == []
    with pytest.raises(UserError, match="position 2"):
        parse_cards("r5,,b9")


# -------------------------------------------------------------------------------------- deck

def test_deck_composition():
    d = deck_counts(RULES, SPEC)
    # rules page: 84 number + 8 colour wilds + 9 number wilds + 1 full wild + 27 currency = 129
    assert sum(d.values()) == 129
    assert sum(k for c, k in d.items() if c[0] in "rbgo" and c[1] != "#") == 84
    assert sum(k for c, k in d.items() if c[0] == "$") == 27
    assert d["r5"] == 3 and d["o7"] == 1 and d["g#"] == 2 and d["*4"] == 1 and d["**"] == 1
    ten = TenRules(number_wilds=10)
    assert sum(deck_counts(ten, SPEC).values()) == 130


def test_deck_file_replacement(tmp_path):
    f = tmp_path / "deck.toml"
    f.write_text('[currency]\ncounts = [5, 5, 5, 6, 6]\n[players]\nmarked_4plus = ["r1", "$5"]\n'
                 'marked_3 = ["b9"]\n')
    spec = load_deck(f)
    assert spec.currency == (5, 5, 5, 6, 6)
    assert sum(deck_counts(RULES, spec, 4).values()) == 129
    three = deck_counts(RULES, spec, 3)
    assert sum(three.values()) == 127 and three["r1"] == 2 and three["$5"] == 5
    two = deck_counts(RULES, spec, 2)
    assert sum(two.values()) == 126 and "b9" not in two
    bad = tmp_path / "bad.toml"
    bad.write_text("[currency]\ncounts = [1, 2]\n")
    with pytest.raises(UserError, match="currency.counts"):
        load_deck(bad)
    bad.write_text("[colours]\nx = 1\n")
    with pytest.raises(UserError, match="unknown section"):
        load_deck(bad)


# -------------------------------------------------------------------------------------- odds

def test_odds_rules_page_example():
    # Fresh deck, tableau red 5: values 6 (3 copies × 4 colours = 12) and 7, 8, 9 (4 each = 12)
    # bust: 24 of 128 cards left. Wilds: 8 colour + 9 number + 1 full = 18.
    o = _odds("r5")
    assert o["cards_left"] == 128
    assert o["p_bust"] == pytest.approx(24 / 128) and o["p_number_bust"] == pytest.approx(24 / 128)
    assert o["p_currency_bust"] == 0 and o["p_wild"] == pytest.approx(18 / 128)
    assert o["p_safe"] == pytest.approx(86 / 128)


def test_odds_currency_rule():
    # red 9, $5, $5: C = 10, so every currency card busts (27 − 2 = 25 of 126 left);
    # T = −1 so no number card can bust (would need a value ≥ 12).
    o = _odds("r9,$5,$5")
    assert (o["N"], o["C"], o["T"]) == (9, 10, -1)
    assert o["p_currency_bust"] == pytest.approx(25 / 126) and o["p_number_bust"] == 0


def test_odds_with_currency_and_seen():
    # tableau r9,$3,$3: N=9, C=6, T=3. Number bust needs v ≥ 8: 8s 4 + 9s 3 (r9 in the
    # tableau) − b8 and g9 seen = 5. Currency bust needs u ≥ 5: 4 fives − 1 seen = 3.
    # Cards left: 129 − 3 − 4 = 122.
    o = _odds("r9,$3,$3", "b8,g9,$5,r#")
    assert o["cards_left"] == 122
    assert o["counts"]["number_bust"] == 5 and o["counts"]["currency_bust"] == 3
    assert o["counts"]["wild"] == 17
    assert o["p_bust"] == pytest.approx(8 / 122)


def test_odds_bad_input():
    with pytest.raises(UserError, match="'r7'"):
        _odds("r7", "r7")
    with pytest.raises(UserError, match="already busted"):
        _odds("r9,r2")
    with pytest.raises(UserError, match="already busted"):
        _odds("$5,$5,$1")
    with pytest.raises(UserError, match="wild"):
        _odds("r#")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 128), min_size=0, max_size=12, unique=True),
       st.integers(0, 5))
def test_odds_match_brute_force(picks, ntab):
    """Odds by type counting agree with counting an explicit list of the remaining cards."""
    cards = sorted((Counter(deck_counts(RULES, SPEC))).elements())
    chosen = [cards[i] for i in picks]
    tableau, seen = [], []
    N = C = 0
    for c in chosen:  # the first non-wild cards that keep the tableau alive go to the tableau
        card = parse_card(c)
        if len(tableau) < ntab and not card.is_wild:
            n2 = N + (card.value if card.kind == "number" else 0)
            c2 = C + (card.value if card.kind == "currency" else 0)
            if n2 - c2 < 11 and c2 < 11:
                tableau.append(c)
                N, C = n2, c2
                continue
        seen.append(c)
    o = _odds(",".join(tableau), ",".join(seen))
    left = Counter(cards) - Counter(chosen)
    R = sum(left.values())
    nb = sum(k for c, k in left.items() if c[0] in "rbgo" and c[1] != "#"
             and N + int(c[1]) - C >= 11)
    cb = sum(k for c, k in left.items() if c[0] == "$" and C + int(c[1]) >= 11)
    w = sum(k for c, k in left.items() if "#" in c or c[0] == "*")
    assert o["cards_left"] == R
    assert o["p_number_bust"] == pytest.approx(nb / R)
    assert o["p_currency_bust"] == pytest.approx(cb / R)
    assert o["p_wild"] == pytest.approx(w / R)
    assert o["p_bust"] + o["p_wild"] + o["p_safe"] == pytest.approx(1.0)


# ----------------------------------------------------------------------------------- scoring

@pytest.mark.parametrize("cards,expected", [
    ("b1,b2,b3,b5,b7", 3),                                   # rules page
    ("r1,r2,r3,r4,r5,g1,g2,g3,b6,b7,o4", 11),               # red 5 + green 3 + blue 2 + orange 1
    ("r1,r2,r3,r4,r5,r6,r7,r8,r9", 10),                      # complete run scores 10
    ("g2,g2,g3,g3,g4", 3),                                   # duplicates add nothing
    ("b1,b2,b3,b5,b7,b#", 5),          # b# as 4: run 1–5
    ("b1,b2,b3,b5,b7,*6", 4),          # blue 1–3 = 3; *6 alone in another colour = 1
    ("r1,r2,r3,r4,r6,r7,r8,r9,*5", 10),  # *5 completes red 1–9
    ("r1,r2,r4,r5,g4,*3", 6),          # *3 as red 3: red 1–5 + green 4 = 6 beats green 3–4 + red 2
    ("r1,r3,*2,**,g5,g7,b#", 7),       # red 1–3 (*2), green 5–7 (**), blue 1 (b#)
    ("**", 1), ("", 0),
])
def test_score_examples(cards, expected):
    assert score_collection(parse_cards(cards))["score"] == expected


def test_score_assignment_shown():
    res = score_collection(parse_cards("r1,r2,r4,r5,r7,r8,*3,*6,**,r#"))
    # red needs 3, 6, 9: *3, *6 and r# (the only red-capable of the rest besides **) → 10;
    # the full wild then makes a 1-card run in another colour → 11.
    assert res["score"] == 11
    red = res["colours"][0]
    assert red["run"] == [1, 9] and red["points"] == 10
    assert sorted((w["wild"], w["value"]) for w in red["wilds"]) == [("*3", 3), ("*6", 6),
                                                                     ("r#", 9)]
    with pytest.raises(UserError, match=r"\$2"):
        score_collection(parse_cards("r1,$2"))


def _brute_score(cards):
    """Try every assignment of every wild (or leaving it out); score runs directly."""
    nums = [c for c in cards if c.kind == "number"]
    wilds = [c for c in cards if c.is_wild]
    options = []
    for w in wilds:
        if w.kind == "colour-wild":
            options.append([None] + [(w.colour, v) for v in range(1, 10)])
        elif w.kind == "number-wild":
            options.append([None] + [(c, w.value) for c in "rbgo"])
        else:
            options.append([None] + [(c, v) for c in "rbgo" for v in range(1, 10)])
    best = 0
    for combo in itertools.product(*options):
        have = {(c.colour, c.value) for c in nums} | {x for x in combo if x is not None}
        total = 0
        for col in "rbgo":
            longest = run = 0
            for v in range(1, 10):
                run = run + 1 if (col, v) in have else 0
                longest = max(longest, run)
            total += run_points(longest)
        best = max(best, total)
    return best


_CARD_CODES = [f"{c}{v}" for c in "rb" for v in range(1, 10)] + ["r#", "b#", "*2", "*5", "**"]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(_CARD_CODES), max_size=9).filter(
    lambda xs: sum(1 for x in xs if "#" in x or x[0] == "*") <= 2))
def test_score_matches_brute_force(codes):
    cards = parse_cards(",".join(codes))
    assert score_collection(cards)["score"] == _brute_score(cards)


# ---------------------------------------------------------------------------------------- CLI

def _cli(args, capsys):
    from analyzer.cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_cli_odds_json(capsys):
    code, out, _err = _cli(["ten", "odds", "--tableau", "r5", "--json"], capsys)
    assert code == 0
    d = json.loads(out)
    for key in ("p_bust", "p_number_bust", "p_currency_bust", "p_wild", "p_safe", "cards_left",
                "N", "C", "T"):
        assert key in d
    assert d["cards_left"] == 128


@pytest.mark.parametrize("args,needle", [
    (["ten", "odds", "--tableau", "r5,x3"], "x3"),
    (["ten", "odds", "--tableau", "r7", "--seen", "r7"], "r7"),
    (["ten", "odds", "--tableau", "r9,r5"], "busted"),
    (["ten", "odds", "--tableau", "r5,,r4"], "empty entry"),
    (["ten", "best", "--value", "card=x"], "card"),
    (["ten", "best", "--tokens-held", "11"], "tokens-held"),
    (["ten", "simulate", "--policy", "total:x", "-n", "10", "--seed", "1"], "total:x"),
    (["ten", "odds", "--set", "bust_at=0"], "bust_at"),
    (["ten", "odds", "--deck", "/nonexistent/deck.toml"], "deck.toml"),
    (["ten", "score", "--collection", "r7,r7"], "r7"),
])
def test_cli_bad_input(capsys, args, needle):
    code, out, err = _cli(args, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and needle in err


def test_cli_score_json(capsys):
    code, out, _ = _cli(["ten", "score", "--collection", "b1,b2,b3,b5,b7,b#", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["score"] == 5 and d["colours"][1]["wilds"] == [{"wild": "b#",
                                                                          "value": 4}]


def test_cli_rules_and_deck(capsys):
    code, out, _ = _cli(["ten", "rules", "--json"], capsys)
    keys = {r["key"] for r in json.loads(out)["rules"]}
    assert code == 0 and {"number_wilds", "bust_at", "currency_bust_at", "token_cap"} <= keys
    code, out, _ = _cli(["ten", "deck", "--json"], capsys)
    d = json.loads(out)
    assert d["total"] == 129 and d["currency_counts"] == [6, 6, 6, 5, 4]
