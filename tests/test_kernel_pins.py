"""Seeded pins of every bench kernel: the per-column sums of a few fixed blocks.

The expected sums were taken from the tree before the speed work of issue 16 (branch ``layout``),
so a change that makes a kernel faster must leave its numbers bit-identical: same seed, same block
keys, same sums. Regenerate only for a stated change of a kernel's random-number use:
``python tests/test_kernel_pins.py`` prints the current table.
"""
from __future__ import annotations

import hashlib

import numpy as np
import pytest

from analyzer.rng import block_keys

SEED = 20261130
BLOCKS = 3


def _bench_jobs():
    """(label, job) of every kernel BenchCase of every game, built lazily."""
    from analyzer.games import REGISTRY, get_game

    for key in REGISTRY:
        for case in get_game(key).load("bench"):
            if hasattr(case, "make_job"):
                yield f"{case.game}: {case.name}", case.make_job


def _stop_at(k):
    def make():
        from analyzer.runner import KernelJob
        from kernels.trash_pandas import stop_at_plain

        return KernelJob(f"stop-at:{k}", 1000, lambda keys, counts: stop_at_plain(keys, counts, k))

    return make


def all_jobs():
    jobs = dict(_bench_jobs())
    for k in (1, 3, 5, 6):
        jobs[f"trash-pandas: stop_at_plain k={k}"] = _stop_at(k)
    return jobs


def pin_of(sums: list[float]) -> tuple[list[float], str]:
    """The first six sums and a digest of them all (so long sum vectors stay readable)."""
    return sums[:6], hashlib.sha256(repr(sums).encode()).hexdigest()[:16]


def sums_of(make_job, per_block=None) -> list[float]:
    """Column sums of ``BLOCKS`` blocks of the job (at most 2000 trials each) under ``SEED``."""
    job = make_job()
    n = min(job.block_size, 2000) if per_block is None else per_block
    keys = block_keys(SEED, 0, BLOCKS)
    counts = np.full(BLOCKS, n, dtype=np.int64)
    out = np.asarray(job.run_blocks(keys, counts), dtype=np.float64)
    return [float(x) for x in out.sum(axis=0)]


