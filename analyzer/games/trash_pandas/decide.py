"""``decide``: roll or stop (or which card to spend on a roll) in chance of winning the game.

Each trial draws the cards the seat cannot see from a belief (analyzer/games/trash_pandas/
belief.py: by default learned from self-play of the line-up that plays the rest of the game),
then plays every choice out to the end of the game on that same deal and stream (common random
numbers; kernels/trash_pandas/whole_decide.py). The answer is each choice's chance of winning
(a win shared by k players counts 1/k) and its paired difference with the first choice ("stop",
or "take" after a rolled face), beside the exact turn-level answer in card-equivalents
(analyzer/games/trash_pandas/exact.py). It names who plays the rest of the game (one bot per
seat) and the belief it used.

Intervals: a choice's chance of winning is the mean of win shares in [0, 1]; its 95% interval
is the Wilson score interval at that mean, which uses the variance bound μ(1 − μ) of a [0, 1]
variable with mean μ (so it is valid, and conservative, for shares that are not 0 or 1), has a
lower bound of exactly 0 when every share is 0 and an upper bound of exactly 1 when every share
is 1. Its SE is the Bernoulli bound sqrt(p(1 − p)/n). Paired differences (in [−1, 1]) use the
normal interval of a mean (analyzer/stats.py).
"""
from __future__ import annotations

import numpy as np

from analyzer.games.trash_pandas.position import Position

BLOCK_SIZE = 256


def feesh_fetches(pos: Position, rules) -> list[tuple[str, int]]:
    """The Feesh saves open at a rolled face: (label, whole_bots code) for each of Blammo! and
    Nanners that lies in the discard pile, when I hold a usable Feesh (not gained this turn)
    and ``feesh_timing = any`` (the rulebook: Feesh at any moment of the own turn; under
    ``resolve`` a Feesh waits for the resolve step). The fetched card is spent at once, as the
    engine plays a Feesh save (kernels/trash_pandas/whole.py ``roll_phase``)."""
    from kernels.trash_pandas.layout import BLAMMO, DISC, FEESH, NANNERS
    from kernels.trash_pandas.whole_bots import FEESH_BLAMMO, FEESH_NANNERS

    if pos.rolled < 0 or rules.feesh_timing != "any" or pos.usable(FEESH) < 1:
        return []
    return [(label, code) for label, t, code in (("feesh-blammo", BLAMMO, FEESH_BLAMMO),
                                                 ("feesh-nanners", NANNERS, FEESH_NANNERS))
            if pos.g0[DISC, t] > 0]


def choices_for(pos: Position, rules) -> list[tuple[str, tuple[int, int, int]]]:
    """(label, (entry, face, take/Blammo!/Nanners/Feesh fetch)) for every legal choice; the
    first is the baseline the others are compared with. After a rolled face: take (``bust``
    on a repeat), Blammo! and Nanners from the hand, and a Feesh fetching either from the
    discard pile (:func:`feesh_fetches`)."""
    from analyzer.games.trash_pandas.rules import popcount
    from kernels.trash_pandas.layout import BLAMMO, NANNERS

    if pos.rolled >= 0:
        f = pos.rolled
        out = [("bust" if pos.held >> f & 1 else "take", (2, f, 0))]
        if pos.usable(BLAMMO) > 0:
            out.append(("blammo", (2, f, 1)))
        if pos.usable(NANNERS) > 0:
            out.append(("nanners", (2, f, 2)))
        out += [(label, (2, f, code)) for label, code in feesh_fetches(pos, rules)]
        return out
    out = [("stop", (1, 0, 0))]
    cap = rules.bonus_cap if pos.bonus else 6
    if popcount(pos.held) < cap:
        out.append(("roll", (0, 0, 0)))
    return out


