"""Trash Pandas and Ten `decide` say their answer in its unit with its interval (issue 35: "every
verdict carries its unit"), in the sentence shape of the other games' Monte Carlo verdicts
(analyzer/words.py ``sampled_verdict``): "roll: +0.050 chance of winning over stop [+0.011,
+0.089]", or "too close to call at n = … playouts: … leads by …" when the interval holds 0.

The Trash Pandas cases are built by hand (choices, per-choice sums, paired differences), so the
expected strings are written out here, signs and decimals included (decimals: to the SE's
second significant digit)."""
from __future__ import annotations

import json
import subprocess
import sys

from analyzer.stats import Statistic


def _tp(choices, wins, diffs, n=1000):
    """rows and sums as trash_pandas.decide.decide makes them: sums[4c] = wins of choice c,
    rows[c]["vs_<first>"] the paired difference choice c − the first choice."""
    from analyzer.games.trash_pandas.decide import verdict_words

    sums = [0.0] * (4 * len(choices))
    for c, w in enumerate(wins):
        sums[4 * c] = w
    rows = [{"choice": choices[0][0]}] + [
        {"choice": c[0], "vs_" + choices[0][0]: d} for c, d in zip(choices[1:], diffs)]
    return verdict_words(rows, choices, sums, n)


def test_trash_pandas_roll_leads_by_its_paired_difference():
    said = _tp([("stop", 0), ("roll", 1)], [100, 150],
               [Statistic(0.05, 0.02, 0.011, 0.089, 1000)])
    assert said == "roll: +0.050 chance of winning over stop [+0.011, +0.089]"


def test_trash_pandas_stop_leads_the_sign_turns_and_the_closest_alternative_is_named():
    said = _tp([("stop", 0), ("roll", 1), ("feesh-blammo", 2)], [200, 140, 100],
               [Statistic(-0.06, 0.02, -0.099, -0.021, 1000),
                Statistic(-0.10, 0.02, -0.139, -0.061, 1000)])
    assert said == "stop: +0.060 chance of winning over roll [+0.021, +0.099]"


def test_trash_pandas_an_alternative_not_separated_makes_it_too_close_to_call():
    """roll is closer by estimate but separated; feesh-blammo's interval holds 0: the words
    name feesh-blammo, so they agree with the recommendation "too close to call"."""
    said = _tp([("stop", 0), ("roll", 1), ("feesh-blammo", 2)], [200, 120, 110],
               [Statistic(-0.08, 0.02, -0.119, -0.041, 1000),
                Statistic(-0.09, 0.056, -0.2, 0.02, 1000)])
    assert said == ("too close to call at n = 1,000 playouts: stop leads by +0.090 chance of "
                    "winning over feesh-blammo [-0.020, +0.200]")


def test_trash_pandas_decide_prints_the_verdict_with_its_unit():
    proc = subprocess.run([sys.executable, "-m", "analyzer", "trash-pandas", "decide",
                           "--example", "basic", "-n", "300", "--seed", "1", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert "chance of winning over" in out["verdict"]


def test_ten_decide_words_are_the_selection_it_made():
    """The verdict names the best choice and the runner-up of the JSON's own selection, with
    that difference's simultaneous interval at the decimals of its SE."""
    from analyzer.words import decimals_for_se

    proc = subprocess.run([sys.executable, "-m", "analyzer", "ten", "decide", "--example",
                           "auction", "-n", "300", "--seed", "1", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    sel = out["selection"]
    runner = min(sel["vs"], key=lambda c: sel["vs"][c]["estimate"])
    d = sel["vs"][runner]
    k = decimals_for_se(d["se"])
    numbers = (f"{d['estimate']:+.{k}f} chance of winning over {runner} "
               f"[{d['ci_low']:+.{k}f}, {d['ci_high']:+.{k}f}]")
    if d["ci_low"] <= 0 <= d["ci_high"]:
        head = f"too close to call at n = {out['n']:,} playouts: {sel['best']} leads by "
    else:
        head = f"{sel['best']}: "
    assert out["verdict"].startswith(head + numbers), out["verdict"]
    assert f"z = {sel['z']:.3f}" in out["verdict"]
