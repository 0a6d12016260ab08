"""A plain-Python Trash Pandas game loop, written apart from the kernel, on the same random numbers.

It follows the model in kernels/trash_pandas/whole.py's docstring with Python objects
(one :class:`Seat` per player holding lists of counts) and draws every random number from a
:class:`~analyzer.pystream.Stream` in the same order, so a game played
here and the kernel's game with the same (block key, trial) end identically: the tests compare
them game by game, and `pushluck bench` times the kernel against it. The bots are re-implemented
from bots.py's rules (heuristic, solver tables, random). After every turn it asserts card
conservation. Scoring uses analyzer/games/trash_pandas_score.py (the end-of-game scorer).
"""
from __future__ import annotations

from dataclasses import dataclass, field

BLAMMO, DOGGO, FEESH, KITTEH, PIE, NANNERS, SHINY, YUMYUM = range(8)
KEYS = ("blammo", "doggo", "feesh", "kitteh", "pie", "nanners", "shiny", "yumyum")
RECYCLE_ORDER = (0, 1, 3, 2, 4)


@dataclass
class Seat:
    bot: dict
    hand: list = field(default_factory=lambda: [0] * 8)
    gain: list = field(default_factory=lambda: [0] * 8)
    stash: list = field(default_factory=lambda: [0] * 8)
    up: list = field(default_factory=lambda: [0] * 8)

    def usable(self, t):
        return self.hand[t] - self.gain[t]

    def receive(self, t):
        self.hand[t] += 1
        self.gain[t] += 1

    def lose(self, t):  # a stash or a steal: a gained card first
        self.hand[t] -= 1
        self.gain[t] = min(self.gain[t], self.hand[t])


def bot_dict(row) -> dict:
    """Kernel knob row (float64[48], bots.py) → named knobs; ``table``: the stop rule table's
    rows (six ints each) when the row has one; ``feesh_saves`` and ``decline`` the two knobs
    after the table's words."""
    names = ("kind", "stop", "bstop", "blammo", "nanners", "pie", "feesh", "shiny", "keep",
             "target", "react", "block", "kitteh", "yum", "tree", "rollouts", "band", "cut1",
             "cut2", "stop2", "stop3")
    out = {n: float(v) for n, v in zip(names, row)}
    rows = int(row[21]) if len(row) > 21 else 0
    out["table"] = [[int(x) for x in row[22 + 6 * r:28 + 6 * r]] for r in range(rows)]
    out["feesh_saves"] = float(row[46]) if len(row) > 46 else 0.0
    out["decline"] = float(row[47]) if len(row) > 47 else 0.0
    return out


