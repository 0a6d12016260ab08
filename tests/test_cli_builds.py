"""Building the command line twice gives the same commands (the suite builds it hundreds of times
in one process: a sub-app kept at module level gained its commands again on every build, and
the CLI reference test slowed from 4 s to 2 minutes)."""
from __future__ import annotations

from analyzer.cli.main import build_app


def _play_commands(app) -> list[str]:
    (play,) = [g.typer_instance for g in app.registered_groups if g.name == "play"]
    return [c.name for c in play.registered_commands]


def test_every_build_has_play_with_its_two_commands_once():
    first = build_app()
    for _ in range(3):
        again = build_app()
    assert _play_commands(first) == ["trash-pandas", "ten"]
    assert _play_commands(again) == ["trash-pandas", "ten"]
    assert [c.name for c in again.registered_commands] == [c.name for c in
                                                           first.registered_commands]
