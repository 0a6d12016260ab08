"""Whole-game line-ups: common random numbers, per-seat bookkeeping and the sign of comparisons.

* Ten (`ten game --vs`): the block driver's sums equal sums worked out here from the one-game
  driver (``game_details``, the same streams: game t of block b is played on stream (key_b, t))
  for every seat's column and every paired difference, so a swapped column, a dropped square or
  line-ups played on different decks fail; identical line-ups differ by exactly 0 with SE 0; a
  seat that always draws (and so always busts) wins least wherever it sits.
* Go-Stop (`gostop simulate --vs`): deals are the same for every line-up on one seed (the deal
  alone decides chongtong and void redeals, so two line-ups count exactly the same ones); the
  runner's sums equal sums over the kernel's one-deal function on the same streams; greedy beats
  random in whichever seat it sits.
* Railroad Canasta (`canasta simulate`): each seat's wins and the first mover's equal counts
  worked out over the one-game kernel function on the same streams.

Line-ups are written through one helper per game (:func:`ten_lineup`, :func:`gostop_lineup`,
:func:`canasta_lineup`), so a change in their spelling is one edit here.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.rng import block_keys
from analyzer.runner import RunSpec

Z = 1.959963984540054


def by_hand(xs):
    n = len(xs)
    m = sum(xs) / n
    se = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)
    return m, se


# ---- Ten -------------------------------------------------------------------------------------------

def ten_lineup(*bots: str) -> str:
    """A Ten line-up in the --seats form (one bot per seat)."""
    return ",".join(bots)


def ten_bot(name: str, **knobs) -> str:
    """A Ten bot with knobs, in today's spelling (``name:knob=value:knob=value``, kebab-case)."""
    return name + "".join(f":{k.replace('_', '-')}={v}" for k, v in knobs.items())


ALWAYS_DRAW = ten_bot("random", draw_chance=1)  # draws until it busts or the pile runs out


def ten_setup(lineups, players=3, sets=()):
    from analyzer.games.ten.lineup import check_lineups
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.games.ten.whole import Setup
    from analyzer.rules import build_rules

    return Setup(build_rules(TenRules, sets=list(sets)), load_deck(None), players,
                 check_lineups(lineups, players))


def ten_records(setup, n, seed, lineup):
    """Per-game records of games 0..n-1 of a run with ``seed``, from the one-game driver."""
    from analyzer.rng import block_layout

    nb, counts = block_layout(n, setup.block_size)
    keys = block_keys(seed, 0, nb)
    recs = [setup.details(keys[b], int(counts[b]), lineup)[0] for b in range(nb)]
    return np.concatenate(recs)


def test_ten_block_sums_equal_the_one_game_driver_seat_by_seat():
    from analyzer.games.ten.decide import play_games
    from kernels.ten.whole_layout import RC

    lineups = [ten_lineup("threshold", "random", ten_bot("cards", after=3)),
               ten_lineup(ten_bot("cards", after=3), ten_bot("threshold", stop_at=6),
                          "threshold")]
    setup = ten_setup(lineups)
    n, seed = 300, 17  # two blocks of 256 and 44 games
    out = play_games(setup, RunSpec(n, seed, progress=False))
    a, b = ten_records(setup, n, seed, 0), ten_records(setup, n, seed, 1)
    assert out["n"] == n and len(a) == n
    for k, recs in enumerate((a, b)):
        lu = out["lineups"][k]
        for q in range(3):
            for name, key in (("win_rate", f"win_{q}"), ("score", f"score_{q}"),
                              ("tokens_end", f"tokens_{q}"), ("cards_end", f"cards_{q}")):
                m, se = by_hand(list(recs[:, RC[key]]))
                if name == "win_rate":  # Wilson: the SE is the bound sqrt(p(1 − p)/n)
                    se = math.sqrt(m * (1 - m) / n)
                st = lu["seats"][q][name]
                assert st.estimate == pytest.approx(m, abs=1e-12), (k, q, name)
                assert st.se == pytest.approx(se, rel=1e-9, abs=1e-12), (k, q, name)
        for name in ("turns", "busts", "auctions", "buys"):
            m, se = by_hand(list(recs[:, RC[name]]))
            assert lu[name].estimate == pytest.approx(m) and lu[name].se == pytest.approx(se)
        paid, auctions = recs[:, RC["auction_price"]], recs[:, RC["auctions"]]
        r = paid.sum() / auctions.sum()
        e = paid - r * auctions  # the delta method over games: SE of mean(e) / mean(auctions)
        se = math.sqrt((e * e).sum() / (n * (n - 1))) / (auctions.sum() / n)
        assert lu["price_per_auction"].estimate == pytest.approx(r)
        assert lu["price_per_auction"].se == pytest.approx(se, rel=1e-9)
    # paired differences A − B per seat, game by game on the same decks
    for q in range(3):
        d = a[:, RC[f"win_{q}"]] - b[:, RC[f"win_{q}"]]
        m, se = by_hand(list(d))
        st = out["differences"][0]["seats"][q]["win_rate"]
        assert st.estimate == pytest.approx(m, abs=1e-12) and st.se == pytest.approx(se)
        d = a[:, RC[f"score_{q}"]] - b[:, RC[f"score_{q}"]]
        m, se = by_hand(list(d))
        st = out["differences"][0]["seats"][q]["score"]
        assert st.estimate == pytest.approx(m, abs=1e-12) and st.se == pytest.approx(se)


