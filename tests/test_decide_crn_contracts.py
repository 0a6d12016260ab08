"""Decide on common random numbers: paired identities on real kernel runs, the seat recorded, the
deal's randomness.

* The mean of the per-playout differences equals the difference of the means (both computed on
  the same playouts): Go-Stop go − stop, Canasta A − B (own score and lead), Ten choice 0 −
  choice k. A kernel that flips a difference's sign, or plays the two options on different
  deals while pairing them, fails one of these.
* Ten: the chance of winning summed over every seat ``me`` (each a run on the same seed, the
  same active seat and bots) is exactly 1 for every choice: each run records its own seat's win
  share of the same games (a seat that is not the active one included).
* Dealing: the Fisher–Yates shuffle of the whole-game and decide kernels gives every order of a
  small pile with the same frequency (chi-square), so a biased shuffle (e.g. Sattolo's, which
  never leaves a card in place) fails.
"""
from __future__ import annotations

import re

from itertools import permutations
from pathlib import Path

import numpy as np
import pytest

from analyzer.runner import RunSpec

DATA = Path(__file__).resolve().parents[1] / "analyzer" / "data"


def seat(i: int) -> int:
    """The number a position file uses for the i-th seat (i from 0)."""
    return i + 1


def test_gostop_go_minus_stop_is_the_go_value_shifted():
    import tomllib

    from analyzer.games.gostop import decide as GD
    from analyzer.games.gostop.play import Policy
    from analyzer.games.gostop.rules import GoStopRules

    pos = tomllib.loads((DATA / "gostop_position_example.toml").read_text())["position"]
    out = GD.decide(pos, GoStopRules(), Policy("greedy"), Policy("greedy"),
                    RunSpec(3000, 4, progress=False))
    go, d, stop = out["go_payment"], out["difference_go_minus_stop"], out["stop_payment"]
    assert d.estimate == pytest.approx(go.estimate - stop, abs=1e-9)
    assert d.se == pytest.approx(go.se, rel=1e-9)
    ps = out["after_go"]
    total = ps["p_win"].estimate + ps["p_nagari"].estimate + ps["p_opponent_wins"].estimate
    assert total == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["canasta_position_example.toml",
                                  "canasta_position_goout_example.toml"])
def test_canasta_both_options_share_their_deals(name):
    import tomllib

    from analyzer.games.canasta.decide import decide
    from analyzer.games.canasta.lineup import parse_policies
    from analyzer.games.canasta.rules import CanastaRules

    data = tomllib.loads((DATA / name).read_text())
    out = decide(data, CanastaRules(), parse_policies("greedy", 2),
                 RunSpec(256, 6, progress=False))
    a, b, d = out["round_score_a"], out["round_score_b"], out["difference_a_minus_b"]
    assert d.estimate == pytest.approx(a.estimate - b.estimate, abs=1e-6)
    # the same in lead terms: (A − best opponent) − (B − best opponent), both on one deal
    rel = out["lead_over_best_opponent_difference"]
    assert rel.n == d.n == a.n == 256


def ten_position(tmp_path, me):
    from analyzer.games.ten.position import load_position
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.rules import build_rules

    text = re.sub(r"(?m)^me = 1$", f"me = {seat(me)}",
                  (DATA / "ten_position_example.toml").read_text())
    assert f"me = {seat(me)}" in text.splitlines()
    path = tmp_path / f"pos{me}.toml"
    path.write_text(text)
    rules, deck = build_rules(TenRules), load_deck(None)
    return load_position(str(path), rules, deck), rules, deck


def test_ten_every_seat_reads_its_own_win_share_of_the_same_games(tmp_path):
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.decide import decide

    runs = []
    for me in range(4):
        pos, rules, deck = ten_position(tmp_path, me)
        assert pos.me == me and pos.active == 0
        out = decide(pos, rules, deck, parse_seats("threshold", 4),
                     RunSpec(128, 12, progress=False))
        assert out["me"] == me + 1 and out["active"] == 1  # outputs count seats from 1
        runs.append(out)
    choices = list(runs[0]["p_win"])
    assert choices == ["draw", "numbers", "currency"]
    for c in choices:
        total = sum(r["p_win"][c].estimate for r in runs)
        assert total == pytest.approx(1.0, abs=1e-9), c
    for r in runs:
        for k, c in enumerate(choices[1:], 1):
            d = r["differences"][f"draw − {c}"]
            assert d.estimate == pytest.approx(r["p_win"]["draw"].estimate
                                               - r["p_win"][c].estimate, abs=1e-9)
    # not every seat's chance is the same: the runs did record different seats
    assert len({round(r["p_win"]["draw"].estimate, 9) for r in runs}) > 1


