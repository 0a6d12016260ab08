"""MAGDAGDON: which Majda Power to use and when, as rules of thumb raced by Monte Carlo.

What belongs here: the power-spending rules the game kernels can play (the knobs of
kernels/magdagdon/board.py ``RI_PMODE``, ``RI_PMINE``, ``RI_PMAXE`` and ``RF_POWTHR``) and their
racing (:func:`analyzer.advice.race.race_blocks`). No pandas, no printing.

On a MAGDAGDON roll with a power left, a rule decides *when* to spend one (act) rather than
accept the ruin (rest), over two counts a player sees: ``cost`` = the next use's penalty and
``empty`` = the empty cells left; and *which* power: "±1 if one rescues the roll, else reroll"
(the bots' habit), "±1 only when it rescues the roll" or "reroll only". A candidate is

    spend while cost ≤ c, empty ≥ e_lo and empty ≤ e_hi (each bound optional), with a power

and its complexity (numbers + conditions, as in :mod:`analyzer.advice`) is 2 per bound used
plus 1 for a "which" with a condition (the two ±1 forms). "Never spend" and "always spend" have
complexity 0. The family (:func:`family`): the difficulty's distinct penalties as cost bounds,
empty bounds on 3, 6, 9 cells, the three "which" forms — 118 candidates at PEACEFUL.

Value: the mean final score of whole games under the base placement policy (greedy by default),
per block of games on the same trial streams for every candidate (common random numbers, so two
rules see the same dice until their choices differ); loss = best surviving candidate − rule, in
points, batch-means SE over blocks.

Where a front rule goes wrong (:func:`front_mistakes`): it plays ``record_games`` fresh games
(the recording stream of :mod:`analyzer.advice.record`) in the recording twin engine
(kernels/magdagdon/record.py), which notes at every MAGDAGDON with a power left the cost, the
empty cells and ``fix`` (how many ±1 changes of one die would rescue the roll: "±1 only" reads
it) and whether the rule spent; and, at each spend where a ±1 rescued, which power it used.
Both are compared with the race's reference rule on the same values (:func:`spends`,
:func:`uses_fix`; the "which" choice counts as wrong only where the reference would spend
too), cut at the two rules' bounds (:func:`record_cuts`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.advice import Decision, Feature, Rule

DECISION = Decision("spend a power", "accept the ruin")
FEATURES = [Feature("cost", "the next power's penalty", (10, 20, 40, 70), unit="points"),
            Feature("empty", "the empty cells left", (3, 6, 9), unit="")]
WHICH = {0: "use ±1 if one rescues the roll, else reroll", 1: "use ±1 only when it rescues the "
         "roll", 2: "reroll"}
BLOCK = 32
BLOCKS_PER_ROUND = 16
NEVER = -1   # max_cost of "never spend"


@dataclass(frozen=True)
class PowerRule:
    """Spend while next penalty ≤ ``max_cost`` (None: any), empties in [min_empty, max_empty]
    (0: no bound), with power form ``which`` (:data:`WHICH`)."""

    max_cost: int | None = None
    min_empty: int = 0
    max_empty: int = 0
    which: int = 0

    @property
    def complexity(self) -> int:
        if self.max_cost == NEVER:
            return 0
        return (2 * ((self.max_cost is not None) + (self.min_empty > 0) + (self.max_empty > 0))
                + (self.which in (0, 1)))

    def clauses(self) -> tuple:
        out = []
        if self.max_cost is not None:
            out.append(("cost", ">=", self.max_cost + 1, False))
        if self.min_empty:
            out.append(("empty", "<=", self.min_empty - 1, False))
        if self.max_empty:
            out.append(("empty", ">=", self.max_empty + 1, False))
        return tuple(out)

    def words(self) -> str:
        if self.max_cost == NEVER:
            return "Never spend a power: accept the ruin."
        fd = {f.name: f for f in FEATURES}
        when = Rule("list", clauses=self.clauses(), default_act=True).words(fd, DECISION)
        return f"On a MAGDAGDON: {when} To spend: {WHICH[self.which]}."

    def to_json(self) -> dict:
        return {"kind": "magdagdon-power", "complexity": self.complexity,
                "max_cost": self.max_cost, "min_empty": self.min_empty,
                "max_empty": self.max_empty, "which": WHICH[self.which],
                "never": self.max_cost == NEVER}

    def knobs(self) -> dict:
        """The kernel knobs (kernels/magdagdon/board.py): POWTHR is a strict bound."""
        thr = 0.0 if self.max_cost == NEVER else (1e12 if self.max_cost is None
                                                  else self.max_cost + 0.5)
        return {"power_threshold": thr, "power_mode": self.which,
                "power_min_empty": self.min_empty, "power_max_empty": self.max_empty}


def default_rule(rules, diff) -> PowerRule:
    """The bots' rule (spend while the next penalty is below a ruin plus a cell's worth) as a
    member of the family: the largest penalty below that bound, or never."""
    from analyzer.games.magdagdon.arrays import CELL_VALUE

    costs = [c for c in diff.costs[:diff.powers] if c < rules.ruin_penalty + CELL_VALUE]
    return PowerRule(max(costs)) if costs else PowerRule(NEVER)


def family(diff) -> list[PowerRule]:
    """Never, and every (cost bound, empty bounds, which) with the difficulty's penalties."""
    costs = sorted(set(diff.costs[:diff.powers]))
    bounds = [None] + costs[:-1]           # the largest penalty as a bound = no bound
    pairs = [(lo, hi) for lo in (0, 3, 6, 9) for hi in (0, 3, 6, 9) if hi == 0 or lo <= hi]
    out = [PowerRule(NEVER)]
    for c in bounds:
        for lo, hi in pairs:
            for w in (0, 1, 2):
                out.append(PowerRule(c, lo, hi, w))
    return out


