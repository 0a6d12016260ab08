"""Railroad Canasta section of `make run` / `pushluck report`: meld odds by requirement band,
whole 2-player games (greedy vs greedy and greedy vs builder), tables and a chart."""
from __future__ import annotations

import pathlib


def _fmt(st, digits=3) -> str:
    return f"{st.estimate:.{digits}f} [{st.ci_low:.{digits}f}, {st.ci_high:.{digits}f}]"


def report_section(out_dir: pathlib.Path, seed: int, quick: bool = False) -> str:
    import pandas as pd

    from analyzer.cli.canasta import write_chart
    from analyzer.games import canasta_mc as M
    from analyzer.games.canasta import CanastaRules, parse_policies, parse_policy
    from analyzer.tables import write_table

    out_dir = pathlib.Path(out_dir) / "canasta"
    out_dir.mkdir(parents=True, exist_ok=True)
    rules = CanastaRules()
    n_deals = 3000 if quick else 100000
    n_games = 300 if quick else 20000
    turns = 3

    # 1. meld odds by band
    rows = []
    for score in (-100, 0, 5000, 10000, 15000):
        r = M.meld_odds(score, turns, rules, parse_policy("greedy"), n_deals, seed)
        d = r["p_requirement_on_deal"]
        row = {"cumulative_score": score, "requirement": r["requirement"],
               "p_on_deal_exact": r["p_exact_on_deal"], "p_on_deal_mc": d.estimate,
               "p_on_deal_mc_se": d.se}
        for b in r["by_turn"]:
            st = b["p_melded"]
            row[f"p_melded_by_turn_{b['turn']}"] = st.estimate
            row[f"p_melded_by_turn_{b['turn']}_ci_low"] = st.ci_low
            row[f"p_melded_by_turn_{b['turn']}_ci_high"] = st.ci_high
        rows.append((row, r))
    df = pd.DataFrame([r for r, _ in rows])
    write_table(df, out_dir / "meld_odds")
    md = ["## Railroad Canasta", "",
          f"Seed {seed}. Rules: defaults of `pushluck canasta rules` (2 players). Policy "
          "`greedy` (goes out as soon as allowed, takes the pile whenever allowed).", "",
          f"### Initial meld requirement (n = {n_deals:,} deals per band; exact on the deal)", "",
          "| cumulative score | requirement | on the deal (exact) | on the deal (MC) | "
          f"melded by own turn {turns} (MC, 95% CI) |", "|---|---|---|---|---|"]
    for row, r in rows:
        last = r["by_turn"][-1]["p_melded"]
        md.append(f"| {row['cumulative_score']} | {row['requirement']} | "
                  f"{row['p_on_deal_exact']:.4f} | {_fmt(r['p_requirement_on_deal'], 4)} | "
                  f"{_fmt(last, 4)} |")

    # 2. whole games
    md += ["", f"### Whole games to 20,000 (n = {n_games:,} games each, rotating dealer)", "",
           "Per-round figures are ratio estimates over games (cluster-robust SE).", ""]
    tab = []
    for label in ("greedy", "greedy,builder:10:20"):
        pols = parse_policies(label, 2)
        s = M.simulate(n_games, rules, pols, seed)
        if label == "greedy":
            write_chart(s, out_dir / "greedy_games")
        for k, st in s["per_round"].items():
            tab.append({"policies": label, "quantity": k, "estimate": st.estimate, "se": st.se,
                        "ci_low": st.ci_low, "ci_high": st.ci_high, "n_games": s["n"]})
        tab.append({"policies": label, "quantity": "rounds_per_game",
                    "estimate": s["rounds_per_game"].estimate, "se": s["rounds_per_game"].se,
                    "ci_low": s["rounds_per_game"].ci_low,
                    "ci_high": s["rounds_per_game"].ci_high, "n_games": s["n"]})
        for seat in s["seats"]:
            st = seat["p_win"]
            tab.append({"policies": label, "quantity": f"p_seat{seat['seat']}_wins",
                        "estimate": st.estimate, "se": st.se, "ci_low": st.ci_low,
                        "ci_high": st.ci_high, "n_games": s["n"]})
        pr = s["per_round"]
        md += [f"**{label}** (seat 0 first in the list): rounds per game "
               f"{_fmt(s['rounds_per_game'], 2)}; turns per round {_fmt(pr['turns'], 1)}; "
               f"going out {_fmt(pr['went_out'])}, sevens lock {_fmt(pr['sevens_lock'])}, "
               f"stock exhausted {_fmt(pr['stock_exhausted'])} of rounds; canastas per round "
               f"(both players) red {_fmt(pr['red_canastas'], 2)}, black "
               f"{_fmt(pr['black_canastas'], 2)}, wild {_fmt(pr['wild_canastas'], 2)}, sevens "
               f"{_fmt(pr['sevens_canastas'], 2)}; kitty picked up at turn "
               f"{_fmt(pr['kitty_pickup_turn'], 1)}; points per player per round "
               f"{_fmt(pr['points_per_player'], 0)}; P(seat 0 wins) "
               f"{_fmt(s['seats'][0]['p_win'])}; P(first mover of round 1 wins) "
               f"{_fmt(s['p_first_mover_wins'])}.", ""]
    write_table(pd.DataFrame(tab), out_dir / "games")
    md += ["Files: `canasta/meld_odds.csv|md`, `canasta/games.csv|md`, "
           "`canasta/greedy_games.png|svg`.", ""]
    return "\n".join(md)
