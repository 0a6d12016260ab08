"""Ten: the exact stop/draw policy, threshold policies, and their Monte Carlo measurement.

Value model (``ValueModel``; defaults card=1, token=0.25, bust=3, opp=0): stopping takes the better
of *numbers* (card per number card, minus opp·(players−1)·min(C, cap) for the tokens the opponents
gain) and *currency* (token per token gained, at most ``token_cap − tokens_held``); a number bust is
worth a bust token (bust·token) minus the opponents' gain, a currency bust the bust token alone.
A wild is worth 0 to the turn (its auction is outside the model). The solver and the kernels are in
``kernels/ten.py`` (exact expectimax over the remaining pile by card-type counts, see its doc).

Policies: ``optimal`` (the exact solver's table), ``total:t`` (stop once T = N − C ≥ t) and
``cards:m`` (stop once the tableau holds m cards; wilds do not count). Threshold policies take the
better reward under the value model when they stop. Every policy's exact expected value is computed
by the same backward sweep, so Monte Carlo figures carry ``exact_value``.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass

import numpy as np

from analyzer.errors import UserError
from analyzer.games.ten import TYPE_VALUES, TenRules, TurnState, ValueModel

KIND_TOTAL, KIND_CARDS, KIND_OPTIMAL = 0, 1, 2
NSTAT = 12
MAX_CELLS = 40_000_000  # policies × number multisets × currency multisets (8 bytes each)


@dataclass(frozen=True)
class TenPolicy:
    kind: int
    param: int = 0

    @property
    def label(self) -> str:
        if self.kind == KIND_OPTIMAL:
            return "optimal"
        return f"{'total' if self.kind == KIND_TOTAL else 'cards'}:{self.param}"


def parse_policy(text: str) -> TenPolicy:
    t = text.strip().lower()
    if t == "optimal":
        return TenPolicy(KIND_OPTIMAL)
    m = re.fullmatch(r"(total|cards):(-?\d+)", t)
    if m:
        k = int(m.group(2))
        if m.group(1) == "cards":
            if k < 1 or k > 200:
                raise UserError(f"policy '{text}': m in cards:m must be 1..200")
            return TenPolicy(KIND_CARDS, k)
        if k < -60 or k > 60:
            raise UserError(f"policy '{text}': t in total:t must be -60..60")
        return TenPolicy(KIND_TOTAL, k)
    raise UserError(f"unknown Ten policy '{text}' (use optimal, total:t or cards:m)")


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


def solve(model: Model, policies: list[TenPolicy] | None = None) -> Solution:
    """Enumerate the reachable states and evaluate each policy exactly (optimal by default)."""
    from kernels.ten import solve_turn

    policies = policies or [TenPolicy(KIND_OPTIMAL)]
    s, r = model.state, model.rules
    t0 = time.perf_counter()
    avail = np.array(s.avail, dtype=np.int64)
    kinds = np.array([p.kind for p in policies], dtype=np.int64)
    params = np.array([p.param for p in policies], dtype=np.int64)
    card, token, bustv, oppc, cap, room = model.scalars
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


def best(model: Model) -> dict:
    """The exact optimal decision at the root: draw or stop (and which reward)."""
    s = model.state
    if s.cards_left == 0:
        raise UserError("the draw pile is empty: the turn is over (stop)")
    sol = solve(model)
    s_num, s_cur = model.stop_values()
    ev_stop = max(s_num, s_cur)
    R_nw = sum(s.avail)
    R = s.cards_left
    D0 = float(sol.D_root[0]) if R_nw > 0 else ev_stop
    after_wild = max(ev_stop, D0)  # a wild leaves the state unchanged; stopping is then allowed
    ev_draw = (s.wilds / R) * after_wild + (1 - s.wilds / R) * D0
    if model.root_forced:
        rec, margin, ev_stop_out = "draw", None, None
        note = "the first draw of a turn is mandatory"
    else:
        ev_stop_out = ev_stop
        margin = abs(ev_draw - ev_stop)
        note = None
        if margin <= 1e-9:
            rec = "either"
        elif ev_draw > ev_stop:
            rec = "draw"
        else:
            rec = "stop-numbers" if s_num >= s_cur else "stop-currency"
    from analyzer.games.ten import odds

    nxt = odds(s, model.rules)
    return {"game": "ten", "N": s.N, "C": s.C, "T": s.T, "cards_left": R,
            "p_bust_next": nxt["p_bust"],
            "ev_stop": ev_stop_out, "ev_stop_numbers": None if model.root_forced else s_num,
            "ev_stop_currency": None if model.root_forced else s_cur, "ev_draw": ev_draw,
            "value": ev_draw if model.root_forced else max(ev_draw, ev_stop),
            "recommendation": rec, "margin": margin, "note": note,
            "value_model": model.value.to_dict(), "players": model.players,
            "tokens_held": model.tokens_held, "states": sol.states,
            "solve_seconds": sol.seconds, "exact": True}


# ----------------------------------------------------------------------------------------------
# Monte Carlo

def pile_array(state: TurnState) -> np.ndarray:
    """The remaining pile as card types (0..13 non-wild, 14 wild) in a fixed order."""
    parts = [np.full(k, i, dtype=np.int8) for i, k in enumerate(state.avail) if k]
    if state.wilds:
        parts.append(np.full(state.wilds, 14, dtype=np.int8))
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int8)


def make_job(model: Model, policies: list[TenPolicy], sol: Solution | None = None):
    """A runner job playing one turn per trial under each policy (common random numbers)."""
    from analyzer.runner import KernelJob, half_width_of_mean
    from kernels.ten import turn_blocks

    s, r = model.state, model.rules
    if any(p.kind == KIND_OPTIMAL for p in policies):
        sol = sol or solve(model)
        nchild, cchild, dec = sol.nchild, sol.cchild, sol.decision
    else:  # threshold policies never read the tables
        nchild = np.zeros((1, 9), dtype=np.int32)
        cchild = np.zeros((1, 5), dtype=np.int32)
        dec = np.zeros((1, 1), dtype=np.uint8)
    pile = pile_array(s)
    kinds = np.array([p.kind for p in policies], dtype=np.int64)
    params = np.array([p.param for p in policies], dtype=np.int64)
    card, token, bustv, oppc, cap, room = model.scalars
    isn = np.zeros(15, dtype=np.int64)
    isn[:9] = 1
    ist = np.ones(15, dtype=np.int64)
    ist[14] = 0
    tdel = np.zeros(15, dtype=np.int64)
    tdel[:9] = TYPE_VALUES[:9]
    tdel[9:14] = -TYPE_VALUES[9:]
    cdel = np.zeros(15, dtype=np.int64)
    cdel[9:14] = TYPE_VALUES[9:]
    # T and C effects are passed per pile position (tdel[pile], cdel[pile])
    args = (pile, tdel[pile], cdel[pile], isn, ist, s.T, s.C, s.n_numbers, s.n_tableau, r.bust_at,
            r.currency_bust_at, float(card), float(token), float(bustv), float(oppc), int(cap),
            int(room), model.root_forced, kinds, params, nchild, cchild, dec)

    def run_blocks(block_keys, counts):
        return turn_blocks(block_keys, counts, *args)

    name = "ten " + " vs ".join(p.label for p in policies)
    return KernelJob(name, 1 << 14, run_blocks, half_width_of_mean(6, 7), unit="turns")


def policy_stats(sums: np.ndarray, p: int, n: int, exact: float | None = None) -> dict:
    """The statistics of policy ``p`` from the kernel's column sums."""
    from analyzer.stats import mean_from_sums, wilson

    b = p * NSTAT
    return {
        "p_bust": wilson(float(sums[b] + sums[b + 1]), n),
        "p_number_bust": wilson(float(sums[b]), n),
        "p_currency_bust": wilson(float(sums[b + 1]), n),
        "mean_number_cards": mean_from_sums(float(sums[b + 2]), float(sums[b + 3]), n),
        "mean_tokens": mean_from_sums(float(sums[b + 4]), float(sums[b + 5]), n),
        "mean_value": mean_from_sums(float(sums[b + 6]), float(sums[b + 7]), n).with_exact(exact),
        "mean_tableau_cards": mean_from_sums(float(sums[b + 8]), float(sums[b + 10]), n),
        "mean_wilds_drawn": mean_from_sums(float(sums[b + 9]), float(sums[b + 11]), n),
    }


