"""Strength of a search bot against its budget: the curve of docs/games/*.md, from one real run.

One `pushluck GAME ladder --field HEURISTIC` gauntlet holds every budget: each search bot in
every seat against a field of the heuristic bot, all on the same deals, and the paired gain in
win rate of that seat over the heuristic in it (mean over seats, cluster SE over blocks of
deals, 95% interval; the ladder's own statistics). The script prints a Markdown table and
draws the gains against the budget (log scale) with their intervals, beside the zero line.

Usage (minutes to an hour on 2 cores; not part of `make test`):

    python docs/search_budget.py trash-pandas --budgets 25,100,400,1600 -n 300 --seed 37
    python docs/search_budget.py ten --budgets 16,32,64,128 --players 4 -n 200 --seed 5

``--bot`` names the spelling of one budget (``search:{}`` in Trash Pandas, ``search:iters={}``
in Ten); ``--json FILE`` keeps the ladder's JSON, ``--from-json FILE`` redraws from it.
The chart is written to docs/images/search_budget_GAME.png (and .svg).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPELLING = {"trash-pandas": "search:{}", "ten": "search:iters={}"}
HEURISTIC = {"trash-pandas": "heuristic", "ten": "threshold"}
PLAYERS = {"trash-pandas": 3, "ten": 4}


def run_ladder(game: str, bots: list[str], players: int, n: int, seed: int) -> dict:
    """The gauntlet's JSON (stderr passes through: the progress and the time it took)."""
    cmd = [sys.executable, "-m", "analyzer", game, "ladder", "--bots", ",".join(bots),
           "--field", HEURISTIC[game], "--players", str(players), "-n", str(n), "--seed",
           str(seed), "--no-progress", "--json"]
    print("$ pushluck " + " ".join(cmd[3:]), file=sys.stderr)
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"search_budget: the ladder exited {done.returncode}: {done.stderr[-400:]}")
    return json.loads(done.stdout)


def gains(out: dict, bots: list[str], game: str) -> list[dict]:
    """The paired gain of each bot of ``bots`` among the heuristic field, in budget order."""
    by_bot = {g["bot"]: g["gain"] for g in out["gains"] if g["field"] == HEURISTIC[game]}
    return [by_bot[b] for b in bots]


def table(budgets: list[int], rows: list[dict], out: dict, game: str) -> str:
    lines = [f"| budget | gain over {HEURISTIC[game]} in that seat | 95% interval |",
             "|---|---|---|"]
    for b, g in zip(budgets, rows):
        lines.append(f"| {b} | {g['estimate']:+.3f} ± {g['se']:.3f} | "
                     f"[{g['ci_low']:+.3f}, {g['ci_high']:+.3f}] |")
    lines.append(f"\n({out['players']} players, {out['n']:,} deals, seed {out['seed']}; "
                 f"paired on the same deals, mean over seats, cluster SE over blocks of deals)")
    return "\n".join(lines)


def draw(budgets: list[int], rows: list[dict], out: dict, game: str, base: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from analyzer.charts import save_figure

    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    est = [g["estimate"] for g in rows]
    lo = [g["estimate"] - g["ci_low"] for g in rows]
    hi = [g["ci_high"] - g["estimate"] for g in rows]
    ax.errorbar(budgets, est, yerr=[lo, hi], fmt="o-", capsize=4, color="#1f5fa8",
                label="search bot, 95% interval")
    ax.axhline(0.0, color="#777", lw=1, ls="--", label=f"{HEURISTIC[game]} (no change)")
    ax.set_xscale("log")
    ax.set_xticks(budgets)
    ax.set_xticks([], minor=True)  # no log-scale minor ticks and labels between the budgets
    ax.set_xticklabels([str(b) for b in budgets])
    ax.set_xlabel("playouts per decision (log scale)")
    ax.set_ylabel("win rate gained in one seat")
    title = {"trash-pandas": "Trash Pandas", "ten": "Ten"}[game]
    ax.set_title(f"{title}: one search seat among {HEURISTIC[game]} bots "
                 f"({out['players']} players, {out['n']:,} deals, seed {out['seed']})",
                 fontsize=10)
    ax.legend(fontsize=8, loc="best")
    ax.grid(alpha=0.3)
    for path in save_figure(fig, base):
        print(f"wrote {path.relative_to(ROOT)}", file=sys.stderr)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game", choices=sorted(SPELLING))
    ap.add_argument("--budgets", required=True, help="comma-separated playouts per decision")
    ap.add_argument("--players", type=int)
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--bot", help="spelling of one budget, with {} for it")
    ap.add_argument("--json", type=Path, help="keep the ladder's JSON here")
    ap.add_argument("--from-json", type=Path, help="redraw from a kept JSON (no run)")
    a = ap.parse_args(argv)
    budgets = [int(b) for b in a.budgets.split(",")]
    bots = [(a.bot or SPELLING[a.game]).format(b) for b in budgets]
    if a.from_json:
        out = json.loads(a.from_json.read_text())
    else:
        out = run_ladder(a.game, bots, a.players or PLAYERS[a.game], a.n, a.seed)
        if a.json:
            a.json.write_text(json.dumps(out, indent=1))
    rows = gains(out, bots, a.game)
    print(table(budgets, rows, out, a.game))
    draw(budgets, rows, out, a.game, ROOT / "docs" / "images" / f"search_budget_{a.game}")


if __name__ == "__main__":
    main()
