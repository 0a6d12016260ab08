"""The games' rules modules (analyzer/games/*/rules.py): house-rule checks, notation parsers and
their refusal lines, the small helpers every other module leans on.

Expected values are read off the rules pages (docs/rules/*.md: card and token names, the
board notation, the deck) or worked out by hand in the comments; refusals are checked to the
whole line, as the user sees it.
"""
import numpy as np
import pytest

from analyzer.errors import UserError


def refusal(fn, *args, **kwargs) -> str:
    with pytest.raises(UserError) as exc:
        fn(*args, **kwargs)
    return str(exc.value)


# ----------------------------------------------------------------------------- MAGDAGDON
from analyzer.games.magdagdon import rules as M  # noqa: E402

MR = M.MagdagdonRules()


def test_magdagdon_rules_need_one_cost_per_power():
    M.MagdagdonRules(survival_powers=1, survival_costs=(70,)).check()
    assert refusal(M.MagdagdonRules(survival_powers=2).check) == (
        "rule 'survival_costs' lists 1 costs but 'survival_powers' is 2: give one cost per power")


def test_difficulty_names_are_read_in_any_case_and_shown_in_capitals():
    d = M.difficulty(MR, " Survival ")
    assert (d.name, d.min_dice, d.powers, d.costs) == ("SURVIVAL", 2, 1, (70,))
    assert d.penalty(0) == 0 and d.penalty(1) == 70
    assert refusal(M.difficulty, MR, "easy") == (
        "unknown difficulty 'easy' (use peaceful, survival or nightmare)")


def test_board_notation_reads_both_ruin_letters_and_prints_back():
    cells = M.parse_board("1.X./x6../..../...5", MR)
    assert cells.dtype == np.int8
    assert cells.tolist() == [1, 0, 7, 0, 7, 6, 0, 0] + [0] * 7 + [5]
    assert M.format_board(cells, 4) == "1.x./x6../..../...5"
    assert M.empties(cells) == 11


def test_tolerance_check_accepts_neighbours_within_it():
    # every side-by-side pair differs by at most 1 (exactly 1 along rows and columns), numbers
    # sit in the last row and in the first cell of the last row; a ruin touches a 5; the 6
    # ending row 1 and the 1 starting row 2 are not neighbours
    for text in ("1234/2345/3456/4566", "x5../..../..../....", "...6/1.../..../...."):
        M.check_tolerance(M.parse_board(text, MR), MR)


@pytest.mark.parametrize("text,pairs", [
    ("61.1/...6/..../....", "r1c1=6 and r1c2=1; r1c4=1 and r2c4=6"),  # a row and a column
    (".16./..../..../....", "r1c2=1 and r1c3=6"),  # after an empty cell
    ("..16/..../..../....", "r1c3=1 and r1c4=6"),  # the last two columns
    ("..../..../..../..31", "r4c3=3 and r4c4=1"),  # the last row, a 1 after a 3
])
def test_tolerance_check_names_every_pair_too_far_apart(text, pairs):
    assert refusal(M.check_tolerance, M.parse_board(text, MR), MR) == (
        "impossible board: adjacent numbers differ by more than the tolerance 1: " + pairs)


def test_roll_notation_and_its_refusals():
    assert M.parse_roll("3-4, 46", MR) == [3, 4, 4, 6]
    assert refusal(M.parse_roll, "12X4", MR) == "roll '12X4': 'X' is not a die value 1-6"
    assert refusal(M.parse_roll, "123", MR) == (
        "roll '123' has 3 dice; expected 4 (dice_per_roll)")
    counts = M.counts_of([1, 1, 6])
    assert counts.tolist() == [0, 2, 0, 0, 0, 0, 1] and counts.dtype == np.int64


