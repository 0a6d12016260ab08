"""Report parts of Trash Pandas: the optimal policy, a Monte Carlo check of it, a chart.

What belongs here: the report parts (``PARTS``), the tables and charts they write, and any chart a
command also draws. pandas and matplotlib are imported inside the functions that use them.
"""
from __future__ import annotations

from analyzer.botspec import bot_words
from analyzer.games.trash_pandas.exact import TurnSolver
from analyzer.games.trash_pandas.rules import MAIN, TrashPandasRules, ValueModel, popcount
from analyzer.report_params import Param
from analyzer.report import PartKind, PartResult

DEFAULT_HANDS = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 1]]


def _settings(params: dict, rules: dict):
    """The rules and value model a turn part uses (its settings check, see ``PartKind.check``)."""
    from analyzer.rules import build_rules

    r = build_rules(TrashPandasRules, None, None, rules)
    return r, ValueModel(**params.get("values", {}))


def _setup(params: dict, rules: dict):
    r, values = _settings(params, rules)
    return TurnSolver(values, r), values, r


def _mc_settings(params: dict, rules: dict):
    """The Monte Carlo check's rules, value model and parsed policies (its settings check)."""
    from analyzer.games.trash_pandas.lineup import parse_policy

    r, values = _settings(params, rules)
    names = params.get("policies", ["optimal", "stop-at:2", "stop-at:3", "stop-at:6"])
    return r, values, [(name, parse_policy(name)) for name in names]


def hand_words(b: int, n: int, p: int) -> str:
    """A hand of cards in words: "no cards", "1 Blammo!, 1 Nanners"."""
    cards = [f"{k} {name}" for k, name in ((b, "Blammo!"), (n, "Nanners"), (p, "MMM Pie!"))
             if k]
    return ", ".join(cards) if cards else "no cards"


def values_words(values: ValueModel) -> str:
    return ", ".join(f"{k} {v:g}" for k, v in values.__dict__.items())


def policy_words(name: str) -> str:
    """A turn policy in words: ``stop-at:3`` → "stop at 3 tokens", ``optimal``."""
    if name.startswith("stop-at:"):
        return f"stop at {name[8:]} tokens"
    return "optimal play" if name == "optimal" else name


def policy_part(params: dict, rules: dict, seed: int) -> PartResult:
    import pandas as pd

    from analyzer.balance import Finding
    from analyzer.tables import Col, people_table, table_files

    solver, values, r = _setup(params, rules)
    frames, turn_values = [], []
    for b, n, p in params.get("hands", DEFAULT_HANDS):
        df = pd.DataFrame(solver.policy_rows(b, n, p))
        df.insert(0, "pie", p)
        df.insert(0, "nanners", n)
        df.insert(0, "blammo", b)
        frames.append(df)
        turn_values.append({"hand": hand_words(b, n, p), "value": solver.turn_value(b, n, p)})
    policy = pd.concat(frames, ignore_index=True)
    main0 = policy[(policy.blammo == 0) & (policy.nanners == 0) & (policy.pie == 0)
                   & (policy.turn == "main")]
    stops = main0[main0.decision == "stop"]
    fewest = int(stops.tokens.min()) if len(stops) else None
    summary = "\n".join([
        "The exact optimal stop-or-roll decision for every set of tokens held, for each hand "
        f"of cards (value model in card-equivalents: {values_words(values)}). The value of a "
        "whole turn under optimal play:", "",
        people_table(turn_values, [Col("cards in hand", "hand"),
                                   Col("value of a turn (card-equivalents)", "value", "number",
                                       4)]),
        (f"With no cards in hand the optimal player stops at {len(stops)} of the "
         f"{len(main0)} main-turn sets of tokens held, never with fewer than {fewest} tokens; "
         "the decision for every set is in [policy.csv](policy.csv)." if fewest is not None else
         "With no cards in hand the optimal player never stops before the cap.")])
    found = [Finding(f"A whole turn with no cards in hand is worth "
                     f"{turn_values[0]['value']:.4f} card-equivalents under optimal play "
                     "(exact).", 5)] if turn_values and turn_values[0]["hand"] == "no cards" \
        else []
    if fewest is not None:
        found.append(Finding(f"With no cards in hand, optimal play never stops with fewer "
                             f"than {fewest} tokens held (exact).", 4))
    return PartResult(table_files(policy, "policy"), summary, {
        "exact": True, "rows": len(policy), "findings": [f.to_json() for f in found],
        "how": "Exact: the turn is solved by expectimax over the sets of tokens held, the "
               "cards in hand and the bonus turn; no sampling."})


