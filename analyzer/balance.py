"""Balance metrics of whole games, each a statistic object, and the findings they support.

What a designer asks of a game between given players (here bots), measured over many games:

* **seat advantage**: each seat's share of the wins (ties shared) against the fair share 1/P;
* **ties**: games whose top score is tied, and games the tie-break decided;
* **decisiveness**: how often the leader when three quarters of the game has been played goes on
  to win (a game says what its clock is: turns, rounds, or cards drawn from the pile);
* **lead changes** per game: how often the strict leader (the one seat with the most points)
  changes from one seat to another, checked after every turn (or round); a tie at the top has
  no strict leader and changes nothing;
* **closeness**: the winner's margin over the runner-up, in points;
* **game length**: its mean and distribution (with the 50% and 90% quantiles);
* **bust or ruin rates**.

A :class:`Balance` holds one group's figures (a player count, a line-up, a rule set); each
figure is a :class:`Measure` around a :class:`~analyzer.stats.Statistic`. :func:`findings`
turns groups into sentences that state a figure only with its interval and n, and say "not
detected" when the interval holds the fair value.

Quantiles of a length histogram (:func:`quantile`) carry a distribution-free 95% interval from
order statistics: with n games the q-quantile's interval runs from the value at rank
``floor(nq − z·sqrt(nq(1−q)))`` to the value at rank ``ceil(nq + z·sqrt(nq(1−q))) + 1``
(ranks clamped to 1..n), the normal approximation to the binomial count of games at or below
the true quantile; its "se" is the interval's half-width / z (a normal-equivalent SE).

Shares per turn (busts per turn) are ratios Σx/Σy over games, whose turns are not independent:
:func:`ratio` gives the delta-method SE over games,
``sqrt(Σ(x − r·y)² / (n(n − 1))) / ȳ``, from the per-game sums Σx, Σx², Σxy, Σy, Σy², the
interval clipped to [0, 1] for a share.

Decisiveness is a proportion of fractional successes (a leader who ties for the win scores
1/winners); its interval is Wilson's on that sum, conservative because a [0, 1] variable's
variance is at most that of a Bernoulli with the same mean.

This module imports no pandas or matplotlib: :mod:`analyzer.balance_part` writes the tables and
charts of a report part from these objects.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from analyzer.stats import Z95, Statistic, mean_from_sums, wilson

#: metric keys, in the order tables show them, with words for people and the unit
METRICS = {
    "seat": ("seat {seat} wins", "share of games"),
    "tie": ("games tied on points", "share of games"),
    "tiebreak": ("decided by the tie-break", "share of games"),
    "decisive": ("leader at three quarters wins", "share of games with a leader then"),
    "lead_changes": ("lead changes per game", "changes"),
    "margin": ("winner's margin", "points"),
    "length": ("game length", ""),
    "length_q50": ("half of the games end within", ""),
    "length_q90": ("90% of the games end within", ""),
    "bust": ("turns that bust", "share of turns"),
    "ruin": ("ruins per game", "ruins"),
    "drawn": ("deals nobody wins", "share of deals"),
}
PERCENT = frozenset({"seat", "tie", "tiebreak", "decisive", "bust", "drawn"})


@dataclass
class Measure:
    """One figure of a group: ``key`` of :data:`METRICS`, its statistic, the seat (from 1) for
    seat figures and the fair value it is judged against, if any."""

    key: str
    stat: Statistic
    seat: int | None = None
    fair: float | None = None
    unit: str = ""

    @property
    def label(self) -> str:
        words = METRICS[self.key][0]
        return words.format(seat=self.seat) if self.seat is not None else words

    def to_json(self) -> dict:
        out = {"metric": self.key, "label": self.label, **self.stat.to_json()}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.fair is not None:
            out["fair"] = self.fair
        if self.unit or METRICS[self.key][1]:
            out["unit"] = self.unit or METRICS[self.key][1]
        return out


@dataclass
class Balance:
    """The balance figures of one group of games (module doc).

    ``length_counts`` is the histogram of game lengths in ``length_unit`` as (value, games)
    pairs in increasing order; with ``open_top`` the last value means "that many or more".
    ``clock`` says how "three quarters of the game" is measured; ``notes`` what is not
    measured and why (shown as sentences)."""

    group: str
    players: int
    n: int
    seed: int
    measures: list[Measure] = field(default_factory=list)
    length_unit: str = "turns"
    length_counts: list[tuple[int, int]] = field(default_factory=list)
    open_top: bool = False
    clock: str = ""
    notes: list[str] = field(default_factory=list)
    #: what seat 1 is called in sentences
    first: str = "the first player"
    #: what the n games are called in sentences
    trials: str = "games"

    def add(self, key: str, stat: Statistic | None, **kw) -> None:
        if stat is not None:
            self.measures.append(Measure(key, stat, **kw))

    def get(self, key: str, seat: int | None = None) -> Measure | None:
        for m in self.measures:
            if m.key == key and m.seat == seat:
                return m
        return None

    def seats(self) -> list[Measure]:
        return [m for m in self.measures if m.key == "seat"]

    def with_quantiles(self) -> "Balance":
        """Add the 50% and 90% quantiles of the length histogram (if it has one)."""
        if self.length_counts:
            for q, key in ((0.5, "length_q50"), (0.9, "length_q90")):
                if self.get(key) is None:
                    self.add(key, quantile(self.length_counts, q), unit=self.length_unit)
        return self

    def to_json(self) -> dict:
        return {"group": self.group, "players": self.players, "n": self.n, "seed": self.seed,
                "length_unit": self.length_unit, "clock": self.clock, "notes": self.notes,
                "length_counts": [[int(v), int(c)] for v, c in self.length_counts],
                "open_top": self.open_top, "measures": [m.to_json() for m in self.measures]}


# ------------------------------------------------------------------------------ constructors
def seat_shares(sums: list[tuple[float, float]], n: int) -> list[Statistic]:
    """Each seat's win share (ties shared) from (Σshare, Σshare²) per seat over n games."""
    return [mean_from_sums(s1, s2, n) for s1, s2 in sums]


