"""`trash-pandas calibrate`: the summary's formulas on values set by hand, a frozen position whose
true value is known exactly, positions frozen as a stopping time and hidden from the
prediction, the command's files, errors and Ctrl-C."""
import contextlib
import itertools
import json
import math
import os
import signal
import time

import numpy as np
import pytest

from analyzer.cli.main import main as pushluck
from analyzer.games.trash_pandas import calibrate as C
from kernels.trash_pandas.layout import DECK, DISC, HAND, SC, STASH, UP

FEESH, DOGGO = 2, 1


def _row(ps, pr, ts, tr, var=0.0):
    return {"pred_stop": ps, "pred_roll": pr, "true_stop": ts, "true_roll": tr,
            "pred_margin": pr - ps, "true_margin": tr - ts,
            **{f"{a}_{b}_var": var for a in ("pred", "true") for b in ("stop", "roll", "margin")}}


def test_student_t_quantiles_by_value():
    for dof, t in [(1, 12.7062), (2, 4.3027), (3, 3.1824), (4, 2.7764), (5, 2.5706),
                   (10, 2.2281), (30, 2.0423), (100, 1.9840)]:
        assert C.t95(dof) == pytest.approx(t, abs=0.003)


def test_bias_is_predicted_minus_true_with_its_interval_and_noise_share():
    rows = [_row(0.5, 0.6, 0.4, 0.45, var=0.0004), _row(0.3, 0.5, 0.3, 0.4, var=0.0004),
            _row(0.2, 0.2, 0.1, 0.1, var=0.0004)]
    stop = C.bias_of(rows, "stop")  # d = 0.1, 0.0, 0.1
    assert stop["bias"].estimate == pytest.approx(0.2 / 3)
    sd = math.sqrt(((0.1 - 0.2 / 3) ** 2 * 2 + (0.2 / 3) ** 2) / 2)
    assert stop["bias"].se == pytest.approx(sd / math.sqrt(3))
    assert stop["bias"].ci_high == pytest.approx(0.2 / 3 + 4.3027 * sd / math.sqrt(3), abs=1e-3)
    assert stop["noise_share"] == pytest.approx(0.0008 / sd ** 2)
    assert stop["rmse_belief"] == pytest.approx(math.sqrt(0.02 / 3 - 0.0008))
    assert not stop["shown"] and stop["verdict"] == "outside the bar"
    margin = C.bias_of(rows, "margin")  # (0.1 − 0.05), (0.2 − 0.1), (0 − 0)
    assert margin["bias"].estimate == pytest.approx(0.05) and margin["bar"] == 0.01


def test_a_bar_is_shown_only_when_the_whole_interval_is_inside_it():
    close = [_row(0.5 + e, 0.5, 0.5, 0.5) for e in (0.001, -0.001, 0.002, 0.0, 0.001, -0.002)]
    assert C.bias_of(close, "stop")["shown"]
    wide = [_row(0.5 + e, 0.5, 0.5, 0.5) for e in (0.05, -0.05, 0.06, -0.06)]
    res = C.bias_of(wide, "stop")
    assert abs(res["bias"].estimate) <= 0.02 and not res["shown"]
    assert res["verdict"] == "estimate inside the bar, interval not"


def test_reliability_bins_and_an_honest_interval_when_every_true_value_is_zero():
    rows = [_row(0.05, 0.5, 0.0, 0.5), _row(0.07, 0.5, 0.0, 0.5), _row(0.93, 0.5, 1.0, 0.5)]
    rel = {(r["choice"], r["bin_low"]): r for r in C.reliability(rows, playouts=1000)}
    low = rel[("stop", 0.0)]
    assert low["positions"] == 2 and low["predicted"] == pytest.approx(0.06)
    assert low["true"].estimate == 0.0 and low["true"].ci_low == 0.0
    z2 = 1.959963984540054 ** 2
    assert low["true"].ci_high == pytest.approx(z2 / (2000 + z2))  # Wilson on 2,000 playouts
    high = rel[("stop", 0.9)]
    assert high["true"].ci_high == 1.0 and high["true"].ci_low < 1.0
    assert rel[("roll", 0.5)]["positions"] == 3


