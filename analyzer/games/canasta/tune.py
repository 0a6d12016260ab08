"""Report parts and tuning metrics of Railroad Canasta.

Parts (``kind`` in a recipe): ``canasta.section`` (the default batch analysis of
``canasta_report``), ``canasta.meld-odds`` (initial-meld chance per cumulative score: exact on the
deal, Monte Carlo within t turns) and ``canasta.simulate`` (whole games per policy list).
Metrics for ``pushluck tune canasta`` run independent rounds (seat 0 first, scores 0) and read
the per-round sums of ``kernels.canasta_sim.round_trial``.
"""
from __future__ import annotations

from analyzer.games.canasta import CanastaRules
from analyzer.report import PartKind, PartResult, register_part, section_part


def _rules(rules: dict) -> CanastaRules:
    from analyzer.rules import build_rules

    return build_rules(CanastaRules, None, None, rules)


def meld_odds_part(params: dict, rules: dict, seed: int) -> PartResult:
    import pandas as pd

    from analyzer.games.canasta import parse_policy
    from analyzer.games.canasta_mc import meld_odds
    from analyzer.tables import table_files, to_markdown

    r = _rules(rules)
    n = int(params.get("n", 40000))
    turns = int(params.get("turns", 3))
    pol = parse_policy(str(params.get("policy", "greedy")))
    rows = []
    for score in params.get("scores", [-100, 0, 5000, 10000, 15000]):
        out = meld_odds(int(score), turns, r, pol, n, seed, progress=False)
        d = out["p_requirement_on_deal"]
        row = {"cumulative_score": int(score), "requirement": out["requirement"],
               "p_on_deal_exact": out["p_exact_on_deal"], "p_on_deal_mc": d.estimate,
               "p_on_deal_ci_low": d.ci_low, "p_on_deal_ci_high": d.ci_high}
        last = out["by_turn"][-1]["p_melded"] if out["by_turn"] else None
        if last is not None:
            row.update({f"p_melded_by_turn_{turns}": last.estimate,
                        "ci_low": last.ci_low, "ci_high": last.ci_high})
        row["n"] = n
        rows.append(row)
    df = pd.DataFrame(rows)
    summary = (f"Chance of meeting the initial meld requirement, {r.players} players, policy "
               f"{pol.label}: exact on the deal (every hand composition) and Monte Carlo "
               f"(n = {n:,} deals per row, seed {seed}, Wilson 95% intervals) on the deal and "
               f"by own turn {turns}.\n\n" + to_markdown(df))
    return PartResult(table_files(df, "meld_odds"), summary, {"n_per_row": n})


def simulate_part(params: dict, rules: dict, seed: int) -> PartResult:
    import pandas as pd

    from analyzer.games.canasta import parse_policies
    from analyzer.games.canasta_mc import simulate
    from analyzer.tables import table_files, to_markdown

    r = _rules(rules)
    games = int(params.get("games", 4000))
    from analyzer.charts import figure_files
    from analyzer.games.canasta_mc import chart_figure

    rows = []
    charts = {}
    for i, text in enumerate(params.get("policies", ["greedy", "greedy,builder:10:20"])):
        out = simulate(games, r, parse_policies(text, r.players), seed + i, progress=False)
        charts.update(figure_files(chart_figure(out), f"simulate_{i + 1}"))
        items = list(out["per_round"].items()) + [("rounds_per_game", out["rounds_per_game"])]
        items += [(f"p_seat{s['seat']}_wins", s["p_win"]) for s in out["seats"]]
        for name, st in items:
            rows.append({"policies": text, "quantity": name, "estimate": st.estimate,
                         "se": st.se, "ci_low": st.ci_low, "ci_high": st.ci_high,
                         "n_games": out["n"], "seed": seed + i})
    df = pd.DataFrame(rows)
    summary = (f"Whole games to {r.target:,}, {r.players} players, rotating dealer; n = "
               f"{games:,} games per policy list (seed {seed} + row group index). Per-round "
               "figures are ratio estimates over games with cluster-robust standard errors; "
               "win rates are Wilson intervals.\n\n" + to_markdown(df))
    return PartResult({**table_files(df, "simulate"), **charts}, summary, {"n_games": games})


section_part("canasta", "analyzer.games.canasta_report")
register_part(PartKind("canasta", "meld-odds", meld_odds_part,
                       "initial-meld chance by cumulative score (exact + Monte Carlo)"))
register_part(PartKind("canasta", "simulate", simulate_part,
                       "whole games between policy lists (Monte Carlo)"))


# ------------------------------------------------------------------------------- tuning metrics
def _rounds_job(rules: CanastaRules, policy: str):
    from analyzer.games.canasta import parse_policies
    from analyzer.games.canasta_mc import make_job
    from kernels.canasta_sim import MODE_ROUNDS

    return make_job(MODE_ROUNDS, rules, parse_policies(policy, rules.players),
                    name="canasta rounds", unit="rounds")


def _check_policy(policy: str) -> None:
    from analyzer.games.canasta import parse_policy

    for part in policy.split(","):
        parse_policy(part)


def _register_metrics() -> None:
    from analyzer.tune import Metric, register_metric
    from kernels.canasta_sim import NROUNDSTAT

    # round_trial columns: 0 rounds, then ΣX (1 + 2k) and ΣX² for k in ROUND_STATS order:
    # 0 turns, 1 went out, 2 sevens lock, 3 stock exhausted, ..., 10 points per player.
    for name, desc, k, kind in (
            ("round_turns", "turns per round (all players)", 0, "mean"),
            ("p_going_out", "P(the round ends by going out)", 1, "rate"),
            ("p_sevens_lock", "P(the round ends in a sevens lock)", 2, "rate"),
            ("sevens_canastas", "sevens canastas per round (all players)", 7, "mean"),
            ("points_per_player", "round score per player", 10, "mean")):
        register_metric(Metric("canasta", name, desc, CanastaRules, _rounds_job, 1 + 2 * k,
                               "greedy", kind, "rounds", _check_policy))
    register_metric(Metric("canasta", "first_mover_score", "round score of the first mover",
                           CanastaRules, _rounds_job, 1 + 2 * NROUNDSTAT, "greedy", "mean",
                           "rounds", _check_policy))


_register_metrics()
