"""The ``search`` bot: its choices by information-set Monte Carlo tree search over worlds drawn
from a belief, with playouts by the heuristic bot.

Which choices it searches
-------------------------
* **roll or stop** (after taking a token below the cap) and **the card spent on a repeat**
  (take it and bust, Blammo!, Nanners, or a Feesh fetching a discarded Blammo! or Nanners and
  spending it): one tree over the rest of its roll phase (below);
* **Yum Yum**, when an opponent stops and the seat holds a usable one: play it (the stopper must
  roll once more) or pass, by paired playouts (both choices on the same world and stream);
* everything else (a new face is always taken; Recycle, MMM Pie!, the trash-tree, steals, the
  Bandit Mask, Feesh and Shiny in the resolve step, the stash step, blocks, the consolation draw)
  as the heuristic bot with the seat's knobs. The engine cannot continue a game from the middle
  of a resolve step, so those choices could only be searched as plans fixed at the stop.

The information set and the worlds
----------------------------------
The seat sees its own hand, gained-card marks and whole stash, every face-up card, the discard
pile, each opponent's hand size and face-down count, and the cards left
(belief.py ``public_view``). Each iteration i deals the unseen cards into one world from the
belief that knows the bots' stash rule (belief.py ``rule_params``: a face-down stash holds only
types its bot stashes; a uniform deal otherwise; the learned tilt of ``decide``'s default
belief is not available inside the engine) on its own stream ``seed_trial(key, i)``; ``key``
comes from one ``next_u64`` of the game's stream, so the search reads nothing of the true hidden
cards and a game stays one reproducible stream whatever the thread count. Opponents'
gained-this-turn marks are unknown to the seat and cleared in each world.

The tree (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012, restricted to the seat's
own roll phase)
--------------------------------------------------------------------------------------------
A node is an information set of the seat: the sequence of its choices and of the faces rolled
since the decision. Kinds: RS (a token was just taken below the cap: stop or roll) and FACE (a
face it holds was just rolled: take/bust, Blammo!, Nanners, Feesh→Blammo!, Feesh→Nanners, the
legal ones). The legal choices at a node depend only on the seat's own hand and the discard
pile, which every world shares, so no availability counts are needed (each child is legal
whenever its parent is reached) and the selection is UCB1:

    a* = argmax_a  W(n, a) / N(n, a) + c · sqrt( ln N(n) / N(n, a) ),   N(n) = Σ_a N(n, a),

untried choices first (c = ``bot[K_EXPLORE]``). An iteration descends from the root in its world,
drawing a die face ``randint(6)`` from its stream after a roll (a chance step: the child is the
node of that face); a new face is taken (an RS child, or the end of the roll phase at six tokens
or the cap), a held face gives a FACE child when a card could save it. The descent ends at the
first untried choice, a choice that ends the roll phase (stop, take a repeat, Nanners) or a new
node (at most one node is added per iteration). From there the engine plays the game to its end
(whole.py ``continue_game`` entered at the point reached: roll now, stop now, or a face with a
choice), every seat by its base bot (a rollout or search seat by the heuristic with its knobs),
and the seat's win share r (1/k for a win shared by k) is added along the path:
N(n, a) += 1, W(n, a) += r. After ``bot[K_ITERS]`` iterations (or, with a time budget
``bot[K_MS]`` > 0, once that many milliseconds have passed, read every :data:`CLOCK_EVERY`
iterations; a time budget makes the choices depend on the machine's speed, so only iteration
budgets replay exactly) the root choice with the most visits, a* (ties: the higher mean), is
compared with h, the choice the seat's base heuristic would make at the root: a* is played only
when its mean leads h's by more than Z = ``bot[K_SWITCH]`` standard errors,

    m(a*) − m(h) > Z · sqrt( v(a*)/N(a*) + v(h)/N(h) ),   v(a) = m̃(a)·(1 − m̃(a)),

m(a) = W(0, a)/N(0, a) and m̃(a) = (W(0, a) + 1/2)/(N(0, a) + 1): a win share lies in [0, 1], so
its variance is at most m(1 − m), and the half win added to each mean keeps a choice tried a
few times, all wins or all losses, from looking certain; else h is played (Z = 0: a* always). Below a few
hundred iterations the means are noisy and a plain argmax left the heuristic on noise (search:50
in seat 1 of 3 won 0.214 against the heuristic's 0.318 there); the rule keeps the heuristic's
choice unless the evidence is against it. The selection statistics are adaptive, so this is a
rule of thumb, not a test with a stated level.
A tree holds at most :data:`NODE_CAP` nodes; past it, new nodes are played out, not stored.

Yum Yum is flat: ⌈iters/2⌉ worlds, both choices played out in each on the same stream; the
choice with the larger sum of win shares replaces the heuristic's when its paired lead
|D| = |Σ d|/n exceeds Z standard errors of itself, d the per-world difference (play − pass) over
n worlds, SE = sqrt(s̃²/n) with s̃² the variance of the d's and one more world with d = 0
(s̃² = Σd²/(n+1) − (Σd/(n+1))²: worlds that all agree are not taken as certainty); Z = 0: the
larger sum; ties: the heuristic's choice. Opponents seated between the
stopper and the seat have already passed; in each world their Yum Yums are locked (marked
gained) for the rest of the turn, as the seat's own are when it passes.

Cost: one playout (about half a game) per iteration; node arrays of ``iters + 1`` rows are
allocated once per decision. The playouts run the rule-table engine (whole_tables.py), a
different compiled engine from the one calling the bot, so nothing recurses (whole_rollout.py,
which compiles the engine that plays search and rollout seats, says why).
"""
import time

