"""The Numba whole-game kernel against the plain-Python reference, conservation, and the exact
turn solver.

* game by game: the kernel and analyzer/games/trash_pandas/reference.py (written apart)
  replay the same stream and must end every game identically (scores, shares, turns, counters);
* card conservation after every turn over 12,000 seeded games (kernel flag counting violations);
* the solver bot with no dice cards in play: per-turn bust rate and P(all six) within 5 SE of
  the exact values of the same policy (PolicyEvaluator, analyzer/games/trash_pandas_policy.py).
"""
import math

import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.games.trash_pandas.lineup import parse_lineup
from analyzer.games.trash_pandas.whole import GameSetup
from analyzer.games.trash_pandas.reference import KEYS, play_reference_game
from analyzer.games.trash_pandas.rules import TrashPandasRules
from analyzer.games.trash_pandas.score import deck_arrays
from analyzer.rng import block_keys
from tests.test_sums_to_statistics_contracts import Z, same, same_prop


def _setup(players, seats, rules=TrashPandasRules(), copies=None, check=True):
    return GameSetup(rules, players, [parse_lineup(seats, players)], check=check,
                     deck=deck_arrays(rules.deck, copies))


CASES = [
    (3, "heuristic", TrashPandasRules()),
    (2, "random", TrashPandasRules()),
    (4, "solver", TrashPandasRules()),
    (3, "heuristic,random,solver", TrashPandasRules(mask_card="discard", kitteh_chain=False)),
    (4, "random,heuristic:stop-at=5:yumyum-at=1,random,heuristic:block=no:trash-tree=draw",
     TrashPandasRules(consolation="optional", tie="shared", deal="2345", bonus_cap=4)),
    (2, "heuristic:keep=0:steal-from=biggest-hand:block-with=doggo,random",
     TrashPandasRules(bonus_turn=False)),
    (3, "heuristic:band-by=deck:cut-1=15:stop-at=2:stop-at-2=5,"
        "heuristic:band-by=behind:cut-1=1:cut-2=3:stop-at=2:stop-at-2=4:stop-at-3=6,heuristic",
     TrashPandasRules()),
    (4, "heuristic:band-by=deck:cut-1=8:cut-2=25:stop-at=1:stop-at-2=3:stop-at-3=6,random,"
        "heuristic:band-by=behind:cut-1=2:stop-at=5:stop-at-2=2,solver",
     TrashPandasRules(bonus_cap=4)),
    # the rule readings away from the rulebook's, and the knobs of Feesh saves and declines
    (3, "heuristic,solver,random",
     TrashPandasRules(feesh_timing="resolve", gain_lock="all", shiny_timing="resolve")),
    (4, "heuristic:feesh-saves=no,solver:feesh-saves=no,heuristic:decline-last-card=trailing,"
        "random",
     TrashPandasRules(consolation="optional", gain_lock="all")),
    (2, "solver:decline-last-card=trailing,heuristic:decline-last-card=never",
     TrashPandasRules(consolation="optional", shiny_timing="resolve", bonus_cap=5)),
    (3, "heuristic:blammo-saves=no,heuristic:nanners-saves=no:keep=0,solver",
     TrashPandasRules(feesh_timing="any", kitteh_chain=False)),
]


@pytest.mark.parametrize("players, seats, rules", CASES)
def test_kernel_and_reference_play_the_same_games(players, seats, rules):
    setup = _setup(players, seats, rules)
    games = 40
    keys = block_keys(20261130 + players, 0, games)
    out = setup.run_blocks(keys, np.ones(games, dtype=np.int64))  # one game per block
    cols = setup.columns()
    for i in range(games):
        ref = play_reference_game(players, setup.deck, setup.rules_arr, setup.deal,
                                  setup.bots[0], (setup.roll_tab, setup.after_tab), keys[i], 0)
        row = dict(zip(cols, out[i]))
        assert [row[f"L0:pts{j}"] for j in range(players)] == ref["scores"], f"game {i}"
        assert [row[f"L0:win{j}"] for j in range(players)] == pytest.approx(ref["shares"])
        assert row["L0:turns"] == ref["turns"]
        assert row["L0:margin"] == ref["margin"] and row["L0:tiebreak"] == ref["tied"]
        for name, value in ref["counts"].items():
            assert row[f"L0:{name}"] == value, f"game {i}: {name}"
        assert row["L0:violations"] == 0


