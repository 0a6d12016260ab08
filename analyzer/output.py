"""Printing results: exactly one JSON object on stdout with --json, a readable table otherwise."""
from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterable, Sequence

from analyzer.errors import INTERRUPTED
from analyzer.stats import Statistic


def _default(obj):
    if isinstance(obj, Statistic):
        return obj.to_json()
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        np = None
    if np is not None:
        if isinstance(obj, np.integer):
            return int(obj)
        if isinstance(obj, np.floating):
            return float(obj)
        if isinstance(obj, np.bool_):
            return bool(obj)
        if isinstance(obj, np.ndarray):
            return obj.tolist()
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def _clean(obj):
    """Replace non-finite floats by None so the JSON is standard."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if isinstance(obj, Statistic):
        return _clean(obj.to_json())
    return obj


def to_json(payload: dict) -> str:
    return json.dumps(_clean(payload), default=_default, indent=2, sort_keys=False)


def emit(payload: dict, as_json: bool, render: Callable[[], str]) -> None:
    """Print ``payload`` as JSON, or the text ``render()`` returns.

    After an interrupted run the payload says ``"interrupted": true`` (and the text says so on
    stderr); `pushluck` then exits with code 130.
    """
    from analyzer.errors import was_interrupted
    from analyzer.interrupts import held

    if was_interrupted():
        payload = {**payload, "interrupted": True}
    # built, written and flushed whole: a signal here (a second Ctrl-C, or the handler's
    # re-check timer after a first one) is only recorded; a 200 kB JSON was once cut at 192 kB
    with held(quiet=True):
        text = to_json(payload) if as_json else render().rstrip("\n")
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    # one last line on stderr, in --json mode too, unless a line already said it (the runner's
    # "interrupted: keeping the N finished games"): with --json the stop takes one line
    if was_interrupted() and not (as_json and INTERRUPTED["told"]):
        from analyzer.interrupts import stopped_word

        note(f"{stopped_word()}: " + ('the JSON holds what finished ("interrupted": true)'
                                      if as_json else
                                      "the figures above cover the trials that finished"))


def note(message: str) -> None:
    """A message for the reader that must never pollute stdout (seed drawn, files written),
    each line wrapped at 80 columns (analyzer.words.fit; a path is never split)."""
    from analyzer.words import fit

    lines = message.rstrip("\n").split("\n")
    sys.stderr.write("\n".join(fit(lines, keep_words=True)) + "\n")


def note_interrupted(message: str) -> None:
    """:func:`note` for the line that says a run was stopped and what it keeps; :func:`emit`
    then adds no line of its own to a --json run (the stop takes one line)."""
    INTERRUPTED["told"] = True
    note(message)


#: columns a table fits in when its last column is text that can wrap (analyzer.words.WIDTH)
TABLE_WIDTH = 80


def table(rows: Iterable[Sequence], headers: Sequence[str], aligns: str | None = None,
          width: int | None = TABLE_WIDTH) -> str:
    """A plain-text table with aligned columns (no pandas: fast to import). When it would be
    wider than ``width`` and its last column is left-aligned text, that column is wrapped at
    word boundaries into the room the other columns leave (at least 20 characters), its
    continuation lines starting under it; ``width=None`` never wraps."""
    rows = [["" if c is None else str(c) for c in r] for r in rows]
    headers = [str(h) for h in headers]
    widths = [len(h) for h in headers]
    for r in rows:
        for i, c in enumerate(r):
            widths[i] = max(widths[i], len(c))
    aligns = aligns or ("l" + "r" * (len(headers) - 1))
    last = len(headers) - 1
    lead = sum(widths[:last]) + 2 * last  # where the last column starts
    wrap = (width is not None and last > 0 and aligns[last] == "l"
            and lead + widths[last] > width)
    if wrap:
        widths[last] = max(20, width - lead, len(headers[last]))

    def fmt(cells):
        out = []
        for i, c in enumerate(cells):
            out.append(c.ljust(widths[i]) if aligns[i] == "l" else c.rjust(widths[i]))
        return "  ".join(out).rstrip()

    def rows_of(cells):
        if not wrap or len(cells) <= last or len(cells[last]) <= widths[last]:
            return [fmt(cells)]
        import textwrap

        parts = textwrap.wrap(cells[last], widths[last], break_on_hyphens=False) or [""]
        return [fmt([*cells[:last], parts[0]])] + [" " * lead + p for p in parts[1:]]

    lines = [fmt(headers), "  ".join("-" * w for w in widths)]
    for r in rows:
        lines += rows_of(r)
    return "\n".join(lines)


_UMASK = os.umask(0)
os.umask(_UMASK)


SYSTEM_TREES = ("/proc", "/sys", "/dev")

#: The folders :func:`check_output_dir` accepted in this process (absolute, links not resolved):
#: :func:`atomic_write_bytes` writes below one of them without crossing a symbolic link.
OUTPUT_ROOTS: list[str] = []


def _refused_folder(resolved: Path) -> str | None:
    """Why ``resolved`` may not take our files: a system tree, the filesystem root or the home
    folder (a report there would scatter its files among the user's); None if it may."""
    text = str(resolved)
    if any(text == t or text.startswith(t + "/") for t in SYSTEM_TREES):
        return f"refusing to write under {resolved.parts[1]}"
    if resolved == Path(resolved.anchor):
        return "refusing to write into the filesystem root; name a folder for the results"
    try:
        home = Path.home().resolve()
    except (OSError, RuntimeError, KeyError):
        home = None
    if home is not None and resolved == home:
        return "refusing to write into the home folder itself; name a folder inside it"
    return None


def check_output_dir(folder: str | Path) -> Path:
    """Make sure ``folder`` can take our files before any work starts: create it if needed
    (one level of missing parents at most), refuse a regular file, a system tree, the
    filesystem root, the home folder, an unwritable folder or an empty name, each with one line.
    The folder is remembered as an output root (:data:`OUTPUT_ROOTS`)."""
    from analyzer.errors import UserError

    text = str(folder)
    if not text.strip() or "\x00" in text:
        raise UserError("--out needs a folder name")
    p = Path(text)
    try:
        resolved = p.resolve()
        why = _refused_folder(resolved)
        if why:
            raise UserError(f"--out {text}: {why}")
        if p.exists() and not p.is_dir():
            raise UserError(f"--out {text}: exists and is not a folder")
        if not p.exists():
            if not p.parent.exists() and not p.parent.parent.exists():
                raise UserError(f"--out {text}: its parent folder {p.parent} does not exist")
            p.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".pushluck-probe.", dir=p)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise UserError(f"--out {_short(text)}: cannot write there "
                        f"({exc.strerror or exc})") from None
    except RuntimeError:  # a symbolic link loop (Python < 3.13)
        raise UserError(f"--out {_short(text)}: a loop of symbolic links") from None
    absolute = os.path.abspath(p)
    if absolute not in OUTPUT_ROOTS:
        OUTPUT_ROOTS.append(absolute)
    return p


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


