"""Numbers for people: estimates rounded to what their standard error supports, intervals as
``0.294 [0.288, 0.301]`` and "—" for a missing value (never ``nan`` or ``None``).

Rounding rule (:func:`decimals_for`): a figure with standard error ``se`` is shown to the decimal
of the SE's leading digit, ``d = -floor(log10(se))`` (se 0.0033 → 3 decimals, 0.04 → 2,
0.6 → 1, 3.2 → 0), clamped to 0..6; a column of a table takes the median of its rows' ``d``
(:func:`column_decimals`), so one column never mixes 0.5089 and 0.46444. Exact figures (se 0)
keep a stated number of decimals. No pandas, no NumPy: findings import this.
"""
from __future__ import annotations

import math

#: what a missing cell shows
MISSING = "—"


def decimals_for(se: float, default: int = 3) -> int:
    """Decimals an estimate with standard error ``se`` supports (module doc); ``default`` when
    the SE is zero or not finite (an exact figure)."""
    if se is None or not math.isfinite(se) or se <= 0:
        return default
    return min(6, max(0, -math.floor(math.log10(se))))


def effective_se(stat) -> float:
    """The SE a statistic's decimals follow: its own, or for an estimate with SE 0 but an
    interval of some width (a rate of 0 or 1, Wilson's interval) the width / 3.92."""
    if stat.se > 0 or stat.ci_high <= stat.ci_low:
        return stat.se
    return (stat.ci_high - stat.ci_low) / 3.92


def column_decimals(ses, default: int = 3) -> int:
    """One number of decimals for a column: the median of its rows' :func:`decimals_for`
    (rows without a positive SE left out; ``default`` if none has one)."""
    ds = sorted(decimals_for(se) for se in ses if se is not None and math.isfinite(se) and se > 0)
    return ds[len(ds) // 2] if ds else default


def number(x: float, decimals: int, percent: bool = False) -> str:
    """``x`` with ``decimals`` decimals (× 100 and no sign of −0 when ``percent``), thousands
    separated by commas; "—" for a missing or non-finite value."""
    if x is None or not math.isfinite(x):
        return MISSING
    if x == 0:
        return "0"  # an exact zero (no event seen) needs no decimals
    if percent:
        x *= 100.0
    text = f"{x:,.{decimals}f}"
    if text.lstrip("-").strip("0.,") == "":
        text = text.lstrip("-")
    return text


def interval(stat, decimals: int | None = None, percent: bool = False,
             signed: bool = False, points: bool = False) -> str:
    """``estimate [low, high]`` of a statistic object, rounded to ``decimals`` (by default what
    its SE supports). ``percent``: × 100 with a "%" on the estimate; ``points``: × 100 without
    it (a difference of shares in percentage points). ``signed`` shows a "+" on positive
    estimates (differences)."""
    if stat is None:
        return MISSING
    scaled = percent or points
    scale = 100.0 if scaled else 1.0
    d = decimals_for(effective_se(stat) * scale) if decimals is None else decimals
    est = number(stat.estimate, d, scaled)
    if signed and stat.estimate * scale >= 0.5 * 10 ** -d and est != MISSING:
        est = "+" + est
    mark = "%" if percent else ""
    if stat.ci_low == stat.ci_high == stat.estimate:
        return est + mark
    return (f"{est}{mark} [{number(stat.ci_low, d, scaled)}, "
            f"{number(stat.ci_high, d, scaled)}]")
