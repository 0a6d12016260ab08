"""Ten in reports: the report parts (``PARTS``: one turn's threshold rules and the exact rule
sensitivity, rules of thumb, whole games' balance, whole-game draw rules), the threshold table
and the threshold chart (the chart `ten thresholds --chart` draws too).

Imports pandas/matplotlib lazily (only the functions that tabulate or draw use them).
"""
from __future__ import annotations


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


def threshold_figure(res: dict):
    """Value (with 95% intervals and exact values) and bust rate against the threshold."""
    from analyzer.charts import new_figure

    rows = [r for r in res["rows"] if r["threshold"] is not None]
    x = [r["threshold"] for r in rows]
    fig, ax = new_figure(8.0, 5.0)
    est = [r["mean_value"].estimate for r in rows]
    err = [r["mean_value"].half_width for r in rows]
    ax.errorbar(x, est, yerr=err, fmt="o-", color="tab:blue", capsize=3,
                label="value per turn (Monte Carlo, 95% interval)")
    ax.plot(x, [r["mean_value"].exact_value for r in rows], "x", color="navy",
            label="exact value")
    ax.axhline(res["optimal_value_exact"], color="tab:green", linestyle="--",
               label=f"optimal play (exact) {res['optimal_value_exact']:.3f}")
    label = "stop once T ≥ t" if res["by"] == "total" else "stop after m tableau cards"
    ax.set_xlabel(f"threshold ({label})")
    vm = res["value_model"]
    ax.set_ylabel("value per turn (number cards)")
    ax2 = ax.twinx()
    ax2.plot(x, [r["p_bust"].estimate * 100 for r in rows], "s:", color="tab:red",
             label="chance the turn busts")
    ax2.set_ylabel("chance the turn busts (%)", color="tab:red")
    ax2.set_ylim(0, 100)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    # the legend sits below the axes (it covered the points inside them)
    ax.legend(h1 + h2, l1 + l2, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2,
              fontsize=8, frameon=False)
    by = "the total T" if res["by"] == "total" else "the cards in the tableau"
    ax.set_title(f"Ten: one turn under threshold rules by {by}", fontsize=11)
    fig.text(0.01, -0.1, f"n = {res['n']:,} turns per rule; value in number cards (card "
             f"{vm['card']:g}, token {vm['token']:g}, bust {vm['bust']:g} tokens, opponents' "
             f"gain {vm['opp']:g})", fontsize=8, ha="left", va="top", color="dimgrey")
    return fig


def threshold_chart(res: dict, base):
    """`ten thresholds --chart`: :func:`threshold_figure` written to BASE.png and BASE.svg."""
    from analyzer.charts import save_figure

    return save_figure(threshold_figure(res), base)


def rule_words(label: str) -> str:
    """A threshold rule in words: ``total:7`` → "stop once T ≥ 7", ``cards:3`` → "stop after
    3 tableau cards", ``optimal`` → "optimal play"."""
    kind, _, value = label.partition(":")
    if kind == "total":
        return f"stop once T \u2265 {value}"
    if kind == "cards":
        return f"stop after {value} tableau cards"
    return "optimal play" if label == "optimal" else label


def _no_rules(params: dict, rules: dict) -> None:
    from analyzer.errors import UserError

    if rules:
        raise UserError("the ten.section part takes no [rules] overrides (it reports the "
                        "default rules)")


