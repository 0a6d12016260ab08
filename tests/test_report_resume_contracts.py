"""`pushluck report` resume: what the fingerprint must hold, tested through the command line.

A rerun into the same folder reuses a part only when nothing that decides its numbers changed.
Each test runs a tiny Pig recipe twice into one folder, changing one input between the runs
(the seed, a rule, a policy, a part's parameters, its kind, its place in the recipe), and checks
from the JSON answer and the written files which parts were computed again and that their numbers
changed. Part seeds are pinned by value (``SeedSequence([seed, i])``, 63 bits) and differ between
parts. Only the command's output and files are read (the file handling inside report.py may
change); the command runs in the test's process (``analyzer.cli.main.main``).
"""
from __future__ import annotations

import json

import numpy as np
import pytest


_CAPSYS = []


@pytest.fixture(autouse=True)
def _capture(capsys):
    """:func:`report` runs the command in this process (so mutation testing sees it)."""
    _CAPSYS.append(capsys)
    yield
    _CAPSYS.pop()


def report(recipe, out, *extra):
    """`pushluck report RECIPE --out DIR --json [extra]` → the JSON answer."""
    from analyzer.cli.main import main

    capsys = _CAPSYS[-1]
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(["report", str(recipe), "--out", str(out), "--json", *extra])
    cap = capsys.readouterr()
    assert exc.value.code == 0, cap.err
    return json.loads(cap.out)


def recipe_text(seed=5, goal=20, pairs='["hold:10,hold:10"]', games=3000, extra_first="",
                kind="pig.matchups", title="Matchups"):
    return f'''title = "Resume test"
game = "pig"
seed = {seed}

[rules]
goal = {goal}
{extra_first}
[[parts]]
name = "m"
title = "{title}"
kind = "{kind}"
[parts.params]
{"games = " + str(games) if kind == "pig.matchups" else "range = [5, 8]"}
{"pairs = " + pairs if kind == "pig.matchups" else ""}

[[parts]]
name = "h"
title = "Hold at H"
kind = "pig.hold-thresholds"
[parts.params]
range = [5, 8]
'''


def write(tmp_path, name="r.toml", **kw):
    p = tmp_path / name
    p.write_text(recipe_text(**kw))
    return p


