"""Batch reports: run a recipe's parts and write a folder a group can read.

A recipe (``reports/recipes/<game>.toml``) names a title, a game, a seed, optional house rules and
a list of parts; each part has a ``kind`` registered by a game module and its ``params``.
A part kind's ``compute(params, rules, seed)`` returns a :class:`PartResult`: the files it made
(tables as CSV + Markdown, charts as PNG + SVG, all as bytes), a Markdown summary with every
Monte Carlo number's interval, n and seed, and metadata. Computing returns bytes instead of
writing, so a part can run on a Dask worker and still be written here, atomically.

Part seeds: part ``i`` of a recipe with seed ``S`` uses ``SeedSequence([S, i])`` → 63-bit int,
so parts are independent and a part's numbers do not depend on which other parts ran.
Resume: after a part's files are written its manifest ``parts/<name>.json`` is written last; a
rerun with the same recipe, part parameters, rules and seed skips parts whose manifest and files
are present. Reruns are byte-identical (deterministic numbers, fixed chart metadata, no
timestamps in any file).
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
    p = Path(name_or_path)
    if p.suffix == ".toml" and p.exists():
        return p
    candidate = RECIPE_DIR / f"{name_or_path}.toml"
    if candidate.exists():
        return candidate
    available = ", ".join(sorted(x.stem for x in RECIPE_DIR.glob("*.toml"))) or "none"
    raise UserError(f"no recipe '{name_or_path}' (a .toml file, or one of: {available})")


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
    names = set()
    parts = []
    for part in spec.parts:
        if part.name in names:
            raise UserError(f"{path}: part name '{part.name}' used twice")
        names.add(part.name)
        if not part.kind.startswith(spec.game + "."):
            raise UserError(f"{path}: part '{part.name}': kind '{part.kind}' is not a "
                            f"{spec.game} part")
        kinds = game_parts(spec.game)
        name = part.kind.partition(".")[2]
        if name in kinds:  # an unknown kind is refused with the known ones when the run starts
            check_params(f"{path}: parts.{part.name}", kinds[name].params, part.params)
        parts.append({k: v for k, v in part.model_dump().items() if v is not None})
    return Recipe(path, spec.title, spec.game, spec.seed, dict(spec.rules), parts,
                  spec.description)


def part_seed(seed: int, index: int) -> int:
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0] >> np.uint64(1))


def _fingerprint(kind: str, params: dict, rules: dict, seed: int) -> str:
    text = json.dumps({"kind": kind, "params": params, "rules": rules, "seed": seed},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


# ------------------------------------------------------------------------------------ running
def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _inside(out_dir: Path, rel: str) -> Path:
    """``out_dir / rel``, refusing absolute names, ``..`` and anything that resolves outside."""
    rp = Path(rel)
    if rp.is_absolute() or ".." in rp.parts or "\x00" in rel or not rel.strip():
        raise UserError(f"refusing the file name '{rel}': it would leave {out_dir}")
    target = out_dir / rp
    if not str(target.resolve()).startswith(str(out_dir.resolve()) + "/"):
        raise UserError(f"refusing the file name '{rel}': it resolves outside {out_dir}")
    return target


def _files_intact(out_dir: Path, manifest: dict) -> bool:
    """Every file the manifest lists is there with the recorded SHA-256 (a truncated or
    replaced file makes the part run again)."""
    hashes = manifest.get("sha256") or {}
    for rel in manifest.get("files", []):
        try:
            data = _inside(out_dir, rel).read_bytes()
        except (OSError, UserError):
            return False
        if hashes.get(rel) != _sha256(data):
            return False
    return bool(hashes)


class ReportLock:
    """``out_dir/.pushluck.lock`` holding the owner's pid: a second report into the same folder
    is refused while the owner lives; a lock left by a dead process is taken over."""

    def __init__(self, out_dir: Path):
        self.path = out_dir / ".pushluck.lock"

    def __enter__(self):
        import os

        for _ in range(2):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                try:
                    pid = int(self.path.read_text().strip() or "0")
                except (OSError, ValueError):
                    pid = 0
                if pid and _alive(pid):
                    raise UserError(f"another pushluck report (pid {pid}) is writing "
                                    f"{self.path.parent}; wait for it or choose another --out")
                self.path.unlink(missing_ok=True)  # stale: its owner is gone
                continue
            with os.fdopen(fd, "w") as fh:
                fh.write(str(os.getpid()))
            return self
        raise UserError(f"cannot take the lock {self.path}")

    def __exit__(self, *exc):
        self.path.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _clean_stale_temporaries(out_dir: Path) -> None:
    """Remove half-written ``.NAME.XXXX.tmp`` files left by a killed run (under the lock)."""
    for p in out_dir.rglob(".*.tmp"):
        if p.is_file() and not p.is_symlink():
            p.unlink(missing_ok=True)
    import os
    import shutil
    import tempfile

    for d in Path(tempfile.gettempdir()).glob("pushluck-section-*"):
        try:
            pid = int(d.name.split("-")[2])
        except (IndexError, ValueError):
            continue
        if pid != os.getpid() and not _alive(pid):
            shutil.rmtree(d, ignore_errors=True)


def run_recipe(recipe: Recipe, out_dir: Path, seed: int | None = None,
               scheduler: str = "local", progress: bool | None = None) -> dict:
    """Run every part not already written, then write index.md and index.html.

    A part's files are written atomically, then its manifest (with each file's SHA-256) last; a
    part interrupted by Ctrl-C is never recorded, so a rerun computes it again. On resume a part
    is reused only if its fingerprint matches and every file has its recorded hash.
    """
    from analyzer.errors import Interrupted, was_interrupted
    from analyzer.interrupts import sigint_seen
    from analyzer.output import check_output_dir

    seed = recipe.seed if seed is None else seed
    out_dir = check_output_dir(out_dir)
    (out_dir / "parts").mkdir(exist_ok=True)
    with ReportLock(out_dir):
        _clean_stale_temporaries(out_dir)
        todo, done = [], {}
        for i, part in enumerate(recipe.parts):
            kind = part["kind"]
            part_kind(kind)  # validate early
            params = dict(part.get("params", {}))
            ps = part_seed(seed, i)
            fp = _fingerprint(kind, params, recipe.rules, ps)
            manifest = _read_manifest(out_dir, part["name"])
            if manifest and manifest.get("fingerprint") == fp and _files_intact(out_dir, manifest):
                done[part["name"]] = manifest
                continue
            todo.append((i, part, kind, params, ps, fp))
        skipped = len(done)
        if skipped:
            note(f"report: {skipped} part(s) already written with this seed, skipped (resume)")
        total = len(recipe.parts)
        try:
            for i, part, kind, params, ps, fp, result in _compute_all(todo, recipe, scheduler):
                if was_interrupted() or sigint_seen():
                    raise KeyboardInterrupt
                written, hashes = [], {}
                for rel, data in sorted(result.files.items()):
                    atomic_write_bytes(_inside(out_dir, rel), data)
                    written.append(rel)
                    hashes[rel] = _sha256(data)
                manifest = {"name": part["name"], "title": part.get("title", part["name"]),
                            "kind": kind, "params": params, "seed": ps, "fingerprint": fp,
                            "files": written, "sha256": hashes, "summary": result.summary,
                            "meta": result.meta}
                atomic_write_text(out_dir / "parts" / f"{part['name']}.json",
                                  json.dumps(manifest, indent=2, sort_keys=True,
                                             default=_json_default))
                done[part["name"]] = manifest
                note(f"report: [{len(done)}/{total}] {part['name']} written")
        except KeyboardInterrupt:
            raise Interrupted(f"{len(done)} of {total} part(s) of {recipe.title!r} are written "
                              f"in {out_dir}; the unfinished part was not recorded; rerun the "
                              f"same command to resume") from None
        ordered = [done[p["name"]] for p in recipe.parts]
        from analyzer.report_site import write_index

        write_index(recipe, seed, out_dir, ordered)
    return {"recipe": str(recipe.path), "title": recipe.title, "game": recipe.game, "seed": seed,
            "out": str(out_dir), "parts": [m["name"] for m in ordered], "skipped": skipped,
            "computed": len(todo), "files": ["index.md", "index.html"] +
            [f for m in ordered for f in m["files"]]}


def _compute_all(todo, recipe: Recipe, scheduler: str):
    """Yield (…, PartResult) for each part, locally in order or as Dask tasks."""
    if not todo:
        return
    if scheduler == "local":
        for i, part, kind, params, ps, fp in todo:
            note(f"report: computing {part['name']} ({kind}) …")
            yield i, part, kind, params, ps, fp, part_kind(kind).compute(params, recipe.rules, ps)
        return
    from analyzer.cluster import client_for

    from analyzer.runner import Progress

    with client_for(scheduler) as client:
        futures = [client.submit(compute_part, kind, params, recipe.rules, ps, pure=False)
                   for (_i, _p, kind, params, ps, _fp) in todo]
        bar = Progress(f"report {recipe.game} on Dask", len(todo), "parts")
        try:
            for done, (item, fut) in enumerate(zip(todo, futures), 1):
                if not bar.enabled:  # a log, not a terminal: one line per part
                    note(f"report: waiting for {item[1]['name']} on {scheduler} …")
                result = fut.result()
                bar.update(done)
                yield (*item, result)
        finally:
            bar.close()


def _read_manifest(out_dir: Path, name: str) -> dict | None:
    p = out_dir / "parts" / f"{name}.json"
    try:
        return json.loads(p.read_text())
    except (OSError, ValueError):
        return None


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

    def compute(params: dict, rules: dict, seed: int) -> PartResult:
        import tempfile

        if rules:
            raise UserError(f"the {game} section part takes no [rules] overrides")
        import os

        with tempfile.TemporaryDirectory(prefix=f"pushluck-section-{os.getpid()}-") as tmp:
            root = Path(tmp)
            summary = report_section(root, seed, bool(params.get("quick", False)))
            files = {str(p.relative_to(root)): p.read_bytes()
                     for p in sorted(root.rglob("*")) if p.is_file()}
        return PartResult(files, summary, {"quick": bool(params.get("quick", False))})

    return PartKind(game, name, compute, description, {"quick": Param("bool")})
