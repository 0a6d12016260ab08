"""MAGDAGDON: rules, board notation, scoring, exact feasibility and exact MAGDAGDON odds.

Rules page: ``shared/rules/magdagdon.md``. A board is written as its rows top to bottom separated
by ``/``, one character per cell: ``1``–``6`` a number, ``.`` empty, ``x`` a ruin; a roll is its
dice values (``3446``; ``-``/``,``/spaces are ignored). Cells are named ``rRcC`` (1-based).

Scoring (exact, pure Python here; the kernels score finished games with the same formula):
every row and every column scores the sum of its numbers; a line of n numbers earns its best
bonus (straight: n consecutive values in order, either direction; n of a kind; two pairs: two
different values, n/2 of each — for the 4×4 board exactly the rules page's "two pairs"); a line
with a ruin or an empty cell earns no bonus; −ruin_penalty per ruin; then the difficulty's power
penalties (the first k costs for k uses).

Exact MAGDAGDON odds: the 6^d ordered rolls fall into C(d+5, 5) multisets (126 for d = 4); each
multiset's feasibility is decided once by the exact search (kernels/magdagdon_board.py) and weighted
by its number of orderings d!/Πc_v!. With k powers left, V_k(m) = 1 when m is placeable, else
the best over: a ±1 change of one die (→ V_{k−1}), a reroll of any sub-multiset (the expectation
of V_{k−1} over the reroll's outcomes), or no power (0); p_magdagdon_after_powers = Σ_m w_m
(1 − V_K(m)) / 6^d. The powers' point costs are ignored here: the question is only whether the
roll can be saved.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from analyzer.errors import UserError
from analyzer.rules import rule

DIFFICULTIES = ("peaceful", "survival", "nightmare")
RUIN = 7
CELL_VALUE = 7.0  # expected final worth of a cell that will get a number: 2 lines × 3.5
POTENTIAL = 0.5   # weight of a still-attainable line bonus in the heuristic board value


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


def parse_board(text: str, rules: MagdagdonRules) -> np.ndarray:
    """Board notation → int8 cells (row-major; 0 empty, 1–6, 7 ruin)."""
    n = rules.board_size
    rows = text.strip().split("/")
    if len(rows) != n:
        raise UserError(f"board '{text}' has {len(rows)} rows; expected {n} (board_size {n}; "
                        f"rows are separated by '/')")
    cells = np.zeros(n * n, dtype=np.int8)
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


def format_board(cells, n: int) -> str:
    ch = {0: ".", RUIN: "x"}
    return "/".join("".join(ch.get(int(cells[r * n + c]), str(int(cells[r * n + c])))
                            for c in range(n)) for r in range(n))


def board_lines(cells, n: int) -> str:
    """The board as a small grid for text output."""
    return "\n".join("  " + " ".join(format_board(cells, n).split("/")[r]) for r in range(n))


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
    c = np.zeros(7, dtype=np.int64)
    for v in roll:
        c[v] += 1
    return c


def empties(cells) -> int:
    return int(np.count_nonzero(np.asarray(cells) == 0))


def min_dice(cells, rules: MagdagdonRules, diff: Difficulty) -> int:
    """The turn's minimum: the difficulty's, lowered to the number of empty cells (and capped at
    the dice rolled)."""
    return min(diff.min_dice, empties(cells), rules.dice_per_roll)


# ----------------------------------------------------------------------------- scoring

def line_bonus(values: list[int], rules: MagdagdonRules) -> tuple[str, int]:
    """(name, points) of the best bonus of a complete line of numbers."""
    n = len(values)
    found = []
    asc = all(values[i + 1] - values[i] == 1 for i in range(n - 1))
    desc = all(values[i] - values[i + 1] == 1 for i in range(n - 1))
    if asc or desc:
        found.append(("straight", rules.straight_bonus))
    distinct = sorted(set(values))
    if len(distinct) == 1:
        found.append(("four of a kind" if n == 4 else f"{n} of a kind", rules.four_kind_bonus))
        if rules.four_kind_is_two_pairs and n % 2 == 0:
            found.append(("two pairs", rules.two_pairs_bonus))
    if n % 2 == 0 and len(distinct) == 2 and all(values.count(v) == n // 2 for v in distinct):
        found.append(("two pairs", rules.two_pairs_bonus))
    if not found:
        return "", 0
    return max(found, key=lambda t: t[1])


def score(cells, rules: MagdagdonRules, diff: Difficulty, powers_used: int = 0) -> dict:
    """Final-score breakdown of a board (bonuses only on lines of n numbers)."""
    n = rules.board_size
    if powers_used < 0 or powers_used > diff.powers:
        raise UserError(f"--powers-used {powers_used}: {diff.name} has {diff.powers} Majda "
                        f"Powers")
    grid = [[int(cells[r * n + c]) for c in range(n)] for r in range(n)]
    lines = []
    for kind, idx in (("row", range(n)), ("column", range(n))):
        for k in idx:
            vals = grid[k] if kind == "row" else [grid[r][k] for r in range(n)]
            nums = [v for v in vals if 1 <= v <= 6]
            if len(nums) == n:
                name, pts = line_bonus(nums, rules)
            else:
                name, pts = "", 0
            lines.append({"line": f"{kind} {k + 1}", "sum": sum(nums), "bonus": name or None,
                          "bonus_points": pts})
    ruins = sum(v == RUIN for row in grid for v in row)
    line_sums = sum(x["sum"] for x in lines)
    bonuses = sum(x["bonus_points"] for x in lines)
    penalty = diff.penalty(powers_used)
    total = line_sums + bonuses - rules.ruin_penalty * ruins - penalty
    return {"game": "magdagdon", "board": format_board(cells, n), "difficulty": diff.name,
            "lines": lines, "line_sums": line_sums, "bonuses": bonuses, "ruins": ruins,
            "ruin_penalty": rules.ruin_penalty * ruins, "powers_used": powers_used,
            "power_penalty": penalty, "empty_cells": empties(cells),
            "finished": empties(cells) == 0, "score": total, "exact": True}


# ----------------------------------------------------------------------------- kernel inputs

@functools.lru_cache(maxsize=8)
def _multisets(d: int):
    """All multisets of d dice (counts over 1..6), their codes Σ c_v (d+1)^(v-1), and for each
    j = 0..d the multisets of j dice with their probabilities (flattened with start offsets)."""
    base = d + 1

    def ms(j):
        out = []

        def rec(v, left, cur):
            if v == 6:
                out.append(cur + [left])
                return
            for c in range(left, -1, -1):
                rec(v + 1, left - c, cur + [c])
        rec(1, j, [])
        return out

    def code(c):
        return sum(c[v] * base ** v for v in range(6))

    full = ms(d)
    ms_cnt = np.zeros((len(full), 7), dtype=np.int64)
    ms_code = np.zeros(len(full), dtype=np.int64)
    weights = np.zeros(len(full), dtype=np.int64)
    for k, c in enumerate(full):
        ms_cnt[k, 1:] = c
        ms_code[k] = code(c)
        weights[k] = math.factorial(d) // math.prod(math.factorial(x) for x in c)
    oc_code, oc_prob, oc_start = [], [], [0]
    for j in range(d + 1):
        for c in ms(j):
            oc_code.append(code(c))
            oc_prob.append(math.factorial(j) / math.prod(math.factorial(x) for x in c) / 6 ** j)
        oc_start.append(len(oc_code))
    return (ms_cnt, ms_code, weights, np.array(oc_code, dtype=np.int64),
            np.array(oc_prob, dtype=np.float64), np.array(oc_start, dtype=np.int64))


def kernel_inputs(rules: MagdagdonRules, diff: Difficulty, book: bool = False):
    """Kernel inputs G; with ``book`` the policies' opening book is filled in (whole games)."""
    G = _kernel_inputs(rules, diff)
    if book and not G[13].any():
        from kernels.magdagdon import build_book

        build_book(G)
    return G


