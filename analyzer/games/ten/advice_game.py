"""Ten whole games: when to stop drawing, as rules of thumb raced in chance of winning.

What belongs here: the stop rules the whole-game bots can play and their racing
(:func:`analyzer.advice.race.race_family`). No pandas, no printing.

Features a player sees at a draw-or-stop check (:data:`FEATURES`): T = N − C, C, the cards in the
tableau (``cards``), the cards left in the draw pile (``deck``), the currency tokens held
(``tokens``) and the bust tokens held (``busts``).

**The ladder** (:func:`ladder`, the default), in the issue's order of complexity (numbers and
conditions to remember):

* one threshold (complexity 2): ``threshold:t`` — draw while T ≤ t − 1, t = 2..12; ``cards:m`` —
  draw while the tableau holds at most m − 1 cards, m = 1..8; and, played by the ``table`` bot
  (analyzer/games/ten/draw_table.py), draw while C ≤ c (c = 0..4), while you hold at most k
  tokens (k = 0, 2, 4, 6, 8) or bust tokens (0..2), or while the pile holds at least d cards
  (d = 10, 30, 60);
* the threshold on T in two bands of ``deck`` (cuts 30, 60) or ``tokens`` (cuts 3, 6), bounds
  5..9 that differ (complexity 5), and in three bands (``deck`` cuts 30, 70, ``tokens`` 3, 7),
  bounds 6..8, neighbouring bands different (complexity 8) — the threshold bot's bands;
* decision lists (the ``table`` bot) that add one exception to "stop at T ≥ t" (t = 6..9):
  "If g ⊙ v, draw (or stop). If T ≥ t, stop. Otherwise draw." for g each of C, cards, deck,
  tokens, busts, both comparisons, three values each (complexity 4); and two exceptions, each
  from :data:`EXCEPTIONS` (one per feature and direction a player would use: stop when rich in
  tokens, in bust tokens, in C or in cards, draw on late in the game or while poor), on
  different features, t = 7, 8 (complexity 6).

Rules that decide alike on every state of :func:`state_grid` are kept once, the simplest
(:func:`analyzer.advice.table.distinct`): a list whose exception never changes a decision is
its threshold. Most of the ladder is clearly worse than the best rule and is dropped in the
first rounds of the race, which is what makes racing cheap.

**The bots' family** (:func:`family`, ``--band-by``): the 19 single thresholds on T and cards,
plus rules banded by ``deck`` (cuts 20, 40, 60, 90) or ``tokens`` (2, 4, 6, 8), every pair of
bounds 5..10 that differ (complexity 5, 240 rules), and three bands (``deck`` cuts 30 and 70,
``tokens`` 3 and 7), bounds 6..8, neighbouring bands different (complexity 8, 24 rules).

Their other knobs (rewards, bids, buys) stay at the defaults. Value: the studied seat's win
share (ties shared) in whole games against ``threshold`` opponents (the default bot), the
studied seat taking every seat in turn (an equal number of blocks each); loss = the best
surviving rule's win share − the rule's, per block of games on the same decks (common random
numbers; batch-means SE over blocks). A round plays ⌈32/P⌉ blocks of 16 games per seat (P players:
32 blocks, 512 games with 2 or 4 players, 33 with 3): many small blocks give the first rounds'
Student-t intervals enough degrees of freedom (ν ≥ 31 after one round) to drop clearly bad
rules at once, whatever the number of players; with 2 blocks of 64 games per seat (ν = 7 with 4
players) no rule of the ladder was dropped in the first round. The default race
(:func:`advise`) runs up to 40 rounds with precision and indifference zone 0.01 (one point of
winning chance): the few near-ties that survive the first rounds are cheap to race on, and the
long race is what makes it ≥ 10× cheaper than taking every rule to the survivors' sample
(measured with 4 players, seed 2: 46,528 blocks spent against 550,400, 11.8×). Against the
uniform grid that gives the same guarantee (its own Bonferroni z over the rules alone,
:func:`analyzer.advice.race.equal_guarantee_grid`) the saving is smaller: seed 1, 872,960 games
against 6,136,960, 7.0× (10.1× against the survivors' sample).

Where each front rule goes wrong (:func:`front_mistakes`): after the race, each rule on the front
plays fresh games (a stream of the seed apart from the race's) in the plain-Python reference
engine, which records every draw-or-stop decision of the studied seat with the features above
(analyzer/games/ten/advice_record.py); the decisions where it chose otherwise than the race's
best rule on the same features are counted per game and by cell of the states
(:mod:`analyzer.advice.mistakes`). 400 games per rule by default (the reference is slow), 2 to
4 s each.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.advice import Decision, Feature, Rule
from analyzer.advice.botrule import BotRule, GivenRule, band_knobs

DECISION = Decision("draw", "stop")
FEATURES = [Feature("T", "T = N − C", tuple(range(2, 13))),
            Feature("cards", "the number of cards in your tableau", tuple(range(1, 9))),
            Feature("deck", "the draw pile", (20, 40, 60, 90), unit="cards"),
            Feature("tokens", "the number of currency tokens you hold", (2, 4, 6, 8)),
            Feature("C", "C (the currency in your tableau)", tuple(range(0, 5))),
            Feature("busts", "the number of bust tokens you hold", (0, 1, 2))]
TWO_BAND_CUTS = {"deck": (20, 40, 60, 90), "tokens": (2, 4, 6, 8)}
THREE_BAND_CUTS = {"deck": (30, 70), "tokens": (3, 7)}
BANDS = ("all", "none", "deck", "tokens")  # which banded rules `family` adds
BLOCK = 16
ROUND_BLOCKS = 32  # at least this many blocks per round, split evenly over the seats


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
        knobs = [f"stop-at={self.at}", f"band-by={self.band_by}"]
        knobs += band_knobs(self.cuts, self.limits, "cut-{}", "stop-at-{}")
        return "threshold:" + ":".join(knobs)


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


@dataclass(frozen=True)
class TableRule(GivenRule):
    """A threshold on any feature or a decision list, played by the ``table`` bot
    (analyzer/games/ten/draw_table.py): "act while f ⊙ t" is the list "if f ⊙ t, draw;
    otherwise stop"."""

    FEATURES = FEATURES
    DECISION = DECISION

    def bot_text(self) -> str:
        from analyzer.games.ten.draw_table import bot_text

        r = self.of
        if r.kind == "threshold":
            r = Rule("list", clauses=((r.feature, r.op, r.thresholds[0], True),),
                     default_act=False)
        return bot_text(r)


