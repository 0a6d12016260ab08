"""`trash-pandas decide` and `game` through the CLI: answers checked against hand-computed
end-game values, and impossible positions refused with one line and exit code 2."""
import json
import math

import numpy as np
import pytest

from analyzer.cli.main import main as pushluck
from analyzer.errors import UserError


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


# ---- the text forms of `game` and `decide`, from results written out by hand ---------------------
# Every line below is typed out (widths counted by hand): 80 characters a line, a longer one
# wrapped at a space with its continuation indented two more (analyzer/words.py `fit`).

def _st(e, se, lo, hi, n=12345):
    from analyzer.stats import Statistic

    return Statistic(e, se, lo, hi, n)


def _lineup(label, vs=None):
    plays = dict(blammo=1.25, nanners=0.5, yumyum=0.75, doggo=1.0, kitteh=0.25, pie=2.0,
                 feesh=0.4, feesh_saves=0.1, shiny=0.3, paw_steals=0.6, shiny_steals=0.2,
                 mask_reactions=0.9, consolation_declined=1.5)
    lu = {"lineup": label,
          "seats": [{"seat": 1, "win_rate": _st(0.55, 0.01, 0.53, 0.57),
                     "points": _st(31.5, 0.25, 31.01, 31.99)},
                    {"seat": 2, "win_rate": _st(0.45, 0.01, 0.43, 0.47),
                     "points": _st(29.25, 0.25, 28.76, 29.74)}],
          "turns": _st(24.5, 0.1, 24.3, 24.7), "rounds": _st(6.25, 0.05, 6.15, 6.35),
          "margin": _st(8.0, 0.2, 7.6, 8.4), "main_busts": _st(3.5, 0.05, 3.4, 3.6),
          "bonus_turns": _st(0.75, 0.01, 0.73, 0.77),
          "bust_rate_per_turn": _st(0.2, 0.002, 0.196, 0.204),
          "tiebreak_share": _st(0.1, 0.003, 0.094, 0.106),
          "decided_by_tiebreak": _st(0.08, 0.002, 0.076, 0.084),
          "shared_wins": _st(0.02, 0.001, 0.018, 0.022),
          **{k: _st(v, 0.0, v, v) for k, v in plays.items()}}
    if vs:
        lu["vs_first"] = vs
    return lu


def _lineup_lines(k, label):
    return [
        "",
        f"line-up {k}: {label}",
        "        win rate                          points",
        "------  --------------------------------  ---------------------------",
        "seat 1  0.5500 ± 0.0100 [0.5300, 0.5700]  31.50 ± 0.25 [31.01, 31.99]",
        "seat 2  0.4500 ± 0.0100 [0.4300, 0.4700]  29.25 ± 0.25 [28.76, 29.74]",
        "  turns                  24.500 ± 0.100 [24.300, 24.700]",
        "  rounds                 6.250 ± 0.050 [6.150, 6.350]",
        "  margin                 8.000 ± 0.200 [7.600, 8.400]",
        "  main_busts             3.500 ± 0.050 [3.400, 3.600]",
        "  bonus_turns            0.750 ± 0.010 [0.730, 0.770]",
        "  bust rate per turn     0.2000 ± 0.0020 [0.1960, 0.2040]",
        "  top points tied        0.1000 ± 0.0030 [0.0940, 0.1060]",
        "    tie-break decided    0.0800 ± 0.0020 [0.0760, 0.0840]",
        "    still shared         0.0200 ± 0.0010 [0.0180, 0.0220]",
        "  per game: blammo 1.25, nanners 0.50, yumyum 0.75, doggo 1.00, kitteh 0.25, pie",
        "    2.00, feesh 0.40, feesh_saves 0.10, shiny 0.30, paw_steals 0.60,",
    ]


def test_game_text_line_by_line():
    from analyzer.games.trash_pandas.whole import render_game

    vs = [{"seat": 1, "win_rate_change": _st(-0.02, 0.004, -0.028, -0.012), "verdict": "worse"},
          {"seat": 2, "win_rate_change": _st(0.02, 0.004, 0.012, 0.028), "verdict": "better"}]
    out = {"players": 2, "n": 12345, "seed": 7, "rules": {"consolation": "optional"},
           "lineups": [_lineup("heuristic,heuristic"), _lineup("solver,heuristic", vs)],
           "first_player_advantage": _st(0.03, 0.005, 0.02, 0.04), "games_per_second": 98765.4}
    head = ["Trash Pandas, 2 players, n = 12,345 games, seed 7 (Monte Carlo; ± is one SE,",
            "  [95% interval])"]
    tail = ["",
            "first-player advantage (seat 1 win rate − 1/2): 0.0300 ± 0.0050 [0.0200, 0.0400]",
            "games per second: 98,765"]
    declined = "    shiny_steals 0.20, mask_reactions 0.90, consolation_declined 1.50"
    assert render_game(out).split("\n") == (
        head + _lineup_lines(1, "heuristic,heuristic") + [declined]
        + _lineup_lines(2, "solver,heuristic") + [declined]
        + ["  seat 1 win rate vs line-up 1: -0.0200 ± 0.0040 [-0.0280, -0.0120] → worse",
           "  seat 2 win rate vs line-up 1: 0.0200 ± 0.0040 [0.0120, 0.0280] → better"]
        + tail)
    # declining the consolation card is counted only where the rules let a player decline it
    out = {**out, "rules": {"consolation": "forced"}, "lineups": [_lineup("heuristic,heuristic")]}
    assert render_game(out).split("\n") == (
        head + _lineup_lines(1, "heuristic,heuristic")
        + ["    shiny_steals 0.20, mask_reactions 0.90"] + tail)


