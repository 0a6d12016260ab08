"""MAGDAGDON pure-Python references: the kernels' algorithms in plain Python, for ``bench``.

They document the algorithms (the exact depth-first placement search, the heuristic board value
H, the greedy policy) and give ``pushluck bench`` its kernel/Python speed-up, measured in the same
process. They cover the default 4×4 rules only.

* ``reference_feasibility``: trial t rolls four dice and decides whether the PEACEFUL minimum (2)
  can be placed on board t mod B — the exact search over placement orders.
* ``reference_greedy_games``: whole SURVIVAL games under the greedy policy from the empty board
  (SURVIVAL's one power costs 70, more than the policy's threshold, so no power is ever used and
  the reference needs no power logic). The kernel tabulates the empty-board choice once per run
  (an "opening book"); the reference searches every turn.
"""
from __future__ import annotations

import random


def _neighbours(n):
    out = []
    for i in range(n * n):
        r, c = divmod(i, n)
        out.append([rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                    if 0 <= rr < n and 0 <= cc < n])
    return out


NB4 = _neighbours(4)


def _fits(cells, i, v, anynum):
    if cells[i] != 0:
        return False
    if not anynum:
        return True
    seen = False
    for j in NB4[i]:
        x = cells[j]
        if 1 <= x <= 6:
            if abs(x - v) > 1:
                return False
            seen = True
    return seen


def _most(cells, dice, target):
    """The same depth-first search as the kernel, stopping at ``target`` dice (the query's pure
    path, ``feasible.search``, without its placement budget)."""
    from analyzer.games.magdagdon.feasible import search

    return search(cells, dice, target, 4, 1, budget=1 << 62)[0]


def reference_feasibility(boards, n: int, seed: int) -> float:
    """Share of ``n`` random rolls whose PEACEFUL minimum (2) fits on board t mod B of ``boards``
    (board notation, default rules), by the same search as the kernel."""
    from analyzer.games.magdagdon.rules import MagdagdonRules, read_board

    rules = MagdagdonRules()
    boards = [read_board(b, rules) for b in boards]
    rnd = random.Random(seed)
    ok = 0
    for t in range(n):
        cells = boards[t % len(boards)]
        need = min(2, cells.count(0))
        dice = [rnd.randint(1, 6) for _ in range(4)]
        ok += _most(cells, dice, need) >= need
    return ok / n


def _line_value(vals, bonus):
    """Exact bonus of a full line; 0.5 · attainable bonus · filled/4 for an open line."""
    if 7 in vals:
        return 0.0
    filled = [v for v in vals if v]
    best = 0
    for s in range(1, 4):
        if all(v == 0 or v == s + i for i, v in enumerate(vals)) or \
                all(v == 0 or v == s + 3 - i for i, v in enumerate(vals)):
            best = max(best, bonus[0])
            break
    if len(set(filled)) <= 1:
        best = max(best, bonus[1])
    distinct = set(filled)
    if len(distinct) <= 2 and all(filled.count(v) <= 2 for v in distinct) and \
            (len(filled) < 4 or len(distinct) == 2):
        best = max(best, bonus[2])
    return float(best) if len(filled) == 4 else 0.5 * best * len(filled) / 4


def _heur(cells, bonus=(60, 40, 20), ruin=15):
    anynum = any(1 <= x <= 6 for x in cells)
    dead = set()
    if anynum:
        for i in range(16):
            if cells[i] == 0 and any(1 <= cells[j] <= 6 for j in NB4[i]) and \
                    not any(_fits(cells, i, v, True) for v in range(1, 7)):
                dead.add(i)
    view = [7 if i in dead else x for i, x in enumerate(cells)]
    total = sum(2 * x for x in cells if 1 <= x <= 6)
    live = sum(1 for i, x in enumerate(cells) if x == 0 and i not in dead)
    total += 7 * live - ruin * (cells.count(7) + len(dead))
    for r in range(4):
        total += _line_value(view[4 * r:4 * r + 4], bonus)
        total += _line_value(view[r::4], bonus)
    return total


def _greedy_place(cells, dice, need):
    best = [None, -1e300]
    seen = set()

    def rec(dice, placed):
        anynum = any(1 <= x <= 6 for x in cells)
        for v in sorted(set(dice)):
            rest = list(dice)
            rest.remove(v)
            for i in range(16):
                if _fits(cells, i, v, anynum):
                    key = frozenset(placed + [(i, v)])
                    if key in seen:
                        continue
                    seen.add(key)
                    cells[i] = v
                    if len(key) >= need:
                        h = _heur(cells)
                        if h > best[1]:
                            best[0], best[1] = list(key), h
                    rec(rest, placed + [(i, v)])
                    cells[i] = 0

    rec(list(dice), [])
    return best[0]


def reference_greedy_games(n: int, seed: int) -> float:
    """Pure-Python greedy SURVIVAL games (no power is ever worth 70); returns the mean score."""
    rnd = random.Random(seed)
    total = 0.0
    for _ in range(n):
        cells = [0] * 16
        while 0 in cells:
            need = min(2, cells.count(0))
            dice = [rnd.randint(1, 6) for _ in range(4)]
            if _most(cells, dice, need) >= need:
                for i, v in _greedy_place(cells, dice, need):
                    cells[i] = v
            else:
                best = max((i for i in range(16) if cells[i] == 0),
                           key=lambda i: _heur(cells[:i] + [7] + cells[i + 1:]))
                cells[best] = 7
        total += _heur(cells)
    return total / n
