"""Ten in reports: the report section (``PARTS``), the threshold table and the threshold chart
(the chart `ten thresholds --chart` draws too), and the exact rule-sensitivity table.

Imports pandas/matplotlib lazily (only the functions that tabulate or draw use them).
"""
from __future__ import annotations

import pathlib

from analyzer.report import section_part


def threshold_frame(res: dict):
    """A tidy DataFrame of a `thresholds` result (one row per policy)."""
    import pandas as pd

    recs = []
    for r in res["rows"]:
        rec = {"policy": r["policy"], "threshold": r["threshold"], "n": res["n"],
               "seed": res["seed"]}
        for key in ("p_bust", "p_number_bust", "p_currency_bust", "mean_number_cards",
                    "mean_tokens", "mean_value"):
            s = r[key]
            rec[key] = s.estimate
            rec[f"{key}_se"] = s.se
            rec[f"{key}_lo"] = s.ci_low
            rec[f"{key}_hi"] = s.ci_high
        rec["value_exact"] = r["mean_value"].exact_value
        gap = r.get("optimal_minus_this")
        rec["optimal_minus_this"] = None if gap is None else gap.estimate
        rec["optimal_minus_this_se"] = None if gap is None else gap.se
        recs.append(rec)
    return pd.DataFrame(recs)


def threshold_chart(res: dict, base):
    """Value (with 95% intervals and exact values) and bust rate against the threshold."""
    from analyzer.charts import new_figure, save_figure

    rows = [r for r in res["rows"] if r["threshold"] is not None]
    x = [r["threshold"] for r in rows]
    fig, ax = new_figure(8.0, 5.0)
    est = [r["mean_value"].estimate for r in rows]
    err = [r["mean_value"].half_width for r in rows]
    ax.errorbar(x, est, yerr=err, fmt="o-", color="tab:blue", capsize=3,
                label="mean value (MC, 95% CI)")
    ax.plot(x, [r["mean_value"].exact_value for r in rows], "x", color="navy",
            label="exact value")
    ax.axhline(res["optimal_value_exact"], color="tab:green", linestyle="--",
               label=f"optimal (exact) {res['optimal_value_exact']:.3f}")
    label = "stop once T ≥ t" if res["by"] == "total" else "stop after m tableau cards"
    ax.set_xlabel(f"threshold ({label})")
    vm = res["value_model"]
    ax.set_ylabel("value per turn")
    ax2 = ax.twinx()
    ax2.plot(x, [r["p_bust"].estimate for r in rows], "s:", color="tab:red", label="P(bust)")
    ax2.set_ylabel("P(bust)", color="tab:red")
    ax2.set_ylim(0, 1)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    # the legend sits below the axes (it covered the points inside them)
    ax.legend(h1 + h2, l1 + l2, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=4,
              fontsize=8, frameon=False)
    ax.set_title(f"Ten: threshold policies by {res['by']}")
    fig.text(0.01, -0.06, f"n = {res['n']:,} turns per policy, seed {res['seed']}; value in "
             f"card-equivalents (card={vm['card']:g}, token={vm['token']:g}, "
             f"bust={vm['bust']:g} tokens, opp={vm['opp']:g})", fontsize=8, ha="left",
             va="top", color="dimgrey")
    return save_figure(fig, base)


