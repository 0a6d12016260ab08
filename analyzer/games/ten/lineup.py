"""What a ``--policy``, ``--seats`` or ``--vs`` text means in Ten.

The spelling is the shared one (analyzer/botspec.py); the bots and their knobs are declared
beside the objects they become (``bots.BOTS``, ``exact.POLICIES``). This module sits above
``bots`` and the advice modules: it alone turns ``rule:FILE.json`` into the bot that plays it,
so ``bots`` never imports ``advice_game``.
"""
from __future__ import annotations

from analyzer.botspec import Reader
from analyzer.games.ten.bots import BOTS, Bot, bot_from_spec
from analyzer.games.ten.exact import POLICIES

#: Every family of specs the commands read, by the option that reads it (conventions test).
FAMILIES = {"simulate --policy": POLICIES, "game --seats": BOTS}


def _bot(spec) -> Bot:
    if spec.is_rule:  # a draw rule written by `ten game-advice --out`
        from analyzer.games.ten.advice_game import bot_for_rule

        return bot_from_spec(BOTS.parse(bot_for_rule(spec.text), spec.text))
    return bot_from_spec(spec)


#: ``parse_bot`` reads one whole-game bot (``threshold:stop-at=8``, ``rule:FILE.json``, …),
#: ``parse_seats`` a line-up ``A,B,…`` (a single bot means every seat).
READ = Reader(BOTS, _bot)
parse_bot, parse_seats = READ.one, READ.seats


def check_lineups(text_list, players: int, flags=None) -> list[list[Bot]]:
    """Each line-up of ``text_list`` (``--seats`` first, then every ``--vs``) as bots."""
    from analyzer.errors import UserError

    if not text_list:
        raise UserError("give at least one line-up")
    flags = flags or ["--seats"] + ["--vs"] * (len(text_list) - 1)
    return [parse_seats(t, players, f) for t, f in zip(text_list, flags)]
