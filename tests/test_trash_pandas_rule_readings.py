"""The rule readings a table plays (rules page: Feesh, the gained-card lock, Shiny, an optional
consolation draw), each by an exact end-game position worked out by hand.

A position is tiny (two players, a pile of at most two cards, known hands) and ends the game
within the active player's turn, so every way it can go is listed by hand below from the rules
page, with its probability. The engine's answer is then computed twice:

* exactly, by the plain-Python reference (analyzer/games/trash_pandas/reference.py) fed every
  sequence of random numbers in turn (:func:`exact_share`: each ``randint(n)`` branch weighs 1/n),
  which must equal the hand value as a fraction;
* by the Numba kernel (kernels/trash_pandas/whole.py ``continue_game``) on seeded streams, which
  must play every trial exactly as the reference does on the same stream and land within 4.5
  standard errors of the hand value.

Default deck (analyzer/data/trash_pandas_deck.toml, a [U] reconstruction): Feesh 5/3/1,
MMM Pie! 6/2/1, Nanners and Yum Yum 4/2/1, Blammo! 1 point a card, Doggo and Kitteh nothing.
Scores below use it; a tied group scores p − 1; equal points go to most types, then most cards,
then the win is shared (each gets 1/2).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pytest

from analyzer.games.trash_pandas.bots import lineup_array
from analyzer.games.trash_pandas.lineup import parse_lineup
from analyzer.games.trash_pandas.reference import (BLAMMO, DOGGO, FEESH, NANNERS, PIE, SHINY,
                                                   YUMYUM, Game)
from analyzer.games.trash_pandas.rules import TrashPandasRules
from analyzer.games.trash_pandas.score import deck_arrays
from analyzer.games.trash_pandas.whole import rules_array

TRASH, TREES, TRASH_TREE, PAW, MASK, RECYCLE = range(6)
ENTRY = {"roll": 0, "stop": 1, "face": 2}


@dataclass
class Position:
    """Seat 0 to move in a 2-player game: cards by type per place; ``ended``: the last card of
    the pile has been drawn earlier this turn (the game ends after it)."""

    hands: dict = field(default_factory=dict)
    stashes: dict = field(default_factory=dict)  # face down
    ups: dict = field(default_factory=dict)  # face up
    pile: dict = field(default_factory=dict)
    discard: dict = field(default_factory=dict)
    ended: bool = False
    mode: int = 0  # 1: a bonus turn
    held: tuple = ()
    action: str = "roll"
    face: int = 0
    choice: int = 0
    players: int = 2

    def reference(self, rules, seats, stream=None) -> Game:
        deck = deck_arrays(rules.deck)
        bots = lineup_array([parse_lineup(seats, self.players)])[0]
        game = Game(self.players, deck, rules_array(rules), [0] * 4, bots,
                    (np.zeros(2 * 64 * 64, np.uint8), np.zeros(2 * 64 * 64 * 6, np.uint8)),
                    stream)
        game.pile = [self.pile.get(t, 0) for t in range(8)]
        game.discard = [self.discard.get(t, 0) for t in range(8)]
        for p in range(self.players):
            game.seats[p].hand = [self.hands.get(p, {}).get(t, 0) for t in range(8)]
            game.seats[p].up = [self.ups.get(p, {}).get(t, 0) for t in range(8)]
            game.seats[p].stash = [self.stashes.get(p, {}).get(t, 0) + game.seats[p].up[t]
                                   for t in range(8)]
        game.copies = self.copies()
        game.ended = self.ended
        return game

    def copies(self) -> list:
        return [self.pile.get(t, 0) + self.discard.get(t, 0)
                + sum(self.hands.get(p, {}).get(t, 0) + self.stashes.get(p, {}).get(t, 0)
                      + self.ups.get(p, {}).get(t, 0) for p in range(self.players))
                for t in range(8)]

    @property
    def held_mask(self) -> int:
        return sum(1 << tok for tok in self.held)

    def entry(self) -> dict:
        return {"mode": self.mode, "held": self.held_mask, "action": self.action,
                "face": self.face, "choice": self.choice}

    def state(self) -> np.ndarray:
        from kernels.trash_pandas.layout import DECK, DISC, HAND, SC, STASH, UP, new_state

        g = new_state()
        for t in range(8):
            g[DECK, t] = self.pile.get(t, 0)
            g[DISC, t] = self.discard.get(t, 0)
            for p in range(self.players):
                g[HAND + p, t] = self.hands.get(p, {}).get(t, 0)
                g[UP + p, t] = self.ups.get(p, {}).get(t, 0)
                g[STASH + p, t] = self.stashes.get(p, {}).get(t, 0) + g[UP + p, t]
        g[SC, 0] = sum(self.pile.values())
        g[SC, 1] = int(self.ended)
        g[SC, 2] = self.players
        return g


class Enumerator:
    """A stream that replays ``prefix`` and answers 0 to every later ``randint(n)``, logging
    (answer, n) of every call."""

    def __init__(self, prefix):
        self.prefix = list(prefix)
        self.log = []
        self.calls = 0

    def randint(self, n):
        i = len(self.log)
        v = self.prefix[i] if i < len(self.prefix) else 0
        assert 0 <= v < n
        self.log.append((v, n))
        self.calls += 1
        return v


def exact_share(pos: Position, rules, seats) -> Fraction:
    """Seat 0's expected win share from ``pos``: the reference game played on every sequence of
    random numbers (depth first, like an odometer), each weighted by Π 1/n."""
    total, prefix = Fraction(0), []
    while True:
        game = pos.reference(rules, seats, Enumerator(prefix))
        game.play_out(0, **pos.entry())
        assert game.ended, "a test position must end the game in this turn"
        weight = Fraction(1)
        for _v, n in game.rng.log:
            weight /= n
        total += weight * Fraction(game.result()["shares"][0]).limit_denominator(6)
        log = game.rng.log
        while log and log[-1][0] == log[-1][1] - 1:
            log.pop()
        if not log:
            return total
        prefix = [v for v, _n in log[:-1]] + [log[-1][0] + 1]


def kernel_shares(pos: Position, rules, seats, trials=3000, seed=5):
    """Seat 0's win share in each of ``trials`` kernel games from ``pos`` (block key of
    ``seed``, trial t), each checked against the reference on the same stream."""
    from analyzer.pystream import Stream
    from analyzer.rng import block_keys
    from kernels.rng import seed_trial
    from kernels.trash_pandas.whole import COUNTERS, NACC, continue_game, win_share

    deck = deck_arrays(rules.deck)
    bots = lineup_array([parse_lineup(seats, pos.players)])[0]
    rarr = rules_array(rules, check=True)
    copies = np.array(pos.copies(), dtype=np.int64)
    tabs = (np.zeros(2 * 64 * 64, np.uint8), np.zeros(2 * 64 * 64 * 6, np.uint8))
    key = block_keys(seed, 0, 1)[0]
    s = np.zeros(4, dtype=np.uint64)
    acc = np.zeros(NACC)
    w = np.zeros(16, dtype=np.int64)
    scores = np.zeros(4, dtype=np.int64)
    e = pos.entry()
    out = []
    for t in range(trials):
        g = pos.state()
        seed_trial(key, t, s)
        acc[:] = 0
        continue_game(g, 0, e["mode"], e["held"], ENTRY[e["action"]], e["face"], e["choice"],
                      bots, deck.pts, deck.per_card, copies, rarr, *tabs, acc, s, w)
        share = win_share(g, 0, pos.players, deck.pts, deck.per_card, rarr, w, scores)
        assert acc[-1] == 0, "conservation violated"
        if t < 300:  # the same game in the reference, on the same stream
            game = pos.reference(rules, seats, Stream(key, t))
            game.play_out(0, **e)
            assert game.result()["shares"][0] == share, f"trial {t}"
            assert [list(x.stash) for x in game.seats] == [list(g[4 + p]) for p in range(2)]
            assert [game.count[c] for c in COUNTERS] == list(acc[:len(COUNTERS)])
        out.append(share)
    return np.array(out)


def check(pos, rules, seats, want: Fraction):
    assert exact_share(pos, rules, seats) == want
    shares = kernel_shares(pos, rules, seats)
    mean = shares.mean()
    se = max(shares.std(ddof=1) / np.sqrt(len(shares)), 1e-12)
    assert abs(mean - float(want)) <= 4.5 * se + 1e-12, (mean, se, want)


# --------------------------------------------------------------------------- Feesh
def feesh_position(in_discard):
    """A bonus turn (cap 3) after the last card was drawn: seat 1 holds {trees, paw} and rolls
    once more (bonus-stop-at=3). Hand: a Feesh and a Yum Yum; the discard pile: ``in_discard``.
    Stashes: seat 1 a Blammo! (1 point), seat 2 a Nanners (4 points); seat 2's hand is empty.

    By hand: a new face (4 of 6) takes the third token, the cap: trees stashes the Yum Yum
    (4 points: 5 against 4, a win; Paw and the draw tokens find nothing to take, and the
    resolve step's Feesh fetch keeps its card in hand). A repeat (2 of 6) busts (1 against 4,
    a loss) unless the Feesh fetches a save: a Blammo! rolls again, winning with 4/6 again;
    a Nanners stops on {trees, paw}, which stashes the Yum Yum (a win). So P(win):
    Feesh only while resolving 4/6 = 2/3; any moment, Blammo! 2/3 + (1/3)(2/3) = 8/9;
    any moment, Nanners 2/3 + 1/3 = 1."""
    return Position(hands={0: {FEESH: 1, YUMYUM: 1}}, stashes={0: {BLAMMO: 1}, 1: {NANNERS: 1}},
                    discard={in_discard: 1}, ended=True, mode=1, held=(TREES, PAW))


BONUS3 = "heuristic:bonus-stop-at=3"


@pytest.mark.parametrize("timing, card, seats, want", [
    ("resolve", BLAMMO, BONUS3, Fraction(2, 3)),
    ("any", BLAMMO, BONUS3, Fraction(8, 9)),
    ("any", NANNERS, BONUS3, Fraction(1)),
    ("any", BLAMMO, BONUS3 + ":feesh-saves=no", Fraction(2, 3)),  # the knob off: no save
    ("resolve", NANNERS, BONUS3, Fraction(2, 3)),
])
def test_feesh_saves_a_repeat_by_the_rulebook(timing, card, seats, want):
    check(feesh_position(card), TrashPandasRules(feesh_timing=timing), seats, want)


def test_feesh_save_is_counted_and_leaves_the_fetched_card_spent():
    """One scripted game of the position: repeat (trees), Feesh → Blammo!, then trash: the
    Feesh and the Blammo! are both in the discard pile, the Yum Yum is stashed."""
    from tests.test_trash_pandas_whole_rules import Script

    game = feesh_position(BLAMMO).reference(TrashPandasRules(), BONUS3, Script([TREES, TRASH]))
    game.play_out(0, **feesh_position(BLAMMO).entry())
    assert game.count["feesh_saves"] == 1 and game.count["blammo"] == 1
    assert game.discard[FEESH] == 1 and game.discard[BLAMMO] == 1
    assert game.seats[0].stash[YUMYUM] == 1 and game.result()["shares"] == [1.0, 0.0]


# --------------------------------------------------------------------------- the lock
def lock_position():
    """Seat 1 stops holding {trees, paw} with two usable MMM Pie!: both tokens resolve twice
    (trees before paw in the Pie order). Seat 2 holds a Doggo and a Feesh and has a Nanners
    stashed (4 points); the pile: two Doggos.

    By hand: the first Paw is blocked by the Doggo, which draws the pile's last two cards (two
    Doggos; the game ends after this turn). Rulebook lock (only the active player's gains are
    locked): seat 2 blocks the second Paw with a new Doggo; seat 1 stashes nothing, 0 against 4:
    P(win) = 0. Every player's gains locked: the second Paw takes one of seat 2's three cards at
    random; the Feesh (1 in 3) is stashed by the four tree slots, 5 against 4: P(win) = 1/3."""
    return Position(hands={0: {PIE: 2}, 1: {DOGGO: 1, FEESH: 1}}, stashes={1: {NANNERS: 1}},
                    pile={DOGGO: 2}, held=(TREES, PAW), action="stop")


@pytest.mark.parametrize("lock, want", [("active", Fraction(0)), ("all", Fraction(1, 3))])
def test_an_opponents_new_doggo_blocks_the_same_turn_only_by_the_rulebook(lock, want):
    check(lock_position(), TrashPandasRules(gain_lock=lock), "heuristic", want)


def test_the_bonus_turn_unlocks_the_main_turns_gains_by_the_rulebook():
    """Scripted: all six with a pile of MMM Pie! only, then a bonus turn of trash, trees, paw.
    Main turn by hand: trash draws 2, trash-tree draws 1 (2 spare cards do not outnumber the 2
    tree slots), the Mask draws 1, trees stashes 2: two Pies gained this turn stay in hand.
    Rulebook: the bonus turn is a new turn for the lock, so both Pies double the first two bonus
    tokens (trash, trees: 4 draws, 4 stash slots): 2 Pies played, 6 stashed, 20 − 8 left.
    Every player's gains locked through the bonus turn: no Pie, trash draws 2 and trees stashes
    2: 4 stashed, 20 − 6 left."""
    from tests.test_trash_pandas_whole_rules import make, run

    script = [0, 1, 2, 3, 4, 5] + [0, 0, 0, 0] + [TRASH, TREES, PAW]
    g = make(bots="heuristic:stop-at=6:bonus-stop-at=3", pile={PIE: 20})
    run(g, script + [0] * 4)
    assert g.count["pie"] == 2 and g.discard[PIE] == 2
    assert g.seats[0].stash[PIE] == 6 and sum(g.pile) == 20 - 8
    old = make(bots="heuristic:stop-at=6:bonus-stop-at=3", pile={PIE: 20},
               rules=TrashPandasRules(gain_lock="all"))
    run(old, script + [0] * 2)
    assert old.count["pie"] == 0 and sum(old.pile) == 20 - 6
    assert old.seats[0].stash[PIE] == 4


@pytest.mark.parametrize("lock, pies", [("active", True), ("all", False)])
def test_the_kernel_unlocks_the_main_turns_gains_in_the_bonus_turn_as_the_reference(lock, pies):
    """The scripted position above, from the roll that completes all six, played to the end of
    the game by the kernel and the reference on 300 shared streams: the same games; MMM Pie!
    (all of it drawn this turn) is played in some bonus turn only under the rulebook's lock."""
    pos = Position(pile={PIE: 20}, held=(TRASH, TREES, TRASH_TREE, PAW, MASK), action="face",
                   face=RECYCLE, choice=0)
    rules = TrashPandasRules(gain_lock=lock)
    seats = "heuristic:stop-at=6:bonus-stop-at=3"
    kernel_shares(pos, rules, seats, trials=300)  # asserts the games agree
    from tests.test_trash_pandas_whole_rules import Script

    first = pos.reference(rules, seats, Script([0] * 4 + [TRASH, TREES, PAW] + [0] * 4))
    first.turn(0, **pos.entry())
    assert (first.count["pie"] > 0) == pies


