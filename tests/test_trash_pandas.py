"""Trash Pandas: exact values by hand and by an independent brute force, MC vs exact, scoring."""
import itertools
from fractions import Fraction

import numba
import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.games.trash_pandas.exact import TurnSolver
from analyzer.games.trash_pandas.play import PolicyEvaluator, build_tables, make_job, simulate
from analyzer.games.trash_pandas.lineup import parse_policy
from analyzer.games.trash_pandas.rules import (TrashPandasRules, ValueModel, parse_held,
                                               parse_values)
from analyzer.games.trash_pandas.score import load_deck, majority_points, parse_stash, score
from analyzer.runner import RunSpec, run

H = parse_held


# ---------------------------------------------------------------- bust odds
@pytest.mark.parametrize("k", range(6))
def test_bust_odds_k_over_6(k):
    held = ",".join(["trash", "trees", "trash-tree", "paw", "mask"][:k]) or None
    q = TurnSolver().query(H(held), 0, 0, 0, False)
    assert q["p_bust_next"] == pytest.approx(k / 6)
    assert q["p_bust_next_after_cards"] == pytest.approx(k / 6)


def test_bust_odds_after_cards():
    s = TurnSolver()
    q = s.query(H("trash,trees,paw"), 2, 0, 0, False)
    assert q["p_bust_next_after_cards"] == pytest.approx((3 / 6) ** 3)
    assert s.query(H("trash,trees,paw"), 2, 1, 0, False)["p_bust_next_after_cards"] == 0.0


def test_reaching_all_six_by_always_rolling():
    # 6!/6^6 = 5/324 (rules page); also the reach-k formula for stop-at:k, no cards.
    s = TurnSolver()
    for k in range(1, 7):
        ev = PolicyEvaluator(build_tables(parse_policy(f"stop-at:{k}"), s, 0, 0, 0), s).turn()
        reach = Fraction(1)
        for i in range(k):
            reach *= Fraction(6 - i, 6)
        assert ev["bust_rate"] == pytest.approx(float(1 - reach), abs=1e-12)
        if k == 6:
            assert ev["p_all_six"] == pytest.approx(5 / 324, abs=1e-15)


# ---------------------------------------------------------------- hand-derived values
def test_stop_or_roll_hand_values():
    """Held {trash, trees} (stop value 2+2 = 4), default weights.

    No cards: a bust (2/6) is worth 1; a new face (4/6) gives a 3-token set worth 5 at which
    stopping is best (rolling on: 3/6·1 + 3/6·6 = 3.5 < 5), so roll = 2/6 + 4/6·5 = 11/3.
    One Blammo!: a bust → max(1, 11/3 − 1) = 8/3; a new face → 5 (rolling on is worth ≤ 4.25),
    so roll = 2/6·8/3 + 4/6·5 = 38/9. One Nanners: a bust → stop 4 − 1 = 3, so
    roll = 2/6·3 + 4/6·5 = 13/3. One MMM Pie!: stop = 4 + (2 − 1) = 5.
    """
    s = TurnSolver()
    h = H("trash,trees")
    q = s.query(h, 0, 0, 0, False)
    assert q["ev_stop"] == 4 and q["ev_roll"] == pytest.approx(11 / 3, abs=1e-12)
    assert q["recommendation"] == "stop" and q["margin"] == pytest.approx(1 / 3)
    assert s.query(h, 1, 0, 0, False)["ev_roll"] == pytest.approx(38 / 9, abs=1e-12)
    assert s.query(h, 0, 1, 0, False)["ev_roll"] == pytest.approx(13 / 3, abs=1e-12)
    assert s.query(h, 0, 0, 1, False)["ev_stop"] == pytest.approx(5, abs=1e-12)


def test_recycle_value_and_five_tokens():
    s = TurnSolver()
    # recycle alone resolves as the best token not held: trash or trees (2).
    assert s.query(H("recycle"), 0, 0, 0, False)["ev_stop"] == 2
    # {trash, trees, trash-tree, paw, mask} = 7; rolling: 5/6 bust (1) + 1/6 (7 + bonus turn),
    # and the bonus turn from nothing with no cards is worth the same as a whole turn, V0.
    q = s.query(H("trash,trees,trash-tree,paw,mask"), 0, 0, 0, False)
    v0 = s.turn_value(0, 0, 0)
    assert q["ev_roll"] == pytest.approx(5 / 6 + (7 + v0) / 6, abs=1e-12)
    # V0 = 107/36: one token t, then roll once more and stop (hand: see policy table).
    assert v0 == pytest.approx(107 / 36, abs=1e-12)


def _brute_no_cards(values: ValueModel, bonus_cap=3):
    """An independent exhaustive search over roll sequences, no cards (not memoised)."""
    base = [2 * values.draw, 2 * values.stash, max(values.draw, values.stash), values.steal,
            values.mask]

    def resolve(held, bonus):
        total = 0.0
        for t in held:
            if t < 5:
                total += base[t]
            elif not (len(held) == 6 and not bonus):
                total += max([base[u] for u in range(5) if u not in held], default=0.0)
        return total

    def best(held, bonus):  # decision point after taking a token
        cap = bonus_cap if bonus else 6
        if not bonus and len(held) == 6:
            return resolve(held, False) + roll(frozenset(), True)
        if len(held) >= cap:
            return resolve(held, bonus)
        return max(resolve(held, bonus), roll(held, bonus))

    def roll(held, bonus):
        total = 0.0
        for f in range(6):
            total += values.bust if f in held else best(held | {f}, bonus)
        return total / 6

    return lambda held: (resolve(held, False), roll(held, False))


