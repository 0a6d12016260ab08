"""The answer at one of my choices: the table's position handed to the very code ``decide``
runs (analyzer/games/<game>/decide.py), with a small number of playouts so that it answers
within about a second; the app refines it with more playouts while the user thinks.

Each answer is ``decide``'s JSON-ready dict; :func:`answer_lines` puts it in a few lines: every
choice's chance of winning with its 95% interval (Wilson for Trash Pandas, the normal interval
of a mean of win shares for Ten, as ``decide`` reports them) and the recommendation.
"""
from __future__ import annotations

import os
import tempfile


def trash_pandas_answer(table, n: int, seed: int, belief: str = "model",
                        seats: str | None = None) -> dict:
    """``trash-pandas decide`` on the table's position (the history included)."""
    from analyzer.games.trash_pandas.decide import decide
    from analyzer.games.trash_pandas.lineup import DECIDE_BOT, parse_lineup
    from analyzer.games.trash_pandas.position import build_position, check_position
    from analyzer.games.trash_pandas.score import deck_arrays, whole_deck
    from analyzer.games.trash_pandas.whole import GameSetup
    from analyzer.runner import RunSpec

    r = table.rules
    checked = check_position(table.position(), table.copies, r.bonus_cap,
                             r.mask_card == "hand")
    pos = build_position(checked)
    setup = GameSetup(r, pos.players, [parse_lineup(seats, pos.players, default=DECIDE_BOT)],
                      deck=deck_arrays(deck=whole_deck(r.deck)), from_setup=False)
    return decide(pos, setup, RunSpec(n, seed, progress=False), belief)


def ten_answer(table, n: int, seed: int, seats: str | None = None) -> dict:
    """``ten decide`` on the table's position (written to a temporary file and read back by
    the same loader, so the answer is the one ``ten decide FILE`` gives)."""
    from analyzer.games.ten.cli_whole import STRONGEST_BOT
    from analyzer.games.ten.decide import decide
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.position import load_position
    from analyzer.runner import RunSpec

    fd, path = tempfile.mkstemp(suffix=".toml", prefix="pushluck-play-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(table.position_toml())
        pos = load_position(path, table.rules, table.deck_spec)
    finally:
        os.unlink(path)
    bots = parse_seats(seats or STRONGEST_BOT, pos.players, "--seats")
    return decide(pos, table.rules, table.deck_spec, bots, RunSpec(n, seed, progress=False))


def answer(table, n: int, seed: int, belief: str = "model", seats: str | None = None) -> dict:
    if table.GAME == "ten":
        out = ten_answer(table, n, seed, seats)
    else:
        out = trash_pandas_answer(table, n, seed, belief, seats)
    # the rule of thumb is about drawing: none in the final buy round
    out["rule_of_thumb"] = None if out.get("phase") == "final" else rule_of_thumb(table)
    return out


_RULES: dict = {}  # (game, rules, what the rule depends on) → the rule (exact, so cached)


def rule_of_thumb(table) -> dict:
    """The simplest rule of one threshold that `advice` finds for my turn (exact, against
    perfect play of the turn in the value model's units): Trash Pandas for my usable
    Blammo!/Nanners/MMM Pie! (at most 7 each), Ten for the players and my tokens, from a full
    deck. Its words and its loss a turn."""
    from analyzer.advice import rule_row

    s = table.state
    if table.GAME == "ten":
        key = ("ten", repr(table.rules), table.players, s.tokens[table.me])
    else:
        usable = tuple(min(s.hand[t] - s.gained[t], 7) for t in (0, 5, 4))  # blammo, nanners, pie
        key = ("trash-pandas", repr(table.rules), usable)
    if key not in _RULES:
        if table.GAME == "ten":
            from analyzer.games.ten.advice import DECISION, advise
            from analyzer.games.ten.exact import Model
            from analyzer.games.ten.rules import ValueModel, turn_state

            turn = table.rules.turn_rules()
            model = Model(turn_state(turn, table.deck_spec, None, None, table.players), turn,
                          ValueModel(), table.players, key[-1])
            res = advise(model, 1, 1)
            unit = "card-equivalents a turn"
        else:
            from analyzer.games.trash_pandas.advice import DECISION, advise
            from analyzer.games.trash_pandas.exact import TurnSolver
            from analyzer.games.trash_pandas.rules import ValueModel

            res = advise(TurnSolver(ValueModel(), table.rules), key[-1], 1, 1)
            unit = "card-equivalents a turn"
        row = rule_row(res["front"][0], res["features"], DECISION)
        _RULES[key] = {"words": row["words"], "loss": row["loss"], "unit": unit,
                       "exact": True}
    return _RULES[key]


def answer_lines(out: dict, top: int | None = None) -> list[str]:
    """A few lines: P(win) per choice with its 95% interval (with ``top``, only the ``top``
    best choices, in their order, and how many are left out), the recommendation, the rule of
    thumb."""
    if out.get("exact"):
        lines = [f"chance of winning, seat {out['me']}, exact (the pile is empty, the later "
                 f"buyers' bots buy by rule):"]
    else:
        lines = [f"chance of winning, seat {out['me']}, n = {out['n']:,} playouts per choice, "
                 f"seed {out['seed']}:"]
    if out["game"] == "ten":
        rows = list(out["p_win"].items())
    else:
        rows = [(r["choice"], r["p_win"]) for r in out["choices"]]
    keep = set(range(len(rows)))
    if top is not None and len(rows) > top:
        keep = set(sorted(keep, key=lambda i: -rows[i][1].estimate)[:top])
    for i, (choice, st) in enumerate(rows):
        if i in keep:
            lines.append(f"  {choice:<10} {st.estimate:.3f} [{st.ci_low:.3f}, {st.ci_high:.3f}]")
    if len(keep) < len(rows):
        lines.append(f"  ({len(rows) - len(keep)} more: save, and `decide` lists every one)")
    if out["game"] == "ten":
        lines.append(f"  → {out['recommendation']}")
    else:
        note = f" ({out['note']})" if out["note"] else ""
        lines.append(f"  → {out['recommendation']}{note}; one turn, exact: "
                     f"{out['turn_level']['recommendation']}")
    return lines + _rule_line(out)


def _rule_line(out: dict) -> list[str]:
    r = out.get("rule_of_thumb")
    if not r:
        return []
    return [f"  rule of thumb: {r['words']} (loses {r['loss']:.3f} {r['unit']})"]
