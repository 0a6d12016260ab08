"""The Textual app of `pushluck play`, driven key by key by Textual's pilot in an 80×24 terminal:
a scripted game of each game with the displayed position checked after every entry (values by
hand from the rules pages), undo, a refused entry, completion, the help panel, save and the
answer compared with `decide` run as a separate command on the saved file, and the screenshot
the README shows (docs/images/play.svg)."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("textual")

from analyzer.play.app import PlayApp, help_text  # noqa: E402
from analyzer.play.ten import TenTable  # noqa: E402
from analyzer.play.trash_pandas import TrashPandasTable  # noqa: E402

SIZE = (80, 24)
N, SEED = 64, 7
SCREENSHOT = Path(__file__).resolve().parents[1] / "docs" / "images" / "play.svg"

# (entry, a line the position panel must show after it), 3 players, I am seat 2: the deal
# leaves 53 − 3 − 4 − 5 = 41 cards (docs/rules/trash-pandas.md, section 7)
TP_GAME = [
    ("deal feesh blammo doggo pie", "pile 41 · discard: nothing"),
    ("roll paw", "seat 1's turn (face): held none, rolled paw"),
    ("take", "seat 1's turn (roll): held paw"),
    ("roll trash", "rolled trash"),
    ("take", "held trash, paw"),
    ("stop", "seat 1's turn (resolve): held trash, paw"),
    ("draw 2", "seat 1: hand 5, face down 0, face up: nothing"),
    ("@3 play doggo", "pile 39 · discard: 1 Doggo"),
    ("stash 2", "seat 1: hand 3, face down 2, face up: nothing"),
    ("end", "seat 2's turn (roll): held none"),
    ("roll mask", "seat 2's turn (face): held none, rolled mask"),
    ("take", "seat 2's turn (roll): held mask"),
]
# 3 players, I am seat 2; every seat starts with 5 tokens (docs/rules/ten.md)
TEN_GAME = [
    ("draw r5", "tableau r5 (N 5, C 0, T 5)"),
    ("draw $2", "tableau r5, $2 (N 5, C 2, T 3)"),
    ("numbers", "seat 3: 7 tokens, 0 bust; no cards"),
    ("end", "seat 2's turn (draw): tableau empty"),
    ("draw b3", "tableau b3 (N 3, C 0, T 3)"),
    ("draw g#", "wild g# to auction"),
    ("won 3 2t", "seat 3: 5 tokens, 0 bust; g#"),
    ("draw o4", "tableau b3, o4 (N 7, C 0, T 7)"),
]


def text(app, selector: str) -> str:
    return str(app.query_one(selector).render())


async def type_entry(pilot, entry: str) -> None:
    keys = [{" ": "space", "@": "at", "#": "number_sign", "$": "dollar_sign"}.get(c, c)
            for c in entry]
    await pilot.press(*keys, "enter")
    await pilot.pause()


async def settle(app, pilot) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()


def decide_json(game: str, path: Path, *extra) -> dict:
    r = subprocess.run([sys.executable, "-m", "analyzer", game, "decide", str(path), "-n",
                        str(N), "--seed", str(SEED), *extra, "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def shown(stat) -> str:
    """A chance of winning as the answer panel prints it."""
    return f"{stat['estimate']:.3f} [{stat['ci_low']:.3f}, {stat['ci_high']:.3f}]"


def test_a_trash_pandas_game_key_by_key(tmp_path):
    save = tmp_path / "pos.toml"

    async def play():
        table = TrashPandasTable(3, 1)
        app = PlayApp(table, (N,), SEED, str(save), {"belief": "rules"})
        async with app.run_test(size=SIZE) as pilot:
            assert "deal CARD" in text(app, "#position")
            for entry, line in TP_GAME:
                await type_entry(pilot, entry)
                assert line in text(app, "#position").splitlines() or \
                    line in text(app, "#position"), (entry, text(app, "#position"))
                assert not text(app, "#message").startswith("refused"), text(app, "#message")
            # a refused entry: one line, nothing changes, the input keeps it
            before = text(app, "#position")
            await type_entry(pilot, "roll mask")
            await type_entry(pilot, "take")
            assert text(app, "#message") == ("refused: take: mask is already held: a repeat "
                                             "busts (bust, or play blammo / nanners)")
            assert "rolled mask" in text(app, "#position")
            assert app.query_one("#entry").value == "take"
            app.query_one("#entry").value = ""
            # undo (Ctrl+Z) takes back the roll
            await pilot.press("ctrl+z")
            await pilot.pause()
            assert text(app, "#position") == before
            assert text(app, "#message") == "undone: roll mask"
            # my choice: roll or stop, answered in a worker
            await settle(app, pilot)
            answer = text(app, "#answer")
            assert f"n = {N} playouts per choice, seed {SEED}" in answer
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert text(app, "#message").startswith(f"saved {save}")
            # 80×24: every panel inside the screen
            for sel in ("#position", "#answer", "#message", "#entry"):
                r = app.query_one(sel).region
                assert r.height > 0 and r.bottom <= SIZE[1] and r.right <= SIZE[0], sel
            return answer

    answer = asyncio.run(play())
    want = decide_json("trash-pandas", save, "--belief", "rules")
    assert [c["choice"] for c in want["choices"]] == ["stop", "roll"]
    for c in want["choices"]:
        assert f"{c['choice']:<10} {shown(c['p_win'])}" in answer, answer


def test_a_ten_game_key_by_key(tmp_path):
    save = tmp_path / "pos.toml"

    async def play():
        table = TenTable(3, 1)
        app = PlayApp(table, (N,), SEED, str(save))
        async with app.run_test(size=SIZE) as pilot:
            for entry, line in TEN_GAME:
                await type_entry(pilot, entry)
                assert line in text(app, "#position"), (entry, text(app, "#position"))
            await type_entry(pilot, "buy r5")
            assert text(app, "#message") == "refused: buy: buying follows taking the numbers"
            app.query_one("#entry").value = ""
            await settle(app, pilot)
            answer = text(app, "#answer")
            await pilot.press("escape", "s")  # out of the input line, `s` saves
            await pilot.pause()
            assert save.exists()
            return answer

    answer = asyncio.run(play())
    want = decide_json("ten", save)
    assert list(want["p_win"]) == ["draw", "numbers", "currency"]
    for choice, st in want["p_win"].items():
        assert f"{choice:<10} {shown(st)}" in answer, answer


def test_u_undoes_outside_the_input_and_letters_still_type_inside():
    async def play():
        table = TenTable(2, 0)
        app = PlayApp(table, (N,), SEED, "unused.toml")
        async with app.run_test(size=SIZE) as pilot:
            await type_entry(pilot, "draw r5")
            await pilot.press("s", "u")  # typed into the input, not keys
            await pilot.pause()
            assert app.query_one("#entry").value == "su" and table.entries == ["draw r5"]
            app.query_one("#entry").value = ""
            await pilot.press("escape", "u")
            await pilot.pause()
            assert table.entries == [] and text(app, "#message") == "undone: draw r5"
            await pilot.press("i", "n")
            await pilot.pause()
            assert app.query_one("#entry").value == "n"

    asyncio.run(play())


def test_tab_completes_entry_words_and_card_names():
    async def play():
        table = TrashPandasTable(2, 0)
        app = PlayApp(table, (N,), SEED, "unused.toml")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("d", "e")
            await pilot.pause()
            await pilot.press("tab")
            assert app.query_one("#entry").value == "deal "
            await pilot.press("y", "u")
            await pilot.pause()
            await pilot.press("tab")
            assert app.query_one("#entry").value == "deal yumyum "

    asyncio.run(play())


def test_the_help_panel_lists_every_key_and_entry_and_fits_80x24():
    keys = {"ctrl+z": "Ctrl+Z", "ctrl+s": "Ctrl+S", "f1": "F1", "ctrl+q": "Ctrl+Q",
            "escape": "Esc", "u": "u undo", "s": "s save", "question_mark": "? help",
            "q": "q quit", "i": "i input"}
    text_ = help_text(TrashPandasTable(2, 0))
    for b in PlayApp.BINDINGS:
        assert keys[b.key] in text_, b.key
    for word in TrashPandasTable.WORDS:
        assert f"\n  {word} " in text_ or f"\n  {word}:" in text_, word

    async def play():
        app = PlayApp(TrashPandasTable(4, 3), (N,), SEED, "unused.toml")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("f1")
            await pilot.pause()
            r = app.query_one("#help").region
            assert r.height > 0 and r.bottom <= SIZE[1] - 4  # above the input and footer
            assert app.query_one("#entry").region.bottom <= SIZE[1]
            await pilot.press("f1")
            await pilot.pause()
            assert app.query_one("#help").region.height == 0
            assert app.query_one("#position").region.height > 0

    asyncio.run(play())


def test_the_readme_screenshot_is_written_from_a_real_run():
    async def play():
        table = TrashPandasTable(3, 1)
        app = PlayApp(table, (N,), SEED, "unused.toml", {"belief": "rules"})
        async with app.run_test(size=SIZE) as pilot:
            for entry, _ in TP_GAME:
                await type_entry(pilot, entry)
            await settle(app, pilot)
            await pilot.press(*"roll pa")
            await pilot.pause()
            return app.export_screenshot(), text(app, "#answer")

    svg, answer = asyncio.run(play())
    assert svg.startswith("<svg") and "chance&#160;of&#160;winning" in svg
    assert "stop" in answer
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    SCREENSHOT.write_text(svg, encoding="utf-8")


def test_resizing_to_80x24_keeps_every_panel_on_screen():
    async def play():
        table = TrashPandasTable(4, 3)
        app = PlayApp(table, (N,), SEED, "unused.toml")
        async with app.run_test(size=(120, 40)) as pilot:
            await type_entry(pilot, "deal feesh blammo doggo pie nanners shiny")
            assert app.query_one("#entry").region.bottom > 24  # docked low on the big screen
            await pilot.resize_terminal(*SIZE)
            await pilot.pause()
            for sel in ("#position", "#answer", "#message", "#entry"):
                r = app.query_one(sel).region
                assert r.height > 0 and r.bottom <= SIZE[1] and r.right <= SIZE[0], sel
            # every line of the position fits in the panel (inside its border), none cut off
            lines = table.describe().splitlines()
            assert app.query_one("#position").region.height >= len(lines) + 2

    asyncio.run(play())


def test_answers_refine_and_a_stale_one_is_never_shown():
    """levels (16, 32): the panel ends on the 32-playout answer of the newest position; an
    entry made while the first answer is computed cancels that position's refinement."""
    import threading

    from analyzer.stats import wilson

    calls, gate = [], threading.Event()

    def ask(table, n, seed, **kw):
        k = len(table.entries)
        calls.append((k, n))
        if k == 1:
            gate.wait(10)  # the user types the next entry meanwhile
        return {"game": "ten", "me": 1, "n": n, "seed": seed, "recommendation": f"after {k}",
                "p_win": {"draw": wilson(1, 2)}}

    async def play():
        app = PlayApp(TenTable(2, 0), (16, 32), SEED, "unused.toml", ask=ask)
        async with app.run_test(size=SIZE) as pilot:
            await type_entry(pilot, "draw r5")  # my choice: the worker starts, and waits
            await type_entry(pilot, "draw r2")  # a newer position
            gate.set()
            await settle(app, pilot)
            await pilot.pause(0.2)
            await settle(app, pilot)
            return text(app, "#answer")

    answer = asyncio.run(play())
    assert "after 2" in answer and "n = 32 playouts" in answer, answer
    assert (1, 32) not in calls and calls[-2:] == [(2, 16), (2, 32)], calls


