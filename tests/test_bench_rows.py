"""What `pushluck bench` says about a row's scaling (speed itself is never asserted: these check
when a row gets a note and which reason it gives)."""
from analyzer.benchkit import BenchCase
from analyzer.cli.bench import scaling_note


def _case(note=None):
    return BenchCase("pig", "games", "games", lambda: None, 1000, scaling_note=note)


def _note(scaling, cores=2, blocks=100, load=1.0, got=None, steal=None, machine=None,
          of_machine=None, rounds=None, note=None):
    how = {"scaling": scaling, "blocks": blocks, "load": load, "cpus": got, "steal": steal,
           "beside_scaling": machine, "of_beside_scaling": of_machine,
           "rounds": rounds if rounds is not None else [scaling] * 3}
    return scaling_note(_case(note), cores, 2, how)


def test_no_note_at_or_above_the_target():
    assert _note(1.8, load=9.0) is None
    assert _note(1.0, cores=1, load=0.0) is None  # one core: nothing to scale


def test_the_reason_below_the_target():
    assert _note(1.2, load=0.1, note="one long block") == "one long block"
    assert "3 blocks per run" in _note(1.2, blocks=3, load=0.1)
    assert "load average 4.0 on 2 CPUs" in _note(1.2, load=4.0)
    assert "not known" in _note(1.2)


def test_cores_taken_during_the_run_itself():
    """A lagging load average below the threshold, but the all-core run got 1.1 of 2 CPUs: the
    note names that; with the CPUs it asked for, the reason stays unknown."""
    assert "got 1.1 CPUs" in _note(1.0, load=2.1, got=1.1)
    assert "not known" in _note(1.0, load=2.1, got=1.95)


def test_time_stolen_by_the_hypervisor():
    """Below the target with the CPUs asked for, but 12% of the CPU time went to other virtual
    machines: the note names the steal; 2% is not enough to blame it."""
    assert "12% of the CPU time" in _note(1.3, got=1.95, steal=0.12)
    assert "not known" in _note(1.3, got=1.95, steal=0.02)


def test_a_machine_whose_cpus_did_not_scale():
    """The calibration loop (nothing shared between threads) scaled 1.6x beside the row and the
    row 1.5x (0.94 of it): the machine is named. A row at 1.3x (0.81 of it) beside the same
    calibration, or beside a calibration that scaled 1.95x, stays unexplained."""
    assert "scaled only 1.60× around" in _note(1.5, got=1.95, steal=0.0, machine=1.6)
    assert "not known" in _note(1.3, got=1.95, steal=0.0, machine=1.6)
    assert "not known" in _note(1.5, got=1.95, steal=0.0, machine=1.95)


def test_a_row_that_scaled_like_the_machine_round_by_round():
    """Medians can pair a good round of the row with a bad round of the calibration: the row's
    median 1.30x is below 0.9 of the calibration's median 1.60x, but round by round the row got
    0.95 of the calibration's scaling beside it: the machine is named. At 0.85 it is not."""
    assert "scaled only 1.60× around" in _note(1.3, machine=1.6, of_machine=0.95)
    assert "not known" in _note(1.3, machine=1.6, of_machine=0.85)
    assert "not known" in _note(1.3, machine=1.9, of_machine=0.95)


def test_rounds_that_disagree_by_more_than_the_shortfall():
    """Rounds of 1.40x, 1.77x and 1.38x (median 1.40x, 0.40x short of 1.8x) spread by 0.39x:
    within 0.01 of the shortfall, so still unexplained; rounds of 1.56x, 1.46x and 1.89x (0.24x
    short, spread 0.43x) cannot tell a shortfall from the machine's changes of speed, and the
    note says so with the rounds. Rounds that agree (1.49x, 1.55x, 1.44x) leave it unknown."""
    assert "not known" in _note(1.40, rounds=[1.40, 1.77, 1.38])
    got = _note(1.56, rounds=[1.56, 1.46, 1.89])
    assert "1.56×, 1.46×, 1.89×" in got and "shortfall (0.24×)" in got
    assert "not known" in _note(1.49, rounds=[1.49, 1.55, 1.44])


