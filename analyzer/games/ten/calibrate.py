"""`ten calibrate`: is `ten decide`'s chance of winning right on positions of real games?

What belongs here: freezing draw-or-stop, buy and bidding positions from whole games
(:func:`frozen_positions`), asking `decide`'s machinery about each through the position format
(:func:`position_data`, checked by analyzer/games/ten/position.py), the true value from the
game's real draw pile (:func:`position_values`) and the summary (:func:`summarise`; statistics
in analyzer/calibration.py). Printing and files: calibrate_out.py. Command line: cli_calibrate.py.

What is hidden in Ten, and so what calibration checks
------------------------------------------------------
The only hidden thing in Ten is the order of the draw pile: every card drawn is shown and
stays where everyone sees it (tableau, market, collections, discards). `decide`'s belief is that
the unseen cards lie in the pile in a uniformly random order — exact, *if* the position names
every card that left the pile and the playouts follow the rules. Calibration tests that claim on
positions that really happened: a wrong card count (a card left out of ``out``, a collection
misread), a pile order that is not uniform at the moments a player decides, or a playout engine
that plays differently from the games would all show as a bias.

The method
----------
1. Positions. Game i (i = 0, 1, …) is played by the plain-Python reference engine
   (analyzer/games/ten/whole_reference.py: the kernel's games on the same streams) with the
   line-up ``--seats`` on the stream of block key ``block_keys(seed, i, 1, FREEZE_STREAM)``,
   trial 0. A level L is drawn uniformly from 1..``max_left`` (NumPy's generator seeded with
   ``(seed, i)``), and the position is the game's first draw-or-stop decision with a card in
   the tableau taken with at most L cards in the draw pile (every such decision has the three
   choices draw, stop and take the numbers, stop and take the currency); a game without one is
   skipped, until ``n`` positions are frozen. Which decision is frozen depends only on what
   happened before it (a stopping time), so the rest of the pile is, given everything seen,
   in a uniformly random order — the belief's claim. The pile's real order is the truth.
   ``--phase buy``: the first buy decision (after a turn that took its numbers, with 1..L
   cards in the pile) at which `decide` lists at least one buy besides "no buy".
   ``--phase auction``: a bidding slot s is drawn uniformly from 0..P − 1 with the same
   generator (after L), and the position is the first bidding decision with at most L cards
   in the pile, at least s bids already made in its auction, and at least one bid listed
   besides the pass (the seats' bids so far, the wild and the seat to bid are recorded as the
   position's ``bids``, ``wild`` and the deciding seat ``me``; whole_reference.RefGame
   ``before_bid``). Both are stopping times as well.
2. Prediction. The deciding seat's view — every card but the pile's — is written as a position
   (the TOML form `decide` reads), checked and built by position.py, and played out by
   `decide`'s kernel (kernels/ten/whole_blocks.position_blocks, deal = 1: a fresh uniform order
   of the unseen cards per playout) for each choice judged: ``playouts`` trials on the same
   piles. Draw phase: draw, numbers, currency. Buy: "no buy" and one buy; auction: "pass",
   the lowest bid and one bid, the one buy or bid drawn uniformly from those `decide` lists
   (``choices_of``: bids identical in effect listed once) by NumPy's generator seeded
   ``(seed, i, PICK_STREAM)`` — a choice picked by the playouts would carry their noise into
   the bias (the winner's curse), and one picked by the game's future would not be a fair
   sample.
3. Truth. The same kernel from the real state, built straight from the reference game's
   objects (not from the position), with the pile in its real order (deal = 0). With bots that
   draw no random numbers the game is then decided and every trial gives the same share; with
   ``random`` bots the trials average over their coins. Prediction and truth use different
   streams (``block_keys(seed, 0, ·, PRED_STREAM + 2j)`` and ``TRUTH_STREAM + 2j`` for
   position j).
4. Summary (analyzer/calibration.py). For each choice c, d_j = p̂_c,j − t̂_c,j; the margins
   (draw − numbers and draw − currency; buy − no buy; lowest bid − pass and bid − pass) the
   same way from each run's paired difference (the choices share their trials). The bias is the mean of d over the positions with its Student-t
   95% interval: the positions are independent, so the spread of d — here mostly the spread of
   the realised outcome around the position's chance, at most 1/4 per position — gives an honest
   SE. If `decide` is right, the realised value of a position is one more draw of what its
   playouts sample, so its variance around the position's chance is one playout's variance
   (``playouts`` × the prediction's sampling variance of the mean; for a win or a loss
   p(1 − p)); a row's ``true_k_var`` is that plus the truth run's own sampling variance (an
   over-count with ``random`` bots, whose coins the truth run averages). ``noise_share`` =
   mean of those expected variances of d over the observed variance of d (about 1 when
   `decide` is right; well below 1: positions err by more than chance explains);
   ``rmse_belief`` = sqrt(max(mean d² − mean expected variance, 0)), one position's error
   beyond chance (about 0 when right). Reliability: positions binned by predicted chance
   (width 0.1), per bin the mean prediction against the mean realised value with a 95%
   interval no narrower than Wilson's on the bin's positions (one realised outcome each).
   Bars (issue 34): |bias| ≤ 0.02 per choice and ≤ 0.01 per margin, *shown* when the whole 95%
   interval lies inside ±bar. A correct `decide` has bias 0 in expectation; the verdict says
   whether the run was large enough to show the bars.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

FREEZE_STREAM = 73
PRED_STREAM = 1000
TRUTH_STREAM = 1001
BLOCK = 64
MAX_GAMES_PER_POSITION = 50  # give up (one line) when positions are this rare
CHOICES = ("draw", "numbers", "currency")
MARGINS = {"draw_numbers": ("draw", "numbers"), "draw_currency": ("draw", "currency")}
LABELS = {"draw_numbers": "draw − numbers", "draw_currency": "draw − currency"}
PICK_STREAM = 2  # NumPy's generator seeded (seed, game, 2) picks a buy or a bid (module doc)


@dataclass(frozen=True)
class Phase:
    """A kind of decision calibrated: the quantities judged per position (``choices``: the
    first is the baseline choice; in a buy the second is one other listed choice picked at
    random; in an auction the second is the lowest bid and the third a bid picked at random),
    the margins (name: (x, y) for x − y) and their printed labels."""

    name: str
    title: str
    choices: tuple
    margins: dict
    labels: dict


PHASES = {
    "draw": Phase("draw", "draw-or-stop positions", CHOICES, MARGINS, LABELS),
    "buy": Phase("buy", "buy positions", ("nobuy", "buy"), {"buy_nobuy": ("buy", "nobuy")},
                 {"nobuy": "no buy", "buy": "buy (one, at random)",
                  "buy_nobuy": "buy − no buy"}),
    "auction": Phase("auction", "auction (bid) positions", ("pass", "lowest", "bid"),
                     {"lowest_pass": ("lowest", "pass"), "bid_pass": ("bid", "pass")},
                     {"lowest": "lowest bid", "bid": "bid (one, at random)",
                      "lowest_pass": "lowest bid − pass", "bid_pass": "bid − pass"}),
}


@dataclass
class Frozen:
    """One frozen position, card codes as in `ten` (``r5``, ``$2``, ``r#``): the pile in its
    real draw order (the truth), each seat's collection, currency and bust tokens, the market,
    the cards out of the game, the active seat's tableau, the active seat (from 0), the game it
    came from, and its phase (draw, buy, auction: with the wild, the bids so far and the seat
    to bid)."""

    players: int
    active: int
    pile: list
    collections: list
    tokens: list
    busts: list
    market: list
    out: list
    tableau: list
    game: int = 0
    phase: str = "draw"
    wild: str | None = None  # the wild being auctioned (phase "auction")
    bids: tuple = ()  # the bids before the seat to bid, in bidding order (phase "auction")
    me: int = -1  # the deciding seat: the seat to bid in an auction, else (−1) the active one

    @property
    def deciding(self) -> int:
        return self.active if self.me < 0 else self.me


def _freezer_class():
    from analyzer.games.ten.whole_reference import RefGame

    class Freezer(RefGame):
        """The reference game, noting its first decision of the phase watched with at most
        ``level`` cards in the pile that offers more than one choice (module doc, step 1);
        collections scored through the kernel's scorer (advice_record.kernel_scorer: the same
        scores, a hundred times faster than `ten score`)."""

        def watch(self, level: int, scorer, phase: str = "draw", offers=None,
                  slot: int = 0) -> "Freezer":
            self.level, self.seen, self.scorer = level, None, scorer
            self.phase, self.offers, self.slot = phase, offers, slot
            return self

        def score(self, coll) -> int:
            return self.scorer(coll)

        def wants_draw(self, a, tableau, exact):
            if self.seen is None and self.phase == "draw" and tableau and \
                    len(self.pile) <= self.level:
                self.seen = self.frozen(a, tableau)
            return super().wants_draw(a, tableau, exact)

        def buy_phase(self, p):
            if self.seen is None and self.phase == "buy" and 1 <= len(self.pile) <= self.level:
                self.keep(self.frozen(self.players.index(p), [], phase="buy"))
            return super().buy_phase(p)

        def before_bid(self, a, wild, q, bids):
            if self.seen is None and self.phase == "auction" and len(bids) >= self.slot and \
                    len(self.pile) <= self.level:
                self.keep(self.frozen(a, self.tableau, phase="auction", wild=wild,
                                      bids=tuple(bids), me=q))

        def keep(self, fz: Frozen) -> None:
            """Freeze ``fz`` if it offers more than one choice (``offers``)."""
            if self.offers(fz) > 1:
                self.seen = fz

        def frozen(self, a, tableau, **phase) -> Frozen:
            def codes(counter):
                return sorted(counter.elements())

            return Frozen(self.P, a, list(self.pile), [codes(p.coll) for p in self.players],
                          [p.tokens for p in self.players], [p.busts for p in self.players],
                          codes(self.market), codes(self.out), list(tableau), **phase)

    return Freezer


def deck_codes(setup) -> list[str]:
    """The whole game's cards (codes, by card type) of a whole-game ``Setup``."""
    from analyzer.games.ten.cards import CODES, NTYPES

    deck = setup.arrays["deck"]
    return [CODES[t] for t in range(NTYPES) for _ in range(int(deck[t]))]


