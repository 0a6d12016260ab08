"""Ten by Monte Carlo: the kernel jobs that play one turn per trial under one or more policies
(common random numbers), their statistics, threshold tables, and the pure-Python reference loop.

What belongs here: the wrappers that turn a ``Model`` and policies (``exact.py``) into the arrays
``kernels/ten/turn.py`` takes, and the functions that run them under a ``RunSpec``. Each Monte Carlo
figure carries the policy's exact value from the same expectimax sweep (``exact.solve``).
"""
from __future__ import annotations

import numpy as np

from analyzer.errors import UserError
from analyzer.games.ten.exact import (KIND_CARDS, KIND_OPTIMAL, KIND_RULE, KIND_TOTAL, Model,
                                      Solution, TenPolicy, solve)
from analyzer.games.ten.rules import TYPE_VALUES, TenRules, TurnState, load_deck, turn_state
from analyzer.runner import RunSpec

NSTAT = 12  # per-policy sum columns of kernels/ten/turn.py turn_blocks
_LETTERS = "abcdefghij"  # the policy under study, then each --vs policy


def pile_array(state: TurnState) -> np.ndarray:
    """The remaining pile as card types (0..13 non-wild, 14 wild) in a fixed order."""
    parts = [np.full(k, i, dtype=np.int8) for i, k in enumerate(state.avail) if k]
    if state.wilds:
        parts.append(np.full(state.wilds, 14, dtype=np.int8))
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int8)


def rule_evaluator(model: Model, policies: list[TenPolicy]):
    """The exact evaluator of a rule policy's decision table, or None without one. The kernel
    reads one decision table per run, so a rule cannot share a run with optimal or a second
    rule."""
    tables = [p for p in policies if p.kind in (KIND_OPTIMAL, KIND_RULE)]
    if not any(p.kind == KIND_RULE for p in tables):
        return None
    if len(tables) > 1:
        raise UserError("a rule:FILE policy plays from a decision table, and one run plays one "
                        "table: compare it with total:t or cards:m policies, not with optimal "
                        "or another rule")
    from analyzer.games.ten.advice import TenEvaluator

    return TenEvaluator(model)


def make_job(model: Model, policies: list[TenPolicy], sol: Solution | None = None, ev=None):
    """A runner job playing one turn per trial under each policy (common random numbers); a
    rule policy plays its decision table (:func:`rule_evaluator`) as the optimal kind does."""
    from analyzer.runner import KernelJob, half_width_of_mean
    from kernels.ten.turn import turn_blocks

    s, r = model.state, model.rules
    rule = next((p.rule for p in policies if p.kind == KIND_RULE), None)
    if rule is not None:
        ev = ev or rule_evaluator(model, policies)
        sol = sol or solve(model)
        nchild, cchild, dec = sol.nchild, sol.cchild, ev.decision_table(rule)
    elif any(p.kind == KIND_OPTIMAL for p in policies):
        sol = sol or solve(model)
        nchild, cchild, dec = sol.nchild, sol.cchild, sol.decision
    else:  # threshold policies never read the tables
        nchild = np.zeros((1, 9), dtype=np.int32)
        cchild = np.zeros((1, 5), dtype=np.int32)
        dec = np.zeros((1, 1), dtype=np.uint8)
    pile = pile_array(s)
    kinds = np.array([KIND_OPTIMAL if p.kind == KIND_RULE else p.kind for p in policies],
                     dtype=np.int64)
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


def simulate(model: Model, policy: TenPolicy, vs: list[TenPolicy], spec: RunSpec) -> dict:
    """One policy (or several, paired) over shuffled piles: bust rates, haul, value, speed.

    The policy under study is ``a``; each ``--vs`` policy is ``b``, ``c``, … in order, played on
    the same turns, with the paired value difference ``difference_a_minus_<letter>``. The verdict
    against ``b`` is ``verdict``; with more than one ``--vs``, ``verdicts`` maps every letter.
    """
    from analyzer.stats import verdict

    policies = [policy, *vs]
    K = len(policies)
    if K > len(_LETTERS):
        raise UserError(f"at most {len(_LETTERS) - 1} --vs policies (got {K - 1})")
    ev = rule_evaluator(model, policies)
    plain = [TenPolicy(KIND_OPTIMAL) if p.kind == KIND_RULE else p for p in policies]
    try:
        sol = solve(model, plain)
        exact = [sol.value(p) if pol.kind != KIND_RULE else
                 ev.value(np.asarray(pol.rule.acts(ev.X), dtype=bool))
                 for p, pol in enumerate(policies)]
    except UserError:
        if any(p.kind in (KIND_OPTIMAL, KIND_RULE) for p in policies):
            raise
        sol, exact = None, [None] * K  # too large to solve exactly: Monte Carlo only
    res = spec.run(make_job(model, policies, sol, ev))
    out = {"game": "ten", "exact": False, "seed": spec.seed, "n": res.n,
           "players": model.players, "value_model": model.value.to_dict(),
           "cards_left": model.state.cards_left, "policies": [p.label for p in policies]}
    for p, pol in enumerate(policies):
        out[_LETTERS[p]] = {"policy": pol.label, **policy_stats(res.sums, p, res.n, exact[p])}
    verdicts = {}
    for p in range(1, K):
        letter = _LETTERS[p]
        diff = paired_stats(res.sums, K, p, res.n,
                            None if exact[0] is None else exact[0] - exact[p])
        out[f"difference_a_minus_{letter}"] = diff
        v = verdict(diff, f"{policy.label} is better", f"{policies[p].label} is better")
        verdicts[letter] = f"too close to call at n = {res.n:,}" if v == "too close to call" else v
    if verdicts:
        out["verdict"] = verdicts["b"]
    if len(verdicts) > 1:
        out["verdicts"] = verdicts
    out["turns_per_second"] = res.per_second * K
    out["stopped_by"] = res.stopped_by
    out["interrupted"] = res.interrupted
    return out


def thresholds(model: Model, by: str, spec: RunSpec, top: int = 10) -> dict:
    """Every threshold t = 1..top of one family against the optimal policy, on the same turns
    (``spec.n`` turns per policy)."""
    kind = KIND_TOTAL if by == "total" else KIND_CARDS
    policies = [TenPolicy(KIND_OPTIMAL)] + [TenPolicy(kind, t) for t in range(1, top + 1)]
    sol = solve(model, policies)
    res = spec.run(make_job(model, policies, sol))
    K = len(policies)
    rows = []
    for p in range(K):
        row = {"policy": policies[p].label, "threshold": None if p == 0 else policies[p].param,
               **policy_stats(res.sums, p, res.n, sol.value(p))}
        if p > 0:
            row["optimal_minus_this"] = paired_stats(res.sums, K, p, res.n,
                                                     sol.value(0) - sol.value(p))
        rows.append(row)
    return {"game": "ten", "exact": False, "by": by, "seed": spec.seed, "n": res.n,
            "players": model.players, "value_model": model.value.to_dict(),
            "cards_left": model.state.cards_left, "optimal_value_exact": sol.value(0),
            "rows": rows, "turns_per_second": res.per_second * K, "states": sol.states}


def python_reference_turns(n: int, seed: int, t: int = 7) -> float:
    """Pure-Python reference of the kernel's loop: "total:t" on a fresh deck with the bundled
    assumptions; draws by uniform position with rejection of positions already drawn this turn
    (marked with a per-turn stamp), as the kernel. Returns the mean value."""
    import random

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