# ---------------------------------------------------------------- what each command writes
def _tables(*stems: str) -> tuple[str, ...]:
    return tuple(f"{s}.{ext}" for s in stems for ext in ("csv", "md"))


def _figures(*stems: str) -> tuple[str, ...]:
    return tuple(f"{s}.{ext}" for s in stems for ext in ("png", "svg"))


#: The rule files of every `advice` and `game-advice` (analyzer/advice/cli.py, write_rules).
_RULE_FILES = ("rule_cx*.json", "rule_simplest.json")

#: Every name a command writes directly into its ``--out`` folder, as shell patterns (``*``
#: stands for a part of the name that depends on the options or the results), grouped by the
#: options that must all be given (truthy) for the names to be written; ``()`` means always.
#: The one list :func:`preflight_out` checks before a command starts its work
#: (tests/test_output_preflight.py runs every command and checks it writes nothing else).
#: ``report`` is the top level of one report's folder (its parts are checked by
#: :mod:`analyzer.report_folder`), ``report all`` the folder holding one report per recipe.
OUTPUT_NAMES: dict[str, dict[tuple[str, ...], tuple[str, ...]]] = {
    "trash-pandas policy": {(): ("policy.csv",)},
    "play trash-pandas": {(): ("{save}",)},
    "play ten": {(): ("{save}",)},
    "trash-pandas advice": {(): _RULE_FILES},
    "trash-pandas game-advice": {(): _RULE_FILES},
    "trash-pandas game": {(): _tables("tp_game_seats", "tp_game_length"),
                          ("vs",): _tables("tp_game_vs"),
                          ("chart",): _figures("tp_game_win_rates", "tp_game_length"),
                          ("vs", "chart"): _figures("tp_game_vs")},
    "trash-pandas calibrate": {(): _tables("tp_calibrate_bias", "tp_calibrate_reliability",
                                           "tp_calibrate_positions"),
                               ("chart",): _figures("tp_calibrate_reliability")},
    "trash-pandas ladder": {(): _tables("tp_ladder_*"), ("chart",): _figures("tp_ladder")},
    "ten thresholds": {(): _tables("ten_thresholds_*"), ("chart",): _figures("ten_thresholds_*")},
    "ten advice": {(): _RULE_FILES},
    "ten game-advice": {(): _RULE_FILES},
    "ten calibrate": {(): _tables("ten_calibrate_bias", "ten_calibrate_reliability",
                                  "ten_calibrate_positions"),
                      ("chart",): _figures("ten_calibrate_reliability")},
    "ten ladder": {(): _tables("ten_ladder_*"), ("chart",): _figures("ten_ladder")},
    "magdagdon simulate": {(): _tables("magdagdon_simulate_scores"),
                           ("chart",): _figures("magdagdon_simulate_scores")},
    "magdagdon advice": {(): _RULE_FILES},
    "gostop simulate": {(): _tables("gostop_seats", "gostop_events"),
                        ("chart",): _figures("gostop_payments")},
    "gostop advice": {(): _RULE_FILES},
    "canasta simulate": {("chart",): _figures("simulate")},
    "canasta advice": {(): _RULE_FILES},
    "pig solve": {(): ("policy.csv",), ("chart",): _figures("hold_boundary")},
    "pig advice": {(): _RULE_FILES},
    "tune": {(): _tables("cells"), ("sweep",): _tables("rerun"),
             ("sweep", "chart"): _figures("cells"),
             ("target",): ("search-state.npz", ".pushluck.lock"),
             ("target", "chart"): _figures("verdicts_*")},
    "report": {(): ("index.md", "index.html", "style.css", ".pushluck-report.json",
                    ".pushluck.lock")},
    "report all": {(): ("index.md", "index.html", "style.css")},
}


