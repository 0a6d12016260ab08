"""Ten whole-game rules: the turn-level keys of ``TenRules`` plus one key per whole-game decision.

Tags as on the rules page (``shared/rules/ten.md``): [D] decided here (the default is the rules
page's decision, the key its alternative), [U] unknown (the default is a labelled assumption).
Resolved here where the page is silent (documented, with a key where it matters):
- the bust-token supply (15) can run out: a player busting then takes none (``bust_tokens``);
- a gain of currency tokens is limited by the cap *and* by the supply (50 tokens, which with the
  default cap of 10 and ≤ 5 players never runs out);
- an opening bid is at least 1 (a bid must be higher than the current bid, which starts at 0);
- a shared win counts 1/k to each of the k winners in win rates.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from analyzer.errors import UserError
from analyzer.games.ten import TenRules
from analyzer.rules import rule


@dataclass(frozen=True)
class TenGameRules(TenRules):
    start_tokens: int = rule(5, "currency tokens each player starts with", min=0, max=50)
    currency_tokens: int = rule(50, "currency tokens in the game (the supply)", min=0, max=500)
    bust_tokens: int = rule(15, "bust tokens in the game; once none are left a bust gives none",
                            min=0, max=500)
    bust_token_value: int = rule(3, "what a bust token pays (no change is given)", min=1, max=10)
    all_pass: str = rule("discard", "[U] when everyone passes an auction: the wild is discarded, "
                                    "or the active player takes it free", 
                         choices=("discard", "active-free"))
    bid_within_means: bool = rule(True, "[D] no bid may exceed what the bidder can pay "
                                        "(false: bots bid their own limit, a winner pays what "
                                        "they can)")
    spent_cards: str = rule("out", "[D] collection cards spent on a price leave the game "
                                   "('out') or go to the market ('market')",
                            choices=("out", "market"))
    final_buy_last: bool = rule(True, "[D] the player who drew the last card takes part in the "
                                      "final buy round, last (false: left out)")
    auctions: bool = rule(True, "hold auctions for wilds (false: a drawn wild is discarded)")
    buys: bool = rule(True, "buy phases after a numbers reward and at the end (false: none)")
    token_gains: bool = rule(True, "stop rewards and number busts give currency tokens "
                                   "(false: nobody gains tokens)")

    def check(self) -> None:
        if self.start_tokens > self.token_cap:
            raise UserError(f"rule 'start_tokens' = {self.start_tokens} is above the token cap "
                            f"{self.token_cap}")

    def turn_rules(self) -> TenRules:
        """The turn-level rules (for the deck, the exact one-turn solver and `ten score`)."""
        return TenRules(**{f.name: getattr(self, f.name) for f in fields(TenRules)})

    def kernel_array(self, players: int, check: bool = False) -> np.ndarray:
        """The rules as ``kernels/ten_whole/layout.py`` reads them (int64[NRULE])."""
        from kernels.ten_whole import layout as L

        if players * self.start_tokens > self.currency_tokens:
            raise UserError(f"{players} players × {self.start_tokens} starting tokens exceed the "
                            f"{self.currency_tokens} currency tokens in the game")
        a = np.zeros(L.NRULE, dtype=np.int64)
        a[L.R_BUST] = self.bust_at
        a[L.R_CBUST] = self.currency_bust_at
        a[L.R_CAP] = self.token_cap
        a[L.R_START] = self.start_tokens
        a[L.R_TOKENS] = self.currency_tokens
        a[L.R_BUSTS] = self.bust_tokens
        a[L.R_BUSTVAL] = self.bust_token_value
        a[L.R_ALLPASS] = 1 if self.all_pass == "active-free" else 0
        a[L.R_AUCTIONS] = int(self.auctions)
        a[L.R_BUYS] = int(self.buys)
        a[L.R_GAINS] = int(self.token_gains)
        a[L.R_FINALLAST] = int(self.final_buy_last)
        a[L.R_SPENT] = 1 if self.spent_cards == "market" else 0
        a[L.R_MEANS] = int(self.bid_within_means)
        a[L.R_CHECK] = int(check)
        return a
