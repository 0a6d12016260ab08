"""The report site of `make run` (issue 38), rendered whole at test sizes and read as a reader
would: valid HTML, every link and image resolving inside the folder, no raw data (nan, None,
a brace, a 19-digit seed repeated) in any page's text, every chart drawn from at least two
points, every game page opening with its findings, the index showing each game's three
headline findings and a thumbnail; a rerun changes no byte; and, when Chromium is installed,
the pages open in headless Chromium without a broken resource.

The site is written once per module by ``pushluck report all`` with ``PUSHLUCK_REPORT_TINY=1``
(each part's ``tiny`` sample sizes; analyzer/report.py), which keeps the sampling to seconds.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VOID = {"meta", "link", "img", "br", "hr", "input", "source", "col", "area", "base", "wbr"}


def _run(out: Path, *extra: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PUSHLUCK_REPORT_TINY="1", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "analyzer", "report", "all", "--out", str(out),
                           "--json", *extra], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=1800)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "out"
    proc = _run(out)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out, json.loads(proc.stdout)


class Page(HTMLParser):
    """Tags (balanced?), ids, links, images and the visible text of one page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.problems, self.ids, self.links, self.images = [], [], [], [], []
        self.text, self.prose, self.tags = [], [], Counter()
        self.skip = self.quoted = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] += 1
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag == "link" and "href" in a:
            self.links.append(a["href"])
        if tag == "img":
            self.images.append(a.get("src", ""))
            if not a.get("alt"):
                self.problems.append("an image without alt text")
        if tag in ("style", "script"):
            self.skip += 1
        if tag in ("a", "code"):
            self.quoted += 1
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes <{self.stack[-1] if self.stack else ''}>")
            return
        self.stack.pop()
        if tag in ("style", "script"):
            self.skip -= 1
        if tag in ("a", "code"):
            self.quoted -= 1

    def handle_data(self, data):
        if not self.skip:
            self.text.append(data)
            if not self.quoted:  # words, not a file name or a command
                self.prose.append(data)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    if page.stack:
        page.problems.append(f"unclosed {page.stack}")
    return page


def pages(out: Path) -> list[Path]:
    return [out / "index.html"] + sorted(out.glob("*/index.html"))


def test_every_page_is_valid_html_with_unique_ids(site):
    out, _ = site
    for path in pages(out):
        page = parse(path)
        assert page.problems == [], (path, page.problems[:5])
        assert page.tags["html"] == page.tags["head"] == page.tags["body"] == 1, path
        assert page.tags["title"] == 1 and page.tags["h1"] == 1, path
        assert len(page.ids) == len(set(page.ids)), (path, Counter(page.ids).most_common(3))


def test_every_link_and_image_resolves_inside_the_folder(site):
    out, _ = site
    for path in pages(out):
        page = parse(path)
        for href in page.links + page.images:
            target, _, frag = href.partition("#")
            assert "://" not in href and not href.startswith("/"), (path, href)
            if target:
                file = (path.parent / target).resolve()
                assert file.is_file(), (path, href)
                assert out.resolve() in file.parents, (path, href)
            if frag:
                ids = parse(file).ids if target else page.ids
                assert frag in ids, (path, href)


def test_no_raw_data_in_any_page_text(site):
    out, _ = site
    for path in pages(out):
        text = " ".join(parse(path).text)
        assert not re.search(r"\bnan\b", text, re.I), (path, re.search(r".{40}\bnan\b.{40}",
                                                                       text, re.I))
        assert not re.search(r"\bNone\b", text), (path, re.search(r".{40}\bNone\b.{40}", text))
        assert "{" not in text and "}" not in text, (path, text[text.find("{") - 60:][:120])
        long = Counter(re.findall(r"(?<!\d)\d{19}(?!\d)", text))
        assert all(k == 1 for k in long.values()), (path, long.most_common(2))
        prose = " ".join(parse(path).prose)
        assert not re.search(r"\b[a-z]+_[a-z0-9_]+\b", prose), \
            (path, re.search(r".{30}\b[a-z]+_[a-z0-9_]+\b.{30}", prose))


