"""Railroad Canasta advice: where a raced rule pair goes wrong, recorded by the engine
(kernels/canasta/record.py, analyzer/games/canasta/advice.py::record and ::pair_mistakes)."""
import json

import numpy as np
import pytest

from analyzer.advice import Rule, Scored
from analyzer.games.canasta import advice as A
from analyzer.games.canasta.rules import CanastaRules

RULES = CanastaRules()
PILE5 = Rule("threshold", "pile", ">=", (5,))            # take while the pile holds 5 or more
CAN7 = Rule("threshold", "canastas", ">=", (7,))         # go out with 7 canastas or more
PAIRS = [  # between them every feature the tables read
    A.RulePair(Rule("banded", "pile", ">=", (3, 8), "stock", (30,)),
               Rule("list", clauses=(("stock", "<=", 20, True), ("canastas", ">=", 5, True)),
                    default_act=False)),
    A.RulePair(Rule("threshold", "hand", "<=", (6,)),
               Rule("banded", "canastas", ">=", (7, 5), "opp_canastas", (5,))),
    A.RulePair(A.NEVER, Rule("list", clauses=(("opp_hand", "<=", 4, True),
                                              ("lead", ">=", 0, True)), default_act=False)),
]
N, SEED = 120, 11


@pytest.fixture(scope="module")
def recorded():
    return [A.record(RULES, pair, N, SEED) for pair in PAIRS]


def test_recording_plays_the_plain_engines_games(recorded):
    """Block sums (wins per seat, rounds, canastas, …, rule violations) equal the plain
    engine's on the same keys, the studied pair in seat 0 in even blocks, seat 1 in odd ones."""
    from analyzer.advice.record import record_keys
    from analyzer.games.canasta.play import CanastaPolicy, make_job
    from kernels.canasta import MODE_GAMES

    keys, counts = record_keys(SEED, N, A.BLOCK)
    for pair, rec in zip(PAIRS, recorded):
        assert rec["sums"][:, 0].sum() == N
        for seat in range(2):
            line = [CanastaPolicy("greedy")] * RULES.players
            line[seat] = pair.policy()
            plain = make_job(MODE_GAMES, RULES, line).run_blocks(keys[seat::2], counts[seat::2])
            np.testing.assert_array_equal(rec["sums"][seat::2], plain)


def test_recorded_choices_are_the_rule_on_the_recorded_features(recorded):
    for pair, rec in zip(PAIRS, recorded):
        game, kind = rec["game"], rec["decision"]
        assert game.min() >= 0 and game.max() < N and np.all(np.diff(game) >= 0)
        for k, rule in ((0, pair.take), (1, pair.go)):
            at = kind == k
            assert at.sum() > 50  # both decisions are met often
            X = {f: v[at] for f, v in rec["X"].items()}
            np.testing.assert_array_equal(np.asarray(rule.acts(X), dtype=bool), rec["act"][at])
        # the pile is taken whatever the rule says once the stock is empty: not a decision
        assert np.all(rec["X"]["stock"][kind == 0] > 0)
        assert np.all(rec["X"]["pile"][kind == 0] > 0)


def test_the_reference_is_never_wrong_and_another_pair_is_wrong_where_they_differ():
    ref = A.RulePair(PILE5, A.ALWAYS)
    other = A.RulePair(A.ALWAYS, CAN7)
    front = [Scored(ref, 0.0, 0.0, 0.0, 0), Scored(other, 0.1, 0.05, 0.15, 0)]
    n = 200
    A.pair_mistakes(front, ref, RULES, SEED, n)
    for m, label in zip(front[0].extra["mistakes"], ("take the pile", "go out")):
        w = m["wrong_per_game"]
        assert m["decision"] == label and m["cells"] == []
        assert w["estimate"] == 0.0 and w["exact_value"] == 0.0 and w["ci_high"] == 0.0
    take, go = front[1].extra["mistakes"]
    rec = A.record(RULES, other, n, SEED)
    t, g = rec["decision"] == 0, rec["decision"] == 1
    # take whenever allowed vs take at 5 or more: wrong exactly where the pile holds 1 to 4
    assert take["wrong_per_game"]["estimate"] * n == pytest.approx(
        np.sum(rec["X"]["pile"][t] <= 4))
    assert take["wrong_per_game"]["estimate"] > 0
    for c in take["cells"]:
        assert set(c["features"]) == {"pile"} and c["where"].startswith("pile ")
        assert 1 <= c["features"]["pile"][0] <= c["features"]["pile"][1] <= 4
        assert (c["rule"], c["best"]) == ("take the pile", "draw from the stock")
    # go out at 7 canastas vs as soon as allowed: wrong where fewer than 7 are done
    assert go["wrong_per_game"]["estimate"] * n == pytest.approx(
        np.sum(rec["X"]["canastas"][g] <= 6))
    assert go["wrong_per_game"]["estimate"] > 0
    for c in go["cells"]:
        assert set(c["features"]) == {"canastas"} and c["where"].startswith("your canastas ")
        assert c["features"]["canastas"][1] <= 6
        assert (c["rule"], c["best"]) == ("keep playing", "go out")


def _run(args, capsys):
    from analyzer.cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(args)
    cap = capsys.readouterr()
    return exc.value.code, cap.out, cap.err


def test_advice_json_carries_where_each_front_pair_goes_wrong(capsys, monkeypatch):
    small = [A.RulePair(A.ALWAYS, A.ALWAYS), A.RulePair(PILE5, A.ALWAYS),
             A.RulePair(PILE5, CAN7)]
    monkeypatch.setattr(A, "family", lambda: small)  # a small race: three pairs
    args = ["canasta", "advice", "--seed", "5", "--rounds", "2", "--record-games", "40"]
    code, out, err = _run(args + ["--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["front"]
    stat = {"estimate", "se", "ci_low", "ci_high", "n"}
    for row in d["front"]:
        parts = row["mistakes"]
        assert [m["decision"] for m in parts] == ["take the pile", "go out"]
        for m in parts:
            assert m["games"] == 40 and m["seed"] == 5
            for key in ("wrong_per_game", "decisions_per_game", "share_wrong"):
                assert stat <= set(m[key]) and m[key]["n"] == 40
            for c in m["cells"]:
                assert stat <= set(c["wrong_per_game"])
    code, text, err = _run(args, capsys)
    assert code == 0, err
    assert "    take the pile:" in text and "    go out:" in text
    assert "(40 games, seed 5)" in text or "no wrong decisions" in text
    code, out, _ = _run(args[:-2] + ["--record-games", "0", "--json"], capsys)
    assert code == 0 and all("mistakes" not in r for r in json.loads(out)["front"])
    code, out, err = _run(args[:-2] + ["--record-games", "-1"], capsys)
    assert code == 2 and out == "" and err.strip().count("\n") == 0


def test_recording_in_chunks_numbers_the_games_of_the_whole_run(recorded, monkeypatch):
    monkeypatch.setattr(A, "CHUNK", 3)       # several kernel calls of 3 blocks
    monkeypatch.setattr(A, "ROOM_PER_GAME", 4)  # too little room: blocks are replayed
    again = A.record(RULES, PAIRS[0], N, SEED)
    for key in ("game", "decision", "act", "sums"):
        np.testing.assert_array_equal(again[key], recorded[0][key])
    for f, v in recorded[0]["X"].items():
        np.testing.assert_array_equal(again["X"][f], v)