@functools.lru_cache(maxsize=16)
def _kernel_inputs(rules: MagdagdonRules, diff: Difficulty):
    """The tuple G the kernels take: (ri, rf, masks, badv, LT, bon, pen, zob, ms_cnt, ms_code,
    oc_code, oc_prob, oc_start, book_k, book_cells, book_values, code_to_multiset)."""
    from kernels.magdagdon_board import (MAXD, RF_CELL, RF_POT, RF_POWTHR, RF_RUIN, RI_D,
                                         RI_MIN, RI_N, RI_POW, line_table)

    n = rules.board_size
    N = n * n
    ri = np.zeros(8, dtype=np.int64)
    ri[RI_N], ri[RI_D], ri[RI_MIN], ri[RI_POW] = n, rules.dice_per_roll, diff.min_dice, diff.powers
    rf = np.zeros(4, dtype=np.float64)
    rf[RF_RUIN] = rules.ruin_penalty
    rf[RF_CELL] = CELL_VALUE
    rf[RF_POWTHR] = rules.ruin_penalty + CELL_VALUE
    rf[RF_POT] = POTENTIAL
    full = (1 << N) - 1
    notfirst = sum(1 << i for i in range(N) if i % n != 0)
    notlast = sum(1 << i for i in range(N) if i % n != n - 1)
    canon = sum(1 << (r * n + c) for r in range(n) for c in range(n) if r <= c and r + c <= n - 1 and 2 * c <= n - 1)
    masks = np.array([full, notfirst, notlast, canon], dtype=np.uint64)
    badv = np.zeros(7, dtype=np.int64)
    badv[0] = rules.tolerance
    for v in range(1, 7):
        badv[v] = sum(1 << u for u in range(1, 7) if abs(u - v) > rules.tolerance)
    bon = np.array([rules.straight_bonus, rules.four_kind_bonus, rules.two_pairs_bonus,
                    1.0 if rules.four_kind_is_two_pairs else 0.0, POTENTIAL], dtype=np.float64)
    LT = line_table(n, bon) if n <= 5 else np.zeros(1, dtype=np.float64)
    pen = np.zeros(diff.powers + 2, dtype=np.float64)
    for k in range(1, diff.powers + 2):
        pen[k] = pen[k - 1] + (diff.costs[k - 1] if k - 1 < len(diff.costs) else 1e9)
    zob = np.random.Generator(np.random.PCG64(20260419)).integers(
        0, 2**63, size=N * 8, dtype=np.int64).astype(np.uint64)
    ms_cnt, ms_code, _w, oc_code, oc_prob, oc_start = _multisets(rules.dice_per_roll)
    M = ms_cnt.shape[0]
    book = (np.zeros((3, M), dtype=np.int64), np.zeros((3, M, MAXD), dtype=np.int64),
            np.zeros((3, M, MAXD), dtype=np.int64),
            np.zeros((rules.dice_per_roll + 1) ** 6, dtype=np.int64))
    return (ri, rf, masks, badv, LT, bon, pen, zob, ms_cnt, ms_code, oc_code, oc_prob,
            oc_start) + book