#: the option values a name pattern names (``{save}``: play's ``--save NAME``), and the value
#: each takes when its option is not given (analyzer/cli/play.py DEFAULT_SAVE)
NAME_OPTIONS = {"save": "position.toml"}


def _filled(pattern: str, params: dict) -> str:
    """``pattern`` with each ``{option}`` replaced by that option's value, glob characters in
    the value escaped (a name ``a*.toml`` is that name, not a pattern)."""
    import glob

    if "{" not in pattern:
        return pattern
    return pattern.format_map({k: glob.escape(str(params.get(k) or default))
                               for k, default in NAME_OPTIONS.items()})


def output_patterns(command: str, params: dict) -> list[str]:
    """The patterns of :data:`OUTPUT_NAMES` that ``command`` writes with ``params``."""
    return [_filled(pattern, params) for needs, names in OUTPUT_NAMES[command].items()
            if all(params.get(p) for p in needs) for pattern in names]


def preflight_out(command: str, folder: str | Path, params: dict) -> None:
    """Before ``command`` starts its work: refuse, with one line (:class:`UserError`), when a
    name it will write into ``folder`` (:func:`output_patterns`) is taken by anything but a
    regular file: a symbolic link (even a dangling one), a folder, a FIFO, a socket or a
    device. Nothing is opened but the folder itself, and nothing is written; the same targets
    would otherwise be refused one by one when written, after the work
    (:func:`atomic_write_bytes`)."""
    import fnmatch

    from analyzer.errors import UserError

    patterns = output_patterns(command, params)
    try:
        fd = open_folder(folder)
    except FileNotFoundError:
        return  # nothing there yet: nothing in the way
    try:
        in_the_way = sorted((entry.name, _kind_of(fd, entry.name)) for entry in os.scandir(fd)
                            if not entry.is_file(follow_symlinks=False)
                            and any(fnmatch.fnmatchcase(entry.name, p) for p in patterns))
    finally:
        os.close(fd)
    for name, kind in in_the_way[:1]:
        raise UserError(f"refusing to write {Path(folder) / name}: it is {kind}, where "
                        f"`pushluck {command}` writes a file; remove it or choose another --out")


def _kind_of(dir_fd: int, name: str) -> str:
    """What ``name`` in the folder ``dir_fd`` is, in words (never followed, never opened)."""
    try:
        mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except OSError:
        return "not a regular file"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) \
        else "a device or another special file"


