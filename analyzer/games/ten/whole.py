"""Ten whole games: line-ups of bots → kernel jobs for the runner, and the statistics they give.

``Setup`` gathers the rules (``TenRules``), the deck file, the player count and the line-ups
(one bot per seat each), builds the kernel arrays once (the deck in a fixed order, the scoring
tables, the exact one-turn tables of any ``exact`` bot) and makes a ``KernelJob`` whose trials
are games (``kernels/ten/whole_blocks.py``: ``game_blocks``). ``lineup_stats`` turns the named
sum columns into statistics (Wilson for proportions and for win rates — a win rate is a mean of
win shares in [0, 1], and the Wilson interval, built on the variance bound p(1 − p), is valid for
such means and exactly 0 or 1 at the edges —, mean ± 1.96·SE otherwise, the delta method for the
price per auction); ``paired_stats`` the differences between line-ups on the same decks.

``removals_note`` says, for 2 and 3 players, which cards the deck file removes and that the
rulebook's lists are not public.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from analyzer.errors import UserError
from analyzer.games.ten.bots import Bot, bot_rows
from analyzer.games.ten.rules import TenRules

BLOCK = 256  # games per block
# A rollout:K seat plays K rollouts of the rest of its turn before each optional draw, so its games
# cost about 0.03·K ms more each (measured: rollout:256, about 125 games per second per core). Its
# blocks hold ROLLOUT_BLOCK_WORK // K games (at most BLOCK, at least 1): a block then takes well
# under a second, so the runner's first batch ends, and a Ctrl-C is honoured, within seconds.
# K ≤ 8 keeps BLOCK (and so the same games as before).
ROLLOUT_BLOCK_WORK = 2048
# A search seat spends its budget on every decision (about 50 per game), so its games take
# seconds each: one game per block keeps a batch short and a Ctrl-C honoured within one game.
SEARCH_BLOCK = 1


@lru_cache(maxsize=4)
def score_tables(full_run: int = 10):
    """The kernel's scoring tables with a complete 1–9 run worth ``full_run`` points."""
    from kernels.ten.whole_score import run_tables

    return run_tables(full_run)


#: the code the exact bots' tables come from (the cache key of :func:`exact_tables` reads it)
EXACT_SOURCES = [Path(__file__), Path(__file__).with_name("exact.py"),
                 Path(__file__).with_name("rules.py"),
                 Path(__file__).resolve().parents[3] / "kernels" / "ten" / "exact.py"]


def exact_tables(rules: TenRules, spec, players: int, bots: list[Bot]):
    """(index of each value model, dec uint8[M, cap + 1, A, B], nchild, cchild) for the exact
    bots: the one-turn optimal policy of a fresh deck, solved once per tokens held. Kept in the
    solution cache (analyzer/cache.py) per pile, rules, players, value models and code version:
    solving the 11 tables and loading the solver's kernel took 0.4–0.6 s of every `ten decide`."""
    from analyzer.cache import cached_arrays

    params, tr, st, models = exact_table_params(rules, spec, players, bots)
    if not models:
        return ({}, np.zeros((1, 1, 1, 1), dtype=np.uint8), np.zeros((1, 9), dtype=np.int32),
                np.zeros((1, 5), dtype=np.int32))
    got = cached_arrays("ten-exact-tables", params, EXACT_SOURCES,
                        lambda: _solve_exact_tables(tr, st, players, models), keep=16)
    return ({vm: i for i, vm in enumerate(models)}, got["dec"], got["nchild"],
            got["cchild"])


def exact_table_params(rules: TenRules, spec, players: int, bots: list[Bot]):
    """(cache parameters, turn rules, fresh-deck turn state, value models) of
    :func:`exact_tables`: one model per distinct exact bot, in seat order (no models: the
    rest None)."""
    import dataclasses

    from analyzer.games.ten.rules import turn_state
    from analyzer.rules import rules_to_dict

    models = []
    for b in bots:
        if b.name == "exact" and b.value_model() not in models:
            models.append(b.value_model())
    if not models:  # no exact bot: nothing to solve
        return None, None, None, models
    tr = rules.turn_rules()
    st = turn_state(tr, spec, None, None, players)
    params = {"state": dataclasses.asdict(st), "rules": rules_to_dict(tr), "players": players,
              "models": [dataclasses.asdict(vm) for vm in models]}
    return params, tr, st, models


