"""Recording Ten whole games: the draw decisions a `game-advice` rule makes, with what the player
saw, for "which states it gets wrong most often".

What belongs here: a recording subclass of the plain-Python reference game
(analyzer/games/ten/whole_reference.py, which plays the kernel's games on the same (block key,
trial)) and the loop that plays a rule's recording games. No printing; the comparison with the
best rule is analyzer/advice/record.py's.

The model. Game g (0 … n − 1) is trial 0 of block key g of the recording stream
(:func:`analyzer.advice.record.record_keys` with blocks of :data:`RECORD_BLOCK` = 1 game, so a
game is identified by its key alone and the seat can change from game to game); the studied seat
plays the rule with the bot the race used (``plain_bot(cand.bot_text())``, advice_game.py) in
seat g mod P (P players: each seat an equal share, ±1 game) against ``threshold`` opponents, as
in the race. Whenever the studied seat is asked whether to draw again (``wants_draw``: after a
draw that did not bust, while the pile holds a card), the record holds the game index, the
features of advice_game.py as the ``table`` bot reads them (T = N − C and C of the tableau's
number and currency cards, the tableau's cards, the cards left in the draw pile, the currency
and bust tokens held) and whether the bot drew.

Speed: the reference scores collections with `ten score` (about a second per game); recording
scores them through the kernel's scorer instead (:func:`kernel_scorer`, the same scores: the
tests check `ten score` against it), about 200 games a second with 4 players. The recording
changes no random number: the games are the kernel's games (tests/test_advice_mistakes_whole.py
checks game by game).
"""
from __future__ import annotations

from analyzer.games.ten.draw_table import FEATURE_IDS
from analyzer.games.ten.cards import TYPE_OF, value_of
from analyzer.games.ten.whole_reference import RefGame

#: games per block key: 1, so that each game has its own key and the studied seat can rotate
#: game by game (the reference plays one game at a time: blocks buy it nothing)
RECORD_BLOCK = 1
#: games recorded per front rule by default, fewer than analyzer.advice.record.GAMES (2,000):
#: the reference plays a game in about 4.5 ms (4 players, one core, scoring through the
#: kernel's scorer; twice that on a busy machine), so 2,000 games would take 9 to 18 s per rule;
#: 400 games take 2 to 4 s per rule and see some 12,000 draw-or-stop decisions of the studied
#: seat with 4 players (24,000 with 2)
GAMES = 400
#: the recorded features: advice_game.py's, the ones the table bot reads (draw_table.py), so this
#: module needs nothing of advice_game.py (which calls it)
NAMES = tuple(FEATURE_IDS)


class RecordingGame(RefGame):
    """The reference game, logging the studied seat's draw-or-stop decisions into ``log`` as
    (game index, *features in :data:`NAMES` order, drew?)."""

    def watch(self, seat: int, index: int, log: list, scorer) -> "RecordingGame":
        self.studied, self.index, self.log, self.scorer = seat, index, log, scorer
        return self

    def score(self, coll) -> int:
        return self.scorer(coll)

    def wants_draw(self, a, tableau, exact):
        draw = super().wants_draw(a, tableau, exact)
        if a == self.studied:
            p = self.players[a]
            N = sum(value_of(TYPE_OF[c]) for c in tableau if TYPE_OF[c] < 36)
            C = sum(value_of(TYPE_OF[c]) for c in tableau if 36 <= TYPE_OF[c] < 41)
            seen = {"T": N - C, "C": C, "cards": len(tableau), "deck": len(self.pile),
                    "tokens": p.tokens, "busts": p.busts}
            self.log.append((self.index, *(seen[f] for f in NAMES), bool(draw)))
        return draw


def kernel_scorer(full_run: int = 10):
    """`ten score` of a collection through the kernel's scorer (kernels/ten/whole_score.py
    ``score_row``, memoised on the sorted cards): the same numbers, some hundred times faster
    than the reference's own scoring."""
    import numpy as np

    from analyzer.games.ten.cards import counts_of
    from analyzer.games.ten.whole import score_tables
    from kernels.ten.whole_score import WS_SIZE, score_row

    tabs, ws, memo = score_tables(full_run), np.zeros(WS_SIZE, dtype=np.int64), {}

    def fast(coll) -> int:
        key = tuple(sorted(coll.elements()))
        if key not in memo:
            memo[key] = int(score_row(counts_of(list(key)), tabs, ws))
        return memo[key]

    return fast


def setup_for(rules, spec, players: int, cand, others=None):
    """The kernel setup with one line-up per seat: line-up s has ``cand``'s bot in seat s and
    the bots of the line-up ``others`` (default ``threshold`` in every seat) elsewhere (the
    race's line-ups)."""
    from analyzer.games.ten.bots import plain_bot
    from analyzer.games.ten.whole import Setup

    mine = plain_bot(cand.bot_text())
    others = tuple(others) if others else (plain_bot("threshold"),) * players
    return Setup(rules, spec, players, [[mine if i == s else others[i] for i in range(players)]
                                        for s in range(players)])


def record(rules, spec, players: int, cand, n_games: int, seed: int, others=None):
    """Play ``n_games`` recording games of ``cand`` (module doc). Returns ((game, X, drew),
    results): per decision its game index, the feature arrays ``X[name]`` and whether the bot
    drew; per game the reference's (record, collections, tokens) and the studied ``seat``."""
    import numpy as np

    from analyzer.advice.record import record_keys
    from analyzer.games.ten.cards import CODES, NTYPES

    setup = setup_for(rules, spec, players, cand, others)
    keys, _counts = record_keys(seed, n_games, RECORD_BLOCK)
    deck = [CODES[t] for t in range(NTYPES) for _ in range(int(setup.arrays["deck"][t]))]
    log: list = []
    results = []
    scorer = kernel_scorer(rules.full_run_points)
    for g in range(n_games):
        seat = g % players
        game = RecordingGame(setup.rules, deck, setup.lineups[seat], keys[g], 0,
                             check=False).watch(seat, g, log, scorer)
        rec = game.play()
        results.append((rec, game.collections(), [(p.tokens, p.busts) for p in game.players],
                        seat))
    rows = np.asarray(log, dtype=np.int64).reshape(-1, len(NAMES) + 2)
    X = {f: rows[:, 1 + i] for i, f in enumerate(NAMES)}
    return (rows[:, 0], X, rows[:, -1] == 1), results
