"""Railroad Canasta decisions from a stated position: `pushluck canasta decide`.

What belongs here: reading and checking a position file (every player's melds, hands or hand
sizes, kitties, the pile and the stock) into the kernel's position arrays, and the paired
comparison of the two options (take the pile or draw two; go out now or play on) on common
random numbers. The unseen cards are dealt at random for every playout (determinization).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from analyzer.errors import UserError
from analyzer.games.canasta.play import make_job
from analyzer.games.canasta.rules import (JOKER, PER_SHARE, RED3, TWO, TYPE_NAMES, CanastaRules,
                                          check_supply, parse_cards, requirement)
from analyzer.games.canasta.score import classify_meld
from analyzer.stats import mean_from_sums, paired_difference

if TYPE_CHECKING:
    from analyzer.games.canasta.play import CanastaPolicy
    from analyzer.runner import RunSpec


def _player_block(d: dict, who: str, rules: CanastaRules, is_me: bool):
    from kernels.canasta import layout as K

    allowed = {"score", "hand", "hand_size", "melds", "red_threes", "kitty"}
    for k in d:
        if k not in allowed:
            raise UserError(f"unknown key '{k}' for {who} (known: {', '.join(sorted(allowed))})")
    un = np.zeros((K.NT, 3), np.int64)
    can = np.zeros(4, np.int64)
    mval = 0
    labels = []
    counts = np.zeros(K.NT, np.int64)
    for m in d.get("melds", []):
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
            if un[r].sum() > 0:
                raise UserError(f"{who}: two unfinished {meld.labels[0]} melds")
            un[r, 0] = meld.naturals
            un[r, 1] = sum(1 for c in meld.cards if c == JOKER)
            un[r, 2] = sum(1 for c in meld.cards if c == TWO)
    hand = np.zeros(K.NT, np.int64)
    if is_me:
        hp = parse_cards(d.get("hand", []))
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
    kitty = str(d.get("kitty", "unpicked")).strip().lower()
    if kitty not in ("picked", "unpicked"):
        raise UserError(f"{who}: 'kitty' must be \"picked\" or \"unpicked\"")
    score = d.get("score", 0)
    red = d.get("red_threes", 0)
    for key, v in (("score", score), ("red_threes", red)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise UserError(f"{who}: '{key}' must be an integer")
    clean = int(can[0] + can[2] + can[3])  # red, wild, sevens: the kitty comes with the first
    if kitty == "unpicked" and clean > 0:
        raise UserError(f"{who}: owns a red, wild or sevens canasta, so the kitty was already "
                        "picked up (kitty = \"picked\")")
    if kitty == "picked" and clean == 0:
        raise UserError(f"{who}: the kitty is picked up only after a red, wild or sevens "
                        "canasta (kitty = \"unpicked\")")
    melded = int(mval > 0 or can.sum() > 0)
    return dict(un=un, can=can, mval=mval, hand=hand, hsize=hsize, kon=int(kitty == "unpicked"),
                score=score, red=red, melded=melded, labels=labels, counts=counts)


def parse_position(data: dict, rules: CanastaRules) -> dict:
    """A decision position (see ``pushluck canasta decide --help``) → kernel arrays."""
    from kernels.canasta import layout as K

    for k in data:
        if k not in ("phase", "stock", "me", "opponents", "pile", "rules"):
            raise UserError(f"unknown key '{k}' in the position file")
    phase = str(data.get("phase", "draw")).strip().lower()
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
    blocks = [_player_block(data["me"], "me", rules, True)]
    blocks += [_player_block(o, f"opponent {i + 1}", rules, False) for i, o in enumerate(opps)]
    pile_d = data.get("pile", {})
    pp = parse_cards(pile_d.get("cards", []))
    frozen = pile_d.get("frozen", False)
    if not isinstance(frozen, bool):
        raise UserError("pile: 'frozen' must be true or false")
    stock = data.get("stock")
    if isinstance(stock, bool) or not isinstance(stock, int) or stock < 0:
        raise UserError("'stock' must be the number of cards left in the stock (>= 0)")
    if phase == "draw" and stock == 0:
        raise UserError("the stock is empty: drawing is impossible (taking the pile or ending "
                        "the round is the only choice)")
    labels = [lab for b in blocks for lab in b["labels"]] + [lab for _, lab in pp]
    check_supply(labels, P)
    deck = np.array(PER_SHARE, np.int64) * P
    known = np.zeros(K.NT, np.int64)
    for b in blocks:
        known += b["counts"] + b["hand"]
        known[RED3] += b["red"]
    for c, _ in pp:
        known[c] += 1
    unseen = deck - known
    for c in range(K.NT):
        if unseen[c] < 0:
            raise UserError(f"the position shows more cards of type {TYPE_NAMES[c]} than "
                            f"{P} players' decks hold ({int(deck[c])})")
    nkit = sum(b["kon"] for b in blocks)
    need = sum(b["hsize"] for b in blocks[1:]) + nkit * rules.kitty_size + stock
    if int(unseen.sum()) != need:
        raise UserError(f"the position does not add up: {int(unseen.sum())} unseen cards, but "
                        f"opponents' hands + face-down kitties + stock = {need}")
    pos_hand = np.zeros((P, K.NT), np.int64)
    pos_un = np.zeros((P, K.NT, 3), np.int64)
    pos_can = np.zeros((P, 4), np.int64)
    pos_pl = np.zeros((P, K.NPL), np.int64)
    kon = np.zeros(P, np.int64)
    sizes = np.zeros(P, np.int64)
    for i, b in enumerate(blocks):
        if i == 0:
            pos_hand[0] = b["hand"]
        pos_un[i] = b["un"]
        pos_can[i] = b["can"]
        kon[i] = b["kon"]
        sizes[i] = b["hsize"]
        pos_pl[i, K.C_KON] = b["kon"]
        pos_pl[i, K.C_MVAL] = b["mval"]
        pos_pl[i, K.C_R3] = b["red"]
        pos_pl[i, K.C_MELDED] = b["melded"]
        pos_pl[i, K.C_REQ] = requirement(b["score"], rules)
        pos_pl[i, K.C_KTURN] = -1
        pos_pl[i, K.C_FIRSTMELD] = b["melded"]
        pos_pl[i, K.C_CUM] = b["score"]
    pile0 = np.zeros(K.NT, np.int64)
    for c, _ in pp:
        pile0[c] += 1
    g0 = np.zeros(K.NG, np.int64)
    g0[K.G_PN] = len(pp)
    g0[K.G_TOP] = pp[-1][0] if pp else -1
    g0[K.G_FROZEN] = int(frozen)
    if phase == "meld" and blocks[0]["hsize"] < 2:
        raise UserError("me: after drawing, the hand has at least 2 cards")
    return {"arrays": (pos_hand, kon, pos_un, pos_can, pos_pl, pile0, g0, unseen, sizes),
            "stock": stock, "skip_draw": phase == "meld", "kind": 0 if phase == "draw" else 1,
            "phase": phase, "players": P, "top": pp[-1][1] if pp else None,
            "unseen": int(unseen.sum())}


def decide(data: dict, rules: CanastaRules, policies: list[CanastaPolicy], spec: RunSpec,
           objective: str = "own") -> dict:
    """Both options on common random numbers. ``objective`` "own": your round score; "lead":
    your round score minus the best opponent's (what matters in the race to the target)."""
    if objective not in ("own", "lead"):
        raise UserError(f"--objective must be own or lead (got '{objective}')")
    pos = parse_position(data, rules)  # checked before any kernel is imported
    from analyzer.runner import half_width_of_mean
    from kernels.canasta import MODE_DECIDE

    job = make_job(MODE_DECIDE, rules, policies, position=pos, name="canasta decide",
                   unit="playouts", headline=half_width_of_mean(5, 6))
    res = spec.run(job)
    s, m = res.sums, res.n
    if s[7] > 0:
        what = ("taking the pile" if pos["kind"] == 0 else "going out")
        raise UserError(f"{what} is not allowed in this position")
    labels = (("take the pile", "draw two") if pos["kind"] == 0 else ("go out now", "play on"))
    a = mean_from_sums(float(s[1]), float(s[2]), m)
    b = mean_from_sums(float(s[3]), float(s[4]), m)
    d = paired_difference(float(s[5]), float(s[6]), m)
    rel = paired_difference(float(s[10]), float(s[11]), m)
    def verdict(st):
        if st.contains_zero():
            return f"too close to call at n = {m:,}"
        return labels[0] if st.estimate > 0 else labels[1]

    by_own, by_lead = verdict(d), verdict(rel)
    main = d if objective == "own" else rel
    return {"game": "canasta", "exact": False, "seed": spec.seed, "n": m, "phase": pos["phase"],
            "question": f"{labels[0]} vs {labels[1]}", "options": list(labels),
            "policies": [p.label for p in policies], "objective": objective,
            "round_score_a": a, "round_score_b": b, "difference_a_minus_b": d,
            "lead_over_best_opponent_difference": rel,
            "recommendation": by_own if objective == "own" else by_lead,
            "recommendation_by_own_score": by_own, "recommendation_by_lead": by_lead,
            "margin": main.estimate,
            "unseen_cards": pos["unseen"], "stopped_by": res.stopped_by,
            "playouts_per_second": res.per_second}
