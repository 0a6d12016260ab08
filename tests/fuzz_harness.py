"""The fuzz harness: every command family run in-process with malformed values, files and paths.

One case is an argv plus what it must do: ``"invalid"`` (exit 2, exactly one stderr line, nothing
on stdout) or ``"any"`` (arguable input: either accepted, exit 0, or refused as above). Every case,
whatever its kind, must end without a traceback (an exception escaping
:func:`analyzer.cli.main.main`) and within the time limit. :func:`run_case` returns the failures
of one case as short strings; an empty list is a pass. ``tests/test_fuzz.py`` drives it (a fast
table and a few Hypothesis examples in ``make test``; thousands of cases under ``make fuzz``).
"""
from __future__ import annotations

import contextlib
import io
import os
import signal
import traceback
from pathlib import Path

HUGE = ["99999999999999999999", "18446744073709551616", "-99999999999999999999",
        "1000000000000000000", "-1000000000000000000"]
NOT_INT = ["nan", "inf", "1.5", "abc", "", "1\n2", "0x10", "1e3"]
BAD_FLOAT = ["nan", "inf", "-inf", "-1", "1e400", "abc", "", "NaN", "1\n2"]
BAD_LIST = [",,,", ",", "greedy,", ",greedy", "a" * 3000, "x\ny", "\u2603\u2603"]
#: Arguable list values: whitespace alone may mean "none" where an empty list makes sense.
ARGUABLE_LIST = ["\t", " "]
#: Values of BAD_LIST that are valid for one option: gostop decide's --shaken gives each seat's
#: shaken months, seats by ',' (docs/conventions.md 'Lists'), so ',' in the 2-player example
#: position says that neither seat shook.
VALID_LIST = {("gostop decide", "--shaken", ",")}
BAD_SET = ["nosuch=1", "=1", "noequals", "=", "deck=/nonexistent/deck.toml", "goal=nan",
           "goal=inf", "goal=99999999999999999999", "a=b=c", "goal=1\n2", "deck=/dev/null",
           "deck=/etc"]