def test_cpu_steal_reads_proc_stat():
    """Where /proc/stat exists (Linux), steal and total clock ticks since boot, steal <= total,
    neither going down between two readings."""
    import os

    import pytest

    from analyzer.cli.bench import cpu_steal

    if not os.path.exists("/proc/stat"):
        pytest.skip("no /proc/stat here")
    (s0, t0), (s1, t1) = cpu_steal(), cpu_steal()
    assert 0 <= s0 <= t0 and t0 > 0 and s1 >= s0 and t1 >= t0


def test_warm_commands_insist_on_their_exit_code_from_any_folder(tmp_path, monkeypatch):
    """`bench --warm` runs each query (and each game's extra warm commands) in a fresh process
    from the package's folder, so "analyzer/data/…" resolves wherever the user stands; a
    command that exits otherwise than declared stops the warm-up with its last stderr line."""
    import pytest

    from analyzer.benchkit import BenchWarm, run_command
    from analyzer.games import all_games

    monkeypatch.chdir(tmp_path)
    run_command(("ten", "decide", "analyzer/data/ten_position_impossible.toml"), exit_code=2)
    with pytest.raises(RuntimeError, match=r"exited 2, expected 0: .*error"):
        run_command(("pig", "turn", "--hold", "-5"))
    assert list(tmp_path.iterdir()) == []  # nothing written where the user stands
    warms = [c for g in all_games() for c in g.load("bench") if isinstance(c, BenchWarm)]
    assert {c.game for c in warms if c.compiles} == {g.key for g in all_games()}


def _row(game, case, rate, target=None):
    return {"game": game, "case": case, "unit": "x", "per_second_1_core": rate, "target": target}


def test_targets_are_rescaled_by_the_calibration_rate_beside_the_row():
    """Targets were set where the calibration loop ran 490M/s: beside a row where it ran 245M
    (half), a 500k target becomes 250k; a row at 1.2 of the needed share of the calibration
    meets it, one at 0.8 does not. Rows without a target, and rows that did not run beside the
    calibration (the calibration's own), are not judged."""
    from analyzer.benchkit import CALIBRATION_CASE
    from analyzer.cli.bench import _target_rows

    need = 500e3 / 490e6
    cal = _row(*CALIBRATION_CASE, 245e6)
    rows = [cal, dict(_row("gostop", "a", 300e3, 500e3), calibration_beside=245e6,
                      of_calibration_beside=1.2 * need),
            dict(_row("gostop", "b", 200e3, 500e3), calibration_beside=245e6,
                 of_calibration_beside=0.8 * need),
            dict(_row("pig", "no target", 1.0), calibration_beside=245e6,
                 of_calibration_beside=0.5),
            _row("ten", "not beside", 1.0, 500e3)]
    got = {t["case"]: t for t in _target_rows(rows)}
    assert set(got) == {"a", "b"}
    assert got["a"]["target_here"] == 250e3 and got["b"]["target_here"] == 250e3
    assert abs(got["a"]["of_target"] - 1.2) < 1e-12 and got["a"]["met"] is True
    assert abs(got["b"]["of_target"] - 0.8) < 1e-12 and got["b"]["met"] is False


def test_the_share_of_the_calibration_is_the_paired_figure():
    """A row's printed share of the calibration loop is the paired per-round median (the figure
    the target is judged by), not its best rate over the calibration row's best rate."""
    from analyzer.benchkit import CALIBRATION_CASE
    from analyzer.cli.bench import _relative_rates

    cal = dict(_row(*CALIBRATION_CASE, 245e6), share_of_calibration=False)
    row = dict(_row(CALIBRATION_CASE[0], "kernel", 230e6), share_of_calibration=True,
               calibration_beside=250e6, of_calibration_beside=0.785)
    other = dict(_row("pig", "games", 1.0), share_of_calibration=False,
                 of_calibration_beside=0.3)
    _relative_rates([cal, row, other])
    assert row["of_calibration"] == 0.785 and cal["of_calibration"] is None
    assert other["of_calibration"] is None and "share_of_calibration" not in row


