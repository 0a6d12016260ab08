"""`advice` in words a player reads: one sentence to remember, the simplest rules and what they
cost, which rules the race could not tell from the best found, and what racing saved.

What belongs here: turning the JSON rows of an advice run (:func:`analyzer.advice.rule_row`,
:func:`analyzer.advice.race.candidate_row`) into text lines that fit :data:`WIDTH` columns, and
the plain fields added to the JSON (``remember``, each row's ``verdict``). No numpy, no printing.

The sentence (:func:`remember`). It names one rule and its cost with the unit:

* exact games: the simplest rule of the front (or, with ``--max-loss ε``, the simplest whose
  loss is at most ε) and its loss against the best policy ("perfect play");
* raced games: the reference is the **best rule found** — the surviving rule with the highest
  sample mean, which the race has not shown to be best. The sentence names the simplest
  surviving rule that is *not separated* from it (its loss interval reaches 0) and, when that is
  not the best found itself, its loss with the 95% interval; with ``--max-loss ε`` the simplest
  front rule whose upper bound is at most ε.

Each raced row says where it stands (``verdict``): "best found"; "not separated from the best
found" (interval reaching 0: it may be as good); "shown worse than the best found" (interval
wholly above 0).

Digits: exact losses with the command's fixed decimals; Monte Carlo losses to the second
significant digit of the smallest SE among the rows shown (:func:`analyzer.words.decimals_for_se`),
one number of decimals for the whole table.
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

from analyzer.words import WIDTH, fit  # noqa: F401  (the advice texts' width and wrapping)

#: rules listed by name in "not separated from the best found"
LISTED = 5

BEST = "best found"
NOT_SEPARATED = "not separated from the best found"
WORSE = "shown worse than the best found"


def sentence(words: str) -> str:
    """A rule's words inside a sentence: first letter lower case, no final period."""
    w = words.strip().rstrip(".")
    return w[:1].lower() + w[1:]


def _loss(row: Mapping) -> tuple[float, float, float, float | None]:
    """(estimate, low, high, se) of a row's loss; an exact loss has se None."""
    L = row["loss"]
    if isinstance(L, Mapping):
        return L["estimate"], L["ci_low"], L["ci_high"], L.get("se")
    return float(L), float(L), float(L), None


def verdict(row: Mapping) -> str:
    """Where a raced row stands against the best found (module doc)."""
    if row.get("best_found"):
        return BEST
    _est, lo, _hi, _se = _loss(row)
    return WORSE if lo > 0 else NOT_SEPARATED


def decimals(rows: Sequence[Mapping], exact_digits: int) -> int:
    """One number of decimals for a table of rows (module doc)."""
    from analyzer.words import decimals_for_se

    ses = [se for r in rows for se in [_loss(r)[3]] if se]
    return decimals_for_se(min(ses)) if ses else exact_digits


def loss_text(row: Mapping, d: int) -> str:
    est, lo, hi, se = _loss(row)
    if se is None:
        return f"{est:.{d}f}"
    return f"{est:.{d}f} [{lo:.{d}f}, {hi:.{d}f}]"


def add_verdicts(rows: Sequence[dict]) -> None:
    """Set each raced row's plain ``verdict`` (module doc)."""
    for r in rows:
        r["verdict"] = verdict(r)


# ---- the sentence ----------------------------------------------------------------------------
def remember(payload: Mapping, front: Sequence[Mapping], unit: str, against: str,
             exact: bool, digits: int = 4) -> str:
    """The one sentence a person keeps (module doc); ``unit`` names the loss ("chance of
    winning", "card-equivalents a turn"), ``against`` the reference of an exact game ("perfect
    play")."""
    from analyzer.words import sig

    pick = payload.get("simplest_within") if "max_loss" in payload else None
    within = pick is not None
    if exact:
        row = pick or front[0]
        est = _loss(row)[0]
        cost = (f"It costs you nothing against {against}." if est <= 0 else
                f"It costs you {sig(est)} {unit} against {against}.")
        if within:
            cost += f" It is the simplest rule within your --max-loss {payload['max_loss']:g}."
        return f"Remember: {sentence(row['words'])}. {cost}"
    rows = payload.get("all") or front
    if within:
        row = pick
    else:
        near = [r for r in rows if r.get("survived") and verdict(r) != WORSE]
        row = min(near, key=lambda r: (r["complexity"], _loss(r)[0]))
    best = next(r for r in rows if r.get("best_found"))
    d = decimals([row], digits)
    est, lo, hi, _ = _loss(row)
    if row.get("best_found"):
        others = [r for r in rows if r.get("survived") and not r.get("best_found")]
        simpler = [r for r in others if r["complexity"] < row["complexity"]]
        k = sum(1 for r in others if verdict(r) == NOT_SEPARATED)
        say = f"It is the best rule found of {len(rows)} raced (the best by sample mean)."
        if simpler:
            say += " Every simpler rule left in the race is shown to lose against it."
        if k:
            say += f" {k} other surviving rule{'s are' if k > 1 else ' is'} not separated " \
                   f"from it (below)."
        elif len(others) > len(simpler):
            say += " Every other rule left in the race is shown worse."
        elif not others:
            say += " It is the only rule left in the race."
    else:
        say = (f"It is not shown worse than the best rule found (size {best['complexity']}): "
               f"it loses {est:.{d}f} {unit}, 95% interval {lo:.{d}f} to {hi:.{d}f}."
               if not within or lo <= 0 else
               f"It loses {est:.{d}f} {unit} against the best rule found, at most "
               f"{hi:.{d}f} (95%).")
    if within:
        say += f" It is the simplest rule within your --max-loss {payload['max_loss']:g}."
    return f"Remember: {sentence(row['words'])}. {say}"


