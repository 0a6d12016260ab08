"""Go-Stop positions and the go-or-stop decision: building a position, then playouts of going.

Position model (``decide``): the seat ``me`` has just finished its turn and is eligible to stop
(S >= target and, after a go, S above the score of its last go). Known: ``me``'s hand, the layout
(singles and triple stacks with their creators), every capture pile, go counts and scores at the
last go, shaken months, bombs and skip tokens, the previous deal's nagari count. Unknown: the
opponents' hands and the stock order. Turn accounting fixes their sizes: ``me`` has
T = hand + skip tokens turns left; seats after ``me`` in this round have T + 1, seats before it T;
an opponent's hand holds its turns left minus its skip tokens. The stock then holds the other
unseen cards, and a consistent position satisfies::

    unseen non-joker cards - opponents' hand cards = turns left (all seats) + jokers in me's hand

(every turn flips one non-joker; every joker played from a hand needs one substitute). Each
playout deals the unseen cards uniformly at random (a Fisher-Yates shuffle per trial) into the
opponents' hands and the stock. Stopping is worth a known amount (``settle``); going is played out
under the stated policies. The per-trial difference go - stop has the stop value as a constant, so
its interval is that of the go value shifted.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from analyzer.errors import UserError
from analyzer.games.gostop.play import Policy, policy_array
from analyzer.games.gostop.rules import CardPool, GoStopRules, card_name, month_of, rules_vector

if TYPE_CHECKING:
    from analyzer.runner import RunSpec

#: playouts of the go branch when neither -n nor --precision is given
DECIDE_PLAYOUTS = 20_000


@dataclass
class Built:
    """A kernel state array for a position (PS, PV, EV are numpy views into it)."""

    S: np.ndarray
    unseen: list = field(default_factory=list)
    opp_sizes: list = field(default_factory=list)
    remaining: list = field(default_factory=list)

    @property
    def PS(self):
        from kernels.gostop.state import views
        return views(self.S)[0]

    @property
    def PV(self):
        from kernels.gostop.state import views
        return views(self.S)[1]

    @property
    def EV(self):
        from kernels.gostop.state import views
        return views(self.S)[2]

    def set_policies(self, pols) -> None:
        from kernels.gostop.score import MAXP, NPOL, POLB
        self.S[POLB:POLB + MAXP * NPOL] = policy_array(pols).reshape(-1)


def make_state(rules: GoStopRules, hands, layout, stacks, piles, stock, go_counts=None,
               last_go=None, shaken=None, bombs=None, skip=None, turns=None) -> Built:
    """Kernel arrays for a fully specified position (cards as integers).

    ``stacks``: list of (three cards, creator seat or -1, creator's turn index at creation).
    ``shaken``: per seat a list of 1-based months.
    """
    from kernels.gostop import state as K
    from kernels.gostop import score as KS

    n = rules.players
    S = K.new_state(rules_vector(rules), policy_array([Policy("greedy")] * n))
    PS, PV, _ = K.views(S)
    PV[:, KS.V_FIRSTGO] = KS.NO_GO
    S[K.NPL] = n
    S[K.SOWN:K.SOWN + 12] = -1
    for p in range(n):
        h = hands[p] if hands else []
        if len(h) > K.MAXH:
            raise UserError(f"seat {p} holds {len(h)} cards; at most {K.MAXH}")
        for i, c in enumerate(h):
            S[K.HAND + p * K.MAXH + i] = c
        S[K.HN + p] = len(h)
        for c in piles[p]:
            S[K.PILE + p * KS.MAXC + S[K.PN + p]] = c
            S[K.PN + p] += 1
            KS.stats_add(S, p, np.int64(c), np.int64(1))
    for c in layout:
        m = c // 4
        S[K.LAY + 4 * m + S[K.LN + m]] = c
        S[K.LN + m] += 1
    for cards, creator, turn in stacks:
        m = cards[0] // 4
        for c in cards:
            S[K.LAY + 4 * m + S[K.LN + m]] = c
            S[K.LN + m] += 1
        S[K.SOWN + m] = creator
        S[K.STRN + m] = turn
    for i, c in enumerate(stock):
        S[K.STOCK + i] = c
    S[K.SLEN] = len(stock)
    seq = 0
    for p in range(n):
        g = (go_counts or [0] * n)[p]
        PV[p, KS.V_GO] = g
        PV[p, KS.V_LASTGO] = (last_go or [0] * n)[p]
        if g > 0:
            PV[p, KS.V_FIRSTGO] = seq
            seq += 1
        for mo in (shaken or [[]] * n)[p]:
            PV[p, KS.V_SHAKEMASK] |= 1 << (mo - 1)
            PV[p, KS.V_SHAKES] += 1
        PV[p, KS.V_BOMBS] = (bombs or [0] * n)[p]
        PV[p, KS.V_SKIP] = (skip or [0] * n)[p]
        PV[p, KS.V_TURNS] = (turns or [0] * n)[p]
    S[K.GOSEQ] = seq
    return Built(S)


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


#: Upper bounds of a position's counters: at most 10 turns per seat in a deal (so 10 gos, 10
#: skip tokens), at most 4 bombs, points at a go far below 1000, 20 nagari deals in a row.
LIMITS = {"me": 2, "go_counts": 10, "last_go": 1000, "bombs": 4, "skip_tokens": 10,
          "nagari": 20, "stock": 48, "players": 3}


def _int(x, key: str) -> int:
    """A position counter: an integer (a digit string from a flag is fine) in 0..LIMITS[key]."""
    if isinstance(x, str) and x.strip().lstrip("-").isdigit() and len(x.strip()) <= 12:
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
        items = [x for x in re.split(r"[,\s]+", str(text).strip()) if x]
    out = []
    for x in items:
        try:
            m = int(x)
        except ValueError:
            raise UserError(f"shaken month '{x}' is not a number 1-12") from None
        if not 1 <= m <= 12:
            raise UserError(f"shaken month {m} is not in 1-12")
        out.append(m)
    return out


KNOWN_KEYS = {"players", "me", "hand", "layout", "stacks", "piles", "go_counts", "last_go",
              "shaken", "bombs", "skip_tokens", "stock", "nagari"}


def build_position(pos: dict, rules: GoStopRules) -> tuple[Built, dict]:
    """Validate a decide position (TOML table or flags) and build the kernel arrays."""
    unknown = set(pos) - KNOWN_KEYS
    if unknown:
        raise UserError(f"unknown position key(s): {', '.join(sorted(unknown))} "
                        f"(known: {', '.join(sorted(KNOWN_KEYS))})")
    n = rules.players
    me = _int(pos.get("me", 0), "me")
    if not 0 <= me < n:
        raise UserError(f"me = {me}: seats are 0..{n - 1}")
    pool = CardPool(rules)
    hand = pool.parse(pos.get("hand", ""), "hand")
    layout = pool.parse(pos.get("layout", ""), "layout")
    stacks = []
    for text in _as_list(pos.get("stacks")):
        if not text.strip():
            continue
        creator = -1
        if "@" in text:
            text, who = text.rsplit("@", 1)
            try:
                creator = int(who)
            except ValueError:
                raise UserError(f"stack creator '@{who}' must be a seat number") from None
            if not 0 <= creator < n:
                raise UserError(f"stack creator @{creator}: seats are 0..{n - 1}")
        cards = pool.parse(text, "stacks")
        if len(cards) != 3 or len({month_of(c) for c in cards}) != 1 or month_of(cards[0]) == 0:
            raise UserError(f"stack '{text}' must be exactly three cards of one month")
        stacks.append((cards, creator))
    piles_text = _as_list(pos.get("piles"), n)
    if len(piles_text) != n:
        raise UserError(f"'piles' must give one capture pile per seat ({n}), separated by ';'")
    piles = [pool.parse(t, f"pile of seat {p}") for p, t in enumerate(piles_text)]
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
        items = shaken_raw.split(";") if isinstance(shaken_raw, str) else list(shaken_raw)
        if len(items) != n:
            raise UserError(f"'shaken' must give the shaken months of each seat ({n}), "
                            f"';'-separated")
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
        raise UserError(f"seat {me} holds {len(hand)} cards (+{skip[me]} skips) after its turn: "
                        f"more than a {H}-card hand allows")
    if t_me >= H:
        raise UserError(f"seat {me} holds {len(hand)} cards (+{skip[me]} skips) after its turn: a "
                        f"{H}-card hand has at most {H - 1} turns left")
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
    hands = [hand if q == me else [] for q in range(n)]
    built = make_state(rules, hands, layout, stacks_k, piles, [], go_counts, last_go, shaken,
                       bombs, skip, turns)
    built.unseen = unseen
    built.opp_sizes = opp_sizes
    built.remaining = remaining
    from kernels.gostop import score as KS  # after every check: a bad position loads no Numba

    score = int(KS.best_score(built.S, me))
    eligible = score >= rules.stop_target and (go_counts[me] == 0 or score > last_go[me])
    if not eligible:
        why = (f"score {score} is below the stop minimum {rules.stop_target}"
               if score < rules.stop_target else
               f"score {score} does not exceed the score of the last go ({last_go[me]})")
        raise UserError(f"seat {me} is not at a go/stop decision: {why}")
    info = {"me": me, "score": score, "stock": stock_size, "turns_left": remaining,
            "opponent_hand_sizes": [opp_sizes[q] for q in range(n) if q != me],
            "nagari": nagari, "forced_stop": remaining[me] == 0,
            "hand": [card_name(c, rules) for c in hand]}
    return built, info


def _as_list(v, n: int | None = None) -> list[str]:
    if v is None:
        return [""] * n if n else []
    if isinstance(v, str):
        return v.split(";") if (n or ";" in v) else [v]
    return [str(x) for x in v]


def decide(pos: dict, rules: GoStopRules, me_policy: Policy, opp_policy: Policy,
           spec: RunSpec) -> dict:
    """Expected net payment to ``me`` of going and of stopping, and their difference.

    ``spec.n`` playouts of the go branch (``None`` without a precision target: 20,000)."""
    built, info = build_position(pos, rules)  # every check before a kernel is imported
    from analyzer.runner import KernelJob, half_width_of_mean
    from analyzer.stats import mean_from_sums, paired_difference, wilson
    from kernels.gostop import batch as K
    from kernels.gostop import score as KS

    me = info["me"]
    nagari = info["nagari"]
    net = np.zeros(K.MAXP, np.int64)
    KS.settle(built.S, me, rules.players, nagari, net)
    stop_net = int(net[me])
    base = {"game": "gostop", "exact": False, "seed": spec.seed, "position": info,
            "stop_payment": stop_net,
            "policies": {"me": me_policy.label, "opponents": opp_policy.label}}
    if info["forced_stop"]:
        base.update({"recommendation": "stop", "forced": True, "n": 0,
                     "reason": "no turn left for this seat: it must stop"})
        return base
    pols = [opp_policy] * rules.players
    pols[me] = me_policy
    built.set_policies(pols)
    unseen = np.array(built.unseen, np.int64)
    sizes = np.array(built.opp_sizes + [0] * (K.MAXP - len(built.opp_sizes)), np.int64)

    def run_blocks(keys, counts):
        return K.decide_blocks(keys, counts, built.S, unseen, len(unseen), sizes, me, nagari,
                               stop_net)

    job = KernelJob("gostop decide", 1024, run_blocks, half_width_of_mean(K.D_DIFF, K.D_DIFF2),
                    unit="playouts")
    if spec.n is None and spec.precision is None:
        spec = replace(spec, n=DECIDE_PLAYOUTS)
    res = spec.run(job)
    s = res.sums
    if s[K.D_ERR] > 0:  # pragma: no cover - engine invariant
        raise UserError(f"engine error in {int(s[K.D_ERR])} playouts")
    go = mean_from_sums(float(s[K.D_GO]), float(s[K.D_GO2]), res.n)
    diff = paired_difference(float(s[K.D_DIFF]), float(s[K.D_DIFF2]), res.n)
    if diff.contains_zero():
        rec = f"too close to call at n = {res.n:,}"
    else:
        rec = "go" if diff.estimate > 0 else "stop"
    base.update({
        "n": res.n, "go_payment": go, "difference_go_minus_stop": diff,
        "recommendation": rec, "margin": abs(diff.estimate),
        "after_go": {"p_win": wilson(float(s[K.D_WIN]), res.n),
                     "p_nagari": wilson(float(s[K.D_NAGARI]), res.n),
                     "p_opponent_wins": wilson(float(s[K.D_LOSE]), res.n)},
        "playouts_per_second": res.per_second, "stopped_by": res.stopped_by,
    })
    return base