def test_a_target_is_judged_by_the_calibration_measured_beside_its_row():
    """The machine slowed down between the calibration row (245M) and this row, whose own
    calibration runs gave 196M: the 500k target becomes 200k here. The verdict is the row's
    median per-round rate over the calibration beside it, against target / 490M: 1.1 of that
    meets it whatever the row's best rate; 0.9 of it does not, even with a best rate (300k) above
    the target here."""
    from analyzer.benchkit import CALIBRATION_CASE
    from analyzer.cli.bench import _target_rows

    need = 500e3 / 490e6
    cal = _row(*CALIBRATION_CASE, 245e6)
    met = dict(_row("gostop", "a", 220e3, 500e3), calibration_beside=196e6,
               of_calibration_beside=1.1 * need)
    short = dict(_row("gostop", "b", 300e3, 500e3), calibration_beside=196e6,
                 of_calibration_beside=0.9 * need)
    got = {t["case"]: t for t in _target_rows([cal, met, short])}
    assert got["a"]["calibration_here"] == 196e6 and abs(got["a"]["target_here"] - 200e3) < 1e-6
    assert abs(got["a"]["of_target"] - 1.1) < 1e-12 and got["a"]["met"] is True
    assert abs(got["b"]["of_target"] - 0.9) < 1e-12 and got["b"]["met"] is False


def test_time_kernel_runs_the_calibration_beside_the_case():
    """_time_kernel with ``beside`` returns the beside case's best 1-thread rate (a real run of a
    small Pig job); without it, none."""
    import dataclasses

    from analyzer.benchkit import BenchCase
    from analyzer.cli.bench import _cases, _time_kernel

    pig = next(c for c in _cases(["pig"]) if isinstance(c, BenchCase))
    small = dataclasses.replace(pig, n=1)
    _, _, how = _time_kernel(small, 1, 1.0, beside=small)
    assert how["beside"] > 0 and how["beside_scaling"] > 0 and how["of_beside"] > 0
    assert len(how["rounds"]) == len(how["beside_rounds"]) == 3 and how["of_beside_scaling"] > 0
    alone = _time_kernel(small, 1, 1.0)[2]
    assert alone["beside"] is None and alone["beside_scaling"] is None
    assert alone["of_beside"] is None and alone["of_beside_scaling"] is None


def test_a_kernel_case_brings_the_calibration_loop_along():
    """`bench --game gostop` still runs the calibration loop (first): targets are judged by it
    and `--json` records its rate beside the CPU (issue 39), so a kernel case without a target
    brings it too; a selection of queries only, or with the calibration already, is unchanged."""
    from analyzer.benchkit import CALIBRATION_CASE, BenchCase
    from analyzer.cli.bench import _cases, _with_calibration

    gostop = _cases(["gostop"])
    with_cal = _with_calibration(gostop)
    assert (with_cal[0].game, with_cal[0].name) == CALIBRATION_CASE
    assert with_cal[1:] == gostop
    untargeted = [c for c in gostop if not (isinstance(c, BenchCase) and c.target)]
    assert any(isinstance(c, BenchCase) for c in untargeted)
    assert _with_calibration(untargeted)[1:] == untargeted
    queries = [c for c in gostop if not isinstance(c, BenchCase)]
    assert _with_calibration(queries) == queries
    tp = _cases(["trash-pandas"])
    assert _with_calibration(tp) == tp