def test_the_turns_minimum_is_capped_by_the_dice_rolled():
    one_die = M.MagdagdonRules(dice_per_roll=1)
    empty = M.parse_board("..../..../..../....", one_die)
    assert M.min_dice(empty, one_die, M.difficulty(one_die, "nightmare")) == 1
    shown = M.rules_dict(MR)
    assert shown["board_size"] == 4 and shown["peaceful_costs"] == [10, 20, 40]


# ----------------------------------------------------------------------------- Go-Stop
from analyzer.games.gostop import rules as GS  # noqa: E402


def test_gostop_allows_five_jokers_and_refuses_six():
    GS.GoStopRules(jokers=(1, 2, 3, 4, 5)).check()
    assert refusal(GS.GoStopRules(jokers=(2,) * 6).check) == (
        "rule 'jokers' lists 6 jokers; at most 5")


def test_card_names_and_months():
    r = GS.GoStopRules(jokers=(2, 3))
    assert [GS.card_name(c, r) for c in (0, 47, 48, 49)] == ["01B", "12D", "X2", "X3"]
    assert [GS.month_of(c) for c in (0, 3, 4, 47, 48, 49)] == [1, 1, 2, 12, 0, 0]


def test_card_pool_hands_out_each_card_once_and_names_both_places():
    pool = GS.CardPool(GS.GoStopRules())
    assert pool.parse("01B 02a", "hand") == [0, 4]
    assert refusal(pool.parse, "01B", "captured") == (
        "card 01B appears twice (in hand and in captured)")
    assert refusal(GS.parse_cards, "01B,,02A", GS.GoStopRules()) == (
        "cards: an empty item in '01B,,02A'")
    assert GS.parse_cards("  ", GS.GoStopRules()) == []


def test_jokers_are_taken_by_value_one_copy_at_a_time():
    r = GS.GoStopRules(jokers=(2, 2, 3))
    assert GS.parse_cards("12D X2 X2 X3", r) == [47, 48, 49, 50]
    assert refusal(GS.parse_cards, "X2 X2 X2", r, "hand") == (
        "joker X2 in hand: the deck has only 2 such joker(s)")
    assert refusal(GS.parse_cards, "X5", r, "hand") == (
        "joker X5 in hand is not in the deck (jokers: X2, X2, X3)")
    assert refusal(GS.parse_cards, "X2", GS.GoStopRules(jokers=()), "hand") == (
        "joker X2 in hand is not in the deck (jokers: none)")


def test_gostop_rules_vector_switches_and_jokers():
    from kernels.gostop import score as K

    flags = (K.R_FLEX, K.R_NAGSTACK, K.R_BOMBK, K.R_JAANY, K.R_LASTK)
    default = GS.rules_vector(GS.GoStopRules())
    assert default.dtype == np.int64 and [int(default[i]) for i in flags] == [0] * 5
    v = GS.rules_vector(GS.GoStopRules(sake_cup="flex", nagari_multiplier="stack",
                                       bomb_bonus="korean", ja_ppuk_scope="any",
                                       last_turn_events="korean", jokers=(2, 3)))
    assert [int(v[i]) for i in flags] == [1] * 5
    assert (int(v[K.R_NJ]), int(v[K.R_JV]), int(v[K.R_JV + 1])) == (2, 2, 3)


# ----------------------------------------------------------------------------- Canasta
from analyzer.games.canasta import rules as C  # noqa: E402


@pytest.mark.parametrize("kw,message", [
    ({"requirement_values": (15, 50)},
     "rule 'requirement_values' must have one more entry than 'requirement_thresholds'"),
    ({"requirement_thresholds": (0, 5000, 5000, 15000)},
     "rule 'requirement_thresholds' must be strictly increasing"),
    ({"requirement_values": (15, 50, -1, 120, 150)},
     "rule 'requirement_values' must be non-negative"),
    # 2 players dealt 53 + 53 cards use all 2 × 106 (the up-card needs one more)
    ({"hand_size": 53, "kitty_size": 53}, "hands and kitties use up the whole deck"),
])
def test_canasta_rule_checks(kw, message):
    assert refusal(C.CanastaRules(**kw).check) == message


