"""Trash Pandas whole games: when to stop rolling, as rules of thumb raced in chance of winning.

What belongs here: the stop rules the whole-game ``heuristic`` bot can play and their racing
(:func:`analyzer.advice.race.race_blocks`). No pandas, no printing.

The bot rolls until it holds ``stop-at`` tokens (``bonus-stop-at`` in a bonus turn), or until a
limit that depends on one more feature in bands (``band-by``, bots.py), and plays its cards by
its other knobs (analyzer/games/trash_pandas/bots.py). So the stop rules it can play are, in
the words of :mod:`analyzer.advice` over the features ``tokens`` (held), ``bonus`` (1 in a bonus
turn), ``deck`` (cards left in the draw pile) and ``behind`` (cards by which your stash trails
the biggest other stash, 0 when yours is the biggest):

* one threshold "roll while tokens ≤ K − 1" (complexity 2), K = 1..6;
* the threshold in two bands of the bonus flag "… ≤ K − 1; in the bonus turn ≤ B − 1"
  (complexity 5), B = 1..bonus cap, B ≠ K;
* the threshold in two bands of ``deck`` (cuts 5, 10, 20, 30) or of ``behind`` (cuts 1, 2, 3, 5),
  every pair of limits 1..6 that differ (complexity 5), in main and bonus turns alike;
* three bands of ``deck`` (cuts 5 and 20, or 10 and 30) or of ``behind`` (1 and 3, or 2 and 5),
  limits 2..5 with neighbouring bands different (complexity 8).

With the default bonus cap of 3 that is 6 + 12 + 240 + 144 = 402 candidates; most lose clearly and
are dropped by racing within a round or two.

Value: the studied seat's win share (ties shared) in whole games against ``heuristic``
opponents, the studied seat taking every seat in turn (an equal number of blocks each); loss =
the best surviving candidate's win share − the rule's, per block of games on the same keys
(common random numbers; batch-means SE over blocks).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.advice import Decision, Feature, Rule
from analyzer.advice.botrule import BotRule, band_knobs

DECISION = Decision("roll", "stop")
FEATURES = [Feature("tokens", "the number of tokens you hold", (1, 2, 3, 4, 5)),
            Feature("bonus", "the bonus-turn flag (1 in the bonus turn)", (1,)),
            Feature("deck", "the draw pile", (5, 10, 20, 30), unit="cards"),
            Feature("behind", "your stash's deficit to the biggest other stash", (1, 2, 3, 5),
                    unit="cards")]
TWO_BAND_CUTS = {"deck": (5, 10, 20, 30), "behind": (1, 2, 3, 5)}
THREE_BAND_CUTS = {"deck": ((5, 20), (10, 30)), "behind": ((1, 3), (2, 5))}
BANDS = ("all", "none", "deck", "behind")  # which banded rules `family` adds
BLOCK = 256
BLOCKS_PER_SEAT = 4


@dataclass(frozen=True)
class StopRule(BotRule):
    """Roll while tokens ≤ stop_at − 1 (main turn) and ≤ bonus_stop_at − 1 (bonus turn); or, with
    ``band_by`` (``deck``/``behind``), while tokens ≤ limit − 1 with limit = stop_at below
    ``cuts[0]``, ``limits[0]`` from it, ``limits[1]`` from ``cuts[1]`` (every turn)."""

    FEATURES = FEATURES
    DECISION = DECISION

    stop_at: int
    bonus_stop_at: int
    band_by: str = "none"
    cuts: tuple = ()
    limits: tuple = ()

    def rule(self) -> Rule:
        if self.band_by != "none":
            return Rule("banded", "tokens", "<=",
                        (self.stop_at - 1, *(k - 1 for k in self.limits)), self.band_by,
                        self.cuts)
        if self.bonus_stop_at == self.stop_at:
            return Rule("threshold", "tokens", "<=", (self.stop_at - 1,))
        return Rule("banded", "tokens", "<=", (self.stop_at - 1, self.bonus_stop_at - 1),
                    "bonus", (1,))

    def bot_text(self) -> str:
        if self.band_by == "none":
            return f"heuristic:stop-at={self.stop_at},bonus-stop-at={self.bonus_stop_at}"
        knobs = [f"band-by={self.band_by}", f"stop-at={self.stop_at}"]
        knobs += band_knobs(self.cuts, self.limits, "cut-{}", "stop-at-{}")
        return "heuristic:" + ",".join(knobs)


def family(rules, bands: str = "all") -> list[StopRule]:
    """The candidates of the module doc, simplest first (a bonus-turn limit above the bonus cap
    plays exactly like the cap, so B stops there); ``bands`` (:data:`BANDS`) picks the banded
    rules of ``deck``, ``behind``, both or neither."""
    cands = [StopRule(k, b) for k in range(1, 7) for b in range(1, rules.bonus_cap + 1)]
    cands.sort(key=lambda r: r.complexity)
    banded = [f for f in TWO_BAND_CUTS if bands in ("all", f)]
    for feature in banded:
        cands += [StopRule(k, k, feature, (c,), (l2,)) for c in TWO_BAND_CUTS[feature]
                  for k in range(1, 7) for l2 in range(1, 7) if l2 != k]
    for feature in banded:
        pairs = THREE_BAND_CUTS[feature]
        cands += [StopRule(k, k, feature, pair, (l2, l3)) for pair in pairs
                  for k in range(2, 6) for l2 in range(2, 6) for l3 in range(2, 6)
                  if l2 != k and l3 != l2]
    return cands


def bot_for_rule(text: str) -> str:
    """The ``heuristic`` bot that plays the stop rule of ``rule:FILE.json`` (a rule as
    `game-advice` writes it, or by hand in the same forms): a threshold on ``tokens`` (``<=``), or
    such a threshold banded by ``bonus`` (one cut at 1), ``deck`` or ``behind``."""
    from analyzer.advice.rulefile import load_rule
    from analyzer.errors import UserError

    r = load_rule(text, [f.name for f in FEATURES], "trash-pandas")
    forms = ("whole-game stop rules are a threshold on tokens (<=), banded by bonus, deck or "
             "behind (the rules of `trash-pandas game-advice`)")
    if r.kind == "list" or r.feature != "tokens" or r.op != "<=":
        raise UserError(f"rule file '{text[5:]}': {forms}")
    limits = []
    for t in r.thresholds:
        if t != int(t) or not 0 <= t <= 5:
            raise UserError(f"rule file '{text[5:]}': token thresholds must be whole numbers "
                            f"0..5 (got {t})")
        limits.append(int(t) + 1)
    if r.kind == "threshold":
        return StopRule(limits[0], limits[0]).bot_text()
    if r.band_feature == "bonus":
        if tuple(r.cuts) != (1,):
            raise UserError(f"rule file '{text[5:]}': the bonus flag has one cut, at 1")
        return StopRule(*limits).bot_text()
    if r.band_feature == "tokens" or any(c != int(c) or c < 1 for c in r.cuts):
        raise UserError(f"rule file '{text[5:]}': {forms}, cuts whole numbers from 1")
    return StopRule(limits[0], limits[0], r.band_feature, tuple(int(c) for c in r.cuts),
                    tuple(limits[1:])).bot_text()


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
           precision: float = 0.002, bands: str = "all", indifference=None) -> dict:
    from analyzer.advice.race import race_family, zone

    racer = GameRacer(rules, players, seed)
    return race_family(family(rules, bands), racer.values, BLOCK, max_rounds, precision, "games",
                       zone(precision, indifference))


def row(s) -> dict:
    """A scored stop rule as JSON (words, data with the bot that plays it, loss statistic)."""
    from analyzer.advice.race import candidate_row

    return candidate_row(s)
