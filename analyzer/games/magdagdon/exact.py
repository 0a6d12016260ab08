"""MAGDAGDON exact answers: scoring a board, feasibility of a roll, the exact MAGDAGDON odds.

No Monte Carlo, no pandas, no matplotlib: every answer here is exact (``"exact": true``).

Scoring (pure Python here; the kernels score finished games with the same formula): every row
and every column scores the sum of its numbers; a line of n numbers earns its best bonus
(straight: n consecutive values in order, either direction; n of a kind; two pairs: two
different values, n/2 of each — for the 4×4 board exactly docs/rules/magdagdon.md's "two pairs"); a line
with a ruin or an empty cell earns no bonus; −ruin_penalty per ruin; then the difficulty's power
penalties (the first k costs for k uses).

Feasibility: the exact depth-first search over placement orders, once to the turn's minimum (is
the roll a MAGDAGDON?) and once to as many dice as fit; in pure Python (``feasible.py``), or by
the kernel (kernels/magdagdon/board.py) when the search is large.

Exact MAGDAGDON odds: the 6^d ordered rolls fall into C(d+5, 5) multisets (126 for d = 4); each
multiset's feasibility is decided once by the exact search and weighted by its number of
orderings d!/Πc_v!. With k powers left, V_k(m) = 1 when m is placeable, else the best over: a ±1
change of one die (→ V_{k−1}), a reroll of any sub-multiset (the expectation of V_{k−1} over the
reroll's outcomes), or no power (0); p_magdagdon_after_powers = Σ_m w_m (1 − V_K(m)) / 6^d
(odds.py in pure Python; kernels/magdagdon/exact.py when the searches are large). The powers'
point costs are ignored here: the question is only whether the roll can be saved. Cost: 126
searches plus K · 126 · (sub-multisets × outcomes) steps for d = 4: tens of milliseconds in
Python on a typical board.

NumPy and Numba are loaded only when a search falls back to the kernels: boards may be lists of
ints (``rules.read_board``) or the kernels' int8 arrays.
"""
from __future__ import annotations

from analyzer.errors import UserError
from analyzer.games.magdagdon.rules import (RUIN, Difficulty, MagdagdonRules, counts_of, empties,
                                            format_board, min_dice)


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



def feasible(cells, roll, rules: MagdagdonRules, diff: Difficulty) -> dict:
    """Exact: can the turn's minimum be placed? The most dice placeable; witness orders.

    The pure-Python search (``feasible.py``: no Numba to load for a few hundred placements), or
    the kernel's identical search when that one grows past its placement budget."""
    from analyzer.games.magdagdon.feasible import BudgetExceeded, search

    n = rules.board_size
    need = min_dice(cells, rules, diff)
    if need == 0:
        raise UserError("the board has no empty cell: the game is over")
    top = min(rules.dice_per_roll, empties(cells))
    try:
        runs = [search(cells, roll, target, n, rules.tolerance) for target in (need, top)]
    except BudgetExceeded:
        runs = _kernel_searches(cells, roll, rules, diff, (need, top))
    (got, first), (most, deepest) = runs

    def order(pairs):
        return [{"value": int(v), "row": i // n + 1, "column": i % n + 1} for i, v in pairs]

    return {"game": "magdagdon", "board": format_board(cells, n), "roll": roll,
            "difficulty": diff.name, "min_dice": need, "feasible": got >= need,
            "max_dice": most, "witness": order(first) if got >= need else None,
            "max_witness": order(deepest) if most > 0 else None, "exact": True}


def _kernel_searches(cells, roll, rules: MagdagdonRules, diff: Difficulty, targets):
    """The kernel's search (kernels/magdagdon/board.py) for each target: (dice, [(cell, v)])."""
    from analyzer.games.magdagdon.arrays import kernel_inputs, vm_of
    from kernels.magdagdon.board import make_work, search

    G = kernel_inputs(rules, diff)
    cnt = counts_of(roll)
    W, _S = make_work(rules.dice_per_roll, 0)
    vm = vm_of(cells)
    out = []
    for target in targets:
        got = search(vm, cnt, target, rules.board_size, G[2], G[3], W[19], W[0], W[1], W[2],
                     W[3], W[4], W[5], W[6], W[7], W[8])
        out.append((int(got), [(_bit(W[7][k]), int(W[8][k])) for k in range(got)]))
    return out


def _bit(b) -> int:
    return int(b).bit_length() - 1


def odds(cells, rules: MagdagdonRules, diff: Difficulty, powers_left: int | None = None) -> dict:
    """Exact MAGDAGDON probability of the next roll, before and after the best use of powers."""
    from analyzer.games.magdagdon.odds import tables, weighted_sum
    from analyzer.games.magdagdon.rolls import roll_multisets
    from analyzer.stats import clamp_probability

    if powers_left is None:
        powers_left = diff.powers
    if powers_left < 0 or powers_left > diff.powers:
        raise UserError(f"--powers-left {powers_left}: {diff.name} has {diff.powers} Majda Powers")
    need = min_dice(cells, rules, diff)
    if need == 0:
        raise UserError("the board has no empty cell: the game is over")
    d = rules.dice_per_roll
    ms = roll_multisets(d)
    weights = ms.weights
    feas, V = tables(cells, need, rules, diff, powers_left)  # pure Python (odds.py)
    total = 6 ** d
    bad = sum(w for w, f in zip(weights, feas) if not f)
    # Sums of floating-point escape probabilities can land an ulp outside [0, 1] (-0.000000,
    # 1.0000000000000002): every probability printed is clamped.
    p_after = clamp_probability(weighted_sum(weights, [1.0 - v for v in V[powers_left]]) / total)
    worst = [{"roll": "".join(str(v) for v in range(1, 7) for _ in range(ms.counts[m][v])),
              "orderings": weights[m],
              "p_escape_with_powers": clamp_probability(V[powers_left][m])}
             for m in range(len(weights)) if not feas[m]]
    return {"game": "magdagdon", "board": format_board(cells, rules.board_size),
            "difficulty": diff.name, "min_dice": need, "powers_left": powers_left,
            "rolls_total": total, "rolls_magdagdon": bad, "p_magdagdon": bad / total,
            "p_magdagdon_after_powers": p_after, "magdagdon_rolls": worst, "exact": True}