def share(st: Statistic) -> Statistic:
    """A win share (a mean of per-game shares in [0, 1], ties shared) with Wilson's interval
    on its sum, which stays honest at 0 and 1 (a normal interval of a share that is 0 in every
    game would be [0, 0]); conservative, as the module doc says of decisiveness."""
    return wilson(st.estimate * st.n, st.n)


def add_seats(b: Balance, stats: list[Statistic], fair: float | None = None) -> None:
    """Seat figures (seats numbered from 1) judged against ``fair`` (default 1/players), each
    with Wilson's interval (:func:`share`)."""
    fair = 1.0 / b.players if fair is None else fair
    for i, st in enumerate(stats):
        b.add("seat", share(st), seat=i + 1, fair=fair)


def decisiveness(leader_share_sum: float, games_with_leader: float) -> Statistic | None:
    """P(the leader at three quarters of the game wins) over the games that had one then
    (module doc); None if no game had one."""
    if games_with_leader <= 0:
        return None
    return wilson(leader_share_sum, int(round(games_with_leader)))


def ratio(sx: float, sx2: float, sxy: float, sy: float, sy2: float, n: int,
          share: bool = True) -> Statistic | None:
    """Σx/Σy over n games with the delta-method SE over games (module doc); None without
    data."""
    if sy <= 0 or n < 2:
        return None
    r = sx / sy
    ss = max(sx2 - 2 * r * sxy + r * r * sy2, 0.0)
    se = math.sqrt(ss / (n * (n - 1))) / (sy / n)
    lo, hi = r - Z95 * se, r + Z95 * se
    if share:
        lo, hi = max(0.0, lo), min(1.0, hi)
    return Statistic(r, se, lo, hi, n)


def quantile(counts: list[tuple[int, int]], q: float, z: float = Z95) -> Statistic:
    """The q-quantile of a histogram with its distribution-free interval (module doc)."""
    n = sum(c for _, c in counts)
    if n <= 0:
        raise ValueError("an empty histogram has no quantile")

    def at_rank(r: int) -> int:
        r = min(max(r, 1), n)
        cum = 0
        for v, c in counts:
            cum += c
            if cum >= r:
                return v
        return counts[-1][0]

    centre = n * q
    spread = z * math.sqrt(n * q * (1.0 - q))
    est = at_rank(math.ceil(centre))
    lo = at_rank(math.floor(centre - spread))
    hi = at_rank(math.ceil(centre + spread) + 1)
    return Statistic(float(est), (hi - lo) / (2.0 * z), float(lo), float(hi), n)


def mean_of_counts(counts: list[tuple[int, int]]) -> Statistic:
    """The mean of a histogram's values (their Σx and Σx²)."""
    n = sum(c for _, c in counts)
    s1 = sum(v * c for v, c in counts)
    s2 = sum(v * v * c for v, c in counts)
    return mean_from_sums(float(s1), float(s2), n)


# ---------------------------------------------------------------------------------- findings
@dataclass
class Finding:
    """A sentence a report states, and how early (lower first) it belongs on the page."""

    text: str
    priority: int = 5
    #: "no-seat-advantage" for a null seat-advantage result: a page that detects a seat
    #: advantage in another part leaves it out of the page's findings (report_site.findings_of)
    kind: str | None = None

    def to_json(self) -> dict:
        out = {"text": self.text, "priority": self.priority}
        if self.kind:
            out["kind"] = self.kind
        return out


def pct(stat: Statistic) -> str:
    """``29.4% [28.8, 30.1]``: a proportion in percent, rounded to what its SE supports."""
    from analyzer.numbers import interval

    return interval(stat, percent=True)


def num(stat: Statistic, signed: bool = False) -> str:
    from analyzer.numbers import interval

    return interval(stat, signed=signed)


