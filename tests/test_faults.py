"""Faults and hostile input of issue 33, one test (or a few) per bullet, each failing on the code
before the fix: hangs on a user's number, special and huge files, wrong types in positions and
rule files, non-finite tune ranges, names too long and link loops, the environment Numba reads,
a full disk and a full or closed stdout. Signals are in tests/test_interrupts.py.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from analyzer.errors import UserError
from tests import fuzz_harness as fh

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "analyzer" / "data"


def _refused(argv, timeout: float = 120.0) -> str:
    """Run ``pushluck ARGV`` in-process; it must be refused in one line (exit 2). Returns the
    line."""
    code, out, err, tb = fh.run_inprocess(argv, timeout)
    assert tb == "", tb
    assert code == 2 and out == "" and len(err.splitlines()) == 1, (code, err)
    return err


def _process(args, env=None, timeout=120, **kw) -> subprocess.CompletedProcess:
    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True,
                          text=True, timeout=timeout, env=full, cwd=str(ROOT), **kw)


# ---------------------------------------------------------------- a loop on a user's number
def test_ten_tokens_per_point_is_bounded_so_the_game_ends():
    """tokens_per_point 1e-10 made a bid search take 10^10 steps: the game never ended and
    ignored Ctrl-C. The knob's range is now 0.01..1000, refused in one line at once."""
    done = _process(["ten", "game", "--players", "3", "--seats",
                     "threshold:tokens-per-point=1e-10", "-n", "20", "--seed", "1"], timeout=90)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "'tokens-per-point' must be in 0.01..1000, got 1e-10" in done.stderr


@pytest.mark.parametrize("knob,low,high", [
    ("tokens-per-point", 0.01, 1000), ("card", 0, 1000), ("token", 0, 1000), ("bust", 0, 1000),
    ("opp", 0, 1000), ("card-bonus", 0, 1000), ("opp-weight", 0, 1000), ("min-gain", 0, 1000),
    ("draw-chance", 0, 1), ("stop-at", -60, 60), ("stop-at-2", -60, 60), ("cut-1", 0, 200)])
def test_every_ten_knob_refuses_values_just_outside_its_range(knob, low, high):
    """The bounds written here by hand: each bound is accepted, a step beyond it refused (on
    the bot that takes the knob)."""
    from analyzer.games.ten.lineup import parse_bot

    bot = {"card": "exact", "token": "exact", "bust": "exact", "opp": "exact",
           "draw-chance": "random"}.get(knob, "threshold")
    extra = ":band-by=deck:cut-1=1" if knob == "cut-2" else ""
    step = 1 if knob in ("stop-at", "stop-at-2", "cut-1") else 1e-6
    for ok in (low, high):
        got = parse_bot(f"{bot}:{knob}={ok}{extra}")
        assert getattr(got, knob.replace("-", "_")) == ok
    for bad in (low - step, high + step):
        with pytest.raises(UserError, match=f"'{knob}' must be in"):
            parse_bot(f"{bot}:{knob}={bad!r}{extra}")


def test_a_ten_bot_built_directly_is_range_checked_too():
    """A Bot not read from text (a tuned one) goes through the same ranges (bots._validate)."""
    from analyzer.games.ten.bots import Bot, _validate

    _validate("t", Bot(tokens_per_point=0.01))
    with pytest.raises(UserError, match="tokens-per-point must be 0.01..1000, got 0.001"):
        _validate("t", Bot(tokens_per_point=0.001))


def test_ten_rollouts_and_cards_after_are_bounded():
    from analyzer.games.ten.lineup import parse_bot

    assert parse_bot("rollout:1000").rollouts == 1000
    assert parse_bot("cards:after=200").after == 200
    for bad in ("rollout:1001", "rollout:0", "cards:after=0", "cards:after=201"):
        with pytest.raises(UserError):
            parse_bot(bad)


