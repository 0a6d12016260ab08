"""`advice` and the exact queries in words a player reads (analyzer/advice/words.py,
analyzer/words.py).

* the sentence to remember names the rule and its cost with its unit: the simplest front rule
  against perfect play (exact), or the simplest surviving rule not separated from the best
  found (raced), or the --max-loss pick;
* "not separated from the best found" appears exactly when a rule's loss interval reaches 0;
  the best found is never printed as "0.0000 [0.0000, 0.0000]";
* digits: exact figures to 3 significant digits, probabilities in percent, Monte Carlo losses
  to the SE's second significant digit; everything fits 80 columns;
* the race's cost is stated against the equal-guarantee grid, in trials and seconds;
* `pig decide` on a position solved by hand, `ten best`, `trash-pandas odds` and `advice` as
  the player reads them.
"""
import pytest

from analyzer.advice.cli import advice_text, plain_fields
from analyzer.advice.words import (NOT_SEPARATED, WORSE, front_lines, not_separated_lines,
                                   race_line, remember)
from analyzer.words import (decimals_for_se, decimals_to_show, fit, percent, sig, signed,
                            verdict)

TP_RULE = "Roll while the number of tokens you hold is at most 2; otherwise stop."
T5 = "Draw while T = N − C is at most 5; otherwise stop."
BANDED = ("Draw (when the number of currency tokens you hold is below 6) while T = N − C is "
          "at most 6; when the number of currency tokens you hold is at least 6: at most 5; "
          "otherwise stop.")


def _mc(est, lo, hi, se=0.0032, n=20480):
    return {"estimate": est, "se": se, "ci_low": lo, "ci_high": hi, "n": n}


def _race(cx2_low):
    """A race's rows: the best found (size 5) and a size-2 survivor whose interval starts at
    ``cx2_low``."""
    best = {"complexity": 5, "words": BANDED, "rule": {"kind": "banded"},
            "loss": _mc(0.0, 0.0, 0.0, se=0.0), "survived": True, "best_found": True}
    simple = {"complexity": 2, "words": T5, "rule": {"kind": "threshold"},
              "loss": _mc(0.0024, cx2_low, 0.0152), "survived": True, "best_found": False}
    gone = {"complexity": 2, "words": "Always draw.", "rule": {"kind": "list"},
            "loss": _mc(0.31, 0.25, 0.37), "survived": False, "best_found": False}
    return [simple, best], [best, simple, gone]


def test_exact_sentence_names_the_simplest_rule_and_its_cost_with_the_unit():
    rows = [{"complexity": 2, "words": TP_RULE, "rule": {}, "loss": 0.05556},
            {"complexity": 4, "words": "If x, stop. Otherwise roll.", "rule": {}, "loss": 0.01}]
    assert remember({}, rows, "card-equivalents a turn", "perfect play", exact=True) == (
        "Remember: roll while the number of tokens you hold is at most 2; otherwise stop. "
        "It costs you 0.0556 card-equivalents a turn against perfect play.")
    free = [{"complexity": 2, "words": TP_RULE, "rule": {}, "loss": 0.0}]
    assert remember({}, free, "u", "perfect play", exact=True).endswith(
        "It costs you nothing against perfect play.")
    pick = {"payload": 1, "max_loss": 0.02, "simplest_within": rows[1]}
    assert remember(pick, rows, "u", "perfect play", exact=True) == (
        "Remember: if x, stop. Otherwise roll. It costs you 0.0100 u against perfect play. "
        "It is the simplest rule within your --max-loss 0.02.")


def test_raced_sentence_picks_the_simplest_rule_not_separated_from_the_best_found():
    front, every = _race(-0.0103)
    said = remember({"all": every}, front, "chance of winning", "", exact=False)
    assert said == ("Remember: draw while T = N − C is at most 5; otherwise stop. It is not "
                    "shown worse than the best rule found (size 5): it loses 0.0024 chance of "
                    "winning, 95% interval -0.0103 to 0.0152.")
    front, every = _race(0.0011)  # the simple rule is separated: the best found is named
    said = remember({"all": every}, front, "chance of winning", "", exact=False)
    assert said.startswith("Remember: draw (when the number of currency tokens")
    assert said.endswith("It is the best rule found of 3 raced (the best by sample mean). "
                         "Every simpler rule left in the race is shown to lose against it.")
    worse = {**every[1], "complexity": 8, "words": "Never draw."}  # more complex, shown worse
    said = remember({"all": every + [worse]}, front, "chance of winning", "", exact=False)
    assert said.endswith("shown to lose against it. Every other rule left in the race is "
                         "shown worse.")
    alone = remember({"all": every[:1]}, every[:1], "chance of winning", "", exact=False)
    assert alone.endswith("It is the only rule left in the race.")
    tie = {**every[1], "complexity": 5, "words": "Always stop.", "loss": _mc(0.01, -0.02, 0.04)}
    said = remember({"all": every + [tie]}, front, "chance of winning", "", exact=False)
    assert said.endswith("shown to lose against it. 1 other surviving rule is not separated "
                         "from it (below).")


