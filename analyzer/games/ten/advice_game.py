"""Ten whole games: when to stop drawing, as rules of thumb raced in chance of winning.

What belongs here: the stop rules the whole-game bots can play and their racing
(:func:`analyzer.advice.race.race_family`). No pandas, no printing.

The bots' draw rules (analyzer/games/ten/bots.py) are, in the words of :mod:`analyzer.advice`,
one threshold each: ``threshold:t`` — draw while T = N − C is at most t − 1 (feature ``T``) —
and ``cards:m`` — draw while the tableau holds at most m − 1 cards (feature ``cards``); their
other knobs (rewards, bids, buys) stay at the defaults. Family: t = 2..12 and m = 1..8, 19 rules
of complexity 2.

Value: the studied seat's win share (ties shared) in whole games against ``threshold``
opponents (the default bot), the studied seat taking every seat in turn (an equal number of
blocks each); loss = the best surviving rule's win share − the rule's, per block of games on the
same decks (common random numbers; batch-means SE over blocks).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.advice import Decision, Feature, Rule

DECISION = Decision("draw", "stop")
FEATURES = [Feature("T", "T = N − C", tuple(range(2, 13))),
            Feature("cards", "the number of cards in your tableau", tuple(range(1, 9)))]
BLOCK = 64
BLOCKS_PER_SEAT = 2


@dataclass(frozen=True)
class DrawRule:
    """``threshold:t`` (feature T) or ``cards:m`` (feature cards) as a rule of thumb."""

    bot: str     # "threshold" or "cards"
    at: int

    def rule(self) -> Rule:
        return Rule("threshold", "T" if self.bot == "threshold" else "cards", "<=",
                    (self.at - 1,))

    @property
    def complexity(self) -> int:
        return self.rule().complexity

    def words(self) -> str:
        return self.rule().words({f.name: f for f in FEATURES}, DECISION)

    def to_json(self) -> dict:
        return {**self.rule().to_json(), "bot": f"{self.bot}:{self.at}"}


def family() -> list[DrawRule]:
    return ([DrawRule("threshold", t) for t in range(2, 13)] +
            [DrawRule("cards", m) for m in range(1, 9)])


class TenGameRacer:
    """Win share of the studied seat per block of round ``rnd`` (module doc)."""

    def __init__(self, rules, spec, players: int, seed: int,
                 blocks_per_seat: int = BLOCKS_PER_SEAT):
        self.rules, self.spec, self.players, self.seed = rules, spec, players, seed
        self.blocks = blocks_per_seat * players

    def values(self, cand: DrawRule, rnd: int) -> np.ndarray:
        from analyzer.advice.race import two_seat_values
        from analyzer.games.ten.bots import parse_bot
        from analyzer.games.ten.whole import Setup
        from kernels.ten.whole_layout import column

        other, mine = parse_bot("threshold"), parse_bot(f"{cand.bot}:{cand.at}")

        def job_for(seat):
            lineup = [mine if i == seat else other for i in range(self.players)]
            return Setup(self.rules, self.spec, self.players, [lineup]).job()

        v, _played = two_seat_values(job_for, lambda seat: column(f"win_{seat}"), self.seed,
                                     rnd, self.blocks, BLOCK, seats=self.players)
        return v


def advise(rules, spec, players: int, seed: int, max_rounds: int = 16,
           precision: float = 0.005) -> dict:
    from analyzer.advice.race import race_family

    racer = TenGameRacer(rules, spec, players, seed)
    return race_family(family(), racer.values, BLOCK, max_rounds, precision, "games")
