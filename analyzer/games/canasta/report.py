"""Railroad Canasta report parts (``PARTS``), tables and the chart of `simulate`.

What belongs here: everything that draws or tabulates (pandas and matplotlib are imported
inside the functions, so the queries never load them). Parts (``kind`` in a recipe):
``canasta.section`` (the default batch analysis of `make run`: meld odds by requirement band and
whole 2-player games, greedy vs greedy and greedy vs builder), ``canasta.meld-odds``
(initial-meld chance per cumulative score: exact on the deal, Monte Carlo within t turns) and
``canasta.simulate`` (whole games per seat line-up). The chart of ``chart_figure`` is drawn by
``pushluck canasta simulate --chart`` and by the reports.
"""
from __future__ import annotations

import pathlib

from analyzer.games.canasta.rules import CanastaRules
from analyzer.report_params import Param
from analyzer.report import PartKind, PartResult, section_part


def _fmt(st, digits=3) -> str:
    return f"{st.estimate:.{digits}f} [{st.ci_low:.{digits}f}, {st.ci_high:.{digits}f}]"


def report_section(out_dir: pathlib.Path, seed: int, quick: bool = False) -> str:
    import pandas as pd

    from analyzer.games.canasta.play import meld_odds, plain_policies, plain_policy, simulate
    from analyzer.runner import RunSpec
    from analyzer.tables import write_table

    out_dir = pathlib.Path(out_dir) / "canasta"
    out_dir.mkdir(parents=True, exist_ok=True)
    rules = CanastaRules()
    n_deals = 3000 if quick else 100000
    n_games = 300 if quick else 20000
    turns = 3

    # 1. meld odds by band
    rows = []
    for score in (-100, 0, 5000, 10000, 15000):
        r = meld_odds(score, turns, rules, plain_policy("greedy"), RunSpec(n_deals, seed))
        d = r["p_requirement_on_deal"]
        row = {"cumulative_score": score, "requirement": r["requirement"],
               "p_on_deal_exact": r["p_exact_on_deal"], "p_on_deal_mc": d.estimate,
               "p_on_deal_mc_se": d.se}
        for b in r["by_turn"]:
            st = b["p_melded"]
            row[f"p_melded_by_turn_{b['turn']}"] = st.estimate
            row[f"p_melded_by_turn_{b['turn']}_ci_low"] = st.ci_low
            row[f"p_melded_by_turn_{b['turn']}_ci_high"] = st.ci_high
        rows.append((row, r))
    df = pd.DataFrame([r for r, _ in rows])
    write_table(df, out_dir / "meld_odds")
    md = ["## Railroad Canasta", "",
          f"Seed {seed}. Rules: defaults of `pushluck canasta rules` (2 players). Policy "
          "`greedy` (goes out as soon as allowed, takes the pile whenever allowed).", "",
          f"### Initial meld requirement (n = {n_deals:,} deals per band; exact on the deal)", "",
          "| cumulative score | requirement | on the deal (exact) | on the deal (MC) | "
          f"melded by own turn {turns} (MC, 95% CI) |", "|---|---|---|---|---|"]
    for row, r in rows:
        last = r["by_turn"][-1]["p_melded"]
        md.append(f"| {row['cumulative_score']} | {row['requirement']} | "
                  f"{row['p_on_deal_exact']:.4f} | {_fmt(r['p_requirement_on_deal'], 4)} | "
                  f"{_fmt(last, 4)} |")

    # 2. whole games
    md += ["", f"### Whole games to 20,000 (n = {n_games:,} games each, rotating dealer)", "",
           "Per-round figures are ratio estimates over games (cluster-robust SE).", ""]
    tab = []
    for label in ("greedy", "greedy,builder:10:20"):
        pols = plain_policies(label, 2)
        s = simulate(rules, pols, RunSpec(n_games, seed))
        if label == "greedy":
            save_chart(s, out_dir / "greedy_games")
        for k, st in s["per_round"].items():
            tab.append({"policies": label, "quantity": k, "estimate": st.estimate, "se": st.se,
                        "ci_low": st.ci_low, "ci_high": st.ci_high, "n_games": s["n"]})
        tab.append({"policies": label, "quantity": "rounds_per_game",
                    "estimate": s["rounds_per_game"].estimate, "se": s["rounds_per_game"].se,
                    "ci_low": s["rounds_per_game"].ci_low,
                    "ci_high": s["rounds_per_game"].ci_high, "n_games": s["n"]})
        for seat in s["seats"]:
            st = seat["p_win"]
            tab.append({"policies": label, "quantity": f"p_seat{seat['seat']}_wins",
                        "estimate": st.estimate, "se": st.se, "ci_low": st.ci_low,
                        "ci_high": st.ci_high, "n_games": s["n"]})
        pr = s["per_round"]
        md += [f"**{label}** (seat 1 first in the list): rounds per game "
               f"{_fmt(s['rounds_per_game'], 2)}; turns per round {_fmt(pr['turns'], 1)}; "
               f"going out {_fmt(pr['went_out'])}, sevens lock {_fmt(pr['sevens_lock'])}, "
               f"stall {_fmt(pr['stall'])}, "
               f"stock exhausted {_fmt(pr['stock_exhausted'])} of rounds; canastas per round "
               f"(both players) red {_fmt(pr['red_canastas'], 2)}, black "
               f"{_fmt(pr['black_canastas'], 2)}, wild {_fmt(pr['wild_canastas'], 2)}, sevens "
               f"{_fmt(pr['sevens_canastas'], 2)}; kitty picked up at turn "
               f"{_fmt(pr['kitty_pickup_turn'], 1)}; points per player per round "
               f"{_fmt(pr['points_per_player'], 0)}; P(seat 1 wins) "
               f"{_fmt(s['seats'][0]['p_win'])}; P(first mover of round 1 wins) "
               f"{_fmt(s['p_first_mover_wins'])}.", ""]
    write_table(pd.DataFrame(tab), out_dir / "games")
    md += ["Files: `canasta/meld_odds.csv|md`, `canasta/games.csv|md`, "
           "`canasta/greedy_games.png|svg`.", ""]
    return "\n".join(md)


