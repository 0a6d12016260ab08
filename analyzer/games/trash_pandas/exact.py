"""Trash Pandas exact turn solver: the exact stop-or-continue values of one turn.

What belongs here: exact solvers only (memoised recursion, no sampling); no pandas, no
matplotlib, no kernels. Rules, tokens and the value model live in :mod:`.rules`; policies and
kernel jobs in :mod:`.play`.

Rules: ``docs/rules/trash-pandas.md``. One custom d6 whose six faces are the six tokens
(index: 0 trash, 1 trees, 2 trash-tree, 3 paw, 4 mask, 5 recycle). A held set is a 6-bit mask.

Value model (card-equivalents; knobs ``draw, stash, steal, mask, card, bust``, all 1 by default):
``v(trash) = 2·draw``, ``v(trees) = 2·stash``, ``v(trash-tree) = max(draw, stash)``,
``v(paw) = steal``, ``v(mask) = mask``, ``v(recycle | H) = max_{t ∉ H, t ≠ recycle} v(t)``
(0 when all six are held). A bust is worth ``bust`` (the consolation draw); spending a card costs
``card``. MMM Pie! makes one held token resolve twice (each token at most twice), adding
``v(t) − card``; it is used on the tokens with the largest positive gains.

Model of one turn (main turn cap 6, bonus turn cap ``bonus_cap`` = 3). State (mode, H, b, n, p):
the held set and the Blammo!/Nanners/MMM Pie! cards in hand.

* ``S(mode, H, p) = max_{q ≤ min(p, |H|)} [Σ_{t∈H} v(t|H) + top-q positive gains]``
  (stop and resolve).
* Collecting all six in the main turn: ``A(b, n, p) = max_q [R(all six, q) + Roll(bonus, ∅, b, n,
  p − q)]`` (recycle resolves as nothing; pies may be kept for the bonus turn).
* Rolling: ``Roll(m, H, b, n, p) = (1/6) Σ_f O(f)`` with, for a new face ``f ∉ H``::

      O(f) = max( C(m, H ∪ {f}, b, n, p),                  # take the token
                  Roll(m, H, b−1, n, p) − card   [b > 0],  # Blammo!: ignore it, roll again
                  S(m, H, p) − card               [n > 0] ) # Nanners: cancel it, stop

  and for a repeat ``f ∈ H`` (a bust)::

      O(f) = max( bust, Roll(m, H, b−1, n, p) − card [b > 0], S(m, H, p) − card [n > 0] )

  where ``C(m, H', …)`` is ``A`` when the main turn reaches six tokens, ``S`` when the bonus turn
  reaches its cap, and ``max(S, Roll)`` otherwise (decide to stop or roll again).

Every recursion strictly grows ``H`` or spends a card, so memoised recursion terminates; the
solve is exact in floating point (no iteration). Consolation draw optional ([D] knob): the bust is
worth ``max(bust, 0)``. Yum Yum is an opponent's card and outside this one-player model.
"""
from __future__ import annotations

import functools

from analyzer.errors import UserError
from analyzer.games.trash_pandas.rules import (ALL_SIX, BLAMMO, BONUS, MAIN, NANNERS, RECYCLE,
                                               TAKE, TrashPandasRules,
                                               ValueModel, held_label, held_names, popcount)


