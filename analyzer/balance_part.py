"""A report part from balance figures: tables for people, a tidy CSV, charts, findings.

:func:`balance_result` takes the :class:`analyzer.balance.Balance` groups a game's part measured
(player counts, line-ups, rule sets) and returns the part's result: a wide table of seat
advantage (one row per group, one column per seat, each "29.4% [28.8, 30.1]"), a wide table of
the game's shape (length, decisiveness, lead changes, ties, margin, busts), the tidy table of
every figure (``balance.csv``: group, metric, seat, estimate, se, interval, n), a chart of each
seat's win share against the fair share (one panel per group), a chart of the game-length
distribution, and the findings in sentences.

This is the hook for stronger players: a part that measures line-ups of the strongest bots (the
bot ladder) builds the same :class:`~analyzer.balance.Balance` per line-up and calls
:func:`balance_result`; its page then reads like every other balance part.
"""
from __future__ import annotations

from analyzer.balance import METRICS, PERCENT, Balance, findings

#: the game-shape columns of the wide table, in order: (metric key, header)
SHAPE = (("length", "mean length"), ("length_q90", "90% end within"),
         ("decisive", "leader at ¾ wins"), ("lead_changes", "lead changes"),
         ("tie", "tied on points"), ("tiebreak", "tie-break decides"),
         ("drawn", "nobody wins"),
         ("margin", "winner's margin"), ("bust", "turns that bust"), ("ruin", "ruins per game"))


def tidy_frame(balances: list[Balance]):
    """Every figure of every group, one row each (the CSV for people who want data)."""
    import pandas as pd

    rows = []
    for b in balances:
        for m in b.measures:
            rows.append({"group": b.group, "players": b.players, "metric": m.key,
                         "words": m.label, "seat": m.seat, "estimate": m.stat.estimate,
                         "se": m.stat.se, "ci_low": m.stat.ci_low, "ci_high": m.stat.ci_high,
                         "n": m.stat.n, "fair": m.fair,
                         "unit": m.unit or METRICS[m.key][1]})
    return pd.DataFrame(rows)


def seat_table(balances: list[Balance], group_header: str = "games") -> str:
    """Markdown: one row per group, one column per seat (percent, 95% interval), the fair
    share and n."""
    from analyzer.tables import Col, people_table

    most = max(b.players for b in balances)
    cols = [Col(group_header, "group"), Col("n", "n", "int")]
    cols += [Col(f"seat {i}", f"seat{i}", "percent") for i in range(1, most + 1)]
    cols.append(Col("fair share", "fair"))
    rows = []
    for b in balances:
        row = {"group": b.group, "n": b.n, "fair": f"{100.0 / b.players:.1f}%"}
        for m in b.seats():
            row[f"seat{m.seat}"] = m.stat
            row["fair"] = f"{100.0 * m.fair:.1f}%"
        rows.append(row)
    return people_table(rows, cols)


def shape_table(balances: list[Balance], group_header: str = "games") -> str:
    """Markdown: one row per group, one column per game-shape metric any group has."""
    from analyzer.tables import Col, people_table

    keys = [(k, h) for k, h in SHAPE if any(b.get(k) for b in balances)]
    if not keys:
        return ""
    cols = [Col(group_header, "group")]
    for k, header in keys:
        unit = next((b.length_unit for b in balances if b.get(k)), "") \
            if k.startswith("length") else ""
        words = f"{header} ({unit})" if unit else header
        cols.append(Col(words, k, "percent" if k in PERCENT else "stat",
                        0 if k in ("length_q50", "length_q90") else None))
    rows = []
    for b in balances:
        row = {"group": b.group}
        for k, _h in keys:
            m = b.get(k)
            row[k] = m.stat if m is not None else None
        rows.append(row)
    return people_table(rows, cols)


def seat_chart(balances: list[Balance], title: str):
    """(figure, data) of each seat's win share with its 95% interval against the fair share
    (dashed), one panel per group; None when fewer than two seat figures exist."""
    import pandas as pd

    from analyzer.charts import enough_points

    data = pd.DataFrame([{"group": b.group, "seat": m.seat, "estimate": m.stat.estimate,
                          "ci_low": m.stat.ci_low, "ci_high": m.stat.ci_high, "fair": m.fair,
                          "n": m.stat.n} for b in balances for m in b.seats()])
    if not enough_points(data):
        return None
    panels = [(b.group, [("", b.seats())]) for b in balances if b.seats()]
    fig = seat_figure(panels, title, "share of the wins (ties shared)")
    return fig, data