def turn_section_part(params: dict, rules: dict, seed: int):
    """Both threshold families on a fresh 4-player deck (Monte Carlo beside exact values), and
    the exact rule sensitivity of a turn."""
    from analyzer.balance import Finding
    from analyzer.charts import chart_files
    from analyzer.games.ten.exact import Model
    from analyzer.games.ten.play import thresholds
    from analyzer.games.ten.rules import TenRules, ValueModel, load_deck, turn_state
    from analyzer.numbers import interval
    from analyzer.report import PartResult
    from analyzer.runner import RunSpec
    from analyzer.tables import Col, people_table, table_files

    _no_rules(params, rules)
    quick = bool(params.get("quick", False))
    r = TenRules()
    model = Model(turn_state(r, load_deck()), r, ValueModel())
    n = 100_000 if quick else 5_000_000
    files, md, found = {}, [
        "One turn from a fresh 129-card deck, 4 players (the currency split 6/6/6/5/4 is an "
        "assumption), value model: a number card 1, a token 0.25, a bust token 3 tokens, "
        "opponents' gains 0. Threshold rules are measured by Monte Carlo on common random "
        "numbers beside each rule's exact value from the same expectimax.", ""], []
    for by in ("total", "cards"):
        res = thresholds(model, by, RunSpec(n, seed, progress=False))
        stem = f"ten_thresholds_{by}"
        frame = threshold_frame(res)
        files.update(table_files(frame, stem))
        files.update(chart_files(threshold_figure(res), stem,
                                 frame[["policy", "threshold", "mean_value", "mean_value_lo",
                                        "mean_value_hi", "value_exact", "p_bust"]]))
        best = max(res["rows"][1:], key=lambda x: x["mean_value"].exact_value)
        rows = [{"policy": rule_words(x["policy"]), "bust": x["p_bust"], "value": x["mean_value"],
                 "exact": x["mean_value"].exact_value, "gap": x.get("optimal_minus_this")}
                for x in res["rows"]]
        words = "the total T" if by == "total" else "the cards in the tableau"
        md += [f"### Stopping by {words}", "",
               f"![Ten: threshold rules by {words}]({stem}.svg)", "",
               people_table(rows, [Col("rule", "policy"), Col("turn busts", "bust", "percent"),
                                   Col("value per turn", "value", "stat"),
                                   Col("exact value", "exact", "number", 4),
                                   Col("optimal − this (paired)", "gap", "stat")]),
               f"Best simple rule: {rule_words(best['policy'])} (exact value "
               f"{best['mean_value'].exact_value:.4f} against {res['optimal_value_exact']:.4f} "
               "for optimal play).", ""]
        if by == "total":
            found.append(Finding(
                f"The best \u201cstop once T \u2265 t\u201d rule, {rule_words(best['policy'])}, "
                f"is worth "
                f"{best['mean_value'].exact_value:.4f} number cards a turn against "
                f"{res['optimal_value_exact']:.4f} for optimal play (exact; Monte Carlo "
                f"{interval(best['mean_value'])}, n = {res['n']:,}).", 2))
    sens_files, sens_md, sens_found = _rule_sensitivity()
    files.update(sens_files)
    md += sens_md
    found += sens_found
    return PartResult(files, "\n".join(md), {
        "quick": quick, "findings": [f.to_json() for f in found],
        "key_chart": "ten_thresholds_total",
        "how": "Monte Carlo of one turn from a fresh deck, every rule on the same shuffles "
               "(common random numbers, the part seed), beside the exact value of each rule "
               "from the turn's expectimax; the rule sensitivity is exact."})


