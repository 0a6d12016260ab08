"""Fill the examples of README.md and docs/**/*.md from real runs, or check that they have not
drifted.

An example in README.md (or a page under docs/) is a marker line, a fenced block the script owns, and an end marker::

    <!-- example: pushluck pig decide --me 50 --opp 60 --turn 12 -->
    ```console
    $ pushluck pig decide --me 50 --opp 60 --turn 12
    ...what the command printed...
    ```
    <!-- end example -->

Options go between ``example`` and the colon, separated by spaces:

- ``lines=N`` keeps the first N lines of the output (then ``…``);
- ``exit=N`` expects exit code N instead of 0; a failing command shows its stderr (the one-line
  error), a succeeding one its stdout;
- ``volatile`` refreshes the block but leaves it out of ``--check`` (machine-dependent figures such
  as ``pushluck bench``): a rewrite runs it (and it must succeed) alone, after every other
  example has finished, so its timings are not taken beside this script's own runs; ``--check``
  does not run it.

Generated sections. A block between ``<!-- generated: NAME -->`` and ``<!-- end generated -->``
is filled by a step rather than by one command's output. ``site-findings``: the headline
findings of ``make run`` (``pushluck report all`` with the shipped recipes, written to
``/tmp/pushluck-readme/site``), three per game; ``site-headlines``: the first of them per
game, one line each (the README's); ``site-screenshots``: screenshots of that site's
index and of the Trash Pandas page taken in headless Chromium (analyzer/site_check.py), saved as
``docs/images/report-index.png`` and ``docs/images/report-game.png`` and shown by the block. The
site is computed once per rewrite (minutes: it is `make run`); ``--check`` does not run it and
leaves these blocks as they are (they are not compared). Without Chromium the images are kept
and a note says so.

The command is pasted, exactly as printed, into ``bash -c`` from the repository root, with
``pushluck`` a shell function running ``python -m analyzer`` (so an example that a shell would
split or mangle fails here as it would for a reader). Every ``--out`` folder an
example names must lie under ``/tmp/pushluck-readme/``: that folder is emptied before a run, and
examples sharing an ``--out`` folder (or reading a file under it) run one after another in README
order (so "written, then resumed" reads the same every time). ``--check`` runs the others two at
a time; a rewrite runs every example alone, because the rates it prints are measured with all
cores, and a short run beside another example's threads reads many times too slow (a 50,000-turn
Ten run showed 3M turns/s beside another example, 56M alone). Timings are the only figures that
may differ between runs, so numbers followed by ``s`` or ``ms``, rates per second and JSON
``seconds`` are masked before comparing.

    python docs/readme_examples.py          # rewrite README.md and docs/ from real runs
    python docs/readme_examples.py --check  # exit 1 with a diff if README.md has drifted
    python docs/readme_examples.py --check --times  # and each example's wall seconds, slowest first
"""
from __future__ import annotations

import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def pages() -> list[Path]:
    """README.md first, then every Markdown page under docs/ in path order."""
    return [README] + sorted(p for p in DOCS.rglob("*.md") if p.is_file())


SCRATCH = Path("/tmp/pushluck-readme")
SITE = SCRATCH / "site"
IMAGES = ROOT / "docs" / "images"
GENERATED = re.compile(r"^<!-- generated: ([a-z-]+) -->$")
GEN_END = "<!-- end generated -->"
MARKER = re.compile(r"^<!-- example((?: [a-z]+(?:=\d+)?)*): (.+?) -->$")
END = "<!-- end example -->"
VOLATILE = [re.compile(p) for p in (
    r"\d[\d,]*(?:\.\d+)?\s?(?:ms|s)\b",           # 0.61 s, 120 ms
    r"\d[\d,.]*\s?(?:[kM]\s)?\S+/s\b",           # 2.5 M games/s
    r"per second\s*[=:]?\s*[\d,.]+",             # games per second = 3,482,292
    r"\"?[a-z_]*seconds\"?: [\d.e+-]+",          # JSON "seconds": 0.61
    r"\"[a-z_]*per_second[a-z_]*\": [\d.e+-]+",
)]