# --------------------------------------------------------------------------- Shiny
def shiny_position():
    """Seat 1 rolled a repeat (trash, held) with no save: a bust. It holds a Shiny and has a
    Feesh stashed; seat 2 has a Feesh and a Nanners stashed face down (4 + 4 against 4); the
    pile holds one Doggo, the consolation draw ends the game.

    By hand: Shiny on the own turn (rulebook) takes one of seat 2's two face-down cards:
    the Feesh (1/2): 5 against 4, a win; the Nanners (1/2): 4 against 4, one type and one card
    each, shared (1/2). P = 1/2 + 1/4 = 3/4. Shiny only after a turn that did not bust: 4 against
    8, P = 0."""
    return Position(hands={0: {SHINY: 1}}, stashes={0: {FEESH: 1}, 1: {FEESH: 1, NANNERS: 1}},
                    pile={DOGGO: 1}, held=(TRASH,), action="face", face=TRASH, choice=0)


@pytest.mark.parametrize("timing, want", [("any", Fraction(3, 4)), ("resolve", Fraction(0))])
def test_shiny_is_played_on_a_busted_turn_by_the_rulebook(timing, want):
    check(shiny_position(), TrashPandasRules(shiny_timing=timing), "heuristic", want)


# --------------------------------------------------------------------------- consolation
def consolation_position(pile, mine, theirs_up, theirs_down=None):
    """Seat 1 busts (a repeat, no save); its stash ``mine`` (face down), seat 2's ``theirs_up``
    face up and ``theirs_down`` face down."""
    return Position(stashes={0: mine, 1: theirs_down or {}}, ups={1: theirs_up}, pile=pile,
                    held=(TRASH,), action="face", face=TRASH, choice=0)


