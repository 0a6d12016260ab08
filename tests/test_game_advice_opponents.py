"""`game-advice --seats BOT,BOT,…`: the rules of thumb raced in another line-up than the default.

Issue 37 asks that the whole-game rules of thumb can be raced against the search bot. These tests
check that the opponents really reach the games (a rule wins far more often against random
opponents than against the default bots: the sign is obvious), that the recording step only
runs against bots its engine plays, and that the option's bad inputs end in one line."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from analyzer.errors import UserError


def _mean_share(racer, cand, rnd=0) -> float:
    return float(np.mean(racer.values(cand, rnd)))


def test_trash_pandas_rules_win_more_against_random_opponents_than_heuristic_ones():
    """Two players, stop at 3 in the studied seat, the same keys: against random opponents its
    win share is well above 1/2, against the heuristic near it. A racer that ignored ``others``
    would give the same numbers twice."""
    from analyzer.games.trash_pandas.advice_game import GameRacer, StopRule
    from analyzer.games.trash_pandas.bots import plain_bot
    from analyzer.games.trash_pandas.rules import TrashPandasRules

    rules = TrashPandasRules()
    cand = StopRule(3, 3)
    vs_heuristic = _mean_share(GameRacer(rules, 2, 5, blocks_per_seat=1), cand)
    vs_random = _mean_share(GameRacer(rules, 2, 5, blocks_per_seat=1,
                                      others=(plain_bot("random"),) * 2), cand)
    # 2 blocks of 256 games: SE of a share about 0.022, so these margins are > 5 SE
    assert vs_random > 0.75
    assert 0.3 < vs_heuristic < 0.7
    assert vs_random - vs_heuristic > 0.15


def test_ten_rules_win_more_against_random_opponents_than_threshold_ones():
    from analyzer.games.ten.advice_game import DrawRule, TenGameRacer
    from analyzer.games.ten.bots import plain_bot
    from analyzer.games.ten.rules import TenRules, load_deck

    cand = DrawRule("threshold", 8)
    spec = load_deck(None)
    vs_threshold = _mean_share(TenGameRacer(TenRules(), spec, 2, 5, round_blocks=16), cand)
    vs_random = _mean_share(TenGameRacer(TenRules(), spec, 2, 5, round_blocks=16,
                                         others=(plain_bot("random"),) * 2), cand)
    # 16 blocks of 16 games = 256 games each: SE about 0.03
    assert vs_random > 0.75
    assert 0.3 < vs_threshold < 0.7
    assert vs_random - vs_threshold > 0.15


def test_trash_pandas_rules_race_against_search_opponents_on_the_same_deals():
    """The search bot as the opponents of the raced rule (issue 37): the race runs, on the same
    deals as against the heuristic (common random numbers), gives other shares (the search bot
    reached the games: a racer that ignored ``others`` or fell back to the heuristic would give
    the heuristic's numbers), and the same shares again on a second run (the search's worlds are
    keyed by the game's stream)."""
    from analyzer.games.trash_pandas.advice_game import GameRacer, StopRule
    from analyzer.games.trash_pandas.bots import plain_bot
    from analyzer.games.trash_pandas.rules import TrashPandasRules

    rules, cand = TrashPandasRules(), StopRule(3, 3)
    search = (plain_bot("search:50"),) * 2
    vs_heuristic = GameRacer(rules, 2, 5, blocks_per_seat=1).values(cand, 0)
    vs_search = GameRacer(rules, 2, 5, blocks_per_seat=1, others=search).values(cand, 0)
    again = GameRacer(rules, 2, 5, blocks_per_seat=1, others=search).values(cand, 0)
    assert len(vs_search) == len(vs_heuristic) == 2
    assert all(0.0 < v < 1.0 for v in vs_search)
    assert list(vs_search) == list(again)
    assert list(vs_search) != list(vs_heuristic)


def test_a_mixed_lineup_keeps_each_seats_bot_and_the_rule_takes_each_seat_in_turn():
    """--seats random,heuristic,solver: in the race's job and in the recording setup of seat s,
    seat s plays the rule and every other seat its own bot of the line-up."""
    from analyzer.games.trash_pandas.advice_game import GameRacer, StopRule
    from analyzer.games.trash_pandas.advice_record import setup_for
    from analyzer.games.trash_pandas.bots import plain_bot
    from analyzer.games.trash_pandas.rules import TrashPandasRules

    lineup = (plain_bot("random"), plain_bot("heuristic:stop-at=5"), plain_bot("solver"))
    rule = StopRule(2, 2)
    setup = setup_for(TrashPandasRules(), 3, rule, lineup)
    want = [["rule", "heuristic:stop-at=5", "solver"], ["random", "rule", "solver"],
            ["random", "heuristic:stop-at=5", "rule"]]
    mine = rule.bot()
    got = [["rule" if b == mine else b.label for b in lu] for lu in setup.lineups]
    assert got == want
    racer = GameRacer(TrashPandasRules(), 3, 5, blocks_per_seat=1, others=lineup)
    assert racer.others == lineup


def test_a_seat_of_random_bots_helps_the_rule_only_in_the_other_seat():
    """Two players, line-up heuristic,random: studying seat 1 the rule meets a random bot (its
    win share far above 1/2); studying seat 2 it meets the heuristic (near 1/2). Values are per
    block, seat 1's blocks first (two_seat_values)."""
    from analyzer.games.trash_pandas.advice_game import GameRacer, StopRule
    from analyzer.games.trash_pandas.bots import plain_bot
    from analyzer.games.trash_pandas.rules import TrashPandasRules

    racer = GameRacer(TrashPandasRules(), 2, 5, blocks_per_seat=1,
                      others=(plain_bot("heuristic"), plain_bot("random")))
    v = racer.values(StopRule(3, 3), 0)
    assert len(v) == 2
    assert v[0] > 0.75 and 0.3 < v[1] < 0.7


def test_only_bots_the_reference_engine_plays_are_recorded():
    from analyzer.games.ten.advice_game import recordable as ten_recordable
    from analyzer.games.ten.lineup import parse_bot as ten_bot
    from analyzer.games.trash_pandas.advice_game import recordable as tp_recordable
    from analyzer.games.trash_pandas.lineup import parse_bot as tp_bot

    assert tp_recordable(tp_bot("heuristic:stop-at=4")) and tp_recordable(tp_bot("random"))
    assert not tp_recordable(tp_bot("search:200")) and not tp_recordable(tp_bot("rollout:8"))
    assert ten_recordable(ten_bot("threshold:9")) and ten_recordable(ten_bot("rollout:8"))
    assert not ten_recordable(ten_bot("search:iters=32"))


def test_parse_opponents_default_lineups_and_the_recording_note(capsys):
    from analyzer.advice.cli import parse_opponents
    from analyzer.games.trash_pandas.advice_game import recordable
    from analyzer.games.trash_pandas.lineup import parse_lineup

    bots, label, n = parse_opponents(None, "heuristic", parse_lineup, 3, recordable, 1000)
    assert [b.name for b in bots] == ["heuristic"] * 3 and label == "heuristic" and n == 1000
    assert capsys.readouterr().err == ""
    bots, label, n = parse_opponents("search:50", "heuristic", parse_lineup, 3, recordable, 1000)
    assert [b.iters for b in bots] == [50] * 3 and label == "search:50" and n == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "search:50" in err and "--record-games ignored" in err
    bots, label, n = parse_opponents("heuristic,random,search:50", "heuristic", parse_lineup, 3,
                                     recordable, 0)
    assert label == "heuristic,random,search:50" and n == 0
    assert capsys.readouterr().err == ""  # nothing to skip, nothing said
    with pytest.raises(UserError):
        parse_opponents("heuristic,random", "heuristic", parse_lineup, 3, recordable, 0)


@pytest.mark.parametrize("game, text", [("trash-pandas", "heuristic,heuristic"),
                                        ("trash-pandas", "nosuchbot"),
                                        ("ten", "threshold,threshold"),
                                        ("ten", "search:iters=0")])  # 3 and 4 players
def test_bad_opponents_end_in_one_line_before_any_game(game, text):
    proc = subprocess.run([sys.executable, "-m", "analyzer", game, "game-advice", "--seats",
                           text, "--seed", "1"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