def test_cards_are_conserved_after_every_turn_over_many_games():
    setup = _setup(3, "heuristic,random,solver")
    keys = block_keys(11, 0, 24)
    out = setup.run_blocks(keys, np.full(24, 500, dtype=np.int64))
    s = dict(zip(setup.columns(), out.sum(axis=0)))
    assert s["L0:games"] == 12_000
    assert s["L0:violations"] == 0 and s["L0:truncated"] == 0
    # win shares: every game hands out exactly one win (ties shared)
    assert s["L0:win0"] + s["L0:win1"] + s["L0:win2"] == pytest.approx(12_000)
    # and every card effect happened somewhere in these games
    for name in ("blammo", "nanners", "yumyum", "doggo", "kitteh", "pie", "feesh", "shiny",
                 "paw_steals", "shiny_steals", "mask_reactions", "bonus_turns", "feesh_saves"):
        assert s[f"L0:{name}"] > 0, name


def test_solver_bot_without_dice_cards_matches_the_exact_turn_values():
    from analyzer.games.trash_pandas.exact import TurnSolver
    from analyzer.games.trash_pandas.rules import ValueModel
    from analyzer.games.trash_pandas.play import PolicyEvaluator, PolicySpec, build_tables
    from analyzer.stats import wilson

    rules = TrashPandasRules()
    no_dice_cards = {"blammo": 0, "nanners": 0, "pie": 0, "yumyum": 0}
    setup = _setup(2, "solver", rules, copies=no_dice_cards, check=False)
    solver = TurnSolver(ValueModel(), rules)
    exact = PolicyEvaluator(build_tables(PolicySpec("optimal"), solver, 0, 0, 0), solver).turn()
    out = setup.run_blocks(block_keys(5, 0, 16), np.full(16, 1000, dtype=np.int64))
    s = dict(zip(setup.columns(), out.sum(axis=0)))
    turns = int(s["L0:main_turns"])
    assert turns > 50_000
    bust = wilson(s["L0:main_busts"], turns)
    six = wilson(s["L0:sixes"], turns)
    assert abs(bust.estimate - exact["bust_rate"]) <= 5 * bust.se
    assert abs(six.estimate - exact["p_all_six"]) <= 5 * max(six.se, 1e-12)


def test_same_seed_same_numbers_and_two_player_first_player_advantage_is_an_interval():
    from analyzer.games.trash_pandas.whole import simulate_games
    from analyzer.runner import RunSpec

    setup = _setup(2, "heuristic", check=False)
    a = simulate_games(setup, RunSpec(4000, 3, progress=False))
    b = simulate_games(setup, RunSpec(4000, 3, progress=False))
    assert a["lineups"][0]["seats"][0]["win_rate"] == b["lineups"][0]["seats"][0]["win_rate"]
    fpa = a["first_player_advantage"]
    assert fpa.ci_low < fpa.estimate < fpa.ci_high and fpa.n == 4000
    total = sum(s["win_rate"].estimate for s in a["lineups"][0]["seats"])
    assert total == pytest.approx(1.0)


def test_scoring_kernel_agrees_with_the_end_of_game_scorer_on_random_stashes():
    from analyzer.games.trash_pandas.score import CardType, score
    from kernels.trash_pandas.whole_state import STASH, new_state, score_game

    deck = deck_arrays()
    cards = {k: CardType(k, k, int(deck.copies[t]), tuple(int(x) for x in deck.pts[t]),
                         int(deck.per_card[t])) for t, k in enumerate(KEYS)}
    rng = np.random.default_rng(4)
    for _ in range(300):
        players = int(rng.integers(2, 5))
        g = new_state()
        g[STASH:STASH + players] = rng.integers(0, 4, size=(players, 8))
        got = np.zeros(4, dtype=np.int64)
        score_game(g, deck.pts, deck.per_card, players, np.zeros(4, np.int64),
                   np.zeros(4, np.int64), got)
        want = score({str(i): {k: int(g[STASH + i, t]) for t, k in enumerate(KEYS)}
                      for i in range(players)}, cards)["scores"]
        assert list(got[:players]) == [want[str(i)] for i in range(players)]