# points seat 1 sees, by hand: its whole stash against seat 2's face-up cards (Yum Yum and
# Nanners 4/2/1, Feesh 5/3/1, MMM Pie! 6/2/1, alone in every type: first place)
@pytest.mark.parametrize("knob, pile, mine, up, down, declines", [
    # Yum Yum 4 against Nanners 4 + Feesh 5 = 9: trailing, the last card: declined
    ("trailing", {DOGGO: 1}, {YUMYUM: 1}, {NANNERS: 2, FEESH: 1}, None, True),
    ("never", {DOGGO: 1}, {YUMYUM: 1}, {NANNERS: 2, FEESH: 1}, None, False),
    ("trailing", {DOGGO: 2}, {YUMYUM: 1}, {NANNERS: 2, FEESH: 1}, None, False),  # not the last
    # 4 against 4: not behind (a tie is not trailing)
    ("trailing", {DOGGO: 1}, {YUMYUM: 1}, {NANNERS: 1}, None, False),
    # its own face-down Pie counts: 4 + 6 = 10 against 9
    ("trailing", {DOGGO: 1}, {YUMYUM: 1, PIE: 1}, {NANNERS: 2, FEESH: 1}, None, False),
    # seat 2's face-down cards are not seen: 4 against 0
    ("trailing", {DOGGO: 1}, {YUMYUM: 1}, {}, {FEESH: 3, NANNERS: 3}, False),
    # a shared type: Yum Yum 2 against 1 (4 against 2 for seat 2) plus seat 2's Feesh 5: 4 < 7
    ("trailing", {DOGGO: 1}, {YUMYUM: 2}, {YUMYUM: 1, FEESH: 1}, None, True),
])
def test_an_optional_consolation_draw_is_declined_only_as_the_knob_says(knob, pile, mine, up,
                                                                        down, declines):
    """The decision after the bust, in the reference and the kernel (whole_bots
    takes_consolation) on the same hand-set state; mandatory draws are never declined."""
    from tests.test_trash_pandas_whole_rules import Script
    from kernels.trash_pandas.whole_bots import takes_consolation

    pos = consolation_position(pile, mine, up, down)
    seats = f"heuristic:decline-last-card={knob}"
    for rule, want in (("optional", declines), ("mandatory", False)):
        game = pos.reference(TrashPandasRules(consolation=rule), seats,
                             Script([] if want else [0]))
        game.turn(0, **pos.entry())
        assert game.count["consolation_declined"] == int(want)
        assert sum(game.pile) == sum(pile.values()) - (0 if want else 1)
    deck = deck_arrays()
    bot = lineup_array([parse_lineup(seats, 2)])[0][0]
    assert takes_consolation(pos.state(), 0, bot, deck.pts, deck.per_card,
                             np.zeros(4, np.uint64)) == (not declines)


