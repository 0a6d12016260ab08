"""`tune --target`'s result object, flat table and verdict heat maps (analyzer/tune_report.py)
from planted cells: every count, ordering, flag and square computed by hand here, not by a
search. The cells' statistics are written out literally; the block plan is the only project
object used (its trial counts are pinned in tests/test_tune_target.py)."""
import math
from types import SimpleNamespace

import pytest

from analyzer.tune_report import flat_rows, heatmaps, search_result
from analyzer.tune_target import BlockPlan, SearchCell, parse_target

IN_X = parse_target("x in [0.4, 0.6]")
IN_Y = parse_target("y in [0, 10]")
NEAR = parse_target("x ~ 0.5")


def _stat(est, lo, hi, sd=0.5):
    return {"estimate": est, "ci_low": lo, "ci_high": hi, "sd": sd, "se": 0.01, "n": 1024}


def _cell(label, settings, verdict, stats, failed_on="", in_race=True, blocks=16, seconds=1.0):
    plan = BlockPlan.for_first_round(1024)
    c = SearchCell(label, settings, None, "p", verdict=verdict, failed_on=failed_on,
                   in_race=in_race, decided_round=1 if verdict != "undecided" else 0,
                   blocks=blocks, seconds=seconds, rate=seconds / plan.trials(blocks))
    c.stats = stats
    c.ranges = {name: (0.0, 1.0) for name in stats}
    return c


def _ctx(targets, names):
    metrics = [SimpleNamespace(name=n, job_key=None) for n in names]
    return SimpleNamespace(game="pig", metrics=metrics, targets=targets,
                           plan=BlockPlan.for_first_round(1024), seed=9, keep=1, beta=0.05 / 8)


def _in_cells():
    """Four cells over keys a (1, 2) and b ('u', 'v'): one meets both targets, two fail on x
    (one low, one high), one fails on y."""
    ok = {"x": _stat(0.5, 0.45, 0.55), "y": _stat(5.0, 4.0, 6.0)}
    return [
        _cell("a=1, b=u", {"a": 1, "b": "u"}, "meets", ok),
        _cell("a=1, b=v", {"a": 1, "b": "v"}, "fails", {"x": _stat(0.3, 0.25, 0.35),
                                                         "y": _stat(5.0, 4.0, 6.0)},
              failed_on=IN_X.text),
        _cell("a=2, b=u", {"a": 2, "b": "u"}, "fails", {"x": _stat(0.7, 0.65, 0.75),
                                                         "y": _stat(5.0, 4.0, 6.0)},
              failed_on=IN_X.text),
        _cell("a=2, b=v", {"a": 2, "b": "v"}, "fails", {"x": _stat(0.5, 0.45, 0.55),
                                                         "y": _stat(12.0, 11.0, 13.0)},
              failed_on=IN_Y.text, seconds=3.0),
    ]


def test_counts_eliminations_and_savings_from_planted_cells():
    cells = _in_cells()
    res = search_result(_ctx([IN_X, IN_Y], ["x", "y"]), cells, [{"round": 1}], 8192, "decided",
                        0.05, 8, 1.5)
    assert (res["cells"], res["meets"], res["fails"], res["undecided"]) == (4, 1, 3, 0)
    assert res["eliminated_by_target"] == {IN_X.text: 2, IN_Y.text: 1}
    assert res["trials_spent"] == 8192 and res["kernel_seconds"] == pytest.approx(6.0)
    grid = res["equal_grid"]
    # two metrics, two jobs: the grid's trials are per cell × 4 cells × 2 jobs
    assert grid["trials"] == grid["trials_per_cell"] * 4 * 2
    assert res["saving"] == pytest.approx(grid["trials"] / 8192)
    assert res["saving_seconds"] == pytest.approx(grid["seconds"] / 6.0)
    assert res["seed"] == 9 and res["level_each"] == pytest.approx(0.05 / 8)
    assert "1 − 0.05/8" in res["method"] and "probability ≥ 0.95 wherever" in res["method"]
    assert res["closest"] == {}


