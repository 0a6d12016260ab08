"""Monte Carlo decide verdicts in Go-Stop, Railroad Canasta and MAGDAGDON (issue 35, words):
the answer is said in the unit it is in, with its 95% interval, in the shape of the exact
verdicts ("roll: +0.027 chance of winning"): "go: +0.83 chips [+0.12, +1.54]", and "too close to
call at n = … playouts: stop leads by …" when the interval holds 0.

The expected strings are written by hand; the command tests read the margin from the command's
own JSON (the statistic) and check the text says that statistic, with the reflection done here.
"""
from __future__ import annotations

import json
import re

import pytest

from analyzer.stats import Statistic
from tests.fuzz_harness import run_inprocess


def test_a_separated_margin_names_the_choice_the_unit_and_the_interval():
    from analyzer.words import sampled_verdict

    # SE 0.36: two decimals (the SE's second significant digit)
    got = sampled_verdict("go", Statistic(0.83, 0.36, 0.12, 1.54, 100), "chips", 100)
    assert got == "go: +0.83 chips [+0.12, +1.54]"
    # SE 31: no decimals
    got = sampled_verdict("take the pile", Statistic(120.4, 31.0, 59.6, 181.2, 50), "points", 50)
    assert got == "take the pile: +120 points [+60, +181]"


def test_an_interval_holding_zero_is_too_close_to_call_with_the_leader_and_n():
    from analyzer.words import sampled_verdict

    got = sampled_verdict("stop", Statistic(0.031, 0.129, -0.222, 0.284, 2000), "chips", 2000)
    assert got == "too close to call at n = 2,000 playouts: stop leads by +0.03 chips " \
                  "[-0.22, +0.28]"
    # an end exactly at 0 is not separated either; another sample unit (SE 0.5: 2 decimals)
    got = sampled_verdict("a", Statistic(1.0, 0.5, 0.0, 2.0, 9), "points", 9, "games")
    assert got == "too close to call at n = 9 games: a leads by +1.00 points [+0.00, +2.00]"
    # just past 0 it is an answer
    assert sampled_verdict("a", Statistic(1.0, 0.5, 0.01, 2.0, 9), "points", 9) == \
        "a: +1.00 points [+0.01, +2.00]"
    # SE 0 (every playout the same): four decimals, no "-0"
    assert sampled_verdict("b", Statistic(0.0, 0.0, -0.0, 0.0, 5), "chips", 5) == \
        "too close to call at n = 5 playouts: b leads by +0.0000 chips [+0.0000, +0.0000]"


def _run(*argv):
    code, out, err, tb = run_inprocess(list(argv), timeout=240)
    assert not tb and code == 0, (tb, err)
    return out


def _verdict_line(text: str) -> str:
    """The '→' line with its wrapped continuation joined (the text fits 80 columns)."""
    lines = text.split("\n")
    i = next(k for k, x in enumerate(lines) if x.lstrip().startswith("→"))
    got = lines[i].strip()
    for x in lines[i + 1:]:
        if not x.startswith("    ") or x.lstrip().startswith(("(", "→")):
            break
        got += " " + x.strip()
    assert all(len(x) <= 80 for x in lines), [x for x in lines if len(x) > 80]
    return got[1:].strip()


def _said(d: dict, places: int) -> tuple[str, str, str]:
    """The leader's margin (|d|, the interval reflected when d < 0) as the text prints it."""
    est, lo, hi = d["estimate"], d["ci_low"], d["ci_high"]
    if est < 0:
        est, lo, hi = -est, -hi, -lo
    return tuple(f"{round(x, places) + 0.0:+.{places}f}" for x in (est, lo, hi))


def _places(se: float) -> int:
    import math

    return max(0, 1 - math.floor(math.log10(se)))


@pytest.mark.parametrize("n", ["2000", "40"])
def test_gostop_decide_says_the_answer_in_chips_with_its_interval(n):
    argv = ["gostop", "decide", "--example", "basic", "-n", n, "--seed", "1"]
    got = json.loads(_run(*argv, "--json"))
    d = got["difference_go_minus_stop"]
    line = _verdict_line(_run(*argv))
    est, lo, hi = _said(d, _places(d["se"]))
    leader = "go" if d["estimate"] > 0 else "stop"
    said = f"{leader}{' leads by' if d['ci_low'] <= 0 <= d['ci_high'] else ':'} {est} chips " \
           f"[{lo}, {hi}]"
    assert line.endswith(said), (line, said)
    assert ("too close to call" in line) == (d["ci_low"] <= 0 <= d["ci_high"])


@pytest.mark.parametrize("objective,unit", [("own", "points of your round score"),
                                            ("lead", "points of lead over the best opponent")])
def test_canasta_decide_says_the_answer_in_points_of_the_objective(objective, unit):
    argv = ["canasta", "decide", "--example", "goout", "-n", "200", "--seed", "1",
            "--objective", objective]
    got = json.loads(_run(*argv, "--json"))
    d = got["difference_a_minus_b" if objective == "own" else
            "lead_over_best_opponent_difference"]
    line = _verdict_line(_run(*argv))
    a, b = got["options"]
    est, lo, hi = _said(d, _places(d["se"]))
    assert d["ci_low"] > 0 or d["ci_high"] < 0, d  # this example separates both objectives
    assert line == f"{a if d['estimate'] > 0 else b}: {est} {unit} [{lo}, {hi}]", line
    # by own score playing on leads (the difference is negative), by lead going out does
    assert (objective == "own") == line.startswith("play on")


def test_magdagdon_best_says_the_answer_in_points_of_final_score_over_the_second():
    argv = ["magdagdon", "best", "--board", "33../34../45../....", "--roll", "1256", "-n",
            "400", "--seed", "1", "--top", "3"]
    got = json.loads(_run(*argv, "--json"))
    m = got["margin_over_second"]
    line = _verdict_line(_run(*argv))
    est, lo, hi = _said(m, _places(m["se"]))
    top = got["top"][0]["text"]
    if m["ci_low"] <= 0 <= m["ci_high"]:
        assert line == (f"too close to call at n = 400 games: {top} leads by {est} points of "
                        f"final score over the 2nd [{lo}, {hi}]"), line
    else:
        assert line == f"{top}: {est} points of final score over the 2nd [{lo}, {hi}]", line
    assert re.search(r"\[[+-]\d", line)
