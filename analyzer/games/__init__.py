"""The games pushluck knows: one registry, read lazily by the CLI, `report`, `tune` and `bench`.

A game is a package ``analyzer/games/<package>/`` with the same role-named modules in every game
(only those it needs):

========== ==================================================================================
module     what belongs there
========== ==================================================================================
rules.py   the rules dataclass (one ``rule(...)`` per house-rule key), deck/data files, notation
exact.py   exact solvers (dynamic programming, enumeration); no pandas, no matplotlib
play.py    policies and bots (their declared knobs), the wrappers that turn rules + policy into
           kernel jobs, and the pure-Python references of each kernel; never imports advice.py
lineup.py  what a --policy/--seats/--vs text means (``FAMILIES``); the only reader of rule:FILE
cli.py     its Typer sub-app: parses options, calls the modules above, prints
report.py  report parts (``PARTS``), tables and charts (a chart used by a command lives here)
tune.py    tuning metrics (``METRICS``)
bench.py   bench cases (``CASES``)
========== ==================================================================================

Its Numba kernels live in ``kernels/<package>/``. The package's ``__init__.py`` holds a
:class:`Game` descriptor named ``GAME``: plain facts and dotted paths, so listing the games imports
nothing heavy. :data:`REGISTRY` below is the only place the list of games is written.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field

#: CLI name → package under ``analyzer.games``. The one list of games.
REGISTRY: dict[str, str] = {
    "trash-pandas": "trash_pandas",
    "ten": "ten",
    "magdagdon": "magdagdon",
    "gostop": "gostop",
    "canasta": "canasta",
    "pig": "pig",
}


@dataclass(frozen=True)
class Game:
    """Facts about one game and where its parts live (``.module:ATTRIBUTE`` inside the package).

    ``trial`` is the unit of one Monte Carlo trial as the help names it (turns, games, deals,
    rounds); ``chance`` the chance model; ``exact_reach`` how far the exact solution reaches;
    ``value_unit`` the unit of the answers. ``rules_page`` is the file under ``docs/rules/``.
    """

    key: str
    title: str
    summary: str
    players: tuple[int, int]
    trial: str
    chance: str
    exact_reach: str
    value_unit: str
    rules_page: str
    tags: tuple[str, ...] = ()
    rules: str = ".rules:RULES"
    cli: str = ".cli:app"
    parts: str = ".report:PARTS"
    metrics: str = ".tune:METRICS"
    bench: str = ".bench:CASES"
    package: str = field(default="", compare=False)

    def load(self, role: str):
        """Import and return one of the descriptor's dotted paths (``rules``, ``cli``, …)."""
        module, _, attr = getattr(self, role).partition(":")
        mod = importlib.import_module(module, self.package)
        return getattr(mod, attr)


def game_keys() -> tuple[str, ...]:
    return tuple(REGISTRY)


def get_game(key: str) -> Game:
    """The descriptor of ``key`` (a CLI name); a :class:`UserError` naming the games otherwise."""
    if key not in REGISTRY:
        from analyzer.errors import UserError

        raise UserError(f"unknown game '{key}' (games: {', '.join(REGISTRY)})")
    package = f"{__name__}.{REGISTRY[key]}"
    game = importlib.import_module(package).GAME
    if game.key != key:  # pragma: no cover - a registry typo
        raise RuntimeError(f"{package}.GAME.key is {game.key!r}, registered as {key!r}")
    object.__setattr__(game, "package", package)
    return game


def all_games() -> list[Game]:
    return [get_game(k) for k in REGISTRY]
