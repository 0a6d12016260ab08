"""`tune --target`: designing house rules to a target with stated confidence."""
import json
import math

import pytest

from analyzer.errors import UserError
from analyzer.tune_target import BlockPlan, SearchState, parse_space, parse_target, search

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


def _stable(rows):
    """The rows without their timings (kernel seconds differ from run to run)."""
    return json.dumps([{k: v for k, v in r.items() if k != "seconds"} for r in rows],
                      sort_keys=True)


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


def test_family_level_and_grid_z_hand_values():
    from analyzer.tune_stats import family_beta, grid_z

    # 6 cells, 1 target metric, alpha 0.05: K = 6 intervals, each at level 1 − 0.05/6
    assert family_beta(0.05, 6, 1) == (6, pytest.approx(0.05 / 6))
    assert family_beta(0.05, 60, 2) == (120, pytest.approx(0.05 / 120))
    # the grid's own Bonferroni z: Φ⁻¹(1 − 0.05/12) = 2.6383, Φ⁻¹(1 − 0.05/120) = 3.3415
    assert grid_z(0.05, 6) == pytest.approx(2.638257, abs=1e-5)
    assert grid_z(0.05, 60) == pytest.approx(3.341479, abs=1e-5)


def test_block_plan_by_hand():
    plan = BlockPlan.for_first_round(128)  # b = 128 // 16 = 8 trials a block in group 0
    assert plan.b == 8 and [plan.size(k) for k in (0, 15, 16, 31, 32)] == [8, 8, 16, 16, 32]
    assert [plan.trials(k) for k in (0, 1, 16, 17, 32, 33)] == [0, 8, 128, 144, 384, 416]
    assert plan.blocks_for(384) == 32 and plan.blocks_for(385) == 33 and plan.blocks_for(1) == 1
    assert plan.stretches(10, 40) == [(10, 6, 8), (16, 16, 16), (32, 8, 32)]
    assert BlockPlan.for_first_round(5).b == 1  # a first round below 16 trials: 16 blocks of 1


