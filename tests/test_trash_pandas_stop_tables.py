"""The Trash Pandas whole-game stop rule table (kernels/trash_pandas/whole_bots.py
``rolls_by_table``) and the decision lists of `trash-pandas game-advice`.

* the kernel reads each feature of a position as the rules page counts it (set by hand);
* the kernel, the NumPy reading (``table_acts``) and the rule's own words (``Rule.acts``) decide
  alike for every table rule of the family on enumerated feature states;
* kernel = plain-Python reference game by game for line-ups with table bots, cards conserved;
* a table rule equal to a knob rule plays its games bit for bit; one that differs does not;
* a rule file played back (``rule:FILE.json``) replays the race's games: the same loss;
* the race reports saving against the equal-guarantee grid (and blocks_flat / blocks_spent);
  bad rule files exit 2 in one line.
"""
import json

import numpy as np
import pytest

from analyzer.advice import Rule
from analyzer.advice.table import table_acts
from analyzer.games.trash_pandas.advice_game import (FEATURE_IDS, StopRule, TableRule,
                                                     candidates, state_grid)
from analyzer.games.trash_pandas.lineup import parse_bot
from analyzer.games.trash_pandas.rules import TrashPandasRules
from analyzer.games.trash_pandas.whole import GameSetup
from analyzer.rng import block_keys

RULES = TrashPandasRules()
LIST3 = Rule("list", clauses=(("deck", "<=", 9, False), ("saves", ">=", 1, True),
                              ("tokens", ">=", 3, False)), default_act=True)
LIST_BEHIND = Rule("list", clauses=(("behind", ">=", 3, True), ("hand", ">=", 8, False),
                                    ("tokens", ">=", 4, False)), default_act=True)
BAND_SAVES = Rule("banded", "tokens", "<=", (1, 3), "saves", (1,))


def _state(players=3):
    from kernels.trash_pandas.whole_state import NROWS, NT, SC

    g = np.zeros((NROWS, NT), dtype=np.int64)
    g[SC, 2] = players
    return g


def test_the_kernel_reads_each_feature_of_a_position():
    """Three seats, 14 cards left, stashes of 2, 6 and 3 cards: seat 1 leads (0 behind), seat 0
    trails by 4. Seat 1 holds 5 cards: 2 Blammo! (one gained this turn, not playable yet),
    1 Nanners and 2 Doggo, so 2 saves; seat 0 holds 7 Doggo, no saves. F_ZERO is always 0."""
    from kernels.trash_pandas import whole_bots as B
    from kernels.trash_pandas.whole_state import BLAMMO, DOGGO, GAIN, HAND, NANNERS, SC, STASH

    g = _state()
    g[SC, 0] = 14
    for p, size in enumerate((2, 6, 3)):
        g[STASH + p, 3] = size
    g[HAND + 0, DOGGO] = 7
    g[HAND + 1, BLAMMO], g[GAIN + 1, BLAMMO] = 2, 1
    g[HAND + 1, NANNERS], g[HAND + 1, DOGGO] = 1, 2
    want = {B.F_ZERO: 0, B.F_TOKENS: 4, B.F_BONUS: 1, B.F_DECK: 14, B.F_BEHIND: 0,
            B.F_HAND: 5, B.F_SAVES: 2}
    assert {f: B.table_feature(g, 1, f, 4, 1) for f in want} == want
    assert B.table_feature(g, 0, B.F_BEHIND, 2, 0) == 4 and B.table_feature(g, 0, B.F_HAND,
                                                                              2, 0) == 7
    assert B.table_feature(g, 0, B.F_SAVES, 2, 0) == 0
    assert {k: getattr(B, "F_" + k.upper()) for k in FEATURE_IDS} == FEATURE_IDS


