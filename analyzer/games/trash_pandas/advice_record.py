"""Recording Trash Pandas whole games: the stop decisions a `game-advice` rule makes, with what
the player saw, for "which states it gets wrong most often".

What belongs here: a recording subclass of the plain-Python reference game
(analyzer/games/trash_pandas/reference.py, which plays the kernel's games on the same (block key,
trial)) and the loop that plays a rule's recording games. No printing; the comparison with the
best rule is analyzer/advice/record.py's.

The model. Game g (0 … n − 1) is trial 0 of block key g of the recording stream
(:func:`analyzer.advice.record.record_keys` with blocks of :data:`RECORD_BLOCK` = 1 game, so a
game is identified by its key alone and the seat can change from game to game); the studied seat
plays the rule with the bot the race used (``cand.bot()``, advice_game.py) in seat g mod P (P
players: each seat an equal share, ±1 game) against ``heuristic`` opponents, as in the race.
Whenever the studied seat is asked whether to roll again (``keep_rolling``: after a roll that
neither busted nor ended the roll phase), the record holds the game index, the features of
advice_game.py as the stop rule table reads them (``table_feature``: tokens held, the bonus flag,
cards left in the draw pile, cards behind the biggest other stash, cards in hand, usable
Blammo! + Nanners) and whether the bot rolled on. The recording changes no random number: the
games are the kernel's games (tests/test_advice_mistakes_whole.py checks game by game).
"""
from __future__ import annotations

from analyzer.games.trash_pandas.bots import TABLE_FEATURES as FEATURE_IDS
from analyzer.games.trash_pandas.reference import Game

#: games per block key: 1, so that each game has its own key and the studied seat can rotate
#: game by game (the reference plays one game at a time: blocks buy it nothing)
RECORD_BLOCK = 1
#: games recorded per front rule by default, fewer than analyzer.advice.record.GAMES (2,000):
#: the reference plays a game in about 1.3 ms (3 players, one core; 2-3 ms on a busy machine),
#: so 2,000 games would take 3 to 5 s per rule, and fronts hold 2 to 4 rules; 1,000 games take
#: 1.3 to 2.5 s per rule and see some 13,000 roll-or-stop decisions of the studied seat
GAMES = 1000
#: the recorded features: advice_game.py's, those a stop rule table reads (bots.py gives their
#: ids), so this module needs nothing of advice_game.py (which calls it)
NAMES = tuple(FEATURE_IDS)


class RecordingGame(Game):
    """The reference game, logging the studied seat's roll-or-stop decisions into ``log`` as
    (game index, *features in :data:`NAMES` order, rolled on?)."""

    def watch(self, seat: int, index: int, log: list) -> "RecordingGame":
        self.studied, self.index, self.log = seat, index, log
        return self

    def keep_rolling(self, p, held, nh, mode):
        roll = super().keep_rolling(p, held, nh, mode)
        if p == self.studied:
            seen = [self.table_feature(p, FEATURE_IDS[f], nh, mode) for f in NAMES]
            self.log.append((self.index, *seen, bool(roll)))
        return roll


def setup_for(rules, players: int, cand, others=None):
    """The kernel setup with one line-up per seat: line-up s has ``cand``'s bot in seat s and
    the bots of the line-up ``others`` (default ``heuristic`` in every seat) elsewhere (the
    race's line-ups)."""
    from analyzer.games.trash_pandas.bots import plain_bot
    from analyzer.games.trash_pandas.whole import GameSetup

    mine = cand.bot()
    others = tuple(others) if others else (plain_bot("heuristic"),) * players
    return GameSetup(rules, players, [tuple(mine if i == s else others[i]
                                            for i in range(players)) for s in range(players)])


def record(rules, players: int, cand, n_games: int, seed: int, others=None):
    """Play ``n_games`` recording games of ``cand`` (module doc). Returns ((game, X, rolled),
    results): per decision its game index, the feature arrays ``X[name]`` and whether the bot
    rolled on; per game the reference's result (scores, shares, turns, counts) with ``seat``."""
    import numpy as np

    from analyzer.advice.record import record_keys
    from analyzer.pystream import Stream

    setup = setup_for(rules, players, cand, others)
    keys, _counts = record_keys(seed, n_games, RECORD_BLOCK)
    tables = (setup.roll_tab, setup.after_tab)
    log: list = []
    results = []
    for g in range(n_games):
        seat = g % players
        game = RecordingGame(players, setup.deck, setup.rules_arr, setup.deal, setup.bots[seat],
                             tables, Stream(keys[g], 0)).watch(seat, g, log)
        turns = game.play_out()
        res = game.result()
        res.update(turns=turns, counts=dict(game.count), seat=seat)
        results.append(res)
    rows = np.asarray(log, dtype=np.int64).reshape(-1, len(NAMES) + 2)
    X = {f: rows[:, 1 + i] for i, f in enumerate(NAMES)}
    return (rows[:, 0], X, rows[:, -1] == 1), results
