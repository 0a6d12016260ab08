"""Report helpers for rules of thumb: the simplest rules and what they cost (the front) as a tidy
table and a loss-vs-complexity chart. pandas and matplotlib are imported inside the functions
(report parts only)."""
from __future__ import annotations

from typing import Sequence


def front_files(rows: Sequence[dict], unit: str, title: str, stem: str = "advice_front",
                exact: bool | None = None):
    """(files, markdown) for front rows as made by :func:`analyzer.advice.rule_row`; the
    Markdown leaves the interval columns out when ``exact`` (by default: when every interval
    has zero width). Raced rows (they say ``best_found``) get a ``verdict`` column: best found,
    not separated from the best found, or shown worse (:func:`analyzer.advice.words.verdict`)."""
    import json

    import pandas as pd

    from analyzer.charts import figure_files, new_figure
    from analyzer.tables import table_files, to_markdown

    def loss(r, key):
        L = r["loss"]
        return L if not isinstance(L, dict) else L[key]

    from analyzer.advice.words import verdict

    raced = any("best_found" in r for r in rows)
    df = pd.DataFrame([{"complexity": r["complexity"], "loss": loss(r, "estimate"),
                        "ci_low": loss(r, "ci_low"), "ci_high": loss(r, "ci_high"),
                        "rule": r["words"], "rule_data": json.dumps(r["rule"], sort_keys=True),
                        **({"verdict": verdict(r)} if raced else {})}
                       for r in rows])
    fig, ax = new_figure(7, 4.5)
    ax.errorbar(df.complexity, df.loss, yerr=[df.loss - df.ci_low, df.ci_high - df.loss],
                fmt="o-", capsize=4)
    for c, loss in zip(df.complexity, df.loss):
        ax.annotate(f"{loss:.4f}", (c, loss), textcoords="offset points", xytext=(4, 4))
    ax.set_xlabel("complexity (numbers + conditions to remember)")
    ax.set_ylabel(f"loss against the best policy ({unit})")
    ax.set_xticks(list(df.complexity))
    ax.set_ylim(bottom=min(0.0, float(df.ci_low.min())))
    ax.set_title(title)
    files = {**table_files(df, stem), **figure_files(fig, stem)}
    if exact is None:
        exact = bool((df.ci_low == df.ci_high).all())
    shown = df.drop(columns=["rule_data"] + (["ci_low", "ci_high"] if exact else []))
    return files, to_markdown(shown)


def raced_part(res: dict, unit: str, title: str, intro: str):
    """A report part from a :func:`analyzer.advice.race.race_family` result: the front as a
    table and a loss-vs-complexity chart, ``intro`` then the race's two costs as the summary."""
    from analyzer.advice.cli import race_line
    from analyzer.advice.race import candidate_row
    from analyzer.report import PartResult

    rows = [candidate_row(x) for x in res["front"]]
    files, md = front_files(rows, unit, title, exact=False)
    summary = f"{intro} {race_line(res['race'])}.\n\n" + md
    return PartResult(files, summary, {"exact": False, "front": rows, "race": res["race"]})
