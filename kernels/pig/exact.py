"""Pig's exact solver: optimal win probabilities by value iteration.

Model (Neller & Presser, 2004; rules as in kernels/pig/game.py): ``P[i, j, k]`` is the probability
that the player to move, with score ``i``, opponent score ``j`` and turn total ``k``, wins under
optimal play by both::

    P_roll = (b/F)·(1 − P[j, i, 0]) + (1/F)·Σ_{f > b} W(i, j, k + f)
    P_hold = 1 − P[j, i + k, 0]                      (only when k > 0)
    P[i, j, k] = max(P_roll, P_hold),   W(i, j, t) = 1 if i + t ≥ goal else P[i, j, t]

solved by Gauss–Seidel value iteration to a fixed tolerance. The policy table stores 1 (roll)
or 0 (hold) per state.

References: T. W. Neller and C. G. M. Presser, "Optimal Play of the Dice Game Pig", The UMAP
Journal 25(1), 2004.

Cost: goal³ states (10⁶ at goal 100), each sweep O(goal³·F); a few hundred sweeps to 1e-12.
"""
import numpy as np
from numba import njit


@njit(cache=True)
def solve_pig(goal, faces, bust_faces, tol, max_iter):
    """Optimal win probabilities and roll/hold table for two-player Pig (see module doc).

    Returns (P, roll, iterations, max_change).
    """
    P = np.zeros((goal, goal, goal), dtype=np.float64)
    roll = np.zeros((goal, goal, goal), dtype=np.uint8)
    inv = 1.0 / faces
    it = 0
    delta = 1.0
    while it < max_iter:
        it += 1
        delta = 0.0
        for s in range(2 * goal - 2, -1, -1):  # sweep high score sums first
            for i in range(goal):
                j = s - i
                if j < 0 or j >= goal:
                    continue
                for k in range(goal - i - 1, -1, -1):
                    p_roll = bust_faces * inv * (1.0 - P[j, i, 0])
                    for f in range(bust_faces + 1, faces + 1):
                        t = k + f
                        if i + t >= goal:
                            p_roll += inv
                        else:
                            p_roll += inv * P[i, j, t]
                    best = p_roll
                    r = 1
                    if k > 0:
                        p_hold = 1.0 - P[j, i + k, 0]
                        if p_hold > p_roll:
                            best = p_hold
                            r = 0
                    d = abs(best - P[i, j, k])
                    if d > delta:
                        delta = d
                    P[i, j, k] = best
                    roll[i, j, k] = r
        if delta < tol:
            break
    return P, roll, it, delta
