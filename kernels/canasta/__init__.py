"""Railroad Canasta kernels: a round engine over card-type count vectors, its Monte Carlo drivers
and the exact initial-meld count. ``layout`` names the card types and every state column,
``meld`` holds the melding algorithms (first meld, meld phase, going out), ``engine`` the turn
flow of one round (deal, draw or take the pile, meld, discard, kitty, scoring), ``trials`` the
parallel drivers (whole games, independent rounds, meld odds, decisions) behind the one entry
point ``mc_blocks``, and ``exact`` the enumeration of every dealt hand for the chance of meeting
the initial requirement on the deal. Only the entry points are re-exported here.
"""
from kernels.canasta.exact import exact_deal_probability, max_initial_value
from kernels.canasta.trials import (MODE_DECIDE, MODE_GAMES, MODE_MELD, MODE_ROUNDS, NROUNDSTAT,
                                    mc_blocks)

__all__ = ["MODE_DECIDE", "MODE_GAMES", "MODE_MELD", "MODE_ROUNDS", "NROUNDSTAT", "mc_blocks",
           "exact_deal_probability", "max_initial_value"]
