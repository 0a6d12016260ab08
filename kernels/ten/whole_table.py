"""Ten whole games: the ``table`` bot's draw rule, a rule table read row by row.

A draw rule table (``analyzer/advice/table.py`` compiles rules of thumb into one) is at most
TMAXROWS rows of TROW numbers in the seat's bot row from B_ROWS (B_NROWS rows; layout in
``whole_layout.py``):

    guard feature, guard comparison, guard value, test feature, test comparison, test value

The first row whose guard holds decides: draw iff its test holds; when no guard holds, stop.
A condition (feature f, comparison op, value v) holds when x_f ≤ v (OP_LE) or x_f ≥ v (OP_GE),
x_f the seat's feature at its draw-or-stop check:

  F_ZERO 0 (so (F_ZERO, OP_LE, 0) always holds) · F_T T = N − C · F_C C · F_CARDS the cards in
  the tableau (numbers and currency; wilds are auctioned, never in it) · F_DECK the cards left
  in the draw pile · F_TOKENS the currency tokens the seat holds · F_BUSTS its bust tokens.

Everything a seat can see at the table. Cost: at most 2·TMAXROWS comparisons per decision, and
only seats whose B_DRAW is D_TABLE read it.
"""
from numba import njit

from kernels.ten.whole_layout import (B_NROWS, B_ROWS, F_BUSTS, F_C, F_CARDS, F_DECK, F_T,
                                      F_TOKENS, OP_LE, TROW)


@njit(cache=True, inline="always", _nrt=False)
def draw_feature(f, N, C, ntab, left, tokens, busts):
    """Feature ``f`` (module doc) at a draw-or-stop check."""
    if f == F_T:
        return N - C
    if f == F_C:
        return C
    if f == F_CARDS:
        return ntab
    if f == F_DECK:
        return left
    if f == F_TOKENS:
        return tokens
    if f == F_BUSTS:
        return busts
    return 0


@njit(cache=True, inline="always", _nrt=False)
def _holds(bot, at, N, C, ntab, left, tokens, busts):
    x = draw_feature(int(bot[at]), N, C, ntab, left, tokens, busts)
    return x <= bot[at + 2] if int(bot[at + 1]) == OP_LE else x >= bot[at + 2]


@njit(cache=True, _nrt=False)
def table_draws(bot, N, C, ntab, left, tokens, busts):
    """The draw rule table of the bot row ``bot`` (module doc): True to draw."""
    for r in range(int(bot[B_NROWS])):
        at = B_ROWS + r * TROW
        if _holds(bot, at, N, C, ntab, left, tokens, busts):
            return _holds(bot, at + 3, N, C, ntab, left, tokens, busts)
    return False
