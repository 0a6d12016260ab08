"""`trash-pandas decide` with a belief about the unseen cards: a position where the opponents'
stash rule forces the hidden cards gives the value computed by hand, the choices share their
deals, the answer names its players, belief and unit, and P(win) intervals are exact at 0 and 1.
"""
import json
import math

import numpy as np
import pytest

from analyzer.cli.main import main as pushluck

Z = 1.959963984540054

# Two players, a deck of 3 Feesh (5/3/1) and 1 Doggo (0 points). I (seat 1) hold trash only;
# the pile is empty, so the game ends after my turn. Seen: my stashed Feesh and the Feesh in my
# hand. Unseen: 1 Feesh + 1 Doggo, split into seat 2's hand (1) and face-down stash (1).
# Seat 2's bot (heuristic) never stashes a 0-point card, so its face-down card is the Feesh:
# stopping now, we tie 1 Feesh to 1 (4 points each), then one type and one card each: a shared
# win, 1/2 in every deal. Dealt uniformly, half the deals put the Doggo face down and I win
# 5 to 0: 1/2 · 1 + 1/2 · 1/2 = 3/4.
FORCED = """
players = 2
me = 1
cards_left = 0
held = ["trash"]
[hand]
feesh = 1
[seat.1]
stash = { feesh = 1 }
[seat.2]
hand = 1
face_down = 1
"""


def _deck(tmp_path, copies):
    text = ""
    for k in ("blammo", "doggo", "feesh", "kitteh", "pie", "nanners", "shiny", "yumyum"):
        text += f"[cards.{k}]\ncopies = {copies.get(k, 0)}\n"
        text += "per_card = 1\n" if k == "blammo" else \
            f"points = {[5, 3, 1] if k == 'feesh' else [0, 0, 0]}\n"
    p = tmp_path / "deck.toml"
    p.write_text(text)
    return ["--set", f"deck={p}"]


def _json(argv, capsys):
    try:
        pushluck(["trash-pandas"] + argv + ["--json"])
    except SystemExit as exc:
        assert exc.code in (0, None)
    return json.loads(capsys.readouterr().out)


def _write(tmp_path, text):
    p = tmp_path / "pos.toml"
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize("belief", ["model", "rules"])
def test_the_stash_rule_forces_the_hidden_cards_and_the_exact_value(tmp_path, capsys, belief):
    out = _json(["decide", _write(tmp_path, FORCED), "-n", "3000", "--seed", "4",
                 "--no-progress", "--belief", belief] + _deck(tmp_path, {"feesh": 3, "doggo": 1}),
                capsys)
    stop = out["choices"][0]
    assert stop["choice"] == "stop" and stop["p_win"]["estimate"] == 0.5
    assert out["belief"]["name"] == belief and out["belief"]["fallback"] == ""


def test_the_uniform_deal_gets_the_same_position_wrong_by_a_quarter(tmp_path, capsys):
    out = _json(["decide", _write(tmp_path, FORCED), "-n", "4000", "--seed", "4",
                 "--no-progress", "--belief", "uniform"]
                + _deck(tmp_path, {"feesh": 3, "doggo": 1}), capsys)
    stop = out["choices"][0]["p_win"]
    assert abs(stop["estimate"] - 0.75) <= 4 * math.sqrt(0.75 * 0.25 / 4000)
    assert stop["ci_low"] <= 0.75 <= stop["ci_high"]


def test_an_impossible_stash_under_the_rule_falls_back_to_the_uniform_deal(tmp_path, capsys):
    text = FORCED.replace("hand = 1\nface_down = 1", "hand = 0\nface_down = 2")
    out = _json(["decide", _write(tmp_path, text), "-n", "2000", "--seed", "4",
                 "--no-progress"] + _deck(tmp_path, {"feesh": 3, "doggo": 1}), capsys)
    assert out["belief"]["name"] == "uniform" and "could not have" in out["belief"]["fallback"]
    # seat 2 holds the Feesh and the Doggo face down: 1 Feesh each (4 points each), and seat 2
    # wins the tie-break on distinct types stashed (2 to 1): I lose in every deal
    assert out["choices"][0]["p_win"]["estimate"] == 0.0


