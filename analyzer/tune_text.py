"""`pushluck tune` as text: tables that fit 80 columns, numbers with one precision per column,
and the method wrapped (the full tables go to ``--out``).

Precision: every interval of a column is printed with the same number of decimals, enough to
show its narrowest half-width to two significant digits (``1.1375 [1.1358, 1.1392]`` beside
``1.0928 [1.0750, 1.1107]``, never ``1.13 [1.122, 1.138]`` beside ``[1.129, 1.14]``).
"""
from __future__ import annotations

import math
import textwrap

WIDTH = 80
MOST_ROWS = 24  # rows a printed table shows before it abbreviates (the full table: --out)


def decimals(stats: list[dict]) -> int:
    """Decimals that show the narrowest finite half-width of ``stats`` to two significant
    digits (0 … 8)."""
    halves = [(s["ci_high"] - s["ci_low"]) / 2.0 for s in stats
              if s and math.isfinite(s["ci_high"] - s["ci_low"]) and s["ci_high"] > s["ci_low"]]
    if not halves:
        return 4
    return int(min(max(1 - math.floor(math.log10(min(halves))), 0), 8))


def interval(s: dict | None, d: int, sign: str = "") -> str:
    """``estimate [low, high]`` at ``d`` decimals; an unbounded side prints as ``-inf``/``inf``."""
    if s is None:
        return "—"

    def f(x: float) -> str:
        if not math.isfinite(x):
            return "inf" if x > 0 else "-inf"
        return f"{x:{sign}.{d}f}"

    return f"{f(s['estimate'])} [{f(s['ci_low'])}, {f(s['ci_high'])}]"


def wrap(label: str, text: str) -> str:
    """``label: text`` wrapped at :data:`WIDTH` with a hanging indent."""
    return textwrap.fill(f"{label}: {text}", WIDTH, subsequent_indent="  ",
                         break_on_hyphens=False)


def fit(cell: str, width: int) -> str:
    """``cell`` cut to ``width`` characters with an ellipsis."""
    return cell if len(cell) <= width else cell[:max(width - 1, 1)] + "…"


def table(rows: list[list[str]], headers: list[str], aligns: str,
          squeeze: tuple[int, ...] = ()) -> str:
    """A plain table no wider than :data:`WIDTH`: the columns in ``squeeze`` (labels) give up
    characters, widest first, until it fits."""
    from analyzer.output import table as plain

    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    while sum(widths) + 2 * (len(widths) - 1) > WIDTH and squeeze:
        i = max(squeeze, key=lambda j: widths[j])
        if widths[i] <= 6:
            break
        widths[i] -= 1
    rows = [[fit(c, widths[i]) if i in squeeze else c for i, c in enumerate(r)] for r in rows]
    headers = [fit(h, widths[i]) if i in squeeze else h for i, h in enumerate(headers)]
    return plain(rows, headers, aligns)


def count(n: float) -> str:
    return f"{int(n):,}"


def seconds(s: float) -> str:
    return f"{s:.1f} s" if s < 100 else f"{s:,.0f} s"


def _verdict(row: dict, in_targets: list[str]) -> str:
    if row["verdict"] != "fails":
        return row["verdict"]
    metric, rest = row["failed_on"].split(" in ", 1)
    lo = float(rest.strip("[] ").split(",")[0])
    side = "low" if row[metric]["estimate"] < lo else "high"
    return f"fails: {metric} {side}" if len(in_targets) > 1 else f"fails: {side}"


