"""Go-Stop: rules, card notation, policies and the scoring/payment of capture piles.

Rules page: ``shared/rules/go-stop.md``. Cards are written as a two-digit month and a class code
(``01B`` bright, ``02A`` animal, ``09R`` ribbon, ``05J1``/``05J2`` junk, ``11D``/``12D`` double
junk) and jokers as ``X<value>`` (``X2``, ``X3``); lists are separated by commas or spaces.
Internally card ``c = 4*(month-1) + slot`` (slot = column of the deck table) and jokers are
``48 + j`` in the order of the ``jokers`` rule.

Scoring and payment are computed by the same functions the deal engine uses
(``kernels.gostop_score``); this module adds the line-by-line breakdown and the description of
the multipliers that applied.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from analyzer.errors import UserError
from analyzer.rules import rule

MONTH_CARDS = [
    ("01B", "01R", "01J1", "01J2"), ("02A", "02R", "02J1", "02J2"),
    ("03B", "03R", "03J1", "03J2"), ("04A", "04R", "04J1", "04J2"),
    ("05A", "05R", "05J1", "05J2"), ("06A", "06R", "06J1", "06J2"),
    ("07A", "07R", "07J1", "07J2"), ("08B", "08A", "08J1", "08J2"),
    ("09A", "09R", "09J1", "09J2"), ("10A", "10R", "10J1", "10J2"),
    ("11B", "11D", "11J1", "11J2"), ("12B", "12A", "12R", "12D"),
]
CARD_NAMES = [name for month in MONTH_CARDS for name in month]
CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
GO_MODES = {"source": 0, "korean": 1, "literal_gt3": 2, "cap2": 3}


@dataclass(frozen=True)
class GoStopRules:
    players: int = rule(2, "active players (2 or 3); seat 0 deals and plays first", min=2, max=3)
    target: int = rule(0, "stop minimum; 0 = the default for the player count (7 with 2 players, "
                          "3 with 3)", min=0, max=100)
    jokers: tuple[int, ...] = rule((2, 3), "junk value of each joker in the deck (0-5 jokers)",
                                   min=1, max=5)
    sake_cup: str = rule("animal", "09A counts as an animal, or (flex) as animal or double junk "
                                   "to its owner's advantage", choices=("animal", "flex"))
    go_multiplier: str = rule("source", "source: +1 per go, x2 once from the 3rd go; korean: x2, "
                                        "x4, ... from the 3rd; literal_gt3: x2 from the 4th; cap2",
                              choices=tuple(GO_MODES))
    nagari_multiplier: str = rule("once", "after nagari the next won deal pays x2 (once) or x2 "
                                          "per consecutive nagari (stack)",
                                  choices=("once", "stack"))
    bomb_bonus: str = rule("none", "korean: a bomb also steals 1 junk and doubles like a shake",
                           choices=("none", "korean"))
    bomb_after_shake: bool = rule(False, "a shaken (declared) triple may still bomb")
    ja_ppuk_scope: str = rule("previous", "ja-ppuk: own stack from the previous own turn, or any "
                                          "earlier turn", choices=("previous", "any"))
    last_turn_events: str = rule("always", "korean: no sweep/ttadak/stack-capture steal on the "
                                           "deal's final turn", choices=("always", "korean"))
    pibak_threshold: int = rule(5, "pi-bak when the loser's junk value is at most this", min=0,
                                max=40)
    pibak_exempt_zero: bool = rule(False, "a loser with no junk at all escapes pi-bak")
    go_bak: bool = rule(False, "a loser who had called go pays for all losers")
    chongtong_payment: str = rule("chips", "chongtong: chongtong_chips from each opponent, or the "
                                           "stop minimum", choices=("chips", "target"))
    chongtong_chips: int = rule(5, "chips per opponent for chongtong", min=0, max=1000)
    four_brights: int = rule(4, "points of 4 brights; 5 = sloperama (5 when 12B is not among "
                                "them, else 4)", choices=(4, 5))

    def check(self) -> None:
        if len(self.jokers) > 5:
            raise UserError(f"rule 'jokers' lists {len(self.jokers)} jokers; at most 5")

    @property
    def stop_target(self) -> int:
        if self.target:
            return self.target
        return 7 if self.players == 2 else 3

    @property
    def hand_size(self) -> int:
        return 10 if self.players == 2 else 7

    @property
    def layout_size(self) -> int:
        return 8 if self.players == 2 else 6

    @property
    def chong_chips(self) -> int:
        return self.chongtong_chips if self.chongtong_payment == "chips" else self.stop_target

    @property
    def deck_size(self) -> int:
        return 48 + len(self.jokers)


def rules_vector(r: GoStopRules) -> np.ndarray:
    """The rules as the int64 vector the kernels read (indices R_* in kernels.gostop_score)."""
    from kernels import gostop_score as K

    v = np.zeros(K.NRULE, dtype=np.int64)
    v[K.R_NP] = r.players
    v[K.R_TARGET] = r.stop_target
    v[K.R_NJ] = len(r.jokers)
    v[K.R_FLEX] = r.sake_cup == "flex"
    v[K.R_GOMODE] = GO_MODES[r.go_multiplier]
    v[K.R_NAGSTACK] = r.nagari_multiplier == "stack"
    v[K.R_BOMBK] = r.bomb_bonus == "korean"
    v[K.R_BAS] = r.bomb_after_shake
    v[K.R_JAANY] = r.ja_ppuk_scope == "any"
    v[K.R_LASTK] = r.last_turn_events == "korean"
    v[K.R_PIBAK] = r.pibak_threshold
    v[K.R_PIB0] = r.pibak_exempt_zero
    v[K.R_GOBAK] = r.go_bak
    v[K.R_CHONG] = r.chong_chips
    v[K.R_FOURB5] = r.four_brights == 5
    v[K.R_HAND] = r.hand_size
    v[K.R_LAYOUT] = r.layout_size
    for j, val in enumerate(r.jokers):
        v[K.R_JV + j] = val
    kind, junk, value = K.card_tables(r.jokers)
    v[K.R_KTAB:K.R_KTAB + K.MAXC] = kind
    v[K.R_JTAB:K.R_JTAB + K.MAXC] = junk
    v[K.R_VTAB:K.R_VTAB + K.MAXC] = value
    return v


# ---- card notation ---------------------------------------------------------------------------

def card_name(c: int, rules: GoStopRules) -> str:
    if c < 48:
        return CARD_NAMES[c]
    return f"X{rules.jokers[c - 48]}"


def month_of(c: int) -> int:
    """1-based month of a card; 0 for a joker."""
    return c // 4 + 1 if c < 48 else 0


class CardPool:
    """Parses card lists and hands out each physical card once (jokers by value)."""

    def __init__(self, rules: GoStopRules):
        self.rules = rules
        self.where: dict[int, str] = {}

    def parse(self, text: str | None, what: str) -> list[int]:
        if text is None:
            return []
        out = []
        for token in re.split(r"[,\s]+", text.strip()):
            if not token:
                continue
            out.append(self.take(token, what))
        return out

    def take(self, token: str, what: str) -> int:
        t = token.strip().upper()
        if t in CARD_INDEX:
            c = CARD_INDEX[t]
            if c in self.where:
                raise UserError(f"card {t} appears twice (in {self.where[c]} and in {what})")
            self.where[c] = what
            return c
        m = re.fullmatch(r"X(\d+)", t)
        if m:
            val = int(m.group(1))
            for j, jv in enumerate(self.rules.jokers):
                if jv == val and 48 + j not in self.where:
                    self.where[48 + j] = what
                    return 48 + j
            have = sum(1 for jv in self.rules.jokers if jv == val)
            if have == 0:
                raise UserError(f"joker {t} in {what} is not in the deck (jokers: "
                                f"{', '.join('X%d' % v for v in self.rules.jokers) or 'none'})")
            raise UserError(f"joker {t} in {what}: the deck has only {have} such joker(s)")
        raise UserError(f"unknown card '{token}' in {what} (write month + class, e.g. 01B, 02A, "
                        f"09R, 05J1, 11D, or a joker X2/X3)")


def parse_cards(text: str, rules: GoStopRules, what: str = "cards") -> list[int]:
    return CardPool(rules).parse(text, what)


# ---- scoring --------------------------------------------------------------------------------

def state_array(rules: GoStopRules, players: int | None = None) -> np.ndarray:
    """An empty kernel state array carrying the rules vector (``kernels.gostop.new_state``)."""
    from kernels.gostop import MAXP, NPOL, new_state
    from kernels.gostop_score import R_NP

    rv = rules_vector(rules)
    if players is not None:
        rv[R_NP] = players
    return new_state(rv, np.zeros((MAXP, NPOL), np.int64))


def pile_stats(cards: list[int], rules: GoStopRules) -> np.ndarray:
    """The ten pile counters of ``kernels.gostop_score`` for a list of cards."""
    from kernels.gostop_score import NSTAT, PSB, stats_add

    S = state_array(rules)
    for c in cards:
        stats_add(S, 0, np.int64(c), np.int64(1))
    return S[PSB:PSB + NSTAT].copy()


def breakdown(st: np.ndarray, rules: GoStopRules, as_junk: bool = False) -> list[dict]:
    """The scoring lines of rules section 7 (only lines that score), one reading of 09A."""
    from kernels import gostop_score as K

    na, junk = int(st[K.T_A]), int(st[K.T_JUNK])
    if as_junk and st[K.T_SAKE]:
        na, junk = na - 1, junk + 2
    nb, rain = int(st[K.T_B]), int(st[K.T_RAIN])
    lines = []
    bp = int(K.bright_points(nb, rain, int(rules.four_brights == 5)))
    if bp:
        label = {5: "5 brights", 4: "4 brights", 3: "3 brights" + (" with 12B" if rain else "")}
        lines.append({"line": label[min(nb, 5)], "points": bp})
    if na >= 5:
        lines.append({"line": f"{na} animals", "points": na - 4})
    if st[K.T_GOD] == 3:
        lines.append({"line": "godori", "points": 5})
    nr = int(st[K.T_R])
    if nr >= 5:
        lines.append({"line": f"{nr} ribbons", "points": nr - 4})
    for key, name in ((K.T_HONG, "hongdan"), (K.T_CHEONG, "cheongdan"), (K.T_CHO, "chodan")):
        if st[key] == 3:
            lines.append({"line": name, "points": 3})
    if junk >= 10:
        lines.append({"line": f"junk value {junk}", "points": junk - 9})
    return lines


def score_cards(cards: list[int], rules: GoStopRules) -> dict:
    """Points of a capture pile: the best reading of 09A under flex, its lines and counts."""
    from kernels import gostop_score as K

    st = pile_stats(cards, rules)
    S = state_array(rules)
    S[K.PSB:K.PSB + K.NSTAT] = st
    s0 = int(K.score_reading(S, 0, 0))
    reading = 0
    if rules.sake_cup == "flex" and st[K.T_SAKE]:
        s1 = int(K.score_reading(S, 0, 1))
        if s1 > s0:
            reading = 1
    lines = breakdown(st, rules, bool(reading))
    points = sum(x["points"] for x in lines)
    return {"points": points, "breakdown": lines,
            "sake_cup_as": None if not st[K.T_SAKE] else ("junk" if reading else "animal"),
            "counts": {"brights": int(st[K.T_B]), "animals": int(st[K.T_A]) - reading,
                       "ribbons": int(st[K.T_R]),
                       "junk_value": int(st[K.T_JUNK]) + 2 * reading}}


def payments(winner: list[int], opponents: list[list[int]], rules: GoStopRules, go_count: int = 0,
             shaken: int = 0, bombs: int = 0, nagari: int = 0,
             opponent_gos: list[int] | None = None) -> dict:
    """What each opponent pays the winner (rules section 9), with the multipliers that applied."""
    from kernels import gostop_score as K

    n = 1 + len(opponents)
    if n > 3:
        raise UserError(f"{len(opponents)} opponents given; Go-Stop has at most 3 active players")
    opponent_gos = list(opponent_gos or [0] * len(opponents))
    if len(opponent_gos) != len(opponents):
        raise UserError(f"--opponent-gos gives {len(opponent_gos)} counts for "
                        f"{len(opponents)} opponents")
    for v, name in ((go_count, "--go-count"), (shaken, "--shaken"), (bombs, "--bombs"),
                    (nagari, "--nagari")):
        if v < 0:
            raise UserError(f"{name} must be non-negative (got {v})")
    if shaken > 4:
        raise UserError(f"--shaken {shaken}: a player can shake at most 4 months (7-10 cards)")
    from kernels.gostop import views

    S = state_array(rules, n)
    PS, PV, _ = views(S)
    PV[:, K.V_FIRSTGO] = K.NO_GO
    PS[0] = pile_stats(winner, rules)
    PV[0, K.V_GO] = go_count
    PV[0, K.V_SHAKES] = shaken
    PV[0, K.V_BOMBS] = bombs
    for i, cards in enumerate(opponents):
        PS[i + 1] = pile_stats(cards, rules)
        PV[i + 1, K.V_GO] = opponent_gos[i]
        if opponent_gos[i] > 0:
            PV[i + 1, K.V_FIRSTGO] = i
    out = np.zeros(3, dtype=np.int64)
    reading = int(K.settle(S, 0, n, nagari, out))
    wst = PS[0]
    na = int(wst[K.T_A]) - reading
    wj = int(wst[K.T_JUNK]) + 2 * reading
    s = int(K.score_reading(S, 0, reading))
    dbl = shaken + (bombs if rules.bomb_bonus == "korean" else 0)
    gp = min(go_count, 2) if rules.go_multiplier == "cap2" and go_count > 2 else go_count
    common = []
    if dbl:
        common.append(f"shaken/bomb x{2 ** dbl}")
    gf = int(K.go_factor(go_count, GO_MODES[rules.go_multiplier]))
    if gf > 1:
        common.append(f"go x{gf}")
    if na >= 7:
        common.append("meong-bak x2")
    nf = int(K.nagari_factor(nagari, S))
    if nf > 1:
        common.append(f"nagari x{nf}")
    rows = []
    payer = None
    if rules.go_bak:
        gos = [(i, g) for i, g in enumerate(opponent_gos) if g > 0]
        if gos:
            payer = gos[0][0]
    for i, cards in enumerate(opponents):
        ost = PS[i + 1]
        amount = int(K.pay_one(S, 0, reading, go_count, dbl, nf, i + 1))
        mult = list(common)
        if wst[K.T_B] >= 3 and ost[K.T_B] == 0:
            mult.append("gwang-bak x2")
        oj = int(ost[K.T_JUNK]) + (2 if rules.sake_cup == "flex" and ost[K.T_SAKE] else 0)
        if wj >= 10 and oj <= rules.pibak_threshold and not (rules.pibak_exempt_zero and oj == 0):
            mult.append("pi-bak x2")
        rows.append({"opponent": i + 1, "amount": amount, "pays": int(-out[i + 1]),
                     "multipliers": mult, "junk_value": oj, "brights": int(ost[K.T_B])})
    if payer is not None:
        for row in rows:
            row["note"] = ("go-bak: pays for every loser" if row["opponent"] == payer + 1
                           else "go-bak: another loser pays")
    return {"base": s, "go_points": gp, "payments": rows, "total": int(out[0])}


# ---- policies -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Policy:
    kind: str           # greedy, go, random
    k: int = 0
    turns: int = 1

    @property
    def label(self) -> str:
        if self.kind == "go":
            return f"go:{self.k}" + (f":{self.turns}" if self.turns != 1 else "")
        return self.kind


def parse_policy(text: str) -> Policy:
    t = text.strip().lower()
    if t in ("greedy", "random"):
        return Policy(t)
    m = re.fullmatch(r"go:(\d+)(?::(\d+))?", t)
    if m:
        k = int(m.group(1))
        turns = int(m.group(2)) if m.group(2) else 1
        if turns < 1:
            raise UserError(f"policy '{text}': the minimum number of turns left must be >= 1")
        return Policy("go", k, turns)
    raise UserError(f"unknown Go-Stop policy '{text}' (use greedy, random, go:K or go:K:T)")


def parse_policies(text: str, players: int) -> list[Policy]:
    parts = [p for p in text.split(",") if p.strip()]
    if len(parts) == 1:
        parts = parts * players
    if len(parts) != players:
        raise UserError(f"--policies gives {len(parts)} policies for {players} players "
                        f"(give one for everyone or one per seat)")
    return [parse_policy(p) for p in parts]


def policy_array(pols: list[Policy]) -> np.ndarray:
    from kernels import gostop as K

    a = np.zeros((K.MAXP, K.NPOL), dtype=np.int64)
    for i, p in enumerate(pols):
        a[i, K.P_KIND] = {"greedy": K.PK_GREEDY, "go": K.PK_GO, "random": K.PK_RANDOM}[p.kind]
        a[i, K.P_GOK] = p.k
        a[i, K.P_GOTURNS] = p.turns
        a[i, K.P_SHAKE] = 1
    return a
