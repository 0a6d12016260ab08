"""Canasta's rule tables (kernels/canasta/layout.py: take the pile, go out): a knob written as a
table plays exactly the knob's games, the kernel reads each feature as documented, and every
rule of ``canasta advice`` compiles into tables that decide as its words say."""
import json

import numpy as np
import pytest

from analyzer.advice import Rule
from analyzer.advice.table import table_acts
from analyzer.games.canasta.advice import (ALWAYS, FEATURE_IDS, RulePair, family, go_rules,
                                           knob_pair, state_grid, take_rules)
from analyzer.games.canasta.play import CanastaPolicy, make_job
from analyzer.games.canasta.rules import CanastaRules
from analyzer.rng import block_keys


def _sums(mode, pols, seed=7, blocks=2, n=24):
    job = make_job(mode, CanastaRules(), pols)
    return np.asarray(job.run_blocks(block_keys(seed, 0, blocks), np.full(blocks, n, np.int64)))


@pytest.mark.parametrize("take_min,go_min,floor", [(1, 0, 0), (5, 0, 0), (3, 6, 20), (8, 5, 0)])
def test_knobs_as_tables_play_the_same_games(take_min, go_min, floor):
    from kernels.canasta import MODE_GAMES, MODE_ROUNDS

    name = "greedy" if go_min == 0 else "builder"
    knob = CanastaPolicy(name, go_min=go_min, floor=floor, take=1, take_min=take_min)
    table = knob_pair(take_min, go_min, floor).policy()
    assert table.take_table and table.go_table
    g = CanastaPolicy("greedy")
    for mode in (MODE_GAMES, MODE_ROUNDS):
        a, b = _sums(mode, [knob, g]), _sums(mode, [table, g])
        assert a.sum() > 0
        assert np.array_equal(a, b)
    assert np.array_equal(_sums(MODE_GAMES, [g, knob]), _sums(MODE_GAMES, [g, table]))


def test_the_kernel_reads_each_feature():
    from kernels.canasta import layout as K
    from kernels.canasta.engine import rule_feature

    P = 3
    hand = np.zeros((P, K.NT), np.int64)
    hand[0, 5], hand[1, 9], hand[2, 4] = 7, 3, 5          # 7, 3 and 5 cards
    can = np.zeros((P, 4), np.int64)
    can[0] = (2, 1, 0, 1)                                   # 4 canastas
    can[1] = (1, 1, 0, 0)
    can[2] = (3, 2, 1, 0)                                   # 6 canastas
    pl = np.zeros((P, K.NPL), np.int64)
    pl[:, K.C_CUM] = (5200, 6100, 4800)
    g = np.zeros(K.NG, np.int64)
    g[K.G_PN], g[K.G_SP], g[K.G_SEND] = 9, 40, 108
    want = {K.F_ZERO: 0, K.F_PILE: 9, K.F_STOCK: 68, K.F_CANASTAS: 4, K.F_OPPCAN: 6,
            K.F_HAND: 7, K.F_OPPHAND: 3, K.F_LEAD: 5200 - 6100}
    for f, v in want.items():
        assert rule_feature(f, 0, hand, can, pl, g, P) == v, f
    assert rule_feature(K.F_LEAD, 1, hand, can, pl, g, P) == 6100 - 5200
    assert rule_feature(K.F_OPPHAND, 1, hand, can, pl, g, P) == 5
    assert FEATURE_IDS == {"pile": K.F_PILE, "stock": K.F_STOCK, "canastas": K.F_CANASTAS,
                           "opp_canastas": K.F_OPPCAN, "hand": K.F_HAND,
                           "opp_hand": K.F_OPPHAND, "lead": K.F_LEAD}


def test_family_rules_compile_to_tables_that_decide_as_the_rules():
    from analyzer.advice.table import table_of

    X = state_grid()
    for r in take_rules() + go_rules():
        assert np.array_equal(np.asarray(r.acts(X), dtype=bool),
                              table_acts(table_of(r, FEATURE_IDS), X, FEATURE_IDS))
    fam = family()
    assert len(fam) >= 100 and len(set(fam)) == len(fam)
    kinds = {p.take.kind for p in fam} | {p.go.kind for p in fam}
    assert kinds == {"threshold", "banded", "list"}


def test_pairs_in_plain_words():
    p = RulePair(Rule("banded", "pile", ">=", (3, 8), "stock", (30,)),
                 Rule("threshold", "opp_hand", "<=", (4,)))
    assert p.complexity == 7
    assert p.words() == (
        "Take the pile (when the number of cards left in the stock is below 30) while the "
        "number of cards in the discard pile is at least 3; when the number of cards left in "
        "the stock is at least 30: at least 8; otherwise draw from the stock. Go out while the "
        "fewest cards in an opponent's hand is at most 4; otherwise keep playing.")
    assert RulePair(ALWAYS, ALWAYS).words() == ("Take the pile whenever allowed. Go out as soon "
                                                "as allowed.")


def test_rule_files_play_back(cli, tmp_path):
    """A pair written as `canasta advice --out` writes it plays the games of its knob; the knob
    form of earlier versions still loads; a bad feature is one line on stderr."""
    pair = knob_pair(5, 6, 20)
    f = tmp_path / "pair.json"
    f.write_text(json.dumps({"game": "canasta", "rule": pair.to_json()}))
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"kind": "canasta", "take_pile_min": 5, "go_out_min_canastas": 6,
                               "go_out_stock_floor": 20}))
    args = ["-n", "40", "--seed", "2", "--json"]
    a = cli("canasta", "simulate", "--seats", f"rule:{f},greedy", *args, check_json=True)
    c = cli("canasta", "simulate", "--seats", f"rule:{old},greedy", *args, check_json=True)
    assert a["policies"][0] == f"rule:{f}"
    assert "at least 6" in a["policy_descriptions"][0]
    assert a["rounds_per_game"] == c["rounds_per_game"] and a["per_round"] == c["per_round"]
    bad = pair.to_json()
    bad["go_out"] = {"kind": "threshold", "feature": "jokers", "op": ">=", "threshold": 1}
    f.write_text(json.dumps(bad))
    code, out, err = cli("canasta", "simulate", "--seats", f"rule:{f},greedy", *args)
    assert code == 2 and "go_out rule" in err and "unknown feature 'jokers'" in err
    assert "Traceback" not in err
