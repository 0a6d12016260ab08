"""Trash Pandas bots for whole games: names, knobs in words, and their kernel rows.

``--policy NAME:key=value,...`` (and each entry of ``--seats A,B,…``) names a bot:

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
(``bonus-stop-at`` is then unused), e.g. ``heuristic:band-by=deck,cut-1=10,stop-at=2,stop-at-2=4``
rolls to 4 tokens while 10 or more cards are left and to 2 after. ``rule:FILE.json`` (a rule of
`trash-pandas game-advice`) is the heuristic bot with that stop rule: by the knobs above, or,
for a decision list or bands of the cards in hand or of the saves in hand, by a stop rule table
(:attr:`Bot.table`, rows of analyzer/advice/table.py, read by the kernel instead of the stop
knobs: kernels/trash_pandas/whole_bots.py ``rolls_by_table``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer.errors import UserError

KINDS = {"heuristic": 0, "solver": 1, "random": 2, "rollout": 3}
ROLLOUTS_INDEX, ROLLOUTS_DEFAULT, ROLLOUTS_RANGE = 15, 16, (1, 4096)
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
BAND_TABLE = 3
NK = TABLE_INDEX + TROW * TMAXROWS + 2  # the table's words, feesh-saves, decline-last-card
POLICY_HELP = ("Bots: heuristic, solver, random, rollout:K (roll/stop by K determinized "
               "rollouts of the rest of the game); knobs as NAME:key=value,... e.g. "
               "heuristic:stop-at=4,yumyum-at=0 or rollout:8,stop-at=4 (knobs: "
               + ", ".join(KNOBS) + ").")


@dataclass(frozen=True)
class Bot:
    """A parsed bot: its name and every knob's value (defaults filled in)."""

    name: str
    knobs: tuple  # ((key, value), ...) in KNOBS order
    rollouts: int = 0  # K of a rollout bot (0 for the others)
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
        return self.name + (":" + ",".join(changed) if changed else "")

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
        if self.table:
            r[KNOBS["band-by"][0]] = BAND_TABLE
            r[TROWS_INDEX] = len(self.table)
            r[TABLE_INDEX:TABLE_INDEX + TROW * len(self.table)] = np.ravel(self.table)
        return r


def _word(v) -> str:
    return ("yes" if v else "no") if isinstance(v, bool) else str(v)


def _parse_value(key: str, text: str):
    _idx, default, kind, allowed = KNOBS[key]
    t = text.strip().lower()
    if kind == "bool":
        if t in ("yes", "true", "on", "1"):
            return True
        if t in ("no", "false", "off", "0"):
            return False
        raise UserError(f"bot knob '{key}' must be yes or no, got '{text}'")
    if kind == "int":
        try:
            v = int(t)
        except ValueError:
            raise UserError(f"bot knob '{key}' must be an integer, got '{text}'") from None
        if not allowed[0] <= v <= allowed[1]:
            raise UserError(f"bot knob '{key}' must be in {allowed[0]}..{allowed[1]}, got {v}")
        return v
    if t not in allowed:
        raise UserError(f"bot knob '{key}' must be one of {', '.join(allowed)}, got '{text}'")
    return t