def test_banded_stop_limits_follow_the_feature_by_hand():
    """The stop limit in bands (whole_bots.keep_rolling and the reference), with the cards left
    and the stash sizes set by hand: deck 9/12/20 against cuts 10 and 20 gives limits 2/4/6;
    stashes 2, 5, 3 put seat 0 three cards behind (seat 1 leads: 0 behind)."""
    from analyzer.games.trash_pandas.lineup import parse_bot
    from analyzer.games.trash_pandas.reference import Game, bot_dict
    from kernels.rng import seed_trial
    from kernels.trash_pandas.whole_bots import keep_rolling, stash_behind
    from kernels.trash_pandas.whole_state import NROWS, NT, SC, STASH

    g = np.zeros((NROWS, NT), dtype=np.int64)
    g[SC, 2] = 3
    for p, size in enumerate((2, 5, 3)):
        g[STASH + p, p] = size
    assert [stash_behind(g, p) for p in range(3)] == [3, 0, 2]
    s = np.zeros(4, dtype=np.uint64)
    seed_trial(block_keys(1, 0, 1)[0], 0, s)
    tab = np.zeros(1, dtype=np.uint8)
    deck = parse_bot("heuristic:band-by=deck:cut-1=10:cut-2=20:stop-at=2:stop-at-2=4:stop-at-3=6"
                     ).row()
    behind = parse_bot("heuristic:band-by=behind:cut-1=3:stop-at=2:stop-at-2=5").row()
    plain = parse_bot("heuristic:stop-at=4:bonus-stop-at=2").row()

    def limit(bot, p, left, mode):
        g[SC, 0] = left
        return next(nh for nh in range(1, 7)
                    if not keep_rolling(g, p, bot, 0, nh, mode, tab, s))

    for mode in (0, 1):  # bands apply in a bonus turn too
        assert [limit(deck, 0, left, mode) for left in (9, 10, 12, 19, 20, 30)] == \
            [2, 4, 4, 4, 6, 6]
        assert [limit(behind, p, 12, mode) for p in range(3)] == [5, 2, 2]
    assert [limit(plain, 0, 12, mode) for mode in (0, 1)] == [4, 2]

    ref = Game.__new__(Game)  # the reference's rule on the same situation
    ref.pile = [12]
    ref.seats = [type("S", (), {"stash": [size], "bot": None})() for size in (2, 5, 3)]
    ref.kind = lambda p: 0
    for bot, p, want in ((deck, 0, 4), (behind, 0, 5), (behind, 1, 2)):
        ref.seats[p].bot = bot_dict(bot)
        assert [ref.keep_rolling(p, 0, nh, 0) for nh in range(1, 7)].index(False) + 1 == want


@pytest.mark.parametrize("text, message", [
    ("heuristic:band-by=deck", "needs cut-1"),
    ("heuristic:band-by=behind:cut-1=3:cut-2=2", "cut-2 must be 0"),
    ("heuristic:band-by=score:cut-1=3", "must be one of"),
])
def test_banded_stop_knobs_are_checked(text, message):
    from analyzer.errors import UserError
    from analyzer.games.trash_pandas.lineup import parse_bot

    with pytest.raises(UserError, match=message):
        parse_bot(text)


# ---- `game`'s result from planted sums: every statistic against the textbook formula -------------

