"""The whole-game drivers take the engine as an argument (kernels/trash_pandas/engine_arg.py):
each engine's ``play_games``/``decide_blocks`` is the one driver bound to that engine's own
``continue_game``, one compile serves every engine with the same argument types, and the type
given to ``continue_game`` is the one it is called with (checked by value)."""
import numpy as np
from numba import typeof, types

from analyzer.rng import block_keys


def test_each_engine_binds_its_own_continue_game():
    from kernels.trash_pandas import whole as W
    from kernels.trash_pandas import whole_decide as D
    from kernels.trash_pandas import whole_games as G
    from kernels.trash_pandas import whole_rollout as R
    from kernels.trash_pandas import whole_tables as T

    assert G.play_games.engine is W.continue_game and D.decide_blocks.engine is W.continue_game
    assert T.play_games.engine is T.continue_game and T.decide_blocks.engine is T.continue_game
    assert R.play_games.engine is R.continue_game and R.decide_blocks.engine is R.continue_game
    engines = {W.continue_game, T.continue_game, R.continue_game}
    assert len(engines) == 3  # three different compiled engines, not one bound three times


def test_the_continue_game_type_by_value():
    from kernels.trash_pandas.engine_arg import continue_game_type

    i64 = types.int64
    vec, mat = types.Array(i64, 1, "C"), types.Array(i64, 2, "C")
    bots = types.Array(types.float64, 2, "C")
    tab = types.Array(types.uint8, 1, "C")
    ft = continue_game_type(bots, mat, vec, vec, vec, tab, tab)
    sig = ft.signature
    assert sig.return_type == i64
    assert list(sig.args) == [mat, i64, i64, i64, i64, i64, i64, bots, mat, vec, vec, vec, tab,
                              tab, types.Array(types.float64, 1, "C"),
                              types.Array(types.uint64, 1, "C"), vec]


def test_one_compiled_driver_serves_the_plain_and_the_table_engine():
    """The plain and the rule-table engine play the same heuristic games bit for bit, through one
    compile of the driver (the compile the first-class engine argument saves)."""
    from analyzer.games.trash_pandas.bots import plain_lineup
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.games.trash_pandas.whole import GameSetup
    from kernels.trash_pandas import whole_games as G
    from kernels.trash_pandas import whole_tables as T

    setup = GameSetup(TrashPandasRules(), 3, [plain_lineup("heuristic", 3)])
    d = setup.deck
    args = (3, d.copies, d.pts, d.per_card, setup.deal, setup.rules_arr, setup.bots,
            setup.roll_tab, setup.after_tab)
    keys, counts = block_keys(5, 0, 2), np.full(2, 40, dtype=np.int64)
    assert T.play_games.driver is G.DRIVER and G.play_games.driver is G.DRIVER
    a = np.asarray(G.play_games(keys, counts, *args))
    tys = tuple(typeof(x) for x in (keys, counts) + args)
    compiled = G.DRIVER.compiled[tys]
    b = np.asarray(T.play_games(keys, counts, *args))
    assert G.DRIVER.for_types(tys) is compiled  # the second engine found the first compile
    assert len(compiled.signatures) == 1
    assert a[:, 0].sum() == 80 and np.array_equal(a, b)



def test_line_ups_in_a_strided_array_play_the_same_games():
    """The engine's type follows the caller's arrays: line-ups passed as a strided view (layout
    'A', not C) compile a driver of their own and play the same games."""
    from analyzer.games.trash_pandas.bots import plain_lineup
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.games.trash_pandas.whole import GameSetup
    from kernels.trash_pandas import whole_games as G

    setup = GameSetup(TrashPandasRules(), 3, [plain_lineup("heuristic", 3)])
    d = setup.deck
    keys, counts = block_keys(5, 0, 2), np.full(2, 20, dtype=np.int64)
    rest = (setup.rules_arr,)
    a = G.play_games(keys, counts, 3, d.copies, d.pts, d.per_card, setup.deal, *rest, setup.bots,
                     setup.roll_tab, setup.after_tab)
    wide = np.zeros(setup.bots.shape[:2] + (2 * setup.bots.shape[2],))
    wide[:, :, ::2] = setup.bots
    strided = wide[:, :, ::2]
    assert typeof(strided).layout == "A"
    b = G.play_games(keys, counts, 3, d.copies, d.pts, d.per_card, setup.deal, *rest, strided,
                     setup.roll_tab, setup.after_tab)
    assert np.asarray(a)[:, 0].sum() == 40 and np.array_equal(a, b)