def test_ten_identical_lineups_see_the_same_decks():
    from analyzer.games.ten.decide import play_games

    lu = ten_lineup("threshold", "random", ten_bot("threshold", stop_at=5))
    out = play_games(ten_setup([lu, lu, lu]), RunSpec(200, 3, progress=False))
    first = out["lineups"][0]
    for other in out["lineups"][1:]:
        for q in range(3):
            assert other["seats"][q]["win_rate"] == first["seats"][q]["win_rate"]
            assert other["seats"][q]["score"] == first["seats"][q]["score"]
        assert other["turns"] == first["turns"]
    for diff in out["differences"]:
        for s in diff["seats"]:
            for key in ("win_rate", "score"):
                st = s[key]
                assert (st.estimate, st.se, st.ci_low, st.ci_high) == (0, 0, 0, 0)


@pytest.mark.parametrize("where", [0, 2])
def test_ten_a_seat_that_always_draws_wins_least_wherever_it_sits(where):
    from analyzer.games.ten.decide import play_games

    bots = ["threshold"] * 3
    bots[where] = ALWAYS_DRAW
    out = play_games(ten_setup([ten_lineup(*bots)]), RunSpec(256, 5, progress=False))
    seats = out["lineups"][0]["seats"]
    worst = seats[where]["win_rate"]
    for q in range(3):
        if q != where:
            assert seats[q]["win_rate"].ci_low > worst.ci_high, (q, where)
    # its win column is its own: the other two share the rest
    total = sum(s["win_rate"].estimate for s in seats)
    assert total == pytest.approx(1.0)


def test_ten_a_clearly_worse_lineup_comes_out_worse_in_the_paired_difference():
    from analyzer.games.ten.decide import play_games

    good = ten_lineup("threshold", "threshold", "threshold")
    bad = ten_lineup(ALWAYS_DRAW, "threshold", "threshold")
    out = play_games(ten_setup([good, bad]), RunSpec(256, 8, progress=False))
    d0 = out["differences"][0]["seats"][0]["win_rate"]  # A − B for seat 0
    assert d0.ci_low > 0
    # the seats that did not change gain from seat 0's weakness: A − B < 0 for them
    assert out["differences"][0]["seats"][1]["win_rate"].estimate < 0


def test_ten_tokens_stay_put_with_no_supply_and_no_spending():
    # start_tokens and currency_tokens reach the kernel: 2 players start with 4 each of 8 tokens,
    # so the supply is empty; with no auctions and no buys nothing is ever spent either, so every
    # game ends with 4 tokens each, exactly
    from analyzer.games.ten.decide import play_games

    setup = ten_setup([ten_lineup("threshold", "random")], players=2,
                      sets=("start_tokens=4", "currency_tokens=8", "auctions=false",
                            "buys=false"))
    lu = play_games(setup, RunSpec(100, 2, progress=False))["lineups"][0]
    for q in range(2):
        t = lu["seats"][q]["tokens_end"]
        assert (t.estimate, t.se) == (4, 0)
    setup = ten_setup([ten_lineup("threshold", "random")], players=2,
                      sets=("start_tokens=7", "currency_tokens=14", "auctions=false",
                            "buys=false"))
    lu = play_games(setup, RunSpec(100, 2, progress=False))["lineups"][0]
    assert [lu["seats"][q]["tokens_end"].estimate for q in range(2)] == [7, 7]


# ---- Go-Stop ----------------------------------------------------------------------------------------