def _small_setup(tmp_path):
    from analyzer.games.trash_pandas.lineup import parse_lineup
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.games.trash_pandas.whole import GameSetup
    from analyzer.rules import build_rules

    text = ""
    for k, c in zip(("blammo", "doggo", "feesh", "kitteh", "pie", "nanners", "shiny",
                     "yumyum"), (0, 1, 3, 0, 0, 0, 0, 0)):
        text += f"[cards.{k}]\ncopies = {c}\n" + ("per_card = 1\n" if k == "blammo" else
                                                 f"points = {[5, 3, 1] if c == 3 else [0, 0, 0]}\n")
    (tmp_path / "deck.toml").write_text(text)
    rules = build_rules(TrashPandasRules, None, [f"deck={tmp_path / 'deck.toml'}"])
    return GameSetup(rules, 2, [parse_lineup(None, 2)], from_setup=False)


def test_a_frozen_position_with_a_known_truth(tmp_path):
    """Seat 1 holds trash; the pile is empty. True hidden cards: seat 2 holds the Doggo in hand
    and the Feesh face down (as its bot would). Stopping: 1 Feesh each, a shared win, 1/2 in
    every trial; the model belief knows seat 2 stashes no Doggo and predicts 1/2 exactly; the
    uniform deal predicts 3/4 (a Doggo face down half the time: I win 5 to 0)."""
    from analyzer.games.trash_pandas.belief import belief_for

    setup = _small_setup(tmp_path)
    g = np.zeros((19, 8), dtype=np.int64)
    g[HAND + 0, FEESH] = 1
    g[STASH + 0, FEESH] = 1
    g[HAND + 1, DOGGO] = 1
    g[STASH + 1, FEESH] = 1
    g[SC, 1], g[SC, 2] = 1, 2
    fz = C.Frozen(g, 0, 1, 0, 0)  # held: trash (token 0)
    model = C.position_values(fz, 0, setup, belief_for("model", setup), 400, 3)
    assert model["true_stop"] == 0.5 and model["true_stop_var"] == 0.0
    assert model["pred_stop"] == 0.5 and model["cards_left"] == 0
    uniform = C.position_values(fz, 0, setup, belief_for("uniform", setup), 4000, 3)
    assert abs(uniform["pred_stop"] - 0.75) < 4 * math.sqrt(0.75 * 0.25 / 4000)
    assert uniform["true_stop"] == 0.5
    assert uniform["pred_stop_var"] == pytest.approx(0.0625 / 3999 * (1 + 0 / 4000), rel=0.2)


@pytest.fixture(scope="module")
def heuristic3():
    from analyzer.games.trash_pandas.lineup import parse_lineup
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.games.trash_pandas.whole import GameSetup

    return GameSetup(TrashPandasRules(), 3, [parse_lineup(None, 3)])


def test_positions_are_frozen_the_same_way_every_time_and_hide_the_hidden_cards(heuristic3):
    copies = [7, 6, 7, 6, 7, 7, 7, 6]
    first = list(itertools.islice(C.frozen_positions(heuristic3, 6, 5), 12))
    again = list(itertools.islice(C.frozen_positions(heuristic3, 6, 5), 12))
    assert [f.game for f in first] == [f.game for f in again]
    assert all((a.state == b.state).all() for a, b in zip(first, again))
    for fz in first:
        g = fz.state
        assert g[SC, 0] <= 6 and g[DECK].sum() == g[SC, 0]
        assert bin(fz.held).count("1") < (6 if fz.mode == 0 else 3)
        for t in range(8):
            assert g[DISC, t] + g[DECK, t] + sum(g[HAND + q, t] + g[STASH + q, t]
                                                 for q in range(3)) == copies[t]
        pos = C.public_position(fz, heuristic3)
        hidden = g[DECK].copy()
        for q in range(3):
            if q != fz.me:
                assert pos.g0[HAND + q].sum() == 0 and (pos.g0[STASH + q] == g[UP + q]).all()
                assert pos.opp_hand[q] == g[HAND + q].sum()
                assert pos.opp_down[q] == (g[STASH + q] - g[UP + q]).sum()
                hidden += g[HAND + q] + g[STASH + q] - g[UP + q]
        assert pos.g0[DECK].sum() == 0 and (pos.pool == hidden).all()
        assert (pos.g0[HAND + fz.me] == g[HAND + fz.me]).all() and pos.held == fz.held


