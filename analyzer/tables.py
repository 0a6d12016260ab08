"""Tidy tables: pandas DataFrames written as CSV and Markdown, atomically; and tables for people.

Two kinds of table leave this module:

* **Tidy tables** (:func:`table_files`, :func:`write_table`): one row per observation, full
  precision in the CSV, for people who want the data.
* **Tables for people** (:func:`people_table`): one row per line-up or rule set and one column
  per seat or metric, every Monte Carlo figure as ``0.294 [0.288, 0.301]`` (estimate and 95%
  interval) rounded to what its standard error supports, the same number of decimals down a
  column, and "—" for a cell that has no value (never ``nan`` or ``None``); the rounding rule
is :mod:`analyzer.numbers`'.

Import this module only in commands that tabulate: it imports pandas.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analyzer.numbers import MISSING, column_decimals, effective_se, interval, number
from analyzer.output import atomic_write_text


def to_markdown(df: pd.DataFrame, float_digits: int = 4) -> str:
    """A GitHub-flavoured Markdown table (no optional dependencies); missing values show as
    "—"."""
    def cell(v):
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return MISSING
        if isinstance(v, float):
            return f"{v:.{float_digits}f}"
        return str(v).replace("|", "\\|")

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


def csv_files(df: pd.DataFrame, name: str) -> dict[str, bytes]:
    """The table as ``{name.csv: bytes}`` only (data behind a chart or a people table)."""
    return {f"{name}.csv": df.to_csv(index=False, lineterminator="\n",
                                     float_format="%.10g").encode()}


@dataclass(frozen=True)
class Col:
    """A column of a people table: its header and how to show the row values under ``key``.

    ``kind``: ``auto`` (by the first value: a statistic object as ``stat``, a float as
    ``number``, an int as ``int``, else ``text``), ``stat`` (a statistic as :func:`interval`),
    ``percent`` (a statistic in
    percent), ``signed`` (a statistic with a "+" sign), ``points`` (a difference of shares in
    percentage points, signed), ``number`` (a float with ``decimals``), ``int`` (thousands
    separated) or ``text``."""

    header: str
    key: str
    kind: str = "auto"
    decimals: int | None = None


def _cell_stat(col: Col, value, decimals: int) -> str:
    if value is None:
        return MISSING
    return interval(value, decimals, percent=col.kind == "percent",
                    signed=col.kind in ("signed", "points"), points=col.kind == "points")


def people_table(rows: list[dict], columns: list[Col]) -> str:
    """A Markdown table for reading (module doc): statistic columns share one number of
    decimals, chosen from their standard errors."""
    from dataclasses import replace

    def kind_of(c: Col) -> Col:
        if c.kind != "auto":
            return c
        v = next((r.get(c.key) for r in rows if r.get(c.key) is not None), None)
        kind = ("stat" if hasattr(v, "ci_low") else "int" if isinstance(v, int) and
                not isinstance(v, bool) else "number" if isinstance(v, float) else "text")
        return replace(c, kind=kind)

    columns = [kind_of(c) for c in columns]
    stat_kinds = ("stat", "percent", "signed", "points")
    decimals = {}
    for c in columns:
        if c.kind in stat_kinds and c.decimals is None:
            scale = 100.0 if c.kind in ("percent", "points") else 1.0
            decimals[c.key] = column_decimals([effective_se(r[c.key]) * scale for r in rows
                                               if r.get(c.key) is not None])
        else:
            decimals[c.key] = 3 if c.decimals is None else c.decimals
    body = []
    for r in rows:
        cells = []
        for c in columns:
            v = r.get(c.key)
            if c.kind in stat_kinds:
                cells.append(_cell_stat(c, v, decimals[c.key]))
            elif c.kind == "number":
                cells.append(MISSING if v is None else number(float(v), decimals[c.key]))
            elif c.kind == "int":
                cells.append(MISSING if v is None else f"{int(v):,}")
            else:
                cells.append(MISSING if v is None or v == "" else str(v).replace("|", "\\|"))
        body.append("| " + " | ".join(cells) + " |")
    head = "| " + " | ".join(c.header for c in columns) + " |"
    return "\n".join([head, "|" + "|".join("---" for _ in columns) + "|"] + body) + "\n"