def _solve_exact_tables(tr, st, players: int, models) -> dict:
    from analyzer.games.ten.exact import Model, solve

    decs = []
    nchild = cchild = None
    for vm in models:
        per_room = []
        for room in range(tr.token_cap + 1):
            sol = solve(Model(st, tr, vm, players, tr.token_cap - room))
            per_room.append(sol.decision)
            nchild, cchild = sol.nchild, sol.cchild
        decs.append(np.stack(per_room))
    return {"dec": np.stack(decs), "nchild": nchild, "cchild": cchild}


@dataclass
class Setup:
    rules: TenRules
    spec: object
    players: int
    lineups: list  # list[list[Bot]]
    check: bool = False
    arrays: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        from analyzer.games.ten.rules import deck_counts
        from analyzer.games.ten.cards import TYPE_OF, counts_of

        if not 1 <= self.players <= 5:
            raise UserError(f"--players must be 1..5 (got {self.players})")
        for lu in self.lineups:
            if len(lu) != self.players:
                raise UserError(f"a line-up has {len(lu)} bots for {self.players} players")
        counts = deck_counts(self.rules.turn_rules(), self.spec, self.players)
        deck = counts_of([c for c, k in sorted(counts.items(), key=lambda x: TYPE_OF[x[0]])
                          for _ in range(k)])
        base = np.array([t for t in range(55) for _ in range(int(deck[t]))], dtype=np.int8)
        idx, dec, nchild, cchild = exact_tables(self.rules, self.spec, self.players,
                                                [b for lu in self.lineups for b in lu])
        bots = np.stack([bot_rows(lu, idx, search=True) for lu in self.lineups])
        self.arrays = dict(base=base, deck=deck, rl=self.rules.kernel_array(self.players,
                                                                            self.check),
                           bots=bots, tabs=score_tables(self.rules.full_run_points),
                           dec=dec, nchild=nchild,
                           cchild=cchild)

    @property
    def labels(self) -> list[str]:
        return [",".join(b.label for b in lu) for lu in self.lineups]

    def kernel_args(self, lineup: int | None = None):
        a = self.arrays
        bots = a["bots"] if lineup is None else a["bots"][lineup:lineup + 1]
        return (a["base"], a["deck"], self.players, a["rl"], bots, a["tabs"], a["dec"],
                a["nchild"], a["cchild"])

    @property
    def block_size(self) -> int:
        """Games per block: :data:`BLOCK`, fewer with a slow rollout bot (block size decides which
        games are played)."""
        if self.searching:
            return SEARCH_BLOCK
        k = max((b.rollouts for lu in self.lineups for b in lu if b.name == "rollout"),
                default=0)
        return max(1, min(BLOCK, ROLLOUT_BLOCK_WORK // k)) if k else BLOCK

    @property
    def searching(self) -> bool:
        """Whether a seat plays the search bot (kernels/ten/search_game.py plays the games)."""
        return any(b.name == "search" for lu in self.lineups for b in lu)

    def job(self):
        from analyzer.runner import KernelJob, half_width_of_mean
        from kernels.ten.whole_layout import column

        if self.searching:
            from kernels.ten.search_game import search_game_blocks as game_blocks
        else:
            from kernels.ten.whole_blocks import game_blocks
        args = self.kernel_args()

        def run_blocks(keys, counts):
            return game_blocks(keys, counts, *args)

        name = "ten game " + " vs ".join(self.labels)
        return KernelJob(name, self.block_size, run_blocks,
                         half_width_of_mean(column("win_0"), column("win_0_sq")), unit="games")

    def details(self, key, n: int, lineup: int = 0):
        """Per-game records, final card rows and tokens of games 0..n−1 of block ``key``."""
        if self.searching:
            from kernels.ten.search_game import search_game_details as game_details
        else:
            from kernels.ten.whole_blocks import game_details

        return game_details(key, n, *self.kernel_args(lineup))


def _mean(sums, name, k, K, n):
    from analyzer.stats import mean_from_sums
    from kernels.ten.whole_layout import column

    return mean_from_sums(float(sums[column(name, k, K)]),
                          float(sums[column(name + "_sq", k, K)]), n)


def _prop(sums, name, k, K, n):
    from analyzer.stats import wilson
    from kernels.ten.whole_layout import column

    return wilson(float(sums[column(name, k, K)]), n)


def price_per_auction(sums, k, K):
    """Mean price per auction Σprice/Σauctions, SE by the delta method over games."""
    from analyzer.stats import Z95, Statistic
    from kernels.ten.whole_layout import column

    def c(name):
        return float(sums[column(name, k, K)])

    n = c("games")
    sa, sp = c("auctions"), c("auction_price")
    if sa == 0 or n < 2:
        return None
    r = sp / sa
    abar = sa / n
    # var of (p − r·a) per game: Σp² − 2rΣpa + r²Σa² (mean-centred since Σ(p − r a) = 0)
    v = (c("auction_price_sq") - 2 * r * c("price_x_auctions") + r * r * c("auctions_sq")) / (n - 1)
    se = math.sqrt(max(v, 0.0) / n) / abar
    return Statistic(r, se, r - Z95 * se, r + Z95 * se, int(sa))


def lineup_stats(sums, k: int, K: int, players: int) -> dict:
    """Every statistic of line-up ``k`` (of K) from the summed columns."""
    from kernels.ten.whole_layout import column

    n = int(sums[column("games", k, K)])
    seats = []
    for q in range(players):
        seats.append({"seat": q + 1, "win_rate": _prop(sums, f"win_{q}", k, K, n),
                      "score": _mean(sums, f"score_{q}", k, K, n),
                      "tokens_end": _mean(sums, f"tokens_{q}", k, K, n),
                      "cards_end": _mean(sums, f"cards_{q}", k, K, n)})
    out = {"n": n, "seats": seats}
    for name in ("winner_score", "turns", "rounds", "busts", "number_busts", "currency_busts",
                 "auctions", "auction_price", "wilds_discarded", "wilds_free", "buys",
                 "buy_spent", "market_end", "stops_numbers", "stops_currency", "auction_share"):
        out[name] = _mean(sums, name, k, K, n)
    out["tied_games"] = _prop(sums, "tied", k, K, n)
    out["first_turn_bust"] = _prop(sums, "first_turn_bust", k, K, n)
    out["price_per_auction"] = price_per_auction(sums, k, K)
    out["violations"] = int(sums[column("violations", k, K)])
    return out


def paired_stats(sums, k: int, K: int, players: int) -> list[dict]:
    """Line-up 0 minus line-up k, per seat: win share and score on the same decks."""
    from analyzer.stats import paired_difference
    from kernels.ten.whole_layout import column

    n = int(sums[column("games", 0, K)])
    out = []
    for q in range(players):
        out.append({"seat": q + 1,
                    "win_rate": paired_difference(float(sums[column(f"d_win_{q}", k, K)]),
                                                  float(sums[column(f"d_win_{q}_sq", k, K)]), n),
                    "score": paired_difference(float(sums[column(f"d_score_{q}", k, K)]),
                                               float(sums[column(f"d_score_{q}_sq", k, K)]), n)})
    return out


def removals_note(spec, players: int) -> dict | None:
    """For 1–3 players: the cards the rulebook removes ("4+" marks with 3 players, also "3"
    marks with 2; 1 player is played as 2) are not public [U]; what the deck file removes, and
    how to give the lists. None for 4 and 5 players."""
    if players > 3:
        return None
    lists = [("marked_4plus", spec.marked_4plus)] + (
        [("marked_3", spec.marked_3)] if players <= 2 else [])
    removed = [c for _, cards in lists for c in cards]
    keys = " and ".join(f"[players] {k}" for k, _ in lists)
    how = (f"list them under {keys} in a deck file and pass it with --deck FILE "
           "(`pushluck ten deck` prints the deck in use)")
    if removed:
        text = (f"with {players} player{'s' if players > 1 else ''} the deck file "
                f"{spec.source} removes {', '.join(removed)}; the rulebook's lists of marked "
                "cards are not public, so these are the file's assumption")
    else:
        text = (f"with {players} player{'s' if players > 1 else ''} the rulebook removes the "
                "cards marked " + ('"4+" and "3"' if players <= 2 else '"4+"') + "; which "
                "cards carry the marks is not public, so none is removed here (every card "
                f"stays: an assumption); {how}")
    return {"players": players, "lists": [k for k, _ in lists], "removed": removed,
            "known": False, "note": text}