@dataclass
class Example:
    start: int          # line of the marker
    end: int            # line of the end marker
    command: str
    lines: int | None = None
    exit: int = 0
    volatile: bool = False

    @property
    def out_dir(self) -> str | None:
        argv = shlex.split(self.command)
        for i, arg in enumerate(argv):
            if arg == "--out" and i + 1 < len(argv):
                return argv[i + 1]
            if arg.startswith("--out="):
                return arg.split("=", 1)[1]
        return self.reads_from

    @property
    def reads_from(self) -> str | None:
        """The scratch folder an argument reads from (``rule:/tmp/pushluck-readme/r/x.json``),
        so the example runs after the one that wrote it."""
        m = re.search(re.escape(str(SCRATCH)) + r"/([^/\s]+)", self.command)
        return f"{SCRATCH}/{m.group(1)}" if m else None


def parse_options(text: str, where: str) -> dict:
    options: dict = {}
    for item in text.split():
        key, _, value = item.partition("=")
        if key in ("lines", "exit") and value.isdigit():
            options[key] = int(value)
        elif key == "volatile" and not value:
            options[key] = True
        else:
            raise SystemExit(f"{where}: unknown example option '{item}'")
    return options


def find_examples(src: list[str]) -> list[Example]:
    examples = []
    i = 0
    while i < len(src):
        m = MARKER.match(src[i])
        if m:
            j = i + 1
            while j < len(src) and src[j] != END:
                j += 1
            if j == len(src):
                raise SystemExit(f"README line {i + 1}: example without '{END}'")
            ex = Example(i, j, m.group(2), **parse_options(m.group(1), f"README line {i + 1}"))
            out = ex.out_dir
            if out is not None and not (out + "/").startswith(str(SCRATCH) + "/"):
                raise SystemExit(f"README line {i + 1}: --out must lie under {SCRATCH}/: {out}")
            examples.append(ex)
            i = j
        i += 1
    return examples


SECONDS: dict[str, float] = {}  # wall seconds per example command (``--times`` prints them)


