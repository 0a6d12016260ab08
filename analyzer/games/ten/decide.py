"""`ten game` and `ten decide` as functions: whole games between line-ups, and the chance of
winning for each choice at a real position.

``play_games``: every line-up plays the same shuffled decks (common random numbers, one trial =
one game per line-up); per line-up the win rate, score and end-of-game tokens and cards of every
seat, and the game's length, busts, auctions and prices, buys and market size, each a statistic;
with more than one line-up the paired differences (line-up A − line-up X) per seat.

``decide``: each playout puts the unseen cards (everything not listed in the position) into the
draw pile in a uniformly random order (the belief, :data:`BELIEF`: exact in Ten, where the pile's
order is the only hidden thing); each choice of the deciding seat (``choices_of``) is played out
on the same pile and stream by the position's bots, and the answer is the chance that seat
``me`` wins (:data:`UNIT`).

Intervals. A choice's chance of winning is a mean of win shares in [0, 1]; its 95% interval is
the Wilson score interval at that mean (it uses the variance bound μ(1 − μ) of a [0, 1] variable
with mean μ, so it is valid, and conservative, for shares that are not 0 or 1; exactly 0 at the
bottom when every share is 0, exactly 1 at the top when every share is 1); its SE is
sqrt(p(1 − p)/n). Paired differences (in [−1, 1]) use the normal interval of a mean, from the
sums of w_i and w_i·w_j that the kernel keeps for every pair of choices.

Picking the best of K choices (``select_best``). The best choice b is the one with the highest
estimate; it is recommended only when b − j > z·SE(b − j) for every other choice j, with
z = ``bonferroni_z(K − 1)`` (two-sided 95% over the K − 1 comparisons: z = 1.960 for K = 2,
2.241 for K = 3, 2.807 for K = 11). The chance of naming a choice that is not the best is then
at most 5%: if the truly best choice is t ≠ b, naming b needs b − t to exceed its true value
(≤ 0) by more than z·SE, one of K − 1 events (one per possible b) each of chance ≤ 2.5%/(K − 1)
under the normal approximation, and Bonferroni bounds their union. The intervals b − j printed
beside it use the same z.
"""
from __future__ import annotations

import numpy as np

from analyzer.errors import UserError

CHOICES = ("draw", "numbers", "currency")
UNIT = "chance of winning (a shared win counts as a share)"
INTERVAL = ("Wilson score interval for P(win) (valid for a mean of win shares in [0, 1]: "
            "exactly 0 and 1 at the edges); changes: normal interval of the paired difference; "
            "the best choice against each other one: simultaneous (Bonferroni over the "
            "comparisons)")
BELIEF = {"name": "uniform shuffle",
          "description": "the unseen cards (every card the position does not list) are the draw "
                         "pile in a uniformly random order",
          "exact": True,
          "why": "in Ten the draw pile is the only hidden thing: it was shuffled, every card "
                 "drawn from it is shown (tableau, auctions, collections, market, discards), "
                 "and what the players did depended only on those cards; so, given everything "
                 "seen, every order of the rest of the pile is equally likely"}
#: playouts per choice of `ten decide` when a seat plays the search bot (its budget is spent on
#: every one of its decisions in every playout, about 0.1–1 s of CPU per playout)
SEARCH_PLAYOUTS = 200
SEARCH_BLOCK = 1  # playouts per block with a search seat (a Ctrl-C is honoured within one)


def play_games(setup, spec) -> dict:
    from analyzer.games.ten.whole import lineup_stats, paired_stats
    from analyzer.rules import rules_to_dict

    res = spec.run(setup.job())
    K = len(setup.lineups)
    letters = "ABCDEFGHIJ"
    out = {"game": "ten", "exact": False, "seed": spec.seed, "n": res.n,
           "players": setup.players, "rules": rules_to_dict(setup.rules), "lineups": []}
    for k in range(K):
        out["lineups"].append({"name": letters[k], "bots": [b.label for b in setup.lineups[k]],
                               **lineup_stats(res.sums, k, K, setup.players)})
    out["differences"] = [{"of": f"A − {letters[k]}",
                           "seats": paired_stats(res.sums, k, K, setup.players)}
                          for k in range(1, K)]
    out["games_per_second"] = res.per_second * K
    if setup.searching:
        out["search"] = search_effort(res.sums)
    out["stopped_by"] = res.stopped_by
    out["interrupted"] = res.interrupted
    return out


def search_effort(sums) -> dict:
    """The search seats' work over every game (search_game.EXTRA columns): decisions with more
    than one candidate move, their CPU milliseconds and playouts each (measured totals divided
    by the count; the CPU time includes the few decisions with one move, which cost no
    playout)."""
    from kernels.ten.search_game import EXTRA

    decisions, ns, playouts = (float(x) for x in sums[-len(EXTRA):])
    per = max(decisions, 1.0)
    return {"searched_decisions": int(decisions), "cpu_ms_per_decision": ns / 1e6 / per,
            "playouts_per_decision": playouts / per}


