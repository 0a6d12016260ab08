"""A rule of thumb that a whole-game bot plays (Trash Pandas' stop rules, Ten's draw rules).

What belongs here: the part shared by the games' whole-game rule classes (their ``advice_game``
modules): the rule as data and in words, its complexity, its JSON row with the bot that plays
it, and the knob text of a threshold in bands. A game's class says which :class:`Rule` it is
(``rule()``), which bot plays it (``bot_text()``), and its ``FEATURES``/``DECISION``.
"""
from __future__ import annotations

from dataclasses import dataclass


class BotRule:
    """Mixin for a frozen dataclass with ``rule()``, ``bot_text()``, ``FEATURES``, ``DECISION``."""

    FEATURES: tuple = ()
    DECISION = None

    @property
    def complexity(self) -> int:
        return self.rule().complexity

    def acts(self, X: dict):
        """What the rule decides on the feature arrays ``X`` (:meth:`Rule.acts`)."""
        return self.rule().acts(X)

    def words(self) -> str:
        return self.rule().words({f.name: f for f in self.FEATURES}, self.DECISION)

    def to_json(self) -> dict:
        return {**self.rule().to_json(), "bot": self.bot_text()}


@dataclass(frozen=True)
class GivenRule(BotRule):
    """A :class:`BotRule` that is the :class:`~analyzer.advice.Rule` it was given (``of``): the
    whole-game rule of a game whose bot plays any rule from a rule table (Trash Pandas' stop
    table, Ten's ``table`` bot). The game's subclass adds ``bot_text()`` and its features."""

    of: object  # analyzer.advice.Rule

    def rule(self):
        return self.of


def band_knobs(cuts, limits, cut: str, limit: str) -> list[str]:
    """Knob texts of bands 2 and 3: ``cut.format(i)=c`` and ``limit.format(i + 1)=l`` for each
    cut c and the limit l that holds from it on (e.g. cut-1=10, stop-at-2=3)."""
    out = []
    for i, (c, lim) in enumerate(zip(cuts, limits), start=1):
        out += [f"{cut.format(i)}={c}", f"{limit.format(i + 1)}={lim}"]
    return out
