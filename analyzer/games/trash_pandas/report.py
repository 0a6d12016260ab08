"""Report parts of Trash Pandas: the optimal policy, a Monte Carlo check of it, a chart.

What belongs here: the report parts (``PARTS``), the tables and charts they write, and any chart a
command also draws. pandas and matplotlib are imported inside the functions that use them.
"""
from __future__ import annotations

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


def policy_part(params: dict, rules: dict, seed: int) -> PartResult:
    import pandas as pd

    from analyzer.tables import table_files, to_markdown

    solver, values, r = _setup(params, rules)
    frames, turn_values = [], []
    for b, n, p in params.get("hands", DEFAULT_HANDS):
        df = pd.DataFrame(solver.policy_rows(b, n, p))
        df.insert(0, "pie", p)
        df.insert(0, "nanners", n)
        df.insert(0, "blammo", b)
        frames.append(df)
        turn_values.append({"blammo": b, "nanners": n, "pie": p,
                            "turn_value": solver.turn_value(b, n, p)})
    policy = pd.concat(frames, ignore_index=True)
    main0 = policy[(policy.blammo == 0) & (policy.nanners == 0) & (policy.pie == 0)
                   & (policy.turn == "main")]
    stops = main0[main0.decision == "stop"]
    summary = "\n".join([
        f"Exact optimal stop-or-roll decision for every held set (value model "
        f"{values.__dict__}, card-equivalents). Value of a whole turn under optimal play:", "",
        to_markdown(pd.DataFrame(turn_values), 6),
        f"With no cards in hand the optimal player stops at {len(stops)} of the "
        f"{len(main0)} main-turn held sets, never with fewer than "
        f"{int(stops.tokens.min()) if len(stops) else '-'} tokens; full table in policy.csv.",
    ])
    return PartResult(table_files(policy, "policy"), summary,
                      {"exact": True, "rows": len(policy)})


def mc_check_part(params: dict, rules: dict, seed: int) -> PartResult:
    import pandas as pd

    from analyzer.games.trash_pandas.play import simulate
    from analyzer.runner import RunSpec
    from analyzer.tables import table_files, to_markdown

    r, values, policies = _mc_settings(params, rules)
    turns = int(params.get("turns", 2_000_000))
    rows = []
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
    check = pd.DataFrame(rows)
    worst = float(check["z"].abs().max())
    shown = check[check.statistic == "mean_value"][
        ["blammo", "nanners", "pie", "policy", "estimate", "se", "ci_low", "ci_high", "exact",
         "z"]]
    summary = "\n".join([
        f"Monte Carlo of whole turns under each policy, n = {turns:,} turns per row, seed "
        f"{seed} + 100·hand + policy index (column `seed` in mc_check.csv), beside the exact "
        f"value of the same policy. Largest |z| over all {len(check)} statistics: {worst:.2f} "
        f"(|z| ≤ 4 expected).", "", "Value per turn (card-equivalents, 95% intervals):", "",
        to_markdown(shown)])
    return PartResult(table_files(check, "mc_check"), summary,
                      {"n_per_row": turns, "max_abs_z": worst})


