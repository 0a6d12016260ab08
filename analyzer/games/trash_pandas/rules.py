"""Trash Pandas rules and notation: the house rules, the value model and the held-token notation.

What belongs here: the rules dataclass (``RULES``), the token names and their notation
(``trash,paw``), the value model's weights and their parsing (``--value draw=1,...``), and the
decision codes shared with the kernels. Card data (the deck file) is read by :mod:`.score`.
No solver, no kernel, no pandas.

One custom d6 whose six faces are the six tokens (index: 0 trash, 1 trees, 2 trash-tree, 3 paw,
4 mask, 5 recycle). A held set is a 6-bit mask. Value model: see :mod:`.exact`.
"""
from __future__ import annotations

from dataclasses import dataclass

from analyzer.errors import UserError
from analyzer.rules import rule

TOKENS = ("trash", "trees", "trash-tree", "paw", "mask", "recycle")
RECYCLE = 5
ALL_SIX = 0b111111
TOKEN_INDEX = {name: i for i, name in enumerate(TOKENS)}
ALIASES = {"trashtree": "trash-tree", "trash_tree": "trash-tree", "tree": "trees",
           "bandit": "mask", "steal": "paw", "wild": "recycle"}

# Decision codes shared with kernels/trash_pandas/turn.py
STOP, ROLL = 0, 1
TAKE, BLAMMO, NANNERS = 0, 1, 2  # after a roll: take the token / bust, spend Blammo!, spend Nanners
MAIN, BONUS = 0, 1


@dataclass(frozen=True)
class TrashPandasRules:
    """House rules (the deck file holds the card data). The first four touch the turn model;
    the others only whole games (`game`, `decide`): each is a [D] decision of the rules page."""

    bonus_turn: bool = rule(True, "collecting all six tokens earns a bonus turn")
    bonus_cap: int = rule(3, "tokens a bonus turn can collect", min=1, max=5)
    consolation: str = rule("mandatory", "consolation draw after a bust",
                            choices=("mandatory", "optional"))
    deck: str = rule("", "deck file (TOML); empty: the shipped reconstruction")
    deal: str = rule("3456", "whole games: cards dealt to seats 1-4 (2345: a preview copy's deal)",
                     choices=("3456", "2345"))
    mask_card: str = rule("hand", "whole games: where the card the Bandit Mask reveals goes",
                          choices=("hand", "discard"))
    kitteh_chain: bool = rule(True, "whole games: a Kitteh steal-back can itself be blocked")
    tie: str = rule("tiebreaks", "whole games: a tie on points goes to most types stashed, then "
                    "most cards (tiebreaks), or is shared", choices=("tiebreaks", "shared"))
    feesh_timing: str = rule("any", "whole games: Feesh at any moment of the own turn, e.g. to "
                             "save a repeat (any), or only while resolving (resolve)",
                             choices=("any", "resolve"))
    gain_lock: str = rule("active", "whole games: cards gained this turn are locked for the "
                          "active player until its (bonus) turn ends (active), or for everyone "
                          "through the bonus turn (all)", choices=("active", "all"))
    shiny_timing: str = rule("any", "whole games: Shiny on the own turn, after a bust too (any), "
                             "or only while resolving (resolve)", choices=("any", "resolve"))

    def canonical(self) -> "TrashPandasRules":
        """The same game with keys that cannot matter reset: without a bonus turn the bonus
        cap is never used (so `tune` counts such cells once)."""
        import dataclasses

        return self if self.bonus_turn else dataclasses.replace(self, bonus_cap=3)


@dataclass(frozen=True)
class ValueModel:
    """Weights of the value model in card-equivalents (see module doc)."""

    draw: float = 1.0
    stash: float = 1.0
    steal: float = 1.0
    mask: float = 1.0
    card: float = 1.0
    bust: float = 1.0

    def token_values(self) -> tuple[float, ...]:
        """Base values of trash, trees, trash-tree, paw, mask (recycle depends on the held set)."""
        return (2 * self.draw, 2 * self.stash, max(self.draw, self.stash), self.steal, self.mask)


def parse_values(text: str | None) -> ValueModel:
    """``draw=1,stash=1.5,...`` → ValueModel; unknown keys and non-numbers are errors."""
    if not text:
        return ValueModel()
    fields = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise UserError(f"--value '{text}' has an empty item")
        if "=" not in part:
            raise UserError(f"--value expects key=number pairs, got '{part}'")
        key, val = (s.strip() for s in part.split("=", 1))
        if key not in ValueModel.__dataclass_fields__:
            known = ", ".join(ValueModel.__dataclass_fields__)
            raise UserError(f"unknown value weight '{key}' (known: {known})")
        if key in fields:
            raise UserError(f"value weight '{key}' given twice in --value '{text}'")
        try:
            number = float(val)
        except ValueError:
            raise UserError(f"value weight '{key}' must be a number, got '{val}'") from None
        if number != number or number in (float("inf"), float("-inf")):
            raise UserError(f"value weight '{key}' must be finite")
        if key != "card" and number < 0:
            raise UserError(f"value weight '{key}' must be non-negative, got {number}")
        fields[key] = number
    return ValueModel(**fields)


def parse_held(text: str | None) -> int:
    """``trash,paw`` → bit mask; ``none`` or empty → 0. Unknown or repeated tokens are errors."""
    if text is None:
        return 0
    t = text.strip().lower()
    if t in ("", "none", "-"):
        return 0
    mask = 0
    for raw in t.split(","):
        name = raw.strip()
        name = ALIASES.get(name, name)
        if name not in TOKEN_INDEX:
            raise UserError(f"unknown token '{raw.strip()}' (tokens: {', '.join(TOKENS)})")
        bit = 1 << TOKEN_INDEX[name]
        if mask & bit:
            raise UserError(f"token '{name}' listed twice")
        mask |= bit
    return mask


def held_names(mask: int) -> list[str]:
    return [TOKENS[i] for i in range(6) if mask >> i & 1]


def held_label(mask: int) -> str:
    return ",".join(held_names(mask)) or "none"


def popcount(mask: int) -> int:
    return bin(mask).count("1")


RULES = TrashPandasRules
