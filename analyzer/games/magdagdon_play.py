"""MAGDAGDON by Monte Carlo: policies, whole-game simulation and the best action for a roll.

Policies (kernels/magdagdon.py has the algorithms): ``greedy`` (the placement of at least the
minimum number of dice that maximises the heuristic board value H), ``max-dice`` (the most dice,
then H), ``min-dice`` (exactly the minimum, then H), ``rollout:K`` (the 8 best placements by H,
each scored by K greedy games to the end, on common random numbers). All policies accept a
MAGDAGDON on the cell that maximises H and spend a power on a MAGDAGDON only while the next
power's cost is below ruin_penalty + 7 (a ruin's penalty plus the 2 × 3.5 points a cell is
worth): on the default rules PEACEFUL's first two powers, never SURVIVAL's −70.

H = 2·(sum of numbers) + 7·(live empty cells) − ruin_penalty·(ruins + dead cells) + Σ_lines L,
with L the exact bonus of a full line, 0 for a line holding a ruin or dead cell, and
0.5 · (best bonus still attainable) · (filled cells / n) for an open line.

Each game is one trial with its own random stream, so two policies (``--vs``) or two actions
(``best``) are compared on common random numbers: the same dice as far as their choices let the
games run alike.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from analyzer.errors import UserError
from analyzer.games.magdagdon import (Difficulty, MagdagdonRules, cell_name, counts_of,
                                      empties, format_board, kernel_inputs, min_dice, rules_dict,
                                      vm_of)


@dataclass(frozen=True)
class Policy:
    mode: int
    k: int
    label: str


def parse_policy(text: str) -> Policy:
    from kernels.magdagdon import P_GREEDY, P_MAX, P_MIN, P_ROLLOUT

    t = text.strip().lower()
    named = {"greedy": P_GREEDY, "max-dice": P_MAX, "min-dice": P_MIN}
    if t in named:
        return Policy(named[t], 0, t)
    m = re.fullmatch(r"rollout:(\d+)", t)
    if m and 1 <= int(m.group(1)) <= 10000:
        return Policy(P_ROLLOUT, int(m.group(1)), t)
    raise UserError(f"unknown MAGDAGDON policy '{text}' (use greedy, max-dice, min-dice or "
                    f"rollout:K with 1 <= K <= 10000)")


def score_range(rules: MagdagdonRules, diff: Difficulty) -> tuple[int, int]:
    """Lowest and highest possible final scores (histogram bounds)."""
    N = rules.board_size ** 2
    lo = -rules.ruin_penalty * N - diff.penalty(diff.powers)
    top_bonus = max(rules.straight_bonus, rules.four_kind_bonus, rules.two_pairs_bonus)
    hi = 12 * N + 2 * rules.board_size * top_bonus
    return lo, hi


def _stats_block(s, n, o=0):
    from analyzer.stats import mean_from_sums

    names = ("score", "turns", "magdagdon_rolls", "ruins", "powers_used")
    return {nm: mean_from_sums(float(s[o + 2 * k]), float(s[o + 2 * k + 1]), n)
            for k, nm in enumerate(names)}


def _distribution(hist, lo: int) -> dict:
    hist = np.asarray(hist)
    n = hist.sum()
    cdf = np.cumsum(hist)
    qs = {}
    for q in (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99):
        qs[f"q{int(round(q * 100)):02d}"] = int(lo + int(np.searchsorted(cdf, q * n)))
    nz = np.nonzero(hist)[0]
    return {"quantiles": qs, "min": int(lo + nz[0]), "max": int(lo + nz[-1]),
            "histogram": {str(lo + i): int(hist[i]) for i in nz}}


def binned(histogram: dict, n: int, width: int = 10):
    """Score histogram {score: count} → (bin left edges, share of games per bin), empty bins
    included, for charts."""
    xs = sorted(int(k) for k in histogram)
    lo = (xs[0] // width) * width
    hi = (xs[-1] // width) * width
    edges = list(range(lo, hi + width, width))
    share = [0.0] * len(edges)
    for x in xs:
        share[(x - lo) // width] += histogram[str(x)] / n
    return edges, share


def _sd(stat) -> float:
    return float(stat.se * np.sqrt(stat.n))


def make_job(rules: MagdagdonRules, diff: Difficulty, policy: Policy):
    from analyzer.runner import KernelJob, half_width_of_mean
    from kernels.magdagdon import P_ROLLOUT, games_blocks

    G = kernel_inputs(rules, diff, book=True)
    init = np.zeros(rules.board_size ** 2, dtype=np.int8)
    lo, hi = score_range(rules, diff)

    def run_blocks(keys, counts):
        return games_blocks(keys, counts, policy.mode, policy.k, policy.mode, policy.k, False,
                            init, G, lo, hi - lo + 1)

    block = 4 if policy.mode == P_ROLLOUT else 1024
    return KernelJob(f"magdagdon {diff.name} {policy.label}", block, run_blocks,
                     half_width_of_mean(0, 1), unit="games")


def simulate(rules: MagdagdonRules, diff: Difficulty, policy: Policy, n, seed: int,
             precision=None, time_limit=None, progress=None) -> dict:
    """Whole games from the empty board: final score (mean, SD, quantiles, histogram),
    MAGDAGDON rolls, ruins, powers used and turns per game."""
    from analyzer.runner import run

    res = run(make_job(rules, diff, policy), n, seed, precision=precision,
              time_limit=time_limit, progress=progress)
    s = res.sums
    lo, hi = score_range(rules, diff)
    st = _stats_block(s, res.n)
    out = {"game": "magdagdon", "difficulty": diff.name, "policy": policy.label,
           "rules": rules_dict(rules), "seed": seed, "n": res.n, **st,
           "score_sd": _sd(st["score"]), **_distribution(s[22:22 + hi - lo + 1], lo),
           "games_per_second": res.per_second, "stopped_by": res.stopped_by,
           "interrupted": res.interrupted}
    return out


def simulate_paired(rules, diff, pa: Policy, pb: Policy, n, seed, precision=None,
                    time_limit=None, progress=None) -> dict:
    """Policy A vs B on the same games: both distributions and the paired difference A − B."""
    from analyzer.runner import KernelJob, half_width_of_mean, run
    from analyzer.stats import paired_difference, verdict
    from kernels.magdagdon import P_ROLLOUT, games_blocks

    G = kernel_inputs(rules, diff, book=True)
    init = np.zeros(rules.board_size ** 2, dtype=np.int8)
    lo, hi = score_range(rules, diff)
    width = hi - lo + 1

    def run_blocks(keys, counts):
        return games_blocks(keys, counts, pa.mode, pa.k, pb.mode, pb.k, True, init, G, lo, width)

    block = 4 if P_ROLLOUT in (pa.mode, pb.mode) else 1024
    job = KernelJob(f"magdagdon {pa.label} vs {pb.label}", block, run_blocks,
                    half_width_of_mean(20, 21), unit="games")
    res = run(job, n, seed, precision=precision, time_limit=time_limit, progress=progress)
    s = res.sums
    a = _stats_block(s, res.n, 0)
    b = _stats_block(s, res.n, 10)
    diff_stat = paired_difference(float(s[20]), float(s[21]), res.n)
    v = verdict(diff_stat, f"{pa.label} scores more", f"{pb.label} scores more")
    if v == "too close to call":
        v = f"too close to call at n = {res.n:,}"
    return {"game": "magdagdon", "difficulty": diff.name, "rules": rules_dict(rules),
            "seed": seed, "n": res.n, "a": pa.label, "b": pb.label,
            "a_stats": {**a, "score_sd": _sd(a["score"]),
                        **_distribution(s[22:22 + width], lo)},
            "b_stats": {**b, "score_sd": _sd(b["score"]),
                        **_distribution(s[22 + width:], lo)},
            "difference_a_minus_b": diff_stat, "verdict": v,
            "stopped_by": res.stopped_by, "interrupted": res.interrupted}


# ----------------------------------------------------------------------------- best action

def actions(cells, roll, rules: MagdagdonRules, diff: Difficulty, powers_left: int,
            cap: int = 200_000):
    """Every distinct legal action: (description dict, kernel row)."""
    from kernels.magdagdon import MAXD, P_STORE, choose, feasible_fast, make_work

    n = rules.board_size
    G = kernel_inputs(rules, diff, book=True)
    need = min_dice(cells, rules, diff)
    cnt = counts_of(roll)
    W, S = make_work(rules.dice_per_roll, cap)
    vm = vm_of(cells)
    ok = feasible_fast(vm, cnt, need, G, W)
    acts = []
    if ok:
        count, _ = choose(cells.copy(), vm.copy(), cnt, need, P_STORE, G, W, S, cap)
        if count >= cap:
            raise UserError(f"more than {cap} distinct placements: too many to evaluate")
        sc, sv, sd, _sh = S
        for a in range(count):
            row = np.zeros(2 + 2 * MAXD, dtype=np.int64)
            row[1] = sd[a]
            order = []
            for j in range(sd[a]):
                row[2 + j] = sc[a, j]
                row[2 + MAXD + j] = sv[a, j]
                order.append(f"{sv[a, j]}@{cell_name(int(sc[a, j]), n)}")
            acts.append(({"action": "place", "dice": int(sd[a]), "order": order,
                          "text": "place " + " ".join(order)}, row))
    else:
        for i in range(n * n):
            if cells[i] == 0:
                row = np.zeros(2 + 2 * MAXD, dtype=np.int64)
                row[0], row[1] = 1, i
                acts.append(({"action": "accept", "ruin": cell_name(i, n),
                              "text": f"accept MAGDAGDON, ruin {cell_name(i, n)}"}, row))
    if powers_left > 0:
        for v in range(1, 7):
            if cnt[v] == 0:
                continue
            for w in (v - 1, v + 1):
                if 1 <= w <= 6:
                    row = np.zeros(2 + 2 * MAXD, dtype=np.int64)
                    row[0], row[1], row[2] = 2, v, w
                    acts.append(({"action": "power ±1", "change": f"{v}→{w}",
                                  "text": f"power ±1: a {v} becomes {w}"}, row))
        for combo in _sub_multisets([int(c) for c in cnt]):
            row = np.zeros(2 + 2 * MAXD, dtype=np.int64)
            row[0] = 3
            dice = []
            for v in range(1, 7):
                row[2 + v] = combo[v]
                dice += [v] * combo[v]
            acts.append(({"action": "power reroll", "reroll": dice,
                          "text": "power reroll: " + "".join(map(str, dice))}, row))
    return acts, ok, need


def _sub_multisets(cnt):
    out = []

    def rec(v, cur):
        if v == 7:
            if sum(cur[1:]) > 0:
                out.append(list(cur))
            return
        for k in range(cnt[v] + 1):
            cur[v] = k
            rec(v + 1, cur)
        cur[v] = 0
    rec(1, [0] * 7)
    return out


def best(cells, roll, rules: MagdagdonRules, diff: Difficulty, powers_left: int, games: int,
         seed: int, policy: Policy, top: int = 10) -> dict:
    """Every distinct legal action scored by ``games`` rollouts (common random numbers)."""
    from analyzer.rng import block_keys, block_layout
    from analyzer.stats import mean_from_sums, paired_difference
    from kernels.magdagdon import P_ROLLOUT, best_blocks

    if policy.mode == P_ROLLOUT:
        raise UserError("best evaluates actions with a base policy: use greedy, max-dice or "
                        "min-dice for --policy")
    if powers_left < 0 or powers_left > diff.powers:
        raise UserError(f"--powers-left {powers_left}: {diff.name} has {diff.powers} Majda Powers")
    if games < 2:
        raise UserError(f"--games must be at least 2 (got {games})")
    if empties(cells) == 0:
        raise UserError("the board has no empty cell: the game is over")
    acts, ok, need = actions(cells, roll, rules, diff, powers_left)
    G = kernel_inputs(rules, diff, book=True)
    rows = np.array([r for _d, r in acts], dtype=np.int64)
    nblocks, counts = block_layout(games, 32)
    keys = block_keys(seed, 0, nblocks)
    out = np.zeros((games, len(acts)), dtype=np.float64)
    best_blocks(keys, counts, cells.astype(np.int8), powers_left, diff.powers - powers_left,
                counts_of(roll), rows, policy.mode, G, out)
    stats = [mean_from_sums(float(out[:, a].sum()), float((out[:, a] ** 2).sum()), games)
             for a in range(len(acts))]
    order = sorted(range(len(acts)), key=lambda a: -stats[a].estimate)
    ranked = [{**acts[a][0], "mean_final_score": stats[a]} for a in order[:top]]
    result = {"game": "magdagdon", "board": format_board(cells, rules.board_size),
              "roll": roll, "difficulty": diff.name, "powers_left": powers_left,
              "min_dice": need, "magdagdon": not ok, "policy": policy.label, "seed": seed,
              "n": games, "actions_evaluated": len(acts), "top": ranked}
    if len(order) >= 2:
        d = out[:, order[0]] - out[:, order[1]]
        margin = paired_difference(float(d.sum()), float((d ** 2).sum()), games)
        result["margin_over_second"] = margin
        if margin.ci_low <= 0.0 <= margin.ci_high:
            result["recommendation"] = f"too close to call at n = {games:,}"
        else:
            result["recommendation"] = acts[order[0]][0]["text"]
    else:
        result["margin_over_second"] = None
        result["recommendation"] = acts[order[0]][0]["text"]
    return result
