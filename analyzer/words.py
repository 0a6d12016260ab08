"""Plain words for the numbers a player reads: digits, percentages, units and verdicts.

What belongs here: formatting shared by the exact queries (`pig decide`, `ten best`, the `odds`
commands) and `advice`. Pure Python (no numpy), no printing, cheap to import: the
stop-or-continue queries use it.

Digits.

* An **exact** number is shown with :data:`SIG` significant digits (:func:`sig`): 0.027095 →
  0.0271, 0.546434 → 0.546, 12.34 → 12.3; never in scientific notation.
* An **exact probability** is shown in percent (:func:`percent`), one decimal at least, with
  :data:`SIG` significant digits when it is at most ½ and down to the first significant digit
  of its complement above (0.685412 → 68.5%, 0.99996 → 99.996%, 0.000123 → 0.0123%), so that
  no probability short of certain prints as 100%; exactly "0%" and "100%" at the ends; when two
  probabilities are compared the caller passes the decimals that keep their difference visible
  (:func:`decimals_to_show`).
* A **Monte Carlo** figure is shown to the decimal of its standard error's second significant
  digit (:func:`decimals_for_se`): SE 0.0032 → 4 decimals, SE 0.21 → 2.

Lines longer than :data:`WIDTH` are wrapped (:func:`fit`), a continuation indented two more.

Verdicts (:func:`verdict`) name the choice and the margin with its unit:
"roll: +0.505 chance of winning", "stop, take the numbers: +0.294 card-equivalents"; a Monte
Carlo verdict (:func:`sampled_verdict`) adds the margin's 95% interval, "go: +0.83 chips
[+0.12, +1.54]", or says "too close to call" when the interval holds 0.
"""
from __future__ import annotations

import math
from typing import Sequence

#: columns every text a player reads fits in
WIDTH = 80
#: significant digits of an exact number a player reads
SIG = 3
#: most decimals ever printed (a margin below 1e-9 is printed as 0 to this many places)
MAX_DECIMALS = 9


def decimals_for_sig(x: float, digits: int = SIG) -> int:
    """Decimals that show ``x`` with ``digits`` significant digits (0 for |x| ≥ 10^(digits−1);
    at most :data:`MAX_DECIMALS`; ``digits − 1`` for 0)."""
    x = abs(float(x))
    if x == 0 or not math.isfinite(x):
        return max(0, digits - 1)
    return max(0, min(MAX_DECIMALS, digits - 1 - math.floor(math.log10(x))))


def sig(x: float, digits: int = SIG) -> str:
    """``x`` with ``digits`` significant digits in fixed notation (module doc)."""
    if not math.isfinite(float(x)):
        return str(x)
    d = decimals_for_sig(x, digits)
    # rounding can add a digit (0.09996 -> 0.1000): recount on the rounded value
    r = round(float(x), d)
    if r != 0:
        d = decimals_for_sig(r, digits)
    return f"{float(x):.{d}f}"


def signed(x: float, digits: int = SIG) -> str:
    """:func:`sig` with its sign always shown ("+0.0271", "-0.0271")."""
    s = sig(x, digits)
    return s if s.startswith("-") else "+" + s


def decimals_for_se(se: float) -> int:
    """Decimals of a Monte Carlo figure with standard error ``se``: down to the SE's second
    significant digit (module doc); 4 when the SE is 0 or not finite."""
    se = abs(float(se))
    if se == 0 or not math.isfinite(se):
        return 4
    return max(0, min(MAX_DECIMALS, 1 - math.floor(math.log10(se))))


def percent(p: float, decimals: int | None = None) -> str:
    """An exact probability in percent (module doc); ``decimals`` fixes the places after the
    point (e.g. from :func:`decimals_to_show`)."""
    p = float(p)
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if decimals is None:  # SIG digits of p, or the first digit of 1 − p when p is near 1
        decimals = max(1, decimals_for_sig(100 * p) if p <= 0.5 else
                       decimals_for_sig(100 * (1 - p), 1))
    step = 10.0 ** -decimals
    if round(100 * p, decimals) >= 100:  # not certain, but closer than the places shown
        return f"above {100 - step:.{decimals}f}%"
    if round(100 * p, decimals) <= 0:
        return f"below {step:.{decimals}f}%"
    return f"{100 * p:.{decimals}f}%"


def decimals_to_show(*gaps: float, digits: int = 2, least: int = 1) -> int:
    """Decimals (of percentages, or of plain values) that show each nonzero gap between
    compared numbers with at least ``digits`` significant digits, and at least ``least``."""
    out = least
    for g in gaps:
        if g is not None and g != 0 and math.isfinite(g):
            out = max(out, decimals_for_sig(g, digits))
    return min(out, MAX_DECIMALS)


#: the exact queries' recommendation codes a player reads differently (Ten's two stops)
CHOICES = {"stop-numbers": "stop, take the numbers", "stop-currency": "stop, take the currency"}


def choice_words(recommendation: str) -> str:
    """A query's recommendation code as words ("stop-numbers" → "stop, take the numbers")."""
    return CHOICES.get(recommendation, recommendation)


def verdict(choice: str, margin: float | None, unit: str, digits: int = SIG) -> str:
    """"roll: +0.505 chance of winning" — the choice, the margin it wins by and the unit; the
    choice alone when there is no margin (a forced move)."""
    if margin is None:
        return choice
    return f"{choice}: {signed(margin, digits)} {unit}"


def sampled_verdict(choice: str, margin, unit: str, n: int, what: str = "playouts") -> str:
    """A Monte Carlo verdict in the shape of :func:`verdict`, with the margin's 95% interval:
    "go: +0.83 chips [+0.12, +1.54]". ``margin`` is the leader's margin over the runner-up
    (a statistic with ``estimate``, ``se``, ``ci_low``, ``ci_high``; ``estimate`` ≥ 0), shown
    to the decimal of its SE (:func:`decimals_for_se`). When its interval holds 0 the choice is
    not named as the answer: "too close to call at n = 200 playouts: go leads by +0.13 chips
    [-0.67, +0.92]"."""
    d = decimals_for_se(margin.se)

    def s(x: float) -> str:
        r = round(float(x), d) + 0.0  # no "-0.00"
        return f"{r:+.{d}f}"

    said = f"{s(margin.estimate)} {unit} [{s(margin.ci_low)}, {s(margin.ci_high)}]"
    if margin.ci_low <= 0.0 <= margin.ci_high:
        return f"too close to call at n = {n:,} {what}: {choice} leads by {said}"
    return f"{choice}: {said}"


def fit(lines: Sequence[str], width: int = WIDTH, keep_words: bool = False) -> list[str]:
    """Each line wrapped at ``width``; a continuation is indented two more than its line.
    ``keep_words``: a word longer than the width (a path) stays whole, on a line of its own.
    An item holding several lines (a table) counts as those lines."""
    import textwrap

    out = []
    for line in (x for item in lines for x in item.split("\n")):
        if len(line) <= width:
            out.append(line)
            continue
        lead = len(line) - len(line.lstrip(" "))
        out += textwrap.wrap(line.lstrip(" "), width, initial_indent=" " * lead,
                             subsequent_indent=" " * (lead + 2), break_on_hyphens=False,
                             break_long_words=not keep_words)
    return out


def fit_text(text: str, width: int = WIDTH, keep_words: bool = False) -> str:
    """:func:`fit` on a whole text: every line of it wrapped at ``width``."""
    return "\n".join(fit(text.split("\n"), width, keep_words))
