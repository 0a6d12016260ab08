"""Railroad Canasta: the house rules (``RULES``), card notation, the deck and the requirement.

What belongs here: the rules dataclass (one ``rule(...)`` per house-rule key), card parsing and
card values, the supply check and the initial-meld requirement per cumulative score. Meld
legality and round scoring are in ``score.py``. The rules reference is
``docs/rules/canasta.md``.

Cards are written rank + suit (``QS``, ``7H``, ``TD`` or ``10D`` for a ten, ``2C``, ``AS``) and
``JK`` for a joker; lists are comma- or space-separated. Internally a card is a *type*: 0 joker,
1 two, 2 red three, 3 black three, 4..14 the natural ranks 4..A (type = rank number).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from analyzer.errors import UserError
from analyzer.rules import rule

JOKER, TWO, RED3, BLACK3, SEVEN = 0, 1, 2, 3, 7
VALUES = (50, 20, 0, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20)
TYPE_NAMES = ("JK", "2", "red 3", "black 3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_TYPE = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10, "10": 10, "9": 9, "8": 8, "7": 7,
             "6": 6, "5": 5, "4": 4, "2": TWO}
SUITS = "SHDC"
CANASTA_TYPES = ("red", "black", "wild", "sevens")
PER_SHARE = (2, 8, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8)  # copies per player-share, by type


@dataclass(frozen=True)
class CanastaRules:
    players: int = rule(2, "number of players (each plays for themselves)", min=2, max=6)
    hand_size: int = rule(13, "cards dealt to each hand", min=3, max=20)
    kitty_size: int = rule(11, "cards in each face-down kitty", min=0, max=20)
    target: int = rule(20000, "game ends after a round with a unique leader at or above this",
                       min=100, max=1000000)
    going_out_bonus: int = rule(100, "bonus for the player who goes out", min=0, max=10000)
    red_three_bonus: int = rule(100, "bonus per red three placed", min=0, max=10000)
    bonus_red: int = rule(500, "red (natural) canasta bonus", min=0, max=100000)
    bonus_black: int = rule(300, "black (mixed) canasta bonus", min=0, max=100000)
    bonus_wild: int = rule(1000, "wild canasta bonus", min=0, max=100000)
    bonus_sevens: int = rule(1500, "sevens canasta bonus", min=0, max=100000)
    requirement_thresholds: tuple[int, ...] = rule(
        (0, 5000, 10000, 15000), "cumulative scores where the initial-meld bands start")
    requirement_values: tuple[int, ...] = rule(
        (15, 50, 90, 120, 150), "initial-meld minimum per band (one more than thresholds)")
    red3_replace: bool = rule(False, "OPTION: draw a replacement for a red three dealt or drawn")
    wild_upcard_freezes: bool = rule(True, "a wild initial up-card freezes the pile (DEFAULT)")
    wilds_in_sevens: bool = rule(False, "OPTION: wilds may join sevens melds (a mixed sevens "
                                        "canasta then counts as black)")
    lock_meld_needs_requirement: bool = rule(
        False, "OPTION: in a sevens lock, a player who has not melded must meet the initial "
               "requirement to meld their sevens (DEFAULT false: they meld them anyway)")
    max_rounds: int = rule(200, "safety cap on rounds per simulated game", min=1, max=10000)

    def check(self) -> None:
        thr, val = self.requirement_thresholds, self.requirement_values
        if len(val) != len(thr) + 1:
            raise UserError("rule 'requirement_values' must have one more entry than "
                            "'requirement_thresholds'")
        if list(thr) != sorted(set(thr)):
            raise UserError("rule 'requirement_thresholds' must be strictly increasing")
        if any(v < 0 for v in val):
            raise UserError("rule 'requirement_values' must be non-negative")
        if self.players * (self.hand_size + self.kitty_size) + 1 >= 106 * self.players:
            raise UserError("hands and kitties use up the whole deck")


# --------------------------------------------------------------------------- cards
_CARD_RE = re.compile(r"^(10|[2-9TJQKA])([SHDC])$")


def parse_card(text: str) -> tuple[int, str]:
    """One card → (type, canonical label). Raises UserError naming the bad card."""
    t = text.strip().upper()
    if t in ("JK", "JOKER", "*"):
        return JOKER, "JK"
    m = _CARD_RE.match(t)
    if not m:
        raise UserError(f"bad card '{text}': write rank + suit (QS, 7H, TD, 2C, AS) or JK")
    rank, suit = m.group(1), m.group(2)
    if rank == "3":
        return (RED3 if suit in "HD" else BLACK3), f"3{suit}"
    if rank == "10":
        rank = "T"
    return RANK_TYPE[rank], f"{rank}{suit}"


def parse_cards(text) -> list[tuple[int, str]]:
    """A comma/space-separated string or a list of strings → [(type, label)]."""
    if isinstance(text, (list, tuple)):
        items = [str(x) for x in text]
    else:
        items = [x for x in re.split(r"[,\s]+", str(text)) if x]
    return [parse_card(x) for x in items]


def card_types(text) -> list[int]:
    return [c for c, _ in parse_cards(text)]


def card_value(c: int) -> int:
    return VALUES[c]


def cards_value(types) -> int:
    return sum(VALUES[c] for c in types)


def check_supply(labels: list[str], players: int) -> None:
    """No card may appear more often than the 2·P packs (and 2·P jokers) hold."""
    from collections import Counter

    cap = 2 * players
    for lab, n in Counter(labels).items():
        if n > cap:
            raise UserError(f"card {lab} appears {n} times but {players} players' decks hold "
                            f"only {cap}")


def share_value_total() -> int:
    """Card values of one 106-card player-share (red threes count 0)."""
    return sum(n * v for n, v in zip(PER_SHARE, VALUES))


def requirement(score: int, rules: CanastaRules) -> int:
    """Initial-meld minimum for a cumulative score (section 4)."""
    k = 0
    for i, th in enumerate(rules.requirement_thresholds):
        if score >= th:
            k = i + 1
    return rules.requirement_values[k]


RULES = CanastaRules
