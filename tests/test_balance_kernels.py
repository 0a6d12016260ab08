"""The balance columns the whole-game kernels gained (issue 38): Ten's sums equal the sums of the
per-game records of the same games (the column map of ``game_blocks``; the records themselves
equal the independent Python reference game by game in tests/test_ten_whole.py), Railroad
Canasta's rounds histogram and lead figures agree with the game's other columns, and Trash
Pandas' standings replay the kernel's games.
"""
from __future__ import annotations

import numpy as np
import pytest


def test_ten_block_sums_of_the_balance_fields_are_the_records_sums():
    from analyzer.games.ten.balance import records
    from analyzer.games.ten.bots import plain_seats
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.games.ten.whole import Setup
    from analyzer.runner import run
    from kernels.ten.whole_layout import LINEUP_COLUMNS, REC_NAMES, column

    setup = Setup(TenRules(), load_deck(), 4, [plain_seats("threshold", 4)])
    n = 300
    recs = records(setup, n, 5)
    res = run(setup.job(), n, 5, progress=False)
    assert int(res.sums[column("games")]) == n
    for i, name in enumerate(REC_NAMES):
        assert res.sums[column(name)] == pytest.approx(recs[:, i].sum()), name
        assert res.sums[column(name + "_sq")] == pytest.approx((recs[:, i] ** 2).sum()), name
    # the balance fields came after the older columns: those keep their places
    assert LINEUP_COLUMNS.index("price_x_auctions") == 1 + 2 * REC_NAMES.index("lead_changes")
    lead = recs[:, REC_NAMES.index("leader_3q")]
    won = recs[:, REC_NAMES.index("leader_3q_win")]
    assert set(np.unique(lead)) <= {0.0, 1.0} and (won <= lead).all() and won.sum() > 0
    assert (recs[:, REC_NAMES.index("lead_changes")] >= 0).all()


def test_canasta_rounds_histogram_and_lead_figures_agree_with_the_game():
    from analyzer.games.canasta.play import plain_policies, simulate
    from analyzer.games.canasta.rules import CanastaRules
    from analyzer.runner import RunSpec

    r = CanastaRules()
    out = simulate(r, plain_policies("greedy", r.players), RunSpec(400, 11, progress=False))
    f, n = out["balance"], out["n"]
    hist = dict(f["rounds_histogram"])
    assert sum(hist.values()) == n
    top = f["rounds_open_top"]
    if top not in hist:  # no game reached the open bucket: the histogram is exact
        assert sum(k * c for k, c in hist.items()) == out["rounds"]
    # a lead change needs a round after the first: Σ changes ≤ Σ (rounds − 1)
    assert f["lead_changes"].estimate * n <= out["rounds"] - n + 1e-9
    assert 0 < f["decisive"].n <= n and f["decisive"].estimate > 0.5
    assert f["margin"].ci_low > 0  # the winner is ahead of the runner-up


def test_trash_pandas_standings_replay_the_kernels_games():
    """The standings games end with the scores and shares of the kernel's games (same seed,
    same block keys): the first 12 games of a 3-player run."""
    from analyzer.games.trash_pandas.balance import StandingsGame
    from analyzer.games.trash_pandas.bots import plain_lineup
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.games.trash_pandas.whole import BLOCK_SIZE, GameSetup
    from analyzer.pystream import Stream
    from analyzer.rng import block_keys
    from analyzer.runner import run
    from analyzer.games.trash_pandas.whole import game_job

    setup = GameSetup(TrashPandasRules(), 3, [plain_lineup("heuristic", 3)])
    keys = block_keys(9, 0, 1)
    wins = np.zeros(3)
    for g in range(12):
        game = StandingsGame(setup.players, setup.deck, setup.rules_arr, setup.deal,
                             setup.bots[0], (setup.roll_tab, setup.after_tab),
                             Stream(keys[0], g)).watch()
        turns = game.play_out()
        assert len(game.leaders) == turns
        res = game.result()
        wins += res["shares"]
        top = max(res["scores"])
        last = game.leaders[-1]  # after the last turn the strict leader is the points leader
        assert last == (res["scores"].index(top) if res["scores"].count(top) == 1 else -1)
    cols = setup.columns()
    sums = run(game_job(setup), 12, 9, progress=False).sums
    for i in range(3):
        assert sums[cols.index(f"L0:win{i}")] == pytest.approx(wins[i])
    assert BLOCK_SIZE >= 12