# ---- the table -------------------------------------------------------------------------------
def front_lines(rows: Sequence[Mapping], unit: str, against: str, exact: bool,
                digits: int = 4, extra: Callable | None = None) -> list[str]:
    """"Simplest rules and what they cost": per rule its size, its loss (or "the best rule
    found") and its words; ``extra(row)`` adds the bot that plays it."""
    d = decimals(rows, digits)
    what = (f"loss in {unit} against {against}" if exact else
            f"loss in {unit} against the best rule found, 95% intervals over the whole race")
    out = [f"Simplest rules and what they cost ({what}; size = numbers and conditions to "
           f"remember):"]
    for r in rows:
        if exact:
            head = f"loss {loss_text(r, d)}"
        elif r.get("best_found"):
            head = "the best rule found"
        else:
            head = f"loss {loss_text(r, d)}, {verdict(r)}"
        out.append(f"  size {r['complexity']}: {head}")
        out.append(f"    {r['words']}")
        if extra:  # on a line of its own: a bot's knobs are one word, best left unbroken
            out.append(f"    played by: {extra(r)}")
    return out


def not_separated_lines(rows: Sequence[Mapping], front: Sequence[Mapping], unit: str,
                        digits: int = 4) -> list[str]:
    """The surviving rules whose loss interval reaches 0, in words (at most :data:`LISTED`,
    simplest first); the front's are named by size only."""
    near = sorted((r for r in rows if r.get("survived") and not r.get("best_found")
                   and verdict(r) == NOT_SEPARATED),
                  key=lambda r: (r["complexity"], _loss(r)[0]))
    if not near:
        return ["No other rule left in the race reaches the best found: each is shown worse."]
    d = decimals(near, digits)
    on_front = [r["rule"] for r in front]
    many = len(near) > 1
    out = [f"Not separated from the best found ({len(near)} surviving rule{'s' if many else ''}"
           f" whose loss interval in {unit} reaches 0: {'each' if many else 'it'} may be as "
           f"good):"]
    for r in near[:LISTED]:
        where = " (above)" if r["rule"] in on_front else f": {r['words']}"
        out.append(f"  size {r['complexity']}, loss {loss_text(r, d)}{where}")
    if len(near) > LISTED:
        out.append(f"  and {len(near) - LISTED} more (--json lists every rule)")
    return out


# ---- what racing cost ----------------------------------------------------------------------
def race_line(cost: Mapping) -> str:
    """What the race spent against the uniform grid that gives the same guarantee
    (:func:`analyzer.advice.race.equal_guarantee_grid`), in trials and seconds, and what
    survived, as one line (callers wrap it)."""
    u = cost["unit"]
    g = cost.get("grid")
    if g is None:  # a race of the older sums form: no grid
        return (f"Racing: {cost['trials_spent']:,} {u} spent; {cost['survivors']} rules "
                f"survived {cost['rounds']} rounds")
    secs = cost.get("seconds")
    spent = f"{cost['trials_spent']:,} {u}" + (f" ({secs:.1f} s)" if secs is not None else "")
    grid = f"{g['trials']:,}" + (f" (about {g['seconds']:.0f} s)" if secs is not None else "")
    looks = f"{cost['candidates']} rules × {cost.get('max_rounds', cost['rounds'])} rounds"
    if cost.get("tests", 1) > 1:
        looks += f" × {cost['tests']} tests"
    saving = (f"{cost['saving']:.1f}× fewer" if cost["saving"] >= 1 else
              f"{1 / cost['saving']:.1f}× more than the grid")
    return (f"Racing: {spent} against {grid} for a uniform grid with the same guarantee, "
            f"{saving} (the grid plays each of the {cost['candidates']} "
            f"rules once to the survivors' interval width at its own Bonferroni z "
            f"{g['z']:.2f}; the race's z is {cost['z']:.2f}, over {looks}). "
            f"{cost['survivors']} rules survived {cost['rounds']} rounds" + _zone_words(cost))


def _zone_words(cost: Mapping) -> str:
    if not cost.get("indifference"):
        return ""
    return (f"; {cost['indifferent']} dropped for gaining less than {cost['indifference']:g} "
            f"over a simpler rule (--indifference)")
