"""`tune --target`: designing house rules to a target with stated confidence."""
import json

import pytest

from analyzer.errors import UserError
from analyzer.tune_target import SearchState, parse_space, parse_target, search, z_for_round

TARGET = "turn_value in [1.12, 1.14]"
SPACE = ["bonus_cap=1..5", "bonus_turn=true,false"]


def _exact_turn_values():
    """Exact mean turn value of stop-at:6 per rule set (the policy evaluator, not the kernel)."""
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.play import PolicyEvaluator, build_tables
    from analyzer.games.trash_pandas.lineup import parse_policy
    from analyzer.games.trash_pandas.rules import TrashPandasRules

    out = {}
    for cap in range(1, 6):
        for bonus in (True, False):
            s = TurnSolver(rules=TrashPandasRules(bonus_cap=cap, bonus_turn=bonus))
            value = PolicyEvaluator(build_tables(parse_policy("stop-at:6"), s, 0, 0, 0),
                                    s).turn()["mean_value"]
            out[(cap, bonus)] = value
    return out


def test_parsing_targets_and_spaces():
    t = parse_target("bust_rate in [0.2, 0.3]")
    assert (t.metric, t.kind, t.lo, t.hi) == ("bust_rate", "in", 0.2, 0.3)
    t = parse_target(" game_length ~ 14 ")
    assert (t.metric, t.kind, t.value) == ("game_length", "near", 14.0)
    for bad in ("x in [3, 1]", "x between 1 and 2", "in [1, 2]", "x ~"):
        with pytest.raises(UserError):
            parse_target(bad)
    assert parse_space("goal=20..50:10") == ("goal", ["20", "30", "40", "50"])
    assert parse_space("rate=0.1..0.3:0.1") == ("rate", ["0.1", "0.2", "0.3"])
    assert parse_space("policy=hold:20,hold:25") == ("policy", ["hold:20", "hold:25"])
    assert parse_space("policy=hold:20,hold:20;hold:25,hold:25") == (
        "policy", ["hold:20,hold:20", "hold:25,hold:25"])
    for bad in ("goal", "goal=5..1", "goal=1..9:0", "goal=1,1", "goal=1,,2", "g=1..100000"):
        with pytest.raises(UserError):
            parse_space(bad)


def test_round_quantiles_hand_values():
    # round 1, 10 cells, 1 target, alpha 0.05: Φ⁻¹(1 − 0.025/20) = Φ⁻¹(0.99875)
    assert z_for_round(1, 10, 1, 0.05) == pytest.approx(3.023341, abs=1e-5)
    # round 3, 1 cell: Φ⁻¹(1 − 0.05/8/2) = Φ⁻¹(0.996875)
    assert z_for_round(3, 1, 1, 0.05) == pytest.approx(2.734369, abs=1e-5)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_search_returns_exactly_the_cells_whose_exact_values_meet_the_target(seed):
    exact = _exact_turn_values()
    expected = {k for k, v in exact.items() if 1.12 <= v <= 1.14}
    assert expected == {(2, True), (3, True), (4, True)}  # the target splits the space
    res = search("trash-pandas", [TARGET], SPACE, "stop-at:6", 32_768, seed)
    assert res["undecided"] == 0 and res["stopped_by"] == "decided"
    meets = set()
    for row in res["rows"]:
        for s in [row] + row["same_rules_as"]:
            if row["verdict"] == "meets":
                meets.add((s["bonus_cap"], s["bonus_turn"]))
    assert meets == expected
    # the five rule sets without a bonus turn are one game, counted once
    assert res["cells"] == 6
    assert res["trials_spent"] < res["full_grid_trials"]


def test_closest_target_keeps_the_closest_cell():
    exact = _exact_turn_values()
    closest = min((k for k in exact if k[1]), key=lambda k: abs(exact[k] - 1.13))
    res = search("trash-pandas", ["turn_value ~ 1.13"], ["bonus_cap=1..5"], "stop-at:6",
                 32_768, 4)
    racing = [r for r in res["rows"] if r["in_race"]]
    assert [r["bonus_cap"] for r in racing] == [closest[0]]


def test_resume_from_the_state_file_gives_the_uninterrupted_answer(tmp_path):
    settings = {"t": TARGET}
    full = search("trash-pandas", [TARGET], SPACE, "stop-at:6", 32_768, 5)
    state = SearchState(tmp_path, settings)
    part = search("trash-pandas", [TARGET], SPACE, "stop-at:6", 32_768, 5, max_rounds=2,
                  state=state)
    assert part["stopped_by"] in ("max-rounds", "decided") and (tmp_path / "search-state.npz").exists()
    resumed = search("trash-pandas", [TARGET], SPACE, "stop-at:6", 32_768, 5,
                     state=SearchState(tmp_path, settings))
    assert json.dumps(resumed["rows"], sort_keys=True) == json.dumps(full["rows"], sort_keys=True)
    other = SearchState(tmp_path, {"t": "something else"})  # another search's state is not used
    assert other.restore([]) == (0, [])


def test_same_answer_on_one_and_two_threads_and_on_dask():
    import numba

    args = ("pig", ["p_first_wins in [0.5, 0.56]"], ["goal=20..40:10"], "hold:20,hold:20",
            4096, 9)
    numba.set_num_threads(1)
    one = search(*args)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    two = search(*args)
    assert json.dumps(one["rows"], sort_keys=True) == json.dumps(two["rows"], sort_keys=True)
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = search(*args, scheduler=cluster.scheduler_address)
    assert json.dumps(remote["rows"], sort_keys=True) == json.dumps(one["rows"], sort_keys=True)


def test_cli_target_json_and_errors(cli, tmp_path):
    out = cli("tune", "trash-pandas", "--target", TARGET, "--space", "bonus_cap=2..3",
              "--policy", "stop-at:6", "--seed", "1", "--out", str(tmp_path / "o"), "--chart",
              "--json", check_json=True)
    assert out["game"] == "trash-pandas" and out["exact"] is False and out["seed"] == 1
    assert {r["verdict"] for r in out["rows"]} == {"meets"}
    assert (tmp_path / "o" / "cells.csv").exists() and (tmp_path / "o" / "verdicts_bonus_cap.png").exists()
    code, _, err = cli("tune", "trash-pandas", "--target", "turn_value in [2, 1]", "--space",
                       "bonus_cap=1..2")
    assert code == 2 and err.count("\n") == 1
    code, _, err = cli("tune", "trash-pandas", "--target", TARGET, "--space", "bonus_cap=1..2",
                       "--sweep", "bonus_cap=1,2")
    assert code == 2 and "different searches" in err
    code, _, err = cli("tune", "pig", "--target", "p_first_wins in [0.5, 0.6]", "--space",
                       "gaol=1..2")
    assert code == 2 and "--space: unknown rule 'gaol'" in err and err.count("\n") == 1
