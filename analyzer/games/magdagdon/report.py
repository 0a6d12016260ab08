"""MAGDAGDON reports, tables and charts: the report part (``PARTS``), the score-distribution
chart and histogram table that both the report and `magdagdon simulate --out DIR` write.

The report section (``section``, the recipe's part): the final-score distribution per difficulty
under the default policy (greedy), from the empty board, with every Monte Carlo figure's interval.
pandas and matplotlib are imported inside the functions that draw or tabulate.
"""
from __future__ import annotations

import pathlib

from analyzer.report import section_part

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


def report_section(out_dir: pathlib.Path, seed: int, quick: bool = False) -> str:
    import pandas as pd

    from analyzer.charts import save_figure
    from analyzer.games.magdagdon.lineup import parse_policy
    from analyzer.games.magdagdon.play import simulate
    from analyzer.games.magdagdon.rules import DIFFICULTIES, MagdagdonRules, difficulty
    from analyzer.rules import build_rules
    from analyzer.runner import RunSpec
    from analyzer.tables import write_table

    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rules = build_rules(MagdagdonRules)
    policy = parse_policy(DEFAULT_POLICY)
    n = 20_000 if quick else 300_000
    rows = []
    series = []
    for k, name in enumerate(DIFFICULTIES):
        diff = difficulty(rules, name)
        out = simulate(rules, diff, policy, RunSpec(n, seed + k))
        s = out["score"]
        q = out["quantiles"]
        rows.append({
            "difficulty": diff.name, "policy": policy.label, "n": out["n"], "seed": seed + k,
            "mean_score": s.estimate, "se": s.se, "ci_low": s.ci_low, "ci_high": s.ci_high,
            "sd": out["score_sd"].estimate, "q05": int(q["q05"].estimate), "q25": int(q["q25"].estimate),
            "median": int(q["q50"].estimate), "q75": int(q["q75"].estimate),
            "q95": int(q["q95"].estimate),
            "magdagdon_rolls": out["magdagdon_rolls"].estimate,
            "ruins": out["ruins"].estimate, "ruins_se": out["ruins"].se,
            "powers_used": out["powers_used"].estimate, "powers_used_se": out["powers_used"].se,
            "turns": out["turns"].estimate, "turns_se": out["turns"].se})
        series.append((diff.name, out))
    save_figure(score_figure(series, f"MAGDAGDON final score by difficulty ({policy.label} "
                                     f"policy)"), out_dir / "magdagdon_scores")
    df = pd.DataFrame(rows)
    write_table(df, out_dir / "magdagdon_scores")
    lines = ["## MAGDAGDON", "",
             f"Final score from the empty board under the `{policy.label}` policy (one-turn "
             "lookahead on the heuristic board value; powers only on a MAGDAGDON while the next "
             "costs less than 22). Means with their 95% intervals (± half-width); n games per "
             "difficulty; seeds "
             f"{seed}–{seed + 2}.", "",
             "| difficulty | n | mean score [95% CI] | SD | 5% / median / 95% | ruins / game | "
             "powers / game | turns / game |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['difficulty']} | {r['n']:,} | {r['mean_score']:.2f} "
                     f"[{r['ci_low']:.2f}, {r['ci_high']:.2f}] | {r['sd']:.1f} | {r['q05']} / "
                     f"{r['median']} / {r['q95']} | {r['ruins']:.3f} ± {1.96 * r['ruins_se']:.3f} | "
                     f"{r['powers_used']:.3f} ± {1.96 * r['powers_used_se']:.3f} | "
                     f"{r['turns']:.2f} ± {1.96 * r['turns_se']:.2f} |")
    lines += ["", "Tables: `magdagdon_scores.csv` / `.md`; chart: `magdagdon_scores.png` / "
              "`.svg`.", ""]
    return "\n".join(lines)


PARTS = [section_part("magdagdon", report_section, "section",
                      "score distributions per difficulty under the default policy")]


def _advice_settings(params: dict, rules: dict):
    """Rules and difficulty of the advice part (its settings check)."""
    from analyzer.games.magdagdon.rules import MagdagdonRules, difficulty
    from analyzer.rules import build_rules

    r = build_rules(MagdagdonRules, None, None, rules)
    return r, difficulty(r, str(params.get("difficulty", "peaceful")))


def advice_part(params: dict, rules: dict, seed: int):
    """Which power and when: the raced power rules (``pushluck magdagdon advice``)."""
    from analyzer.advice.cli import race_line
    from analyzer.advice.report import front_files
    from analyzer.games.magdagdon.advice import advise, row
    from analyzer.games.magdagdon.lineup import parse_policy
    from analyzer.report import PartResult

    r, diff = _advice_settings(params, rules)
    res = advise(r, diff, parse_policy("greedy"), seed, int(params.get("rounds", 24)),
                 float(params.get("precision", 0.5)))
    rows = [row(x) for x in res["front"]]
    files, md = front_files(rows, "points",
                            f"MAGDAGDON {diff.name}: which power and when (Monte Carlo)")
    summary = (f"Power rules (when to spend a power on a MAGDAGDON rather than accept the ruin, "
               f"and which) played in whole {diff.name} games with greedy placement on the same "
               f"dice (seed {seed}); loss in final score against the best rule, 95% Bonferroni "
               f"intervals, surviving rules only. {race_line(res['race'])}.\n\n" + md)
    return PartResult(files, summary, {"exact": False, "front": rows, "race": res["race"]})


def _advice_kind():
    from analyzer.report import PartKind
    from analyzer.report_params import Param

    return PartKind("magdagdon", "advice", advice_part,
                    "which power and when: raced rules of thumb",
                    {"difficulty": Param("str"), "rounds": Param("int", 1, 200),
                     "precision": Param("float", 1e-4, 100.0)}, _advice_settings)


PARTS = PARTS + [_advice_kind()]
