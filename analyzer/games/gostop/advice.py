"""Go-Stop: when to say go, as rules of thumb raced by Monte Carlo on common random numbers.

What belongs here: the go-or-stop rules of thumb, their compilation into the engine's go rule
table and their racing (:mod:`analyzer.advice.race`). No pandas, no printing.

The engine plays a rule given as data (kernels/gostop/state.py, the ``table`` policy): rows of
(guard feature, comparison, value; test feature, comparison, value), the first row whose guard
holds deciding "go iff the test holds". :func:`table_of` compiles every rule of
:mod:`analyzer.advice` into such rows, so the search covers the issue's families over five
features a player can count at the go/stop check (:data:`FEATURE_IDS` maps them to the kernel's
``F_*``): the gos you have said, your turns left, your score, the best score the opponents'
captures make, and the most gos an opponent has said. Hand play is the greedy bot's in every case.

The family (:func:`family`): always go / always stop (complexity 0); one threshold on each
feature, both directions, every value of its grid (2); two-band rules — the gos, turns-left or
opponent-score threshold depending on a second feature cut once (5); decision lists of two or
three "stop if …" clauses on different features before "otherwise go" (4, 6), and of two
"go if …" clauses before "otherwise stop" (4); the lists' values come from short per-feature
grids. Rules that decide alike in every state of :func:`state_grid` are kept once, in their simplest words. The engine's older knob ``go:K:T`` is
the list "if turns left ≤ T − 1, stop; if gos ≥ K, stop; otherwise go" (:func:`knob_table`).

Value: the mean net payment per deal of the seat under study against greedy opponents, averaged
over the dealer seat and the other seat (half the blocks each). Best known policy: the surviving
family member with the highest mean so far; the loss of a rule is best − rule, per block of
deals played on the same keys by every rule (common random numbers; blocks are independent, so
the batch-means SE over blocks is honest), raced by :func:`analyzer.advice.race.race_blocks`.
"""
from __future__ import annotations

import itertools

import numpy as np

from analyzer.advice import Decision, Feature, Rule

DECISION = Decision("go", "stop")
#: advice feature name -> the kernel's feature id (kernels.gostop.state F_*)
FEATURE_IDS = {"gos": 1, "turns": 2, "points": 3, "opp": 4, "opp_gos": 5}
BLOCK = 64
BLOCKS_PER_ROUND = 32
#: fresh deals each front rule plays to record its go/stop checks (about 0.3 s each; a deal
#: has about one check of the studied seat)
RECORD_DEALS = 20_000


def features(rules=None) -> list[Feature]:
    """The features and their threshold grids; the score grids start at the stop minimum."""
    t = 7 if rules is None else rules.stop_target
    return [Feature("gos", "the gos you have said this deal", tuple(range(0, 5))),
            Feature("turns", "the turns left in your hand", tuple(range(2, 9))),
            Feature("points", "your score", tuple(range(t, t + 7)), unit="points"),
            Feature("opp", "the best score an opponent's captures make", tuple(range(0, t)),
                    unit="points"),
            Feature("opp_gos", "the most gos an opponent has said", (0, 1, 2))]


FEATURES = features()


def state_grid(rules=None) -> dict:
    """Every combination of feature values a go/stop check can plausibly meet (arrays of one
    shape), on which two rules are the same rule when they decide alike everywhere."""
    from analyzer.advice.table import grid

    t = 7 if rules is None else rules.stop_target
    return grid({"gos": range(0, 8), "turns": range(1, 12), "points": range(t, t + 16),
                 "opp": range(0, t + 8), "opp_gos": range(4)})


# ---- rules as the engine's go rule table -----------------------------------------------------
def table_of(rule: Rule) -> tuple:
    """The go rule table rows (kernels.gostop.state) that decide exactly as ``rule``
    (:func:`analyzer.advice.table.table_of`)."""
    from analyzer.advice.table import table_of as compile_rule

    return compile_rule(rule, FEATURE_IDS)


