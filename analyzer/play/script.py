"""``pushluck play GAME --script FILE``: the table companion without a screen.

The file holds one entry per line (the language of analyzer/play/<game>.py; ``#`` at the start or after
a space starts a comment, blank lines are skipped). Each entry is applied in order; after it the position is
printed and, when the entry leaves me at a choice, the answer (analyzer/play/answer.py) with
each choice's chance of winning and its 95% interval. An impossible entry stops the script with
one line naming its line number and the reason.

A position file saved by ``play`` ends with its entries as ``#> entry`` comments; given such a
file, only those lines are read, so the saved game replays.
"""
from __future__ import annotations

import re
from pathlib import Path

from analyzer.errors import UserError

MAX_SCRIPT_BYTES = 1 << 20
COMMENT = re.compile(r"(^|\s)#.*")  # a '#' after a space or at the start (r# is a card)


def read_script(path: str) -> list[tuple[int, str]]:
    """(line number, entry) for every entry of the file; one-line errors for a bad file."""
    from analyzer.output import read_regular

    p = Path(path)
    if not p.exists() and not p.is_symlink():
        raise UserError(f"cannot read {p}: no such file")
    raw = read_regular(p, limit=MAX_SCRIPT_BYTES)
    if raw is None:
        raise UserError(f"cannot read {p}: not a regular file of at most 1 MiB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{p} is not UTF-8 text") from None
    lines = text.splitlines()
    saved = [(i + 1, line[3:].strip()) for i, line in enumerate(lines) if line.startswith("#> ")]
    if saved:  # a position saved by `play`: its entries are the '#> ' comments
        return saved
    out = []
    for i, line in enumerate(lines):
        entry = COMMENT.sub("", line).strip()
        if entry:
            out.append((i + 1, entry))
    return out


def run_script(table, entries: list[tuple[int, str]], ask, write=None) -> list[dict]:
    """Apply every entry; ``ask(table)`` answers at my choices (a decide dict); ``write(text)``,
    if given, prints each step as it happens. Returns one record per entry."""
    from analyzer.play.answer import answer_lines

    steps = []
    for lineno, entry in entries:
        try:
            said = table.enter(entry)
        except UserError as exc:
            raise UserError(f"line {lineno} '{entry}': {exc}") from None
        step = {"line": lineno, "entry": entry, "said": said, "position": table.position(),
                "my_choice": table.my_choice()}
        text = [f"> {entry}", f"  {said}"] + ["  " + x for x in table.describe().splitlines()]
        if step["my_choice"]:
            step["answer"] = ask(table)
            text += ["  " + x for x in answer_lines(step["answer"])]
        steps.append(step)
        if write is not None:
            write("\n".join(text) + "\n")
    return steps