def _values(row: dict, keys: list[str]) -> str:
    """A cell named by its values alone (the keys head the column); * marks a cell that stands
    for others with the same rules."""
    return ", ".join(_value(row.get(k, "")) for k in keys) + ("*" if row["same_rules_as"] else "")


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def render_search(result: dict, keys: list[str], out: str | None) -> str:
    """The text of a `tune --target` search (module doc)."""
    names = list(dict.fromkeys(t.split()[0] for t in result["targets"]))
    in_targets = [t for t in result["targets"] if " in " in t]
    near = list(result.get("closest") or {})
    rows = result["rows"]
    digits = {n: decimals([r.get(n) for r in rows]) for n in names}
    group = {"meets": 0, "undecided": 1, "fails": 2}
    if near:
        dist = {x["cell"]: i for i, x in enumerate(result["closest"][near[0]])}
        order = sorted(rows, key=lambda r: (r["verdict"] == "fails", dist.get(r["cell"], 0)))
    else:
        order = sorted(rows, key=lambda r: group[r["verdict"]])
    shown, hidden = order, []
    if len(order) > MOST_ROWS:
        keep = [r for r in order if r["verdict"] != "fails"][:MOST_ROWS]
        fails = [r for r in order if r["verdict"] == "fails"]
        fails.sort(key=lambda r: _margin(r, result["targets"]))
        keep += fails[:max(MOST_ROWS - len(keep), 4)]
        shown = [r for r in order if any(r is k for k in keep)]
        hidden = [r for r in order if not any(r is k for k in keep)]
    headers = [*keys, "verdict", *names, "trials"]
    table_rows = []
    for r in shown:
        line = [_value(r.get(k, "")) + ("*" if i == len(keys) - 1 and r["same_rules_as"] else "")
                for i, k in enumerate(keys)]
        verdict = _verdict(r, in_targets)
        if near and r["verdict"] != "fails" and not in_targets:
            verdict = "racing" if r["in_race"] else "farther"
        line.append(verdict)
        line += [interval(r.get(n), digits[n]) for n in names]
        line.append(count(r["n"]))
        table_rows.append(line)
    text = [f"tune {result['game']} --target: {result['cells']} cells; "
            + "; ".join(result["targets"])]
    if in_targets or not near:
        text.append(table(table_rows, headers, "l" * (len(keys) + 1 + len(names)) + "r",
                          squeeze=tuple(range(len(keys)))))
        if hidden:
            where = f"--out {out}: cells.csv" if out else "add --out DIR for the full table"
            verdicts = sorted({r["verdict"] for r in hidden})
            text.append(f"… and {len(hidden)} more cells ({', '.join(verdicts)}; {where})")
    for t in near:
        metric = t.split()[0]
        text.append(textwrap.fill(f"closest to {t}: each cell ({', '.join(keys)}) with its "
                                  f"distance |{metric} − {t.split('~')[1].strip()}| and its "
                                  f"interval; 'farther': certified farther than another cell",
                                  WIDTH))
        listed = result["closest"][t]
        by_cell = {r["cell"]: r for r in rows}
        d = decimals([x["distance"] for x in listed])
        listing = [[_values(by_cell[x["cell"]], keys),
                    interval(by_cell[x["cell"]].get(metric), digits[metric]),
                    interval(x["distance"], d), "farther" if x["certified_farther"] else "racing",
                    count(by_cell[x["cell"]]["n"])] for x in listed[:MOST_ROWS]]
        text.append(table(listing, ["cell", metric, "distance", "", "trials"],
                          "llllr", squeeze=(0,)))
        if len(listed) > MOST_ROWS:
            text.append(f"… and {len(listed) - MOST_ROWS} more cells farther down the list")
    aliased = [r for r in shown if r["same_rules_as"]]
    for r in aliased:
        others = "; ".join(", ".join(f"{k}={_value(v)}" for k, v in s.items())
                           for s in r["same_rules_as"][:3])
        more = "; …" if len(r["same_rules_as"]) > 3 else ""
        text.append(textwrap.fill(
            f"* {r['cell'].split(' (and')[0]} is the same game as "
            f"{len(r['same_rules_as'])} more cell(s): {others}{more}", WIDTH,
            subsequent_indent="  "))
    elim = ", ".join(f"{k}: {v}" for k, v in result["eliminated_by_target"].items()) or "none"
    if in_targets:
        text.append(textwrap.fill(
            f"meets {result['meets']}, fails {result['fails']}, undecided "
            f"{result['undecided']} (stopped: {result['stopped_by']}); eliminated by target: "
            f"{elim}", WIDTH, subsequent_indent="  "))
    else:
        racing = sum(r.get("in_race", False) for r in rows)
        text.append(f"racing {racing}, certified farther {len(rows) - racing} (stopped: "
                    f"{result['stopped_by']})")
    text.append(wrap("cost", _cost(result)))
    text.append(f"time: {_time(result)}")
    text.append(wrap("method", result["method"]))
    return "\n".join(text)


def _margin(row: dict, targets: list[str]) -> float:
    """Distance from a failing cell's estimate to the bound it failed (smallest first)."""
    if not row["failed_on"]:
        return 0.0
    metric, rest = row["failed_on"].split(" in ", 1)
    lo, hi = (float(x) for x in rest.strip("[] ").split(","))
    est = row[metric]["estimate"]
    return max(lo - est, est - hi)


