"""The calibration loop of `pushluck bench` for Trash Pandas (issue 16): stop-at:6 written by hand.

Same random-number work as the turn kernels, none of their generality: the four block-key words
read once per block, each trial seeded by four SplitMix64 finalisers ``mix64(k_j XOR (t·GOLDEN +
j))``, xoshiro256** written inline, two faces per 64-bit draw (high half first) by multiply-shift
``(x · 6) >> 32`` with no rejection step (so a face is uniform up to a bias below 2⁻²⁹: fine for
a timing reference, not for results). It shows what a dice turn costs on this machine at best;
the bench reports the table-driven kernel as a ratio of it. Sums: 0 busts, 1 Σtokens, 2 sixes.
"""
import numpy as np
from numba import njit, prange

from kernels.rng import seed_words

_MASK32 = np.uint64(0xFFFFFFFF)
_SIX = np.uint64(6)


@njit(cache=True, inline="always")
def _step(s0, s1, s2, s3):
    """One xoshiro256** output and the next state, written out."""
    r = s1 * np.uint64(5)
    r = ((r << np.uint64(7)) | (r >> np.uint64(57))) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    return r, s0, s1, s2, s3


@njit(cache=True, parallel=True)
def minimal_stop6(keys, counts):
    """Per-block (busts, Σtokens, sixes) of stop-at:6 turns, the hand-written loop (module doc)."""
    m = keys.shape[0]
    out = np.zeros((m, 3), dtype=np.float64)
    for blk in prange(m):
        k0, k1, k2, k3 = keys[blk, 0], keys[blk, 1], keys[blk, 2], keys[blk, 3]
        busts = 0
        s_tok = 0
        sixes = 0
        for t in range(counts[blk]):
            s0, s1, s2, s3 = seed_words(k0, k1, k2, k3, t)
            h = 0
            nh = 0
            have = 0
            buf = np.uint64(0)
            while True:
                if have == 0:
                    buf, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
                    x = buf >> np.uint64(32)
                    have = 1
                else:
                    x = buf & _MASK32
                    have = 0
                bit = 1 << np.int64((x * _SIX) >> np.uint64(32))
                if h & bit:
                    busts += 1
                    break
                h |= bit
                nh += 1
                if nh == 6:
                    s_tok += 6
                    sixes += 1
                    break
        out[blk, 0] = busts
        out[blk, 1] = s_tok
        out[blk, 2] = sixes
    return out
