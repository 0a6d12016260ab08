"""Ten game positions: the TOML format of `ten decide`, its checks, and scripted games.

A position (``pushluck ten position --template`` prints a commented one; the shipped examples
are ``analyzer/data/ten_position_*example.toml``); seats are numbered from 1::

    players = 4          # 1..5
    active = 1           # whose turn it is (the seat deciding; `me` defaults to it)
    me = 1               # the seat whose chance of winning is reported
    tableau = "r5,$2"    # the active player's face-up tableau this turn (no wilds)
    market = "g4,o2"     # number cards in the market
    out = "$3,b#"        # cards out of the game: discarded currency, discarded or spent cards
    seats = "threshold"  # bots that play the rest of the game (as --seats; optional)
    phase = "draw"       # "draw" (default): draw or stop; "buy": the active player took the
                         # numbers and may buy one market card (the tableau is empty);
                         # "auction": the active player drew `wild`; the next seat to bid bids;
                         # "final": the final buy round (the draw pile is empty): the active
                         # seat may buy one market card, then the seats of `buyers`
    wild = "r#"          # the wild being auctioned (phase = "auction" only)
    bids = [0, 3]        # phase = "auction" only: what each seat did so far, in bidding order
                         # from the seat left of the active one (0: a pass, else its bid); the
                         # next seat in that order is the one to bid ([] nobody has bid yet)
    buyers = [3, 4]      # phase = "final" only: the seats still to buy after the active one,
                         # in order (clockwise from it; [] when it buys last)

    [[player]]           # one table per seat, in seat order
    collection = "r1,r2,r3,b#"
    tokens = 5           # currency tokens (0..token_cap)
    bust_tokens = 0

Every card not listed is in the draw pile (unseen); a playout shuffles them (determinization).

The final buy round (rules page: once the last card is drawn and that turn is over, every seat
from the one left of the last player buys once more, the last player last with the rules key
``final_buy_last``): phase "final" lists no unseen card (every card is listed somewhere) and no
tableau; the active seat is the one buying now and ``buyers`` the seats after it that still
buy, which are the next seats clockwise (the round goes round the table once).
The seat whose move is chosen is the active seat (phases "draw" and "buy") or the seat to bid
(phase "auction"); ``me`` defaults to it.

An auction (rules page: bidding starts left of the active player and goes clockwise, the active
player bids last, one chance each) is recorded by ``bids``: with P players and active seat a the
bidding order is a + 1, a + 2, …, a (seats mod P); ``bids[i]`` is what the i-th seat of that
order did, and the seat after the last entry bids now. A bid must beat the bid before it (else it
is refused in one line: a bid at or below the current one is not a bid), must be at least 1 and,
with ``bid_within_means``, at most what its bidder can pay (tokens + bust tokens × their value +
collection cards). :func:`auction_state` reads it.

Refused with one line: more copies of a card than the deck holds (wherever they are listed), a
currency card in a collection or the market, a wild in the tableau or the market, tokens above
the cap or beyond the supply, a tableau that has already busted, an empty draw pile with the
turn still open, a buy phase with a tableau, an auction without a wild or without ``bids`` (or
a wild or bids elsewhere in phase "draw"/"buy"), bids as above, unknown keys.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass


from analyzer.errors import UserError
from analyzer.games.ten.rules import parse_cards
from analyzer.seats import seat_number
from analyzer.games.ten.cards import CODES, NTYPES, TYPE_OF, counts_of, codes_of
from analyzer.typecheck import need_table, need_text

KEYS = {"players", "active", "me", "tableau", "market", "out", "seats", "player", "phase",
        "wild", "bids", "buyers"}
PHASES = ("draw", "buy", "auction", "final")
PLAYER_KEYS = {"collection", "tokens", "bust_tokens"}


@dataclass
class State:
    """Card rows int64[9, 55] and tokens int64[NTK] in the kernel layout, plus the pile."""

    cards: np.ndarray
    tk: np.ndarray
    pile: np.ndarray  # int8 card types
    deck: np.ndarray
    players: int
    active: int


def build_state(rules, players: int, pile: list[str], collections=None, tokens=None,
                busts=None, market=(), out=(), tableau=(), active: int = 0,
                deck: np.ndarray | None = None) -> State:
    """Kernel arrays for a given situation (codes already valid). The whole game's deck is
    ``deck`` or, for scripted games, exactly the cards listed."""
    import numpy as np  # here, not at import: a bad position file fails before numpy loads

    from kernels.ten import whole_layout as L

    cards = np.zeros((9, NTYPES), dtype=np.int64)
    for q, coll in enumerate(collections or []):
        cards[q] = counts_of(coll)
    cards[L.ROW_MARKET] = counts_of(market)
    cards[L.ROW_OUT] = counts_of(out)
    cards[L.ROW_PILE] = counts_of(pile)
    cards[L.ROW_TABLEAU] = counts_of(tableau)
    tk = np.zeros(L.NTK, dtype=np.int64)
    tk[L.TK_SCORE:L.TK_SCORE + 5] = -1
    tokens = list(tokens) if tokens is not None else [rules.start_tokens] * players
    busts = list(busts) if busts is not None else [0] * players
    tk[:players] = tokens
    tk[5:5 + players] = busts
    tk[L.TK_SUP] = rules.currency_tokens - sum(tokens)
    tk[L.TK_BSUP] = rules.bust_tokens - sum(busts)
    if tk[L.TK_SUP] < 0 or tk[L.TK_BSUP] < 0:
        raise UserError(f"the players hold {sum(tokens)} currency and {sum(busts)} bust tokens; "
                        f"the game has {rules.currency_tokens} and {rules.bust_tokens}")
    whole = cards.sum(axis=0) if deck is None else deck
    return State(cards, tk, np.array([TYPE_OF[c] for c in pile], dtype=np.int8), whole,
                 players, active)


def scripted_game(rules, bots, pile: str, active: int = 0, collections=None, tokens=None,
                  busts=None, market: str = "", forced: str | int | None = None, seed: int = 0,
                  wild: str | None = None):
    """Play ``pile`` (cards in draw order) to the end of the game from the given situation with
    the given bots (one per seat): a step function for rule tests. ``forced``: the active
    player's first choice ("draw", "numbers", "currency" or a kernel code such as
    ``whole_layout.bid_code(...)``, with the auctioned ``wild``). Returns the final state."""
    import numpy as np

    from analyzer.games.ten.bots import bot_rows
    from analyzer.games.ten.whole import score_tables
    from kernels.ten import whole_layout as L
    from kernels.ten.whole_engine import play_game
    from kernels.ten.whole_score import WS_SIZE

    P = len(bots)
    colls = [[c.code for c in parse_cards(x)] for x in (collections or [""] * P)]
    st = build_state(rules, P, [c.code for c in parse_cards(pile)], colls, tokens, busts,
                     [c.code for c in parse_cards(market)], active=active)
    if wild:  # the wild being auctioned (forced = bid_code): part of the game, in no row yet
        st.deck[TYPE_OF[wild]] += 1
    rec = np.zeros(L.NREC, dtype=np.float64)
    s = np.array([seed + 1, 2, 3, 4], dtype=np.uint64)
    f = forced if isinstance(forced, int) else {None: L.F_NONE, "draw": L.F_DRAW,
                                                 "numbers": L.F_NUMBERS,
                                                 "currency": L.F_CURRENCY}[forced]
    last = play_game(st.pile, 0, active, f, P, st.cards, st.tk, rules.kernel_array(P, True),
                     bot_rows(bots, {}), s, score_tables(rules.full_run_points),
                     np.zeros(WS_SIZE, dtype=np.int64),
                     np.zeros((1, 1, 1, 1), dtype=np.uint8), np.zeros((1, 9), dtype=np.int32),
                     np.zeros((1, 5), dtype=np.int32), st.deck, rec)
    return {"collections": [Counter(codes_of(st.cards[q])) for q in range(P)],
            "tokens": [int(x) for x in st.tk[:P]], "busts": [int(x) for x in st.tk[5:5 + P]],
            "market": Counter(codes_of(st.cards[L.ROW_MARKET])),
            "out": Counter(codes_of(st.cards[L.ROW_OUT])),
            "supply": int(st.tk[L.TK_SUP]), "bust_supply": int(st.tk[L.TK_BSUP]),
            "last_player": int(last),
            "record": {n: float(rec[i]) for i, n in enumerate(L.REC_NAMES)}}


@dataclass(frozen=True)
class Auction:
    """A position's auction (seats from 0; module doc): the bids so far in bidding order (0: a
    pass), the current bid ``cur`` and its bidder ``high`` (−1: nobody yet), the seat to bid
    ``to_bid``, which is the ``first``-th seat left of the active one (the active seat, last, is
    the P-th), and the whole bidding ``order``."""

    bids: tuple
    cur: int
    high: int
    to_bid: int
    first: int
    order: tuple

    @property
    def later(self) -> tuple:
        """The seats that bid after ``to_bid``."""
        return self.order[self.first:]

    def to_json(self) -> dict:
        """The auction state with seats from 1."""
        return {"order": [q + 1 for q in self.order],
                "bids": [{"seat": q + 1, "bid": b} for q, b in zip(self.order, self.bids)],
                "current_bid": self.cur, "high_bidder": self.high + 1 if self.high >= 0 else None,
                "to_bid": self.to_bid + 1, "later": [q + 1 for q in self.later]}


def auction_state(bids, active: int, players: int, means, within_means: bool,
                  where: str) -> Auction:
    """Check a position's ``bids`` (module doc) and return the auction state; ``means[q]`` is
    what seat q can pay (seats from 0)."""
    if not isinstance(bids, list) or any(isinstance(b, bool) or not isinstance(b, int)
                                         for b in bids):
        raise UserError(f"{where}: 'bids' must be a list of integers (0 for a pass), e.g. "
                        "bids = [0, 3]")
    order = tuple((active + i) % players for i in range(1, players + 1))
    if len(bids) >= players:
        raise UserError(f"{where}: 'bids' lists {len(bids)} bids but at most {players - 1} "
                        f"come before the active seat {active + 1} (who bids last)")
    cur, high = 0, -1
    for q, b in zip(order, bids):
        if b < 0:
            raise UserError(f"{where}: 'bids': seat {q + 1} bid {b}: a bid is ≥ 1 (0 is a pass)")
        if b == 0:
            continue
        if b <= cur:
            raise UserError(f"{where}: 'bids': seat {q + 1} bid {b}, not above the current bid "
                            f"{cur} (seat {high + 1}): a bid must beat it (0 for a pass)")
        if within_means and b > means[q]:
            raise UserError(f"{where}: 'bids': seat {q + 1} bid {b} but can pay only {means[q]} "
                            f"(rule bid_within_means)")
        cur, high = b, q
    first = len(bids) + 1
    return Auction(tuple(bids), cur, high, order[first - 1], first, order)


@dataclass
class Position:
    """A checked position; ``active`` and ``me`` are seat indices from 0 (the file's minus 1)."""

    players: int
    active: int
    me: int
    state: State
    seats: str | None
    tableau: list
    phase: str = "draw"
    wild: str | None = None
    auction: Auction | None = None
    buyers: tuple = ()  # phase "final": the seats that buy after the active one (from 0)

    @property
    def deciding(self) -> int:
        """The seat whose move is chosen: the seat to bid in an auction, else the active one."""
        return self.auction.to_bid if self.auction is not None else self.active


def _codes(data, key, where):
    v = data.get(key, "")
    if not isinstance(v, str):
        raise UserError(f"{where}: '{key}' must be a string of cards like \"r5,$2\"")
    return [c.code for c in parse_cards(v, f"{where} '{key}'")]


def _int(data, key, default, lo, hi, where):
    v = data.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise UserError(f"{where}: '{key}' must be an integer {lo}..{hi} (got {v!r})")
    return v


def load_position(path, rules, spec) -> Position:
    """Read and check a position file (module doc)."""
    from analyzer.rules import load_toml

    return check_position(load_toml(path), str(path), rules, spec)


def check_position(data: dict, where: str, rules, spec) -> Position:
    """Check a position given as the file's data (module doc; ``where`` names it in errors)."""
    from analyzer.games.ten.rules import deck_counts

    for k in data:
        if k not in KEYS:
            raise UserError(f"{where}: unknown key '{k}' (known: {', '.join(sorted(KEYS))})")
    P = _int(data, "players", None, 1, 5, where)
    active = seat_number(data.get("active", 1), f"{where}: 'active'", P)
    plist = data.get("player", [])
    if not isinstance(plist, list) or len(plist) != P:
        raise UserError(f"{where}: give one [[player]] table per seat ({P}), got "
                        f"{len(plist) if isinstance(plist, list) else 'none'}")
    colls, toks, busts = [], [], []
    for q, pd in enumerate(plist):
        w = f"{where} player {q + 1}"
        need_table(pd, f"{w}: [[player]]")
        for k in pd:
            if k not in PLAYER_KEYS:
                raise UserError(f"{w}: unknown key '{k}' (known: collection, tokens, bust_tokens)")
        coll = _codes(pd, "collection", w)
        for c in coll:
            if TYPE_OF[c] in range(36, 41):
                raise UserError(f"{w}: '{c}' is a currency card: collections hold number cards "
                                f"and wilds only")
        colls.append(coll)
        t = pd.get("tokens", rules.start_tokens)
        if isinstance(t, bool) or not isinstance(t, int) or t < 0:
            raise UserError(f"{w}: 'tokens' must be an integer ≥ 0 (got {t!r})")
        if t > rules.token_cap:
            raise UserError(f"{w}: {t} currency tokens is above the cap of {rules.token_cap}")
        toks.append(t)
        busts.append(_int(pd, "bust_tokens", 0, 0, rules.bust_tokens, w))
    market = _codes(data, "market", where)
    for c in market:
        if TYPE_OF[c] >= 36:
            raise UserError(f"{where}: '{c}' cannot be in the market (number cards only)")
    tableau = _codes(data, "tableau", where)
    for c in tableau:
        if TYPE_OF[c] >= 41:
            raise UserError(f"{where}: '{c}' is a wild: wilds never enter the tableau")
    N = sum(TYPE_OF[c] % 9 + 1 for c in tableau if TYPE_OF[c] < 36)
    C = sum(TYPE_OF[c] - 35 for c in tableau if 36 <= TYPE_OF[c] < 41)
    if C >= rules.currency_bust_at:
        raise UserError(f"the tableau has already busted: currency C = {C} ≥ "
                        f"{rules.currency_bust_at}")
    if N - C >= rules.bust_at:
        raise UserError(f"the tableau has already busted: T = N − C = {N - C} ≥ {rules.bust_at}")
    out = _codes(data, "out", where)
    phase = need_text(data.get("phase", "draw"), f"{where}: 'phase'")
    if phase not in PHASES:
        raise UserError(f"{where}: 'phase' must be one of {', '.join(PHASES)} (got {phase!r})")
    wild = _codes(data, "wild", where)
    if phase == "auction":
        if len(wild) != 1 or TYPE_OF[wild[0]] < 41:
            raise UserError(f"{where}: phase \"auction\" needs 'wild', one wild card like \"r#\"")
    elif wild:
        raise UserError(f"{where}: 'wild' is only for phase \"auction\"")
    if phase in ("buy", "final") and tableau:
        raise UserError(f"{where}: in phase \"{phase}\" no turn is open: the tableau must be "
                        f"empty")
    auction = None
    if phase == "auction":
        if "bids" not in data:
            raise UserError(f"{where}: phase \"auction\" needs 'bids': what the seats before "
                            f"the one to bid did, from the seat left of the active one (0 for a "
                            f"pass), e.g. bids = [] when nobody has bid yet")
        means = [toks[q] + rules.bust_token_value * busts[q] + len(colls[q]) for q in range(P)]
        auction = auction_state(data["bids"], active, P, means, rules.bid_within_means, where)
    elif "bids" in data:
        raise UserError(f"{where}: 'bids' is only for phase \"auction\"")
    buyers = final_buyers(data, phase, active, P, where)
    deciding = auction.to_bid if auction is not None else active
    me = seat_number(data.get("me", deciding + 1), f"{where}: 'me'", P)
    deck = deck_counts(rules.turn_rules(), spec, P)
    listed = Counter(market) + Counter(tableau) + Counter(out) + Counter(wild)
    for cl in colls:
        listed += Counter(cl)
    for code, k in sorted(listed.items()):
        if k > deck.get(code, 0):
            places = [n for n, lst in [("market", market), ("tableau", tableau), ("out", out),
                                       ("wild", wild)]
                      + [(f"player {q + 1}", colls[q]) for q in range(P)] if code in lst]
            raise UserError(f"card '{code}' is listed {k} times ({', '.join(places)}) but the "
                            f"deck holds {deck.get(code, 0)}")
    pile = [c for c, k in sorted((deck - listed).items(), key=lambda x: TYPE_OF[x[0]])
            for _ in range(k)]
    if not pile and tableau and phase == "draw":
        raise UserError("the draw pile is empty: the turn is over (no choice left)")
    if phase == "final" and pile:
        raise UserError(f"{where}: phase \"final\" is the final buy round, with the draw pile "
                        f"empty, but {len(pile)} cards of the deck are not listed")
    whole = counts_of([c for c, k in deck.items() for _ in range(k)])
    st = build_state(rules, P, pile, colls, toks, busts, market, out, tableau, active, whole)
    seats = data.get("seats")
    if seats is not None and not isinstance(seats, str):
        raise UserError(f"{where}: 'seats' must be a string like \"threshold,random\"")
    return Position(P, active, me, st, seats, tableau, phase, wild[0] if wild else None,
                    auction, buyers)


def final_buyers(data: dict, phase: str, active: int, players: int, where: str) -> tuple:
    """The seats (from 0) of a final-round position's ``buyers`` (module doc): the next seats
    clockwise after the active one, each once."""
    if phase != "final":
        if "buyers" in data:
            raise UserError(f"{where}: 'buyers' is only for phase \"final\"")
        return ()
    raw = data.get("buyers")
    if raw is None:
        raise UserError(f"{where}: phase \"final\" needs 'buyers': the seats still to buy "
                        f"after the active one, in order (e.g. buyers = [] when it buys last)")
    if not isinstance(raw, list) or any(isinstance(b, bool) or not isinstance(b, int)
                                        for b in raw):
        raise UserError(f"{where}: 'buyers' must be a list of seats, e.g. buyers = [3, 4]")
    after = [(active + i) % players + 1 for i in range(1, players)]
    if raw != after[:len(raw)]:
        raise UserError(f"{where}: 'buyers' {raw}: the final buy round goes once round the "
                        f"table, clockwise: the seats still to buy after the active seat "
                        f"{active + 1} are the first ones of {after}")
    return tuple(b - 1 for b in raw)


__all__ = ["CODES", "Auction", "Position", "State", "auction_state", "build_state",
           "check_position", "load_position", "scripted_game"]