def test_canasta_rule_checks_at_their_limits():
    C.CanastaRules(requirement_values=(0, 50, 90, 120, 150)).check()  # a zero minimum is fine
    C.CanastaRules(hand_size=52, kitty_size=53).check()  # 2 × 105 + 1 = 211 of 212 cards


def test_canasta_jokers_and_bad_cards():
    assert C.parse_card("joker") == (C.JOKER, "JK") and C.parse_card("*") == (C.JOKER, "JK")
    assert C.parse_card("3d") == (C.RED3, "3D") and C.parse_card("3C") == (C.BLACK3, "3C")
    assert refusal(C.parse_card, "ZZ") == (
        "bad card 'ZZ': write rank + suit (QS, 7H, TD, 2C, AS) or JK")


# ----------------------------------------------------------------------------- Trash Pandas
from analyzer.games.trash_pandas import rules as TP  # noqa: E402


def test_token_values_follow_the_weights():
    # trash draws 2 cards, trees stashes 2, trash-tree does one or the other (the better)
    v = TP.ValueModel(draw=2, stash=3, steal=0.5, mask=0.25)
    assert v.token_values() == (4, 6, 3, 0.5, 0.25)


def test_value_weights_parse_and_keep_the_defaults():
    assert TP.parse_values(None) == TP.ValueModel() and TP.parse_values("") == TP.ValueModel()
    assert TP.parse_values(" draw = 1.5, stash=0.5 ") == TP.ValueModel(draw=1.5, stash=0.5)
    # the card weight alone may be negative (cards can cost); zero and fractions are weights
    assert TP.parse_values("card=-1,bust=0,steal=0.5") == TP.ValueModel(card=-1, bust=0,
                                                                        steal=0.5)


@pytest.mark.parametrize("text,message", [
    ("draw=1,,stash=1", "--value 'draw=1,,stash=1' has an empty item"),
    ("draw", "--value expects key=number pairs, got 'draw'"),
    ("luck=1", "unknown value weight 'luck' (known: draw, stash, steal, mask, card, bust)"),
    ("draw=1,draw=2", "value weight 'draw' given twice in --value 'draw=1,draw=2'"),
    ("draw=1=2", "value weight 'draw' must be a number, got '1=2'"),
    ("draw=nan", "value weight 'draw' must be finite"),
    ("draw=inf", "value weight 'draw' must be finite"),
    ("card=-inf", "value weight 'card' must be finite"),
    ("bust=-1", "value weight 'bust' must be non-negative, got -1.0"),
])
def test_value_weight_refusals(text, message):
    assert refusal(TP.parse_values, text) == message


def test_held_tokens_notation():
    for nothing in (None, "", " none ", "NONE", "-"):
        assert TP.parse_held(nothing) == 0
    assert TP.parse_held("Trash, bandit,wild") == 0b110001  # mask is bit 4, recycle bit 5
    assert refusal(TP.parse_held, "trash,Banana") == (
        "unknown token 'banana' (tokens: trash, trees, trash-tree, paw, mask, recycle)")
    assert refusal(TP.parse_held, "steal,paw") == "token 'paw' listed twice"
    assert TP.held_names(0b000101) == ["trash", "trash-tree"]
    assert TP.held_label(0) == "none" and TP.held_label(0b100010) == "trees,recycle"


def test_without_a_bonus_turn_the_cap_is_reset_in_the_canonical_rules():
    assert TP.TrashPandasRules(bonus_turn=False, bonus_cap=1).canonical() == (
        TP.TrashPandasRules(bonus_turn=False))
    assert TP.TrashPandasRules(bonus_cap=1).canonical().bonus_cap == 1


# ----------------------------------------------------------------------------- Pig
from analyzer.games.pig import rules as P  # noqa: E402