def _planted_games():
    """Two line-ups of two players over the same 5 games, per game: win shares of seats 1-2,
    points, margin, turns, rounds, top points tied, still shared, truncated, conservation
    violations, and the 20 counters of kernels/trash_pandas/whole.py (main turns written out,
    counter j of game g otherwise (3j + 5g + shift) mod 11)."""
    from kernels.trash_pandas.whole import COUNTERS

    def lineup(shift, wins0, tied, shared, rounds):
        games = []
        for g in range(5):
            counters = {c: (3 * j + 5 * g + shift) % 11 for j, c in enumerate(COUNTERS)}
            counters["main_turns"] = (30, 32, 28, 41, 35)[g] + shift
            games.append({"win0": wins0[g], "win1": 1 - wins0[g],
                          "pts0": (30, 22, 25, 40, 19)[g] + shift,
                          "pts1": (20, 28, 25, 18, 33)[g] - shift,
                          "margin": (10, 6, 0, 22, 14)[g] + 2 * shift,
                          "turns": (24, 30, 26, 41, 28)[g] + shift, "rounds": rounds[g],
                          "tiebreak": tied[g], "shared": shared[g],
                          "truncated": (0, 0, 0, 1, 0)[g] * (1 - shift),
                          "violations": (0, 2, 0, 1, 0)[g] + shift, **counters})
        return games

    return [lineup(0, (1, 0, 0.5, 1, 0), (0, 1, 1, 1, 0), (0, 0, 1, 0, 0), (3, 5, 3, 25, 4)),
            lineup(1, (0, 0, 1, 1, 0.5), (1, 1, 0, 0, 1), (1, 0, 0, 0, 1), (4, 4, 6, 2, 20))]


def _game_sums(setup, games):
    """The kernel's named column sums of the planted games (per line-up, then the paired
    win-share differences of line-up 2 against line-up 1)."""
    sums = dict.fromkeys(setup.columns(), 0.0)
    for l, lineup in enumerate(games):
        for game in lineup:
            sums[f"L{l}:games"] += 1
            for name, x in game.items():
                sums[f"L{l}:{name}"] += x
                if name not in ("tiebreak", "shared", "truncated", "violations"):
                    sums[f"L{l}:{name}_sq"] += x * x
            r = game["rounds"]
            sums[f"L{l}:rounds_{r}" if r < 20 else f"L{l}:rounds_20+"] += 1
    for i in range(2):
        for g in range(len(games[0])):
            d = games[1][g][f"win{i}"] - games[0][g][f"win{i}"]
            sums[f"L1-L0:dwin{i}"] += d
            sums[f"L1-L0:dwin{i}_sq"] += d * d
    return sums


