"""`pushluck report` resume after a recipe renames a part (issue 40: a stale title on resume).

A part's title is words, not numbers: it is not in the part's fingerprint, so renaming it keeps
the part's files (no recomputation). The pages must still show the recipe's new title; they
showed the one recorded in the part's manifest when it was computed.
"""
from __future__ import annotations

import json

import pytest

RECIPE = '''title = "Title test"
game = "pig"
seed = 3

[[parts]]
name = "turn"
title = "{title}"
kind = "pig.hold-thresholds"
[parts.params]
range = [5, 8]

[rules]
goal = 20

[[parts]]
name = "solve"
kind = "pig.solve"
'''


def _report(recipe, out, capsys) -> dict:
    from analyzer.cli.main import main

    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(["report", str(recipe), "--out", str(out), "--json"])
    cap = capsys.readouterr()
    assert exc.value.code == 0, cap.err
    return json.loads(cap.out)


def _files(out) -> dict:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name != ".pushluck.lock"}


def test_a_renamed_part_is_reused_and_the_pages_show_its_new_title(tmp_path, capsys):
    recipe, out = tmp_path / "r.toml", tmp_path / "out"
    recipe.write_text(RECIPE.format(title="Hold at H"))
    first = _report(recipe, out, capsys)
    assert (first["computed"], first["skipped"]) == (2, 0)
    before = _files(out)
    assert "## Hold at H" in before["index.md"].decode()

    recipe.write_text(RECIPE.format(title="When to hold: thresholds"))
    again = _report(recipe, out, capsys)
    assert (again["computed"], again["skipped"]) == (0, 2)  # words only: nothing recomputed
    after = _files(out)
    for page in ("index.md", "index.html"):
        text = after[page].decode()
        assert "When to hold: thresholds" in text and "Hold at H" not in text, page
    assert "## When to hold: thresholds" in after["index.md"].decode()
    assert "<h2>When to hold: thresholds</h2>" in after["index.html"].decode()
    manifest = json.loads(after["parts/turn.json"])
    assert manifest["title"] == "When to hold: thresholds"  # the record says it too
    # the part's own files and the other part are untouched, byte for byte
    changed = {k for k in before if before[k] != after.get(k)}
    assert changed == {"index.md", "index.html", "parts/turn.json"}, changed

    third = _report(recipe, out, capsys)  # and a rerun with nothing changed changes nothing
    assert (third["computed"], third["skipped"]) == (0, 2) and _files(out) == after
