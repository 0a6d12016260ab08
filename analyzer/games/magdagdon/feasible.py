"""MAGDAGDON feasibility of one roll in pure Python: the kernels' placement search, no Numba.

`magdagdon feasible` does one or two small searches; loading any cached Numba kernel would cost
about half an ``import numba`` by itself, so the query runs this search and falls back to the
kernel (``kernels.magdagdon.board.search``) only when a search grows past ``NODE_BUDGET``
placements (large boards or many dice). Both give the same answer and the same witness order
(tests/test_magdagdon_feasible.py checks them against each other on random boards, rolls and
rules).

Model (rules sections 2–3): a die of value v may go on an empty cell that shares a side with some
number and with no number u where |u − v| > tolerance; while the board holds no number (dice
placed earlier this turn count), on any empty cell. The search is the kernel's, in the same
order: depth first; at each depth the distinct values v = 1..6 still in the roll, each on its
valid cells from the lowest index up (valid cells are computed when the depth is entered);
place, record the deepest order found first, stop at ``target`` dice; descend only when some die
fits afterwards. Boards are Python-int bitboards (bit ``r*n + c``); neighbours of a set m are
``((m & notlast) << 1) | ((m & notfirst) >> 1) | (m << n) | (m >> n)`` masked to the board.
Cost: at most (values × cells)^depth placements; a few hundred for the default 4×4 board and 4
dice on typical boards.
"""
from __future__ import annotations

NODE_BUDGET = 20_000


class BudgetExceeded(Exception):
    """The search grew past ``NODE_BUDGET`` placements: run the kernel instead."""


class _Board:
    def __init__(self, cells, n: int, tolerance: int):
        self.n = n
        self.tol = tolerance
        N = n * n
        self.full = (1 << N) - 1
        self.notfirst = sum(1 << i for i in range(N) if i % n != 0)
        self.notlast = sum(1 << i for i in range(N) if i % n != n - 1)
        self.vm = [0] * 8  # vm[0] empty cells, vm[v] cells holding v, vm[7] ruins
        for i, v in enumerate(cells):
            self.vm[int(v)] |= 1 << i

    def _nb(self, a: int) -> int:
        return (((a & self.notlast) << 1) | ((a & self.notfirst) >> 1) | (a << self.n)
                | (a >> self.n)) & self.full

    def valid(self, cnt) -> list[int]:
        """Valid cells of each value 1..6 still in the roll (index 0 unused)."""
        vm = self.vm
        out = [0] * 7
        if not (vm[1] | vm[2] | vm[3] | vm[4] | vm[5] | vm[6]):
            for v in range(1, 7):
                if cnt[v] > 0:
                    out[v] = vm[0]
            return out
        nbv = [0] + [self._nb(vm[u]) for u in range(1, 7)]
        base = vm[0] & (nbv[1] | nbv[2] | nbv[3] | nbv[4] | nbv[5] | nbv[6])
        for v in range(1, 7):
            if cnt[v] > 0:
                bad = 0
                for u in range(1, 7):
                    if abs(u - v) > self.tol:
                        bad |= nbv[u]
                out[v] = base & ~bad
        return out


def search(cells, roll, target: int, n: int, tolerance: int,
           budget: int = NODE_BUDGET) -> tuple[int, list[tuple[int, int]]]:
    """Most dice of ``roll`` (capped at ``target``) placeable in some order, and the first such
    order found as (cell index, value) pairs; raises ``BudgetExceeded`` past ``budget``
    placements."""
    best, order, _nodes = search_counted(cells, roll, target, n, tolerance, budget)
    return best, order


def search_counted(cells, roll, target: int, n: int, tolerance: int,
                   budget: int) -> tuple[int, list[tuple[int, int]], int]:
    """:func:`search`, also returning the placements it made."""
    if target <= 0:
        return 0, [], 0
    board = _Board(cells, n, tolerance)
    cnt = [0] * 7
    for v in roll:
        cnt[int(v)] += 1
    vm = board.vm
    path: list[tuple[int, int]] = []
    found = {"best": 0, "order": [], "nodes": 0}

    def rec(valid) -> bool:
        """Explore one depth; True once ``target`` dice are placed."""
        for v in range(1, 7):
            m = valid[v]
            while m:
                b = m & -m
                m ^= b
                found["nodes"] += 1
                if found["nodes"] > budget:
                    raise BudgetExceeded
                vm[v] |= b
                vm[0] ^= b
                cnt[v] -= 1
                path.append((b.bit_length() - 1, v))
                if len(path) > found["best"]:
                    found["best"] = len(path)
                    found["order"] = list(path)
                    if found["best"] >= target:
                        return True
                nxt = board.valid(cnt)
                if any(nxt) and rec(nxt):
                    return True
                path.pop()
                vm[v] ^= b
                vm[0] |= b
                cnt[v] += 1
        return False

    first = board.valid(cnt)
    if any(first):
        rec(first)
    return found["best"], found["order"], found["nodes"]
