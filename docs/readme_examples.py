"""Fill README.md's examples from real runs, or check that they have not drifted.

An example in README.md is a marker line, a fenced block the script owns, and an end marker::

    <!-- example: pushluck pig decide --me 50 --opp 60 --turn 12 -->
    ```console
    $ pushluck pig decide --me 50 --opp 60 --turn 12
    ...what the command printed...
    ```
    <!-- end example -->

``<!-- example lines=15: … -->`` keeps the first 15 lines of the output. The command runs as
``python -m analyzer …`` from the repository root; stdout is shown (stderr is not). Timings are
the only thing that may differ between runs, so figures followed by ``s`` or ``ms`` and rates per
second are masked before comparing.

    python docs/readme_examples.py          # rewrite README.md from real runs
    python docs/readme_examples.py --check  # exit 1 with a diff if README.md has drifted
"""
from __future__ import annotations

import difflib
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MARKER = re.compile(r"^<!-- example(?: lines=(\d+))?: (.+?) -->$")
END = "<!-- end example -->"
VOLATILE = [re.compile(p) for p in (
    r"\d[\d,]*(?:\.\d+)?\s?(?:ms|s)\b",           # 0.61 s, 120 ms
    r"\d[\d,.]*\s?(?:[kM]\s)?\S+/s\b",           # 2.5 M games/s
    r"\"?[a-z_]*seconds\"?: [\d.e+-]+",          # JSON "seconds": 0.61
    r"\"per_second[a-z_]*\": [\d.e+-]+",
)]


def run_example(command: str, lines: int | None) -> str:
    argv = shlex.split(command)
    if argv[0] != "pushluck":
        raise SystemExit(f"README example must start with 'pushluck': {command}")
    proc = subprocess.run([sys.executable, "-m", "analyzer", *argv[1:]], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    if proc.returncode not in (0,):
        raise SystemExit(f"README example failed (exit {proc.returncode}): {command}\n"
                         f"{proc.stderr}")
    out = proc.stdout.rstrip("\n").splitlines()
    if lines is not None and len(out) > lines:
        out = out[:lines] + ["…"]
    return "\n".join(out)


def render(text: str) -> str:
    """README text with every example block refilled from a real run."""
    src = text.splitlines()
    examples = []  # (start, end, command, lines)
    i = 0
    while i < len(src):
        m = MARKER.match(src[i])
        if m:
            j = i + 1
            while j < len(src) and src[j] != END:
                j += 1
            if j == len(src):
                raise SystemExit(f"README line {i + 1}: example without '{END}'")
            examples.append((i, j, m.group(2), int(m.group(1)) if m.group(1) else None))
            i = j
        i += 1
    with ThreadPoolExecutor(max_workers=2) as pool:
        outputs = list(pool.map(lambda e: run_example(e[2], e[3]), examples))
    out, last = [], 0
    for (start, end, command, _lines), output in zip(examples, outputs):
        out += src[last:start + 1]
        out += ["```console", f"$ {command}", output, "```"]
        last = end
    out += src[last:]
    return "\n".join(out) + "\n"


def mask(text: str) -> str:
    for pattern in VOLATILE:
        text = pattern.sub("<t>", text)
    return text


def main(argv: list[str]) -> int:
    current = README.read_text(encoding="utf-8")
    fresh = render(current)
    if "--check" in argv:
        if mask(fresh) == mask(current):
            print("README examples match real runs")
            return 0
        diff = difflib.unified_diff(mask(current).splitlines(), mask(fresh).splitlines(),
                                    "README.md", "real runs", lineterm="", n=1)
        print("\n".join(list(diff)[:200]))
        return 1
    README.write_text(fresh, encoding="utf-8")
    print(f"rewrote {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
