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
import html
import json
import platform
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from analyzer.errors import UserError
from analyzer.output import atomic_write_bytes, atomic_write_text, note
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


HTML_MAX_ROWS = 60


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


def load_recipe(path: Path) -> Recipe:
    data = load_toml(path)
    unknown = set(data) - {"title", "game", "seed", "rules", "parts", "description"}
    if unknown:
        raise UserError(f"{path}: unknown recipe keys: {', '.join(sorted(unknown))}")
    for key in ("title", "game", "seed", "parts"):
        if key not in data:
            raise UserError(f"{path}: missing '{key}'")
    if not isinstance(data["seed"], int) or data["seed"] < 0:
        raise UserError(f"{path}: 'seed' must be a non-negative integer")
    parts = data["parts"]
    if not isinstance(parts, list) or not parts:
        raise UserError(f"{path}: 'parts' must be a non-empty array of tables")
    names = set()
    for i, part in enumerate(parts):
        if not isinstance(part, dict) or "name" not in part or "kind" not in part:
            raise UserError(f"{path}: part {i + 1} needs 'name' and 'kind'")
        if part["name"] in names:
            raise UserError(f"{path}: part name '{part['name']}' used twice")
        names.add(part["name"])
        extra = set(part) - {"name", "kind", "params", "title"}
        if extra:
            raise UserError(f"{path}: part '{part['name']}' has unknown keys: "
                            f"{', '.join(sorted(extra))}")
    return Recipe(path, str(data["title"]), str(data["game"]), int(data["seed"]),
                  dict(data.get("rules", {})), parts, str(data.get("description", "")))


def part_seed(seed: int, index: int) -> int:
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0] >> np.uint64(1))


