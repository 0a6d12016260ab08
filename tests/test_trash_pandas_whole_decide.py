"""`trash-pandas decide` and `game` through the CLI: answers checked against hand-computed
end-game values, and impossible positions refused with one line and exit code 2."""
import json

import pytest

from analyzer.cli.main import main as pushluck


def main(argv):
    pushluck(["trash-pandas"] + argv)


# A deck of three Feesh only (a test deck file); the pile is empty (the game ends after this
# turn), nothing is hidden. I (seat 1) hold trees and a Feesh; both of us have one Feesh
# stashed. Stop: trees stashes my Feesh, 5 points to 3, I win.
# Roll (--seats heuristic: stop at 3 tokens): a repeat busts with 1/6, then 2/6; a bust leaves the
# Feesh tie (4 points each, then equal types and cards: a shared win, 1/2). Nothing else
# changes a score (no cards to draw or steal). P(win | roll) = 5/9 + (4/9)/2 = 7/9.
END_GAME = """
players = 2
me = 1
cards_left = 0
held = ["trees"]
{extra}
[hand]
feesh = 1
[seat.1]
stash = {{ feesh = 1 }}
[seat.2]
hand = 0
face_up = {{ feesh = 1 }}
face_down = 0
"""


DECK = "".join(f"[cards.{k}]\ncopies = {3 if k == 'feesh' else 0}\n"
               + ("per_card = 1\n" if k == "blammo" else
                  f"points = {[5, 3, 1] if k == 'feesh' else [0, 0, 0]}\n")
               for k in ("blammo", "doggo", "feesh", "kitteh", "pie", "nanners", "shiny",
                         "yumyum"))


def _write(tmp_path, text, name="pos.toml"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def _deck(tmp_path, nanners=0):
    """A deck of three Feesh (and ``nanners`` Nanners): every card is in the position."""
    return ["--set", "deck=" + _write(tmp_path, DECK.replace(
        "[cards.nanners]\ncopies = 0", f"[cards.nanners]\ncopies = {nanners}"), "deck.toml")]


def _run(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def _json(argv, capsys):
    try:
        main(argv + ["--json"])
    except SystemExit as exc:  # typer's standalone handling may exit 0
        assert exc.code in (0, None)
    return json.loads(capsys.readouterr().out)


def test_end_game_roll_or_stop_matches_the_hand_computed_values(tmp_path, capsys):
    pos = _write(tmp_path, END_GAME.format(extra=""))
    out = _json(["decide", pos, "-n", "20000", "--seed", "5", "--no-progress",
                 "--seats", "heuristic"] + _deck(tmp_path), capsys)
    stop, roll = out["choices"]
    assert stop["choice"] == "stop" and stop["p_win"]["estimate"] == 1.0
    est, se = roll["p_win"]["estimate"], roll["p_win"]["se"]
    assert abs(est - 7 / 9) <= 5 * se
    d = roll["vs_stop"]
    assert abs(d["estimate"] + 2 / 9) <= 5 * d["se"]
    assert out["recommendation"] == "stop" and out["exact"] is False and out["seed"] == 5
    assert out["turn_level"]["exact"] is True


def test_after_a_repeat_nanners_saves_the_win_and_taking_it_shares(tmp_path, capsys):
    text = END_GAME.format(extra='rolled = "trees"').replace("feesh = 1\n[seat.1]",
                                                             "feesh = 1\nnanners = 1\n[seat.1]")
    pos = _write(tmp_path, text)
    out = _json(["decide", pos, "-n", "2000", "--seed", "1", "--no-progress"]
                + _deck(tmp_path, nanners=1), capsys)
    by = {c["choice"]: c["p_win"]["estimate"] for c in out["choices"]}
    assert by == {"bust": 0.5, "nanners": 1.0}
    assert out["recommendation"] == "nanners"


@pytest.mark.parametrize("text, words", [
    (END_GAME.format(extra="").replace("feesh = 1\n[seat.1]", "feesh = 9\n[seat.1]"),
     "Feesh"),
    (END_GAME.format(extra="").replace('held = ["trees"]', 'held = ["trees", "trees"]'),
     "twice"),
    (END_GAME.format(extra="").replace("cards_left = 0", "cards_left = 5"), "do not add up"),
    (END_GAME.format(extra="").replace("face_up = { feesh = 1 }", "face_up = { feesh = 1 }\n"
                                       "colour = 3"), "seat.2"),
    (END_GAME.format(extra="").replace("stash = { feesh = 1 }",
                                       "stash = { feesh = 1 }\nface_up = { pie = 1 }"),
     "face-up"),
    (END_GAME.format(extra="").replace("me = 1", "me = 3"), "me"),
])
def test_impossible_positions_are_one_line_and_exit_2(tmp_path, capsys, text, words):
    code, out, err = _run(["decide", _write(tmp_path, text), "-n", "10"] + _deck(tmp_path),
                          capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_game_json_has_statistics_and_vs_compares_on_the_same_games(capsys):
    out = _json(["game", "--players", "3", "-n", "3000", "--seed", "2", "--no-progress",
                 "--seats", "heuristic", "--vs", "solver,heuristic,heuristic"], capsys)
    assert out["game"] == "trash-pandas" and out["exact"] is False and out["seed"] == 2
    first, second = out["lineups"]
    assert sum(s["win_rate"]["estimate"] for s in first["seats"]) == pytest.approx(1.0)
    for key in ("estimate", "se", "ci_low", "ci_high", "n"):
        assert key in first["turns"] and key in second["vs_first"][0]["win_rate_change"]
    assert second["lineup"] == "solver,heuristic,heuristic"


def test_bad_bot_knob_is_one_line_exit_2(capsys):
    code, out, err = _run(["game", "--seats", "heuristic:stop-at=9", "-n", "10"], capsys)
    assert code == 2 and "stop-at" in err and err.count("\n") == 1
