"""What Trash Pandas gives the bot ladder (analyzer/ladder.py): bots, labels, and one job that
plays every line-up on the same deals (whole.py ``GameSetup``: ``play_games`` replays game t of
a block on the same stream for every line-up, so the deals and the dice agree until the bots'
choices differ)."""
from __future__ import annotations

import numpy as np

TITLE = "Trash Pandas"


def ladder_game(rules, players: int):
    """The :class:`analyzer.ladder.LadderGame` of Trash Pandas for these rules and players."""
    from analyzer.games.trash_pandas.lineup import parse_bot
    from analyzer.ladder import LadderGame, LadderJob

    def job(lineups):
        from analyzer.games.trash_pandas.whole import GameSetup, game_job

        setup = GameSetup(rules, players, [tuple(lu) for lu in lineups])
        cols = setup.columns()
        wins = np.array([[cols.index(f"L{l}:win{i}") for i in range(players)]
                         for l in range(len(lineups))], dtype=np.int64)
        games = np.array([cols.index(f"L{l}:games") for l in range(len(lineups))],
                         dtype=np.int64)
        return LadderJob(game_job(setup, "trash-pandas ladder"), wins, games)

    return LadderGame("trash-pandas", TITLE, players, parse_bot,
                      lambda bot: bot.label, job,
                      thinks=lambda bot: bot.name in ("rollout", "search"))


# ---------------------------------------------------------------------------------------------
# The report part `trash-pandas.ladder` (the hook in report.py; analyzer/ladder_part.py)
#: the part's bots and deals per line-up unless the recipe says: the search bot beside the
#: heuristic and random ones, on few deals (a search:200 decision is a fraction of a millisecond)
REPORT_BOTS = ["search:200", "heuristic", "random"]
REPORT_DEALS = 60


def check(params: dict, rules: dict):
    """The part's settings (:class:`analyzer.ladder_part.LadderSettings`): the house rules, the
    players (default 3), the bots and the deals; bad ones are one line."""
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.ladder_part import part_settings
    from analyzer.rules import build_rules

    r = build_rules(TrashPandasRules, None, None, rules)
    game = ladder_game(r, int(params.get("players", 3)))
    return part_settings(game, params, REPORT_BOTS, REPORT_DEALS)


def report(settings, seed: int):
    """The part's :class:`analyzer.ladder_part.LadderPart`, played on ``seed``."""
    from analyzer.ladder_part import ladder_report

    return ladder_report(settings, seed, TITLE)
