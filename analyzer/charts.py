"""Matplotlib charts written as PNG and SVG, reproducibly (Agg backend, fixed metadata).

A chart in a report says something or is not drawn: :func:`chart_files` writes a figure with
the numbers it draws (``<stem>.data.csv``, one row per plotted point) and refuses one of fewer
than :data:`MIN_POINTS` points (the part states a sentence instead). Titles and axis labels are
words with units; error bars are 95% intervals and the axes always hold them whole
(:func:`fit_intervals`).

Import this module only in commands that draw: it imports matplotlib.
"""
from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from analyzer.output import atomic_write_bytes  # noqa: E402

matplotlib.rcParams["svg.hashsalt"] = "pushluck"
matplotlib.rcParams["path.simplify"] = True
matplotlib.rcParams["font.size"] = 10
matplotlib.rcParams["axes.spines.top"] = False
matplotlib.rcParams["axes.spines.right"] = False

_PNG_META = {"Software": None}
_SVG_META = {"Date": None, "Creator": None}
#: the fewest points a report chart may draw (fewer: a sentence instead)
MIN_POINTS = 2


def new_figure(width: float = 8.0, height: float = 5.0):
    """A figure and axes with the house style."""
    fig, ax = plt.subplots(figsize=(width, height), dpi=100)
    ax.grid(True, alpha=0.3)
    return fig, ax


def save_figure(fig, base: str | Path) -> list[Path]:
    """Write ``base.png`` and ``base.svg`` atomically with metadata that does not change per run."""
    base = Path(base)
    written = []
    for ext, meta in (("png", _PNG_META), ("svg", _SVG_META)):
        buf = io.BytesIO()
        fig.savefig(buf, format=ext, metadata=meta, bbox_inches="tight")
        written.append(atomic_write_bytes(base.with_suffix(f".{ext}"), buf.getvalue()))
    plt.close(fig)
    return written


def figure_files(fig, name: str) -> dict[str, bytes]:
    """The figure as ``{name.png: bytes, name.svg: bytes}`` (same reproducible settings)."""
    files = {}
    for ext, meta in (("png", _PNG_META), ("svg", _SVG_META)):
        buf = io.BytesIO()
        fig.savefig(buf, format=ext, metadata=meta, bbox_inches="tight")
        files[f"{name}.{ext}"] = buf.getvalue()
    plt.close(fig)
    return files


def enough_points(data) -> bool:
    """Whether ``data`` (a DataFrame of plotted points) has at least :data:`MIN_POINTS` rows."""
    return data is not None and len(data) >= MIN_POINTS


def chart_files(fig, name: str, data) -> dict[str, bytes]:
    """``{name.png, name.svg, name.data.csv}``: the figure and the points it draws. A chart of
    fewer than :data:`MIN_POINTS` points is a bug of the caller (check :func:`enough_points`
    first and write a sentence instead)."""
    if not enough_points(data):
        plt.close(fig)
        raise ValueError(f"chart {name}: fewer than {MIN_POINTS} points")
    files = figure_files(fig, name)
    files[f"{name}.data.csv"] = data.to_csv(index=False, lineterminator="\n",
                                            float_format="%.10g").encode()
    return files


def fit_intervals(ax, lows, highs, floor: float | None = None, pad: float = 0.08) -> None:
    """Set the y axis so that every interval [low, high] is whole (no cut-off error bar),
    starting at ``floor`` when given (e.g. 0 for shares)."""
    lo = min(lows) if floor is None else min(floor, min(lows))
    hi = max(highs)
    span = (hi - lo) or abs(hi) or 1.0
    ax.set_ylim(lo - (0 if floor is not None and lo == floor else pad * span), hi + pad * span)


def caption(fig, text: str) -> None:
    """A grey line under the axes (sample size, seed, what the whiskers are)."""
    fig.text(0.01, -0.02, text, fontsize=8, ha="left", va="top", color="dimgrey", wrap=True)
