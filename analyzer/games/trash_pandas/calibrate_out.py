"""What `trash-pandas calibrate` prints and writes (the method: calibrate.py).

Tables (CSV and Markdown, analyzer/tables.py): ``tp_calibrate_bias`` (per choice and for the
margin: mean predicted, mean true, the bias with SE and 95% interval, the bar and whether it is
shown), ``tp_calibrate_reliability`` (bins of predicted chance of winning: positions, mean
predicted, mean true with its interval) and ``tp_calibrate_positions`` (one row per frozen
position: where it came from, predicted and true values with their sampling variances).
Chart (PNG and SVG, analyzer/charts.py: fixed metadata): ``tp_calibrate_reliability``, the mean
true chance of winning against the mean predicted one per bin with 95% intervals, each choice
in its colour, every position as a faint dot, against the diagonal. Files go only under --out;
pandas and matplotlib are imported here, never by a query.
"""
from __future__ import annotations

from pathlib import Path

LABELS = {"stop": "stop", "roll": "roll", "margin": "roll − stop"}


def render(out: dict) -> str:
    from analyzer.output import table

    who = ", ".join(f"seat {s['seat']} {s['bot']}" for s in out["seats"])
    lines = [f"Trash Pandas calibrate: {out['players']} players, {out['positions']:,} positions "
             f"with at most {out['max_cards_left']} cards left, {out['playouts']:,} playouts "
             f"per choice, seed {out['seed']}",
             f"  games played and finished by: {who}",
             f"  belief about the unseen cards: {out['belief']['description']}",
             f"  {out['unit']}; bias = predicted − true, mean over positions ± SE "
             "[95% interval]"]
    rows = []
    for key, part in list(out["choices"].items()) + [("margin", out["margin"])]:
        rows.append((LABELS[key], f"{part['predicted'].estimate:.4f}",
                     f"{part['true'].estimate:.4f}", _signed(part["bias"]),
                     f"±{part['bar']:g}", part["verdict"]))
    lines.append(table(rows, ["", "predicted", "true", "bias", "bar", "verdict"], "llllll"))
    m = out["choices"]
    lines.append("  Monte Carlo noise is " + ", ".join(
        f"{100 * m[k]['noise_share']:.0f}% ({k})" for k in m) + " of the spread of predicted − "
        "true; one position's error with the noise taken out: " + ", ".join(
        f"{m[k]['rmse_belief']:.3f} ({k})" for k in m) + " (root mean square)")
    lines.append("  " + ("every bar is shown" if out["meets_bars"] else "not every bar is shown"))
    lines.append("")
    lines.append("  reliability (bins of predicted chance of winning): positions, mean predicted, "
                 "mean true [95% interval]")
    rel = [(r["choice"], f"{r['bin_low']:.1f}–{r['bin_high']:.1f}", r["positions"],
            f"{r['predicted']:.3f}",
            f"{r['true'].estimate:.3f} [{r['true'].ci_low:.3f}, {r['true'].ci_high:.3f}]")
           for r in out["reliability"]]
    lines.append(table(rel, ["choice", "bin", "positions", "predicted", "true"], "llrll"))
    if out.get("interrupted"):
        lines.append(f"  interrupted: {out['positions']} positions finished")
    return "\n".join(lines)


def _signed(s) -> str:
    from analyzer.calibration import signed

    return signed(s)


def bias_rows(out: dict) -> list[dict]:
    rows = []
    for key, part in list(out["choices"].items()) + [("margin", out["margin"])]:
        b = part["bias"]
        rows.append({"choice": LABELS[key], "predicted": part["predicted"].estimate,
                     "true": part["true"].estimate, "bias": b.estimate, "se": b.se,
                     "ci_low": b.ci_low, "ci_high": b.ci_high, "bar": part["bar"],
                     "shown": part["shown"], "noise_share": part["noise_share"],
                     "rmse_belief": part["rmse_belief"], "positions": b.n,
                     "playouts": out["playouts"], "seed": out["seed"]})
    return rows


def reliability_rows(out: dict) -> list[dict]:
    return [{"choice": r["choice"], "bin_low": r["bin_low"], "bin_high": r["bin_high"],
             "positions": r["positions"], "predicted": r["predicted"],
             "true": r["true"].estimate, "ci_low": r["true"].ci_low,
             "ci_high": r["true"].ci_high, "seed": out["seed"]} for r in out["reliability"]]


def reliability_chart(out: dict, base) -> list[Path]:
    """Mean true against mean predicted chance of winning per bin (module doc)."""
    from analyzer.calibration import reliability_chart as chart

    return chart(out, base, f"Trash Pandas calibrate, {out['players']} players, "
                 f"≤ {out['max_cards_left']} cards left", list(out["choices"]))


def write_files(out: dict, out_dir, chart: bool) -> list[Path]:
    """The tables (and with ``chart`` the reliability chart) into ``out_dir``."""
    import pandas as pd

    from analyzer.tables import write_table

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    files = write_table(pd.DataFrame(bias_rows(out)), out_dir / "tp_calibrate_bias")
    files += write_table(pd.DataFrame(reliability_rows(out)),
                         out_dir / "tp_calibrate_reliability")
    files += write_table(pd.DataFrame(out["rows"]), out_dir / "tp_calibrate_positions",
                         float_digits=6)
    if chart:
        files += reliability_chart(out, out_dir / "tp_calibrate_reliability")
    return files


def publish(out: dict, out_dir, chart: bool, as_json: bool) -> None:
    """Write the files (with ``out_dir``; their paths go into ``out["files"]`` and a note on
    stderr), then print the result (text, or one JSON object)."""
    from analyzer.output import emit, note

    if out_dir is not None:
        out["files"] = [str(f) for f in write_files(out, out_dir, chart)]
        note(f"wrote {len(out['files'])} files: " + ", ".join(out["files"]))
    emit(out, as_json, lambda: render(out))
