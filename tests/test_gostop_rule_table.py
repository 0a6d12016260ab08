"""Go-Stop's go rule table (kernels/gostop/state.py, the ``table`` policy): a rule given as data
plays exactly the games of the knob it encodes, the kernel reads each feature as documented, and
every rule of thumb of ``gostop advice`` compiles into a table that decides as its words say."""
import numpy as np
import pytest

from analyzer.advice import Rule
from analyzer.games.gostop import rules as R
from analyzer.games.gostop.advice import (DECISION, family, features, knob_table, state_grid,
                                          table_acts, table_of)
from analyzer.games.gostop.decide import make_state
from analyzer.games.gostop.play import Policy, make_sim_job
from analyzer.rng import block_keys


def _sums(rules, pols, seed=11, blocks=3, n=300):
    job = make_sim_job(rules, pols)
    return np.asarray(job.run_blocks(block_keys(seed, 0, blocks), np.full(blocks, n, np.int64)))


@pytest.mark.parametrize("players,k,t", [(2, 1, 1), (2, 3, 4), (2, 99, 1), (3, 2, 3)])
def test_knob_as_a_table_plays_the_same_deals(players, k, t):
    rules = R.GoStopRules(players=players)
    knob = [Policy("go", k, t)] + [Policy("greedy")] * (players - 1)
    table = [Policy("table", table=knob_table(k, t))] + [Policy("greedy")] * (players - 1)
    a, b = _sums(rules, knob), _sums(rules, table)
    from kernels.gostop import batch as KB

    assert a[:, KB.C_GOHIST:KB.C_GOHIST + 6].sum() > 100   # deals were won, some after gos
    assert a[:, KB.C_GOHIST + 1:KB.C_GOHIST + 6].sum() > 0
    assert np.array_equal(a, b)


@pytest.mark.parametrize("k,t", [(2, 1), (4, 3)])
def test_the_advice_rules_for_a_knob_play_its_deals(k, t):
    """The words of go:K:T ("if turns left ≤ T − 1, stop; if gos ≥ K, stop; otherwise go", or
    the single threshold on gos) compiled by table_of play the knob's deals bit for bit."""
    rules = R.GoStopRules()
    rule = (Rule("threshold", "gos", "<=", (k - 1,)) if t == 1 else
            Rule("list", clauses=(("turns", "<=", t - 1, False), ("gos", ">=", k, False))))
    knob = _sums(rules, [Policy("go", k, t), Policy("greedy")])
    mine = _sums(rules, [Policy("table", table=table_of(rule)), Policy("greedy")])
    assert np.array_equal(knob, mine)


def test_always_and_never_tables_are_go_99_and_greedy():
    rules = R.GoStopRules()
    always = Rule("list", clauses=(), default_act=True)
    never = Rule("list", clauses=(), default_act=False)
    g = Policy("greedy")
    assert np.array_equal(_sums(rules, [Policy("table", table=table_of(always)), g]),
                          _sums(rules, [Policy("go", 99), g]))
    assert np.array_equal(_sums(rules, [g, Policy("table", table=table_of(never))]),
                          _sums(rules, [g, g]))