def knob_table(k: int, t: int) -> tuple:
    """``go:K:T`` (say go while gos < K and turns left ≥ T) as a go rule table."""
    from analyzer.advice.table import ALWAYS, NEVER, cond

    return (cond(FEATURE_IDS, "turns", "<=", t - 1) + NEVER,
            ALWAYS + cond(FEATURE_IDS, "gos", "<=", k - 1))


def table_acts(table: tuple, X: dict) -> np.ndarray:
    """What a go rule table decides on the feature arrays ``X``, read as the kernel reads it."""
    from analyzer.advice.table import table_acts as read

    return read(table, X, FEATURE_IDS)


def policy_of(rule: Rule, name: str = ""):
    from analyzer.games.gostop.play import Policy

    return Policy("table", table=table_of(rule), name=name or "rule")


def rule_policy(text: str):
    """``rule:FILE.json`` as the engine's table policy (any rule of the game's features)."""
    from analyzer.advice.rulefile import load_rule

    rule = load_rule(text, list(FEATURE_IDS), "gostop")
    return policy_of(rule, text.strip())


# ---- the family ------------------------------------------------------------------------------
#: acting features of banded rules and the direction a player would use
_BAND_ACT = (("gos", "<="), ("turns", ">="), ("opp", "<="))


def family(rules=None) -> list[Rule]:
    """The candidate rules (module doc), simplest first, each behaviour once."""
    from analyzer.advice.table import distinct, spread

    fs = {f.name: f for f in features(rules)}
    out = [Rule("list", clauses=(), default_act=False), Rule("list", clauses=(), default_act=True)]
    out += [Rule("threshold", f, op, (v,)) for f in fs for op in ("<=", ">=")
            for v in fs[f].values]
    for (f, op), g in itertools.product(_BAND_ACT, fs):
        if g == f:
            continue
        for c in spread(fs[g].values)[1:]:
            for t0, t1 in itertools.permutations(spread(fs[f].values), 2):
                out.append(Rule("banded", f, op, (t0, t1), g, (c,)))
    t = fs["points"].values[0]
    stop_at = {"gos": (1, 2, 3), "turns": (1, 2, 3), "points": (t + 2, t + 4, t + 6),
               "opp": (t - 5, t - 3, t - 1), "opp_gos": (1, 2)}
    go_at = {"gos": (0, 1, 2), "turns": (2, 3, 4), "points": (t + 1, t + 3, t + 5),
             "opp": (t - 6, t - 4, t - 2), "opp_gos": (0, 1)}
    for m in (2, 3):   # stop if any condition holds (the order of stop clauses is immaterial)
        for names in itertools.combinations(fs, m):
            grids = [stop_at[f] if m == 2 else stop_at[f][:2] for f in names]
            for vals in itertools.product(*grids):
                out.append(Rule("list", clauses=tuple((f, ">=" if f != "turns" else "<=", v,
                                                       False) for f, v in zip(names, vals)),
                                default_act=True))
    for names in itertools.combinations(fs, 2):   # go if either condition holds
        for vals in itertools.product(*(go_at[f] for f in names)):
            out.append(Rule("list", clauses=tuple((f, "<=" if f != "turns" else ">=", v, True)
                                                  for f, v in zip(names, vals)),
                            default_act=False))
    return distinct(out, state_grid(rules))


# ---- racing ----------------------------------------------------------------------------------
class GoStopRacer:
    """Per-block paired losses of engine policies (module doc)."""

    def __init__(self, rules, seed: int, blocks_per_round: int = BLOCKS_PER_ROUND,
                 block: int = BLOCK):
        self.rules = rules
        self.seed = seed
        self.blocks = blocks_per_round
        self.block = block
        self.deals = 0

    def values(self, policy, rnd: int) -> np.ndarray:
        """Mean net payment of the studied seat per block of round ``rnd`` (both seats);
        ``policy`` is a play.Policy or its text."""
        from analyzer.advice.race import two_seat_values
        from analyzer.games.gostop.play import Policy, make_sim_job, plain_policy
        from kernels.gostop import batch as KB

        pol = policy if isinstance(policy, Policy) else plain_policy(policy)

        def job_for(seat):
            pols = [Policy("greedy")] * self.rules.players
            pols[seat] = pol
            return make_sim_job(self.rules, pols)

        v, played = two_seat_values(job_for, lambda seat: KB.C_NET + seat, self.seed, rnd,
                                    self.blocks, self.block)
        self.deals += played
        return v


