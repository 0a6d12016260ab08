"""The report group's modules pinned in process (issue 40, mutation testing): report_params.py's
checks and their words, report_site.py's page pieces and pages, report.py's recipe checks, part
seeds, fingerprints, manifests and the answer of a run.

Every expected value is written out by hand: refusal lines from the field names and bounds the
test plants, page text from the manifests the test plants (the markup as the module's doc and
the style of the pages say it), part seeds from ``SeedSequence([seed, i])`` computed here with
NumPy directly. The parts of the runs here are stand-ins (no Monte Carlo), so the whole file
takes about a second.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from analyzer.errors import UserError


def refused(fn, *args) -> str:
    """The words of the UserError ``fn(*args)`` raises."""
    with pytest.raises(UserError) as exc:
        fn(*args)
    return str(exc.value)


# ============================================================ report_params.py: one value
def test_int_parameters_bounds_and_words():
    """An int is a Python int (not a bool, not a float), within low..high inclusive; a missing
    bound is no bound. Words as the checks write them: the field, the value, the bounds."""
    from analyzer.report_params import Param, check_value

    p = Param("int", 0, 9)
    assert check_value("w", 0, p) == 0 and check_value("w", 9, p) == 9
    assert refused(check_value, "w", True, p) == "w must be an integer, got True"
    assert refused(check_value, "w", 1.0, p) == "w must be an integer, got 1.0"
    assert refused(check_value, "w", "3", p) == "w must be an integer, got '3'"
    assert refused(check_value, "w", 10, p) == "w = 10 is outside 0..9"
    assert refused(check_value, "w", -1, p) == "w = -1 is outside 0..9"
    # one bound only: the other side is open
    assert check_value("w", -10**9, Param("int", None, 9)) == -10**9
    assert refused(check_value, "w", 10, Param("int", None, 9)) == "w = 10 is outside None..9"
    assert check_value("w", 10**9, Param("int", 0, None)) == 10**9
    assert refused(check_value, "w", -1, Param("int", 0, None)) == "w = -1 is outside 0..None"
    assert check_value("w", 5, Param("int")) == 5


def test_float_and_bool_parameters():
    """A float is any int or float within [low, high] (edges included) and comes back a float;
    a bool is True or False only."""
    from analyzer.report_params import Param, check_value

    p = Param("float", 0, 1)
    assert check_value("f", 0, p) == 0.0 and type(check_value("f", 0, p)) is float
    assert check_value("f", 1, p) == 1.0 and check_value("f", 0.25, p) == 0.25
    for bad in (True, "0.5", None):
        assert refused(check_value, "f", bad, p) == f"f must be a number in 0..1, got {bad!r}"
    assert refused(check_value, "f", 1.5, p) == "f must be a number in 0..1, got 1.5"
    assert refused(check_value, "f", -0.5, p) == "f must be a number in 0..1, got -0.5"
    b = Param("bool")
    assert check_value("b", True, b) is True and check_value("b", False, b) is False
    assert refused(check_value, "b", 1, b) == "b must be true or false, got 1"
    assert refused(check_value, "b", "yes", b) == "b must be true or false, got 'yes'"


def test_text_parameters():
    """A text is non-empty (not blank), at most ``max_length`` characters, one line; its own
    check's refusal is prefixed by the field."""
    from analyzer.report_params import Param, check_value

    p = Param("str", max_length=5)
    assert check_value("s", "abcde", p) == "abcde" and check_value("s", "a", p) == "a"
    for bad in ("", "   ", "abcdef", 3):
        assert refused(check_value, "s", bad, p) == (
            f"s must be a non-empty text of at most 5 characters, got {bad!r}")
    for bad in ("a\nb", "a\rb", "a\x00b"):
        assert refused(check_value, "s", bad, p) == "s must be one line"
    assert refused(check_value, "s", "x" * 201, Param("str")).startswith(
        "s must be a non-empty text of at most 200 characters, got 'xxx")
    assert check_value("s", "x" * 200, Param("str")) == "x" * 200

    seen = []

    def check(v):
        seen.append(v)
        if v == "bad":
            raise UserError("no such bot 'bad'")

    c = Param("str", check=check)
    assert check_value("s", "good", c) == "good" and seen == ["good"]
    assert refused(check_value, "s", "bad", c) == "s: no such bot 'bad'"


def test_list_parameters():
    """ints / strs: a list of 1 to ``max_items`` distinct items, each checked with its index in
    the field's name."""
    from analyzer.report_params import Param, check_value

    p = Param("ints", 1, 9, max_items=3)
    assert check_value("l", [3], p) == [3] and check_value("l", [1, 2, 9], p) == [1, 2, 9]
    assert refused(check_value, "l", 3, p) == "l must be a list, got 3"
    assert refused(check_value, "l", (1, 2), p) == "l must be a list, got (1, 2)"
    assert refused(check_value, "l", [], p) == "l must list 1 to 3 items, got 0"
    assert refused(check_value, "l", [1, 2, 3, 4], p) == "l must list 1 to 3 items, got 4"
    assert refused(check_value, "l", [1, 10], p) == "l[1] = 10 is outside 1..9"
    assert refused(check_value, "l", [1, "2"], p) == "l[1] must be an integer, got '2'"
    assert refused(check_value, "l", [2, 3, 2], p) == "l lists an item twice"
    assert check_value("l", list(range(100)), Param("ints")) == list(range(100))
    assert refused(check_value, "l", list(range(101)), Param("ints")) == \
        "l must list 1 to 100 items, got 101"

    s = Param("strs", max_length=4, max_items=2)
    assert check_value("t", ["a", "b"], s) == ["a", "b"]
    assert refused(check_value, "t", ["a", "a"], s) == "t lists an item twice"
    assert refused(check_value, "t", ["a", "bbbbb"], s) == \
        "t[1] must be a non-empty text of at most 4 characters, got 'bbbbb'"
    assert refused(check_value, "t", ["a", "b", "c"], s) == "t must list 1 to 2 items, got 3"


def test_range_weights_and_rows_parameters():
    """range: [low, high] of ints, low < high; weights: a table of known names = finite numbers
    within ±1e6; int-rows: lists of ``width`` ints."""
    from analyzer.report_params import Param, check_value

    r = Param("range", 0, 50)
    assert check_value("r", [3, 4], r) == [3, 4]
    assert refused(check_value, "r", 3, r) == "r must be [low, high], got 3"
    assert refused(check_value, "r", [1, 2, 3], r) == "r must be [low, high], got [1, 2, 3]"
    assert refused(check_value, "r", [4, 4], r) == "r = [4, 4]: low must be below high"
    assert refused(check_value, "r", [5, 4], r) == "r = [5, 4]: low must be below high"
    assert refused(check_value, "r", [1, 51], r) == "r[1] = 51 is outside 0..50"
    assert refused(check_value, "r", [-1, 5], r) == "r[0] = -1 is outside 0..50"

    w = Param("weights", names=("win", "points"))
    assert check_value("w", {"win": 1e6, "points": -1e6}, w) == {"win": 1e6, "points": -1e6}
    assert check_value("w", {"win": 2}, w) == {"win": 2}
    assert refused(check_value, "w", [1], w) == "w must be a table of name = number, got [1]"
    assert refused(check_value, "w", {"wins": 1}, w) == "w.wins: unknown name (known: win, points)"
    for bad in (True, "1", 1e6 + 1, -1e6 - 1, float("nan")):
        assert refused(check_value, "w", {"points": bad}, w) == \
            f"w.points must be a finite number, got {bad!r}"

    rows = Param("int-rows", 0, 9, width=2, max_items=2)
    assert check_value("g", [[1, 2], [3, 4]], rows) == [[1, 2], [3, 4]]
    assert refused(check_value, "g", [[1, 2], [3]], rows) == \
        "g[1] must be a list of 2 integers, got [3]"
    assert refused(check_value, "g", [(1, 2)], rows) == \
        "g[0] must be a list of 2 integers, got (1, 2)"
    assert refused(check_value, "g", [[1, 2], [3, 10]], rows) == "g[1][1] = 10 is outside 0..9"
    assert refused(check_value, "g", [[1, 2]] * 3, rows) == "g must list 1 to 2 items, got 3"
    assert refused(check_value, "g", [], rows) == "g must list 1 to 2 items, got 0"

    with pytest.raises(ValueError, match="unknown parameter kind tuple"):
        check_value("x", 1, Param("tuple"))