def _fingerprint(kind: str, params: dict, rules: dict, seed: int) -> str:
    text = json.dumps({"kind": kind, "params": params, "rules": rules, "seed": seed},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


# ------------------------------------------------------------------------------------ running
def run_recipe(recipe: Recipe, out_dir: Path, seed: int | None = None,
               scheduler: str = "local", progress: bool | None = None) -> dict:
    """Run every part not already written, then write index.md and index.html."""
    seed = recipe.seed if seed is None else seed
    out_dir = Path(out_dir)
    (out_dir / "parts").mkdir(parents=True, exist_ok=True)
    todo, done = [], {}
    for i, part in enumerate(recipe.parts):
        kind = part["kind"]
        part_kind(kind)  # validate early
        params = dict(part.get("params", {}))
        ps = part_seed(seed, i)
        fp = _fingerprint(kind, params, recipe.rules, ps)
        manifest = _read_manifest(out_dir, part["name"])
        if manifest and manifest.get("fingerprint") == fp and all(
                (out_dir / f).exists() for f in manifest["files"]):
            done[part["name"]] = manifest
            continue
        todo.append((i, part, kind, params, ps, fp))
    skipped = len(done)
    if skipped:
        note(f"report: {skipped} part(s) already written with this seed, skipped (resume)")
    total = len(recipe.parts)
    for i, part, kind, params, ps, fp, result in _compute_all(todo, recipe, scheduler):
        written = []
        for rel, data in sorted(result.files.items()):
            atomic_write_bytes(out_dir / rel, data)
            written.append(rel)
        manifest = {"name": part["name"], "title": part.get("title", part["name"]),
                    "kind": kind, "params": params, "seed": ps, "fingerprint": fp,
                    "files": written, "summary": result.summary, "meta": result.meta}
        atomic_write_text(out_dir / "parts" / f"{part['name']}.json",
                          json.dumps(manifest, indent=2, sort_keys=True, default=_json_default))
        done[part["name"]] = manifest
        note(f"report: [{len(done)}/{total}] {part['name']} written")
    ordered = [done[p["name"]] for p in recipe.parts]
    _write_index(recipe, seed, out_dir, ordered)
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

    with client_for(scheduler) as client:
        futures = [client.submit(compute_part, kind, params, recipe.rules, ps, pure=False)
                   for (_i, _p, kind, params, ps, _fp) in todo]
        for item, fut in zip(todo, futures):
            note(f"report: waiting for {item[1]['name']} on {scheduler} …")
            yield (*item, fut.result())


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


def package_versions() -> dict:
    from importlib import metadata

    versions = {"python": platform.python_version()}
    for pkg in ("pushluck", "numpy", "numba", "pandas", "matplotlib", "typer"):
        try:
            versions[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            versions[pkg] = "not installed"
    return versions


def _write_index(recipe: Recipe, seed: int, out_dir: Path, parts: list[dict]) -> None:
    versions = package_versions()
    rules = recipe.rules or {}
    rules_text = ", ".join(f"{k} = {v}" for k, v in rules.items()) or "the published defaults"
    cmd = f"pushluck report {recipe.path.stem} --seed {seed}"
    md = [f"# {recipe.title}", ""]
    if recipe.description:
        md += [recipe.description, ""]
    md += [f"- game: {recipe.game}", f"- house rules: {rules_text}", f"- seed: {seed} "
           f"(part i uses SeedSequence([seed, i]); each part lists its own)",
           f"- reproduce: `{cmd}`",
           "- versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()), ""]
    for m in parts:
        md += [f"## {m['title']}", "", f"*part `{m['name']}` ({m['kind']}), seed {m['seed']}, "
               f"parameters {json.dumps(m['params'], sort_keys=True)}*", "", m["summary"], ""]
        for f in m["files"]:
            if f.endswith(".png"):
                md += [f"![{m['name']}]({f})", ""]
            elif f.endswith(".csv"):
                md += [f"Table: [{f}]({f})", ""]
    atomic_write_text(out_dir / "index.md", "\n".join(md) + "\n")
    atomic_write_text(out_dir / "index.html", _html(recipe, seed, rules_text, cmd, versions,
                                                    parts, out_dir))


def _html(recipe, seed, rules_text, cmd, versions, parts, out_dir: Path) -> str:
    import pandas as pd

    esc = html.escape
    body = [f"<h1>{esc(recipe.title)}</h1>"]
    if recipe.description:
        body.append(f"<p>{esc(recipe.description)}</p>")
    body.append("<ul>" + "".join(f"<li>{x}</li>" for x in [
        f"game: {esc(recipe.game)}", f"house rules: {esc(rules_text)}",
        f"seed: {seed} (part i uses SeedSequence([seed, i]))",
        f"reproduce: <code>{esc(cmd)}</code>",
        "versions: " + esc(", ".join(f"{k} {v}" for k, v in versions.items()))]) + "</ul>")
    for m in parts:
        body.append(f"<h2>{esc(m['title'])}</h2>")
        body.append(f"<p class='meta'>part <code>{esc(m['name'])}</code> ({esc(m['kind'])}), "
                    f"seed {m['seed']}, parameters <code>"
                    f"{esc(json.dumps(m['params'], sort_keys=True))}</code></p>")
        body.append(_markdown_to_html(m["summary"]))
        for f in m["files"]:
            path = out_dir / f
            if f.endswith(".svg"):
                svg = path.read_text()
                svg = svg[svg.find("<svg"):]
                body.append(f"<figure>{svg}<figcaption>{esc(f)}</figcaption></figure>")
            elif f.endswith(".csv"):
                df = pd.read_csv(path)
                shown = df.head(HTML_MAX_ROWS)
                table = shown.to_html(index=False, float_format=lambda v: f"{v:.6g}", border=0,
                                      classes="data")
                more = (f"; the first {HTML_MAX_ROWS} shown, all in {esc(f)}"
                        if len(df) > HTML_MAX_ROWS else "")
                body.append(f"<details{' open' if len(df) <= HTML_MAX_ROWS else ''}><summary>"
                            f"{esc(f)} ({len(df)} rows{more})</summary>{table}</details>")
    style = ("body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;"
             "padding:0 1em;line-height:1.45}table.data{border-collapse:collapse;font-size:13px}"
             "table.data td,table.data th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
             "figure svg{max-width:100%;height:auto}.meta{color:#555;font-size:90%}"
             "code{background:#f4f4f4;padding:0 3px}")
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<title>{esc(recipe.title)}</title><style>{style}</style></head><body>\n" +
            "\n".join(body) + "\n</body></html>\n")


def _markdown_to_html(text: str) -> str:
    """Just enough Markdown for the summaries: paragraphs, bullet lists, pipe tables, code."""
    import re

    esc = html.escape
    out, lines, i = [], text.splitlines(), 0

    def inline(s):
        s = esc(s)
        s = re.sub(r"`([^`]+)`", r"<code>\1</code>", s)
        s = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", s)
        return re.sub(r"(?<!\*)\*([^*]+)\*(?!\*)", r"<i>\1</i>", s)

    while i < len(lines):
        line = lines[i]
        if line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(set(c) <= set("-: ") for c in cells):
                    rows.append(cells)
                i += 1
            head, *rest = rows
            out.append("<table class='data'><tr>" + "".join(f"<th>{inline(c)}</th>" for c in head)
                       + "</tr>" + "".join("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r)
                                           + "</tr>" for r in rest) + "</table>")
            continue
        if line.startswith(("- ", "* ")):
            items = []
            while i < len(lines) and lines[i].startswith(("- ", "* ")):
                items.append(f"<li>{inline(lines[i][2:])}</li>")
                i += 1
            out.append("<ul>" + "".join(items) + "</ul>")
            continue
        if line.startswith("#"):
            level = min(len(line) - len(line.lstrip("#")) + 2, 6)
            out.append(f"<h{level}>{inline(line.lstrip('#').strip())}</h{level}>")
        elif line.startswith("!["):
            pass  # images are embedded from the part's SVG files
        elif line.strip():
            out.append(f"<p>{inline(line)}</p>")
        i += 1
    return "\n".join(out)


def write_top_index(out_root: Path, results: list[dict]) -> None:
    """reports/out/index.md and index.html linking every recipe's folder."""
    lines = ["# pushluck reports", ""]
    items = []
    for r in results:
        rel = Path(r["out"]).resolve().relative_to(out_root.resolve())
        lines.append(f"- [{r['title']}]({rel}/index.md) (seed {r['seed']})")
        items.append(f"<li><a href='{html.escape(str(rel))}/index.html'>"
                     f"{html.escape(r['title'])}</a> (seed {r['seed']})</li>")
    atomic_write_text(out_root / "index.md", "\n".join(lines) + "\n")
    atomic_write_text(out_root / "index.html",
                      "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>"
                      "pushluck reports</title></head><body><h1>pushluck reports</h1><ul>" +
                      "".join(items) + "</ul></body></html>\n")


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
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            summary = report_section(root, seed, bool(params.get("quick", False)))
            files = {str(p.relative_to(root)): p.read_bytes()
                     for p in sorted(root.rglob("*")) if p.is_file()}
        return PartResult(files, summary, {"quick": bool(params.get("quick", False))})

    return PartKind(game, name, compute, description)
