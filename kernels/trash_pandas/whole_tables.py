"""The Trash Pandas engine in which bots may stop by a rule table: the plain engine's twin.

A heuristic bot whose stop rule is a rule table (``K_BAND`` = ``BAND_TABLE``, the stop rules of
``trash-pandas game-advice`` and ``--seats rule:FILE.json``) is played by this engine: the same
Python code as whole.py's ``roll_phase``/``play_turn``/``continue_game``, compiled a second
time under a ``_tables`` name (kernels/twin.py) with the roll-or-stop hook
``keep_rolling_choice`` asking whole_bots.py ``keep_rolling_tables``, which reads the table for
table bots and is ``keep_rolling`` for every other bot; whole_games.py's ``play_games`` and
whole_decide.py's ``decide_blocks`` drive it with its ``continue_game`` as an argument (one
compiled driver for every engine: kernels/trash_pandas/engine_arg.py). The plain engine carries
no table code, so what table bots need cannot cost the other bots anything. (With the table
branch inside the plain engine, heuristic bots' games ran 60–62k against 80–85k games/s without
it on one machine, one thread, three players; on another the two forms ran alike, 109–138k
against 122–137k: the cost was the compiled code's layout, which the twin takes out of the
question.)

Which engine runs is decided per job in Python (analyzer/games/trash_pandas/whole.py
``GameSetup.kernels``): a line-up with a rollout bot runs whole_rollout.py's twins (whose
rollouts play this engine, so table bots may sit there too), one with a table bot this one,
any other the plain engine. Every bot plays the same here as in the plain engine, so the
choice changes speed only (tested: bit-identical sums).
Cache note: a twin is cached under whole.py's name; after editing this module delete
``kernels/**/__pycache__`` (as for any kernel module another one imports).
"""
from numba import njit

from kernels.trash_pandas import whole as W
from kernels.trash_pandas import whole_bots as B
from kernels.trash_pandas import whole_decide as D
from kernels.trash_pandas import whole_games as G
from kernels.twin import twin
from kernels.widen import plain_types


@plain_types
@njit(cache=True, _nrt=False)
def keep_rolling_choice_tables(g, a, bot, bots, held, nh, mode, pts, per_card, copies, rules,
                               roll_tab, after_tab, s):
    """Seat a rolls again (True) or stops, reading a table bot's rule table."""
    return B.keep_rolling_tables(g, a, bot, held, nh, mode, roll_tab, s)


roll_phase = twin(W.roll_phase, "_tables", keep_rolling_choice=keep_rolling_choice_tables)
play_turn = twin(W.play_turn, "_tables", roll_phase=roll_phase)
continue_game = twin(W.continue_game, "_tables", play_turn=play_turn)
play_games = G.DRIVER.bind(continue_game)
decide_blocks = D.DRIVER.bind(continue_game)
