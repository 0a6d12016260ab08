"""The advice group's modules pinned in process (issue 40, mutation testing): rules as data and
in words (search.py), the rule tables of the kernels (table.py), rule files (rulefile.py), the
bot rules (botrule.py), the words of a run (words.py, cli.py), where a rule goes wrong
(mistakes.py, record.py), the report files (report.py) and racing's bookkeeping (race.py).

Every expected value is worked out by hand here: the words from the features and decision the
test plants, rule decisions state by state, refusal lines from the fields planted, statistics
from tiny planted samples (mean, SD with n − 1, Z95 = 1.959963984540054), Bonferroni z from
``statistics.NormalDist``. No kernel runs; the whole file takes about a second.
"""
from __future__ import annotations

import json
import math
from statistics import NormalDist

import numpy as np
import pytest

from analyzer.advice.search import Decision, Feature, Rule, Scored
from analyzer.errors import UserError

Z95 = NormalDist().inv_cdf(0.975)
T = Feature("t", "your turn total", (10, 20, 30), fine=(10, 15, 20, 25, 30), unit="points")
S = Feature("s", "your score", (0, 50, 75))
P = Feature("p", "the chance", (10, 20), unit="%")
FEATS = {"t": T, "s": S, "p": P}
DEC = Decision("roll", "hold")
THRESH = Rule("threshold", "t", "<=", (20,))
BANDED = Rule("banded", "t", "<=", (20, 25, 30), "s", (50, 75))
LIST_A = Rule("list", clauses=(("t", ">=", 25, False), ("s", "<=", 0, True)), default_act=True)
LIST_B = Rule("list", clauses=(("s", "<=", 0, True), ("t", ">=", 25, False)), default_act=False)
# states: (t, s) = (10, 0) (26, 60) (26, 80) (21, 0) (10, 50) (27, 75) (30, 0)
X = {"t": np.array([10, 26, 26, 21, 10, 27, 30]), "s": np.array([0, 60, 80, 0, 50, 75, 0])}


def refused(fn, *args, **kw) -> str:
    with pytest.raises(UserError) as exc:
        fn(*args, **kw)
    return str(exc.value)


# ======================================================================= search.py: rules
def test_features_decisions_and_complexities():
    """A feature's grid is its fine grid, else its values; the default decision is roll/hold;
    complexity 2 for a threshold, 3B − 1 for B bands, 2 per clause of a list."""
    assert T.grid() == (10, 15, 20, 25, 30) and S.grid() == (0, 50, 75)
    assert (Decision().act, Decision().rest) == ("roll", "hold")
    assert (S.fine, S.unit) == ((), "")
    assert THRESH.complexity == 2 and BANDED.complexity == 8
    assert Rule("banded", "t", "<=", (20, 25), "s", (50,)).complexity == 5
    assert LIST_A.complexity == 4 and Rule("list").complexity == 0
    r = Rule("threshold")
    assert (r.feature, r.op, r.thresholds, r.band_feature, r.cuts, r.clauses, r.default_act) \
        == ("", "<=", (), "", (), (), True)


def test_rules_decide_state_by_state():
    """Each form on the planted states (worked out by hand from the rule's words): a band
    starts at its cut (s = 50, s = 75), a list's first clause that holds decides."""
    def acts(r):
        return [bool(x) for x in r.acts(X)]

    assert acts(THRESH) == [True, False, False, False, True, False, False]
    assert acts(Rule("threshold", "t", ">=", (21,))) == [False, True, True, True, False, True,
                                                         True]
    assert acts(BANDED) == [True, False, True, False, True, True, False]
    assert acts(LIST_A) == [True, False, False, True, True, False, False]
    assert acts(Rule("list", clauses=LIST_A.clauses, default_act=False)) == [
        True, False, False, True, False, False, False]
    assert acts(LIST_B) == [True, False, False, True, False, False, True]
    assert acts(Rule("list", default_act=True)) == [True] * 7
    assert acts(Rule("list", default_act=False)) == [False] * 7


def test_rules_in_words():
    """Units follow numbers ("20 points", "10%", none for a bare count); a band's limits are
    bare numbers; the first band is named in brackets."""
    assert THRESH.words(FEATS, DEC) == \
        "Roll while your turn total is at most 20 points; otherwise hold."
    assert Rule("threshold", "p", ">=", (10,)).words(FEATS, DEC) == \
        "Roll while the chance is at least 10%; otherwise hold."
    assert BANDED.words(FEATS, DEC) == (
        "Roll (when your score is below 50) while your turn total is at most 20 points; when "
        "your score is 50 to 74: at most 25; when your score is at least 75: at most 30; "
        "otherwise hold.")
    assert Rule("banded", "s", ">=", (1, 2), "t", (20,)).words(FEATS, Decision("go", "stop")) \
        == ("Go (when your turn total is below 20 points) while your score is at least 1; "
            "when your turn total is at least 20 points: at least 2; otherwise stop.")
    assert LIST_A.words(FEATS, DEC) == (
        "If your turn total is at least 25 points, hold. If your score is at most 0, roll. "
        "Otherwise roll.")
    assert LIST_B.words(FEATS, DEC) == (
        "If your score is at most 0, roll. If your turn total is at least 25 points, hold. "
        "Otherwise hold.")
    assert Rule("list", default_act=True).words(FEATS, DEC) == "Always roll."
    assert Rule("list", default_act=False).words(FEATS, DEC) == "Always hold."


def test_rules_as_data_and_back():
    assert THRESH.to_json() == {"kind": "threshold", "complexity": 2, "feature": "t",
                                "op": "<=", "threshold": 20}
    assert BANDED.to_json() == {"kind": "banded", "complexity": 8, "feature": "t", "op": "<=",
                                "thresholds": [20, 25, 30], "band_feature": "s",
                                "cuts": [50, 75]}
    assert LIST_A.to_json() == {"kind": "list", "complexity": 4, "clauses": [
        {"feature": "t", "op": ">=", "value": 25, "act": False},
        {"feature": "s", "op": "<=", "value": 0, "act": True}], "default_act": True}
    for r in (THRESH, BANDED, LIST_A, LIST_B):
        assert Rule.from_json(json.loads(json.dumps(r.to_json()))) == r
    d = LIST_A.to_json()
    d["clauses"][0]["act"] = 0
    assert Rule.from_json(d).clauses[0] == ("t", ">=", 25, False)


def test_the_front_keeps_strict_improvements_and_max_loss_reads_the_upper_bound():
    from analyzer.advice.search import pareto, simplest_within

    def sc(cx_rule, loss, hi=None):
        return Scored(cx_rule, loss, loss, loss if hi is None else hi)

    two = Rule("threshold", "t", "<=", (20,))
    two_b = Rule("threshold", "t", "<=", (30,))
    two_c = Rule("threshold", "s", "<=", (0,))
    four = Rule("list", clauses=(("t", ">=", 25, False), ("s", "<=", 0, True)))
    five = Rule("banded", "t", "<=", (20, 25), "s", (50,))
    eight = BANDED
    six = Rule("list", clauses=LIST_A.clauses + (("p", "<=", 10, True),))
    a, b, c = sc(two, 0.5), sc(two_b, 0.3), sc(two_c, 0.3)
    d, e = sc(four, 0.3), sc(five, 0.1)
    f = sc(six, 0.1 - 1e-13)   # not lower by more than 1e-12: left off
    g = sc(eight, 0.0)
    front = pareto([a, b, c, d, e, f, g])
    assert front == [b, e, g] and front[0] is b  # the first of two equal losses
    assert pareto([sc(two, 0.3), sc(two_b, 0.3 - 1e-16)])[0].rule == two  # within 1e-15
    assert pareto([sc(two, 0.3), sc(two_b, 0.3 - 1e-14)])[0].rule == two_b
    assert pareto([]) == []
    mc = [Scored(two, 0.01, -0.01, 0.03), Scored(five, 0.0, -0.01, 0.01)]
    assert simplest_within(mc, 0.03) is mc[0] and simplest_within(mc, 0.029) is mc[1]
    assert simplest_within(mc, 0.005) is None


def test_a_rule_row_exact_and_monte_carlo():
    """Exact: the loss as a number; Monte Carlo: a statistic whose SE is the extra's, else the
    interval's width / 3.92; the other extras copied, "se" not."""
    from analyzer.advice.search import rule_row

    feats = [T, S, P]
    assert rule_row(Scored(THRESH, 0.25, 0.25, 0.25, 0, {"mistakes": {"m": 1}}), feats, DEC) \
        == {"complexity": 2, "words": "Roll while your turn total is at most 20 points; "
            "otherwise hold.", "rule": THRESH.to_json(), "loss": 0.25, "mistakes": {"m": 1}}
    row = rule_row(Scored(THRESH, 0.5, 0.1, 0.9, 400, {"survived": True}), feats, DEC)
    assert row["loss"] == {"estimate": 0.5, "se": pytest.approx(0.8 / 3.92), "ci_low": 0.1,
                           "ci_high": 0.9, "n": 400}
    assert row["survived"] is True
    row = rule_row(Scored(THRESH, 0.5, 0.1, 0.9, 400, {"se": 0.07}), feats, DEC)
    assert row["loss"]["se"] == 0.07 and "se" not in row


class _Loss:
    """A planted evaluator: a threshold on t at v loses |v − 22| / 10 with "<=", 5 with ">=";
    any other rule loses its complexity. Records every batch it is asked."""

    def __init__(self):
        self.batches = []

    def __call__(self, rules):
        self.batches.append(list(rules))
        out = []
        for r in rules:
            if r.kind == "threshold" and r.feature == "t":
                loss = abs(r.thresholds[0] - 22) / 10 if r.op == "<=" else 5.0
            else:
                loss = float(r.complexity)
            out.append(Scored(r, loss, loss, loss))
        return out


def test_the_search_scores_each_rule_once_and_climbs_the_fine_grid():
    """Coarse thresholds 10, 20, 30 on the primary feature t with both comparisons (6 rules,
    one batch); the best (20, loss 0.2) climbs the fine grid: 15 and 25 lose 0.7 and 0.3, so
    20 stays. A rule asked twice is scored once."""
    from analyzer.advice.search import Searcher

    ev = _Loss()
    s = Searcher([T, S], ev, primary=["t"])
    best = s.thresholds()
    assert best.rule == Rule("threshold", "t", "<=", (20,)) and best.loss == pytest.approx(0.2)
    assert ev.batches[0] == [Rule("threshold", "t", op, (v,)) for op in ("<=", ">=")
                             for v in (10, 20, 30)]
    assert ev.batches[1] == [Rule("threshold", "t", "<=", (15,)),
                             Rule("threshold", "t", "<=", (25,))]
    assert len(ev.batches) == 2
    again = s.score([Rule("threshold", "t", "<=", (20,)), Rule("threshold", "t", "<=", (20,))])
    assert len(ev.batches) == 2 and again[0] is again[1] is best
    every = Searcher([T, S], _Loss())
    assert every.primary == ["t", "s"] and every.ops == ("<=", ">=")


def test_climbing_steps_to_the_best_neighbour_until_none_is_better():
    """From t ≤ 10 (loss 1.2) on the grid 10, 15, …, 30: 15 (0.7), then 20 (0.2), then both
    neighbours (15: 0.7, 25: 0.3) are worse: stop at 20. A value off the grid steps to its
    neighbours on the grid."""
    from analyzer.advice.search import Searcher

    s = Searcher([T, S], _Loss())
    start = s.score([Rule("threshold", "t", "<=", (10,))])[0]
    assert s.climb(start).rule.thresholds == (20,)
    assert s.climb(start, rounds=1).rule.thresholds == (15,)
    assert s.climb(start, rounds=0) is start
    assert s._neighbours(Rule("threshold", "t", "<=", (22,))) == [
        Rule("threshold", "t", "<=", (20,)), Rule("threshold", "t", "<=", (25,))]
    assert s._neighbours(Rule("threshold", "t", "<=", (10,))) == [
        Rule("threshold", "t", "<=", (15,))]
    assert s._neighbours(Rule("threshold", "t", "<=", (30,))) == [
        Rule("threshold", "t", "<=", (25,))]
    # a band's cuts move on the band feature's grid, only while they stay increasing
    assert s._neighbours(Rule("banded", "t", "<=", (20, 25), "s", (50,))) == [
        Rule("banded", "t", "<=", (15, 25), "s", (50,)),
        Rule("banded", "t", "<=", (25, 25), "s", (50,)),
        Rule("banded", "t", "<=", (20, 20), "s", (50,)),
        Rule("banded", "t", "<=", (20, 30), "s", (50,)),
        Rule("banded", "t", "<=", (20, 25), "s", (0,)),
        Rule("banded", "t", "<=", (20, 25), "s", (75,))]
    # cuts (50, 75) on the grid 0, 50, 75: 50 may go to 0, not to 75; 75 not down to 50
    moved = [r.cuts for r in s._neighbours(Rule("banded", "t", "<=", (20, 25, 30), "s",
                                                (50, 75))) if r.cuts != (50, 75)]
    assert moved == [(0, 75)]
    assert s._neighbours(Rule("list", clauses=(("s", "<=", 50, True),))) == [
        Rule("list", clauses=(("s", "<=", 0, True),)),
        Rule("list", clauses=(("s", "<=", 75, True),))]


# ======================================================================= table.py
IDS = {"t": 1, "s": 2, "p": 3}


def test_conditions_round_towards_their_comparison_and_clip():
    from analyzer.advice.table import ALWAYS, MAX_ROWS, NEVER, OP_GE, OP_LE, cond

    assert (OP_LE, OP_GE, ALWAYS, NEVER, MAX_ROWS) == (0, 1, (0, 0, 0), (0, 1, 1), 4)
    assert cond(IDS, "t", "<=", 3.5) == (1, 0, 3) and cond(IDS, "t", ">=", 3.5) == (1, 1, 4)
    assert cond(IDS, "s", "<=", -2.5) == (2, 0, -3) and cond(IDS, "s", ">=", -2.5) == (2, 1, -2)
    assert cond(IDS, "t", "<=", 7) == (1, 0, 7) and type(cond(IDS, "t", "<=", 7.0)[2]) is int
    assert cond(IDS, "t", "<=", 10**12) == (1, 0, 10**9)
    assert cond(IDS, "t", ">=", -10**12) == (1, 1, -10**9)
    assert cond(IDS, "t", ">=", math.inf) == (1, 1, 10**9)


