"""`trash-pandas decide` offers the Feesh saves after a rolled repeat (issue 34: the rulebook's
own use of Feesh, `feesh_timing = any`), each with its chance of winning and interval, on
end-game positions whose values are worked out by hand from docs/rules/trash-pandas.md.

Test deck (every card is in the position, so nothing is hidden and no belief is involved):
Feesh 5/3/1, Nanners 4/2/1, Yum Yum 4/2/1, Blammo! 1 point a card, the other types absent. A
tied group for a place scores one point less; equal points go to most types, then most cards,
then the win is shared (1/2 each). The pile is empty, so the game ends after my turn.
"""
import json

import pytest

from analyzer.cli.main import main as pushluck

COPIES = {"blammo": 0, "doggo": 0, "feesh": 0, "kitteh": 0, "pie": 0, "nanners": 0,
          "shiny": 0, "yumyum": 0}
POINTS = {"feesh": [5, 3, 1], "nanners": [4, 2, 1], "yumyum": [4, 2, 1]}


def deck_file(tmp_path, **copies) -> str:
    text = ""
    for card in COPIES:
        text += f"[cards.{card}]\ncopies = {copies.get(card, 0)}\n"
        text += "per_card = 1\n" if card == "blammo" else \
            f"points = {POINTS.get(card, [0, 0, 0])}\n"
    path = tmp_path / "deck.toml"
    path.write_text(text)
    return str(path)


# Main turn, I (seat 1) hold trees and rolled trees again: a repeat. My hand: a Feesh and a Yum
# Yum; my stash one Feesh; seat 2 one Feesh face up and nothing in hand; the discard pile: one
# Nanners.
#   bust: the tokens go back, the consolation draw finds an empty pile, no card changes place:
#     Feesh 1 against 1, tied for first, 4 points each, one type and one card each: shared, 1/2.
#   feesh-nanners: the Feesh fetches the Nanners, spent at once: I stop on {trees} (seat 2 has
#     no Yum Yum to force a roll). Trees stashes the Yum Yum: Feesh tied (4) plus Yum Yum alone
#     (4) = 8 against 4: a win, 1.
NANNERS_SAVE = """
players = 2
me = 1
cards_left = 0
held = ["trees"]
rolled = "trees"
[hand]
feesh = 1
yumyum = 1
[discard]
nanners = 1
[seat.1]
stash = { feesh = 1 }
[seat.2]
hand = 0
face_up = { feesh = 1 }
face_down = 0
"""

# A bonus turn (cap 3) holding {trees, paw}; I rolled paw again: a repeat. My hand: a Feesh and
# a Yum Yum; my stash a Blammo! (1 point); seat 2 a Nanners face up (4 points), an empty hand;
# the discard pile: a Blammo!.
#   bust: 1 against 4, a loss: 0.
#   feesh-blammo: the Feesh fetches the Blammo!, spent: roll again. A new face (4 of 6) is the
#     third token, the cap: trees stashes the Yum Yum, 1 + 4 = 5 against 4, a win (paw finds no
#     hand card to steal, trash/mask/trash-tree draw from an empty pile, recycle adds one of
#     those). A repeat (2 of 6) busts: the Feesh is spent, so no save is left. P(win) = 2/3.
BLAMMO_SAVE = """
players = 2
me = 1
cards_left = 0
held = ["trees", "paw"]
bonus = true
rolled = "paw"
[hand]
feesh = 1
yumyum = 1
[discard]
blammo = 1
[seat.1]
stash = { blammo = 1 }
[seat.2]
hand = 0
face_up = { nanners = 1 }
face_down = 0
"""


def decide_json(tmp_path, capsys, text, deck, *extra):
    pos = tmp_path / "pos.toml"
    pos.write_text(text)
    try:
        pushluck(["trash-pandas", "decide", str(pos), "--seed", "3", "--no-progress", "--json",
                  "--set", "deck=" + deck, *extra])
    except SystemExit as exc:  # typer's standalone handling may exit 0
        assert exc.code in (0, None)
    return json.loads(capsys.readouterr().out)


