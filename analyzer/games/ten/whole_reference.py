"""A pure-Python reference of Ten whole games, written from the rules page independently of the
kernel (players as objects, collections as Counters of card codes, scores from
``analyzer/games/ten/score.py``), that consumes the same random numbers: the same xoshiro256**
per-game stream (kernels/rng.py), the same Fisher–Yates shuffle and the same random draws of the
bots, in the same order. Kernel and reference therefore play identical games on the same seed,
which the tests check game by game (records, final collections, tokens); the bots' decision rules
are the ones documented in ``kernels/ten/whole_engine.py`` (ties: the lowest card type).
It also checks conservation of cards and tokens after every turn (``violations``).
"""
from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache

from analyzer.games.ten.cards import CODES, NTYPES, TYPE_OF, value_of
from analyzer.pystream import Stream  # the kernels' per-trial xoshiro256** streams


@lru_cache(maxsize=200_000)
def _score_key(key: tuple, full_run: int = 10) -> int:
    from analyzer.games.ten.rules import parse_card
    from analyzer.games.ten.score import score_collection

    return score_collection([parse_card(c) for c in key], full_run)["score"]


def score(coll: Counter, full_run: int = 10) -> int:
    """`ten score` of a collection (memoised on its sorted cards); a complete run is worth
    ``full_run``."""
    return _score_key(tuple(sorted(c for c, k in coll.items() for _ in range(k))), full_run)


class Player:
    def __init__(self, bot, tokens):
        self.bot = bot  # analyzer.games.ten.bots.Bot
        self.coll: Counter = Counter()
        self.tokens = tokens
        self.busts = 0

    def ncards(self):
        return sum(self.coll.values())


