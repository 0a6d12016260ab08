"""Go-Stop deal engine: scripted turns reproducing the rules page's examples (G7, G8, G10) and
property tests over thousands of seeded deals (card conservation after every turn, equal turns,
stacks of three, stops only when eligible, thread-count independence)."""
import numba
import numpy as np
import pytest

from analyzer.games.gostop import play as PL
from analyzer.games.gostop import lineup as LU
from analyzer.games.gostop.decide import make_state
from analyzer.games.gostop.play import make_job_for_tests
from analyzer.games.gostop import rules as R
from analyzer.games.gostop import score as SC
from kernels.gostop import batch as KB
from kernels.gostop import deal as KD
from kernels.gostop import score as KS
from kernels.gostop import state as KSt
from kernels.gostop import turn as KT

R2 = R.GoStopRules()


def c(name):
    return {"X2": 48, "X3": 49}.get(name) or R.CARD_INDEX[name]


def cards(text):
    return [c(x) for x in text.split()]


class Table:
    """A scripted position: all hands, layout, piles and the stock order are known."""

    def __init__(self, hands, layout, stock, piles=None, stacks=(), rules=R2, **pv):
        self.rules = rules
        n = rules.players
        self.rv = R.rules_vector(rules)
        self.b = make_state(rules, [cards(h) for h in hands], cards(layout),
                            [(cards(s), cr, t) for s, cr, t in stacks],
                            [cards(p) for p in (piles or [""] * n)], cards(stock), **pv)
        self.EV = self.b.EV
        self.s = np.zeros(4, np.uint64)

    def turn(self, p, play, choice=None, go=-1, last=0, action=0):
        scr = np.array([action, c(play) if action == 0 else play,
                        c(choice) if choice else -1, go, -1], np.int64)
        r = KT.scripted_turn(self.b.S, self.s, p, scr, last)
        assert r >= 0, f"engine error {r}"
        assert KD.check_state(self.b.S, False) == 0
        return r

    def layout(self, month):
        S = self.b.S
        return sorted(R.CARD_NAMES[S[KSt.LAY + 4 * (month - 1) + i]]
                      for i in range(S[KSt.LN + month - 1]))

    def pile(self, p):
        S = self.b.S
        return sorted(R.card_name(S[KSt.PILE + p * KS.MAXC + i], self.rules)
                      for i in range(S[KSt.PN + p]))

    def junk(self, p):
        return int(self.b.PS[p, KS.T_JUNK])

    def score(self, p):
        return int(KS.best_score(self.b.S, p))


OPP_JUNK = "01J1 02J1 03J1"


def test_ppuk_then_ja_ppuk_takes_two_junk():
    # Layout May = {05A}; P0 plays 05R (pair pending), flips 05J1 -> ppuk stack created by P0.
    t = Table(["05R 05J2 12A", "10J1 11J1 12R"], "05A 08J1", "05J1 10A 07J1 07J2",
              piles=["", OPP_JUNK])
    assert t.turn(0, "05R") == 0
    assert t.layout(5) == ["05A", "05J1", "05R"]
    assert t.b.S[KSt.SOWN + 4] == 0
    assert t.pile(0) == [] and t.pile(1) == ["01J1", "02J1", "03J1"]    # no steal
    assert t.EV[0, KSt.E_PPUK] == 1
    t.turn(1, "11J1")                                   # P1 lays 11J1, flips 10A (laid)
    # P0's next turn: 05J2 takes the own stack: ja-ppuk, 2 junk from the opponent
    t.turn(0, "05J2")
    assert t.layout(5) == []
    assert {"05A", "05R", "05J1", "05J2"} <= set(t.pile(0))
    assert t.EV[0, KSt.E_JAPPUK] == 1 and t.junk(1) == 1 and t.junk(0) == 4   # 05J1 05J2 + 2


def test_stack_taken_by_the_other_player_takes_one_junk():
    t = Table(["05R 12A", "05J2 11J1"], "05A 08J1", "05J1 10A 07J1", piles=["01J1 02J1", ""])
    t.turn(0, "05R")                                    # ppuk by P0
    t.turn(1, "05J2")                                   # P1 captures P0's stack
    assert t.EV[1, KSt.E_STACK] == 1 and t.EV[1, KSt.E_JAPPUK] == 0
    assert t.junk(0) == 1 and t.junk(1) == 3            # 05J2 + 05J1 + one stolen


