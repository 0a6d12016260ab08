"""Pig policy evaluation: exact win probability of a fixed policy A against a fixed policy B.

Model (rules as in kernels/pig/exact.py). ``X[i, j, k]``: probability that A wins when A is to
move with score ``i``, B has ``j`` and A's turn total is ``k``; ``Y[j, i, k]``: probability that
A wins when B is to move with score ``j``, A has ``i`` and B's turn total is ``k``. With A's
table ``ra`` and B's table ``rb`` (1 roll, 0 hold; both roll at k = 0)::

    X[i,j,k] = Y[j, i+k, 0]                                         if A holds (k > 0)
             = (b/F)·Y[j,i,0] + (1/F)·Σ_{f>b} (1 if i+k+f ≥ goal else X[i,j,k+f])   if A rolls
    Y[j,i,k] = X[i, j+k, 0]                                         if B holds
             = (b/F)·X[i,j,0] + (1/F)·Σ_{f>b} (0 if j+k+f ≥ goal else Y[j,i,k+f])   if B rolls

Solved exactly in one backward pass, no iteration: holds move to a higher score sum ``i + j``
(already solved), rolls to a larger turn total, and only a bust stays in the level (it hands
the turn over with the same scores). So within a pair (i, j) every ``X[i,j,k]`` is affine in
``Y0 = Y[j,i,0]``, ``X = α + β·Y0``, and every ``Y[j,i,k]`` affine in ``X0 = X[i,j,0]``; the
two k = 0 equations form a 2 × 2 system, solved in closed form.

Reach (``reach_pig``): the expected number of visits of each A-to-move state in the same game,
by the same level structure run forwards (visits of the k = 0 states of a pair solve the same
kind of 2 × 2 system through the bust-return fractions).

Cost: goal³ states per side, O(goal³·F) time in one pass (about 10 ms at goal 100); the
evaluation of the optimal table against itself reproduces the solver's 0.5306.
"""
import numpy as np
from numba import njit


@njit(cache=True)
def evaluate_pig(goal, faces, bust_faces, ra, rb):
    """Win probabilities ``(X0, Y0)`` of A (table ``ra``) against B (``rb``); module doc.

    ``ra``, ``rb``: C-contiguous uint8 arrays of shape (goal, goal, goal) indexed [own, opp,
    turn]. Returns the turn-start values only: ``X0[i, j] = X[i, j, 0]`` and ``Y0[j, i] =
    Y[j, i, 0]`` (shape (goal, goal)); ``X0[0, 0]``: A moves first, ``Y0[0, 0]``: B moves first
    (both P(A wins)).
    """
    X = np.zeros((goal, goal), dtype=np.float64)
    Y = np.zeros((goal, goal), dtype=np.float64)
    aa = np.zeros(goal + faces + 1)
    ba = np.zeros(goal + faces + 1)
    ab = np.zeros(goal + faces + 1)
    bb = np.zeros(goal + faces + 1)
    inv = 1.0 / faces
    pb = bust_faces * inv
    for s in range(2 * goal - 2, -1, -1):
        for i in range(goal):
            j = s - i
            if j < 0 or j >= goal:
                continue
            # A's turn at (i, j): X = aa + ba * Y0
            for k in range(goal - i - 1, -1, -1):
                if k > 0 and ra[i, j, k] == 0:
                    aa[k] = Y[j, i + k]
                    ba[k] = 0.0
                else:
                    a = 0.0
                    c = pb
                    for f in range(bust_faces + 1, faces + 1):
                        t = k + f
                        if i + t >= goal:
                            a += inv
                        else:
                            a += inv * aa[t]
                            c += inv * ba[t]
                    aa[k] = a
                    ba[k] = c
            # B's turn at (j, i): Y = ab + bb * X0
            for k in range(goal - j - 1, -1, -1):
                if k > 0 and rb[j, i, k] == 0:
                    ab[k] = X[i, j + k]
                    bb[k] = 0.0
                else:
                    a = 0.0
                    c = pb
                    for f in range(bust_faces + 1, faces + 1):
                        t = k + f
                        if j + t < goal:
                            a += inv * ab[t]
                            c += inv * bb[t]
                    ab[k] = a
                    bb[k] = c
            x0 = (aa[0] + ba[0] * ab[0]) / (1.0 - ba[0] * bb[0])
            y0 = ab[0] + bb[0] * x0
            X[i, j] = x0
            Y[j, i] = y0
    return X, Y


@njit(cache=True)
def reach_pig(goal, faces, bust_faces, ra, rb, start_a, start_b):
    """Expected visits ``RA[i, j, k]`` of A-to-move states (module doc).

    ``start_a``: probability that A moves first at (0, 0, 0); ``start_b`` that B does.
    """
    RA = np.zeros((goal, goal, goal), dtype=np.float64)
    RB = np.zeros((goal, goal, goal), dtype=np.float64)  # [j, i, k], B to move
    RA[0, 0, 0] = start_a
    RB[0, 0, 0] = start_b
    ua = np.zeros(goal + faces + 1)
    ub = np.zeros(goal + faces + 1)
    inv = 1.0 / faces
    pb = bust_faces * inv
    for s in range(2 * goal - 1):
        for i in range(goal):
            j = s - i
            if j < 0 or j >= goal:
                continue
            # unit mass into A's (i, j, 0): visits ua[k], bust-return fraction qa
            for k in range(goal + faces + 1):
                ua[k] = 0.0
                ub[k] = 0.0
            ua[0] = 1.0
            qa = 0.0
            for k in range(goal - i):
                m = ua[k]
                if m == 0.0:
                    continue
                if k == 0 or ra[i, j, k] == 1:
                    qa += pb * m
                    for f in range(bust_faces + 1, faces + 1):
                        ua[k + f] += inv * m
            ub[0] = 1.0
            qb = 0.0
            for k in range(goal - j):
                m = ub[k]
                if m == 0.0:
                    continue
                if k == 0 or rb[j, i, k] == 1:
                    qb += pb * m
                    for f in range(bust_faces + 1, faces + 1):
                        ub[k + f] += inv * m
            ea = RA[i, j, 0]
            eb = RB[j, i, 0]
            va = (ea + qb * eb) / (1.0 - qa * qb)
            vb = eb + qa * va
            for k in range(goal - i):
                RA[i, j, k] = va * ua[k]
                if k > 0 and ra[i, j, k] == 0:
                    RB[j, i + k, 0] += va * ua[k]
            for k in range(goal - j):
                RB[j, i, k] = vb * ub[k]
                if k > 0 and rb[j, i, k] == 0:
                    RA[i, j + k, 0] += vb * ub[k]
    return RA