class RefGame:
    """One game; ``play()`` returns the record dict (names as kernels/ten/whole_layout.py)."""

    def __init__(self, rules, deck_codes: list[str], bots, key, t, check=True):
        self.r = rules
        self.P = len(bots)
        self.rng = Stream(key, t)
        pile = list(deck_codes)  # the kernel's base order: by card type
        for i in range(len(pile) - 1, 0, -1):
            j = self.rng.randint(i + 1)
            pile[i], pile[j] = pile[j], pile[i]
        self.pile = pile
        self.deck = Counter(deck_codes)
        self.players = [Player(b, rules.start_tokens) for b in bots]
        self.supply = rules.currency_tokens - self.P * rules.start_tokens
        self.bust_supply = rules.bust_tokens
        self.market: Counter = Counter()
        self.out: Counter = Counter()
        self.check = check
        self.rec = Counter()

    def score(self, coll: Counter) -> int:
        """`ten score` of a collection (the module's :func:`score`; a subclass may score
        faster by other means, with the same numbers)."""
        return score(coll, self.r.full_run_points)

    # -- payments and gains ------------------------------------------------------------------
    def means(self, p: Player, with_cards=True):
        return p.tokens + self.r.bust_token_value * p.busts + (p.ncards() if with_cards else 0)

    def gain(self, p: Player, amount):
        g = max(0, min(amount, self.r.token_cap - p.tokens, self.supply))
        p.tokens += g
        self.supply -= g

    def pay(self, p: Player, price):
        bv = self.r.bust_token_value
        nb = min(p.busts, price // bv)
        rest = price - nb * bv
        t = min(p.tokens, rest)
        rest -= t
        if rest > 0 and p.busts > nb:
            nb += 1
            rest = 0
        p.tokens -= t
        self.supply += t
        p.busts -= nb
        self.bust_supply += nb
        while rest > 0 and p.ncards() > 0:
            base = self.score(p.coll)
            best = None
            for code in sorted(p.coll, key=TYPE_OF.get):
                trial = p.coll.copy()
                trial[code] -= 1
                loss = base - self.score(+trial)
                if best is None or loss < best[0]:
                    best = (loss, code)
            code = best[1]
            p.coll[code] -= 1
            p.coll = +p.coll
            if self.r.spent_cards == "market" and TYPE_OF[code] < 36:
                self.market[code] += 1
            else:
                self.out[code] += 1
            rest -= 1

    # -- the three kinds of decision ---------------------------------------------------------
    def buy_phase(self, p: Player):
        kind = p.bot.buy
        if kind == "never":
            return
        afford = self.means(p, p.bot.pay_with_cards)
        eligible = [c for c in sorted(self.market, key=TYPE_OF.get)
                    if self.market[c] > 0 and p.coll[c] == 0 and value_of(TYPE_OF[c]) <= afford]
        pick = None
        if kind == "value":
            base = self.score(p.coll)
            best_v, best_p = 0.0, 1
            for c in eligible:
                price = value_of(TYPE_OF[c])
                v = self.score(p.coll + Counter({c: 1})) - base + p.bot.card_bonus
                if v <= 0.0 or v < p.bot.min_gain * price:
                    continue
                if pick is None or v * best_p > best_v * price:
                    pick, best_v, best_p = c, v, price
        else:
            if not eligible or self.rng.randint(2) == 0:
                return
            pick = eligible[self.rng.randint(len(eligible))]
        if pick is None:
            return
        self.market[pick] -= 1
        self.market = +self.market
        p.coll[pick] += 1
        self.pay(p, value_of(TYPE_OF[pick]))
        self.rec["buys"] += 1
        self.rec["buy_spent"] += value_of(TYPE_OF[pick])

    def auction(self, a: int, wild: str):
        cur, win = 0, None
        order = [(a + i) % self.P for i in range(1, self.P + 1)]  # the active player last
        bids: list[int] = []  # what each seat did so far, in bidding order (0: a pass)
        for q in order:
            self.before_bid(a, wild, q, bids)
            before = cur
            p = self.players[q]
            means = self.means(p)
            if p.bot.bid == "value":
                g = self.score(p.coll + Counter({wild: 1})) - self.score(p.coll)
                lim = math.floor(g * p.bot.tokens_per_point)
                lim = min(lim, self.means(p, p.bot.pay_with_cards))
                if self.r.bid_within_means:
                    lim = min(lim, means)
                if q == a:
                    if cur + 1 <= lim:
                        cur, win = cur + 1, q
                elif lim > cur:
                    cur, win = lim, q
            elif p.bot.bid == "random":
                hi = means if self.r.bid_within_means else max(means, cur + 1)
                if hi > cur and self.rng.randint(2) == 1:
                    cur, win = cur + 1 + self.rng.randint(hi - cur), q
            bids.append(cur if cur != before else 0)
        if win is not None:
            self.players[win].coll[wild] += 1
            self.pay(self.players[win], cur)
            self.rec["auctions"] += 1
            self.rec["auction_price"] += cur
        elif self.r.all_pass == "active-free":
            self.players[a].coll[wild] += 1
            self.rec["wilds_free"] += 1
        else:
            self.out[wild] += 1
            self.rec["wilds_discarded"] += 1

    def before_bid(self, a: int, wild: str, q: int, bids: list[int]) -> None:
        """Called as seat q is about to bid for ``wild`` drawn by a, ``bids`` what the seats
        before it did (0: a pass); nothing here (calibrate.py freezes positions on it)."""

    def wants_numbers(self, a: int, tableau: list[str], C: int) -> bool:
        p = self.players[a]
        nums = Counter(c for c in tableau if TYPE_OF[c] < 36)
        new = sum(1 for c in nums if p.coll[c] == 0)
        g = self.score(p.coll + nums) - self.score(p.coll)
        others = mine = 0
        if self.r.token_gains:
            for i in range(1, self.P):
                q = self.players[(a + i) % self.P]
                others += min(C, self.r.token_cap - q.tokens)
            mine = min(C, self.r.token_cap - p.tokens, self.supply)
        return g + p.bot.card_bonus * new - p.bot.opp_weight * others >= mine / p.bot.tokens_per_point

    def wants_draw(self, a: int, tableau: list[str], exact) -> bool:
        bot = self.players[a].bot
        N = sum(value_of(TYPE_OF[c]) for c in tableau if TYPE_OF[c] < 36)
        C = sum(value_of(TYPE_OF[c]) for c in tableau if 36 <= TYPE_OF[c] < 41)
        if bot.name == "threshold":
            bound = bot.stop_at
            if bot.band_by != "none":
                v = len(self.pile) if bot.band_by == "deck" else self.players[a].tokens
                if bot.cut_2 and v >= bot.cut_2:
                    bound = bot.stop_at_3
                elif v >= bot.cut_1:
                    bound = bot.stop_at_2
            return N - C < bound
        if bot.name == "cards":
            return len(tableau) < bot.after
        if bot.name == "exact":
            return exact(bot, self.players[a].tokens, tableau)
        if bot.name == "table":
            return self.list_draws(bot, N, C, len(tableau), self.players[a])
        if bot.name == "rollout":
            return self.rollout_draws(a, N, C, sum(1 for c in tableau if TYPE_OF[c] < 36))
        return self.rng.randint(65536) < int(bot.draw_chance * 65536.0)

    def list_draws(self, bot, N: int, C: int, ncards: int, p: Player) -> bool:
        """The table bot: its clauses in order, read from its knobs (not from the kernel's
        compiled rows), the first that holds deciding; none: ``otherwise``."""
        from analyzer.games.ten.draw_table import parse_clause

        seen = {"T": N - C, "C": C, "cards": ncards, "deck": len(self.pile),
                "tokens": p.tokens, "busts": p.busts}
        for cond, then in ((bot.if_1, bot.then_1), (bot.if_2, bot.then_2),
                           (bot.if_3, bot.then_3)):
            if cond:
                f, op, v = parse_clause(cond, "")
                if (seen[f] <= v) if op == "<=" else (seen[f] >= v):
                    return then == "draw"
        return bot.otherwise == "draw"

    def rollout_draws(self, a: int, N: int, C: int, n: int) -> bool:
        """The rollout bot (kernels/ten/whole_rollout.py): K rollouts of the rest of the turn
        from the pile's counts under "stop once T ≥ stop_at", against stopping now."""
        r, bot = self.r, self.players[a].bot
        cap = r.token_cap
        room = max(0, cap - self.players[a].tokens)
        oppc = bot.opp * (self.P - 1)
        bustv = bot.bust * bot.token

        def stop(n_, C_):
            return max(bot.card * n_ - oppc * min(C_, cap), bot.token * min(C_, room))

        counts = Counter(TYPE_OF[c] for c in self.pile)
        total = 0.0
        for _ in range(bot.rollouts):
            left = Counter(counts)
            cards_left = len(self.pile)
            rN, rC, rn = N, C, n
            while True:
                x = self.rng.randint(cards_left)
                t = 0
                while x >= left[t]:
                    x -= left[t]
                    t += 1
                left[t] -= 1
                cards_left -= 1
                if t < 36:
                    rN, rn = rN + value_of(t), rn + 1
                    if rN - rC >= r.bust_at:
                        v = bustv - oppc * min(rC, cap)
                        break
                elif t < 41:
                    rC += value_of(t)
                    if rC >= r.currency_bust_at:
                        v = bustv
                        break
                if cards_left == 0 or rN - rC >= bot.stop_at:
                    v = stop(rn, rC)
                    break
            total += v
        return total > stop(n, C) * bot.rollouts

    # -- the game ----------------------------------------------------------------------------
    def strict_leader(self) -> int:
        """The one seat with the most points now, or −1 on a tie at the top."""
        pts = [self.score(p.coll) for p in self.players]
        top = max(pts)
        return pts.index(top) if pts.count(top) == 1 else -1

    def play(self, exact=None) -> dict:
        r, P = self.r, self.P
        a, turn = 0, 0
        R = len(self.pile)
        last, changes, lead3q, marked = -1, 0, -1, False  # lead changes, the leader at ¾
        while True:
            tableau: list[str] = []
            self.tableau = tableau  # this turn's tableau so far (read as a wild is auctioned)
            N = C = 0
            outcome = None
            drawn = False
            while True:
                if drawn and (not self.pile or not self.wants_draw(a, tableau, exact)):
                    bot = self.players[a].bot
                    if bot.reward == "value":
                        outcome = "numbers" if self.wants_numbers(a, tableau, C) else "currency"
                    elif bot.reward == "random":
                        outcome = ("numbers", "currency")[self.rng.randint(2)]
                    else:
                        outcome = bot.reward
                    break
                if not self.pile:  # only after a draw: the first draw always finds a card
                    break
                drawn = True
                card = self.pile.pop(0)
                t = TYPE_OF[card]
                if t >= 41:
                    self.rec["wilds_drawn"] += 1
                    if r.auctions:
                        self.auction(a, card)
                    else:
                        self.out[card] += 1
                        self.rec["wilds_discarded"] += 1
                    continue
                tableau.append(card)
                if t < 36:
                    N += value_of(t)
                    if N - C >= r.bust_at:
                        outcome = "number-bust"
                        break
                else:
                    C += value_of(t)
                    if C >= r.currency_bust_at:
                        outcome = "currency-bust"
                        break
            self.finish_turn(a, outcome, tableau, C, turn == 0)
            turn += 1
            if self.check:
                self.rec["violations"] += self.violations(tableau_empty=True)
            lead = self.strict_leader()
            if lead >= 0:
                changes += int(last >= 0 and lead != last)
                last = lead
            if not marked and 4 * (R - len(self.pile)) >= 3 * R:
                marked, lead3q = True, lead
            if not self.pile:
                break
            a = (a + 1) % P
        if r.buys:
            for i in range(1, P + 1):
                q = (a + i) % P
                if q == a and not r.final_buy_last:
                    continue
                self.buy_phase(self.players[q])
            if self.check:
                self.rec["violations"] += self.violations(tableau_empty=True)
            lead = self.strict_leader()
            changes += int(lead >= 0 and last >= 0 and lead != last)
        rec = self.result(turn)
        rec["lead_changes"] = changes
        if lead3q >= 0:
            rec["leader_3q"] = 1
            rec["leader_3q_win"] = rec.get(f"win_{lead3q}", 0.0)
        return rec

    def finish_turn(self, a, outcome, tableau, C, first):
        r, P = self.r, self.P
        p = self.players[a]
        numbers = [c for c in tableau if TYPE_OF[c] < 36]
        others = [self.players[(a + i) % P] for i in range(1, P)]
        if outcome == "numbers":
            self.rec["stops_numbers"] += 1
            p.coll.update(numbers)
            numbers = []
            if r.token_gains:
                for q in others:
                    self.gain(q, C)
        elif outcome == "currency":
            self.rec["stops_currency"] += 1
            if r.token_gains:
                self.gain(p, C)
        else:
            self.rec["busts"] += 1
            if outcome == "number-bust":
                self.rec["number_busts"] += 1
                if r.token_gains:
                    for q in others:
                        self.gain(q, C)
            else:
                self.rec["currency_busts"] += 1
            if self.bust_supply > 0:
                self.bust_supply -= 1
                p.busts += 1
            if first:
                self.rec["first_turn_bust"] = 1
        self.market.update(numbers)
        self.out.update(c for c in tableau if 36 <= TYPE_OF[c] < 41)
        if outcome == "numbers" and r.buys:
            self.buy_phase(p)

    def violations(self, tableau_empty) -> int:
        held = Counter(self.pile) + self.market + self.out
        for p in self.players:
            held += p.coll
        bad = int(held != self.deck)
        bad += int(self.supply + sum(p.tokens for p in self.players) != self.r.currency_tokens)
        bad += int(self.bust_supply + sum(p.busts for p in self.players) != self.r.bust_tokens)
        bad += sum(1 for p in self.players if not 0 <= p.tokens <= self.r.token_cap)
        return bad

    def result(self, turns) -> dict:
        P = self.P
        rec = dict(self.rec)
        rec["turns"] = turns
        rec["rounds"] = -(-turns // P)
        rec["market_end"] = sum(self.market.values())
        keys = []
        for q, p in enumerate(self.players):
            rec[f"score_{q}"] = self.score(p.coll)
            rec[f"tokens_{q}"] = p.tokens
            rec[f"cards_{q}"] = p.ncards()
            keys.append((rec[f"score_{q}"], p.tokens, -p.ncards()))
        top = max(keys)
        winners = [q for q in range(P) if keys[q] == top]
        for q in winners:
            rec[f"win_{q}"] = 1.0 / len(winners)
        rec["winner_score"] = top[0]
        rec["tied"] = int(len(winners) > 1)
        if rec.get("wilds_drawn"):
            rec["auction_share"] = rec.get("auctions", 0) / rec["wilds_drawn"]
        return rec

    def collections(self) -> list[Counter]:
        return [p.coll for p in self.players]


def exact_lookup(setup):
    """The exact bots' draw rule for the reference: walk the table from the tableau's cards."""
    from kernels.ten.whole_engine import DRAW

    a = setup.arrays

    def draws(bot, tokens, tableau):
        from analyzer.games.ten.bots import bot_rows
        from kernels.ten.whole_layout import B_TABLE

        idx = int(bot_rows([bot], {vm: i for i, vm in enumerate(_models(setup))})[0, B_TABLE])
        na = cb = 0
        for c in sorted(tableau, key=TYPE_OF.get):
            t = TYPE_OF[c]
            if t < 36:
                na = a["nchild"][na, t % 9] if na >= 0 else -1
            else:
                cb = a["cchild"][cb, t - 36] if cb >= 0 else -1
        if na < 0 or cb < 0:
            return True
        return a["dec"][idx, setup.rules.token_cap - tokens, na, cb] == DRAW

    return draws


def _models(setup):
    out = []
    for lu in setup.lineups:
        for b in lu:
            if b.name == "exact" and b.value_model() not in out:
                out.append(b.value_model())
    return out


def reference_games(setup, key, n: int, lineup: int = 0, check=True):
    """Play games 0..n−1 of block ``key`` in Python: (records, collections, tokens) per game."""
    deck_codes = [CODES[t] for t in range(NTYPES) for _ in range(int(setup.arrays["deck"][t]))]
    exact = exact_lookup(setup)
    out = []
    for t in range(n):
        g = RefGame(setup.rules, deck_codes, setup.lineups[lineup], key, t, check)
        rec = g.play(exact)
        out.append((rec, g.collections(), [(p.tokens, p.busts) for p in g.players]))
    return out