#: the ladder's one-threshold rules on the table bot's features: (feature, comparison, values)
TABLE_THRESHOLDS = (("C", "<=", tuple(range(0, 5))), ("tokens", "<=", (0, 2, 4, 6, 8)),
                    ("busts", "<=", (0, 1, 2)), ("deck", ">=", (10, 30, 60)))
#: the ladder's two-band and three-band rules on T: cuts per band feature
LADDER_TWO_CUTS = {"deck": (30, 60), "tokens": (3, 6)}
#: the values of the one-exception lists' condition, per feature
EXCEPTION_VALUES = {"C": (1, 2, 3), "cards": (2, 3, 5), "deck": (15, 30, 60),
                    "tokens": (2, 5, 8), "busts": (0, 1, 2)}
#: the exceptions of the two-exception lists: (feature, comparison, value, draw?)
EXCEPTIONS = (("tokens", ">=", 6, False), ("tokens", "<=", 2, True), ("busts", ">=", 2, False),
              ("C", ">=", 3, False), ("cards", ">=", 5, False), ("cards", "<=", 2, True),
              ("deck", "<=", 20, True))


def state_grid() -> dict:
    """Feature states on which two ladder rules that decide alike decide alike wherever the
    game goes: T from below every threshold to above, C 0..5, 1..9 cards, 0..9 tokens, 0..3 bust
    tokens (one past every value the ladder compares with) and, for the cards left, each value
    the ladder compares with and its neighbours (int16 arrays, 605,000 states)."""
    from analyzer.advice.table import grid

    used = {30, 60, 70, 20} | set(TABLE_THRESHOLDS[3][2]) | set(EXCEPTION_VALUES["deck"])
    deck = sorted({0, 110} | {u + d for u in used for d in (-1, 0, 1)})
    X = grid({"T": range(-1, 13), "C": range(0, 6), "cards": range(1, 10), "deck": deck,
              "tokens": range(0, 10), "busts": range(0, 4)})
    return {k: v.astype("int16") for k, v in X.items()}


