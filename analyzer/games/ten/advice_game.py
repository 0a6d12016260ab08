"""Ten whole games: when to stop drawing, as rules of thumb raced in chance of winning.

What belongs here: the stop rules the whole-game bots can play and their racing
(:func:`analyzer.advice.race.race_family`). No pandas, no printing.

The bots' draw rules (analyzer/games/ten/bots.py) are, in the words of :mod:`analyzer.advice`:

* one threshold: ``threshold:t`` — draw while T = N − C is at most t − 1 (feature ``T``),
  t = 2..12 — or ``cards:m`` — draw while the tableau holds at most m − 1 cards (feature
  ``cards``), m = 1..8 (complexity 2, 19 rules);
* the threshold on T in two bands of the cards left in the draw pile (``deck``, cuts 20, 40, 60,
  90) or of the currency tokens you hold (``tokens``, cuts 2, 4, 6, 8): every pair of bounds
  5..10 that differ (complexity 5, 240 rules);
* three bands (``deck`` cuts 30 and 70, ``tokens`` 3 and 7), bounds 6..8, neighbouring bands
  different (complexity 8, 24 rules).

Their other knobs (rewards, bids, buys) stay at the defaults: 283 candidates with every band
(`ten game-advice --band-by all`; the default races the 19 single thresholds: the banded rules
differ from each other by less than the racing resolves in a minute).

Value: the studied seat's win share (ties shared) in whole games against ``threshold``
opponents (the default bot), the studied seat taking every seat in turn (an equal number of
blocks each); loss = the best surviving rule's win share − the rule's, per block of games on the
same decks (common random numbers; batch-means SE over blocks).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.advice import Decision, Feature, Rule
from analyzer.advice.botrule import BotRule, band_knobs

DECISION = Decision("draw", "stop")
FEATURES = [Feature("T", "T = N − C", tuple(range(2, 13))),
            Feature("cards", "the number of cards in your tableau", tuple(range(1, 9))),
            Feature("deck", "the draw pile", (20, 40, 60, 90), unit="cards"),
            Feature("tokens", "the number of currency tokens you hold", (2, 4, 6, 8))]
TWO_BAND_CUTS = {"deck": (20, 40, 60, 90), "tokens": (2, 4, 6, 8)}
THREE_BAND_CUTS = {"deck": (30, 70), "tokens": (3, 7)}
BANDS = ("all", "none", "deck", "tokens")  # which banded rules `family` adds
BLOCK = 64
BLOCKS_PER_SEAT = 2


@dataclass(frozen=True)
class DrawRule(BotRule):
    """``threshold:t`` (feature T) or ``cards:m`` (feature cards) as a rule of thumb; with
    ``band_by`` (``deck``/``tokens``) the threshold bound is ``at`` below ``cuts[0]``,
    ``limits[0]`` from it and ``limits[1]`` from ``cuts[1]``."""

    FEATURES = FEATURES
    DECISION = DECISION

    bot: str     # "threshold" or "cards"
    at: int
    band_by: str = "none"
    cuts: tuple = ()
    limits: tuple = ()

    def rule(self) -> Rule:
        if self.band_by != "none":
            return Rule("banded", "T", "<=", (self.at - 1, *(k - 1 for k in self.limits)),
                        self.band_by, self.cuts)
        return Rule("threshold", "T" if self.bot == "threshold" else "cards", "<=",
                    (self.at - 1,))

    def bot_text(self) -> str:
        if self.band_by == "none":
            return f"{self.bot}:{self.at}"
        knobs = [f"stop_at={self.at}", f"band_by={self.band_by}"]
        knobs += band_knobs(self.cuts, self.limits, "cut_{}", "stop_at_{}")
        return "threshold:" + ",".join(knobs)


def family(bands: str = "all") -> list[DrawRule]:
    """The candidates of the module doc, simplest first; ``bands`` (:data:`BANDS`) picks the
    banded rules of ``deck``, ``tokens``, both or neither."""
    cands = ([DrawRule("threshold", t) for t in range(2, 13)] +
             [DrawRule("cards", m) for m in range(1, 9)])
    banded = [f for f in TWO_BAND_CUTS if bands in ("all", f)]
    for feature in banded:
        cands += [DrawRule("threshold", t, feature, (c,), (t2,)) for c in TWO_BAND_CUTS[feature]
                  for t in range(5, 11) for t2 in range(5, 11) if t2 != t]
    for feature in banded:
        pair = THREE_BAND_CUTS[feature]
        cands += [DrawRule("threshold", t, feature, pair, (t2, t3)) for t in range(6, 9)
                  for t2 in range(6, 9) for t3 in range(6, 9) if t2 != t and t3 != t2]
    return cands


def bot_for_rule(text: str) -> str:
    """The bot that plays the draw rule of ``rule:FILE.json`` (as `ten game-advice` writes it, or
    by hand in the same forms): a threshold on ``T`` or ``cards`` (``<=``), or the threshold on T
    banded by ``deck`` or ``tokens``."""
    from analyzer.advice.rulefile import load_rule
    from analyzer.errors import UserError

    r = load_rule(text, [f.name for f in FEATURES], "ten")
    where = f"rule file '{text.strip()[5:]}'"
    forms = ("whole-game draw rules are a threshold (<=) on T or cards, or on T banded by deck "
             "or tokens (the rules of `ten game-advice`)")
    if r.kind == "list" or r.op != "<=" or r.feature not in ("T", "cards") or \
            r.kind == "banded" and (r.feature != "T" or r.band_feature not in TWO_BAND_CUTS):
        raise UserError(f"{where}: {forms}")
    if any(t != int(t) for t in (*r.thresholds, *r.cuts)):
        raise UserError(f"{where}: thresholds and cuts must be whole numbers")
    bounds = [int(t) + 1 for t in r.thresholds]
    if r.kind == "threshold":
        return DrawRule("threshold" if r.feature == "T" else "cards", bounds[0]).bot_text()
    return DrawRule("threshold", bounds[0], r.band_feature, tuple(int(c) for c in r.cuts),
                    tuple(bounds[1:])).bot_text()


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

        other, mine = parse_bot("threshold"), parse_bot(cand.bot_text())

        def job_for(seat):
            lineup = [mine if i == seat else other for i in range(self.players)]
            return Setup(self.rules, self.spec, self.players, [lineup]).job()

        v, _played = two_seat_values(job_for, lambda seat: column(f"win_{seat}"), self.seed,
                                     rnd, self.blocks, BLOCK, seats=self.players)
        return v


def advise(rules, spec, players: int, seed: int, max_rounds: int = 16,
           precision: float = 0.005, bands: str = "none", indifference=None) -> dict:
    from analyzer.advice.race import race_family, zone

    racer = TenGameRacer(rules, spec, players, seed)
    return race_family(family(bands), racer.values, BLOCK, max_rounds, precision, "games",
                       zone(precision, indifference))
