"""No import cycles among the modules of a game package (issue 35, item 6).

Static: every ``import`` and ``from … import`` statement of every module under
``analyzer/games/<game>/`` (at the top or inside a function, both count: a lazy import still
ties two modules together) is read with :mod:`ast`, nothing is imported. The graph's strongly
connected components must all be single modules; a cycle is reported as its member modules.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parent.parent / "analyzer" / "games"
PACKAGES = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").exists())


def imports_within(package: Path) -> dict[str, set[str]]:
    """module -> the modules of the same package it imports (``from .x``, ``from pkg.x``,
    ``from pkg import x``, ``import pkg.x``)."""
    mods = {f.stem for f in package.glob("*.py")}
    full = f"analyzer.games.{package.name}"
    graph: dict[str, set[str]] = {}
    for name in mods:
        deps: set[str] = set()
        for node in ast.walk(ast.parse((package / f"{name}.py").read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level == 1:
                    base = f"{full}.{base}" if base else full
                elif node.level > 1:
                    continue  # above the package
                if base == full:
                    deps |= {a.name for a in node.names if a.name in mods}
                elif base.startswith(full + "."):
                    deps.add(base[len(full) + 1:].split(".")[0])
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith(full + "."):
                        deps.add(a.name[len(full) + 1:].split(".")[0])
        graph[name] = (deps & mods) - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_finds_what_a_hand_drawn_graph_has():
    """a → b → c → a is one cycle, d → a is not part of it, e ↔ f another, g alone none."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"f"}, "f": {"e"}, "g": set()}
    assert sorted(cycles(graph)) == [["a", "b", "c"], ["e", "f"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_reader_sees_lazy_relative_and_absolute_imports(tmp_path):
    pkg = tmp_path / "demo"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "play.py").write_text("def f():\n    from analyzer.games.demo.advice import x\n")
    (pkg / "advice.py").write_text("from . import play\nimport analyzer.games.demo.rules\n")
    (pkg / "rules.py").write_text("from analyzer.games.other import play\n")
    graph = imports_within(pkg)
    assert graph == {"__init__": set(), "play": {"advice"}, "advice": {"play", "rules"},
                     "rules": set()}
    assert cycles(graph) == [["advice", "play"]]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle_inside_a_game_package(package):
    found = cycles(imports_within(GAMES / package))
    assert found == [], f"import cycles in analyzer/games/{package}: {found}"


def test_recorded_features_are_the_advice_features():
    """advice_record.py names its features without importing advice_game.py (that import made
    the cycle); the two lists must still be the same features."""
    from analyzer.games.ten import advice_game as ten_game, advice_record as ten_record
    from analyzer.games.trash_pandas import advice_game as tp_game, advice_record as tp_record

    assert set(ten_record.NAMES) == {f.name for f in ten_game.FEATURES}
    assert set(tp_record.NAMES) == {f.name for f in tp_game.FEATURES}
