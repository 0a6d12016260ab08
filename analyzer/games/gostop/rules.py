"""Go-Stop rules: the house-rule dataclass, the card notation and the rules vector of the kernels.

Rules page: ``docs/rules/gostop.md``. Cards are written as a two-digit month and a class code
(``01B`` bright, ``02A`` animal, ``09R`` ribbon, ``05J1``/``05J2`` junk, ``11D``/``12D`` double
junk) and jokers as ``X<value>`` (``X2``, ``X3``); lists are separated by commas or spaces.
Internally card ``c = 4*(month-1) + slot`` (slot = column of the deck table) and jokers are
``48 + j`` in the order of the ``jokers`` rule.
"""
from __future__ import annotations


import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyzer.errors import UserError
from analyzer.rules import rule

if TYPE_CHECKING:
    import numpy as np

MONTH_CARDS = [
    ("01B", "01R", "01J1", "01J2"), ("02A", "02R", "02J1", "02J2"),
    ("03B", "03R", "03J1", "03J2"), ("04A", "04R", "04J1", "04J2"),
    ("05A", "05R", "05J1", "05J2"), ("06A", "06R", "06J1", "06J2"),
    ("07A", "07R", "07J1", "07J2"), ("08B", "08A", "08J1", "08J2"),
    ("09A", "09R", "09J1", "09J2"), ("10A", "10R", "10J1", "10J2"),
    ("11B", "11D", "11J1", "11J2"), ("12B", "12A", "12R", "12D"),
]
CARD_NAMES = [name for month in MONTH_CARDS for name in month]
CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
GO_MODES = {"source": 0, "korean": 1, "literal_gt3": 2, "cap2": 3}


@dataclass(frozen=True)
class GoStopRules:
    players: int = rule(2, "active players (2 or 3); seat 1 deals and plays first", min=2, max=3)
    target: int = rule(0, "stop minimum; 0 = the default for the player count (7 with 2 players, "
                          "3 with 3)", min=0, max=100)
    jokers: tuple[int, ...] = rule((2, 3), "junk value of each joker in the deck (0-5 jokers)",
                                   min=1, max=5)
    sake_cup: str = rule("animal", "09A counts as an animal, or (flex) as animal or double junk "
                                   "to its owner's advantage", choices=("animal", "flex"))
    go_multiplier: str = rule("source", "source: +1 per go, x2 once from the 3rd go; korean: x2, "
                                        "x4, ... from the 3rd; literal_gt3: x2 from the 4th; cap2",
                              choices=tuple(GO_MODES))
    nagari_multiplier: str = rule("once", "after nagari the next won deal pays x2 (once) or x2 "
                                          "per consecutive nagari (stack)",
                                  choices=("once", "stack"))
    bomb_bonus: str = rule("none", "korean: a bomb also steals 1 junk and doubles like a shake",
                           choices=("none", "korean"))
    bomb_after_shake: bool = rule(False, "a shaken (declared) triple may still bomb")
    ja_ppuk_scope: str = rule("previous", "ja-ppuk: own stack from the previous own turn, or any "
                                          "earlier turn", choices=("previous", "any"))
    last_turn_events: str = rule("always", "korean: no sweep/ttadak/stack-capture steal on the "
                                           "deal's final turn", choices=("always", "korean"))
    pibak_threshold: int = rule(5, "pi-bak when the loser's junk value is at most this", min=0,
                                max=40)
    pibak_exempt_zero: bool = rule(False, "a loser with no junk at all escapes pi-bak")
    go_bak: bool = rule(False, "a loser who had called go pays for all losers")
    chongtong_payment: str = rule("chips", "chongtong: chongtong_chips from each opponent, or the "
                                           "stop minimum", choices=("chips", "target"))
    chongtong_chips: int = rule(5, "chips per opponent for chongtong", min=0, max=1000)
    four_brights: int = rule(4, "points of 4 brights; 5 = sloperama (5 when 12B is not among "
                                "them, else 4)", choices=(4, 5))

    def check(self) -> None:
        if len(self.jokers) > 5:
            raise UserError(f"rule 'jokers' lists {len(self.jokers)} jokers; at most 5")

    @property
    def stop_target(self) -> int:
        if self.target:
            return self.target
        return 7 if self.players == 2 else 3

    @property
    def hand_size(self) -> int:
        return 10 if self.players == 2 else 7

    @property
    def layout_size(self) -> int:
        return 8 if self.players == 2 else 6

    @property
    def chong_chips(self) -> int:
        return self.chongtong_chips if self.chongtong_payment == "chips" else self.stop_target

    @property
    def deck_size(self) -> int:
        return 48 + len(self.jokers)


