"""A bot ladder for any whole game: a round robin on common random numbers and ratings fitted by
Bradley–Terry (Luce's choice model for more than two players), with bootstrap intervals.

What a game provides (:class:`LadderGame`): its name, the player count, how to read a bot from
its text and label it, and how to play one block of games for a list of line-ups
(:class:`LadderJob`: a runner job whose trials are deals, every line-up playing every deal on
the same random stream, and the column of each line-up's and seat's summed win share, a win
shared by k seats counting 1/k). This module does the rest: the line-ups, the run, the fit, the
intervals, the table, the JSON and the files.

The line-ups (:func:`design`), for m ≥ 2 bots and P seats
---------------------------------------------------------
* **one against a field**: for every ordered pair of different bots (a, b) and every seat i,
  a in seat i and b in every other seat (m(m − 1)P line-ups);
* **self-play**: each bot in every seat (m line-ups).
Every line-up plays the same deals (common random numbers: deal t is the same stream in every
line-up). The paired gain of a over b in b's field at seat i is
``share(a in seat i | b elsewhere) − share(b in seat i | self-play b)`` on the same deals; its
mean over seats is the strength measure "one seat of a against b's" (the issue's goal), and
self-play gives each bot's own seat advantage.

The ratings: Luce's choice model (Bradley–Terry for two players)
----------------------------------------------------------------
In line-up l with bot b(l, i) in seat i, seat i wins with probability

    p(l, i) = exp(θ_{b(l,i)} + s_i) / Σ_j exp(θ_{b(l,j)} + s_j),

θ the bots' log-strengths, s the seats' (s_1 = 0). The log-likelihood of the observed win shares
W(l, i) (summed over the deals; a shared win is a fractional count) is

    ℓ(θ, s) = Σ_l Σ_i W(l, i) · log p(l, i),

maximised by Newton's method with the exact Hessian (the covariance of the seat's design vector
under p(l, ·), weighted by the games of l), θ_1 = 0 during the fit, a ridge of
:data:`RIDGE`·|x|² keeping it finite when a bot wins every game or none. With two players the model
is Bradley–Terry with a first-move advantage: logit p(A beats B as seat 1) = θ_A − θ_B + s_1 − s_2.
Ratings are printed on the Elo scale, R = 400·θ/ln 10 with mean 0 over the bots (a difference of
400 means 10-to-1 odds between the two in a symmetric seat). The model's seat weight
exp(s_i)/Σ_j exp(s_j) is the chance seat i wins among equal bots.

Intervals: bootstrap over blocks of deals (:data:`RESAMPLES` resamples, percentile 95%). Games on
the same deal are correlated across line-ups (common random numbers), so the unit resampled is a
block of deals with every line-up's games on it; blocks are independent (disjoint streams). A
bootstrap replicate refits the model to W* = Σ_blocks c_k W_k, c ~ Multinomial(blocks, 1/blocks).
Paired gains and per-seat win rates use the cluster (batch-means) standard error over the same
blocks: SE² = k/(k − 1) · Σ_k (D_k − n_k·d̄)² / n², D_k the block's summed difference, n_k its
deals, n = Σ n_k; interval ± 1.96·SE, and, when a bot never or always wins, a mean-over-seats gain's
interval widened to hold the Wilson interval of its mean share (:func:`widen_at_the_edges`). Both need enough blocks: with fewer than
:data:`MIN_BLOCKS` the output says the intervals are rough.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from analyzer.errors import UserError

RIDGE = 1e-6
RESAMPLES = 1000
MIN_BLOCKS = 30
ELO = 400.0 / math.log(10.0)
LADDER_BLOCK = 16  # deals per block at most (enough blocks for the bootstrap)
#: deals per line-up unless -n says (analyzer/ladder_sizes.py): a quick first look (a few
#: seconds of heuristic games, or a few minutes when a bot thinks at every decision)
from analyzer.ladder_sizes import DEFAULT_DEALS, THINKING_DEALS  # noqa: E402 (re-exported)
MAX_GAIN_LINES = 12  # more paired gains than this: the table shows those of the top bot


@dataclass
class LadderJob:
    """A runner job that plays every line-up on the same deals, and where its sums lie:
    ``wins[l, i]`` the column of line-up l's Σ win share of seat i, ``games[l]`` its games."""

    job: object  # analyzer.runner.KernelJob
    wins: np.ndarray
    games: np.ndarray


