"""Go-Stop tables and charts: the payment chart (also drawn by `gostop simulate --chart`), the
tables `gostop simulate --out` writes, and the report section (``PARTS``).

Report section: (1) 2 and 3 players, greedy everywhere: nagari/chongtong rates, wins and mean net
payment per seat, dealer advantage, event frequencies; (2) the go appetite of seat 1 (greedy,
go:1, go:2, go:3) against greedy opponents in 2 players, on common random numbers (same deals);
(3) the payment distribution chart. Imports pandas/matplotlib lazily (reports, `--out`, `--chart`).
"""
from __future__ import annotations

import pathlib



def payment_chart(out: dict, base) -> list:
    """`gostop simulate --chart`: :func:`payment_figure` written to BASE.png and BASE.svg."""
    from analyzer.charts import save_figure

    return save_figure(payment_figure(out), base)


def payment_figure(out: dict):
    """Bar chart of each seat's net payment per deal (clipped at ±HMAX chips)."""
    from analyzer.charts import new_figure

    fig, ax = new_figure(9, 4.5)
    width = 0.8 / len(out["seats"])
    for k, seat in enumerate(out["seats"]):
        hist = {int(v): c for v, c in seat["payment_histogram"].items()}
        xs = sorted(x for x in hist if x != 0)
        ys = [hist[x] / out["n"] for x in xs]
        ax.bar([x + (k - (len(out["seats"]) - 1) / 2) * width for x in xs], ys, width=width,
               label=f"seat {k + 1} ({seat['policy']}"
                     f"{', dealer' if seat['dealer'] else ''})")
    clip = out.get("histogram_clip", 60)
    axis = min(35, clip)
    beyond = sum(c for seat in out["seats"] for v, c in seat["payment_histogram"].items()
                 if abs(int(v)) > axis) / (out["n"] * len(out["seats"]))
    ax.set_xlabel(f"net chips per deal (zero omitted; axis cut at ±{axis})")
    ax.set_ylabel("share of deals")
    ax.set_title(f"Go-Stop {out['players']} players, {', '.join(out['policies'])}: "
                 f"payment per deal")
    ax.set_xlim(-axis - 1, axis + 1)
    ax.legend(loc="upper left", fontsize=8)
    fig.text(0.01, -0.02, f"n = {out['n']:,} deals, seed {out['seed']}. Zero (nagari "
             f"{out['p_nagari'].estimate:.2%}, and deals a seat neither paid nor received) is "
             f"left out;\n{beyond:.2%} of seat-deals lie beyond ±{axis} (the histogram in the "
             f"JSON output is clipped at ±{clip}).", fontsize=8, ha="left", va="top",
             color="dimgrey")
    return fig


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


def _no_rules(params: dict, rules: dict) -> None:
    from analyzer.errors import UserError

    if rules:
        raise UserError("the gostop.section part takes no [rules] overrides (it reports the "
                        "default rules)")


def deal_balance(out: dict, group: str):
    """A `simulate` result as balance figures: each seat's share of the deals someone won
    (seat 1 deals) against 1/P, and the deals nobody won (nagari)."""
    from analyzer.balance import Balance, add_seats
    from analyzer.stats import wilson

    n = out["n"]
    wins = [round(s["p_win"].estimate * n) for s in out["seats"]]
    won = sum(wins)
    b = Balance(group, out["players"], won, out["seed"], length_unit="deals",
                first="the dealer (seat 1)", trials="deals won")
    if won > 0:
        add_seats(b, [wilson(w, won) for w in wins])
    b.add("drawn", out["p_nagari"])
    b.notes.append("Go-Stop is scored deal by deal: the seat figures are shares of the deals "
                   "someone won (seat 1 deals), and a deal nobody wins is a nagari.")
    return b


