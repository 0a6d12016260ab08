"""The ``search`` bot (kernels/trash_pandas/search.py): it reads only what its seat sees, plays
a lone legal move without searching, finds the best move of end games worked out by hand, and
plays the same games from the same seed whatever the thread count.

States are built by hand from the layout of kernels/trash_pandas/layout.py (rows: hands 0–3,
stashes 4–7, face-up 8–11, gained 12–15, discard 16, pile 17, counters 18; columns: Blammo!,
Doggo, Feesh, Kitteh, MMM Pie!, Nanners, Shiny, Yum Yum), with small deck files whose points
are written below, so every value is computed from the rules page alone.
"""
import json
import os
import subprocess
import sys

import numpy as np

from analyzer.games.trash_pandas.bots import lineup_array
from analyzer.games.trash_pandas.lineup import parse_bot

BL, DO, FE, KI, PI, NA_, SH, YU = range(8)
HAND, STASH, UP, GAIN, DISC, DECK, SC = 0, 4, 8, 12, 16, 17, 18
TRASH, TREES, TRASH_TREE, PAW, MASK, RECYCLE = range(6)
# rules: bonus turn, cap 3, mandatory consolation, no check, 2000 turns, Mask card to hand,
# Kitteh chains, tie-breaks, Feesh at any moment, the active player's lock, Shiny any time
RULES = np.array([1, 3, 0, 0, 2000, 0, 1, 0, 0, 0, 0], dtype=np.int64)
TABS = (np.zeros(2 * 64 * 64, np.uint8), np.zeros(2 * 64 * 64 * 6, np.uint8))


def _deck(pointless=(), **copies):
    """(pts int64[8, 3], per_card int64[8], copies int64[8]): Feesh 5/3/1, Yum Yum 4/2/1,
    MMM Pie! 6/2/1, Nanners and Shiny 4/2/1, Blammo! 1 a card, Doggo and Kitteh nothing (and
    nothing for the types in ``pointless``)."""
    pts = np.zeros((8, 3), dtype=np.int64)
    pts[FE] = (5, 3, 1)
    pts[YU] = pts[NA_] = pts[SH] = (4, 2, 1)
    pts[PI] = (6, 2, 1)
    for t in pointless:
        pts[t] = 0
    per_card = np.zeros(8, dtype=np.int64)
    per_card[BL] = 1
    c = np.zeros(8, dtype=np.int64)
    for name, k in copies.items():
        c[{"blammo": BL, "doggo": DO, "feesh": FE, "kitteh": KI, "pie": PI, "nanners": NA_,
           "shiny": SH, "yumyum": YU}[name]] = k
    return pts, per_card, c


def _bots(*texts):
    return lineup_array([tuple(parse_bot(t) for t in texts)])[0]


def _stream(x=1):
    return np.array([x, 2, 3, 4], dtype=np.uint64)


def _args(deck, s):
    pts, per_card, copies = deck
    return (pts, per_card, copies, RULES) + TABS + (s,)


# ------------------------------------------------------------------------- what the seat sees
def _midgame():
    """Three players, seat 1 (index 0) to decide holding trash and paw; hidden cards: seat 2
    holds 3 in hand and 1 face down, seat 3 holds 2 in hand and 2 face down; 10 in the pile."""
    deck = _deck(blammo=4, doggo=3, feesh=6, kitteh=3, pie=3, nanners=3, shiny=3, yumyum=3)
    g = np.zeros((19, 8), dtype=np.int64)
    g[SC, 2] = 3
    g[HAND + 0, [BL, NA_, FE, YU]] = 1  # mine: seen
    g[STASH + 0, [FE, PI]] = (2, 1)
    g[UP + 1, SH] = 1  # face-up, seen by all
    g[DISC, [BL, DO]] = (1, 1)
    g[HAND + 1, [DO, KI, PI]] = 1  # hidden from seat 1
    g[STASH + 1, [SH, FE]] = 1  # the Shiny is face up, the Feesh face down
    g[HAND + 2, [SH, YU]] = 1
    g[STASH + 2, [PI, NA_]] = 1
    g[DECK] = deck[2] - g[:DECK].sum(axis=0) + g[UP:UP + 4].sum(axis=0)
    g[SC, 0] = g[DECK].sum()
    assert g[DECK].min() >= 0 and g[SC, 0] == 10
    return g, deck