def test_game_result_every_field_from_planted_sums():
    from analyzer.games.trash_pandas.whole import MEANS, simulate_games
    from analyzer.rules import rules_to_dict
    from analyzer.runner import RunResult, RunSpec

    games = _planted_games()
    setup = GameSetup(TrashPandasRules(), 2, [parse_lineup("heuristic", 2),
                                              parse_lineup("random,heuristic", 2)], check=False)
    sums = _game_sums(setup, games)
    seen = []

    class Planted(RunSpec):
        def run(self, job, **kwargs):
            seen.append(job)
            return RunResult(np.array(list(sums.values())), 5, self.seed, 1, 0.25,
                             interrupted=True, stopped_by="interrupt")

    out = simulate_games(setup, Planted(5, 17, progress=False))
    assert [lu["lineup"] for lu in out["lineups"]] == ["heuristic", "random,heuristic"]
    for l, lu in enumerate(out["lineups"]):
        col = {k: [g[k] for g in games[l]] for k in games[l][0]}
        for i, seat in enumerate(lu["seats"]):
            assert seat["seat"] == i + 1
            same_prop(seat["win_rate"], sum(col[f"win{i}"]), 5)
            same(seat["points"], col[f"pts{i}"])
        for name in MEANS:
            same(lu[name], col[name])
        tied, shared = sum(col["tiebreak"]), sum(col["shared"])
        same_prop(lu["tiebreak_share"], tied, 5)
        same_prop(lu["decided_by_tiebreak"], tied - shared, 5)
        same_prop(lu["shared_wins"], shared, 5)
        same_prop(lu["bust_rate_per_turn"], sum(col["main_busts"]), sum(col["main_turns"]))
        assert lu["truncated_games"] == (1, 0)[l]
        assert lu["conservation_violations"] == (3, 8)[l]
        buckets = ([("3", 2), ("4", 1), ("5", 1), ("20+", 1)],
                   [("2", 1), ("4", 2), ("6", 1), ("20+", 1)])[l]
        assert [h["rounds"] for h in lu["rounds_histogram"]] == [b for b, _ in buckets]
        for h, (_, k) in zip(lu["rounds_histogram"], buckets):
            same_prop(h["share"], k, 5)
    # by hand: line-up 1 seat 1 won 2.5 of 5 games, line-up 2 seat 1 2.5 too; 3 of 5 tied at
    # the top in line-up 1, one of them still shared
    assert out["lineups"][0]["seats"][0]["win_rate"].estimate == 0.5
    assert out["lineups"][0]["tiebreak_share"].estimate == 0.6
    # line-up 2 against line-up 1, seat by seat on the same games: d = L2 − L1
    assert "vs_first" not in out["lineups"][0]
    vs = out["lineups"][1]["vs_first"]
    d0 = [-1, 0, 0.5, 0, 0.5]  # seat 1: 0 − 1, 0 − 0, 1 − 0.5, 1 − 1, 0.5 − 0
    for i, d in enumerate((d0, [-x for x in d0])):
        assert vs[i]["seat"] == i + 1
        same(vs[i]["win_rate_change"], d)
        assert vs[i]["verdict"] == "too close to call"
    # seat 1's win share minus the fair 1/2, game by game
    same(out["first_player_advantage"], [0.5, -0.5, 0, 0.5, -0.5])
    assert {k: v for k, v in out.items() if k not in ("lineups", "first_player_advantage")} == {
        "game": "trash-pandas", "exact": False, "seed": 17, "n": 5, "players": 2,
        "rules": rules_to_dict(TrashPandasRules()), "games_per_second": 5 / 0.25,
        "stopped_by": "interrupt", "interrupted": True}
    # the job: 512 games a block, counted in games; its headline is the half-width of line-up
    # 1's seat 1 win rate: shares 1, 0, 0.5, 1, 0 have mean 0.5 and
    # Σ(x − 0.5)² = 0.25 + 0.25 + 0 + 0.25 + 0.25 = 1, so s² = 1/4
    (job,) = seen
    assert (job.name, job.unit, job.block_size) == ("trash-pandas games", "games", 512)
    vals = np.array(list(sums.values()))
    assert job.headline_half_width(vals, 5) == pytest.approx(Z * math.sqrt(1 / 4 / 5))
    # line-up 2's seat 1 wins 0.5 more of every game (d = +0.5, SE 0): better; seat 2 worse
    for g in range(5):
        games[1][g]["win0"], games[1][g]["win1"] = 1.0, 0.0
        games[0][g]["win0"], games[0][g]["win1"] = 0.5, 0.5
    sums = _game_sums(setup, games)
    vs = simulate_games(setup, Planted(5, 17, progress=False))["lineups"][1]["vs_first"]
    assert [(d["seat"], d["verdict"]) for d in vs] == [(1, "better"), (2, "worse")]


def test_swapping_line_ups_solves_the_solver_tables_only_when_a_solver_joins():
    setup = _setup(2, "heuristic", check=False)
    assert not setup.roll_tab.any() and not setup.after_tab.any()  # no solver: zeros
    solver = setup.with_lineups([parse_lineup("solver", 2)])
    assert setup.lineups == [parse_lineup("heuristic", 2)]  # the original is left as it was
    assert solver.lineups == [parse_lineup("solver", 2)] and isinstance(solver.lineups, list)
    assert np.array_equal(solver.bots, _setup(2, "solver", check=False).bots)
    assert solver.roll_tab.any() and solver.after_tab.any()
    assert solver.rules is setup.rules and solver.deck is setup.deck
    # from a solver line-up to another with a solver: the tables are kept, not solved again;
    # between line-ups without one: the zeros are kept
    again = solver.with_lineups((parse_lineup("heuristic,solver", 2),))
    assert again.roll_tab is solver.roll_tab and again.after_tab is solver.after_tab
    plain = setup.with_lineups([parse_lineup("random", 2)])
    assert plain.roll_tab is setup.roll_tab and plain.after_tab is setup.after_tab