def section_part(params: dict, rules: dict, seed: int):
    """Whole deals with greedy players (2 and 3 players): who wins, the dealer's advantage,
    nagari and events; the payment chart; the appetite for going of seat 1 (2 players)."""
    import pandas as pd

    from analyzer.balance import Finding
    from analyzer.balance_part import _percent_formatter, balance_result
    from analyzer.charts import chart_files, fit_intervals, new_figure
    from analyzer.games.gostop.play import plain_seats, simulate
    from analyzer.games.gostop.rules import GoStopRules
    from analyzer.numbers import interval
    from analyzer.runner import RunSpec
    from analyzer.tables import Col, people_table, table_files

    _no_rules(params, rules)
    quick = bool(params.get("quick", False))
    n = 20_000 if quick else 400_000
    spec = RunSpec(n, seed, progress=False)
    sims, groups, seat_tab, ev_tab = {}, [], [], []
    for players in (2, 3):
        out = simulate(GoStopRules(players=players), plain_seats("greedy", players), spec)
        sims[players] = out
        groups.append(deal_balance(out, f"{players} players"))
        seat_tab += seat_rows(out)
        ev_tab += event_rows(out)
    dealer = [{"players": f"{p} players", "adv": o["dealer_advantage"],
               "nagari": o["p_nagari"], "chong": o["p_chongtong"]} for p, o in sims.items()]
    net = [{"players": f"{p} players", "seat": f"seat {q + 1}" + (" (dealer)" if q == 0 else ""),
            "win": s["p_win"], "net": s["mean_net_payment"]}
           for p, o in sims.items() for q, s in enumerate(o["seats"])]
    go_rows, go_tab = [], []
    for label in ("greedy", "go:1", "go:2", "go:3"):
        out = simulate(GoStopRules(), plain_seats(f"{label},greedy", 2), spec)
        m = out["seats"][0]["mean_net_payment"]
        go_rows.append({"seat1_policy": label, "mean_net": m.estimate, "ci_low": m.ci_low,
                        "ci_high": m.ci_high, "p_win": out["seats"][0]["p_win"].estimate,
                        "p_nagari": out["p_nagari"].estimate})
        go_tab.append({"policy": label, "net": m, "win": out["seats"][0]["p_win"],
                       "nagari": out["p_nagari"]})
    files = {**table_files(pd.DataFrame(seat_tab), "gostop_seats"),
             **table_files(pd.DataFrame(ev_tab), "gostop_events"),
             **table_files(pd.DataFrame(go_rows), "gostop_go_appetite")}
    pay = sims[2]
    pay_data = pd.DataFrame([{"seat": q + 1, "net_chips": int(v), "deals": int(c)}
                             for q, s in enumerate(pay["seats"])
                             for v, c in s["payment_histogram"].items() if int(v) != 0])
    files.update(chart_files(payment_figure(pay), "gostop_payments_2p", pay_data))
    fig, ax = new_figure(7, 3.8)
    go = pd.DataFrame(go_rows)
    ax.errorbar(range(len(go)), go.mean_net, yerr=[go.mean_net - go.ci_low,
                                                   go.ci_high - go.mean_net],
                fmt="o-", capsize=4)
    ax.axhline(0, color="black", linewidth=1)
    ax.set_xticks(range(len(go)), list(go.seat1_policy))
    ax.set_xlabel("seat 1's go policy (the dealer; seat 2 greedy)")
    ax.set_ylabel("seat 1's net chips per deal")
    fit_intervals(ax, list(go.ci_low) + [0.0], list(go.ci_high) + [0.0])
    ax.set_title("Go-Stop, 2 players: the appetite for going", fontsize=11)
    files.update(chart_files(fig, "gostop_go_appetite", go[["seat1_policy", "mean_net",
                                                            "ci_low", "ci_high"]]))
    extra = "\n".join([
        "**Dealer, nagari and chongtong** (share of deals, 95% intervals):", "",
        people_table(dealer, [Col("players", "players"),
                              Col("dealer's advantage (chips per deal)", "adv", "signed"),
                              Col("nagari (nobody wins)", "nagari", "percent"),
                              Col("chongtong", "chong", "percent")]),
        "**Each seat** (win rate over all deals and net chips per deal):", "",
        people_table(net, [Col("players", "players"), Col("seat", "seat"),
                           Col("wins", "win", "percent"),
                           Col("net chips per deal", "net", "signed")]),
        "![Go-Stop, 2 players: net chips per deal](gostop_payments_2p.svg)", "",
        "**The appetite for going** (seat 1, the dealer, against a greedy seat 2; 2 players, "
        "the same deals for every policy):", "",
        "![Go-Stop, 2 players: the appetite for going](gostop_go_appetite.svg)", "",
        people_table(go_tab, [Col("seat 1's policy", "policy"),
                              Col("net chips per deal", "net", "signed"),
                              Col("wins", "win", "percent"),
                              Col("nagari", "nagari", "percent")]),
        "Event frequencies per deal are in [gostop_events.csv](gostop_events.csv)."])
    res = balance_result(groups, "Go-Stop", (
        f"Monte Carlo: whole deals under the source rules, {n:,} per row, every row on the "
        "part seed (so the go policies play the same deals); shares with Wilson 95% "
        "intervals, means with normal ones."),
        subject=lambda b: f"the {b.group.replace(' players', '-player')} deals that greedy "
                          "players win", group_header="players", extra=extra)
    res.files.update(files)
    d2 = sims[2]["dealer_advantage"]
    if d2.ci_low > 0 or d2.ci_high < 0:
        res.meta["findings"].append(Finding(
            f"In 2-player deals between greedy players the dealer gains "
            f"{interval(d2, signed=True)} chips per deal over the other seat (n = {d2.n:,}).",
            2).to_json())
    best = max(go_tab, key=lambda x: x["net"].estimate)
    res.meta["findings"].append(Finding(
        f"Against a greedy opponent the dealer nets the most with \u201c{best['policy']}\u201d: "
        f"{interval(best['net'], signed=True)} chips per deal (n = {best['net'].n:,}).",
        4).to_json())
    res.meta["quick"] = quick
    return res


