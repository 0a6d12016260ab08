"""Ten: one exact solve per draw pile, kept on disk, answers `ten best` for every tableau of a turn.

A turn starts from a pile P (the deck minus the cards seen); the tableau is the multiset of cards
drawn from P since. The solver's value of a state depends only on the cards drawn since P and
the value model, not on where the solve started (module doc of kernels/ten/exact.py: the
recursion at a state reads only its children), so the solution from P's fresh root — V(a, b) for
every number multiset a and currency multiset b drawn from P — holds every tableau's answer.
This module solves P's root once (``kernels.ten.exact.solve_turn``, optimal policy), keeps V and
the multiset tables in the on-disk cache (``analyzer.cache``, keyed by P, the bust limits, the
value scalars and the solver's code), and answers a tableau (a, b) without Numba or NumPy
(the cached arrays are read as memoryviews, ``analyzer.cache.cached_views``):

    D(a, b) = Σ_i (r_i / R)·(bust value if type i busts, else V(child_i(a, b)))

summed in the kernel's order (number types 1..9, then currency 1..5), so it is the same float
the kernel computes; ``states`` counts the pairs (a' ⊇ a, b' ⊇ b) with N − C < bust_at, the
states a solve rooted at the tableau visits. tests/test_ten_pile.py checks both against
``solve`` on random tableaux, seen cards, rules and value models.

Cost: one solve of P (151,591 states for a fresh 4-player deck, 2,246 × 106 value cells, about
2 MB on disk; the ``KEEP`` most recently used piles are kept), then a few milliseconds per
query. When P's solve would pass ``MAX_CELLS`` (large house rules) the caller solves from the
tableau instead.
"""
from __future__ import annotations

from bisect import bisect_right
from pathlib import Path

from analyzer.games.ten.rules import FACE_VALUES

KEEP = 32  # piles kept on disk (about 2 MB each), the least recently used removed first


def _pile_solution(model, pile: list[int]) -> dict[str, memoryview] | None:
    """V and the multiset tables of pile ``pile``'s root as memoryviews: read from the cache
    without NumPy (``analyzer.cache.cached_views``), else solved and cached."""
    from analyzer.cache import cached_arrays, cached_views
    from analyzer.games.ten.exact import KIND_OPTIMAL, MAX_CELLS, multisets_up_to

    r = model.rules
    dc = r.currency_bust_at - 1
    dn = r.bust_at - 1 + dc
    if multisets_up_to(pile[:9], FACE_VALUES[:9], dn) * multisets_up_to(
            pile[9:], FACE_VALUES[9:], dc) > MAX_CELLS:
        return None
    card, token, bustv, oppc, cap, room = model.scalars

    def compute():
        import numpy as np

        from analyzer.games.ten.rules import TYPE_VALUES
        from kernels.ten.exact import part_multisets, solve_turn

        avail = np.array(pile, dtype=np.int64)
        V, _D, _dec, nchild, cchild, _states = solve_turn(
            avail, TYPE_VALUES, 0, 0, 0, 0, r.bust_at, r.currency_bust_at, float(card),
            float(token), float(bustv), float(oppc), int(cap), int(room), True,
            np.array([KIND_OPTIMAL], dtype=np.int64), np.zeros(1, dtype=np.int64), MAX_CELLS)
        ND, Nsum, _c, _ch, _s = part_multisets(avail[:9].copy(), TYPE_VALUES[:9].copy(), dn)
        CD, Csum, _c, _ch, _s = part_multisets(avail[9:].copy(), TYPE_VALUES[9:].copy(), dc)
        return {"V": V[0], "nchild": nchild, "cchild": cchild, "ND": ND, "CD": CD,
                "Nsum": Nsum, "Csum": Csum}

    params = {"pile": pile, "bust_at": r.bust_at, "currency_bust_at": r.currency_bust_at,
              "scalars": [float(card), float(token), float(bustv), float(oppc), int(cap),
                          int(room)]}
    here = Path(__file__).resolve()
    sources = [here, here.parents[3] / "kernels" / "ten" / "exact.py"]
    views = cached_views("ten-pile", params, sources)
    if views is None:
        arrays = cached_arrays("ten-pile", params, sources, compute, keep=KEEP)
        views = {k: memoryview(a) for k, a in arrays.items()}
    return views


def _above(rows: list[list[int]], i: int) -> list[int]:
    """Indices of the rows that are ≥ row ``i`` in every column (the multisets containing it)."""
    low = rows[i]
    return [j for j, row in enumerate(rows) if all(x >= y for x, y in zip(row, low))]


def pile_answer(model) -> tuple[float, int] | None:
    """(D at the tableau, states reachable from it) from the pile's solution, or None when the
    tableau's types are unknown or the pile's solve would be too large."""
    s = model.state
    if len(s.drawn) != 14:
        return None
    pile = [int(a) + int(d) for a, d in zip(s.avail, s.drawn)]
    sol = _pile_solution(model, pile)
    if sol is None:
        return None
    V, nchild, cchild, Nsum, Csum = (sol[k] for k in ("V", "nchild", "cchild", "Nsum", "Csum"))
    a = b = 0
    for i in range(9):
        for _ in range(s.drawn[i]):
            a = nchild[a, i]
    for u in range(5):
        for _ in range(s.drawn[9 + u]):
            b = cchild[b, u]
    bust_at = model.rules.bust_at
    _card, _token, bustv, oppc, cap, _room = model.scalars
    C = Csum[b]
    nbust = bustv - oppc * (C if C < cap else cap)
    R = sum(int(x) for x in s.avail)
    D = 0.0
    if R > 0:
        for i in range(9):
            r = int(s.avail[i])
            if r <= 0:
                continue
            a2 = nchild[a, i]
            if a2 < 0 or Nsum[a2] - C >= bust_at:
                D += (r / R) * nbust
            else:
                D += (r / R) * V[a2, b]
        for u in range(5):
            r = int(s.avail[9 + u])
            if r <= 0:
                continue
            b2 = cchild[b, u]
            D += (r / R) * (bustv if b2 < 0 else V[a, b2])
    # a pair (a' ⊇ a, b' ⊇ b) is a state when Csum[b'] > Nsum[a'] − bust_at
    above_b = sorted(Csum[j] for j in _above(sol["CD"].tolist(), b))
    states = sum(len(above_b) - bisect_right(above_b, Nsum[j] - bust_at)
                 for j in _above(sol["ND"].tolist(), a))
    return D, states
