"""Files of a `tune --target` search: the cells table (CSV + Markdown) and verdict heat maps.

One heat map per pair of space keys: each square is one pair of values, coloured by the verdict
(meets / undecided / fails); with more than two keys a square summarises the cells that share the
pair: the share of them that meet every target. pandas and matplotlib are imported here only.
"""
from __future__ import annotations

import itertools
from pathlib import Path

VERDICT_CODE = {"fails": 0.0, "undecided": 0.5, "meets": 1.0}


def flat_rows(result: dict) -> list[dict]:
    """One flat row per cell: settings, verdict, and each metric's estimate and interval."""
    rows = []
    for r in result["rows"]:
        row = {k: v for k, v in r.items() if not isinstance(v, (dict, list))}
        for k, v in r.items():
            if isinstance(v, dict):
                row[k] = v["estimate"]
                row[f"{k}_ci_low"] = v["ci_low"]
                row[f"{k}_ci_high"] = v["ci_high"]
                if "effect" in v:
                    row[f"{k}_effect"] = v["effect"]
        rows.append(row)
    return rows


def write_search_outputs(result: dict, keys: list[str], out: Path, chart: bool) -> list[str]:
    import pandas as pd

    from analyzer.tables import write_table

    files = [str(p) for p in write_table(pd.DataFrame(flat_rows(result)), out / "cells")]
    if chart and len(keys) >= 1:
        files += heatmaps(result, keys, out)
    return files


def heatmaps(result: dict, keys: list[str], out: Path) -> list[str]:
    import numpy as np

    from analyzer.charts import new_figure, save_figure

    pairs = list(itertools.combinations(keys, 2)) or [(keys[0], None)]
    cells = [{**r, **alias} for r in result["rows"] for alias in [{}] + r["same_rules_as"]]
    written = []
    for kx, ky in pairs:
        xs = list(dict.fromkeys(r[kx] for r in cells if kx in r))
        ys = list(dict.fromkeys(r[ky] for r in cells if ky in r)) if ky else [""]
        grid = np.full((len(ys), len(xs)), np.nan)
        for iy, yv in enumerate(ys):
            for ix, xv in enumerate(xs):
                verdicts = [VERDICT_CODE[r["verdict"]] for r in cells
                            if r.get(kx) == xv and (ky is None or r.get(ky) == yv)]
                if verdicts:
                    grid[iy, ix] = sum(v == 1.0 for v in verdicts) / len(verdicts) \
                        if len(keys) > 2 else verdicts[0]
        fig, ax = new_figure(max(4.0, 0.6 * len(xs) + 2), max(2.5, 0.45 * len(ys) + 1.8))
        ax.grid(False)
        ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
        ax.set_xticks(range(len(xs)), [str(x) for x in xs], rotation=45 if len(xs) > 8 else 0)
        ax.set_yticks(range(len(ys)), [str(y) for y in ys])
        ax.set_xlabel(kx)
        if ky:
            ax.set_ylabel(ky)
        what = ("share of cells meeting every target" if len(keys) > 2
                else "green meets, yellow undecided, red fails")
        ax.set_title(f"tune {result['game']}: {what}", fontsize=10)
        fig.subplots_adjust(bottom=0.3)
        fig.text(0.01, 0.01, "targets: " + "; ".join(result["targets"]) +
                 f" (all verdicts together at ≥ {1 - result['alpha']:g}); seed {result['seed']}",
                 fontsize=7, ha="left", va="bottom")
        name = f"verdicts_{kx}" + (f"_{ky}" if ky else "")
        written += [str(p) for p in save_figure(fig, out / name)]
    return written