def turn_level(pos: Position, rules) -> dict:
    """What the exact turn solver says for the same held set and usable cards. After a rolled
    face, a Feesh save open there (:func:`feesh_fetches`) is valued as fetching the card and
    spending it at once, which costs one card (the Feesh) as spending a held one does; the
    solver counts no Feesh in the rest of the turn."""
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.rules import (BLAMMO as D_BLAMMO, NANNERS as D_NANNERS,
                                                   ValueModel)
    from kernels.trash_pandas.layout import BLAMMO, NANNERS, PIE

    solver = TurnSolver(ValueModel(), rules)
    b, n, p = (min(pos.usable(t), 7) for t in (BLAMMO, NANNERS, PIE))
    mode = 1 if pos.bonus else 0
    if pos.rolled >= 0:
        value, d = solver.outcome(mode, pos.held, pos.rolled, b, n, p)
        word = {D_BLAMMO: "blammo", D_NANNERS: "nanners"}.get(
            d, "bust" if pos.held >> pos.rolled & 1 else "take")
        for label, _ in feesh_fetches(pos, rules):  # fetch and spend: as spending a held card
            v = (solver.roll(mode, pos.held, b, n, p) if label == "feesh-blammo" else
                 solver.stop(mode, pos.held, p)) - solver.card
            if v > value + 1e-12:
                value, word = v, label
        return {"recommendation": word, "value": value, "unit": "card-equivalents",
                "exact": True}
    q = solver.query(pos.held, b, n, p, pos.bonus)
    return {"recommendation": q["recommendation"], "ev_stop": q["ev_stop"],
            "ev_roll": q["ev_roll"], "unit": "card-equivalents", "exact": True}


UNIT = "chance of winning (a shared win counts as a share)"
INTERVAL = ("Wilson score interval (valid for a mean of win shares in [0, 1]: exact 0 and 1 at "
            "the edges); changes: normal interval of the paired difference")


def decide_job(pos: Position, setup, choices, bp):
    from analyzer.runner import KernelJob, half_width_of_mean

    arr = np.array([c for _, c in choices], dtype=np.int64)
    d = setup.deck
    bots = setup.bots[0]
    rules = setup.rules_arr
    mode = 1 if pos.bonus else 0

    def run_blocks(keys, counts):
        decide_blocks = setup.kernel("decide_blocks")
        return decide_blocks(keys, counts, pos.g0, pos.pool, pos.opp_hand, pos.opp_down, pos.me,
                             mode, pos.held, arr, bots, d.pts, d.per_card, d.copies, rules,
                             setup.roll_tab, setup.after_tab, bp)

    last = len(choices) - 1
    head = half_width_of_mean(4 * last + 2, 4 * last + 3) if last > 0 else \
        half_width_of_mean(0, 1)
    # rollout seats make a playout slow: fewer per block (whole.py ROLLOUT_BLOCK_WORK)
    return KernelJob("trash-pandas decide", min(BLOCK_SIZE, setup.block_size), run_blocks, head,
                     unit="playouts")


#: Why the uniform belief plays when the public history, not the position alone, rules out the
#: stash rule.
HISTORY_FALLBACK = (
    "the cards the public history proves in the opponents' hands leave fewer unseen cards of the "
    "types their bots stash than the face-down stashes hold: the bots could not have played "
    "this history, so the unseen cards are dealt uniformly")


def choose_belief(pos: Position, setup, name: str = "model"):
    """The belief ``name`` for this position, or the uniform one (with the reason) when the
    position's face-down stashes cannot be dealt under the opponents' stash rule."""
    from analyzer.games.trash_pandas.belief import belief_for

    belief = belief_for(name, setup)
    if belief.feasible(pos):
        return belief, ""
    return belief_for("uniform", setup), (
        "the face-down stashes hold more cards than the unseen cards of the types the "
        "opponents' bots stash: the bots could not have reached this position, so the unseen "
        "cards are dealt uniformly")


