"""Ten end-of-game scoring: the longest run per colour, with wilds placed to maximise the total.

A colour scores its single longest run of consecutive values: 1 point per card, 10 for a complete
1–9 run; duplicates and shorter runs add nothing. Each wild fills one (colour, value) slot: a colour
wild its own colour at any value, a number wild its value in any colour, the full wild anything.

Algorithm. For a colour with owned values O, a run [a, b] needs a wild for every *gap* v ∈ [a, b]
with v ∉ O. Only runs that cannot be extended by an owned card are worth considering (a − 1 ∉ O
and b + 1 ∉ O), at most 45 per colour. A depth-first search over the colours tries each colour's
candidate runs (or none), best first, keeps only choices whose gaps can all be filled by distinct
wilds (bipartite matching by augmenting paths), and prunes a branch when its score plus the best
unconstrained score of the remaining colours cannot beat the best found. The result is exact.
"""
from __future__ import annotations

from analyzer.errors import UserError
from analyzer.games.ten.rules import COLOUR_NAMES, COLOURS, Card


def run_points(length: int, full_run: int = 10) -> int:
    """Points of a run of ``length`` cards: one per card, ``full_run`` for a complete 1–9."""
    return full_run if length == 9 else length


def _eligible(wild: Card, colour: str, value: int) -> bool:
    if wild.kind == "full-wild":
        return True
    if wild.kind == "colour-wild":
        return wild.colour == colour
    return wild.value == value


def _match(gaps: list[tuple[str, int]], wilds: list[Card]):
    """A wild index for every gap, or None if no assignment of distinct wilds exists."""
    owner = [-1] * len(wilds)  # wild -> gap

    def augment(g, seen):
        for w, card in enumerate(wilds):
            if w in seen or not _eligible(card, *gaps[g]):
                continue
            seen.add(w)
            if owner[w] == -1 or augment(owner[w], seen):
                owner[w] = g
                return True
        return False

    for g in range(len(gaps)):
        if not augment(g, set()):
            return None
    assign = [None] * len(gaps)
    for w, g in enumerate(owner):
        if g != -1:
            assign[g] = w
    return assign


def check_copies(cards: list[Card], deck, flag: str) -> None:
    """Refuse a list (given with ``flag``) holding more copies of a card than ``deck`` has."""
    from collections import Counter

    for code, k in Counter(c.code for c in cards).items():
        if k > deck.get(code, 0):
            raise UserError(f"{flag}: card '{code}' is listed {k} time{'s' if k > 1 else ''} "
                            f"but the deck holds {deck.get(code, 0)}")


def score_collection(cards: list[Card], full_run: int = 10) -> dict:
    """Exact best score of a collection and the wild assignment that achieves it (a complete
    1–9 run worth ``full_run`` points)."""
    for c in cards:
        if c.kind == "currency":
            raise UserError(f"card '{c.code}' is a currency card: collections hold number cards "
                            f"and wilds only")
    owned = {col: {c.value for c in cards if c.kind == "number" and c.colour == col}
             for col in COLOURS}
    wilds = [c for c in cards if c.is_wild]
    cands = {}
    for col in COLOURS:
        usable = sum(1 for w in wilds if w.kind != "colour-wild" or w.colour == col)
        lst = []
        for a in range(1, 10):
            if a > 1 and (a - 1) in owned[col]:
                continue
            for b in range(a, 10):
                if b < 9 and (b + 1) in owned[col]:
                    continue
                gaps = [v for v in range(a, b + 1) if v not in owned[col]]
                if len(gaps) <= usable:
                    lst.append((run_points(b - a + 1, full_run), a, b, gaps))
        lst.sort(key=lambda x: (-x[0], len(x[3]), x[1]))
        lst.append((0, 0, 0, []))
        cands[col] = lst
    best_single = [cands[col][0][0] for col in COLOURS]
    suffix = [0] * (len(COLOURS) + 1)
    for i in range(len(COLOURS) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + best_single[i]
    best = {"score": -1, "choice": None, "assign": None}

    def dfs(i, score, choice, gaps):
        if score + suffix[i] <= best["score"]:
            return
        if i == len(COLOURS):
            best.update(score=score, choice=list(choice), assign=_match(gaps, wilds))
            return
        col = COLOURS[i]
        for pts, a, b, g in cands[col]:
            if score + pts + suffix[i + 1] <= best["score"]:
                continue
            new_gaps = gaps + [(col, v) for v in g]
            if g and _match(new_gaps, wilds) is None:
                continue
            choice.append((col, pts, a, b, g))
            dfs(i + 1, score + pts, choice, new_gaps)
            choice.pop()

    dfs(0, 0, [], [])
    gap_list = [(col, v) for col, _p, _a, _b, g in best["choice"] for v in g]
    wild_at = {gap_list[k]: best["assign"][k] for k in range(len(gap_list))}
    used = set(wild_at.values())
    colours = []
    for col, pts, a, b, g in best["choice"]:
        entry = {"colour": COLOUR_NAMES[col], "points": pts,
                 "run": None if pts == 0 else [a, b], "length": 0 if pts == 0 else b - a + 1,
                 "wilds": [{"wild": wilds[wild_at[(col, v)]].code, "value": v} for v in g]}
        colours.append(entry)
    return {"score": best["score"], "colours": colours,
            "unused_wilds": [w.code for k, w in enumerate(wilds) if k not in used],
            "cards": len(cards), "exact": True}
