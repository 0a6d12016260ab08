"""Railroad Canasta: when to take the pile and when to go out, raced by Monte Carlo.

What belongs here: the take-the-pile / go-out rules of thumb, their compilation into the engine's
rule tables, their racing (:func:`analyzer.advice.race.race_family`) and the record of where
the front's pairs go wrong. No pandas, no printing.

The engine plays each decision from a rule given as data (kernels/canasta/layout.py: rows of
guard and test conditions, :mod:`analyzer.advice.table`) over seven counts the seat sees
(:data:`FEATURE_IDS`): the cards in the discard pile, the cards left in the stock, your completed
canastas, the most canastas an opponent has completed, the cards in your hand, the fewest cards
in an opponent's hand, and your game score minus the best opponent's. A candidate
(:class:`RulePair`) is one take rule and one go-out rule, each a rule of :mod:`analyzer.advice`
(always / never: complexity 0; a threshold: 2; two bands: 5; a decision list of m clauses: 2m);
its complexity is the sum. Everything else plays as the ``greedy`` bot.

The family (:func:`family`) is every take rule of :func:`take_rules` with every go-out rule of
:func:`go_rules` (each list kept once per behaviour on a grid of states). The engine's older
knobs are pairs of the family: ``take_min`` P is "take while the pile holds at least P cards",
``builder:K:F`` is "if the stock holds at most F cards, go out; if you have at least K canastas,
go out; otherwise keep playing" (:func:`knob_pair`).

Value: the studied seat's win rate in whole games against ``greedy`` opponents, averaged over
seat 0 and seat 1 (half the blocks each); loss = the best surviving candidate's minus the rule's,
per block of games on the same keys (common random numbers; batch-means SE over blocks), raced
by :func:`analyzer.advice.race.race_blocks`. Whole games cost about half a millisecond of CPU
each, so the family is kept to 6 take rules × 20 go-out rules = 120 pairs and a round is small
(:data:`BLOCKS_PER_ROUND` blocks of :data:`BLOCK` games per candidate).

A whole game's win is a coin flip whose paired difference between two rules has a standard
deviation near 0.7 per game (the games part ways after the first decision that differs), while
most pairs lose less than 0.05 to the best, which takes thousands of games per pair to resolve:
by the loss test alone about a quarter of the family survived 20 rounds (seed 1: 2.6× fewer
games than taking all 120 pairs to the survivors' sample). The indifference zone (a pair that
cannot be shown to gain more than ``indifference``, by default the precision, over a simpler
or equally simple better pair goes) leaves 3 after 20 rounds (5.5×, seed 1); the default of 60
rounds then costs little more and takes the survivors to three times the sample.

Where a front pair goes wrong (:func:`pair_mistakes`): after the race each front pair plays
fresh games on the recording stream (:mod:`analyzer.advice.record`) in a recording run of the
engine (kernels/canasta/record.py), which writes the seven counts and the choice at every
take-the-pile and go-out decision of the studied seat. Each of the pair's two rules is then
compared, decision by decision, with the same rule of the race's best pair on those counts
(:func:`analyzer.advice.mistakes.where_wrong`), so a front row's ``mistakes`` is a list of two
summaries labelled "take the pile" and "go out". A game holds 30 to 40 such decisions, so
the default 2,000 games cost about a second per pair.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.advice import Decision, Feature, Rule

BLOCK = 4
BLOCKS_PER_ROUND = 32
#: advice feature name -> the kernel's feature id (kernels/canasta/layout.py F_*)
FEATURE_IDS = {"pile": 1, "stock": 2, "canastas": 3, "opp_canastas": 4, "hand": 5,
               "opp_hand": 6, "lead": 7}
FEATURES = [Feature("pile", "the number of cards in the discard pile",
                    (2, 3, 4, 5, 6, 8, 10, 12)),
            Feature("stock", "the number of cards left in the stock", (10, 20, 30, 40)),
            Feature("canastas", "the number of canastas you have completed", (5, 6, 7, 8)),
            Feature("opp_canastas", "the most canastas an opponent has completed", (3, 4, 5, 6)),
            Feature("hand", "the number of cards in your hand", (4, 6, 8, 11)),
            Feature("opp_hand", "the fewest cards in an opponent's hand", (2, 4, 6, 8)),
            Feature("lead", "your game score minus the best opponent's", (-2000, 0, 2000),
                    unit="points")]
TAKE = Decision("take the pile", "draw from the stock")
GO = Decision("go out", "keep playing")
ALWAYS = Rule("list", clauses=(), default_act=True)
NEVER = Rule("list", clauses=(), default_act=False)


def state_grid() -> dict:
    """Feature values a decision can meet (flat arrays), for telling rules apart."""
    from analyzer.advice.table import grid

    return grid({"pile": (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20), "stock": (0, 10, 20, 30, 40,
                 60), "canastas": range(0, 10), "opp_canastas": range(0, 9),
                 "hand": (1, 4, 6, 8, 11, 15), "opp_hand": (1, 2, 4, 6, 8, 12),
                 "lead": (-3000, -1000, 0, 1000, 3000)})


def take_rules() -> list[Rule]:
    """Take the pile: whenever allowed; a threshold on the pile or on the cards in your hand; the
    pile threshold in two bands of the stock (6)."""
    return [ALWAYS, *(Rule("threshold", "pile", ">=", (v,)) for v in (3, 5, 8)),
            Rule("threshold", "hand", "<=", (6,)),
            Rule("banded", "pile", ">=", (3, 8), "stock", (30,))]


def go_rules() -> list[Rule]:
    """Go out: as soon as allowed; one threshold on your canastas, the stock, the opponents'
    canastas or hand, or your lead in the game; "go out if …; go out if …; otherwise keep
    playing" on two of them (the builder knob is one); the canasta threshold in two bands of the
    opponents' canastas (20)."""
    th = [("canastas", ">=", 5), ("canastas", ">=", 6), ("canastas", ">=", 7),
          ("stock", "<=", 10), ("stock", "<=", 20), ("stock", "<=", 30),
          ("opp_canastas", ">=", 4), ("opp_canastas", ">=", 5), ("opp_hand", "<=", 2),
          ("opp_hand", "<=", 4), ("lead", ">=", 0), ("lead", ">=", 2000)]
    lists = [(("stock", "<=", 20), ("canastas", ">=", 5)),
             (("stock", "<=", 20), ("canastas", ">=", 7)),
             (("opp_hand", "<=", 4), ("canastas", ">=", 5)),
             (("opp_hand", "<=", 4), ("canastas", ">=", 7)),
             (("opp_canastas", ">=", 5), ("canastas", ">=", 6)),
             (("lead", ">=", 0), ("canastas", ">=", 6))]
    return [ALWAYS, *(Rule("threshold", f, op, (v,)) for f, op, v in th),
            *(Rule("list", clauses=tuple(c + (True,) for c in cl), default_act=False)
              for cl in lists),
            Rule("banded", "canastas", ">=", (7, 5), "opp_canastas", (5,))]