def test_pig_bust_faces_below_the_faces():
    P.PigRules(faces=6, bust_faces=5).check()
    assert refusal(P.PigRules(faces=6, bust_faces=6).check) == (
        "rule 'bust_faces' must be smaller than 'faces'")
    assert P.rules_dict(P.PigRules(goal=50)) == {"goal": 50, "faces": 6, "bust_faces": 1}


@pytest.mark.parametrize("position,message", [
    ((-1, 0, 0), "--me must be non-negative (got -1)"),
    ((0, -2, 0), "--opp must be non-negative (got -2)"),
    ((0, 0, -3), "--turn must be non-negative (got -3)"),
    ((100, 0, 0), "scores must be below the goal 100: the game is already over"),
    ((0, 100, 0), "scores must be below the goal 100: the game is already over"),
    ((50, 0, 50), "--me 50 plus --turn 50 reaches the goal 100: just hold"),
])
def test_pig_positions_that_cannot_occur(position, message):
    assert refusal(P.check_scores, *position, P.PigRules()) == message


def test_pig_positions_just_short_of_the_goal():
    P.check_scores(99, 99, 0, P.PigRules())
    P.check_scores(50, 0, 49, P.PigRules())


# ----------------------------------------------------------------------------- Ten
from analyzer.games.ten import rules as TN  # noqa: E402


def test_ten_value_model_parses_any_subset():
    assert TN.parse_value_model(None) == TN.ValueModel()
    assert TN.parse_value_model("  ") == TN.ValueModel()
    assert TN.parse_value_model(" card=2, opp=0.5 ,token=0,bust=1") == TN.ValueModel(
        card=2, token=0, bust=1, opp=0.5)
    assert TN.ValueModel(1, 2, 3, 4).to_dict() == {"card": 1, "token": 2, "bust": 3, "opp": 4}


def test_ten_card_lists_name_the_empty_entry():
    assert [c.code for c in TN.parse_cards(" r5,$2 ,**")] == ["r5", "$2", "**"]
    assert refusal(TN.parse_cards, "r5,,r6") == (
        "malformed card list 'r5,,r6': empty entry at position 2")


@pytest.mark.parametrize("text,message", [
    ("card", "--value expects key=number pairs, got 'card'"),
    ("card=1, luck=1", "unknown --value key 'luck' (known: card, token, bust, opp)"),
    ("card=1=2", "--value card must be a number, got '1=2'"),
    ("card=inf", "--value card must be a finite number ≥ 0, got 'inf'"),
    ("bust=-0.5", "--value bust must be a finite number ≥ 0, got '-0.5'"),
])
def test_ten_value_model_refusals(text, message):
    assert refusal(TN.parse_value_model, text) == message


def test_ten_start_tokens_within_the_cap():
    TN.TenRules(start_tokens=5, token_cap=5).check()
    assert refusal(TN.TenRules(start_tokens=6, token_cap=5).check) == (
        "rule 'start_tokens' = 6 is above the token cap 5")


