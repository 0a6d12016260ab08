"""Railroad Canasta: kernel jobs and result dicts for meld-odds, simulate and decide.

All Monte Carlo work goes through one parallel kernel, ``kernels.canasta_sim.mc_blocks``, in
four modes (whole games, independent rounds, meld odds, decisions), so the engine compiles once.

Round-level figures from whole games (round length, going-out rate, canastas per round, ...)
are ratio estimates Σ_g X_g / Σ_g R_g over games g with R_g rounds; rounds of one game are not
independent, so their standard error uses the games as clusters (delta method):
``se = sqrt(Σ_g (X_g − r·R_g)² / (n (n − 1))) / R̄``.
"""
from __future__ import annotations

import math

import numpy as np

from analyzer.errors import UserError
from analyzer.games.canasta import (JOKER, PER_SHARE, RED3, TWO, CanastaPolicy, CanastaRules,
                                    classify_meld, parse_cards, requirement)
from analyzer.stats import Statistic, Z95, mean_from_sums, paired_difference, wilson

BLOCK = 64  # trials per block (games or rounds are long: small blocks keep batches balanced)
ROUND_STATS = ("turns", "went_out", "sevens_lock", "stock_exhausted", "red_canastas",
               "black_canastas", "wild_canastas", "sevens_canastas", "kitty_pickups",
               "kitty_turn_sum", "points_per_player")


def rules_arrays(rules: CanastaRules):
    from kernels import canasta as K

    rp = np.zeros(K.NRULES, dtype=np.int64)
    rp[K.R_NP] = rules.players
    rp[K.R_HAND] = rules.hand_size
    rp[K.R_KITTY] = rules.kitty_size
    rp[K.R_GOBONUS] = rules.going_out_bonus
    rp[K.R_R3BONUS] = rules.red_three_bonus
    rp[K.R_BRED] = rules.bonus_red
    rp[K.R_BBLACK] = rules.bonus_black
    rp[K.R_BWILD] = rules.bonus_wild
    rp[K.R_BSEV] = rules.bonus_sevens
    rp[K.R_MAXW] = 3
    rp[K.R_R3REPL] = int(rules.red3_replace)
    rp[K.R_WILDUP] = int(rules.wild_upcard_freezes)
    rp[K.R_W7] = int(rules.wilds_in_sevens)
    rp[K.R_TARGET] = rules.target
    rp[K.R_LOCKREQ] = int(rules.lock_meld_needs_requirement)
    rp[K.R_MAXROUNDS] = rules.max_rounds
    thr = np.array(rules.requirement_thresholds, dtype=np.int64)
    reqv = np.array(rules.requirement_values, dtype=np.int64)
    return rp, thr, reqv


def policy_array(policies: list[CanastaPolicy]) -> np.ndarray:
    return np.array([p.row() for p in policies], dtype=np.int64)


def _dummy_position(P: int):
    from kernels import canasta as K

    return (np.zeros((P, K.NT), np.int64), np.zeros(P, np.int64),
            np.zeros((P, K.NT, 3), np.int64), np.zeros((P, 4), np.int64),
            np.zeros((P, K.NPL), np.int64), np.zeros(K.NT, np.int64), np.zeros(K.NG, np.int64),
            np.zeros(K.NT, np.int64), np.zeros(P, np.int64))


def make_job(mode: int, rules: CanastaRules, policies: list[CanastaPolicy], score: int = 0,
             turns: int = 0, position=None, name: str = "canasta", unit: str = "trials",
             headline=None):
    """A runner job over ``mc_blocks`` in the given mode."""
    from analyzer.runner import KernelJob
    from kernels.canasta_sim import mc_blocks

    rp, thr, reqv = rules_arrays(rules)
    pol = policy_array(policies)
    if position is None:
        pos = _dummy_position(rules.players)
        stock_n, skip, kind = 0, False, 0
    else:
        pos = position["arrays"]
        stock_n, skip, kind = position["stock"], position["skip_draw"], position["kind"]

    def run_blocks(keys, counts):
        return mc_blocks(keys, counts, mode, rp, pol, thr, reqv, score, turns, *pos,
                         stock_n, skip, kind)

    return KernelJob(name, BLOCK, run_blocks, headline, unit=unit)


def _violations(sums: np.ndarray) -> dict:
    from kernels.canasta import NV

    v = sums[-NV:]
    return {"illegal_melds": int(v[0]), "sevens_discarded_early": int(v[1]),
            "bad_go_outs": int(v[2]), "emptied_hands": int(v[3])}