def kernel_inputs_for(rules, diff, rule: PowerRule):
    """The kernels' G with the rule's knobs (the base G, opening book included, is shared)."""
    from analyzer.games.magdagdon.arrays import kernel_inputs, with_power_knobs

    return with_power_knobs(kernel_inputs(rules, diff, book=True), **rule.knobs())


class MagdagdonRacer:
    """Mean final score per block of games of a round (module doc)."""

    def __init__(self, rules, diff, policy, seed: int, blocks: int = BLOCKS_PER_ROUND):
        self.rules, self.diff, self.policy, self.seed, self.blocks = rules, diff, policy, seed, \
            blocks
        self.games = 0

    def values(self, rule: PowerRule, rnd: int) -> np.ndarray:
        from analyzer.games.magdagdon.play import score_range
        from analyzer.rng import block_keys
        from kernels.magdagdon import games_blocks

        G = kernel_inputs_for(self.rules, self.diff, rule)
        init = np.zeros(self.rules.board_size ** 2, dtype=np.int8)
        lo, hi = score_range(self.rules, self.diff)
        keys = block_keys(self.seed, rnd * self.blocks, self.blocks)
        counts = np.full(self.blocks, BLOCK, dtype=np.int64)
        p = self.policy
        rows = games_blocks(keys, counts, p.mode, p.k, p.mode, p.k, False, init, G, G, lo,
                            hi - lo + 1)
        self.games += self.blocks * BLOCK
        return np.asarray(rows)[:, 0] / BLOCK


def advise(rules, diff, policy, seed: int, max_rounds: int = 24,
           precision: float = 0.5, indifference=None, record_games: int = 0) -> dict:
    """Race :func:`family` (module doc); then each front rule plays ``record_games`` fresh
    games (the CLI's default is :data:`analyzer.advice.record.GAMES`; 0, the default here so
    that the report part stays as it was: none) to say where it decides otherwise than the
    reference (``extra["mistakes"]``)."""
    from analyzer.advice.race import race_family, zone
    from analyzer.errors import UserError

    if diff.powers <= 0:
        raise UserError(f"{diff.name} has no Majda Powers: there is nothing to advise")
    racer = MagdagdonRacer(rules, diff, policy, seed)
    res = race_family(family(diff), racer.values, BLOCK, max_rounds, precision, "games",
                      zone(precision, indifference))
    if record_games > 0:
        from analyzer.advice.record import interruptible

        with interruptible():
            front_mistakes(res["front"], res["reference"], rules, diff, policy, seed, record_games)
    return {**res, "default": default_rule(rules, diff)}


