"""Railroad Canasta against the rules page, issue 11 items 1-5: wild cards added to a natural
meld, going out on the turn that completes the fourth canasta type, stalls reported apart from
sevens locks, impossible meld sets refused by `score`, sevens-lock melding without the initial
requirement. Expected values are derived by hand in the comments."""
import json
import tomllib

import numpy as np
import pytest

from analyzer.cli.main import main
from analyzer.errors import UserError
from analyzer.games.canasta import play as M
from analyzer.games.canasta.decide import decide
from analyzer.games.canasta.lineup import parse_policies, parse_policy
from analyzer.games.canasta.rules import CanastaRules, card_types
from analyzer.games.canasta.score import check_melds, round_score
from analyzer.runner import RunSpec
from kernels.canasta import engine as K

R2 = CanastaRules()


def state(rules=R2, P=2):
    rp, thr, reqv = M.rules_arrays(rules)
    hand, kit, un, can, pl, mcnt, stock, pile, g = K.new_state(P)
    return dict(rp=rp, hand=hand, kit=kit, un=un, can=can, pl=pl, mcnt=mcnt, stock=stock,
                pile=pile, g=g, tmp=np.zeros(K.NT, np.int64),
                out=np.zeros((K.NT, 3), np.int64), viol=np.zeros(K.NV, np.int64))


def add(s, p, text):
    for c in card_types(text):
        s["hand"][p, c] += 1


def set_pile(s, text):
    cards = card_types(text)
    for c in cards:
        s["pile"][c] += 1
    s["g"][K.G_PN] = len(cards)
    s["g"][K.G_TOP] = cards[-1]


def one_turn(s, skip_draw=True, P=2):
    pols = np.array([parse_policy("greedy").row()] * P)
    return K.play_turns(s["hand"], s["kit"], s["un"], s["can"], s["pl"], s["mcnt"], s["stock"],
                        s["pile"], s["g"], s["rp"], pols, s["viol"], s["tmp"], s["out"],
                        skip_draw, -1, -1, 0, 1)


# --------------------------------------------------------------------------- item 1
def test_wild_only_group_joins_a_natural_meld():
    # Q Q 2 + 2C = Q Q 2 2: two naturals, two wilds, a legal mixed meld (section 3).
    out = check_melds(["+2C"], R2, melded=True, existing=["QS,QH,2D"])
    m = out["melds"][0]
    assert out["legal"] and m["legal"] and m["rank"] == "Q" and m["size"] == 4
    assert m["naturals"] == 2 and m["wilds"] == 2


def test_wild_only_group_reason_is_the_wild_limit():
    # Q Q Q 2 2 2 + 2S would hold 4 wilds: illegal because a mixed meld holds at most 3.
    out = check_melds(["+2S"], R2, melded=True, existing=["QS,QH,QD,2D,2C,2H"])
    m = out["melds"][0]
    assert not out["legal"] and "at most 3 wild" in m["reason"]


def test_wild_only_group_targets():
    # with an unfinished wild meld the wilds join it; a full-of-wilds Q meld is skipped
    out = check_melds(["+JK"], R2, melded=True, existing=["QS,QH,QD,2D,2C,2H", "2S,2H,2C"])
    assert out["legal"] and out["melds"][0]["kind"] == "wild"
    assert out["melds"][0]["size"] == 4
    # nothing unfinished: no meld to add to
    out = check_melds(["+2C"], R2, melded=True, existing=["QS,QH,QD,QC,QS,QH,QD"])
    assert not out["legal"] and "no unfinished meld" in out["melds"][0]["reason"]
    # sevens take no wild card (no other meld): the reason says so
    out = check_melds(["+2C"], R2, melded=True, existing=["7S,7H,7D"])
    assert not out["legal"] and "sevens" in out["melds"][0]["reason"]


def test_check_cli_wild_to_natural(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["canasta", "check", "--melded", "--existing", "QS,QH,2D", "+2C", "--json"])
    assert exc.value.code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] and out["melds"][0]["cards"] == ["QS", "QH", "2D", "2C"]