def frozen_positions(setup, max_left: int, seed: int, phase: str = "draw"):
    """The frozen positions of ``phase``, one game after another (module doc, step 1): a
    generator, so a run values each position as soon as it is frozen. Gives up with a one-line
    error when fewer than one game in ``MAX_GAMES_PER_POSITION`` yields a position."""
    import numpy as np

    from analyzer.errors import UserError
    from analyzer.games.ten.advice_record import kernel_scorer
    from analyzer.games.ten.whole_reference import exact_lookup
    from analyzer.rng import block_keys

    freezer = _freezer_class()
    cards = deck_codes(setup)
    exact = exact_lookup(setup)
    scorer = kernel_scorer(setup.rules.full_run_points)
    found = game = 0
    while True:
        if game >= MAX_GAMES_PER_POSITION * (found + 1):
            raise UserError(f"{found} {PHASES[phase].title} with at most {max_left} cards "
                            f"left in {game} games: raise --max-cards-left")
        key = block_keys(seed, game, 1, FREEZE_STREAM)[0]
        draws = np.random.default_rng([seed, game])
        level = 1 + int(draws.integers(max_left))
        slot = int(draws.integers(setup.players))  # an auction: the first bidder frozen
        g = freezer(setup.rules, cards, setup.lineups[0], key, 0, check=False).watch(
            level, scorer, phase, lambda fz: len(listed_choices(fz, setup)[0]), slot)
        g.play(exact)
        if g.seen is not None:
            g.seen.game = game
            found += 1
            yield g.seen
        game += 1