def values_chart_part(params: dict, rules: dict, seed: int) -> PartResult:
    from analyzer.charts import figure_files, new_figure

    solver, _values, _r = _setup(params, rules)
    fig, ax = new_figure(9, 5.5)
    ks = list(range(6))
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
        tag = f"Blammo! {b}, Nanners {n}, Pie {p}"
        ax.plot(ks, stop_mean, "o" + style, color="tab:blue", label=f"stop value ({tag})")
        ax.plot(ks, roll_mean, "s" + style, color="tab:orange", label=f"roll value ({tag})")
        ax.fill_between(ks, lo, hi, color="tab:orange", alpha=0.12)
    ax.set_xlabel("tokens held")
    ax.set_ylabel("value, card-equivalents (mean over held sets)")
    ax2 = ax.twinx()
    ax2.plot(ks, [k / 6 for k in ks], ":", color="tab:red", label="P(next roll busts), no cards")
    ax2.plot(ks, [(k / 6) ** 2 for k in ks], "-.", color="tab:red", alpha=0.6,
             label="P(bust after 1 Blammo!)")
    ax2.set_ylabel("probability")
    ax2.set_ylim(0, 1)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=8, loc="upper left")
    ax.set_title("Trash Pandas: bust odds and stop/roll values by tokens held (exact)\n"
                 "shaded: min–max roll value over the held sets")
    summary = ("Bust odds of the next roll and the exact stop and roll values by the number of "
               "tokens held (mean over the held sets of that size), without cards and with one "
               "Blammo!, Nanners and MMM Pie! in hand.")
    return PartResult(figure_files(fig, "values_by_tokens"), summary, {"exact": True})


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
    """Whole games: seat advantage by player count, the game-length distribution, and bots
    compared on common random numbers (each line-up against the first, seat 1's win rate)."""
    import pandas as pd

    from analyzer.games.trash_pandas.bots import lineup_label
    from analyzer.games.trash_pandas.whole import GameSetup, length_histogram, simulate_games
    from analyzer.runner import RunSpec
    from analyzer.tables import table_files, to_markdown

    r, by_count, lineups = _whole_games_settings(params, rules)
    games = int(params.get("games", 200_000))
    seats_rows, length_rows, tie_rows = [], [], []
    for k, (players, lineup) in enumerate(by_count):
        setup = GameSetup(r, players, [lineup])
        res = simulate_games(setup, RunSpec(games, seed + k, progress=False))
        lu = res["lineups"][0]
        for st in lu["seats"]:
            w = st["win_rate"]
            seats_rows.append({"players": players, "seat": st["seat"], "win_rate": w.estimate,
                               "se": w.se, "ci_low": w.ci_low, "ci_high": w.ci_high,
                               "points": st["points"].estimate, "n": w.n, "seed": seed + k})
        for key, what in (("tiebreak_share", "top points tied"),
                          ("decided_by_tiebreak", "decided by tie-break"),
                          ("shared_wins", "shared after every tie-break")):
            t = lu[key]
            tie_rows.append({"players": players, "games": what, "share": t.estimate, "se": t.se,
                             "ci_low": t.ci_low, "ci_high": t.ci_high, "n": t.n,
                             "seed": seed + k})
        for label, share in length_histogram(res).items():  # "20+": 20 rounds or more
            length_rows.append({"players": players, "rounds": int(label.rstrip("+")),
                                "share": share})
    base = lineups[0]
    res = simulate_games(GameSetup(r, 3, lineups), RunSpec(games, seed + 99, progress=False))
    cmp_rows = []
    for lu in res["lineups"]:
        d = lu["vs_first"][0]["win_rate_change"] if "vs_first" in lu else None
        cmp_rows.append({"line-up": lu["lineup"], "seat1_win_rate": lu["seats"][0][
            "win_rate"].estimate, "change_vs_first": None if d is None else d.estimate,
            "ci_low": None if d is None else d.ci_low, "ci_high": None if d is None else
            d.ci_high, "n": res["n"], "seed": seed + 99})
    seats_df, length_df, cmp_df, tie_df = (pd.DataFrame(x) for x in (seats_rows, length_rows,
                                                                      cmp_rows, tie_rows))
    files = {**table_files(seats_df, "seat_advantage"), **table_files(length_df, "game_length"),
             **table_files(cmp_df, "bot_comparison"), **table_files(tie_df, "ties")}
    summary = "\n".join([
        f"Whole games between `{params.get('bot', 'heuristic')}` bots, {games:,} games per "
        "player count (Monte Carlo; 95% intervals). Win rate by seat:", "",
        to_markdown(seats_df, 4), "",
        "Ties on top points (Wilson 95% intervals): the games a tie-break (most types stashed, "
        "then most cards) decides, and those still shared after every tie-break:", "",
        to_markdown(tie_df, 4), "",
        "Game length in rounds (share of games; the full table in game_length.csv):", "",
        to_markdown(length_df.pivot(index="rounds", columns="players", values="share")
                    .sort_index().fillna(0.0).reset_index(), 4), "",
        f"Seat 1 played by each bot against {lineup_label(base[1:])} (3 players, common random "
        "numbers; change in seat 1's win rate against the first line-up):", "",
        to_markdown(cmp_df, 4)])
    return PartResult(files, summary, {"games": games, "exact": False})


