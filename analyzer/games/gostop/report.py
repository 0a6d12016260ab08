"""Go-Stop tables and charts: the payment chart (also drawn by `gostop simulate --chart`), the
tables `gostop simulate --out` writes, and the report section (``PARTS``).

Report section: (1) 2 and 3 players, greedy everywhere: nagari/chongtong rates, wins and mean net
payment per seat, dealer advantage, event frequencies; (2) the go appetite of seat 1 (greedy,
go:1, go:2, go:3) against greedy opponents in 2 players, on common random numbers (same deals);
(3) the payment distribution chart. Imports pandas/matplotlib lazily (reports, `--out`, `--chart`).
"""
from __future__ import annotations

import pathlib

from analyzer.report import section_part


def payment_chart(out: dict, base) -> list:
    """Bar chart of each seat's net payment per deal (clipped at ±HMAX chips)."""
    from analyzer.charts import new_figure, save_figure

    fig, ax = new_figure(9, 4.5)
    width = 0.8 / len(out["seats"])
    for k, seat in enumerate(out["seats"]):
        hist = {int(v): c for v, c in seat["payment_histogram"].items()}
        xs = sorted(x for x in hist if x != 0)
        ys = [hist[x] / out["n"] for x in xs]
        ax.bar([x + (k - (len(out["seats"]) - 1) / 2) * width for x in xs], ys, width=width,
               label=f"seat {seat['seat']} ({seat['policy']}"
                     f"{', dealer' if seat['dealer'] else ''})")
    clip = out.get("histogram_clip", 60)
    axis = min(35, clip)
    beyond = sum(c for seat in out["seats"] for v, c in seat["payment_histogram"].items()
                 if abs(int(v)) > axis) / (out["n"] * len(out["seats"]))
    ax.set_xlabel(f"net chips per deal (zero omitted; axis cut at ±{axis})")
    ax.set_ylabel("fraction of deals")
    ax.set_title(f"Go-Stop {out['players']} players, {', '.join(out['policies'])}: "
                 f"payment per deal")
    ax.set_xlim(-axis - 1, axis + 1)
    ax.legend(loc="upper left", fontsize=8)
    fig.text(0.01, -0.02, f"n = {out['n']:,} deals, seed {out['seed']}. Zero (nagari "
             f"{out['p_nagari'].estimate:.2%}, and deals a seat neither paid nor received) is "
             f"left out;\n{beyond:.2%} of seat-deals lie beyond ±{axis} (the histogram in the "
             f"JSON output is clipped at ±{clip}).", fontsize=8, ha="left", va="top",
             color="dimgrey")
    return save_figure(fig, base)


def seat_rows(out: dict) -> list[dict]:
    """One tidy row per seat of a `simulate` result."""
    return [{"players": out["players"], "seat": s["seat"], "dealer": s["dealer"],
             "p_win": s["p_win"].estimate, "p_win_lo": s["p_win"].ci_low,
             "p_win_hi": s["p_win"].ci_high,
             "mean_net": s["mean_net_payment"].estimate,
             "mean_net_lo": s["mean_net_payment"].ci_low,
             "mean_net_hi": s["mean_net_payment"].ci_high} for s in out["seats"]]


def event_rows(out: dict) -> list[dict]:
    """One tidy row per event of a `simulate` result."""
    return [{"players": out["players"], "event": name, "per_deal": e["per_deal"].estimate,
             "se": e["per_deal"].se, "p_any": e["p_at_least_one"].estimate}
            for name, e in out["events"].items()]


def write_simulation(out: dict, out_dir, chart: bool) -> list[pathlib.Path]:
    """`gostop simulate --out DIR [--chart]`: seats and events tables (CSV and Markdown), and the
    payment chart. Returns the files written."""
    import pandas as pd

    from analyzer.tables import write_table

    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    files = write_table(pd.DataFrame(seat_rows(out)), out_dir / "gostop_seats")
    files += write_table(pd.DataFrame(event_rows(out)), out_dir / "gostop_events")
    if chart:
        files += payment_chart(out, out_dir / "gostop_payments")
    return files


