"""The game-free part of a table record (analyzer/play/): a list of entries and the state they
lead to.

An entry is one line of text (``roll paw``, ``@3 play yumyum``). :meth:`Table.enter` applies it
to a *copy* of the state, so an impossible entry (a :class:`UserError`, one line) leaves the
table as it was; :meth:`Table.undo` drops the last entry and replays the others from the start,
so the state after an undo is exactly the state those entries give. A game's table supplies
``start()``, ``apply(state, words, seat)`` and the words it knows (``WORDS``, for completion
and the help panel).

A leading ``@N`` names the seat that does the entry (seats from 1); without it, the entry is
the active seat's.
"""
from __future__ import annotations

import copy

from analyzer.errors import UserError


class Table:
    """Entries and state; subclasses define the game (see the module doc)."""

    WORDS: dict[str, str] = {}  # entry word → what it does (one line)
    BARE: tuple[str, ...] = ()  # entry words that take no further word
    VALUES: tuple[str, ...] = ()  # further words worth completing (cards, tokens, sources)
    ACTIVE_ONLY: tuple[str, ...] = ()  # entry words only the active seat may make

    def __init__(self, players: int, me: int):
        self.players = players
        self.me = me  # 0-based
        self.entries: list[str] = []
        self.state = self.start()

    # ---- what a game supplies
    def start(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def apply(self, state, words: list[str], seat: int | None) -> str:  # pragma: no cover
        raise NotImplementedError

    # ---- entries
    def dispatch(self, state, words: list[str], seat: int | None, *extra) -> str:
        """Hand an entry to the game's ``_<word>(state, who, args, *extra)``: ``who`` is the
        ``@N`` seat, else the active seat (``state.active``); a word of ``ACTIVE_ONLY`` made
        by another seat is refused."""
        verb, args = words[0], words[1:]
        who = state.active if seat is None else seat
        if verb in self.ACTIVE_ONLY and who != state.active:
            raise UserError(f"{verb}: only the active seat ({state.active + 1}) does that")
        return getattr(self, "_" + verb)(state, who, args, *extra)

    def split(self, text: str) -> tuple[list[str], int | None]:
        """The entry's words (lower case) and its ``@N`` seat (0-based), if any."""
        words = text.replace(",", " ").lower().split()
        if not words:
            raise UserError("an empty entry")
        seat = None
        if words[0].startswith("@"):
            raw = words.pop(0)[1:]
            if not raw.isdigit() or not 1 <= int(raw) <= self.players:
                raise UserError(f"'@{raw}': seats are @1..@{self.players}")
            seat = int(raw) - 1
            if not words:
                raise UserError(f"'@{raw}' alone: say what seat {raw} did")
        if words[0] not in self.WORDS:
            raise UserError(f"unknown entry '{words[0]}' (entries: {', '.join(self.WORDS)})")
        if words[0] in self.BARE and len(words) > 1:
            raise UserError(f"'{words[0]}' takes no more words (got '{' '.join(words[1:])}')")
        return words, seat

    def enter(self, text: str) -> str:
        """Apply one entry; returns what it did, in words. An impossible entry raises a
        one-line UserError and changes nothing."""
        words, seat = self.split(text)
        state = copy.deepcopy(self.state)
        said = self.apply(state, words, seat)
        self.state = state
        self.entries.append(" ".join(text.split()))
        return said

    def undo(self) -> str | None:
        """Drop the last entry (its text), replaying the others; None when there is none."""
        if not self.entries:
            return None
        last = self.entries[-1]
        self.replay(self.entries[:-1])
        return last

    def replay(self, entries: list[str]) -> None:
        """Start again and apply ``entries`` in order (each must still be possible)."""
        self.state = self.start()
        self.entries = []
        for i, e in enumerate(entries):
            try:
                self.enter(e)
            except UserError as exc:
                raise UserError(f"entry {i + 1} '{e}': {exc}") from None

    def entries_trailer(self) -> str:
        """The entries as comments ending a saved position (``#> entry``): ``pushluck play
        GAME --script FILE`` (or ``--load FILE``) on the saved file replays the game."""
        head = (f"\n# The entries of this game; replay them with: pushluck play {self.GAME} "
                f"--players {self.players} --me {self.me + 1} --script THIS_FILE (or --load)\n")
        return head + "".join(f"#> {e}\n" for e in self.entries)

    def save_refusal(self) -> str | None:
        """Why the position cannot be saved now as one ``decide`` reads faithfully (one line),
        or None; a game's table says when."""
        return None

    def game_only_toml(self, why: str) -> str:
        """A save made where no ``decide`` position can say the game (``why``): the entries
        alone, as comments, so ``--load`` reopens the game there and ``decide`` refuses the
        file in one line (analyzer/rules.py ``load_toml``: no position, only entries)."""
        return (f"# A game followed by `pushluck play` ({len(self.entries)} entries), saved "
                f"where no `{self.GAME} decide` position can say it:\n# {why}.\n# Reopen it "
                f"with: pushluck play {self.GAME} --players {self.players} --me {self.me + 1} "
                f"--load THIS_FILE\n") + self.entries_trailer()

    def save(self, path: str, root: str | None = None) -> str | None:
        """Write the position (``position_toml``, the game's ``decide`` format) to ``path``
        (inside the folder ``root`` when given), atomically (analyzer/output.py: never through
        a link, never half a file), and return None. At a moment ``decide`` would misread
        (:meth:`save_refusal`) the file holds the game's entries only (:meth:`game_only_toml`)
        and the reason is returned: a game can be saved, and reopened, at any moment."""
        from analyzer.output import atomic_write_text

        why = self.save_refusal()
        atomic_write_text(path, self.position_toml() if why is None else
                          self.game_only_toml(why), root)
        return why

    def completions(self, text: str) -> list[str]:
        """Words that complete the last word of ``text`` (entry words first, then values)."""
        parts = text.lower().split(" ")
        last = parts[-1]
        first = len([p for p in parts[:-1] if p and not p.startswith("@")]) == 0
        pool = list(self.WORDS) if first else list(self.VALUES) + list(self.WORDS)
        return [w for w in dict.fromkeys(pool) if w.startswith(last) and w != last]
