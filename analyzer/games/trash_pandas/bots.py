"""Trash Pandas bots for whole games: names, knobs in words, and their kernel rows.

Each entry of ``--seats A,B,…`` names a bot, ``NAME[:key=value...]`` (analyzer/botspec.py):

* ``heuristic`` — rolls until ``stop-at`` tokens (``bonus-stop-at`` in a bonus turn) and plays
  its cards by the knobs below;
* ``solver`` — rolls, stops and spends Blammo!/Nanners after a roll as the exact turn solver's
  policy says (card-equivalent values, analyzer/games/trash_pandas.py); every other choice as
  ``heuristic`` with the same knobs;
* ``random`` — every choice uniformly among the legal ones (no knobs);
* ``rollout:K`` — rolls or stops, and spends Blammo!/Nanners on a repeat, by K determinized
  rollouts (default 16): the cards it cannot see are dealt at random consistently with what it
  sees, each choice is played to the end of the game on the same deal and stream by the base bots
  (every seat by its own bot; a rollout seat by ``heuristic`` with the same knobs), and the choice
  with the highest mean win share is taken if its paired lead over the heuristic's choice exceeds
  two standard errors (else the heuristic's); every other choice as ``heuristic``. Model and the
  twin-engine design: kernels/trash_pandas/whole_rollout.py. Cost: up to 3·K whole games per
  decision, so a few hundred games per second, not 50,000. Measured (seat 1 of three against two
  heuristics, 400 games, seed 2, paired with a heuristic seat 1 on the same games): heuristic
  minus rollout 0.000 ± 0.032 at K = 8, −0.031 ± 0.032 at K = 64, −0.028 ± 0.033 at K = 256 —
  not distinguishable from the heuristic at these n.
* ``search[:ITERS][:explore=C][:switch=Z]`` — rolls or stops, spends (or not) Blammo!, Nanners or a Feesh
  on a repeat, and plays or holds Yum Yum when an opponent stops, by information-set Monte Carlo
  tree search (kernels/trash_pandas/search.py; the maths on the rules page, section 8): ITERS
  iterations per decision (default 1000), each a world dealt from the belief that knows the
  bots' stash rule and a playout of the rest of the game by the base bots (its own seat by
  ``heuristic`` with the same knobs); UCB1 constant C (``explore``, default 0.5); the searched
  choice replaces the heuristic's only when its mean leads by more than Z standard errors
  (``switch``, default 1; 0: the most visited choice, as before); every other choice as
  ``heuristic``.

Knobs (heuristic and solver; defaults in :data:`KNOBS`): ``stop-at``, ``bonus-stop-at``,
``blammo-saves`` / ``nanners-saves`` (spend the card to save a repeat), ``pie`` (use MMM Pie! on
the best tokens), ``feesh``, ``shiny`` (play them), ``keep`` (Blammo! and Nanners kept in hand
rather than stashed), ``steal-from`` (leader: most stashed cards; biggest-hand), ``react``
(stash a match when an opponent's Bandit Mask reveals a card), ``block`` and ``block-with``
(kitteh or doggo first), ``yumyum-at`` (force a stopping opponent holding at least this many
tokens to roll; 0 never), ``trash-tree`` (stash when spare cards outnumber stash slots, or
always draw), ``feesh-saves`` (after a repeat it cannot save from hand, play a Feesh for a
Blammo! or Nanners from the discard pile and spend it: the rulebook's use of Feesh, so only
under ``feesh_timing = any``), ``decline-last-card`` (``trailing``: decline an optional
consolation draw that would take the pile's last card, ending the game, while your points as
you see them — your whole stash against the others' face-up cards — trail an opponent's;
``never``: always draw; matters only under ``consolation = optional``); ``band-by`` (none,
deck, behind), ``cut-1``, ``cut-2``, ``stop-at-2``, ``stop-at-3``: a stop limit in bands of one more feature, the cards left in the draw pile
(``deck``) or the cards by which your stash trails the biggest other stash (``behind``): roll
until ``stop-at`` tokens while the feature is below ``cut-1``, ``stop-at-2`` from ``cut-1`` on,
``stop-at-3`` from ``cut-2`` on (``cut-2`` 0: two bands), in main and bonus turns alike
(``bonus-stop-at`` is then unused), e.g. ``heuristic:band-by=deck:cut-1=10:stop-at=2:stop-at-2=4``
rolls to 4 tokens while 10 or more cards are left and to 2 after. ``rule:FILE.json`` (a rule of
`trash-pandas game-advice`) is the heuristic bot with that stop rule: by the knobs above, or,
for a decision list or bands of the cards in hand or of the saves in hand, by a stop rule table
(:attr:`Bot.table`, rows of analyzer/advice/table.py, read by the kernel instead of the stop
knobs: kernels/trash_pandas/whole_bots.py ``rolls_by_table``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analyzer.errors import UserError

KINDS = {"heuristic": 0, "solver": 1, "random": 2, "rollout": 3, "search": 4}
ROLLOUTS_INDEX, ROLLOUTS_DEFAULT, ROLLOUTS_RANGE = 15, 16, (1, 4096)
# the search bot (kernels/trash_pandas/search.py): iterations per decision, UCB1 constant
ITERS_INDEX, ITERS_DEFAULT, ITERS_RANGE = 48, 1000, (1, 1_000_000)
EXPLORE_INDEX, EXPLORE_DEFAULT, EXPLORE_RANGE = 49, 0.5, (0.0, 10.0)
MS_INDEX, MS_RANGE = 50, (0.0, 600_000.0)  # a time budget per decision (0: none)
# standard errors by which the search's choice must lead the heuristic's to replace it
SWITCH_INDEX, SWITCH_DEFAULT, SWITCH_RANGE = 51, 1.0, (0.0, 10.0)
# knob: (kernel index, default, parser kind, allowed)
KNOBS = {
    "stop-at": (1, 3, "int", (1, 6)),
    "bonus-stop-at": (2, 2, "int", (1, 5)),
    "blammo-saves": (3, True, "bool", None),
    "nanners-saves": (4, True, "bool", None),
    "pie": (5, True, "bool", None),
    "feesh": (6, True, "bool", None),
    "shiny": (7, True, "bool", None),
    "keep": (8, 1, "int", (0, 7)),
    "steal-from": (9, "leader", "word", ("leader", "biggest-hand")),
    "react": (10, True, "bool", None),
    "block": (11, True, "bool", None),
    "block-with": (12, "kitteh", "word", ("doggo", "kitteh")),
    "yumyum-at": (13, 3, "int", (0, 6)),
    "trash-tree": (14, "stash", "word", ("draw", "stash")),
    "band-by": (16, "none", "word", ("none", "deck", "behind")),
    "cut-1": (17, 0, "int", (0, 200)),
    "cut-2": (18, 0, "int", (0, 200)),
    "stop-at-2": (19, 3, "int", (1, 6)),
    "stop-at-3": (20, 3, "int", (1, 6)),
    "feesh-saves": (46, True, "bool", None),
    "decline-last-card": (47, "trailing", "word", ("never", "trailing")),
}
TROWS_INDEX, TABLE_INDEX, TROW, TMAXROWS = 21, 22, 6, 4  # a stop rule table (whole_bots.py)
#: the features a stop rule table reads, by name (the game-advice features) -> the kernel's
#: feature id (kernels/trash_pandas/whole_bots.py F_*)
TABLE_FEATURES = {"tokens": 1, "bonus": 2, "deck": 3, "behind": 4, "hand": 5, "saves": 6}
BAND_TABLE = 3
NK = TABLE_INDEX + TROW * TMAXROWS + 6  # table words, feesh-saves, decline-last-card, search


@dataclass(frozen=True)
class Bot:
    """A parsed bot: its name and every knob's value (defaults filled in)."""

    name: str
    knobs: tuple  # ((key, value), ...) in KNOBS order
    rollouts: int = 0  # K of a rollout bot (0 for the others)
    iters: int = 0  # a search bot's iterations per decision (0 for the others)
    explore: float = 0.0  # a search bot's UCB1 constant
    ms: float = 0.0  # a search bot's time budget per decision (0: iterations only)
    switch: float = 0.0  # SEs a search bot's choice must lead the heuristic's by (0: argmax)
    table: tuple = ()  # a stop rule table (rows of six ints), read instead of the stop knobs
    source: str = field(default="", compare=False)  # the label of a table bot (rule:FILE)

    @property
    def label(self) -> str:
        if self.table:
            return self.source or f"{self.name}:stop-table"
        knobs = dict(self.knobs)
        shown = {"stop-at-2", "cut-2", "stop-at-3"} if knobs["cut-2"] else {"stop-at-2"}
        changed = [f"{k}={_word(v)}" for k, v in self.knobs if v != KNOBS[k][1]
                   or knobs["band-by"] != "none" and k in shown]
        if self.name == "rollout":
            changed.insert(0, str(self.rollouts))
        if self.name == "search":  # iterations by position, unless a time budget alone
            if self.ms:
                changed.insert(0, f"ms={self.ms:g}")
            if self.switch != SWITCH_DEFAULT:
                changed.insert(0, f"switch={self.switch:g}")
            if self.explore != EXPLORE_DEFAULT:
                changed.insert(0, f"explore={self.explore:g}")
            if not self.ms or self.iters != ITERS_RANGE[1]:
                changed.insert(0, str(self.iters))
        return self.name + "".join(":" + c for c in changed)

    def row(self) -> np.ndarray:
        """float64[NK] kernel knobs (kernels/trash_pandas/whole_bots.py K_* indices)."""
        r = np.zeros(NK, dtype=np.float64)
        r[0] = KINDS[self.name]
        for key, value in self.knobs:
            idx, _default, kind, allowed = KNOBS[key]
            if kind == "word":
                r[idx] = allowed.index(value)
            else:
                r[idx] = float(value)
        r[ROLLOUTS_INDEX] = self.rollouts
        r[ITERS_INDEX] = self.iters
        r[EXPLORE_INDEX] = self.explore
        r[MS_INDEX] = self.ms
        r[SWITCH_INDEX] = self.switch
        if self.table:
            r[KNOBS["band-by"][0]] = BAND_TABLE
            r[TROWS_INDEX] = len(self.table)
            r[TABLE_INDEX:TABLE_INDEX + TROW * len(self.table)] = np.ravel(self.table)
        return r


