"""`--precision` and the statistical constants, pinned by value.

* Each Monte Carlo entry point hands the runner a *headline*: the figure whose 95% half-width
  `--precision` targets. The help of each command says which one it is (the paired difference of
  a decide, seat 0's figure of a simulation); here the job each entry point builds is captured and
  its headline evaluated on planted sums, against the half-width worked out by hand for the
  column the help names (z · s/√n, s² the sample variance), with every other column planted
  differently so that a headline reading another column fails.
* A real `--precision` run stops at a milestone block count with the headline's half-width at
  most the target, and says so.
* The constants of analyzer/stats.py and analyzer/runner.py by value: the 95% z, the Bonferroni
  quantiles at other levels, the rare-event threshold and the runner's caps.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pytest

from analyzer.runner import RunResult, RunSpec

Z = 1.959963984540054
DATA = Path(__file__).resolve().parents[1] / "analyzer" / "data"


@dataclass(frozen=True)
class Capture(RunSpec):
    """A run specification that records the job it is given and returns planted sums."""

    sums: tuple = ()
    jobs: list = None

    def run(self, job, **kwargs) -> RunResult:
        self.jobs.append(job)
        return RunResult(np.array(self.sums, dtype=np.float64), self.n, self.seed, 1, 0.5)


def half_width(xs):
    n = len(xs)
    m = sum(xs) / n
    return Z * math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def planted(width, columns):
    """Column sums where ``columns`` maps a column to its per-trial values (Σx); every other
    column gets a count from 1 to 5 (a valid count of successes among 6 trials)."""
    s = 1.0 + np.arange(width) % 5
    for col, xs in columns.items():
        s[col] = sum(xs)
    return s


def captured_headline(call, sums, n):
    jobs = []
    spec = Capture(n, 1, progress=False, sums=tuple(sums), jobs=jobs)
    call(spec)
    assert len(jobs) == 1
    return jobs[0].headline_half_width(np.array(sums, dtype=np.float64), n)


XS = [3.0, -1.0, 4.0, 1.0, -5.0, 9.0]  # the headline's per-trial values


def test_gostop_decide_targets_the_difference_go_minus_stop():
    import tomllib

    from analyzer.games.gostop import decide as GD
    from analyzer.games.gostop.play import Policy
    from analyzer.games.gostop.rules import GoStopRules
    from kernels.gostop import batch as KB

    pos = tomllib.loads((DATA / "gostop_position_example.toml").read_text())["position"]
    sums = planted(KB.ND, {KB.D_DIFF: XS, KB.D_DIFF2: [x * x for x in XS], KB.D_ERR: [0]})
    hw = captured_headline(lambda spec: GD.decide(dict(pos), GoStopRules(), Policy("greedy"),
                                                  Policy("greedy"), spec), sums, len(XS))
    assert hw == pytest.approx(half_width(XS), rel=1e-12)


def test_canasta_decide_targets_the_paired_difference_of_own_scores():
    import tomllib

    from analyzer.games.canasta.decide import decide
    from analyzer.games.canasta.lineup import parse_policies
    from analyzer.games.canasta.rules import CanastaRules

    data = tomllib.loads((DATA / "canasta_position_example.toml").read_text())
    sums = planted(60, {5: XS, 6: [x * x for x in XS], 7: [0]})
    hw = captured_headline(lambda spec: decide(data, CanastaRules(), parse_policies("greedy", 2),
                                               spec), sums, len(XS))
    assert hw == pytest.approx(half_width(XS), rel=1e-12)


def test_gostop_simulate_targets_seat_0s_mean_net_payment():
    from analyzer.games.gostop.play import Policy, simulate
    from analyzer.games.gostop.rules import GoStopRules
    from kernels.gostop import batch as K

    sums = planted(K.NCOL, {K.C_NET: XS, K.C_NET2: [x * x for x in XS], K.C_ERR: [0]})
    hw = captured_headline(lambda spec: simulate(GoStopRules(), [Policy("greedy")] * 2, spec),
                           sums, len(XS))
    assert hw == pytest.approx(half_width(XS), rel=1e-12)


def test_ten_game_targets_seat_0s_win_rate_of_lineup_a():
    from analyzer.games.ten.decide import play_games
    from analyzer.games.ten.lineup import check_lineups
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.games.ten.whole import Setup
    from analyzer.rules import build_rules
    from kernels.ten import whole_layout as L

    wins = [1, 0, 0.5, 1, 0, 0]
    setup = Setup(build_rules(TenRules), load_deck(None), 2,
                  check_lineups(["threshold", "random"], 2))
    i = 1 + 2 * L.REC_NAMES.index("win_0")  # after 'games': Σx, Σx² of each record field
    sums = planted(2 * L.LW + L.DW, {0: [1] * 6, i: wins, i + 1: [w * w for w in wins],
                                     L.LW: [1] * 6})
    hw = captured_headline(lambda spec: play_games(setup, spec), sums, len(wins))
    assert hw == pytest.approx(half_width(wins), rel=1e-12)


def test_a_real_precision_run_stops_at_a_milestone_within_the_target():
    import tomllib

    from analyzer.games.gostop import decide as GD
    from analyzer.games.gostop.play import Policy
    from analyzer.games.gostop.rules import GoStopRules

    pos = tomllib.loads((DATA / "gostop_position_example.toml").read_text())["position"]
    target = 0.11  # seed 3: reached at 12 blocks (10 blocks: 0.1146)
    out = GD.decide(dict(pos), GoStopRules(), Policy("greedy"), Policy("greedy"),
                    RunSpec(None, 3, precision=target, progress=False))
    d = out["difference_go_minus_stop"]
    assert out["stopped_by"] == "precision"
    assert d.half_width <= target
    # blocks of 1,024 playouts checked at 8, 10, 12, 15, 18, 22, ... blocks
    milestones, b = [], 8
    while b < 10_000:
        milestones.append(b)
        b = max(b + 1, int(b * 1.25))
    assert out["n"] % 1024 == 0 and out["n"] // 1024 in milestones
    # one milestone earlier the same seed would not have been precise enough
    k = milestones.index(out["n"] // 1024)
    assert k > 0
    earlier = GD.decide(dict(pos), GoStopRules(), Policy("greedy"), Policy("greedy"),
                        RunSpec(milestones[k - 1] * 1024, 3, progress=False))
    assert earlier["difference_go_minus_stop"].half_width > target


# ---- constants ------------------------------------------------------------------------------------

def test_the_95_percent_z_and_the_bonferroni_quantiles():
    from analyzer import stats

    assert stats.Z95 == 1.959963984540054 == pytest.approx(NormalDist().inv_cdf(0.975), abs=1e-15)
    assert stats.bonferroni_z(2) == pytest.approx(2.241402727604947, rel=1e-12)
    assert stats.bonferroni_z(0) == stats.bonferroni_z(1) == pytest.approx(Z, rel=1e-12)
    # other joint levels: 99% (one cell) and 90% over 5 cells (alpha 0.02 each)
    assert stats.bonferroni_z(1, 0.99) == pytest.approx(2.5758293035489004, rel=1e-12)
    assert stats.bonferroni_z(5, 0.90) == pytest.approx(2.3263478740408408, rel=1e-12)
    # every interval of the module is mean ± Z95·SE
    st = stats.mean_from_sums(10.0, 30.0, 4)  # x with Σx = 10, Σx² = 30: s² = 5/3
    assert st.half_width == pytest.approx(Z * math.sqrt(5 / 3 / 4), rel=1e-12)


def test_the_rare_event_threshold_is_30_on_both_sides():
    from analyzer.stats import RARE_MIN, mean_with_rare

    assert RARE_MIN == 30

    def kind(k, n):
        # k rare trials worth 6, the rest worth 1 or 2 alternately
        s1 = 6.0 * k + sum(1.0 + (i % 2) for i in range(n - k))
        s2 = 36.0 * k + sum((1.0 + (i % 2)) ** 2 for i in range(n - k))
        _stat, normal = mean_with_rare(s1, s2, n, k, 6.0 * k, 36.0 * k, (6.0, 6.0), (0.0, 6.0))
        return normal

    assert kind(30, 60) and not kind(29, 60) and not kind(30, 59)
    assert kind(31, 61)


def test_the_runner_caps_by_value():
    from analyzer import runner

    assert runner.DEFAULT_TIME_LIMIT == 60.0
    assert runner.DEFAULT_PRECISION_CAP == 10 ** 10
    assert runner.MAX_TRIALS == 10 ** 12