def _swapped(g):
    """The same public state with other hidden cards: seat 2's Doggo ↔ a pile Feesh, seat 3's
    face-down MMM Pie! ↔ a pile Blammo!, seat 3's Shiny ↔ seat 2's face-down Feesh (sizes,
    face-up cards, discard and my own rows unchanged)."""
    h = g.copy()
    h[HAND + 1, DO] -= 1
    h[HAND + 1, FE] += 1
    h[DECK, FE] -= 1
    h[DECK, DO] += 1
    h[STASH + 2, PI] -= 1
    h[STASH + 2, BL] += 1
    h[DECK, BL] -= 1
    h[DECK, PI] += 1
    h[HAND + 2, SH] -= 1
    h[HAND + 2, FE] += 1
    h[STASH + 1, FE] -= 1
    h[STASH + 1, SH] += 1
    assert (h[DECK] >= 0).all() and (h != g).any()
    return h


def test_decisions_do_not_change_when_the_hidden_cards_are_swapped():
    from kernels.trash_pandas.search import N_FACE, N_RS, NA, tree_search, yumyum_values

    g, deck = _midgame()
    h = _swapped(g)
    bots = _bots("search:300", "heuristic", "heuristic")
    held = 1 << TRASH | 1 << PAW
    for kind, face in ((N_RS, 0), (N_FACE, PAW)):
        seen = []
        for state in (g, h):
            s = _stream()
            stats = np.zeros((2, NA))
            choice = tree_search(state.copy(), 0, bots, 0, held, kind, face,
                                 *_args(deck, s), stats)
            seen.append((choice, stats.tolist(), s.tolist()))
        assert seen[0] == seen[1]
        assert sum(seen[0][1][0]) == 300  # every iteration went through the root
    # seat 3 (index 2, holding a Yum Yum) decides whether to play it as seat 2 stops; what it
    # cannot see: both other hands, seat 1's face-down stash, seat 2's face-down Feesh, the pile
    h3 = g.copy()
    h3[HAND + 1, DO] -= 1  # seat 2's Doggo <-> a pile Feesh
    h3[HAND + 1, FE] += 1
    h3[DECK, FE] -= 1
    h3[DECK, DO] += 1
    h3[STASH + 0, FE] -= 1  # one of seat 1's face-down Feesh <-> a pile Blammo!
    h3[STASH + 0, BL] += 1
    h3[DECK, BL] -= 1
    h3[DECK, FE] += 1
    h3[HAND + 0, NA_] -= 1  # seat 1's Nanners <-> seat 2's Kitteh
    h3[HAND + 0, KI] += 1
    h3[HAND + 1, KI] -= 1
    h3[HAND + 1, NA_] += 1
    bots = _bots("heuristic", "heuristic", "search:200")
    sums = []
    for state in (g, h3):
        out = np.zeros(5)
        s = _stream()
        yumyum_values(state.copy(), 2, 1, bots, held, 0, *_args(deck, s), out)
        sums.append((out.tolist(), s.tolist()))
    assert sums[0] == sums[1]


def test_the_test_above_would_see_a_search_that_read_the_true_cards():
    """The swap changes what a bot that looked at the hidden cards would find: the same
    playouts run on the true states (no dealing) give other win shares."""
    from kernels.trash_pandas import whole as W
    from kernels.trash_pandas.search import base_bots

    g, deck = _midgame()
    h = _swapped(g)
    bots = base_bots(_bots("search:300", "heuristic", "heuristic"))
    pts, per_card, copies = deck
    totals = []
    for state in (g, h):
        tot = 0.0
        for k in range(200):
            gc = state.copy()
            s = _stream(k + 1)
            W.continue_game(gc, 0, 0, 1 << TRASH | 1 << PAW, W.ENTRY_STOP, 0, 0, bots, pts,
                            per_card, copies, RULES, *TABS, np.zeros(W.NACC),
                            s, np.zeros(16, np.int64))
            tot += W.win_share(gc, 0, 3, pts, per_card, RULES, np.zeros(16, np.int64),
                               np.zeros(4, np.int64))
        totals.append(tot)
    assert totals[0] != totals[1]


# ------------------------------------------------------------------------- one legal move
def test_a_lone_legal_move_is_played_without_searching():
    from kernels.trash_pandas.search import after_roll_search, yumyum_search
    from kernels.trash_pandas.whole_bots import TAKE

    g, deck = _midgame()
    bots = _bots("search:300", "heuristic", "heuristic")
    held = 1 << TRASH | 1 << PAW
    g[HAND + 0, BL] = g[HAND + 0, NA_] = 0  # no save in hand; Feesh: no Blammo!/Nanners to
    g[DISC, BL] = 0  # fetch from the discard pile
    g[DECK, [BL, NA_]] += (2, 1)
    s = _stream()
    assert after_roll_search(g, 0, bots[0], bots, held, 0, PAW, *_args(deck, s)) == TAKE
    assert after_roll_search(g, 0, bots[0], bots, held, 0, MASK, *_args(deck, s)) == TAKE
    # seat 1 as an opponent with no usable Yum Yum (its Yum Yum was gained this turn)
    g[GAIN + 0, YU] = 1
    assert not yumyum_search(g, 0, 2, bots, held, 2, 0, *_args(deck, s))
    assert s.tolist() == _stream().tolist()  # no search ran: the game's stream is untouched


