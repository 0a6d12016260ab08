"""Statistic helpers pinned by value at the edges (exactly 0 and 1)."""
from __future__ import annotations

import pytest


def test_a_paired_share_difference_with_no_spread_keeps_the_wilson_bounds():
    """Neither choice won in 300 playouts: the paired SE is 0, so the interval is the one the two
    Wilson intervals allow: Wilson's upper bound for 0 of 300 is z²/(n + z²) = 3.8415/303.8415
    = 0.012643, hence [−0.012643, +0.012643]; with spread the paired interval stands."""
    from analyzer.stats import paired_share_difference, wilson

    a, b = wilson(0, 300), wilson(0, 300)
    d = paired_share_difference(0.0, 0.0, 300, a, b)
    assert d.estimate == 0 and d.se == 0
    assert d.ci_low == pytest.approx(-0.012643, abs=1e-6)
    assert d.ci_high == pytest.approx(0.012643, abs=1e-6)
    assert d.contains_zero()
    # one won every time, the other never: the difference 1 is certain only as far as Wilson says
    d = paired_share_difference(300.0, 300.0, 300, wilson(300, 300), wilson(0, 300))
    assert d.estimate == 1 and d.ci_low == pytest.approx(1 - 2 * 0.012643, abs=1e-6)
    spread = paired_share_difference(30.0, 50.0, 300, wilson(60, 300), wilson(30, 300))
    assert spread.se > 0 and spread.ci_high < 0.2
