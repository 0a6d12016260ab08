"""A report folder as a small site: index.md and a styled, self-contained index.html per recipe,
and a top-level index linking every game's report.

Summaries are Markdown rendered by markdown-it-py (CommonMark with tables), never by hand. Each
table appears once: a summary's own Markdown table, or else the part's CSV shown readable (words
for headers, "—" for missing cells, at most :data:`HTML_MAX_ROWS` rows, scrollable when wide), in
both cases with the CSV linked. Charts are embedded once, as inline SVG, with their seed in the
caption. Nothing here carries a timestamp, so reruns are byte-identical.
"""
from __future__ import annotations

import html
import json
import platform
import re
from pathlib import Path

from analyzer.output import atomic_write_text, read_regular

HTML_MAX_ROWS = 60
STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
    "line-height:1.5;color:#222}nav{font-size:90%;margin-bottom:1.5em}nav a{margin-right:1em}"
    "table{border-collapse:collapse;font-size:13px;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}"
    "td:first-child,th:first-child{text-align:left}.scroll{overflow-x:auto}"
    "figure{margin:1em 0}figure svg{max-width:100%;height:auto}"
    "figcaption,.meta{color:#555;font-size:90%}code{background:#f4f4f4;padding:0 3px}"
    ".card{border:1px solid #ddd;border-radius:6px;padding:.6em 1em;margin:.8em 0}"
    "h2{border-bottom:1px solid #eee;padding-bottom:.2em;margin-top:2em}")


def package_versions() -> dict:
    from importlib import metadata

    versions = {"python": platform.python_version()}
    for pkg in ("pushluck", "numpy", "numba", "pandas", "matplotlib", "typer"):
        try:
            versions[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            versions[pkg] = "not installed"
    return versions


def markdown_html(text: str) -> str:
    """CommonMark with pipe tables (markdown-it-py); raw HTML in the text is escaped."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    return md.render(text)


def _without_images(text: str) -> str:
    """Summaries may reference their charts as images; the page embeds each chart once."""
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)\s*,?\s*", "", text)
    return "\n".join(line for line in text.splitlines())


def _has_table(text: str) -> bool:
    return bool(re.search(r"^\s*\|.*\|\s*$\n^\s*\|[\s:|-]+\|\s*$", text, flags=re.M))


def _words(column: str) -> str:
    return str(column).replace("_", " ")


def _csv_table(data: bytes) -> str:
    import io

    import pandas as pd

    df = pd.read_csv(io.BytesIO(data))
    shown = df.head(HTML_MAX_ROWS).rename(columns=_words)
    table = shown.to_html(index=False, na_rep="—", border=0,
                          float_format=lambda v: f"{v:.6g}")
    more = (f" (the first {HTML_MAX_ROWS} of {len(df)} rows)" if len(df) > HTML_MAX_ROWS else "")
    return f"<div class='scroll'>{table}</div><p class='meta'>{more}</p>" if more else \
        f"<div class='scroll'>{table}</div>"


def write_index(recipe, seed: int, out_dir: Path, parts: list[dict]) -> None:
    """index.md and index.html of one recipe's folder."""
    versions = package_versions()
    rules = recipe.rules or {}
    rules_text = ", ".join(f"{k} = {v}" for k, v in rules.items()) or "the published defaults"
    cmd = f"pushluck report {recipe.path.stem} --seed {seed}"
    facts = [f"game: {recipe.game}", f"house rules: {rules_text}",
             f"seed: {seed} (part i uses SeedSequence([seed, i]); each part lists its own)",
             f"reproduce: `{cmd}`",
             "versions: " + ", ".join(f"{k} {v}" for k, v in versions.items())]
    md = [f"# {recipe.title}", ""] + ([recipe.description, ""] if recipe.description else [])
    md += [f"- {x}" for x in facts] + [""]
    for m in parts:
        md += [f"## {m['title']}", "", f"*part `{m['name']}` ({m['kind']}), seed {m['seed']}, "
               f"parameters {json.dumps(m['params'], sort_keys=True)}*", "", m["summary"], ""]
        for f in m["files"]:
            if f.endswith(".png") and f"({f})" not in m["summary"]:
                md += [f"![{m['name']}]({f})", ""]
            elif f.endswith(".csv") and f"({f})" not in m["summary"]:
                md += [f"Table: [{f}]({f})", ""]
    atomic_write_text(out_dir / "index.md", "\n".join(md) + "\n", root=out_dir)
    atomic_write_text(out_dir / "index.html", _page(recipe, seed, facts, parts, out_dir),
                      root=out_dir)


def write_pending_index(recipe, seed: int, out_dir: Path, done: list[dict]) -> None:
    """index.md and index.html of a report whose parts are being computed: they say so, and
    which parts are written, so that an interrupted run never leaves a page describing other
    tables than the folder holds (the full index replaces them when every part is written)."""
    esc = html.escape
    cmd = f"pushluck report {recipe.path.stem} --seed {seed}"
    names = [p["name"] for p in done]
    line = (f"This report is incomplete: {len(names)} of {len(recipe.parts)} part(s) are "
            f"written ({', '.join(names) or 'none'}); a run is computing the rest or was "
            f"interrupted. Run `{cmd}` with the same --out to finish it.")
    md = f"# {recipe.title}\n\n{line}\n"
    page = ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<title>{esc(recipe.title)} (incomplete)</title><style>{STYLE}</style></head>"
            f"<body>\n<h1>{esc(recipe.title)}</h1>\n{markdown_html(line)}</body></html>\n")
    atomic_write_text(out_dir / "index.md", md, root=out_dir)
    atomic_write_text(out_dir / "index.html", page, root=out_dir)