def paired_stats(sums: np.ndarray, K: int, p: int, n: int, exact: float | None = None):
    """Value of policy 0 minus policy p (p ≥ 1) on the same turns."""
    from analyzer.stats import paired_difference

    q = K * NSTAT + 2 * (p - 1)
    return paired_difference(float(sums[q]), float(sums[q + 1]), n).with_exact(exact)


def simulate(model: Model, policy: TenPolicy, vs: TenPolicy | None, n: int | None, seed: int,
             precision=None, time_limit=None, progress=None) -> dict:
    """One policy (or two, paired) over shuffled piles: bust rates, haul, value, speed."""
    from analyzer.runner import run
    from analyzer.stats import verdict

    policies = [policy] if vs is None else [policy, vs]
    K = len(policies)
    try:
        sol = solve(model, policies)
        exact = [sol.value(p) for p in range(K)]
    except UserError:
        if any(p.kind == KIND_OPTIMAL for p in policies):
            raise
        sol, exact = None, [None] * K  # too large to solve exactly: Monte Carlo only
    res = run(make_job(model, policies, sol), n, seed, precision=precision,
              time_limit=time_limit, progress=progress)
    out = {"game": "ten", "seed": seed, "n": res.n, "players": model.players,
           "value_model": model.value.to_dict(), "cards_left": model.state.cards_left,
           "policies": [p.label for p in policies]}
    for p, pol in enumerate(policies):
        out["a" if p == 0 else "b"] = {"policy": pol.label,
                                       **policy_stats(res.sums, p, res.n, exact[p])}
    if vs is not None:
        diff = paired_stats(res.sums, K, 1, res.n,
                            None if exact[0] is None else exact[0] - exact[1])
        out["difference_a_minus_b"] = diff
        v = verdict(diff, f"{policy.label} is better", f"{vs.label} is better")
        out["verdict"] = (f"too close to call at n = {res.n:,}" if v == "too close to call"
                          else v)
    out["turns_per_second"] = res.per_second * K
    out["stopped_by"] = res.stopped_by
    out["interrupted"] = res.interrupted
    return out


