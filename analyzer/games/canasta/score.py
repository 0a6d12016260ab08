"""Railroad Canasta, exact and plain Python: meld legality, canasta types and round scoring.

What belongs here: the reference the round engine in ``kernels/canasta/`` is tested against
(``classify_meld``, ``round_score``) and the answers of ``pushluck canasta score`` and ``check``.
No Numba, no pandas.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.errors import UserError
from analyzer.games.canasta.rules import (BLACK3, CANASTA_TYPES, JOKER, RED3, SEVEN, TWO,
                                          TYPE_NAMES, CanastaRules, cards_value, check_supply,
                                          parse_cards, requirement)


# --------------------------------------------------------------------------- melds
@dataclass
class Meld:
    """One meld's composition and verdict."""

    cards: list[int]
    labels: list[str] = field(default_factory=list)
    kind: str = ""            # "natural", "wild", "black-threes"
    rank: int = -1            # natural rank type, 0 for the wild meld, 3 for black threes
    naturals: int = 0
    wilds: int = 0
    legal: bool = True
    reason: str = ""
    canasta: str | None = None  # red / black / wild / sevens when complete

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def value(self) -> int:
        return cards_value(self.cards)

    def to_json(self) -> dict:
        return {"cards": self.labels or [TYPE_NAMES[c] for c in self.cards], "kind": self.kind,
                "rank": TYPE_NAMES[self.rank] if self.rank >= 0 else None,
                "naturals": self.naturals, "wilds": self.wilds, "size": self.size,
                "value": self.value, "canasta": self.canasta, "legal": self.legal,
                "reason": self.reason}


def classify_meld(cards: list[int], rules: CanastaRules | None = None, going_out: bool = False,
                  labels: list[str] | None = None) -> Meld:
    """Legality and canasta type of a single meld (section 3)."""
    rules = rules or CanastaRules()
    m = Meld(list(cards), list(labels or []))
    wild = [c for c in cards if c in (JOKER, TWO)]
    nat = [c for c in cards if c not in (JOKER, TWO)]
    m.wilds, m.naturals = len(wild), len(nat)

    def bad(reason):
        m.legal, m.reason = False, reason
        return m

    if RED3 in cards:
        m.kind = "natural"
        return bad("red threes are never melded (they are placed for a bonus)")
    if BLACK3 in cards:
        m.kind, m.rank = "black-threes", BLACK3
        if wild or any(c != BLACK3 for c in nat):
            return bad("black threes meld only with black threes (no wilds)")
        if len(cards) < 3:
            return bad("a meld needs at least 3 cards")
        if not going_out:
            return bad("black threes may only be melded on the turn the player goes out")
        return m
    if len(cards) < 3:
        m.kind = "wild" if not nat else "natural"
        return bad("a meld needs at least 3 cards")
    if len(cards) > 7:
        m.kind = "wild" if not nat else "natural"
        return bad("a meld has at most 7 cards (a canasta is closed)")
    if not nat:
        m.kind, m.rank = "wild", 0
        if len(cards) == 7:
            m.canasta = "wild"
        return m
    m.kind = "natural"
    if len(set(nat)) > 1:
        return bad("a meld holds one natural rank only")
    r = nat[0]
    m.rank = r
    if len(nat) < 2:
        return bad("a mixed meld needs at least 2 natural cards")
    if len(wild) > 3:
        return bad("a mixed meld holds at most 3 wild cards")
    if r == SEVEN and wild and not rules.wilds_in_sevens:
        return bad("no wild card may join a meld of sevens")
    if len(cards) == 7:
        if wild:
            m.canasta = "black"
        else:
            m.canasta = "sevens" if r == SEVEN else "red"
    return m


def canasta_bonus(kind: str, rules: CanastaRules) -> int:
    return {"red": rules.bonus_red, "black": rules.bonus_black, "wild": rules.bonus_wild,
            "sevens": rules.bonus_sevens}[kind]


def _meld_from(text, rules, going_out) -> Meld:
    parsed = parse_cards(text)
    if not parsed:
        raise UserError("empty meld")
    return classify_meld([c for c, _ in parsed], rules, going_out, [lab for _, lab in parsed])


def _meld_name(rank: int) -> str:
    return "wild" if rank == 0 else TYPE_NAMES[rank]