def test_every_chart_is_drawn_from_two_points_or_more(site):
    import pandas as pd

    out, _ = site
    charts = 0
    for path in pages(out)[1:]:
        for src in parse(path).images:
            stem = (path.parent / src).with_suffix("")
            data = Path(f"{stem}.data.csv")
            assert data.is_file(), (path, src)
            assert len(pd.read_csv(data)) >= 2, (path, src)
            assert Path(f"{stem}.png").is_file() and Path(f"{stem}.svg").is_file()
            charts += 1
    assert charts >= 12


def test_each_game_page_opens_with_its_findings_and_a_how_box_per_part(site):
    out, result = site
    for report in result["reports"]:
        html = (Path(report["out"]) / "index.html").read_text(encoding="utf-8")
        body = html[html.index("</h1>"):]
        first = re.search(r"<(section|table|figure|h2|div)[ >]", body)
        opening = "<section class='findings'><h2>Findings</h2><ul><li>"
        assert body[first.start():].startswith(opening), report["title"]
        assert len(report["findings"]) >= 3, report["title"]
        assert html.count("<aside class='how'>") == len(report["parts"]), report["title"]
        assert html.count("Part seed") == len(report["parts"])


def test_the_index_shows_three_findings_and_a_thumbnail_per_game(site):
    out, result = site
    html = (out / "index.html").read_text(encoding="utf-8")
    cards = html.split("<div class='card'>")[1:]
    assert len(cards) == len(result["reports"]) == 6
    for card, report in zip(cards, result["reports"]):
        assert card.count("<li>") == 3, report["title"]
        assert report["findings"][0].replace("'", "&#x27;") in card
        thumb = re.search(r"<img src='([^']+)'", card)
        assert thumb and (out / thumb.group(1)).is_file(), report["title"]


def test_a_rerun_reuses_every_part_and_changes_no_byte(site):
    out, result = site

    def digest():
        return {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(out.rglob("*")) if p.is_file() and "screenshots" not in p.parts}

    before = digest()
    proc = _run(out)
    assert proc.returncode == 0, proc.stderr[-2000:]
    again = json.loads(proc.stdout)
    assert all(r["computed"] == 0 for r in again["reports"])
    assert digest() == before


def test_no_part_keeps_a_timing(site):
    """A race's seconds vary from run to run: a part computed again with the same seed must
    write the same bytes, so no manifest holds a ``seconds`` key and no page quotes one."""
    out, _result = site

    def keys(x):
        if isinstance(x, dict):
            for k, v in x.items():
                yield k
                yield from keys(v)
        elif isinstance(x, list):
            for v in x:
                yield from keys(v)

    manifests = sorted(out.glob("*/parts/*.json"))
    assert len(manifests) >= 20
    for m in manifests:
        assert "seconds" not in set(keys(json.loads(m.read_text()))), m
    for page in out.glob("*/index.md"):
        assert not re.search(r"\d s\)", page.read_text()), page


def test_the_pages_open_in_headless_chromium(site):
    from analyzer.site_check import check, find_browser

    browser = find_browser()
    if browser is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium); the "
                    "browser check runs when it is")
    out, result = site
    results = check(out, browser)
    assert len(results) == 1 + len(result["reports"])
    for page, png, ok, why in results:
        assert ok, (page, why)
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_part_computed_twice_gives_the_same_bytes():
    """Charts and tables are byte-identical when a part is computed again (fixed chart
    metadata, Agg, no timestamps): Pig's balance part with a rule sweep, at small sizes."""
    from analyzer.report import part_kind

    kind = part_kind("pig.balance")
    params = {"games": 500, "pairs": ["hold:20,hold:20"], "goals": [50, 100]}
    first = kind.compute(params, {}, 11)
    again = kind.compute(params, {}, 11)
    assert sorted(first.files) == sorted(again.files)
    assert {k for k in first.files if k.endswith(".svg")} >= {"balance_seats.svg",
                                                               "balance_length.svg",
                                                               "sensitivity.svg"}
    for name in first.files:
        assert first.files[name] == again.files[name], name
    assert first.summary == again.summary and first.meta == again.meta
