"""Trash Pandas' three-pass no-cards kernel (kernels/trash_pandas/nocards.py) against the one-pass
card kernel (``simulate_turns`` with no cards in hand), an independent implementation of the same
turns on the same streams: equal sums for every policy and bonus rule, bit for bit with integer
values and to rounding with fractional ones; and the exact replay of rare trials, forced onto
every trial, changes nothing."""
import numpy as np
import pytest
from numba import njit

from analyzer.games.trash_pandas.exact import TurnSolver
from analyzer.games.trash_pandas.play import build_tables
from analyzer.games.trash_pandas.lineup import parse_policy
from analyzer.games.trash_pandas.rules import TrashPandasRules, ValueModel
from analyzer.rng import block_keys

KEYS = block_keys(41, 0, 4)
COUNTS = np.array([3000, 2500, 1, 0], dtype=np.int64)  # a one-trial and an empty block too


def _both(policy, rules, values=ValueModel(), keys=KEYS, counts=COUNTS):
    from kernels.trash_pandas import simulate_turns, simulate_turns_nocards

    solver = TurnSolver(values, rules)
    t = build_tables(parse_policy(policy), solver, 0, 0, 0)
    r = solver.rules
    fast = simulate_turns_nocards(keys, counts, r.bonus_turn, r.bonus_cap,
                                  float(solver.bust_value), t.roll, t.resolve_val)
    general = simulate_turns(keys, counts, 0, 0, 0, 1, 1, 1, r.bonus_turn, r.bonus_cap,
                             float(solver.card), float(solver.bust_value), t.after, t.roll,
                             t.stop_pies, t.six_pies, t.resolve_val)
    return fast, general, (solver, t)


RULES = [TrashPandasRules(), TrashPandasRules(bonus_turn=False), TrashPandasRules(bonus_cap=1),
         TrashPandasRules(bonus_cap=5)]


@pytest.mark.parametrize("policy", ["stop-at:6", "stop-at:1", "stop-at:3", "optimal"])
@pytest.mark.parametrize("rules", RULES, ids=["default", "no-bonus", "cap1", "cap5"])
def test_same_sums_as_the_card_kernel_bit_for_bit(policy, rules):
    fast, general, _ = _both(policy, rules)
    assert np.array_equal(fast, general)
    assert fast[3].sum() == 0.0 and fast[2, 6] >= 1  # the empty block is empty; one roll at least


def test_fractional_values_agree_to_rounding():
    """Value weights that are not integers: the counts-times-values sums equal the one-pass
    trial-by-trial sums up to floating-point rounding (module doc), and the integer columns
    exactly."""
    values = ValueModel(draw=0.7, stash=1.3, steal=0.9, mask=1.1, bust=0.35)
    fast, general, _ = _both("optimal", TrashPandasRules(), values)
    np.testing.assert_allclose(fast, general, rtol=1e-12, atol=1e-9)
    ints = [2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert np.array_equal(fast[:, ints], general[:, ints])


def test_forcing_every_trial_through_the_exact_replay_changes_nothing():
    """``thr = 2**32`` flags every face word, so every trial is replayed exactly (pass 2);
    ``2**31`` flags about half; ``2**29`` one in eight, so that about half of the bonus turns
    played in pass 3 are flagged and replayed there. All give the sums of the normal
    threshold."""
    from kernels.trash_pandas.nocards import nocards_blocks

    for rules in RULES:
        solver = TurnSolver(ValueModel(), rules)
        t = build_tables(parse_policy("stop-at:6"), solver, 0, 0, 0)
        args = (KEYS, COUNTS, rules.bonus_turn, float(solver.bust_value), t.roll, t.resolve_val)
        normal = nocards_blocks(*args, np.uint64(2**32 % 6))
        for thr in (np.uint64(1 << 32), np.uint64(1 << 31), np.uint64(1 << 29)):
            assert np.array_equal(nocards_blocks(*args, thr), normal)


def test_columns_by_hand_on_the_codes():
    """The sums' bookkeeping on whole turns: with stop-at:1 every turn takes exactly one token
    in one roll (the first roll cannot bust), so Σtokens = Σtokens² = Σrolls = Σrolls² = n, no
    busts and no sixes, and Σvalue lies between n times the smallest and the largest value of a
    single token."""
    fast, _, (solver, t) = _both("stop-at:1", TrashPandasRules())
    s = fast.sum(axis=0)
    n = COUNTS.sum()
    assert s[2] == 0 and s[3] == n and s[4] == n and s[6] == n and s[8] == n and s[5] == 0
    singles = [t.resolve_val[(1 << f) * 7] for f in range(6)]
    assert min(singles) * n <= s[0] <= max(singles) * n


def test_a_trial_from_the_all_zero_state_gets_the_same_code_unchecked():
    """Pass 1 seeds without seed_words' all-zero fix-up (kernels.rng.seed_words_unchecked). Trial
    7 of the key (7·GOLDEN + j)_j mixes to the all-zero state, which seed_words turns into
    s0 = 1: pass 1's codes of that block equal those of seed_words' streams trial by trial (the
    first draw is 0 either way), and the sums equal the card kernel's, for a by-size and a
    general table."""
    from kernels.rng import seed_words
    from kernels.trash_pandas.nocards import _LEMIRE_6, _main_codes, _six_faces_code

    @njit
    def checked_codes(k0, k1, k2, k3, n, roll_main, thr):
        out = np.empty(n, dtype=np.uint8)
        for t in range(n):
            s0, s1, s2, s3 = seed_words(k0, k1, k2, k3, t)
            out[t] = _six_faces_code(s0, s1, s2, s3, roll_main, thr)
        return out

    t7 = (7 * 0x9E3779B97F4A7C15) % 2**64
    key = np.array([t7, t7 + 1, t7 + 2, t7 + 3], dtype=np.uint64)
    for policy in ("stop-at:6", "optimal"):
        fast, general, (_, t) = _both(policy, TrashPandasRules(), keys=key[None, :],
                                      counts=np.array([64], dtype=np.int64))
        assert np.array_equal(fast, general)
        roll_main = np.uint64(sum(1 << h for h in range(64) if t.roll[h]))
        codes = np.zeros(64, dtype=np.uint8)
        _main_codes(codes, *key, 64, roll_main, _LEMIRE_6)
        assert np.array_equal(codes, checked_codes(*key, 64, roll_main, _LEMIRE_6))
