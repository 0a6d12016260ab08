"""Ten whole games, the ``rollout:K`` bot's draw rule (D_ROLLOUT in ``whole_layout.py``).

Design: Numba cannot call the jitted game engine from inside itself, so the bot rolls out only
the **rest of the current turn**, with a simple base policy, and values each rollout's outcome
with the one-turn value model of ``pushluck ten best`` (the ``exact`` bot's model):

- stopping now is worth V_stop = max(card · n − oppc · min(C, cap), token · min(C, room)) with n
  the number cards in the tableau, C its currency, room = cap − tokens held, oppc = opp × the
  number of opponents;
- drawing is worth the mean over K rollouts of: draw one card, then keep drawing while
  T = N − C < stop_at (the base policy) and cards are left; the end is a stop (V_stop of that
  tableau), a number bust (bust·token − oppc · min(C, cap)) or a currency bust (bust·token).
  A wild changes nothing in a rollout (the turn model's reading: it is auctioned, not drawn into
  the tableau).

The cards of a rollout are drawn without replacement from the counts of the draw pile, which a
seat can work out (every other card is face up or public), so the bot sees nothing hidden: draw
r = randint(s, cards left) and take the card type whose cumulative count first exceeds r (types
in index order). The bot draws iff the mean of the rollouts exceeds V_stop (ties stop). Rollouts
use the game's own stream ``s``; the Python reference does the same draws in the same order.
Cost: K × (cards per rollout) × 55 per decision.
"""
from numba import njit

from kernels.rng import randint
from kernels.ten.whole_layout import (B_BUSTV, B_CARD, B_DRAWP, B_OPPC, B_ROLLOUTS, B_TOKEN,
                                      CUR0, CW0, NTYPES, ROW_PILE, R_BUST, R_CAP, R_CBUST)
from kernels.ten.whole_score import ROLL_WS
from kernels.widen import plain_types


@njit(cache=True, inline="always", _nrt=False)
def stop_value(n, C, room, cap, bot):
    num = bot[B_CARD] * n - bot[B_OPPC] * (C if C < cap else cap)
    cur = bot[B_TOKEN] * (C if C < room else room)
    return num if num > cur else cur


@plain_types
@njit(cache=True, _nrt=False)
def rollout_draws(N, C, n, a, cards, tk, rl, bot, s, ws):
    """True when the mean of the K rollouts beats stopping now (module doc)."""
    cap = rl[R_CAP]
    room = cap - tk[a]
    if room < 0:
        room = 0
    v_stop = stop_value(n, C, room, cap, bot)
    left0 = 0
    for t in range(NTYPES):
        left0 += cards[ROW_PILE, t]
    K = int(bot[B_ROLLOUTS])
    total = 0.0
    for _ in range(K):
        for t in range(NTYPES):
            ws[ROLL_WS + t] = cards[ROW_PILE, t]
        left = left0
        rN = N
        rC = C
        rn = n
        v = 0.0
        while True:
            r = randint(s, left)
            c = 0
            while r >= ws[ROLL_WS + c]:
                r -= ws[ROLL_WS + c]
                c += 1
            ws[ROLL_WS + c] -= 1
            left -= 1
            if c < 36:
                rN += c % 9 + 1
                rn += 1
                if rN - rC >= rl[R_BUST]:
                    v = bot[B_BUSTV] - bot[B_OPPC] * (rC if rC < cap else cap)
                    break
            elif c < CW0:
                rC += c - CUR0 + 1
                if rC >= rl[R_CBUST]:
                    v = bot[B_BUSTV]
                    break
            if left == 0 or rN - rC >= bot[B_DRAWP]:
                v = stop_value(rn, rC, room, cap, bot)
                break
        total += v
    return total > v_stop * K