#: Per command: a cheap valid invocation and its options by kind. ``int``/``n``/``float``/``list``
#: /``file``/``out``/``set`` name the class of bad values each option gets; ``seed`` is exempt
#: from huge values (any integer >= 0 is a valid seed).
COMMANDS: dict[str, dict] = {
    "trash-pandas odds": dict(base=[], int=["--blammo", "--nanners", "--pie"],
                              list=["--held", "--value"], file=["--rules"], set=True),
    "trash-pandas policy": dict(base=[], int=["--blammo", "--nanners", "--pie"],
                                list=["--value"], file=["--rules"], set=True, out=["--out"]),
    "trash-pandas simulate": dict(base=["-n", "200", "--seed", "1"],
                                  int=["--blammo", "--nanners", "--pie"], n=["-n"],
                                  float=["--precision", "--time-limit"],
                                  list=["--policy", "--value"], file=["--rules"], set=True),
    "trash-pandas score": dict(base=["--stash", "A:feesh=3;B:feesh=1"], list=["--stash"],
                               file=["--file", "--deck"]),
    "ten deck": dict(base=[], int=["--players"], file=["--deck", "--rules"], set=True),
    "ten odds": dict(base=[], int=["--players"], list=["--tableau", "--seen"],
                     file=["--deck", "--rules"], set=True),
    "ten best": dict(base=[], int=["--players", "--tokens-held"],
                     list=["--tableau", "--seen", "--value"], file=["--deck", "--rules"],
                     set=True),
    "ten simulate": dict(base=["-n", "200", "--seed", "1"], int=["--players", "--tokens-held"],
                         n=["-n"], float=["--precision", "--time-limit"],
                         list=["--policy", "--vs", "--tableau", "--seen", "--value"],
                         file=["--deck", "--rules"], set=True),
    "ten thresholds": dict(base=["-n", "50", "--seed", "1"], int=["--players", "--tokens-held"],
                           n=["-n"], list=["--by", "--seen", "--value"],
                           file=["--deck", "--rules"], set=True, out=["--out"]),
    "ten score": dict(base=["--collection", "r1,r2,r3"], list=["--collection"],
                      file=["--deck", "--rules"], set=True),
    "magdagdon score": dict(base=["--board", "..../..../..../...."], int=["--powers-used"],
                            list=["--board", "--difficulty"], file=["--rules"], set=True),
    "magdagdon feasible": dict(base=["--board", "..../..../..../....", "--roll", "1234"],
                               list=["--board", "--roll", "--difficulty"], file=["--rules"],
                               set=True),
    "magdagdon odds": dict(base=["--board", "..../..../..../...."], int=["--powers-left"],
                           list=["--board", "--difficulty"], file=["--rules"], set=True),
    "magdagdon best": dict(base=["--board", "..../..../..../....", "--roll", "1234", "-n", "5", "--seed", "1"],
                           int=["--powers-left", "--top"], n=["-n"],
                           list=["--board", "--roll", "--difficulty", "--policy"],
                           file=["--rules"], set=True),
    "magdagdon simulate": dict(base=["-n", "20", "--seed", "1"], n=["-n"],
                               float=["--precision", "--time-limit"],
                               list=["--difficulty", "--policy", "--vs"], file=["--rules"],
                               set=True, out=["--out"]),
    "gostop score": dict(base=["--captures", "01B 03B 08B"],
                         int=["--go-count", "--shaken", "--bombs", "--nagari-streak"],
                         list=["--captures", "--opponents", "--opponent-gos"], file=["--rules"],
                         set=True),
    "gostop simulate": dict(base=["-n", "50", "--seed", "1"], int=["--players", "--nagari-before"],
                            n=["-n"], float=["--precision", "--time-limit"],
                            list=["--seats", "--vs"], file=["--rules"], set=True, out=["--out"]),
    "gostop decide": dict(base=["POSITION", "-n", "20", "--seed", "1"],
                          int=["--players", "--me", "--stock", "--nagari"], n=["-n"],
                          float=["--precision", "--time-limit"],
                          list=["--hand", "--layout", "--stacks", "--piles", "--go-counts",
                                "--last-go", "--shaken", "--bombs", "--skip-tokens", "--policy",
                                "--seats", "--example"],
                          file=[0, "--rules"], set=True),
    "canasta score": dict(base=["SCORE"], file=[0], set=True),
    "canasta check": dict(base=["QS,QH,QD"], int=["--score"], list=[0, "--existing"],
                          file=["--rules"], set=True),
    "canasta meld-odds": dict(base=["--score", "0", "-n", "20", "--seed", "1"],
                              int=["--score", "--players", "--within-turns"], n=["-n"],
                              list=["--seats"], file=["--rules"], set=True),
    "canasta simulate": dict(base=["-n", "2", "--seed", "1"], int=["--players"], n=["-n"],
                             float=["--time-limit"], list=["--seats"], file=["--rules"],
                             set=True, out=["--out"]),
    "canasta decide": dict(base=["CPOSITION", "-n", "4", "--seed", "1"], n=["-n"],
                           float=["--precision", "--time-limit"],
                           list=["--seats", "--objective"], file=[0, "--rules"], set=True),
    "pig solve": dict(base=["--goal", "20"], int=["--goal"], file=["--rules"], set=True,
                      out=["--out"]),
    "pig decide": dict(base=["--me", "10", "--opp", "20"], int=["--me", "--opp", "--turn"],
                       file=["--rules"], set=True),
    "pig turn": dict(base=["--hold", "20"], int=["--hold"], file=["--rules"], set=True),
    "pig simulate": dict(base=["-n", "200", "--seed", "1"], n=["-n"],
                         float=["--precision", "--time-limit"], list=["--seats", "--vs"],
                         file=["--rules"], set=True),
    # whole games (issues 13, 14), rules of thumb (15) and the target search (17)
    "trash-pandas game": dict(base=["-n", "30", "--seed", "1"], int=["--players"], n=["-n"],
                              float=["--precision", "--time-limit"],
                              list=["--seats", "--vs"], file=["--rules"], set=True,
                              out=["--out"]),
    "trash-pandas decide": dict(base=["TPOSITION", "-n", "20", "--seed", "1"], n=["-n"],
                                float=["--precision", "--time-limit"],
                                list=["--seats", "--example"], file=[0, "--rules"], set=True),
    "ten game": dict(base=["-n", "5", "--seed", "1"], int=["--players"], n=["-n"],
                     float=["--precision", "--time-limit"], list=["--seats", "--vs"],
                     file=["--deck", "--rules"], set=True),
    "ten decide": dict(base=["TENPOSITION", "-n", "10", "--seed", "1"], n=["-n"],
                       float=["--precision", "--time-limit"], list=["--seats"],
                       file=[0, "--deck", "--rules"], set=True),
    "pig advice": dict(base=["--set", "goal=20", "--bands", "1", "--clauses", "1"],
                       int=["--bands", "--clauses"], float=["--max-loss"], file=["--rules"]),
    "trash-pandas advice": dict(base=["--bands", "1", "--clauses", "1"],
                                int=["--blammo", "--nanners", "--pie", "--bands", "--clauses"],
                                float=["--max-loss"], list=["--value"], file=["--rules"],
                                set=True),
    "ten advice": dict(base=["--bands", "1", "--clauses", "1"],
                       int=["--players", "--tokens-held", "--bands", "--clauses"],
                       float=["--max-loss"], list=["--tableau", "--seen", "--value"],
                       file=["--deck", "--rules"], set=True),
    "gostop advice": dict(base=["--rounds", "1", "--precision", "10", "--seed", "1"],
                          int=["--rounds"],
                          float=["--precision", "--indifference", "--max-loss"],
                          file=["--rules"], set=True),
    "canasta advice": dict(base=["--rounds", "1", "--precision", "1", "--seed", "1"],
                           int=["--rounds"],
                          float=["--precision", "--indifference", "--max-loss"],
                           file=["--rules"], set=True),
    "trash-pandas game-advice": dict(base=["--players", "2", "--rounds", "1", "--precision",
                                           "1", "--seed", "1"],
                                     int=["--players", "--rounds"],
                                     float=["--precision", "--indifference", "--max-loss"],
                                     file=["--rules"],
                                     set=True),
    "ten game-advice": dict(base=["--players", "2", "--rounds", "1", "--precision", "1",
                                  "--seed", "1"],
                            int=["--players", "--rounds"],
                            float=["--precision", "--indifference", "--max-loss"],
                            file=["--deck", "--rules"], set=True),
    "magdagdon advice": dict(base=["-d", "survival", "--rounds", "1", "--precision", "100",
                                   "--seed", "1"],
                             int=["--rounds"],
                          float=["--precision", "--indifference", "--max-loss"],
                             list=["--policy"], file=["--rules"], set=True),
    "tune --target": dict(argv=["tune"], base=["pig", "--target", "p_first_wins in [0.5, 0.6]", "--space",
                                "goal=20..30:10", "-n", "64", "--seed", "1", "--budget", "10000",
                                "--out", "OUTDIR"],
                          int=["--keep", "--budget"], n=["-n"],
                          float=["--alpha", "--time-limit"],
                          list=["--target", "--space", "--policy"], file=["--rules"], set=True,
                          out=["--out"]),
    "report": dict(base=["RECIPE", "--out", "OUTDIR"], file=[0], out=["--out"], list=["--scheduler"]),
    "tune": dict(base=["pig", "--sweep", "goal=20,30", "-n", "50", "--seed", "1",
                       "--out", "OUTDIR"],
                 int=["--top"], n=["-n"], list=[0, "--sweep", "--metric", "--policy", "--rank"],
                 file=["--rules"], set=True, out=["--out"]),
    "bench": dict(base=["--quick"], list=["--game"]),
}

