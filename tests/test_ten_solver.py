"""Ten: the exact expectimax solver against hand derivations, brute force and Monte Carlo."""
import json
from functools import lru_cache

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.games.ten.best import best
from analyzer.games.ten.exact import (KIND_CARDS, KIND_OPTIMAL, KIND_TOTAL, Model, TenPolicy,
                                      solve)
from analyzer.games.ten.play import (NSTAT, make_job, paired_stats, policy_stats, simulate,
                                     thresholds)
from analyzer.games.ten.rules import TenRules, TurnState, ValueModel, load_deck, turn_state
from analyzer.runner import RunSpec, run

RULES = TenRules()
SPEC = load_deck()
Z = 5.0  # Monte Carlo tolerance in standard errors


def _pile(**counts):
    """avail tuple from keyword counts: n5=1 → one number 5, c3=2 → two currency 3."""
    avail = [0] * 14
    for k, v in counts.items():
        avail[int(k[1:]) - 1 + (9 if k[0] == "c" else 0)] = v
    return tuple(avail)


# ----------------------------------------------------------------------------- hand derivations

def test_hand_draw_case():
    # Tableau r5 (N=5, one number card); pile {5, 9}. Draw: ½ → 9, T = 14 bust: a bust token
    # = 3 × 0.25 = 0.75. ½ → 5, T = 10, two cards; then pile {9}: stop 2 vs draw (bust) 0.75,
    # so 2. D = ½·0.75 + ½·2 = 1.375 > stop 1 → draw by 0.375.
    m = Model(TurnState(_pile(n5=1, n9=1), 0, 5, 0, 1, 1), RULES, ValueModel())
    b = best(m)
    assert b["ev_stop"] == 1.0 and b["ev_draw"] == pytest.approx(1.375)
    assert b["recommendation"] == "draw" and b["margin"] == pytest.approx(0.375)


def test_hand_stop_case_with_wilds():
    # Tableau r5,r1 (N=6, two cards); pile {5, 9} plus 2 wilds. Without wilds every draw busts:
    # D0 = 0.75 < stop 2. A wild (prob 2/4) returns to the same state where stopping is best (2):
    # ev_draw = ½·2 + ½·0.75 = 1.375; recommendation stop-numbers by 0.625.
    m = Model(TurnState(_pile(n5=1, n9=1), 2, 6, 0, 2, 2), RULES, ValueModel())
    b = best(m)
    assert b["ev_draw"] == pytest.approx(1.375) and b["ev_stop"] == 2.0
    assert b["recommendation"] == "stop-numbers" and b["margin"] == pytest.approx(0.625)


def test_hand_currency_and_cap():
    # Tableau $5,$4 (C = 9); pile {$3}. Stop currency 9 × 0.25 = 2.25; drawing busts (C = 12):
    # 0.75. Holding 8 tokens the cap leaves room for 2: 0.5 < 0.75 → draw.
    st0 = TurnState(_pile(c3=1), 0, 0, 9, 0, 2)
    assert best(Model(st0, RULES, ValueModel()))["recommendation"] == "stop-currency"
    b = best(Model(st0, RULES, ValueModel(), tokens_held=8))
    assert b["ev_stop_currency"] == pytest.approx(0.5) and b["recommendation"] == "draw"


def test_hand_either():
    # Tableau r1; pile {$1}: stop now = 1 card = 1; draw → C = 1, then stop: numbers 1 vs
    # currency 0.25 → 1. Equal → "either".
    b = best(Model(TurnState(_pile(c1=1), 0, 1, 0, 1, 1), RULES, ValueModel()))
    assert b["recommendation"] == "either" and b["margin"] < 1e-9


def test_opponent_cost():
    # Tableau r3,$2 with opp = 0.1 and 4 players: stopping with numbers gives opponents 2 tokens
    # each: 1 − 3 × 0.1 × 2 = 0.4; currency 0.5. Pile {$1}: draw → C = 3: max(1 − 0.9, 0.75).
    b = best(Model(TurnState(_pile(c1=1), 0, 3, 2, 1, 2), RULES,
                   ValueModel(opp=0.1), players=4))
    assert b["ev_stop_numbers"] == pytest.approx(0.4) and b["ev_stop_currency"] == 0.5
    assert b["ev_draw"] == pytest.approx(0.75) and b["recommendation"] == "draw"


