"""The one spelling of bots and line-ups (analyzer/botspec.py), on a small family written here.

Expected values are written by hand from docs/conventions.md: parts separated by ':', the first
parts without '=' fill the positional knobs in order, seats separated by ','.
"""
from __future__ import annotations

import pytest

from analyzer.botspec import Bot, Family, Knob, Reader, modern
from analyzer.errors import UserError

FAMILY = Family("demo", [
    Bot("greedy", "stops at once"),
    Bot("go", "goes on", knobs=("risk",), positional=("gos", "turns-left")),
    Bot("shy", "draws rarely", knobs=("draw-chance", "mood"), defaults={"mood": "calm"})],
    [Knob("gos", "int", 1, low=0, high=10), Knob("turns-left", "int", 1, low=1, high=9),
     Knob("risk", "float", 0.5, low=0, high=1), Knob("draw-chance", "float", 0.25, low=0,
                                                     high=1),
     Knob("mood", "word", "angry", words=("calm", "angry"))])


def test_positional_and_named_knobs_mean_the_same():
    a, b = FAMILY.parse("go:2:3"), FAMILY.parse("go:gos=2:turns-left=3")
    assert (a.name, a["gos"], a["turns-left"], a["risk"]) == ("go", 2, 3, 0.5)
    assert (b["gos"], b["turns-left"]) == (2, 3)
    c = FAMILY.parse("go:4:risk=0.75")
    assert (c["gos"], c["turns-left"], c["risk"]) == (4, 1, 0.75)
    assert FAMILY.parse("shy")["mood"] == "calm"  # the bot's own default beats the knob's
    assert FAMILY.parse("shy:mood=ANGRY")["mood"] == "angry"


@pytest.mark.parametrize("text,message", [
    ("go:2:gos=3", "knob 'gos' is given twice"),
    ("go:risk=0.1:2", "'2' is not knob=value"),
    ("go:1:2:3", "'3' is not knob=value"),
    ("greedy:2", "'2' is not knob=value"),
    ("go:gos=11", "knob 'gos' must be in 0..10, got 11"),
    ("go:gos=x", "knob 'gos' must be a whole number, got 'x'"),
    ("go:risk=nan", "knob 'risk' must be a number"),
    ("shy:mood=sad", "knob 'mood' must be one of calm, angry, got 'sad'"),
    ("shy:draw_chance=0.5", "knob names are kebab-case: draw-chance, not draw_chance"),
    ("shy:colour=red", "unknown knob 'colour' for shy (knobs: draw-chance, mood)"),
    ("bold", "unknown bot 'bold' (bots of demo: greedy, go, shy, rule)"),
    ("go::2", "empty part between ':'"),
    ("go:2,risk=0.1", "separate its knobs with ':' (e.g. go:2:risk=0.1)"),
    ("rule:", "rule needs a file"),
])
def test_one_spec_refused_in_one_line(text, message):
    with pytest.raises(UserError) as exc:
        FAMILY.parse(text, "--policy")
    assert message in str(exc.value) and "\n" not in str(exc.value)
    assert str(exc.value).startswith("--policy")


def test_a_rule_file_keeps_every_character_of_its_path():
    spec = FAMILY.parse("rule:out/a:b,c.json")
    assert spec.is_rule and spec.file == "out/a:b,c.json"
    with pytest.raises(UserError, match="unknown bot 'rule'"):
        FAMILY.without_rule().parse("rule:x.json")  # a package's own bots: no rule files


def test_line_ups():
    assert [s.name for s in FAMILY.lineup("greedy", 3)] == ["greedy"] * 3
    assert [s.text for s in FAMILY.lineup("go:2,greedy, shy:mood=calm", 3)] == \
        ["go:2", "greedy", "shy:mood=calm"]
    with pytest.raises(UserError, match="names 2 bots for 3 seats"):
        FAMILY.lineup("go,greedy", 3)
    with pytest.raises(UserError, match="an empty seat"):
        FAMILY.lineup("go,,greedy", 3)
    with pytest.raises(UserError, match=r"e\.g\. --seats go:2:risk=0\.1,greedy"):
        FAMILY.lineup("go:2,risk=0.1,greedy", 2)
    with pytest.raises(UserError, match=r"e\.g\. --vs go:2,greedy\)"):
        FAMILY.lineup("go:2;greedy", 2, "--vs")


@pytest.mark.parametrize("old,new", [
    ("heuristic:stop-at=4;heuristic;random", "heuristic:stop-at=4,heuristic,random"),
    ("threshold:8,bid=never;random;cards:5", "threshold:8:bid=never,random,cards:5"),
    ("threshold:stop_at=8,band_by=deck,cut_1=20", "threshold:stop-at=8:band-by=deck:cut-1=20"),
    ("rollout:8,stop-at=4", "rollout:8:stop-at=4"),
    ("table:if_1=T>=7,then_1=stop,otherwise=draw", "table:if-1=T>=7:then-1=stop:otherwise=draw"),
])
def test_old_spellings_are_rewritten_into_the_new(old, new):
    """The suggestion an error line shows (``modern``), with no family: a part that starts with
    knob=value continues the seat before it."""
    assert modern(old) == new


def test_a_reader_makes_the_games_objects():
    read = Reader(FAMILY, lambda s: (s.name, s["gos"]) if s.name == "go" else (s.name, None))
    assert read.one("go:3") == ("go", 3)
    assert read.seats("go:2,greedy", 2) == [("go", 2), ("greedy", None)]
    read.check("go,greedy,shy")  # any length
    with pytest.raises(UserError):
        read.check("go,bold")
