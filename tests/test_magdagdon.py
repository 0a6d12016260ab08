"""MAGDAGDON: exact parts (notation, scoring, feasibility, exact odds) and the CLI.

Expected values are derived by hand in the comments or by small brute-force oracles written
here independently of the search code (plain loops over placement orders).
"""
import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.errors import UserError
from analyzer.games.magdagdon import arrays as A
from analyzer.games.magdagdon import exact as X
from analyzer.games.magdagdon import rules as M
from analyzer.rules import build_rules

R = build_rules(M.MagdagdonRules)
PE = M.difficulty(R, "peaceful")
SU = M.difficulty(R, "survival")
NI = M.difficulty(R, "nightmare")


def board(text, rules=R):
    return M.parse_board(text, rules)


# ----------------------------------------------------------------------------- oracles

def brute_most(cells, roll, n, tol, cap):
    """Most dice of ``roll`` placeable (up to cap) by trying every order: plain recursion."""
    cells = list(int(c) for c in cells)

    def ok(i, v):
        if cells[i] != 0:
            return False
        if not any(1 <= c <= 6 for c in cells):
            return True
        r, c = divmod(i, n)
        nb = [cells[rr * n + cc] for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
              if 0 <= rr < n and 0 <= cc < n]
        nums = [x for x in nb if 1 <= x <= 6]
        return bool(nums) and all(abs(x - v) <= tol for x in nums)

    def rec(dice, placed):
        if placed >= cap:
            return placed
        best = placed
        for k in set(range(len(dice))):
            v = dice[k]
            rest = dice[:k] + dice[k + 1:]
            for i in range(n * n):
                if ok(i, v):
                    cells[i] = v
                    best = max(best, rec(rest, placed + 1))
                    cells[i] = 0
                    if best >= cap:
                        return best
        return best

    return rec(list(roll), 0)


# ----------------------------------------------------------------------------- public checks

@pytest.mark.parametrize("line,points", [
    ([2, 3, 4, 5], 60), ([5, 4, 3, 2], 60), ([6, 5, 4, 3], 60), ([1, 2, 2, 3], 0),
    ([3, 3, 3, 4], 0), ([4, 4, 4, 4], 40), ([3, 4, 4, 3], 20), ([4, 3, 3, 4], 20),
    ([3, 4, 3, 4], 20)])
def test_line_bonuses_public(line, points):
    assert X.line_bonus(line, R)[1] == points
    # the kernels' line table agrees on complete lines (code = Σ digit·8^i)
    G = A.kernel_inputs(R, PE)
    code = sum(v * 8 ** i for i, v in enumerate(line))
    assert G[4][code] == points


def test_four_of_a_kind_is_not_two_pairs_unless_knob():
    r = build_rules(M.MagdagdonRules, sets=["two_pairs_bonus=50"])
    assert X.line_bonus([4, 4, 4, 4], r)[1] == 40  # [D]: not also two pairs
    r2 = build_rules(M.MagdagdonRules, sets=["two_pairs_bonus=50", "four_kind_is_two_pairs=true"])
    assert X.line_bonus([4, 4, 4, 4], r2)[1] == 50


@pytest.mark.parametrize("text,fits", [
    # the only empty cell r1c2 sits between the two numbers; everything else is ruin
    ("3.4x/xxxx/xxxx/xxxx", {3, 4}),
    ("3.5x/xxxx/xxxx/xxxx", {4}),
    ("2.5x/xxxx/xxxx/xxxx", set()),   # a dead cell
])
def test_cell_acceptance_public(text, fits):
    r = build_rules(M.MagdagdonRules, sets=["dice_per_roll=1", "peaceful_min_dice=1"])
    d = M.difficulty(r, "peaceful")
    cells = M.parse_board(text, r)
    got = {v for v in range(1, 7) if X.feasible(cells, [v], r, d)["feasible"]}
    assert got == fits


