"""The whole-game state array's layout (kernels/trash_pandas/whole_state.py docstring): card
type columns and row offsets. No Numba here, so the Python side can read and check a position
without importing or loading any kernel."""
import numpy as np

CARDS = ("blammo", "doggo", "feesh", "kitteh", "pie", "nanners", "shiny", "yumyum")
BLAMMO, DOGGO, FEESH, KITTEH, PIE, NANNERS, SHINY, YUMYUM = range(8)
NT = 8
MAXP = 4
HAND, STASH, UP, GAIN = 0, 4, 8, 12
DISC, DECK, SC = 16, 17, 18
NROWS = 19


def new_state() -> np.ndarray:
    """An empty state array (all zero)."""
    return np.zeros((NROWS, NT), dtype=np.int64)
