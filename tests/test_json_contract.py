"""Every command of every game prints one JSON object naming its ``game`` and saying ``exact``
(issue 11, item 11), and no Monte Carlo figure in it is a bare number (item 10).

One small invocation per command, run in-process through the top-level Typer app (the same code
path as `pushluck …`), with small sample sizes so the whole module takes seconds once the kernels
are cached.
"""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from analyzer.cli.main import build_app

DATA = "analyzer/data"

#: (game, command, arguments): one invocation per command of every game.
INVOCATIONS = [
    ("trash-pandas", "rules", []),
    ("trash-pandas", "odds", ["--held", "trash,paw", "--blammo", "1"]),
    ("trash-pandas", "policy", []),
    ("trash-pandas", "simulate", ["--policy", "stop-at:3", "-n", "2000", "--seed", "1"]),
    ("trash-pandas", "score", ["--stash", "A:feesh=3,blammo=2;B:feesh=3;C:feesh=1"]),
    ("trash-pandas", "game", ["-n", "600", "--seed", "1", "--vs", "solver"]),
    ("trash-pandas", "decide", [f"{DATA}/trash_pandas_position_example.toml", "-n", "300",
                                "--seed", "1"]),
    ("trash-pandas", "calibrate", ["--players", "2", "-n", "4", "--playouts", "32",
                                   "--seed", "1"]),
    ("trash-pandas", "ladder", ["--bots", "heuristic,random", "--players", "2", "-n", "8",
                                "--seed", "1"]),
    ("ten", "rules", []),
    ("ten", "deck", ["--players", "2"]),
    ("ten", "odds", ["--tableau", "r9,$5,$5", "--seen", "b7,b#"]),
    ("ten", "best", ["--tableau", "r5,r3"]),
    ("ten", "simulate", ["--policy", "total:7", "--vs", "cards:3", "-n", "2000", "--seed", "1"]),
    ("ten", "thresholds", ["--by", "cards", "-n", "2000", "--seed", "1"]),
    ("ten", "score", ["--collection", "b1,b2,b3,b5,b7,b#"]),
    ("ten", "ladder", ["--bots", "threshold,random", "--players", "2", "-n", "8", "--seed", "1"]),
    ("ten", "calibrate", ["--players", "2", "-n", "4", "--playouts", "16", "--seed", "1"]),
    ("magdagdon", "rules", []),
    ("magdagdon", "score", ["--board", "2345/2345/2345/2345"]),
    ("magdagdon", "feasible", ["--board", "..../..../..../...x", "--roll", "1,3,5,6",
                               "-d", "nightmare"]),
    ("magdagdon", "odds", ["--board", "3.xx/xxxx/xxxx/xxxx", "--powers-left", "0"]),
    ("magdagdon", "best", ["--board", "3456/3456/3456/34..", "--roll", "4511", "-d", "survival",
                           "-n", "20", "--seed", "1", "--top", "2"]),
    ("magdagdon", "simulate", ["-n", "200", "--vs", "min-dice", "--seed", "1"]),
    ("gostop", "rules", []),
    ("gostop", "score", ["--captures", "01B,03B,12B"]),
    ("gostop", "simulate", ["-n", "300", "--seats", "greedy", "--vs", "go:1,greedy",
                            "--seed", "1"]),
    ("gostop", "decide", [f"{DATA}/gostop_position_example.toml", "-n", "200",
                          "--seed", "1"]),
    ("canasta", "rules", []),
    ("canasta", "score", [f"{DATA}/canasta_score_example.toml"]),
    ("canasta", "position", ["--template"]),
    ("gostop", "position", ["--example", "basic"]),
    ("ten", "position", ["--template"]),
    ("trash-pandas", "position", ["--example", "basic"]),
    ("canasta", "check", ["--score", "5000", "KS,KH,2C", "8S,8H,8D"]),
    ("canasta", "meld-odds", ["--score", "5000", "--within-turns", "2", "-n", "300",
                              "--seed", "1"]),
    ("canasta", "simulate", ["-n", "4", "--seed", "1"]),
    ("canasta", "decide", [f"{DATA}/canasta_position_example.toml", "-n", "40", "--seed", "1"]),
    ("pig", "rules", []),
    ("pig", "solve", ["--goal", "30"]),
    ("pig", "decide", ["--me", "10", "--opp", "20", "--turn", "5", "--set", "goal=30"]),
    ("pig", "turn", ["--hold", "20"]),
    ("pig", "simulate", ["-n", "2000", "--seats", "hold:20,hold:20", "--vs", "optimal,hold:20",
                         "--seed", "1"]),
    ("pig", "simulate", ["-n", "2000", "--seed", "1"]),  # unpaired: mean turns and rolls
    ("trash-pandas", "simulate", ["--policy", "stop-at:6", "-n", "200", "--seed", "1"]),
    ("trash-pandas", "advice", []),
    ("pig", "advice", ["--set", "goal=30", "--bands", "1", "--clauses", "1"]),
    ("ten", "advice", ["--bands", "1", "--clauses", "1"]),
    ("ten", "game", ["-n", "20", "--seed", "1"]),
    ("ten", "decide", [f"{DATA}/ten_position_example.toml", "-n", "30", "--seed", "1"]),
    ("gostop", "advice", ["--rounds", "1", "--precision", "10", "--seed", "1"]),
    ("canasta", "advice", ["--rounds", "1", "--precision", "1", "--seed", "1"]),
    ("trash-pandas", "game-advice", ["--players", "2", "--rounds", "1", "--precision", "1",
                                     "--band-by", "none", "--seed", "1"]),
    ("ten", "game-advice", ["--players", "2", "--rounds", "1", "--precision", "1",
                            "--band-by", "none", "--seed", "1"]),  # 19 rules: 2 s, not 22
    ("magdagdon", "advice", ["-d", "survival", "--rounds", "1", "--precision", "100", "--seed",
                             "1"]),
]

