"""The `decide` commands check a position before anything loads Numba (issue 16: the parsing and
validation path of a query answers faster than `import numba`). Each case is a real position file
with one mistake, run in a fresh interpreter: one line on stderr, exit 2, and Numba never
imported."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.module_probe import run_reporting_modules

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "analyzer" / "data"

CASES = {
    # game: (argv before the position, the example file, a line appended that makes it invalid)
    "ten": (["ten", "decide"], "ten_position_example.toml", "nosuch_key = 1\n"),
    "canasta": (["canasta", "decide"], "canasta_position_example.toml", "nosuch_key = 1\n"),
    "trash-pandas": (["trash-pandas", "decide"], "trash_pandas_position_example.toml",
                     "nosuch_key = 1\n"),
    "gostop": (["gostop", "decide"], "gostop_position_example.toml",
               "nosuch_key = 1\n"),
}


def _prepend(text: str, line: str) -> str:
    """Put ``line`` before the first table header, so it is a top-level key."""
    head, sep, rest = text.partition("\n[")
    return line + text if not sep else head + "\n" + line + sep.lstrip("\n") + rest


def _exit_code_and_numba(argv: list[str], path: Path) -> tuple[list[str], str]:
    """Run ``pushluck ARGV PATH`` in a fresh interpreter: its stderr lines, the last one being
    "<exit code> <whether numba was imported>"."""
    return run_reporting_modules([*argv, str(path)], ("numba",))


@pytest.mark.parametrize("game", sorted(CASES))
def test_a_bad_position_is_one_line_and_loads_no_numba(game, tmp_path):
    argv, example, line = CASES[game]
    bad = tmp_path / "bad.toml"
    bad.write_text(_prepend((DATA / example).read_text(), line))
    lines, err = _exit_code_and_numba(argv, bad)
    assert lines[-1] == "2 False", err
    assert len(lines) == 2 and "nosuch_key" in lines[0], err


@pytest.mark.parametrize("game,argv", [
    ("ten", ["ten", "decide"]), ("canasta", ["canasta", "decide"]),
    ("gostop", ["gostop", "decide"]),
    ("trash_pandas", ["trash-pandas", "decide"])])
def test_the_bench_rows_impossible_positions_are_refused_without_numba(game, argv):
    """The files `pushluck bench` times on the refusal path are refused for what they say."""
    path = DATA / f"{game}_position_impossible.toml"
    lines, err = _exit_code_and_numba(argv, path)
    assert lines[-1] == "2 False" and len(lines) == 2, err
