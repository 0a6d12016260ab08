"""Trash Pandas at the table: the entry language, the state my seat sees, and the position in
the ``trash-pandas decide`` format (analyzer/games/trash_pandas/position.py), public history
included (history.py).

Entries (``@N`` first: seat N did it; else the active seat). Cards as the deck file names them
(blammo, doggo, feesh, kitteh, pie, nanners, shiny, yumyum); tokens trash, trees, trash-tree,
paw, mask, recycle. I name every card that enters or leaves my hand; an opponent's unseen cards
are only counted::

    deal feesh blammo doggo pie   my dealt hand (the first entry; every seat is dealt by the
                                  rules' deal, 3456: seat 1 three cards, seat 2 four, ...)
    roll paw                      the active seat rolled this face
    take                          it takes the face's token (a new face)
    bust                          a repeat it cannot save: the turn's tokens go back
    stop                          it stops rolling (the resolve step follows)
    play CARD                     a card discarded for its action: Blammo! or Nanners on the
                                  face just rolled (roll again / stop), Yum Yum by another seat
                                  after a stop (one more roll), a block, Feesh, Shiny, MMM Pie!
    draw 2 | draw feesh blammo    cards from the pile into the hand (an opponent: how many;
                                  me: which)
    reveal CARD                   the Bandit Mask's card, shown, into the active seat's hand
    stash 2 | stash feesh pie     cards stashed face down (an opponent: how many; me: which)
    stashup CARD                  a card stashed face up (a Bandit Mask reaction)
    fetch CARD                    a card taken from the discard pile with Feesh
    steal 3 hand|down|up [CARD]   a card stolen from seat 3's hand, face-down or face-up stash
                                  (the card named when I see it: a face-up card, or me as
                                  thief or victim)
    end                           the turn ends: the next seat's turn, or the bonus turn after
                                  all six tokens; with the pile empty (and no bonus turn to
                                  come) the game is over

The state is what my seat sees: my hand and whole stash by type, the cards I gained this turn
(locked: not playable for their action this turn, rules key gain_lock = active; a card Feesh
fetched is not locked), and the public history, from which every count (hand sizes, face-down
counts, face-up cards, discard pile, cards left) is replayed. After every entry the position is
checked by the same checks ``decide`` runs (check_position), so the table never holds a
position ``decide`` would refuse.

A position file describes my turn (``decide`` answers for the seat ``me`` about to choose and
has no active seat of its own), so the table saves only while I roll: at the start of my turn,
between my rolls, or on a face shown to me. Off my turn, after my rolling ended (the resolve
step), with a Yum Yum forcing my next roll, before the deal or after the game a save writes the
game's entries only (:meth:`TrashPandasTable.save_refusal` says why): ``decide`` would read a
position written then as another one (the start of my next turn, or one where I may stop), so
the file reopens with ``--load`` and ``decide`` refuses it in one line.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.errors import UserError
from analyzer.games.trash_pandas.history import parse_event, replay
from analyzer.games.trash_pandas.position import _card_index, check_position
from analyzer.games.trash_pandas.rules import (ALIASES, TOKEN_INDEX, TOKENS, TrashPandasRules,
                                               held_names, popcount)
from analyzer.games.trash_pandas.score import CARD_NAMES, DEALS, WHOLE_CARDS, whole_deck
from analyzer.play.table import Table
from analyzer.play.toml_text import toml_text

SOURCES = {"hand": "hand", "down": "face_down", "up": "face_up"}


@dataclass
class TPState:
    """The table as my seat sees it (seats 0-based); ``phase``: ``deal`` (my hand not entered
    yet), ``roll`` (the active seat may roll, or stop), ``face`` (a face is shown: take, bust,
    Blammo! or Nanners), ``resolve`` (rolling has ended: tokens resolve, then ``end``),
    ``done`` (a turn ended with the pile empty, its bonus turn included: the game is over)."""

    phase: str = "deal"
    active: int = 0
    held: int = 0
    rolled: int = -1
    bonus: bool = False
    bonus_earned: bool = False
    stopped: bool = False  # the resolve step follows a stop (not a bust or the cap)
    must_roll: bool = False  # a Yum Yum forced one more roll
    hand: list = field(default_factory=lambda: [0] * 8)  # mine, by type
    gained: list = field(default_factory=lambda: [0] * 8)
    stash: list = field(default_factory=lambda: [0] * 8)  # my whole stash
    history: list = field(default_factory=list)  # [[history]] tables, seats from 1
    turns: int = 0


class TrashPandasTable(Table):
    GAME = "trash-pandas"
    BARE = ("take", "bust", "stop", "end")
    WORDS = {
        "deal": "deal CARD…: my dealt hand (first entry)",
        "roll": "roll FACE: the face the active seat rolled",
        "take": "take: take the face's token",
        "bust": "bust: a repeat not saved; the turn's tokens go back",
        "stop": "stop: stop rolling; tokens resolve",
        "play": "play CARD: a card discarded for its action",
        "draw": "draw N | draw CARD…: cards from the pile",
        "reveal": "reveal CARD: the Bandit Mask's card",
        "stash": "stash N | stash CARD…: stashed face down",
        "stashup": "stashup CARD: stashed face up (mask reaction)",
        "fetch": "fetch CARD: taken from the discard with Feesh",
        "steal": "steal SEAT hand|down|up [CARD]: a steal",
        "end": "end: the turn ends",
    }
    VALUES = WHOLE_CARDS + TOKENS + tuple(SOURCES)
    ACTIVE_ONLY = ("roll", "take", "bust", "stop", "end")

    def __init__(self, players: int, me: int, rules: TrashPandasRules | None = None):
        if not 2 <= players <= 4:
            raise UserError(f"Trash Pandas is for 2-4 players, not {players}")
        self.rules = rules or TrashPandasRules()
        deck = whole_deck(self.rules.deck)
        self.copies = [deck[k].copies for k in WHOLE_CARDS]
        self.deal_sizes = DEALS[self.rules.deal][:players]
        super().__init__(players, me)

    def start(self) -> TPState:
        return TPState()

    # ---- the public counts
    def counts(self, state: TPState | None = None):
        """The replayed public history (history.replay): hand sizes, face-down counts,
        face-up cards, the discard pile and the cards left."""
        s = state or self.state
        events = [parse_event(i, ev, self.players, _card_index)
                  for i, ev in enumerate(s.history)]
        return replay(events, self.players, self.copies, self.rules.mask_card == "hand")

    # ---- entries
    def apply(self, s: TPState, words: list[str], seat: int | None) -> str:
        verb = words[0]
        if s.phase == "deal" and verb != "deal":
            raise UserError(f"first enter my dealt hand: deal CARD… "
                            f"({self.deal_sizes[self.me]} cards)")
        if s.phase == "done":
            raise UserError("the game is over (undo to change an entry)")
        said = self.dispatch(s, words, seat, seat is not None)
        self.check(s)
        return said

    def check(self, s: TPState) -> None:
        """The position must pass decide's own checks (a card more often than the deck holds
        it, a count that does not add up, a history that does not lead here)."""
        try:
            check_position(self.position(s), self.copies, self.rules.bonus_cap,
                           self.rules.mask_card == "hand")
        except UserError as exc:
            raise UserError(f"impossible: {exc}") from None

    def _event(self, s: TPState, who: int, kind: str, **kw) -> None:
        s.history.append({"seat": who + 1, "event": kind, **kw})

    def _cards(self, args: list[str], what: str) -> list[int]:
        if not args:
            raise UserError(f"{what}: name the cards")
        return [_card_index(a, what) for a in args]

    def _count_or_cards(self, s, who, args, verb):
        """An opponent's count (default 1), or my named cards."""
        if who == self.me:
            return self._cards(args, verb)
        if len(args) > 1 or args and not args[0].isdigit():
            raise UserError(f"{verb}: seat {who + 1}'s cards are unseen: give a count, "
                            f"e.g. {verb} 2")
        n = int(args[0]) if args else 1
        if n < 1:
            raise UserError(f"{verb}: the count must be at least 1")
        return n

    def _take_from_hand(self, s: TPState, t: int, action: bool, verb: str) -> None:
        """One card of type t leaves my hand; ``action``: played for its action, so a card
        gained this turn (locked) cannot be used."""
        if s.hand[t] < 1:
            raise UserError(f"{verb}: I hold no {CARD_NAMES[WHOLE_CARDS[t]]}")
        if action and s.hand[t] - s.gained[t] < 1:
            raise UserError(f"{verb}: my {CARD_NAMES[WHOLE_CARDS[t]]} was gained this turn: "
                            f"locked until the turn ends")
        s.hand[t] -= 1
        s.gained[t] = min(s.gained[t], s.hand[t])

    def _into_my_hand(self, s: TPState, t: int, locked: bool = True) -> None:
        s.hand[t] += 1
        if locked and s.active == self.me and s.phase != "deal":
            s.gained[t] += 1

    def _opp_hand(self, s: TPState, who: int, n: int, verb: str) -> None:
        have = self.counts(s).seats[who].hand
        if have < n:
            raise UserError(f"{verb}: seat {who + 1} holds only {have} card(s)")

    def _deal(self, s, who, args, named):
        if s.phase != "deal":
            raise UserError("deal: the cards are already dealt")
        cards = self._cards(args, "deal")
        if len(cards) != self.deal_sizes[self.me]:
            raise UserError(f"deal: seat {self.me + 1} is dealt {self.deal_sizes[self.me]} "
                            f"cards, {len(cards)} named")
        for q in range(self.players):
            self._event(s, q, "draw", count=self.deal_sizes[q])
        for t in cards:
            s.hand[t] += 1
        s.phase = "roll"
        return f"dealt; my hand: {self.card_list(s.hand)}; seat 1 starts"

    def _roll(self, s, who, args, named):
        if s.phase == "face":
            raise UserError("roll: a face is already shown: take, bust, or play blammo/nanners")
        if s.phase != "roll":
            raise UserError("roll: rolling has ended this turn (end starts the next turn)")
        if len(args) != 1:
            raise UserError(f"roll: name the face ({', '.join(TOKENS)})")
        name = ALIASES.get(args[0], args[0])
        if name not in TOKEN_INDEX:
            raise UserError(f"roll: unknown face '{args[0]}' ({', '.join(TOKENS)})")
        s.rolled = TOKEN_INDEX[name]
        s.phase = "face"
        s.must_roll = False
        repeat = " (a repeat)" if s.held >> s.rolled & 1 else ""
        return f"seat {who + 1} rolled {name}{repeat}"

    def _face(self, s, verb):
        if s.phase != "face":
            raise UserError(f"{verb}: no face is shown (roll FACE first)")
        return s.rolled

    def cap(self, s: TPState) -> int:
        return self.rules.bonus_cap if s.bonus else 6

    def _take(self, s, who, args, named):
        f = self._face(s, "take")
        if s.held >> f & 1:
            raise UserError(f"take: {TOKENS[f]} is already held: a repeat busts "
                            f"(bust, or play blammo / nanners)")
        s.held |= 1 << f
        s.rolled = -1
        s.phase = "roll"
        if popcount(s.held) >= self.cap(s):
            s.phase = "resolve"
            s.stopped = False
            if not s.bonus and self.rules.bonus_turn:
                s.bonus_earned = True
            return f"seat {who + 1} took {TOKENS[f]}: all {self.cap(s)} held, rolling ends"
        return f"seat {who + 1} took {TOKENS[f]} ({popcount(s.held)} held)"

    def _bust(self, s, who, args, named):
        f = self._face(s, "bust")
        if not s.held >> f & 1:
            raise UserError(f"bust: {TOKENS[f]} is a new face (take it)")
        s.held, s.rolled, s.phase, s.stopped = 0, -1, "resolve", False
        return f"seat {who + 1} busts: the tokens go back (then draw the consolation card)"

    def _stop(self, s, who, args, named):
        if s.phase != "roll":
            raise UserError("stop: only between rolls" if s.phase == "face" else
                            "stop: rolling has already ended")
        if s.must_roll:
            raise UserError("stop: a Yum Yum was played: one more roll first")
        if not s.held:
            raise UserError("stop: no token held yet: roll first")
        s.phase, s.stopped = "resolve", True
        return f"seat {who + 1} stops with {', '.join(held_names(s.held))}"

    def _play(self, s, who, args, named):
        if len(args) != 1:
            raise UserError("play: name one card")
        t = _card_index(args[0], "play")
        card = WHOLE_CARDS[t]
        if card in ("blammo", "nanners") and who == s.active and s.phase == "face":
            effect = "roll again" if card == "blammo" else "rolling ends as after a stop"
        elif card == "yumyum" and who != s.active and s.phase == "resolve" and s.stopped:
            effect = "one more roll"
        else:
            effect = ""
            self._check_timing(s, who, card)
        if who == self.me:
            self._take_from_hand(s, t, True, "play")
        else:
            self._opp_hand(s, who, 1, "play")
        self._event(s, who, "play", card=card)
        if effect and card == "blammo":
            s.rolled, s.phase = -1, "roll"
        elif effect and card == "nanners":
            s.rolled, s.phase, s.stopped = -1, "resolve", True
        elif effect:
            s.phase, s.stopped, s.must_roll = "roll", False, True
        return f"seat {who + 1} played {CARD_NAMES[card]}" + (f": {effect}" if effect else "")

    def _check_timing(self, s: TPState, who: int, card: str) -> None:
        """A card played outside the moment its action has: refused (blocks are free)."""
        if card in ("blammo", "nanners"):
            raise UserError(f"play {card}: only the active seat, on the face just rolled")
        if card == "yumyum":
            raise UserError("play yumyum: only another seat, right after the active seat "
                            "stops")
        if card in ("pie", "feesh", "shiny") and who != s.active:
            raise UserError(f"play {card}: only on the seat's own turn (seat {s.active + 1} "
                            f"is active)")

    def _draw(self, s, who, args, named):
        got = self._count_or_cards(s, who, args, "draw")
        n = got if isinstance(got, int) else len(got)
        left = self.counts(s).pile
        if n > left:
            raise UserError(f"draw: the pile holds only {left} card(s)")
        self._event(s, who, "draw", count=n)
        if isinstance(got, list):
            for t in got:
                self._into_my_hand(s, t)
            return f"I drew {self.card_list(self._count_list(got))}"
        return f"seat {who + 1} drew {n}"

    def _reveal(self, s, who, args, named):
        if len(args) != 1:
            raise UserError("reveal: name one card")
        t = _card_index(args[0], "reveal")
        if self.counts(s).pile < 1:
            raise UserError("reveal: the pile is empty")
        self._event(s, who, "reveal", card=WHOLE_CARDS[t])
        if who == self.me and self.rules.mask_card == "hand":
            self._into_my_hand(s, t)
        return f"seat {who + 1} revealed {CARD_NAMES[WHOLE_CARDS[t]]}"

    def _stash(self, s, who, args, named):
        got = self._count_or_cards(s, who, args, "stash")
        if isinstance(got, int):
            self._opp_hand(s, who, got, "stash")
            self._event(s, who, "stash", count=got)
            return f"seat {who + 1} stashed {got} face down"
        for t in got:
            self._take_from_hand(s, t, False, "stash")
            s.stash[t] += 1
        self._event(s, who, "stash", count=len(got))
        return f"I stashed {self.card_list(self._count_list(got))} face down"

    def _stashup(self, s, who, args, named):
        if len(args) != 1:
            raise UserError("stashup: name one card")
        t = _card_index(args[0], "stashup")
        if who == self.me:
            self._take_from_hand(s, t, False, "stashup")
            s.stash[t] += 1
        else:
            self._opp_hand(s, who, 1, "stashup")
        self._event(s, who, "stash_up", card=WHOLE_CARDS[t])
        return f"seat {who + 1} stashed {CARD_NAMES[WHOLE_CARDS[t]]} face up"

    def _fetch(self, s, who, args, named):
        if len(args) != 1:
            raise UserError("fetch: name one card")
        t = _card_index(args[0], "fetch")
        if self.counts(s).discard[t] < 1:
            raise UserError(f"fetch: no {CARD_NAMES[WHOLE_CARDS[t]]} in the discard pile")
        self._event(s, who, "fetch", card=WHOLE_CARDS[t])
        if who == self.me:
            self._into_my_hand(s, t, locked=False)
        return f"seat {who + 1} fetched {CARD_NAMES[WHOLE_CARDS[t]]} from the discard pile"

    def _steal(self, s, who, args, named):
        if len(args) not in (2, 3) or not args[0].isdigit():
            raise UserError("steal: steal SEAT hand|down|up [CARD]")
        victim = int(args[0]) - 1
        if not 0 <= victim < self.players or victim == who:
            raise UserError(f"steal: the seat robbed must be another seat 1..{self.players}")
        if args[1] not in SOURCES:
            raise UserError("steal: from hand, down (face-down stash) or up (face-up stash)")
        src = SOURCES[args[1]]
        card = _card_index(args[2], "steal") if len(args) == 3 else None
        sees = src == "face_up" or self.me in (who, victim)
        if sees and card is None:
            raise UserError("steal: name the card taken (it is seen)")
        if not sees and card is not None:
            raise UserError("steal: neither seat is me: the card is unseen (give no card)")
        r = self.counts(s).seats[victim]
        have = {"hand": r.hand, "face_down": r.down,
                "face_up": r.up[card] if card is not None else 0}[src]
        if have < 1:
            raise UserError(f"steal: seat {victim + 1} has no such card")
        if victim == self.me:
            if src == "hand":
                self._take_from_hand(s, card, False, "steal")
            else:
                if s.stash[card] < 1:
                    raise UserError(f"steal: my stash holds no {CARD_NAMES[WHOLE_CARDS[card]]}")
                s.stash[card] -= 1
        if who == self.me:
            self._into_my_hand(s, card)
        ev = {"from": victim + 1, "source": src}
        if src == "face_up":
            ev["card"] = WHOLE_CARDS[card]
        self._event(s, who, "steal", **ev)
        what = CARD_NAMES[WHOLE_CARDS[card]] if card is not None else "a card"
        return f"seat {who + 1} stole {what} from seat {victim + 1}'s {args[1]}"

    def _end(self, s, who, args, named):
        if s.phase == "face":
            raise UserError("end: a face is shown: take, bust or play a card first")
        if s.phase == "roll" and s.held:
            raise UserError("end: the seat holds tokens: stop first")
        bonus = s.bonus_earned and not s.bonus
        over = self.counts(s).pile == 0 and not bonus  # the last card drawn: the game ends
        s.held, s.rolled, s.phase, s.stopped, s.must_roll = 0, -1, "roll", False, False
        s.gained = [0] * 8
        s.bonus_earned = False
        s.turns += 1
        if over:
            s.phase = "done"
            return "the pile is empty: the game is over (the stashes score)"
        if bonus:
            s.bonus = True
            return f"seat {who + 1}'s bonus turn"
        s.bonus = False
        s.active = (s.active + 1) % self.players
        return f"seat {s.active + 1}'s turn"

    # ---- output
    @staticmethod
    def _count_list(types: list[int]) -> list[int]:
        out = [0] * 8
        for t in types:
            out[t] += 1
        return out

    @staticmethod
    def card_list(counts) -> str:
        return ", ".join(f"{n} {CARD_NAMES[WHOLE_CARDS[t]]}" for t, n in enumerate(counts)
                         if n) or "nothing"

    def my_choice(self) -> bool:
        """Is it my choice now (a position decide answers with more than one choice)?"""
        s = self.state
        if s.active != self.me:
            return False
        if s.phase == "face":
            usable = [s.hand[t] - s.gained[t] for t in (0, 5)]  # blammo, nanners
            return any(u > 0 for u in usable)
        return (s.phase == "roll" and s.held != 0 and not s.must_roll
                and popcount(s.held) < self.cap(s))

    def position(self, state: TPState | None = None) -> dict:
        """The position in the ``trash-pandas decide`` format (position.py), history included."""
        s = state or self.state
        r = self.counts(s)
        mine = s.active == self.me
        choosing = mine and s.phase in ("roll", "face")  # tokens matter only while rolling
        out = {"players": self.players, "me": self.me + 1, "cards_left": r.pile,
               "held": held_names(s.held) if choosing else [], "bonus": s.bonus and choosing}
        if choosing and s.phase == "face":
            out["rolled"] = TOKENS[s.rolled]
        named = lambda c: {WHOLE_CARDS[t]: n for t, n in enumerate(c) if n}  # noqa: E731
        out["hand"] = named(s.hand)
        out["gained"] = named(s.gained) if mine else {}
        out["discard"] = named(r.discard)
        seats = {}
        for q in range(self.players):
            if q == self.me:
                seats[str(q + 1)] = {"stash": named(s.stash), "face_up": named(r.seats[q].up)}
            else:
                seats[str(q + 1)] = {"hand": r.seats[q].hand,
                                     "face_up": named(r.seats[q].up),
                                     "face_down": r.seats[q].down}
        out["seat"] = seats
        if s.history:
            out["history"] = [dict(ev) for ev in s.history]
        return out

    def save_refusal(self) -> str | None:
        """Why the position cannot be saved as one ``decide`` reads faithfully (module doc)."""
        s = self.state
        if s.phase == "deal":
            return "my dealt hand is not entered yet (deal CARD…)"
        if s.phase == "done":
            return "the game is over: no choice is left to decide"
        mine = f"a trash-pandas decide position is my own turn (seat {self.me + 1})"
        if s.active != self.me:
            return (f"seat {s.active + 1} is playing and {mine}, read as mine: save at my "
                    f"turn")
        if s.phase == "resolve":
            return f"my rolling is over (the resolve step) and {mine} while I roll: save " \
                   f"at my next turn"
        if s.must_roll:
            return "a Yum Yum forces my next roll, which a decide position cannot say (it " \
                   "would offer a stop): save after the roll"
        return None

    def position_toml(self) -> str:
        head = (f"A Trash Pandas position written by `pushluck play` after {len(self.entries)} "
                f"entries; `pushluck trash-pandas decide FILE` answers it.")
        return toml_text(self.position(), head) + self.entries_trailer()

    def describe(self) -> str:
        """The position panel: whose turn, the tokens, every seat's counts, my cards."""
        s = self.state
        if s.phase == "deal":
            return (f"{self.players} players, I am seat {self.me + 1}. Enter my dealt hand: "
                    f"deal CARD… ({self.deal_sizes[self.me]} cards)")
        r = self.counts(s)
        turn = "bonus turn" if s.bonus else "turn"
        face = f", rolled {TOKENS[s.rolled]}" if s.phase == "face" else ""
        head = (f"seat {s.active + 1}'s {turn} ({s.phase}): held "
                f"{', '.join(held_names(s.held)) or 'none'}{face}")
        if s.phase == "done":
            head = "the game is over: the pile is empty (the stashes score)"
        lines = [head,
                 f"pile {r.pile} · discard: {self.card_list(r.discard)}"]
        for q in range(self.players):
            up = self.card_list(r.seats[q].up)
            if q == self.me:
                lines.append(f"seat {q + 1} (me): hand {self.card_list(s.hand)}; stash "
                             f"{self.card_list(s.stash)} (face up: {up})")
            else:
                lines.append(f"seat {q + 1}: hand {r.seats[q].hand}, face down "
                             f"{r.seats[q].down}, face up: {up}")
        if any(s.gained):
            lines.append(f"gained this turn (locked): {self.card_list(s.gained)}")
        return "\n".join(lines)