def _kernel_acts(bot_row, X):
    """The kernel's roll/stop answer on each state of the feature arrays X (seat 0 of three),
    as the engine that plays table bots asks it."""
    from kernels.trash_pandas.whole_bots import keep_rolling_tables as keep_rolling
    from kernels.trash_pandas.whole_state import BLAMMO, DOGGO, HAND, SC, STASH

    g = _state()
    s = np.zeros(4, dtype=np.uint64)
    tab = np.zeros(1, dtype=np.uint8)
    out = np.zeros(len(X["tokens"]), dtype=bool)
    for i in range(len(out)):
        g[SC, 0] = X["deck"][i]
        g[STASH + 1, 0] = X["behind"][i]  # seat 0 stashes nothing: it trails seat 1
        g[HAND + 0, BLAMMO] = X["saves"][i]
        g[HAND + 0, DOGGO] = X["hand"][i] - X["saves"][i]
        out[i] = keep_rolling(g, 0, bot_row, 0, int(X["tokens"][i]), int(X["bonus"][i]), tab, s)
    return out


def _states():
    from analyzer.advice.table import grid

    X = grid({"tokens": range(1, 6), "bonus": (0, 1), "deck": (0, 4, 5, 9, 10, 29, 30),
              "behind": (0, 2, 3, 5), "hand": (0, 1, 2, 3, 5, 8), "saves": (0, 1, 2)})
    keep = (X["saves"] <= X["hand"]) & ((X["bonus"] == 0) | (X["tokens"] < RULES.bonus_cap))
    return {k: v[keep] for k, v in X.items()}


def test_kernel_numpy_and_words_decide_alike_for_every_table_rule():
    X = _states()
    tables = [c for c in candidates(RULES) if isinstance(c, TableRule)]
    assert len(tables) > 150 and {c.rule().kind for c in tables} == {"banded", "list"}
    assert max(len(c.rule().clauses) for c in tables) == 3
    for c in tables[::3] + [TableRule(LIST3), TableRule(LIST_BEHIND), TableRule(BAND_SAVES)]:
        words = np.asarray(c.rule().acts(X), dtype=bool)
        assert np.array_equal(table_acts(c.table(), X, FEATURE_IDS), words), c.words()
        assert np.array_equal(_kernel_acts(c.bot().row(), X), words), c.words()
        assert 0 < words.sum() < len(words)  # not a constant rule: the states tell rules apart


def test_the_family_keeps_one_rule_of_each_behaviour_the_simplest():
    X = state_grid(RULES)
    fam = candidates(RULES)
    keys = [np.packbits(np.asarray(c.rule().acts(X), dtype=bool)).tobytes() for c in fam]
    assert len(set(keys)) == len(fam)
    assert [c.complexity for c in fam] == sorted(c.complexity for c in fam)
    lists = [c for c in fam if c.rule().kind == "list"]
    assert {len(c.rule().clauses) for c in lists} == {2, 3}
    # "stop at 3, at 1 in the bonus turn" (5) is the simpler list of the same behaviour (4);
    # "stop at 4, at 3 in the bonus turn" (5) is the threshold 4 (the bonus cap is 3)
    assert StopRule(3, 1) not in fam and StopRule(4, 3) not in fam and StopRule(4, 4) in fam
    assert TableRule(Rule("list", clauses=(("bonus", ">=", 1, False), ("tokens", ">=", 3,
                                                                       False)))) in fam
    assert len(candidates(RULES, "none")) == 18
    assert {c.complexity for c in candidates(RULES, "none")} == {2, 5}


def _setup(players, seats, check=True):
    from analyzer.games.trash_pandas.lineup import parse_lineup

    return GameSetup(RULES, players, [parse_lineup(seats, players)], check=check)


@pytest.mark.parametrize("players, seats", [
    (3, ("LIST3", "heuristic", "BAND_SAVES")),
    (4, ("heuristic", "LIST_BEHIND", "random", "LIST3")),
])
def test_kernel_and_reference_play_the_same_games_with_table_bots(players, seats, tmp_path):
    """The engine test's game-by-game comparison (scores, turns, counters, no conservation
    violation), with table bots given as rule files."""
    from tests.test_trash_pandas_whole_engine import \
        test_kernel_and_reference_play_the_same_games as kernel_equals_reference

    texts = []
    for name in seats:
        if name in ("LIST3", "LIST_BEHIND", "BAND_SAVES"):
            f = tmp_path / f"{name}.json"
            f.write_text(json.dumps(globals()[name].to_json()))
            name = f"rule:{f}"
        texts.append(name)
    assert parse_bot(texts[seats.index("LIST3")]).table == TableRule(LIST3).table()
    kernel_equals_reference(players, ",".join(texts), RULES)