import numpy as np
from numba import njit, objmode

from kernels.rng import GOLDEN, mix64, next_u64, randint, seed_trial
from kernels.trash_pandas import whole as W
from kernels.trash_pandas import whole_bots as B
from kernels.trash_pandas import whole_tables as T
from kernels.trash_pandas.belief import (RULE_SIZE, open_params, public_view, rule_params,
                                         sample_world)
from kernels.trash_pandas.whole_state import (BLAMMO, DISC, FEESH, GAIN, HAND, MAXP, NANNERS,
                                              NROWS, NT, SC, YUMYUM, play_card)
from kernels.widen import plain_types

N_RS, N_FACE = 0, 1  # node kinds
A_STOP, A_ROLL = 0, 1  # choices at an RS node (ENTRY_STOP, ENTRY_ROLL)
# choices at a FACE node are the engine's codes: B.TAKE, USE_BLAMMO, USE_NANNERS, FEESH_BLAMMO,
# FEESH_NANNERS (0..4)
NA = 5
FACES = 6
# the tree's depth bound: a roll phase takes at most 6 tokens and spends at most one card per
# other roll, so ~20 steps; past this bound a choice is played out as an untried one
MAXDEPTH = 64
NODE_CAP = 1 << 17  # nodes of one tree at most (a time budget may run many iterations)
CLOCK_EVERY = 8  # iterations between two looks at the clock under a time budget


@plain_types
@njit(cache=True)
def clock():
    """Seconds of a monotonic clock (Python's ``time.perf_counter``, through object mode: about
    a microsecond, so it is read once every :data:`CLOCK_EVERY` iterations)."""
    with objmode(t="float64"):
        t = time.perf_counter()
    return t


@plain_types
@njit(cache=True, _nrt=False)
def out_of_time(i, ms, t0):
    """After iteration i: has the time budget ``ms`` (milliseconds; 0 none) run out?"""
    return ms > 0.0 and i % CLOCK_EVERY == CLOCK_EVERY - 1 and (clock() - t0) * 1000.0 >= ms


@plain_types
@njit(cache=True, _nrt=True)  # allocates; stated, not inherited from a _nrt=False caller
def base_bots(bots):
    """The bots that play the playouts: a rollout or search seat as the heuristic (its knobs)."""
    base = bots.copy()
    for q in range(MAXP):
        kind = int(base[q, B.K_KIND])
        if kind == B.ROLLOUT or kind == B.SEARCH:
            base[q, B.K_KIND] = B.HEURISTIC
    return base