def test_declining_the_last_card_when_trailing_never_loses_a_two_player_game():
    """With two players (and the shipped deck) a seat whose points as it sees them trail the
    opponent's would lose for sure if the game ended now (its count is an upper bound, the
    opponent's a lower one), so declining cannot turn a won game into a lost one: game by game
    on the same streams (one game per block), seat 1's win share with the decline rule is never
    below its share without it, and a game without a decline is the same game. (Seat 1 rolls to
    six tokens, so it busts often and declines in about 1 game in 170; measured: no game in
    20,000 of the default line-up where declining changed the winner.)"""
    from analyzer.games.trash_pandas.whole import GameSetup
    from analyzer.rng import block_keys

    rules = TrashPandasRules(consolation="optional")
    lus = [parse_lineup(f"heuristic:stop-at=6:decline-last-card={x},"
                        "heuristic:stop-at=2:decline-last-card=never", 2)
           for x in ("never", "trailing")]
    setup = GameSetup(rules, 2, lus)
    games = 3000
    out = setup.run_blocks(block_keys(99, 0, games), np.ones(games, dtype=np.int64))
    cols = setup.columns()
    d = out[:, cols.index("L1-L0:dwin0")]
    declined = out[:, cols.index("L1:consolation_declined")]
    assert out[:, cols.index("L0:consolation_declined")].sum() == 0
    assert declined.sum() >= 10
    assert (d >= 0).all()
    assert (d[declined == 0] == 0).all()  # no decline, the same game