#: Keys that hold Monte Carlo figures when a result is not exact, by name: they must be
#: statistic objects (a dict with estimate/se/ci_low/ci_high/n), never bare numbers.
STAT_KEYS = {"estimate", "se", "ci_low", "ci_high", "n"}
MC_PREFIXES = ("mean_", "p_", "rate", "bust_rate", "margin", "q0", "q1", "q2", "q5", "q7", "q9")
MC_SUFFIXES = ("_per_deal", "_rate", "_per_game", "_advantage")


def _run(game: str, command: str, args: list[str]) -> dict:
    result = CliRunner().invoke(build_app(), [game, command, *args, "--json"])
    assert result.exit_code == 0, (result.output, result.exception)
    return json.loads(result.stdout)


def _bare_mc_numbers(obj, path="") -> list[str]:
    """Paths of numbers whose key names a Monte Carlo figure (mean_*, p_*, *_per_deal, …) but
    which are not statistic objects."""
    found = []
    if isinstance(obj, dict):
        if STAT_KEYS <= set(obj) or obj.get("exact") is True:  # a statistic, or an exact part
            return found
        for k, v in obj.items():
            here = f"{path}.{k}"
            named = (k.startswith(MC_PREFIXES) or k.endswith(MC_SUFFIXES)) and "exact" not in k
            if named and isinstance(v, (int, float)) and not isinstance(v, bool):
                found.append(here)
            else:
                found += _bare_mc_numbers(v, here)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            found += _bare_mc_numbers(v, f"{path}[{i}]")
    return found


def test_every_command_of_every_game_is_covered():
    """The list above names every command of every registered game."""
    import typer

    from analyzer.games import REGISTRY, get_game

    listed = {(g, c) for g, c, _ in INVOCATIONS}
    for key in REGISTRY:
        group = typer.main.get_command(get_game(key).load("cli"))
        for name in group.commands:
            assert (key, name) in listed, f"{key} {name} has no JSON contract invocation"


@pytest.mark.parametrize("game,command,args", INVOCATIONS,
                         ids=[f"{g}-{c}" for g, c, _ in INVOCATIONS])
def test_json_names_game_and_says_exact(game, command, args):
    out = _run(game, command, args)
    assert out.get("game") == game
    assert isinstance(out.get("exact"), bool)
    if not out["exact"]:
        assert "seed" in out
        assert _bare_mc_numbers(out) == []
