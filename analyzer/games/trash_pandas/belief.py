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

    w(q, kind, t, c) = θ[b, G(q), kind, t] · φ(c),   φ(c) = (c, [c ≥ 1], [c ≥ 2]),

with b the stage (the bucket of cards left, :data:`BUCKETS`) and G(q) q's bot group (seats whose
bots are alike share a group). θ is fitted per stage by conditional maximum likelihood: for each
state, the probability that the true split is the one picked out of the K + 1 splits,

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
    the fitted ``theta`` (stages × groups × 2 × 8 × NF; zeros for ``rules``/``uniform``), the
    seat groups, the face-down rule, and what it was learned from."""

    name: str
    theta: object
    groups: list[int]
    down: object
    games: int = 0
    states: list[int] = field(default_factory=list)
    xn: int = 8

    def params(self, view, me: int):
        """float64 parameter vector of kernels/trash_pandas/belief.py for a position whose
        public state array is ``view`` (its face-up rows and cards left are read; rows of
        ``me`` are never read by the sampler)."""
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
            th = self.theta[bucket_of(int(view[SC, 0]))]  # (groups, 2, 8, NF)
            for q, grp in enumerate(self.groups):
                if q == me:
                    continue
                for kind in range(2):
                    for t in range(8):
                        at = BP_LOGW + ((q * 2 + kind) * 8 + t) * self.xn
                        bp[at:at + self.xn] = phi @ th[grp, kind, t]
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
                f"weighted as in {self.games:,} self-play games of this line-up")

    def to_json(self) -> dict:
        return {"name": self.name, "description": self.describe(),
                "self_play_games": self.games if self.name == "model" else 0}


def uniform_belief(lineup) -> Belief:
    import numpy as np

    return Belief("uniform", np.zeros((len(BUCKETS), 4, 2, 8, NF)), [0] * len(lineup),
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
        return Belief("rules", np.zeros((len(BUCKETS), 4, 2, 8, NF)), groups, down, xn=xn)
    theta, states = learn(setup, lineup)
    return Belief("model", theta, groups, down, GAMES, states, xn)


def learn(setup, lineup):
    """θ (stages × groups × 2 × 8 × NF) and the kept states per stage, from the cache when a
    valid entry exists (module doc)."""
    from analyzer.cache import cached_arrays
    from analyzer.rules import rules_to_dict

    params = {"rules": rules_to_dict(setup.rules), "players": setup.players,
              "copies": setup.deck.copies.tolist(), "pts": setup.deck.pts.tolist(),
              "per_card": setup.deck.per_card.tolist(),
              "lineup": [_learning_label(b) for b in lineup],
              "games": GAMES, "stride": STRIDE, "cap": CAP, "k": K, "l2": L2,
              "buckets": BUCKETS, "seed": LEARN_SEED}
    got = cached_arrays("tp-belief", params, SOURCES, lambda: _learn(setup, lineup), keep=16)
    return got["theta"], [int(x) for x in got["states"]]


def _learn(setup, lineup) -> dict:
    import numpy as np

    from analyzer.output import note

    note(f"learning how the opponents hold their cards from {GAMES:,} self-play games "
         "(once for these rules and seats; cached)…")
    states, seats = self_play_states(setup, lineup)
    hid = hidden_split_counts(setup, lineup, states, seats)
    groups = seat_groups(lineup)
    ngroups = max(groups) + 1
    left = states[:, 18, 0]
    stage = np.array([bucket_of(int(c)) for c in left])
    theta = np.zeros((len(BUCKETS), 4, 2, 8, NF))
    kept = []
    for b in range(len(BUCKETS)):
        idx = np.flatnonzero(stage == b)[:PER_BUCKET]
        kept.append(len(idx))
        if len(idx) == 0:
            continue
        feats = split_features(hid[idx], groups, ngroups)
        theta[b, :ngroups] = fit_ranking(feats, L2).reshape(ngroups, 2, 8, NF)
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


def split_features(hid, groups, ngroups):
    """float64[n, K + 1, F]: Φ of each split, F = ngroups · 2 · 8 · NF (the basis φ of each
    cell's count, summed over the opponents of each group; the seat whose view it is has zero
    counts, so φ = 0 there)."""
    import numpy as np

    n, k1 = hid.shape[:2]
    out = np.zeros((n, k1, ngroups, 2, 8, NF))
    for q in range(len(groups)):
        out[:, :, groups[q]] += basis(hid[:, :, q])
    return out.reshape(n, k1, -1)


def fit_ranking(feats, l2: float, max_iter: int = 50):
    """θ maximising Σ_i [θ·A[i, 0] − log Σ_j exp(θ·A[i, j])] − (l2/2)|θ|² by Newton's method
    (module doc); ``feats`` = A float64[n, J, F], entry 0 of each row the true split."""
    import numpy as np

    n, j, f = feats.shape
    theta = np.zeros(f)
    flat = feats.reshape(n * j, f)
    for _ in range(max_iter):
        s = (flat @ theta).reshape(n, j)
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(axis=1, keepdims=True)
        mean = np.matmul(p[:, None, :], feats)[:, 0, :]  # E_softmax[Φ] per state
        grad = (feats[:, 0] - mean).sum(axis=0) - l2 * theta
        root = flat * np.sqrt(p.reshape(-1, 1))
        # einsum, not BLAS: a threaded matrix product on a busy machine took seconds, not 0.2 s
        hess = (np.einsum("nf,ng->fg", root, root) - np.einsum("nf,ng->fg", mean, mean)
                + l2 * np.eye(f))
        step = np.linalg.solve(hess, grad)
        theta += step
        if np.abs(step).max() < TOL:
            break
    return theta
