"""Who leads a whole game: lead changes and the leader three quarters of the way through.

Shared by the whole-game kernels that report balance figures (Pig, Railroad Canasta, Ten).

Definitions (analyzer/balance.py states them for readers):

* the **strict leader** after a step (a turn, or a round) is the one seat with the most points;
  a tie at the top has none;
* a **lead change** is a step after which the strict leader is a seat other than the last strict
  leader (a tie in between changes nothing: A leads, a tie, A leads is no change; A, a tie, B is
  one);
* the **leader at three quarters** of a game of T steps is the strict leader after step
  ``ceil(3T/4)`` (a game must be over to know T, so the leader after every step is kept).

``trace`` int64[TRACE_HEAD + cap]: ``trace[0]`` the last strict leader (−1 before any),
``trace[1]`` lead changes so far, ``trace[TRACE_HEAD + k]`` the strict leader (−1 none) after
step k + 1 for k < cap. A game longer than ``cap`` steps has no recorded leader at three quarters
when ``ceil(3T/4) > cap`` (:func:`leader_at_three_quarters` then returns −2, counted as "no
leader then" by callers, who size ``cap`` far above the longest game they expect).
"""
from numba import njit

TRACE_HEAD = 2
#: return value of :func:`leader_at_three_quarters` when the step was not recorded
UNRECORDED = -2


@njit(cache=True, inline="always")
def lead_reset(trace):
    trace[0] = -1
    trace[1] = 0


@njit(cache=True, inline="always")
def lead_note(trace, step, leader):
    """Record the strict leader ``leader`` (−1 none) after step ``step`` (0-based)."""
    if leader >= 0:
        if trace[0] >= 0 and leader != trace[0]:
            trace[1] += 1
        trace[0] = leader
    if step < trace.shape[0] - TRACE_HEAD:
        trace[TRACE_HEAD + step] = leader


@njit(cache=True, inline="always")
def strict_leader(scores, n):
    """The one index among ``scores[0:n]`` with the highest value, or −1 when it is tied."""
    best = 0
    tied = False
    for i in range(1, n):
        if scores[i] > scores[best]:
            best = i
            tied = False
        elif scores[i] == scores[best]:
            tied = True
    return -1 if tied else best


@njit(cache=True, inline="always")
def leader_at_three_quarters(trace, steps):
    """The strict leader after step ceil(3·steps/4) (−1 none, UNRECORDED past the cap)."""
    k = (3 * steps + 3) // 4
    if k < 1:
        return -1
    if k - 1 >= trace.shape[0] - TRACE_HEAD:
        return UNRECORDED
    return trace[TRACE_HEAD + k - 1]