def test_the_machine_is_read_from_the_first_cpu_of_cpuinfo(tmp_path):
    """`bench --json` names the CPU (issue 39): the first CPU's block of /proc/cpuinfo, and the
    line the text output starts with."""
    from analyzer.benchkit import machine, machine_line

    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\n"
                    "model\t\t: 2\nmodel name\t: AMD EPYC 9B45\n\n"
                    "processor\t: 1\ncpu family\t: 6\nmodel\t\t: 85\n"
                    "model name\t: Intel Xeon\n")
    m = machine(str(info))
    assert (m["cpu_model"], m["cpu_family"], m["cpu_model_number"]) == ("AMD EPYC 9B45", "26", "2")
    assert m["llvm_cpu"]  # LLVM always names the host
    m["llvm_cpu"], m["cpu_count"] = "znver5", 2
    assert machine_line(m, 912.4e6) == ("machine: AMD EPYC 9B45 (family 26, model 2, LLVM "
                                        "compiles for znver5), 2 CPUs; calibration loop 912M "
                                        "turns/s on 1 core")
    assert machine(str(tmp_path / "none"))["cpu_family"] is None  # no such file: no numbers
    bare = dict(m, cpu_family=None, cpu_model_number=None, llvm_cpu=None)
    assert machine_line(bare, None) == "machine: AMD EPYC 9B45, 2 CPUs"


def test_issue_16_targets_are_on_their_rows():
    """The one-core throughput targets issue 16 states, per second, each on the row it names."""
    from analyzer.benchkit import BenchCase
    from analyzer.cli.bench import _cases

    targets = {(c.game, c.name): c.target for c in _cases(None)
               if isinstance(c, BenchCase) and c.target}
    assert targets == {
        ("trash-pandas", "turns, stop-at:6, no cards"): 0.8 * 490e6,
        ("gostop", "2 players, greedy, whole deals"): 500e3,
        ("canasta", "round engine, 2 players, greedy"): 60e3,
        ("magdagdon", "greedy whole games (SURVIVAL)"): 100e3,
        ("magdagdon", "greedy whole games (PEACEFUL)"): 40e3,
        ("pig", "games, hold:20 vs hold:20"): 10e6,
        ("ten", "one turn, total:7, fresh deck"): 60e6,
    }


def _close_how(of_target=None, scaling=1.9, machine=1.95, rounds=None):
    """A ``how`` as _time_kernel returns it: a quiet run unless the arguments say otherwise."""
    need = 10e6 / 490e6  # the Pig target's rate over the calibration's where it was set
    return {"scaling": scaling, "blocks": 100, "load": 0.5, "cpus": 1.9, "steal": 0.0,
            "beside_scaling": machine, "of_beside_scaling": scaling / machine,
            "rounds": rounds if rounds is not None else [scaling] * 3,
            "of_beside": None if of_target is None else of_target * need}


def test_a_close_verdict_either_way_is_inconclusive():
    """Within 1.25x of the target, met or not, three more rounds run; further away, or for a row
    without a target, the verdict stands."""
    import dataclasses

    from analyzer.cli.bench import inconclusive

    targeted = dataclasses.replace(_case(), target=10_000_000)
    assert inconclusive(targeted, 2, _close_how(1.10))
    assert inconclusive(targeted, 2, _close_how(0.90))
    assert inconclusive(targeted, 2, _close_how(1.24))
    assert not inconclusive(targeted, 2, _close_how(1.30))
    assert not inconclusive(targeted, 2, _close_how(0.70))
    assert not inconclusive(_case(), 2, _close_how(1.0))  # no target: only the scaling counts


def test_scaling_without_a_reason_is_inconclusive():
    """Scaling 1.3x on a quiet machine whose calibration scaled 1.95x, rounds in agreement: no
    reason, so more rounds; with a reason (the calibration did not scale either, or the case
    gives one), or at the target, no more."""
    from analyzer.cli.bench import inconclusive

    assert inconclusive(_case(), 2, _close_how(scaling=1.3, machine=1.95))
    assert not inconclusive(_case(), 2, _close_how(scaling=1.3, machine=1.3))
    assert not inconclusive(_case("one long block"), 2, _close_how(scaling=1.3))
    assert not inconclusive(_case(), 2, _close_how(scaling=1.85))
    assert not inconclusive(_case(), 1, _close_how(scaling=1.0))