# --------------------------------------------------------------------------- whole games
def _sums(players, seats, rules, blocks=4, per_block=300, lineups=None):
    from analyzer.games.trash_pandas.whole import GameSetup
    from analyzer.rng import block_keys

    lus = [parse_lineup(x, players) for x in (lineups or [seats])]
    setup = GameSetup(rules, players, lus, check=True)
    out = setup.run_blocks(block_keys(777, 0, blocks), np.full(blocks, per_block, np.int64))
    return dict(zip(setup.columns(), (float(x) for x in out.sum(axis=0))))


def test_feesh_saves_mean_fewer_busts_per_game():
    """Sign check on the same games (common random numbers): the knob on saves repeats, so
    busts per game fall; it plays Feesh in the roll phase only under the rulebook's timing."""
    from analyzer.stats import mean_from_sums

    s = _sums(3, None, TrashPandasRules(), blocks=4, per_block=500,
              lineups=["heuristic", "heuristic:feesh-saves=no"])
    n = int(s["L0:games"])
    assert s["L0:feesh_saves"] > 0 and s["L1:feesh_saves"] == 0
    on, off = (mean_from_sums(s[f"L{l}:main_busts"], s[f"L{l}:main_busts_sq"], n)
               for l in (0, 1))
    # measured about 0.45 fewer busts a game (3 players); the SEs are of each mean alone
    assert off.estimate - on.estimate > 5 * np.hypot(on.se, off.se)
    resolve = _sums(3, "heuristic", TrashPandasRules(feesh_timing="resolve"))
    assert resolve["L0:feesh_saves"] == 0


