"""Trash Pandas whole games: when to stop rolling, as rules of thumb raced in chance of winning.

What belongs here: the stop rules the whole-game ``heuristic`` bot can play and their racing
(:func:`analyzer.advice.race.race_blocks`). No pandas, no printing.

The bot rolls until it holds ``stop-at`` tokens (``bonus-stop-at`` in a bonus turn) and plays
its cards by its other knobs (analyzer/games/trash_pandas/bots.py), so the stop rules it can
play are, in the words of :mod:`analyzer.advice` over the features ``tokens`` (held) and
``bonus`` (1 in a bonus turn): one threshold "roll while tokens ≤ K − 1" (complexity 2, the
same K in the bonus turn) or the threshold in two bands of the bonus flag "… ≤ K − 1; in the
bonus turn ≤ B − 1" (complexity 5): K = 1..6, B = 1..5, 30 candidates (B ≥ the bonus cap plays
like B = cap, so some bands play alike; they are raced all the same).

Value: the studied seat's win share (ties shared) in whole games against ``heuristic``
opponents, the studied seat taking every seat in turn (an equal number of blocks each); loss =
the best surviving candidate's win share − the rule's, per block of games on the same keys
(common random numbers; batch-means SE over blocks).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.advice import Decision, Feature, Rule

DECISION = Decision("roll", "stop")
FEATURES = [Feature("tokens", "the number of tokens you hold", (1, 2, 3, 4, 5)),
            Feature("bonus", "the bonus-turn flag (1 in the bonus turn)", (1,))]
BLOCK = 256
BLOCKS_PER_SEAT = 4


@dataclass(frozen=True)
class StopRule:
    """Roll while tokens ≤ stop_at − 1 (main turn) and ≤ bonus_stop_at − 1 (bonus turn)."""

    stop_at: int
    bonus_stop_at: int

    def rule(self) -> Rule:
        if self.bonus_stop_at == self.stop_at:
            return Rule("threshold", "tokens", "<=", (self.stop_at - 1,))
        return Rule("banded", "tokens", "<=", (self.stop_at - 1, self.bonus_stop_at - 1),
                    "bonus", (1,))

    @property
    def complexity(self) -> int:
        return self.rule().complexity

    def words(self) -> str:
        return self.rule().words({f.name: f for f in FEATURES}, DECISION)

    def to_json(self) -> dict:
        return {**self.rule().to_json(), "bot": self.bot_text()}

    def bot_text(self) -> str:
        return f"heuristic:stop-at={self.stop_at},bonus-stop-at={self.bonus_stop_at}"


def family(rules) -> list[StopRule]:
    """K = 1..6 with B = 1..bonus cap (a larger B plays exactly like the cap)."""
    return [StopRule(k, b) for k in range(1, 7) for b in range(1, rules.bonus_cap + 1)]


class GameRacer:
    """Win share of the studied seat per block of round ``rnd`` (module doc)."""

    def __init__(self, rules, players: int, seed: int, blocks_per_seat: int = BLOCKS_PER_SEAT):
        from analyzer.games.trash_pandas.bots import parse_bot
        from analyzer.games.trash_pandas.whole import GameSetup

        self.rules, self.players, self.seed = rules, players, seed
        self.blocks = blocks_per_seat * players
        self.games = 0
        self.others = parse_bot("heuristic")
        # rules, deck and solver tables once; each job only swaps the line-up's bot rows
        self.base = GameSetup(rules, players, [(self.others,) * players])
        self.columns = self.base.columns()

    def values(self, cand: StopRule, rnd: int) -> np.ndarray:
        import copy

        from analyzer.advice.race import two_seat_values
        from analyzer.games.trash_pandas.bots import lineup_array, parse_bot

        mine = parse_bot(cand.bot_text())

        def job_for(seat):
            setup = copy.copy(self.base)
            setup.lineups = [tuple(mine if i == seat else self.others
                                   for i in range(self.players))]
            setup.bots = lineup_array(setup.lineups)
            return setup

        def column_for(seat):
            return self.columns.index(f"L0:win{seat}")

        v, played = two_seat_values(job_for, column_for, self.seed, rnd, self.blocks, BLOCK,
                                    seats=self.players)
        self.games += played
        return v


def advise(rules, players: int, seed: int, max_rounds: int = 24,
           precision: float = 0.002) -> dict:
    from analyzer.advice.race import race_family

    racer = GameRacer(rules, players, seed)
    return race_family(family(rules), racer.values, BLOCK, max_rounds, precision, "games")


def row(s) -> dict:
    """A scored stop rule as JSON (words, data with the bot that plays it, loss statistic)."""
    from analyzer.advice.race import candidate_row

    return candidate_row(s)
