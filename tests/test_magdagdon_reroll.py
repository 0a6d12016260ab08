"""MAGDAGDON: the bots' reroll choice (``reroll_value`` in kernels/magdagdon/exact.py, which
``use_power`` follows) against an independent enumeration: exact fractions over the rerolled
dice, each outcome judged by the pure-Python placement search (analyzer/games/magdagdon/
feasible.py, itself checked against a brute force in test_magdagdon.py)."""
import functools
import itertools
from fractions import Fraction

import numpy as np

from analyzer.games.magdagdon import arrays as A
from analyzer.games.magdagdon import rules as M
from analyzer.games.magdagdon.feasible import search
from analyzer.rules import build_rules

R = build_rules(M.MagdagdonRules)
SU = M.difficulty(R, "survival")


def placeable(cells, counts, need):
    """Can ``need`` dice of the roll given as counts (index 1..6) be placed?"""
    return _placeable(tuple(int(c) for c in cells), tuple(counts), need)


@functools.lru_cache(maxsize=None)
def _placeable(cells, counts, need):
    roll = [v for v in range(1, 7) for _ in range(counts[v])]
    return search(list(cells), roll, need, R.board_size, R.tolerance)[0] >= need


def exact_reroll_chances(cells, roll, need):
    """{reroll as counts of values 1..6: exact P(the roll after it is placeable)} for every
    non-empty sub-multiset of ``roll``, over the 6^j equally likely faces of the j dice."""
    held = [roll.count(v) for v in range(7)]
    out = {}
    for reroll in itertools.product(*(range(held[v] + 1) for v in range(1, 7))):
        j = sum(reroll)
        if j == 0:
            continue
        good = 0
        for faces in itertools.product(range(1, 7), repeat=j):
            after = [held[v] - (reroll[v - 1] if v else 0) for v in range(7)]
            for f in faces:
                after[f] += 1
            good += placeable(cells, after, need)
        out[reroll] = Fraction(good, 6 ** j)
    return out


def feasibility_table(cells, need):
    """The kernels' table feas[code] over the rolls of 4 dice (code Σ c_v 5^(v−1)), filled by
    the pure-Python search."""
    feas = np.zeros(5 ** 6, dtype=np.int8)
    for combo in itertools.combinations_with_replacement(range(1, 7), R.dice_per_roll):
        counts = [combo.count(v) for v in range(7)]
        feas[sum(counts[v] * 5 ** (v - 1) for v in range(1, 7))] = placeable(cells, counts, need)
    return feas


def test_the_chosen_reroll_is_the_best_even_when_a_close_second_comes_first():
    # SURVIVAL needs 2 dice; roll 1116 places at most one. Keeping the 6 and rerolling the three
    # 1s fails only on 111 (215/216 = 1290/1296); rerolling all four fails on 1111 and the four
    # orders of 1116 (1291/1296): better by 1/1296 < 1e-3, and found later in the kernel's
    # odometer over the subsets (the count of 6s is its most significant digit).
    cells = M.parse_board("3.../4.../.5.3/...2", R)
    roll = [1, 1, 1, 6]
    need = M.min_dice(cells, R, SU)
    chances = exact_reroll_chances(cells, roll, need)
    assert not placeable(cells, [roll.count(v) for v in range(7)], need)
    assert chances[(3, 0, 0, 0, 0, 0)] == Fraction(215, 216)
    assert chances[(3, 0, 0, 0, 0, 1)] == Fraction(1291, 1296)
    best = max(chances.values())
    assert best == Fraction(1291, 1296)

    from kernels.magdagdon.exact import reroll_value

    rr = np.zeros(32, dtype=np.int64)
    counts = np.array([roll.count(v) for v in range(7)], dtype=np.int64)
    p = reroll_value(counts, feasibility_table(cells, need), A.kernel_inputs(R, SU), rr)
    assert abs(p - float(best)) < 1e-12
    assert tuple(int(x) for x in rr[1:7]) == (3, 0, 0, 0, 0, 1)