def rules_vector(r: GoStopRules) -> np.ndarray:
    """The rules as the int64 vector the kernels read (indices R_* in kernels.gostop.score)."""
    import numpy as np  # here, not at the top: `gostop score` never needs numpy

    from kernels.gostop import score as K

    v = np.zeros(K.NRULE, dtype=np.int64)
    v[K.R_NP] = r.players
    v[K.R_TARGET] = r.stop_target
    v[K.R_NJ] = len(r.jokers)
    v[K.R_FLEX] = r.sake_cup == "flex"
    v[K.R_GOMODE] = GO_MODES[r.go_multiplier]
    v[K.R_NAGSTACK] = r.nagari_multiplier == "stack"
    v[K.R_BOMBK] = r.bomb_bonus == "korean"
    v[K.R_BAS] = r.bomb_after_shake
    v[K.R_JAANY] = r.ja_ppuk_scope == "any"
    v[K.R_LASTK] = r.last_turn_events == "korean"
    v[K.R_PIBAK] = r.pibak_threshold
    v[K.R_PIB0] = r.pibak_exempt_zero
    v[K.R_GOBAK] = r.go_bak
    v[K.R_CHONG] = r.chong_chips
    v[K.R_FOURB5] = r.four_brights == 5
    v[K.R_HAND] = r.hand_size
    v[K.R_LAYOUT] = r.layout_size
    for j, val in enumerate(r.jokers):
        v[K.R_JV + j] = val
    kind, junk, value = K.card_tables(r.jokers)
    v[K.R_KTAB:K.R_KTAB + K.MAXC] = kind
    v[K.R_JTAB:K.R_JTAB + K.MAXC] = junk
    v[K.R_VTAB:K.R_VTAB + K.MAXC] = value
    return v


# ---- card notation ---------------------------------------------------------------------------

def card_name(c: int, rules: GoStopRules) -> str:
    if c < 48:
        return CARD_NAMES[c]
    return f"X{rules.jokers[c - 48]}"


def month_of(c: int) -> int:
    """1-based month of a card; 0 for a joker."""
    return c // 4 + 1 if c < 48 else 0


class CardPool:
    """Parses card lists and hands out each physical card once (jokers by value)."""

    def __init__(self, rules: GoStopRules):
        self.rules = rules
        self.where: dict[int, str] = {}

    def parse(self, text: str | None, what: str) -> list[int]:
        if text is None:
            return []
        if re.search(r"(^|,)\s*(,|$)", text.strip()) and text.strip():
            raise UserError(f"{what}: an empty item in '{text}'")
        out = []
        for token in re.split(r"[,\s]+", text.strip()):
            if not token:
                continue
            out.append(self.take(token, what))
        return out

    def take(self, token: str, what: str) -> int:
        t = token.strip().upper()
        if t in CARD_INDEX:
            c = CARD_INDEX[t]
            if c in self.where:
                raise UserError(f"card {t} appears twice (in {self.where[c]} and in {what})")
            self.where[c] = what
            return c
        m = re.fullmatch(r"X(\d+)", t)
        if m:
            val = int(m.group(1))
            for j, jv in enumerate(self.rules.jokers):
                if jv == val and 48 + j not in self.where:
                    self.where[48 + j] = what
                    return 48 + j
            have = sum(1 for jv in self.rules.jokers if jv == val)
            if have == 0:
                raise UserError(f"joker {t} in {what} is not in the deck (jokers: "
                                f"{', '.join('X%d' % v for v in self.rules.jokers) or 'none'})")
            raise UserError(f"joker {t} in {what}: the deck has only {have} such joker(s)")
        raise UserError(f"unknown card '{token}' in {what} (write month + class, e.g. 01B, 02A, "
                        f"09R, 05J1, 11D, or a joker X2/X3)")


def parse_cards(text: str, rules: GoStopRules, what: str = "cards") -> list[int]:
    return CardPool(rules).parse(text, what)


RULES = GoStopRules