def test_verdicts_distances_and_growth_by_hand():
    from analyzer.tune_stats import distance, growth, in_verdict, need_ratio

    st = {"estimate": 1.0, "ci_low": 0.9, "ci_high": 1.1, "se": 0.03, "n": 100}
    assert in_verdict(st, 0.8, 1.2) == "meets"
    assert in_verdict(st, 1.15, 2.0) == "fails" and in_verdict(st, 0.0, 0.85) == "fails"
    assert in_verdict(st, 0.95, 2.0) == "" and in_verdict(st, 0.0, 1.05) == ""
    assert in_verdict(st, 0.9, 1.1) == "meets"  # touching the bounds is inside
    # |μ − 1.3| in [0.2, 0.4]; |μ − 1.05| in [0, 0.15]
    d = distance(st, 1.3)
    assert (d["estimate"], d["ci_low"], d["ci_high"]) == pytest.approx((0.3, 0.2, 0.4))
    assert distance(st, 1.05)["ci_low"] == 0.0
    assert distance(st, 1.05)["ci_high"] == pytest.approx(0.15)
    # estimate 1.0, target [0.95, 2]: half-width 0.1 on the low side, 0.05 to clear: (0.1/0.05)²
    assert need_ratio(st, 0.95, 2.0) == pytest.approx(4.0)
    # estimate below the target [1.04, 2]: the high side (0.1) must clear 0.04: (2.5)²
    assert need_ratio(st, 1.04, 2.0) == pytest.approx(6.25)
    assert need_ratio(st, 1.0, 2.0) == float("inf")  # on the bound: never decided by trials
    # the best case adds `slack` SEs (0.03 each) to the distance on every branch, never takes:
    # below [1.04, 2]: 0.1 / (0.04 + 0.03) ; above [0, 0.97]: 0.1 / (0.03 + 0.06) ;
    # inside [0.95, 1.02], both sides open: max(0.1 / 0.08, 0.1 / 0.05)
    assert need_ratio(st, 1.04, 2.0, 1.0) == pytest.approx((0.1 / 0.07) ** 2)
    assert need_ratio(st, 0.0, 0.97, 2.0) == pytest.approx((0.1 / 0.09) ** 2)
    assert need_ratio(st, 0.95, 1.02, 1.0) == pytest.approx((0.1 / 0.05) ** 2)
    assert need_ratio(st, 0.95, 2.0, 1.0) == pytest.approx((0.1 / 0.08) ** 2)
    assert need_ratio(st, 1.0, 2.0, 1.0) == pytest.approx((0.1 / 0.03) ** 2)  # on the bound
    # an asymmetric interval [0.9, 1.2] shows which side is read at the edges: estimate on the
    # lower bound reads the low side, on the upper bound the high side
    lop = {"estimate": 1.0, "ci_low": 0.9, "ci_high": 1.2, "se": 0.03, "n": 100}
    assert need_ratio(lop, 1.0, 2.0, 1.0) == pytest.approx((0.1 / 0.03) ** 2)
    assert need_ratio(lop, 0.0, 1.0, 1.0) == pytest.approx((0.2 / 0.03) ** 2)
    # an interval ending exactly on a bound has cleared it: nothing left on that side (1.0)
    assert need_ratio({**lop, "ci_low": 0.9, "ci_high": 1.05}, 0.9, 1.1, 1.0) == 1.0
    assert need_ratio({**lop, "ci_low": 0.95, "ci_high": 1.1}, 0.9, 1.1, 1.0) == 1.0
    assert need_ratio({**lop, "ci_low": 0.9, "ci_high": 1.1}, 0.9, 1.1, 1.0) == 1.0
    # touching a bound from outside is not failing it; the distance's lower end on either side
    edge = {"estimate": 0.7, "ci_low": 0.5, "ci_high": 0.8, "se": 0.05, "n": 9}
    assert in_verdict(edge, 0.8, 1.0) == "" and in_verdict(edge, 0.0, 0.5) == ""
    assert distance(edge, 0.5)["ci_low"] == 0.0 and distance(edge, 0.8)["ci_low"] == 0.0
    far = distance(edge, 0.4)  # v below the interval: the nearer end is 0.5
    assert far["ci_low"] == pytest.approx(0.1) and far["ci_high"] == pytest.approx(0.4)
    assert (far["se"], far["n"]) == (0.05, 9)
    assert growth(4.0) == 2.0 and growth(1.0) == 1.25 and growth(1.5) == pytest.approx(1.65)
    assert growth(float("inf")) == 2.0


def test_equal_grid_by_hand():
    from types import SimpleNamespace

    from analyzer.tune_stats import equal_grid
    from analyzer.tune_target import SearchCell

    plan = BlockPlan.for_first_round(1024)
    t = parse_target("x in [0.4, 0.6]")
    ctx = SimpleNamespace(targets=[t], plan=plan)

    def cell(est, lo, hi, sd, verdict, blocks, seconds):
        c = SearchCell("c", {}, None, "p", verdict=verdict, decided_round=1, blocks=blocks,
                       seconds=seconds, rate=seconds / plan.trials(blocks),
                       failed_on=t.text if verdict == "fails" else "")
        c.stats = {"x": {"estimate": est, "ci_low": lo, "ci_high": hi, "sd": sd, "se": 0,
                         "n": 1}}
        return c

    cells = [cell(0.5, 0.45, 0.55, 0.5, "meets", 32, 2.0),  # half-width 0.05, 0.1 from a bound
             cell(0.7, 0.65, 0.75, 0.4, "fails", 16, 1.0),  # half-width 0.05, 0.1 past 0.6
             cell(0.61, 0.5, 0.72, 0.5, "undecided", 16, 1.0)]
    z = 2.3940  # Φ⁻¹(1 − 0.05/(2·3)) = Φ⁻¹(0.991667)
    g = equal_grid(ctx, cells, 0.05, 3, 1)
    assert g["z"] == pytest.approx(z, abs=1e-4)
    per_cell = math.ceil((g["z"] * 0.5 / 0.05) ** 2)  # the widest need: sd 0.5 at 0.05
    assert g["trials_per_cell"] == per_cell and g["trials"] == 3 * per_cell
    assert g["deciding_trials_per_cell"] == math.ceil((g["z"] * 0.5 / 0.1) ** 2)
    rate = 2.0 / plan.trials(32) + 1.0 / plan.trials(16) + 1.0 / plan.trials(16)
    average = 4.0 / (plan.trials(32) + 2 * plan.trials(16))
    assert g["seconds"] == pytest.approx(per_cell * sum(min(r, average) for r in (
        2.0 / plan.trials(32), 1.0 / plan.trials(16), 1.0 / plan.trials(16))))
    assert rate > 0
    assert equal_grid(ctx, [cells[2]], 0.05, 3, 1) is None  # nothing decided: no grid
    # failed cells alone, one high (0.7: 0.1 past 0.6) and one low (0.25: 0.15 short of 0.4):
    # the grid clears each bound at its own distance, sd 0.4 and 0.3 (the wider need sets n)
    low = cell(0.25, 0.2, 0.3, 0.3, "fails", 16, 1.0)
    g = equal_grid(ctx, [cells[1], low], 0.05, 3, 1)
    zg = g["z"]
    assert g["deciding_trials_per_cell"] == math.ceil(max((zg * 0.4 / 0.1) ** 2,
                                                          (zg * 0.3 / 0.15) ** 2))
    g = equal_grid(ctx, [low], 0.05, 3, 1)
    assert g["deciding_trials_per_cell"] == math.ceil((g["z"] * 0.3 / 0.15) ** 2)
    assert g["trials_per_cell"] == math.ceil((g["z"] * 0.3 / 0.05) ** 2)  # half-width 0.05


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
    grid = res["equal_grid"]
    assert grid["trials"] == 6 * grid["trials_per_cell"] and res["saving"] == pytest.approx(
        grid["trials"] / res["trials_spent"])


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
    assert _stable(resumed["rows"]) == _stable(full["rows"])
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
    assert _stable(one["rows"]) == _stable(two["rows"])
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = search(*args, scheduler=cluster.scheduler_address)
    assert _stable(remote["rows"]) == _stable(one["rows"])


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


