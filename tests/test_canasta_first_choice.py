"""`canasta decide` refuses an illegal forced option (taking the pile, going out) before the
kernel loads, by playing the first turn through the engine's own source as plain Python
(analyzer/games/canasta/pyengine.py). These tests tie that verdict to the compiled kernel's on
many whole positions, legal and illegal, and check that the refusal leaves Numba unloaded."""
from __future__ import annotations

import random

import numpy as np

from analyzer.games.canasta.decide import parse_position
from analyzer.games.canasta.play import make_job, policy_array, rules_arrays
from analyzer.games.canasta.lineup import parse_policies
from analyzer.games.canasta.pyengine import first_choice_allowed
from analyzer.games.canasta.rules import PER_SHARE, CanastaRules
from analyzer.runner import run
from tests.module_probe import ROOT, run_reporting_modules

RULES = CanastaRules()  # two players
RANKS = ["4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"]
DECK = 2 * sum(PER_SHARE)  # two players' decks
# (my melds, the opponent's melds, red threes placed by me / by the opponent, my kitty)
EARLY = ([["QS", "QH", "QD", "QC", "2C"]], [["AS", "AH", "AD"], ["8S", "8H", "8D", "JK"]],
         (1, 0), "unpicked")
LATE = ([["QS", "QH", "QD", "QC", "QS", "QH", "QD"], ["JS", "JH", "JD", "JC", "JS", "2C", "JK"],
         ["2S", "2H", "2D", "2C", "2S", "2H", "2D"], ["7S", "7H", "7D", "7C", "7S", "7H", "7D"],
         ["AS", "AH", "AD", "AC"]],  # a canasta of every type: going out is in reach
        [["9S", "9H", "9D"], ["8S", "8H", "8D", "8C", "2S"]], (1, 2), "picked")


def _pool() -> list[str]:
    """Every card two players' decks hold but red threes (placed at once, never in a hand or
    the pile): four copies of each label, four jokers."""
    labels = [r + s for r in RANKS for s in "SHDC"] + ["3S", "3C"]
    return [lab for lab in labels for _ in range(4)] + ["JK"] * 4


def random_position(rng: random.Random, table=EARLY, hand_size: int = 12, pile_size: int = 6,
                    melded: bool = True, fitting: str = "") -> dict:
    """A position that passes every check: ``table``'s melds with a random hand and pile, phase,
    frozen flag and score; the stock is what the other cards leave (the opponent holds 11 and
    has not picked up the kitty). ``fitting``: ranks that all of the hand but one card are
    drawn from (cards that join my melds, so that going out is often possible)."""
    mine, theirs, (red_me, red_opp), kitty = table
    mine = mine if melded else []
    pool = _pool()
    for meld in theirs + mine:
        for lab in meld:
            pool.remove(lab)
    rng.shuffle(pool)
    if fitting:  # the fitting cards first, then the rest in their shuffled order
        fit = [lab for lab in pool if lab[0] in fitting][:hand_size - 1]
        for lab in fit:
            pool.remove(lab)
        pool = fit + pool
    hand, pile = pool[:hand_size], pool[hand_size:hand_size + pile_size]
    shown = sum(map(len, mine + theirs)) + hand_size + pile_size + red_me + red_opp
    kitties = 11 * (1 + (kitty == "unpicked"))
    return {"phase": rng.choice(["draw", "meld"]), "stock": DECK - shown - 11 - kitties,
            "me": {"score": rng.choice([0, 1600, 3200, 5200]), "hand": hand, "melds": mine,
                   "red_threes": red_me, "kitty": kitty},
            "opponents": [{"score": 3100, "hand_size": 11, "melds": theirs,
                           "red_threes": red_opp, "kitty": "unpicked"}],
            "pile": {"cards": pile, "frozen": rng.random() < 0.3}}


def kernel_says_illegal(pos: dict, policies) -> bool:
    """The compiled kernel's verdict (column 7 of ``decide_trial``: playouts in which a forced
    option was illegal), from a few playouts."""
    from kernels.canasta import MODE_DECIDE

    job = make_job(MODE_DECIDE, RULES, policies, position=pos, name="t", unit="playouts")
    res = run(job, 4, 1, progress=False)
    assert res.sums[7] in (0, 4)  # the same verdict in every playout: it depends on no deal
    return bool(res.sums[7] > 0)


def test_the_plain_python_first_turn_agrees_with_the_kernel():
    """160 random positions: early ones (melded or not, 12 cards in hand) and late ones (a
    canasta of every type, 2 to 6 cards in hand, often all but one fitting my melds or a new
    one), in both phases. The plain-Python verdict on
    each option equals the kernel's, and legal and illegal forced options both occur often
    enough in each phase for the agreement to mean something."""
    policies = parse_policies("greedy", 2)
    rng = random.Random(20261206)
    seen = {(kind, ok): 0 for kind in (0, 1) for ok in (True, False)}
    for k in range(160):
        if k % 2:
            data = random_position(rng, LATE, rng.randint(2, 6), 3,
                                   fitting=rng.choice(["", "QJA2", "KKK"]))
        else:
            data = random_position(rng, EARLY, melded=rng.random() < 0.5)
        pos = parse_position(data, RULES)
        allowed = first_choice_allowed(pos, rules_arrays(RULES)[0], policy_array(policies))
        assert allowed[1], "drawing two / playing on is always open in these positions"
        assert kernel_says_illegal(pos, policies) == (not all(allowed)), data
        seen[(pos["kind"], allowed[0])] += 1
    assert min(seen.values()) >= 8, seen


def test_the_check_leaves_the_position_arrays_unchanged():
    """The plain-Python turn plays on copies: the arrays the kernel gets afterwards are the
    ones the position produced."""
    rng = random.Random(3)
    pos = parse_position(random_position(rng), RULES)
    before = [a.copy() for a in pos["arrays"]]
    first_choice_allowed(pos, rules_arrays(RULES)[0], policy_array(parse_policies("greedy", 2)))
    assert all(np.array_equal(a, b) for a, b in zip(before, pos["arrays"]))


def _refused_without_numba(path) -> tuple[list[str], str]:
    return run_reporting_modules(["canasta", "decide", str(path)], ("numba",))


def test_going_out_not_allowed_is_refused_before_numba_loads():
    """The data file `bench` times (nothing in the hand lets me go out): one line, exit 2, and
    Numba never imported."""
    lines, err = _refused_without_numba(ROOT / "analyzer" / "data" /
                                        "canasta_position_no_going_out.toml")
    assert lines[-1] == "2 False", err
    assert lines[:-1] == ["pushluck: error: going out is not allowed in this position"], err


def test_taking_the_pile_not_allowed_is_refused_before_numba_loads(tmp_path):
    """The example position with a black three on top of the pile (nobody may take it)."""
    text = (ROOT / "analyzer" / "data" / "canasta_position_example.toml").read_text()
    text = text.replace('"6H", "9S"]', '"6H", "3S"]').replace('"3S", "5H"]', '"9S", "5H"]')
    f = tmp_path / "position.toml"
    f.write_text(text)
    lines, err = _refused_without_numba(f)
    assert lines[-1] == "2 False", err
    assert lines[:-1] == ["pushluck: error: taking the pile is not allowed in this position"], err
