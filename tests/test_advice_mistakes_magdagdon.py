"""MAGDAGDON advice: where a raced power rule goes wrong, recorded by the twin engine
(kernels/magdagdon/record.py, analyzer/games/magdagdon/advice.py::record)."""
import numpy as np
import pytest

from analyzer.games.magdagdon import advice as A
from analyzer.games.magdagdon.lineup import parse_policy
from analyzer.games.magdagdon.rules import MagdagdonRules, difficulty
from kernels.magdagdon.record import K_SPEND, K_WHICH

RULES = MagdagdonRules()
PEACEFUL = difficulty(RULES, "peaceful")
GREEDY = parse_policy("greedy")
BOUNDED = A.PowerRule(20, 3, 0, 1)        # ±1 only, next penalty ≤ 20, at least 3 empty cells
OTHERS = (A.PowerRule(A.NEVER), A.PowerRule(None, 0, 6, 2), A.PowerRule(10, 0, 0, 0))


def _record(rule, n=600, seed=7):
    return A.record(RULES, PEACEFUL, GREEDY, rule, n, seed)


def _X(rec, kind):
    m = rec["kind"] == kind
    return {f: rec[f][m] for f in ("cost", "empty", "fix")}, rec["choice"][m] == 1, m


@pytest.fixture(scope="module")
def recorded():
    return _record(BOUNDED)


@pytest.mark.parametrize("rule", (BOUNDED,) + OTHERS)
def test_recording_plays_the_plain_engines_games(rule):
    """On the same keys the twin's games are the plain engine's: per block, the sums and
    sums of squares of score, turns, MAGDAGDON rolls, ruins and powers used agree exactly."""
    from analyzer.advice.record import record_keys
    from analyzer.games.magdagdon.play import score_range
    from kernels.magdagdon import games_blocks

    n = 600 if rule == BOUNDED else 200
    rec = _record(rule, n)
    keys, counts = record_keys(7, n, A.BLOCK)
    G = A.kernel_inputs_for(RULES, PEACEFUL, rule)
    lo, hi = score_range(RULES, PEACEFUL)
    rows = np.asarray(games_blocks(keys, counts, GREEDY.mode, GREEDY.k, GREEDY.mode, GREEDY.k,
                                   False, np.zeros(16, np.int8), G, G, lo, hi - lo + 1))
    g = rec["games"]
    block = np.arange(n) // A.BLOCK
    for j in range(5):
        assert np.array_equal(np.bincount(block, weights=g[:, j]), rows[:, 2 * j])
        assert np.array_equal(np.bincount(block, weights=g[:, j] ** 2), rows[:, 2 * j + 1])


def test_recorded_choices_are_the_rule_on_the_recorded_features(recorded):
    """At each recorded MAGDAGDON the engine spent exactly where the rule says so on the
    recorded (cost, empty, fix); each spend was a power used; the power it used is the
    rule's form; the features are the game's."""
    X, spent, m = _X(recorded, K_SPEND)
    assert m.sum() > 500 and spent.any() and (~spent).any()
    assert np.array_equal(spent, A.spends(BOUNDED, X))
    # every rule: its decisions follow the recorded features, its which-records its form
    for rule in OTHERS:
        rec = _record(rule, 200)
        Xo, so, _ = _X(rec, K_SPEND)
        assert np.array_equal(so, A.spends(rule, Xo))
        _, used_fix, _ = _X(rec, K_WHICH)
        assert np.all(used_fix == A.uses_fix(rule))
    # the powers the engine used are the recorded spends, game by game
    used = np.bincount(recorded["game"][m][spent], minlength=600)
    assert np.array_equal(used, recorded["games"][:, 4])
    # the features: the difficulty's penalties (next one after the spends so far), the
    # empty cells of a 4×4 board, a ±1 rescue wherever a ±1 was used
    assert set(np.unique(X["cost"])) <= set(PEACEFUL.costs)
    nth = np.array([np.sum(spent[:k][recorded["game"][m][:k] == gm])
                    for k, gm in enumerate(recorded["game"][m])])
    assert np.array_equal(X["cost"], np.asarray(PEACEFUL.costs)[nth])
    assert X["empty"].min() >= 1 and X["empty"].max() <= 16
    assert np.all(np.diff(recorded["game"]) >= 0)
    Xw, used_fix, _ = _X(recorded, K_WHICH)
    assert len(used_fix) > 50 and used_fix.all() and Xw["fix"].min() >= 1


