"""MAGDAGDON Monte Carlo: whole-game invariants, action values vs exact expectations,
determinism across thread counts, paired comparisons, the simulate/best CLI."""
import itertools
import math
import json

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.games.magdagdon import arrays as A
from analyzer.games.magdagdon import decide as D
from analyzer.games.magdagdon import exact as X
from analyzer.games.magdagdon import play as MP
from analyzer.games.magdagdon import lineup as LU
from analyzer.games.magdagdon import rules as M
from analyzer.rng import block_keys
from analyzer.rules import build_rules
from analyzer.runner import RunSpec
from kernels import magdagdon as K

R = build_rules(M.MagdagdonRules)
DIFFS = {d: M.difficulty(R, d) for d in M.DIFFICULTIES}


def adjacent_ok(cells, n, tol):
    for i in range(n * n):
        a = int(cells[i])
        if not 1 <= a <= 6:
            continue
        r, c = divmod(i, n)
        for rr, cc in ((r + 1, c), (r, c + 1)):
            if rr < n and cc < n:
                b = int(cells[rr * n + cc])
                if 1 <= b <= 6 and abs(a - b) > tol:
                    return False
    return True


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**62), st.sampled_from(M.DIFFICULTIES),
       st.sampled_from(["greedy", "max-dice", "min-dice"]))
def test_whole_game_invariants(seed, dname, pname):
    d = DIFFS[dname]
    pol = LU.parse_policy(pname)
    G = A.kernel_inputs(R, d, book=True)
    key = block_keys(seed, 0, 1)[0]
    cells, score, turns, mag, ruins, used = K.play_one(key, 0, pol.mode, pol.k,
                                                       np.zeros(16, dtype=np.int8), G)
    assert M.empties(cells) == 0                       # the game ends with no empty cell
    assert adjacent_ok(cells, 4, R.tolerance)          # tolerance never violated
    assert int(np.count_nonzero(cells == 7)) == ruins  # every ruin came from a MAGDAGDON
    assert 0 <= used <= d.powers and ruins <= mag
    assert score == X.score(cells, R, d, used)["score"]  # kernel score = `score` of the board


def test_rollout_policy_game_and_other_rules():
    # a 5×5 board with tolerance 2 under rollout:2, and a 6×6 board (no line table) greedily
    r5 = build_rules(M.MagdagdonRules, sets=["board_size=5", "tolerance=2"])
    d5 = M.difficulty(r5, "peaceful")
    key = block_keys(7, 0, 1)[0]
    cells, score, *_rest, used = K.play_one(key, 0, K.P_ROLLOUT, 2, np.zeros(25, np.int8),
                                            A.kernel_inputs(r5, d5, book=True))
    assert M.empties(cells) == 0 and adjacent_ok(cells, 5, 2)
    assert score == X.score(cells, r5, d5, used)["score"]
    r6 = build_rules(M.MagdagdonRules, sets=["board_size=6"])
    d6 = M.difficulty(r6, "nightmare")
    cells, score, *_rest, used = K.play_one(key, 1, K.P_GREEDY, 0, np.zeros(36, np.int8),
                                            A.kernel_inputs(r6, d6, book=True))
    assert M.empties(cells) == 0 and adjacent_ok(cells, 6, 1)
    assert score == X.score(cells, r6, d6, used)["score"]


def test_best_one_empty_cell_placements_are_exact():
    # One empty cell (r4c4) next to a 6 (r3c4) and a 5 (r4c3): values 5 or 6 fit. Each placement
    # ends the game, so its value is the score of the final board, with zero spread.
    text = "3456/3456/3456/345."
    cells = M.parse_board(text, R)
    out = D.best(cells, [5, 6, 1, 1], R, DIFFS["nightmare"], 0, RunSpec(50, 1),
                 LU.parse_policy("greedy"))
    vals = {x["order"][0]: x["mean_final_score"] for x in out["top"]}
    for v in (5, 6):
        exact = X.score(M.parse_board(text[:-1] + str(v), R), R, DIFFS["nightmare"])["score"]
        assert vals[f"{v}@r4c4"].estimate == exact and vals[f"{v}@r4c4"].se == 0
    # 6: row 4 = 3456 (straight) and column 4 = 6666 (four of a kind)
    assert out["recommendation"] == "place 6@r4c4"


