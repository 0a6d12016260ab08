"""`trash-pandas calibrate`: is `decide`'s chance of winning right on positions whose hidden
cards are known?

What belongs here: freezing positions from simulated games (:func:`frozen_positions`), asking
`decide`'s machinery about each through the position format (:func:`public_position`), the true
value from the real hidden cards (:func:`position_values`), and the summary (:func:`summarise`).
Printing and files: calibrate_out.py. Command line: cli_calibrate.py.

The method
----------
1. Positions. Game i (i = 0, 1, …) is played by the plain-Python reference engine
   (analyzer/games/trash_pandas/reference.py, the kernel's games on the same streams) with the
   line-up ``--seats`` on the stream of block key ``block_keys(seed, i, 1, FREEZE_STREAM)``,
   trial 0. A level L is drawn uniformly from 0..``max_left`` (NumPy's generator seeded with
   ``(seed, i)``), and the position is the game's first roll-or-stop decision (of any seat: it
   has just taken a token below its cap, so both choices are legal) taken with at most L cards
   left in the draw pile; a game that ends before one is skipped, until ``n`` positions are
   frozen. Which decision is picked depends only on what happened before it (a stopping time),
   never on how the game goes on, so the hidden cards at a frozen position follow the same law
   as at any such decision of the bots' games — the law the belief tries to match. The full
   state at that moment (every hand and face-down card, the pile) is the truth.
2. Prediction. The seat's view of the state is written as a position (the TOML form `decide`
   reads: :func:`position_data`), checked and built by analyzer/games/trash_pandas/position.py,
   and played out by `decide`'s kernel with the belief (never the true hidden cards):
   ``playouts`` trials, each a world drawn from the belief and both choices on it.
3. Truth. The same kernel from the true full state (nothing unseen): ``playouts`` trials, both
   choices on the same stream per trial. Prediction and truth use different streams
   (``block_keys(seed, 0, ·, PRED_STREAM + 2j)`` and ``TRUTH_STREAM + 2j`` for position j).
4. Summary. For each choice c and position j, ``d_j = p̂_c,j − t̂_c,j`` (predicted minus true
   chance of winning); the margin's ``d_j = (p̂_roll − p̂_stop) − (t̂_roll − t̂_stop)`` (each run's paired
   difference of the two choices, which share its trials). The bias is
   the mean of d over the n positions with its Student-t 95% interval (the positions are
   independent, so the spread of d — which holds the belief's error and the Monte Carlo noise of
   both estimates — gives an honest SE; paired: both estimates are of the same position). The
   Monte Carlo part of that spread is reported too: ``noise_share`` = mean of the per-position
   sampling variances of d (from each run's Σx, Σx²) over the sample variance of d, and
   ``rmse_belief`` = sqrt(max(mean(d²) − mean sampling variance, 0)), the typical size of one
   position's error once the noise is taken out. Reliability: positions binned by predicted
   chance of winning (width 0.1); per bin the mean prediction and the mean true value with an
   interval that covers both the spread of the true values and their Monte Carlo error
   (:func:`reliability`). Bars (issue 34): |bias| ≤ 0.02 per choice, ≤ 0.01 for the margin;
   a bar is *shown* when the whole 95% interval lies inside ±bar.
"""
from __future__ import annotations

from dataclasses import dataclass

from analyzer.calibration import BAR_CHOICE, BAR_MARGIN  # noqa: F401  (issue 34's bars)

FREEZE_STREAM = 71
PRED_STREAM = 1000
TRUTH_STREAM = 1001
BLOCK = 256
MAX_GAMES_PER_POSITION = 50  # give up (one line) when positions are this rare
CHOICES = (("stop", (1, 0, 0)), ("roll", (0, 0, 0)))


@dataclass
class Frozen:
    """One frozen position: the full state (int64[19, 8]), the deciding seat (0-based), the
    tokens held (bits), 1 in a bonus turn, and the game it came from."""

    state: object
    me: int
    held: int
    mode: int
    game: int


