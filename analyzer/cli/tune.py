"""`pushluck tune`: which house rule gives the game the properties the group wants?"""
from __future__ import annotations

from typing import List, Optional

import typer
from typing import Annotated

from analyzer.errors import UserError
from analyzer.games import REGISTRY
from analyzer.options import JsonOpt, OutOpt, RulesOpt, SeedOpt, SetOpt, seed_note, seats_option


def tune(game: Annotated[str, typer.Argument(
             metavar="GAME", help="A game: " + ", ".join(REGISTRY) + ".")],
         sweep: Annotated[Optional[List[str]], typer.Option(
             "--sweep", help="KEY=V1,V2,… over a rule key (or policy=P1,P2 for one player's "
                             "metrics); repeat for a grid; seats=LINE-UP, one line-up per "
                             "--sweep, for whole-game metrics.")]
         = None,
         metric: Annotated[Optional[List[str]], typer.Option(
             "--metric", help="Metric to estimate (repeatable); the first one ranks. "
                              "`--list-metrics` shows them.")] = None,
         policy: Annotated[Optional[str], typer.Option(
             "--policy", metavar="POLICY",
             help="The studied player's policy in every cell, for metrics of one player's "
                  "trials (Trash Pandas and Ten turns, MAGDAGDON games); default: the "
                  "metric's.")] = None,
         seats: seats_option("the line-up of every cell, for metrics of whole games between "
                             "seats (Pig, Go-Stop, Railroad Canasta, Trash Pandas whole "
                             "games); default: the metric's.", "POLICY,POLICY…") = None,
         n: Annotated[Optional[int], typer.Option(
             "-n", "--trials", min=1, max=10**10, metavar="N",
             help="Trials per cell in the game's unit (turns, games, deals or rounds): with "
                  "--sweep every cell's (default 1,000,000); with --target the first round's "
                  "(default 32,768, rounded down to a multiple of 16; later rounds add trials "
                  "to the undecided cells).")] = None,
         target: Annotated[Optional[List[str]], typer.Option(
             "--target", metavar="'METRIC in [LO, HI]' | 'METRIC ~ V'",
             help="Design to a target (repeatable): keep the cells whose metric certainly lies "
                  "in [LO, HI]; with '~ V', the cells closest to V.")] = None,
         space: Annotated[Optional[List[str]], typer.Option(
             "--space", metavar="KEY=LO..HI[:STEP] | KEY=V1,V2,…",
             help="The values a --target search explores (repeatable): a rule key, "
                  "policy=P1,P2 (one player's metrics), seats=LINE-UP (whole-game metrics; one "
                  "line-up per --space), or a bot knob where the game allows (Trash Pandas "
                  "whole games: stop-at=1..6).")]
         = None,
         alpha: Annotated[float, typer.Option(
             "--alpha", min=1e-9, max=0.5, metavar="A",
             help="With --target: all verdicts together are right with probability ≥ 1 − A.")]
         = 0.05,
         budget: Annotated[Optional[int], typer.Option(
             "--budget", min=1, max=10**13, metavar="TRIALS",
             help="With --target: spend at most this many trials in all (the first round "
                  "always runs); the cells closest to a verdict get them first.")]
         = None,
         keep: Annotated[int, typer.Option(
             "--keep", min=1, max=1000, metavar="K",
             help="With a '~' target: stop once at most K cells remain in the race.")] = 1,
         chart: Annotated[bool, typer.Option(
             "--chart", help="With --out: draw the chart (heat maps of the verdicts with "
                             "--target).")] = False,
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
             help="Start no new cell (with --sweep) or round (with --target) after this many "
                  "seconds; what finished is shown (no re-run).")] = None,
         rules_file: RulesOpt = None, set_: SetOpt = None, json: JsonOpt = False):
    """Sweep house-rule values on common random numbers against the baseline rules.

    Examples:

      pushluck tune pig --sweep goal=50,100 --metric p_first_wins -n 100000

      pushluck tune trash-pandas --target "turn_value in [2.9, 3.3]" --space bonus_cap=1..5 --seed 1

      pushluck tune pig --target "p_first_wins ~ 0.55" --space goal=20..100:10 --seats hold:20

      pushluck tune trash-pandas --list-metrics

    With --target (designing house rules to a target): a search over the --space cells on
    common random numbers; the first round screens every cell, later rounds add trials only to
    the cells still undecided, most to those closest to a bound. A cell is kept when its
    interval lies inside every "in" target, eliminated when it lies outside one; with "~ V" the
    closest cells come first, with their distance. Each interval is a confidence sequence at
    level 1 − alpha/K (K = cells × target metrics): valid at every sample size, so all verdicts
    together hold with probability ≥ 1 − alpha wherever the search stops. Conditions: a metric
    with a known range per trial (rates, and metrics that declare one) gets the betting
    confidence sequence, valid at any n; one without gets an asymptotic one (valid as n grows),
    and the method line says so. It prints the trials and seconds spent beside a grid with the
    same guarantee (one n for every cell, its own Bonferroni z). With --out, the search takes
    the folder's lock, saves its state after each round, writes what finished after a Ctrl-C,
    and an interrupted search resumes from it.

    With --sweep:
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
        import textwrap

        ms = metrics_of(game)
        ranges = [m.range_for(m.rules_cls(), m.default_policy) for m in ms]

        def said(rng) -> str:
            return (f"per-trial range [{rng[0]:g}, {rng[1]:g}]" if rng else
                    "no known range: asymptotic intervals with --target")

        def flag(m) -> str:
            return "--seats" if m.lineup else "--policy"

        emit({"game": game, "metrics": [{"name": m.name, "description": m.description,
                                         "default_policy": m.default_policy,
                                         "played_by": flag(m),
                                         "range": list(rng) if rng else None}
                                        for m, rng in zip(ms, ranges)]},
             json, lambda: "\n".join(textwrap.fill(
                 f"{m.name:19} {m.description} (default {flag(m)} {m.default_policy}; "
                 f"{said(rng)})", 80, subsequent_indent=" " * 20)
                 for m, rng in zip(ms, ranges)))
        return
    if target or space:
        if sweep:
            raise UserError("--target/--space and --sweep are two different searches: "
                            "give one of them")
        if chart and not out:
            raise UserError("--chart needs --out DIR")
        from analyzer.tune import get_metric, play_text, seats_entries
        from analyzer.tune_target import parse_target, validate

        names = dict.fromkeys(parse_target(t).metric for t in target or [])
        chosen = [get_metric(game, m) for m in names]
        policy = play_text(game, chosen, policy, seats)
        space = seats_entries("--space", space or [], chosen)
        validate(game, target or [], space or [], policy, rules_file, set_)
        seed, drawn = resolve_seed(seed)
        seed_note(seed, drawn, json)
        return _target_search(game, target or [], space or [], policy, n or 32_768, seed,
                              rules_file, set_, scheduler, alpha, budget, time_limit, keep, out,
                              chart, json)
    if chart and not out:
        raise UserError("--chart needs --out DIR")
    n = n or 1_000_000
    names = metric or [metrics_of(game)[0].name]
    from analyzer.tune import get_metric, play_text, seats_entries

    chosen = [get_metric(game, m) for m in names]
    policy = play_text(game, chosen, policy, seats)
    sweep = seats_entries("--sweep", sweep or [], chosen)
    seed, drawn = resolve_seed(seed)
    seed_note(seed, drawn, json)
    result = run_tune(game, sweep or [], names, policy, n, seed, rules_file, set_, scheduler, top,
                      rank, time_limit)
    if out:
        files = _write_outputs(result, Path(out), chart)
        result["files"] = files
        note(f"wrote {', '.join(files)}")

    from analyzer.tune_text import render_sweep

    emit(result, json, lambda: render_sweep(result, names, n))


def _target_search(game, targets, space, policy, n0, seed, rules_file, sets, scheduler, alpha,
                   budget, time_limit, keep, out, chart, as_json) -> None:
    """A `--target` search; with ``--out`` under the folder's lock, saving its state after every
    round and writing what finished even after a Ctrl-C (marked interrupted)."""
    import contextlib
    from pathlib import Path

    from analyzer.output import emit, note
    from analyzer.tune_target import SearchState, build_space_keys, search
    from analyzer.tune_text import render_search

    state = None
    lock = contextlib.nullcontext()
    if out:
        from analyzer.output import FolderLock

        lock = FolderLock(Path(out), "tune search")
        state = SearchState(out, {"game": game, "targets": targets, "space": space,
                                  "policy": policy, "n0": n0, "seed": seed, "alpha": alpha,
                                  "rules": rules_file, "sets": sets, "keep": keep})
    with lock:
        result = search(game, targets, space, policy, n0, seed, rules_file, sets, scheduler,
                        alpha, budget, time_limit, keep, state=state)
        keys = build_space_keys(game, targets, space)
        if out:
            from analyzer.errors import mark_interrupted
            from analyzer.interrupts import held, sigint_seen
            from analyzer.tune_report import write_search_outputs

            with held(quiet=True):  # a Ctrl-C now is recorded; what finished is written whole
                result["files"] = write_search_outputs(result, keys, Path(out), chart)
            if sigint_seen():
                mark_interrupted()
            note(f"wrote {', '.join(result['files'])}")
    emit(result, as_json, lambda: render_search(result, keys, out))


def _write_outputs(result: dict, target, chart: bool = True) -> list[str]:
    import pandas as pd

    from analyzer.charts import save_figure
    from analyzer.tables import write_table

    from analyzer.tune_report import flat_rows

    files = [str(p) for p in write_table(pd.DataFrame(flat_rows(result)), target / "cells")]
    if result["rerun"]:
        files += [str(p) for p in write_table(pd.DataFrame(flat_rows(
            {"rows": result["rerun"]})), target / "rerun")]
    if not chart:
        return files
    names = result["metrics"]
    import matplotlib.pyplot as plt

    cells = [r for r in result["rows"] if r["cell"] != "baseline"]
    fig, axes = plt.subplots(1, len(names), figsize=(6.5 * len(names), 1.6 + 0.35 * len(cells)),
                             squeeze=False, sharey=True)
    ys = list(range(len(cells)))
    for ax, name in zip(axes[0], names):
        d = [r[f"{name}_vs_baseline"] for r in cells]
        est = [x["estimate"] for x in d]
        colours = ["tab:green" if x["effect"] == "higher" else "tab:red"
                   if x["effect"] == "lower" else "grey" for x in d]
        for y, e, x, c in zip(ys, est, d, colours):
            ax.errorbar([e], [y], xerr=[[e - x["ci_low"]], [x["ci_high"] - e]], fmt="o",
                        color=c, capsize=3)
        ax.axvline(0.0, color="black", lw=0.8)
        ax.set_xlabel(f"{name}: cell − baseline (paired)", fontsize=9)
        ax.grid(True, alpha=0.3)
    axes[0][0].set_yticks(ys, [r["cell"] for r in cells], fontsize=8)
    axes[0][0].invert_yaxis()
    fig.suptitle(f"tune {result['game']}: paired differences from the baseline", fontsize=10)
    fig.text(0.01, 0.0, f"all intervals together ≥ 95% (Bonferroni over "
                        f"{result['intervals_in_family']}); n = {result['n']:,} per cell; "
                        f"seed {result['seed']}", fontsize=7, va="top")
    fig.tight_layout()
    files += [str(p) for p in save_figure(fig, target / "cells")]
    return files


def register(root: typer.Typer) -> None:
    root.command("tune")(tune)