RECIPE = "title = \"t\"\ngame = \"pig\"\nseed = 1\n"
DATA = Path(__file__).resolve().parent.parent / "analyzer" / "data"


def bad_files(tmp: Path) -> dict[str, Path]:
    """Unreadable or malformed files of every kind a file option can meet (all invalid)."""
    tmp.mkdir(parents=True, exist_ok=True)
    files = {
        "deep": "a = " + "[" * 4000 + "]" * 4000 + "\n",
        "deep-table": "".join(f"[{'x.' * 3000}y]\n"),
        "inline-deep": "a = " + "{b = " * 3000 + "1" + "}" * 3000 + "\n",
        "binary": bytes(range(256)) * 4,
        "utf16": "goal = 10\n".encode("utf-16"),
        "latin1": "name = \"caf\xe9\"\n".encode("latin-1"),
        "syntax": "goal = = 10\n",
        "huge-int": "goal = 99999999999999999999\n[rules]\n",
        "nan": "goal = nan\n",
        "inf": "goal = inf\n",
        "rules-plus": "[rules]\ngoal = 20\n[other]\nx = 1\n",
        "wrong-type": "goal = \"ten\"\n",
        "list-for-int": "goal = [1, 2]\n",
        "unknown-key": "nosuch_rule_key = 1\n",
        "copies-inf": "[cards.feesh]\nname = \"Feesh\"\ncopies = inf\npoints = [5, 3, 1]\n",
        "points-str": "[cards.feesh]\nname = \"Feesh\"\ncopies = 7\npoints = \"531\"\n",
        "copies-huge": "[numbers]\ncopies = [99999999999999999999, 3, 3, 3, 3, 3, 1, 1, 1]\n",
        "position-go": "[position]\nplayers = 2\nme = 1\ngo_counts = [1000000, 0]\n",
        "recipe-range": RECIPE + "[[parts]]\nname = \"x\"\nkind = \"pig.hold-thresholds\"\n"
                        "[parts.params]\nrange = [35, 10]\n",
        "recipe-range-1": RECIPE + "[[parts]]\nname = \"x\"\nkind = \"pig.hold-thresholds\"\n"
                          "[parts.params]\nrange = [10]\n",
        "recipe-games": RECIPE + "[[parts]]\nname = \"x\"\nkind = \"pig.matchups\"\n"
                        "[parts.params]\ngames = 1000.7\n",
        "recipe-unknown-param": RECIPE + "[[parts]]\nname = \"x\"\nkind = \"pig.solve\"\n"
                                "[parts.params]\nnosuch = 1\n",
        "recipe-rules-text": RECIPE.replace("seed = 1", "seed = 1\nrules = \"goal=10\"")
                             + "[[parts]]\nname = \"x\"\nkind = \"pig.solve\"\n",
        "recipe-traversal": RECIPE + "[[parts]]\nname = \"../../x\"\nkind = \"pig.solve\"\n",
        "recipe-absolute": RECIPE + "[[parts]]\nname = \"/tmp/x\"\nkind = \"pig.solve\"\n",
        "recipe-seed-bool": RECIPE.replace("seed = 1", "seed = true")
                            + "[[parts]]\nname = \"x\"\nkind = \"pig.solve\"\n",
        "recipe-chess": RECIPE.replace("pig", "chess") + "[[parts]]\nname = \"x\"\n"
                        "kind = \"chess.solve\"\n",
    }
    out = {}
    for name, text in files.items():
        p = tmp / f"{name}.toml"
        p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        out[name] = p
    empty = tmp / "empty.toml"
    empty.write_bytes(b"")
    out["empty"] = empty
    out["missing"] = tmp / "no-such-file.toml"
    out["directory"] = tmp
    out["dev-zero"] = Path("/dev/zero")
    out["proc"] = Path("/proc/self/status")
    return out


