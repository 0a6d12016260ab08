"""Ten bots for whole games, named in words: ``--seats NAME[:key=value...]`` (analyzer/botspec.py).

Every bot decides from what its seat can see (its collection and tokens, the market, everyone's
tokens, the tableau); the rules it follows are described in ``kernels/ten/whole_engine.py``.

Names (draw rule): ``threshold`` (stop once T ≥ ``stop-at``; ``threshold:8`` is short for
``threshold:stop-at=8``), ``cards`` (stop once the tableau holds ``after`` cards), ``exact`` (the
exact one-turn policy of ``pushluck ten best`` for a fresh deck under the value model ``card``,
``token``, ``bust``, ``opp``, one table per number of tokens held; it does not count cards),
``random`` (draw with chance ``draw-chance``, and random rewards, bids and buys unless set),
``rollout`` (``rollout:K``: before each optional draw, K rollouts of the rest of the current turn
under "stop once T ≥ ``stop-at``" from the draw pile's counts, valued by the same value model as
``exact`` (``card``, ``token``, ``bust``, ``opp``); it draws when their mean beats stopping now.
Only the current turn is rolled out, with that simple base policy: a rollout of the whole game
would need the engine to call itself, which Numba does not compile; see
``kernels/ten/whole_rollout.py``).
Knobs every bot takes: ``reward`` (value | numbers | currency | random), ``bid`` and ``buy``
(value | never | random), ``tokens-per-point`` (what a point of score is worth in tokens),
``card-bonus`` (points per number card of a type not owned yet, for future runs),
``opp-weight`` (points lost per token an opponent gains), ``min-gain`` (least points per token
for a buy), ``pay-with-cards`` (bots may spend collection cards).
Bands (``threshold`` only): ``band-by`` (none | deck: the cards left in the draw pile | tokens:
the currency tokens you hold), ``cut-1``, ``cut-2``, ``stop-at-2``, ``stop-at-3``: stop once
T ≥ ``stop-at`` while the feature is below ``cut-1``, ``stop-at-2`` from ``cut-1`` on,
``stop-at-3`` from ``cut-2`` on (``cut-2`` 0: two bands), e.g.
``threshold:stop-at=6:band-by=deck:cut-1=20:stop-at-2=8`` draws to T ≥ 8 while 20 or more cards
are left and to T ≥ 6 after.
Decision lists (``table`` only; ``analyzer/games/ten/draw_table.py``): ``if-1``, ``if-2``,
``if-3`` (conditions ``FEATURE<=V`` or ``FEATURE>=V`` on T, C, cards, deck, tokens, busts),
``then-1``..``then-3`` (draw | stop) and ``otherwise`` (draw | stop): the first condition that
holds decides, e.g. ``table:if-1=tokens>=8:then-1=stop:if-2=T>=7:then-2=stop:otherwise=draw``.
The :class:`Bot` fields are the knobs in snake_case (``stop-at`` → ``stop_at``).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from analyzer.errors import UserError

RULE_CHOICES = {"reward": ("value", "numbers", "currency", "random"),
                "bid": ("value", "never", "random"), "buy": ("value", "never", "random"),
                "band_by": ("none", "deck", "tokens"), "otherwise": ("draw", "stop")}


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
    iters: int = 400
    ms: float = 0.0
    arms: int = 6
    search_draws: bool = True
    search_bids: bool = True
    search_buys: bool = True

    @property
    def label(self) -> str:
        base = Bot(name=self.name, **({"reward": "random", "bid": "random", "buy": "random"}
                                      if self.name == "random" else {}))
        knobs = [f"{f.name.replace('_', '-')}={_word(getattr(self, f.name))}"
                 for f in dataclasses.fields(self)
                 if f.name != "name" and getattr(self, f.name) != getattr(base, f.name)]
        return self.name + "".join(":" + k for k in knobs)

    def value_model(self):
        from analyzer.games.ten.rules import ValueModel

        return ValueModel(self.card, self.token, self.bust, self.opp)


def _word(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return f"{v:g}" if isinstance(v, float) else str(v)


#: The allowed range of every number knob, by :class:`Bot` field (declared with :func:`knob`).
_RANGE = {f.name: f.metadata["range"] for f in dataclasses.fields(Bot) if "range" in f.metadata}


def _field(knob: str) -> str:
    """The :class:`Bot` field of a knob (``stop-at`` → ``stop_at``)."""
    return knob.replace("-", "_")


def _clause(text: str, where: str) -> str:
    from analyzer.games.ten.draw_table import parse_clause

    parse_clause(text, where)
    return text.replace(" ", "")


def _family():
    from analyzer.botspec import Bot as Kind, Family, Knob

    d = Bot()
    common = ("reward", "bid", "buy", "tokens-per-point", "card-bonus", "opp-weight", "min-gain",
              "pay-with-cards")
    value = ("card", "token", "bust", "opp")
    bands = ("band-by", "cut-1", "cut-2", "stop-at-2", "stop-at-3")
    table = tuple(k for i in (1, 2, 3) for k in (f"if-{i}", f"then-{i}")) + ("otherwise",)

    def num(k, kind, help_=""):  # a number knob, its range from the Bot field (knob())
        low, high = _RANGE[_field(k)]
        return Knob(k, kind, getattr(d, _field(k)), help_, low, high)

    knobs = [num("stop-at", "int", "stop once T ≥ this"),
             num("after", "int", "stop once the tableau holds this many cards"),
             num("draw-chance", "float", "chance to draw"),
             *(num(k, "float") for k in value),
             Knob("reward", "word", d.reward, words=RULE_CHOICES["reward"]),
             Knob("bid", "word", d.bid, words=RULE_CHOICES["bid"]),
             Knob("buy", "word", d.buy, words=RULE_CHOICES["buy"]),
             num("tokens-per-point", "float"),
             num("card-bonus", "float"),
             num("opp-weight", "float"),
             num("min-gain", "float"),
             Knob("pay-with-cards", "bool", d.pay_with_cards),
             num("rollouts", "int"),
             Knob("band-by", "word", d.band_by, words=RULE_CHOICES["band_by"]),
             num("cut-1", "int"),
             num("cut-2", "int"),
             num("stop-at-2", "int"),
             num("stop-at-3", "int"),
             *(Knob(f"if-{i}", "text", "", check=_clause) for i in (1, 2, 3)),
             *(Knob(f"then-{i}", "word", "", words=ACTS) for i in (1, 2, 3)),
             Knob("otherwise", "word", d.otherwise, words=ACTS)]
    search = [Knob("iters", "int", d.iters, "playouts per decision (0: no cap, with ms)", 0,
                   1_000_000),
              Knob("ms", "float", d.ms, "CPU milliseconds per decision (0: no time budget; "
                   "with a budget the games depend on the machine's speed and load, so a seed "
                   "no longer fixes them: iters does)", 0,
                   600_000),
              Knob("arms", "int", d.arms, "most buys or bid levels raced per decision", 2, 16),
              Knob("search-draws", "bool", d.search_draws, "search draw checks (no: threshold)"),
              Knob("search-bids", "bool", d.search_bids, "search bids (no: the bid knob)"),
              Knob("search-buys", "bool", d.search_buys, "search buys (no: the buy knob)")]
    rnd = {"reward": "random", "bid": "random", "buy": "random"}
    return Family("ten", [
        Kind("threshold", "stop once T ≥ stop-at", ("stop-at", *bands, *common), ("stop-at",)),
        Kind("cards", "stop once the tableau holds `after` cards", ("after", *common),
             ("after",)),
        Kind("exact", "the exact one-turn policy of `ten best` under card/token/bust/opp",
             (*value, *common)),
        Kind("random", "draw with chance draw-chance; random rewards, bids and buys unless set",
             ("draw-chance", *common), defaults=rnd),
        Kind("rollout", "K rollouts of the rest of the current turn under 'stop once T ≥ "
             "stop-at', valued by card/token/bust/opp", ("rollouts", "stop-at", *value, *common),
             ("rollouts",)),
        Kind("table", "a decision list: the first if-K=FEATURE<=V (or >=V) that holds decides "
             "then-K=draw|stop, else otherwise", (*table, *common)),
        Kind("search", "playouts of the rest of the game (threshold bots) for every choice, "
             "raced by sequential halving: iters playouts or ms of CPU per decision, at most "
             "`arms` buys or bid levels", ("iters", "ms", "arms", "search-draws", "search-bids",
                                          "search-buys", "stop-at", *bands, *common),
             ("iters",))], knobs + search)


ACTS = ("draw", "stop")
#: The whole-game bots as the shared parser reads them (``--seats``, ``--vs``).
BOTS = _family()


def bot_from_spec(spec) -> Bot:
    """The :class:`Bot` of a parsed spec other than ``rule:FILE`` (lineup.py reads those)."""
    kind = BOTS.bots[spec.name]
    vals = {_field(k): spec[k] for k in (*kind.knobs, *kind.positional)}
    if spec.name == "search" and "ms" in spec.given and "iters" not in spec.given:
        vals["iters"] = 0  # a time budget alone: no cap on the playouts
    bot = Bot(name=spec.name, **vals)
    _validate(spec.text, bot)
    return bot


def _plain():
    from analyzer.botspec import Reader

    return Reader(BOTS.without_rule(), bot_from_spec)


#: Bots named by their knobs (``threshold:stop-at=8``; no ``rule:FILE``): the package's own.
_PLAIN = _plain()


def plain_bot(text: str) -> Bot:
    return _PLAIN.one(text, "bot")


def plain_seats(text: str, players: int) -> list[Bot]:
    return _PLAIN.seats(text, players, "bots")


def _validate(t, b: Bot) -> None:
    for f in dataclasses.fields(Bot):  # a Bot built directly (not parsed) is checked too
        if "range" in f.metadata:
            low, high = f.metadata["range"]
            if not low <= getattr(b, f.name) <= high:
                raise UserError(f"bot '{t}': {f.name.replace('_', '-')} must be "
                                f"{low:g}..{high:g}, got {getattr(b, f.name):g}")
    checks = [(b.band_by == "none" or 1 <= b.cut_1 <= 200, "band-by needs cut-1 in 1..200"),
              (b.cut_2 == 0 or b.cut_1 < b.cut_2 <= 200, "cut-2 must be 0 (two bands) or "
               "above cut-1 (at most 200)")]
    if b.name == "search":
        import time  # the clock of kernels/ten/search_clock.py

        checks += [(b.iters > 0 or b.ms > 0, "search needs a budget: iters > 0 or ms > 0"),
                   (b.ms == 0 or hasattr(time, "CLOCK_THREAD_CPUTIME_ID"),
                    "ms needs a per-thread CPU clock, which this platform lacks; give iters")]
    for ok, msg in checks:
        if not ok:
            raise UserError(f"bot '{t}': {msg}")
    if b.name == "table":
        from analyzer.games.ten.draw_table import bot_rule

        bot_rule(b, f"bot '{t}'")


def bot_rows(bots: list[Bot], tables: dict, search: bool = False) -> np.ndarray:
    """float64[P, NB] rows for the kernel; ``tables`` maps a value model to its table index.
    A ``search`` bot's row is only for the search kernels (kernels/ten/search_game.py), which
    the caller says with ``search``; the engine alone would not know its draw rule."""
    from kernels.ten import whole_layout as L
    from kernels.ten.search_root import (D_SEARCH, S_ARMS, S_BIDS, S_BUYS, S_DRAWS, S_ITERS,
                                         S_MS)

    if not search and any(b.name == "search" for b in bots):
        raise UserError("search bots play in `ten game` and `ten decide` (and their line-ups "
                        "elsewhere); this command does not take them")

    rows = np.zeros((len(bots), L.NB), dtype=np.float64)
    wmap = {"value": L.W_VALUE, "numbers": L.W_NUMBERS, "currency": L.W_CURRENCY,
            "random": L.W_RANDOM}
    amap = {"value": L.A_VALUE, "never": L.A_NEVER, "random": L.A_RANDOM}
    for p, b in enumerate(bots):
        r = rows[p]
        r[L.B_DRAW] = {"threshold": L.D_TOTAL, "cards": L.D_CARDS, "exact": L.D_EXACT,
                       "random": L.D_RANDOM, "rollout": L.D_ROLLOUT, "table": L.D_TABLE,
                       "search": D_SEARCH}[b.name]
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
        if b.name == "search":
            r[S_ITERS], r[S_MS], r[S_ARMS] = b.iters, b.ms, b.arms
            r[S_DRAWS], r[S_BIDS], r[S_BUYS] = b.search_draws, b.search_bids, b.search_buys
        if b.name == "table":
            from analyzer.games.ten.draw_table import table_rows

            tab = table_rows(b)
            r[L.B_NROWS] = len(tab)
            r[L.B_ROWS:L.B_ROWS + L.TROW * len(tab)] = [x for row in tab for x in row]
    return rows