# ------------------------------------------------------------------------ walking without links
def _is_link(dir_fd: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def open_folder(root: str | Path, rel: Sequence[str] = (), create: bool = False) -> int:
    """A descriptor of the folder ``root/rel[0]/rel[1]/…``, each step below ``root`` opened
    without following a symbolic link (``root`` itself is the user's choice and may be one).
    Missing steps are created when ``create``. A link, or a step that is not a folder, is a
    :class:`UserError`; a missing step without ``create`` is a FileNotFoundError. The caller
    closes the descriptor."""
    from analyzer.errors import UserError

    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NONBLOCK
    try:
        fd = os.open(root, flags)
    except FileNotFoundError:
        if not create:
            raise
        raise UserError(f"cannot open the folder {root}: it does not exist") from None
    except OSError as exc:
        raise UserError(f"cannot open the folder {root}: {exc.strerror}") from None
    try:
        for i, name in enumerate(rel):
            if name in ("", ".", "..") or "/" in name or "\x00" in name:
                raise UserError(f"refusing the folder name {name!r} under {root}")
            where = os.path.join(root, *rel[:i + 1])
            try:
                nfd = os.open(name, flags | os.O_NOFOLLOW, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    os.mkdir(name, 0o777, dir_fd=fd)
                except FileExistsError:
                    pass
                except OSError as exc:
                    raise _write_failed(exc, f"cannot create {where}") from None
                nfd = os.open(name, flags | os.O_NOFOLLOW, dir_fd=fd)
            except OSError as exc:
                if _is_link(fd, name):
                    raise UserError(f"refusing to write through the symbolic link {where}; "
                                    "remove it or choose another --out") from None
                if exc.errno == errno.ENOTDIR:
                    raise UserError(f"cannot write into {where}: it exists and is not a "
                                    "folder; remove it or choose another --out") from None
                raise UserError(f"cannot open {where}: {exc.strerror}") from None
            os.close(fd)
            fd = nfd
        return fd
    except BaseException:
        os.close(fd)
        raise


#: errno values of a write that failed for want of room or by the device, not by a bad path:
#: an I/O failure (exit code 1), where a bad path is bad input (exit code 2)
IO_ERRNOS = frozenset(e for e in (getattr(errno, n, None) for n in
                                  ("ENOSPC", "EDQUOT", "EIO", "EFBIG")) if e is not None)
#: every file written by :func:`atomic_write_bytes` in this command, in order (reset by
#: `pushluck` per command): a command that fails part-way takes back the incomplete set
WRITTEN: list[Path] = []


def _root_and_rel(path: Path, root: str | Path | None) -> tuple[str, list[str]] | None:
    """(root, folders below it) of ``path``'s folder: ``root`` if given (``path`` must lie
    inside it), else the deepest output root holding ``path``, else None."""
    from analyzer.errors import UserError

    folder = os.path.dirname(os.path.abspath(path))
    if root is not None:
        candidates = [os.path.abspath(root)]
    else:
        candidates = sorted(OUTPUT_ROOTS, key=len, reverse=True)
    for base in candidates:
        if folder == base or folder.startswith(base.rstrip("/") + "/"):
            rel = os.path.relpath(folder, base)
            return base, ([] if rel == "." else rel.split(os.sep))
    if root is not None:
        raise UserError(f"refusing to write {path}: it lies outside {root}")
    return None


# ------------------------------------------------------------------------------- atomic writes
#: The temporary name of a file being written: ``.NAME.pushluck-PID-XXXXXXXX.tmp``. Only names
#: of this form whose writer PID has ended are ever cleaned up (:func:`remove_stale_temporaries`).
TEMPORARY = re.compile(r"^\.(?P<name>.+)\.pushluck-(?P<pid>[0-9]{1,10})-[0-9a-f]{8}\.tmp$")


def _temporary_name(name: str) -> str:
    return f".{name}.pushluck-{os.getpid()}-{os.urandom(4).hex()}.tmp"


def _write_failed(exc: OSError, what: str):
    """The one-line error for a write that failed: :class:`IOFailure` for a full disk or a
    device error, :class:`UserError` for anything else (permissions, a bad path)."""
    from analyzer.errors import IOFailure, UserError

    cls = IOFailure if exc.errno in IO_ERRNOS else UserError
    return cls(f"{what}: {exc.strerror or exc}")


def atomic_write_bytes(path: str | Path, data: bytes, root: str | Path | None = None) -> Path:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename.

    Below ``root`` (by default the output root holding ``path``, see :data:`OUTPUT_ROOTS`) every
    folder is opened without following a symbolic link and missing ones are created, so nothing
    is written through a link to elsewhere. The target itself is never followed or replaced
    unless it is a regular file (a link, FIFO, device or folder is refused with one line). A
    full disk or a device error raises :class:`~analyzer.errors.IOFailure` and leaves no
    temporary file behind; every file written is recorded in :data:`WRITTEN`."""
    from analyzer.errors import UserError

    p = Path(path)
    located = _root_and_rel(p, root)
    if located is None:  # not under an output folder: make its folder as asked, guard the file
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            if exc.errno in IO_ERRNOS:
                raise _write_failed(exc, f"cannot create {p.parent}") from None
            raise UserError(f"cannot create {p.parent}: {exc.strerror}") from None
        located = (os.path.dirname(os.path.abspath(p)), [])
    dir_fd = open_folder(located[0], located[1], create=True)
    try:
        _write_into(dir_fd, p, data)
    finally:
        os.close(dir_fd)
    WRITTEN.append(p)
    return p


def _write_into(dir_fd: int, p: Path, data: bytes) -> None:
    from analyzer.errors import UserError

    name = p.name
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise _write_failed(exc, f"cannot write {p}") from None
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise UserError(f"refusing to replace the symbolic link {p}")
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise UserError(f"refusing to write {p}: it exists and is not a regular file")
    tmp = _temporary_name(name)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600,
                     dir_fd=dir_fd)
    except OSError as exc:
        raise _write_failed(exc, f"cannot write in {p.parent}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            os.fchmod(fh.fileno(), 0o666 & ~_UMASK)
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException as exc:
        try:
            os.unlink(tmp, dir_fd=dir_fd)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise _write_failed(exc, f"cannot write {p}") from None
        raise


def atomic_write_text(path: str | Path, text: str, root: str | Path | None = None) -> Path:
    return atomic_write_bytes(path, text.encode("utf-8"), root)


# ------------------------------------------------------------------------------- safe reading
def open_regular(path: str | Path, root: str | Path | None = None) -> int | None:
    """A read descriptor of ``path`` if it is a regular file reached without following a link
    (below ``root``, if given, no folder may be a link either); None if it is missing, a link,
    a FIFO, a device or a folder. A FIFO is never opened for blocking (O_NONBLOCK), so a FIFO
    planted where a file belongs cannot hang the caller."""
    from analyzer.errors import UserError

    p = Path(path)
    try:
        if root is not None:
            located = _root_and_rel(p, root)
            dir_fd = open_folder(located[0], located[1])
        else:
            dir_fd = os.open(os.path.dirname(os.path.abspath(p)),
                             os.O_RDONLY | os.O_DIRECTORY | os.O_NONBLOCK)
    except (OSError, UserError):  # a missing folder, a link on the way: nothing to read
        return None
    try:
        st = os.stat(p.name, dir_fd=dir_fd, follow_symlinks=False)
        if not stat.S_ISREG(st.st_mode):
            return None
        fd = os.open(p.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=dir_fd)
    except OSError:
        return None
    finally:
        os.close(dir_fd)
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped between the look and the open
        os.close(fd)
        return None
    return fd


def read_regular(path: str | Path, root: str | Path | None = None,
                 limit: int | None = None) -> bytes | None:
    """The bytes of ``path`` if it is a regular file (see :func:`open_regular`), else None;
    None too if it holds more than ``limit`` bytes."""
    fd = open_regular(path, root)
    if fd is None:
        return None
    with os.fdopen(fd, "rb") as fh:
        data = fh.read() if limit is None else fh.read(limit + 1)
    return None if limit is not None and len(data) > limit else data


def sha256_regular(path: str | Path, root: str | Path | None = None) -> str | None:
    """The SHA-256 of a regular file (see :func:`open_regular`), read in blocks; else None."""
    import hashlib

    fd = open_regular(path, root)
    if fd is None:
        return None
    h = hashlib.sha256()
    with os.fdopen(fd, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# ------------------------------------------------------------------- cleaning up after a kill
def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid > 0
    return True


def remove_stale_temporaries(root: str | Path, rel: Sequence[str] = (),
                             recursive: bool = False) -> list[str]:
    """Remove the temporaries a killed writer left in ``root/rel``: regular files named
    ``.NAME.pushluck-PID-XXXXXXXX.tmp`` (:data:`TEMPORARY`) whose PID is no longer running.
    Nothing else is touched (a user's ``.notes.tmp`` stays); links are never followed; with
    ``recursive`` the sub-folders are searched too. Returns the names removed."""
    from analyzer.errors import UserError

    try:
        dir_fd = open_folder(root, rel)
    except (OSError, UserError):  # missing, or a link: nothing of ours can be there
        return []
    removed = []
    try:
        for entry in os.scandir(dir_fd):
            if entry.is_dir(follow_symlinks=False):
                if recursive:
                    removed += remove_stale_temporaries(root, [*rel, entry.name], True)
                continue
            m = TEMPORARY.match(entry.name)
            if m and entry.is_file(follow_symlinks=False) and int(m["pid"]) != os.getpid() \
                    and not pid_alive(int(m["pid"])):
                try:
                    os.unlink(entry.name, dir_fd=dir_fd)
                    removed.append(os.path.join(*rel, entry.name) if rel else entry.name)
                except OSError:
                    pass
    finally:
        os.close(dir_fd)
    return removed


# -------------------------------------------------------------------------------- folder lock
class FolderLock:
    """One writer per output folder: ``with FolderLock(folder, "report"): …``.

    The lock is the file ``folder/.pushluck.lock`` holding ``PID WHAT`` of its owner, with an exclusive
    ``flock`` on it for as long as the owner runs (the kernel drops it when the process ends,
    even by kill -9, so a dead owner's lock is simply taken over). A second writer is refused
    with one line naming the owner's PID. A lock file whose PID is alive but not holding the
    flock (an older pushluck, or a reused PID) is refused too, and the line says how to clear
    it. A special file or a link at the lock's name is refused, never opened."""

    NAME = ".pushluck.lock"

    def __init__(self, folder: str | Path, what: str = "report"):
        self.folder = Path(folder)
        self.path = self.folder / self.NAME
        self.what = what
        self._fd = self._dir_fd = None

    def __enter__(self):
        import fcntl

        from analyzer.errors import UserError

        self._dir_fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NONBLOCK)
        try:
            for _ in range(10):
                fd = self._open()
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    pid, what = self._owner(fd)
                    os.close(fd)
                    raise UserError(f"another pushluck {what} (pid {pid}) is writing "
                                    f"{self.folder}; wait for it or choose another --out")
                if not self._still_ours(fd):  # the previous owner removed it meanwhile
                    os.close(fd)
                    continue
                pid, what = self._owner(fd)
                if pid and pid != os.getpid() and pid_alive(pid):
                    os.close(fd)
                    raise UserError(f"another pushluck {what} (pid {pid}) is writing "
                                    f"{self.folder}; wait for it or choose another --out (if no "
                                    f"pushluck runs, delete {self.path})")
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()} {self.what}\n".encode(), 0)
                self._fd = fd
                return self
            raise UserError(f"cannot take the lock {self.path}")
        except BaseException:
            os.close(self._dir_fd)
            raise

    def _open(self) -> int:
        from analyzer.errors import UserError

        try:
            st = os.stat(self.NAME, dir_fd=self._dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            st = None
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise UserError(f"{self.path} is not a regular file (a link, FIFO or device); "
                            "remove it before writing into this folder")
        try:
            fd = os.open(self.NAME, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK,
                         0o644, dir_fd=self._dir_fd)
        except OSError as exc:
            raise UserError(f"cannot take the lock {self.path}: {exc.strerror}") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise UserError(f"{self.path} is not a regular file; remove it before writing "
                            "into this folder")
        return fd

    def _still_ours(self, fd: int) -> bool:
        try:
            now = os.stat(self.NAME, dir_fd=self._dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            return False
        mine = os.fstat(fd)
        return (now.st_ino, now.st_dev) == (mine.st_ino, mine.st_dev)

    def _owner(self, fd: int) -> tuple[int, str]:
        """(PID, what it runs) written in the lock: ``PID WHAT`` (0 if unreadable)."""
        try:
            text = os.pread(fd, 200, 0).decode("ascii", "replace").strip()
        except OSError:
            return 0, self.what
        pid, _, what = text.partition(" ")
        return (int(pid) if pid.isdigit() and len(pid) < 11 else 0), (what.strip() or self.what)

    def __exit__(self, *exc):
        try:
            if self._still_ours(self._fd):
                os.unlink(self.NAME, dir_fd=self._dir_fd)
        except OSError:
            pass
        finally:
            os.close(self._fd)
            os.close(self._dir_fd)
            self._fd = self._dir_fd = None
