"""A rule from `advice` played back as a policy (`rule:FILE.json`): the Monte Carlo value of the
compiled table agrees with the rule's exact value from the advice evaluator (within 5 SE), and a
bad rule file is one line on stderr with exit code 2."""
import json

import pytest

from analyzer.advice import Rule

PIG_RULE = Rule("list", clauses=(("opp", ">=", 70, True), ("turn", ">=", 24, False)),
                default_act=True)
TP_RULE = Rule("banded", "tokens", "<=", (2, 3), "blammo", (1,))
TEN_RULE = Rule("banded", "bust", "<=", (60, 30, 20), "cards", (2, 4))


def _write(tmp_path, name, data):
    p = tmp_path / name
    p.write_text(json.dumps(data))
    return str(p)


def test_pig_rule_file_plays_its_exact_value(tmp_path):
    from analyzer.games.pig.advice import PigEvaluator
    from analyzer.games.pig.play import simulate
    from analyzer.games.pig.lineup import parse_policy_pair
    from analyzer.games.pig.rules import PigRules
    from analyzer.runner import RunSpec

    exact = PigEvaluator()([PIG_RULE])[0].extra["p_win_first"]
    f = _write(tmp_path, "r.json", {"game": "pig", "rule": PIG_RULE.to_json()})
    res = simulate(parse_policy_pair(f"rule:{f},optimal"), PigRules(), RunSpec(400_000, 5))
    w = res["p_first_player_wins"]
    assert abs(w.estimate - exact) <= 5 * w.se
    assert abs(w.exact_value - exact) < 1e-12  # the printed exact value is the evaluator's


def test_trash_pandas_rule_file_plays_its_exact_value(tmp_path):
    from analyzer.games.trash_pandas.advice import TurnEvaluator
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.play import simulate
    from analyzer.games.trash_pandas.lineup import parse_policy
    from analyzer.games.trash_pandas.rules import TrashPandasRules, ValueModel
    from analyzer.runner import RunSpec

    cards = (1, 1, 0)
    exact = TurnEvaluator(TurnSolver(ValueModel(), TrashPandasRules()), cards).value(TP_RULE)
    f = _write(tmp_path, "r.json", TP_RULE.to_json())
    res = simulate(parse_policy(f"rule:{f}"), ValueModel(), TrashPandasRules(), cards,
                   RunSpec(400_000, 9))
    v = res["mean_value"]
    assert abs(v.estimate - exact) <= 5 * v.se


def test_ten_rule_file_plays_its_exact_value(tmp_path):
    from analyzer.games.ten.advice import TenEvaluator
    from analyzer.games.ten.exact import Model, parse_policy
    from analyzer.games.ten.play import simulate
    from analyzer.games.ten.rules import TenRules, ValueModel, load_deck, turn_state
    from analyzer.runner import RunSpec

    r = TenRules()
    model = Model(turn_state(r, load_deck(None), None, None, 4), r, ValueModel(), 4, 0)
    exact = TenEvaluator(model)([TEN_RULE])[0].extra["value"]
    f = _write(tmp_path, "r.json", {"words": "…", "rule": TEN_RULE.to_json()})
    res = simulate(model, parse_policy(f"rule:{f}"), [parse_policy("total:7")],
                   RunSpec(400_000, 13))
    v = res["a"]["mean_value"]
    assert abs(v.exact_value - exact) < 1e-12
    assert abs(v.estimate - exact) <= 5 * v.se


@pytest.mark.parametrize("content, says", [
    ("not json", "is not JSON"),
    ('{"kind": "threshold", "feature": "tokens", "op": "<=", "threshold": 2}', "unknown feature"),
    ('{"kind": "threshold", "feature": "turn", "op": "<", "threshold": 2}', "comparison"),
    ('{"kind": "threshold", "feature": "turn"}', "malformed threshold rule"),
    ('{"kind": "banded", "feature": "turn", "op": "<=", "thresholds": [1, 2], '
     '"band_feature": "opp", "cuts": []}', "one cut fewer"),
    ('{"kind": "circle"}', "expected a rule object"),
    ('{"game": "ten", "rule": {"kind": "threshold", "feature": "turn", "op": "<=", '
     '"threshold": 2}}', "for ten, not pig"),
])
def test_a_bad_rule_file_is_one_line_and_exit_2(cli, tmp_path, content, says):
    f = tmp_path / "bad.json"
    f.write_text(content)
    code, out, err = cli("pig", "simulate", "--seats", f"rule:{f},optimal", "-n", "1000",
                         "--seed", "1")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and says in err


def test_a_missing_rule_file_is_one_line_and_exit_2(cli, tmp_path):
    code, out, err = cli("trash-pandas", "simulate", "--policy", f"rule:{tmp_path}/none.json")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_ten_refuses_a_rule_beside_optimal(cli, tmp_path):
    f = _write(tmp_path, "r.json", TEN_RULE.to_json())
    code, out, err = cli("ten", "simulate", "--policy", f"rule:{f}", "--vs", "optimal",
                         "-n", "1000", "--seed", "1")
    assert code == 2 and out == "" and "one table" in err


def test_advice_out_writes_rules_that_play_back(cli, tmp_path):
    got = cli("trash-pandas", "advice", "--bands", "1", "--clauses", "1", "--out",
              str(tmp_path), "--json", check_json=True)
    assert got["written"] and all(p.startswith(str(tmp_path)) for p in got["written"])
    saved = json.loads(open(got["written"][0]).read())
    assert saved["rule"] == got["front"][0]["rule"]
    sim = cli("trash-pandas", "simulate", "--policy", f"rule:{got['written'][0]}", "-n",
              "200000", "--seed", "3", "--json", check_json=True)
    v = sim["mean_value"]
    assert abs(v["estimate"] - (got["v_optimal"] - got["front"][0]["loss"])) <= 5 * v["se"]