def test_the_command_opens_the_app_after_the_loaded_entries(tmp_path, monkeypatch):
    """`pushluck play ten --load FILE` (no --script): the app gets the table with FILE's
    entries applied, answers with n, 4n and 16n playouts, and saves into ./pushluck-play/
    (the default --out) as position.toml, creating nothing before the first save."""
    import analyzer.play.app as app_module
    from analyzer.cli.main import main

    opened = {}

    def fake_run(self):
        opened.update(entries=list(self.table.entries), levels=self.levels, seed=self.seed,
                      save=self.save_path.path, players=self.table.players, me=self.table.me)

    monkeypatch.setattr(app_module.PlayApp, "run", fake_run)
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "game.txt"
    script.write_text("draw r5\ndraw b4   # T = 9\n")
    with pytest.raises(SystemExit) as exc:
        main(["play", "ten", "--players", "3", "--me", "2", "--load", str(script), "-n", "50",
              "--seed", "9"])
    assert exc.value.code == 0
    assert opened == {"entries": ["draw r5", "draw b4"], "levels": (50, 200, 800), "seed": 9,
                      "save": "pushluck-play/position.toml", "players": 3, "me": 1}
    assert not (tmp_path / "pushluck-play").exists()


# Ten, 3 players, I am seat 1: seat 2 draws a wild; seats 3, 1 (me), 2 bid in that order
TEN_AUCTION = [
    ("draw r5", "tableau r5 (N 5, C 0, T 5)"),
    ("numbers", "seat 1 (me): 5 tokens, 0 bust; r5"),
    ("end", "seat 2's turn (draw): tableau empty"),
    ("draw b3", "tableau b3 (N 3, C 0, T 3)"),
    ("draw g#", "wild g# to auction: no bid yet, seat 3 to bid, then 1, 2"),
    ("bid 2", "wild g# to auction: bid 2 (seat 3), seat 1 to bid, then 2"),
]