def test_a_parts_parameters_against_its_declaration():
    """Every name must be declared (the known ones listed in name order, "none" when the kind
    declares nothing); each value is checked under ``<where>.params.<name>``."""
    from analyzer.report_params import Param, check_params

    decl = {"games": Param("int", 1, 10), "bot": Param("str")}
    check_params("r.toml: parts.a", decl, {"games": 10, "bot": "x"})
    check_params("r.toml: parts.a", None, {})
    assert refused(check_params, "r.toml: parts.a", decl, {"gmaes": 3}) == \
        "r.toml: parts.a.params.gmaes: unknown parameter (known: bot, games)"
    assert refused(check_params, "r.toml: parts.a", None, {"x": 1}) == \
        "r.toml: parts.a.params.x: unknown parameter (known: none)"
    assert refused(check_params, "r.toml: parts.a", {}, {"x": 1}) == \
        "r.toml: parts.a.params.x: unknown parameter (known: none)"
    assert refused(check_params, "r.toml: parts.a", decl, {"bot": "x", "games": 0}) == \
        "r.toml: parts.a.params.games = 0 is outside 1..10"


# ============================================================ report_site.py: page pieces
def test_findings_in_priority_then_part_order_and_the_seat_rule():
    """Findings sort by (priority, part's place, finding's place); priority 5 when unstated;
    an entry that is not a dict with a text is skipped. A detected seat advantage removes the
    other parts' "no seat advantage" findings, and only then."""
    from analyzer.report_site import findings_of

    parts = [{"name": "a", "meta": {"findings": [{"text": "A1", "priority": 3}, {"text": "A2"},
                                                 "loose words", {"text": 5}]}},
             {"name": "b", "meta": {"findings": [{"text": "B1", "priority": 1},
                                                 {"text": "B2", "priority": 3}]}},
             {"name": "c"}, {"name": "d", "meta": {"findings": None}}]
    assert findings_of(parts) == [{"text": "B1", "part": "b"}, {"text": "A1", "part": "a"},
                                  {"text": "B2", "part": "b"}, {"text": "A2", "part": "a"}]
    null = {"name": "n", "meta": {"findings": [
        {"text": "N", "priority": 2, "kind": "no-seat-advantage"}]}}
    seat = {"name": "s", "meta": {"findings": [
        {"text": "S", "priority": 4, "kind": "seat-advantage"}]}}
    assert findings_of([null]) == [{"text": "N", "part": "n"}]
    assert findings_of([null, seat]) == [{"text": "S", "part": "s"}]
    assert findings_of([seat, null, {"name": "o", "meta": {"findings": [{"text": "O"}]}}]) == [
        {"text": "S", "part": "s"}, {"text": "O", "part": "o"}]


def test_key_chart_of_the_top_findings_part_else_the_first_with_one():
    """The key chart is ``<part>/<stem>.png`` of the part stating the top finding, when that
    part names a stem (a text) whose PNG it wrote; else the first part's that does; else None."""
    from analyzer.report_site import key_chart

    a = {"name": "a", "files": ["a/ca.png"], "meta": {"key_chart": "ca"}}
    b = {"name": "b", "files": ["b/cb.png"],
         "meta": {"key_chart": "cb", "findings": [{"text": "top", "priority": 1}]}}
    assert key_chart([a, b]) == "b/cb.png"
    b_quiet = {**b, "meta": {"key_chart": "cb"}}
    assert key_chart([a, b_quiet]) == "a/ca.png"
    no_png = {**b, "files": ["b/cb.svg"]}
    assert key_chart([a, no_png]) == "a/ca.png"
    not_text = {**b, "meta": {**b["meta"], "key_chart": 3}}
    assert key_chart([a, not_text]) == "a/ca.png"
    assert key_chart([{"name": "z", "files": ["z/x.png"], "meta": {}}]) is None
    assert key_chart([]) is None


def test_parameters_in_words():
    """Names in order with '_' as a space; ints with thousands separators from 10,000 (either
    sign); yes/no; lists joined by ", " with a text holding a comma in curly quotes and a list
    of lists in brackets; a table as "name value" pairs in name order."""
    from analyzer.report_site import params_words

    params = {"games": 200000, "players": [2, 3, 4], "bot": "heuristic", "quick": True,
              "pairs": ["optimal,optimal", "hold:20,hold:20"], "hands": [[0, 0, 0], [1, 0, 0]],
              "weights": {"win": 1, "points": 0.5}, "small": 9999, "neg": -10000,
              "off": False, "x_y": 1.5, "flags": [True, "b"]}
    assert params_words(params) == (
        "bot heuristic; flags yes, b; games 200,000; hands (0, 0, 0), (1, 0, 0); neg -10,000; "
        "off no; pairs \u201coptimal,optimal\u201d, \u201chold:20,hold:20\u201d; "
        "players 2, 3, 4; quick yes; small 9999; weights points 0.5, win 1; x y 1.5")
    assert params_words({"n": 10000}) == "n 10,000"
    assert params_words({}) == ""


def test_a_summarys_links_point_into_its_part_folder():
    """A link or image whose target is one of the part's files becomes ``<part>/<target>``
    (spaces before the target dropped); any other link is left as written."""
    from analyzer.report_site import _localise

    text = "see [t](t.csv), ![c](c.svg), [x](other.csv), [y]( t.csv) and (t.csv)"
    assert _localise(text, "p", ["p/t.csv", "p/c.svg"]) == (
        "see [t](p/t.csv), ![c](p/c.svg), [x](other.csv), [y](p/t.csv) and (t.csv)")


def test_an_image_alone_becomes_a_figure_tables_scroll_and_headings_step_down():
    """markdown-it's ``<p><img …/></p>`` becomes a figure captioned by its alt text with links
    to the SVG, then the PNG and the data CSV when the part wrote them; every table is wrapped
    in ``<div class='table'>``; h1 and h2 become h3."""
    from analyzer.report_site import _figures

    body = '<p><img src="p/c.svg" alt="It&#x27;s A &amp; B" /></p>'
    assert _figures(body, ["p/c.svg", "p/c.png", "p/c.data.csv"]) == (
        "<figure><img src='p/c.svg' alt='It&#x27;s A &amp; B'><figcaption>It&#x27;s A &amp; B"
        " · <a href='p/c.svg'>SVG</a> · <a href='p/c.png'>PNG</a> · "
        "<a href='p/c.data.csv'>data (CSV)</a></figcaption></figure>")
    assert _figures(body, ["p/c.svg"]) == (
        "<figure><img src='p/c.svg' alt='It&#x27;s A &amp; B'><figcaption>It&#x27;s A &amp; B"
        " · <a href='p/c.svg'>SVG</a></figcaption></figure>")
    assert _figures('<p>x <img src="a.svg" alt="" /></p>', []) == \
        '<p>x <img src="a.svg" alt="" /></p>'
    assert _figures("<table>x</table><table>y</table>", []) == \
        "<div class='table'><table>x</table></div><div class='table'><table>y</table></div>"
    assert _figures("<h1>a</h1><h2>b</h2><h4>c</h4>", []) == "<h3>a</h3><h3>b</h3><h4>c</h4>"


def test_markdown_escapes_raw_html_and_reads_pipe_tables():
    from analyzer.report_site import inline_html, markdown_html

    assert markdown_html("<b>x</b>") == "<p>&lt;b&gt;x&lt;/b&gt;</p>\n"
    assert markdown_html("| a |\n|---|\n| 1 |\n").startswith("<table>\n<thead>\n<tr>\n<th>a</th>")
    assert inline_html("`x` and *y*") == "<code>x</code> and <em>y</em>"


def test_how_this_was_computed_box():
    """The method sentence (``meta["how"]``, else exact or Monte Carlo words), the part seed
    with the part's place, the parameters in words (HTML-escaped; left out when there are
    none), the kind and the manifest's link."""
    from analyzer.report_site import how_box, how_text

    assert how_text({"meta": {"how": "By `hand`.", "exact": True}}) == "By `hand`."
    assert how_text({"meta": {"exact": True}}) == "Exact computation; no sampling."
    assert how_text({"meta": {"exact": False}}) == \
        "Monte Carlo; every figure with its 95% interval and n."
    assert how_text({}) == "Monte Carlo; every figure with its 95% interval and n."
    m = {"seed": 12, "kind": "pig.solve", "name": "s", "params": {"bot": "a<b", "goal": 20},
         "meta": {"how": "By `hand`."}}
    assert how_box(m, 3) == (
        "<aside class='how'><strong>How this was computed.</strong> By <code>hand</code>. "
        "Part seed 12 (SeedSequence of the report's seed and the part's place, 3). "
        "Parameters: bot a&lt;b; goal 20. Kind <code>pig.solve</code>; "
        "<a href='parts/s.json'>manifest with every figure (JSON)</a>.</aside>")
    assert how_box({"seed": 1, "kind": "k", "name": "<n>", "meta": {"exact": True}}, 0) == (
        "<aside class='how'><strong>How this was computed.</strong> Exact computation; no "
        "sampling. Part seed 1 (SeedSequence of the report's seed and the part's place, 0). "
        "Kind <code>k</code>; <a href='parts/&lt;n&gt;.json'>manifest with every figure "
        "(JSON)</a>.</aside>")