#: An empty TOML file is arguable: no house rules, or a file with every key at its default.
ARGUABLE_FILES = {"empty"}


def bad_outs(tmp: Path) -> list[str]:
    tmp.mkdir(parents=True, exist_ok=True)
    a_file = tmp / "a-file"
    a_file.write_text("x")
    return ["", "/proc/pushluck-out", str(a_file), str(a_file / "sub"), str(tmp / "a" / "b" / "c"),
            "/dev/null", "/sys/x"]


def fill(argv: list[str], tmp: Path) -> list[str]:
    """Replace the placeholders of the base argv by real example files and a fresh folder."""
    repl = {"POSITION": str(DATA / "gostop_position_example.toml"),
            "CPOSITION": str(DATA / "canasta_position_example.toml"),
            "SCORE": str(DATA / "canasta_score_example.toml"),
            "TPOSITION": str(DATA / "trash_pandas_position_example.toml"),
            "TENPOSITION": str(DATA / "ten_position_example.toml"),
            "RECIPE": str(Path(__file__).resolve().parent.parent / "reports/recipes/pig.toml"),
            "OUTDIR": str(tmp / "out")}
    return [repl.get(a, a) for a in argv]


def with_option(command: str, option, value: str, tmp: Path) -> list[str]:
    """The command's base argv with ``option`` set to ``value`` (positional 0 replaced)."""
    spec = COMMANDS[command]
    base = fill(spec["base"], tmp)
    words = spec.get("argv", command.split())
    if option == 0:
        return words + [value] + base[1:]
    if option in base and option not in ("--set", "--target", "--space"):
        i = base.index(option)
        base = base[:i] + base[i + 2:]
    return words + base + [option, value]


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def run_inprocess(argv: list[str], timeout: float = 60.0) -> tuple[int | None, str, str, str]:
    """Run ``pushluck ARGV`` in this process: (exit code, stdout, stderr, traceback or "")."""
    from analyzer.cli.main import main
    from analyzer.errors import reset_interrupted

    reset_interrupted()
    out, err = io.StringIO(), io.StringIO()
    code, tb = None, ""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(list(argv))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except _Timeout:
        tb = f"timeout after {timeout} s"
    except BaseException:  # noqa: BLE001 - the point is to catch everything
        tb = traceback.format_exc()
        if "_Timeout" in tb:  # the alarm fired inside a compiled kernel and was wrapped
            tb = f"timeout after {timeout} s (inside a kernel)"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        reset_interrupted()
    return code, out.getvalue(), err.getvalue(), tb


