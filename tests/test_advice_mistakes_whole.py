"""Where the whole-game advice rules of Trash Pandas and Ten go wrong: the recording reference
games (analyzer/games/{trash_pandas,ten}/advice_record.py).

* the recording games are the kernel's games on the same keys, game by game, with the studied
  seat in every seat in turn;
* at every recorded decision the bot's own choice is what the rule says on the recorded
  features (so the features are the ones the bot read), for rules reading every feature, each
  feature seen on both sides of the rule's cut;
* the best rule records no wrong decision exactly; a clearly different rule records some, in
  the cell of the states where the two differ;
* the advice JSON's front rows carry ``mistakes`` with statistic objects.
"""
import json as jsonlib

import numpy as np
import pytest
from typer.testing import CliRunner

from analyzer.advice import Rule, Scored
from analyzer.advice.record import front_mistakes, record_keys
from analyzer.advice.mistakes import rule_cuts
from analyzer.cli.main import build_app
from analyzer.games.ten import advice_game as TA
from analyzer.games.ten import advice_record as TR
from analyzer.games.ten.rules import TenRules, load_deck
from analyzer.games.trash_pandas import advice_game as PA
from analyzer.games.trash_pandas import advice_record as PR
from analyzer.games.trash_pandas.rules import TrashPandasRules

# ---------------------------------------------------------------- Trash Pandas

TP_RULES = TrashPandasRules()
TP_SAVES = PA.TableRule(Rule("banded", "tokens", "<=", (2, 3), "saves", (2,)))
TP_CASES = [  # (rule, the feature it reads besides tokens, the cut on it)
    (PA.StopRule(3, 3), None, None),
    (PA.StopRule(6, 2), "bonus", 1),
    (PA.StopRule(3, 3, "deck", (20,), (5,)), "deck", 20),
    (PA.StopRule(2, 2, "behind", (2,), (4,)), "behind", 2),
    (PA.TableRule(Rule("banded", "tokens", "<=", (3, 1), "hand", (4,))), "hand", 4),
    (TP_SAVES, "saves", 2),
    (PA.TableRule(Rule("list", clauses=(("deck", "<=", 9, False), ("tokens", ">=", 4, False)),
                       default_act=True)), "deck", 10),
]


@pytest.mark.parametrize("cand", [TP_CASES[2][0], TP_SAVES])
def test_trash_pandas_recording_plays_the_kernels_games(cand):
    """Knob bot (plain engine) and rule-table bot (whole_tables engine), 3 players."""
    players, n, seed = 3, 12, 41
    (game, _X, _acts), results = PR.record(TP_RULES, players, cand, n, seed)
    setup = PR.setup_for(TP_RULES, players, cand)
    keys, counts = record_keys(seed, n, PR.RECORD_BLOCK)
    assert list(counts) == [1] * n
    rows = setup.run_blocks(keys, counts)
    cols = setup.columns()
    assert [r["seat"] for r in results] == [g % players for g in range(n)]
    for g, ref in enumerate(results):
        row = dict(zip(cols, rows[g]))
        lu = f"L{ref['seat']}"
        assert [row[f"{lu}:pts{j}"] for j in range(players)] == ref["scores"], g
        assert [row[f"{lu}:win{j}"] for j in range(players)] == pytest.approx(ref["shares"])
        assert row[f"{lu}:turns"] == ref["turns"], g
        for name, value in ref["counts"].items():
            assert row[f"{lu}:{name}"] == value, (g, name)
    assert set(np.unique(game)) <= set(range(n)) and len(game) > 5 * n


@pytest.mark.parametrize("cand, feature, cut", TP_CASES)
def test_trash_pandas_recorded_choice_is_the_rule_on_the_recorded_features(cand, feature, cut):
    (game, X, rolled), _ = PR.record(TP_RULES, 3, cand, 150, 7)
    assert set(X) == set(PA.FEATURE_IDS) and len(game) > 1000
    assert np.array_equal(np.asarray(cand.acts(X), dtype=bool), rolled)
    assert rolled.any() and not rolled.all()
    if feature is not None:  # the feature was seen on both sides of the rule's cut
        assert (X[feature] < cut).any() and (X[feature] >= cut).any()
    assert X["tokens"].min() >= 1 and X["tokens"].max() <= 5
    assert ((X["bonus"] == 0) | (X["tokens"] < TP_RULES.bonus_cap)).all()


