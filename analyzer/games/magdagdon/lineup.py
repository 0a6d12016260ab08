"""What a ``--policy`` or ``--vs`` text means in MAGDAGDON.

The spelling is the shared one (analyzer/botspec.py); the policies and their knobs are declared
beside the objects they become (``play.POLICIES``). This module sits above ``play`` and
``advice``: the power knobs are a power rule of ``advice.py`` (:class:`PowerRule`), and
``rule:FILE.json`` is one read from a file, so ``play`` never imports ``advice``.
"""
from __future__ import annotations

from analyzer.games.magdagdon.play import POLICIES, Policy, placement_policy

#: Every family of specs the commands read, by the option that reads it (conventions test).
FAMILIES = {"simulate --policy": POLICIES}
POWER_KNOBS = ("max-cost", "min-empty", "max-empty", "which")


def parse_policy(text: str, flag: str = "--policy") -> Policy:
    """greedy, max-dice, min-dice or rollout:K, with optional power knobs
    (``greedy:max-cost=10:which=reroll``), or ``rule:FILE.json`` (a power rule from
    ``magdagdon advice``, played with greedy)."""
    from analyzer.games.magdagdon.advice import NEVER, WHICH_NAMES, PowerRule, rule_from_file

    spec = POLICIES.parse(text, flag)
    if spec.is_rule:
        rule = rule_from_file(spec.text)
        greedy = POLICIES.parse("greedy", flag)
        return Policy(placement_policy(greedy).mode, 0, "rule:" + spec.file,
                      tuple(rule.knobs().items()))
    if not any(k in spec.given for k in POWER_KNOBS):
        return placement_policy(spec)
    cost = spec["max-cost"]
    rule = PowerRule(NEVER if cost == "never" else None if cost in ("any", None) else cost,
                     spec["min-empty"], spec["max-empty"], WHICH_NAMES[spec["which"]])
    knobs = rule.knobs()
    if "max-cost" not in spec.given:  # keep the bots' own spending bound
        knobs["power_threshold"] = None
    return placement_policy(spec, tuple(knobs.items()))
