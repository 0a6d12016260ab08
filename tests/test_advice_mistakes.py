"""Where a raced rule goes wrong (analyzer/advice/mistakes.py): counting, cells, intervals."""
import numpy as np
import pytest

from analyzer.advice import Decision, Rule
from analyzer.advice.mistakes import mistake_lines, poisson_interval, rule_cuts, where_wrong

D = Decision("draw", "stop")
WORDS = {"T": "T", "tokens": "tokens"}


def test_cuts_of_every_rule_kind():
    thr = Rule("threshold", "T", "<=", (6,))
    band = Rule("banded", "T", ">=", (7, 9), "tokens", (3,))
    lst = Rule("list", clauses=(("tokens", ">=", 5, False), ("T", "<=", 7, True)),
               default_act=False)
    assert rule_cuts(thr) == {"T": [6.5]}
    assert rule_cuts(band) == {"T": [6.5, 8.5], "tokens": [2.5]}
    assert rule_cuts(thr, lst) == {"T": [6.5, 7.5], "tokens": [4.5]}


def test_counts_cells_and_directions_by_hand():
    r = Rule("threshold", "T", "<=", (6,))          # draw while T <= 6
    b = Rule("list", clauses=(("tokens", ">=", 5, False), ("T", "<=", 7, True)),
             default_act=False)                     # stop at 5+ tokens; draw while T <= 7
    X = {"T": np.array([3, 7, 7, 8, 7, 2]), "tokens": np.array([0, 0, 6, 0, 1, 6])}
    game = np.array([0, 0, 0, 1, 1, 1])
    # r: draw stop stop stop stop draw; b: draw draw stop stop draw stop
    m = where_wrong(2, game, X, r.acts(X), b.acts(X), rule_cuts(r, b), WORDS, D, seed=7)
    assert m["games"] == 2 and m["seed"] == 7
    assert m["decisions_per_game"]["estimate"] == 3.0 and m["decisions_per_game"]["se"] == 0.0
    share = m["share_wrong"]
    assert share["estimate"] == 0.5 and share["n"] == 2
    # delta method: residuals W_g − R·D_g = (1 − 1.5, 2 − 1.5), sd √0.5, mean D 3, √n = √2
    assert share["se"] == pytest.approx(0.5 ** 0.5 / (3 * 2 ** 0.5))
    # 3 wrong of 6 decisions: the Garwood interval of 3, [0.6187, 8.767], over 6, clipped at 1
    assert share["ci_low"] == pytest.approx(0.6187 / 6, abs=1e-3) and share["ci_high"] == 1.0
    w = m["wrong_per_game"]
    assert w["estimate"] == 1.5 and w["se"] == pytest.approx(0.5)   # games: 1 and 2 wrong
    assert w["ci_low"] <= 1.5 <= w["ci_high"]
    first, second = m["cells"]
    assert first["features"] == {"T": [7, 7], "tokens": [0, 1]}
    cell = first["wrong_per_game"]
    assert cell["estimate"] == 1.0 and cell["se"] == 0.0 and cell["n"] == 2  # one in each game
    assert cell["ci_low"] == pytest.approx(0.2422 / 2, abs=1e-3)  # Garwood of 2: [0.2422, 7.225]
    assert cell["ci_high"] == pytest.approx(7.2247 / 2, abs=1e-3)
    assert (first["rule"], first["best"]) == ("stop", "draw")
    assert second["features"] == {"T": [2, 2], "tokens": [6, 6]}
    assert (second["rule"], second["best"]) == ("draw", "stop")
    text = "\n".join(mistake_lines(m))
    assert "T 7, tokens 0–1: stop where the best rule would draw (1.000 per game)" in text


def test_a_cell_is_wrong_throughout_or_not_at_all():
    rng = np.random.default_rng(3)
    X = {"T": rng.integers(0, 15, 5000), "tokens": rng.integers(0, 11, 5000)}
    r = Rule("banded", "T", "<=", (5, 8), "tokens", (4,))
    b = Rule("list", clauses=(("tokens", ">=", 6, False), ("T", "<=", 7, True)),
             default_act=False)
    cuts = rule_cuts(r, b)
    ra, ba = r.acts(X), b.acts(X)
    key = np.stack([np.searchsorted(cuts[f], X[f]) for f in sorted(cuts)], axis=1)
    for k in np.unique(key, axis=0):
        inside = (key == k).all(axis=1)
        assert len(set(ra[inside])) == 1 and len(set(ba[inside])) == 1
    m = where_wrong(100, rng.integers(0, 100, 5000), X, ra, ba, cuts, WORDS, D, seed=0, top=50)
    assert sum(c["wrong_per_game"]["estimate"] for c in m["cells"]) == pytest.approx(
        m["wrong_per_game"]["estimate"])


def test_the_best_rule_and_a_rule_never_wrong():
    X = {"T": np.array([1, 2, 3])}
    g = np.array([0, 1, 2])
    acts = np.array([True, True, False])
    same = where_wrong(3, g, X, acts, acts, {"T": [2.5]}, WORDS, D, seed=1, same=True)
    assert same["wrong_per_game"]["ci_high"] == 0.0
    assert same["wrong_per_game"]["exact_value"] == 0.0
    assert same["share_wrong"]["exact_value"] == 0.0 and same["share_wrong"]["ci_high"] == 0.0
    assert "by definition" in mistake_lines(same)[0]
    agree = where_wrong(3, g, X, acts, acts, {"T": [2.5]}, WORDS, D, seed=1)
    assert agree["wrong_per_game"]["ci_low"] == 0.0
    assert agree["wrong_per_game"]["ci_high"] == pytest.approx(3.688879 / 3, rel=1e-5)
    assert agree["cells"] == [] and "none seen" in mistake_lines(agree)[0]


