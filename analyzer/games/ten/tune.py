"""Ten in `pushluck tune`: the metrics a rules sweep measures (``METRICS``), one turn from a fresh
4-player deck under a policy (default ``total:7``) and the default value model."""
from __future__ import annotations

from analyzer.games.ten.rules import TenRules
from analyzer.tune import Metric


def _turn_job(rules, policy: str):
    """One turn from a fresh 4-player deck under ``policy`` (default value model)."""
    from analyzer.games.ten.exact import Model, parse_policy
    from analyzer.games.ten.play import make_job
    from analyzer.games.ten.rules import ValueModel, load_deck, turn_state

    state = turn_state(rules, load_deck(None), None, None, 4)
    return make_job(Model(state, rules, ValueModel(), 4, 0), [parse_policy(policy)])


def _check_policy(policy: str) -> None:
    from analyzer.games.ten.exact import parse_policy

    parse_policy(policy)


# kernels/ten/turn.py turn_blocks columns for one policy: 0 number busts, 1 currency busts,
# 2 Σ number cards taken, 4 Σ tokens taken, 6 Σ value.
# 3 Σ number cards², 5 Σ tokens², 7 Σ value² (each Σx's square in the next column). No range is
# declared for the means (`tune --target` gives them the asymptotic interval).
METRICS = [
    Metric("ten", name, text, TenRules, _turn_job, col, "total:7", kind, "turn", _check_policy,
           square=None if kind == "rate" else col + 1)
    for name, col, kind, text in [
        ("bust_rate", (0, 1), "rate", "P(the turn busts), either kind"),
        ("number_bust_rate", 0, "rate", "P(number bust: T reaches bust_at)"),
        ("currency_bust_rate", 1, "rate", "P(currency bust: C reaches currency_bust_at)"),
        ("value", 6, "mean", "mean value of a turn (card=1, token=0.25, bust token=3 tokens)"),
        ("number_cards", 2, "mean", "number cards taken per turn")]
]


def _whole_game_metrics():
    """Whole-game metrics (analyzer/games/ten/whole_parts.py), each with its Σx² column; a win
    share and the share of wilds auctioned lie in [0, 1], the other means declare no range
    (`tune --target` gives them the asymptotic interval)."""
    from analyzer.games.ten.whole_parts import metrics
    from kernels.ten.whole_layout import LINEUP_COLUMNS

    out = metrics()
    for m in out:
        if m.kind != "rate":
            m.square = LINEUP_COLUMNS.index(LINEUP_COLUMNS[m.column] + "_sq")
        if m.name in ("seat_advantage", "wilds_auctioned"):
            m.bounds = (0.0, 1.0)
    return out


METRICS += _whole_game_metrics()