def test_rule_tables_row_by_row_and_read_as_the_kernels_read_them():
    from analyzer.advice.table import table_acts, table_of

    assert table_of(THRESH, IDS) == ((0, 0, 0, 1, 0, 20),)
    assert table_of(BANDED, IDS) == ((2, 1, 75, 1, 0, 30), (2, 1, 50, 1, 0, 25),
                                     (0, 0, 0, 1, 0, 20))
    assert table_of(LIST_A, IDS) == ((1, 1, 25, 0, 1, 1), (2, 0, 0, 0, 0, 0),
                                     (0, 0, 0, 0, 0, 0))
    assert table_of(LIST_B, IDS) == ((2, 0, 0, 0, 0, 0), (1, 1, 25, 0, 1, 1),
                                     (0, 0, 0, 0, 1, 1))
    for r, want in ((THRESH, [1, 0, 0, 0, 1, 0, 0]), (BANDED, [1, 0, 1, 0, 1, 1, 0]),
                    (LIST_A, [1, 0, 0, 1, 1, 0, 0]), (LIST_B, [1, 0, 0, 1, 0, 0, 1])):
        assert table_acts(table_of(r, IDS), X, {"t": 1, "s": 2}).tolist() == \
            [bool(w) for w in want]
    assert table_acts((), X, {"t": 1, "s": 2}).tolist() == [False] * 7  # no row: rest
    # a row whose guard fails passes on; one whose guard holds decides even when its test fails
    assert table_acts(((1, 1, 100, 0, 0, 0), (0, 0, 0, 0, 0, 0)), X, {"t": 1, "s": 2}).tolist() \
        == [True] * 7
    assert table_acts(((1, 0, 100, 0, 1, 1), (0, 0, 0, 0, 0, 0)), X, {"t": 1, "s": 2}).tolist() \
        == [False] * 7


def test_rules_that_decide_alike_and_grids():
    from analyzer.advice.table import behaviour, distinct, grid, spread

    assert behaviour(THRESH, X) == np.packbits([1, 0, 0, 0, 1, 0, 0]).tobytes()
    assert behaviour(Rule("threshold", "t", "<=", (15,)), X) == behaviour(THRESH, X)
    alike = Rule("threshold", "t", "<=", (25,))   # t = 21 also acts: differs from THRESH,
    # and decides as LIST_A on every planted state (t 10, 21 act; 26, 27, 30 do not)
    assert behaviour(alike, X) == behaviour(LIST_A, X) != behaviour(THRESH, X)
    assert distinct([LIST_A, LIST_B, THRESH, Rule("threshold", "t", "<=", (15,)), alike], X) \
        == [THRESH, alike, LIST_B]
    g = grid({"a": [1, 2], "b": [5, 6, 7]})
    assert g["a"].tolist() == [1, 1, 1, 2, 2, 2] and g["b"].tolist() == [5, 6, 7, 5, 6, 7]
    assert list(g) == ["a", "b"]
    assert spread((1, 2, 3)) == (1, 2, 3) and spread((1, 2)) == (1, 2)
    assert spread((1, 2, 3, 4, 5, 6, 7)) == (1, 4, 7)
    assert spread((1, 2, 3, 4, 5)) == (1, 3, 5) and spread((1, 2, 3, 4)) == (1, 3, 4)
    assert spread((1, 2, 3, 4, 5), 2) == (1, 5) and spread((1, 2, 3, 4, 5), 5) == (1, 2, 3, 4, 5)


# ======================================================================= botrule.py
def test_a_given_rule_plays_as_its_bot():
    from analyzer.advice.botrule import GivenRule, band_knobs

    class Mine(GivenRule):
        FEATURES = (T, S)
        DECISION = DEC

        def bot_text(self):
            return "heuristic:stop-at=20"

    g = Mine(THRESH)
    assert g.rule() is THRESH and g.complexity == 2
    assert g.words() == "Roll while your turn total is at most 20 points; otherwise hold."
    assert g.acts(X).tolist() == [True, False, False, False, True, False, False]
    assert g.to_json() == {**THRESH.to_json(), "bot": "heuristic:stop-at=20"}
    assert band_knobs((10, 20), (3, 4), "cut-{}", "stop-at-{}") == [
        "cut-1=10", "stop-at-2=3", "cut-2=20", "stop-at-3=4"]
    assert band_knobs((), (), "c{}", "l{}") == []


# ======================================================================= rulefile.py
def _file(tmp_path, data, name="r.json"):
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(p)


def test_a_rule_file_read_as_a_rule(tmp_path):
    """The rule object alone, or a row holding it; 'rule:' in any case and spacing."""
    from analyzer.advice.rulefile import is_rule, load_rule, read_rule_data

    assert is_rule("rule:x") and is_rule("  RULE:x") and not is_rule("rules") \
        and not is_rule("x rule:")
    p = _file(tmp_path, THRESH.to_json())
    assert load_rule(f"rule:{p}", ["t", "s"]) == THRESH
    assert load_rule(f"  rule:{p}  ", ["t", "s"], "pig") == THRESH
    row = _file(tmp_path, {"game": "pig", "words": "w", "rule": BANDED.to_json()}, "row.json")
    assert load_rule(f"rule:{row}", ["t", "s"], "pig") == BANDED
    assert read_rule_data(f"rule:{row}") == BANDED.to_json()
    lst = _file(tmp_path, LIST_A.to_json(), "l.json")
    assert load_rule(f"rule:{lst}", ["t", "s"]) == LIST_A


def test_rule_file_refusals_word_for_word(tmp_path):
    from analyzer.advice.rulefile import load_rule, read_rule_data

    assert refused(read_rule_data, "rule:") == "policy 'rule:' needs a file: rule:FILE.json"
    p = _file(tmp_path, "{not json")
    assert refused(read_rule_data, f"rule:{p}") == (
        f"rule file '{p}' is not JSON (Expecting property name enclosed in double quotes: "
        f"line 1 column 2 (char 1))")
    p = _file(tmp_path, {"game": "ten", "rule": THRESH.to_json()})
    assert refused(read_rule_data, f"rule:{p}", "pig") == \
        f"rule file '{p}' holds a rule for ten, not pig"
    assert read_rule_data(f"rule:{p}") == THRESH.to_json()  # no game asked: not checked
    assert read_rule_data(f"rule:{p}", "ten") == THRESH.to_json()
    p = _file(tmp_path, {"game": 3, "rule": THRESH.to_json()})
    assert refused(read_rule_data, f"rule:{p}", "pig") == \
        f"rule file '{p}' holds a rule for no game, not pig"
    p = _file(tmp_path, {"game": "x" * 400})
    assert len(refused(read_rule_data, f"rule:{p}", "pig")) == 300
    p = _file(tmp_path, [THRESH.to_json()])
    assert refused(read_rule_data, f"rule:{p}") == (
        f"rule file '{p}': expected a rule object (the `rule` of a row of `advice --json`)")
    p = _file(tmp_path, {"rule": "threshold", "kind": "threshold"})
    assert read_rule_data(f"rule:{p}") == {"rule": "threshold", "kind": "threshold"}
    deep = {"a": 1}
    for _ in range(15):
        deep = {"a": deep}          # 16 objects deep: read
    p = _file(tmp_path, deep)
    assert read_rule_data(f"rule:{p}") == deep
    p = _file(tmp_path, {"a": deep})  # 17
    assert refused(read_rule_data, f"rule:{p}") == f"rule file '{p}' nests more than 16 deep"
    p = _file(tmp_path, "[" * 100000 + "]" * 100000)
    assert refused(read_rule_data, f"rule:{p}") == f"rule file '{p}' nests more than 16 deep"


def test_depth_of_nested_values():
    from analyzer.advice.rulefile import _depth

    assert _depth(3) == 0 and _depth([]) == 1 and _depth({}) == 1
    assert _depth([1, [2, [3]]]) == 3 and _depth({"a": [{"b": 1}]}) == 3
    assert _depth([[[]]]) == 3
    v = []
    for _ in range(30):
        v = [v]
    assert _depth(v) == 17  # counting stops past 16


def test_rule_objects_checked_word_for_word():
    from analyzer.advice.rulefile import rule_from_data

    names = ["t", "s"]
    where = "rule file 'f.json'"

    def bad(d, what=""):
        return refused(rule_from_data, d, names, "f.json", what)

    th = THRESH.to_json()
    assert rule_from_data(th, names, "f.json") == THRESH
    kinds = ("expected a rule object with kind threshold, banded or list (the `rule` of a row "
             "of `advice --json`)")
    assert bad([1]) == f"{where}: {kinds}"
    assert bad({**th, "kind": "tree"}) == f"{where}: {kinds}"
    assert bad({**th, "kind": "tree"}, "front[2]") == f"{where}, front[2] rule: {kinds}"
    assert bad({k: v for k, v in th.items() if k != "op"}) == \
        f"{where}: malformed threshold rule (missing 'op')"
    assert bad({**th, "feature": ["t"]}) == f"{where}: 'feature' must be a name (a string)"
    assert bad({**th, "feature": "x" * 101}) == f"{where}: 'feature' must be a name (a string)"
    assert bad({**th, "feature": "u"}) == \
        f"{where}: unknown feature 'u' (this game's features: s, t)"
    assert bad({**th, "threshold": True}) == f"{where}: 'threshold' must be a number"
    assert bad({**th, "threshold": "3"}) == f"{where}: 'threshold' must be a number"
    assert bad({**th, "threshold": float("nan")}) == f"{where}: thresholds must be numbers"
    assert bad({**th, "threshold": math.inf}) == f"{where}: thresholds must be numbers"
    assert bad({**th, "op": "<"}) == f"{where}: comparison '<' must be '<=' or '>='"
    assert rule_from_data({**th, "op": ">=", "threshold": 2.5}, names, "f") == \
        Rule("threshold", "t", ">=", (2.5,))
    bd = BANDED.to_json()
    assert rule_from_data(bd, names, "f.json") == BANDED
    assert bad({**bd, "thresholds": [1, "2"]}) == f"{where}: 'thresholds' must be a list of numbers"
    assert bad({**bd, "thresholds": list(range(17))}) == \
        f"{where}: 'thresholds' must be a list of numbers"
    assert bad({**bd, "thresholds": [1, 2, 3, 4], "cuts": [1, 2, 3]}) == \
        f"{where}: a banded rule has 2 or 3 thresholds and one cut fewer"
    assert bad({**bd, "thresholds": [1], "cuts": []}) == \
        f"{where}: a banded rule has 2 or 3 thresholds and one cut fewer"
    assert bad({**bd, "cuts": [50]}) == \
        f"{where}: a banded rule has 2 or 3 thresholds and one cut fewer"
    assert bad({**bd, "cuts": [75, 50]}) == \
        f"{where}: the cuts of a banded rule must be increasing numbers"
    assert bad({**bd, "cuts": [50, 50]}) == \
        f"{where}: the cuts of a banded rule must be increasing numbers"
    assert bad({**bd, "cuts": [50, math.inf]}) == \
        f"{where}: the cuts of a banded rule must be increasing numbers"
    assert bad({**bd, "band_feature": "u"}) == \
        f"{where}: unknown feature 'u' (this game's features: s, t)"
    assert rule_from_data({**bd, "thresholds": [1, 2], "cuts": [3]}, names, "f") == \
        Rule("banded", "t", "<=", (1, 2), "s", (3,))
    ls = LIST_A.to_json()
    assert rule_from_data(ls, names, "f.json") == LIST_A
    clauses = ("'clauses' must be a list of clauses, each with feature, op, value (a number) "
               "and act (true or false)")
    assert bad({**ls, "clauses": [{"feature": "t", "op": "<=", "value": 1}]}) == \
        f"{where}: {clauses}"
    assert bad({**ls, "clauses": [{"feature": "t", "op": "<=", "value": 1, "act": 1}]}) == \
        f"{where}: {clauses}"
    assert bad({**ls, "clauses": ["x"]}) == f"{where}: {clauses}"
    assert bad({**ls, "clauses": {"feature": "t"}}) == f"{where}: {clauses}"
    assert bad({**ls, "default_act": 1}) == f"{where}: 'default_act' must be true or false"
    c = {"feature": "t", "op": "<=", "value": 1, "act": True}
    assert bad({**ls, "clauses": [c] * 4}) == \
        f"{where}: a decision list has at most 3 clauses (got 4)"
    assert rule_from_data({**ls, "clauses": [c] * 3}, names, "f").complexity == 6
    assert bad({**ls, "clauses": [{**c, "value": math.nan}]}) == \
        f"{where}: the value of the clause on 't' must be a number"
    assert bad({**ls, "clauses": [{**c, "feature": "u"}]}) == \
        f"{where}: unknown feature 'u' (this game's features: s, t)"
    assert bad({**ls, "clauses": [{**c, "op": "=="}]}) == \
        f"{where}: comparison '==' must be '<=' or '>='"
    assert rule_from_data({**ls, "clauses": []}, names, "f") == Rule("list", default_act=True)


# ======================================================================= words.py
def _mc(est, lo, hi, se=0.0032, n=2048):
    return {"estimate": est, "se": se, "ci_low": lo, "ci_high": hi, "n": n}


def _row(cx, words, loss, **kw):
    return {"complexity": cx, "words": words, "rule": {"cx": cx}, "loss": loss, **kw}


def test_sentence_verdict_decimals_and_loss_text():
    from analyzer.advice.words import (BEST, NOT_SEPARATED, WORSE, _loss, decimals, loss_text,
                                       sentence, verdict)

    assert sentence("  Roll while x.  ") == "roll while x" and sentence("") == ""
    assert sentence("If A, b.") == "if A, b"
    assert _loss({"loss": 0.25}) == (0.25, 0.25, 0.25, None)
    assert _loss({"loss": {"estimate": 1, "ci_low": 0, "ci_high": 2}}) == (1, 0, 2, None)
    assert verdict({"best_found": True, "loss": _mc(0, 0.1, 1)}) == BEST == "best found"
    assert verdict({"loss": _mc(0.1, 0.01, 0.2)}) == WORSE == "shown worse than the best found"
    assert verdict({"loss": _mc(0.1, 0.0, 0.2)}) == NOT_SEPARATED == \
        "not separated from the best found"
    assert verdict({"loss": _mc(0.1, -0.01, 0.2)}) == NOT_SEPARATED
    rows = [{"loss": _mc(0, 0, 0, se=0.21)}, {"loss": _mc(0, 0, 0, se=0.0032)},
            {"loss": _mc(0, 0, 0, se=0.0)}, {"loss": 0.5}]
    assert decimals(rows, 7) == 4 and decimals(rows[:1], 7) == 2 and decimals(rows[2:], 7) == 7
    assert loss_text({"loss": 0.25}, 4) == "0.2500"
    assert loss_text({"loss": _mc(0.0024, -0.0103, 0.0152)}, 3) == "0.002 [-0.010, 0.015]"


