"""Trash Pandas end-of-game scoring: majorities with dense places and tie arithmetic.

For each majority type with points (p1, p2, p3): only players with at least one stashed card of
the type compete; they are grouped by count, highest first, into **dense** places (a tie does not
skip the next place). A lone player in place i scores p_i; every member of a tied group scores
p_i − 1 (floor 0); places beyond the third score 0. Blammo! scores 1 point per stashed card.
Winner: most points, then most distinct types stashed, then most stashed cards; else shared.

What belongs here: the deck file (``analyzer/data/trash_pandas_deck.toml``: copies and majority
points per card type), the stash notation and its checks against the deck, the scoring, and the
deck as the whole-game kernels' arrays (:func:`deck_arrays`). No kernels, no pandas.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from analyzer.errors import UserError
from analyzer.rules import load_toml

CARD_ALIASES = {"blammo!": "blammo", "mmm-pie": "pie", "mmm pie!": "pie", "mmmpie": "pie",
                "mmm-pie!": "pie", "yum-yum": "yumyum", "yum yum": "yumyum", "yum_yum": "yumyum"}


@dataclass(frozen=True)
class CardType:
    key: str
    name: str
    copies: int
    points: tuple[int, ...]  # majority points by place; empty for per-card types
    per_card: int = 0


def default_deck_path() -> Path:
    return Path(str(resources.files("analyzer") / "data" / "trash_pandas_deck.toml"))


#: Ranges of a deck file's numbers: a box never holds more than 1000 copies of a card type, and
#: no majority is worth more than 1000 points.
MAX_COPIES, MAX_POINTS = 1000, 1000


def _count(p, key: str, field: str, value, top: int) -> int:
    """One deck number: an integer (not a bool, float or string) in 0..top."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(f"{p}: card '{key}': '{field}' must be an integer, got {value!r}")
    if not 0 <= value <= top:
        raise UserError(f"{p}: card '{key}': '{field}' = {value} is outside 0..{top}")
    return value


def load_deck(path: str | Path | None = None) -> dict[str, CardType]:
    """Read a deck file (see analyzer/data/trash_pandas_deck.toml for the format)."""
    p = Path(path) if path else default_deck_path()
    data = load_toml(p)
    cards = data.get("cards")
    if not isinstance(cards, dict) or not cards:
        raise UserError(f"{p}: no [cards.*] tables")
    deck = {}
    for key, spec in cards.items():
        if not isinstance(spec, dict):
            raise UserError(f"{p}: cards.{key} must be a table")
        unknown = set(spec) - {"name", "copies", "points", "per_card", "title"}
        if unknown:
            raise UserError(f"{p}: card '{key}' has unknown key(s) {', '.join(sorted(unknown))}")
        if "copies" not in spec:
            raise UserError(f"{p}: card '{key}' needs 'copies'")
        copies = _count(p, key, "copies", spec["copies"], MAX_COPIES)
        raw_points = spec.get("points", [])
        if not isinstance(raw_points, list) or len(raw_points) > 10:
            raise UserError(f"{p}: card '{key}': 'points' must be a list of at most 10 integers "
                            f"like [5, 3, 1], got {raw_points!r}")
        points = tuple(_count(p, key, "points", x, MAX_POINTS) for x in raw_points)
        per_card = _count(p, key, "per_card", spec.get("per_card", 0), MAX_POINTS)
        if "name" in spec and not isinstance(spec["name"], str):
            raise UserError(f"{p}: card '{key}': 'name' must be a string")
        deck[key] = CardType(key, str(spec.get("name", key)), copies, points, per_card)
    return deck


def parse_stash(text: str, deck: dict[str, CardType]) -> dict[str, dict[str, int]]:
    """``A:feesh=3:blammo=2,B:feesh=3`` → {player: {card: count}}, validated against the deck.

    The shared list syntax (docs/conventions.md): players separated by ``,``, a player's name
    and cards by ``:`` (no shell quoting needed). A player without a name is ``P1``, ``P2``, …;
    several players must all be named, so the old one-player ``feesh=3,blammo=2`` is refused
    rather than read as two players. The old form ``A:feesh=3,blammo=2;B:feesh=3`` (players by
    ``;``, cards by ``,``; quoted in a shell) is still read."""
    old = ";" in text
    sep, card_sep = (";", ",") if old else (",", ":")
    players: dict[str, dict[str, int]] = {}
    chunks = text.split(sep)
    if text.strip() and any(not c.strip() for c in chunks):
        raise UserError(f"--stash '{text}' has an empty player (two '{sep}' in a row?)")
    for chunk in chunks:
        chunk = chunk.strip()
        head, _, body = (s.strip() for s in chunk.partition(":"))
        if ":" in chunk and "=" not in head:
            name = head
        else:
            name, body = f"P{len(players) + 1}", chunk
            if len(chunks) > 1 and not old:
                raise UserError(f"--stash '{text}': '{chunk}' names no player: separate players "
                                f"with ',' and one player's cards with ':' (e.g. --stash "
                                f"A:feesh=3:blammo=2,B:feesh=1; one player alone: "
                                f"{text.replace(',', ':')})")
        if not name:
            raise UserError(f"missing player name in '{chunk}'")
        if name in players:
            raise UserError(f"player '{name}' listed twice")
        players[name] = parse_counts(body, deck, name, card_sep)
    check_totals(players, deck)
    return players