def test_flat_rows_carry_each_interval_in_its_own_columns_and_no_timings():
    cells = _in_cells()
    res = search_result(_ctx([IN_X, IN_Y], ["x", "y"]), cells, [], 8192, "decided", 0.05, 8, 1.0)
    rows = flat_rows(res)
    assert [r["verdict"] for r in rows] == ["meets", "fails", "fails", "fails"]
    second = rows[1]
    assert (second["x"], second["x_ci_low"], second["x_ci_high"]) == (0.3, 0.25, 0.35)
    assert (second["y"], second["y_ci_low"], second["y_ci_high"]) == (5.0, 4.0, 6.0)
    assert second["a"] == 1 and second["b"] == "v" and second["failed_on"] == IN_X.text
    assert all("seconds" not in r for r in rows)  # a rerun writes the same bytes


def test_closest_cells_come_first_by_estimated_distance_and_farther_cells_are_flagged():
    """|x − 0.5| estimates 0.02, 0.10, 0.05 for cells 1, 2, 3 (intervals chosen so that the
    order by the distance interval's upper end, 0.10, 0.11, 0.08, differs from the order by
    estimate); the cell out of the race (and not failed) is certified farther; a cell that
    failed the 'in' target is not listed."""
    cells = [
        _cell("c=1", {"c": 1}, "meets", {"x": _stat(0.52, 0.41, 0.6)}),
        _cell("c=2", {"c": 2}, "meets", {"x": _stat(0.6, 0.59, 0.61)}, in_race=False),
        _cell("c=3", {"c": 3}, "meets", {"x": _stat(0.45, 0.42, 0.55)}),
        _cell("c=4", {"c": 4}, "fails", {"x": _stat(0.7, 0.65, 0.75)}, failed_on=IN_X.text,
              in_race=False),
    ]
    res = search_result(_ctx([IN_X, NEAR], ["x"]), cells, [], 4096, "decided", 0.05, 4, 1.0)
    order = res["closest"][NEAR.text]
    assert [r["cell"] for r in order] == ["c=1", "c=3", "c=2"]
    assert [r["distance"]["estimate"] for r in order] == pytest.approx([0.02, 0.05, 0.10])
    assert [r["certified_farther"] for r in order] == [False, False, True]
    flags = {r["cell"]: (r["in_race"], r["certified_farther"]) for r in res["rows"]}
    assert flags == {"c=1": (True, False), "c=2": (False, True), "c=3": (True, False),
                     "c=4": (False, False)}


def _captured_grids(monkeypatch, result, keys, tmp_path):
    """The squares' values of every heat map ``heatmaps`` would save (NaN where no cell)."""
    saved, _ = _figures(monkeypatch, result, keys, tmp_path)
    return [f["grid"] for f in saved]


def test_heat_map_squares_two_keys_show_the_verdict(monkeypatch, tmp_path):
    """Keys a (columns 1, 2) and b (rows u, v): meets 1.0, fails 0.0 (codes on the page)."""
    res = search_result(_ctx([IN_X, IN_Y], ["x", "y"]), _in_cells(), [], 8192, "decided",
                        0.05, 8, 1.0)
    [grid] = _captured_grids(monkeypatch, res, ["a", "b"], tmp_path)
    assert grid == [[1.0, 0.0], [0.0, 0.0]]


def test_heat_map_squares_of_three_keys_show_the_share_that_meets(monkeypatch, tmp_path):
    """Keys a, b, c: the (a, b) square pools the cells over c: a=1,b=u has c=0 meets and c=1
    fails (share 1/2); a=1,b=v both meet (1); a=2,b=u one undecided, one fails (0); a=2,b=v
    has no cell (empty)."""
    x = {"x": _stat(0.5, 0.45, 0.55)}
    cells = [_cell("", {"a": 1, "b": "u", "c": 0}, "meets", x),
             _cell("", {"a": 1, "b": "u", "c": 1}, "fails", x, failed_on=IN_X.text),
             _cell("", {"a": 1, "b": "v", "c": 0}, "meets", x),
             _cell("", {"a": 1, "b": "v", "c": 1}, "meets", x),
             _cell("", {"a": 2, "b": "u", "c": 0}, "undecided", x),
             _cell("", {"a": 2, "b": "u", "c": 1}, "fails", x, failed_on=IN_X.text)]
    res = search_result(_ctx([IN_X], ["x"]), cells, [], 4096, "decided", 0.05, 6, 1.0)
    grids = _captured_grids(monkeypatch, res, ["a", "b", "c"], tmp_path)
    ab = grids[0]  # pairs in order: (a, b), (a, c), (b, c)
    assert ab[0] == [0.5, 0.0] and ab[1][0] == 1.0 and math.isnan(ab[1][1])