def mc_check_part(params: dict, rules: dict, seed: int) -> PartResult:
    import pandas as pd

    from analyzer.balance import Finding
    from analyzer.games.trash_pandas.play import simulate
    from analyzer.runner import RunSpec
    from analyzer.tables import Col, people_table, table_files

    r, values, policies = _mc_settings(params, rules)
    turns = int(params.get("turns", 2_000_000))
    rows, shown = [], []
    for i, (b, n, p) in enumerate(params.get("hands", DEFAULT_HANDS)):
        for j, (name, policy) in enumerate(policies):
            s_seed = seed + 100 * i + j
            res = simulate(policy, values, r, (b, n, p), RunSpec(turns, s_seed, progress=False))
            for key in ("mean_value", "bust_rate", "mean_tokens", "p_all_six"):
                s = res[key]
                rows.append({"blammo": b, "nanners": n, "pie": p, "policy": name,
                             "statistic": key, "estimate": s.estimate, "se": s.se,
                             "ci_low": s.ci_low, "ci_high": s.ci_high, "n": s.n,
                             "exact": s.exact_value, "z": s.z_from_exact(), "seed": s_seed})
            v = res["mean_value"]
            shown.append({"hand": hand_words(b, n, p), "policy": policy_words(name), "mc": v,
                          "exact": v.exact_value, "z": v.z_from_exact()})
    check = pd.DataFrame(rows)
    worst = float(check["z"].abs().max())
    table = people_table(shown, [Col("cards in hand", "hand"), Col("policy", "policy"),
                                 Col("value per turn, Monte Carlo", "mc", "stat"),
                                 Col("exact", "exact", "number", 4),
                                 Col("z", "z", "number", 2)])
    summary = "\n".join([
        f"Monte Carlo of whole turns under each policy beside the exact value of the same "
        f"policy (card-equivalents, 95% intervals, n = {turns:,} turns per row). Over all "
        f"{len(check)} statistics (value, bust rate, tokens, all six) the largest |z| is "
        f"{worst:.2f}; |z| above 4 would point at a bug.", "", table])
    found = [Finding(f"Monte Carlo agrees with the exact turn values: the largest |z| over "
                     f"{len(check)} statistics is {worst:.2f} (n = {turns:,} turns each).", 9)]
    exact = {(x["hand"], x["policy"]): x["exact"] for x in shown}
    for x in shown:
        best = exact.get((x["hand"], "optimal play"))
        if x["hand"] == "no cards" and best is not None and x["policy"] != "optimal play":
            found.append(Finding(f"With no cards, \u201c{x['policy']}\u201d gives up "
                                 f"{best - x['exact']:.4f} card-equivalents a turn against "
                                 f"optimal play (exact; Monte Carlo agrees, z = "
                                 f"{x['z']:.1f}).", 6))
    return PartResult(table_files(check, "mc_check"), summary, {
        "n_per_row": turns, "max_abs_z": worst, "findings": [f.to_json() for f in found],
        "how": "Monte Carlo of whole turns, one random stream per turn; hand i and policy j "
               "are seeded with the part seed + 100·i + j (column seed of `mc_check.csv`). "
               "Intervals 95% (Wilson for rates); z = (estimate − exact) / SE."})