def test_the_sentence_of_a_max_loss_pick_and_the_count_of_ties():
    from analyzer.advice.words import remember

    best = _row(5, "Best rule.", _mc(0, 0, 0, se=0.0), survived=True, best_found=True)
    near = _row(2, "Near rule.", _mc(0.0024, -0.0103, 0.0152), survived=True)
    worse = _row(2, "Worse rule.", _mc(0.024, 0.012, 0.0302), survived=True)
    said = remember({"all": [best, near], "max_loss": 0.02, "simplest_within": near},
                    [near, best], "u", "", exact=False)
    assert said == ("Remember: near rule. It is not shown worse than the best rule found (size "
                    "5): it loses 0.0024 u, 95% interval -0.0103 to 0.0152. It is the simplest "
                    "rule within your --max-loss 0.02.")
    said = remember({"all": [best, worse], "max_loss": 0.05, "simplest_within": worse},
                    [worse, best], "u", "", exact=False)
    assert said == ("Remember: worse rule. It loses 0.0240 u against the best rule found, at "
                    "most 0.0302 (95%). It is the simplest rule within your --max-loss 0.05.")
    said = remember({"all": [best, worse], "max_loss": 0.05, "simplest_within": best},
                    [worse, best], "u", "", exact=False)
    assert said.endswith("(the best by sample mean). Every simpler rule left in the race is "
                         "shown to lose against it. It is the simplest rule within your "
                         "--max-loss 0.05.")
    # the simplest not separated; among equally simple, the smaller loss
    near2 = _row(2, "Nearer rule.", _mc(0.0010, -0.0103, 0.0152), survived=True)
    gone = _row(2, "Gone rule.", _mc(0.0001, -0.0103, 0.0152), survived=False)
    assert remember({"all": [best, near, near2, gone]}, [best], "u", "", exact=False) \
        .startswith("Remember: nearer rule.")
    tie = _row(8, "Tie.", _mc(0.01, -0.02, 0.04), survived=True)
    tie2 = _row(8, "Tie 2.", _mc(0.01, -0.02, 0.04), survived=True)
    said = remember({"all": [best, tie, tie2]}, [best], "u", "", exact=False)
    assert said.endswith("It is the best rule found of 3 raced (the best by sample mean). 2 "
                         "other surviving rules are not separated from it (below).")
    # exact: a loss of exactly 0 or below costs nothing; the front's first rule by default
    assert remember({}, [_row(2, "A.", -1e-9)], "u", "perfect play", True) == \
        "Remember: a. It costs you nothing against perfect play."
    assert remember({"max_loss": 0.1, "simplest_within": None}, [_row(2, "A.", 0.5)], "u",
                    "perfect play", True) == \
        "Remember: a. It costs you 0.500 u against perfect play."
    assert remember({"simplest_within": _row(4, "B.", 0.1)}, [_row(2, "A.", 0.5)], "u", "p",
                    True) == "Remember: a. It costs you 0.500 u against p."


def test_the_table_of_rules_line_by_line():
    from analyzer.advice.words import front_lines

    exact = [_row(2, "A.", 0.25), _row(4, "B.", 0.0)]
    assert front_lines(exact, "u", "perfect play", True, 3, extra=lambda r: f"bot{r['complexity']}"
                       ) == [
        "Simplest rules and what they cost (loss in u against perfect play; size = numbers and "
        "conditions to remember):",
        "  size 2: loss 0.250", "    A.", "    played by: bot2",
        "  size 4: loss 0.000", "    B.", "    played by: bot4"]
    raced = [_row(2, "A.", _mc(0.0024, -0.0103, 0.0152)),
             _row(5, "B.", _mc(0, 0, 0, se=0.0), best_found=True),
             _row(3, "C.", _mc(0.03, 0.01, 0.05))]
    assert front_lines(raced, "u", "x", False) == [
        "Simplest rules and what they cost (loss in u against the best rule found, 95% "
        "intervals over the whole race; size = numbers and conditions to remember):",
        "  size 2: loss 0.0024 [-0.0103, 0.0152], not separated from the best found", "    A.",
        "  size 5: the best rule found", "    B.",
        "  size 3: loss 0.0300 [0.0100, 0.0500], shown worse than the best found", "    C."]


def test_the_rules_not_separated_line_by_line():
    """Survivors (not the best found) whose interval reaches 0, simplest first then by loss;
    at most 5 listed, a front rule by its size only."""
    from analyzer.advice.words import LISTED, not_separated_lines

    assert LISTED == 5
    rows = [_row(cx, f"R{i}.", _mc(0.001 * (7 - i), -0.01, 0.02), survived=True,
                 rule={"id": i}) for i, cx in enumerate((6, 4, 4, 2, 8, 8, 8))]
    rows.append(_row(2, "Gone.", _mc(0.0, -0.01, 0.02), survived=False, rule={"id": 9}))
    rows.append(_row(2, "Best.", _mc(0, 0, 0, se=0.0), survived=True, best_found=True,
                     rule={"id": 10}))
    rows.append(_row(2, "Worse.", _mc(0.02, 0.01, 0.03), survived=True, rule={"id": 11}))
    front = [rows[3]]
    assert not_separated_lines(rows, front, "u") == [
        "Not separated from the best found (7 surviving rules whose loss interval in u reaches "
        "0: each may be as good):",
        "  size 2, loss 0.0040 [-0.0100, 0.0200] (above)",
        "  size 4, loss 0.0050 [-0.0100, 0.0200]: R2.",
        "  size 4, loss 0.0060 [-0.0100, 0.0200]: R1.",
        "  size 6, loss 0.0070 [-0.0100, 0.0200]: R0.",
        "  size 8, loss 0.0010 [-0.0100, 0.0200]: R6.",
        "  and 2 more (--json lists every rule)"]
    assert not_separated_lines(rows[:1], [], "u") == [
        "Not separated from the best found (1 surviving rule whose loss interval in u reaches "
        "0: it may be as good):", "  size 6, loss 0.0070 [-0.0100, 0.0200]: R0."]
    assert not_separated_lines(rows[9:], [], "u") == [
        "No other rule left in the race reaches the best found: each is shown worse."]
    five = not_separated_lines(rows[:5], [], "u")
    assert len(five) == 6 and not five[-1].startswith("  and")


def test_the_race_line_in_its_forms():
    from analyzer.advice.words import race_line

    assert race_line({"unit": "games", "trials_spent": 12345, "survivors": 3, "rounds": 4}) == \
        "Racing: 12,345 games spent; 3 rules survived 4 rounds"
    cost = {"unit": "games", "trials_spent": 1000, "candidates": 7, "rounds": 3, "z": 3.14159,
            "survivors": 2, "saving": 2.0, "grid": {"trials": 2000, "z": 2.5}}
    assert race_line(cost) == (
        "Racing: 1,000 games against 2,000 for a uniform grid with the same guarantee, 2.0× "
        "fewer (the grid plays each of the 7 rules once to the survivors' interval width at "
        "its own Bonferroni z 2.50; the race's z is 3.14, over 7 rules × 3 rounds). 2 rules "
        "survived 3 rounds")
    cost.update(seconds=1.25, max_rounds=9, tests=1, saving=1.0, indifference=0.0,
                indifferent=4, grid={"trials": 2000, "z": 2.5, "seconds": 2.5})
    assert race_line(cost) == (
        "Racing: 1,000 games (1.2 s) against 2,000 (about 2 s) for a uniform grid with the "
        "same guarantee, 1.0× fewer (the grid plays each of the 7 rules once to the survivors' "
        "interval width at its own Bonferroni z 2.50; the race's z is 3.14, over 7 rules × 9 "
        "rounds). 2 rules survived 3 rounds")
    cost.update(saving=0.8, tests=2, indifference=0.25)
    assert race_line(cost).endswith(
        "1.2× more than the grid (the grid plays each of the 7 rules once to the survivors' "
        "interval width at its own Bonferroni z 2.50; the race's z is 3.14, over 7 rules × 9 "
        "rounds × 2 tests). 2 rules survived 3 rounds; 4 dropped for gaining less than 0.25 "
        "over a simpler rule (--indifference)")


# ======================================================================= cli.py
def test_band_by_and_the_opponents_line_up(capsys):
    from analyzer.advice.cli import check_band_by, parse_opponents

    assert check_band_by("b", ("a", "b")) == "b"
    assert refused(check_band_by, "c", ("a", "b")) == "--band-by must be one of a, b, got 'c'"

    class Bot:
        def __init__(self, label):
            self.label = label

    asked = []

    def seats(text, players, flag):
        asked.append((text, players, flag))
        return [Bot(x) for x in text.split(",")] * (players if "," not in text else 1)

    lineup, label, rec = parse_opponents(None, "h", seats, 3, lambda b: True, 50)
    assert asked == [("h", 3, "--seats")] and label == "h" and rec == 50 and len(lineup) == 3
    lineup, label, rec = parse_opponents("a,b", "h", seats, 2, lambda b: b.label != "b", 50)
    assert label == "a,b" and rec == 0 and isinstance(lineup, tuple)
    assert capsys.readouterr().err == (
        "note: where each rule goes wrong is not recorded against a,b (the recording engine "
        "does not play every bot of it); --record-games ignored\n")
    _l, _lab, rec = parse_opponents("a,b", "h", seats, 2, lambda b: b.label != "b", 0)
    assert rec == 0 and capsys.readouterr().err == ""
    _l, _lab, rec = parse_opponents("a,a", "h", seats, 2, lambda b: True, 7)
    assert _lab == "a" and rec == 7


def _scored_front():
    s2 = Scored(THRESH, 0.05, 0.05, 0.05)
    s8 = Scored(BANDED, 0.01, 0.01, 0.01)
    return [s2, s8]


def test_the_front_in_the_json_and_its_plain_fields():
    from analyzer.advice.cli import front_payload, plain_fields

    payload = {}
    rows = front_payload(payload, _scored_front(), [T, S], DEC, None)
    assert payload == {"front": rows} and [r["complexity"] for r in rows] == [2, 8]
    assert rows[0]["words"] == "Roll while your turn total is at most 20 points; otherwise hold."
    front_payload(payload, _scored_front(), [T, S], DEC, 0.02)
    assert payload["max_loss"] == 0.02 and payload["simplest_within"]["complexity"] == 8
    front_payload(payload, _scored_front(), [T, S], DEC, 0.001)
    assert payload["simplest_within"] is None
    payload = {}
    rows = front_payload(payload, _scored_front(), [T, S], DEC, 0.05)
    assert payload["simplest_within"]["complexity"] == 2
    plain_fields(payload, rows, "points a turn", exact=True)
    assert payload["unit_words"] == "points a turn" and "verdict" not in rows[0]
    assert payload["remember"] == (
        "Remember: roll while your turn total is at most 20 points; otherwise hold. It costs "
        "you 0.0500 points a turn against perfect play. It is the simplest rule within your "
        "--max-loss 0.05.")
    raced = {"all": [_row(2, "A.", _mc(0.01, 0.005, 0.02), survived=True),
                     _row(5, "B.", _mc(0, 0, 0, se=0.0), survived=True, best_found=True)],
             "simplest_within": _row(2, "A.", _mc(0.01, -0.005, 0.02), survived=True),
             "max_loss": 0.5}
    front = [dict(raced["all"][0]), dict(raced["all"][1])]
    plain_fields(raced, front, "u", exact=False)
    assert [r["verdict"] for r in front] == ["shown worse than the best found", "best found"]
    assert [r["verdict"] for r in raced["all"]] == ["shown worse than the best found",
                                                    "best found"]
    assert raced["simplest_within"]["verdict"] == "not separated from the best found"


def test_the_closing_lines():
    from analyzer.advice.cli import per_turn, tail_lines

    assert tail_lines({}, "done") == [
        "To play a rule back: --out DIR writes each rule above as DIR/rule_cx<size>.json, then "
        "give rule:DIR/rule_cx<size>.json as a policy.", "done"]
    assert tail_lines({"written": ["a.json", "b.json"], "max_loss": 0.05,
                       "simplest_within": None}, "done") == [
        "Simplest rule within --max-loss 0.05: none found",
        "Rules written (play one back as the policy rule:FILE): a.json, b.json", "done"]
    exact = {"max_loss": 0.05, "unit_words": "u", "simplest_within": _row(2, "A.", 0.0251234)}
    assert tail_lines(exact, "d")[0] == \
        "Simplest rule within --max-loss 0.05 (size 2, loss 0.0251 u): A."
    mc = {"max_loss": 0.05, "simplest_within": _row(4, "B.", _mc(0.0241234, 0.01, 0.0305))}
    assert tail_lines(mc, "d")[0] == \
        "Simplest rule within --max-loss 0.05 (size 4, loss 0.0241 , at most 0.0305 (95%)): B."
    assert per_turn({"wrong_per_turn": 0.16666}) == "0.167 wrong decisions per turn"


def test_rule_files_written_with_out(tmp_path):
    from analyzer.advice.cli import write_rules
    from analyzer.errors import mark_interrupted, reset_interrupted

    payload = {"game": "pig", "front": [_row(2, "A.", 0.5), _row(4, "B.", 0.25)],
               "simplest_within": _row(4, "B.", 0.25, extra=1)}
    assert write_rules(None, payload) == [] and "written" not in payload
    written = write_rules(tmp_path / "out", payload)
    assert written == [str(tmp_path / "out" / n) for n in
                       ("rule_cx2.json", "rule_cx4.json", "rule_simplest.json")]
    assert payload["written"] == written
    assert (tmp_path / "out" / "rule_cx2.json").read_text() == json.dumps(
        {"game": "pig", "words": "A.", "complexity": 2, "loss": 0.5, "rule": {"cx": 2}},
        indent=2) + "\n"
    try:
        mark_interrupted()
        write_rules(tmp_path / "o2", {**payload, "simplest_within": None})
    finally:
        reset_interrupted()
    assert json.loads((tmp_path / "o2" / "rule_cx4.json").read_text())["interrupted"] is True
    assert not (tmp_path / "o2" / "rule_simplest.json").exists()


def test_where_each_rule_goes_wrong_under_its_size():
    from analyzer.advice.cli import mistakes_block

    m = {"wrong_per_game": {"estimate": 0.0, "exact_value": 0.0}}
    lab = {**m, "decision": "take"}
    assert mistakes_block([{"complexity": 2}, {"complexity": 3, "mistakes": m},
                           {"complexity": 5, "mistakes": [lab, {**m, "decision": ""}]}]) == [
        "  size 3:", "    the best rule found: no wrong decisions by definition",
        "  size 5:", "    take:", "      the best rule found: no wrong decisions by definition",
        "    the best rule found: no wrong decisions by definition"]