def _state_cells(n=2):
    from analyzer.tune_target import SearchCell

    return [SearchCell(f"goal={i}", {"goal": i}, None, "hold:20") for i in range(n)]


def test_search_state_round_trip_restores_every_field_of_every_cell(tmp_path, capsys):
    """What one round saves comes back field by field, cell by cell, from a file of any size
    (the resume test above cannot see a lost field: a search that starts afresh reaches the
    same verdicts)."""
    import numpy as np

    cells = _state_cells(2)
    a, b = cells
    a.verdict, a.failed_on, a.in_race, a.blocks, a.seconds = "fails", "x in [0, 1]", False, 17, 2.5
    a.rate, a.rate_trials, a.decided_round = 0.125, 96, 3
    a.stats = {"x": {"mean": 0.25, "ci_low": 0.5}}
    a.totals = {"x": np.array([3.0, 4.0]), "p|q": np.array([7.0])}
    b.blocks, b.seconds, b.rate, b.rate_trials, b.decided_round = 33, 0.75, 0.5, 8, 0
    b.totals = {"x": np.arange(200_000.0)}  # a state of more than a MiB (a big space)
    rounds = [{"round": 1, "cells": 2, "trials": 32}, {"round": 2, "cells": 1, "trials": 16}]
    SearchState(tmp_path, {"seed": 5}).save(cells, 2, rounds)
    back = _state_cells(2)
    capsys.readouterr()
    assert SearchState(tmp_path, {"seed": 5}).restore(back) == (2, rounds)
    path = str(tmp_path / "search-state.npz")
    assert capsys.readouterr().err.split() == \
        f"tune: resuming after round 2 from {path}".split()
    x, y = back
    assert (x.verdict, x.failed_on, x.in_race, x.blocks, x.seconds) == \
        ("fails", "x in [0, 1]", False, 17, 2.5)
    assert (x.rate, x.rate_trials, x.decided_round) == (0.125, 96, 3)
    assert x.stats == {"x": {"mean": 0.25, "ci_low": 0.5}}
    assert sorted(x.totals) == ["p|q", "x"]
    assert x.totals["x"].tolist() == [3.0, 4.0] and x.totals["p|q"].tolist() == [7.0]
    assert (y.verdict, y.failed_on, y.in_race, y.blocks, y.seconds) == ("undecided", "", True,
                                                                          33, 0.75)
    assert (y.rate, y.rate_trials, y.decided_round, y.stats) == (0.5, 8, 0, {})
    assert list(y.totals) == ["x"] and y.totals["x"].tolist() == list(range(200_000))