def _rule_sensitivity():
    """Exact value of a turn under optimal play and of the best 'stop once T ≥ t' rule as one
    rule changes (others at their defaults): a designer's view, no sampling. Returns (files,
    markdown lines, findings)."""
    import dataclasses

    import pandas as pd

    from analyzer.balance import Finding
    from analyzer.charts import chart_files, new_figure
    from analyzer.games.ten.exact import KIND_OPTIMAL, KIND_TOTAL, Model, TenPolicy, solve
    from analyzer.games.ten.rules import TenRules, ValueModel, load_deck, turn_state
    from analyzer.tables import Col, people_table, table_files

    spec = load_deck()
    default = TenRules()
    knobs = {"bust_at": (9, 10, 12, 13), "currency_bust_at": (9, 10, 12, 13)}
    variants = [("default", None, None, {})]
    for key, values in knobs.items():
        variants += [(f"{key} = {v}", key, v, {key: v}) for v in values]
    variants += [("number_wilds = 10", "number_wilds", 10, {"number_wilds": 10})]
    policies = [TenPolicy(KIND_OPTIMAL)] + [TenPolicy(KIND_TOTAL, t) for t in range(1, 13)]
    recs = []
    for label, key, value, change in variants:
        rules = dataclasses.replace(default, **change)
        sol = solve(Model(turn_state(rules, spec), rules, ValueModel()), policies)
        best_t = max(range(1, len(policies)), key=sol.value)
        recs.append({"variant": label, "rule": key, "value": value,
                     "optimal_value": sol.value(0), "best_threshold": policies[best_t].label,
                     "best_threshold_value": sol.value(best_t), "states": sol.states})
    df = pd.DataFrame(recs)
    files = table_files(df, "ten_rule_sensitivity")
    base = recs[0]
    points = []
    for key in knobs:
        for v in sorted(set(knobs[key]) | {getattr(default, key)}):
            row = base if v == getattr(default, key) else next(
                x for x in recs if x["rule"] == key and x["value"] == v)
            points.append({"rule": key, "value": v, "optimal_value": row["optimal_value"],
                           "best_threshold_value": row["best_threshold_value"]})
    data = pd.DataFrame(points)
    fig, ax0 = new_figure(9.0, 3.8)
    fig.delaxes(ax0)
    axes = fig.subplots(1, len(knobs), sharey=True)
    for ax, key in zip(axes, knobs):
        sub = data[data.rule == key]
        ax.grid(True, alpha=0.3)
        ax.plot(sub.value, sub.optimal_value, "o-", label="optimal play")
        ax.plot(sub.value, sub.best_threshold_value, "s--",
                label="best \u201cstop once T \u2265 t\u201d")
        ax.axvline(getattr(default, key), color="grey", linestyle=":", linewidth=1)
        ax.set_xlabel(key.replace("_", " ") + " (the default dotted)")
        ax.set_xticks(list(sub.value))
    axes[0].set_ylabel("value of a turn (number cards)")
    axes[-1].legend(frameon=False, fontsize=8)
    fig.suptitle("Ten: the value of a turn as one bust limit changes (exact)", fontsize=11)
    fig.tight_layout()
    files.update(chart_files(fig, "ten_rule_sensitivity", data))
    shown = [{"variant": x["variant"].replace("_", " "), "opt": x["optimal_value"],
              "best": rule_words(x["best_threshold"]), "bestv": x["best_threshold_value"]}
             for x in recs]
    md = ["### Rule sensitivity (exact)", "",
          "One rule changed at a time from the defaults, fresh deck, same value model.", "",
          "![Ten: the value of a turn as one bust limit changes (exact)]"
          "(ten_rule_sensitivity.svg)", "",
          people_table(shown, [Col("rules", "variant"),
                               Col("optimal value (number cards)", "opt", "number", 4),
                               Col("best \u201cstop once T \u2265 t\u201d", "best"),
                               Col("its value", "bestv", "number", 4)]),
          "In this turn model a wild only pauses the draw for an auction, so the number of wilds "
          "changes how many auctions a turn triggers but never a turn's value.", ""]
    lo = next(x for x in recs if x["rule"] == "bust_at" and x["value"] == min(knobs["bust_at"]))
    hi = next(x for x in recs if x["rule"] == "bust_at" and x["value"] == max(knobs["bust_at"]))
    found = [Finding(f"Moving the number bust limit from {lo['value']} to {hi['value']} changes "
                     f"the value of a turn under optimal play from {lo['optimal_value']:.3f} to "
                     f"{hi['optimal_value']:.3f} number cards (exact).", 5)]
    return files, md, found


