"""MAGDAGDON decisions: the best action for a board and a roll, by Monte Carlo rollouts.

Every distinct legal action is listed (``actions``): each distinct set of placed dice (any number
from the turn's minimum up; one placement order kept), each power use (±1 on one die, a reroll of
any sub-multiset) while powers are left, or — on a MAGDAGDON — accepting it with the ruin on each
empty cell. ``best`` plays every action's game to the end with a base policy on the same trials
(common random numbers: trial t gives every action the same stream), ranks the actions by their
mean final score and recommends the top one unless its paired margin over the second has an
interval containing 0 ("too close to call").
"""
from __future__ import annotations

import numpy as np

from analyzer.errors import UserError
from analyzer.games.magdagdon.arrays import kernel_inputs, vm_of
from analyzer.games.magdagdon.play import Policy
from analyzer.games.magdagdon.rules import (Difficulty, MagdagdonRules, cell_name, counts_of,
                                            empties, format_board, min_dice)
from analyzer.runner import RunSpec


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


#: `best` keeps every game's final score per action (for the paired margin): at most this many
#: float64 cells (400 MB), checked before anything is allocated.
MAX_CELLS = 50_000_000


def _run_groups(keys, counts, out, time_limit, run) -> tuple[int, str]:
    """Run the blocks in groups of 8 into ``out`` (rows in block order); stop between groups
    when ``time_limit`` seconds have passed or on Ctrl-C (then mark the run interrupted). Returns
    (games finished, "n" | "time-limit" | "interrupt"); nothing finished on Ctrl-C → Interrupted."""
    import math
    import time

    from analyzer.errors import Interrupted, mark_interrupted
    from analyzer.output import note, note_interrupted

    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise UserError(f"--time-limit must be a positive number of seconds (got {time_limit})")

    start, done, row = time.monotonic(), 0, 0
    while done < len(counts):
        if time_limit is not None and done and time.monotonic() - start > time_limit:
            note(f"magdagdon best: stopped on the time limit ({time_limit:g} s) after "
                 f"{row:,} games")
            return row, "time-limit"
        hi = min(done + 8, len(counts))
        size = int(counts[done:hi].sum())
        try:
            run(keys[done:hi], counts[done:hi], out[row:row + size])
        except KeyboardInterrupt:
            if row == 0:
                raise Interrupted("no game had finished") from None
            mark_interrupted()
            note_interrupted(f"interrupted: keeping the {row:,} finished games")
            return row, "interrupt"
        done, row = hi, row + size
    return row, "n"


def best(cells, roll, rules: MagdagdonRules, diff: Difficulty, powers_left: int, spec: RunSpec,
         policy: Policy, top: int = 10) -> dict:
    """Every distinct legal action scored by ``spec.n`` games played out after it by ``policy``
    (common random numbers). Blocks run in groups; ``spec.time_limit`` or Ctrl-C stops between
    groups and the games of the finished blocks are scored (``precision`` is not used)."""
    from analyzer.rng import block_keys, block_layout
    from analyzer.stats import mean_from_sums, paired_difference
    from kernels.magdagdon import P_ROLLOUT, best_blocks

    if policy.mode == P_ROLLOUT:
        raise UserError("best evaluates actions with a base policy: use greedy, max-dice or "
                        "min-dice for --policy")
    if powers_left < 0 or powers_left > diff.powers:
        raise UserError(f"--powers-left {powers_left}: {diff.name} has {diff.powers} Majda Powers")
    games, seed = spec.n, spec.seed
    if games is None or games < 2:
        raise UserError(f"--trials must be at least 2 (got {games})")
    if empties(cells) == 0:
        raise UserError("the board has no empty cell: the game is over")
    acts, ok, need = actions(cells, roll, rules, diff, powers_left)
    if games * len(acts) > MAX_CELLS:
        raise UserError(f"-n {games:,} with {len(acts)} actions needs {games * len(acts):,} "
                        f"result cells (at most {MAX_CELLS:,}): use -n {MAX_CELLS // len(acts):,} "
                        f"or fewer")
    rows = np.array([r for _d, r in acts], dtype=np.int64)
    nblocks, counts = block_layout(games, 32)
    keys = block_keys(seed, 0, nblocks)
    out = np.zeros((games, len(acts)), dtype=np.float64)
    args = (cells.astype(np.int8), powers_left, diff.powers - powers_left, counts_of(roll), rows,
            policy.mode)
    # a cold game compiles in a second process while the opening book is built (engine_arg.py)
    if hasattr(best_blocks, "ahead"):
        best_blocks.ahead(keys, counts, *args, kernel_inputs(rules, diff), out)
    G = kernel_inputs(rules, diff, book=True)
    games, stopped_by = _run_groups(keys, counts, out, spec.time_limit,
                                    lambda k, c, o: best_blocks(k, c, *args, G, o))
    out = out[:games]
    stats = [mean_from_sums(float(out[:, a].sum()), float((out[:, a] ** 2).sum()), games)
             for a in range(len(acts))]
    order = sorted(range(len(acts)), key=lambda a: -stats[a].estimate)
    ranked = [{**acts[a][0], "mean_final_score": stats[a]} for a in order[:top]]
    result = {"game": "magdagdon", "board": format_board(cells, rules.board_size),
              "roll": roll, "difficulty": diff.name, "powers_left": powers_left,
              "min_dice": need, "magdagdon": not ok, "policy": policy.label, "seed": seed,
              "n": games, "stopped_by": stopped_by, "actions_evaluated": len(acts),
              "top": ranked, "exact": False}
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
