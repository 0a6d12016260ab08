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
