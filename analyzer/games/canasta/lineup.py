"""What a ``--policy`` or ``--seats`` text means in Railroad Canasta.

The spelling is the shared one (analyzer/botspec.py); the policies and their knobs are declared
beside the objects they become (``play.POLICIES``). This module sits above ``play`` and
``advice``: it alone turns ``rule:FILE.json`` into the policy that plays it, so ``play`` never
imports ``advice``. ``parse_policy`` reads one policy (greedy, builder:K[:F], rule:FILE.json),
``parse_policies`` a line-up (you, or seat 1, first; one for every seat or one per seat),
``check_lineup`` a line-up before the player count is known.
"""
from __future__ import annotations

from analyzer.botspec import Reader
from analyzer.games.canasta.play import POLICIES, CanastaPolicy, policy_from_spec

#: Every family of specs the commands read, by the option that reads it (conventions test).
FAMILIES = {"simulate --seats": POLICIES}


def _policy(spec) -> CanastaPolicy:
    if spec.is_rule:  # a take/go-out pair written by `canasta advice --out`
        from analyzer.games.canasta.advice import rule_from_file

        return rule_from_file(spec.text).policy(spec.text)
    return policy_from_spec(spec)


READ = Reader(POLICIES, _policy)
parse_policy, parse_policies, check_lineup = READ.one, READ.seats, READ.check