def chi_square_of_orders(shuffle_once, n_items=4, draws=24_000):
    counts = {p: 0 for p in permutations(range(n_items))}
    for t in range(draws):
        counts[tuple(shuffle_once(t))] += 1
    expected = draws / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts.values())


def test_the_whole_game_shuffle_is_uniform():
    from kernels.rng import seed_trial
    from kernels.ten.whole_blocks import shuffle

    key = np.array([11, 22, 33, 44], dtype=np.uint64)
    base = np.arange(4, dtype=np.int8)
    pile = np.empty_like(base)
    s = np.zeros(4, np.uint64)

    def once(t):
        seed_trial(key, t, s)
        shuffle(pile, base, s)
        return [int(x) for x in pile]

    # 23 degrees of freedom: P(chi² > 49.7) = 0.001
    assert chi_square_of_orders(once) < 49.7


def test_canasta_options_see_the_same_hidden_cards():
    # 3 players, meld phase, empty stock, every kitty picked up: the only unseen cards are a
    # joker and 5S, one in each opponent's single-card hand. Going out (A): melds 70 + 120 + 140
    # + 35 + K-K-K 30, bonuses 500 + 300 + 1000 + 1500, four red threes 400, going out 100 =
    # 4195. Playing on (B): greedy keeps K-K-K and throws the 4; the next player cannot take a
    # frozen pile with one card nor draw, so the round ends: 365 + 3300 + 400 - 30 = 4035.
    # The best opponent (aces canasta 640 + 400 or nines canasta 570 + 400, less the card held)
    # scores 990 or 1035 depending on who holds the joker -- the same under A and B when both
    # options see the same deal, so the lead difference is exactly 160 in every playout.
    from collections import Counter

    from analyzer.games.canasta.decide import decide
    from analyzer.games.canasta.lineup import parse_policies
    from analyzer.games.canasta.rules import CanastaRules

    labels = [r + s for r in "2 3 4 5 6 7 8 9 T J Q K A".split() for s in "SHDC"]
    deck = Counter({lab: 6 for lab in labels + ["JK"]})  # 3 players: 6 packs, 6 jokers
    me = {"hand": ["KS", "KH", "KD", "4C"], "red_threes": 4, "kitty": "picked",
          "melds": [["QS", "QH", "QD", "QC", "QS", "QH", "QD"],
                    ["JS", "JH", "JD", "JC", "JS", "2C", "JK"],
                    ["2S", "2H", "2D", "2C", "2S", "2H", "2D"],
                    ["7S", "7H", "7D", "7C", "7S", "7H", "7D"]]}
    opps = [{"hand_size": 1, "red_threes": 4, "kitty": "picked",
             "melds": [[f"{r}S", f"{r}H", f"{r}D", f"{r}C", f"{r}S", f"{r}H", f"{r}D"]]}
            for r in "A9"]
    shown = Counter(me["hand"] + ["3H"] * 6 + ["3D"] * 6 + ["JK", "5S"])
    for who in [me] + opps:
        for meld in who["melds"]:
            shown.update(meld)
    rest = deck - shown
    pile = sorted(rest.elements())
    pile.remove("6S")
    pile.append("6S")  # on top: a natural nobody can pair
    pos = {"phase": "meld", "stock": 0, "me": me, "opponents": opps,
           "pile": {"cards": pile, "frozen": True}}
    assert len(pile) == 318 - 60
    kept = []

    class Keep(RunSpec):
        def run(self, job, **kwargs):
            kept.append(super().run(job, **kwargs))
            return kept[-1]

    n = 400
    out = decide(pos, CanastaRules(players=3), parse_policies("greedy", 3),
                 Keep(n, 4, progress=False), "lead")
    a, b = out["round_score_a"], out["round_score_b"]
    assert (a.estimate, a.se, b.estimate, b.se) == (4195, 0, 4035, 0)
    lead = out["lead_over_best_opponent_difference"]
    assert (lead.estimate, lead.se) == (160, 0)
    assert out["recommendation"] == "go out now"
    # the joker goes to either opponent with chance 1/2 (a uniform deal of the unseen cards):
    # the lead after going out is 4195 - 990 or 4195 - 1035, 3182.5 on average (column 8 of
    # the decide kernel: the sum of those leads)
    mean_lead = kept[0].sums[8] / n
    assert abs(mean_lead - 3182.5) <= 4.5 * 22.5 / n ** 0.5
