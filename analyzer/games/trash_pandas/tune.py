"""Tuning metrics of Trash Pandas for `pushluck tune trash-pandas` (``METRICS``).

What belongs here: one :class:`~analyzer.tune.Metric` per quantity worth sweeping over house
rules, each naming its kernel sum column, the column of its square and the range of one trial's
value (known from the rules, so that `tune --target` can give intervals valid at any sample
size); the job builders they use come from :mod:`.play`.

Ranges. ``turn_value``: the smallest and largest value a turn can resolve to under the rules and
the policy's tables (the "any turn" range of
:func:`analyzer.games.trash_pandas.play._rare_ranges`, which `simulate` uses too). Whole games stop
after at most ``MAXTURNS`` turns (kernels/trash_pandas/whole.py; the kernel counts a truncated
game as ``MAXTURNS + 1`` turns), so turns and busts per game lie in ``[0, MAXTURNS + 1]``; a seat's
win share lies in ``[0, 1]``; the winner's margin lies between 0 and the most points one seat can
score, the first-place points plus the per-card points of every copy of every card type of the
deck.

Keys that cannot matter (``no_effect``): the bonus turn starts only when a turn collects all six
tokens, so ``bonus_cap`` and ``bonus_turn`` cannot change a trial under a policy that never does:
a lone turn whose exact chance of six is 0, or whole games whose bots all stop below six and
never play Yum Yum (which forces a stopped player to roll once more, so repeated Yum Yums could
carry a cautious player to six).
"""
from __future__ import annotations

from analyzer.games.trash_pandas.rules import TrashPandasRules, ValueModel
from analyzer.tune import Metric
from kernels.trash_pandas.turn import COLUMNS


def _turn_job(rules: TrashPandasRules, policy: str):
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.lineup import parse_policy
    from analyzer.games.trash_pandas.play import build_tables, make_job

    solver = TurnSolver(ValueModel(), rules)
    return make_job(build_tables(parse_policy(policy), solver, 0, 0, 0), solver)


def _turn_range(rules: TrashPandasRules, policy: str) -> tuple[float, float]:
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.lineup import parse_policy
    from analyzer.games.trash_pandas.play import _rare_ranges, build_tables

    solver = TurnSolver(ValueModel(), rules)
    _tokens, (_rare, any_turn) = _rare_ranges(build_tables(parse_policy(policy), solver, 0, 0, 0),
                                              solver)
    return any_turn


def _check_policy(policy: str) -> None:
    from analyzer.games.trash_pandas.lineup import parse_policy

    parse_policy(policy)


def _games_job(rules: TrashPandasRules, policy: str):
    """Whole 3-player games; ``policy`` is a bot for every seat, or one per seat (',')."""
    from analyzer.games.trash_pandas.lineup import parse_lineup
    from analyzer.games.trash_pandas.whole import GameSetup, game_job

    return game_job(GameSetup(rules, 3, [parse_lineup(policy, 3, "--seats")]))


def _check_bot(policy: str) -> None:
    from analyzer.games.trash_pandas.lineup import parse_lineup

    parse_lineup(policy, 3, "--seats")


def _game_column(name: str) -> int:
    from kernels.trash_pandas.whole_games import column_names

    return column_names(3, 1).index(f"L0:{name}")


def _most_turns(_rules, _policy) -> tuple[float, float]:
    from kernels.trash_pandas.whole import MAXTURNS

    return 0.0, float(MAXTURNS + 1)


def _margin_range(rules: TrashPandasRules, _policy) -> tuple[float, float]:
    from analyzer.games.trash_pandas.score import load_deck

    deck = load_deck(rules.deck or None)
    most = sum(max(c.points, default=0) + c.per_card * c.copies for c in deck.values())
    return 0.0, float(most)


BONUS_KEYS = frozenset({"bonus_turn", "bonus_cap"})


def _never_six_turn(rules: TrashPandasRules, policy: str) -> str:
    """Why a lone turn under ``policy`` never collects all six tokens ("" when it may): its
    exact chance of doing so is 0 (the policy evaluator, not a sample)."""
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.lineup import parse_policy
    from analyzer.games.trash_pandas.play import PolicyEvaluator, build_tables

    solver = TurnSolver(ValueModel(), rules)
    spec = parse_policy(policy)
    six = PolicyEvaluator(build_tables(spec, solver, 0, 0, 0), solver).turn()["p_all_six"]
    return (f"under the policy {spec.label} a turn never collects all six tokens (exact chance 0)"
            if six == 0.0 else "")