# --------------------------------------------------------------------------- the chart
CANASTA_KEYS = ("red_canastas", "black_canastas", "wild_canastas", "sevens_canastas")
ENDING_KEYS = ("went_out", "sevens_lock", "stall", "stock_exhausted")


def chart_figure(out: dict):
    """Canasta types per round and how rounds end, with 95% error bars (a `simulate` result)."""
    from analyzer.charts import fit_intervals, new_figure

    pr = out["per_round"]
    fig, ax = new_figure(10.0, 4.5)
    fig.delaxes(ax)
    ax1 = fig.add_subplot(1, 2, 1)
    ax2 = fig.add_subplot(1, 2, 2)
    for a in (ax1, ax2):
        a.grid(True, alpha=0.3)
    def bars(ax, keys, labels, color):
        vals = [pr[k].estimate for k in keys]
        err = [[v - pr[k].ci_low for v, k in zip(vals, keys)],
               [pr[k].ci_high - v for v, k in zip(vals, keys)]]
        ax.bar(labels, vals, yerr=err, capsize=3, color=color, ecolor="#333")
        fit_intervals(ax, [pr[k].ci_low for k in keys], [pr[k].ci_high for k in keys],
                      floor=0.0)

    bars(ax1, CANASTA_KEYS, ["red", "black", "wild", "sevens"],
         ["#c0392b", "#2c3e50", "#8e44ad", "#d4ac0d"])
    ax1.set_ylabel("canastas per round (all players)")
    ax1.set_title("Canasta types")
    bars(ax2, ENDING_KEYS, ["went out", "sevens lock", "stall", "stock out"], "#16a085")
    from analyzer.balance_part import _percent_formatter

    ax2.yaxis.set_major_formatter(_percent_formatter())
    ax2.set_ylabel("share of rounds")
    ax2.set_title("How rounds end")
    fig.suptitle(f"Railroad Canasta, {out['players']} players: "
                 f"{policy_words(','.join(out['policies']), out['players'])}")
    fig.text(0.01, -0.02, f"n = {out['n']:,} games, seed {out['seed']}; 95% intervals",
             fontsize=8, ha="left", va="top", color="dimgrey")
    return fig


def save_chart(out: dict, base):
    """Write the :func:`chart_figure` of ``out`` to BASE.png and BASE.svg."""
    from analyzer.charts import save_figure

    return save_figure(chart_figure(out), base)


