"""Whole games of Trash Pandas: the kernel job, its statistics, and `game`'s result.

:func:`game_job` wraps kernels/trash_pandas/whole.py ``play_games`` for one or more
line-ups (the first is the one under study; the others are compared with it on the same games);
:func:`summarise_lineup` turns the named sum columns into statistic objects. A seat's win rate is
a mean of win shares in [0, 1] (a win shared by k seats counts 1/k) with the Wilson score
interval, valid for such a mean through the variance bound μ(1 − μ) and exactly 0 or 1 at the
edges (analyzer/games/trash_pandas/decide.py); other means have normal intervals.
"""
from __future__ import annotations

import numpy as np

from analyzer.games.trash_pandas.bots import (empty_solver_tables, lineup_array, lineup_label,
                                             solver_tables)
from analyzer.games.trash_pandas.rules import TrashPandasRules
from analyzer.games.trash_pandas.score import check_deal, deck_arrays

BLOCK_SIZE = 512
# A rollout:K seat plays up to 3·K games to the end at each of its decisions, so one of its games
# costs about K/2 ms (measured: rollout:16 with two heuristics, about 130 games per second per
# core). Its blocks hold ROLLOUT_BLOCK_WORK // K games (at least 1): a block then takes about
# 60 ms, so the runner's first batch (8 blocks) ends, and a Ctrl-C is honoured, within a second.
ROLLOUT_BLOCK_WORK = 128
SEARCH_PER_ROLLOUT = 6  # search iterations that cost about one rollout of a rollout:K bot
MEANS = ("turns", "rounds", "margin", "main_busts", "bonus_turns", "sixes", "rolls", "blammo",
         "nanners", "yumyum", "doggo", "kitteh", "pie", "feesh", "shiny", "paw_steals",
         "shiny_steals", "mask_reactions", "stashed", "feesh_saves", "consolation_declined")


def rules_array(rules: TrashPandasRules, check: bool = False, max_turns: int = 2000):
    """The int64[11] rules array of kernels/trash_pandas/whole.py (``check``: count conservation
    violations after every turn; ``max_turns``: a safety cap, counted as truncated games)."""
    return np.array([int(rules.bonus_turn), rules.bonus_cap,
                     int(rules.consolation == "optional"), int(check), max_turns,
                     int(rules.mask_card == "discard"), int(rules.kitteh_chain),
                     int(rules.tie == "shared"), int(rules.feesh_timing == "resolve"),
                     int(rules.gain_lock == "all"), int(rules.shiny_timing == "resolve")],
                    dtype=np.int64)


def deal_for(rules: TrashPandasRules, players: int):
    """int64[4]: cards dealt to each seat (unused seats 0)."""
    from analyzer.games.trash_pandas.score import DEALS

    d = np.zeros(4, dtype=np.int64)
    d[:players] = DEALS[rules.deal][:players]
    return d


def _has_solver(lineups) -> bool:
    return any(b.name == "solver" for lineup in lineups for b in lineup)