def test_a_ten_auction_bid_by_bid_with_my_answer(tmp_path):
    save = tmp_path / "pos.toml"

    async def play():
        table = TenTable(3, 0)
        app = PlayApp(table, (N,), SEED, str(save))
        async with app.run_test(size=SIZE) as pilot:
            for entry, line in TEN_AUCTION:
                await type_entry(pilot, entry)
                assert line in text(app, "#position"), (entry, text(app, "#position"))
            await type_entry(pilot, "bid 2")
            assert text(app, "#message") == ("refused: bid: 2 does not beat the current bid 2 "
                                             "(seat 3)")
            app.query_one("#entry").value = ""
            await settle(app, pilot)
            answer = text(app, "#answer")
            for sel in ("#position", "#answer", "#message", "#entry"):  # 80×24 holds it all
                r = app.query_one(sel).region
                assert r.height > 0 and r.bottom <= SIZE[1] and r.right <= SIZE[0], sel
            pos = app.query_one("#position")  # every line shown (wrapped), none cut off
            width = pos.region.width - 4  # the border and the padding
            rows = sum(-(-len(x) // width) for x in table.describe().splitlines())
            assert pos.region.height >= rows + 2, (rows, pos.region)
            await pilot.press("ctrl+s")
            await pilot.pause()
            # my bid, then seat 2 (the active seat, last) passes: I pay
            await type_entry(pilot, "bid 4")
            assert "bid 4 (seat 1), seat 2 to bid (last)" in text(app, "#position")
            await type_entry(pilot, "pass")
            assert "seat 1 won g# at 4: pay" in text(app, "#position")
            await type_entry(pilot, "pay 3t r5")
            assert "seat 1 (me): 2 tokens, 0 bust; g#" in text(app, "#position")
            return answer

    answer = asyncio.run(play())
    want = decide_json("ten", save)
    # pass, bid 3 .. bid 6 (my means: 5 tokens and r5); decide lists each distinct bid
    assert list(want["p_win"]) == ["pass", "bid 3", "bid 4", "bid 5", "bid 6"]
    assert want["auction"]["current_bid"] == 2 and want["auction"]["to_bid"] == 1
    for choice, st in want["p_win"].items():
        assert f"{choice:<10} {shown(st)}" in answer, answer


def test_my_buy_in_tens_final_round_is_answered_exactly(tmp_path):
    """The pile played out card by card (entries replayed as --load does), then in the app:
    seat 1 buys nothing, my buy is answered exactly, as `ten decide` answers the saved
    position (phase final), and my buy ends my part of the round."""
    from tests.test_play_ten import play_out_the_pile

    save = tmp_path / "pos.toml"
    table = TenTable(3, 1)
    play_out_the_pile(table)
    assert table.state.phase == "final" and table.state.active == 0

    async def run():
        app = PlayApp(table, (N,), SEED, str(save))
        async with app.run_test(size=SIZE) as pilot:
            assert text(app, "#answer") == "no choice of mine now"
            await type_entry(pilot, "end")
            assert "seat 2's turn (final)" in text(app, "#position")
            assert "the final buy round: buy CARD or end, then 3" in text(app, "#position")
            await settle(app, pilot)
            answer = text(app, "#answer")
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert text(app, "#message").startswith(f"saved {save}")
            best = app.last_answer["recommendation"].split(" (")[0]
            await type_entry(pilot, best)
            assert text(app, "#message").startswith(f"seat 2 bought {best.split()[1]}")
            assert "seat 3's turn (final)" in text(app, "#position")
            return answer

    answer = asyncio.run(run())
    assert "exact (the pile is empty" in answer and "rule of thumb" not in answer
    want = decide_json("ten", save)
    assert want["exact"] is True and want["phase"] == "final"
    top = sorted(want["p_win"].items(), key=lambda x: -x[1]["estimate"])[:5]
    for choice, st in top:
        assert st["se"] == 0.0
    shown_rows = [x.strip() for x in answer.splitlines() if x.strip().startswith(("no buy", "buy"))]
    assert len(shown_rows) == 5
    for row in shown_rows:
        choice = row[:10].strip()
        assert row == f"{choice:<10} {shown(want['p_win'][choice])}", row


def test_saving_off_my_turn_keeps_the_entries_and_says_why_on_the_message_line(tmp_path):
    save = tmp_path / "pos.toml"

    async def play():
        app = PlayApp(TrashPandasTable(3, 1), (N,), SEED, str(save))
        async with app.run_test(size=SIZE) as pilot:
            await type_entry(pilot, "deal feesh blammo doggo pie")
            await type_entry(pilot, "roll paw")  # seat 1's turn
            await pilot.press("ctrl+s")
            await pilot.pause()
            return text(app, "#message")

    message = asyncio.run(play())
    assert " ".join(message.split()).startswith(
        f"saved {save}: the entries only, reopen with --load (seat 1 is playing and a "
        f"trash-pandas decide position is my own turn (seat 2)"), message
    lines = save.read_text().splitlines()
    assert [x for x in lines if x.startswith("#> ")] == ["#> deal feesh blammo doggo pie",
                                                         "#> roll paw"]
    assert all(x.startswith("#") or not x.strip() for x in lines)  # no position in it


def test_the_app_saves_inside_out_and_says_why_not_in_one_line(tmp_path):
    """Ctrl+S through the command's saver: the --out folder is made at the first save and the
    position lands inside it; a --out that is a file is refused on the message line."""
    from analyzer.cli.play import Saver

    afile = tmp_path / "afile"
    afile.write_text("x")

    async def play(out):
        table = TenTable(2, 0)
        app = PlayApp(table, (N,), SEED, Saver(table, str(out), "pos.toml"), ask=lambda *a, **k:
                      {"game": "ten", "me": 1, "n": 1, "seed": 1, "recommendation": "-",
                       "p_win": {}})
        async with app.run_test(size=SIZE) as pilot:
            await type_entry(pilot, "draw r5")
            await pilot.press("ctrl+s")
            await pilot.pause()
            return text(app, "#message")

    games = tmp_path / "games"
    assert not games.exists()
    assert asyncio.run(play(games)) == (f"saved {games}/pos.toml (pushluck ten decide "
                                        f"{games}/pos.toml)")
    assert [p.name for p in games.iterdir()] == ["pos.toml"]
    assert 'tableau = "r5"' in (games / "pos.toml").read_text()
    assert asyncio.run(play(afile)) == f"not saved: --out {afile}: exists and is not a folder"
