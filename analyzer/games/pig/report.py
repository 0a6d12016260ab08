"""Pig's report parts (``PARTS``) and the tables and charts they draw.

What belongs here: one function per report part (``params, rules, seed → PartResult``), the
tables and charts they write, and any chart a command draws too (:func:`hold_boundary_figure`,
used by the ``solve`` part and by ``pushluck pig solve --chart``). pandas and matplotlib are
imported inside the functions, never at module level.
"""
from __future__ import annotations

from analyzer.games.pig.rules import PigRules
from analyzer.report_params import Param
from analyzer.report import PartKind, PartResult


def _rules(rules: dict) -> PigRules:
    from analyzer.rules import build_rules

    return build_rules(PigRules, None, None, rules)


def hold_boundary_figure(r: PigRules, opponent_scores=(0, 30, 60, 90)):
    """The optimal hold boundary as a tidy table (every own and opponent score) and a figure
    (hold-at turn total by own score, one line per opponent score)."""
    import pandas as pd

    from analyzer.charts import new_figure
    from analyzer.games.pig.exact import hold_boundary, solve

    P = solve(r)[0]
    rows = []
    for j in range(r.goal):
        for i, hold_at in enumerate(hold_boundary(r, j)):
            rows.append((i, j, hold_at, float(P[i, j, 0])))
    rows.sort()
    df = pd.DataFrame([{"own_score": i, "opp_score": j, "hold_at": h, "p_win_at_turn_start": p}
                       for i, j, h, p in rows])
    fig, ax = new_figure(9, 5.5)
    for j in opponent_scores:
        sub = df[df.opp_score == j]
        ax.plot(sub.own_score, sub.hold_at, label=f"opponent at {j}")
    ax.axhline(20, color="grey", ls=":", label="hold at 20")
    ax.set_xlabel("own score")
    ax.set_ylabel("turn total at which optimal play holds")
    ax.set_title(f"Pig to {r.goal}: the optimal hold boundary (exact, value iteration)")
    # outside the axes: inside, it covered the boundary lines
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    return df, fig


def policy_words(label: str) -> str:
    """A policy label in words: ``hold:20`` → "hold at 20", ``optimal`` → "optimal play"."""
    if label.startswith("hold:"):
        return f"hold at {label[5:]}"
    return "optimal play" if label == "optimal" else label


def solve_part(params: dict, rules: dict, seed: int) -> PartResult:
    from analyzer.balance import Finding
    from analyzer.charts import chart_files
    from analyzer.games.pig.exact import solve
    from analyzer.tables import Col, people_table, table_files

    r = _rules(rules)
    P, roll, iterations, change = solve(r)
    opps = params.get("opponent_scores", [0, 30, 60, 90])
    df, fig = hold_boundary_figure(r, opps)
    data = df[df.opp_score.isin(opps)][["own_score", "opp_score", "hold_at"]]
    files = {**table_files(df, "hold_boundary"), **chart_files(fig, "hold_boundary", data)}
    p1 = float(P[0, 0, 0])
    at = {(int(a), int(b)): int(h) for a, b, h in zip(df.own_score, df.opp_score, df.hold_at)}
    own = [x for x in (0, 25, 50, 75) if x < r.goal]
    rows = [{"opp": f"opponent at {j}", **{f"o{i}": at[(i, j)] for i in own}}
            for j in opps if j < r.goal]
    table = people_table(rows, [Col("hold at a turn total of …", "opp")]
                         + [Col(f"own score {i}", f"o{i}", "int") for i in own])
    summary = (f"Both players maximise their chance of winning a game to {r.goal} (value "
               f"iteration until the largest change is {change:.0e}). Under optimal play by both "
               f"the first player wins **{p1 * 100:.2f}%** of the games (published: about "
               "53.06%). The chart shows the turn total at which the optimal player holds, by "
               "own score, for a few opponent scores; the table reads a few points off it "
               "(every score pair is in [hold_boundary.csv](hold_boundary.csv)).\n\n"
               f"![Pig to {r.goal}: the optimal hold boundary](hold_boundary.svg)\n\n" + table)
    findings = [Finding(f"Under optimal play by both, the first player wins {p1 * 100:.2f}% of "
                        f"games to {r.goal} (exact).", 1)]
    if (0, 0) in at and opps:
        behind = max(j for j in opps if j < r.goal)
        findings.append(Finding(f"At 0–0 the optimal player holds at a turn total of "
                                f"{at[(0, 0)]}; {behind} points behind, at {at[(0, behind)]} "
                                "(exact).", 4))
    return PartResult(files, summary, {
        "exact": True, "p_first_player_wins": p1, "key_chart": "hold_boundary",
        "findings": [f.to_json() for f in findings],
        "how": f"Exact: value iteration over every (own score, opponent score, turn total) "
               f"until the largest change was {change:.1e} ({iterations} sweeps); no sampling."})