def _freezer_class():
    from analyzer.games.trash_pandas.reference import Game

    class Freezer(Game):
        """The reference game, noting its first roll-or-stop decision taken with at most
        ``level`` cards in the pile (with the full state at that moment)."""

        def watch(self, level: int) -> "Freezer":
            self.level, self.seen = level, None
            return self

        def keep_rolling(self, p, held, nh, mode):
            if self.seen is None and sum(self.pile) <= self.level:
                self.seen = (p, held, mode, self.full_state())
            return super().keep_rolling(p, held, nh, mode)

        def full_state(self):
            from kernels.trash_pandas.layout import (DECK, DISC, GAIN, HAND, SC, STASH, UP,
                                                     new_state)

            g = new_state()
            for q, seat in enumerate(self.seats):
                g[HAND + q], g[GAIN + q] = seat.hand, seat.gain
                g[STASH + q], g[UP + q] = seat.stash, seat.up
            g[DISC], g[DECK] = self.discard, self.pile
            g[SC, 0], g[SC, 1], g[SC, 2] = sum(self.pile), int(self.ended), self.n
            return g

    return Freezer


def frozen_positions(setup, max_left: int, seed: int):
    """The frozen positions, one game after another (module doc, step 1): a generator, so a
    run values each position as soon as it is frozen. Gives up with a one-line error when
    fewer than one game in ``MAX_GAMES_PER_POSITION`` yields a position."""
    import numpy as np

    from analyzer.errors import UserError
    from analyzer.pystream import Stream
    from analyzer.rng import block_keys

    freezer = _freezer_class()
    tables = (setup.roll_tab, setup.after_tab)
    found = 0
    game = 0
    while True:
        if game >= MAX_GAMES_PER_POSITION * (found + 1):
            raise UserError(f"{found} positions with at most {max_left} cards left in {game} "
                            "games: raise --max-cards-left")
        key = block_keys(seed, game, 1, FREEZE_STREAM)[0]
        level = int(np.random.default_rng([seed, game]).integers(max_left + 1))
        g = freezer(setup.players, setup.deck, setup.rules_arr, setup.deal, setup.bots[0],
                    tables, Stream(key, 0)).watch(level)
        g.play_out()
        if g.seen is not None:
            p, held, mode, state = g.seen
            found += 1
            yield Frozen(state, p, held, mode, game)
        game += 1


def position_data(fz: Frozen) -> dict:
    """The seat's view of a frozen state in the position format `decide` reads
    (analyzer/games/trash_pandas/position.py; seats from 1)."""
    from analyzer.games.trash_pandas.rules import TOKENS
    from analyzer.games.trash_pandas.score import WHOLE_CARDS
    from kernels.trash_pandas.layout import DISC, GAIN, HAND, SC, STASH, UP

    g = fz.state

    def cards(row) -> dict:
        return {WHOLE_CARDS[t]: int(row[t]) for t in range(8) if row[t] > 0}

    players = int(g[SC, 2])
    seats = {}
    for q in range(players):
        if q == fz.me:
            seats[str(q + 1)] = {"stash": cards(g[STASH + q]), "face_up": cards(g[UP + q])}
        else:
            seats[str(q + 1)] = {"hand": int(g[HAND + q].sum()), "face_up": cards(g[UP + q]),
                                 "face_down": int((g[STASH + q] - g[UP + q]).sum())}
    return {"players": players, "me": fz.me + 1, "cards_left": int(g[SC, 0]),
            "held": [TOKENS[i] for i in range(6) if fz.held >> i & 1],
            "bonus": bool(fz.mode), "hand": cards(g[HAND + fz.me]),
            "gained": cards(g[GAIN + fz.me]), "discard": cards(g[DISC]), "seat": seats}


def public_position(fz: Frozen, setup):
    """The position `decide` would read for this frozen state (checked, kernel form)."""
    from analyzer.games.trash_pandas.position import build_position, check_position

    return build_position(check_position(position_data(fz), setup.deck.copies.tolist(),
                                         setup.rules.bonus_cap))


def _sums(setup, g0, pool, opp_hand, opp_down, me, mode, held, bp, keys, counts):
    """Sums over the trials of `decide`'s kernel: (Σ share, Σ share²) for stop and for roll,
    then (Σ d, Σ d²) of the paired difference d = roll − stop."""
    import numpy as np

    choices = np.array([c for _, c in CHOICES], dtype=np.int64)
    d = setup.deck
    out = setup.kernel("decide_blocks")(
        keys, counts, g0, pool, opp_hand, opp_down, me, mode, held, choices, setup.bots[0],
        d.pts, d.per_card, d.copies, setup.rules_arr, setup.roll_tab, setup.after_tab, bp)
    s = out.sum(axis=0)
    return [(s[0], s[1]), (s[4], s[5]), (s[6], s[7])]


