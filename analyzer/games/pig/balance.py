"""Pig's balance figures: whole games of a line-up, seat 1 (the first to move) against seat 2.

Runs kernels/pig/game.py ``balance_blocks`` and turns its named sums (``BALANCE_COLUMNS``) into
an :class:`analyzer.balance.Balance`: each seat's win rate against the fair 50% (Pig has no
ties), busts per turn, the winner's margin in points, lead changes per game and how often the
leader after ceil(3T/4) of the T turns goes on to win (the clock: turns), and the distribution of
game length in turns (the last bucket open).
"""
from __future__ import annotations

from analyzer.balance import Balance, add_seats, decisiveness, ratio
from analyzer.games.pig.play import policy_arrays
from analyzer.games.pig.rules import PigRules
from analyzer.runner import RunSpec

BLOCK = 1 << 12


def balance_job(pair, rules: PigRules):
    """A runner job of whole games between ``pair`` (seat 0 = the first to move)."""
    from analyzer.runner import KernelJob, half_width_of_proportion
    from kernels.pig.game import BALANCE_COLUMNS, balance_blocks

    args = (*policy_arrays(pair[0], rules), *policy_arrays(pair[1], rules))

    def run_blocks(keys, counts):
        return balance_blocks(keys, counts, rules.goal, rules.faces, rules.bust_faces, *args)

    return KernelJob(f"pig balance {pair[0].label} vs {pair[1].label}", BLOCK, run_blocks,
                     half_width_of_proportion(BALANCE_COLUMNS.index("seat0_wins")),
                     unit="games")


def balance(pair, rules: PigRules, spec: RunSpec, group: str) -> Balance:
    """The balance figures of ``spec.n`` games between ``pair`` (module doc)."""
    from analyzer.stats import mean_from_sums, wilson
    from kernels.pig.game import BALANCE_COLUMNS, NLEN

    res = spec.run(balance_job(pair, rules))
    s = dict(zip(BALANCE_COLUMNS, (float(x) for x in res.sums)))
    n = res.n
    b = Balance(group, 2, n, spec.seed, length_unit="turns", open_top=True,
                clock="turns")
    w0 = wilson(s["seat0_wins"], n)
    w1 = wilson(n - s["seat0_wins"], n)
    add_seats(b, [w0, w1], 0.5)
    b.add("decisive", decisiveness(s["leader_3q_wins"], s["leader_3q"]))
    b.add("lead_changes", mean_from_sums(s["lead_changes"], s["lead_changes_sq"], n))
    b.add("margin", mean_from_sums(s["margin"], s["margin_sq"], n), unit="points")
    b.add("length", mean_from_sums(s["turns"], s["turns_sq"], n), unit="turns")
    b.add("bust", ratio(s["busts"], s["busts_sq"], s["busts_x_turns"], s["turns"],
                        s["turns_sq"], n))
    counts = [(k, int(s[f"turns_{k}"])) for k in range(1, NLEN)]
    counts.append((NLEN, int(s[f"turns_{NLEN}+"])))
    b.length_counts = [(v, c) for v, c in counts if c > 0]
    b.open_top = bool(b.length_counts) and b.length_counts[-1][0] == NLEN
    b.notes.append("Pig cannot end in a tie: the first player to reach the goal wins.")
    return b