def test_opponent_cost_under_a_small_token_cap():
    # House rule token_cap = 2: the opponents gain min(C, 2) tokens each. Tableau r3,$5 (C = 5)
    # with opp = 0.1 and 4 players: numbers 1 − 3 × 0.1 × 2 = 0.4 (uncapped it would be −0.5);
    # currency min(5, 2) × 0.25 = 0.5. Pile {$1}: drawing → C = 6, the same rewards: 0.5.
    rules = TenRules(token_cap=2)
    b = best(Model(TurnState(_pile(c1=1), 0, 3, 5, 1, 2), rules, ValueModel(opp=0.1),
                   players=4))
    assert b["ev_stop_numbers"] == pytest.approx(0.4)
    assert b["ev_stop_currency"] == pytest.approx(0.5)
    assert b["ev_draw"] == pytest.approx(0.5)
    # a number bust pays the capped cost too: tableau r9,$5 (T = 4), pile {9}: T = 13 busts:
    # bust token 0.75 − 3 × 0.1 × min(5, 2) = 0.15 (uncapped −0.75)
    b2 = best(Model(TurnState(_pile(n9=1), 0, 9, 5, 1, 2), rules, ValueModel(opp=0.1),
                    players=4))
    assert b2["ev_draw"] == pytest.approx(0.15)


# --------------------------------------------------------------------- brute force (independent)

VALS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5]


def _brute(state, rules, vm, players, held):
    """Plain recursion over the explicit pile, wilds drawn as cards (no state reduction)."""
    card, token, bustv = vm.card, vm.token, vm.bust * vm.token
    oppc, cap, room = vm.opp * (players - 1), rules.token_cap, rules.token_cap - held

    @lru_cache(maxsize=None)
    def V(rem, w, N, C, n, forced):
        S = max(card * n - oppc * min(C, cap), token * min(C, room))
        R = sum(rem) + w
        if R == 0:
            return S
        D = w / R * V(rem, w - 1, N, C, n, False) if w else 0.0
        for i, r in enumerate(rem):
            if r == 0:
                continue
            nxt = rem[:i] + (r - 1,) + rem[i + 1:]
            if i < 9:
                if N + VALS[i] - C >= rules.bust_at:
                    D += r / R * (bustv - oppc * min(C, cap))
                else:
                    D += r / R * V(nxt, w, N + VALS[i], C, n + 1, False)
            elif C + VALS[i] >= rules.currency_bust_at:
                D += r / R * bustv
            else:
                D += r / R * V(nxt, w, N, C + VALS[i], n, False)
        return D if forced else max(S, D)

    s = state
    return (V(s.avail, s.wilds, s.N, s.C, s.n_numbers, True),
            V(s.avail, s.wilds, s.N, s.C, s.n_numbers, s.n_tableau == 0))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 13), min_size=1, max_size=9),
       st.integers(0, 3), st.integers(0, 9), st.integers(0, 9), st.integers(0, 3),
       st.sampled_from([ValueModel(), ValueModel(card=1, token=0.5, bust=1, opp=0.05)]),
       st.integers(0, 10))
def test_solver_matches_brute_force(types, wilds, N, C, extra, vm, held):
    avail = [types.count(i) for i in range(14)]  # a small pile: these card types, with repeats
    rules = TenRules(bust_at=9, currency_bust_at=8)  # small limits keep the brute force tiny
    if N - C >= rules.bust_at or C >= rules.currency_bust_at:
        return
    n = (1 if N else 0) + (extra if N >= 2 * extra else 0)
    tab = n + (1 if C else 0)
    state = TurnState(tuple(avail), wilds, N, C, n, tab)
    m = Model(state, rules, vm, players=3, tokens_held=held)
    b = best(m)
    draw, value = _brute(state, rules, vm, 3, held)
    assert b["ev_draw"] == pytest.approx(draw, abs=1e-12)
    assert b["value"] == pytest.approx(value, abs=1e-12)


# ----------------------------------------------------------------------------- exact vs MC

FRESH = Model(turn_state(RULES, SPEC), RULES, ValueModel())
PARTIAL = Model(turn_state(RULES, SPEC, "r4,$2", "r9,b9,g9,o9,$1,$1,r#,**,b6"), RULES,
                ValueModel(opp=0.2), players=3, tokens_held=7)
POLICIES = [TenPolicy(KIND_OPTIMAL), TenPolicy(KIND_TOTAL, 7), TenPolicy(KIND_CARDS, 3),
            TenPolicy(KIND_TOTAL, -1)]


@pytest.mark.parametrize("model", [FRESH, PARTIAL], ids=["fresh", "partial"])
def test_exact_matches_monte_carlo(model):
    sol = solve(model, POLICIES)
    res = run(make_job(model, POLICIES, sol), 60_000, 20261130)
    for p in range(len(POLICIES)):
        v = policy_stats(res.sums, p, res.n, sol.value(p))["mean_value"]
        assert abs(v.z_from_exact()) < Z, (POLICIES[p].label, v)
        if p:
            d = paired_stats(res.sums, len(POLICIES), p, res.n, sol.value(0) - sol.value(p))
            assert abs(d.z_from_exact()) < Z


def test_optimal_dominates_thresholds():
    # Exactly: no threshold policy beats the optimum; by MC: no gap below −5 SE.
    for by in ("total", "cards"):
        res = thresholds(FRESH, by, RunSpec(30_000, 7), top=10)
        opt = res["optimal_value_exact"]
        for row in res["rows"][1:]:
            assert row["mean_value"].exact_value <= opt + 1e-12
            gap = row["optimal_minus_this"]
            assert gap.estimate > -Z * gap.se


