"""Trash Pandas decision positions (``decide POSITION.toml``): reading, checking, kernel form.

Format (every table optional unless said; card keys as in the deck file: blammo, doggo, feesh,
kitteh, pie, nanners, shiny, yumyum; seats numbered from 1, seat 1 starts)::

    players = 3            # required, 2-4
    me = 1                 # required: my seat; it is my turn
    cards_left = 9         # required: cards in the draw pile
    held = ["trash", "paw", "mask"]   # tokens taken this turn (before the decision)
    bonus = false          # true: this is my bonus turn
    rolled = "paw"         # optional: a face just rolled; then take/Blammo!/Nanners/Feesh fetch

    [hand]                 # my hand
    blammo = 2
    [gained]               # of my hand, cards gained this turn (not playable this turn)
    [discard]              # the public discard pile
    pie = 1
    [seat.1]               # me: my whole stash, and which of it is face up
    stash = { feesh = 2 }
    face_up = {}
    [seat.2]               # an opponent: hand size, face-up stash, face-down stash size
    hand = 4
    face_up = { feesh = 1 }
    face_down = 3

Optional: ``[[history]]`` tables, the public events of the game from the deal on (format:
analyzer/games/trash_pandas/history.py). They are replayed and must lead to this position's
counts; `decide` then deals the cards they prove an opponent holds in hand to that hand.

A position that cannot happen (more copies than the deck holds, a face-up card not in the stash,
a repeated held token, cards that do not add up, a history that does not lead to it) raises a
one-line UserError naming the part.
Every check is plain Python (:func:`check_position`), so a bad position is refused before NumPy
is loaded; :func:`build_position` then turns a checked position into the kernel's arrays.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from analyzer.errors import UserError
from analyzer.games.trash_pandas.score import CARD_NAMES, WHOLE_CARDS as CARDS
from analyzer.seats import seat_number
from analyzer.typecheck import need_bool, need_table, need_text, seat_key

if TYPE_CHECKING:
    import numpy as np

    from analyzer.games.trash_pandas.score import DeckArrays

TOP_KEYS = {"players", "me", "cards_left", "held", "bonus", "rolled", "hand", "gained",
            "discard", "seat", "history"}


@dataclass
class Position:
    players: int
    me: int  # 0-based
    held: int
    bonus: bool
    rolled: int  # -1 none
    g0: np.ndarray
    pool: np.ndarray
    opp_hand: np.ndarray  # unseen cards in each opponent's hand
    opp_down: np.ndarray
    events: list | None = None  # the public history's checked events (history.py), if given

    def usable(self, t: int) -> int:
        from kernels.trash_pandas.layout import GAIN, HAND

        return int(self.g0[HAND + self.me, t] - self.g0[GAIN + self.me, t])

    @property
    def cards_left(self) -> int:
        from kernels.trash_pandas.layout import SC

        return int(self.g0[SC, 0])


@dataclass
class CheckedPosition:
    """A position that passed every check, in plain Python: card counts are lists of 8 in the
    deck's card order, seats 0-based, ``stash[q]`` what seat q's stash row holds (my whole
    stash; an opponent's face-up cards)."""

    players: int
    me: int
    cards_left: int
    held: int
    bonus: bool
    rolled: int  # -1 none
    hand: list[int]
    gained: list[int]
    discard: list[int]
    stash: list[list[int]]
    up: list[list[int]]
    opp_hand: list[int]  # per seat (4), 0 for me
    opp_down: list[int]
    pool: list[int]  # unseen cards by type
    events: list | None = None  # the checked [[history]] events (history.py), if any


def _card_index(name: str, part: str) -> int:
    """A card name as the deck file spells it (case, '-', '_' and '!' ignored) → its index."""
    k = name.strip().lower().replace("-", "").replace("_", "").replace("!", "")
    k = {"mmmpie": "pie"}.get(k, k)
    if k not in CARDS:
        raise UserError(f"{part}: unknown card '{name}' (cards: {', '.join(CARDS)})")
    return CARDS.index(k)


def _counts(table, part: str) -> list[int]:
    out = [0] * 8
    if table is None:
        return out
    if not isinstance(table, dict):
        raise UserError(f"{part} must be a table of card = count")
    for key, value in table.items():
        t = _card_index(key, part)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise UserError(f"{part}.{key} must be a non-negative integer, got {value!r}")
        out[t] += value
    return out


def _plus(a: list[int], b: list[int]) -> list[int]:
    return [x + y for x, y in zip(a, b)]


def _int(data, key, part, lo, hi=None) -> int:
    v = data.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise UserError(f"{part}: '{key}' must be an integer")
    if v < lo or (hi is not None and v > hi):
        raise UserError(f"{part}: '{key}' = {v} is out of range")
    return v


def check_position(data: dict, copies: Sequence[int], bonus_cap: int,
                   reveal_to_hand: bool = True) -> CheckedPosition:
    """Check a position (module doc) against the deck's ``copies`` of each card type; with a
    ``[[history]]`` list, replay it (history.py; ``reveal_to_hand``: the Bandit Mask's card goes
    to the hand, rules key mask_card) and check it against the position."""
    from analyzer.games.trash_pandas.rules import TOKEN_INDEX, parse_held, popcount

    unknown = set(data) - TOP_KEYS
    if unknown:
        raise UserError(f"position: unknown key(s) {', '.join(sorted(unknown))}")
    for key in ("players", "me", "cards_left"):
        if key not in data:
            raise UserError(f"position: '{key}' is required")
    players = _int(data, "players", "position", 2, 4)
    me = seat_number(data["me"], "position: 'me'", players)
    left = _int(data, "cards_left", "position", 0)
    held_list = data.get("held", [])
    if not isinstance(held_list, list) or not all(isinstance(h, str) for h in held_list):
        raise UserError("position: 'held' must be a list of token names")
    try:
        held = parse_held(",".join(held_list) if held_list else "none")
    except UserError as exc:
        raise UserError(f"held: {exc}") from None
    bonus = need_bool(data.get("bonus", False), "bonus")
    k = popcount(held)
    if not bonus and k >= 6:
        raise UserError("held: all six tokens resolve at once; ask about the bonus turn instead")
    if bonus and k >= bonus_cap:
        raise UserError(f"held: a bonus turn stops at {bonus_cap} tokens, {k} are held")
    rolled = -1
    if data.get("rolled", "") != "":
        name = need_text(data["rolled"], "rolled").strip().lower()
        if name not in TOKEN_INDEX:
            raise UserError(f"rolled: unknown token '{data['rolled']}'")
        rolled = TOKEN_INDEX[name]
    hand = _counts(data.get("hand"), "hand")
    gained = _counts(data.get("gained"), "gained")
    if any(g > h for g, h in zip(gained, hand)):
        raise UserError("gained: more cards of a type than my hand holds")
    discard = _counts(data.get("discard"), "discard")
    seats = data.get("seat", {})
    if not isinstance(seats, dict):
        raise UserError("seat must be tables [seat.1], [seat.2], ...")
    stash_rows, up_rows = [], []
    opp_hand = [0] * 4
    opp_down = [0] * 4
    known = _plus(hand, discard)
    for key in seats:
        number = seat_key(key)
        if number is None or not 1 <= number <= players or str(number) != key:
            raise UserError(f"seat.{key}: seats are numbered 1..{players}")
        need_table(seats[key], f"seat.{key}")
    for q in range(players):
        part = f"seat.{q + 1}"
        s = seats.get(str(q + 1), {})
        up = _counts(s.get("face_up"), part + ".face_up")
        if q == me:
            extra = set(s) - {"stash", "face_up"}
            stash = _counts(s.get("stash"), part + ".stash")
            if any(u > c for u, c in zip(up, stash)):
                raise UserError(f"{part}: a face-up card that is not in my stash")
        else:
            extra = set(s) - {"hand", "face_up", "face_down"}
            opp_hand[q] = _int(s, "hand", part, 0) if "hand" in s else 0
            opp_down[q] = _int(s, "face_down", part, 0) if "face_down" in s else 0
            stash = up
        if extra:
            raise UserError(f"{part}: unknown key(s) {', '.join(sorted(extra))}")
        known = _plus(known, stash)
        stash_rows.append(stash)
        up_rows.append(up)
    over = [t for t in range(8) if known[t] > copies[t]]
    if over:
        t = over[0]
        raise UserError(f"{CARD_NAMES[CARDS[t]]}: {known[t]} seen in the position but the deck "
                        f"holds {copies[t]}")
    pool = [int(c) - n for c, n in zip(copies, known)]
    unseen = sum(pool)
    needed = left + sum(opp_hand) + sum(opp_down)
    if unseen != needed:
        raise UserError(f"cards do not add up: {unseen} unseen cards, but cards_left {left} + "
                        f"opponents' hands and face-down stashes {needed - left} = {needed}")
    out = CheckedPosition(players, me, left, held, bonus, rolled, hand, gained, discard,
                          stash_rows, up_rows, opp_hand, opp_down, pool)
    if "history" in data:
        _apply_history(out, data["history"], copies, reveal_to_hand)
    return out


def _apply_history(c: CheckedPosition, events, copies, reveal_to_hand: bool) -> None:
    """Check the history and replay it against the checked position (history.py)."""
    from analyzer.games.trash_pandas.history import check_against, parse_event, replay

    if not isinstance(events, list):
        raise UserError("history must be a list of tables: [[history]] seat = …, event = …")
    parsed = [parse_event(i, ev, c.players, _card_index) for i, ev in enumerate(events)]
    r = replay(parsed, c.players, copies, reveal_to_hand)
    hands = [sum(c.hand) if q == c.me else c.opp_hand[q] for q in range(c.players)]
    downs = [sum(c.stash[q]) - sum(c.up[q]) if q == c.me else c.opp_down[q]
             for q in range(c.players)]
    check_against(r, c.me, c.cards_left, hands, downs, c.up, c.discard, c.pool)
    c.events = parsed


def build_position(c: CheckedPosition) -> Position:
    """A checked position in kernel form (the whole-game state array and the unseen pool)."""
    import numpy as np

    from kernels.trash_pandas.layout import DECK, DISC, GAIN, HAND, SC, STASH, UP, new_state

    g = new_state()
    for q in range(c.players):
        g[STASH + q] = c.stash[q]
        g[UP + q] = c.up[q]
    g[HAND + c.me] = c.hand
    g[GAIN + c.me] = c.gained
    g[DISC] = c.discard
    g[SC, 0] = c.cards_left
    g[SC, 1] = 1 if c.cards_left == 0 else 0
    g[SC, 2] = c.players
    g[DECK] = 0
    return Position(c.players, c.me, c.held, c.bonus, c.rolled, g,
                    np.array(c.pool, dtype=np.int64), np.array(c.opp_hand, dtype=np.int64),
                    np.array(c.opp_down, dtype=np.int64), c.events)


def parse_position(data: dict, deck: DeckArrays, bonus_cap: int,
                   reveal_to_hand: bool = True) -> Position:
    """Check a position (module doc) against the deck and build its kernel form."""
    return build_position(check_position(data, deck.copies.tolist(), bonus_cap,
                                         reveal_to_hand))
