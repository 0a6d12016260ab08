"""What `trash-pandas game --out DIR [--chart]` writes: tidy tables, and charts to look at.

Tables (CSV for machines, Markdown for reading; analyzer/tables.py): ``tp_game_seats`` (win rate
and points per line-up and seat, with SE and 95% interval), ``tp_game_length`` (share of games
lasting r rounds, Wilson interval; the last bucket is "r or more") and, with ``--vs``,
``tp_game_vs`` (the paired change in each seat's win rate against the first line-up).

Charts (PNG and SVG, analyzer/charts.py: Agg, fixed metadata, so a rerun is byte-identical):
``tp_game_win_rates`` (each seat's win rate with its 95% interval, per line-up, against the fair
share 1/players), ``tp_game_length`` (the game-length distribution in rounds, one series per
line-up; a line-up has the same colour in every chart) and, with ``--vs``, ``tp_game_vs`` (each seat's paired win-rate change per line-up with
its interval, against 0). Every caption gives n and the seed. Files go only under ``--out``.
pandas and matplotlib are imported here, never by a query.
"""
from __future__ import annotations

from pathlib import Path


def seat_rows(out: dict) -> list[dict]:
    rows = []
    for k, lu in enumerate(out["lineups"], 1):
        for s in lu["seats"]:
            w, p = s["win_rate"], s["points"]
            rows.append({"lineup": k, "bots": lu["lineup"], "seat": s["seat"],
                         "win_rate": w.estimate, "se": w.se, "ci_low": w.ci_low,
                         "ci_high": w.ci_high, "points": p.estimate, "points_se": p.se,
                         "n": w.n, "seed": out["seed"]})
    return rows


def length_rows(out: dict) -> list[dict]:
    rows = []
    for k, lu in enumerate(out["lineups"], 1):
        for h in lu["rounds_histogram"]:
            sh = h["share"]
            rows.append({"lineup": k, "rounds": h["rounds"], "share": sh.estimate,
                         "ci_low": sh.ci_low, "ci_high": sh.ci_high, "n": sh.n,
                         "seed": out["seed"]})
    return rows


def vs_rows(out: dict) -> list[dict]:
    rows = []
    for k, lu in enumerate(out["lineups"], 1):
        for d in lu.get("vs_first", []):
            c = d["win_rate_change"]
            rows.append({"lineup": k, "bots": lu["lineup"], "seat": d["seat"],
                         "win_rate_change": c.estimate, "se": c.se, "ci_low": c.ci_low,
                         "ci_high": c.ci_high, "verdict": d["verdict"], "n": c.n,
                         "seed": out["seed"]})
    return rows


def _caption(fig, out: dict, text: str) -> None:
    fig.text(0.01, -0.02, f"n = {out['n']:,} games per line-up, seed {out['seed']}; {text}",
             fontsize=8, ha="left", va="top", color="dimgrey")


def _legend(ax, n: int) -> None:
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False,
              title="line-up" if n > 1 else None)


def win_rate_chart(out: dict, base) -> list[Path]:
    """Grouped bars: each seat's win rate per line-up, 95% interval as error bars, the fair
    share dashed (the same drawing as the reports' seat-advantage charts)."""
    from analyzer.balance import Measure
    from analyzer.balance_part import seat_figure
    from analyzer.charts import save_figure

    players, lus = out["players"], out["lineups"]
    series = [(f"{k + 1}: {lu['lineup']}",
               [Measure("seat", s["win_rate"], seat=s["seat"], fair=1 / players)
                for s in lu["seats"]]) for k, lu in enumerate(lus)]
    fig = seat_figure([("", series)], f"Trash Pandas, {players} players: win rate per seat",
                      "win rate (ties shared)")
    _caption(fig, out, "bars are estimates, whiskers 95% intervals.")
    return save_figure(fig, base)


def length_chart(out: dict, base) -> list[Path]:
    """The share of games lasting r rounds (r = 1 … 19, then "20 or more"), per line-up."""
    from analyzer.charts import new_figure, save_figure

    fig, ax = new_figure(9, 4.5)
    lus = out["lineups"]
    labels = sorted({h["rounds"] for lu in lus for h in lu["rounds_histogram"]},
                    key=lambda r: int(r.rstrip("+")))
    width = 0.8 / len(lus)
    for k, lu in enumerate(lus):
        by = {h["rounds"]: h["share"] for h in lu["rounds_histogram"]}
        xs = [i + (k - (len(lus) - 1) / 2) * width for i in range(len(labels))]
        ys = [by[r].estimate if r in by else 0.0 for r in labels]
        ax.bar(xs, ys, width=width, color=f"C{k}", label=f"{k + 1}: {lu['lineup']}")
    ax.set_xticks(range(len(labels)), labels)
    ax.set_xlabel("rounds in the game (a round: every seat plays one turn)")
    ax.set_ylabel("share of games")
    ax.set_title(f"Trash Pandas, {out['players']} players: game length")
    _legend(ax, len(lus))
    mean = ", ".join(f"{k + 1}: {lu['rounds'].estimate:.2f} ± {lu['rounds'].se:.2f}"
                     for k, lu in enumerate(lus))
    _caption(fig, out, f"mean rounds (± SE) {mean}.")
    return save_figure(fig, base)


def vs_chart(out: dict, base) -> list[Path]:
    """Each --vs line-up's paired change in every seat's win rate against line-up 1."""
    from analyzer.charts import new_figure, save_figure

    fig, ax = new_figure(9, 4.5)
    others = [(k, lu) for k, lu in enumerate(out["lineups"]) if "vs_first" in lu]
    width = 0.8 / len(others)
    for j, (k, lu) in enumerate(others):
        ds = lu["vs_first"]
        xs = [d["seat"] + (j - (len(others) - 1) / 2) * width for d in ds]
        ys = [d["win_rate_change"].estimate for d in ds]
        err = [[y - d["win_rate_change"].ci_low for y, d in zip(ys, ds)],
               [d["win_rate_change"].ci_high - y for y, d in zip(ys, ds)]]
        ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=4, color=f"C{k}",
                    label=f"{k + 1}: {lu['lineup']}")
    ax.axhline(0, color="black", linewidth=1)
    players = out["players"]
    ax.set_xticks(range(1, players + 1), [f"seat {i}" for i in range(1, players + 1)])
    ax.set_ylabel("change in win rate vs line-up 1")
    ax.set_title(f"Trash Pandas, {players} players: line-ups against "
                 f"1: {out['lineups'][0]['lineup']}")
    _legend(ax, len(others) + 1)
    _caption(fig, out, "paired on the same games (common random numbers); whiskers 95% "
                       "intervals; an interval across 0 is too close to call.")
    return save_figure(fig, base)


def write_game(out: dict, out_dir, chart: bool) -> list[Path]:
    """The tables (and with ``chart`` the charts) of a `game` result into ``out_dir``."""
    import pandas as pd

    from analyzer.tables import write_table

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    files = write_table(pd.DataFrame(seat_rows(out)), out_dir / "tp_game_seats")
    files += write_table(pd.DataFrame(length_rows(out)), out_dir / "tp_game_length")
    has_vs = len(out["lineups"]) > 1
    if has_vs:
        files += write_table(pd.DataFrame(vs_rows(out)), out_dir / "tp_game_vs")
    if chart:
        files += win_rate_chart(out, out_dir / "tp_game_win_rates")
        files += length_chart(out, out_dir / "tp_game_length")
        if has_vs:
            files += vs_chart(out, out_dir / "tp_game_vs")
    return files