def report_section(out_dir: pathlib.Path, seed: int, quick: bool = False) -> str:
    """Run both threshold families on a fresh 4-player deck; write tables and charts; summarise."""
    from analyzer.games.ten.exact import Model
    from analyzer.games.ten.play import thresholds
    from analyzer.games.ten.rules import TenRules, ValueModel, load_deck, turn_state
    from analyzer.runner import RunSpec
    from analyzer.tables import write_table

    out_dir = pathlib.Path(out_dir)
    rules = TenRules()
    model = Model(turn_state(rules, load_deck()), rules, ValueModel())
    n = 100_000 if quick else 5_000_000
    lines = ["## Ten", "",
             "One turn from a fresh 129-card deck (4 players; currency split 6/6/6/5/4 is an "
             "assumption), value model card = 1, token = 0.25, bust token = 3 tokens, opp = 0. "
             "Threshold policies are measured by Monte Carlo on common random numbers; every "
             "policy's exact value comes from the same expectimax sweep.", ""]
    for by in ("total", "cards"):
        res = thresholds(model, by, RunSpec(n, seed))
        base = out_dir / f"ten_thresholds_{by}"
        write_table(threshold_frame(res), base)
        threshold_chart(res, base)
        best = max(res["rows"][1:], key=lambda r: r["mean_value"].exact_value)
        lines.append(f"**By {'total T' if by == 'total' else 'tableau cards'}** "
                     f"(n = {res['n']:,} turns per policy, seed {seed}; "
                     f"![chart]({base.name}.png), [table]({base.name}.csv)):")
        lines.append("")
        lines.append("| policy | P(bust) [95% CI] | value [95% CI] | exact value | "
                     "optimal − this [95% CI] |")
        lines.append("|---|---|---|---|---|")
        for r in res["rows"]:
            pb, v = r["p_bust"], r["mean_value"]
            gap = r.get("optimal_minus_this")
            lines.append(
                f"| {r['policy']} | {pb.estimate:.4f} [{pb.ci_low:.4f}, {pb.ci_high:.4f}] | "
                f"{v.estimate:.4f} [{v.ci_low:.4f}, {v.ci_high:.4f}] | {v.exact_value:.4f} | "
                + ("—" if gap is None else
                   f"{gap.estimate:.4f} [{gap.ci_low:.4f}, {gap.ci_high:.4f}]") + " |")
        lines.append("")
        lines.append(f"Best simple rule: {best['policy']} (exact value "
                     f"{best['mean_value'].exact_value:.4f} vs optimal "
                     f"{res['optimal_value_exact']:.4f}).")
        lines.append("")
    lines += _rule_sensitivity(out_dir)
    return "\n".join(lines)


def _rule_sensitivity(out_dir: pathlib.Path) -> list[str]:
    """Exact value of a turn under optimal play and of the best 'stop once T ≥ t' rule as one
    rule changes (others at their defaults): a designer's view, no sampling."""
    import dataclasses

    import pandas as pd

    from analyzer.games.ten.exact import KIND_OPTIMAL, KIND_TOTAL, Model, TenPolicy, solve
    from analyzer.games.ten.rules import TenRules, ValueModel, load_deck, turn_state
    from analyzer.tables import write_table

    spec = load_deck()
    variants = [("default", {})]
    variants += [(f"bust_at = {b}", {"bust_at": b}) for b in (9, 10, 12, 13)]
    variants += [(f"currency_bust_at = {b}", {"currency_bust_at": b}) for b in (9, 10, 12, 13)]
    variants += [("number_wilds = 10", {"number_wilds": 10})]
    policies = [TenPolicy(KIND_OPTIMAL)] + [TenPolicy(KIND_TOTAL, t) for t in range(1, 13)]
    recs = []
    for label, change in variants:
        rules = dataclasses.replace(TenRules(), **change)
        sol = solve(Model(turn_state(rules, spec), rules, ValueModel()), policies)
        best_t = max(range(1, len(policies)), key=sol.value)
        recs.append({"variant": label, "optimal_value": sol.value(0),
                     "best_threshold": policies[best_t].label,
                     "best_threshold_value": sol.value(best_t), "states": sol.states})
    df = pd.DataFrame(recs)
    write_table(df, out_dir / "ten_rule_sensitivity")
    lines = ["**Rule sensitivity (exact, one rule changed at a time; fresh deck, same value "
             "model)** ([table](ten_rule_sensitivity.csv)):", "",
             "| variant | optimal value | best 'stop once T ≥ t' | its value |", "|---|---|---|---|"]
    for r in recs:
        lines.append(f"| {r['variant']} | {r['optimal_value']:.4f} | {r['best_threshold']} | "
                     f"{r['best_threshold_value']:.4f} |")
    lines += ["", "In this turn model a wild only pauses the draw for an auction, so the number of "
              "wilds changes how many auctions a turn triggers but never a turn's value.", ""]
    return lines


