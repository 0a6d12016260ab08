"""`ten game` and `ten decide` as functions: whole games between line-ups, and the chance of
winning for each choice at a real position.

``play_games``: every line-up plays the same shuffled decks (common random numbers, one trial =
one game per line-up); per line-up the win rate, score and end-of-game tokens and cards of every
seat, and the game's length, busts, auctions and prices, buys and market size, each a statistic;
with more than one line-up the paired differences (line-up A − line-up X) per seat.

``decide``: the unseen cards of a position (everything not listed in it) are shuffled into the
draw pile for each playout (determinization); each choice (draw, stop and take the numbers, stop
and take the currency; in a buy phase each market card or no buy; in an auction each bid level
of seat ``me``, ``choices_of``) is played out on the same pile by the position's bots, and the
answer is the chance that seat ``me`` wins, with the paired differences against the first
choice. Beside a draw decision, the one-turn exact answer under the default value model
(``pushluck ten best``) for the same tableau and the same seen cards.
"""
from __future__ import annotations

import numpy as np

from analyzer.errors import UserError

CHOICES = ("draw", "numbers", "currency")
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
    """The one-turn exact answer (`ten best`) for the position's tableau and seen cards."""
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
    return best(Model(ts, rules, ValueModel(), pos.players, tokens))


def decide(pos, rules, spec_deck, bots, spec) -> dict:
    from analyzer.games.ten.whole import exact_tables, score_tables
    from analyzer.runner import KernelJob
    from analyzer.stats import mean_from_sums, verdict
    from analyzer.games.ten.bots import bot_rows

    searching = any(b.name == "search" for b in bots)
    if searching:  # every playout plays the search seats' decisions (search_game.py)
        from kernels.ten.search_game import search_position_blocks as position_blocks
    else:
        from kernels.ten.whole_blocks import position_blocks

    choices, code_list = choices_of(pos, rules)
    codes = np.array(code_list, dtype=np.int64)

    idx, dec, nchild, cchild = exact_tables(rules, spec_deck, pos.players, bots)
    rows = bot_rows(bots, idx, search=searching)
    st = pos.state
    K = len(choices)
    args = (st.pile, st.cards, st.tk, pos.active, pos.me, codes, st.deck, pos.players,
            rules.kernel_array(pos.players), rows, score_tables(), dec, nchild, cchild)

    def run_blocks(keys, counts):
        return position_blocks(keys, counts, *args)

    def headline(sums, n):  # the widest interval among the paired differences (or the P(win))
        if n < 2:
            return float("inf")
        if K == 1:
            return mean_from_sums(sums[0], sums[1], n).half_width
        return max(mean_from_sums(sums[2 * K + 2 * i], sums[2 * K + 2 * i + 1], n).half_width
                   for i in range(K - 1))

    block = SEARCH_BLOCK if searching else 64
    res = spec.run(KernelJob("ten decide", block, run_blocks, headline, unit="playouts"))
    n = res.n
    s = res.sums
    wins = {c: mean_from_sums(s[2 * k], s[2 * k + 1], n) for k, c in enumerate(choices)}
    diffs = {f"{choices[0]} − {choices[k]}": mean_from_sums(s[2 * K + 2 * (k - 1)],
                                                           s[2 * K + 2 * (k - 1) + 1], n)
             for k in range(1, K)}
    order = sorted(choices, key=lambda c: -wins[c].estimate)
    c0 = choices[0]
    if K == 1:
        rec, why = c0, ("the first draw of a turn is mandatory" if pos.phase == "draw"
                        else "the only choice")
    else:
        top, second = order[0], order[1]
        if top == c0:
            d = diffs[f"{c0} − {second}"]
        elif second == c0:
            d = diffs[f"{c0} − {top}"]
            d = type(d)(-d.estimate, d.se, -d.ci_high, -d.ci_low, d.n)
        else:  # compare them through the first choice on the same playouts
            a, b = diffs[f"{c0} − {top}"], diffs[f"{c0} − {second}"]
            est = b.estimate - a.estimate
            se = (a.se ** 2 + b.se ** 2) ** 0.5  # conservative (ignores their covariance)
            d = type(a)(est, se, est - 1.96 * se, est + 1.96 * se, n)
        v = verdict(d, top, second)
        rec = f"too close to call at n = {n:,}" if v == "too close to call" else top
        why = f"{top} − {second} = {d.format(4)}"
    return {"game": "ten", "exact": False, "seed": spec.seed, "n": n, "players": pos.players,
            "active": pos.active + 1, "me": pos.me + 1, "bots": [b.label for b in bots],
            "cards_unseen": int(len(st.pile)), "p_win": wins, "differences": diffs,
            "phase": pos.phase, "wild": pos.wild,
            "recommendation": rec, "margin": why,
            "turn_level": _turn_level(pos, rules, spec_deck) if pos.phase == "draw" else None,
            "playouts_per_second": res.per_second * K, "seconds": res.kernel_seconds,
            "stopped_by": res.stopped_by, "interrupted": res.interrupted}


MAX_BID_LEVELS = 16  # pass and bids 1..15 at most


def choices_of(pos, rules) -> tuple[list[str], list[int]]:
    """The active choices of a position and their kernel codes (whole_layout.py F_*): draw /
    numbers / currency; in a buy phase "no buy" and "buy X" for every market card type the
    active seat does not own and can pay (tokens + bust tokens × their value + its cards); in an
    auction "pass" and "bid x" for x = 1 .. what seat `me` can pay (at most 15)."""
    from analyzer.games.ten.cards import CODES, TYPE_OF
    from kernels.ten import whole_layout as L

    st = pos.state
    if pos.phase == "draw":
        names = list(CHOICES if pos.tableau else CHOICES[:1])
        return names, [{"draw": L.F_DRAW, "numbers": L.F_NUMBERS,
                        "currency": L.F_CURRENCY}[c] for c in names]
    if pos.phase == "auction" and not rules.auctions or pos.phase == "buy" and not rules.buys:
        key = "auctions" if pos.phase == "auction" else "buys"
        raise UserError(f"the position is in phase \"{pos.phase}\" but the rules say "
                        f"{key} = false")
    q = pos.me if pos.phase == "auction" else pos.active
    means = int(st.tk[q] + rules.bust_token_value * st.tk[5 + q] + st.cards[q].sum())
    if pos.phase == "buy":
        names, codes = ["no buy"], [L.F_BUYNONE]
        for t in range(36):
            if st.cards[L.ROW_MARKET, t] > 0 and st.cards[q, t] == 0 and t % 9 + 1 <= means:
                names.append(f"buy {CODES[t]}")
                codes.append(L.F_BUY0 + t)
        return names, codes
    w = TYPE_OF[pos.wild]
    top = min(means, MAX_BID_LEVELS - 1)
    return (["pass"] + [f"bid {x}" for x in range(1, top + 1)],
            [L.bid_code(w, q, x) for x in range(top + 1)])