@plain_types
@njit(cache=True, _nrt=False)
def face_choices(g, me, face, held, rules, legal):
    """Fill ``legal`` (bool[NA]) with the choices after rolling ``face``, a held one: take (a
    bust), Blammo!/Nanners if usable, a Feesh fetch of either (rulebook Feesh timing, a usable
    Feesh, that card in the discard pile). Returns how many there are."""
    for k in range(NA):
        legal[k] = False
    legal[B.TAKE] = True
    legal[B.USE_BLAMMO] = g[HAND + me, BLAMMO] - g[GAIN + me, BLAMMO] > 0
    legal[B.USE_NANNERS] = g[HAND + me, NANNERS] - g[GAIN + me, NANNERS] > 0
    fe = rules[W.RULE_FEESH] == 0 and g[HAND + me, FEESH] - g[GAIN + me, FEESH] > 0
    legal[B.FEESH_BLAMMO] = fe and g[DISC, BLAMMO] > 0
    legal[B.FEESH_NANNERS] = fe and g[DISC, NANNERS] > 0
    n = 0
    for k in range(NA):
        n += legal[k]
    return n


@plain_types
@njit(cache=True, _nrt=False)
def ucb_pick(nvis, wsum, node, legal, c):
    """UCB1 at ``node`` over the ``legal`` choices (module doc), untried ones first."""
    total = 0.0
    for k in range(NA):
        if legal[k]:
            if nvis[node, k] == 0.0:
                return k
            total += nvis[node, k]
    best, best_v = -1, -1e300
    lt = np.log(total)
    for k in range(NA):
        if legal[k]:
            v = wsum[node, k] / nvis[node, k] + c * np.sqrt(lt / nvis[node, k])
            if v > best_v:
                best, best_v = k, v
    return best


@plain_types
@njit(cache=True, _nrt=False)
def most_visited(nvis, wsum, legal):
    """The root choice with the most visits (ties: the higher mean)."""
    best = -1
    for k in range(NA):
        if not legal[k]:
            continue
        if best < 0 or nvis[0, k] > nvis[0, best] or (
                nvis[0, k] == nvis[0, best] and nvis[0, k] > 0
                and wsum[0, k] / nvis[0, k] > wsum[0, best] / nvis[0, best]):
            best = k
    return best


@plain_types
@njit(cache=True, _nrt=False)
def keep_or_switch(nvis, wsum, best, h, z):
    """The root choice to play: ``best`` (the most visited) or ``h`` (the heuristic's; −1 if
    not legal), by the rule of the module doc (a mean lead over ``z`` standard errors)."""
    if z <= 0.0 or best == h or h < 0:
        return best
    na, nh = nvis[0, best], nvis[0, h]
    if nh == 0.0:  # never tried (a one-iteration budget): no evidence against it
        return h
    sa = (wsum[0, best] + 0.5) / (na + 1.0)
    sh = (wsum[0, h] + 0.5) / (nh + 1.0)
    se = np.sqrt(sa * (1.0 - sa) / na + sh * (1.0 - sh) / nh)
    return best if wsum[0, best] / na - wsum[0, h] / nh > z * se else h


@plain_types
@njit(cache=True, _nrt=False)
def add_node(child, kind, node, slot, new_kind, nodes):
    """Store a new node of ``new_kind`` as the child ``slot`` of ``node`` when the tree has room
    (``nodes`` rows used of ``len(kind)``); returns the rows used."""
    if nodes < kind.shape[0]:
        child[node, slot] = nodes
        kind[nodes] = new_kind
        nodes += 1
    return nodes


@plain_types
@njit(cache=True, _nrt=True)  # allocates; stated, not inherited from a _nrt=False caller
def playout_scratch():
    """Scratch arrays of one decision's playouts: a world, its copy, their streams, the
    engine's counters, its score workspace and the seats' scores."""
    return (np.zeros((NROWS, NT), dtype=np.int64), np.zeros((NROWS, NT), dtype=np.int64),
            np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64),
            np.zeros(W.NACC, dtype=np.float64), np.zeros(16, dtype=np.int64),
            np.zeros(MAXP, dtype=np.int64))


@plain_types
@njit(cache=True, _nrt=True)  # allocates; stated, not inherited from a _nrt=False caller
def decision_key(s):
    """The decision's key words: one ``next_u64`` of the game's stream (module doc)."""
    x = next_u64(s)
    key = np.empty(4, dtype=np.uint64)
    for j in range(4):
        key[j] = mix64(x ^ (np.uint64(j) * GOLDEN))
    return key


