"""What a `calibrate` command prints and writes, for any game (the statistics:
analyzer/calibration.py; the games' own headers: ``analyzer/games/<game>/calibrate_out.py``).

A calibration result ``out`` holds ``choices`` (per choice: mean predicted, mean true, the bias
and its verdict), its margins (``margins``, or the single ``margin`` of Trash Pandas: a
difference between two choices, judged against the tighter bar), ``reliability`` (bins of
predicted chance of winning), ``rows`` (one per position), ``playouts`` and ``seed``.

Tables (CSV and Markdown, analyzer/tables.py): ``<prefix>_bias`` (per choice and margin: mean
predicted, mean true, the bias with SE and 95% interval, the bar and whether it is shown),
``<prefix>_reliability`` (bins: positions, mean predicted, mean true with its interval) and
``<prefix>_positions`` (one row per frozen position). Chart (PNG and SVG):
``<prefix>_reliability`` (analyzer.calibration.reliability_chart). Files go only under --out;
pandas and matplotlib are imported here, never by a query.
"""
from __future__ import annotations

from pathlib import Path


def parts(out: dict) -> list[tuple[str, dict]]:
    """Every judged quantity in order: the choices, then the margin(s)."""
    margins = out["margins"] if "margins" in out else {"margin": out["margin"]}
    return list(out["choices"].items()) + list(margins.items())


NOISE_WORDS = ("Monte Carlo noise is", "one position's error with the noise taken out")


def header(title: str, out: dict, belief: str) -> list[str]:
    """The first lines: what was run (``title``: the game and its kind of position), who
    played, the belief (``belief``: its words) and the unit."""
    from analyzer.words import fit

    who = ", ".join(f"seat {s['seat']} {s['bot']}" for s in out["seats"])
    return fit([f"{title}: {out['players']} players, {out['positions']:,} positions with at most "
            f"{out['max_cards_left']} cards left, {out['playouts']:,} playouts per choice, "
            f"seed {out['seed']}",
            f"  games played and finished by: {who}",
            f"  {belief}",
            f"  {out['unit']}; bias = predicted − true, mean over positions ± SE [95% interval]"])


def render_body(out: dict, labels: dict, noise_words: tuple = NOISE_WORDS,
                verdict: list[str] | None = None) -> list[str]:
    """The bias table, the noise line (``noise_words``: what the expected variance is and what
    is left beyond it), the verdict (``verdict``'s lines, else whether every bar is shown) and
    the reliability table (text lines)."""
    from analyzer.calibration import signed
    from analyzer.output import table

    rows = [(labels.get(key, key), f"{part['predicted'].estimate:.4f}",
             f"{part['true'].estimate:.4f}", signed(part["bias"]), f"±{part['bar']:g}")
            for key, part in parts(out)]
    # each row's verdict on a line of its own below the table: the table fits 80 columns
    lines = [table(rows, ["", "predicted", "true", "bias", "bar"], "lllll")]
    lines += [f"  {labels.get(key, key)}: {part['verdict']}" for key, part in parts(out)]
    m = out["choices"]
    lines.append(f"  {noise_words[0]} " + ", ".join(
        f"{100 * m[k]['noise_share']:.0f}% ({k})" for k in m) + " of the spread of predicted − "
        f"true; {noise_words[1]}: " + ", ".join(
        f"{m[k]['rmse_belief']:.3f} ({k})" for k in m) + " (root mean square)")
    lines += verdict or ["  " + ("every bar is shown" if out["meets_bars"] else
                                 "not every bar is shown")]
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
    from analyzer.words import fit

    return fit(lines)


def bias_rows(out: dict, labels: dict) -> list[dict]:
    rows = []
    for key, part in parts(out):
        b = part["bias"]
        rows.append({"choice": labels.get(key, key), "predicted": part["predicted"].estimate,
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


def write_files(out: dict, out_dir, chart: bool, prefix: str, labels: dict,
                chart_title: str, **chart_words) -> list[Path]:
    """The tables (and with ``chart`` the reliability chart) into ``out_dir`` (module doc)."""
    import pandas as pd

    from analyzer.calibration import reliability_chart
    from analyzer.tables import write_table

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    files = write_table(pd.DataFrame(bias_rows(out, labels)), out_dir / f"{prefix}_bias")
    files += write_table(pd.DataFrame(reliability_rows(out)), out_dir / f"{prefix}_reliability")
    files += write_table(pd.DataFrame(out["rows"]), out_dir / f"{prefix}_positions",
                         float_digits=6)
    if chart:
        files += reliability_chart(out, out_dir / f"{prefix}_reliability", chart_title,
                                   list(out["choices"]), **chart_words)
    return files


def publish(out: dict, out_dir, chart: bool, as_json: bool, write, render) -> None:
    """Write the files (``write(out, out_dir, chart)`` with ``out_dir``; their paths go into
    ``out["files"]`` and a note on stderr), then print the result (``render(out)``, or one
    JSON object)."""
    from analyzer.output import emit, note

    if out_dir is not None:
        out["files"] = [str(f) for f in write(out, out_dir, chart)]
        note(f"wrote {len(out['files'])} files: " + ", ".join(out["files"]))
    emit(out, as_json, lambda: render(out))
