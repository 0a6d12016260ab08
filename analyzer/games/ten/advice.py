"""Ten turn: rules of thumb for draw-or-stop, with their exact cost under the value model.

What belongs here: the turn's features and an exact evaluator of any draw-or-stop table for
:mod:`analyzer.advice`. No pandas, no printing.

States are the solver's (kernels/ten/exact.py): a pair (a, b) of the multisets of number and
currency cards drawn since the root, enumerated by ``part_multisets``. Features of a state:
``T`` = N − C, ``C`` (currency total), ``cards`` in the tableau, ``bust`` = the chance in % that
the next card busts (number or currency bust, wilds counted in the pile). Decision: draw (act) or
stop (rest; the better reward, as every policy of the solver).

Exact evaluation (vectorised NumPy, the solver's recursion with the max replaced by the rule)::

    V(s) = S(s) if the rule stops in s (or no non-wild card is left), else D(s),
    D(s) = Σ_i (r_i / R)·(bust value if type i busts, else V(s + e_i)),

level by level in the number of cards drawn, from the most to none. Everything but the rule's
draw mask is precomputed once per model (weights, children, bust values, stop values), so a rule
costs one gather per card type per level. Wilds are left out as in the solver (a wild leaves the
state unchanged), so the root value is comparable with the solver's policy values ``V[p, 0, 0]``;
the first draw from an empty tableau is mandatory. Loss = V(optimal) − V(rule).
"""
from __future__ import annotations

import numpy as np

from analyzer.advice import Decision, Feature, Rule, Scored, exact_search
from analyzer.games.ten.exact import Model

DECISION = Decision("draw", "stop")


def features(model: Model) -> list[Feature]:
    r = model.rules
    return [Feature("T", "T = N − C", tuple(range(2, r.bust_at, 1)), unit=""),
            Feature("cards", "the number of cards in your tableau", tuple(range(1, 9))),
            Feature("bust", "your bust chance on the next card",
                    tuple(range(10, 91, 10)), tuple(range(5, 96, 5)), "%"),
            Feature("C", "your currency total C", tuple(range(1, r.currency_bust_at)))]