def test_a_feesh_fetching_the_discarded_nanners_saves_the_win(tmp_path, capsys):
    out = decide_json(tmp_path, capsys, NANNERS_SAVE,
                      deck_file(tmp_path, feesh=3, nanners=1, yumyum=1), "-n", "500")
    rows = {r["choice"]: r for r in out["choices"]}
    assert list(rows) == ["bust", "feesh-nanners"]  # no Blammo! in the discard pile
    assert rows["bust"]["p_win"]["estimate"] == 0.5
    save = rows["feesh-nanners"]
    assert save["p_win"]["estimate"] == 1.0 and save["p_win"]["ci_high"] == 1.0
    assert save["p_win"]["ci_low"] > 0.99  # Wilson at 500 of 500: 1 − 3.84/503.84 ≈ 0.9924
    d = save["vs_bust"]
    assert d["estimate"] == 0.5 and d["ci_low"] > 0
    assert out["recommendation"] == "feesh-nanners"
    # the turn solver (card-equivalents): stopping on {trees} stashes 2 cards (value 2) less the
    # Feesh spent (1) = 1, more than the bust's consolation draw (1)? equal: 1 = 1, so it keeps
    # the bust; the fetch must not be preferred on a tie
    assert out["turn_level"]["recommendation"] == "bust"


def test_a_feesh_fetching_the_discarded_blammo_rolls_again(tmp_path, capsys):
    out = decide_json(tmp_path, capsys, BLAMMO_SAVE,
                      deck_file(tmp_path, blammo=2, feesh=1, nanners=1, yumyum=1), "-n", "3000")
    rows = {r["choice"]: r for r in out["choices"]}
    assert list(rows) == ["bust", "feesh-blammo"]
    assert rows["bust"]["p_win"]["estimate"] == 0.0
    p = rows["feesh-blammo"]["p_win"]
    assert abs(p["estimate"] - 2 / 3) <= 4 * (2 / 9 / 3000) ** 0.5  # Bernoulli SE at 2/3
    assert rows["feesh-blammo"]["vs_bust"]["ci_low"] > 0
    assert out["recommendation"] == "feesh-blammo"
    # turn solver: rolling again from {trees, paw} in a bonus turn (cap 3) is worth more than
    # the Feesh card it costs against a bust's single consolation card
    assert out["turn_level"]["recommendation"] == "feesh-blammo"


@pytest.mark.parametrize("change, why", [
    (["--set", "feesh_timing=resolve"], "Feesh waits for the resolve step"),
    ([], "the Feesh was gained this turn"),
])
def test_no_feesh_save_when_the_rules_or_the_lock_forbid_it(tmp_path, capsys, change, why):
    text = NANNERS_SAVE if change else NANNERS_SAVE.replace("[discard]",
                                                            "[gained]\nfeesh = 1\n[discard]")
    out = decide_json(tmp_path, capsys, text,
                      deck_file(tmp_path, feesh=3, nanners=1, yumyum=1), "-n", "64", *change)
    assert [r["choice"] for r in out["choices"]] == ["bust"], why
    assert out["recommendation"] == "bust"


def test_the_text_lines_up_every_choice_with_the_longest_name(tmp_path, capsys):
    pos = tmp_path / "pos.toml"
    pos.write_text(BLAMMO_SAVE)
    try:
        pushluck(["trash-pandas", "decide", str(pos), "--seed", "3", "--no-progress", "-n", "64",
                  "--set", "deck=" + deck_file(tmp_path, blammo=2, feesh=1, nanners=1,
                                               yumyum=1)])
    except SystemExit as exc:
        assert exc.code in (0, None)
    import re

    lines = [x for x in capsys.readouterr().out.splitlines() if re.search(r"P\(win\) = \d", x)]
    assert [x.split()[0] for x in lines] == ["bust", "feesh-blammo"]
    assert len({x.index("P(win)") for x in lines}) == 1
