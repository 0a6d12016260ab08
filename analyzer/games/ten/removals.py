"""How much the unknown 2–3 player card removals matter: the report part ``ten.removals``.

With 3 players the rulebook removes the cards marked "4+", with 2 also those marked "3"; which
cards carry the marks is not public [U], so the shipped deck file removes none and every player
count plays the whole deck (docs/rules/ten.md; `ten game` says so for 2 and 3 players). This
part measures how far the headline figures of whole games move if the marks were on some
plausible cards instead. The lists below are HYPOTHETICAL, chosen to span the kinds of removal a
publisher makes (thinning the common number cards; thinning currency and wilds); they are not
the rulebook's and none of them is claimed to be right. A user with the physical game lists the
real marks in a deck file (``[players] marked_4plus`` / ``marked_3``) and passes ``--deck``.

Method. For each player count P in ``players`` and each scenario s, ``games`` whole games of
the line-up ``bot`` in every seat are played by `ten game`'s engine with the scenario's deck,
under the part seed + 10·i + j (i the player count's index, j the scenario's): the runs are
independent of each other. Each group's figures are analyzer/games/ten/balance.py's (seat
win shares with Wilson intervals, ties, the winner's margin, length, busts per turn). The
change of a figure against the whole deck at the same player count is a difference of two
independent estimates: d = x_s − x_0, SE = sqrt(SE_s² + SE_0²), 95% interval d ± 1.96·SE
(a different deck cannot share the same shuffles, so the runs are not paired).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

COLOURS = "rbgo"
LOW_NUMBERS = [f"{c}{v}" for c in COLOURS for v in range(1, 7)]  # one copy of each 1–6
CURRENCY_AND_WILDS = [f"${u}" for u in range(1, 6)] + [f"{c}#" for c in COLOURS]


@dataclass(frozen=True)
class Scenario:
    """A hypothetical pair of marked lists (card codes; a code listed twice removes two)."""

    key: str
    short: str
    words: str
    marked_4plus: tuple = ()
    marked_3: tuple = ()

    def removed(self, players: int) -> int:
        return len(self.marked_4plus) + (len(self.marked_3) if players <= 2 else 0)


SCENARIOS = (
    Scenario("whole", "the whole deck", "whole deck (the shipped assumption: no card removed)"),
    Scenario("numbers", "1–6 numbers marked", "one copy of every 1–6 number card marked (\"4+\"; with 2 players a "
             "second copy marked \"3\")", tuple(LOW_NUMBERS), tuple(LOW_NUMBERS)),
    Scenario("currency", "currency and wilds marked", "one currency card of each value and one wild of each colour marked "
             "(\"4+\"; with 2 players the same again marked \"3\")",
             tuple(CURRENCY_AND_WILDS), tuple(CURRENCY_AND_WILDS)),
)
#: the figures whose change is tabulated (balance.py keys; seat 1's win share first)
COMPARED = (("seat", 1, "seat 1 wins", True), ("length", None, "turns per game", False),
            ("margin", None, "winner's margin (points)", False),
            ("tie", None, "games tied on points", True), ("bust", None, "turns that bust", True))


def scenario_deck(base, scenario: Scenario):
    """``base`` (a DeckSpec) with the scenario's marked lists."""
    return replace(base, marked_4plus=scenario.marked_4plus, marked_3=scenario.marked_3,
                   source=f"{base.source} + hypothetical marks '{scenario.key}'")


def difference(x, base):
    """x − base of two independent estimates (module doc)."""
    from analyzer.stats import Statistic, Z95

    d = x.estimate - base.estimate
    se = (x.se ** 2 + base.se ** 2) ** 0.5
    return Statistic(d, se, d - Z95 * se, d + Z95 * se, min(x.n, base.n))


def removals_settings(params: dict, rules: dict):
    """Rules, player counts (2 and 3 only: the removals apply there) and the line-up."""
    from analyzer.errors import UserError
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.rules import TenRules
    from analyzer.rules import build_rules

    r = build_rules(TenRules, None, None, rules)
    counts = params.get("players", [2, 3])
    for players in counts:
        if players not in (2, 3):
            raise UserError(f"ten.removals: players = {players}: the marked cards leave the deck "
                            "only with 2 or 3 players")
        parse_seats(params.get("bot", "threshold"), players, "bot")
    return r, counts