def test_order_matters_public():
    cells = board("..../.3../..../....")
    out = X.feasible(cells, [4, 5, 6, 6], R, PE)
    assert out["feasible"] and out["min_dice"] == 2
    assert out["witness"][0]["value"] == 4          # the 4 must go first, next to the 3
    assert (out["witness"][0]["row"], out["witness"][0]["column"]) in {(1, 2), (3, 2), (2, 1),
                                                                       (2, 3)}
    # the 5 alone fits nowhere: with 1s (which do not fit next to a 3 either) it is a MAGDAGDON
    assert not X.feasible(cells, [5, 1, 1, 1], R, PE)["feasible"]
    assert X.feasible(cells, [5, 1, 1, 1], R, PE)["max_dice"] == 0


def test_nightmare_no_number_public():
    cells = board("..../..../..../...x")
    assert X.feasible(cells, [2, 3, 3, 6], R, NI)["feasible"]
    assert not X.feasible(cells, [1, 3, 5, 6], R, NI)["feasible"]


def test_minimum_dice_and_penalties_public():
    assert M.min_dice(board("xxxx/xxxx/xxxx/xx.."), R, NI) == 2
    assert M.min_dice(board("xxxx/xxxx/xxxx/xxx."), R, NI) == 1
    assert M.min_dice(board("..../..../..../...."), R, NI) == 3
    assert [PE.penalty(k) for k in range(4)] == [0, 10, 30, 70]
    assert [SU.penalty(k) for k in range(2)] == [0, 70]
    assert X.score(board("xxxx/xxxx/xxxx/xxxx"), R, PE)["score"] == -240


# ----------------------------------------------------------------------------- scoring

def test_score_bonuses_by_hand():
    # rows 2345 ×4: sum 14, straight 60 each; columns 2222/3333/4444/5555: 8/12/16/20, four of a
    # kind 40 each. 56 + 56 + 240 + 160 = 512.
    out = X.score(board("2345/2345/2345/2345"), R, PE)
    assert out["line_sums"] == 112 and out["bonuses"] == 400 and out["score"] == 512


def test_score_ruin_pairs_and_powers_by_hand():
    # rows 3434, 4343, 3434: 14 and two pairs (+20) each; row 434x: 11, no bonus (ruin).
    # columns 3434, 4343, 3434: 14 + 20 each; column 434x: 11. Sums 2·(42 + 11) = 106,
    # bonuses 6·20 = 120, one ruin −15, PEACEFUL two powers −(10 + 20): 106 + 120 − 15 − 30 = 181.
    out = X.score(board("3434/4343/3434/434x"), R, PE, powers_used=2)
    assert out["score"] == 181
    assert out["ruins"] == 1 and out["power_penalty"] == 30


def test_score_survival_power_and_unfinished():
    # 1 power in SURVIVAL costs 70; row 1 = 1+2+3+4 = 10 (straight, 60); column 1..4 hold 1,2,3,4
    # alone: sums 1+2+3+4 = 10; no other number. 10 + 10 + 60 − 70 = 10.
    out = X.score(board("1234/..../..../...."), R, SU, powers_used=1)
    assert out["score"] == 10 and not out["finished"]
    with pytest.raises(UserError):
        X.score(board("1234/..../..../...."), R, SU, powers_used=2)


# ----------------------------------------------------------------------------- notation

@pytest.mark.parametrize("text,part", [
    ("12../2.../....", "3 rows"), ("12../2.../..../....x", "row 4"), ("12a./..../..../....", "r1c3"),
])
def test_bad_boards(text, part):
    with pytest.raises(UserError, match=part):
        M.parse_board(text, R)


def test_tolerance_violation_names_cells():
    with pytest.raises(UserError, match="r1c1=1 and r2c1=3"):
        M.check_tolerance(board("1.../3.../..../...."), R)


def test_bad_rolls():
    with pytest.raises(UserError):
        M.parse_roll("3447a", R)
    with pytest.raises(UserError):
        M.parse_roll("344", R)
    assert M.parse_roll("3-4-4-6", R) == [3, 4, 4, 6]


