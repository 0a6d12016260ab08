"""MAGDAGDON Monte Carlo: whole-game invariants, action values vs exact expectations,
determinism across thread counts, paired comparisons, the simulate/best CLI."""
import itertools
import json

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.games.magdagdon import arrays as A
from analyzer.games.magdagdon import decide as D
from analyzer.games.magdagdon import exact as X
from analyzer.games.magdagdon import play as MP
from analyzer.games.magdagdon import lineup as LU
from analyzer.games.magdagdon import rules as M
from analyzer.rng import block_keys
from analyzer.rules import build_rules
from analyzer.runner import RunSpec
from kernels import magdagdon as K

R = build_rules(M.MagdagdonRules)
DIFFS = {d: M.difficulty(R, d) for d in M.DIFFICULTIES}


def adjacent_ok(cells, n, tol):
    for i in range(n * n):
        a = int(cells[i])
        if not 1 <= a <= 6:
            continue
        r, c = divmod(i, n)
        for rr, cc in ((r + 1, c), (r, c + 1)):
            if rr < n and cc < n:
                b = int(cells[rr * n + cc])
                if 1 <= b <= 6 and abs(a - b) > tol:
                    return False
    return True


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**62), st.sampled_from(M.DIFFICULTIES),
       st.sampled_from(["greedy", "max-dice", "min-dice"]))
def test_whole_game_invariants(seed, dname, pname):
    d = DIFFS[dname]
    pol = LU.parse_policy(pname)
    G = A.kernel_inputs(R, d, book=True)
    key = block_keys(seed, 0, 1)[0]
    cells, score, turns, mag, ruins, used = K.play_one(key, 0, pol.mode, pol.k,
                                                       np.zeros(16, dtype=np.int8), G)
    assert M.empties(cells) == 0                       # the game ends with no empty cell
    assert adjacent_ok(cells, 4, R.tolerance)          # tolerance never violated
    assert int(np.count_nonzero(cells == 7)) == ruins  # every ruin came from a MAGDAGDON
    assert 0 <= used <= d.powers and ruins <= mag
    assert score == X.score(cells, R, d, used)["score"]  # kernel score = `score` of the board


def test_rollout_policy_game_and_other_rules():
    # a 5×5 board with tolerance 2 under rollout:2, and a 6×6 board (no line table) greedily
    r5 = build_rules(M.MagdagdonRules, sets=["board_size=5", "tolerance=2"])
    d5 = M.difficulty(r5, "peaceful")
    key = block_keys(7, 0, 1)[0]
    cells, score, *_rest, used = K.play_one(key, 0, K.P_ROLLOUT, 2, np.zeros(25, np.int8),
                                            A.kernel_inputs(r5, d5, book=True))
    assert M.empties(cells) == 0 and adjacent_ok(cells, 5, 2)
    assert score == X.score(cells, r5, d5, used)["score"]
    r6 = build_rules(M.MagdagdonRules, sets=["board_size=6"])
    d6 = M.difficulty(r6, "nightmare")
    cells, score, *_rest, used = K.play_one(key, 1, K.P_GREEDY, 0, np.zeros(36, np.int8),
                                            A.kernel_inputs(r6, d6, book=True))
    assert M.empties(cells) == 0 and adjacent_ok(cells, 6, 1)
    assert score == X.score(cells, r6, d6, used)["score"]


def test_best_one_empty_cell_placements_are_exact():
    # One empty cell (r4c4) next to a 6 (r3c4) and a 5 (r4c3): values 5 or 6 fit. Each placement
    # ends the game, so its value is the score of the final board, with zero spread.
    text = "3456/3456/3456/345."
    cells = M.parse_board(text, R)
    out = D.best(cells, [5, 6, 1, 1], R, DIFFS["nightmare"], 0, RunSpec(50, 1),
                 LU.parse_policy("greedy"))
    vals = {x["order"][0]: x["mean_final_score"] for x in out["top"]}
    for v in (5, 6):
        exact = X.score(M.parse_board(text[:-1] + str(v), R), R, DIFFS["nightmare"])["score"]
        assert vals[f"{v}@r4c4"].estimate == exact and vals[f"{v}@r4c4"].se == 0
    # 6: row 4 = 3456 (straight) and column 4 = 6666 (four of a kind)
    assert out["recommendation"] == "place 6@r4c4"