def seat_figure(panels, title: str, ylabel: str):
    """Grouped bars with 95% whiskers, one panel per (title, [(series label, seat measures)]),
    the fair share of each panel as a dashed line. Shared by `trash-pandas game --chart`."""
    from analyzer.charts import fit_intervals, new_figure

    fig, ax0 = new_figure(min(3.3 * len(panels) + 1.5, 11.0), 4.2)
    fig.delaxes(ax0)
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    lows, highs = [], []
    for ax, (name, series) in zip(axes, panels):
        ax.grid(True, axis="y", alpha=0.3)
        width = 0.8 / len(series)
        for k, (label, seats) in enumerate(series):
            xs = [m.seat + (k - (len(series) - 1) / 2) * width for m in seats]
            ys = [m.stat.estimate for m in seats]
            err = [[y - m.stat.ci_low for y, m in zip(ys, seats)],
                   [m.stat.ci_high - y for y, m in zip(ys, seats)]]
            ax.bar(xs, ys, width=width * 0.92, yerr=err, capsize=3, color=f"C{k}",
                   ecolor="#333", label=label or None)
            lows += [m.stat.ci_low for m in seats]
            highs += [m.stat.ci_high for m in seats]
        seats = series[0][1]
        fair = seats[0].fair
        ax.axhline(fair, color="black", linestyle="--", linewidth=1,
                   label=f"fair share {fair * 100:.1f}%")
        highs.append(fair)
        ax.set_xticks([m.seat for m in seats], [f"seat {m.seat}" for m in seats])
        ax.set_title(f"{name} (fair share {fair * 100:.1f}%, dashed)" if name else
                     f"fair share {fair * 100:.1f}%, dashed", fontsize=9)
        ax.yaxis.set_major_formatter(_percent_formatter())
    fit_intervals(axes[0], lows, highs, floor=0.0)
    axes[0].set_ylabel(ylabel)
    if any(label for _name, series in panels for label, _s in series):
        handles, labels = axes[-1].get_legend_handles_labels()
        keep = [(h, lb) for h, lb in zip(handles, labels) if not lb.startswith("fair share")]
        axes[-1].legend(*zip(*keep), loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
                        frameon=False)
    fig.suptitle(title, fontsize=11)
    return fig


def _percent_fmt(value, _pos=None) -> str:
    return f"{value * 100:.0f}%"


def _percent_formatter():
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(_percent_fmt)


def length_chart(balances: list[Balance], title: str):
    """(figure, data) of the share of games by length, one line per group; None with fewer
    than two lengths."""
    import pandas as pd

    from analyzer.charts import enough_points, new_figure

    rows = []
    for b in balances:
        total = sum(c for _, c in b.length_counts)
        for v, c in b.length_counts:
            rows.append({"group": b.group, "length": v, "games": c, "share": c / total,
                         "unit": b.length_unit, "open_top": b.open_top})
    data = pd.DataFrame(rows)
    if not enough_points(data) or data["length"].nunique() < 2:
        return None
    fig, ax = new_figure(8.0, 4.0)
    for k, b in enumerate(b for b in balances if b.length_counts):
        sub = data[data.group == b.group]
        ax.plot(sub["length"], sub["share"], "o-", markersize=3, color=f"C{k}", label=b.group)
    unit = balances[0].length_unit
    tops = [b for b in balances if b.open_top and b.length_counts]
    if tops:
        top = tops[0].length_counts[-1][0]
        ax.annotate(f"{top}: {top} or more", (top, 0), textcoords="offset points",
                    xytext=(0, -28), ha="center", fontsize=8, color="dimgrey")
    ax.set_xlabel(f"game length ({unit})")
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("share of games")
    ax.yaxis.set_major_formatter(_percent_formatter())
    ax.set_ylim(bottom=0)
    ax.legend(loc="upper right", fontsize=8, frameon=False)
    ax.set_title(title, fontsize=11)
    return fig, data


def balance_result(balances: list[Balance], game: str, how: str, subject=None,
                   group_header: str = "games", stem: str = "balance", extra: str = "",
                   main: int = 0):
    """The :class:`~analyzer.report.PartResult` of balance groups (module doc). ``game`` names
    the game in titles; ``how`` is the method sentence for the part's "how this was computed"
    box; ``subject(b)`` names a group's games in findings; ``extra`` Markdown goes after the
    tables."""
    from analyzer.charts import chart_files
    from analyzer.report import PartResult
    from analyzer.tables import table_files

    for b in balances:
        b.with_quantiles()
    files = table_files(tidy_frame(balances), stem)
    md = []
    seats = seat_chart(balances, f"{game}: win share per seat")
    key_chart = None
    if seats is not None:
        files.update(chart_files(seats[0], f"{stem}_seats", seats[1]))
        md += [f"![{game}: win share per seat, 95% intervals, fair share dashed]"
               f"({stem}_seats.svg)", ""]
        key_chart = f"{stem}_seats"
    if any(b.seats() for b in balances):
        md += ["**Seat advantage** (share of the wins, ties shared; 95% intervals):", "",
               seat_table(balances, group_header), ""]
    shape = shape_table(balances, group_header)
    if shape:
        md += ["**The game's shape** (95% intervals):", "", shape, ""]
    lengths = length_chart(balances, f"{game}: how long a game lasts")
    if lengths is not None:
        files.update(chart_files(lengths[0], f"{stem}_length", lengths[1]))
        md += [f"![{game}: share of games by length]({stem}_length.svg)", ""]
        key_chart = key_chart or f"{stem}_length"
    for b in balances:
        for note in b.notes:
            if note not in md:
                md += [note, ""]
    if extra:
        md += [extra, ""]
    found = findings(balances, subject, main)
    meta = {"exact": False, "balance": [b.to_json() for b in balances],
            "findings": [f.to_json() for f in found], "how": how}
    if key_chart:
        meta["key_chart"] = key_chart
    return PartResult(files, "\n".join(md).rstrip() + "\n", meta)