# ======================================================================= mistakes.py
def test_cuts_words_and_lines_of_mistakes():
    from analyzer.advice.mistakes import FEW, mistake_lines, rule_cuts, where_words

    assert FEW == 100
    assert rule_cuts(THRESH, BANDED, LIST_A) == {"t": [20.5, 24.5, 25.5, 30.5],
                                                 "s": [0.5, 49.5, 74.5]}
    assert rule_cuts() == {}
    assert where_words({"t": [7, 9], "s": [3, 3]}, {"t": "T"}) == "T 7–9, s 3"
    assert where_words({}, {}) == "every state"
    m = {"wrong_per_game": {"estimate": 0.12345, "ci_low": 0.1, "ci_high": 0.15},
         "decisions_per_game": {"estimate": 3.456}, "games": 12000, "seed": 7,
         "cells": [{"where": f"T {i}", "rule": "roll", "best": "hold",
                    "wrong_per_game": {"estimate": 0.01 * i}} for i in range(1, 5)]}
    assert mistake_lines(m, indent="  ") == [
        "  wrong decisions per game 0.123 [0.100, 0.150] of 3.46 (12,000 games, seed 7); most "
        "often:",
        "    T 1: roll where the best rule would hold (0.010 per game)",
        "    T 2: roll where the best rule would hold (0.020 per game)",
        "    T 3: roll where the best rule would hold (0.030 per game)"]
    assert len(mistake_lines(m, top=4)) == 5 and mistake_lines(m)[0].startswith("       wrong")
    assert mistake_lines({**m, "cells": []}, indent="") == [
        "wrong decisions per game 0.123 [0.100, 0.150] of 3.46 (12,000 games, seed 7); none "
        "seen"]
    assert mistake_lines({**m, "wrong_per_game": {"exact_value": 0.0}}, "") == [
        "the best rule found: no wrong decisions by definition"]


def test_mistake_statistics_by_hand():
    """Mean of 0, 1, 2, 3: 1.5, SD √(5/3), SE √(5/3)/2; the Garwood interval of 0 events is
    [0, 3.689] and of 4 events [1.0899, 10.2416] (published tables); a share 4/8 with
    residuals 0, −1, 0, 1: SE √(2/3)/(2·2)."""
    from analyzer.advice.mistakes import (count_statistic, mean_statistic, poisson_interval,
                                          ratio_statistic)

    s = mean_statistic([0, 1, 2, 3])
    se = math.sqrt(5 / 3) / 2
    assert (s.estimate, s.n) == (1.5, 4) and s.se == pytest.approx(se)
    assert s.ci_low == pytest.approx(1.5 - Z95 * se) and s.ci_high == pytest.approx(1.5 + Z95 * se)
    one = mean_statistic([2])
    assert one.se == math.inf and one.ci_low == 0.0 and one.ci_high == math.inf
    assert mean_statistic([0, 0, 0, 4]).ci_low == 0.0  # clipped at 0
    assert poisson_interval(0) == (0.0, pytest.approx(3.689, abs=1e-3))
    lo, hi = poisson_interval(4)
    assert lo == pytest.approx(1.0899, abs=1e-4) and hi == pytest.approx(10.2416, abs=1e-4)
    none = count_statistic([0, 0, 0, 0])
    assert (none.estimate, none.ci_low) == (0.0, 0.0)
    assert none.ci_high == pytest.approx(3.689 / 4, abs=1e-3)
    many = count_statistic([50, 50])   # 100 events: the normal interval alone
    assert (many.ci_low, many.ci_high) == (50.0, 50.0)
    few = count_statistic([49, 50])    # 99 events: widened to Garwood's
    assert few.ci_high > 49.5 + Z95 * 0.5 and few.ci_low < 49.5 - Z95 * 0.5
    r = ratio_statistic([1, 0, 1, 2], [2, 2, 2, 2])
    se = math.sqrt(2 / 3) / 4
    assert r.estimate == 0.5 and r.se == pytest.approx(se) and r.n == 4
    assert r.ci_low == pytest.approx(0.5 - Z95 * se)   # below Garwood's 1.0899 / 8
    assert r.ci_high == 1.0                            # Garwood's 10.24 / 8, clipped at 1
    z = ratio_statistic([0, 0], [0, 0])
    assert (z.estimate, z.se, z.ci_low, z.ci_high, z.n) == (0.0, 0.0, 0.0, 0.0, 2)
    big = ratio_statistic([60, 40], [200, 200])        # 100 events: normal interval, clipped
    assert big.estimate == 0.25 and big.ci_low == pytest.approx(0.25 - Z95 * big.se)
    assert big.se == pytest.approx(math.sqrt(200) / (200 * math.sqrt(2)))
    assert ratio_statistic([1], [2]).se == math.inf


def test_where_a_rule_goes_wrong_cell_by_cell():
    """Three games; the rule rolls on t ≤ 20, the best on t ≤ 10: decisions at t = 15 and 18
    (games 0, 2) and t = 20 (game 2) are wrong, all in the cell 10.5 < t < 20.5; t = 5 and 25
    are right."""
    from analyzer.advice.mistakes import where_wrong

    game = [0, 0, 1, 2, 2, 2]
    t = np.array([5, 15, 25, 18, 20, 5])
    X = {"t": t}
    ra, ba = t <= 20, t <= 10
    out = where_wrong(3, game, X, ra, ba, {"t": [10.5, 20.5]}, {"t": "T"}, DEC, seed=9)
    assert (out["games"], out["seed"]) == (3, 9)
    assert out["wrong_per_game"]["estimate"] == 1.0
    assert out["decisions_per_game"]["estimate"] == 2.0
    assert out["share_wrong"]["estimate"] == 0.5
    assert len(out["cells"]) == 1
    cell = out["cells"][0]
    assert (cell["features"], cell["where"], cell["rule"], cell["best"]) == (
        {"t": [15, 20]}, "T 15–20", "roll", "hold")
    assert cell["wrong_per_game"]["estimate"] == 1.0
    same = where_wrong(3, game, X, ra, ra, {"t": [20.5]}, {}, DEC, seed=9, same=True)
    assert same["wrong_per_game"] == same["share_wrong"] == {
        "estimate": 0.0, "se": 0.0, "ci_low": 0.0, "ci_high": 0.0, "n": 3, "exact_value": 0.0}
    assert same["cells"] == []
    with pytest.raises(ValueError, match="n_games must be positive"):
        where_wrong(0, [], {"t": []}, [], [], {}, {}, DEC, seed=1)
    # two cells ranked by their count (3 at t ≥ 20.5, 1 below), top 1 kept; the rule holds
    # where the best rolls in the first
    t2 = np.array([25, 26, 27, 15])
    cells = where_wrong(2, [0, 0, 1, 1], {"t": t2}, t2 <= 12, t2 <= 30, {"t": [20.5]},
                        {"t": "T"}, DEC, seed=1, top=1)["cells"]
    assert [(c["where"], c["rule"], c["best"]) for c in cells] == [("T 25–27", "hold", "roll")]


# ======================================================================= record.py
def test_recording_keys_and_a_fronts_mistakes(monkeypatch):
    """Blocks of ``block`` games on stream 2 of the seed (the last block holds the rest); each
    front rule's record is compared with the reference rule on the same features (here the
    rule rolls on t ≤ 20, the reference on t ≤ 10: the decision at t = 15 is wrong)."""
    from analyzer.advice import record
    from analyzer.rng import block_keys

    assert (record.STREAM, record.GAMES) == (2, 2000)
    keys, counts = record.record_keys(5, 10, 4)
    assert counts.tolist() == [4, 4, 2] and counts.dtype == np.int64
    assert np.array_equal(keys, block_keys(5, 0, 3, stream=2))
    assert not np.array_equal(keys, block_keys(5, 0, 3))
    keys, counts = record.record_keys(5, 8, 4)
    assert counts.tolist() == [4, 4] and len(keys) == 2

    asked = []

    def rec(rule, n, seed):
        asked.append((rule, n, seed))
        return [0, 0, 1], {"t": [5, 15, 25]}, [True, True, False]

    ref = Rule("threshold", "t", "<=", (10,))
    front = [Scored(THRESH, 0.1, 0.1, 0.1), Scored(ref, 0.0, 0.0, 0.0)]
    record.front_mistakes(front, rec, ref, {"t": "T"}, DEC, seed=3, n_games=2)
    assert asked == [(THRESH, 2, 3), (ref, 2, 3)]
    m = front[0].extra["mistakes"]
    assert (m["games"], m["seed"], m["wrong_per_game"]["estimate"]) == (2, 3, 0.5)
    assert [(c["where"], c["rule"], c["best"]) for c in m["cells"]] == [("T 15", "roll",
                                                                        "hold")]
    assert front[1].extra["mistakes"]["wrong_per_game"]["exact_value"] == 0.0
    # given acts and cuts are used instead of the rule's own
    front = [Scored(THRESH, 0.1, 0.1, 0.1)]
    record.front_mistakes(front, rec, ref, {"t": "T"}, DEC, seed=3, n_games=2,
                          acts=lambda r, X: np.ones(3, bool), cuts=lambda r, b: {"t": [0.5]},
                          top=7)
    assert front[0].extra["mistakes"]["cells"][0]["where"] == "T 25"
    # nothing decided: no wrong decision
    front = [Scored(THRESH, 0.1, 0.1, 0.1)]
    record.front_mistakes(front, lambda r, n, s: ([], {"t": []}, []), ref, {}, DEC, seed=1,
                          n_games=2)
    assert front[0].extra["mistakes"]["cells"] == []
    assert front[0].extra["mistakes"]["wrong_per_game"]["estimate"] == 0.0


def test_recording_stops_once_interrupted(capsys):
    from analyzer.advice import record
    from analyzer.errors import mark_interrupted, reset_interrupted, was_interrupted

    front = [Scored(THRESH, 0.1, 0.1, 0.1)]
    try:
        mark_interrupted()
        record.front_mistakes(front, None, THRESH, {}, DEC, seed=1)
        assert "mistakes" not in front[0].extra
    finally:
        reset_interrupted()
    with record.interruptible():
        raise KeyboardInterrupt
    try:
        assert was_interrupted()
        assert " ".join(capsys.readouterr().err.split()) == (
            "interrupted: the race finished; where its rules go wrong is shown only for the "
            "rules whose recording finished")
    finally:
        reset_interrupted()
    with record.interruptible():
        pass
    assert not was_interrupted() and capsys.readouterr().err == ""


# ======================================================================= report.py
def test_front_losses_as_statistics():
    from analyzer.advice.report import _is_reference, _loss, report_race

    s = _loss({"loss": 0.25})
    assert (s.estimate, s.se, s.ci_low, s.ci_high, s.n) == (0.25, 0.0, 0.25, 0.25, 0)
    s = _loss({"loss": {"estimate": 0.5, "ci_low": 0.1, "ci_high": 0.492, "n": None}})
    assert s.se == pytest.approx(0.392 / 3.92) and s.n == 0
    s = _loss({"loss": _mc(0.5, 0.1, 0.9, se=0.2, n=40)})
    assert (s.se, s.n) == (0.2, 40)
    assert _is_reference(_loss({"loss": 0.0})) and _is_reference(_loss({"loss": 1e-13}))
    assert not _is_reference(_loss({"loss": 1e-11}))
    assert not _is_reference(_loss({"loss": _mc(0.0, -0.1, 0.1)}))
    race = {"rounds": 3, "seconds": 9.5, "grid": {"z": 2.0, "seconds": 4.0}}
    assert report_race(race) == {"rounds": 3, "grid": {"z": 2.0}}
    assert race["seconds"] == 9.5
    assert report_race({"grid": None, "x": 1}) == {"grid": None, "x": 1}


def test_the_findings_a_front_supports():
    """The simplest rule's cost (exact to 4 decimals; a Monte Carlo one to its SE's digits,
    here 0.0033 → 3), or "no loss detected" when its interval holds 0, or "also the simplest"
    when it is the reference; and the best rule when it costs clearly less."""
    from analyzer.advice.report import front_findings

    assert front_findings([], "u", "x") == []
    a, b = _row(2, "Roll while A.", 0.05), _row(5, "Roll while B.", 0.0)
    found = front_findings([b, a], "u", "optimal play")
    assert [f.to_json() for f in found] == [
        {"text": "The simplest rule of thumb, \u201cRoll while A\u201d, gives up 0.0500 u "
                 "against optimal play.", "priority": 3},
        {"text": "The best rule found is \u201cRoll while B\u201d.", "priority": 4}]
    c = _row(4, "C.", 0.01)
    found = front_findings([a, c], "u", "optimal play", priority=1)
    assert [f.to_json() for f in found] == [
        {"text": "The simplest rule of thumb, \u201cA\u201d, gives up 0.0500 u against optimal "
                 "play.".replace("A", "Roll while A"), "priority": 1},
        {"text": "The best rule found, \u201cC\u201d, gives up 0.0100 u.", "priority": 2}]
    close = _row(4, "C.", 0.05)
    assert len(front_findings([a, close], "u", "x")) == 1
    assert [f.text for f in front_findings([b], "u", "x")] == [
        "The best rule is also the simplest: \u201cRoll while B\u201d."]
    ref = _row(2, "R.", _mc(0.0, 0.0, 0.0, se=0.0, n=2048))
    assert [f.text for f in front_findings([ref], "u", "x", raced=1234)] == [
        "The best rule of the 1,234 rules raced is also the simplest: \u201cR\u201d "
        "(n = 2,048)."]
    tie = _row(2, "T.", _mc(0.005, -0.0015, 0.0116, se=0.0033, n=2048))
    assert [f.text for f in front_findings([tie], "u", "the best rule")] == [
        "No loss detected for the simplest rule of thumb, \u201cT\u201d, against the best "
        "rule: 0.005 [-0.002, 0.012] u (n = 2,048)."]
    edge = _row(2, "T.", _mc(0.005, 0.0, 0.0115, se=0.0033, n=2048))
    assert front_findings([edge], "u", "x")[0].text.startswith("No loss detected")
    worse = _row(2, "W.", _mc(0.02, 0.0136, 0.0266, se=0.0033, n=2048))
    best = _row(5, "B.", _mc(0.0, 0.0, 0.0, se=0.0, n=2048))
    assert [f.text for f in front_findings([worse, best], "u", "the best rule")] == [
        "The simplest rule of thumb, \u201cW\u201d, gives up 0.020 [0.014, 0.027] u against "
        "the best rule (n = 2,048).", "The best rule found is \u201cB\u201d."]