def test_a_parts_section_line_by_line():
    """Title, the findings left over from the top of the page, the summary with its chart as a
    figure, a chart the summary does not place (once, captioned by the part's title), the data
    CSVs by their names inside the part's folder (not the charts' data), the how box."""
    from analyzer.report_site import part_html

    m = {"name": "p", "title": "T & U", "seed": 7, "kind": "pig.x", "params": {}, "meta": {},
         "files": ["p/c.svg", "p/c.png", "p/t.csv", "p/c.data.csv", "p/extra.svg",
                   "p/sub/u.csv"],
         "summary": "Line **bold**.\n\n![Chart](c.svg)\n"}
    assert part_html(m, 2, ["M<1"]).split("\n") == [
        "<section class='part' id='p'>",
        "<h2>T &amp; U</h2>",
        "<ul class='more'><li>M&lt;1</li></ul>",
        "<p>Line <strong>bold</strong>.</p>",
        "<figure><img src='p/c.svg' alt='Chart'><figcaption>Chart · <a href='p/c.svg'>SVG</a>"
        " · <a href='p/c.png'>PNG</a> · <a href='p/c.data.csv'>data (CSV)</a></figcaption>"
        "</figure>",
        "",
        "<figure><img src='p/extra.svg' alt='T &amp; U'><figcaption>T &amp; U · "
        "<a href='p/extra.svg'>SVG</a></figcaption></figure>",
        "",
        "<p class='meta'>Data (CSV): <a href='p/t.csv'>t.csv</a> · "
        "<a href='p/sub/u.csv'>sub/u.csv</a></p>",
        "<aside class='how'><strong>How this was computed.</strong> Monte Carlo; every figure "
        "with its 95% interval and n. Part seed 7 (SeedSequence of the report's seed and the "
        "part's place, 2). Kind <code>pig.x</code>; <a href='parts/p.json'>manifest with every "
        "figure (JSON)</a>.</aside>",
        "</section>"]
    bare = {"name": "q", "title": "Q", "seed": 1, "kind": "k", "meta": {}, "files": [],
            "summary": "S"}
    assert part_html(bare, 0, []).split("\n")[:4] == [
        "<section class='part' id='q'>", "<h2>Q</h2>", "<p>S</p>", ""]


def test_the_bar_on_every_page_and_short_titles():
    """Without a site: the plain bar. With one: the index and each game's page (its short
    title), ``up`` before every link, the current page marked."""
    from analyzer.report_site import header_html, short_title

    assert header_html(None, "pig", "../") == header_html([], "pig", "../") == (
        "<header class='site'><div class='bar'><span class='home'>pushluck report</span></div>"
        "</header>")
    site = [("pig", "Pig: hold or roll?"), ("ten", "Ten & more")]
    assert header_html(site, "ten", "../") == (
        "<header class='site'><div class='bar'><a class='home' href='../index.html'>pushluck "
        "reports</a><nav><a href='../pig/index.html'>Pig</a><a href='../ten/index.html' "
        "aria-current='page'>Ten &amp; more</a></nav></div></header>")
    assert header_html(site[:1], None, "") == (
        "<header class='site'><div class='bar'><a class='home' href='index.html'>pushluck "
        "reports</a><nav><a href='pig/index.html'>Pig</a></nav></div></header>")
    assert short_title("Trash Pandas: stop or roll?") == "Trash Pandas"
    assert short_title("  Pig  ") == "Pig"
    assert short_title("A: b: c") == "A"


def test_the_html_document_around_a_page():
    from analyzer.report_site import _document

    assert _document("A<B", "style.css", "H", "M") == (
        "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>\n"
        "<title>A&lt;B</title>\n<link rel='stylesheet' href='style.css'>\n</head>\n<body>\nH\n"
        "<main>\nM\n</main>\n</body>\n</html>\n")


def test_package_versions_name_each_package_or_say_not_installed(monkeypatch):
    from importlib import metadata

    from analyzer import report_site

    def version(pkg):
        if pkg == "pandas":
            raise metadata.PackageNotFoundError(pkg)
        return f"v-{pkg}"

    monkeypatch.setattr(metadata, "version", version)
    monkeypatch.setattr(report_site.platform, "python_version", lambda: "3.99.1")
    assert report_site.package_versions() == {
        "python": "3.99.1", "pushluck": "v-pushluck", "numpy": "v-numpy", "numba": "v-numba",
        "pandas": "not installed", "matplotlib": "v-matplotlib", "typer": "v-typer"}


def test_the_style_sheet_is_written_only_when_it_differs(tmp_path):
    from analyzer.report_site import write_style
    from analyzer.site_style import CSS

    write_style(tmp_path)
    css = tmp_path / "style.css"
    assert css.read_text() == CSS
    import os

    os.utime(css, ns=(10**9, 10**9))
    write_style(tmp_path)
    assert css.stat().st_mtime_ns == 10**9  # the same sheet: left untouched
    css.write_text("old")
    write_style(tmp_path)
    assert css.read_text() == CSS


# ============================================================ report_site.py: the pages
def _recipe_obj(description="Two\n  *lines*", rules=None, parts=None, title="Pig: hold?"):
    from analyzer.report import Recipe

    return Recipe(Path("/nowhere/pig.toml"), title, "pig", 5,
                  {"goal": 30} if rules is None else rules,
                  parts if parts is not None else [{"name": "b"}, {"name": "a"}], description)


def _fixed_versions(monkeypatch):
    from analyzer import report_site

    monkeypatch.setattr(report_site, "package_versions", lambda: {"python": "3.x", "numpy": "1"})


PAGE_A = {"name": "a", "title": "Part A", "files": ["a/t.csv"], "summary": "Sum A: [t](t.csv)",
          "seed": 11, "kind": "pig.x", "params": {"games": 3},
          "meta": {"findings": [{"text": "F1", "priority": 2}], "exact": True}}
PAGE_B = {"name": "b", "title": "Part B", "files": [], "summary": "Sum B\n\n", "seed": 22,
          "kind": "pig.y", "params": {}, "meta": {
              "how": "Planted.", "findings": [{"text": f"G{i}", "priority": 3}
                                              for i in range(1, 9)]}}
HTML_HEAD = ("<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
             "<meta name='viewport' content='width=device-width, initial-scale=1'>\n")


def test_a_game_page_in_markdown_line_by_line(tmp_path, monkeypatch):
    """index.md: title, description, every finding, each part (title, localised summary, the
    how line with its seed and parameters), then the facts: house rules, the seed rule, the
    command that reproduces it, the versions."""
    from analyzer.report_site import write_index

    _fixed_versions(monkeypatch)
    write_index(_recipe_obj(), 5, tmp_path, [PAGE_A, PAGE_B])
    md = (tmp_path / "index.md").read_text().split("\n")
    assert md == (["# Pig: hold?", "", "Two", "  *lines*", "", "## Findings", "", "- F1"]
                  + [f"- G{i}" for i in range(1, 9)]
                  + ["", "## Part A", "", "Sum A: [t](a/t.csv)", "",
                     "*How this was computed: Exact computation; no sampling. Part seed 11; "
                     "parameters: games 3.*", "",
                     "## Part B", "", "Sum B", "",
                     "*How this was computed: Planted. Part seed 22.*", "",
                     "## About this report", "",
                     "- House rules: goal = 30.",
                     "- Report seed 5; part i is seeded with SeedSequence([seed, i]), shown in "
                     "its box.",
                     "- Reproduce: `pushluck report pig --seed 5` (the same seed gives the "
                     "same files, byte for byte).",
                     "- Versions: python 3.x, numpy 1.", ""])