def values_chart_part(params: dict, rules: dict, seed: int) -> PartResult:
    import pandas as pd

    from analyzer.balance import Finding
    from analyzer.charts import chart_files, new_figure

    solver, _values, _r = _setup(params, rules)
    fig, ax = new_figure(9, 5.0)
    ks = list(range(6))
    data = []
    for (b, n, p), style in (((0, 0, 0), "-"), ((1, 1, 1), "--")):
        stop_mean, roll_mean, lo, hi = [], [], [], []
        for k in ks:
            sets = [h for h in range(64) if popcount(h) == k]
            stops = [solver.stop(MAIN, h, p) for h in sets]
            rolls = [solver.roll(MAIN, h, b, n, p) for h in sets]
            stop_mean.append(sum(stops) / len(stops))
            roll_mean.append(sum(rolls) / len(rolls))
            lo.append(min(rolls))
            hi.append(max(rolls))
            data.append({"hand": hand_words(b, n, p), "tokens": k, "stop": stop_mean[-1],
                         "roll": roll_mean[-1], "roll_min": lo[-1], "roll_max": hi[-1]})
        tag = hand_words(b, n, p)
        ax.plot(ks, stop_mean, "o" + style, color="tab:blue", label=f"stop ({tag})")
        ax.plot(ks, roll_mean, "s" + style, color="tab:orange", label=f"roll on ({tag})")
        ax.fill_between(ks, lo, hi, color="tab:orange", alpha=0.12)
    ax.set_xlabel("tokens held")
    ax.set_ylabel("value (card-equivalents, mean over the sets held)")
    ax2 = ax.twinx()
    ax2.plot(ks, [k / 6 * 100 for k in ks], ":", color="tab:red",
             label="chance the next roll busts, no cards")
    ax2.plot(ks, [(k / 6) ** 2 * 100 for k in ks], "-.", color="tab:red", alpha=0.6,
             label="chance it busts after one Blammo!")
    ax2.set_ylabel("chance of a bust (%)")
    ax2.set_ylim(0, 100)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13),
              ncol=2, frameon=False)
    ax.set_title("Trash Pandas: stop or roll on, by tokens held (exact; shaded: range of the "
                 "roll value over the sets held)", fontsize=10)
    df = pd.DataFrame(data)
    plain = df[df.hand == "no cards"]
    ahead = [int(k) for k, st, ro in zip(plain.tokens, plain.stop, plain.roll) if ro > st]
    summary = ("The chance that the next roll busts and the exact values of stopping and of "
               "rolling on, by the number of tokens held (mean over the sets of that size), with "
               "no cards and with one each of Blammo!, Nanners and MMM Pie! in hand.\n\n"
               "![Trash Pandas: stop or roll on, by tokens held](values_by_tokens.svg)")
    found = []
    if ahead:
        found.append(Finding(f"With no cards in hand, rolling on is worth more than stopping, on "
                             f"average over the sets held, up to {max(ahead)} tokens held "
                             "(exact).", 7))
    return PartResult(chart_files(fig, "values_by_tokens", df), summary, {
        "exact": True, "key_chart": "values_by_tokens",
        "findings": [f.to_json() for f in found],
        "how": "Exact: stop and roll values from the turn solver; bust chances k/6 and "
               "(k/6)² with k tokens held; no sampling."})


#: Part parameters: held cards (Blammo, Nanners, Pie) per hand, each 0..7; value weights by name.
HANDS = Param("int-rows", 0, 7, max_items=50, width=3)
WEIGHTS = ("draw", "stash", "steal", "mask", "card", "bust")


def _whole_games_settings(params: dict, rules: dict):
    """Rules, (player count, line-up) per count and the compared 3-player line-ups of the
    whole-games part (its settings check: every bot name parsed as `trash-pandas game` does)."""
    from analyzer.games.trash_pandas.lineup import parse_bot, parse_lineup
    from analyzer.rules import build_rules

    r = build_rules(TrashPandasRules, None, None, rules)
    bot = params.get("bot", "heuristic")
    by_count = [(players, parse_lineup(bot, players, "bot"))
                for players in params.get("players", [2, 3, 4])]
    bots = params.get("bots", ["heuristic", "solver", "heuristic:stop-at=2",
                               "heuristic:stop-at=4", "random"])
    base = parse_lineup(bots[0], 3, "bots")
    lineups = [base] + [(parse_bot(b, "bots"),) + base[1:] for b in bots[1:]]
    return r, by_count, lineups


