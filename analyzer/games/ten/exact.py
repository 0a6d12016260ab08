"""Ten's exact answers: next-card odds by card counting and one turn's expectimax over the pile.

What belongs here: the exact solvers and their Python front ends (no sampling, no pandas or
matplotlib). The Monte Carlo side (kernel jobs, simulation, threshold tables) is in ``play.py``,
end-of-game scoring in ``score.py``.

Odds: with ``R`` cards left and tableau totals N (numbers) and C (currency), the next card is a
number bust if it is a number card with ``N + v − C ≥ bust_at``, a currency bust if it is a
currency card with ``C + u ≥ currency_bust_at``, a wild (any of the three kinds) or safe; each
probability is (matching cards left) / R.

Value model (``ValueModel``; defaults card=1, token=0.25, bust=3, opp=0): stopping takes the better
of *numbers* (card per number card, minus opp·(players−1)·min(C, cap) for the tokens the opponents
gain) and *currency* (token per token gained, at most ``token_cap − tokens_held``); a number bust is
worth a bust token (bust·token) minus the opponents' gain, a currency bust the bust token alone.
A wild is worth 0 to the turn (its auction is outside the model). The solver is in
``kernels/ten/exact.py`` (exact expectimax over the remaining pile by card-type counts; see its
doc).

Policies: ``optimal`` (the exact solver's table), ``total:t`` (stop once T = N − C ≥ t) and
``cards:m`` (stop once the tableau holds m cards; wilds do not count). Threshold policies take the
better reward under the value model when they stop. Every policy's exact expected value is computed
by the same backward sweep (``solve``), so Monte Carlo figures carry ``exact_value``.

Cost: the solver visits every reachable multiset of drawn cards once (151,591 states from a
fresh 4-player deck, a fraction of a second warm: see `pushluck bench --game ten`);
``MAX_CELLS`` bounds policies × states.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyzer.errors import UserError
from analyzer.games.ten.rules import FACE_VALUES, TenRules, TurnState, ValueModel

if TYPE_CHECKING:  # numpy is imported where a solve needs it: `ten odds` answers without it
    import numpy as np

KIND_TOTAL, KIND_CARDS, KIND_OPTIMAL = 0, 1, 2
KIND_RULE = -1   # a rule of thumb: played by the kernels as a decision table (analyzer side only)
MAX_CELLS = 40_000_000  # policies × number multisets × currency multisets (8 bytes each)


def odds(state: TurnState, rules: TenRules) -> dict:
    """Exact next-card probabilities by card counting (module doc)."""
    R = state.cards_left
    if R == 0:
        raise UserError("the draw pile is empty: the turn is over")
    nb = cb = safe = 0
    for i in range(14):
        k = state.avail[i]
        v = FACE_VALUES[i]
        if i < 9:
            if state.N + v - state.C >= rules.bust_at:
                nb += k
            else:
                safe += k
        elif state.C + v >= rules.currency_bust_at:
            cb += k
        else:
            safe += k
    return {"cards_left": R, "N": state.N, "C": state.C, "T": state.T,
            "p_bust": (nb + cb) / R, "p_number_bust": nb / R, "p_currency_bust": cb / R,
            "p_wild": state.wilds / R, "p_safe": safe / R,
            "counts": {"number_bust": nb, "currency_bust": cb, "wild": state.wilds, "safe": safe},
            "exact": True}


@dataclass(frozen=True)
class TenPolicy:
    kind: int
    param: int = 0
    rule: object = None     # KIND_RULE: the rule of thumb and the file it came from
    source: str = ""

    @property
    def label(self) -> str:
        if self.kind == KIND_RULE:
            return f"rule:{self.source}"
        if self.kind == KIND_OPTIMAL:
            return "optimal"
        return f"{'total' if self.kind == KIND_TOTAL else 'cards'}:{self.param}"


def _turn_policies():
    from analyzer.botspec import Bot, Family, Knob

    return Family("ten", [
        Bot("optimal", "the exact table"),
        Bot("total", "stop once T ≥ t", positional=("stop-at",)),
        Bot("cards", "stop once the tableau holds m cards", positional=("after",))],
        [Knob("stop-at", "int", 7, "stop once T ≥ this", -60, 60),
         Knob("after", "int", 4, "stop once the tableau holds this many cards", 1, 200)],
        what="policy")


#: The one-turn policies (``simulate --policy``/``--vs``), as the shared parser reads them.
POLICIES = _turn_policies()


def parse_policy(text: str, flag: str = "--policy") -> TenPolicy:
    """``optimal``, ``total:t``, ``cards:m`` or ``rule:FILE.json`` (analyzer/botspec.py)."""
    spec = POLICIES.parse(text, flag)
    if spec.is_rule:
        from analyzer.advice.rulefile import load_rule

        return TenPolicy(KIND_RULE, rule=load_rule(spec.text, ("T", "cards", "bust", "C"), "ten"),
                         source=spec.file)
    if spec.name == "optimal":
        return TenPolicy(KIND_OPTIMAL)
    if spec.name == "cards":
        return TenPolicy(KIND_CARDS, spec["after"])
    return TenPolicy(KIND_TOTAL, spec["stop-at"])


@dataclass(frozen=True)
class Model:
    """Everything the kernels need besides the policies."""

    state: TurnState
    rules: TenRules
    value: ValueModel
    players: int = 4
    tokens_held: int = 0

    def __post_init__(self):
        if not 1 <= self.players <= 5:
            raise UserError(f"--players must be 1..5 (got {self.players})")
        if not 0 <= self.tokens_held <= self.rules.token_cap:
            raise UserError(f"--tokens-held must be 0..{self.rules.token_cap} "
                            f"(got {self.tokens_held})")

    @property
    def scalars(self) -> tuple:
        """(card, token, bustv, oppc, cap, room) as the kernels take them."""
        v, r = self.value, self.rules
        return (v.card, v.token, v.bust * v.token, v.opp * (self.players - 1), r.token_cap,
                r.token_cap - self.tokens_held)

    @property
    def root_forced(self) -> bool:
        return self.state.n_tableau == 0

    def stop_values(self) -> tuple[float, float]:
        card, token, _b, oppc, cap, room = self.scalars
        s = self.state
        return card * s.n_numbers - oppc * min(s.C, cap), token * min(s.C, room)


@dataclass
class Solution:
    model: Model
    policies: list
    V: np.ndarray  # [policy, number multiset, currency multiset]
    D_root: np.ndarray
    decision: np.ndarray
    nchild: np.ndarray
    cchild: np.ndarray
    states: int
    seconds: float

    def value(self, p: int) -> float:
        return float(self.V[p, 0, 0])


def multisets_up_to(avail, values, limit: int) -> int:
    """How many multisets (at most ``avail[i]`` copies of card type i, worth ``values[i]``) have a
    total value of at most ``limit``: the coefficients of prod_i (1 + x^v_i + ... + x^(a_i v_i))
    up to x^limit, summed. The kernel enumerates exactly these, so this sizes its arrays before
    anything is allocated (a zero-value type multiplies the count by a_i + 1)."""
    if limit < 0:
        return 0
    ways = [1] + [0] * limit
    for a, v in zip((int(x) for x in avail), (int(x) for x in values)):
        new = [0] * (limit + 1)
        for total, w in enumerate(ways):
            if w:
                for k in range(a + 1):
                    t = total + k * v
                    if t > limit:
                        break
                    new[t] += w
        ways = new
    return sum(ways)


def solve(model: Model, policies: list[TenPolicy] | None = None) -> Solution:
    """Enumerate the reachable states and evaluate each policy exactly (optimal by default)."""
    import numpy as np

    from analyzer.games.ten.rules import TYPE_VALUES
    from kernels.ten.exact import solve_turn

    policies = policies or [TenPolicy(KIND_OPTIMAL)]
    s, r = model.state, model.rules
    t0 = time.perf_counter()
    avail = np.array(s.avail, dtype=np.int64)
    kinds = np.array([p.kind for p in policies], dtype=np.int64)
    params = np.array([p.param for p in policies], dtype=np.int64)
    card, token, bustv, oppc, cap, room = model.scalars
    dc = r.currency_bust_at - 1 - s.C
    dn = r.bust_at - 1 - (s.N - s.C) + dc
    cells = len(policies) * multisets_up_to(avail[:9], TYPE_VALUES[:9], dn) * multisets_up_to(
        avail[9:], TYPE_VALUES[9:], dc)
    if cells > MAX_CELLS:
        raise UserError(f"the exact solver would need more than {MAX_CELLS:,} value cells "
                        f"({cells:,}) for these rules (bust limits {r.bust_at}/"
                        f"{r.currency_bust_at}); "
                        f"measure threshold policies with `ten simulate --policy total:t` instead")
    V, D_root, decision, nchild, cchild, states = solve_turn(
        avail, TYPE_VALUES, s.N, s.C, s.n_numbers, s.n_tableau, r.bust_at, r.currency_bust_at,
        float(card), float(token), float(bustv), float(oppc), int(cap), int(room),
        model.root_forced, kinds, params, MAX_CELLS)
    if states < 0:
        raise UserError(f"the exact solver would need more than {MAX_CELLS:,} value cells for "
                        f"these rules (bust limits {r.bust_at}/{r.currency_bust_at}); measure "
                        f"threshold policies with `ten simulate --policy total:t` instead")
    return Solution(model, list(policies), V, D_root, decision, nchild, cchild, int(states),
                    time.perf_counter() - t0)