def _games(bot, seed=7, blocks=4, n=200):
    base = _setup(3, "heuristic", check=False)
    setup = base.with_lineups([(bot,) + base.lineups[0][1:]])
    return np.asarray(setup.run_blocks(block_keys(seed, 0, blocks), np.full(blocks, n)))


def test_table_rules_equal_to_knob_rules_play_their_games_bit_for_bit():
    three = _games(StopRule(3, 3).bot())
    as_list = TableRule(Rule("list", clauses=(("tokens", ">=", 3, False),)))
    assert np.array_equal(_games(as_list.bot()), three)
    assert np.array_equal(_games(TableRule(StopRule(3, 3).rule()).bot()), three)
    # "roll to 4 while 9 or fewer cards are left, to 3 from 10 on" as knobs and as a list
    knob = StopRule(4, 4, "deck", (10,), (3,))
    lst = Rule("list", clauses=(("tokens", ">=", 4, False), ("deck", "<=", 9, True),
                                ("tokens", ">=", 3, False)))
    banded = _games(knob.bot())
    assert np.array_equal(_games(TableRule(lst).bot()), banded)
    assert np.array_equal(_games(TableRule(knob.rule()).bot()), banded)
    # the same rule one token off, or the comparison turned round, plays other games
    for other in (Rule("list", clauses=(("tokens", ">=", 4, False),)),
                  Rule("list", clauses=(("tokens", ">=", 4, False), ("deck", ">=", 10, True),
                                        ("tokens", ">=", 3, False)))):
        assert not np.array_equal(_games(TableRule(other).bot()), banded if other.clauses[1:]
                                  else three)


def test_a_played_back_rule_file_replays_the_race_and_its_loss(tmp_path):
    """A small race of four rules (two lists): saving = the equal-guarantee grid's blocks /
    blocks_spent (saving_same_sample = blocks_flat / blocks_spent), and each
    rule's row from the race, written as a rule file and played back by `rule:`, gives the
    same per-block win shares, hence the same loss against the reference, exactly."""
    from analyzer.advice.race import candidate_row, race_family
    from analyzer.games.trash_pandas.advice_game import BLOCK, GameRacer

    cands = [StopRule(3, 3), StopRule(4, 4), TableRule(LIST3), TableRule(LIST_BEHIND)]
    racer = GameRacer(RULES, 2, 5, blocks_per_seat=2)
    res = race_family(cands, racer.values, BLOCK, 2, 0.0, "games")
    cost = res["race"]
    assert cost["saving_same_sample"] == cost["blocks_flat"] / cost["blocks_spent"]
    assert cost["saving"] == cost["grid"]["blocks"] / cost["blocks_spent"]
    assert cost["trials_spent"] == cost["blocks_spent"] * BLOCK
    ref = res["reference"]
    again = GameRacer(RULES, 2, 5, blocks_per_seat=2)

    def values(bot, rnd):
        return again.values(type("Played", (), {"bot": lambda self: bot})(), rnd)

    for s in res["all"]:
        f = tmp_path / "rule.json"
        f.write_text(json.dumps({"game": "trash-pandas", **candidate_row(s)}))
        bot = parse_bot(f"rule:{f}")
        assert bot == s.rule.bot()
        rounds = s.extra["rounds"]
        d = np.concatenate([values(ref.bot(), r) - values(bot, r) for r in range(rounds)])
        assert float(d.mean()) == pytest.approx(s.loss, abs=1e-12)
    assert any(s.loss > 0 for s in res["all"])  # the rules did play different games


