"""Go-Stop scoring (exact): points of a capture pile line by line and what each opponent pays.

Pure Python, so `gostop score` answers without loading Numba (a few microseconds of work; a first
call to any cached kernel would cost half an ``import numba``). The maths is that of
``kernels.gostop.score`` (rules sections 7 and 9 of docs/rules/gostop.md), which the deal engine
uses; tests/test_gostop_pyscore.py checks this module against those kernels on many random piles,
rule sets and flags. No pandas, no matplotlib, no Numba.

A pile is summarised by ten counters (``pile_stats``, the kernels' column order): brights, rain
bright held, animals (09A included), godori birds, ribbons, hongdan, cheongdan and chodan ribbons,
junk value (09A excluded), sake cup held. Card kinds come from the notation itself (``B`` bright,
``A`` animal, ``R`` ribbon, ``J`` junk, ``D`` double junk; jokers score their value as junk)::

    S = brights (5: 15; 4: 4, or 5 without 12B under four_brights=5; 3: 3, or 2 with 12B)
        + (animals − 4 from 5) + godori 5 + (ribbons − 4 from 5) + 3 per complete ribbon set
        + (junk − 9 from 10)

With ``sake_cup = flex`` 09A reads as an animal or as a double junk (animals − 1, junk + 2).
Payment of opponent o to winner W::

    (S + g') · 2^(shakes [+ bombs under korean]) · GO(g) · (2 if W animals ≥ 7) · nagari
      · (2 if W ≥ 3 brights and o none) · (2 if W junk ≥ 10 and o junk ≤ t, unless exempt at 0)

g' = g (min(g, 2) under cap2); GO(g) per ``go_multiplier``; the loser reads its own 09A as junk
under flex. The winner takes the reading that collects the most in total; with go-bak the first
opponent who called go pays every loser's amount.
"""
from __future__ import annotations

from analyzer.errors import UserError
from analyzer.games.gostop.rules import CARD_NAMES, GO_MODES, GoStopRules

# counter columns (the order of kernels.gostop.score's T_* constants)
T_B, T_RAIN, T_A, T_GOD, T_R, T_HONG, T_CHEONG, T_CHO, T_JUNK, T_SAKE = range(10)
NSTAT = 10
RAIN, SAKE = "12B", "09A"
GODORI = ("02A", "04A", "08A")
RIBBON_SET = {1: T_HONG, 2: T_HONG, 3: T_HONG, 6: T_CHEONG, 9: T_CHEONG, 10: T_CHEONG,
              4: T_CHO, 5: T_CHO, 7: T_CHO}  # month -> set of its ribbon (12R is in none)


def pile_stats(cards: list[int], rules: GoStopRules) -> list[int]:
    """The ten pile counters (module doc) of a list of cards (jokers are ``48 + j``)."""
    st = [0] * NSTAT
    for c in cards:
        if c >= 48:
            st[T_JUNK] += rules.jokers[c - 48]
            continue
        name = CARD_NAMES[c]
        kind = name[2]
        if kind == "B":
            st[T_B] += 1
            st[T_RAIN] += name == RAIN
        elif kind == "A":
            st[T_A] += 1
            st[T_GOD] += name in GODORI
            st[T_SAKE] += name == SAKE
        elif kind == "R":
            st[T_R] += 1
            group = RIBBON_SET.get(int(name[:2]))
            if group is not None:
                st[group] += 1
        else:
            st[T_JUNK] += 2 if kind == "D" else 1
    return st


def _reading(st: list[int], as_junk: int) -> tuple[int, int]:
    """(animals, junk value) with 09A read as an animal (0) or as a double junk (1)."""
    if as_junk and st[T_SAKE]:
        return st[T_A] - 1, st[T_JUNK] + 2
    return st[T_A], st[T_JUNK]


def bright_points(nb: int, rain: int, fourb5: bool) -> int:
    if nb >= 5:
        return 15
    if nb == 4:
        return 5 if fourb5 and not rain else 4
    if nb == 3:
        return 2 if rain else 3
    return 0


def breakdown(st: list[int], rules: GoStopRules, as_junk: bool = False) -> list[dict]:
    """The scoring lines of rules section 7 (only lines that score), one reading of 09A."""
    na, junk = _reading(st, int(as_junk))
    nb, rain = st[T_B], st[T_RAIN]
    lines = []
    bp = bright_points(nb, rain, rules.four_brights == 5)
    if bp:
        label = {5: "5 brights", 4: "4 brights", 3: "3 brights" + (" with 12B" if rain else "")}
        lines.append({"line": label[min(nb, 5)], "points": bp})
    if na >= 5:
        lines.append({"line": f"{na} animals", "points": na - 4})
    if st[T_GOD] == 3:
        lines.append({"line": "godori", "points": 5})
    if st[T_R] >= 5:
        lines.append({"line": f"{st[T_R]} ribbons", "points": st[T_R] - 4})
    for key, name in ((T_HONG, "hongdan"), (T_CHEONG, "cheongdan"), (T_CHO, "chodan")):
        if st[key] == 3:
            lines.append({"line": name, "points": 3})
    if junk >= 10:
        lines.append({"line": f"junk value {junk}", "points": junk - 9})
    return lines


def score_reading(st: list[int], rules: GoStopRules, as_junk: int) -> int:
    """Base score S under one reading of 09A."""
    return sum(x["points"] for x in breakdown(st, rules, bool(as_junk)))


