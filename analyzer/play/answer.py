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
    from analyzer.games.trash_pandas.lineup import parse_lineup
    from analyzer.games.trash_pandas.position import build_position, check_position
    from analyzer.games.trash_pandas.score import deck_arrays, whole_deck
    from analyzer.games.trash_pandas.whole import GameSetup
    from analyzer.runner import RunSpec

    r = table.rules
    checked = check_position(table.position(), table.copies, r.bonus_cap,
                             r.mask_card == "hand")
    pos = build_position(checked)
    setup = GameSetup(r, pos.players, [parse_lineup(seats, pos.players)],
                      deck=deck_arrays(deck=whole_deck(r.deck)), from_setup=False)
    return decide(pos, setup, RunSpec(n, seed, progress=False), belief)


def ten_answer(table, n: int, seed: int, seats: str | None = None) -> dict:
    """``ten decide`` on the table's position (written to a temporary file and read back by
    the same loader, so the answer is the one ``ten decide FILE`` gives)."""
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
    bots = parse_seats(seats or "threshold", pos.players, "--seats")
    return decide(pos, table.rules, table.deck_spec, bots, RunSpec(n, seed, progress=False))


def answer(table, n: int, seed: int, belief: str = "model", seats: str | None = None) -> dict:
    if table.GAME == "ten":
        return ten_answer(table, n, seed, seats)
    return trash_pandas_answer(table, n, seed, belief, seats)


def answer_lines(out: dict) -> list[str]:
    """A few lines: P(win) per choice with its 95% interval, then the recommendation."""
    lines = [f"chance of winning, seat {out['me']}, n = {out['n']:,} playouts per choice, "
             f"seed {out['seed']}:"]
    if out["game"] == "ten":
        for choice, st in out["p_win"].items():
            lines.append(f"  {choice:<10} {st.estimate:.3f} [{st.ci_low:.3f}, {st.ci_high:.3f}]")
        lines.append(f"  → {out['recommendation']}")
        return lines
    for row in out["choices"]:
        st = row["p_win"]
        lines.append(f"  {row['choice']:<10} {st.estimate:.3f} [{st.ci_low:.3f}, "
                     f"{st.ci_high:.3f}]")
    note = f" ({out['note']})" if out["note"] else ""
    lines.append(f"  → {out['recommendation']}{note}")
    t = out["turn_level"]
    lines.append(f"  one turn, exact (card-equivalents): {t['recommendation']}")
    return lines