def _run(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        pushluck(["trash-pandas", "calibrate"] + argv)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_calibrate_json_is_one_object_with_the_biases(capsys):
    try:
        pushluck(["trash-pandas", "calibrate", "--players", "3", "-n", "8", "--playouts", "64",
                  "--max-cards-left", "4", "--seed", "2", "--no-progress", "--json"])
    except SystemExit as exc:
        assert exc.code in (0, None)
    out = json.loads(capsys.readouterr().out)
    assert out["positions"] == 8 and out["players"] == 3 and out["seed"] == 2
    assert all(r["cards_left"] <= 4 for r in out["rows"])
    for key in ("stop", "roll"):
        b = out["choices"][key]["bias"]
        assert b["n"] == 8 and b["ci_low"] <= b["estimate"] <= b["ci_high"]
    assert out["margin"]["bar"] == 0.01 and out["belief"]["name"] == "model"
    assert out["seats"][2] == {"seat": 3, "bot": "solver"}  # decide's default line-up


@pytest.mark.parametrize("argv, words", [
    (["--chart"], "--out"),
    (["--belief", "psychic"], "--belief"),
    (["--seats", "rollout:4"], "rollout"),
    (["--players", "3", "--seats", "heuristic;random"], "--seats"),
])
def test_bad_options_are_one_line_and_exit_2(capsys, argv, words):
    code, out, err = _run(argv + ["-n", "2"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err


def test_out_and_chart_write_tables_and_the_reliability_chart_only_under_out(tmp_path, capsys):
    out_dir = tmp_path / "cal"
    try:
        pushluck(["trash-pandas", "calibrate", "--players", "2", "-n", "5", "--playouts", "32",
                  "--seed", "1", "--no-progress", "--out", str(out_dir), "--chart"])
    except SystemExit as exc:
        assert exc.code in (0, None)
    text = capsys.readouterr().out
    assert "roll − stop" in text and "reliability" in text
    names = sorted(p.name for p in out_dir.iterdir())
    assert names == sorted(f"tp_calibrate_{t}.{e}" for t in ("bias", "reliability", "positions")
                           for e in ("csv", "md")) + ["tp_calibrate_reliability.png",
                                                       "tp_calibrate_reliability.svg"]
    assert [p.name for p in tmp_path.iterdir()] == ["cal"]


def test_ctrl_c_prints_the_finished_positions_and_exits_130():
    from tests.test_interrupts import _read_until, _read_until_done, _start_on_a_terminal

    proc, master = _start_on_a_terminal(["trash-pandas", "calibrate", "--players", "2", "-n",
                                         "100000", "--playouts", "64", "--seed", "1", "--json",
                                         "--progress"])
    with contextlib.ExitStack() as cleanup:  # never leave a run of 100,000 positions behind
        cleanup.callback(os.close, master)
        cleanup.callback(lambda: proc.poll() is None and proc.kill())
        # the bar shows two positions done: with one, the run ends in the one-line "one position
        # only had finished" (a bias needs two), which a loaded machine reached in one suite run
        seen = _read_until_done(master, 100000, 2)
        assert b"/100000" in seen, seen[-500:]
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=120)
        err = seen + _read_until(master, b"\0", timeout=2)
    assert proc.returncode == 130, err[-500:]
    payload = json.loads(out)
    assert payload["interrupted"] is True and payload["positions"] >= 2
    assert payload["positions"] == len(payload["rows"]) < 100000
    assert b"Traceback" not in err