# --------------------------------------------------------------------------- item 2
def test_go_out_on_the_turn_that_completes_the_fourth_type():
    # Red, black and sevens canastas, a wild meld of five twos, hand 2C 2D 9C after drawing:
    # meld 2C 2D (wild canasta, the fourth type), discard 9C, go out (section 8).
    s = state()
    s["can"][0] = (1, 1, 0, 1)
    s["un"][0, 0] = (0, 0, 5)
    s["pl"][0, K.C_MELDED] = 1
    s["pl"][:, K.C_KON] = 0
    add(s, 0, "2C 2D 9C")
    s["g"][K.G_SEND] = 40
    set_pile(s, "4C")
    one_turn(s)
    assert s["g"][K.G_END] == 1 and s["pl"][0, K.C_OUT] == 1
    assert tuple(s["can"][0]) == (1, 1, 1, 1) and s["hand"][0].sum() == 0
    assert s["g"][K.G_TOP] == 9 and s["viol"].sum() == 0
    K.score_round(s["hand"], s["kit"], s["can"], s["pl"], s["rp"])
    # 100 going out + the two twos melded this turn (40) + 500 + 300 + 1000 + 1500
    assert s["pl"][0, K.C_SCORE] == 100 + 40 + 500 + 300 + 1000 + 1500


def test_go_out_still_needs_four_types_after_the_melds():
    # the same without the sevens canasta: melding the twos gives only three types
    s = state()
    s["can"][0] = (1, 1, 0, 0)
    s["un"][0, 0] = (0, 0, 5)
    s["pl"][0, K.C_MELDED] = 1
    s["pl"][:, K.C_KON] = 0
    add(s, 0, "2C 2D 9C")
    s["g"][K.G_SEND] = 40
    set_pile(s, "4C")
    one_turn(s)
    assert s["pl"][0, K.C_OUT] == 0 and s["hand"][0].sum() >= 1 and s["viol"].sum() == 0


GO_OUT_POSITION = '''
phase = "meld"
stock = 160
[me]
score = 0
hand = ["2C", "2D", "9C"]
melds = [["QS","QH","QD","QC","QS","QH","QD"], ["JS","JH","JD","JC","JS","2H","JK"],
         ["7S","7H","7D","7C","7S","7H","7D"], ["2S","2H","2S","2H","2C"]]
kitty = "picked"
[[opponents]]
score = 0
hand_size = 10
kitty = "unpicked"
[pile]
cards = ["5C", "4S"]
'''


def test_decide_allows_going_out_that_completes_the_fourth_type():
    out = decide(tomllib.loads(GO_OUT_POSITION), R2, parse_policies("greedy", 2), RunSpec(50, 1))
    a = out["round_score_a"]
    # going out: 100 + melds (Q 70, J 50 + 2H 20 + JK 50, sevens 35, seven twos 140)
    # + bonuses 500 + 300 + 1000 + 1500
    assert a.estimate == 100 + 70 + 120 + 35 + 140 + 3300 and a.se == 0


# --------------------------------------------------------------------------- item 3
def test_single_non_seven_card_after_red_threes_is_a_stall():
    # Seat 0 holds 4C, draws two red threes (placed at once) and must discard its only card
    # without going out: a stall (section 7 case 4), not a sevens lock; scored like a lock:
    # 2 red threes 200 - 4C 5 = 195.
    s = state()
    add(s, 0, "4C")
    s["pl"][:, K.C_KON] = 0
    s["pl"][0, K.C_REQ] = 50
    s["stock"][:2] = K.RED3
    s["g"][K.G_SEND] = 2
    set_pile(s, "9C 3S")  # a black three on top: nobody may take
    assert one_turn(s, skip_draw=False) == 0
    assert s["g"][K.G_END] == K.END_STALL
    K.score_round(s["hand"], s["kit"], s["can"], s["pl"], s["rp"])
    assert s["pl"][0, K.C_SCORE] == 195 and s["pl"][0, K.C_OUT] == 0
    assert s["viol"].sum() == 0


