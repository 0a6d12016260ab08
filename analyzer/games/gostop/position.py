"""Go-Stop decide positions read and checked in plain Python (no NumPy, no kernel).

A position (a TOML ``[position]`` table or the `gostop decide` flags; the model is in the
:mod:`analyzer.games.gostop.decide` docstring) is checked here in full but for the stop minimum,
which needs the kernel's scoring: a position that cannot happen is refused in one line before
NumPy is loaded. :func:`analyzer.games.gostop.decide.build_position` builds the kernel arrays of
a :class:`Position` and checks the score.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from analyzer.errors import UserError
from analyzer.games.gostop.rules import CardPool, GoStopRules, month_of
from analyzer.games.gostop.score import score_cards
from analyzer.seats import seat_number
from analyzer.typecheck import need_text, need_text_or_texts

KNOWN_KEYS = {"players", "me", "hand", "layout", "stacks", "piles", "go_counts", "last_go",
              "shaken", "bombs", "skip_tokens", "stock", "nagari"}

#: Upper bounds of a position's counters: at most 10 turns per seat in a deal (so 10 gos, 10
#: skip tokens), at most 4 bombs, points at a go far below 1000, 20 nagari deals in a row.
LIMITS = {"go_counts": 10, "last_go": 1000, "bombs": 4, "skip_tokens": 10,
          "nagari": 20, "stock": 48, "players": 3}


@dataclass
class Position:
    """A checked position: cards as integers, one entry per seat in the per-seat lists."""

    me: int
    hand: list[int]
    layout: list[int]
    stacks: list[tuple[list[int], int, int]]  # three cards, creator (-1 none), creator's turn
    piles: list[list[int]]
    go_counts: list[int]
    last_go: list[int]
    shaken: list[list[int]]  # 1-based months
    bombs: list[int]
    skip: list[int]
    turns: list[int]  # turns played
    remaining: list[int]  # turns left
    opp_sizes: list[int]  # hand sizes (0 for me)
    unseen: list[int]  # the cards in the opponents' hands and the stock
    stock: int
    nagari: int
    score: int  # my capture pile's points under its best reading of the sake cup


def _list(pos: dict, key: str, n: int, default, conv=int) -> list:
    v = pos.get(key)
    if v is None:
        return [default] * n
    if isinstance(v, str):
        v = [x for x in re.split(r"[;,]", v) if x.strip() != ""] if conv is int else v.split(";")
    if not isinstance(v, list) or len(v) != n:
        raise UserError(f"position '{key}' must list one value per seat ({n} seats)")
    if conv is int:
        return [_int(x, key) for x in v]
    try:
        return [conv(x) for x in v]
    except (TypeError, ValueError):
        raise UserError(f"position '{key}' has a bad value: {v!r}") from None


def _int(x, key: str) -> int:
    """A position counter: an integer (a digit string from a flag is fine) in 0..LIMITS[key]."""
    if isinstance(x, str) and x.strip().lstrip("-").isascii() and \
            x.strip().lstrip("-").isdigit() and len(x.strip()) <= 12:
        x = int(x.strip())
    if isinstance(x, bool) or not isinstance(x, int):
        raise UserError(f"position '{key}' must be an integer, got {x!r}")
    top = LIMITS.get(key, 10**6)
    if not 0 <= x <= top:
        raise UserError(f"position '{key}' = {x} is outside 0..{top}")
    return x


def _months(text) -> list[int]:
    if isinstance(text, list):
        items = text
    else:
        items = [x for x in re.split(r"[,\s]+", need_text(text, "shaken").strip()) if x]
    out = []
    for x in items:
        if isinstance(x, bool) or not isinstance(x, (int, str)) or isinstance(x, str) and not (
                x.strip().isascii() and x.strip().isdigit() and len(x.strip()) <= 2):
            raise UserError(f"shaken month {x!r} is not a number 1-12")
        m = int(x)
        if not 1 <= m <= 12:
            raise UserError(f"shaken month {m} is not in 1-12")
        out.append(m)
    return out


def per_seat(text: str) -> list[str]:
    """The entries of a per-seat (or per-stack, per-opponent) list given as one text, each with
    spaces between its cards (or months). The shared list syntax (docs/conventions.md): entries
    separated by ``,``, the cards of one entry by ``:`` (or spaces), so ``01B:03B,11J1`` needs
    no shell quoting; an empty entry is an empty pile. The old form with ``;`` between entries
    (``'01B 03B;11J1'``, cards by spaces or ``,``) is still read."""
    items = text.split(";" if ";" in text else ",")
    return [re.sub(r"[,:\s]+", " ", x).strip() for x in items]


def stack_texts(raw) -> list[str]:
    """The stacks of a position (a text or a list of texts), one text each, cards by spaces.
    A text without ':' and ';' is one stack, its cards by ',' or spaces (as before: a stack of
    one card cannot be, so '05A,05R,05J1@2' has no other reading); otherwise
    :func:`per_seat`'s syntax ('05A:05R:05J1@2,06A:06R:06J1', old: ';' between stacks)."""
    if isinstance(raw, str) and ":" not in raw and ";" not in raw:
        raw = [raw.replace(",", " ")]
    return _as_list(raw, None, "stacks")


