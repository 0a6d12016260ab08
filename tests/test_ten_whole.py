"""Ten whole games: kernel = independent Python reference game by game on the same seeds,
conservation over 10,000 games, final scores = `ten score`, and the first turn against the exact
one-turn solver (within 5 SE)."""
from collections import Counter

import numpy as np
import pytest

from analyzer.games.ten.rules import ValueModel, load_deck, parse_card, turn_state
from analyzer.games.ten.exact import KIND_TOTAL, Model, TenPolicy, solve
from analyzer.games.ten.score import score_collection
from analyzer.games.ten import whole_reference as reference
from analyzer.games.ten.lineup import parse_seats
from analyzer.games.ten.cards import codes_of
from analyzer.games.ten.whole import Setup, lineup_stats, score_tables
from analyzer.games.ten.rules import TenRules
from analyzer.rng import block_keys
from analyzer.runner import run
from kernels.ten.whole_layout import REC_NAMES


def _compare(setup, key, n):
    recs, finals, toks = setup.details(key, n)
    ref = reference.reference_games(setup, key, n)
    for g in range(n):
        rec, colls, tk = ref[g]
        for i, name in enumerate(REC_NAMES):
            assert recs[g, i] == pytest.approx(rec.get(name, 0)), (g, name)
        for q in range(setup.players):
            assert Counter(codes_of(finals[g, q])) == colls[q], (g, q)
            assert (toks[g][q], toks[g][5 + q]) == tk[q], (g, q)


def test_kernel_matches_reference_threshold_bots():
    st = Setup(TenRules(), load_deck(), 4, [parse_seats("threshold", 4)], check=True)
    _compare(st, block_keys(11, 0, 1)[0], 2)


def _score_through_the_kernel(monkeypatch):
    """Let the reference score through the kernel's scorer, only for speed: scores themselves
    are checked against `ten score` (test_kernel_matches_reference_threshold_bots,
    test_final_scores_agree_with_ten_score, test_ten_whole_score.py)."""
    from kernels.ten.whole_score import WS_SIZE, score_row

    ws = np.zeros(WS_SIZE, dtype=np.int64)

    def fast(coll, full_run=10):
        from analyzer.games.ten.cards import counts_of

        return int(score_row(counts_of([c for c, k in coll.items() for _ in range(k)]),
                             score_tables(full_run), ws))

    monkeypatch.setattr(reference, "score", fast)


def test_kernel_matches_reference_mixed_bots(monkeypatch):
    """Random, exact and card-count bots and other rules (scored through the kernel's scorer)."""
    _score_through_the_kernel(monkeypatch)
    rules = TenRules(all_pass="active-free", spent_cards="market", bust_tokens=4)
    for players, seats in [(4, "random,exact,cards:5,threshold:8:bid=random:pay-with-cards=true"),
                           (2, "random:draw-chance=0.7,random"), (3, "exact:token=0.5")]:
        st = Setup(rules, load_deck(), players, [parse_seats(seats, players)], check=True)
        _compare(st, block_keys(5, 3, 1)[0], 3)


def test_conservation_over_ten_thousand_games():
    st = Setup(TenRules(), load_deck(), 4,
               [parse_seats("random,threshold:pay-with-cards=true,exact,cards:5", 4)], check=True)
    res = run(st.job(), 10_000, 2026, progress=False)
    s = lineup_stats(res.sums, 0, 1, 4)
    assert s["n"] == 10_000 and s["violations"] == 0
    assert sum(x["win_rate"].estimate for x in s["seats"]) == pytest.approx(1.0)


def test_final_scores_agree_with_ten_score():
    st = Setup(TenRules(), load_deck(), 4, [parse_seats("threshold", 4)])
    recs, finals, _ = st.details(block_keys(3, 0, 1)[0], 40)
    checked = 0
    for g in range(40):
        for q in range(4):
            cards = [parse_card(c) for c in codes_of(finals[g, q])]
            assert recs[g, REC_NAMES.index(f"score_{q}")] == score_collection(cards)["score"]
            checked += 1
    assert checked == 160


def test_first_turn_bust_rate_matches_exact_one_turn_solver():
    """With auctions, buys and token gains off, the first turn of a game is a fresh-deck turn
    under "stop once T ≥ 7"; its bust rate must match the exact solver's within 5 SE."""
    rules = TenRules(auctions=False, buys=False, token_gains=False)
    tr = rules.turn_rules()
    # value = P(bust): a bust is worth 1 token of weight 1, stopping 0 (no room for tokens)
    m = Model(turn_state(tr, load_deck()), tr, ValueModel(card=0, token=1, bust=1), 4, 10)
    exact = solve(m, [TenPolicy(KIND_TOTAL, 7)]).value(0)
    st = Setup(rules, load_deck(), 4, [parse_seats("threshold:7", 4)])
    res = run(st.job(), 40_000, 77, progress=False)
    p = lineup_stats(res.sums, 0, 1, 4)["first_turn_bust"]
    assert abs(p.estimate - exact) <= 5 * p.se
    assert 0.1 < exact < 0.5


