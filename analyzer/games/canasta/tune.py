"""Railroad Canasta tuning metrics (``METRICS``) for `pushluck tune canasta`.

What belongs here: the metrics a house-rule sweep can read. They run independent rounds (seat 1
first, scores 0) and read the per-round sums of ``kernels.canasta.trials.round_trial``.
"""
from __future__ import annotations

from analyzer.games.canasta.rules import CanastaRules
from analyzer.tune import Metric


def _rounds_job(rules: CanastaRules, policy: str):
    from analyzer.games.canasta.lineup import parse_policies
    from analyzer.games.canasta.play import make_job
    from kernels.canasta import MODE_ROUNDS

    return make_job(MODE_ROUNDS, rules, parse_policies(policy, rules.players, "--seats"),
                    name="canasta rounds", unit="rounds")


def _check_policy(policy: str) -> None:
    from analyzer.games.canasta.lineup import check_lineup

    check_lineup(policy, "--seats")


def _metrics() -> list[Metric]:
    # round_trial columns: 0 rounds, then ΣX (1 + 2k) and ΣX² for k in ROUND_STATS order:
    # 0 turns, 1 went out, 2 sevens lock, 3 stock exhausted, ..., 10 points per player,
    # 11 stall; then
    # ΣX, ΣX² of the first mover's round score at 1 + 2·NROUNDSTAT.
    from kernels.canasta.trials import NROUNDSTAT

    # no range declared for the means: `tune --target` gives them the asymptotic interval
    out = [Metric("canasta", name, desc, CanastaRules, _rounds_job, 1 + 2 * k, "greedy", kind,
                  "rounds", _check_policy, square=None if kind == "rate" else 2 + 2 * k,
                  lineup=True)
           for name, desc, k, kind in (
               ("round_turns", "turns per round (all players)", 0, "mean"),
               ("p_going_out", "P(the round ends by going out)", 1, "rate"),
               ("p_sevens_lock", "P(the round ends in a sevens lock)", 2, "rate"),
               ("p_stall", "P(the round ends in a stall: one non-seven card, no go-out)", 11,
                "rate"),
               ("sevens_canastas", "sevens canastas per round (all players)", 7, "mean"),
               ("points_per_player", "round score per player", 10, "mean"))]
    out.append(Metric("canasta", "first_mover_score", "round score of the first mover",
                      CanastaRules, _rounds_job, 1 + 2 * NROUNDSTAT, "greedy", "mean",
                      "rounds", _check_policy, square=2 + 2 * NROUNDSTAT, lineup=True))
    return out


METRICS = _metrics()