def advice_part(params: dict, rules: dict, seed: int):
    """Draw-or-stop rules of thumb from a fresh turn, with their exact loss (``ten advice``)."""
    from analyzer.advice import rule_row
    from analyzer.advice.report import exact_part
    from analyzer.games.ten.advice import DECISION, advise
    from analyzer.games.ten.exact import Model
    from analyzer.games.ten.rules import TenRules, ValueModel, load_deck, turn_state
    from analyzer.rules import build_rules

    r = build_rules(TenRules, None, None, rules)
    players = int(params.get("players", 4))
    model = Model(turn_state(r, load_deck(None), None, None, players), r, ValueModel(), players, 0)
    res = advise(model, int(params.get("bands", 3)), int(params.get("clauses", 3)))
    rows = [rule_row(s, res["features"], DECISION) for s in res["front"]]
    intro = (f"Draw-or-stop rules a person can remember (T, C, cards in the tableau, bust "
             f"chance), each evaluated exactly over the {res['states']:,} states of a fresh "
             f"turn; loss = optimal value ({res['v_optimal']:.4f}) minus the rule's, default "
             f"value model; {res['evaluations']:,} rules evaluated.")
    return exact_part(rows, "number cards", f"Ten turn, {players} players: rules of thumb "
                      "(exact)", intro, "Exact: each rule is evaluated over every state of a "
                      "fresh turn by the turn's expectimax; no sampling.")


def _whole_games_settings(params: dict, rules: dict):
    """Rules, player counts and the compared line-ups of the whole-games part (its check:
    every line-up parsed as `ten game --seats` does)."""
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.rules import TenRules
    from analyzer.rules import build_rules

    r = build_rules(TenRules, None, None, rules)
    counts = params.get("players", [3, 4, 5])
    for players in counts:
        parse_seats(params.get("bot", "threshold"), players, "bot")
    compared = [(text, parse_seats(text, 4, "seats")) for text in params.get("seats", COMPARED)]
    return r, counts, compared


COMPARED = ["threshold", "exact,threshold,threshold,threshold",
            "threshold:reward=currency,threshold,threshold,threshold"]


def whole_games_part(params: dict, rules: dict, seed: int):
    """Whole games (analyzer/balance.py): per player count, seat advantage, ties and the
    tie-break, the winner's margin, game length and busts from the engine's per-game records;
    then line-ups compared on the same decks (4 players)."""
    from analyzer.balance import Finding, share
    from analyzer.balance_part import balance_result
    from analyzer.games.ten.balance import balance_of, records
    from analyzer.games.ten.lineup import parse_seats
    from analyzer.games.ten.decide import play_games
    from analyzer.games.ten.rules import load_deck
    from analyzer.games.ten.whole import Setup
    from analyzer.numbers import interval
    from analyzer.runner import RunSpec
    from analyzer.tables import Col, people_table

    r, counts, compared = _whole_games_settings(params, rules)
    games = int(params.get("games", 50_000))
    bot = params.get("bot", "threshold")
    groups = []
    for k, players in enumerate(counts):
        setup = Setup(r, load_deck(), players, [parse_seats(bot, players, "bot")])
        groups.append(balance_of(records(setup, games, seed + k), players, seed + k,
                                 f"{players} players"))
    setup = Setup(r, load_deck(), 4, [lu for _t, lu in compared])
    res = play_games(setup, RunSpec(games, seed + 99, progress=False))
    rows = []
    for k, lu in enumerate(res["lineups"]):
        row = {"lineup": ", ".join(lu["bots"]) if len(set(lu["bots"])) > 1 else
               f"{lu['bots'][0]} in every seat", "turns": lu["turns"]}
        for q, s in enumerate(lu["seats"]):
            row[f"s{q}"] = share(s["win_rate"])
        if k > 0:
            row["d0"] = res["differences"][k - 1]["seats"][0]["win_rate"]
        rows.append(row)
    table = people_table(rows, [Col("line-up (seat 1 first)", "lineup")]
                         + [Col(f"seat {q + 1} wins", f"s{q}", "percent") for q in range(4)]
                         + [Col("turns per game", "turns", "stat"),
                            Col("seat 1: first line-up − this (percentage points, paired)",
                                "d0", "points")])
    extra = ("**Line-ups compared** (4 players, the same shuffled decks for every line-up, "
             f"n = {res['n']:,} games each; 95% intervals):\n\n" + table)
    out = balance_result(groups, "Ten", (
        f"Monte Carlo: whole games of `ten game`'s engine with auctions, rewards, buys and the "
        f"final buy round, {games:,} per player count (player count k seeded with the part "
        f"seed + k, the line-ups compared with + 99, on the same decks). Figures come from each "
        "game's record; win shares and means with normal 95% intervals, rates with Wilson's, "
        "busts per turn as a ratio over games (delta method), length quantiles with "
        "order-statistic intervals."),
        subject=lambda b: f"{b.group.replace(' players', '-player')} games between {bot} bots",
        group_header="players", extra=extra,
        main=next((i for i, p in enumerate(counts) if p == 4), 0))
    for k in range(1, len(rows)):
        d = rows[k]["d0"]
        if d.ci_high < 0 or d.ci_low > 0:
            out.meta["findings"].append(Finding(
                f"In 4-player games seat 1 played as \u201c{res['lineups'][k]['bots'][0]}\u201d "
                f"wins {interval(rows[k]['s0'], percent=True)}; the first line-up's seat 1 "
                f"wins {interval(d, points=True, signed=True)} percentage points more on the "
                f"same decks (n = {res['n']:,}).", 6).to_json())
    return out


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
             f"of {players}-player games in turn against threshold bots on the same deals; loss "
             f"in win probability against the best rule, 95% Bonferroni intervals, surviving "
             f"rules only. A short race for the report (at most {rounds} rounds) of the single "
             f"thresholds; `pushluck ten game-advice` races the full ladder with decision "
             f"lists.")
    return raced_part(res, "win probability", f"Ten, {players} players: when to stop drawing "
                      f"(Monte Carlo)", intro)