def _word(v) -> str:
    return ("yes" if v else "no") if isinstance(v, bool) else str(v)


def _knob(key: str):
    """The declared knob ``key`` of :data:`KNOBS` for the shared parser (analyzer/botspec.py)."""
    from analyzer.botspec import Knob

    _idx, default, kind, allowed = KNOBS[key]
    if kind == "int":
        return Knob(key, "int", default, low=allowed[0], high=allowed[1])
    if kind == "bool":
        return Knob(key, "bool", default)
    return Knob(key, "word", default, words=allowed)


def _family():
    from analyzer.botspec import Bot as Kind, Family, Knob

    knobs = tuple(KNOBS)
    lo, hi = ROLLOUTS_RANGE
    ilo, ihi = ITERS_RANGE
    elo, ehi = EXPLORE_RANGE
    mlo, mhi = MS_RANGE
    slo, shi = SWITCH_RANGE
    return Family("trash-pandas", [
        Kind("heuristic", "rolls until stop-at tokens, plays its cards by the knobs", knobs),
        Kind("solver", "rolls, stops and saves as the exact turn solver; the rest as heuristic",
             knobs),
        Kind("random", "every choice uniformly among the legal ones"),
        Kind("rollout", f"roll/stop and Blammo!/Nanners by K determinized rollouts of the rest "
             f"of the game, default {ROLLOUTS_DEFAULT}; the rest as heuristic", knobs,
             positional=("rollouts",)),
        Kind("search", f"roll/stop, Blammo!/Nanners/Feesh saves and Yum Yum by information-set "
             f"tree search, ITERS playouts per decision (default {ITERS_DEFAULT}); the rest as "
             f"heuristic", knobs + ("explore", "ms", "switch"), positional=("iters",))],
        [_knob(k) for k in KNOBS] + [Knob("rollouts", "int", ROLLOUTS_DEFAULT, low=lo, high=hi),
                                     Knob("iters", "int", ITERS_DEFAULT, low=ilo, high=ihi),
                                     Knob("explore", "float", EXPLORE_DEFAULT, low=elo,
                                          high=ehi),
                                     Knob("ms", "float", 0.0, low=mlo, high=mhi),
                                     Knob("switch", "float", SWITCH_DEFAULT, low=slo,
                                          high=shi)])