def _ids_table(rule: Rule) -> tuple:
    from analyzer.advice.table import table_of

    return table_of(rule, FEATURE_IDS)


@dataclass(frozen=True)
class RulePair:
    """A take-the-pile rule and a go-out rule played together."""

    take: Rule
    go: Rule

    @property
    def complexity(self) -> int:
        return self.take.complexity + self.go.complexity

    def words(self) -> str:
        fd = {f.name: f for f in FEATURES}
        take = ("Take the pile whenever allowed." if self.take == ALWAYS else
                self.take.words(fd, TAKE))
        go = "Go out as soon as allowed." if self.go == ALWAYS else self.go.words(fd, GO)
        return f"{take} {go}"

    def to_json(self) -> dict:
        return {"kind": "canasta", "take": self.take.to_json(), "go_out": self.go.to_json(),
                "complexity": self.complexity}

    def policy(self, text: str = ""):
        from analyzer.games.canasta.play import CanastaPolicy

        return CanastaPolicy("greedy", take_table=_ids_table(self.take),
                             go_table=_ids_table(self.go), text=text, words=self.words())


def knob_pair(take_min: int, go_min: int, floor: int) -> RulePair:
    """The engine's knobs (take when the pile holds ≥ take_min; go out with ≥ go_min canastas or
    ≤ floor stock cards; go_min 0: as soon as allowed) as the rule pair that decides the same."""
    take = ALWAYS if take_min <= 1 else Rule("threshold", "pile", ">=", (take_min,))
    go = (ALWAYS if go_min == 0 else
          Rule("list", clauses=(("stock", "<=", floor, True), ("canastas", ">=", go_min, True)),
               default_act=False))
    return RulePair(take, go)


