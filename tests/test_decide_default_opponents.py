"""`decide`'s default opponents are the strongest bot within its budget: the solver in Trash
Pandas (lineup.DECIDE_BOT), exact in Ten (cli_whole.STRONGEST_BOT).

The claim is a measured one, so the test measures it: on the same deals, one default seat among
the heuristic bots (Trash Pandas heuristic, Ten threshold) must win more than a heuristic in
that seat, and one heuristic among defaults less than a default there, each by a 95% interval
that excludes 0 (the paired gains of `ladder`'s round robin, cluster SE over blocks of deals).
With 20,000 deals the gains are 0.016-0.030 with SE 0.0013-0.0025 (at least 6 SE from 0 at
every player count; Ten at 2 players, the smallest, gave +0.017, +0.018, +0.016 ± 0.0025 on seeds
42-44; at 6,000 deals seed 42 gave +0.006 ± 0.005, too few), so a weaker default, or a bot that lost its edge, fails here; a heuristic default
would make the two bots the same and is refused by `ladder` (a bot named twice).
"""
import json

import pytest

from analyzer.cli.main import main as pushluck
from analyzer.games.ten.cli_whole import STRONGEST_BOT as TEN_DEFAULT
from analyzer.games.trash_pandas.lineup import DECIDE_BOT as TP_DEFAULT

HEURISTIC = {"trash-pandas": "heuristic", "ten": "threshold"}
DEFAULT = {"trash-pandas": TP_DEFAULT, "ten": TEN_DEFAULT}


def _ladder(game: str, players: int, capsys) -> dict:
    with pytest.raises(SystemExit) as exc:
        pushluck([game, "ladder", "--bots", f"{DEFAULT[game]},{HEURISTIC[game]}", "--players",
                  str(players), "-n", "20000", "--seed", str(40 + players), "--no-progress",
                  "--json"])
    assert exc.value.code in (0, None)
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("game", ["trash-pandas", "ten"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_default_opponent_beats_the_heuristic_on_the_same_deals(game, players, capsys):
    out = _ladder(game, players, capsys)
    gains = {(g["bot"], g["field"]): g["gain"] for g in out["gains"]}
    up = gains[(DEFAULT[game], HEURISTIC[game])]
    down = gains[(HEURISTIC[game], DEFAULT[game])]
    assert up["n"] == 20000 and up["ci_low"] > 0, up
    assert down["ci_high"] < 0, down
    assert out["ratings"][0]["bot"] == DEFAULT[game]


def test_trash_pandas_decide_names_the_default_and_honours_seats(capsys):
    """No --seats: the solver in every seat; --seats heuristic: the heuristic, as asked."""
    for argv, bot in (([], TP_DEFAULT), (["--seats", "heuristic"], "heuristic")):
        with pytest.raises(SystemExit):
            pushluck(["trash-pandas", "decide", "--example", "basic", "-n", "64", "--seed", "2",
                      "--belief", "rules", "--no-progress", "--json"] + argv)
        out = json.loads(capsys.readouterr().out)
        assert [s["bot"] for s in out["seats"]] == [bot] * 3
        assert [s["seat"] for s in out["seats"] if s["me"]] == [2]


def test_ten_decide_uses_the_default_when_neither_option_nor_file_names_bots(tmp_path, capsys):
    """The shipped example names its bots (`seats = "exact"`); without that line and without
    --seats the default plays every seat, and --seats threshold overrides the file."""
    from pathlib import Path

    import analyzer

    text = (Path(analyzer.__file__).parent / "data" / "ten_position_example.toml").read_text()
    assert 'seats = "exact"' in text
    pos = tmp_path / "pos.toml"
    pos.write_text(text.replace('seats = "exact"', ""))
    for argv, bot in (([], TEN_DEFAULT), (["--seats", "threshold"], "threshold")):
        with pytest.raises(SystemExit):
            pushluck(["ten", "decide", str(pos), "-n", "64", "--seed", "2", "--no-progress",
                      "--json"] + argv)
        out = json.loads(capsys.readouterr().out)
        assert out["bots"] == [bot] * 4, out["bots"]
