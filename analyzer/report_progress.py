"""One progress bar for a report run: every part of every game, with the time left.

`pushluck report all` (and a single recipe) shows one Rich bar on stderr, only on a terminal, at
most 80 columns wide: the part being computed, the bar, parts done of all parts, time elapsed and
an estimate of the time left (Rich's, from the pace of the parts done so far; parts reused from
an earlier run count as done at once). While it is shown, the bars of the Monte Carlo runs inside
the parts stay off (:func:`outer_bar_active`, read by :class:`analyzer.runner.Progress`) and the
per-part lines are not printed; off a terminal the run prints one line per part instead.
"""
from __future__ import annotations

import sys

#: the widest line the bar draws (a standard terminal)
WIDTH = 80
_ACTIVE = [0]


def outer_bar_active() -> bool:
    """Whether a report's overall bar is on screen (inner progress bars then stay off)."""
    return _ACTIVE[0] > 0


class ReportProgress:
    """The overall bar (module doc). ``total`` is the number of parts of the whole run."""

    def __init__(self, total: int, enabled: bool | None = None):
        self.total = total
        self.done = 0
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self._bar = None
        self._task = None

    def __enter__(self) -> "ReportProgress":
        if self.enabled:
            self._open()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _open(self) -> None:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        console = Console(stderr=True, width=min(WIDTH, Console(stderr=True).width))
        self._bar = Progress(TextColumn("{task.description:<28.28}"), BarColumn(bar_width=16),
                             MofNCompleteColumn(), TextColumn("parts"), TimeElapsedColumn(),
                             TextColumn("left"), TimeRemainingColumn(),
                             console=console, transient=False, expand=False)
        self._bar.start()
        self._task = self._bar.add_task("report", total=self.total)
        _ACTIVE[0] += 1

    def start(self, label: str) -> None:
        """A part starts: the bar names it (a line says so when there is no bar)."""
        if self._bar is not None:
            self._bar.update(self._task, description=label)
        else:
            from analyzer.output import note

            note(f"report: computing {label} …")

    def advance(self, label: str, count: int = 1, line: bool = True) -> None:
        """``count`` parts are done (written, or with ``line=False`` reused from an earlier
        run, which prints no line)."""
        self.done += count
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done, description=label)
        elif line:
            from analyzer.output import note

            note(f"report: [{self.done}/{self.total}] {label} written")

    def close(self) -> None:
        if self._bar is not None:
            self._bar.update(self._task, description="report done")
            self._bar.stop()
            self._bar = None
            _ACTIVE[0] -= 1