PARTS = (
    section_part("ten", report_section, "section",
                 "threshold policies against the exact optimal policy, rule sensitivity"),
)


def advice_part(params: dict, rules: dict, seed: int):
    """Draw-or-stop rules of thumb from a fresh turn, with their exact loss (``ten advice``)."""
    from analyzer.advice import rule_row
    from analyzer.advice.report import front_files
    from analyzer.games.ten.advice import DECISION, advise
    from analyzer.games.ten.exact import Model
    from analyzer.games.ten.rules import TenRules, ValueModel, load_deck, turn_state
    from analyzer.report import PartResult
    from analyzer.rules import build_rules

    r = build_rules(TenRules, None, None, rules)
    players = int(params.get("players", 4))
    model = Model(turn_state(r, load_deck(None), None, None, players), r, ValueModel(), players, 0)
    res = advise(model, int(params.get("bands", 3)), int(params.get("clauses", 3)))
    rows = [rule_row(s, res["features"], DECISION) for s in res["front"]]
    files, md = front_files(rows, "number cards", f"Ten turn, {players} players: rules of thumb "
                            f"(exact)")
    summary = (f"Draw-or-stop rules a person can remember (T, C, cards in the tableau, bust "
               f"chance), each evaluated exactly over the {res['states']:,} states of a fresh "
               f"turn; loss = optimal value ({res['v_optimal']:.4f}) minus the rule's, default "
               f"value model; {res['evaluations']} rules evaluated.\n\n" + md)
    return PartResult(files, summary, {"exact": True, "front": rows})


def _advice_kind():
    from analyzer.report import PartKind

    from analyzer.report_params import Param

    return PartKind("ten", "advice", advice_part,
                    "draw-or-stop rules of thumb and their exact loss",
                    {"players": Param("int", 1, 5), "bands": Param("int", 1, 3),
                     "clauses": Param("int", 1, 3)})


PARTS = PARTS + (_advice_kind(),)


def _whole_games_section(out_dir: pathlib.Path, seed: int, quick: bool = False) -> str:
    from analyzer.games.ten.whole_parts import report_section as whole_section

    return whole_section(out_dir, seed, quick)


PARTS += (section_part("ten", _whole_games_section, "whole-games",
                       "whole games between bots: win rate per seat, length, auctions"),)


def game_advice_part(params: dict, rules: dict, seed: int):
    """When to stop drawing in whole games: the raced draw rules (``ten game-advice``), with a
    small default race (``rounds``, ``precision``) of the 19 single thresholds (the bots'
    family without bands, not the 430-rule ladder) so that ``make run`` stays short."""
    from analyzer.advice.report import raced_part
    from analyzer.games.ten.advice_game import advise
    from analyzer.games.ten.rules import TenRules, load_deck
    from analyzer.rules import build_rules

    r = build_rules(TenRules, None, None, rules)
    players, rounds = int(params.get("players", 4)), int(params.get("rounds", 4))
    res = advise(r, load_deck(None), players, seed, rounds,
                 float(params.get("precision", 0.01)), bands="none")
    intro = (f"The threshold bots' draw rules in words, the studied player taking every seat "
             f"of {players}-player games in turn against threshold bots on the same deals "
             f"(seed {seed}); loss in win probability against the best rule, 95% Bonferroni "
             f"intervals, surviving rules only. A short race for the report (at most {rounds} "
             f"rounds) of the single thresholds; `pushluck ten game-advice` races the full ladder "
             f"with decision lists.")
    return raced_part(res, "win probability", f"Ten whole games, {players} players: when to "
                      f"stop drawing (Monte Carlo)", intro)


def _game_advice_kind():
    from analyzer.report import PartKind

    from analyzer.report_params import Param

    return PartKind("ten", "game-advice", game_advice_part,
                    "whole-game draw rules raced in win probability (Monte Carlo)",
                    {"players": Param("int", 2, 5), "rounds": Param("int", 1, 200),
                     "precision": Param("float", 1e-4, 1.0)})


PARTS += (_game_advice_kind(),)