def test_ten_rules_as_the_whole_game_kernel_reads_them():
    from kernels.ten import whole_layout as L

    r = TN.TenRules(bust_at=12, currency_bust_at=13, token_cap=9, start_tokens=4,
                    currency_tokens=60, bust_tokens=14, bust_token_value=2,
                    all_pass="active-free", bid_within_means=False, spent_cards="market",
                    final_buy_last=False, auctions=False, buys=False, token_gains=False)
    a = r.kernel_array(3, check=True)
    assert a.dtype == np.int64 and a.shape == (L.NRULE,)
    expected = {L.R_BUST: 12, L.R_CBUST: 13, L.R_CAP: 9, L.R_START: 4, L.R_TOKENS: 60,
                L.R_BUSTS: 14, L.R_BUSTVAL: 2, L.R_ALLPASS: 1, L.R_AUCTIONS: 0, L.R_BUYS: 0,
                L.R_GAINS: 0, L.R_FINALLAST: 0, L.R_SPENT: 1, L.R_MEANS: 0, L.R_CHECK: 1}
    assert {i: int(a[i]) for i in expected} == expected
    d = TN.TenRules().kernel_array(4)  # the defaults: the switches the other way round
    assert [int(d[i]) for i in (L.R_ALLPASS, L.R_AUCTIONS, L.R_BUYS, L.R_GAINS, L.R_FINALLAST,
                                L.R_SPENT, L.R_MEANS, L.R_CHECK)] == [0, 1, 1, 1, 1, 0, 1, 0]
    TN.TenRules(start_tokens=10, currency_tokens=30).kernel_array(3)  # 3 × 10 = 30: just enough
    assert refusal(TN.TenRules(start_tokens=10, currency_tokens=30).kernel_array, 4) == (
        "4 players × 10 starting tokens exceed the 30 currency tokens in the game")


# a deck file that removes r1 with 3 players or fewer and b2 as well with 1 or 2 (Ten's deck
# file, analyzer/data/ten_deck.toml, removes nothing)
MARKED = TN.DeckSpec(copies=(3, 3, 3, 3, 3, 3, 1, 1, 1), currency=(6, 6, 6, 5, 4),
                     tenth_number_wild_value=5, marked_4plus=("r1",), marked_3=("b2",),
                     source="marked.toml")


def test_ten_player_counts_remove_the_marked_cards():
    r = TN.TenRules()
    full = TN.deck_counts(r, MARKED)
    assert (full["r1"], full["b2"]) == (3, 3)
    assert TN.deck_counts(r, MARKED, 5) == full
    assert (TN.deck_counts(r, MARKED, 3)["r1"], TN.deck_counts(r, MARKED, 3)["b2"]) == (2, 3)
    assert (TN.deck_counts(r, MARKED, 1)["r1"], TN.deck_counts(r, MARKED, 1)["b2"]) == (2, 2)
    for players in (0, 6):
        assert refusal(TN.deck_counts, r, MARKED, players) == (
            f"--players must be 1..5 (got {players})")


def test_ten_seen_cards_beyond_the_deck_are_refused_with_their_count():
    r = TN.TenRules(colour_wilds=0)
    spec = TN.load_deck()
    deck = TN.deck_counts(r, spec)
    r7, wild = TN.parse_cards("r7,r7"), TN.parse_cards("g#")
    assert refusal(TN.remaining_deck, deck, r7, []) == (
        "card 'r7' is listed 2 times in --tableau/--seen but the deck holds 1")
    assert refusal(TN.remaining_deck, deck, [], wild) == (
        "card 'g#' is listed 1 time in --tableau/--seen but the deck holds 0")


def test_ten_turn_state_summarises_the_pile_and_the_tableau():
    r, spec = TN.TenRules(), TN.load_deck()
    s = TN.turn_state(r, spec, "r5,$2,b5,$2", "**")
    # value 5: 4 colours x 3 copies, two in the tableau; $2: 6 copies, two in the tableau;
    # wilds: 8 colour + 9 number + 1 full, the full one seen
    assert len(s.avail) == 14 and s.avail[4] == 10 and s.avail[10] == 4 and s.wilds == 17
    assert (s.N, s.C, s.T, s.n_numbers, s.n_tableau) == (10, 4, 6, 2, 4)
    assert s.drawn == (0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 2, 0, 0, 0)
    assert s.cards_left == 129 - 5
    assert TN.turn_state(r, spec, "r1,$2,b2,b3").n_numbers == 3  # T = 6 - 2
    two = TN.turn_state(r, MARKED, None, None, players=2)
    assert two.avail[:2] == (11, 11) and TN.turn_state(r, MARKED).avail[:2] == (12, 12)


