"""Go-Stop advice: where a raced rule goes wrong, recorded by the engine on a longer state array
(kernels/gostop/record.py, analyzer/games/gostop/advice.py::record)."""
import numpy as np
import pytest

from analyzer.advice import Rule
from analyzer.games.gostop import advice as A
from analyzer.games.gostop.rules import GoStopRules

RULES = GoStopRules()
GOS_LE_1 = Rule("threshold", "gos", "<=", (1,))        # go while you have said at most one go
TURNS = Rule("threshold", "turns", ">=", (4,))          # go while 4 or more turns are left


@pytest.fixture(scope="module")
def recorded():
    return A.record(RULES, GOS_LE_1, 3000, 11)


def test_recording_plays_the_plain_engines_deals(recorded):
    """The recorded deals are the plain engine's: on the same keys, per block, the studied
    seat's net payment sums agree exactly (both seats)."""
    from analyzer.advice.record import STREAM
    from analyzer.games.gostop.play import Policy, make_sim_job
    from analyzer.rng import block_keys
    from kernels.gostop import batch as KB

    _, nets = recorded
    half = 3000 - 3000 // 2
    for seat, (lo, n) in enumerate(((0, half), (half, 3000 // 2))):
        nb = -(-n // A.BLOCK)
        counts = np.full(nb, A.BLOCK, dtype=np.int64)
        counts[-1] = n - A.BLOCK * (nb - 1)
        keys = block_keys(11, seat * (1 << 20), nb, stream=STREAM)
        pols = [Policy("greedy")] * RULES.players
        pols[seat] = A.policy_of(GOS_LE_1)
        rows = make_sim_job(RULES, pols).run_blocks(keys, counts)
        mine = np.add.reduceat(nets[lo:lo + n], np.r_[0, np.cumsum(counts)[:-1]])
        assert np.array_equal(mine, rows[:, KB.C_NET + seat].astype(np.int64))


def test_recorded_choices_are_the_rule_on_the_recorded_features(recorded):
    """What the engine chose at each recorded check is what the rule says on the features
    recorded there, and the features are plausible (a check needs a score at the target)."""
    (game, X, acts), _ = recorded
    assert len(game) > 1000
    assert np.array_equal(acts, GOS_LE_1.acts(X))
    assert acts.any() and (~acts).any()
    assert X["points"].min() >= RULES.stop_target and X["turns"].min() >= 1
    assert np.all(np.diff(game) >= 0) and game.min() >= 0 and game.max() < 3000
    assert len(np.unique(game)) > 1000    # each deal's checks carry that deal's index
    # a rule on another feature: the engine's choices again follow the recorded features
    (g2, X2, a2), _ = A.record(RULES, TURNS, 1000, 12)
    assert np.array_equal(a2, TURNS.acts(X2))


def test_the_reference_is_never_wrong_and_another_rule_is_wrong_where_they_differ():
    from analyzer.advice.record import front_mistakes
    from analyzer.advice.search import Scored

    words = {f.name: f.words for f in A.FEATURES}
    front = [Scored(GOS_LE_1, 0.0, 0.0, 0.0, 1, {}), Scored(TURNS, 0.1, 0.0, 0.2, 1, {})]
    front_mistakes(front, lambda r, n, sd: A.record(RULES, r, n, sd)[0], GOS_LE_1, words,
                   A.DECISION, 11, 2000)
    same, other = front[0].extra["mistakes"], front[1].extra["mistakes"]
    assert same["wrong_per_game"]["estimate"] == 0.0 and same["cells"] == []
    w = other["wrong_per_game"]
    assert w["estimate"] > 0.05 and w["ci_low"] > 0 and w["n"] == 2000
    cell = other["cells"][0]
    assert set(cell["features"]) == {"gos", "turns"}
    # where the two rules differ: (gos ≤ 1) ≠ (turns ≥ 4) throughout the cell
    g, t = cell["features"]["gos"], cell["features"]["turns"]
    assert (g[1] <= 1) != (t[0] >= 4) and (g[0] <= 1) == (g[1] <= 1)
    assert cell["rule"] == ("go" if t[0] >= 4 else "stop")
    assert {"estimate", "se", "ci_low", "ci_high", "n"} <= set(cell["wrong_per_game"])


def test_advice_json_carries_where_each_front_rule_goes_wrong(cli):
    out = cli("gostop", "advice", "--seed", "5", "--rounds", "1", "--record-games", "400",
              "--json", check_json=True)
    assert out["front"]
    for row in out["front"]:
        m = row["mistakes"]
        assert m["games"] == 400 and m["seed"] == 5
        for key in ("wrong_per_game", "decisions_per_game", "share_wrong"):
            assert {"estimate", "se", "ci_low", "ci_high", "n"} <= set(m[key])
    code, text, err = cli("gostop", "advice", "--seed", "5", "--rounds", "1",
                          "--record-games", "400")
    assert code == 0, err
    assert "wrong decisions per game" in text and "(400 games, seed 5)" in text
