"""Trash Pandas whole-game house rules and the deck file as kernel arrays.

Every [D] decision of the rules page that the whole game meets is a key here (the turn-level keys
``bonus_turn``, ``bonus_cap``, ``consolation`` and ``deck`` keep their meaning). The deck file
(analyzer/data/trash_pandas_deck.toml, a labelled reconstruction: [U]) gives copies and points.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.errors import UserError
from analyzer.rules import rule

CARDS = ("blammo", "doggo", "feesh", "kitteh", "pie", "nanners", "shiny", "yumyum")
CARD_NAMES = {"blammo": "Blammo!", "doggo": "Doggo", "feesh": "Feesh", "kitteh": "Kitteh",
              "pie": "MMM Pie!", "nanners": "Nanners", "shiny": "Shiny", "yumyum": "Yum Yum"}
DEALS = {"3456": (3, 4, 5, 6), "2345": (2, 3, 4, 5)}


@dataclass(frozen=True)
class WholeGameRules:
    """House rules of a whole game of Trash Pandas."""

    deal: str = rule("3456", "cards dealt to seats 1-4 (the 2345 deal is from a preview copy)",
                     choices=tuple(DEALS))
    bonus_turn: bool = rule(True, "collecting all six tokens earns a bonus turn")
    bonus_cap: int = rule(3, "tokens a bonus turn can collect", min=1, max=5)
    consolation: str = rule("mandatory", "consolation draw after a bust",
                            choices=("mandatory", "optional"))
    mask_card: str = rule("hand", "where the card revealed by the Bandit Mask goes",
                          choices=("hand", "discard"))
    kitteh_chain: bool = rule(True, "a Kitteh steal-back can itself be blocked (chains)")
    tie: str = rule("tiebreaks", "a tie on points: most types stashed, then most cards "
                    "(tiebreaks), or shared", choices=("tiebreaks", "shared"))
    deck: str = rule("", "deck file (TOML); empty: the shipped reconstruction")

    def kernel_array(self, check: bool = False, max_turns: int = 2000) -> np.ndarray:
        """The int64[8] rules array of kernels/trash_pandas_whole/engine.py."""
        return np.array([int(self.bonus_turn), self.bonus_cap,
                         int(self.consolation == "optional"), int(check), max_turns,
                         int(self.mask_card == "discard"), int(self.kitteh_chain),
                         int(self.tie == "shared")], dtype=np.int64)

    def deal_for(self, players: int) -> np.ndarray:
        d = np.zeros(4, dtype=np.int64)
        d[:players] = DEALS[self.deal][:players]
        return d

    def turn_rules(self):
        """The turn-level rules (analyzer/games/trash_pandas.py) for the turn solver."""
        from analyzer.games.trash_pandas import TrashPandasRules

        return TrashPandasRules(bonus_turn=self.bonus_turn, bonus_cap=self.bonus_cap,
                                consolation=self.consolation, deck=self.deck)


@dataclass(frozen=True)
class DeckArrays:
    """The deck file in kernel form: copies int64[8], pts int64[8, 3], per_card int64[8]."""

    copies: np.ndarray
    pts: np.ndarray
    per_card: np.ndarray
    assumption: str = ""

    @property
    def size(self) -> int:
        return int(self.copies.sum())


def deck_arrays(path: str = "", copies: dict | None = None) -> DeckArrays:
    """Load a deck file (every one of the eight types must be there); ``copies`` overrides
    copy counts by card key (tests use it to take cards out of play)."""
    from analyzer.games.trash_pandas_score import load_deck

    deck = load_deck(path or None)
    missing = [c for c in CARDS if c not in deck]
    extra = [c for c in deck if c not in CARDS]
    if missing or extra:
        raise UserError(f"deck file: the whole game needs exactly the card types "
                        f"{', '.join(CARDS)} (missing: {', '.join(missing) or 'none'}; "
                        f"unknown: {', '.join(extra) or 'none'})")
    c = np.zeros(8, dtype=np.int64)
    pts = np.zeros((8, 3), dtype=np.int64)
    per = np.zeros(8, dtype=np.int64)
    for i, key in enumerate(CARDS):
        card = deck[key]
        c[i] = card.copies if copies is None or key not in copies else copies[key]
        per[i] = card.per_card
        for j, v in enumerate(card.points[:3]):
            pts[i, j] = v
    return DeckArrays(c, pts, per)


def check_deal(rules: WholeGameRules, deck: DeckArrays, players: int) -> None:
    if not 2 <= players <= 4:
        raise UserError(f"--players must be 2, 3 or 4 (got {players})")
    need = int(rules.deal_for(players).sum())
    if deck.size <= need:
        raise UserError(f"the deck holds {deck.size} cards, too few to deal {need}")
