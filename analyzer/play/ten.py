"""Ten at the table: the entry language, the table's state, and the position in the
``ten decide`` format (analyzer/games/ten/position.py).

Everything in Ten is public except the order of the draw pile, so the state is the whole table:
the active player's tableau, every collection, currency and bust tokens, the market, the cards
out of the game, and a wild being auctioned. Entries (``@N`` first: seat N did it; else the
active seat; cards as the rules page writes them: r5, $3, r#, *5, **)::

    draw r5              the active seat drew this card: into the tableau (a bust ends the
                         turn: a bust token, and on a number bust the others gain C tokens),
                         or, a wild, to auction
    numbers              stop and take the numbers: they join the collection, every other
                         seat gains C tokens (clockwise, to the cap and while the supply lasts),
                         the currency cards go out; then the buy phase
    currency             stop and take the currency: C tokens; the numbers go to the market
    bid 3 | pass         the auction of a drawn wild, bid by bid as at the table: the seat
                         to bid (from the one left of the active seat, clockwise, the active
                         seat last; ``@N`` may name it, it must be that seat) bids 3 or passes;
                         a bid must beat the current bid, be at least 1 and (rules key
                         bid_within_means) at most what the bidder can pay: tokens + bust
                         tokens x their value + collection cards. After the active seat's
                         turn to bid the auction resolves: the high bidder pays, or, every
                         seat having passed, the wild is discarded (all_pass = active-free:
                         the active seat takes it free)
    pay [4t] [1b] [CARD…] the auction's winner pays its bid: currency tokens, bust tokens and
                         cards of its collection (nothing named: the bid in currency tokens)
    won 3 4t 1b r2       shortcut for a whole auction, before any bid: the wild goes to seat
                         3, who paid 4 currency tokens, 1 bust token and its r2 (at least 1
                         in all: an opening bid is at least 1); the saved position then has
                         no bids to record
    nobody               shortcut before any bid: every seat passes
    buy g4 [4t] [1b] [CARD…]  buy a market card, paying its value (default: that many tokens)
    end                  the turn ends (after a bust, a reward, or the buy phase); in the
                         final buy round: this seat buys nothing

When a turn ends with the draw pile empty, the final buy round follows: every seat in turn from
the one after the last player may buy one market card (``buy``, or ``end`` for none), the last
player last (rules key final_buy_last = false: left out); then the game is over.

Payments: a bust token pays its value (3, no change); a collection card pays 1 (rules page:
"cards from your own collection (1 each)"); the paid total must reach the price. Spent cards leave the game (spent_cards = out)
or go to the market (market).

The position: in a draw phase the tableau; in the buy phase phase = "buy"; with a wild to
auction phase = "auction"; after a turn ended, the next seat's turn with an empty tableau.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from analyzer.errors import UserError
from analyzer.games.ten.cards import CUR0, CW0, TYPE_OF
from analyzer.games.ten.rules import TenRules, deck_counts, load_deck, parse_card
from analyzer.play.table import Table
from analyzer.play.toml_text import toml_text


@dataclass
class TenState:
    """``phase``: draw (the active seat's turn is open), auction (a wild drawn: ``bids`` so
    far in bidding order, 0 a pass), pay (the auction's high bidder ``payer`` pays ``price``),
    buy (numbers taken: one market card may be bought), over (the turn has ended: ``end``),
    final (the pile is empty: the final buy round, ``active`` the seat buying), done (the game
    is over)."""

    players: int
    tokens: list
    phase: str = "draw"
    active: int = 0
    tableau: list = field(default_factory=list)
    wild: str | None = None
    market: Counter = field(default_factory=Counter)
    out: Counter = field(default_factory=Counter)
    collections: list = field(default_factory=list)
    busts: list = field(default_factory=list)
    final: list = field(default_factory=list)  # seats still to buy in the final buy round
    drawn: bool = False  # the turn's first (compulsory) draw is done
    bids: list = field(default_factory=list)  # the auction's bids so far (0: a pass)
    payer: int = -1  # the auction's winner, who pays ``price`` (phase pay)
    price: int = 0

    def __post_init__(self):
        self.collections = self.collections or [[] for _ in range(self.players)]
        self.busts = self.busts or [0] * self.players


def value_of(code: str) -> int:
    """A number card's value, a currency card's value, 0 for a wild."""
    t = TYPE_OF[code]
    return t % 9 + 1 if t < 36 else t - CUR0 + 1 if t < CW0 else 0


class TenTable(Table):
    GAME = "ten"
    BARE = ("numbers", "currency", "nobody", "end", "pass")
    WORDS = {
        "draw": "draw CARD: the card the active seat drew",
        "numbers": "numbers: stop, take the numbers",
        "currency": "currency: stop, take the currency",
        "bid": "bid N: the seat to bid bids N (the auction of a drawn wild)",
        "pass": "pass: the seat to bid passes",
        "pay": "pay [Nt] [Nb] [CARD…]: the auction's winner pays its bid",
        "won": "won SEAT [Nt] [Nb] [CARD…]: a whole auction at once (before any bid)",
        "nobody": "nobody: every seat passes (before any bid)",
        "buy": "buy CARD [Nt] [Nb] [CARD…]: a market card bought",
        "end": "end: the turn ends",
    }
    VALUES = ()
    ACTIVE_ONLY = ("draw", "numbers", "currency", "end", "nobody")

    def __init__(self, players: int, me: int, rules: TenRules | None = None):
        if not 1 <= players <= 5:
            raise UserError(f"Ten is for 1-5 players, not {players}")
        self.rules = rules or TenRules()
        self.deck_spec = load_deck(None)
        self.deck = deck_counts(self.rules.turn_rules(), self.deck_spec, players)
        super().__init__(players, me)

    def start(self) -> TenState:
        return TenState(self.players, [self.rules.start_tokens] * self.players)

    # ---- counts
    def pile(self, s: TenState | None = None) -> Counter:
        """The cards not listed anywhere: the draw pile."""
        s = s or self.state
        listed = Counter(s.tableau) + s.market + s.out
        for c in s.collections:
            listed += Counter(c)
        if s.wild:
            listed[s.wild] += 1
        return self.deck - listed

    def supply(self, s: TenState) -> int:
        return self.rules.currency_tokens - sum(s.tokens)

    def totals(self, s: TenState) -> tuple[int, int]:
        """(N, C): the tableau's numbers and currency."""
        n = sum(value_of(c) for c in s.tableau if TYPE_OF[c] < 36)
        return n, sum(value_of(c) for c in s.tableau if TYPE_OF[c] >= 36)

    def gain(self, s: TenState, q: int, amount: int) -> int:
        """Seat q gains up to ``amount`` tokens: to the cap, while the supply lasts."""
        g = max(0, min(amount, self.rules.token_cap - s.tokens[q], self.supply(s)))
        s.tokens[q] += g
        return g

    # ---- entries
    def apply(self, s: TenState, words: list[str], seat: int | None) -> str:
        verb, args = words[0], words[1:]
        if verb in ("bid", "pass"):
            self._need(s, "auction", verb)
            q = self.to_bid(s)
            if seat is not None and seat != q:
                raise UserError(f"{verb}: seat {q + 1} bids now, not seat {seat + 1}")
            return self._bid(s, q, verb, args)
        if verb == "pay":
            self._need(s, "pay", verb)
            if seat is not None and seat != s.payer:
                raise UserError(f"pay: seat {s.payer + 1} won the auction, not seat {seat + 1}")
            return self._paid(s, args)
        return self.dispatch(s, words, seat)

    def _need(self, s: TenState, phase: str, verb: str) -> None:
        if s.phase in ("final", "done") and phase != s.phase:
            raise UserError(f"{verb}: the pile is empty: " + (
                "the final buy round (buy CARD, or end for none)" if s.phase == "final" else
                "the game is over"))
        if s.phase == "pay" and phase != "pay":
            raise UserError(f"{verb}: seat {s.payer + 1} won the wild at {s.price}: it pays "
                            f"first (pay [Nt] [Nb] [CARD…])")
        if s.phase != phase:
            what = {"draw": "the turn is not open (end it first)" if s.phase == "over" else
                    f"finish the {s.phase} first",
                    "auction": "no wild is being auctioned",
                    "pay": "no auction is won",
                    "buy": "buying follows taking the numbers"}[phase]
            raise UserError(f"{verb}: {what}")

    def _card(self, text: str, verb: str) -> str:
        return parse_card(text).code

    def _draw(self, s, who, args):
        self._need(s, "draw", "draw")
        if len(args) != 1:
            raise UserError("draw: name the card drawn, e.g. draw r5")
        c = self._card(args[0], "draw")
        if self.pile(s)[c] < 1:
            raise UserError(f"draw: no {c} is left in the draw pile")
        s.drawn = True
        if TYPE_OF[c] >= CW0:
            if not self.rules.auctions:
                s.out[c] += 1
                return f"seat {who + 1} drew {c}: discarded (auctions = false)"
            s.wild, s.phase = c, "auction"
            return (f"seat {who + 1} drew {c}: to auction; seat {self.to_bid(s) + 1} bids "
                    f"first (bid N or pass)")
        s.tableau.append(c)
        n, cur = self.totals(s)
        if cur >= self.rules.currency_bust_at:
            return self._bust(s, who, 0, f"currency bust (C = {cur})")
        if n - cur >= self.rules.bust_at:
            return self._bust(s, who, cur, f"number bust (T = {n - cur})")
        return f"seat {who + 1} drew {c}: N = {n}, C = {cur}, T = {n - cur}"

    def _gains_to_others(self, s: TenState, who: int, cur: int) -> None:
        if self.rules.token_gains:
            for i in range(1, self.players):
                self.gain(s, (who + i) % self.players, cur)

    def _clear_tableau(self, s: TenState) -> None:
        """Numbers left in the tableau go to the market, currency cards out of the game."""
        for c in s.tableau:
            (s.market if TYPE_OF[c] < 36 else s.out)[c] += 1
        s.tableau = []

    def _bust(self, s, who, cur, what):
        self._gains_to_others(s, who, cur)
        got = ""
        if sum(s.busts) < self.rules.bust_tokens:
            s.busts[who] += 1
            got = ", a bust token"
        self._clear_tableau(s)
        s.phase = "over"
        return f"seat {who + 1}: {what}{got}; the turn ends"

    def _stop(self, s, verb):
        self._need(s, "draw", verb)
        if not s.drawn:
            raise UserError(f"{verb}: the first draw of a turn is compulsory")
        return self.totals(s)[1]

    def _numbers(self, s, who, args):
        cur = self._stop(s, "numbers")
        taken = [c for c in s.tableau if TYPE_OF[c] < 36]
        s.collections[who] += taken
        s.tableau = [c for c in s.tableau if TYPE_OF[c] >= 36]
        self._gains_to_others(s, who, cur)
        self._clear_tableau(s)
        s.phase = "buy" if self.rules.buys else "over"
        return f"seat {who + 1} took the numbers {', '.join(taken) or 'none'}; others gain {cur}"

    def _currency(self, s, who, args):
        cur = self._stop(s, "currency")
        g = self.gain(s, who, cur) if self.rules.token_gains else 0
        self._clear_tableau(s)
        s.phase = "over"
        return f"seat {who + 1} took the currency: {g} tokens"

    def _pay(self, s: TenState, q: int, args: list[str], price: int, verb: str) -> str:
        """Seat q pays ``price`` with the parts named in ``args`` (Nt, Nb, cards of its
        collection); nothing named: ``price`` currency tokens."""
        t = b = 0
        cards = []
        for a in args or [f"{price}t"]:
            if a[:-1].isdigit() and a[-1] in "tb":
                if a[-1] == "t":
                    t += int(a[:-1])
                else:
                    b += int(a[:-1])
            else:
                cards.append(self._card(a, verb))
        if t > s.tokens[q]:
            raise UserError(f"{verb}: seat {q + 1} holds {s.tokens[q]} currency tokens, not {t}")
        if b > s.busts[q]:
            raise UserError(f"{verb}: seat {q + 1} holds {s.busts[q]} bust tokens, not {b}")
        have = Counter(s.collections[q])
        if Counter(cards) - have:
            raise UserError(f"{verb}: seat {q + 1}'s collection lacks "
                            f"{', '.join((Counter(cards) - have).elements())}")
        paid = t + self.rules.bust_token_value * b + len(cards)  # a card pays 1 (rules page)
        everything = (t, b, Counter(cards)) == (s.tokens[q], s.busts[q], have)
        short_ok = verb == "pay" and not self.rules.bid_within_means and everything
        if paid < price and not short_ok:
            raise UserError(f"{verb}: paid {paid}, the price is {price}" + (
                " (or pay everything: rule bid_within_means = false)"
                if verb == "pay" and not self.rules.bid_within_means else ""))
        s.tokens[q] -= t
        s.busts[q] -= b
        for c in cards:
            s.collections[q].remove(c)
            (s.market if self.rules.spent_cards == "market" else s.out)[c] += 1
        return f"paid {paid}"

    # ---- the auction, bid by bid
    def means(self, s: TenState, q: int) -> int:
        """What seat q can pay: currency tokens + bust tokens × their value + collection
        cards (a wild pays nothing but counts, as ``ten decide`` counts it)."""
        return s.tokens[q] + self.rules.bust_token_value * s.busts[q] + len(s.collections[q])

    def bidding_order(self, s: TenState) -> list[int]:
        """From the seat left of the active one, clockwise, the active seat last."""
        return [(s.active + i) % self.players for i in range(1, self.players + 1)]

    def to_bid(self, s: TenState) -> int:
        return self.bidding_order(s)[len(s.bids)]

    def high_bid(self, s: TenState) -> tuple[int, int]:
        """(current bid, its bidder), (0, −1) when nobody has bid."""
        cur, high = 0, -1
        for q, b in zip(self.bidding_order(s), s.bids):
            if b > cur:
                cur, high = b, q
        return cur, high

    def _bid(self, s, q, verb, args):
        if verb == "pass":
            s.bids.append(0)
            said = f"seat {q + 1} passes"
        else:
            if len(args) != 1 or not args[0].isdigit():
                raise UserError("bid: name the amount, e.g. bid 3 (pass to pass)")
            x = int(args[0])
            cur, high = self.high_bid(s)
            if x < 1:
                raise UserError("bid: a bid is at least 1 (pass to pass)")
            if x <= cur:
                raise UserError(f"bid: {x} does not beat the current bid {cur} (seat "
                                f"{high + 1})")
            if self.rules.bid_within_means and x > self.means(s, q):
                raise UserError(f"bid: seat {q + 1} can pay at most {self.means(s, q)} "
                                f"(rule bid_within_means)")
            s.bids.append(x)
            said = f"seat {q + 1} bids {x}"
        if len(s.bids) < self.players:
            return said + f"; seat {self.to_bid(s) + 1} to bid"
        cur, high = self.high_bid(s)
        if high < 0:
            return said + "; " + self._all_passed(s)
        s.phase, s.payer, s.price = "pay", high, cur
        return said + f"; seat {high + 1} wins {s.wild} at {cur}: pay [Nt] [Nb] [CARD…]"

    def _all_passed(self, s: TenState) -> str:
        wild = s.wild
        if self.rules.all_pass == "active-free":
            s.collections[s.active].append(wild)
            said = f"every seat passed: seat {s.active + 1} takes {wild} free"
        else:
            s.out[wild] += 1
            said = f"every seat passed: {wild} is discarded"
        self._auction_over(s)
        return said

    def _auction_over(self, s: TenState) -> None:
        s.wild, s.phase, s.bids, s.payer, s.price = None, "draw", [], -1, 0

    def _paid(self, s, args):
        q, wild = s.payer, s.wild
        paid = self._pay(s, q, args, s.price, "pay")
        s.collections[q].append(wild)
        self._auction_over(s)
        return f"seat {q + 1} took {wild}, {paid}"

    def _won(self, s, who, args):
        self._need(s, "auction", "won")
        if s.bids:
            raise UserError("won: the bidding has begun: go on with bid N / pass")
        if not args or not args[0].isdigit() or not 1 <= int(args[0]) <= self.players:
            raise UserError(f"won: name the seat that took the wild, 1..{self.players}")
        q = int(args[0]) - 1
        if len(args) == 1:
            raise UserError("won: name the payment, e.g. won 3 2t (a bid is at least 1; every "
                            "seat passing: nobody)")
        paid = self._pay(s, q, args[1:], 1, "won")
        s.collections[q].append(s.wild)
        said = f"seat {q + 1} took {s.wild}, {paid}"
        self._auction_over(s)
        return said

    def _nobody(self, s, who, args):
        self._need(s, "auction", "nobody")
        if s.bids:
            raise UserError("nobody: the bidding has begun: go on with bid N / pass")
        return self._all_passed(s)

    def _buy(self, s, who, args):
        if s.phase != "final":
            self._need(s, "buy", "buy")
        if who != s.active:
            raise UserError(f"buy: only the active seat ({s.active + 1}) buys now")
        if not args:
            raise UserError("buy: name the market card")
        c = self._card(args[0], "buy")
        if s.market[c] < 1:
            raise UserError(f"buy: no {c} in the market")
        if c in s.collections[who]:
            raise UserError(f"buy: seat {who + 1} already owns a {c}")
        paid = self._pay(s, who, args[1:], value_of(c), "buy")
        s.market[c] -= 1
        s.market += Counter()  # drop zero counts
        s.collections[who].append(c)
        if s.phase == "final":
            return self._next_buyer(s, f"seat {who + 1} bought {c}, {paid}")
        s.phase = "over"
        return f"seat {who + 1} bought {c}, {paid}"

    def _end(self, s, who, args):
        if s.phase == "final":
            return self._next_buyer(s, f"seat {who + 1} buys nothing")
        if s.phase == "done":
            raise UserError("end: the game is over")
        if s.phase == "pay":
            self._need(s, "over", "end")  # the winner pays first
        if s.phase not in ("over", "buy"):
            raise UserError("end: the turn is still open (draw, or stop: numbers / currency)"
                            if s.phase == "draw" else "end: the wild is still to auction")
        s.phase, s.tableau, s.drawn = "draw", [], False
        last = s.active
        s.active = (s.active + 1) % self.players
        if sum(self.pile(s).values()) == 0:
            s.final = self.final_order(last)
            if not s.final:
                s.phase = "done"
                return "the pile is empty: the game is over"
            s.phase = "final"
            s.active = s.final[0]
            return f"the pile is empty: the final buy round, seat {s.active + 1} first"
        return f"seat {s.active + 1}'s turn"

    def _next_buyer(self, s: TenState, said: str) -> str:
        s.final.pop(0)
        if not s.final:
            s.phase = "done"
            return said + "; the game is over"
        s.active = s.final[0]
        return said + f"; seat {s.active + 1} buys next"

    # ---- output
    def my_choice(self) -> bool:
        """My draw-or-stop (tableau not empty), my buy (a card I may buy), my bid (I am the
        seat to bid and may bid more than the current bid), my buy in the final round."""
        s = self.state
        if s.phase == "done":
            return False
        if s.phase == "auction":
            if self.to_bid(s) != self.me:
                return False
            return not self.rules.bid_within_means or \
                self.means(s, self.me) > self.high_bid(s)[0]
        if s.active != self.me:
            return False
        if s.phase == "draw":
            return bool(s.tableau) and sum(self.pile(s).values()) > 0
        if s.phase in ("buy", "final"):
            return any(k > 0 and c not in s.collections[self.me]
                       and value_of(c) <= self.means(s, self.me) for c, k in s.market.items())
        return False

    def final_order(self, last: int) -> list[int]:
        """The final buy round after seat ``last`` drew the last card: every seat from the one
        left of it, clockwise, ``last`` itself last (rules key final_buy_last; false: left
        out); nobody without buys."""
        if not self.rules.buys:
            return []
        order = [(last + i) % self.players for i in range(1, self.players + 1)]
        return order if self.rules.final_buy_last else order[:-1]

    def position(self, state: TenState | None = None) -> dict:
        """The position in the ``ten decide`` format. A finished turn is written as the start
        of the next seat's turn or, the pile empty, as the final buy round (phase "final",
        the seats still to buy in ``buyers``). While an auction's winner pays, the phase is
        "pay" (no ``decide`` phase: :meth:`save_refusal` says so)."""
        s = state or self.state
        phase, active, buyers = s.phase, s.active, None
        if phase == "over":
            if sum(self.pile(s).values()) == 0:
                order = self.final_order(s.active)
                phase, active, buyers = ("final", order[0], order[1:]) if order else \
                    ("done", s.active, None)
            else:
                phase, active = "draw", (s.active + 1) % self.players
        elif phase == "final":
            buyers = s.final[1:]
        codes = lambda cnt: ",".join(c for c in sorted(cnt, key=TYPE_OF.get)  # noqa: E731
                                     for _ in range(cnt[c]))
        out = {"players": self.players, "active": active + 1, "me": self.me + 1,
               "tableau": ",".join(s.tableau), "market": codes(s.market), "out": codes(s.out),
               "phase": phase}
        if phase in ("auction", "pay"):  # the bids so far: the seat after them bids now
            out["wild"] = s.wild
            out["bids"] = list(s.bids)
        if buyers is not None:
            out["buyers"] = [q + 1 for q in buyers]
        out["player"] = [{"collection": ",".join(s.collections[q]), "tokens": s.tokens[q],
                          "bust_tokens": s.busts[q]} for q in range(self.players)]
        return out

    def save_refusal(self) -> str | None:
        """Why the position cannot be saved as a ``ten decide`` position now, or None."""
        phase = self.position()["phase"]
        if phase == "pay":
            return (f"seat {self.state.payer + 1} won the auction and has not paid yet: "
                    f"`ten decide` has no such position (save after `pay`)")
        if phase == "done":
            return "the game is over: no choice is left to decide"
        return None

    def position_toml(self) -> str:
        return toml_text(self.position(), f"A Ten position written by `pushluck play` after "
                                          f"{len(self.entries)} entries; `pushluck ten decide "
                                          f"FILE` answers it.") + self.entries_trailer()

    def _auction_words(self, s: TenState) -> str:
        if s.phase == "pay":
            return f"; seat {s.payer + 1} won {s.wild} at {s.price}: pay"
        if s.phase == "final":
            later = ", ".join(str(q + 1) for q in s.final[1:])
            return "; the final buy round: buy CARD or end" + (f", then {later}" if later
                                                                else " (the last buyer)")
        if s.phase != "auction":
            return ""
        cur, high = self.high_bid(s)
        bid = f"bid {cur} (seat {high + 1})" if high >= 0 else "no bid yet"
        later = self.bidding_order(s)[len(s.bids) + 1:]
        then = f", then {', '.join(str(q + 1) for q in later)}" if later else " (last)"
        return f"; wild {s.wild} to auction: {bid}, seat {self.to_bid(s) + 1} to bid{then}"

    def describe(self) -> str:
        s = self.state
        n, cur = self.totals(s)
        lines = [f"seat {s.active + 1}'s turn ({s.phase}): tableau "
                 f"{', '.join(s.tableau) or 'empty'} (N {n}, C {cur}, T {n - cur})"
                 + self._auction_words(s),
                 f"pile {sum(self.pile(s).values())} · market "
                 f"{', '.join(sorted(s.market.elements(), key=TYPE_OF.get)) or 'empty'} · out "
                 f"{sum(s.out.values())} · supply {self.supply(s)}"]
        for q in range(self.players):
            me = " (me)" if q == self.me else ""
            lines.append(f"seat {q + 1}{me}: {s.tokens[q]} tokens, {s.busts[q]} bust; "
                         f"{', '.join(s.collections[q]) or 'no cards'}")
        return "\n".join(lines)