def test_every_bot_knob_the_fuzz_sets_is_a_real_knob_of_its_bot():
    """The knob fuzz (tests/fuzz_process.py KNOBS) counts a one-line refusal as a pass, so a
    template in an old spelling (``max_cost``, a knob its bot does not take) would test nothing:
    each template must accept one of the fuzz's ordinary values, or refuse them all for their
    range alone (``builder:VALUE``: canastas 4..100, none of the values)."""
    import importlib

    from tests.fuzz_process import INT_VALUES, KNOBS, ODD_VALUES

    module = {"trash-pandas": "trash_pandas"}
    for game, (_argv, bots) in KNOBS.items():
        lineup = importlib.import_module(f"analyzer.games.{module.get(game, game)}.lineup")
        read = getattr(lineup, "parse_bot", None) or lineup.parse_policy
        for bot in bots:
            accepted, refused = [], []
            for v in INT_VALUES + ODD_VALUES:
                try:
                    read(bot.replace("VALUE", v))
                    accepted.append(v)
                except UserError as exc:
                    refused.append(str(exc))
            assert accepted or all("must be" in m for m in refused), (game, bot, refused[:2])


# ---------------------------------------------------------------- special and huge files
def _with_alarm(seconds, fn):
    """Run ``fn`` in a thread; fail (instead of hanging the suite) if it takes longer."""
    box = {}

    def run():
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc
    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"still reading after {seconds} s"
    if "error" in box:
        raise box["error"]
    return box.get("value")


def test_the_safe_reader_refuses_special_files_at_once_and_caps_the_size(tmp_path):
    from analyzer.userfile import read_user_bytes

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for special in (fifo, Path("/dev/zero"), tmp_path):
        with pytest.raises(UserError, match="not a regular file"):
            _with_alarm(10, lambda s=special: read_user_bytes(s))
    edge = tmp_path / "ten.bytes"
    edge.write_bytes(b"x" * 10)
    assert read_user_bytes(edge, limit=10) == b"x" * 10  # exactly the limit: read
    edge.write_bytes(b"x" * 11)
    with pytest.raises(UserError, match="larger than 10 bytes"):
        read_user_bytes(edge, limit=10)
    link = tmp_path / "to-zero"
    link.symlink_to("/dev/zero")  # a link to a device is the device
    with pytest.raises(UserError, match="not a regular file"):
        _with_alarm(10, lambda: read_user_bytes(link))


#: a command per game that plays a rule file (FILE)
RULE_ARGV = [["pig", "simulate", "--seats", "rule:FILE,optimal", "-n", "10"],
             ["trash-pandas", "game", "--seats", "rule:FILE,heuristic,heuristic", "-n", "5"],
             ["ten", "game", "--seats", "rule:FILE", "-n", "5"],
             ["gostop", "simulate", "--seats", "rule:FILE", "-n", "10"],
             ["canasta", "simulate", "--seats", "rule:FILE", "-n", "2"],
             ["magdagdon", "simulate", "--policy", "rule:FILE", "-n", "10"]]
RULE_IDS = ["pig", "trash-pandas", "ten", "gostop", "canasta", "magdagdon"]


@pytest.mark.parametrize("game_argv", RULE_ARGV, ids=RULE_IDS)
def test_rule_files_that_are_fifos_devices_or_huge_are_refused_in_every_game(tmp_path,
                                                                            game_argv):
    """rule:/dev/zero read gigabytes then failed with MemoryError; rule:FIFO hung."""
    fifo = tmp_path / "rule.json"
    os.mkfifo(fifo)
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"kind": "threshold", "pad": "x" * (2 << 20)}))
    for path in (fifo, "/dev/zero", big):
        err = _refused([a.replace("FILE", str(path)) for a in game_argv], timeout=20)
        assert "not a regular file" in err or "larger than 1 MiB" in err


# ---------------------------------------------------------------- rule JSON of every shape
@pytest.mark.parametrize("game_argv", RULE_ARGV, ids=RULE_IDS)
def test_rule_json_with_a_list_where_a_name_belongs_or_nested_deep_is_one_line(tmp_path,
                                                                              game_argv):
    """A list or object where a name belongs was a TypeError (unhashable in a set of names);
    100,000 nested lists a RecursionError."""
    docs = {
        "feature-list": json.dumps({"kind": "threshold", "feature": ["T"], "op": "<=",
                                    "threshold": 3}),
        "band-dict": json.dumps({"kind": "banded", "feature": "T", "op": "<=",
                                 "thresholds": [2, 3], "band_feature": {"x": 1}, "cuts": [1]}),
        "clause-feature-list": json.dumps({"kind": "list", "default_act": False, "clauses": [
            {"feature": ["T"], "op": "<=", "value": 3, "act": True}]}),
        "game-list": json.dumps({"game": ["pig"], "rule": {"kind": "threshold"}}),
        "magdagdon-which-list": json.dumps({"kind": "magdagdon-power", "max_cost": 5,
                                            "min_empty": 0, "max_empty": 0,
                                            "which": ["fix"]}),
        "deep": "[" * 100_000 + "]" * 100_000,
    }
    for name, text in docs.items():
        f = tmp_path / f"{name}.json"
        f.write_text(text)
        _refused([a.replace("FILE", str(f)) for a in game_argv])