def test_length_histogram_of_each_line_up():
    from analyzer.games.trash_pandas.whole import length_histogram
    from analyzer.stats import Statistic

    def share(p):
        return {"share": Statistic(p, 0.0, p, p, 8)}

    result = {"lineups": [{"rounds_histogram": [{"rounds": "3", **share(0.25)},
                                                {"rounds": "20+", **share(0.75)}]},
                          {"rounds_histogram": [{"rounds": "5", **share(1.0)}]}]}
    assert length_histogram(result) == {"3": 0.25, "20+": 0.75}
    assert length_histogram(result, 1) == {"5": 1.0}


def test_the_python_reference_walks_the_kernels_blocks_and_streams(monkeypatch):
    from analyzer.games.trash_pandas import reference
    from analyzer.games.trash_pandas.whole import python_reference_games

    seen = []

    def game(players, deck, rules_arr, deal, bots, tables, key, index):
        seen.append((players, deck.copies.tolist(), rules_arr.tolist(), deal.tolist(),
                     bots.tolist(), [t.any() for t in tables], key.tolist(), index))
        # seat 1 wins each block's first game and shares its second
        return {"shares": [{0: 1.0, 1: 0.5}.get(index, 0.0), 0.0]}

    monkeypatch.setattr(reference, "play_reference_game", game)
    # 1,030 games: blocks of 512 (the kernel's block size), the third holding 6; 3 wins and 3
    # halves
    assert python_reference_games(1030, 9) == pytest.approx(4.5 / 1030)
    keys = block_keys(9, 0, 3).tolist()
    assert len(seen) == 1030
    assert [s[6:] for s in seen[:2]] == [(keys[0], 0), (keys[0], 1)]
    assert [s[6:] for s in (seen[511], seen[512], seen[1029])] == [
        (keys[0], 511), (keys[1], 0), (keys[2], 5)]
    heuristic3 = _setup(3, "heuristic", check=False)
    players, copies, rules_arr, deal, bots, tables = seen[0][:6]
    assert players == 3 and deal == [3, 4, 5, 0]  # the 3456 deal for three players
    assert copies == heuristic3.deck.copies.tolist()
    assert rules_arr == heuristic3.rules_arr.tolist()
    assert bots == heuristic3.bots[0].tolist() and tables == [False, False]
    seen.clear()
    assert python_reference_games(2, 4, players=2, bot="solver") == pytest.approx(0.75)
    assert seen[0][0] == 2 and seen[0][3] == [3, 4, 0, 0]
    assert seen[0][4] == _setup(2, "solver", check=False).bots[0].tolist()
    assert seen[0][5] == [True, True]  # a solver plays: its tables are solved


def test_rules_array_entry_by_entry_and_the_setup_checks():
    """kernels/trash_pandas/whole.py's int64[11] rules: bonus turn, bonus cap, optional
    consolation, conservation check, turn cap, Mask's card to the discard pile, Kitteh chain,
    shared ties, Feesh and Shiny only while resolving, gain lock for all."""
    from analyzer.games.trash_pandas.whole import deal_for, rules_array

    assert rules_array(TrashPandasRules()).tolist() == [1, 3, 0, 0, 2000, 0, 1, 0, 0, 0, 0]
    off = TrashPandasRules(bonus_turn=False, bonus_cap=4, consolation="optional",
                           mask_card="discard", kitteh_chain=False, tie="shared",
                           feesh_timing="resolve", gain_lock="all", shiny_timing="resolve")
    arr = rules_array(off, True, 77)
    assert arr.tolist() == [0, 4, 1, 1, 77, 1, 0, 1, 1, 1, 1] and arr.dtype == np.int64
    # the deals (docs: 3456 and a preview copy's 2345), unused seats 0
    assert deal_for(TrashPandasRules(), 2).tolist() == [3, 4, 0, 0]
    assert deal_for(TrashPandasRules(deal="2345"), 4).tolist() == [2, 3, 4, 5]
    # a setup counts conservation violations when asked; whole games check the deal first
    assert _setup(2, "heuristic", check=True).rules_arr[3] == 1
    assert _setup(2, "heuristic", check=False).rules_arr[3] == 0
    tiny = deck_arrays(TrashPandasRules().deck, {**dict.fromkeys(KEYS, 0), "feesh": 7})
    with pytest.raises(UserError) as e:
        GameSetup(TrashPandasRules(), 2, [parse_lineup("heuristic", 2)], deck=tiny)
    assert str(e.value) == "the deck holds 7 cards, too few to deal 7"
    assert GameSetup(TrashPandasRules(), 2, [parse_lineup("heuristic", 2)], deck=tiny,
                     from_setup=False).deck is tiny