def hold_thresholds_part(params: dict, rules: dict, seed: int) -> PartResult:
    import pandas as pd

    from analyzer.balance import Finding
    from analyzer.charts import chart_files, new_figure
    from analyzer.games.pig.exact import turn_stats
    from analyzer.tables import Col, people_table, table_files

    r = _rules(rules)
    lo, hi = params.get("range", [10, 35])
    df = pd.DataFrame([{"hold_at": h, **{k: v for k, v in turn_stats(h, r).items()
                                         if k != "distribution"}} for h in range(lo, hi + 1)])
    files = table_files(df, "hold_thresholds")
    best = df.loc[df.mean_points.idxmax()]
    h20 = df[df.hold_at == 20]
    at20 = (f"Hold at 20: the turn busts {float(h20.p_bust.iloc[0]) * 100:.2f}% of the time "
            f"and scores {float(h20.mean_points.iloc[0]):.4f} points on average (published "
            "about 62.45% and 8.14). " if len(h20) else "")
    md = [f"One turn of “hold at H”, ignoring the goal (exact). {at20}Mean points "
          f"per turn peak at H = {int(best.hold_at)} ({best.mean_points:.4f}).", ""]
    if len(df) >= 2:
        fig, ax = new_figure(8, 4.5)
        ax.plot(df.hold_at, df.mean_points, "o-", label="mean points per turn")
        ax2 = ax.twinx()
        ax2.plot(df.hold_at, df.p_bust * 100, "s--", color="tab:red",
                 label="chance the turn busts")
        ax.set_xlabel("hold at H (turn total)")
        ax.set_ylabel("mean points per turn")
        ax2.set_ylabel("chance the turn busts (%)")
        h1, l1 = ax.get_legend_handles_labels()
        h2, l2 = ax2.get_legend_handles_labels()
        ax.legend(h1 + h2, l1 + l2, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2,
                  frameon=False)
        ax.set_title("Pig: one turn of “hold at H” (exact)", fontsize=11)
        files.update(chart_files(fig, "hold_thresholds", df[["hold_at", "mean_points",
                                                              "p_bust"]]))
        md += ["![Pig: mean points and bust chance of one turn by hold threshold]"
               "(hold_thresholds.svg)", ""]
    shown = df[df.hold_at % 5 == 0] if len(df) > 12 else df
    md.append(people_table([{"h": int(h), "pts": float(m), "bust": f"{b * 100:.2f}%"}
                            for h, m, b in zip(shown.hold_at, shown.mean_points,
                                               shown.p_bust)],
                           [Col("hold at", "h", "int"), Col("mean points per turn", "pts",
                                                            "number", 4),
                            Col("chance the turn busts", "bust")]))
    if len(shown) < len(df):
        md.append("Every fifth threshold; all of them in "
                  "[hold_thresholds.csv](hold_thresholds.csv).")
    finding = Finding(f"One turn of “hold at H” scores most at H = {int(best.hold_at)}: "
                      f"{best.mean_points:.4f} points a turn (exact).", 5)
    return PartResult(files, "\n".join(md), {
        "exact": True, "findings": [finding.to_json()], "key_chart": "hold_thresholds",
        "how": "Exact: the distribution of the turn total by dynamic programming over the "
               "faces; no sampling."})


