"""Ten whole-game kernels: the engine (``engine.play_game``), scoring (``score.score_row``), block
drivers (``blocks.game_blocks``, ``blocks.position_blocks``, ``blocks.game_details``) and the
index constants and named sum columns (``layout``)."""
from kernels.ten_whole.layout import DIFF_COLUMNS, LINEUP_COLUMNS, REC_NAMES, column

__all__ = ["DIFF_COLUMNS", "LINEUP_COLUMNS", "REC_NAMES", "column"]