def test_ja_ppuk_scope_previous_turn_only():
    # P0 makes the stack on turn 0 but only takes it on turn 2: plain stack capture (1 junk);
    # with ja_ppuk_scope = any it is still ja-ppuk (2 junk).
    for scope, expected in (("previous", 1), ("any", 2)):
        rules = R.GoStopRules(ja_ppuk_scope=scope)
        t = Table(["05R 05J2 12A", "10J1 11J1"], "05A 08J1", "05J1 10A 07A 06J1 04J1",
                  piles=["", OPP_JUNK], rules=rules)
        t.turn(0, "05R")
        t.turn(1, "11J1")
        t.turn(0, "12A")
        t.turn(1, "10J1")
        t.turn(0, "05J2")
        assert t.EV[0, KSt.E_STOLEN] == expected


def test_jjok():
    # No June card in the layout: P0 plays 06J1 (laid), flips 06A -> captures both, 1 junk.
    t = Table(["06J1 12A", "10J1"], "08J1", "06A", piles=["", OPP_JUNK])
    t.turn(0, "06J1")
    assert t.pile(0) == ["01J1", "06A", "06J1"] and t.EV[0, KSt.E_JJOK] == 1
    assert t.layout(6) == []


def test_ttadak():
    # Layout singles 09A and 09R; P0 plays 09J1 choosing 09A, flips 09J2 -> all four, 1 junk.
    t = Table(["09J1 12A", "10J1"], "09A 09R 08J1", "09J2", piles=["", OPP_JUNK])
    t.turn(0, "09J1", choice="09R")
    assert t.layout(9) == []
    assert t.pile(0) == ["01J1", "09A", "09J1", "09J2", "09R"] and t.EV[0, KSt.E_TTADAK] == 1


def test_two_singles_choice_is_respected():
    # Layout 09A and 09R, P0 plays 09J1 choosing 09R; the flip misses: 09A stays.
    t = Table(["09J1 12A", "10J1"], "09A 09R", "03J1", piles=["", ""])
    t.turn(0, "09J1", choice="09R")
    assert t.layout(9) == ["09A"] and t.pile(0) == ["09J1", "09R"]


def test_sweep():
    # Layout exactly {01J1, 10A}: P0 plays 01B (pairs 01J1), flips 10R (pairs 10A) -> sweep.
    t = Table(["01B 12A", "11J1"], "01J1 10A", "10R", piles=["", "02J1 03J1"])
    t.turn(0, "01B")
    assert sum(t.layout(m) != [] for m in range(1, 13)) == 0
    assert t.EV[0, KSt.E_SWEEP] == 1 and t.junk(1) == 1


def test_sweep_and_jjok_add_up_and_korean_last_turn():
    # Empty layout, P0 lays 06J1 and flips 06A: jjok + sweep = 2 junk from the opponent.
    t = Table(["06J1 12A", "10J1"], "", "06A", piles=["", OPP_JUNK])
    t.turn(0, "06J1")
    assert t.junk(1) == 1
    # korean last-turn rule: on the final turn the sweep does not steal, the jjok still does
    t = Table(["06J1", "10J1"], "", "06A", piles=["", OPP_JUNK],
              rules=R.GoStopRules(last_turn_events="korean"))
    t.turn(0, "06J1", last=1)
    assert t.junk(1) == 2


def test_double_junk_hand_over():
    # The opponent's only junk is 11D: it must be handed over; the taker's junk rises by 2.
    t = Table(["06J1 12A", "10J1"], "08J1", "06A", piles=["", "11D 01B"])
    t.turn(0, "06J1")
    assert "11D" in t.pile(0) and t.junk(0) == 1 + 2 and t.junk(1) == 0
    # with singles available the giver hands over a single first, and X2 before X3
    t = Table(["06J1 12A", "10J1"], "08J1", "06A", piles=["", "X3 X2 11D 02J1"])
    t.turn(0, "06J1")
    assert "02J1" in t.pile(0)
    t = Table(["06J1 12A", "10J1"], "08J1", "06A", piles=["", "X3 X2"])
    t.turn(0, "06J1")
    assert "X2" in t.pile(0)