def _cost(result: dict) -> str:
    spent = result["trials_spent"]
    text = f"{count(spent)} trials"
    grid = result["equal_grid"]
    if not grid:
        return text + "; no verdict was decided, so no grid compares"
    text += (f"; a grid with the same guarantee (every cell at one n, normal intervals at its "
             f"own Bonferroni z = {grid['z']:.3f} for {grid['intervals']} intervals, the same "
             f"half-widths where verdicts were decided) needs {count(grid['trials'])} trials: "
             f"{result['saving']:.2f}× the search's")
    if grid.get("deciding_trials"):
        text += (f" (a grid that only has to clear the same bounds: "
                 f"{count(grid['deciding_trials'])} trials, "
                 f"{grid['deciding_trials'] / spent:.2f}×)")
    return text


def _time(result: dict) -> str:
    """Seconds on a line of their own (they differ from run to run; the trials do not)."""
    text = f"{seconds(result['kernel_seconds'])} in the kernels"
    if result["equal_grid"]:
        text += f"; the grid: about {seconds(result['equal_grid']['seconds'])}"
    return text


def render_sweep(result: dict, names: list[str], n: int) -> str:
    """The text of a `tune --sweep`: per metric, a table of each cell's value and its paired
    difference from the baseline, fitted to 80 columns; the cells identical to the baseline on
    every trial are footnoted with the reason."""
    rows = result["rows"]
    policies = {r["policy"] for r in rows}
    said = result.get("played_by", "policy")  # a line-up (--seats) or one player's --policy
    policy = f"; {said} {result['baseline_policy']}" if len(policies) == 1 else ""
    text = [f"tune {result['game']}: {result['cells']} cells × n = {n:,}, seed "
            f"{result['seed']}{policy}", wrap("method", result["method"])]
    notes: dict[str, int] = {}
    for name in names:
        d_val = decimals([r[name] for r in rows])
        d_diff = decimals([r.get(f"{name}_vs_baseline") for r in rows])
        lines = []
        for r in rows:
            d = r.get(f"{name}_vs_baseline")
            label = r["cell"] + (f" (+{len(r['same_rules_as'])} same)" if r["same_rules_as"]
                                 else "")
            if len(policies) > 1 and "policy" not in r["cell"]:
                label += f" [{r['policy']}]"
            lines.append([label, interval(r[name], d_val),
                          "—" if d is None else interval(d, d_diff, "+"), _effect(d, notes)])
        text.append(f"{name}:")
        text.append(table(lines, ["cell", "value", "− baseline", "effect"], "llll",
                          squeeze=(0,)))
    chain = ""
    for item in result["ranking"][:8]:
        chain += item["cell"] + (f" {item['vs_next']} " if "vs_next" in item else "")
    text.append(wrap(f"ranked by {names[0]} ({result['rank']})", chain.strip()))
    text.append("  ('>' a resolved paired difference, '≈' not resolved, '=' identical)")
    if result["rerun"]:
        head = names[0]
        d_val = decimals([r[head] for r in result["rerun"]])
        d_diff = decimals([r.get(f"{head}_vs_baseline") for r in result["rerun"]])
        text.append(f"re-run on a fresh stream ({head}):")
        text.append(table([[r["cell"], interval(r[head], d_val),
                            "—" if r["cell"] == "baseline" else
                            interval(r[f"{head}_vs_baseline"], d_diff, "+"),
                            _effect(r.get(f"{head}_vs_baseline"), notes)]
                           for r in result["rerun"]],
                          ["cell", "value", "− baseline", "effect"], "llll", squeeze=(0,)))
    for why, mark in notes.items():
        text.append(textwrap.fill(f"({mark}) identical to the baseline on every trial: {why}",
                                  WIDTH, subsequent_indent="    "))
    return "\n".join(text)


def _effect(d: dict | None, notes: dict) -> str:
    """A paired difference's effect, with a numbered note for a cell identical on every trial."""
    if d is None:
        return ""
    if "why" in d or d["effect"].startswith("no effect"):
        mark = notes.setdefault(d.get("why", "(no reason recorded)"), len(notes) + 1)
        return f"no effect ({mark})"
    return d["effect"]
