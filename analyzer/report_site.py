"""The report site: one page per game (``<report>/index.html``), an index of every game
(``report all``: ``<out>/index.html``), one style sheet (``style.css`` beside each page), and the
same text as Markdown (``index.md``) for people who prefer it.

A game page opens with its **findings**: the sentences each part states in its result
(``meta["findings"]``, generated from its statistic objects), in order of priority. Then one
section per part: its summary (Markdown rendered by markdown-it-py, raw HTML escaped), its charts
as figures (a chart named in the summary as ``![words](chart.svg)`` is placed there, with links
to its PNG and to the data it draws), its tables, the data files as links, and a small "how this
was computed" box with the part's seed and parameters in words (once per part, never per row).
The index shows each game's three headline findings and a thumbnail of its key chart (the key
chart of the part stating the top finding, else the first part's that has one).

Nothing here carries a timestamp, so reruns are byte-identical. Every page and the style sheet
are written atomically inside the report folder.
"""
from __future__ import annotations

import html
import platform
import re
from pathlib import Path

from analyzer.output import atomic_write_text

STYLE_FILE = "style.css"
#: how many findings the index shows per game
HEADLINES = 3
#: how many findings open a game's page (the others open their part's section)
PAGE_FINDINGS = 8


def package_versions() -> dict:
    from importlib import metadata

    versions = {"python": platform.python_version()}
    for pkg in ("pushluck", "numpy", "numba", "pandas", "matplotlib", "typer"):
        try:
            versions[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            versions[pkg] = "not installed"
    return versions


def _parser():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table")


def markdown_html(text: str) -> str:
    """CommonMark with pipe tables (markdown-it-py); raw HTML in the text is escaped."""
    return _parser().render(text)


def inline_html(text: str) -> str:
    """One line of Markdown (code, emphasis, links) as HTML without a paragraph."""
    return _parser().renderInline(text)


# ------------------------------------------------------------------------------ page pieces
def findings_of(parts: list[dict]) -> list[dict]:
    """Every finding of the parts (manifests), by priority then part order, each with the
    name of the part that states it. Where one part detects a seat advantage, another part's
    "no seat advantage detected" (a smaller sample, e.g. a ladder's self-play) is left out of
    the findings: beside a detected one it reads as a contradiction, and its part's tables
    still show the figures with their n."""
    found = []
    for k, m in enumerate(parts):
        for j, f in enumerate(m.get("meta", {}).get("findings", []) or []):
            if isinstance(f, dict) and isinstance(f.get("text"), str):
                found.append((f.get("priority", 5), k, j, {"text": f["text"],
                                                          "part": m["name"]},
                              f.get("kind")))
    if any(kind == "seat-advantage" for *_x, kind in found):
        found = [x for x in found if x[4] != "no-seat-advantage"]
    return [f for *_k, f, _kind in sorted(found, key=lambda x: x[:3])]


def key_chart(parts: list[dict]) -> str | None:
    """The report-relative PNG of the page's key chart (module doc), or None."""
    found = findings_of(parts)
    order = ([m for m in parts if found and m["name"] == found[0]["part"]]
             + list(parts))
    for m in order:
        stem = m.get("meta", {}).get("key_chart")
        png = f"{m['name']}/{stem}.png" if isinstance(stem, str) else None
        if png and png in m["files"]:
            return png
    return None


def params_words(params: dict) -> str:
    """A part's parameters in words: ``games 200,000; players 2, 3, 4; bot heuristic`` (a
    text holding a comma in quotes: ``pairs “optimal,optimal”, “hold:20,hold:20”``)."""
    def show(v):
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, int):
            return f"{v:,}" if abs(v) >= 10_000 else str(v)
        if isinstance(v, list):
            return ", ".join(f"({show_inner(x)})" if isinstance(x, list) else
                             f"\u201c{x}\u201d" if isinstance(x, str) and "," in x else show(x)
                             for x in v)
        if isinstance(v, dict):
            return ", ".join(f"{k} {show(x)}" for k, x in sorted(v.items()))
        return str(v)

    def show_inner(x):
        return ", ".join(show(y) for y in x)

    # in name order: a manifest read back from disk has its keys sorted, and a rerun that
    # reuses every part must write the same pages
    return "; ".join(f"{k.replace('_', ' ')} {show(v)}" for k, v in sorted(params.items()))