# --------------------------------------------------------------------------- parts
def _rules(rules: dict) -> CanastaRules:
    from analyzer.rules import build_rules

    return build_rules(CanastaRules, None, None, rules)


def _meld_odds_settings(params: dict, rules: dict):
    """Rules and policy of the meld-odds part (its settings check)."""
    from analyzer.games.canasta.lineup import parse_policy

    return _rules(rules), parse_policy(str(params.get("policy", "greedy")))


def _simulate_settings(params: dict, rules: dict):
    """Rules and (text, policies) per seat line-up of the simulate part (its settings check:
    each line-up parsed for the rules' player count, as `canasta simulate --seats` does)."""
    from analyzer.games.canasta.lineup import parse_policies

    r = _rules(rules)
    return r, [(text, parse_policies(text, r.players))
               for text in params.get("seats", ["greedy", "greedy,builder:10:20"])]


def policy_words(text: str, players: int = 2) -> str:
    """A line-up in words: "greedy against greedy", "greedy against builder:10:20" (a single
    policy plays every seat)."""
    items = [x.strip() for x in text.split(",")]
    items = items * players if len(items) == 1 else items
    return " against ".join(items) if len(items) == 2 else ", ".join(items)


def meld_odds_part(params: dict, rules: dict, seed: int) -> PartResult:
    import pandas as pd

    from analyzer.balance import Finding
    from analyzer.charts import chart_files, fit_intervals, new_figure
    from analyzer.games.canasta.play import meld_odds
    from analyzer.numbers import interval
    from analyzer.runner import RunSpec
    from analyzer.tables import Col, people_table, table_files

    r, pol = _meld_odds_settings(params, rules)
    n = int(params.get("n", 40000))
    turns = int(params.get("within_turns", 3))
    rows, shown = [], []
    for score in params.get("scores", [-100, 0, 5000, 10000, 15000]):
        out = meld_odds(int(score), turns, r, pol, RunSpec(n, seed, progress=False))
        d = out["p_requirement_on_deal"]
        last = out["by_turn"][-1]["p_melded"] if out["by_turn"] else None
        row = {"cumulative_score": int(score), "requirement": out["requirement"],
               "p_on_deal_exact": out["p_exact_on_deal"], "p_on_deal_mc": d.estimate,
               "p_on_deal_ci_low": d.ci_low, "p_on_deal_ci_high": d.ci_high, "n": n}
        if last is not None:
            row.update({f"p_melded_by_turn_{turns}": last.estimate, "ci_low": last.ci_low,
                        "ci_high": last.ci_high})
        rows.append(row)
        shown.append({"score": f"{int(score):,}", "req": out["requirement"],
                      "exact": f"{out['p_exact_on_deal'] * 100:.2f}%", "mc": d, "by": last})
    df = pd.DataFrame(rows)
    files = table_files(df, "meld_odds")
    md = [f"The chance of meeting the initial meld requirement, {r.players} players, policy "
          f"{pol.label}: exact on the deal (every hand composition) and by Monte Carlo on the "
          f"deal and by the player's own turn {turns} (n = {n:,} deals per row, Wilson 95% "
          "intervals).", ""]
    by_col = f"p_melded_by_turn_{turns}"
    if by_col in df and len(df) >= 2:
        fig, ax = new_figure(8, 4.2)
        ax.plot(df.cumulative_score, df.p_on_deal_exact, "o-", label="on the deal (exact)")
        ax.errorbar(df.cumulative_score, df[by_col],
                    yerr=[df[by_col] - df.ci_low, df.ci_high - df[by_col]], fmt="s--",
                    capsize=4, label=f"by own turn {turns} (Monte Carlo, 95% interval)")
        ax.set_xlabel("the player's cumulative score (points)")
        ax.set_ylabel("chance of meeting the requirement")
        from analyzer.balance_part import _percent_formatter

        ax.yaxis.set_major_formatter(_percent_formatter())
        fit_intervals(ax, list(df.ci_low) + list(df.p_on_deal_exact),
                      list(df.ci_high) + list(df.p_on_deal_exact), floor=0.0)
        ax.legend(frameon=False, fontsize=8)
        ax.set_title("Railroad Canasta: meeting the initial meld requirement", fontsize=11)
        files.update(chart_files(fig, "meld_odds", df[["cumulative_score", "p_on_deal_exact",
                                                       by_col, "ci_low", "ci_high"]]))
        md += ["![Railroad Canasta: the chance of meeting the initial meld requirement by "
               "cumulative score](meld_odds.svg)", ""]
    md.append(people_table(shown, [Col("cumulative score", "score"),
                                   Col("requirement (points)", "req", "int"),
                                   Col("on the deal (exact)", "exact"),
                                   Col("on the deal (Monte Carlo)", "mc", "percent"),
                                   Col(f"by own turn {turns}", "by", "percent")]))
    found = []
    zero = next((x for x in shown if x["score"] == "0"), None)
    if zero is not None and zero["by"] is not None:
        found.append(Finding(f"At the start of a game the initial meld ({zero['req']} points) "
                             f"is in hand on the deal {zero['exact']} of the time (exact) and "
                             f"made by the player's own turn {turns} in "
                             f"{interval(zero['by'], percent=True)} (n = {n:,}).", 4))
    return PartResult(files, "\n".join(md), {
        "n_per_row": n, "findings": [f.to_json() for f in found], "key_chart": "meld_odds",
        "how": "Exact: every composition of a dealt hand. Monte Carlo: deals on one random "
               "stream each, the same part seed for every row; Wilson 95% intervals."})