def vm_of(cells) -> np.ndarray:
    vm = np.zeros(8, dtype=np.uint64)
    for i, v in enumerate(cells):
        vm[int(v)] |= np.uint64(1 << i)
    return vm


# ----------------------------------------------------------------------------- exact answers

def feasible(cells, roll, rules: MagdagdonRules, diff: Difficulty) -> dict:
    """Exact: can the turn's minimum be placed? The most dice placeable; witness orders."""
    from kernels.magdagdon_board import make_work, search

    n = rules.board_size
    G = kernel_inputs(rules, diff)
    need = min_dice(cells, rules, diff)
    cnt = counts_of(roll)
    W, _S = make_work(rules.dice_per_roll, 0)
    vm = vm_of(cells)

    def run(target):
        got = search(vm, cnt, target, n, G[2], G[3], W[19], W[0], W[1], W[2], W[3], W[4],
                     W[5], W[6], W[7], W[8])
        order = [{"value": int(W[8][k]), "row": int(_bit(W[7][k])) // n + 1,
                  "column": int(_bit(W[7][k])) % n + 1} for k in range(got)]
        return got, order

    if need == 0:
        raise UserError("the board has no empty cell: the game is over")
    got, witness = run(need)
    top = min(rules.dice_per_roll, empties(cells))
    most, most_order = run(top)
    return {"game": "magdagdon", "board": format_board(cells, n), "roll": roll,
            "difficulty": diff.name, "min_dice": need, "feasible": got >= need,
            "max_dice": most, "witness": witness if got >= need else None,
            "max_witness": most_order if most > 0 else None, "exact": True}


def _bit(b) -> int:
    return int(b).bit_length() - 1


def odds(cells, rules: MagdagdonRules, diff: Difficulty, powers_left: int | None = None) -> dict:
    """Exact MAGDAGDON probability of the next roll, before and after the best use of powers."""
    from kernels.magdagdon_exact import escape_dp, feasible_table

    if powers_left is None:
        powers_left = diff.powers
    if powers_left < 0 or powers_left > diff.powers:
        raise UserError(f"--powers-left {powers_left}: {diff.name} has {diff.powers} Majda Powers")
    need = min_dice(cells, rules, diff)
    if need == 0:
        raise UserError("the board has no empty cell: the game is over")
    G = kernel_inputs(rules, diff)
    d = rules.dice_per_roll
    ms_cnt, _code, weights, *_ = _multisets(d)
    feas = feasible_table(cells, need, G)
    V = escape_dp(feas, powers_left, G)
    total = 6 ** d
    bad = int(sum(int(w) for w, f in zip(weights, feas) if not f))
    p_after = float(np.dot(weights, 1.0 - V[powers_left])) / total
    worst = [{"roll": "".join(str(v) for v in range(1, 7) for _ in range(int(ms_cnt[m, v]))),
              "orderings": int(weights[m]),
              "p_escape_with_powers": float(V[powers_left, m])}
             for m in range(len(weights)) if not feas[m]]
    return {"game": "magdagdon", "board": format_board(cells, rules.board_size),
            "difficulty": diff.name, "min_dice": need, "powers_left": powers_left,
            "rolls_total": total, "rolls_magdagdon": bad, "p_magdagdon": bad / total,
            "p_magdagdon_after_powers": p_after, "magdagdon_rolls": worst, "exact": True}


def rules_dict(rules: MagdagdonRules) -> dict:
    from analyzer.rules import rules_to_dict

    return rules_to_dict(rules)