def _localise(text: str, name: str, files: list[str]) -> str:
    """Links and images of a part's summary name its files relative to the part's folder; the
    page sits one folder up, so they become ``<part>/<file>``."""
    own = set(files)

    def fix(m):
        target = m.group(2)
        return f"]({name}/{target})" if f"{name}/{target}" in own else m.group(0)

    return re.sub(r"\]\((\s*)([^)\s]+)\)", fix, text)


def _figures(body: str, files: list[str]) -> str:
    """An image alone in a paragraph becomes a figure with its caption and links to its PNG
    and to the data it draws."""
    own = set(files)

    def figure(m):
        src, alt = html.unescape(m.group(1)), html.unescape(m.group(2))
        stem = src.rsplit(".", 1)[0]
        links = [f"<a href='{html.escape(src)}'>SVG</a>"]
        if f"{stem}.png" in own:
            links.append(f"<a href='{html.escape(stem)}.png'>PNG</a>")
        if f"{stem}.data.csv" in own:
            links.append(f"<a href='{html.escape(stem)}.data.csv'>data (CSV)</a>")
        return (f"<figure><img src='{html.escape(src)}' alt='{html.escape(alt)}'>"
                f"<figcaption>{html.escape(alt)} · {' · '.join(links)}</figcaption></figure>")

    body = re.sub(r'<p><img src="([^"]+)" alt="([^"]*)" /></p>', figure, body)
    body = body.replace("<table>", "<div class='table'><table>").replace(
        "</table>", "</table></div>")
    return re.sub(r"<(/?)h[12]>", r"<\1h3>", body)


def how_text(m: dict) -> str:
    """The method sentence of a part (its ``meta["how"]``, else said from ``meta["exact"]``)."""
    meta = m.get("meta", {})
    return meta.get("how") or ("Exact computation; no sampling." if meta.get("exact")
                               else "Monte Carlo; every figure with its 95% interval and n.")


def how_box(m: dict, index: int) -> str:
    """The part's "how this was computed" box: method, seed, parameters, manifest."""
    esc = html.escape
    how = how_text(m)
    params = params_words(m.get("params", {}))
    return (f"<aside class='how'><strong>How this was computed.</strong> {inline_html(how)} "
            f"Part seed "
            f"{m['seed']} (SeedSequence of the report's seed and the part's place, {index})."
            + (f" Parameters: {esc(params)}." if params else "")
            + f" Kind <code>{esc(m['kind'])}</code>; "
            f"<a href='parts/{esc(m['name'])}.json'>manifest with every figure (JSON)</a>."
            "</aside>")


def part_html(m: dict, index: int, more: list[str]) -> str:
    """A part's section; ``more`` are its findings the top of the page leaves out."""
    esc = html.escape
    files = m["files"]
    summary = _localise(m["summary"], m["name"], files)
    body = [f"<section class='part' id='{esc(m['name'])}'>", f"<h2>{esc(m['title'])}</h2>"]
    if more:
        body.append("<ul class='more'>" + "".join(f"<li>{esc(t)}</li>" for t in more)
                    + "</ul>")
    body.append(_figures(markdown_html(summary), files))
    shown = set(re.findall(r"\(([^)\s]+\.svg)\)", summary))
    for f in files:  # a chart the summary does not place still appears, once
        if f.endswith(".svg") and f not in shown:
            body.append(_figures(markdown_html(f"![{m['title']}]({f})"), files))
    data = [f for f in files if f.endswith(".csv") and not f.endswith(".data.csv")]
    if data:
        links = " · ".join(f"<a href='{esc(f)}'>{esc(f.split('/', 1)[-1])}</a>" for f in data)
        body.append(f"<p class='meta'>Data (CSV): {links}</p>")
    body.append(how_box(m, index))
    body.append("</section>")
    return "\n".join(body)


