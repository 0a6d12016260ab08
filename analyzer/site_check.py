"""`make site-check`: open the report site in headless Chromium and save screenshots.

``python -m analyzer.site_check [FOLDER]`` (default ``reports/out``) opens FOLDER/index.html and
every game page it links in Debian's ``chromium`` (or ``chromium-browser``, ``google-chrome``),
each in a fresh empty profile with networking, updates and sync off, and saves a screenshot of
each under ``FOLDER/screenshots/`` (the index, then one PNG per game page). A page passes when
Chromium exits 0, writes a non-empty screenshot, and logs no resource it failed to load (a
broken image or style sheet). Prints one line per page; exit 0 if every page passed, 1 if one
did not, 2 if the folder has no index or no Chromium is installed (one line saying so).

Screenshots are taken at :data:`WIDTH` × :data:`HEIGHT` CSS pixels (the top of each page: the
findings and the first charts); :func:`screenshot` takes any size (the README's images).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

WIDTH, HEIGHT = 1200, 1500
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--enable-logging=stderr", "--v=0",
         "--virtual-time-budget=5000")
#: what Chromium logs when an image, style sheet or page cannot be loaded
BROKEN = re.compile(r"Failed to load resource|ERR_FILE_NOT_FOUND|net::ERR_")


def find_browser() -> str | None:
    """The path of an installed Chromium, or None."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def screenshot(browser: str, page: Path, png: Path, width: int = WIDTH,
               height: int = HEIGHT) -> tuple[bool, str]:
    """Render ``page`` into ``png``; (passed, what went wrong)."""
    png.parent.mkdir(parents=True, exist_ok=True)
    if png.exists():
        png.unlink()
    with tempfile.TemporaryDirectory(prefix="pushluck-chromium-") as profile:
        try:
            proc = subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}",
                                   f"--screenshot={png}", f"--window-size={width},{height}",
                                   page.resolve().as_uri()],
                                  capture_output=True, text=True, timeout=180)
        except subprocess.TimeoutExpired:
            return False, "Chromium did not finish within 180 s"
    broken = [line for line in proc.stderr.splitlines() if BROKEN.search(line)]
    if proc.returncode != 0:
        return False, f"Chromium exited {proc.returncode}"
    if not png.exists() or png.stat().st_size < 1000:
        return False, "no screenshot written"
    if broken:
        return False, "failed to load: " + broken[0].strip()[:160]
    return True, ""


def game_pages(folder: Path) -> list[Path]:
    """The game pages the index links (``<report>/index.html``), in its order."""
    text = (folder / "index.html").read_text(encoding="utf-8")
    seen = []
    for href in re.findall(r"href='([^'#]+/index\.html)'", text):
        page = folder / href
        if page not in seen and page.exists():
            seen.append(page)
    return seen


def check(folder: Path, browser: str) -> list[tuple[Path, Path, bool, str]]:
    """Screenshot the index and every game page: (page, png, passed, problem) each."""
    shots = folder / "screenshots"
    out = []
    for page in [folder / "index.html"] + game_pages(folder):
        name = "index" if page.parent == folder else page.parent.name
        png = shots / f"{name}.png"
        ok, why = screenshot(browser, page, png)
        out.append((page, png, ok, why))
    return out


def main(argv: list[str]) -> int:
    folder = Path(argv[0] if argv else "reports/out")
    if not (folder / "index.html").is_file():
        print(f"site-check: {folder}/index.html not found; run `make run` (or `pushluck report "
              f"all --out {folder}`) first", file=sys.stderr)
        return 2
    browser = find_browser()
    if browser is None:
        print("site-check: no Chromium found (Debian: apt-get install chromium)",
              file=sys.stderr)
        return 2
    results = check(folder, browser)
    for page, png, ok, why in results:
        print(f"{'ok  ' if ok else 'FAIL'} {page} -> {png}" + (f" ({why})" if why else ""))
    return 0 if all(ok for *_x, ok, _w in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