def check(argv, expect: str, result) -> list[str]:
    """Failures of one finished case (empty list: pass)."""
    code, out, err, tb = result
    shown = " ".join(repr(a) if (not a or any(c.isspace() for c in a)) else a
                     for a in (x[:60] for x in argv))
    if tb.startswith("timeout"):
        return [f"timeout: {shown} ({tb})"]
    if tb:
        last = tb.strip().splitlines()[-1][:160]
        return [f"traceback: {shown} -> {last}"]
    fails = []
    lines = err.splitlines()
    if code not in (0, 2):
        fails.append(f"exit {code}: {shown}: {err.strip()[:160]}")
    if expect == "invalid" and code == 0:
        fails.append(f"exit 0 on invalid: {shown}")
    if code == 2 and len(lines) != 1:
        fails.append(f"{len(lines)} stderr lines: {shown}: {err.strip()[:200]!r}")
    return fails


def run_case(argv, expect: str, timeout: float = 60.0) -> list[str]:
    return check(argv, expect, run_inprocess(argv, timeout))


def table_cases(tmp: Path) -> list[tuple[list[str], str]]:
    """Every bad value class for every option of every command (the systematic table)."""
    files = bad_files(tmp / "files")
    outs = bad_outs(tmp / "outs")
    cases = []
    for command, spec in COMMANDS.items():
        def add(option, value, expect="invalid"):
            cases.append((with_option(command, option, value, tmp), expect))

        for opt in spec.get("int", []):
            for v in HUGE + NOT_INT:
                add(opt, v)
        for opt in spec.get("n", []):
            for v in ["0", "-1", "99999999999999999999", "1000000000000000", "abc", "1.5"]:
                add(opt, v)
        for opt in spec.get("float", []):
            for v in BAD_FLOAT:
                add(opt, v)
        for opt in spec.get("list", []):
            for v in BAD_LIST:
                add(opt, v, "any" if (command, opt, v) in VALID_LIST else "invalid")
            for v in ARGUABLE_LIST:
                add(opt, v, "any")
        for opt in spec.get("file", []):
            for name, path in files.items():
                add(opt, str(path), "any" if name in ARGUABLE_FILES else "invalid")
        for opt in spec.get("out", []):
            for v in outs:
                add(opt, v)
        if spec.get("set"):
            for v in BAD_SET:
                add("--set", v)
    return cases


