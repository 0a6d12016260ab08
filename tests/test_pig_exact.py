"""Pig's exact solver checked without reading its own table, and policy-vs-other-policy games.

* An independent policy evaluation (written here): for any pair of stationary policies, the
  distribution of one turn's gain from (own i, opponent j) is found by a forward pass over the
  turn total, then the win probability of seat 0 solves the two-seat fixed point
  ``A[i, j] = Σ_g d0(i, j)[g] · (1 if i+g ≥ goal else B[i+g, j])``,
  ``B[i, j] = Σ_g d1(j, i)[g] · (0 if j+g ≥ goal else A[i, j+g])``
  (A: seat 0 to move, B: seat 1 to move; g = 0 is a bust), solved exactly in one sweep from the
  highest score sum down (only the bust terms stay in place: a 2×2 system per state). It never
  reads the solver's values.
* The solver's value is a Bellman fixed point in every state (residual over all states).
* Brute force at a small size: a turn-based zero-sum game with perfect information has a value in
  pure stationary policies, so max over seat 0's policies of min over seat 1's equals the
  solver's value from every start.
* Monte Carlo of hold:20 against optimal (different policies, both seat orders) against the exact
  value of that pairing (a bug shared by both seats cannot cancel out).
"""
import itertools

import numpy as np
import pytest
from numba import njit

from analyzer.games.pig.exact import decide, solve
from analyzer.games.pig.play import make_job
from analyzer.games.pig.lineup import parse_policy_pair
from analyzer.games.pig.rules import PigRules
from analyzer.runner import run
from analyzer.stats import wilson


@njit(cache=True)
def _turn_gain(goal, faces, bust, tab, hold_at, i, j, out):
    """out[g] = P(the mover at (i, j) ends the turn with gain g); out[0] includes busts.

    The policy is ``tab[i, j, k]`` (1 roll) when ``hold_at`` is 0, else "hold at hold_at"."""
    top = goal - i + faces + 1
    q = np.zeros(top + faces + 1)
    q[0] = 1.0
    for g in range(out.shape[0]):
        out[g] = 0.0
    for k in range(top):
        if q[k] == 0.0:
            continue
        if k > 0:
            stop = i + k >= goal
            if not stop:
                stop = (k >= hold_at) if hold_at > 0 else tab[i, j, k] == 0
            if stop:
                out[min(k, goal - i)] += q[k]
                continue
        out[0] += q[k] * bust / faces
        for f in range(bust + 1, faces + 1):
            q[k + f] += q[k] / faces


@njit(cache=True)
def evaluate_pair(goal, faces, bust, tab0, hold0, tab1, hold1):
    """(A, B): seat 0's win probability with seat 0 / seat 1 to move (module doc)."""
    d0 = np.zeros((goal, goal, goal + 1))
    d1 = np.zeros((goal, goal, goal + 1))
    for i in range(goal):
        for j in range(goal):
            _turn_gain(goal, faces, bust, tab0, hold0, i, j, d0[i, j])
            _turn_gain(goal, faces, bust, tab1, hold1, i, j, d1[i, j])
    A = np.zeros((goal, goal))
    B = np.zeros((goal, goal))
    # Every term but the bust refers to a larger score sum, so one sweep from the top solves the
    # fixed point: per state, A = c0 + p0·B and B = c1 + p1·A (p0, p1 the bust chances).
    for s in range(2 * goal - 2, -1, -1):
        for i in range(goal):
            j = s - i
            if j < 0 or j >= goal:
                continue
            c0 = 0.0
            for g in range(1, goal - i + 1):
                c0 += d0[i, j, g] * (1.0 if i + g >= goal else B[i + g, j])
            c1 = 0.0
            for g in range(1, goal - j):
                c1 += d1[j, i, g] * A[i, j + g]
            p0 = d0[i, j, 0]
            p1 = d1[j, i, 0]
            A[i, j] = (c0 + p0 * c1) / (1.0 - p0 * p1)
            B[i, j] = c1 + p1 * A[i, j]
    return A, B


_NONE = np.zeros((1, 1, 1), dtype=np.uint8)


@pytest.fixture(scope="module")
def solved():
    rules = PigRules()
    P, roll, *_ = solve(rules)
    return rules, P, roll


@pytest.fixture(scope="module")
def pairings(solved):
    """Exact (A, B) for optimal–optimal, hold:20–optimal and optimal–hold:20 (seat 0 first)."""
    rules, P, roll = solved
    ev = lambda h0, h1: evaluate_pair(rules.goal, rules.faces, rules.bust_faces, roll, h0, roll,
                                      h1)
    return {"optimal,optimal": ev(0, 0), "hold:20,optimal": ev(20, 0),
            "optimal,hold:20": ev(0, 20)}


def test_solver_value_is_the_value_of_its_policy_in_every_state(solved, pairings):
    rules, P, roll = solved
    A, B = pairings["optimal,optimal"]
    assert np.max(np.abs(A - P[:, :, 0])) < 1e-9
    assert np.max(np.abs(B - (1.0 - P[:, :, 0].T))) < 1e-9


