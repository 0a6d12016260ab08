"""Ten whole-game advice with decision lists: the ladder's rules are the bots they name (the
kernel's rule table decides as the words say on every state), a rule raced and written as JSON
plays back through ``rule:FILE.json`` with the same win shares on the same keys, the race's
saving is its two costs' ratio, and bad rule files are one line on stderr with exit 2."""
import collections
import json

import numpy as np
import pytest

from analyzer.advice import Rule


def test_ladder_holds_each_family_and_each_behaviour_once():
    from analyzer.advice.table import behaviour
    from analyzer.games.ten.advice_game import ladder, state_grid

    lad = ladder()
    cx = collections.Counter(r.complexity for r in lad)
    # 19 bot thresholds + 16 table thresholds; 80 two-band + 24 three-band; lists of 2 and 3
    assert cx[2] == 35 and cx[5] == 80 and cx[8] == 24 and cx[4] > 150 and cx[6] > 40
    assert [r.complexity for r in lad] == sorted(r.complexity for r in lad)
    X = state_grid()
    keys = [behaviour(r, X) for r in lad]
    assert len(set(keys)) == len(lad)
    # "if the pile is at most 15 cards, stop; if T >= 7 stop; otherwise draw" is in; a list
    # whose exception never changes a decision (C <= 0 draw before T >= 2 stop... ) is not
    texts = {r.bot_text() for r in lad}
    assert "table:if-1=deck<=15:then-1=stop:if-2=T>=7:then-2=stop:otherwise=draw" in texts
    assert "threshold:7" in texts and "cards:4" in texts


def test_every_ladder_rule_plays_as_its_words_say():
    """For every table-bot rule of the ladder, the kernel's reading of the compiled table on the
    whole state grid = Rule.acts (catches a flipped comparison, a wrong feature id or an
    off-by-one between the rule, its bot text and the table)."""
    from analyzer.games.ten.advice_game import TableRule, ladder, state_grid
    from analyzer.games.ten.bots import bot_rows
    from analyzer.games.ten.lineup import parse_bot
    from analyzer.games.ten.draw_table import table_acts, table_rows
    from kernels.ten.whole_table import table_draws

    X = {k: v[::5] for k, v in state_grid().items()}  # 121,000 states, every value of each
    sub = {k: v[::211] for k, v in X.items()}  # ~570 states for the (slow, scalar) kernel
    table_rules = [r for r in ladder() if isinstance(r, TableRule)]
    assert len(table_rules) > 250
    for r in table_rules:
        bot = parse_bot(r.bot_text())
        assert np.array_equal(table_acts(table_rows(bot), X), np.asarray(r.acts(X))), \
            r.bot_text()
    for r in table_rules[::5]:
        row = bot_rows([parse_bot(r.bot_text())], {})[0]
        got = [table_draws(row, t + c, c, n, d, k, b) for t, c, n, d, k, b in
               zip(sub["T"], sub["C"], sub["cards"], sub["deck"], sub["tokens"], sub["busts"])]
        assert np.array_equal(np.array(got), np.asarray(r.acts(sub))), r.bot_text()


def test_feature_ids_are_the_kernels():
    from analyzer.games.ten.draw_table import FEATURE_IDS
    from kernels.ten import whole_layout as L

    assert FEATURE_IDS == {"T": L.F_T, "C": L.F_C, "cards": L.F_CARDS, "deck": L.F_DECK,
                           "tokens": L.F_TOKENS, "busts": L.F_BUSTS}


def test_table_threshold_words_and_bot():
    from analyzer.games.ten.advice_game import TableRule
    from analyzer.games.ten.lineup import parse_bot

    r = TableRule(Rule("threshold", "deck", ">=", (30,)))
    assert r.words() == "Draw while the draw pile is at least 30 cards; otherwise stop."
    assert r.bot_text() == "table:if-1=deck>=30:then-1=draw:otherwise=stop"
    assert parse_bot(r.bot_text()).if_1 == "deck>=30"


def _raced(tmp_path):
    from analyzer.advice.race import candidate_row, race_family
    from analyzer.games.ten.advice_game import BLOCK, DrawRule, TableRule, TenGameRacer
    from analyzer.games.ten.rules import TenRules, load_deck

    lists = [Rule("list", clauses=(("tokens", ">=", 5, False), ("T", ">=", 7, False)),
                  default_act=True),
             Rule("list", clauses=(("deck", "<=", 30, True), ("busts", ">=", 2, False),
                                   ("T", ">=", 8, False)), default_act=True)]
    fam = [DrawRule("threshold", 7), TableRule(Rule("threshold", "C", "<=", (1,))),
           *map(TableRule, lists)]
    racer = TenGameRacer(TenRules(), load_deck(None), 2, 5)
    res = race_family(fam, racer.values, BLOCK, 2, 0.0, "games", 0.0)
    return racer, [candidate_row(s) for s in res["all"]], res


