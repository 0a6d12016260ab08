"""The ``rollout:K`` bot (kernels/trash_pandas/whole_rollout.py): legal games, better than
random, and the right choice where the answer is known by hand.

The known position is the end game of tests/test_trash_pandas_whole_decide.py (a three-Feesh
deck, nothing hidden, the pile empty): stopping wins for sure; rolling on (the heuristic bot,
which the rollouts use for the rest of the turn, stops at 3 tokens) wins with 7/9; after rolling
a repeat, Nanners wins for sure and taking the bust shares the win (1/2).
"""
import json

import numpy as np
import pytest

from analyzer.cli.main import main as pushluck
from analyzer.games.trash_pandas.bots import lineup_array
from analyzer.games.trash_pandas.lineup import parse_bot, parse_lineup
from analyzer.games.trash_pandas.position import parse_position
from analyzer.games.trash_pandas.rules import TrashPandasRules
from analyzer.games.trash_pandas.score import deck_arrays
from analyzer.games.trash_pandas.whole import GameSetup, rules_array
from analyzer.rng import block_keys
from analyzer.rules import load_toml
from tests.test_trash_pandas_whole_decide import DECK, END_GAME


def _json(argv, capsys):
    try:
        pushluck(["trash-pandas"] + argv + ["--json", "--no-progress"])
    except SystemExit as exc:
        assert exc.code in (0, None)
    return json.loads(capsys.readouterr().out)


def test_rollout_games_are_legal_after_every_turn():
    setup = GameSetup(TrashPandasRules(), 3, [parse_lineup("rollout:4,random,heuristic", 3)],
                      check=True)
    keys = block_keys(4, 0, 4)
    out = setup.run_blocks(keys, np.full(4, 10, dtype=np.int64))
    sums = dict(zip(setup.columns(), out.sum(axis=0)))
    assert sums["L0:games"] == 40
    assert sums["L0:violations"] == 0 and sums["L0:truncated"] == 0
    assert sum(sums[f"L0:win{i}"] for i in range(3)) == pytest.approx(40)


def test_rollout_bot_beats_the_random_bot_in_either_seat(capsys):
    out = _json(["game", "--players", "2", "-n", "240", "--seed", "3",
                 "--seats", "rollout:8,random", "--vs", "random,rollout:8"], capsys)
    first, swapped = out["lineups"]
    assert first["lineup"] == "rollout:8,random"
    assert first["seats"][0]["win_rate"]["ci_low"] > 0.5
    assert swapped["seats"][1]["win_rate"]["ci_low"] > 0.5


def _end_game(tmp_path, text, nanners=0, feesh=3, **rule_keys):
    deck_file = tmp_path / "deck.toml"
    deck_file.write_text(DECK.replace("[cards.nanners]\ncopies = 0",
                                      f"[cards.nanners]\ncopies = {nanners}")
                         .replace("[cards.feesh]\ncopies = 3", f"[cards.feesh]\ncopies = {feesh}"))
    rules = TrashPandasRules(deck=str(deck_file), **rule_keys)
    deck = deck_arrays(rules.deck)
    pos_file = tmp_path / "pos.toml"
    pos_file.write_text(text)
    pos = parse_position(load_toml(str(pos_file)), deck, rules.bonus_cap)
    return pos, deck, rules_array(rules)


def _kernel_args(pos, deck, rules, bot):
    bots = lineup_array([(parse_bot(bot), parse_bot("heuristic"))])[0]
    tabs = (np.zeros(2 * 64 * 64, np.uint8), np.zeros(2 * 64 * 64 * 6, np.uint8))
    s = np.array([1, 2, 3, 4], dtype=np.uint64)
    return bots, (deck.pts, deck.per_card, deck.copies, rules) + tabs + (s,)


END = END_GAME.format(extra="")
NANNERS_END = END_GAME.format(extra='rolled = "trees"').replace(
    "feesh = 1\n[seat.1]", "feesh = 1\nnanners = 1\n[seat.1]")


def test_rollout_values_match_the_hand_computed_end_game(tmp_path):
    from kernels.trash_pandas.whole import ENTRY_ROLL, ENTRY_STOP
    from kernels.trash_pandas.whole_rollout import rollout_values

    pos, deck, rules = _end_game(tmp_path, END)
    k = 4000
    bots, rest = _kernel_args(pos, deck, rules, f"rollout:{k}")
    choices = np.array([[ENTRY_STOP, 0, 0], [ENTRY_ROLL, 0, 0], [0, 0, 0]], dtype=np.int64)
    sums = rollout_values(pos.g0.copy(), pos.me, bots, 0, pos.held, choices, 2, *rest)
    assert sums[0] == k  # stopping wins in every world
    # each rolling world's share is 1 (probability 5/9) or 1/2 (a bust, 4/9): mean 7/9,
    # variance 5/9 + 4/9 · 1/4 − (7/9)² = 5/81
    se = (5 / 81 / k) ** 0.5
    assert abs(sums[1] / k - 7 / 9) <= 5 * se
    # the paired difference roll − stop is 0 or −1/2 (a bust, 4/9): mean square 1/9, and the
    # square's variance 4/9 · 1/16 − 1/81 = 5/324
    assert sums[2] == 0 and abs(sums[3] / k - 1 / 9) <= 5 * (5 / 324 / k) ** 0.5


