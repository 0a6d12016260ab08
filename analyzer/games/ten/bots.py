"""Ten bots for whole games, named in words: ``--policy NAME[:key=value,...]``.

Every bot decides from what its seat can see (its collection and tokens, the market, everyone's
tokens, the tableau); the rules it follows are described in ``kernels/ten/whole_engine.py``.

Names (draw rule): ``threshold`` (stop once T ≥ ``stop_at``; ``threshold:8`` is short for
``threshold:stop_at=8``), ``cards`` (stop once the tableau holds ``after`` cards), ``exact`` (the
exact one-turn policy of ``pushluck ten best`` for a fresh deck under the value model ``card``,
``token``, ``bust``, ``opp``, one table per number of tokens held; it does not count cards),
``random`` (draw with chance ``draw_chance``, and random rewards, bids and buys unless set),
``rollout`` (``rollout:K``: before each optional draw, K rollouts of the rest of the current turn
under "stop once T ≥ ``stop_at``" from the draw pile's counts, valued by the same value model as
``exact`` (``card``, ``token``, ``bust``, ``opp``); it draws when their mean beats stopping now.
Only the current turn is rolled out, with that simple base policy: a rollout of the whole game
would need the engine to call itself, which Numba does not compile; see
``kernels/ten/whole_rollout.py``).
Knobs every bot takes: ``reward`` (value | numbers | currency | random), ``bid`` and ``buy``
(value | never | random), ``tokens_per_point`` (what a point of score is worth in tokens),
``card_bonus`` (points per number card of a type not owned yet, for future runs),
``opp_weight`` (points lost per token an opponent gains), ``min_gain`` (least points per token
for a buy), ``pay_with_cards`` (bots may spend collection cards).
Bands (``threshold`` only): ``band_by`` (none | deck: the cards left in the draw pile | tokens:
the currency tokens you hold), ``cut_1``, ``cut_2``, ``stop_at_2``, ``stop_at_3``: stop once
T ≥ ``stop_at`` while the feature is below ``cut_1``, ``stop_at_2`` from ``cut_1`` on,
``stop_at_3`` from ``cut_2`` on (``cut_2`` 0: two bands), e.g.
``threshold:stop_at=6,band_by=deck,cut_1=20,stop_at_2=8`` draws to T ≥ 8 while 20 or more cards
are left and to T ≥ 6 after.
Decision lists (``table`` only; ``analyzer/games/ten/draw_table.py``): ``if_1``, ``if_2``,
``if_3`` (conditions ``FEATURE<=V`` or ``FEATURE>=V`` on T, C, cards, deck, tokens, busts),
``then_1``..``then_3`` (draw | stop) and ``otherwise`` (draw | stop): the first condition that
holds decides, e.g. ``table:if_1=tokens>=8,then_1=stop,if_2=T>=7,then_2=stop,otherwise=draw``.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from analyzer.errors import UserError

DRAW_NAMES = ("threshold", "cards", "exact", "random", "rollout", "table")
RULE_CHOICES = {"reward": ("value", "numbers", "currency", "random"),
                "bid": ("value", "never", "random"), "buy": ("value", "never", "random"),
                "band_by": ("none", "deck", "tokens"), "otherwise": ("draw", "stop")}
for _k in (1, 2, 3):
    RULE_CHOICES[f"then_{_k}"] = ("draw", "stop")
SHORTHAND = {"threshold": "stop_at", "cards": "after", "rollout": "rollouts"}


def knob(default, low, high):
    """A bot knob with its allowed range (inclusive), checked by :func:`parse_bot` whatever the
    knob is called on the command line. Every number a bot loops over is bounded this way:
    ``tokens_per_point`` 1e-10 made a bid search step through 10^10 gains (a game that never
    ended and ignored Ctrl-C)."""
    return dataclasses.field(default=default, metadata={"range": (low, high)})


#: the largest value-model weight or bonus (points or tokens): far beyond any sensible setting,
#: small enough that every sum of them stays exact in float64
WEIGHT_MAX = 1000.0


@dataclass(frozen=True)
class Bot:
    name: str = "threshold"
    stop_at: int = knob(7, -60, 60)
    after: int = knob(4, 1, 200)
    draw_chance: float = knob(0.5, 0.0, 1.0)
    card: float = knob(1.0, 0.0, WEIGHT_MAX)
    token: float = knob(0.25, 0.0, WEIGHT_MAX)
    bust: float = knob(3.0, 0.0, WEIGHT_MAX)
    opp: float = knob(0.0, 0.0, WEIGHT_MAX)
    reward: str = "value"
    bid: str = "value"
    buy: str = "value"
    #: at least 0.01: the bid search (kernels/ten/whole_decisions.py idle_gain) takes about
    #: 1 / tokens_per_point steps
    tokens_per_point: float = knob(3.0, 0.01, WEIGHT_MAX)
    card_bonus: float = knob(0.5, 0.0, WEIGHT_MAX)
    opp_weight: float = knob(0.0, 0.0, WEIGHT_MAX)
    min_gain: float = knob(0.0, 0.0, WEIGHT_MAX)
    pay_with_cards: bool = False
    rollouts: int = knob(16, 1, 1000)
    band_by: str = "none"
    cut_1: int = knob(0, 0, 200)
    cut_2: int = knob(0, 0, 200)
    stop_at_2: int = knob(7, -60, 60)
    stop_at_3: int = knob(7, -60, 60)
    if_1: str = ""
    then_1: str = ""
    if_2: str = ""
    then_2: str = ""
    if_3: str = ""
    then_3: str = ""
    otherwise: str = "stop"

    @property
    def label(self) -> str:
        base = Bot(name=self.name, **({"reward": "random", "bid": "random", "buy": "random"}
                                      if self.name == "random" else {}))
        knobs = [f"{f.name}={getattr(self, f.name)}" for f in dataclasses.fields(self)
                 if f.name != "name" and getattr(self, f.name) != getattr(base, f.name)]
        return self.name + (":" + ",".join(knobs) if knobs else "")

    def value_model(self):
        from analyzer.games.ten.rules import ValueModel

        return ValueModel(self.card, self.token, self.bust, self.opp)


def parse_bot(text: str) -> Bot:
    """``NAME`` or ``NAME:key=value,...`` (``threshold:7`` and ``cards:4`` as shorthands);
    ``rule:FILE.json`` (a draw rule written by `ten game-advice --out`) is the bot that plays it."""
    from analyzer.advice.rulefile import is_rule

    if is_rule(text):
        from analyzer.games.ten.advice_game import bot_for_rule

        return parse_bot(bot_for_rule(text))
    t = text.strip()
    name, _, rest = t.partition(":")
    name = name.strip().lower()
    if name not in DRAW_NAMES:
        raise UserError(f"unknown Ten bot '{name}' (bots: {', '.join(DRAW_NAMES)})")
    vals: dict = {"name": name}
    if name == "random":
        vals.update(reward="random", bid="random", buy="random")
    types = {f.name: f.type for f in dataclasses.fields(Bot)}
    for part in [p for p in rest.split(",") if p.strip()] if rest else []:
        if "=" not in part:
            if name in SHORTHAND and part.strip().lstrip("-").isdigit():
                part = f"{SHORTHAND[name]}={part.strip()}"
            else:
                raise UserError(f"bot '{t}': expected key=value, got '{part.strip()}'")
        k, v = (x.strip() for x in part.split("=", 1))
        k = k.replace("-", "_")
        if k not in types or k == "name":
            raise UserError(f"bot '{t}': unknown knob '{k}' (knobs: "
                            f"{', '.join(n for n in types if n != 'name')})")
        vals[k] = _convert(t, k, types[k], v)
    bot = Bot(**vals)
    _validate(t, bot)
    return bot


def _convert(t, k, typ, v):
    try:
        if typ in ("int", int):
            return int(v)
        if typ in ("float", float):
            x = float(v)
            if not np.isfinite(x):
                raise ValueError
            return x
        if typ in ("str", str) and k.startswith("if_"):
            from analyzer.games.ten.draw_table import parse_clause

            parse_clause(v, f"bot '{t}'")
            return v.replace(" ", "")
        if typ in ("bool", bool):
            if v.lower() in ("true", "yes", "1", "on"):
                return True
            if v.lower() in ("false", "no", "0", "off"):
                return False
            raise ValueError
    except ValueError:
        raise UserError(f"bot '{t}': knob '{k}' must be a {typ}, got '{v}'") from None
    if k in RULE_CHOICES and v not in RULE_CHOICES[k]:
        raise UserError(f"bot '{t}': {k} must be one of {', '.join(RULE_CHOICES[k])}, got '{v}'")
    return v


def _validate(t, b: Bot) -> None:
    for f in dataclasses.fields(Bot):
        if "range" in f.metadata:
            low, high = f.metadata["range"]
            if not low <= getattr(b, f.name) <= high:
                raise UserError(f"bot '{t}': {f.name} must be {low:g}..{high:g}, got "
                                f"{getattr(b, f.name):g}")
    checks = [(b.band_by == "none" or b.name == "threshold",
               "band_by applies to the threshold bot only"),
              (b.band_by == "none" or 1 <= b.cut_1 <= 200, "band_by needs cut_1 in 1..200"),
              (b.cut_2 == 0 or b.cut_1 < b.cut_2 <= 200, "cut_2 must be 0 (two bands) or "
               "above cut_1 (at most 200)")]
    clauses = (b.if_1, b.then_1, b.if_2, b.then_2, b.if_3, b.then_3)
    checks.append((b.name == "table" or not any(clauses) and b.otherwise == "stop",
                   "if_k, then_k and otherwise apply to the table bot only"))
    for ok, msg in checks:
        if not ok:
            raise UserError(f"bot '{t}': {msg}")
    if b.name == "table":
        from analyzer.games.ten.draw_table import bot_rule

        bot_rule(b, f"bot '{t}'")


def parse_seats(text: str, players: int) -> list[Bot]:
    """``A,B,…`` one bot per seat (a single bot means every seat). A comma-separated part that
    does not start with a bot name continues the previous bot's knobs, so
    ``threshold:stop_at=8,bid=never,random`` is two bots; ``;`` may also separate seats."""
    seats: list[str] = []
    for part in text.replace(";", ",;,").split(","):
        p = part.strip()
        if p == ";":
            seats.append(";")
            continue
        if not p:
            if seats and seats[-1] == ";":
                continue
            raise UserError(f"--seats '{text}': empty entry")
        name = p.split(":", 1)[0].strip().lower()
        if name in DRAW_NAMES or name == "rule" or not seats or seats[-1] == ";":
            seats.append(p)
        else:
            seats[-1] += "," + p
    bots = [parse_bot(g) for g in seats if g != ";"]
    if len(bots) == 1:
        return bots * players
    if len(bots) != players:
        raise UserError(f"--seats gives {len(bots)} bots for {players} players (give one per "
                        f"seat or a single bot for all)")
    return bots


def bot_rows(bots: list[Bot], tables: dict) -> np.ndarray:
    """float64[P, NB] rows for the kernel; ``tables`` maps a value model to its table index."""
    from kernels.ten import whole_layout as L

    rows = np.zeros((len(bots), L.NB), dtype=np.float64)
    wmap = {"value": L.W_VALUE, "numbers": L.W_NUMBERS, "currency": L.W_CURRENCY,
            "random": L.W_RANDOM}
    amap = {"value": L.A_VALUE, "never": L.A_NEVER, "random": L.A_RANDOM}
    for p, b in enumerate(bots):
        r = rows[p]
        r[L.B_DRAW] = {"threshold": L.D_TOTAL, "cards": L.D_CARDS, "exact": L.D_EXACT,
                       "random": L.D_RANDOM, "rollout": L.D_ROLLOUT, "table": L.D_TABLE}[b.name]
        r[L.B_DRAWP] = b.after if b.name == "cards" else b.stop_at
        r[L.B_REWARD] = wmap[b.reward]
        r[L.B_TPP] = b.tokens_per_point
        r[L.B_BONUS] = b.card_bonus
        r[L.B_BID] = amap[b.bid]
        r[L.B_BUY] = amap[b.buy]
        r[L.B_MINGAIN] = b.min_gain
        r[L.B_OPP] = b.opp_weight
        r[L.B_CARDS] = 1.0 if b.pay_with_cards else 0.0
        r[L.B_PDRAW] = b.draw_chance
        r[L.B_TABLE] = tables.get(b.value_model(), 0) if b.name == "exact" else 0
        r[L.B_ROLLOUTS] = b.rollouts
        r[L.B_CARD] = b.card
        r[L.B_TOKEN] = b.token
        r[L.B_BUSTV] = b.bust * b.token
        r[L.B_OPPC] = b.opp * (len(bots) - 1)
        r[L.B_BAND] = {"none": L.BAND_NONE, "deck": L.BAND_DECK, "tokens": L.BAND_TOKENS}[
            b.band_by]
        r[L.B_CUT1], r[L.B_CUT2] = b.cut_1, b.cut_2
        r[L.B_DRAWP2], r[L.B_DRAWP3] = b.stop_at_2, b.stop_at_3
        if b.name == "table":
            from analyzer.games.ten.draw_table import table_rows

            tab = table_rows(b)
            r[L.B_NROWS] = len(tab)
            r[L.B_ROWS:L.B_ROWS + L.TROW * len(tab)] = [x for row in tab for x in row]
    return rows