def _keys(seed: int, playouts: int, stream: int):
    import numpy as np

    from analyzer.rng import block_keys

    blocks = -(-playouts // BLOCK)
    counts = np.full(blocks, BLOCK, dtype=np.int64)
    counts[-1] = playouts - BLOCK * (blocks - 1)
    return block_keys(seed, 0, blocks, stream), counts


def position_values(fz: Frozen, j: int, setup, belief, playouts: int, seed: int) -> dict:
    """Predicted and true chance of winning of each choice at frozen position j, as
    (mean, sampling variance of the mean) pairs (module doc, steps 2-3)."""
    import numpy as np

    pos = public_position(fz, setup)
    bp = belief.params(pos.g0, pos.me, pos.opp_hand, pos.opp_down)
    keys, counts = _keys(seed, playouts, PRED_STREAM + 2 * j)
    pred = _sums(setup, pos.g0, pos.pool, pos.opp_hand, pos.opp_down, pos.me, fz.mode, fz.held,
                 bp, keys, counts)
    keys, counts = _keys(seed, playouts, TRUTH_STREAM + 2 * j)
    zero8, zero4 = np.zeros(8, dtype=np.int64), np.zeros(4, dtype=np.int64)
    truth = _sums(setup, fz.state, zero8, zero4, zero4, fz.me, fz.mode, fz.held, bp, keys,
                  counts)
    row = {"game": fz.game, "seat": fz.me + 1, "cards_left": pos.cards_left,
           "bonus": bool(fz.mode), "tokens": bin(fz.held).count("1")}
    for name, (s1, s2), (t1, t2) in zip(("stop", "roll", "margin"), pred, truth):
        row[f"pred_{name}"], row[f"pred_{name}_var"] = _mean_var(s1, s2, playouts)
        row[f"true_{name}"], row[f"true_{name}_var"] = _mean_var(t1, t2, playouts)
    return row


def _mean_var(s1: float, s2: float, n: int) -> tuple[float, float]:
    """Mean and the sampling variance of the mean from Σx, Σx² over n trials."""
    from analyzer.calibration import mean_var

    return mean_var(s1, s2, n)


def t95(dof: int) -> float:
    """Two-sided 95% quantile of Student's t (analyzer/calibration.py)."""
    from analyzer.calibration import t95 as quantile

    return quantile(dof)


def bias_of(rows: list[dict], kind: str) -> dict:
    """The bias of one choice (``kind`` = stop/roll) or of the margin (``margin``) over the
    positions, with its noise accounting (module doc, step 4; analyzer/calibration.py)."""
    from analyzer.calibration import bias_of as bias

    return bias(rows, kind, BAR_MARGIN if kind == "margin" else BAR_CHOICE)


def reliability(rows: list[dict], playouts: int, width: float = 0.1) -> list[dict]:
    """Per choice and bin of predicted chance of winning: the mean prediction and the mean true
    value with its 95% interval (analyzer/calibration.py)."""
    from analyzer.calibration import reliability as bins

    return bins(rows, [name for name, _ in CHOICES], playouts, width)


def summarise(rows: list[dict], meta: dict) -> dict:
    """The JSON-ready result of a calibration run from its per-position rows."""
    from analyzer.calibration import part

    out = dict(meta)
    out["positions"] = len(rows)
    out["choices"] = {name: part(rows, name, BAR_CHOICE) for name, _ in CHOICES}
    out["margin"] = part(rows, "margin", BAR_MARGIN)
    out["meets_bars"] = all(c["shown"] for c in out["choices"].values()) and \
        out["margin"]["shown"]
    out["reliability"] = reliability(rows, meta["playouts"])
    out["rows"] = rows
    return out


def run_calibration(setup, belief, n: int, max_left: int, playouts: int, seed: int,
                    progress: bool | None = None) -> tuple[list[dict], bool]:
    """Freeze ``n`` positions and value each (module doc); returns the per-position rows and
    whether a Ctrl-C cut the run short (the finished positions are kept; none finished: the
    one-line Interrupted error)."""
    from analyzer.calibration import run_positions

    return run_positions("trash-pandas calibrate", n, frozen_positions(setup, max_left, seed),
                         lambda j, fz: position_values(fz, j, setup, belief, playouts, seed),
                         progress)
