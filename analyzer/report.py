"""Batch reports: run a recipe's parts and write a folder a group can read.

A recipe (``reports/recipes/<game>.toml``) names a title, a game, a seed, optional house rules and
a list of parts; each part has a ``kind`` registered by a game module and its ``params``.
A part kind's ``compute(params, rules, seed)`` returns a :class:`PartResult`: the files it made
(tables as CSV + Markdown, charts as PNG + SVG, all as bytes), a Markdown summary with every
Monte Carlo number's interval, n and seed, and metadata. Computing returns bytes instead of
writing, so a part can run on a Dask worker and still be written here, atomically.

A recipe is validated whole before any part starts: its fields, the house rules (by the game's
own rules checks), each part's parameters (by the kind's declared :class:`Param` checks) and
each part's own settings check (``PartKind.check``, the same parsing its ``compute`` does).

Part seeds: part ``i`` of a recipe with seed ``S`` uses ``SeedSequence([S, i])`` → 63-bit int,
so parts are independent and a part's numbers do not depend on which other parts ran.
Files: part ``P`` writes only under ``P/`` and its manifest ``parts/P.json`` is written last
(:mod:`analyzer.report_folder` describes the folder and why one folder holds one report). A
rerun with the same recipe, part parameters, rules and seed skips parts whose manifest and files
are intact. Reruns are byte-identical (deterministic numbers, fixed chart metadata, no
timestamps in any file).

Pages: :mod:`analyzer.report_site` (findings first, one section per part, one style sheet);
progress: :mod:`analyzer.report_progress` (one bar over every part of the run).

Sizes for tests: with the environment variable ``PUSHLUCK_REPORT_TINY=1`` every part runs with
its kind's ``tiny`` parameters laid over the recipe's (a few hundred games instead of hundreds of
thousands), so a test renders the whole site of ``make run`` in seconds of sampling; the
parameters a part ran with are recorded in its manifest and shown on its page.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from analyzer.errors import UserError
from analyzer.output import atomic_write_bytes, atomic_write_text, note
from analyzer.report_folder import LAYOUT, RESERVED
from analyzer.report_params import Param, check_params
from analyzer.rules import load_toml

@dataclass
class PartResult:
    files: dict[str, bytes]
    summary: str
    meta: dict = field(default_factory=dict)


@dataclass
class PartKind:
    """A kind of report part a game offers (listed in its ``report.py`` as ``PARTS``)."""

    game: str
    name: str
    compute: Callable[[dict, dict, int], PartResult]
    description: str = ""
    #: the parameters it takes: name -> :class:`analyzer.report_params.Param` (none if omitted)
    params: dict | None = None
    #: ``check(params, rules)``: the part's own settings parsing (the one its ``compute``
    #: starts with), run on the whole recipe before any part starts; raises UserError
    check: Callable[[dict, dict], object] | None = None
    #: parameters laid over the recipe's under ``PUSHLUCK_REPORT_TINY=1`` (module doc)
    tiny: dict | None = None


def game_parts(game: str) -> dict[str, PartKind]:
    """The part kinds of ``game``, by name, read from the registry."""
    from analyzer.games import get_game

    return {p.name: p for p in get_game(game).load("parts")}


def part_kind(kind: str) -> PartKind:
    from analyzer.games import REGISTRY

    game, _, name = kind.partition(".")
    if game not in REGISTRY:
        raise UserError(f"unknown part kind '{kind}': no game '{game}' "
                        f"(games: {', '.join(REGISTRY)})")
    parts = game_parts(game)
    if name not in parts:
        known = ", ".join(f"{game}.{n}" for n in parts) or "none"
        raise UserError(f"unknown part kind '{kind}' (known: {known})")
    return parts[name]


def compute_part(kind: str, params: dict, rules: dict, seed: int) -> PartResult:
    """Top-level (picklable) entry point: what a Dask worker runs for one part."""
    from analyzer.cluster import one_numba_thread_per_task

    one_numba_thread_per_task()
    return part_kind(kind).compute(params, rules, seed)


# ------------------------------------------------------------------------------------ recipes
RECIPE_DIR = Path(__file__).resolve().parent.parent / "reports" / "recipes"


def recipe_path(name_or_path: str) -> Path:
    """A recipe file given by path (``*.toml``) or by name under ``reports/recipes``."""
    import re

    p = Path(name_or_path)
    try:
        if p.suffix == ".toml" and p.exists():
            return p
    except OSError as exc:  # a name too long for the system, a loop of links
        raise UserError(f"cannot read the recipe {name_or_path[:80]!r}…: {exc.strerror}") \
            from None
    if re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,63}", name_or_path):
        candidate = RECIPE_DIR / f"{name_or_path}.toml"
        if candidate.exists():
            return candidate
    available = ", ".join(sorted(x.stem for x in RECIPE_DIR.glob("*.toml"))) or "none"
    shown = name_or_path if len(name_or_path) <= 80 else name_or_path[:80] + "…"
    raise UserError(f"no recipe '{shown}' (a .toml file, or one of: {available})")


def available_recipes() -> list[Path]:
    """The recipes of the registered games, in registry order."""
    from analyzer.games import game_keys

    return [RECIPE_DIR / f"{key}.toml" for key in game_keys()
            if (RECIPE_DIR / f"{key}.toml").exists()]


@dataclass
class Recipe:
    path: Path
    title: str
    game: str
    seed: int
    rules: dict
    parts: list[dict]
    description: str = ""


PART_NAME = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"


def _recipe_schema():
    """The recipe schema (pydantic, strict: no silent conversions such as true → 1)."""
    from typing import Any, Optional

    from pydantic import BaseModel, ConfigDict, Field

    class PartSpec(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        name: str = Field(pattern=PART_NAME)
        kind: str = Field(pattern=r"^[a-z-]+\.[a-z0-9_-]+$", max_length=80)
        title: Optional[str] = Field(default=None, max_length=200)
        params: dict[str, Any] = {}

    class RecipeSpec(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        title: str = Field(min_length=1, max_length=200)
        game: str
        seed: int = Field(ge=0, lt=2**63)
        rules: dict[str, Any] = {}
        parts: list[PartSpec] = Field(min_length=1, max_length=100)
        description: str = Field(default="", max_length=5000)

    return RecipeSpec


def load_recipe(path: Path) -> Recipe:
    """Read and validate a recipe; every error is one line naming the field."""
    from pydantic import ValidationError

    from analyzer.games import REGISTRY

    data = load_toml(path)
    for key in ("title", "game", "seed", "parts"):
        if key not in data:
            raise UserError(f"{path}: missing '{key}'")
    try:
        spec = _recipe_schema().model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"]) or "recipe"
        raise UserError(f"{path}: {where}: {' '.join(err['msg'].split())}") from None
    if spec.game not in REGISTRY:
        raise UserError(f"{path}: game: unknown game '{spec.game}' (games: {', '.join(REGISTRY)})")
    rules = dict(spec.rules)
    check_rules(path, spec.game, rules)
    kinds = game_parts(spec.game)
    names = set()
    parts = []
    for part in spec.parts:
        if part.name.lower() in names:
            raise UserError(f"{path}: part name '{part.name}' used twice (letter case aside)")
        names.add(part.name.lower())
        if part.name in RESERVED:
            raise UserError(f"{path}: part name '{part.name}' is reserved (the report keeps its "
                            f"manifests there); choose another name")
        if not part.kind.startswith(spec.game + "."):
            raise UserError(f"{path}: part '{part.name}': kind '{part.kind}' is not a "
                            f"{spec.game} part")
        name = part.kind.partition(".")[2]
        if name not in kinds:
            known = ", ".join(f"{spec.game}.{n}" for n in kinds) or "none"
            raise UserError(f"{path}: part '{part.name}': unknown part kind '{part.kind}' "
                            f"(known: {known})")
        where = f"{path}: parts.{part.name}"
        check_params(where, kinds[name].params, part.params)
        if kinds[name].check is not None:
            try:
                kinds[name].check(dict(part.params), rules)
            except UserError as exc:
                raise UserError(f"{where}: {exc}") from None
        parts.append({k: v for k, v in part.model_dump().items() if v is not None})
    return Recipe(path, spec.title, spec.game, spec.seed, rules, parts, spec.description)


def check_rules(path: Path, game: str, rules: dict) -> None:
    """The recipe's house rules, checked by the game's own rules class (keys, types, limits)."""
    from analyzer.games import get_game
    from analyzer.rules import build_rules

    try:
        build_rules(get_game(game).load("rules"), None, None, rules)
    except UserError as exc:
        raise UserError(f"{path}: rules: {exc}") from None


#: Bumped when what parts compute or say changes, so that a rerun recomputes them.
RESULTS = 3
TINY_ENV = "PUSHLUCK_REPORT_TINY"


def tiny_sizes() -> bool:
    """Whether parts run at their test sizes (module doc)."""
    import os

    return os.environ.get(TINY_ENV, "") == "1"


def run_params(kind: str, params: dict) -> dict:
    """The parameters a part runs with: the recipe's, under :func:`tiny_sizes` with the kind's
    ``tiny`` ones laid over them."""
    params = dict(params)
    if tiny_sizes():
        params.update(part_kind(kind).tiny or {})
    return params


def part_seed(seed: int, index: int) -> int:
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0] >> np.uint64(1))


def _fingerprint(kind: str, params: dict, rules: dict, seed: int) -> str:
    text = json.dumps({"kind": kind, "params": params, "rules": rules, "seed": seed,
                       "layout": LAYOUT, "results": RESULTS}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


# ------------------------------------------------------------------------------------ running
def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def report_folder(out_dir: Path, root: Path | None = None) -> Path:
    """``out_dir`` checked as an output folder; with ``root`` (``report all``'s --out) it must
    be a folder directly inside ``root``, reached without a symbolic link."""
    import os

    from analyzer.output import check_output_dir, open_folder

    if root is not None:
        root = check_output_dir(root)
        os.close(open_folder(root, [Path(out_dir).name], create=True))
    return check_output_dir(out_dir)


def _write_manifest(out_dir: Path, manifest: dict) -> None:
    """``parts/<name>.json``, written last for a part (after its files), atomically."""
    from analyzer.report_folder import MANIFESTS

    atomic_write_text(out_dir / MANIFESTS / f"{manifest['name']}.json",
                      json.dumps(manifest, indent=2, sort_keys=True, default=_json_default),
                      root=out_dir)


def _clean_section_folders() -> None:
    """Remove the private ``pushluck-section-PID-…`` folders of section parts whose process
    has ended (a kill -9 skips their clean-up)."""
    import os
    import re
    import shutil
    import tempfile

    from analyzer.output import pid_alive

    for d in Path(tempfile.gettempdir()).glob("pushluck-section-*"):
        m = re.fullmatch(r"pushluck-section-([0-9]{1,10})-[A-Za-z0-9_]{1,16}", d.name)
        if m and int(m[1]) != os.getpid() and not pid_alive(int(m[1])) and not d.is_symlink() \
                and d.is_dir():
            shutil.rmtree(d, ignore_errors=True)


def run_recipe(recipe: Recipe, out_dir: Path, seed: int | None = None,
               scheduler: str = "local", progress=None,
               root: Path | None = None, site: list | None = None) -> dict:
    """Run every part not already written, then write index.md and index.html.

    ``progress`` is the run's :class:`~analyzer.report_progress.ReportProgress` (``report
    all`` shares one across recipes; by default one for this recipe's parts); ``site`` lists
    (folder, title) of every report of the run, for the pages' navigation.

    A part's files are written atomically, then its manifest (with each file's SHA-256) last; a
    part interrupted by Ctrl-C is never recorded, so a rerun computes it again. On resume a part
    is reused only if its fingerprint matches and every file has its recorded hash. A folder
    holding another report (recipe, seed or rules) gets this one instead (the old one is named
    on stderr; none of its parts is reused); while parts are missing the index says the report
    is incomplete and lists only this report's parts.
    """
    from analyzer import report_folder as rf
    from analyzer.errors import Interrupted, was_interrupted
    from analyzer.interrupts import sigint_seen
    from analyzer.output import FolderLock

    seed = recipe.seed if seed is None else seed
    out_dir = report_folder(out_dir, root)
    rf.check_folder(recipe, out_dir, seed)  # special files are refused before the lock
    with FolderLock(out_dir, "report"):
        replaced = rf.check_folder(recipe, out_dir, seed)  # now that no other run can write
        if replaced:
            note(f"report: --out {out_dir} held {replaced}; this run replaces it (nothing of "
                 "it is reused; until every part is written the index says the report is "
                 "incomplete)")
        rf.prepare(recipe, out_dir)
        rf.clean_temporaries(recipe, out_dir)
        _clean_section_folders()
        todo, done, old = [], {}, {}
        for i, part in enumerate(recipe.parts):
            kind = part["kind"]
            params = run_params(kind, part.get("params", {}))
            ps = part_seed(seed, i)
            fp = _fingerprint(kind, params, recipe.rules, ps)
            manifest = rf.read_manifest(out_dir, part["name"])
            if manifest and manifest["fingerprint"] == fp and rf.files_intact(out_dir, manifest):
                title = part.get("title", part["name"])
                if manifest["title"] != title:  # words only (not in the fingerprint): the
                    manifest = {**manifest, "title": title}  # files stay, the record follows
                    _write_manifest(out_dir, manifest)
                done[part["name"]] = manifest
                continue
            old[part["name"]] = rf.previous_files(recipe, out_dir, part["name"])
            todo.append((i, part, kind, params, ps, fp))
        skipped = len(done)
        if skipped:
            note(f"report: {skipped} part(s) already written with this seed, skipped (resume)")
        total = len(recipe.parts)
        from analyzer.report_progress import ReportProgress
        from analyzer.report_site import write_index, write_pending_index

        own_bar = progress is None
        bar = ReportProgress(total) if own_bar else progress
        label = (lambda name: name) if own_bar else (
            lambda name: f"{recipe.path.stem}: {name}")
        if own_bar:
            bar.__enter__()
        bar.advance(label(f"{skipped} reused"), skipped, line=False)
        if todo:
            atomic_write_text(out_dir / rf.IDENTITY, rf.identity_text(recipe, seed), root=out_dir)
            write_pending_index(recipe, seed, out_dir, [p for p in recipe.parts
                                                        if p["name"] in done], site)
        try:
            for i, part, kind, params, ps, fp, result in _compute_all(todo, recipe, scheduler,
                                                                      bar, label):
                if was_interrupted() or sigint_seen():
                    raise KeyboardInterrupt
                name = part["name"]
                written, hashes = [], {}
                for rel, data in sorted(result.files.items()):
                    target = rf.file_rel(name, rel)
                    atomic_write_bytes(out_dir / target, data, root=out_dir)
                    written.append(target)
                    hashes[target] = _sha256(data)
                manifest = {"name": name, "title": part.get("title", name),
                            "kind": kind, "params": params, "seed": ps, "fingerprint": fp,
                            "files": written, "sha256": hashes, "summary": result.summary,
                            "meta": result.meta}
                _write_manifest(out_dir, manifest)
                rf.remove_replaced(out_dir, old[name], written)
                done[name] = manifest
                if len(done) < total:
                    write_pending_index(recipe, seed, out_dir, [p for p in recipe.parts
                                                                if p["name"] in done], site)
                bar.advance(label(name))
        except KeyboardInterrupt:
            raise Interrupted(f"{len(done)} of {total} part(s) of {recipe.title!r} are written "
                              f"in {out_dir}; the unfinished part was not recorded; rerun the "
                              f"same command to resume") from None
        finally:
            if own_bar:
                bar.close()
        ordered = [done[p["name"]] for p in recipe.parts]
        if not todo:  # a folder from before the identity file: it now says which report it is
            atomic_write_text(out_dir / rf.IDENTITY, rf.identity_text(recipe, seed), root=out_dir)
        write_index(recipe, seed, out_dir, ordered, site)
    from analyzer.report_site import findings_of, key_chart

    chart = key_chart(ordered)
    return {"recipe": str(recipe.path), "title": recipe.title, "game": recipe.game, "seed": seed,
            "out": str(out_dir), "parts": [m["name"] for m in ordered], "skipped": skipped,
            "computed": len(todo), "findings": [f["text"] for f in findings_of(ordered)],
            "key_chart": chart, "files": ["index.md", "index.html", "style.css"] +
            [f for m in ordered for f in m["files"]]}


def _compute_all(todo, recipe: Recipe, scheduler: str, bar, label):
    """Yield (…, PartResult) for each part, locally in order or as Dask tasks."""
    if not todo:
        return
    if scheduler == "local":
        for i, part, kind, params, ps, fp in todo:
            bar.start(label(part["name"]) if bar.enabled else
                      f"{label(part['name'])} ({kind})")
            yield i, part, kind, params, ps, fp, part_kind(kind).compute(params, recipe.rules, ps)
        return
    from analyzer.cluster import client_for

    with client_for(scheduler) as client:
        futures = [client.submit(compute_part, kind, params, recipe.rules, ps, pure=False)
                   for (_i, _p, kind, params, ps, _fp) in todo]
        for item, fut in zip(todo, futures):
            bar.start(f"{label(item[1]['name'])} on {scheduler}")
            yield (*item, fut.result())


def _json_default(obj):
    if isinstance(obj, np.generic):
        return obj.item()
    raise TypeError(type(obj).__name__)


def section_part(game: str, report_section: Callable[[Path, int, bool], str],
                 name: str = "section",
                 description: str = "the game's default analysis") -> PartKind:
    """A part kind that runs ``report_section(out_dir, seed, quick) -> summary``.

    The section writes into a private temporary folder; its files come back as bytes (so the part
    can run on a Dask worker) and are written into the report folder atomically.
    """

    def check(params: dict, rules: dict) -> None:
        if rules:
            raise UserError(f"the {game}.{name} part takes no [rules] overrides (it reports "
                            "the default rules)")

    def compute(params: dict, rules: dict, seed: int) -> PartResult:
        import os
        import tempfile

        check(params, rules)

        with tempfile.TemporaryDirectory(prefix=f"pushluck-section-{os.getpid()}-") as tmp:
            root = Path(tmp)
            summary = report_section(root, seed, bool(params.get("quick", False)))
            files = {str(p.relative_to(root)): p.read_bytes()
                     for p in sorted(root.rglob("*")) if p.is_file()}
        return PartResult(files, summary, {"quick": bool(params.get("quick", False))})

    return PartKind(game, name, compute, description, {"quick": Param("bool")}, check)