def whole_games_part(params: dict, rules: dict, seed: int) -> PartResult:
    """Whole games (analyzer/balance.py): per player count, seat advantage, ties and the
    tie-break, the winner's margin, game length, busts, and from the standings turn by turn
    (``standings`` games) lead changes and the leader at three quarters; then seat 1 played by
    each bot of ``bots`` against the first bot (3 players, common random numbers)."""
    import pandas as pd

    from analyzer.balance import Finding, share
    from analyzer.balance_part import balance_result
    from analyzer.charts import chart_files, fit_intervals, new_figure
    from analyzer.games.trash_pandas.balance import balance_of, standings
    from analyzer.games.trash_pandas.bots import lineup_label
    from analyzer.games.trash_pandas.whole import GameSetup, simulate_games
    from analyzer.numbers import interval
    from analyzer.runner import RunSpec
    from analyzer.tables import Col, people_table, table_files

    r, by_count, lineups = _whole_games_settings(params, rules)
    games = int(params.get("games", 200_000))
    traced = min(int(params.get("standings", 2000)), games)
    bot = bot_words(params.get("bot", "heuristic"))
    groups = []
    for k, (players, lineup) in enumerate(by_count):
        setup = GameSetup(r, players, [lineup])
        res = simulate_games(setup, RunSpec(games, seed + k, progress=False))
        lead = standings(setup, traced, seed + k) if traced > 0 else None
        groups.append(balance_of(res, f"{players} players", lead))
    base = lineups[0]
    res = simulate_games(GameSetup(r, 3, lineups), RunSpec(games, seed + 99, progress=False))
    cmp_rows, shown = [], []
    for lu in res["lineups"]:
        d = lu["vs_first"][0]["win_rate_change"] if "vs_first" in lu else None
        w = lu["seats"][0]["win_rate"]
        cmp_rows.append({"lineup": lu["lineup"], "seat1_win_rate": w.estimate, "se": w.se,
                         "ci_low": w.ci_low, "ci_high": w.ci_high,
                         "change_vs_first": None if d is None else d.estimate,
                         "change_ci_low": None if d is None else d.ci_low,
                         "change_ci_high": None if d is None else d.ci_high, "n": res["n"]})
        shown.append({"bot": bot_words(lu["lineup"].split(",")[0]), "win": share(w),
                      "change": d})
    fig, ax = new_figure(8, 3.8)
    xs = list(range(len(shown)))
    ys = [x["win"].estimate for x in shown]
    ax.bar(xs, ys, yerr=[[y - x["win"].ci_low for y, x in zip(ys, shown)],
                         [x["win"].ci_high - y for y, x in zip(ys, shown)]],
           capsize=4, color="C0", ecolor="#333")
    ax.axhline(1 / 3, color="black", linestyle="--", linewidth=1, label="fair share 33.3%")
    ax.set_xticks(xs, [x["bot"] for x in shown], rotation=15)
    ax.set_ylabel("seat 1's share of the wins")
    from analyzer.balance_part import _percent_formatter

    ax.yaxis.set_major_formatter(_percent_formatter())
    fit_intervals(ax, [x["win"].ci_low for x in shown], [x["win"].ci_high for x in shown] +
                  [1 / 3], floor=0.0)
    ax.legend(frameon=False, fontsize=8)
    ax.set_title(f"Trash Pandas, 3 players: seat 1 played by each bot against "
                 f"{bot_words(lineup_label(base[1:]))}", fontsize=10)
    cmp_df = pd.DataFrame(cmp_rows)
    data = cmp_df[["lineup", "seat1_win_rate", "ci_low", "ci_high"]]
    table = people_table(shown, [Col("seat 1 played by", "bot"),
                                 Col("seat 1 wins", "win", "percent"),
                                 Col(f"change against {shown[0]['bot']} (percentage points, "
                                     "paired)", "change", "points")])
    extra = "\n".join([
        f"**Bots compared**: seat 1 played by each bot against "
        f"{bot_words(lineup_label(base[1:]))} in the other seats, 3 players, the same "
        f"{res['n']:,} games for every bot (common random numbers; the change is paired, "
        "95% intervals).", "", "![Trash Pandas: seat 1's win share by the bot playing it]"
        "(bots_compared.svg)", "", table])
    out = balance_result(groups, "Trash Pandas", (
        f"Monte Carlo: whole games of `trash-pandas game`'s engine, {games:,} per player count "
        f"(player count k seeded with the part seed + k, the bots compared with + 99). Lead "
        f"changes and the leader at three quarters come from the standings after every turn "
        f"of the first {traced:,} of those games, replayed by the plain-Python reference on "
        "the same random numbers. Win shares and means with normal 95% intervals, rates with "
        "Wilson's, quantiles of the length with order-statistic intervals."),
        subject=lambda b: f"{b.group.replace(' players', '-player')} games between {bot} "
                          "bots", group_header="players", extra=extra,
        main=next((i for i, (p, _l) in enumerate(by_count) if p == 3), 0))
    out.files.update(table_files(cmp_df, "bot_comparison"))
    if len(shown) >= 2:
        out.files.update(chart_files(fig, "bots_compared", data))
    else:
        import matplotlib.pyplot as plt

        plt.close(fig)
    best = max(shown[1:], key=lambda x: x["change"].estimate, default=None)
    if best is not None and best["change"].ci_low > 0:
        out.meta["findings"].append(Finding(
            f"Played by the {best['bot']} bot, seat 1 wins {interval(best['win'], percent=True)}"
            f" of 3-player games, {interval(best['change'], points=True, signed=True)} "
            f"percentage points more than the {shown[0]['bot']} bot on the same games "
            f"(n = {res['n']:,}).", 5).to_json())
    out.meta["games"] = games
    return out