def test_rules_check():
    with pytest.raises(UserError):
        build_rules(M.MagdagdonRules, sets=["peaceful_powers=4"])
    with pytest.raises(UserError):
        build_rules(M.MagdagdonRules, sets=["survival_costs=[]"])
    with pytest.raises(UserError):
        build_rules(M.MagdagdonRules, sets=["board_size=9"])


# ----------------------------------------------------------------------------- exact odds

def _rolls():
    return list(itertools.product(range(1, 7), repeat=4))


def test_odds_single_cell_only_four_fits():
    # one empty cell between a 3, a 5 and a 4 (rest ruins): only a 4 fits; a roll is a MAGDAGDON
    # iff it holds no 4: 5^4 = 625 ordered rolls, for every difficulty (minimum drops to 1).
    cells = board("x3xx/3.5x/x4xx/xxxx")
    for d in (PE, SU, NI):
        assert X.odds(cells, R, d, powers_left=0)["rolls_magdagdon"] == 625
    # SURVIVAL, one power: a 3 or a 5 becomes a 4 with ±1; rolls from {1,2,6}^4 can only
    # reroll, best all four dice: P(no 4) = (5/6)^4. p = (3/6)^4 · (5/6)^4.
    out = X.odds(cells, R, SU, powers_left=1)
    assert out["p_magdagdon_after_powers"] == pytest.approx(0.5 ** 4 * (5 / 6) ** 4, abs=1e-12)


def test_odds_dead_and_walled_in():
    assert X.odds(board("x2xx/2.5x/xxxx/xxxx"), R, PE)["rolls_magdagdon"] == 1296  # dead cell
    # the 3 is walled in by ruins; the empty cells touch no number: nothing can ever be placed
    out = X.odds(board("3xx./xxx./xxx./...."), R, PE)
    assert out["rolls_magdagdon"] == 1296 and out["p_magdagdon_after_powers"] == 1.0


def test_odds_one_cell_next_to_a_three():
    # allowed values {2,3,4}: MAGDAGDON iff all four dice are in {1,5,6}: 3^4 = 81.
    assert X.odds(board("3.xx/xxxx/xxxx/xxxx"), R, NI)["rolls_magdagdon"] == 81


def test_odds_two_cells_in_a_row_nightmare():
    # cells r1c2, r1c3 after a 3; NIGHTMARE minimum drops to 2: need a die a in {2,3,4} for
    # r1c2 and another die b with |b − a| ≤ 1 for r1c3 (r1c3 touches only r1c2).
    cells = board("3..x/xxxx/xxxx/xxxx")
    bad = sum(1 for roll in _rolls()
              if not any(i != j and roll[i] in (2, 3, 4) and abs(roll[j] - roll[i]) <= 1
                         for i in range(4) for j in range(4)))
    assert X.odds(cells, R, NI)["rolls_magdagdon"] == bad


def test_odds_empty_board():
    # PEACEFUL/SURVIVAL (2 dice): among 4 dice two are equal or adjacent in value unless all
    # lie in {1,3,5} or {2,4,6} with no repeat — impossible with 4 dice: never a MAGDAGDON.
    empty = board("..../..../..../....")
    assert X.odds(empty, R, PE)["rolls_magdagdon"] == 0
    # NIGHTMARE (3 dice): a placement of 3 connected cells is a path (the grid has no
    # triangles), so it needs three of the dice x, y, z with |x−y| ≤ 1 and |y−z| ≤ 1.
    bad = sum(1 for roll in _rolls()
              if not any(abs(p[0] - p[1]) <= 1 and abs(p[1] - p[2]) <= 1
                         for p in itertools.permutations(roll, 3)))
    assert X.odds(empty, R, NI)["rolls_magdagdon"] == bad


# ----------------------------------------------------------------------------- search vs oracle