def test_best_reroll_value_matches_exact_expectation():
    # SURVIVAL, one power; one empty cell (r4c4) next to a 6 and a 5; roll 1111 is a MAGDAGDON.
    # Action "reroll all four": over the 1296 rerolls, if a 6 is rolled the best final board puts
    # a 6 (straight 3456 in row 4, 6666 in column 4), else a 5 if rolled, else the cell is ruined;
    # every outcome pays the power's 70. The exact mean is computed with `score` on each board.
    text = "3456/3456/3456/345."
    d = DIFFS["survival"]
    cells = M.parse_board(text, R)
    finals = {v: X.score(M.parse_board(text[:-1] + v, R), R, d, 1)["score"]
              for v in ("6", "5", "x")}
    exact = np.mean([finals["6"] if 6 in roll else finals["5"] if 5 in roll else finals["x"]
                     for roll in itertools.product(range(1, 7), repeat=4)])
    out = D.best(cells, [1, 1, 1, 1], R, d, 1, RunSpec(4000, 11), LU.parse_policy("greedy"),
                 top=50)
    stat = [x for x in out["top"] if x.get("reroll") == [1, 1, 1, 1]][0]["mean_final_score"]
    assert abs(stat.estimate - exact) <= 4.5 * stat.se
    ruin = [x for x in out["top"] if x["action"] == "accept"][0]["mean_final_score"]
    assert ruin.estimate == X.score(M.parse_board(text[:-1] + "x", R), R, d)["score"]


def test_simulate_deterministic_across_threads_and_paired_identity():
    from analyzer.runner import run

    d = DIFFS["peaceful"]
    job = MP.make_job(R, d, LU.parse_policy("greedy"))
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a = run(job, 1500, 5).sums
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        b = run(job, 1500, 5).sums
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(a, b)
    out = MP.simulate_paired(R, d, LU.parse_policy("greedy"), LU.parse_policy("greedy"),
                             RunSpec(600, 5))
    diff = out["difference_a_minus_b"]
    assert diff.estimate == 0 and diff.se == 0
    assert out["verdict"].startswith("too close to call")


def run_cli(args, capsys):
    from analyzer.cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(args)
    cap = capsys.readouterr()
    return exc.value.code, cap.out, cap.err