def test_deterministic_across_threads():
    job = make_job(FRESH, POLICIES[:2])
    saved = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a = run(job, 40_000, 99).sums
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        b = run(job, 40_000, 99).sums
    finally:
        numba.set_num_threads(saved)
    assert np.array_equal(a, b)


def test_common_random_numbers():
    # Policy A's sums are the same alone or beside B: each trial sees the same shuffle.
    alone = run(make_job(FRESH, [POLICIES[1]]), 20_000, 5).sums
    both = run(make_job(FRESH, POLICIES[1:3]), 20_000, 5).sums
    assert np.array_equal(alone[:NSTAT], both[:NSTAT])  # also: the K = 1 fast path = general


def test_simulate_result():
    out = simulate(PARTIAL, TenPolicy(KIND_OPTIMAL), [TenPolicy(KIND_TOTAL, 5)], RunSpec(20_000, 3))
    assert out["a"]["mean_value"].exact_value == pytest.approx(best(PARTIAL)["value"])
    assert out["turns_per_second"] > 0 and out["n"] == 20_000


# ---------------------------------------------------------------------------------------- CLI

def _cli(args, capsys):
    from analyzer.cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_cli_best_json(capsys):
    code, out, _ = _cli(["ten", "best", "--tableau", "r5,r4", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["exact"] is True
    assert d["recommendation"] in ("draw", "stop-numbers", "stop-currency", "either")
    assert d["margin"] == pytest.approx(abs(d["ev_draw"] - d["ev_stop"]))


def test_cli_simulate_json(capsys):
    code, out, err = _cli(["ten", "simulate", "--policy", "total:6", "--vs", "optimal", "-n",
                           "20000", "--seed", "11", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["seed"] == 11 and d["turns_per_second"] > 0
    v = d["a"]["mean_value"]
    assert set(v) >= {"estimate", "se", "ci_low", "ci_high", "n", "exact_value"}
    assert "difference_a_minus_b" in d and "verdict" in d


def test_cli_thresholds_writes_files(capsys, tmp_path):
    code, out, err = _cli(["ten", "thresholds", "--by", "cards", "-n", "5000", "--seed", "2",
                           "--out", str(tmp_path), "--chart", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and len(d["rows"]) == 11
    for ext in ("csv", "md", "png", "svg"):
        assert (tmp_path / f"ten_thresholds_cards.{ext}").stat().st_size > 0


def test_cli_thresholds_writes_only_with_out(capsys, tmp_path, monkeypatch):
    # Without --out nothing is written (not even into reports/out); --chart needs --out.
    monkeypatch.chdir(tmp_path)
    code, out, _ = _cli(["ten", "thresholds", "-n", "2000", "--seed", "2", "--json"], capsys)
    assert code == 0 and json.loads(out)["files"] == [] and not any(tmp_path.iterdir())
    code, _, err = _cli(["ten", "thresholds", "-n", "2000", "--chart"], capsys)
    assert code == 2 and "--out" in err


def test_cli_simulate_several_vs(capsys):
    code, out, _ = _cli(["ten", "simulate", "--policy", "optimal", "--vs", "total:6", "--vs",
                         "cards:3", "-n", "5000", "--seed", "4", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["policies"] == ["optimal", "total:6", "cards:3"]
    assert d["c"]["policy"] == "cards:3" and set(d["verdicts"]) == {"b", "c"}
    # optimal is never worse than a threshold rule in exact value
    assert d["difference_a_minus_c"]["exact_value"] >= 0


def test_state_limit(monkeypatch):
    # Past the state limit the exact solver refuses with a UserError; threshold policies are
    # still simulated (without an exact value), the optimal policy is not.
    import analyzer.games.ten.exact as tp
    from analyzer.errors import UserError

    monkeypatch.setattr(tp, "MAX_CELLS", 1000)
    with pytest.raises(UserError, match="1,000 value cells"):
        best(FRESH)
    out = simulate(FRESH, TenPolicy(KIND_TOTAL, 7), [], RunSpec(5_000, 1))
    assert out["a"]["mean_value"].exact_value is None
    with pytest.raises(UserError):
        simulate(FRESH, TenPolicy(KIND_OPTIMAL), [], RunSpec(5_000, 1))


def test_report_section(tmp_path):
    from analyzer.games.ten.report import report_section

    md = report_section(tmp_path, 3, quick=True)
    assert md.startswith("## Ten") and "seed 3" in md and "n = 100,000" in md
    for name in ("ten_thresholds_total.csv", "ten_thresholds_cards.png",
                 "ten_rule_sensitivity.csv"):
        assert (tmp_path / name).stat().st_size > 0
