"""What a `tune --target` search reports: its result object (:func:`search_result`), and its
files: the cells table (CSV + Markdown) and verdict heat maps.

One heat map per pair of space keys: each square is one pair of values, coloured by the verdict
(meets / undecided / fails); with more than two keys a square summarises the cells that share the
pair: the share of them that meet every target. pandas and matplotlib are imported here only.
"""
from __future__ import annotations

import itertools
from pathlib import Path

VERDICT_CODE = {"fails": 0.0, "undecided": 0.5, "meets": 1.0}


def search_result(ctx, cells, rounds, spent: int, stopped_by: str, alpha: float, family: int,
                  wall_seconds: float) -> dict:
    """The result object of a search (JSON as printed by ``--json``)."""
    from analyzer.tune_stats import distance, equal_grid
    from analyzer.tune_target import GROUP

    jobs = len({m.job_key or m.name for m in ctx.metrics})
    near = [t for t in ctx.targets if t.kind == "near"]
    rows = []
    for c in cells:
        label = c.label + (f" (and {len(c.aliases)} more with the same rules)"
                           if c.aliases else "")
        n = ctx.plan.trials(c.blocks)
        row = {"cell": label, **c.settings, "policy": c.policy, "verdict": c.verdict,
               "failed_on": c.failed_on or None, "n": n, "same_rules_as": c.aliases,
               "seconds": c.seconds}
        for name, st in c.stats.items():
            row[name] = {k: v for k, v in st.items() if k != "sd"}
        if near:
            row["in_race"] = c.in_race and c.verdict != "fails"
            row["certified_farther"] = c.verdict != "fails" and not c.in_race
            row["distance"] = {t.text: distance(c.stats[t.metric], t.value)
                               for t in near if t.metric in c.stats}
        rows.append(row)
    closest = {}
    for t in near:
        alive = [r for r in rows if r["verdict"] != "fails" and t.text in r.get("distance", {})]
        alive.sort(key=lambda r: r["distance"][t.text]["estimate"])
        closest[t.text] = [{"cell": r["cell"], "distance": r["distance"][t.text],
                            "certified_farther": r["certified_farther"]} for r in alive]
    eliminated = {}
    for c in cells:
        if c.verdict == "fails":
            eliminated[c.failed_on] = eliminated.get(c.failed_on, 0) + 1
    grid = equal_grid(ctx, cells, alpha, family, jobs)
    kernel_seconds = sum(c.seconds for c in cells)
    asymptotic = sorted({name for c in cells for name, rng in c.ranges.items() if rng is None})
    return {
        "game": ctx.game, "exact": False, "seed": ctx.seed,
        "targets": [t.text for t in ctx.targets], "cells": len(cells),
        "meets": sum(c.verdict == "meets" for c in cells),
        "fails": sum(c.verdict == "fails" for c in cells),
        "undecided": sum(c.verdict == "undecided" for c in cells),
        "eliminated_by_target": eliminated, "closest": closest, "rounds": rounds,
        "stopped_by": stopped_by, "first_round": ctx.plan.trials(GROUP), "keep": ctx.keep,
        "alpha": alpha, "intervals_in_family": family, "level_each": ctx.beta,
        "trials_spent": spent, "kernel_seconds": kernel_seconds, "wall_seconds": wall_seconds,
        "equal_grid": grid,
        "saving": (grid["trials"] / spent) if grid and spent else None,
        "saving_seconds": (grid["seconds"] / kernel_seconds) if grid and kernel_seconds else None,
        "asymptotic_metrics": asymptotic,
        "method": method_text(ctx, alpha, family, asymptotic),
        "rows": rows,
    }


def method_text(ctx, alpha: float, family: int, asymptotic: list[str]) -> str:
    """The method line: what the intervals are and under which conditions they hold."""
    text = (f"common random numbers (every cell plays the same blocks of the seed; each round "
            f"adds new blocks where a verdict is still open, more to the cells closest to a "
            f"bound). Each interval is a confidence sequence at level 1 − {alpha:g}/{family} "
            f"({family} = cells × target metrics, Bonferroni): it holds at every sample size "
            f"at once, so all intervals and verdicts hold together with probability "
            f"≥ {1 - alpha:g} wherever the search stops (decided, budget, time limit or "
            f"Ctrl-C). Metrics with a known range per trial (rates: [0, 1]) get the betting "
            f"confidence sequence (Waudby-Smith & Ramdas 2023), valid at any n; a sample that "
            f"never varied certifies nothing near its mean.")
    if asymptotic:
        text += (f" {', '.join(asymptotic)}: no known range per trial, so its interval is the "
                 f"asymptotic normal-mixture confidence sequence, which holds as n grows, not "
                 f"at small n.")
    return text + " Undecided cells carry no claim."


def flat_rows(result: dict) -> list[dict]:
    """One flat row per cell: settings, verdict, and each statistic's estimate and interval
    (a ``~`` target's distance as ``distance[TARGET]``); no timings, so a rerun writes the same
    bytes."""
    rows = []
    for r in result["rows"]:
        row = {k: v for k, v in r.items() if not isinstance(v, (dict, list)) and k != "seconds"}
        stats = {k: v for k, v in r.items() if isinstance(v, dict) and "estimate" in v}
        for target, v in (r.get("distance") or {}).items():
            stats[f"distance[{target}]"] = v
        for k, v in stats.items():
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
