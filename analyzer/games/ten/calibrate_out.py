"""What `ten calibrate` prints and writes (the method: calibrate.py).

The header is Ten's own; the tables, the chart and their names (``ten_calibrate_bias``,
``ten_calibrate_reliability``, ``ten_calibrate_positions``, the chart
``ten_calibrate_reliability``) follow analyzer/calibration_out.py. Files go only under --out.
"""
from __future__ import annotations

from pathlib import Path

from analyzer.games.ten.calibrate import PHASES

PREFIX = "ten_calibrate"
#: the expected variance of predicted − true is chance's (a realised game), not only Monte Carlo's
NOISE_WORDS = ("chance (the realised games' spread, if decide is right) explains",
               "one position's error beyond chance")


def render(out: dict) -> str:
    from analyzer.calibration_out import header, render_body
    from analyzer.words import fit

    phase = PHASES[out.get("phase", "draw")]
    head = header(f"Ten calibrate ({phase.title})", out,
                  f"belief: {out['belief']['description']}; the truth: the game's real pile "
                  "order")
    if out.get("deck_removals"):
        head.append("  note: " + out["deck_removals"]["note"])
    if phase.name != "draw":
        judged = ", ".join(phase.labels.get(c, c) for c in phase.choices)
        head.append(f"  judged per position: {judged} (the random one drawn from the choices "
                    "`decide` lists, never by the playouts)")
    return "\n".join(fit(head) + render_body(out, phase.labels, NOISE_WORDS,
                                             fit(["  " + out["conclusion"]])))


def write_files(out: dict, out_dir, chart: bool) -> list[Path]:
    """The tables (and with ``chart`` the reliability chart) into ``out_dir``."""
    from analyzer.calibration_out import write_files as write

    phase = PHASES[out.get("phase", "draw")]
    return write(out, out_dir, chart, PREFIX, phase.labels,
                 f"Ten calibrate, {phase.title}, {out['players']} players, ≤ "
                 f"{out['max_cards_left']} cards left",
                 truth="realised share of the win (the game's real pile order)")


def publish(out: dict, out_dir, chart: bool, as_json: bool) -> None:
    """Write the files (with ``out_dir``), then print the result (text, or one JSON object)."""
    from analyzer.calibration_out import publish as emit_all

    emit_all(out, out_dir, chart, as_json, write_files, render)