def removals_part(params: dict, rules: dict, seed: int):
    """Whole games per player count and hypothetical removal list (module doc), the balance
    tables of every group and the changes against the whole deck."""
    from analyzer.balance_part import balance_result
    from analyzer.games.ten.balance import balance_of, records
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.rules import deck_counts, load_deck
    from analyzer.games.ten.whole import Setup

    r, counts = removals_settings(params, rules)
    games = int(params.get("games", 20_000))
    bot = params.get("bot", "threshold")
    base = load_deck()
    groups, rows = [], []
    for i, players in enumerate(counts):
        first = None
        for j, sc in enumerate(SCENARIOS):
            spec = scenario_deck(base, sc)
            size = sum(deck_counts(r.turn_rules(), spec, players).values())
            setup = Setup(r, spec, players, [parse_seats(bot, players, "bot")])
            part_seed = seed + 10 * i + j  # one seed per group, run and label alike
            b = balance_of(records(setup, games, part_seed), players, part_seed,
                           f"{players} players, {sc.short}")
            groups.append(b)
            if j == 0:
                first = b
            row = {"players": players, "scenario": sc.short, "removed": sc.removed(players),
                   "cards": size}
            for key, seat, _words, _pct in COMPARED:
                m, m0 = b.get(key, seat), first.get(key, seat)
                row[key] = m.stat
                row["d_" + key] = difference(m.stat, m0.stat) if j else None
            rows.append(row)
    out = balance_result(
        groups, "Ten", method(games, bot), subject=lambda b: f"games ({b.group}) between {bot} "
        "bots", group_header="players, removal list", stem="removals",
        extra=changes_markdown(rows))
    out.meta["removals"] = [{k: (v.to_json() if hasattr(v, "to_json") else v)
                             for k, v in r.items()} for r in rows]
    out.meta["findings"] += [f.to_json() for f in findings(rows)]
    return out


def findings(rows: list[dict]) -> list:
    """One sentence per hypothetical list: how seat 1's win share and the length move."""
    from analyzer.balance import Finding
    from analyzer.numbers import interval

    out = []
    for r in rows:
        if r["d_seat"] is None:
            continue
        out.append(Finding(
            f"With {r['players']} players, if the unknown marks were on {r['removed']} cards "
            f"({r['scenario']}, a hypothetical list), seat 1's win share would change by "
            f"{interval(r['d_seat'], points=True, signed=True)} percentage points and the "
            f"length of a game by {interval(r['d_length'], signed=True)} turns.", 5))
    return out


def method(games: int, bot: str) -> str:
    return (f"Monte Carlo: {games:,} whole games of `ten game`'s engine per player count and "
            f"removal list, {bot} bots in every seat, each group on its own seed (the part seed "
            "+ 10 × the player count's index + the list's index). The removal lists are "
            "HYPOTHETICAL (the rulebook's marks are not public [U]): "
            + "; ".join(f"**{s.key}**: {s.words}" for s in SCENARIOS)
            + ". Changes against the whole deck are differences of independent runs "
            "(SE = √(SE₁² + SE₂²), normal 95% intervals).")


def changes_markdown(rows: list[dict]) -> str:
    """The table of changes against the whole deck (percentage points for shares)."""
    from analyzer.numbers import interval

    head = ["players", "removal list", "cards removed", "deck"] + \
        [f"{words}: change" for _k, _s, words, _p in COMPARED]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [str(r["players"]), r["scenario"], str(r["removed"]), str(r["cards"])]
        for key, _seat, _words, pct in COMPARED:
            d = r["d_" + key]
            if d is None:
                cells.append("—")
            elif pct:
                cells.append(interval(d, points=True, signed=True) + " pp")
            else:
                cells.append(interval(d, signed=True))
        lines.append("| " + " | ".join(cells) + " |")
    return ("**How much the unknown removal lists matter** (change of each figure against the "
            "whole deck at the same player count; shares in percentage points; 95% "
            "intervals; the lists are hypothetical):\n\n" + "\n".join(lines))