def test_front_files_for_one_rule_and_for_two():
    from analyzer.advice.report import front_files

    one = [_row(2, "A.", 0.25)]
    files, md = front_files(one, "u", "T")
    assert set(files) == {"advice_front.csv", "advice_front.md"}
    assert files["advice_front.csv"].decode().splitlines() == [
        "complexity,loss,ci_low,ci_high,rule,rule_data", '2,0.25,0.25,0.25,A.,"{""cx"": 2}"']
    assert md.endswith("One rule is on the front, so there is no trade-off to chart.")
    assert "loss (u)" in md and "95% interval" not in md and "verdict" not in md
    two = [_row(2, "A.", _mc(0.02, 0.01, 0.03), best_found=False),
           _row(5, "B.", _mc(0.0, 0.0, 0.0, se=0.0), best_found=True)]
    files, md = front_files(two, "u", "T", stem="s")
    assert {"s.csv", "s.md", "s.svg", "s.png", "s.data.csv"} <= set(files)
    assert md.startswith("![T: loss against complexity, 95% intervals](s.svg)\n\n")
    assert "loss (u), 95% interval" in md and "verdict" in md
    assert "shown worse than the best found" in md
    assert files["s.csv"].decode().splitlines()[0] == \
        "complexity,loss,ci_low,ci_high,rule,rule_data,verdict"
    files, md = front_files([_row(2, "A.", 0.25), _row(4, "B.", 0.125)], "u", "T")
    assert md.startswith("![T: loss against complexity](advice_front.svg)\n\n")


def test_report_parts_of_an_exact_and_a_raced_front():
    from analyzer.advice.report import RACE_HOW, exact_part, raced_part

    rows = [_row(2, "A.", 0.25), _row(4, "B.", 0.125)]
    part = exact_part(rows, "u", "T", "Intro.", "How.")
    assert part.summary.startswith("Intro.\n\n![T: loss against complexity](advice_front.svg)")
    assert part.meta["exact"] is True and part.meta["front"] == rows
    assert part.meta["how"] == "How." and part.meta["key_chart"] == "advice_front"
    assert part.meta["findings"][0]["text"].endswith("against optimal play.")
    assert exact_part(rows[:1], "u", "T", "I", "H", against="x").meta["key_chart"] is None
    assert RACE_HOW == ("Racing: every rule plays the same games (common random numbers) in "
                        "rounds; a rule whose Bonferroni 95% interval lies clearly behind the "
                        "best is dropped.")

    class R(Rule):
        pass

    res = {"front": [Scored(_Named(THRESH), 0.0, 0.0, 0.0, 80, {"survived": True,
                                                                 "best_found": True})],
           "race": {"unit": "games", "trials_spent": 80, "survivors": 1, "rounds": 2,
                    "candidates": 3, "seconds": 1.0}}
    part = raced_part(res, "u", "T", "Intro.")
    assert part.summary.startswith("Intro.\n\nRacing: 80 games spent; 1 rules survived 2 "
                                   "rounds.\n\n")
    assert part.meta["race"] == {"unit": "games", "trials_spent": 80, "survivors": 1,
                                 "rounds": 2, "candidates": 3}
    assert part.meta["exact"] is False and part.meta["how"] == RACE_HOW
    assert part.meta["front"][0]["words"] == "W2."
    assert part.meta["findings"][0]["text"] == \
        "The best rule of the 3 rules raced is also the simplest: \u201cW2\u201d (n = 80)."


class _Named:
    """A raced candidate (a policy of its own): complexity, words() and to_json()."""

    def __init__(self, rule):
        self.rule_ = rule
        self.complexity = rule.complexity

    def words(self):
        return f"W{self.complexity}."

    def to_json(self):
        return {"cx": self.complexity}

    def __eq__(self, other):
        return isinstance(other, _Named) and other.rule_ == self.rule_

    def __hash__(self):
        return hash(self.rule_)


# ======================================================================= race.py
def test_a_race_on_sums_by_hand():
    """Two rules, batches of 2 trials: rule 0's differences 0, 0; rule 1's 3, 5 (sum 8, sum of
    squares 34: mean 4, variance 2, half-width z·1 with z the Bonferroni quantile of 2
    looks): rule 1's interval lies above rule 0's [0, 0], so it is dropped after one round."""
    from analyzer.advice.race import _bounds, race

    z = NormalDist().inv_cdf(1 - 0.05 / 2 / 2)
    asked = []

    def sample(idx, rnd):
        asked.append((list(idx), rnd))
        return [(0.0, 0.0) if i == 0 else (8.0, 34.0) for i in idx]

    out, cost = race([_Cx(2), _Cx(2)], sample, 2, max_rounds=1)
    assert asked == [([0, 1], 0)]
    assert cost == {"trials_spent": 4, "trials_flat": 4, "rounds": 1, "survivors": 1,
                    "z": pytest.approx(z)}
    assert (out[1].loss, out[1].n) == (4.0, 2)
    assert out[1].lo == pytest.approx(4 - z) and out[1].hi == pytest.approx(4 + z)
    assert out[1].extra == {"survived": False, "se": pytest.approx(1.0)}
    assert out[0].extra == {"survived": True, "se": 0.0}
    asked.clear()
    out, cost = race([_Cx(2), _Cx(2)], sample, 2, max_rounds=5)
    assert asked == [([0, 1], 0)] and cost["rounds"] == 1  # one left: the race ends
    # a simpler worse rule is never dropped by a more complex better one
    asked.clear()
    out, cost = race([_Cx(4), _Cx(2)], sample, 2, max_rounds=2)
    assert asked == [([0, 1], 0), ([0, 1], 1)] and cost["survivors"] == 2
    assert cost["z"] == pytest.approx(NormalDist().inv_cdf(1 - 0.05 / 4 / 2))
    assert cost["trials_spent"] == 8 and out[1].n == 4
    # a precision reached ends the race
    asked.clear()
    race([_Cx(2), _Cx(4)], lambda idx, rnd: asked.append(rnd) or [(0.0, 0.0)] * len(idx), 2,
         max_rounds=5, precision=0.1)
    assert asked == [0]
    assert _bounds([1.0], [1.0], [1], 2.0) == ([-math.inf], [math.inf])
    lo, hi = _bounds([4.0], [10.0], [2], 2.0)   # mean 2, variance 2, SE 1
    assert lo == [pytest.approx(0.0)] and hi == [pytest.approx(4.0)]
    lo, hi = _bounds([4.0], [7.0], [2], 2.0)    # a negative variance from rounding: 0
    assert lo == hi == [2.0]


class _Cx:
    def __init__(self, complexity):
        self.complexity = complexity


def test_a_block_race_every_field_by_hand():
    """Three rules of size 2 over blocks of 10 trials, 2 rounds: rules 0 and 1 play alike
    (mean 1 per block), rule 2's blocks 0, .1, 0, .1 lose 1, .9, 1, .9 against rule 0 (the
    first of the two best): mean .95, SD √(.01/3), SE half that, half-width t·SE with
    t = t_quantile(z, 3) and z the Bonferroni quantile of 3 × 2 looks: dropped after round 1."""
    from analyzer.advice.race import race_blocks, t_quantile

    def values(i, rnd):
        return [0.0, 0.1, 0.0, 0.1] if i == 2 else [1.0] * 4

    out, cost = race_blocks([_Cx(2)] * 3, values, 10, 2)
    z = NormalDist().inv_cdf(1 - 0.05 / 6 / 2)
    se = math.sqrt(0.01 / 3) / 2
    h = t_quantile(z, 3) * se
    assert t_quantile(z, 3) == pytest.approx(z + (z ** 3 + z) / 12
                                             + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 864)
    assert (out[0].loss, out[0].lo, out[0].hi, out[0].n) == (0.0, 0.0, 0.0, 80)
    assert out[0].extra == {"survived": True, "se": 0.0, "rounds": 2, "best_found": True,
                            "separated": False}
    assert (out[1].loss, out[1].lo, out[1].hi, out[1].n) == (0.0, 0.0, 0.0, 80)
    assert out[1].extra == {"survived": True, "se": 0.0, "rounds": 2, "best_found": False,
                            "separated": False}
    assert out[2].loss == pytest.approx(0.95) and out[2].n == 40
    assert out[2].lo == pytest.approx(0.95 - h) and out[2].hi == pytest.approx(0.95 + h)
    assert out[2].extra == {"survived": False, "se": pytest.approx(se), "rounds": 1,
                            "best_found": False, "separated": True}
    grid = cost.pop("grid")
    assert grid["blocks"] == 3 * grid["blocks_per_rule"] and grid["tests"] == 3
    assert grid["z"] == pytest.approx(NormalDist().inv_cdf(1 - 0.05 / 3 / 2))
    assert grid["trials"] == grid["blocks"] * 10
    saving = cost.pop("saving")
    assert saving == pytest.approx(grid["blocks"] / 20)
    assert cost.pop("seconds") >= 0
    assert cost == {"trials_spent": 200, "trials_flat": 240, "blocks_spent": 20,
                    "blocks_flat": 24, "rounds": 2, "survivors": 2, "candidates": 3,
                    "z": pytest.approx(z), "tests": 1, "max_rounds": 2, "reference_index": 0,
                    "saving_same_sample": 1.2, "not_separated": [1], "alive_per_round": [3, 2],
                    "indifference": 0.0, "indifferent": 0, "interrupted": False}
    # every survivor's half-width within the precision: one round
    _o, c = race_blocks([_Cx(2)] * 3, values, 10, 5, precision=0.01)
    assert c["rounds"] == 1 and c["alive_per_round"] == [3]
    # one survivor left: the race ends
    _o, c = race_blocks([_Cx(2)] * 2, lambda i, r: [0.0, 0.1, 0.0, 0.1] if i else [1.0] * 4,
                        10, 5)
    assert c["rounds"] == 1 and c["survivors"] == 1


def test_zone_policies_families_and_candidate_rows():
    from analyzer.advice.race import candidate_row, race_family, race_policies, zone

    assert zone(0.1, None) == 0.1 and zone(0.1, 0.0) == 0.0 and type(zone(1, None)) is float
    fam = [_Named(THRESH), _Named(BANDED)]
    seen = []

    def values(policy, rnd):
        seen.append((policy.complexity, rnd))
        return [1.0] * 4 if policy.complexity == 8 else [0.0, 0.1, 0.0, 0.1]

    scored, cost, ref = race_policies(fam, ["p2", "p8"], lambda p, r: values(
        fam[0] if p == "p2" else fam[1], r), 10, 1, 0.0)
    assert ref == "p8" and [s.extra["policy"] for s in scored] == ["p2", "p8"]
    res = race_family(fam, values, 10, 1, 0.0, "games")
    assert res["reference"] is fam[1] and res["race"]["unit"] == "games"
    assert [s.rule for s in res["all"]] == fam
    assert res["front"] == [res["all"][0], res["all"][1]] or res["front"] == [res["all"][1]]
    assert res["seconds"] >= 0
    s = Scored(_Named(THRESH), 0.5, 0.25, 0.75, 40, {"survived": True, "se": 0.1})
    assert candidate_row(s) == {"complexity": 2, "words": "W2.", "rule": {"cx": 2},
                                "loss": {"estimate": 0.5, "se": 0.1, "ci_low": 0.25,
                                         "ci_high": 0.75, "n": 40},
                                "survived": True, "best_found": False, "separated": False}
    s.extra.update(best_found=True, separated=True, mistakes={"m": 1})
    row = candidate_row(s)
    assert (row["best_found"], row["separated"], row["mistakes"]) == (True, True, {"m": 1})
    assert "mistakes" not in candidate_row(Scored(_Named(THRESH), 0, 0, 0, 1, {"mistakes": None}))
    assert candidate_row(Scored(_Named(THRESH), 0, 0, 0, 1))["survived"] is None


# ======================================================================= cli.py: whole texts
def _words(text):
    return " ".join(text.split())


def test_an_exact_runs_text_and_json(tmp_path, capsys):
    """Title, sentence, the table, where each rule goes wrong (how often, then where), the
    closing lines and the footer counting the rules evaluated; --json prints the payload with
    its plain fields instead."""
    from analyzer.advice.cli import emit_exact

    def payload():
        return {"game": "pig"}

    rows = [_row(2, "A.", 0.25, mistakes={"wrong_per_turn": 0.5})]
    res = {"evaluations": 17, "seconds": 1.25}
    emit_exact(payload(), [dict(rows[0])], res, title="T", unit="u",
               where=lambda m: " (at 3)", out=None, json=False)
    text = capsys.readouterr().out
    assert _words(text) == _words(
        "T Remember: a. It costs you 0.250 u against perfect play. "
        "Simplest rules and what they cost (loss in u against perfect play; size = numbers "
        "and conditions to remember): size 2: loss 0.2500 A. "
        "Where each rule goes wrong: size 2: 0.500 wrong decisions per turn (at 3) "
        "To play a rule back: --out DIR writes each rule above as DIR/rule_cx<size>.json, then "
        "give rule:DIR/rule_cx<size>.json as a policy. 17 rules evaluated exactly in 1.2 s")
    assert all(len(line) <= 80 for line in text.splitlines())
    p = {**payload(), "front": [dict(rows[0])]}
    emit_exact(p, p["front"], res, title="T", unit="u", where=lambda m: "", out=tmp_path,
               json=True, how_often=lambda m: "often", against="x")
    got = json.loads(capsys.readouterr().out)
    assert got["remember"] == "Remember: a. It costs you 0.250 u against x."
    assert got["unit_words"] == "u" and got["written"] == [str(tmp_path / "rule_cx2.json")]