# Per-column sums of four blocks of 300 games (block keys of seed 777) taken from the engine as
# it was before these readings existed (commit 7328da1), one line-up each: the house-rule keys
# of the old readings (feesh_timing = resolve, gain_lock = all, shiny_timing = resolve; and
# decline-last-card=never where the consolation draw is optional) must replay it exactly. Values:
# sha256 prefix of repr of the old columns' sums in their old order, and (games, seat 1 win
# share sum, main busts, Feesh plays, Shiny plays).
OLD_ENGINE = {
    "3p-heuristic": ((3, "heuristic", {}),
                     "55dac811a55f44ec", (1200.0, 328.0, 3909.0, 4266.0, 5052.0)),
    "3p-solver": ((3, "solver", {}),
                  "0e3ac1845bb9c03b", (1200.0, 334.3333333333333, 4401.0, 4112.0, 4666.0)),
    "4p-mixed": ((4, "random,heuristic:stop-at=5:yumyum-at=1:decline-last-card=never,random,"
                     "heuristic:block=no:decline-last-card=never",
                  {"consolation": "optional", "bonus_cap": 4}),
                 "d273e576f6d271dd", (1200.0, 19.333333333333332, 7827.0, 4190.0, 4152.0)),
    "2p-mixed": ((2, "heuristic:stop-at=4,solver", {"mask_card": "discard"}),
                 "d8366fe8833883fc", (1200.0, 416.5, 7905.0, 3416.0, 3554.0)),
}
OLD_READINGS = {"feesh_timing": "resolve", "gain_lock": "all", "shiny_timing": "resolve"}
NEW_COUNTERS = ("feesh_saves", "consolation_declined")


