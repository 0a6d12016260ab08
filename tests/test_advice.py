"""Rules of thumb (`pushluck <game> advice`): the shared search, racing and the exact games.

The Monte Carlo games (Go-Stop, Canasta) run only with PUSHLUCK_ADVICE_MC=1 (a few seconds each
with warm kernels): `make test` keeps to the exact games.
"""
import os

import numpy as np
import pytest

mc_only = pytest.mark.skipif(not os.environ.get("PUSHLUCK_ADVICE_MC"),
                             reason="Monte Carlo advice tests: set PUSHLUCK_ADVICE_MC=1")

from analyzer.advice import Decision, Feature, Rule, Scored, pareto, simplest_within

FEATS = [Feature("tok", "the tokens you hold", (1, 2, 3, 4), unit="tokens"),
         Feature("bl", "the Blammo! cards in your hand", (0, 1))]
FD = {f.name: f for f in FEATS}
DEC = Decision("roll", "stop")


def test_rules_decide_as_their_words_say():
    tok = np.array([0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
    bl = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
    X = {"tok": tok, "bl": bl}
    thr = Rule("threshold", "tok", "<=", (2,))
    assert thr.acts(X).tolist() == [1, 1, 1, 0, 0, 1, 1, 1, 0, 0]
    assert thr.words(FD, DEC) == ("Roll while the tokens you hold is at most 2 tokens; "
                                  "otherwise stop.")
    band = Rule("banded", "tok", "<=", (2, 3), "bl", (1,))
    assert band.acts(X).tolist() == [1, 1, 1, 0, 0, 1, 1, 1, 1, 0]
    assert band.complexity == 5
    lst = Rule("list", clauses=(("bl", ">=", 1, True), ("tok", ">=", 2, False)), default_act=True)
    assert lst.acts(X).tolist() == [1, 1, 0, 0, 0, 1, 1, 1, 1, 1]
    assert lst.complexity == 4
    assert lst.words(FD, DEC).startswith("If the Blammo! cards in your hand is at least 1, roll.")
    for r in (thr, band, lst):
        assert Rule.from_json(r.to_json()) == r


def test_pareto_keeps_strict_improvements_and_max_loss_picks_the_simplest():
    r2, r4, r5, r6 = (Rule("threshold", "tok", "<=", (2,)),
                      Rule("list", clauses=(("tok", ">=", 1, False),) * 2),
                      Rule("banded", "tok", "<=", (2, 3), "bl", (1,)),
                      Rule("list", clauses=(("tok", ">=", 1, False),) * 3))
    sc = [Scored(r2, 0.3, 0.3, 0.3), Scored(r4, 0.1, 0.1, 0.1), Scored(r5, 0.2, 0.2, 0.2),
          Scored(r6, 0.05, 0.05, 0.05)]
    front = pareto(sc)
    assert [s.rule.complexity for s in front] == [2, 4, 6]
    assert simplest_within(front, 0.15).rule == r4
    assert simplest_within(front, 0.01) is None


def test_racing_keeps_the_best_and_spends_far_fewer_trials():
    from analyzer.advice.race import race

    true = np.array([0.0, 0.002] + [0.01 * k for k in range(1, 39)])
    rules = [Rule("threshold", "tok", "<=", (k,)) for k in range(len(true))]
    batch = 2000

    def sample(idx, rnd):
        rng = np.random.default_rng([7, rnd])
        common = rng.normal(0, 1, batch)  # shared trial noise (common random numbers)
        out = []
        for i in idx:
            own = np.random.default_rng([7, rnd, i]).normal(0, 0.2, batch)
            d = true[i] + 0.05 * common + own
            out.append((float(d.sum()), float((d * d).sum())))
        return out

    scored, cost = race(rules, sample, batch, max_rounds=40, precision=0.0015)
    by = {s.rule: s for s in scored}
    assert by[rules[0]].extra["survived"]
    for s in scored:  # every interval covers its true loss (Bonferroni-level intervals)
        assert s.lo <= true[rules.index(s.rule)] <= s.hi
    assert cost["trials_spent"] * 10 <= cost["trials_flat"]


def _block_family(true, blocks, seed):
    """Per-block values of candidates with true means ``−true`` and shared block noise."""
    def values(i, rnd):
        common = np.random.default_rng([seed, rnd]).normal(0, 1, blocks)
        own = np.random.default_rng([seed, rnd, i]).normal(0, 0.3, blocks)
        return -true[i] + 0.5 * common + own
    return values


def test_block_racing_covers_true_losses_and_saves_tenfold_on_a_wide_family():
    from analyzer.advice.race import race_blocks

    # 300 candidates: a close pair at the top, the rest spread over losses 0.05 .. 1.5
    true = np.concatenate([[0.0, 0.01], np.linspace(0.05, 1.5, 298)])
    rules = [Rule("threshold", "tok", "<=", (k,)) for k in range(len(true))]
    scored, cost = race_blocks(rules, _block_family(true, 32, 3), 1, 40, precision=0.01)
    best = scored[int(np.argmin(true))]
    assert best.extra["survived"]
    ref = cost["reference_index"]
    for i, s in enumerate(scored):  # Bonferroni intervals of the loss against the reference
        assert s.lo <= true[i] - true[ref] <= s.hi
    assert cost["trials_flat"] >= 10 * cost["trials_spent"]
    assert cost["blocks_spent"] == sum(s.extra["rounds"] for s in scored) * 32


class _Cx:
    """A stand-in candidate: racing reads only its complexity."""

    def __init__(self, complexity):
        self.complexity = complexity


def test_indifference_zone_drops_complex_rules_that_buy_less_than_delta():
    from analyzer.advice.race import race_blocks

    # 0: simple, loss 0.02; 1: simple, loss 0.10; 2..21: complex copies of 0 (per-block
    # gain N(0, 0.02): they buy nothing); 22: more complex still, truly better than 0 by 0.05
    blocks, delta = 32, 0.01
    true = np.array([0.02, 0.10] + [0.02] * 20 + [-0.03])
    rules = [_Cx(2), _Cx(2)] + [_Cx(5)] * 20 + [_Cx(8)]

    def values(i, rnd):
        common = np.random.default_rng([5, rnd]).normal(0, 1, blocks)
        own0 = np.random.default_rng([5, rnd, 0]).normal(0, 0.3, blocks)
        if 2 <= i <= 21:  # play like rule 0 but for a little noise of their own
            return -true[0] + 0.5 * common + own0 + np.random.default_rng(
                [5, rnd, i]).normal(0, 0.02, blocks)
        own = own0 if i == 0 else np.random.default_rng([5, rnd, i]).normal(0, 0.3, blocks)
        return -true[i] + 0.5 * common + own

    scored, cost = race_blocks(rules, values, 1, 30, precision=0.005, indifference=delta)
    assert scored[22].extra["survived"] and scored[0].extra["survived"]
    dropped = [i for i, s in enumerate(scored) if "indifferent_to" in s.extra]
    # every copy goes; rule 1 (as simple as 0 and worse) goes too unless the loss test took it
    assert dropped in (list(range(2, 22)), list(range(1, 22)))
    assert all(scored[i].extra["indifferent_to"] == 0 for i in dropped)
    assert cost["indifferent"] == len(dropped) and cost["indifference"] == delta
    ref = cost["reference_index"]
    assert ref == 22
    for i, s in enumerate(scored):
        assert s.lo <= true[i] - true[ref] <= s.hi
    # without the zone the copies stay in the race to the end, so it costs more
    plain, cost0 = race_blocks(rules, values, 1, 30, precision=0.005)
    assert cost0["indifferent"] == 0 and cost0["survivors"] > cost["survivors"] + 10
    assert cost0["trials_spent"] > cost["trials_spent"]


def test_indifference_zone_keeps_one_of_equally_simple_near_ties():
    from analyzer.advice.race import race_blocks

    # three equally simple rules: 1 trails 0 by 0.001 (within δ = 0.01), 2 trails it by 0.05
    blocks, delta = 32, 0.01
    gap = [0.0, 0.001, 0.05]

    def values(i, rnd):
        base = np.random.default_rng([9, rnd]).normal(0, 1, blocks)
        own = np.random.default_rng([9, rnd, i]).normal(0, 0.02, blocks)
        return base - gap[i] + (own if i else 0.0)

    scored, cost = race_blocks([_Cx(2)] * 3, values, 1, 30, precision=0.0001,
                               indifference=delta)
    assert [s.extra["survived"] for s in scored] == [True, False, False]
    assert scored[1].extra["indifferent_to"] == 0 and cost["reference_index"] == 0
    for i, s in enumerate(scored):
        assert s.lo <= gap[i] <= s.hi
    # without the zone the near tie is never resolved
    plain, _ = race_blocks([_Cx(2)] * 3, values, 1, 30, precision=0.0001)
    assert plain[1].extra["survived"]


def test_t_quantile_widens_few_blocks_and_tends_to_the_normal():
    from analyzer.advice.race import t_quantile

    # Student-t 0.9995 quantiles (tables): ν = 10 → 4.587, ν = 30 → 3.646; normal 3.291
    assert abs(t_quantile(3.2905, 10) - 4.587) < 0.15
    assert abs(t_quantile(3.2905, 30) - 3.646) < 0.03
    assert t_quantile(3.2905, 10 ** 6) - 3.2905 < 1e-5


# ----- Pig (exact) ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pig():
    from analyzer.games.pig.advice import PigEvaluator

    return PigEvaluator()


def test_evaluating_the_optimal_table_reproduces_the_solver(pig):
    from analyzer.games.pig.exact import solve
    from analyzer.games.pig.rules import PigRules
    from kernels.pig.evaluate import evaluate_pig

    P = solve(PigRules())[0]
    X0, Y0 = evaluate_pig(100, 6, 1, pig.opt, pig.opt)
    assert abs(X0[0, 0] - 0.5306) < 5e-5  # Neller & Presser 2004
    assert np.abs(X0 - P[:, :, 0]).max() < 1e-9
    assert np.abs(Y0 - (1 - P[:, :, 0])).max() < 1e-9


def _reference_eval(goal, ra, rb, sweeps=3000):
    """Plain Gauss–Seidel iteration of the fixed-policy equations (kernels/pig/evaluate.py)."""
    X = np.zeros((goal, goal, goal + 7))
    Y = np.zeros((goal, goal, goal + 7))
    for _ in range(sweeps):
        for i in range(goal):
            for j in range(goal):
                for k in range(goal - i - 1, -1, -1):
                    if k > 0 and not ra[i, j, k]:
                        X[i, j, k] = Y[j, i + k, 0]
                    else:
                        X[i, j, k] = Y[j, i, 0] / 6 + sum(
                            1.0 if i + k + f >= goal else X[i, j, k + f] for f in range(2, 7)) / 6
                for k in range(goal - j - 1, -1, -1):
                    if k > 0 and not rb[j, i, k]:
                        Y[j, i, k] = X[i, j + k, 0]
                    else:
                        Y[j, i, k] = X[i, j, 0] / 6 + sum(
                            0.0 if j + k + f >= goal else Y[j, i, k + f] for f in range(2, 7)) / 6
    return X[0, 0, 0], Y[0, 0, 0]


def test_pig_policy_evaluation_matches_plain_iteration_on_a_small_goal():
    from kernels.pig.evaluate import evaluate_pig

    goal = 8
    k = np.arange(goal)[None, None, :]
    i = np.arange(goal)[:, None, None]
    ra = np.ascontiguousarray(np.broadcast_to(k < 4, (goal,) * 3), dtype=np.uint8)
    rb = np.ascontiguousarray(np.broadcast_to((k < 3) | (i >= 5), (goal,) * 3), dtype=np.uint8)
    X0, Y0 = evaluate_pig(goal, 6, 1, ra, rb)
    x, y = _reference_eval(goal, ra, rb, sweeps=200)
    assert abs(X0[0, 0] - x) < 1e-9 and abs(Y0[0, 0] - y) < 1e-9


def test_pig_best_hold_at_threshold_and_its_loss(pig):
    from analyzer.advice import Searcher
    from analyzer.games.pig.advice import features, hold_at
    from analyzer.games.pig.play import PigPolicy, simulate
    from analyzer.games.pig.rules import PigRules
    from analyzer.runner import RunSpec

    turn = [f for f in features(100) if f.name == "turn"]
    best = Searcher(turn, pig, ops=("<=",)).thresholds()
    assert best.rule == hold_at(25)
    assert abs(best.loss - (0.5 - (best.extra["p_win_first"] + best.extra["p_win_second"]) / 2)) \
        < 1e-15
    # neighbours are worse, exactly
    for t in (24, 26, 20):
        assert pig([hold_at(t)])[0].loss > best.loss
    # the first-seat win probability against the optimal player, by the Monte Carlo kernel
    res = simulate((PigPolicy("hold", 25), PigPolicy("optimal")), PigRules(),
                   RunSpec(200_000, 11))
    w = res["p_first_player_wins"]
    assert abs(w.estimate - best.extra["p_win_first"]) <= 4.5 * w.se


def test_a_score_aware_rule_beats_hold_at_25(pig):
    from analyzer.games.pig.advice import hold_at

    aware = Rule("list", clauses=(("opp", ">=", 70, True), ("turn", ">=", 25, False)),
                 default_act=True)
    base, better = pig([hold_at(25), aware])
    assert better.loss < base.loss - 0.005


def test_front_losses_remeasured_with_a_fresh_evaluator(pig):
    from analyzer.games.pig.advice import PigEvaluator, hold_at

    rules = [hold_at(25), Rule("banded", "turn", "<=", (24, 49), "opp", (70,))]
    first = pig(rules)
    again = PigEvaluator()(rules)
    for a, b in zip(first, again):
        assert a.loss == b.loss


def test_pig_advice_refuses_bad_options(cli):
    code, out, err = cli("pig", "advice", "--bands", "5")
    assert code == 2 and out == ""


# ----- Trash Pandas turn (exact) ----------------------------------------------------------------
def test_trash_pandas_best_token_threshold_with_no_cards():
    from analyzer.advice import Searcher
    from analyzer.games.trash_pandas.advice import TurnEvaluator, features
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.play import PolicyEvaluator, PolicySpec, build_tables

    solver = TurnSolver()
    ev = TurnEvaluator(solver, (0, 0, 0))
    tok = [f for f in features((0, 0, 0)) if f.name == "tokens"]
    best = Searcher(tok, ev).thresholds()

    def value(spec):
        return PolicyEvaluator(build_tables(spec, solver, 0, 0, 0), solver).turn()["mean_value"]

    v_opt = value(PolicySpec("optimal"))
    assert abs(v_opt - solver.turn_value(0, 0, 0)) < 1e-12
    losses = {k: v_opt - value(PolicySpec("stop-at", k)) for k in range(1, 7)}
    k_best = min(losses, key=losses.get)
    assert best.rule == Rule("threshold", "tokens", "<=", (k_best - 1,))
    assert abs(best.loss - losses[k_best]) < 1e-12


def test_trash_pandas_advice_cli_json(cli):
    got = cli("trash-pandas", "advice", "--clauses", "2", "--bands", "2", "--max-loss", "0.1",
              "--json", check_json=True)
    assert got["game"] == "trash-pandas" and got["exact"] is True
    front = got["front"]
    assert front[0]["rule"]["kind"] == "threshold"
    assert [r["complexity"] for r in front] == sorted(r["complexity"] for r in front)
    assert got["simplest_within"]["loss"] <= 0.1


# ----- Ten turn (exact) ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ten():
    from analyzer.games.ten.advice import TenEvaluator
    from analyzer.games.ten.exact import Model
    from analyzer.games.ten.rules import TenRules, ValueModel, load_deck, turn_state

    r = TenRules()
    return TenEvaluator(Model(turn_state(r, load_deck(None), None, None, 4), r, ValueModel(), 4,
                              0))


def test_ten_rule_values_equal_the_solver_policy_values(ten):
    from analyzer.games.ten.exact import KIND_CARDS, KIND_OPTIMAL, KIND_TOTAL, TenPolicy, solve

    sol = solve(ten.model, [TenPolicy(KIND_OPTIMAL), TenPolicy(KIND_TOTAL, 7),
                            TenPolicy(KIND_CARDS, 3)])
    assert abs(ten.value(ten.optimal_draw) - sol.value(0)) < 1e-12
    total7, cards3 = ten([Rule("threshold", "T", "<=", (6,)),
                          Rule("threshold", "cards", "<=", (2,))])
    assert abs(total7.extra["value"] - sol.value(1)) < 1e-12
    assert abs(cards3.extra["value"] - sol.value(2)) < 1e-12
    assert abs(total7.loss - (sol.value(0) - sol.value(1))) < 1e-12


def test_ten_reach_accounts_for_the_whole_value(ten):
    rule = Rule("list", clauses=(("cards", "<=", 1, True), ("bust", ">=", 30, False)))
    draw = np.asarray(rule.acts(ten.X), dtype=bool)
    reach = ten.reach(draw)
    d = (draw | ten.forced_draw) & ~ten.no_draw
    # every turn ends once: stopping states and busts carry the whole value
    assert abs((reach * ~d * ten.S).sum() + (reach * d * ten.const).sum() - ten.value(draw)) \
        < 1e-9


# ----- Go-Stop (Monte Carlo, raced) ---------------------------------------------------------------
@mc_only
def test_gostop_raced_loss_agrees_with_a_fresh_stream():
    from analyzer.advice.race import race_policies
    from analyzer.games.gostop.advice import BLOCK, GoStopRacer, family, policy_of
    from analyzer.games.gostop.rules import GoStopRules

    rules = [Rule("threshold", "gos", "<=", (2,)), Rule("list", clauses=(), default_act=False),
             Rule("threshold", "opp", "<=", (3,))]
    assert all(r in family() for r in rules)
    pols = [policy_of(r) for r in rules]
    runs = [race_policies(rules, pols, GoStopRacer(GoStopRules(), seed).values, BLOCK, 3, 0.0)
            for seed in (21, 22)]
    (scored, cost, ref), (fresh, _c, ref2) = runs
    assert cost["trials_spent"] <= cost["trials_flat"]
    if ref == ref2:  # losses against the same reference
        for a, b in zip(scored, fresh):
            if a.n == b.n:
                se = (a.extra["se"] ** 2 + b.extra["se"] ** 2) ** 0.5
                assert abs(a.loss - b.loss) <= 4.5 * se + 1e-12


@mc_only
def test_canasta_raced_loss_agrees_with_a_fresh_stream():
    from analyzer.advice.race import race_policies
    from analyzer.games.canasta.advice import BLOCK, CanastaRacer, knob_pair
    from analyzer.games.canasta.rules import CanastaRules

    fam = [knob_pair(1, 0, 0), knob_pair(5, 0, 0)]
    runs = [race_policies(fam, fam, CanastaRacer(CanastaRules(), seed).values, BLOCK, 3, 0.0)
            for seed in (31, 32)]
    (a_sc, a_cost, _), (b_sc, _c, _r) = runs
    assert a_cost["trials_spent"] <= a_cost["trials_flat"]
    for a, b in zip(a_sc, b_sc):
        se = (a.extra["se"] ** 2 + b.extra["se"] ** 2) ** 0.5
        assert abs(a.loss - b.loss) <= 4.5 * se + 1e-12


# ----- Trash Pandas whole games (Monte Carlo, raced) ------------------------------------------
def test_trash_pandas_game_stop_rules_are_the_bots_knobs_in_words():
    from analyzer.games.trash_pandas.advice_game import StopRule, family
    from analyzer.games.trash_pandas.lineup import parse_bot
    from analyzer.games.trash_pandas.rules import TrashPandasRules

    fam = family(TrashPandasRules())
    # 6·3 stop-at × bonus-stop-at, 2·4·30 two-band pairs, 2·2·36 three-band triples
    assert len(fam) == len(set(fam)) == 18 + 240 + 144
    same, banded = StopRule(3, 3), StopRule(4, 2)
    assert same.complexity == 2 and banded.complexity == 5
    assert same.words() == ("Roll while the number of tokens you hold is at most 2; otherwise "
                            "stop.")
    knobs = dict(parse_bot(banded.bot_text()).knobs)
    assert knobs["stop-at"] == 4 and knobs["bonus-stop-at"] == 2
    late = StopRule(4, 4, "deck", (10,), (3,))
    assert late.complexity == 5
    assert late.words() == ("Roll (when the draw pile is below 10 cards) while the number of "
                            "tokens you hold is at most 3; when the draw pile is at least 10 "
                            "cards: at most 2; otherwise stop.")
    knobs = dict(parse_bot(late.bot_text()).knobs)
    assert (knobs["band-by"], knobs["stop-at"], knobs["cut-1"], knobs["stop-at-2"]) == \
        ("deck", 4, 10, 3)
    assert StopRule(3, 3, "behind", (2, 5), (4, 5)).complexity == 8
    deck_only = family(TrashPandasRules(), "deck")
    assert len(deck_only) == 18 + 120 + 72
    assert {r.band_by for r in deck_only} == {"none", "deck"}
    assert family(TrashPandasRules(), "none") == fam[:18]


def test_trash_pandas_game_advice_refuses_an_unknown_band(cli):
    code, out, err = cli("trash-pandas", "game-advice", "--band-by", "score", "--seed", "1")
    assert code == 2 and out == "" and err.strip().count("\n") == 0 and "--band-by" in err


def test_trash_pandas_game_stop_rules_play_as_their_words_say():
    """For every candidate, the rule as data (Rule.acts on the features) and the bot it names
    (the kernel's keep_rolling) decide alike on a grid of states around every cut."""
    import numpy as np

    from analyzer.games.trash_pandas.advice_game import family
    from analyzer.games.trash_pandas.lineup import parse_bot
    from analyzer.games.trash_pandas.rules import TrashPandasRules
    from kernels.trash_pandas.whole_bots import keep_rolling
    from kernels.trash_pandas.whole_state import NROWS, NT, SC, STASH

    cap = TrashPandasRules().bonus_cap
    g = np.zeros((NROWS, NT), dtype=np.int64)
    g[SC, 2] = 3
    s = np.zeros(4, dtype=np.uint64)
    tab = np.zeros(1, dtype=np.uint8)
    states = [(nh, deck, behind, mode) for nh in range(1, 6) for deck in (0, 4, 5, 9, 10, 19, 20,
              29, 30, 40) for behind in range(7) for mode in (0, 1) if mode == 0 or nh < cap]
    for cand in family(TrashPandasRules()):
        rule, bot = cand.rule(), parse_bot(cand.bot_text()).row()
        for nh, deck, behind, mode in states:
            g[SC, 0] = deck
            g[STASH + 1, 0] = behind  # seat 0 holds nothing: it trails seat 1 by `behind`
            want = bool(rule.acts({"tokens": nh, "deck": deck, "behind": behind, "bonus": mode}))
            assert keep_rolling(g, 0, bot, 0, nh, mode, tab, s) == want, \
                (cand.bot_text(), nh, deck, behind, mode)


def test_trash_pandas_game_advice_cli_reports_both_costs(cli):
    got = cli("trash-pandas", "game-advice", "--players", "2", "--rounds", "2", "--precision",
              "1", "--seed", "3", "--band-by", "none", "--json", check_json=True)
    race = got["race"]
    assert got["exact"] is False and race["candidates"] == 18
    assert race["trials_spent"] <= race["trials_flat"]
    ref = [r for r in got["all"] if r["loss"]["estimate"] == 0.0 and r["loss"]["se"] == 0.0]
    assert ref and ref[0]["survived"]
    for r in got["all"]:  # every loss is a statistic object; intervals contain the estimate
        L = r["loss"]
        assert L["ci_low"] <= L["estimate"] <= L["ci_high"] and L["n"] > 0


# ----- Ten whole games (Monte Carlo, raced) ---------------------------------------------------
def test_ten_game_draw_rules_are_the_bots_in_words():
    from analyzer.games.ten.advice_game import DrawRule, family
    from analyzer.games.ten.lineup import parse_bot

    fam = family()
    # 11 + 8 single thresholds, 2·4·30 two-band pairs, 2·12 three-band triples
    assert len(fam) == len(set(fam)) == 11 + 8 + 240 + 24
    assert family("none") == fam[:19] and len(family("tokens")) == 19 + 120 + 12
    t7 = DrawRule("threshold", 7)
    assert t7.words() == "Draw while T = N − C is at most 6; otherwise stop."
    assert parse_bot(t7.to_json()["bot"]).stop_at == 7
    assert parse_bot(DrawRule("cards", 4).to_json()["bot"]).after == 4
    late = DrawRule("threshold", 6, "deck", (40,), (8,))
    assert late.words() == ("Draw (when the draw pile is below 40 cards) while T = N − C is at "
                            "most 5; when the draw pile is at least 40 cards: at most 7; "
                            "otherwise stop.")
    b = parse_bot(late.bot_text())
    assert (b.stop_at, b.band_by, b.cut_1, b.stop_at_2, b.cut_2) == (6, "deck", 40, 8, 0)


def test_ten_game_draw_rules_play_as_their_words_say():
    """Every banded candidate: Rule.acts on (T, deck, tokens) = the kernel's threshold test
    N − C < banded_bound(bot, cards left, tokens)."""
    from analyzer.games.ten.advice_game import family
    from analyzer.games.ten.bots import bot_rows
    from analyzer.games.ten.lineup import parse_bot
    from kernels.ten.whole_engine import banded_bound

    for cand in family():
        if cand.bot != "threshold":
            continue
        rule, row = cand.rule(), bot_rows([parse_bot(cand.bot_text())], {})[0]
        for left in (0, 19, 20, 29, 30, 39, 40, 59, 60, 69, 70, 89, 90, 129):
            for tokens in range(11):
                bound = banded_bound(row, left, tokens)
                for T in range(0, 12):
                    want = bool(rule.acts({"T": T, "deck": left, "tokens": tokens, "cards": 0}))
                    assert (T < bound) == want, (cand.bot_text(), left, tokens, T)


def test_ten_game_rule_files_play_back_as_the_bot_they_name(tmp_path):
    import json

    import pytest

    from analyzer.errors import UserError
    from analyzer.games.ten.advice_game import DrawRule
    from analyzer.games.ten.lineup import parse_bot, parse_seats

    def played(rule: dict):
        f = tmp_path / "r.json"
        f.write_text(json.dumps({"game": "ten", "rule": rule}))
        return f

    for cand in (DrawRule("threshold", 7), DrawRule("cards", 3),
                 DrawRule("threshold", 6, "deck", (40,), (8,)),
                 DrawRule("threshold", 7, "tokens", (3, 7), (6, 8))):
        f = played(cand.to_json())
        assert parse_bot(f"rule:{f}") == parse_bot(cand.bot_text())
        assert parse_seats(f"threshold,rule:{f}", 2)[1] == parse_bot(cand.bot_text())
    for bad, message in [
        ({"kind": "threshold", "feature": "score", "op": "<=", "threshold": 2},
         "unknown feature"),
        ({"kind": "threshold", "feature": "T", "op": "<=", "threshold": 6.5}, "whole numbers"),
        ({"kind": "banded", "feature": "cards", "op": "<=", "thresholds": [2, 3],
          "band_feature": "deck", "cuts": [20]}, "banded by deck"),
    ]:
        with pytest.raises(UserError, match=message):
            parse_bot(f"rule:{played(bad)}")


def test_ten_game_advice_cli_reports_both_costs(cli):
    got = cli("ten", "game-advice", "--players", "2", "--rounds", "1", "--precision", "1",
              "--seed", "3", "--band-by", "none", "--json", check_json=True)
    race = got["race"]
    assert got["game"] == "ten" and got["exact"] is False and race["candidates"] == 19
    assert race["trials_spent"] <= race["trials_flat"]
    assert all(r["loss"]["ci_low"] <= r["loss"]["estimate"] <= r["loss"]["ci_high"]
               for r in got["all"])


def test_trash_pandas_game_rule_files_play_back_as_the_bot_they_name(tmp_path):
    """A rule file from `game-advice --out` (here written by hand in the same form) is the bot
    its "bot" field names; rules outside the family are one-line errors."""
    import json

    import pytest

    from analyzer.errors import UserError
    from analyzer.games.trash_pandas.advice_game import StopRule
    from analyzer.games.trash_pandas.lineup import parse_bot

    def played(rule: dict):
        f = tmp_path / "r.json"
        f.write_text(json.dumps({"game": "trash-pandas", "rule": rule}))
        return parse_bot(f"rule:{f}")

    for cand in (StopRule(3, 3), StopRule(4, 2), StopRule(4, 4, "deck", (10,), (3,)),
                 StopRule(3, 3, "behind", (2, 5), (4, 5))):
        assert played(cand.to_json()) == parse_bot(cand.bot_text())
    assert dict(played({"kind": "threshold", "feature": "tokens", "op": "<=", "threshold": 4})
                .knobs)["stop-at"] == 5
    for bad, message in [
        ({"kind": "threshold", "feature": "tokens", "op": ">=", "threshold": 2}, "threshold on"),
        ({"kind": "threshold", "feature": "deck", "op": "<=", "threshold": 2}, "threshold on"),
        ({"kind": "threshold", "feature": "tokens", "op": "<=", "threshold": 2.5}, "whole"),
        ({"kind": "banded", "feature": "tokens", "op": "<=", "thresholds": [2, 3],
          "band_feature": "bonus", "cuts": [2]}, "one cut, at 1"),
        ({"kind": "list", "clauses": [], "default_act": True}, "threshold on"),
    ]:
        with pytest.raises(UserError, match=message):
            played(bad)