def test_a_raced_runs_payload_and_text(capsys):
    """The payload holds the reference, the front, every candidate best first, the race and
    its seconds, --max-loss's pick among the survivors' front; the text adds the rules not
    separated, where each goes wrong, ``more`` lines and the race line."""
    from analyzer.advice.cli import emit_raced, raced_payload

    a = Scored(_Named(THRESH), 0.03, 0.01, 0.05, 40, {"survived": True, "se": 0.01})
    b = Scored(_Named(BANDED), 0.0, 0.0, 0.0, 40, {"survived": True, "se": 0.0,
                                                   "best_found": True})
    c = Scored(_Named(LIST_A), 0.5, 0.4, 0.6, 20, {"survived": False, "se": 0.05})
    race = {"unit": "games", "trials_spent": 100, "survivors": 2, "rounds": 3}
    res = {"front": [a, b], "all": [c, a, b], "reference": _Named(BANDED), "race": race,
           "seconds": 2.5}
    payload = {"game": "pig"}
    rows = raced_payload(payload, res, None, None)
    assert [r["complexity"] for r in rows] == [2, 8]
    assert payload["reference"] == {"cx": 8} and payload["front"] is rows
    assert [r["complexity"] for r in payload["all"]] == [8, 2, 4]  # by loss
    assert payload["race"] is race and payload["seconds"] == 2.5
    assert "max_loss" not in payload and "written" not in payload
    raced_payload(payload, res, 0.06, None)
    assert payload["max_loss"] == 0.06 and payload["simplest_within"]["complexity"] == 2
    raced_payload(payload, res, 0.04, None)
    assert payload["simplest_within"]["complexity"] == 8
    raced_payload(payload, {**res, "all": [c]}, 0.9, None)
    assert payload["simplest_within"] is None  # no survivor

    emit_raced({"game": "pig"}, res, "Title", max_loss=None, out=None, json=False, unit="u",
               extra=lambda r: "bot", more=lambda p: ["More line."])
    text = _words(capsys.readouterr().out)
    assert text == _words(
        "Title Remember: w8. It is the best rule found of 3 raced (the best by sample mean). "
        "Every simpler rule left in the race is shown to lose against it. "
        "Simplest rules and what they cost (loss in u against the best rule found, 95% "
        "intervals over the whole race; size = numbers and conditions to remember): "
        "size 2: loss 0.030 [0.010, 0.050], shown worse than the best found W2. played by: bot "
        "size 8: the best rule found W8. played by: bot "
        "No other rule left in the race reaches the best found: each is shown worse. "
        "More line. Racing: 100 games spent; 2 rules survived 3 rounds "
        "To play a rule back: --out DIR writes each rule above as DIR/rule_cx<size>.json, then "
        "give rule:DIR/rule_cx<size>.json as a policy. 2.5 s")
    emit_raced({"game": "pig"}, res, "Title", max_loss=0.04, out=None, json=True, unit="u",
               digits=2)
    got = json.loads(capsys.readouterr().out)
    assert [r["verdict"] for r in got["front"]] == ["shown worse than the best found",
                                                    "best found"]
    assert got["simplest_within"]["verdict"] == "best found" and got["unit_words"] == "u"


def test_advice_text_of_a_race_with_mistakes():
    from analyzer.advice.cli import advice_text

    m = {"wrong_per_game": {"estimate": 0.0, "exact_value": 0.0}}
    rows = [_row(2, "A.", _mc(0, 0, 0, se=0.0), survived=True, best_found=True, mistakes=m)]
    payload = {"all": rows, "race": {"unit": "games", "trials_spent": 10, "survivors": 1,
                                     "rounds": 1}}
    text = advice_text(payload, rows, title=["L1", "L2"], unit="u", exact=False, footer="F",
                       wrong=["ignored"])
    assert _words(text) == _words(
        "L1 L2 Remember: a. It is the best rule found of 1 raced (the best by sample mean). It "
        "is the only rule left in the race. Simplest rules and what they cost (loss in u "
        "against the best rule found, 95% intervals over the whole race; size = numbers and "
        "conditions to remember): size 2: the best rule found A. No other rule left in the "
        "race reaches the best found: each is shown worse. Where each rule goes wrong: size 2: "
        "the best rule found: no wrong decisions by definition Racing: 10 games spent; 1 rules "
        "survived 1 rounds To play a rule back: --out DIR writes each rule above as "
        "DIR/rule_cx<size>.json, then give rule:DIR/rule_cx<size>.json as a policy. F")


class _Loss2(_Loss):
    """As :class:`_Loss`, with bands and lists told apart: a banded rule loses its complexity
    plus (Σ cuts + Σ |t − 22|) / 1000, a list its complexity plus Σ values / 1000."""

    def __call__(self, rules):
        self.batches.append(list(rules))
        out = []
        for r in rules:
            if r.kind == "threshold":
                loss = (abs(r.thresholds[0] - 22) / 10 if r.op == "<=" else 5.0) \
                    if r.feature == "t" else 2.0
            elif r.kind == "banded":
                loss = r.complexity + (sum(r.cuts) + sum(abs(t - 22) for t in r.thresholds)) \
                    / 1000
            else:
                loss = r.complexity + sum(c[2] for c in r.clauses) / 1000
            out.append(Scored(r, loss, loss, loss))
        return out


def test_bands_are_fitted_cut_by_cut_and_climbed():
    """From t ≤ 20: two bands on s cut at 50 (5.054; 75 gives 5.079), climbed to the cut 0
    (5.004); a third band between the cuts 0 and 50 (8.056; 0 and 75 give 8.081), no
    neighbour better. Worked out by hand from the planted losses."""
    from analyzer.advice.search import Searcher

    s = Searcher([T, S], _Loss2())
    base = s.thresholds()
    out = s.banded(base)
    assert [x.rule for x in out] == [Rule("banded", "t", "<=", (20, 20), "s", (0,)),
                                     Rule("banded", "t", "<=", (20, 20, 20), "s", (0, 50))]
    assert [x.loss for x in out] == [pytest.approx(5.004), pytest.approx(8.056)]
    assert [x.rule.complexity for x in Searcher([T, S], _Loss2()).banded(base, 2)] == [5]
    assert Searcher([T], _Loss2()).banded(base) == []  # no other feature to band by


def test_decision_lists_grow_clause_by_clause():
    """From t ≤ 20 the list starts "if t ≥ 25: hold, otherwise roll"; the best second clause
    by the planted losses is "if s ≤ 0: roll" (the first of the value-0 clauses), then the
    old clause climbs from 25 down to 10 (4.010); a third clause "if s ≤ 0: roll" again
    (6.010)."""
    from analyzer.advice.search import Searcher

    s = Searcher([T, S], _Loss2())
    base = s.thresholds()
    out = s.lists(base)
    assert [x.rule for x in out] == [
        Rule("list", clauses=(("s", "<=", 0, True), ("t", ">=", 10, False))),
        Rule("list", clauses=(("s", "<=", 0, True), ("s", "<=", 0, True),
                              ("t", ">=", 10, False)))]
    assert [x.loss for x in out] == [pytest.approx(4.010), pytest.approx(6.010)]
    assert Rule("list", clauses=(("t", ">=", 25, False),)) in s.seen
    assert len(Searcher([T, S], _Loss2()).lists(base, 2)) == 1
    top = Scored(Rule("threshold", "t", "<=", (30,)), 0.8, 0.8, 0.8)
    assert Searcher([T, S], _Loss2()).lists(top) == []  # no value above 30 to stop at
    ge = Scored(Rule("threshold", "t", ">=", (30,)), 5.0, 5.0, 5.0)
    s = Searcher([T, S], _Loss2())
    s.lists(ge, 1)  # "act while t ≥ 30" as a list: "if t ≤ 25: rest"
    assert list(s.seen) == [Rule("list", clauses=(("t", "<=", 25, False),))]


def test_the_whole_search_and_the_exact_search():
    from analyzer.advice.search import Searcher, exact_search

    only = Searcher([T, S], _Loss2()).run(1, 1)
    assert {r.rule.kind for r in only} == {"threshold"} and len(only) == 14
    two = Searcher([T, S], _Loss2()).run(2, 1)
    assert max(r.rule.complexity for r in two) == 5
    lists = Searcher([T, S], _Loss2()).run(1, 2)
    assert {r.rule.kind for r in lists} == {"threshold", "list"}
    assert max(r.rule.complexity for r in lists) == 4

    class Ev(_Loss2):
        evaluations = 99

        def mistakes(self, rule):
            return {"of": rule.complexity}

    ev = Ev()
    res = exact_search([T, S], ev, 1, 1)
    assert res["features"] == [T, S] and res["evaluations"] == 99 and res["evaluator"] is ev
    assert [s.rule for s in res["front"]] == [Rule("threshold", "t", "<=", (20,))]
    assert res["front"][0].extra == {"mistakes": {"of": 2}}
    assert len(res["scored"]) == 14 and res["seconds"] >= 0


def test_the_raced_commands_options_and_their_help():
    """Each option factory's flag, metavar, bounds and help, word for word (the help is what
    `advice --help` shows)."""
    import typing

    from analyzer.advice import cli

    def info(t):
        base, opt = typing.get_args(t)
        return base, opt

    base, o = info(cli.race_precision_option("games"))
    assert base is float and o.default == "--precision" and o.metavar == "HALF-WIDTH"
    assert o.help == ("Race until every surviving rule's loss half-width is at most this "
                      "(games).")
    base, o = info(cli.race_indifference_option("points"))
    assert base == typing.Optional[float] and o.default == "--indifference"
    assert (o.metavar, o.min) == ("DELTA", 0.0)
    assert o.help == ("Drop a rule once it is shown not to beat the best simpler surviving "
                      "rule by more than DELTA (points): it is not worth remembering. Default: "
                      "the --precision; 0 keeps every rule not shown worse.")
    base, o = info(cli.race_rounds_option("2,048 games"))
    assert base is int and o.default == "--rounds" and (o.min, o.max) == (1, 200)
    assert o.help == "Most racing rounds (each: 2,048 games)."
    base, o = info(cli.record_games_option())
    assert base is int and o.default == "--record-games"
    assert (o.min, o.max) == (0, 1_000_000)
    assert o.help == ("Fresh games each rule on the front plays (a stream of the seed apart "
                      "from the race's) to find the states where it decides otherwise than "
                      "the best rule; 0 skips it.")
    assert info(cli.record_games_option("deals"))[1].help.startswith("Fresh deals each rule")
    base, o = info(cli.opponents_option("heuristic", "a,b"))
    assert base == typing.Optional[str] and o.default == "--seats"
    assert o.metavar == "BOT,BOT,…"
    assert o.help == ("The line-up the rules play in: one bot per seat, separated by ',' (a "
                      "single bot means every seat; knobs after ':' as in `game --seats`), "
                      "e.g. a,b. The studied seat takes every seat in turn, its bot replaced "
                      "by each rule. Default: heuristic in every seat.")
    base, o = info(cli.band_by_option(("x", "y"), "x (one), y (two)"))
    assert base is str and o.default == "--band-by" and o.metavar == "x|y"
    assert o.help == ("Which banded rules to race besides the single thresholds: x (one), y "
                      "(two), both (all) or neither (none).")


class _Bands(_Loss2):
    """Planted losses of banded rules told apart band by band (cuts cost nothing):
    2 bands: 5 + A(t₀) + B(t₁); 3 bands: 8 + A(t₀) + B(t₁) + C(t₂), with A(20) = 0, B(30) = 0,
    C(10) = 0, C(30) = 0.3, C(20) = 0.5 and 0.5 (A, B) or 0.6 (C) elsewhere: C is not convex,
    so climbing from t₂ = 30 never reaches 10."""

    def __call__(self, rules):
        out = super().__call__(rules)
        for s in out:
            r = s.rule
            if r.kind == "banded":
                t = r.thresholds
                loss = r.complexity + (0 if t[0] == 20 else 0.5) + (0 if t[1] == 30 else 0.5)
                if len(t) >= 3:
                    loss += {10: 0.0, 30: 0.3, 20: 0.5}.get(t[2], 0.6)
                s.loss = s.lo = s.hi = loss
        return out


def test_bands_fit_the_new_bands_threshold_where_it_is_added():
    """From t ≤ 20, two bands on s: the cuts 50 and 75 tie (5.0 once band 2's threshold is fit
    to 30), the first kept. A third band below the cut 50 (cut 0) starts from (20, 20, 30) and
    fits band 0 (best 8.8); above it (cut 75) starts from (20, 30, 30) and fits band 2: 10,
    8.0, kept. Worked out by hand from the planted losses."""
    from analyzer.advice.search import Searcher

    s = Searcher([T, S], _Bands())
    out = s.banded(s.thresholds())
    assert [x.rule for x in out] == [Rule("banded", "t", "<=", (20, 30), "s", (50,)),
                                     Rule("banded", "t", "<=", (20, 30, 10), "s", (50, 75))]
    assert [x.loss for x in out] == [pytest.approx(5.0), pytest.approx(8.0)]
    # the starting rule of each new band and the grid of its fitted threshold were scored
    for t in ((20, 20, 30), (10, 20, 30), (30, 20, 30)):
        assert Rule("banded", "t", "<=", t, "s", (0, 50)) in s.seen
    for t in ((20, 30, 30), (20, 30, 20)):
        assert Rule("banded", "t", "<=", t, "s", (50, 75)) in s.seen


def test_the_default_search_stops_at_three_clauses_and_times_itself():
    from analyzer.advice.search import Searcher, exact_search

    every = Searcher([T, S], _Loss2()).run()
    assert max(r.rule.complexity for r in every if r.rule.kind == "list") == 6
    assert max(r.rule.complexity for r in every if r.rule.kind == "banded") == 8

    class Ev(_Loss2):
        evaluations = 1

        def mistakes(self, rule):
            return None

    res = exact_search([T, S], Ev())
    assert max(r.rule.complexity for r in res["scored"] if r.rule.kind == "list") == 6
    assert 0 <= res["seconds"] < 60


