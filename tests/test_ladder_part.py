"""The ladder as a report part (analyzer/ladder_part.py) on a made-up game whose answer is known by
hand: three bots of strengths 4 : 2 : 1 (Luce's model, so each step is 400·log10 2 = 120.4 Elo)
and seat weights 2 : 1 : 1 (seat 1 wins 2/4 = 50% of the games between equal bots). Deal t
draws one uniform number u, and in every line-up the winner is the seat where u falls in the
line-up's cumulative win chances: common random numbers, as a real game's job plays them."""
from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.ladder import LadderGame, LadderJob
from analyzer.ladder_part import LadderSettings, ladder_report, part_settings

SEAT_WEIGHT = (2.0, 1.0, 1.0)
STEP = 400 * math.log10(2)  # Elo between strengths in the ratio 2 : 1


def fake_game(strength: dict) -> LadderGame:
    players = len(SEAT_WEIGHT)

    def parse(text, flag):
        if text not in strength:
            raise UserError(f"{flag}: unknown bot '{text}'")
        return text

    def job(lineups):
        from analyzer.runner import KernelJob

        n_l = len(lineups)
        cum = np.array([np.cumsum([strength[b] * w for b, w in zip(lu, SEAT_WEIGHT)])
                        for lu in lineups])
        cum /= cum[:, -1:]

        def run_blocks(keys, counts):
            out = np.zeros((len(keys), n_l * players + n_l))
            for b in range(len(keys)):
                rng = np.random.default_rng([int(k) for k in keys[b]])
                for _ in range(counts[b]):
                    u = rng.random()  # one number per deal, the same in every line-up
                    for l in range(n_l):
                        out[b, l * players + int(np.searchsorted(cum[l], u))] += 1.0
                        out[b, n_l * players + l] += 1.0
            return out

        wins = np.arange(n_l * players).reshape(n_l, players)
        return LadderJob(KernelJob("fake ladder", 64, run_blocks), wins,
                         n_l * players + np.arange(n_l))

    return LadderGame("fake", "Fake", players, parse, lambda b: b, job)


@pytest.fixture(scope="module")
def part():
    game = fake_game({"strong": 4.0, "mid": 2.0, "weak": 1.0})
    settings = part_settings(game, {"games": 900, "bots": ["weak", "strong", "mid"]}, [], 10)
    return ladder_report(settings, 11, "Fake")


def test_ratings_follow_the_hand_computed_strengths_with_their_labels(part):
    """Labels swapped between bots anywhere (the fit, the table, the groups) would put weak
    above strong here."""
    md = part.extra
    rows = [line for line in md.splitlines() if line.startswith("| 1 ") or
            line.startswith("| 2 ") or line.startswith("| 3 ")]
    assert [r.split("|")[2].strip() for r in rows] == ["strong", "mid", "weak"]
    import io

    import pandas as pd

    pairs = pd.read_csv(io.BytesIO(part.files["ladder_pairs.csv"]))
    assert list(pairs.higher) == ["strong", "mid"] and list(pairs.lower) == ["mid", "weak"]
    for _, p in pairs.iterrows():  # the true step lies in each interval, which excludes 0
        assert p.ci_low < STEP < p.ci_high and p.ci_low > 0, p
        assert p.separated


def test_self_play_groups_carry_each_bots_own_seat_shares(part):
    assert [b.group for b in part.balances] == ["strong plays every seat",
                                                "mid plays every seat", "weak plays every seat"]
    for b in part.balances:
        s1 = b.get("seat", 1).stat
        assert s1.n == 900 and s1.ci_low < 0.5 < s1.ci_high and s1.ci_low > 1 / 3
        assert b.get("seat", 1).fair == pytest.approx(1 / 3)


def test_findings_say_separated_with_the_interval_and_n(part):
    texts = [f.text for f in part.findings]
    assert any(t.startswith("The strong bot is rated above the mid bot by +") and
               "excludes 0" in t and "n = 900 deals × 21 line-ups" in t for t in texts), texts
    gain = next(t for t in texts if "one seat played by the strong bot among mid" in t)
    # strong in one seat among two mids: 4·w/(4·w + 2·(4 − w)) over w = 2, 1, 1 → mean 0.6;
    # a mid there wins 1/3 on average: the gain is +26.7 points, clearly above 0
    assert gain.startswith("With one seat") and "percentage points" in gain


def test_equal_bots_are_not_separated_and_the_page_says_so():
    """Two bots of equal strength on common random numbers play every deal alike: their
    rating difference is exactly 0 and no sentence may call them separated."""
    game = fake_game({"a": 1.0, "b": 1.0})
    part = ladder_report(LadderSettings(game, ["a", "b"], 120), 5, "Fake")
    texts = [f.text for f in part.findings]
    assert any(t.startswith("The ladder does not separate the a bot from the b bot") or
               t.startswith("The ladder does not separate the b bot from the a bot")
               for t in texts), texts
    assert not any("rated above" in t for t in texts)
    assert any(t.startswith("No gain detected") for t in texts), texts
    assert "| no |" in part.extra


@pytest.mark.parametrize("params, words", [
    ({"bots": ["strong"]}, "bots needs at least two bots"),
    ({"bots": ["strong", "nobody"]}, "bots: unknown bot 'nobody'"),
    ({"bots": ["strong", "strong"]}, "bots names strong twice"),
    ({"bots": ["strong", "weak"], "games": 1}, "games = 1"),
])
def test_bad_settings_are_one_line(params, words):
    with pytest.raises(UserError) as exc:
        part_settings(fake_game({"strong": 2.0, "weak": 1.0}), params, ["strong", "weak"], 10)
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_near_equal_bots_are_called_not_separated_exactly_when_the_intervals_hold_0():
    """Strengths 1.05 : 1 on 60 deals: too close to tell apart. Every sentence must agree with
    the interval it states (read back from the part's CSV): "not separated" / "no gain
    detected" when it holds 0, "rated above" / a gain otherwise."""
    import io

    import pandas as pd

    game = fake_game({"a": 1.05, "b": 1.0})
    part = ladder_report(LadderSettings(game, ["a", "b"], 60), 3, "Fake")
    texts = [f.text for f in part.findings]
    pair = pd.read_csv(io.BytesIO(part.files["ladder_pairs.csv"])).iloc[0]
    assert pair.ci_low < 0 < pair.ci_high  # this seed's interval holds 0 …
    assert any(t.startswith("The ladder does not separate") for t in texts), texts  # … so
    gains = pd.read_csv(io.BytesIO(part.files["ladder_gains.csv"]))
    top = gains[(gains.bot == pair.higher) & (gains.field == pair.lower) & (gains.seat == "mean")]
    assert len(top) == 1 and top.ci_low.iloc[0] < 0 < top.ci_high.iloc[0]
    assert any(t.startswith("No gain detected") for t in texts), texts
