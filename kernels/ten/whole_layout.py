"""Index constants shared by the Ten whole-game kernels and their Python wrappers.

``rl`` int64[NRULE] — the rules as the kernel reads them (index: meaning):
  R_BUST number bust at T ≥ this · R_CBUST currency bust at C ≥ this · R_CAP token cap ·
  R_START tokens each player starts with · R_TOKENS currency tokens in the game ·
  R_BUSTS bust tokens in the game · R_BUSTVAL a bust token's worth when paying ·
  R_ALLPASS 0 discard the wild when everyone passes, 1 the active player takes it free ·
  R_AUCTIONS 0 wilds are discarded unseen by any auction · R_BUYS 0 no buy phases ·
  R_GAINS 0 nobody gains tokens from rewards or number busts · R_FINALLAST 1 the last player
  buys last in the final round, 0 is left out · R_SPENT 0 spent cards leave the game, 1 spent
  number cards go to the market · R_MEANS 1 bids may not exceed what the bidder can pay ·
  R_CHECK 1 check conservation after every turn.

``bots`` float64[K, P, NB] — per line-up k and seat p (index: meaning):
  B_DRAW draw rule (D_TOTAL stop once T ≥ B_DRAWP, D_CARDS stop once the tableau holds B_DRAWP
  cards, D_EXACT the exact one-turn table B_TABLE, D_RANDOM draw with chance B_PDRAW,
  D_ROLLOUT B_ROLLOUTS rollouts of the rest of the turn under "stop once T ≥ B_DRAWP", valued by
  B_CARD per number card, B_TOKEN per token, B_BUSTV a bust token, B_OPPC per token an opponent
  gains times the number of opponents, D_TABLE the draw rule table B_ROWS) ·
  B_REWARD (W_VALUE, W_NUMBERS, W_CURRENCY, W_RANDOM) · B_TPP tokens per point · B_BONUS points
  per new distinct number card · B_BID (A_VALUE, A_NEVER, A_RANDOM) · B_BUY (A_VALUE, A_NEVER,
  A_RANDOM) · B_MINGAIN least points per token for a buy · B_OPP points lost per token an
  opponent gains · B_CARDS 1 may pay with collection cards · B_BAND (D_TOTAL only: BAND_NONE,
  BAND_DECK cards left in the draw pile, BAND_TOKENS the currency tokens the seat holds): the
  stop bound is B_DRAWP while that feature is below B_CUT1, B_DRAWP2 from B_CUT1 on, B_DRAWP3
  from B_CUT2 on (when B_CUT2 > 0) · B_NROWS, B_ROWS (D_TABLE only): the draw rule table, B_NROWS ≤
  TMAXROWS rows of TROW numbers from B_ROWS (``whole_table.py``).

Card rows ``cards`` int64[9, 55]: rows 0..4 the players' collections, ROW_MARKET, ROW_OUT
(discarded and spent cards), ROW_PILE (the draw pile's counts), ROW_TABLEAU.
``tk`` int64[NTK]: currency tokens 0..4, bust tokens 5..9, supply of currency tokens 10, of bust
tokens 11, each seat's current score 12..16 as a cache (−1: recompute after the collection
changed).
"""
NTYPES = 55
CUR0, CW0, NW0, FULL = 36, 41, 45, 54
MAXP = 5

(R_BUST, R_CBUST, R_CAP, R_START, R_TOKENS, R_BUSTS, R_BUSTVAL, R_ALLPASS, R_AUCTIONS, R_BUYS,
 R_GAINS, R_FINALLAST, R_SPENT, R_MEANS, R_CHECK) = range(15)
NRULE = 15

(B_DRAW, B_DRAWP, B_REWARD, B_TPP, B_BONUS, B_BID, B_BUY, B_MINGAIN, B_OPP, B_CARDS, B_PDRAW,
 B_TABLE, B_ROLLOUTS, B_CARD, B_TOKEN, B_BUSTV, B_OPPC, B_BAND, B_CUT1, B_CUT2, B_DRAWP2,
 B_DRAWP3, B_NROWS) = range(23)
B_ROWS = 23
TROW, TMAXROWS = 6, 4
NB = B_ROWS + TROW * TMAXROWS
BAND_NONE, BAND_DECK, BAND_TOKENS = 0, 1, 2
D_TOTAL, D_CARDS, D_EXACT, D_RANDOM, D_ROLLOUT, D_TABLE = 0, 1, 2, 3, 4, 5
# the draw rule table's comparisons and features (whole_table.py; analyzer/advice/table.py)
OP_LE, OP_GE = 0, 1
F_ZERO, F_T, F_C, F_CARDS, F_DECK, F_TOKENS, F_BUSTS = range(7)
W_VALUE, W_NUMBERS, W_CURRENCY, W_RANDOM = 0, 1, 2, 3
A_VALUE, A_NEVER, A_RANDOM = 0, 1, 2

ROW_MARKET, ROW_OUT, ROW_PILE, ROW_TABLEAU = 5, 6, 7, 8
TK_SUP, TK_BSUP, TK_SCORE = 10, 11, 12
NTK = 17