def rule_from_file(text: str) -> RulePair:
    """``rule:FILE.json`` holding a take/go-out pair of ``canasta advice`` (its ``rule``): the
    ``take`` and ``go_out`` rules, or the knob form of earlier versions (take_pile_min,
    go_out_min_canastas, go_out_stock_floor)."""
    from analyzer.advice.rulefile import read_rule_data, rule_from_data
    from analyzer.errors import UserError

    d = read_rule_data(text, "canasta")
    path = text.strip()[5:]
    knobs = [d.get(k) for k in ("take_pile_min", "go_out_min_canastas", "go_out_stock_floor")]
    if d.get("kind") == "canasta" and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 1000 for v in knobs):
        return knob_pair(*knobs)
    if d.get("kind") != "canasta" or not all(isinstance(d.get(k), dict)
                                             for k in ("take", "go_out")):
        raise UserError(f"rule file '{path}': expected a Canasta rule (kind canasta with a take "
                        f"and a go_out rule, as `canasta advice --out DIR` writes it)")
    return RulePair(*(rule_from_data(d[k], list(FEATURE_IDS), path, k)
                      for k in ("take", "go_out")))


def family() -> list[RulePair]:
    """Every take rule with every go-out rule (module doc), simplest pairs first."""
    from analyzer.advice.table import distinct

    X = state_grid()
    takes, gos = distinct(take_rules(), X), distinct(go_rules(), X)
    return sorted((RulePair(t, g) for t in takes for g in gos), key=lambda p: p.complexity)


class CanastaRacer:
    def __init__(self, rules, seed: int, blocks_per_round: int = BLOCKS_PER_ROUND,
                 block: int = BLOCK):
        self.rules = rules
        self.seed = seed
        self.blocks = blocks_per_round
        self.block = block
        self.games = 0

    def values(self, pair, rnd: int) -> np.ndarray:
        """Win rate of the studied seat per block of round ``rnd`` (both seats); ``pair`` is a
        :class:`RulePair` or a CanastaPolicy."""
        from analyzer.advice.race import two_seat_values
        from analyzer.games.canasta.play import CanastaPolicy, make_job
        from kernels.canasta import MODE_GAMES

        pol = pair if isinstance(pair, CanastaPolicy) else pair.policy()

        def job_for(seat):
            pols = [CanastaPolicy("greedy")] * self.rules.players
            pols[seat] = pol
            return make_job(MODE_GAMES, self.rules, pols)

        v, played = two_seat_values(job_for, lambda seat: 4 + seat, self.seed, rnd,
                                    self.blocks, self.block)
        self.games += played
        return v


#: short names of the features in the "where it goes wrong" lines
WORDS = {"pile": "pile", "stock": "stock", "canastas": "your canastas",
         "opp_canastas": "their canastas", "hand": "your hand", "opp_hand": "their fewest cards",
         "lead": "your lead"}
#: records room per game before a block is replayed with more (a game meets about 40 on average)
ROOM_PER_GAME = 96
#: blocks per call of the recording kernel (its record buffer is this × room × 10 words)
CHUNK = 256


