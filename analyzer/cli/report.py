"""`pushluck report`: run batch-report recipes (tables, charts, index.md and index.html)."""
from __future__ import annotations

from typing import Optional

import typer
from typing import Annotated

from analyzer.options import JsonOpt

SchedulerOpt = Annotated[str, typer.Option(
    "--scheduler", help="'local' (this machine's cores) or a Dask scheduler tcp://HOST:PORT.")]



def _checked_out(value):
    """--out is checked before any work starts (an empty name is not "the default")."""
    if value is not None:
        from analyzer.output import check_output_dir

        check_output_dir(value)
    return value

def report(recipe: Annotated[Optional[str], typer.Argument(
               help="A recipe file, a recipe name under reports/recipes (e.g. pig), or 'all'.")]
           = None,
           out: Annotated[Optional[str], typer.Option(
               "--out", callback=_checked_out,
               help="Output folder (default ./pushluck-report/<recipe>, created in the current "
                    "folder; with 'all' the parent of one folder per recipe, default "
                    "./pushluck-report).")] = None,
           seed: Annotated[Optional[int], typer.Option(
               "--seed", min=0, help="Override the recipe's seed.")] = None,
           scheduler: SchedulerOpt = "local",
           list_: Annotated[bool, typer.Option("--list", help="List the recipes and exit.")]
           = False,
           json: JsonOpt = False):
    """Run a report recipe and write its folder: CSV/Markdown tables, PNG/SVG charts, index.

    Examples:

      pushluck report pig --out pig-report

      pushluck report pig

      pushluck report all --out all-reports

      pushluck report --list

    Every Monte Carlo number is printed with its interval, sample size and seed; the index states
    the rules, seed and package versions. Rerunning with the same seed skips parts already written
    (resume) and reproduces every file byte for byte. Files are written atomically.
    """
    from pathlib import Path

    from analyzer.errors import UserError
    from analyzer.output import emit
    from analyzer.report import available_recipes, load_recipe, recipe_path, run_recipe
    from analyzer.report_site import write_top_index

    if list_:
        rows = [{"recipe": p.stem, "path": str(p), "title": load_recipe(p).title}
                for p in available_recipes()]
        emit({"recipes": rows}, json, lambda: "\n".join(f"{r['recipe']:14} {r['title']}"
                                                        for r in rows))
        return
    if recipe is None:
        raise UserError("name a recipe (or 'all'); see `pushluck report --list`")
    default_root = Path("pushluck-report")
    if out is None:
        default_root.mkdir(exist_ok=True)
    if recipe == "all":
        from analyzer.output import preflight_out
        from analyzer.report import report_folder
        from analyzer.report_folder import check_folder, refuse_in_the_way

        root = Path(out) if out else default_root
        recipes = [load_recipe(p) for p in available_recipes()]  # every recipe checked first
        preflight_out("report all", root, {})
        for rec in recipes:  # and every folder: no link, no special file in the way
            folder = report_folder(root / rec.path.stem, root)
            check_folder(rec, folder, rec.seed if seed is None else seed)
            refuse_in_the_way(rec, folder)
        from analyzer.report_progress import ReportProgress

        site = [(rec.path.stem, rec.title) for rec in recipes]
        with ReportProgress(sum(len(rec.parts) for rec in recipes)) as bar:
            results = [run_recipe(rec, root / rec.path.stem, seed, scheduler, bar, root, site)
                       for rec in recipes]
        write_top_index(root, results)
        payload = {"out": str(root), "reports": results}
        emit(payload, json, lambda: "\n".join(
            [line for r in results for line in
             [f"wrote {r['out']}/index.html ({r['computed']} part(s) computed, {r['skipped']} "
              f"reused; seed {r['seed']})"] + [f"  - {t}" for t in r["findings"][:3]]] +
            [f"index of all reports: {root}/index.html"]))
        return
    path = recipe_path(recipe)
    rec = load_recipe(path)
    target = Path(out) if out else default_root / path.stem
    result = run_recipe(rec, target, seed, scheduler)
    emit(result, json, lambda: (
        f"{rec.title}: wrote {target}/index.md and index.html "
        f"({result['computed']} part(s) computed, {result['skipped']} reused; seed "
        f"{result['seed']})"))


def register(root: typer.Typer) -> None:
    root.command("report")(report)