# ------------------------------------------------------------------------- hand-built end games
def _two_player_end(deck):
    g = np.zeros((19, 8), dtype=np.int64)
    g[SC, 2] = 2
    g[SC, 1] = 1  # the pile is empty: the game ends with this turn
    return g


def test_it_stops_where_stopping_wins_for_sure():
    """Three Feesh; I hold trees and a Feesh, each of us has one Feesh stashed, the pile is
    empty. Stop: trees stashes my Feesh, 5 points to 3, a sure win (1). Roll: a repeat (1/6)
    busts into a Feesh tie (4 to 4, same types and cards: a shared win, 1/2), so rolling is
    worth at most 5/6 + 1/12 = 11/12 < 1."""
    from kernels.trash_pandas.search import A_STOP, N_RS, NA, tree_search

    deck = _deck(feesh=3)
    g = _two_player_end(deck)
    g[HAND + 0, FE] = 1
    g[STASH + 0, FE] = 1
    g[STASH + 1, FE] = g[UP + 1, FE] = 1
    stats = np.zeros((2, NA))
    choice = tree_search(g, 0, _bots("search:400", "heuristic"), 0, 1 << TREES, N_RS, 0,
                         *_args(deck, _stream()), stats)
    assert choice == A_STOP
    assert stats[1, A_STOP] == stats[0, A_STOP] > stats[0, 1]  # every stop won outright


def test_it_rolls_where_stopping_loses_for_sure_and_its_knobs_say_stop():
    """Three Feesh; I hold paw and a Feesh, the opponent has one Feesh stashed face up and an
    empty hand. Stop: paw steals nothing, I stash nothing, 0 points to 5: a sure loss (0).
    Roll: trees or the trash-tree (2/6) then stop stashes my Feesh: 4 to 4, a shared win (1/2);
    so rolling is worth more than 0. The base bot (stop-at=1) would stop."""
    from kernels.trash_pandas.search import A_ROLL, N_RS, NA, tree_search
    from kernels.trash_pandas.whole_bots import keep_rolling

    deck = _deck(feesh=2)
    g = _two_player_end(deck)
    g[HAND + 0, FE] = 1
    g[STASH + 1, FE] = g[UP + 1, FE] = 1
    bots = _bots("search:400:stop-at=1", "heuristic")
    base = _bots("heuristic:stop-at=1", "heuristic")
    s = _stream()
    assert not keep_rolling(g, 0, base[0], 1 << PAW, 1, 0, TABS[0], s)
    stats = np.zeros((2, NA))
    choice = tree_search(g, 0, bots, 0, 1 << PAW, N_RS, 0, *_args(deck, s), stats)
    assert choice == A_ROLL
    assert stats[1, 0] == 0.0 and stats[1, A_ROLL] > 0.0


def test_it_plays_yum_yum_where_passing_loses_for_sure():
    """Three Feesh and one Yum Yum (mine, in hand). Seat 1 stops holding trees with a Feesh in
    hand; each of us has one Feesh stashed face up; the pile is empty. Pass: seat 1 stashes its
    Feesh, 5 to 3, I lose (0). Play Yum Yum: seat 1 (heuristic, stop-at=3) must roll; it busts
    with 1/6, else holds 2 tokens and rolls again, busting with 2/6, else stops at 3 and wins:
    P(bust) = 1/6 + 5/6 · 2/6 = 4/9, and a bust leaves the 4-to-4 Feesh tie (a shared win,
    1/2): 2/9. The heuristic (yumyum-at=3) would pass with one token held."""
    from kernels.trash_pandas.search import yumyum_search, yumyum_values
    from kernels.trash_pandas.whole_bots import plays_yumyum

    deck = _deck(feesh=3, yumyum=1)
    g = _two_player_end(deck)
    g[HAND + 0, FE] = 1
    g[HAND + 1, YU] = 1
    g[STASH + 0, FE] = g[UP + 0, FE] = 1
    g[STASH + 1, FE] = g[UP + 1, FE] = 1
    bots = _bots("heuristic", "search:4000")
    held = 1 << TREES
    assert not plays_yumyum(g, 1, _bots("heuristic", "heuristic")[1], 1, _stream())
    sums = np.zeros(5)
    yumyum_values(g.copy(), 1, 0, bots, held, 0, *_args(deck, _stream()), sums)
    pairs = 2000
    assert sums[4] == pairs and sums[1] == 0.0
    assert sums[2] == sums[0] / 2  # each d is 1/2 or 0, so d² = d/2
    p = sums[0] / pairs  # each playout is 1/2 (a bust) or 0: p = P(bust)/2
    se = (p * (0.5 - p) / pairs) ** 0.5
    assert abs(p - 2 / 9) <= 5 * se
    assert yumyum_search(g.copy(), 1, 0, bots, held, 1, 0, *_args(deck, _stream()))