def position_data(fz: Frozen) -> dict:
    """The active seat's view of a frozen state in the position format `ten decide` reads
    (analyzer/games/ten/position.py; seats from 1): everything but the pile."""
    data = {"players": fz.players, "active": fz.active + 1, "me": fz.deciding + 1,
            "tableau": ",".join(fz.tableau), "market": ",".join(fz.market),
            "out": ",".join(fz.out), "phase": fz.phase,
            "player": [{"collection": ",".join(c), "tokens": t, "bust_tokens": b}
                       for c, t, b in zip(fz.collections, fz.tokens, fz.busts)]}
    if fz.phase == "auction":
        data["wild"], data["bids"] = fz.wild, list(fz.bids)
    return data


def listed_choices(fz: Frozen, setup, j: int = 0):
    """The checked position `decide` reads for ``fz`` and its listed choices (names, kernel
    codes: analyzer/games/ten/decide.py ``choices_of``)."""
    from analyzer.games.ten.decide import choices_of
    from analyzer.games.ten.position import check_position

    pos = check_position(position_data(fz), f"position {j + 1}", setup.rules, setup.spec)
    names, codes, _ = choices_of(pos, setup.rules)
    return names, codes, pos


def judged_choices(fz: Frozen, setup, j: int, seed: int):
    """The choices judged at a frozen position (module doc, step 2): draw, numbers, currency;
    in a buy "no buy" and one buy; in an auction "pass", the lowest bid and one bid — the one
    buy or bid picked uniformly from those listed by NumPy's generator seeded (seed, game,
    PICK_STREAM), never by the playouts, so the positions stay independent. Returns (names,
    codes, the checked position, how many choices it lists)."""
    import numpy as np

    names, codes, pos = listed_choices(fz, setup, j)
    if fz.phase == "draw":
        if tuple(names) != CHOICES:  # frozen only with a tableau and cards in the pile
            raise AssertionError(f"position {j + 1}: choices {names}")
        return names, codes, pos, len(names)
    k = 1 + int(np.random.default_rng([seed, fz.game, PICK_STREAM]).integers(len(names) - 1))
    picks = [0, k] if fz.phase == "buy" else [0, 1, k]  # an auction: pass, lowest, random
    return [names[i] for i in picks], [codes[i] for i in picks], pos, len(names)