def test_decide_text_line_by_line():
    from analyzer.games.trash_pandas.decide import render_decide

    out = {"n": 2048, "seed": 5,
           "seats": [{"seat": 1, "bot": "heuristic", "me": True},
                     {"seat": 2, "bot": "solver", "me": False}],
           "belief": {"description": "learned from self-play", "fallback": "",
                      "history": {"events": 0, "known_in_hand": {}}},
           "unit": "chance of winning",
           "choices": [{"choice": "stop", "p_win": _st(0.4, 0.01, 0.38, 0.42)},
                       {"choice": "roll", "p_win": _st(0.6, 0.01, 0.58, 0.62),
                        "vs_stop": _st(0.2, 0.005, 0.19, 0.21)}],
           "verdict": "roll: +0.200 chance of winning over stop [+0.190, +0.210]",
           "turn_level": {"recommendation": "roll", "ev_stop": 1.5, "ev_roll": 2.25}}
    head = ["Trash Pandas decide: n = 2,048 playouts per choice, seed 5",
            "  the rest of the game is played by: seat 1 heuristic (me), seat 2 solver",
            "  belief about the unseen cards: learned from self-play"]
    assert render_decide(out).split("\n") == head + [
        "  public history: none given (the belief reads the position alone)",
        "  P(win) = chance of winning; ± one SE [95% interval]",
        "  stop     P(win) = 0.4000 ± 0.0100 [0.3800, 0.4200]",
        "  roll     P(win) = 0.6000 ± 0.0100 [0.5800, 0.6200]",
        "           change vs stop: 0.2000 ± 0.0050 [0.1900, 0.2100]",
        "  → roll: +0.200 chance of winning over stop [+0.190, +0.210]",
        "  turn-level (exact, card-equivalents): stop 1.500, roll 2.250 → roll"]
    # a roll not allowed (the solver's "—"); a history that proves nothing
    out["turn_level"] = {"recommendation": "stop", "ev_stop": 1.5, "ev_roll": None}
    out["belief"]["history"] = {"events": 2, "known_in_hand": {}}
    lines = render_decide(out).split("\n")
    assert lines[3] == "  public history: 2 events, which prove: no card in a hand"
    assert lines[-1] == "  turn-level (exact, card-equivalents): stop 1.500, roll — → stop"
    # after a rolled face: the widest choice (feesh-nanners, 13 letters) sets the column; cards
    # proven in hands, seat by seat; the belief's fallback note
    out.update(
        belief={"description": "uniform", "fallback": "the stashes cannot be dealt",
                "history": {"events": 3, "known_in_hand": {"2": {"feesh": 1, "pie": 2},
                                                           "3": {"doggo": 1}}}},
        choices=[{"choice": "take", "p_win": _st(0.5, 0.01, 0.48, 0.52)},
                 {"choice": "feesh-nanners", "p_win": _st(0.7, 0.01, 0.68, 0.72),
                  "vs_take": _st(0.2, 0.005, 0.19, 0.21)}],
        verdict="feesh-nanners: +0.200 chance of winning over take [+0.190, +0.210]",
        turn_level={"recommendation": "feesh-nanners", "value": 0.5, "unit": "card-equivalents",
                    "exact": True})
    assert render_decide(out).split("\n") == [
        "Trash Pandas decide: n = 2,048 playouts per choice, seed 5",
        "  the rest of the game is played by: seat 1 heuristic (me), seat 2 solver",
        "  belief about the unseen cards: uniform",
        "  public history: 3 events, which prove: seat 2 holds 1 Feesh, 2 MMM Pie!; seat",
        "    3 holds 1 Doggo",
        "  note: the stashes cannot be dealt",
        "  P(win) = chance of winning; ± one SE [95% interval]",
        "  take          P(win) = 0.5000 ± 0.0100 [0.4800, 0.5200]",
        "  feesh-nanners P(win) = 0.7000 ± 0.0100 [0.6800, 0.7200]",
        "                change vs take: 0.2000 ± 0.0050 [0.1900, 0.2100]",
        "  → feesh-nanners: +0.200 chance of winning over take [+0.190, +0.210]",
        "  turn-level (exact, card-equivalents): feesh-nanners (0.500)"]


def _position(rolled=-1, held=(), hand=None, gained=None, discard=None, bonus=False):
    """A two-player position in kernel form with my (seat 1's) hand, gained cards and the
    discard pile by card name; ``held`` names tokens (trash, trees, trash-tree, paw, mask,
    recycle: bits 0-5)."""
    import numpy as np

    from analyzer.games.trash_pandas.position import Position
    from analyzer.games.trash_pandas.score import WHOLE_CARDS
    from kernels.trash_pandas.layout import DISC, GAIN, HAND, new_state

    tokens = ("trash", "trees", "trash-tree", "paw", "mask", "recycle")
    g = new_state()
    for row, cards in ((HAND, hand), (GAIN, gained), (DISC, discard)):
        for name, k in (cards or {}).items():
            g[row, WHOLE_CARDS.index(name)] = k
    return Position(2, 0, sum(1 << tokens.index(t) for t in held), bonus, rolled, g,
                    np.zeros(8, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64))


def test_choices_after_a_rolled_face_by_hand():
    """After a face is rolled: take it (bust if it is held), or spend a Blammo! (code 1) or
    Nanners (2) from the hand, or a Feesh fetching one of them from the discard pile (3, 4:
    kernels/trash_pandas/whole_bots.py); a card gained this turn cannot be spent."""
    from analyzer.games.trash_pandas.decide import choices_for, feesh_fetches
    from analyzer.games.trash_pandas.rules import TrashPandasRules

    rules = TrashPandasRules()  # feesh_timing = any: a Feesh at any moment of the own turn
    # face 0 (trash) is a face like any other
    assert choices_for(_position(rolled=0), rules) == [("take", (2, 0, 0))]
    assert choices_for(_position(rolled=0, held=["trash"]), rules) == [("bust", (2, 0, 0))]
    # paw (3) rolled while trees (1) is held: not a repeat
    assert choices_for(_position(rolled=3, held=["trees"]), rules) == [("take", (2, 3, 0))]
    one_each = {"blammo": 1, "nanners": 1, "feesh": 1}
    assert choices_for(_position(rolled=3, hand=one_each, discard={"blammo": 1, "nanners": 1}),
                       rules) == [("take", (2, 3, 0)), ("blammo", (2, 3, 1)),
                                  ("nanners", (2, 3, 2)), ("feesh-blammo", (2, 3, 3)),
                                  ("feesh-nanners", (2, 3, 4))]
    # all three gained this turn: only taking is left
    assert choices_for(_position(rolled=3, hand=one_each, gained=one_each,
                                 discard={"blammo": 1, "nanners": 1}), rules) == [
        ("take", (2, 3, 0))]
    assert choices_for(_position(rolled=5, hand={"nanners": 1}, discard={"nanners": 1}),
                       rules) == [("take", (2, 5, 0)), ("nanners", (2, 5, 2))]
    # the Feesh saves: only after a roll, only under feesh_timing = any, only with a usable
    # Feesh, only for a card that lies in the discard pile
    feesh = {"feesh": 1}
    assert feesh_fetches(_position(rolled=0, hand=feesh, discard={"nanners": 1}), rules) == [
        ("feesh-nanners", 4)]
    assert feesh_fetches(_position(rolled=2, hand=feesh, discard={"blammo": 1}), rules) == [
        ("feesh-blammo", 3)]
    for pos, r in ((_position(hand=feesh, discard={"blammo": 1}), rules),
                   (_position(rolled=2, hand=feesh, discard={"blammo": 1}),
                    TrashPandasRules(feesh_timing="resolve")),
                   (_position(rolled=2, discard={"blammo": 1}), rules),
                   (_position(rolled=2, hand=feesh, gained=feesh, discard={"blammo": 1}), rules),
                   (_position(rolled=2, hand=feesh, discard={"pie": 2}), rules)):
        assert feesh_fetches(pos, r) == []
    # before a roll: stop, and roll while fewer than six tokens are held (the bonus turn's cap
    # on a bonus turn)
    five = ["trash", "trees", "trash-tree", "paw", "mask"]
    assert choices_for(_position(held=five), rules) == [("stop", (1, 0, 0)), ("roll", (0, 0, 0))]
    capped = TrashPandasRules(bonus_cap=3)
    assert choices_for(_position(held=five[:2], bonus=True), capped) == [
        ("stop", (1, 0, 0)), ("roll", (0, 0, 0))]
    assert choices_for(_position(held=five[:3], bonus=True), capped) == [("stop", (1, 0, 0))]


