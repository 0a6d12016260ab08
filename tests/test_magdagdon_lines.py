"""MAGDAGDON: the kernel's line table (kernels/magdagdon/board.py ``line_table``) against the
Python scorer (``exact.line_bonus``) on every complete line of 3, 4 and 5 dice, under the
default rules and with "four of a kind counts as two pairs"; two independent codings of one rule
page (ascending and descending straights, n of a kind, two pairs)."""
import itertools

import numpy as np
import pytest

from analyzer.games.magdagdon import exact as X
from analyzer.games.magdagdon.rules import MagdagdonRules
from analyzer.rules import build_rules
from kernels.magdagdon.board import line_table


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("sets", [[], ["four_kind_is_two_pairs=true"]])
def test_kernel_line_table_matches_python_scorer_on_complete_lines(n, sets):
    rules = build_rules(MagdagdonRules, sets=sets + [f"board_size={n}"])
    bon = np.array([rules.straight_bonus, rules.four_kind_bonus, rules.two_pairs_bonus,
                    1.0 if rules.four_kind_is_two_pairs else 0.0, 1.0], dtype=np.float64)
    LT = line_table(n, bon)
    for line in itertools.product(range(1, 7), repeat=n):
        code = sum(d * 8**i for i, d in enumerate(line))
        assert LT[code] == X.line_bonus(list(line), rules)[1], line
    assert LT[sum(d * 8**i for i, d in enumerate(range(n, 0, -1)))] == rules.straight_bonus