def test_the_answer_names_who_plays_the_belief_and_the_unit(tmp_path, capsys):
    argv = ["decide", _write(tmp_path, FORCED), "-n", "200", "--seed", "4", "--no-progress"] \
        + _deck(tmp_path, {"feesh": 3, "doggo": 1})
    out = _json(argv, capsys)
    # no --seats: the solver in every seat (lineup.DECIDE_BOT, the strongest within budget)
    assert out["seats"] == [{"seat": 1, "bot": "solver", "me": True},
                            {"seat": 2, "bot": "solver", "me": False}]
    assert out["unit"] == "chance of winning (a shared win counts as a share)"
    assert out["belief"]["name"] == "model" and "Doggo" not in out["belief"]["description"]
    assert "Wilson" in out["interval"]
    with pytest.raises(SystemExit):
        pushluck(["trash-pandas"] + argv)
    text = capsys.readouterr().out
    assert "played by: seat 1 solver (me), seat 2 solver" in text
    assert "belief about the unseen cards: model" in text
    assert "a shared win counts as a share" in text


def test_a_line_up_with_knobs_is_named_seat_by_seat(tmp_path):
    """Through the Python entry point (the option's name is the CLI's business): me in seat 2,
    a knob away from its default in seat 1, a random bot in seat 3."""
    import tomllib

    from analyzer.games.trash_pandas.lineup import parse_lineup
    from analyzer.games.trash_pandas.decide import decide
    from analyzer.games.trash_pandas.position import parse_position
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.games.trash_pandas.whole import GameSetup
    from analyzer.runner import RunSpec

    lineup = parse_lineup("heuristic:stop-at=4,heuristic,random", 3)
    setup = GameSetup(TrashPandasRules(), 3, [lineup], from_setup=False)
    text = MIDGAME.replace("me = 1", "me = 2").replace("[seat.1]", "[seat.9]") \
        .replace("[seat.2]", "[seat.1]").replace("[seat.9]", "[seat.2]")
    pos = parse_position(tomllib.loads(text), setup.deck, 3)
    out = decide(pos, setup, RunSpec(64, 1, progress=False), "rules")
    assert out["seats"] == [{"seat": 1, "bot": "heuristic:stop-at=4", "me": False},
                            {"seat": 2, "bot": "heuristic", "me": True},
                            {"seat": 3, "bot": "random", "me": False}]
    assert out["belief"]["name"] == "rules" and out["me"] == 2


# No hidden card at all: stopping wins for sure (5 points to 3) in one position and loses for
# sure in the other (I hold nothing to stash; seat 2 has two Feesh face up to my one).
SURE = """
players = 2
me = 1
cards_left = 0
held = ["trees"]
[hand]
feesh = {mine}
[seat.1]
stash = {{ feesh = 1 }}
[seat.2]
hand = 0
face_up = {{ feesh = {theirs} }}
"""


@pytest.mark.parametrize("mine, theirs, value", [(1, 1, 1.0), (0, 2, 0.0)])
def test_win_chances_of_zero_and_one_have_exact_wilson_bounds(tmp_path, capsys, mine, theirs,
                                                            value):
    n = 5000
    out = _json(["decide", _write(tmp_path, SURE.format(mine=mine, theirs=theirs)), "-n", str(n),
                 "--seed", "2", "--no-progress"] + _deck(tmp_path, {"feesh": 3}), capsys)
    p = out["choices"][0]["p_win"]
    assert p["estimate"] == value
    if value == 1.0:
        assert p["ci_high"] == 1.0 and p["ci_low"] == pytest.approx(n / (n + Z * Z), abs=1e-12)
    else:
        assert p["ci_low"] == 0.0 and p["ci_high"] == pytest.approx(Z * Z / (n + Z * Z),
                                                                   abs=1e-12)