# A two-player position with its public history, on a deck of 8 cards (1 Blammo!, 2 Doggo,
# 2 Feesh, 1 MMM Pie!, 1 Nanners, 1 Yum Yum). Replayed by hand: I (seat 1) draw 3, seat 2
# draws 2 (pile 3), seat 2 reveals a Doggo into its hand (pile 2, a Doggo proven there), plays
# a Pie (to the discard pile), I play a Feesh, seat 2 fetches it (a Feesh proven), I stash one
# card face down (my Nanners), seat 2 stashes its Yum Yum face up. Left: 2 cards in the pile,
# the Pie in the discard pile, my Blammo! in hand, seat 2 with 2 cards (Doggo, Feesh). Unseen:
# 2 Doggo and 2 Feesh = 4 = 2 left + 2 in seat 2's hand.
SMALL_COPIES = {"blammo": 1, "doggo": 2, "feesh": 2, "kitteh": 0, "pie": 1, "nanners": 1,
                "shiny": 0, "yumyum": 1}
HISTORY_POSITION = {
    "players": 2, "me": 1, "cards_left": 2, "hand": {"blammo": 1}, "discard": {"pie": 1},
    "seat": {"1": {"stash": {"nanners": 1}}, "2": {"hand": 2, "face_up": {"yumyum": 1}}},
    "history": [{"seat": 1, "event": "draw", "count": 3},
                {"seat": 2, "event": "draw", "count": 2},
                {"seat": 2, "event": "reveal", "card": "doggo"},
                {"seat": 2, "event": "play", "card": "pie"},
                {"seat": 1, "event": "play", "card": "feesh"},
                {"seat": 2, "event": "fetch", "card": "feesh"},
                {"seat": 1, "event": "stash", "count": 1},
                {"seat": 2, "event": "stash_up", "card": "yumyum"}]}


def test_a_position_with_its_history_in_kernel_form_by_hand():
    import numpy as np

    from analyzer.games.trash_pandas.position import check_position, parse_position
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.games.trash_pandas.score import deck_arrays
    from kernels.trash_pandas.layout import DISC, HAND, SC, STASH, UP, new_state

    deck = deck_arrays(TrashPandasRules().deck, SMALL_COPIES)
    pos = parse_position(HISTORY_POSITION, deck, 3)
    B, D, F, P, N, Y = 0, 1, 2, 4, 5, 7  # card order: blammo doggo feesh kitteh pie nanners …
    g = new_state()
    g[STASH + 0, N] = 1
    g[STASH + 1, Y] = g[UP + 1, Y] = 1
    g[HAND + 0, B] = 1
    g[DISC, P] = 1
    g[SC, 0], g[SC, 2] = 2, 2  # cards left; players (SC 1: 1 only with no card left)
    assert np.array_equal(pos.g0, g)
    assert (pos.players, pos.me, pos.held, pos.bonus, pos.rolled) == (2, 0, 0, False, -1)
    assert pos.pool.tolist() == [0, 2, 2, 0, 0, 0, 0, 0]
    assert (pos.opp_hand.tolist(), pos.opp_down.tolist()) == ([0, 2, 0, 0], [0, 0, 0, 0])
    assert pos.pool.dtype == pos.opp_hand.dtype == pos.opp_down.dtype == np.int64
    assert pos.events == [
        {"event": "draw", "seat": 0, "count": 3}, {"event": "draw", "seat": 1, "count": 2},
        {"event": "reveal", "seat": 1, "card": D}, {"event": "play", "seat": 1, "card": P},
        {"event": "play", "seat": 0, "card": F}, {"event": "fetch", "seat": 1, "card": F},
        {"event": "stash", "seat": 0, "count": 1}, {"event": "stash_up", "seat": 1, "card": Y}]
    # the bonus turn's cap reaches the check through parse_position
    with pytest.raises(UserError) as e:
        parse_position(_example_data(bonus=True), deck_arrays(), 3)
    assert str(e.value) == "held: a bonus turn stops at 3 tokens, 3 are held"
    # with the Bandit Mask's card to the discard pile (rules key mask_card = discard) the
    # revealed Doggo would lie there: the history no longer leads to the position
    copies = list(SMALL_COPIES.values())
    for refuse in (lambda: parse_position(HISTORY_POSITION, deck, 3, reveal_to_hand=False),
                   lambda: check_position(HISTORY_POSITION, copies, 3, False)):
        with pytest.raises(UserError) as e:
            refuse()
        assert str(e.value) == ("history: the discard pile is [0, 1, 0, 0, 1, 0, 0, 0] after "
                                "the history, the position says [0, 0, 0, 0, 1, 0, 0, 0]")
    # my face-down card is read from my stash (all of it minus the face-up part): with the
    # Nanners in seat 2's face-down stash instead, the cards still add up but seat 1 stashed
    # one card face down in the history and has none in the position
    moved = {**HISTORY_POSITION, "seat": {"1": {}, "2": {"hand": 2, "face_up": {"yumyum": 1},
                                                         "face_down": 1}}}
    with pytest.raises(UserError) as e:
        check_position(moved, copies, 3)
    assert str(e.value) == ("history: seat 1's face-down count is 1 after the history, the "
                            "position says 0")
    with pytest.raises(UserError) as e:
        check_position({**HISTORY_POSITION, "history": {"seat": 1, "event": "draw"}}, copies, 3)
    assert str(e.value) == "history must be a list of tables: [[history]] seat = …, event = …"