def ladder() -> list:
    """The default candidates (module doc), simplest first, each behaviour once."""
    from analyzer.advice.table import distinct

    cands = family("none")
    cands += [TableRule(Rule("threshold", f, op, (v,))) for f, op, vals in TABLE_THRESHOLDS
              for v in vals]
    for feature, cuts in LADDER_TWO_CUTS.items():
        cands += [DrawRule("threshold", t, feature, (c,), (t2,)) for c in cuts
                  for t in range(5, 10) for t2 in range(5, 10) if t2 != t]
    for feature, pair in THREE_BAND_CUTS.items():
        cands += [DrawRule("threshold", t, feature, pair, (t2, t3)) for t in range(6, 9)
                  for t2 in range(6, 9) for t3 in range(6, 9) if t2 != t and t3 != t2]

    def with_stop(t, *exceptions):
        return TableRule(Rule("list", clauses=(*exceptions, ("T", ">=", t, False)),
                              default_act=True))

    cands += [with_stop(t, (g, op, v, act)) for t in range(6, 10)
              for g, vals in EXCEPTION_VALUES.items() for op in ("<=", ">=") for v in vals
              for act in (True, False)]
    cands += [with_stop(t, a, b) for t in (7, 8) for a in EXCEPTIONS for b in EXCEPTIONS
              if a[0] != b[0]]
    return distinct(cands, state_grid())


def bot_for_rule(text: str) -> str:
    """The bot that plays the draw rule of ``rule:FILE.json`` (as `ten game-advice` writes it, or
    by hand in the same forms): a threshold (<=) on ``T`` or ``cards`` or the threshold on T
    banded by ``deck`` or ``tokens`` is the threshold or cards bot; any other threshold and
    every decision list of at most 3 clauses is the ``table`` bot."""
    from analyzer.advice.rulefile import load_rule
    from analyzer.errors import UserError

    r = load_rule(text, [f.name for f in FEATURES], "ten")
    where = f"rule file '{text.strip()[5:]}'"
    numbers = [v for _f, _o, v, _a in r.clauses] if r.kind == "list" else [*r.thresholds,
                                                                          *r.cuts]
    if any(t != int(t) or abs(t) > 9999 for t in numbers):
        raise UserError(f"{where}: thresholds, cuts and values must be whole numbers "
                        f"(at most 9999 in size)")
    if r.kind == "list":
        return TableRule(r).bot_text()
    if r.kind == "threshold" and (r.op != "<=" or r.feature not in ("T", "cards")):
        return TableRule(r).bot_text()
    if r.op != "<=" or r.feature != "T" and r.kind == "banded" or \
            r.kind == "banded" and r.band_feature not in TWO_BAND_CUTS:
        raise UserError(f"{where}: a banded whole-game draw rule is a threshold (<=) on T "
                        f"banded by deck or tokens (the rules of `ten game-advice`)")
    bounds = [int(t) + 1 for t in r.thresholds]
    if r.kind == "threshold":
        return DrawRule("threshold" if r.feature == "T" else "cards", bounds[0]).bot_text()
    return DrawRule("threshold", bounds[0], r.band_feature, tuple(int(c) for c in r.cuts),
                    tuple(bounds[1:])).bot_text()


