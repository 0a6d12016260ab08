"""The README's examples are real runs, and the rules reference covers every game and house rule.

``test_readme_examples_match_real_runs`` reruns every ``<!-- example: … -->`` block of README.md
through ``docs/readme_examples.py --check`` (about two minutes; deselect with ``-m "not readme"``,
regenerate with ``make readme``). The other tests are fast checks of the generator and of
``docs/rules/``.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.games import all_games

ROOT = Path(__file__).resolve().parent.parent


def _generator():
    spec = importlib.util.spec_from_file_location("readme_examples", ROOT / "docs" /
                                                  "readme_examples.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


@pytest.mark.readme
def test_readme_examples_match_real_runs():
    proc = subprocess.run([sys.executable, str(ROOT / "docs" / "readme_examples.py"), "--check"],
                          cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


def test_help_or_an_unknown_option_runs_nothing_and_writes_nothing(monkeypatch, tmp_path):
    """`--help` and a mistyped option stop in the parser (exit 0 and 2), before any example
    runs or README.md is written (a run once took `--help` for a rewrite)."""
    gen = _generator()
    readme = tmp_path / "README.md"
    readme.write_text("untouched\n")
    monkeypatch.setattr(gen, "README", readme)
    monkeypatch.setattr(gen, "render", lambda *a, **k: pytest.fail("an example ran"))
    for argv, code in ((["--help"], 0), (["--chek"], 2)):
        with pytest.raises(SystemExit) as exc:
            gen.main(argv)
        assert exc.value.code == code
    assert readme.read_text() == "untouched\n"
    assert gen.parse_args(["--check", "--times"]).check is True


def test_marker_options_are_parsed_and_unknown_ones_refused():
    gen = _generator()
    src = ["<!-- example lines=3 exit=2 volatile: pushluck pig rules -->", "```console", "```",
           "<!-- end example -->"]
    (ex,) = gen.find_examples(src)
    assert (ex.command, ex.lines, ex.exit, ex.volatile, ex.start, ex.end) == \
        ("pushluck pig rules", 3, 2, True, 0, 3)
    with pytest.raises(SystemExit, match="unknown example option 'fast'"):
        gen.find_examples(["<!-- example fast: pushluck pig rules -->", "<!-- end example -->"])
    with pytest.raises(SystemExit, match="without"):
        gen.find_examples(["<!-- example: pushluck pig rules -->", "```console"])


def test_examples_may_write_only_under_the_scratch_folder():
    gen = _generator()
    ok = "<!-- example: pushluck pig solve --out /tmp/pushluck-readme/pig -->"
    assert gen.find_examples([ok, gen.END])[0].out_dir == "/tmp/pushluck-readme/pig"
    for out in ("results", "/tmp/pushluck-readme-x", "reports/out/pig"):
        with pytest.raises(SystemExit, match="--out must lie under"):
            gen.find_examples([f"<!-- example: pushluck pig solve --out {out} -->", gen.END])


def test_timings_are_masked_but_figures_are_not():
    gen = _generator()
    assert gen.mask("solved in 1.44 s; 3,482,292 games/s; games per second = 3,482,292") == \
        "solved in <t>; <t>; games <t>"
    assert gen.mask("P(first player wins) = 0.530593") == "P(first player wins) = 0.530593"


def test_every_game_has_a_rules_page_naming_every_house_rule_key():
    readme = (ROOT / "docs" / "rules" / "README.md").read_text(encoding="utf-8")
    for game in all_games():
        page = ROOT / "docs" / "rules" / game.rules_page
        assert page.is_file(), f"{game.key}: docs/rules/{game.rules_page} is missing"
        text = page.read_text(encoding="utf-8")
        assert f"({game.rules_page})" in readme, f"docs/rules/README.md does not link {page.name}"
        rules = game.load("rules")
        keys = [f.name for f in dataclasses.fields(rules)]
        missing = [k for k in keys if f"`{k}`" not in text]
        assert not missing, f"docs/rules/{game.rules_page} does not name the keys {missing}"


def test_output_names_data_files_relative_to_the_repository(monkeypatch):
    gen = _generator()
    fake = subprocess.CompletedProcess([], 0, stdout=f"deck ({gen.ROOT}/analyzer/data/x.toml)\n",
                                       stderr="")
    monkeypatch.setattr(gen.subprocess, "run", lambda *a, **k: fake)
    assert gen.run_example(gen.Example(0, 1, "pushluck ten deck")) == \
        "deck (analyzer/data/x.toml)"
    failed = subprocess.CompletedProcess([], 2, stdout="", stderr="pushluck: error: bad\n")
    monkeypatch.setattr(gen.subprocess, "run", lambda *a, **k: failed)
    assert gen.run_example(gen.Example(0, 1, "pushluck ten odds", exit=2)) == \
        "pushluck: error: bad"
    with pytest.raises(SystemExit, match="exited 2, expected 0"):
        gen.run_example(gen.Example(0, 1, "pushluck ten odds"))


def test_check_skips_volatile_examples_that_a_rewrite_runs(monkeypatch):
    """`--check` does not compare a volatile block, so it does not spend minutes running it (the
    bench example); a rewrite runs every example and keeps README order."""
    gen = _generator()
    src = ["<!-- example: pushluck pig rules -->", gen.END,
           "<!-- example volatile: pushluck bench --quick -->", gen.END,
           "<!-- example: pushluck ten rules -->", gen.END]
    examples = gen.find_examples(src)
    ran = []
    monkeypatch.setattr(gen, "run_example", lambda ex: ran.append(ex.command) or ex.command)
    monkeypatch.setattr(gen, "settle", lambda: ran.append("settle"))
    assert gen.run_all(examples, check=True) == ["pushluck pig rules", "", "pushluck ten rules"]
    assert sorted(ran) == ["pushluck pig rules", "pushluck ten rules"]
    ran.clear()
    assert gen.run_all(examples) == [ex.command for ex in examples]
    assert sorted(ran) == sorted([ex.command for ex in examples] + ["settle"])
    # timings last, alone, once the load has settled: not beside other examples
    assert ran[-2:] == ["settle", "pushluck bench --quick"]


def test_generated_blocks_are_filled_from_the_site_payload(monkeypatch, tmp_path):
    """The README's generated blocks (issue 38): the findings of `make run`, three per game,
    and the screenshot images; `--check` leaves them as they are. The site run itself is
    replaced by a payload here (it is `make run`, minutes long)."""
    gen = _generator()
    payload = {"reports": [{"title": "Pig: the calibration game",
                            "findings": ["one.", "two.", "three.", "four."]},
                           {"title": "Ten", "findings": ["alpha."]}]}
    monkeypatch.setattr(gen, "build_site", lambda: payload)
    monkeypatch.setattr(gen, "IMAGES", tmp_path)
    monkeypatch.setattr(gen, "ROOT", tmp_path.parent)
    import analyzer.site_check as sc

    monkeypatch.setattr(sc, "find_browser", lambda: None)  # images kept as they were
    text = ("before\n<!-- generated: site-findings -->\nstale\n<!-- end generated -->\n"
            "<!-- generated: site-screenshots -->\n<!-- end generated -->\nafter\n")
    out = gen.fill_generated(text, check=False).splitlines()
    assert out[:9] == ["before", "<!-- generated: site-findings -->",
                       "**Pig: the calibration game**", "", "- one.", "- two.", "- three.", "",
                       "**Ten**"]
    assert out[9:12] == ["", "- alpha.", "<!-- end generated -->"]
    images = [line for line in out if line.startswith("![")]
    assert [i.rsplit("/", 1)[1] for i in images] == ["report-index.png)", "report-game.png)"]
    assert out[-1] == "after"
    assert gen.fill_generated(text, check=True) == text
    with pytest.raises(SystemExit, match="unknown generated block"):
        gen.fill_generated("<!-- generated: nope -->\n<!-- end generated -->\n", check=False)


def test_the_check_ignores_line_breaks_moved_by_a_timing_and_nothing_else():
    gen = _generator()
    short = "Racing: 3,151 games (12 s) against 30,392 (about 9 s) for a uniform\n  grid"
    long = "Racing: 3,151 games (123.4 s) against 30,392 (about 9 s) for a\n  uniform grid"
    assert gen.same_text(short, long)
    assert not gen.same_text(short, long.replace("30,392", "30,393"))
    assert not gen.same_text(short, short.replace("uniform", "uniform,"))
