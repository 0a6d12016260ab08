"""The README and the docs/ pages: every command they print pastes into a shell as printed and
names a real command with real options, every relative link leads to a file, the README stays
short, and docs/cli.md is every command's current ``--help``.

(The examples' *outputs* are checked by test_readme.py, which reruns them through ``bash -c``.)
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests import clitree

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
# a stand-in for the program: prints each argument it got, NUL-terminated, as bash split them
STUB = "pushluck() { printf '%s\\0' \"$@\"; printf '\\n'; }\n"


def command_lines(text: str) -> list[str]:
    """Every `pushluck …` command inside a fenced block (a console block's `$ ` prompt dropped,
    lines ending in a backslash joined as a shell joins them)."""
    out, fence, pending = [], False, ""
    for line in text.splitlines():
        if line.startswith("```"):
            fence, pending = not fence, ""
            continue
        if not fence:
            continue
        line = pending + line
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        stripped = line.strip()
        if stripped.startswith("$ "):
            stripped = stripped[2:]
        if stripped.startswith("pushluck ") or stripped == "pushluck":
            out.append(stripped)
    return out


def test_command_lines_are_found_in_console_and_plain_blocks_and_joined():
    text = ("prose pushluck pig rules\n```\npushluck pig rules   # a comment\n```\n```console\n"
            "$ pushluck pig decide --me 1 \\\n    --opp 2\nnot a command\n```\n")
    assert command_lines(text) == ["pushluck pig rules   # a comment",
                                   "pushluck pig decide --me 1      --opp 2"]


def _paste(line: str, cwd: Path) -> list[list[str]]:
    proc = subprocess.run(["bash", "-c", STUB + line], cwd=cwd, capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 0, f"{line!r} does not paste into bash: {proc.stderr}"
    return [x.split("\0")[:-1] for x in proc.stdout.splitlines() if x]


def _commands():
    return {path: command for path, command in clitree.walk()}


def _check(line: str, argv: list[str], commands: dict) -> None:
    path: tuple[str, ...] = ()
    for word in argv:
        if path + (word,) in commands:
            path += (word,)
        else:
            break
    assert path in commands, line
    command = commands[path]
    if hasattr(command, "list_commands") and "--help" not in argv and "--version" not in argv \
            and "--list" not in argv:
        pytest.fail(f"{line!r}: 'pushluck {' '.join(path)}' is a group, not a command")
    known = {"--help"} | {o for p in command.params for o in getattr(p, "opts", ())} \
        | {o for p in command.params for o in getattr(p, "secondary_opts", ())}
    for word in argv[len(path):]:
        if word.startswith("--") and len(word) > 2:
            assert word.split("=", 1)[0] in known, f"{line!r}: no option {word} in " \
                                                    f"'pushluck {' '.join(path)}'"


def test_every_printed_command_pastes_into_bash_and_names_real_options(tmp_path):
    commands = _commands()
    seen = 0
    for page in PAGES:
        for line in command_lines(page.read_text(encoding="utf-8")):
            for argv in _paste(line, tmp_path):
                _check(f"{page.relative_to(ROOT)}: {line}", argv, commands)
                seen += 1
    assert seen > 100, seen


def test_a_command_a_shell_would_split_or_a_wrong_option_is_caught(tmp_path):
    # the old line-up separator ';' splits the command in two: 'hold:25: command not found'
    with pytest.raises(AssertionError, match="does not paste"):
        _paste("pushluck pig simulate --seats hold:20;hold:25", tmp_path)
    assert _paste("pushluck pig simulate --seats 'a b',c", tmp_path) == \
        [["pig", "simulate", "--seats", "a b,c"]]
    commands = _commands()
    _check("ok", ["pig", "simulate", "--seats", "hold:20", "-n", "5"], commands)
    for argv in (["pig", "simulate", "--sets", "hold:20"], ["pig", "simluate"], ["pig"]):
        with pytest.raises((AssertionError, pytest.fail.Exception)):
            _check("x", argv, commands)


LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_every_relative_link_leads_to_a_file():
    broken = []
    for page in PAGES:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            if not (page.parent / target.split("#", 1)[0]).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_the_readme_is_short_and_starts_with_make_run_and_make_test():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 250, len(lines)
    first_block = lines[lines.index("```") + 1:lines.index("```", lines.index("```") + 1)]
    assert [x.split()[:2] for x in first_block] == [["make", "run"], ["make", "test"]]


def test_the_cli_reference_is_every_commands_current_help():
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("cli_reference", ROOT / "docs" /
                                                  "cli_reference.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    text = module.render()
    assert (ROOT / "docs" / "cli.md").read_text(encoding="utf-8") == text, \
        "docs/cli.md is out of date: run `python docs/cli_reference.py` (make readme does)"
    for path, command in clitree.leaves():
        assert f"## pushluck {' '.join(path)}\n" in text
