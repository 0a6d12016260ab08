"""Ten's rules: house-rule knobs, the deck file, card notation, the turn state and the value model.

What belongs here: everything that turns a rules file, a deck file and the command line's card
lists into checked plain data (``TenRules``, ``DeckSpec``, ``TurnState``, ``ValueModel``); no
solver, no sampling.

Deck (``docs/rules/ten.md``): 84 number cards (4 colours × values 1–6 three copies,
7–9 one copy), 2 colour wilds per colour, 9 number wilds (one per value), 1 full wild and 27
currency cards whose split by value is an assumption read from ``analyzer/data/ten_deck.toml``
(replaceable with ``--deck FILE``), as are the cards removed for 2–3 players.

Card notation: ``r5`` (colour letter r/b/g/o + value 1–9), ``$3`` (currency 1–5), ``r#`` (colour
wild), ``*5`` (number wild of value 5), ``**`` (full wild); comma-separated lists.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from analyzer.errors import UserError
from analyzer.rules import rule

COLOURS = ("r", "b", "g", "o")
COLOUR_NAMES = {"r": "red", "b": "blue", "g": "green", "o": "orange"}
DEFAULT_DECK = Path(__file__).resolve().parents[2] / "data" / "ten_deck.toml"
_CARD_RE = re.compile(r"^(?:([rbgo])([1-9#])|\*([1-9*])|\$([1-5]))$")


@dataclass(frozen=True)
class TenRules:
    number_wilds: int = rule(9, "number wilds in the deck (9 per docs/rules/ten.md; 10 per the "
                                "source text, the tenth's value from the deck file)",
                             choices=(9, 10))
    colour_wilds: int = rule(2, "colour wilds per colour", min=0, max=10)
    full_wilds: int = rule(1, "full wilds", min=0, max=10)
    bust_at: int = rule(11, "number bust when the tableau total T = N − C reaches this", min=2,
                        max=60)
    currency_bust_at: int = rule(11, "currency bust when the tableau's currency C reaches this",
                                 min=2, max=60)
    token_cap: int = rule(10, "most currency tokens a player may hold", min=1, max=50)
    # whole games (`ten game`, `ten decide`); [D] decided here with the alternative as a key,
    # [U] unknown with the assumption as the default. Resolved where the rules page is silent:
    # a busting player takes no bust token once the supply is out; a gain of tokens is limited by
    # the cap and by the supply; an opening bid is at least 1; a shared win counts 1/k to each
    # of the k winners in win rates.
    start_tokens: int = rule(5, "currency tokens each player starts with", min=0, max=50)
    currency_tokens: int = rule(50, "currency tokens in the game (the supply)", min=0, max=500)
    bust_tokens: int = rule(15, "bust tokens in the game; once none are left a bust gives none",
                            min=0, max=500)
    bust_token_value: int = rule(3, "what a bust token pays (no change is given)", min=1, max=10)
    all_pass: str = rule("discard", "[U] when everyone passes an auction: the wild is discarded, "
                                    "or the active player takes it free",
                         choices=("discard", "active-free"))
    bid_within_means: bool = rule(True, "[D] no bid may exceed what the bidder can pay "
                                        "(false: a winner pays what they can)")
    spent_cards: str = rule("out", "[D] collection cards spent on a price leave the game "
                                   "('out') or go to the market ('market')",
                            choices=("out", "market"))
    final_buy_last: bool = rule(True, "[D] the player who drew the last card takes part in the "
                                      "final buy round, last (false: left out)")
    auctions: bool = rule(True, "hold auctions for wilds (false: a drawn wild is discarded)")
    buys: bool = rule(True, "buy phases after a numbers reward and at the end (false: none)")
    token_gains: bool = rule(True, "stop rewards and number busts give currency tokens "
                                   "(false: nobody gains tokens)")
    full_run_points: int = rule(10, "[U] points for a complete 1–9 run of one colour (the "
                                    "source says only 'bonus points'; 10 is an assumption)",
                                min=9, max=100)

    def check(self) -> None:
        if self.start_tokens > self.token_cap:
            raise UserError(f"rule 'start_tokens' = {self.start_tokens} is above the token cap "
                            f"{self.token_cap}")

    def turn_rules(self) -> "TenRules":
        """The rules the one-turn solver reads (all of them; kept for call sites' clarity)."""
        return self

    def kernel_array(self, players: int, check: bool = False) -> np.ndarray:
        """The rules as the whole-game kernel reads them (``kernels/ten/whole_layout.py``)."""
        import numpy as np

        from kernels.ten import whole_layout as L

        if players * self.start_tokens > self.currency_tokens:
            raise UserError(f"{players} players × {self.start_tokens} starting tokens exceed the "
                            f"{self.currency_tokens} currency tokens in the game")
        a = np.zeros(L.NRULE, dtype=np.int64)
        a[L.R_BUST] = self.bust_at
        a[L.R_CBUST] = self.currency_bust_at
        a[L.R_CAP] = self.token_cap
        a[L.R_START] = self.start_tokens
        a[L.R_TOKENS] = self.currency_tokens
        a[L.R_BUSTS] = self.bust_tokens
        a[L.R_BUSTVAL] = self.bust_token_value
        a[L.R_ALLPASS] = 1 if self.all_pass == "active-free" else 0
        a[L.R_AUCTIONS] = int(self.auctions)
        a[L.R_BUYS] = int(self.buys)
        a[L.R_GAINS] = int(self.token_gains)
        a[L.R_FINALLAST] = int(self.final_buy_last)
        a[L.R_SPENT] = 1 if self.spent_cards == "market" else 0
        a[L.R_MEANS] = int(self.bid_within_means)
        a[L.R_CHECK] = int(check)
        return a


RULES = TenRules


@dataclass(frozen=True)
class Card:
    """One card: kind is 'number', 'currency', 'colour-wild', 'number-wild' or 'full-wild'."""

    code: str
    kind: str
    colour: str | None = None
    value: int | None = None

    @property
    def is_wild(self) -> bool:
        return self.kind.endswith("wild")


def parse_card(text: str) -> Card:
    """One card in the notation of docs/rules/ten.md; raises UserError naming it."""
    t = text.strip().lower()
    m = _CARD_RE.match(t)
    if not m:
        raise UserError(f"unknown card '{text.strip()}' (use r5/b9/g1/o7, $1–$5, r#, *5 or **)")
    col, cv, nw, cur = m.groups()
    if col is not None:
        if cv == "#":
            return Card(t, "colour-wild", col, None)
        return Card(t, "number", col, int(cv))
    if nw is not None:
        if nw == "*":
            return Card(t, "full-wild")
        return Card(t, "number-wild", None, int(nw))
    return Card(t, "currency", None, int(cur))


def parse_cards(text: str | None, what: str = "card list") -> list[Card]:
    """A comma-separated card list (empty or None → no cards)."""
    if text is None or not text.strip():
        return []
    parts = text.split(",")
    out = []
    for i, p in enumerate(parts):
        if not p.strip():
            raise UserError(f"malformed {what} '{text}': empty entry at position {i + 1}")
        out.append(parse_card(p))
    return out


# ----------------------------------------------------------------------------------------------
# The deck file and the deck itself

@dataclass(frozen=True)
class DeckSpec:
    """The deck file's numbers (see analyzer/data/ten_deck.toml)."""

    copies: tuple  # per number value 1..9, per colour
    currency: tuple  # per currency value 1..5
    tenth_number_wild_value: int
    marked_4plus: tuple
    marked_3: tuple
    source: str


_DECK_KEYS = {"numbers": {"copies"}, "currency": {"counts"}, "wilds": {"tenth_number_wild_value"},
              "players": {"marked_4plus", "marked_3"}}


def load_deck(path: str | Path | None = None) -> DeckSpec:
    """Read and validate a deck file (the bundled assumptions when ``path`` is None)."""
    from analyzer.rules import load_toml

    p = Path(path) if path is not None else DEFAULT_DECK
    data = load_toml(p)
    for section, body in data.items():
        if section not in _DECK_KEYS or not isinstance(body, dict):
            raise UserError(f"{p}: unknown section '{section}' (known: {', '.join(_DECK_KEYS)})")
        for key in body:
            if key not in _DECK_KEYS[section]:
                raise UserError(f"{p}: unknown key '{section}.{key}'")

    def get(section, key, default):
        return data.get(section, {}).get(key, default)

    def int_list(section, key, default, length):
        v = get(section, key, default)
        if (not isinstance(v, list) or len(v) != length
                or any(isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 50
                       for x in v)):
            raise UserError(f"{p}: '{section}.{key}' must be a list of {length} integers 0..50")
        return tuple(v)

    copies = int_list("numbers", "copies", [3, 3, 3, 3, 3, 3, 1, 1, 1], 9)
    currency = int_list("currency", "counts", [6, 6, 6, 5, 4], 5)
    tenth = get("wilds", "tenth_number_wild_value", 5)
    if isinstance(tenth, bool) or not isinstance(tenth, int) or not 1 <= tenth <= 9:
        raise UserError(f"{p}: 'wilds.tenth_number_wild_value' must be an integer 1..9")
    marks = []
    for key in ("marked_4plus", "marked_3"):
        v = get("players", key, [])
        if not isinstance(v, list) or any(not isinstance(x, str) for x in v):
            raise UserError(f"{p}: 'players.{key}' must be a list of card codes")
        marks.append(tuple(parse_card(x).code for x in v))
    return DeckSpec(copies, currency, tenth, marks[0], marks[1], str(p))


def deck_counts(rules: TenRules, spec: DeckSpec, players: int = 4) -> Counter:
    """Card code → copies in the draw pile at the start of a game with ``players`` players."""
    if not 1 <= players <= 5:
        raise UserError(f"--players must be 1..5 (got {players})")
    deck: Counter = Counter()
    for c in COLOURS:
        for v in range(1, 10):
            if spec.copies[v - 1]:
                deck[f"{c}{v}"] = spec.copies[v - 1]
        if rules.colour_wilds:
            deck[f"{c}#"] = rules.colour_wilds
    for v in range(1, 10):
        deck[f"*{v}"] += 1
    if rules.number_wilds == 10:
        deck[f"*{spec.tenth_number_wild_value}"] += 1
    if rules.full_wilds:
        deck["**"] = rules.full_wilds
    for u in range(1, 6):
        if spec.currency[u - 1]:
            deck[f"${u}"] = spec.currency[u - 1]
    removed = list(spec.marked_4plus) if players <= 3 else []
    if players <= 2:
        removed += list(spec.marked_3)
    for code in removed:
        if deck[code] <= 0:
            raise UserError(f"deck file {spec.source}: '{code}' is marked for removal more "
                            f"often than the deck holds it")
        deck[code] -= 1
    return +deck


def remaining_deck(deck: Counter, tableau: list[Card], seen: list[Card]) -> Counter:
    """Draw pile after removing the tableau and the seen cards; too many copies is an error."""
    used = Counter(c.code for c in tableau) + Counter(c.code for c in seen)
    for code, k in used.items():
        if k > deck.get(code, 0):
            raise UserError(f"card '{code}' is listed {k} time{'s' if k > 1 else ''} in "
                            f"--tableau/--seen but the deck holds {deck.get(code, 0)}")
    return +(deck - used)


# ----------------------------------------------------------------------------------------------
# The turn state as the kernels see it

@dataclass(frozen=True)
class TurnState:
    """Remaining pile by type (0..8 numbers 1..9, 9..13 currency 1..5), wilds and the tableau."""

    avail: tuple  # 14 counts
    wilds: int
    N: int
    C: int
    n_numbers: int  # number cards in the tableau
    n_tableau: int  # all tableau cards (number + currency)
    drawn: tuple = ()  # the tableau's 14 counts by type (() when not known)

    @property
    def T(self) -> int:
        return self.N - self.C

    @property
    def cards_left(self) -> int:
        return sum(self.avail) + self.wilds


#: face value of each card type (number cards 1-9, then currency cards 1-5); the same as an
#: int64 numpy array, ``TYPE_VALUES``, is built on first use (:func:`__getattr__`) so that
#: parsing and validating rules and positions does not load numpy
FACE_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5)


