"""Recording where the front's rules go wrong, for the games whose rules are raced by Monte Carlo.

What belongs here: the game-independent loop that replays each rule of a raced front in fresh
seeded games, collects the decisions its engine recorded and hands them to
:func:`analyzer.advice.mistakes.where_wrong`. A game supplies ``record(rule, n_games, seed)``,
which plays ``n_games`` games with the studied seat on ``rule`` and returns, for every decision
of that seat, the game index, the feature values a person sees and what the rule chose; this
module compares that with the reference (best known) rule on the same feature values. numpy
only; no printing.

Streams: the recording games use their own block-key stream :data:`STREAM` of the run's seed
(``analyzer.rng.block_keys(seed, first, count, stream=STREAM)``), so they are fresh games, not
the race's, and the same seed gives the same record.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Mapping, Sequence

#: block-key stream of the recording games (0 is the race, 1 the tuner's re-runs)
STREAM = 2
#: games recorded per front rule by default: enough that a state met once in 10 games is seen
#: a few hundred times, in about a second or two per rule
GAMES = 2000


def record_keys(seed: int, n_games: int, block: int):
    """Block keys and per-block game counts covering ``n_games`` games on :data:`STREAM`;
    game g is trial g mod ``block`` of block g div ``block``."""
    import numpy as np

    from analyzer.rng import block_keys

    nb = -(-n_games // block)
    counts = np.full(nb, block, dtype=np.int64)
    counts[-1] = n_games - block * (nb - 1)
    return block_keys(seed, 0, nb, stream=STREAM), counts


def front_mistakes(front: Sequence, record: Callable, reference, words: Mapping, decision,
                   seed: int, n_games: int = GAMES, *, acts: Callable | None = None,
                   cuts: Callable | None = None, top: int = 5) -> None:
    """Set ``extra["mistakes"]`` on each scored rule of ``front``.

    ``record(rule, n_games, seed) -> (game, X, rule_act)``: per decision of the studied seat,
    its game index (0 … n_games − 1), the feature arrays ``X[name]`` and True where the rule
    chose ``decision.act``. ``reference`` is the best known rule; ``acts(rule, X)`` gives a
    rule's choices on ``X`` (default ``rule.acts(X)``) and ``cuts(rule, reference)`` the
    boundaries to cut the states at (default :func:`analyzer.advice.mistakes.rule_cuts`).
    Nothing more is recorded once the command was interrupted (the race or a rule before)."""
    import numpy as np

    from analyzer.advice.mistakes import rule_cuts, where_wrong

    acts = acts or (lambda r, X: r.acts(X))
    cuts = cuts or rule_cuts
    from analyzer.errors import was_interrupted
    from analyzer.interrupts import sigint_seen

    for s in front:
        if was_interrupted() or sigint_seen():
            break  # the race was interrupted: print what finished, record nothing more
        game, X, ra = record(s.rule, n_games, seed)
        X = {f: np.asarray(v) for f, v in X.items()}
        same = s.rule == reference
        ba = np.asarray(acts(reference, X), dtype=bool) if len(game) else np.zeros(0, bool)
        s.extra["mistakes"] = where_wrong(n_games, game, X, ra, ba, cuts(s.rule, reference),
                                          words, decision, seed=seed, same=same, top=top)


@contextmanager
def interruptible():
    """Around a front's recording: Ctrl-C stops it, the race's front is still printed (rules
    whose record finished keep their summary, the one in progress has none) and the command
    exits 130 (``analyzer.errors.mark_interrupted``)."""
    try:
        yield
    except KeyboardInterrupt:
        from analyzer.errors import mark_interrupted
        from analyzer.output import note_interrupted

        mark_interrupted()
        note_interrupted("interrupted: the race finished; where its rules go wrong is shown only "
                         "for the rules whose recording finished")