def test_a_game_page_in_html_line_by_line(tmp_path, monkeypatch):
    """index.html: the bar (this page current), title, the description as one line, the first
    8 findings and a note that more open the sections, the table of contents, each part's
    section with its place in the recipe (b is the recipe's first part, a its second) and the
    finding left over in its own section, the facts as a footer; style.css beside it."""
    from analyzer.report_site import write_index

    _fixed_versions(monkeypatch)
    write_index(_recipe_obj(), 5, tmp_path, [PAGE_A, PAGE_B],
                [("pig", "Pig: hold?"), ("ten", "Ten")])
    assert (tmp_path / "style.css").is_file()
    lines = (tmp_path / "index.html").read_text().split("\n")
    assert lines == HTML_HEAD.split("\n")[:-1] + [
        "<title>Pig: hold?</title>", "<link rel='stylesheet' href='style.css'>", "</head>",
        "<body>",
        "<header class='site'><div class='bar'><a class='home' href='../index.html'>pushluck "
        "reports</a><nav><a href='../pig/index.html' aria-current='page'>Pig</a>"
        "<a href='../ten/index.html'>Ten</a></nav></div></header>",
        "<main>",
        "<h1>Pig: hold?</h1>",
        "<p class='lede'>Two <em>lines</em></p>",
        "<section class='findings'><h2>Findings</h2><ul><li>F1</li>"
        + "".join(f"<li>G{i}</li>" for i in range(1, 8))
        + "</ul><p class='meta'>More findings open each section below.</p></section>",
        "<nav class='toc'>On this page: <a href='#a'>Part A</a> <a href='#b'>Part B</a></nav>",
        "<section class='part' id='a'>", "<h2>Part A</h2>",
        "<p>Sum A: <a href=\"a/t.csv\">t</a></p>", "",
        "<p class='meta'>Data (CSV): <a href='a/t.csv'>t.csv</a></p>",
        "<aside class='how'><strong>How this was computed.</strong> Exact computation; no "
        "sampling. Part seed 11 (SeedSequence of the report's seed and the part's place, 1). "
        "Parameters: games 3. Kind <code>pig.x</code>; <a href='parts/a.json'>manifest with "
        "every figure (JSON)</a>.</aside>",
        "</section>",
        "<section class='part' id='b'>", "<h2>Part B</h2>", "<ul class='more'><li>G8</li></ul>",
        "<p>Sum B</p>", "",
        "<aside class='how'><strong>How this was computed.</strong> Planted. Part seed 22 "
        "(SeedSequence of the report's seed and the part's place, 0). Kind <code>pig.y</code>; "
        "<a href='parts/b.json'>manifest with every figure (JSON)</a>.</aside>",
        "</section>",
        "<footer><ul><li>House rules: goal = 30.</li><li>Report seed 5; part i is seeded with "
        "SeedSequence([seed, i]), shown in its box.</li><li>Reproduce: <code>pushluck report "
        "pig --seed 5</code> (the same seed gives the same files, byte for byte).</li>"
        "<li>Versions: python 3.x, numpy 1.</li><li>The same page as Markdown: "
        "<a href='index.md'>index.md</a>.</li></ul></footer>",
        "</main>", "</body>", "</html>", ""]


def test_a_page_without_findings_description_or_house_rules(tmp_path, monkeypatch):
    """No findings: one line says so (and no "more findings" note); no description: no lede
    (nor its Markdown lines); no house rules: "the published defaults". A part not in the
    recipe keeps its place on the page as its index; a manifest without parameters has none
    to say."""
    from analyzer.report_site import write_index

    _fixed_versions(monkeypatch)
    part = {**{k: v for k, v in PAGE_B.items() if k != "params"}, "meta": {"how": "Planted."}}
    write_index(_recipe_obj(description="", rules={}, parts=[{"name": "zz"}]), 9, tmp_path,
                [part])
    md = (tmp_path / "index.md").read_text().split("\n")
    assert md[:8] == ["# Pig: hold?", "", "## Findings", "", "", "## Part B", "", "Sum B"]
    assert "- House rules: the published defaults." in md
    assert "- Reproduce: `pushluck report pig --seed 9` (the same seed gives the same files, "\
        "byte for byte)." in md
    html = (tmp_path / "index.html").read_text()
    assert "lede" not in html and "More findings" not in html
    assert ("<h1>Pig: hold?</h1>\n<section class='findings'><h2>Findings</h2><ul><li>This "
            "report's parts state no findings; each section below gives its figures.</li></ul>"
            "</section>\n") in html
    assert "<header class='site'><div class='bar'><span class='home'>pushluck report</span>" \
        "</div></header>" in html
    assert "the part's place, 0)" in html
    assert "<li>House rules: the published defaults.</li>" in html


def test_the_page_of_an_unfinished_report(tmp_path):
    """While parts are missing both pages say how many of how many are written, which, and the
    command that finishes the report; the HTML title says "(incomplete)"."""
    from analyzer.report_site import write_pending_index

    rec = _recipe_obj()
    line = ("This report is incomplete: 1 of 2 part(s) are written (a); a run is computing the "
            "rest or was interrupted. Run `pushluck report pig --seed 7` with the same --out to "
            "finish it.")
    write_pending_index(rec, 7, tmp_path, [{"name": "a"}], [("pig", "Pig: hold?")])
    assert (tmp_path / "index.md").read_text() == f"# Pig: hold?\n\n{line}\n"
    assert (tmp_path / "style.css").is_file()
    assert (tmp_path / "index.html").read_text() == HTML_HEAD + (
        "<title>Pig: hold? (incomplete)</title>\n<link rel='stylesheet' href='style.css'>\n"
        "</head>\n<body>\n<header class='site'><div class='bar'><a class='home' "
        "href='../index.html'>pushluck reports</a><nav><a href='../pig/index.html' "
        "aria-current='page'>Pig</a></nav></div></header>\n<main>\n<h1>Pig: hold?</h1>\n"
        "<p>This report is incomplete: 1 of 2 part(s) are written (a); a run is computing the "
        "rest or was interrupted. Run <code>pushluck report pig --seed 7</code> with the same "
        "--out to finish it.</p>\n\n</main>\n</body>\n</html>\n")
    write_pending_index(rec, 7, tmp_path, [])
    assert "0 of 2 part(s) are written (none);" in (tmp_path / "index.md").read_text()


def test_the_site_index_line_by_line(tmp_path):
    """One card per report: its title linking its page, at most 3 findings, the number of
    parts and the seed, the key chart as a thumbnail when there is one; the Markdown lists the
    same; the bar links every game's page from the top."""
    from analyzer.report_site import write_top_index

    results = [{"out": str(tmp_path / "pig"), "title": "Pig: hold?", "seed": 5,
                "findings": ["F1", "F2", "F3", "F4"], "key_chart": "a/c.png",
                "parts": ["a", "b"]},
               {"out": str(tmp_path / "ten"), "title": "Ten", "seed": 7, "findings": [],
                "key_chart": None, "parts": ["x"]}]
    write_top_index(tmp_path, results)
    assert (tmp_path / "style.css").is_file()
    assert (tmp_path / "index.md").read_text() == (
        "# pushluck reports\n\nOne page per game: what the analysis found, with every Monte "
        "Carlo figure's interval and sample size.\n\n## [Pig: hold?](pig/index.md)\n\n- F1\n"
        "- F2\n- F3\n\n## [Ten](ten/index.md)\n\n\n")
    assert (tmp_path / "index.html").read_text() == HTML_HEAD + (
        "<title>pushluck reports</title>\n<link rel='stylesheet' href='style.css'>\n</head>\n"
        "<body>\n<header class='site'><div class='bar'><a class='home' href='index.html'>"
        "pushluck reports</a><nav><a href='pig/index.html'>Pig</a><a href='ten/index.html'>"
        "Ten</a></nav></div></header>\n<main>\n"
        "<h1>pushluck reports</h1><p class='lede'>One page per game: what the analysis found, "
        "with every Monte Carlo figure's 95% interval and sample size. Each page opens with its "
        "findings; the tables and charts below them show the figures behind each one, and the "
        "CSV files hold the data.</p><div class='cards'>"
        "<div class='card'><div class='text'><h2><a href='pig/index.html'>Pig: hold?</a></h2>"
        "<ul><li>F1</li><li>F2</li><li>F3</li></ul><p class='meta'>2 parts · report seed 5 · "
        "<a href='pig/index.html'>read the report</a></p></div><a class='thumb' "
        "href='pig/index.html'><img src='pig/a/c.png' alt='Pig: key chart'></a></div>"
        "<div class='card'><div class='text'><h2><a href='ten/index.html'>Ten</a></h2>"
        "<p class='meta'>1 parts · report seed 7 · <a href='ten/index.html'>read the report"
        "</a></p></div></div></div>\n</main>\n</body>\n</html>\n")


# ============================================================ report.py: kinds and recipes
GAMES = "trash-pandas, ten, magdagdon, gostop, canasta, pig"  # CONVENTIONS.md's list of games


def _planted_kinds(monkeypatch, calls=None, **extra):
    """Pig's part kinds replaced by stand-ins: ``one`` (an int parameter ``k`` in 0..9; its
    files name the seed it got), ``two`` (no parameters; a file in a sub-folder)."""
    from analyzer import report as rep

    calls = [] if calls is None else calls

    def one(params, rules, seed):
        calls.append(("one", dict(params), dict(rules), seed))
        return rep.PartResult({"one.csv": f"seed,{seed}\n".encode()}, f"one {seed}",
                              {"n": np.int64(3)})

    def two(params, rules, seed):
        calls.append(("two", dict(params), dict(rules), seed))
        return rep.PartResult({"b.csv": b"b\n", "sub/a.md": b"a\n"}, "two")

    kinds = {"one": rep.PartKind("pig", "one", one, params={"k": rep.Param("int", 0, 9)}),
             "two": rep.PartKind("pig", "two", two), **extra}
    monkeypatch.setattr(rep, "game_parts", lambda game: kinds)
    return rep, calls