@dataclass
class LadderGame:
    """What a whole game gives the ladder (module doc)."""

    game: str
    title: str
    players: int
    parse: Callable[[str, str], object]  # (text, the option it came from) -> a bot
    label: Callable[[object], str]
    job: Callable[[list], LadderJob]
    thinks: Callable[[object], bool] = lambda bot: False  # a slow bot (search, rollouts)


@dataclass(frozen=True)
class Lineup:
    """One line-up of the design: bot indices per seat; ``kind`` "field" (``bot`` in ``seat``,
    ``field`` elsewhere) or "self" (``bot`` everywhere)."""

    seats: tuple
    kind: str
    bot: int
    field: int
    seat: int = -1


def design(m: int, players: int, field: int | None = None) -> list[Lineup]:
    """The line-ups of the module doc: self-play first (bot order), then one against a field.
    With ``field`` (a bot index) only that bot's field and self-play: a gauntlet, every other
    bot in every seat against it ((m − 1)P + 1 line-ups)."""
    if field is not None:
        out = [Lineup((field,) * players, "self", field, field)]
        for a in range(m):
            if a != field:
                for i in range(players):
                    seats = tuple(a if j == i else field for j in range(players))
                    out.append(Lineup(seats, "field", a, field, i))
        return out
    out = [Lineup((b,) * players, "self", b, b) for b in range(m)]
    for a in range(m):
        for b in range(m):
            if a == b:
                continue
            for i in range(players):
                seats = tuple(a if j == i else b for j in range(players))
                out.append(Lineup(seats, "field", a, b, i))
    return out


# ---------------------------------------------------------------------------------------------
# The fit
def _features(lineups: list[Lineup], m: int, players: int) -> np.ndarray:
    """Z[l, i, :]: one-hot of the bot (bots 1..m−1; bot 0's θ is 0) and of the seat (2..P)."""
    d = (m - 1) + (players - 1)
    z = np.zeros((len(lineups), players, d))
    for l, lu in enumerate(lineups):
        for i, b in enumerate(lu.seats):
            if b > 0:
                z[l, i, b - 1] = 1.0
            if i > 0:
                z[l, i, m - 1 + i - 1] = 1.0
    return z


def _loglik(x, z, w, n):
    eta = z @ x
    eta = eta - eta.max(axis=1, keepdims=True)
    logp = eta - np.log(np.exp(eta).sum(axis=1, keepdims=True))
    return float((w * logp).sum()) - 0.5 * RIDGE * float(x @ x), logp


def fit_luce(w: np.ndarray, lineups: list[Lineup], m: int, players: int, start=None,
             max_iter: int = 100, tol: float = 1e-10) -> tuple[np.ndarray, np.ndarray]:
    """(θ float[m] with mean 0, s float[P] with s_1 = 0): the maximum-likelihood fit of the
    module doc to the win shares ``w[l, i]`` by Newton's method with step halving."""
    z = _features(lineups, m, players)
    n = w.sum(axis=1)
    x = np.zeros(z.shape[2]) if start is None else start.copy()
    ll, logp = _loglik(x, z, w, n)
    for _ in range(max_iter):
        p = np.exp(logp)
        grad = np.einsum("li,lid->d", w - n[:, None] * p, z) - RIDGE * x
        zbar = np.einsum("li,lid->ld", p, z)
        hess = (np.einsum("l,li,lid,lie->de", n, p, z, z) - np.einsum("l,ld,le->de", n, zbar, zbar)
                + RIDGE * np.eye(len(x)))
        step = np.linalg.solve(hess, grad)
        t = 1.0
        while True:
            new_ll, new_logp = _loglik(x + t * step, z, w, n)
            if new_ll >= ll - 1e-12 or t < 1e-6:
                break
            t /= 2
        x = x + t * step
        ll, logp = new_ll, new_logp
        if np.abs(t * step).max() < tol:
            break
    theta = np.concatenate([[0.0], x[:m - 1]])
    seats = np.concatenate([[0.0], x[m - 1:]])
    return theta - theta.mean(), seats, x


