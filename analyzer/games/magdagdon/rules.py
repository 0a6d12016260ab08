"""MAGDAGDON rules: the house-rule dataclass, the difficulties and the board/roll notation.

Rules reference: ``docs/rules/magdagdon.md``. A board is written as its rows top to bottom separated
by ``/``, one character per cell: ``1``–``6`` a number, ``.`` empty, ``x`` a ruin; a roll is its
dice values (``3446``; ``-``/``,``/spaces are ignored). Cells are named ``rRcC`` (1-based). In
Python a board is a sequence of cells, row-major: 0 empty, 1–6 a number, 7 (``RUIN``) a ruin —
a list of ints from ``read_board`` (the exact queries: no NumPy), or the int8 array
``parse_board`` gives the kernels. This module imports NumPy only inside ``parse_board`` and
``counts_of``.

What belongs here: the rules (one ``rule(...)`` per house-rule key, checked on load), the
difficulties built from them, parsing and printing of boards and rolls, and the small facts of a
position every other module needs (empty cells, the turn's minimum number of dice).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyzer.errors import UserError
from analyzer.rules import rule

if TYPE_CHECKING:
    import numpy as np

DIFFICULTIES = ("peaceful", "survival", "nightmare")
RUIN = 7


@dataclass(frozen=True)
class MagdagdonRules:
    board_size: int = rule(4, "board is n×n", min=2, max=8)
    dice_per_roll: int = rule(4, "ordinary d6 rolled each turn", min=1, max=6)
    tolerance: int = rule(1, "adjacent numbers may differ by at most this much", min=0, max=5)
    ruin_penalty: int = rule(15, "points lost per ruin", min=0, max=1000)
    straight_bonus: int = rule(60, "bonus for a full line of consecutive values in order",
                               min=0, max=1000)
    four_kind_bonus: int = rule(40, "bonus for a full line of one value (n of a kind)", min=0,
                                max=1000)
    two_pairs_bonus: int = rule(20, "bonus for a full line of two values, two of each (n/2 of "
                                "each on other board sizes)", min=0, max=1000)
    four_kind_is_two_pairs: bool = rule(False, "four of a kind also counts as two pairs (matters "
                                        "only if two_pairs_bonus > four_kind_bonus)")
    peaceful_min_dice: int = rule(2, "PEACEFUL: dice to place each turn", min=1, max=6)
    peaceful_powers: int = rule(3, "PEACEFUL: Majda Powers", min=0, max=10)
    peaceful_costs: tuple[int, ...] = rule((10, 20, 40), "PEACEFUL: penalty of the 1st, 2nd, … "
                                           "power use", min=0, max=1000)
    survival_min_dice: int = rule(2, "SURVIVAL: dice to place each turn", min=1, max=6)
    survival_powers: int = rule(1, "SURVIVAL: Majda Powers", min=0, max=10)
    survival_costs: tuple[int, ...] = rule((70,), "SURVIVAL: penalty of each power use", min=0,
                                           max=1000)
    nightmare_min_dice: int = rule(3, "NIGHTMARE: dice to place each turn", min=1, max=6)
    nightmare_powers: int = rule(0, "NIGHTMARE: Majda Powers", min=0, max=10)
    nightmare_costs: tuple[int, ...] = rule((), "NIGHTMARE: penalty of each power use", min=0,
                                            max=1000)

    def check(self) -> None:
        for d in DIFFICULTIES:
            mn = getattr(self, f"{d}_min_dice")
            pw = getattr(self, f"{d}_powers")
            costs = getattr(self, f"{d}_costs")
            del mn  # a minimum above dice_per_roll is capped at dice_per_roll
            if len(costs) < pw:
                raise UserError(f"rule '{d}_costs' lists {len(costs)} costs but '{d}_powers' is "
                                f"{pw}: give one cost per power")


@dataclass(frozen=True)
class Difficulty:
    name: str
    min_dice: int
    powers: int
    costs: tuple

    def penalty(self, uses: int) -> int:
        return int(sum(self.costs[:uses]))


def difficulty(rules: MagdagdonRules, name: str) -> Difficulty:
    key = name.strip().lower()
    if key not in DIFFICULTIES:
        raise UserError(f"unknown difficulty '{name}' (use peaceful, survival or nightmare)")
    return Difficulty(key.upper(), getattr(rules, f"{key}_min_dice"),
                      getattr(rules, f"{key}_powers"), tuple(getattr(rules, f"{key}_costs")))


# ----------------------------------------------------------------------------- notation

def cell_name(i: int, n: int) -> str:
    return f"r{i // n + 1}c{i % n + 1}"


def read_board(text: str, rules: MagdagdonRules) -> list[int]:
    """Board notation → cells as a list of ints (row-major; 0 empty, 1–6, 7 ruin)."""
    n = rules.board_size
    rows = text.strip().split("/")
    if len(rows) != n:
        raise UserError(f"board '{text}' has {len(rows)} rows; expected {n} (board_size {n}; "
                        f"rows are separated by '/')")
    cells = [0] * (n * n)
    for r, row in enumerate(rows):
        if len(row) != n:
            raise UserError(f"board row {r + 1} '{row}' has {len(row)} cells; expected {n}")
        for c, ch in enumerate(row):
            if ch == ".":
                v = 0
            elif ch in "xX":
                v = RUIN
            elif ch in "123456":
                v = int(ch)
            else:
                raise UserError(f"board cell r{r + 1}c{c + 1} is '{ch}': use 1-6, '.' (empty) "
                                f"or 'x' (ruin)")
            cells[r * n + c] = v
    return cells


def parse_board(text: str, rules: MagdagdonRules) -> np.ndarray:
    """Board notation → int8 cells (row-major; 0 empty, 1–6, 7 ruin), as the kernels take them."""
    import numpy as np

    return np.array(read_board(text, rules), dtype=np.int8)


def format_board(cells, n: int) -> str:
    ch = {0: ".", RUIN: "x"}
    return "/".join("".join(ch.get(int(cells[r * n + c]), str(int(cells[r * n + c])))
                            for c in range(n)) for r in range(n))


def check_tolerance(cells, rules: MagdagdonRules) -> None:
    """Play commands: adjacent numbers must differ by at most the tolerance."""
    n = rules.board_size
    bad = []
    for i in range(n * n):
        a = int(cells[i])
        if not 1 <= a <= 6:
            continue
        for j in ((i + 1) if (i % n) < n - 1 else None, i + n if i + n < n * n else None):
            if j is None:
                continue
            b = int(cells[j])
            if 1 <= b <= 6 and abs(a - b) > rules.tolerance:
                bad.append(f"{cell_name(i, n)}={a} and {cell_name(j, n)}={b}")
    if bad:
        raise UserError(f"impossible board: adjacent numbers differ by more than the tolerance "
                        f"{rules.tolerance}: " + "; ".join(bad))


def parse_roll(text: str, rules: MagdagdonRules) -> list[int]:
    digits = [ch for ch in text if ch not in "-, "]
    for ch in digits:
        if ch not in "123456":
            raise UserError(f"roll '{text}': '{ch}' is not a die value 1-6")
    if len(digits) != rules.dice_per_roll:
        raise UserError(f"roll '{text}' has {len(digits)} dice; expected {rules.dice_per_roll} "
                        f"(dice_per_roll)")
    return [int(ch) for ch in digits]


def counts_of(roll) -> np.ndarray:
    """A roll as the kernels' int64 counts (index v = dice showing v; index 0 unused)."""
    import numpy as np

    c = np.zeros(7, dtype=np.int64)
    for v in roll:
        c[v] += 1
    return c


def empties(cells) -> int:
    """Empty cells of a board (a list or an array of cells)."""
    return sum(1 for v in cells if v == 0)


def min_dice(cells, rules: MagdagdonRules, diff: Difficulty) -> int:
    """The turn's minimum: the difficulty's, lowered to the number of empty cells (and capped at
    the dice rolled)."""
    return min(diff.min_dice, empties(cells), rules.dice_per_roll)



def rules_dict(rules: MagdagdonRules) -> dict:
    from analyzer.rules import rules_to_dict

    return rules_to_dict(rules)


RULES = MagdagdonRules
