"""The report part ``ten.removals``: whole-game figures at 2 and 3 players under hypothetical
lists of the rulebook's marked cards (which are not public), against the whole deck.

Deck by hand (docs/rules/ten.md): per colour three copies of each number 1–6 and one of 7–9
(21 × 4 = 84), 2 colour wilds per colour (8), number wilds 1–9 (9), 27 currency cards, 1 full
wild: 129 cards."""
from __future__ import annotations

import pytest

from analyzer.errors import UserError
from analyzer.games.ten import removals as R


def _deck(players: int, key: str):
    from analyzer.games.ten.rules import TenRules, deck_counts, load_deck

    sc = next(s for s in R.SCENARIOS if s.key == key)
    return deck_counts(TenRules().turn_rules(), R.scenario_deck(load_deck(), sc), players)


@pytest.mark.parametrize("players, key, size, r3, r7, dollars1, wilds", [
    (3, "whole", 129, 3, 1, 6, 2),
    (3, "numbers", 105, 2, 1, 6, 2),  # one copy of each 1–6 in 4 colours: 24 cards
    (2, "numbers", 81, 1, 1, 6, 2),  # and a second copy: 48
    (3, "currency", 120, 3, 1, 5, 1),  # $1-$5 once and one wild per colour: 9
    (2, "currency", 111, 3, 1, 4, 0),  # twice: 18
    (4, "numbers", 129, 3, 1, 6, 2),  # 4 players: nothing leaves
])
def test_the_hypothetical_lists_remove_exactly_their_cards(players, key, size, r3, r7,
                                                           dollars1, wilds):
    deck = _deck(players, key)
    assert sum(deck.values()) == size
    assert (deck["r3"], deck["g6"], deck["o7"], deck["$1"], deck["b#"]) == \
        (r3, r3, r7, dollars1, wilds)


def test_a_change_is_the_difference_of_two_independent_estimates():
    from analyzer.stats import Statistic

    x = Statistic(0.62, 0.03, 0.0, 1.0, 400)
    base = Statistic(0.50, 0.04, 0.0, 1.0, 500)
    d = R.difference(x, base)
    assert d.estimate == pytest.approx(0.12) and d.se == pytest.approx(0.05)  # √(.03² + .04²)
    assert (d.ci_low, d.ci_high) == pytest.approx((0.12 - 1.959964 * 0.05,
                                                    0.12 + 1.959964 * 0.05))
    assert d.n == 400


def test_the_part_tabulates_every_list_and_fewer_cards_mean_shorter_games():
    out = R.removals_part({"games": 400, "players": [3], "bot": "threshold"}, {}, 11)
    rows = out.meta["removals"]
    assert [r["scenario"] for r in rows] == [s.short for s in R.SCENARIOS]
    assert [r["cards"] for r in rows] == [129, 105, 120]
    assert rows[0]["d_seat"] is None
    # 24 fewer cards in the pile: fewer turns, whatever the luck (33 turns against about 25)
    d = rows[1]["d_length"]
    assert d["ci_high"] < 0 and d["estimate"] == pytest.approx(
        rows[1]["length"]["estimate"] - rows[0]["length"]["estimate"])
    seeds = [b["seed"] for b in out.meta["balance"]]
    assert seeds == [11, 12, 13]  # every group on its own seed: independent runs
    assert "How much the unknown removal lists matter" in out.summary
    assert "HYPOTHETICAL" in out.summary or "hypothetical" in out.summary
    assert sum("hypothetical list" in f["text"] for f in out.meta["findings"]) == 2


@pytest.mark.parametrize("params, words", [
    ({"players": [4]}, "only with 2 or 3 players"),
    ({"players": [3], "bot": "psychic"}, "psychic"),
])
def test_bad_settings_are_refused_in_words(params, words):
    with pytest.raises(UserError, match=words):
        R.removals_settings(params, {})