def test_nanners_saves_a_repeat_where_taking_it_only_shares():
    """The end game of the first test after rolling trees again with a Nanners in hand, in a
    deck where Nanners scores nothing: Nanners stops (trees stashes my Feesh: a sure win, 1);
    taking the repeat busts (1/2). (Were Nanners to score, the heuristic resolving the stop would
    play my Feesh to fetch the discarded Nanners and keep it, 1/2 as well.)"""
    from kernels.trash_pandas.search import NA, N_FACE, tree_search
    from kernels.trash_pandas.whole_bots import USE_NANNERS

    deck = _deck(pointless=(NA_,), feesh=3, nanners=1)
    g = _two_player_end(deck)
    g[HAND + 0, [FE, NA_]] = 1
    g[STASH + 0, FE] = 1
    g[STASH + 1, FE] = g[UP + 1, FE] = 1
    stats = np.zeros((2, NA))
    choice = tree_search(g, 0, _bots("search:200:nanners-saves=no", "heuristic"), 0,
                         1 << TREES, N_FACE, TREES, *_args(deck, _stream()), stats)
    assert choice == USE_NANNERS
    assert stats[1, 0] == stats[0, 0] / 2 and stats[1, USE_NANNERS] == stats[0, USE_NANNERS]


def test_the_searched_root_choice_replaces_the_heuristic_only_by_z_standard_errors():
    """keep_or_switch, by hand: the heuristic's choice h = 0 tried 10 times with 5 wins, the
    most visited b = 1 tried 30 times with 21: means 0.5 and 0.7, lead 0.2; smoothed means
    5.5/11 = 0.5 and 21.5/31; SE = sqrt(0.5·0.5/10 + (21.5/31)(9.5/31)/30) = 0.179122…"""
    from kernels.trash_pandas.search import NA, keep_or_switch

    nvis = np.zeros((1, NA))
    wsum = np.zeros((1, NA))
    nvis[0, :2] = (10, 30)
    wsum[0, :2] = (5, 21)
    se = (0.25 / 10 + (21.5 / 31) * (9.5 / 31) / 30) ** 0.5
    assert abs(se - 0.179122) < 1e-6
    assert keep_or_switch(nvis, wsum, 1, 0, 1.0) == 1  # 0.2 > 0.179
    assert keep_or_switch(nvis, wsum, 1, 0, 0.2 / se - 1e-9) == 1
    assert keep_or_switch(nvis, wsum, 1, 0, 0.2 / se + 1e-9) == 0  # 1.1166 SEs needed
    assert keep_or_switch(nvis, wsum, 1, 0, 2.0) == 0
    assert keep_or_switch(nvis, wsum, 1, 0, 0.0) == 1  # switch=0: the most visited
    assert keep_or_switch(nvis, wsum, 1, 1, 5.0) == 1  # they agree
    assert keep_or_switch(nvis, wsum, 1, -1, 5.0) == 1  # h not legal here
    wsum[0, :2] = (9, 10)  # the most visited leads by 1/3 - 0.9 < 0: never replaces h
    assert keep_or_switch(nvis, wsum, 1, 0, 0.5) == 0
    nvis[0, 0] = wsum[0, 0] = 0.0  # h never tried (one iteration): kept
    assert keep_or_switch(nvis, wsum, 1, 0, 1.0) == 0
    # all wins against all losses, 2 visits each: smoothed 2.5/3 and 0.5/3, SE = sqrt(2 ·
    # (5/36)/2) = 0.3727; lead 1 > 2 SEs, not 3
    nvis[0, :2] = (2, 2)
    wsum[0, :2] = (0, 2)
    assert keep_or_switch(nvis, wsum, 1, 0, 2.0) == 1
    assert keep_or_switch(nvis, wsum, 1, 0, 3.0) == 0