def test_cuts_are_the_bounds_of_both_rules():
    assert A.record_cuts(BOUNDED, A.PowerRule(None, 0, 6, 2)) == {
        "cost": [20.5], "empty": [2.5, 6.5], "fix": [0.5]}
    assert A.record_cuts(A.PowerRule(A.NEVER), A.PowerRule(None)) == {}


def _front(*rules):
    from analyzer.advice.search import Scored

    return [Scored(r, 0.0, 0.0, 0.0, 1, {}) for r in rules]


def test_the_reference_is_never_wrong_and_other_rules_are_wrong_where_they_differ():
    from analyzer.advice.mistakes import where_wrong

    ref = A.PowerRule(20, 0, 0, 0)
    cheap, reroll, fix_only = A.PowerRule(10), A.PowerRule(20, 0, 0, 2), A.PowerRule(20, 0, 0, 1)
    front = _front(ref, cheap, reroll, fix_only)
    A.front_mistakes(front, ref, RULES, PEACEFUL, GREEDY, 7, 600)
    m = {s.rule: {x["decision"]: x for x in s.extra["mistakes"]} for s in front}
    for x in m[ref].values():
        assert x["wrong_per_game"]["estimate"] == 0.0 and x["cells"] == []
    # the reference's own record, compared as another rule's would be: 0 wrong, exactly
    rec = _record(ref)
    X, spent, _ = _X(rec, K_SPEND)
    same = where_wrong(600, rec["game"][rec["kind"] == K_SPEND], X, spent, A.spends(ref, X),
                       A.record_cuts(ref, ref), A.RECORD_WORDS, A.DECISION, seed=7)
    assert same["wrong_per_game"]["estimate"] == 0.0 and same["cells"] == []
    # stops at the second power (penalty 20) where the reference spends it
    w = m[cheap][A.SPEND_LABEL]
    assert w["wrong_per_game"]["ci_low"] > 0 and w["wrong_per_game"]["n"] == 600
    assert [c["features"] for c in w["cells"]] == [{"cost": [20, 20]}]
    assert w["cells"][0]["rule"] == "accept the ruin" and w["cells"][0]["best"] == "spend a power"
    assert m[cheap][A.WHICH_LABEL]["wrong_per_game"]["estimate"] == 0.0
    # rerolls where the reference uses a rescuing ±1: only the "which" decision is wrong
    assert m[reroll][A.SPEND_LABEL]["wrong_per_game"]["estimate"] == 0.0
    wh = m[reroll][A.WHICH_LABEL]
    assert wh["wrong_per_game"]["ci_low"] > 0 and wh["cells"][0]["rule"] == "reroll"
    # ±1 only accepts the ruin where no ±1 rescues the roll: the cells name fix 0
    f = m[fix_only][A.SPEND_LABEL]
    assert f["wrong_per_game"]["ci_low"] > 0
    assert all(c["features"]["fix"] == [0, 0] and c["rule"] == "accept the ruin"
               for c in f["cells"])
    assert {"estimate", "se", "ci_low", "ci_high", "n"} <= set(f["cells"][0]["wrong_per_game"])


def test_advice_json_and_text_carry_where_each_front_rule_goes_wrong(cli):
    args = ("magdagdon", "advice", "-d", "survival", "--rounds", "2", "--precision", "100",
            "--seed", "3", "--record-games", "300")
    out = cli(*args, "--json", check_json=True)
    assert out["front"]
    for row in out["front"]:
        assert [m["decision"] for m in row["mistakes"]] == [A.SPEND_LABEL, A.WHICH_LABEL]
        for m in row["mistakes"]:
            assert m["games"] == 300 and m["seed"] == 3
            for key in ("wrong_per_game", "decisions_per_game", "share_wrong"):
                assert {"estimate", "se", "ci_low", "ci_high", "n"} <= set(m[key])
    code, text, err = cli(*args)
    assert code == 0, err
    assert "wrong decisions per game" in text or "no wrong decisions" in text
    assert f"{A.SPEND_LABEL}:" in text
    off = cli(*args[:-1], "0", "--json", check_json=True)
    assert all("mistakes" not in row for row in off["front"])
    code, _, err = cli(*args[:-1], "-5")
    assert code == 2 and err.strip()


def test_recording_in_chunks_numbers_the_games_across_chunks(recorded, monkeypatch):
    monkeypatch.setattr(A, "RECORD_CHUNK", 3)
    again = _record(BOUNDED)
    assert all(np.array_equal(recorded[k], again[k]) for k in recorded)
