"""The public history of a Trash Pandas game in a position file: reading it, replaying it, and
the cards it proves an opponent holds.

What belongs here: the event format (:data:`EVENTS`), its checks, and the replay that counts
every public pile from the deal on (:func:`replay`). Plain Python (a bad history is refused
before NumPy loads). analyzer/games/trash_pandas/position.py calls it for the optional
``[[history]]`` tables of a position; the rules page (section 8) documents the format.

Format: a flat list of public events from the start of the game, in the order they happened,
each a small table with ``seat`` (who did it, seats from 1) and ``event``::

    [[history]]
    seat = 2
    event = "draw"        # cards drawn face down from the pile (the deal, trash, consolation…)
    count = 4
    [[history]]
    seat = 3
    event = "reveal"      # the Bandit Mask's card, shown, into the seat's hand
    card = "yumyum"
    [[history]]
    seat = 3
    event = "steal"       # seat 3 takes a card from seat 1: from the hand (type unseen),
    from = 1              # a face-down card (unseen) or a face-up card (named)
    source = "hand"

Events: ``draw`` (count), ``reveal`` (card), ``stash`` (count: face down from hand),
``stash_up`` (card: a Bandit Mask reaction, face up), ``play`` (card: discarded for its
action, a block included), ``fetch`` (card: taken from the discard pile with Feesh), ``steal``
(from, source = hand | face_down | face_up, card only with face_up).

The replay. Starting from the full pile and empty hands, every event moves counts: hand sizes,
face-down counts, face-up cards by type, the discard pile by type, the cards left. After the
last event they must equal the position's (else the history and the position disagree: one
line, exit 2). Along the way each seat keeps a *lower bound* ``known[t]`` of the type-t cards
it surely holds in hand: +1 when a named card enters its hand (``reveal``, ``fetch``, a
face-up ``steal``); −1 (not below 0) for type t when a card of type t leaves it (``play``,
``stash_up``); and −1 for every type that unnamed card may have been (not below 0) when an
unnamed card leaves it: a ``steal`` from its hand may take any type; a face-down ``stash``
any type the player may stash face down (every type when checking the history; under a
belief with the bots' stash rule, only the types the seat's bot stashes — so a revealed Doggo
stays known through a face-down stash). Under those assumptions the bound is always true,
whatever the unseen cards were.
"""
from __future__ import annotations

from dataclasses import dataclass

from analyzer.errors import UserError
from analyzer.games.trash_pandas.score import CARD_NAMES, WHOLE_CARDS

EVENTS = {"draw": {"count"}, "reveal": {"card"}, "stash": {"count"}, "stash_up": {"card"},
          "play": {"card"}, "fetch": {"card"}, "steal": {"from", "source", "card"}}
SOURCES = ("hand", "face_down", "face_up")


@dataclass
class SeatCounts:
    hand: int = 0
    down: int = 0
    up: list | None = None
    known: list | None = None

    def __post_init__(self):
        self.up = [0] * 8
        self.known = [0] * 8


@dataclass
class Replayed:
    """What the history leaves: per seat (0-based) the counts and the known-in-hand bounds."""

    seats: list
    discard: list
    pile: int
    events: int


def parse_event(i: int, ev, players: int, card_index) -> dict:
    """One event table, checked; ``card_index(name, part)`` turns a card name into its index."""
    part = f"history[{i + 1}]"
    if not isinstance(ev, dict):
        raise UserError(f"{part} must be a table (seat = …, event = …)")
    kind = ev.get("event")
    if kind not in EVENTS:
        raise UserError(f"{part}: 'event' must be one of {', '.join(EVENTS)}, got {kind!r}")
    extra = set(ev) - {"seat", "event"} - EVENTS[kind]
    if extra:
        raise UserError(f"{part}: unknown key(s) {', '.join(sorted(extra))} for '{kind}'")
    out = {"event": kind, "seat": _seat(ev.get("seat"), part, "seat", players)}
    if "count" in EVENTS[kind]:
        c = ev.get("count", 1)
        if isinstance(c, bool) or not isinstance(c, int) or c < 1:
            raise UserError(f"{part}: 'count' must be a positive integer, got {c!r}")
        out["count"] = c
    if kind == "steal":
        out["from"] = _seat(ev.get("from"), part, "from", players)
        if out["from"] == out["seat"]:
            raise UserError(f"{part}: a seat cannot steal from itself")
        out["source"] = ev.get("source")
        if out["source"] not in SOURCES:
            raise UserError(f"{part}: 'source' must be one of {', '.join(SOURCES)}")
        if (out["source"] == "face_up") != ("card" in ev):
            raise UserError(f"{part}: a steal names its card exactly when source = face_up")
    if "card" in ev or kind in ("reveal", "stash_up", "play", "fetch"):
        if "card" not in ev:
            raise UserError(f"{part}: '{kind}' needs 'card'")
        out["card"] = card_index(str(ev["card"]), part)
    return out