@pytest.mark.parametrize("weights,cap", [("", 3), ("draw=1.5,stash=0.5,steal=2,mask=0.25,bust=0.5", 3),
                                         ("", 1), ("draw=1.5,stash=0.5,steal=2,mask=0.25", 2),
                                         ("", 5)])
def test_solver_matches_independent_brute_force(weights, cap):
    """Every held set, at the default bonus cap and at caps 1, 2 and 5 (the bonus turn's branch
    is reached from every set of five tokens, so a wrong cap changes their roll values)."""
    values = parse_values(weights)
    brute = _brute_no_cards(values, bonus_cap=cap)
    s = TurnSolver(values, TrashPandasRules(bonus_cap=cap))
    for k in range(0, 6):
        for combo in itertools.combinations(range(6), k):
            mask = sum(1 << t for t in combo)
            stop_v, roll_v = brute(frozenset(combo))
            q = s.query(mask, 0, 0, 0, False)
            assert q["ev_stop"] == pytest.approx(stop_v, abs=1e-12)
            assert q["ev_roll"] == pytest.approx(roll_v, abs=1e-12)


def test_optimal_policy_evaluates_to_solver_value_and_beats_rules_of_thumb():
    s = TurnSolver()
    for cards in [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (2, 1, 1)]:
        opt = PolicyEvaluator(build_tables(parse_policy("optimal"), s, *cards), s).turn()
        assert opt["mean_value"] == pytest.approx(s.turn_value(*cards), abs=1e-12)
        for k in range(1, 7):
            other = PolicyEvaluator(build_tables(parse_policy(f"stop-at:{k}"), s, *cards),
                                    s).turn()
            assert other["mean_value"] <= opt["mean_value"] + 1e-12


def test_more_cards_never_hurt_when_cards_are_free():
    s = TurnSolver(parse_values("card=0"))
    assert s.turn_value(1, 0, 0) >= s.turn_value(0, 0, 0)
    assert s.turn_value(1, 1, 1) >= s.turn_value(1, 1, 0)


# ---------------------------------------------------------------- Monte Carlo vs exact
@pytest.mark.parametrize("policy,cards", [("stop-at:6", (0, 0, 0)), ("optimal", (0, 0, 0)),
                                          ("optimal", (2, 1, 1)), ("stop-at:4", (1, 1, 2))])
def test_monte_carlo_within_5_se_of_exact(policy, cards):
    out = simulate(parse_policy(policy), ValueModel(), TrashPandasRules(), cards,
                   RunSpec(300_000, 17, progress=False))
    for key in ("bust_rate", "mean_tokens", "p_all_six", "mean_value"):
        stat = out[key]
        assert abs(stat.estimate - stat.exact_value) <= 5 * stat.se + 1e-12, key


def test_no_bonus_turn_rule():
    r = TrashPandasRules(bonus_turn=False)
    out = simulate(parse_policy("stop-at:6"), ValueModel(), r, (0, 0, 0),
                   RunSpec(200_000, 3, progress=False))
    assert out["p_bonus_bust"].estimate == 0.0
    v = out["mean_value"]
    # Without the bonus turn: value = P(bust)·1 + P(six)·7 exactly.
    assert v.exact_value == pytest.approx((1 - 5 / 324) * 1 + 5 / 324 * 7)
    assert abs(v.estimate - v.exact_value) <= 5 * v.se


@pytest.mark.parametrize("cards", [(0, 0, 0), (1, 1, 1)])
def test_same_seed_same_numbers_on_1_and_2_threads(cards):
    s = TurnSolver()
    job = make_job(build_tables(parse_policy("optimal"), s, *cards), s)
    numba.set_num_threads(1)
    a = run(job, 150_001, 5, progress=False)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    b = run(job, 150_001, 5, progress=False)
    assert np.array_equal(a.sums, b.sums)


# ---------------------------------------------------------------- scoring
@pytest.mark.parametrize("stash,expected", [
    ("A:feesh=3;B:feesh=2;C:feesh=1", {"A": 5, "B": 3, "C": 1}),
    ("A:feesh=3;B:feesh=3;C:feesh=1", {"A": 4, "B": 4, "C": 3}),
    ("A:feesh=2;B:feesh=2;C:feesh=2;D:feesh=0", {"A": 4, "B": 4, "C": 4, "D": 0}),
])
def test_public_scoring_examples(stash, expected):
    d = load_deck()
    assert score(parse_stash(stash, d), d)["scores"] == expected