def test_search_state_of_another_search_or_no_state_is_not_used(tmp_path, capsys):
    from pathlib import Path

    cells = _state_cells(2)
    cells[0].blocks = 9
    # the fingerprint holds the settings whatever their order, and values JSON cannot hold
    SearchState(tmp_path, {"seed": 5, "rules": Path("r.toml")}).save(cells, 1, [{"round": 1}])
    same = _state_cells(2)
    assert SearchState(tmp_path, {"rules": Path("r.toml"), "seed": 5}).restore(same) == (
        1, [{"round": 1}])
    assert same[0].blocks == 9
    capsys.readouterr()
    for other in ({"seed": 6, "rules": Path("r.toml")}, {"seed": 5, "rules": Path("s.toml")}):
        fresh = _state_cells(2)
        assert SearchState(tmp_path, other).restore(fresh) == (0, [])
        assert fresh[0].blocks == 0
        assert capsys.readouterr().err.split() == \
            f"tune: {tmp_path / 'search-state.npz'} belongs to another search; starting " \
            "afresh".split()
    # the same settings but another number of cells
    assert SearchState(tmp_path, {"seed": 5, "rules": Path("r.toml")}).restore(
        _state_cells(3)) == (0, [])
    assert "belongs to another search" in capsys.readouterr().err
    # no state file: nothing restored, nothing said
    empty = tmp_path / "empty"
    empty.mkdir()
    assert SearchState(empty, {"seed": 5}).restore(_state_cells(2)) == (0, [])
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("kind", ["garbage", "dangling-link", "pickled", "not-a-dict",
                                  "cells-not-a-list"])
def test_an_unreadable_search_state_is_set_aside_and_the_cells_start_afresh(tmp_path, capsys,
                                                                           kind):
    """A broken state file (or a link to nothing, or one holding pickled objects, which are
    never loaded) is reported in one line, and every cell it may have touched starts afresh."""
    import io
    import json

    import numpy as np

    state = SearchState(tmp_path, {"seed": 5})
    path = tmp_path / "search-state.npz"
    cells = _state_cells(2)
    meta = {"fingerprint": state.fingerprint, "done_rounds": 1, "rounds": [],
            "cells": [{"label": c.label, "verdict": "meets", "failed_on": "", "in_race": False,
                       "blocks": 16, "seconds": 1.0, "rate": 0.5, "rate_trials": 16,
                       "decided_round": 1, "stats": {}} for c in cells]}
    buf = io.BytesIO()
    if kind == "garbage":
        path.write_bytes(b"PK\x03\x04 not a zip")
    elif kind == "dangling-link":
        path.symlink_to(tmp_path / "gone.npz")
    elif kind == "pickled":
        np.savez(buf, meta=np.array(json.dumps(meta)),
                 **{"0|x": np.array([{"a": 1}], dtype=object)})
        path.write_bytes(buf.getvalue())
    else:
        bad = [meta] if kind == "not-a-dict" else {**meta, "cells": {"0": meta["cells"][0]}}
        np.savez(buf, meta=np.array(json.dumps(bad)))
        path.write_bytes(buf.getvalue())
    for c in cells:  # what a half-finished restore could have left behind
        c.verdict, c.failed_on, c.in_race, c.blocks, c.seconds = "fails", "t", False, 5, 2.0
        c.decided_round, c.stats, c.totals, c.rate, c.rate_trials = 4, {"x": {}}, {"x": 1}, 3.0, 7
    assert state.restore(cells) == (0, [])
    assert capsys.readouterr().err.split() == \
        f"tune: {path} is unreadable; starting afresh".split()
    for c in cells:
        assert (c.verdict, c.failed_on, c.in_race, c.blocks, c.seconds) == ("undecided", "", True,
                                                                            0, 0.0)
        assert (c.decided_round, c.stats, c.totals, c.rate, c.rate_trials) == (0, {}, {}, 0.0, 0)