class TurnSolver:
    """Exact values of the Trash Pandas turn for one value model and rule set (module doc)."""

    def __init__(self, values: ValueModel = ValueModel(),
                 rules: TrashPandasRules = TrashPandasRules()):
        self.values = values
        self.rules = rules
        self.base = values.token_values()
        self.card = values.card
        self.bust_value = values.bust if rules.consolation == "mandatory" else max(values.bust, 0.0)

    # ----- resolving -------------------------------------------------------------------------
    def token_value(self, t: int, held: int, mode: int) -> float:
        if t != RECYCLE:
            return self.base[t]
        if mode == MAIN and held == ALL_SIX:
            return 0.0
        best = 0.0
        for u in range(5):
            if not held >> u & 1:
                best = max(best, self.base[u])
        return best

    @functools.lru_cache(maxsize=None)
    def resolve(self, mode: int, held: int, pies: int) -> float:
        """Resolve ``held`` using exactly ``pies`` MMM Pie! (best tokens first; may be < 0)."""
        vals = sorted((self.token_value(t, held, mode) for t in range(6) if held >> t & 1),
                      reverse=True)
        total = sum(vals)
        for q in range(min(pies, len(vals))):
            total += vals[q] - self.card
        return total

    @functools.lru_cache(maxsize=None)
    def best_pies(self, mode: int, held: int, pies: int) -> int:
        """How many pies to spend when stopping with ``held`` (the best q ≤ pies)."""
        best_q, best_v = 0, self.resolve(mode, held, 0)
        for q in range(1, min(pies, popcount(held)) + 1):
            v = self.resolve(mode, held, q)
            if v > best_v + 1e-12:
                best_q, best_v = q, v
        return best_q

    def stop(self, mode: int, held: int, pies: int) -> float:
        return self.resolve(mode, held, self.best_pies(mode, held, pies))

    # ----- collecting all six -------------------------------------------------------------
    @functools.lru_cache(maxsize=None)
    def all_six(self, b: int, n: int, p: int) -> tuple[float, int]:
        """(value, pies used in the first resolve) when the main turn collects all six."""
        best_v, best_q = None, 0
        for q in range(0, min(p, 6) + 1):
            v = self.resolve(MAIN, ALL_SIX, q)
            if self.rules.bonus_turn:
                v += self.roll(BONUS, 0, b, n, p - q)
            if best_v is None or v > best_v + 1e-12:
                best_v, best_q = v, q
        return best_v, best_q

    def cap(self, mode: int) -> int:
        return 6 if mode == MAIN else self.rules.bonus_cap

    # ----- after taking a token -------------------------------------------------------------
    def after_take(self, mode: int, held: int, b: int, n: int, p: int) -> float:
        if mode == MAIN and held == ALL_SIX:
            return self.all_six(b, n, p)[0]
        if popcount(held) >= self.cap(mode):
            return self.stop(mode, held, p)
        return max(self.stop(mode, held, p), self.roll(mode, held, b, n, p))

    # ----- rolling -------------------------------------------------------------------------
    @functools.lru_cache(maxsize=None)
    def outcome(self, mode: int, held: int, face: int, b: int, n: int, p: int) -> tuple[float, int]:
        """(value, decision) right after rolling ``face``: TAKE, BLAMMO or NANNERS."""
        if held >> face & 1:
            best_v, best_d = self.bust_value, TAKE
        else:
            best_v, best_d = self.after_take(mode, held | 1 << face, b, n, p), TAKE
        if b > 0:
            v = self.roll(mode, held, b - 1, n, p) - self.card
            if v > best_v + 1e-12:
                best_v, best_d = v, BLAMMO
        if n > 0:
            v = self.stop(mode, held, p) - self.card
            if v > best_v + 1e-12:
                best_v, best_d = v, NANNERS
        return best_v, best_d

    @functools.lru_cache(maxsize=None)
    def roll(self, mode: int, held: int, b: int, n: int, p: int) -> float:
        """Expected value of rolling now and playing optimally afterwards."""
        return sum(self.outcome(mode, held, f, b, n, p)[0] for f in range(6)) / 6.0

    # ----- queries -------------------------------------------------------------------------
    def query(self, held: int, b: int, n: int, p: int, bonus: bool) -> dict:
        """Everything `trash-pandas odds` reports (exact)."""
        mode = BONUS if bonus else MAIN
        k = popcount(held)
        if mode == MAIN and held == ALL_SIX:
            raise UserError("all six tokens held: they resolve at once and the bonus turn follows"
                            " (ask with --bonus for the bonus turn)")
        if mode == BONUS and k > self.rules.bonus_cap:
            raise UserError(f"a bonus turn holds at most {self.rules.bonus_cap} tokens, got {k}")
        p_bust = k / 6.0
        p_after = 0.0 if n > 0 else p_bust ** (b + 1)
        ev_stop = self.stop(mode, held, p)
        at_cap = k >= self.cap(mode)
        ev_roll = None if at_cap else self.roll(mode, held, b, n, p)
        if ev_roll is None:
            rec, margin = "stop", None
        elif abs(ev_roll - ev_stop) <= 1e-9:
            rec, margin = "either", abs(ev_roll - ev_stop)
        else:
            rec = "roll" if ev_roll > ev_stop else "stop"
            margin = abs(ev_roll - ev_stop)
        return {"held": held_names(held), "blammo": b, "nanners": n, "pie": p, "bonus": bonus,
                "p_bust_next": p_bust, "p_bust_next_after_cards": p_after,
                "ev_stop": ev_stop, "ev_roll": ev_roll, "recommendation": rec, "margin": margin,
                "pies_on_stop": self.best_pies(mode, held, p), "exact": True}

    def policy_rows(self, b: int, n: int, p: int) -> list[dict]:
        """The optimal decision for every held set of the main and the bonus turn."""
        rows = []
        for mode in (MAIN, BONUS):
            cap = self.cap(mode)
            masks = sorted((h for h in range(64) if popcount(h) < cap),
                           key=lambda h: (popcount(h), h))
            for h in masks:
                if mode == BONUS and not self.rules.bonus_turn:
                    continue
                stop_v = self.stop(mode, h, p)
                roll_v = self.roll(mode, h, b, n, p)
                if h == 0:
                    decision = "roll"
                elif abs(roll_v - stop_v) <= 1e-9:
                    decision = "either"
                else:
                    decision = "roll" if roll_v > stop_v else "stop"
                rows.append({"turn": "bonus" if mode else "main", "held": held_label(h),
                             "tokens": popcount(h), "p_bust_next": popcount(h) / 6.0,
                             "decision": decision, "ev_stop": stop_v, "ev_roll": roll_v,
                             "margin": roll_v - stop_v})
        return rows

    def turn_value(self, b: int, n: int, p: int) -> float:
        """Value of a whole turn from its first roll under optimal play."""
        return self.roll(MAIN, 0, b, n, p)