#: The whole-game bots as the shared parser reads them (``--seats``, ``--vs``).
BOTS = _family()


def bot_from_spec(spec) -> Bot:
    """The :class:`Bot` of a parsed spec (not ``rule:FILE``: analyzer/games/trash_pandas/
    lineup.py plays those); bands are checked here."""
    values = {k: spec[k] for k in KNOBS}
    if values["band-by"] != "none":
        if values["cut-1"] < 1:
            raise UserError(f"'{spec.text}': band-by={values['band-by']} needs cut-1 of at "
                            f"least 1")
        if values["cut-2"] and values["cut-2"] <= values["cut-1"]:
            raise UserError(f"'{spec.text}': cut-2 must be 0 (two bands) or above cut-1")
    rollouts = spec["rollouts"] if spec.name == "rollout" else 0
    if spec.name == "search":  # a time budget alone lifts the iteration cap
        iters = ITERS_RANGE[1] if "ms" in spec.given and "iters" not in spec.given else \
            spec["iters"]
        return Bot(spec.name, tuple(values.items()), iters=iters,
                   explore=float(spec["explore"]), ms=float(spec["ms"]),
                   switch=float(spec["switch"]))
    return Bot(spec.name, tuple(values.items()), rollouts)


def _plain():
    from analyzer.botspec import Reader

    return Reader(BOTS.without_rule(), bot_from_spec)