def _seat(v, part: str, key: str, players: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= players:
        raise UserError(f"{part}: '{key}' must be a seat 1..{players}, got {v!r}")
    return v - 1


def replay(events: list[dict], players: int, copies, reveal_to_hand: bool,
           stash_ok=None) -> Replayed:
    """Replay checked events (module doc); a count that would go below 0 is refused.
    ``stash_ok[q][t]`` true when seat q's player may stash type t face down (a belief's stash
    rule): a face-down stash then lowers only those types' bounds; None: any type."""
    seats = [SeatCounts() for _ in range(players)]
    discard = [0] * 8
    pile = sum(copies)
    for i, ev in enumerate(events):
        part = f"history[{i + 1}] ({ev['event']}, seat {ev['seat'] + 1})"
        s = seats[ev["seat"]]
        kind = ev["event"]
        if kind in ("draw", "reveal"):
            n = ev.get("count", 1)
            if n > pile:
                raise UserError(f"{part}: the pile holds only {pile} cards")
            pile -= n
            if kind == "draw":
                s.hand += n
            elif reveal_to_hand:
                s.hand += 1
                s.known[ev["card"]] += 1
            else:
                discard[ev["card"]] += 1
        elif kind in ("stash", "stash_up", "play"):
            n = ev.get("count", 1)
            if n > s.hand:
                raise UserError(f"{part}: the seat holds only {s.hand} cards")
            s.hand -= n
            if kind == "stash":
                s.down += n
                _lose_unnamed(s, n, None if stash_ok is None else stash_ok[ev["seat"]])
            else:
                t = ev["card"]
                s.known[t] = max(s.known[t] - 1, 0)
                if kind == "stash_up":
                    s.up[t] += 1
                else:
                    discard[t] += 1
        elif kind == "fetch":
            t = ev["card"]
            if discard[t] < 1:
                raise UserError(f"{part}: no such card in the discard pile")
            discard[t] -= 1
            s.hand += 1
            s.known[t] += 1
        else:  # steal
            v = seats[ev["from"]]
            src = ev["source"]
            have = {"hand": v.hand, "face_down": v.down,
                    "face_up": v.up[ev["card"]] if src == "face_up" else 0}[src]
            if have < 1:
                raise UserError(f"{part}: seat {ev['from'] + 1} has no such card to lose")
            if src == "hand":
                v.hand -= 1
                _lose_unnamed(v, 1)
            elif src == "face_down":
                v.down -= 1
            else:
                v.up[ev["card"]] -= 1
                s.known[ev["card"]] += 1
            s.hand += 1
    return Replayed(seats, discard, pile, len(events))


def _lose_unnamed(s: SeatCounts, n: int, types=None) -> None:
    """``n`` cards of unseen types left the hand: any of the known ones (of ``types``, when
    only those could have left) may be among them."""
    for t in range(8):
        if types is None or types[t]:
            s.known[t] = max(s.known[t] - n, 0)


def check_against(r: Replayed, me: int, cards_left: int, hand_sizes, down_counts, up_rows,
                  discard, pool) -> None:
    """The replayed counts must be the position's, and the cards the history proves in the
    opponents' hands must be among the unseen ones (``pool`` by type); the first difference
    is the error."""
    def differ(what, got, want):
        raise UserError(f"history: {what} is {got} after the history, the position says {want}")

    if r.pile != cards_left:
        differ("the cards left", r.pile, cards_left)
    if r.discard != list(discard):
        differ("the discard pile", r.discard, list(discard))
    for q, s in enumerate(r.seats):
        if s.hand != hand_sizes[q]:
            differ(f"seat {q + 1}'s hand size", s.hand, hand_sizes[q])
        if s.down != down_counts[q]:
            differ(f"seat {q + 1}'s face-down count", s.down, down_counts[q])
        if s.up != list(up_rows[q]):
            differ(f"seat {q + 1}'s face-up cards", s.up, list(up_rows[q]))
        if q != me and sum(s.known) > s.hand:
            differ(f"seat {q + 1}'s cards known in hand", sum(s.known), s.hand)
    for t in range(8):
        proven = sum(s.known[t] for q, s in enumerate(r.seats) if q != me)
        if proven > pool[t]:
            raise UserError(f"history: {proven} {CARD_NAMES[WHOLE_CARDS[t]]} proven in "
                            f"opponents' hands, {pool[t]} unseen")