def _scored(cand):
    return Scored(cand, 0.0, 0.0, 0.0, 1, {})


def _mistakes(front, record, reference, words, decision, n):
    front_mistakes(front, record, reference, words, decision, 5, n,
                   cuts=lambda a, b: rule_cuts(a.rule(), b.rule()))
    return [s.extra["mistakes"] for s in front]


def test_trash_pandas_best_rule_has_no_mistakes_and_a_different_rule_has_them_where_they_differ():
    """The best rule rolls at 3 tokens with two or more saves; "stop at 3" does not."""
    plain = PA.StopRule(3, 3)
    same, other = _mistakes([_scored(TP_SAVES), _scored(plain)],
                            lambda c, k, sd: PR.record(TP_RULES, 3, c, k, sd)[0], TP_SAVES,
                            PA.WHERE_WORDS, PA.DECISION, 200)
    assert same["wrong_per_game"]["estimate"] == 0.0
    assert same["wrong_per_game"]["exact_value"] == 0.0 and same["cells"] == []
    w = other["wrong_per_game"]
    assert w["estimate"] > 0 and w["ci_low"] > 0 and w["n"] == 200
    cell = other["cells"][0]
    assert set(cell["features"]) == {"tokens", "saves"}
    assert cell["features"]["tokens"] == [3, 3] and cell["features"]["saves"][0] >= 2
    assert (cell["rule"], cell["best"]) == ("stop", "roll")
    assert "tokens held 3" in cell["where"] and "Blammo! + Nanners you can play" in cell["where"]


# ---------------------------------------------------------------- Ten

TEN_RULES, TEN_SPEC = TenRules(), load_deck()
TEN_TOKENS = TA.DrawRule("threshold", 7, "tokens", (6,), (6,))
TEN_CASES = [  # (rule, the feature it reads besides T, the cut on it)
    (TA.DrawRule("threshold", 7), None, None),
    (TA.DrawRule("cards", 4), "cards", 4),
    (TA.DrawRule("threshold", 9, "deck", (40,), (6,)), "deck", 40),
    (TEN_TOKENS, "tokens", 6),
    (TA.TableRule(Rule("threshold", "C", "<=", (1,))), "C", 2),
    (TA.TableRule(Rule("list", clauses=(("busts", ">=", 1, False), ("T", ">=", 8, False)),
                       default_act=True)), "busts", 1),
]


@pytest.mark.parametrize("cand", [TEN_CASES[2][0], TEN_CASES[5][0]])
def test_ten_recording_plays_the_kernels_games(cand):
    """Threshold bot in bands and table bot, 3 players, every seat."""
    from collections import Counter

    from analyzer.games.ten.cards import codes_of
    from kernels.ten.whole_layout import REC_NAMES

    players, n, seed = 3, 6, 43
    _, results = TR.record(TEN_RULES, TEN_SPEC, players, cand, n, seed)
    setup = TR.setup_for(TEN_RULES, TEN_SPEC, players, cand)
    keys, _ = record_keys(seed, n, TR.RECORD_BLOCK)
    for g, (rec, colls, toks, seat) in enumerate(results):
        assert seat == g % players
        recs, finals, ktoks = setup.details(keys[g], 1, lineup=seat)
        for i, name in enumerate(REC_NAMES):
            assert recs[0, i] == pytest.approx(rec.get(name, 0)), (g, name)
        for q in range(players):
            assert Counter(codes_of(finals[0, q])) == colls[q], (g, q)
            assert (ktoks[0][q], ktoks[0][5 + q]) == toks[q], (g, q)


@pytest.mark.parametrize("cand, feature, cut", TEN_CASES)
def test_ten_recorded_choice_is_the_rule_on_the_recorded_features(cand, feature, cut):
    (game, X, drew), _ = TR.record(TEN_RULES, TEN_SPEC, 4, cand, 40, 9)
    assert set(X) == {f.name for f in TA.FEATURES} and len(game) > 400
    assert np.array_equal(np.asarray(cand.acts(X), dtype=bool), drew)
    assert drew.any() and not drew.all()
    if feature is not None:
        assert (X[feature] < cut).any() and (X[feature] >= cut).any()
    assert (X["T"] < TEN_RULES.bust_at).all() and (X["deck"] >= 1).all()