def _turn_level(pos, rules, spec_deck) -> dict | None:
    """The one-turn exact answer (`ten best`) for the position's tableau and seen cards: the
    active seat's turn, valued with the active seat's tokens."""
    from analyzer.games.ten.cards import codes_of
    from analyzer.games.ten.best import best
    from analyzer.games.ten.exact import Model
    from analyzer.games.ten.rules import ValueModel, turn_state
    from kernels.ten import whole_layout as L

    st = pos.state
    seen = []
    for r in list(range(pos.players)) + [L.ROW_MARKET, L.ROW_OUT]:
        seen += codes_of(st.cards[r])
    ts = turn_state(rules, spec_deck, ",".join(pos.tableau) or None, ",".join(seen) or None,
                    pos.players)
    if ts.cards_left == 0:
        return None
    tokens = int(st.tk[pos.active])
    return {**best(Model(ts, rules, ValueModel(), pos.players, tokens)), "seat": pos.active + 1}


def pair_difference(sums, K: int, i: int, j: int, n: int, z: float):
    """w_i − w_j over the playouts (mean, SE, interval at ``z``) from position_blocks' sums."""
    from analyzer.stats import mean_from_sums
    from kernels.ten.whole_blocks import cross_column as cc

    sd = sums[i] - sums[j]
    sd2 = sums[cc(K, i, i)] - 2.0 * sums[cc(K, i, j)] + sums[cc(K, j, j)]
    return mean_from_sums(sd, max(sd2, 0.0), n, z)


def selection_z(K: int) -> float:
    """The z of the best-of-K comparisons (module doc): Bonferroni over K − 1 two-sided."""
    from analyzer.stats import bonferroni_z

    return bonferroni_z(max(K - 1, 1))


def select_best(sums, K: int, n: int, names: list[str]) -> dict:
    """The best choice and its simultaneous comparisons with every other (module doc)."""
    z = selection_z(K)
    b = max(range(K), key=lambda k: sums[k])
    vs = {names[j]: pair_difference(sums, K, b, j, n, z) for j in range(K) if j != b}
    close = [c for c, d in vs.items() if d.ci_low <= 0.0]
    return {"best": names[b], "z": z, "level": 0.95, "comparisons": K - 1,
            "method": "the best estimate against each other choice, Bonferroni over the "
                      f"{K - 1} comparison{'s' if K > 2 else ''}",
            "vs": vs, "separated": not close, "too_close": close}


