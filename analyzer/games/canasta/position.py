"""A `canasta decide` request read and checked in plain Python (no NumPy, no kernel).

The position file (see ``pushluck canasta decide --help``: every player's melds, hands or hand
sizes, kitties, the pile and the stock) and the objective are checked here, so a position that
cannot happen is refused in one line before NumPy is loaded. Card counts are lists by card type
(``analyzer.games.canasta.rules``); :func:`analyzer.games.canasta.decide.parse_position` turns a
checked :class:`Position` into the kernel's arrays.
"""
from __future__ import annotations

from dataclasses import dataclass

from analyzer.errors import UserError
from analyzer.games.canasta.rules import (JOKER, PER_SHARE, RED3, TWO, TYPE_NAMES, CanastaRules,
                                          check_supply, parse_cards)
from analyzer.games.canasta.score import classify_meld
from analyzer.typecheck import need_bool, need_table, need_text, need_text_or_texts

NT = len(TYPE_NAMES)  # card types
#: the largest score a position may state (in size): far above any game's target, and what the
#: kernels' 64-bit counters hold with room to spare (10**30 overflowed them)
SCORE_MAX = 10**6
OBJECTIVES = ("own", "lead")


@dataclass
class Player:
    """One player's checked table: counts by card type, canastas by kind."""

    un: list[list[int]]  # per type: naturals, jokers, twos of the unfinished meld
    can: list[int]  # completed canastas: red, black, wild, sevens
    mval: int  # card value of the melds
    hand: list[int]  # mine only; zeros for an opponent
    hsize: int
    kon: int  # 1: the kitty is still face down
    score: int
    red: int  # red threes placed
    melded: int
    labels: list[str]
    counts: list[int]  # cards in melds


@dataclass
class Position:
    """A checked position: ``players[0]`` is me, the pile bottom to top as (type, label)."""

    phase: str
    stock: int
    players: list[Player]
    pile: list[tuple[int, str]]
    frozen: bool
    unseen: list[int]  # by card type


def check_objective(objective: str) -> None:
    if objective not in OBJECTIVES:
        raise UserError(f"--objective must be own or lead (got '{objective}')")


def _player(d: dict, who: str, rules: CanastaRules, is_me: bool) -> Player:
    allowed = {"score", "hand", "hand_size", "melds", "red_threes", "kitty"}
    need_table(d, who)
    melds = d.get("melds", [])
    if not isinstance(melds, list):
        raise UserError(f"{who}: 'melds' must be a list of melds (each a list of cards)")
    for m in melds:
        need_text_or_texts(m, f"{who}: a meld")
    for k in d:
        if k not in allowed:
            raise UserError(f"unknown key '{k}' for {who} (known: {', '.join(sorted(allowed))})")
    un = [[0, 0, 0] for _ in range(NT)]
    can = [0] * 4
    mval = 0
    labels = []
    counts = [0] * NT
    for m in melds:
        parsed = parse_cards(m)
        meld = classify_meld([c for c, _ in parsed], rules, False, [lab for _, lab in parsed])
        if not meld.legal:
            raise UserError(f"{who}: meld {' '.join(meld.labels)} is not legal: {meld.reason}")
        labels += meld.labels
        for c in meld.cards:
            counts[c] += 1
        mval += meld.value
        if meld.canasta:
            can[("red", "black", "wild", "sevens").index(meld.canasta)] += 1
        else:
            r = meld.rank
            if sum(un[r]) > 0:
                raise UserError(f"{who}: two unfinished {meld.labels[0]} melds")
            un[r] = [meld.naturals, sum(1 for c in meld.cards if c == JOKER),
                     sum(1 for c in meld.cards if c == TWO)]
    hand = [0] * NT
    if is_me:
        hp = parse_cards(need_text_or_texts(d.get("hand", []), f"{who}: 'hand'"))
        if not hp:
            raise UserError("me: 'hand' must list your cards")
        for c, lab in hp:
            if c == RED3:
                raise UserError("me: a red three cannot be in the hand (it is placed at once)")
            hand[c] += 1
        labels += [lab for _, lab in hp]
        hsize = len(hp)
    else:
        if "hand" in d:
            raise UserError(f"{who}: give 'hand_size', not the cards (they are unseen)")
        hsize = d.get("hand_size")
        if not isinstance(hsize, int) or isinstance(hsize, bool) or hsize < 1:
            raise UserError(f"{who}: 'hand_size' must be a positive integer")
    kitty = need_text(d.get("kitty", "unpicked"), f"{who}: 'kitty'").strip().lower()
    if kitty not in ("picked", "unpicked"):
        raise UserError(f"{who}: 'kitty' must be \"picked\" or \"unpicked\"")
    score = d.get("score", 0)
    red = d.get("red_threes", 0)
    for key, v, top in (("score", score, SCORE_MAX), ("red_threes", red, SCORE_MAX)):
        if isinstance(v, bool) or not isinstance(v, int) or not -top <= v <= top:
            raise UserError(f"{who}: '{key}' must be an integer of at most {top:,} in size")
    clean = can[0] + can[2] + can[3]  # red, wild, sevens: the kitty comes with the first
    if kitty == "unpicked" and clean > 0:
        raise UserError(f"{who}: owns a red, wild or sevens canasta, so the kitty was already "
                        "picked up (kitty = \"picked\")")
    if kitty == "picked" and clean == 0:
        raise UserError(f"{who}: the kitty is picked up only after a red, wild or sevens "
                        "canasta (kitty = \"unpicked\")")
    melded = int(mval > 0 or sum(can) > 0)
    return Player(un, can, mval, hand, hsize, int(kitty == "unpicked"), score, red, melded,
                  labels, counts)


