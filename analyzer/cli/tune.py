"""`pushluck tune`: which house rule gives the game the properties the group wants?"""
from __future__ import annotations

from typing import List, Optional

import typer
from typing import Annotated

from analyzer.games import REGISTRY
from analyzer.options import JsonOpt, OutOpt, RulesOpt, SeedOpt, SetOpt, seed_note


def tune(game: Annotated[str, typer.Argument(
             metavar="GAME", help="A game: " + ", ".join(REGISTRY) + ".")],
         sweep: Annotated[Optional[List[str]], typer.Option(
             "--sweep", help="KEY=V1,V2,… over a rule key (or policy); repeat for a grid.")]
         = None,
         metric: Annotated[Optional[List[str]], typer.Option(
             "--metric", help="Metric to estimate (repeatable); the first one ranks. "
                              "`--list-metrics` shows them.")] = None,
         policy: Annotated[Optional[str], typer.Option(
             "--policy", metavar="POLICY",
             help="Playing policy for every cell (default: the metric's).")] = None,
         n: Annotated[int, typer.Option(
             "-n", "--trials", min=1, metavar="N",
             help="Trials per cell (the game's unit: turns, games, deals or rounds).")]
         = 1_000_000,
         top: Annotated[int, typer.Option(help="Re-run the best this many on a fresh stream.")]
         = 3,
         rank: Annotated[str, typer.Option(help="Rank by the first metric: max or min.")]
         = "max",
         out: OutOpt = None,
         scheduler: Annotated[str, typer.Option(
             help="'local' (this machine) or a Dask scheduler tcp://HOST:PORT.")] = "local",
         list_metrics: Annotated[bool, typer.Option(
             "--list-metrics", help="List the game's metrics and exit.")] = False,
         seed: SeedOpt = None, time_limit: Annotated[Optional[float], typer.Option(
             "--time-limit", metavar="SECONDS",
             help="Start no new cell after this many seconds; the finished cells are shown "
                  "(no re-run).")] = None,
         rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Sweep house-rule values on common random numbers against the baseline rules.

    Examples:

      pushluck tune pig --sweep goal=50,100 --metric first_player_wins -n 100000

      pushluck tune trash-pandas --list-metrics

    Every cell of the Cartesian product of the --sweep values runs the same trials as the
    baseline (same seed and blocks), so differences are paired. Standard errors come from batch
    means over 128 independent blocks; intervals are Bonferroni-widened for the number of cells;
    the best --top cells are re-run on a fresh random stream to confirm the ranking.
    """
    from pathlib import Path

    from analyzer.games import get_game
    from analyzer.output import emit, note, table
    from analyzer.rng import resolve_seed
    from analyzer.tune import metrics_of, tune as run_tune

    get_game(game)  # an unknown game is refused before anything else, naming the games
    if list_metrics:
        ms = metrics_of(game)
        emit({"game": game, "metrics": [{"name": m.name, "description": m.description,
                                         "default_policy": m.default_policy} for m in ms]},
             json, lambda: "\n".join(f"{m.name:18} {m.description} (default policy "
                                     f"{m.default_policy})" for m in ms))
        return
    names = metric or [metrics_of(game)[0].name]
    seed, drawn = resolve_seed(seed)
    seed_note(seed, drawn, json)
    result = run_tune(game, sweep or [], names, policy, n, seed, rules_file, set_, scheduler, top,
                      rank, time_limit)
    if out:
        files = _write_outputs(result, Path(out))
        result["files"] = files
        note(f"wrote {', '.join(files)}")

    def render():
        head = names[0]
        rows = []
        for r in result["rows"]:
            line = [r["cell"], r["policy"]]
            for name in names:
                line.append(f"{r[name]:.5f} [{r[name + '_ci_low']:.5f}, "
                            f"{r[name + '_ci_high']:.5f}]")
                if r["cell"] == "baseline":
                    line.append("—")
                else:
                    mark = "*" if r[name + "_diff_significant"] else ""
                    line.append(f"{r[name + '_diff']:+.5f} [{r[name + '_diff_ci_low']:+.5f}, "
                                f"{r[name + '_diff_ci_high']:+.5f}]{mark}")
            rows.append(line)
        headers = ["cell", "policy"]
        for name in names:
            headers += [name, f"{name} − baseline"]
        text = [f"tune {game}: {result['cells']} cells × n = {n:,}, seed {seed}",
                f"method: {result['method']}", table(rows, headers, "l" * len(headers)),
                "* interval excludes 0",
                f"ranked by {head} ({rank}): " + " > ".join(result["ranked"][:5])]
        if result["rerun"]:
            text.append("re-run on a fresh stream:")
            text.append(table([[r["cell"], f"{r[head]:.5f} [{r[head + '_ci_low']:.5f}, "
                                           f"{r[head + '_ci_high']:.5f}]",
                                "—" if r["cell"] == "baseline" else
                                f"{r[head + '_diff']:+.5f} [{r[head + '_diff_ci_low']:+.5f}, "
                                f"{r[head + '_diff_ci_high']:+.5f}]"]
                               for r in result["rerun"]],
                              ["cell", head, f"{head} − baseline"], "lll"))
        return "\n".join(text)

    emit(result, json, render)


def _write_outputs(result: dict, target) -> list[str]:
    import pandas as pd

    from analyzer.charts import save_figure
    from analyzer.tables import write_table

    files = [str(p) for p in write_table(pd.DataFrame(result["rows"]), target / "cells")]
    if result["rerun"]:
        files += [str(p) for p in write_table(pd.DataFrame(result["rerun"]), target / "rerun")]
    names = result["metrics"]
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(names), figsize=(5.5 * len(names),
                                                     1.8 + 0.32 * len(result["rows"])),
                             squeeze=False)
    labels = [r["cell"] for r in result["rows"]]
    for ax, name in zip(axes[0], names):
        est = [r[name] for r in result["rows"]]
        lo = [r[name] - r[name + "_ci_low"] for r in result["rows"]]
        hi = [r[name + "_ci_high"] - r[name] for r in result["rows"]]
        ys = list(range(len(labels)))
        ax.errorbar(est, ys, xerr=[lo, hi], fmt="o", capsize=3)
        ax.axvline(result["rows"][0][name], color="grey", ls=":", label="baseline")
        ax.set_yticks(ys)
        ax.set_yticklabels(labels)
        ax.invert_yaxis()
        ax.set_xlabel(f"{name} (Bonferroni-widened 95% intervals)")
        ax.grid(True, alpha=0.3)
    fig.suptitle(f"tune {result['game']}: n = {result['n']:,} per cell, seed {result['seed']}")
    files += [str(p) for p in save_figure(fig, target / "cells")]
    return files


def register(root: typer.Typer) -> None:
    root.command("tune")(tune)
