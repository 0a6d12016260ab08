"""The `decide` commands of Trash Pandas, Go-Stop and Canasta refuse a position that cannot happen
before NumPy (let alone Numba) is loaded (issue 16: a query's parsing and validation path answers
within 1.2x of `import numba`, and importing NumPy is most of that). Each case is a valid position
with one mistake, run in a fresh interpreter: exit code 2, one line naming the problem, and
neither numpy nor numba imported."""
from __future__ import annotations

import tomllib

import pytest

from tests.module_probe import run_reporting_modules

TRASH_PANDAS = """players = 3
me = 2
cards_left = 9
held = ["trash", "paw", "mask"]

[hand]
blammo = 2
feesh = 1
doggo = 1

[discard]
pie = 2
yumyum = 2
nanners = 1
kitteh = 1

[seat.1]
hand = 4
face_up = { feesh = 1 }
face_down = 10

[seat.2]
stash = { feesh = 2, pie = 1, shiny = 1 }
face_up = {}

[seat.3]
hand = 6
face_down = 9
"""

GOSTOP = """[position]
players = 2
me = 1
hand = "07R 10R 11J1 09A"
layout = "04J1 08J1 12D 07J1"
piles = ["01B 03B 08B 01R 02R 03R 02A 04A 01J1 01J2 X2 X3 05J1 05J2 06J1",
         "12B 11B 05A 06A 07A 12A 10A 06R 09R 02J1 02J2 03J1 03J2"]
go_counts = [0, 0]
stock = 9
"""

CANASTA = """phase = "draw"
stock = 148

[me]
score = 5200
hand = ["9H", "9D", "KS", "KH", "4C", "6D", "AS", "JS", "8C", "TD", "3S", "5H"]
melds = [["QS", "QH", "QD", "QC", "2C"]]
red_threes = 1
kitty = "unpicked"

[[opponents]]
score = 3100
hand_size = 11
melds = [["AS", "AH", "AD"], ["8S", "8H", "8D", "JK"]]
red_threes = 0
kitty = "unpicked"

[pile]
cards = ["5C", "JD", "4S", "KD", "6H", "9S"]
frozen = false
"""

GAMES = {  # game: (argv before the position file, a valid position)
    "trash-pandas": (["trash-pandas", "decide"], TRASH_PANDAS),
    "gostop": (["gostop", "decide"], GOSTOP),
    "canasta": (["canasta", "decide"], CANASTA),
}

CASES = [  # game, (text replaced, replacement), what the one-line message must say
    ("trash-pandas", ("blammo = 2", "blammo = 40"),
     "Blammo!: 40 seen in the position but the deck holds 7"),
    ("trash-pandas", ("cards_left = 9", "cards_left = 10"), "cards do not add up"),
    ("trash-pandas", ('"paw", "mask"]', '"paw", "paw"]'), "held: token 'paw' listed twice"),
    ("trash-pandas", ("face_up = {}", "face_up = { yumyum = 1 }"),
     "seat.2: a face-up card that is not in my stash"),
    ("gostop", ('"12B 11B', '"01B 11B'), "card 01B appears twice"),
    ("gostop", ("stock = 9", "stock = 8"), "stock = 8 does not match the position (it must be 9)"),
    ("gostop", ('layout = "04J1 08J1', 'layout = "04J1 04J2 04R 08J1'),
     "layout holds 3 single cards of month 4"),
    ("gostop", ("go_counts = [0, 0]", "go_counts = [1, 0]\nlast_go = [40, 0]"),
     "seat 1 is not at a go/stop decision: score 7 does not exceed the score of the last go"),
    ("canasta", ('melds = [["QS", "QH", "QD", "QC", "2C"]]', 'melds = [["QS", "QH"]]'),
     "me: meld QS QH is not legal"),
    ("canasta", ("stock = 148", "stock = 100"), "the position does not add up"),
    ("canasta", ('hand = ["9H", "9D", "KS"', 'hand = ["KS", "KS", "KS", "KS", "9H", "9D", "KS"'),
     "card KS appears 5 times but 2 players' decks hold only 4"),
]


def test_the_base_positions_pass_the_checks():
    """Each case below breaks a position that is otherwise fine."""
    from analyzer.games.canasta.position import check_position as canasta_check
    from analyzer.games.canasta.rules import CanastaRules
    from analyzer.games.gostop.position import check_position as gostop_check
    from analyzer.games.gostop.rules import GoStopRules
    from analyzer.games.trash_pandas.position import check_position as trash_pandas_check
    from analyzer.games.trash_pandas.score import WHOLE_CARDS, whole_deck

    deck = whole_deck()
    trash_pandas_check(tomllib.loads(TRASH_PANDAS), [deck[k].copies for k in WHOLE_CARDS], 3)
    gostop_check(tomllib.loads(GOSTOP)["position"], GoStopRules())
    canasta_check(tomllib.loads(CANASTA), CanastaRules())


@pytest.mark.parametrize("game, change, message", CASES,
                         ids=[f"{g}-{m[:24]}" for g, _, m in CASES])
def test_an_impossible_position_is_refused_without_numpy(game, change, message, tmp_path):
    argv, text = GAMES[game]
    assert text.count(change[0]) == 1
    bad = tmp_path / "impossible.toml"
    bad.write_text(text.replace(*change))
    lines, err = run_reporting_modules([*argv, str(bad.resolve())], ("numpy", "numba"))
    assert lines[-1] == "2 False False", err  # exit code 2; numpy, numba not imported
    assert len(lines) == 2 and lines[0].startswith("pushluck: error: "), err
    assert message in lines[0], err
