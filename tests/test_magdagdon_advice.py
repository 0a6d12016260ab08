"""MAGDAGDON power knobs (kernels/magdagdon: which power, when) and their advice.

The knobs at their defaults play exactly the bots' games; each knob changes what it says and
nothing else; policies carry knobs (``greedy:max_cost=10,…``) and rule files; the race over a
few power rules agrees with a fresh stream (Monte Carlo: PUSHLUCK_ADVICE_MC=1)."""
import os

import numpy as np
import pytest

from analyzer.errors import UserError

POWERS_USED = 8   # kernels/magdagdon/blocks.py games_blocks: Σ powers used (policy A)


def _games(G, seed=5, blocks=4, per=64, G2=None):
    from analyzer.games.magdagdon.play import score_range
    from analyzer.games.magdagdon.rules import MagdagdonRules, difficulty
    from analyzer.rng import block_keys
    from kernels.magdagdon import P_GREEDY, games_blocks

    r = MagdagdonRules()
    lo, hi = score_range(r, difficulty(r, "peaceful"))
    init = np.zeros(16, dtype=np.int8)
    return np.asarray(games_blocks(block_keys(seed, 0, blocks), np.full(blocks, per, np.int64),
                                   P_GREEDY, 0, P_GREEDY, 0, G2 is not None, init, G,
                                   G if G2 is None else G2, lo, hi - lo + 1))


@pytest.fixture(scope="module")
def G():
    from analyzer.games.magdagdon.arrays import kernel_inputs
    from analyzer.games.magdagdon.rules import MagdagdonRules, difficulty

    r = MagdagdonRules()
    return kernel_inputs(r, difficulty(r, "peaceful"), book=True)


def test_default_knobs_play_the_bots_games_exactly(G):
    from analyzer.games.magdagdon.advice import default_rule
    from analyzer.games.magdagdon.arrays import CELL_VALUE, with_power_knobs
    from analyzer.games.magdagdon.rules import MagdagdonRules, difficulty

    r = MagdagdonRules()
    base = _games(G)
    assert np.array_equal(base, _games(with_power_knobs(G)))
    # the bots' rule as a family member: spend while the next penalty is at most 20 (< 15 + 7)
    bots = default_rule(r, difficulty(r, "peaceful"))
    assert bots.max_cost == 20 and r.ruin_penalty + CELL_VALUE == 22
    assert np.array_equal(base, _games(with_power_knobs(G, **bots.knobs())))
    assert base[:, POWERS_USED].sum() > 0


def test_each_knob_does_what_it_says(G):
    from analyzer.games.magdagdon.advice import NEVER, PowerRule
    from analyzer.games.magdagdon.arrays import with_power_knobs

    def used(rule):
        return _games(with_power_knobs(G, **rule.knobs()))[:, POWERS_USED].sum()

    assert used(PowerRule(NEVER)) == 0
    assert used(PowerRule(None, min_empty=17)) == 0          # never 17 empty cells on 4×4
    assert used(PowerRule(10)) < used(PowerRule(20)) <= used(PowerRule(None))
    # only ±1 spends no more than ±1-else-reroll: it skips the rolls no ±1 rescues
    assert used(PowerRule(None, which=1)) <= used(PowerRule(None, which=0))
    assert not np.array_equal(_games(with_power_knobs(G, **PowerRule(None, which=2).knobs())),
                              _games(with_power_knobs(G, **PowerRule(None).knobs())))


def test_paired_games_with_different_knobs_keep_each_sides_own_games(G):
    from analyzer.games.magdagdon.advice import NEVER, PowerRule
    from analyzer.games.magdagdon.arrays import with_power_knobs

    never = with_power_knobs(G, **PowerRule(NEVER).knobs())
    both = _games(G, G2=never)
    assert np.array_equal(both[:, :10], _games(G)[:, :10])
    assert np.array_equal(both[:, 10:20], _games(never)[:, :10])