#: label -> (first six column sums, sha256 prefix of repr of all column sums as floats).
EXPECTED: dict[str, tuple[list[float], str]] = {
    'trash-pandas: turns, stop-at:6, no cards':
        ([6790.0, 14858.0, 5911.0, 684.0, 5454.0, 89.0], '9131d4dd1b71e2ab'),
    'trash-pandas: turns, minimal hand-written loop (calibration)':
        ([5911.0, 534.0, 89.0], 'a1602bda943765c4'),
    'trash-pandas: turns, stop-at:6, exact bare loop': ([5911.0, 534.0, 89.0], 'a1602bda943765c4'),
    'trash-pandas: turns, optimal, Blammo!/Nanners/Pie 1/1/1':
        ([28214.0, 153536.0, 240.0, 18119.0, 59501.0, 0.0], '991f98ce29f2a3a7'),
    'ten: one turn, total:7, fresh deck':
        ([1314.0, 299.0, 10929.0, 32641.0, 9.0, 81.0], '10b58415f2c3e426'),
    'ten: one turn, exact optimal policy, fresh deck':
        ([1513.0, 197.0, 11242.0, 32812.0, 854.0, 8126.0], '73585674ce3fc9ad'),
    'magdagdon: feasibility check (mid-game boards)': ([5367.0], '7029bf8f5bfde0d5'),
    'magdagdon: greedy whole games (SURVIVAL)':
        ([769265.0, 218398751.0, 22986.0, 175272.0, 5723.0, 15803.0], 'f468035dd0ea906b'),
    # PEACEFUL greedy games (issue 16), pinned from the code before its speed work
    'magdagdon: greedy whole games (PEACEFUL)':
        ([855687.0, 268725677.0, 21294.0, 149838.0, 5444.0, 13758.0], 'd593f7217e238fc9'),
    'gostop: 2 players, greedy, whole deals':
        ([0.0, 106.0, 21.0, 3336.0, 2664.0, 0.0], '080f67fb84dacafd'),
    'gostop: 3 players, greedy/go:2/random, whole deals':
        ([26.0, 26.0, 5.0, 3446.0, 1505.0, 1023.0], 'ab1501ccbda3e491'),
    'canasta: round engine, 2 players, greedy':
        ([192.0, 18399.0, 1841495.0, 75.0, 75.0, 9.0], '95a5b9d50dc633ca'),
    'canasta: whole games to 20,000, 2 players, greedy':
        ([192.0, 699.0, 2611.0, 0.0, 97.0, 95.0], 'dfdb921efe63e78a'),
    'pig: games, hold:20 vs hold:20':
        ([3152.0, 118270.0, 435014.0, 3152.0, 2540032.0, 33547264.0], 'fb95b21bdd8a32ab'),
    'pig: games, optimal vs optimal':
        ([3199.0, 114437.0, 464611.0, 3199.0, 2416335.0, 38873171.0], '3f189720a8c3802b'),
    # whole-game kernels (issues 13 and 14), pinned when they landed; the two Trash Pandas ones
    # re-pinned for issue 34's rulebook readings (Feesh at any moment of the own turn, the
    # active player's gains locked, Shiny after a bust; two new counter columns), after the
    # kernel and the Python reference agreed game by game under them
    'trash-pandas: whole games, 3 players, heuristic bots':
        ([1536.0, 424.8333333333333, 421.3611111111111, 531.3333333333333, 527.1111111111111,
          579.8333333333333], 'e3f8cc68180e4a3c'),
    # the search bot's switch rule (7 Dec 2026, default switch=1) changes its decisions: 24
    # roll-or-stop decisions, 17 rolls (14 with switch=0, the pins before)
    'trash-pandas: search decisions, roll or stop, search:1000 (3 players)':
        ([24.0, 17.0], '490c2da1f5503e5a'),
    'trash-pandas: whole games, 3 players, search:1000 in seat 1, heuristics':
        ([3.0, 1.0, 1.0, 1.0, 1.0, 1.0], 'c5e82f5559fcdbda'),
    'trash-pandas: whole games, 3 players, solver bots':
        ([1536.0, 428.16666666666663, 424.97222222222223, 551.1666666666667, 547.9722222222222,
          556.6666666666667], 'b83e4238b5b56ec2'),
    'ten: whole 4-player game, threshold bots (value bids, buys, rewards)':
        ([768.0, 25265.0, 833449.0, 6619.0, 57259.0, 6537.0], '80320a0bd51dd89e'),
    'ten: whole 4-player game, threshold bots, no bids or buys':
        ([768.0, 25265.0, 833449.0, 6619.0, 57259.0, 6537.0], '9a132b666e404441'),
    'trash-pandas: stop_at_plain k=1': ([0.0, 3000.0, 0.0], '24fe737f7d6938da'),
    'trash-pandas: stop_at_plain k=3': ([1343.0, 4971.0, 0.0], '73e4f5c3d2d4c51c'),
    'trash-pandas: stop_at_plain k=5': ([2725.0, 1375.0, 0.0], '64de304a66683ff6'),
    'trash-pandas: stop_at_plain k=6': ([2954.0, 276.0, 46.0], 'f509dea9b482b4be'),
}


def _canasta_balance_columns() -> tuple[int, int]:
    """(first, count) of the balance columns ``game_trial`` added after the pins were taken
    (issue 38): 2 players."""
    from kernels.canasta.trials import GAME_EXTRA, NROUNDSTAT

    return 4 + 2 + 3 * NROUNDSTAT + 2, GAME_EXTRA


def _ten_balance_columns() -> tuple[int, int]:
    """(first, count) of Ten's balance record fields' sums (issue 38), one line-up."""
    from kernels.ten.whole_layout import LINEUP_COLUMNS, PRICE_COL

    return PRICE_COL + 1, len(LINEUP_COLUMNS) - PRICE_COL - 1


#: label -> (first, count) of sum columns added later, left out of the older pin (their own
#: pins are in EXPECTED_NEW): the older columns keep their values.
ADDED_COLUMNS = {
    "ten: whole 4-player game, threshold bots (value bids, buys, rewards)": _ten_balance_columns,
    "ten: whole 4-player game, threshold bots, no bids or buys": _ten_balance_columns,
    "canasta: round engine, 2 players, greedy": _canasta_balance_columns,
    "canasta: whole games to 20,000, 2 players, greedy": _canasta_balance_columns,
}