R3 = build_rules(M.MagdagdonRules, sets=["board_size=3", "dice_per_roll=3",
                                         "peaceful_min_dice=2", "nightmare_min_dice=3"])
D3 = M.difficulty(R3, "nightmare")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([0, 0, 0, 1, 2, 3, 4, 5, 6, 7]), min_size=9, max_size=9),
       st.lists(st.integers(1, 6), min_size=3, max_size=3))
def test_search_matches_brute_force_3x3(cells, roll):
    cells = np.array(cells, dtype=np.int8)
    if M.empties(cells) == 0:
        return
    out = X.feasible(cells, roll, R3, D3)
    top = min(3, M.empties(cells))
    assert out["max_dice"] == brute_most(cells, roll, 3, 1, top)
    need = M.min_dice(cells, R3, D3)
    assert out["feasible"] == (brute_most(cells, roll, 3, 1, need) >= need)
    if out["feasible"]:  # the witness order is legal step by step
        c = cells.copy()
        for w in out["witness"]:
            i = (w["row"] - 1) * 3 + w["column"] - 1
            assert brute_most(c, [w["value"]], 3, 1, 1) == 1 and c[i] == 0
            c[i] = w["value"]


# ----------------------------------------------------------------------------- CLI

def run_cli(args, capsys):
    from analyzer.cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(args)
    cap = capsys.readouterr()
    return exc.value.code, cap.out, cap.err


def test_cli_score_json(capsys):
    code, out, _err = run_cli(["magdagdon", "score", "--board", "2345/2345/2345/2345", "--json"],
                              capsys)
    assert code == 0 and json.loads(out)["score"] == 512


def test_cli_feasible_and_odds_json(capsys):
    code, out, _ = run_cli(["magdagdon", "feasible", "--board", "..../.3../..../....", "--roll",
                            "4566", "--difficulty", "nightmare", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["feasible"] and d["min_dice"] == 3 and d["max_dice"] == 4
    code, out, _ = run_cli(["magdagdon", "odds", "--board", "3.xx/xxxx/xxxx/xxxx", "--json"],
                           capsys)
    assert code == 0 and json.loads(out)["rolls_magdagdon"] == 81


@pytest.mark.parametrize("args", [
    ["magdagdon", "score", "--board", "12../2.../...."],
    ["magdagdon", "feasible", "--board", "16../..../..../....", "--roll", "1234"],
    ["magdagdon", "feasible", "--board", "..../..../..../....", "--roll", "12345"],
    ["magdagdon", "odds", "--board", "..../..../..../....", "--difficulty", "hard"],
    ["magdagdon", "odds", "--board", "..../..../..../....", "--set", "ruin=3"],
])
def test_cli_bad_input_exit_2(args, capsys):
    code, out, err = run_cli(args, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "error" in err


def test_cli_rules_lists_knobs(capsys):
    code, out, _ = run_cli(["magdagdon", "rules", "--json"], capsys)
    keys = {r["key"] for r in json.loads(out)["rules"]}
    assert code == 0 and {"board_size", "tolerance", "ruin_penalty", "peaceful_costs",
                          "four_kind_is_two_pairs"} <= keys


def test_rules_file_and_set(tmp_path, capsys):
    # a 3×3 house rule with a 5-point ruin: board 123/234/34x scores rows 6+9+7 and columns
    # 6+9+7: 44, straights in rows 1, 2 and columns 1, 2 (4 × 60 = 240), one ruin −5 → 279.
    f = tmp_path / "house.toml"
    f.write_text("[rules]\nboard_size = 3\nruin_penalty = 5\n")
    code, out, _ = run_cli(["magdagdon", "score", "--board", "123/234/34x", "--rules", str(f),
                            "--json"], capsys)
    assert code == 0 and json.loads(out)["score"] == 279
    code, out, _ = run_cli(["magdagdon", "score", "--board", "123/234/34x", "--rules", str(f),
                            "--set", "straight_bonus=0", "--json"], capsys)
    assert code == 0 and json.loads(out)["score"] == 44 - 5
