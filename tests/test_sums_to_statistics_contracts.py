"""From kernel sums to statistics and verdicts: every formula pinned against a hand computation.

The decide and simulate entry points of Go-Stop, Railroad Canasta, MAGDAGDON and Ten turn the
per-block sums of their kernels into statistics. Here the kernel is replaced by planted sums of a
tiny sample whose per-trial values are written out, and each figure (mean, SE of a mean, of a
paired difference, of a ratio, Wilson bounds, the verdict and its sign) is worked out by hand in
the test from those values: mean = Σx/n, s² = (Σx² − (Σx)²/n)/(n − 1), SE = s/√n, interval
mean ± 1.959964·SE. A column read from the wrong place, a sign flipped, a square dropped, a wrong
n or z, or a verdict read the wrong way round fails here; the kernels are not run (MAGDAGDON's
action listing excepted).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.runner import RunResult, RunSpec

Z = 1.959963984540054  # the two-sided 95% normal quantile, written out (not read from stats)


@dataclass(frozen=True)
class Planted(RunSpec):
    """A run specification whose run returns the planted column sums instead of running."""

    sums: tuple = ()

    def run(self, job, **kwargs) -> RunResult:
        return RunResult(np.array(self.sums, dtype=np.float64), self.n, self.seed, 1, 0.5)


def by_hand(xs):
    """(mean, SE, low, high) of the values ``xs``, from the textbook formulas."""
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    se = math.sqrt(var / n)
    return m, se, m - Z * se, m + Z * se


def wilson_by_hand(k, n):
    """Wilson score interval (low, high) with z = 1.959964."""
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return (0.0 if k == 0 else centre - half), (1.0 if k == n else centre + half)


def same(stat, xs, n=None):
    m, se, lo, hi = by_hand(xs)
    assert stat.n == (n or len(xs))
    assert stat.estimate == pytest.approx(m, abs=1e-12)
    assert stat.se == pytest.approx(se, rel=1e-12, abs=1e-12)
    assert stat.ci_low == pytest.approx(lo, rel=1e-12, abs=1e-12)
    assert stat.ci_high == pytest.approx(hi, rel=1e-12, abs=1e-12)


def same_prop(stat, k, n):
    lo, hi = wilson_by_hand(k, n)
    assert stat.n == n and stat.estimate == pytest.approx(k / n)
    assert stat.se == pytest.approx(math.sqrt(k / n * (1 - k / n) / n))
    assert stat.ci_low == pytest.approx(lo, abs=1e-12)
    assert stat.ci_high == pytest.approx(hi, abs=1e-12)


def test_the_hand_formulas_themselves_on_a_textbook_sample():
    # x = 2, 4, 4, 4, 5, 5, 7, 9: mean 5, Σ(x − 5)² = 32, s² = 32/7, SE = sqrt(32/56) = 0.75593
    m, se, lo, hi = by_hand([2, 4, 4, 4, 5, 5, 7, 9])
    assert m == 5 and se == pytest.approx(0.7559289460, rel=1e-9)
    assert hi - lo == pytest.approx(2 * 1.959963984540054 * 0.7559289460, rel=1e-9)
    # Wilson 2 of 5 (Agresti-Coull tables): [0.1176, 0.7693]
    lo, hi = wilson_by_hand(2, 5)
    assert (round(lo, 4), round(hi, 4)) == (0.1176, 0.7693)


# ---- Go-Stop decide ------------------------------------------------------------------------------

GOSTOP_POSITION = {
    # seat 0 (2 players) after its turn: 3 brights 3 + hongdan 3 + junk 10 = 1 -> 7 points
    "me": 1, "hand": "07R 10R 11J1 09A", "layout": "04J1 08J1 12D 07J1",
    "piles": ["01B 03B 08B 01R 02R 03R 02A 04A 01J1 01J2 X2 X3 05J1 05J2 06J1",
              "12B 11B 05A 06A 07A 12A 10A 06R 09R 02J1 02J2 03J1 03J2"],
}


def gostop_decide(trials):
    """Go-Stop decide on :data:`GOSTOP_POSITION` with planted playouts: ``trials`` lists per
    playout (net payment to me after going, outcome 'win' | 'lose' | 'nagari')."""
    from analyzer.games.gostop import decide as GD
    from analyzer.games.gostop.play import Policy
    from analyzer.games.gostop.rules import GoStopRules
    from kernels.gostop import batch as KB

    rules = GoStopRules()
    # S = 7, g = 0; the opponent has 2 brights (no gwang-bak) and junk 02J1 02J2 03J1 03J2 = 4,
    # at most 5 while mine is 10 or more: pi-bak, x2 -> stopping pays 14
    stop = 14
    sums = np.zeros(KB.ND)
    for x, outcome in trials:
        d = x - stop
        sums[KB.D_GO] += x
        sums[KB.D_GO2] += x * x
        sums[KB.D_DIFF] += d
        sums[KB.D_DIFF2] += d * d
        sums[{"win": KB.D_WIN, "lose": KB.D_LOSE, "nagari": KB.D_NAGARI}[outcome]] += 1
    spec = Planted(len(trials), 11, progress=False, sums=tuple(sums))
    return GD.decide(dict(GOSTOP_POSITION), rules, Policy("greedy"), Policy("greedy"), spec)


class PlantedRecording(Planted):
    """Planted sums that keep the job and the number of playouts asked for."""

    def run(self, job, **kwargs) -> RunResult:
        type(self).seen = (job, self.n)
        return super().run(job, **kwargs)


def gostop_planted(xs, n=None, err=0, position=None, lineup=None):
    """Go-Stop decide with planted go payments ``xs`` (all wins), the kernel's error count ``err``
    and ``n`` playouts asked for (None: the default)."""
    from analyzer.games.gostop import decide as GD
    from analyzer.games.gostop.play import Policy
    from analyzer.games.gostop.rules import GoStopRules
    from kernels.gostop import batch as KB

    sums = np.zeros(KB.ND)
    for x in xs:
        sums[KB.D_GO] += x
        sums[KB.D_GO2] += x * x
        sums[KB.D_DIFF] += x - 14
        sums[KB.D_DIFF2] += (x - 14) ** 2
        sums[KB.D_WIN] += 1
    sums[KB.D_ERR] = err
    spec = PlantedRecording(n, 11, progress=False, sums=tuple(sums))
    rules = GoStopRules(players=3) if position else GoStopRules()
    out = GD.decide(dict(position or GOSTOP_POSITION), rules, Policy("greedy"),
                    lineup or Policy("greedy"), spec)
    return out, PlantedRecording.seen


def test_gostop_decide_every_field_the_job_the_default_n_and_a_small_clear_margin():
    # go pays 14.5 every time, stopping 14: go by exactly 0.5 ([0.5, 0.5] excludes 0)
    out, (job, n) = gostop_planted([14.5] * 4, n=4)
    assert out["recommendation"] == "go" and out["margin"] == 0.5 and n == 4
    fields = {k: v for k, v in out.items()
              if k not in ("go_payment", "difference_go_minus_stop", "after_go", "position")}
    assert fields == {"game": "gostop", "exact": False, "seed": 11, "stop_payment": 14,
                      "policies": {"me": "greedy", "opponents": "greedy"}, "n": 4,
                      "recommendation": "go", "margin": 0.5, "playouts_per_second": 4 / 0.5,
                      "stopped_by": "n"}
    assert (job.name, job.unit, job.block_size) == ("gostop decide", "playouts", 1024)
    # no -n and no --precision: the shared default of every decide, 4,000 playouts
    _, (job, n) = gostop_planted([14.5] * 4)
    assert n == 4000
    # the kernel's own error count is refused
    with pytest.raises(UserError) as e:
        gostop_planted([14.5] * 4, n=4, err=1)
    assert str(e.value) == "engine error in 1 playouts"


def test_gostop_decide_names_the_opponents_policies_of_a_line_up():
    from analyzer.games.gostop.play import Policy
    from tests.test_positions_by_hand import THREE

    # seat 2 decides: the line-up's entries of seats 1 and 3 play the opponents, each named once
    lineup = [Policy("go", k=1), Policy("greedy"), Policy("random")]
    out, _ = gostop_planted([20.0] * 3, n=3, position=THREE, lineup=lineup)
    assert out["policies"] == {"me": "greedy", "opponents": "go:1,random"}
    lineup = [Policy("random"), Policy("go", k=2), Policy("random")]
    out, _ = gostop_planted([20.0] * 3, n=3, position=THREE, lineup=lineup)
    assert out["policies"] == {"me": "greedy", "opponents": "random"}


def test_gostop_decide_turns_playout_sums_into_the_go_value_the_difference_and_the_rates():
    trials = [(10, "win"), (-4, "lose"), (0, "nagari"), (0, "nagari"), (6, "win"), (-8, "lose"),
              (0, "nagari")]
    out = gostop_decide(trials)
    assert out["stop_payment"] == 14
    xs = [x for x, _ in trials]
    same(out["go_payment"], xs)
    same(out["difference_go_minus_stop"], [x - 14 for x in xs])
    same_prop(out["after_go"]["p_win"], 2, 7)
    same_prop(out["after_go"]["p_opponent_wins"], 2, 7)
    same_prop(out["after_go"]["p_nagari"], 3, 7)
    # mean difference 4/7 - 14 < 0 and the interval lies below 0: stop
    assert out["difference_go_minus_stop"].ci_high < 0
    assert out["recommendation"] == "stop"
    assert out["margin"] == pytest.approx(14 - 4 / 7)


def test_gostop_decide_a_wide_interval_is_too_close_to_call():
    trials = [(40, "win"), (-4, "lose"), (0, "nagari"), (30, "win"), (-8, "lose")]
    out = gostop_decide(trials)
    d = out["difference_go_minus_stop"]
    same(d, [x - 14 for x, _ in trials])
    assert d.ci_low < 0 < d.ci_high and d.estimate < 0
    assert out["recommendation"] == "too close to call at n = 5"


@pytest.mark.parametrize("x,expected", [(16, "go"), (12, "stop"),
                                        (14, "too close to call at n = 4")])
def test_gostop_decide_recommends_by_the_sign_of_go_minus_stop(x, expected):
    # every playout pays x after going; stopping pays 14: go iff x > 14 (the SE is 0)
    out = gostop_decide([(x, "win")] * 4)
    d = out["difference_go_minus_stop"]
    assert d.estimate == x - 14 and d.se == 0 and (d.ci_low, d.ci_high) == (x - 14, x - 14)
    assert out["recommendation"] == expected
    assert out["margin"] == abs(x - 14)


# ---- Canasta decide -------------------------------------------------------------------------------

def canasta_decide(trials, objective="own", position="canasta_position_example.toml"):
    """Canasta decide on a shipped position with planted playouts: ``trials`` lists per playout
    (my score under option A, under option B, best opponent's score under A, under B)."""
    import tomllib
    from pathlib import Path

    from analyzer.games.canasta.decide import decide
    from analyzer.games.canasta.lineup import parse_policies
    from analyzer.games.canasta.rules import CanastaRules

    data = tomllib.loads((Path("analyzer/data") / position).read_text())
    sums = np.zeros(12 + 4 + 2 * 3 * 12 + 16)  # wider than the decide columns, as the kernel's
    for a, b, oa, ob in trials:
        ra, rb = a - oa, b - ob
        for col, v in ((0, 1), (1, a), (2, a * a), (3, b), (4, b * b), (5, a - b),
                       (6, (a - b) ** 2), (8, ra), (9, rb), (10, ra - rb), (11, (ra - rb) ** 2)):
            sums[col] += v
    spec = Planted(len(trials), 5, progress=False, sums=tuple(sums))
    return decide(data, CanastaRules(), parse_policies("greedy", 2), spec, objective)


def test_canasta_decide_pins_both_options_the_paired_difference_and_the_lead():
    trials = [(100, 40, 50, 90), (50, 60, 80, 20), (0, 10, 30, 30), (30, 30, 0, 100),
              (-20, 5, 60, 70)]
    out = canasta_decide(trials)
    same(out["round_score_a"], [a for a, *_ in trials])
    same(out["round_score_b"], [b for _, b, *_ in trials])
    same(out["difference_a_minus_b"], [a - b for a, b, *_ in trials])
    rel = [(a - oa) - (b - ob) for a, b, oa, ob in trials]
    same(out["lead_over_best_opponent_difference"], rel)
    assert out["options"] == ["take the pile", "draw two"]
    assert out["margin"] == pytest.approx(sum(a - b for a, b, *_ in trials) / 5)


@pytest.mark.parametrize("objective", ["own", "lead"])
def test_canasta_decide_verdicts_follow_each_objective_with_the_right_sign(objective):
    # own score: A beats B by 10 in every playout (take the pile); lead: the best opponent gains
    # 30 more under A, so A's lead is 20 worse (draw two)
    out = canasta_decide([(60, 50, 40, 10)] * 3, objective)
    assert out["difference_a_minus_b"].estimate == 10
    assert out["lead_over_best_opponent_difference"].estimate == -20
    assert out["recommendation_by_own_score"] == "take the pile"
    assert out["recommendation_by_lead"] == "draw two"
    assert out["recommendation"] == {"own": "take the pile", "lead": "draw two"}[objective]
    assert out["margin"] == {"own": 10, "lead": -20}[objective]


def test_canasta_decide_meld_phase_labels_and_a_tie():
    out = canasta_decide([(3975, 3000, 0, 0), (3975, 4950, 0, 0)],
                         position="canasta_position_goout_example.toml")
    assert out["options"] == ["go out now", "play on"]
    assert out["phase"] == "meld"
    # d = 975, -975: mean 0, too close to call
    assert out["recommendation"] == "too close to call at n = 2"


class PlantedAndSeen(Planted):
    """Planted sums that also keep the job it was asked to run."""

    def run(self, job, **kwargs) -> RunResult:
        type(self).job = job
        res = super().run(job, **kwargs)
        res.stopped_by = "time-limit"
        return res


def canasta_planted(trials, position="canasta_position_example.toml", refused=0):
    """`canasta_decide`'s planted playouts with the job kept and column 7 (the kernel's count of
    playouts whose forced first choice was illegal) set to ``refused``."""
    import tomllib
    from pathlib import Path

    from analyzer.games.canasta.decide import decide
    from analyzer.games.canasta.lineup import parse_policies
    from analyzer.games.canasta.rules import CanastaRules

    data = tomllib.loads((Path("analyzer/data") / position).read_text())
    sums = np.zeros(12 + 4 + 2 * 3 * 12 + 16)
    for a, b, oa, ob in trials:
        ra, rb = a - oa, b - ob
        for col, v in ((0, 1), (1, a), (2, a * a), (3, b), (4, b * b), (5, a - b),
                       (6, (a - b) ** 2), (8, ra), (9, rb), (10, ra - rb), (11, (ra - rb) ** 2)):
            sums[col] += v
    sums[7] = refused
    spec = PlantedAndSeen(len(trials), 5, progress=False, sums=tuple(sums))
    return decide(data, CanastaRules(), parse_policies("greedy", 2), spec, "own"), spec.job


def test_canasta_decide_every_field_the_job_and_a_small_clear_margin():
    # A beats B by exactly 0.5 points in all 4 playouts: the interval [0.5, 0.5] excludes 0
    out, job = canasta_planted([(10.5, 10, 0, 0)] * 4)
    assert out["recommendation"] == "take the pile" == out["recommendation_by_own_score"]
    d = out["difference_a_minus_b"]
    assert (d.estimate, d.ci_low, d.ci_high) == (0.5, 0.5, 0.5)
    fields = {k: v for k, v in out.items() if not hasattr(v, "ci_low")}
    assert fields == {
        "game": "canasta", "exact": False, "seed": 5, "n": 4, "phase": "draw",
        "question": "take the pile vs draw two", "options": ["take the pile", "draw two"],
        "policies": ["greedy", "greedy"], "objective": "own", "recommendation": "take the pile",
        "recommendation_by_own_score": "take the pile", "recommendation_by_lead": "take the pile",
        "margin": 0.5, "unseen_cards": 181, "stopped_by": "time-limit",
        "playouts_per_second": 4 / 0.5}
    # the job: named and counted in playouts (the progress bar's and the notes' words); its
    # headline is the 95% half-width of the mean of column 5 (A - B) from columns 5 and 6
    assert (job.name, job.unit) == ("canasta decide", "playouts")
    sums = np.zeros(20)
    sums[5], sums[6] = 2 + 4 + 6, 4 + 16 + 36  # A - B = 2, 4, 6: mean 4, s = 2, SE 2/sqrt(3)
    assert job.headline_half_width(sums, 3) == pytest.approx(1.959963984540054 * 2 / math.sqrt(3))
    out, _ = canasta_planted([(3975, 3000, 0, 0), (3975, 3500, 0, 0)],
                             position="canasta_position_goout_example.toml")
    assert out["question"] == "go out now vs play on" and out["phase"] == "meld"


def test_canasta_decide_refuses_what_the_kernel_found_illegal():
    # column 7 counts playouts whose forced first choice the kernel found illegal
    for position, words in (("canasta_position_example.toml", "taking the pile"),
                            ("canasta_position_goout_example.toml", "going out")):
        with pytest.raises(UserError) as e:
            canasta_planted([(1, 2, 0, 0)] * 3, position=position, refused=1)
        assert str(e.value) == f"{words} is not allowed in this position"


def test_canasta_decide_refuses_an_illegal_first_choice_in_process():
    """The first-choice tests of test_canasta_first_choice.py run in a subprocess; here the
    same two positions in this process: a black three on top of the pile, and a hand that
    cannot go out."""
    import tomllib
    from pathlib import Path

    from analyzer.games.canasta.decide import decide
    from analyzer.games.canasta.lineup import parse_policies
    from analyzer.games.canasta.rules import CanastaRules

    text = Path("analyzer/data/canasta_position_example.toml").read_text()
    text = text.replace('"6H", "9S"]', '"6H", "3S"]').replace('"3S", "5H"]', '"9S", "5H"]')
    no_out = Path("analyzer/data/canasta_position_no_going_out.toml").read_text()
    for data, words in ((tomllib.loads(text), "taking the pile"),
                        (tomllib.loads(no_out), "going out")):
        with pytest.raises(UserError) as e:
            decide(data, CanastaRules(), parse_policies("greedy", 2), RunSpec(4, 1), "own")
        assert str(e.value) == f"{words} is not allowed in this position"


# ---- MAGDAGDON best --------------------------------------------------------------------------------

def magdagdon_best(finals, monkeypatch, top=10):
    """`magdagdon best` on 3456/3456/3456/345. with roll 5611 (NIGHTMARE, no power): two
    actions, place 5 or place 6 on r4c4, in the order the listing gives them. ``finals`` lists
    per game (final score after placing 5, after placing 6)."""
    import kernels.magdagdon as KM
    from analyzer.games.magdagdon import decide as D
    from analyzer.games.magdagdon import lineup as MP
    from analyzer.games.magdagdon import rules as M
    from analyzer.rules import build_rules

    R = build_rules(M.MagdagdonRules)
    cells = M.parse_board("3456/3456/3456/345.", R)
    acts, _ok, _need = D.actions(cells, [5, 6, 1, 1], R, M.difficulty(R, "nightmare"), 0)
    names = [a["order"][0] for a, _row in acts]
    assert sorted(names) == ["5@r4c4", "6@r4c4"]
    col = {name: i for i, name in enumerate(names)}

    def fake_blocks(keys, counts, cells, left, used, roll, rows, mode, G, out):
        assert out.shape == (len(finals), 2)
        for g, (five, six) in enumerate(finals):
            out[g, col["5@r4c4"]] = five
            out[g, col["6@r4c4"]] = six

    monkeypatch.setattr(KM, "best_blocks", fake_blocks)
    return D.best(cells, [5, 6, 1, 1], R, M.difficulty(R, "nightmare"), 0,
                  RunSpec(len(finals), 3), MP.parse_policy("greedy"), top=top)


def test_magdagdon_best_ranks_by_mean_and_pins_the_margin_over_the_second(monkeypatch):
    finals = [(300, 310), (320, 300), (340, 360), (310, 330)]
    out = magdagdon_best(finals, monkeypatch)
    top = out["top"]
    assert [t["order"][0] for t in top] == ["6@r4c4", "5@r4c4"]  # means 325 > 317.5
    same(top[0]["mean_final_score"], [s for _, s in finals])
    same(top[1]["mean_final_score"], [f for f, _ in finals])
    same(out["margin_over_second"], [s - f for f, s in finals])  # 10, -20, 20, 20
    assert out["recommendation"] == "too close to call at n = 4"


def test_magdagdon_best_recommends_the_clear_winner_and_lists_only_top(monkeypatch):
    out = magdagdon_best([(300, 290), (320, 310), (280, 265)], monkeypatch, top=1)
    assert [t["order"][0] for t in out["top"]] == ["5@r4c4"]
    m = out["margin_over_second"]
    same(m, [10, 10, 15])
    assert m.ci_low > 0 and out["recommendation"] == "place 5@r4c4"


# ---- Go-Stop simulate ------------------------------------------------------------------------------

def test_gostop_simulate_reads_each_seat_from_its_own_columns():
    from analyzer.games.gostop.play import Policy, simulate
    from analyzer.games.gostop.rules import GoStopRules
    from kernels.gostop import batch as K

    # 6 deals, 2 players: (winner or -1, net of seat 0, outcome)
    deals = [(0, 8, "win"), (1, -3, "win"), (1, -20, "win"), (-1, 0, "nagari"), (0, 5, "chong"),
             (1, -2, "win")]
    s = np.zeros(K.NCOL)
    for w, x, outcome in deals:
        net = [x, -x]
        if w >= 0:
            s[K.C_WIN + w] += 1
        s[K.C_NAGARI] += outcome == "nagari"
        s[K.C_CHONG] += outcome == "chong"
        for q in range(2):
            s[K.C_NET + q] += net[q]
            s[K.C_NET2 + q] += net[q] ** 2
            s[K.C_HIST + q * K.NBIN + K.HMAX + max(-K.HMAX, min(K.HMAX, net[q]))] += 1
        d = net[0] - net[1]  # dealer minus the mean of the others
        s[K.C_DADV] += d
        s[K.C_DADV2] += d * d
    s[K.C_GOHIST + 0] = 2
    s[K.C_GOHIST + 5] = 1
    out = simulate(GoStopRules(), [Policy("greedy"), Policy("random")],
                   Planted(6, 4, progress=False, sums=tuple(s)))
    assert [x["policy"] for x in out["seats"]] == ["greedy", "random"]
    assert [x["dealer"] for x in out["seats"]] == [True, False]
    same_prop(out["seats"][0]["p_win"], 2, 6)
    same_prop(out["seats"][1]["p_win"], 3, 6)
    same(out["seats"][0]["mean_net_payment"], [x for _, x, _ in deals])
    same(out["seats"][1]["mean_net_payment"], [-x for _, x, _ in deals])
    same(out["dealer_advantage"], [2 * x for _, x, _ in deals])
    same_prop(out["p_nagari"], 1, 6)
    same_prop(out["p_chongtong"], 1, 6)
    assert out["won_deals"] == 5
    assert out["seats"][1]["payment_histogram"] == {"3": 1, "20": 1, "0": 1, "-5": 1, "2": 1,
                                                    "-8": 1}
    assert out["winner_go_counts"]["5+"] == 1 and out["winner_go_counts"]["0"] == 2
    assert out["winner_go_counts"] == {"0": 2, "1": 0, "2": 0, "3": 0, "4": 0, "5+": 1}
    assert out["seats"][0]["payment_histogram"] == {"8": 1, "-3": 1, "-20": 1, "0": 1, "5": 1,
                                                    "-2": 1}
    assert [x["seat"] for x in out["seats"]] == [1, 2]
    assert set(out["seats"][0]) == {"seat", "policy", "dealer", "p_win", "mean_net_payment",
                                    "payment_histogram"}
    scalars = {k: out[k] for k in ("game", "exact", "seed", "n", "players", "policies",
                                   "nagari_before", "deals_per_second", "stopped_by",
                                   "interrupted", "histogram_clip")}
    assert scalars == {"game": "gostop", "exact": False, "seed": 4, "n": 6, "players": 2,
                       "policies": ["greedy", "random"], "nagari_before": 0,
                       "deals_per_second": 6 / 0.5, "stopped_by": "n", "interrupted": False,
                       "histogram_clip": K.HMAX}
    assert set(out) == set(scalars) | {"rules", "p_nagari", "p_chongtong",
                                       "void_redeals_per_deal", "seats", "dealer_advantage",
                                       "events", "won_deals", "winner_go_counts"}
    assert all(e["per_deal"].n == 6 and e["p_at_least_one"].n == 6
               for e in out["events"].values())
    assert out["rules"]["stop_target"] == 7  # target 0: 7 with two players
    s[K.C_ERR] = 1
    with pytest.raises(UserError) as e:
        simulate(GoStopRules(), [Policy("greedy"), Policy("random")],
                 Planted(6, 4, progress=False, sums=tuple(s)))
    assert str(e.value) == "engine error in 1 deals"


def test_gostop_simulate_runs_its_job_with_the_nagari_count(monkeypatch):
    from analyzer.games.gostop.play import Policy, simulate
    from analyzer.games.gostop.rules import GoStopRules
    from kernels.gostop import batch as K

    seen = []
    monkeypatch.setattr(K, "simulate_blocks", lambda keys, counts, S0, nagari, check:
                        seen.append(nagari))

    class RunsBlocks(Planted):
        def run(self, job, **kwargs):
            job.run_blocks(None, None)
            return super().run(job, **kwargs)

    simulate(GoStopRules(), [Policy("greedy"), Policy("random")],
             RunsBlocks(6, 4, progress=False, sums=tuple(np.zeros(K.NCOL))), nagari_prev=2)
    assert seen == [2]


# ---- Canasta simulate and its ratio estimator -------------------------------------------------------

def test_ratio_of_sums_with_its_delta_method_se_by_hand():
    from analyzer.games.canasta.play import ratio_stat

    # games (clusters) with x = canastas and y = rounds: r = Σx/Σy; the SE is that of the mean
    # of e_i = x_i − r·y_i over n games, divided by ȳ (the delta method)
    x, y = [3, 0, 5, 2], [2, 1, 3, 2]
    n = 4
    r = sum(x) / sum(y)  # 10/8
    e = [xi - r * yi for xi, yi in zip(x, y)]
    se = math.sqrt(sum(v * v for v in e) / (n * (n - 1))) / (sum(y) / n)
    st = ratio_stat(sum(x), sum(v * v for v in x), sum(a * b for a, b in zip(x, y)), sum(y),
                    sum(v * v for v in y), n)
    assert st.estimate == pytest.approx(1.25)
    # e = 0.5, -1.25, 1.25, -0.5: Σe² = 3.625, SE = sqrt(3.625/12)/2
    assert st.se == pytest.approx(se, rel=1e-12) and se == pytest.approx(0.2748105408, rel=1e-9)
    assert (st.ci_low, st.ci_high) == pytest.approx((1.25 - Z * se, 1.25 + Z * se))
    assert st.n == 4
    # no rounds at all, or a single game: no ratio can be formed (not a zero)
    assert math.isnan(ratio_stat(1, 1, 1, 0, 0, 5).estimate)
    assert math.isnan(ratio_stat(1, 1, 1, 1, 1, 1).se)


def test_canasta_simulate_reads_each_seat_and_the_first_mover_from_their_columns():
    from analyzer.games.canasta.lineup import parse_policies
    from analyzer.games.canasta.play import simulate
    from analyzer.games.canasta.rules import CanastaRules
    from kernels.canasta import NROUNDSTAT

    P = 3
    base = 4 + P
    # 5 games: (rounds, winner, first mover of round 1)
    games = [(2, 0, 1), (3, 2, 2), (1, 2, 0), (4, 1, 1), (2, 2, 1)]
    s = np.zeros(base + 3 * NROUNDSTAT + 2 + 8)
    for rounds, w, first in games:
        s[0] += 1
        s[1] += rounds
        s[2] += rounds * rounds
        s[4 + w] += 1
        s[base + 3 * NROUNDSTAT + 1] += w == first
    out = simulate(CanastaRules(players=3), parse_policies("greedy,builder:10:20,greedy", 3),
                   Planted(5, 9, progress=False, sums=tuple(s)))
    same(out["rounds_per_game"], [g[0] for g in games])
    assert [x["policy"] for x in out["seats"]] == ["greedy", "builder:10:20", "greedy"]
    for seat, wins in ((0, 1), (1, 1), (2, 3)):
        same_prop(out["seats"][seat]["p_win"], wins, 5)
    same_prop(out["p_first_mover_wins"], 2, 5)
    assert out["rounds"] == 12


# ---- Canasta simulate, simulate_rounds and meld-odds: every field from planted sums ------------------
# The kernel's column layouts are those of kernels/canasta/trials.py (game_trial, round_trial,
# meld_trial): a run returns `width` columns then the NV = 4 rule-violation counters, with
# width = max(4 + P + 3·12 + 2 + 36, 3 + 2·12, 2 + turns, 12) = 80 for two players.
CANASTA_WIDTH = 80
# the round quantities in the kernel's order (round_stats): turns, went out, sevens lock, stock
# exhausted, red/black/wild/sevens canastas, kitty pick-ups, their turn numbers, mean points per
# player, stall
CANASTA_STATS = ("turns", "went_out", "sevens_lock", "stock_exhausted", "red_canastas",
                 "black_canastas", "wild_canastas", "sevens_canastas", "kitty_pickups",
                 "kitty_turn_sum", "points_per_player", "stall")
# shown with the four endings together after turns, stall right after sevens lock
CANASTA_SHOWN = ["turns", "went_out", "sevens_lock", "stall", "stock_exhausted", "red_canastas",
                 "black_canastas", "wild_canastas", "sevens_canastas", "kitty_pickups",
                 "points_per_player"]
GREEDY_WORDS = ("goes out as soon as allowed; takes the pile whenever allowed; melds naturals at "
                "once; starts a wild meld with >= 3 wilds; adds wilds to finish a black canasta "
                "when a meld has >= 5 naturals; discards black threes first, then the least "
                "useful card (safe, unpaired), wilds last")
BUILDER_WORDS = GREEDY_WORDS.replace("goes out as soon as allowed",
                                     "goes out only with >= 10 canastas or stock <= 20")


def ratio_by_hand(xs, ys):
    """(r, SE, low, high) of Σx/Σy over clusters (x_i, y_i): SE = sqrt(Σ e² / (n(n-1))) / ȳ with
    e_i = x_i − r·y_i (the delta method of canasta/play.py's module doc)."""
    n = len(xs)
    r = sum(xs) / sum(ys)
    se = math.sqrt(sum((x - r * y) ** 2 for x, y in zip(xs, ys)) / (n * (n - 1))) / (sum(ys) / n)
    return r, se, r - Z * se, r + Z * se


def same_ratio(stat, xs, ys):
    r, se, lo, hi = ratio_by_hand(xs, ys)
    assert stat.n == len(xs) and stat.exact_value is None
    assert (stat.estimate, stat.se, stat.ci_low, stat.ci_high) == pytest.approx(
        (r, se, lo, hi), rel=1e-12, abs=1e-12)


def fake_mc_blocks(monkeypatch):
    """Replace the kernel's entry point by one that keeps its arguments (a job's run_blocks is
    then called without compiling anything)."""
    seen = []
    monkeypatch.setattr("kernels.canasta.mc_blocks", lambda *a: seen.append(a) or "ran",
                        raising=False)
    return seen


# 4 games of two players: (rounds, winner (-1: none, the round cap), seat moving first in round 1,
# capped, lead changes, leader at three quarters (-1: none), winner's margin, the 12 round
# quantities summed over the game's rounds). The four endings add up to the rounds.
CANASTA_GAMES = [
    (2, 0, 0, 0, 1, 0, 350, (41, 1, 0, 1, 2, 1, 0, 0, 3, 27, 2150.5, 0)),
    (3, 1, 1, 0, 2, 0, 1200, (66, 2, 1, 0, 1, 3, 1, 0, 4, 41, 3010.0, 0)),
    (1, 0, 0, 0, 0, -1, 20, (18, 0, 0, 0, 0, 1, 0, 1, 1, 6, 905.5, 1)),
    (4, -1, 1, 1, 3, 1, 0, (95, 3, 0, 1, 4, 2, 0, 0, 6, 50, 5120.0, 0)),
]


def canasta_game_sums(games):
    """game_trial's columns for two players: 0 games, 1 Σrounds, 2 Σrounds², 3 capped, 4-5 wins,
    6 + 3k: ΣX_k, ΣX_k², ΣX_k·rounds, 42 Σ pick-ups × turn sum, 43 first mover won, 44-49 lead
    changes Σ, Σ², games with a leader at 3/4, games that leader won, margin Σ, Σ², 50-79 the
    rounds histogram (1 … 30), 80-83 the violations."""
    s = np.zeros(CANASTA_WIDTH + 4)
    for rounds, w, first, capped, changes, lead, margin, xs in games:
        s[0] += 1
        s[1] += rounds
        s[2] += rounds * rounds
        s[3] += capped
        if w >= 0:
            s[4 + w] += 1
        for k, x in enumerate(xs):
            s[6 + 3 * k] += x
            s[7 + 3 * k] += x * x
            s[8 + 3 * k] += x * rounds
        s[42] += xs[8] * xs[9]
        s[43] += w >= 0 and w == first
        s[44] += changes
        s[45] += changes * changes
        s[46] += lead >= 0
        s[47] += lead >= 0 and lead == w
        s[48] += margin
        s[49] += margin * margin
        s[50 + rounds - 1] += 1
    s[80:84] = (2, 7, 5, 1)
    return s


def test_canasta_simulate_every_field_and_its_job_from_planted_games(monkeypatch):
    from analyzer.games.canasta.lineup import parse_policies
    from analyzer.games.canasta.play import simulate
    from analyzer.games.canasta.rules import CanastaRules

    seen = fake_mc_blocks(monkeypatch)  # (before the job is made: it imports the kernel)
    rules = CanastaRules(max_rounds=4)
    s = canasta_game_sums(CANASTA_GAMES)
    spec = PlantedAndSeen(4, 3, progress=False, sums=tuple(s))
    out = simulate(rules, parse_policies("greedy,builder:10:20", 2), spec)
    rounds = [g[0] for g in CANASTA_GAMES]
    xs = [g[7] for g in CANASTA_GAMES]
    pr = out["per_round"]
    assert list(pr) == CANASTA_SHOWN + ["kitty_pickup_turn"]
    for k, name in enumerate(CANASTA_STATS):
        if name != "kitty_turn_sum":
            same_ratio(pr[name], [x[k] for x in xs], rounds)
    # the turn of a kitty pick-up: Σ turn numbers / Σ pick-ups, games as clusters
    same_ratio(pr["kitty_pickup_turn"], [x[9] for x in xs], [x[8] for x in xs])
    # by hand: turns 220/10 = 22 a round; kitty pick-ups 14, their turns 124: 124/14
    assert (pr["turns"].estimate, pr["kitty_pickup_turn"].estimate) == pytest.approx((22, 124 / 14))
    same(out["rounds_per_game"], rounds)
    same_prop(out["seats"][0]["p_win"], 2, 4)
    same_prop(out["seats"][1]["p_win"], 1, 4)
    same_prop(out["p_first_mover_wins"], 3, 4)  # games 1 to 3; game 4 hit the round cap
    assert [(x["seat"], x["policy"]) for x in out["seats"]] == [(1, "greedy"),
                                                                (2, "builder:10:20")]
    b = out["balance"]
    same(b["lead_changes"], [1, 2, 0, 3])
    same(b["margin"], [350, 1200, 20, 0])
    same_prop(b["decisive"], 1, 3)  # 3 games had a leader at three quarters; game 1's won
    assert b["rounds_histogram"] == [(1, 1), (2, 1), (3, 1), (4, 1)]
    fields = {k: v for k, v in out.items()
              if k not in ("per_round", "seats", "balance", "rounds_per_game",
                           "p_first_mover_wins")}
    assert fields == {
        "game": "canasta", "exact": False, "seed": 3, "n": 4, "players": 2,
        "policies": ["greedy", "builder:10:20"],
        "policy_descriptions": ["greedy: " + GREEDY_WORDS, "builder:10:20: " + BUILDER_WORDS],
        "games_capped": 1, "rounds": 10,
        "violations": {"illegal_melds": 2, "sevens_discarded_early": 7, "bad_go_outs": 5,
                       "emptied_hands": 1},
        "games_per_second": 4 / 0.5, "stopped_by": "time-limit"}
    # the job: 64 games a block, named and counted in games; its headline is the half-width of
    # the rounds per game (columns 1 and 2): rounds 2, 3, 1, 4 have s² = 5/3
    job = PlantedAndSeen.job
    assert (job.name, job.unit, job.block_size) == ("canasta simulate", "games", 64)
    assert job.headline_half_width(s, 4) == pytest.approx(Z * math.sqrt(5 / 3 / 4), rel=1e-12)
    assert job.headline_half_width(s, 1) == math.inf
    # it runs the whole-game mode (0) on the rules' and policies' arrays
    keys, counts = np.zeros((1, 4), np.uint64), np.array([64])
    assert job.run_blocks(keys, counts) == "ran"
    (args,) = seen
    assert args[0] is keys and args[1] is counts and args[2] == 0
    assert args[3][[0, 13, 15]].tolist() == [2, 20000, 4]  # players, target, max_rounds
    assert args[4][:, :2].tolist() == [[0, 0], [10, 20]]   # go_min, floor per seat
    assert args[5].tolist() == [0, 5000, 10000, 15000]
    assert args[6].tolist() == [15, 50, 90, 120, 150]
    assert (args[7], args[8]) == (0, 0)  # score, turns: not used by whole games


def canasta_round_sums(rows):
    """round_trial's columns: 0 rounds, 1 + 2k and 2 + 2k ΣX_k and ΣX_k², 25-26 seat 1's score
    Σ and Σ², then the violations from column 80."""
    s = np.zeros(CANASTA_WIDTH + 4)
    for xs, score in rows:
        s[0] += 1
        for k, x in enumerate(xs):
            s[1 + 2 * k] += x
            s[2 + 2 * k] += x * x
        s[25] += score
        s[26] += score * score
    s[80:84] = (0, 3, 0, 6)
    return s


def test_canasta_rounds_every_field_and_its_job_from_planted_rounds():
    from analyzer.games.canasta.lineup import parse_policies
    from analyzer.games.canasta.play import simulate_rounds
    from analyzer.games.canasta.rules import CanastaRules

    def row(end, turns, canastas, pickups, turn_sum, pts, score):
        ends = [end == e for e in ("out", "lock", "stock")] + [end == "stall"]
        return (turns, *ends[:3], *canastas, pickups, turn_sum, pts, ends[3]), score

    # 10 rounds: 4 went out, 1 sevens lock, 2 stalls, 3 stock exhausted
    rows = [row("out", 30, (1, 0, 0, 0), 1, 7, 310.0, 420),
            row("out", 22, (0, 1, 0, 0), 0, 0, 150.5, -35),
            row("out", 41, (2, 1, 1, 0), 2, 15, 95.0, 210),
            row("out", 12, (0, 0, 0, 1), 1, 4, -20.0, 0),
            row("lock", 60, (1, 2, 0, 1), 2, 31, 805.0, 1195),
            row("stall", 48, (0, 1, 0, 0), 1, 12, 40.0, -110),
            row("stall", 51, (1, 1, 0, 0), 0, 0, 75.5, 300),
            row("stock", 70, (2, 2, 1, 0), 2, 40, 1210.0, 905),
            row("stock", 66, (3, 0, 0, 0), 1, 22, 990.0, 1510),
            row("stock", 69, (1, 1, 1, 1), 2, 35, 1505.5, 2105)]
    spec = PlantedAndSeen(10, 8, progress=False, sums=tuple(canasta_round_sums(rows)))
    out = simulate_rounds(CanastaRules(), parse_policies("greedy", 2), spec)
    pr = out["per_round"]
    assert list(pr) == CANASTA_SHOWN + ["seat1_score"]
    for name, k in (("went_out", 4), ("sevens_lock", 1), ("stall", 2), ("stock_exhausted", 3)):
        same_prop(pr[name], k, 10)
    for k, name in enumerate(CANASTA_STATS):
        if name not in ("went_out", "sevens_lock", "stock_exhausted", "stall", "kitty_turn_sum"):
            same(pr[name], [float(xs[k]) for xs, _ in rows])
    same(pr["seat1_score"], [score for _, score in rows])
    assert pr["turns"].estimate == pytest.approx(46.9)  # 469 turns over 10 rounds
    assert {k: v for k, v in out.items() if k != "per_round"} == {
        "game": "canasta", "exact": False, "seed": 8, "n": 10,
        "violations": {"illegal_melds": 0, "sevens_discarded_early": 3, "bad_go_outs": 0,
                       "emptied_hands": 6},
        "rounds_per_second": 10 / 0.5}
    job = PlantedAndSeen.job
    assert (job.name, job.unit, job.block_size, job.headline_half_width) == (
        "canasta rounds", "rounds", 64, None)


def meld_sums(deals, turns):
    """meld_trial's columns: 0 deals, 1 requirement met on the deal, 1 + k first meld by own turn
    k, then the violations after column 80 (deals: (met on the deal, turn of the first meld or
    0))."""
    s = np.zeros(max(CANASTA_WIDTH, 2 + turns) + 4)
    for on_deal, first in deals:
        s[0] += 1
        s[1] += on_deal
        for k in range(first, turns + 1) if first else ():
            s[1 + k] += 1
    s[-4:] = (1, 0, 4, 0)
    return s


# 5 deals: met on the deal once; first melds on own turns 1, 1, 2, 3 and never
MELD_DEALS = [(1, 1), (0, 1), (0, 2), (0, 3), (0, 0)]


def test_canasta_meld_odds_every_field_and_its_job_from_planted_deals(monkeypatch):
    from analyzer.games.canasta import play
    from analyzer.games.canasta.lineup import parse_policies, parse_policy
    from analyzer.games.canasta.rules import CanastaRules

    asked = []
    monkeypatch.setattr(play, "exact_on_deal", lambda *a: asked.append(a) or 0.375)
    seen = fake_mc_blocks(monkeypatch)
    rules = CanastaRules()
    s = meld_sums(MELD_DEALS, 3)
    spec = PlantedAndSeen(5, 6, progress=False, sums=tuple(s))
    out = play.meld_odds(5000, 3, rules, parse_policy("greedy"), spec)
    assert asked == [(5000, rules)]
    on_deal = out.pop("p_requirement_on_deal")
    same_prop(on_deal, 1, 5)
    assert on_deal.exact_value == 0.375
    by_turn = out.pop("by_turn")
    assert [x["turn"] for x in by_turn] == [1, 2, 3]
    for x, k in zip(by_turn, (2, 3, 4)):
        same_prop(x["p_melded"], k, 5)
    # 5000 points: the minimum is 90 (docs/rules/canasta.md, section 4 and R2)
    assert out == {"game": "canasta", "exact": False, "seed": 6, "n": 5, "score": 5000,
                   "requirement": 90, "players": 2, "policy": "greedy", "within_turns": 3,
                   "p_exact_on_deal": 0.375,
                   "violations": {"illegal_melds": 1, "sevens_discarded_early": 0,
                                  "bad_go_outs": 4, "emptied_hands": 0},
                   "deals_per_second": 5 / 0.5}
    job = PlantedAndSeen.job
    assert (job.name, job.unit, job.block_size) == ("canasta meld-odds", "deals", 64)
    lo, hi = wilson_by_hand(1, 5)  # the headline: the half-width of column 1's proportion
    assert job.headline_half_width(s, 5) == pytest.approx((hi - lo) / 2, rel=1e-12)
    job.run_blocks("keys", "counts")
    (args,) = seen
    assert args[:3] == ("keys", "counts", 2) and (args[7], args[8]) == (5000, 3)  # MODE_MELD
    assert args[4][:, 0].tolist() == [0, 0]  # greedy in both seats
    # -35 points: the minimum is 15; a line-up is named seat by seat unless all seats agree;
    # without the exact value nothing is attached (and the enumeration is not asked for)
    asked.clear()
    out = play.meld_odds(-35, 3, rules, parse_policies("builder:10:20,greedy", 2), spec,
                         exact=False)
    assert (out["requirement"], out["policy"], out["p_exact_on_deal"]) == (
        15, "builder:10:20,greedy", None)
    assert out["p_requirement_on_deal"].exact_value is None and asked == []
    assert play.meld_odds(0, 3, rules, parse_policies("greedy", 2), spec)["policy"] == "greedy"
    seen.clear()
    PlantedAndSeen.job.run_blocks(None, None)
    assert seen[0][4][:, :2].tolist() == [[0, 0], [0, 0]]


def test_canasta_meld_odds_turn_bounds_word_for_word(monkeypatch):
    from analyzer.games.canasta import play
    from analyzer.games.canasta.lineup import parse_policy
    from analyzer.games.canasta.rules import CanastaRules

    monkeypatch.setattr(play, "exact_on_deal", lambda *a: None)
    greedy = parse_policy("greedy")
    for turns in (-1, 201):
        with pytest.raises(UserError) as e:
            play.meld_odds(0, turns, CanastaRules(), greedy, Planted(5, 1, sums=(0,) * 84))
        assert str(e.value) == f"--within-turns must be between 0 and 200 (got {turns})"
    # 0 and 200 turns are allowed: no turn at all, or every turn up to 200
    out = play.meld_odds(0, 0, CanastaRules(), greedy,
                         Planted(5, 1, sums=tuple(meld_sums(MELD_DEALS, 0))))
    assert out["by_turn"] == [] and out["within_turns"] == 0
    out = play.meld_odds(0, 200, CanastaRules(), greedy,
                         Planted(5, 1, sums=tuple(meld_sums(MELD_DEALS, 200))))
    assert len(out["by_turn"]) == 200 and out["by_turn"][-1]["turn"] == 200
    assert out["by_turn"][-1]["p_melded"].estimate == 4 / 5
    assert out["violations"]["bad_go_outs"] == 4


# ---- Ten whole games: line-up statistics, the price per auction, paired differences ------------------

def ten_sums(games_a, games_b, players=2):
    """Column sums of two line-ups laid out as ``game_blocks`` writes them (offsets worked out
    from the kernel's loop, via the layout's REC_COL and PRICE_COL: per line-up k at k·LW: games,
    Σx and Σx² of each record field, Σ price·auctions; then per line-up k ≥ 1 at 2·LW + (k − 1)·DW, per seat q: Σd_win,
    Σd_win², Σd_score, Σd_score² of (A − B))."""
    from kernels.ten import whole_layout as L

    out = np.zeros(2 * L.LW + L.DW)
    for k, games in enumerate((games_a, games_b)):
        o = k * L.LW
        for rec in games:
            out[o] += 1
            for i, name in enumerate(L.REC_NAMES):
                v = rec.get(name, 0.0)
                out[o + L.REC_COL[i]] += v  # Σx, then Σx² beside it
                out[o + L.REC_COL[i] + 1] += v * v
            out[o + L.PRICE_COL] += rec.get("auction_price", 0.0) * rec.get("auctions", 0.0)
    for ra, rb in zip(games_a, games_b):
        for q in range(players):
            dw = ra.get(f"win_{q}", 0) - rb.get(f"win_{q}", 0)
            ds = ra.get(f"score_{q}", 0) - rb.get(f"score_{q}", 0)
            o = 2 * L.LW + 4 * q
            out[o:o + 4] += (dw, dw * dw, ds, ds * ds)
    return out


GAMES_A = [{"win_0": 1, "score_0": 9, "score_1": 4, "auctions": 2, "auction_price": 3,
            "tied": 0, "turns": 30},
           {"win_1": 1, "score_0": 5, "score_1": 8, "auctions": 0, "auction_price": 0,
            "first_turn_bust": 1, "turns": 26},
           {"win_0": 0.5, "win_1": 0.5, "score_0": 7, "score_1": 7, "auctions": 3,
            "auction_price": 12, "tied": 1, "turns": 35},
           {"win_0": 1, "score_0": 11, "score_1": 2, "auctions": 1, "auction_price": 1,
            "turns": 22}]
GAMES_B = [{"win_1": 1, "score_0": 3, "score_1": 4},
           {"win_1": 1, "score_0": 5, "score_1": 9},
           {"win_0": 1, "score_0": 8, "score_1": 7},
           {"win_0": 1, "score_0": 10, "score_1": 2}]


def test_ten_lineup_statistics_per_seat_and_per_game():
    from analyzer.games.ten.whole import lineup_stats

    sums = ten_sums(GAMES_A, GAMES_B)
    a = lineup_stats(sums, 0, 2, 2)
    assert a["n"] == 4
    for q in range(2):  # a win rate is a mean of win shares: Wilson at that mean
        same_prop(a["seats"][q]["win_rate"], sum(g.get(f"win_{q}", 0) for g in GAMES_A), 4)
        same(a["seats"][q]["score"], [g.get(f"score_{q}", 0) for g in GAMES_A])
    same(a["turns"], [g["turns"] for g in GAMES_A])
    same(a["auctions"], [g["auctions"] for g in GAMES_A])
    same_prop(a["tied_games"], 1, 4)
    same_prop(a["first_turn_bust"], 1, 4)
    b = lineup_stats(sums, 1, 2, 2)
    same(b["seats"][1]["score"], [g["score_1"] for g in GAMES_B])
    same_prop(b["seats"][0]["win_rate"], 2, 4)
    # a shared win (2.5 wins of 4 for seat 1 of A): the Wilson bounds at p = 0.625
    lo, hi = wilson_by_hand(2.5, 4)
    assert 0 < lo < 0.625 < hi < 1 and a["seats"][0]["win_rate"].ci_low == pytest.approx(lo)


def test_ten_price_per_auction_is_a_ratio_over_games_with_the_delta_method_se():
    from analyzer.games.ten.whole import lineup_stats

    a = lineup_stats(ten_sums(GAMES_A, GAMES_B), 0, 2, 2)["price_per_auction"]
    # a game records its auctions a_i and the total p_i paid in them (2, 0, 3, 1 auctions for
    # 3, 0, 12, 1 tokens): r = Σp/Σa = 16/6, a ratio over games (the auctions of one game are not
    # independent), its SE that of the mean of p_i − r·a_i divided by the mean of a_i
    auctions = [2, 0, 3, 1]
    paid = [3, 0, 12, 1]
    r = sum(paid) / sum(auctions)
    e = [p - r * x for p, x in zip(paid, auctions)]
    se = math.sqrt(sum(v * v for v in e) / 3 / 4) / (sum(auctions) / 4)
    assert a.estimate == pytest.approx(r) and a.se == pytest.approx(se, rel=1e-12)
    assert (a.ci_low, a.ci_high) == pytest.approx((r - Z * se, r + Z * se))
    assert a.n == 6  # the auctions, not the games
    # no auction in any game: no price
    none = [dict(g, auctions=0, auction_price=0) for g in GAMES_A]
    assert lineup_stats(ten_sums(none, GAMES_B), 0, 2, 2)["price_per_auction"] is None


def test_ten_paired_differences_are_a_minus_b_per_seat():
    from analyzer.games.ten.whole import paired_stats

    rows = paired_stats(ten_sums(GAMES_A, GAMES_B), 1, 2, 2)
    assert [r["seat"] for r in rows] == [1, 2]  # seats from 1
    for q in range(2):
        same(rows[q]["win_rate"], [a.get(f"win_{q}", 0) - b.get(f"win_{q}", 0)
                                   for a, b in zip(GAMES_A, GAMES_B)])
        same(rows[q]["score"], [a[f"score_{q}"] - b[f"score_{q}"]
                                for a, b in zip(GAMES_A, GAMES_B)])
    # seat 0 of A wins more than seat 0 of B on these decks: the sign says A − B
    assert rows[0]["win_rate"].estimate == pytest.approx((2.5 - 2) / 4)


# ---- Ten decide: the best of several choices, picked with a simultaneous interval ----------------

#: z of the best-of-3 comparisons, Bonferroni over 2 two-sided: Φ⁻¹(1 − 0.05/4), written out
Z3 = 2.2414027276049464


def ten_decide(per_trial):
    """Ten decide on the shipped draw position (choices draw, numbers, currency) with planted
    playouts: ``per_trial`` lists seat me's win share after each choice, per playout; the sums
    laid out as ``position_blocks`` writes them (offsets from the kernel's loop: Σw_k for k = 0,
    1, 2, then Σw_i·w_j for (i, j) = (0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))."""
    from pathlib import Path

    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.decide import decide
    from analyzer.games.ten.position import load_position
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.rules import build_rules

    rules, deck = build_rules(TenRules), load_deck(None)
    pos = load_position(str(Path("analyzer/data/ten_position_example.toml")), rules, deck)
    s = np.zeros(3 + 6)
    for w in per_trial:
        s[:3] += w
        s[3:] += (w[0] * w[0], w[0] * w[1], w[0] * w[2], w[1] * w[1], w[1] * w[2], w[2] * w[2])
    spec = Planted(len(per_trial), 2, progress=False, sums=tuple(s))
    return decide(pos, rules, deck, parse_seats("threshold", 4), spec)


def test_ten_decide_compares_the_best_choice_with_every_other_on_the_same_playouts():
    # numbers wins most, currency next, drawing least: numbers − currency is the closest call,
    # read from the sums of the pair itself (not through the first choice)
    trials = [(0, 1, 1), (0, 1, 0), (1, 1, 1), (0, 1, 0), (0, 1, 1), (0, 0, 0), (0, 1, 1),
              (0, 1, 0)]
    out = ten_decide(trials)
    for k, c in enumerate(("draw", "numbers", "currency")):
        same_prop(out["p_win"][c], sum(t[k] for t in trials), 8)
    same(out["differences"]["draw − numbers"], [t[0] - t[1] for t in trials])
    same(out["differences"]["draw − currency"], [t[0] - t[2] for t in trials])
    sel = out["selection"]
    assert sel["best"] == "numbers" and sel["z"] == pytest.approx(Z3, rel=1e-12)
    m, se, _lo, _hi = by_hand([t[1] - t[2] for t in trials])
    d = sel["vs"]["currency"]
    assert (d.estimate, d.se) == pytest.approx((m, se)) and m == 3 / 8
    assert (d.ci_low, d.ci_high) == pytest.approx((m - Z3 * se, m + Z3 * se))
    assert m - Z * se > 0 > m - Z3 * se  # separated at 1.96, not at the simultaneous z
    assert out["recommendation"] == "too close to call at n = 8"
    assert out["margin"].startswith("best of 3: numbers − currency = 0.3750 ± ")
    assert sel["too_close"] == ["currency"] and not sel["separated"]
    # a clearer case with more playouts: numbers
    clear = [(0, 1, 0), (0, 1, 0), (0, 1, 1), (0, 1, 0)] * 8
    out = ten_decide(clear)
    assert out["recommendation"] == "numbers" and out["selection"]["separated"]
    assert out["margin"].startswith("best of 3: numbers − currency = 0.7500 ± ")


def test_ten_decide_when_the_first_choice_is_second_the_margin_is_best_minus_it():
    # currency 1 > draw 1/2 > numbers 0: currency − draw from the pair's own sums
    clear = [(1, 0, 1), (0, 0, 1), (1, 0, 1), (0, 0, 1)] * 8
    out = ten_decide(clear)
    assert out["recommendation"] == "currency"
    m, se, _lo, _hi = by_hand([t[2] - t[0] for t in clear])
    assert m == 0.5
    assert out["margin"] == (f"best of 3: currency − draw = {m:.4f} ± {se:.4f} "
                             f"[{m - Z3 * se:.4f}, {m + Z3 * se:.4f}], simultaneous 95% with "
                             f"z = {Z3:.3f}")
