"""Go-Stop metrics that `pushluck tune` sweeps (``METRICS``): rates and advantages of whole deals.
"""
from __future__ import annotations

from analyzer.games.gostop.rules import GoStopRules
from analyzer.tune import Metric


def _deal_job(rules, policy: str):
    """Whole deals between ``policy`` (one for everyone, or one per seat); seat 1 deals first."""
    from analyzer.games.gostop.lineup import parse_seats
    from analyzer.games.gostop.play import make_sim_job

    return make_sim_job(rules, parse_seats(policy, rules.players, "--seats"))


def _check_policy(policy: str) -> None:
    from analyzer.games.gostop.lineup import check_lineup

    check_lineup(policy, "--seats")


def _metrics() -> list[Metric]:
    from kernels.gostop import batch as K

    squares = {K.C_DADV: K.C_DADV2}  # no range declared for the chips: asymptotic interval
    return [Metric("gostop", name, text, GoStopRules, _deal_job, col, "greedy", kind,
                   job_key="deals", check_policy=_check_policy, square=squares.get(col),
                   lineup=True)
            for name, col, kind, text in [
                ("nagari_rate", K.C_NAGARI, "rate", "P(the deal is a nagari: nobody scores out)"),
                ("first_player_advantage", K.C_DADV, "mean",
                 "dealer (who plays first) net chips minus the mean of the others, per deal"),
                ("first_player_win_rate", K.C_WIN, "rate", "P(the dealer, who plays first, wins)"),
                ("chongtong_rate", K.C_CHONG, "rate", "P(a chongtong deal)")]]


METRICS = _metrics()