def check_position(data: dict, rules: CanastaRules) -> Position:
    """Check a decision position (see ``pushluck canasta decide --help``)."""
    for k in data:
        if k not in ("phase", "stock", "me", "opponents", "pile", "rules"):
            raise UserError(f"unknown key '{k}' in the position file")
    phase = need_text(data.get("phase", "draw"), "'phase'").strip().lower()
    if phase not in ("draw", "meld"):
        raise UserError("'phase' must be \"draw\" (take the pile or draw) or \"meld\" "
                        "(after drawing: go out or play on)")
    if "me" not in data:
        raise UserError("the position needs a [me] table")
    opps = data.get("opponents", [])
    if not isinstance(opps, list) or not opps:
        raise UserError("the position needs at least one [[opponents]] table")
    P = 1 + len(opps)
    if P != rules.players:
        raise UserError(f"the position has {P} players but the rules say {rules.players} "
                        f"(use --set players={P})")
    players = [_player(data["me"], "me", rules, True)]
    players += [_player(o, f"opponent {i + 1}", rules, False) for i, o in enumerate(opps)]
    pile_d = need_table(data.get("pile", {}), "pile")
    for k in pile_d:
        if k not in ("cards", "frozen"):
            raise UserError(f"unknown key '{k}' in [pile] (known: cards, frozen)")
    pp = parse_cards(need_text_or_texts(pile_d.get("cards", []), "pile: 'cards'"))
    frozen = need_bool(pile_d.get("frozen", False), "pile: 'frozen'")
    stock = data.get("stock")
    if isinstance(stock, bool) or not isinstance(stock, int) or stock < 0:
        raise UserError("'stock' must be the number of cards left in the stock (>= 0)")
    if phase == "draw" and stock == 0:
        raise UserError("the stock is empty: drawing is impossible (taking the pile or ending "
                        "the round is the only choice)")
    check_supply([lab for b in players for lab in b.labels] + [lab for _, lab in pp], P)
    known = [0] * NT
    for b in players:
        known = [k + m + h for k, m, h in zip(known, b.counts, b.hand)]
        known[RED3] += b.red
    for c, _ in pp:
        known[c] += 1
    deck = [n * P for n in PER_SHARE]
    unseen = [d - k for d, k in zip(deck, known)]
    for c in range(NT):
        if unseen[c] < 0:
            raise UserError(f"the position shows more cards of type {TYPE_NAMES[c]} than "
                            f"{P} players' decks hold ({deck[c]})")
    nkit = sum(b.kon for b in players)
    need = sum(b.hsize for b in players[1:]) + nkit * rules.kitty_size + stock
    if sum(unseen) != need:
        raise UserError(f"the position does not add up: {sum(unseen)} unseen cards, but "
                        f"opponents' hands + face-down kitties + stock = {need}")
    if phase == "meld" and players[0].hsize < 2:
        raise UserError("me: after drawing, the hand has at least 2 cards")
    return Position(phase, stock, players, pp, frozen, unseen)