def test_turn_level_answers_by_hand():
    """The exact turn-level answer beside the playouts, with the hand values of
    tests/test_trash_pandas.py (default weights): holding {trash, trees} stopping is worth 4, a
    bust 1, a new face a 3-token set worth 5 at which stopping is best, rolling 11/3; after a
    repeat a Blammo! (one card) rolls again, 11/3 − 1 = 8/3, a Nanners stops, 4 − 1 = 3; a
    Feesh fetching either from the discard pile costs its one card the same way. Five tokens
    {trash, trees, trash-tree, paw, mask} are worth 7; the sixth face then resolves all six
    (recycle adds nothing) and earns the bonus turn, worth V0 = 107/36 from nothing."""
    from analyzer.games.trash_pandas.decide import turn_level
    from analyzer.games.trash_pandas.rules import TrashPandasRules

    rules = TrashPandasRules()
    two = ["trash", "trees"]

    def after(value, word):
        return {"recommendation": word, "value": pytest.approx(value, abs=1e-12),
                "unit": "card-equivalents", "exact": True}

    assert turn_level(_position(rolled=0, held=two), rules) == after(1, "bust")
    assert turn_level(_position(rolled=3, held=two), rules) == after(5, "take")
    assert turn_level(_position(rolled=0, held=two, hand={"blammo": 1}), rules) == after(
        8 / 3, "blammo")
    assert turn_level(_position(rolled=1, held=two, hand={"nanners": 1}), rules) == after(
        3, "nanners")
    # a card gained this turn is not counted
    assert turn_level(_position(rolled=1, held=two, hand={"nanners": 1},
                                gained={"nanners": 1}), rules) == after(1, "bust")
    feesh = {"feesh": 1}
    assert turn_level(_position(rolled=0, held=two, hand=feesh, discard={"blammo": 1}),
                      rules) == after(8 / 3, "feesh-blammo")
    assert turn_level(_position(rolled=0, held=two, hand=feesh,
                                discard={"blammo": 1, "nanners": 1}),
                      rules) == after(3, "feesh-nanners")
    assert turn_level(_position(held=two), rules) == {
        "recommendation": "stop", "ev_stop": 4, "ev_roll": pytest.approx(11 / 3, abs=1e-12),
        "unit": "card-equivalents", "exact": True}
    five = ["trash", "trees", "trash-tree", "paw", "mask"]
    assert turn_level(_position(rolled=5, held=five), rules) == after(7 + 107 / 36, "take")
    # without the bonus turn (the rules are the position's, not the defaults) all six are 7
    assert turn_level(_position(rolled=5, held=five), TrashPandasRules(bonus_turn=False)) == \
        after(7, "take")
    # on a bonus turn capped at one token, the first face must be kept: trash alone, worth 2
    assert turn_level(_position(rolled=0, bonus=True), TrashPandasRules(bonus_cap=1)) == \
        after(2, "take")
    # the solver counts at most 7 of a card (the deck's copies): 8 Blammo! read as 7
    assert turn_level(_position(rolled=0, held=two, hand={"blammo": 8}), rules) == \
        turn_level(_position(rolled=0, held=two, hand={"blammo": 7}), rules)


# ---- decide's answer from planted playouts (the kernel's sums replaced) --------------------------
UNIT = "chance of winning (a shared win counts as a share)"
INTERVAL = ("Wilson score interval (valid for a mean of win shares in [0, 1]: exact 0 and 1 at "
            "the edges); changes: normal interval of the paired difference")
UNIFORM = {"name": "uniform", "self_play_games": 0, "fallback": "",
           "history": {"events": 0, "known_in_hand": {}},
           "description": "uniform: every split of the unseen cards into hands, face-down "
                          "stashes and the pile equally likely"}


def _planted_decide(shares, data=None, copies=None, belief="uniform", **changes):
    """decide on the shipped example position (three players, me seat 2, holding trash, paw,
    mask; 2 Blammo!, a Feesh and a Doggo in hand; a Nanners in the discard pile), changed by
    ``changes``, with the uniform belief and the playouts' win shares ``shares`` (one tuple per
    playout, one share per choice) planted as the kernel's sums: per choice c, columns 4c and
    4c + 1 Σ share and Σ share², 4c + 2 and 4c + 3 Σ d and Σ d² with d = share − the first
    choice's. ``data``, ``copies``: another position and deck (card name → copies)."""
    from analyzer.games.trash_pandas.decide import decide
    from analyzer.games.trash_pandas.lineup import parse_lineup
    from analyzer.games.trash_pandas.position import build_position, check_position
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.games.trash_pandas.score import deck_arrays
    from analyzer.games.trash_pandas.whole import GameSetup
    from tests.test_sums_to_statistics_contracts import PlantedAndSeen

    data = {**(data or _example_data()), **changes}
    deck = deck_arrays(TrashPandasRules().deck, copies)
    pos = build_position(check_position(data, deck.copies.tolist(), 3))
    setup = GameSetup(TrashPandasRules(), pos.players, [parse_lineup("heuristic", pos.players)],
                      deck=deck, from_setup=False)
    sums = np.zeros(4 * len(shares[0]))
    for playout in shares:
        for c, x in enumerate(playout):
            d = x - playout[0]
            sums[4 * c:4 * c + 4] += (x, x * x, d, d * d)
    spec = PlantedAndSeen(len(shares), 21, progress=False, sums=tuple(sums))
    return decide(pos, setup, spec, belief), PlantedAndSeen.job, pos, setup


def test_decide_every_field_from_planted_playouts():
    from analyzer.games.trash_pandas.decide import turn_level
    from tests.test_sums_to_statistics_contracts import Z, same_prop, wilson_by_hand

    # roll wins all 8 playouts, stop none: the paired differences are all 1 (SE 0), so the
    # interval is the one the two Wilson intervals allow: [low(8 of 8) − high(0 of 8), 1]
    out, job, pos, setup = _planted_decide([(0, 1)] * 8)
    stop, roll = out.pop("choices")
    assert (stop["choice"], roll["choice"], list(stop), list(roll)) == (
        "stop", "roll", ["choice", "p_win"], ["choice", "p_win", "vs_stop"])
    same_prop(stop["p_win"], 0, 8)
    same_prop(roll["p_win"], 8, 8)
    lo = wilson_by_hand(8, 8)[0] - wilson_by_hand(0, 8)[1]  # 0.675592 − 0.324408
    d = roll["vs_stop"]
    assert (d.estimate, d.se, d.n) == (1.0, 0.0, 8)
    assert (d.ci_low, d.ci_high) == pytest.approx((lo, 1.0), abs=1e-12)
    assert lo == pytest.approx(0.351185, abs=1e-6)
    assert out == {
        "game": "trash-pandas", "exact": False, "seed": 21, "n": 8, "unit": UNIT,
        "interval": INTERVAL, "me": 2,
        "seats": [{"seat": 1, "bot": "heuristic", "me": False},
                  {"seat": 2, "bot": "heuristic", "me": True},
                  {"seat": 3, "bot": "heuristic", "me": False}],
        "belief": UNIFORM, "recommendation": "roll", "note": "",
        "verdict": "roll: +1.0000 chance of winning over stop [+0.3512, +1.0000]",
        "turn_level": turn_level(pos, setup.rules), "playouts_per_second": 8 / 0.5,
        "stopped_by": "time-limit", "interrupted": False}
    # the job: its choices' playouts in blocks of 256 (fewer than whole games' 512); its
    # headline is the half-width of the last choice's paired difference (columns 6 and 7)
    assert (job.name, job.unit, job.block_size) == ("trash-pandas decide", "playouts", 256)
    planted = np.zeros(8)
    planted[6], planted[7] = 0 + 1 + 0 + 1, 0 + 1 + 0 + 1  # d = 0, 1, 0, 1: s² = 1/3
    assert job.headline_half_width(planted, 4) == pytest.approx(Z * math.sqrt(1 / 3 / 4))
    # its blocks go to the engine's decide kernel with the position, the main-turn mode (0),
    # the choices as (entry, face, card) rows and the line-up, deck, rules and belief
    seen = []
    setup.kernel = lambda name: lambda *a: seen.append((name, a)) or "ran"
    assert job.run_blocks("keys", "counts") == "ran"
    (name, args), = seen
    assert name == "decide_blocks" and args[:2] == ("keys", "counts")
    assert args[2] is pos.g0 and args[3] is pos.pool and args[4] is pos.opp_hand
    assert args[5] is pos.opp_down and args[6:9] == (1, 0, 25)  # me (seat 2), mode, held
    assert args[9].tolist() == [[1, 0, 0], [0, 0, 0]] and args[9].dtype == np.int64
    assert np.array_equal(args[10], setup.bots[0]) and args[11] is setup.deck.pts
    assert args[12] is setup.deck.per_card and args[13] is setup.deck.copies
    assert args[14] is setup.rules_arr and args[15] is setup.roll_tab
    assert args[16] is setup.after_tab and len(args) == 18
    # on a bonus turn (two tokens held, the cap 3) the mode is 1
    _, job, _, setup = _planted_decide([(0, 1)] * 2, bonus=True, held=["trash", "paw"])
    setup.kernel = lambda name: lambda *a: seen.append(a)
    job.run_blocks("keys", "counts")
    assert seen[-1][6:9] == (1, 1, 9)
    # stop wins every playout: stop, and the words give its margin over roll
    out = _planted_decide([(1, 0)] * 8)[0]
    assert (out["recommendation"], out["note"]) == ("stop", "")
    assert out["verdict"] == "stop: +1.0000 chance of winning over roll [+0.3512, +1.0000]"
    # a margin whose interval holds 0: d = 0, 1, 0, 1 has mean 0.5 and SE sqrt(1/12) = 0.2887,
    # shown to 2 decimals: [0.5 − 0.5658, 0.5 + 0.5658]
    out = _planted_decide([(1, 1), (0, 1), (0.5, 0.5), (0, 1)])[0]
    assert (out["recommendation"], out["note"]) == ("too close to call", "n = 4 playouts")
    assert out["verdict"] == ("too close to call at n = 4 playouts: roll leads by +0.50 chance "
                              "of winning over stop [-0.07, +1.07]")