@plain_types
@njit(cache=True, _nrt=True)  # allocates; stated, not inherited from a _nrt=False caller
def seat_view(g, me, bots, pts, per_card):
    """What seat ``me`` sees and what it cannot (belief.py ``public_view``: view, pool,
    opponents' hand sizes and face-down counts) and the parameters of the belief that knows
    the bots' stash rule (belief.py ``rule_params``)."""
    view = np.zeros((NROWS, NT), dtype=np.int64)
    pool = np.zeros(NT, dtype=np.int64)
    opp_hand = np.zeros(MAXP, dtype=np.int64)
    opp_down = np.zeros(MAXP, dtype=np.int64)
    public_view(g, me, view, pool, opp_hand, opp_down)
    bp = np.zeros(RULE_SIZE, dtype=np.float64)
    rule_params(bp, bots, pts, per_card)
    return view, pool, opp_hand, opp_down, bp


@plain_types
@njit(cache=True, _nrt=True)  # allocates; stated, not inherited from a _nrt=False caller
def deal_world(world, view, pool, opp_hand, opp_down, me, bp, key, i, sw):
    """World i of a decision on its own stream ``sw`` (the uniform deal if the stash rule
    cannot deal this state: a state the bots could not have reached)."""
    seed_trial(key, i, sw)
    if not sample_world(world, view, pool, opp_hand, opp_down, me, bp, sw):
        open_params(bp)
        seed_trial(key, i, sw)
        sample_world(world, view, pool, opp_hand, opp_down, me, bp, sw)


@plain_types
@njit(cache=True, _nrt=False)
def _heuristic_face(g, me, base, held, mode, face, rules, roll_tab, after_tab, s):
    """What the base heuristic does with a rolled ``face`` (its after-roll choice, then its
    Feesh save on a repeat it would take), as an engine choice code."""
    d = B.after_roll(g, me, base[me], held, mode, face, roll_tab, after_tab, s)
    if d == B.TAKE and (held >> face) & 1 and rules[W.RULE_FEESH] == 0:
        d = B.feesh_save(g, me, base[me], held, mode, face, roll_tab, after_tab, s)
    return d


