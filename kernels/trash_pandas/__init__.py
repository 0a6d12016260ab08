"""Numba kernels of Trash Pandas: Monte Carlo of one turn (and its bonus turn) under a policy
given as flat decision tables (:func:`simulate_turns`), its specialisation with no cards in hand
(:func:`simulate_turns_nocards`, nocards.py: a vectorised pass of outcome codes, then their
counts), and the bare stop-at-K loop (:func:`stop_at_plain`); the bench's
calibration loop is in ``calibration.py`` (not re-exported). The exact solver is plain Python
(analyzer/games/trash_pandas/exact.py). Whole games: :func:`play_games` (whole_games.py, over
whole.py, whole_state.py and whole_bots.py; sum columns named by :func:`column_names`) and
:func:`decide_blocks` (whole_decide.py: a position played out for each choice on common random
numbers, each trial's unseen cards drawn by :func:`sample_world`, belief.py: the belief about
the cards a seat cannot see, also used by the ``rollout:K`` bot); a line-up with a ``rollout:K``
bot runs their twins in whole_rollout.py (imported only then). The belief's self-play data:
belief_data.py. Only entry points and the sum columns (:data:`COLUMNS`) are re-exported.
"""
from kernels.lazy import lazy_exports


# Entry point -> defining module, imported on first use (PEP 562): reading a position imports
# layout.py alone, and a turn query does not load the whole-game kernels.
_WHERE = {
    "simulate_turns": "kernels.trash_pandas.turn",
    "simulate_turns_nocards": "kernels.trash_pandas.nocards",
    "stop_at_plain": "kernels.trash_pandas.turn",
    "COLUMNS": "kernels.trash_pandas.turn",
    "NSUMS": "kernels.trash_pandas.turn",
    "play_games": "kernels.trash_pandas.whole_games",
    "column_names": "kernels.trash_pandas.whole_games",
    "decide_blocks": "kernels.trash_pandas.whole_decide",
    "sample_world": "kernels.trash_pandas.belief",
}

__getattr__, __all__ = lazy_exports(globals(), _WHERE)
