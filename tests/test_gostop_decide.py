"""Go-Stop decide (position validation, exact enumeration vs Monte Carlo) and the CLI."""
import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.games.gostop import decide as GD
from analyzer.games.gostop import play as PL
from analyzer.games.gostop import lineup as LU
from analyzer.games.gostop import rules as R
from analyzer.runner import RunSpec
from kernels.gostop import deal as KD
from kernels.gostop import score as KS
from kernels.gostop import state as KSt
from kernels.gostop import turn as KT

R2 = R.GoStopRules()

# An end-game: seat 0 has just played its 9th turn (1 card left), seat 1 has 2 turns left, so
# 5 cards are unseen: 2 in seat 1's hand and a stock of 3 (1 + 2 turns, no joker unseen).
UNSEEN = ["04R", "09J1", "10J2", "12R", "07J2"]
ENDGAME = {
    "me": 1,
    "hand": "11J1",
    "layout": "04J1 09R 07A 12B",
    "piles": ("01B 03B 08B 01R 02R 03R 02A 04A 01J1 01J2 X2 X3 05J1 05J2 06J1 06J2 05R 06R;"
              "11B 05A 06A 12A 10A 02J1 02J2 03J1 03J2 08A 08J1 08J2 09A 10R 10J1 11D 11J2 "
              "12D 07R 07J1 04J2 09J2"),
}


def test_endgame_position_is_consistent():
    built, info = GD.build_position(dict(ENDGAME), R2)
    assert sorted(R.card_name(c, R2) for c in built.unseen) == sorted(UNSEEN)
    assert info["stock"] == 3 and info["turns_left"] == [1, 2]
    assert info["opponent_hand_sizes"] == [2]
    # S = 3 brights (3) + hongdan (3) + 5 ribbons (1) + junk 1+1+2+3+1+1+1+1 = 11 (2) = 9
    assert info["score"] == 9


def _exact_go_value(pos, rules, pol_me, pol_opp):
    """Average over all 5! orders of the unseen cards (each equally likely under a uniform
    shuffle): seat 1's hand = the first 2, the stock = the rest in order."""
    built, info = GD.build_position(dict(pos), rules)
    built.set_policies([pol_me, pol_opp])
    total = 0.0
    count = 0
    for perm in itertools.permutations(built.unseen):
        S = built.S.copy()
        s = np.zeros(4, np.uint64)
        for i in range(2):
            S[KSt.HAND + KSt.MAXH + i] = perm[i]
        S[KSt.HN + 1] = 2
        for i, c in enumerate(perm[2:]):
            S[KSt.STOCK + i] = c
        S[KSt.SPOS], S[KSt.SLEN] = 0, 3
        KT.apply_go(S, 0, KS.best_score(S, 0))
        w = KD.run_from(S, s, 1, True)
        assert w > -100
        net = np.zeros(KS.MAXP, np.int64)
        if w >= 0:
            KS.settle(S, w, 2, 0, net)
        total += net[0]
        count += 1
    return total / count


@pytest.mark.parametrize("pols", [("greedy", "greedy"), ("go:1", "greedy")])
def test_decide_matches_exact_enumeration(pols):
    me, opp = LU.parse_policy(pols[0]), LU.parse_policy(pols[1])
    exact = _exact_go_value(ENDGAME, R2, me, opp)
    out = GD.decide(dict(ENDGAME), R2, me, opp, RunSpec(20_000, 7, progress=False))
    go = out["go_payment"]
    assert abs(go.estimate - exact) <= 5 * go.se + 1e-9, (go, exact)
    # stop: 9 points, opponent has a bright (no gwang-bak) and junk 15 (no pi-bak): 9 chips
    assert out["stop_payment"] == 9
    d = out["difference_go_minus_stop"]
    assert abs(d.estimate - (go.estimate - 9)) < 1e-9


def test_forced_stop_position():
    # Seat 0 has played its last card: no turn left, so it must stop (rules section 8).
    pos = dict(ENDGAME, hand="", layout="04J1 09R 07A 12B 11J1 07J2")
    pos["piles"] = ENDGAME["piles"] + " 04R 12R"
    built, info = GD.build_position(pos, R2)
    assert info["forced_stop"] and info["stock"] == 1 and len(built.unseen) == 2
    out = GD.decide(pos, R2, PL.Policy("greedy"), PL.Policy("greedy"),
                    RunSpec(100, 1, progress=False))
    assert out["recommendation"] == "stop" and out["forced"] and out["stop_payment"] == 9