def test_kernel_matches_reference_rollout_bots():
    """The rollout bot draws its rollouts from the game's stream: the reference must make the
    same draws in the same order, so whole games agree record by record."""
    for players, seats in [(4, "rollout:6,threshold,rollout:3:stop-at=9:opp=0.2,exact"),
                           (2, "rollout:4:card=1.5:bust=1,random")]:
        st = Setup(TenRules(), load_deck(), players, [parse_seats(seats, players)], check=True)
        _compare(st, block_keys(8, 1, 1)[0], 2)


def test_rollout_bot_conserves_and_differs_from_its_base():
    st = Setup(TenRules(), load_deck(), 4, [parse_seats("rollout:8", 4), parse_seats("threshold", 4)],
               check=True)
    res = run(st.job(), 512, 9, progress=False)
    a, b = lineup_stats(res.sums, 0, 2, 4), lineup_stats(res.sums, 1, 2, 4)
    assert a["violations"] == 0 and a["n"] == 512
    assert a["first_turn_bust"].estimate != b["first_turn_bust"].estimate


def test_rollout_bot_parses_and_refuses_bad_knobs():
    from analyzer.errors import UserError

    bot = parse_seats("rollout:32", 2)[0]
    assert bot.name == "rollout" and bot.rollouts == 32 and bot.label == "rollout:rollouts=32"
    with pytest.raises(UserError, match="knob 'rollouts' must be in 1..1000"):
        parse_seats("rollout:0", 2)


def test_kernel_matches_reference_banded_threshold_bots(monkeypatch):
    """Stop bounds in bands of the cards left and of the tokens held, kernel = reference
    (scored through the kernel's scorer)."""
    _score_through_the_kernel(monkeypatch)
    seats = ("threshold:stop-at=6:band-by=deck:cut-1=60:stop-at-2=9,"
             "threshold:stop-at=5:band-by=tokens:cut-1=2:cut-2=5:stop-at-2=8:stop-at-3=10,"
             "threshold:stop-at=9:band-by=deck:cut-1=30:cut-2=90:stop-at-2=5:stop-at-3=7")
    st = Setup(TenRules(), load_deck(), 3, [parse_seats(seats, 3)], check=True)
    _compare(st, block_keys(12, 0, 1)[0], 4)


def test_banded_bound_by_hand():
    """kernels/ten/whole_engine.banded_bound: cuts 30 and 90 give bounds 9 / 5 / 7 below 30,
    from 30 and from 90 cards left; by tokens, 0..1 → 5, 2..4 → 8, 5.. → 10."""
    from analyzer.games.ten.bots import bot_rows
    from analyzer.games.ten.lineup import parse_bot
    from kernels.ten.whole_engine import banded_bound

    deck = bot_rows([parse_bot("threshold:stop-at=9:band-by=deck:cut-1=30:cut-2=90:"
                               "stop-at-2=5:stop-at-3=7")], {})[0]
    tokens = bot_rows([parse_bot("threshold:stop-at=5:band-by=tokens:cut-1=2:cut-2=5:"
                                 "stop-at-2=8:stop-at-3=10")], {})[0]
    plain = bot_rows([parse_bot("threshold:6")], {})[0]
    assert [banded_bound(deck, left, 0) for left in (0, 29, 30, 89, 90, 129)] == \
        [9, 9, 5, 5, 7, 7]
    assert [banded_bound(tokens, 100, t) for t in range(7)] == [5, 5, 8, 8, 8, 10, 10]
    assert {banded_bound(plain, left, t) for left in (0, 50) for t in (0, 9)} == {6}


@pytest.mark.parametrize("text, message", [
    ("threshold:band-by=deck", "needs cut-1"),
    ("threshold:band-by=tokens:cut-1=4:cut-2=3", "cut-2 must be 0"),
    ("cards:band-by=deck:cut-1=10", "unknown knob 'band-by' for cards"),
    ("threshold:band-by=score:cut-1=3", "must be one of"),
])
def test_banded_knobs_are_checked(text, message):
    from analyzer.errors import UserError
    from analyzer.games.ten.lineup import parse_bot

    with pytest.raises(UserError, match=message):
        parse_bot(text)
