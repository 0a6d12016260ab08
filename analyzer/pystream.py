"""The kernels' random numbers in plain Python: xoshiro256** per-trial streams (kernels/rng.py).

``Stream(key, t)`` yields the same ``randint(n)`` sequence as ``seed_trial(key, t, s)`` followed
by ``randint(s, n)`` calls in a Numba kernel, so a Python reference can replay a kernel's game.
"""
from __future__ import annotations

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1
GOLDEN = 0x9E3779B97F4A7C15


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & M64


class Stream:
    """One trial's stream: ``key`` four uint64 words (a block key), ``t`` the trial index."""

    def __init__(self, key, t: int):
        base = (t * GOLDEN) & M64
        self.s = [_mix64(int(key[j]) ^ ((base + j) & M64)) for j in range(4)]
        if not any(self.s):
            self.s[0] = 1
        self.calls = 0

    def next_u64(self) -> int:
        s = self.s
        result = (_rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def randint(self, n: int) -> int:
        """Uniform in [0, n): Lemire's multiply-shift on the high 32 bits, with rejection."""
        self.calls += 1
        m = (self.next_u64() >> 32) * n
        if (m & M32) < n:
            threshold = ((1 << 32) - n) % n
            while (m & M32) < threshold:
                m = (self.next_u64() >> 32) * n
        return m >> 32