@pytest.mark.parametrize("change,message", [
    ({"hand": "11J1 01B"}, "appears twice"),
    ({"hand": "11J1 Z1"}, "unknown card"),
    ({"layout": "04J1 09R 07A"}, "do not add up"),
    ({"layout": "04J1 09R 07A 12B", "stacks": "12A,12R@1"}, "three cards"),
    ({"stacks": ",,,"}, "stack 1 is empty"),  # separators without a stack
    ({"stacks": ","}, "stack 1 is empty"),
    ({"stacks": "12A:12R:12D,"}, "stack 2 is empty"),  # a trailing ','
    ({"stacks": ["12A 12R 12D", ""]}, "stack 2 is empty"),
    ({"me": 3}, "seats are 1..2"),
    ({"me": 0}, "seats count from 1"),
    ({"go_counts": [1, 0], "last_go": [9, 0]}, "does not exceed"),
    ({"stock": 4}, "must be 3"),
    ({"piles": "01B"}, "one capture pile per seat"),
])
def test_bad_positions(change, message):
    pos = dict(ENDGAME)
    pos.update(change)
    with pytest.raises(UserError, match=message):
        GD.build_position(pos, R2)


def test_not_eligible_below_target():
    with pytest.raises(UserError, match="below the stop minimum"):
        GD.build_position(dict(ENDGAME), R.GoStopRules(target=10))


# ---- CLI ---------------------------------------------------------------------------------------

def cli(*args):
    p = subprocess.run([sys.executable, "-m", "analyzer", "gostop", *args], capture_output=True,
                       text=True, cwd=".")
    return p.returncode, p.stdout, p.stderr


def test_cli_score_json():
    rc, out, err = cli("score", "--captures", "02A 04A 08A 05A 06A 07A 12A",
                       "--opponents", "01B 01J1 01J2 03J1 03J2 04J1 04J2", "--json")
    assert rc == 0
    d = json.loads(out)
    assert d["points"] == 8 and d["payments"][0]["pays"] == 16
    assert {x["line"] for x in d["breakdown"]} == {"7 animals", "godori"}


@pytest.mark.parametrize("args,needle", [
    (["score", "--captures", "01B 99Z"], "unknown card '99Z'"),
    (["score", "--captures", "01B", "--opponents", "01B"], "appears twice"),
    (["score", "--captures", "01B", "--set", "sake_cup=maybe"], "sake_cup"),
    (["simulate", "-n", "0", "--seed", "1"], "'-n' / '--trials'"),
    (["simulate", "-n", "10", "--seed", "1", "--seats", "bold"], "unknown policy 'bold'"),
    (["decide", "--piles", "01B;02A", "--hand", "03B", "--seed", "1"], "do not add up"),
])
def test_cli_bad_input_one_line_exit_2(args, needle):
    rc, out, err = cli(*args)
    assert rc == 2 and out == ""
    assert needle in err and len(err.strip().splitlines()) == 1