def n_text(n: int, unit: str = "games") -> str:
    return f"n = {n:,} {unit}"


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def seat_finding(b: Balance, subject: str) -> Finding | None:
    """The seat advantage of a group in one sentence: the seat furthest from its fair share
    whose interval excludes it (the lowest seat on a tie; priority 1), or "no seat advantage
    detected" with the widest interval's half-width (priority 4: after detected effects)."""
    seats = b.seats()
    if not seats:
        return None
    fair = seats[0].fair
    off = [m for m in seats if not (m.stat.ci_low <= m.fair <= m.stat.ci_high)]
    fair_text = f"a fair {fair * 100:.1f}%"
    if not off:
        # a null result says how large an advantage could hide in it, and ranks after the
        # findings that detected something (a page that found a first-player edge elsewhere
        # must not open with "none detected" from a smaller sample)
        widest = max((m.stat.ci_high - m.stat.ci_low) / 2 for m in seats)
        return Finding(f"No seat advantage detected in {subject}: every seat's win rate lies "
                       f"within its 95% interval of {fair_text} ({n_text(b.n, b.trials)}; "
                       f"the intervals reach ±{widest * 100:.1f} points, so a smaller "
                       f"advantage would go unseen).", 4, "no-seat-advantage")
    m = max(off, key=lambda x: (round(abs(x.stat.estimate - x.fair), 12), -x.seat))
    who = b.first if m.seat == 1 else f"seat {m.seat}"
    return Finding(f"{_cap(who)} wins {pct(m.stat)} of {subject}, against {fair_text} "
                   f"({n_text(b.n, b.trials)}).", 1, "seat-advantage")


def length_finding(b: Balance, subject: str) -> Finding | None:
    mean = b.get("length")
    if mean is None:
        return None
    unit = b.length_unit
    text = f"{_cap(subject)} last {num(mean.stat)} {unit} on average"
    q90 = b.get("length_q90")
    if q90 is not None:
        v = int(q90.stat.estimate)
        top = b.length_counts[-1][0] if b.length_counts else None
        if b.open_top and v == top:
            text += f"; at least 10% last {v} {unit} or more"
        else:
            text += f"; 90% end within {v} {unit}"
    return Finding(text + f" ({n_text(mean.stat.n)}).", 2)


def decisive_finding(b: Balance, subject: str) -> Finding | None:
    m = b.get("decisive")
    if m is None:
        return None
    clock = f" (by {b.clock})" if b.clock else ""
    games = n_text(m.stat.n, "games with a leader then")
    return Finding(f"In {subject} the leader three quarters of the way through{clock} goes on "
                   f"to win {pct(m.stat)} of the games ({games}).", 3)


def _stated(b: Balance, key: str, priority: int, words) -> Finding | None:
    """The finding ``words(measure)`` of the group's ``key`` figure, if it has one."""
    m = b.get(key)
    return None if m is None else Finding(words(m), priority)


def lead_finding(b: Balance, subject: str) -> Finding | None:
    return _stated(b, "lead_changes", 4, lambda m: (
        f"The lead changes hands {num(m.stat)} times per game in {subject} "
        f"({n_text(m.stat.n)})."))


def tie_finding(b: Balance, subject: str) -> Finding | None:
    tie, brk = b.get("tie"), b.get("tiebreak")
    if tie is None:
        return None
    text = f"{pct(tie.stat)} of {subject} end tied on points"
    if brk is not None:
        text += f" and the tie-break decides {pct(brk.stat)}"
    return Finding(_cap(text) + f" ({n_text(tie.stat.n)}).", 6)


def drawn_finding(b: Balance, subject: str) -> Finding | None:
    return _stated(b, "drawn", 6, lambda m: (
        f"{pct(m.stat)} of {b.players}-player deals end with nobody winning "
        f"(nagari; {n_text(m.stat.n, 'deals')})."))


def margin_finding(b: Balance, subject: str) -> Finding | None:
    return _stated(b, "margin", 7, lambda m: (
        f"In {subject} the winner finishes {num(m.stat)} {m.unit or 'points'} ahead of the "
        f"runner-up on average ({n_text(m.stat.n)})."))


def bust_finding(b: Balance, subject: str) -> Finding | None:
    # a ratio over games (n = games), or a rate over turns (n = turns)
    return _stated(b, "bust", 8, lambda m: (
        f"{pct(m.stat)} of turns bust in {subject} "
        f"({n_text(m.stat.n, 'games' if m.stat.n == b.n else 'turns')})."))


FINDERS = (seat_finding, length_finding, decisive_finding, lead_finding, tie_finding,
           drawn_finding, margin_finding, bust_finding)
#: what the other groups (not the main one) state: their seat advantage and length
OTHERS = (seat_finding, length_finding)


def findings(balances: list[Balance], subject=None, main: int = 0) -> list[Finding]:
    """The findings of the groups; ``subject(b)`` names a group's games in a sentence, as a
    plural noun ("3-player games between heuristic bots"; default "<P>-player games"). The
    main group (index ``main``) states every figure; the others their seat advantage and
    length only (their other figures are in the tables), ten steps down in priority, so the
    headlines come from the main group."""
    out = []
    for k, b in enumerate(balances):
        words = subject(b) if subject else f"{b.players}-player games"
        for finder in (FINDERS if k == main else OTHERS):
            f = finder(b, words)
            if f is not None:
                f.priority += 0 if k == main else 10 + k
                out.append(f)
    return out