def test_cli_simulate_and_best_json(capsys, tmp_path):
    code, out, _ = run_cli(["magdagdon", "simulate", "--trials", "300", "--seed", "3",
                            "--difficulty", "nightmare", "--policy", "min-dice", "--vs", "greedy",
                            "--out", str(tmp_path), "--chart", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["seed"] == 3 and d["n"] == 300
    base = tmp_path / "magdagdon_simulate_scores"
    for ext in ("png", "svg", "csv", "md"):
        assert base.with_suffix(f".{ext}").exists()
    assert sum(d["a_stats"]["histogram"].values()) == 300
    assert set(d["difference_a_minus_b"]) >= {"estimate", "se", "ci_low", "ci_high", "n"}
    code, out, _ = run_cli(["magdagdon", "best", "--board", "3456/3456/3456/34..", "--roll",
                            "4511", "--difficulty", "survival", "-n", "20", "--seed", "2",
                            "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["seed"] == 2 and d["top"] and "recommendation" in d
    code, out, err = run_cli(["magdagdon", "simulate", "-n", "10", "--policy", "lucky"],
                             capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    code, out, err = run_cli(["magdagdon", "simulate", "-n", "10", "--chart"], capsys)
    assert code == 2 and out == "" and "--out" in err and err.count("\n") == 1


def test_cli_simulate_several_vs(capsys):
    code, out, _ = run_cli(["magdagdon", "simulate", "-n", "64", "--seed", "4", "--vs",
                            "min-dice", "--vs", "max-dice", "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and [c["b"] for c in d["comparisons"]] == ["min-dice", "max-dice"]
    # A is played on the same games in both comparisons
    assert d["comparisons"][0]["a_stats"]["score"] == d["comparisons"][1]["a_stats"]["score"]


# ---- `best`'s block groups: the time limit and Ctrl-C, with a stand-in clock and kernel -------

class _Clock:
    """time.monotonic stand-in: 100 s at the start, one more second for each group run."""

    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def _groups(monkeypatch, nblocks, per_block, time_limit=None, interrupt_at=None):
    """`_run_groups` over ``nblocks`` blocks of ``per_block`` games each; the stand-in kernel
    writes its group's number (1, 2, ...) into its rows and records (first key, blocks, rows)."""
    import time

    from analyzer.errors import reset_interrupted

    reset_interrupted()
    clock = _Clock()
    monkeypatch.setattr(time, "monotonic", clock)
    keys = np.arange(nblocks, dtype=np.uint64) * 10
    counts = np.full(nblocks, per_block, dtype=np.int64)
    out = np.zeros((nblocks * per_block, 1))
    calls = []

    def run(k, c, o):
        calls.append((int(k[0]), len(k), int(c.sum()), len(o)))
        if len(calls) == interrupt_at:
            raise KeyboardInterrupt
        o[:] = len(calls)
        clock.t += 1.0

    games, why = D._run_groups(keys, counts, out, time_limit, run)
    return games, why, calls, out[:, 0]


def test_best_runs_its_blocks_in_groups_of_eight_into_consecutive_rows(monkeypatch, capsys):
    # 20 blocks of 3 games: groups of blocks 0-7, 8-15, 16-19 (24, 24 and 12 rows), all 60 games
    games, why, calls, rows = _groups(monkeypatch, 20, 3)
    assert (games, why) == (60, "n")
    assert calls == [(0, 8, 24, 24), (80, 8, 24, 24), (160, 4, 12, 12)]
    assert list(rows) == [1] * 24 + [2] * 24 + [3] * 12
    assert capsys.readouterr().err == ""


def test_best_stops_on_the_time_limit_only_after_it_is_passed(monkeypatch, capsys):
    # 4 groups of 8 blocks of 50 games; each group takes 1 s of the stand-in clock. Limit 2 s:
    # after group 2 exactly 2 s have passed (not more), so group 3 runs; after it 3 s > 2 s.
    games, why, calls, rows = _groups(monkeypatch, 32, 50, time_limit=2.0)
    assert (games, why) == (1200, "time-limit") and len(calls) == 3
    assert list(rows[:1200]) == [1] * 400 + [2] * 400 + [3] * 400 and not rows[1200:].any()
    assert capsys.readouterr().err == ("magdagdon best: stopped on the time limit (2 s) after "
                                       "1,200 games\n")
    # a limit of half a second still lets the first group finish (nothing is stopped before it)
    games, why, calls, _ = _groups(monkeypatch, 32, 50, time_limit=0.5)
    assert (games, why, len(calls)) == (400, "time-limit", 1)
    # a limit never reached: every group runs
    games, why, calls, _ = _groups(monkeypatch, 32, 50, time_limit=3600.0)
    assert (games, why, len(calls)) == (1600, "n", 4)


@pytest.mark.parametrize("bad", [0, 0.0, -1.0, math.inf, -math.inf, math.nan])
def test_best_refuses_a_time_limit_that_is_not_a_positive_number(monkeypatch, bad):
    from analyzer.errors import UserError

    with pytest.raises(UserError) as e:
        _groups(monkeypatch, 4, 2, time_limit=bad)
    assert str(e.value) == f"--time-limit must be a positive number of seconds (got {bad})"


def test_best_keeps_the_finished_groups_on_ctrl_c(monkeypatch, capsys):
    from analyzer.errors import Interrupted, reset_interrupted, was_interrupted

    # Ctrl-C in group 3 of 4 (8 blocks of 150 games each): groups 1 and 2 are kept
    games, why, calls, rows = _groups(monkeypatch, 32, 150, interrupt_at=3)
    assert (games, why, len(calls)) == (2400, "interrupt", 3) and was_interrupted()
    assert capsys.readouterr().err == "interrupted: keeping the 2,400 finished games\n"
    # Ctrl-C in the first group: nothing finished, so no result at all
    with pytest.raises(Interrupted) as e:
        _groups(monkeypatch, 32, 150, interrupt_at=1)
    assert str(e.value) == "no game had finished" and not was_interrupted()
    reset_interrupted()


def _best_stand_in(monkeypatch, n, seed=7, time_limit=None, value=None):
    """`best` on 3456/3456/3456/345. with roll 5611 (NIGHTMARE: two actions, 5 or 6 on r4c4)
    with a stand-in kernel that records the keys and counts of each group and writes
    ``value(game row, action)`` (default 0)."""
    import kernels.magdagdon as KM

    seen = []

    def fake_blocks(keys, counts, cells, left, used, roll, rows, mode, G, out):
        start = sum(len(o) for o in seen)
        seen.append(out)
        for g in range(len(out)):
            for a in range(out.shape[1]):
                out[g, a] = value(start + g, a) if value else 0.0
        fake_blocks.keys += np.asarray(keys).tolist()
        fake_blocks.counts += [int(c) for c in counts]

    fake_blocks.keys, fake_blocks.counts = [], []
    monkeypatch.setattr(KM, "best_blocks", fake_blocks)
    cells = M.parse_board("3456/3456/3456/345.", R)
    out = D.best(cells, [5, 6, 1, 1], R, DIFFS["nightmare"], 0,
                 RunSpec(n, seed, time_limit=time_limit), LU.parse_policy("greedy"))
    return out, fake_blocks


def test_best_plays_blocks_of_32_games_on_the_seeds_streams(monkeypatch):
    from analyzer.rng import block_keys

    # 100 games: blocks of 32, 32, 32 and 4 on the first four streams of seed 7 (block keys of
    # round 0, the same numbering every command uses); every action on every game
    out, fake = _best_stand_in(monkeypatch, 100)
    assert fake.counts == [32, 32, 32, 4]
    assert fake.keys == block_keys(7, 0, 4).tolist()
    assert fake.keys != block_keys(8, 0, 4).tolist()
    assert out["n"] == 100 and out["seed"] == 7 and out["stopped_by"] == "n"
    assert out["actions_evaluated"] == 2 and out["exact"] is False


def test_best_passes_its_time_limit_on(monkeypatch):
    import time

    clock = _Clock()
    monkeypatch.setattr(time, "monotonic", clock)
    # 20 blocks of 32 games = 3 groups; each game's value moves the stand-in clock by 1/256 s
    # (one group of 256 games: 1 s); a limit of 1.5 s stops after group 2 with 512 games

    def value(g, a):
        if a == 0:
            clock.t += 1 / 256
        return float(g % 7)

    out, _ = _best_stand_in(monkeypatch, 640, time_limit=1.5, value=value)
    assert out["stopped_by"] == "time-limit" and out["n"] == 512
    assert out["top"][0]["mean_final_score"].n == 512


def test_best_refusals_word_for_word(monkeypatch):
    from analyzer.errors import UserError

    cells = M.parse_board("3456/3456/3456/345.", R)
    greedy = LU.parse_policy("greedy")

    def refused(*args, policy=greedy):
        with pytest.raises(UserError) as e:
            D.best(*args, policy)
        return str(e.value)

    assert refused(cells, [5, 6, 1, 1], R, DIFFS["nightmare"], 0, RunSpec(10, 1),
                   policy=LU.parse_policy("rollout:2")) == (
        "best evaluates actions with a base policy: use greedy, max-dice or min-dice for "
        "--policy")
    assert refused(cells, [5, 6, 1, 1], R, DIFFS["nightmare"], 0, RunSpec(1, 1)) == (
        "--trials must be at least 2 (got 1)")
    assert refused(cells, [5, 6, 1, 1], R, DIFFS["nightmare"], 0, RunSpec(None, 1)) == (
        "--trials must be at least 2 (got None)")
    full = M.parse_board("3456/3456/3456/3456", R)
    assert refused(full, [5, 6, 1, 1], R, DIFFS["nightmare"], 0, RunSpec(10, 1)) == (
        "the board has no empty cell: the game is over")
    # two actions and at most 10 result cells (the limit shrunk for the test): -n 5 is the most
    monkeypatch.setattr(D, "MAX_CELLS", 10)
    assert refused(cells, [5, 6, 1, 1], R, DIFFS["nightmare"], 0, RunSpec(6, 1)) == (
        "-n 6 with 2 actions needs 12 result cells (at most 10): use -n 5 or fewer")
    monkeypatch.setattr(D, "MAX_CELLS", 1_000_001)
    assert refused(cells, [5, 6, 1, 1], R, DIFFS["nightmare"], 0, RunSpec(600_000, 1)) == (
        "-n 600,000 with 2 actions needs 1,200,000 result cells (at most 1,000,001): use "
        "-n 500,000 or fewer")


def test_best_accepts_two_games_and_exactly_the_most_result_cells(monkeypatch):
    # -n 2 is the least allowed; 5 games x 2 actions = 10 cells = the (shrunk) limit passes
    out, _ = _best_stand_in(monkeypatch, 2)
    assert out["n"] == 2
    monkeypatch.setattr(D, "MAX_CELLS", 10)
    out, fake = _best_stand_in(monkeypatch, 5)
    assert out["n"] == 5 and fake.counts == [5]


# ---- `best` on positions worked out by hand from docs/rules/magdagdon.md ---------------------
# Board 3456/3456/3456/345. : rows 1-3 are straights (18 + 60 each = 234), columns 1-3 are
# four of a kind (12 + 40, 16 + 40, 20 + 40 = 168). The last cell r4c4 sits beside a 6 (r3c4)
# and a 5 (r4c3), so only a 5 or a 6 fits it (tolerance 1). Final scores:
#   6 on r4c4: row 4 3456 = 18 + 60, column 4 6666 = 24 + 40      -> 234 + 168 + 78 + 64 = 544
#   5 on r4c4: row 4 3455 = 17 (one pair), column 4 6665 = 23      -> 234 + 168 + 17 + 23 = 442
#   a ruin:    row 4 = 12, column 4 = 18, no bonuses, -15 the ruin -> 234 + 168 + 12 + 18 - 15 = 417
# SURVIVAL has one Majda Power costing 70.

def test_best_power_actions_of_a_magdagdon_by_hand():
    cells = M.parse_board("3456/3456/3456/345.", R)
    out = D.best(cells, [4, 1, 1, 1], R, DIFFS["survival"], 1, RunSpec(3000, 5),
                 LU.parse_policy("greedy"), top=20)
    assert out["magdagdon"] is True and out["min_dice"] == 1 and out["actions_evaluated"] == 11
    by = {x["text"]: x["mean_final_score"] for x in out["top"]}
    # one empty cell: the minimum drops to 1; no 5 or 6 rolled, so: accept the ruin, or a power
    # (±1: 4->3, 4->5, 1->2 -- a 1 cannot become 0; rerolls: 2 x 4 - 1 = 7 sub-multisets)
    assert sorted(t for t in by if t.startswith("power ±1")) == [
        "power ±1: a 1 becomes 2", "power ±1: a 4 becomes 3", "power ±1: a 4 becomes 5"]
    exact = {"accept MAGDAGDON, ruin r4c4": 417,
             "power ±1: a 4 becomes 5": 442 - 70,   # then the 5 is placed
             "power ±1: a 4 becomes 3": 417 - 70,   # still a MAGDAGDON, no power left: a ruin
             "power ±1: a 1 becomes 2": 417 - 70}
    for text, value in exact.items():
        assert by[text].estimate == value and by[text].se == 0, text
    # rerolling one die: a 6 gives 544 - 70, a 5 gives 442 - 70, the other four a ruin
    one_die = (544 + 442 + 4 * 417) / 6 - 70
    for text in ("power reroll: 4", "power reroll: 1"):
        s = by[text]
        assert s.se > 0 and abs(s.estimate - one_die) <= 4.5 * s.se, (text, s)
    accept = [x for x in out["top"] if x["action"] == "accept"]
    assert accept[0]["ruin"] == "r4c4"
    # rerolling all four: any 6 (1 - (5/6)^4 = 671/1296) ends at 544 - 70, else any 5
    # ((5/6)^4 - (4/6)^4 = 369/1296) at 442 - 70, else (256/1296) a ruin: 419.87 > 417, the
    # best action (the base policy places the 6 when it has both: the last cell's best score)
    four = (671 * 474 + 369 * 372 + 256 * 347) / 1296
    s = by["power reroll: 1114"]
    assert abs(s.estimate - four) <= 4.5 * s.se, s
    assert out["top"][0]["text"] == "power reroll: 1114"
    # with a 5 rolled the ±1 must take the die it names away: 5 -> 4 leaves no 5 (a ruin after
    # the power, 347), 5 -> 6 places the 6 (474), 1 -> 2 keeps the 5 (372); placing it: 442
    out = D.best(cells, [5, 1, 1, 1], R, DIFFS["survival"], 1, RunSpec(20, 5),
                 LU.parse_policy("greedy"), top=20)
    by = {x["text"]: x["mean_final_score"].estimate for x in out["top"]}
    assert {t: by[t] for t in ("place 5@r4c4", "power ±1: a 5 becomes 4",
                               "power ±1: a 5 becomes 6", "power ±1: a 1 becomes 2")} == {
        "place 5@r4c4": 442, "power ±1: a 5 becomes 4": 347, "power ±1: a 5 becomes 6": 474,
        "power ±1: a 1 becomes 2": 372}


def test_best_a_two_dice_placement_by_hand_and_a_single_action():
    # 3456/3456/3456/34.. with 5, 6, 1, 1 in NIGHTMARE (minimum 3, dropped to the 2 empty cells):
    # r4c3 takes a 4 or 5 (beside 5 and 4), r4c4 a 5 or 6 beside the 6; with one 5 and one 6
    # the only placement is 5 on r4c3 and 6 on r4c4, ending the game at 544
    cells = M.parse_board("3456/3456/3456/34..", R)
    out = D.best(cells, [5, 6, 1, 1], R, DIFFS["nightmare"], 0, RunSpec(40, 2),
                 LU.parse_policy("greedy"))
    assert out["actions_evaluated"] == 1 and out["min_dice"] == 2
    (only,) = out["top"]
    assert only["text"] == "place 5@r4c3 6@r4c4" and only["dice"] == 2
    assert only["mean_final_score"].estimate == 544 and only["mean_final_score"].se == 0
    assert out["margin_over_second"] is None and out["recommendation"] == "place 5@r4c3 6@r4c4"


def test_action_listing_keeps_dice_within_one_to_six_and_refuses_past_the_cap():
    from analyzer.errors import UserError

    cells = M.parse_board("3456/3456/3456/345.", R)
    acts, ok, need = D.actions(cells, [6, 1, 1, 1], R, DIFFS["survival"], 1)
    assert ok and need == 1
    assert sorted(a["text"] for a, _ in acts if a["action"] == "power ±1") == [
        "power ±1: a 1 becomes 2", "power ±1: a 6 becomes 5"]  # no 6 -> 7, no 1 -> 0
    # 25 distinct placements of 1256 on 33../34../45../.... : a store of 3 is too small; the
    # listing stops when its store is full, so a full store is refused, never cut short
    board = M.parse_board("33../34../45../....", R)
    assert len(D.actions(board, [1, 2, 5, 6], R, DIFFS["nightmare"], 0, cap=26)[0]) == 25
    for cap in (3, 25):
        with pytest.raises(UserError) as e:
            D.actions(board, [1, 2, 5, 6], R, DIFFS["nightmare"], 0, cap=cap)
        assert str(e.value) == f"more than {cap} distinct placements: too many to evaluate"


def test_best_result_fields_and_the_interval_ends_at_zero(monkeypatch):
    acts, _, _ = D.actions(M.parse_board("3456/3456/3456/345.", R), [5, 6, 1, 1], R,
                           DIFFS["nightmare"], 0)
    six = [a["order"] for a, _ in acts].index(["6@r4c4"])
    # every game worth 300 after either action: the paired margin is exactly [0, 0]
    out, _ = _best_stand_in(monkeypatch, 4, value=lambda g, a: 300.0)
    m = out["margin_over_second"]
    assert (m.ci_low, m.estimate, m.ci_high) == (0, 0, 0)
    assert out["recommendation"] == "too close to call at n = 4"
    fields = {k: v for k, v in out.items() if k not in ("top", "margin_over_second")}
    assert fields == {"game": "magdagdon", "board": "3456/3456/3456/345.", "roll": [5, 6, 1, 1],
                      "difficulty": "NIGHTMARE", "powers_left": 0, "min_dice": 1,
                      "magdagdon": False, "policy": "greedy", "seed": 7, "n": 4,
                      "stopped_by": "n", "actions_evaluated": 2, "exact": False,
                      "recommendation": "too close to call at n = 4"}
    # the 6 always exactly 1 point better: the interval [1, 1] does not hold 0
    out, _ = _best_stand_in(monkeypatch, 4, value=lambda g, a: 300.0 + (a == six))
    m = out["margin_over_second"]
    assert (m.ci_low, m.ci_high) == (1, 1) and out["recommendation"] == "place 6@r4c4"