def older_columns(label: str, sums: list[float]) -> list[float]:
    if label not in ADDED_COLUMNS:
        return sums
    first, count = ADDED_COLUMNS[label]()
    return sums[:first] + sums[first + count:]


@pytest.mark.parametrize("label", sorted(EXPECTED))
def test_kernel_pin(label):
    assert pin_of(older_columns(label, sums_of(all_jobs()[label]))) == EXPECTED[label]


def _pig_balance():
    from analyzer.games.pig.balance import balance_job
    from analyzer.games.pig.lineup import parse_policy_pair
    from analyzer.games.pig.rules import PigRules

    return balance_job(parse_policy_pair("optimal,hold:20"), PigRules())


def _ten_balance_sums() -> list[float]:
    first, count = _ten_balance_columns()
    label = "ten: whole 4-player game, threshold bots (value bids, buys, rewards)"
    return sums_of(all_jobs()[label])[first:first + count]


def _canasta_balance_sums() -> list[float]:
    from analyzer.games.canasta.bench import make_games_job

    first, count = _canasta_balance_columns()
    return sums_of(make_games_job)[first:first + count]


#: Pins of the balance columns of issue 38, taken when they landed: Pig's ``balance_blocks``
#: (optimal first, hold at 20 second), Ten's balance record fields (threshold bots) and
#: Railroad Canasta's ``game_trial`` balance columns.
EXPECTED_NEW: dict[str, tuple[list[float], str]] = {
    'pig: balance, optimal vs hold:20':
        ([6000.0, 3445.0, 116119.0, 2464749.0, 74092.0, 1121556.0], 'de16619c3903a81e'),
    'ten: whole games, balance fields':
        ([3493.0, 20185.0, 677.0, 677.0, 449.0, 448.5], '84184721109f3aab'),
    'canasta: whole games to 20,000, balance columns':
        ([133.0, 225.0, 192.0, 165.0, 585005.0, 2749054025.0], '4527c2b780f310e3'),
}


def test_pig_balance_pin():
    assert pin_of(sums_of(_pig_balance)) == EXPECTED_NEW["pig: balance, optimal vs hold:20"]


def test_ten_balance_pin():
    assert pin_of(_ten_balance_sums()) == EXPECTED_NEW["ten: whole games, balance fields"]


def test_canasta_balance_pin():
    assert pin_of(_canasta_balance_sums()) == \
        EXPECTED_NEW["canasta: whole games to 20,000, balance columns"]


def test_every_bench_kernel_is_pinned():
    assert sorted(all_jobs()) == sorted(EXPECTED)


if __name__ == "__main__":
    for label, make in all_jobs().items():
        print(f"    {label!r}: {pin_of(older_columns(label, sums_of(make)))!r},")
    print(f"    'pig: balance, optimal vs hold:20': {pin_of(sums_of(_pig_balance))!r},")
    print(f"    'ten: whole games, balance fields': {pin_of(_ten_balance_sums())!r},")
    print(f"    'canasta: whole games to 20,000, balance columns': "
          f"{pin_of(_canasta_balance_sums())!r},")


def test_stop_block_replay_path_gives_the_pinned_sums():
    """The exact replay of a flagged block (``exact=True``) reproduces the pinned stop-at:6 sums,
    and the branch-free pass raises the flag when the rejection threshold is forced up (a real
    d6 rejection has probability about 1e-9 per face, too rare to meet in a test)."""
    from kernels.rng import lemire_threshold
    from kernels.trash_pandas.turn import _stop_block

    keys = block_keys(SEED, 0, BLOCKS)
    thr = lemire_threshold(6)
    totals = np.zeros(3)
    for b in range(BLOCKS):
        k = [keys[b, j] for j in range(4)]
        *sums, rej = _stop_block(k[0], k[1], k[2], k[3], 1000, 6, thr, True)
        assert rej == 0
        fast = _stop_block(k[0], k[1], k[2], k[3], 1000, 6, thr, False)
        assert list(fast[:3]) == sums and fast[3] == 0
        assert _stop_block(k[0], k[1], k[2], k[3], 1000, 6, np.uint64(1 << 31), False)[3] == 1
        totals += sums
    assert pin_of([float(x) for x in totals]) == EXPECTED["trash-pandas: stop_at_plain k=6"]
