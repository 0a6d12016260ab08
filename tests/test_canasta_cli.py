"""`pushluck canasta …` commands: JSON contract, text output, one-line errors with exit 2."""
import json
from pathlib import Path

import pytest

from analyzer.cli.main import main

DATA = Path(__file__).resolve().parents[1] / "analyzer" / "data"


def run(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    cap = capsys.readouterr()
    return exc.value.code, cap.out, cap.err


def run_json(capsys, *argv):
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_score_example_file(capsys):
    out = run_json(capsys, "canasta", "score", str(DATA / "canasta_score_example.toml"))
    # 100 out + 460 melded cards + 500 + 300 + 1000 + 1500 + 2 red threes (200) = 4060
    assert out["round_score"] == 4060
    assert out["breakdown"]["canastas"] == {"red": 1, "black": 1, "wild": 1, "sevens": 1}
    code, text, _ = run(capsys, "canasta", "score", str(DATA / "canasta_score_example.toml"))
    assert code == 0 and "ROUND SCORE" in text and "4060" in text


def test_score_bad_input(capsys, tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text('hand = ["KS", "XQ"]\n')
    code, out, err = run(capsys, "canasta", "score", str(f))
    assert code == 2 and out == "" and err.count("\n") == 1 and "XQ" in err
    code, _, err = run(capsys, "canasta", "score", str(tmp_path / "missing.toml"))
    assert code == 2 and err.count("\n") == 1


def test_check(capsys):
    out = run_json(capsys, "canasta", "check", "--score", "5000", "KS,KH,KD", "AS,AH,2C")
    assert out["legal"] and out["value"] == 90 and out["requirement"] == 90
    assert out["meets_requirement"]
    out = run_json(capsys, "canasta", "check", "7S,7H,7D,2C")
    assert not out["legal"] and "sevens" in out["melds"][0]["reason"]
    code, _, err = run(capsys, "canasta", "check", "QS,QH,ZZ")
    assert code == 2 and err.count("\n") == 1 and "ZZ" in err


def test_rules_listing(capsys):
    out = run_json(capsys, "canasta", "rules")
    keys = {r["key"] for r in out["rules"]}
    assert {"players", "red3_replace", "wilds_in_sevens", "requirement_values"} <= keys
    code, _, err = run(capsys, "canasta", "meld-odds", "--score", "0", "--set", "bogus=1")
    assert code == 2 and "bogus" in err and err.count("\n") == 1


def test_meld_odds_json(capsys):
    out = run_json(capsys, "canasta", "meld-odds", "--score", "-10", "--within-turns", "2", "-n",
                   "500", "--seed", "3")
    assert out["seed"] == 3 and out["requirement"] == 15
    d = out["p_requirement_on_deal"]
    assert {"estimate", "se", "ci_low", "ci_high", "n", "exact_value"} <= set(d)
    assert len(out["by_turn"]) == 2


def test_simulate_json_and_chart(capsys, tmp_path):
    out = run_json(capsys, "canasta", "simulate", "-n", "20", "--seed", "4",
                   "--seats", "greedy,builder:10:20", "--out", str(tmp_path), "--chart")
    assert out["n"] == 20 and out["policies"] == ["greedy", "builder:10:20"]
    assert out["rounds_per_game"]["estimate"] >= 1
    assert sum(s["p_win"]["estimate"] for s in out["seats"]) == pytest.approx(1.0)
    assert (tmp_path / "simulate.png").exists() and (tmp_path / "simulate.svg").exists()
    code, _, err = run(capsys, "canasta", "simulate", "-n", "5", "--seats", "x")
    assert code == 2 and err.count("\n") == 1
    code, _, err = run(capsys, "canasta", "simulate", "-n", "5", "--chart")
    assert code == 2 and "--out" in err and err.count("\n") == 1


def test_decide_json(capsys, tmp_path):
    out = run_json(capsys, "canasta", "decide", str(DATA / "canasta_position_example.toml"),
                   "-n", "200", "--seed", "8")
    assert out["options"] == ["take the pile", "draw two"]
    d = out["difference_a_minus_b"]
    assert d["n"] == 200
    assert out["recommendation"] in ("take the pile", "draw two") or \
        out["recommendation"].startswith("too close to call")
    # a position whose card counts do not add up
    text = (DATA / "canasta_position_example.toml").read_text().replace("stock = 148",
                                                                         "stock = 100")
    f = tmp_path / "bad.toml"
    f.write_text(text)
    code, _, err = run(capsys, "canasta", "decide", str(f), "-n", "10", "--seed", "1")
    assert code == 2 and "add up" in err and err.count("\n") == 1
    # going out is impossible here
    f.write_text((DATA / "canasta_position_example.toml").read_text().replace(
        'phase = "draw"', 'phase = "meld"'))
    code, _, err = run(capsys, "canasta", "decide", str(f), "-n", "10", "--seed", "1")
    assert code == 2 and "not allowed" in err


def test_report_parts_and_tune_metrics_are_registered():
    from analyzer.report import part_kind
    from analyzer.tune import metrics_of

    res = part_kind("canasta.meld-odds").compute({"scores": [0], "within_turns": 1, "n": 300}, {}, 3)
    assert {"meld_odds.csv", "meld_odds.md"} <= set(res.files)
    assert "67.81%" in res.summary  # the exact chance on the deal at requirement 50
    names = {m.name for m in metrics_of("canasta")}
    assert {"round_turns", "p_going_out", "points_per_player"} <= names


def test_position_consistency_errors():
    import tomllib

    from analyzer.errors import UserError
    from analyzer.games.canasta.decide import parse_position
    from analyzer.games.canasta.rules import CanastaRules

    base = (DATA / "canasta_position_example.toml").read_text()
    r = CanastaRules()
    assert parse_position(tomllib.loads(base), r)["unseen"] == 181
    bad = {
        "kitty was already": base.replace('melds = [["QS", "QH", "QD", "QC", "2C"]]',
                                          'melds = [["QS", "QH", "QD", "QC", "QS", "QH", "QD"]]'),
        "picked up only after": base.replace('red_threes = 1\nkitty = "unpicked"',
                                             'red_threes = 1\nkitty = "picked"'),
        "stock is empty": base.replace("stock = 148", "stock = 0"),
        "players": base + '\n[[opponents]]\nhand_size = 5\n',
        "hand_size": base.replace("hand_size = 11", "hand = [\"KS\"]"),
    }
    for needle, text in bad.items():
        with pytest.raises(UserError, match=needle):
            parse_position(tomllib.loads(text), r)


def test_decide_go_out_example(capsys):
    out = run_json(capsys, "canasta", "decide",
                   str(DATA / "canasta_position_goout_example.toml"), "-n", "300", "--seed", "2",
                   "--objective", "lead")
    # going out now: 100 + melds (70 + 120 + 140 + 35 + A-A-A-A 80 + K-K-K 30 = 475)
    # + 3300 canasta bonuses + 100 for the red three = 3975, the same in every playout
    assert out["round_score_a"]["estimate"] == 3975 and out["round_score_a"]["se"] == 0
    assert out["objective"] == "lead"
    assert out["recommendation"] == out["recommendation_by_lead"]


def test_the_policy_family_is_declared_as_documented():
    """`_policies` and `_plain` run once at import (so mutation testing saw no test of them):
    called here directly. Two policies, `builder`'s two knobs by position with their defaults
    and bounds, and plain line-ups without rule files."""
    from analyzer.errors import UserError
    from analyzer.games.canasta import play as P

    F = P._policies()
    assert (F.game, F.what, F.rule) == ("canasta", "policy", True)
    assert {n: (b.help, b.knobs, b.positional, b.defaults) for n, b in F.bots.items()} == {
        "greedy": ("goes out as soon as allowed", (), (), {}),
        "builder": ("goes out only with K canastas, or when the stock has at most F cards", (),
                    ("canastas", "stock"), {})}
    assert {n: (k.kind, k.default, k.help, k.low, k.high) for n, k in F.knobs.items()} == {
        "canastas": ("int", 10, "go out with at least this many canastas", 4, 100),
        "stock": ("int", 20, "or once the stock holds at most this many cards", 0, 1000)}
    R = P._plain()
    assert R.family.rule is False and R.family.what == "policy"
    assert R.one("builder") == P.CanastaPolicy("builder", go_min=10, floor=20)
    assert R.one("builder:4:0") == P.CanastaPolicy("builder", go_min=4, floor=0)
    assert R.seats("greedy,builder:100:1000", 2) == [
        P.CanastaPolicy("greedy"), P.CanastaPolicy("builder", go_min=100, floor=1000)]
    for bad in ("builder:3", "builder:101", "builder:10:-1", "builder:10:1001", "lucky"):
        with pytest.raises(UserError):
            R.one(bad)
