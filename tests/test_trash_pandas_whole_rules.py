"""Scripted Trash Pandas whole-game rules: one transition per test, dice and draws given.

The step function is the plain-Python game loop (analyzer/games/trash_pandas/reference.py)
fed by a scripted stream: every random number (die face, drawn card, stolen card) is listed in
order. test_trash_pandas_whole_engine.py shows the Numba kernel plays the same games as this
loop, so these checks hold for the kernel too. Expected values are worked out by hand.
"""
import numpy as np
import pytest

from analyzer.games.trash_pandas.lineup import parse_bot
from analyzer.games.trash_pandas.reference import (BLAMMO, DOGGO, FEESH, KITTEH, NANNERS,
                                                         PIE, SHINY, YUMYUM, Game)
from analyzer.games.trash_pandas.rules import TrashPandasRules
from analyzer.games.trash_pandas.score import deck_arrays
from analyzer.games.trash_pandas.whole import rules_array

TRASH, TREES, TRASH_TREE, PAW, MASK, RECYCLE = range(6)


class Script:
    """A stream that returns the listed numbers in order (and checks each is in range)."""

    def __init__(self, values):
        self.values = list(values)
        self.calls = 0

    def randint(self, n):
        assert self.values, f"script exhausted (randint({n}))"
        v = self.values.pop(0)
        assert 0 <= v < n, f"scripted {v} not in [0, {n})"
        self.calls += 1
        return v


def make(players=3, bots="heuristic", rules=TrashPandasRules(), pile=None, hands=None, stashes=None,
         ups=None, discard=None):
    """A game with the given piles (type → count dicts by seat); every card not placed is out."""
    deck = deck_arrays(rules.deck)
    bot_rows = [parse_bot(b).row() for b in (bots if isinstance(bots, list) else [bots] * players)]
    g = Game(players, deck, rules_array(rules), [0] * 4, np.array(bot_rows),
             (np.zeros(2 * 64 * 64, np.uint8), np.zeros(2 * 64 * 64 * 6, np.uint8)), Script([]))
    g.pile = [0] * 8
    for t, c in (pile or {}).items():
        g.pile[t] = c
    for p, hand in (hands or {}).items():
        for t, c in hand.items():
            g.seats[p].hand[t] = c
    for p, st in (stashes or {}).items():
        for t, c in st.items():
            g.seats[p].stash[t] = c
    for p, st in (ups or {}).items():
        for t, c in st.items():
            g.seats[p].up[t] = c
            g.seats[p].stash[t] += c
    for t, c in (discard or {}).items():
        g.discard[t] = c
    g.copies = [g.pile[t] + g.discard[t] + sum(s.hand[t] + s.stash[t] for s in g.seats)
                for t in range(8)]
    return g


def run(game, script, a=0, **entry):
    game.rng = Script(script)
    game.turn(a, **entry)
    assert game.rng.values == [], "script not used up"
    assert game.conserved()
    return game


def index_of(counts, t):
    """The randint value that draws type t from ``counts``."""
    return sum(counts[:t])


def test_bust_returns_tokens_and_draws_one_consolation_card():
    g = make(bots="heuristic:stop-at=3", pile={PIE: 2})
    run(g, [TRASH, TRASH, 0])  # trash, trash again: bust; consolation draw (index 0 = a Pie)
    assert g.seats[0].hand == [0, 0, 0, 0, 1, 0, 0, 0]
    assert g.count["main_busts"] == 1 and g.pile[PIE] == 1


def test_optional_consolation_can_be_declined():
    g = make(bots="random", rules=TrashPandasRules(consolation="optional"), pile={PIE: 2})
    # trash; coin 1: roll again; trash repeats (random bot with no cards: randint(1) = 0, take):
    # bust; coin 0: decline the consolation draw
    run(g, [TRASH, 1, TRASH, 0, 0])
    assert sum(g.seats[0].hand) == 0 and g.pile[PIE] == 2 and g.count["main_busts"] == 1