def special_files(tmp: Path, target: Path, names=("plain-file", "fifo", "link")):
    """A plain file, a FIFO and a symbolic link to ``target``, named ``names`` in ``tmp`` (made
    once, kept on later calls)."""
    tmp.mkdir(parents=True, exist_ok=True)
    a_file, fifo, link = (tmp / n for n in names)
    a_file.write_text("x")
    if not fifo.exists():
        os.mkfifo(fifo)
    if not link.is_symlink():
        link.symlink_to(target)
    return a_file, fifo, link


def issue_cases(tmp: Path) -> list[tuple[list[str], str]]:
    """The bullets of issue 12 ("Bad input", "Writing files safely"), each expected to exit 2."""
    files = bad_files(tmp / "files")
    a_file, fifo, link = special_files(tmp, tmp / "elsewhere")
    position = str(DATA / "gostop_position_example.toml")
    c = [
        # found by the extended table when the new commands joined it: non-finite or negative
        # floats in advice and the target search were accepted (exit 0)
        ["pig", "advice", "--set", "goal=20", "--max-loss", "nan"],
        ["trash-pandas", "advice", "--max-loss", "-1"],
        ["gostop", "advice", "--rounds", "1", "--precision", "inf"],
        ["tune", "pig", "--target", "p_first_wins in [0.5, 0.6]", "--space", "goal=20..30:10",
         "--time-limit", "-1"],
        ["canasta", "meld-odds", "--score", "18446744073709551616", "-n", "10"],
        ["gostop", "simulate", "--seats", "go:99999999999999999999", "-n", "10"],
        ["pig", "turn", "--hold", "1000000000000000000"],
        ["trash-pandas", "score", "--stash", "A:feesh=1", "--deck", str(files["copies-inf"])],
        ["trash-pandas", "score", "--stash", "A:feesh=1", "--deck", str(files["points-str"])],
        ["trash-pandas", "score", "--stash", "A:feesh=1", "--file", str(files["deep"])],
        ["pig", "turn", "--hold", "20", "--rules", str(files["deep"])],
        ["pig", "turn", "--hold", "20", "--rules", str(files["binary"])],
        ["pig", "turn", "--hold", "20", "--rules", str(files["utf16"])],
        ["pig", "turn", "--hold", "20", "--rules", str(files["rules-plus"])],
        ["gostop", "score", "--captures", "01B", "--go-count", "-1"],
        ["gostop", "score", "--captures", "01B", "--shaken", "1000000000000000000"],
        ["gostop", "score", "--captures", "01B", "--opponent-gos", "a,b"],
        ["gostop", "score", "--captures", "01B", "--nagari-streak", "-1"],
        ["gostop", "decide", str(files["position-go"]), "-n", "10"],
        ["gostop", "decide", position, "--go-counts", "1000000,0", "-n", "10"],
        ["pig", "simulate", "--precision", "nan", "-n", "10"],
        ["pig", "simulate", "--time-limit", "nan", "-n", "10"],
        ["pig", "simulate", "--time-limit", "inf", "-n", "10"],
        ["tune", "pig", "--sweep", "goal=20", "-n", "10", "--time-limit", "nan"],
        ["magdagdon", "best", "--board", "..../..../..../....", "--roll", "1234", "-n", "10",
         "--time-limit", "nan"],
        ["canasta", "meld-odds", "--score", "0", "-n", "10", "--time-limit", "inf"],
        ["trash-pandas", "odds", "--set", "deck=/nonexistent.toml"],
        ["trash-pandas", "odds", "--set", "deck=/etc"],
        ["trash-pandas", "odds", "--value", "draw=1,draw=2"],
        ["trash-pandas", "odds", "--held", ",,,"],
        ["pig", "simulate", "--seats", "greedy,", "-n", "10"],
        ["bench", "--game", "nosuch"],
        ["pig", "simulate", "--seats", "hold:20\nhold:25", "-n", "10"],
        ["tune", "pig", "--sweep", "nosuch=1,2", "-n", "10"],
        *[["report", str(files[k]), "--out", str(tmp / k)] for k in files
          if k.startswith("recipe-")],
        ["ten", "best", "--set", "bust_at=60", "--set", "currency_bust_at=60"],
        ["magdagdon", "best", "--board", "..../..../..../....", "--roll", "1234", "-n", "100000000"],
        ["pig", "solve", "--goal", "20", "--out", ""],
        ["pig", "solve", "--goal", "20", "--out", str(a_file)],
        ["pig", "solve", "--goal", "20", "--out", "/proc/pushluck"],
        ["pig", "solve", "--goal", "20", "--out", str(tmp / "x" / "y" / "z")],
        ["pig", "solve", "--goal", "20", "--out", str(fifo)],
        ["pig", "solve", "--goal", "20", "--out", str(link)],
        # this round's policies: rollout bots and rules played back from advice
        ["trash-pandas", "game", "--seats", "rollout:0,heuristic,heuristic", "-n", "5"],
        ["trash-pandas", "game", "--seats", "rollout:99999999999999999999", "-n", "5"],
        ["trash-pandas", "game", "--seats", "rollout:-1", "-n", "5"],
        ["trash-pandas", "game", "-n", "5", "--chart"],
        ["ten", "game", "--seats", "rollout:0", "-n", "5"],
        ["ten", "game", "--seats", "rollout:abc", "-n", "5"],
        *[["pig", "simulate", "--seats", f"rule:{path},optimal", "-n", "10"]
          for path in (files["binary"], files["deep"], files["utf16"], tmp / "no-such.json", tmp)],
        ["pig", "simulate", "--seats", "rule:,optimal", "-n", "10"],
        ["trash-pandas", "simulate", "--policy", f"rule:{files['binary']}", "-n", "10"],
        ["ten", "simulate", "--policy", f"rule:{tmp / 'no-such.json'}", "-n", "10"],
        ["magdagdon", "simulate", "--policy", "greedy:which=nosuch", "-n", "10"],
        ["magdagdon", "simulate", "--policy", "greedy:max-cost=nan", "-n", "10"],
    ]
    return [(argv, "invalid") for argv in c] + report_folder_cases(tmp / "report-folders")


