"""MAGDAGDON roll multisets in plain Python (the exact `odds` query runs on these, without NumPy).

The 6^d ordered rolls of d dice fall into C(d+5, 5) multisets (126 for d = 4), each written as
its counts c_1..c_6 (Σ c_v = d). Multiset c stands for d!/Π c_v! ordered rolls (its weight; the
weights sum to 6^d), and rerolling j dice gives the multiset o of j dice with probability
j!/Π o_v! / 6^j. A multiset's code is Σ c_v (d+1)^(v−1): distinct for distinct multisets of at
most d dice, and codes add when multisets are joined (kept dice + reroll outcome).

Order: the sorted rolls in lexicographic order (1111, 1112, …, 1116, 1122, …, 6666 for d = 4),
i.e. c_1 descending, then c_2 descending, and so on — the order of the kernels' tables, which
``arrays.multisets`` builds from these lists.
"""
from __future__ import annotations

import functools
import math
from itertools import combinations_with_replacement
from typing import NamedTuple


class Multisets(NamedTuple):
    counts: tuple[tuple[int, ...], ...]  # per multiset of d dice: (0, c_1, …, c_6)
    codes: tuple[int, ...]               # Σ c_v (d+1)^(v−1)
    weights: tuple[int, ...]             # ordered rolls d!/Π c_v!
    oc_code: tuple[int, ...]             # the multisets of j = 0, 1, …, d dice, j ascending:
    oc_prob: tuple[float, ...]           #   their codes and probabilities j!/Π c_v! / 6^j,
    oc_start: tuple[int, ...]            #   those of j dice at oc_start[j] ≤ q < oc_start[j+1]


def multisets_of_size(j: int) -> list[tuple[int, ...]]:
    """The multisets of j dice as counts (0, c_1, …, c_6), in the module's order."""
    return [(0,) + tuple(roll.count(v) for v in range(1, 7))
            for roll in combinations_with_replacement(range(1, 7), j)]


def orderings(counts) -> int:
    """Ordered rolls of a multiset: (Σ c_v)! / Π c_v!."""
    return math.factorial(sum(counts)) // math.prod(math.factorial(c) for c in counts)


@functools.lru_cache(maxsize=8)
def roll_multisets(d: int) -> Multisets:
    """Every multiset of d dice with its code and weight, and the reroll outcome lists."""
    base = d + 1

    def code(c) -> int:
        return sum(c[v] * base ** (v - 1) for v in range(1, 7))

    full = multisets_of_size(d)
    oc_code, oc_prob, oc_start = [], [], [0]
    for j in range(d + 1):
        for c in multisets_of_size(j):
            oc_code.append(code(c))
            oc_prob.append(orderings(c) / 6 ** j)
        oc_start.append(len(oc_code))
    return Multisets(tuple(full), tuple(code(c) for c in full),
                     tuple(orderings(c) for c in full), tuple(oc_code), tuple(oc_prob),
                     tuple(oc_start))