def test_blammo_ignores_a_repeat_and_rolls_again():
    g = make(bots="heuristic:stop-at=2", hands={0: {BLAMMO: 1}}, pile={PIE: 5})
    run(g, [TREES, TREES, TRASH, 0, 0])  # repeat → Blammo!, then trash: stop at 2; draw 2
    assert g.discard[BLAMMO] == 1 and g.count["blammo"] == 1 and g.count["main_busts"] == 0
    # trees then stashes the 2 Pies just drawn (a gained card may be stashed)
    assert g.seats[0].stash[PIE] == 2 and g.seats[0].hand[PIE] == 0


def test_nanners_cancels_the_roll_and_stops():
    g = make(bots="heuristic:stop-at=6", hands={0: {NANNERS: 1}}, pile={PIE: 5})
    run(g, [TRASH, TRASH, 0, 0])  # trash; repeat → Nanners: stop holding trash; draw 2
    assert g.discard[NANNERS] == 1 and g.seats[0].hand[PIE] == 2 and g.count["rolls"] == 2


def test_a_card_gained_this_turn_cannot_be_played_for_its_action():
    g = make(bots="heuristic:stop-at=6", pile={BLAMMO: 5}, hands={0: {BLAMMO: 1}})
    g.seats[0].gain[BLAMMO] = 1
    run(g, [TRASH, TRASH, 0])  # the repeat cannot be saved by the gained Blammo!: bust
    assert g.count["main_busts"] == 1 and g.discard[BLAMMO] == 0


def test_yumyum_forces_one_more_roll_after_a_stop():
    g = make(bots=["heuristic:stop-at=1", "heuristic:yumyum-at=1", "heuristic"],
             hands={1: {YUMYUM: 1}}, pile={PIE: 3})
    run(g, [TREES, TREES, 0])  # stop at 1 → Yum Yum → forced roll repeats: bust, draw 1
    assert g.discard[YUMYUM] == 1 and g.count["yumyum"] == 1 and g.count["main_busts"] == 1


def test_paw_blocked_by_doggo_draws_two_and_takes_nothing():
    g = make(bots="heuristic:stop-at=1", hands={1: {DOGGO: 1, PIE: 1}}, pile={FEESH: 4})
    run(g, [PAW, 0, 0])  # paw on seat 2 (biggest stash: all 0 → biggest hand tie-break): Doggo
    assert g.discard[DOGGO] == 1 and g.seats[1].hand[FEESH] == 2 and g.seats[1].hand[PIE] == 1
    assert sum(g.seats[0].hand) == 0 and g.count["paw_steals"] == 0


def test_kitteh_chain_steals_back_and_can_be_blocked_again():
    g = make(players=2, bots="heuristic:stop-at=1",
             hands={0: {KITTEH: 1, YUMYUM: 1}, 1: {KITTEH: 1, FEESH: 1}})
    # paw: seat 2 plays Kitteh (steal back from seat 1), seat 1 plays Kitteh (steal back again),
    # seat 2 has no blocker left: seat 1 takes its one card, a Feesh (randint(1) = 0)
    run(g, [PAW, 0])
    assert g.discard[KITTEH] == 2 and g.count["kitteh"] == 2
    assert g.seats[0].hand[FEESH] == 1 and sum(g.seats[1].hand) == 0
    assert g.count["paw_steals"] == 1


def test_no_kitteh_chain_when_the_rule_is_off():
    g = make(players=2, bots="heuristic:stop-at=1",
             rules=TrashPandasRules(kitteh_chain=False),
             hands={0: {KITTEH: 1, YUMYUM: 1}, 1: {KITTEH: 1, FEESH: 1}})
    run(g, [PAW, 1])  # seat 2's Kitteh steals back seat 1's Yum Yum (index 1: Kitteh, Yum Yum)
    assert g.seats[1].hand[YUMYUM] == 1 and g.seats[0].hand[KITTEH] == 1
    assert g.count["paw_steals"] == 0


def test_bandit_mask_reactions_stash_face_up_and_pay_the_active_player():
    g = make(bots="heuristic:stop-at=1", hands={1: {FEESH: 1}, 2: {FEESH: 2}},
             pile={FEESH: 1, PIE: 3})
    reveal = index_of(g.pile, FEESH)
    run(g, [MASK, reveal, 0, 0])  # both react (Feesh scores); seat 1 draws 2 Pies
    assert g.seats[1].up[FEESH] == 1 and g.seats[2].up[FEESH] == 1
    assert g.seats[0].hand[FEESH] == 1 and g.seats[0].hand[PIE] == 2
    assert g.count["mask_reactions"] == 2


