"""Random entries (fixed seed) never crash a table: each is applied or refused with a one-line
UserError, and after every applied entry the table's invariants hold (Trash Pandas: decide's own
position checks, which every entry already runs; Ten: cards and tokens conserved)."""
from __future__ import annotations

import random
from collections import Counter

from analyzer.errors import UserError
from analyzer.play.ten import TenTable
from analyzer.play.trash_pandas import TrashPandasTable

EXTRA = ["1", "2", "3", "0", "-1", "99", "@1", "@2", "@9", "hand", "down", "up", "r5", "$3",
         "r#", "**", "*5", "4t", "1b", "x", "@", "t", "b", "feesh", "blammo", "paw", "mask"]


def random_entries(table, rng, steps):
    cards = [f"{c}{v}" for c in "rbgo" for v in range(1, 7)] + ["$1", "$2", "r9", "g#"]
    words = list(table.VALUES) + EXTRA + (cards if table.GAME == "ten" else [])
    applied = 0
    for _ in range(steps):
        entry = " ".join([rng.choice(list(table.WORDS))] +
                         [rng.choice(words) for _ in range(rng.randint(0, 2))])
        try:
            table.enter(entry)
            applied += 1
        except UserError as exc:
            assert "\n" not in str(exc)
            continue
        first, *rest = entry.split()
        assert not (first in table.BARE and rest)  # a word too many is refused, not ignored
        yield entry
        if rng.random() < 0.05:
            table.undo()
    assert applied > 0


def test_random_trash_pandas_entries():
    rng = random.Random(41)
    for players in (2, 3, 4):
        t = TrashPandasTable(players, players - 1)
        t.enter("deal " + " ".join(["nanners"] * t.deal_sizes[players - 1]))
        for _ in random_entries(t, rng, 400):
            t.check(t.state)  # decide's checks, history replay included


def test_random_ten_entries():
    rng = random.Random(42)
    for players in (1, 2, 5):
        t = TenTable(players, 0)
        for _ in random_entries(t, rng, 400):
            s = t.state
            listed = Counter(s.tableau) + s.market + s.out
            for c in s.collections:
                listed += Counter(c)
            if s.wild:
                listed[s.wild] += 1
            assert not listed - t.deck  # no card more often than the deck holds it
            assert sum(listed.values()) + sum(t.pile(s).values()) == 129  # the rules page
            assert all(0 <= k <= 10 for k in s.tokens) and t.supply(s) >= 0
            assert sum(s.busts) <= t.rules.bust_tokens