def thresholds(model: Model, by: str, n: int, seed: int, top: int = 10, progress=None) -> dict:
    """Every threshold t = 1..top of one family against the optimal policy, on the same turns."""
    from analyzer.runner import run

    kind = KIND_TOTAL if by == "total" else KIND_CARDS
    policies = [TenPolicy(KIND_OPTIMAL)] + [TenPolicy(kind, t) for t in range(1, top + 1)]
    sol = solve(model, policies)
    res = run(make_job(model, policies, sol), n, seed, progress=progress)
    K = len(policies)
    rows = []
    for p in range(K):
        row = {"policy": policies[p].label, "threshold": None if p == 0 else policies[p].param,
               **policy_stats(res.sums, p, res.n, sol.value(p))}
        if p > 0:
            row["optimal_minus_this"] = paired_stats(res.sums, K, p, res.n,
                                                     sol.value(0) - sol.value(p))
        rows.append(row)
    return {"game": "ten", "by": by, "seed": seed, "n": res.n, "players": model.players,
            "value_model": model.value.to_dict(), "cards_left": model.state.cards_left,
            "optimal_value_exact": sol.value(0), "rows": rows,
            "turns_per_second": res.per_second * K, "states": sol.states}


def python_reference_turns(n: int, seed: int, t: int = 7) -> float:
    """Pure-Python reference of the kernel's loop: "total:t" on a fresh deck with the bundled
    assumptions; draws by uniform position with rejection of positions already drawn this turn
    (marked with a per-turn stamp), as the kernel. Returns the mean value."""
    import random

    from analyzer.games.ten import load_deck, turn_state

    rules = TenRules()
    st = turn_state(rules, load_deck())
    pile = [int(c) for c in pile_array(st)]
    used = [0] * len(pile)
    vals = [int(v) for v in TYPE_VALUES]
    R = len(pile)
    rnd = random.Random(seed)
    total = 0.0
    for stamp in range(1, n + 1):
        N = C = nn = 0
        pos = 0
        value = None
        while pos < R:
            j = rnd.randrange(R)
            if used[j] == stamp:
                continue
            used[j] = stamp
            pos += 1
            c = pile[j]
            if c == 14:
                continue
            if c < 9:
                N += vals[c]
                nn += 1
                if N - C >= rules.bust_at:
                    value = 0.75
                    break
            else:
                C += vals[c]
                if C >= rules.currency_bust_at:
                    value = 0.75
                    break
            if N - C >= t:
                break
        if value is None:
            value = max(float(nn), 0.25 * min(C, 10))
        total += value
    return total / n
