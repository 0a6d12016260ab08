"""Numba kernels of Trash Pandas: Monte Carlo of one turn (and its bonus turn) under a policy
given as flat decision tables (:func:`simulate_turns`), its specialisation with no cards in hand
(:func:`simulate_turns_nocards`), and the bare stop-at-K loop (:func:`stop_at_plain`); the bench's
calibration loop is in ``calibration.py`` (not re-exported). The exact solver is plain Python
(analyzer/games/trash_pandas/exact.py). Whole games: :func:`play_games` (whole.py, with
whole_state.py and whole_bots.py; sum columns named by :func:`column_names`) and
:func:`decide_blocks` (whole_decide.py: a position played out for each choice on common random
numbers). Only entry points and the sum columns (:data:`COLUMNS`) are re-exported.
"""
from kernels.trash_pandas.turn import (COLUMNS, NSUMS, simulate_turns, simulate_turns_nocards,
                                       stop_at_plain)
from kernels.trash_pandas.whole import column_names, play_games
from kernels.trash_pandas.whole_decide import decide_blocks

__all__ = ["simulate_turns", "simulate_turns_nocards", "stop_at_plain", "COLUMNS", "NSUMS",
           "play_games", "decide_blocks", "column_names"]
