"""Ten's one-turn kernel: the branch-free pass with exact replay of rare trials
(kernels/ten/turn_codes.py, ``turn_blocks`` mode MODE_FAST) against the general one-turn-at-a-
time loop (MODE_GENERAL) on the same streams: equal sums bit for bit over rule variants, value
models, piles, policies and block sizes; the same with every trial forced through the replay
(MODE_REPLAY_ALL); and checks that the fast pass really runs where it should."""
import numpy as np
import pytest

from analyzer.games.ten.exact import KIND_CARDS, KIND_OPTIMAL, KIND_TOTAL, Model, TenPolicy
from analyzer.games.ten.play import make_job
from analyzer.games.ten.rules import TenRules, TurnState, ValueModel, load_deck, turn_state
from analyzer.rng import block_keys
from kernels.rng import lemire_threshold

SPEC = load_deck()
RULES = TenRules()
KEYS = block_keys(16, 0, 6)
COUNTS = np.array([2000, 65, 64, 63, 1, 0], dtype=np.int64)  # chunk edges, one trial, none


def _kernel_args(model, policies):
    """The arguments ``make_job`` binds for ``turn_blocks`` after (keys, counts)."""
    job = make_job(model, policies)
    cells = [c.cell_contents for c in job.run_blocks.__closure__]
    return next(c for c in cells if isinstance(c, tuple))


def _modes(model, policies, keys=KEYS, counts=COUNTS):
    from kernels.ten.turn import MODE_FAST, MODE_GENERAL, MODE_REPLAY_ALL, turn_blocks

    args = _kernel_args(model, policies)
    return [turn_blocks(keys, counts, *args, mode)
            for mode in (MODE_FAST, MODE_GENERAL, MODE_REPLAY_ALL)]


def _small_pile():
    avail = [0] * 14
    avail[4] = 1   # one number 5
    avail[8] = 1   # one number 9
    avail[9] = 2   # two currency 1
    return TurnState(tuple(avail), 1, 0, 0, 0, 0)  # six cards left, one a wild


MODELS = {
    "fresh": Model(turn_state(RULES, SPEC), RULES, ValueModel()),
    "partial": Model(turn_state(RULES, SPEC, "r4,$2", "r9,b9,g9,o9,$1,$1,r#,**,b6"), RULES,
                     ValueModel(opp=0.25), players=3, tokens_held=7),
    "tight-rules": Model(turn_state(TenRules(bust_at=9, currency_bust_at=8), SPEC),
                         TenRules(bust_at=9, currency_bust_at=8),
                         ValueModel(card=1, token=0.5, bust=1, opp=0.125), players=3),
    "small-pile": Model(_small_pile(), RULES, ValueModel()),
    "near-bust": Model(turn_state(RULES, SPEC, "r9,$5,$4"), RULES, ValueModel(), tokens_held=9),
}
POLICIES = [TenPolicy(KIND_TOTAL, 7), TenPolicy(KIND_TOTAL, 2), TenPolicy(KIND_TOTAL, 30),
            TenPolicy(KIND_CARDS, 3), TenPolicy(KIND_CARDS, 2), TenPolicy(KIND_OPTIMAL)]


@pytest.mark.parametrize("policy", POLICIES, ids=[p.label for p in POLICIES])
@pytest.mark.parametrize("name", sorted(MODELS))
def test_fast_pass_and_forced_replay_equal_the_general_loop(name, policy):
    fast, general, replayed = _modes(MODELS[name], [policy])
    assert np.array_equal(fast, general)
    assert np.array_equal(replayed, general)


def test_several_policies_and_unexact_values_take_the_general_loop_with_the_same_sums():
    # K > 1 (paired differences) and a value weight that is no multiple of a power of two
    model = Model(turn_state(RULES, SPEC), RULES, ValueModel(opp=0.1), players=4)
    fast, general, replayed = _modes(model, [TenPolicy(KIND_TOTAL, 7)])
    assert np.array_equal(fast, general) and np.array_equal(replayed, general)
    pols = [TenPolicy(KIND_OPTIMAL), TenPolicy(KIND_TOTAL, 7), TenPolicy(KIND_CARDS, 3)]
    fast, general, replayed = _modes(MODELS["fresh"], pols)
    assert np.array_equal(fast, general) and np.array_equal(replayed, general)


def test_value_scale_only_where_sums_are_exact():
    from kernels.ten.turn_codes import value_scale

    assert value_scale(1.0, 0.25, 0.75, 0.0, 129.0, 1 << 14) == 4.0
    assert value_scale(1.0, 0.25, 0.75, 0.1, 129.0, 1 << 14) == 0.0  # 0.1 is not dyadic
    assert value_scale(1.0, 1.0, 1.0, 0.0, 2.0 ** 30, 1) == 0.0       # too large to stay exact
    assert value_scale(3.0, 2.0, -1.0, 0.0, 50.0, 100) == 1.0


@pytest.mark.parametrize("policy", [TenPolicy(KIND_TOTAL, 7), TenPolicy(KIND_OPTIMAL)],
                         ids=["total:7", "optimal"])
def test_the_fast_pass_runs_and_flags_only_some_trials(policy):
    """On a fresh deck most trials end inside the branch-free pass (so the equalities above do
    test it); a threshold of 2**32 flags every trial."""
    from analyzer.games.ten.exact import solve
    from kernels.ten.turn_codes import (CHUNK, NSUMS, POLICY_OPTIMAL, POLICY_TOTAL, chunk_sums,
                                        flat_tables, pack_positions)

    model = MODELS["fresh"]
    sol = solve(model)
    args = _kernel_args(model, [policy])
    pile, tpos, cpos, isn, ist, T0, C0, n0, tab0, bust_at, cbust = args[:11]
    child, draws = flat_tables(sol.nchild, sol.cchild, sol.decision)
    pk = pack_positions(pile, tpos, cpos, isn, ist)
    kw = [KEYS[0, i] for i in range(4)]
    kind = POLICY_OPTIMAL if policy.kind == KIND_OPTIMAL else POLICY_TOTAL
    R = pile.shape[0]
    counts = []
    for thr in (lemire_threshold(R), np.uint64(1 << 32)):
        sums = np.zeros(NSUMS, dtype=np.int64)
        total = 0
        for t0 in range(0, 2048, CHUNK):
            bits = chunk_sums(sums, *kw, t0, t0 + CHUNK, np.uint64(thr), pk, R, np.int64(-1),
                              T0, C0, n0, tab0, bust_at, cbust, kind, policy.param, child,
                              draws, sol.nchild.size, sol.decision.shape[1], (4, 1, 3, 0, 10, 10))
            total += bin(int(bits)).count("1")
        counts.append(total)
    assert 20 < counts[0] < 300  # about 6% (total:7) or 4% (optimal) still drawing after 8
    assert counts[1] == 2048