def test_decide_after_a_rolled_face_from_planted_playouts():
    from tests.test_sums_to_statistics_contracts import same, same_prop

    # paw rolled while held: bust, Blammo! (2 in hand), a Feesh fetching the Nanners from the
    # discard pile. Bust wins all 4 playouts, Blammo! 3 (d = 0, −1, 0, 0: mean −0.25, SE 0.25,
    # interval across 0), the Feesh none (d = −1 always: clearly worse). The baseline leads
    # but Blammo! is not separated from it: too close to call, and the words name Blammo!
    out, job, _, _ = _planted_decide([(1, 1, 0), (1, 0, 0), (1, 1, 0), (1, 1, 0)], rolled="paw")
    rows = out["choices"]
    assert [r["choice"] for r in rows] == ["bust", "blammo", "feesh-nanners"]
    for r, k in zip(rows, (4, 3, 0)):
        same_prop(r["p_win"], k, 4)
    same(rows[1]["vs_bust"], [0, -1, 0, 0])
    assert "vs_bust" not in rows[0]
    assert (out["recommendation"], out["note"]) == ("too close to call", "n = 4 playouts")
    assert out["verdict"] == ("too close to call at n = 4 playouts: bust leads by +0.25 chance "
                              "of winning over blammo [-0.24, +0.74]")
    # the headline reads the last choice's difference columns (10 and 11)
    planted = np.zeros(12)
    planted[10], planted[11] = -4, 4  # d = −1 four times: SE 0
    assert job.headline_half_width(planted, 4) == 0.0
    planted[10], planted[11] = -1, 0.5  # d = −0.5, −0.5, 0, 0: s² = (0.5 − 0.25) / 3 = 1/12
    assert job.headline_half_width(planted, 4) == pytest.approx(
        1.959963984540054 * math.sqrt(1 / 12 / 4))
    # without the cards only the bust is left (the three cards back in the pile)
    out, job, _, _ = _planted_decide([(1,), (0.5,)], rolled="paw", cards_left=12,
                                     hand={"doggo": 1})
    assert [r["choice"] for r in out["choices"]] == ["bust"]
    assert (out["recommendation"], out["note"], out["verdict"]) == (
        "bust", "the only legal choice", "bust (the only legal choice)")
    # one choice: the headline is its own share's (columns 0 and 1): shares 1 and 0.5 have
    # mean 0.75, s² = 0.125, SE sqrt(0.125 / 2) = 0.25
    planted = np.array([1.5, 1.25, 0.0, 0.0])
    assert job.headline_half_width(planted, 2) == pytest.approx(1.959963984540054 * 0.25)


# ---- check_position: the shipped example read by hand, and every refusal word for word -----------
def _example_data(**changes):
    import tomllib
    from pathlib import Path

    data = tomllib.loads(Path("analyzer/data/trash_pandas_position_example.toml").read_text())
    data.update(changes)
    return data


def _with_seat(seat, **keys):
    data = _example_data()
    data["seat"] = {**data["seat"], seat: keys}
    return data


# the default deck's copies in card order (blammo doggo feesh kitteh pie nanners shiny yumyum:
# docs/rules/trash_pandas.md's deck table, analyzer/data/trash_pandas_deck.toml)
COPIES = [7, 6, 7, 6, 7, 7, 7, 6]
CARDS_LIST = "blammo, doggo, feesh, kitteh, pie, nanners, shiny, yumyum"
TOKENS_LIST = "trash, trees, trash-tree, paw, mask, recycle"