def test_not_separated_appears_exactly_when_the_interval_reaches_zero():
    for low, near in ((-0.0103, True), (0.0, True), (0.0011, False)):
        front, every = _race(low)
        table = "\n".join(front_lines(front, "chance of winning", "", exact=False))
        listed = "\n".join(not_separated_lines(every, front, "chance of winning"))
        assert (NOT_SEPARATED in table) is near and (WORSE in table) is not near
        assert ("size 2, loss 0.0024" in listed) is near
        assert ("each is shown worse" in listed) is not near
        assert "the best rule found" in table and "0.0000 [0.0000, 0.0000]" not in table
        assert "Always draw." not in listed  # dropped rules are not survivors


def test_plain_fields_give_every_raced_row_its_verdict_in_the_json():
    front, every = _race(-0.0103)
    payload = {"all": every, "front": front}
    plain_fields(payload, front, "chance of winning", exact=False)
    assert [r["verdict"] for r in every] == ["best found", NOT_SEPARATED, WORSE]
    assert payload["unit_words"] == "chance of winning"
    assert payload["remember"].startswith("Remember: draw while T = N − C is at most 5")


def test_monte_carlo_losses_take_the_digits_of_their_se():
    assert decimals_for_se(0.0032) == 4 and decimals_for_se(0.21) == 2
    assert decimals_for_se(0.00031) == 5 and decimals_for_se(4.0) == 1
    front, _ = _race(-0.0103)
    table = front_lines(front, "chance of winning", "", exact=False)
    assert "  size 2: loss 0.0024 [-0.0103, 0.0152], not separated from the best found" in table


def test_exact_numbers_and_probabilities_for_a_player():
    assert [sig(x) for x in (0.027095, 0.546434, 12.34, 0.0000123)] == \
        ["0.0271", "0.546", "12.3", "0.0000123"]
    assert signed(0.027095) == "+0.0271" and signed(-0.5) == "-0.500"
    assert [percent(p) for p in (0.685412, 0.180571, 0.99996, 0.000123, 0.0, 1.0)] == \
        ["68.5%", "18.1%", "99.996%", "0.0123%", "0%", "100%"]
    assert percent(1 - 1e-15) == "above 99.999999999%"  # never "100%" short of certain
    assert decimals_to_show(0.062) == 3 and decimals_to_show(50.48) == 1
    assert verdict("roll", 0.504840, "chance of winning") == "roll: +0.505 chance of winning"
    assert verdict("stop, take the numbers", 0.546434, "card-equivalents") == \
        "stop, take the numbers: +0.546 card-equivalents"
    assert verdict("draw", None, "u") == "draw"


def test_race_line_states_the_equal_guarantee_grid_in_trials_and_seconds():
    cost = {"unit": "games", "trials_spent": 1_000_000, "seconds": 20.0, "candidates": 400,
            "max_rounds": 24, "rounds": 24, "tests": 2, "z": 4.9, "survivors": 3,
            "saving": 6.5, "indifference": 0.002, "indifferent": 33,
            "grid": {"trials": 6_500_000, "seconds": 130.0, "z": 4.08}}
    line = race_line(cost)
    assert line.startswith("Racing: 1,000,000 games (20.0 s) against 6,500,000 (about 130 s) "
                           "for a uniform grid with the same guarantee, 6.5× fewer")
    assert "own Bonferroni z 4.08; the race's z is 4.90, over 400 rules × 24 rounds × 2 tests" \
        in line
    assert "33 dropped for gaining less than 0.002" in line
    assert "more than the grid" in race_line({**cost, "saving": 0.5})


