"""Ten whole games: the ``table`` bot, a decision list of up to 3 "if … then draw/stop" clauses.

What belongs here: the draw rule's features a seat can see at its draw-or-stop check, the
table bot's clause knobs (``if-k=FEATURE<=V`` or ``>=V``, ``then-k=draw|stop``, ``otherwise``)
as a :class:`~analyzer.advice.Rule` of kind ``list`` and as the rule table the kernel reads
(``kernels/ten/whole_table.py``, compiled by :func:`analyzer.advice.table.table_of`). No
printing.

Features (:data:`FEATURE_IDS`, the kernel's ``F_*``): ``T`` = N − C, ``C``, ``cards`` (cards in
the tableau, numbers and currency), ``deck`` (cards left in the draw pile), ``tokens``
(currency tokens held), ``busts`` (bust tokens held). The list is read in order: the first
clause whose condition holds decides; when none holds, ``otherwise`` decides. For example
``table:if-1=tokens>=8:then-1=stop:if-2=T>=7:then-2=stop:otherwise=draw`` stops at T ≥ 7, or
as soon as a draw is optional while holding 8 tokens or more (the first draw of a turn is
always made).
"""
from __future__ import annotations

import re

from analyzer.errors import UserError

FEATURE_IDS = {"T": 1, "C": 2, "cards": 3, "deck": 4, "tokens": 5, "busts": 6}
CLAUSES = 3
ACTS = ("draw", "stop")
_CLAUSE = re.compile(r"\s*([A-Za-z]+)\s*(<=|>=)\s*(-?\d{1,4})\s*")


def parse_clause(text: str, where: str) -> tuple:
    """``FEATURE<=V`` / ``FEATURE>=V`` → (feature, op, int value); a one-line error otherwise."""
    m = _CLAUSE.fullmatch(text)
    if not m or m.group(1) not in FEATURE_IDS:
        raise UserError(f"{where}: condition '{text}' must be FEATURE<=V or FEATURE>=V with V a "
                        f"whole number and FEATURE one of {', '.join(FEATURE_IDS)}")
    return m.group(1), m.group(2), int(m.group(3))


def clause_text(feature: str, op: str, value: int) -> str:
    return f"{feature}{op}{value}"


def bot_rule(bot, where: str = ""):
    """The table bot's clauses (knobs ``if-k``, ``then-k``, ``otherwise``) as a list Rule."""
    from analyzer.advice import Rule

    where = where or f"bot '{bot.label}'"
    clauses = []
    seen_gap = False
    for k in range(1, CLAUSES + 1):
        cond, then = getattr(bot, f"if_{k}"), getattr(bot, f"then_{k}")
        if not cond:
            if then:
                raise UserError(f"{where}: then-{k} needs if-{k}")
            seen_gap = True
            continue
        if seen_gap:
            raise UserError(f"{where}: if-{k} needs if-{k - 1} (clauses are numbered from 1)")
        if then not in ACTS:
            raise UserError(f"{where}: then-{k} must be draw or stop")
        clauses.append(parse_clause(cond, where) + (then == "draw",))
    if bot.otherwise not in ACTS:
        raise UserError(f"{where}: otherwise must be draw or stop")
    return Rule("list", clauses=tuple(clauses), default_act=bot.otherwise == "draw")


def bot_text(rule) -> str:
    """The table bot that plays the decision list ``rule`` (integer values, ≤ 3 clauses)."""
    knobs = []
    for k, (f, op, v, act) in enumerate(rule.clauses, start=1):
        knobs += [f"if-{k}={clause_text(f, op, int(v))}", f"then-{k}={ACTS[0 if act else 1]}"]
    knobs.append(f"otherwise={ACTS[0 if rule.default_act else 1]}")
    return "table:" + ":".join(knobs)


def table_rows(bot) -> tuple:
    """The kernel's draw rule table of a table bot (rows of six integers)."""
    from analyzer.advice.table import table_of

    return table_of(bot_rule(bot), FEATURE_IDS)


def table_acts(table: tuple, X: dict):
    """What a draw rule table decides on feature arrays ``X``, read as the kernel reads it."""
    from analyzer.advice.table import table_acts as read

    return read(table, X, FEATURE_IDS)