# forced first action of a position's active player (decide): draw, stop for numbers or
# currency; in a buy phase no buy (F_BUYNONE) or buy number card t (F_BUY0 + t); in an auction
# of wild type w, seat q bids x (0: pass) from the auction state (the current bid `cur` by seat
# `high`, −1: none; the bidders from the `first`-th seat left of the active one on, 1: all):
# F_BID0 + (w − CW0) + 16 · (q + 5 · (x + BIDS · (cur + BIDS · (high + 1 + 6 · (first − 1)))))
# (bid_code; decoded by whole_decisions.unpack_bid). A fresh auction's code is
# F_BID0 + (x · 5 + q) · 16 + (w − CW0).
F_NONE, F_DRAW, F_NUMBERS, F_CURRENCY, F_BUYNONE, F_BUY0, F_BID0 = 0, 1, 2, 3, 4, 5, 64
BIDS = 128  # bids and current bids are 0..BIDS − 1


def bid_code(wild_type: int, seat: int, bid: int, cur: int = 0, high: int = -1,
             first: int = 1) -> int:
    """The forced code of seat ``seat`` bidding ``bid`` (0: pass) for the wild ``wild_type``
    when the current bid is ``cur`` by seat ``high`` (−1: nobody) and the bidding has reached
    the ``first``-th seat left of the active one (module comment above)."""
    if not (CW0 <= wild_type < NTYPES and 0 <= seat < MAXP and 0 <= bid < BIDS
            and 0 <= cur < BIDS and -1 <= high < MAXP and 1 <= first <= MAXP):
        raise ValueError(f"bid_code({wild_type}, {seat}, {bid}, {cur}, {high}, {first}): "
                         "out of range")
    if bid != 0 and bid <= cur:
        raise ValueError(f"a bid of {bid} does not beat the current bid {cur}")
    return F_BID0 + (wild_type - CW0) + 16 * (
        seat + 5 * (bid + BIDS * (cur + BIDS * (high + 1 + 6 * (first - 1)))))

# the per-game record (float64[NREC])
REC_NAMES = (
    "turns", "rounds", "busts", "number_busts", "currency_busts", "auctions", "wilds_discarded",
    "wilds_free", "auction_price", "buys", "buy_spent", "market_end", "stops_numbers",
    "stops_currency", "first_turn_bust", "violations", "winner_score", "tied", "wilds_drawn",
    "score_0", "score_1", "score_2", "score_3", "score_4",
    "win_0", "win_1", "win_2", "win_3", "win_4",
    "tokens_0", "tokens_1", "tokens_2", "tokens_3", "tokens_4",
    "cards_0", "cards_1", "cards_2", "cards_3", "cards_4", "auction_share",
    # balance (issue 38): lead changes after every turn (and the final buy round), whether a
    # strict leader stood at the end of the first turn with three quarters of the pile drawn,
    # and that leader's win share (kernels/lead.py states the definitions)
    "lead_changes", "leader_3q", "leader_3q_win")
NREC = len(REC_NAMES)
#: fields of the record before the balance fields (their sum columns keep their places)
NREC_V1 = REC_NAMES.index("lead_changes")
RC = {name: i for i, name in enumerate(REC_NAMES)}
(G_TURNS, G_ROUNDS, G_BUSTS, G_NBUSTS, G_CBUSTS, G_AUCTIONS, G_WDISC, G_WFREE, G_PRICE, G_BUYS,
 G_SPENT, G_MARKET, G_STOPN, G_STOPC, G_FIRSTBUST, G_VIOL, G_WSCORE, G_TIED, G_WILDS) = range(19)
G_SCORE, G_WIN, G_TOK, G_CARDS, G_SHARE = 19, 24, 29, 34, 39
G_LEADCH, G_LEAD3Q, G_LEADWIN = 40, 41, 42

# per-block sum columns of one line-up: games, then Σx and Σx² of every record field before
# the balance fields, then Σ(price·auctions) for the price-per-auction ratio, then Σx and Σx²
# of the balance fields; then, for each line-up k ≥ 1, the paired differences (line-up 0 −
# line-up k) of each seat's win share and score: Σd, Σd².
LINEUP_COLUMNS = (("games",) + tuple(x for n in REC_NAMES[:NREC_V1] for x in (n, n + "_sq"))
                  + ("price_x_auctions",)
                  + tuple(x for n in REC_NAMES[NREC_V1:] for x in (n, n + "_sq")))
LW = len(LINEUP_COLUMNS)
#: the column (within a line-up's block) of Σx of record field i; Σx² is the next one
REC_COL = tuple(LINEUP_COLUMNS.index(n) for n in REC_NAMES)
PRICE_COL = LINEUP_COLUMNS.index("price_x_auctions")
DIFF_COLUMNS = tuple(x for q in range(MAXP) for x in (f"d_win_{q}", f"d_win_{q}_sq",
                                                       f"d_score_{q}", f"d_score_{q}_sq"))
DW = len(DIFF_COLUMNS)


def column(name: str, lineup: int = 0, lineups: int = 1) -> int:
    """Index of a named sum column of ``lineup`` (a LINEUP_COLUMNS name, or for lineup ≥ 1 a
    DIFF_COLUMNS name to get its paired difference with line-up 0)."""
    if name in DIFF_COLUMNS:
        return lineups * LW + (lineup - 1) * DW + DIFF_COLUMNS.index(name)
    return lineup * LW + LINEUP_COLUMNS.index(name)