@pytest.mark.parametrize("name", sorted(OLD_ENGINE))
def test_the_old_readings_replay_the_old_engine_exactly(name):
    (players, seats, rules), digest, head = OLD_ENGINE[name]
    s = _sums(players, seats, TrashPandasRules(**rules, **OLD_READINGS))
    old = [v for k, v in s.items() if not k.removeprefix("L0:").removesuffix("_sq")
           in NEW_COUNTERS]
    assert (s["L0:games"], s["L0:win0"], s["L0:main_busts"], s["L0:feesh"],
            s["L0:shiny"]) == head
    assert hashlib.sha256(repr(old).encode()).hexdigest()[:16] == digest
    assert s["L0:feesh_saves"] == 0 and s["L0:violations"] == 0


def test_each_rulebook_reading_changes_the_games():
    """Each default reading, set back to the old one alone, changes what happens (so none of
    the three keys is dead): Feesh saves vanish, Shiny plays fall (no plays after a bust), and
    the lock changes the sums."""
    new = _sums(3, "heuristic", TrashPandasRules())
    feesh = _sums(3, "heuristic", TrashPandasRules(feesh_timing="resolve"))
    shiny = _sums(3, "heuristic", TrashPandasRules(shiny_timing="resolve"))
    lock = _sums(3, "heuristic", TrashPandasRules(gain_lock="all"))
    assert new["L0:feesh_saves"] > 0 and feesh["L0:feesh_saves"] == 0
    assert new["L0:shiny"] > shiny["L0:shiny"]
    assert lock != new
    for s in (new, feesh, shiny, lock):
        assert s["L0:violations"] == 0 and s["L0:truncated"] == 0


# --------------------------------------------------------------------------- ties
def test_tied_top_points_split_into_decided_and_still_shared():
    """`game` splits the games whose top points are tied: 50 of 1,000 games tied, 12 of them
    still shared after every tie-break, so 38 decided by a tie-break (Wilson intervals of
    those counts); the text shows all three lines."""
    from analyzer.games.trash_pandas.whole import summarise_lineup
    from kernels.trash_pandas.whole_games import column_names

    sums = {c: 0.0 for c in column_names(3, 1)}
    sums.update({"L0:games": 1000.0, "L0:tiebreak": 50.0, "L0:shared": 12.0,
                 "L0:main_turns": 14000.0})
    out = summarise_lineup(sums, 0, 3, 1000)
    assert out["tiebreak_share"].estimate == pytest.approx(0.050)
    assert out["decided_by_tiebreak"].estimate == pytest.approx(0.038)
    assert out["shared_wins"].estimate == pytest.approx(0.012)
    # Wilson, z = 1.96, for 38 of 1000: centre (38 + z²/2)/(1000 + z²), half-width
    # z·sqrt(38·962/1000 + z²/4)/(1000 + z²)
    z = 1.959963984540054
    centre = (38 + z * z / 2) / (1000 + z * z)
    half = z * np.sqrt(38 * 962 / 1000 + z * z / 4) / (1000 + z * z)
    assert out["decided_by_tiebreak"].ci_low == pytest.approx(centre - half)
    assert out["decided_by_tiebreak"].ci_high == pytest.approx(centre + half)


def test_game_output_reports_shared_wins_apart_and_none_decided_when_ties_are_shared():
    """Whole games: with tie = tiebreaks the shared wins are a part of the tied games; with
    tie = shared every tie on points is shared, so a tie-break decides none (an obvious
    direction), and the text output shows the split."""
    from analyzer.games.trash_pandas.whole import GameSetup, render_game, simulate_games
    from analyzer.runner import RunSpec

    for tie in ("tiebreaks", "shared"):
        setup = GameSetup(TrashPandasRules(tie=tie), 3, [parse_lineup("heuristic", 3)])
        out = simulate_games(setup, RunSpec(3000, 4, progress=False))
        lu = out["lineups"][0]
        top, decided, shared = (lu[k].estimate for k in ("tiebreak_share", "decided_by_tiebreak",
                                                          "shared_wins"))
        assert top == pytest.approx(decided + shared) and top > 0.02
        if tie == "shared":
            assert decided == 0.0 and shared == top
        else:
            assert 0 < shared < decided
        text = render_game(out)
        for label in ("top points tied", "  tie-break decided", "  still shared"):
            assert f"  {label:<22} " in text