def test_bellman_residual_over_all_states():
    rules = PigRules(goal=40)
    P, roll, *_ = solve(rules)
    g, F, b = rules.goal, rules.faces, rules.bust_faces
    i, j, k = np.meshgrid(np.arange(g), np.arange(g), np.arange(g), indexing="ij")
    live = i + k < g
    p_roll = b / F * (1.0 - P[j, i, 0])
    for f in range(b + 1, F + 1):
        t = k + f
        win = i + t >= g
        p_roll = p_roll + np.where(win, 1.0, P[i, j, np.minimum(t, g - 1)]) / F
    p_hold = np.where(k > 0, 1.0 - P[j, np.minimum(i + k, g - 1), 0], -1.0)
    best = np.maximum(p_roll, p_hold)
    assert np.max(np.abs(best - P)[live]) < 1e-10
    clear = live & (np.abs(p_roll - p_hold) > 1e-9)
    assert np.array_equal(roll[clear], (p_roll > p_hold)[clear].astype(np.uint8))


def test_solver_matches_brute_force_over_all_policies():
    # Goal 5 with a 3-sided die (1 busts; 2 and 3 score): the mover decides at turn totals 2
    # and 3 when i + k < 5, i.e. at 6 (i, k) pairs per opponent score: 2^(6·5) policies is too
    # many, so the policies here may depend on (i, k) only (the opponent's score ignored) and
    # the brute force is compared where such policies suffice: the optimum found must be a
    # pure policy that is at least as good as the solver's, and the solver's at least as good.
    rules = PigRules(goal=5, faces=3, bust_faces=1)
    P, roll, *_ = solve(rules)
    g = rules.goal
    spots = [(i, k) for i in range(g) for k in (2, 3, 4) if i + k < g]
    tables = []
    for bits in itertools.product((0, 1), repeat=len(spots)):
        t = np.ones((g, g, g + 4), dtype=np.uint8)
        for (i, k), r in zip(spots, bits):
            t[i, :, k] = r
        tables.append(t)
    vals = np.array([[evaluate_pair(g, 3, 1, t0, 0, t1, 0)[0][0, 0] for t1 in tables]
                     for t0 in tables])
    maxmin = vals.min(axis=1).max()
    minmax = vals.max(axis=0).min()
    # the restricted family still contains a saddle point here: max-min = min-max = the value
    assert maxmin == pytest.approx(minmax, abs=1e-12)
    assert P[0, 0, 0] == pytest.approx(maxmin, abs=1e-10)


@pytest.mark.parametrize("order", ["hold:20,optimal", "optimal,hold:20"])
def test_hold20_against_optimal_monte_carlo_vs_exact(solved, pairings, order):
    rules, P, roll = solved
    hold0 = 20 if order.startswith("hold") else 0
    exact = pairings[order][0][0, 0]
    # known from the literature: optimal beats hold:20 (about 0.587 first, 0.479 second)
    assert (exact > 0.5) == (hold0 == 0)
    res = run(make_job(parse_policy_pair(order), rules), 100_000, 17, progress=False)
    w = wilson(res.sums[0], res.n)
    assert abs(w.estimate - exact) < 4.5 * w.se, (w.estimate, exact)
    seat0 = wilson(res.sums[3], res.n)
    assert seat0.estimate == w.estimate  # seat 0 moves first without --alternate


def test_alternating_first_mover_column(solved, pairings):
    rules, P, roll = solved
    A, B = pairings["hold:20,optimal"]
    A2, _ = pairings["optimal,hold:20"]
    first = 0.5 * (A[0, 0] + A2[0, 0])     # the first mover wins (hold:20 first half the time)
    seat0 = 0.5 * (A[0, 0] + B[0, 0])      # seat 0 (hold:20) wins, moving first half the time
    res = run(make_job(parse_policy_pair("hold:20,optimal"), rules, alternate=True), 100_000, 23,
              progress=False)
    wf, ws = wilson(res.sums[0], res.n), wilson(res.sums[3], res.n)
    assert abs(wf.estimate - first) < 4.5 * wf.se
    assert abs(ws.estimate - seat0) < 4.5 * ws.se


def test_decide_against_independent_evaluation(solved, pairings):
    # decide() reads the solver's table; check it against the policy evaluation instead.
    rules, P, roll = solved
    g = rules.goal
    A, _B = pairings["optimal,optimal"]
    for me, opp, turn in [(50, 60, 10), (90, 95, 8), (10, 80, 25), (70, 30, 21), (0, 0, 19)]:
        d = decide(me, opp, turn, rules)
        # holding hands the move to the opponent at (opp, me + turn): A is symmetric in seats
        assert d["p_win_hold"] == pytest.approx(1.0 - A[opp, me + turn], abs=1e-9)
        # mid-turn values M[t] = max(hold, roll) from the evaluation only, t from the top down
        M = np.zeros(g - me + 7)
        for t in range(g - me - 1, turn, -1):
            r = (1.0 - A[opp, me]) / 6 + sum(1.0 if me + t + f >= g else M[t + f]
                                             for f in range(2, 7)) / 6
            M[t] = max(1.0 - A[opp, me + t], r)
        p_roll = (1.0 - A[opp, me]) / 6 + sum(1.0 if me + turn + f >= g else M[turn + f]
                                              for f in range(2, 7)) / 6
        assert d["p_win_roll"] == pytest.approx(p_roll, abs=1e-9)