def decide(pos, rules, spec_deck, bots, spec) -> dict:
    from analyzer.games.ten.whole import exact_tables, score_tables
    from analyzer.runner import KernelJob
    from analyzer.stats import wilson
    from analyzer.words import sampled_verdict
    from analyzer.games.ten.bots import bot_rows

    searching = any(b.name == "search" for b in bots)
    if searching:  # every playout plays the search seats' decisions (search_game.py)
        from kernels.ten.search_game import search_position_blocks as position_blocks
    else:
        from kernels.ten.whole_blocks import position_blocks

    choices, code_list, same = choices_of(pos, rules)
    codes = np.array(code_list, dtype=np.int64)

    idx, dec, nchild, cchild = exact_tables(rules, spec_deck, pos.players, bots)
    rows = bot_rows(bots, idx, search=searching)
    determined = final_round_rows(rows, pos) if pos.phase == "final" else False
    st = pos.state
    K = len(choices)
    args = (st.pile, 1, st.cards, st.tk, pos.active, pos.me, codes, st.deck, pos.players,
            rules.kernel_array(pos.players), rows, score_tables(rules.full_run_points), dec,
            nchild, cchild)

    def run_blocks(keys, counts):
        return position_blocks(keys, counts, *args)

    def headline(sums, n):  # the widest best-vs-other interval (or the P(win) alone)
        if n < 2:
            return float("inf")
        if K == 1:
            return wilson(sums[0], n).half_width
        b = max(range(K), key=lambda k: sums[k])
        z = selection_z(K)
        return max(pair_difference(sums, K, b, j, n, z).half_width for j in range(K) if j != b)

    if hasattr(position_blocks, "ahead"):  # a cold engine compiles meanwhile (engine_arg.py)
        position_blocks.ahead(np.zeros((1, 4), dtype=np.uint64), np.zeros(1, dtype=np.int64),
                              *args)
    turn_level = _turn_level(pos, rules, spec_deck) if pos.phase == "draw" else None
    block = SEARCH_BLOCK if searching else 64
    res = spec.run(KernelJob("ten decide", block, run_blocks, headline, unit="playouts"))
    n = res.n
    s = res.sums
    exact = determined and all_alike(s, K, n)
    wins = {c: (exact_share(s[k] / n, n) if exact else wilson(s[k], n))
            for k, c in enumerate(choices)}
    diffs = {f"{choices[0]} − {choices[k]}": pair_difference(s, K, 0, k, n, 1.959963984540054)
             for k in range(1, K)}
    sel = None
    if K == 1:
        rec = choices[0]
        why = ("the first draw of a turn is mandatory" if pos.phase == "draw"
               else "the only choice")
    else:
        sel = select_best(s, K, n, choices)
        top = sel["best"]
        runner = min(sel["vs"], key=lambda c: sel["vs"][c].estimate)
        d = sel["vs"][runner]
        if sel["separated"]:
            rec = top
        else:
            rec = f"too close to call at n = {n:,}"
        why = (f"best of {K}: {top} − {runner} = {d.format(4)}, simultaneous 95% with "
               f"z = {sel['z']:.3f}")
        if not sel["separated"]:
            why += f"; not separated from {top}: {', '.join(sel['too_close'])}"
        said = sampled_verdict(top, d, f"chance of winning over {runner}", n) + (
            f" (best of {K}, simultaneous 95% intervals, z = {sel['z']:.3f}" + (
                f"; not separated from {top}: {', '.join(sel['too_close'])})"
                if not sel["separated"] else ")"))
    if K == 1:
        said = f"{rec} ({why})"
    if exact:
        rec, why = exact_pick(wins)
        said = f"{rec} ({why})"
    return {"game": "ten", "exact": exact, "seed": spec.seed, "n": n, "players": pos.players,
            "unit": UNIT, "interval": INTERVAL, "belief": BELIEF,
            "active": pos.active + 1, "me": pos.me + 1, "deciding": pos.deciding + 1,
            "seats": [{"seat": q + 1, "bot": b.label, "me": q == pos.me,
                       "deciding": q == pos.deciding} for q, b in enumerate(bots)],
            "bots": [b.label for b in bots],
            "cards_unseen": int(len(st.pile)), "phase": pos.phase, "wild": pos.wild,
            "auction": pos.auction.to_json() if pos.auction is not None else None,
            "same_as": same, "p_win": wins, "differences": diffs, "selection": sel,
            "recommendation": rec, "margin": why, "verdict": said,
            "turn_level": turn_level,
            "playouts_per_second": res.per_second * K, "seconds": res.kernel_seconds,
            "stopped_by": res.stopped_by, "interrupted": res.interrupted}


def final_round_rows(rows, pos) -> bool:
    """Bot rows for a position in the final buy round (phase "final"). After the active seat's
    choice the engine (whole_engine.play_game, search_game) gives a buy phase to every seat
    from the one after it round to the active seat; the seats that have bought already and the
    active seat itself buy nothing more, so their rows are set to never buy (a search seat: no
    searched buy either). Returns whether the round is then determined by the choice: every
    later buyer buys by its rule (``buy=value`` or ``never``; not at random, not by search),
    and with the pile empty nothing else is left to chance."""
    from kernels.ten import whole_layout as L
    from kernels.ten.search_root import D_SEARCH, S_BUYS

    determined = True
    for q in range(pos.players):
        search = rows[q, L.B_DRAW] == D_SEARCH
        if q in pos.buyers:
            if rows[q, L.B_BUY] == L.A_RANDOM or search and rows[q, S_BUYS] > 0:
                determined = False
            continue
        rows[q, L.B_BUY] = L.A_NEVER
        if search:
            rows[q, S_BUYS] = 0
    return determined


def all_alike(sums, K: int, n: int) -> bool:
    """Did every playout of every choice give the same win share (Σw² = (Σw)²/n)? Checked, not
    assumed, before a determined final round is called exact."""
    from kernels.ten.whole_blocks import cross_column as cc

    return n >= 1 and all(abs(sums[cc(K, k, k)] - sums[k] * sums[k] / n) <= 1e-9 * n
                          for k in range(K))


def exact_share(p: float, n: int):
    """A chance of winning known exactly: SE 0, the interval the point itself."""
    from analyzer.stats import Statistic

    return Statistic(p, 0.0, p, p, n, exact_value=p)


def exact_pick(wins: dict) -> tuple[str, str]:
    """The best of exactly known choices, with every choice as good named beside it."""
    best = max(wins, key=lambda c: wins[c].estimate)
    top = wins[best].estimate
    ties = [c for c in wins if c != best and abs(wins[c].estimate - top) <= 1e-12]
    rec = best + (f" (as good: {', '.join(ties)})" if ties else "")
    return rec, ("exact: the draw pile is empty and every seat still to buy buys by its rule, "
                 "so the choice decides the end of the game")