def record(rules, rule: Rule, n_games: int, seed: int):
    """The studied seat's go/stop decisions when it plays ``rule`` against greedy opponents in
    ``n_games`` fresh deals (the recording stream of :mod:`analyzer.advice.record`; the first
    half with the studied seat dealing, the rest in the other seat, as in the race). Returns
    (deal index per decision, feature arrays by advice name, True where the rule said go) and
    the studied seat's net payment per deal, from the recording run of kernels/gostop/record.py."""
    from analyzer.advice.record import STREAM
    from analyzer.games.gostop.play import Policy, policy_array, rules_vector
    from analyzer.rng import block_keys
    from kernels.gostop import record as KR
    from kernels.gostop import state as K

    names = sorted(FEATURE_IDS, key=FEATURE_IDS.get)   # record columns: F_GOS … F_OPPGOS
    games, X, acts, nets = [], {f: [] for f in names}, [], []
    halves = (n_games - n_games // 2, n_games // 2)
    first = 0
    for seat, n in enumerate(halves):
        if n == 0:
            continue
        pols = [Policy("greedy")] * rules.players
        pols[seat] = policy_of(rule)
        S0 = K.new_state(rules_vector(rules), policy_array(pols))
        nb = -(-n // BLOCK)
        counts = np.full(nb, BLOCK, dtype=np.int64)
        counts[-1] = n - BLOCK * (nb - 1)
        keys = block_keys(seed, seat * (1 << 20), nb, stream=STREAM)
        cap = 16 * n + 64
        recs, met, net = KR.record_deals(S0, keys, counts, 0, seat, cap)
        if met > cap:  # pragma: no cover - a deal has at most a dozen go/stop checks
            raise RuntimeError("go/stop record overflow")
        games.append(recs[:, 0] + first)
        for i, f in enumerate(names):
            X[f].append(recs[:, 1 + i])
        acts.append(recs[:, -1] == 1)
        nets.append(net)
        first += n
    return (np.concatenate(games), {f: np.concatenate(v) for f, v in X.items()},
            np.concatenate(acts)), np.concatenate(nets)


def advise(rules, seed: int, max_rounds: int = 48, precision: float = 0.02,
           blocks_per_round: int = BLOCKS_PER_ROUND, indifference=None,
           record_games: int | None = None) -> dict:
    """Race :func:`family` (module doc); returns the front, every scored rule, the reference
    rule in words, the race's costs and the seconds taken. Each front rule then plays
    ``record_games`` fresh deals (default :data:`RECORD_DEALS`; 0: none) to
    say where it decides otherwise than the reference (``extra["mistakes"]``)."""
    import time

    from analyzer.advice import pareto
    from analyzer.advice.race import race_policies, zone

    t0 = time.perf_counter()
    fam = family(rules)
    feats = features(rules)
    fd = {f.name: f for f in feats}
    racer = GoStopRacer(rules, seed, blocks_per_round)
    scored, cost, ref = race_policies(fam, [policy_of(r) for r in fam], racer.values, BLOCK,
                                      max_rounds, precision, zone(precision, indifference))
    front = pareto([s for s in scored if s.extra["survived"]])
    for s in scored:
        s.extra.pop("policy", None)
    cost["unit"] = "deals"
    ref_rule = fam[cost["reference_index"]]
    from analyzer.advice.record import front_mistakes, interruptible

    n_rec = RECORD_DEALS if record_games is None else record_games
    if n_rec > 0:
        with interruptible():
            front_mistakes(front, lambda r, n, sd: record(rules, r, n, sd)[0], ref_rule,
                           {f.name: f.words for f in feats}, DECISION, seed, n_rec)
    return {"features": feats, "front": front, "all": scored,
            "reference": ref_rule.words(fd, DECISION), "reference_rule": ref_rule.to_json(),
            "race": cost, "seconds": time.perf_counter() - t0}