def __getattr__(name: str):
    if name == "TYPE_VALUES":
        import numpy as np

        globals()["TYPE_VALUES"] = np.array(FACE_VALUES, dtype=np.int64)
        return globals()["TYPE_VALUES"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def turn_state(rules: TenRules, spec: DeckSpec, tableau_text: str | None = None,
               seen_text: str | None = None, players: int = 4) -> TurnState:
    """Parse and check --tableau/--seen and summarise the remaining pile by type."""
    tableau = parse_cards(tableau_text, "--tableau list")
    seen = parse_cards(seen_text, "--seen list")
    for c in tableau:
        if c.is_wild:
            raise UserError(f"card '{c.code}' is a wild: wilds never enter the tableau "
                            f"(list it under --seen)")
    N = sum(c.value for c in tableau if c.kind == "number")
    C = sum(c.value for c in tableau if c.kind == "currency")
    if C >= rules.currency_bust_at:
        raise UserError(f"the tableau has already busted: currency C = {C} ≥ "
                        f"{rules.currency_bust_at} (last card '{tableau[-1].code}')")
    if N - C >= rules.bust_at:
        raise UserError(f"the tableau has already busted: T = N − C = {N} − {C} = {N - C} ≥ "
                        f"{rules.bust_at} (last card '{tableau[-1].code}')")
    rem = remaining_deck(deck_counts(rules, spec, players), tableau, seen)
    avail = [0] * 14
    wilds = 0
    for code, k in rem.items():
        card = parse_card(code)
        if card.kind == "number":
            avail[card.value - 1] += k
        elif card.kind == "currency":
            avail[8 + card.value] += k
        else:
            wilds += k
    n_num = sum(1 for c in tableau if c.kind == "number")
    drawn = [0] * 14
    for c in tableau:
        drawn[c.value - 1 if c.kind == "number" else 8 + c.value] += 1
    return TurnState(tuple(avail), wilds, N, C, n_num, len(tableau), tuple(drawn))


# ----------------------------------------------------------------------------------------------
# Value model

@dataclass(frozen=True)
class ValueModel:
    """What a turn's outcome is worth (see `pushluck ten best --help`)."""

    card: float = 1.0    # per number card taken into the collection
    token: float = 0.25  # per currency token gained
    bust: float = 3.0    # a bust token, in currency tokens
    opp: float = 0.0     # cost to you per token an opponent gains

    def to_dict(self) -> dict:
        return {"card": self.card, "token": self.token, "bust": self.bust, "opp": self.opp}


def parse_value_model(text: str | None) -> ValueModel:
    """``card=1,token=0.25,bust=3,opp=0`` (any subset; others keep their defaults)."""
    if text is None or not text.strip():
        return ValueModel()
    vals = ValueModel().to_dict()
    for part in text.split(","):
        if "=" not in part:
            raise UserError(f"--value expects key=number pairs, got '{part.strip()}'")
        k, v = (x.strip() for x in part.split("=", 1))
        if k not in vals:
            raise UserError(f"unknown --value key '{k}' (known: card, token, bust, opp)")
        try:
            f = float(v)
        except ValueError:
            raise UserError(f"--value {k} must be a number, got '{v}'") from None
        if not math.isfinite(f) or f < 0:
            raise UserError(f"--value {k} must be a finite number ≥ 0, got '{v}'")
        vals[k] = f
    return ValueModel(**vals)