def ratio_stat(sx: float, sx2: float, sxy: float, sy: float, sy2: float, n: int) -> Statistic:
    """Ratio Σx/Σy over n clusters with the delta-method standard error (module doc)."""
    if sy <= 0 or n < 2:
        return Statistic(float("nan"), float("nan"), float("nan"), float("nan"), n)
    r = sx / sy
    ss = max(sx2 - 2 * r * sxy + r * r * sy2, 0.0)
    se = math.sqrt(ss / (n * (n - 1))) / (sy / n)
    return Statistic(r, se, r - Z95 * se, r + Z95 * se, n)


# --------------------------------------------------------------------------- meld odds
def exact_on_deal(score: int, rules: CanastaRules) -> float | None:
    """P(a dealt hand can meet the requirement at once), exact (None under red3_replace, or
    for hands above 15 cards, where the enumeration would take more than a few seconds)."""
    if rules.red3_replace or rules.hand_size > 15:
        return None
    from kernels.canasta_exact import exact_deal_probability

    return float(exact_deal_probability(rules.players, rules.hand_size,
                                        requirement(score, rules), 3, rules.wilds_in_sevens))


def meld_odds(score: int, turns: int, rules: CanastaRules, policy: CanastaPolicy, n: int,
              seed: int, progress=None, exact: bool = True) -> dict:
    from analyzer.runner import half_width_of_proportion, run
    from kernels.canasta_sim import MODE_MELD

    if turns < 0 or turns > 200:
        raise UserError(f"--turns must be between 0 and 200 (got {turns})")
    job = make_job(MODE_MELD, rules, [policy] * rules.players, score=score, turns=turns,
                   name="canasta meld-odds", unit="deals", headline=half_width_of_proportion(1))
    res = run(job, n, seed, progress=progress)
    s = res.sums
    ex = exact_on_deal(score, rules) if exact else None
    on_deal = wilson(float(s[1]), res.n)
    if ex is not None:
        on_deal = on_deal.with_exact(ex)
    by_turn = [{"turn": k, "p_melded": wilson(float(s[1 + k]), res.n)}
               for k in range(1, turns + 1)]
    return {"game": "canasta", "seed": seed, "n": res.n, "score": score,
            "requirement": requirement(score, rules), "players": rules.players,
            "policy": policy.label, "turns": turns,
            "p_requirement_on_deal": on_deal, "p_exact_on_deal": ex,
            "by_turn": by_turn, "violations": _violations(s),
            "deals_per_second": res.per_second}


# --------------------------------------------------------------------------- simulate
def simulate(games: int, rules: CanastaRules, policies: list[CanastaPolicy], seed: int,
             progress=None, time_limit=None) -> dict:
    """Whole games to the target with the rotating dealer (module doc for the estimators)."""
    from analyzer.runner import half_width_of_mean, run
    from kernels.canasta_sim import MODE_GAMES, NROUNDSTAT

    P = rules.players
    job = make_job(MODE_GAMES, rules, policies, name="canasta simulate", unit="games",
                   headline=half_width_of_mean(1, 2))
    res = run(job, games, seed, progress=progress, time_limit=time_limit)
    s, n = res.sums, res.n
    base = 4 + P
    R, R2 = float(s[1]), float(s[2])

    def col(k, j):
        return float(s[base + 3 * k + j])

    per_round = {}
    for k, name in enumerate(ROUND_STATS):
        if name == "kitty_turn_sum":
            continue
        per_round[name] = ratio_stat(col(k, 0), col(k, 1), col(k, 2), R, R2, n)
    per_round["kitty_pickup_turn"] = ratio_stat(
        col(9, 0), col(9, 1), float(s[base + 3 * NROUNDSTAT]), col(8, 0), col(8, 1), n)
    seats = [{"seat": i, "policy": policies[i].label, "p_win": wilson(float(s[4 + i]), n)}
             for i in range(P)]
    return {"game": "canasta", "seed": seed, "n": n, "players": P,
            "policies": [p.label for p in policies],
            "policy_descriptions": [p.describe() for p in policies],
            "rounds_per_game": mean_from_sums(R, R2, n),
            "games_capped": int(s[3]), "per_round": per_round, "seats": seats,
            "p_first_mover_wins": wilson(float(s[base + 3 * NROUNDSTAT + 1]), n),
            "rounds": int(R), "violations": _violations(s),
            "games_per_second": res.per_second, "stopped_by": res.stopped_by}