def run_example(ex: Example) -> str:
    started = time.perf_counter()
    argv = shlex.split(ex.command)
    if argv[0] != "pushluck":
        raise SystemExit(f"README example must start with 'pushluck': {ex.command}")
    env = dict(os.environ, COLUMNS="100", PYTHONPATH=str(ROOT), PUSHLUCK_PYTHON=sys.executable)
    shell = 'pushluck() { "$PUSHLUCK_PYTHON" -m analyzer "$@"; }\n' + ex.command
    proc = subprocess.run(["bash", "-c", shell], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    SECONDS[ex.command] = time.perf_counter() - started
    if proc.returncode != ex.exit:
        raise SystemExit(f"README example exited {proc.returncode}, expected {ex.exit}: "
                         f"{ex.command}\n{proc.stderr}")
    text = proc.stdout if proc.returncode == 0 else proc.stderr
    text = text.replace(f"{ROOT}/", "")  # data files named by absolute path read as relative
    out = text.rstrip("\n").splitlines()
    if ex.lines is not None and len(out) > ex.lines:
        out = out[:ex.lines] + ["…"]
    return "\n".join(out)


def run_all(examples: list[Example], check: bool = False) -> list[str]:
    """Outputs in README order; examples sharing an --out folder run in order in one task. With
    ``check`` the volatile examples are not run (their output is not compared)."""
    if SCRATCH.is_symlink():
        raise SystemExit(f"{SCRATCH} is a symbolic link; refusing to empty it")
    shutil.rmtree(SCRATCH, ignore_errors=True)
    SCRATCH.mkdir(parents=True)
    groups: dict[object, list[int]] = {}
    for k, ex in enumerate(examples):
        if not ex.volatile:
            groups.setdefault(ex.out_dir or k, []).append(k)
    outputs: list[str] = [""] * len(examples)

    def run_group(indices: list[int]) -> None:
        for k in indices:
            outputs[k] = run_example(examples[k])

    # longest groups first, so two workers finish together; a rewrite one at a time (module doc)
    with ThreadPoolExecutor(max_workers=2 if check else 1) as pool:
        list(pool.map(run_group, sorted(groups.values(), key=len, reverse=True)))
    volatile = [k for k, ex in enumerate(examples) if ex.volatile]
    if volatile and not check:  # timings, on a machine this script no longer loads
        settle()
        run_group(volatile)
    return outputs


def settle(most: float = 90.0) -> None:
    """Wait (at most ``most`` seconds) for the 1-minute load average to fall below 1, so the
    timing examples do not open with the load this script's own runs left behind (`bench`
    reads the load average to explain a row that scaled badly)."""
    import os
    import time

    end = time.monotonic() + most
    while hasattr(os, "getloadavg") and os.getloadavg()[0] >= 1 and time.monotonic() < end:
        time.sleep(2)


def render(text: str, check: bool = False) -> tuple[str, str]:
    """README text with every example refilled from a real run, and the same with the volatile
    examples left as they were (what ``--check`` compares; with ``check`` they are not run and
    the first text keeps them empty)."""
    src = text.splitlines()
    examples = find_examples(src)
    outputs = run_all(examples, check)
    fresh, checked, last = [], [], 0
    for ex, output in zip(examples, outputs):
        fresh += src[last:ex.start + 1]
        checked += src[last:ex.start + 1]
        block = ["```console", f"$ {ex.command}", output, "```"]
        fresh += block
        checked += src[ex.start + 1:ex.end] if ex.volatile else block
        last = ex.end
    fresh += src[last:]
    checked += src[last:]
    fresh_text = fill_generated("\n".join(fresh) + "\n", check)
    return fresh_text, "\n".join(checked) + "\n"


# ------------------------------------------------------------------------ generated sections
def build_site() -> dict:
    """`make run` into SITE (``report all --json``): its payload."""
    import json

    env = dict(os.environ, COLUMNS="100", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "analyzer", "report", "all", "--out",
                           str(SITE), "--json"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=7200)
    if proc.returncode != 0:
        raise SystemExit(f"report all failed (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


def site_findings(payload: dict) -> list[str]:
    """The block ``site-findings``: each game's three headline findings."""
    lines = []
    for r in payload["reports"]:
        lines.append(f"**{r['title']}**")
        lines.append("")
        lines += [f"- {t}" for t in r["findings"][:3]]
        lines.append("")
    return lines[:-1]


def site_screenshots(payload: dict) -> list[str]:
    """The block ``site-screenshots``: the index and the Trash Pandas page, taken now."""
    sys.path.insert(0, str(ROOT))
    from analyzer.site_check import find_browser, screenshot

    shots = [(SITE / "index.html", IMAGES / "report-index.png", 1200, 1300,
              "The index of `make run`: each game's headline findings and key chart"),
             (SITE / "trash-pandas" / "index.html", IMAGES / "report-game.png", 1200, 1700,
              "A game's page opens with its findings")]
    browser = find_browser()
    for page, png, w, h, _alt in shots:
        if browser is None:
            print(f"no Chromium: {png} kept as it was", file=sys.stderr)
            continue
        ok, why = screenshot(browser, page, png, w, h)
        if not ok:
            raise SystemExit(f"screenshot of {page} failed: {why}")
    # the block lives in README.md: the images' paths are relative to the repository root
    return [f"![{alt}]({Path(os.path.relpath(png, ROOT)).as_posix()})"
            for _p, png, _w, _h, alt in shots]


def site_headlines(payload: dict) -> list[str]:
    """The block ``site-headlines`` (the README's): each game's first finding, one line each."""
    return [f"- **{r['title'].split(':')[0]}**: {r['findings'][0]}"
            for r in payload["reports"] if r["findings"]]


STEPS = {"site-findings": site_findings, "site-screenshots": site_screenshots,
         "site-headlines": site_headlines}


def fill_generated(text: str, check: bool) -> str:
    """Every generated block refilled (module doc); with ``check`` the text as it was."""
    src = text.splitlines()
    blocks = []
    for i, line in enumerate(src):
        m = GENERATED.match(line)
        if m:
            if m.group(1) not in STEPS:
                raise SystemExit(f"README line {i + 1}: unknown generated block "
                                 f"'{m.group(1)}'")
            end = next((j for j in range(i + 1, len(src)) if src[j] == GEN_END), None)
            if end is None:
                raise SystemExit(f"README line {i + 1}: generated block without '{GEN_END}'")
            blocks.append((i, end, m.group(1)))
    if check or not blocks:
        return text
    payload = build_site()
    out, last = [], 0
    for start, end, name in blocks:
        out += src[last:start + 1] + STEPS[name](payload)
        last = end
    out += src[last:]
    return "\n".join(out) + "\n"


def mask(text: str) -> str:
    for pattern in VOLATILE:
        text = pattern.sub("<t>", text)
    return text


def same_text(a: str, b: str) -> bool:
    """Equal once timings are masked, line breaks included; or equal word for word, where a
    timing's own width moved a line break (a paragraph wrapped at 80 columns that names
    "12 s" in one run and "1.2 min" in another breaks its lines elsewhere)."""
    return mask(a) == mask(b) or mask(" ".join(a.split())) == mask(" ".join(b.split()))


def parse_args(argv: list[str]):
    """The options (module doc); ``--help`` or an unknown option exits before anything runs, so
    a mistyped flag never rewrites README.md."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python docs/readme_examples.py",
        description="Fill README.md's examples from real runs (the default), or check that they "
                    "have not drifted.")
    parser.add_argument("--check", action="store_true",
                        help="rerun every non-volatile example and exit 1 with a diff if README.md "
                             "differs (timings masked); writes nothing")
    parser.add_argument("--no-site", action="store_true",
                        help="leave the generated site blocks (findings, screenshots) as they are "
                             "instead of building make run's site (minutes)")
    parser.add_argument("--site-only", action="store_true",
                        help="fill only the generated site blocks (builds make run's site), "
                             "leaving every example as it is")
    parser.add_argument("--times", action="store_true",
                        help="also print each example's wall seconds on stderr, slowest first")
    return parser.parse_args(argv)


SEPARATOR = "\n<!-- pushluck page break: {} -->\n"


def join_pages(paths: list[Path]) -> str:
    """The pages as one text (each after a page-break line naming it), so that examples sharing
    an --out folder across pages still run in page order."""
    return "".join(SEPARATOR.format(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p)
                   + p.read_text(encoding="utf-8") for p in paths)


def split_pages(text: str, paths: list[Path]) -> dict[Path, str]:
    parts = re.split(r"\n<!-- pushluck page break: [^>]+ -->\n", text)
    assert parts[0] == "" and len(parts) == len(paths) + 1, "a page break went missing"
    return dict(zip(paths, parts[1:]))


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    paths = pages() if README == ROOT / "README.md" else [README]
    current = join_pages(paths)
    if args.site_only and (args.no_site or args.check):
        raise SystemExit("--site-only fills the site blocks: it goes with neither --no-site "
                         "nor --check")
    if args.no_site:
        global fill_generated
        fill_generated = lambda text, check: text  # noqa: E731 (the blocks as they are)
    if args.site_only:
        fresh, checked = fill_generated(current, check=False), current
    else:
        fresh, checked = render(current, check=args.check)
    took = time.perf_counter() - started
    if args.times:
        for command, sec in sorted(SECONDS.items(), key=lambda kv: -kv[1]):
            print(f"{sec:7.1f} s  {command[:110]}", file=sys.stderr)
    if args.check:
        if same_text(checked, current):
            print(f"README examples match real runs ({took:.0f} s)")
            return 0
        diff = difflib.unified_diff(mask(current).splitlines(), mask(checked).splitlines(),
                                    "README.md and docs/", "real runs", lineterm="", n=1)
        print("\n".join(list(diff)[:200]))
        print("README examples have drifted: run `make readme` (python docs/readme_examples.py)")
        return 1
    for path, text in split_pages(fresh, paths).items():
        if path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
    print(f"rewrote README.md and docs/ ({took:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