def parse_bot(text: str) -> Bot:
    """``heuristic:stop-at=4,block=no`` → Bot; unknown names, knobs and values are errors.
    ``rule:FILE.json`` (a stop rule written by `trash-pandas game-advice --out`) is the heuristic
    bot that plays it (by its stop knobs, or by a stop rule table for a decision list)."""
    from analyzer.advice.rulefile import is_rule

    if is_rule(text):
        from analyzer.games.trash_pandas.advice_game import bot_for_rule

        return bot_for_rule(text)
    name, _, rest = text.strip().partition(":")
    name = name.strip().lower()
    if name not in KINDS:
        raise UserError(f"unknown bot '{name}' (bots: {', '.join(KINDS)})")
    values = {k: v[1] for k, v in KNOBS.items()}
    parts = [p.strip() for p in rest.split(",") if p.strip()]
    rollouts = 0
    if name == "rollout":
        rollouts = ROLLOUTS_DEFAULT
        if parts and "=" not in parts[0] or parts and parts[0].lower().startswith("rollouts="):
            rollouts = _rollouts(parts.pop(0).lower().removeprefix("rollouts="))
    for part in parts:
        if "=" not in part:
            raise UserError(f"bot knobs are key=value, got '{part}' in '{text}'")
        key, val = (x.strip().lower() for x in part.split("=", 1))
        key = key.replace("_", "-")
        if key not in KNOBS:
            raise UserError(f"unknown bot knob '{key}' (knobs: {', '.join(KNOBS)})")
        if name == "random":
            raise UserError("the random bot has no knobs")
        values[key] = _parse_value(key, val)
    if values["band-by"] != "none":
        if values["cut-1"] < 1:
            raise UserError(f"band-by={values['band-by']} needs cut-1 of at least 1 in '{text}'")
        if values["cut-2"] and values["cut-2"] <= values["cut-1"]:
            raise UserError(f"cut-2 must be 0 (two bands) or above cut-1 in '{text}'")
    return Bot(name, tuple(values.items()), rollouts)


def _rollouts(text: str) -> int:
    """K of ``rollout:K`` (a positive integer, at most 4096)."""
    lo, hi = ROLLOUTS_RANGE
    try:
        k = int(text.strip())
    except ValueError:
        raise UserError(f"rollout:K needs a whole number of rollouts K, got '{text}'") from None
    if not lo <= k <= hi:
        raise UserError(f"rollout:K needs K in {lo}..{hi}, got {k}")
    return k


def parse_lineup(seats: str | None, policy: str | None, players: int) -> tuple[Bot, ...]:
    """``--seats A,B,…`` (one bot per seat; a single name for every seat) or ``--policy``.
    Commas separate seats unless they sit inside one bot's knob list: seats are split on
    ``;`` when given, else on commas that start a new bot name."""
    text = seats or policy or "heuristic"
    parts = _split_seats(text)
    if len(parts) == 1:
        parts = parts * players
    if len(parts) != players:
        raise UserError(f"--seats names {len(parts)} bots for {players} players")
    return tuple(parse_bot(p) for p in parts)


def _split_seats(text: str) -> list[str]:
    if ";" in text:
        return [p.strip() for p in text.split(";") if p.strip()]
    parts: list[str] = []
    for piece in text.split(","):
        head = piece.strip().partition(":")[0].strip().lower()
        if head in KINDS or head == "rule" or not parts:
            parts.append(piece.strip())
        else:
            parts[-1] += "," + piece.strip()
    return parts


def lineup_array(lineups: list[tuple[Bot, ...]]) -> np.ndarray:
    """float64[L, 4, NK] knobs of each line-up and seat (unused seats zero)."""
    arr = np.zeros((len(lineups), 4, NK), dtype=np.float64)
    for l, lineup in enumerate(lineups):
        for i, bot in enumerate(lineup):
            arr[l, i] = bot.row()
    return arr


def lineup_label(lineup: tuple[Bot, ...]) -> str:
    labels = [b.label for b in lineup]
    return labels[0] if len(set(labels)) == 1 else ";".join(labels)


def empty_solver_tables() -> tuple[np.ndarray, np.ndarray]:
    """All-zero (roll_tab, after_tab) of :func:`solver_tables`' shapes, for line-ups without a
    solver bot (no other bot reads them)."""
    return np.zeros(2 * 64 * 64, dtype=np.uint8), np.zeros(2 * 64 * 64 * 6, dtype=np.uint8)


def solver_tables(rules) -> tuple[np.ndarray, np.ndarray]:
    """(roll_tab, after_tab) of the exact turn solver's optimal policy, B = N = P = 3, default
    card-equivalent weights (analyzer/games/trash_pandas_policy.py layout)."""
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.rules import ValueModel
    from analyzer.games.trash_pandas.play import PolicySpec, build_tables

    tables = build_tables(PolicySpec("optimal"), TurnSolver(ValueModel(), rules),
                          3, 3, 3)
    return tables.roll, tables.after