def gostop_lineup(text: str, players: int = 2):
    """A Go-Stop line-up in the --seats form."""
    from analyzer.games.gostop.lineup import parse_seats

    return parse_seats(text, players)


def gostop_deals(rules, pols, n, seed, events=None):
    """(outcome, winner, net per seat, voids) of deals 0..n-1 of a run, one kernel deal at a
    time on the runner's streams (block b of 2048 deals on key b, deal t on stream (key, t));
    each deal's event counts (all seats) are appended to ``events`` when given."""
    from kernels.gostop.score import EVB, NEV

    events = [] if events is None else events
    from analyzer.games.gostop.rules import rules_vector
    from analyzer.games.gostop.play import policy_array
    from kernels.gostop import state as K
    from kernels.gostop.deal import play_deal
    from kernels.rng import seed_trial

    S0 = K.new_state(rules_vector(rules), policy_array(pols))
    nb = -(-n // 2048)
    keys = block_keys(seed, 0, nb)
    out = []
    s = np.zeros(4, np.uint64)
    net = np.zeros(5, np.int64)
    for b in range(nb):
        S = S0.copy()
        for t in range(min(2048, n - 2048 * b)):
            seed_trial(keys[b], t, s)
            outcome, w, voids, err = play_deal(S, s, net, 0, False)
            assert err == 0
            out.append((int(outcome), int(w), net[:rules.players].copy(), int(voids)))
            events.append([sum(int(S[EVB + q * NEV + e]) for q in range(rules.players))
                           for e in range(NEV)])
    return out


def test_gostop_simulate_sums_equal_the_one_deal_function_on_the_same_streams():
    from analyzer.games.gostop.play import simulate
    from analyzer.games.gostop.rules import GoStopRules
    from kernels.gostop.state import OUT_CHONG, OUT_NAGARI

    rules = GoStopRules(players=3)
    pols = gostop_lineup("greedy,random,go:2", 3)
    n, seed = 2100, 9  # two blocks
    out = simulate(rules, pols, RunSpec(n, seed, progress=False))
    events = []
    deals = gostop_deals(rules, pols, n, seed, events)
    from analyzer.games.gostop.play import EVENT_NAMES

    for e, name in enumerate(EVENT_NAMES):
        counts = [ev[e] for ev in events]
        m, se = by_hand(counts)
        assert out["events"][name]["per_deal"].estimate == pytest.approx(m), name
        assert out["events"][name]["per_deal"].se == pytest.approx(se), name
        assert out["events"][name]["p_at_least_one"].estimate == pytest.approx(
            sum(c > 0 for c in counts) / n), name
    assert sum(sum(ev) for ev in events) > 0
    for q in range(3):
        wins = sum(1 for o, w, *_ in deals if w == q)
        assert out["seats"][q]["p_win"].estimate == pytest.approx(wins / n)
        m, se = by_hand([int(net[q]) for *_, net, _v in deals])
        assert out["seats"][q]["mean_net_payment"].estimate == pytest.approx(m)
        assert out["seats"][q]["mean_net_payment"].se == pytest.approx(se)
    m, se = by_hand([net[0] - (net[1] + net[2]) / 2 for *_, net, _v in deals])
    assert out["dealer_advantage"].estimate == pytest.approx(m)
    assert out["dealer_advantage"].se == pytest.approx(se)
    assert out["p_nagari"].estimate == pytest.approx(
        sum(o == OUT_NAGARI for o, *_ in deals) / n)
    assert out["p_chongtong"].estimate == pytest.approx(sum(o == OUT_CHONG for o, *_ in deals) / n)
    assert out["void_redeals_per_deal"].estimate == pytest.approx(
        sum(v for *_, v in deals) / n)


def test_gostop_lineups_on_one_seed_play_the_same_deals():
    # chongtong and void redeals are decided by the deal before anyone plays: every line-up on
    # the same seed must count exactly the same ones; another seed deals other cards
    from analyzer.games.gostop.play import simulate
    from analyzer.games.gostop.rules import GoStopRules

    rules = GoStopRules()
    spec = RunSpec(3000, 21, progress=False)
    a = simulate(rules, gostop_lineup("greedy"), spec)
    b = simulate(rules, gostop_lineup("random,go:3"), spec)
    assert a["p_chongtong"] == b["p_chongtong"] and a["p_chongtong"].estimate > 0
    assert a["void_redeals_per_deal"] == b["void_redeals_per_deal"]
    assert a["void_redeals_per_deal"].estimate > 0
    assert a["p_nagari"] != b["p_nagari"] or a["seats"] != b["seats"]
    c = simulate(rules, gostop_lineup("greedy"), RunSpec(3000, 22, progress=False))
    assert (c["p_chongtong"], c["void_redeals_per_deal"]) != (a["p_chongtong"],
                                                               a["void_redeals_per_deal"])


@pytest.mark.parametrize("seats,greedy_seat", [("greedy,random", 0), ("random,greedy", 1)])
def test_gostop_greedy_beats_random_in_either_seat(seats, greedy_seat):
    from analyzer.games.gostop.play import simulate
    from analyzer.games.gostop.rules import GoStopRules

    out = simulate(GoStopRules(), gostop_lineup(seats), RunSpec(4000, 5, progress=False))
    g, r = out["seats"][greedy_seat], out["seats"][1 - greedy_seat]
    assert g["policy"] == "greedy" and r["policy"] == "random"
    assert g["p_win"].ci_low > r["p_win"].ci_high
    assert g["mean_net_payment"].ci_low > 0 > r["mean_net_payment"].ci_high
    # zero-sum: the two seats' means mirror each other
    assert g["mean_net_payment"].estimate == pytest.approx(-r["mean_net_payment"].estimate)


def test_gostop_chongtong_pays_its_knob():
    # rules section 3: chongtong pays chongtong_chips from each opponent (house rule: the stop
    # minimum instead)
    from analyzer.games.gostop.rules import GoStopRules
    from kernels.gostop.state import OUT_CHONG

    for rules, chips in ((GoStopRules(chongtong_chips=17), 17),
                         (GoStopRules(players=3, chongtong_payment="target", target=4), 4),
                         (GoStopRules(players=3), 5)):
        deals = [d for d in gostop_deals(rules, gostop_lineup("greedy", rules.players), 3000, 3)
                 if d[0] == OUT_CHONG]
        assert deals
        for _o, w, net, _v in deals:
            assert net[w] == chips * (rules.players - 1)
            assert all(net[q] == -chips for q in range(rules.players) if q != w)


# ---- Railroad Canasta --------------------------------------------------------------------------------

def canasta_lineup(text: str, players: int):
    from analyzer.games.canasta.lineup import parse_policies

    return parse_policies(text, players)


def test_canasta_seat_wins_and_first_mover_equal_the_one_game_function():
    from analyzer.games.canasta.play import policy_array, rules_arrays, simulate
    from analyzer.games.canasta.rules import CanastaRules
    from kernels.canasta.engine import new_state
    from kernels.canasta.layout import NT, NV
    from kernels.canasta.trials import NROUNDSTAT, play_game
    from kernels.rng import seed_trial

    rules = CanastaRules(players=3, target=8000)  # 1 to 3 rounds a game
    pols = canasta_lineup("greedy,builder:4:30,greedy", 3)
    n, seed = 60, 4
    out = simulate(rules, pols, RunSpec(n, seed, progress=False))
    from analyzer.games.canasta.play import BLOCK

    rp, thr, reqv = rules_arrays(rules)
    pol = policy_array(pols)
    nb = -(-n // BLOCK)
    keys = block_keys(seed, 0, nb)
    wins, first, rounds = [0, 0, 0], 0, []
    for b in range(nb):
        state = new_state(3)
        viol = np.zeros(NV, np.int64)
        tmp = np.zeros(NT, np.int64)
        scratch = np.zeros((NT, 3), np.int64)
        rs = np.zeros(NROUNDSTAT)
        s = np.zeros(4, np.uint64)
        for t in range(min(BLOCK, n - BLOCK * b)):
            seed_trial(keys[b], t, s)
            r, w, starter = play_game(s, rp, pol, thr, reqv, state, viol, tmp, scratch, rs)[:3]
            rounds.append(int(r))
            if w >= 0:
                wins[w] += 1
                first += w == starter
    assert [x["p_win"].estimate * n for x in out["seats"]] == pytest.approx(wins)
    assert out["p_first_mover_wins"].estimate * n == pytest.approx(first)
    m, se = by_hand(rounds)
    assert out["rounds_per_game"].estimate == pytest.approx(m)
    assert out["rounds_per_game"].se == pytest.approx(se)
    assert sum(wins) > 0 and len(set(wins)) > 1
    assert max(rounds) > 1  # (with one round a game, rounds and their squares agree)