class TenEvaluator:
    """Exact values of draw-or-stop rules from one turn state (module doc)."""

    def __init__(self, model: Model):
        from analyzer.games.ten.exact import solve
        from analyzer.games.ten.rules import TYPE_VALUES
        from kernels.ten.exact import part_multisets

        self.model = model
        st, r = model.state, model.rules
        val = TYPE_VALUES
        avail = np.array(st.avail, dtype=np.int64)
        N0, C0 = st.N, st.C
        dc = r.currency_bust_at - 1 - C0
        dn = r.bust_at - 1 - (N0 - C0) + dc
        ND, Nsum, Ncnt, nch, _ = part_multisets(avail[:9].copy(), val[:9].copy(), dn)
        CD, Csum, Ccnt, cch, _ = part_multisets(avail[9:].copy(), val[9:].copy(), dc)
        card, token, bustv, oppc, cap, room = model.scalars
        A, B = len(Ncnt), len(Ccnt)
        a, b = np.meshgrid(np.arange(A), np.arange(B), indexing="ij")
        a, b = a.ravel(), b.ravel()
        N, C = N0 + Nsum[a], C0 + Csum[b]
        ok = N - C < r.bust_at
        a, b, N, C = a[ok], b[ok], N[ok], C[ok]
        k = Ncnt[a] + Ccnt[b]
        R0 = int(avail.sum())
        R = R0 - k
        oc = np.minimum(C, cap)
        S = np.maximum(card * (st.n_numbers + Ncnt[a]) - oppc * oc, token * np.minimum(C, room))
        nbust = bustv - oppc * oc
        pos = np.full((A, B), -1, dtype=np.int64)
        pos[a, b] = np.arange(len(a))
        Rsafe = np.maximum(R, 1)
        const = np.zeros(len(a))
        kids, weights = [], []
        busts = np.zeros(len(a))
        for i in range(14):
            if i < 9:
                rem = avail[i] - ND[a, i]
                child = nch[a, i]
                bust = (child < 0) | (N0 + Nsum[np.maximum(child, 0)] - C >= r.bust_at)
                target = np.where(bust, -1, pos[np.maximum(child, 0), b])
                bval = nbust
            else:
                u = i - 9
                rem = avail[i] - CD[b, u]
                child = cch[b, u]
                bust = child < 0
                target = np.where(bust, -1, pos[a, np.maximum(child, 0)])
                bval = np.full(len(a), bustv)
            w = np.where(rem > 0, rem / Rsafe, 0.0)
            const += np.where(bust, w * bval, 0.0)
            busts += np.where(bust & (rem > 0), rem, 0)
            live = (~bust) & (rem > 0)
            kids.append(np.where(live, target, 0))
            weights.append(np.where(live, w, 0.0))
        kids, weights = np.array(kids), np.array(weights)   # [type, state]
        self.const, self.S = const, S
        self.forced_draw = (k == 0) & model.root_forced
        self.no_draw = R <= 0
        self.levels = [(np.nonzero(k == c)[0], kids[:, k == c], weights[:, k == c])
                       for c in range(int(k.max()), -1, -1)]
        self.root = int(pos[0, 0])
        self.X = {"T": N - C, "C": C, "cards": st.n_tableau + k,
                  "bust": np.round(100 * busts / np.maximum(R + st.wilds, 1)).astype(int)}
        sol = solve(model)
        self.cells = (a, b, sol.decision.shape)
        self.v_opt = sol.value(0)
        self.optimal_draw = sol.decision[a, b] == 2
        self.evaluations = 0

    def value(self, draw: np.ndarray) -> float:
        draw = (draw | self.forced_draw) & ~self.no_draw
        V = np.zeros(len(self.S))
        for idx, kids, w in self.levels:
            D = self.const[idx] + np.einsum("ts,ts->s", w, V[kids])
            V[idx] = np.where(draw[idx], D, self.S[idx])
        return float(V[self.root])

    def decision_table(self, rule: Rule) -> np.ndarray:
        """The rule as the kernels' decision table ``[numbers drawn, currency drawn]`` (the
        solver's indices): draw or stop (the kernels then take the better reward)."""
        from kernels.ten.exact import DEC_DRAW, DEC_NUMBERS

        a, b, shape = self.cells
        dec = np.full(shape, DEC_NUMBERS, dtype=np.uint8)
        dec[a, b] = np.where(np.asarray(rule.acts(self.X), dtype=bool), DEC_DRAW, DEC_NUMBERS)
        return dec

    def __call__(self, rules) -> list[Scored]:
        out = []
        for rule in rules:
            v = self.value(np.asarray(rule.acts(self.X), dtype=bool))
            self.evaluations += 1
            loss = self.v_opt - v
            out.append(Scored(rule, loss, loss, loss, 0, {"value": v}))
        return out

    def reach(self, draw: np.ndarray) -> np.ndarray:
        """Probability that the turn reaches each state under the draw mask (forward pass)."""
        draw = (draw | self.forced_draw) & ~self.no_draw
        r = np.zeros(len(self.S))
        r[self.root] = 1.0
        for idx, kids, w in reversed(self.levels):
            go = r[idx] * draw[idx]
            np.add.at(r, kids.ravel(), (w * go).ravel())
        return r

    def mistakes(self, rule: Rule) -> dict:
        """States where the rule and the optimal table disagree, weighted by the probability
        that the rule's turn reaches them; grouped by T."""
        draw = np.asarray(rule.acts(self.X), dtype=bool)
        live = ~self.forced_draw & ~self.no_draw
        wrong = live & (draw != self.optimal_draw)
        reach = self.reach(draw)
        T = self.X["T"]
        rows = []
        for t in np.unique(T[wrong]):
            m = wrong & (T == t)
            rows.append({"T": int(t), "wrong_per_turn": float(reach[m].sum()),
                         "rule_draws": bool(draw[m].mean() > 0.5)})
        rows.sort(key=lambda x: -x["wrong_per_turn"])
        return {"wrong_per_turn": float(reach[wrong].sum()), "by_T": rows[:5]}


def advise(model: Model, max_bands: int = 3, max_clauses: int = 3) -> dict:
    ev = TenEvaluator(model)
    return {**exact_search(features(model), ev, max_bands, max_clauses), "v_optimal": ev.v_opt,
            "states": len(ev.S)}