def with_history(pos: Position, setup, belief):
    """The position with the cards its public history proves in each opponent's hand moved
    from the unseen ones into that hand (history.py, under the belief's stash rule: the
    uniform belief assumes none), and those cards by seat (JSON-ready, seats from 1)."""
    import dataclasses

    from analyzer.games.trash_pandas.history import replay
    from analyzer.games.trash_pandas.score import WHOLE_CARDS
    from kernels.trash_pandas.layout import HAND

    if not pos.events:
        return pos, {"events": 0, "known_in_hand": {}}
    stash_ok = None if belief.name == "uniform" else (belief.down > 0).tolist()
    r = replay(pos.events, pos.players, setup.deck.copies.tolist(),
               setup.rules.mask_card == "hand", stash_ok)
    g0, pool, opp_hand = pos.g0.copy(), pos.pool.copy(), pos.opp_hand.copy()
    known = {}
    for q, seat in enumerate(r.seats):
        if q == pos.me or not sum(seat.known):
            continue
        g0[HAND + q] += seat.known
        pool -= seat.known
        opp_hand[q] -= sum(seat.known)
        known[str(q + 1)] = {WHOLE_CARDS[t]: c for t, c in enumerate(seat.known) if c}
    out = dataclasses.replace(pos, g0=g0, pool=pool, opp_hand=opp_hand)
    return out, {"events": r.events, "known_in_hand": known}


def seats_json(pos: Position, setup) -> list[dict]:
    """Who plays the rest of the game: one bot per seat (seats from 1), and which one is me."""
    return [{"seat": i + 1, "bot": bot.label, "me": i == pos.me}
            for i, bot in enumerate(setup.lineups[0])]


def decide(pos: Position, setup, spec, belief_name: str = "model") -> dict:
    """Run the playouts and build the answer (JSON-ready)."""
    from analyzer.stats import paired_share_difference, verdict, wilson

    from analyzer.games.trash_pandas.belief import belief_for

    given = pos
    belief, fallback = choose_belief(given, setup, belief_name)
    pos, history = with_history(given, setup, belief)
    if not belief.feasible(pos):  # what the history proves left too few stashable cards
        belief = belief_for("uniform", setup)
        fallback = HISTORY_FALLBACK
        pos, history = with_history(given, setup, belief)  # read again from the position given
    bp = belief.params(pos.g0, pos.me, pos.opp_hand, pos.opp_down)
    choices = choices_for(pos, setup.rules)
    res = spec.run(decide_job(pos, setup, choices, bp))
    s = res.sums
    n = res.n
    rows = []
    for c, (label, _) in enumerate(choices):
        row = {"choice": label, "p_win": wilson(s[4 * c], n)}
        if c > 0:
            row["vs_" + choices[0][0]] = paired_share_difference(
                s[4 * c + 2], s[4 * c + 3], n, row["p_win"], rows[0]["p_win"])
        rows.append(row)
    if len(choices) == 1:
        rec, note = choices[0][0], "the only legal choice"
    else:
        best = max(range(len(choices)), key=lambda c: s[4 * c])
        diff = rows[best].get("vs_" + choices[0][0]) if best > 0 else None
        if best > 0:
            v = verdict(diff, choices[best][0], choices[0][0])
        else:  # the baseline leads: is any alternative clearly worse than it?
            v = choices[0][0]
            for r in rows[1:]:
                if r["vs_" + choices[0][0]].contains_zero():
                    v = "too close to call"
        rec = v
        note = f"n = {n} playouts" if v == "too close to call" else ""
    said = verdict_words(rows, choices, s, n) if len(choices) > 1 else f"{rec} ({note})"
    return {"game": "trash-pandas", "exact": False, "seed": spec.seed, "n": n,
            "unit": UNIT, "interval": INTERVAL, "me": pos.me + 1,
            "seats": seats_json(pos, setup),
            "belief": {**belief.to_json(), "fallback": fallback, "history": history},
            "choices": rows, "recommendation": rec, "note": note, "verdict": said,
            "turn_level": turn_level(pos, setup.rules), "playouts_per_second": res.per_second,
            "stopped_by": res.stopped_by, "interrupted": res.interrupted}


