"""What `trash-pandas calibrate` prints and writes (the method: calibrate.py).

The header is Trash Pandas' own; the tables, the chart and their names
(``tp_calibrate_bias``, ``tp_calibrate_reliability``, ``tp_calibrate_positions``, the chart
``tp_calibrate_reliability``) follow analyzer/calibration_out.py. Files go only under --out.
"""
from __future__ import annotations

from pathlib import Path

LABELS = {"stop": "stop", "roll": "roll", "margin": "roll − stop"}
PREFIX = "tp_calibrate"


def render(out: dict) -> str:
    from analyzer.calibration_out import header, render_body

    return "\n".join(header("Trash Pandas calibrate", out, "belief about the unseen cards: "
                            + out["belief"]["description"]) + render_body(out, LABELS))


def write_files(out: dict, out_dir, chart: bool) -> list[Path]:
    """The tables (and with ``chart`` the reliability chart) into ``out_dir``."""
    from analyzer.calibration_out import write_files as write

    return write(out, out_dir, chart, PREFIX, LABELS,
                 f"Trash Pandas calibrate, {out['players']} players, "
                 f"≤ {out['max_cards_left']} cards left")


def publish(out: dict, out_dir, chart: bool, as_json: bool) -> None:
    """Write the files (with ``out_dir``), then print the result (text, or one JSON object)."""
    from analyzer.calibration_out import publish as emit_all

    emit_all(out, out_dir, chart, as_json, write_files, render)
