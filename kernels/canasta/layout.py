"""Railroad Canasta kernels: card types and the state layout every kernel indexes by name.

Cards are *types* (suits never matter except red/black threes): 0 joker, 1 two, 2 red three,
3 black three, 4..14 the natural ranks 4, 5, 6, 7, 8, 9, 10, J, Q, K, A (type = rank number).
A hand, a kitty or the discard pile is a vector of ``NT`` = 15 counts (int64). Per-player
scalars live in ``pl[p, C_*]`` (shape (P, NPL)), the table state in ``g[G_*]`` (shape (NG,)),
rules in ``rp[R_*]`` (shape (NRULES,)), policies in ``pol[p, P_*]`` (shape (P, NPOL)) and the
rule-violation counters of the property tests in ``viol[V_*]`` (shape (NV,)).
"""
import numpy as np

NT = 15
JOKER = 0
TWO = 1
RED3 = 2
BLACK3 = 3
SEVEN = 7
VAL = np.array([50, 20, 0, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20], dtype=np.int64)
COPIES = np.array([2, 8, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8], dtype=np.int64)
CT_RED = 0
CT_BLACK = 1
CT_WILD = 2
CT_SEVENS = 3

# rules vector
R_NP = 0
R_HAND = 1
R_KITTY = 2
R_GOBONUS = 3
R_R3BONUS = 4
R_BRED = 5
R_BBLACK = 6
R_BWILD = 7
R_BSEV = 8
R_MAXW = 9
R_R3REPL = 10
R_WILDUP = 11
R_W7 = 12
R_TARGET = 13
R_LOCKREQ = 14
R_MAXROUNDS = 15
NRULES = 16

# policy vector
P_GOMIN = 0     # go out only with at least this many completed canastas (0: as soon as allowed)
P_FLOOR = 1     # ... or when the stock holds at most this many cards
P_BLACKNAT = 2  # add wilds to finish a black canasta when the meld has >= this many naturals
P_WILDMIN = 3   # start a wild meld when holding >= this many wild cards
P_TAKE = 4      # 1: take the pile whenever allowed (and pile size >= P_TAKEMIN)
P_TAKEMIN = 5
# rule tables (``kernels.canasta.engine.by_table``): when P_TAKEN > 0 the take-the-pile decision
# is the table of P_TAKEN rows from column P_TAKET, else the P_TAKE/P_TAKEMIN knobs; likewise
# going out with P_GON rows from P_GOT, else P_GOMIN/P_FLOOR. A row is TROW words: guard
# feature, comparison, value, test feature, comparison, value; the first row whose guard holds
# decides "yes iff its test holds", no row holding means no. Comparisons OP_LE (feature <= value)
# and OP_GE (>=); features F_* below, as the seat deciding sees them.
TROW = 6
TMAXROWS = 4
P_TAKEN = 6
P_TAKET = 7
P_GON = P_TAKET + TMAXROWS * TROW
P_GOT = P_GON + 1
NPOL = P_GOT + TMAXROWS * TROW
OP_LE = 0
OP_GE = 1
F_ZERO = 0      # a constant 0: (0 <= 0) always holds, (0 >= 1) never does
F_PILE = 1      # cards in the discard pile
F_STOCK = 2     # cards left in the stock
F_CANASTAS = 3  # own completed canastas
F_OPPCAN = 4    # the most completed canastas of an opponent
F_HAND = 5      # cards in own hand
F_OPPHAND = 6   # the fewest cards in an opponent's hand
F_LEAD = 7      # own cumulative game score minus the best opponent's (points)
NFEAT = 8

# per-player scalar columns
C_KON = 0      # kitty still face down
C_MVAL = 1     # card value of all melded cards
C_R3 = 2       # red threes placed
C_MELDED = 3   # initial meld made this round
C_REQ = 4      # initial requirement this round
C_KTURN = 5    # turn number of the kitty pick-up (-1 none)
C_OUT = 6      # went out
C_SCORE = 7    # round score (after scoring)
C_FIRSTMELD = 8  # own turn index of the first meld (0: none yet)
C_OWNTURNS = 9
C_CUM = 10     # cumulative score at the start of the round
NPL = 11

# global state vector
G_SP = 0       # next stock index
G_SEND = 1     # stock end
G_PN = 2       # pile size
G_TOP = 3      # pile top type
G_FROZEN = 4
G_TURNS = 5
G_END = 6      # how the round ended: END_* below (0 while it runs)
G_CUR = 7
NG = 8

# how a round ends (g[G_END]); section 7 of docs/rules/canasta.md
END_OUT = 1    # a player went out
END_LOCK = 2   # sevens lock (case 3): only sevens left and sevens may not be discarded
END_STOCK = 3  # stock exhausted (case 2)
END_CAP = 4    # turn cap of a partial playout (meld odds, tests)
END_STALL = 5  # stall (case 4): one card left that is not a seven, no legal go-out

# violation counters (property tests)
V_MELD = 0
V_SEVEN = 1
V_GOOUT = 2
V_EMPTY = 3
NV = 4
