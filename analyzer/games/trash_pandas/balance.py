"""Trash Pandas' balance figures: the kernel's whole games, and the standings turn by turn.

Most figures come from `trash-pandas game`'s kernel (analyzer/games/trash_pandas/whole.py
``simulate_games``): each seat's win share against 1/P, games whose top score is tied and the
ones the tie-break decides (ties on points then broken by the rules' tie-break), the winner's
margin, game length in rounds with its distribution (the last bucket "20 or more"), and busts
per main turn.

Lead changes and the leader three quarters of the way through need the standings after every
turn, which the kernel does not keep. They come from the plain-Python reference game
(reference.py), which plays the kernel's games on the same random numbers (tests compare them
game by game): :class:`StandingsGame` scores every seat's stash (face-down cards included, as
the end of the game scores them) after each turn. Game g of the sample is trial g mod
``BLOCK_SIZE`` of block key g div ``BLOCK_SIZE`` under the figures' seed, i.e. the first games
of the kernel run, so both sets of figures describe the same games (the standings on fewer of
them: the reference plays about a thousand games a second). The clock is turns: the leader at
three quarters of a game of T turns is the strict leader after turn ceil(3T/4).
"""
from __future__ import annotations

from analyzer.balance import Balance, add_seats, decisiveness
from analyzer.games.trash_pandas.reference import KEYS, Game
from analyzer.stats import mean_from_sums, wilson


class StandingsGame(Game):
    """The reference game, noting the strict leader by points after every turn."""

    def watch(self) -> "StandingsGame":
        from analyzer.games.trash_pandas.score import CardType

        self.leaders: list[int] = []
        self.deck = {key: CardType(key, key, self.copies[t], tuple(self.pts[t]),
                                   self.per_card[t]) for t, key in enumerate(KEYS)}
        return self

    def scores(self) -> list[int]:
        from analyzer.games.trash_pandas.score import score

        players = {str(i): {KEYS[t]: s.stash[t] for t in range(8)}
                   for i, s in enumerate(self.seats)}
        res = score(players, self.deck)
        return [res["scores"][str(i)] for i in range(self.n)]

    def turn(self, a, *args, **kwargs):
        super().turn(a, *args, **kwargs)
        pts = self.scores()
        top = max(pts)
        self.leaders.append(pts.index(top) if pts.count(top) == 1 else -1)


def lead_figures(leaders: list[int], shares: list[float]) -> tuple[int, int, float]:
    """(lead changes, the leader at three quarters or −1, that leader's win share) of one game
    from its strict leader after each turn (kernels/lead.py states the definitions)."""
    changes, last = 0, -1
    for x in leaders:
        if x >= 0:
            if last >= 0 and x != last:
                changes += 1
            last = x
    k = (3 * len(leaders) + 3) // 4
    lead = leaders[k - 1] if k >= 1 else -1
    return changes, lead, (shares[lead] if lead >= 0 else 0.0)


def standings(setup, games: int, seed: int) -> dict:
    """Lead changes and the leader at three quarters over the first ``games`` games of the
    kernel run of ``setup`` (line-up 0) under ``seed``."""
    from analyzer.games.trash_pandas.whole import BLOCK_SIZE
    from analyzer.pystream import Stream
    from analyzer.rng import block_keys

    keys = block_keys(seed, 0, -(-games // BLOCK_SIZE))
    tables = (setup.roll_tab, setup.after_tab)
    s1 = s2 = with_leader = leader_wins = 0.0
    for g in range(games):
        game = StandingsGame(setup.players, setup.deck, setup.rules_arr, setup.deal,
                             setup.bots[0], tables,
                             Stream(keys[g // BLOCK_SIZE], g % BLOCK_SIZE)).watch()
        game.play_out()
        changes, lead, share = lead_figures(game.leaders, game.result()["shares"])
        s1 += changes
        s2 += changes * changes
        if lead >= 0:
            with_leader += 1
            leader_wins += share
    return {"lead_changes": mean_from_sums(s1, s2, games),
            "decisive": decisiveness(leader_wins, with_leader)}


def balance_of(out: dict, group: str, lead: dict | None = None) -> Balance:
    """The :class:`Balance` of line-up 0 of a ``simulate_games`` result, with the standings
    figures ``lead`` (:func:`standings`) when given."""
    lu = out["lineups"][0]
    n = out["n"]
    b = Balance(group, out["players"], n, out["seed"], length_unit="rounds",
                clock="turns")
    add_seats(b, [s["win_rate"] for s in lu["seats"]])
    tied = lu["tiebreak_share"]  # games whose top points are tied
    shared = lu["shared_wins"]  # games still shared after the tie-break
    b.add("tie", tied)
    broken = round(tied.estimate * n) - round(shared.estimate * n)
    if round(tied.estimate * n) > 0:
        b.add("tiebreak", wilson(max(broken, 0), n))
    if lead is not None:
        b.add("decisive", lead["decisive"])
        b.add("lead_changes", lead["lead_changes"])
    b.add("margin", lu["margin"], unit="points")
    b.add("length", lu["rounds"], unit="rounds")
    b.add("bust", lu["bust_rate_per_turn"])
    counts = [(int(h["rounds"].rstrip("+")), round(h["share"].estimate * n))
              for h in lu["rounds_histogram"]]
    b.length_counts = sorted((v, c) for v, c in counts if c > 0)
    b.open_top = any(h["rounds"].endswith("+") for h in lu["rounds_histogram"])
    return b
