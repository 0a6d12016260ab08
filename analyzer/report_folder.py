"""A report's folder on disk: where each part's files go, what a folder already holds, and the
checks that keep one folder to one report and every write inside it.

Layout of a report folder ``D`` (every name below is unique to what it holds):

- ``D/<part>/…``: a part's files, under the part's own name (part names are unique regardless of
  letter case and ``parts`` is reserved, so two parts can never claim one path);
- ``D/parts/<part>.json``: a part's manifest, written after its files (hashes, seed, parameters);
- ``D/index.md``, ``D/index.html``: the pages; while parts are missing they say the report is
  incomplete and which parts are written;
- ``D/.pushluck-report.json``: which report the folder holds (recipe, game, seed, house rules);
- ``D/.pushluck.lock``: present while a run writes (:class:`analyzer.output.FolderLock`).

One folder holds one report: a run whose recipe, game, seed or house rules differ from the
folder's *replaces* that report. Its identity file is rewritten before any part is computed, no
part of the old report is reused (a part's fingerprint holds its seed, rules and parameters),
each recomputed part removes the old files it no longer makes, and until every part of the new
report is written the index says the report is incomplete and lists only the new report's parts.
So an interrupted replacement never leaves an index describing tables of another seed: every
manifest carries its own seed, and the index names the report it describes. Editing a part's
parameters works the same way for that part alone.

Nothing here opens a special file (FIFO, device) or follows a symbolic link below ``D``; a
manifest of the wrong shape is ignored (its part is recomputed).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from analyzer.errors import UserError

#: Bumped when the layout changes: a part written under another layout is recomputed.
LAYOUT = 2
MANIFESTS = "parts"
IDENTITY = ".pushluck-report.json"
#: Names a part may not take (they are folders the report itself uses).
RESERVED = frozenset({MANIFESTS})
MANIFEST_LIMIT = 64 << 20  # a manifest larger than this is not one of ours
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def part_folder(name: str) -> str:
    """The folder (relative to the report folder) holding the files of part ``name``."""
    return name


def file_rel(name: str, rel: str) -> str:
    """``<part folder>/<rel>`` for a file a part returned, refusing absolute names, ``..``,
    empty steps and control characters (a part cannot write outside its own folder)."""
    steps = rel.split("/")
    if (not rel or rel.startswith("/") or any(s in ("", ".", "..") for s in steps)
            or any(ord(c) < 32 for c in rel)):
        raise UserError(f"part '{name}': refusing the file name {rel!r}: it would leave the "
                        f"part's folder")
    return f"{part_folder(name)}/{rel}"


def identity(recipe, seed: int) -> dict:
    """What makes a report: the recipe (by name), its game, the seed and the house rules."""
    return {"recipe": recipe.path.stem, "game": recipe.game, "seed": seed,
            "rules": dict(sorted(recipe.rules.items())), "layout": LAYOUT}


def identity_text(recipe, seed: int) -> str:
    return json.dumps(identity(recipe, seed), indent=2, sort_keys=True) + "\n"


def _read_json(out_dir: Path, rel: str, what: str):
    """The JSON at ``out_dir/rel`` (None if missing, unreadable or not JSON); a special file or
    a link there is refused with one line (never opened)."""
    from analyzer.output import read_regular

    path = out_dir / rel
    if _special(out_dir, rel):
        raise UserError(f"{path} ({what}) is not a regular file; remove it or choose another "
                        f"--out")
    data = read_regular(path, root=out_dir, limit=MANIFEST_LIMIT)
    if data is None:
        return None
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def _special(out_dir: Path, rel: str) -> bool:
    """Whether ``out_dir/rel`` exists as anything but a regular file (a link, FIFO, folder…)."""
    import os
    import stat

    try:
        st = os.lstat(out_dir / rel)
    except OSError:
        return False
    return not stat.S_ISREG(st.st_mode)


def _describe(ident: dict) -> str:
    rules = ident.get("rules") or {}
    text = f"the report of recipe '{ident.get('recipe')}' with seed {ident.get('seed')}"
    if rules:
        text += " and house rules " + ", ".join(f"{k} = {v}" for k, v in rules.items())
    return text


def check_folder(recipe, out_dir: Path, seed: int) -> str | None:
    """The report ``out_dir`` holds, described in words, when it is not ``recipe`` with ``seed``
    (this run then replaces it); None for a new folder or the same report (resume).

    The folder's report is read from its identity file; a folder written before that file
    existed is judged by its manifests' seeds. Special files at the identity or at a manifest
    are refused here (one line), before any part is computed."""
    from analyzer.report import part_seed

    want = identity(recipe, seed)
    have = _read_json(out_dir, IDENTITY, "the report's identity")
    known = isinstance(have, dict) and have.get("layout") == LAYOUT
    if known and any(have.get(k) != want[k] for k in ("recipe", "game", "seed", "rules")):
        return _describe(have)
    for i, part in enumerate(recipe.parts):
        m = _read_json(out_dir, f"{MANIFESTS}/{part['name']}.json", "a part's manifest")
        if not known and isinstance(m, dict) and isinstance(m.get("seed"), int) \
                and m["seed"] != part_seed(seed, i):
            return "parts of another seed or recipe"
    return None


def read_manifest(out_dir: Path, name: str) -> dict | None:
    """Part ``name``'s manifest if it has the shape this module writes, else None (the part is
    then recomputed): a list, a string, a number or a table with missing or mistyped fields
    all mean "no manifest"."""
    m = _read_json(out_dir, f"{MANIFESTS}/{name}.json", "a part's manifest")
    if not isinstance(m, dict):
        return None
    text = {"name", "title", "kind", "fingerprint", "summary"}
    if any(not isinstance(m.get(k), str) for k in text) or m["name"] != name:
        return None
    if not isinstance(m.get("params"), dict) or not isinstance(m.get("meta"), dict):
        return None
    if not isinstance(m.get("seed"), int) or isinstance(m.get("seed"), bool):
        return None
    files, hashes = m.get("files"), m.get("sha256")
    if not isinstance(files, list) or not isinstance(hashes, dict) or not files:
        return None
    for rel in files:
        if not isinstance(rel, str) or not isinstance(hashes.get(rel), str) \
                or not _HEX64.match(hashes[rel]):
            return None
        try:
            if file_rel(name, rel.partition("/")[2]) != rel:
                return None
        except UserError:
            return None
    return m


def files_intact(out_dir: Path, manifest: dict) -> bool:
    """Every file the manifest lists is a regular file inside the part's folder (no link on the
    way) with the recorded SHA-256: a truncated, replaced or special file makes the part run
    again."""
    from analyzer.output import sha256_regular

    return all(sha256_regular(out_dir / rel, root=out_dir) == manifest["sha256"][rel]
               for rel in manifest["files"])


def prepare(recipe, out_dir: Path) -> None:
    """:func:`refuse_in_the_way`, then open (creating it) ``parts/``."""
    import os

    from analyzer.output import open_folder

    refuse_in_the_way(recipe, out_dir)
    os.close(open_folder(out_dir, [MANIFESTS], create=True))


def refuse_in_the_way(recipe, out_dir: Path) -> None:
    """Before anything is computed, refuse with one line whatever is in the way of a write:
    at the report's own names (index pages, style sheet, identity, lock:
    :func:`analyzer.output.preflight_out`) anything but a regular file; a link or a file in
    place of a part's folder; inside a part's folder a link or special file (FIFO, socket,
    device) anywhere, and a folder unless the part's manifest lists files in it (a part writes
    its files by the names it chooses, known only once computed: a folder at one of them was
    refused only after the part ran). Nothing is written."""
    from analyzer.output import preflight_out

    preflight_out("report", out_dir, {})
    for part in recipe.parts:
        name = part["name"]
        listed = {rel.rpartition("/")[0] for rel in previous_files(recipe, out_dir, name)}
        try:
            _refuse_inside_part(out_dir, [part_folder(name)], listed)
        except FileNotFoundError:
            pass


def _refuse_inside_part(out_dir: Path, rel: list[str], listed: set[str]) -> None:
    """Refuse a link or special file anywhere below ``out_dir/rel`` (a part's folder), and a
    folder there unless ``listed`` (the folders of the part's own files) holds it or a
    folder inside it."""
    import os

    from analyzer.output import open_folder

    fd = open_folder(out_dir, rel)
    try:
        entries = list(os.scandir(fd))
    finally:
        os.close(fd)
    for entry in sorted(entries, key=lambda e: e.name):
        where = out_dir.joinpath(*rel, entry.name)
        if entry.is_dir(follow_symlinks=False):
            inside = "/".join([*rel, entry.name])
            if not any(f == inside or f.startswith(inside + "/") for f in listed):
                raise UserError(f"{where} is a folder inside a part's folder, where the part "
                                "writes its files; remove it or choose another --out")
            _refuse_inside_part(out_dir, [*rel, entry.name], listed)
        elif not entry.is_file(follow_symlinks=False):
            raise UserError(f"{where} is a link or a special file inside a part's folder; "
                            "remove it or choose another --out")


def clean_temporaries(recipe, out_dir: Path) -> list[str]:
    """Remove the temporary files a killed run of this report left: only in the folders the
    report writes, only names of :data:`analyzer.output.TEMPORARY` whose writer has ended."""
    from analyzer.output import remove_stale_temporaries

    removed = remove_stale_temporaries(out_dir) + remove_stale_temporaries(out_dir, [MANIFESTS])
    for part in recipe.parts:
        removed += remove_stale_temporaries(out_dir, [part_folder(part["name"])], True)
    return removed


def previous_files(recipe, out_dir: Path, name: str) -> dict[str, str]:
    """The files (path → SHA-256) part ``name``'s manifest on disk lists, whatever its layout:
    a manifest written before each part had its own folder lists top-level names. Names that
    would leave the folder, or that lie in the folder of a part of this recipe other than
    ``name``, in ``parts/`` or at the pages, are left out."""
    m = _read_json(out_dir, f"{MANIFESTS}/{name}.json", "a part's manifest")
    if not isinstance(m, dict) or not isinstance(m.get("files"), list) \
            or not isinstance(m.get("sha256"), dict):
        return {}
    others = {part_folder(p["name"]) for p in recipe.parts if p["name"] != name} | RESERVED
    kept = {}
    for rel in m["files"]:
        sha = m["sha256"].get(rel) if isinstance(rel, str) else None
        if not isinstance(sha, str) or not _HEX64.match(sha):
            continue
        try:
            file_rel(name, rel)  # the same name checks as for a file a part returns
        except UserError:
            continue
        if rel.split("/")[0] in others or rel in ("index.md", "index.html", IDENTITY):
            continue
        kept[rel] = sha
    return kept


def remove_replaced(out_dir: Path, old: dict[str, str], new_files: list[str]) -> None:
    """After a part is rewritten: delete the files its previous manifest listed (``old``, from
    :func:`previous_files`) that the new one does not, by exact name, and only while each still
    has the hash recorded for it (a file the user changed since is theirs and stays)."""
    import os

    from analyzer.output import open_folder, sha256_regular

    for rel, sha in old.items():
        if rel in new_files or sha256_regular(out_dir / rel, root=out_dir) != sha:
            continue
        folder, _, name = rel.rpartition("/")
        try:
            fd = open_folder(out_dir, folder.split("/") if folder else [])
        except (OSError, UserError):
            continue
        try:
            os.unlink(name, dir_fd=fd)
        except OSError:
            pass
        finally:
            os.close(fd)