def test_digits_and_units_reach_every_line_of_a_raced_text(tmp_path, capsys):
    """Rows whose loss has no SE take the command's digits (4 unless given); the rules not
    separated come from every candidate, not the front alone, with the unit in words;
    ``where`` and ``more`` read their argument; --out writes the raced rules too."""
    from analyzer.advice.cli import advice_text, emit_exact, emit_raced
    from analyzer.advice.words import not_separated_lines

    best = _row(5, "B.", {"estimate": 0.0, "ci_low": 0.0, "ci_high": 0.0}, survived=True,
                best_found=True)
    near = _row(2, "N.", {"estimate": 0.0123456, "ci_low": -0.01, "ci_high": 0.03},
                survived=True)
    near2 = _row(3, "M.", {"estimate": 0.02, "ci_low": -0.01, "ci_high": 0.05}, survived=True)
    # a loss without an SE is shown as its estimate alone, to the digits given
    assert not_separated_lines([best, near], [best], "u")[1] == "  size 2, loss 0.0123: N."
    assert not_separated_lines([best, near], [best], "u", 2)[1] == "  size 2, loss 0.01: N."
    assert not_separated_lines([near, near2], [], "u")[0] == (
        "Not separated from the best found (2 surviving rules whose loss interval in u "
        "reaches 0: each may be as good):")
    payload = {"all": [best, near], "race": {"unit": "games", "trials_spent": 10,
                                             "survivors": 2, "rounds": 1}}
    text = _words(advice_text(payload, [best], title="T", unit="pts", exact=False,
                              footer="F", digits=2))
    assert ("Remember: n. It is not shown worse than the best rule found (size 5): it loses "
            "0.01 pts, 95% interval -0.01 to 0.03.") in text
    assert ("Not separated from the best found (1 surviving rule whose loss interval in pts "
            "reaches 0: it may be as good): size 2, loss 0.01: N.") in text
    text = _words(advice_text({"race": payload["race"]}, [near, best], title="T", unit="pts",
                              exact=False, footer="F"))
    assert ("Remember: n. It is not shown worse than the best rule found (size 5): it loses "
            "0.0123 pts, 95% interval -0.0100 to 0.0300.") in text
    text = _words(advice_text({}, [_row(2, "A.", 0.25)], title="T", unit="u", exact=True,
                              footer="F"))
    assert "It costs you 0.250 u against perfect play." in text
    assert "(loss in u against perfect play;" in text

    emit_exact({"game": "pig", "front": [_row(2, "A.", 0.25, mistakes={"at": 7})]},
               [_row(2, "A.", 0.25, mistakes={"at": 7})], {"evaluations": 1, "seconds": 0.0},
               title="T", unit="u", where=lambda m: f" at {m['at']}", out=None, json=False,
               how_often=lambda m: f"{m['at']} times", against="the table")
    text = _words(capsys.readouterr().out)
    assert "size 2: 7 times at 7" in text and "It costs you 0.250 u against the table." in text
    assert "(loss in u against the table;" in text

    a = Scored(_Named(THRESH), 0.0123456, -0.01, 0.03, 40, {"survived": True})
    b = Scored(_Named(BANDED), 0.0, 0.0, 0.0, 40, {"survived": True, "best_found": True})
    res = {"front": [a, b], "all": [a, b], "reference": _Named(BANDED),
           "race": {"unit": "games", "trials_spent": 80, "survivors": 2, "rounds": 1},
           "seconds": 0.5}
    emit_raced({"game": "pig"}, res, "Title", max_loss=None, out=tmp_path, json=False,
               unit="u", more=lambda p: [f"Game {p['game']}."])
    text = _words(capsys.readouterr().out)
    assert "size 2: loss 0.0123, not separated from the best found" in text
    assert "size 2, loss 0.0123 (above)" in text
    assert "Game pig." in text
    assert "Rules written (play one back as the policy rule:FILE): " in text
    assert (tmp_path / "rule_cx2.json").is_file() and (tmp_path / "rule_cx8.json").is_file()
    emit_raced({"game": "pig"}, res, "Title", max_loss=None, out=None, json=False, unit="u",
               digits=2)
    text = _words(capsys.readouterr().out)
    assert "size 2: loss 0.01, not separated" in text and "size 2, loss 0.01 (above)" in text


def test_a_list_may_add_a_clause_that_rests():
    """With a planted cost of 0.0005 for a first clause that acts, the second clause is
    "if s ≤ 0: hold" (act false), then t's clause climbs to 10 as before."""
    from analyzer.advice.search import Searcher

    class Rest(_Loss2):
        def __call__(self, rules):
            out = super().__call__(rules)
            for x in out:
                if x.rule.kind == "list" and x.rule.clauses[0][3]:
                    x.loss = x.lo = x.hi = x.loss + 0.0005
            return out

    s = Searcher([T, S], Rest())
    out = s.lists(s.thresholds(), 2)
    assert [x.rule for x in out] == [
        Rule("list", clauses=(("s", "<=", 0, False), ("t", ">=", 10, False)))]


def test_racing_on_sums_its_defaults_levels_and_stops():
    """The default race looks 64 rounds at level 0.95 and no precision (it goes on while two
    rules are left); a given alpha, one rule and one round (z of 1 look: 1.96), touching
    intervals (both kept), the stop at the precision by the half-width, and one rule left
    going on while its half-width exceeds the precision."""
    from analyzer.advice.race import _bounds, race

    def zeros(idx, rnd):
        asked.append(rnd)
        return [(0.0, 0.0)] * len(idx)

    def one_three(idx, rnd):  # rule 0: differences 0, 0; rule 1: 1, 3 (mean 2, variance 2)
        asked.append(rnd)
        return [(0.0, 0.0) if i == 0 else (4.0, 10.0) for i in idx]

    def nz(cells, level=0.95):
        return NormalDist().inv_cdf(1 - (1 - level) / cells / 2)

    asked = []
    out, cost = race([_Cx(2), _Cx(2)], zeros, 2, max_rounds=3)
    assert asked == [0, 1, 2] and cost["rounds"] == 3 and cost["survivors"] == 2
    assert cost["z"] == pytest.approx(nz(6))
    asked = []
    _o, cost = race([_Cx(2), _Cx(2)], zeros, 2)
    assert len(asked) == 64 and cost["z"] == pytest.approx(nz(128))
    _o, cost = race([_Cx(2)], zeros, 2, max_rounds=1, alpha=0.1)
    assert cost["z"] == pytest.approx(nz(1, 0.9))
    _o, cost = race([_Cx(2)], zeros, 2, max_rounds=1)
    assert cost["z"] == pytest.approx(1.959964, abs=1e-6)
    z = nz(4)  # two rules, two rounds
    for precision, rounds in ((1.5 * z, [0]), (0.8 * z, [0, 1]), (2.2, [0, 1])):
        asked = []
        out, cost = race([_Cx(2), _Cx(2)], one_three, 2, max_rounds=2, precision=precision)
        assert asked == rounds and cost["rounds"] == len(rounds), precision
        # one round: 1, 3 (variance 2, SE 1); two: 1, 3, 1, 3 (variance 4/3, SE 1/√3)
        assert out[1].hi - out[1].lo == pytest.approx(2 * z / (1 if len(rounds) == 1 else
                                                               math.sqrt(3)))
    asked = []
    race([_Cx(2)], lambda idx, rnd: asked.append(rnd) or [(4.0, 10.0)], 2, max_rounds=2,
         precision=0.5)
    assert asked == [0, 1]  # one rule left, half-width 2.24 > 0.5: on to the last round
    assert _bounds([1.0, 1.0], [1.0, 1.0], [1, 1], 2.0) == ([-math.inf] * 2, [math.inf] * 2)
    out, cost = race([_Cx(2), _Cx(2)], lambda idx, rnd: [(1.0, 1.0)] * len(idx), 1,
                     max_rounds=1)
    assert cost["survivors"] == 2 and out[0].lo == -math.inf


def test_the_sentence_and_table_digits_by_default_and_edges():
    from analyzer.advice.cli import plain_fields
    from analyzer.advice.words import front_lines, remember, sentence

    assert sentence("Go to X.") == "go to X"
    near = _row(2, "N.", {"estimate": 0.0123456, "ci_low": -0.01, "ci_high": 0.03},
                survived=True)
    best = _row(5, "B.", {"estimate": 0.0, "ci_low": 0.0, "ci_high": 0.0}, survived=True,
                best_found=True)
    assert remember({"all": [near, best]}, [best], "u", "", exact=False).endswith(
        "it loses 0.0123 u, 95% interval -0.0100 to 0.0300.")
    assert front_lines([near], "u", "", exact=False)[1] == \
        "  size 2: loss 0.0123, not separated from the best found"
    payload = {"all": [near, best]}
    plain_fields(payload, [best], "u", exact=False)
    assert payload["remember"].endswith("it loses 0.0123 u, 95% interval -0.0100 to 0.0300.")
    plain_fields(payload, [best], "u", exact=False, digits=1)
    assert payload["remember"].endswith("it loses 0.0 u, 95% interval -0.0 to 0.0.")
    # an equally complex rule shown worse is not "simpler"
    same = _row(5, "S.", _mc(0.03, 0.01, 0.05), survived=True)
    assert remember({"all": [best, same]}, [best], "u", "", exact=False).endswith(
        "(the best by sample mean). Every other rule left in the race is shown worse.")
    # a --max-loss pick whose interval starts exactly at 0 is "not shown worse"
    edge = _row(2, "E.", _mc(0.01, 0.0, 0.02), survived=True)
    assert remember({"all": [best, edge], "max_loss": 0.05, "simplest_within": edge}, [best],
                    "u", "", exact=False).startswith(
        "Remember: e. It is not shown worse than the best rule found (size 5)")


def test_a_front_rule_lists_five_wrong_cells_by_default():
    from analyzer.advice import record

    t = np.arange(6) * 10 + 5            # 5, 15, …, 55: one wrong decision in each of 6 cells
    front = [Scored(THRESH, 0.1, 0.1, 0.1)]
    record.front_mistakes(front, lambda r, n, s: (np.zeros(6, int), {"t": t}, np.ones(6, bool)),
                          Rule("list", default_act=False), {"t": "T"}, DEC, seed=1, n_games=1,
                          cuts=lambda r, b: {"t": [10, 20, 30, 40, 50]})
    assert len(front[0].extra["mistakes"]["cells"]) == 5


def test_the_indifference_zone_by_hand():
    """Survivors visited simplest first, then best first: rule 1 (mean 1.5) before rule 0
    (mean 1) though listed after it, so rule 0 is the one dropped (its gain −0.5, SD 0). Upper
    bound of a gain g over k blocks: mean + t(z, k − 1)·SD(ddof 1)/√k, z = 2: gains .2, 0,
    .2, 0 give .1 + 3.1736·.11547/2 = .2832 (kept at δ = .27, dropped at δ = .30); over 2
    blocks 0, .2: .1 + 7.5625·.1 = .856 (dropped at δ = 1); a constant gain .5 equals its
    bound (kept at δ = .5: the test is strict)."""
    from analyzer.advice.race import _drop_indifferent

    why = {}
    vals = [np.ones(4), np.full(4, 1.5), np.array([1.2, 1.0, 1.2, 1.0])]
    assert _drop_indifferent([0, 1], vals, [2, 2], 2.0, 0.3, why) == [1] and why == {0: 1}
    pair = [np.ones(4), np.array([1.2, 1.0, 1.2, 1.0])]
    for delta, kept in ((0.27, [0, 1]), (0.30, [0])):
        why = {}
        assert _drop_indifferent([0, 1], pair, [2, 4], 2.0, delta, why) == kept, delta
        assert why == ({} if len(kept) == 2 else {1: 0})
    two = [np.ones(2), np.array([1.0, 1.2])]
    assert _drop_indifferent([0, 1], two, [2, 4], 2.0, 1.0, {}) == [0]
    assert _drop_indifferent([0, 1], two, [2, 4], 2.0, 0.85, {}) == [0, 1]
    flat = [np.ones(4), np.full(4, 1.5)]
    assert _drop_indifferent([0, 1], flat, [2, 4], 2.0, 0.5, {}) == [0, 1]
    assert _drop_indifferent([0, 1], flat, [2, 4], 2.0, 0.5000001, {}) == [0]
    one = [np.ones(1), np.full(1, 1.1)]
    assert _drop_indifferent([0, 1], one, [2, 4], 2.0, 5.0, {}) == [0, 1]  # k = 1: no bound


def test_a_parts_words_carry_the_unit_and_the_top_cells():
    from analyzer.advice import record
    from analyzer.advice.report import exact_part

    rows = [_row(2, "A.", 0.25), _row(4, "B.", 0.125)]
    part = exact_part(rows, "pts", "T", "Intro.", "How.")
    assert "loss (pts)" in part.summary and set(part.files) >= {"advice_front.csv",
                                                                 "advice_front.png"}
    assert [f["text"] for f in part.meta["findings"]] == [
        "The simplest rule of thumb, \u201cA\u201d, gives up 0.2500 pts against optimal play.",
        "The best rule found, \u201cB\u201d, gives up 0.1250 pts."]
    t = np.arange(6) * 10 + 5
    front = [Scored(THRESH, 0.1, 0.1, 0.1)]
    record.front_mistakes(front, lambda r, n, s: (np.zeros(6, int), {"t": t}, np.ones(6, bool)),
                          Rule("list", default_act=False), {"t": "T"}, DEC, seed=1, n_games=1,
                          cuts=lambda r, b: {"t": [10, 20, 30, 40, 50]}, top=2)
    assert len(front[0].extra["mistakes"]["cells"]) == 2


def test_rule_files_through_load_rule_and_the_shape_limits(tmp_path):
    """load_rule checks the game only when asked and names the file in its refusals; a name
    of 100 characters and lists of 16 items pass the shape check (and are then judged as a
    feature or as a rule), 101 characters or 17 items do not."""
    from analyzer.advice.rulefile import load_rule, rule_from_data

    row = _file(tmp_path, {"game": "pig", "rule": THRESH.to_json()}, "row.json")
    assert load_rule(f"rule:{row}", ["t"]) == THRESH
    assert refused(load_rule, f"rule:{row}", ["t"], "ten") == \
        f"rule file '{row}' holds a rule for pig, not ten"
    bad = _file(tmp_path, {**THRESH.to_json(), "feature": "u"}, "bad.json")
    assert refused(load_rule, f"rule:{bad}", ["t"]) == \
        f"rule file '{bad}': unknown feature 'u' (this game's features: t)"
    assert refused(rule_from_data, {**THRESH.to_json(), "feature": "u"}, ["t"], "f.json") == \
        "rule file 'f.json': unknown feature 'u' (this game's features: t)"
    where = "rule file 'f.json'"
    assert refused(rule_from_data, {**THRESH.to_json(), "feature": "x" * 100}, ["t"],
                   "f.json") == f"{where}: unknown feature '{'x' * 100}' (this game's " \
                                f"features: t)"
    bd = BANDED.to_json()
    assert refused(rule_from_data, {**bd, "thresholds": list(range(16))}, ["t", "s"],
                   "f.json") == f"{where}: a banded rule has 2 or 3 thresholds and one cut fewer"
    assert refused(rule_from_data, {**bd, "cuts": list(range(16))}, ["t", "s"], "f.json") == \
        f"{where}: a banded rule has 2 or 3 thresholds and one cut fewer"
    c = {"feature": "t", "op": "<=", "value": 1, "act": True}
    ls = LIST_A.to_json()
    assert refused(rule_from_data, {**ls, "clauses": [c] * 16}, ["t"], "f.json") == \
        f"{where}: a decision list has at most 3 clauses (got 16)"
    assert refused(rule_from_data, {**ls, "clauses": [c] * 17}, ["t"], "f.json") == (
        f"{where}: 'clauses' must be a list of clauses, each with feature, op, value (a "
        f"number) and act (true or false)")