SPEND_LABEL = "spend a power or accept the ruin"
WHICH_LABEL = "which power, when a ±1 rescues the roll"
WHICH_DECISION = Decision("use the ±1", "reroll")
RECORD_WORDS = {**{f.name: f.words for f in FEATURES}, "fix": "rescuing ±1 changes"}


def spends(rule: PowerRule, X) -> np.ndarray:
    """True where ``rule`` spends a power on a MAGDAGDON with features ``X`` (cost, empty, fix):
    within its bounds, and for "±1 only" where some ±1 rescues the roll."""
    cost = np.asarray(X["cost"])
    if rule.max_cost == NEVER:
        return np.zeros(len(cost), dtype=bool)
    out = np.ones(len(cost), dtype=bool)
    if rule.max_cost is not None:
        out &= cost <= rule.max_cost
    if rule.min_empty:
        out &= np.asarray(X["empty"]) >= rule.min_empty
    if rule.max_empty:
        out &= np.asarray(X["empty"]) <= rule.max_empty
    if rule.which == 1:
        out &= np.asarray(X["fix"]) >= 1
    return out


def uses_fix(rule: PowerRule) -> bool:
    """Whether ``rule`` spends the ±1 (rather than a reroll) when a ±1 rescues the roll."""
    return rule.which in (0, 1)


def record_cuts(*rules: PowerRule) -> dict[str, list[float]]:
    """Where the rules' spend decisions change, per feature, as boundaries between integer
    values (as :func:`analyzer.advice.mistakes.rule_cuts`): c + ½ for "cost ≤ c", e − ½ and
    e + ½ for the empty-cell bounds, ½ on ``fix`` for "±1 only"; "never" reads nothing."""
    cuts: dict[str, set] = {}
    for r in rules:
        if r.max_cost == NEVER:
            continue
        if r.max_cost is not None:
            cuts.setdefault("cost", set()).add(r.max_cost + 0.5)
        if r.min_empty:
            cuts.setdefault("empty", set()).add(r.min_empty - 0.5)
        if r.max_empty:
            cuts.setdefault("empty", set()).add(r.max_empty + 0.5)
        if r.which == 1:
            cuts.setdefault("fix", set()).add(0.5)
    return {f: sorted(b) for f, b in cuts.items()}


RECORD_CHUNK = 512   # blocks of games recorded per kernel call (bounds the record's memory)


def record(rules, diff, policy, rule: PowerRule, n_games: int, seed: int) -> dict:
    """Play ``n_games`` fresh games (:func:`analyzer.advice.record.record_keys`) with ``rule``
    and base placement ``policy`` in a recording run (kernels/magdagdon/record.py), a chunk
    of :data:`RECORD_CHUNK` blocks at a time. Returns the records as arrays ``game``, ``kind``,
    ``cost``, ``empty``, ``fix``, ``choice`` and ``games``, the per-game (score, turns,
    MAGDAGDON rolls, ruins, powers used)."""
    from analyzer.advice.record import record_keys
    import kernels.magdagdon.record as KR

    G = kernel_inputs_for(rules, diff, rule)
    N = rules.board_size ** 2
    base = len(G[0])
    keys, counts = record_keys(seed, n_games, BLOCK)
    recs, games, first = [], [], 0
    for c in range(0, len(keys), RECORD_CHUNK):
        kc, nc = keys[c:c + RECORD_CHUNK], counts[c:c + RECORD_CHUNK]
        cap = int(nc.sum()) * (N + 2 * diff.powers)   # a turn fills a cell; a power adds two
        ri = np.zeros(base + cap * KR.RW + KR.HEAD, dtype=np.int64)
        ri[:base] = G[0]
        h = len(ri) - KR.HEAD
        ri[h + KR.H_BASE], ri[h + KR.H_CAP] = base, cap
        games.append(KR.record_games(kc, nc, policy.mode, np.zeros(N, dtype=np.int8),
                                     (ri,) + tuple(G[1:])))
        k = int(ri[h + KR.H_N])
        if k > cap:  # pragma: no cover - the capacity bounds the decisions of a game
            raise RuntimeError("MAGDAGDON decision record overflow")
        r = ri[base:base + k * KR.RW].reshape(k, KR.RW).copy()
        r[:, 0] += first
        recs.append(r)
        first += int(nc.sum())
    recs = np.concatenate(recs)
    names = ("game", "kind", "cost", "empty", "fix", "choice")
    return {**{f: recs[:, i] for i, f in enumerate(names)}, "games": np.concatenate(games)}


