"""Bot and policy specs: one spelling for every game, parsed here (below every game package).

A **spec** names one bot (or policy) and sets its knobs::

    NAME[:VALUE...][:KNOB=VALUE...]        e.g.  heuristic:stop-at=4:yumyum-at=0
                                                 rollout:8            (= rollout:rollouts=8)
                                                 go:2:3               (= go:gos=2:turns-left=3)
    rule:FILE.json                         a rule of thumb written by `advice --out DIR`

* parts are separated by ``:``; a knob is ``name=value`` with a kebab-case name (``stop-at``);
* a bot may declare *positional* knobs: the first parts without ``=`` fill them in order (so
  ``hold:20`` is ``hold:at=20``); they come before the named knobs;
* ``rule:`` takes the rest of the text as a file path.

A **line-up** gives one spec per seat, separated by ``,`` (``--seats A,B,C``; a single spec
means every seat). ``,`` and ``:`` are both safe in a shell, so a line-up pastes without quotes.

Each game declares its bots once as a :class:`Family` (``analyzer/games/<game>/lineup.py``): the
bots, their knobs with types, ranges and defaults. :meth:`Family.parse` checks a text against
it and returns a :class:`Spec` (the values given, the defaults for the rest); the game turns the
spec into its own policy object. Old spellings are refused in one line that names the new one:
``;`` between seats, ``,`` between knobs, snake_case knob names.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Callable

from analyzer.errors import UserError

SEAT_SEP = ","
PART_SEP = ":"
RULE = "rule"
_KEBAB = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
_TRUE = ("yes", "true", "on", "1")
_FALSE = ("no", "false", "off", "0")


def is_kebab(name: str) -> bool:
    """A knob or bot name in the one style: lower-case words joined by ``-``."""
    return bool(_KEBAB.fullmatch(name))


@dataclass(frozen=True)
class Knob:
    """One knob: ``kind`` is int, float, bool, word (one of ``words``) or text (checked by
    ``check``, which returns the value to keep). Numbers lie in [``low``, ``high``]; an int or
    float knob may also accept some ``words`` (e.g. ``max-cost=any``)."""

    name: str
    kind: str
    default: object = None
    help: str = ""
    low: float | None = None
    high: float | None = None
    words: tuple = ()
    check: Callable | None = None

    def convert(self, text: str, where: str):
        t = text.strip()
        low_t = t.lower()
        bad = f"{where}: knob '{self.name}'"
        if self.kind == "bool":
            if low_t in _TRUE:
                return True
            if low_t in _FALSE:
                return False
            raise UserError(f"{bad} must be yes or no, got '{text}'")
        if self.kind == "word" or (self.words and low_t in self.words):
            if low_t not in self.words:
                raise UserError(f"{bad} must be one of {', '.join(self.words)}, got '{text}'")
            return low_t
        if self.kind == "text":
            if not t:
                raise UserError(f"{bad} needs a value")
            return self.check(t, bad) if self.check else t
        if self.kind == "int":
            if not re.fullmatch(r"[+-]?\d{1,12}", t):
                extra = f" or one of {', '.join(self.words)}" if self.words else ""
                raise UserError(f"{bad} must be a whole number{extra}, got '{text}'")
            v = int(t)
        else:
            try:
                v = float(t)
            except ValueError:
                v = math.nan
            if not math.isfinite(v):
                raise UserError(f"{bad} must be a number, got '{text}'")
        if (self.low is not None and v < self.low) or (self.high is not None and v > self.high):
            raise UserError(f"{bad} must be in {_num(self.low)}..{_num(self.high)}, got {_num(v)}")
        return v


def _num(x) -> str:
    if x is None:
        return "…"
    return str(int(x)) if float(x).is_integer() else str(x)


@dataclass(frozen=True)
class Bot:
    """A bot (or policy) of a family: its name, the knobs it takes (names of the family's
    knobs), which of them may be given by position, and defaults that differ from the knob's."""

    name: str
    help: str
    knobs: tuple = ()
    positional: tuple = ()
    defaults: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Spec:
    """A parsed spec: the bot's name, the knob values given, and the text it came from.
    ``spec[knob]`` is the given value or the default; ``spec.file`` the path of ``rule:FILE``."""

    name: str
    given: dict
    text: str
    family: "Family" = field(compare=False, repr=False, default=None)

    def __getitem__(self, knob: str):
        if knob in self.given:
            return self.given[knob]
        bot = self.family.bots.get(self.name)
        if bot is not None and knob in bot.defaults:
            return bot.defaults[knob]
        return self.family.knobs[knob].default

    @property
    def file(self) -> str:
        return self.given.get("file", "")

    @property
    def is_rule(self) -> bool:
        return self.name == RULE


