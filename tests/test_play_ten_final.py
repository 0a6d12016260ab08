"""Ten's final buy round (phase "final"): `ten decide` answers it, exactly when the seats still
to buy buy by rule, and `pushluck play ten` answers my buy there and saves it.

By hand from docs/rules/ten.md: the deck is, per colour (r, b, g, o), the values 1-6 three
times and 7, 8, 9 once, two colour wilds per colour, the number wilds *1..*9, the full wild **,
and the currency cards $1 ×6, $2 ×6, $3 ×6, $4 ×5, $5 ×4 (129 cards). Each colour scores its
longest run of consecutive values, one point a card; the most points wins, then the most
currency tokens, then the fewest cards; a tie shares the win. A value bot (`threshold`, buy =
value with a card bonus of 0.5) buys any card it may buy and pay for; bots pay with currency
tokens when they hold no bust token.

The table below: two players; seat 1 holds r1, r2 (2 points), seat 2 b1, b2 (2 points), each
3 currency tokens; the market holds one r3 (price 3); every other card is out of the game, so
the draw pile is empty.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from analyzer.errors import UserError

DECK = ([f"{c}{v}" for c in "rbgo" for v in range(1, 7) for _ in range(3)]
        + [f"{c}{v}" for c in "rbgo" for v in (7, 8, 9)]
        + [f"{c}#" for c in "rbgo" for _ in range(2)] + [f"*{v}" for v in range(1, 10)]
        + ["**"] + ["$1"] * 6 + ["$2"] * 6 + ["$3"] * 6 + ["$4"] * 5 + ["$5"] * 4)


def final_position(active: int, buyers: list, me: int, market=("r3",), colls=("r1,r2", "b1,b2"),
                   tokens=(3, 3)) -> str:
    listed = list(market) + [c for cl in colls for c in cl.split(",") if c]
    out = list(DECK)
    for c in listed:
        out.remove(c)
    players = "".join(f'\n[[player]]\ncollection = "{cl}"\ntokens = {t}\nbust_tokens = 0\n'
                      for cl, t in zip(colls, tokens))
    return (f'players = {len(colls)}\nactive = {active}\nme = {me}\nphase = "final"\n'
            f'buyers = {buyers}\ntableau = ""\nmarket = "{",".join(market)}"\n'
            f'out = "{",".join(out)}"\n{players}')


def decide(tmp_path, text: str, *extra) -> dict:
    path = tmp_path / "final.toml"
    path.write_text(text)
    r = subprocess.run([sys.executable, "-m", "analyzer", "ten", "decide", str(path), "-n", "20",
                        "--seed", "3", "--json", *extra], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def shares(out) -> dict:
    return {c: (st["estimate"], st["se"], st["ci_low"], st["ci_high"])
            for c, st in out["p_win"].items()}


def test_the_first_buyer_wins_by_buying_what_the_next_would_buy(tmp_path):
    # seat 1 buys now, seat 2 after it: no buy lets seat 2 buy r3 (3 points to 2): seat 1
    # loses; buy r3 gives seat 1 3 points to 2 and leaves seat 2 nothing to buy
    out = decide(tmp_path, final_position(1, [2], 1))
    assert out["exact"] is True and out["phase"] == "final"
    assert shares(out) == {"no buy": (0.0, 0.0, 0.0, 0.0), "buy r3": (1.0, 0.0, 1.0, 1.0)}
    assert out["recommendation"] == "buy r3" and out["margin"].startswith("exact")


def test_seats_that_bought_already_and_the_buyer_buy_nothing_more(tmp_path):
    # seat 2 buys last (buyers = []): seat 1 has had its buy and must not buy r3 now; so no
    # buy ties (2 points, 3 tokens and 2 cards each: a shared win, 1/2), buy r3 wins
    out = decide(tmp_path, final_position(2, [], 2))
    assert shares(out) == {"no buy": (0.5, 0.0, 0.5, 0.5), "buy r3": (1.0, 0.0, 1.0, 1.0)}
    # seat 1 first with seat 2 never buying: no buy ties only if seat 1 itself does not buy
    # again at the round's end
    out = decide(tmp_path, final_position(1, [2], 1), "--seats", "threshold,threshold:buy=never")
    assert shares(out)["no buy"] == (0.5, 0.0, 0.5, 0.5)


def test_a_random_buyer_later_leaves_the_answer_a_monte_carlo_one(tmp_path):
    out = decide(tmp_path, final_position(1, [2], 1), "--seats", "threshold,random")
    assert out["exact"] is False
    nb = out["p_win"]["no buy"]
    assert nb["se"] > 0 and 0.0 < nb["estimate"] < 1.0  # seat 2 buys r3 with chance 1/2


@pytest.mark.parametrize("change,words", [
    (("buyers = [2]", "buyers = [1]"), "the seats still to buy after the active seat 1"),
    (("buyers = [2]\n", ""), "needs 'buyers'"),
    (('out = "', 'out = "r1,'), "listed"),
])
def test_bad_final_positions_are_one_line(tmp_path, change, words):
    from analyzer.games.ten.position import load_position
    from analyzer.games.ten.rules import TenRules, load_deck

    path = tmp_path / "p.toml"
    path.write_text(final_position(1, [2], 1).replace(*change))
    with pytest.raises(UserError) as exc:
        load_position(path, TenRules(), load_deck(None))
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_a_final_position_with_cards_unlisted_is_refused(tmp_path):
    from analyzer.games.ten.position import load_position
    from analyzer.games.ten.rules import TenRules, load_deck

    path = tmp_path / "p.toml"
    path.write_text(final_position(1, [2], 1).replace(',$5"', '"', 1))  # one $5 unlisted
    with pytest.raises(UserError) as exc:
        load_position(path, TenRules(), load_deck(None))
    assert "1 cards of the deck are not listed" in str(exc.value)


def test_the_text_answer_says_exact(tmp_path):
    path = tmp_path / "final.toml"
    path.write_text(final_position(1, [2], 1))
    r = subprocess.run([sys.executable, "-m", "analyzer", "ten", "decide", str(path), "-n", "10",
                        "--seed", "1"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    text = " ".join(r.stdout.split())
    assert "which card to buy in the final round" in text
    assert "exact (every playout the same: SE 0)" in text
    assert "buy r3 1.0000 ± 0.0000 [1.0000, 1.0000]" in text and "→ buy r3 (exact:" in text
