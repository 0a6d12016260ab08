"""`pushluck trash-pandas ladder`: common random numbers across line-ups, the order of clearly
different bots, files, bad input, and a real Ctrl-C that keeps the finished deals."""
import json

import pytest

from analyzer.cli.main import main as pushluck
from tests.test_interrupts import ctrl_c_after_bar


def _json(argv, capsys):
    try:
        pushluck(["trash-pandas", "ladder"] + argv + ["--json", "--no-progress"])
    except SystemExit as exc:
        assert exc.code in (0, None)
    return json.loads(capsys.readouterr().out)


def test_two_bots_that_always_play_alike_tie_exactly_on_the_same_deals(capsys):
    """decline-last-card matters only under an optional consolation draw: under the default
    (mandatory) rule the two bots make the same choices, so on common random numbers every
    line-up replays self-play game for game: every paired gain is exactly 0 and the ratings
    are equal. Deals that differed between line-ups would move them."""
    out = _json(["--bots", "heuristic,heuristic:decline-last-card=never", "--players", "3",
                 "-n", "96", "--seed", "4"], capsys)
    assert out["lineups"] == 2 + 2 * 1 * 3
    assert [r["rating"]["estimate"] for r in out["ratings"]] == pytest.approx([0.0, 0.0],
                                                                               abs=1e-9)
    for g in out["gains"]:
        assert g["gain"]["estimate"] == 0.0 and g["gain"]["se"] == 0.0
    a, b = out["self_play"]
    assert [s["win_rate"]["estimate"] for s in a["seats"]] == \
        [s["win_rate"]["estimate"] for s in b["seats"]]


def test_heuristic_is_rated_above_random_and_the_pair_separates(capsys):
    out = _json(["--bots", "random", "--bots", "heuristic", "--players", "2", "-n", "400",
                 "--seed", "2"], capsys)
    assert [r["bot"] for r in out["ratings"]] == ["heuristic", "random"]
    pair = out["adjacent"][0]
    assert pair["separated"] and pair["difference"]["ci_low"] > 0
    assert out["n"] == 400 and out["seed"] == 2 and out["exact"] is False
    gain = next(g for g in out["gains"] if g["bot"] == "heuristic")["gain"]
    assert gain["ci_low"] > 0  # heuristic in one seat among randoms beats a random there


def test_out_and_chart_write_the_tables_and_the_chart(tmp_path, capsys):
    out = _json(["--bots", "heuristic,random", "--players", "2", "-n", "64", "--seed", "1",
                 "--out", str(tmp_path / "lad"), "--chart"], capsys)
    names = sorted(p.name for p in (tmp_path / "lad").iterdir())
    assert "tp_ladder.png" in names and "tp_ladder.svg" in names
    assert "tp_ladder_ratings.csv" in names and "tp_ladder_gains.csv" in names
    assert len(out["files"]) == len(names)


@pytest.mark.parametrize("argv, words", [
    (["--bots", "heuristic"], "at least two"),
    (["--bots", "heuristic,heuristic:stop-at=3"], "twice"),
    (["--bots", "heuristic,nobody"], "unknown bot"),
    (["--bots", "heuristic,search:0"], "iters"),
    (["--field", "nobody"], "unknown bot"),
    (["--bots", "heuristic,random", "--chart"], "--out"),
])
def test_bad_ladders_are_one_line_exit_2(capsys, argv, words):
    with pytest.raises(SystemExit) as exc:
        pushluck(["trash-pandas", "ladder", *argv, "-n", "10"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and words in err and err.count("\n") == 1, err


def test_sigint_keeps_the_finished_deals():
    code, out, err, _ = ctrl_c_after_bar(["trash-pandas", "ladder", "--bots", "heuristic,random",
                                          "-n", "100000000", "--seed", "1", "--json"], 240)
    assert code == 130, err[-500:]
    payload = json.loads(out)
    assert payload["interrupted"] is True and 0 < payload["n"] < 100000000
    assert payload["ratings"][0]["bot"] == "heuristic"
    assert b"Traceback" not in err


def test_a_search_bot_plays_the_ladder_in_blocks_small_enough_for_intervals(capsys):
    """Six deals of search:20 and random, 2 players: 2 + 2·1·2 line-ups; each deal its own
    block (six blocks, not one of six deals), so the bootstrap has something to resample."""
    out = _json(["--bots", "search:20,random", "--players", "2", "-n", "6", "--seed", "5"],
                capsys)
    assert out["lineups"] == 6 and out["n"] == 6 and out["blocks"] == 6 and out["rough"]
    assert sorted(r["bot"] for r in out["ratings"]) == ["random", "search:20"]
