"""What a ``--policy``, ``--seats`` or ``--vs`` text means in Go-Stop.

The spelling is the shared one (analyzer/botspec.py); the policies and their knobs are declared
beside the objects they become (``play.POLICIES``). This module sits above ``play`` and
``advice``: it alone turns ``rule:FILE.json`` into the table policy that plays it, so ``play``
never imports ``advice``. ``parse_policy`` reads one policy (greedy, random, go:K[:T],
rule:FILE.json), ``parse_seats`` a line-up (seat 1 deals and plays first; one policy for every
seat or one per seat), ``check_lineup`` a line-up before the player count is known.
"""
from __future__ import annotations

from analyzer.botspec import Reader
from analyzer.games.gostop.play import POLICIES, Policy, policy_from_spec

#: Every family of specs the commands read, by the option that reads it (conventions test).
FAMILIES = {"simulate --seats": POLICIES}


def _policy(spec) -> Policy:
    if spec.is_rule:
        from analyzer.games.gostop.advice import rule_policy

        return rule_policy(spec.text)
    return policy_from_spec(spec)


READ = Reader(POLICIES, _policy)
parse_policy, parse_seats, check_lineup = READ.one, READ.seats, READ.check