def test_rule_shape_check_names_the_field():
    from analyzer.advice.rulefile import rule_from_data

    with pytest.raises(UserError, match="'feature' must be a name"):
        rule_from_data({"kind": "threshold", "feature": ["T"], "op": "<=", "threshold": 1},
                       ["T"], "f.json")
    with pytest.raises(UserError, match="'act' must be|'clauses' must be"):
        rule_from_data({"kind": "list", "default_act": False,
                        "clauses": [{"feature": "T", "op": "<=", "value": 1, "act": "yes"}]},
                       ["T"], "f.json")
    ok = rule_from_data({"kind": "threshold", "feature": "T", "op": "<=", "threshold": 2},
                        ["T"], "f.json")
    assert ok.thresholds == (2,) and ok.feature == "T"


# ---------------------------------------------------------------- types in positions
def test_a_string_where_a_boolean_belongs_is_refused_in_a_trash_pandas_position(tmp_path):
    """bonus = "false" was read as a bonus turn (any non-empty string is true in Python)."""
    from analyzer.games.trash_pandas.position import check_position
    from analyzer.rules import load_toml

    base = (DATA / "trash_pandas_position_example.toml").read_text()
    assert "bonus = false" in base
    copies = [5, 5, 5, 5, 5, 5, 5, 5]  # large enough: only the type is under test
    for word in ('"false"', '"no"', "0", '"true"'):
        f = tmp_path / "p.toml"
        f.write_text(base.replace("bonus = false", f"bonus = {word}"))
        with pytest.raises(UserError, match="bonus must be true or false"):
            check_position(load_toml(f), copies, 5)
    err = _refused(["trash-pandas", "decide", str(f), "-n", "10"])
    assert "bonus" in err


def test_seat_keys_and_tables_of_the_wrong_kind(tmp_path):
    base = (DATA / "trash_pandas_position_example.toml").read_text()
    f = tmp_path / "sup.toml"
    f.write_text(base + '\n[seat."²"]\nhand = 1\n')
    assert "seats are numbered" in _refused(["trash-pandas", "decide", str(f), "-n", "10"])
    ten = (DATA / "ten_position_example.toml").read_text()
    ten = ten[:ten.index("[[player]]")] + "player = [1, 2, 3, 4]\n"
    g = tmp_path / "ten.toml"
    g.write_text(ten)
    assert "must be a table" in _refused(["ten", "decide", str(g), "-n", "10"])
    can = (DATA / "canasta_position_example.toml").read_text().replace(
        'frozen = false', 'frozen = "false"')
    h = tmp_path / "can.toml"
    h.write_text(can)
    assert "frozen" in _refused(["canasta", "decide", str(h), "-n", "4"])
    go = (DATA / "gostop_position_example.toml").read_text().replace(
        'hand = "07R 10R 11J1 09A"', "hand = 7")
    k = tmp_path / "go.toml"
    k.write_text(go)
    assert "hand must be a string" in _refused(["gostop", "decide", str(k)])


def test_a_seat_written_with_a_non_ascii_digit_is_one_line():
    """me = "²" passed str.isdigit() and failed in int(): a ValueError traceback in every
    game's position (found by the position fuzz after the seats-from-1 merge)."""
    from analyzer.seats import seat_number

    assert seat_number("2", "me", 3) == 1
    for bad in ("²", " ² ", "١"):
        with pytest.raises(UserError, match="must be a seat number"):
            seat_number(bad, "me", 3)


# ---------------------------------------------------------------- tune ranges and targets
@pytest.mark.parametrize("space", ["goal=1e400..1e401", "goal=1..1e400", "goal=2..1e21",
                                   "goal=0..1:1e-300", "goal=-1e308..1e308",
                                   "goal=1.." + "9" * 5000])
def test_space_ranges_with_huge_or_non_finite_numbers_are_one_line(space):
    from analyzer.tune_target import parse_space

    with pytest.raises(UserError, match="finite|more than 1000|at most 40"):
        parse_space(space)


