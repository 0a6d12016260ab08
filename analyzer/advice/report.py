"""Report helpers for rules of thumb: the Pareto front as a table for people, its tidy CSV, a
loss-against-complexity chart (only with two rules or more; one rule is a sentence), and the
findings it supports. pandas and matplotlib are imported inside the functions (report parts
only)."""
from __future__ import annotations

from typing import Sequence


def _loss(r: dict):
    """A front row's loss as a statistic object (zero width for an exact loss)."""
    from analyzer.stats import Statistic

    L = r["loss"]
    if not isinstance(L, dict):
        return Statistic(float(L), 0.0, float(L), float(L), 0)
    se = L.get("se")
    if se is None:
        se = (L["ci_high"] - L["ci_low"]) / 3.92
    return Statistic(L["estimate"], se, L["ci_low"], L["ci_high"], int(L.get("n") or 0))


def front_files(rows: Sequence[dict], unit: str, title: str, stem: str = "advice_front",
                exact: bool | None = None):
    """(files, markdown) for front rows as made by :func:`analyzer.advice.rule_row`: the tidy
    CSV, a table for people (rule, numbers to remember, loss; the interval only when the loss
    is a Monte Carlo figure, by default when any interval has width) and, with two rules or
    more, the chart of loss against complexity (placed in the Markdown). Raced rows (they say
    ``best_found``) get a verdict column: best found, not separated from the best found, or
    shown worse (:func:`analyzer.advice.words.verdict`)."""
    import json

    import pandas as pd

    from analyzer.charts import chart_files, enough_points, fit_intervals, new_figure
    from analyzer.tables import Col, people_table, table_files

    from analyzer.advice.words import verdict

    stats = [_loss(r) for r in rows]
    raced = any("best_found" in r for r in rows)
    df = pd.DataFrame([{"complexity": r["complexity"], "loss": s.estimate, "ci_low": s.ci_low,
                        "ci_high": s.ci_high, "rule": r["words"],
                        "rule_data": json.dumps(r["rule"], sort_keys=True),
                        **({"verdict": verdict(r)} if raced else {})}
                       for r, s in zip(rows, stats)])
    if exact is None:
        exact = all(s.ci_low == s.ci_high for s in stats)
    files = table_files(df, stem)
    md = []
    points = df[["complexity", "loss", "ci_low", "ci_high"]]
    if enough_points(points):
        fig, ax = new_figure(7, 4.2)
        ax.errorbar(df.complexity, df.loss, yerr=[df.loss - df.ci_low, df.ci_high - df.loss],
                    fmt="o-", capsize=4)
        ax.set_xlabel("complexity (numbers and conditions to remember)")
        ax.set_ylabel(f"loss against the best ({unit})")
        ax.set_xticks(list(df.complexity))
        fit_intervals(ax, list(df.ci_low), list(df.ci_high), floor=min(0.0, df.ci_low.min()))
        ax.set_title(title, fontsize=11)
        files.update(chart_files(fig, stem, points))
        md += [f"![{title}: loss against complexity"
               + ("" if exact else ", 95% intervals") + f"]({stem}.svg)", ""]
    kind = "number" if exact else "stat"
    loss_header = f"loss ({unit})" + ("" if exact else ", 95% interval")
    table_rows = [{"rule": r["words"], "cx": r["complexity"],
                   "loss": s.estimate if exact else s,
                   "verdict": verdict(r) if raced else ""} for r, s in zip(rows, stats)]
    cols = [Col("rule of thumb", "rule"), Col("numbers to remember", "cx", "int"),
            Col(loss_header, "loss", kind, 4 if exact else None)]
    md.append(people_table(table_rows, cols + ([Col("verdict", "verdict")] if raced else [])))
    if not enough_points(points):
        md.append("One rule is on the front, so there is no trade-off to chart.")
    return files, "\n".join(md)


def _is_reference(st) -> bool:
    """A loss of exactly nothing: the rule every other rule is measured against."""
    return st.ci_low == st.ci_high and abs(st.estimate) < 1e-12


