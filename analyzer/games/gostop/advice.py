"""Go-Stop: when to say go, as rules of thumb raced by Monte Carlo on common random numbers.

What belongs here: the go-or-stop rules the deal engine can play and their racing
(:mod:`analyzer.advice.race`). No pandas, no printing.

The engine's go rule (kernels/gostop/turn.py) is ``go:K:T``: once eligible to stop, say go while
you have said fewer than K gos and at least T turns are left; otherwise stop (``greedy`` = always
stop). So the rules searched are exactly that family, in the words of :mod:`analyzer.advice` over
two features a player can count: ``gos`` (gos said this deal) and ``turns`` (turns left in hand):
every distinct go rule the engine can play (:func:`family`: 64 with K ≤ 6, T ≤ 9), each in its
simplest words — "always stop"/"always go" (complexity 0), one threshold on gos or on turns left
(2), and "if turns left ≤ T − 1, stop; if gos ≥ K, stop; otherwise go" (4). Richer rules (on
points over the minimum, the opponents' points) need a go hook in kernels/gostop/turn.py. Hand
play is the greedy bot's in every case.

Value: the mean net payment per deal of the seat under study against greedy opponents, averaged
over the dealer seat and the other seat (half the blocks each). Best known policy: the surviving
family member with the highest mean so far; the loss of a rule is best − rule, per block of
deals played on the same keys by every rule (common random numbers; blocks are independent, so
the batch-means SE over blocks is honest), raced by :func:`analyzer.advice.race.race_blocks`.
"""
from __future__ import annotations

import numpy as np

from analyzer.advice import Decision, Feature, Rule

DECISION = Decision("go", "stop")
FEATURES = [Feature("gos", "the gos you have said this deal", tuple(range(0, 6))),
            Feature("turns", "the turns left in your hand", tuple(range(1, 10)))]
BLOCK = 128
BLOCKS_PER_ROUND = 32
UNLIMITED = 99   # go:99:T: no limit on the gos, only on the turns left


def family(max_k: int = 6, max_t: int = 9) -> list[tuple[Rule, str]]:
    """(rule, engine policy): every go rule the engine can play, once, in its simplest words.

    The engine says go iff ``gos < K and turns left ≥ T`` (turns left ≥ 1 whenever it is
    asked), so the distinct behaviours are: always stop; always go; one threshold on gos
    (K = 1..max_k); one threshold on turns left (T = 2..max_t); and the two-condition list
    (K, T) — which is also the banded rule "go while gos ≤ K − 1 when turns left ≥ T, never
    below": the list is the shorter way to say it.
    """
    out = [(Rule("list", clauses=(), default_act=False), "greedy"),
           (Rule("list", clauses=(), default_act=True), f"go:{UNLIMITED}")]
    for k in range(1, max_k + 1):
        out.append((Rule("threshold", "gos", "<=", (k - 1,)), f"go:{k}"))
    for t in range(2, max_t + 1):
        out.append((Rule("threshold", "turns", ">=", (t,)), f"go:{UNLIMITED}:{t}"))
    for k in range(1, max_k + 1):
        for t in range(2, max_t + 1):
            out.append((Rule("list", clauses=(("turns", "<=", t - 1, False),
                                              ("gos", ">=", k, False)), default_act=True),
                        f"go:{k}:{t}"))
    return out


def rule_policy(text: str) -> str:
    """``rule:FILE.json`` as the engine policy that decides the same in every (gos, turns left)
    state, gos 0..7 and turns left 1..10 (:func:`family` lists them all); a rule the engine
    cannot play is refused."""
    from analyzer.advice.rulefile import load_rule
    from analyzer.errors import UserError

    rule = load_rule(text, [f.name for f in FEATURES], "gostop")
    g, t = np.meshgrid(np.arange(8), np.arange(1, 11), indexing="ij")
    want = np.asarray(rule.acts({"gos": g, "turns": t}), dtype=bool)
    for r, pol in family(max_k=8, max_t=10):
        if np.array_equal(np.asarray(r.acts({"gos": g, "turns": t}), dtype=bool), want):
            return pol
    raise UserError(f"policy '{text.strip()}': the Go-Stop engine plays only rules of the form "
                    f"'go while gos < K and turns left ≥ T'; this rule is not one of them")


class GoStopRacer:
    """Per-block paired losses of engine policies (module doc)."""

    def __init__(self, rules, seed: int, blocks_per_round: int = BLOCKS_PER_ROUND):
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


def advise(rules, seed: int, max_rounds: int = 12, precision: float = 0.05,
           blocks_per_round: int = BLOCKS_PER_ROUND) -> dict:
    import time

    from analyzer.advice import pareto
    from analyzer.advice.race import race_policies

    t0 = time.perf_counter()
    fam = family()
    racer = GoStopRacer(rules, seed, blocks_per_round)
    scored, cost, ref = race_policies([r for r, _p in fam], [p for _r, p in fam], racer.values,
                                      BLOCK, max_rounds, precision)
    front = pareto([s for s in scored if s.extra["survived"]])
    cost["unit"] = "deals"
    return {"features": FEATURES, "front": front, "all": scored, "reference": ref, "race": cost,
            "seconds": time.perf_counter() - t0}
