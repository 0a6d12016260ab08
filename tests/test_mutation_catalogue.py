"""The curated kernel bugs of `make mutate` (tests/mutation/kernel_bugs.toml) still apply: every
original snippet occurs exactly once in its kernel file. A kernel rewrite that moves code must
move its planted bugs along (before this test, five of them had silently stopped applying)."""
from tests.mutation.kernel_bugs import ROOT, check, load_bugs


def test_every_planted_kernel_bug_still_applies():
    bugs = load_bugs()
    stale = []
    for bug in bugs:
        try:
            check(bug, ROOT)
        except SystemExit as exc:
            stale.append(str(exc))
    assert stale == [] and len(bugs) >= 48