@plain_types
@njit(cache=True, _nrt=True)  # allocates; stated, not inherited from a _nrt=False caller
def tree_search(g, me, bots, mode, held, root_kind, root_face, pts, per_card, copies, rules,
                roll_tab, after_tab, s, stats):
    """The root choice of seat ``me``'s own roll phase by ISMCTS (module doc): at an RS root
    (``root_kind`` N_RS) A_STOP or A_ROLL, at a FACE root (``root_face`` rolled, held) an engine
    choice code. ``stats`` float64[2, NA] receives the root's visits and win-share sums."""
    iters = max(1, int(bots[me, B.K_ITERS]))
    c = bots[me, B.K_EXPLORE]
    ms = bots[me, B.K_MS]
    t0 = clock() if ms > 0.0 else 0.0
    players = g[SC, 2]
    cap = 6 if mode == 0 else rules[W.RULE_CAP]
    base = base_bots(bots)
    view, pool, opp_hand, opp_down, bp = seat_view(g, me, bots, pts, per_card)
    key = decision_key(s)
    maxn = min(iters + 1, NODE_CAP)
    nvis = np.zeros((maxn, NA), dtype=np.float64)
    wsum = np.zeros((maxn, NA), dtype=np.float64)
    child = np.full((maxn, NA * FACES), -1, dtype=np.int32)
    kind = np.zeros(maxn, dtype=np.int8)
    kind[0] = root_kind
    nodes = 1
    path_n = np.zeros(MAXDEPTH, dtype=np.int32)
    path_a = np.zeros(MAXDEPTH, dtype=np.int32)
    legal = np.zeros(NA, dtype=np.bool_)
    world, _, sw, _, acc, w, scores = playout_scratch()
    for i in range(iters):
        deal_world(world, view, pool, opp_hand, opp_down, me, bp, key, i, sw)
        node, h, nh, face = 0, held, 0, root_face
        for t in range(6):
            nh += (h >> t) & 1
        depth = 0
        entry, e_face, e_choice = W.ENTRY_STOP, 0, 0
        while True:
            if kind[node] == N_RS:
                for k in range(NA):
                    legal[k] = k < 2
            else:
                face_choices(world, me, face, h, rules, legal)
            k = ucb_pick(nvis, wsum, node, legal, c)
            path_n[depth] = node
            path_a[depth] = k
            depth += 1
            tried = nvis[node, k] > 0.0 and depth < MAXDEPTH
            if kind[node] == N_RS:
                if k == A_STOP or not tried:
                    entry = W.ENTRY_STOP if k == A_STOP else W.ENTRY_ROLL
                    break
            else:
                if k == B.TAKE or k == B.USE_NANNERS or k == B.FEESH_NANNERS or not tried:
                    entry, e_face, e_choice = W.ENTRY_FACE, face, k
                    break
                if k == B.FEESH_BLAMMO:
                    W.feesh_fetch(world, me, BLAMMO, acc)
                play_card(world, me, BLAMMO)
            # a roll in the tree: a chance step to the child of the face drawn
            f = randint(sw, FACES)
            slot = k * FACES + f
            if not (h >> f) & 1:
                if (mode == 0 and nh + 1 == 6) or nh + 1 >= cap:
                    entry, e_face, e_choice = W.ENTRY_FACE, f, B.TAKE
                    break
                nxt = child[node, slot]
                if nxt < 0:  # a new RS node (when there is room): the heuristic plays on
                    nodes = add_node(child, kind, node, slot, N_RS, nodes)
                    entry, e_face, e_choice = W.ENTRY_FACE, f, B.TAKE
                    break
                h |= 1 << f
                nh += 1
                node = nxt
                continue
            if face_choices(world, me, f, h, rules, legal) == 1:
                entry, e_face, e_choice = W.ENTRY_FACE, f, B.TAKE  # nothing can save it
                break
            nxt = child[node, slot]
            if nxt < 0:  # a new FACE node (when there is room): the heuristic answers it
                nodes = add_node(child, kind, node, slot, N_FACE, nodes)
                entry, e_face = W.ENTRY_FACE, f
                e_choice = _heuristic_face(world, me, base, h, mode, f, rules, roll_tab,
                                           after_tab, sw)
                break
            node = nxt
            face = f
        T.continue_game(world, me, mode, h, entry, e_face, e_choice, base, pts, per_card,
                        copies, rules, roll_tab, after_tab, acc, sw, w)
        r = W.win_share(world, me, players, pts, per_card, rules, w, scores)
        for d in range(depth):
            nvis[path_n[d], path_a[d]] += 1.0
            wsum[path_n[d], path_a[d]] += r
        if out_of_time(i, ms, t0):
            break
    if root_kind == N_RS:
        for k in range(NA):
            legal[k] = k < 2
    else:
        face_choices(g, me, root_face, held, rules, legal)
    for k in range(NA):
        stats[0, k] = nvis[0, k]
        stats[1, k] = wsum[0, k]
    if root_kind == N_RS:
        nh = 0
        for t in range(6):
            nh += (held >> t) & 1
        h = A_ROLL if B.keep_rolling_tables(g, me, base[me], held, nh, mode, roll_tab,
                                            s) else A_STOP
    else:
        h = _heuristic_face(g, me, base, held, mode, root_face, rules, roll_tab, after_tab, s)
    h = h if legal[h] else -1
    return keep_or_switch(nvis, wsum, most_visited(nvis, wsum, legal), h,
                          bots[me, B.K_SWITCH])


