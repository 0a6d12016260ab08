"""Railroad Canasta decisions from a stated position: `pushluck canasta decide`.

What belongs here: a position file (every player's melds, hands or hand sizes, kitties, the
pile and the stock; read and checked in ``position.py``) as the kernel's position arrays, and the
paired comparison of the two options (take the pile or draw two; go out now or play on) on common
random numbers. The unseen cards are dealt at random for every playout (determinization).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from analyzer.errors import UserError
from analyzer.games.canasta.play import make_job, policy_array, rules_arrays
from analyzer.games.canasta.position import Position, check_objective, check_position
from analyzer.games.canasta.pyengine import first_choice_allowed
from analyzer.games.canasta.rules import CanastaRules, requirement
from analyzer.stats import mean_from_sums, paired_difference

if TYPE_CHECKING:
    from analyzer.games.canasta.play import CanastaPolicy
    from analyzer.runner import RunSpec


def parse_position(data: dict | Position, rules: CanastaRules) -> dict:
    """A decision position (see ``pushluck canasta decide --help``; a dict is checked here first
    by :func:`~analyzer.games.canasta.position.check_position`) → kernel arrays."""
    from kernels.canasta import layout as K

    pos = data if isinstance(data, Position) else check_position(data, rules)
    P = len(pos.players)
    pos_hand = np.zeros((P, K.NT), np.int64)
    pos_un = np.zeros((P, K.NT, 3), np.int64)
    pos_can = np.zeros((P, 4), np.int64)
    pos_pl = np.zeros((P, K.NPL), np.int64)
    kon = np.zeros(P, np.int64)
    sizes = np.zeros(P, np.int64)
    for i, b in enumerate(pos.players):
        if i == 0:
            pos_hand[0] = b.hand
        pos_un[i] = b.un
        pos_can[i] = b.can
        kon[i] = b.kon
        sizes[i] = b.hsize
        pos_pl[i, K.C_KON] = b.kon
        pos_pl[i, K.C_MVAL] = b.mval
        pos_pl[i, K.C_R3] = b.red
        pos_pl[i, K.C_MELDED] = b.melded
        pos_pl[i, K.C_REQ] = requirement(b.score, rules)
        pos_pl[i, K.C_KTURN] = -1
        pos_pl[i, K.C_FIRSTMELD] = b.melded
        pos_pl[i, K.C_CUM] = b.score
    pile0 = np.zeros(K.NT, np.int64)
    for c, _ in pos.pile:
        pile0[c] += 1
    g0 = np.zeros(K.NG, np.int64)
    g0[K.G_PN] = len(pos.pile)
    g0[K.G_TOP] = pos.pile[-1][0] if pos.pile else -1
    g0[K.G_FROZEN] = int(pos.frozen)
    unseen = np.array(pos.unseen, np.int64)
    return {"arrays": (pos_hand, kon, pos_un, pos_can, pos_pl, pile0, g0, unseen, sizes),
            "stock": pos.stock, "skip_draw": pos.phase == "meld",
            "kind": 0 if pos.phase == "draw" else 1, "phase": pos.phase, "players": P,
            "top": pos.pile[-1][1] if pos.pile else None, "unseen": sum(pos.unseen)}


def decide(data: dict | Position, rules: CanastaRules, policies: list[CanastaPolicy],
           spec: RunSpec, objective: str = "own") -> dict:
    """Both options on common random numbers (``data`` as :func:`parse_position`). ``objective``
    "own": your round score; "lead": your round score minus the best opponent's (what matters
    in the race to the target)."""
    check_objective(objective)
    pos = parse_position(data, rules)  # checked before any kernel is imported
    labels = (("take the pile", "draw two") if pos["kind"] == 0 else ("go out now", "play on"))
    refused = (("taking the pile", "drawing") if pos["kind"] == 0 else ("going out", "playing on"))
    allowed = first_choice_allowed(pos, rules_arrays(rules)[0], policy_array(policies))
    for ok, what in zip(allowed, refused):
        if not ok:  # the engine's own first turn, run as plain Python: before Numba loads
            raise UserError(f"{what} is not allowed in this position")
    from analyzer.runner import half_width_of_mean
    from kernels.canasta import MODE_DECIDE

    job = make_job(MODE_DECIDE, rules, policies, position=pos, name="canasta decide",
                   unit="playouts", headline=half_width_of_mean(5, 6))
    res = spec.run(job)
    s, m = res.sums, res.n
    if s[7] > 0:  # the same engine code allowed both above: kept as the kernel's own word
        raise UserError(f"{refused[0]} is not allowed in this position")
    a = mean_from_sums(float(s[1]), float(s[2]), m)
    b = mean_from_sums(float(s[3]), float(s[4]), m)
    d = paired_difference(float(s[5]), float(s[6]), m)
    rel = paired_difference(float(s[10]), float(s[11]), m)
    def verdict(st):
        if st.contains_zero():
            return f"too close to call at n = {m:,}"
        return labels[0] if st.estimate > 0 else labels[1]

    by_own, by_lead = verdict(d), verdict(rel)
    main = d if objective == "own" else rel
    return {"game": "canasta", "exact": False, "seed": spec.seed, "n": m, "phase": pos["phase"],
            "question": f"{labels[0]} vs {labels[1]}", "options": list(labels),
            "policies": [p.label for p in policies], "objective": objective,
            "round_score_a": a, "round_score_b": b, "difference_a_minus_b": d,
            "lead_over_best_opponent_difference": rel,
            "recommendation": by_own if objective == "own" else by_lead,
            "recommendation_by_own_score": by_own, "recommendation_by_lead": by_lead,
            "margin": main.estimate,
            "unseen_cards": pos["unseen"], "stopped_by": res.stopped_by,
            "playouts_per_second": res.per_second}
