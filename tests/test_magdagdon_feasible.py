"""The pure-Python placement search (analyzer/games/magdagdon/feasible.py, what `magdagdon
feasible` runs) finds the same number of dice and the same witness order as the kernel's search
(kernels/magdagdon/board.py), on random boards, rolls, targets and rules; and `feasible` answers
the same when the search falls back to the kernel."""
import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from analyzer.games.magdagdon import exact as X
from analyzer.games.magdagdon import feasible as F
from analyzer.games.magdagdon.rules import MagdagdonRules, difficulty


@st.composite
def positions(draw):
    n = draw(st.integers(2, 6))
    rules = MagdagdonRules(board_size=n, dice_per_roll=draw(st.integers(1, 6)),
                           tolerance=draw(st.integers(0, 5)))
    fill = draw(st.floats(0.0, 0.9))
    cells = np.array([draw(st.sampled_from((1, 2, 3, 4, 5, 6, 7)))
                      if draw(st.floats(0, 1)) < fill else 0 for _ in range(n * n)], np.int8)
    roll = [draw(st.integers(1, 6)) for _ in range(rules.dice_per_roll)]
    target = draw(st.integers(0, rules.dice_per_roll))
    return rules, cells, roll, target


@settings(max_examples=500, deadline=None)
@given(positions())
def test_search_matches_the_kernel(case):
    rules, cells, roll, target = case
    try:
        got = F.search(cells, roll, target, rules.board_size, rules.tolerance)
    except F.BudgetExceeded:
        assume(False)  # too big for the pure path: the query runs the kernel itself
    diff = difficulty(rules, "peaceful")
    assert got == X._kernel_searches(cells, roll, rules, diff, (target,))[0]


def test_the_default_board_searches_fit_the_budget():
    """Every roll on the bench's empty and mid-game boards stays within the pure path's budget
    (so the query never needs Numba on the default 4×4 board and 4 dice there)."""
    from itertools import combinations_with_replacement

    from analyzer.games.magdagdon.bench import MID_GAME_BOARDS
    from analyzer.games.magdagdon.rules import parse_board

    rules = MagdagdonRules()
    for text in MID_GAME_BOARDS + ("..../..../..../....",):
        cells = parse_board(text, rules)
        for roll in combinations_with_replacement(range(1, 7), 4):
            F.search(cells, roll, 4, 4, 1)  # raises BudgetExceeded when over


def test_kernel_fallback_gives_the_same_answer(monkeypatch):
    from analyzer.games.magdagdon.rules import parse_board

    rules = MagdagdonRules()
    diff = difficulty(rules, "nightmare")
    for text, roll in (("..../.3../..../....", [4, 5, 6, 6]), ("..../..../..../...x", [1, 3, 5, 6]),
                       ("12../2.../..../...x", [5, 6, 1, 1])):
        cells = parse_board(text, rules)
        pure = X.feasible(cells, roll, rules, diff)
        calls = []
        real = X._kernel_searches
        monkeypatch.setattr(F.search, "__defaults__", (0,))  # a budget of 0 placements
        monkeypatch.setattr(X, "_kernel_searches", lambda *a: calls.append(a) or real(*a))
        kernel = X.feasible(cells, roll, rules, diff)
        monkeypatch.undo()
        assert calls and pure == kernel


@settings(max_examples=120, deadline=None)
@given(positions(), st.integers(0, 3))
def test_odds_tables_match_the_kernels(case, powers):
    from analyzer.games.magdagdon import odds as O

    rules, cells, _roll, target = case
    need = max(1, min(target, int((cells == 0).sum())))
    assume((cells == 0).any())
    diff = difficulty(rules, "peaceful")
    try:
        feas, V = (np.array(x) for x in O.tables(cells, need, rules, diff, powers))
    except F.BudgetExceeded:  # tables falls back by itself; this would be a bug
        raise AssertionError("tables let BudgetExceeded escape")
    kfeas, kV = O.kernel_tables(cells, need, rules, diff, powers)
    assert feas.tolist() == kfeas.tolist()
    assert V.shape == kV.shape and V.tolist() == kV.tolist()  # the same floats


def test_odds_falls_back_to_the_kernels_past_the_budget(monkeypatch):
    from analyzer.games.magdagdon import odds as O
    from analyzer.games.magdagdon.rules import parse_board

    rules = MagdagdonRules()
    diff = difficulty(rules, "peaceful")
    cells = parse_board("12../2.../..../...x", rules)
    pure = X.odds(cells, rules, diff)
    monkeypatch.setattr(O, "TABLE_BUDGET", 0)
    calls = []
    real = O.kernel_tables
    monkeypatch.setattr(O, "kernel_tables", lambda *a: calls.append(a) or real(*a))
    assert X.odds(cells, rules, diff) == pure and calls
