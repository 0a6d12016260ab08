"""`make run` section for MAGDAGDON: the final-score distribution per difficulty under the
default policy (greedy), from the empty board, with every Monte Carlo figure's interval."""
from __future__ import annotations

import pathlib

DEFAULT_POLICY = "greedy"


def report_section(out_dir: pathlib.Path, seed: int, quick: bool = False) -> str:
    import pandas as pd

    from analyzer.charts import new_figure, save_figure
    from analyzer.games import magdagdon as M
    from analyzer.games.magdagdon_play import binned, parse_policy, simulate
    from analyzer.rules import build_rules
    from analyzer.tables import write_table

    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rules = build_rules(M.MagdagdonRules)
    policy = parse_policy(DEFAULT_POLICY)
    n = 20_000 if quick else 300_000
    rows = []
    fig, ax = new_figure()
    for k, name in enumerate(M.DIFFICULTIES):
        diff = M.difficulty(rules, name)
        out = simulate(rules, diff, policy, n, seed + k)
        s = out["score"]
        q = out["quantiles"]
        rows.append({
            "difficulty": diff.name, "policy": policy.label, "n": out["n"], "seed": seed + k,
            "mean_score": s.estimate, "se": s.se, "ci_low": s.ci_low, "ci_high": s.ci_high,
            "sd": out["score_sd"], "q05": q["q05"], "q25": q["q25"], "median": q["q50"],
            "q75": q["q75"], "q95": q["q95"],
            "magdagdon_rolls": out["magdagdon_rolls"].estimate,
            "ruins": out["ruins"].estimate, "ruins_se": out["ruins"].se,
            "powers_used": out["powers_used"].estimate, "powers_used_se": out["powers_used"].se,
            "turns": out["turns"].estimate, "turns_se": out["turns"].se})
        edges, share = binned(out["histogram"], out["n"])
        ax.stairs(share, edges + [edges[-1] + 10], label=f"{diff.name} (mean {s.estimate:.1f})")
    ax.set_xlabel("final score (bins of 10 points)")
    ax.set_ylabel("share of games")
    ax.set_title(f"MAGDAGDON final score by difficulty ({policy.label} policy)")
    ax.legend()
    save_figure(fig, out_dir / "magdagdon_scores")
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
