"""What `pushluck bench` says about a row's scaling (speed itself is never asserted: these check
when a row gets a note and which reason it gives)."""
from analyzer.benchkit import BenchCase
from analyzer.cli.bench import scaling_note


def _case(note=None):
    return BenchCase("pig", "games", "games", lambda: None, 1000, scaling_note=note)


def test_no_note_at_or_above_the_target():
    assert scaling_note(_case(), 1.8, 2, 100, 9.0, 2) is None
    assert scaling_note(_case(), 1.0, 1, 100, 0.0, 1) is None  # one core: nothing to scale


def test_the_reason_below_the_target():
    assert scaling_note(_case("one long block"), 1.2, 2, 100, 0.1, 2) == "one long block"
    assert "3 blocks per run" in scaling_note(_case(), 1.2, 2, 3, 0.1, 2)
    assert "load average 4.0 on 2 CPUs" in scaling_note(_case(), 1.2, 2, 100, 4.0, 2)
    assert "not known" in scaling_note(_case(), 1.2, 2, 100, 1.0, 2)


def test_cores_taken_during_the_run_itself():
    """A lagging load average below the threshold, but the all-core run got 1.1 of 2 CPUs: the
    note names that; with the CPUs it asked for, the reason stays unknown."""
    assert "got 1.1 CPUs" in scaling_note(_case(), 1.0, 2, 100, 2.1, 2, 1.1)
    assert "not known" in scaling_note(_case(), 1.0, 2, 100, 2.1, 2, 1.95)


def test_warm_commands_insist_on_their_exit_code_from_any_folder(tmp_path, monkeypatch):
    """`bench --warm` runs each query (and each game's extra warm commands) in a fresh process
    from the package's folder, so "analyzer/data/…" resolves wherever the user stands; a
    command that exits otherwise than declared stops the warm-up with its last stderr line."""
    import pytest

    from analyzer.benchkit import BenchWarm, run_command
    from analyzer.games import all_games

    monkeypatch.chdir(tmp_path)
    run_command(("ten", "decide", "analyzer/data/ten_position_impossible.toml"), exit_code=2)
    with pytest.raises(RuntimeError, match=r"exited 2, expected 0: .*error"):
        run_command(("pig", "turn", "--hold", "-5"))
    assert list(tmp_path.iterdir()) == []  # nothing written where the user stands
    warms = [c for g in all_games() for c in g.load("bench") if isinstance(c, BenchWarm)]
    assert {c.game for c in warms if c.compiles} == {g.key for g in all_games()}