def front_findings(rows: Sequence[dict], unit: str, against: str, priority: int = 3,
                   raced: int | None = None) -> list:
    """The sentences a front supports: the simplest rule and what it costs against ``against``
    (the best rule or optimal play) and, when another rule costs clearly less, that one too.
    When the simplest rule is the best itself (loss exactly 0) the sentence says so, naming
    the ``raced`` rules it beat when given."""
    from analyzer.balance import Finding
    from analyzer.numbers import interval

    if not rows:
        return []
    stats = [_loss(r) for r in rows]
    order = sorted(range(len(rows)), key=lambda i: rows[i]["complexity"])
    simple = order[0]

    def quote(r):
        return "\u201c" + r["words"].rstrip(". ") + "\u201d"

    def cost(s):
        return interval(s, 4 if s.ci_low == s.ci_high else None)

    st = stats[simple]
    if _is_reference(st):
        among = f" of the {raced:,} rules raced" if raced else ""
        return [Finding(f"The best rule{among} is also the simplest: {quote(rows[simple])}"
                        + (f" (n = {st.n:,})" if st.n else "") + ".", priority)]
    if st.ci_low <= 0.0 <= st.ci_high and st.ci_low < st.ci_high:
        return [Finding(f"No loss detected for the simplest rule of thumb, "
                        f"{quote(rows[simple])}, against {against}: {cost(st)} {unit}"
                        + (f" (n = {st.n:,})" if st.n else "") + ".", priority)]
    out = [Finding(f"The simplest rule of thumb, {quote(rows[simple])}, gives up "
                   f"{cost(stats[simple])} {unit} against {against}"
                   + (f" (n = {stats[simple].n:,})" if stats[simple].n else "") + ".", priority)]
    best = min(range(len(rows)), key=lambda i: (stats[i].estimate, rows[i]["complexity"]))
    if best != simple and stats[best].ci_high < stats[simple].ci_low:
        b = stats[best]
        if _is_reference(b):  # the rule the others are measured against
            out.append(Finding(f"The best rule found is {quote(rows[best])}.", priority + 1))
        else:
            out.append(Finding(f"The best rule found, {quote(rows[best])}, gives up "
                               f"{cost(b)} {unit}.", priority + 1))
    return out


def exact_part(rows: Sequence[dict], unit: str, title: str, intro: str, how: str,
               against: str = "optimal play"):
    """A report part of an exact front: the table, the chart (two rules or more), ``intro``
    as the summary's opening and the findings of the front against ``against``."""
    from analyzer.report import PartResult

    files, md = front_files(rows, unit, title)
    found = front_findings(rows, unit, against)
    return PartResult(files, f"{intro}\n\n" + md, {
        "exact": True, "front": list(rows), "findings": [f.to_json() for f in found],
        "key_chart": "advice_front" if "advice_front.png" in files else None, "how": how})


def report_race(race: dict) -> dict:
    """A race's cost without its timings (``seconds``, the grid's ``seconds``): what a report
    part quotes and keeps, so that a part computed again with the same seed writes the same
    bytes (the race line then speaks of trials only)."""
    out = {k: v for k, v in race.items() if k != "seconds"}
    if isinstance(out.get("grid"), dict):
        out["grid"] = {k: v for k, v in out["grid"].items() if k != "seconds"}
    return out


#: the method of a raced part, for its "how this was computed" box
RACE_HOW = ("Racing: every rule plays the same games (common random numbers) in rounds; a rule "
            "whose Bonferroni 95% interval lies clearly behind the best is dropped.")


def raced_part(res: dict, unit: str, title: str, intro: str, against: str = "the best rule"):
    """A report part from a :func:`analyzer.advice.race.race_family` result: the front as a
    table and a loss-vs-complexity chart, ``intro`` then the race's two costs as the summary."""
    from analyzer.advice.cli import race_line
    from analyzer.advice.race import candidate_row
    from analyzer.report import PartResult

    rows = [candidate_row(x) for x in res["front"]]
    race = report_race(res["race"])
    files, md = front_files(rows, unit, title, exact=False)
    summary = f"{intro}\n\n{race_line(race)}.\n\n" + md
    return PartResult(files, summary, {
        "exact": False, "front": rows, "race": race,
        "findings": [f.to_json() for f in front_findings(
            rows, unit, against, raced=race.get("candidates"))],
        "how": RACE_HOW})