#: the module of the bot ladder (issue 37: ``pushluck trash-pandas ladder``)
LADDER_MODULE = "analyzer.games.trash_pandas.ladder"


def _ladder_settings(params: dict, rules: dict):
    """The ladder part's settings check, run on the whole recipe before any part starts:
    ``LADDER_MODULE``'s ``check(params, rules)`` (bad settings are one line, exit 2). Its
    ``report(settings, seed)`` returns an :class:`analyzer.ladder_part.LadderPart`: one
    :class:`analyzer.balance.Balance` per bot in self-play (the strongest bot's seat advantage
    beside the heuristics'), the ratings table in Markdown with its intervals, the method
    sentence for the "how this was computed" box, the ladder's findings and its files."""
    import importlib

    return importlib.import_module(LADDER_MODULE).check(params, rules)


def ladder_part(params: dict, rules: dict, seed: int) -> PartResult:
    """The bot ladder of whole games as a balance part (:func:`_ladder_settings` states what the
    ladder module returns): seat advantage per bot in self-play, the ratings table, the paired
    gains, the findings, on the page like every other balance part."""
    import importlib

    from analyzer.balance_part import balance_result

    settings = _ladder_settings(params, rules)
    lad = importlib.import_module(LADDER_MODULE).report(settings, seed)
    out = balance_result(lad.balances, "Trash Pandas", lad.how, group_header="line-up",
                         subject=lambda b: f"games where {b.group}", extra=lad.extra,
                         stem="ladder")
    out.files.update(lad.files)
    out.meta["findings"] += [f.to_json() for f in lad.findings]
    return out


PARTS = (
    PartKind("trash-pandas", "policy", policy_part, "optimal policy table (exact)",
             {"values": Param("weights", names=WEIGHTS), "hands": HANDS}, _settings),
    PartKind("trash-pandas", "mc-check", mc_check_part,
             "Monte Carlo of policies beside their exact values",
             {"turns": Param("int", 1, 10**9), "policies": Param("strs", max_items=20),
              "hands": HANDS}, _mc_settings, tiny={"turns": 20000}),
    PartKind("trash-pandas", "values-chart", values_chart_part,
             "chart of bust odds and stop/roll values by tokens held",
             {"values": Param("weights", names=WEIGHTS)}, _settings),
    PartKind("trash-pandas", "whole-games", whole_games_part,
             "whole games: seat advantage, ties, length, lead changes, the leader at three "
             "quarters, margin, busts; bots compared",
             {"games": Param("int", 1, 10**9), "players": Param("ints", 2, 4, max_items=3),
              "bot": Param("str"), "bots": Param("strs", max_items=10),
              "standings": Param("int", 0, 10**6)}, _whole_games_settings,
             tiny={"games": 1500, "standings": 150}),
    PartKind("trash-pandas", "ladder", ladder_part,
             "the bot ladder: ratings with intervals, paired gains, and seat advantage by "
             "each bot in self-play",
             {"games": Param("int", 1, 10**9), "bots": Param("strs", max_items=10),
              "players": Param("int", 2, 4)},
             _ladder_settings, tiny={"games": 6}),
)


