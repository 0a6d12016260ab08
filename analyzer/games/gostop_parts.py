"""Go-Stop in batch reports and tuning: the default section and the metrics `pushluck tune` sweeps."""
from __future__ import annotations

from analyzer.report import section_part

section_part("gostop", "analyzer.games.gostop_report", "section",
             "seats, events, payments and the appetite for going")


def _deal_job(rules, policy: str):
    """Whole deals between ``policy`` (one for everyone, or one per seat); seat 0 deals first."""
    from analyzer.games.gostop import parse_policies
    from analyzer.games.gostop_play import make_sim_job

    return make_sim_job(rules, parse_policies(policy, rules.players))


def _check_policy(policy: str) -> None:
    from analyzer.games.gostop import parse_policy

    for part in policy.split(","):
        if part.strip():
            parse_policy(part)


def _register_metrics() -> None:
    from analyzer.games.gostop import GoStopRules
    from analyzer.tune import Metric, register_metric
    from kernels import gostop_batch as K

    for name, col, kind, text in [
            ("nagari_rate", K.C_NAGARI, "rate", "P(the deal is a nagari: nobody scores out)"),
            ("first_player_advantage", K.C_DADV, "mean",
             "dealer (who plays first) net chips minus the mean of the others, per deal"),
            ("first_player_win_rate", K.C_WIN, "rate", "P(the dealer, who plays first, wins)"),
            ("chongtong_rate", K.C_CHONG, "rate", "P(a chongtong deal)")]:
        register_metric(Metric("gostop", name, text, GoStopRules, _deal_job, col, "greedy", kind,
                               "deals", _check_policy))


_register_metrics()
