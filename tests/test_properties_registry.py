"""The reusable property checks of tests/properties.py applied to every registered game.

Each game contributes a small adapter below (what its exact solver and its kernels provide); a
game added to the registry without an adapter fails ``test_every_game_has_property_cases``, and a
property a game cannot provide is listed in ``NOT_APPLICABLE`` with the reason.
"""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.games import REGISTRY
from tests.properties import (check_distribution, check_free_option, check_mc_vs_exact,
                              check_policy_evaluation)

PROPS = ("distribution", "policy_evaluation", "free_option", "mc_vs_exact")


# ---------------------------------------------------------------- pig
def _pig_small():
    from analyzer.games.pig.exact import solve
    from analyzer.games.pig.rules import PigRules

    rules = PigRules(goal=30)
    P, roll, *_ = solve(rules)
    return rules, P, roll


def pig_distribution():
    from analyzer.games.pig.exact import turn_stats
    from analyzer.games.pig.rules import PigRules

    rules, P, _ = _pig_small()
    check_distribution("pig P", P.ravel(), complete=False)
    for h in (2, 20, 25):
        st = turn_stats(h, PigRules())
        check_distribution(f"pig hold:{h} turn", [st["p_bust"], *st["distribution"].values()])


def pig_policy_evaluation():
    from tests.test_pig_exact import evaluate_pair

    rules, P, roll = _pig_small()
    A, _B = evaluate_pair(rules.goal, rules.faces, rules.bust_faces, roll, 0, roll, 0)
    check_policy_evaluation("pig optimal", A, P[:, :, 0])


def pig_free_option():
    from tests.test_pig_exact import evaluate_pair

    rules, P, roll = _pig_small()
    for h in (5, 10, 20):  # hold:H gives up options; against optimal it cannot do better
        A, _ = evaluate_pair(rules.goal, rules.faces, rules.bust_faces, roll, h, roll, 0)
        check_free_option(f"pig optimal vs hold:{h}", P[0, 0, 0], A[0, 0])


def pig_mc_vs_exact():
    from analyzer.games.pig.play import make_job
    from analyzer.games.pig.lineup import parse_policy_pair
    from analyzer.runner import run
    from analyzer.stats import wilson

    rules, P, _ = _pig_small()
    res = run(make_job(parse_policy_pair("optimal,optimal"), rules), 60_000, 41, progress=False)
    check_mc_vs_exact("pig optimal", wilson(res.sums[0], res.n).with_exact(P[0, 0, 0]))


# ---------------------------------------------------------------- trash pandas
def tp_distribution():
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.play import PolicyEvaluator, build_tables
    from analyzer.games.trash_pandas.lineup import parse_policy

    s = TurnSolver()
    for pol in ("optimal", "stop-at:3", "stop-at:6"):
        out = PolicyEvaluator(build_tables(parse_policy(pol), s, 1, 1, 1), s).turn()
        check_distribution(f"trash-pandas {pol}", [out["bust_rate"], out["p_all_six"]],
                           complete=False)
        # stop-at:6 ends a main turn by a bust, by collecting six, or with a Nanners stop
        assert out["bust_rate"] + out["p_all_six"] <= 1 + 1e-12


def tp_policy_evaluation():
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.play import PolicyEvaluator, build_tables
    from analyzer.games.trash_pandas.lineup import parse_policy

    s = TurnSolver()
    for cards in ((0, 0, 0), (1, 1, 1), (0, 2, 1)):
        ev = PolicyEvaluator(build_tables(parse_policy("optimal"), s, *cards), s).turn()
        check_policy_evaluation(f"trash-pandas {cards}", ev["mean_value"], s.turn_value(*cards))


def tp_free_option():
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.rules import TrashPandasRules, parse_values

    s = TurnSolver(parse_values("card=0"))
    for less, more in (((0, 0, 0), (1, 0, 0)), ((0, 0, 0), (0, 1, 0)), ((0, 0, 0), (0, 0, 1)),
                       ((1, 1, 0), (1, 1, 1))):
        check_free_option(f"trash-pandas {less}->{more}", s.turn_value(*more),
                          s.turn_value(*less))
    with_bonus = TurnSolver(rules=TrashPandasRules(bonus_turn=True)).turn_value(0, 0, 0)
    without = TurnSolver(rules=TrashPandasRules(bonus_turn=False)).turn_value(0, 0, 0)
    check_free_option("trash-pandas bonus turn", with_bonus, without)


def tp_mc_vs_exact():
    from analyzer.games.trash_pandas.play import simulate
    from analyzer.games.trash_pandas.lineup import parse_policy
    from analyzer.games.trash_pandas.rules import TrashPandasRules, ValueModel
    from analyzer.runner import RunSpec

    out = simulate(parse_policy("optimal"), ValueModel(), TrashPandasRules(bonus_cap=2),
                   (1, 0, 1), RunSpec(100_000, 43, progress=False))
    for key in ("bust_rate", "mean_tokens", "p_all_six", "mean_value"):
        check_mc_vs_exact(f"trash-pandas {key}", out[key])