# ---------------------------------------------------------------------------------------------
# Statistics over blocks
def cluster_mean(block_sums: np.ndarray, block_n: np.ndarray):
    """A mean over deals and its cluster (batch-means) SE from per-block sums (module doc)."""
    from analyzer.stats import Z95, Statistic

    n = float(block_n.sum())
    k = len(block_sums)
    mean = float(block_sums.sum()) / n
    if k < 2:
        return Statistic(mean, math.inf, -math.inf, math.inf, int(n))
    resid = block_sums - block_n * mean
    se = math.sqrt(k / (k - 1) * float((resid ** 2).sum())) / n
    return Statistic(mean, se, mean - Z95 * se, mean + Z95 * se, int(n))


def widen_at_the_edges(stat, share_sum: float, n: int, offset: float):
    """``stat`` (a gain ``m − offset``, m a bot's mean win share over seats and deals) with its
    interval widened to hold the Wilson interval of m shifted by ``offset``.

    A cluster SE is 0 when the bot never (or always) wins in the sample, which would claim a
    certainty the sample does not give. m is a mean of per-deal values in [0, 1], whose variance
    is at most m(1 − m), so Wilson's interval on ``share_sum`` successes in ``n`` deals is honest
    at 0 and 1. At those edges (m = 0 or 1) the interval reported is the union of both; inside
    them the cluster interval stands."""
    from analyzer.stats import Statistic, wilson

    if n <= 0 or 1e-12 < share_sum / n < 1 - 1e-12:
        return stat
    w = wilson(share_sum, n)
    return Statistic(stat.estimate, stat.se, min(stat.ci_low, w.ci_low - offset),
                     max(stat.ci_high, w.ci_high - offset), stat.n)


def _boot_stat(estimate: float, reps: np.ndarray, n: int, blocks: int):
    """A bootstrap statistic: SD of the replicates, percentile 95% interval; with fewer than
    two blocks there is nothing to resample, and the interval is unbounded."""
    from analyzer.stats import Statistic

    if blocks < 2:
        return Statistic(float(estimate), math.inf, -math.inf, math.inf, n)
    lo, hi = np.percentile(reps, [2.5, 97.5])
    return Statistic(float(estimate), float(reps.std(ddof=1)), float(lo), float(hi), n)


# ---------------------------------------------------------------------------------------------
# The run
@dataclass
class LadderData:
    """Per-block win shares ``wb[k, l, i]`` and deals ``nb[k]`` of a finished (or interrupted)
    run."""

    wb: np.ndarray
    nb: np.ndarray
    seed: int
    interrupted: bool = False
    games_per_second: float = 0.0
    extra: dict = field(default_factory=dict)


