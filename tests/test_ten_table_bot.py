"""Ten whole games, the ``table`` bot (a decision list of up to 3 clauses read from a rule
table): kernel = independent Python reference game by game, a list that says what a threshold
says plays bit-identically to it, and the kernel's reading of a table = ``table_acts`` on every
enumerated feature state."""
import numpy as np
import pytest

from analyzer.games.ten.bots import bot_rows
from analyzer.games.ten.lineup import parse_bot, parse_seats
from analyzer.games.ten.rules import TenRules, load_deck
from analyzer.games.ten.whole import Setup
from analyzer.rng import block_keys
from tests.test_ten_whole import _compare

LISTS = ("table:if-1=tokens>=6:then-1=stop:if-2=deck<=30:then-2=draw:if-3=T>=7:then-3=stop:"
         "otherwise=draw,"
         "table:if-1=busts>=1:then-1=stop:if-2=C<=1:then-2=draw:otherwise=stop,"
         "table:if-1=cards>=4:then-1=stop:if-2=T<=5:then-2=draw:otherwise=stop,"
         "threshold")


def test_kernel_matches_reference_table_bots(monkeypatch):
    """Every feature in a clause, both comparisons, both decisions; cards and tokens conserved
    after every turn (the records' ``violations``, compared too, are 0). The reference scores
    through the kernel's scorer here only for speed (as in test_ten_whole.py's mixed bots)."""
    from analyzer.games.ten import whole_reference as reference
    from analyzer.games.ten.cards import counts_of
    from analyzer.games.ten.whole import score_tables
    from kernels.ten.whole_score import WS_SIZE, score_row

    ws = np.zeros(WS_SIZE, dtype=np.int64)
    monkeypatch.setattr(reference, "score", lambda coll, full_run=10: int(score_row(counts_of(
        [c for c, k in coll.items() for _ in range(k)]), score_tables(full_run), ws)))
    st = Setup(TenRules(), load_deck(), 4, [parse_seats(LISTS, 4)], check=True)
    _compare(st, block_keys(21, 0, 1)[0], 3)
    recs, _, _ = st.details(block_keys(21, 0, 1)[0], 64)
    from kernels.ten.whole_layout import RC
    assert recs[:, RC["violations"]].sum() == 0 and recs[:, RC["turns"]].min() > 10


def test_list_equal_to_a_threshold_plays_bit_identically():
    """"If T ≥ 7 stop, otherwise draw" is threshold:7 and "if cards ≥ 4 stop, otherwise draw" is
    cards:4: the same sums on the same blocks, whichever seat plays them."""
    keys = block_keys(4, 0, 3)
    counts = np.full(3, 32, dtype=np.int64)
    for rule, bot in (("table:if-1=T>=7:then-1=stop:otherwise=draw", "threshold:7"),
                      ("table:if-1=T<=6:then-1=draw:otherwise=stop", "threshold:7"),
                      ("table:if-1=cards>=4:then-1=stop:otherwise=draw", "cards:4")):
        sums = []
        for seats in (f"{rule},threshold:8,cards:5", f"{bot},threshold:8,cards:5"):
            st = Setup(TenRules(), load_deck(), 3, [parse_seats(seats, 3)])
            sums.append(np.asarray(st.job().run_blocks(keys, counts)))
        assert np.array_equal(sums[0], sums[1]), rule
    # and a list that differs by one (T ≥ 8) does not
    a = Setup(TenRules(), load_deck(), 3, [parse_seats(
        "table:if-1=T>=8:then-1=stop:otherwise=draw,threshold:8,cards:5", 3)])
    b = Setup(TenRules(), load_deck(), 3, [parse_seats("threshold:7,threshold:8,cards:5", 3)])
    assert not np.array_equal(np.asarray(a.job().run_blocks(keys, counts)),
                              np.asarray(b.job().run_blocks(keys, counts)))


STATES = {"T": range(-3, 12), "C": range(0, 8), "cards": range(1, 9), "deck": (0, 29, 30, 31, 90),
          "tokens": range(0, 11), "busts": range(0, 4)}


@pytest.mark.parametrize("text", [
    "table:if-1=tokens>=6:then-1=stop:if-2=deck<=30:then-2=draw:if-3=T>=7:then-3=stop:"
    "otherwise=draw",
    "table:if-1=busts>=1:then-1=stop:if-2=C<=1:then-2=draw:otherwise=stop",
    "table:if-1=cards<=3:then-1=draw:if-2=T>=6:then-2=stop:otherwise=draw",
])
def test_kernel_reads_the_table_as_table_acts_and_the_words(text):
    """kernels/ten/whole_table.table_draws on every enumerated state = ``table_acts`` of the
    compiled rows = ``Rule.acts`` of the clauses, and = the clauses read by hand."""
    from analyzer.games.ten.draw_table import bot_rule, table_acts, table_rows
    from analyzer.advice.table import grid
    from kernels.ten.whole_table import table_draws

    bot = parse_bot(text)
    row, rule, tab = bot_rows([bot], {})[0], bot_rule(bot), table_rows(bot)
    X = grid(STATES)
    got = np.array([table_draws(row, t + c, c, n, d, k, b) for t, c, n, d, k, b in
                    zip(X["T"], X["C"], X["cards"], X["deck"], X["tokens"], X["busts"])])
    assert np.array_equal(got, table_acts(tab, X))
    assert np.array_equal(got, rule.acts(X))

    def by_hand(s):
        for f, op, v, act in rule.clauses:
            if (s[f] <= v) if op == "<=" else (s[f] >= v):
                return act
        return rule.default_act

    for i in range(0, len(got), 97):
        assert got[i] == by_hand({k: X[k][i] for k in X})
    assert 0.05 < got.mean() < 0.95


def test_table_bot_knobs_are_checked():
    from analyzer.errors import UserError

    for text, message in [
        ("table:if-1=score>=3:then-1=stop", "FEATURE one of"),
        ("table:if-1=T<7:then-1=stop", "FEATURE<=V"),
        ("table:if-1=T>=7", "then-1 must be draw or stop"),
        ("table:if-2=T>=7:then-2=stop", "if-2 needs if-1"),
        ("table:then-1=stop", "then-1 needs if-1"),
        ("table:if-1=T>=7:then-1=maybe", "knob 'then-1' must be one of"),
        ("threshold:if-1=T>=7:then-1=stop", "unknown knob 'if-1' for threshold"),
    ]:
        with pytest.raises(UserError, match=message):
            parse_bot(text)
    b = parse_bot("table:if-1= T >= 7:then-1=stop:otherwise=draw")
    assert b.if_1 == "T>=7" and b.label == "table:if-1=T>=7:then-1=stop:otherwise=draw"