def front_mistakes(front, reference: PowerRule, rules, diff, policy, seed: int,
                   n_games: int, top: int = 5) -> None:
    """Set ``extra["mistakes"]`` on each front rule: two summaries labelled by their decision
    (:func:`analyzer.advice.mistakes.where_wrong`), spend-or-accept and which power (module
    doc). Each rule's games are played once."""
    from analyzer.advice.mistakes import where_wrong
    from analyzer.advice.record import front_mistakes as spend_mistakes
    from kernels.magdagdon.record import K_SPEND, K_WHICH

    recs = {}

    def of_kind(rule, kind):
        if rule not in recs:
            recs[rule] = record(rules, diff, policy, rule, n_games, seed)
        r = recs[rule]
        m = r["kind"] == kind
        return r["game"][m], {f: r[f][m] for f in ("cost", "empty", "fix")}, r["choice"][m] == 1

    spend_mistakes(front, lambda rule, n, sd: of_kind(rule, K_SPEND), reference, RECORD_WORDS,
                   DECISION, seed, n_games, acts=lambda r, X: spends(r, X), cuts=record_cuts,
                   top=top)
    for s in front:
        if "mistakes" not in s.extra:  # interrupted before this rule's spend record: no more
            break
        game, X, used_fix = of_kind(s.rule, K_WHICH)
        best = np.where(spends(reference, X), uses_fix(reference), used_fix)
        which = where_wrong(n_games, game, X, used_fix, best, {}, RECORD_WORDS, WHICH_DECISION,
                            seed=seed, same=s.rule == reference, top=top)
        s.extra["mistakes"] = [{"decision": SPEND_LABEL, **s.extra["mistakes"]},
                               {"decision": WHICH_LABEL, **which}]


def row(s) -> dict:
    """A scored power rule as JSON (words, data, loss statistic)."""
    from analyzer.advice.race import candidate_row

    return candidate_row(s)


WHICH_NAMES = {"fix-or-reroll": 0, "fix": 1, "reroll": 2}
def rule_from_file(text: str) -> PowerRule:
    """``rule:FILE.json`` holding a power rule of ``magdagdon advice`` (its ``rule`` object)."""
    from analyzer.advice.rulefile import read_rule_data
    from analyzer.errors import UserError

    d = read_rule_data(text, "magdagdon")
    path = text.strip()[len("rule:"):]
    if d.get("kind") != "magdagdon-power":
        raise UserError(f"rule file '{path}': expected a MAGDAGDON power rule (kind "
                        f"magdagdon-power, from `magdagdon advice --out DIR`)")
    if d.get("never") is True:
        return PowerRule(NEVER)
    which = next((k for k, v in WHICH.items() if v == d.get("which")), None)
    mc, lo, hi = d.get("max_cost"), d.get("min_empty", 0), d.get("max_empty", 0)
    if which is None or not all(isinstance(x, int) and not isinstance(x, bool) and
                                0 <= x <= 9999 for x in (lo, hi) + (() if mc is None else (mc,))):
        raise UserError(f"rule file '{path}': a power rule needs max_cost (a whole number or "
                        f"null), min_empty, max_empty and which as `magdagdon advice` writes "
                        f"them")
    return PowerRule(mc, lo, hi, which)