def simulate_rounds(n: int, rules: CanastaRules, policies: list[CanastaPolicy], seed: int,
                    progress=None) -> dict:
    """Independent rounds from 0 points with seat 0 moving first (iid: plain means)."""
    from analyzer.runner import run
    from kernels.canasta_sim import MODE_ROUNDS, NROUNDSTAT

    job = make_job(MODE_ROUNDS, rules, policies, name="canasta rounds", unit="rounds")
    res = run(job, n, seed, progress=progress)
    s = res.sums
    out = {}
    for k, name in enumerate(ROUND_STATS):
        if name in ("went_out", "sevens_lock", "stock_exhausted"):
            out[name] = wilson(float(s[1 + 2 * k]), res.n)
        elif name != "kitty_turn_sum":
            out[name] = mean_from_sums(float(s[1 + 2 * k]), float(s[2 + 2 * k]), res.n)
    out["seat0_score"] = mean_from_sums(float(s[1 + 2 * NROUNDSTAT]),
                                        float(s[2 + 2 * NROUNDSTAT]), res.n)
    return {"game": "canasta", "seed": seed, "n": res.n, "per_round": out,
            "violations": _violations(s), "rounds_per_second": res.per_second}


# --------------------------------------------------------------------------- decide
def _player_block(d: dict, who: str, rules: CanastaRules, is_me: bool):
    from kernels import canasta as K

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
    from kernels import canasta as K

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
    from analyzer.games.canasta import check_supply

    check_supply(labels, P)
    deck = np.array(PER_SHARE, np.int64) * P
    known = np.zeros(K.NT, np.int64)
    for b in blocks:
        known += b["counts"] + b["hand"]
        known[RED3] += b["red"]
    for c, _ in pp:
        known[c] += 1
    unseen = deck - known
    from analyzer.games.canasta import TYPE_NAMES

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


def decide(data: dict, rules: CanastaRules, policies: list[CanastaPolicy], n: int | None,
           seed: int, precision=None, time_limit=None, progress=None,
           objective: str = "own") -> dict:
    """Both options on common random numbers. ``objective`` "own": your round score; "lead":
    your round score minus the best opponent's (what matters in the race to the target)."""
    if objective not in ("own", "lead"):
        raise UserError(f"--objective must be own or lead (got '{objective}')")
    from analyzer.runner import half_width_of_mean, run
    from kernels.canasta_sim import MODE_DECIDE

    pos = parse_position(data, rules)
    job = make_job(MODE_DECIDE, rules, policies, position=pos, name="canasta decide",
                   unit="playouts", headline=half_width_of_mean(5, 6))
    res = run(job, n, seed, precision=precision, time_limit=time_limit, progress=progress)
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
    return {"game": "canasta", "seed": seed, "n": m, "phase": pos["phase"],
            "question": f"{labels[0]} vs {labels[1]}", "options": list(labels),
            "policies": [p.label for p in policies], "objective": objective,
            "round_score_a": a, "round_score_b": b, "difference_a_minus_b": d,
            "lead_over_best_opponent_difference": rel,
            "recommendation": by_own if objective == "own" else by_lead,
            "recommendation_by_own_score": by_own, "recommendation_by_lead": by_lead,
            "margin": main.estimate,
            "unseen_cards": pos["unseen"], "stopped_by": res.stopped_by,
            "playouts_per_second": res.per_second}


def chart_figure(out: dict):
    """Canasta types per round and how rounds end, with 95% error bars (a `simulate` result)."""
    from analyzer.charts import new_figure

    pr = out["per_round"]
    fig, ax = new_figure(10.0, 4.5)
    fig.delaxes(ax)
    ax1 = fig.add_subplot(1, 2, 1)
    ax2 = fig.add_subplot(1, 2, 2)
    for a in (ax1, ax2):
        a.grid(True, alpha=0.3)
    names = ["red", "black", "wild", "sevens"]
    vals = [pr[f"{k}_canastas"].estimate for k in names]
    errs = [1.96 * pr[f"{k}_canastas"].se for k in names]
    ax1.bar(names, vals, yerr=errs, color=["#c0392b", "#2c3e50", "#8e44ad", "#d4ac0d"])
    ax1.set_ylabel("canastas per round (all players)")
    ax1.set_title("Canasta types")
    ends = ["went_out", "sevens_lock", "stock_exhausted"]
    ax2.bar(["went out", "sevens lock", "stock out"], [pr[k].estimate for k in ends],
            yerr=[1.96 * pr[k].se for k in ends], color="#16a085")
    ax2.set_ylabel("share of rounds")
    ax2.set_title("How rounds end")
    fig.suptitle(f"Railroad Canasta, {out['players']} players, {', '.join(out['policies'])}, "
                 f"n = {out['n']:,} games, seed {out['seed']}")
    return fig


def save_chart(out: dict, base):
    """Write the :func:`chart_figure` of ``out`` to BASE.png and BASE.svg."""
    from analyzer.charts import save_figure

    return save_figure(chart_figure(out), base)
