"""`ten best` from the draw pile's cached solution (analyzer/games/ten/pile.py) gives the same draw
value (the same float) and the same state count as a solve rooted at the tableau
(analyzer/games/ten/exact.py ``solve``), on random seen cards, tableaux, rules, player counts,
tokens held and value models; and the pile's solution is read back from the disk cache."""
import os
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.games.ten.best import best
from analyzer.games.ten.exact import Model, solve
from analyzer.games.ten.pile import pile_answer
from analyzer.games.ten.rules import (TenRules, ValueModel, deck_counts, load_deck, parse_card,
                                      turn_state)

SPEC = load_deck()
VALUES = [ValueModel(), ValueModel(card=1, token=0.5, bust=1, opp=0.05),
          ValueModel(card=0.7, token=0.3, bust=2, opp=0.2)]


@pytest.fixture(scope="module", autouse=True)
def private_cache():
    old = os.environ.get("PUSHLUCK_CACHE_DIR")
    with tempfile.TemporaryDirectory() as d:
        os.environ["PUSHLUCK_CACHE_DIR"] = d
        yield d
    if old is None:
        del os.environ["PUSHLUCK_CACHE_DIR"]
    else:
        os.environ["PUSHLUCK_CACHE_DIR"] = old


@st.composite
def models(draw):
    rules = TenRules(bust_at=draw(st.integers(6, 12)),
                     currency_bust_at=draw(st.integers(5, 11)))
    players = draw(st.integers(2, 5))
    codes = sorted(deck_counts(rules, SPEC, players).elements())
    order = draw(st.permutations(codes))
    seen = list(order[:draw(st.integers(0, 20))])
    tableau, N, C = [], 0, 0
    for code in order[len(seen):len(seen) + draw(st.integers(0, 6))]:
        card = parse_card(code)
        if card.is_wild:
            continue
        n2, c2 = (N + card.value, C) if card.kind == "number" else (N, C + card.value)
        if n2 - c2 >= rules.bust_at or c2 >= rules.currency_bust_at:
            break
        tableau.append(code)
        N, C = n2, c2
    state = turn_state(rules, SPEC, ",".join(tableau) or None, ",".join(seen) or None, players)
    return Model(state, rules, draw(st.sampled_from(VALUES)), players,
                 draw(st.integers(0, rules.token_cap)))


@settings(max_examples=150, deadline=None)
@given(models())
def test_pile_answer_equals_a_solve_rooted_at_the_tableau(model):
    got = pile_answer(model)
    assert got is not None
    sol = solve(model)
    if sum(model.state.avail):
        assert got[0] == float(sol.D_root[0])
    assert got[1] == sol.states


def test_best_reads_the_pile_back_from_the_cache(private_cache, monkeypatch):
    import analyzer.games.ten.pile as pile

    rules = TenRules()

    def ask(tableau):
        return best(Model(turn_state(rules, SPEC, tableau), rules, ValueModel()))

    first = ask("r5,r3")
    files = sorted(os.listdir(private_cache))
    again, other = ask("r5,r3"), ask("r5,$2,r1")
    assert any(f.startswith("ten-pile-") for f in files)
    assert sorted(os.listdir(private_cache)) == files  # the same pile: no new entry
    monkeypatch.setattr(pile, "pile_answer", lambda model: None)  # solve from the tableau
    for got, tableau in ((first, "r5,r3"), (again, "r5,r3"), (other, "r5,$2,r1")):
        direct = ask(tableau)
        for key in ("ev_draw", "value", "states", "recommendation", "margin", "p_bust_next"):
            assert got[key] == direct[key]