def _page(recipe, seed: int, facts: list[str], parts: list[dict], out_dir: Path) -> str:
    esc = html.escape
    body = ["<nav><a href='../index.html'>← all reports</a>" +
            "".join(f"<a href='#{esc(m['name'])}'>{esc(m['title'])}</a>" for m in parts) +
            "</nav>", f"<h1>{esc(recipe.title)}</h1>"]
    if recipe.description:
        body.append(markdown_html(recipe.description))
    body.append(markdown_html("\n".join(f"- {x}" for x in facts)))
    for m in parts:
        summary = _without_images(m["summary"])
        body.append(f"<h2 id='{esc(m['name'])}'>{esc(m['title'])}</h2>")
        body.append(f"<p class='meta'>part <code>{esc(m['name'])}</code> ({esc(m['kind'])}), "
                    f"seed {m['seed']}, parameters <code>"
                    f"{esc(json.dumps(m['params'], sort_keys=True))}</code> · "
                    f"<a href='parts/{esc(m['name'])}.json'>manifest</a></p>")
        body.append(markdown_html(summary))
        tables_in_text = _has_table(summary)
        for f in m["files"]:
            data = read_regular(out_dir / f, root=out_dir)
            if data is None:  # checked when the part was reused or written; gone since
                continue
            if f.endswith(".svg"):
                svg = data.decode("utf-8", "replace")
                svg = svg[svg.find("<svg"):]
                png = f[:-4] + ".png"
                body.append(f"<figure>{svg}<figcaption>{esc(m['title'])}; part seed "
                            f"{m['seed']}. <a href='{esc(png)}'>PNG</a> · "
                            f"<a href='{esc(f)}'>SVG</a></figcaption></figure>")
            elif f.endswith(".csv"):
                if not tables_in_text:
                    body.append(_csv_table(data))
                body.append(f"<p class='meta'>table: <a href='{esc(f)}'>{esc(f)}</a> (CSV)</p>")
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<title>{esc(recipe.title)}</title><style>{STYLE}</style></head><body>\n" +
            "\n".join(body) + "\n</body></html>\n")


def write_top_index(out_root: Path, results: list[dict]) -> None:
    """``out_root``/index.md and index.html: one card per report, linking its page and files."""
    esc = html.escape
    lines = ["# pushluck reports", ""]
    cards = []
    for r in results:
        rel = Path(r["out"]).resolve().relative_to(out_root.resolve())
        lines.append(f"- [{r['title']}]({rel}/index.md) (seed {r['seed']})")
        csvs = [f for f in r["files"] if f.endswith(".csv")]
        links = " · ".join(f"<a href='{esc(str(rel))}/{esc(f)}'>{esc(f)}</a>" for f in csvs)
        cards.append(f"<div class='card'><h2><a href='{esc(str(rel))}/index.html'>"
                     f"{esc(r['title'])}</a></h2><p class='meta'>game {esc(r['game'])}, seed "
                     f"{r['seed']}, {len(r['parts'])} part(s)</p>"
                     + (f"<p class='meta'>tables: {links}</p>" if links else "") + "</div>")
    atomic_write_text(out_root / "index.md", "\n".join(lines) + "\n", root=out_root)
    atomic_write_text(out_root / "index.html",
                      "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>"
                      f"pushluck reports</title><style>{STYLE}</style></head><body>"
                      "<h1>pushluck reports</h1><p>One page per game: what the analysis found, "
                      "with every Monte Carlo figure's interval, sample size and seed.</p>" +
                      "".join(cards) + "</body></html>\n", root=out_root)
