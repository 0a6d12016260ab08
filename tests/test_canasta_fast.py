"""Railroad Canasta's fast kernels (issue 16) play exactly the games of the engine before the
speed work, over rule variants, policies, every Monte Carlo mode and several block sizes.

The speed work compiles the hot kernels without Numba's reference counting (``_nrt=False``:
the per-call increments and decrements of every array argument were over half of a round's
time); only the functions that allocate keep it. The algorithm and the random-number use are
unchanged, so the sums must be bit-identical: ``EXPECTED`` holds digests of ``mc_blocks``'s
per-block sums taken from the engine before the change (kernels/canasta at commit cc369de),
on cases the pins of tests/test_kernel_pins.py do not reach (3 and 4 players, the rule
options, take-the-pile and builder knobs, rule tables, meld odds, a decision position).
Regenerate only for a stated change of the engine's games: ``python tests/test_canasta_fast.py``
prints the current table.
"""
from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

import numpy as np
import pytest

from analyzer.rng import block_keys

SEED = 20261207
SIZES = ((1, 5), (3, 24))   # (blocks, trials per block)
EXAMPLE = Path(__file__).resolve().parents[1] / "analyzer" / "data" / "canasta_position_example.toml"

# (label, mode name, rule overrides, seats, meld-odds score, meld-odds turns, position?)
CASES = [
    ("rounds 2p greedy", "MODE_ROUNDS", {}, "greedy", 0, 0, False),
    ("rounds 3p builder, red3 replace, wilds in sevens", "MODE_ROUNDS",
     dict(players=3, red3_replace=True, wilds_in_sevens=True), "builder:5:30", 0, 0, False),
    ("rounds 4p takers, wild up-card open, lock needs requirement", "MODE_ROUNDS",
     dict(players=4, hand_size=11, kitty_size=9, wild_upcard_freezes=False,
          lock_meld_needs_requirement=True), "takers", 0, 0, False),
    ("games 2p greedy", "MODE_GAMES", dict(target=8000), "greedy", 0, 0, False),
    ("games 3p rule tables", "MODE_GAMES", dict(players=3, target=6000), "tables", 0, 0, False),
    ("meld odds at 3000 within 3 turns", "MODE_MELD", {}, "greedy", 3000, 3, False),
    ("decide: example position", "MODE_DECIDE", {}, "greedy", 0, 0, True),
]


def _seats(text: str, players: int):
    from analyzer.games.canasta.advice import knob_pair
    from analyzer.games.canasta.play import CanastaPolicy
    from analyzer.games.canasta.lineup import parse_policies

    if text == "takers":
        return [CanastaPolicy("greedy", take=1, take_min=3), CanastaPolicy("greedy", take=0),
                CanastaPolicy("builder", go_min=5, floor=10, take=1, take_min=6),
                CanastaPolicy("greedy")][:players]
    if text == "tables":
        return [knob_pair(3, 5, 10).policy(), CanastaPolicy("greedy"),
                knob_pair(1, 0, 0).policy()][:players]
    return parse_policies(text, players)


def case_args(case) -> tuple:
    """``mc_blocks``'s arguments after (keys, counts) for one case."""
    from analyzer.games.canasta.decide import parse_position
    from analyzer.games.canasta.play import _dummy_position, policy_array, rules_arrays
    from analyzer.games.canasta.rules import CanastaRules
    from kernels.canasta import trials

    _, mode, overrides, seats, score, turns, positioned = case
    rules = CanastaRules(**overrides)
    rp, thr, reqv = rules_arrays(rules)
    pol = policy_array(_seats(seats, rules.players))
    if positioned:
        pos = parse_position(tomllib.loads(EXAMPLE.read_text()), rules)
        arrays, stock_n, skip, kind = pos["arrays"], pos["stock"], pos["skip_draw"], pos["kind"]
    else:
        arrays, stock_n, skip, kind = _dummy_position(rules.players), 0, False, 0
    return (getattr(trials, mode), rp, pol, thr, reqv, score, turns, *arrays, stock_n, skip,
            kind)


def digest(sums: np.ndarray) -> str:
    return hashlib.sha256(repr([float(x) for x in sums.ravel()]).encode()).hexdigest()[:16]


def block_sums(case, blocks: int, n: int) -> np.ndarray:
    from kernels.canasta import mc_blocks

    keys = block_keys(SEED, 0, blocks)
    return np.asarray(mc_blocks(keys, np.full(blocks, n, np.int64), *case_args(case)))


#: (label, blocks, trials per block) -> digest of the per-block sums (violations included)
EXPECTED: dict[tuple[str, int, int], str] = {
    ("rounds 2p greedy", 1, 5): "e40b21706e083cda",
    ("rounds 2p greedy", 3, 24): "6dd373919f9bfda2",
    ("rounds 3p builder, red3 replace, wilds in sevens", 1, 5): "fe7000a391e353d7",
    ("rounds 3p builder, red3 replace, wilds in sevens", 3, 24): "1e74171c9a2cf898",
    ("rounds 4p takers, wild up-card open, lock needs requirement", 1, 5): "72add415b6871578",
    ("rounds 4p takers, wild up-card open, lock needs requirement", 3, 24): "4ba79eaae2684aee",
    ("games 2p greedy", 1, 5): "cf2eafc7e2336af4",
    ("games 2p greedy", 3, 24): "5969633596b2485e",
    ("games 3p rule tables", 1, 5): "f63f51914b3b6247",
    ("games 3p rule tables", 3, 24): "256325d1ae881702",
    ("meld odds at 3000 within 3 turns", 1, 5): "741dffddda40fc28",
    ("meld odds at 3000 within 3 turns", 3, 24): "4fa5305d959d575d",
    ("decide: example position", 1, 5): "3590f94036937e5d",
    ("decide: example position", 3, 24): "e330ffbe7058e2fe",
}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_fast_kernels_play_the_games_of_the_engine_before(case):
    for blocks, n in SIZES:
        sums = block_sums(case, blocks, n)
        assert sums[:, :-4].sum() > 0
        assert not sums[:, -4:].any(), "a rule violation in the engine's own play"
        assert digest(sums) == EXPECTED[(case[0], blocks, n)], (case[0], blocks, n)


def test_hot_kernels_run_without_reference_counting():
    """The speed of issue 16: the turn loop and everything it calls skip Numba's reference
    counting; the functions that allocate keep it (a flag left off would not fail a pin)."""
    from kernels.canasta import engine, meld, trials

    for mod, names in ((engine, ("play_turns", "take_option", "take_pile", "choose_discard",
                                 "draw_cards", "deal", "score_round", "by_table")),
                       (meld, ("put", "meld_phase", "meld_all", "go_out_card", "plan_initial",
                               "may_complete_types")),
                       (trials, ("play_game", "game_trial", "round_trial", "meld_trial",
                                 "decide_trial", "setup_position"))):
        for name in names:
            assert getattr(mod, name).targetoptions.get("_nrt") is False, name
    assert meld.completes_four_types.targetoptions.get("_nrt") is True


if __name__ == "__main__":
    print("EXPECTED: dict[tuple[str, int, int], str] = {")
    for case in CASES:
        for blocks, n in SIZES:
            print(f"    ({case[0]!r}, {blocks}, {n}): {digest(block_sums(case, blocks, n))!r},")
    print("}")