def _removals_part(params: dict, rules: dict, seed: int):
    """The removal-list sensitivity (analyzer/games/ten/removals.py)."""
    from analyzer.games.ten.removals import removals_part

    return removals_part(params, rules, seed)


def _removals_settings(params: dict, rules: dict):
    from analyzer.games.ten.removals import removals_settings

    return removals_settings(params, rules)


def _parts():
    from analyzer.report import PartKind
    from analyzer.report_params import Param

    return (
        PartKind("ten", "section", turn_section_part,
                 "threshold policies against the exact optimal policy, rule sensitivity",
                 {"quick": Param("bool")}, _no_rules, tiny={"quick": True}),
        PartKind("ten", "advice", advice_part,
                 "draw-or-stop rules of thumb and their exact loss",
                 {"players": Param("int", 1, 5), "bands": Param("int", 1, 3),
                  "clauses": Param("int", 1, 3)}, tiny={"bands": 1, "clauses": 1}),
        PartKind("ten", "whole-games", whole_games_part,
                 "whole games: seat advantage, ties, length, margin, busts; line-ups compared",
                 {"games": Param("int", 1, 10**8),
                  "players": Param("ints", 2, 5, max_items=4), "bot": Param("str"),
                  "seats": Param("strs", max_items=6)}, _whole_games_settings,
                 tiny={"games": 600}),
        PartKind("ten", "removals", _removals_part,
                 "2-3 player card removals (unknown): whole-game figures under hypothetical "
                 "removal lists",
                 {"games": Param("int", 1, 10**8), "players": Param("ints", 2, 3, max_items=2),
                  "bot": Param("str")}, _removals_settings, tiny={"games": 300}),
        PartKind("ten", "game-advice", game_advice_part,
                 "whole-game draw rules raced in win probability (Monte Carlo)",
                 {"players": Param("int", 2, 5), "rounds": Param("int", 1, 200),
                  "precision": Param("float", 1e-4, 1.0)}, tiny={"rounds": 1}),
    )


PARTS = _parts()