# ---------------------------------------------------------------- ten
def _ten_model():
    from analyzer.games.ten.exact import Model
    from analyzer.games.ten.rules import TenRules, ValueModel, load_deck, turn_state

    rules = TenRules()
    return Model(turn_state(rules, load_deck(), "r4,$2", "r9,b9,g9,o9,$1,$1,r#,**,b6"), rules,
                 ValueModel(opp=0.2), players=3, tokens_held=7)


def _ten_policies():
    from analyzer.games.ten.exact import KIND_CARDS, KIND_OPTIMAL, KIND_TOTAL, TenPolicy

    return [TenPolicy(KIND_OPTIMAL), TenPolicy(KIND_TOTAL, 5), TenPolicy(KIND_TOTAL, 8),
            TenPolicy(KIND_CARDS, 2), TenPolicy(KIND_CARDS, 4)]


def ten_distribution():
    from analyzer.games.ten.exact import odds

    m = _ten_model()
    out = odds(m.state, m.rules)
    probs = [v for k, v in out.items() if k.startswith("p_") and isinstance(v, float)]
    check_distribution("ten odds", probs, complete=False)


def ten_free_option():
    from analyzer.games.ten.exact import solve

    sol = solve(_ten_model(), _ten_policies())
    for p in range(1, len(sol.policies)):
        check_free_option(f"ten optimal vs {sol.policies[p].label}", sol.value(0), sol.value(p))


def ten_mc_vs_exact():
    from analyzer.games.ten.exact import solve
    from analyzer.games.ten.play import make_job, policy_stats
    from analyzer.runner import run

    m = _ten_model()
    pols = _ten_policies()
    sol = solve(m, pols)
    res = run(make_job(m, pols, sol), 40_000, 47, progress=False)
    for p in range(len(pols)):
        check_mc_vs_exact(f"ten {pols[p].label}",
                          policy_stats(res.sums, p, res.n, sol.value(p))["mean_value"])


# ---------------------------------------------------------------- the other games
def canasta_distribution():
    from analyzer.games.canasta.exact import exact_on_deal
    from analyzer.games.canasta.rules import CanastaRules

    r = CanastaRules(hand_size=11)
    ps = [exact_on_deal(s, r) for s in (0, 1500, 3000)]
    check_distribution("canasta first meld on deal", [p for p in ps if p is not None],
                       complete=False)
    assert ps == sorted(ps, reverse=True) or None in ps  # a higher requirement is never easier


CASES = {
    "pig": {"distribution": pig_distribution, "policy_evaluation": pig_policy_evaluation,
            "free_option": pig_free_option, "mc_vs_exact": pig_mc_vs_exact},
    "trash-pandas": {"distribution": tp_distribution, "policy_evaluation": tp_policy_evaluation,
                     "free_option": tp_free_option, "mc_vs_exact": tp_mc_vs_exact},
    "ten": {"distribution": ten_distribution, "free_option": ten_free_option,
            "mc_vs_exact": ten_mc_vs_exact},
    "canasta": {"distribution": canasta_distribution},
    "gostop": {},
    "magdagdon": {},
}
NOT_APPLICABLE = {
    ("ten", "policy_evaluation"): "the optimal policy is evaluated by the same sweep (mc_vs_exact "
                                  "checks it through the kernel instead)",
    ("canasta", "policy_evaluation"): "no whole-game solver (exact only on the deal)",
    ("canasta", "free_option"): "no whole-game solver",
    ("canasta", "mc_vs_exact"): "covered by tests/test_canasta.py (deal odds vs simulation)",
    ("gostop", "distribution"): "exact only by enumeration of endgames (tests/test_gostop_decide)",
    ("gostop", "policy_evaluation"): "no solver",
    ("gostop", "free_option"): "no solver",
    ("gostop", "mc_vs_exact"): "covered by tests/test_gostop_decide.py",
    ("magdagdon", "distribution"): "covered by tests/test_magdagdon.py (exact odds)",
    ("magdagdon", "policy_evaluation"): "no whole-game solver",
    ("magdagdon", "free_option"): "no whole-game solver",
    ("magdagdon", "mc_vs_exact"): "covered by tests/test_magdagdon_sim.py",
}


def test_every_game_has_property_cases():
    assert set(CASES) == set(REGISTRY), "add the new game's adapters to CASES"
    for key, props in CASES.items():
        for prop in PROPS:
            assert prop in props or (key, prop) in NOT_APPLICABLE, (key, prop)


@pytest.mark.parametrize("key,prop", [(k, p) for k in CASES for p in PROPS if p in CASES[k]])
def test_property(key, prop):
    CASES[key][prop]()
