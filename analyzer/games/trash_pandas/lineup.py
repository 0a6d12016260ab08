"""What a ``--policy``, ``--seats`` or ``--vs`` text means in Trash Pandas.

The spelling is the shared one (analyzer/botspec.py); the bots and their knobs are declared
beside the objects they become (``bots.BOTS``, ``play.POLICIES``). This module sits above
``play``, ``bots`` and the advice modules: it alone turns ``rule:FILE.json`` into the policy or
bot that plays it, so none of them imports another to read a rule file.
"""
from __future__ import annotations

from analyzer.botspec import Reader
from analyzer.games.trash_pandas.bots import BOTS, Bot, bot_from_spec
from analyzer.games.trash_pandas.play import POLICIES, PolicySpec, policy_from_spec

#: Every family of specs the commands read, by the option that reads it (conventions test).
FAMILIES = {"simulate --policy": POLICIES, "game --seats": BOTS}


def parse_policy(text: str, flag: str = "--policy") -> PolicySpec:
    """A turn-level policy: ``optimal``, ``stop-at:K`` or ``rule:FILE.json``."""
    spec = POLICIES.parse(text, flag)
    if not spec.is_rule:
        return policy_from_spec(spec)
    from analyzer.advice.rulefile import load_rule
    from analyzer.games.trash_pandas.advice import FEATURE_NAMES, rule_tables

    return PolicySpec("rule", rule=load_rule(spec.text, FEATURE_NAMES, "trash-pandas"),
                      source=spec.file, tables=rule_tables)


def _bot(spec) -> Bot:
    if spec.is_rule:  # a stop rule of `trash-pandas game-advice --out`: the heuristic bot
        from analyzer.games.trash_pandas.advice_game import bot_for_rule

        return bot_for_rule(spec.text)
    return bot_from_spec(spec)


#: One whole-game bot (``heuristic:stop-at=4``, ``rule:FILE.json``).
READ = Reader(BOTS, _bot)
parse_bot = READ.one


#: Who plays the rest of the game in `decide` (and so in `calibrate` and `play`) when --seats is
#: not given: the strongest bot that fits decide's budget of about a second. Measured with
#: `trash-pandas ladder --bots solver,heuristic -n 20000 --seed 41` at 2, 3 and 4 players: one
#: solver seat among heuristics wins +0.026, +0.028 and +0.026 (± 0.002) more than a heuristic
#: in that seat, and a heuristic among solvers −0.026, −0.029 and −0.024; the solver costs the
#: same per playout. `search:ITERS` is stronger still but takes minutes per answer.
DECIDE_BOT = "solver"


def parse_lineup(text: str | None, players: int, flag: str = "--seats",
                 default: str = "heuristic") -> tuple[Bot, ...]:
    """``A,B,…``: one bot per seat (a single bot for every seat); ``default`` when not given
    (heuristic for `game`; :data:`DECIDE_BOT` for `decide`, `calibrate` and `play`)."""
    return tuple(READ.seats(text or default, players, flag))