def test_the_example_position_checked_by_hand():
    from analyzer.games.trash_pandas.position import check_position

    c = check_position(_example_data(), COPIES, 3)
    # seen: Blammo! 2, Doggo 1, Feesh 1 + 1 + 2, Kitteh 1, Pie 2 + 1, Nanners 1, Shiny 1,
    # Yum Yum 2 (15 cards): 38 unseen = 9 left + hands 4 + 6 + face-down 10 + 9
    assert (c.players, c.me, c.cards_left, c.held, c.bonus, c.rolled) == (3, 1, 9, 25, False, -1)
    assert (c.hand, c.gained, c.discard) == ([2, 1, 1, 0, 0, 0, 0, 0], [0] * 8,
                                             [0, 0, 0, 1, 2, 1, 0, 2])
    assert c.stash == [[0, 0, 1, 0, 0, 0, 0, 0], [0, 0, 2, 0, 1, 0, 1, 0], [0] * 8]
    assert c.up == [[0, 0, 1, 0, 0, 0, 0, 0], [0] * 8, [0] * 8]
    assert (c.opp_hand, c.opp_down) == ([4, 0, 6, 0], [10, 0, 9, 0])
    assert c.pool == [5, 5, 3, 5, 4, 6, 6, 4] and c.events is None
    # spellings: a rolled face in capitals with spaces, card names as printed, an empty roll
    c = check_position(_example_data(rolled=" PAW ", hand={"Blammo!": 1, "MMM-Pie!": 1,
                                                           "Yum_Yum": 1, "doggo": 1}), COPIES, 3)
    assert c.rolled == 3 and c.hand == [1, 1, 0, 0, 1, 0, 0, 1]
    assert check_position(_example_data(rolled=""), COPIES, 3).rolled == -1
    # a bonus turn below its cap; my face-up cards within my stash; a gained card in hand
    c = check_position(_example_data(bonus=True, held=["trash", "paw"],
                                     gained={"feesh": 1}), COPIES, 3)
    assert (c.bonus, c.held, c.gained) == (True, 9, [0, 0, 1, 0, 0, 0, 0, 0])
    c = check_position(_with_seat("2", stash={"feesh": 2, "pie": 1, "shiny": 1},
                                  face_up={"feesh": 2}), COPIES, 3)
    assert c.up[1] == [0, 0, 2, 0, 0, 0, 0, 0]
    # a zero count, a card written twice (added up), four players (the fourth seat empty), no
    # seat tables at all (then every unseen card is in the pile: 53 − 4 in hand − 6 discarded)
    c = check_position(_example_data(hand={"blammo": 1, "doggo": 0, "pie": 1, "MMM-Pie!": 1,
                                           "feesh": 1}), COPIES, 3)
    assert c.hand == [1, 0, 1, 0, 2, 0, 0, 0]
    c = check_position(_example_data(players=4), COPIES, 3)
    assert (c.players, c.opp_hand, c.opp_down) == (4, [4, 0, 6, 0], [10, 0, 9, 0])
    c = check_position({k: v for k, v in _example_data(cards_left=43).items() if k != "seat"},
                       COPIES, 3)
    assert (c.cards_left, c.stash, c.opp_hand) == (43, [[0] * 8] * 3, [0] * 4)
    # no held tokens at all; 5 held outside a bonus turn
    assert check_position(_example_data(held=[]), COPIES, 3).held == 0
    assert check_position(_example_data(held=["trash", "trees", "trash-tree", "paw", "mask"]),
                          COPIES, 3).held == 31


@pytest.mark.parametrize("data, message", [
    (_example_data(colour=1, size=2), "position: unknown key(s) colour, size"),
    ({k: v for k, v in _example_data().items() if k != "players"},
     "position: 'players' is required"),
    ({k: v for k, v in _example_data().items() if k != "me"}, "position: 'me' is required"),
    ({k: v for k, v in _example_data().items() if k != "cards_left"},
     "position: 'cards_left' is required"),
    (_example_data(players=5), "position: 'players' = 5 is out of range"),
    (_example_data(players=1), "position: 'players' = 1 is out of range"),
    (_example_data(players="3"), "position: 'players' must be an integer"),
    (_example_data(players=True), "position: 'players' must be an integer"),
    (_example_data(me=4), "position: 'me' = 4: seats are 1..3"),
    (_example_data(cards_left=-1), "position: 'cards_left' = -1 is out of range"),
    (_example_data(held="trash"), "position: 'held' must be a list of token names"),
    (_example_data(held=["trash", 2]), "position: 'held' must be a list of token names"),
    (_example_data(held=["dice"]), f"held: unknown token 'dice' (tokens: {TOKENS_LIST})"),
    (_example_data(held=["trash", "trees", "trash-tree", "paw", "mask", "recycle"]),
     "held: all six tokens resolve at once; ask about the bonus turn instead"),
    (_example_data(bonus=True), "held: a bonus turn stops at 3 tokens, 3 are held"),
    (_example_data(bonus="no"), "bonus must be true or false (without quotes), got 'no'"),
    (_example_data(rolled="dice"), "rolled: unknown token 'dice'"),
    (_example_data(rolled=3), "rolled must be a string in quotes, got 3"),
    (_example_data(hand=[2]), "hand must be a table of card = count"),
    (_example_data(hand={"joker": 1}), f"hand: unknown card 'joker' (cards: {CARDS_LIST})"),
    (_example_data(hand={"blammo": -1}), "hand.blammo must be a non-negative integer, got -1"),
    (_example_data(hand={"blammo": True}), "hand.blammo must be a non-negative integer, got True"),
    (_example_data(hand={"blammo": 1.0}), "hand.blammo must be a non-negative integer, got 1.0"),
    (_example_data(gained={"feesh": 2}), "gained: more cards of a type than my hand holds"),
    (_example_data(gained={"joker": 1}), f"gained: unknown card 'joker' (cards: {CARDS_LIST})"),
    (_with_seat("2", stash={"blammo": -1}), "seat.2.stash.blammo must be a non-negative "
                                            "integer, got -1"),
    (_with_seat("2", face_up={"joker": 1}),
     f"seat.2.face_up: unknown card 'joker' (cards: {CARDS_LIST})"),
    (_example_data(discard={"pie": "2"}), "discard.pie must be a non-negative integer, got '2'"),
    (_example_data(seat=[1]), "seat must be tables [seat.1], [seat.2], ..."),
    (_with_seat("4", hand=1), "seat.4: seats are numbered 1..3"),
    (_with_seat("01", hand=1), "seat.01: seats are numbered 1..3"),
    (_with_seat("x", hand=1), "seat.x: seats are numbered 1..3"),
    (_with_seat("0", hand=1), "seat.0: seats are numbered 1..3"),
    (_example_data(seat={"1": 4}), "seat.1 must be a table, got 4"),
    (_with_seat("2", stash={"feesh": 2, "pie": 1, "shiny": 1}, face_up={"pie": 2}),
     "seat.2: a face-up card that is not in my stash"),
    (_with_seat("2", stash={"feesh": 2, "pie": 1, "shiny": 1}, hand=3),
     "seat.2: unknown key(s) hand"),
    (_with_seat("1", hand=4, face_up={"feesh": 1}, face_down=10, stash={}, aim=1),
     "seat.1: unknown key(s) aim, stash"),
    (_with_seat("1", hand=-1, face_up={"feesh": 1}, face_down=10),
     "seat.1: 'hand' = -1 is out of range"),
    (_with_seat("1", hand=4, face_up={"feesh": 1}, face_down="10"),
     "seat.1: 'face_down' must be an integer"),
    (_with_seat("1", hand=4, face_up={"feesh": 1, "kitteh": 6}, face_down=10),
     "Kitteh: 7 seen in the position but the deck holds 6"),
    (_with_seat("1", hand=4, face_up={"feesh": 5, "kitteh": 6}, face_down=10),
     "Feesh: 8 seen in the position but the deck holds 7"),
    (_example_data(cards_left=10), "cards do not add up: 38 unseen cards, but cards_left 10 + "
                                   "opponents' hands and face-down stashes 29 = 39"),
    (_with_seat("3", hand=6), "cards do not add up: 38 unseen cards, but cards_left 9 + "
                              "opponents' hands and face-down stashes 20 = 29"),
    (_with_seat("1", face_up={"feesh": 1}, face_down=10), "cards do not add up: 38 unseen "
     "cards, but cards_left 9 + opponents' hands and face-down stashes 25 = 34"),
])
def test_impossible_positions_word_for_word(data, message):
    from analyzer.games.trash_pandas.position import check_position

    with pytest.raises(UserError) as e:
        check_position(data, COPIES, 3)
    assert str(e.value) == message