def check_unfinished(melds: list[Meld], who: str = "") -> None:
    """Section 3: at most one unfinished meld per natural rank and one unfinished wild meld
    (a meld closes at 7 cards, and only then may a new meld of its rank start)."""
    seen: set[int] = set()
    for m in melds:
        if m.legal and m.kind in ("natural", "wild") and m.size < 7:
            if m.rank in seen:
                raise UserError(f"{who}two unfinished {_meld_name(m.rank)} melds: a player has "
                                "at most one unfinished meld of each rank (and one wild meld)")
            seen.add(m.rank)


def _add_wilds(cards, labels, unfinished, rules, going_out) -> Meld:
    """A ``+`` group of wild cards only: it joins the unfinished wild meld if it can, else the
    first unfinished natural meld (highest rank first) it fits legally. When none fits, the
    reason is the one of the only candidate, or all of them."""
    order = ([0] if 0 in unfinished else []) + sorted((r for r in unfinished if r), reverse=True)
    tried = []
    for r in order:
        base = unfinished[r]
        m = classify_meld(base.cards + cards, rules, going_out, base.labels + labels)
        if m.legal:
            return m
        tried.append((r, m))
    if not tried:
        m = classify_meld(cards, rules, going_out, labels)
        m.legal, m.reason = False, "no unfinished meld to add the wild cards to"
        return m
    if len(tried) == 1:
        return tried[0][1]
    m = classify_meld(cards, rules, going_out, labels)
    m.legal = False
    m.reason = "no unfinished meld can take them (" + "; ".join(
        f"{_meld_name(r)} meld: {t.reason}" for r, t in tried) + ")"
    return m


def check_melds(proposed: list[str], rules: CanastaRules, score: int = 0,
                melded: bool = False, existing: list[str] | None = None,
                going_out: bool = False) -> dict:
    """Are the proposed melds legal together, and what are they worth against the initial
    requirement? A proposed meld written with a leading ``+`` adds its cards to the player's
    existing unfinished meld of that rank; any other proposed meld is a new meld."""
    existing_m = [_meld_from(e, rules, True) for e in (existing or [])]
    for e in existing_m:
        if not e.legal:
            raise UserError(f"existing meld {' '.join(e.labels)} is not legal: {e.reason}")
    check_unfinished(existing_m, "--existing: ")
    unfinished = {e.rank: e for e in existing_m if e.size < 7 and e.kind != "black-threes"}
    results = []
    legal = True
    laid_value = 0
    new_ranks: dict[int, int] = {}
    all_labels = [lab for e in existing_m for lab in e.labels]
    for text in proposed:
        add = text.strip().startswith("+")
        body = text.strip().lstrip("+")
        parsed = parse_cards(body)
        if not parsed:
            raise UserError(f"empty meld '{text}'")
        all_labels += [lab for _, lab in parsed]
        cards = [c for c, _ in parsed]
        laid_value += cards_value(cards)
        if add:
            nat = [c for c in cards if c not in (JOKER, TWO)]
            rank = nat[0] if nat else 0
            base = unfinished.get(rank)
            if not nat:
                m = _add_wilds(cards, [lab for _, lab in parsed], unfinished, rules, going_out)
            elif base is None:
                m = classify_meld(cards, rules, going_out, [lab for _, lab in parsed])
                m.legal, m.reason = False, (f"no unfinished {TYPE_NAMES[rank]} meld to add to")
            else:
                m = classify_meld(base.cards + cards, rules, going_out,
                                  base.labels + [lab for _, lab in parsed])
                if m.legal and m.rank != base.rank:
                    m.legal, m.reason = False, "added cards do not match the meld's rank"
            res = {"added_to_existing": True, **m.to_json()}
        else:
            m = classify_meld(cards, rules, going_out, [lab for _, lab in parsed])
            res = {"added_to_existing": False, **m.to_json()}
            if m.legal and m.kind != "black-threes" and m.size < 7:
                if m.rank in unfinished:
                    m.legal = False
                    m.reason = (f"you already have an unfinished {TYPE_NAMES[m.rank]} meld: "
                                "add to it instead")
                new_ranks[m.rank] = new_ranks.get(m.rank, 0) + 1
                if new_ranks[m.rank] > 1:
                    m.legal = False
                    m.reason = f"two unfinished {TYPE_NAMES[m.rank]} melds at once"
            res.update(legal=m.legal, reason=m.reason)
        legal = legal and m.legal
        results.append(res)
    check_supply(all_labels, rules.players)
    req = requirement(score, rules)
    out = {"melds": results, "legal": legal, "value": laid_value, "score": score,
           "melded_already": melded, "exact": True}
    if not melded:
        meets = legal and laid_value >= req and not any(r["added_to_existing"] for r in results)
        out.update(requirement=req, meets_requirement=meets,
                   short_by=max(req - laid_value, 0))
    else:
        out.update(requirement=None, meets_requirement=legal)
    return out


