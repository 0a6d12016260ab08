"""`pushluck ten ladder`: one small run end to end (order, files), common random numbers across
line-ups, win shares that sum to 1 per game, and bad input in one line (exit 2)."""
import json

import pytest

from analyzer.cli.main import main as pushluck


def _json(argv, capsys):
    try:
        pushluck(["ten", "ladder"] + argv + ["--json", "--no-progress"])
    except SystemExit as exc:
        assert exc.code in (0, None)
    return json.loads(capsys.readouterr().out)


def test_threshold_is_rated_above_random_and_the_files_are_written(tmp_path, capsys):
    """2 players, threshold against random: 2 + 2·1·2 = 6 line-ups on 200 deals. A bot that
    draws by a coin and bids at random loses to one that stops at T ≥ 7: rated above it, the
    pair separated, and threshold in one seat among randoms gains over a random there."""
    out = _json(["--bots", "random,threshold", "--players", "2", "-n", "200", "--seed", "3",
                 "--out", str(tmp_path / "lad"), "--chart"], capsys)
    assert out["game"] == "ten" and out["lineups"] == 6 and out["n"] == 200
    assert out["seed"] == 3 and out["exact"] is False and out["players"] == 2
    assert [r["bot"] for r in out["ratings"]] == ["threshold", "random"]
    assert out["adjacent"][0]["separated"] and out["adjacent"][0]["difference"]["ci_low"] > 0
    gain = next(g for g in out["gains"] if g["bot"] == "threshold")["gain"]
    assert gain["ci_low"] > 0
    names = sorted(p.name for p in (tmp_path / "lad").iterdir())
    assert {"ten_ladder.png", "ten_ladder.svg", "ten_ladder_ratings.csv",
            "ten_ladder_gains.csv", "ten_ladder_self_play.csv"} <= set(names)
    assert len(out["files"]) == len(names)


def test_bots_that_play_alike_replay_the_same_deals_in_every_line_up(capsys):
    """min-gain only matters to a bot that buys: with buy=never both bots make every choice
    alike, so on common random numbers every line-up replays self-play game for game: each
    paired gain is exactly 0 (SE 0) and the ratings are equal. Line-ups on different decks
    would move them."""
    out = _json(["--bots", "threshold:buy=never,threshold:buy=never:min-gain=2", "--players",
                 "3", "-n", "96", "--seed", "4"], capsys)
    assert out["lineups"] == 2 + 2 * 1 * 3
    assert [r["rating"]["estimate"] for r in out["ratings"]] == pytest.approx([0.0, 0.0],
                                                                               abs=1e-9)
    for g in out["gains"]:
        assert g["gain"]["estimate"] == 0.0 and g["gain"]["se"] == 0.0


def test_each_self_play_game_gives_out_exactly_one_win(capsys):
    """A win shared by k seats counts 1/k: the seats' win shares of a line-up sum to its
    games, so the self-play win rates of every bot sum to 1."""
    out = _json(["--bots", "threshold,cards:4,random", "--players", "4", "-n", "48",
                 "--seed", "9"], capsys)
    assert out["lineups"] == 3 + 3 * 2 * 4
    for sp in out["self_play"]:
        assert sum(s["win_rate"]["estimate"] for s in sp["seats"]) == pytest.approx(1.0,
                                                                                    abs=1e-12)


@pytest.mark.parametrize("argv, words", [
    (["--bots", "threshold"], "at least two"),
    (["--bots", "threshold,threshold:stop-at=7"], "twice"),
    (["--bots", "threshold,nobody"], "unknown bot"),
    (["--field", "nobody"], "unknown bot"),
    (["--bots", "threshold,random", "--chart"], "--out"),
    (["--bots", "threshold,random", "--deck", "/nonexistent/deck.toml"], "deck"),
])
def test_bad_ladders_are_one_line_exit_2(capsys, argv, words):
    with pytest.raises(SystemExit) as exc:
        pushluck(["ten", "ladder", *argv, "-n", "10"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and words in err and err.count("\n") == 1, err