def test_bomb_and_skip_turns():
    # P0 holds 07A 07R 07J1, layout has 07J2: bomb takes all four, 2 skip tokens.
    t = Table(["07A 07R 07J1 12A", "10J1 11J1 03J1"], "07J2 08J1", "04J1 04J2 05J1 05J2",
              piles=["", ""])
    t.turn(0, 6, action=2)                              # bomb month index 6 = July
    assert t.layout(7) == [] and t.b.PV[0, KS.V_SKIP] == 2 and t.b.S[KSt.HN] == 1
    t.turn(1, "10J1")
    t.turn(0, 0, action=1)                              # skip: only flip
    assert t.b.PV[0, KS.V_SKIP] == 1 and t.b.S[KSt.HN] == 1
    # a shaken triple cannot bomb under the source rules
    t = Table(["07A 07R 07J1 12A", "10J1"], "07J2", "04J1", piles=["", ""])
    t.b.PV[0, KS.V_SHAKEMASK] = 1 << 6
    scr = np.array([2, 6, -1, -1, -1], np.int64)
    assert KT.scripted_turn(t.b.S, t.s, 0, scr, 0) == -3


def test_joker_played_from_hand_uses_the_next_stock_card():
    # P0 plays X2: banked; 06J1 is flipped as the hand card (laid); the flip 06A makes a jjok.
    t = Table(["X2 12A", "10J1"], "08J1", "06J1 06A", piles=["", OPP_JUNK])
    scr = np.array([0, 48, -1, -1, -1], np.int64)
    r = KT.scripted_turn(t.b.S, t.s, 0, scr, 0)
    assert r == 0 and t.EV[0, KSt.E_JJOK] == 1
    assert t.pile(0) == ["01J1", "06A", "06J1", "X2"]


def test_g8_go_reoffer():
    # P0 holds 15 single junk: S = 6. Turn 1: 03J1 takes 03R -> junk 16, S = 7: says go.
    # P1: lays 11J1, flips 11J2 -> jjok, steals one junk: P0 back to S = 6.
    # P0: 09J1 takes 09R -> S = 7 = score at the last go: not eligible (told to stop: no stop).
    # P1: 12A takes 12B. P0: 10J2 takes 10A -> S = 8 > 7: eligible again, stops when told.
    junk15 = "01J1 01J2 02J1 02J2 04J1 04J2 05J1 05J2 06J1 06J2 07J1 07J2 08J1 08J2 10J1"
    t = Table(["03J1 09J1 10J2", "11J1 12A 11B"], "03R 09R 10A", "12B 11J2 03J2 01B 12R",
              piles=[junk15, ""])
    assert t.score(0) == 6
    assert t.turn(0, "03J1", go=1) == 0
    assert t.score(0) == 7 and t.b.PV[0, KS.V_GO] == 1 and t.b.PV[0, KS.V_LASTGO] == 7
    assert t.turn(1, "11J1") == 0
    assert t.EV[1, KSt.E_JJOK] == 1 and t.score(0) == 6
    assert t.turn(0, "09J1", go=0) == 0 and t.score(0) == 7
    assert t.turn(1, "12A") == 0
    assert t.turn(0, "10J2", go=0) == 1 and t.score(0) == 8


def test_forced_stop_on_last_turn():
    junk15 = "01J1 01J2 02J1 02J2 04J1 04J2 05J1 05J2 06J1 06J2 07J1 07J2 08J1 08J2 10J1"
    t = Table(["03J1", ""], "03R", "12B", piles=[junk15, ""])
    assert t.turn(0, "03J1", go=1) == 1                # no turn left: stops even if told go


def _debug(rules, pols, n, seed=11):
    S = KSt.new_state(R.rules_vector(rules), PL.policy_array(pols))
    PS, PV, EV = KSt.views(S)
    s = np.zeros(4, np.uint64)
    net = np.zeros(KS.MAXP, np.int64)
    key = np.array([seed, 2, 3, 4], np.uint64)
    for t in range(n):
        outcome, w, voids, err = KD.debug_deal(key, t, 0, S, s, net)
        yield outcome, w, err, S, PS, PV, EV, net


