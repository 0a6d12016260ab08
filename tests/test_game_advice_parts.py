"""The report parts of the whole-game advice (`trash-pandas game-advice`, `ten game-advice`):
each writes the front as a table (CSV and Markdown) and a loss-vs-complexity chart (PNG and SVG),
states the race's two costs and that it is a short race, and keeps every loss a statistic."""
import pytest


@pytest.mark.parametrize("kind,players", [("trash-pandas.game-advice", 2),
                                          ("ten.game-advice", 2)])
def test_game_advice_part_writes_its_files(kind, players):
    from analyzer.report import part_kind

    res = part_kind(kind).compute({"players": players, "rounds": 1, "precision": 1.0}, {}, 3)
    assert {"advice_front.csv", "advice_front.md", "advice_front.png",
            "advice_front.svg"} <= set(res.files)
    assert all(len(b) > 100 for b in res.files.values())
    assert "for a uniform grid with the same guarantee" in res.summary
    assert "short race" in res.summary
    assert res.meta["exact"] is False and res.meta["front"]
    race = res.meta["race"]
    assert race["trials_spent"] <= race["trials_flat"]
    for row in res.meta["front"]:
        L = row["loss"]
        assert L["ci_low"] <= L["estimate"] <= L["ci_high"] and L["n"] > 0
    assert "| ci_low | ci_high |" in res.summary  # Monte Carlo intervals are shown
    csv = res.files["advice_front.csv"].decode()
    assert csv.splitlines()[0].startswith("complexity,loss,ci_low,ci_high,rule")
    assert res.meta["front"][0]["words"] in csv


def test_game_advice_parts_are_in_the_recipes():
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "reports" / "recipes"
    for game, kind in (("trash-pandas", "trash-pandas.game-advice"), ("ten", "ten.game-advice")):
        parts = tomllib.loads((root / f"{game}.toml").read_text())["parts"]
        assert [p for p in parts if p["kind"] == kind][0]["params"]["rounds"] <= 8