def test_cards_the_history_proves_in_hands_under_each_belief():
    """with_history on the history position above: under the uniform belief a face-down stash
    may hold any type, so it lowers every bound; under the bots' stash rule (belief "rules":
    heuristic opponents stash only scoring cards, and Doggo scores nothing) a stashed card
    cannot be the revealed Doggo. With the Bandit Mask's card to the discard pile the revealed
    Doggo never reached the hand."""
    from analyzer.games.trash_pandas.belief import belief_for
    from analyzer.games.trash_pandas.decide import with_history
    from analyzer.games.trash_pandas.lineup import parse_lineup
    from analyzer.games.trash_pandas.position import parse_position
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.games.trash_pandas.score import deck_arrays
    from analyzer.games.trash_pandas.whole import GameSetup
    from kernels.trash_pandas.layout import HAND

    deck = deck_arrays(TrashPandasRules().deck, SMALL_COPIES)

    def setup(**rules):
        return GameSetup(TrashPandasRules(**rules), 2, [parse_lineup("heuristic", 2)],
                         deck=deck, from_setup=False)

    s = setup()
    pos = parse_position(HISTORY_POSITION, deck, 3)
    before = (pos.g0.copy(), pos.pool.copy(), pos.opp_hand.copy())
    out, history = with_history(pos, s, belief_for("uniform", s))
    # seat 2 holds the Doggo it revealed and the Feesh it fetched: both move from the unseen
    # cards (2 Doggo, 2 Feesh) into its hand; its 2 unseen hand cards are then known
    assert history == {"events": 8, "known_in_hand": {"2": {"doggo": 1, "feesh": 1}}}
    assert out.g0[HAND + 1].tolist() == [0, 1, 1, 0, 0, 0, 0, 0]
    assert out.g0[HAND + 0].tolist() == pos.g0[HAND + 0].tolist() == [1, 0, 0, 0, 0, 0, 0, 0]
    assert (out.pool.tolist(), out.opp_hand.tolist()) == ([0, 1, 1, 0, 0, 0, 0, 0],
                                                         [0, 0, 0, 0])
    assert np.array_equal(np.delete(out.g0, HAND + 1, axis=0), np.delete(pos.g0, HAND + 1, 0))
    assert all(np.array_equal(a, b) for a, b in zip(before, (pos.g0, pos.pool, pos.opp_hand)))
    assert (out.players, out.me, out.events) == (2, 0, pos.events)
    # the Mask's card to the discard pile: only the Feesh is proven
    out, history = with_history(pos, setup(mask_card="discard"), belief_for("uniform", s))
    assert history["known_in_hand"] == {"2": {"feesh": 1}}
    assert out.pool.tolist() == [0, 2, 1, 0, 0, 0, 0, 0] and out.opp_hand.tolist()[1] == 1
    # seat 2 then stashes one card face down (hand 1, face-down 1)
    stashed = {**HISTORY_POSITION,
               "seat": {"1": {"stash": {"nanners": 1}},
                        "2": {"hand": 1, "face_up": {"yumyum": 1}, "face_down": 1}},
               "history": HISTORY_POSITION["history"] + [{"seat": 2, "event": "stash"}]}
    pos = parse_position(stashed, deck, 3)
    out, history = with_history(pos, s, belief_for("uniform", s))
    assert history == {"events": 9, "known_in_hand": {}}
    assert np.array_equal(out.g0, pos.g0) and out.opp_hand.tolist() == [0, 1, 0, 0]
    out, history = with_history(pos, s, belief_for("rules", s))
    assert history == {"events": 9, "known_in_hand": {"2": {"doggo": 1}}}
    assert (out.pool.tolist(), out.opp_hand.tolist()) == ([0, 1, 2, 0, 0, 0, 0, 0],
                                                         [0, 0, 0, 0])
    # no history: the position as it was
    plain = parse_position({k: v for k, v in HISTORY_POSITION.items() if k != "history"},
                           deck, 3)
    assert with_history(plain, s, belief_for("rules", s)) == (
        plain, {"events": 0, "known_in_hand": {}})


def test_a_belief_the_position_cannot_meet_falls_back_to_uniform_with_the_reason():
    from analyzer.games.trash_pandas.belief import belief_for
    from analyzer.games.trash_pandas.decide import choose_belief
    from analyzer.games.trash_pandas.lineup import parse_lineup
    from analyzer.games.trash_pandas.position import parse_position
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from analyzer.games.trash_pandas.score import deck_arrays
    from analyzer.games.trash_pandas.whole import GameSetup
    from kernels.trash_pandas.layout import SC

    # a deck of 2 Doggo only: seat 2 holds one in hand and one face down, but a heuristic bot
    # stashes only scoring cards (Doggo scores nothing)
    deck = deck_arrays(TrashPandasRules().deck, {**dict.fromkeys(SMALL_COPIES, 0), "doggo": 2})
    setup = GameSetup(TrashPandasRules(), 2, [parse_lineup("heuristic", 2)], deck=deck,
                      from_setup=False)
    pos = parse_position({"players": 2, "me": 1, "cards_left": 0,
                          "seat": {"2": {"hand": 1, "face_down": 1}}}, deck, 3)
    # (no card left: the pile-empty flag is set beside the cards left and the players)
    assert pos.g0[SC].tolist() == [0, 1, 2, 0, 0, 0, 0, 0]
    belief, why = choose_belief(pos, setup, "rules")
    assert belief.to_json() == belief_for("uniform", setup).to_json()
    assert belief.name == "uniform" and belief.groups == [0, 0]
    assert why == ("the face-down stashes hold more cards than the unseen cards of the types "
                   "the opponents' bots stash: the bots could not have reached this position, "
                   "so the unseen cards are dealt uniformly")
    # a random bot stashes anything: the rule is met
    setup = GameSetup(TrashPandasRules(), 2, [parse_lineup("heuristic,random", 2)], deck=deck,
                      from_setup=False)
    belief, why = choose_belief(pos, setup, "rules")
    assert (belief.name, why) == ("rules", "")