# A three-player position in mid game (21 cards left) where stopping wins about a quarter of the
# time: a redrawn deal would change many trials' outcomes.
MIDGAME = """
players = 3
me = 1
cards_left = 21
held = ["trash", "trees"]
[hand]
feesh = 1
pie = 1
doggo = 1
[discard]
nanners = 2
blammo = 3
kitteh = 1
[seat.1]
stash = { feesh = 2, shiny = 1, yumyum = 1 }
face_up = { feesh = 1 }
[seat.2]
hand = 3
face_up = { pie = 1 }
face_down = 5
[seat.3]
hand = 4
face_down = 6
"""


def test_every_choice_is_played_on_the_same_deal_and_stream():
    """The same choice twice: with shared deals and streams the paired difference is 0 in every
    trial (Σd = Σd² = 0), while the win share itself varies from trial to trial."""
    import tomllib

    from analyzer.games.trash_pandas.belief import belief_for
    from analyzer.games.trash_pandas.lineup import parse_lineup
    from analyzer.games.trash_pandas.position import parse_position
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.games.trash_pandas.whole import GameSetup
    from analyzer.rng import block_keys

    setup = GameSetup(TrashPandasRules(), 3, [parse_lineup(None, 3)], from_setup=False)
    pos = parse_position(tomllib.loads(MIDGAME), setup.deck, 3)
    bp = belief_for("model", setup).params(pos.g0, pos.me)
    keys = block_keys(9, 0, 4)
    counts = np.full(4, 64, dtype=np.int64)
    d = setup.deck
    for pair in ([[1, 0, 0], [1, 0, 0]], [[0, 0, 0], [0, 0, 0]]):
        out = setup.kernel("decide_blocks")(
            keys, counts, pos.g0, pos.pool, pos.opp_hand, pos.opp_down, pos.me, 0, pos.held,
            np.array(pair, dtype=np.int64), setup.bots[0], d.pts, d.per_card, d.copies,
            setup.rules_arr, setup.roll_tab, setup.after_tab, bp).sum(axis=0)
        assert 20 < out[0] < 236  # some trials won, some lost (256 trials)
        assert out[6] == 0.0 and out[7] == 0.0 and out[4] == out[0]


# The same position with its public history from the deal (2 players, 4 cards): I drew 2 and
# stashed 1 face down; seat 2 drew 1 and stashed it face down; then seat 2's Bandit Mask
# revealed the Doggo into its hand. So seat 2's hand is the Doggo for sure, whatever the
# belief: even dealt uniformly, its face-down card is the Feesh, and stopping is a shared win.
HISTORY = FORCED + """
[[history]]
seat = 1
event = "draw"
count = 2
[[history]]
seat = 1
event = "stash"
[[history]]
seat = 2
event = "draw"
[[history]]
seat = 2
event = "stash"
[[history]]
seat = 2
event = "reveal"
card = "doggo"
"""


def test_a_card_the_history_proves_in_a_hand_is_dealt_there(tmp_path, capsys):
    out = _json(["decide", _write(tmp_path, HISTORY), "-n", "2000", "--seed", "4",
                 "--no-progress", "--belief", "uniform"]
                + _deck(tmp_path, {"feesh": 3, "doggo": 1}), capsys)
    assert out["choices"][0]["p_win"]["estimate"] == 0.5
    assert out["belief"]["history"] == {"events": 5, "known_in_hand": {"2": {"doggo": 1}}}


@pytest.mark.parametrize("change, words", [
    (("count = 2", "count = 3"), "the pile holds only 0 cards"),
    (("count = 2", "count = 1"), "the cards left is 1 after the history"),
    (('card = "doggo"', 'card = "pie"'), "proven in opponents' hands"),
    (('event = "reveal"', 'event = "peek"'), "'event' must be one of"),
    (("seat = 2\nevent = \"draw\"", "seat = 5\nevent = \"draw\""), "seat 1..2"),
])
def test_a_history_that_does_not_lead_to_the_position_is_one_line_and_exit_2(tmp_path, capsys,
                                                                            change, words):
    with pytest.raises(SystemExit) as exc:
        pushluck(["trash-pandas", "decide", _write(tmp_path, HISTORY.replace(*change)), "-n",
                  "10"] + _deck(tmp_path, {"feesh": 3, "doggo": 1}))
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1 and words in err, err