def verdict_words(rows: list, choices: list, sums, n: int) -> str:
    """The answer in its unit, as every game's Monte Carlo ``decide`` says it
    (:func:`analyzer.words.sampled_verdict`): the leading choice's margin in chance of winning
    over the first choice (stop, or take), with its paired 95% interval; when the first choice
    leads, its margin over an alternative not separated from it, else over the closest one (the
    paired difference, sign turned).
    "roll: +0.012 chance of winning over stop [+0.004, +0.020]"; an interval across 0 is
    "too close to call at n = 2,048 playouts: roll leads by …"."""
    from analyzer.stats import Statistic
    from analyzer.words import sampled_verdict

    base = choices[0][0]
    best = max(range(len(choices)), key=lambda c: sums[4 * c])
    if best > 0:
        leader, other, margin = choices[best][0], base, rows[best]["vs_" + base]
    else:
        # the alternative not separated from it, if any (so the words agree with the
        # recommendation), else the closest one
        closest = min(range(1, len(choices)),
                      key=lambda c: (not rows[c]["vs_" + base].contains_zero(),
                                     -rows[c]["vs_" + base].estimate))
        d = rows[closest]["vs_" + base]
        leader, other = base, choices[closest][0]
        margin = Statistic(-d.estimate, d.se, -d.ci_high, -d.ci_low, d.n)
    return sampled_verdict(leader, margin, f"chance of winning over {other}", n)


def render_decide(out: dict) -> str:
    from analyzer.games.trash_pandas.score import CARD_NAMES
    from analyzer.words import WIDTH, fit

    who = ", ".join(f"seat {r['seat']} {r['bot']}" + (" (me)" if r["me"] else "")
                    for r in out["seats"])
    lines = [f"Trash Pandas decide: n = {out['n']:,} playouts per choice, seed {out['seed']}",
             f"  the rest of the game is played by: {who}",
             f"  belief about the unseen cards: {out['belief']['description']}"]
    h = out["belief"]["history"]
    if h["events"]:
        proven = "; ".join(f"seat {q} holds " + ", ".join(f"{n} {CARD_NAMES[c]}"
                                                          for c, n in cards.items())
                           for q, cards in h["known_in_hand"].items()) or "no card in a hand"
        lines.append(f"  public history: {h['events']} events, which prove: {proven}")
    else:
        lines.append("  public history: none given (the belief reads the position alone)")
    if out["belief"]["fallback"]:
        lines.append(f"  note: {out['belief']['fallback']}")
    lines.append(f"  P(win) = {out['unit']}; ± one SE [95% interval]")
    base = out["choices"][0]["choice"]
    w = max(8, max(len(row["choice"]) for row in out["choices"]))  # "feesh-nanners": 13
    for row in out["choices"]:
        extra = ""
        if "vs_" + base in row:
            extra = f"   change vs {base}: {row['vs_' + base].format(4)}"
        line = f"  {row['choice']:<{w}} P(win) = {row['p_win'].format(4)}"
        if len(line + extra) <= WIDTH:
            lines.append(line + extra)
        else:
            lines += [line, " " * (w + 3) + extra.strip()]
    lines.append(f"  → {out['verdict']}")
    t = out["turn_level"]
    if "ev_stop" in t:
        roll = "—" if t["ev_roll"] is None else f"{t['ev_roll']:.3f}"
        lines.append(f"  turn-level (exact, card-equivalents): stop {t['ev_stop']:.3f}, roll "
                     f"{roll} → {t['recommendation']}")
    else:
        lines.append(f"  turn-level (exact, card-equivalents): {t['recommendation']} "
                     f"({t['value']:.3f})")
    return "\n".join(fit(lines))
