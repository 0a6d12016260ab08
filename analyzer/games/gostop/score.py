"""Go-Stop scoring (exact): points of a capture pile line by line and what each opponent pays.

Scoring and payment are computed by the same functions the deal engine uses
(``kernels.gostop.score``); this module adds the line-by-line breakdown and the description of
the multipliers that applied. No pandas, no matplotlib: `gostop score` imports only this.
"""
from __future__ import annotations

import numpy as np

from analyzer.errors import UserError
from analyzer.games.gostop.rules import GO_MODES, GoStopRules, rules_vector



def state_array(rules: GoStopRules, players: int | None = None) -> np.ndarray:
    """An empty kernel state array carrying the rules vector (``kernels.gostop.state.new_state``).
    """
    from kernels.gostop.score import MAXP, NPOL, R_NP
    from kernels.gostop.state import new_state

    rv = rules_vector(rules)
    if players is not None:
        rv[R_NP] = players
    return new_state(rv, np.zeros((MAXP, NPOL), np.int64))


def pile_stats(cards: list[int], rules: GoStopRules) -> np.ndarray:
    """The ten pile counters of ``kernels.gostop.score`` for a list of cards."""
    from kernels.gostop.score import NSTAT, PSB, stats_add

    S = state_array(rules)
    for c in cards:
        stats_add(S, 0, np.int64(c), np.int64(1))
    return S[PSB:PSB + NSTAT].copy()


def breakdown(st: np.ndarray, rules: GoStopRules, as_junk: bool = False) -> list[dict]:
    """The scoring lines of rules section 7 (only lines that score), one reading of 09A."""
    from kernels.gostop import score as K

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


def score_cards(cards: list[int], rules: GoStopRules, reading: int | None = None) -> dict:
    """Points of a capture pile, its lines and counts under one reading of 09A.

    ``reading`` 0 reads the sake cup as an animal, 1 as a double junk (only under flex); None
    takes the reading with more points (the go/stop check). `gostop score` with opponents passes
    the reading the payment used (``payments(...)["reading"]``), which can differ: meong-bak
    may make the animal reading pay more although it scores fewer points.
    """
    from kernels.gostop import score as K

    st = pile_stats(cards, rules)
    S = state_array(rules)
    S[K.PSB:K.PSB + K.NSTAT] = st
    flex = rules.sake_cup == "flex" and bool(st[K.T_SAKE])
    if reading is None or not flex:
        s0 = int(K.score_reading(S, 0, 0))
        reading = 0
        if flex and int(K.score_reading(S, 0, 1)) > s0:
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
    from kernels.gostop import score as K

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
    from kernels.gostop.state import views

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
    return {"base": s, "go_points": gp, "payments": rows, "total": int(out[0]),
            "reading": reading}