def test_space_range_boundary_of_1000_values_and_finite_targets():
    from analyzer.tune_target import parse_space, parse_target

    assert len(parse_space("goal=1..1000")[1]) == 1000
    with pytest.raises(UserError, match="more than 1000"):
        parse_space("goal=1..1001")
    assert parse_space("goal=2..3:0.5")[1] == ["2", "2.5", "3"]
    for text in ("p_first_wins in [1e400, 1e401]", "p_first_wins in [-1e400, 0.5]",
                 "p_first_wins ~ 1e400"):
        with pytest.raises(UserError, match="finite"):
            parse_target(text)
    t = parse_target("p_first_wins in [0.25, 0.75]")
    assert (t.lo, t.hi) == (0.25, 0.75)


# ---------------------------------------------------------------- names and link loops
def test_a_5000_character_out_and_a_link_loop_are_one_line(tmp_path):
    long_out = str(tmp_path / ("x" * 5000))
    assert "too long" in _refused(["pig", "solve", "--goal", "20", "--out", long_out])
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    for out in (tmp_path / "a", tmp_path / "a" / "sub"):
        assert "loop" in _refused(["pig", "solve", "--goal", "20", "--out", str(out)])
    assert "too long" in _refused(["report", str(tmp_path / ("r" * 5000 + ".toml")),
                                   "--out", str(tmp_path / "rep")])


# ---------------------------------------------------------------- the environment
def test_numba_threads_allowed_range_by_hand():
    from analyzer.startup import environment_problem

    assert environment_problem({}, 2) is None
    assert environment_problem({"NUMBA_NUM_THREADS": "64"}, 2) is None  # max(64, 4 x 2)
    assert environment_problem({"NUMBA_NUM_THREADS": "1"}, 2) is None
    assert environment_problem({"NUMBA_NUM_THREADS": "128"}, 32) is None  # 4 x 32
    for bad in ("0", "65", "100000", "-1", "abc", "", "1.5"):
        assert "from 1 to 64" in environment_problem({"NUMBA_NUM_THREADS": bad}, 2)
    assert "from 1 to 128" in environment_problem({"NUMBA_NUM_THREADS": "129"}, 32)
    assert "THREADING_LAYER" in environment_problem({"NUMBA_THREADING_LAYER": "bogus"}, 2)


@pytest.mark.parametrize("value", ["0", "100000"])
def test_numba_num_threads_out_of_range_is_one_line_before_numba_starts(value):
    """0 was a traceback from Numba's import, 100000 a segfault (exit 139)."""
    done = _process(["pig", "simulate", "-n", "100", "--seed", "1"],
                    env={"NUMBA_NUM_THREADS": value})
    assert done.returncode == 2, done
    assert len(done.stderr.splitlines()) == 1 and "NUMBA_NUM_THREADS" in done.stderr