def test_rollout_line_ups_play_on_the_rollout_engine():
    import kernels.trash_pandas.whole_decide as plain_decide
    import kernels.trash_pandas.whole_games as plain
    import kernels.trash_pandas.whole_rollout as rollout

    setup = _setup(2, "rollout:2,heuristic", check=False)
    assert setup.kernel("play_games") is rollout.play_games
    assert setup.kernel("decide_blocks") is rollout.decide_blocks
    setup = _setup(2, "heuristic", check=False)
    assert setup.kernel("play_games") is plain.play_games
    assert setup.kernel("decide_blocks") is plain_decide.decide_blocks


def test_every_line_up_plays_the_same_deal_and_its_paired_difference_by_hand():
    """Common random numbers between line-ups, as a contract: with two line-ups in one run,
    line-up 1's game t is the reference game of line-up 1's bots on game t's stream (the same
    stream line-up 0 plays), and the paired column ``L1-L0:dwin{i}`` is line-up 1's win share
    minus line-up 0's, game by game; each game lands in the length histogram's bucket of its
    rounds (⌈turns / players⌉). Two identical line-ups give identical columns."""
    players = 3
    a, b = parse_lineup("heuristic", players), parse_lineup("random,solver,heuristic", players)
    setup = GameSetup(TrashPandasRules(), players, [a, b], check=True, deck=deck_arrays())
    games = 24
    keys = block_keys(20261207, 0, games)
    out = setup.run_blocks(keys, np.ones(games, dtype=np.int64))
    cols = setup.columns()
    for i in range(games):
        row = dict(zip(cols, out[i]))
        refs = [play_reference_game(players, setup.deck, setup.rules_arr, setup.deal,
                                    setup.bots[k], (setup.roll_tab, setup.after_tab), keys[i], 0)
                for k in (0, 1)]
        for k, ref in enumerate(refs):
            assert [row[f"L{k}:pts{j}"] for j in range(players)] == ref["scores"], (i, k)
            assert row[f"L{k}:turns"] == ref["turns"], (i, k)
            # the length histogram counts rounds: a round is one turn of each player
            rounds = -(-ref["turns"] // players)
            bucket = f"L{k}:rounds_{rounds}" if rounds < 20 else f"L{k}:rounds_20+"
            hist = {c: row[c] for c in cols
                    if c.startswith(f"L{k}:rounds_") and c[len(f"L{k}:rounds_")].isdigit()}
            assert len(hist) == 20
            assert hist[bucket] == 1 and sum(hist.values()) == 1, (i, k, rounds)
        for j in range(players):
            d = refs[1]["shares"][j] - refs[0]["shares"][j]
            assert row[f"L1-L0:dwin{j}"] == pytest.approx(d)
            assert row[f"L1-L0:dwin{j}_sq"] == pytest.approx(d * d)
    twice = GameSetup(TrashPandasRules(), players, [b, b], check=True, deck=deck_arrays())
    out = twice.run_blocks(keys, np.ones(games, dtype=np.int64))
    cols = twice.columns()
    l0 = [c for c in cols if c.startswith("L0:")]
    for c in l0:
        assert (out[:, cols.index(c)] == out[:, cols.index("L1:" + c[3:])]).all(), c
    assert not out[:, [cols.index(c) for c in cols if c.startswith("L1-L0:")]].any()
