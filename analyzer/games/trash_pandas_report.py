"""The default Trash Pandas analysis: optimal policy tables, a Monte Carlo check, a chart."""
from __future__ import annotations

from pathlib import Path

from analyzer.games.trash_pandas import (MAIN, TrashPandasRules, TurnSolver, ValueModel,
                                         popcount)

HANDS = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 1)]  # (Blammo!, Nanners, MMM Pie!) in hand
POLICIES = ["optimal", "stop-at:2", "stop-at:3", "stop-at:6"]


def write_report(out_dir: Path, seed: int, turns: int, values: ValueModel = ValueModel(),
                 rules: TrashPandasRules = TrashPandasRules()) -> dict:
    import pandas as pd

    from analyzer.games.trash_pandas_policy import parse_policy, simulate
    from analyzer.tables import to_markdown, write_table

    out_dir = Path(out_dir) / "trash-pandas"
    solver = TurnSolver(values, rules)
    files = []
    policy_frames = []
    for b, n, p in HANDS:
        df = pd.DataFrame(solver.policy_rows(b, n, p))
        df.insert(0, "pie", p)
        df.insert(0, "nanners", n)
        df.insert(0, "blammo", b)
        policy_frames.append(df)
    policy = pd.concat(policy_frames, ignore_index=True)
    files += write_table(policy, out_dir / "policy")

    rows = []
    for i, (b, n, p) in enumerate(HANDS):
        for j, name in enumerate(POLICIES):
            res = simulate(parse_policy(name), values, rules, b, n, p, turns,
                           seed + 100 * i + j, progress=False)
            for key in ("mean_value", "bust_rate", "mean_tokens", "p_all_six"):
                s = res[key]
                rows.append({"blammo": b, "nanners": n, "pie": p, "policy": name,
                             "statistic": key, "estimate": s.estimate, "se": s.se,
                             "ci_low": s.ci_low, "ci_high": s.ci_high, "n": s.n,
                             "exact": s.exact_value, "z": s.z_from_exact(),
                             "seed": res["seed"]})
    check = pd.DataFrame(rows)
    files += write_table(check, out_dir / "mc_check")
    files += _chart(solver, out_dir / "values_by_tokens")

    worst = float(check["z"].abs().max())
    main0 = policy[(policy.blammo == 0) & (policy.nanners == 0) & (policy.pie == 0)
                   & (policy.turn == "main")]
    short = main0[["held", "tokens", "p_bust_next", "decision", "ev_stop", "ev_roll"]]
    values_check = check[check.statistic == "mean_value"][
        ["blammo", "nanners", "pie", "policy", "estimate", "se", "ci_low", "ci_high", "exact",
         "z"]]
    md = "\n".join([
        "## Trash Pandas",
        "",
        f"Value model: {values.__dict__} (card-equivalents). Rules: {rules.__dict__}.",
        "",
        f"Value of a whole turn under optimal play, no cards in hand: "
        f"{solver.turn_value(0, 0, 0):.6f} (exact).",
        "",
        "### Optimal policy, no cards in hand (main turn, exact)",
        "",
        to_markdown(short),
        "### Monte Carlo check of the exact values (value per turn)",
        "",
        f"n = {turns:,} turns per row; seed {seed} + 100·hand + policy index (column `seed` in "
        f"mc_check.csv). Largest |z| over all {len(check)} statistics: {worst:.2f}.",
        "",
        to_markdown(values_check),
        "![bust odds and values by tokens held](values_by_tokens.png)",
        "",
    ])
    from analyzer.output import atomic_write_text

    atomic_write_text(out_dir / "README.md", md)
    files.append(out_dir / "README.md")
    return {"game": "trash-pandas", "seed": seed, "turns": turns, "max_abs_z": worst,
            "files": [str(f) for f in files], "markdown": md}


def _chart(solver: TurnSolver, base: Path):
    from analyzer.charts import new_figure, save_figure

    fig, ax = new_figure(9, 5.5)
    ks = list(range(6))
    for (b, n, p), style in (((0, 0, 0), "-"), ((1, 1, 1), "--")):
        stop_mean, roll_mean, lo, hi = [], [], [], []
        for k in ks:
            sets = [h for h in range(64) if popcount(h) == k]
            stops = [solver.stop(MAIN, h, p) for h in sets]
            rolls = [solver.roll(MAIN, h, b, n, p) for h in sets]
            stop_mean.append(sum(stops) / len(stops))
            roll_mean.append(sum(rolls) / len(rolls))
            lo.append(min(rolls))
            hi.append(max(rolls))
        tag = f"Blammo! {b}, Nanners {n}, Pie {p}"
        ax.plot(ks, stop_mean, "o" + style, color="tab:blue", label=f"stop value ({tag})")
        ax.plot(ks, roll_mean, "s" + style, color="tab:orange", label=f"roll value ({tag})")
        ax.fill_between(ks, lo, hi, color="tab:orange", alpha=0.12)
    ax.set_xlabel("tokens held")
    ax.set_ylabel("value (card-equivalents; mean over held sets, band: min–max roll value)")
    ax2 = ax.twinx()
    ax2.plot(ks, [k / 6 for k in ks], ":", color="tab:red", label="P(next roll busts), no cards")
    ax2.plot(ks, [(k / 6) ** 2 for k in ks], "-.", color="tab:red", alpha=0.6,
             label="P(bust after 1 Blammo!)")
    ax2.set_ylabel("probability")
    ax2.set_ylim(0, 1)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=8, loc="upper left")
    ax.set_title("Trash Pandas: bust odds and stop/roll values by tokens held (exact)")
    return save_figure(fig, base)