def test_policies_carry_power_knobs_and_rule_files(tmp_path):
    import json

    from analyzer.games.magdagdon.advice import PowerRule
    from analyzer.games.magdagdon.lineup import parse_policy

    p = parse_policy("greedy:max-cost=10:min-empty=3:which=reroll")
    assert dict(p.power) == PowerRule(10, 3, 0, 2).knobs()
    assert parse_policy("greedy").power == ()
    # a knob left out keeps the bots' habit (their threshold stays in the rule arrays)
    assert dict(parse_policy("greedy:which=fix").power)["power_threshold"] is None
    f = tmp_path / "r.json"
    f.write_text(json.dumps({"game": "magdagdon", "rule": PowerRule(20, 0, 6, 1).to_json()}))
    assert dict(parse_policy(f"rule:{f}").power) == PowerRule(20, 0, 6, 1).knobs()
    for bad in ("greedy:colour=red", "greedy:max-cost=-3", "greedy:which=both", "max_cost=3"):
        with pytest.raises(UserError):
            parse_policy(bad)


def test_the_family_and_its_words():
    from analyzer.games.magdagdon.advice import NEVER, PowerRule, family
    from analyzer.games.magdagdon.rules import MagdagdonRules, difficulty

    r = MagdagdonRules()
    fam = family(difficulty(r, "peaceful"))
    assert len(fam) == len(set(fam)) == 118
    assert PowerRule(NEVER).complexity == 0 and PowerRule(None, which=2).complexity == 0
    assert PowerRule(20, 3, 0, 0).complexity == 5
    assert PowerRule(20, 3).words().startswith(
        "On a MAGDAGDON: If the next power's penalty is at least 21 points, accept the ruin.")
    assert len(family(difficulty(r, "survival"))) == 1 + 13 * 3


@pytest.mark.skipif(not os.environ.get("PUSHLUCK_ADVICE_MC"),
                    reason="Monte Carlo advice tests: set PUSHLUCK_ADVICE_MC=1")
def test_raced_power_losses_agree_with_a_fresh_stream():
    from analyzer.advice.race import race_policies
    from analyzer.games.magdagdon.advice import BLOCK, NEVER, MagdagdonRacer, PowerRule
    from analyzer.games.magdagdon.lineup import parse_policy
    from analyzer.games.magdagdon.rules import MagdagdonRules, difficulty

    r = MagdagdonRules()
    d = difficulty(r, "peaceful")
    fam = [PowerRule(20), PowerRule(NEVER), PowerRule(None, which=2)]
    runs = [race_policies(fam, fam, MagdagdonRacer(r, d, parse_policy("greedy"), s).values,
                          BLOCK, 2, 0.0) for s in (41, 42)]
    (a, cost, ref), (b, _c, ref2) = runs
    assert cost["trials_spent"] <= cost["trials_flat"]
    if ref == ref2:
        for x, y in zip(a, b):
            if x.n == y.n:
                se = (x.extra["se"] ** 2 + y.extra["se"] ** 2) ** 0.5
                assert abs(x.loss - y.loss) <= 4.5 * se + 1e-12


def test_advice_cli_reports_both_costs_and_its_rules_play_back(cli, tmp_path):
    got = cli("magdagdon", "advice", "-d", "survival", "--rounds", "2", "--precision", "100",
              "--seed", "1", "--out", str(tmp_path), "--json", check_json=True)
    race = got["race"]
    assert got["game"] == "magdagdon" and got["exact"] is False
    assert race["trials_spent"] <= race["trials_flat"] and race["candidates"] == 40
    assert all(set(r["loss"]) >= {"estimate", "se", "ci_low", "ci_high", "n"}
               for r in got["front"])
    f = got["written"][0]
    sim = cli("magdagdon", "simulate", "-d", "survival", "-n", "200", "--policy", f"rule:{f}",
              "--seed", "1", "--json", check_json=True)
    assert sim["policy"] == f"rule:{f}"
