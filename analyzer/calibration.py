"""Calibration of `decide` (any game): the statistics of predicted against true chances of
winning over frozen positions, the loop that values positions one by one (Ctrl-C keeps the
finished ones), and the reliability chart. The games' own modules freeze positions and value
them (analyzer/games/trash_pandas/calibrate.py, analyzer/games/ten/calibrate.py).

Rows. One row per position, with for every quantity k (a choice, or a margin between two
choices) ``pred_k``, ``true_k`` (the predicted and the true chance of winning, each a mean over
playouts) and ``pred_k_var``, ``true_k_var`` (their sampling variances, from the playouts' Σx,
Σx²: :func:`mean_var`).

Bias. For quantity k, d_j = pred_k − true_k at position j; the bias is the mean of d over the n
positions with its Student-t 95% interval (:func:`mean_stat`; positions are independent, so the
spread of d, which holds the belief's error and the Monte Carlo noise of both estimates, gives an
honest SE). ``noise_share`` = mean of the per-position sampling variances of d over the sample
variance of d; ``rmse_belief`` = sqrt(max(mean(d²) − mean sampling variance, 0)), one
position's typical error with the noise taken out. A bar is *shown* when the whole 95% interval
lies inside ±bar (issue 34: 0.02 per choice, 0.01 for a margin).

Reliability. Positions binned by predicted chance (width 0.1); per bin the mean prediction and
the mean true value with the wider of (a) the Student-t interval of the positions' true values
and (b) the Wilson interval of their pooled playouts (honest when every true value is 0 or 1),
cut to [0, 1].
"""
from __future__ import annotations

BAR_CHOICE = 0.02
BAR_MARGIN = 0.01


def t95(dof: int) -> float:
    """Two-sided 95% quantile of Student's t with ``dof`` degrees of freedom: tabled for 1 to 4,
    else the Cornish-Fisher expansion in 1/dof (error below 0.12% from 5 on, shrinking)."""
    from analyzer.stats import Z95

    if dof <= 0:
        raise ValueError("t95 needs at least one degree of freedom")
    if dof <= 4:
        return (12.706204736174704, 4.302652729749464, 3.182446305284263,
                2.7764451051977987)[dof - 1]
    z, v = Z95, float(dof)
    return (z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * v ** 3))


def mean_var(s1: float, s2: float, n: int) -> tuple[float, float]:
    """Mean and the sampling variance of the mean from Σx, Σx² over n trials."""
    mean = s1 / n
    var = max((s2 - s1 * s1 / n) / (n - 1), 0.0) if n > 1 else 0.0
    return mean, var / n


def mean_stat(values):
    """Mean of independent values with SE and the Student-t 95% interval (n ≥ 2)."""
    from analyzer.stats import Statistic

    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    se = (var / n) ** 0.5
    h = t95(n - 1) * se
    return Statistic(mean, se, mean - h, mean + h, n)


def bias_of(rows: list[dict], kind: str, bar: float) -> dict:
    """The bias of quantity ``kind`` over the positions, with its noise accounting and the
    verdict against ``bar`` (module doc)."""
    d = [r[f"pred_{kind}"] - r[f"true_{kind}"] for r in rows]
    noise = [r[f"pred_{kind}_var"] + r[f"true_{kind}_var"] for r in rows]
    stat = mean_stat(d)
    n = len(d)
    var_d = stat.se ** 2 * n
    mean_noise = sum(noise) / n
    mse = sum(x * x for x in d) / n
    shown = -bar <= stat.ci_low and stat.ci_high <= bar
    return {"bias": stat, "bar": bar, "shown": shown,
            "verdict": ("within the bar (95% interval inside ±bar)" if shown else
                        "estimate inside the bar, interval not" if abs(stat.estimate) <= bar
                        else "outside the bar"),
            "noise_share": mean_noise / var_d if var_d > 0 else 0.0,
            "rmse_belief": max(mse - mean_noise, 0.0) ** 0.5}


def reliability(rows: list[dict], names, playouts: int, width: float = 0.1) -> list[dict]:
    """Per quantity in ``names`` and bin of predicted chance of winning: the mean prediction and
    the mean true value with its 95% interval (module doc)."""
    from analyzer.stats import Statistic, wilson

    out = []
    nbins = round(1 / width)
    for name in names:
        for b in range(nbins):
            lo, hi = b / nbins, (b + 1) / nbins
            inside = [r for r in rows if lo <= r[f"pred_{name}"] < hi
                      or b == nbins - 1 and r[f"pred_{name}"] == 1.0]
            if not inside:
                continue
            truth = [r[f"true_{name}"] for r in inside]
            k = len(inside)
            pooled = wilson(sum(truth) * playouts, k * playouts)
            low, high = pooled.ci_low, pooled.ci_high
            se = pooled.se
            if k >= 2:
                spread = mean_stat(truth)
                low, high = min(low, spread.ci_low), max(high, spread.ci_high)
                se = max(se, spread.se)
            mean = sum(truth) / k
            out.append({"choice": name, "bin_low": lo, "bin_high": hi, "positions": k,
                        "predicted": sum(r[f"pred_{name}"] for r in inside) / k,
                        "true": Statistic(mean, se, max(low, 0.0), min(high, 1.0), k)})
    return out