def test_the_kernel_reads_each_feature_of_a_position():
    """A 3-player position with known piles, hands, skip tokens and gos: each F_* the kernel's
    table reads equals the value computed by hand from the rules page's scoring."""
    from kernels.gostop import score as KS
    from kernels.gostop import turn as KT

    rules = R.GoStopRules(players=3)
    c = R.CARD_INDEX
    junk = "01J1 01J2 02J1 02J2 03J1 03J2 04J1 04J2 05J1 05J2 06J1 06J2"   # 12 junk: 3 points
    piles = [[c[x] for x in "01B 03B 08B".split()],                   # three brights: 3 points
             [c[x] for x in junk.split()], []]
    hands = [[c["09A"], c["10A"]], [c["11J1"]], [c["12A"]]]
    b = make_state(rules, hands, [c["07J1"]], [], piles, [c["10R"]], go_counts=[1, 0, 2],
                   last_go=[0, 0, 0], turns=[5, 6, 5], skip=[1, 0, 0])
    S = b.S
    assert KS.best_score(S, 0) == 3 and KS.best_score(S, 1) == 3
    sc, gos, rem = 3, 1, 3               # seat 0: score 3, one go, 2 cards + 1 skip token
    want = {0: 0, 1: gos, 2: rem, 3: sc, 4: 3, 5: 2}
    for f, v in want.items():
        assert KT.table_feature(S, 0, f, sc, gos, rem) == v, f
    # seat 2: the opponents' best score is seat 0's or 1's 3 points, their most gos 1
    assert KT.table_feature(S, 2, 4, 0, 2, 1) == 3
    assert KT.table_feature(S, 2, 5, 0, 2, 1) == 1


def test_family_rules_compile_to_tables_that_decide_as_the_rules():
    X = state_grid()
    fam = family()
    assert len(fam) >= 300
    kinds = {r.kind for r in fam}
    assert kinds == {"threshold", "banded", "list"}
    assert {r.feature for r in fam if r.kind == "threshold"} == set(f.name for f in features())
    for r in fam:
        assert np.array_equal(np.asarray(r.acts(X), dtype=bool), table_acts(table_of(r), X))
    keys = {np.packbits(np.asarray(r.acts(X), dtype=bool)).tobytes() for r in fam}
    assert len(keys) == len(fam)       # each behaviour once


def test_new_rules_in_plain_words():
    fd = {f.name: f for f in features()}
    band = Rule("banded", "gos", "<=", (2, 0), "opp", (4,))
    assert band.words(fd, DECISION) == (
        "Go (when the best score an opponent's captures make is below 4 points) while the gos "
        "you have said this deal is at most 2; when the best score an opponent's captures make "
        "is at least 4 points: at most 0; otherwise stop.")
    lst = Rule("list", clauses=(("opp", ">=", 4, False), ("points", ">=", 11, False),
                                ("turns", "<=", 2, False)), default_act=True)
    assert lst.words(fd, DECISION) == (
        "If the best score an opponent's captures make is at least 4 points, stop. If your "
        "score is at least 11 points, stop. If the turns left in your hand is at most 2, stop. "
        "Otherwise go.")
    assert table_of(lst)[-1] == (0, 0, 0, 0, 0, 0)   # default: always → go


def test_a_rule_file_plays_back_as_its_knob(cli, tmp_path):
    """``--seats rule:FILE.json`` with the advice row of "go while gos ≤ 2" plays the deals of
    ``go:3``; a banded rule on the opponents' score is accepted too."""
    import json

    f = tmp_path / "r.json"
    f.write_text(json.dumps({"game": "gostop", "rule": Rule("threshold", "gos", "<=", (2,))
                             .to_json()}))
    args = ["-n", "3000", "--seed", "4", "--json"]
    a = cli("gostop", "simulate", "--seats", f"rule:{f},greedy", *args, check_json=True)
    b = cli("gostop", "simulate", "--seats", "go:3,greedy", *args, check_json=True)
    assert a["seats"][0]["mean_net_payment"] == b["seats"][0]["mean_net_payment"]
    f.write_text(json.dumps(Rule("banded", "gos", "<=", (2, 0), "opp", (4,)).to_json()))
    c = cli("gostop", "simulate", "--seats", f"rule:{f},greedy", *args, check_json=True)
    assert c["seats"][0]["policy"] == f"rule:{f}"
    f.write_text(json.dumps(Rule("threshold", "stock", "<=", (2,)).to_json()))
    code, out, err = cli("gostop", "simulate", "--seats", f"rule:{f},greedy", *args)
    assert code == 2 and "unknown feature 'stock'" in err and "Traceback" not in err