def _write(tmp_path, text, name="r.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


HEAD = 'title = "t"\ngame = "pig"\nseed = 3\n'


def test_part_kinds_by_name_and_their_refusals(monkeypatch):
    """``game.name``: an unknown game names every game; an unknown name lists the game's kinds
    (or "none"); the dataclasses' defaults."""
    from analyzer import report as rep

    assert refused(rep.part_kind, "chess.solve") == \
        f"unknown part kind 'chess.solve': no game 'chess' (games: {GAMES})"
    assert refused(rep.part_kind, "pig") == f"unknown part kind 'pig' (known: " + ", ".join(
        f"pig.{n}" for n in rep.game_parts("pig")) + ")"
    assert "pig.hold-thresholds" in rep.game_parts("pig").keys() | {
        f"pig.{n}" for n in rep.game_parts("pig")}
    assert rep.game_parts("pig")["hold-thresholds"].name == "hold-thresholds"
    _planted_kinds(monkeypatch)
    assert refused(rep.part_kind, "pig.three") == \
        "unknown part kind 'pig.three' (known: pig.one, pig.two)"
    assert rep.part_kind("pig.two").name == "two"
    monkeypatch.setattr(rep, "game_parts", lambda game: {})
    assert refused(rep.part_kind, "pig.one") == "unknown part kind 'pig.one' (known: none)"
    k = rep.PartKind("pig", "x", len)
    assert (k.description, k.params, k.check, k.tiny) == ("", None, None, None)
    assert rep.PartResult({}, "s").meta == {}


def test_a_worker_computes_one_part_with_its_arguments(monkeypatch):
    """What a Dask worker runs: one Numba thread per task, then the kind's compute with the
    parameters, rules and seed given."""
    import analyzer.cluster

    threads = []
    monkeypatch.setattr(analyzer.cluster, "one_numba_thread_per_task",
                        lambda: threads.append(1))
    rep, calls = _planted_kinds(monkeypatch)
    res = rep.compute_part("pig.one", {"k": 2}, {"goal": 30}, 99)
    assert threads == [1] and calls == [("one", {"k": 2}, {"goal": 30}, 99)]
    assert res.summary == "one 99"


def test_recipes_by_path_or_by_name(tmp_path, monkeypatch):
    """A ``.toml`` path that exists is taken as is; a plain name (lower case, digits, '_',
    '-', at most 64) is looked up in the recipe folder; anything else is refused naming the
    recipes there (sorted; "none"), a name over 80 characters cut with '…'."""
    from analyzer import report as rep

    own = _write(tmp_path, "x", "mine.toml")
    assert rep.recipe_path(str(own)) == own
    folder = tmp_path / "recipes"
    folder.mkdir()
    for n in ("beta", "alpha", "a" * 64):
        (folder / f"{n}.toml").write_text("x")
    monkeypatch.setattr(rep, "RECIPE_DIR", folder)
    assert rep.recipe_path("alpha") == folder / "alpha.toml"
    assert rep.recipe_path("a" * 64) == folder / f"{'a' * 64}.toml"
    listed = f"{'a' * 64}, alpha, beta"  # sorted: "aaa…" before "alpha"
    for bad in ("gamma", "Alpha", "-alpha", "alpha.toml", "../recipes/alpha"):
        assert refused(rep.recipe_path, bad) == \
            f"no recipe '{bad}' (a .toml file, or one of: {listed})"
    (folder / "_x.toml").write_text("x")  # a name the pattern refuses is never looked up
    assert refused(rep.recipe_path, "_x").startswith("no recipe '_x'")
    long = "b" * 81
    assert refused(rep.recipe_path, long) == \
        f"no recipe '{'b' * 80}…' (a .toml file, or one of: _x, {listed})"
    assert refused(rep.recipe_path, "b" * 80).startswith(f"no recipe '{'b' * 80}' (")
    too_long = "c" * 5000 + ".toml"
    assert refused(rep.recipe_path, too_long) == \
        f"cannot read the recipe {'c' * 80!r}…: File name too long"
    monkeypatch.setattr(rep, "RECIPE_DIR", tmp_path / "empty")
    assert refused(rep.recipe_path, "alpha") == \
        "no recipe 'alpha' (a .toml file, or one of: none)"


def test_available_recipes_follow_the_registry(tmp_path, monkeypatch):
    import analyzer.games
    from analyzer import report as rep

    for n in ("zz", "pig", "other"):
        (tmp_path / f"{n}.toml").write_text("x")
    monkeypatch.setattr(rep, "RECIPE_DIR", tmp_path)
    monkeypatch.setattr(analyzer.games, "game_keys", lambda: ("ten", "zz", "pig"))
    assert rep.available_recipes() == [tmp_path / "zz.toml", tmp_path / "pig.toml"]


def test_a_recipe_read_whole(tmp_path, monkeypatch):
    """Every field of the Recipe, parts as written (title kept when given, none added)."""
    rep, calls = _planted_kinds(monkeypatch)
    p = _write(tmp_path, HEAD + 'description = "About."\n[rules]\ngoal = 30\n'
               '[[parts]]\nname = "a"\nkind = "pig.one"\ntitle = "A"\n[parts.params]\nk = 9\n'
               '[[parts]]\nname = "B-2_x"\nkind = "pig.two"\n')
    r = rep.load_recipe(p)
    assert (r.path, r.title, r.game, r.seed, r.rules, r.description) == (
        p, "t", "pig", 3, {"goal": 30}, "About.")
    assert r.parts == [{"name": "a", "kind": "pig.one", "title": "A", "params": {"k": 9}},
                       {"name": "B-2_x", "kind": "pig.two", "params": {}}]
    assert calls == []  # nothing computed
    r = rep.load_recipe(_write(tmp_path, HEAD + '[[parts]]\nname = "a"\nkind = "pig.two"\n'))
    assert (r.rules, r.description) == ({}, "")


def test_a_recipes_refusals_word_for_word(tmp_path, monkeypatch):
    """Each field's refusal names the file and the field (pydantic's words for the schema's
    limits, the module's own for the rest)."""
    rep, _ = _planted_kinds(monkeypatch)

    def bad(text):
        p = _write(tmp_path, text)
        return refused(rep.load_recipe, p).replace(str(p), "R")

    part = '[[parts]]\nname = "a"\nkind = "pig.two"\n'
    for key in ("title", "game", "seed", "parts"):
        lines = [x for x in (HEAD + part).split("\n") if not x.startswith(key)]
        if key == "parts":
            lines = HEAD.split("\n")
        assert bad("\n".join(lines)) == f"R: missing '{key}'"
    assert bad(HEAD.replace('"t"', '""') + part) == \
        "R: title: String should have at least 1 character"
    assert bad(HEAD.replace('"t"', f'"{"t" * 201}"') + part) == \
        "R: title: String should have at most 200 characters"
    assert bad(HEAD.replace("seed = 3", "seed = -1") + part) == \
        "R: seed: Input should be greater than or equal to 0"
    assert bad(HEAD.replace("seed = 3", 'seed = "3"') + part) == \
        "R: seed: Input should be a valid integer"
    assert bad(HEAD.replace("seed = 3", "seed = true") + part) == \
        "R: seed: Input should be a valid integer"
    assert bad(HEAD + "parts = []\n") == "R: parts: List should have at least 1 item after " \
        "validation, not 0"
    assert bad(HEAD + part * 101).startswith("R: parts: List should have at most 100 items")
    assert bad(HEAD + f'description = "{"d" * 5001}"\n' + part) == \
        "R: description: String should have at most 5000 characters"
    assert bad(HEAD + "colour = 1\n" + part) == "R: colour: Extra inputs are not permitted"
    assert bad(HEAD + part + "extra = 1\n") == "R: parts.0.extra: Extra inputs are not permitted"
    assert bad(HEAD + part.replace('"a"', '"-a"')).startswith(
        "R: parts.0.name: String should match pattern")
    assert bad(HEAD + part.replace('"a"', f'"{"a" * 65}"')).startswith(
        "R: parts.0.name: String should match pattern")
    assert bad(HEAD + part.replace("pig.two", "Pig.two")).startswith(
        "R: parts.0.kind: String should match pattern")
    assert bad(HEAD + part.replace("pig.two", "pig.two" + "x" * 74)) == \
        "R: parts.0.kind: String should have at most 80 characters"
    assert bad(HEAD + part + f'title = "{"x" * 201}"\n') == \
        "R: parts.0.title: String should have at most 200 characters"
    assert bad(HEAD.replace('"pig"', '"chess"') + part) == \
        f"R: game: unknown game 'chess' (games: {GAMES})"
    assert bad(HEAD + "[rules]\ngaol = 1\n" + part).startswith("R: rules: unknown rule 'gaol'")
    assert bad(HEAD + part + part.replace('"a"', '"A"')) == \
        "R: part name 'A' used twice (letter case aside)"
    assert bad(HEAD + part.replace('"a"', '"parts"')) == (
        "R: part name 'parts' is reserved (the report keeps its manifests there); choose "
        "another name")
    assert bad(HEAD + part.replace("pig.two", "ten.two")) == \
        "R: part 'a': kind 'ten.two' is not a pig part"
    assert bad(HEAD + part.replace("pig.two", "pigs.two")) == \
        "R: part 'a': kind 'pigs.two' is not a pig part"
    assert bad(HEAD + part.replace("pig.two", "pig.three")) == \
        "R: part 'a': unknown part kind 'pig.three' (known: pig.one, pig.two)"
    assert bad(HEAD + part + "[parts.params]\nk = 1\n") == \
        "R: parts.a.params.k: unknown parameter (known: none)"
    one = part.replace("pig.two", "pig.one") + "[parts.params]\nk = 10\n"
    assert bad(HEAD + one) == "R: parts.a.params.k = 10 is outside 0..9"


def test_limits_a_recipe_accepts(tmp_path, monkeypatch):
    """The schema's edges: a 200-character title, seed 0 and 2**63 - 1, 100 parts, a
    64-character part name, an 80-character kind, a 5000-character description."""
    from analyzer.report import PartKind

    long = "two" + "x" * 73  # "pig." + 76 = 80 characters
    rep, _ = _planted_kinds(monkeypatch, **{long: PartKind("pig", long, len)})
    parts = "".join(f'[[parts]]\nname = "p{i}"\nkind = "pig.two"\n' for i in range(100))
    r = rep.load_recipe(_write(tmp_path, HEAD.replace('"t"', f'"{"t" * 200}"')
                               .replace("seed = 3", "seed = 0")
                               + f'description = "{"d" * 5000}"\n' + parts))
    assert len(r.parts) == 100 and r.seed == 0 and len(r.title) == 200
    r = rep.load_recipe(_write(tmp_path, HEAD.replace("seed = 3", f"seed = {2**63 - 1}")
                               + f'[[parts]]\nname = "{"a" * 64}"\n'
                               f'kind = "pig.two{"x" * 73}"\n'))
    assert r.seed == 2**63 - 1 and r.parts[0]["name"] == "a" * 64


def test_a_parts_own_check_runs_on_the_recipe(tmp_path, monkeypatch):
    """The kind's ``check(params, rules)`` gets a copy of the part's parameters and the
    recipe's rules; its refusal is prefixed by the file and the part."""
    from analyzer import report as rep

    seen = []

    def check(params, rules):
        seen.append((params, rules))
        if params.get("k") == 5:
            raise UserError("k cannot be 5 here")

    rep_, _ = _planted_kinds(monkeypatch, three=rep.PartKind(
        "pig", "three", len, params={"k": rep.Param("int", 0, 9)}, check=check))
    text = HEAD + '[rules]\ngoal = 30\n[[parts]]\nname = "c"\nkind = "pig.three"\n' \
                  '[parts.params]\nk = {k}\n'
    rep.load_recipe(_write(tmp_path, text.format(k=4)))
    assert seen == [({"k": 4}, {"goal": 30})]
    p = _write(tmp_path, text.format(k=5))
    assert refused(rep.load_recipe, p) == f"{p}: parts.c: k cannot be 5 here"


def test_house_rules_are_checked_by_the_games_rules(tmp_path):
    from analyzer.report import check_rules

    check_rules(Path("R"), "pig", {"goal": 30})
    assert refused(check_rules, Path("R"), "pig", {"goal": "ten"}).startswith("R: rules: ")
    assert "goal" in refused(check_rules, Path("R"), "pig", {"goal": "ten"})


# ============================================================ report.py: seeds and sizes
def test_part_seeds_and_tiny_sizes(monkeypatch):
    """Part i of seed S: the first 64-bit word of SeedSequence([S, i]) shifted right by one
    (63 bits). Under PUSHLUCK_REPORT_TINY=1 (exactly "1") the kind's tiny parameters are laid
    over the recipe's; otherwise the recipe's are used as given (a copy)."""
    from analyzer import report as rep

    word = np.random.SeedSequence([7, 2]).generate_state(1, np.uint64)[0]
    assert rep.part_seed(7, 2) == int(word) // 2 and type(rep.part_seed(7, 2)) is int
    assert rep.part_seed(7, 0) != rep.part_seed(7, 1) != rep.part_seed(8, 1)
    assert 0 <= rep.part_seed(7, 2) < 2**63
    _planted_kinds(monkeypatch)
    rep.game_parts("pig")["one"].tiny = {"k": 1, "games": 10}
    for value in ("", "0", "yes", "11"):
        monkeypatch.setenv("PUSHLUCK_REPORT_TINY", value)
        assert rep.tiny_sizes() is False
        params = {"k": 5}
        out = rep.run_params("pig.one", params)
        assert out == {"k": 5} and out is not params
    monkeypatch.delenv("PUSHLUCK_REPORT_TINY")
    assert rep.tiny_sizes() is False
    monkeypatch.setenv("PUSHLUCK_REPORT_TINY", "1")
    assert rep.tiny_sizes() is True
    params = {"k": 5, "bot": "x"}
    assert rep.run_params("pig.one", params) == {"k": 1, "games": 10, "bot": "x"}
    assert params == {"k": 5, "bot": "x"}
    assert rep.run_params("pig.two", {"k": 5}) == {"k": 5}  # no tiny sizes declared


def test_a_parts_fingerprint_holds_its_inputs_and_the_versions():
    """SHA-256 of the sorted JSON of kind, params, rules, seed, the folder layout (2) and the
    results version (3): each input changes it."""
    from analyzer import report as rep

    text = json.dumps({"kind": "pig.one", "params": {"k": 1}, "rules": {"goal": 30},
                       "seed": 9, "layout": 2, "results": 3}, sort_keys=True)
    fp = rep._fingerprint("pig.one", {"k": 1}, {"goal": 30}, 9)
    assert fp == hashlib.sha256(text.encode()).hexdigest()
    others = {rep._fingerprint("pig.two", {"k": 1}, {"goal": 30}, 9),
              rep._fingerprint("pig.one", {"k": 2}, {"goal": 30}, 9),
              rep._fingerprint("pig.one", {"k": 1}, {"goal": 31}, 9),
              rep._fingerprint("pig.one", {"k": 1}, {"goal": 30}, 10)}
    assert len(others) == 4 and fp not in others
    assert rep._sha256(b"abc") == \
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_json_of_numpy_scalars_and_nothing_else():
    from analyzer.report import _json_default

    assert _json_default(np.int64(3)) == 3 and type(_json_default(np.int64(3))) is int
    assert _json_default(np.float32(0.5)) == 0.5
    with pytest.raises(TypeError, match="^set$"):
        _json_default({1})


def test_a_report_folder_inside_the_root_of_report_all(tmp_path):
    """With a root, the folder is made directly inside it; a link there is refused."""
    from analyzer.report import report_folder

    root = tmp_path / "all"
    assert report_folder(root / "pig", root) == root / "pig" and (root / "pig").is_dir()
    assert report_folder(tmp_path / "solo") == tmp_path / "solo"
    (tmp_path / "elsewhere").mkdir()
    (root / "ten").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(UserError):
        report_folder(root / "ten", root)


def test_only_dead_runs_section_folders_are_removed(tmp_path, monkeypatch):
    """``pushluck-section-PID-XXX`` folders in the temporary folder go when PID has ended and
    is not this process; a live PID's, a name of another form, a link and a file stay."""
    import os
    import tempfile

    import analyzer.output
    from analyzer.report import _clean_section_folders

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(analyzer.output, "pid_alive", lambda pid: pid == 4242)
    me = os.getpid()
    for name in (f"pushluck-section-999999-ab_9", f"pushluck-section-{me}-x",
                 "pushluck-section-4242-x", "pushluck-section-12345678901-x",
                 "pushluck-section-999998-" + "a" * 17, "pushluck-section-999997-a.b",
                 "pushluck-section-999996-" + "a" * 16, "pushluck-section-1-x",
                 "pushluck-section--x"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "f").write_text("x")
    (tmp_path / "target").mkdir()
    (tmp_path / "pushluck-section-999995-link").symlink_to(tmp_path / "target")
    (tmp_path / "pushluck-section-999994-file").write_text("x")
    _clean_section_folders()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([
        f"pushluck-section-{me}-x", "pushluck-section-4242-x",
        "pushluck-section-12345678901-x", "pushluck-section-999998-" + "a" * 17,
        "pushluck-section-999997-a.b", "pushluck-section--x", "target",
        "pushluck-section-999995-link", "pushluck-section-999994-file"])


def test_a_section_part(monkeypatch):
    """A section part writes into a private ``pushluck-section-PID-`` folder and returns its
    files (sub-folders kept) as bytes with the section's summary; ``quick`` is passed as a
    bool (False by default) and recorded; house rules are refused."""
    import os

    from analyzer.report import Param, section_part

    seen = []

    def section(root, seed, quick):
        seen.append((root.name, seed, quick))
        (root / "sub").mkdir()
        (root / "sub" / "t.csv").write_bytes(b"1\n")
        (root / "a.md").write_text("A")
        return "summary"

    kind = section_part("pig", section)
    assert (kind.game, kind.name, kind.description) == (
        "pig", "section", "the game's default analysis")
    assert kind.params == {"quick": Param("bool")}
    res = kind.compute({}, {}, 5)
    assert res.files == {"a.md": b"A", "sub/t.csv": b"1\n"} and res.summary == "summary"
    assert res.meta == {"quick": False}
    assert seen[0][0].startswith(f"pushluck-section-{os.getpid()}-") and seen[0][1:] == (5, False)
    assert kind.compute({"quick": 1}, {}, 6).meta == {"quick": True} and seen[1][1:] == (6, True)
    kind.check({}, {})
    other = section_part("ten", section, "other", "words")
    assert (other.name, other.description) == ("other", "words")
    assert refused(other.check, {}, {"goal": 1}) == \
        "the ten.other part takes no [rules] overrides (it reports the default rules)"
    assert refused(kind.compute, {}, {"goal": 1}, 5).startswith("the pig.section part takes")


# ============================================================ report.py: a run
TWO_PARTS = HEAD + ('[[parts]]\nname = "a"\nkind = "pig.one"\ntitle = "A"\n[parts.params]\n'
                    'k = 4\n[[parts]]\nname = "b"\nkind = "pig.two"\n')


def _seed(seed, i):
    """SeedSequence([seed, i]) → 63 bits, by hand."""
    return int(np.random.SeedSequence([seed, i]).generate_state(1, np.uint64)[0]) >> 1


def _fp(kind, params, rules, seed):
    text = json.dumps({"kind": kind, "params": params, "rules": rules, "seed": seed,
                       "layout": 2, "results": 3}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_run_writes_every_part_its_manifest_and_answers_every_field(tmp_path, monkeypatch,
                                                                      capsys):
    """Two stand-in parts: each computed once with its parameters and seed, its files under its
    folder (sorted), its manifest with every field (the title defaults to the name; NumPy
    scalars as numbers), the answer's fields, one line per part started and written; while a
    part is computed the index says which parts are written."""
    rep, calls = _planted_kinds(monkeypatch)
    out = tmp_path / "out"
    pages = []
    real_two = rep.game_parts("pig")["two"].compute

    def two(params, rules, seed):
        pages.append((out / "index.md").read_text())
        return real_two(params, rules, seed)

    rep.game_parts("pig")["two"].compute = two
    p = _write(tmp_path, TWO_PARTS)
    capsys.readouterr()
    res = rep.run_recipe(rep.load_recipe(p), out)
    s0, s1 = _seed(3, 0), _seed(3, 1)
    assert calls == [("one", {"k": 4}, {}, s0), ("two", {}, {}, s1)]
    assert res == {"recipe": str(p), "title": "t", "game": "pig", "seed": 3, "out": str(out),
                   "parts": ["a", "b"], "skipped": 0, "computed": 2, "findings": [],
                   "key_chart": None,
                   "files": ["index.md", "index.html", "style.css", "a/one.csv", "b/b.csv",
                             "b/sub/a.md"]}
    assert capsys.readouterr().err.split("\n") == [
        "report: computing a (pig.one) …", "report: [1/2] a written",
        "report: computing b (pig.two) …", "report: [2/2] b written", ""]
    assert pages == ["# t\n\nThis report is incomplete: 1 of 2 part(s) are written (a); a run "
                     "is computing the rest or was interrupted. Run `pushluck report r --seed 3` "
                     "with the same --out to finish it.\n"]
    assert (out / "a" / "one.csv").read_bytes() == f"seed,{s0}\n".encode()
    assert (out / "b" / "sub" / "a.md").read_bytes() == b"a\n"
    want_a = {"name": "a", "title": "A", "kind": "pig.one", "params": {"k": 4}, "seed": s0,
              "fingerprint": _fp("pig.one", {"k": 4}, {}, s0), "files": ["a/one.csv"],
              "sha256": {"a/one.csv": hashlib.sha256(f"seed,{s0}\n".encode()).hexdigest()},
              "summary": f"one {s0}", "meta": {"n": 3}}
    assert (out / "parts" / "a.json").read_text() == json.dumps(want_a, indent=2,
                                                                sort_keys=True)
    b = json.loads((out / "parts" / "b.json").read_text())
    assert (b["title"], b["files"], b["meta"]) == ("b", ["b/b.csv", "b/sub/a.md"], {})
    assert json.loads((out / ".pushluck-report.json").read_text()) == {
        "recipe": "r", "game": "pig", "seed": 3, "rules": {}, "layout": 2}
    assert (out / "index.md").read_text().startswith("# t\n\n## Findings\n")


def test_a_rerun_reuses_parts_and_follows_a_new_title(tmp_path, monkeypatch, capsys):
    """Same recipe: nothing computed, one line says so; a title changed in the recipe is
    recorded without computing; a folder that lost its identity file gets it back."""
    rep, calls = _planted_kinds(monkeypatch)
    out = tmp_path / "out"
    p = _write(tmp_path, TWO_PARTS)
    rep.run_recipe(rep.load_recipe(p), out)
    before = (out / "a" / "one.csv").stat().st_mtime_ns
    (out / ".pushluck-report.json").unlink()
    capsys.readouterr()
    res = rep.run_recipe(rep.load_recipe(p), out)
    assert (res["computed"], res["skipped"], len(calls)) == (0, 2, 2)
    assert capsys.readouterr().err == \
        "report: 2 part(s) already written with this seed, skipped (resume)\n"
    assert json.loads((out / ".pushluck-report.json").read_text())["seed"] == 3
    fp = json.loads((out / "parts" / "a.json").read_text())["fingerprint"]
    res = rep.run_recipe(rep.load_recipe(_write(tmp_path, TWO_PARTS.replace('"A"', '"A2"'))),
                         out)
    assert (res["computed"], len(calls)) == (0, 2)
    a = json.loads((out / "parts" / "a.json").read_text())
    assert (a["title"], a["fingerprint"]) == ("A2", fp)
    assert (out / "a" / "one.csv").stat().st_mtime_ns == before
    assert "## A2" in (out / "index.md").read_text()


def test_another_seed_replaces_the_report_and_says_so(tmp_path, monkeypatch, capsys):
    rep, calls = _planted_kinds(monkeypatch)
    out = tmp_path / "out"
    rec = rep.load_recipe(_write(tmp_path, TWO_PARTS))
    rep.run_recipe(rec, out)
    capsys.readouterr()
    res = rep.run_recipe(rec, out, seed=4)
    assert (res["seed"], res["computed"]) == (4, 2)
    assert calls[2:] == [("one", {"k": 4}, {}, _seed(4, 0)), ("two", {}, {}, _seed(4, 1))]
    err = " ".join(capsys.readouterr().err.split())  # wrapped at 80 columns
    assert err.startswith(
        f"report: --out {out} held the report of recipe 'r' with seed 3; this run replaces "
        f"it (nothing of it is reused; until every part is written the index says the report "
        f"is incomplete) report: computing a (pig.one) …")


def test_findings_and_key_chart_of_a_run(tmp_path, monkeypatch):
    from analyzer import report as rep

    def charted(params, rules, seed):
        return rep.PartResult({"c.png": b"png", "c.svg": b"svg"}, "s",
                              {"findings": [{"text": "X", "priority": 1}], "key_chart": "c"})

    _planted_kinds(monkeypatch, three=rep.PartKind("pig", "three", charted))
    p = _write(tmp_path, TWO_PARTS + '[[parts]]\nname = "c"\nkind = "pig.three"\n')
    res = rep.run_recipe(rep.load_recipe(p), tmp_path / "out")
    assert res["findings"] == ["X"] and res["key_chart"] == "c/c.png"
    assert res["parts"] == ["a", "b", "c"]


def test_a_shared_progress_bar_gets_each_parts_label(tmp_path, monkeypatch):
    """``report all``'s bar: labels prefixed by the recipe's name, reused parts counted
    without a line, the kind named only when the bar is off; the shared bar is not closed."""
    rep, _ = _planted_kinds(monkeypatch)

    class Bar:
        def __init__(self, enabled):
            self.enabled, self.log = enabled, []

        def start(self, label):
            self.log.append(("start", label))

        def advance(self, label, count=1, line=True):
            self.log.append(("advance", label, count, line))

        def close(self):
            self.log.append(("close",))

        def __enter__(self):
            self.log.append(("enter",))

    rec = rep.load_recipe(_write(tmp_path, TWO_PARTS))
    off = Bar(False)
    rep.run_recipe(rec, tmp_path / "o1", progress=off)
    assert off.log == [("advance", "r: 0 reused", 0, False), ("start", "r: a (pig.one)"),
                       ("advance", "r: a", 1, True), ("start", "r: b (pig.two)"),
                       ("advance", "r: b", 1, True)]
    on = Bar(True)
    rep.run_recipe(rec, tmp_path / "o2", progress=on)
    assert [x for x in on.log if x[0] == "start"] == [("start", "r: a"), ("start", "r: b")]
    again = Bar(False)
    rep.run_recipe(rec, tmp_path / "o2", progress=again)
    assert again.log == [("advance", "r: 2 reused", 2, False)]


def test_an_interrupted_run_records_the_finished_parts_only(tmp_path, monkeypatch):
    """Ctrl-C in part b: part a is recorded, b is not, and the refusal says so; a part whose
    computation marked the run interrupted is not recorded either."""
    from analyzer import report as rep
    from analyzer.errors import Interrupted, mark_interrupted, reset_interrupted

    def killed(params, rules, seed):
        raise KeyboardInterrupt

    _planted_kinds(monkeypatch)
    rep.game_parts("pig")["two"].compute = killed
    out = tmp_path / "out"
    rec = rep.load_recipe(_write(tmp_path, TWO_PARTS))
    with pytest.raises(Interrupted) as exc:
        rep.run_recipe(rec, out)
    assert str(exc.value) == (f"1 of 2 part(s) of 't' are written in {out}; the unfinished "
                              f"part was not recorded; rerun the same command to resume")
    assert (out / "parts" / "a.json").is_file() and not (out / "parts" / "b.json").exists()
    assert "1 of 2 part(s) are written (a)" in (out / "index.md").read_text()

    def marked(params, rules, seed):
        mark_interrupted()
        return rep.PartResult({"x.csv": b"x"}, "x")

    rep.game_parts("pig")["one"].compute = marked
    out2 = tmp_path / "out2"
    try:
        with pytest.raises(Interrupted, match="^0 of 2 part"):
            rep.run_recipe(rec, out2)
    finally:
        reset_interrupted()
    assert not (out2 / "parts" / "a.json").exists()


def test_parts_on_a_dask_scheduler(tmp_path, monkeypatch, capsys):
    """Each part is submitted as ``compute_part(kind, params, rules, seed)`` (not pure), and
    the bar names the scheduler."""
    import analyzer.cluster

    rep, calls = _planted_kinds(monkeypatch)
    submitted = []

    class Future:
        def __init__(self, fn, args):
            self.fn, self.args = fn, args

        def result(self):
            return self.fn(*self.args)

    class Client:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            submitted.append("closed")

        def submit(self, fn, *args, pure=True):
            submitted.append((fn, args, pure))
            return Future(fn, args)

    monkeypatch.setattr(analyzer.cluster, "client_for",
                        lambda address: submitted.append(address) or Client())
    monkeypatch.setattr(analyzer.cluster, "one_numba_thread_per_task", lambda: None)
    rec = rep.load_recipe(_write(tmp_path, TWO_PARTS.replace("goal", "goal")))
    capsys.readouterr()
    res = rep.run_recipe(rec, tmp_path / "out", scheduler="tcp://h:1")
    s0, s1 = _seed(3, 0), _seed(3, 1)
    assert submitted == ["tcp://h:1", (rep.compute_part, ("pig.one", {"k": 4}, {}, s0), False),
                         (rep.compute_part, ("pig.two", {}, {}, s1), False), "closed"]
    assert calls == [("one", {"k": 4}, {}, s0), ("two", {}, {}, s1)]
    assert res["computed"] == 2
    assert capsys.readouterr().err.split("\n")[:2] == ["report: computing a on tcp://h:1 …",
                                                       "report: [1/2] a written"]


def test_a_report_inside_report_alls_folder_links_the_site(tmp_path, monkeypatch):
    """The pages of a report of ``report all`` link every game's page: the finished page and
    the unfinished one shown while a part is computed (before the first part and after it)."""
    rep, _ = _planted_kinds(monkeypatch)
    root = tmp_path / "all"
    pages = []
    real_two = rep.game_parts("pig")["two"].compute

    def two(params, rules, seed):
        pages.append((root / "r" / "index.html").read_text())
        return real_two(params, rules, seed)

    rep.game_parts("pig")["two"].compute = two
    rec = rep.load_recipe(_write(tmp_path, TWO_PARTS))
    res = rep.run_recipe(rec, root / "r", root=root, site=[("r", "t"), ("ten", "Ten")])
    assert res["out"] == str(root / "r")
    nav = ("<nav><a href='../r/index.html' aria-current='page'>t</a><a href='../ten/index."
           "html'>Ten</a></nav>")
    assert nav in (root / "r" / "index.html").read_text()
    assert len(pages) == 1 and nav in pages[0] and "(incomplete)" in pages[0]
    shown = []
    rep.game_parts("pig")["one"].compute = lambda p, r, s: shown.append(
        (root / "q" / "index.html").read_text()) or rep.PartResult({}, "x")
    rep.run_recipe(rep.load_recipe(_write(tmp_path, HEAD + '[[parts]]\nname = "a"\n'
                                          'kind = "pig.one"\n', "q.toml")), root / "q",
                   root=root, site=[("q", "t")])
    assert "<nav><a href='../q/index.html' aria-current='page'>t</a></nav>" in shown[0]


def test_a_recipe_built_in_code_whose_parts_name_no_parameters(tmp_path, monkeypatch):
    """A Recipe made by hand (not read from a file) may leave a part's "params" out: the part
    runs with none."""
    from analyzer.report import Recipe

    rep, calls = _planted_kinds(monkeypatch)
    rec = Recipe(tmp_path / "r.toml", "t", "pig", 3, {}, [{"name": "b", "kind": "pig.two"}])
    res = rep.run_recipe(rec, tmp_path / "out")
    assert res["computed"] == 1 and calls == [("two", {}, {}, _seed(3, 0))]
    assert json.loads((tmp_path / "out" / "parts" / "b.json").read_text())["params"] == {}


def test_a_site_card_without_findings_or_chart(tmp_path):
    """A result that states no findings and no key chart (the keys absent) still gets its
    card: title, parts, seed."""
    from analyzer.report_site import write_top_index

    write_top_index(tmp_path, [{"out": str(tmp_path / "pig"), "title": "Pig", "seed": 1,
                                "parts": ["a"]}])
    assert (tmp_path / "index.md").read_text().endswith("## [Pig](pig/index.md)\n\n\n")
    assert ("<div class='card'><div class='text'><h2><a href='pig/index.html'>Pig</a></h2>"
            "<p class='meta'>1 parts · report seed 1 · <a href='pig/index.html'>read the "
            "report</a></p></div></div>") in (tmp_path / "index.html").read_text()


def test_a_seed_beyond_63_bits_and_a_game_without_part_kinds(tmp_path, monkeypatch):
    """Seeds are below 2**63 (the part seeds are 63-bit too); a game offering no part kind
    says "none" when a part names one."""
    from analyzer import report as rep

    p = _write(tmp_path, HEAD.replace("seed = 3", f"seed = {2**63}")
               + '[[parts]]\nname = "a"\nkind = "pig.two"\n')
    _planted_kinds(monkeypatch)
    assert refused(rep.load_recipe, p) == \
        f"{p}: seed: Input should be less than 9223372036854775808"
    monkeypatch.setattr(rep, "game_parts", lambda game: {})
    p = _write(tmp_path, HEAD + '[[parts]]\nname = "a"\nkind = "pig.two"\n')
    assert refused(rep.load_recipe, p) == \
        f"{p}: part 'a': unknown part kind 'pig.two' (known: none)"


def test_a_section_folder_that_cannot_be_removed_is_left_quietly(tmp_path, monkeypatch):
    """Removing a dead run's folder may fail (permissions, a file in use): nothing is raised."""
    import shutil
    import tempfile

    import analyzer.output
    from analyzer.report import _clean_section_folders

    def rmtree(path, ignore_errors=False):
        if not ignore_errors:
            raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(analyzer.output, "pid_alive", lambda pid: False)
    monkeypatch.setattr(shutil, "rmtree", rmtree)
    (tmp_path / "pushluck-section-999999-x").mkdir()
    _clean_section_folders()
    assert (tmp_path / "pushluck-section-999999-x").is_dir()


def test_a_key_chart_among_parts_without_meta():
    """A manifest without "meta" (none of ours lacks it, but the page reads it with a default)
    states no key chart."""
    from analyzer.report_site import key_chart

    assert key_chart([{"name": "z", "files": ["z/x.png"]},
                      {"name": "a", "files": ["a/c.png"], "meta": {"key_chart": "c"}}]) == \
        "a/c.png"
