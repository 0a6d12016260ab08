"""Batch reports (byte-identical reruns, resume, atomic files) and house-rule tuning (Dask)."""
import json
from pathlib import Path

import pytest

from analyzer.errors import UserError
from analyzer.report import PartKind, PartResult, load_recipe, run_recipe

RECIPE = """
title = "test report"
game = "trash-pandas"
seed = 11
[rules]
bonus_cap = 3
[[parts]]
name = "policy"
kind = "trash-pandas.policy"
[parts.params]
hands = [[0, 0, 0], [1, 0, 0]]
[[parts]]
name = "check"
kind = "trash-pandas.mc-check"
[parts.params]
turns = 20000
hands = [[0, 0, 0]]
policies = ["optimal", "stop-at:3"]
[[parts]]
name = "chart"
kind = "trash-pandas.values-chart"
"""


def _recipe(tmp_path, text=RECIPE):
    p = tmp_path / "r.toml"
    p.write_text(text)
    return load_recipe(p)


def _snapshot(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_same_seed_byte_identical_files(tmp_path):
    rec = _recipe(tmp_path)
    a, b = tmp_path / "a", tmp_path / "b"
    run_recipe(rec, a)
    run_recipe(rec, b)
    sa, sb = _snapshot(a), _snapshot(b)
    assert sa == sb
    for name in ("index.md", "index.html", "policy/policy.csv", "check/mc_check.csv",
                 "chart/values_by_tokens.png", "chart/values_by_tokens.svg"):
        assert name in sa
    html = sa["index.html"].decode()
    assert "<svg" in html and "seed" in html and "numba" in html  # self-contained, versions
    # a different seed changes the Monte Carlo table but not the exact one
    c = tmp_path / "c"
    run_recipe(rec, c, seed=12)
    sc = _snapshot(c)
    assert sc["policy/policy.csv"] == sa["policy/policy.csv"]
    assert sc["check/mc_check.csv"] != sa["check/mc_check.csv"]


def test_resume_skips_finished_parts_and_leaves_no_temporary_files(tmp_path, monkeypatch):
    rec = _recipe(tmp_path)
    out = tmp_path / "out"
    calls = []
    from analyzer import report as rep

    real_parts = rep.game_parts("trash-pandas")

    def killed(params, rules, seed):
        calls.append("chart")
        raise KeyboardInterrupt  # the run is killed while computing the last part

    with monkeypatch.context() as m:
        m.setattr(rep, "game_parts", lambda game: {
            **real_parts, "values-chart": PartKind("trash-pandas", "values-chart", killed)})
        from analyzer.errors import Interrupted

        with pytest.raises(Interrupted, match="2 of 3 part"):
            run_recipe(rec, out)
    assert calls == ["chart"]
    assert (out / "parts" / "policy.json").exists() and (out / "parts" / "check.json").exists()
    assert not (out / "parts" / "chart.json").exists()
    assert not list(out.rglob("*.tmp"))
    before = _snapshot(out)
    result = run_recipe(rec, out)
    assert result["skipped"] == 2 and result["computed"] == 1
    after = _snapshot(out)
    for name in ("policy/policy.csv", "check/mc_check.csv", "parts/policy.json"):
        assert after[name] == before[name]
    # the resumed folder equals a clean run
    clean = tmp_path / "clean"
    run_recipe(rec, clean)
    assert _snapshot(clean) == after


def test_recipe_errors(tmp_path):
    with pytest.raises(UserError, match="missing 'parts'"):
        _recipe(tmp_path, 'title="x"\ngame="pig"\nseed=1\n')
    with pytest.raises(UserError, match="unknown part kind"):  # when the recipe is read
        _recipe(tmp_path, 'title="x"\ngame="pig"\nseed=1\n[[parts]]\nname="a"\nkind="pig.nope"\n')


def test_shipped_recipes_load():
    from analyzer.report import available_recipes

    paths = available_recipes()
    assert {"trash-pandas", "pig"} <= {p.stem for p in paths}
    for p in paths:
        load_recipe(p)


# ------------------------------------------------------------------------------------ tuning
def test_tune_finds_planted_bonus_turn_effect():
    """Switching the bonus turn off costs exactly P(six) · V_bonus under stop-at:6.

    P(six) = 5/324 and V_bonus (bonus turn from nothing, cap 3, stop-at:6 → roll to the cap) is
    computed exactly by the policy evaluator; the tuned paired difference must cover it.
    """
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.play import PolicyEvaluator, build_tables
    from analyzer.games.trash_pandas.lineup import parse_policy
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.tune import tune

    def exact(rules):
        s = TurnSolver(rules=rules)
        return PolicyEvaluator(build_tables(parse_policy("stop-at:6"), s, 0, 0, 0), s).turn()

    planted = (exact(TrashPandasRules(bonus_turn=False))["mean_value"]
               - exact(TrashPandasRules())["mean_value"])
    assert planted < -0.01
    res = tune("trash-pandas", ["bonus_turn=false,true"], ["turn_value", "bust_rate"],
               "stop-at:6", 400_000, 5, top=1)
    off = next(r for r in res["rows"] if r["cell"] == "bonus_turn=false")
    on = next(r for r in res["rows"] if r["cell"] == "bonus_turn=true")
    d_off = off["turn_value_vs_baseline"]
    assert d_off["ci_low"] <= planted <= d_off["ci_high"]
    assert d_off["effect"] == "lower"
    # same trials, same rules: identical on every trial, and said so (not ranked as better)
    assert on["same_as_baseline"]
    assert on["turn_value_vs_baseline"]["effect"] == "no effect (identical on every trial)"
    assert on["bust_rate_vs_baseline"]["estimate"] == 0.0
    # the bonus turn never changes the main-turn bust
    assert off["bust_rate_vs_baseline"]["effect"] == "no effect (identical on every trial)"
    assert res["ranked"][0] == "bonus_turn=true"
    assert res["ranking"][0]["vs_next"] == ">"
    # the top cell is the baseline's own rules: no re-run slot is spent on it
    assert [r["cell"] for r in res["rerun"]] == ["baseline", "bonus_turn=false"]


def test_tune_errors():
    from analyzer.tune import tune

    with pytest.raises(UserError, match="unknown rule"):
        tune("trash-pandas", ["colour=1,2"], ["turn_value"], None, 1000, 1)
    with pytest.raises(UserError, match="unknown metric"):
        tune("trash-pandas", ["bonus_cap=1,2"], ["fun"], None, 1000, 1)
    with pytest.raises(UserError, match="KEY=V1"):
        tune("trash-pandas", ["bonus_cap"], ["turn_value"], None, 1000, 1)
    with pytest.raises(UserError, match="above its maximum"):
        tune("trash-pandas", ["bonus_cap=3,9"], ["turn_value"], None, 1000, 1)


def test_dask_local_cluster_gives_the_local_numbers():
    distributed = pytest.importorskip("distributed")
    from analyzer.tune import tune

    args = ("pig", ["goal=50,100"], ["p_first_wins", "mean_turns"], "hold:20,hold:20", 60_000, 3)
    local = tune(*args, top=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = tune(*args, top=1, scheduler=cluster.scheduler_address)
    assert json.dumps(local["rows"], sort_keys=True) == json.dumps(remote["rows"], sort_keys=True)
    assert json.dumps(local["rerun"], sort_keys=True) == json.dumps(remote["rerun"],
                                                                    sort_keys=True)


def test_cli_tune_and_report_json(cli, tmp_path):
    out = cli("tune", "pig", "--sweep", "goal=50,100", "-n", "20000", "--seed", "2",
              "--top", "1", "--out", str(tmp_path / "t"), "--chart", "--json", check_json=True)
    assert out["seed"] == 2 and out["cells"] == 2
    assert (tmp_path / "t" / "cells.csv").exists() and (tmp_path / "t" / "cells.png").exists()
    code, _, err = cli("tune", "pig", "--sweep", "gaol=50", "--trials", "100")
    assert code == 2 and "unknown rule 'gaol'" in err and err.startswith("pushluck: error: --sweep:")


def test_tune_finds_planted_ten_bust_at_effect():
    """Raising Ten's bust limit under a fixed "stop once T ≥ 7" rule can only remove busts:
    every turn that survives with limit b survives with b + 1 on the same cards, so the bust rate
    falls strictly as bust_at goes 9 → 13, and with these sample sizes the Bonferroni-widened
    intervals of neighbouring cells must not overlap."""
    from analyzer.tune import tune

    res = tune("ten", ["bust_at=9,10,11,12,13"], ["bust_rate"], "total:7", 100_000, 8, top=0)
    cells = [r for r in res["rows"] if r["cell"] != "baseline"]
    rates = [r["bust_rate"]["estimate"] for r in cells]
    assert rates == sorted(rates, reverse=True)
    for a, b in zip(cells, cells[1:]):
        assert a["bust_rate"]["ci_low"] > b["bust_rate"]["ci_high"]
    # paired differences from the baseline (bust_at = 11) have the sign arithmetic demands
    assert cells[0]["bust_rate_vs_baseline"]["effect"] == "higher"
    assert cells[4]["bust_rate_vs_baseline"]["effect"] == "lower"
    assert cells[2]["bust_rate_vs_baseline"]["estimate"] == 0.0
    assert cells[2]["bust_at"] == 11  # sweep values keep the rule's type