class GameSetup:
    """Rules, deck, players and line-ups turned into the kernel's arrays (checked once)."""

    def __init__(self, rules: TrashPandasRules, players: int, lineups: list, check: bool = False,
                 deck=None, from_setup: bool = True):
        self.rules = rules
        self.players = players
        self.deck = deck if deck is not None else deck_arrays(rules.deck)
        if from_setup:  # whole games deal from the full deck; decide starts from a position
            check_deal(rules, self.deck, players)
        self.lineups = lineups
        self.rules_arr = rules_array(rules, check)
        self.deal = deal_for(rules, players)
        self.bots = lineup_array(lineups)
        if _has_solver(lineups):
            self.roll_tab, self.after_tab = solver_tables(rules)
        else:  # read only by solver bots: zeros of the same shape, not a 0.6 s exact solve
            self.roll_tab, self.after_tab = empty_solver_tables()

    def with_lineups(self, lineups: list) -> "GameSetup":
        """A copy that plays ``lineups`` instead, sharing the rules, deck and checks (a race
        swaps only the bot rows between jobs); the solver tables are solved here only if a
        solver bot joins line-ups that had none."""
        import copy

        out = copy.copy(self)
        out.lineups = list(lineups)
        out.bots = lineup_array(out.lineups)
        if _has_solver(out.lineups) and not _has_solver(self.lineups):
            out.roll_tab, out.after_tab = solver_tables(self.rules)
        return out

    def columns(self) -> tuple:
        from kernels.trash_pandas.whole_games import column_names

        return column_names(self.players, len(self.lineups))

    @property
    def has_rollout(self) -> bool:
        """A ``rollout:K`` or ``search`` bot plays: the kernels are whole_rollout.py's twins."""
        return any(b.name in ("rollout", "search") for lineup in self.lineups for b in lineup)

    @property
    def block_size(self) -> int:
        """Games per block: :data:`BLOCK_SIZE`, or fewer when a rollout or search bot plays (see
        :data:`ROLLOUT_BLOCK_WORK`; the block size decides which games are played). A search
        decision of I iterations plays I half games, a rollout decision up to 3·K whole ones:
        a search bot counts as K = I/6."""
        k = max((max(b.rollouts, -(-b.iters // SEARCH_PER_ROLLOUT)) for lineup in self.lineups
                 for b in lineup), default=0)
        return max(1, ROLLOUT_BLOCK_WORK // k) if k else BLOCK_SIZE

    @property
    def has_table(self) -> bool:
        """A bot stops by a rule table (``BAND_TABLE``): only the rule-table engine reads it."""
        from analyzer.games.trash_pandas.bots import BAND_TABLE, KNOBS

        return bool((self.bots[:, :, KNOBS["band-by"][0]] == BAND_TABLE).any())

    def kernel(self, name: str):
        """The engine's ``play_games`` or ``decide_blocks`` for these line-ups: whole_rollout.py's
        twin when a rollout bot plays, whole_tables.py's when a table bot does, else the plain
        engine's (kernels/trash_pandas/whole_tables.py says why there are three)."""
        import importlib

        if self.has_rollout:
            module = "whole_rollout"
        elif self.has_table:
            module = "whole_tables"
        else:
            module = {"play_games": "whole_games", "decide_blocks": "whole_decide"}[name]
        return getattr(importlib.import_module(f"kernels.trash_pandas.{module}"), name)

    def run_blocks(self, keys, counts):
        play_games = self.kernel("play_games")
        d = self.deck
        return play_games(keys, counts, self.players, d.copies, d.pts, d.per_card, self.deal,
                          self.rules_arr, self.bots, self.roll_tab, self.after_tab)


def game_job(setup: GameSetup, label: str = "trash-pandas games"):
    """A runner job; its headline is the half-width of seat 1's win rate in line-up 0."""
    from analyzer.runner import KernelJob, half_width_of_mean

    cols = setup.columns()
    return KernelJob(label, setup.block_size, setup.run_blocks,
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
    for i in range(players):  # win shares in [0, 1]: the Wilson interval (decide.py says why)
        seats.append({"seat": i + 1, "win_rate": wilson(sums[f"{p}win{i}"], n),
                      "points": _mean(sums, p, f"pts{i}", n)})
    out = {"seats": seats}
    for name in MEANS:
        out[name] = _mean(sums, p, name, n)
    # games whose top points are tied (they go to the tie-breaks: `tune`'s tiebreak_share),
    # split into those a tie-break decides and those still shared after every tie-break (a
    # shared win needs tied top points: "shared" ⊆ "tiebreak")
    out["tiebreak_share"] = wilson(sums[p + "tiebreak"], n)
    out["decided_by_tiebreak"] = wilson(sums[p + "tiebreak"] - sums[p + "shared"], n)
    out["shared_wins"] = wilson(sums[p + "shared"], n)
    turns = int(sums[p + "main_turns"])
    out["bust_rate_per_turn"] = wilson(sums[p + "main_busts"], max(turns, 1))
    out["truncated_games"] = int(sums[p + "truncated"])
    out["rounds_histogram"] = [{"rounds": k[len(p) + len("rounds_"):], "share": wilson(v, n)}
                               for k, v in sums.items() if k.startswith(p + "rounds_")
                               and not k.endswith("_sq") and v > 0]
    out["conservation_violations"] = int(sums[p + "violations"])
    return out


def length_histogram(result: dict, lineup: int = 0) -> dict:
    """{rounds: share of games} of one line-up of a :func:`simulate_games` result (the last
    bucket is "that many rounds or more")."""
    return {row["rounds"]: row["share"].estimate
            for row in result["lineups"][lineup]["rounds_histogram"]}


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


def render_game(out: dict) -> str:
    from analyzer.output import table

    lines = [f"Trash Pandas, {out['players']} players, n = {out['n']:,} games, "
             f"seed {out['seed']} (Monte Carlo; ± is one SE, [95% interval])"]
    for k, lu in enumerate(out["lineups"]):
        lines.append("")
        lines.append(f"line-up {k + 1}: {lu['lineup']}")
        rows = [(f"seat {s['seat']}", s["win_rate"].format(4), s["points"].format(2))
                for s in lu["seats"]]
        lines.append(table(rows, ["", "win rate", "points"], "lll"))
        for key in ("turns", "rounds", "margin", "main_busts", "bonus_turns"):
            lines.append(f"  {key:<22} {lu[key].format(3)}")
        lines.append(f"  {'bust rate per turn':<22} {lu['bust_rate_per_turn'].format(4)}")
        lines.append(f"  {'top points tied':<22} {lu['tiebreak_share'].format(4)}")
        lines.append(f"  {'  tie-break decided':<22} {lu['decided_by_tiebreak'].format(4)}")
        lines.append(f"  {'  still shared':<22} {lu['shared_wins'].format(4)}")
        plays = ", ".join(f"{k} {lu[k].estimate:.2f}" for k in
                          ("blammo", "nanners", "yumyum", "doggo", "kitteh", "pie", "feesh",
                           "feesh_saves", "shiny", "paw_steals", "shiny_steals",
                           "mask_reactions") + (("consolation_declined",) if out["rules"].get(
                               "consolation") == "optional" else ()))
        lines.append(f"  per game: {plays}")
        for d in lu.get("vs_first", []):
            lines.append(f"  seat {d['seat']} win rate vs line-up 1: "
                         f"{d['win_rate_change'].format(4)} → {d['verdict']}")
    lines.append("")
    lines.append(f"first-player advantage (seat 1 win rate − 1/{out['players']}): "
                 f"{out['first_player_advantage'].format(4)}")
    lines.append(f"games per second: {out['games_per_second']:,.0f}")
    from analyzer.words import fit

    return "\n".join(fit(lines))


def python_reference_games(n: int, seed: int, players: int = 3, bot: str = "heuristic") -> float:
    """``n`` whole games by the plain-Python reference (reference.py) on the kernel's streams
    (block size :data:`BLOCK_SIZE`); returns seat 1's win rate. For `pushluck bench`."""
    from analyzer.games.trash_pandas.bots import plain_lineup
    from analyzer.games.trash_pandas.reference import play_reference_game
    from analyzer.rng import block_keys

    setup = GameSetup(TrashPandasRules(), players, [plain_lineup(bot, players)])
    blocks = -(-n // BLOCK_SIZE)
    keys = block_keys(seed, 0, blocks)
    wins = 0.0
    for i in range(n):
        res = play_reference_game(players, setup.deck, setup.rules_arr, setup.deal,
                                  setup.bots[0], (setup.roll_tab, setup.after_tab),
                                  keys[i // BLOCK_SIZE], i % BLOCK_SIZE)
        wins += res["shares"][0]
    return wins / n