def report_section(out_dir: pathlib.Path, seed: int, quick: bool = False) -> str:
    import pandas as pd

    from analyzer.games.gostop.play import plain_seats, simulate
    from analyzer.games.gostop.rules import GoStopRules
    from analyzer.runner import RunSpec
    from analyzer.tables import write_table

    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    n = 20_000 if quick else 400_000
    spec = RunSpec(n, seed, progress=False)
    md = ["## Go-Stop", "",
          f"Whole deals under the source rules (defaults of `pushluck gostop rules`), seed {seed}, "
          f"n = {n:,} deals per row; intervals are 95%.", ""]
    rows = []
    ev_rows = []
    sims = {}
    for players in (2, 3):
        r = GoStopRules(players=players)
        out = simulate(r, plain_seats("greedy", players), spec)
        sims[players] = out
        rows += seat_rows(out)
        ev_rows += event_rows(out)
    write_table(pd.DataFrame(rows), out_dir / "gostop_seats")
    write_table(pd.DataFrame(ev_rows), out_dir / "gostop_events")
    for players, out in sims.items():
        da = out["dealer_advantage"]
        md.append(f"* {players} players, greedy: nagari {_pct(out['p_nagari'])}, chongtong "
                  f"{_pct(out['p_chongtong'])}; dealer advantage {da.estimate:+.3f} chips/deal "
                  f"[{da.ci_low:+.3f}, {da.ci_high:+.3f}].")
        for s in out["seats"]:
            m = s["mean_net_payment"]
            md.append(f"  * seat {s['seat']}{' (dealer)' if s['dealer'] else ''}: P(win) "
                      f"{_pct(s['p_win'])}, mean net {m.estimate:+.3f} [{m.ci_low:+.3f}, "
                      f"{m.ci_high:+.3f}]")
    payment_chart(sims[2], out_dir / "gostop_payments_2p")
    md += ["", "Event frequencies: `gostop_events.csv`; seats: `gostop_seats.csv`; chart "
           "`gostop_payments_2p.png`.", ""]
    # go appetite of seat 1, same deals for every row
    go_rows = []
    r = GoStopRules()
    for label in ("greedy", "go:1", "go:2", "go:3"):
        out = simulate(r, plain_seats(f"{label},greedy", 2), spec)
        m = out["seats"][0]["mean_net_payment"]
        go_rows.append({"seat1_policy": label, "mean_net": m.estimate, "lo": m.ci_low,
                        "hi": m.ci_high, "p_win": out["seats"][0]["p_win"].estimate,
                        "p_nagari": out["p_nagari"].estimate})
    write_table(pd.DataFrame(go_rows), out_dir / "gostop_go_appetite")
    md.append("Go appetite of the dealer against a greedy opponent (2 players, same deals):")
    md.append("")
    md.append("| seat 1 policy | mean net chips [95% CI] | P(win) | P(nagari) |")
    md.append("|---|---|---|---|")
    for g in go_rows:
        md.append(f"| {g['seat1_policy']} | {g['mean_net']:+.3f} [{g['lo']:+.3f}, {g['hi']:+.3f}]"
                  f" | {g['p_win']:.4f} | {g['p_nagari']:.4f} |")
    md.append("")
    return "\n".join(md)


def _pct(stat) -> str:
    return f"{stat.estimate:.2%} [{stat.ci_low:.2%}, {stat.ci_high:.2%}]"


PARTS = [section_part("gostop", report_section, "section",
                      "seats, events, payments and the appetite for going")]


def advice_part(params: dict, rules: dict, seed: int):
    """When to say go: the raced rules of thumb (``pushluck gostop advice``)."""
    from analyzer.advice import rule_row
    from analyzer.advice.cli import race_line
    from analyzer.advice.report import front_files
    from analyzer.games.gostop.advice import DECISION, advise
    from analyzer.games.gostop.rules import GoStopRules
    from analyzer.report import PartResult
    from analyzer.rules import build_rules

    r = build_rules(GoStopRules, None, None, rules)
    res = advise(r, seed, int(params.get("rounds", 48)), float(params.get("precision", 0.02)))
    rows = [rule_row(x, res["features"], DECISION) for x in res["front"]]
    files, md = front_files(rows, "net points per deal", "Go-Stop: when to say go (Monte Carlo)",
                            exact=False)
    c = res["race"]
    summary = (f"Rules of thumb for saying go (one threshold, two bands, lists of up to three "
               f"conditions over gos said, turns left, own and opponents' scores and gos), each "
               f"played by the engine as a go rule table in both seats against greedy opponents "
               f"on the same deals (seed {seed}); loss in net points per deal against the best of "
               f"them ({res['reference']}), 95% Bonferroni intervals, surviving rules only. "
               f"{race_line(c)}.\n\n" + md)
    return PartResult(files, summary, {"exact": False, "front": rows, "race": c})


def _advice_kind():
    from analyzer.report import PartKind

    from analyzer.report_params import Param

    return PartKind("gostop", "advice", advice_part, "when to say go: raced rules of thumb",
                    {"rounds": Param("int", 1, 200), "precision": Param("float", 1e-4, 10.0)})


PARTS = PARTS + [_advice_kind()]