def test_ten_best_rule_has_no_mistakes_and_a_different_rule_has_them_where_they_differ():
    """The best rule draws at T = 6 while holding fewer than 6 tokens; "stop at 6" does not."""
    plain = TA.DrawRule("threshold", 6)
    same, other = _mistakes([_scored(TEN_TOKENS), _scored(plain)],
                            lambda c, k, sd: TR.record(TEN_RULES, TEN_SPEC, 4, c, k, sd)[0],
                            TEN_TOKENS, TA.WHERE_WORDS, TA.DECISION, 40)
    assert same["wrong_per_game"]["exact_value"] == 0.0 and same["cells"] == []
    w = other["wrong_per_game"]
    assert w["estimate"] > 0 and w["ci_low"] > 0 and w["n"] == 40
    cell = other["cells"][0]
    assert set(cell["features"]) == {"T", "tokens"}
    assert cell["features"]["T"] == [6, 6] and cell["features"]["tokens"][1] <= 5
    assert (cell["rule"], cell["best"]) == ("stop", "draw")
    assert cell["where"].startswith("T 6, currency tokens held")


def test_the_recording_scores_collections_as_ten_score_does():
    """The recording games score through the kernel's scorer (``kernel_scorer``); on the final
    collections of recorded games it gives `ten score`'s numbers (whole_reference.score)."""
    from analyzer.games.ten import whole_reference

    _, results = TR.record(TEN_RULES, TEN_SPEC, 3, TEN_TOKENS, 6, 4)
    fast = TR.kernel_scorer()
    colls = [c for _, cs, _, _ in results for c in cs]
    assert len(colls) == 18 and any(sum(c.values()) > 5 for c in colls)
    assert [fast(c) for c in colls] == [whole_reference.score(c) for c in colls]


# ---------------------------------------------------------------- the advice JSON

STAT = {"estimate", "se", "ci_low", "ci_high", "n"}


@pytest.mark.parametrize("args, n", [
    (["trash-pandas", "game-advice", "--band-by", "none", "--rounds", "1", "--seed", "3",
      "--record-games", "30"], 30),
    (["ten", "game-advice", "--band-by", "none", "--players", "3", "--rounds", "1", "--seed",
      "3", "--record-games", "9"], 9),
])
def test_advice_json_front_carries_mistakes(args, n):
    res = CliRunner().invoke(build_app(), args + ["--json"])
    assert res.exit_code == 0, res.output
    payload = jsonlib.loads(res.stdout)
    assert payload["front"]
    for row in payload["front"]:
        m = row["mistakes"]
        assert m["games"] == n and m["seed"] == 3
        for key in ("wrong_per_game", "decisions_per_game", "share_wrong"):
            assert STAT <= set(m[key]) and m[key]["n"] == n
        assert m["decisions_per_game"]["estimate"] > 1
        for c in m["cells"]:
            assert STAT <= set(c["wrong_per_game"])
    off = CliRunner().invoke(build_app(), args[:-1] + ["0", "--json"])
    assert off.exit_code == 0 and all("mistakes" not in r for r in
                                      jsonlib.loads(off.stdout)["front"])


def test_cli_defaults_are_the_record_modules_games():
    import inspect

    from analyzer.games.ten.cli_advice import game_advice as ten_cli
    from analyzer.games.trash_pandas.cli_advice import game_advice as tp_cli

    assert inspect.signature(tp_cli).parameters["record_games"].default == PR.GAMES
    assert inspect.signature(ten_cli).parameters["record_games"].default == TR.GAMES


def test_ctrl_c_while_recording_prints_the_race_and_exits_130():
    """SIGINT during the recording phase (a real child process, killed): the race's front is
    still printed, the JSON says interrupted, exit code 130; no rule recorded mid-way carries
    a summary."""
    import json
    import signal
    import subprocess
    import sys
    import time

    p = subprocess.Popen([sys.executable, "-m", "analyzer", "ten", "game-advice", "--seed", "1",
                          "--rounds", "1", "--band-by", "none", "--players", "2",
                          "--record-games", "200000", "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 240
        while time.time() < deadline and p.poll() is None:
            time.sleep(1)
            if time.time() > deadline - 225:   # the race (one round) is done well before this
                break
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, err
    data = json.loads(out)
    assert data["interrupted"] is True and data["front"]
    assert all("mistakes" not in row for row in data["front"])
    assert "interrupted" in err