@pytest.fixture
def knob_game(monkeypatch):
    """A stand-in game for building a space in-process: rules ``goal`` and ``cap`` (``goal``
    does not matter when ``cap`` is 0: one rule set), a bot knob ``stop-at``, and metrics
    ``x`` (a rate), ``y`` (a mean with bounds), ``s`` (a mean with a square column), ``m`` (a
    mean with neither), ``z`` (another game's rules). Records what the space builder asks."""
    from dataclasses import dataclass

    import analyzer.rules as rules_mod
    from analyzer import tune
    from analyzer.tune import Metric

    @dataclass(frozen=True)
    class _KRules:
        goal: int = 100
        cap: int = 5

        def canonical(self):
            return (0, 0) if self.cap == 0 else (self.goal, self.cap)

    @dataclass(frozen=True)
    class _Other:
        goal: int = 100

    seen = {"checked": [], "policies": [], "built": []}

    def metric(name, cls=_KRules, kind="mean", **kw):
        return Metric("pig", name, name, cls, None, 0, "base", kind,
                      check_policy=seen["policies"].append, knobs=("stop-at",),
                      set_knob=lambda p, k, v: f"{p}|{k}={v}", **kw)

    ms = {"x": metric("x", kind="rate"), "y": metric("y", bounds=(0, 9)),
          "s": metric("s", square=1), "m": metric("m"), "z": metric("z", _Other, "rate")}
    monkeypatch.setattr(tune, "get_metric", lambda game, name: ms[name])
    monkeypatch.setattr(tune, "check_space_keys", lambda *a, **k: seen["checked"].append((a, k)))

    def build(cls, rules_file, sets):
        seen["built"].append((rules_file, list(sets)))
        return cls(**{k: int(v) for k, v in (s.split("=") for s in sets)})

    monkeypatch.setattr(rules_mod, "build_rules", build)
    seen["rules"] = _KRules
    return seen


def test_space_cells_knobs_policies_and_aliases_by_hand(knob_game):
    from analyzer.tune_target import _setup, build_space_keys

    targets, metrics, cells = _setup("pig", ["x in [0.2, 0.4]"], ["stop_at=3,4", "goal=10,20"],
                                     None, "house.toml", ["cap=7"])
    assert [m.name for m in metrics] == ["x"] and targets[0].text == "x in [0.2, 0.4]"
    # the knob is named in its own spelling and left out of the rule keys checked
    assert knob_game["checked"] == [(("--space", ["goal"], knob_game["rules"]),
                                     {"knobs": ["stop-at"]})]
    assert [c.label for c in cells] == ["stop-at=3, goal=10", "stop-at=3, goal=20",
                                        "stop-at=4, goal=10", "stop-at=4, goal=20"]
    assert [c.policy for c in cells] == ["base|stop-at=3"] * 2 + ["base|stop-at=4"] * 2
    assert knob_game["policies"] == [c.policy for c in cells]
    assert knob_game["built"] == [("house.toml", ["cap=7", f"goal={g}"]) for g in (10, 20) * 2]
    assert cells[1].settings == {"stop-at": "3", "goal": 20}  # a rule's own type, a knob as given
    assert [(c.rules.goal, c.rules.cap) for c in cells] == [(10, 7), (20, 7)] * 2
    assert all(c.ranges == {"x": (0.0, 1.0)} and c.aliases == [] for c in cells)
    # `policy` in the space: each cell's own bot, then the knob set on it; not a rule
    knob_game["built"].clear()
    _t, _m, cells = _setup("pig", ["x in [0.2, 0.4]"], ["policy=a,b", "stop-at=2", "cap=0,1"],
                           "base", None, None)
    assert [c.policy for c in cells] == ["a|stop-at=2", "a|stop-at=2", "b|stop-at=2",
                                         "b|stop-at=2"]
    assert [c.settings for c in cells][:2] == [{"policy": "a", "stop-at": "2", "cap": 0},
                                               {"policy": "a", "stop-at": "2", "cap": 1}]
    assert knob_game["built"][:2] == [(None, ["cap=0"]), (None, ["cap=1"])]
    # two settings that give one rule set are one cell; the other is listed as its alias
    _t, _m, cells = _setup("pig", ["x in [0.2, 0.4]"], ["cap=0", "goal=10,20,30"], None, None,
                           None)
    assert [c.label for c in cells] == ["cap=0, goal=10"]
    assert cells[0].aliases == [{"cap": 0, "goal": 20}, {"cap": 0, "goal": 30}]
    assert build_space_keys("pig", ["x ~ 1"], ["stop_at=1", "two_words=2", "goal=3"]) == [
        "stop-at", "two_words", "goal"]