@pytest.mark.parametrize("rules,pols,n", [
    (R.GoStopRules(), "greedy", 2000),
    (R.GoStopRules(), "random,go:2", 1500),
    (R.GoStopRules(players=3, sake_cup="flex", bomb_after_shake=True), "random,greedy,go:1:3",
     1500),
    (R.GoStopRules(jokers=(2, 3, 2, 3, 4), last_turn_events="korean", ja_ppuk_scope="any",
                   bomb_bonus="korean", go_bak=True), "go:3,random", 1000),
    (R.GoStopRules(players=3, jokers=()), "random", 1000),
])
def test_invariants_over_seeded_deals(rules, pols, n):
    """Card conservation and layout checks after every turn (kernel check_state); equal turns;
    stop only when eligible (score recomputed here from the winner's pile cards); zero-sum
    payments; stacks never exceed three cards."""
    pl = LU.parse_seats(pols, rules.players)
    H = rules.hand_size
    seen = {KSt.OUT_WIN: 0, KSt.OUT_NAGARI: 0, KSt.OUT_CHONG: 0}
    for outcome, w, err, S, PS, PV, EV, net in _debug(rules, pl, n):
        assert err == 0
        seen[outcome] += 1
        assert net[:rules.players].sum() == 0
        turns = PV[:rules.players, KS.V_TURNS]
        if outcome == KSt.OUT_NAGARI:
            assert np.all(turns == H) and np.all(net == 0)
        elif outcome == KSt.OUT_WIN:
            # seats up to the winner have played one turn more than the seats after it
            assert all(turns[q] == turns[w] - (1 if q > w else 0) for q in range(rules.players))
            pile = [S[KSt.PILE + w * KS.MAXC + i] for i in range(S[KSt.PN + w])]
            sc = SC.score_cards(pile, rules)["points"]
            assert sc >= rules.stop_target
            if PV[w, KS.V_GO] > 0:
                assert sc > PV[w, KS.V_LASTGO]
            assert net[w] > 0
        else:
            assert net[w] == rules.chong_chips * (rules.players - 1)
        assert np.all(S[KSt.LN:KSt.LN + 12] <= 3)
    assert seen[KSt.OUT_WIN] > 0


def test_chongtong_holder_has_four_of_a_month():
    # G10: the holder is paid 5 by each opponent (2 players: 5; 3 players: 10 in total)
    for rules in (R.GoStopRules(), R.GoStopRules(players=3)):
        found = 0
        for outcome, w, err, S, PS, PV, EV, net in _debug(rules, LU.parse_seats(
                "greedy", rules.players), 600, seed=3):
            if outcome == KSt.OUT_CHONG:
                found += 1
                hand = [S[KSt.HAND + w * KSt.MAXH + i] for i in range(S[KSt.HN + w])]
                months = [h // 4 for h in hand if h < 48]
                assert max(months.count(m) for m in set(months)) == 4
                assert net[w] == 5 * (rules.players - 1)
        assert found > 0


def test_simulation_is_thread_count_independent():
    from analyzer.runner import run
    job = make_job_for_tests(R.GoStopRules(players=3), "random,greedy,go:2")
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a = run(job, 3000, 99).sums
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        b = run(job, 3000, 99).sums
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(a, b)
    assert a[KB.C_ERR] == 0


def test_pure_python_reference_plays_the_same_deals():
    """The bench reference (the engine's source run without Numba) and the compiled kernel give
    the same payments on the same deals: same algorithm, and the unmanaged state view is sound."""
    from analyzer.games.gostop.play import python_reference_deals
    from analyzer.runner import run
    job = make_job_for_tests(R.GoStopRules(), "greedy", check=False)
    res = run(job, 40, 5)
    assert python_reference_deals(40, 5) == res.sums[KB.C_NET] / 40


def test_g9_nagari_three_players():
    """3 players, target 3: seat 2 plays the deal's last turn; nobody reaches 3, or the only
    player who said go (seat 2, go at 5) is still at 5: nagari, nobody pays."""
    rules = R.GoStopRules(players=3)
    junk10 = "01J1 01J2 02J1 02J2 03J1 03J2 04J1 04J2 05J1 05J2"        # junk 10: S = 1
    junk14 = junk10 + " 06J1 06J2 07J1 07J2"                              # junk 14: S = 5
    for pile2, gos, last in ((junk10, [0, 0, 0], [0, 0, 0]), (junk14, [0, 0, 1], [0, 0, 5])):
        b = make_state(rules, [[], [], cards("12A")], cards("08J1"), [],
                       [cards("01B"), cards("03B"), cards(pile2)], cards("10A"),
                       go_counts=gos, last_go=last, turns=[7, 7, 6])
        S = b.S
        S[KS.POLB:KS.POLB + KS.MAXP * KS.NPOL] = PL.policy_array(
            LU.parse_seats("go:5", 3)).reshape(-1)
        s = np.zeros(4, np.uint64)
        assert KD.run_from(S, s, 2, False) == -1                # nagari: no stop, no payment
        assert KD.check_state(S, False) == 0
        assert np.all(b.PV[:3, KS.V_TURNS] == 7)
        assert KS.best_score(S, 2) == (1 if gos[2] == 0 else 5)
