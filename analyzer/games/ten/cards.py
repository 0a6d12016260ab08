"""Ten card types as the whole-game kernels index them, and the bridge to the card notation.

Type codes (55): number cards ``9·colour + value − 1`` (0..35; colours r, b, g, o = 0..3),
currency ``36 + value − 1`` (36..40), colour wilds ``41 + colour`` (41..44), number wilds
``45 + value − 1`` (45..53), the full wild 54. Notation as on the rules page: r5, $3, r#, *5, **.
"""
from __future__ import annotations

from analyzer.games.ten.rules import COLOURS

NTYPES = 55
CUR0, CW0, NW0, FULL = 36, 41, 45, 54


def type_code(t: int) -> str:
    """The notation of card type ``t``."""
    if t < 36:
        return f"{COLOURS[t // 9]}{t % 9 + 1}"
    if t < CW0:
        return f"${t - CUR0 + 1}"
    if t < NW0:
        return f"{COLOURS[t - CW0]}#"
    if t < FULL:
        return f"*{t - NW0 + 1}"
    return "**"


CODES = tuple(type_code(t) for t in range(NTYPES))
TYPE_OF = {c: t for t, c in enumerate(CODES)}


def counts_of(codes) -> np.ndarray:
    """int64[55] counts of a list of card codes (already parsed and lower-case)."""
    import numpy as np  # here: parsing and checking cards needs no numpy

    out = np.zeros(NTYPES, dtype=np.int64)
    for c in codes:
        out[TYPE_OF[c]] += 1
    return out


def codes_of(counts) -> list[str]:
    """The card codes of an int[55] count row, each repeated by its count."""
    return [CODES[t] for t in range(NTYPES) for _ in range(int(counts[t]))]


def value_of(t: int) -> int:
    """Face value of a number (1..9) or currency (1..5) type; 0 for wilds."""
    if t < 36:
        return t % 9 + 1
    if t < CW0:
        return t - CUR0 + 1
    return 0
