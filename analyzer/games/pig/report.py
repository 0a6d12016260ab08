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


def solve_part(params: dict, rules: dict, seed: int) -> PartResult:
    from analyzer.charts import figure_files
    from analyzer.games.pig.exact import solve
    from analyzer.tables import table_files

    r = _rules(rules)
    P, roll, iterations, change = solve(r)
    df, fig = hold_boundary_figure(r, params.get("opponent_scores", [0, 30, 60, 90]))
    files = {**table_files(df, "hold_boundary"), **figure_files(fig, "hold_boundary")}
    summary = (f"Both players maximise their chance of winning (value iteration, {iterations} "
               f"sweeps, final change {change:.1e}). The first player wins with probability "
               f"**{P[0, 0, 0]:.6f}** (published: about 0.5306). The chart shows the turn total "
               f"at which the optimal player holds, by own score, for a few opponent scores.")
    return PartResult(files, summary, {"exact": True,
                                       "p_first_player_wins": float(P[0, 0, 0])})


def hold_thresholds_part(params: dict, rules: dict, seed: int) -> PartResult:
    import pandas as pd

    from analyzer.charts import figure_files, new_figure
    from analyzer.games.pig.exact import turn_stats
    from analyzer.tables import table_files, to_markdown

    r = _rules(rules)
    lo, hi = params.get("range", [10, 35])
    df = pd.DataFrame([{"hold_at": h, **{k: v for k, v in turn_stats(h, r).items()
                                         if k != "distribution"}} for h in range(lo, hi + 1)])
    fig, ax = new_figure(8, 5)
    ax.plot(df.hold_at, df.mean_points, "o-", label="mean points per turn")
    ax2 = ax.twinx()
    ax2.plot(df.hold_at, df.p_bust, "s--", color="tab:red", label="P(bust)")
    ax.set_xlabel("hold at H")
    ax.set_ylabel("mean points per turn")
    ax2.set_ylabel("P(turn busts)")
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2,
              frameon=False)  # below the axes: inside, it covered the curves
    ax.set_title("Pig: one turn of 'hold at H' (exact)")
    best = df.loc[df.mean_points.idxmax()]
    h20 = df[df.hold_at == 20]
    at20 = (f"Hold at 20: P(bust) = {float(h20.p_bust.iloc[0]):.4f}, mean points "
            f"{float(h20.mean_points.iloc[0]):.4f} (published ≈ 0.6245 and 8.14). "
            if len(h20) else "")
    summary = (f"Exact one-turn statistics of holding at H (no goal). {at20}Mean points peak "
               f"at H = {int(best.hold_at)} ({best.mean_points:.4f}).\n\n" + to_markdown(df))
    return PartResult({**table_files(df, "hold_thresholds"),
                       **figure_files(fig, "hold_thresholds")}, summary, {"exact": True})


def matchups_part(params: dict, rules: dict, seed: int) -> PartResult:
    import pandas as pd

    from analyzer.games.pig.lineup import parse_policy_pair
    from analyzer.games.pig.play import simulate
    from analyzer.runner import RunSpec
    from analyzer.tables import table_files, to_markdown

    r = _rules(rules)
    games = int(params.get("games", 1_000_000))
    rows = []
    for i, pair_text in enumerate(params.get("pairs", ["optimal,optimal", "hold:20,hold:20",
                                                       "optimal,hold:20", "hold:20,optimal"])):
        out = simulate(parse_policy_pair(pair_text), r, RunSpec(games, seed + i, progress=False))
        w = out["p_first_player_wins"]
        rows.append({"first": out["policies"][0], "second": out["policies"][1],
                     "p_first_wins": w.estimate, "se": w.se, "ci_low": w.ci_low,
                     "ci_high": w.ci_high, "n": w.n, "exact": w.exact_value,
                     "mean_turns": out["mean_turns"].estimate, "seed": seed + i})
    df = pd.DataFrame(rows)
    summary = (f"Whole games, the first-named policy moves first; n = {games:,} games each, "
               f"seed {seed} + row index; Wilson 95% intervals.\n\n" + to_markdown(df))
    return PartResult(table_files(df, "matchups"), summary, {"n_per_row": games})


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
              "pairs": Param("strs", max_items=20, check=_line_up)}),
)


def advice_part(params: dict, rules: dict, seed: int) -> PartResult:
    """Rules of thumb and their exact win-probability loss (``pushluck pig advice``)."""
    from analyzer.advice import rule_row
    from analyzer.advice.report import front_files
    from analyzer.games.pig.advice import DECISION, advise

    r = _rules(rules)
    res = advise(r, int(params.get("bands", 3)), int(params.get("clauses", 3)))
    rows = [rule_row(s, res["features"], DECISION) for s in res["front"]]
    files, md = front_files(rows, "win probability", f"Pig to {r.goal}: rules of thumb (exact)")
    hold = res["best_hold_at"]
    summary = (f"Rules a person can remember, searched over turn total, scores, points behind and "
               f"points needed, each evaluated exactly against the optimal player (loss = 0.5 − "
               f"win probability averaged over both seats). The best single threshold is "
               f"*{rule_row(hold, res['features'], DECISION)['words']}* (loss "
               f"{hold.loss:.4f}); {res['evaluations']} rules evaluated.\n\n" + md)
    return PartResult(files, summary, {"exact": True, "front": rows})


PARTS = PARTS + (PartKind("pig", "advice", advice_part,
                          "rules of thumb and their exact loss against optimal play",
                          {"bands": Param("int", 1, 3), "clauses": Param("int", 1, 3)}),)