@plain_types
@njit(cache=True, _nrt=True)  # allocates; stated, not inherited from a _nrt=False caller
def yumyum_values(g, q, a, bots, held, mode, pts, per_card, copies, rules, roll_tab,
                  after_tab, s, sums):
    """Seat q's Yum Yum as seat a stops (module doc): ``sums`` float64[5] receives Σ win share
    of q after playing it (0) and after passing (1) over the worlds played (at most
    ⌈iters/2⌉, fewer under a time budget), Σ over worlds of the squared paired difference
    (play − pass)² (2), scratch (3) and the number of worlds (4)."""
    pairs = max(1, (int(bots[q, B.K_ITERS]) + 1) // 2)
    ms = bots[q, B.K_MS]
    t0 = clock() if ms > 0.0 else 0.0
    players = g[SC, 2]
    base = base_bots(bots)
    view, pool, opp_hand, opp_down, bp = seat_view(g, q, bots, pts, per_card)
    key = decision_key(s)
    world, gc, sw, sc, acc, w, scores = playout_scratch()
    sums[:] = 0.0
    for i in range(pairs):
        deal_world(world, view, pool, opp_hand, opp_down, q, bp, key, i, sw)
        j = 1
        while (a + j) % players != q:  # they passed already: locked in every world
            p = (a + j) % players
            world[GAIN + p, YUMYUM] = world[HAND + p, YUMYUM]
            j += 1
        for choice in range(2):
            gc[:, :] = world
            sc[:] = sw
            if choice == 0:
                play_card(gc, q, YUMYUM)
                entry = W.ENTRY_ROLL
            else:
                gc[GAIN + q, YUMYUM] = gc[HAND + q, YUMYUM]
                entry = W.ENTRY_STOP
            T.continue_game(gc, a, mode, held, entry, 0, 0, base, pts, per_card, copies, rules,
                            roll_tab, after_tab, acc, sc, w)
            r = W.win_share(gc, q, players, pts, per_card, rules, w, scores)
            sums[choice] += r
            sums[3] += r if choice == 0 else -r
        sums[2] += sums[3] * sums[3]
        sums[3] = 0.0
        sums[4] += 1.0
        if out_of_time(i, ms, t0):
            break


@plain_types
@njit(cache=True, _nrt=True)  # allocates; stated, not inherited from a _nrt=False caller
def keep_rolling_search(g, a, bot, bots, held, nh, mode, pts, per_card, copies, rules,
                        roll_tab, after_tab, s):
    """A search seat rolls again (True) or stops, by :func:`tree_search` from an RS root."""
    stats = np.zeros((2, NA), dtype=np.float64)
    return tree_search(g, a, bots, mode, held, N_RS, 0, pts, per_card, copies, rules, roll_tab,
                       after_tab, s, stats) == A_ROLL


@plain_types
@njit(cache=True, _nrt=True)  # allocates; stated, not inherited from a _nrt=False caller
def after_roll_search(g, a, bot, bots, held, mode, face, pts, per_card, copies, rules,
                      roll_tab, after_tab, s):
    """A search seat's answer to a rolled face: a new face is taken; a held one is searched
    from a FACE root when a card could save it (else taken: a bust)."""
    if not (held >> face) & 1:
        return B.TAKE
    legal = np.zeros(NA, dtype=np.bool_)
    if face_choices(g, a, face, held, rules, legal) == 1:
        return B.TAKE
    stats = np.zeros((2, NA), dtype=np.float64)
    return tree_search(g, a, bots, mode, held, N_FACE, face, pts, per_card, copies, rules,
                       roll_tab, after_tab, s, stats)


@plain_types
@njit(cache=True, _nrt=True)  # allocates; stated, not inherited from a _nrt=False caller
def yumyum_search(g, q, a, bots, held, nh, mode, pts, per_card, copies, rules, roll_tab,
                  after_tab, s):
    """A search seat q with a usable Yum Yum plays it (True) or passes as seat a stops."""
    if g[HAND + q, YUMYUM] - g[GAIN + q, YUMYUM] < 1:
        return False
    sums = np.zeros(5, dtype=np.float64)
    yumyum_values(g, q, a, bots, held, mode, pts, per_card, copies, rules, roll_tab, after_tab,
                  s, sums)
    base = base_bots(bots)
    h = B.plays_yumyum(g, q, base[q], nh, s)
    z = bots[q, B.K_SWITCH]
    if sums[0] == sums[1]:
        return h
    better = sums[0] > sums[1]
    if z <= 0.0 or better == h:
        return better
    return better if paired_lead_holds(sums[0] - sums[1], sums[2], sums[4], z) else h


@plain_types
@njit(cache=True, _nrt=False)
def paired_lead_holds(dsum, d2sum, n, z):
    """Does a paired lead |D| = |dsum|/n exceed z standard errors, the d's variance taken with
    one more world of d = 0 (module doc)?"""
    m = dsum / (n + 1.0)
    var = max(d2sum / (n + 1.0) - m * m, 0.0)
    return abs(dsum) / n > z * np.sqrt(var / n)