# --------------------------------------------------------------------------- scoring
def round_score(melds: list[list[int]], red_threes: int, hand: list[int],
                kitty: list[int] | None, went_out: bool, rules: CanastaRules,
                labels: list[list[str]] | None = None) -> dict:
    """Section 7 for one player. ``kitty`` is None when picked up, else its cards."""
    ms = [classify_meld(m, rules, went_out, (labels[i] if labels else None))
          for i, m in enumerate(melds)]
    for m in ms:
        if not m.legal:
            raise UserError(f"meld {' '.join(m.labels) or m.cards} is not legal: {m.reason}")
    check_unfinished(ms)
    types = [m.canasta for m in ms if m.canasta]
    if went_out:
        missing = [t for t in CANASTA_TYPES if t not in types]
        if missing:
            raise UserError("went_out = true needs a canasta of each type; missing: "
                            + ", ".join(missing))
        if hand:
            raise UserError("went_out = true but the hand is not empty")
    if RED3 in hand:
        raise UserError("a red three cannot stay in the hand (it is placed at once)")
    if red_threes < 0:
        raise UserError("red_threes must be non-negative")
    meld_cards = sum(m.value for m in ms)
    bonuses = {t: types.count(t) * canasta_bonus(t, rules) for t in CANASTA_TYPES}
    hand_pen = cards_value(hand)
    kitty_pen = cards_value(kitty) if kitty is not None else 0
    go = rules.going_out_bonus if went_out else 0
    red = red_threes * rules.red_three_bonus
    total = go + meld_cards + sum(bonuses.values()) + red - hand_pen - kitty_pen
    return {"round_score": total, "exact": True,
            "breakdown": {"going_out_bonus": go, "meld_cards": meld_cards,
                          "canasta_bonuses": bonuses,
                          "canastas": {t: types.count(t) for t in CANASTA_TYPES},
                          "red_threes": red, "hand_penalty": -hand_pen,
                          "kitty_penalty": -kitty_pen},
            "melds": [m.to_json() for m in ms]}


def score_from_toml(data: dict, rules: CanastaRules) -> dict:
    """``pushluck canasta score`` input: see the command's help for the keys."""
    known = {"melds", "red_threes", "hand", "kitty", "went_out"}
    for k in data:
        if k not in known and k != "rules":
            raise UserError(f"unknown key '{k}' in the score file (known: "
                            f"{', '.join(sorted(known))})")
    melds_raw = data.get("melds", [])
    if not isinstance(melds_raw, list):
        raise UserError("'melds' must be a list of card lists")
    melds, labels, all_labels = [], [], []
    for m in melds_raw:
        parsed = parse_cards(m)
        melds.append([c for c, _ in parsed])
        labels.append([lab for _, lab in parsed])
        all_labels += labels[-1]
    hand_p = parse_cards(data.get("hand", []))
    kitty_raw = data.get("kitty", "picked")
    if isinstance(kitty_raw, str) and kitty_raw.strip().lower() in ("picked", "taken", ""):
        kitty = None
        kitty_p = []
    else:
        kitty_p = parse_cards(kitty_raw)
        kitty = [c for c, _ in kitty_p]
        if len(kitty) != rules.kitty_size:
            raise UserError(f"an unpicked kitty holds {rules.kitty_size} cards, "
                            f"got {len(kitty)}")
    red = data.get("red_threes", 0)
    if isinstance(red, bool) or not isinstance(red, int):
        raise UserError("'red_threes' must be an integer")
    went_out = data.get("went_out", False)
    if not isinstance(went_out, bool):
        raise UserError("'went_out' must be true or false")
    all_labels += [lab for _, lab in hand_p] + [lab for _, lab in kitty_p]
    check_supply(all_labels, rules.players)
    if red > 4 * rules.players:
        raise UserError(f"red_threes = {red} but the deck holds only {4 * rules.players}")
    return round_score(melds, red, [c for c, _ in hand_p], kitty, went_out, rules, labels)


def game_winner(scores: list[int], rules: CanastaRules) -> int | None:
    """Seat of the winner after a round, or None when play goes on (section 7)."""
    best = max(scores)
    if best < rules.target or scores.count(best) > 1:
        return None
    return scores.index(best)
