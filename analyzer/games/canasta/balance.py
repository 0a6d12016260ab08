"""Railroad Canasta's balance figures from the sums of whole games (kernels/canasta/trials.py).

``game_trial`` adds, after its older columns, the balance columns ``GAME_EXTRA``: lead changes
(the strict leader by cumulative points, checked after every round), the leader at the end of
the first round in which a player reached three quarters of the target and whether that leader
won, the winner's margin over the runner-up, and the game length in rounds. :func:`figures`
turns them into statistic objects; :func:`balance_of` makes the :class:`Balance` of a
`canasta simulate` result: each seat's win rate against 1/P (the first dealer is drawn at
random, so seats differ only by the policies in them), the winner's margin, decisiveness (the
clock: points towards the target), lead changes per game and the length in rounds. A game
cannot end tied: it continues while the leader at the target is tied (the round cap aside).
"""
from __future__ import annotations

from analyzer.balance import Balance, add_seats, decisiveness
from analyzer.stats import mean_from_sums


def figures(sums, players: int, n: int) -> dict:
    """The balance figures of a MODE_GAMES run's reduced sums (module doc)."""
    from kernels.canasta.trials import NRH, NROUNDSTAT

    x = 4 + players + 3 * NROUNDSTAT + 2
    s = [float(v) for v in sums[x:x + 6 + NRH]]
    hist = [(k + 1, int(c)) for k, c in enumerate(s[6:]) if c > 0]
    return {"lead_changes": mean_from_sums(s[0], s[1], n),
            "decisive": decisiveness(s[3], s[2]),
            "margin": mean_from_sums(s[4], s[5], n),
            "rounds_histogram": hist, "rounds_open_top": NRH}


def balance_of(out: dict, group: str) -> Balance:
    """The :class:`Balance` of a `canasta simulate` result (its ``balance`` figures)."""
    b = Balance(group, out["players"], out["n"], out["seed"], length_unit="rounds",
                clock="points towards the target", first="seat 1")
    add_seats(b, [s["p_win"] for s in out["seats"]])
    f = out["balance"]
    b.add("decisive", f["decisive"])
    b.add("lead_changes", f["lead_changes"])
    b.add("margin", f["margin"], unit="points")
    b.add("length", out["rounds_per_game"], unit="rounds")
    b.length_counts = f["rounds_histogram"]
    b.open_top = bool(b.length_counts) and b.length_counts[-1][0] == f["rounds_open_top"]
    b.notes.append("A game of Railroad Canasta cannot end tied: it goes on while the players "
                   "at the top are level at or above the target.")
    return b