def _section_kind():
    from analyzer.report import PartKind
    from analyzer.report_params import Param

    return PartKind("gostop", "section", section_part,
                    "seats, the dealer, nagari, payments and the appetite for going",
                    {"quick": Param("bool")}, _no_rules, tiny={"quick": True})


PARTS = [_section_kind()]


def advice_part(params: dict, rules: dict, seed: int):
    """When to say go: the raced rules of thumb (``pushluck gostop advice``)."""
    from analyzer.advice import rule_row
    from analyzer.advice.cli import race_line
    from analyzer.advice.report import RACE_HOW, front_files, front_findings, report_race
    from analyzer.games.gostop.advice import DECISION, advise
    from analyzer.games.gostop.rules import GoStopRules
    from analyzer.report import PartResult
    from analyzer.rules import build_rules

    r = build_rules(GoStopRules, None, None, rules)
    res = advise(r, seed, int(params.get("rounds", 48)), float(params.get("precision", 0.02)))
    rows = [rule_row(x, res["features"], DECISION) for x in res["front"]]
    files, md = front_files(rows, "net points per deal", "Go-Stop: when to say go (Monte Carlo)",
                            exact=False)
    c = report_race(res["race"])
    summary = (f"Rules of thumb for saying go (one threshold, two bands, lists of up to three "
               f"conditions over gos said, turns left, own and opponents' scores and gos), each "
               f"played by the engine as a go rule table in both seats against greedy opponents "
               f"on the same deals; loss in net points per deal against the best of them "
               f"({res['reference']}), 95% Bonferroni intervals, surviving rules only.\n\n"
               f"{race_line(c)}.\n\n" + md)
    found = front_findings(rows, "net points per deal", "the best rule",
                           raced=c.get("candidates"))
    return PartResult(files, summary, {"exact": False, "front": rows, "race": c,
                                       "findings": [f.to_json() for f in found],
                                       "how": RACE_HOW})


def _advice_kind():
    from analyzer.report import PartKind

    from analyzer.report_params import Param

    return PartKind("gostop", "advice", advice_part, "when to say go: raced rules of thumb",
                    {"rounds": Param("int", 1, 200), "precision": Param("float", 1e-4, 10.0)},
                    tiny={"rounds": 1})


PARTS = PARTS + [_advice_kind()]
