"""Pig's lock-step threshold games (kernels/pig/lanes.py) give the one-game-at-a-time sums."""
import numpy as np
import pytest

from analyzer.rng import block_keys
from kernels.pig.game import KIND_THRESHOLD, simulate_blocks
from kernels.pig.lanes import LANES, threshold_games
from kernels.rng import lemire_threshold

NO_TABLE = np.zeros((1, 1, 1), dtype=np.uint8)


def _both(keys, counts, goal, faces, bust, alternate, h0, h1):
    args = (keys, counts, goal, faces, bust, alternate, KIND_THRESHOLD, h0, NO_TABLE,
            KIND_THRESHOLD, h1, NO_TABLE)
    return simulate_blocks(*args), simulate_blocks(*args, force_general=True)


@pytest.mark.parametrize("goal,faces,bust,alternate,h0,h1", [
    (100, 6, 1, True, 20, 20), (100, 6, 1, False, 25, 15), (50, 8, 2, True, 12, 30),
    (20, 6, 1, True, 1, 100), (10, 3, 1, False, 0, 4), (100, 6, 1, True, 20, 200)])
def test_lock_step_sums_equal_the_one_game_loop(goal, faces, bust, alternate, h0, h1):
    """Every column of every block, with block sizes below, at and above the lane count, one
    empty block and rule variants (faces, bust faces, goal, who starts, holds above the goal)."""
    keys = block_keys(7, 0, 6)
    counts = np.array([0, 1, LANES - 1, LANES, 3 * LANES + 5, 2000], dtype=np.int64)
    fast, slow = _both(keys, counts, goal, faces, bust, alternate, h0, h1)
    assert np.array_equal(fast, slow)
    assert fast[:, 2].sum() > 0


def test_every_game_replayed_when_every_face_is_flagged():
    """thr = 2**32 flags every face, so every game is put aside and replayed exactly: the sums
    must not change (the replay path and its bookkeeping)."""
    k = block_keys(3, 0, 1)[0]
    for count in (1, LANES + 3, 500):
        args = (k[0], k[1], k[2], k[3], count, 100, 6, 1, True, 20, 18)
        normal = threshold_games(*args, lemire_threshold(6))
        forced = threshold_games(*args, np.uint64(1) << np.uint64(32))
        assert np.array_equal(normal, forced) and normal[2] > 0


def test_hold_at_20_plays_the_known_game():
    """Hold at 20 against itself, first mover alternating: about 73 rolls and 20 turns a game
    and the first mover wins more than half (a loose sanity check of whole games)."""
    keys = block_keys(11, 0, 8)
    counts = np.full(8, 5000, dtype=np.int64)
    fast, _ = _both(keys, counts, 100, 6, 1, True, 20, 20)
    n = counts.sum()
    tot = fast.sum(axis=0)
    assert 0.52 < tot[0] / n < 0.56 and 60 < tot[2] / n < 85
