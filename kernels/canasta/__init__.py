"""Railroad Canasta kernels: a round engine over card-type count vectors, its Monte Carlo drivers
and the exact initial-meld count. ``layout`` names the card types and every state column,
``meld`` holds the melding algorithms (first meld, meld phase, going out), ``engine`` the turn
flow of one round (deal, draw or take the pile, meld, discard, kitty, scoring), ``trials`` the
trials and block functions (whole games, independent rounds, meld odds, decisions) behind the
one entry point, ``driver``'s ``mc_blocks``, and ``exact`` the enumeration of every dealt hand
for the chance of meeting the initial requirement on the deal. Only the entry points are re-exported here.
"""
from kernels.lazy import lazy_exports


# Entry point -> defining module, imported on first use (PEP 562): reading ``layout`` (a position
# check, a query) must not import Numba or load the kernels' caches.
_WHERE = {
    "exact_deal_probability": "kernels.canasta.exact",
    "max_initial_value": "kernels.canasta.exact",
    "MODE_DECIDE": "kernels.canasta.trials",
    "MODE_GAMES": "kernels.canasta.trials",
    "MODE_MELD": "kernels.canasta.trials",
    "MODE_ROUNDS": "kernels.canasta.trials",
    "NROUNDSTAT": "kernels.canasta.trials",
    "mc_blocks": "kernels.canasta.driver",
}

__getattr__, __all__ = lazy_exports(globals(), _WHERE)