def test_an_inconclusive_row_gets_three_more_rounds():
    """_time_kernel (a real run of a small Pig job) asks ``more`` once, after three rounds: yes
    makes six rounds, with the medians over all six; no leaves three."""
    import dataclasses

    from analyzer.benchkit import BenchCase
    from analyzer.cli.bench import _cases, _time_kernel

    pig = next(c for c in _cases(["pig"]) if isinstance(c, BenchCase))
    small = dataclasses.replace(pig, n=1)
    asked = []

    def more(how):
        asked.append(how["rounds_run"])
        return True

    how = _time_kernel(small, 1, 1.0, beside=small, more=more)[2]
    assert asked == [3]
    assert how["rounds_run"] == 6 and len(how["rounds"]) == len(how["beside_rounds"]) == 6
    middle = sorted(how["rounds"])[2:4]
    assert abs(how["scaling"] - (middle[0] + middle[1]) / 2) < 1e-12
    how = _time_kernel(small, 1, 1.0, beside=small, more=lambda how: False)[2]
    assert how["rounds_run"] == 3 and len(how["rounds"]) == 3


def test_compile_times_per_game_and_their_total(monkeypatch, capsys):
    """`bench --compile` (issue 39): each game's cold run (first) and warm run (second) of
    `bench --warm` in one fresh cache, and the totals; faked processes, so no compile here."""
    import json
    import subprocess

    from analyzer.cli import bench as B

    seconds = iter([(30.0, 25.0), (1.5, 1.0), (12.0, 10.5), (0.5, 0.25)])
    seen = []

    def fake(cmd, env, cwd=None):
        seen.append((cmd[cmd.index("--game") + 1], env["NUMBA_CACHE_DIR"]))
        out = json.dumps({"warmed": [{"multi_signature_kernels": {"k.f": 2}}]})
        return (*next(seconds), subprocess.CompletedProcess(cmd, 0, out, ""))

    monkeypatch.setattr(B, "_timed_subprocess", fake)
    B._compile_times(["pig", "gostop"], True, first=False)
    got = json.loads(capsys.readouterr().out)
    seconds = iter([(30.0, 25.0), (1.5, 1.0), (12.0, 10.5), (0.5, 0.25)])
    B._compile_times(["pig", "gostop"], False, first=False)
    text = capsys.readouterr().out.splitlines()
    # the machine line first (wrapped at 80 columns: one line or more, by the CPU's name), then
    # the table's header and rule
    head = next(i for i, line in enumerate(text) if line.startswith("game "))
    assert text[0].startswith("machine: ") and head >= 1
    assert text[head + 2:head + 7] == ["pig                   30.0 s  25.0 s              1.5 s",
                         "gostop                12.0 s  10.5 s              0.5 s",
                         "total                 42.0 s  35.5 s              2.0 s",
                         "pig: k.f compiled for 2 signatures",
                         "gostop: k.f compiled for 2 signatures"]
    assert [(r["game"], r["cold_seconds"], r["warm_seconds"]) for r in got["compile"]] == [
        ("pig", 30.0, 1.5), ("gostop", 12.0, 0.5)]
    assert got["total"] == {"cold_seconds": 42.0, "warm_seconds": 2.0,
                            "cold_cpu_seconds": 35.5, "warm_cpu_seconds": 1.25}
    assert got["compile"][1]["cold_cpu_seconds"] == 10.5
    assert got["machine"]["cpu_count"] and got["first_queries"] == []
    # cold and warm of a game share one cache; each game has its own
    assert seen[0] == ("pig", seen[1][1]) and seen[2][1] == seen[3][1] != seen[0][1]


def test_first_queries_that_compile_nothing_say_so():
    """Canasta's queries answer in plain Python (score, check, refused positions): from empty
    caches they run without the compile notice, each within seconds."""
    from analyzer.cli.bench import _first_queries

    rows = _first_queries("canasta")
    assert len(rows) >= 4 and all(not r["compiled"] for r in rows)
    assert all(0 < r["seconds"] < 60 for r in rows)
