"""A report never deletes, mixes or escapes a user's files (issue 33, "Data loss and data mixing").

Real folders, real links and FIFOs, real `python -m analyzer` processes and real signals: a user's
``.tmp`` files survive, two parts never share a path, a folder holds one report, nothing is
written through a link, no special file is ever opened, the filesystem root and the home folder
are refused, and a bad recipe is refused whole before any part runs. Each subprocess has a
timeout, so a hang fails the test instead of stalling the suite.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.errors import UserError
from tests.test_interrupts import _wait_for

# an exact part (fast, no Monte Carlo) and Monte Carlo parts of one kind with different line-ups
RECIPE = """title = "file safety"
game = "pig"
seed = 11

[[parts]]
name = "turn"
kind = "pig.hold-thresholds"
[parts.params]
range = [15, 25]

[[parts]]
name = "m1"
kind = "pig.matchups"
[parts.params]
games = {games1}
pairs = ["hold:20,hold:25"]

[[parts]]
name = "m2"
kind = "pig.matchups"
[parts.params]
games = {games2}
pairs = ["hold:15,hold:30", "hold:25,hold:20"]
"""
SMALL = RECIPE.format(games1=3000, games2=3000)
TIMEOUT = 300


def _env(**extra) -> dict:
    return {**os.environ, "COLUMNS": "100", **extra}


def _run(args, timeout=TIMEOUT, **env) -> tuple[int, str, str]:
    proc = subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True,
                          text=True, timeout=timeout, env=_env(**env))
    return proc.returncode, proc.stdout, proc.stderr


def _recipe(tmp_path: Path, text: str = SMALL, name: str = "recipe") -> Path:
    p = tmp_path / f"{name}.toml"
    p.write_text(text)
    return p


def _tree(folder: Path) -> dict[str, bytes]:
    """Every regular file below ``folder`` (links not followed) with its bytes."""
    out = {}
    for dirpath, _dirs, files in os.walk(folder):
        for f in files:
            p = Path(dirpath) / f
            if p.is_file() and not p.is_symlink():
                out[str(p.relative_to(folder))] = p.read_bytes()
    return out


def _stamps(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*")
            if p.is_file()}


def _one_line_refusal(code: int, err: str) -> None:
    assert code == 2, err[-800:]
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err[-800:]


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


# ------------------------------------------------------------------ 1. only its own temporaries
def test_a_users_tmp_files_survive_and_only_dead_runs_temporaries_go(tmp_path):
    out = tmp_path / "d"
    (out / "sub" / "deeper").mkdir(parents=True)
    (out / "turn").mkdir()
    users = {".mydata.tmp": b"mine", "sub/deeper/.swap.tmp": b"swap",
             "turn/.notes.tmp": b"notes", "sub/.x.pushluck-1-0123abcd.tmp": b"outside ours"}
    for rel, data in users.items():
        (out / rel).write_bytes(data)
    dead, live = _dead_pid(), os.getpid()  # this test's process is alive throughout
    stale = out / "turn" / f".hold_thresholds.csv.pushluck-{dead}-0123abcd.tmp"
    running = out / f".index.md.pushluck-{live}-89abcdef.tmp"
    stale.write_bytes(b"half a tab")
    running.write_bytes(b"another run's")
    code, _, err = _run(["report", str(_recipe(tmp_path)), "--out", str(out)])
    assert code == 0, err
    for rel, data in users.items():  # not ours by name, or not in a folder the report writes
        assert (out / rel).read_bytes() == data, rel
    assert not stale.exists()  # ours, and its writer has ended
    assert running.read_bytes() == b"another run's"  # its writer still runs


# --------------------------------------------------------------- 2. every part its own paths
def _shipped_recipes():
    from analyzer.report import available_recipes, load_recipe

    return [load_recipe(p) for p in available_recipes()]


def _claimed(recipe) -> list[str]:
    """The paths (prefixes) each part of ``recipe`` may write, from the folder layout."""
    from analyzer.report_folder import MANIFESTS, part_folder

    return ([part_folder(p["name"]) + "/" for p in recipe.parts]
            + [f"{MANIFESTS}/{p['name']}.json" for p in recipe.parts])


def _disjoint(paths: list[str]) -> None:
    for i, a in enumerate(paths):
        for b in paths[i + 1:]:
            assert not (a == b or a.startswith(b) or b.startswith(a)), (a, b)


def test_no_two_parts_of_any_shipped_recipe_or_of_report_all_claim_one_path():
    from analyzer.report_folder import IDENTITY, MANIFESTS, RESERVED

    recipes = _shipped_recipes()
    assert len(recipes) == 6
    everything = []
    for rec in recipes:
        claimed = _claimed(rec)
        _disjoint(claimed + ["index.md", "index.html", IDENTITY, ".pushluck.lock"])
        assert not {p["name"] for p in rec.parts} & RESERVED
        assert all(not c.startswith(MANIFESTS + "/") or c.endswith(".json") for c in claimed)
        everything += [f"{rec.path.stem}/{c}" for c in claimed]
    # `report all`: one folder per recipe beside the top index, so no path is claimed twice
    _disjoint(everything + ["index.md", "index.html"])
    ten = next(r for r in recipes if r.game == "ten")
    assert {"advice", "game-advice"} <= {p["name"] for p in ten.parts}  # the pair


@pytest.mark.parametrize("rel", ["../escape.csv", "/abs.csv", "a//b.csv", "a/./b", "x\ny",
                                 "", "a/../../b"])
def test_a_part_cannot_name_a_file_outside_its_folder(rel):
    from analyzer.report_folder import file_rel

    with pytest.raises(UserError):
        file_rel("part", rel)
    assert file_rel("part", "sub/table.csv") == "part/sub/table.csv"


def test_parts_returning_the_same_file_names_keep_their_own_files(tmp_path, monkeypatch):
    """Two parts that both return advice_front.{csv,md} (as Ten's advice and game-advice do) keep
    one file each; a rerun reuses both and changes no byte."""
    from analyzer import report as rep

    calls = []

    def front(params, rules, seed):
        calls.append(seed)
        return rep.PartResult({"advice_front.csv": f"seed,{seed}\n".encode(),
                               "advice_front.md": f"seed {seed}\n".encode()}, f"seed {seed}")

    monkeypatch.setattr(rep, "game_parts", lambda game: {
        "front": rep.PartKind("pig", "front", front, params={"k": rep.Param("int", 0, 9)})})
    rec = rep.load_recipe(_recipe(tmp_path, 'title="t"\ngame="pig"\nseed=3\n'
                                  '[[parts]]\nname="advice"\nkind="pig.front"\n'
                                  '[[parts]]\nname="game-advice"\nkind="pig.front"\n'
                                  '[parts.params]\nk = 1\n'))
    out = tmp_path / "out"
    first = rep.run_recipe(rec, out)
    a = (out / "advice" / "advice_front.csv").read_bytes()
    b = (out / "game-advice" / "advice_front.csv").read_bytes()
    assert a == f"seed,{rep.part_seed(3, 0)}\n".encode() and b == f"seed,{rep.part_seed(3, 1)}\n".encode()
    assert first["computed"] == 2 and len(set(first["files"])) == len(first["files"]) == 6
    before, stamps = _tree(out), _stamps(out)
    again = rep.run_recipe(rec, out)
    assert again["computed"] == 0 and again["skipped"] == 2 and len(calls) == 2
    assert _tree(out) == before
    parts_files = [f for f in stamps if f.startswith(("advice/", "game-advice/", "parts/"))]
    assert all(_stamps(out)[f] == stamps[f] for f in parts_files)  # not even rewritten


def test_a_real_multi_part_run_gives_each_part_its_files_and_a_rerun_changes_no_byte(tmp_path):
    recipe = _recipe(tmp_path, RECIPE.format(games1=3000, games2=3000).replace(
        '[[parts]]\nname = "m2"', '[[parts]]\nname = "m3"\nkind = "pig.matchups"\n'
        '[parts.params]\ngames = 2000\npairs = ["hold:10,hold:20"]\n\n[[parts]]\nname = "m2"'))
    out = tmp_path / "out"
    code, stdout, err = _run(["report", str(recipe), "--out", str(out), "--json"])
    assert code == 0, err
    res = json.loads(stdout)
    assert res["computed"] == 4 and len(set(res["files"])) == len(res["files"])
    tree = _tree(out)
    tables = {p: tree[f"{p}/matchups.csv"] for p in ("m1", "m2", "m3")}
    assert len(set(tables.values())) == 3  # three parts, three different tables
    assert tables["m2"].count(b"\n") == 3 and b"hold:10" in tables["m3"]  # header + its rows
    for p in ("turn", "m1", "m2", "m3"):
        m = json.loads(tree[f"parts/{p}.json"])
        assert all(f.startswith(p + "/") for f in m["files"])
        import hashlib

        assert all(hashlib.sha256(tree[f]).hexdigest() == h for f, h in m["sha256"].items())
    stamps = _stamps(out)
    code, stdout, err = _run(["report", str(recipe), "--out", str(out), "--json"])
    assert code == 0, err
    again = json.loads(stdout)
    assert again["computed"] == 0 and again["skipped"] == 4
    assert _tree(out) == tree
    assert all(_stamps(out)[f] == t for f, t in stamps.items()
               if not f.startswith(("index.", ".pushluck-report")))


# ------------------------------------------------------------------ 3. one folder, one report
def _killed_after_two_parts(recipe: Path, out: Path, *extra: str, sig=signal.SIGKILL) -> int:
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", "report", str(recipe), "--out",
                             str(out), *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=_env())
    try:
        seen = _wait_for(proc, b"[2/3]")
        assert b"[2/3]" in seen, seen[-800:]
        proc.send_signal(sig)
        proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode


def test_another_seed_over_a_finished_folder_replaces_its_report(tmp_path):
    """Another seed, recipe or house rules over a finished folder: a new report replaces the
    old one (named on stderr), nothing of the old one is reused, and the folder ends byte for
    byte as a clean run of the new report into an empty folder."""
    recipe, out = _recipe(tmp_path), tmp_path / "out"
    assert _run(["report", str(recipe), "--out", str(out)])[0] == 0
    code, _, err = _run(["report", str(recipe), "--out", str(out), "--seed", "12"])
    assert code == 0, err
    assert "seed 11" in err and "replaces" in err and "0 part(s) already" not in err
    clean = tmp_path / "clean12"
    assert _run(["report", str(recipe), "--out", str(clean), "--seed", "12"])[0] == 0
    assert _tree(out) == _tree(clean)
    # other house rules: the same (a rule is part of every part's fingerprint)
    ruled = _recipe(tmp_path, SMALL + "\n[rules]\ngoal = 50\n", "ruled")
    code, _, err = _run(["report", str(ruled), "--out", str(out), "--seed", "12"])
    assert code == 0 and "replaces" in err, err
    clean_ruled = tmp_path / "clean_ruled"
    assert _run(["report", str(ruled), "--out", str(clean_ruled), "--seed", "12"])[0] == 0
    assert _tree(out) == _tree(clean_ruled)


def test_another_seed_killed_after_two_parts_leaves_an_index_of_the_new_seed_only(tmp_path):
    """The issue's case: a finished seed-11 folder, a seed-12 rerun killed after two parts.
    The index says the report is incomplete and names only the two parts written with seed 12
    (never seed 11's tables as if they were this report's); finishing with seed 12 gives the
    folder a clean seed-12 run gives."""
    from analyzer.report import part_seed

    slow = RECIPE.format(games1=3000, games2=1_500_000)
    recipe, out = _recipe(tmp_path, RECIPE.format(games1=3000, games2=2000)), tmp_path / "out"
    assert _run(["report", str(recipe), "--out", str(out)])[0] == 0
    recipe.write_text(slow)
    code = _killed_after_two_parts(recipe, out, "--seed", "12")
    if code == 0:
        pytest.skip("the last part finished before the kill landed")
    assert code == -signal.SIGKILL
    index = (out / "index.md").read_text()
    assert "incomplete: 2 of 3" in index and "--seed 12" in index and "seed 11" not in index
    written = [json.loads((out / "parts" / f"{n}.json").read_text()) for n in ("turn", "m1")]
    assert [m["seed"] for m in written] == [part_seed(12, 0), part_seed(12, 1)]
    assert "m2" not in index.split("written (", 1)[1].split(")", 1)[0]
    code, _, err = _run(["report", str(recipe), "--out", str(out), "--seed", "12"],
                        timeout=600)
    assert code == 0 and "2 part(s) already written" in err, err
    clean = tmp_path / "clean"
    assert _run(["report", str(recipe), "--out", str(clean), "--seed", "12"],
                timeout=600)[0] == 0
    assert _tree(out) == _tree(clean)


def test_edited_parameters_interrupted_after_two_parts_leave_no_stale_index(tmp_path):
    """A finished folder, the recipe's sample sizes edited, the rerun killed after two parts:
    the index says the report is incomplete (never the old parameters beside new tables), each
    written part's manifest carries its own seed and parameters, and finishing the run gives
    the folder a clean run of the edited recipe gives."""
    recipe, out = _recipe(tmp_path, RECIPE.format(games1=2000, games2=2000)), tmp_path / "out"
    assert _run(["report", str(recipe), "--out", str(out)])[0] == 0
    assert "games" in (out / "index.md").read_text()
    recipe.write_text(RECIPE.format(games1=4000, games2=1_500_000))
    code = _killed_after_two_parts(recipe, out)
    if code == 0:
        pytest.skip("the last part finished before the kill landed")
    index = (out / "index.md").read_text()
    assert "incomplete: 2 of 3" in index and "2000" not in index and "4000" not in index
    m1 = json.loads((out / "parts" / "m1.json").read_text())
    assert m1["params"]["games"] == 4000
    from analyzer.report import part_seed

    assert m1["seed"] == part_seed(11, 1)
    code, _, err = _run(["report", str(recipe), "--out", str(out)], timeout=600)
    assert code == 0, err
    clean = tmp_path / "clean"
    assert _run(["report", str(recipe), "--out", str(clean)], timeout=600)[0] == 0
    assert _tree(out) == _tree(clean)


def test_a_folder_from_before_the_identity_file_is_judged_by_its_manifests(tmp_path):
    from analyzer.report_folder import IDENTITY

    recipe, out = _recipe(tmp_path), tmp_path / "out"
    assert _run(["report", str(recipe), "--out", str(out)])[0] == 0
    (out / IDENTITY).unlink()
    code, _, err = _run(["report", str(recipe), "--out", str(out)])  # same seed: adopted
    assert code == 0 and "3 part(s) already written" in err, err
    assert json.loads((out / IDENTITY).read_text())["seed"] == 11
    (out / IDENTITY).unlink()
    code, _, err = _run(["report", str(recipe), "--out", str(out), "--seed", "12"])
    assert code == 0 and "replaces it" in err and "already written" not in err, err
    assert json.loads((out / IDENTITY).read_text())["seed"] == 12


# --------------------------------------------------------------- 4. never through a link
@pytest.mark.parametrize("where", ["parts", "turn"])
def test_a_report_folder_that_is_a_link_is_refused_and_elsewhere_untouched(tmp_path, where):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("keep")
    (out / where).symlink_to(elsewhere)
    code, _, err = _run(["report", str(_recipe(tmp_path)), "--out", str(out)])
    _one_line_refusal(code, err)
    assert "symbolic link" in err and "computing" not in err
    assert sorted(os.listdir(elsewhere)) == ["keep.txt"]


def test_a_report_folder_that_is_a_file_is_refused_in_one_line(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "parts").write_text("my notes")
    code, _, err = _run(["report", str(_recipe(tmp_path)), "--out", str(out)])
    _one_line_refusal(code, err)
    assert (out / "parts").read_text() == "my notes" and "computing" not in err


def test_report_all_refuses_a_recipe_folder_that_is_a_link_before_anything_runs(tmp_path):
    root, elsewhere = tmp_path / "all", tmp_path / "elsewhere"
    root.mkdir()
    elsewhere.mkdir()
    (root / "pig").symlink_to(elsewhere)
    code, _, err = _run(["report", "all", "--out", str(root)])
    _one_line_refusal(code, err)
    assert "computing" not in err and os.listdir(elsewhere) == []


def test_the_writer_never_crosses_a_link_below_an_output_folder(tmp_path):
    from analyzer.output import atomic_write_text, check_output_dir

    out = check_output_dir(tmp_path / "out")
    (tmp_path / "elsewhere").mkdir()
    (out / "sub").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(UserError, match="symbolic link"):
        atomic_write_text(out / "sub" / "x.csv", "no")
    with pytest.raises(UserError, match="symbolic link"):  # deeper: the link is crossed too
        atomic_write_text(out / "sub" / "a" / "x.csv", "no")
    assert os.listdir(tmp_path / "elsewhere") == []
    atomic_write_text(out / "new" / "deep" / "x.csv", "yes")  # missing folders are made
    assert (out / "new" / "deep" / "x.csv").read_text() == "yes"
    with pytest.raises(UserError, match="outside"):
        atomic_write_text(tmp_path / "x.csv", "no", root=out)


# ------------------------------------------------------------ 5. no special file is opened
@pytest.mark.parametrize("where", [".pushluck.lock", "parts/turn.json", ".pushluck-report.json",
                                   "turn/hold_thresholds.csv"])
def test_a_fifo_in_the_report_folder_is_never_opened(tmp_path, where):
    recipe, out = _recipe(tmp_path), tmp_path / "out"
    (out / where).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(out / where)
    code, _, err = _run(["report", str(recipe), "--out", str(out)], timeout=120)
    _one_line_refusal(code, err)
    assert (out / where).is_fifo()


MALFORMED = ["[1, 2]", '"text"', "42", "null", '{"files": 5}', "{", "[" * 100_000,
             '{"name": "one", "title": "t", "kind": "pig.one", "fingerprint": "F", '
             '"summary": "s", "params": {}, "meta": {}, "seed": SEED, '
             '"files": ["../../victim.txt"], "sha256": {"../../victim.txt": "' + "0" * 64 + '"}}']


@pytest.mark.parametrize("text", MALFORMED, ids=range(len(MALFORMED)))
def test_a_malformed_manifest_means_recompute(tmp_path, monkeypatch, text):
    from analyzer import report as rep

    def one(params, rules, seed):
        return rep.PartResult({"one.csv": b"a\n1\n"}, "one")

    monkeypatch.setattr(rep, "game_parts", lambda game: {"one": rep.PartKind("pig", "one", one)})
    rec = rep.load_recipe(_recipe(tmp_path, 'title="t"\ngame="pig"\nseed=3\n'
                                  '[[parts]]\nname="one"\nkind="pig.one"\n'))
    out = tmp_path / "out"
    (out / "parts").mkdir(parents=True)
    (out / "parts" / "one.json").write_text(text.replace("SEED", str(rep.part_seed(3, 0))))
    (tmp_path / "victim.txt").write_text("keep")
    res = rep.run_recipe(rec, out)
    assert res["computed"] == 1 and (out / "one" / "one.csv").read_bytes() == b"a\n1\n"
    assert json.loads((out / "parts" / "one.json").read_text())["files"] == ["one/one.csv"]
    assert (tmp_path / "victim.txt").read_text() == "keep"


# ------------------------------------------------------------- 6. neither root nor home
def test_the_filesystem_root_and_the_home_folder_are_refused(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    recipe = _recipe(tmp_path)
    for args in (["report", str(recipe), "--out", "/"], ["report", str(recipe), "--out", str(home)],
                 ["report", "all", "--out", str(home)],
                 ["pig", "solve", "--goal", "20", "--out", str(home)],
                 ["pig", "solve", "--goal", "20", "--out", "/"]):
        code, _, err = _run(args, HOME=str(home))
        _one_line_refusal(code, err)
        assert "root" in err or "home" in err, err
    assert os.listdir(home) == []
    code, _, err = _run(["report", str(recipe), "--out", str(home / "reports")], HOME=str(home))
    assert code == 0, err  # a folder inside the home folder is fine


# ---------------------------------------------------- 7. a recipe is checked whole, first
BAD_PARTS = {
    "bot": ('trash-pandas', 'trash-pandas.whole-games', 'bot = "robot"', "unknown bot"),
    "bots": ('trash-pandas', 'trash-pandas.whole-games', 'bots = ["heuristic", "zz"]',
             "unknown bot"),
    "players twice": ('trash-pandas', 'trash-pandas.whole-games', 'players = [2, 2]', "twice"),
    "band_by": ('trash-pandas', 'trash-pandas.game-advice', 'band_by = "colour"', "colour"),
    "policies": ('trash-pandas', 'trash-pandas.mc-check', 'policies = ["optimal", "stop-at:9"]',
                 "stop-at:9"),
    "seats": ('canasta', 'canasta.simulate', 'seats = ["greedy,greedy,greedy,greedy,greedy"]',
              "seats"),
    "difficulty": ('magdagdon', 'magdagdon.advice', 'difficulty = "easy"', "difficulty"),
    "pairs": ('pig', 'pig.matchups', 'pairs = ["hold:20,hold:25,hold:30"]', "3 policies for 2 seats"),
    "unknown kind": ('pig', 'pig.nope', '', "unknown part kind"),
    "unknown parameter": ('pig', 'pig.matchups', 'gmaes = 10', "unknown parameter"),
}
FIRST = {"trash-pandas": "trash-pandas.policy", "canasta": "canasta.meld-odds",
         "magdagdon": "magdagdon.section", "pig": "pig.hold-thresholds"}


@pytest.mark.parametrize("case", list(BAD_PARTS))
def test_a_bad_part_is_refused_in_one_line_before_any_part_runs(tmp_path, case):
    game, kind, params, words = BAD_PARTS[case]
    text = (f'title = "bad"\ngame = "{game}"\nseed = 1\n\n[[parts]]\nname = "first"\n'
            f'kind = "{FIRST[game]}"\n\n[[parts]]\nname = "bad"\nkind = "{kind}"\n'
            f'[parts.params]\n{params}\n')
    out = tmp_path / "out"
    code, _, err = _run(["report", str(_recipe(tmp_path, text)), "--out", str(out)])
    _one_line_refusal(code, err)
    assert words in err and ("parts.bad" in err or "'bad'" in err), err
    assert "computing" not in err and not (out / "parts").exists()


@pytest.mark.parametrize("rules,words", [("gaol = 10", "unknown rule 'gaol'"),
                                         ('goal = "ten"', "goal"), ("goal = -5", "goal")])
def test_bad_house_rules_are_refused_before_any_part_runs(tmp_path, rules, words):
    out = tmp_path / "out"
    code, _, err = _run(["report", str(_recipe(tmp_path, SMALL + f"\n[rules]\n{rules}\n")),
                         "--out", str(out)])
    _one_line_refusal(code, err)
    assert words in err and "rules" in err and not (out / "parts").exists()


def test_a_section_part_with_house_rules_is_refused_before_any_part_runs(tmp_path):
    text = ('title = "t"\ngame = "magdagdon"\nseed = 1\n[rules]\npeaceful_powers = 2\n'
            '[[parts]]\nname = "advice"\nkind = "magdagdon.advice"\n'
            '[[parts]]\nname = "section"\nkind = "magdagdon.section"\n')
    code, _, err = _run(["report", str(_recipe(tmp_path, text)), "--out", str(tmp_path / "o")])
    _one_line_refusal(code, err)
    assert "parts.section" in err and "[rules]" in err and "computing" not in err


@pytest.mark.parametrize("names", [("Turn", "turn"), ("parts",)])
def test_part_names_that_would_share_a_folder_are_refused(tmp_path, names):
    body = "".join(f'[[parts]]\nname = "{n}"\nkind = "pig.solve"\n' for n in names)
    with pytest.raises(UserError, match="twice|reserved"):
        from analyzer.report import load_recipe

        load_recipe(_recipe(tmp_path, f'title = "t"\ngame = "pig"\nseed = 1\n{body}'))


# -------------------------------------------------------------------- 8. the folder lock
def test_a_live_lock_holder_refuses_a_second_run_and_its_death_frees_the_folder(tmp_path):
    """A real second process holding the lock (flock) refuses the report naming its PID; once
    it is killed with SIGKILL the report takes the folder over."""
    out = tmp_path / "out"
    out.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom analyzer.output import FolderLock\n"
         f"with FolderLock({str(out)!r}, 'tune search'):\n    print('held', flush=True)\n"
         "    time.sleep(120)"], stdout=subprocess.PIPE, env=_env())
    try:
        assert holder.stdout.readline().strip() == b"held"
        code, _, err = _run(["report", str(_recipe(tmp_path)), "--out", str(out)])
        _one_line_refusal(code, err)
        assert f"pid {holder.pid}" in err and "tune search" in err
    finally:
        holder.kill()
        holder.wait()
    assert (out / ".pushluck.lock").exists()  # left behind by the kill
    code, _, err = _run(["report", str(_recipe(tmp_path)), "--out", str(out)])
    assert code == 0, err
    assert not (out / ".pushluck.lock").exists()


@pytest.mark.parametrize("kind", ["long", "loop"])
def test_an_impossible_out_path_is_one_line(tmp_path, kind):
    if kind == "long":
        out = str(tmp_path / ("x" * 5000))
    else:
        (tmp_path / "a").symlink_to(tmp_path / "b")
        (tmp_path / "b").symlink_to(tmp_path / "a")
        out = str(tmp_path / "a" / "out")
    for args in (["report", str(_recipe(tmp_path)), "--out", out],
                 ["pig", "solve", "--goal", "20", "--out", out]):
        code, _, err = _run(args)
        _one_line_refusal(code, err)


def _charts_kind(monkeypatch):
    from analyzer import report as rep

    def charts(params, rules, seed):
        n = params.get("n", 3)
        return rep.PartResult({f"chart_{i}.csv": f"{i},{n}\n".encode() for i in range(1, n + 1)},
                              "charts")

    monkeypatch.setattr(rep, "game_parts", lambda game: {
        "charts": rep.PartKind("pig", "charts", charts, params={"n": rep.Param("int", 1, 9)})})
    return rep


def test_a_recomputed_part_removes_only_its_own_unchanged_earlier_files(tmp_path, monkeypatch):
    rep = _charts_kind(monkeypatch)
    text = 'title="t"\ngame="pig"\nseed=3\n[[parts]]\nname="c"\nkind="pig.charts"\n' \
           '[parts.params]\nn = {n}\n'
    out = tmp_path / "out"
    rep.run_recipe(rep.load_recipe(_recipe(tmp_path, text.format(n=3))), out)
    assert sorted(os.listdir(out / "c")) == ["chart_1.csv", "chart_2.csv", "chart_3.csv"]
    (out / "c" / "chart_3.csv").write_text("edited by hand")
    (out / "c" / "mine.csv").write_text("the user's")
    res = rep.run_recipe(rep.load_recipe(_recipe(tmp_path, text.format(n=1))), out)
    assert res["computed"] == 1
    # chart_2 was ours and unchanged: gone; chart_3 was edited, mine.csv never ours: kept
    assert sorted(os.listdir(out / "c")) == ["chart_1.csv", "chart_3.csv", "mine.csv"]
    assert (out / "c" / "chart_1.csv").read_text() == "1,1\n"


def test_a_folder_of_the_old_layout_loses_only_the_files_its_manifests_list(tmp_path,
                                                                            monkeypatch):
    """Before each part had its folder, files lay at the top: once the part is rewritten in its
    folder, the old copies its manifest lists (same hash) go; anything else stays."""
    import hashlib

    rep = _charts_kind(monkeypatch)
    out = tmp_path / "out"
    (out / "parts").mkdir(parents=True)
    old = {"chart_1.csv": b"old 1\n", "chart_2.csv": b"old 2\n", "index.md": b"# old\n"}
    for rel, data in old.items():
        (out / rel).write_bytes(data)
    (out / "chart_2.csv").write_bytes(b"changed since\n")
    (out / "notes.csv").write_bytes(b"the user's\n")
    manifest = {"name": "c", "seed": rep.part_seed(3, 0), "files": list(old),
                "sha256": {rel: hashlib.sha256(d).hexdigest() for rel, d in old.items()}}
    (out / "parts" / "c.json").write_text(json.dumps(manifest))
    rec = rep.load_recipe(_recipe(tmp_path, 'title="t"\ngame="pig"\nseed=3\n[[parts]]\n'
                                  'name="c"\nkind="pig.charts"\n'))
    assert rep.run_recipe(rec, out)["computed"] == 1
    assert not (out / "chart_1.csv").exists()  # listed, same hash: ours
    assert (out / "chart_2.csv").read_bytes() == b"changed since\n"
    assert (out / "notes.csv").read_bytes() == b"the user's\n"
    assert (out / "index.md").read_text().startswith("# t")  # the page itself is rewritten
    assert sorted(os.listdir(out / "c")) == ["chart_1.csv", "chart_2.csv", "chart_3.csv"]


@pytest.mark.parametrize("name", ["r" * 5000, "r" * 5000 + ".toml", "../pig", "pig/../pig"])
def test_a_recipe_name_that_cannot_be_a_file_is_one_line(tmp_path, name):
    code, _, err = _run(["report", name, "--out", str(tmp_path / "o")])
    _one_line_refusal(code, err)
    assert len(err) < 400 and not (tmp_path / "o" / "parts").exists()


def test_tens_advice_and_game_advice_keep_their_own_charts_and_a_rerun_reuses_both(tmp_path):
    """The issue's pair, for real at tiny sizes: both parts make advice_front.{csv,md,png,svg};
    each keeps its own, and a rerun computes nothing and changes no byte (on the old layout the
    second part overwrote the first's files, so every rerun recomputed one and flipped the CSV)."""
    recipe = _recipe(tmp_path, 'title = "ten pair"\ngame = "ten"\nseed = 3\n'
                     '[[parts]]\nname = "advice"\nkind = "ten.advice"\n[parts.params]\n'
                     'players = 2\nbands = 1\nclauses = 1\n'
                     '[[parts]]\nname = "game-advice"\nkind = "ten.game-advice"\n'
                     '[parts.params]\nplayers = 2\nrounds = 1\nprecision = 1.0\n')
    out = tmp_path / "out"
    code, stdout, err = _run(["report", str(recipe), "--out", str(out), "--json"], timeout=900)
    assert code == 0, err
    tree = _tree(out)
    exact, raced = tree["advice/advice_front.csv"], tree["game-advice/advice_front.csv"]
    assert exact != raced and tree["advice/advice_front.svg"] != tree["game-advice/advice_front.svg"]
    for _ in range(2):
        code, stdout, err = _run(["report", str(recipe), "--out", str(out), "--json"])
        assert code == 0 and json.loads(stdout)["computed"] == 0, err
        assert _tree(out) == tree