def header_html(site: list[tuple[str, str]] | None, current: str | None, up: str) -> str:
    """The bar on every page: the index (when there is one) and every game's page."""
    esc = html.escape
    if not site:
        return ("<header class='site'><div class='bar'><span class='home'>pushluck report"
                "</span></div></header>")
    links = []
    for stem, title in site:
        here = " aria-current='page'" if stem == current else ""
        links.append(f"<a href='{up}{esc(stem)}/index.html'{here}>{esc(short_title(title))}</a>")
    return (f"<header class='site'><div class='bar'><a class='home' href='{up}index.html'>"
            f"pushluck reports</a><nav>{''.join(links)}</nav></div></header>")


def short_title(title: str) -> str:
    """A game's name from a report title ("Trash Pandas: stop or roll?" → "Trash Pandas")."""
    return title.split(":")[0].strip()


def _document(title: str, css: str, header: str, main: str) -> str:
    return ("<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>\n"
            f"<title>{html.escape(title)}</title>\n<link rel='stylesheet' href='{css}'>\n"
            f"</head>\n<body>\n{header}\n<main>\n{main}\n</main>\n</body>\n</html>\n")


# ------------------------------------------------------------------------------ a game's page
def _facts(recipe, seed: int) -> list[str]:
    rules = recipe.rules or {}
    rules_text = ", ".join(f"{k} = {v}" for k, v in rules.items()) or "the published defaults"
    versions = package_versions()
    return [f"House rules: {rules_text}.",
            f"Report seed {seed}; part i is seeded with SeedSequence([seed, i]), shown in its "
            f"box.",
            f"Reproduce: `pushluck report {recipe.path.stem} --seed {seed}` (the same seed "
            f"gives the same files, byte for byte).",
            "Versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()) + "."]


def write_style(folder: Path) -> None:
    """``folder``/style.css, written only when it does not hold the style sheet already (a
    rerun leaves it untouched)."""
    from analyzer.output import read_regular
    from analyzer.site_style import CSS

    if read_regular(folder / STYLE_FILE, root=folder) != CSS.encode():
        atomic_write_text(folder / STYLE_FILE, CSS, root=folder)


def write_index(recipe, seed: int, out_dir: Path, parts: list[dict],
                site: list[tuple[str, str]] | None = None) -> None:
    """index.md, index.html and style.css of one report's folder; ``site`` lists (folder,
    title) of every report beside it (``report all``) for the navigation."""
    esc = html.escape
    found = findings_of(parts)
    facts = _facts(recipe, seed)
    md = [f"# {recipe.title}", ""] + ([recipe.description, ""] if recipe.description else [])
    md += ["## Findings", ""] + [f"- {f['text']}" for f in found] + [""]
    for i, m in enumerate(parts):
        params = params_words(m.get("params", {}))
        md += [f"## {m['title']}", "", _localise(m["summary"], m["name"], m["files"]).rstrip(),
               "", f"*How this was computed: {how_text(m)} Part seed "
               f"{m['seed']}" + (f"; parameters: {params}" if params else "") + ".*", ""]
    md += ["## About this report", ""] + [f"- {x}" for x in facts]
    index = {p["name"]: i for i, p in enumerate(recipe.parts)}
    main = [f"<h1>{esc(recipe.title)}</h1>"]
    if recipe.description:
        main.append(f"<p class='lede'>{inline_html(' '.join(recipe.description.split()))}</p>")
    top, rest = found[:PAGE_FINDINGS], found[PAGE_FINDINGS:]
    items = "".join(f"<li>{esc(f['text'])}</li>" for f in top) or \
        "<li>This report's parts state no findings; each section below gives its figures.</li>"
    main.append(f"<section class='findings'><h2>Findings</h2><ul>{items}</ul>"
                + ("<p class='meta'>More findings open each section below.</p>" if rest else "")
                + "</section>")
    main.append("<nav class='toc'>On this page: " + " ".join(
        f"<a href='#{esc(m['name'])}'>{esc(m['title'])}</a>" for m in parts) + "</nav>")
    main += [part_html(m, index.get(m["name"], i),
                       [f["text"] for f in rest if f["part"] == m["name"]])
             for i, m in enumerate(parts)]
    main.append("<footer><ul>" + "".join(f"<li>{inline_html(x)}</li>" for x in facts)
                + "<li>The same page as Markdown: <a href='index.md'>index.md</a>.</li>"
                "</ul></footer>")
    write_style(out_dir)
    atomic_write_text(out_dir / "index.md", "\n".join(md) + "\n", root=out_dir)
    up = "../"
    atomic_write_text(out_dir / "index.html",
                      _document(recipe.title, STYLE_FILE,
                                header_html(site, recipe.path.stem, up), "\n".join(main)),
                      root=out_dir)


def write_pending_index(recipe, seed: int, out_dir: Path, done: list[dict],
                        site: list[tuple[str, str]] | None = None) -> None:
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
    write_style(out_dir)
    atomic_write_text(out_dir / "index.md", md, root=out_dir)
    atomic_write_text(out_dir / "index.html",
                      _document(f"{recipe.title} (incomplete)", STYLE_FILE,
                                header_html(site, recipe.path.stem, "../"),
                                f"<h1>{esc(recipe.title)}</h1>\n{markdown_html(line)}"),
                      root=out_dir)


# ---------------------------------------------------------------------------- the site index
def write_top_index(out_root: Path, results: list[dict]) -> None:
    """``out_root``/index.md, index.html and style.css: one card per report with its three
    headline findings and a thumbnail of its key chart, linking its page."""
    esc = html.escape
    site = [(Path(r["out"]).name, r["title"]) for r in results]
    lines = ["# pushluck reports", "",
             "One page per game: what the analysis found, with every Monte Carlo figure's "
             "interval and sample size.", ""]
    cards = []
    for r in results:
        rel = Path(r["out"]).resolve().relative_to(out_root.resolve()).as_posix()
        heads = r.get("findings", [])[:HEADLINES]
        lines += [f"## [{r['title']}]({rel}/index.md)", ""] + [f"- {t}" for t in heads] + [""]
        items = "".join(f"<li>{esc(t)}</li>" for t in heads)
        thumb = ""
        if r.get("key_chart"):
            thumb = (f"<a class='thumb' href='{esc(rel)}/index.html'><img src='{esc(rel)}/"
                     f"{esc(r['key_chart'])}' alt='{esc(short_title(r['title']))}: key chart'>"
                     "</a>")
        cards.append(f"<div class='card'><div class='text'><h2><a href='{esc(rel)}/index.html'>"
                     f"{esc(r['title'])}</a></h2>" + (f"<ul>{items}</ul>" if items else "")
                     + f"<p class='meta'>{len(r['parts'])} parts · report seed {r['seed']} · "
                     f"<a href='{esc(rel)}/index.html'>read the report</a></p></div>{thumb}"
                     "</div>")
    main = ("<h1>pushluck reports</h1><p class='lede'>One page per game: what the analysis "
            "found, with every Monte Carlo figure's 95% interval and sample size. Each page opens "
            "with its findings; the tables and charts below them show the figures behind each "
            "one, and the CSV files hold the data.</p><div class='cards'>" + "".join(cards)
            + "</div>")
    write_style(out_root)
    atomic_write_text(out_root / "index.md", "\n".join(lines) + "\n", root=out_root)
    atomic_write_text(out_root / "index.html",
                      _document("pushluck reports", STYLE_FILE, header_html(site, None, ""),
                                main), root=out_root)
