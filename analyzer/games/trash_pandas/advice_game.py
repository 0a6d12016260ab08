"""Trash Pandas whole games: when to stop rolling, as rules of thumb raced in chance of winning.

What belongs here: the stop rules the whole-game ``heuristic`` bot can play, their compilation
into its stop rule table, and their racing (:func:`analyzer.advice.race.race_blocks`). No pandas,
no printing.

The bot rolls until it holds ``stop-at`` tokens (``bonus-stop-at`` in a bonus turn), or until a
limit that depends on one more feature in bands (``band-by``, bots.py), or as a stop rule table
says (rows of guard and test conditions read in order, analyzer/advice/table.py and
kernels/trash_pandas/whole_bots.py ``rolls_by_table``), and plays its cards by its other knobs
(analyzer/games/trash_pandas/bots.py). The features, a player's own counts at the moment of
deciding whether to roll again (:data:`FEATURE_IDS` maps them to the kernel's ``F_*``):
``tokens`` (held), ``bonus`` (1 in a bonus turn), ``deck`` (cards left in the draw pile),
``behind`` (cards by which your stash trails the biggest other stash, 0 when yours is the
biggest), ``hand`` (cards in your hand) and ``saves`` (the Blammo! and Nanners you may play now,
each of which saves one repeat). The bust chance of the next roll is ``tokens``/6, so it is not
a feature of its own. The stop rules, in the words of :mod:`analyzer.advice`:

* one threshold "roll while tokens ≤ K − 1" (complexity 2), K = 1..6;
* the threshold in two bands of the bonus flag "… ≤ K − 1; in the bonus turn ≤ B − 1"
  (complexity 5), B = 1..bonus cap, B ≠ K;
* the threshold in two bands of ``deck`` (cuts 5, 10, 20, 30) or of ``behind`` (cuts 1, 2, 3, 5),
  every pair of limits 1..6 that differ (complexity 5), in main and bonus turns alike;
* three bands of ``deck`` (cuts 5 and 20, or 10 and 30) or of ``behind`` (1 and 3, or 2 and 5),
  limits 2..5 with neighbouring bands different (complexity 8);
* (played from a rule table) two bands of ``hand`` (cuts 2, 4, 6) or of ``saves`` (cuts 1, 2),
  limits 2..5 that differ (complexity 5);
* (rule table) decision lists (:data:`EXCEPTIONS`): one exception "if <condition>, roll/stop"
  before "if tokens ≥ K, stop; otherwise roll", K = 2..5 (complexity 4), or two exceptions on
  two different features of ``deck``, ``behind`` and ``bonus``, in either order, before it,
  K = 3, 4 (complexity 6).

:func:`family` is the first four (402 candidates with the default bonus cap of 3; the old
family, kept as it was); :func:`candidates` adds the table rules by ``--band-by`` (:data:`BANDS`)
and keeps one rule of each behaviour, the simplest (rules that decide alike on every state of
:func:`state_grid` play the same games: a list "if in the bonus turn, stop; if tokens ≥ 3,
stop; otherwise roll" (complexity 4) replaces the banded rule "stop at 3, at 1 in the bonus
turn" (5), and a list whose condition is a band of ``deck`` is the banded rule). The default
(``all``) races 560 rules with the default rules (6 thresholds, 271 rules of two bands, 144 of
three, 49 lists of one exception and 90 of two); most lose clearly and are dropped by racing
within a round or two. Measured cost (3 players, seed 2, 24 rounds): 10,416 blocks of 256 games
against 161,280 to take all 560 to the survivors' sample (15.5× fewer); the 402 rules of
:func:`family` alone took 8,412 against 115,776 (13.8×), so the table rules add about a quarter
to the run's time. Against the uniform grid that gives the same guarantee (its own Bonferroni z
over the rules alone, :func:`analyzer.advice.race.equal_guarantee_grid`) the saving is smaller:
seed 1, 2,967,552 games against 30,392,320, 10.2× (13.9× against the survivors' sample).

Value: the studied seat's win share (ties shared) in whole games against ``heuristic``
opponents (or the bot ``--seats`` names, e.g. ``search:200``), the studied seat taking every seat in turn (an equal number of blocks each); loss =
the best surviving candidate's win share − the rule's, per block of games on the same keys
(common random numbers; batch-means SE over blocks).

Where each front rule goes wrong (:func:`front_mistakes`): after the race, each rule on the front
plays fresh games (a stream of the seed apart from the race's) in the plain-Python reference
engine, which records every roll-or-stop decision of the studied seat with the features above
(analyzer/games/trash_pandas/advice_record.py); the decisions where it chose otherwise than the
race's best rule on the same features are counted per game and by cell of the states
(:mod:`analyzer.advice.mistakes`). 1,000 games per rule by default, 1.3 to 2.5 s each.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.advice import Decision, Feature, Rule
from analyzer.advice.botrule import BotRule, GivenRule, band_knobs
from analyzer.games.trash_pandas.bots import TABLE_FEATURES

DECISION = Decision("roll", "stop")
FEATURES = [Feature("tokens", "the number of tokens you hold", (1, 2, 3, 4, 5)),
            Feature("bonus", "the bonus-turn flag (1 in the bonus turn)", (1,)),
            Feature("deck", "the draw pile", (5, 10, 20, 30), unit="cards"),
            Feature("behind", "your stash's deficit to the biggest other stash", (1, 2, 3, 5),
                    unit="cards"),
            Feature("hand", "the number of cards in your hand", (2, 4, 6), unit="cards"),
            Feature("saves", "the number of Blammo! and Nanners you can play", (1, 2))]
#: advice feature name -> the kernel's stop rule table feature id (bots.py TABLE_FEATURES)
FEATURE_IDS = TABLE_FEATURES
TWO_BAND_CUTS = {"deck": (5, 10, 20, 30), "behind": (1, 2, 3, 5)}
THREE_BAND_CUTS = {"deck": ((5, 20), (10, 30)), "behind": ((1, 3), (2, 5))}
TABLE_BAND_CUTS = {"hand": (2, 4, 6), "saves": (1, 2)}
#: the exceptions of the decision lists: (feature, comparison, value, roll?)
EXCEPTIONS = (("deck", "<=", 4, False), ("deck", "<=", 4, True), ("deck", "<=", 9, False),
              ("deck", "<=", 9, True), ("deck", ">=", 30, False), ("deck", ">=", 30, True),
              ("behind", ">=", 3, True), ("behind", ">=", 5, True), ("behind", "<=", 0, False),
              ("hand", "<=", 1, True), ("hand", ">=", 8, False),
              ("bonus", ">=", 1, False), ("bonus", ">=", 1, True))
#: which rules `candidates` races besides the single thresholds: every family (all), none, the
#: old family's bands of one feature (deck, behind) or of both, with the table bands (bands), or
#: the decision lists (lists)
BANDS = ("all", "none", "deck", "behind", "bands", "lists")
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

    def bot(self):
        from analyzer.games.trash_pandas.bots import plain_bot

        return plain_bot(self.bot_text())

    def bot_text(self) -> str:
        if self.band_by == "none":  # a bonus turn ends at 5 tokens or fewer: 6 plays as 5
            return (f"heuristic:stop-at={self.stop_at}:"
                    f"bonus-stop-at={min(self.bonus_stop_at, 5)}")
        knobs = [f"band-by={self.band_by}", f"stop-at={self.stop_at}"]
        knobs += band_knobs(self.cuts, self.limits, "cut-{}", "stop-at-{}")
        return "heuristic:" + ":".join(knobs)


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


@dataclass(frozen=True)
class TableRule(GivenRule):
    """Any stop rule over :data:`FEATURES`, played by the heuristic bot from its stop rule table
    (:func:`analyzer.advice.table.table_of` with :data:`FEATURE_IDS`)."""

    FEATURES = FEATURES
    DECISION = DECISION

    def table(self) -> tuple:
        from analyzer.advice.table import table_of

        return table_of(self.of, FEATURE_IDS)

    def bot(self, source: str = ""):
        """The heuristic bot (default knobs) that stops as this rule says."""
        from dataclasses import replace

        from analyzer.games.trash_pandas.bots import plain_bot

        return replace(plain_bot("heuristic"), table=self.table(), source=source)

    def bot_text(self) -> str:
        return ("heuristic playing this stop rule from its rule file (game-advice --out DIR "
                "writes it; play it back as rule:DIR/rule_cx<size>.json)")


def table_rules(rules, lists: bool = True, bands: bool = True) -> list[TableRule]:
    """The rule-table candidates of the module doc: the bands of ``hand`` and ``saves`` and the
    decision lists (not yet made distinct: :func:`candidates` does that)."""
    out = []
    if bands:
        out += [TableRule(Rule("banded", "tokens", "<=", (k - 1, l - 1), f, (c,)))
                for f, cuts in TABLE_BAND_CUTS.items() for c in cuts
                for k in range(2, 6) for l in range(2, 6) if l != k]
    if lists:
        def lst(*clauses):
            return TableRule(Rule("list", clauses=clauses, default_act=True))

        out += [lst(e, ("tokens", ">=", k, False)) for e in EXCEPTIONS for k in range(2, 6)]
        out += [lst(a, b, ("tokens", ">=", k, False)) for a in EXCEPTIONS for b in EXCEPTIONS
                if a[0] != b[0] and "hand" not in (a[0], b[0]) for k in (3, 4)]
    return out


def candidates(rules, bands: str = "all") -> list:
    """The raced family for ``--band-by`` ``bands`` (:data:`BANDS`, module doc), simplest first,
    one rule of each behaviour on :func:`state_grid` (the first, simplest, kept)."""
    from analyzer.advice.table import distinct

    old = {"all": "all", "bands": "all", "lists": "none"}.get(bands, bands)
    # the plain thresholds first: stop-at K ≥ the bonus cap with bonus-stop-at at the cap
    # (complexity 5 in `family`) plays as the threshold K in every turn
    cands = [StopRule(k, k) for k in range(1, 7)]
    cands += family(rules, old) + table_rules(rules, bands in ("all", "lists"),
                                             bands in ("all", "bands"))
    by_rule: dict = {}
    for c in cands:
        by_rule.setdefault(c.rule(), c)
    return [by_rule[r] for r in distinct(list(by_rule), state_grid(rules))]


def state_grid(rules) -> dict:
    """The states at which a stop rule is asked (tokens 1..5 in a main turn, 1..cap − 1 in a
    bonus turn) crossed with every value of the other features at which a rule of
    :func:`candidates` can change its answer (each threshold and its neighbours, and the ends),
    as flat arrays: two such rules decide alike everywhere iff they do here."""
    import numpy as np

    from analyzer.advice.table import grid

    X = grid({"tokens": range(1, 6), "bonus": (0, 1),
              "deck": (0, 3, 4, 5, 6, 8, 9, 10, 11, 19, 20, 21, 29, 30, 31, 53),
              "behind": (0, 1, 2, 3, 4, 5, 6, 12), "hand": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20),
              "saves": (0, 1, 2, 3, 7)})
    keep = (X["bonus"] == 0) | (X["tokens"] < rules.bonus_cap)
    return {k: np.asarray(v)[keep] for k, v in X.items()}


def bot_for_rule(text: str):
    """The ``heuristic`` bot (bots.Bot) that plays the stop rule of ``rule:FILE.json`` (a rule
    as `game-advice` writes it, or by hand in the same forms): a threshold on ``tokens`` (``<=``),
    or such a threshold banded by ``bonus`` (one cut at 1), ``deck`` or ``behind`` (played by the
    bot's stop knobs), or by ``hand`` or ``saves``, or a decision list of 1 to 3 clauses over
    the features (played from a stop rule table)."""
    from analyzer.advice.rulefile import load_rule
    from analyzer.errors import UserError

    r = load_rule(text, [f.name for f in FEATURES], "trash-pandas")
    forms = ("whole-game stop rules are a threshold on tokens (<=), banded by bonus, deck, "
             "behind, hand or saves, or a decision list of 1 to 3 clauses (the rules of "
             "`trash-pandas game-advice`)")
    if r.kind == "list":
        if not r.clauses:
            raise UserError(f"rule file '{text[5:]}': {forms}")
        return TableRule(r).bot(text.strip())
    if r.feature != "tokens" or r.op != "<=":
        raise UserError(f"rule file '{text[5:]}': {forms}")
    limits = []
    for t in r.thresholds:
        if t != int(t) or not 0 <= t <= 5:
            raise UserError(f"rule file '{text[5:]}': token thresholds must be whole numbers "
                            f"0..5 (got {t})")
        limits.append(int(t) + 1)
    if r.kind == "threshold":
        return StopRule(limits[0], limits[0]).bot()
    if r.band_feature == "bonus":
        if tuple(r.cuts) != (1,):
            raise UserError(f"rule file '{text[5:]}': the bonus flag has one cut, at 1")
        return StopRule(*limits).bot()
    if r.band_feature == "tokens" or any(c != int(c) or c < 1 for c in r.cuts):
        raise UserError(f"rule file '{text[5:]}': {forms}, cuts whole numbers from 1")
    if r.band_feature in TABLE_BAND_CUTS:
        return TableRule(r).bot(text.strip())
    return StopRule(limits[0], limits[0], r.band_feature, tuple(int(c) for c in r.cuts),
                    tuple(limits[1:])).bot()


class GameRacer:
    """Win share of the studied seat per block of round ``rnd`` (module doc)."""

    def __init__(self, rules, players: int, seed: int, blocks_per_seat: int = BLOCKS_PER_SEAT,
                 others=None):
        from analyzer.games.trash_pandas.bots import plain_bot
        from analyzer.games.trash_pandas.whole import GameSetup

        self.rules, self.players, self.seed = rules, players, seed
        self.blocks = blocks_per_seat * players
        self.games = 0
        # the line-up the rules play in (default heuristic in every seat); the studied seat's
        # bot is replaced by the rule
        self.others = tuple(others) if others else (plain_bot("heuristic"),) * players
        # rules, deck and solver tables once; each job only swaps the line-up's bot rows
        self.base = GameSetup(rules, players, [self.others])
        self.columns = self.base.columns()

    def values(self, cand, rnd: int) -> np.ndarray:
        from analyzer.advice.race import two_seat_values

        mine = cand.bot()

        def job_for(seat):
            return self.base.with_lineups([tuple(mine if i == seat else self.others[i]
                                                 for i in range(self.players))])

        def column_for(seat):
            return self.columns.index(f"L0:win{seat}")

        v, played = two_seat_values(job_for, column_for, self.seed, rnd, self.blocks, BLOCK,
                                    seats=self.players)
        self.games += played
        return v


def race_threads(default: int, load: float) -> int:
    """Kernel threads for the race: ``default`` (numba's), or 1 when the machine is busy (the
    one-minute load average ``load`` is at least ``default`` − 1/2). The numbers do not depend
    on it, only the time: each kernel call plays only 4 blocks, and when other work holds the
    cores every call waits at its barrier for a descheduled thread. Measured on 2 cores
    (3 players, seed 2): 402 rules took 22 s on two threads when idle; 560 rules took 48 s on one
    thread with the core to itself, 47 to 76 s on one thread and 97 to 112 s on two at load
    average 3 to 6."""
    return 1 if load >= default - 0.5 else default


def advise(rules, players: int, seed: int, max_rounds: int = 24,
           precision: float = 0.002, bands: str = "all", indifference=None,
           record_games: int = 0, others=None) -> dict:
    """Race :func:`candidates` (module doc) on :func:`race_threads` kernel threads in the
    line-up ``others`` (bots.Bot per seat; default ``heuristic`` in every seat). Each front rule then
    plays ``record_games`` fresh games (0, the default: none, as the report parts race; the CLI
    passes ``--record-games``) that say where it decides otherwise than the best rule
    (:func:`front_mistakes`; only against opponents the recording engine plays,
    :func:`recordable`); ``seconds`` counts both."""
    import os
    import time

    import numba

    from analyzer.advice.race import race_family, zone

    racer = GameRacer(rules, players, seed, others=others)
    threads = numba.get_num_threads()
    numba.set_num_threads(race_threads(threads, os.getloadavg()[0]))
    try:
        res = race_family(candidates(rules, bands), racer.values, BLOCK, max_rounds, precision,
                          "games", zone(precision, indifference))
    finally:
        numba.set_num_threads(threads)
    t0 = time.perf_counter()
    from analyzer.advice.record import interruptible

    with interruptible():
        front_mistakes(res, rules, players, seed, record_games, racer.others)
    res["seconds"] += time.perf_counter() - t0
    return res


def recordable(bot) -> bool:
    """Whether the plain-Python recording engine (advice_record.py, on the reference game) plays
    ``bot`` as the kernel does: the heuristic, solver and random bots; not rollout or search."""
    return bot.name in ("heuristic", "solver", "random")


#: the features as the "where it goes wrong" lines name them ("tokens held 3, cards in hand 2–4")
WHERE_WORDS = {"tokens": "tokens held", "bonus": "bonus-turn flag",
               "deck": "cards left in the draw pile", "behind": "cards behind the biggest stash",
               "hand": "cards in hand", "saves": "Blammo! + Nanners you can play"}


def front_mistakes(res: dict, rules, players: int, seed: int,
                   record_games: int | None = None, others=None) -> None:
    """Set ``extra["mistakes"]`` on each rule of a race's front (``res``, :func:`advise`):
    ``record_games`` recording games each (analyzer/games/trash_pandas/advice_record.py,
    default its GAMES; 0 or fewer: none), compared with the race's best rule on the features
    the player saw (:func:`analyzer.advice.record.front_mistakes`)."""
    from analyzer.advice.mistakes import rule_cuts
    from analyzer.advice.record import front_mistakes as mistakes
    from analyzer.games.trash_pandas.advice_record import GAMES, record

    n = GAMES if record_games is None else record_games
    if n > 0 and (others is None or all(map(recordable, others))):
        mistakes(res["front"], lambda c, k, sd: record(rules, players, c, k, sd, others)[0],
                 res["reference"], WHERE_WORDS, DECISION, seed, n,
                 cuts=lambda a, b: rule_cuts(a.rule(), b.rule()))


def row(s) -> dict:
    """A scored stop rule as JSON (words, data with the bot that plays it, loss statistic)."""
    from analyzer.advice.race import candidate_row

    return candidate_row(s)