def test_best_reroll_value_matches_exact_expectation():
    # SURVIVAL, one power; one empty cell (r4c4) next to a 6 and a 5; roll 1111 is a MAGDAGDON.
    # Action "reroll all four": over the 1296 rerolls, if a 6 is rolled the best final board puts
    # a 6 (straight 3456 in row 4, 6666 in column 4), else a 5 if rolled, else the cell is ruined;
    # every outcome pays the power's 70. The exact mean is computed with `score` on each board.
    text = "3456/3456/3456/345."
    d = DIFFS["survival"]
    cells = M.parse_board(text, R)
    finals = {v: X.score(M.parse_board(text[:-1] + v, R), R, d, 1)["score"]
              for v in ("6", "5", "x")}
    exact = np.mean([finals["6"] if 6 in roll else finals["5"] if 5 in roll else finals["x"]
                     for roll in itertools.product(range(1, 7), repeat=4)])
    out = D.best(cells, [1, 1, 1, 1], R, d, 1, RunSpec(4000, 11), LU.parse_policy("greedy"),
                 top=50)
    stat = [x for x in out["top"] if x.get("reroll") == [1, 1, 1, 1]][0]["mean_final_score"]
    assert abs(stat.estimate - exact) <= 4.5 * stat.se
    ruin = [x for x in out["top"] if x["action"] == "accept"][0]["mean_final_score"]
    assert ruin.estimate == X.score(M.parse_board(text[:-1] + "x", R), R, d)["score"]


def test_simulate_deterministic_across_threads_and_paired_identity():
    from analyzer.runner import run

    d = DIFFS["peaceful"]
    job = MP.make_job(R, d, LU.parse_policy("greedy"))
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a = run(job, 1500, 5).sums
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        b = run(job, 1500, 5).sums
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(a, b)
    out = MP.simulate_paired(R, d, LU.parse_policy("greedy"), LU.parse_policy("greedy"),
                             RunSpec(600, 5))
    diff = out["difference_a_minus_b"]
    assert diff.estimate == 0 and diff.se == 0
    assert out["verdict"].startswith("too close to call")


def run_cli(args, capsys):
    from analyzer.cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(args)
    cap = capsys.readouterr()
    return exc.value.code, cap.out, cap.err


def test_cli_simulate_and_best_json(capsys, tmp_path):
    code, out, _ = run_cli(["magdagdon", "simulate", "--trials", "300", "--seed", "3",
                            "--difficulty", "nightmare", "--policy", "min-dice", "--vs", "greedy",
                            "--out", str(tmp_path), "--chart", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["seed"] == 3 and d["n"] == 300
    base = tmp_path / "magdagdon_simulate_scores"
    for ext in ("png", "svg", "csv", "md"):
        assert base.with_suffix(f".{ext}").exists()
    assert sum(d["a_stats"]["histogram"].values()) == 300
    assert set(d["difference_a_minus_b"]) >= {"estimate", "se", "ci_low", "ci_high", "n"}
    code, out, _ = run_cli(["magdagdon", "best", "--board", "3456/3456/3456/34..", "--roll",
                            "4511", "--difficulty", "survival", "-n", "20", "--seed", "2",
                            "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["seed"] == 2 and d["top"] and "recommendation" in d
    code, out, err = run_cli(["magdagdon", "simulate", "-n", "10", "--policy", "lucky"],
                             capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    code, out, err = run_cli(["magdagdon", "simulate", "-n", "10", "--chart"], capsys)
    assert code == 2 and out == "" and "--out" in err and err.count("\n") == 1


def test_cli_simulate_several_vs(capsys):
    code, out, _ = run_cli(["magdagdon", "simulate", "-n", "64", "--seed", "4", "--vs",
                            "min-dice", "--vs", "max-dice", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and [c["b"] for c in d["comparisons"]] == ["min-dice", "max-dice"]
    # A is played on the same games in both comparisons
    assert d["comparisons"][0]["a_stats"]["score"] == d["comparisons"][1]["a_stats"]["score"]