def test_simulate_reports_stalls_apart_from_locks(capsys):
    out = M.simulate_rounds(R2, parse_policies("greedy", 2), RunSpec(400, 3))
    pr = out["per_round"]
    assert {"sevens_lock", "stall"} <= set(pr)
    assert pr["went_out"].estimate + pr["sevens_lock"].estimate + pr["stall"].estimate + \
        pr["stock_exhausted"].estimate == pytest.approx(1.0)
    with pytest.raises(SystemExit) as exc:
        main(["canasta", "simulate", "-n", "8", "--seed", "2", "--json"])
    assert exc.value.code == 0
    js = json.loads(capsys.readouterr().out)["per_round"]
    assert set(js["stall"]) >= {"estimate", "se", "ci_low", "ci_high"}
    assert list(js).index("stall") == list(js).index("sevens_lock") + 1
    with pytest.raises(SystemExit):
        main(["canasta", "simulate", "-n", "8", "--seed", "2"])
    text = capsys.readouterr().out.splitlines()
    i = next(k for k, ln in enumerate(text) if ln.startswith("sevens lock"))
    assert text[i + 1].startswith("stall ")


def test_tune_has_a_stall_metric():
    from analyzer.tune import metrics_of

    names = {m.name for m in metrics_of("canasta")}
    assert {"p_sevens_lock", "p_stall"} <= names


# --------------------------------------------------------------------------- item 4
@pytest.mark.parametrize("melds,needle", [
    ([["QS", "QH", "QD"], ["QC", "QS", "QH"]], "two unfinished Q melds"),
    ([["2S", "2H", "JK"], ["2C", "2D", "2H"]], "two unfinished wild melds"),
])
def test_score_refuses_two_unfinished_melds_of_one_rank(capsys, tmp_path, melds, needle):
    with pytest.raises(UserError, match=needle):
        round_score([card_types(" ".join(m)) for m in melds], 0, [], None, False, R2)
    f = tmp_path / "round.toml"
    f.write_text(f"melds = {json.dumps(melds)}\nkitty = \"picked\"\n")
    with pytest.raises(SystemExit) as exc:
        main(["canasta", "score", str(f)])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and needle in err and err.count("\n") == 1


def test_score_allows_a_finished_and_an_unfinished_meld_of_one_rank():
    # a canasta of queens (70 + 500) and a new Q Q Q (30): legal
    melds = [card_types("QS QH QD QC QS QH QD"), card_types("QC QS QH")]
    assert round_score(melds, 0, [], None, False, R2)["round_score"] == 600


# --------------------------------------------------------------------------- item 5
@pytest.mark.parametrize("sets,expected", [({}, 15), ({"lock_meld_needs_requirement": True},
                                                       -15)])
def test_lock_meld_without_the_initial_requirement(sets, expected):
    # Seat 0 has not melded (requirement 50) and holds 7S 7H 7D while sevens are not free:
    # a sevens lock. By default (section 7 case 3) it melds them anyway: +15; with the knob on,
    # 15 < 50 and the sevens stay in hand: -15.
    assert CanastaRules().lock_meld_needs_requirement is False
    s = state(CanastaRules(**sets))
    s["can"][1, K.CT_SEVENS] = 1
    add(s, 0, "7S 7H 7D")
    s["pl"][0, K.C_REQ] = 50
    s["pl"][:, K.C_KON] = 0
    s["g"][K.G_SEND] = 10
    set_pile(s, "4C")
    one_turn(s)
    assert s["g"][K.G_END] == K.END_LOCK
    K.score_round(s["hand"], s["kit"], s["can"], s["pl"], s["rp"])
    assert s["pl"][0, K.C_SCORE] == expected and s["viol"].sum() == 0
