"""Ten's game and position drivers take the engine's ``play_game`` as an argument
(kernels/engine_arg.py): both are bound to whole_engine.py's ``play_game`` and call it with the
int64 signature built by ``play_game_type`` (checked by value), so one compile of the engine
serves both."""
from numba import types


def test_both_drivers_play_the_one_engine():
    from kernels.ten import whole_blocks as B
    from kernels.ten.whole_engine import play_game

    assert B.game_blocks.engine is play_game and B.position_blocks.engine is play_game
    assert B.game_blocks.driver is B.GAMES and B.position_blocks.driver is B.POSITIONS
    assert B.GAMES is not B.POSITIONS


def test_the_play_game_type_by_value():
    from kernels.ten.whole_blocks import play_game_type

    i64, f64, u8 = types.int64, types.float64, types.uint8
    pile = types.Array(types.int8, 1, "C")
    rl = types.Array(i64, 1, "C")
    bots = types.Array(f64, 2, "C")
    tabs = types.UniTuple(types.Array(i64, 1, "C"), 3)
    dec = types.Array(u8, 4, "C")
    child = types.Array(types.int32, 2, "C")
    deck = types.Array(i64, 1, "C")
    sig = play_game_type(pile, i64, rl, bots, tabs, dec, child, child, deck).signature
    assert sig.return_type == i64
    assert list(sig.args) == [pile, i64, i64, i64, i64, types.Array(i64, 2, "C"),
                              types.Array(i64, 1, "C"), rl, bots,
                              types.Array(types.uint64, 1, "C"), tabs, types.Array(i64, 1, "C"),
                              dec, child, child, deck, types.Array(f64, 1, "C")]