def simulate_part(params: dict, rules: dict, seed: int) -> PartResult:
    """Whole games per line-up: balance (seat advantage, the first mover, length, lead
    changes, the leader at three quarters, margin) and how rounds go."""
    import pandas as pd

    from analyzer.balance import Finding
    from analyzer.balance_part import balance_result
    from analyzer.charts import chart_files
    from analyzer.games.canasta.balance import balance_of
    from analyzer.games.canasta.play import simulate
    from analyzer.numbers import interval
    from analyzer.runner import RunSpec
    from analyzer.tables import Col, people_table, table_files

    r, lineups = _simulate_settings(params, rules)
    games = int(params.get("n", 4000))
    rows, groups, rounds_rows, outs = [], [], [], []
    for i, (text, policies) in enumerate(lineups):
        out = simulate(r, policies, RunSpec(games, seed + i, progress=False))
        outs.append(out)
        groups.append(balance_of(out, policy_words(text, r.players)))
        items = list(out["per_round"].items()) + [("rounds_per_game", out["rounds_per_game"])]
        items += [(f"p_seat{q + 1}_wins", st["p_win"]) for q, st in enumerate(out["seats"])]
        items += [("p_first_mover_wins", out["p_first_mover_wins"])]
        for name, st in items:
            rows.append({"policies": text, "quantity": name, "estimate": st.estimate,
                         "se": st.se, "ci_low": st.ci_low, "ci_high": st.ci_high,
                         "n_games": out["n"]})
        pr = out["per_round"]
        rounds_rows.append({"lineup": policy_words(text, r.players),
                            "first": out["p_first_mover_wins"],
                            "out": pr["went_out"], "lock": pr["sevens_lock"],
                            "stall": pr["stall"], "stock": pr["stock_exhausted"],
                            "turns": pr["turns"], "points": pr["points_per_player"]})
    charts = {}
    if outs:
        pr = outs[0]["per_round"]
        data = pd.DataFrame([{"panel": panel, "what": k, "estimate": pr[k].estimate,
                              "ci_low": pr[k].ci_low, "ci_high": pr[k].ci_high}
                             for panel, keys in (("canastas per round", CANASTA_KEYS),
                                                 ("share of rounds", ENDING_KEYS))
                             for k in keys])
        charts = chart_files(chart_figure(outs[0]), "rounds", data)
    ends = people_table(rounds_rows, [Col("line-up", "lineup"),
                                      Col("going out", "out", "percent"),
                                      Col("sevens lock", "lock", "percent"),
                                      Col("stall", "stall", "percent"),
                                      Col("stock runs out", "stock", "percent")])
    table = people_table(rounds_rows, [Col("line-up", "lineup"),
                                       Col("first mover of round 1 wins", "first", "percent"),
                                       Col("turns per round", "turns", "stat"),
                                       Col("points per player per round", "points", "stat")])
    extra = "\n".join([
        "**How rounds go** (per-round figures are ratios over games with cluster-robust "
        "standard errors; 95% intervals):", "", table, "", "How rounds end (share of rounds):",
        "", ends, "",
        "![Railroad Canasta: canasta types per round and how rounds end, first line-up]"
        "(rounds.svg)"])
    res = balance_result(groups, "Railroad Canasta", (
        f"Monte Carlo: whole games to {r.target:,} with a random first dealer rotating left, "
        f"{games:,} games per line-up, line-up k seeded with the part seed + k. Win rates and "
        "shares with Wilson 95% intervals, means with normal ones, per-round figures as ratios "
        "over games (delta method)."), subject=lambda b: f"games of {b.group}",
        group_header="line-up", extra=extra)
    res.files.update(table_files(pd.DataFrame(rows), "simulate"))
    res.files.update(charts)
    first = outs[0]["p_first_mover_wins"] if outs else None
    if first is not None:
        fair = 1.0 / r.players
        null = first.ci_low <= fair <= first.ci_high
        if null:  # ranked after detected effects, as balance.seat_finding ranks its null
            text = (f"No advantage detected for the player who moves first in round 1: "
                    f"{interval(first, percent=True)} of the games against a fair "
                    f"{fair * 100:.1f}% (n = {first.n:,}).")
        else:
            text = (f"The player who moves first in round 1 wins "
                    f"{interval(first, percent=True)} of the games against a fair "
                    f"{fair * 100:.1f}% (n = {first.n:,}).")
        res.meta["findings"].append(Finding(text, 4 if null else 1).to_json())
    res.meta["n_games"] = games
    return res