class Family:
    """The bots one option of one game accepts (module doc). ``rule``: whether ``rule:FILE``
    is accepted; ``what``: "bot" or "policy", as the messages name them."""

    def __init__(self, game: str, bots: list[Bot], knobs: list[Knob], rule: bool = True,
                 what: str = "bot"):
        self.game, self.rule, self.what = game, rule, what
        self.bots = {b.name: b for b in bots}
        self.knobs = {k.name: k for k in knobs}
        for b in bots:
            for k in (*b.knobs, *b.positional):
                if k not in self.knobs:  # pragma: no cover - a declaration error
                    raise ValueError(f"{game} bot {b.name}: undeclared knob {k}")

    def without_rule(self) -> "Family":
        """The same bots without ``rule:FILE`` (a game's own modules name bots by knobs)."""
        return Family(self.game, list(self.bots.values()), list(self.knobs.values()), False,
                      self.what)

    @property
    def plural(self) -> str:
        return "policies" if self.what == "policy" else self.what + "s"

    @property
    def names(self) -> tuple:
        return tuple(self.bots) + ((RULE,) if self.rule else ())

    # ---- one spec --------------------------------------------------------------------------
    def parse(self, text: str, flag: str = "--policy") -> Spec:
        """One spec (module doc); every error is one line naming ``flag`` and the text."""
        raw = text.strip()
        where = f"{flag} '{raw}'"
        if not raw:
            raise UserError(f"{flag}: empty {self.what} (one of {', '.join(self.names)})")
        if ";" in raw or SEAT_SEP in raw and not raw.lower().startswith(RULE + PART_SEP):
            raise UserError(f"{where}: one {self.what} here; separate its knobs with ':' "
                            f"(e.g. {modern(raw, self)})")
        name, _, rest = raw.partition(PART_SEP)
        name = name.strip().lower()
        if name == RULE and self.rule:
            path = rest.strip()
            if not path:
                raise UserError(f"{where}: rule needs a file: rule:FILE.json")
            return Spec(RULE, {"file": path}, raw, self)
        bot = self.bots.get(name)
        if bot is None:
            raise UserError(f"{where}: unknown {self.what} '{name}' ({self.plural} of "
                            f"{self.game}: {', '.join(self.names)})")
        given: dict = {}
        parts = rest.split(PART_SEP) if rest else []
        positional = list(bot.positional)
        named_seen = False
        for part in parts:
            p = part.strip()
            if not p:
                raise UserError(f"{where}: empty part between ':'")
            if "=" not in p:
                if named_seen or not positional:
                    hint = (f"{'/'.join(bot.positional)} by position first, " if
                            bot.positional else "")
                    raise UserError(f"{where}: '{p}' is not knob=value ({hint}knobs of "
                                    f"{name}: {', '.join(bot.knobs) or 'none'})")
                key = positional.pop(0)
                value = p
            else:
                named_seen = True
                key, _, value = (x.strip() for x in p.partition("="))
                key = key.lower()
                if key not in (*bot.knobs, *bot.positional):
                    self._unknown_knob(key, bot, where)
                if key in bot.positional and key in positional:
                    positional.remove(key)
            if key in given:
                raise UserError(f"{where}: knob '{key}' is given twice")
            given[key] = self.knobs[key].convert(value, where)
        return Spec(name, given, raw, self)

    def _unknown_knob(self, key: str, bot: Bot, where: str):
        kebab = key.replace("_", "-")
        if kebab != key and kebab in (*bot.knobs, *bot.positional):
            raise UserError(f"{where}: knob names are kebab-case: {kebab}, not {key}")
        known = ", ".join(dict.fromkeys((*bot.positional, *bot.knobs))) or "none"
        raise UserError(f"{where}: unknown knob '{key}' for {bot.name} (knobs: {known})")

    # ---- a line-up ---------------------------------------------------------------------------
    def lineup(self, text: str, players: int, flag: str = "--seats") -> list[Spec]:
        """One spec per seat from ``A,B,…`` (a single spec means every seat)."""
        raw = text.strip()
        if ";" in raw:
            raise UserError(f"{flag} '{raw}': separate seats with ',' and knobs with ':' "
                            f"(e.g. {flag} {modern(raw, self)})")
        parts = [p.strip() for p in raw.split(SEAT_SEP)]
        if any(not p for p in parts):
            raise UserError(f"{flag} '{raw}': an empty seat (one {self.what} per seat, "
                            f"separated by ',')")
        for p in parts:
            head = p.partition(PART_SEP)[0].strip().lower()
            if "=" in p and head not in self.names:
                raise UserError(f"{flag} '{raw}': '{p}' is not a {self.what}: separate seats "
                                f"with ',' and knobs with ':' (e.g. {flag} {modern(raw, self)})")
        specs = [self.parse(p, flag) for p in parts]
        if len(specs) == 1:
            return specs * players
        if len(specs) != players:
            raise UserError(f"{flag} '{raw}' names {len(specs)} {self.plural} for {players} "
                            f"seats (give one for every seat, or one per seat)")
        return specs

    # ---- words ---------------------------------------------------------------------------------
    def describe(self) -> str:
        """The bots and their knobs in one paragraph, for a ``--help`` text."""
        out = []
        for b in self.bots.values():
            pos = "".join(f"[:{k.upper()}]" for k in b.positional)
            out.append(f"{b.name}{pos} ({b.help})" if b.help else f"{b.name}{pos}")
        text = ", ".join(out)
        if self.rule:
            text += ", rule:FILE.json (a rule of thumb written by `advice --out DIR`)"
        return text


