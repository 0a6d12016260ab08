"""Ten's `best`: the exact optimal decision at a turn's root, draw or stop (and which reward).

Above both ``exact.py`` (the solver) and ``pile.py`` (one solve per draw pile, kept on disk):
the answer is read from the pile's cached solution, or solved from the tableau when the pile's
solve would be too large. ev_draw = (w/R)·max(ev_stop, D) + (1 − w/R)·D, where D is the value of
drawing a non-wild card and w the wilds among the R cards left (a wild leaves the state as it
is, and stopping is then allowed).
"""
from __future__ import annotations

import time

from analyzer.errors import UserError
from analyzer.games.ten.exact import Model, odds, solve


def best(model: Model) -> dict:
    """The exact optimal decision at the root: draw or stop (and which reward).

    Answered from the draw pile's solution kept on disk (``pile.py``: one solve per pile, then
    every tableau of the turn without Numba), or by solving from the tableau when the pile's
    solve would be too large or the tableau's card types are not known."""
    s = model.state
    if s.cards_left == 0:
        raise UserError("the draw pile is empty: the turn is over (stop)")
    from analyzer.games.ten.pile import pile_answer

    t0 = time.perf_counter()
    got = pile_answer(model)  # the pile's cached solution: no Numba (pile.py)
    if got is None:
        sol = solve(model)
        got = (float(sol.D_root[0]), sol.states)
    D_tableau, states = got
    seconds = time.perf_counter() - t0
    s_num, s_cur = model.stop_values()
    ev_stop = max(s_num, s_cur)
    R_nw = sum(s.avail)
    R = s.cards_left
    D0 = D_tableau if R_nw > 0 else ev_stop
    after_wild = max(ev_stop, D0)  # a wild leaves the state unchanged; stopping is then allowed
    ev_draw = (s.wilds / R) * after_wild + (1 - s.wilds / R) * D0
    if model.root_forced:
        rec, margin, ev_stop_out = "draw", None, None
        note = "the first draw of a turn is mandatory"
    else:
        ev_stop_out = ev_stop
        margin = abs(ev_draw - ev_stop)
        note = None
        if margin <= 1e-9:
            rec = "either"
        elif ev_draw > ev_stop:
            rec = "draw"
        else:
            rec = "stop-numbers" if s_num >= s_cur else "stop-currency"
    nxt = odds(s, model.rules)
    return {"game": "ten", "N": s.N, "C": s.C, "T": s.T, "cards_left": R,
            "p_bust_next": nxt["p_bust"],
            "ev_stop": ev_stop_out, "ev_stop_numbers": None if model.root_forced else s_num,
            "ev_stop_currency": None if model.root_forced else s_cur, "ev_draw": ev_draw,
            "value": ev_draw if model.root_forced else max(ev_draw, ev_stop),
            "recommendation": rec, "margin": margin, "note": note,
            "value_model": model.value.to_dict(), "players": model.players,
            "tokens_held": model.tokens_held, "states": states,
            "solve_seconds": seconds, "exact": True}
