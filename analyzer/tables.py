"""Tidy tables: pandas DataFrames written as CSV and Markdown, atomically.

Import this module only in commands that tabulate: it imports pandas.
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from analyzer.output import atomic_write_text


def to_markdown(df: pd.DataFrame, float_digits: int = 4) -> str:
    """A GitHub-flavoured Markdown table (no optional dependencies)."""
    def cell(v):
        if isinstance(v, float):
            return f"{v:.{float_digits}f}"
        return str(v)

    headers = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return "\n".join(lines) + "\n"


def write_table(df: pd.DataFrame, base: str | Path, float_digits: int = 4) -> list[Path]:
    """Write ``base.csv`` (full precision) and ``base.md`` (rounded for reading)."""
    base = Path(base)
    csv = df.to_csv(index=False, lineterminator="\n", float_format="%.10g")
    return [atomic_write_text(base.with_suffix(".csv"), csv),
            atomic_write_text(base.with_suffix(".md"), to_markdown(df, float_digits))]


def table_files(df: pd.DataFrame, name: str, float_digits: int = 4) -> dict[str, bytes]:
    """The table as ``{name.csv: bytes, name.md: bytes}`` (same formats as write_table)."""
    csv = df.to_csv(index=False, lineterminator="\n", float_format="%.10g")
    return {f"{name}.csv": csv.encode(), f"{name}.md": to_markdown(df, float_digits).encode()}