def parse_counts(body: str, deck: dict[str, CardType], who: str,
                 sep: str = ",") -> dict[str, int]:
    """``feesh=3,blammo=2`` (``sep`` between the cards) → {card: count}."""
    counts: dict[str, int] = {}
    for part in body.split(sep):
        part = part.strip()
        if not part:
            raise UserError(f"{who}: an empty item in '{body}'")
        if "=" not in part:
            raise UserError(f"{who}: expected card=count, got '{part}'")
        card, num = (s.strip() for s in part.split("=", 1))
        key = CARD_ALIASES.get(card.lower(), card.lower())
        if key not in deck:
            raise UserError(f"{who}: unknown card '{card}' (cards: {', '.join(deck)})")
        try:
            n = int(num)
        except ValueError:
            raise UserError(f"{who}: count of '{card}' must be an integer, got '{num}'") from None
        if n < 0:
            raise UserError(f"{who}: count of '{card}' is negative ({n})")
        if key in counts:
            raise UserError(f"{who}: card '{card}' listed twice")
        counts[key] = n
    return counts


def check_totals(players: dict[str, dict[str, int]], deck: dict[str, CardType]) -> None:
    for key, card in deck.items():
        total = sum(c.get(key, 0) for c in players.values())
        if total > card.copies:
            raise UserError(f"{total} {card.name} stashed but the deck has {card.copies}")


def majority_points(counts: list[int], points: tuple[int, ...]) -> list[int]:
    """Points of each player for one majority type (module doc)."""
    competing = sorted({c for c in counts if c > 0}, reverse=True)
    result = []
    for c in counts:
        if c <= 0:
            result.append(0)
            continue
        place = competing.index(c)  # dense place, 0-based
        if place >= len(points):
            result.append(0)
            continue
        tied = sum(1 for x in counts if x == c) > 1
        result.append(max(points[place] - 1, 0) if tied else points[place])
    return result


def score(players: dict[str, dict[str, int]], deck: dict[str, CardType]) -> dict:
    names = list(players)
    totals = {n: 0 for n in names}
    breakdown = {n: {} for n in names}
    for key, card in deck.items():
        counts = [players[n].get(key, 0) for n in names]
        if card.per_card:
            pts = [c * card.per_card for c in counts]
        else:
            pts = majority_points(counts, card.points)
        for n, c, p in zip(names, counts, pts):
            if c > 0:
                breakdown[n][key] = {"count": c, "points": p}
                totals[n] += p

    def rank_key(n):
        distinct = sum(1 for c in players[n].values() if c > 0)
        return (totals[n], distinct, sum(players[n].values()))

    best = max(rank_key(n) for n in names)
    winners = [n for n in names if rank_key(n) == best]
    return {"scores": totals, "breakdown": breakdown, "winners": winners}


# ------------------------------------------------------------------ the deck for the whole game
WHOLE_CARDS = ("blammo", "doggo", "feesh", "kitteh", "pie", "nanners", "shiny", "yumyum")
CARD_NAMES = {"blammo": "Blammo!", "doggo": "Doggo", "feesh": "Feesh", "kitteh": "Kitteh",
              "pie": "MMM Pie!", "nanners": "Nanners", "shiny": "Shiny", "yumyum": "Yum Yum"}
DEALS = {"3456": (3, 4, 5, 6), "2345": (2, 3, 4, 5)}


@dataclass(frozen=True)
class DeckArrays:
    """The deck file in kernel form: copies int64[8], pts int64[8, 3], per_card int64[8]."""

    copies: "np.ndarray"
    pts: "np.ndarray"
    per_card: "np.ndarray"
    assumption: str = ""

    @property
    def size(self) -> int:
        return int(self.copies.sum())


def whole_deck(path: str = "") -> dict[str, CardType]:
    """Load a deck file for the whole game: every one of the eight types must be there (plain
    Python, so a position can be checked against it before NumPy is loaded)."""
    deck = load_deck(path or None)
    missing = [c for c in WHOLE_CARDS if c not in deck]
    extra = [c for c in deck if c not in WHOLE_CARDS]
    if missing or extra:
        raise UserError(f"deck file: the whole game needs exactly the card types "
                        f"{', '.join(WHOLE_CARDS)} (missing: {', '.join(missing) or 'none'}; "
                        f"unknown: {', '.join(extra) or 'none'})")
    return deck


def deck_arrays(path: str = "", copies: dict | None = None,
                deck: dict[str, CardType] | None = None) -> DeckArrays:
    """Load a deck file (:func:`whole_deck`; ``deck``: one already loaded) as arrays; ``copies``
    overrides copy counts by card key (tests use it to take cards out of play)."""
    import numpy as np

    deck = deck if deck is not None else whole_deck(path)
    c = np.zeros(8, dtype=np.int64)
    pts = np.zeros((8, 3), dtype=np.int64)
    per = np.zeros(8, dtype=np.int64)
    for i, key in enumerate(WHOLE_CARDS):
        card = deck[key]
        c[i] = card.copies if copies is None or key not in copies else copies[key]
        per[i] = card.per_card
        for j, v in enumerate(card.points[:3]):
            pts[i, j] = v
    return DeckArrays(c, pts, per)


def check_deal(rules, deck: DeckArrays, players: int) -> None:
    if not 2 <= players <= 4:
        raise UserError(f"--players must be 2, 3 or 4 (got {players})")
    need = sum(DEALS[rules.deal][:players])
    if deck.size <= need:
        raise UserError(f"the deck holds {deck.size} cards, too few to deal {need}")
