"""MAGDAGDON reports, tables and charts: the report part (``PARTS``), the score-distribution
chart and histogram table that both the report and `magdagdon simulate --out DIR` write.

The report section (``section``, the recipe's part): the final-score distribution per difficulty
under the default policy (greedy), from the empty board, with every Monte Carlo figure's interval.
pandas and matplotlib are imported inside the functions that draw or tabulate.
"""
from __future__ import annotations

import pathlib


DEFAULT_POLICY = "greedy"


def binned(histogram: dict, n: int, width: int = 10):
    """Score histogram {score: count} → (bin left edges, share of games per bin), empty bins
    included, for charts."""
    xs = sorted(int(k) for k in histogram)
    lo = (xs[0] // width) * width
    hi = (xs[-1] // width) * width
    edges = list(range(lo, hi + width, width))
    share = [0.0] * len(edges)
    for x in xs:
        share[(x - lo) // width] += histogram[str(x)] / n
    return edges, share


def score_figure(series, title: str):
    """Step chart of final-score shares (bins of 10 points), one line per (label, stats) with
    the stats of `simulate` (``histogram`` and ``score``)."""
    from analyzer.charts import new_figure

    fig, ax = new_figure()
    for label, st in series:
        edges, share = binned(st["histogram"], st["score"].n)
        ax.stairs(share, edges + [edges[-1] + 10],
                  label=f"{label} (mean {st['score'].estimate:.1f})")
    ax.set_xlabel("final score (bins of 10 points)")
    ax.set_ylabel("share of games")
    ax.set_title(title)
    ax.legend()
    return fig


def write_simulation(out_dir, series, diff_name: str, chart: bool) -> dict:
    """`simulate --out DIR [--chart]`: the score histogram of each policy as a table
    (``magdagdon_simulate_scores.csv``/``.md``: policy, score, games, share) and, with ``chart``,
    as a chart (``magdagdon_simulate_scores.png``/``.svg``). Returns the written paths by kind."""
    import pandas as pd

    from analyzer.tables import write_table

    base = pathlib.Path(out_dir) / "magdagdon_simulate_scores"
    rows = [{"difficulty": diff_name, "policy": label, "score": int(score), "games": count,
             "share": count / st["score"].n}
            for label, st in series for score, count in st["histogram"].items()]
    written = {"tables": [str(p) for p in write_table(pd.DataFrame(rows), base)]}
    if chart:
        from analyzer.charts import save_figure

        fig = score_figure(series, f"MAGDAGDON {diff_name}: final score distribution")
        written["chart"] = [str(p) for p in save_figure(fig, base)]
    return written


def _no_rules(params: dict, rules: dict) -> None:
    from analyzer.errors import UserError

    if rules:
        raise UserError("the magdagdon.section part takes no [rules] overrides (it reports "
                        "the default rules)")


def section_part(params: dict, rules: dict, seed: int):
    """Final scores from the empty board under the default policy, per difficulty: the score
    distribution with its quantiles, ruins, powers used and turns (a solo game: no seats)."""
    import pandas as pd

    from analyzer.balance import Finding
    from analyzer.charts import chart_files
    from analyzer.games.magdagdon.lineup import parse_policy
    from analyzer.games.magdagdon.play import simulate
    from analyzer.games.magdagdon.rules import DIFFICULTIES, MagdagdonRules, difficulty
    from analyzer.numbers import interval
    from analyzer.report import PartResult
    from analyzer.rules import build_rules
    from analyzer.runner import RunSpec
    from analyzer.tables import Col, people_table, table_files

    _no_rules(params, rules)
    quick = bool(params.get("quick", False))
    r = build_rules(MagdagdonRules)
    policy = parse_policy(DEFAULT_POLICY)
    n = 20_000 if quick else 300_000
    rows, series, shown = [], [], []
    for k, name in enumerate(DIFFICULTIES):
        diff = difficulty(r, name)
        out = simulate(r, diff, policy, RunSpec(n, seed + k, progress=False))
        s, q = out["score"], out["quantiles"]
        rows.append({
            "difficulty": diff.name, "policy": policy.label, "n": out["n"],
            "mean_score": s.estimate, "se": s.se, "ci_low": s.ci_low, "ci_high": s.ci_high,
            "sd": out["score_sd"].estimate, "q05": int(q["q05"].estimate),
            "q25": int(q["q25"].estimate), "median": int(q["q50"].estimate),
            "q75": int(q["q75"].estimate), "q95": int(q["q95"].estimate),
            "magdagdon_rolls": out["magdagdon_rolls"].estimate,
            "ruins": out["ruins"].estimate, "ruins_se": out["ruins"].se,
            "powers_used": out["powers_used"].estimate, "powers_used_se": out["powers_used"].se,
            "turns": out["turns"].estimate, "turns_se": out["turns"].se})
        shown.append({"diff": diff.name, "score": s, "sd": out["score_sd"].estimate,
                      "spread": f"{int(q['q05'].estimate)} / {int(q['q50'].estimate)} / "
                                f"{int(q['q95'].estimate)}",
                      "ruins": out["ruins"], "powers": out["powers_used"],
                      "rolls": out["magdagdon_rolls"], "turns": out["turns"], "q": q})
        series.append((diff.name, out))
    data = pd.DataFrame([{"difficulty": d, "bin": e, "share": sh}
                         for d, out in series
                         for e, sh in zip(*binned(out["histogram"], out["score"].n))])
    files = table_files(pd.DataFrame(rows), "magdagdon_scores")
    files.update(chart_files(score_figure(series, f"MAGDAGDON: final score by difficulty "
                                                  f"({policy.label} policy)"),
                             "magdagdon_scores", data))
    table = people_table(shown, [Col("difficulty", "diff"),
                                 Col("mean score", "score", "stat"),
                                 Col("spread (SD)", "sd", "number", 1),
                                 Col("5% / median / 95%", "spread"),
                                 Col("MAGDAGDON rolls per game", "rolls", "stat"),
                                 Col("ruins per game", "ruins", "stat"),
                                 Col("powers used per game", "powers", "stat"),
                                 Col("turns per game", "turns", "stat")])
    summary = "\n".join([
        f"Final score from the empty board under the `{policy.label}` policy (one-turn "
        "lookahead on the heuristic board value; powers only on a MAGDAGDON while the next "
        f"costs less than 22), n = {n:,} games per difficulty, 95% intervals. MAGDAGDON is a "
        "solo game: there are no seats to balance, so the figures a designer reads are the "
        "score's level and spread, the ruins and how long a game lasts.", "",
        "![MAGDAGDON: final score by difficulty](magdagdon_scores.svg)", "", table])
    found = []
    for k, x in enumerate(shown):
        q05, q95 = x["q"]["q05"], x["q"]["q95"]
        found.append(Finding(
            f"A {x['diff']} game scores {interval(x['score'])} points on average under the "
            f"{policy.label} policy; 90% of games score between {int(q05.estimate)} and "
            f"{int(q95.estimate)} (n = {x['score'].n:,}).", 1 if k == 0 else 11 + k))
        if k == 0:
            found.append(Finding(f"A {x['diff']} game sees {interval(x['ruins'])} ruins and "
                                 f"lasts {interval(x['turns'])} turns (n = {x['ruins'].n:,}).",
                                 2))
    return PartResult(files, summary, {
        "quick": quick, "findings": [f.to_json() for f in found],
        "key_chart": "magdagdon_scores",
        "how": f"Monte Carlo: whole solo games from the empty board, difficulty k seeded with "
               f"the part seed + k; means with normal 95% intervals, quantiles from the score "
               f"histogram."})


def _section_kind():
    from analyzer.report import PartKind
    from analyzer.report_params import Param

    return PartKind("magdagdon", "section", section_part,
                    "score distributions per difficulty under the default policy",
                    {"quick": Param("bool")}, _no_rules, tiny={"quick": True})


PARTS = [_section_kind()]


def _advice_settings(params: dict, rules: dict):
    """Rules and difficulty of the advice part (its settings check)."""
    from analyzer.games.magdagdon.rules import MagdagdonRules, difficulty
    from analyzer.rules import build_rules

    r = build_rules(MagdagdonRules, None, None, rules)
    return r, difficulty(r, str(params.get("difficulty", "peaceful")))


def advice_part(params: dict, rules: dict, seed: int):
    """Which power and when: the raced power rules (``pushluck magdagdon advice``)."""
    from analyzer.advice.cli import race_line
    from analyzer.advice.report import RACE_HOW, front_files, front_findings, report_race
    from analyzer.games.magdagdon.advice import advise, row
    from analyzer.games.magdagdon.lineup import parse_policy
    from analyzer.report import PartResult

    r, diff = _advice_settings(params, rules)
    res = advise(r, diff, parse_policy("greedy"), seed, int(params.get("rounds", 24)),
                 float(params.get("precision", 0.5)))
    rows = [row(x) for x in res["front"]]
    race = report_race(res["race"])
    files, md = front_files(rows, "points",
                            f"MAGDAGDON {diff.name}: which power and when (Monte Carlo)")
    summary = (f"Power rules (when to spend a power on a MAGDAGDON rather than accept the ruin, "
               f"and which) played in whole {diff.name} games with greedy placement on the same "
               f"dice; loss in final score against the best rule, 95% Bonferroni intervals, "
               f"surviving rules only.\n\n{race_line(race)}.\n\n" + md)
    found = front_findings(rows, f"points a {diff.name} game", "the best rule",
                           raced=race.get("candidates"))
    return PartResult(files, summary, {"exact": False, "front": rows, "race": race,
                                       "findings": [f.to_json() for f in found],
                                       "how": RACE_HOW})


def _advice_kind():
    from analyzer.report import PartKind
    from analyzer.report_params import Param

    return PartKind("magdagdon", "advice", advice_part,
                    "which power and when: raced rules of thumb",
                    {"difficulty": Param("str"), "rounds": Param("int", 1, 200),
                     "precision": Param("float", 1e-4, 100.0)}, _advice_settings,
                    tiny={"rounds": 1})


PARTS = PARTS + [_advice_kind()]
