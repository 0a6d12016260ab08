"""Whole games of Trash Pandas: the kernel job, its statistics, and `game`'s result.

:func:`game_job` wraps kernels/trash_pandas_whole/engine.py ``play_games`` for one or more
line-ups (the first is the one under study; the others are compared with it on the same games);
:func:`summarise` turns the named sum columns into statistic objects.
"""
from __future__ import annotations

import numpy as np

from analyzer.games.trash_pandas_whole.bots import lineup_array, lineup_label, solver_tables
from analyzer.games.trash_pandas_whole.rules import WholeGameRules, check_deal, deck_arrays

BLOCK_SIZE = 512
MEANS = ("turns", "rounds", "margin", "main_busts", "bonus_turns", "sixes", "rolls", "blammo",
         "nanners", "yumyum", "doggo", "kitteh", "pie", "feesh", "shiny", "paw_steals",
         "shiny_steals", "mask_reactions", "stashed")


class GameSetup:
    """Rules, deck, players and line-ups turned into the kernel's arrays (checked once)."""

    def __init__(self, rules: WholeGameRules, players: int, lineups: list, check: bool = False,
                 deck=None, from_setup: bool = True):
        self.rules = rules
        self.players = players
        self.deck = deck if deck is not None else deck_arrays(rules.deck)
        if from_setup:  # whole games deal from the full deck; decide starts from a position
            check_deal(rules, self.deck, players)
        self.lineups = lineups
        self.rules_arr = rules.kernel_array(check)
        self.deal = rules.deal_for(players)
        self.bots = lineup_array(lineups)
        self.roll_tab, self.after_tab = solver_tables(rules)

    def columns(self) -> tuple:
        from kernels.trash_pandas_whole.engine import column_names

        return column_names(self.players, len(self.lineups))

    def run_blocks(self, keys, counts):
        from kernels.trash_pandas_whole.engine import play_games

        d = self.deck
        return play_games(keys, counts, self.players, d.copies, d.pts, d.per_card, self.deal,
                          self.rules_arr, self.bots, self.roll_tab, self.after_tab)


def game_job(setup: GameSetup, label: str = "trash-pandas games"):
    """A runner job; its headline is the half-width of seat 1's win rate in line-up 0."""
    from analyzer.runner import KernelJob, half_width_of_mean

    cols = setup.columns()
    return KernelJob(label, BLOCK_SIZE, setup.run_blocks,
                     half_width_of_mean(cols.index("L0:win0"), cols.index("L0:win0_sq")),
                     unit="games")


def _mean(sums: dict, prefix: str, name: str, n: int):
    from analyzer.stats import mean_from_sums

    return mean_from_sums(sums[f"{prefix}{name}"], sums[f"{prefix}{name}_sq"], n)


def summarise_lineup(sums: dict, l: int, players: int, n: int) -> dict:
    """Statistics of line-up ``l`` from the named sums (engine.column_names)."""
    from analyzer.stats import wilson

    p = f"L{l}:"
    seats = []
    for i in range(players):
        seats.append({"seat": i + 1, "win_rate": _mean(sums, p, f"win{i}", n),
                      "points": _mean(sums, p, f"pts{i}", n)})
    out = {"seats": seats}
    for name in MEANS:
        out[name] = _mean(sums, p, name, n)
    out["tiebreak_share"] = wilson(sums[p + "tiebreak"], n)
    out["shared_wins"] = wilson(sums[p + "shared"], n)
    turns = int(sums[p + "main_turns"])
    out["bust_rate_per_turn"] = wilson(sums[p + "main_busts"], max(turns, 1))
    out["truncated_games"] = int(sums[p + "truncated"])
    out["conservation_violations"] = int(sums[p + "violations"])
    return out


def simulate_games(setup: GameSetup, spec) -> dict:
    """Run ``spec`` (a RunSpec) and return `game`'s result (JSON-ready)."""
    from analyzer.rules import rules_to_dict
    from analyzer.stats import mean_from_sums

    res = spec.run(game_job(setup))
    sums = dict(zip(setup.columns(), (float(x) for x in res.sums)))
    n = res.n
    lineups = []
    for l, lineup in enumerate(setup.lineups):
        entry = {"lineup": lineup_label(lineup), **summarise_lineup(sums, l, setup.players, n)}
        if l > 0:
            from analyzer.stats import paired_difference, verdict

            diffs = []
            for i in range(setup.players):
                d = paired_difference(sums[f"L{l}-L0:dwin{i}"], sums[f"L{l}-L0:dwin{i}_sq"], n)
                diffs.append({"seat": i + 1, "win_rate_change": d,
                              "verdict": verdict(d, "better", "worse")})
            entry["vs_first"] = diffs
        lineups.append(entry)
    c = 1.0 / setup.players  # first-player advantage: seat 1's win rate minus a fair share
    s1, s2 = sums["L0:win0"], sums["L0:win0_sq"]
    fpa = mean_from_sums(s1 - n * c, s2 - 2 * c * s1 + n * c * c, n)
    return {"game": "trash-pandas", "exact": False, "seed": spec.seed, "n": n,
            "players": setup.players, "rules": rules_to_dict(setup.rules),
            "lineups": lineups, "first_player_advantage": fpa,
            "games_per_second": res.per_second, "stopped_by": res.stopped_by,
            "interrupted": res.interrupted}