# ---------------------------------------------------------------- stdout and a full disk
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("where", ["full", "closed"])
def test_stdout_on_a_full_device_or_closed_is_one_line_exit_1(where, buffered):
    """Buffered (a user's shell), the failure comes when the interpreter flushes at exit;
    unbuffered (PYTHONUNBUFFERED=1), at the write."""
    if where == "full" and not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    kw = {}
    if where == "full":
        kw["stdout"] = open("/dev/full", "w")  # noqa: SIM115 - closed below
    else:
        kw["preexec_fn"] = lambda: os.close(1)
    try:
        full = {**{k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"},
                "PYTHONPATH": str(ROOT), **({} if buffered else {"PYTHONUNBUFFERED": "1"})}
        done = subprocess.run([sys.executable, "-m", "analyzer", "pig", "decide", "--me", "10",
                               "--opp", "20"], stderr=subprocess.PIPE, text=True, env=full,
                              cwd=str(ROOT), timeout=120,
                              **({"stdout": subprocess.DEVNULL} if where == "closed" else {}),
                              **kw)
    finally:
        if where == "full":
            kw["stdout"].close()
    assert done.returncode == 1, done.stderr
    assert len(done.stderr.splitlines()) == 1 and "stdout" in done.stderr, done.stderr


def _tmpfs(path: Path, size: str):
    from tests.fuzz_process import Tmpfs, can_mount

    if not can_mount():
        pytest.skip("mounting a tmpfs needs root (the disk-full test injects no fake error)")
    mount = Tmpfs(path, size)
    try:
        mount.__enter__()
    except subprocess.CalledProcessError as exc:
        pytest.skip(f"cannot mount a tmpfs here: {exc.stderr!r}")
    return mount


@pytest.mark.parametrize("argv,size", [
    (["pig", "solve", "--goal", "100", "--out", "OUT"], "8k"),
    (["trash-pandas", "game", "-n", "30", "--seed", "1", "--out", "OUT", "--chart"], "40k")],
    ids=["pig-solve", "trash-pandas-game"])
def test_a_full_disk_is_one_line_exit_1_and_leaves_no_partial_set(tmp_path, argv, size):
    """On a real tmpfs too small for the files: exit 1, one line, no temporary file and none
    of the command's files left (trash-pandas game left three of its files, unmarked)."""
    where = tmp_path / "disk"
    mount = _tmpfs(where, size)
    try:
        done = _process([str(where / "out") if a == "OUT" else a for a in argv], timeout=300)
        left = sorted(str(p.relative_to(where)) for p in where.rglob("*") if p.is_file())
    finally:
        mount.__exit__()
    from analyzer.compile_notice import MESSAGE

    assert done.returncode == 1, done.stderr
    lines = [x for x in done.stderr.splitlines() if x != MESSAGE]  # a first run compiles
    assert len(lines) == 1 and "No space left" in lines[0], done.stderr
    assert left == [], left
    if argv[0] == "trash-pandas":  # 40 kB hold its first files: they were written, then taken back
        assert "removed the 4 file(s) this command had written" in done.stderr, done.stderr


def test_the_write_helper_classifies_a_full_disk_as_an_io_failure(tmp_path, monkeypatch):
    """In-process, without a mount: a write failing with ENOSPC is an IOFailure (exit 1), one
    failing with EACCES a UserError (exit 2), and neither leaves its temporary file."""
    import errno

    from analyzer import output
    from analyzer.errors import IOFailure

    real = os.fdopen

    def failing(code):
        class W:
            def __init__(self, fd, mode):
                self.fh = real(fd, mode)

            def __enter__(self):
                return self

            def __exit__(self, *a):
                self.fh.close()

            def write(self, data):
                raise OSError(code, os.strerror(code))
        return W

    monkeypatch.setattr(output.os, "fdopen", failing(errno.ENOSPC))
    with pytest.raises(IOFailure, match="No space left"):
        output.atomic_write_bytes(tmp_path / "a.csv", b"x")
    monkeypatch.setattr(output.os, "fdopen", failing(errno.EACCES))
    with pytest.raises(UserError, match="Permission denied"):
        output.atomic_write_bytes(tmp_path / "b.csv", b"x")
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- a race cut short
class _Cx:
    def __init__(self, complexity):
        self.complexity = complexity


def _values_interrupted_at(stop_round: int, after_calls: int):
    """Per-block values (4 blocks a round, every candidate alike up to noise, so none is
    dropped) that raise KeyboardInterrupt in round ``stop_round`` once ``after_calls``
    candidates played it."""
    calls = {"n": 0}

    def values(i, rnd):
        if rnd == stop_round:
            if calls["n"] == after_calls:
                raise KeyboardInterrupt
            calls["n"] += 1
        return [((rnd * 7 + b * 3 + i * 5) % 11 - 5) / 10 for b in range(4)]
    return values


def test_a_race_interrupted_mid_round_keeps_the_finished_rounds_whole():
    """Ctrl-C in round 3 after two candidates played it: the result is that of rounds 1-2
    (each candidate 2 rounds x 4 blocks = 8 blocks), the race and the command say
    interrupted. Ctrl-C in the first round: nothing finished, the interrupt propagates."""
    from analyzer.advice.race import race_blocks
    from analyzer.errors import reset_interrupted, was_interrupted

    reset_interrupted()
    try:
        scored, cost = race_blocks([_Cx(2), _Cx(2), _Cx(3)],
                                   _values_interrupted_at(2, 2), 1, 10, precision=0.0)
        assert cost["interrupted"] is True and was_interrupted()
        assert cost["rounds"] == 2 and len(cost["alive_per_round"]) == 2
        played = [s.extra["rounds"] for s in scored if s.extra["survived"]]
        assert played and all(r == 2 for r in played), played
        assert cost["blocks_spent"] == sum(s.extra["rounds"] for s in scored) * 4
        reset_interrupted()
        with pytest.raises(KeyboardInterrupt):
            race_blocks([_Cx(2), _Cx(3)], _values_interrupted_at(0, 1), 1, 10)
        assert not was_interrupted()
    finally:
        reset_interrupted()