def test_game_plays_a_list_rule_file_and_refuses_bad_ones(cli, tmp_path):
    f = tmp_path / "list.json"
    f.write_text(json.dumps({"game": "trash-pandas",
                             "rule": Rule("list", clauses=(("tokens", ">=", 3, False),))
                             .to_json()}))
    args = ["--players", "3", "-n", "2000", "--seed", "3", "--json"]
    a = cli("trash-pandas", "game", "--seats", f"rule:{f},heuristic,heuristic", *args,
            check_json=True)
    b = cli("trash-pandas", "game", "--seats", "heuristic:stop-at=3:bonus-stop-at=3,heuristic,"
            "heuristic", *args, check_json=True)
    assert a["lineups"][0]["seats"] == b["lineups"][0]["seats"]
    assert a["lineups"][0]["lineup"].startswith(f"rule:{f}")
    for bad, message in [
        ({"kind": "list", "clauses": [{"feature": "tokens", "op": ">=", "value": 3, "act": False}]
          * 4, "default_act": True}, "at most 3 clauses"),
        ({"kind": "list", "clauses": [{"feature": "score", "op": ">=", "value": 3,
                                       "act": False}], "default_act": True}, "unknown feature"),
        ({"kind": "list", "clauses": [{"feature": "deck", "op": "<", "value": 3,
                                       "act": False}], "default_act": True}, "comparison"),
        ({"kind": "list", "clauses": [], "default_act": True}, "1 to 3 clauses"),
    ]:
        f.write_text(json.dumps(bad))
        code, out, err = cli("trash-pandas", "game", "--seats", f"rule:{f}", *args)
        assert code == 2 and out == "" and message in err, err
        assert err.strip().count("\n") == 0 and "Traceback" not in err


def test_the_race_runs_on_one_thread_only_on_a_busy_machine():
    from analyzer.games.trash_pandas.advice_game import race_threads

    assert [race_threads(2, load) for load in (0.0, 1.4, 1.5, 4.0)] == [2, 2, 1, 1]
    assert race_threads(1, 0.0) == 1 and race_threads(8, 7.0) == 8


def test_each_line_up_runs_on_its_engine_and_the_engines_agree():
    """The plain engine has no table code (kernels/trash_pandas/whole_tables.py): a line-up
    with a table bot runs the rule-table twin, one with a rollout bot the rollout twin, any
    other the plain engine; heuristic bots play the same games bit for bit on the plain engine
    and on the rule-table twin."""
    from kernels.trash_pandas import whole_games, whole_rollout, whole_tables

    plain = _setup(3, "heuristic,random,heuristic", check=False)
    assert plain.kernel("play_games") is whole_games.play_games
    table = plain.with_lineups([(TableRule(LIST3).bot(),) + plain.lineups[0][1:]])
    assert table.kernel("play_games") is whole_tables.play_games
    assert table.kernel("decide_blocks") is whole_tables.decide_blocks
    roll = _setup(3, "rollout:2,heuristic,heuristic", check=False)
    assert roll.kernel("play_games") is whole_rollout.play_games
    keys, counts = block_keys(11, 0, 3), np.full(3, 300, dtype=np.int64)
    args = (3, plain.deck.copies, plain.deck.pts, plain.deck.per_card, plain.deal,
            plain.rules_arr, plain.bots, plain.roll_tab, plain.after_tab)
    a = np.asarray(whole_games.play_games(keys, counts, *args))
    b = np.asarray(whole_tables.play_games(keys, counts, *args))
    assert a.any() and np.array_equal(a, b)


def test_a_rollout_seat_sees_table_bots_play_by_their_tables():
    """A rollout seat's worlds play the other seats' bots: a table opponent equal to a knob
    opponent ("stop at 3") gives the same games bit for bit, one that differs does not."""
    roll = _setup(3, "rollout:2,heuristic,heuristic", check=False)
    seat0 = roll.lineups[0][0]
    keys, counts = block_keys(3, 0, 2), np.full(2, 6, dtype=np.int64)

    def games(opponent):
        return np.asarray(roll.with_lineups([(seat0, opponent, opponent)]).run_blocks(keys,
                                                                                      counts))

    knob = games(StopRule(3, 3).bot())
    assert np.array_equal(games(TableRule(Rule("list", clauses=(("tokens", ">=", 3, False),)))
                                .bot()), knob)
    assert not np.array_equal(games(TableRule(Rule("list", clauses=(("tokens", ">=", 2,
                                                                      False),))).bot()), knob)
