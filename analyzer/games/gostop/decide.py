"""Go-Stop positions and the go-or-stop decision: kernel arrays of a position, playouts of going.

Position model (``decide``): the seat ``me`` has just finished its turn and is eligible to stop
(S >= target and, after a go, S above the score of its last go). Known: ``me``'s hand, the layout
(singles and triple stacks with their creators), every capture pile, go counts and scores at the
last go, shaken months, bombs and skip tokens, the previous deal's nagari count. Unknown: the
opponents' hands and the stock order. Turn accounting fixes their sizes: ``me`` has
T = hand + skip tokens turns left; seats after ``me`` in this round have T + 1, seats before it T;
an opponent's hand holds its turns left minus its skip tokens. The stock then holds the other
unseen cards, and a consistent position satisfies::

    unseen non-joker cards - opponents' hand cards = turns left (all seats) + jokers in me's hand

(every turn flips one non-joker; every joker played from a hand needs one substitute). Each
playout deals the unseen cards uniformly at random (a Fisher-Yates shuffle per trial) into the
opponents' hands and the stock. Stopping is worth a known amount (``settle``); going is played out
under the stated policies. The per-trial difference go - stop has the stop value as a constant, so
its interval is that of the go value shifted. Reading and checking a position (plain Python, before
NumPy is loaded): :mod:`analyzer.games.gostop.position`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from analyzer.errors import UserError
from analyzer.games.gostop.play import Policy, policy_array
from analyzer.games.gostop.position import Position, check_position
from analyzer.games.gostop.rules import GoStopRules, card_name, rules_vector

if TYPE_CHECKING:
    from analyzer.runner import RunSpec



@dataclass
class Built:
    """A kernel state array for a position (PS, PV, EV are numpy views into it)."""

    S: np.ndarray
    unseen: list = field(default_factory=list)
    opp_sizes: list = field(default_factory=list)
    remaining: list = field(default_factory=list)

    @property
    def PS(self):
        from kernels.gostop.state import views
        return views(self.S)[0]

    @property
    def PV(self):
        from kernels.gostop.state import views
        return views(self.S)[1]

    @property
    def EV(self):
        from kernels.gostop.state import views
        return views(self.S)[2]

    def set_policies(self, pols) -> None:
        from kernels.gostop.score import MAXP, NPOL, POLB
        self.S[POLB:POLB + MAXP * NPOL] = policy_array(pols).reshape(-1)


def make_state(rules: GoStopRules, hands, layout, stacks, piles, stock, go_counts=None,
               last_go=None, shaken=None, bombs=None, skip=None, turns=None) -> Built:
    """Kernel arrays for a fully specified position (cards as integers).

    ``stacks``: list of (three cards, creator seat or -1, creator's turn index at creation).
    ``shaken``: per seat a list of 1-based months.
    """
    from kernels.gostop import state as K
    from kernels.gostop import score as KS

    n = rules.players
    S = K.new_state(rules_vector(rules), policy_array([Policy("greedy")] * n))
    PS, PV, _ = K.views(S)
    PV[:, KS.V_FIRSTGO] = KS.NO_GO
    S[K.NPL] = n
    S[K.SOWN:K.SOWN + 12] = -1
    for p in range(n):
        h = hands[p] if hands else []
        if len(h) > K.MAXH:
            raise UserError(f"seat {p + 1} holds {len(h)} cards; at most {K.MAXH}")
        for i, c in enumerate(h):
            S[K.HAND + p * K.MAXH + i] = c
        S[K.HN + p] = len(h)
        for c in piles[p]:
            S[K.PILE + p * KS.MAXC + S[K.PN + p]] = c
            S[K.PN + p] += 1
            KS.stats_add(S, p, np.int64(c), np.int64(1))
    for c in layout:
        m = c // 4
        S[K.LAY + 4 * m + S[K.LN + m]] = c
        S[K.LN + m] += 1
    for cards, creator, turn in stacks:
        m = cards[0] // 4
        for c in cards:
            S[K.LAY + 4 * m + S[K.LN + m]] = c
            S[K.LN + m] += 1
        S[K.SOWN + m] = creator
        S[K.STRN + m] = turn
    for i, c in enumerate(stock):
        S[K.STOCK + i] = c
    S[K.SLEN] = len(stock)
    seq = 0
    for p in range(n):
        g = (go_counts or [0] * n)[p]
        PV[p, KS.V_GO] = g
        PV[p, KS.V_LASTGO] = (last_go or [0] * n)[p]
        if g > 0:
            PV[p, KS.V_FIRSTGO] = seq
            seq += 1
        for mo in (shaken or [[]] * n)[p]:
            PV[p, KS.V_SHAKEMASK] |= 1 << (mo - 1)
            PV[p, KS.V_SHAKES] += 1
        PV[p, KS.V_BOMBS] = (bombs or [0] * n)[p]
        PV[p, KS.V_SKIP] = (skip or [0] * n)[p]
        PV[p, KS.V_TURNS] = (turns or [0] * n)[p]
    S[K.GOSEQ] = seq
    return Built(S)


def build_position(pos: dict | Position, rules: GoStopRules) -> tuple[Built, dict]:
    """The kernel arrays of a decide position: a TOML table (or flags), checked here first, or a
    :class:`~analyzer.games.gostop.position.Position` checked already (down to the stop
    minimum)."""
    p = pos if isinstance(pos, Position) else check_position(pos, rules)
    n, me = rules.players, p.me
    hands = [p.hand if q == me else [] for q in range(n)]
    built = make_state(rules, hands, p.layout, p.stacks, p.piles, [], p.go_counts, p.last_go,
                       p.shaken, p.bombs, p.skip, p.turns)
    built.unseen = p.unseen
    built.opp_sizes = p.opp_sizes
    built.remaining = p.remaining
    info = {"me": me + 1, "score": p.score, "stock": p.stock, "turns_left": p.remaining,
            "opponent_hand_sizes": [p.opp_sizes[q] for q in range(n) if q != me],
            "nagari": p.nagari, "forced_stop": p.remaining[me] == 0,
            "hand": [card_name(c, rules) for c in p.hand]}
    return built, info


def decide(pos: dict | Position, rules: GoStopRules, me_policy: Policy,
           opp_policy: Policy | list[Policy], spec: RunSpec) -> dict:
    """Expected net payment to ``me`` of going and of stopping, and their difference.

    ``pos`` as :func:`build_position`; ``spec.n`` playouts of the go branch (``None`` without a
    precision target: the shared default of every ``decide``, analyzer.options.DECIDE_PLAYOUTS).
    ``opp_policy`` plays every other seat, or is a line-up (one policy per seat, the decider's
    entry unused)."""
    built, info = build_position(pos, rules)  # every check before a kernel is imported
    from analyzer.runner import KernelJob, half_width_of_mean
    from analyzer.stats import mean_from_sums, paired_difference, wilson
    from kernels.gostop import batch as K
    from kernels.gostop import score as KS

    me = info["me"] - 1  # the seat as a program index (info counts seats from 1)
    lineup = (list(opp_policy) if isinstance(opp_policy, (list, tuple))
              else [opp_policy] * rules.players)
    nagari = info["nagari"]
    net = np.zeros(K.MAXP, np.int64)
    KS.settle(built.S, me, rules.players, nagari, net)
    stop_net = int(net[me])
    base = {"game": "gostop", "exact": False, "seed": spec.seed, "position": info,
            "stop_payment": stop_net,
            "policies": {"me": me_policy.label, "opponents": ",".join(
                dict.fromkeys(p.label for q, p in enumerate(lineup) if q != me))}}
    if info["forced_stop"]:
        base.update({"recommendation": "stop", "forced": True, "n": 0,
                     "reason": "no turn left for this seat: it must stop"})
        return base
    pols = list(lineup)
    pols[me] = me_policy
    built.set_policies(pols)
    unseen = np.array(built.unseen, np.int64)
    sizes = np.array(built.opp_sizes + [0] * (K.MAXP - len(built.opp_sizes)), np.int64)

    def run_blocks(keys, counts):
        return K.decide_blocks(keys, counts, built.S, unseen, len(unseen), sizes, me, nagari,
                               stop_net)

    job = KernelJob("gostop decide", 1024, run_blocks, half_width_of_mean(K.D_DIFF, K.D_DIFF2),
                    unit="playouts")
    if spec.n is None and spec.precision is None:
        from analyzer.options import DECIDE_PLAYOUTS

        spec = replace(spec, n=DECIDE_PLAYOUTS)
    res = spec.run(job)
    s = res.sums
    if s[K.D_ERR] > 0:  # pragma: no cover - engine invariant
        raise UserError(f"engine error in {int(s[K.D_ERR])} playouts")
    go = mean_from_sums(float(s[K.D_GO]), float(s[K.D_GO2]), res.n)
    diff = paired_difference(float(s[K.D_DIFF]), float(s[K.D_DIFF2]), res.n)
    if diff.contains_zero():
        rec = f"too close to call at n = {res.n:,}"
    else:
        rec = "go" if diff.estimate > 0 else "stop"
    base.update({
        "n": res.n, "go_payment": go, "difference_go_minus_stop": diff,
        "recommendation": rec, "margin": abs(diff.estimate),
        "after_go": {"p_win": wilson(float(s[K.D_WIN]), res.n),
                     "p_nagari": wilson(float(s[K.D_NAGARI]), res.n),
                     "p_opponent_wins": wilson(float(s[K.D_LOSE]), res.n)},
        "playouts_per_second": res.per_second, "stopped_by": res.stopped_by,
    })
    return base