PARTS = (
    PartKind("trash-pandas", "policy", policy_part, "optimal policy table (exact)",
             {"values": Param("weights", names=WEIGHTS), "hands": HANDS}, _settings),
    PartKind("trash-pandas", "mc-check", mc_check_part,
             "Monte Carlo of policies beside their exact values",
             {"turns": Param("int", 1, 10**9), "policies": Param("strs", max_items=20),
              "hands": HANDS}, _mc_settings),
    PartKind("trash-pandas", "values-chart", values_chart_part,
             "chart of bust odds and stop/roll values by tokens held",
             {"values": Param("weights", names=WEIGHTS)}, _settings),
    PartKind("trash-pandas", "whole-games", whole_games_part,
             "whole games: seat advantage, game-length distribution, bots compared",
             {"games": Param("int", 1, 10**9), "players": Param("ints", 2, 4, max_items=3),
              "bot": Param("str"), "bots": Param("strs", max_items=10)}, _whole_games_settings),
)


def advice_part(params: dict, rules: dict, seed: int) -> PartResult:
    """Roll-or-stop rules of thumb per hand, with their exact loss (``trash-pandas advice``)."""
    from analyzer.advice import rule_row
    from analyzer.advice.report import front_files
    from analyzer.games.trash_pandas.advice import DECISION, advise

    solver, _values, _r = _setup(params, rules)
    files, parts, data = {}, [], {}
    for b, n, p in params.get("hands", [[0, 0, 0], [1, 1, 0]]):
        res = advise(solver, (b, n, p), int(params.get("bands", 3)),
                     int(params.get("clauses", 3)))
        rows = [rule_row(s, res["features"], DECISION) for s in res["front"]]
        tag = f"{b}{n}{p}"
        f, md = front_files(rows, "card-equivalents",
                            f"Trash Pandas turn, hand B{b} N{n} P{p}: rules of thumb (exact)",
                            stem=f"advice_front_{tag}")
        files.update(f)
        data[tag] = rows
        parts.append(f"**Hand: Blammo! {b}, Nanners {n}, MMM Pie! {p}** (optimal turn value "
                     f"{res['v_optimal']:.4f}; {res['evaluations']} rules evaluated)\n\n" + md)
    summary = ("Roll-or-stop rules a person can remember (tokens held, bust chance, cards in "
               "hand, bonus turn), cards used by habit (Blammo! on a bust, then Nanners); each "
               "rule's turn value is exact and its loss is the optimal value minus it, in "
               "card-equivalents.\n\n" + "\n\n".join(parts))
    return PartResult(files, summary, {"exact": True, "fronts": data})


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
    intro = (f"The heuristic bot's stop rules in words (bands: {band_by}), the studied player "
             f"taking every seat of "
             f"{players}-player games in turn against heuristic opponents on the same deals "
             f"(seed {seed}); loss in win probability against the best rule, 95% Bonferroni "
             f"intervals, surviving rules only. A short race for the report (at most {rounds} "
             f"rounds); `pushluck trash-pandas game-advice` runs the full one.")
    return raced_part(res, "win probability", f"Trash Pandas whole games, {players} players: "
                      f"when to stop rolling (Monte Carlo)", intro)


PARTS = PARTS + (PartKind("trash-pandas", "game-advice", game_advice_part,
                          "whole-game stop rules raced in win probability (Monte Carlo)",
                          {"players": Param("int", 2, 4), "rounds": Param("int", 1, 200),
                           "precision": Param("float", 1e-4, 1.0), "band_by": Param("str")},
                          _game_advice_settings),)
