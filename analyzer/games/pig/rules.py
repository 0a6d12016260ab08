"""Pig's rules: the house-rule dataclass (``RULES``) and the checks of a position.

What belongs here: one ``rule(...)`` per house-rule key (default, meaning, bounds) and the
validation of user-given positions against the rules. No solver, no kernel, no numpy.

Parameters (``docs/rules/pig.md``): ``goal`` (100), ``faces`` (6), ``bust_faces`` (1:
the face 1 busts).
"""
from __future__ import annotations

from dataclasses import dataclass

from analyzer.errors import UserError
from analyzer.rules import rule


@dataclass(frozen=True)
class PigRules:
    goal: int = rule(100, "points needed to win", min=2, max=400)
    faces: int = rule(6, "faces of the die", min=2, max=20)
    bust_faces: int = rule(1, "how many of the lowest faces bust the turn (1: only a 1)", min=1,
                           max=19)

    def check(self) -> None:
        if self.bust_faces >= self.faces:
            raise UserError("rule 'bust_faces' must be smaller than 'faces'")


RULES = PigRules


def check_scores(me: int, opp: int, turn: int, rules: PigRules) -> None:
    """A position (own score, opponent score, turn total) that can occur before the game ends."""
    for name, v in (("--me", me), ("--opp", opp), ("--turn", turn)):
        if v < 0:
            raise UserError(f"{name} must be non-negative (got {v})")
    if me >= rules.goal or opp >= rules.goal:
        raise UserError(f"scores must be below the goal {rules.goal}: the game is already over")
    if me + turn >= rules.goal:
        raise UserError(f"--me {me} plus --turn {turn} reaches the goal {rules.goal}: just hold")


def rules_dict(rules: PigRules) -> dict:
    from analyzer.rules import rules_to_dict

    return rules_to_dict(rules)