class Game:
    """One game: ``deck`` DeckArrays, ``rules`` the kernel rules array, ``bots`` knob rows."""

    def __init__(self, players, deck, rules, deal, bots, tables, stream):
        self.n = players
        self.copies = [int(x) for x in deck.copies]
        self.pts = [[int(v) for v in row] for row in deck.pts]
        self.per_card = [int(x) for x in deck.per_card]
        self.bonus, self.cap, self.optional, _chk, self.max_turns, self.mask_discard, \
            self.chain, self.shared_ties, feesh_resolve, lock_all, shiny_resolve = \
            (int(x) for x in rules)
        self.feesh_any = not feesh_resolve  # Feesh at any moment of the own turn (rulebook)
        self.lock_all = bool(lock_all)  # every player's gains locked through the bonus turn
        self.shiny_any = not shiny_resolve  # Shiny on the own turn, a busted one too
        self.roll_tab, self.after_tab = tables
        self.rng = stream
        self.seats = [Seat(bot_dict(bots[i])) for i in range(players)]
        self.pile = list(self.copies)
        self.discard = [0] * 8
        self.ended = False
        self.count = {k: 0 for k in ("main_turns", "main_busts", "sixes", "bonus_turns",
                                     "bonus_busts", "rolls", "blammo", "nanners", "yumyum",
                                     "doggo", "kitteh", "pie", "feesh", "shiny", "paw_steals",
                                     "shiny_steals", "mask_reactions", "stashed",
                                     "feesh_saves", "consolation_declined")}
        for i in range(players):
            for _ in range(int(deal[i])):
                self.draw(i)
        for seat in self.seats:
            seat.gain = [0] * 8

    # ----- cards -----------------------------------------------------------------------
    def pick(self, counts):
        k = self.rng.randint(sum(counts))
        for t, c in enumerate(counts):
            if k < c:
                return t
            k -= c
        raise AssertionError("pick past the end")

    def draw(self, p):
        if sum(self.pile) == 0:
            return -1
        t = self.pick(self.pile)
        self.pile[t] -= 1
        self.seats[p].receive(t)
        if sum(self.pile) == 0:
            self.ended = True
        return t

    def play(self, p, t):
        assert self.seats[p].usable(t) >= 1
        self.seats[p].hand[t] -= 1
        self.discard[t] += 1

    def scorable(self, t):
        return self.per_card[t] > 0 or self.pts[t][0] > 0

    def spare(self, p, t):
        seat = self.seats[p]
        h = seat.hand[t] - (int(seat.bot["keep"]) if t in (BLAMMO, NANNERS) else 0)
        return max(h, 0)

    def gain_of_stash(self, p, t):
        if self.per_card[t] > 0:
            return self.per_card[t] * 9
        others = [self.seats[q].up[t] for q in range(self.n) if q != p]

        def points(c):
            if c <= 0:
                return 0
            place = len({x for x in others if x > c})
            v = self.pts[t][place] if place < 3 else 0
            return v - 1 if (c in others and v > 0) else v

        mine = self.seats[p].stash[t]
        return (points(mine + 1) - points(mine)) * 8 + self.pts[t][0]

    # ----- bots ------------------------------------------------------------------------
    def kind(self, p):
        return int(self.seats[p].bot["kind"])

    def table_index(self, p, mode, held):
        s = self.seats[p]
        b, n, q = (min(s.usable(x), 3) for x in (BLAMMO, NANNERS, PIE))
        return (((mode * 64 + held) * 4 + b) * 4 + n) * 4 + q

    def after_roll(self, p, held, mode, face):
        seat = self.seats[p]
        if self.kind(p) == 1:
            return int(self.after_tab[self.table_index(p, mode, held) * 6 + face])
        if not held >> face & 1:
            return 0
        options = [0] + ([1] if seat.usable(BLAMMO) else []) + ([2] if seat.usable(NANNERS)
                                                                 else [])
        if self.kind(p) == 2:
            return options[self.rng.randint(len(options))]
        if seat.bot["blammo"] > 0 and 1 in options:
            return 1
        if seat.bot["nanners"] > 0 and 2 in options:
            return 2
        return 0

    def keep_rolling(self, p, held, nh, mode):
        if self.kind(p) == 1:
            return self.roll_tab[self.table_index(p, mode, held)] == 1
        if self.kind(p) == 2:
            return self.rng.randint(2) == 1
        bot = self.seats[p].bot
        if bot["band"] == 0:
            return nh < (bot["stop"] if mode == 0 else bot["bstop"])
        if bot["band"] == 3:
            return self.rolls_by_table(p, bot["table"], nh, mode)
        if bot["band"] == 1:  # cards left in the draw pile
            v = sum(self.pile)
        else:  # cards behind the biggest other stash
            sizes = [sum(seat.stash) for seat in self.seats]
            v = max(sizes) - sizes[p]
        if v < bot["cut1"]:
            return nh < bot["stop"]
        if bot["cut2"] > 0 and v >= bot["cut2"]:
            return nh < bot["stop3"]
        return nh < bot["stop2"]

    def table_feature(self, p, f, nh, mode):
        """Feature f of a stop rule table: 0 the constant 0, 1 tokens held, 2 the bonus flag,
        3 cards left, 4 cards behind the biggest other stash, 5 cards in hand, 6 usable
        Blammo! + Nanners."""
        seat = self.seats[p]
        sizes = [sum(s.stash) for s in self.seats]
        return (0, nh, mode, sum(self.pile), max(sizes) - sizes[p], sum(seat.hand),
                seat.usable(BLAMMO) + seat.usable(NANNERS))[f]

    def rolls_by_table(self, p, table, nh, mode):
        """The first row whose guard holds: roll iff its test holds; none holds: stop."""
        def holds(f, op, v):
            x = self.table_feature(p, f, nh, mode)
            return x <= v if op == 0 else x >= v

        for row in table:
            if holds(*row[:3]):
                return holds(*row[3:])
        return False

    def block(self, v):
        seat = self.seats[v]
        options = [0] + ([1] if seat.usable(DOGGO) else []) + ([2] if seat.usable(KITTEH) else [])
        if len(options) == 1:
            return 0
        if self.kind(v) == 2:
            return options[self.rng.randint(len(options))]
        if seat.bot["block"] <= 0:
            return 0
        if 2 in options and (seat.bot["kitteh"] > 0 or 1 not in options):
            return 2
        return 1

    # ----- steals, Mask, resolve ---------------------------------------------------------
    def gets(self, p, t, active):
        """p takes a card of type t into hand off the pile or by a steal; it stays playable
        this turn when p is not the active player, unless every gain is locked."""
        if t < 0:
            return
        if p != active and not self.lock_all:
            self.seats[p].gain[t] -= 1

    def steal(self, thief, victim, from_stash, first_type):
        original, first = thief, True  # the thief who starts a steal is the active player
        while True:
            b = self.block(victim) if (first or self.chain) else 0
            if b == 1:
                self.play(victim, DOGGO)
                self.count["doggo"] += 1
                self.gets(victim, self.draw(victim), original)
                self.gets(victim, self.draw(victim), original)
                return 0
            if b == 2:
                self.play(victim, KITTEH)
                self.count["kitteh"] += 1
                thief, victim, first = victim, thief, False
                continue
            vs, ts = self.seats[victim], self.seats[thief]
            if not from_stash:
                if sum(vs.hand) == 0:
                    return 0
                t = self.pick(vs.hand)
                vs.lose(t)
                ts.receive(t)
                self.gets(thief, t, original)
                return int(thief == original)
            if first and first_type >= 0:
                if vs.up[first_type] < 1:
                    return 0
                vs.stash[first_type] -= 1
                vs.up[first_type] -= 1
                ts.receive(first_type)
                self.gets(thief, first_type, original)
                return 1
            bins = []  # (type, face up?) with their counts, face-down first within a type
            for t in range(8):
                bins.append((t, False, vs.stash[t] - vs.up[t]))
                if not first:
                    bins.append((t, True, vs.up[t]))
            total = sum(c for _, _, c in bins)
            if total == 0:
                return 0
            k = self.rng.randint(total)
            for t, face_up, c in bins:
                if k < c:
                    vs.stash[t] -= 1
                    if face_up:
                        vs.up[t] -= 1
                    ts.receive(t)
                    self.gets(thief, t, original)
                    break
                k -= c
            return int(thief == original)

    def mask(self, a):
        t = self.draw(a)
        if t < 0:
            return
        if self.mask_discard:
            self.seats[a].lose(t)
            self.discard[t] += 1
        reactions = 0
        for j in range(1, self.n):
            q = (a + j) % self.n
            seat = self.seats[q]
            if seat.hand[t] < 1:
                continue
            if self.kind(q) == 2:
                react = self.rng.randint(2) == 1
            else:
                react = seat.bot["react"] > 0 and self.spare(q, t) > 0 and self.scorable(t)
            if react:
                seat.lose(t)
                seat.stash[t] += 1
                seat.up[t] += 1
                reactions += 1
        self.count["mask_reactions"] += reactions
        for _ in range(reactions):
            self.draw(a)

    def target(self, p, from_stash):
        def have(q):
            s = self.seats[q]
            return sum(s.stash) if from_stash else sum(s.hand)

        order = [(p + j) % self.n for j in range(1, self.n)]
        cands = [q for q in order if have(q) > 0]
        if self.kind(p) == 2:
            return cands[self.rng.randint(len(cands))] if cands else -1
        if not cands:
            return -1
        by_stash = from_stash or self.seats[p].bot["target"] == 0
        key = (lambda q: (sum(self.seats[q].stash) if by_stash else sum(self.seats[q].hand),
                          have(q)))
        return max(cands, key=lambda q: (key(q), -order.index(q)))

    def resolve(self, a, held, mode):
        seat, rnd = self.seats[a], self.kind(a) == 2
        tok = [held >> i & 1 for i in range(5)]
        if held >> 5 & 1 and not (mode == 0 and held == 63):
            free = [i for i in range(5) if not held >> i & 1]
            if rnd:
                tok[free[self.rng.randint(len(free))]] += 1
            else:
                tok[next(i for i in RECYCLE_ORDER if i in free)] += 1
        most = min(seat.usable(PIE), sum(1 for x in tok if x))
        pies = 0
        if most > 0:
            pies = self.rng.randint(most + 1) if rnd else (most if seat.bot["pie"] > 0 else 0)
        for i in RECYCLE_ORDER:
            if pies and tok[i] == 1:
                self.play(a, PIE)
                self.count["pie"] += 1
                tok[i], pies = 2, pies - 1
        for _ in range(2 * tok[0]):
            self.draw(a)
        later = 0
        for _ in range(tok[2]):
            if rnd:
                stash = self.rng.randint(2) == 1
            else:
                spare = sum(self.spare(a, t) for t in range(8) if self.scorable(t))
                stash = seat.bot["tree"] > 0 and spare > 2 * tok[1] + later
            if stash:
                later += 1
            else:
                self.draw(a)
        for _ in range(tok[4]):
            self.mask(a)
        for _ in range(tok[3]):
            q = self.target(a, False)
            if q >= 0:
                self.count["paw_steals"] += self.steal(a, q, False, -1)
        while True:
            t = self.feesh_pick(a)
            if t < 0:
                break
            self.fetch(a, t)
        self.play_shinies(a)
        for _ in range(2 * tok[1] + later):
            t = self.stash_pick(a)
            if t < 0:
                break
            seat.lose(t)
            seat.stash[t] += 1
            self.count["stashed"] += 1

    def fetch(self, a, t):
        """a spends a Feesh on the discard pile's card t (into hand, not a gained card)."""
        self.play(a, FEESH)
        self.count["feesh"] += 1
        assert self.discard[t] > 0
        self.discard[t] -= 1
        self.seats[a].hand[t] += 1

    def play_shinies(self, a):
        while True:
            q, t = self.shiny_pick(a)
            if q < 0:
                return
            self.play(a, SHINY)
            self.count["shiny"] += 1
            self.count["shiny_steals"] += self.steal(a, q, True, t)

    def feesh_for_a_repeat(self, a, held, mode, face):
        """After a repeat the bot takes: None to take it (bust), or BLAMMO / NANNERS to fetch
        that card with a Feesh and spend it (rules page: Feesh at any moment of the own turn)."""
        seat = self.seats[a]
        if seat.usable(FEESH) < 1:
            return None
        fetchable = [t for t in (BLAMMO, NANNERS) if self.discard[t] > 0]
        if not fetchable:
            return None
        if self.kind(a) == 2:
            return ([None] + fetchable)[self.rng.randint(1 + len(fetchable))]
        if seat.bot["feesh_saves"] <= 0:
            return None
        if self.kind(a) == 1:  # the solver's table, as if it held one more of the card
            b, n, q = (min(seat.usable(x), 3) for x in (BLAMMO, NANNERS, PIE))
            for t, bb, nn, want in ((BLAMMO, min(b + 1, 3), n, 1), (NANNERS, b, min(n + 1, 3), 2)):
                idx = (((mode * 64 + held) * 4 + bb) * 4 + nn) * 4 + q
                if t in fetchable and self.after_tab[idx * 6 + face] == want:
                    return t
            return None
        has_b, has_n = seat.usable(BLAMMO) > 0, seat.usable(NANNERS) > 0
        if self.kind(a) == 3 and (has_b or has_n):
            return None
        if BLAMMO in fetchable and seat.bot["blammo"] > 0 and not has_b:
            return BLAMMO
        if NANNERS in fetchable and seat.bot["nanners"] > 0 and not has_n:
            return NANNERS
        return None

    def feesh_pick(self, a):
        seat = self.seats[a]
        if seat.usable(FEESH) < 1 or sum(self.discard) == 0:
            return -1
        if self.kind(a) == 2:
            return -1 if self.rng.randint(2) == 0 else self.pick(self.discard)
        if seat.bot["feesh"] <= 0:
            return -1
        cands = [t for t in range(8)
                 if self.discard[t] > 0 and t != FEESH and self.scorable(t)]
        return max(cands, key=lambda t: (self.gain_of_stash(a, t), -t)) if cands else -1

    def shiny_pick(self, a):
        seat = self.seats[a]
        if seat.usable(SHINY) < 1:
            return -1, -1
        if self.kind(a) == 2:
            if self.rng.randint(2) == 0:
                return -1, -1
            return self.target(a, True), -1
        if seat.bot["shiny"] <= 0:
            return -1, -1
        q = self.target(a, True)
        if q < 0:
            return -1, -1
        ups = [t for t in range(8) if self.seats[q].up[t] > 0]
        t = max(ups, key=lambda t: (self.pts[t][0] + self.per_card[t], -t)) if ups else -1
        return q, t

    def stash_pick(self, a):
        seat = self.seats[a]
        if self.kind(a) == 2:
            if sum(seat.hand) == 0 or self.rng.randint(2) == 0:
                return -1
            return self.pick(seat.hand)
        cands = [t for t in range(8) if self.spare(a, t) > 0 and self.scorable(t)]
        return max(cands, key=lambda t: (self.gain_of_stash(a, t), -t)) if cands else -1

    # ----- the roll phase, turns, the game ----------------------------------------------
    def roll_phase(self, a, mode, held, action="roll", face=None, choice=0):
        """Returns ("bust" | "stopped" | "six", held)."""
        cap = 6 if mode == 0 else self.cap
        while True:
            if action == "stop":
                forcer = None
                for j in range(1, self.n):
                    q = (a + j) % self.n
                    seat = self.seats[q]
                    if seat.usable(YUMYUM) < 1:
                        continue
                    if self.kind(q) == 2:
                        plays = self.rng.randint(2) == 1
                    else:
                        plays = seat.bot["yum"] > 0 and bin(held).count("1") >= seat.bot["yum"]
                    if plays:
                        forcer = q
                        break
                if forcer is None:
                    return "stopped", held
                self.play(forcer, YUMYUM)
                self.count["yumyum"] += 1
            if action == "face":
                d = choice
            else:
                face = self.rng.randint(6)
                self.count["rolls"] += 1
                d = self.after_roll(a, held, mode, face)
                if d == 0 and held >> face & 1 and self.feesh_any:
                    fetch = self.feesh_for_a_repeat(a, held, mode, face)
                    d = {None: 0, BLAMMO: 3, NANNERS: 4}[fetch]
            action = "roll"
            if d in (3, 4):  # Feesh for a Blammo! (3) or a Nanners (4), spent at once
                card = BLAMMO if d == 3 else NANNERS
                self.fetch(a, card)
                self.count["feesh_saves"] += 1
                d = 1 if card == BLAMMO else 2
            if d == 1:
                self.play(a, BLAMMO)
                self.count["blammo"] += 1
                continue
            if d == 2:
                self.play(a, NANNERS)
                self.count["nanners"] += 1
                action = "stop"
                continue
            if held >> face & 1:
                return "bust", held
            held |= 1 << face
            nh = bin(held).count("1")
            if mode == 0 and nh == 6:
                return "six", held
            if nh >= cap:
                return "stopped", held
            if not self.keep_rolling(a, held, nh, mode):
                action = "stop"

    def turn(self, a, mode=0, held=0, action="roll", face=None, choice=0):
        if mode == 0 and held == 0 and action == "roll":
            self.count["main_turns"] += 1
        while True:
            res, held = self.roll_phase(a, mode, held, action, face, choice)
            action = "roll"
            if res == "bust":
                self.count["main_busts" if mode == 0 else "bonus_busts"] += 1
                if self.shiny_any:
                    self.play_shinies(a)
                if not self.optional or self.draws_consolation(a):
                    self.draw(a)
                else:
                    self.count["consolation_declined"] += 1
                break
            self.resolve(a, held, mode)
            if res == "six":
                self.count["sixes"] += 1
                if self.bonus:
                    self.count["bonus_turns"] += 1
                    mode, held = 1, 0
                    if not self.lock_all:  # the bonus turn is a new turn for the lock
                        self.seats[a].gain = [0] * 8
                    continue
            break
        for seat in self.seats:
            seat.gain = [0] * 8

    def draws_consolation(self, a):
        """An optional consolation draw: random flips a coin; the others decline it only with
        decline-last-card=trailing, when it is the pile's last card and some opponent's points
        beat a's as a sees the stashes (a's whole stash, the others' face-up cards)."""
        if self.kind(a) == 2:
            return self.rng.randint(2) == 1
        if self.seats[a].bot["decline"] <= 0 or sum(self.pile) != 1:
            return True
        seen = {}
        for p, seat in enumerate(self.seats):
            seen[p] = {KEYS[t]: (seat.stash[t] if p == a else seat.up[t]) for t in range(8)}
        points = self.score_of(seen)
        return not any(points[p] > points[a] for p in range(self.n) if p != a)

    def score_of(self, stashes: dict) -> dict:
        """End-of-game points of the given stashes ({seat: {card key: count}}) by the
        end-of-game scorer (analyzer/games/trash_pandas/score.py)."""
        from analyzer.games.trash_pandas.score import CardType, score

        deck = {key: CardType(key, key, self.copies[t], tuple(self.pts[t]), self.per_card[t])
                for t, key in enumerate(KEYS)}
        res = score({str(p): cards for p, cards in stashes.items()}, deck)
        return {p: res["scores"][str(p)] for p in stashes}

    def conserved(self) -> bool:
        for t in range(8):
            where = self.pile[t] + self.discard[t] + sum(s.hand[t] + s.stash[t]
                                                          for s in self.seats)
            if where != self.copies[t]:
                return False
            if any(s.up[t] > s.stash[t] or min(s.hand[t], s.stash[t], s.up[t]) < 0
                   for s in self.seats):
                return False
            if any(not 0 <= s.gain[t] <= s.hand[t] for s in self.seats):
                return False
        return True

    def play_out(self, a=0, **entry) -> int:
        """Play from seat a's turn to the end; returns the turns played (cap + 1 if cut)."""
        turns = 0
        while True:
            self.turn(a, **entry)
            entry = {}
            turns += 1
            assert self.conserved(), f"cards not conserved after turn {turns}"
            if self.ended:
                return turns
            if turns >= self.max_turns:
                return turns + 1
            a = (a + 1) % self.n

    def result(self) -> dict:
        """Scores, win shares, whether the top was tied on points, the margin."""
        from analyzer.games.trash_pandas.score import CardType, score

        deck = {key: CardType(key, key, self.copies[t], tuple(self.pts[t]), self.per_card[t])
                for t, key in enumerate(KEYS)}
        players = {str(i): {KEYS[t]: s.stash[t] for t in range(8)}
                   for i, s in enumerate(self.seats)}
        res = score(players, deck)
        scores = [res["scores"][str(i)] for i in range(self.n)]
        winners = [int(w) for w in res["winners"]]
        if self.shared_ties:
            top = max(scores)
            winners = [i for i in range(self.n) if scores[i] == top]
        top = sorted(scores, reverse=True)
        shares = [1.0 / len(winners) if i in winners else 0.0 for i in range(self.n)]
        return {"scores": scores, "shares": shares, "tied": int(top[0] == top[1]),
                "margin": top[0] - top[1]}


def play_reference_game(players, deck, rules, deal, bots, tables, key, t) -> dict:
    """One whole game on the stream of (block key, trial t): result, counters and turns."""
    from analyzer.pystream import Stream

    game = Game(players, deck, rules, deal, bots, tables, Stream(key, t))
    turns = game.play_out()
    out = game.result()
    out.update(turns=turns, counts=dict(game.count), calls=game.rng.calls,
               stash=[list(s.stash) for s in game.seats])
    return out