def test_space_and_target_refusals_in_process(knob_game):
    from analyzer.tune_target import validate

    def refused(targets, space, sets=None):
        with pytest.raises(UserError) as e:
            validate("pig", targets, space, None, None, sets)
        return str(e.value)

    ok = ["x in [0, 1]"]
    assert refused([], ["goal=1,2"]) == "give at least one --target"
    assert refused(ok, []) == "give at least one --space KEY=…"
    assert refused(["x in [0, 1]", "z in [0, 1]"], ["goal=1"]) == \
        "all --target metrics must belong to the same game"
    assert refused(["m in [0, 1]"], ["goal=1"]) == (
        "metric 'm' has neither a known range nor a kernel column of its square: it cannot be "
        "a --target")
    validate("pig", ["y in [0, 1]", "s in [0, 1]", "x ~ 0.5"], ["goal=1"], None, None, None)
    assert refused(ok, ["goal=1", "goal=2"]) == "a --space key is given twice"
    assert refused(ok, ["stop_at=1", "stop-at=2"]) == "a --space key is given twice"
    # at most 20,000 cells: 2 · 100 · 100 pass, 3 · 59 · 113 = 20,001 do not
    validate("pig", ok, ["goal=1..100", "cap=1..100", "stop-at=1,2"], None, None, None)
    assert refused(ok, ["goal=1..59", "cap=1..113", "stop-at=1,2,3"]) == \
        "the space has 20,001 cells (at most 20,000)"


def test_an_interval_on_a_bound_meets_the_target():
    """``in [lo, hi]`` holds when the interval lies inside, its ends included (a round asks
    more of a cell only while some target is not yet met)."""
    from analyzer.tune_target import Target, _met

    t = Target("x", "in", lo=1.0, hi=2.0)
    assert _met({"ci_low": 1.0, "ci_high": 2.0}, t)
    assert not _met({"ci_low": 0.999, "ci_high": 2.0}, t)
    assert not _met({"ci_low": 1.0, "ci_high": 2.001}, t)


def test_needs_more_in_a_closest_race_by_hand():
    """With a ``~`` target, a cell that meets the ``in`` targets keeps racing while more than
    ``keep`` such cells are still in the race; a cell out of the race or failing stops."""
    from analyzer.tune_target import BlockPlan, SearchCell, Target, _Context

    def cell(verdict, in_race):
        c = SearchCell("c", {}, None, "p")
        c.verdict, c.in_race = verdict, in_race
        return c

    a, b = cell("meets", True), cell("meets", True)
    out, failed, open_ = cell("meets", False), cell("fails", False), cell("undecided", True)
    cells = [a, b, out, failed, open_]
    near = [Target("x", "near", value=1.0)]
    for keep, racing in ((1, True), (2, False)):  # two meeting cells in the race
        ctx = _Context("pig", [], near, BlockPlan(1), 1, "local", 0.05, keep, 99)
        assert [ctx.needs_more(c, cells) for c in cells] == [racing, racing, False, False, True]
    ctx = _Context("pig", [], [Target("x", "in", lo=0, hi=1)], BlockPlan(1), 1, "local", 0.05,
                   1, 99)
    assert [ctx.needs_more(c, cells) for c in cells] == [False, False, False, False, True]


def test_metric_ranges_are_kept_per_rule_set_and_no_blocks_hold_no_trials():
    from dataclasses import dataclass

    from analyzer.tune import Metric
    from analyzer.tune_target import _range

    @dataclass(frozen=True)
    class _G:
        goal: int

    m = Metric("pig", "span", "span", _G, None, 0, "p", "mean",
               bounds=lambda rules, policy: (0, rules.goal))
    assert _range(m, _G(3), "p") == (0.0, 3.0)
    assert _range(m, _G(7), "p") == (0.0, 7.0)  # another rule set, its own range
    assert _range(m, _G(3), "p") == (0.0, 3.0)
    assert BlockPlan(4).blocks_for(0) == 0 and BlockPlan(4).blocks_for(1) == 1


# ---- --target and --space texts parsed by hand: every refusal's exact line, the boundaries (a
# bound equal to the other, 1,000 values, 40 characters) and integer ranges written as integers
# (mutmut survivors of the tune_target group, tests/mutation/RESULTS.md)