def ladder_block(job_block: int, n: int | None) -> int:
    """Deals per block: the game's block size capped at :data:`LADDER_BLOCK`, and small enough
    that ``n`` deals make :data:`MIN_BLOCKS` blocks when they can (1 deal per block at least):
    the intervals resample blocks, so a run of one block would have none."""
    block = min(job_block, LADDER_BLOCK)
    if n is not None:
        block = min(block, -(-n // MIN_BLOCKS))
    return max(1, block)


def play(game: LadderGame, bots: list, lineups: list[Lineup], spec) -> LadderData:
    """Play every line-up on the same deals (``spec``: a RunSpec; ``n`` is deals)."""
    lj = game.job([tuple(bots[b] for b in lu.seats) for lu in lineups])
    block = ladder_block(lj.job.block_size, spec.n)
    res = spec.run(lj.job, block_size=block)
    rows = np.concatenate(res.block_sums, axis=0)
    wb = rows[:, lj.wins]
    nb = rows[:, lj.games[0]]
    return LadderData(wb, nb, res.seed, res.interrupted,
                      res.n * len(lineups) / res.kernel_seconds if res.kernel_seconds else 0.0)


def parse_bots(game: LadderGame, texts: list[str], minimum: int = 2,
               flag: str = "--bots") -> list:
    """The bots of ``--bots`` (or of a report part's ``flag``): repeated or comma-separated, at
    least ``minimum``, no two alike."""
    items = [t.strip() for text in texts for t in text.split(",") if t.strip()]
    bots = [game.parse(t, flag) for t in items]
    labels = [game.label(b) for b in bots]
    if len(bots) < minimum:
        how = ("--bots heuristic,random), or one and --field BOT" if flag == "--bots" else
               f'{flag} = ["heuristic", "random"])')
        raise UserError(f"{flag} needs at least two bots (e.g. {how}")
    dup = sorted({x for x in labels if labels.count(x) > 1})
    if dup:
        raise UserError(f"{flag} names {dup[0]} twice (each bot once)")
    return bots


def default_deals(game: LadderGame, texts: list[str], field: str | None = None) -> int:
    """Deals per line-up when -n is not given: :data:`THINKING_DEALS` if a bot of ``--bots`` or
    ``--field`` thinks (``game.thinks``), else :data:`DEFAULT_DEALS`."""
    items = [(t.strip(), "--bots") for text in texts for t in text.split(",") if t.strip()]
    items += [(field, "--field")] if field else []
    slow = any(game.thinks(game.parse(t, flag)) for t, flag in items)
    return THINKING_DEALS if slow else DEFAULT_DEALS


def analyse(data: LadderData, labels: list[str], lineups: list[Lineup], players: int,
            resamples: int = RESAMPLES) -> dict:
    """Ratings, intervals, paired gains and seat advantage from the per-block data (JSON-ready,
    statistics as :class:`analyzer.stats.Statistic`)."""
    from analyzer.stats import wilson

    m = len(labels)
    w = data.wb.sum(axis=0)
    n = int(data.nb.sum())
    theta, seats, x = fit_luce(w, lineups, m, players)
    rng = np.random.default_rng(np.random.SeedSequence(data.seed, spawn_key=(7,)))
    k = len(data.nb)
    reps_t = np.zeros((resamples, m))
    reps_s = np.zeros((resamples, players))
    for r in range(resamples):
        c = rng.multinomial(k, np.full(k, 1.0 / k))
        t, s, _ = fit_luce(np.einsum("k,kli->li", c.astype(float), data.wb), lineups, m, players,
                           start=x)
        reps_t[r], reps_s[r] = t, s
    order = sorted(range(m), key=lambda b: -theta[b])
    ratings = []
    for b in order:
        mine = [(l, i) for l, lu in enumerate(lineups) for i, q in enumerate(lu.seats) if q == b]
        share = sum(w[l, i] for l, i in mine) / (n * len(mine))
        # the per-deal mean of its seats' shares lies in [0, 1]: Wilson over the deals
        ratings.append({"bot": labels[b], "rating": _boot_stat(ELO * theta[b], ELO * reps_t[:, b],
                                                               n, k),
                        "mean_win_share": wilson(share * n, int(n))})
    pairs = []
    for a_pos in range(m - 1):
        a, b = order[a_pos], order[a_pos + 1]
        d = _boot_stat(ELO * (theta[a] - theta[b]), ELO * (reps_t[:, a] - reps_t[:, b]), n, k)
        pairs.append({"higher": labels[a], "lower": labels[b], "difference": d,
                      "separated": d.ci_low > 0})
    weights = np.exp(seats) / np.exp(seats).sum()
    rep_w = np.exp(reps_s) / np.exp(reps_s).sum(axis=1, keepdims=True)
    seat_model = [{"seat": i + 1, "weight": _boot_stat(weights[i], rep_w[:, i], n, k)}
                  for i in range(players)]
    self_idx = {lu.bot: l for l, lu in enumerate(lineups) if lu.kind == "self"}
    gains = []
    for a in order:
        for b in order:
            if a == b or b not in self_idx:
                continue
            per_seat = []
            tot = np.zeros(k)
            mine = np.zeros(k)  # a's win shares in its seats, summed over seats
            for l, lu in enumerate(lineups):
                if lu.kind == "field" and lu.bot == a and lu.field == b:
                    d_k = data.wb[:, l, lu.seat] - data.wb[:, self_idx[b], lu.seat]
                    tot += d_k
                    mine += data.wb[:, l, lu.seat]
                    per_seat.append({"seat": lu.seat + 1,
                                     "gain": cluster_mean(d_k, data.nb)})
            if per_seat:
                deals = float(data.nb.sum())
                field_mean = float((mine - tot).sum()) / players / deals
                gain = widen_at_the_edges(cluster_mean(tot / players, data.nb),
                                          float(mine.sum()) / players, int(deals), field_mean)
                gains.append({"bot": labels[a], "field": labels[b], "gain": gain,
                              "per_seat": per_seat})
    self_play = []
    for b in order:
        if b not in self_idx:
            continue
        l = self_idx[b]
        self_play.append({"bot": labels[b], "seats": [
            {"seat": i + 1, "win_rate": wilson(float(w[l, i]), n)} for i in range(players)]})
    return {"ratings": ratings, "adjacent": pairs, "seat_weights": seat_model, "gains": gains,
            "self_play": self_play, "blocks": k, "resamples": resamples,
            "rough": k < MIN_BLOCKS}


def run_ladder(game: LadderGame, texts: list[str], spec, resamples: int = RESAMPLES,
               field: str | None = None) -> dict:
    """The whole ladder: bots, line-ups, games, fit (``spec.n`` deals per line-up); ``field``
    (a bot's text, one of the bots or added to them) plays the gauntlet design."""
    bots = parse_bots(game, texts, 2 if field is None else 1)
    labels = [game.label(b) for b in bots]
    f = None
    if field is not None:
        fb = game.parse(field, "--field")
        if game.label(fb) not in labels:
            bots.append(fb)
            labels.append(game.label(fb))
        f = labels.index(game.label(fb))
        if len(bots) < 2:
            raise UserError(f"--field {field}: give at least one other bot in --bots")
    lineups = design(len(bots), game.players, f)
    data = play(game, bots, lineups, spec)
    out = analyse(data, labels, lineups, game.players, resamples)
    return {"game": game.game, "exact": False, "seed": data.seed, "n": int(data.nb.sum()),
            "players": game.players, "bots": labels, "lineups": len(lineups),
            "design": ("one against a field (every ordered pair, every seat) and self-play"
                       if f is None else f"every bot in every seat against a field of "
                       f"{labels[f]}, and its self-play"),
            "model": "Luce choice model (Bradley-Terry) on win shares, Elo scale, mean 0",
            "interval": f"bootstrap over {out['blocks']} blocks of deals ({resamples} "
                        f"resamples, percentile 95%); gains: cluster SE over the same blocks",
            "field": None if f is None else labels[f],
            **out, "games_per_second": data.games_per_second, "interrupted": data.interrupted}


# ---------------------------------------------------------------------------------------------
# Output
def _signed(x: float, digits: int = 0) -> str:
    return f"{x:+.{digits}f}"


def render(out: dict, title: str) -> str:
    from analyzer.output import table

    lines = [f"{title} bot ladder, {out['players']} players, n = {out['n']:,} deals × "
             f"{out['lineups']} line-ups, seed {out['seed']} (Monte Carlo)",
             f"rating: {out['model']}; [95%]: {out['interval']}"]
    if out["rough"]:
        lines.append(f"note: only {out['blocks']} blocks of deals: the intervals are rough "
                     f"(use a larger -n)")
    rows = [(str(k), r["bot"], f"{_signed(r['rating'].estimate)} [{_signed(r['rating'].ci_low)}, "
             f"{_signed(r['rating'].ci_high)}]", f"{r['mean_win_share'].estimate:.3f}")
            for k, r in enumerate(out["ratings"], 1)]
    lines.append(table(rows, ["rank", "bot", "rating [95%]", "win share"], "rlll"))
    for p in out["adjacent"]:
        d = p["difference"]
        word = "separated" if p["separated"] else "NOT separated"
        lines.append(f"  {p['higher']} above {p['lower']}: {_signed(d.estimate)} "
                     f"[{_signed(d.ci_low)}, {_signed(d.ci_high)}] → {word}")
    lines.append("")
    lines.append("one seat against a field (change in that seat's win rate over the field's own "
                 "bot, paired, mean over seats; ± SE [95%]):")
    best = out["ratings"][0]["bot"]
    shown = [g for g in out["gains"] if len(out["gains"]) <= MAX_GAIN_LINES
             or g["bot"] == best or g["field"] == best]
    for g in shown:
        lines.append(f"  {g['bot']} among {g['field']}: {g['gain'].format(4)}")
    lines.append("")
    lines.append("seat advantage in self-play (win rate per seat, Wilson 95%):")
    for sp in out["self_play"]:
        cells = "  ".join(f"seat {s['seat']} {s['win_rate'].estimate:.3f} "
                          f"[{s['win_rate'].ci_low:.3f}, {s['win_rate'].ci_high:.3f}]"
                          for s in sp["seats"])
        lines.append(f"  {sp['bot']}: {cells}")
    if out.get("games_per_second"):
        lines.append(f"games per second: {out['games_per_second']:,.0f}")
    from analyzer.words import fit

    return "\n".join(fit(lines))


def tables(out: dict):
    """Tidy tables (pandas): ratings, adjacent pairs, paired gains, self-play seats."""
    import pandas as pd

    seed = out["seed"]

    def stat(prefix, s):
        return {prefix: s.estimate, f"{prefix}_se": s.se, "ci_low": s.ci_low,
                "ci_high": s.ci_high, "n": s.n, "seed": seed}

    ratings = pd.DataFrame([{"rank": k, "bot": r["bot"], **stat("rating", r["rating"]),
                             "mean_win_share": r["mean_win_share"].estimate,
                             "mean_win_share_se": r["mean_win_share"].se,
                             "mean_win_share_ci_low": r["mean_win_share"].ci_low,
                             "mean_win_share_ci_high": r["mean_win_share"].ci_high}
                            for k, r in enumerate(out["ratings"], 1)])
    pairs = pd.DataFrame([{"higher": p["higher"], "lower": p["lower"],
                           **stat("difference", p["difference"]), "separated": p["separated"]}
                          for p in out["adjacent"]])
    gains = pd.DataFrame([{"bot": g["bot"], "field": g["field"], "seat": s["seat"],
                           **stat("gain", s["gain"])} for g in out["gains"]
                          for s in g["per_seat"]]
                         + [{"bot": g["bot"], "field": g["field"], "seat": "mean",
                             **stat("gain", g["gain"])} for g in out["gains"]])
    seats = pd.DataFrame([{"bot": sp["bot"], "seat": s["seat"], **stat("win_rate", s["win_rate"])}
                          for sp in out["self_play"] for s in sp["seats"]])
    return {"ladder_ratings": ratings, "ladder_pairs": pairs, "ladder_gains": gains,
            "ladder_self_play": seats}


def chart(out: dict, title: str):
    """The ratings with their 95% intervals (left) and each bot's self-play win rate per seat
    (right); a matplotlib figure."""
    import analyzer.charts  # noqa: F401 - the Agg backend and the house settings
    import matplotlib.pyplot as plt

    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4.8), dpi=100)
    for a in (ax, ax2):
        a.grid(True, alpha=0.3)
    rs = out["ratings"][::-1]
    ys = range(len(rs))
    est = [r["rating"].estimate for r in rs]
    err = [[r["rating"].estimate - r["rating"].ci_low for r in rs],
           [r["rating"].ci_high - r["rating"].estimate for r in rs]]
    ax.errorbar(est, list(ys), xerr=err, fmt="o", capsize=4, color="C0")
    ax.set_yticks(list(ys))
    ax.set_yticklabels([r["bot"] for r in rs], fontsize=8)
    ax.axvline(0, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("rating (Elo scale, mean 0), 95% bootstrap interval")
    ax.set_title(f"{title}: bot ladder, {out['players']} players")
    if out.get("field"):
        _gains_panel(ax2, out)
    else:
        _self_play_panel(ax2, out)
    fig.text(0.01, -0.02, f"n = {out['n']:,} deals per line-up, {out['lineups']} line-ups, seed "
             f"{out['seed']}; {out['interval']}", fontsize=8, ha="left", va="top",
             color="dimgrey")
    return fig


def _self_play_panel(ax, out: dict) -> None:
    """Each bot's self-play win rate per seat, Wilson 95% whiskers."""
    players = out["players"]
    width = 0.8 / len(out["self_play"])
    for k, sp in enumerate(out["self_play"]):
        xs = [s["seat"] + (k - (len(out["self_play"]) - 1) / 2) * width for s in sp["seats"]]
        ws = [s["win_rate"] for s in sp["seats"]]
        ax.bar(xs, [x.estimate for x in ws], width=width, color=f"C{k}", label=sp["bot"],
               yerr=[[x.estimate - x.ci_low for x in ws], [x.ci_high - x.estimate for x in ws]],
               capsize=2)
    ax.axhline(1 / players, color="black", linestyle="--", linewidth=1)
    ax.set_xticks(range(1, players + 1))
    ax.set_xlabel("seat")
    ax.set_ylabel("win rate in self-play (Wilson 95%)")
    ax.legend(fontsize=7, frameon=False)


def _gains_panel(ax, out: dict) -> None:
    """A gauntlet's paired gains: each bot in one seat against the field, over the field's own
    bot in that seat (mean over seats, 95% interval), in the order of the bots given."""
    gains = [g for b in out["bots"] for g in out["gains"] if g["bot"] == b]
    xs = range(len(gains))
    est = [g["gain"].estimate for g in gains]
    err = [[g["gain"].estimate - g["gain"].ci_low for g in gains],
           [g["gain"].ci_high - g["gain"].estimate for g in gains]]
    ax.errorbar(list(xs), est, yerr=err, fmt="o-", capsize=4, color="C1")
    ax.axhline(0, color="black", linewidth=1)
    ax.set_xticks(list(xs))
    ax.set_xticklabels([g["bot"] for g in gains], fontsize=8, rotation=20, ha="right")
    ax.set_ylabel(f"gain in win rate, one seat among {out['field']}")
    ax.set_title("paired gain over the field's own bot (mean over seats)")


def write_files(out: dict, out_dir, title: str, with_chart: bool, stem: str) -> list:
    """Write the tables (and with ``with_chart`` the chart) under ``out_dir``; returns paths."""
    from pathlib import Path

    from analyzer.output import check_output_dir
    from analyzer.tables import write_table

    folder = check_output_dir(out_dir)
    files = []
    for name, df in tables(out).items():
        files += write_table(df, Path(folder) / f"{stem}_{name}")
    if with_chart:
        from analyzer.charts import save_figure

        files += save_figure(chart(out, title), Path(folder) / f"{stem}_ladder")
    return files