#: A two-part recipe whose parts are quick: hostile folders are refused before either runs.
TINY_RECIPE = """title = "fuzz"
game = "pig"
seed = 5
[[parts]]
name = "turn"
kind = "pig.hold-thresholds"
[parts.params]
range = [15, 16]
[[parts]]
name = "m"
kind = "pig.matchups"
[parts.params]
games = 100
pairs = ["hold:20,hold:25"]
"""


def report_folder_cases(tmp: Path) -> list[tuple[list[str], str]]:
    """Hostile files and folders inside a report's --out (issue 33): a link or a file where a
    folder of the report goes, a FIFO at the lock, the identity, a manifest or a part's file,
    the filesystem root. Each is refused in one line before any part runs (a FIFO is never
    opened, so none of them may hang). A folder holding the report of another seed is replaced
    (any clean end)."""
    import json

    tmp.mkdir(parents=True, exist_ok=True)
    recipe = tmp / "tiny.toml"
    recipe.write_text(TINY_RECIPE)
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    cases = []

    def folder(name: str, rel: str, what: str) -> None:
        out = tmp / name
        target = out / rel
        if not os.path.lexists(target):
            target.parent.mkdir(parents=True, exist_ok=True)
            if what == "link":
                target.symlink_to(elsewhere)
            elif what == "fifo":
                os.mkfifo(target)
            else:  # a plain file
                target.write_text("x")
        cases.append(["report", str(recipe), "--out", str(out)])

    folder("parts-link", "parts", "link")
    folder("part-link", "turn", "link")
    folder("parts-file", "parts", "file")
    folder("part-file", "m", "file")
    for i, rel in enumerate([".pushluck.lock", ".pushluck-report.json", "parts/turn.json",
                             "m/matchups.csv", "turn/deeper/x"]):
        folder(f"fifo-{i}", rel, "fifo")
    cases.append(["report", str(recipe), "--out", "/"])
    cases.append(["report", str(recipe), "--out", str(tmp / ("x" * 5000))])
    out = [(argv, "invalid") for argv in cases]
    # another seed's folder is replaced whole since the tests40 merge (a changed seed must
    # recompute; the index never mixes seeds): any clean end, no traceback, no hang
    folder("other-seed", ".pushluck-report.json", "identity")
    return out + [(cases[-1], "any")]