def part(rows: list[dict], kind: str, bar: float) -> dict:
    """Mean predicted, mean true and the bias of quantity ``kind``."""
    return {"predicted": mean_stat([r[f"pred_{kind}"] for r in rows]),
            "true": mean_stat([r[f"true_{kind}"] for r in rows]), **bias_of(rows, kind, bar)}


def run_meta(game: str, seed: int, players: int, max_left: int, playouts: int, requested: int,
             rules, unit: str, bots, belief: dict, interrupted: bool, finished: int) -> dict:
    """What a calibrate run was (the head of its JSON), noting a Ctrl-C on stderr (with the
    ``finished`` positions kept)."""
    from analyzer.errors import mark_interrupted
    from analyzer.output import note_interrupted
    from analyzer.rules import rules_to_dict

    if interrupted:
        mark_interrupted()
        note_interrupted(f"interrupted: keeping the {finished:,} finished positions")
    return {"game": game, "exact": False, "seed": seed, "players": players,
            "max_cards_left": max_left, "playouts": playouts, "requested": requested,
            "rules": rules_to_dict(rules), "unit": unit,
            "seats": [{"seat": i + 1, "bot": b.label} for i, b in enumerate(bots)],
            "belief": belief, "interrupted": interrupted}


def run_positions(name: str, n: int, positions, value, progress: bool | None = None
                  ) -> tuple[list[dict], bool]:
    """Value the first ``n`` positions of the iterator ``positions`` with ``value(j, position)``
    (a row), one after another with a progress bar; returns the rows and whether a Ctrl-C cut
    the run short (the finished positions are kept; fewer than two finished: the one-line
    Interrupted error)."""
    from analyzer.errors import Interrupted
    from analyzer.interrupts import sigint_seen
    from analyzer.runner import Progress

    rows: list[dict] = []
    interrupted = False
    bar = Progress(name, n, "positions", progress)
    try:
        for j, fz in enumerate(positions):
            if j == n:
                break
            if sigint_seen():  # a Ctrl-C whose KeyboardInterrupt Python swallowed
                raise KeyboardInterrupt
            rows.append(value(j, fz))
            bar.update(len(rows))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    if interrupted and len(rows) < 2:  # a bias needs the spread of two positions at least
        raise Interrupted(f"{'no position' if not rows else 'one position only'} had finished")
    return rows, interrupted


def reliability_chart(out: dict, base, title: str, names,
                      truth: str = "true chance of winning (from the real hidden cards)") -> list:
    """Mean true against mean predicted chance of winning per bin, for each quantity in
    ``names`` in its colour, every position as a faint dot, against the diagonal (PNG and SVG,
    fixed metadata); ``truth`` labels the vertical axis."""
    from analyzer.charts import new_figure, save_figure

    fig, ax = new_figure(6.5, 6)
    ax.plot([0, 1], [0, 1], color="black", linewidth=1, linestyle="--", label="perfect")
    for k, name in enumerate(names):
        dots = [(r[f"pred_{name}"], r[f"true_{name}"]) for r in out["rows"]]
        ax.scatter([x for x, _ in dots], [y for _, y in dots], s=6, alpha=0.15,
                   color=f"C{k}", linewidths=0)
        bins = [r for r in out["reliability"] if r["choice"] == name]
        xs = [r["predicted"] for r in bins]
        ys = [r["true"].estimate for r in bins]
        err = [[y - r["true"].ci_low for y, r in zip(ys, bins)],
               [r["true"].ci_high - y for y, r in zip(ys, bins)]]
        b = out["choices"][name]["bias"]
        ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=3, color=f"C{k}",
                    label=f"{name}: bias {b.estimate:+.3f} [{b.ci_low:+.3f}, {b.ci_high:+.3f}]")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("predicted chance of winning (decide, with the belief)")
    ax.set_ylabel(truth)
    ax.set_title(title)
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    fig.text(0.01, -0.02, f"{out['positions']:,} positions, {out['playouts']:,} playouts per "
             f"choice, seed {out['seed']}; bins of 0.1 (points: mean per bin, whiskers 95% "
             "intervals of the mean true value; dots: positions).", fontsize=7, ha="left",
             va="top", color="dimgrey")
    return save_figure(fig, base)


def signed(s) -> str:
    """A bias as ``+0.0012 ± 0.0034 [-0.0050, +0.0074]``."""
    return f"{s.estimate:+.4f} ± {s.se:.4f} [{s.ci_low:+.4f}, {s.ci_high:+.4f}]"
