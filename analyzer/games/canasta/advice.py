"""Railroad Canasta: when to take the pile and when to go out, raced by Monte Carlo.

What belongs here: the take-the-pile / go-out rules the engine's bots can play and their racing
(:func:`analyzer.advice.race.race_family`). No pandas, no printing.

The engine's knobs (kernels/canasta/layout.py) give two rules a player can remember, each over one
visible count: *take the pile* when it holds at least P cards (P = 1: whenever allowed), and *go
out* as soon as allowed, or only with at least K completed canastas unless the stock is down to F
cards. A candidate is one take rule and one go-out rule; its complexity is the sum of theirs in the
terms of :mod:`analyzer.advice` (a threshold: 2; "as soon as allowed" or "whenever allowed": 0; "K
canastas or stock ≤ F": 4). (F = 0 means no stock condition.) Everything else plays as the
``greedy`` bot.

Value: the studied seat's win rate in whole games against ``greedy`` opponents, averaged over
seat 0 and seat 1 (half the blocks each); loss = the best surviving candidate's minus the rule's,
per block of games on the same keys (common random numbers; batch-means SE over blocks), raced
by :func:`analyzer.advice.race.race_blocks`. Whole games cost about a millisecond each, so the
family is kept to 25 candidates for a run of under a minute.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from analyzer.advice import Decision, Feature, Rule

BLOCK = 16
BLOCKS_PER_ROUND = 16
FEATURES = [Feature("pile", "the cards in the discard pile", (1, 5, 10)),
            Feature("canastas", "your completed canastas", (5, 6, 7)),
            Feature("stock", "the cards left in the stock", (20,))]
TAKE = Decision("take the pile", "draw from the stock")
GO = Decision("go out", "keep playing")


@dataclass(frozen=True)
class Combo:
    """A take-the-pile rule and a go-out rule played together."""

    take_min: int
    go_min: int
    floor: int = 20

    @property
    def complexity(self) -> int:
        go = 0 if self.go_min == 0 else (2 if self.floor == 0 else 4)
        return (0 if self.take_min <= 1 else 2) + go

    def words(self) -> str:
        fd = {f.name: f for f in FEATURES}
        take = ("Take the pile whenever allowed." if self.take_min <= 1 else
                Rule("threshold", "pile", ">=", (self.take_min,)).words(fd, TAKE))
        go = ("Go out as soon as allowed." if self.go_min == 0 else
              Rule("threshold", "canastas", ">=", (self.go_min,)).words(fd, GO)
              if self.floor == 0 else
              Rule("list", clauses=(("stock", "<=", self.floor, True),
                                    ("canastas", ">=", self.go_min, True)),
                   default_act=False).words(fd, GO))
        return f"{take} {go}"

    def to_json(self) -> dict:
        return {"kind": "canasta", "take_pile_min": self.take_min, "go_out_min_canastas":
                self.go_min, "go_out_stock_floor": self.floor, "complexity": self.complexity}

    def policy(self):
        from analyzer.games.canasta.play import CanastaPolicy

        base = CanastaPolicy("greedy") if self.go_min == 0 else CanastaPolicy(
            "builder", go_min=self.go_min, floor=self.floor)
        return replace(base, take=1, take_min=self.take_min)


def rule_from_file(text: str) -> Combo:
    """``rule:FILE.json`` holding a take/go-out pair of ``canasta advice`` (its ``rule``)."""
    from analyzer.advice.rulefile import read_rule_data
    from analyzer.errors import UserError

    d = read_rule_data(text, "canasta")
    vals = [d.get(k) for k in ("take_pile_min", "go_out_min_canastas", "go_out_stock_floor")]
    if d.get("kind") != "canasta" or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 1000 for v in vals):
        raise UserError(f"rule file '{text.strip()[5:]}': expected a Canasta rule (kind canasta "
                        f"with take_pile_min, go_out_min_canastas and go_out_stock_floor, as "
                        f"`canasta advice --out DIR` writes it)")
    return Combo(*vals)


def family() -> list[Combo]:
    """Every take rule (whenever allowed, or P ∈ {3, 5, 8, 12} cards) with every go-out rule (as
    soon as allowed, or K ∈ {5, 7} canastas, alone or unless the stock is down to 20): 25."""
    go = [(0, 20), (5, 0), (7, 0), (5, 20), (7, 20)]
    return [Combo(p, k, f) for k, f in go for p in (1, 3, 5, 8, 12)]


class CanastaRacer:
    def __init__(self, rules, seed: int, blocks_per_round: int = BLOCKS_PER_ROUND):
        self.rules = rules
        self.seed = seed
        self.blocks = blocks_per_round
        self.games = 0

    def values(self, combo: Combo, rnd: int) -> np.ndarray:
        """Win rate of the studied seat per block of round ``rnd`` (both seats)."""
        from analyzer.advice.race import two_seat_values
        from analyzer.games.canasta.play import CanastaPolicy, make_job
        from kernels.canasta import MODE_GAMES

        def job_for(seat):
            pols = [CanastaPolicy("greedy")] * self.rules.players
            pols[seat] = combo.policy()
            return make_job(MODE_GAMES, self.rules, pols)

        v, played = two_seat_values(job_for, lambda seat: 4 + seat, self.seed, rnd,
                                    self.blocks, BLOCK)
        self.games += played
        return v


def advise(rules, seed: int, max_rounds: int = 8, precision: float = 0.02,
           blocks_per_round: int = BLOCKS_PER_ROUND) -> dict:
    from analyzer.advice.race import race_family

    racer = CanastaRacer(rules, seed, blocks_per_round)
    return race_family(family(), racer.values, BLOCK, max_rounds, precision, "games")


def row(s) -> dict:
    """A scored combo as JSON (words, data, loss statistic)."""
    from analyzer.advice.race import candidate_row

    return candidate_row(s)