def test_raced_rules_play_back_from_their_json_with_the_same_win_shares(tmp_path):
    """Each candidate's JSON row (as `--json` prints it) written to a file and read back with
    ``rule:`` is the same bot, and its win shares on the race's keys give the race's loss."""
    from analyzer.games.ten.lineup import parse_bot

    racer, rows, res = _raced(tmp_path)
    ref = res["reference"]
    f = tmp_path / "ref.json"
    f.write_text(json.dumps({"game": "ten", **rows[res["race"]["reference_index"]]}))
    ref_bot = parse_bot(f"rule:{f}")
    assert ref_bot == parse_bot(ref.bot_text())
    played = 0
    for i, (row, s) in enumerate(zip(rows, res["all"])):
        f = tmp_path / f"r{i}.json"
        f.write_text(json.dumps({"game": "ten", **row}))
        bot = parse_bot(f"rule:{f}")
        assert bot == parse_bot(s.rule.bot_text())
        k = s.extra["rounds"]
        mine = np.concatenate([racer.bot_values(bot, r) for r in range(k)])
        theirs = np.concatenate([racer.bot_values(ref_bot, r) for r in range(k)])
        assert float((theirs - mine).mean()) == pytest.approx(s.loss, abs=1e-12)
        assert s.n == len(mine) * 16 and len(mine) == 32 * k
        played += s.loss > 0
    assert played >= 2  # the rules do differ: "draw while C ≤ 1" is far worse


def test_saving_is_the_ratio_of_the_two_costs(cli):
    got = cli("ten", "game-advice", "--players", "2", "--rounds", "3", "--precision", "1e-9",
              "--seed", "4", "--band-by", "none", "--json", check_json=True)
    race = got["race"]
    assert race["saving_same_sample"] == pytest.approx(race["blocks_flat"] / race["blocks_spent"])
    assert race["saving"] == pytest.approx(race["grid"]["blocks"] / race["blocks_spent"])
    assert race["trials_spent"] == 16 * race["blocks_spent"]  # blocks of 16 games
    assert race["blocks_spent"] == 32 * sum(race["alive_per_round"])  # 16 blocks × 2 seats
    assert race["blocks_flat"] == race["candidates"] * 32 * race["rounds"]


def test_list_rule_file_plays_in_ten_game_and_bad_files_exit_2(cli, tmp_path):
    good = {"game": "ten", "rule": {"kind": "list", "default_act": True, "clauses": [
        {"feature": "tokens", "op": ">=", "value": 6, "act": False},
        {"feature": "T", "op": ">=", "value": 7, "act": False}]}}
    f = tmp_path / "good.json"
    f.write_text(json.dumps(good))
    got = cli("ten", "game", "--players", "2", "--seats", f"rule:{f},threshold", "-n", "256",
              "--seed", "1", "--json", check_json=True)
    assert got["lineups"][0]["bots"][0].startswith("table:if-1=tokens>=6")
    clause = {"feature": "T", "op": ">=", "value": 7, "act": False}
    bads = [
        ({"kind": "list", "default_act": True, "clauses": [clause] * 4}, "at most 3 clauses"),
        ({"kind": "list", "default_act": True, "clauses": [{**clause, "value": 6.5}]},
         "whole numbers"),
        ({"kind": "list", "default_act": True, "clauses": [{**clause, "feature": "score"}]},
         "unknown feature"),
        ({"kind": "list", "default_act": True, "clauses": [{**clause, "op": "<"}]},
         "comparison"),
        ({"kind": "banded", "feature": "T", "op": "<=", "thresholds": [6, 8],
          "band_feature": "busts", "cuts": [1]}, "banded by deck or tokens"),
    ]
    from analyzer.errors import UserError
    from analyzer.games.ten.lineup import parse_bot

    for i, (bad, message) in enumerate(bads):
        f = tmp_path / f"bad{i}.json"
        f.write_text(json.dumps({"game": "ten", "rule": bad}))
        with pytest.raises(UserError, match=message):
            parse_bot(f"rule:{f}")
    code, out, err = cli("ten", "game", "--players", "2", "--seats", f"rule:{f}", "-n", "8",
                         "--seed", "1")
    assert code == 2 and out == "" and err.strip().count("\n") == 0, err
    assert bads[-1][1] in err and "Traceback" not in err
