"""Go-Stop: when to say go, as rules of thumb raced by Monte Carlo on common random numbers.

What belongs here: the go-or-stop rules the deal engine can play and their racing
(:mod:`analyzer.advice.race`). No pandas, no printing.

The engine's go rule (kernels/gostop/turn.py) is ``go:K:T``: once eligible to stop, say go while
you have said fewer than K gos and at least T turns are left; otherwise stop (``greedy`` = always
stop). So the rules searched are exactly that family, in the words of :mod:`analyzer.advice` over
two features a player can count: ``gos`` (gos said this deal) and ``turns`` (turns left in hand):
"always stop" (complexity 0), "go while gos ≤ K − 1" (2), and "if turns left ≤ T − 1, stop; if
gos ≥ K, stop; otherwise go" (4). Hand play is the greedy bot's in every case.

Value: the mean net payment per deal of the seat under study against greedy opponents, averaged
over the dealer seat and the other seat (half the blocks each). Best known policy: the family
member with the highest mean in a pilot round; the loss of a rule is best − rule, per block of
deals played on the same keys by every rule (common random numbers; blocks are independent, so
the batch-means SE over blocks is honest), raced by :func:`analyzer.advice.race.race`.
"""
from __future__ import annotations

import numpy as np

from analyzer.advice import Decision, Feature, Rule

DECISION = Decision("go", "stop")
FEATURES = [Feature("gos", "the gos you have said this deal", (0, 1, 2, 3)),
            Feature("turns", "the turns left in your hand", tuple(range(0, 8)))]
BLOCK = 2048


def family(max_k: int = 3, max_t: int = 6) -> list[tuple[Rule, str]]:
    """(rule, engine policy) for greedy and every go:K:T."""
    out = [(Rule("list", clauses=(), default_act=False), "greedy")]
    for k in range(1, max_k + 1):
        out.append((Rule("threshold", "gos", "<=", (k - 1,)), f"go:{k}"))
        for t in range(2, max_t + 1):
            out.append((Rule("list", clauses=(("turns", "<=", t - 1, False),
                                              ("gos", ">=", k, False)), default_act=True),
                        f"go:{k}:{t}"))
    return out


class GoStopRacer:
    """Per-block paired losses of engine policies (module doc)."""

    def __init__(self, rules, seed: int, blocks_per_round: int = 4):
        self.rules = rules
        self.seed = seed
        self.blocks = blocks_per_round
        self.deals = 0

    def values(self, policy: str, rnd: int) -> np.ndarray:
        """Mean net payment of the studied seat per block of round ``rnd`` (both seats)."""
        from analyzer.advice.race import two_seat_values
        from analyzer.games.gostop.play import make_sim_job, parse_seats
        from kernels.gostop import batch as KB

        def job_for(seat):
            pols = ["greedy"] * self.rules.players
            pols[seat] = policy
            return make_sim_job(self.rules, parse_seats(",".join(pols), self.rules.players))

        v, played = two_seat_values(job_for, lambda seat: KB.C_NET + seat, self.seed, rnd,
                                    self.blocks, BLOCK)
        self.deals += played
        return v


def advise(rules, seed: int, max_rounds: int = 12, precision: float = 0.02,
           blocks_per_round: int = 4) -> dict:
    import time

    from analyzer.advice import pareto
    from analyzer.advice.race import race_family

    t0 = time.perf_counter()
    fam = family()
    racer = GoStopRacer(rules, seed, blocks_per_round)
    scored, cost, ref = race_family([r for r, _p in fam], [p for _r, p in fam], racer.values,
                                    blocks_per_round, max_rounds, precision)
    front = pareto([s for s in scored if s.extra["survived"]])
    cost["deals_spent"] = racer.deals
    cost["unit"] = f"blocks of {BLOCK} deals"
    return {"features": FEATURES, "front": front, "all": scored, "reference": ref, "race": cost,
            "seconds": time.perf_counter() - t0}