def snapshot(out):
    """Every file of the folder but the lock: name -> bytes."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name != ".pushluck.lock"}


def manifest(out, name):
    return json.loads((out / "parts" / f"{name}.json").read_text())


def part_seed_by_hand(seed, index):
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0]) >> 1


def test_same_inputs_reuse_every_part_byte_for_byte(tmp_path):
    out = tmp_path / "out"
    r = write(tmp_path)
    first = report(r, out)
    assert (first["computed"], first["skipped"]) == (2, 0)
    files = snapshot(out)
    again = report(r, out)
    assert (again["computed"], again["skipped"]) == (0, 2)
    assert snapshot(out) == files
    # part seeds: SeedSequence([recipe seed, part index]) -> 63 bits, different per part
    assert manifest(out, "m")["seed"] == part_seed_by_hand(5, 0)
    assert manifest(out, "h")["seed"] == part_seed_by_hand(5, 1)
    assert part_seed_by_hand(5, 0) != part_seed_by_hand(5, 1)


def test_a_new_seed_recomputes_every_part(tmp_path):
    out = tmp_path / "out"
    r = write(tmp_path)
    report(r, out)
    before = manifest(out, "m")
    res = report(r, out, "--seed", "6")
    assert (res["computed"], res["skipped"], res["seed"]) == (2, 0, 6)
    after = manifest(out, "m")
    assert after["seed"] == part_seed_by_hand(6, 0) != before["seed"]
    assert after["summary"] != before["summary"]  # other games, other numbers
    # the recipe's own seed changed to 6: what is in the folder is reused
    res = report(write(tmp_path, "r6.toml", seed=6), out)
    assert (res["computed"], res["skipped"]) == (0, 2)
    # back to seed 5: computed again, and the first numbers come back
    res = report(r, out)
    assert res["computed"] == 2 and manifest(out, "m")["summary"] == before["summary"]


def test_a_changed_rule_recomputes_every_part(tmp_path):
    out = tmp_path / "out"
    report(write(tmp_path), out)
    before = {n: manifest(out, n)["summary"] for n in ("m", "h")}
    res = report(write(tmp_path, goal=25), out)
    assert (res["computed"], res["skipped"]) == (2, 0)
    assert manifest(out, "m")["summary"] != before["m"]


def test_a_changed_policy_recomputes_only_its_part(tmp_path):
    out = tmp_path / "out"
    report(write(tmp_path), out)
    h = snapshot(out)
    before = manifest(out, "m")["summary"]
    res = report(write(tmp_path, pairs='["hold:12,hold:10"]'), out)
    assert (res["computed"], res["skipped"]) == (1, 1)
    assert manifest(out, "m")["summary"] != before
    assert manifest(out, "m")["params"]["pairs"] == ["hold:12,hold:10"]
    assert {k: v for k, v in snapshot(out).items() if k.startswith("parts/h")} == \
        {k: v for k, v in h.items() if k.startswith("parts/h")}


def test_a_changed_sample_size_recomputes_its_part(tmp_path):
    out = tmp_path / "out"
    report(write(tmp_path), out)
    res = report(write(tmp_path, games=3001), out)
    assert (res["computed"], res["skipped"]) == (1, 1)
    assert "3,001" in manifest(out, "m")["summary"] or "3001" in manifest(out, "m")["summary"]


def test_a_part_of_another_kind_under_the_same_name_is_computed(tmp_path):
    # the same name and the same (default) parameters, another kind
    def one_part(kind):
        p = tmp_path / "k.toml"
        p.write_text(f'''title = "Kind test"
game = "pig"
seed = 5
[rules]
goal = 12
[[parts]]
name = "x"
kind = "{kind}"
''')
        return p

    out = tmp_path / "out"
    report(one_part("pig.solve"), out)
    res = report(one_part("pig.hold-thresholds"), out)
    assert (res["computed"], res["skipped"]) == (1, 0)
    assert manifest(out, "x")["kind"] == "pig.hold-thresholds"
    assert manifest(out, "x")["params"] == {}


def test_a_part_moved_to_another_place_gets_another_seed(tmp_path):
    # inserting a part first moves 'm' and 'h' one place on: their seeds change, so both are
    # computed again (a part's seed follows its place in the recipe)
    out = tmp_path / "out"
    report(write(tmp_path), out)
    first = '''[[parts]]
name = "first"
kind = "pig.matchups"
[parts.params]
games = 100
pairs = ["hold:5,hold:5"]
'''
    res = report(write(tmp_path, extra_first=first), out)
    assert (res["computed"], res["skipped"]) == (3, 0)
    assert manifest(out, "m")["seed"] == part_seed_by_hand(5, 1)
    assert manifest(out, "h")["seed"] == part_seed_by_hand(5, 2)


def twins_recipe(tmp_path):
    """Two parts of one kind with the same parameters."""
    text = recipe_text().replace('name = "h"\ntitle = "Hold at H"\nkind = "pig.hold-thresholds"'
                                 '\n[parts.params]\nrange = [5, 8]',
                                 'name = "m2"\nkind = "pig.matchups"\n[parts.params]\n'
                                 'games = 3000\npairs = ["hold:10,hold:10"]')
    r = tmp_path / "twins.toml"
    r.write_text(text)
    return r


def test_two_identical_parts_get_different_seeds_and_numbers(tmp_path):
    out = tmp_path / "out"
    report(twins_recipe(tmp_path), out)
    a, b = manifest(out, "m"), manifest(out, "m2")
    assert a["params"] == b["params"] and a["kind"] == b["kind"]
    assert a["seed"] != b["seed"] and a["summary"] != b["summary"]


def test_two_parts_of_one_kind_keep_their_own_files_and_resume(tmp_path):
    out = tmp_path / "out"
    r = twins_recipe(tmp_path)
    report(r, out)
    assert set(manifest(out, "m")["files"]).isdisjoint(manifest(out, "m2")["files"])
    again = report(r, out)
    assert (again["computed"], again["skipped"]) == (0, 2)


@pytest.mark.parametrize("damage", ["truncate", "delete"])
def test_a_damaged_file_makes_its_part_run_again(tmp_path, damage):
    out = tmp_path / "out"
    r = write(tmp_path)
    report(r, out)
    files = snapshot(out)
    victim = out / manifest(out, "m")["files"][0]
    if damage == "truncate":
        victim.write_bytes(victim.read_bytes()[:10])
    else:
        victim.unlink()
    res = report(r, out)
    assert (res["computed"], res["skipped"]) == (1, 1)
    assert snapshot(out) == files