def test_scoring_blammo_ties_and_fourth_place():
    d = load_deck()
    # Nanners 4/2/1: counts 3,2,2 → A 4; B, C tied 2nd → 2−1 = 1 each.
    # Blammo! 1 point per card. MMM Pie! 6/2/1: E alone → 6.
    st = "A:nanners=3,blammo=1;B:nanners=2;C:nanners=2,blammo=3;E:pie=1"
    res = score(parse_stash(st, d), d)
    assert res["scores"] == {"A": 5, "B": 1, "C": 4, "E": 6}
    # Dense places after a tie: 3,3,1 → the lone 1 is 2nd (not 3rd).
    assert majority_points([3, 3, 1], (4, 2, 1)) == [3, 3, 2]
    # Four distinct counts: the 4th place scores 0; absent players score 0.
    assert majority_points([4, 3, 2, 1, 0], (4, 2, 1)) == [4, 2, 1, 0, 0]
    # A tied group in 3rd place with p3 = 1 scores max(1 − 1, 0) = 0.
    assert majority_points([3, 2, 1, 1], (5, 3, 1)) == [5, 3, 0, 0]


def test_scoring_tie_breaks():
    d = load_deck()
    # A and B both 4 points; A has 2 distinct types stashed, B only 1.
    res = score(parse_stash("A:shiny=1,doggo=1;B:yumyum=1", d), d)
    assert res["scores"] == {"A": 4, "B": 4} and res["winners"] == ["A"]


@pytest.mark.parametrize("stash,needle", [
    ("A:feesh=8", "deck has 7"),
    ("A:feesh=4;B:feesh=4", "deck has 7"),
    ("A:fish=1", "unknown card"),
    ("A:feesh=-1", "negative"),
    ("A:feesh=1;A:shiny=1", "listed twice"),
])
def test_scoring_bad_input(stash, needle):
    with pytest.raises(UserError, match=needle):
        parse_stash(stash, load_deck())


# ---------------------------------------------------------------- CLI
def test_cli_odds_json(cli):
    out = cli("trash-pandas", "odds", "--held", "trash,trees", "--json", check_json=True)
    assert out["p_bust_next"] == pytest.approx(1 / 3)
    assert out["ev_stop"] == 4 and out["recommendation"] == "stop" and out["exact"] is True


def test_cli_simulate_json_has_statistics(cli):
    out = cli("trash-pandas", "simulate", "--policy", "stop-at:6", "--trials", "100000",
              "--seed", "9", "--json", check_json=True)
    assert out["seed"] == 9
    for key in ("bust_rate", "mean_tokens", "p_all_six", "mean_value"):
        assert set(out[key]) == {"estimate", "se", "ci_low", "ci_high", "n", "exact_value"}
        assert out[key]["n"] == 100000
    assert out["p_all_six"]["exact_value"] == pytest.approx(5 / 324)
    assert out["turns_per_second"] > 0


def test_cli_same_seed_same_json_across_thread_counts(tmp_path):
    import json
    import os
    import subprocess
    import sys

    outs = []
    for threads in ("1", "2"):
        env = dict(os.environ, NUMBA_NUM_THREADS=threads)
        p = subprocess.run([sys.executable, "-m", "analyzer", "trash-pandas", "simulate",
                            "--trials", "300000", "--blammo", "1", "--seed", "4", "--json"],
                           capture_output=True, text=True, env=env, check=True)
        d = json.loads(p.stdout)
        d.pop("turns_per_second")
        outs.append(d)
    assert outs[0] == outs[1]


@pytest.mark.parametrize("args,needle", [
    (["--held", "trash,banana"], "unknown token 'banana'"),
    (["--held", "paw,paw"], "listed twice"),
    (["--blammo", "-1"], "non-negative"),
    (["--set", "bonus_cap"], "key=value"),
    (["--set", "colour=red"], "unknown rule 'colour'"),
    (["--rules", "/nonexistent/house.toml"], "cannot read"),
    (["--value", "draw=x"], "must be a number"),
])
def test_cli_bad_input_one_line_exit_2(cli, args, needle):
    code, out, err = cli("trash-pandas", "odds", *args)
    assert code == 2 and out == ""
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


def test_cli_turns_zero_is_an_error(cli):
    code, out, err = cli("trash-pandas", "simulate", "--trials", "0")
    assert code == 2 and "--trials" in err and "Traceback" not in err


@pytest.mark.parametrize("cmd", [["odds", "--held", "trash"], ["policy"],
                                 ["simulate", "--trials", "1000", "--seed", "1"]])
def test_cli_consolation_optional_says_it_has_no_turn_level_effect(cli, cmd):
    # consolation = optional only matters in the whole game (issue 11, item 7): the turn-level
    # commands accept it but say once, on stderr, that it changes nothing there.
    code, out, err = cli("trash-pandas", *cmd, "--set", "consolation=optional", "--json")
    assert code == 0, err
    json_out = __import__("json").loads(out)  # stdout stays pure JSON
    assert json_out
    lines = [ln for ln in err.splitlines() if "consolation" in ln]
    assert len(lines) == 1 and "no effect" in lines[0]
    code, _, err = cli("trash-pandas", *cmd, "--json")
    assert code == 0 and "consolation" not in err