# ------------------------------------------------------------------------ rule sensitivity
#: the figures a sensitivity chart draws against a rule's values: (metric key, seat, words)
SENSITIVE = (("seat", 1, "first player's win share"), ("length", None, "mean game length"),
             ("decisive", None, "leader at ¾ wins"), ("lead_changes", None,
                                                      "lead changes per game"))


def sensitivity_frame(knob: str, values: list, balances: list[Balance]):
    """One row per (rule value, figure) with its interval: the data of the sensitivity chart."""
    import pandas as pd

    rows = []
    for v, b in zip(values, balances):
        for key, seat, words in SENSITIVE:
            m = b.get(key, seat)
            if m is not None:
                rows.append({"rule": knob, "value": v, "metric": words, "estimate":
                             m.stat.estimate, "ci_low": m.stat.ci_low,
                             "ci_high": m.stat.ci_high, "n": m.stat.n, "fair": m.fair,
                             "unit": b.length_unit if key == "length" else ""})
    return pd.DataFrame(rows)


def sensitivity_figure(knob: str, data, title: str):
    """One panel per figure, each against the rule's values with 95% whiskers (the fair share
    dashed on the win-share panel)."""
    from analyzer.charts import fit_intervals, new_figure

    metrics = list(dict.fromkeys(data.metric))
    fig, ax0 = new_figure(min(3.2 * len(metrics) + 1.0, 11.0), 3.6)
    fig.delaxes(ax0)
    axes = fig.subplots(1, len(metrics), squeeze=False)[0]
    for k, (ax, metric) in enumerate(zip(axes, metrics)):
        sub = data[data.metric == metric]
        ax.grid(True, alpha=0.3)
        ax.errorbar(sub.value, sub.estimate, yerr=[sub.estimate - sub.ci_low,
                                                   sub.ci_high - sub.estimate],
                    fmt="o-", capsize=4, color=f"C{k}")
        lows, highs = list(sub.ci_low), list(sub.ci_high)
        fair = sub.fair.dropna()
        if len(fair):
            ax.axhline(float(fair.iloc[0]), color="black", linestyle="--", linewidth=1)
            lows.append(float(fair.iloc[0]))
            highs.append(float(fair.iloc[0]))
        fit_intervals(ax, lows, highs)
        unit = sub.unit.iloc[0]
        ax.set_title(metric + (f" ({unit})" if unit else ""), fontsize=10)
        ax.set_xlabel(knob)
        ax.set_xticks(list(sub.value))
        if metric.endswith("share") or metric.endswith("wins"):
            ax.yaxis.set_major_formatter(_percent_formatter())
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def sensitivity_result(knob: str, values: list, balances: list[Balance], game: str,
                       stem: str = "sensitivity"):
    """(files, markdown, findings) of one rule changed over ``values`` (one balance group per
    value, the same players): a chart of each figure against the value with its interval, a
    table, and a finding for the first player's share: how far it moves across the values when
    the end values' intervals do not overlap, else that no change was detected."""
    from analyzer.balance import Finding, pct
    from analyzer.charts import chart_files, enough_points
    from analyzer.tables import Col, people_table, table_files

    data = sensitivity_frame(knob, values, balances)
    files = table_files(data, stem)
    md = []
    if len(values) >= 2 and enough_points(data):
        files.update(chart_files(sensitivity_figure(knob, data, f"{game}: the figures as "
                                                                f"{knob} changes"),
                                 stem, data))
        md += [f"![{game}: each figure against {knob}, 95% intervals]({stem}.svg)", ""]
    keys = [(k, s, w) for k, s, w in SENSITIVE if any(b.get(k, s) for b in balances)]
    rows = []
    for v, b in zip(values, balances):
        row = {"value": str(v), "n": b.n}
        for k, s, _w in keys:
            m = b.get(k, s)
            row[k] = None if m is None else m.stat
        rows.append(row)
    cols = [Col(knob, "value"), Col("n", "n", "int")] + [
        Col(w + (f" ({balances[0].length_unit})" if k == "length" else ""), k,
            "percent" if k in PERCENT else "stat") for k, _s, w in keys]
    md.append(people_table(rows, cols))
    found = []
    first = [b.get("seat", 1) for b in balances]
    if len(values) >= 2 and all(first):
        a, z = first[0].stat, first[-1].stat
        if a.ci_high < z.ci_low or z.ci_high < a.ci_low:
            found.append(Finding(f"With {knob} at {values[0]} the first player wins {pct(a)} of "
                                 f"the games; at {values[-1]}, {pct(z)} (n = {a.n:,} each).", 5))
        else:
            found.append(Finding(f"No change in the first player's win share detected as "
                                 f"{knob} goes from {values[0]} to {values[-1]}: {pct(a)} and "
                                 f"{pct(z)} (n = {a.n:,} each).", 5))
    return files, "\n".join(md), found