class TenGameRacer:
    """Win share of the studied seat per block of round ``rnd`` (module doc)."""

    def __init__(self, rules, spec, players: int, seed: int, round_blocks: int = ROUND_BLOCKS,
                 others=None):
        from analyzer.games.ten.bots import plain_bot

        self.rules, self.spec, self.players, self.seed = rules, spec, players, seed
        # the line-up the rules play in (default threshold in every seat); the studied seat's
        # bot is replaced by the rule
        self.others = tuple(others) if others else (plain_bot("threshold"),) * players
        self.blocks = -(-round_blocks // players) * players
        self._jobs: dict = {}

    def values(self, cand, rnd: int) -> np.ndarray:
        from analyzer.games.ten.bots import plain_bot

        return self.bot_values(plain_bot(cand.bot_text()), rnd)

    def bot_values(self, mine, rnd: int) -> np.ndarray:
        """The per-block win shares of the bot ``mine`` in round ``rnd`` (every seat in turn)."""
        from analyzer.advice.race import two_seat_values
        from analyzer.games.ten.whole import Setup
        from kernels.ten.whole_layout import column

        def job_for(seat):
            if (mine, seat) not in self._jobs:  # a job per rule and seat, built once
                lineup = [mine if i == seat else self.others[i] for i in range(self.players)]
                self._jobs[mine, seat] = Setup(self.rules, self.spec, self.players,
                                               [lineup]).job()
            return self._jobs[mine, seat]

        v, _played = two_seat_values(job_for, lambda seat: column(f"win_{seat}"), self.seed,
                                     rnd, self.blocks, BLOCK, seats=self.players)
        return v


def advise(rules, spec, players: int, seed: int, max_rounds: int = 40,
           precision: float = 0.01, bands: str | None = None, indifference=None,
           record_games: int = 0, others=None) -> dict:
    """Race :func:`ladder` (``bands`` None) or the bots' :func:`family` with those bands in the
    line-up ``others`` (bots.Bot per seat; default ``threshold`` in every seat). Each front rule then
    plays ``record_games`` fresh games (0, the default: none, as the report parts race; the CLI
    passes ``--record-games``) that say where it decides otherwise than the best rule
    (:func:`front_mistakes`; only against opponents the recording engine plays,
    :func:`recordable`); ``seconds`` counts both."""
    import time

    from analyzer.advice.race import race_family, zone

    racer = TenGameRacer(rules, spec, players, seed, others=others)
    cands = ladder() if bands is None else family(bands)
    res = race_family(cands, racer.values, BLOCK, max_rounds, precision, "games",
                      zone(precision, indifference))
    t0 = time.perf_counter()
    from analyzer.advice.record import interruptible

    with interruptible():
        front_mistakes(res, rules, spec, players, seed, record_games, racer.others)
    res["seconds"] += time.perf_counter() - t0
    return res


def recordable(bot) -> bool:
    """Whether the plain-Python recording engine (advice_record.py, on the reference game) plays
    ``bot`` as the kernel does: every bot but search."""
    return bot.name != "search"


#: the features as the "where it goes wrong" lines name them ("T 8, cards in the tableau 3–4")
WHERE_WORDS = {"T": "T", "C": "C", "cards": "cards in the tableau",
               "deck": "cards left in the draw pile", "tokens": "currency tokens held",
               "busts": "bust tokens held"}


def front_mistakes(res: dict, rules, spec, players: int, seed: int,
                   record_games: int | None = None, others=None) -> None:
    """Set ``extra["mistakes"]`` on each rule of a race's front (``res``, :func:`advise`):
    ``record_games`` recording games each (analyzer/games/ten/advice_record.py, default its
    GAMES; 0 or fewer: none), compared with the race's best rule on the features the player
    saw (:func:`analyzer.advice.record.front_mistakes`)."""
    from analyzer.advice.mistakes import rule_cuts
    from analyzer.advice.record import front_mistakes as mistakes
    from analyzer.games.ten.advice_record import GAMES, record

    n = GAMES if record_games is None else record_games
    if n > 0 and (others is None or all(map(recordable, others))):
        mistakes(res["front"], lambda c, k, sd: record(rules, spec, players, c, k, sd,
                                                       others)[0],
                 res["reference"], WHERE_WORDS, DECISION, seed, n,
                 cuts=lambda a, b: rule_cuts(a.rule(), b.rule()))
