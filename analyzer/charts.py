"""Matplotlib charts written as PNG and SVG, reproducibly (Agg backend, fixed metadata).

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

_PNG_META = {"Software": None}
_SVG_META = {"Date": None, "Creator": None}


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