def modern(text: str, family: Family | None = None) -> str:
    """The old spelling ``text`` in the current one: seats split on ``;`` (or, within a seat,
    parts that start no bot) joined by ``,``; a bot's knobs joined by ``:``; knob names
    kebab-case."""
    names = set(family.names) if family else set()
    seats: list[list[str]] = []
    for chunk in text.split(";"):
        chunk = chunk.strip()
        if not chunk:
            continue
        start = True
        for piece in chunk.split(","):
            piece = piece.strip()
            if not piece:
                continue
            head = piece.partition(PART_SEP)[0].strip().lower()
            if start or head in names or not names and "=" not in piece:
                seats.append([piece])
                start = False
            else:
                seats[-1].append(piece)
    fixed = []
    for seat in seats:
        parts = PART_SEP.join(seat).split(PART_SEP)
        parts = [re.sub(r"^([a-z0-9_]+)=", lambda m: m.group(1).replace("_", "-") + "=", p)
                 for p in parts]
        fixed.append(PART_SEP.join(parts))
    return SEAT_SEP.join(fixed)


class Reader:
    """Texts → a game's own policy objects: a :class:`Family` and the game's ``make(spec)``.
    ``one`` reads one spec, ``seats`` a line-up, ``check`` a line-up of any length."""

    def __init__(self, family: Family, make: Callable):
        self.family, self.make = family, make

    def one(self, text: str, flag: str = "--policy"):
        return self.make(self.family.parse(text, flag))

    def seats(self, text: str, players: int, flag: str = "--seats") -> list:
        return [self.make(s) for s in self.family.lineup(text, players, flag)]

    def check(self, text: str, flag: str = "--policy") -> None:
        self.seats(text, text.count(SEAT_SEP) + 1, flag)


def bot_words(label: str) -> str:
    """A bot label in words for pages: ``heuristic:stop-at=2:cut-2=yes`` → "heuristic
    (stop-at 2, cut-2 yes)"; ``rollout:8`` → "rollout (8)"."""
    name, _, knobs = label.partition(PART_SEP)
    return f"{name} ({knobs.replace('=', ' ').replace(PART_SEP, ', ')})" if knobs else name
