"""Railroad Canasta exact solvers: the chance that a dealt hand meets the initial requirement.

What belongs here: answers computed exactly, without sampling (no pandas, no matplotlib). The
enumeration itself is the Numba kernel ``kernels.canasta.exact.exact_deal_probability``: every
composition of a dealt hand (about 10^7 for 13 cards), weighted by its multivariate
hypergeometric probability. Exact round scoring and meld checks are in ``score.py``.
"""
from __future__ import annotations

from analyzer.games.canasta.rules import CanastaRules, requirement


def exact_on_deal(score: int, rules: CanastaRules) -> float | None:
    """P(a dealt hand can meet the requirement at once), exact (None under red3_replace, or
    for hands above 15 cards, where the enumeration would take more than a few seconds)."""
    if rules.red3_replace or rules.hand_size > 15:
        return None
    from kernels.canasta.exact import exact_deal_probability

    return float(exact_deal_probability(rules.players, rules.hand_size,
                                        requirement(score, rules), 3, rules.wilds_in_sevens))