@pytest.mark.parametrize("tableau,seen,message", [
    ("r5,,r6", None, "malformed --tableau list 'r5,,r6': empty entry at position 2"),
    (None, "r5,", "malformed --seen list 'r5,': empty entry at position 2"),
    ("$5,$4,r1,$2", None,
     "the tableau has already busted: currency C = 11 ≥ 11 (last card '$2')"),
    ("r5,b3,$1,g4", None,
     "the tableau has already busted: T = N − C = 12 − 1 = 11 ≥ 11 (last card 'g4')"),
])
def test_ten_turn_state_refusals(tableau, seen, message):
    assert refusal(TN.turn_state, TN.TenRules(), TN.load_deck(), tableau, seen) == message


def deck_file(tmp_path, text):
    path = tmp_path / "deck.toml"
    path.write_text(text)
    return path


def test_ten_deck_file_copies_at_their_limits(tmp_path):
    spec = TN.load_deck(deck_file(tmp_path, "[numbers]\ncopies = [0, 3, 3, 3, 3, 3, 1, 1, 50]\n"
                                            "[currency]\ncounts = [0, 6, 6, 5, 4]\n"))
    assert spec.copies == (0, 3, 3, 3, 3, 3, 1, 1, 50) and spec.currency == (0, 6, 6, 5, 4)
    deck = TN.deck_counts(TN.TenRules(), spec)
    assert "r1" not in deck and deck["r2"] == 3 and deck["b9"] == 50
    assert "$1" not in deck and deck["$2"] == 6


def test_ten_deck_file_defaults_and_the_tenth_wild(tmp_path):
    path = deck_file(tmp_path, "[wilds]\ntenth_number_wild_value = 9\n")
    spec = TN.load_deck(path)
    assert (spec.currency, spec.tenth_number_wild_value, spec.source) == (
        (6, 6, 6, 5, 4), 9, str(path))
    assert spec.marked_4plus == () and spec.marked_3 == ()
    assert TN.load_deck(deck_file(tmp_path, "")).tenth_number_wild_value == 5
    for value in (1, 9):
        text = f"[wilds]\ntenth_number_wild_value = {value}\n"
        assert TN.load_deck(deck_file(tmp_path, text)).tenth_number_wild_value == value


@pytest.mark.parametrize("body,message", [
    ("[wilds]\ntenth_number_wild_value = 10\n",
     "'wilds.tenth_number_wild_value' must be an integer 1..9"),
    ("[wilds]\ntenth_number_wild_value = true\n",
     "'wilds.tenth_number_wild_value' must be an integer 1..9"),
    ("[wilds]\ntenth_number_wild_value = \"5\"\n",
     "'wilds.tenth_number_wild_value' must be an integer 1..9"),
    ("[players]\nmarked_3 = \"r1\"\n", "'players.marked_3' must be a list of card codes"),
    ("[numbers]\ncopies = [3, 3, 3, 3, 3, 3, 1, 1, 51]\n",
     "'numbers.copies' must be a list of 9 integers 0..50"),
    ("[numbers]\ncopies = [3, 3, 3, 3, 3, 3, 1, 1, true]\n",
     "'numbers.copies' must be a list of 9 integers 0..50"),
    ("[colours]\nx = 1\n", "unknown section 'colours' (known: numbers, currency, wilds, players)"),
    ("[numbers]\ncount = 1\n", "unknown key 'numbers.count'"),
])
def test_ten_deck_file_refusals(tmp_path, body, message):
    path = deck_file(tmp_path, body)
    assert refusal(TN.load_deck, path) == f"{path}: {message}"


def test_ten_cards_marked_for_removal_more_often_than_the_deck_holds_them():
    import dataclasses

    twice = dataclasses.replace(MARKED, marked_4plus=("o9", "o9"))  # one o9 in the deck
    assert refusal(TN.deck_counts, TN.TenRules(), twice, 3) == (
        "deck file marked.toml: 'o9' is marked for removal more often than the deck holds it")
