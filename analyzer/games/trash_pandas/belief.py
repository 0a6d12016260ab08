"""The belief about the cards a seat cannot see, learned from self-play of the position's line-up.

What belongs here: learning the belief's tilt (:func:`learn`), its cache entry, and the parameter
vector of kernels/trash_pandas/belief.py for one position (:meth:`Belief.params`). The sampler and
the model's formula are in that kernel module's docstring; the rules page
(docs/rules/trash-pandas.md, "The belief about unseen cards") says the same in a player's words.

Three beliefs
-------------
* ``model`` (the default): the opponents' bots' stash rule as a hard rule (a face-down stash never
  holds a type its bot never stashes face down: 0-point Doggo and Kitteh, for every bot but
  ``random``) and a tilt, learned from self-play, of how many cards of each type an opponent holds
  in hand and face down.
* ``rules``: the hard rule alone (uniform over the splits it allows).
* ``uniform``: every split of the unseen cards equally likely card by card (what `decide` did
  before; kept to measure the difference).

Learning the tilt
-----------------
Self-play: ``GAMES`` games of the position's players, rules, deck and line-up (a ``rollout:K``
seat plays as its base heuristic here: its stash, steal and card choices are the heuristic's);
the full state at the start of every ``STRIDE``-th turn is kept with the seat whose turn it is
(kernels/trash_pandas/belief_data.py). For each kept state the seat's unseen cards have a true
split ``x`` (what the opponents really held) and ``K`` splits ``x'_1..x'_K`` drawn from the
``rules`` belief (the base measure). The tilt's log-weight of a cell (opponent q, kind: hand or
face down, type t) holding c cards is

    w(q, kind, t, c) = θ[b, G(q), o(q), a(q), kind, t] · φ(c),   φ(c) = (c, [c ≥ 1], [c ≥ 2]),

with b the stage (the bucket of cards left, :data:`BUCKETS`), G(q) q's bot group (seats whose
bots are alike share a group) and o(q) = (q − me) mod players q's place in the turn order after
the seat whose view it is (1: the next to play, players − 1: the one who played last). The place
matters: between two of its own turns an opponent only loses cards (steals, blocks, Yum Yum,
the first in seat order after a stopper playing first) and gains them by its own draws, which it
stashes at the end of that turn; so the one who just played holds more Kitteh and Yum Yum and
fewer scoring cards than the one about to play (4 players, heuristic bots, 0–2 cards left: a
belief without o(q) put +0.048 Yum Yum in the next player's hand and −0.091 in the last one's,
each about 10 SE). a(q) = min(τ(q), 2), τ(q) the number of players whose Paw would target q
now (each by its bot's ``steal-from`` rule from the public stash and hand sizes; a ``random``
bot aims at nobody in particular): the players everyone steals from have spent their blocks
(4 players, 0–10 cards left: without a(q) the belief gave the Paw target a Doggo or Kitteh
0.097 more often than the truth, 15 SE, and undervalued rolling). At 2 players the one
opponent is always the target, so a(q) = 0 there. A (group, place, aim) triple is a *class*; θ
is fitted over the classes the kept states show (at 2 players only place 1). θ is fitted per stage by conditional maximum
likelihood: for each state, the probability that the true split is the one picked out of the
K + 1 splits,

    L(θ) = Σ_states [ θ·Φ(x) − log Σ_{y ∈ {x, x'_1..x'_K}} exp(θ·Φ(y)) ] − (λ/2)·|θ|²,

Φ(x) the summed φ features of the split's cells. Since the x' come from the base measure, the
normaliser of the tilted model (which depends on each state's pool and place sizes) cancels, and
the maximiser estimates the tilt of P(split | what the seat sees) = base × exp(θ·Φ) / Z
(a ranking form of noise-contrastive estimation). λ = ``L2`` keeps types never seen in a cell
(e.g. a type absent from a deck file) at 0. Newton's method with the exact Hessian (the
covariance of Φ under the softmax over each state's splits), stopped when no step moves θ by
more than ``TOL``.

Assumptions, stated: the opponents play like the line-up's bots (default: ``heuristic``); the
stage is summed up by the cards left (bucketed), and what an opponent holds depends on the rest
of the position only through the counts the tilt reads. The learned parameters are cached
(analyzer/cache.py) under the rules, the deck, the players, the learning line-up and the code of
every module the games and the learning run through.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from analyzer.games.trash_pandas.score import CARD_NAMES, WHOLE_CARDS

GAMES = 6000
STRIDE = 2
CAP = 32  # kept states per game at most (default rules: at most 14 at stride 2)
K = 8  # base-measure splits per kept state
L2 = 1.0
TOL = 1e-4  # Newton stops when no step moves θ by more (its sampling error is ~0.01–0.1)
STEPS = 20.0  # Metropolis steps per hidden card (kernels/trash_pandas/belief.py)
LEARN_SEED = 34034  # the self-play games' seed: the belief does not depend on --seed
PER_BUCKET = 6000  # kept states used per stage at most (the first ones)
#: lower edges of the stages (cards left in the draw pile)
BUCKETS = (0, 4, 8, 12, 20, 30)
NF = 3
BELIEFS = ("model", "rules", "uniform")

_ROOT = Path(__file__).resolve().parents[3]
SOURCES = [Path(__file__)] + [_ROOT / "kernels" / "trash_pandas" / f for f in (
    "belief.py", "belief_data.py", "whole.py", "whole_bots.py", "whole_state.py",
    "whole_tables.py", "layout.py")]


def check_belief(name: str) -> None:
    """A belief name the commands accept (one-line error otherwise)."""
    if name not in BELIEFS:
        from analyzer.errors import UserError

        raise UserError(f"--belief must be one of {', '.join(BELIEFS)}, got '{name}'")


def bucket_of(cards_left: int) -> int:
    """The stage index of a position with ``cards_left`` cards in the draw pile."""
    b = 0
    for i, lo in enumerate(BUCKETS):
        if cards_left >= lo:
            b = i
    return b


def basis(c):
    """φ(c) = (c, [c ≥ 1], [c ≥ 2]) along a new last axis (NumPy array of counts)."""
    import numpy as np

    c = np.asarray(c, dtype=np.float64)
    return np.stack([c, c >= 1, c >= 2], axis=-1).astype(np.float64)


def down_ok(lineup, deck):
    """float64[4, 8]: 1 where seat q's bot may hold type t face down (the kernel's rule_params:
    every bot but ``random`` stashes only types that score)."""
    import numpy as np

    scoring = ((deck.pts[:, 0] > 0) | (deck.per_card > 0)).astype(np.float64)
    out = np.ones((4, 8), dtype=np.float64)
    for q, bot in enumerate(lineup):
        if bot.name != "random":
            out[q] = scoring
    return out


def seat_groups(lineup) -> list[int]:
    """Seats whose bots play alike share a group (a rollout seat plays as its base heuristic
    while the belief learns, so it joins the heuristic with the same knobs)."""
    keys = [_learning_label(b) for b in lineup]
    order = list(dict.fromkeys(keys))
    return [order.index(k) for k in keys]


def _learning_label(bot) -> str:
    """What decides how a seat holds its cards while the belief learns: its bot (a rollout bot
    as its base heuristic), knobs and stop table."""
    name = "heuristic" if bot.name == "rollout" else bot.name
    return f"{name}:{dict(bot.knobs)}:{bot.table}"


@dataclass
class Belief:
    """A belief ready to give a position's parameter vector: its ``name`` (:data:`BELIEFS`),
    the fitted ``theta`` (stages × groups × places 4 × aims 3 × 2 × 8 × NF, place = (q − me) mod
    players, aim = a(q) of the module doc; zeros for ``rules``/``uniform``), the
    seat groups, the face-down rule, and what it was learned from."""

    name: str
    theta: object
    groups: list[int]
    down: object
    games: int = 0
    states: list[int] = field(default_factory=list)
    xn: int = 8
    aims_by: list = field(default_factory=list)  # per seat: its Paw rule (aim_rules)

    def params(self, view, me: int, opp_hand=None, opp_down=None):
        """float64 parameter vector of kernels/trash_pandas/belief.py for a position whose
        public state array is ``view`` (its face-up rows and cards left are read; rows of
        ``me`` are never read by the sampler), ``opp_hand``/``opp_down`` the opponents' hand
        and face-down sizes (the aims a(q) read them; None: zero)."""
        import numpy as np

        from kernels.trash_pandas.belief import (BP_DOWN_OK, BP_LOGW, BP_STEPS, BP_XN,
                                                 params_size)
        from kernels.trash_pandas.layout import SC

        bp = np.zeros(params_size(self.xn), dtype=np.float64)
        bp[BP_XN] = self.xn
        bp[BP_DOWN_OK:BP_DOWN_OK + 32] = self.down.ravel()
        if self.name == "model":
            bp[BP_STEPS] = STEPS
            phi = basis(np.arange(self.xn))  # (xn, NF)
            th = self.theta[bucket_of(int(view[SC, 0]))]  # (groups, places, aims, 2, 8, NF)
            players = len(self.groups)
            aim = aims(*public_sizes(view, me, players, opp_hand, opp_down), self.aims_by)
            for q, grp in enumerate(self.groups):
                if q == me:
                    continue
                place = (q - me) % players
                for kind in range(2):
                    for t in range(8):
                        at = BP_LOGW + ((q * 2 + kind) * 8 + t) * self.xn
                        bp[at:at + self.xn] = phi @ th[grp, place, aim[q], kind, t]
        return bp

    def feasible(self, pos) -> bool:
        """Can the face-down stashes be dealt under the rule (enough unseen cards of the
        types each opponent's bot stashes)?"""
        restricted = [q for q in range(pos.players) if q != pos.me and self.down[q].min() == 0]
        if not restricted:
            return True
        allowed = sum(int(c) for c, ok in zip(pos.pool, self.down[restricted[0]]) if ok)
        return sum(int(pos.opp_down[q]) for q in restricted) <= allowed

    def describe(self) -> str:
        if self.name == "uniform":
            return ("uniform: every split of the unseen cards into hands, face-down stashes "
                    "and the pile equally likely")
        seats = self.down[:len(self.groups)]
        open_seats = [q + 1 for q in range(len(seats)) if seats[q].min() > 0]
        narrow = seats.min(axis=0)
        rule = ("face-down stashes hold only the types the opponents' bots stash ("
                + ", ".join(CARD_NAMES[WHOLE_CARDS[t]] for t in range(8) if narrow[t] > 0)
                + "".join(f"; seat {q}: any" for q in open_seats) + ")")
        if self.name == "rules":
            return f"rules: {rule}; otherwise uniform"
        return (f"model: {rule}; the count of each type in each hand and face-down stash "
                f"weighted as in {self.games:,} self-play games of this line-up, by each "
                f"opponent's place after me and the Paws aimed at it")

    def to_json(self) -> dict:
        return {"name": self.name, "description": self.describe(),
                "self_play_games": self.games if self.name == "model" else 0}


def uniform_belief(lineup) -> Belief:
    import numpy as np

    return Belief("uniform", np.zeros((len(BUCKETS), 4, 4, 3, 2, 8, NF)), [0] * len(lineup),
                  np.ones((4, 8)))


def belief_for(name: str, setup, lineup=None) -> Belief:
    """The belief ``name`` for a GameSetup's rules, deck, players and first line-up."""
    import numpy as np

    lineup = lineup if lineup is not None else setup.lineups[0]
    if name == "uniform":
        return uniform_belief(lineup)
    down = down_ok(lineup, setup.deck)
    xn = int(max(setup.deck.copies.max(), 1)) + 1
    groups = seat_groups(lineup)
    if name == "rules":
        return Belief("rules", np.zeros((len(BUCKETS), 4, 4, 3, 2, 8, NF)), groups, down, xn=xn)
    theta, states = learn(setup, lineup)
    return Belief("model", theta, groups, down, GAMES, states, xn, aim_rules(lineup))


def learn(setup, lineup):
    """θ (stages × groups × places × aims × 2 × 8 × NF) and the kept states per stage, from the cache when a
    valid entry exists (module doc)."""
    from analyzer.cache import cached_arrays

    got = cached_arrays("tp-belief", learning_params(setup, lineup), SOURCES,
                        lambda: _learn(setup, lineup), keep=16)
    return got["theta"], [int(x) for x in got["states"]]


def learning_params(setup, lineup) -> dict:
    """What the learned belief depends on besides the code (its cache entry's parameters)."""
    from analyzer.rules import rules_to_dict

    return {"rules": rules_to_dict(setup.rules), "players": setup.players,
            "copies": setup.deck.copies.tolist(), "pts": setup.deck.pts.tolist(),
            "per_card": setup.deck.per_card.tolist(),
            "lineup": [_learning_label(b) for b in lineup],
            "games": GAMES, "stride": STRIDE, "cap": CAP, "k": K, "l2": L2,
            "buckets": BUCKETS, "seed": LEARN_SEED}


def _learn(setup, lineup) -> dict:
    import numpy as np

    from analyzer.output import note

    note(f"learning how the opponents hold cards from {GAMES:,} self-play games (once; "
         "cached)…")
    states, seats = self_play_states(setup, lineup)
    hid = hidden_split_counts(setup, lineup, states, seats)
    groups = seat_groups(lineup)
    left = states[:, 18, 0]
    stage = np.array([bucket_of(int(c)) for c in left])
    from kernels.trash_pandas.layout import HAND, STASH

    theta = np.zeros((len(BUCKETS), 4, 4, 3, 2, 8, NF))
    rules = aim_rules(lineup)
    aim = np.array([aims(g[STASH:STASH + 4].sum(axis=1), g[HAND:HAND + 4].sum(axis=1), rules)
                    for g in states], dtype=np.int64).reshape(len(states), -1)
    kept = []
    for b in range(len(BUCKETS)):
        idx = np.flatnonzero(stage == b)[:PER_BUCKET]
        kept.append(len(idx))
        if len(idx) == 0:
            continue
        feats, classes = split_features(hid[idx], seats[idx], groups, aim[idx])
        fit = fit_ranking(feats, L2, block=2 * 8 * NF).reshape(len(classes), 2, 8, NF)
        for c, (grp, place, a) in enumerate(classes):
            theta[b, grp, place, a] = fit[c]
    return {"theta": theta, "states": np.array(kept, dtype=np.int64)}


def self_play_states(setup, lineup):
    """(states int16[n, 19, 8], seats int64[n]): the kept turn-start states (module doc)."""
    import numpy as np

    from analyzer.games.trash_pandas.bots import lineup_array
    from analyzer.rng import block_keys
    from kernels.trash_pandas import belief_data as D

    base = tuple(_as_base(b) for b in lineup)
    bots = lineup_array([base])[0]
    block = 64
    nblocks = -(-GAMES // block)
    keys = block_keys(LEARN_SEED, 0, nblocks)
    counts = np.full(nblocks, block, dtype=np.int64)
    counts[-1] = GAMES - block * (nblocks - 1)
    first = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    states = np.zeros((GAMES * CAP, 19, 8), dtype=np.int16)  # counts; 58 MB, not 233
    seats = np.zeros(GAMES * CAP, dtype=np.int64)
    kept = np.zeros(GAMES, dtype=np.int64)
    from analyzer.games.trash_pandas.bots import BAND_TABLE, KNOBS

    kernel = (D.turn_snapshots_tables if (bots[:, KNOBS["band-by"][0]] == BAND_TABLE).any()
              else D.turn_snapshots)
    d = setup.deck
    kernel(keys, counts, first, setup.players, d.copies, d.pts, d.per_card, setup.deal,
           setup.rules_arr, bots, setup.roll_tab, setup.after_tab, STRIDE, CAP, states, seats,
           kept)
    mask = (np.arange(CAP)[None, :] < kept[:, None]).ravel()
    return states[mask], seats[mask]


def _as_base(bot):
    """A rollout bot as the heuristic with its knobs (what it plays outside roll/stop)."""
    from dataclasses import replace

    return replace(bot, name="heuristic", rollouts=0) if bot.name == "rollout" else bot


def hidden_split_counts(setup, lineup, states, seats):
    """int8[n, K + 1, 4, 2, 8]: each state's true split, then K splits of the rules belief."""
    import numpy as np

    from analyzer.rng import block_keys
    from kernels.trash_pandas.belief_data import hidden_splits

    bp = belief_for("rules", setup, lineup).params(np.zeros((19, 8), dtype=np.int64), 0)
    key = block_keys(LEARN_SEED, 0, 1, stream=1)[0]
    return hidden_splits(states, seats, bp, key, K)


def split_features(hid, seats, groups, aim):
    """(float64[n, K + 1, F], classes): Φ of each split and the classes it is over, F =
    len(classes) · 2 · 8 · NF. A class is a (bot group, place, aim) triple for opponent q seen
    from ``seats[i]``: place = (q − me) mod players, aim = ``aim[i, q]`` (a(q), module doc);
    ``classes`` lists the triples the states show, sorted. Φ sums the basis φ of each cell's
    count over the opponents of each class; the seat whose view it is is in no class."""
    import numpy as np

    players = len(groups)
    n, k1 = hid.shape[:2]
    seats = np.asarray(seats, dtype=np.int64)
    key = [[(groups[q], (q - int(seats[i])) % players, int(aim[i, q]))
            for q in range(players)] for i in range(n)]
    present = sorted({key[i][q] for i in range(n) for q in range(players) if q != seats[i]})
    index = {c: i for i, c in enumerate(present)}
    which = np.array([[index.get(key[i][q], -1) if q != seats[i] else -1
                       for q in range(players)] for i in range(n)], dtype=np.int64)
    out = np.zeros((n, k1, len(present), 2, 8, NF))
    for q in range(players):
        for c in range(len(present)):
            rows = np.flatnonzero(which[:, q] == c)
            if len(rows):
                out[rows, :, c] += basis(hid[rows][:, :, q])
    return out.reshape(n, k1, -1), present


def aim_rules(lineup) -> list:
    """Per seat, whom its Paw aims at: "leader" (most stashed cards), "biggest-hand", or None
    (a ``random`` bot: uniform, at nobody in particular)."""
    return [None if b.name == "random" else dict(b.knobs).get("steal-from", "leader")
            for b in lineup]


def public_sizes(view, me: int, players: int, opp_hand=None, opp_down=None):
    """(stash sizes, hand sizes) per seat from a position's public state array: my rows are
    whole; an opponent's stash row holds its face-up cards, plus ``opp_down[q]`` face down,
    and its hand is ``opp_hand[q]`` cards (plus any known ones in its hand row)."""
    from kernels.trash_pandas.layout import HAND, STASH

    stash = [int(view[STASH + q].sum()) for q in range(players)]
    hand = [int(view[HAND + q].sum()) for q in range(players)]
    for q in range(players):
        if q != me:
            stash[q] += int(opp_down[q]) if opp_down is not None else 0
            hand[q] += int(opp_hand[q]) if opp_hand is not None else 0
    return stash, hand


def aims(stash, hand, rules) -> list[int]:
    """a(q) = min(τ(q), 2) per seat (module doc), τ(q) the number of seats p whose Paw would
    take a card from q's hand now: p's target is, among the opponents with a hand card, the one
    with the most stashed cards (``leader``) or cards in hand (``biggest-hand``), ties to the
    larger hand, then to the first seat after p (kernels/trash_pandas/whole_bots.py
    steal_target). At 2 players every a(q) is 0 (the one opponent is always the target)."""
    players = len(rules)
    tau = [0] * players
    if players <= 2:
        return tau
    for p, rule in enumerate(rules):
        if rule is None:
            continue
        best, best_v = -1, -1
        for j in range(1, players):
            q = (p + j) % players
            if hand[q] <= 0:
                continue
            v = (stash[q] if rule == "leader" else hand[q]) * 64 + hand[q]
            if v > best_v:
                best, best_v = q, v
        if best >= 0:
            tau[best] += 1
    return [min(x, 2) for x in tau]


def fit_ranking(feats, l2: float, max_iter: int = 50, block: int = 0):
    """θ maximising Σ_i [θ·A[i, 0] − log Σ_j exp(θ·A[i, j])] − (l2/2)|θ|² by Newton's method
    (module doc); ``feats`` = A float64[n, J, F], entry 0 of each row the true split.

    ``block`` > 0: the features come in blocks of that many columns (one per class) and a state
    touches only the blocks of its opponents' classes; the Hessian is then summed over the
    states that touch the same blocks, on those blocks only (the same sum, without the products
    of columns that are zero for every split of a state: at 4 players 3 blocks of 9)."""
    import numpy as np

    n, j, f = feats.shape
    hessian = (_block_hessian(feats, block) if block and f > block else
               _dense_hessian(feats))
    theta = np.zeros(f)
    flat = feats.reshape(n * j, f)
    for _ in range(max_iter):
        s = (flat @ theta).reshape(n, j)
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(axis=1, keepdims=True)
        mean = np.matmul(p[:, None, :], feats)[:, 0, :]  # E_softmax[Φ] per state
        grad = (feats[:, 0] - mean).sum(axis=0) - l2 * theta
        hess = hessian(p, mean) + l2 * np.eye(f)
        step = np.linalg.solve(hess, grad)
        theta += step
        if np.abs(step).max() < TOL:
            break
    return theta


def _gram(x):
    """xᵀx by BLAS (about 7× NumPy's einsum loop for 54,000 × 144, which had taken 7 of the
    10 s of a first learning). A `pushluck` process runs BLAS on one thread
    (analyzer/startup.py): threaded on a busy 2-core machine, one product took seconds."""
    return x.T @ x


def _dense_hessian(feats):
    """(p, mean) -> Σ_i [Σ_j p_ij A_ij A_ijᵀ − m_i m_iᵀ], the softmax covariance summed."""
    import numpy as np

    n, j, f = feats.shape
    flat = feats.reshape(n * j, f)

    def hessian(p, mean):
        root = flat * np.sqrt(p.reshape(-1, 1))
        return _gram(root) - _gram(mean)

    return hessian


def _block_hessian(feats, block: int):
    """:func:`_dense_hessian` summed block by block (:func:`fit_ranking`'s doc)."""
    import numpy as np

    n, j, f = feats.shape
    touched = (feats.reshape(n, j, f // block, block) != 0).any(axis=(1, 3))  # n × blocks
    patterns, which = np.unique(touched, axis=0, return_inverse=True)
    parts = []
    for k, pattern in enumerate(patterns):
        if not pattern.any():  # a state whose splits are all alike adds nothing
            continue
        rows = np.flatnonzero(which.ravel() == k)
        cols = (np.flatnonzero(pattern)[:, None] * block + np.arange(block)).ravel()
        parts.append((rows, cols, feats[rows][:, :, cols]))

    def hessian(p, mean):
        out = np.zeros((f, f))
        for rows, cols, sub in parts:
            root = (sub * np.sqrt(p[rows])[:, :, None]).reshape(-1, len(cols))
            m = mean[rows][:, cols]
            out[np.ix_(cols, cols)] += _gram(root) - _gram(m)
        return out

    return hessian