def test_feesh_takes_a_discard_card_usable_and_stashable_this_turn():
    g = make(bots="heuristic:stop-at=1", hands={0: {FEESH: 1}}, discard={PIE: 1, DOGGO: 2})
    run(g, [TREES])  # Feesh fetches the Pie (Doggo scores nothing), trees stashes it
    assert g.seats[0].stash[PIE] == 1 and g.discard[FEESH] == 1 and g.discard[PIE] == 0


def test_shiny_takes_a_face_up_card_unless_doggo_blocks():
    g = make(bots="heuristic:stop-at=1", hands={0: {SHINY: 1}}, ups={1: {FEESH: 1}},
             pile={PIE: 4})
    run(g, [TREES])
    # the stolen Feesh is a gained card: not playable this turn, but trees stashes it
    assert g.seats[1].stash[FEESH] == 0 and g.seats[0].stash[FEESH] == 1
    g2 = make(bots="heuristic:stop-at=1", hands={0: {SHINY: 1}, 1: {DOGGO: 1}},
              ups={1: {FEESH: 1}}, pile={PIE: 4})
    run(g2, [TREES, 0, 0])
    assert g2.seats[1].up[FEESH] == 1 and g2.seats[1].hand[PIE] == 2
    assert g2.count["shiny_steals"] == 0 and g2.discard[DOGGO] == 1


def test_pie_doubles_a_token():
    g = make(bots="heuristic:stop-at=1", hands={0: {PIE: 1}}, pile={FEESH: 6})
    run(g, [TRASH, 0, 0, 0, 0])  # trash resolves twice: 4 draws
    assert g.seats[0].hand[FEESH] == 4 and g.discard[PIE] == 1


def test_recycle_acts_as_a_token_not_held():
    g = make(bots="heuristic:stop-at=1", pile={FEESH: 6})
    run(g, [RECYCLE, 0, 0])  # recycle → trash (priority), 2 draws
    assert g.seats[0].hand[FEESH] == 2


def test_all_six_resolve_then_a_bonus_turn_capped_at_three():
    # every gain locked through the bonus turn, so the Pies drawn stay unplayed (the rulebook's
    # lock: tests/test_trash_pandas_rule_readings.py)
    g = make(bots="heuristic:stop-at=6:bonus-stop-at=3", pile={PIE: 20},
             rules=TrashPandasRules(gain_lock="all"))
    script = [0, 1, 2, 3, 4, 5]  # all six: trash 2 draws, trash-tree, mask (reveal), paw (none)
    # resolve: recycle is nothing; trash draws 2; trash-tree: spare 2 Pies > 2 trees slots? no:
    # 2 > 2 is false → draws 1; mask reveals one (no one reacts: empty hands); paw: no target
    script += [0, 0, 0, 0]
    script += [TRASH, TREES, PAW]  # bonus turn: three tokens, the cap; trash draws 2
    script += [0, 0]
    g = run(g, script)
    assert g.count["sixes"] == 1 and g.count["bonus_turns"] == 1
    assert g.count["rolls"] == 9


def test_the_game_ends_after_the_turn_that_draws_the_last_card():
    g = make(players=2, bots="heuristic:stop-at=1", pile={FEESH: 1})
    g.rng = Script([TRASH, 0])
    turns = g.play_out(0)
    assert turns == 1 and g.ended and g.seats[0].hand[FEESH] == 1


@pytest.mark.parametrize("counts, expected", [((3, 2, 1), (5, 3, 1)), ((3, 3, 1), (4, 4, 3)),
                                              ((2, 2, 2, 0), (4, 4, 4, 0))])
def test_public_majority_examples_in_the_kernel(counts, expected):
    from kernels.trash_pandas.whole_state import majority

    out = np.zeros(4, dtype=np.int64)
    c = np.zeros(4, dtype=np.int64)
    c[:len(counts)] = counts
    majority(c, len(counts), 5, 3, 1, out)
    assert tuple(out[:len(counts)]) == expected
