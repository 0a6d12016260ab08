"""The cache entries shipped with the package (analyzer/data/cache): what they are and how to make them.

What belongs here: the list of default setups whose cache entries a first query needs, the code
that makes them, and the check that the folder holds exactly those of the present code. The
entries are read like any cache entry (analyzer/cache.py, "Shipped entries"): only under the
same key (name, parameters, package version and the bytes of the code that computes them).

Shipped: Trash Pandas' solver bots' turn tables under the default rules, and the default belief
(``model``, learned from self-play of solver bots in every seat, `decide`'s default line-up) under
the default rules and deck for 2, 3 and 4 players; Ten's exact bots' one-turn tables (`decide`'s
default line-up) under the default rules and deck for 1 to 5 players. Without them a first
`trash-pandas decide` compiles the self-play and sampling kernels and learns the belief, and a
first `ten decide` compiles the one-turn solver (about 20 s and 10 s from empty caches, most of
it compiling). The files are written compressed (NumPy reads either form).

Make them again after changing any code in their keys (the test names the command)::

    python -m analyzer.shipped_cache        # or: make shipped-cache

The entries are learned in a scratch cache with the shipped folder out of the way (so an old
entry is never copied back), then replace the folder's contents.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

#: player counts of the shipped Trash Pandas beliefs (a position has 2–4 players)
TP_PLAYERS = (2, 3, 4)
#: player counts of the shipped Ten tables (a position has 1–5 players)
TEN_PLAYERS = (1, 2, 3, 4, 5)


def _tp_default(players: int):
    """(rules, setup, line-up) of `trash-pandas decide` with no rules file, no --set and no
    --seats (the command's own ``decide_setup``)."""
    from analyzer.games.trash_pandas.cli_whole import _whole_rules, decide_setup

    rules = _whole_rules(None, None)
    setup = decide_setup(rules, players, None)
    return rules, setup, setup.lineups[0]


def _ten_default(players: int):
    """(rules, deck spec, bots) of `ten decide` with no rules file, --set, --deck or --seats
    (analyzer/games/ten/cli_whole.py: exact bots in every seat)."""
    from analyzer.games.ten.cli_whole import STRONGEST_BOT
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.rules import build_rules

    return (build_rules(TenRules, None, None), load_deck(None),
            parse_seats(STRONGEST_BOT, players, "--seats"))


def make_all() -> None:
    """Every shipped entry, computed into the current cache folder (the caller's scratch)."""
    from analyzer.games.ten.whole import exact_tables
    from analyzer.games.trash_pandas.belief import learn

    for players in TP_PLAYERS:
        _rules, setup, lineup = _tp_default(players)  # the setup solves the solver tables
        learn(setup, lineup)
    for players in TEN_PLAYERS:
        rules, spec, bots = _ten_default(players)
        exact_tables(rules, spec, players, bots)


def expected_names() -> set[str]:
    """The file names the shipped folder must hold for the present code (its keys)."""
    from analyzer.cache import _entry_path
    from analyzer.games.trash_pandas import belief as B
    from analyzer.games.ten.whole import EXACT_SOURCES, exact_table_params
    from analyzer.games.trash_pandas.bots import SOLVER_SOURCES
    from analyzer.rules import rules_to_dict

    names = set()
    for players in TP_PLAYERS:
        rules, setup, lineup = _tp_default(players)
        names.add(_entry_path("tp-belief", B.learning_params(setup, lineup), B.SOURCES).name)
    names.add(_entry_path("tp-solver-tables", {"rules": rules_to_dict(rules), "bnp": [3, 3, 3]},
                          SOLVER_SOURCES).name)
    for players in TEN_PLAYERS:
        rules, spec, bots = _ten_default(players)
        params = exact_table_params(rules, spec, players, bots)[0]
        names.add(_entry_path("ten-exact-tables", params, EXACT_SOURCES).name)
    return names


def _compressed(src: Path, dst: Path) -> None:
    import numpy as np

    with np.load(src, allow_pickle=False) as data:
        np.savez_compressed(dst, **{k: data[k] for k in data.files})


def main() -> int:
    from analyzer import cache

    target = cache.SHIPPED_DIR
    with tempfile.TemporaryDirectory() as scratch:
        os.environ["PUSHLUCK_CACHE_DIR"] = scratch
        cache.SHIPPED_DIR = Path(scratch) / "none"  # learn afresh, never from the old files
        make_all()
        made = sorted(Path(scratch).glob("*.npz"))
        cache.SHIPPED_DIR = target
        want = expected_names()
        if {p.name for p in made} != want:
            print(f"shipped-cache: made {[p.name for p in made]}, expected {sorted(want)}",
                  file=sys.stderr)
            return 1
        target.mkdir(parents=True, exist_ok=True)
        for old in target.glob("*.npz"):
            old.unlink()
        for p in made:
            _compressed(p, target / p.name)
    print(f"wrote {len(made)} entries to {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
