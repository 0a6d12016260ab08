"""Pig: the published optimal-play numbers, hand-derived turn statistics, MC vs exact."""
import numba
import numpy as np
import pytest

from analyzer.games.pig.exact import decide, solve, turn_stats
from analyzer.games.pig.play import make_job
from analyzer.games.pig.lineup import parse_policy, parse_policy_pair
from analyzer.games.pig.rules import PigRules
from analyzer.runner import run
from analyzer.stats import wilson


def test_published_first_player_win_probability():
    # Neller & Presser (2004): optimal vs optimal, the first player wins with p ≈ 0.5306.
    P, roll, iterations, change = solve(PigRules())
    assert abs(P[0, 0, 0] - 0.5306) < 5e-5
    assert change < 1e-12


def test_published_hold_at_20():
    st = turn_stats(20, PigRules())
    assert abs(st["p_bust"] - 0.6245) < 5e-5
    assert abs(st["mean_points"] - 8.1418) < 5e-5


def test_turn_stats_hand_derived():
    # Hold at 2: the first non-1 face (2..6) already reaches 2, so one roll decides:
    # P(bust) = 1/6, mean = (2+3+4+5+6)/6 = 20/6.
    st = turn_stats(2, PigRules())
    assert st["p_bust"] == pytest.approx(1 / 6)
    assert st["mean_points"] == pytest.approx(20 / 6)
    # Hold at 3: reach 3+ in one roll with 3..6 (4/6); or roll 2 then any non-1 (1/6 · 5/6).
    # P(bust) = 1 - 4/6 - 5/36 = 7/36; mean = (3+4+5+6)/6 + (1/6)(4+5+6+7+8)/6 = 3 + 30/36.
    st = turn_stats(3, PigRules())
    assert st["p_bust"] == pytest.approx(7 / 36)
    assert st["mean_points"] == pytest.approx(3 + 30 / 36)


def test_small_goal_exact_by_hand():
    # Goal 2 with a d6: the first roll wins unless it is a 1, so the mover wins with p where
    # p = 5/6 + (1/6)(1 - p)  →  p = 6/7 (the opponent is in the same spot after a bust).
    P, *_ = solve(PigRules(goal=2))
    assert P[0, 0, 0] == pytest.approx(6 / 7, abs=1e-10)


def test_decide_is_consistent_with_the_table():
    r = PigRules()
    P, roll, *_ = solve(r)
    for me, opp, turn in [(0, 0, 0), (50, 60, 10), (90, 95, 8), (10, 80, 25), (70, 30, 21)]:
        d = decide(me, opp, turn, r)
        best = max(d["p_win_roll"], d["p_win_hold"] or 0)
        assert best == pytest.approx(P[me, opp, turn], abs=1e-12)
        if d["recommendation"] == "roll":
            assert roll[me, opp, turn] == 1


def test_optimal_vs_optimal_monte_carlo_within_5_se():
    r = PigRules()
    res = run(make_job(parse_policy_pair("optimal,optimal"), r), 400_000, 7, progress=False)
    w = wilson(res.sums[0], res.n)
    assert abs(w.estimate - solve(r)[0][0, 0, 0]) < 5 * w.se


def test_same_seed_same_numbers_on_1_and_2_threads():
    r = PigRules()
    job = make_job(parse_policy_pair("hold:20,optimal"), r)
    numba.set_num_threads(1)
    a = run(job, 50_000, 11, progress=False)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    b = run(job, 50_000, 11, progress=False)
    assert np.array_equal(a.sums, b.sums)


def test_policy_parsing():
    assert parse_policy("hold:25").hold_at == 25
    assert parse_policy("optimal").kind == "optimal"
    from analyzer.errors import UserError

    for bad in ("hold:0", "hold:x", "stop", ""):
        with pytest.raises(UserError):
            parse_policy(bad)


def test_cli_solve_and_simulate_json(cli):
    out = cli("pig", "turn", "--hold", "20", "--json", check_json=True)
    assert abs(out["p_bust"] - 0.6245) < 5e-5 and out["exact"] is True
    sim = cli("pig", "simulate", "--trials", "20000", "--seats", "hold:20,hold:20",
              "--vs", "hold:25,hold:20", "--seed", "3", "--json", check_json=True)
    assert sim["seed"] == 3 and sim["n"] == 20000
    d = sim["difference_a_minus_b"]
    assert set(d) >= {"estimate", "se", "ci_low", "ci_high", "n"}


@pytest.mark.parametrize("args,needle", [
    (["pig", "simulate", "--trials", "0"], "--trials"),
    (["pig", "simulate", "--seats", "hold:20,hold:20,optimal"], "3 policies for 2 seats"),
    (["pig", "decide", "--me", "120", "--opp", "0"], "goal"),
    (["pig", "solve", "--set", "goal=x"], "goal"),
])
def test_cli_bad_input_one_line_exit_2(cli, args, needle):
    code, out, err = cli(*args)
    assert code == 2 and out == ""
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


def test_threshold_fast_path_equals_general_loop():
    from analyzer.rng import block_keys
    from kernels.pig import simulate_blocks

    keys = block_keys(8, 0, 4)
    counts = np.full(4, 5000, dtype=np.int64)
    dummy = np.zeros((1, 1, 1), dtype=np.uint8)
    fast = simulate_blocks(keys, counts, 100, 6, 1, True, 0, 20, dummy, 0, 25, dummy)
    general = simulate_blocks(keys, counts, 100, 6, 1, True, 0, 20, dummy, 0, 25, dummy, True)
    assert np.array_equal(fast, general)


def test_paired_kernel_counts_disagreements_in_both_directions():
    """Σd and Σd² of the paired kernel, d = w_A − w_B ∈ {−1, 0, 1}: Σd² counts the games whose
    outcomes differ, so Σd² ≥ |Σd| with equal parity, and Σd² = wins_A + wins_B − 2·(both won);
    hold:25 and hold:20 disagree both ways in thousands of games, so Σd² > |Σd|."""
    from analyzer.games.pig.play import policy_arrays
    from analyzer.rng import block_keys
    from kernels.pig import paired_blocks

    r = PigRules()
    a = [policy_arrays(parse_policy(t), r) for t in ("hold:25", "hold:20")]
    b = [policy_arrays(parse_policy(t), r) for t in ("hold:20", "hold:20")]
    out = paired_blocks(block_keys(11, 0, 4), np.full(4, 1000, dtype=np.int64), r.goal, r.faces,
                        r.bust_faces, *a[0], *a[1], *b[0], *b[1])
    wa, wb, sd, sd2 = out.sum(axis=0)
    assert sd == wa - wb
    assert sd2 > abs(sd) and (sd2 - abs(sd)) % 2 == 0
    assert sd2 <= min(4000, wa + wb)
    assert np.all(out[:, 3] >= np.abs(out[:, 2]))