def _figures(monkeypatch, result, keys, tmp_path):
    """Every heat map figure ``heatmaps`` would save, with the name it would save it under."""
    import matplotlib.pyplot as plt

    import analyzer.charts as charts

    saved = []

    def keep(fig, base):
        ax = fig.axes[0]
        image = ax.images[0]
        saved.append({
            "name": str(base), "title": ax.get_title(), "xlabel": ax.get_xlabel(),
            "ylabel": ax.get_ylabel(), "size": tuple(fig.get_size_inches()),
            "xticks": [t.get_text() for t in ax.get_xticklabels()],
            "yticks": [t.get_text() for t in ax.get_yticklabels()],
            "rotation": ax.get_xticklabels()[0].get_rotation(),
            "clim": image.get_clim(), "cmap": image.get_cmap().name,
            "grid": image.get_array().filled(math.nan).tolist(),
            "foot": [t.get_text() for t in fig.texts]})
        plt.close(fig)
        return [str(base) + ".png"]

    monkeypatch.setattr(charts, "save_figure", keep)
    written = heatmaps(result, keys, tmp_path)
    return saved, written


def test_heat_map_labels_sizes_and_names_by_hand(monkeypatch, tmp_path):
    """Two keys, 2 × 2 squares: width max(4, 0.6·2 + 2) = 4, height max(2.5, 0.45·2 + 1.8)
    = 2.7; verdict colours on a fixed 0..1 scale (red-yellow-green); the footnote names the
    targets, the joint level and the seed; saved as verdicts_a_b."""
    res = search_result(_ctx([IN_X, IN_Y], ["x", "y"]), _in_cells(), [], 8192, "decided",
                        0.05, 8, 1.0)
    [fig], written = _figures(monkeypatch, res, ["a", "b"], tmp_path)
    assert fig["name"] == str(tmp_path / "verdicts_a_b") and written == [fig["name"] + ".png"]
    assert fig["title"] == "tune pig: green meets, yellow undecided, red fails"
    assert (fig["xlabel"], fig["ylabel"]) == ("a", "b")
    assert fig["xticks"] == ["1", "2"] and fig["yticks"] == ["u", "v"] and fig["rotation"] == 0
    assert fig["size"] == pytest.approx((4.0, 2.7))
    assert fig["clim"] == (0, 1) and fig["cmap"] == "RdYlGn"
    assert fig["foot"] == ["targets: x in [0.4, 0.6]; y in [0, 10] (all verdicts together at "
                           "≥ 0.95); seed 9"]


def test_heat_map_of_one_key_and_of_many_values(monkeypatch, tmp_path):
    """One key: one row, no y label, saved as verdicts_a. Ten values: ticks turned 45°, width
    0.6·10 + 2 = 8. Three keys: the title says what a square shows; three pairs."""
    x = {"x": _stat(0.5, 0.45, 0.55)}
    cells = [_cell("", {"a": i}, "meets" if i % 2 else "fails", x,
                   failed_on="" if i % 2 else IN_X.text) for i in range(10)]
    res = search_result(_ctx([IN_X], ["x"]), cells, [], 4096, "decided", 0.05, 10, 1.0)
    [fig], _ = _figures(monkeypatch, res, ["a"], tmp_path)
    assert fig["name"] == str(tmp_path / "verdicts_a") and fig["ylabel"] == ""
    assert fig["yticks"] == [""] and fig["rotation"] == 45
    assert fig["size"] == pytest.approx((8.0, 2.5))
    grid = _captured_grids(monkeypatch, res, ["a"], tmp_path)
    assert grid == [[[0.0, 1.0] * 5]]  # one figure, one row
    three = [_cell("", {"a": 1, "b": "u", "c": c}, "meets", x) for c in (0, 1)]
    res = search_result(_ctx([IN_X], ["x"]), three, [], 4096, "decided", 0.05, 2, 1.0)
    figs, _ = _figures(monkeypatch, res, ["a", "b", "c"], tmp_path)
    assert [f["name"][len(str(tmp_path)) + 1:] for f in figs] == [
        "verdicts_a_b", "verdicts_a_c", "verdicts_b_c"]
    assert figs[0]["title"] == "tune pig: share of cells meeting every target"