def advice_part(params: dict, rules: dict, seed: int) -> PartResult:
    """Roll-or-stop rules of thumb per hand, with their exact loss (``trash-pandas advice``)."""
    from analyzer.advice import rule_row
    from analyzer.advice.report import front_files, front_findings
    from analyzer.games.trash_pandas.advice import DECISION, advise

    solver, _values, _r = _setup(params, rules)
    files, parts, data, found = {}, [], {}, []
    for b, n, p in params.get("hands", [[0, 0, 0], [1, 1, 0]]):
        res = advise(solver, (b, n, p), int(params.get("bands", 3)),
                     int(params.get("clauses", 3)))
        rows = [rule_row(s, res["features"], DECISION) for s in res["front"]]
        tag = f"{b}{n}{p}"
        hand = hand_words(b, n, p)
        f, md = front_files(rows, "card-equivalents",
                            f"Trash Pandas turn with {hand}: rules of thumb (exact)",
                            stem=f"advice_front_{tag}")
        files.update(f)
        data[tag] = rows
        parts.append(f"### With {hand} in hand\n\nOptimal turn value "
                     f"{res['v_optimal']:.4f} card-equivalents; {res['evaluations']:,} rules "
                     f"evaluated.\n\n" + md)
        if not found:
            found = front_findings(rows, f"card-equivalents a turn with {hand}",
                                   "optimal play")
    summary = ("Roll-or-stop rules a person can remember (tokens held, bust chance, cards in "
               "hand, bonus turn), cards used by habit (Blammo! on a bust, then Nanners); each "
               "rule's turn value is exact and its loss is the optimal value minus it, in "
               "card-equivalents.\n\n" + "\n\n".join(parts))
    return PartResult(files, summary, {
        "exact": True, "fronts": data, "findings": [f.to_json() for f in found],
        "how": "Exact: every rule's turn is evaluated by the turn solver's expectimax under "
               "the rule; no sampling."})


PARTS = PARTS + (PartKind("trash-pandas", "advice", advice_part,
                          "roll-or-stop rules of thumb and their exact loss",
                          {"hands": HANDS, "bands": Param("int", 1, 3),
                           "clauses": Param("int", 1, 3)}, _settings),)


def _game_advice_settings(params: dict, rules: dict):
    """Rules and the banding of the game-advice part (its settings check)."""
    from analyzer.advice.cli import check_band_by
    from analyzer.games.trash_pandas.advice_game import BANDS
    from analyzer.rules import build_rules

    r = build_rules(TrashPandasRules, None, None, rules)
    return r, check_band_by(params.get("band_by", "none"), BANDS)


def game_advice_part(params: dict, rules: dict, seed: int) -> PartResult:
    """When to stop rolling in whole games: the raced stop rules (``trash-pandas game-advice``),
    with a small default race (``rounds``, ``precision``) so that ``make run`` stays short."""
    from analyzer.advice.report import raced_part
    from analyzer.games.trash_pandas.advice_game import advise

    r, band_by = _game_advice_settings(params, rules)
    players, rounds = int(params.get("players", 3)), int(params.get("rounds", 4))
    res = advise(r, players, seed, rounds, float(params.get("precision", 0.005)), band_by)
    intro = (f"The heuristic bot's stop rules in words (banded by: {band_by}), the studied "
             f"player taking every seat of {players}-player games in turn against heuristic "
             f"opponents on the same deals; loss in win probability against the best rule, 95% "
             f"Bonferroni intervals, surviving rules only. A short race for the report (at most "
             f"{rounds} rounds); `pushluck trash-pandas game-advice` runs the full one.")
    return raced_part(res, "win probability", f"Trash Pandas, {players} players: when to stop "
                      f"rolling (Monte Carlo)", intro)


PARTS = PARTS + (PartKind("trash-pandas", "game-advice", game_advice_part,
                          "whole-game stop rules raced in win probability (Monte Carlo)",
                          {"players": Param("int", 2, 4), "rounds": Param("int", 1, 200),
                           "precision": Param("float", 1e-4, 1.0), "band_by": Param("str")},
                          _game_advice_settings, tiny={"rounds": 1, "band_by": "none"}),)