def _keys(seed: int, playouts: int, stream: int):
    import numpy as np

    from analyzer.rng import block_keys

    blocks = -(-playouts // BLOCK)
    counts = np.full(blocks, BLOCK, dtype=np.int64)
    counts[-1] = playouts - BLOCK * (blocks - 1)
    return block_keys(seed, 0, blocks, stream), counts


def _sums(setup, st, active: int, me: int, codes, deal: int, keys, counts):
    """Column sums of `decide`'s kernel over the trials (whole_blocks.position_blocks)."""
    from kernels.ten.whole_blocks import position_blocks

    a = setup.arrays
    return position_blocks(keys, counts, st.pile, deal, st.cards, st.tk, active, me, codes,
                           a["deck"], setup.players, a["rl"], a["bots"][0], a["tabs"], a["dec"],
                           a["nchild"], a["cchild"]).sum(axis=0)


def _values(sums, playouts: int, phase: Phase) -> dict:
    """(mean, sampling variance of the mean) of each choice and margin from the kernel's sums."""
    from analyzer.calibration import mean_var
    from kernels.ten.whole_blocks import cross_column as cc

    names = phase.choices
    K = len(names)
    out = {c: mean_var(sums[k], sums[cc(K, k, k)], playouts) for k, c in enumerate(names)}
    for name, (x, y) in phase.margins.items():
        i, j = names.index(x), names.index(y)
        sd = sums[i] - sums[j]
        sd2 = sums[cc(K, i, i)] - 2.0 * sums[cc(K, i, j)] + sums[cc(K, j, j)]
        out[name] = mean_var(sd, max(sd2, 0.0), playouts)
    return out


def true_state(fz: Frozen, setup):
    """The real state of a frozen game in the kernel layout, the pile in its real order (built
    from the game's own lists, not from the position)."""
    from analyzer.games.ten.position import build_state

    return build_state(setup.rules, fz.players, fz.pile, fz.collections, fz.tokens, fz.busts,
                       fz.market, fz.out, fz.tableau, fz.active, setup.arrays["deck"])


def position_values(fz: Frozen, j: int, setup, playouts: int, seed: int) -> dict:
    """Predicted and true chance of winning of each choice (and margin) at frozen position j,
    each with the sampling variance of its mean (module doc, steps 2-3)."""
    import numpy as np

    from analyzer.games.ten.cards import TYPE_OF, value_of

    phase = PHASES[fz.phase]
    names, codes, pos, listed = judged_choices(fz, setup, j, seed)
    codes = np.array(codes, dtype=np.int64)
    keys, counts = _keys(seed, playouts, PRED_STREAM + 2 * j)
    pred = _values(_sums(setup, pos.state, pos.active, pos.me, codes, 1, keys, counts),
                   playouts, phase)
    keys, counts = _keys(seed, playouts, TRUTH_STREAM + 2 * j)
    truth = _values(_sums(setup, true_state(fz, setup), fz.active, fz.deciding, codes, 0, keys,
                          counts), playouts, phase)
    N = sum(value_of(TYPE_OF[c]) for c in fz.tableau if TYPE_OF[c] < 36)
    C = sum(value_of(TYPE_OF[c]) for c in fz.tableau if TYPE_OF[c] >= 36)
    row = {"game": fz.game, "seat": fz.deciding + 1, "cards_left": len(fz.pile),
           "tableau": ",".join(fz.tableau), "T": N - C, "C": C}
    if fz.phase != "draw":
        row["choice"] = names[-1]
        row["listed"] = listed
    if fz.phase == "auction":
        row["wild"], row["bids"] = fz.wild, ",".join(map(str, fz.bids))
    for name in list(phase.choices) + list(phase.margins):
        row[f"pred_{name}"], row[f"pred_{name}_var"] = pred[name]
        t, t_var = truth[name]
        # the realised value's spread around the position's chance if decide is right: one
        # more playout's variance (module doc, step 4), plus the truth run's own noise
        row[f"true_{name}"], row[f"true_{name}_var"] = t, t_var + pred[name][1] * playouts
    return row


def summarise(rows: list[dict], meta: dict) -> dict:
    """The JSON-ready result of a calibration run from its per-position rows."""
    from analyzer.calibration import BAR_CHOICE, BAR_MARGIN, part, reliability

    phase = PHASES[meta.get("phase", "draw")]
    out = dict(meta)
    out["phase"] = phase.name
    out["positions"] = len(rows)
    out["choices"] = {c: part(rows, c, BAR_CHOICE) for c in phase.choices}
    out["margins"] = {m: part(rows, m, BAR_MARGIN) for m in phase.margins}
    out["meets_bars"] = all(p["shown"] for p in out["choices"].values()) and all(
        p["shown"] for p in out["margins"].values())
    # one realised outcome per position (the pile's order decides the game): a bin's Wilson
    # interval counts positions, not the truth run's repeated trials
    out["reliability"] = reliability(rows, list(phase.choices), 1)
    out["rows"] = rows
    out["conclusion"] = conclusion(out)
    return out


def run_calibration(setup, n: int, max_left: int, playouts: int, seed: int,
                    progress: bool | None = None, phase: str = "draw"
                    ) -> tuple[list[dict], bool]:
    """Freeze ``n`` positions of ``phase`` and value each (module doc); returns the
    per-position rows and whether a Ctrl-C cut the run short
    (analyzer.calibration.run_positions)."""
    from analyzer.calibration import run_positions

    return run_positions("ten calibrate", n, frozen_positions(setup, max_left, seed, phase),
                         lambda j, fz: position_values(fz, j, setup, playouts, seed), progress)


def conclusion(out: dict) -> str:
    """The verdict in words: the bars shown; or no bias seen (every interval covers 0) with
    about how many positions would show the bars (n · (1.96 SE / (bar − |bias|))², the most
    over the choices and margins not shown yet: SE shrinks as 1/√n); or which intervals
    exclude 0."""
    from analyzer.calibration_out import parts
    from analyzer.stats import Z95

    judged = parts(out)
    labels = PHASES[out.get("phase", "draw")].labels
    off = [labels.get(k, k) for k, p in judged if p["bias"].ci_low > 0 or p["bias"].ci_high < 0]
    if out["meets_bars"]:
        return ("verdict: calibrated: every bias's 95% interval lies inside its bar (±0.02 per "
                "choice, ±0.01 per margin)")
    if off:
        return "verdict: BIASED: the 95% interval of the bias excludes 0 for " + ", ".join(off)
    n = out["positions"]
    # a bar is shown about when |bias| + 1.96 SE fits inside it, and SE = sd / √n (the
    # estimate taken as it is; one at or past its bar is "BIASED" or needs no count)
    need = max(n * (Z95 * p["bias"].se / max(p["bar"] - abs(p["bias"].estimate), 1e-9)) ** 2
               for _, p in judged if not p["shown"])
    return (f"verdict: no bias seen (every 95% interval covers 0), but {n:,} positions are too "
            f"few to show the bars: about {math.ceil(need):,} would (-n)")
