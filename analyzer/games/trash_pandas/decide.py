"""``decide``: roll or stop (or which card to spend on a roll) in chance of winning the game.

The choices are played out from the position by determinized rollouts on common random numbers
(kernels/trash_pandas/whole_decide.py); the answer is each choice's P(win) and its paired
difference with the first choice ("stop", or "take" after a rolled face), beside the exact
turn-level answer in card-equivalents (analyzer/games/trash_pandas.py).
"""
from __future__ import annotations

import numpy as np

from analyzer.games.trash_pandas.position import Position

BLOCK_SIZE = 256


def choices_for(pos: Position, bonus_cap: int) -> list[tuple[str, tuple[int, int, int]]]:
    """(label, (entry, face, take/Blammo!/Nanners)) for every legal choice; the first is the
    baseline the others are compared with."""
    from analyzer.games.trash_pandas.rules import popcount
    from kernels.trash_pandas.layout import BLAMMO, NANNERS

    if pos.rolled >= 0:
        f = pos.rolled
        out = [("bust" if pos.held >> f & 1 else "take", (2, f, 0))]
        if pos.usable(BLAMMO) > 0:
            out.append(("blammo", (2, f, 1)))
        if pos.usable(NANNERS) > 0:
            out.append(("nanners", (2, f, 2)))
        return out
    out = [("stop", (1, 0, 0))]
    cap = bonus_cap if pos.bonus else 6
    if popcount(pos.held) < cap:
        out.append(("roll", (0, 0, 0)))
    return out


def turn_level(pos: Position, rules) -> dict:
    """What the exact turn solver says for the same held set and usable cards."""
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.rules import (BLAMMO as D_BLAMMO, NANNERS as D_NANNERS,
                                                   ValueModel)
    from kernels.trash_pandas.layout import BLAMMO, NANNERS, PIE

    solver = TurnSolver(ValueModel(), rules)
    b, n, p = (min(pos.usable(t), 7) for t in (BLAMMO, NANNERS, PIE))
    mode = 1 if pos.bonus else 0
    if pos.rolled >= 0:
        value, d = solver.outcome(mode, pos.held, pos.rolled, b, n, p)
        word = {D_BLAMMO: "blammo", D_NANNERS: "nanners"}.get(
            d, "bust" if pos.held >> pos.rolled & 1 else "take")
        return {"recommendation": word, "value": value, "unit": "card-equivalents",
                "exact": True}
    q = solver.query(pos.held, b, n, p, pos.bonus)
    return {"recommendation": q["recommendation"], "ev_stop": q["ev_stop"],
            "ev_roll": q["ev_roll"], "unit": "card-equivalents", "exact": True}


def decide_job(pos: Position, setup, choices):
    from analyzer.runner import KernelJob, half_width_of_mean

    arr = np.array([c for _, c in choices], dtype=np.int64)
    d = setup.deck
    bots = setup.bots[0]
    rules = setup.rules_arr
    mode = 1 if pos.bonus else 0

    def run_blocks(keys, counts):
        decide_blocks = setup.kernel("decide_blocks")
        return decide_blocks(keys, counts, pos.g0, pos.pool, pos.opp_hand, pos.opp_down, pos.me,
                             mode, pos.held, arr, bots, d.pts, d.per_card, d.copies, rules,
                             setup.roll_tab, setup.after_tab)

    last = len(choices) - 1
    head = half_width_of_mean(4 * last + 2, 4 * last + 3) if last > 0 else \
        half_width_of_mean(0, 1)
    # rollout seats make a playout slow: fewer per block (whole.py ROLLOUT_BLOCK_WORK)
    return KernelJob("trash-pandas decide", min(BLOCK_SIZE, setup.block_size), run_blocks, head,
                     unit="playouts")


def decide(pos: Position, setup, spec) -> dict:
    """Run the playouts and build the answer (JSON-ready)."""
    from analyzer.stats import mean_from_sums, paired_difference, verdict

    choices = choices_for(pos, setup.rules.bonus_cap)
    res = spec.run(decide_job(pos, setup, choices))
    s = res.sums
    n = res.n
    rows = []
    for c, (label, _) in enumerate(choices):
        row = {"choice": label, "p_win": mean_from_sums(s[4 * c], s[4 * c + 1], n)}
        if c > 0:
            row["vs_" + choices[0][0]] = paired_difference(s[4 * c + 2], s[4 * c + 3], n)
        rows.append(row)
    if len(choices) == 1:
        rec, note = choices[0][0], "the only legal choice"
    else:
        best = max(range(len(choices)), key=lambda c: s[4 * c])
        diff = rows[best].get("vs_" + choices[0][0]) if best > 0 else None
        if best > 0:
            v = verdict(diff, choices[best][0], choices[0][0])
        else:  # the baseline leads: is any alternative clearly worse than it?
            v = choices[0][0]
            for r in rows[1:]:
                if r["vs_" + choices[0][0]].contains_zero():
                    v = "too close to call"
        rec = v
        note = f"n = {n} playouts" if v == "too close to call" else ""
    return {"game": "trash-pandas", "exact": False, "seed": spec.seed, "n": n,
            "choices": rows, "recommendation": rec, "note": note,
            "turn_level": turn_level(pos, setup.rules), "playouts_per_second": res.per_second,
            "stopped_by": res.stopped_by, "interrupted": res.interrupted}


def render_decide(out: dict) -> str:
    lines = [f"Trash Pandas decide: n = {out['n']:,} playouts per choice, seed {out['seed']}"]
    base = out["choices"][0]["choice"]
    for row in out["choices"]:
        extra = ""
        if "vs_" + base in row:
            extra = f"   change vs {base}: {row['vs_' + base].format(4)}"
        lines.append(f"  {row['choice']:<8} P(win) = {row['p_win'].format(4)}{extra}")
    lines.append(f"  → {out['recommendation']}" + (f" ({out['note']})" if out["note"] else ""))
    t = out["turn_level"]
    if "ev_stop" in t:
        roll = "—" if t["ev_roll"] is None else f"{t['ev_roll']:.3f}"
        lines.append(f"  turn-level (exact, card-equivalents): stop {t['ev_stop']:.3f}, roll "
                     f"{roll} → {t['recommendation']}")
    else:
        lines.append(f"  turn-level (exact, card-equivalents): {t['recommendation']} "
                     f"({t['value']:.3f})")
    return "\n".join(lines)