def test_search_outputs_are_the_table_and_with_chart_the_heat_maps(tmp_path):
    from analyzer.tune_report import write_search_outputs

    res = search_result(_ctx([IN_X, IN_Y], ["x", "y"]), _in_cells(), [], 8192, "decided",
                        0.05, 8, 1.0)
    files = write_search_outputs(res, ["a", "b"], tmp_path, chart=False)
    assert sorted(files) == [str(tmp_path / "cells.csv"), str(tmp_path / "cells.md")]
    header = (tmp_path / "cells.csv").read_text().splitlines()[0].split(",")
    assert header[:3] == ["cell", "a", "b"] and "x_ci_low" in header and "y_ci_high" in header
    files = write_search_outputs(res, ["a", "b"], tmp_path, chart=True)
    assert sorted(files)[2:] == [str(tmp_path / "verdicts_a_b.png"),
                                 str(tmp_path / "verdicts_a_b.svg")]
    assert (tmp_path / "verdicts_a_b.png").stat().st_size > 0


def test_flat_rows_of_a_closest_target_and_of_an_effect():
    """A '~' target's distance gets its own columns; a statistic with an effect (a sweep's
    difference from the baseline) gets an `_effect` column."""
    cells = [_cell("c=1", {"c": 1}, "meets", {"x": _stat(0.52, 0.41, 0.6)})]
    res = search_result(_ctx([IN_X, NEAR], ["x"]), cells, [], 4096, "decided", 0.05, 1, 1.0)
    [row] = flat_rows(res)
    key = "distance[x ~ 0.5]"
    assert row[key] == pytest.approx(0.02) and row[f"{key}_ci_low"] == 0.0
    assert row[f"{key}_ci_high"] == pytest.approx(0.1)
    planted = {"rows": [{"cell": "k=1", "m": {"estimate": 2.0, "ci_low": 1.0, "ci_high": 3.0,
                                               "effect": 0.5}}]}
    assert flat_rows(planted) == [{"cell": "k=1", "m": 2.0, "m_ci_low": 1.0, "m_ci_high": 3.0,
                                   "m_effect": 0.5}]


def test_equal_grid_of_a_closest_race_by_hand():
    """'~ 0.5': the best cell (the smallest upper end of its distance: cell 1, |x − 0.5| in
    [0, 0.1], estimated 0.02) stays; cell 2 (estimate 0.7, distance 0.2, sd 0.3 but
    the best's sd 0.5 is larger) left the race: the grid must tell them apart at half the gap
    of their estimated distances, (0.2 − 0.02)/2 = 0.09, with the larger sd, and reach cell 2's
    half-width 0.05 for the same interval. Deciding fields: that n times 2 cells × 1 job."""
    from analyzer.tune_stats import equal_grid, grid_z

    best = _cell("c=1", {"c": 1}, "meets", {"x": _stat(0.52, 0.4, 0.6, sd=0.5)})
    out = _cell("c=2", {"c": 2}, "meets", {"x": _stat(0.7, 0.65, 0.75, sd=0.3)}, in_race=False)
    ctx = _ctx([NEAR], ["x"])
    g = equal_grid(ctx, [best, out], 0.05, 2, 1)
    z = grid_z(0.05, 2)
    n_same = math.ceil((z * 0.5 / 0.05) ** 2)
    n_decide = math.ceil((z * 0.5 / 0.09) ** 2)
    assert g["trials_per_cell"] == n_same and g["trials"] == 2 * n_same
    assert g["deciding_trials_per_cell"] == n_decide and g["deciding_trials"] == 2 * n_decide
    rate = best.rate + out.rate  # both cells' own rates equal the average here
    assert g["deciding_seconds"] == pytest.approx(n_decide * rate)
    assert g["intervals"] == 2 and g["z"] == pytest.approx(z)


def test_a_cell_with_aliases_names_them_and_its_policy():
    c = _cell("a=1", {"a": 1}, "meets", {"x": _stat(0.5, 0.45, 0.55)})
    c.aliases = [{"a": 2}, {"a": 3}]
    res = search_result(_ctx([IN_X], ["x"]), [c], [], 1024, "decided", 0.05, 1, 1.0)
    [row] = res["rows"]
    assert row["cell"] == "a=1 (and 2 more with the same rules)"
    assert row["policy"] == "p" and row["same_rules_as"] == [{"a": 2}, {"a": 3}]
    assert row["n"] == 1024 and row["x"] == {"estimate": 0.5, "ci_low": 0.45, "ci_high": 0.55,
                                             "se": 0.01, "n": 1024}
