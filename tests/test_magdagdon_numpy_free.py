"""The MAGDAGDON exact queries (score, feasible, odds) answer without NumPy or Numba (issue 16;
tests/test_query_imports.py runs them in fresh interpreters), and the plain-Python roll multisets
they use (analyzer/games/magdagdon/rolls.py) are right: counted against a brute-force
enumeration of the ordered rolls, and — as the arrays the kernels take — equal to an independent
construction. `odds` sums exactly (rationals, one rounding) where it used ``numpy.dot``; its
probabilities stay within an ulp or two of that version's."""
from __future__ import annotations

import functools
import math
from collections import Counter
from itertools import product

import numpy as np
import pytest

from analyzer.games.magdagdon import exact as X
from analyzer.games.magdagdon.arrays import multisets
from analyzer.games.magdagdon.odds import weighted_sum
from analyzer.games.magdagdon.rolls import roll_multisets
from analyzer.games.magdagdon.rules import MagdagdonRules, difficulty, read_board

@functools.lru_cache(maxsize=None)
def _brute(d: int) -> Counter:
    """Ordered rolls of d dice per multiset (the sorted roll), by enumerating all 6^d of them."""
    return Counter(tuple(sorted(r)) for r in product(range(1, 7), repeat=d))


@pytest.mark.parametrize("d", [1, 2, 3, 4, 5])
def test_multiset_count_and_weights(d):
    ms = roll_multisets(d)
    assert len(ms.counts) == len(ms.weights) == math.comb(d + 5, 5)
    assert sum(ms.weights) == 6 ** d
    assert all(c[0] == 0 and sum(c) == d for c in ms.counts)
    assert len(set(ms.codes)) == len(ms.codes)


def test_multisets_of_four_dice_match_all_1296_ordered_rolls():
    brute = _brute(4)
    ms = roll_multisets(4)
    got = [tuple(v for v in range(1, 7) for _ in range(c[v])) for c in ms.counts]
    assert got == sorted(brute)                      # every multiset once, sorted rolls in order
    assert list(ms.weights) == [brute[r] for r in got]


@pytest.mark.parametrize("d", [1, 2, 3, 4, 5, 6])
def test_kernel_arrays_equal_an_independent_construction(d):
    """arrays.multisets(d) (in G[8:13] of the kernels' inputs): counts, codes Σ c_v (d+1)^(v−1),
    weights and, for j = 0..d dice, the outcome codes and probabilities (count / 6^j)."""
    base = d + 1
    rows = sorted(_brute(d))
    cnt = np.array([[0] + [r.count(v) for v in range(1, 7)] for r in rows], dtype=np.int64)
    code = np.array([sum(r.count(v) * base ** (v - 1) for v in range(1, 7)) for r in rows],
                    dtype=np.int64)
    weights = np.array([_brute(d)[r] for r in rows], dtype=np.int64)
    oc_code, oc_prob, oc_start = [], [], [0]
    for j in range(d + 1):
        brute = _brute(j)
        for r in sorted(brute):
            oc_code.append(sum(r.count(v) * base ** (v - 1) for v in range(1, 7)))
            oc_prob.append(brute[r] / 6 ** j)
        oc_start.append(len(oc_code))
    want = (cnt, code, weights, np.array(oc_code, dtype=np.int64),
            np.array(oc_prob, dtype=np.float64), np.array(oc_start, dtype=np.int64))
    got = multisets(d)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        assert g.tolist() == w.tolist()


# ----------------------------------------------------------------------------- the odds' sum

def _vector(n: int, p: int) -> list[float]:
    return [((k * 7919 + p) % 1009) / 1013.0 * 10.0 ** -(k % 5) for k in range(n)]


def _exact_in_decimal(weights, xs) -> float:
    """Σ w·x in 800-digit decimal arithmetic (every float is a finite decimal), then rounded to
    the nearest float: another route to the exactly rounded sum."""
    from decimal import Decimal, localcontext

    with localcontext() as ctx:
        ctx.prec = 800
        return float(sum((Decimal(w) * Decimal(x) for w, x in zip(weights, xs)), Decimal(0)))


@pytest.mark.parametrize("d,p", [(2, 5), (3, 6), (4, 0), (5, 0), (6, 1)])
def test_weighted_sum_is_exactly_rounded(d, p):
    w = roll_multisets(d).weights
    xs = _vector(len(w), p)
    assert weighted_sum(w, xs) == _exact_in_decimal(w, xs)


def test_weighted_sum_survives_cancellation():
    """1e16 + 1 − 1e16: a left-to-right float sum gives 0, the exact sum 1."""
    assert weighted_sum([1, 1, 1], [1e16, 1.0, -1e16]) == 1.0
    assert weighted_sum([3, 2], [0.1, 0.7]) == _exact_in_decimal([3, 2], [0.1, 0.7])
    assert weighted_sum([], []) == 0.0


# p_magdagdon_after_powers printed by `magdagdon odds --json` when it used numpy.dot (the
# default rules, all the difficulty's powers): the exact sum differs by at most a rounding
@pytest.mark.parametrize("board,diff,recorded", [
    ("32../.x21/6.2./x4x.", "survival", 0.05362654320987655),
    ("2.6./3..2/x211/32.x", "survival", 0.061087177069044374),
    ("44.x/4x3./3..2/.122", "survival", 0.03084990855052582),
    ("1.4x/.65x/...1/6.5.", "peaceful", 0.0021534904627229),
    ("1.4x/.65x/...1/6.5.", "survival", 0.1664380429812529),
    ("x4../556x/..x3/x.54", "survival", 0.02879050925925927),
])
def test_odds_after_powers_unchanged(board, diff, recorded):
    rules = MagdagdonRules()
    out = X.odds(read_board(board, rules), rules, difficulty(rules, diff))
    assert math.isclose(out["p_magdagdon_after_powers"], recorded, rel_tol=4e-16, abs_tol=0)