def test_the_advice_text_fits_80_columns_and_opens_with_the_sentence():
    front, every = _race(-0.0103)
    payload = {"all": every, "front": front, "race": {
        "unit": "games", "trials_spent": 1000, "seconds": 1.0, "candidates": 3, "rounds": 2,
        "max_rounds": 2, "tests": 1, "z": 2.9, "survivors": 2, "saving": 2.0,
        "grid": {"trials": 2000, "seconds": 2.0, "z": 2.4}}}
    plain_fields(payload, front, "chance of winning", exact=False)
    text = advice_text(payload, front, title="Ten whole games (4 players): " + "x " * 40,
                       unit="chance of winning", exact=False, footer="1.0 s",
                       extra=lambda r: "threshold:stop_at=7,band_by=tokens,cut_1=6,stop_at_2=6")
    lines = text.splitlines()
    assert max(map(len, lines)) <= 80
    assert lines[2].startswith("Remember: draw while T = N − C is at most 5")
    assert "To play a rule back: --out DIR writes each rule" in text
    words = " ".join(text.split())
    assert "size 5: the best rule found" in words and BANDED in words
    assert fit(["  " + "word " * 40]) == fit(fit(["  " + "word " * 40]))


# ---- the commands ---------------------------------------------------------------------------
def _text(cli, *args) -> str:
    code, out, err = cli(*args)
    assert code == 0 and "Traceback" not in err, err
    return out


def test_pig_decide_on_a_position_solved_by_hand(cli):
    """Goal 2: at 0 against 1 with 1 on the turn, holding leaves the opponent on (1, 1) to
    roll, who wins with a = 5/6 + (1/6)(1 − a), a = 6/7; rolling wins at once with 5/6, and a
    one gives the opponent the same 6/7 from (1, 0): 5/6 + 1/42 = 6/7. So roll, by 5/7."""
    out = _text(cli, "pig", "decide", "--me", "0", "--opp", "1", "--turn", "1", "--set",
                "goal=2")
    assert "P(win | roll) = 85.7%" in out and "P(win | hold) = 14.3%" in out
    assert out.rstrip().endswith("→ roll: +0.714 chance of winning")
    got = cli("pig", "decide", "--me", "0", "--opp", "1", "--turn", "1", "--set", "goal=2",
              "--json", check_json=True)
    assert got["verdict"] == "roll: +0.714 chance of winning"
    assert got["margin"] == pytest.approx(5 / 7, abs=1e-9)


def test_ten_best_and_trash_pandas_odds_name_their_unit(cli):
    out = _text(cli, "ten", "best", "--tableau", "r5,r3")
    assert "→ stop, take the numbers: +" in out and out.rstrip().endswith(
        "card-equivalents (value model)")
    assert "by 0." not in out and "STOP" not in out
    got = cli("trash-pandas", "odds", "--held", "trash,paw", "--blammo", "1", "--json",
              check_json=True)
    # two of six faces repeat: 1/3; with the Blammo! the bust needs two repeats: 1/9
    assert got["p_bust_next"] == pytest.approx(1 / 3)
    assert got["p_bust_next_after_cards"] == pytest.approx(1 / 9)
    text = _text(cli, "trash-pandas", "odds", "--held", "trash,paw", "--blammo", "1")
    assert "= 33.3%" in text and "= 11.1%" in text
    assert f"→ {got['recommendation']}: +" in text and text.rstrip().endswith("card-equivalents")
    assert max(map(len, text.splitlines())) <= 80


def test_trash_pandas_advice_reads_as_a_player_would(cli):
    text = _text(cli, "trash-pandas", "advice")
    lines = text.splitlines()
    assert max(map(len, lines)) <= 80
    assert lines[2].startswith("Remember: roll while the number of tokens you hold is at most")
    said = " ".join(text.split())
    assert "card-equivalents a turn against perfect play" in said
    for engineer in ("Pareto", " cx ", "card-eq.", "cards 0/0/0", "save the row"):
        assert engineer not in text
    assert "no cards in hand" in said


def test_a_raced_game_advice_reads_in_80_columns(cli):
    text = _text(cli, "ten", "game-advice", "--players", "2", "--rounds", "2", "--precision",
                 "1", "--seed", "3", "--band-by", "none", "--record-games", "20")
    lines = text.splitlines()
    assert max(map(len, lines)) <= 80
    assert any(line.startswith("Remember: draw while") for line in lines[:4])
    said = " ".join(text.split())
    assert "the best rule found" in said and "chance of winning" in said
    assert "for a uniform grid with the same guarantee" in said and "played by: threshold" in said
    for engineer in ("Pareto", " cx ", "0.0000 [0.0000, 0.0000]", "survivors' sample"):
        assert engineer not in text