def score_cards(cards: list[int], rules: GoStopRules, reading: int | None = None) -> dict:
    """Points of a capture pile, its lines and counts under one reading of 09A.

    ``reading`` 0 reads the sake cup as an animal, 1 as a double junk (only under flex); None
    takes the reading with more points (the go/stop check). `gostop score` with opponents passes
    the reading the payment used (``payments(...)["reading"]``), which can differ: meong-bak
    may make the animal reading pay more although it scores fewer points.
    """
    st = pile_stats(cards, rules)
    flex = rules.sake_cup == "flex" and bool(st[T_SAKE])
    if reading is None or not flex:
        reading = int(flex and score_reading(st, rules, 1) > score_reading(st, rules, 0))
    lines = breakdown(st, rules, bool(reading))
    return {"points": sum(x["points"] for x in lines), "breakdown": lines,
            "sake_cup_as": None if not st[T_SAKE] else ("junk" if reading else "animal"),
            "counts": {"brights": st[T_B], "animals": st[T_A] - reading, "ribbons": st[T_R],
                       "junk_value": st[T_JUNK] + 2 * reading}}


def go_factor(g: int, mode: int) -> int:
    """GO(g) of rules section 9 (mode: GO_MODES' value of ``go_multiplier``)."""
    if mode == GO_MODES["source"]:
        return 2 if g >= 3 else 1
    if mode == GO_MODES["literal_gt3"]:
        return 2 if g >= 4 else 1
    return 1 << (g - 2) if g >= 3 else 1  # korean and cap2


def nagari_factor(streak: int, rules: GoStopRules) -> int:
    """x2 after a nagari (once), or x2 per consecutive nagari under nagari_multiplier=stack."""
    if streak <= 0:
        return 1
    return 1 << min(streak, 20) if rules.nagari_multiplier == "stack" else 2


def _loser_junk(ost: list[int], rules: GoStopRules) -> int:
    """A loser's junk value; under flex it reads its own 09A as double junk."""
    return ost[T_JUNK] + (2 if rules.sake_cup == "flex" and ost[T_SAKE] else 0)


def pay_one(wst: list[int], ost: list[int], rules: GoStopRules, reading: int, g: int,
            doublings: int, nagari_mult: int) -> int:
    """What the loser with counters ``ost`` pays the winner ``wst`` (module doc)."""
    na, wj = _reading(wst, reading)
    s = score_reading(wst, rules, reading)
    mode = GO_MODES[rules.go_multiplier]
    gp = 2 if mode == GO_MODES["cap2"] and g > 2 else g
    amount = (s + gp) * (1 << doublings) * go_factor(g, mode) * nagari_mult
    if na >= 7:
        amount *= 2
    if wst[T_B] >= 3 and ost[T_B] == 0:
        amount *= 2
    oj = _loser_junk(ost, rules)
    if wj >= 10 and oj <= rules.pibak_threshold and not (rules.pibak_exempt_zero and oj == 0):
        amount *= 2
    return amount


def payments(winner: list[int], opponents: list[list[int]], rules: GoStopRules, go_count: int = 0,
             shaken: int = 0, bombs: int = 0, nagari: int = 0,
             opponent_gos: list[int] | None = None) -> dict:
    """What each opponent pays the winner (rules section 9), with the multipliers that applied."""
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
    wst = pile_stats(winner, rules)
    osts = [pile_stats(cards, rules) for cards in opponents]
    dbl = shaken + (bombs if rules.bomb_bonus == "korean" else 0)
    nf = nagari_factor(nagari, rules)
    readings = 2 if rules.sake_cup == "flex" and wst[T_SAKE] else 1
    totals = [sum(pay_one(wst, o, rules, rd, go_count, dbl, nf) for o in osts)
              for rd in range(readings)]
    reading = max(range(readings), key=lambda rd: (totals[rd], -rd))  # first best, as settle
    payer = None
    if rules.go_bak:
        gos = [i for i, g in enumerate(opponent_gos) if g > 0]
        payer = gos[0] if gos else None
    na, wj = _reading(wst, reading)
    s = score_reading(wst, rules, reading)
    gp = min(go_count, 2) if rules.go_multiplier == "cap2" and go_count > 2 else go_count
    common = []
    if dbl:
        common.append(f"shaken/bomb x{2 ** dbl}")
    gf = go_factor(go_count, GO_MODES[rules.go_multiplier])
    if gf > 1:
        common.append(f"go x{gf}")
    if na >= 7:
        common.append("meong-bak x2")
    if nf > 1:
        common.append(f"nagari x{nf}")
    rows = []
    pays = [0] * len(opponents)
    for i, ost in enumerate(osts):
        amount = pay_one(wst, ost, rules, reading, go_count, dbl, nf)
        pays[i if payer is None else payer] += amount
        mult = list(common)
        if wst[T_B] >= 3 and ost[T_B] == 0:
            mult.append("gwang-bak x2")
        oj = _loser_junk(ost, rules)
        if wj >= 10 and oj <= rules.pibak_threshold and not (rules.pibak_exempt_zero and oj == 0):
            mult.append("pi-bak x2")
        rows.append({"opponent": i + 1, "amount": amount, "pays": 0, "multipliers": mult,
                     "junk_value": oj, "brights": ost[T_B]})
    for row, paid in zip(rows, pays):
        row["pays"] = paid
    if payer is not None:
        for row in rows:
            row["note"] = ("go-bak: pays for every loser" if row["opponent"] == payer + 1
                           else "go-bak: another loser pays")
    return {"base": s, "go_points": gp, "payments": rows, "total": sum(pays),
            "reading": reading}
