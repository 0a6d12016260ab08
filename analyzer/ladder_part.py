"""The bot ladder (analyzer/ladder.py) as a report part of a whole game.

A game's ladder module gives the report two functions (the hook in its ``report.py``):
``check(params, rules)``, the part's settings, and ``report(settings, seed)``, a
:class:`LadderPart`. This module does both for any :class:`analyzer.ladder.LadderGame`:

* :func:`part_settings` reads the part's ``games`` (deals per line-up) and ``bots`` (at least
  two, as ``--bots`` reads them) and refuses bad ones in one line before anything runs;
* :func:`ladder_report` plays the round robin of :func:`analyzer.ladder.run_ladder` on the
  part's seed (every line-up on the same deals) and turns its result into

  - one :class:`analyzer.balance.Balance` per bot in self-play (that bot in every seat, the
    strongest first): the seat advantage by each bot, the strongest beside the heuristics';
  - the ratings table (Elo scale, 95% bootstrap intervals), each bot's distance to the next one
    down with its interval, and the paired gains of one seat against a field;
  - findings that say what the intervals allow: "rated above … (separated)" only when the
    interval of the difference excludes 0, else "not separated"; a gain only when its interval
    excludes 0, else "no gain detected";
  - the ladder's tidy tables and its chart (ratings and self-play seats).

No figure leaves without its interval and n; the seed is stated once, in the "how" sentence.
"""
from __future__ import annotations

from dataclasses import dataclass

from analyzer.botspec import bot_words
from analyzer.errors import UserError


@dataclass
class LadderSettings:
    """A ladder part's settings: the game, the bots' texts (as given) and deals per line-up."""

    game: object  # analyzer.ladder.LadderGame
    bots: list
    games: int


@dataclass
class LadderPart:
    """What ``report`` returns to the part (module doc): balance groups, Markdown after the
    balance tables, the "how this was computed" sentence, findings and extra files."""

    balances: list
    extra: str
    how: str
    findings: list
    files: dict


def part_settings(game, params: dict, default_bots: list[str], default_games: int
                  ) -> LadderSettings:
    """The part's settings (module doc); every error is one line naming the parameter."""
    from analyzer.ladder import parse_bots

    bots = list(params.get("bots", default_bots))
    parse_bots(game, bots, flag="bots")
    games = int(params.get("games", default_games))
    if games < 2:
        raise UserError(f"games = {games}: the ladder needs at least 2 deals per line-up "
                        "(its intervals resample deals)")
    return LadderSettings(game, bots, games)


def self_play_balances(out: dict) -> list:
    """One balance group per bot in self-play, in rating order (strongest first): each seat's
    win share with Wilson's 95% interval against the fair 1/P."""
    from analyzer.balance import Balance

    groups = []
    for sp in out["self_play"]:
        b = Balance(f"{bot_words(sp['bot'])} plays every seat", out["players"], out["n"],
                    out["seed"])
        for s in sp["seats"]:
            b.add("seat", s["win_rate"], seat=s["seat"], fair=1.0 / out["players"])
        groups.append(b)
    return groups


def _size(out: dict) -> str:
    return f"n = {out['n']:,} deals × {out['lineups']} line-ups"