def matchups_part(params: dict, rules: dict, seed: int) -> PartResult:
    import pandas as pd

    from analyzer.balance import Finding
    from analyzer.games.pig.lineup import parse_policy_pair
    from analyzer.games.pig.play import simulate
    from analyzer.numbers import interval
    from analyzer.runner import RunSpec
    from analyzer.tables import Col, people_table, table_files

    r = _rules(rules)
    games = int(params.get("games", 1_000_000))
    rows, shown = [], []
    for i, pair_text in enumerate(params.get("pairs", ["optimal,optimal", "hold:20,hold:20",
                                                       "optimal,hold:20", "hold:20,optimal"])):
        out = simulate(parse_policy_pair(pair_text), r, RunSpec(games, seed + i, progress=False))
        w = out["p_first_player_wins"]
        rows.append({"first": out["policies"][0], "second": out["policies"][1],
                     "p_first_wins": w.estimate, "se": w.se, "ci_low": w.ci_low,
                     "ci_high": w.ci_high, "n": w.n, "exact": w.exact_value,
                     "mean_turns": out["mean_turns"].estimate, "seed": seed + i})
        shown.append({"first": policy_words(out["policies"][0]),
                      "second": policy_words(out["policies"][1]), "win": w,
                      "exact": "—" if w.exact_value is None else f"{w.exact_value * 100:.2f}%",
                      "turns": out["mean_turns"]})
    table = people_table(shown, [Col("first to move", "first"), Col("second", "second"),
                                 Col("first player wins", "win", "percent"),
                                 Col("exact", "exact"), Col("turns per game", "turns", "stat")])
    summary = (f"Whole games to {r.goal}; the first-named policy moves first (95% intervals, "
               f"n = {games:,} games per line-up).\n\n" + table)
    findings = []
    for s in shown:
        if s["first"] == s["second"]:
            findings.append(Finding(f"Between two players of {s['first']} the first to move "
                                    f"wins {interval(s['win'], percent=True)} of games to "
                                    f"{r.goal} (n = {s['win'].n:,}).", 6))
            break
    return PartResult(table_files(pd.DataFrame(rows), "matchups"), summary, {
        "n_per_row": games, "findings": [f.to_json() for f in findings],
        "how": "Monte Carlo: whole games, one random stream per game; row k is seeded with the "
               "part seed + k. Win rates with Wilson 95% intervals, turns with normal ones."})


def _line_up(text: str):
    """Part-parameter check: a pairs item is a line-up `pig simulate --seats` accepts."""
    from analyzer.games.pig.lineup import parse_policy_pair

    return parse_policy_pair(text)


PARTS = (
    PartKind("pig", "solve", solve_part, "exact optimal play and its hold boundary",
             {"opponent_scores": Param("ints", 0, 999, max_items=20)}),
    PartKind("pig", "hold-thresholds", hold_thresholds_part,
             "exact one-turn statistics of hold at H", {"range": Param("range", 1, 1000)}),
    PartKind("pig", "matchups", matchups_part, "Monte Carlo win rates of policy pairs",
             {"games": Param("int", 1, 10**9),
              "pairs": Param("strs", max_items=20, check=_line_up)}, tiny={"games": 2000}),
)


def advice_part(params: dict, rules: dict, seed: int) -> PartResult:
    """Rules of thumb and their exact win-probability loss (``pushluck pig advice``)."""
    from analyzer.advice import rule_row
    from analyzer.advice.report import exact_part
    from analyzer.games.pig.advice import DECISION, advise

    r = _rules(rules)
    res = advise(r, int(params.get("bands", 3)), int(params.get("clauses", 3)))
    rows = [rule_row(s, res["features"], DECISION) for s in res["front"]]
    hold = res["best_hold_at"]
    words = rule_row(hold, res["features"], DECISION)["words"]
    intro = (f"Rules a person can remember, searched over the turn total, both scores, the "
             f"points behind and the points needed, each played exactly against the optimal "
             f"player (loss = 0.5 − win probability, averaged over both seats). The best single "
             f"threshold is \u201c{words}\u201d (loss {hold.loss:.4f}); "
             f"{res['evaluations']:,} rules evaluated.")
    return exact_part(rows, "win probability", f"Pig to {r.goal}: rules of thumb (exact)",
                      intro, "Exact: each rule's policy is evaluated against the optimal player "
                      "by value iteration; no sampling.")