#: Bots named by their knobs (``heuristic:stop-at=4``; no ``rule:FILE``): the package's own.
_PLAIN = _plain()


def plain_bot(text: str) -> Bot:
    return _PLAIN.one(text, "bot")


def plain_lineup(text: str, players: int) -> tuple[Bot, ...]:
    return tuple(_PLAIN.seats(text, players, "bots"))


def lineup_array(lineups: list[tuple[Bot, ...]]) -> np.ndarray:
    """float64[L, 4, NK] knobs of each line-up and seat (unused seats zero)."""
    arr = np.zeros((len(lineups), 4, NK), dtype=np.float64)
    for l, lineup in enumerate(lineups):
        for i, bot in enumerate(lineup):
            arr[l, i] = bot.row()
    return arr


def lineup_label(lineup: tuple[Bot, ...]) -> str:
    labels = [b.label for b in lineup]
    return labels[0] if len(set(labels)) == 1 else ",".join(labels)


def empty_solver_tables() -> tuple[np.ndarray, np.ndarray]:
    """All-zero (roll_tab, after_tab) of :func:`solver_tables`' shapes, for line-ups without a
    solver bot (no other bot reads them)."""
    return np.zeros(2 * 64 * 64, dtype=np.uint8), np.zeros(2 * 64 * 64 * 6, dtype=np.uint8)


#: the code the solver bots' tables come from (the cache key of :func:`solver_tables` reads it)
SOLVER_SOURCES = [Path(__file__).with_name(f) for f in ("bots.py", "exact.py", "play.py",
                                                        "rules.py")]


def solver_tables(rules) -> tuple[np.ndarray, np.ndarray]:
    """(roll_tab, after_tab) of the exact turn solver's optimal policy, B = N = P = 3, default
    card-equivalent weights (analyzer/games/trash_pandas_policy.py layout). Solved once per
    rules and code version and kept in the solution cache (analyzer/cache.py): solving them in
    Python took 0.15 s of every whole-game command with a solver bot."""
    from analyzer.cache import cached_arrays
    from analyzer.rules import rules_to_dict

    got = cached_arrays("tp-solver-tables", {"rules": rules_to_dict(rules), "bnp": [3, 3, 3]},
                        SOLVER_SOURCES, lambda: _solve_tables(rules), keep=16)
    return got["roll"], got["after"]


def _solve_tables(rules) -> dict[str, np.ndarray]:
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.rules import ValueModel
    from analyzer.games.trash_pandas.play import PolicySpec, build_tables

    tables = build_tables(PolicySpec("optimal"), TurnSolver(ValueModel(), rules),
                          3, 3, 3)
    return {"roll": tables.roll, "after": tables.after}
