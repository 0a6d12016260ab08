"""What Ten gives the bot ladder (analyzer/ladder.py): bots, labels, and one job that plays every
line-up on the same deals (whole.py ``Setup``: kernels/ten/whole_blocks.py ``game_blocks``
seeds game t of a block from the block's key and t alone, then plays it once per line-up, so
every line-up draws from the same shuffled pile and the same random stream until the bots'
choices differ). A seat's win column is its win share: a win shared by k seats counts 1/k."""
from __future__ import annotations

import numpy as np

TITLE = "Ten"


def ladder_game(rules, deck, players: int):
    """The :class:`analyzer.ladder.LadderGame` of Ten for these rules, deck file and players."""
    from analyzer.games.ten.lineup import parse_bot
    from analyzer.ladder import LadderGame, LadderJob

    def job(lineups):
        from dataclasses import replace

        from analyzer.games.ten.whole import Setup
        from kernels.ten.whole_layout import column

        setup = Setup(rules, deck, players, [list(lu) for lu in lineups])
        k = len(lineups)
        wins = np.array([[column(f"win_{i}", l, k) for i in range(players)]
                         for l in range(k)], dtype=np.int64)
        games = np.array([column("games", l, k) for l in range(k)], dtype=np.int64)
        return LadderJob(replace(setup.job(), name="ten ladder"), wins, games)

    return LadderGame("ten", TITLE, players, parse_bot, lambda bot: bot.label, job,
                      thinks=lambda bot: bot.name == "rollout")
