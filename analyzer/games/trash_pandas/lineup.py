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


def parse_lineup(text: str | None, players: int, flag: str = "--seats") -> tuple[Bot, ...]:
    """``A,B,…``: one bot per seat (a single bot for every seat); default heuristic."""
    return tuple(READ.seats(text or "heuristic", players, flag))