def test_a_yum_yum_lead_counts_one_more_world_of_no_difference():
    """paired_lead_holds, by hand: three worlds, d = 1 in each: with a fourth d = 0, mean 3/4,
    variance 3/4 − 9/16 = 3/16, SE = sqrt(3/16 / 3) = 1/4; the lead 1 holds below 4 SEs. Worlds
    that differ (d = 1, −1, 1, 1): Σd = 2, Σd² = 4, mean over 5 is 0.4, variance 0.8 − 0.16 =
    0.64, SE = sqrt(0.64/4) = 0.4; the lead 0.5 holds below 1.25 SEs."""
    from kernels.trash_pandas.search import paired_lead_holds

    assert paired_lead_holds(3.0, 3.0, 3.0, 3.99)
    assert not paired_lead_holds(3.0, 3.0, 3.0, 4.01)
    assert paired_lead_holds(-3.0, 3.0, 3.0, 3.99)  # a lead for passing counts the same
    assert paired_lead_holds(2.0, 4.0, 4.0, 1.24)
    assert not paired_lead_holds(2.0, 4.0, 4.0, 1.26)
    assert not paired_lead_holds(0.0, 2.0, 2.0, 0.01)


# ------------------------------------------------------------------------- whole games
def _game_json(threads: int) -> dict:
    env = {**os.environ, "NUMBA_NUM_THREADS": str(threads)}
    run = subprocess.run([sys.executable, "-m", "analyzer", "trash-pandas", "game", "--seats",
                          "search:200,heuristic,random", "-n", "9", "--seed", "3", "--json",
                          "--no-progress"], capture_output=True, text=True, env=env,
                         timeout=900)
    assert run.returncode == 0, run.stderr[-800:]
    out = json.loads(run.stdout)
    out.pop("games_per_second")
    return out


def test_same_seed_same_games_on_one_thread_and_on_two():
    """Three blocks of three games (search:200 plays 3 games a block): the blocks run in
    parallel on two threads, one after another on one."""
    one, two = _game_json(1), _game_json(2)
    assert one == two
    assert one["n"] == 9 and one["lineups"][0]["conservation_violations"] == 0


def test_the_switch_knob_reaches_the_kernel_column_and_the_label():
    """search's ``switch`` (default 1) is column K_SWITCH of the kernel's knob row; set away
    from its default it shows in the label, and the row has room for it (NK)."""
    from analyzer.games.trash_pandas.bots import NK
    from kernels.trash_pandas import whole_bots as B

    assert NK == B.NK and B.K_SWITCH == NK - 1
    default, plain, strict = (parse_bot(t) for t in ("search:200", "search:200:switch=0",
                                                     "search:200:switch=2.5"))
    assert default.row()[B.K_SWITCH] == 1.0 and default.label == "search:200"
    assert plain.row()[B.K_SWITCH] == 0.0 and plain.label == "search:200:switch=0"
    assert strict.row()[B.K_SWITCH] == 2.5 and strict.label == "search:200:switch=2.5"
    assert parse_bot("heuristic").row()[B.K_SWITCH] == 0.0  # no search: unused


def test_at_a_tiny_budget_the_switch_keeps_the_heuristics_roll_or_stop():
    """Two iterations, one per root choice: with switch=0 the search plays the choice of the
    one playout that won more; with a large switch it keeps the heuristic's (stop-at=1 stops)
    whatever the two playouts said. The end game of the stop-wins test, with the knob set to
    roll instead: the base heuristic rolls (stop-at=6) and the two-playout search stops."""
    from kernels.trash_pandas.search import A_ROLL, A_STOP, N_RS, NA, tree_search

    deck = _deck(feesh=3)
    g = _two_player_end(deck)
    g[HAND + 0, FE] = 1
    g[STASH + 0, FE] = 1
    g[STASH + 1, FE] = g[UP + 1, FE] = 1
    for text, want in (("search:2:stop-at=6:switch=0", A_STOP),
                       ("search:2:stop-at=6:switch=10", A_ROLL)):
        stats = np.zeros((2, NA))
        choice = tree_search(g.copy(), 0, _bots(text, "heuristic"), 0, 1 << TREES, N_RS, 0,
                             *_args(deck, _stream()), stats)
        assert stats[0, A_STOP] == stats[0, A_ROLL] == 1  # one playout each
        assert stats[1, A_STOP] == 1.0  # stopping wins outright
        assert choice == want, (text, stats)