def _policy(text: str):
    """Part-parameter check: a policy `canasta meld-odds --policy` accepts."""
    from analyzer.games.canasta.lineup import parse_policy

    return parse_policy(text)


PARTS = (
    section_part("canasta", report_section),
    PartKind("canasta", "meld-odds", meld_odds_part,
             "initial-meld chance by cumulative score (exact + Monte Carlo)",
             {"n": Param("int", 1, 10**8), "within_turns": Param("int", 0, 200),
              "policy": Param("str", check=_policy),
              "scores": Param("ints", -100_000, 100_000, max_items=20)},
             _meld_odds_settings, tiny={"n": 2000}),
    PartKind("canasta", "simulate", simulate_part,
             "whole games between seat line-ups: balance and how rounds go (Monte Carlo)",
             {"n": Param("int", 1, 10**7), "seats": Param("strs", max_items=20)},
             _simulate_settings, tiny={"n": 300}),
)


def advice_part(params: dict, rules: dict, seed: int) -> PartResult:
    """Take the pile / go out: the raced rules (``pushluck canasta advice``)."""
    from analyzer.advice.cli import race_line
    from analyzer.advice.report import RACE_HOW, front_files, front_findings, report_race
    from analyzer.games.canasta.advice import advise, row

    r = _rules(rules)
    res = advise(r, seed, int(params.get("rounds", 12)), float(params.get("precision", 0.02)))
    rows = [row(x) for x in res["front"]]
    files, md = front_files(rows, "win probability",
                            "Railroad Canasta: take the pile / go out (Monte Carlo)",
                            exact=False)
    c = report_race(res["race"])
    summary = (f"Take-the-pile and go-out rules (thresholds, two bands and two-condition lists "
               f"over the pile, the stock, canastas, hands and the game score, played by the "
               f"engine as rule tables), each pair played in both seats against greedy opponents "
               f"on the same deals; loss in win probability against the best candidate, 95% "
               f"Bonferroni intervals, surviving rules only.\n\n{race_line(c)}.\n\n" + md)
    found = front_findings(rows, "win probability", "the best rule", raced=c.get("candidates"))
    return PartResult(files, summary, {
        "exact": False, "front": rows, "race": c, "findings": [f.to_json() for f in found],
        "how": RACE_HOW})


PARTS = PARTS + (PartKind("canasta", "advice", advice_part,
                          "take the pile / go out: raced rules of thumb",
                          {"rounds": Param("int", 1, 200),
                           "precision": Param("float", 1e-4, 1.0)}, tiny={"rounds": 1}),)