def record(rules, pair: RulePair, n_games: int, seed: int) -> dict:
    """The studied seat's decisions when it plays ``pair`` against greedy opponents in
    ``n_games`` fresh whole games (blocks of :data:`BLOCK` games on the recording stream of
    :mod:`analyzer.advice.record`, the studied seat in seat 0 in even blocks and seat 1 in odd
    ones, as the race splits its blocks over both seats), from the recording run of
    kernels/canasta/record.py. Returns ``game`` (index per decision), ``decision`` (0 take the
    pile, 1 go out), ``X`` (feature arrays by advice name), ``act`` (True where the rule took
    the pile / went out) and ``sums`` (the blocks' game sums, as the plain engine's)."""
    from analyzer.advice.record import record_keys
    from analyzer.games.canasta.play import CanastaPolicy, policy_array, rules_arrays
    from kernels.canasta import record as KR

    keys, counts = record_keys(seed, n_games, BLOCK)
    seats = np.arange(len(counts), dtype=np.int64) % 2
    lineups = []
    for seat in range(2):
        line = [CanastaPolicy("greedy")] * rules.players
        line[seat] = pair.policy()
        lineups.append(policy_array(line))
    pols = np.stack(lineups)
    rp, thr, reqv = rules_arrays(rules)
    sums, rows = [], []
    for a in range(0, len(counts), CHUNK):
        part = slice(a, a + CHUNK)
        cap = ROOM_PER_GAME * BLOCK
        while True:
            res, recs, met = KR.record_blocks(keys[part], counts[part], seats[part], pols, rp,
                                              thr, reqv, cap)
            if met.max() <= cap:
                break
            cap = 2 * int(met.max())  # rare: replay the same games with room for every record
        got = np.concatenate([recs[b, :met[b]] for b in range(len(met))]).astype(np.int32)
        got[:, 0] += BLOCK * a  # game numbers of the whole run
        sums.append(res)
        rows.append(got)
    flat = np.concatenate(rows)
    names = sorted(FEATURE_IDS, key=FEATURE_IDS.get)  # record columns F_PILE … F_LEAD
    return {"game": flat[:, 0], "decision": flat[:, 1],
            "X": {f: flat[:, 2 + i] for i, f in enumerate(names)},
            "act": flat[:, 2 + KR.NREC] == 1, "sums": np.concatenate(sums)}


def pair_mistakes(front, reference: RulePair, rules, seed: int, n_games: int) -> None:
    """Set ``extra["mistakes"]`` on each scored pair of ``front``: two summaries of
    :func:`analyzer.advice.mistakes.where_wrong` (with ``decision`` "take the pile" and "go
    out"), each comparing what the pair's rule chose at the studied seat's decisions of that
    kind (:func:`record`, ``n_games`` games) with what ``reference``'s rule would choose on
    the same feature values."""
    from analyzer.advice.mistakes import rule_cuts, where_wrong
    from kernels.canasta.record import D_GO, D_TAKE

    for s in front:
        rec = record(rules, s.rule, n_games, seed)
        parts = []
        for kind, decision, mine, best in ((D_TAKE, TAKE, s.rule.take, reference.take),
                                           (D_GO, GO, s.rule.go, reference.go)):
            at = rec["decision"] == kind
            X = {f: v[at] for f, v in rec["X"].items()}
            best_act = best.acts(X) if at.any() else np.zeros(0, dtype=bool)
            m = where_wrong(n_games, rec["game"][at], X, rec["act"][at], best_act,
                            rule_cuts(mine, best), WORDS, decision, seed=seed,
                            same=mine == best)
            parts.append({"decision": decision.act, **m})
        s.extra["mistakes"] = parts


def advise(rules, seed: int, max_rounds: int = 60, precision: float = 0.02,
           blocks_per_round: int = BLOCKS_PER_ROUND, indifference=None,
           record_games: int | None = None) -> dict:
    """Race :func:`family` (module doc); then each pair on the front plays ``record_games``
    fresh games (default :data:`analyzer.advice.record.GAMES`; 0: none) to say where each of
    its two rules decides otherwise than the race's best pair (:func:`pair_mistakes`)."""
    import time

    from analyzer.advice.race import race_family, zone
    from analyzer.advice.record import GAMES

    racer = CanastaRacer(rules, seed, blocks_per_round)
    res = race_family(family(), racer.values, BLOCK, max_rounds, precision, "games",
                      zone(precision, indifference))
    n_rec = GAMES if record_games is None else record_games
    if n_rec > 0:
        t0 = time.perf_counter()
        from analyzer.advice.record import interruptible

        with interruptible():
            pair_mistakes(res["front"], res["reference"], rules, seed, n_rec)
        res["record_seconds"] = time.perf_counter() - t0
        res["seconds"] += res["record_seconds"]
    return res


def row(s) -> dict:
    """A scored pair as JSON (words, data, loss statistic)."""
    from analyzer.advice.race import candidate_row

    return candidate_row(s)
