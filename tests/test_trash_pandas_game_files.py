"""`trash-pandas game --out DIR --chart` writes its tables and charts under --out only (and the
same files again for the same seed); reading a bad `decide` position loads no Numba kernel."""
import json
from pathlib import Path

import pytest

from analyzer.cli.main import main as pushluck


def _run(argv, capsys):
    try:
        pushluck(["trash-pandas"] + argv)
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


def _files(root: Path) -> dict:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_game_chart_writes_only_under_out_and_is_reproducible(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = ["game", "--players", "3", "-n", "600", "--seed", "4", "--no-progress",
            "--vs", "solver,heuristic,heuristic", "--out", "res", "--chart", "--json"]
    code, out, _err = _run(argv, capsys)
    assert code == 0
    result = json.loads(out)
    first = _files(tmp_path)
    names = {"tp_game_seats", "tp_game_length", "tp_game_vs", "tp_game_win_rates"}
    expected = {f"res/{n}.{ext}" for n in names for ext in ("csv", "md")
                if n != "tp_game_win_rates"}
    expected |= {f"res/{n}.{ext}" for n in names - {"tp_game_seats"} for ext in ("png", "svg")}
    assert set(first) == expected  # nothing outside --out, nothing missing
    assert sorted(result["files"]) == sorted(str(Path("res") / Path(f).name) for f in expected)
    assert all(len(b) > 0 for b in first.values())
    seats_csv = first["res/tp_game_seats.csv"].decode().splitlines()
    assert seats_csv[0].startswith("lineup,bots,seat,win_rate,se,ci_low,ci_high")
    assert len(seats_csv) == 1 + 2 * 3  # two line-ups, three seats
    code, _out, _err = _run(argv, capsys)
    assert code == 0 and _files(tmp_path) == first  # same seed: byte-identical files


def test_game_without_vs_writes_no_comparison(tmp_path, capsys):
    out_dir = tmp_path / "o"
    code, _out, _err = _run(["game", "-n", "300", "--seed", "1", "--no-progress",
                             "--out", str(out_dir), "--chart"], capsys)
    assert code == 0
    assert sorted(p.name for p in out_dir.iterdir()) == sorted(
        ["tp_game_seats.csv", "tp_game_seats.md", "tp_game_length.csv", "tp_game_length.md",
         "tp_game_length.png", "tp_game_length.svg", "tp_game_win_rates.png",
         "tp_game_win_rates.svg"])


def test_chart_without_out_is_one_line_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(["game", "-n", "10", "--chart"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "--out" in err
    assert list(tmp_path.iterdir()) == []


BAD = """players = 2
me = 1
cards_left = 0
held = ["trees", "trees"]
"""


def test_a_bad_position_is_refused_without_loading_numba(tmp_path):
    pos = tmp_path / "bad.toml"
    pos.write_text(BAD)
    from tests.module_probe import run_reporting_modules

    lines, _ = run_reporting_modules(["trash-pandas", "decide", str(pos)], ("numba", "pandas"))
    assert lines[-1] == "2 False False"
    assert "twice" in lines[0] and len(lines) == 2