def test_rollout_bot_stops_where_the_heuristic_rolls_on(tmp_path):
    from kernels.trash_pandas.whole_bots import keep_rolling
    from kernels.trash_pandas.whole_rollout import keep_rolling_rollout

    pos, deck, rules = _end_game(tmp_path, END)
    bots, rest = _kernel_args(pos, deck, rules, "rollout:64")
    pts, per_card, copies, rules_arr, roll_tab, after_tab, s = rest
    held, nh = pos.held, 1
    assert keep_rolling(pos.g0, pos.me, bots[0], held, nh, 0, roll_tab, s)  # heuristic: roll
    assert not keep_rolling_rollout(pos.g0.copy(), pos.me, bots[0], bots, held, nh, 0, *rest)


def test_rollout_bot_spends_nanners_on_a_repeat_even_when_its_knob_says_no(tmp_path):
    from kernels.trash_pandas.whole_bots import TAKE, USE_NANNERS, after_roll
    from kernels.trash_pandas.whole_rollout import after_roll_rollout

    pos, deck, rules = _end_game(tmp_path, NANNERS_END, nanners=1)
    bots, rest = _kernel_args(pos, deck, rules, "rollout:64:nanners-saves=no")
    roll_tab, after_tab, s = rest[4:]
    face = pos.rolled
    assert after_roll(pos.g0, pos.me, bots[0], pos.held, 0, face, roll_tab, after_tab, s) == TAKE
    assert after_roll_rollout(pos.g0.copy(), pos.me, bots[0], bots, pos.held, 0, face,
                              *rest) == USE_NANNERS


# The Nanners end game with the Nanners in the discard pile and a second Feesh in my hand (a
# four-Feesh deck): a Feesh fetches the Nanners and spends it at once (the rulebook's own use of
# Feesh), the trees token then stashes my other Feesh (2 Feesh against the opponent's 1: a sure
# win); taking the bust returns the token (1 Feesh each: the win shared, 1/2).
FEESH_END = END_GAME.format(extra='rolled = "trees"\ndiscard = { nanners = 1 }').replace(
    "feesh = 1\n[seat.1]", "feesh = 2\n[seat.1]")


def test_rollout_bot_plays_a_feesh_for_the_nanners_its_knob_would_not(tmp_path):
    from kernels.trash_pandas.whole import ENTRY_FACE
    from kernels.trash_pandas.whole_bots import FEESH_NANNERS, TAKE, after_roll, feesh_save
    from kernels.trash_pandas.whole_rollout import after_roll_rollout, rollout_values

    pos, deck, rules = _end_game(tmp_path, FEESH_END, nanners=1, feesh=4)
    bots, rest = _kernel_args(pos, deck, rules, "rollout:64:feesh-saves=no")
    roll_tab, after_tab, s = rest[4:]
    face = pos.rolled
    # the heuristic (its knob off) takes the bust: no Blammo! or Nanners held, no Feesh save
    heuristic = lineup_array([(parse_bot("heuristic:feesh-saves=no"),
                               parse_bot("heuristic"))])[0][0]
    assert after_roll(pos.g0, pos.me, heuristic, pos.held, 0, face, roll_tab, after_tab, s) == TAKE
    assert feesh_save(pos.g0, pos.me, heuristic, pos.held, 0, face, roll_tab, after_tab,
                      s) == TAKE
    k = 64
    choices = np.array([[ENTRY_FACE, face, TAKE], [ENTRY_FACE, face, FEESH_NANNERS],
                        [0, 0, 0]], dtype=np.int64)
    sums = rollout_values(pos.g0.copy(), pos.me, bots, 0, pos.held, choices, 2, *rest)
    assert (sums[0], sums[1]) == (k / 2, k)  # nothing hidden: every world alike, by hand
    assert after_roll_rollout(pos.g0.copy(), pos.me, bots[0], bots, pos.held, 0, face,
                              *rest) == FEESH_NANNERS
    # the engine asks a rollout seat's Feesh rule no more: it weighed the fetch itself
    assert feesh_save(pos.g0, pos.me, bots[0], pos.held, 0, face, roll_tab, after_tab,
                      s) == TAKE


def test_rollout_bot_has_no_feesh_save_when_feesh_waits_for_the_resolve_step(tmp_path):
    """Under feesh_timing = resolve a Feesh is not played while rolling: the repeat is a bust."""
    from kernels.trash_pandas.whole_bots import TAKE
    from kernels.trash_pandas.whole_rollout import after_roll_rollout

    pos, deck, rules = _end_game(tmp_path, FEESH_END, nanners=1, feesh=4,
                                 feesh_timing="resolve")
    bots, rest = _kernel_args(pos, deck, rules, "rollout:64:feesh-saves=no")
    assert after_roll_rollout(pos.g0.copy(), pos.me, bots[0], bots, pos.held, 0, pos.rolled,
                              *rest) == TAKE


@pytest.mark.parametrize("seats, words", [("rollout:0", "1..4096"), ("rollout:many", "whole"),
                                          ("heuristic:rollouts=3", "rollouts")])
def test_bad_rollout_bot_is_one_line_exit_2(capsys, seats, words):
    with pytest.raises(SystemExit) as exc:
        pushluck(["trash-pandas", "game", "--seats", seats, "-n", "10"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and words in err and err.count("\n") == 1
