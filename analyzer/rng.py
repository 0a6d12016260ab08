"""Seeds and per-block keys.

A run with seed ``S`` and ``n`` trials is cut into blocks of a fixed size ``b`` chosen by the game
(never by the thread count). Block ``k`` covers trials ``[k*b, min((k+1)*b, n))`` and its key is
``SeedSequence(S, spawn_key=(k,)).generate_state(4, uint64)``, the same words as the k-th child of
``SeedSequence(S).spawn(...)``. Kernels derive one stream per trial from the key (kernels/rng.py),
so results depend only on (seed, n, block size), whatever the number of threads.
"""
from __future__ import annotations

import secrets

import numpy as np


def fresh_seed() -> int:
    """A new random seed, small enough to type back in (63 bits)."""
    return secrets.randbits(63)


def resolve_seed(seed: int | None) -> tuple[int, bool]:
    """Return (seed, was_drawn). Negative seeds are rejected by the CLI before this."""
    if seed is None:
        return fresh_seed(), True
    return int(seed), False


def block_keys(seed: int, first_block: int, count: int, stream: int = 0) -> np.ndarray:
    """Keys of blocks ``first_block .. first_block+count-1`` as a (count, 4) uint64 array.

    ``stream`` separates independent uses of one seed (e.g. the re-run of a tuning cell on a
    fresh stream); stream 0 is the default.
    """
    keys = np.empty((count, 4), dtype=np.uint64)
    for i in range(count):
        spawn_key = (first_block + i,) if stream == 0 else (stream, first_block + i)
        keys[i] = np.random.SeedSequence(seed, spawn_key=spawn_key).generate_state(4, np.uint64)
    return keys


def block_layout(n: int, block_size: int) -> tuple[int, np.ndarray]:
    """Number of blocks and the trial count of each for ``n`` trials in blocks of ``block_size``."""
    nblocks = -(-n // block_size)
    counts = np.full(nblocks, block_size, dtype=np.int64)
    if nblocks:
        counts[-1] = n - block_size * (nblocks - 1)
    return nblocks, counts
