"""MAGDAGDON in `pushluck tune`: the metrics a rule sweep reports (``METRICS``).

A tuning "policy" is ``POLICY/DIFFICULTY`` (e.g. ``greedy/peaceful``; the difficulty defaults to
survival), so ``--sweep policy=greedy/peaceful,greedy/nightmare`` compares difficulties too.
"""
from __future__ import annotations

from analyzer.games.magdagdon.rules import MagdagdonRules
from analyzer.tune import Metric


def _split(policy: str) -> tuple[str, str]:
    name, _, diff = policy.partition("/")
    return name.strip() or "greedy", diff.strip() or "survival"


def _games_job(rules, policy: str):
    from analyzer.games.magdagdon.lineup import parse_policy
    from analyzer.games.magdagdon.play import make_job
    from analyzer.games.magdagdon.rules import difficulty

    name, diff = _split(policy)
    return make_job(rules, difficulty(rules, diff), parse_policy(name))


def _check_policy(policy: str) -> None:
    from analyzer.games.magdagdon.lineup import parse_policy
    from analyzer.games.magdagdon.rules import difficulty

    name, diff = _split(policy)
    parse_policy(name)
    difficulty(MagdagdonRules(), diff)


# kernels/magdagdon/blocks.py games_blocks columns (policy A): Σ of score 0, turns 2,
# MAGDAGDON rolls 4, ruins 6, powers used 8.
METRICS = [
    Metric("magdagdon", name, text, MagdagdonRules, _games_job, col, "greedy/survival", "mean",
           "games", _check_policy, square=col + 1)  # no range declared: asymptotic interval
    for name, col, text in [
        ("mean_score", 0, "final score per game"),
        ("magdagdon_rolls", 4, "MAGDAGDON rolls per game (first roll of a turn unplaceable)"),
        ("ruins", 6, "ruins per game (MAGDAGDONs accepted)"),
        ("powers_used", 8, "Majda Powers used per game"),
        ("turns", 2, "turns per game")]
]
