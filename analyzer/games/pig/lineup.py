"""What a ``--seats`` or ``--vs`` text means in Pig: two policies, seat 1 (moves first) and 2.

The spelling is the shared one (analyzer/botspec.py); the policies and their knobs are declared
beside the objects they become (``play.POLICIES``); this module reads ``rule:FILE.json`` (a rule
of thumb of ``pig advice``) with the advice module's features.
"""
from __future__ import annotations

from analyzer.games.pig.play import POLICIES, PigPolicy, policy_from_spec

#: Every family of specs the commands read, by the option that reads it (conventions test).
FAMILIES = {"simulate --seats": POLICIES}


def _policy(spec) -> PigPolicy:
    if spec.is_rule:
        from analyzer.advice.rulefile import load_rule
        from analyzer.games.pig.advice import FEATURE_NAMES

        return PigPolicy("rule", rule=load_rule(spec.text, FEATURE_NAMES, "pig"),
                         source=spec.file)
    return policy_from_spec(spec)


def parse_policy(text: str, flag: str = "--policy") -> PigPolicy:
    """One policy: hold:H, optimal or rule:FILE.json."""
    return _policy(POLICIES.parse(text, flag))


def parse_policy_pair(text: str, flag: str = "--seats") -> tuple[PigPolicy, PigPolicy]:
    """``A,B``: seat 1 (moves first) plays A, seat 2 plays B; a single policy plays both."""
    a, b = (_policy(s) for s in POLICIES.lineup(text, 2, flag))
    return a, b