def test_cli_simulate_and_decide_json(tmp_path):
    rc, out, err = cli("simulate", "-n", "2000", "--players", "3", "--seats",
                       "greedy,go:2,random", "--seed", "5", "--json")
    assert rc == 0
    d = json.loads(out)
    assert d["seed"] == 5 and d["n"] == 2000 and len(d["seats"]) == 3
    assert abs(sum(s["mean_net_payment"]["estimate"] for s in d["seats"])) < 1e-9
    for key in ("estimate", "se", "ci_low", "ci_high", "n"):
        assert key in d["p_nagari"]
    pos = tmp_path / "pos.toml"
    pos.write_text("[position]\n" + "\n".join(
        f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}" for k, v in ENDGAME.items()))
    rc, out, err = cli("decide", str(pos), "-n", "2000", "--seed", "3", "--json")
    assert rc == 0, err
    d = json.loads(out)
    assert d["stop_payment"] == 9 and d["n"] == 2000
    assert d["recommendation"] in ("go", "stop") or d["recommendation"].startswith("too close")


def test_decide_is_thread_count_independent():
    import numba
    me, opp = LU.parse_policy("go:2"), LU.parse_policy("random")
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a = GD.decide(dict(ENDGAME), R2, me, opp, RunSpec(3000, 11, progress=False))
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        b = GD.decide(dict(ENDGAME), R2, me, opp, RunSpec(3000, 11, progress=False))
    finally:
        numba.set_num_threads(before)
    assert a["go_payment"] == b["go_payment"] and a["n"] == b["n"] == 3000


def _play_to_first_stop(rules, t):
    """Play a real deal (greedy) turn by turn; return the state at the first go/stop decision."""
    from kernels.rng import seed_trial
    n = rules.players
    S = KSt.new_state(R.rules_vector(rules), PL.policy_array([PL.Policy("greedy")] * n))
    s = np.zeros(4, np.uint64)
    seed_trial(np.array([9, 8, 7, 6], np.uint64), t, s)
    if KD.deal(S, s) != 0:
        return None
    scr = np.full(5, -1, np.int64)
    p = 0
    while KSt.remaining(S, p) > 0:
        if KT.scripted_turn(S, s, p, scr, 0) == 1:
            return S, p
        p = (p + 1) % n
    return None


def _position_from_state(S, me, rules):
    name = lambda c: R.card_name(int(c), rules)  # noqa: E731
    n = rules.players
    PS, PV, _ = KSt.views(S)
    singles, stacks = [], []
    for m in range(12):
        cs = [name(S[KSt.LAY + 4 * m + i]) for i in range(S[KSt.LN + m])]
        if len(cs) == 3:
            own = S[KSt.SOWN + m]
            tag = f"@{own + 1}" if own >= 0 and S[KSt.STRN + m] == PV[own, KS.V_TURNS] - 1 else ""
            stacks.append(",".join(cs) + tag)
        else:
            singles += cs
    return {
        "players": n, "me": me + 1,
        "hand": " ".join(name(S[KSt.HAND + me * KSt.MAXH + i]) for i in range(S[KSt.HN + me])),
        "layout": " ".join(singles), "stacks": ";".join(stacks),
        "piles": ";".join(" ".join(name(S[KSt.PILE + q * KS.MAXC + i])
                                   for i in range(S[KSt.PN + q])) for q in range(n)),
        "go_counts": [int(PV[q, KS.V_GO]) for q in range(n)],
        "last_go": [int(PV[q, KS.V_LASTGO]) for q in range(n)],
        "shaken": ";".join(",".join(str(m + 1) for m in range(12) if PV[q, KS.V_SHAKEMASK] >> m & 1)
                           for q in range(n)),
        "bombs": [int(PV[q, KS.V_BOMBS]) for q in range(n)],
        "skip_tokens": [int(PV[q, KS.V_SKIP]) for q in range(n)],
        "stock": int(S[KSt.SLEN] - S[KSt.SPOS]),
    }


@pytest.mark.parametrize("players", [2, 3])
def test_real_decision_points_are_accepted_and_unseen_cards_match(players):
    """Positions taken from real deals at their first go/stop decision: the validation accepts
    them, and the unseen cards are exactly the opponents' hands plus the stock."""
    rules = R.GoStopRules(players=players)
    checked = 0
    for t in range(120):
        got = _play_to_first_stop(rules, t)
        if got is None:
            continue
        S, me = got
        pos = _position_from_state(S, me, rules)
        built, info = GD.build_position(pos, rules)
        actual = [S[KSt.HAND + q * KSt.MAXH + i] for q in range(players) if q != me
                  for i in range(S[KSt.HN + q])]
        actual += [S[KSt.STOCK + i] for i in range(S[KSt.SPOS], S[KSt.SLEN])]
        assert sorted(built.unseen) == sorted(int(c) for c in actual)
        assert info["opponent_hand_sizes"] == [int(S[KSt.HN + q]) for q in range(players)
                                               if q != me]
        assert info["score"] == KS.best_score(S, me)
        checked += 1
    assert checked > 50


def test_the_policy_family_is_declared_as_documented():
    """`_policies` and `_plain` run once at import (so mutation testing saw no test of them):
    called here directly. The three policies, the `go` policy's two knobs by position with
    their defaults and bounds, and plain line-ups without rule files."""
    from analyzer.games.gostop import play as P

    F = P._policies()
    assert (F.game, F.what, F.rule) == ("gostop", "policy", True)
    assert {n: (b.help, b.knobs, b.positional, b.defaults) for n, b in F.bots.items()} == {
        "greedy": ("stops at the first chance", (), (), {}),
        "random": ("goes or stops at random", (), (), {}),
        "go": ("goes while it has said fewer than K gos (and, with T, while it has at least T "
               "own turns left)", (), ("gos", "turns-left"), {})}
    assert {n: (k.kind, k.default, k.help, k.low, k.high) for n, k in F.knobs.items()} == {
        "gos": ("int", 1, "go while fewer than this many gos", 0, 1000),
        "turns-left": ("int", 1, "go only with at least this many own turns left", 1, 100)}
    R = P._plain()
    assert R.family.rule is False and R.family.what == "policy"
    assert R.one("go:3:2") == P.Policy("go", 3, 2) and R.one("go") == P.Policy("go", 1, 1)
    assert R.one("go:0:100").label == "go:0:100" and R.one("random") == P.Policy("random")
    assert R.seats("greedy,go:1000", 2) == [P.Policy("greedy"), P.Policy("go", 1000, 1)]
    for bad in ("go:1001", "go:-1", "go:1:0", "go:1:101", "go:x"):
        with pytest.raises(UserError):
            R.one(bad)


def test_the_pure_python_engine_built_afresh_leaves_sys_modules_as_it_was(monkeypatch):
    """The engine is cached per process (so only its first build is ever tested): built here
    afresh. Its functions are plain Python from the kernels' own files, no module dunders are
    copied, the fake Numba and the engine's modules never stay in sys.modules, and the cache
    keeps it under "gostop"."""
    import sys
    import types

    from analyzer.games.gostop import play as P

    monkeypatch.setattr(P, "_PURE", {})
    keys = ("numba", "numba.core", "numba.core.cgutils", "numba.extending", "kernels.rng",
            "kernels.gostop.score", "kernels.gostop.state", "kernels.gostop.turn",
            "kernels.gostop.deal")
    before = {k: sys.modules.get(k) for k in keys}
    E = P.pure_python_engine()
    assert all(sys.modules.get(k) is before[k] for k in keys)
    assert P._PURE == {"gostop": E} and P.pure_python_engine() is E
    assert "__name__" not in vars(E) and "__file__" not in vars(E)
    fn = E.settle
    assert isinstance(fn, types.FunctionType)
    import analyzer

    here = Path(analyzer.__file__).resolve().parents[1] / "kernels" / "gostop" / "score.py"
    assert fn.__code__.co_filename == str(here)
    # nothing in it was compiled by the real Numba (the kernels.rng the others import included)
    assert not [k for k, v in vars(E).items() if type(v).__module__.startswith("numba")]
    assert isinstance(P.python_reference_deals(2, 1), float)


def test_the_pure_python_engine_removes_the_modules_it_added(monkeypatch):
    import sys

    from analyzer.games.gostop import play as P

    monkeypatch.setattr(P, "_PURE", {})
    monkeypatch.delitem(sys.modules, "kernels.gostop.deal", raising=False)
    P.pure_python_engine()
    assert "kernels.gostop.deal" not in sys.modules


def test_sim_job_passes_its_nagari_count_and_check_flag_to_the_kernel(monkeypatch):
    import numpy as np

    from analyzer.games.gostop import play as P
    from analyzer.games.gostop.rules import GoStopRules
    from kernels.gostop import batch as KB

    seen = []
    monkeypatch.setattr(KB, "simulate_blocks",
                        lambda keys, counts, S0, nagari, check: seen.append((nagari, check)))
    pols = [P.Policy("greedy"), P.Policy("go", 2)]
    job = P.make_sim_job(GoStopRules(), pols)
    assert (job.name, job.unit, job.block_size) == ("gostop greedy,go:2", "deals", 2048)
    job.run_blocks(np.zeros((1, 2), np.uint64), np.ones(1, np.int64))
    P.make_sim_job(GoStopRules(), pols, 3, True).run_blocks(None, None)
    P.make_job_for_tests(GoStopRules(), "greedy,random").run_blocks(None, None)
    P.make_job_for_tests(GoStopRules(), "greedy,random", False).run_blocks(None, None)
    assert seen == [(0, False), (3, True), (0, True), (0, False)]


def test_policy_array_go_rule_table_size():
    from analyzer.games.gostop import play as P
    from kernels.gostop import state as K

    rows = tuple((0, 0, 0, 0, 0, 0) for _ in range(K.TMAXROWS))
    a = P.policy_array([P.Policy("table", table=rows), P.Policy("greedy")])
    assert a[0, K.P_NROWS] == K.TMAXROWS and a[1, K.P_NROWS] == 0
    assert list(a[:2, K.P_SHAKE]) == [1, 1] and a.dtype == np.int64
    with pytest.raises(UserError) as e:
        P.policy_array([P.Policy("table", table=rows + ((0,) * 6,))])
    assert str(e.value) == f"a go rule table has at most {K.TMAXROWS} rows"