def test_poisson_interval_matches_published_garwood_values():
    # Garwood (1936) 95% limits, as tabulated (e.g. Ulm 1990): k: (lower, upper)
    table = {0: (0.0, 3.689), 1: (0.0253, 5.572), 2: (0.2422, 7.225), 5: (1.6235, 11.668),
             10: (4.7954, 18.390)}
    for k, (lo, hi) in table.items():
        got = poisson_interval(k)
        assert got[0] == pytest.approx(lo, abs=6e-4) and got[1] == pytest.approx(hi, abs=6e-4)


@pytest.mark.parametrize("mean", [0.0004, 0.01, 0.2, 2.5])
def test_wrong_per_game_interval_covers_over_many_seeds(mean):
    """Per-game counts Poisson(mean) (rare to common), 400 games, 600 seeds: the 95% interval
    holds the true mean in at least 93% of samples (binomial SE of the rate about 0.9%)."""
    n, seeds, hits = 400, 600, 0
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        per = rng.poisson(mean, n)
        game = np.repeat(np.arange(n), per + 1)          # one right decision per game, too
        starts = np.cumsum(per + 1) - (per + 1)
        wrong = np.arange(len(game)) - starts[game] < per[game]
        X = {"T": np.zeros(len(game), dtype=np.int64)}
        m = where_wrong(n, game, X, wrong, np.zeros(len(game), bool), {"T": []}, WORDS, D,
                        seed=seed)
        w = m["wrong_per_game"]
        hits += w["ci_low"] <= mean <= w["ci_high"]
    assert hits / seeds >= 0.93


@pytest.mark.parametrize("q", [0.0005, 0.05, 0.6])
def test_share_wrong_interval_covers_over_many_seeds(q):
    """1 + Poisson(3) decisions per game, each wrong with probability q (rare to common), 400
    games, 400 seeds: the share's interval holds q in at least 93% of samples."""
    n, seeds, hits = 400, 400, 0
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        game = np.repeat(np.arange(n), 1 + rng.poisson(3, n))
        wrong = rng.random(len(game)) < q
        X = {"T": np.zeros(len(game), dtype=np.int64)}
        m = where_wrong(n, game, X, wrong, np.zeros(len(game), bool), {"T": []}, WORDS, D,
                        seed=seed)
        s = m["share_wrong"]
        hits += s["ci_low"] <= q <= s["ci_high"]
    assert hits / seeds >= 0.93


def test_cell_intervals_hold_their_counts():
    """Each cell's wrong decisions per game is a statistic of its own per-game counts: with 40
    wrong decisions in 400 games the Garwood widening applies (K < 100)."""
    n = 400
    game = np.arange(n)
    X = {"T": np.where(game < 40, 9, 1)}
    wrong = game < 40
    m = where_wrong(n, game, X, wrong, np.zeros(n, bool), {"T": [5.5]}, WORDS, D, seed=0)
    (cell,) = m["cells"]
    w = cell["wrong_per_game"]
    assert w["estimate"] == 0.1 and w["n"] == n
    lo, hi = poisson_interval(40)
    assert w["ci_low"] <= lo / n and w["ci_high"] >= hi / n


def test_raced_front_prints_where_each_rule_goes_wrong():
    """A front row that carries ``mistakes`` prints its summary under the front; one without
    prints nothing more (analyzer/advice/cli.py::mistakes_block)."""
    from analyzer.advice.cli import mistakes_block

    X = {"T": np.array([7, 7, 2])}
    m = where_wrong(2, np.array([0, 1, 1]), X, np.array([False, False, True]),
                    np.array([True, True, True]), {"T": [6.5]}, WORDS, D, seed=5)
    loss = {"estimate": 0.01, "ci_low": 0.0, "ci_high": 0.02}
    rows = [{"complexity": 0, "words": "Always draw.", "loss": loss},
            {"complexity": 2, "words": "Draw while T is at most 6.", "loss": loss,
             "mistakes": m}]
    text = "\n".join(mistakes_block(rows))
    assert "size 2:" in text and "size 0:" not in text
    assert "T 7: stop where the best rule would draw (1.000 per game)" in text
    assert "wrong decisions per game 1.000" in text and "(2 games, seed 5)" in text


def test_a_candidate_of_several_decisions_prints_each_under_its_label():
    """Canasta's candidates make two decisions: ``mistakes`` is then a list of summaries, each
    printed under its ``decision`` label (analyzer/advice/cli.py::mistakes_block)."""
    from analyzer.advice.cli import mistakes_block

    X = {"T": np.array([7, 2])}
    wrong = where_wrong(1, np.array([0, 0]), X, np.array([False, True]),
                        np.array([True, True]), {"T": [6.5]}, WORDS, D, seed=3)
    right = where_wrong(1, np.array([0]), {"T": np.array([1])}, np.array([True]),
                        np.array([True]), {"T": [6.5]}, WORDS, D, seed=3)
    rows = [{"complexity": 4, "mistakes": [dict(wrong, decision="take the pile"),
                                           dict(right, decision="go out")]}]
    lines = mistakes_block(rows)
    assert lines[0] == "  size 4:" and lines[1] == "    take the pile:"
    assert lines[2].startswith("      wrong decisions per game 1.000")
    at = lines.index("    go out:")
    assert lines[at + 1].startswith("      wrong decisions per game 0.000") and \
        lines[at + 1].endswith("none seen")