def _never_six_game(_rules, policy: str) -> str:
    """Why no seat of a whole game under ``policy`` ever collects all six ("" when one may):
    every seat is a heuristic bot that stops below six tokens, and none plays Yum Yum (the
    only card that makes a stopped player roll on)."""
    from analyzer.games.trash_pandas.lineup import parse_lineup

    limits = []
    for bot in parse_lineup(policy, 3, "--seats"):
        knobs = dict(bot.knobs)
        if bot.name != "heuristic" or bot.table or knobs["yumyum-at"] != 0:
            return ""
        stops = [knobs["stop-at"]]
        if knobs["band-by"] != "none":
            stops += [knobs["stop-at-2"]] + ([knobs["stop-at-3"]] if knobs["cut-2"] else [])
        limits.append(max(stops))
    return (f"every seat stops by {max(limits)} tokens and none plays Yum Yum, so no turn "
            f"collects all six" if max(limits) < 6 else "")


def _no_effect(never_six):
    def reason(rules: TrashPandasRules, policy: str, keys) -> str:
        """Why changing ``keys`` cannot change a trial under ``rules`` and ``policy``."""
        if not keys or not set(keys) <= BONUS_KEYS:
            return ""
        why = never_six(rules, policy)
        verb = "acts" if len(set(keys)) == 1 else "act"
        return (f"{' and '.join(sorted(set(keys)))} only {verb} in the bonus turn, which needs "
                f"all six tokens: {why}" if why else "")
    return reason


def _game_metric(name: str, description: str, column: str, kind: str, bounds=None) -> Metric:
    return Metric("trash-pandas", name, description, TrashPandasRules, _games_job,
                  _game_column(column), "heuristic", kind, "games", _check_bot,
                  square=None if kind == "rate" else _game_column(column + "_sq"),
                  bounds=bounds, no_effect=_no_effect(_never_six_game), lineup=True)


METRICS = [
    Metric("trash-pandas", "turn_value",
           "mean value of a turn (card-equivalents, default value model, no cards)",
           TrashPandasRules, _turn_job, COLUMNS.index("sum_value"), "optimal", "mean", "turn",
           _check_policy, square=COLUMNS.index("sum_value2"), bounds=_turn_range,
           no_effect=_no_effect(_never_six_turn)),
    Metric("trash-pandas", "bust_rate", "P(the main turn busts)", TrashPandasRules, _turn_job,
           COLUMNS.index("main_busts"), "optimal", "rate", "turn", _check_policy,
           no_effect=_no_effect(_never_six_turn)),
]
METRICS += [
    _game_metric("first_seat_win_rate", "whole 3-player games: seat 1's win rate (fair: 1/3; "
                 "first-player advantage = this − 1/3)", "win0", "mean", (0.0, 1.0)),
    _game_metric("game_length", "whole 3-player games: turns per game", "turns", "mean",
                 _most_turns),
    _game_metric("winner_margin", "whole 3-player games: winner's points minus the runner-up's",
                 "margin", "mean", _margin_range),
    _game_metric("tiebreak_share", "whole 3-player games: share of games whose top points are "
                 "tied (decided by a tie-break or shared)", "tiebreak", "rate"),
    _game_metric("busts_per_game", "whole 3-player games: main-turn busts per game",
                 "main_busts", "mean", _most_turns),
]


def _set_knob(policy: str, knob: str, value: str) -> str:
    """``policy`` with ``knob = value`` on every seat's bot (``--space stop-at=2..5``)."""
    from analyzer.games.trash_pandas.bots import Bot, lineup_label
    from analyzer.games.trash_pandas.lineup import parse_bot, parse_lineup

    fresh = dict(parse_bot(f"heuristic:{knob}={value}").knobs)[knob]  # checks the value
    seats = []
    for bot in parse_lineup(policy, 3, "--seats"):
        if bot.name == "random" or bot.table:
            from analyzer.errors import UserError

            raise UserError(f"--space {knob}: the bot '{bot.label}' has no knob {knob}")
        knobs = dict(bot.knobs)
        knobs[knob] = fresh
        seats.append(Bot(bot.name, tuple(knobs.items()), bot.rollouts))
    return lineup_label(tuple(seats))


def _with_knobs(metrics: list[Metric]) -> list[Metric]:
    from analyzer.games.trash_pandas.bots import KNOBS

    for m in metrics:
        if m.job_key == "games":
            m.knobs, m.set_knob = tuple(KNOBS), _set_knob
    return metrics


METRICS = _with_knobs(METRICS)