def _as_list(v, n: int | None = None, what: str = "cards") -> list[str]:
    if v is None:
        return [""] * n if n else []
    if isinstance(need_text_or_texts(v, what), str):
        return per_seat(v)
    return list(v)


def check_position(pos: dict, rules: GoStopRules) -> Position:
    """Validate a decide position (TOML table or flags), down to the stop minimum: my capture
    pile must score at least ``stop_target`` (and more than at my last go) under its best reading
    of the sake cup (pure-Python scoring, :mod:`analyzer.games.gostop.score`)."""
    unknown = set(pos) - KNOWN_KEYS
    if unknown:
        raise UserError(f"unknown position key(s): {', '.join(sorted(unknown))} "
                        f"(known: {', '.join(sorted(KNOWN_KEYS))})")
    n = rules.players
    me = seat_number(pos.get("me", 1), "position 'me'", n)
    pool = CardPool(rules)
    hand = pool.parse(need_text(pos.get("hand", ""), "hand"), "hand")
    layout = pool.parse(need_text(pos.get("layout", ""), "layout"), "layout")
    stacks = []
    raw_stacks = pos.get("stacks")
    for i, text in enumerate(stack_texts(raw_stacks)):
        if not text.strip():
            if isinstance(raw_stacks, str) and not raw_stacks.strip():
                continue  # stacks = "": none
            raise UserError(f"stack {i + 1} is empty (stacks are separated by ',' and a "
                            f"stack's cards by ':', e.g. 05A:05R:05J1@2,06A:06R:06J1; no "
                            f"stacks: leave it out)")
        creator = -1
        if "@" in text:
            text, who = text.rsplit("@", 1)
            creator = seat_number(who, f"stack creator @{who}", n)
        cards = pool.parse(text, "stacks")
        if len(cards) != 3 or len({month_of(c) for c in cards}) != 1 or month_of(cards[0]) == 0:
            raise UserError(f"stack '{text}' must be exactly three cards of one month (stacks "
                            f"are separated by ',' and a stack's cards by ':', e.g. "
                            f"05A:05R:05J1@2,06A:06R:06J1)")
        stacks.append((cards, creator))
    piles_text = _as_list(pos.get("piles"), n, "piles")
    if len(piles_text) != n:
        raise UserError(f"'piles' must give one capture pile per seat ({n}): piles separated by "
                        f"',' and a pile's cards by ':' (e.g. 01B:03B,11J1:12D)")
    piles = [pool.parse(t, f"pile of seat {p + 1}") for p, t in enumerate(piles_text)]
    per_month = {}
    for c in layout:
        if c >= 48:
            raise UserError("a joker cannot lie in the layout (it goes to the dealer's pile)")
        per_month[month_of(c)] = per_month.get(month_of(c), 0) + 1
    for m, k in per_month.items():
        if k > 2:
            raise UserError(f"layout holds {k} single cards of month {m}: three cards of a month "
                            f"form a stack (list them under stacks)")
    for cards, _ in stacks:
        if month_of(cards[0]) in per_month:
            raise UserError(f"month {month_of(cards[0])} has both a stack and singles in the "
                            f"layout")
    go_counts = _list(pos, "go_counts", n, 0)
    last_go = _list(pos, "last_go", n, 0)
    bombs = _list(pos, "bombs", n, 0)
    skip = _list(pos, "skip_tokens", n, 0)
    shaken_raw = pos.get("shaken")
    if shaken_raw is None:
        shaken = [[] for _ in range(n)]
    else:
        items = (per_seat(shaken_raw) if isinstance(shaken_raw, str) else
                 shaken_raw if isinstance(shaken_raw, list) else need_text(shaken_raw, "shaken"))
        if len(items) != n:
            raise UserError(f"'shaken' must give the shaken months of each seat ({n}): seats "
                            f"separated by ',' and one seat's months by ':' (e.g. 5:11,)")
        shaken = [_months(x) for x in items]
    for name, vals in (("go_counts", go_counts), ("last_go", last_go), ("bombs", bombs),
                       ("skip_tokens", skip)):
        if any(v < 0 for v in vals):
            raise UserError(f"'{name}' values must be non-negative")
    nagari = _int(pos.get("nagari", 0), "nagari")
    if nagari < 0:
        raise UserError("'nagari' must be non-negative")
    H = rules.hand_size
    t_me = len(hand) + skip[me]
    remaining = [t_me + 1 if q > me else t_me for q in range(n)]
    if t_me + 1 > H and n > 1 and me < n - 1:
        raise UserError(f"seat {me + 1} holds {len(hand)} cards (+{skip[me]} skips) after its "
                        f"turn: more than a {H}-card hand allows")
    if t_me >= H:
        raise UserError(f"seat {me + 1} holds {len(hand)} cards (+{skip[me]} skips) after its "
                        f"turn: a {H}-card hand has at most {H - 1} turns left")
    opp_sizes = [0 if q == me else remaining[q] - skip[q] for q in range(n)]
    if any(s < 0 for s in opp_sizes):
        raise UserError("an opponent has more skip tokens than turns left")
    turns = [H - remaining[q] for q in range(n)]
    seen = set(pool.where)
    unseen = [c for c in range(rules.deck_size) if c not in seen]
    nj_unseen = sum(1 for c in unseen if c >= 48)
    stock_size = len(unseen) - sum(opp_sizes)
    need = sum(remaining) + sum(1 for c in hand if c >= 48)
    if len(unseen) - nj_unseen - sum(opp_sizes) != need or stock_size < 0:
        raise UserError(
            f"the cards do not add up: {len(unseen)} unseen cards, opponents' hands "
            f"{sum(opp_sizes)}, so a stock of {stock_size}, but {sum(remaining)} turns are left "
            f"(check the hand, the piles and the layout)")
    if pos.get("stock") is not None and _int(pos["stock"], "stock") != stock_size:
        raise UserError(f"stock = {pos['stock']} does not match the position (it must be "
                        f"{stock_size})")
    stacks_k = [(cards, cr, turns[cr] - 1 if cr >= 0 else -1) for cards, cr in stacks]
    score = score_cards(piles[me], rules)["points"]
    if score < rules.stop_target or (go_counts[me] > 0 and score <= last_go[me]):
        why = (f"score {score} is below the stop minimum {rules.stop_target}"
               if score < rules.stop_target else
               f"score {score} does not exceed the score of the last go ({last_go[me]})")
        raise UserError(f"seat {me + 1} is not at a go/stop decision: {why}")
    return Position(me, hand, layout, stacks_k, piles, go_counts, last_go, shaken, bombs, skip,
                    turns, remaining, opp_sizes, unseen, stock_size, nagari, score)