LONG = "1" * 41


@pytest.mark.parametrize("text,line", [
    ("m in [1e999, 2]", "--target 'm in [1e999, 2]': the bounds must be finite numbers"),
    ("m in [1, 1e999]", "--target 'm in [1, 1e999]': the bounds must be finite numbers"),
    ("m in [2, 1]", "--target 'm in [2, 1]': the lower bound exceeds the upper"),
    ("m ~ 1e999", "--target 'm ~ 1e999': the value must be a finite number"),
    ("m between 1 and 2", "--target expects 'METRIC in [LO, HI]' or 'METRIC ~ VALUE', got "
                          "'m between 1 and 2'"),
    ("x" * 100 + " ~ 1e999", f"--target '{('x' * 100)[:80]}': the value must be a finite number"),
])
def test_target_refusals_word_for_word(text, line):
    with pytest.raises(UserError) as err:
        parse_target(text)
    assert str(err.value) == line


def test_target_bounds_may_be_equal():
    t = parse_target("turn_value in [1.5, 1.5]")
    assert (t.metric, t.kind, t.lo, t.hi) == ("turn_value", "in", 1.5, 1.5)


@pytest.mark.parametrize("text,line", [
    ("bonus_cap", "--space expects KEY=LO..HI[:STEP] or KEY=V1,V2,…, got 'bonus_cap'"),
    ("k=a,,b", "--space expects KEY=LO..HI[:STEP] or KEY=V1,V2,…, got 'k=a,,b'"),
    ("=a,b", "--space expects KEY=LO..HI[:STEP] or KEY=V1,V2,…, got '=a,b'"),
    (f"k={LONG}..2", "--space k: LO, HI and STEP must be numbers of at most 40 characters"),
    (f"k=1..{LONG}", "--space k: LO, HI and STEP must be numbers of at most 40 characters"),
    (f"k=1..2:{LONG}", "--space k: LO, HI and STEP must be numbers of at most 40 characters"),
    ("k=1e999..2", "--space k: LO, HI and STEP must be finite numbers"),
    ("k=2..1", "--space k: need LO ≤ HI and a positive STEP"),
    ("k=1..2:0", "--space k: need LO ≤ HI and a positive STEP"),
    ("k=1..1001", "--space k: 1..1001 gives more than 1000 values (at most 1000 per key)"),
    ("k=a,b,a", "--space k: a value is listed twice"),
])
def test_space_refusals_word_for_word(text, line):
    with pytest.raises(UserError) as err:
        parse_space(text)
    assert str(err.value) == line


def test_space_values_by_hand():
    assert parse_space("bonus-cap=1..3") == ("bonus_cap", ["1", "2", "3"])
    assert parse_space("k=1..1000")[1][-1] == "1000" and len(parse_space("k=1..1000")[1]) == 1000
    # an integer range keeps every digit (not 1.23456789e+10)
    assert parse_space("k=12345678901..12345678902") == ("k", ["12345678901", "12345678902"])
    assert parse_space("k=0.5..1.5:0.5") == ("k", ["0.5", "1", "1.5"])
    assert parse_space("seats=a,b;c,d") == ("seats", ["a,b", "c,d"])


def test_parsing_edges_by_hand():
    """A key's values may hold '=' (only the first '=' splits); bounds of exactly 40 characters
    and LO = HI are accepted; the long texts in messages are cut at 80 and 60 characters."""
    assert parse_space("seats=a=1,b") == ("seats", ["a=1", "b"])
    forty = "1" * 40
    assert parse_space(f"k={forty}..{forty}") == ("k", [forty])
    assert parse_space("k=3..3") == ("k", ["3"])
    with pytest.raises(UserError) as err:
        parse_target("x" * 100 + " in [1e999, 2]")
    assert str(err.value) == f"--target '{'x' * 80}': the bounds must be finite numbers"
    spec = "0." + "0" * 29 + "1.." + "1" + "0" * 30  # 65 characters, far over 1,000 values
    with pytest.raises(UserError) as err:
        parse_space(f"k={spec}")
    assert str(err.value) == (f"--space k: {spec[:60]} gives more than 1000 values "
                              f"(at most 1000 per key)")