def test_decide_reads_the_leader_by_its_share_and_the_history_under_its_belief():
    from tests.test_sums_to_statistics_contracts import wilson_by_hand

    # 400 playouts: bust 0.5, Blammo! 0.6, the Feesh fetch 0.55 each time (SE 0: the
    # intervals the Wilson intervals allow). Blammo! leads by 0.1, separated from 0:
    # [low(240 of 400) − high(200 of 400), high(240) − low(200)]
    out = _planted_decide([(0.5, 0.6, 0.55)] * 400, rolled="paw")[0]
    lo = wilson_by_hand(240, 400)[0] - wilson_by_hand(200, 400)[1]
    hi = wilson_by_hand(240, 400)[1] - wilson_by_hand(200, 400)[0]
    assert 0 < lo < 0.01  # 0.5516 − 0.5490: just clear of 0
    assert (out["recommendation"], out["note"]) == ("blammo", "")
    assert out["verdict"] == (f"blammo: +0.1000 chance of winning over bust [{lo:+.4f}, "
                              f"{hi:+.4f}]")
    # the history position above (two players, the small deck) under the uniform belief
    out = _planted_decide([(0, 1)] * 2, data=HISTORY_POSITION, copies=SMALL_COPIES)[0]
    assert out["belief"]["history"] == {"events": 8,
                                        "known_in_hand": {"2": {"doggo": 1, "feesh": 1}}}
    assert out["me"] == 1 and [s["seat"] for s in out["seats"]] == [1, 2]
    # seat 2 stashes 2 cards face down, then fetches the Feesh I played: under the bots' stash
    # rule (scoring cards only; here 2 Doggo and 2 Feesh unseen) the 2 Feesh were enough for
    # its face-down stash, but once the history proves one in its hand only 1 is left: the
    # belief falls back to uniform, and the history is read again under it
    data = {"players": 2, "me": 1, "cards_left": 0, "hand": {"blammo": 1},
            "seat": {"1": {"stash": {"nanners": 1}}, "2": {"hand": 2, "face_down": 2}},
            "history": [{"seat": 1, "event": "draw", "count": 3},
                        {"seat": 2, "event": "draw", "count": 3},
                        {"seat": 2, "event": "stash", "count": 2},
                        {"seat": 1, "event": "play", "card": "feesh"},
                        {"seat": 2, "event": "fetch", "card": "feesh"},
                        {"seat": 1, "event": "stash", "count": 1}]}
    copies = {**dict.fromkeys(SMALL_COPIES, 0), "blammo": 1, "doggo": 2, "feesh": 2,
              "nanners": 1}
    out, job, given, _ = _planted_decide([(0, 1)] * 2, data=data, copies=copies,
                                         belief="rules")
    assert {k: v for k, v in out["belief"].items() if k != "fallback"} == {
        **{k: v for k, v in UNIFORM.items() if k != "fallback"},
        "history": {"events": 6, "known_in_hand": {"2": {"feesh": 1}}}}
    assert out["belief"]["fallback"] == (
        "the cards the public history proves in the opponents' hands leave fewer unseen cards "
        "of the types their bots stash than the face-down stashes hold: the bots could not "
        "have played this history, so the unseen cards are dealt uniformly")
    # the history is read once, from the position given: unseen are 2 Doggo and 2 Feesh (the
    # one I played and seat 2 fetched, and the other); the fetched Feesh moves from the unseen
    # cards into seat 2's hand once (a second reading of the read position moved it twice)
    import inspect

    handed = inspect.getclosurevars(job.run_blocks).nonlocals["pos"]
    fe = 2  # Feesh's column (Blammo!, Doggo, Feesh, …)
    assert given.pool[fe] == 2 and handed.pool[fe] == 1
    assert handed.g0[1, fe] == given.g0[1, fe] + 1 and handed.opp_hand[1] == given.opp_hand[1] - 1
    # without the fetch the rule is met: the stash-rule belief plays, nothing proven
    data["history"] = data["history"][:3] + [{"seat": 1, "event": "stash", "count": 2}]
    data["seat"] = {"1": {"stash": {"nanners": 1, "doggo": 1}},
                    "2": {"hand": 1, "face_down": 2}}
    out = _planted_decide([(0, 1)] * 2, data=data, copies=copies, belief="rules")[0]
    assert (out["belief"]["name"], out["belief"]["fallback"]) == ("rules", "")


def test_decide_words_name_the_closest_alternative_when_the_baseline_leads():
    from analyzer.games.trash_pandas.position import build_position, check_position
    from kernels.trash_pandas.layout import GAIN

    # bust leads (3 of 4); Blammo! trails by d = −1, 0, 0, −0.2 (mean −0.3, SE 0.238) and the
    # Feesh fetch by d = 0, 0, 0, −0.4 (mean −0.1, SE 0.1): neither is separated from bust,
    # and the words give bust's margin over the closer one, the Feesh fetch:
    # 0.1 ± 1.96 · 0.1 = [−0.096, +0.296], to the SE's 2 decimals
    out = _planted_decide([(1, 0, 1), (1, 1, 1), (0, 0, 0), (1, 0.8, 0.6)], rolled="paw")[0]
    assert (out["recommendation"], out["note"]) == ("too close to call", "n = 4 playouts")
    assert out["verdict"] == ("too close to call at n = 4 playouts: bust leads by +0.10 chance "
                              "of winning over feesh-nanners [-0.10, +0.30]")
    # my gained card sits in my own row (seat 2 here)
    pos = build_position(check_position(_example_data(gained={"feesh": 1}), COPIES, 3))
    assert pos.g0[GAIN + 1].tolist() == [0, 0, 1, 0, 0, 0, 0, 0]
    assert not np.delete(pos.g0[GAIN:GAIN + 4], 1, axis=0).any()
    assert pos.usable(2) == 0 and pos.usable(0) == 2  # the Feesh gained, 2 Blammo! usable


def test_my_own_moves_in_a_history_by_hand():
    """The history position above, then I stash my Blammo! face up (my stash: the Nanners face
    down, the Blammo! face up: one face-down card, as replayed), or I fetch the Pie from the
    discard pile (it is in my hand, known to me: not a card proven in an opponent's hand)."""
    from analyzer.games.trash_pandas.position import check_position

    copies = list(SMALL_COPIES.values())
    up = {**HISTORY_POSITION, "hand": {},
          "seat": {**HISTORY_POSITION["seat"],
                   "1": {"stash": {"nanners": 1, "blammo": 1}, "face_up": {"blammo": 1}}},
          "history": HISTORY_POSITION["history"] + [
              {"seat": 1, "event": "stash_up", "card": "blammo"}]}
    c = check_position(up, copies, 3)
    assert (c.hand, c.stash[0], c.up[0]) == ([0] * 8, [1, 0, 0, 0, 0, 1, 0, 0],
                                             [1, 0, 0, 0, 0, 0, 0, 0])
    fetched = {**HISTORY_POSITION, "hand": {"blammo": 1, "pie": 1}, "discard": {},
               "history": HISTORY_POSITION["history"] + [
                   {"seat": 1, "event": "fetch", "card": "pie"}]}
    c = check_position(fetched, copies, 3)
    assert (c.hand, c.discard, c.pool) == ([1, 0, 0, 0, 1, 0, 0, 0], [0] * 8,
                                           [0, 2, 2, 0, 0, 0, 0, 0])