def ladder_findings(out: dict) -> list:
    """Sentences on the order of the bots and the strongest bot's paired gain (module doc)."""
    from analyzer.balance import Finding
    from analyzer.numbers import interval

    found = []
    for p in out["adjacent"]:
        d, hi, lo = p["difference"], bot_words(p["higher"]), bot_words(p["lower"])
        if p["separated"]:
            found.append(Finding(f"The {hi} bot is rated above the {lo} bot by "
                                 f"{interval(d, signed=True)} Elo points, an interval that "
                                 f"excludes 0 ({_size(out)}).", 4))
        else:
            found.append(Finding(f"The ladder does not separate the {hi} bot from the {lo} bot: "
                                 f"{hi} is rated {interval(d, signed=True)} Elo points above, "
                                 f"an interval that holds 0 ({_size(out)}).", 4))
    if len(out["ratings"]) >= 2:
        top, second = out["ratings"][0]["bot"], out["ratings"][1]["bot"]
        g = next((g for g in out["gains"] if g["bot"] == top and g["field"] == second), None)
        if g is not None:
            gain = interval(g["gain"], points=True, signed=True)
            where = (f"one seat played by the {bot_words(top)} bot among {bot_words(second)} "
                     f"bots")
            n = f"paired on the same deals, mean over the seats, n = {g['gain'].n:,} deals"
            if g["gain"].ci_low > 0 or g["gain"].ci_high < 0:
                found.append(Finding(f"With {where}, that seat wins {gain} percentage points "
                                     f"of the games more than the {bot_words(second)} bot in it "
                                     f"({n}).", 5))
            else:
                found.append(Finding(f"No gain detected with {where}: {gain} percentage points "
                                     f"against the {bot_words(second)} bot in that seat ({n}).",
                                     5))
    return found


def ratings_markdown(out: dict) -> str:
    """The ratings table and the paired-gain table of the part's page (Markdown)."""
    from analyzer.tables import Col, people_table

    below = {p["higher"]: p for p in out["adjacent"]}
    rows = []
    for k, r in enumerate(out["ratings"], 1):
        p = below.get(r["bot"])
        rows.append({"rank": k, "bot": bot_words(r["bot"]), "rating": r["rating"],
                     "next": None if p is None else p["difference"],
                     "sep": "—" if p is None else ("yes" if p["separated"] else "no")})
    ratings = people_table(rows, [
        Col("rank", "rank", "int"), Col("bot", "bot"),
        Col("rating (Elo scale, mean 0)", "rating", "signed"),
        Col("above the next bot down (Elo)", "next", "signed"),
        Col("separated from it", "sep", "text")])
    best = out["ratings"][0]["bot"]
    gains = [{"bot": bot_words(g["bot"]), "field": bot_words(g["field"]), "gain": g["gain"]}
             for g in out["gains"] if g["bot"] == best or g["field"] == best]
    lines = [f"**Bot ladder**: {out['players']} players, every bot in every seat against a field "
             f"of each other bot, and in self-play; every line-up on the same deals ({_size(out)}"
             f"). Ratings by {out['model']}, with 95% intervals by {out['interval']}.", ""]
    if out["rough"]:
        lines += [f"Only {out['blocks']} blocks of deals: the intervals are rough.", ""]
    lines += [ratings, "", "![The bot ladder: ratings with 95% intervals, and each bot's "
              "self-play win share per seat](ladder_ratings.svg)", "",
              f"**One seat against a field** (the change in that seat's share of the wins over "
              f"the field's own bot in it, percentage points, paired on the same deals, mean over "
              f"the seats; 95% intervals):", "",
              people_table(gains, [Col("one seat played by", "bot"),
                                   Col("among", "field"),
                                   Col("change (percentage points)", "gain", "points")])]
    return "\n".join(lines)


def ladder_report(settings: LadderSettings, seed: int, title: str) -> LadderPart:
    """Play the part's ladder on ``seed`` and describe it (module doc)."""
    from analyzer.charts import chart_files
    from analyzer.ladder import chart, run_ladder, tables
    from analyzer.runner import RunSpec
    from analyzer.tables import table_files

    out = run_ladder(settings.game, settings.bots, RunSpec(settings.games, seed, progress=False))
    files = {}
    frames = tables(out)
    for name, df in frames.items():
        files.update(table_files(df, name))
    files.update(chart_files(chart(out, title), "ladder_ratings", frames["ladder_ratings"]))
    how = (f"Monte Carlo: a round robin of whole games ({out['design']}), {out['n']:,} deals per "
           f"line-up, every line-up on the same deals, seeded with the part seed; ratings by "
           f"{out['model']}; intervals by {out['interval']}; self-play seat shares with "
           f"Wilson's 95% intervals.")
    return LadderPart(self_play_balances(out), ratings_markdown(out), how,
                      ladder_findings(out), files)