PARTS = PARTS + (PartKind("pig", "advice", advice_part,
                          "rules of thumb and their exact loss against optimal play",
                          {"bands": Param("int", 1, 3), "clauses": Param("int", 1, 3)}),)


def _group_words(pair_text: str) -> str:
    """A line-up's words: "both hold at 20", or "optimal play first, hold at 20 second"."""
    a, b = (policy_words(x.strip().lower()) for x in pair_text.split(","))
    if a == b:
        return "both play optimally" if a == "optimal play" else f"both {a}"
    return f"{a} first, {b} second"


def _balance_settings(params: dict, rules: dict):
    """Rules, parsed line-ups and the goals of the sensitivity sweep (the part's check)."""
    import dataclasses

    from analyzer.games.pig.lineup import parse_policy_pair

    r = _rules(rules)
    pairs = [(t, parse_policy_pair(t)) for t in params.get("pairs", ["optimal,optimal",
                                                                     "hold:20,hold:20"])]
    goals = [dataclasses.replace(r, goal=g) for g in params.get("goals", [])]
    for g in goals:
        _rules({**rules, "goal": g.goal})  # each goal passes the rules' own checks
    return r, pairs, goals


def balance_part(params: dict, rules: dict, seed: int) -> PartResult:
    """Balance of whole games (analyzer/balance.py): per line-up, seat advantage, game length,
    lead changes, the leader at three quarters, the winner's margin and busts; with ``goals``,
    the first line-up again at each goal (rule sensitivity)."""
    from analyzer.balance_part import balance_result, sensitivity_result
    from analyzer.games.pig.balance import balance
    from analyzer.runner import RunSpec

    r, pairs, goals = _balance_settings(params, rules)
    games = int(params.get("games", 200_000))
    groups = [balance(pair, r, RunSpec(games, seed + i, progress=False), _group_words(text))
              for i, (text, pair) in enumerate(pairs)]
    extra, files, found = "", {}, []
    if goals:
        text, pair = pairs[0]
        sweep = [balance(pair, g, RunSpec(games, seed + 100 + k, progress=False),
                         f"goal {g.goal}") for k, g in enumerate(goals)]
        files, md, found = sensitivity_result("goal", [g.goal for g in goals], sweep, "Pig")
        extra = (f"**Rule sensitivity**: the goal changed, line-up \u201c{_group_words(text)}"
                 f"\u201d, n = {games:,} games per goal (95% intervals).\n\n" + md)
    res = balance_result(groups, "Pig", (
        "Monte Carlo: whole games with the first seat moving first, one random stream per "
        f"game; line-up k is seeded with the part seed + k, goal k of the sweep with + 100 + k. "
        "Win shares with Wilson intervals, means with normal ones, busts per turn as a ratio "
        "over games (delta method), quantiles of the length distribution with order-statistic "
        "intervals."), subject=lambda b: f"games where {b.group}", group_header="line-up",
        extra=extra)
    res.files.update(files)
    res.meta["findings"] += [f.to_json() for f in found]
    return res


PARTS = PARTS + (PartKind("pig", "balance", balance_part,
                          "balance of whole games: seat advantage, length, lead changes, "
                          "decisiveness, margin, busts; rule sensitivity over the goal",
                          {"games": Param("int", 1, 10**9),
                           "pairs": Param("strs", max_items=10, check=_line_up),
                           "goals": Param("ints", 10, 1000, max_items=10)},
                          _balance_settings, tiny={"games": 2000}),)