class _Flat(_Loss):
    def __call__(self, rules):
        self.batches.append(list(rules))
        return [Scored(r, 1.0, 1.0, 1.0) for r in rules]


def test_climbing_stops_on_a_plateau_after_60_rounds_and_without_neighbours():
    """Equal neighbours are not a step (the rule found first stays); at most 60 steps by
    default (threshold 0 on a grid of 0..199 losing |v − 150| climbs to 60); a rule with no
    number to move comes back as it was."""
    from analyzer.advice.search import Searcher

    s = Searcher([T, S], _Flat())
    start = s.score([THRESH])[0]
    assert s.climb(start) is start
    long = Feature("t", "w", (0,), fine=tuple(range(200)))

    class Far(_Loss):
        def __call__(self, rules):
            return [Scored(r, abs(r.thresholds[0] - 150), 0, 0) for r in rules]

    s = Searcher([long], Far())
    assert s.climb(s.score([Rule("threshold", "t", "<=", (0,))])[0]).rule.thresholds == (60,)
    assert s.climb(s.score([Rule("threshold", "t", "<=", (0,))])[0], 200).rule.thresholds == \
        (150,)
    empty = Scored(Rule("list"), 0.5, 0.5, 0.5)
    assert Searcher([T], _Flat()).climb(empty) is empty


def test_a_rule_file_too_large_and_a_banded_rules_own_checks(tmp_path):
    """A rule file over 1 MiB says it is not a rule file; a banded rule's acting feature,
    comparison and thresholds are checked like a threshold rule's."""
    from analyzer.advice.rulefile import read_rule_data, rule_from_data

    big = tmp_path / "big.json"
    big.write_text(" " * ((1 << 20) + 1))
    assert refused(read_rule_data, f"rule:{big}") == \
        f"{big} is larger than 1 MiB: not a pushluck rule file"
    where = "rule file 'f.json'"
    bd = BANDED.to_json()
    assert refused(rule_from_data, {**bd, "feature": "u"}, ["t", "s"], "f.json") == \
        f"{where}: unknown feature 'u' (this game's features: s, t)"
    assert refused(rule_from_data, {**bd, "op": "<"}, ["t", "s"], "f.json") == \
        f"{where}: comparison '<' must be '<=' or '>='"
    assert refused(rule_from_data, {**bd, "thresholds": [1, math.inf, 3]}, ["t", "s"],
                   "f.json") == f"{where}: thresholds must be numbers"


def test_policy_races_pass_precision_and_indifference_on():
    """Two candidates, size 2 (blocks 0, .1, 0, .1) and size 8 (.5 each): the larger one gains
    .45 with a small SE. With no indifference zone (the default) both survive two rounds;
    with δ = 1 the size-8 rule cannot be shown to gain 1 and goes; a precision of 10 ends the
    race after the first round."""
    from analyzer.advice.race import race_family, race_policies

    fam = [_Named(THRESH), _Named(BANDED)]

    def values(policy, rnd):
        return [0.5] * 4 if policy.complexity == 8 else [0.0, 0.1, 0.0, 0.1]

    _s, cost, _ref = race_policies(fam, fam, values, 10, 2, 0.0)
    assert (cost["rounds"], cost["survivors"], cost["indifferent"]) == (2, 2, 0)
    _s, cost, _ref = race_policies(fam, fam, values, 10, 2, 0.0, indifference=1.0)
    assert (cost["survivors"], cost["indifferent"]) == (1, 1)
    _s, cost, _ref = race_policies(fam, fam, values, 10, 3, 10.0)
    assert cost["rounds"] == 1
    res = race_family(fam, values, 10, 2, 0.0, "games")
    assert (res["race"]["survivors"], res["race"]["indifferent"]) == (2, 0)
    assert 0 <= res["seconds"] < 60
    res = race_family(fam, values, 10, 2, 0.0, "games", indifference=1.0)
    assert res["race"]["indifferent"] == 1
    assert race_family(fam, values, 10, 3, 10.0, "games")["race"]["rounds"] == 1


def test_two_seat_values_by_hand():
    """Blocks split over the seats (2 by default, at least one block each), each seat's keys
    the round's own, blocks of ``block`` trials as int64 counts, the studied seat's column
    divided by the block: 30/10 and 50/10."""
    from analyzer.advice.race import two_seat_values
    from analyzer.rng import block_keys

    calls = []

    class Job:
        def __init__(self, seat):
            self.seat = seat

        def run_blocks(self, keys, counts):
            calls.append((self.seat, np.array(keys), counts))
            return np.array([[30.0, 50.0]] * len(keys))

    vals, trials = two_seat_values(Job, lambda seat: seat, 7, 1, 4, 10)
    assert vals.tolist() == [3.0, 3.0, 5.0, 5.0] and trials == 40
    assert [c[0] for c in calls] == [0, 1]
    assert np.array_equal(calls[0][1], block_keys(7, 4, 2))
    assert np.array_equal(calls[1][1], block_keys(7, 6, 2))
    assert calls[0][2].tolist() == [10, 10] and calls[0][2].dtype == np.int64
    calls.clear()
    vals, trials = two_seat_values(Job, lambda seat: 0, 7, 0, 1, 10)
    assert vals.tolist() == [3.0, 3.0] and trials == 20   # one block each, not none
    calls.clear()
    vals, trials = two_seat_values(Job, lambda seat: 1, 7, 0, 6, 10, seats=3)
    assert len(calls) == 3 and trials == 60 and vals.tolist() == [5.0] * 6


def test_block_race_levels_and_few_blocks():
    """alpha reaches the Bonferroni level; one rule and one round is one look (z 1.96); two
    blocks give a finite interval (t with 1 degree), one block an infinite one."""
    from analyzer.advice.race import race_blocks, t_quantile

    _o, c = race_blocks([_Cx(2)], lambda i, r: [1.0, 2.0], 10, 1, alpha=0.1)
    assert c["z"] == pytest.approx(NormalDist().inv_cdf(1 - 0.1 / 2))  # 1.645
    _o, c = race_blocks([_Cx(2)], lambda i, r: [1.0, 2.0], 10, 1)
    assert c["z"] == pytest.approx(1.959964, abs=1e-6)
    z = NormalDist().inv_cdf(1 - 0.05 / 2 / 2)
    out, _c = race_blocks([_Cx(2), _Cx(2)], lambda i, r: [1.0, 1.0] if i else [2.0, 3.0], 10,
                          1)
    # rule 1 loses 1, 2 (mean 1.5, SD √.5, SE .5) against rule 0
    assert out[1].loss == 1.5 and out[1].hi == pytest.approx(1.5 + t_quantile(z, 1) * 0.5)
    out, _c = race_blocks([_Cx(2), _Cx(2)], lambda i, r: [1.0] if i else [2.0], 10, 1)
    assert out[1].loss == 1.0 and out[1].hi == math.inf and out[1].lo == -math.inf


def test_a_raced_part_states_its_unit_title_and_reference():
    from analyzer.advice.report import raced_part

    a = Scored(_Named(THRESH), 0.005, -0.0015, 0.0116, 80, {"survived": True, "se": 0.0033})
    b = Scored(_Named(BANDED), 0.0, 0.0, 0.0, 80, {"survived": True, "se": 0.0,
                                                   "best_found": True})
    res = {"front": [a, b], "race": {"unit": "games", "trials_spent": 80, "survivors": 2,
                                     "rounds": 1, "candidates": 2}}
    part = raced_part(res, "pts", "Title", "Intro.")
    assert "![Title: loss against complexity, 95% intervals](advice_front.svg)" in part.summary
    assert "loss (pts), 95% interval" in part.summary
    assert part.meta["findings"][0]["text"] == (
        "No loss detected for the simplest rule of thumb, \u201cW2\u201d, against the best "
        "rule: 0.005 [-0.002, 0.012] pts (n = 80).")
    assert raced_part(res, "pts", "T", "I", against="x").meta["findings"][0]["text"].startswith(
        "No loss detected for the simplest rule of thumb, \u201cW2\u201d, against x:")


def test_band_words_holding_while():
    """Only the first " while" (the rule's own) gets the first band in brackets."""
    g = Feature("g", "turns while ahead", (0, 5))
    r = Rule("banded", "t", "<=", (20, 25), "g", (5,))
    assert r.words({"t": T, "g": g}, DEC) == (
        "Roll (when turns while ahead is below 5) while your turn total is at most 20 points; "
        "when turns while ahead is at least 5: at most 25; otherwise hold.")


def test_a_raced_runs_json_sentence_takes_the_commands_digits(capsys):
    """--json: the sentence to remember shows a loss without an SE to the command's digits."""
    from analyzer.advice.cli import emit_raced

    a = Scored(_Named(THRESH), 0.0123456, -0.01, 0.03, 40, {"survived": True})
    b = Scored(_Named(BANDED), 0.0, 0.0, 0.0, 40, {"survived": True, "best_found": True})
    res = {"front": [a, b], "all": [a, b], "reference": _Named(BANDED),
           "race": {"unit": "games", "trials_spent": 80, "survivors": 2, "rounds": 1},
           "seconds": 0.5}
    emit_raced({"game": "pig"}, res, "T", max_loss=None, out=None, json=True, unit="u",
               digits=2)
    assert json.loads(capsys.readouterr().out)["remember"] == (
        "Remember: w2. It is not shown worse than the best rule found (size 8): it loses 0.01 "
        "u, 95% interval -0.01 to 0.03.")


def _t_cf(z, nu):  # the Cornish–Fisher expansion race.py states, written out again
    return z + (z ** 3 + z) / (4 * nu) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * nu * nu)


def test_the_equal_guarantee_grid_is_the_fewest_blocks_by_search():
    """n = min {n ≥ 2 : t(z_g, n − 1)/√n ≤ t(z_race, k − 1)/√k}, found here by trying every n;
    the grid's time is its blocks at the race's seconds per block."""
    from analyzer.advice.race import equal_guarantee_grid

    for m, tests, z_race, k in ((3, 1, 3.2, 50), (40, 2, 4.1, 37), (7, 1, 2.9, 9)):
        z_g = NormalDist().inv_cdf(1 - 0.05 / (tests * m) / 2)
        target = _t_cf(z_race, k - 1) / math.sqrt(k)
        n = next(n for n in range(2, 10**6) if _t_cf(z_g, n - 1) / math.sqrt(n) <= target)
        g = equal_guarantee_grid(m, tests, z_race, k, 10, seconds_per_block=0.5)
        assert (g["blocks_per_rule"], g["blocks"], g["trials"]) == (n, m * n, m * n * 10), k
        assert g["seconds"] == pytest.approx(m * n * 0.5) and g["tests"] == tests * m


def test_an_interrupt_in_a_later_round_keeps_the_finished_rounds():
    """Ctrl-C while round 2 is played: the race ends on round 1's blocks, says it was
    interrupted and marks the command so; the grid's time is at the race's own pace."""
    from analyzer.advice.race import race_blocks
    from analyzer.errors import reset_interrupted, was_interrupted

    def values(i, rnd):
        if rnd == 1:
            raise KeyboardInterrupt
        return [1.0, 1.0] if i == 0 else [0.0, 0.5]

    try:
        out, cost = race_blocks([_Cx(2), _Cx(2)], values, 10, 3)
        assert was_interrupted()
    except KeyboardInterrupt:  # (not re-raised: pytest would read it as its own Ctrl-C)
        pytest.fail("the interrupt of round 2 escaped the race")
    finally:
        reset_interrupted()
    assert cost["interrupted"] is True and cost["rounds"] == 1
    assert cost["alive_per_round"] == [2] and [s.n for s in out] == [20, 20]
    assert cost["grid"]["seconds"] == pytest.approx(
        cost["grid"]["blocks"] * cost["seconds"] / cost["blocks_spent"])


def test_the_front_charts_words_and_a_no_loss_finding_without_n():
    """The chart names its axes and title (matplotlib writes each text into the SVG as a
    comment); "no loss detected" keeps its priority and has no "(n = …)" without an n."""
    import re

    from analyzer.advice.report import front_files, front_findings

    files, _md = front_files([_row(2, "A.", 0.25), _row(4, "B.", 0.125)], "u", "My title")
    texts = re.findall(r"<!-- (.*?) -->", files["advice_front.svg"].decode())
    assert {"complexity (numbers and conditions to remember)", "loss against the best (u)",
            "My title"} <= set(texts)
    tie = _row(2, "T.", {"estimate": 0.005, "ci_low": -0.0015, "ci_high": 0.0116,
                         "se": 0.0033})
    assert [f.to_json() for f in front_findings([tie], "u", "x", priority=2)] == [
        {"text": "No loss detected for the simplest rule of thumb, \u201cT\u201d, against x: "
                 "0.005 [-0.002, 0.012] u.", "priority": 2}]


def test_the_front_table_for_people_row_by_row():
    """The Markdown table: the rule's words, its size, the loss (exact to 4 decimals; a Monte
    Carlo loss with its interval to the SE's digits, 0.0033 → 3) and, for a race, the
    verdict."""
    from analyzer.advice.report import front_files

    _f, md = front_files([_row(2, "A.", 0.25)], "u", "T")
    assert md.split("\n")[:3] == ["| rule of thumb | numbers to remember | loss (u) |",
                                  "|---|---|---|", "| A. | 2 | 0.2500 |"]
    rows = [_row(2, "A.", _mc(0.02, 0.0136, 0.0266, se=0.0033, n=80), best_found=False),
            _row(5, "B.", _mc(0.0, 0.0, 0.0, se=0.0, n=80), best_found=True)]
    lines = front_files(rows, "u", "T")[1].split("\n")
    i = lines.index("| rule of thumb | numbers to remember | loss (u), 95% interval | verdict |")
    assert lines[i + 2] == "| A. | 2 | 0.020 [0.014, 0.027] | shown worse than the best found |"
    assert lines[i + 3].startswith("| B. | 5 | ") and lines[i + 3].endswith(" | best found |")


def test_where_wrong_lists_five_cells_by_default():
    from analyzer.advice.mistakes import where_wrong

    t = np.arange(6) * 10 + 5             # one wrong decision in each of 6 cells
    out = where_wrong(1, np.zeros(6, int), {"t": t}, np.ones(6, bool), np.zeros(6, bool),
                      {"t": [10, 20, 30, 40, 50]}, {}, DEC, seed=1)
    assert len(out["cells"]) == 5


def test_the_reference_finding_keeps_its_priority():
    from analyzer.advice.report import front_findings

    assert [f.to_json() for f in front_findings([_row(2, "R.", 0.0)], "u", "x", priority=2)] \
        == [{"text": "The best rule is also the simplest: \u201cR\u201d.", "priority": 2}]