def payment(price: int, tokens: int, busts: int, cards: int, bust_value: int) -> tuple:
    """What paying ``price`` takes (the engine's rule, kernels/ten/whole_decisions.pay_price):
    bust tokens ⌊price / value⌋ while held, then currency tokens, then one more bust token if
    anything is left (the change is lost), then collection cards one by one (while any are
    left). Returns (currency tokens, bust tokens, cards) spent: two prices with the same answer
    leave the payer in the same state."""
    nb = min(price // bust_value, busts)
    rest = price - nb * bust_value
    t = min(rest, tokens)
    rest -= t
    if rest > 0 and busts > nb:
        nb += 1
        rest = 0
    return t, nb, min(rest, cards)


def bid_choices(pos, rules) -> tuple[list[int], dict]:
    """The distinct bids of the seat to bid (0 = pass first) and, per listed bid, the higher
    bids identical to it in effect.

    Legal bids beat the current bid; with ``bid_within_means`` they are at most what the bidder
    can pay (tokens + bust tokens × value + collection cards), without it up to
    ``MAX_BID_LEVELS`` − 1 above the current bid. A bid x surely wins when no later bidder can
    beat it: with ``bid_within_means`` when x is at least every later bidder's means (then no
    later bot bids at all, not even a random one, whatever x), and always when the bidder is
    the active seat (it bids last). Two bids that surely win and cost the same (``payment``)
    leave every later step of the game identical: only the lowest is listed."""
    from kernels.ten import whole_layout as L

    st = pos.state
    au = pos.auction
    bv = rules.bust_token_value

    def means(q):
        return int(st.tk[q] + bv * st.tk[5 + q] + st.cards[q].sum())

    q = au.to_bid
    if rules.bid_within_means:
        top = means(q)
        sure = max((means(r) for r in au.later), default=0)
    else:
        top = au.cur + MAX_BID_LEVELS - 1
        sure = 0 if not au.later else L.BIDS
    top = min(top, L.BIDS - 1)
    listed, same, seen = [0], {}, {}
    for x in range(au.cur + 1, top + 1):
        if x >= sure:
            key = payment(x, int(st.tk[q]), int(st.tk[5 + q]), int(st.cards[q].sum()), bv)
            if key in seen:
                same[seen[key]].append(x)
                continue
            seen[key] = x
            same[x] = []
        listed.append(x)
    return listed, {x: v for x, v in same.items() if v}


MAX_BID_LEVELS = 16  # without bid_within_means: pass and bids up to 15 above the current one


def choices_of(pos, rules) -> tuple[list[str], list[int], dict]:
    """The choices of the deciding seat, their kernel codes (whole_layout.py F_*) and, per
    listed choice, the choices identical to it in effect (not listed): draw / numbers /
    currency; in a buy phase or the final buy round "no buy" and "buy X" for every market card
    type the active seat does not own and can pay (tokens + bust tokens × their value + its cards); in an auction
    "pass" and "bid x" (exactly x) for the distinct bids of ``bid_choices``."""
    from analyzer.games.ten.cards import CODES, TYPE_OF
    from kernels.ten import whole_layout as L

    st = pos.state
    if pos.phase == "draw":
        names = list(CHOICES if pos.tableau else CHOICES[:1])
        return names, [{"draw": L.F_DRAW, "numbers": L.F_NUMBERS,
                        "currency": L.F_CURRENCY}[c] for c in names], {}
    if pos.phase == "auction" and not rules.auctions or \
            pos.phase in ("buy", "final") and not rules.buys:
        key = "auctions" if pos.phase == "auction" else "buys"
        raise UserError(f"the position is in phase \"{pos.phase}\" but the rules say "
                        f"{key} = false")
    if pos.phase in ("buy", "final"):
        q = pos.active
        means = int(st.tk[q] + rules.bust_token_value * st.tk[5 + q] + st.cards[q].sum())
        names, codes = ["no buy"], [L.F_BUYNONE]
        for t in range(36):
            if st.cards[L.ROW_MARKET, t] > 0 and st.cards[q, t] == 0 and t % 9 + 1 <= means:
                names.append(f"buy {CODES[t]}")
                codes.append(L.F_BUY0 + t)
        return names, codes, {}
    au = pos.auction
    w = TYPE_OF[pos.wild]
    bids, same = bid_choices(pos, rules)
    names = ["pass" if x == 0 else f"bid {x}" for x in bids]
    codes = [L.bid_code(w, au.to_bid, x, au.cur, au.high, au.first) for x in bids]
    return names, codes, {f"bid {x}": [f"bid {y}" for y in ys] for x, ys in same.items()}