def random_cases(tmp: Path, count: int, seed: int = 12) -> list[tuple[list[str], str]]:
    """``count`` random cases: a command, one of its options and a value drawn from that option's
    bad class or from random text (random text is arguable: it may happen to be valid)."""
    import random

    rnd = random.Random(seed)
    files = bad_files(tmp / "files")
    outs = bad_outs(tmp / "outs")
    alphabet = "abcdefghij0123456789,:;=.-_ \n\t/*#$@\u00e9\u2603"
    cases = []
    commands = list(COMMANDS)
    while len(cases) < count:
        command = rnd.choice(commands)
        spec = COMMANDS[command]
        kinds = [k for k in ("int", "n", "float", "list", "file", "out") if spec.get(k)]
        if spec.get("set"):
            kinds.append("set")
        kind = rnd.choice(kinds)
        option = "--set" if kind == "set" else rnd.choice(spec[kind])
        if kind in ("int", "n"):
            value, expect = rnd.choice([
                (str(rnd.choice([-1, 1]) * 10 ** rnd.randint(19, 40)), "invalid"),
                (rnd.choice(NOT_INT), "invalid"),
                (str(rnd.randint(-10, 2000 if kind == "n" else 10 ** 6)), "any")])
        elif kind == "float":
            value, expect = rnd.choice([(rnd.choice(BAD_FLOAT), "invalid"),
                                        (repr(rnd.uniform(0, 5)), "any")])
        elif kind == "file":
            name = rnd.choice(sorted(files))
            value, expect = str(files[name]), "any" if name in ARGUABLE_FILES else "invalid"
        elif kind == "out":
            value, expect = rnd.choice(outs), "invalid"
        else:
            text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 40)))
            if kind == "set":
                key = rnd.choice(["goal", "deck", "bust_at", "players", "x", ""])
                value, expect = f"{key}={text}", "any"
            else:
                value, expect = text, ("invalid" if "\n" in text else "any")
        cases.append((with_option(command, option, value, tmp), expect))
    return cases
